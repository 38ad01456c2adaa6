#!/usr/bin/env python3
"""Every public header compiles on its own.

For each header under include/lakegc/ (found at test time, so a new header is
covered without a list to maintain), compile a translation unit that includes
only that header, with the project's warnings as errors, syntax only. A header
that relies on what an earlier include brought in (<algorithm>, <charconv>)
fails here, naming itself. Two compilers run at a time (the machines have two
cores); the unity build of the test suites would hide such a header, which is
why this is a test of its own.

Then the policy library's umbrella (lakegc/lakegc.hpp, Meson's lakegc-core)
must not reach the Hudi adapter or its dependencies: the headers it pulls in
(the compiler's -M list) name no lakegc/hudi/ header, no simdjson and no
zlib. Its canary: the same check on lakegc/hudi.hpp must find them.

    headers_test.py --include DIR -- CXX [FLAGS...]
"""
import argparse
import concurrent.futures
import pathlib
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include", required=True, help="the include/ folder")
    ap.add_argument("cxx", nargs=argparse.REMAINDER, help="-- compiler and flags")
    o = ap.parse_args()
    cxx = [a for a in o.cxx if a != "--"]
    if not cxx:
        sys.exit("headers_test: no compiler given (after --)")
    root = pathlib.Path(o.include)
    headers = sorted(str(p.relative_to(root)) for p in (root / "lakegc").rglob("*.hpp"))
    if not headers:
        sys.exit("headers_test: no headers under %s" % (root / "lakegc"))

    # g++ spends about a seventh of each compile collecting garbage it would
    # free at exit anyway (measured: 13% of the wall time on 6 headers); a 1 GB
    # heap before the first collection keeps two compilers under 2 GB.
    # Other compilers may refuse the parameters: then they are left out.
    gcc_heap = ["--param=ggc-min-heapsize=1048576", "--param=ggc-min-expand=400"]
    if subprocess.run(cxx + gcc_heap + ["-x", "c++", "-fsyntax-only", "-"], input="",
                      capture_output=True, text=True).returncode != 0:
        gcc_heap = []

    def compile_source(src):
        p = subprocess.run(cxx + gcc_heap + ["-I", str(root), "-x", "c++", "-fsyntax-only", "-"],
                           input=src, capture_output=True, text=True)
        return p.returncode, p.stderr

    def check(header):
        return (header,) + compile_source('#include "%s"\n' % header)

    # The canary: a header missing an include must fail with these flags,
    # or a pass below proves nothing.
    rc, _ = compile_source("#include <string_view>\n"
                           "inline bool parse(std::string_view s, int& v) {\n"
                           "  return std::from_chars(s.data(), s.data() + s.size(), v).ec == std::errc{};\n}\n")
    if rc == 0:
        sys.exit("headers_test: a source missing <charconv> compiled: the check cannot fail")

    def adapter_headers(umbrella):
        p = subprocess.run(cxx + ["-I", str(root), "-x", "c++", "-M", "-"],
                           input='#include "%s"\n' % umbrella, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("headers_test: -M of %s failed: %s" % (umbrella, p.stderr.strip()[:300]))
        deps = p.stdout.replace("\\\n", " ").split()
        return sorted({d for d in deps if "/lakegc/hudi/" in d or "simdjson" in d or d.endswith("/zlib.h")})

    failed = []
    if not adapter_headers("lakegc/hudi.hpp"):
        sys.exit("headers_test: lakegc/hudi.hpp reaches no adapter header: the core check cannot fail")
    reached = adapter_headers("lakegc/lakegc.hpp")
    if reached:
        failed.append("lakegc/lakegc.hpp")
        print("FAIL lakegc/lakegc.hpp (lakegc-core) reaches the adapter: %s" % ", ".join(reached[:5]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for header, rc, err in pool.map(check, headers):
            if rc != 0:
                failed.append(header)
                first = next((l for l in err.splitlines() if "error" in l), err.strip()[:300])
                print("FAIL %s: %s" % (header, first))
    print("%d header(s) compiled on their own, %d failed; the core umbrella %s" %
          (len(headers) - len(failed), len(failed),
           "reaches the adapter" if reached else "reaches no adapter header"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
