#!/usr/bin/env python3
"""How well a plan's parts keep many workers busy, from the costs its parts recorded.

usage: scripts/balance.py RUN [--threads 64,128,256] [--order estimate|plan] [--json]

RUN is a plan directory whose parts have all run (`queendom work`, one thread each, so that a
part's CPU seconds are its cost). The script replays the run on P workers as `queendom work
--next` schedules it: every worker, as soon as it is free, takes the part with the largest
estimate of those left (equal estimates in plan order). It
prints, for each P, the makespan, the efficiency (total CPU / (P x makespan)) and the lower bound
max(total / P, largest part); and the spread of part costs (largest against median).
`--order plan` replays the parts in plan order instead (a Slurm job array, whose task K runs part
K, starts them about so).
"""
import heapq
import json
import os
import statistics
import sys


def load(run):
    with open(os.path.join(run, "plan.json")) as f:
        plan = json.load(f)
    costs = []
    missing = []
    for k, part in enumerate(plan["parts"]):
        path = os.path.join(run, "results", f"part-{k:06d}.json")
        try:
            with open(path) as f:
                report = json.load(f)
        except FileNotFoundError:
            missing.append(k)
            continue
        if report["threads"] != 1:
            print(f"part {k} ran on {report['threads']} threads: its CPU seconds are not its cost",
                  file=sys.stderr)
        costs.append((k, report["cpu_seconds"], part["estimate"]))
    return plan, costs, missing


def makespan(costs, workers):
    """Greedy list scheduling in plan order: each part goes to the first worker free."""
    free = [0.0] * workers
    heapq.heapify(free)
    end = 0.0
    for _, cost, _ in costs:
        start = heapq.heappop(free)
        finish = start + cost
        end = max(end, finish)
        heapq.heappush(free, finish)
    return end


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__)
        return 2
    run = argv[1]
    threads = [64, 128, 256]
    if "--threads" in argv:
        threads = [int(t) for t in argv[argv.index("--threads") + 1].split(",")]
    order = argv[argv.index("--order") + 1] if "--order" in argv else "estimate"
    if order not in ("plan", "estimate"):
        print(f"--order {order}: expected estimate or plan", file=sys.stderr)
        return 2
    plan, costs, missing = load(run)
    if missing:
        print(f"{len(missing)} of {len(plan['parts'])} parts have no result yet", file=sys.stderr)
        return 1
    if order == "estimate":
        # What `work --next` does: the largest estimate first, equal ones in plan order.
        costs = sorted(costs, key=lambda c: -c[2])
    cpu = [c for _, c, _ in costs]
    total = sum(cpu)
    largest = max(cpu)
    median = statistics.median(cpu)
    boards = ", ".join(b["board"] for b in plan["boards"][:4])
    rows = []
    for p in threads:
        span = makespan(costs, p)
        bound = max(total / p, largest)
        rows.append({
            "threads": p,
            "makespan_seconds": span,
            "efficiency": total / (p * span) if span > 0 else 1.0,
            "bound_seconds": bound,
            "best_possible_efficiency": total / (p * bound) if bound > 0 else 1.0,
        })
    if "--json" in argv:
        print(json.dumps({"parts": len(cpu), "cpu_seconds": total, "largest": largest,
                          "median": median, "rows": rows}))
        return 0
    print(f"{run}: {plan['problem']} of {boards}: {len(cpu)} parts, {total:.1f} CPU s in all")
    print(f"part cost: median {median:.3f} s, largest {largest:.3f} s "
          f"({largest / median:.0f}x the median, {100 * largest / total:.1f}% of the total)")
    # How good the plan's estimates were: rank correlation between estimate and cost.
    order_est = sorted(range(len(costs)), key=lambda i: costs[i][2])
    order_cpu = sorted(range(len(costs)), key=lambda i: costs[i][1])
    rank_est = {i: r for r, i in enumerate(order_est)}
    rank_cpu = {i: r for r, i in enumerate(order_cpu)}
    n = len(costs)
    if n > 2:
        d2 = sum((rank_est[i] - rank_cpu[i]) ** 2 for i in range(n))
        rho = 1 - 6 * d2 / (n * (n * n - 1))
        print(f"estimates against costs: Spearman rank correlation {rho:.2f}")
    print(f"{'threads':>8} {'makespan s':>11} {'efficiency':>11} {'bound s':>9} {'best eff.':>10}")
    for r in rows:
        print(f"{r['threads']:>8} {r['makespan_seconds']:>11.2f} {100 * r['efficiency']:>10.0f}% "
              f"{r['bound_seconds']:>9.2f} {100 * r['best_possible_efficiency']:>9.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
