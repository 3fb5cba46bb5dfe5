//! The query parameters of the API, read by hand so that a list such as
//! `players=2,3` reads as `analyze --players 2,3` does and an unknown or
//! malformed parameter is a `400` naming it.

use crate::error::ApiError;
use std::collections::BTreeMap;

/// The parameters of one request, each taken at most once.
pub(crate) struct Params(BTreeMap<String, String>);

impl Params {
    /// The parameters, refusing any not in `known`.
    pub(crate) fn new(all: BTreeMap<String, String>, known: &[&str]) -> Result<Params, ApiError> {
        if let Some(k) = all.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(ApiError::bad_request(format!(
                "unknown query parameter {k:?} (this route takes {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        }
        Ok(Params(all))
    }

    /// A boolean: `true` or `false` (absent: `false`).
    pub(crate) fn flag(&self, key: &str) -> Result<bool, ApiError> {
        match self.0.get(key).map(String::as_str) {
            None | Some("false") => Ok(false),
            Some("true") | Some("") => Ok(true),
            Some(other) => Err(ApiError::bad_request(format!(
                "{key}={other:?}: expected true or false"
            ))),
        }
    }

    /// A number, parsed as `T`.
    pub(crate) fn number<T: std::str::FromStr>(&self, key: &str) -> Result<Option<T>, ApiError> {
        self.0
            .get(key)
            .map(|v| {
                v.trim()
                    .parse::<T>()
                    .map_err(|_| ApiError::bad_request(format!("{key}={v:?} is not a number")))
            })
            .transpose()
    }

    /// The raw text, when given.
    pub(crate) fn text(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    /// Player counts, comma-separated, each 1 to [`snakeladder::Board::MAX_PLAYERS`];
    /// `analyze`'s default 2,3,4,5,6 when absent.
    pub(crate) fn players(&self) -> Result<Vec<u32>, ApiError> {
        let Some(text) = self.0.get("players") else {
            return Ok(vec![2, 3, 4, 5, 6]);
        };
        text.split(',')
            .map(|p| match p.trim().parse::<u32>() {
                Ok(n) if (1..=snakeladder::Board::MAX_PLAYERS as u32).contains(&n) => Ok(n),
                _ => Err(ApiError::bad_request(format!(
                    "players: {p:?} is not a player count from 1 to {}",
                    snakeladder::Board::MAX_PLAYERS
                ))),
            })
            .collect()
    }
}
