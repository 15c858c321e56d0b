#!/usr/bin/env python3
"""Replays the `ufjit demo` transcript in NumPy. Every '>>> CODE' line is
run in one namespace; an expression's repr must equal the lines ufjit
printed under it, a statement must print nothing, and where ufjit printed
'error (...)' NumPy must raise too. Also checks the tour stays fast and
that no kernel result printed '[MISMATCH]' or '[refused]'.

    demo_numpy.py UFJIT
"""
import os
import resource
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)


def blocks(text):
    """(line number, code, output lines) for every '>>>' step. The output
    runs to the next '>>>', '#' or '==' line (reprs of 3-d arrays contain
    blank lines, so a blank line does not end it)."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith(">>> "):
            i += 1
            continue
        start, code = i + 1, lines[i][4:]
        i += 1
        out = []
        while i < len(lines) and not lines[i].startswith((">>> ", "#",
                                                          "==")):
            out.append(lines[i])
            i += 1
        while out and out[-1] == "":
            out.pop()
        yield start, code, out


def main():
    ufjit = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="ufjit-demo-test-") as d:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run([ufjit, "demo"], capture_output=True, text=True,
                           env=dict(os.environ, TMPDIR=d))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # CPU time, not wall time: a machine busy with other work (ctest
        # -j, builds) must not fail the demo
        elapsed = (after.ru_utime - before.ru_utime
                   + after.ru_stime - before.ru_stime)
        left = os.listdir(d)
    failures = 0
    if p.returncode != 0 or p.stderr:
        print(f"ufjit demo: exit {p.returncode}: {p.stderr}")
        return 1
    if left:
        failures += 1
        print(f"ufjit demo left files in TMPDIR: {left}")
    # The kernel sections compile a dozen kernels and run them on up to
    # 10 million elements: about a second of CPU. Allow for sanitizers,
    # but not for a tour one waits on.
    if elapsed > 10.0:
        failures += 1
        print(f"ufjit demo took {elapsed:.2f} s of CPU")
    for line in p.stdout.splitlines():
        if line.startswith(("# [MISMATCH]", "# [refused]")):
            failures += 1
            print(f"ufjit demo: {line}")
    ns = {"np": np}
    steps = 0
    for line, code, out in blocks(p.stdout):
        steps += 1
        where = f"demo output line {line}: >>> {code.strip()}"
        try:
            compiled = compile(code, "<demo>", "eval")
        except SyntaxError:
            compiled = None
        try:
            if compiled is None:
                exec(compile(code, "<demo>", "exec"), ns)
                result = None
            else:
                result = eval(compiled, ns)
        except Exception as e:
            if not (out and out[0].startswith("error (")):
                failures += 1
                print(f"{where}: NumPy raised {type(e).__name__}: {e}; "
                      f"ufjit printed {out}")
            continue
        if out and out[0].startswith("error ("):
            failures += 1
            print(f"{where}: ufjit failed ({out[0]}) but NumPy gave "
                  f"{result!r}")
            continue
        want = [] if result is None else repr(result).splitlines()
        if out != want:
            failures += 1
            print(f"{where}:\n--- NumPy\n" + "\n".join(want) +
                  "\n--- ufjit\n" + "\n".join(out))
    if steps < 30:
        failures += 1
        print(f"only {steps} '>>>' steps found in the demo output")
    print(f"demo_numpy: {steps} steps replayed in NumPy, {failures} "
          f"failures, demo took {elapsed * 1000:.0f} ms of CPU")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
