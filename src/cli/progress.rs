//! The progress bar: on stderr, drawn only when stderr is a terminal.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub fn bar(total: u64, what: &str) -> ProgressBar {
    if !super::stderr_is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "[{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {what}  {{msg}}{{prefix}}"
        ))
        .expect("progress template is valid"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A search's progress as the bar's own position: parts done out of all parts.
pub fn part_position(bar: &ProgressBar) -> queendom::search::PartProgress {
    let bar = bar.clone();
    std::sync::Arc::new(move |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })
}
