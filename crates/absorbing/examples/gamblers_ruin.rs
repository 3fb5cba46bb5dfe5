//! Gambler's ruin: the chance of reaching a fortune of `n` from `i`,
//! betting one chip at a time with a chance `p` to win each bet, as an exact
//! fraction, against the classical closed form `(1 − rⁱ)/(1 − rⁿ)`,
//! `r = (1 − p)/p`.
//!
//! Run with `cargo run -p absorbing --example gamblers_ruin`.

use absorbing::ChainBuilder;
use absorbing::answers::Options;
use num_rational::BigRational;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (n, i) = (10usize, 4usize);
    let p = BigRational::new(2.into(), 5.into());
    let one = BigRational::from_integer(1.into());
    let q = &one - &p;
    let mut b = ChainBuilder::new(n + 1);
    b.transition(0, 0, one.clone())
        .transition(n, n, one.clone());
    for s in 1..n {
        b.transition(s, s + 1, p.clone());
        b.transition(s, s - 1, q.clone());
    }
    b.initial_state(i).targets([n]);
    let chain = b.build()?;
    let answers = chain.answer(
        &Options {
            exact: true,
            ..Options::default()
        },
        None,
    )?;
    let exact = answers.exact().expect("asked for");
    let r = &q / &p;
    let pow = |k: usize| (0..k).fold(one.clone(), |acc, _| acc * &r);
    let closed = (&one - pow(i)) / (&one - pow(n));
    println!(
        "P(reach {n} from {i}) = {} (closed form {closed}), {} ± {:.1e} as a float",
        exact.reach_probability,
        answers.reach_probability().value,
        answers.reach_probability().error_bound
    );
    assert_eq!(exact.reach_probability, closed);
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs() {
        super::main().unwrap();
    }
}
