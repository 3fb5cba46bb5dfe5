//! Text as the reports print it: numbers (probabilities in scientific
//! notation when small, tick labels that differ) and strings from a board
//! file made safe for Markdown, HTML and SVG.

/// Tick labels below this magnitude print in scientific notation (`5e-4`);
/// above it a few decimals read better on an axis (`0.005`).
pub const SMALL_TICK: f64 = 1e-3;

/// A probability (or any figure of that size) as a report prints it: the
/// one rule of [`crate::numbers::probability`] at four decimals (`0.5078`,
/// `0.00157`, `3.14e-7`).
pub fn probability(p: f64) -> String {
    crate::numbers::probability(p, 4)
}

/// A signed difference printed like [`probability`], with its sign.
pub fn signed(d: f64) -> String {
    if d > 0.0 {
        format!("+{}", probability(d))
    } else {
        probability(d)
    }
}

/// A tick label on an axis of turns: whole turns, and from 10,000 on in
/// thousands or millions (`250k`, `1.5M`), so that the labels of a long
/// game's axis fit a phone's chart side by side.
pub fn turns_tick(turns: f64) -> String {
    let (scaled, unit) = match turns.abs() {
        t if t >= 1e6 => (turns / 1e6, "M"),
        t if t >= 1e4 => (turns / 1e3, "k"),
        _ => return format!("{turns:.0}"),
    };
    let text = format!("{scaled:.1}");
    format!("{}{unit}", text.strip_suffix(".0").unwrap_or(&text))
}

/// A tick label for `value` on an axis whose ticks are at least `step`
/// apart: enough digits that neighbouring ticks never read the same, and
/// scientific notation for small magnitudes (below [`SMALL_TICK`]).
/// Trailing zeros are dropped (`0.02`, not `0.0200`).
pub fn tick(value: f64, step: f64) -> String {
    let step = if step > 0.0 && step.is_finite() {
        step
    } else {
        value.abs()
    };
    // Zero, and a tick that is zero up to float noise (never "-0").
    if !value.is_finite() || value.abs() < step * 1e-6 || value == 0.0 {
        return "0".to_string();
    }
    // Decimal places that write the step exactly (0.0025 needs 4).
    let step_decimals = (0..=15)
        .find(|&d| {
            let scaled = step * 10f64.powi(d);
            scaled.round() >= 1.0 && (scaled - scaled.round()).abs() <= 1e-6 * scaled
        })
        .unwrap_or(15);
    if value.abs().max(step) < SMALL_TICK {
        let value_exp = value.abs().log10().floor() as i32;
        let digits = (step_decimals + value_exp).clamp(0, 8) as usize;
        trim_scientific(&format!("{value:.digits$e}"))
    } else {
        let decimals = step_decimals as usize;
        trim_fixed(&format!("{value:.decimals$}"))
    }
}

fn trim_fixed(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

fn trim_scientific(s: &str) -> String {
    match s.split_once('e') {
        Some((mantissa, exp)) => format!("{}e{exp}", trim_fixed(mantissa)),
        None => s.to_string(),
    }
}

/// A file-derived string on one line with nothing hidden
/// ([`crate::escape::visible`]).
pub fn visible(text: &str) -> String {
    crate::escape::visible(text)
}

/// Escapes a file-derived string for HTML or SVG element content and
/// attribute values (after [`visible`]).
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in visible(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The one Markdown escaper, shared with `diff`.
pub(crate) use crate::escape::markdown;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Whether every `c` in `md` is backslash-escaped.
    pub(crate) fn all_escaped(md: &str, c: char) -> bool {
        md.match_indices(c)
            .all(|(i, _)| i > 0 && md.as_bytes()[i - 1] == b'\\')
    }

    #[test]
    fn turn_ticks_are_short_on_long_axes() {
        let ticks: Vec<String> = [0.0, 40.0, 9_999.0, 10_000.0, 250_000.0, 1_500_000.0, 2e6]
            .iter()
            .map(|&t| turns_tick(t))
            .collect();
        assert_eq!(ticks, ["0", "40", "9999", "10k", "250k", "1.5M", "2M"]);
    }

    #[test]
    fn worked_examples() {
        assert_eq!(probability(0.507803), "0.5078");
        assert_eq!(probability(0.000_031_415_9), "3.14e-5");
        assert_eq!(probability(0.0), "0");
        assert_eq!(tick(0.02, 0.005), "0.02");
        assert_eq!(tick(0.025, 0.005), "0.025");
        assert_eq!(tick(0.00015, 0.00005), "1.5e-4");
        assert_eq!(tick(40.0, 10.0), "40");
        assert_eq!(markdown("a|b\n# <!--c (1993)"), r"a\|b \# \<\!--c (1993)");
    }

    #[test]
    fn probabilities_keep_three_significant_digits_when_small() {
        assert_eq!(probability(0.01), "0.0100");
        assert_eq!(probability(0.001_566), "0.00157");
        assert_eq!(probability(0.000_999_6), "1.00e-3");
        assert_eq!(probability(1.234_56e-12), "1.23e-12");
        assert_eq!(probability(-2.5e-6), "-2.50e-6");
        assert_eq!(signed(2.5e-6), "+2.50e-6");
        assert_eq!(signed(0.25), "+0.2500");
        assert_eq!(tick(-1e-17, 0.01), "0");
    }

    /// Ticks as plotters places them (multiples of a 1-2-5 step) must
    /// read differently from each other, at every scale.
    #[test]
    fn neighbouring_ticks_differ() {
        for exp in -14..4 {
            for base in [1.0, 2.0, 2.5, 5.0] {
                let step = base * 10f64.powi(exp);
                let labels: Vec<String> = (0..12).map(|i| tick(i as f64 * step, step)).collect();
                for pair in labels.windows(2) {
                    assert_ne!(pair[0], pair[1], "step {step:e}: {labels:?}");
                }
            }
        }
    }

    #[test]
    fn invisible_and_layout_characters_are_shown_or_flattened() {
        assert_eq!(visible("a\u{202E}b"), "a⟨U+202E⟩b");
        assert_eq!(visible("a\u{200B}b"), "a⟨U+200B⟩b");
        assert_eq!(visible("a\u{2028}b\nc"), "a b c");
        assert_eq!(
            html("<script>alert('x')</script> & \"co\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;co&quot;"
        );
    }

    #[test]
    fn markdown_structure_cannot_be_forged() {
        let forged = markdown("x\n# Heading\n| a | b |\n<!-- c --><b>d</b>");
        assert!(!forged.contains('\n'));
        for c in ['<', '|', '#', '!'] {
            assert!(all_escaped(&forged, c), "{c} in {forged}");
        }
    }
}
