//! `snakeladder schema KIND`: the JSON Schema of an output or input file,
//! generated from the types that write or read it, so the schema cannot
//! drift from the program. The same text is checked in under
//! `docs/schema/` (a test compares the two, and validates real outputs
//! against them).

use crate::common::{self, CliError, OfBoard, Versioned};
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use snakeladder::GameRecord;
use snakeladder::check::CheckReport;
use snakeladder::internals::BoardSpec;
use snakeladder::simulate::SimulationReport;
use snakeladder_render::diff::Diff;
use snakeladder_render::validate as output;
use std::io::Write;
use std::process::ExitCode;

/// The documents whose shape `schema` describes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// `analyze --format json`.
    Analyze,
    /// `simulate --format json`.
    Simulate,
    /// `check --format json`.
    Check,
    /// `validate --format json`.
    Validate,
    /// `diff --format json`.
    Diff,
    /// `tune --format json`.
    Tune,
    /// `generate --format json`.
    Generate,
    /// `play --format json`.
    Play,
    /// A board file, as `analyze`, `validate` and the other commands read it.
    Board,
    /// A game record, as `play --record` writes and `play --replay` reads it.
    Record,
    /// `chain --format json`.
    Chain,
    /// A chain file in JSON, as `chain` reads it.
    ChainFile,
}

impl Kind {
    /// The kind's name on the command line and in its file name
    /// (`docs/schema/NAME.schema.json`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Analyze => "analyze",
            Kind::Simulate => "simulate",
            Kind::Check => "check",
            Kind::Validate => "validate",
            Kind::Diff => "diff",
            Kind::Tune => "tune",
            Kind::Generate => "generate",
            Kind::Play => "play",
            Kind::Board => "board",
            Kind::Record => "record",
            Kind::Chain => "chain",
            Kind::ChainFile => "chain-file",
        }
    }

    /// What the document is, for the schema's `description`.
    fn description(self) -> &'static str {
        match self {
            Kind::Analyze => {
                "The output of `snakeladder analyze --format json`: every exact figure of a board. \
                 `schema` is the version of this shape; a key may be added without raising it."
            }
            Kind::Simulate => {
                "The output of `snakeladder simulate --format json`: every statistic of a seeded \
                 simulation with its standard error, in the shape of `analyze` where the figure \
                 is the same."
            }
            Kind::Check => {
                "The output of `snakeladder check --format json`: each exact figure against the \
                 simulation's estimate, and the verdict."
            }
            Kind::Validate => {
                "The output of `snakeladder validate --format json`: each file checked, every \
                 problem found, and the counts."
            }
            Kind::Diff => {
                "The output of `snakeladder diff --format json`: what a layout change does to the \
                 game, old against new."
            }
            Kind::Tune => {
                "The output of `snakeladder tune --format json`: the jump moves found, the mean \
                 turns before and after, and the tuned board file."
            }
            Kind::Generate => {
                "The output of `snakeladder generate --format json`: the generated board file, \
                 and with --target-turns what the search found."
            }
            Kind::Play => {
                "The output of `snakeladder play --format json`: the whole game (every roll, \
                 the status and the ranking) in the shape `play --record` writes."
            }
            Kind::Board => {
                "A snakeladder board file. Validation checks far more than this schema can say \
                 (jumps on the board, no two on one square, a winnable game): run \
                 `snakeladder validate`."
            }
            Kind::Record => {
                "A game record, as `snakeladder play --record` writes it and `play --replay` \
                 reads it."
            }
            Kind::Chain => {
                "The output of `snakeladder chain --format json`: any absorbing chain's reach \
                 probability, expected steps, variance and reward from its initial \
                 distribution, each with its certified error bound (`null` with a reason when \
                 infinite), the steps' distribution, and with --exact the certified fractions."
            }
            Kind::ChainFile => {
                "An absorbing Markov chain in JSON, as `snakeladder chain` reads it \
                 (docs/chain-format.md). Validation checks more than this schema can say \
                 (rows summing to one, states in range, no duplicate transitions)."
            }
        }
    }
}

/// Arguments of `schema`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which document's schema to print.
    #[arg(value_enum)]
    kind: Kind,
}

/// The schema of `kind`, as pretty JSON with a final newline.
pub fn text(kind: Kind) -> String {
    let schema = match kind {
        Kind::Analyze => output_schema::<Versioned<crate::analyze::Json>>(kind),
        Kind::Simulate => output_schema::<Versioned<OfBoard<SimulationReport>>>(kind),
        Kind::Check => output_schema::<Versioned<OfBoard<CheckReport>>>(kind),
        Kind::Validate => output_schema::<Versioned<output::Json>>(kind),
        Kind::Diff => output_schema::<Versioned<Diff>>(kind),
        Kind::Tune => output_schema::<Versioned<crate::outputs::Tune>>(kind),
        Kind::Generate => output_schema::<Versioned<crate::outputs::Generate>>(kind),
        Kind::Play => output_schema::<Versioned<crate::outputs::Play>>(kind),
        Kind::Board => input_schema::<BoardSpec>(kind),
        Kind::Record => input_schema::<GameRecord>(kind),
        Kind::Chain => output_schema::<Versioned<snakeladder_render::chain::Json>>(kind),
        Kind::ChainFile => titled(SchemaSettings::draft2020_12(), kind, |_| {
            absorbing::read::json_schema()
        }),
    };
    let mut value = schema.to_value();
    if kind == Kind::Board {
        // The reader skips a board file's "$schema", so an editor can be
        // pointed at this schema from the file itself.
        value["properties"][snakeladder::internals::BoardSpec::SCHEMA_KEY] = serde_json::json!({
            "description": "The JSON Schema of this file, for an editor (ignored by snakeladder), e.g. the path of docs/schema/board.schema.json.",
            "type": "string"
        });
    }
    plain_descriptions(&mut value);
    let mut text = serde_json::to_string_pretty(&value).expect("a schema always serialises");
    text.push('\n');
    text
}

/// Rewrites the doc comments that became `description`s for readers of
/// JSON rather than of rustdoc: a link `[`Board::fingerprint`](crate::…)`
/// or `[`JSON_SCHEMA`]` keeps only its text.
fn plain_descriptions(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    serde_json::Value::String(text) if key == "description" => {
                        *text = unlinked(text);
                    }
                    _ => plain_descriptions(v),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(plain_descriptions),
        _ => {}
    }
}

/// `text` with each rustdoc link written as its label alone: `[label](target)`
/// (a target without spaces) or `[`code`]`; other brackets stay.
fn unlinked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let label = &after[..close];
        let tail = &after[close + 1..];
        let target = tail
            .strip_prefix('(')
            .and_then(|t| t.find(')').map(|end| &t[..end]))
            .filter(|t| !t.is_empty() && !t.contains(char::is_whitespace));
        if let Some(target) = target {
            out.push_str(label);
            rest = &tail[target.len() + 2..];
        } else if label.len() >= 2 && label.starts_with('`') && label.ends_with('`') {
            out.push_str(label);
            rest = tail;
        } else {
            out.push('[');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The schema of a document the program writes: the keys as serialised.
fn output_schema<T: JsonSchema>(kind: Kind) -> Schema {
    titled(SchemaSettings::draft2020_12().for_serialize(), kind, |g| {
        g.root_schema_for::<T>()
    })
}

/// The schema of a document the program reads: what it accepts.
fn input_schema<T: JsonSchema>(kind: Kind) -> Schema {
    titled(
        SchemaSettings::draft2020_12().for_deserialize(),
        kind,
        |g| g.root_schema_for::<T>(),
    )
}

/// The root schema from `make`, with a title and `$id` naming the kind.
fn titled(
    settings: SchemaSettings,
    kind: Kind,
    make: impl FnOnce(&mut schemars::SchemaGenerator) -> Schema,
) -> Schema {
    let mut generator = settings.into_generator();
    let mut schema = make(&mut generator);
    schema.insert(
        "$id".to_string(),
        format!(
            "https://snakeladder.invalid/schema/{}.schema.json",
            kind.name()
        )
        .into(),
    );
    schema.insert(
        "title".to_string(),
        format!("snakeladder {}", kind.name()).into(),
    );
    schema.insert("description".to_string(), kind.description().into());
    schema
}

/// Runs `schema`: prints the schema of the kind asked for.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let mut out = common::stdout()?;
    out.write_all(text(args.kind).as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    #[test]
    fn links_keep_their_text() {
        assert_eq!(
            super::unlinked("See [`Board::fingerprint`](crate::Board::fingerprint) and [`LIMIT`]."),
            "See `Board::fingerprint` and `LIMIT`."
        );
        assert_eq!(
            super::unlinked("the [ranking](Game::ranking), [a] (b)"),
            "the ranking, [a] (b)"
        );
        assert_eq!(
            super::unlinked("P(T ≤ t) in [0, 1], `[x`"),
            "P(T ≤ t) in [0, 1], `[x`"
        );
    }
}
