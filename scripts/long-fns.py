#!/usr/bin/env python3
"""Lists the functions of the given Rust files longer than a limit (default 80 lines), longest
first: `scripts/long-fns.py [--max N] FILE...`. A function runs from its `fn` line to the brace
that closes its body, braces counted naively (those inside strings and chars are skipped)."""
import re
import sys


def strip(line):
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])'", "''", line)
    return line.split("//")[0]


def functions(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"\s*(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?fn\s+(\w+)", line)
        if not m:
            continue
        depth, opened = 0, False
        for j in range(i, len(lines)):
            code = strip(lines[j])
            if not opened and ";" in code and "{" not in code:
                break  # a declaration without a body
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth == 0:
                yield m.group(5), i + 1, j - i + 1
                break


def main():
    args = sys.argv[1:]
    limit = 80
    if args[:1] == ["--max"]:
        limit, args = int(args[1]), args[2:]
    long = [(n, path, name, at) for path in args for name, at, n in functions(path) if n > limit]
    for n, path, name, at in sorted(long, reverse=True):
        print(f"{n:5} {path}:{at} {name}")
    return 1 if long else 0


sys.exit(main())
