//! The progress bar: on stderr, drawn only when stderr is a terminal.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queendom::search::{PartProgress, PartsDone, Phase, PhaseProgress};
use queendom::Board;

pub fn bar(total: u64, what: &str) -> ProgressBar {
    drawn(
        total,
        &format!("[{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {what}  {{msg}}{{prefix}}"),
    )
}

/// A bar in this style, or a hidden one when stderr is not a terminal.
fn drawn(total: u64, template: &str) -> ProgressBar {
    if !super::stderr_is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(ProgressStyle::with_template(template).expect("progress template is valid"));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The bar of one board's `solve` or `count`: it names the phase the search is in (the local
/// search has no parts to count, and a bar reading 0/0 for seconds says nothing), then counts
/// the first-queen parts and, once enough of the proof is done to measure its pace, the time
/// left by the search's own estimate of its nodes.
pub struct BoardProgress {
    bar: ProgressBar,
    board: Board,
    proof: Arc<Mutex<Option<Proof>>>,
}

/// The proof under way: when it began and how many nodes it should take.
#[derive(Clone, Copy)]
struct Proof {
    since: Instant,
    estimated_nodes: f64,
}

/// A phase before its parts are known.
const SPINNER: &str = "[{elapsed_precise}] {spinner} {msg}";

/// The bar of a search counting its parts.
const PARTS: &str = "[{elapsed_precise}] {bar:30} {pos}/{len} parts  {msg}{prefix}";

/// Before this much of the proof, its pace says too little to extrapolate.
const PACE_AFTER: Duration = Duration::from_secs(2);

impl BoardProgress {
    pub fn new(board: Board) -> BoardProgress {
        let progress = BoardProgress {
            bar: drawn(0, SPINNER),
            board,
            proof: Arc::new(Mutex::new(None)),
        };
        progress.phase(Phase::LocalSearch);
        progress
    }

    /// The callbacks to hand the search.
    pub fn callbacks(&self) -> (PhaseProgress, PartProgress) {
        let (bar, board, proof) = (self.bar.clone(), self.board, self.proof.clone());
        let on_phase: PhaseProgress = Arc::new(move |phase| {
            show_phase(&bar, board, phase);
            *proof.lock().expect("progress lock") = match phase {
                Phase::Proving {
                    estimated_nodes, ..
                } => Some(Proof {
                    since: Instant::now(),
                    estimated_nodes,
                }),
                _ => None,
            };
        });
        let (bar, proof) = (self.bar.clone(), self.proof.clone());
        // The phase shows a spinner until the parts are known: a bar of 0/0 reads as done.
        let counting = ProgressStyle::with_template(PARTS).expect("progress template is valid");
        let on_parts: PartProgress = Arc::new(move |parts: PartsDone| {
            if parts.done == 0 {
                bar.set_style(counting.clone());
            }
            bar.set_length(parts.total as u64);
            bar.set_position(parts.done as u64);
            let proof = *proof.lock().expect("progress lock");
            if let Some(proof) = proof {
                let left = time_left(proof.estimated_nodes, parts.nodes, proof.since.elapsed());
                bar.set_prefix(left.map(|s| format!(" · {s}")).unwrap_or_default());
            }
        });
        (on_phase, on_parts)
    }

    fn phase(&self, phase: Phase) {
        show_phase(&self.bar, self.board, phase);
    }

    /// A search kept part by part (`--checkpoint`): planned, then proven one part after the other.
    pub fn checkpointed(&self) {
        if self.bar.is_hidden() {
            return;
        }
        self.bar
            .set_style(ProgressStyle::with_template(SPINNER).expect("progress template is valid"));
        self.bar.set_message(format!(
            "{}: planning, then proving part by part",
            self.board
        ));
    }

    /// Parts done of a search kept part by part.
    pub fn parts(&self, done: usize, total: usize) {
        if !self.bar.is_hidden() {
            self.bar.set_style(
                ProgressStyle::with_template(PARTS).expect("progress template is valid"),
            );
        }
        self.bar.set_length(total as u64);
        self.bar.set_position(done as u64);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn show_phase(bar: &ProgressBar, board: Board, phase: Phase) {
    if bar.is_hidden() {
        return;
    }
    let (style, message) = match phase {
        Phase::LocalSearch => (SPINNER, format!("{board}: local search for a start layout")),
        Phase::Proving { start_queens, .. } => (
            SPINNER,
            format!("{board}: proving, searching for fewer than {start_queens} queens"),
        ),
        Phase::Counting { queens } => (
            SPINNER,
            format!("{board}: counting the layouts of {queens} queens"),
        ),
    };
    bar.set_style(ProgressStyle::with_template(style).expect("progress template is valid"));
    bar.set_message(message);
    bar.set_prefix("");
    bar.set_length(0);
    bar.set_position(0);
}

/// "about 3 min left": the nodes still to go by the estimate, at the pace measured so far; `None`
/// while the pace is not yet measured. Past the estimate, it says so rather than guess.
fn time_left(estimated_nodes: f64, nodes: u64, elapsed: Duration) -> Option<String> {
    if elapsed < PACE_AFTER || nodes == 0 || estimated_nodes <= 0.0 {
        return None;
    }
    let left = estimated_nodes - nodes as f64;
    if left <= 0.0 {
        return Some("past the estimate".to_string());
    }
    let pace = nodes as f64 / elapsed.as_secs_f64();
    Some(format!("about {} left", duration_text(left / pace)))
}

/// A duration as a person reads a rough estimate: 40 s, 3 min, 2 h 10 min, 5 days.
fn duration_text(seconds: f64) -> String {
    let s = seconds.round().max(1.0) as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", (s + 30) / 60),
        3600..=86_399 => {
            let minutes = (s + 30) / 60;
            match minutes % 60 {
                0 => format!("{} h", minutes / 60),
                m => format!("{} h {m} min", minutes / 60),
            }
        }
        _ => {
            let days = (s + 43_200) / 86_400;
            format!("{days} day{}", if days == 1 { "" } else { "s" })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_rough_estimates() {
        assert_eq!(duration_text(0.2), "1 s");
        assert_eq!(duration_text(42.4), "42 s");
        assert_eq!(duration_text(59.4), "59 s");
        assert_eq!(duration_text(60.0), "1 min");
        assert_eq!(duration_text(200.0), "3 min");
        assert_eq!(duration_text(3599.0), "60 min");
        assert_eq!(duration_text(3600.0), "1 h");
        assert_eq!(duration_text(7800.0), "2 h 10 min");
        assert_eq!(duration_text(86_400.0 * 2.6), "3 days");
        assert_eq!(duration_text(86_400.0), "1 day");
    }

    #[test]
    fn the_time_left_waits_for_a_pace_and_admits_an_overrun() {
        let second = Duration::from_secs(1);
        assert_eq!(time_left(1e6, 500, second), None, "too early");
        assert_eq!(time_left(1e6, 0, 10 * second), None, "no node done");
        assert_eq!(time_left(0.0, 5, 10 * second), None, "no estimate");
        // 1e5 nodes in 10 s: 9e5 nodes to go take 90 s.
        assert_eq!(
            time_left(1e6, 100_000, 10 * second).as_deref(),
            Some("about 2 min left")
        );
        assert_eq!(
            time_left(1e6, 2_000_000, 10 * second).as_deref(),
            Some("past the estimate")
        );
    }
}
