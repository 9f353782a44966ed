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
            "[{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {what}  {{msg}}"
        ))
        .expect("progress template is valid"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
