#!/usr/bin/env python3
"""Every Abseil hash container keyed by a std::string_view names NameHash.

Debian's Abseil has its own absl::string_view, so absl::Hash of a
std::string_view (alone, or inside a pair or tuple key) silently falls back
to std::hash and mixes its result again (include/lakegc/core/name_hash.hpp).
The container still works, so no behaviour test notices; this one does. It
reads each `flat_hash_set<...>` / `flat_hash_map<...>` / `node_hash_*<...>`
in the sources and fails when the key (the first template argument) spells
`std::string_view` and the arguments do not name `NameHash`. A key hidden
behind an alias is not seen: name NameHash there too.

Before scanning, it checks itself on a bad and a good line (a canary), so a
detector that finds nothing fails too.

    name_hash_test.py ROOT [DIR...]
"""
import pathlib
import re
import sys

CONTAINER = re.compile(r"\b(?:flat|node)_hash_(?:set|map)<")


def template_args(text, start):
    """The top-level template arguments of the list opening at text[start] ('<')."""
    depth, args, cur = 0, [], []
    for ch in text[start:]:
        if ch == "<":
            depth += 1
            if depth == 1:
                continue
        elif ch == ">":
            depth -= 1
            if depth == 0:
                args.append("".join(cur).strip())
                return args
        elif ch == "," and depth == 1:
            args.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    return None  # unbalanced: not a template argument list (a comparison, say)


def violations(text):
    # Comments may name a container to explain it (name_hash.hpp does): blanked,
    # line numbers kept.
    text = re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), text)
    out = []
    for m in CONTAINER.finditer(text):
        args = template_args(text, m.end() - 1)
        if not args:
            continue
        key = args[0]
        if re.search(r"(?<!absl::)\bstd::string_view\b", key) and not any("NameHash" in a for a in args[1:]):
            line = text.count("\n", 0, m.start()) + 1
            out.append((line, text[m.start():m.end()] + ", ".join(args) + ">"))
    return out


def self_test():
    bad = "absl::flat_hash_set<std::pair<std::uint32_t, std::string_view>> s;\n"
    good = "absl::flat_hash_map<std::string_view, std::vector<int>, NameHash> m;\n"
    other = "absl::flat_hash_map<std::string, std::uint32_t> m;  // not flat_hash_set<std::string_view>\n"
    return len(violations(bad)) == 1 and not violations(good) and not violations(other)


def main():
    if not self_test():
        sys.exit("name_hash_test: the detector failed its canary (a bad key not flagged, or a good one flagged)")
    root = pathlib.Path(sys.argv[1])
    dirs = sys.argv[2:] or ["include"]
    files = sorted(p for d in dirs for ext in ("*.hpp", "*.cpp") for p in (root / d).rglob(ext))
    if not files:
        sys.exit("name_hash_test: no sources under %s" % ", ".join(dirs))
    bad = 0
    for p in files:
        for line, what in violations(p.read_text()):
            print("%s:%d: %s: a std::string_view key without NameHash" % (p.relative_to(root), line, what))
            bad += 1
    print("%d file(s), %d string_view-keyed container(s) without NameHash" % (len(files), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
