//! Known figures: published values and boards small enough to solve by hand.

use num_bigint::BigInt;
use num_rational::BigRational;
use snakeladder::chain::Chain;
use snakeladder::{Board, exact};

fn althoen() -> Board {
    Board::from_json_str(include_str!("../boards/althoen-1993.json")).unwrap()
}

#[test]
fn althoen_king_schilling_exact_fraction() {
    let b = althoen();
    let chain = Chain::compile(&b).unwrap();
    let t = std::time::Instant::now();
    let mean = exact::mean_turns(&b, &chain).unwrap();
    eprintln!("{:?}", t.elapsed());
    let expected = BigRational::new(
        "225837582538403273407117496273279920181931269186581786048583"
            .parse::<BigInt>()
            .unwrap(),
        "5757472998140039232950575874628786131130999406013041613400"
            .parse::<BigInt>()
            .unwrap(),
    );
    assert_eq!(mean, expected);
}
