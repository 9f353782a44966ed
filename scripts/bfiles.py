#!/usr/bin/env python3
"""Write OEIS-style b-files (`n a(n)` lines) from the shipped tables in results/.

    python3 scripts/bfiles.py [results/]

Each problem's table is the 1-32 table with bounds when results/ holds it (only its rows whose
status is `proven` are values: a b-file never holds a bound), else the exact 1-20 table.
Squares (γ(Q_n): A075458, i(Q_n): A075324) are written for every n whose n×n row is in the table;
the triangles (A274138 for γ, A299029 for i: T(n, k) for 1 ≤ k ≤ n, read by rows, where T(n, k) is
the value of the k×n board) are written as far as they are complete, row by row. The values are
the tables' own (every row of which is checked by tests/suite/results.rs); this script only
rearranges them.
"""
import csv
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The OEIS numbers are Problem::square_sequence and Problem::triangle_sequence (src/problem.rs);
# tests/suite/results.rs (bfiles_are_named_as_problem_names_them) checks that this list agrees.
TABLES = [
    (("domination-1-32.csv", "domination-1-20.csv"), "A075458", "A274138"),
    (("independent-domination-1-32.csv", "independent-domination-1-20.csv"), "A075324", "A299029"),
]


def values(path):
    out = {}
    with open(path, newline="", encoding="utf-8-sig") as f:
        for row in csv.DictReader(f):
            if row.get("status", "proven") == "proven":
                out[(int(row["rows"]), int(row["cols"]))] = int(row["queens"])
    return out


def write(path, terms, about):
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# {about}\n")
        for n, a in terms:
            f.write(f"{n} {a}\n")
    print(f"{path}: {len(terms)} terms")


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "results")
    for tables, squares, triangle in TABLES:
        found = [t for t in tables if os.path.exists(os.path.join(folder, t))]
        if not found:
            continue
        table = found[0]
        path = os.path.join(folder, table)
        v = values(path)
        sq = []
        n = 1
        while (n, n) in v:
            sq.append((n, v[(n, n)]))
            n += 1
        write(os.path.join(folder, f"b{squares[1:]}.txt"), sq,
              f"{squares}: n = 1..{len(sq)}, from results/{table} (queendom)")
        tri = []
        n = 1
        while all((k, n) in v for k in range(1, n + 1)):
            tri.extend(v[(k, n)] for k in range(1, n + 1))
            n += 1
        write(os.path.join(folder, f"b{triangle[1:]}.txt"), list(enumerate(tri, start=1)),
              f"{triangle}: T(n, k), 1 <= k <= n <= {n - 1}, read by rows, from results/{table} (queendom)")


if __name__ == "__main__":
    main()
