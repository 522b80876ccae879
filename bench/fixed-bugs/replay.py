#!/usr/bin/env python3
"""Replays the fixed-bug benchmark (fixes.json): for each merged fix whose repository has a git
mirror, writes the parent and the fixed version of the files to a temporary directory, runs
torch-tidy on both, and says whether the rule reported the line the fix was about on the parent
and stayed quiet there on the fix.

    replay.py TORCH_TIDY [--fixes fixes.json] [--mirrors /work/.mirror] [--keep DIR] [--only ID,...]

A mirror is <mirrors>/<owner>+<name>/repo (the layout `fetch` leaves). Entries without one are
listed as skipped. An entry may name headers of older PyTorch releases to stand in for
("missing_headers", empty, searched last), dependencies its build fetches whose included headers
get such stand-ins ("absent_dependencies": ["nanovdb", ...]; the parse then has errors in the
headers that use them) and git submodules to link to a system copy ("submodules": {path in the
checkout: system folder}). Prints one markdown row per entry and a total; exits 0 (a benchmark, not a
gate), 2 on bad input. Python 3 standard library only.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "corpus-extension"))
sys.path.insert(0, os.path.join(ROOT, "test", "corpus"))
import compdb  # noqa: E402
import score  # noqa: E402


def checkout(mirror, commit, paths, dest):
    """Writes `paths` (files or folders) of `commit` under dest; False if git cannot."""
    os.makedirs(dest, exist_ok=True)
    archive = subprocess.run(["git", "-C", mirror, "archive", commit, "--"] + paths,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if archive.returncode != 0:
        return False
    return subprocess.run(["tar", "-x", "-C", dest], input=archive.stdout).returncode == 0


def link_submodules(entry, src):
    """Git submodules are not in `git archive`: links each to the system copy fixes.json names."""
    for path, target in entry.get("submodules", {}).items():
        link = os.path.join(src, path)
        if os.path.isdir(target) and not os.path.exists(link):
            os.makedirs(os.path.dirname(link), exist_ok=True)
            os.symlink(target, link)


def absent_headers(entry, src):
    """The headers of the entry's build-time dependencies (fetched by its build, not in the tree)
    that the checked-out sources include; they get empty stand-ins, so the parse goes on."""
    deps = entry.get("absent_dependencies", [])
    if not deps:
        return []
    include = re.compile(r'#\s*include\s*[<"]((?:%s)/[^>"]+)[>"]' % "|".join(map(re.escape, deps)))
    found = set()
    for folder, _, files in os.walk(src):
        for name in files:
            if name.endswith((".h", ".hpp", ".cuh", ".cu", ".cpp", ".cc")):
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                    found.update(include.findall(f.read()))
    return sorted(found)


def analyse(tidy, entry, src, work, shims):
    """Runs torch-tidy on the entry's files under src; returns (findings, status)."""
    files = [os.path.join(src, f) for f in entry["analyse"]]
    includes = [os.path.join(src, d) for d in entry.get("includes", [])]
    db = os.path.join(work, "db")
    os.makedirs(db, exist_ok=True)
    with open(os.path.join(db, "compile_commands.json"), "w") as f:
        # Stand-ins make errors in the headers that use them: no limit, so the parse reaches the file.
        extra = ["-ferror-limit=0"] if entry.get("absent_dependencies") else []
        json.dump(compdb.entries(files, shims, includes, entry.get("defines", []), extra), f, indent=1)
    sarif = os.path.join(work, "out.sarif")
    run = subprocess.run([tidy, "-p", db, "--format=sarif", "--output=" + sarif,
                          "--cache-dir=" + os.path.join(work, "cache")] + files,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not os.path.exists(sarif):
        last = run.stdout.strip().splitlines()[-1:] or ["no output"]
        return None, f"torch-tidy exit {run.returncode}: {last[0][:120]}"
    findings = score.load_findings(sarif)
    errors = sum(rule == "clang-diagnostic-error" for _, _, rule in findings)
    return findings, f"exit {run.returncode}, {errors} parse errors"


def hits(findings, entry, lines):
    name = os.path.basename(entry["report"]["file"])
    found = {(f, l) for f, l, rule in findings if rule == entry["rule"]}
    return [l for l in lines if (name, l) in found]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("torch_tidy")
    ap.add_argument("--fixes", default=os.path.join(HERE, "fixes.json"))
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--keep", help="write the checkouts and reports here instead of a temporary directory")
    ap.add_argument("--only", help="comma-separated ids of the entries to replay (default: all)")
    args = ap.parse_args()
    if not os.access(args.torch_tidy, os.X_OK):
        print(f"replay: {args.torch_tidy} is not an executable", file=sys.stderr)
        return 2
    try:
        with open(args.fixes, encoding="utf-8") as f:
            fixes = json.load(f)
    except (OSError, ValueError) as e:
        print(f"replay: cannot read {args.fixes}: {e}", file=sys.stderr)
        return 2

    base = args.keep or tempfile.mkdtemp(prefix="torch-tidy-fixed-bugs-")
    shims = compdb.make_shims(os.path.join(base, "shims"))
    print("| fix | rule | scope | parent: reported at the fixed line(s) | fix: quiet there | torch-tidy |")
    print("|---|---|---|---|---|---|")
    counted = reported = quiet = 0
    try:
        for entry in fixes:
            if args.only and entry["id"] not in args.only.split(","):
                continue
            mirror = os.path.join(args.mirrors, entry["repo"].replace("/", "+"), "repo")
            row = f"| {entry['id']} | {entry['rule']} | {entry['scope']} |"
            if not os.path.isdir(mirror):
                print(f"{row} skipped: no mirror of {entry['repo']} | | |")
                continue
            results = {}
            for side, commit in (("parent", entry["parent_commit"]), ("fixed", entry["fix_commit"])):
                work = os.path.join(base, entry["id"], side)
                src = os.path.join(work, "src")
                if not checkout(mirror, commit, entry["tree"], src):
                    results[side] = (None, f"git archive of {commit[:10]} failed")
                    continue
                link_submodules(entry, src)
                compdb.make_shims(shims, entry.get("missing_headers", []) + absent_headers(entry, src))
                results[side] = analyse(args.torch_tidy, entry, src, work, shims)
            (pf, pstat), (ff, fstat) = results["parent"], results["fixed"]
            expected = entry["report"]["parent_lines"]
            if pf is None or ff is None:
                print(f"{row} error | error | parent: {pstat}; fix: {fstat} |")
                continue
            got = hits(pf, entry, expected)
            stays = hits(ff, entry, entry["report"]["fixed_lines"])
            counted += 1
            reported += len(got) == len(expected)
            quiet += not stays
            verdict = "yes" if len(got) == len(expected) else ("partly" if got else "no")
            print(f"{row} {verdict} ({len(got)}/{len(expected)}) | {'no' if stays else 'yes'} | "
                  f"parent {pstat}, fix {fstat} |")
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    print(f"\n{counted} of {len(fixes)} fixes replayed: reported on the parent {reported}, "
          f"quiet on the fix {quiet}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
