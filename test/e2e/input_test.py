#!/usr/bin/env python3
"""End-to-end tests of what the command line accepts and says, on the
stand-in <torch/torch.h> (test/checks/standin), which parses in milliseconds:
misspelt checks and options, a broken .torch-tidy, an unknown --format, files
that are not C, C++ or CUDA, --diff-file from a subdirectory, the JSON formats
and the run's summary line; findings and progress in a log as files finish, a
result cache that output settings do not throw away, and the installed tool.

  input_test.py --torch-tidy BIN ... (e2e_test.py's arguments) [class]
"""
import json
import os
import re
import shutil
import subprocess
import time
import unittest

import e2e_test as e2e
from e2e_test import ProjectTestCase, Result, git, read, run, write

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
            "json, jsonl, sarif, github"], r)

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
        # Streamed in a pipe, each file's lines come when the file is done.
        lines = self.jsonl.out.splitlines()
        by_place = lambda f: (f['file'], f['line'], f['column'])
        self.assertEqual(sorted((json.loads(l) for l in lines), key=by_place),
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


def standin_database(root, names):
    """compile_commands.json at root for the files names, on the stand-in."""
    write(os.path.join(root, 'compile_commands.json'), json.dumps([
        {'directory': root, 'file': os.path.join(root, n),
         'arguments': ['clang++'] + STANDIN_FLAGS[1:] + ['-c', n]}
        for n in names]))


class StreamingTest(ProjectTestCase):
    """In a log (stdout not a terminal), a file's findings are printed when
    the file is done, not when the run is; progress goes to stderr every few
    files."""

    @classmethod
    def setUpClass(cls):
        files = {'a.cpp': DISCARDED_CPP, 'z.cpp': '#include "gate.h"\n'}
        files.update({'f%02d.cpp' % i: PLAIN_CPP for i in range(12)})
        cls.paths = cls.make(files)
        cls.gate = os.path.join(cls.root, 'gate.h')
        os.mkfifo(cls.gate)

    def test_a_files_findings_come_before_the_run_ends(self):
        # z.cpp includes a named pipe: its analysis waits until the test
        # writes the header, while a.cpp, analysed first, is done.
        proc = subprocess.Popen(
            [e2e.ARGS.torch_tidy, '--no-cache', '--no-shared-pch', '-j=1',
             '--checks=-*,device-discarded-to', 'a.cpp', 'z.cpp'] + STANDIN_FLAGS,
            cwd=self.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            # The pipe has a reader once z.cpp's worker opens the header.
            while True:
                self.assertIsNone(proc.poll(), 'torch-tidy ended early')
                try:
                    writer = os.open(self.gate, os.O_WRONLY | os.O_NONBLOCK)
                    break
                except OSError:
                    time.sleep(0.05)
            os.set_blocking(proc.stdout.fileno(), False)
            so_far = (proc.stdout.read() or b'').decode()
            # The header, so that z.cpp's analysis ends, pass or fail.
            os.set_blocking(writer, True)
            os.write(writer, b'int gate;\n')
            os.close(writer)
        finally:
            out, err = proc.communicate()
        self.assertIn("a.cpp:4:3: warning: result of 'to' is discarded",
                      so_far)
        self.assertEqual(proc.returncode, 0, err)
        self.assertEqual(so_far.count('warning:') +
                         out.decode().count('warning:'), 1, out)

    def test_progress_every_few_files_in_a_log(self):
        names = sorted(n for n in self.paths if n.startswith('f'))
        r = standin(['-j=1'] + names, self.root)
        self.assertEqual(r.code, 0, r)
        lines = r.err.splitlines()
        self.assertEqual(lines[0], '[10/12] %s' % os.path.join(self.root, 'f09.cpp'), r)
        self.assertTrue(SUMMARY.match(lines[-1]), r)
        self.assertEqual(len(lines), 2, r)
        r = standin(['-j=1', '--quiet'] + names, self.root)
        self.assertEqual(r.err, '', r)

    def test_a_json_array_is_written_whole_at_the_end(self):
        r = standin(['--format=json', 'a.cpp', 'f00.cpp'], self.root)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(len(json.loads(r.out)), 1, r)


class OutputSettingsCacheTest(ProjectTestCase):
    """The result cache keys a file's analysis by what decides its findings:
    output settings (--warnings-as-errors, --format, --quiet) replay it, and
    a file keeps an entry per configuration, so alternating --checks values
    replay each other's after the first round."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'a.cpp': DISCARDED_CPP, 'b.cpp': DISCARDED_CPP})
        standin_database(cls.root, ['a.cpp', 'b.cpp'])

    def setUp(self):
        self.cache = os.path.join(self.root, 'cache-' + self._testMethodName)

    def cached(self, args):
        r = run(['-p', self.root, '--cache-dir=' + self.cache] + args,
                cwd=self.root)
        summary = SUMMARY.match(r.err.splitlines()[-1]) if r.err else None
        self.assertTrue(summary, r)
        return int(summary.group(3)), r

    def test_output_settings_replay_the_cache(self):
        self.assertEqual(self.cached([])[0], 0)
        count, r = self.cached(['--warnings-as-errors=device-*'])
        self.assertEqual(count, 2, r)
        # Replayed, the warnings are errors as asked ...
        self.assertEqual(r.code, 1, r)
        self.assertIn('a.cpp:4:3: error: ', r.out, r)
        self.assertIn('2 warnings treated as errors', r.err, r)
        # ... and not, when not asked.
        count, r = self.cached(['--format=json'])
        self.assertEqual((count, r.code), (2, 0), r)
        self.assertEqual([f['severity'] for f in json.loads(r.out)],
                         ['warning', 'warning'], r)

    def test_alternating_configurations_replay_each_other(self):
        one = ['--checks=-*,device-discarded-to']
        two = ['--checks=-*,device-mismatch']
        self.assertEqual(self.cached(one)[0], 0)
        self.assertEqual(self.cached(two)[0], 0)
        self.assertEqual(self.cached(one)[0], 2)
        self.assertEqual(self.cached(two)[0], 2)

    def test_explain_cache_names_the_changed_option(self):
        config = os.path.join(self.root, 'options-explained.yaml')
        write(config, 'CheckOptions:\n  device-sync-in-loop.ReportNecessary: false\n')
        self.cached(['--config-file=' + config])
        write(config, 'CheckOptions:\n  device-sync-in-loop.ReportNecessary: true\n')
        r = run(['-p', self.root, '--cache-dir=' + self.cache,
                 '--config-file=' + config, '--explain-cache=a.cpp', 'a.cpp'],
                cwd=self.root)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(r.out.splitlines()[0], '%s: analysed on the next run: '
                         'the check options changed: '
                         'device-sync-in-loop.ReportNecessary' % self.paths['a.cpp'], r)


class InstallTest(ProjectTestCase):
    """cmake --install puts torch-tidy, the probe, the plugin, the man page
    and the docs under a prefix; the installed torch-tidy analyses a file."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'a.cpp': DISCARDED_CPP})
        cls.prefix = os.path.join(cls.root, 'prefix')
        cls.build = os.path.dirname(os.path.dirname(os.path.abspath(e2e.ARGS.torch_tidy)))
        cls.install = Result(subprocess.run(
            ['cmake', '--install', cls.build, '--prefix', cls.prefix],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))

    def test_the_files(self):
        self.assertEqual(self.install.code, 0, self.install)
        for rel in ('bin/torch-tidy', 'lib/libTorchTidyModule.so',
                    'share/man/man1/torch-tidy.1',
                    'share/doc/torch-tidy/README.md',
                    'share/doc/torch-tidy/docs/checks/device-discarded-to.md'):
            self.assertTrue(os.path.isfile(os.path.join(self.prefix, rel)), rel)
        page = read(os.path.join(self.prefix, 'share/man/man1/torch-tidy.1'))
        self.assertTrue(page.startswith('.TH TORCH-TIDY 1'), page[:200])
        self.assertIn('--warnings-as-errors', page)

    def test_the_debian_package(self):
        if not shutil.which('cpack') or not shutil.which('dpkg-deb'):
            raise unittest.SkipTest('cpack or dpkg-deb is not installed')
        out = os.path.join(self.root, 'package')
        made = Result(subprocess.run(
            ['cpack', '-G', 'DEB', '--config',
             os.path.join(self.build, 'CPackConfig.cmake'), '-B', out],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        self.assertEqual(made.code, 0, made)
        [deb] = [f for f in os.listdir(out) if f.endswith('.deb')]
        deb = os.path.join(out, deb)
        listed = subprocess.run(['dpkg-deb', '-c', deb], stdout=subprocess.PIPE,
                                text=True, check=True).stdout
        for path in ('./usr/bin/torch-tidy', './usr/lib/libTorchTidyModule.so',
                     './usr/share/man/man1/torch-tidy.1',
                     './usr/share/doc/torch-tidy/README.md'):
            self.assertIn(' ' + path + '\n', listed)
        depends = subprocess.run(['dpkg-deb', '-f', deb, 'Depends'],
                                 stdout=subprocess.PIPE, text=True,
                                 check=True).stdout
        for package in ('libclang-cpp19', 'libllvm19', 'libclang-common-19-dev'):
            self.assertIn(package, depends)

    def test_the_installed_tool_runs(self):
        self.assertEqual(self.install.code, 0, self.install)
        tool = os.path.join(self.prefix, 'bin', 'torch-tidy')
        r = standin(['a.cpp'], self.root, tool=tool)
        self.assertEqual(r.code, 0, r)
        self.assertIn("a.cpp:4:3: warning: result of 'to' is discarded", r.out)


def main():
    rest = e2e.parse_arguments(__doc__)
    unittest.main(argv=[os.path.basename(__file__)] + rest, verbosity=2)


if __name__ == '__main__':
    main()
