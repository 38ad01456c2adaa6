#!/usr/bin/env python3
"""Compile-fail harness.

    expect_error.py COMPILER... --expect TEXT FILE [COMPILER ARGS...]
    expect_error.py COMPILER... --expect-success FILE [COMPILER ARGS...]

Runs `COMPILER... -std=c++20 -fsyntax-only COMPILER_ARGS... FILE`. With
--expect, passes only if compilation fails AND the diagnostics contain TEXT
(the static_assert message), so a case that fails for another reason (a
typo, a missing include) does not pass. With --expect-success, passes only
if it compiles: the positive control that catches a broken harness.
"""
import subprocess
import sys


def main(argv):
    if "--expect" in argv:
        split = argv.index("--expect")
        compiler = argv[:split]
        expected, source, extra = argv[split + 1], argv[split + 2], argv[split + 3:]
    elif "--expect-success" in argv:
        split = argv.index("--expect-success")
        compiler = argv[:split]
        expected, source, extra = None, argv[split + 1], argv[split + 2:]
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if not compiler:
        print("no compiler command given", file=sys.stderr)
        return 2
    cmd = compiler + ["-std=c++20", "-fsyntax-only"] + extra + [source]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    output = proc.stdout + proc.stderr
    if expected is None:
        if proc.returncode == 0:
            print(f"PASS: {source} compiles")
            return 0
        print(f"FAIL: {source} must compile, but the compiler said:\n{output}")
        return 1
    if proc.returncode == 0:
        print(f"FAIL: {source} compiled; it must fail with: {expected}")
        return 1
    if expected not in output:
        print(f"FAIL: {source} failed to compile, but not with: {expected}\n{output}")
        return 1
    print(f"PASS: {source} fails with: {expected}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
