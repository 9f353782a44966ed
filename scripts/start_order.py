#!/usr/bin/env python3
"""What the table's start order costs: the same table written to a file (largest board first) and
to a pipe (the table's order, so rows flow at once), alternately, as medians of --runs runs, and
the time to the first three rows on the pipe.

    scripts/start_order.py [--rows 1-12] [--cols 1-14] [--threads 2] [--runs 3]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

from common import BINARY, build


def to_file(args, path):
    if os.path.exists(path):
        os.remove(path)
    t0 = time.perf_counter()
    subprocess.run([BINARY, *args, "-o", path], check=True, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def to_pipe(args):
    """Wall seconds to the end, and to the header plus three rows."""
    t0 = time.perf_counter()
    p = subprocess.Popen([BINARY, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first = None
    for k, _ in enumerate(p.stdout):
        if k == 3:
            first = time.perf_counter() - t0
    p.wait()
    if p.returncode != 0:
        raise SystemExit(f"queendom exited {p.returncode}")
    return time.perf_counter() - t0, first


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", default="1-12")
    ap.add_argument("--cols", default="1-14")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    build()
    args = ["table", "--rows", a.rows, "--cols", a.cols, "-j", str(a.threads)]
    files, pipes, firsts = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.runs):
            files.append(to_file(args, os.path.join(tmp, "t.csv")))
            wall, first = to_pipe(args)
            pipes.append(wall)
            firsts.append(first)
    f, p = statistics.median(files), statistics.median(pipes)
    print(f"table --rows {a.rows} --cols {a.cols} -j {a.threads}, medians of {a.runs}")
    print(f"  to a file (largest first): {f:.2f} s   {sorted(round(x, 2) for x in files)}")
    print(f"  to a pipe (table order):   {p:.2f} s   {sorted(round(x, 2) for x in pipes)}")
    print(f"  pipe / file: {p / f:.3f}")
    print(f"  first three rows on the pipe after {statistics.median(firsts):.3f} s")


if __name__ == "__main__":
    main()
