#!/usr/bin/env python3
"""The markdown report of a real-world run (scripts/realworld.sh).

    report.py OUT_DIR

Reads what realworld.sh left in OUT_DIR:
  runs.tsv                  one line a project: key, name, commit, status, exit, wall_s, note
  run-info.txt              when, which torch-tidy, where from (optional)
  db/KEY/files.json         from compdb.py: tree root, include dirs, analysed files + lines
  KEY.json                  torch-tidy --format=json findings
  errors/KEY.json           from classify.py: the files that did not compile, and why, and
                            the causes whose Debian package was installed all the same
  fix/KEY.result.json       from fixcheck.py, with --fix-check
Prints the report. Exit status 3 when a crash was seen (a torch-tidy-crash finding, or a
run that died), else 0.
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from classify import package_of  # noqa: E402

CRASH_CHECK = "torch-tidy-crash"
MAX_OTHERS = 5      # "other" compiler errors listed per project


def load_json(path, default):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def is_unexplained(cause):
    """A cause that is no missing header: the report shows the first error of its files."""
    return cause.startswith(("other", "the project's C++"))


def is_finding(f):
    """A finding of torch-tidy's rules (not a compiler diagnostic, not a crash)."""
    check = f.get("check", "")
    return check != CRASH_CHECK and not check.startswith("clang-diagnostic-")


def fmt_counts(counter):
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def fmt_wall(seconds):
    s = int(round(seconds))
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{seconds:.1f}s"


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out = argv[1]
    runs = []
    with open(os.path.join(out, "runs.tsv")) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 7:
                runs.append(dict(zip(["key", "name", "commit", "status", "exit", "wall", "note"],
                                     fields)))

    rows, crash_lines, other_lines, notes = [], [], [], []
    totals = collections.Counter()
    rule_totals, cause_totals = collections.Counter(), collections.Counter()
    fix_rows, fix_broken, fixits = [], [], []
    fix_totals = collections.Counter()
    installed_causes = set()
    crash_seen = False
    for run in runs:
        key, name = run["key"], run["name"]
        if run["status"] in ("missing", "nofiles", "norun"):
            notes.append(f"- {name}: {run['note']}")
            continue
        meta = load_json(os.path.join(out, "db", key, "files.json"), {"root": "", "files": {}})
        findings = load_json(os.path.join(out, key + ".json"), [])
        files, lines = len(meta["files"]), sum(meta["files"].values())
        crashes = [f for f in findings if f.get("check") == CRASH_CHECK]
        rules = collections.Counter(f["check"] for f in findings if is_finding(f))
        errors = load_json(os.path.join(out, "errors", key + ".json"), {})
        causes, suspect = errors.get("causes", {}), set(errors.get("suspect", []))
        installed_causes.update(errors.get("installed", []))
        others = [f"{rel}: {errors.get('first_error', {}).get(rel, '?')}"
                  for rel, cause in sorted(causes.items()) if is_unexplained(cause)]
        if others:
            other_lines.append(f"- {name}:")
            other_lines += [f"  - {o}" for o in others[:MAX_OTHERS]]
            if len(others) > MAX_OTHERS:
                other_lines.append(f"  - and {len(others) - MAX_OTHERS} more "
                                   f"(errors/{key}.json)")
        cause_counts = collections.Counter(causes.values())
        n_findings = sum(rules.values())
        # Findings in a file that did not compile come from a partial AST (after a fatal
        # error clang instantiates no templates): they are shown apart.
        in_broken = sum(1 for f in findings
                        if is_finding(f) and os.path.normpath(f.get("file", "")) in suspect)
        kloc = lines / 1000.0
        crash_cell = str(len(crashes))
        if run["status"] == "crashed":
            totals["crashed_runs"] += 1
            crash_cell = f"**whole run** (exit {run['exit'] or '?'})"
            crash_lines.append(f"- {name}: torch-tidy died (exit status {run['exit'] or '?'}, "
                               f"{run['note']}); see logs/{key}.log")
            crash_seen = True
        for c in crashes:
            crash_seen = True
            where = os.path.relpath(c.get("file", "?"), meta["root"] or "/")
            crash_lines.append(f"- {name}: {where}: {c.get('message', '')}")
        err_cell = str(len(causes)) + (f": {fmt_counts(cause_counts)}" if causes else "")
        rows.append([f"{name} `{run['commit'][:10]}`", str(files), f"{kloc:.1f}", crash_cell,
                     err_cell, fmt_counts(rules) or "—",
                     f"{n_findings} ({in_broken})" if in_broken else str(n_findings),
                     f"{n_findings / kloc:.2f}" if kloc else "—",
                     fmt_wall(float(run["wall"] or 0))])
        totals.update(files=files, lines=lines, crashes=len(crashes), errors=len(causes),
                      findings=n_findings, in_broken=in_broken)
        totals["wall"] += float(run["wall"] or 0)
        rule_totals.update(rules)
        cause_totals.update(cause_counts)
        fix = load_json(os.path.join(out, "fix", key + ".result.json"), None)
        if fix is not None:
            if fix.get("crashed"):
                crash_seen = True
                crash_lines.append(f"- {name}: torch-tidy --fix died (exit status "
                                   f"{fix.get('tidy_exit')}); see logs/{key}.fix.log")
            changed = fix["changed"]
            before = [r for r in changed.values() if r["before"]]
            after = [r for r in before if r["after"]]
            pct = f"{100.0 * len(after) / len(before):.0f} %" if before else "—"
            fix_rows.append([name, str(fix.get("fixable", "?")), str(fix["fixes_applied"]),
                             str(len(changed)),
                             str(len(changed) - len(before)), f"{len(after)}/{len(before)}", pct])
            fix_totals.update(fixable=fix.get("fixable", 0) or 0,
                              applied=fix["fixes_applied"], changed=len(changed),
                              before=len(before), after=len(after))
            first = fix.get("fixable_first_run")
            if first is not None and first != fix.get("fixable"):
                fix_broken.append(f"- {name}: the fix run saw {fix.get('fixable')} findings "
                                  f"with a fix, the first run {first}")
            fix_broken += [f"- {name}: {rel}: {r['error']}"
                           for rel, r in sorted(changed.items()) if r["before"] and not r["after"]]
            fixits += [f"- {name}: {rel}" for rel in fix.get("changed_by_compiler_fixits", [])]

    kloc = totals["lines"] / 1000.0
    crash_total = str(totals["crashes"])
    if totals["crashed_runs"]:
        crash_total += f" + {totals['crashed_runs']} whole run(s)"
    rows.append(["**total**", str(totals["files"]), f"{kloc:.1f}", crash_total,
                 str(totals["errors"]) + (f": {fmt_counts(cause_totals)}" if cause_totals else ""),
                 fmt_counts(rule_totals) or "—",
                 f"{totals['findings']} ({totals['in_broken']})" if totals["in_broken"]
                 else str(totals["findings"]),
                 f"{totals['findings'] / kloc:.2f}" if kloc else "—", fmt_wall(totals["wall"])])

    md = ["# torch-tidy on real-world LibTorch projects", ""]
    try:
        with open(os.path.join(out, "run-info.txt")) as f:
            md += [" ".join(line.strip() for line in f if line.strip()), ""]
    except OSError:
        pass
    md.append("Files: the translation units analysed (vendored directories left out). "
              "Compiler errors: analysed files whose compilation failed, by cause — a "
              "dependency named by a header that was not found, else \"other\". Findings: "
              "torch-tidy's own rules; in parentheses those in files with compiler errors, "
              "which come from a partial AST and deserve suspicion. Per KLoC: per thousand "
              "non-blank lines of the analysed files. Wall: the torch-tidy run alone.")
    md.append("")
    header = ["project", "files", "KLoC", "crashes", "files with compiler errors",
              "findings per rule", "findings", "per KLoC", "wall"]
    md += table(header, rows)
    if crash_lines:
        md += ["", "## Crashes", ""] + crash_lines
    if cause_totals:
        md += ["", "## Compiler errors by cause", ""]
        md += table(["cause", "files", "Debian package"],
                    [[c, str(n), package_cell(package_of(c), c in installed_causes)] for c, n in
                     sorted(cause_totals.items(), key=lambda kv: (-kv[1], kv[0]))])
    if other_lines:
        md += ["", "An error of each file with other errors, or with the project's newer C++ "
               "(the first the compiler gave, when the file was compiled here to tell):",
               ""] + other_lines
    if fix_rows:
        md += ["", "## Fix check", "",
               "`torch-tidy --fix-errors` in a copy of each project (plain `--fix` applies "
               "nothing once any file has compiler errors), then `clang++-19 -fsyntax-only` "
               "on every file that a torch-tidy fix changed (a header on its own). A file "
               "that did not compile before the fix does not count against it. "
               "Target: 100 %.", ""]
        t = fix_totals
        fix_rows.append(["**total**", str(t["fixable"]), str(t["applied"]), str(t["changed"]),
                         str(t["changed"] - t["before"]), f"{t['after']}/{t['before']}",
                         f"{100.0 * t['after'] / t['before']:.0f} %" if t["before"] else "—"])
        md += table(["project", "findings with a fix", "fixes applied", "files changed",
                     "did not compile before", "still compile", "%"], fix_rows)
        if fix_broken:
            md += ["", "Files that compiled before the fix and do not after (and fix runs "
                   "that saw other fixes than the first run):", ""] + fix_broken
        if fixits:
            md += ["", "Files that only the compiler's own fix-its changed (in files with "
                   "errors; not counted):", ""] + fixits
    if notes:
        md += ["", "## Notes", ""] + notes
    print("\n".join(md))
    return 3 if crash_seen else 0


def package_cell(package, installed):
    """The Debian package of a dependency; an installed one lacked the header the project
    includes (the project wants another version)."""
    if not package:
        return "—"
    return f"{package} (installed: not the version the project wants)" if installed \
        else package


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


if __name__ == "__main__":
    sys.exit(main(sys.argv))
