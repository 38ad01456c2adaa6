#!/usr/bin/env python3
"""Every C++ file of the project follows .clang-format.

Runs clang-format (Debian 12's clang-format-16, which ./dev installs) in
check mode over the C++ sources of the tree (include/, sim/, tools/, tests/,
fuzz/, bench/, examples/; found at test time, so a new file is covered) and
names each file that differs. `./dev format` rewrites them. The canary: a
snippet that breaks the style must be reported, or a pass proves nothing.

    format_test.py --root SOURCE_ROOT --clang-format PROGRAM
"""
import argparse
import pathlib
import subprocess
import sys

FOLDERS = ("include", "sim", "tools", "tests", "fuzz", "bench", "examples")


def sources(root):
    out = []
    for folder in FOLDERS:
        for p in sorted((root / folder).rglob("*")):
            if p.suffix in (".hpp", ".cpp") and "interop" not in p.parts:
                out.append(p)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--clang-format", required=True)
    o = ap.parse_args()
    root = pathlib.Path(o.root)
    style = "--style=file:%s" % (root / ".clang-format")

    try:
        subprocess.run([o.clang_format, "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("format_test: cannot run %s (%s): install clang-format-16 (./dev does)" % (o.clang_format, e))
    canary = subprocess.run([o.clang_format, style, "--dry-run", "-Werror", "--assume-filename=canary.cpp"],
                            input="int  main( ) {return 0 ;}\n", capture_output=True, text=True)
    if canary.returncode == 0:
        sys.exit("format_test: a badly formatted snippet passed: the check cannot fail")

    files = sources(root)
    if not files:
        sys.exit("format_test: no C++ files under %s" % root)
    bad = []
    for i in range(0, len(files), 50):
        chunk = [str(f) for f in files[i:i + 50]]
        p = subprocess.run([o.clang_format, style, "--dry-run", "-Werror"] + chunk, capture_output=True, text=True)
        if p.returncode != 0:
            named = {line.split(":", 1)[0] for line in p.stderr.splitlines() if ": error:" in line}
            bad.extend(sorted(named) or chunk)
    for f in bad:
        print("FAIL %s: not formatted (./dev format)" % pathlib.Path(f).relative_to(root))
    print("%d file(s) follow .clang-format, %d do not" % (len(files) - len(bad), len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
