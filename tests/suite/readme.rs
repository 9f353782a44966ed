//! Docs that run: every complete `queendom ...` command listed in the README's "Commands" block
//! works (exit 0), run in a scratch directory so that the files they write land there.

use assert_cmd::Command;

#[test]
fn readme_commands_work() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let block = readme
        .split("## Commands")
        .nth(1)
        .and_then(|rest| rest.split("```text").nth(1))
        .and_then(|rest| rest.split("```").next())
        .expect("README has a Commands block");
    let dir = tempfile::tempdir().unwrap();
    let mut ran = 0;
    for line in block.lines() {
        // A command, then two or more spaces, then what it does.
        let command = line.split("  ").next().unwrap().trim();
        let Some(args) = command.strip_prefix("queendom ") else {
            continue;
        };
        // Placeholders (`...`, `[--option]`) are shapes, not commands.
        if args.contains("...") || args.contains('[') {
            continue;
        }
        // `COMMAND > FILE`: standard output goes to FILE, as the shell would do.
        let (args, redirect) = match args.split_once(" > ") {
            Some((args, file)) => (args, Some(file.trim())),
            None => (args, None),
        };
        let out = Command::cargo_bin("queendom")
            .unwrap()
            .args(args.split_whitespace())
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "`{command}` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(file) = redirect {
            std::fs::write(dir.path().join(file), &out.stdout).unwrap();
        }
        ran += 1;
    }
    assert!(ran >= 6, "only {ran} commands found in the README");
}
