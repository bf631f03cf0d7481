#!/usr/bin/env python3
"""Lists the import edges between the modules of src/ and fails on a cycle.

Usage: python3 scripts/ci/module-cycles.py [--edges] [SRC_DIR]

Every `crate::a::b` and `super::x` path in a file (in `use` items, grouped `use` trees and
inline paths alike; comments and strings removed first) is an edge from that file's module
to the deepest module the path names. Two graphs are checked:

- top level: `cli`, `engines`, `experiment`, ... (an edge when any file of one names the
  other), which catches the library depending on its own command line;
- files: every file module, where edges between a module and its own ancestors are left
  out (a `mod.rs` declares and re-exports its children, and children use their parent's
  items; that is the module tree, not a cycle), which catches siblings importing each other.

The layers keep their order as well (LAYER_RULES): `records` imports neither `experiment`,
`plot` nor `cli`, and `plot` neither `experiment` nor `cli`; each such path is printed.

Exit status 1 when either graph has a cycle (each strongly connected component of more than
one module is printed) or a layer rule is broken, 0 otherwise.
"""

import os
import re
import sys


# Top-level modules that must not name others (as in tests/module_cycles.rs).
LAYER_RULES = {
    "records": ("experiment", "plot", "cli"),
    "plot": ("experiment", "cli"),
}


def module_of(path, src):
    rel = os.path.relpath(path, src)[: -len(".rs")].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return tuple(rel)


def strip(text):
    """Source without comments, string and char literals (their contents are not paths).
    One left-to-right scan, so a quote inside a comment or a char literal starts nothing."""
    token = re.compile(
        r"//[^\n]*|/\*.*?\*/|\br(#*)\"(?:.|\n)*?\"\1|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])'",
        re.S,
    )
    return token.sub(lambda m: '""' if m.group(0)[0] in "r\"'" else " ", text)


def expand_use_trees(text):
    """`crate::a::{b, c::{d, e}}` -> `crate::a::b`, `crate::a::c::d`, `crate::a::c::e`."""
    paths = []
    for m in re.finditer(r"\b((?:crate|super)(?:::(?:super|\w+))*)::\{", text):
        prefix = m.group(1)
        depth, i, start = 1, m.end(), m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        body = text[start : i - 1]
        for part in split_top(body):
            part = part.strip()
            if not part or part == "self":
                paths.append(prefix)
                continue
            paths.extend(expand_use_trees(prefix + "::" + part) or [prefix + "::" + part])
    return paths


def split_top(body):
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


def resolve(path, here, modules):
    """The deepest known module a path names, from module `here` (None if outside src/)."""
    segs = path.split("::")
    if segs[0] == "crate":
        base, rest = (), segs[1:]
    else:
        base = here
        while segs and segs[0] == "super":
            base = base[:-1]
            segs = segs[1:]
        rest = segs
    best = None
    cur = base
    if cur in modules:
        best = cur
    for s in rest:
        cur = cur + (s,)
        if cur in modules:
            best = cur
        else:
            break
    return best


def sccs(graph):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def name(m):
    return "::".join(m) or "crate"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show = "--edges" in sys.argv
    src = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..", "src")
    files = {}
    for root, _, names in os.walk(src):
        for n in names:
            if n.endswith(".rs"):
                p = os.path.join(root, n)
                files[module_of(p, src)] = p
    modules = set(files)
    # Inline `mod tests { ... }` blocks are part of their file's module here.
    edges = {}
    layer_breaks = []
    for here, p in files.items():
        with open(p, encoding="utf-8") as f:
            text = strip(f.read())
        paths = expand_use_trees(text)
        paths += re.findall(r"\b(?:crate|super)(?:::(?:super|\w+))+", text)
        for path in paths:
            target = resolve(path, here, modules)
            if target is not None and target != here:
                edges.setdefault(here, set()).add(target)
            banned = LAYER_RULES.get(here[0] if here else "", ())
            if target and target[0] in banned:
                layer_breaks.append(f"{os.path.relpath(p, src)}: {path} (names {target[0]})")

    top = {}
    for a, targets in edges.items():
        for b in targets:
            if a and b and a[0] != b[0]:
                top.setdefault(a[0], set()).add(b[0])
    tree = {}
    for a, targets in edges.items():
        for b in targets:
            if a[: len(b)] != b and b[: len(a)] != a:
                tree.setdefault(a, set()).add(b)

    if show:
        for a in sorted(tree):
            for b in sorted(tree[a]):
                print(f"{name(a)} -> {name(b)}")
    bad = False
    for comp in sccs(top):
        bad = True
        print("cycle between top-level modules: " + " <-> ".join(comp))
        for a in comp:
            for b in sorted(top.get(a, ())):
                if b in comp:
                    who = sorted(
                        name(x) for x, ts in edges.items() if x and x[0] == a and any(t and t[0] == b for t in ts)
                    )
                    print(f"  {a} -> {b} (from {', '.join(who)})")
    for comp in sccs(tree):
        bad = True
        print("cycle between files: " + " <-> ".join(name(m) for m in comp))
        for a in comp:
            for b in sorted(tree.get(a, ())):
                if b in comp:
                    print(f"  {name(a)} -> {name(b)}")
    for line in sorted(set(layer_breaks)):
        bad = True
        print("import against the layers: " + line)
    if not bad:
        print(f"no import cycles among {len(modules)} modules")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
