"""Helpers shared by the measurement scripts: build once, run the binary, read its output, time it."""
import os
import re
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "queendom")


def build():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(args, binary=BINARY):
    """Run queendom (this checkout's, or `binary`) with args; returns (stdout, wall seconds, CPU
    seconds of the child)."""
    cpu0, t0 = children_cpu(), time.perf_counter()
    out = subprocess.run([binary, *args], capture_output=True, text=True, check=True).stdout
    return out, time.perf_counter() - t0, children_cpu() - cpu0


def solve(n, m, independent=False, threads=None):
    """Solve one board; returns dict(value, nodes, wall, cpu)."""
    args = ["solve", f"{n}x{m}"]
    if independent:
        args.append("--independent")
    if threads:
        args += ["-j", str(threads)]
    out, wall, cpu = run(args)
    value = int(re.search(r"\) = (\d+)", out).group(1))
    nodes = int(re.search(r"\((\d+) nodes", out).group(1))
    return {"value": value, "nodes": nodes, "wall": wall, "cpu": cpu}


def median(xs):
    return statistics.median(xs)


def say(*a):
    print(*a, flush=True)
    sys.stdout.flush()
