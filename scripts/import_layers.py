#!/usr/bin/env python3
"""Which module of src/ uses which, and whether any of them lean on each other in a circle.

Reads every .rs file under src/ as text: the `use` lines and the paths written in the code that
start with `crate::`, `super::`, `self::` or a child module's name (comments and strings are
skipped), resolved to the module they name. The library (src/lib.rs) and the binary (src/main.rs
with its `mod`s) are two crates, each checked on its own.

The rule (docs/architecture.md): modules import downward only. A module may use its own
ancestors (a child may use its parent) and anything else that does not lead back to it; within
each folder the files and subfolders, taken as units, must not use each other in a circle. So
for every module with children, the edges between its children (an edge from anything inside
child X to anything inside child Y, X != Y) must form no cycle.

Usage: scripts/import_layers.py [SRC] [--edges]   (exit 1 when a cycle is found)
  --edges  also print each folder's edges between its children, lowest layer first.
"""

import os
import re
import sys


def strip_code(text):
    """The text without comments, string and char literals (so that doc links and messages do
    not count as uses); line breaks kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            # A char literal ('a', '\n', '\u{..}'), not a lifetime ('a).
            m = re.match(r"'(\\.|\\u\{[0-9a-fA-F]+\}|[^'\\])'", text[i:])
            if m:
                out.append("' '")
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def modules(src, root_file):
    """The modules of the crate rooted at `root_file`: {module path (tuple): file}."""
    found = {}

    def visit(path, file):
        found[path] = file
        text = strip_code(open(file, encoding="utf-8").read())
        here = os.path.dirname(file)
        own = os.path.splitext(os.path.basename(file))[0]
        # Children of mod.rs / lib.rs / main.rs sit beside it, those of x.rs in x/.
        folder = here if own in ("mod", "lib", "main") else os.path.join(here, own)
        for m in re.finditer(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text, re.M):
            name = m.group(1)
            for candidate in (os.path.join(folder, name + ".rs"), os.path.join(folder, name, "mod.rs")):
                if os.path.exists(candidate):
                    visit(path + (name,), candidate)
                    break

    visit((), root_file)
    return found


def uses(path, file, mods):
    """The modules that module `path` (file `file`) uses: {target path}."""
    text = strip_code(open(file, encoding="utf-8").read())
    targets = set()
    # Inline modules (`mod tests { ... }`) shift what `super` and `self` mean inside them.
    inline = []  # (name, brace depth at which it closes)
    depth = 0
    children = {p[-1] for p in mods if len(p) == len(path) + 1 and p[:-1] == path}
    token = re.compile(r"\bmod\s+(\w+)\s*\{|[{}]|(?<![\w:])((?:crate|super|self|\w+)(?:::(?:\w+|\{|\*))+)")
    in_use = False
    for m in token.finditer(text):
        t = m.group(0)
        if m.group(1):
            depth += 1
            inline.append((m.group(1), depth))
            continue
        if t == "{":
            depth += 1
            continue
        if t == "}":
            if inline and inline[-1][1] == depth:
                inline.pop()
            depth -= 1
            continue
        segs = [s for s in m.group(2).split("::") if s not in ("{", "*")]
        # Where the path starts: the module the code stands in, inline modules included.
        here = list(path) + [name for name, _ in inline]
        first = segs[0]
        if first == "crate":
            base, rest = [], segs[1:]
        elif first == "super":
            base = here
            rest = segs
            while rest and rest[0] == "super":
                base = base[:-1]
                rest = rest[1:]
        elif first == "self":
            base, rest = here, segs[1:]
        elif not inline and first in children:
            base, rest = list(path), segs
        else:
            continue  # std::, an outer crate, a type's associated item, a local name
        target = tuple(base)
        for s in rest:
            if target + (s,) in mods:
                target = target + (s,)
            else:
                break
        # A path into one of the file's own inline modules is the file itself.
        if target in mods:
            targets.add(target)
    targets.discard(path)
    return targets


def check(src, root_name, show_edges):
    root_file = os.path.join(src, root_name)
    mods = modules(src, root_file)
    edges = {p: uses(p, f, mods) for p, f in mods.items()}
    cycles = []
    for parent in sorted(mods):
        kids = sorted(p for p in mods if len(p) == len(parent) + 1 and p[:-1] == parent)
        if len(kids) < 2:
            continue
        graph = {k: set() for k in kids}
        for src_mod, targets in edges.items():
            if src_mod[: len(parent)] != parent or len(src_mod) <= len(parent):
                continue
            a = src_mod[: len(parent) + 1]
            for t in targets:
                if t[: len(parent)] != parent or len(t) <= len(parent):
                    continue  # outside this folder, or the folder's own file (a parent)
                b = t[: len(parent) + 1]
                if a != b:
                    graph[a].add(b)
        order, circles = layers(graph)
        name = "::".join(parent) or root_name
        for circle in circles:
            cycles.append((name, circle))
        if show_edges and not circles:
            print(f"{name}: (lowest first)")
            for k in order:
                used = ", ".join(sorted(t[-1] for t in graph[k])) or "-"
                print(f"  {k[-1]:<16} uses {used}")
    for name, cycle in cycles:
        print(f"circle in {name}: " + ", ".join(c[-1] for c in cycle) + " use each other")
    return len(mods), cycles


def layers(graph):
    """A topological order of `graph` (used modules first), and its circles: the strongly
    connected components of more than one module (Tarjan's algorithm)."""
    index, low, on_stack, stack = {}, {}, set(), []
    order, circles = [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            order.extend(sorted(component))
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return order, circles


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    src = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    show = "--edges" in sys.argv
    total, found = 0, []
    for root in ("lib.rs", "main.rs"):
        if os.path.exists(os.path.join(src, root)):
            n, cycles = check(src, root, show)
            total += n
            found += cycles
    print(f"{total} modules, {len(found)} circles")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
