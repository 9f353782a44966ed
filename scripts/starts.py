#!/usr/bin/env python3
"""Time to the start layout on square boards: for each n and problem, the size of the layout the
local search starts the exact search from, the published optimum (data/), and the median seconds
over --runs runs on one thread (benches/starts.rs: the start alone, no exhaustive search). The
start is deterministic, so every run finds the same layout; only the time varies.

usage: scripts/starts.py [--from N] [--to N] [--runs R] [--problem gamma|i|both]
"""
import argparse
import csv
import os
import subprocess

from common import ROOT, median, say



def published(name):
    with open(os.path.join(ROOT, "data", name)) as f:
        return {int(r["rows"]): int(r["value"]) for r in csv.DictReader(f) if r["rows"] == r["cols"]}


def start(n, independent):
    args = ["cargo", "bench", "--quiet", "--bench", "starts", "--", str(n)] + (["-i"] if independent else [])
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    row = list(csv.DictReader(out.splitlines()))[0]
    return int(row["queens"]), float(row["seconds"])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--from", dest="first", type=int, default=1)
    p.add_argument("--to", dest="last", type=int, default=25)
    p.add_argument("--runs", type=int, default=3, help="runs per board (medians)")
    p.add_argument("--problem", choices=["gamma", "i", "both"], default="both")
    a = p.parse_args()
    subprocess.run(["cargo", "bench", "--quiet", "--bench", "starts", "--no-run"], cwd=ROOT, check=True)
    problems = {"gamma": [False], "i": [True], "both": [False, True]}[a.problem]
    known = {False: published("domination_squares.csv"), True: published("independent_domination_squares.csv")}
    say("| n | problem | start | published | median s | runs |")
    say("|---|---|---|---|---|---|")
    for n in range(a.first, a.last + 1):
        for independent in problems:
            runs = [start(n, independent) for _ in range(a.runs)]
            sizes = {q for q, _ in runs}
            assert len(sizes) == 1, f"the start of {n}x{n} changed between runs: {sizes}"
            queens = sizes.pop()
            value = known[independent].get(n, "?")
            mark = "" if queens == value else " (above)"
            name = "i" if independent else "γ"
            say(f"| {n} | {name} | {queens}{mark} | {value} | {median([s for _, s in runs]):.2f} | {a.runs} |")


if __name__ == "__main__":
    main()
