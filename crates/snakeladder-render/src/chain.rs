//! `snakeladder chain`'s outputs: any absorbing chain's answers
//! (`absorbing::Answers`) as JSON and as text.
//!
//! Infinite expectations are `null` in JSON with the reason beside them,
//! and words in text, never a large number.

use absorbing::answers::Distribution;
use absorbing::{Answers, Bounded, Chain, Expectation};
use serde::Serialize;
use std::io::{self, Write};

/// Most states listed by number in a reason or a per-state table.
pub const MAX_LISTED_STATES: usize = 10;

/// Most distribution terms written in JSON: the rest are summed in the
/// distribution's `tail_beyond_listed`.
pub const MAX_JSON_STEPS: usize = 100_000;

/// What the answers are of, for the reader: sizes and the choices made.
#[derive(Clone, Debug)]
pub struct Described<'a> {
    /// The file the chain was read from, as given.
    pub source: &'a str,
    /// How the initial distribution was chosen, in words.
    pub initial: &'a str,
    /// How the targets were chosen, in words.
    pub target: &'a str,
}

/// `chain --format json` (docs/schema/chain.schema.json).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Serialize)]
pub struct Json {
    /// States of the chain.
    pub states: usize,
    /// Stored transitions.
    pub transitions: usize,
    /// Target states.
    pub targets: usize,
    /// How the initial distribution was chosen.
    pub initial: String,
    /// How the targets were chosen.
    pub target: String,
    /// The probability of reaching a target from the initial distribution.
    pub reach_probability: f64,
    /// Bound on its absolute error.
    pub reach_probability_error_bound: f64,
    /// The expected steps until a target, `null` when infinite.
    pub expected_steps: Option<f64>,
    /// Bound on its absolute error, `null` when infinite.
    pub expected_steps_error_bound: Option<f64>,
    /// Why the expected steps are infinite, when they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_steps_infinite_because: Option<String>,
    /// The variance of the steps, `null` when infinite.
    pub variance: Option<f64>,
    /// Bound on its absolute error, `null` when infinite.
    pub variance_error_bound: Option<f64>,
    /// The expected accumulated reward, when rewards were given (`null`
    /// when infinite).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_reward: Option<Option<f64>>,
    /// Bound on its absolute error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_reward_error_bound: Option<Option<f64>>,
    /// States that never reach a target and that the initial distribution
    /// can reach (the first [`MAX_LISTED_STATES`]).
    pub never_reaching: Vec<usize>,
    /// How many such states there are.
    pub never_reaching_count: usize,
    /// The distribution of the steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distribution: Option<StepsJson>,
    /// The certified fractions (`--exact`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<ExactJson>,
}

/// The steps' distribution in JSON.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Serialize)]
pub struct StepsJson {
    /// The median steps, when the distribution reaches 1/2.
    pub median: Option<usize>,
    /// The 90th percentile.
    pub p90: Option<usize>,
    /// The 99th percentile.
    pub p99: Option<usize>,
    /// `P(T = k)` for k = 0, 1, … (at most [`MAX_JSON_STEPS`] terms).
    pub pmf: Vec<f64>,
    /// `P(T ≤ k)`.
    pub cdf: Vec<f64>,
    /// The chance still live after the last step computed.
    pub tail: f64,
    /// The chance of having left for states that never reach a target.
    pub never: f64,
    /// Mass of the terms computed past [`MAX_JSON_STEPS`].
    pub tail_beyond_listed: f64,
    /// Bound on the absolute error of every term.
    pub error_bound: f64,
}

/// The certified fractions in JSON, as `"p/q"` strings.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Serialize)]
pub struct ExactJson {
    /// The probability of reaching a target.
    pub reach_probability: String,
    /// The expected steps, `null` when infinite.
    pub expected_steps: Option<String>,
    /// The variance of the steps, `null` when infinite.
    pub variance: Option<String>,
    /// The expected reward, when rewards were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_reward: Option<Option<String>>,
}

fn split(e: &Expectation) -> (Option<f64>, Option<f64>) {
    match e.finite() {
        Some(Bounded { value, error_bound }) => (Some(value), Some(error_bound)),
        None => (None, None),
    }
}

fn listed(states: &[usize]) -> String {
    let shown: Vec<String> = states
        .iter()
        .take(MAX_LISTED_STATES)
        .map(|s| s.to_string())
        .collect();
    match states.len() > MAX_LISTED_STATES {
        true => format!(
            "{} and {} more",
            shown.join(", "),
            states.len() - MAX_LISTED_STATES
        ),
        false => shown.join(", "),
    }
}

/// Why the expectations are infinite, in words, or `None` when they are
/// finite.
pub fn infinite_because(answers: &Answers) -> Option<String> {
    if answers.expected_steps().finite().is_some() {
        return None;
    }
    let p = answers.reach_probability().value;
    let never = answers.never_reached_from_initial();
    let mut why = format!(
        "the target is reached with probability {} < 1 from the initial distribution",
        p
    );
    if !never.is_empty() {
        why.push_str(&format!(
            "; it can move to {} state{} that never reach{} it: {}",
            never.len(),
            if never.len() == 1 { "" } else { "s" },
            if never.len() == 1 { "es" } else { "" },
            listed(never)
        ));
    }
    Some(why)
}

impl Json {
    /// The JSON body of `answers` on `chain`.
    pub fn new(chain: &Chain, answers: &Answers, described: &Described) -> Json {
        let (expected_steps, expected_steps_error_bound) = split(answers.expected_steps());
        let (variance, variance_error_bound) = split(answers.variance());
        let reward = answers.expected_reward().map(split);
        let never = answers.never_reached_from_initial();
        Json {
            states: chain.len(),
            transitions: chain.entries(),
            targets: (0..chain.len()).filter(|&s| chain.is_target(s)).count(),
            initial: described.initial.to_string(),
            target: described.target.to_string(),
            reach_probability: answers.reach_probability().value,
            reach_probability_error_bound: answers.reach_probability().error_bound,
            expected_steps,
            expected_steps_error_bound,
            expected_steps_infinite_because: infinite_because(answers),
            variance,
            variance_error_bound,
            expected_reward: reward.map(|r| r.0),
            expected_reward_error_bound: reward.map(|r| r.1),
            never_reaching: never.iter().take(MAX_LISTED_STATES).copied().collect(),
            never_reaching_count: never.len(),
            distribution: answers.distribution().map(steps_json),
            exact: answers.exact().map(|e| ExactJson {
                reach_probability: e.reach_probability.to_string(),
                expected_steps: e.expected_steps.as_ref().map(|x| x.to_string()),
                variance: e.variance.as_ref().map(|x| x.to_string()),
                expected_reward: answers
                    .expected_reward()
                    .map(|_| e.expected_reward.as_ref().map(|x| x.to_string())),
            }),
        }
    }
}

fn steps_json(d: &Distribution) -> StepsJson {
    let listed = d.pmf.len().min(MAX_JSON_STEPS);
    StepsJson {
        median: d.quantile(0.5),
        p90: d.quantile(0.9),
        p99: d.quantile(0.99),
        pmf: d.pmf[..listed].to_vec(),
        cdf: d.cdf[..listed].to_vec(),
        tail: d.tail,
        never: d.never,
        tail_beyond_listed: d.pmf[listed..].iter().sum(),
        error_bound: d.error_bound,
    }
}

/// `chain --format json`'s bytes.
///
/// # Errors
/// When serialization fails.
pub fn json(
    chain: &Chain,
    answers: &Answers,
    described: &Described,
) -> Result<Vec<u8>, serde_json::Error> {
    crate::json::pretty(&Json::new(chain, answers, described))
}

fn bounded(b: Bounded) -> String {
    format!("{} (± {:.1e})", b.value, b.error_bound)
}

/// `chain --format text`.
///
/// # Errors
/// When writing fails.
pub fn text(
    out: &mut impl Write,
    chain: &Chain,
    answers: &Answers,
    described: &Described,
) -> io::Result<()> {
    let targets = (0..chain.len()).filter(|&s| chain.is_target(s)).count();
    writeln!(
        out,
        "{}: {} states, {} transitions",
        crate::escape::terminal(described.source),
        chain.len(),
        chain.entries()
    )?;
    writeln!(
        out,
        "initial: {}",
        crate::escape::terminal(described.initial)
    )?;
    writeln!(
        out,
        "target: {} ({} state{})",
        crate::escape::terminal(described.target),
        targets,
        if targets == 1 { "" } else { "s" }
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "reach probability   {}",
        bounded(answers.reach_probability())
    )?;
    let infinite = infinite_because(answers);
    let expectation = |e: &Expectation| match e.finite() {
        Some(b) => bounded(b),
        None => "infinite".to_string(),
    };
    writeln!(
        out,
        "expected steps      {}",
        expectation(answers.expected_steps())
    )?;
    writeln!(
        out,
        "variance of steps   {}",
        expectation(answers.variance())
    )?;
    if let Some(r) = answers.expected_reward() {
        writeln!(out, "expected reward     {}", expectation(r))?;
    }
    if let Some(why) = infinite {
        writeln!(out, "  infinite because {why}")?;
    }
    if let Some(d) = answers.distribution() {
        let q = |p: f64| {
            d.quantile(p)
                .map_or("not reached".to_string(), |k| k.to_string())
        };
        writeln!(
            out,
            "steps               median {}, 90% {}, 99% {} (followed {} steps, {:.1e} still live)",
            q(0.5),
            q(0.9),
            q(0.99),
            d.pmf.len() - 1,
            d.tail
        )?;
    }
    if let Some(e) = answers.exact() {
        writeln!(out)?;
        writeln!(out, "exact, {}:", absorbing::exact::CERTIFIED)?;
        writeln!(out, "reach probability   {}", e.reach_probability)?;
        let fraction = |f: &Option<num_rational::BigRational>| {
            f.as_ref().map_or("infinite".to_string(), |x| x.to_string())
        };
        writeln!(out, "expected steps      {}", fraction(&e.expected_steps))?;
        writeln!(out, "variance of steps   {}", fraction(&e.variance))?;
        if answers.expected_reward().is_some() {
            writeln!(out, "expected reward     {}", fraction(&e.expected_reward))?;
        }
    }
    Ok(())
}
