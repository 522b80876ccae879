#!/usr/bin/env python3
"""Regenerate labels.json from the `// BUG(<check>): why` markers in the corpus files.

The markers are the source of truth: each one sits on the exact line where torch-tidy should
report the finding. `BUG(later)` markers (patterns no rule covers yet) are skipped.

    python3 test/corpus/extract_labels.py                      # writes test/corpus/labels.json
    python3 test/corpus/extract_labels.py examples/src -o -    # labels for examples/, to stdout
"""
import argparse
import json
import os
import re
import sys

# Rule names: device-*, training-* (the training-loop rules of issue 13) and extension-* (the
# C++/CUDA extension rules of issue 26).
MARKER = re.compile(r"//.*\bBUG\(((?:device|training|extension)-[a-z0-9-]+)\)")


def extract(paths):
    labels = {}
    for path in paths:
        entries = []
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                for m in MARKER.finditer(line):
                    entries.append({"line": lineno, "check": m.group(1)})
        labels[os.path.basename(path)] = entries
    return labels


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="*", default=[here], help="directories holding .cpp/.h/.cu files")
    ap.add_argument("-o", "--output", default=None, help="output file ('-' for stdout); default: <dir>/labels.json")
    args = ap.parse_args()
    files = []
    for d in args.dirs:
        for name in sorted(os.listdir(d)):
            if name.endswith((".cpp", ".cc", ".h", ".hpp", ".cu", ".cuh")):
                files.append(os.path.join(d, name))
    labels = extract(files)
    text = json.dumps(labels, indent=1, sort_keys=True) + "\n"
    out = args.output or os.path.join(args.dirs[0], "labels.json")
    if out == "-":
        sys.stdout.write(text)
    else:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
        n = sum(len(v) for v in labels.values())
        print(f"wrote {out}: {len(labels)} files, {n} labels", file=sys.stderr)


if __name__ == "__main__":
    main()
