#!/usr/bin/env python3
"""After 'torch-tidy --fix-errors' in a copy of a project: do the changed files still compile?

    fixcheck.py ORIG_FILES_JSON FIXED_FILES_JSON FIX_FINDINGS_JSON TIDY_EXIT RESULT_JSON
                [FIRST_FINDINGS_JSON]
    fixcheck.py --select ORIG_FILES_JSON FIRST_FINDINGS_JSON FIXED_DB_DIR

ORIG_FILES_JSON and FIXED_FILES_JSON are the files.json that compdb.py wrote for the
original tree and for the fixed copy (root, flags). Every file of the copy that a fix of
torch-tidy changed is compiled with 'clang++-19 -fsyntax-only' and the flags of compdb.py,
before (in the original tree) and after (in the copy); a header is compiled on its own
(-x c++). A file that did not compile before the fix does not count against it. Files
that only the compiler's own fix-its changed (--fix-errors applies those of clang's
errors too, e.g. a typo correction) are listed, not compiled.
TIDY_EXIT is the exit status of the 'torch-tidy --fix-errors' run: one that died (>= 128, or no
FIX_FINDINGS_JSON) is recorded as a crash.
FIRST_FINDINGS_JSON, the findings of the run on the original tree, gives "fixable_first_run":
the fix run must see the same fixes.
Writes RESULT_JSON: {"tidy_exit", "crashed", "fixable" (findings with a fix),
                     "fixable_first_run",
                     "fixes_applied" (replacements in files that changed),
                     "changed": {file: {"before", "after", "error"}},
                     "changed_by_compiler_fixits": [file]}.

--select keeps in FIXED_DB_DIR/compile_commands.json only the files that the fix run needs:
those with a finding that has a fix, and those that include (directly or not) a project
header that has one; the others would only be parsed again for nothing. Prints how many.
"""
import collections
import filecmp
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from classify import IncludeGraph  # noqa: E402
from compdb import HEADER_EXT, SOURCE_EXT, walk  # noqa: E402

CLANGXX = os.environ.get("CLANGXX", "clang++-19")
TIMEOUT = 600


def changed_files(orig_root, fixed_root):
    changed = []
    for dirpath, _, filenames in walk(fixed_root):
        for f in filenames:
            if not f.endswith(SOURCE_EXT + HEADER_EXT):
                continue
            fixed = os.path.join(dirpath, f)
            rel = os.path.relpath(fixed, fixed_root)
            orig = os.path.join(orig_root, rel)
            if not os.path.isfile(orig) or not filecmp.cmp(orig, fixed, shallow=False):
                changed.append(rel)
    return sorted(changed)


def compiles(meta, rel):
    """(ok, first error line) of 'clang++-19 -fsyntax-only' on rel in meta's tree."""
    path = os.path.join(meta["root"], rel)
    if not os.path.isfile(path):
        return False, "file absent"
    lang = ["-x", "c++"] if rel.endswith(HEADER_EXT) else []
    cmd = ["nice", "-n", "19", CLANGXX] + meta["flags"] + ["-fsyntax-only"] + lang + [path]
    try:
        run = subprocess.run(cmd, cwd=os.path.dirname(path), capture_output=True, text=True,
                             timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {TIMEOUT} s"
    errors = [l for l in run.stderr.splitlines() if " error: " in l or l.startswith("error:")]
    return run.returncode == 0, (errors[0] if errors else run.stderr.strip()[-300:])


def tidy_fixes(findings_path, fixed_root):
    """(findings with a fix, {file: torch-tidy's replacements in it}); the compiler's own
    fix-its (clang-diagnostic-*, which --fix-errors applies too) are not torch-tidy's."""
    try:
        with open(findings_path) as f:
            findings = json.load(f)
    except (OSError, ValueError):
        return 0, {}
    fixable, per_file = 0, collections.Counter()
    for finding in findings:
        if finding.get("check", "").startswith(("clang-diagnostic-", "torch-tidy-crash")):
            continue
        fixes = finding.get("fixes", [])
        fixable += bool(fixes)
        for fix in fixes:
            per_file[os.path.relpath(fix.get("file", ""), fixed_root)] += 1
    return fixable, per_file


def select(orig_files_json, findings_path, fixed_db_dir):
    """Keeps in the fix run's compile database the files whose analysis yields a fix."""
    with open(orig_files_json) as f:
        meta = json.load(f)
    root = meta["root"]
    _, per_file = tidy_fixes(findings_path, root)
    fixed = {os.path.normpath(os.path.join(root, rel)) for rel in per_file}
    graph = IncludeGraph(meta)
    wanted = {rel for rel in meta["files"]
              if graph.closure(os.path.join(root, rel)) & fixed}
    db_path = os.path.join(fixed_db_dir, "compile_commands.json")
    with open(db_path) as f:
        entries = json.load(f)
    with open(os.path.join(fixed_db_dir, "files.json")) as f:
        fixed_root = json.load(f)["root"]
    kept = [e for e in entries if os.path.relpath(e["file"], fixed_root) in wanted]
    with open(db_path, "w") as f:
        json.dump(kept, f, indent=1)
    print(f"{len(kept)} of {len(entries)} files have fixes to apply")
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "--select":
        return select(*argv[2:])
    if len(argv) not in (6, 7):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        orig = json.load(f)
    with open(argv[2]) as f:
        fixed = json.load(f)
    tidy_exit = int(argv[4])
    fixable, per_file = tidy_fixes(argv[3], fixed["root"])
    changed = changed_files(orig["root"], fixed["root"])
    mine = [rel for rel in changed if rel in per_file]
    result = {"tidy_exit": tidy_exit,
              "crashed": tidy_exit >= 128 or (tidy_exit not in (126, 127)
                                               and not os.path.isfile(argv[3])),
              "fixable": fixable,
              "fixable_first_run": tidy_fixes(argv[6], orig["root"])[0] if len(argv) == 7
              else None,
              "fixes_applied": sum(per_file[rel] for rel in mine),
              "changed": {},
              "changed_by_compiler_fixits": [rel for rel in changed if rel not in per_file]}
    for rel in result["changed_by_compiler_fixits"]:
        print(f"  fix-check {rel}: changed by the compiler's own fix-its only, not checked")
    for rel in mine:
        before, _ = compiles(orig, rel)
        after, error = compiles(fixed, rel) if before else (False, "")
        result["changed"][rel] = {"before": before, "after": after,
                                  "error": "" if after or not before else error}
        state = "still compiles" if after else ("does not compile" if before
                                                else "did not compile before the fix")
        print(f"  fix-check {rel}: {state}")
    with open(argv[5], "w") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
