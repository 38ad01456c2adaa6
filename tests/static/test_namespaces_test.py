#!/usr/bin/env python3
"""Every test source's body lives in its own namespace, lakegc::tests::<stem>.

The files of a test suite compile as one unity translation unit (meson.build:
unity=on). Two files' helpers in the same namespace would then either collide
(a compile error) or, worse, overload each other: a helper `is_commit(const
std::string&)` in one file and `is_commit(std::string_view)` in another, and a
call in the second picks the first's. A namespace per file rules both out;
this test checks that every file has one.

    test_namespaces_test.py TESTS_DIR
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
sources = sorted(p for d in ("unit", "property", "corpus") for p in (root / d).rglob("*.cpp"))
if not sources:
    sys.exit("test_namespaces: no test sources under %s" % root)
missing = [p for p in sources
           if not re.search(r"^namespace lakegc::tests::%s \{$" % re.escape(p.stem), p.read_text(), re.M)]
for p in missing:
    print("%s: its body is not in `namespace lakegc::tests::%s {`" % (p.relative_to(root), p.stem))
print("%d test source(s), %d without their own namespace" % (len(sources), len(missing)))
sys.exit(1 if missing else 0)
