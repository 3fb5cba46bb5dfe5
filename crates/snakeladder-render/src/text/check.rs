//! `check`'s text: the exact analysis against a simulation, one
//! comparison a line, and the verdict.

use crate::numbers::{percent, probability, tiny};
use snakeladder::check::{CheckReport, Test};
use std::io::Write;

/// Writes `check`'s text: the error rates, one line per comparison (`ok`
/// or `DIFFERS`, its test statistic against its threshold), how many
/// figures were too rare to compare, and the verdict.
///
/// ```
/// use snakeladder::check::check;
/// use snakeladder::simulate::SimulationConfig;
/// use snakeladder::{Board, Seed};
///
/// let board = Board::builtin_default();
/// let config = SimulationConfig::new(20_000, Seed::new(1))?.with_players(2)?;
/// let report = check(&board, &config)?;
/// let mut text = Vec::new();
/// snakeladder_render::text::write_check(&mut text, &report)?;
/// let text = String::from_utf8(text)?;
/// assert!(text.starts_with("20000 games, seed 1"));
/// // Proportions are percentages, as every output writes a chance.
/// let used: Vec<&str> = text.lines().filter(|l| l.contains("used at least once")).collect();
/// assert!(!used.is_empty());
/// assert!(used.iter().all(|l| l.ends_with('%') && l.contains("%, simulated ")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_check(out: &mut impl Write, r: &CheckReport) -> std::io::Result<()> {
    writeln!(
        out,
        "{} game{}, seed {}; family-wise error rate {}, {} per comparison",
        r.games,
        if r.games == 1 { "" } else { "s" },
        r.seed,
        tiny(r.family_error_rate),
        probability(r.comparison_error_rate, 6)
    )?;
    for c in &r.comparisons {
        // A proportion (a seat's wins, a jump used at least once) as a
        // percentage, as every other output writes a chance, with the
        // digits of the six decimals a mean keeps.
        let show = |x: f64| match c.test {
            Test::BinomialZ => percent(x, 4),
            _ => probability(x, 6),
        };
        let both = || format!("  exact {}, simulated {}", show(c.exact), show(c.simulated));
        let (test, figures) = match c.test {
            Test::KolmogorovSmirnov => ("KS D", String::new()),
            Test::ZMean => ("|z|", both()),
            Test::StudentT => ("|t|", both()),
            Test::BinomialZ => ("|z| binomial", both()),
        };
        writeln!(
            out,
            "{:<8} {:<40} {test} {:.4} ≤ {:.4}{figures}",
            if c.agrees { "ok" } else { "DIFFERS" },
            c.name,
            c.statistic,
            c.threshold
        )?;
    }
    if !r.skipped.is_empty() {
        writeln!(
            out,
            "{} figures too rare to compare at this many games",
            r.skipped.len()
        )?;
    }
    let failed = r.comparisons.iter().filter(|c| !c.agrees).count();
    if r.passed {
        writeln!(
            out,
            "agree: all {} comparisons within their thresholds",
            r.comparisons.len()
        )
    } else {
        writeln!(
            out,
            "DISAGREE: {failed} of {} comparisons outside their thresholds",
            r.comparisons.len()
        )
    }
}
