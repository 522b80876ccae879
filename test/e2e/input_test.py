#!/usr/bin/env python3
"""End-to-end tests of what the command line accepts and says, on the
stand-in <torch/torch.h> (test/checks/standin), which parses in milliseconds:
misspelt checks and options, a broken .torch-tidy, an unknown --format, files
that are not C, C++ or CUDA, --diff-file from a subdirectory, the JSON formats
and the run's summary line.

  input_test.py --torch-tidy BIN ... (e2e_test.py's arguments) [class]
"""
import json
import os
import re
import subprocess
import unittest

import e2e_test as e2e
from e2e_test import ProjectTestCase, Result, git, run, write

STANDIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                       'checks', 'standin')
STANDIN_FLAGS = ['--', '-std=c++17', '-I' + os.path.realpath(STANDIN)]

# One device-discarded-to finding (4:3, to the end of the call at 4:15) with
# a note at the use after it (5:12 to 5:13).
DISCARDED_CPP = r'''#include <torch/torch.h>

void discarded(torch::Tensor x, torch::Device device) {
  x.to(device);
  auto y = x * x;
}
'''
PLAIN_CPP = 'int main() { return 0; }\n'

SUMMARY = re.compile(r'^torch-tidy: (\d+) findings?(?: \([^)]*\))?; (\d+) files?: (\d+) cached, '
                     r'(\d+) analysed.*; (\d+) failed to compile; \d+\.\d s$')


def standin(args, cwd, **kwargs):
    return run(['--no-cache'] + args + STANDIN_FLAGS, cwd=cwd, **kwargs)


def warnings(result):
    return [l for l in result.err.splitlines()
            if l.startswith('torch-tidy: warning:')]


class UnknownNamesTest(ProjectTestCase):
    """Misspelt check names and option keys are warned about, once each,
    with the closest name torch-tidy knows."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({
            'a.cpp': PLAIN_CPP,
            'conf/b.cpp': PLAIN_CPP,
            'conf/c.cpp': PLAIN_CPP,
            'conf/.torch-tidy':
                "Checks: '-*,devcie-*'\n"
                "WarningsAsErrors: 'device-hardcode'\n"
                "CheckOptions:\n"
                "  device-factory-without-device.Strictt: true\n"
                "  device-mismatch.Strict: true\n"
                "  device-factory-without-device.Strict: true\n"})

    def test_flags(self):
        r = standin(['--checks=devcie-*,-device-foo,-device-hardcode,'
                     'device-*,-device-mismatch,clang-diagnostic-unused',
                     '--warnings-as-errors=trainig-*', 'a.cpp'], self.root)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(warnings(r), [
            "torch-tidy: warning: --checks: 'devcie-*' matches no check; "
            "did you mean 'device-*'?",
            "torch-tidy: warning: --checks: unknown check '-device-foo'",
            "torch-tidy: warning: --checks: unknown check '-device-hardcode'; "
            "did you mean '-device-hardcoded'?",
            "torch-tidy: warning: --warnings-as-errors: 'trainig-*' matches "
            "no check; did you mean 'training-*'?"], r)

    def test_known_names_are_quiet(self):
        r = standin(['--checks=-*,device-*,training-missing-zero-grad',
                     "--config={CheckOptions: "
                     "{device-factory-without-device.Strict: true}}",
                     'a.cpp'], self.root)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(warnings(r), [], r)

    def test_config_file_once_for_all_its_files(self):
        r = standin(['conf/b.cpp', 'conf/c.cpp'], self.root)
        self.assertEqual(r.code, 0, r)
        conf = self.paths['conf/.torch-tidy']
        self.assertEqual(warnings(r), [
            "torch-tidy: warning: %s: Checks: 'devcie-*' matches no check; "
            "did you mean 'device-*'?" % conf,
            "torch-tidy: warning: %s: WarningsAsErrors: unknown check "
            "'device-hardcode'; did you mean 'device-hardcoded'?" % conf,
            "torch-tidy: warning: %s: CheckOptions: unknown option "
            "'device-factory-without-device.Strictt'; did you mean "
            "'device-factory-without-device.Strict'?" % conf,
            # The right option on another check.
            "torch-tidy: warning: %s: CheckOptions: unknown option "
            "'device-mismatch.Strict'; did you mean "
            "'device-factory-without-device.Strict'?" % conf], r)

    def test_config_flag(self):
        r = standin(["--config={Checks: 'device-mismatc'}", 'a.cpp'], self.root)
        self.assertEqual(warnings(r), [
            "torch-tidy: warning: --config: Checks: unknown check "
            "'device-mismatc'; did you mean 'device-mismatch'?"], r)


class BadConfigurationTest(ProjectTestCase):
    """A .torch-tidy that does not parse stops the run with one line."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'src/a.cpp': PLAIN_CPP,
                              'src/.torch-tidy': "Checks: [unclosed\n"})

    def assertOneLineError(self, result, expected):
        self.assertNotEqual(result.code, 0, result)
        self.assertEqual(result.err.splitlines(), [expected], result)
        self.assertEqual(result.out, '', result)

    def test_yaml_error_is_one_line_and_fails(self):
        self.assertOneLineError(
            standin(['src/a.cpp'], self.root),
            'torch-tidy: error: %s:1:18: Could not find closing ]!' %
            self.paths['src/.torch-tidy'])

    def test_list_checks_reads_it_too(self):
        self.assertOneLineError(
            run(['--list-checks', 'src/a.cpp'], cwd=self.root),
            'torch-tidy: error: %s:1:18: Could not find closing ]!' %
            self.paths['src/.torch-tidy'])


class InputFilesTest(ProjectTestCase):
    """An unknown --format, and files that are not C, C++ or CUDA."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'a.cpp': PLAIN_CPP, 'b.cc': PLAIN_CPP,
                              'k.cu': PLAIN_CPP,
                              't.py': 'print(1)\n', 'notes.txt': 'notes\n'})

    def test_unknown_format_lists_the_values(self):
        r = standin(['--format=xml', 'a.cpp'], self.root)
        self.assertEqual(r.code, 1, r)
        self.assertEqual(r.err.splitlines(), [
            "torch-tidy: error: unknown --format 'xml'; valid values: text, "
            "json, jsonl, sarif"], r)

    def test_other_files_are_skipped_with_one_line_each(self):
        r = standin(['t.py', 'a.cpp', 'notes.txt', 'b.cc'], self.root)
        self.assertEqual(r.code, 0, r)
        lines = r.err.splitlines()
        self.assertEqual(lines[:2], [
            "torch-tidy: skipping 't.py': not a C, C++ or CUDA source",
            "torch-tidy: skipping 'notes.txt': not a C, C++ or CUDA source"], r)
        self.assertEqual(SUMMARY.match(lines[-1]).group(2), '2', r)
        self.assertEqual(len(lines), 3, r)

    def test_cuda_is_analysed(self):
        r = standin(['k.cu'], self.root)
        self.assertNotIn('skipping', r.err, r)
        summary = SUMMARY.match(r.err.splitlines()[-1])
        self.assertEqual(summary.group(4), '1', r)  # analysed

    def test_nothing_left_is_an_error(self):
        r = standin(['t.py', 'notes.txt'], self.root)
        self.assertEqual(r.code, 1, r)
        self.assertEqual(r.err.splitlines()[-1], 'torch-tidy: error: no C, C++ '
                         'or CUDA source among the files given', r)
        self.assertEqual(len(r.err.splitlines()), 3, r)


class DiffFromSubdirectoryTest(ProjectTestCase):
    """--diff-file=- run from a subdirectory reads git's paths from the root
    of the work tree, as --diff does."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'src/a.cpp': PLAIN_CPP})
        git(cls.root, 'init', '-q')
        git(cls.root, 'add', 'src/a.cpp')
        git(cls.root, 'commit', '-q', '-m', 'plain')
        write(cls.paths['src/a.cpp'], DISCARDED_CPP)
        cls.patch = git(cls.root, 'diff', '-U0')

    def test_the_changed_lines_count(self):
        sub = os.path.join(self.root, 'src')
        r = Result(subprocess.run(
            [e2e.ARGS.torch_tidy, '--no-cache', '--format=json',
             '--diff-file=-', 'a.cpp'] + STANDIN_FLAGS,
            cwd=sub, input=self.patch, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True))
        self.assertEqual(r.code, 0, r)
        found = [(f['file'], f['line'], f['check']) for f in json.loads(r.out)]
        self.assertIn((self.paths['src/a.cpp'], 4, 'device-discarded-to'),
                      found, r)
        self.assertNotIn('not shown', r.err, r)


class JsonOutputTest(ProjectTestCase):
    """--format=json (an array) and --format=jsonl (a line per finding), with
    the end of each finding's and note's range."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'a.cpp': DISCARDED_CPP, 'b.cpp': DISCARDED_CPP})
        checks = '--checks=-*,device-discarded-to'
        cls.json = standin([checks, '--format=json', 'a.cpp', 'b.cpp'], cls.root)
        cls.jsonl = standin([checks, '--format=jsonl', 'a.cpp', 'b.cpp'],
                            cls.root)

    def test_end_line_and_column(self):
        self.assertEqual(self.json.code, 0, self.json)
        items = json.loads(self.json.out)
        self.assertEqual(len(items), 2, self.json)
        for item in items:
            self.assertEqual((item['line'], item['column'], item['end_line'],
                              item['end_column']), (4, 3, 4, 15), item)
            [note] = item['notes']
            self.assertEqual((note['line'], note['column'], note['end_line'],
                              note['end_column']), (5, 12, 5, 13), note)

    def test_json_lines_are_the_arrays_objects(self):
        self.assertEqual(self.jsonl.code, 0, self.jsonl)
        lines = self.jsonl.out.splitlines()
        self.assertEqual([json.loads(l) for l in lines],
                         json.loads(self.json.out), self.jsonl)


class SummaryTest(ProjectTestCase):
    """--help names both groups of rules; every run ends with one summary
    line on stderr, a single file's too, unless --quiet."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'a.cpp': DISCARDED_CPP, 'bad.cpp': 'int x = y;\n'})

    def test_help_names_both_groups(self):
        r = run(['--help'])
        self.assertEqual(r.code, 0, r)
        overview = r.out.split('USAGE:')[0]
        self.assertIn('device-*', overview)
        self.assertIn('training-*', overview)

    def test_single_file_run_ends_with_the_summary(self):
        r = standin(['a.cpp'], self.root)
        self.assertEqual(r.code, 0, r)
        last = SUMMARY.match(r.err.splitlines()[-1])
        self.assertTrue(last, r)
        self.assertEqual(last.groups(), ('1', '1', '0', '1', '0'), r)

    def test_summary_after_the_error_line_counts_the_failed_file(self):
        r = standin(['a.cpp', 'bad.cpp'], self.root)
        self.assertEqual(r.code, 1, r)
        lines = r.err.splitlines()
        self.assertIn('torch-tidy: error: compiler errors', lines[-2], r)
        self.assertEqual(SUMMARY.match(lines[-1]).groups()[1:],
                         ('2', '0', '2', '1'), r)

    def test_quiet_has_none(self):
        r = standin(['--quiet', 'a.cpp'], self.root)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(r.err, '', r)


def main():
    rest = e2e.parse_arguments(__doc__)
    unittest.main(argv=[os.path.basename(__file__)] + rest, verbosity=2)


if __name__ == '__main__':
    main()
