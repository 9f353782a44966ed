//! The `queendom` command line: parse, run the chosen command on a thread pool, map the outcome to
//! an exit code (0 success, 1 failure, 2 usage error).

mod cli;

fn main() {
    std::process::exit(cli::run());
}
