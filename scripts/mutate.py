#!/usr/bin/env python3
"""Mutation testing on real code: injects one device bug a mutant into the public projects of
scripts/realworld.sh and says, per operator, how many mutants torch-tidy reports.

    scripts/mutate.py [--tidy BIN] [--out DIR] [--src DIR] [--projects a,b] [--seed N]
                      [--per-project N] [--per-operator N] [--unit-files N]
                      [--max-unit N] [--verdicts FILE] [--compare OLD.json] [--list] [--report]

The trees and compile databases are scripts/realworld.sh --dry-run's (in DIR/realworld).
The operators are scripts/realworld/mutants.py's. A mutant is analysed in its program (the
unit: the compile database's files under the mutated file's directory, cut before its 'src'
or 'include'), with the result cache, so that only the mutated file (and the files including
a mutated header) is parsed again: the original unit once, then each mutant, torch-tidy -j 1.
A mutant is detected when a finding that the original does not have appears at the mutated
line (its location or a note's); for drop-model-to (the line is gone), anywhere in the
mutated file. A mutant that adds a compiler error is invalid; one in a file that does not
compile is not counted either.

The same seed, caps and pinned projects give the same mutants (ids: operator:project:file:line),
so the run can be repeated after the analysis changes and compared (--compare the previous
results.json). --verdicts (default scripts/realworld/mutant-verdicts.json) holds the reviewed
misses: id -> {"verdict": "equivalent" | "true-miss", "reason": ...}; the rate is over the
mutants that are not equivalent. Writes DIR/results.json and DIR/results.md.
"""
import argparse
import collections
import json
import os
import random
import re
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "realworld"))
import compdb  # noqa: E402  (walk, is_vendored, HEADER_EXT, SOURCE_EXT)
import mutants  # noqa: E402


def die(message):
    print(f"mutate: {message}", file=sys.stderr)
    sys.exit(2)


def unit_of(rel):
    """The program a file belongs to: its directory, cut before a 'src' or 'include' part."""
    parts = os.path.dirname(rel).split(os.sep) if os.path.dirname(rel) else []
    for n, part in enumerate(parts):
        if part in ("src", "include"):
            return os.sep.join(parts[:n])
    return os.sep.join(parts)


def in_prefix(rel, prefix):
    return prefix == "" or rel.startswith(prefix + os.sep)


def load_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die(f"cannot read {what} '{path}': {e}")


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
        f.write(text)


class Project:
    def __init__(self, out, key):
        db = os.path.join(out, "realworld", "db", key)
        with open(os.path.join(db, "files.json")) as f:
            self.files = json.load(f)
        with open(os.path.join(db, "compile_commands.json")) as f:
            self.commands = json.load(f)
        self.key = key
        self.root = self.files["root"]
        self.sources = sorted(self.files["files"])
        self.mains = {s for s in self.sources
                      if re.search(r"\bint\s+main\s*\(", read(os.path.join(self.root, s)))}

    def unit(self, rel):
        """The program a file is analysed in: the sources under unit_of(rel). Where several of
        them define main() (a directory of tests, of tutorials), a file with main() is
        analysed with the sources that define none, and one without main() with those only."""
        prefix = unit_of(rel)
        mains = [s for s in self.sources if in_prefix(s, prefix) and s in self.mains]
        if len(mains) > 1:
            return prefix + ":" + rel if rel in self.mains else prefix + ":"
        return prefix

    def unit_sources(self, unit):
        prefix, _, main = unit.partition(":")
        files = [s for s in self.sources if in_prefix(s, prefix)]
        if ":" in unit:
            files = [s for s in files if s not in self.mains or s == main]
        return files

    def headers(self):
        found = []
        for dirpath, _, filenames in compdb.walk(self.root):
            for f in filenames:
                rel = os.path.relpath(os.path.join(dirpath, f), self.root)
                if f.endswith(compdb.HEADER_EXT) and not compdb.is_vendored(rel):
                    found.append(rel)
        return found

    def candidates(self):
        """The files to mutate: the analysed sources, and the headers of their units."""
        prefixes = {unit_of(s) for s in self.sources}
        return sorted(set(self.sources) | {h for h in self.headers() if unit_of(h) in prefixes})


def system_include_dirs():
    """The compiler's own search list (clang++-19 -v)."""
    proc = subprocess.run([os.environ.get("CLANGXX", "clang++-19"), "-x", "c++", "-std=c++17",
                           "-E", "-v", "-"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    lines = proc.stderr.split("\n")
    try:
        start = lines.index("#include <...> search starts here:") + 1
        return [l.strip() for l in lines[start:lines.index("End of search list.")]]
    except ValueError:
        return ["/usr/include"]


def missing_include(path, text, search):
    """The first header that the file includes by name and that is nowhere on its search path:
    the file would not compile (Qt, the Windows SDK, a dependency that is not installed), so
    it is not mutated. Cheap: the file's own #include lines only."""
    for name in re.findall(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', text, re.M):
        if not any(os.path.exists(os.path.join(d, name))
                   for d in [os.path.dirname(path)] + search):
            return name
    return None


def all_sites(project, system_dirs):
    """Every site of the project's candidate files that include only headers that are there:
    (operator, file, line, old, new)."""
    texts = {rel: read(os.path.join(project.root, rel)) for rel in project.candidates()}
    search = [f[2:] for f in project.files["flags"] if f.startswith("-I")] + system_dirs
    texts = {rel: t for rel, t in texts.items()
             if not missing_include(os.path.join(project.root, rel), t, search)}
    moved = collections.defaultdict(bool)
    for rel, text in texts.items():
        if mutants.moves_inputs(text):
            moved[project.unit(rel)] = True
    found = []
    for rel, text in texts.items():
        for op, line, old, new in mutants.sites(text, moved[project.unit(rel)]):
            found.append((op, rel, line, old, new))
    return found


def select(sites, seed, per_project, per_operator, unit_files, sizes, max_unit, unit_key):
    """A seeded sample of the sites: at most per_project an operator and project, per_operator
    an operator, in units of at most max_unit files that add up to at most unit_files (each
    unit's original is analysed once: most of the cost)."""
    order = sorted(sites)
    random.Random(seed).shuffle(order)
    # Round robin over the operators, those with the fewest sites first, so that each one
    # gets its units before the budget is spent.
    scarce, rank, ranked = collections.Counter(site[1] for site in order), collections.Counter(), []
    for site in order:
        ranked.append(((rank[site[1]], scarce[site[1]], site[1]), site))
        rank[site[1]] += 1
    order = [site for _, site in sorted(ranked, key=lambda r: r[0])]
    taken, per_pair, per_op, units = [], collections.Counter(), collections.Counter(), set()
    for site in order:
        key, op, rel = site[0], site[1], site[2]
        unit = (key, unit_key(key, rel))
        if per_pair[key, op] >= per_project or per_op[op] >= per_operator:
            continue
        if unit not in units:
            if sizes[unit] > max_unit or sum(sizes[u] for u in units) + sizes[unit] > unit_files:
                continue
            units.add(unit)
        per_pair[key, op] += 1
        per_op[op] += 1
        taken.append(site)
    return sorted(taken)


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_tidy(tidy, db_dir, cache, output):
    if os.path.exists(output):
        os.remove(output)
    proc = subprocess.run(["nice", "-n", "19", tidy, "-p", db_dir, "--format=json", "-j", "1",
                           f"--cache-dir={cache}", f"--output={output}"],
                          cwd=db_dir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode >= 128 or not os.path.exists(output):
        raise RuntimeError(f"torch-tidy died (exit {proc.returncode}): {proc.stdout[-500:]}")
    # The run summary says how many files were parsed rather than replayed from the cache.
    analysed = re.search(r"(\d+) analysed", proc.stdout)
    with open(output) as f:
        return json.load(f), int(analysed.group(1)) if analysed else None


def lines_of(finding):
    """The (file, line) of a finding and of each of its notes."""
    yield finding["file"], finding["line"]
    for note in finding.get("notes", []):
        yield note["file"], note["line"]


def key_of(finding):
    return finding["check"], finding["file"], finding["line"]


def new_findings(original, mutant):
    """The mutant's findings that the original does not have (by check, file and line)."""
    left = collections.Counter(key_of(f) for f in original)
    new = []
    for f in mutant:
        if left[key_of(f)]:
            left[key_of(f)] -= 1
        else:
            new.append(f)
    return new


def failed_files(findings, unit_sources, root):
    """The unit's sources that do not compile: an error in the file, or in a header of the
    project that it includes by name."""
    failed = set()
    for f in findings:
        if f["check"] != "clang-diagnostic-error":
            continue
        rel = os.path.relpath(f["file"], root)
        if rel in unit_sources:
            failed.add(rel)
        else:
            name = os.path.basename(rel)
            failed |= {s for s in unit_sources
                       if f'{name}"' in read(os.path.join(root, s)) or f"{name}>" in
                       read(os.path.join(root, s))}
    return failed


def analyse_unit(args, project, unit, unit_mutants, results):
    root = project.root
    unit_dir = os.path.join(args.out, "units", project.key,
                            unit.replace(os.sep, "+").replace(":", "@") or "_")
    os.makedirs(unit_dir, exist_ok=True)
    sources = project.unit_sources(unit)
    by_file = {os.path.relpath(c["file"], root): c for c in project.commands}

    def write_db(files):
        with open(os.path.join(unit_dir, "compile_commands.json"), "w") as f:
            json.dump([by_file[s] for s in files], f, indent=1)

    cache = os.path.join(args.out, "cache")
    write_db(sources)
    start = cpu_seconds()
    try:
        original, _ = run_tidy(args.tidy, unit_dir, cache, os.path.join(unit_dir, "original.json"))
        failed = failed_files(original, set(sources), root)
        if failed:
            # Files that do not compile are analysed again at every run (no cache): left out.
            sources = [s for s in sources if s not in failed]
            write_db(sources)
            if sources:
                original, _ = run_tidy(args.tidy, unit_dir, cache,
                                       os.path.join(unit_dir, "original.json"))
    except RuntimeError as e:
        die(f"the original of {project.key} {unit or '.'}: {e}")
    print(f"   {project.key} {unit or '.'}: {len(sources)} files compile"
          f"{f', {len(failed)} do not' if failed else ''}; original: {len(original)} findings,"
          f" {cpu_seconds() - start:.0f} CPU s", flush=True)
    for m in unit_mutants:
        rel = m["file"]
        if rel in failed or not sources or (rel.endswith(compdb.SOURCE_EXT) and rel not in sources):
            m["status"] = "no-compile"
            results.append(m)
            continue
        path = os.path.join(root, rel)
        text = read(path)
        start = cpu_seconds()
        try:
            write(path, mutants.apply(text, m["line"], m["mutated"]))
            found, analysed = run_tidy(args.tidy, unit_dir, cache,
                                       os.path.join(unit_dir, "mutant.json"))
        except RuntimeError as e:
            m.update(status="crashed", note=str(e))  # not counted; shown in results.json
            print(f"     crashed    {m['id']}: {e}", flush=True)
            results.append(m)
            continue
        finally:
            write(path, text)
        new = new_findings(original, found)
        target = os.path.join(root, rel)
        if analysed == 0:
            status = "no-compile"  # a header that no compiling file of the unit includes
        elif any(f["check"] == "clang-diagnostic-error" for f in new):
            status = "invalid"
        elif m["operator"] == "drop-model-to":
            status = "detected" if any(f["file"] == target for f in new) else "missed"
        else:
            status = "detected" if any((target, m["line"]) in set(lines_of(f))
                                       for f in new) else "missed"
        m.update(status=status, cpu_s=round(cpu_seconds() - start, 1), analysed=analysed,
                 new=[{"check": f["check"], "file": os.path.relpath(f["file"], root),
                       "line": f["line"], "message": f["message"]} for f in new])
        print(f"     {status:10} {m['id']} ({m['cpu_s']} CPU s, {analysed} files parsed)",
              flush=True)
        results.append(m)


def table(results, sites_count, verdicts):
    rows, totals = [], collections.Counter()
    for op in mutants.OPERATORS:
        ms = [m for m in results if m["operator"] == op]
        counted = [m for m in ms if m["status"] in ("detected", "missed")]
        detected = sum(m["status"] == "detected" for m in counted)
        missed = [m for m in counted if m["status"] == "missed"]
        equivalent = sum(verdicts.get(m["id"], {}).get("verdict") == "equivalent" for m in missed)
        unreviewed = sum(m["id"] not in verdicts for m in missed)
        row = {"operator": op, "sites": sites_count[op], "mutants": len(ms),
               "not_counted": len(ms) - len(counted), "detected": detected,
               "missed": len(missed), "equivalent": equivalent,
               "true_misses": len(missed) - equivalent - unreviewed, "unreviewed": unreviewed}
        row["rate"] = round(detected / len(counted), 2) if counted else None
        nonequivalent = len(counted) - equivalent
        row["rate_nonequivalent"] = round(detected / nonequivalent, 2) if nonequivalent else None
        rows.append(row)
        totals.update({k: v for k, v in row.items() if isinstance(v, int)})
    total = dict(totals, operator="all")
    counted = total.get("detected", 0) + total.get("missed", 0)
    total["rate"] = round(total.get("detected", 0) / counted, 2) if counted else None
    nonequivalent = counted - total.get("equivalent", 0)
    total["rate_nonequivalent"] = (round(total.get("detected", 0) / nonequivalent, 2)
                                   if nonequivalent else None)
    return rows + [total]


def markdown(rows):
    out = ["| operator | sites | mutants | not counted | detected | missed | equivalent "
           "| true misses | unreviewed | rate | rate (non-equivalent) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        rate = "—" if r["rate"] is None else f"{r['rate']:.2f}"
        rate_ne = "—" if r["rate_nonequivalent"] is None else f"{r['rate_nonequivalent']:.2f}"
        out.append(f"| {r['operator']} | {r.get('sites', 0)} | {r.get('mutants', 0)} | "
                   f"{r.get('not_counted', 0)} | {r.get('detected', 0)} | {r.get('missed', 0)} | "
                   f"{r.get('equivalent', 0)} | {r.get('true_misses', 0)} | "
                   f"{r.get('unreviewed', 0)} | {rate} | {rate_ne} |")
    return "\n".join(out) + "\n"


def write_results(out, summary, sites_count, verdicts):
    """DIR/results.json and DIR/results.md: the table per operator and the misses' verdicts."""
    results = summary["mutants"]
    summary["table"] = table(results, sites_count, verdicts)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(markdown(summary["table"]))
        for m in results:
            if m["status"] == "missed":
                v = verdicts.get(m["id"], {})
                f.write(f"\n- missed `{m['id']}`: {v.get('verdict', 'unreviewed')}"
                        f"{': ' + v['reason'] if v.get('reason') else ''}")
        f.write("\n")
    print()
    print(markdown(summary["table"]))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tidy", default=os.environ.get("TORCH_TIDY",
                                                    os.path.join(TOP, "build/tool/torch-tidy")))
    p.add_argument("--out", default=os.path.join(TOP, "build/mutate"))
    p.add_argument("--src", help="scripts/realworld.sh --src")
    p.add_argument("--projects", help="scripts/realworld.sh --projects")
    p.add_argument("--seed", type=int, default=27)
    p.add_argument("--per-project", type=int, default=2,
                   help="mutants at most per operator and project (default 2)")
    p.add_argument("--per-operator", type=int, default=6,
                   help="mutants at most per operator (default 6)")
    p.add_argument("--unit-files", type=int, default=44,
                   help="source files at most in the analysed units together (default 44)")
    p.add_argument("--max-unit", type=int, default=20,
                   help="source files at most in one analysed unit (default 20)")
    p.add_argument("--verdicts", default=os.path.join(HERE, "realworld/mutant-verdicts.json"))
    p.add_argument("--compare", help="a previous results.json: print the verdicts that changed")
    p.add_argument("--list", action="store_true", help="only list the sites and the mutants")
    p.add_argument("--report", action="store_true",
                   help="analyse nothing: the table of DIR/results.json again, with the verdicts")
    args = p.parse_args(argv)
    args.out = os.path.abspath(args.out)
    if not (args.list or args.report):
        if not (os.path.isfile(args.tidy) and os.access(args.tidy, os.X_OK)):
            die(f"no torch-tidy at '{args.tidy}' (build it, or give --tidy)")
        args.tidy = os.path.abspath(args.tidy)
    verdicts = load_json(args.verdicts, "verdicts") if os.path.exists(args.verdicts) else {}
    previous = load_json(args.compare, "results") if args.compare else None
    if args.report:
        summary = load_json(os.path.join(args.out, "results.json"), "results")
        sites_count = {r["operator"]: r["sites"] for r in summary["table"]}
        write_results(args.out, summary, sites_count, verdicts)
        return 0

    dry = [os.path.join(HERE, "realworld.sh"), "--dry-run", "--out",
           os.path.join(args.out, "realworld")]
    dry += ["--src", args.src] if args.src else []
    dry += ["--projects", args.projects] if args.projects else []
    if subprocess.run(dry, stdout=subprocess.DEVNULL).returncode != 0:
        die("scripts/realworld.sh --dry-run failed")
    db_root = os.path.join(args.out, "realworld", "db")
    wanted = set((args.projects or "").replace("/", "+").split(",")) - {""}
    projects = {k: Project(args.out, k) for k in sorted(os.listdir(db_root))
                if os.path.exists(os.path.join(db_root, k, "files.json"))
                and (not wanted or k in wanted or k.split("+", 1)[1] in wanted)}

    sites, sizes, system_dirs = [], collections.Counter(), system_include_dirs()
    for key, project in projects.items():
        for s in project.sources:
            u = project.unit(s)
            sizes[key, u] = len(project.unit_sources(u))
        sites += [(key,) + s for s in all_sites(project, system_dirs)]
    per = collections.Counter((s[0], s[1]) for s in sites)
    sites_count = collections.Counter(s[1] for s in sites)
    print("Candidate sites per operator:")
    for op in mutants.OPERATORS:
        detail = ", ".join(f"{k} {per[k, op]}" for k in projects if per[k, op])
        print(f"  {op:20} {sites_count[op]:4}{'  (' + detail + ')' if detail else ''}")
    chosen = select(sites, args.seed, args.per_project, args.per_operator, args.unit_files, sizes,
                    args.max_unit, lambda key, rel: projects[key].unit(rel))
    units = collections.defaultdict(list)
    for key, op, rel, line, old, new in chosen:
        units[key, projects[key].unit(rel)].append({
            "id": f"{op}:{key}:{rel}:{line}", "operator": op, "project": key, "file": rel,
            "line": line, "original": old, "mutated": new})
    print(f"{len(chosen)} mutants in {len(units)} units "
          f"({sum(sizes[u] for u in units)} source files):")
    for u, ms in sorted(units.items()):
        for m in ms:
            print(f"  {m['id']}\n     - {m['original'].strip()}\n     + {m['mutated'].strip()}")
    if args.list:
        return 0

    os.makedirs(args.out, exist_ok=True)
    results, start, wall = [], cpu_seconds(), time.time()
    for (key, unit), ms in sorted(units.items()):
        analyse_unit(args, projects[key], unit, ms, results)
    commit = subprocess.run(["git", "-C", TOP, "rev-parse", "--short", "HEAD"],
                            stdout=subprocess.PIPE, text=True).stdout.strip()
    summary = {"date": time.strftime("%Y-%m-%d", time.gmtime()), "repo_commit": commit,
               "tidy": args.tidy, "tidy_version": subprocess.run(
                   [args.tidy, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                   text=True).stdout.strip().split("\n")[0],
               "seed": args.seed, "per_project": args.per_project,
               "per_operator": args.per_operator, "unit_files": args.unit_files,
               "max_unit": args.max_unit, "projects": args.projects,
               "cpu_s": round(cpu_seconds() - start), "wall_s": round(time.time() - wall),
               "mutants": results}
    write_results(args.out, summary, sites_count, verdicts)
    print(f"{summary['cpu_s']} CPU s, {summary['wall_s']} s; results in {args.out}/results.md")
    if previous:
        old = {m["id"]: m["status"] for m in previous.get("mutants", [])}
        for m in results:
            if m["id"] in old and old[m["id"]] != m["status"]:
                print(f"changed: {m['id']}: {old[m['id']]} -> {m['status']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
