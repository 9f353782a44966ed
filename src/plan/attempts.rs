//! What workers record of their attempts at a part: when and where one started, and how it ended
//! (finished, interrupted by a signal, failed with an exit code and why). One JSON object a line,
//! in one file per part; the worker that holds a part's claim is the only writer of its file, so
//! lines never interleave. A `started` line with nothing after it, on a part nobody holds, is a
//! worker that died without a word (`kill -9`, out of memory, a lost node).
//!
//! Times are UTC ISO 8601 (`2026-12-04T14:20:03Z`), and read back to say how long ago.

use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

/// How an attempt stands, as its last line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttemptEvent {
    Started,
    Finished,
    Interrupted,
    Failed,
}

/// One line of a part's attempts file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub event: AttemptEvent,
    /// UTC, ISO 8601.
    pub time: String,
    pub host: String,
    pub pid: u32,
    /// The Slurm job (`ARRAYJOB_TASK`, or the job id) the worker ran in, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<String>,
    /// The worker's exit code, for an attempt that ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<i32>,
    /// Why it ended, for an attempt that did not finish.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

impl Attempt {
    /// The attempt as one line, with its newline.
    pub fn to_line(&self) -> String {
        let mut line = serde_json::to_string(self).expect("an attempt serialises");
        line.push('\n');
        line
    }

    /// Every attempt a part's file holds; lines that do not read (a line cut by a full disk) are
    /// skipped: the attempts only inform, they prove nothing.
    pub fn parse_all(text: &str) -> Vec<Attempt> {
        text.lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    /// "interrupted on node1 at 2026-12-04T14:20:03Z (5 min ago), exit 143: SIGTERM".
    pub fn describe(&self, now: SystemTime) -> String {
        let what = match self.event {
            AttemptEvent::Started => "started",
            AttemptEvent::Finished => "finished",
            AttemptEvent::Interrupted => "interrupted",
            AttemptEvent::Failed => "failed",
        };
        let mut out = format!("{what} on {} at {}", self.host, time_text(&self.time, now));
        if let Some(job) = &self.job {
            out.push_str(&format!(", Slurm job {job}"));
        }
        if let Some(exit) = self.exit {
            out.push_str(&format!(", exit {exit}"));
        }
        if let Some(why) = &self.why {
            out.push_str(&format!(": {why}"));
        }
        out
    }
}

/// How a part's attempts stand, for a part that has no result.
#[derive(Debug, Clone, PartialEq)]
pub enum LastAttempt {
    /// No worker ever started it.
    Never,
    /// The last attempt ended without a result: this line says how.
    Ended(Attempt),
    /// The last attempt started and wrote nothing more: the worker died without a word (if no
    /// one holds the part) or is still running.
    Silent(Attempt),
}

/// The state of a part's attempts from its lines.
pub fn last_attempt(attempts: &[Attempt]) -> LastAttempt {
    match attempts.last() {
        None => LastAttempt::Never,
        Some(a) if a.event == AttemptEvent::Started => LastAttempt::Silent(a.clone()),
        Some(a) => LastAttempt::Ended(a.clone()),
    }
}

/// `time` in UTC ISO 8601, to the second.
pub fn utc_iso(time: SystemTime) -> String {
    humantime::format_rfc3339_seconds(time).to_string()
}

/// "2026-12-04T14:20:03Z (5 min ago)"; a time that does not read is shown as it is.
pub fn time_text(iso: &str, now: SystemTime) -> String {
    match humantime::parse_rfc3339(iso) {
        Ok(t) => format!("{iso} ({})", age(t, now)),
        Err(_) => iso.to_string(),
    }
}

/// How long before `now` `then` was: "12 s ago", "5 min ago", "3.2 h ago", "2.0 days ago".
pub fn age(then: SystemTime, now: SystemTime) -> String {
    let s = now
        .duration_since(then)
        .unwrap_or(Duration::ZERO)
        .as_secs_f64();
    if s < 120.0 {
        format!("{s:.0} s ago")
    } else if s < 2.0 * 3600.0 {
        format!("{:.0} min ago", s / 60.0)
    } else if s < 48.0 * 3600.0 {
        format!("{:.1} h ago", s / 3600.0)
    } else {
        format!("{:.1} days ago", s / 86400.0)
    }
}

/// Seconds as Slurm's `--time` takes them, rounded up to whole minutes: `H:MM:00`, or
/// `D-HH:MM:00` from a day on.
pub fn slurm_time(seconds: f64) -> String {
    let minutes = (seconds.max(60.0) / 60.0).ceil() as u64;
    let (days, h, m) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    if days > 0 {
        format!("{days}-{h:02}:{m:02}:00")
    } else {
        format!("{h}:{m:02}:00")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::UNIX_EPOCH;

    #[test]
    fn lines_read_back_and_bad_lines_are_skipped() {
        let a = Attempt {
            event: AttemptEvent::Interrupted,
            time: "2026-12-04T14:20:03Z".into(),
            host: "node1".into(),
            pid: 12,
            job: Some("7_3".into()),
            exit: Some(143),
            why: Some("SIGTERM".into()),
        };
        let text = format!("{}{{\"event\":\"sta\n", a.to_line());
        assert_eq!(Attempt::parse_all(&text), vec![a.clone()]);
        let now = humantime::parse_rfc3339("2026-12-04T14:25:03Z").unwrap();
        assert_eq!(
            a.describe(now),
            "interrupted on node1 at 2026-12-04T14:20:03Z (300 s ago), Slurm job 7_3, exit 143: SIGTERM"
                .replace("300 s", "5 min")
        );
        assert_eq!(last_attempt(&[]), LastAttempt::Never);
        assert_eq!(
            last_attempt(std::slice::from_ref(&a)),
            LastAttempt::Ended(a)
        );
    }

    #[test]
    fn times_read_as_iso_and_age() {
        let t = UNIX_EPOCH + Duration::from_secs(1_796_393_603);
        assert_eq!(utc_iso(t), "2026-12-04T14:13:23Z");
        assert_eq!(age(t, t + Duration::from_secs(7)), "7 s ago");
        assert_eq!(age(t, t + Duration::from_secs(4 * 3600)), "4.0 h ago");
        assert_eq!(time_text("not a time", t), "not a time");
        assert_eq!(slurm_time(10.0), "0:01:00");
        assert_eq!(slurm_time(3601.0), "1:01:00");
        assert_eq!(slurm_time(86400.0 + 59.0), "1-00:01:00");
    }
}
