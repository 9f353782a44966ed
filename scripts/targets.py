#!/usr/bin/env python3
"""The speed targets of the frontier issue, measured in one process: medians of --runs runs.

- CPU seconds of γ(Q_13) and γ(Q_14) on one thread (targets ≤ 0.35 s and ≤ 8 s);
- wall seconds of γ(Q_14) on 1 and 2 threads, and the ratio (target ≥ 1.8);
- wall seconds of the 1-14 × 1-14 tables for γ and i (target ≤ 30 s each).

usage: scripts/targets.py [--runs R] [--no-tables]
"""
import argparse

from common import build, median, run, say, solve


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--no-tables", action="store_true")
    a = p.parse_args()
    build()
    for n, target in ((13, 0.35), (14, 8.0)):
        cpu = median([solve(n, n, threads=1)["cpu"] for _ in range(a.runs)])
        say(f"γ(Q_{n}) on 1 thread: median {cpu:.3f} CPU s (target ≤ {target} s)")
    one, two = [], []
    for _ in range(a.runs):  # interleaved, so that load changes hit both alike
        one.append(solve(14, 14, threads=1)["wall"])
        two.append(solve(14, 14, threads=2)["wall"])
    m1, m2 = median(one), median(two)
    say(f"γ(Q_14) wall: 1 thread {m1:.3f} s, 2 threads {m2:.3f} s, speedup {m1 / m2:.2f} (target ≥ 1.8)")
    if not a.no_tables:
        for flag in ([], ["--independent"]):
            walls = []
            for _ in range(max(1, a.runs // 2)):
                _, wall, cpu = run(["table", "--rows", "1-14", "--cols", "1-14", *flag])
                walls.append(wall)
            name = "i" if flag else "γ"
            say(f"table 1-14 x 1-14 ({name}): median {median(walls):.2f} s wall (target ≤ 30 s)")


if __name__ == "__main__":
    main()
