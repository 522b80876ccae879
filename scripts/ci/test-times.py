#!/usr/bin/env python3
"""The timing summary that make test prints at its end (scripts/test.sh).

    test-times.py --parts TSV --build DIR [--junit FILE]

TSV: one line per part of the run, `name<TAB>milliseconds<TAB>exit status`.
With ctest's JUnit report (ctest --output-junit), also the time of ctest's
tests by label (the LABELS property; a test without one counts as
'unlabelled') and its ten slowest tests. Labels come from
`ctest --show-only=json-v1` in DIR.
"""
import argparse
import collections
import json
import os
import subprocess
import xml.etree.ElementTree as ElementTree


def clock(seconds):
    minutes, seconds = divmod(int(round(seconds)), 60)
    return '%d:%02d' % (minutes, seconds)


def parts(path):
    with open(path) as f:
        for line in f:
            name, ms, status = line.rstrip('\n').split('\t')
            yield name, int(ms) / 1000.0, int(status)


def test_times(junit):
    """{test name: seconds} of the tests that ran."""
    root = ElementTree.parse(junit).getroot()
    return {case.get('name'): float(case.get('time') or 0)
            for case in root.iter('testcase') if case.get('status') != 'notrun'}


def test_labels(build):
    listing = subprocess.run(['ctest', '--show-only=json-v1'], cwd=build,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    labels = {}
    if listing.returncode != 0:
        return labels
    for test in json.loads(listing.stdout).get('tests', []):
        for prop in test.get('properties', []):
            if prop.get('name') == 'LABELS':
                labels[test['name']] = prop['value']
    return labels


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--parts', required=True)
    ap.add_argument('--build', required=True)
    ap.add_argument('--junit')
    args = ap.parse_args()

    print('== make test: wall time of each part')
    total = 0.0
    for name, seconds, status in parts(args.parts):
        total += seconds
        print('  %-20s %7s%s' % (name, clock(seconds),
                                 '' if status == 0 else '  (failed, exit %d)' % status))
    print('  %-20s %7s' % ('total', clock(total)))

    if not args.junit or not os.path.exists(args.junit):
        return
    times = test_times(args.junit)
    labels = test_labels(args.build)
    by_label = collections.defaultdict(lambda: [0, 0.0])
    for name, seconds in times.items():
        for label in labels.get(name, ['unlabelled']):
            by_label[label][0] += 1
            by_label[label][1] += seconds
    print('== ctest: time by label (summed over tests; %d tests)' % len(times))
    for label, (count, seconds) in sorted(by_label.items(), key=lambda kv: -kv[1][1]):
        print('  %-20s %4d tests %7s' % (label, count, clock(seconds)))
    print('== ctest: the ten slowest tests')
    for name, seconds in sorted(times.items(), key=lambda kv: -kv[1])[:10]:
        print('  %7s  %s' % (clock(seconds), name))


if __name__ == '__main__':
    main()
