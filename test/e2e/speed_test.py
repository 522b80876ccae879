#!/usr/bin/env python3
"""End-to-end tests of project-scale speed: the result cache and the shared
precompiled header give the findings a plain analysis gives.

The cache and sharing tests run on the stand-in LibTorch header
(test/checks/standin), which parses in milliseconds, against a reference that
parses every file from scratch; SameFindingsTest runs the real headers over
the check fixtures and examples/ (a minute), against a reference that parses
every file on its own with the build's precompiled <torch/torch.h>.

  speed_test.py ARGUMENTS-OF-e2e_test.py [unittest args]
"""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_test as e2e  # noqa: E402  (its helpers; ARGS is set by main)

ARGS = None
SOURCE = e2e.source_dir()
STANDIN_FLAGS = ['-std=c++17', '-I' + os.path.join(SOURCE, 'test', 'checks', 'standin')]

MODEL_H = r'''// The project's own header: torch first, then its declarations.
#pragma once

#include <torch/torch.h>
#include <vector>

torch::Device pickDevice();
'''

A_CPP = r'''#include "model.h"

torch::Device pickDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

torch::Tensor accumulate(const std::vector<torch::Tensor> &losses,
                         torch::Device device) {
  auto total = torch::zeros({1});
  for (const auto &loss : losses)
    total += loss.to(device);
  return total;
}
'''

B_CPP = r'''#include "model.h"

torch::Tensor sum(const std::vector<torch::Tensor> &parts) {
  torch::Device device = torch::kCUDA;
  auto total = torch::zeros({1});
  for (const auto &part : parts)
    total += part.to(device);
  return total;
}
'''

C_CPP = r'''#include <torch/torch.h>

int rank(const torch::Tensor &t) { return int(t.dim()); }
'''

# A #define before the includes: the shared header would not see it.
D_CPP = r'''#define NDEBUG 1
#include <torch/torch.h>

int order(const torch::Tensor &t) { return int(t.dim()); }
'''

PROJECT = {'src/model.h': MODEL_H, 'src/a.cpp': A_CPP, 'src/b.cpp': B_CPP,
           'src/c.cpp': C_CPP}


def make_project(root, files, flags):
    paths = {rel: e2e.write(os.path.join(root, rel), text)
             for rel, text in files.items()}
    entries = [{'directory': root, 'file': path,
                'arguments': ['clang++'] + flags + ['-c', path, '-o', '/dev/null']}
               for rel, path in sorted(paths.items()) if rel.endswith('.cpp')]
    e2e.write(os.path.join(root, 'compile_commands.json'), json.dumps(entries))
    return paths


def summary(result):
    """The end-of-run line."""
    lines = [l for l in result.err.splitlines() if ' files: ' in l]
    return lines[-1] if lines else ''


def findings(result):
    """The findings of a JSON run, complete (notes, fixes, plans)."""
    return sorted(json.dumps(f, sort_keys=True) for f in json.loads(result.out))


class SpeedTestCase(e2e.ProjectTestCase):
    def setUp(self):
        self.root = os.path.realpath(tempfile.mkdtemp(prefix='torch-tidy-speed-'))
        self.addCleanup(shutil.rmtree, self.root, True)
        self.cache = os.path.join(self.root, 'cache')

    def project(self, files=PROJECT, flags=STANDIN_FLAGS):
        self.paths = make_project(os.path.join(self.root, 'p'), files, flags)
        self.db = os.path.join(self.root, 'p')
        return self.paths

    def tidy(self, *args, env=None):
        proc = subprocess.run([ARGS.torch_tidy, '-p', self.db, '--format=json',
                               '-j', '2'] + list(args),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env)
        result = e2e.Result(proc)
        self.assertNoCrash(result)
        return result

    def cached(self, *args):
        return self.tidy('--cache-dir=' + self.cache, *args)

    def plain(self):
        """The reference: every file parsed on its own, nothing cached."""
        return self.tidy('--no-cache', '--no-shared-pch')

    def edit(self, rel, text):
        e2e.write(self.paths[rel], text)


class ResultCacheTest(SpeedTestCase):
    def setUp(self):
        super().setUp()
        self.project()
        self.reference = self.plain()
        self.assertEqual(self.reference.code, 0, self.reference)
        # Two findings, one in a.cpp and one in b.cpp: a test of their
        # replay can fail.
        found = [json.loads(f)['file'] for f in findings(self.reference)]
        self.assertEqual(sorted(found), [self.paths['src/a.cpp'],
                                         self.paths['src/b.cpp']], self.reference)

    def test_an_unchanged_run_replays_every_file(self):
        cold = self.cached()
        self.assertIn('3 files: 0 cached, 3 analysed', summary(cold), cold)
        warm = self.cached()
        self.assertIn('3 files: 3 cached, 0 analysed', summary(warm), warm)
        self.assertEqual(findings(warm), findings(self.reference))
        self.assertEqual(findings(cold), findings(self.reference))
        self.assertEqual(warm.code, 0, warm)

    def test_editing_a_source_analyses_that_file_only(self):
        self.cached()
        self.edit('src/c.cpp', C_CPP + '\nint other() { return 1; }\n')
        run = self.cached()
        self.assertIn('3 files: 2 cached, 1 analysed', summary(run), run)
        self.assertEqual(findings(run), findings(self.reference))

    def test_editing_a_header_analyses_exactly_the_files_that_include_it(self):
        self.cached()
        self.edit('src/model.h', MODEL_H + 'int helper();\n')
        explain = self.cached('--explain-cache=' + self.paths['src/a.cpp'])
        self.assertEqual(explain.code, 0, explain)
        self.assertIn("analysed on the next run: '%s' changed"
                      % self.paths['src/model.h'], explain.out)
        explain = self.cached('--explain-cache=' + self.paths['src/c.cpp'])
        self.assertIn('up to date', explain.out)
        run = self.cached()
        self.assertIn('3 files: 1 cached, 2 analysed', summary(run), run)
        self.assertEqual(findings(run), findings(self.reference))
        explain = self.cached('--explain-cache=' + self.paths['src/a.cpp'])
        self.assertIn("last analysed", explain.out)
        self.assertIn("'%s' changed" % self.paths['src/model.h'], explain.out)

    def test_a_damaged_entry_is_analysed_again_and_rewritten(self):
        self.cached()
        # results/<2>/<file digest>/<configuration digest>.json
        entries = glob.glob(os.path.join(self.cache, 'v1', 'results', '*', '*',
                                         '*.json'))
        self.assertEqual(len(entries), 3)
        damaged = [p for p in entries
                   if json.loads(e2e.read(p))['file'] == self.paths['src/a.cpp']]
        with open(damaged[0], 'r+') as f:
            f.truncate(100)
        run = self.cached()
        self.assertIn('3 files: 2 cached, 1 analysed', summary(run), run)
        self.assertEqual(findings(run), findings(self.reference))
        again = self.cached()
        self.assertIn('3 files: 3 cached, 0 analysed', summary(again), again)
        self.assertEqual(findings(again), findings(self.reference))

    def test_concurrent_runs_share_the_cache(self):
        command = [ARGS.torch_tidy, '-p', self.db, '--format=json',
                   '--cache-dir=' + self.cache]
        procs = [subprocess.Popen(command, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
                 for _ in range(3)]
        for proc in procs:
            out, err = proc.communicate()
            result = e2e.Result(subprocess.CompletedProcess(command, proc.returncode,
                                                            out, err))
            self.assertEqual(result.code, 0, result)
            self.assertEqual(findings(result), findings(self.reference))
        after = self.cached()
        self.assertIn('3 files: 3 cached, 0 analysed', summary(after), after)
        self.assertEqual(findings(after), findings(self.reference))

    def test_another_configuration_is_another_analysis(self):
        self.cached()
        other = self.cached('--checks=-*,device-factory-without-device')
        self.assertIn('0 cached, 3 analysed', summary(other), other)
        explain = self.cached('--checks=-*,device-mismatch',
                              '--explain-cache=' + self.paths['src/a.cpp'])
        self.assertIn('the configuration changed: Checks', explain.out)
        # Each configuration keeps its entries: back to the first, replayed.
        again = self.cached()
        self.assertIn('3 cached, 0 analysed', summary(again), again)

    def test_no_cache_writes_nothing_and_the_default_is_xdg_cache_home(self):
        home = os.path.join(self.root, 'xdg')
        env = dict(os.environ, XDG_CACHE_HOME=home)
        none = self.tidy('--no-cache', env=env)
        self.assertIn('0 cached, 3 analysed', summary(none), none)
        self.assertFalse(os.path.exists(home))
        self.tidy(env=env)
        self.assertTrue(os.path.exists(os.path.join(home, 'torch-tidy', 'CACHEDIR.TAG')))
        warm = self.tidy(env=env)
        self.assertIn('3 cached', summary(warm), warm)

    def test_bad_cache_options_are_one_line_errors(self):
        for args, words in [(['--cache-size=lots'], '--cache-size'),
                            (['--cache-dir=/proc/torch-tidy'], 'cache directory'),
                            (['--no-cache', '--explain-cache=' + self.paths['src/a.cpp']],
                             '--explain-cache')]:
            e2e.BadInputTest.assertOneLineError(self, self.tidy(*args), words)


class SharedPchTest(SpeedTestCase):
    def test_files_that_start_alike_share_one_header(self):
        self.project(dict(PROJECT, **{'src/d.cpp': D_CPP}))
        shared = self.tidy('--no-cache')
        self.assertIn('4 files: 0 cached, 4 analysed (3 from a shared '
                      'precompiled header); precompiled headers: 1 built',
                      summary(shared), shared)
        self.assertEqual(findings(shared), findings(self.plain()))

    def test_the_next_run_reuses_the_header(self):
        self.project()
        self.cached()
        self.edit('src/a.cpp', A_CPP + '\n')
        run = self.cached()
        self.assertIn('2 cached, 1 analysed (1 from a shared precompiled header); '
                      'precompiled headers: 0 built, 1 reused', summary(run), run)
        self.assertEqual(findings(run), findings(self.plain()))

    def test_a_header_included_again_unguarded_is_never_shared(self):
        files = {'inc/prelude.h': '#include <torch/torch.h>\n'}
        for rel in ('src/a.cpp', 'src/b.cpp'):
            files[rel] = '#include <prelude.h>\n' + PROJECT[rel].split('\n', 1)[1]
        files['src/model.h'] = MODEL_H
        flags = STANDIN_FLAGS + ['-I' + os.path.join(self.root, 'p', 'inc')]
        self.project(files, flags)
        shared = self.tidy('--no-cache')
        self.assertIn('(0 from a shared precompiled header)', summary(shared), shared)
        self.assertEqual(findings(shared), findings(self.plain()))

    def test_a_command_with_a_header_of_its_own_is_parsed_alone(self):
        self.project(flags=STANDIN_FLAGS + ['-include', 'vector'])
        shared = self.tidy('--no-cache')
        self.assertIn('(0 from a shared precompiled header)', summary(shared), shared)
        self.assertEqual(findings(shared), findings(self.plain()))


class SameFindingsTest(SpeedTestCase):
    """The real LibTorch headers over the check fixtures and examples/: the
    same findings parsed one by one, from a shared precompiled header, and
    replayed from the cache.

    The reference parses each file on its own with the precompiled header that
    clang++ built for the fixtures (-include-pch): the shared header is
    torch-tidy's own, built from the files' leading includes, and parsing
    LibTorch from scratch for every file would cost ten minutes of this test
    to prove the same (the stand-in tests above compare with scratch parses)."""

    def database(self, name, extra):
        flags = shlex.split(ARGS.flags) + extra
        fixtures = [f for f in sorted(glob.glob(os.path.join(SOURCE, 'test', 'checks', '*.cpp')))
                    if not f.endswith('.standin.cpp')]
        examples = sorted(glob.glob(os.path.join(SOURCE, 'examples', 'src', '*.cpp')))
        entries = [{'directory': self.root, 'file': f,
                    'arguments': ['clang++'] + flags + ['-c', f]} for f in fixtures]
        entries += [{'directory': self.root, 'file': f,
                     'arguments': ['clang++'] + flags +
                     ['-I' + os.path.dirname(f), '-c', f]} for f in examples]
        self.db = os.path.join(self.root, name)
        e2e.write(os.path.join(self.db, 'compile_commands.json'), json.dumps(entries))
        return len(entries)

    def test_same_findings_with_and_without_the_shared_header_and_the_cache(self):
        self.database('alone', ['-include-pch', ARGS.pch])
        plain = self.plain()
        files = self.database('db', [])
        shared = self.cached()
        replayed = self.cached()
        for result in (plain, shared, replayed):
            self.assertEqual(result.code, 0, result)
        self.assertGreater(len(findings(plain)), files, plain)
        # Files share a header with the others whose leading includes agree
        # (most fixtures, examples/); one whose includes no other file shares
        # (a lone <torch/script.h>) is parsed alone.
        counts = re.search(r'%d files: 0 cached, %d analysed \((\d+) from a shared '
                           r'precompiled header\);(?: \d+ findings? decided across files;)? '
                           r'precompiled headers: (\d+) built'
                           % (files, files), summary(shared))
        self.assertTrue(counts, shared)
        self.assertGreaterEqual(int(counts.group(1)), files - 1, shared)
        self.assertLessEqual(int(counts.group(2)), 3, shared)
        self.assertIn('%d files: %d cached, 0 analysed' % (files, files),
                      summary(replayed), replayed)
        self.assertEqual(findings(shared), findings(plain))
        self.assertEqual(findings(replayed), findings(plain))


def main():
    global ARGS
    rest = e2e.parse_arguments(__doc__)
    ARGS = e2e.ARGS
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == '__main__':
    main()
