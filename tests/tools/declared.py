#!/usr/bin/env python3
"""declared.py HEADER... - print, one a line, every function the public
headers declare (the names a user calls, as written in the header; a name
that a header maps onto another symbol by a macro counts under the name the
user writes).  Internal helpers (names starting with '_' or 'superstep_')
are left out."""
import re
import sys

KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "defined"}


def declared(text):
    # "#define bsp_qsize(n, b) bsp_any_qsize(...)": the user calls bsp_qsize.
    called_as = {m.group(2): m.group(1)
                 for m in re.finditer(r"^\s*#\s*define\s+(\w+)\([^)]*\)\s+(\w+)\s*\(", text, flags=re.M)}
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"\\\n", " ", text)
    text = "\n".join(l for l in text.split("\n") if not l.lstrip().startswith("#"))
    text = re.sub(r'extern\s+"C(\+\+)?"', " ", text)
    for stmt in re.split(r"[;{}]", text):
        s = " ".join(stmt.split())
        if s.startswith(("typedef", "return ")):
            continue
        m = re.match(r"^(?:[A-Za-z_]\w*[\s*]+)+\**([A-Za-z_]\w*)\s*\(", s)
        if m:
            name = called_as.get(m.group(1), m.group(1))
            if name not in KEYWORDS and not name.startswith(("_", "superstep_")):
                yield name


names = set()
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        names.update(declared(f.read()))
print("\n".join(sorted(names)))
