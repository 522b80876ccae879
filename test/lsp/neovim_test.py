#!/usr/bin/env python3
"""End-to-end test of `torch-tidy --lsp` with a real editor: headless Neovim
(Debian's `neovim`, its built-in LSP client) on a copy of examples/.

The copy's compile database comes from its own CMake project (as a user's
would), in examples/build/, which the server finds from src/ as clangd does.
neovim_e2e.lua opens src/train.cpp, waits for the findings that its
`// BUG(<check>)` comments mark, adds and removes a bug by unsaved edits,
applies a quick fix through the client's code-action menu, and stops the
server; this script checks what it recorded. One LibTorch parse (~15 s on
an idle machine); every wait is generous and names what did not arrive.

  neovim_test.py --torch-tidy BIN --nvim BIN --examples DIR
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ARGS = None
FILE = 'src/train.cpp'
BUG_MARK = re.compile(r'// BUG\(([\w-]+)\)')


def expected_findings(text):
    """(0-based line, check) of each `// BUG(check)` (not `BUG(later)`)."""
    found = []
    for number, line in enumerate(text.split('\n')):
        for check in BUG_MARK.findall(line):
            if check != 'later':
                found.append([number, check])
    return sorted(found)


class NeovimTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not shutil.which(ARGS.nvim):
            raise AssertionError('no Neovim (%s): scripts/install-deps.sh installs '
                                 'Debian\'s neovim' % ARGS.nvim)
        cls.root = tempfile.mkdtemp(prefix='torch-tidy-nvim-')
        cls.project = os.path.join(cls.root, 'examples')
        shutil.copytree(ARGS.examples, cls.project,
                        ignore=shutil.ignore_patterns('build'))
        configure = subprocess.run(
            ['cmake', '-S', cls.project, '-B', os.path.join(cls.project, 'build')],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if configure.returncode != 0:
            raise AssertionError('cmake could not configure the examples:\n' +
                                 configure.stdout)
        cls.file = os.path.join(cls.project, FILE)
        with open(cls.file) as f:
            cls.original = f.read()
        lines = cls.original.split('\n')
        cls.expected = expected_findings(cls.original)
        # The bug goes after the line that moves the batch's input.
        cls.bug_after = next(i for i, l in enumerate(lines)
                             if 'auto images = batch.data.to(device);' in l)
        cls.fix = next(f for f in cls.expected if f[1] == 'device-discarded-to')
        cls.result_path = os.path.join(cls.root, 'result.json')
        cls.log = os.path.join(cls.root, 'nvim.log')
        env = dict(os.environ)
        env['TORCH_TIDY_NVIM_TEST'] = json.dumps({
            'server': ARGS.torch_tidy, 'file': cls.file, 'root': cls.project,
            'expected': cls.expected, 'bug_after': cls.bug_after,
            'bug_text': '      images.to(device);',
            'fix_line': cls.fix[0], 'fix_check': cls.fix[1],
            'wait_first': 600, 'wait_edit': 240, 'result': cls.result_path})
        env['NVIM_LOG_FILE'] = cls.log
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              'neovim_e2e.lua')
        cls.nvim = subprocess.run(
            [ARGS.nvim, '--headless', '--clean', '-n', '-i', 'NONE', '-u', 'NONE',
             '-c', 'luafile ' + script],
            cwd=cls.project, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        try:
            with open(cls.result_path) as f:
                cls.results = json.load(f)
        except (OSError, ValueError):
            cls.results = None
        for step in (cls.results or {}).get('steps', []):
            sys.stderr.write('neovim: %-36s %s after %.1f s\n' % (
                step['name'], 'done' if step['ok'] else 'TIMED OUT', step['seconds']))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root, ignore_errors=True)

    def setUp(self):
        self.assertIsNotNone(self.results, 'Neovim wrote no results; its output:\n' +
                             self.nvim.stdout)

    def explain(self):
        return json.dumps(self.results, indent=1) + '\n--- Neovim ---\n' + self.nvim.stdout

    def test_every_step_completed(self):
        self.assertGreaterEqual(len(self.expected), 4, 'the BUG marks of ' + FILE)
        self.assertTrue(self.results['ok'], self.explain())
        self.assertEqual([s['name'] for s in self.results['steps']], [
            'open: the diagnostics of the file', 'edit: the new bug is found',
            'edit: the bug is gone again', 'fix: the buffer changes',
            'fix: the finding is gone', 'stop: the server exits'], self.explain())

    def test_the_quick_fix_is_the_rules_fix_it(self):
        self.assertIn('device-discarded-to: insert \'class_mask = \'',
                      self.results.get('offered', []), self.explain())
        self.assertIn('suppress with NOLINTNEXTLINE(device-discarded-to)',
                      self.results.get('offered', []), self.explain())
        self.assertTrue(self.results.get('fixed_line', '').startswith(
            '  class_mask = class_mask.to(device);'), self.explain())

    def test_edits_stay_in_the_buffer(self):
        self.assertTrue(self.results.get('modified'), self.explain())
        with open(self.file) as f:
            self.assertEqual(f.read(), self.original, 'the file on disk is unchanged')

    def test_the_first_parse_shows_progress(self):
        progress = self.results.get('progress', [])
        self.assertIn('begin', progress, self.explain())
        self.assertIn('end', progress, self.explain())

    def test_the_server_exits_cleanly(self):
        self.assertEqual(self.results.get('exit_code'), 0, self.explain())


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument('--torch-tidy', required=True)
    parser.add_argument('--nvim', default='nvim')
    parser.add_argument('--examples', required=True)
    ARGS, rest = parser.parse_known_args()
    ARGS.torch_tidy = os.path.abspath(ARGS.torch_tidy)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == '__main__':
    main()
