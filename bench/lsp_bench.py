#!/usr/bin/env python3
"""How fast torch-tidy --lsp re-analyses a file after an edit (not a test:
it measures, it asserts nothing).

One server (`--lsp --lsp-debounce=0 -j 1`) opens each file in turn and
times, from the client's side (the notification sent to the diagnostics
received):
  cold          didOpen: the preamble (the #include block) built, then the
                rest of the file parsed and analysed
  body edit     a statement inserted in a function body: the preamble reused
                (median of --edits runs)
  include edit  an #include added at the top: the preamble built again
  command line  `torch-tidy --no-cache FILE` with the same compile database,
                for scale (a parse, not a replay of the cache); its findings are compared with the server's first ones
and reads the server's memory (VmRSS of /proc, with the files so far still
open) and each preamble's size on disk.

  bench/lsp_bench.py                          # examples/src/*.cpp
  bench/lsp_bench.py examples/src/train.cpp --edits 5
  TORCH_TIDY=/path/to/torch-tidy bench/lsp_bench.py --no-cli
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'test', 'lsp'))
from lsp_client import LspClient, file_uri  # noqa: E402

WAIT = 900


def compile_database(work):
    """examples/build's, else a fresh CMake configure of examples/."""
    existing = os.path.join(ROOT, 'examples', 'build')
    if os.path.exists(os.path.join(existing, 'compile_commands.json')):
        return existing
    build = os.path.join(work, 'examples-build')
    subprocess.run(['cmake', '-S', os.path.join(ROOT, 'examples'), '-B', build],
                   check=True, stdout=subprocess.DEVNULL)
    return build


def body_edit(text, n):
    """\\p text with a statement inserted at the start of its first function
    body (one defined at the start of a line)."""
    lines = text.split('\n')
    for i, line in enumerate(lines):
        if re.match(r'^[A-Za-z].*\)\s*(const\s*)?\{\s*$', line):
            lines.insert(i + 1, '  int bench_edit_%d = 0; (void)bench_edit_%d;' % (n, n))
            return '\n'.join(lines)
    return text + '\n// bench edit %d\n' % n


def memory_mib(pid, field):
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith(field + ':'):
                return int(line.split()[1]) / 1024
    return 0


def timed(client, path, version, change):
    start = time.monotonic()
    client.notify('textDocument/didChange', {
        'textDocument': {'uri': file_uri(path), 'version': version},
        'contentChanges': [{'text': change}]})
    client.wait_published(file_uri(path), version, WAIT)
    return time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('files', nargs='*')
    parser.add_argument('--edits', type=int, default=3)
    parser.add_argument('--no-cli', action='store_true')
    args = parser.parse_args()
    tool = os.environ.get('TORCH_TIDY', os.path.join(ROOT, 'build', 'tool', 'torch-tidy'))
    files = [os.path.abspath(f) for f in args.files] or sorted(
        glob.glob(os.path.join(ROOT, 'examples', 'src', '*.cpp')))
    work = tempfile.mkdtemp(prefix='torch-tidy-lsp-bench-')
    try:
        build = compile_database(work)
        log = os.path.join(work, 'server.log')
        client = LspClient([tool, '--lsp', '--lsp-debounce=0', '-j', '1', '-p', build],
                           stderr_path=log)
        client.initialize(ROOT, {})
        preambles = None
        disk_before = 0
        rows = []
        for path in files:
            with open(path) as f:
                text = f.read()
            start = time.monotonic()
            client.notify('textDocument/didOpen', {'textDocument': {
                'uri': file_uri(path), 'languageId': 'cpp', 'version': 1, 'text': text}})
            first = client.wait_published(file_uri(path), 1, WAIT)['diagnostics']
            cold = time.monotonic() - start
            served = sorted((d['range']['start']['line'] + 1, d['code']) for d in first)
            version = 1
            body = []
            for n in range(args.edits):
                version += 1
                body.append(timed(client, path, version, body_edit(text, n)))
            version += 1
            include = timed(client, path, version, '#include <vector>\n' + text)
            if preambles is None:
                with open(log) as f:
                    preambles = re.search(r'preambles in (\S+)', f.read()).group(1)
            disk_now = sum(os.path.getsize(p)
                           for p in glob.glob(os.path.join(preambles, '*')))
            disk, disk_before = disk_now - disk_before, disk_now
            cli, same = None, '-'
            if not args.no_cli:
                start = time.monotonic()
                run = subprocess.run([tool, '--no-cache', '-p', build, path, '--format=json'],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True)
                cli = time.monotonic() - start
                found = sorted((f['line'], f['check']) for f in json.loads(run.stdout)
                               if f['file'] == path)
                same = 'yes' if found == served else 'NO: %s vs %s' % (found, served)
            rows.append((os.path.relpath(path, ROOT), cold, statistics.median(body),
                         include, cli, disk / 2**20,
                         memory_mib(client.proc.pid, 'VmRSS'), same))
            print('%s: cold %.2f s, body edit %.2f s, include edit %.2f s' %
                  (rows[-1][0], cold, rows[-1][2], include), file=sys.stderr)
        peak = memory_mib(client.proc.pid, 'VmHWM')
        client.shutdown()

        print('| file | cold s | body edit s | ratio | include edit s | command line s '
              '| same findings | its preamble on disk MiB | server RSS MiB |')
        print('|---|---:|---:|---:|---:|---:|---|---:|---:|')
        for name, cold, body, include, cli, disk, rss, same in rows:
            print('| %s | %.2f | %.2f | %.2fx | %.2f | %s | %s | %.0f | %.0f |' % (
                name, cold, body, body / cold, include,
                '%.2f' % cli if cli is not None else '-', same, disk, rss))
        cold = sum(r[1] for r in rows)
        body = sum(r[2] for r in rows)
        print('\nbody edit / cold, all files: %.2fx (%.2f s / %.2f s); '
              'server peak RSS %.0f MiB, %.0f MiB with all %d files open' % (
                  body / cold, body, cold, peak, rows[-1][6], len(rows)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
