#!/usr/bin/env python3
"""Where g++ spends its time, function by function.

    python3 benchmark/compile_cost/function_times.py [--top N] [--by-template] -- g++ FLAGS... -c FILE

Runs the compile command given after `--` with `-Q` added: g++ then names each function on
standard error as it starts optimizing and generating code for it, so the time until the
next name is that function's. Prints the N costliest (default 25), or with --by-template
their sum per template (arguments dropped), which shows a kernel that is costly in every
instantiation. The first lines are phases, not functions: parsing (before any name) and
the interprocedural passes (after a `{heap ...}` mark). -Q also names every declaration
it analyses, which slows the compiler: the total exceeds a plain compile's, and a
function's time is for comparing with others of the same run. Times are wall-clock: run
it on a quiet machine and compare runs, not single numbers.
"""
import argparse
import collections
import os
import subprocess
import sys
import time


def timed_names(command):
    """(seconds, text) for each piece of -Q output, the seconds being those until the next."""
    try:
        process = subprocess.Popen(command, stderr=subprocess.PIPE)
    except OSError as error:
        sys.exit(f"cannot run {command[0]}: {error}")
    pieces, text, last = [], "", time.monotonic()
    while chunk := os.read(process.stderr.fileno(), 1 << 16):
        now = time.monotonic()
        pieces.append((now - last, text))
        text, last = chunk.decode(errors="replace"), now
    pieces.append((time.monotonic() - last, text))
    if process.wait() != 0:
        sys.stderr.write("".join(t for _, t in pieces[-20:])[-4000:] + "\n")
        sys.exit(f"the compiler failed (exit {process.returncode})")
    return pieces


# What may follow a function's closing parenthesis or bracket within the same name.
QUALIFIERS = ("const", "volatile", "noexcept", "&", "[", "requires", "->", "override")


def names_in(text):
    """The function names in a piece of output: g++ writes each as a space and the name, so
    a name ends at a space outside brackets after its argument list or its [with ...]."""
    names, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth = max(depth - 1, 0)
        elif c == " " and depth == 0 and i > 0 and text[i - 1] in ")]" and not text[i + 1 :].startswith(QUALIFIERS):
            names.append(text[start:i].strip())
            start = i + 1
    names.append(text[start:].strip())
    return [n for n in names if n]


def last_name(text):
    """The function a piece of output names last: the one being compiled until the next."""
    names = names_in(text)
    return names[-1] if names else "(parsing)"


def template_of(name):
    """A function's name without its template arguments, parameters, constraints and
    [with ...]."""
    depth, kept = 0, []
    for c in name.split(" requires ")[0]:
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth = max(depth - 1, 0)
        elif depth == 0:
            kept.append(c)
    words = [w for w in "".join(kept).split() if not w.startswith(QUALIFIERS)]
    return words[-1] if words else name


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--by-template", action="store_true")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the compile command after --")
    pieces = timed_names([command[0], "-Q", *command[1:]])
    print(f"total {sum(s for s, _ in pieces):.2f} s wall")
    if args.by_template:
        seconds, count = collections.Counter(), collections.Counter()
        for s, text in pieces:
            key = template_of(last_name(text))
            seconds[key] += s
            count[key] += 1
        for key, s in seconds.most_common(args.top):
            print(f"{s:7.2f} s {count[key]:5d}x  {key[:160]}")
    else:
        for s, text in sorted(pieces, key=lambda p: -p[0])[: args.top]:
            print(f"{s:7.3f} s  {last_name(text)[:200]}")


if __name__ == "__main__":
    main()
