#!/usr/bin/env python3
"""Copies a torch-tidy SARIF log for GitHub code scanning: drops the results
whose baselineState is "absent" (findings of the baseline that are fixed).
Code scanning reads neither baselineState nor kind, so it would show them as
open alerts; it closes fixed alerts itself, by their fingerprints.

  sarif-for-upload.py IN.sarif OUT.sarif
"""
import json
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        log = json.load(f)
    for run in log.get('runs', []):
        run['results'] = [r for r in run.get('results', [])
                          if r.get('baselineState') != 'absent']
    with open(sys.argv[2], 'w') as f:
        json.dump(log, f, indent=2)


if __name__ == '__main__':
    main()
