//! Time to the start layout: for each square board named, the layout the local search starts the
//! exact search from, its size and the seconds it took (one thread, the sequential restarts), with
//! no exhaustive search. `scripts/starts.py` runs it several times and prints medians against the
//! published values.
//!
//! ```text
//! cargo bench --bench starts -- 21 23 25        γ starts
//! cargo bench --bench starts -- -i 19-21        i starts
//! ```
//! Output: CSV lines `n,problem,queens,seconds,layout`.

use std::time::Instant;

use queendom::search::SearchSpace;
use queendom::{Board, Problem, SearchOptions};

fn main() {
    let mut problem = Problem::Domination;
    let mut sides = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "-i" | "--independent" => problem = Problem::IndependentDomination,
            // `cargo bench` passes this to every bench target.
            "--bench" => {}
            _ => match arg.split_once('-') {
                Some((a, b)) => sides.extend(a.parse::<usize>().unwrap()..=b.parse().unwrap()),
                None => sides.push(arg.parse::<usize>().expect("a board side or a range A-B")),
            },
        }
    }
    println!("n,problem,queens,seconds,layout");
    for n in sides {
        let board = Board::new(n, n).expect("a board side from 1 to 32");
        let space = SearchSpace::new(board, problem);
        let clock = Instant::now();
        let layout = space
            .start_layout(&SearchOptions::sequential())
            .expect("not cancelled");
        let seconds = clock.elapsed().as_secs_f64();
        problem
            .check(&layout, layout.len())
            .expect("the start is checked");
        println!(
            "{n},{},{},{seconds:.3},{}",
            problem.name(),
            layout.len(),
            layout.to_squares_string()
        );
    }
}
