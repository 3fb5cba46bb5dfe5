//! Per-square figures (docs/figures.md §5): expected rests, the probability of ever
//! standing on a square, expected turns left.

use crate::Square;
use crate::markov::chain::{Chain, StateIndex};
use serde::Serialize;

/// The figures of one square, from the start.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Analysis, Board, Options};

let board = Board::from_json_str(SMALL)?;
let analysis = Analysis::new(&board, &Options::default())?;
let one = &analysis.squares[1];
assert_eq!(one.square.get(), 1);
// Only a first roll of 1 rests there.
assert!((one.expected_rests - 1.0 / 6.0).abs() < 1e-12);
assert_eq!(analysis.squares[0].turns_left, Some(analysis.turns.mean));
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SquareFigures {
    /// The square.
    pub square: Square,
    /// Expected number of rolls after which the token stands on this square
    /// (after any jump; a blocked or forfeited roll counts as resting again
    /// where it is). Mid-turn rests of extra rolls count.
    pub expected_rests: f64,
    /// Probability that some turn ends with the token on this square
    /// (`N(s₀, j) / N(j, j)`; for the start square, the probability of
    /// coming back to it). `None` for a square a token only passes mid-turn,
    /// or when the diagonal of N was not affordable (large boards).
    pub rest_probability: Option<f64>,
    /// Expected turns to the finish from a turn started on this square;
    /// `None` for a square a token only passes mid-turn.
    pub turns_left: Option<f64>,
}

/// Figures of every square a token can rest on, in increasing order, with
/// the diagonal of N given (`None` when it was not
/// affordable: rest probabilities are then left out).
pub fn figures_with_diagonal(
    chain: &Chain,
    visits: &[f64],
    turns: &[f64],
    diagonal: Option<&[f64]>,
) -> Vec<SquareFigures> {
    // By square: the states' squares are listed, and any other square a
    // turn rests on mid-turn.
    let size = chain.finish().index();
    let mut rests = vec![0.0; size];
    let mut listed = vec![false; size];
    for s in chain.squares() {
        listed[s.index()] = true;
    }
    for s in chain.states() {
        for rest in chain.rests(s) {
            listed[rest.square.index()] = true;
            rests[rest.square.index()] += visits[s.get()] * rest.expected;
        }
    }
    let start = chain.start();
    let squares = chain.squares();
    // The states in square order, walked beside the listed squares.
    let mut next = 0;
    (0..size)
        .filter(|&i| listed[i])
        .map(|i| (Square::new(i as u32), rests[i]))
        .map(|(square, expected_rests)| {
            while next < squares.len() && squares[next] < square {
                next += 1;
            }
            let state = (squares.get(next) == Some(&square)).then(|| StateIndex::new(next));
            let rest_probability = match (state, diagonal) {
                (Some(j), Some(d)) if j == start => Some(1.0 - 1.0 / d[j.get()]),
                (Some(j), Some(d)) => Some(visits[j.get()] / d[j.get()]),
                _ => None,
            };
            SquareFigures {
                square,
                expected_rests,
                rest_probability: rest_probability.map(|p| p.clamp(0.0, 1.0)),
                turns_left: state.map(|j| turns[j.get()]),
            }
        })
        .collect()
}
