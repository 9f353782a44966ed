#!/usr/bin/env python3
"""Counting speed against an earlier build: `count NxN -j 1`, both builds run interleaved in one
process (so that load changes hit both alike), medians of --runs runs, and the ratio.

The baseline is built from its commit in a scratch worktree outside the repository (removed at the
end), so the two binaries differ only in their code. The default baseline, 3c7d84d, is the build of
the day the counting issue (28) was filed; its target is `count 15x15 -j 1` at most a third of that
build's CPU time. Both builds must print the same layouts and classes, or the script stops.

usage: scripts/count_speed.py [--baseline COMMIT] [--boards 13 14 [15]] [--runs R]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from common import BINARY, ROOT, build, median, run, say


def build_baseline(commit, scratch):
    tree, target = os.path.join(scratch, "tree"), os.path.join(scratch, "target")
    added = subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", "--force", tree,
                            commit], capture_output=True, text=True)
    if added.returncode != 0:
        sys.exit(f"count_speed: cannot check out {commit}: {added.stderr.strip()}")
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=tree, env=env, check=True)
    return os.path.join(target, "release", "queendom")


def count(binary, n):
    """`count NxN -j 1`: (layouts, classes, nodes, CPU s)."""
    out, _, cpu = run(["count", f"{n}x{n}", "-j", "1"], binary)
    layouts = int(re.search(r"layouts: (\d+)", out).group(1))
    classes = int(re.search(r"classes: (\d+)", out).group(1))
    nodes = int(re.search(r"\((\d+) nodes", out).group(1))
    return layouts, classes, nodes, cpu


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--baseline", default="3c7d84d")
    p.add_argument("--boards", type=int, nargs="+", default=[13, 14])
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    build()
    scratch = tempfile.mkdtemp(prefix="queendom-baseline-")
    try:
        say(f"building {a.baseline} in {scratch} ...")
        old = build_baseline(a.baseline, scratch)
        for n in a.boards:
            times = {"baseline": [], "current": []}
            answers = set()
            for _ in range(a.runs):
                for name, binary in (("baseline", old), ("current", BINARY)):
                    layouts, classes, nodes, cpu = count(binary, n)
                    answers.add((layouts, classes))
                    times[name].append(cpu)
                    say(f"  {name:8} count {n}x{n} -j 1: {cpu:.2f} CPU s, {nodes} nodes")
            if len(answers) != 1:
                sys.exit(f"count {n}x{n}: the builds disagree: {sorted(answers)}")
            b, c = median(times["baseline"]), median(times["current"])
            layouts, classes = answers.pop()
            say(f"count {n}x{n} ({layouts} layouts, {classes} classes): {a.baseline} median "
                f"{b:.2f} CPU s, current {c:.2f}: ratio {c / b:.2f} (target ≤ 0.33)")
    finally:
        subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force",
                        os.path.join(scratch, "tree")], capture_output=True)
        subprocess.run(["git", "-C", ROOT, "worktree", "prune"], capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
