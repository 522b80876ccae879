#!/usr/bin/env python3
"""The corpus gate: torch-tidy over a labelled corpus, scored against per-rule floors.

    gate.py --torch-tidy BIN --corpus DIR --labels labels.json --thresholds floors.json \
            --pch PCH --flags "-std=c++17 -I..."

Every .cpp under DIR (recursively) is analysed through a compile database that uses the LibTorch
precompiled header and adds the file's own directory to the include path (the multi-file projects
include their headers). The SARIF output is scored by score.py; a rule below its floor fails.
With --per-project, each top-level directory of DIR is a program of its own and is analysed in a
run of its own, as its user would run torch-tidy over its compile database: what one program does
(moves a module class, names an accelerator) says nothing of another.
A corpus is scored on the rules it was labelled for: those its floors name (all rules when it
names none).
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile


def analyse(args, sources, checks, work):
    """The SARIF log of one torch-tidy run over SOURCES; exits on a crash or a compiler error."""
    os.makedirs(work)
    entries = [{'directory': os.path.dirname(src), 'file': src,
                'arguments': ['clang++'] + shlex.split(args.flags) +
                             ['-I' + os.path.dirname(src), '-include-pch', args.pch,
                              '-c', src]}
               for src in sources]
    with open(os.path.join(work, 'compile_commands.json'), 'w') as f:
        json.dump(entries, f, indent=1)
    sarif = os.path.join(work, 'out.sarif')
    tidy = subprocess.run([args.torch_tidy, '-p', work, '-j', args.jobs, '--quiet',
                           '--format=sarif', '--output=' + sarif] + checks,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # 0, or 1 for findings treated as errors; a crash or a compiler error is a failure.
    log = json.load(open(sarif)) if os.path.exists(sarif) else None
    if log is None or any(r['ruleId'].startswith(('clang-diagnostic', 'torch-tidy-crash'))
                          for r in log['runs'][0]['results']):
        sys.exit('torch-tidy failed on the corpus (exit %d):\n%s' % (tidy.returncode, tidy.stdout))
    return log


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ('--torch-tidy', '--corpus', '--labels', '--thresholds', '--pch', '--flags'):
        ap.add_argument(name, required=True)
    ap.add_argument('--jobs', default='2')
    ap.add_argument('--per-project', action='store_true')
    args = ap.parse_args()

    corpus = os.path.abspath(args.corpus)
    sources = sorted(os.path.join(d, f) for d, _, files in os.walk(corpus)
                     for f in files if f.endswith('.cpp'))
    runs = {}
    for src in sources:
        top = os.path.relpath(src, corpus).split(os.sep)[0] if args.per_project else ''
        runs.setdefault(top, []).append(src)
    with open(args.thresholds, encoding='utf-8') as f:
        rules = sorted(json.load(f))
    checks = ['--checks=-*,' + ','.join(rules)] if rules else []
    with tempfile.TemporaryDirectory(prefix='torch-tidy-corpus-') as work:
        merged = None
        for index, (_, files) in enumerate(sorted(runs.items())):
            results = analyse(args, files, checks, os.path.join(work, str(index)))
            if merged is None:
                merged = results
            else:
                merged['runs'][0]['results'] += results['runs'][0]['results']
        sarif = os.path.join(work, 'out.sarif')
        with open(sarif, 'w') as f:
            json.dump(merged, f)
        score = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'score.py')
        return subprocess.run([sys.executable, score, '--sarif', sarif, '--labels', args.labels,
                               '--thresholds', args.thresholds]).returncode


if __name__ == '__main__':
    sys.exit(main())
