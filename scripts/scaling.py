#!/usr/bin/env python3
"""Predict how a search scales to many threads by replaying its trace on simulated workers.

usage: scripts/scaling.py TRACE [--threads 1,2,4,...,256] [--json] [--svg FILE] [--seed N]
                                [--label TEXT] [--side-by-side] [--order as-run|table|area|cost]
       scripts/scaling.py --compare SVG LABEL=TRACE[,side-by-side][,order=O][,measured=1:W1/2:W2] ...

The second form prints one efficiency table for several traces (a Markdown table) and draws their
speed-up curves in one SVG; `measured=1:W1/2:W2` adds measured wall seconds at those thread
counts as points beside the curve (speed-up against the predicted 1-thread time).

TRACE is the CSV written by `queendom solve|table|bench --trace FILE` (best taken with -j 1, so
that every task's CPU seconds are its cost and not slowed down by a sibling thread). The script
prints, for each thread count p: the predicted wall seconds, the speed-up over the prediction at
p = 1, the efficiency (speed-up / p), and the lower bound max(total / p, critical path); then the
critical path (the longest chain of tasks that cannot run in parallel) and the largest single
task's share of the total CPU.

The model (what it replays, and what it leaves out):
- Every task costs its recorded `cpu_seconds`; nothing else costs time except the serial gaps
  between the searches of a trace (board set-up, checks), taken as measured from the trace's
  start and end offsets. The searches of a trace (rows with no parent) run one after the other,
  except the board jobs of a table (below).
- A table computed side by side (what `queendom table` does without --checkpoint) traces one
  `board` task per searched board, whose `path` is its place in the order the jobs were handed to
  the pool and whose children are the board's `start` and its search(es), run in order: each
  starts when the one before it has finished, subtree and all. The board jobs of one table are
  replayed as rayon's `scope_fifo` runs them: one stealable job per board on the deque of the
  worker that spawned them, each taking the next board in the spawn order, so that idle workers
  pick up new boards or steal parts of running searches (a thief picks its victim at random).
- A `start` task (the heuristic's 4 restarts, run with rayon's `into_par_iter`) costs its CPU
  divided by min(p, 4) when its search runs alone; inside a board job it is replayed as 4
  stealable restarts of a quarter of its CPU each, which spread only over workers that are idle.
- A search task's children are handed to the pool the way the driver does it: `adaptive`
  children with rayon's adaptive splitter (a range is halved while its split budget lasts; the
  budget starts at p and is halved at each split, and a stolen range gets its budget back to at
  least p), `each` children one job apiece (`with_max_len(1)`), `in-order` children run in order
  by the same worker (except the pieces of an N-queens count traced with -j 1, which counts them
  in order: they are replayed as on more threads, one job each). A chunk that is no longer split
  runs its tasks in order on one worker: no thief can take them.
- Work stealing as rayon does it: a worker runs its own newest job first (so a task's children
  run before the rest of the chunk it sits in), and an idle worker steals the oldest stealable
  job of a victim picked at random (seeded) among the workers that have one. Stealing and
  splitting cost nothing.
- --side-by-side (for traces of tables computed one board after the other: older builds, or
  `table --checkpoint`): replays them as queendom now runs a table, each board's start and
  searches grouped into one board job. --order picks the order of the board jobs: `as-run` (the
  trace's; for a sequential trace the table's), `table` (the order of the table's rows), `area`
  (largest board first, the estimate queendom uses), `cost` (most traced CPU first: the best an
  estimate could do).
- Left out: a worker whose stolen right half is still running goes on with its own remaining
  work here, while rayon makes it wait at the join (stealing other work meanwhile); a sequence
  (a board's start, then its search) goes on on the worker that finished the last task of the
  step before; memory and cache effects of many threads on one socket; contention on the shared
  bound. So the predictions are optimistic where many threads share little work at the end.
"""
import csv
import heapq
import itertools
import json
import random
import sys

START_RESTARTS = 4
ORDERS = ("as-run", "table", "area", "cost")


def load(path, side_by_side=False, order="as-run"):
    """The trace's tasks (id -> dict, the children of each task in search order) and the roots of
    its phases, in order. The board jobs of a side-by-side table hang under one synthetic root
    (kind `table`, id below 0); with `side_by_side`, the searches of a sequential table are
    grouped into such board jobs first."""
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
    new_id = itertools.count(-1, -1)
    if side_by_side and not any(tasks[r]["kind"] == "board" for r in roots):
        roots = group_boards(tasks, roots, new_id)
    roots = tables(tasks, roots, order, new_id)
    spread_starts(tasks, new_id)
    return tasks, roots


def synthetic(tasks, new_id, kind, board, split, children, index=0, cost=0.0):
    """A task the replay adds (a table, a board job of a sequential trace, a restart); its
    children get it as their parent."""
    tid = next(new_id)
    tasks[tid] = {"id": tid, "parent": None, "kind": kind, "board": board, "index": index,
                  "children_split": split, "cost": cost, "nodes": 0, "thread": None,
                  "start": min((tasks[c]["start"] for c in children), default=0.0),
                  "end": max((tasks[c]["end"] for c in children), default=0.0),
                  "children": list(children), "synthetic": True}
    for c in children:
        tasks[c]["parent"] = tid
    return tid


def group_boards(tasks, roots, new_id):
    """A sequential table's searches as board jobs: each board's roots (its start, its searches)
    in the order they ran, one job per board in the order of the table's rows."""
    by_board = {}
    for r in roots:
        by_board.setdefault(tasks[r]["board"], []).append(r)
    return [synthetic(tasks, new_id, "board", board, "in-order", ids, index=k)
            for k, (board, ids) in enumerate(by_board.items())]


def sides(board):
    rows, cols = board.split("x")
    return int(rows), int(cols)


def tables(tasks, roots, order, new_id):
    """Each run of consecutive `board` roots (one side-by-side table) under one `table` root."""
    out, run = [], []
    for r in roots + [None]:
        if r is not None and tasks[r]["kind"] == "board":
            run.append(r)
            continue
        if run:
            by_spawn = sorted(run, key=lambda b: tasks[b]["index"])
            if order == "table":
                # Every searched board has rows <= cols and comes before its transpose.
                by_spawn.sort(key=lambda b: sides(tasks[b]["board"]))
            elif order == "area":
                by_spawn.sort(key=lambda b: -area(tasks[b]["board"]))
            elif order == "cost":
                by_spawn.sort(key=lambda b: -sum(tasks[i]["cost"] for i in subtree(tasks, b)))
            out.append(synthetic(tasks, new_id, "table", "", "fifo", by_spawn))
            run = []
        if r is not None:
            out.append(r)
    return out


def area(board):
    rows, cols = sides(board)
    return rows * cols


def spread_starts(tasks, new_id):
    """A start inside a board job: 4 stealable restarts of a quarter of its CPU each."""
    for t in list(tasks.values()):
        if t["kind"] != "start" or t["parent"] is None or tasks[t["parent"]]["kind"] != "board":
            continue
        t["spread"] = True
        t["children_split"] = "adaptive"
        t["children"] = [synthetic(tasks, new_id, "restart", t["board"], None, [], index=k,
                                   cost=t["cost"] / START_RESTARTS)
                         for k in range(START_RESTARTS)]
        for c in t["children"]:
            tasks[c]["parent"] = t["id"]
            tasks[c]["start"], tasks[c]["end"] = t["start"], t["end"]


def subtree(tasks, root):
    out, stack = [], [root]
    while stack:
        t = stack.pop()
        out.append(t)
        stack.extend(tasks[t]["children"])
    return out


def phases(tasks, roots):
    """The phases of the trace (a search, or a side-by-side table), in order, each with the
    measured serial gap before it."""
    out = []
    previous_end = None
    for r in roots:
        ids = subtree(tasks, r)
        real = [i for i in ids if not tasks[i].get("synthetic")] or ids
        start = min(tasks[i]["start"] for i in real)
        end = max(tasks[i]["end"] for i in real)
        gap = 0.0 if previous_end is None else max(0.0, start - previous_end)
        out.append({"root": r, "ids": ids, "gap": gap, "start": start, "end": end})
        previous_end = end
    return out


def task_cost(t, p):
    if t.get("spread"):
        return 0.0
    if t["kind"] == "start":
        return t["cost"] / min(p, START_RESTARTS)
    return t["cost"]


def is_sequence(t):
    """A task whose children run one after the other, each after the one before has finished."""
    return t["kind"] == "board" and t["children_split"] == "in-order"


def critical_path(tasks, root, p=1):
    """Longest chain of costs from `root` down (the steps of a sequence add up)."""
    order = subtree(tasks, root)
    longest = {}
    for t in reversed(order):
        kids = [longest[c] for c in tasks[t]["children"]]
        after = sum(kids) if is_sequence(tasks[t]) else max(kids, default=0.0)
        longest[t] = task_cost(tasks[t], p) + after
    return longest[root]


class Worker:
    __slots__ = ("jobs", "stealable")

    def __init__(self):
        # Newest last. A job is ("range", children, lo, hi, splits, each, migrated): stealable;
        # ("next", parent): stealable, the next of a `fifo` parent's children; ("seq", children,
        # lo, hi): the rest of a chunk, run in order by this worker only; ("one", task): the next
        # step of a sequence, for this worker only.
        self.jobs = []
        self.stealable = 0


STEALABLE = ("range", "next")


def simulate_phase(tasks, root, p, rng):
    """Makespan of one phase (rooted at `root`) on p workers."""
    workers = [Worker() for _ in range(p)]
    with_stealable = set()
    busy = []  # heap of (finish time, worker, task id)
    idle = set(range(p))
    outstanding = {}  # task -> its own work and its children's subtrees not yet finished
    taken = {}  # `in-order` or `fifo` task -> children released so far
    now = 0.0

    def push(w, job):
        workers[w].jobs.append(job)
        if job[0] in STEALABLE:
            workers[w].stealable += 1
            with_stealable.add(w)

    def pop(w):
        job = workers[w].jobs.pop()
        if job[0] in STEALABLE:
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
            if job[0] in STEALABLE:
                del jobs[k]
                workers[v].stealable -= 1
                if workers[v].stealable == 0:
                    with_stealable.discard(v)
                return job[:6] + (True,) if job[0] == "range" else job
        return None

    def start_task(w, tid):
        idle.discard(w)
        outstanding[tid] = len(tasks[tid]["children"]) + 1
        heapq.heappush(busy, (now + task_cost(tasks[tid], p), w, tid))

    def release(w, tid):
        """The next child of a sequence, on worker w."""
        k = taken[tid]
        taken[tid] = k + 1
        push(w, ("one", tasks[tid]["children"][k]))

    def finished(w, tid):
        """Task tid's own work is done (on worker w): so is its subtree if it has no children,
        and then perhaps its parent's, and so on up; a sequence goes on to its next step."""
        child = False
        while True:
            outstanding[tid] -= 1
            t = tasks[tid]
            if outstanding[tid] > 0:
                if child and is_sequence(t) and taken[tid] < len(t["children"]):
                    release(w, tid)
                return
            if tid == root:
                return
            tid, child = t["parent"], True

    def run_job(w, job):
        """Split a job as rayon would and start its first task on worker w."""
        if job[0] == "one":
            start_task(w, job[1])
            return
        if job[0] == "next":
            parent = job[1]
            k = taken[parent]
            taken[parent] = k + 1
            start_task(w, tasks[parent]["children"][k])
            return
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

    def hand_out_children(w, tid):
        t = tasks[tid]
        kids = t["children"]
        if not kids:
            return
        split = t["children_split"]
        if split == "in-order" and t["kind"] == "nqueens":
            # `nqueens -j 1` counts its pieces in order; on more threads it hands them out one
            # per job, which is what is replayed.
            split = "each"
        if is_sequence(t):
            taken[tid] = 0
            release(w, tid)
        elif split == "fifo":
            taken[tid] = 0
            for _ in kids:
                push(w, ("next", tid))
        elif split == "in-order" or p == 1:
            push(w, ("seq", kids, 0, len(kids)))
        else:
            each = split == "each"
            splits = max(p, len(kids)) if each else p
            push(w, ("range", kids, 0, len(kids), splits, each, False))

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
        hand_out_children(w, tid)
        finished(w, tid)
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
    traced = [t for t in tasks.values() if not t.get("synthetic")]
    cpu = sum(t["cost"] for t in traced)
    gaps = sum(ph["gap"] for ph in phs)
    largest = max(traced, key=lambda t: t["cost"])
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
    used = {t["thread"] for t in traced if t["thread"] is not None}
    span = max(ph["end"] for ph in phs) - min(ph["start"] for ph in phs)
    return {
        "tasks": len(traced),
        "searches": sum(1 for t in traced if t["kind"] != "board" and (
            t["parent"] is None or tasks[t["parent"]]["kind"] == "board")),
        "board_jobs": sum(1 for t in tasks.values() if t["kind"] == "board"),
        "boards": sorted({t["board"] for t in traced}),
        "cpu_seconds": cpu,
        "serial_gap_seconds": gaps,
        "nodes": sum(t["nodes"] for t in traced),
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
        order = next((o[len("order="):] for o in options if o.startswith("order=")), "as-run")
        tasks, roots = load(path, "side-by-side" in options, order)
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
    order = argv[argv.index("--order") + 1] if "--order" in argv else "as-run"
    if order not in ORDERS:
        print(f"--order {order}: expected one of {', '.join(ORDERS)}", file=sys.stderr)
        return 2
    tasks, roots = load(trace, "--side-by-side" in argv, order)
    if not tasks:
        print(f"{trace}: no tasks", file=sys.stderr)
        return 1
    s = summary(tasks, roots, threads, seed)
    if "--svg" in argv:
        svg_plot([{"label": label, "rows": s["rows"]}], argv[argv.index("--svg") + 1])
    if "--json" in argv:
        print(json.dumps(s))
        return 0
    boards = ", ".join(s["boards"][:6]) + (" …" if len(s["boards"]) > 6 else "")
    jobs = f", {s['board_jobs']} board jobs side by side" if s["board_jobs"] else ""
    print(f"{label}: {s['tasks']} tasks in {s['searches']} searches ({boards}){jobs}, "
          f"{s['cpu_seconds']:.3f} CPU s in tasks, {s['nodes']} nodes")
    print(f"traced on {s['traced_threads']} thread(s): {s['traced_wall_seconds']:.3f} s wall; "
          f"serial gaps between phases {s['serial_gap_seconds']:.3f} s")
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
