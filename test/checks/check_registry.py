#!/usr/bin/env python3
"""Checks that the one list of rules, checks/Checks.def, and everything that
names the rules agree:

  - Checks.def: every entry's name is unique, the entries are sorted by name,
    and each rule's class has its XxxCheck.h and XxxCheck.cpp;
  - docs/checks/<name>.md exists for each rule and no other, its bold
    first line is the rule's summary in Checks.def (`code` read as 'code'),
    and its "## Severity" section starts with the rule's severity and
    precision in Checks.def: "**bug**, precision **high**";
  - test/checks/<name>.cpp exists for each rule, and every fixture
    (<name>.<variant>.cpp included) belongs to a rule;
  - the README's check table has one row per rule, in the same order, linking
    to its doc page and naming its severity in Checks.def;
  - torch-tidy --list-checks lists exactly the rules (the module is built
    from Checks.def), and its SARIF rules[] describes each of them with its
    summary, severity (the first tag) and precision (the catalog is built
    from it too).

    check_registry.py --root REPO --torch-tidy BIN
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ENTRY = re.compile(r'^TORCH_TIDY_CHECK\(\s*"([a-z0-9-]+)"\s*,\s*(\w+)\s*,'
                   r'\s*(Bug|Hazard|Performance)\s*,\s*(Medium|High|VeryHigh)\s*,'
                   r'((?:\s*"(?:[^"\\]|\\.)*")+)\s*,', re.MULTILINE)
# How the doc page's "Severity" section names them.
SEVERITY_SECTION = re.compile(
    r'^## Severity\n\n\*\*([a-z]+)\*\*, precision \*\*([a-z-]+)\*\*',
    re.MULTILINE)
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
README_ROW = re.compile(r'^\| \[([a-z0-9-]+)\]\(docs/checks/([^)]+)\) \| ([a-z]+) \|',
                        re.MULTILINE)


def c_string(literals):
    """The value of adjacent C string literals (the escapes Checks.def uses)."""
    text = ''.join(LITERAL.findall(literals))
    return re.sub(r'\\(.)', r'\1', text)


def doc_summary(path):
    with open(path, encoding='utf-8') as f:
        match = re.search(r'\*\*(.+?)\*\*', f.read(), re.DOTALL)
    if not match:
        return None
    return re.sub(r'`([^`]*)`', r"'\1'", ' '.join(match.group(1).split()))


def kebab(identifier):
    """'VeryHigh' -> 'very-high', as the outputs write severities and
    precisions."""
    return re.sub(r'(?<!^)([A-Z])', r'-\1', identifier).lower()


def registry(root):
    """[(name, class, severity, precision, summary)] of Checks.def's rules,
    severity and precision as the outputs write them ('very-high')."""
    with open(os.path.join(root, 'checks', 'Checks.def'), encoding='utf-8') as f:
        text = f.read()
    return [(name, cls, kebab(severity), kebab(precision), c_string(summary))
            for name, cls, severity, precision, summary in ENTRY.findall(text)]


def doc_severity(path):
    """(severity, precision) that the doc page's Severity section states."""
    with open(path, encoding='utf-8') as f:
        match = SEVERITY_SECTION.search(f.read())
    return match.groups() if match else None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--root', required=True)
    ap.add_argument('--torch-tidy', required=True)
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    problems = []

    rules = registry(root)
    names = [name for name, *_ in rules]
    if not rules:
        sys.exit('no TORCH_TIDY_CHECK entry in checks/Checks.def')
    if len(set(names)) != len(names):
        problems.append('Checks.def names a rule twice')
    if names != sorted(names):
        problems.append('Checks.def is not sorted by name: %s' % ', '.join(names))
    for name, cls, severity, precision, summary in rules:
        for ext in ('.h', '.cpp'):
            if not os.path.exists(os.path.join(root, 'checks', cls + ext)):
                problems.append('%s: checks/%s%s is missing' % (name, cls, ext))
        doc = os.path.join(root, 'docs', 'checks', name + '.md')
        if not os.path.exists(doc):
            problems.append('%s: docs/checks/%s.md is missing' % (name, name))
        elif doc_summary(doc) != summary:
            problems.append('%s: the summary in Checks.def is not the first line '
                            'of its doc page:\n    Checks.def: %s\n    doc page:   %s'
                            % (name, summary, doc_summary(doc)))
        elif doc_severity(doc) != (severity, precision):
            problems.append('%s: Checks.def says severity %s, precision %s; its '
                            'doc page\'s "## Severity" section %s'
                            % (name, severity, precision, doc_severity(doc)))
        if not any(os.path.exists(os.path.join(root, 'test', 'checks', name + ext))
                   for ext in ('.cpp', '.cu')):
            problems.append('%s: test/checks/%s.cpp (or .cu) is missing' % (name, name))

    docs = sorted(f[:-3] for f in os.listdir(os.path.join(root, 'docs', 'checks'))
                  if f.endswith('.md'))
    for doc in sorted(set(docs) - set(names)):
        problems.append('docs/checks/%s.md is no rule of Checks.def' % doc)
    for fixture in sorted(os.listdir(os.path.join(root, 'test', 'checks'))):
        if fixture.endswith(('.cpp', '.cu')) and fixture.split('.')[0] not in names:
            problems.append('test/checks/%s belongs to no rule of Checks.def'
                            % fixture)

    with open(os.path.join(root, 'README.md'), encoding='utf-8') as f:
        rows = README_ROW.findall(f.read())
    if [name for name, _, _ in rows] != names:
        problems.append('the README check table lists %s, Checks.def %s' %
                        ([name for name, _, _ in rows], names))
    severities = {name: severity for name, _, severity, _, _ in rules}
    for name, link, severity in rows:
        if link != name + '.md':
            problems.append('README: %s links to docs/checks/%s' % (name, link))
        if name in severities and severity != severities[name].lower():
            problems.append('README: %s is a %s rule, Checks.def says %s'
                            % (name, severity, severities[name].lower()))

    listed = subprocess.run([args.torch_tidy, '--list-checks'],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    enabled = re.findall(r'^\s+([a-z0-9-]+)\s*$', listed.stdout, re.MULTILINE)
    if listed.returncode != 0 or sorted(enabled) != sorted(names):
        problems.append('torch-tidy --list-checks (exit %d) lists %s' %
                        (listed.returncode, enabled))

    with tempfile.TemporaryDirectory(prefix='torch-tidy-registry-') as work:
        source = os.path.join(work, 'empty.cpp')
        with open(source, 'w') as f:
            f.write('int main() { return 0; }\n')
        sarif = os.path.join(work, 'out.sarif')
        run = subprocess.run([args.torch_tidy, source, '--format=sarif',
                              '--output=' + sarif, '--', '-std=c++17'],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        if run.returncode != 0 or not os.path.exists(sarif):
            problems.append('torch-tidy --format=sarif failed (exit %d): %s' %
                            (run.returncode, run.stdout))
        else:
            with open(sarif, encoding='utf-8') as f:
                described = json.load(f)['runs'][0]['tool']['driver']['rules']
            got = [(r['id'], r['shortDescription']['text'],
                    r.get('properties', {}).get('tags', [None])[0],
                    r.get('properties', {}).get('precision'))
                   for r in described]
            want = [(name, summary, severity, precision)
                    for name, _, severity, precision, summary in rules]
            if got != want:
                problems.append('SARIF rules[] %s differ from Checks.def %s' %
                                (got, want))

    if problems:
        sys.exit('%d disagreement(s) about the rules:\n  %s' %
                 (len(problems), '\n  '.join(problems)))
    print('%d rules: Checks.def, docs/checks, test/checks, the README table, '
          '--list-checks and SARIF agree' % len(rules))


if __name__ == '__main__':
    main()
