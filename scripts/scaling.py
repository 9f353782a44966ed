#!/usr/bin/env python3
"""Predict how a search scales to many threads by replaying its trace on simulated workers.

usage: scripts/scaling.py TRACE [--threads 1,2,4,...,256] [--json] [--svg FILE] [--seed N]
                                [--label TEXT] [--side-by-side]
       scripts/scaling.py --compare SVG LABEL=TRACE[,side-by-side][,measured=1:W1/2:W2] ...

The second form prints one efficiency table for several traces (a Markdown table) and draws their
speed-up curves in one SVG; `measured=1:W1/2:W2` adds measured wall seconds at those thread
counts as points beside the curve (speed-up against the predicted 1-thread time).

TRACE is the CSV written by `queendom solve|table|bench --trace FILE` (best taken with -j 1, so
that every task's CPU seconds are its cost and not slowed down by a sibling thread). The script
prints, for each thread count p: the predicted wall seconds, the speed-up over the prediction at
p = 1, the efficiency (speed-up / p), and the lower bound max(total / p, critical path); then the
critical path (the longest chain of tasks each split off from the one before) and the largest
single task's share of the total CPU.

The model (what it replays, and what it leaves out):
- Every task costs its recorded `cpu_seconds`; nothing else costs time except the serial gaps
  between the searches of a trace (board set-up, checks), taken as measured from the trace's
  start and end offsets. The searches of a trace (rows with no parent) run one after the other.
- A `start` task (the heuristic's restarts, 4 of them side by side on the pool) costs its
  process CPU divided by min(p, 4).
- A task's children are handed to the pool the way the driver does it: `adaptive` children with
  rayon's adaptive splitter (a range is halved while its split budget lasts; the budget starts at
  p and is halved at each split, and a stolen range gets its budget back to at least p), `each`
  children one job apiece (`with_max_len(1)`), `in-order` children run in order by the same
  worker (except the pieces of an N-queens count traced with -j 1, which counts them in order:
  they are replayed as on more threads, one job each). A chunk that is no longer split runs its tasks in order on one worker: no thief can
  take them.
- Work stealing as rayon does it: a worker runs its own newest job first (so a task's children
  run before the rest of the chunk it sits in), and an idle worker steals the oldest stealable
  job of a victim picked at random (seeded) among the workers that have one. Stealing and
  splitting cost nothing.
- With --side-by-side (a what-if, not what queendom does today): the boards of the trace run
  side by side, one adaptive-split job per board in trace order, each board's `start` task
  (charged whole to one worker) before its search; the serial gaps are dropped.
- Left out: a worker whose stolen right half is still running goes on with its own remaining
  work here, while rayon makes it wait at the join (stealing other work meanwhile); memory and
  cache effects of many threads on one socket; contention on the shared bound. So the
  predictions are optimistic where many threads share little work at the end.
"""
import csv
import heapq
import json
import random
import sys

START_RESTARTS = 4


def load(path):
    """The trace's tasks: id -> dict, the children of each task in search order, and the roots."""
    tasks = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            tid = int(row["id"])
            path_text = row["path"]
            last = 0 if path_text in ("root", "") else int(path_text.rsplit(".", 1)[-1])
            tasks[tid] = {
                "id": tid,
                "parent": int(row["parent"]) if row["parent"] else None,
                "kind": row["kind"],
                "board": row["board"],
                "children_split": row["children"] or None,
                "cost": float(row["cpu_seconds"]),
                "nodes": int(row["nodes"]),
                "thread": int(row["thread"]) if row["thread"] else None,
                "start": float(row["start_seconds"]),
                "end": float(row["end_seconds"]),
                "index": last,
                "children": [],
            }
    roots = []
    for t in sorted(tasks.values(), key=lambda t: t["id"]):
        if t["parent"] is None:
            roots.append(t["id"])
        else:
            tasks[t["parent"]]["children"].append(t["id"])
    for t in tasks.values():
        t["children"].sort(key=lambda c: (tasks[c]["index"], c))
    return tasks, roots


def side_by_side(tasks, roots):
    """The trace's searches as the children of one root, a board's start before its search."""
    top = -1
    tasks[top] = {"id": top, "parent": None, "kind": "side-by-side", "board": "", "index": 0,
                  "children_split": "adaptive", "cost": 0.0, "nodes": 0, "thread": None,
                  "start": min(tasks[r]["start"] for r in roots),
                  "end": max(t["end"] for t in tasks.values() if t["id"] != top),
                  "children": []}
    pending_start = {}
    for r in roots:
        t = tasks[r]
        if t["kind"] == "start":
            # Beside other boards, a start's restarts no longer have idle workers to spread
            # over: it is charged whole to one worker.
            t["alone"] = True
            pending_start[t["board"]] = r
            continue
        first = pending_start.pop(t["board"], None)
        if first is None:
            first = r
        else:
            tasks[first]["children"] = [r]
            tasks[first]["children_split"] = "in-order"
            t["parent"] = first
        tasks[first]["parent"] = top
        tasks[first]["index"] = len(tasks[top]["children"])
        tasks[top]["children"].append(first)
    for first in pending_start.values():
        tasks[first]["parent"] = top
        tasks[first]["index"] = len(tasks[top]["children"])
        tasks[top]["children"].append(first)
    return [top]


def subtree(tasks, root):
    out, stack = [], [root]
    while stack:
        t = stack.pop()
        out.append(t)
        stack.extend(tasks[t]["children"])
    return out


def phases(tasks, roots):
    """The searches of the trace, in order, each with the measured serial gap before it."""
    out = []
    previous_end = None
    for r in roots:
        ids = subtree(tasks, r)
        start = min(tasks[i]["start"] for i in ids)
        end = max(tasks[i]["end"] for i in ids)
        gap = 0.0 if previous_end is None else max(0.0, start - previous_end)
        out.append({"root": r, "ids": ids, "gap": gap, "start": start, "end": end})
        previous_end = end
    return out


def task_cost(t, p):
    if t["kind"] == "start" and not t.get("alone"):
        return t["cost"] / min(p, START_RESTARTS)
    return t["cost"]


def critical_path(tasks, root, p=1):
    """Longest chain of costs from `root` down to a leaf (iterative, children after parents)."""
    order = subtree(tasks, root)
    longest = {}
    for t in reversed(order):
        kids = tasks[t]["children"]
        longest[t] = task_cost(tasks[t], p) + max((longest[c] for c in kids), default=0.0)
    return longest[root]


class Worker:
    __slots__ = ("jobs", "stealable")

    def __init__(self):
        # Newest last. A job is ("range", children, lo, hi, splits, each, migrated): stealable;
        # or ("seq", children, lo, hi): the rest of a chunk, run in order by this worker only.
        self.jobs = []
        self.stealable = 0


def simulate_phase(tasks, root, p, rng):
    """Makespan of one search (rooted at `root`) on p workers."""
    workers = [Worker() for _ in range(p)]
    with_stealable = set()
    busy = []  # heap of (finish time, worker, task id)
    idle = set(range(p))
    now = 0.0

    def push(w, job):
        workers[w].jobs.append(job)
        if job[0] == "range":
            workers[w].stealable += 1
            with_stealable.add(w)

    def pop(w):
        job = workers[w].jobs.pop()
        if job[0] == "range":
            workers[w].stealable -= 1
            if workers[w].stealable == 0:
                with_stealable.discard(w)
        return job

    def steal(w):
        victims = [v for v in with_stealable if v != w]
        if not victims:
            return None
        v = victims[rng.randrange(len(victims))] if len(victims) > 1 else victims[0]
        jobs = workers[v].jobs
        for k, job in enumerate(jobs):
            if job[0] == "range":
                del jobs[k]
                workers[v].stealable -= 1
                if workers[v].stealable == 0:
                    with_stealable.discard(v)
                return job[:6] + (True,)
        return None

    def start_task(w, tid):
        idle.discard(w)
        heapq.heappush(busy, (now + task_cost(tasks[tid], p), w, tid))

    def run_job(w, job):
        """Split a job as rayon would and start its first task on worker w."""
        if job[0] == "seq":
            _, kids, lo, hi = job
            if lo + 1 < hi:
                push(w, ("seq", kids, lo + 1, hi))
            start_task(w, kids[lo])
            return
        _, kids, lo, hi, splits, each, migrated = job
        while hi - lo > 1:
            if migrated:
                splits = max(p, splits // 2)
                migrated = False
            elif splits > 0:
                splits //= 2
            else:
                break
            mid = (lo + hi) // 2
            push(w, ("range", kids, mid, hi, splits, each, False))
            hi = mid
        if lo + 1 < hi:
            push(w, ("seq", kids, lo + 1, hi))
        start_task(w, kids[lo])

    def children_job(tid):
        t = tasks[tid]
        kids = t["children"]
        if not kids:
            return None
        split = t["children_split"]
        if split == "in-order" and t["kind"] == "nqueens":
            # `nqueens -j 1` counts its pieces in order; on more threads it hands them out one
            # per job, which is what is replayed.
            split = "each"
        if split == "in-order" or p == 1:
            return ("seq", kids, 0, len(kids))
        each = split == "each"
        splits = max(p, len(kids)) if each else p
        return ("range", kids, 0, len(kids), splits, each, False)

    def next_for(w):
        """Give worker w its next job, its own first, else a stolen one; False if none."""
        if workers[w].jobs:
            run_job(w, pop(w))
            return True
        job = steal(w)
        if job is not None:
            run_job(w, job)
            return True
        return False

    start_task(0, root)
    while busy:
        now, w, tid = heapq.heappop(busy)
        idle.add(w)
        job = children_job(tid)
        if job is not None:
            push(w, job)
        next_for(w)
        if with_stealable and len(idle) > 0:
            for v in sorted(idle):
                if not with_stealable:
                    break
                if v in idle:
                    next_for(v)
    return now


def replay(tasks, roots, p, seed=1):
    rng = random.Random(seed)
    total = 0.0
    for ph in phases(tasks, roots):
        total += ph["gap"] + simulate_phase(tasks, ph["root"], p, rng)
    return total


def summary(tasks, roots, threads, seed=1):
    phs = phases(tasks, roots)
    cpu = sum(t["cost"] for t in tasks.values())
    gaps = sum(ph["gap"] for ph in phs)
    largest = max(tasks.values(), key=lambda t: t["cost"])
    rows = []
    base = replay(tasks, roots, 1, seed)
    for p in threads:
        wall = replay(tasks, roots, p, seed)
        crit = sum(ph["gap"] + critical_path(tasks, ph["root"], p) for ph in phs)
        work = sum(ph["gap"] + sum(task_cost(tasks[i], p) for i in ph["ids"]) / p for ph in phs)
        bound = sum(
            ph["gap"]
            + max(critical_path(tasks, ph["root"], p),
                  sum(task_cost(tasks[i], p) for i in ph["ids"]) / p)
            for ph in phs
        )
        speedup = base / wall if wall > 0 else float(p)
        rows.append({
            "threads": p,
            "predicted_seconds": wall,
            "speedup": speedup,
            "efficiency": speedup / p,
            "bound_seconds": bound,
            "critical_path_seconds": crit,
            "work_over_p_seconds": work,
        })
    used = {t["thread"] for t in tasks.values() if t["thread"] is not None}
    span = max(ph["end"] for ph in phs) - min(ph["start"] for ph in phs)
    return {
        "tasks": len(tasks),
        "searches": len(roots),
        "boards": sorted({t["board"] for t in tasks.values()}),
        "cpu_seconds": cpu,
        "serial_gap_seconds": gaps,
        "nodes": sum(t["nodes"] for t in tasks.values()),
        "critical_path_seconds": sum(ph["gap"] + critical_path(tasks, ph["root"]) for ph in phs),
        "largest_task_seconds": largest["cost"],
        "largest_task_share": largest["cost"] / cpu if cpu > 0 else 0.0,
        "largest_task": f"{largest['kind']} {largest['board']} task {largest['id']}",
        "traced_threads": len(used),
        "traced_wall_seconds": span,
        "rows": rows,
    }


def svg_plot(curves, path):
    """Speed-up against threads, both on log2 axes, one line per curve plus the ideal."""
    width, height, left, bottom, top, right = 640, 420, 60, 50, 20, 170
    max_p = max(r["threads"] for c in curves for r in c["rows"])
    import math
    lx = lambda p: left + (width - left - right) * math.log2(p) / max(1, math.log2(max_p))
    ly = lambda s: height - bottom - (height - bottom - top) * math.log2(max(s, 1)) / max(
        1, math.log2(max_p))
    colors = ["#1b6ac9", "#d4452b", "#2a9d4b", "#8a4fbf", "#c7a000", "#444444"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    p = 1
    while p <= max_p:
        x, y = lx(p), ly(p)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - bottom}" '
                   f'stroke="#ddd"/><text x="{x:.1f}" y="{height - bottom + 16}" '
                   f'text-anchor="middle">{p}</text>')
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" '
                   f'stroke="#ddd"/><text x="{left - 6}" y="{y + 4:.1f}" '
                   f'text-anchor="end">{p}</text>')
        p *= 2
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 12}" '
               f'text-anchor="middle">threads</text>')
    out.append(f'<text x="14" y="{(top + height - bottom) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {(top + height - bottom) / 2})">speed-up</text>')
    out.append(f'<line x1="{lx(1):.1f}" y1="{ly(1):.1f}" x2="{lx(max_p):.1f}" '
               f'y2="{ly(max_p):.1f}" stroke="#999" stroke-dasharray="4 3"/>')
    for k, c in enumerate(curves):
        color = colors[k % len(colors)]
        pts = " ".join(f"{lx(r['threads']):.1f},{ly(r['speedup']):.1f}" for r in c["rows"])
        out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2"/>')
        for r in c["rows"]:
            out.append(f'<circle cx="{lx(r["threads"]):.1f}" cy="{ly(r["speedup"]):.1f}" r="2.5" '
                       f'fill="{color}"/>')
        for m in c.get("measured", []):
            out.append(f'<rect x="{lx(m["threads"]) - 4:.1f}" y="{ly(m["speedup"]) - 4:.1f}" '
                       f'width="8" height="8" fill="none" stroke="{color}" stroke-width="1.5"/>')
        y = top + 16 + 18 * k
        label = c["label"].replace("&", "&amp;").replace("<", "&lt;")
        out.append(f'<line x1="{width - right + 10}" y1="{y - 4}" x2="{width - right + 30}" '
                   f'y2="{y - 4}" stroke="{color}" stroke-width="2"/>'
                   f'<text x="{width - right + 36}" y="{y}">{label}</text>')
    y = top + 16 + 18 * len(curves)
    out.append(f'<line x1="{width - right + 10}" y1="{y - 4}" x2="{width - right + 30}" '
               f'y2="{y - 4}" stroke="#999" stroke-dasharray="4 3"/>'
               f'<text x="{width - right + 36}" y="{y}">ideal</text>')
    if any(c.get("measured") for c in curves):
        y += 18
        out.append(f'<rect x="{width - right + 16}" y="{y - 8}" width="8" height="8" '
                   f'fill="none" stroke="#444"/><text x="{width - right + 36}" y="{y}">'
                   f'measured</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def parse_threads(text):
    return [int(t) for t in text.split(",") if t]


def compare(argv):
    out_svg = argv[2]
    threads = [1, 2, 4, 8, 16, 32, 64, 128, 256]
    curves = []
    for spec in argv[3:]:
        label, _, rest = spec.partition("=")
        path, *options = rest.split(",")
        tasks, roots = load(path)
        if "side-by-side" in options:
            roots = side_by_side(tasks, roots)
        s = summary(tasks, roots, threads)
        measured = []
        for o in options:
            if o.startswith("measured="):
                base = s["rows"][0]["predicted_seconds"]
                for point in o[len("measured="):].split("/"):
                    p, wall = point.split(":")
                    measured.append({"threads": int(p), "seconds": float(wall),
                                     "speedup": base / float(wall)})
        curves.append({"label": label, "rows": s["rows"], "measured": measured, "summary": s})
    svg_plot(curves, out_svg)
    print("| workload | tasks | CPU s | largest task | " +
          " | ".join(f"{p}" for p in threads) + " |")
    print("|---|---|---|---|" + "---|" * len(threads))
    for c in curves:
        s = c["summary"]
        cells = " | ".join(f"{100 * r['efficiency']:.0f}%" for r in c["rows"])
        print(f"| {c['label']} | {s['tasks']} | {s['cpu_seconds']:.1f} | "
              f"{100 * s['largest_task_share']:.2f}% | {cells} |")
    return 0


def main(argv):
    if len(argv) > 3 and argv[1] == "--compare":
        return compare(argv)
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__)
        return 2
    trace = argv[1]
    threads = [1, 2, 4, 8, 16, 32, 64, 128, 256]
    seed = 1
    if "--threads" in argv:
        threads = parse_threads(argv[argv.index("--threads") + 1])
    if "--seed" in argv:
        seed = int(argv[argv.index("--seed") + 1])
    label = argv[argv.index("--label") + 1] if "--label" in argv else trace
    tasks, roots = load(trace)
    if not tasks:
        print(f"{trace}: no tasks", file=sys.stderr)
        return 1
    if "--side-by-side" in argv:
        roots = side_by_side(tasks, roots)
    s = summary(tasks, roots, threads, seed)
    if "--svg" in argv:
        svg_plot([{"label": label, "rows": s["rows"]}], argv[argv.index("--svg") + 1])
    if "--json" in argv:
        print(json.dumps(s))
        return 0
    boards = ", ".join(s["boards"][:6]) + (" …" if len(s["boards"]) > 6 else "")
    print(f"{label}: {s['tasks']} tasks in {s['searches']} searches ({boards}), "
          f"{s['cpu_seconds']:.3f} CPU s in tasks, {s['nodes']} nodes")
    print(f"traced on {s['traced_threads']} thread(s): {s['traced_wall_seconds']:.3f} s wall; "
          f"serial gaps between searches {s['serial_gap_seconds']:.3f} s")
    print(f"critical path {s['critical_path_seconds']:.3f} s; largest task "
          f"{s['largest_task_seconds']:.3f} s ({100 * s['largest_task_share']:.2f}% of the "
          f"total: {s['largest_task']})")
    print(f"{'threads':>8} {'predicted s':>12} {'speed-up':>9} {'efficiency':>11} "
          f"{'bound s':>9}")
    for r in s["rows"]:
        print(f"{r['threads']:>8} {r['predicted_seconds']:>12.3f} {r['speedup']:>9.2f} "
              f"{100 * r['efficiency']:>10.1f}% {r['bound_seconds']:>9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
