//! The JSON form of a chain (docs/chain-format.md):
//!
//! ```json
//! {
//!   "states": 3,
//!   "transitions": [[0, 1, "1/2"], [0, 2, "1/2"], [1, 0, 1]],
//!   "initial": 0,
//!   "target": [2],
//!   "rewards": [1, 1, 0]
//! }
//! ```
//!
//! A probability or reward is a JSON number (an integer is exact, any other
//! number a float) or a string read as the explicit files' values are: a
//! decimal read exactly, or a fraction `p/q`.

use super::number::{parse_number, parse_state};
use crate::builder::{ChainBuilder, Pos};
use crate::chain::{Chain, Value};
use crate::error::{Error, Location, ProblemKind, Problems};
use num_rational::BigRational;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::path::Path;

/// A chain file as JSON holds it; see the module's documentation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        title = "Absorbing Markov chain",
        description = "An absorbing discrete-time Markov chain: transitions, initial distribution, target states and optional state rewards (docs/chain-format.md)."
    )
)]
pub(crate) struct ChainFile {
    /// The file's JSON Schema, for editors; not read.
    #[serde(rename = "$schema", default)]
    #[allow(dead_code)]
    schema: Option<String>,
    /// The number of states; states are numbered from 0.
    states: u64,
    /// The transitions, each `[from, to, probability]`. The transitions out
    /// of each state sum to one; every non-target state has some.
    transitions: Vec<(u64, u64, Number)>,
    /// The initial state, or the initial distribution as an object from
    /// state numbers (as strings) to probabilities.
    initial: Initial,
    /// The target states, or `"absorbing"` for the states whose only
    /// transition is a self-loop of probability one.
    target: Target,
    /// The reward earned in each state: a list of one per state, or an
    /// object from state numbers (as strings) to rewards, other states
    /// earning zero.
    #[serde(default)]
    rewards: Option<Rewards>,
}

/// A probability or a reward.
pub(crate) struct Number {
    value: Value,
    decimal: bool,
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Number, D::Error> {
        d.deserialize_any(NumberVisitor)
    }
}

struct NumberVisitor;

impl Visitor<'_> for NumberVisitor {
    type Value = Number;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number, or a string of a decimal or a fraction p/q")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
        Ok(exact(BigRational::from_integer(v.into())))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
        Ok(exact(BigRational::from_integer(v.into())))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number, E> {
        Ok(Number {
            value: Value::Float(v),
            decimal: false,
        })
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Number, E> {
        parse_number(v.as_bytes())
            .map(|(value, decimal)| Number { value, decimal })
            .map_err(|reason| {
                E::custom(format!(
                    "\"{}\" is not a number: {reason}",
                    crate::error::quote(v.as_bytes())
                ))
            })
    }
}

fn exact(r: BigRational) -> Number {
    Number {
        value: Value::Exact(r),
        decimal: false,
    }
}

/// A state number written as an object's key.
fn key_state<E: de::Error>(key: &str) -> Result<u64, E> {
    parse_state(key.as_bytes()).map_err(|reason| {
        E::custom(format!(
            "the key \"{}\" is not a state number: {reason}",
            crate::error::quote(key.as_bytes())
        ))
    })
}

/// `{"state": value, ...}` in the file's order, repeats kept (for the
/// builder to name).
fn state_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Vec<(u64, Number)>, A::Error> {
    let mut out = Vec::new();
    while let Some(key) = map.next_key::<String>()? {
        let s = key_state(&key)?;
        out.push((s, map.next_value::<Number>()?));
    }
    Ok(out)
}

/// `"initial"`.
pub(crate) enum Initial {
    State(u64),
    Distribution(Vec<(u64, Number)>),
}

impl<'de> Deserialize<'de> for Initial {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Initial, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Initial;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a state number, or an object from state numbers to probabilities")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Initial, E> {
                Ok(Initial::State(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Initial, A::Error> {
                state_map(map).map(Initial::Distribution)
            }
        }
        d.deserialize_any(V)
    }
}

/// `"target"`.
pub(crate) enum Target {
    States(Vec<u64>),
    Absorbing,
}

impl<'de> Deserialize<'de> for Target {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Target, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Target;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of state numbers, or \"absorbing\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Target, E> {
                if v == "absorbing" {
                    Ok(Target::Absorbing)
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(v), &self))
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Target, A::Error> {
                let mut out = Vec::new();
                while let Some(s) = seq.next_element::<u64>()? {
                    out.push(s);
                }
                Ok(Target::States(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// `"rewards"`.
pub(crate) enum Rewards {
    Dense(Vec<Number>),
    Sparse(Vec<(u64, Number)>),
}

impl<'de> Deserialize<'de> for Rewards {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Rewards, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Rewards;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a list of one reward per state, or an object from state numbers to rewards",
                )
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Rewards, A::Error> {
                let mut out = Vec::new();
                while let Some(r) = seq.next_element::<Number>()? {
                    out.push(r);
                }
                Ok(Rewards::Dense(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Rewards, A::Error> {
                state_map(map).map(Rewards::Sparse)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(feature = "schema")]
mod schema {
    use super::{Initial, Number, Rewards, Target};
    use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
    use std::borrow::Cow;

    /// A decimal (`0.1`, `1e-3`) or a fraction `p/q`, as the parser reads
    /// them.
    const NUMBER_PATTERN: &str =
        r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$|^[+-]?[0-9]+/[0-9]+$";

    impl JsonSchema for Number {
        fn schema_name() -> Cow<'static, str> {
            "Number".into()
        }
        fn json_schema(_: &mut SchemaGenerator) -> Schema {
            json_schema!({
                "description": "A probability or reward: a JSON number (an integer is exact, any other number a float), or a string read exactly: a decimal such as \"0.1\" or a fraction such as \"1/3\".",
                "oneOf": [
                    { "type": "number" },
                    { "type": "string", "pattern": NUMBER_PATTERN }
                ]
            })
        }
    }

    impl JsonSchema for Initial {
        fn schema_name() -> Cow<'static, str> {
            "Initial".into()
        }
        fn json_schema(generator: &mut SchemaGenerator) -> Schema {
            let number = generator.subschema_for::<Number>();
            json_schema!({
                "oneOf": [
                    { "type": "integer", "minimum": 0, "description": "The initial state." },
                    {
                        "type": "object",
                        "description": "The initial distribution: state number to probability, summing to one.",
                        "propertyNames": { "pattern": "^[0-9]+$" },
                        "additionalProperties": number,
                        "minProperties": 1
                    }
                ]
            })
        }
    }

    impl JsonSchema for Target {
        fn schema_name() -> Cow<'static, str> {
            "Target".into()
        }
        fn json_schema(_: &mut SchemaGenerator) -> Schema {
            json_schema!({
                "oneOf": [
                    {
                        "type": "array",
                        "description": "The target states.",
                        "items": { "type": "integer", "minimum": 0 },
                        "minItems": 1
                    },
                    {
                        "const": "absorbing",
                        "description": "The states whose only transition is a self-loop of probability one."
                    }
                ]
            })
        }
    }

    impl JsonSchema for Rewards {
        fn schema_name() -> Cow<'static, str> {
            "Rewards".into()
        }
        fn json_schema(generator: &mut SchemaGenerator) -> Schema {
            let number = generator.subschema_for::<Number>();
            json_schema!({
                "oneOf": [
                    { "type": "array", "description": "One reward per state.", "items": number },
                    {
                        "type": "object",
                        "description": "State number to reward; other states earn zero.",
                        "propertyNames": { "pattern": "^[0-9]+$" },
                        "additionalProperties": number
                    }
                ]
            })
        }
    }
}

/// The JSON Schema of the JSON form (docs/chain-format.md).
///
/// ```
/// let schema = absorbing::read::json_schema();
/// let text = serde_json::to_string(&schema).unwrap();
/// assert!(text.contains("\"transitions\""));
/// ```
#[cfg(feature = "schema")]
pub fn json_schema() -> schemars::Schema {
    schemars::schema_for!(ChainFile)
}

/// Reads a chain from its JSON form, and checks it.
///
/// `path` names the file in problems; a malformed file is one problem at
/// its line and column, a well-formed one with bad values names every
/// problem at its item (`transitions[3]`).
///
/// ```
/// let chain = absorbing::read::json(
///     br#"{"states": 2, "transitions": [[0, 0, "1/2"], [0, 1, "1/2"], [1, 1, 1]],
///          "initial": 0, "target": [1]}"#,
///     None,
/// )?;
/// assert_eq!(chain.row(0).collect::<Vec<_>>(), [(0, 0.5), (1, 0.5)]);
/// # Ok::<(), absorbing::Error>(())
/// ```
pub fn json(bytes: &[u8], path: Option<&Path>) -> Result<Chain, Error> {
    json_builder(bytes, path)?.build()
}

/// The chain of the JSON file at `path` ([`json`]).
///
/// # Errors
/// [`ErrorKind::Io`](crate::ErrorKind::Io) when the file cannot be read;
/// as [`json`] otherwise.
///
/// ```
/// let err = absorbing::read::json_file("/no/such/chain.json".as_ref()).unwrap_err();
/// assert!(err.to_string().contains("/no/such/chain.json"));
/// ```
pub fn json_file(path: &Path) -> Result<Chain, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    json(&bytes, Some(path))
}

/// The [`ChainBuilder`] of a chain's JSON form, to add to before building;
/// an error only when the file is malformed.
///
/// ```
/// let mut b = absorbing::read::json_builder(
///     br#"{"states": 2, "transitions": [[0, 1, 1], [1, 1, 1]], "initial": 0, "target": [1]}"#,
///     None,
/// )?;
/// let chain = b.state_rewards(vec![1.0, 0.0]).build()?;
/// assert_eq!(chain.rewards(), Some(&[1.0, 0.0][..]));
/// # Ok::<(), absorbing::Error>(())
/// ```
pub fn json_builder(bytes: &[u8], path: Option<&Path>) -> Result<ChainBuilder, Error> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let file: ChainFile = serde_json::from_slice(bytes).map_err(|e| {
        let mut problems = Problems::default();
        // serde_json counts columns from 1, and gives column 0 for an error
        // at the start of a line (the end of input after a newline).
        let at = Location::line(path, e.line() as u64, e.column().max(1) as u64);
        problems.push(
            ProblemKind::Json {
                message: message(&e),
            },
            at,
        );
        problems.into_error()
    })?;
    let mut b = ChainBuilder::uncounted();
    b.add_file(path);
    b.set_states(file.states, None);
    for (i, (from, to, p)) in file.transitions.into_iter().enumerate() {
        b.push_transition(from, to, p.value, p.decimal, Pos::Item(i));
    }
    match file.initial {
        Initial::State(s) => {
            let one = Value::Exact(BigRational::from_integer(1.into()));
            b.push_initial(s, one, Pos::Item(0));
        }
        Initial::Distribution(d) => {
            if d.is_empty() {
                b.clear_initial();
            }
            for (i, (s, p)) in d.into_iter().enumerate() {
                b.push_initial(s, p.value, Pos::Item(i));
            }
        }
    }
    match file.target {
        Target::Absorbing => {
            b.absorbing_targets();
        }
        Target::States(states) => {
            for (i, s) in states.into_iter().enumerate() {
                b.push_target(s, Pos::Item(i));
            }
        }
    }
    match file.rewards {
        None => {}
        Some(Rewards::Dense(list)) => {
            b.state_rewards(list.into_iter().map(|n| n.value).collect());
        }
        Some(Rewards::Sparse(list)) => {
            b.set_rewards_given();
            for (i, (s, r)) in list.into_iter().enumerate() {
                b.push_reward(s, r.value, Pos::Item(i));
            }
        }
    }
    Ok(b)
}

/// serde_json's message less its own " at line L column C", which the
/// problem's location gives.
///
/// serde_json quotes the input in some messages (an unknown field's name),
/// so the message is cut to [`MAX_JSON_MESSAGE_CHARS`] characters.
fn message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let full = match full.rfind(" at line ") {
        Some(i) => &full[..i],
        None => &full[..],
    };
    let mut chars = full.chars();
    let mut out: String = chars.by_ref().take(MAX_JSON_MESSAGE_CHARS).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

/// The longest message of a malformed JSON file, in characters.
const MAX_JSON_MESSAGE_CHARS: usize = 300;

/// The JSON form of a chain, which [`json`] reads back to the same chain:
/// exact values as fraction strings when the chain has them, floats as the
/// shortest decimals that read back to the same `f64`.
///
/// ```
/// use absorbing::ChainBuilder;
/// let chain = ChainBuilder::new(2)
///     .transitions([(0, 1, 0.25), (0, 0, 0.75), (1, 1, 1.0)])
///     .initial_state(0)
///     .targets([1])
///     .build()?;
/// let text = absorbing::read::to_json(&chain);
/// let again = absorbing::read::json(text.as_bytes(), None)?;
/// assert_eq!(again.row(0).collect::<Vec<_>>(), chain.row(0).collect::<Vec<_>>());
/// # Ok::<(), absorbing::Error>(())
/// ```
pub fn to_json(chain: &Chain) -> String {
    use serde_json::{Map, Value as J, json};
    let n = chain.len();
    let mut transitions = Vec::with_capacity(chain.entries());
    for s in 0..n {
        for k in chain.offsets[s]..chain.offsets[s + 1] {
            let p = match &chain.exact {
                Some(x) => J::String(x[k].to_string()),
                None => json!(chain.probs[k]),
            };
            transitions.push(json!([s, chain.cols[k], p]));
        }
    }
    let initial = match (&chain.initial_exact, chain.initial.as_slice()) {
        (Some(x), _) if x.len() == 1 && x[0].1 == BigRational::from_integer(1.into()) => {
            json!(x[0].0)
        }
        (Some(x), _) => J::Object(
            x.iter()
                .map(|(s, p)| (s.to_string(), J::String(p.to_string())))
                .collect::<Map<_, _>>(),
        ),
        (None, init) => J::Object(
            init.iter()
                .map(|(s, p)| (s.to_string(), json!(p)))
                .collect::<Map<_, _>>(),
        ),
    };
    let target: Vec<usize> = (0..n).filter(|&s| chain.target[s]).collect();
    let mut out = Map::new();
    out.insert("states".into(), json!(n));
    out.insert("transitions".into(), J::Array(transitions));
    out.insert("initial".into(), initial);
    out.insert("target".into(), json!(target));
    match (&chain.rewards_exact, &chain.rewards) {
        (Some(x), _) => {
            let list = x.iter().map(|r| J::String(r.to_string())).collect();
            out.insert("rewards".into(), J::Array(list));
        }
        (None, Some(r)) => {
            out.insert("rewards".into(), json!(r));
        }
        (None, None) => {}
    }
    serde_json::to_string_pretty(&J::Object(out)).expect("a JSON value serialises")
}
