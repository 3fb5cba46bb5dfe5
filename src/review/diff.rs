//! What a layout change does to the game: two analyses compared, for a
//! reviewer of the change (`snakeladder diff OLD NEW`).
//!
//! [`Diff::new`] takes the exact analyses of the old and the new board and
//! lists the headline figures side by side with their change, the jumps
//! added, removed and moved (with their use before and after), the squares
//! whose probability of being rested on changed most, and the rule changes.
//! [`Diff::text`], [`Diff::markdown`] and [`Diff::html`] render it; it
//! serialises as `diff --format json`.

use crate::analysis::Analysis;
use crate::{Board, JumpKind};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How many squares [`Diff::squares`] lists.
pub const SQUARES_SHOWN: usize = 10;

/// A rest-probability change smaller than this is no change: the figures
/// are exact up to `f64` rounding of sums of ~N terms, far below it.
pub const SQUARE_CHANGE_EPSILON: f64 = 1e-9;

/// One board of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Side {
    /// Where it was read from (a path, `-`, `REV:path`).
    pub source: String,
    /// Its name, if the file gives one.
    pub name: Option<String>,
    /// Its fingerprint.
    pub fingerprint: String,
}

/// A headline figure before and after.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FigureChange {
    /// A stable name (`mean`, `seat1_advantage_2`); the `--fail-if`
    /// expressions use it.
    pub name: String,
    /// What it is, for people.
    pub label: String,
    /// Its value on the old board (`None` when not computed).
    pub old: Option<f64>,
    /// Its value on the new board.
    pub new: Option<f64>,
}

impl FigureChange {
    /// `new − old`.
    pub fn change(&self) -> Option<f64> {
        Some(self.new? - self.old?)
    }

    /// `(new − old) / |old|`, `None` when old is 0.
    pub fn relative_change(&self) -> Option<f64> {
        let (old, new) = (self.old?, self.new?);
        (old != 0.0).then(|| (new - old) / old.abs())
    }
}

/// How a jump changed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum JumpChange {
    /// Only on the new board.
    Added,
    /// Only on the old board.
    Removed,
    /// One end moved: the same kind from the same square or to the same
    /// square.
    Moved,
}

/// A jump as one board has it, with its use.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct JumpSide {
    /// Start square.
    pub from: u32,
    /// End square.
    pub to: u32,
    /// Probability that one player's game uses it at least once (`None`
    /// when per-jump figures were skipped).
    pub use_probability: Option<f64>,
}

/// A changed jump.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct JumpDiff {
    /// Added, removed or moved.
    pub change: JumpChange,
    /// Snake or ladder.
    pub kind: JumpKind,
    /// On the old board.
    pub old: Option<JumpSide>,
    /// On the new board.
    pub new: Option<JumpSide>,
}

/// A square whose probability of ever being rested on changed.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SquareDiff {
    /// The square.
    pub square: u32,
    /// Before (0 where a token cannot rest, e.g. a jump's start).
    pub old: f64,
    /// After.
    pub new: f64,
}

/// A rule that differs.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RuleDiff {
    /// The field (`squares`, `dice`, `overshoot`...).
    pub field: String,
    /// Before, as JSON.
    pub old: String,
    /// After, as JSON.
    pub new: String,
}

/// The comparison of two boards.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Diff {
    /// The old board.
    pub old: Side,
    /// The new board.
    pub new: Side,
    /// Headline figures.
    pub figures: Vec<FigureChange>,
    /// Jumps added, removed and moved, by square.
    pub jumps: Vec<JumpDiff>,
    /// The squares whose rest probability changed most (at most
    /// [`SQUARES_SHOWN`]), largest change first.
    pub squares: Vec<SquareDiff>,
    /// Rule and size changes.
    pub rules: Vec<RuleDiff>,
    /// Why a figure shown as "–" is missing: each figure an analysis
    /// skipped, with its board (`old: skipped seat odds: it needs …`). A
    /// figure is never missing without a line here.
    pub skipped: Vec<String>,
    /// The two length distributions `P(T = t)` (`pmf[t − 1]`), old then new,
    /// for charts; not serialised.
    #[serde(skip)]
    pub pmfs: [Vec<f64>; 2],
}

impl Diff {
    /// Compares two analysed boards. Both analyses should have seat odds
    /// for 2..=6 players ([`crate::analysis::Options::default`]).
    pub fn new(old: (&Board, &Analysis, String), new: (&Board, &Analysis, String)) -> Diff {
        let (ob, oa, osrc) = old;
        let (nb, na, nsrc) = new;
        let side = |a: &Analysis, source: String| Side {
            source,
            name: a.board.name.clone(),
            fingerprint: a.fingerprint.clone(),
        };
        let mut figures = Vec::new();
        let mut fig = |name: &str, label: &str, f: &dyn Fn(&Analysis) -> Option<f64>| {
            figures.push(FigureChange {
                name: name.to_string(),
                label: label.to_string(),
                old: f(oa),
                new: f(na),
            })
        };
        let turns = |t: Option<usize>| t.map(|t| t as f64);
        fig("mean", "mean turns", &|a| Some(a.turns.mean));
        fig("median", "median turns", &|a| turns(a.turns.median));
        fig("p90", "90% of games over by", &|a| turns(a.turns.p90));
        fig("p99", "99% of games over by", &|a| turns(a.turns.p99));
        fig("shortest", "shortest game (turns)", &|a| turns(a.turns.min));
        for n in 2..=6u32 {
            let players = move |a: &Analysis| a.players.iter().find(|p| p.count == n).cloned();
            fig(
                &format!("seat1_advantage_{n}"),
                &format!("seat 1 − seat 2 wins, {n} players"),
                &|a| players(a).map(|p| p.win_probability[0] - p.win_probability[1]),
            );
            fig(
                &format!("rounds_{n}"),
                &format!("expected rounds, {n} players"),
                &|a| players(a).map(|p| p.expected_rounds),
            );
        }
        Diff {
            old: side(oa, osrc),
            new: side(na, nsrc),
            figures,
            jumps: jump_changes(ob, oa, nb, na),
            squares: square_changes(oa, na),
            rules: rule_changes(ob, nb),
            skipped: [("old", oa), ("new", na)]
                .iter()
                .flat_map(|(side, a)| a.skipped.iter().map(move |s| format!("{side}: {s}")))
                .collect(),
            pmfs: [oa.turns.pmf.clone(), na.turns.pmf.clone()],
        }
    }

    /// A headline figure by name.
    pub fn figure(&self, name: &str) -> Option<&FigureChange> {
        self.figures.iter().find(|f| f.name == name)
    }
}

/// A jump of one board: its ends, its kind and its use probability.
type Written = ((u32, u32), (JumpKind, Option<f64>));

fn jump_changes(ob: &Board, oa: &Analysis, nb: &Board, na: &Analysis) -> Vec<JumpDiff> {
    let uses = |b: &Board, a: &Analysis| -> BTreeMap<(u32, u32), (JumpKind, Option<f64>)> {
        b.jumps()
            .iter()
            .map(|j| {
                let (from, to) = (j.from().get(), j.to().get());
                let p = a
                    .jumps
                    .iter()
                    .find(|f| f.from.get() == from && f.to.get() == to)
                    .map(|f| f.use_probability);
                ((from, to), (j.kind(), p))
            })
            .collect()
    };
    let (old, new) = (uses(ob, oa), uses(nb, na));
    let mut removed: Vec<Written> = old
        .iter()
        .filter(|(k, _)| !new.contains_key(k))
        .map(|(k, v)| (*k, *v))
        .collect();
    let mut added: Vec<Written> = new
        .iter()
        .filter(|(k, _)| !old.contains_key(k))
        .map(|(k, v)| (*k, *v))
        .collect();
    let use_of = |(from, to): (u32, u32), p: Option<f64>| JumpSide {
        from,
        to,
        use_probability: p,
    };
    let mut out = Vec::new();
    // A removed jump and an added one of the same kind sharing an end are
    // one jump moved: the same end first, then the same start.
    for same_end in [true, false] {
        let mut i = 0;
        while i < removed.len() {
            let (r, (kind, rp)) = removed[i];
            let matched = added.iter().position(|&(a, (k, _))| {
                k == kind && if same_end { a.1 == r.1 } else { a.0 == r.0 }
            });
            match matched {
                Some(m) => {
                    let (a, (_, ap)) = added.remove(m);
                    removed.remove(i);
                    out.push(JumpDiff {
                        change: JumpChange::Moved,
                        kind,
                        old: Some(use_of(r, rp)),
                        new: Some(use_of(a, ap)),
                    });
                }
                None => i += 1,
            }
        }
    }
    out.extend(removed.into_iter().map(|(r, (kind, p))| JumpDiff {
        change: JumpChange::Removed,
        kind,
        old: Some(use_of(r, p)),
        new: None,
    }));
    out.extend(added.into_iter().map(|(a, (kind, p))| JumpDiff {
        change: JumpChange::Added,
        kind,
        old: None,
        new: Some(use_of(a, p)),
    }));
    let key = |j: &JumpDiff| j.old.or(j.new).map(|u| (u.from, u.to));
    out.sort_by_key(key);
    out
}

fn square_changes(oa: &Analysis, na: &Analysis) -> Vec<SquareDiff> {
    let rests = |a: &Analysis| -> BTreeMap<u32, f64> {
        a.squares
            .iter()
            .filter_map(|s| Some((s.square.get(), s.rest_probability?)))
            .collect()
    };
    let (old, new) = (rests(oa), rests(na));
    let mut squares: Vec<SquareDiff> = old
        .keys()
        .chain(new.keys())
        .copied()
        .collect::<std::collections::BTreeSet<u32>>()
        .into_iter()
        .map(|s| SquareDiff {
            square: s,
            old: old.get(&s).copied().unwrap_or(0.0),
            new: new.get(&s).copied().unwrap_or(0.0),
        })
        .filter(|d| (d.new - d.old).abs() > SQUARE_CHANGE_EPSILON)
        .collect();
    squares.sort_by(|a, b| {
        (b.new - b.old)
            .abs()
            .total_cmp(&(a.new - a.old).abs())
            .then(a.square.cmp(&b.square))
    });
    squares.truncate(SQUARES_SHOWN);
    squares
}

fn rule_changes(ob: &Board, nb: &Board) -> Vec<RuleDiff> {
    let mut out = Vec::new();
    let compact = |v: &serde_json::Value| serde_json::to_string(v).unwrap_or_default();
    for (field, old, new) in [
        ("squares", ob.last().get(), nb.last().get()),
        ("width", ob.width(), nb.width()),
    ] {
        if old != new {
            out.push(RuleDiff {
                field: field.to_string(),
                old: old.to_string(),
                new: new.to_string(),
            });
        }
    }
    let as_map = |b: &Board| match serde_json::to_value(b.rules().spec()) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    let (old, new) = (as_map(ob), as_map(nb));
    let null = serde_json::Value::Null;
    let keys: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for key in keys {
        let (o, n) = (old.get(key).unwrap_or(&null), new.get(key).unwrap_or(&null));
        if o != n {
            out.push(RuleDiff {
                field: format!("rules.{key}"),
                old: compact(o),
                new: compact(n),
            });
        }
    }
    out
}

fn value(x: Option<f64>, name: &str) -> String {
    match x {
        None => "–".to_string(),
        Some(v) if name.starts_with("seat1") => format!("{v:+.6}"),
        Some(v) if name == "mean" || name.starts_with("rounds") => format!("{v:.4}"),
        Some(v) => format!("{v}"),
    }
}

fn change(f: &FigureChange) -> String {
    match (f.change(), f.relative_change()) {
        (None, _) => "–".to_string(),
        (Some(0.0), _) => "0".to_string(),
        (Some(d), rel) => {
            let d = if f.name.starts_with("seat1") {
                format!("{d:+.6}")
            } else if f.name == "mean" || f.name.starts_with("rounds") {
                format!("{d:+.4}")
            } else {
                format!("{d:+}")
            };
            match rel {
                Some(r) if !f.name.starts_with("seat1") => format!("{d} ({:+.1}%)", r * 100.0),
                _ => d,
            }
        }
    }
}

fn jump_text(j: Option<JumpSide>) -> String {
    match j {
        None => "–".to_string(),
        Some(u) => match u.use_probability {
            Some(p) => format!("{}→{} (used in {:.2}% of games)", u.from, u.to, p * 100.0),
            None => format!("{}→{}", u.from, u.to),
        },
    }
}

fn kind_word(k: JumpKind) -> &'static str {
    match k {
        JumpKind::Ladder => "ladder",
        JumpKind::Snake => "snake",
    }
}

fn title(s: &Side) -> String {
    match &s.name {
        Some(n) => format!("{} ({})", crate::review::escape_controls(n), s.source),
        None => s.source.clone(),
    }
}

impl Diff {
    /// Whether the boards differ in layout or rules.
    pub fn same_board(&self) -> bool {
        self.old.fingerprint == self.new.fingerprint
    }

    /// Plain text for a terminal.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "old: {}  fingerprint {}",
            title(&self.old),
            self.old.fingerprint
        );
        let _ = writeln!(
            out,
            "new: {}  fingerprint {}",
            title(&self.new),
            self.new.fingerprint
        );
        if self.same_board() {
            let _ = writeln!(out, "\nThe layouts and rules are the same.");
        }
        let _ = writeln!(
            out,
            "\n{:<34} {:>12} {:>12}  change",
            "figure", "old", "new"
        );
        for f in &self.figures {
            let _ = writeln!(
                out,
                "{:<34} {:>12} {:>12}  {}",
                f.label,
                value(f.old, &f.name),
                value(f.new, &f.name),
                change(f)
            );
        }
        for why in &self.skipped {
            let _ = writeln!(out, "note: {why}");
        }
        if !self.jumps.is_empty() {
            let _ = writeln!(out, "\nJumps");
            for j in &self.jumps {
                let _ = writeln!(
                    out,
                    "  {:<8} {:<7} {}  →  {}",
                    format!("{:?}", j.change).to_lowercase(),
                    kind_word(j.kind),
                    jump_text(j.old),
                    jump_text(j.new)
                );
            }
        }
        if !self.squares.is_empty() {
            let _ = writeln!(out, "\nSquares whose P(ever rests there) changed most");
            for s in &self.squares {
                let _ = writeln!(
                    out,
                    "  {:>6}  {:>7.2}% → {:>7.2}%  ({:+.2} points)",
                    s.square,
                    s.old * 100.0,
                    s.new * 100.0,
                    (s.new - s.old) * 100.0
                );
            }
        }
        if !self.rules.is_empty() {
            let _ = writeln!(out, "\nRules");
            for r in &self.rules {
                let _ = writeln!(out, "  {}: {} → {}", r.field, r.old, r.new);
            }
        }
        out
    }

    /// Markdown for a pull-request comment or `$GITHUB_STEP_SUMMARY`: a
    /// summary table, the details folded in `<details>`.
    pub fn markdown(&self) -> String {
        let cell = |s: &str| md_escape(s);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "### Layout change: {} → {}\n",
            cell(&title(&self.old)),
            cell(&title(&self.new))
        );
        if self.same_board() {
            let _ = writeln!(out, "The layouts and rules are the same.\n");
        }
        let _ = writeln!(out, "| figure | old | new | change |");
        let _ = writeln!(out, "| --- | ---: | ---: | ---: |");
        for f in self.figures.iter().filter(|f| {
            !(f.name.starts_with("seat1") || f.name.starts_with("rounds")) || f.name.ends_with("_2")
        }) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                cell(&f.label),
                value(f.old, &f.name),
                value(f.new, &f.name),
                change(f)
            );
        }
        for why in &self.skipped {
            let _ = writeln!(out, "\n*Note:* {}", cell(why));
        }
        let _ = writeln!(
            out,
            "\n{} jump{} changed, {} rule{} changed.\n",
            self.jumps.len(),
            if self.jumps.len() == 1 { "" } else { "s" },
            self.rules.len(),
            if self.rules.len() == 1 { "" } else { "s" },
        );
        let _ = writeln!(out, "<details><summary>Details</summary>\n");
        let _ = writeln!(out, "#### Seat odds and rounds, 2–6 players\n");
        let _ = writeln!(out, "| figure | old | new | change |");
        let _ = writeln!(out, "| --- | ---: | ---: | ---: |");
        for f in self
            .figures
            .iter()
            .filter(|f| f.name.starts_with("seat1") || f.name.starts_with("rounds"))
        {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                cell(&f.label),
                value(f.old, &f.name),
                value(f.new, &f.name),
                change(f)
            );
        }
        if !self.jumps.is_empty() {
            let _ = writeln!(out, "\n#### Jumps\n");
            let _ = writeln!(out, "| change | kind | old | new |");
            let _ = writeln!(out, "| --- | --- | --- | --- |");
            for j in &self.jumps {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} |",
                    format!("{:?}", j.change).to_lowercase(),
                    kind_word(j.kind),
                    jump_text(j.old),
                    jump_text(j.new)
                );
            }
        }
        if !self.squares.is_empty() {
            let _ = writeln!(
                out,
                "\n#### Squares whose P(ever rests there) changed most\n"
            );
            let _ = writeln!(out, "| square | old | new | change (points) |");
            let _ = writeln!(out, "| ---: | ---: | ---: | ---: |");
            for s in &self.squares {
                let _ = writeln!(
                    out,
                    "| {} | {:.2}% | {:.2}% | {:+.2} |",
                    s.square,
                    s.old * 100.0,
                    s.new * 100.0,
                    (s.new - s.old) * 100.0
                );
            }
        }
        if !self.rules.is_empty() {
            let _ = writeln!(out, "\n#### Rules\n");
            let _ = writeln!(out, "| field | old | new |");
            let _ = writeln!(out, "| --- | --- | --- |");
            for r in &self.rules {
                let _ = writeln!(out, "| {} | {} | {} |", r.field, cell(&r.old), cell(&r.new));
            }
        }
        let _ = writeln!(out, "\n</details>");
        out
    }
}

/// Text safe in a Markdown table cell or heading: the one Markdown
/// escaper, shared with `report` ([`crate::review::escape::markdown`]).
fn md_escape(s: &str) -> String {
    crate::review::escape::markdown(s)
}

/// Share of each length distribution drawn in the overlay chart.
const CHART_MASS: f64 = 0.999;

impl Diff {
    /// A self-contained HTML page: the summary table, both boards drawn
    /// (with the report's board drawing), the two length
    /// distributions overlaid, and the details. `old` and `new` are the
    /// boards compared.
    pub fn html(&self, old: &Board, new: &Board) -> String {
        let esc = html_escape;
        let mut h = String::new();
        let heading = format!("Layout change: {} → {}", title(&self.old), title(&self.new));
        let _ = writeln!(
            h,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>",
            esc(&heading),
            esc(&heading)
        );
        if self.same_board() {
            let _ = writeln!(h, "<p>The layouts and rules are the same.</p>");
        }
        let _ = writeln!(
            h,
            "<table>\n<tr><th>figure</th><th>old</th><th>new</th><th>change</th></tr>"
        );
        for f in &self.figures {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                esc(&f.label),
                esc(&value(f.old, &f.name)),
                esc(&value(f.new, &f.name)),
                esc(&change(f))
            );
        }
        let _ = writeln!(h, "</table>");
        let _ = writeln!(h, "<h2>Game length of one player</h2>");
        chart(&mut h, overlay_chart(&self.pmfs[0], &self.pmfs[1]));
        let _ = writeln!(h, "<h2>The boards</h2>\n<div class=\"boards\">");
        for (side, board) in [(&self.old, old), (&self.new, new)] {
            let _ = writeln!(h, "<figure><figcaption>{}</figcaption>", esc(&title(side)));
            chart(
                &mut h,
                crate::report::charts::board_svg(
                    board,
                    &title(side),
                    &crate::report::charts::Overlay::default(),
                )
                .map_err(|e| e.to_string()),
            );
            let _ = writeln!(h, "</figure>");
        }
        let _ = writeln!(h, "</div>");
        if !self.jumps.is_empty() {
            let _ = writeln!(
                h,
                "<h2>Jumps</h2>\n<table>\n<tr><th>change</th><th>kind</th><th>old</th><th>new</th></tr>"
            );
            for j in &self.jumps {
                let _ = writeln!(
                    h,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    format!("{:?}", j.change).to_lowercase(),
                    kind_word(j.kind),
                    esc(&jump_text(j.old)),
                    esc(&jump_text(j.new))
                );
            }
            let _ = writeln!(h, "</table>");
        }
        if !self.squares.is_empty() {
            let _ = writeln!(
                h,
                "<h2>Squares whose P(ever rests there) changed most</h2>\n<table>\n<tr><th>square</th><th>old</th><th>new</th><th>change (points)</th></tr>"
            );
            for s in &self.squares {
                let _ = writeln!(
                    h,
                    "<tr><td class=\"n\">{}</td><td class=\"n\">{:.2}%</td><td class=\"n\">{:.2}%</td><td class=\"n\">{:+.2}</td></tr>",
                    s.square,
                    s.old * 100.0,
                    s.new * 100.0,
                    (s.new - s.old) * 100.0
                );
            }
            let _ = writeln!(h, "</table>");
        }
        if !self.rules.is_empty() {
            let _ = writeln!(
                h,
                "<h2>Rules</h2>\n<table>\n<tr><th>field</th><th>old</th><th>new</th></tr>"
            );
            for r in &self.rules {
                let _ = writeln!(
                    h,
                    "<tr><td>{}</td><td><code>{}</code></td><td><code>{}</code></td></tr>",
                    esc(&r.field),
                    esc(&r.old),
                    esc(&r.new)
                );
            }
            let _ = writeln!(h, "</table>");
        }
        let _ = writeln!(h, "</body>\n</html>");
        h
    }
}

const STYLE: &str = "body{font-family:sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}\
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .6rem}\
td.n{text-align:right;font-variant-numeric:tabular-nums}.boards{display:flex;flex-wrap:wrap;gap:1rem}\
figure{margin:0}svg{max-width:100%;height:auto}";

fn chart(h: &mut String, svg: Result<String, String>) {
    match svg {
        Ok(svg) => h.push_str(&svg),
        Err(e) => {
            let _ = writeln!(h, "<p>(chart not drawn: {})</p>", html_escape(&e));
        }
    }
    h.push('\n');
}

fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The two length distributions as lines on one chart, each cut where its
/// cumulative probability reaches [`CHART_MASS`].
fn overlay_chart(old: &[f64], new: &[f64]) -> Result<String, String> {
    use plotters::prelude::*;
    let shown = |pmf: &[f64]| {
        let mut cumulative = 0.0;
        pmf.iter()
            .position(|p| {
                cumulative += p;
                cumulative >= CHART_MASS
            })
            .map_or(pmf.len(), |i| i + 1)
    };
    let until = shown(old).max(shown(new)).max(1);
    let top = old
        .iter()
        .chain(new)
        .copied()
        .fold(0.0_f64, f64::max)
        .max(f64::MIN_POSITIVE)
        * 1.1;
    let err = |e: &dyn std::fmt::Debug| format!("cannot draw the length overlay: {e:?}");
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 360)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Game length: P(T = t), old and new", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(0.5_f64..until as f64 + 0.5, 0.0..top)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("turns t")
            .y_desc("probability")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.3}"))
            .draw()
            .map_err(|e| err(&e))?;
        for (label, pmf, color) in [
            ("old", old, RGBColor(120, 120, 120)),
            ("new", new, RGBColor(52, 101, 164)),
        ] {
            chart
                .draw_series(LineSeries::new(
                    pmf.iter()
                        .take(until)
                        .enumerate()
                        .map(|(i, &p)| (i as f64 + 1.0, p)),
                    color.stroke_width(2),
                ))
                .map_err(|e| err(&e))?
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(svg)
}
