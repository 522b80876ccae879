#!/usr/bin/env python3
"""Protocol tests of `torch-tidy --lsp`, over stdio, as a client would talk.

Each test class starts one server on a small project in a temporary
directory. The project's sources include the stand-in <torch/torch.h>
(test/checks/standin: LibTorch's names, parsed in milliseconds), so that the
protocol is tested without LibTorch's 12 s parse; the Neovim test
(neovim_test.py) runs the real headers. Waits are generous and fail with a
message naming what did not arrive; nothing here measures time.

  protocol_test.py --torch-tidy BIN --standin DIR [unittest args, e.g. a class]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'e2e'))
from lsp_client import LspClient, file_uri  # noqa: E402
from e2e_test import read, write  # noqa: E402

ARGS = None
WAIT = 120  # seconds, for one analysis on a loaded machine

A_CPP = r'''#include <torch/torch.h>
#include "util.h"

torch::Tensor discarded(torch::Tensor image, torch::Device device) {
  image.to(device);
  return image + image;
}

torch::Tensor accumulate(torch::Tensor loss) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto total = torch::zeros({1});
  total += loss.to(device);
  return total;
}
'''
# (0-based line, check) of A_CPP's findings.
A_FINDINGS = [(4, 'device-discarded-to'), (10, 'device-factory-without-device')]

UTIL_H = r'''#pragma once
#include <torch/torch.h>

inline torch::Tensor helper(torch::Tensor x, torch::Device device) {
  x.to(device);
  return x;
}
'''
# An availability check in a project header that --header-filter does not
# show: the checks do not walk it, yet device-hardcoded sees it, on the
# command line as in the server.
AVAIL_H = r'''#pragma once
#include <torch/torch.h>

inline torch::Device pickDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}
'''
CHECKED_CPP = r'''#include <torch/torch.h>
#include "avail.h"

torch::Tensor toGpu(torch::Tensor x) { return x.to(torch::kCUDA); }
'''
UNCHECKED_CPP = CHECKED_CPP.replace('#include "avail.h"\n', '')
BROKEN_CPP = 'int main() { return undeclared_name; }\n'
CRASH_CPP = '#include <torch/torch.h>\nint x;\n#pragma clang __debug crash\n'
# A body long enough that its parse is still going on when the next edit
# arrives.
LONG_CPP = '#include <torch/torch.h>\n' + ''.join(
    'torch::Tensor f%d(torch::Tensor x) { return x + x; }\n' % i
    for i in range(20000))
SHORT_CPP = '#include <torch/torch.h>\nvoid g(torch::Tensor x, torch::Device d) { x.to(d); }\n'


def make_project(root):
    """src/*.cpp, src/util.h and build/compile_commands.json under root."""
    sources = {'a.cpp': A_CPP, 'broken.cpp': BROKEN_CPP, 'crash.cpp': CRASH_CPP,
               'long.cpp': LONG_CPP, 'short.cpp': SHORT_CPP,
               'checked.cpp': CHECKED_CPP, 'unchecked.cpp': UNCHECKED_CPP}
    paths = {name: write(os.path.join(root, 'src', name), text)
             for name, text in sources.items()}
    paths['util.h'] = write(os.path.join(root, 'src', 'util.h'), UTIL_H)
    paths['avail.h'] = write(os.path.join(root, 'src', 'avail.h'), AVAIL_H)
    build = os.path.join(root, 'build')
    entries = [{'directory': build, 'file': '../src/' + name,
                'arguments': ['clang++', '-std=c++17', '-I', ARGS.standin,
                              '-c', '../src/' + name]}
               for name in sorted(sources)]
    write(os.path.join(build, 'compile_commands.json'), json.dumps(entries))
    return paths


def findings(diagnostics):
    return sorted((d['range']['start']['line'], d['code']) for d in diagnostics)


def apply_edits(text, edits):
    """Applies LSP TextEdits (UTF-16 positions; ASCII text here)."""
    lines = text.split('\n')

    def offset(pos):
        return sum(len(l) + 1 for l in lines[:pos['line']]) + pos['character']
    for edit in sorted(edits, key=lambda e: offset(e['range']['start']),
                       reverse=True):
        start, end = offset(edit['range']['start']), offset(edit['range']['end'])
        text = text[:start] + edit['newText'] + text[end:]
    return text


class ServerTestCase(unittest.TestCase):
    """A project and a server; the server's log is printed when a test fails."""
    server_args = ['--lsp-debounce=0']
    capabilities = None

    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix='torch-tidy-lsp-')
        cls.paths = make_project(cls.root)
        cls.log = os.path.join(cls.root, 'server.log')
        cls.client = LspClient([ARGS.torch_tidy, '--lsp'] + cls.server_args,
                               cwd=cls.root, stderr_path=cls.log)
        cls.init = cls.client.initialize(cls.root, cls.capabilities)
        cls.versions = {}

    @classmethod
    def tearDownClass(cls):
        cls.client.kill()
        shutil.rmtree(cls.root, ignore_errors=True)

    def run(self, result=None):
        failures = len(result.failures) + len(result.errors) if result else 0
        super().run(result)
        if result and len(result.failures) + len(result.errors) > failures:
            sys.stderr.write('--- server log ---\n%s\n' % read(self.log)[-6000:])

    def open(self, name, text=None):
        path = self.paths.get(name) or name
        text = read(path) if text is None else text
        self.versions[path] = 1
        self.client.notify('textDocument/didOpen', {'textDocument': {
            'uri': file_uri(path), 'languageId': 'cpp', 'version': 1,
            'text': text}})
        return path

    def change(self, path, text):
        self.versions[path] += 1
        self.client.notify('textDocument/didChange', {
            'textDocument': {'uri': file_uri(path), 'version': self.versions[path]},
            'contentChanges': [{'text': text}]})
        return self.versions[path]

    def diagnostics(self, path, version=None):
        version = version or self.versions[path]
        return self.client.wait_published(file_uri(path), version, WAIT)['diagnostics']


class PushTest(ServerTestCase):
    """A client that takes pushed diagnostics (as Neovim)."""

    def test_capabilities(self):
        caps = self.init['result']['capabilities']
        self.assertEqual(caps['textDocumentSync']['change'], 2)
        self.assertEqual(caps['codeActionProvider']['codeActionKinds'], ['quickfix'])
        self.assertEqual(caps['positionEncoding'], 'utf-16')
        self.assertEqual(self.init['result']['serverInfo']['name'], 'torch-tidy')

    def test_findings_with_notes_and_progress(self):
        path = self.open('a.cpp')
        diags = self.diagnostics(path)
        self.assertEqual(findings(diags), A_FINDINGS)
        factory = [d for d in diags if d['code'] == 'device-factory-without-device'][0]
        self.assertEqual(factory['severity'], 1, 'a bug is an error')
        self.assertEqual(factory['range'], {'start': {'line': 10, 'character': 15},
                                            'end': {'line': 10, 'character': 32}})
        notes = factory['relatedInformation']
        self.assertIn('it meets', notes[0]['message'])
        self.assertEqual(notes[0]['location']['uri'], file_uri(path))
        # The first parse reported its progress, begun and ended.
        kinds = self.client.wait_for(
            lambda ms: [m['params']['value']['kind'] for m in ms
                        if m.get('method') == '$/progress'] or None,
            WAIT, '$/progress')
        self.client.wait_for(
            lambda ms: 'end' in [m['params']['value']['kind'] for m in ms
                                 if m.get('method') == '$/progress'],
            WAIT, "$/progress 'end'")
        self.assertEqual(kinds[0], 'begin')
        created = [r for r in self.client.server_requests
                   if r['method'] == 'window/workDoneProgress/create']
        self.assertTrue(created)

    def test_the_findings_are_the_command_lines(self):
        expected = {'a.cpp': A_FINDINGS, 'checked.cpp': [],
                    'unchecked.cpp': [(2, 'device-hardcoded')]}
        for name, findings_expected in expected.items():
            path = self.open(name)
            served = findings(self.diagnostics(path))
            run = subprocess.run(
                [ARGS.torch_tidy, '--no-cache', '-p', os.path.join(self.root, 'build'),
                 path, '--format=json'], stdout=subprocess.PIPE, text=True)
            command_line = sorted((f['line'] - 1, f['check'])
                                  for f in json.loads(run.stdout) if f['file'] == path)
            self.assertEqual(served, command_line, name)
            self.assertEqual(served, findings_expected, name)

    def test_unsaved_edits_add_and_remove_a_finding(self):
        path = self.open('short.cpp')
        self.assertEqual(findings(self.diagnostics(path)), [(1, 'device-discarded-to')])
        buggy = SHORT_CPP + 'void h(torch::Tensor y, torch::Device d) { y.to(d); }\n'
        self.change(path, buggy)
        self.assertEqual(findings(self.diagnostics(path)),
                         [(1, 'device-discarded-to'), (2, 'device-discarded-to')])
        self.change(path, SHORT_CPP)
        self.assertEqual(findings(self.diagnostics(path)), [(1, 'device-discarded-to')])
        self.assertEqual(read(path), SHORT_CPP, 'the file on disk is not touched')

    def code_actions(self, path, line):
        position = {'line': line, 'character': 0}
        response = self.client.request('textDocument/codeAction', {
            'textDocument': {'uri': file_uri(path)},
            'range': {'start': position, 'end': position},
            'context': {'diagnostics': []}}, WAIT)
        return response['result']

    def test_quick_fix_applied_removes_the_finding(self):
        text = read(self.paths['a.cpp'])
        path = self.open(os.path.join(self.root, 'src', 'a_copy.cpp'), text)
        self.assertEqual(findings(self.diagnostics(path)), A_FINDINGS)
        actions = self.code_actions(path, 10)
        titles = [a['title'] for a in actions]
        self.assertEqual(titles, [
            "device-factory-without-device: insert ', torch::device(device)'",
            'suppress with NOLINTNEXTLINE(device-factory-without-device)'], actions)
        self.assertTrue(actions[0]['isPreferred'])
        fixed = apply_edits(text, actions[0]['edit']['changes'][file_uri(path)])
        self.assertIn('torch::zeros({1}, torch::device(device));', fixed)
        self.change(path, fixed)
        self.assertEqual(findings(self.diagnostics(path)), [(4, 'device-discarded-to')])
        suppress = self.code_actions(path, 4)[-1]
        self.assertEqual(suppress['title'], 'suppress with NOLINTNEXTLINE(device-discarded-to)')
        silenced = apply_edits(fixed, suppress['edit']['changes'][file_uri(path)])
        self.assertIn('  // NOLINTNEXTLINE(device-discarded-to)\n  image.to(device);', silenced)
        self.change(path, silenced)
        self.assertEqual(findings(self.diagnostics(path)), [])

    def test_a_file_that_does_not_compile(self):
        path = self.open('broken.cpp')
        diags = self.diagnostics(path)
        self.assertEqual(findings(diags), [(0, 'clang-diagnostic-error')])
        self.assertEqual(diags[0]['severity'], 1)
        self.assertIn("undeclared identifier 'undeclared_name'", diags[0]['message'])

    def test_a_crash_costs_its_file_only(self):
        path = self.open('crash.cpp')
        diags = self.diagnostics(path)
        self.assertEqual(findings(diags), [(0, 'torch-tidy-crash')], diags)
        self.assertIn('torch-tidy crashed analysing this file', diags[0]['message'])
        # The server goes on: the same text is not analysed again, an edit is.
        other = self.open(os.path.join(self.root, 'src', 'after_crash.cpp'), SHORT_CPP)
        self.assertEqual(findings(self.diagnostics(other)), [(1, 'device-discarded-to')])
        self.change(path, SHORT_CPP)
        self.assertEqual(findings(self.diagnostics(path)), [(1, 'device-discarded-to')])

    def test_a_header_borrows_the_command_of_its_includer(self):
        path = self.open('util.h')
        self.assertEqual(findings(self.diagnostics(path)), [(4, 'device-discarded-to')])

    def test_a_file_without_a_compile_command_says_so(self):
        lonely = tempfile.mkdtemp(prefix='torch-tidy-lsp-lonely-')
        try:
            path = self.open(write(os.path.join(lonely, 'lonely.cpp'), SHORT_CPP))
            diags = self.diagnostics(path)
            self.assertEqual(findings(diags), [(0, 'torch-tidy-no-compile-command')])
            self.assertIn('no compile_commands.json', diags[0]['message'])
            self.assertEqual(self.code_actions(path, 0), [])
        finally:
            shutil.rmtree(lonely)

    def test_a_stale_analysis_is_never_shown(self):
        path = self.open('long.cpp')
        # The progress of its first parse: the analysis of version 1 is under
        # way when the next edit arrives.
        self.client.wait_for(
            lambda ms: any(m.get('method') == '$/progress' and
                           m['params']['value']['kind'] == 'begin' and
                           'long.cpp' in m['params']['value']['title'] for m in ms),
            WAIT, "the progress of long.cpp's first parse")
        self.change(path, SHORT_CPP)
        self.assertEqual(findings(self.diagnostics(path, 2)), [(1, 'device-discarded-to')])
        published = [m['params']['version'] for m in
                     (n for _, n in self.client.notifications)
                     if m.get('method') == 'textDocument/publishDiagnostics' and
                     m['params']['uri'] == file_uri(path)]
        self.assertEqual(published, [2])

    def test_a_burst_of_edits_is_analysed_once_at_its_end(self):
        path = self.open(os.path.join(self.root, 'src', 'burst.cpp'), SHORT_CPP)
        self.diagnostics(path)
        for i in range(20):
            self.change(path, SHORT_CPP + '// edit %d\n' % i)
        last = self.versions[path]
        self.assertEqual(findings(self.diagnostics(path, last)), [(1, 'device-discarded-to')])
        time.sleep(1)  # nothing older arrives after the newest
        published = [m['params']['version'] for m in
                     (n for _, n in self.client.notifications)
                     if m.get('method') == 'textDocument/publishDiagnostics' and
                     m['params']['uri'] == file_uri(path)]
        self.assertEqual(published[-1], last)
        self.assertEqual(published, sorted(published))

    def test_closing_clears_the_diagnostics(self):
        path = self.open(os.path.join(self.root, 'src', 'closed.cpp'), SHORT_CPP)
        self.assertTrue(self.diagnostics(path))
        self.client.notify('textDocument/didClose', {'textDocument': {'uri': file_uri(path)}})
        self.client.wait_for(
            lambda ms: [m for m in ms if m.get('method') == 'textDocument/publishDiagnostics'
                        and m['params']['uri'] == file_uri(path)][-1]['params']['diagnostics'] == [],
            WAIT, 'empty diagnostics after didClose')


class PullTest(ServerTestCase):
    """A client that pulls diagnostics (as VS Code), in UTF-8 positions."""
    server_args = ['--lsp-debounce=3000']
    capabilities = {'textDocument': {'diagnostic': {'dynamicRegistration': False}},
                    'general': {'positionEncodings': ['utf-8', 'utf-16']}}

    def pull(self, path, previous=None, timeout=WAIT):
        params = {'textDocument': {'uri': file_uri(path)}}
        if previous:
            params['previousResultId'] = previous
        return self.client.request('textDocument/diagnostic', params, timeout)

    def test_pull_waits_for_the_analysis_then_reports_unchanged(self):
        path = self.open('short.cpp')
        report = self.pull(path)['result']
        self.assertEqual(report['kind'], 'full')
        self.assertEqual(findings(report['items']), [(1, 'device-discarded-to')])
        again = self.pull(path, report['resultId'])['result']
        self.assertEqual(again, {'kind': 'unchanged', 'resultId': report['resultId']})
        self.change(path, '// é\n' + SHORT_CPP)
        after = self.pull(path, report['resultId'])['result']
        self.assertEqual(after['kind'], 'full')
        self.assertEqual(findings(after['items']), [(2, 'device-discarded-to')])
        self.assertNotIn('textDocument/publishDiagnostics',
                         [m.get('method') for _, m in self.client.notifications])

    def test_positions_in_utf8(self):
        self.assertEqual(self.init['result']['capabilities']['positionEncoding'], 'utf-8')
        path = self.open(os.path.join(self.root, 'src', 'accents.cpp'),
                         SHORT_CPP.replace('void g(', '/* é */ void g('))
        item = self.pull(path)['result']['items'][0]
        # 'x.to(d)' follows "/* é */ " (9 bytes, 8 UTF-16 units) on its line.
        self.assertEqual(item['range']['start'],
                         {'line': 1, 'character': SHORT_CPP.split('\n')[1].index('x.to') + 9})

    def test_a_cancelled_pull_gets_request_cancelled(self):
        path = self.open(os.path.join(self.root, 'src', 'cancel.cpp'), SHORT_CPP)
        self.pull(path)
        self.change(path, SHORT_CPP + '\n')
        # Its analysis waits 3 s for more edits: the pull is pending.
        pending = self.client.request_async('textDocument/diagnostic',
                                            {'textDocument': {'uri': file_uri(path)}})
        self.client.notify('$/cancelRequest', {'id': pending})
        response = self.client.response(pending, WAIT)
        self.assertEqual(response['error']['code'], -32800, response)
        # The server goes on.
        self.assertEqual(self.pull(path)['result']['kind'], 'full')


class ConfigTest(ServerTestCase):
    """The configuration is read again when the client says so."""

    def test_a_changed_torch_tidy_file_reanalyses_open_files(self):
        path = self.open('a.cpp')
        self.assertEqual(findings(self.diagnostics(path)), A_FINDINGS)
        before = len(self.client.notifications)
        config = write(os.path.join(self.root, '.torch-tidy'),
                       "Checks: '-*,device-factory-without-device'\n")
        self.client.notify('workspace/didChangeConfiguration', {'settings': {}})
        self.client.wait_for(
            lambda ms: any(m.get('method') == 'textDocument/publishDiagnostics'
                           and findings(m['params']['diagnostics']) == A_FINDINGS[1:]
                           for m in ms[before:]),
            WAIT, 'the diagnostics under the new configuration')
        # An unsaved .torch-tidy open in the editor counts too.
        before = len(self.client.notifications)
        self.client.notify('textDocument/didOpen', {'textDocument': {
            'uri': file_uri(config), 'languageId': 'yaml', 'version': 1,
            'text': "Checks: '-*,device-discarded-to'\n"}})
        self.client.wait_for(
            lambda ms: any(m.get('method') == 'textDocument/publishDiagnostics'
                           and findings(m['params']['diagnostics']) == A_FINDINGS[:1]
                           for m in ms[before:]),
            WAIT, "the diagnostics under the editor's .torch-tidy")

    def test_a_compile_database_written_later_is_used(self):
        # Outside the project, whose .torch-tidy the other test changes.
        lonely = tempfile.mkdtemp(prefix='torch-tidy-lsp-lonely-')
        self.addCleanup(shutil.rmtree, lonely, True)
        path = self.open(write(os.path.join(lonely, 'lonely.cpp'), SHORT_CPP))
        self.assertEqual(findings(self.diagnostics(path)),
                         [(0, 'torch-tidy-no-compile-command')])
        database = write(os.path.join(lonely, 'compile_commands.json'), json.dumps([{
            'directory': lonely, 'file': 'lonely.cpp',
            'arguments': ['clang++', '-std=c++17', '-I', ARGS.standin, '-c',
                          'lonely.cpp']}]))
        before = len(self.client.notifications)
        self.client.notify('workspace/didChangeWatchedFiles', {'changes': [
            {'uri': file_uri(database), 'type': 1}]})
        self.client.wait_for(
            lambda ms: any(m.get('method') == 'textDocument/publishDiagnostics'
                           and m['params']['uri'] == file_uri(path)
                           and findings(m['params']['diagnostics']) ==
                           [(1, 'device-discarded-to')] for m in ms[before:]),
            WAIT, 'the diagnostics with the new compile database')


class VerdictsTest(ServerTestCase):
    """--verdicts: what the probe said shows in the message."""

    @classmethod
    def setUpClass(cls):
        cls.verdicts = os.path.join(tempfile.mkdtemp(prefix='torch-tidy-verdicts-'),
                                    'verdicts.json')
        write(cls.verdicts, json.dumps({
            'format': 'torch-tidy-verdicts', 'version': 1, 'verdicts': [{
                'id': 'src/a.cpp:11:16:device-factory-without-device',
                'verdict': 'confirmed', 'device': 'cuda:0 NVIDIA H200',
                'message': 'Expected all tensors to be on the same device'}, {
                'id': 'src/a.cpp:5:3:device-discarded-to',
                'verdict': 'not-reproduced', 'device': 'cuda:0 NVIDIA H200',
                'message': 'ran clean'}]}))
        cls.server_args = ['--lsp-debounce=0', '--verdicts=' + cls.verdicts]
        super().setUpClass()

    def test_verdicts_in_messages(self):
        diags = {d['code']: d for d in self.diagnostics(self.open('a.cpp'))}
        factory = diags['device-factory-without-device']
        self.assertTrue(factory['message'].endswith(
            ' confirmed on cuda:0 NVIDIA H200: Expected all tensors to be on the same device'),
            factory['message'])
        discarded = diags['device-discarded-to']
        self.assertIn('not-reproduced on cuda:0 NVIDIA H200: ran clean', discarded['message'])
        self.assertEqual(discarded['severity'], 4, 'not reproduced: a hint')


class LifecycleTest(unittest.TestCase):
    """Bad input gets JSON-RPC errors and the server goes on; exit codes."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix='torch-tidy-lsp-')
        self.log = os.path.join(self.root, 'server.log')
        self.client = LspClient([ARGS.torch_tidy, '--lsp'], cwd=self.root,
                                stderr_path=self.log)

    def tearDown(self):
        self.client.kill()
        shutil.rmtree(self.root, ignore_errors=True)

    def error_of(self, response):
        self.assertIn('error', response)
        return response['error']['code']

    def test_bad_messages_get_errors_and_the_server_goes_on(self):
        early = self.client.request('textDocument/codeAction', {})
        self.assertEqual(self.error_of(early), -32002)  # not initialized
        self.client.initialize(self.root)
        self.client.send_raw('{"jsonrpc": "2.0", "id": 7, "method": ')  # cut short
        self.client.proc.stdin.write(b'Content-Length: many\r\n\r\n')
        self.client.proc.stdin.flush()
        self.client.send({'id': 8, 'method': 'shutdown'})  # no "jsonrpc"
        unknown = self.client.request('textDocument/hover', {})
        self.assertEqual(self.error_of(unknown), -32601)
        invalid = self.client.request('textDocument/codeAction', {'range': 3})
        self.assertEqual(self.error_of(invalid), -32602)
        remote = self.client.request('textDocument/diagnostic', {
            'textDocument': {'uri': 'https://example.com/a.cpp'}})
        self.assertEqual(self.error_of(remote), -32602)
        with self.client.cond:
            nulls = [m for m in self.client.responses.values() if m.get('id') is None]
            self.client.responses.pop(None, None)
        self.assertEqual(self.error_of(self.client.response(8)), -32600)
        self.assertTrue(nulls, 'parse errors are answered with id null')
        self.assertEqual(nulls[0]['error']['code'], -32700)
        # Still serving, and a clean exit after shutdown.
        response, status = self.client.shutdown()
        self.assertEqual(response['result'], None)
        self.assertEqual(status, 0)

    def test_exit_without_shutdown_is_status_1(self):
        self.client.initialize(self.root)
        self.client.notify('exit', None)
        self.assertEqual(self.client.proc.wait(60), 1)

    def test_requests_after_shutdown_are_refused(self):
        self.client.initialize(self.root)
        self.assertEqual(self.client.request('shutdown', None)['result'], None)
        late = self.client.request('textDocument/codeAction', {})
        self.assertEqual(self.error_of(late), -32600)
        self.client.notify('exit', None)
        self.assertEqual(self.client.proc.wait(60), 0)

    def test_unreadable_verdicts_fail_before_serving(self):
        self.client.kill()
        proc = subprocess.run([ARGS.torch_tidy, '--lsp', '--verdicts=' +
                               os.path.join(self.root, 'missing.json')],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
        self.assertEqual(proc.returncode, 1)
        errors = [l for l in proc.stderr.splitlines() if l.startswith('torch-tidy: error:')]
        self.assertEqual(len(errors), 1, proc.stderr)
        self.assertIn('missing.json', errors[0])


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument('--torch-tidy', required=True)
    parser.add_argument('--standin', required=True)
    ARGS, rest = parser.parse_known_args()
    ARGS.standin = os.path.abspath(ARGS.standin)
    ARGS.torch_tidy = os.path.abspath(ARGS.torch_tidy)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == '__main__':
    main()
