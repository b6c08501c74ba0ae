#!/usr/bin/env python3
"""Checks a decision tree that moo wrote, without moo: replays every secret and prints the
tree's figures (total guesses, worst case, histogram).

This script shares no code with moo. It knows only the rules of the game, as anyone would write
them: a code is `length` symbols from the alphabet (all different unless repeats are allowed,
the alphabet's first symbol not in first place under no_leading); a guess's answer is its bulls
(symbols in the right place) and cows (symbols in the secret, elsewhere, each symbol counted at
most as often as the secret has it). A tree finds a secret when, following from the root the
branch named by each answer, some guess equals the secret.

It reads both of moo's tree formats (the format is told by the file's first byte):
  - JSON, gzipped or not, as `moo tree build` writes and moo ships them:
    {"rules": {"length", "symbols", "repeats", "no_leading"},
     "root": {"guess": "1123", "children": {"0B1C": {...}, ...}}}
  - the plain-text export (`moo tree export --format text`): lines starting with `# ` are
    comments, one of them `# rules: ` followed by the rules as JSON; every other line is one
    secret's game, its guesses in order separated by one space, the secret last.

Usage: verify-tree.py [--json] [--expect-total N] [--expect-max N] FILE...
Exit status 0 when every file checks out, 1 otherwise (the reason on standard error).
"""

import argparse
import gzip
import itertools
import json
import sys


class Invalid(Exception):
    """The file is not a tree that finds every secret."""


def rules_of(spec):
    try:
        length = spec["length"]
        symbols = spec["symbols"]
        repeats = spec["repeats"]
        no_leading = spec.get("no_leading", False)
    except (KeyError, TypeError) as e:
        raise Invalid(f"the rules lack {e}") from None
    if not isinstance(length, int) or length < 1 or not isinstance(symbols, str) or not symbols:
        raise Invalid(f"the rules are not a length and an alphabet: {spec!r}")
    if len(set(symbols)) != len(symbols):
        raise Invalid("the alphabet repeats a symbol")
    return length, symbols, bool(repeats), bool(no_leading)


def codes_of(rules):
    length, symbols, repeats, no_leading = rules
    if repeats:
        pool = itertools.product(symbols, repeat=length)
    else:
        pool = itertools.permutations(symbols, length)
    return ["".join(c) for c in pool if not (no_leading and c[0] == symbols[0])]


def legal(rules, code):
    length, symbols, repeats, no_leading = rules
    return (
        isinstance(code, str)
        and len(code) == length
        and all(c in symbols for c in code)
        and (repeats or len(set(code)) == length)
        and not (no_leading and code[0] == symbols[0])
    )


def answer(guess, secret):
    bulls = sum(g == s for g, s in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return f"{bulls}B{common - bulls}C"


def replay_json(rules, root):
    """Depth at which each secret is found, walking the tree with every secret at once."""
    depths = {}
    # (node, secrets reaching it, depth, path for messages)
    stack = [(root, codes_of(rules), 1, "the root")]
    while stack:
        node, secrets, depth, path = stack.pop()
        if not isinstance(node, dict) or not isinstance(node.get("guess"), str):
            raise Invalid(f"at {path}: a node needs a \"guess\"")
        guess = node["guess"]
        if not legal(rules, guess):
            raise Invalid(f"at {path}: {guess!r} is not a code of these rules")
        children = node.get("children", {})
        if not isinstance(children, dict):
            raise Invalid(f"at {path}: \"children\" must be an object")
        parts = {}
        for secret in secrets:
            if secret == guess:
                depths[secret] = depth
            else:
                parts.setdefault(answer(guess, secret), []).append(secret)
        for key, part in parts.items():
            if key not in children:
                raise Invalid(
                    f"at {path}: after {guess} answered {key}, {len(part)} secrets "
                    f"(such as {part[0]}) have no branch"
                )
            stack.append((children[key], part, depth + 1, f"{path}, {guess} {key}"))
    return depths


def replay_text(rules, lines):
    """Depth of each secret from its line, checking that the lines play one strategy: the same
    answers so far always lead to the same next guess."""
    length = rules[0]
    depths, next_guess = {}, {}
    for number, line in lines:
        if (len(line) + 1) % (length + 1):
            raise Invalid(f"line {number}: not codes of {length} symbols separated by spaces")
        guesses = [line[i : i + length] for i in range(0, len(line), length + 1)]
        if any(line[i] != " " for i in range(length, len(line), length + 1)):
            raise Invalid(f"line {number}: codes must be separated by one space")
        secret = guesses[-1]
        if not legal(rules, secret):
            raise Invalid(f"line {number}: {secret!r} is not a code of these rules")
        if secret in depths:
            raise Invalid(f"line {number}: secret {secret} has a line already")
        history = ()
        for turn, guess in enumerate(guesses):
            if not legal(rules, guess):
                raise Invalid(f"line {number}: {guess!r} is not a code of these rules")
            if next_guess.setdefault(history, guess) != guess:
                raise Invalid(
                    f"line {number}: after the same answers another line plays "
                    f"{next_guess[history]}, this one {guess}: not one strategy"
                )
            if guess == secret and turn + 1 != len(guesses):
                raise Invalid(f"line {number}: guesses go on after the secret was found")
            history += ((guess, answer(guess, secret)),)
        depths[secret] = len(guesses)
    missing = [c for c in codes_of(rules) if c not in depths]
    if missing:
        raise Invalid(f"{len(missing)} secrets have no line, such as {missing[0]}")
    return depths


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Invalid("not UTF-8 text (nor gzipped UTF-8)") from None
    if text.lstrip()[:1] == "{":
        try:
            tree = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as e:
            raise Invalid(f"not JSON: {e}") from None
        if not isinstance(tree, dict) or "rules" not in tree or "root" not in tree:
            raise Invalid("a JSON tree has \"rules\" and \"root\"")
        rules = rules_of(tree["rules"])
        return rules, replay_json(rules, tree["root"])
    rules, lines = None, []
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if line.startswith("# rules: "):
            try:
                rules = rules_of(json.loads(line[len("# rules: ") :]))
            except json.JSONDecodeError as e:
                raise Invalid(f"line {number}: the rules are not JSON: {e}") from None
        elif line and not line.startswith("# "):
            lines.append((number, line))
    if rules is None:
        raise Invalid("neither a JSON tree nor a text tree with a '# rules: ' line")
    return rules, replay_text(rules, lines)


def figures(rules, depths):
    histogram = [0] * max(depths.values())
    for d in depths.values():
        histogram[d - 1] += 1
    total = sum(depths.values())
    return {
        "rules": {"length": rules[0], "symbols": rules[1], "repeats": rules[2],
                  "no_leading": rules[3]},
        "secrets": len(depths),
        "total": total,
        "average": total / len(depths),
        "max": len(histogram),
        "at_worst": histogram[-1],
        "histogram": histogram,
    }


def main():
    parser = argparse.ArgumentParser(
        description="Replay every secret through moo tree files, without moo.")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--json", action="store_true", help="one JSON object per file")
    parser.add_argument("--expect-total", type=int, metavar="N",
                        help="fail unless the total is N")
    parser.add_argument("--expect-max", type=int, metavar="N",
                        help="fail unless the worst case is N")
    args = parser.parse_args()
    sys.setrecursionlimit(100000)
    failed = False
    for path in args.files:
        try:
            rules, depths = read(path)
            result = figures(rules, depths)
            if args.expect_total is not None and result["total"] != args.expect_total:
                raise Invalid(f"total {result['total']}, expected {args.expect_total}")
            if args.expect_max is not None and result["max"] != args.expect_max:
                raise Invalid(f"worst case {result['max']}, expected {args.expect_max}")
        except (Invalid, OSError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            failed = True
            continue
        if args.json:
            print(json.dumps({"file": path, **result}))
        else:
            histogram = " ".join(f"{k}:{n}" for k, n in enumerate(result["histogram"], 1))
            print(f"{path}: {result['secrets']} secrets, total {result['total']} "
                  f"(average {result['average']:.4f}), worst {result['max']} "
                  f"({result['at_worst']} secrets), histogram {histogram}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
