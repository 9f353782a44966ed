//! Puts the git revision the binary was built from into `queendom --version`, so that a result
//! can name the exact build that produced it (a tarball without `.git` says "unknown").

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let revision = git(&["rev-parse", "--short=12", "HEAD"]);
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let text = match revision {
        Some(rev) if dirty => format!("{rev}, with uncommitted changes"),
        Some(rev) => rev,
        None => "git revision unknown".to_string(),
    };
    println!("cargo:rustc-env=QUEENDOM_REVISION={text}");
    // A new commit or checkout changes HEAD (or the branch it names); edited sources rebuild the
    // crate anyway, and then the dirty flag is computed again.
    // A path that does not exist would make cargo run this script (and rebuild) every time.
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            if std::path::Path::new(&path).exists() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
    // The Slurm tests (tests/suite/slurm.rs) run only where a cluster is: built with
    // QUEENDOM_SLURM=1 they are ordinary tests, otherwise they report "ignored" with the reason.
    println!("cargo::rustc-check-cfg=cfg(queendom_slurm)");
    println!("cargo:rerun-if-env-changed=QUEENDOM_SLURM");
    if std::env::var_os("QUEENDOM_SLURM").is_some_and(|v| v == "1") {
        println!("cargo:rustc-cfg=queendom_slurm");
    }
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=build.rs");
}
