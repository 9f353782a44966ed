#!/usr/bin/env python3
"""Check scripts/scaling.py against what can be measured here: predicted against measured wall
time on 1 and 2 threads.

usage: scripts/calibrate.py [--runs 5] [--threads 1,2] [--json] [-- QUEENDOM ARGS ...]

For each workload (by default `solve 14`, `nqueens 16`, `table --rows 1-14 --cols 1-14`; or the
queendom arguments after `--`), it runs `--runs` rounds; each round records one trace with -j 1
and replays it on the thread counts asked for, then runs the same command untraced on each of
those thread counts. It prints the median prediction beside the median measured wall seconds, and
as the error the median of each round's prediction against that round's measurement. It also
prints the median CPU seconds (user + sys) of the runs and the machine's load: on a machine shared with
other work a run gets less than one core per thread, and its wall time says more about the load
than about the schedule (the CPU column shows how much it got).
"""
import json
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import scaling  # noqa: E402

DEFAULT = [
    ["solve", "14"],
    ["nqueens", "16", "-o", "{tmp}/counts.csv", "--force"],
    ["table", "--rows", "1-14", "--cols", "1-14", "-o", "{tmp}/table.csv", "--force"],
]


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main(argv):
    runs = 5
    threads = [1, 2]
    if "--runs" in argv:
        runs = int(argv[argv.index("--runs") + 1])
    if "--threads" in argv:
        threads = scaling.parse_threads(argv[argv.index("--threads") + 1])
    workloads = [argv[argv.index("--") + 1:]] if "--" in argv else DEFAULT
    common.build()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for args in workloads:
            args = [a.replace("{tmp}", tmp) for a in args]
            trace = os.path.join(tmp, "trace.csv")
            force = [] if "--force" in args else ["--force"]
            # A trace is a measurement like any other: the same -j 1 run costs 0.18-0.28 s from
            # one run to the next on this shared machine. So one trace is recorded per round,
            # interleaved with the untraced runs, and the prediction is the median of theirs. The error is the median
            # of each round's prediction against the same round's measurement.
            predictions = {p: [] for p in threads}
            cpu_in_tasks = []
            tasks_per_trace = 0
            walls = {p: [] for p in threads}
            cpus = {p: [] for p in threads}
            loads = []
            for _ in range(runs):
                common.run([*args, "-j", "1", "--trace", trace, *force])
                tasks, roots = scaling.load(trace)
                for p in threads:
                    predictions[p].append(scaling.replay(tasks, roots, p))
                traced = [t for t in tasks.values() if not t.get("synthetic")]
                cpu_in_tasks.append(sum(t["cost"] for t in traced))
                tasks_per_trace = len(traced)
                for p in threads:
                    loads.append(load())
                    _, wall, cpu = common.run([*args, "-j", str(p)])
                    walls[p].append(wall)
                    cpus[p].append(cpu)
            predicted = {p: statistics.median(predictions[p]) for p in threads}
            cpu_in_tasks = statistics.median(cpu_in_tasks)
            rows = []
            for p in threads:
                measured = statistics.median(walls[p])
                rows.append({
                    "threads": p,
                    "predicted_seconds": predicted[p],
                    "measured_seconds": measured,
                    "measured_min_seconds": min(walls[p]),
                    "measured_cpu_seconds": statistics.median(cpus[p]),
                    # Paired by round: a trace and the runs right after it see the same state
                    # of the machine, which drifts by ±20% over a minute here.
                    "error": statistics.median(
                        pr / w - 1 for pr, w in zip(predictions[p], walls[p])),
                })
            results.append({"command": " ".join(args).replace(tmp, "TMP"),
                            "cpu_in_tasks": cpu_in_tasks, "tasks": tasks_per_trace,
                            "load": statistics.median(loads), "rows": rows})
    if "--json" in argv:
        print(json.dumps(results))
        return 0
    for r in results:
        print(f"queendom {r['command']}: {r['tasks']} tasks, {r['cpu_in_tasks']:.3f} CPU s in "
              f"tasks; load average {r['load']:.1f} during the runs")
        print(f"{'threads':>8} {'predicted s':>12} {'measured s':>11} {'(min)':>8} "
              f"{'CPU s':>8} {'error':>7}")
        for row in r["rows"]:
            print(f"{row['threads']:>8} {row['predicted_seconds']:>12.3f} "
                  f"{row['measured_seconds']:>11.3f} {row['measured_min_seconds']:>8.3f} "
                  f"{row['measured_cpu_seconds']:>8.3f} {100 * row['error']:>+6.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
