#!/usr/bin/env python3
"""Score torch-tidy SARIF output against the labelled corpus.

    score.py --sarif out.sarif [--labels labels.json]
             [--rules device-a,device-b --min-precision 0.9 --min-recall 0.8]
             [--thresholds thresholds.json]

Findings are matched to labels by (file basename, line, check). A finding whose file is not in
the labels is ignored (counted and reported once). Duplicate findings on the same
(file, line, check) count once. Prints a markdown table per rule plus totals, then every
unmatched finding (FP) and every missed label (FN) as file:line:check.

Exit status: 0; 1 when --min-precision/--min-recall is given and a rule named in --rules that has
at least one label (for recall) or one finding (for precision) falls short; 2 on bad input.
Python 3 standard library only.
"""
import argparse
import json
import os
import sys
from urllib.parse import unquote, urlparse


def load_labels(path):
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    labels = set()
    for fname, entries in raw.items():
        for e in entries:
            labels.add((os.path.basename(fname), int(e["line"]), e["check"]))
    return set(os.path.basename(k) for k in raw), labels


def uri_to_basename(uri):
    if uri.startswith("file:"):
        uri = urlparse(uri).path
    return os.path.basename(unquote(uri))


def load_findings(path):
    with open(path, encoding="utf-8") as f:
        sarif = json.load(f)
    findings = []
    for run in sarif.get("runs", []):
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        for res in run.get("results", []):
            rule = res.get("ruleId")
            if rule is None and "ruleIndex" in res and res["ruleIndex"] < len(rules):
                rule = rules[res["ruleIndex"]].get("id")
            if rule is None:
                rule = res.get("rule", {}).get("id")
            locs = res.get("locations") or []
            if not rule or not locs:
                continue
            phys = locs[0].get("physicalLocation", {})
            uri = phys.get("artifactLocation", {}).get("uri", "")
            line = phys.get("region", {}).get("startLine")
            if line is None:
                continue
            findings.append((uri_to_basename(uri), int(line), rule))
    return findings


def ratio(num, den):
    return None if den == 0 else num / den


def fmt(x):
    return "n/a" if x is None else f"{x:.2f}"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sarif", required=True, help="torch-tidy SARIF 2.1.0 output")
    ap.add_argument("--labels", default=os.path.join(here, "labels.json"))
    ap.add_argument("--rules", default="", help="comma-separated rules the thresholds apply to")
    ap.add_argument("--min-precision", type=float, default=None)
    ap.add_argument("--min-recall", type=float, default=None)
    ap.add_argument("--thresholds", default=None,
                    help='JSON {"<rule>": {"precision": p, "recall": r}}: per-rule floors')
    args = ap.parse_args()

    try:
        files, labels = load_labels(args.labels)
        all_findings = load_findings(args.sarif)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"score.py: {e}", file=sys.stderr)
        return 2

    outside = [f for f in all_findings if f[0] not in files]
    findings = set(f for f in all_findings if f[0] in files)
    tp = findings & labels
    fp = findings - labels
    fn = labels - findings

    rules = sorted(set(r for _, _, r in findings | labels))
    print("| rule | TP | FP | FN | precision | recall |")
    print("|---|---:|---:|---:|---:|---:|")
    stats = {}
    for rule in rules:
        t = sum(1 for x in tp if x[2] == rule)
        p = sum(1 for x in fp if x[2] == rule)
        n = sum(1 for x in fn if x[2] == rule)
        prec, rec = ratio(t, t + p), ratio(t, t + n)
        stats[rule] = (t, p, n, prec, rec)
        print(f"| {rule} | {t} | {p} | {n} | {fmt(prec)} | {fmt(rec)} |")
    T, P, N = len(tp), len(fp), len(fn)
    print(f"| **total** | {T} | {P} | {N} | {fmt(ratio(T, T + P))} | {fmt(ratio(T, T + N))} |")
    print()
    print(f"{len(files)} labelled files, {len(labels)} labels, {len(findings)} distinct findings in them"
          + (f", {len(outside)} findings in other files ignored" if outside else ""))

    if fp:
        print("\nunmatched findings (FP):")
        for f, l, r in sorted(fp):
            print(f"  {f}:{l}:{r}")
    if fn:
        print("\nmissed labels (FN):")
        for f, l, r in sorted(fn):
            print(f"  {f}:{l}:{r}")

    failed = []
    gate = [r.strip() for r in args.rules.split(",") if r.strip()]
    for rule in gate:
        t, p, n, prec, rec = stats.get(rule, (0, 0, 0, None, None))
        if args.min_precision is not None and prec is not None and prec < args.min_precision:
            failed.append(f"{rule}: precision {prec:.2f} < {args.min_precision}")
        if args.min_recall is not None and (t + n) > 0 and rec < args.min_recall:
            failed.append(f"{rule}: recall {rec:.2f} < {args.min_recall}")
    if args.thresholds:
        try:
            with open(args.thresholds, encoding="utf-8") as f:
                floors = json.load(f)
        except (OSError, ValueError) as e:
            print(f"score.py: {e}", file=sys.stderr)
            return 2
        for rule, floor in sorted(floors.items()):
            t, p, n, prec, rec = stats.get(rule, (0, 0, 0, None, None))
            # No finding at all: precision is undefined, not a failure.
            if prec is not None and prec < floor.get("precision", 0):
                failed.append(f"{rule}: precision {prec:.2f} < {floor['precision']}")
            if (t + n) > 0 and rec < floor.get("recall", 0):
                failed.append(f"{rule}: recall {rec:.2f} < {floor['recall']}")
    if failed:
        print("\nthresholds not met:")
        for line in failed:
            print(f"  {line}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
