#!/usr/bin/env python3
"""The frontier table: n, γ(Q_n), i(Q_n), nodes, CPU seconds and wall seconds for n = 8, 9, ... until the
time budget is spent (default 300 s of wall time), as medians over --runs runs for boards that are quick.

usage: scripts/frontier.py [--budget SECONDS] [--runs R] [--threads T] [--from N] [--to N]
"""
import argparse

from common import build, median, say, solve


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--budget", type=float, default=300.0, help="wall seconds for the whole table")
    p.add_argument("--runs", type=int, default=3, help="runs per board (medians) while a run takes < 10 s")
    p.add_argument("--threads", type=int, default=None, help="-j for queendom (default: all cores)")
    p.add_argument("--from", dest="start", type=int, default=8)
    p.add_argument("--to", dest="stop", type=int, default=32)
    a = p.parse_args()
    build()
    say("| n | γ | i | γ nodes | γ CPU s | γ wall s | i nodes | i CPU s | i wall s |")
    say("|---|---|---|---|---|---|---|---|---|")
    spent = 0.0
    for n in range(a.start, a.stop + 1):
        row = {}
        for independent in (False, True):
            runs = []
            while True:
                r = solve(n, n, independent, a.threads)
                runs.append(r)
                spent += r["wall"]
                if len(runs) >= a.runs or r["wall"] >= 10 or spent >= a.budget:
                    break
            row[independent] = {
                "value": runs[0]["value"],
                "nodes": runs[0]["nodes"],
                "cpu": median([x["cpu"] for x in runs]),
                "wall": median([x["wall"] for x in runs]),
            }
        g, i = row[False], row[True]
        say(
            f"| {n} | {g['value']} | {i['value']} | {g['nodes']} | {g['cpu']:.3f} | {g['wall']:.3f} "
            f"| {i['nodes']} | {i['cpu']:.3f} | {i['wall']:.3f} |"
        )
        # The next board costs roughly 20x more: stop when it cannot fit in what is left.
        if spent + 20 * (g["wall"] + i["wall"]) > a.budget:
            break


if __name__ == "__main__":
    main()
