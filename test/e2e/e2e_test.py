#!/usr/bin/env python3
"""End-to-end tests of the torch-tidy command line (and the clang-tidy plugin).

Each test class builds a small LibTorch project in a temporary directory, with
a compile_commands.json that uses the LibTorch precompiled header, and runs the
tool as a user would. Analysing a LibTorch file costs seconds, so each class
runs torch-tidy as few times as it can (in setUpClass) and checks several
things on each run.

  e2e_test.py --torch-tidy BIN --clang-tidy BIN --plugin SO --clang BIN \
              --pch PCH --flags "-std=c++17 -I..." [unittest args, e.g. a class]
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

ARGS = None

MAIN_CPP = r'''#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

torch::Tensor discarded(torch::Device device) {
  auto image = torch::rand({3, 4});
  image.to(device);
  return image * 2;
}

void loopCopy(std::vector<torch::Tensor> &batch, torch::Device device) {
  for (auto t : batch)
    t = t.to(device);
}

void resume(const std::string &path, torch::Device device) {
  auto net = std::make_shared<Net>();
  net->to(device);
  torch::load(net, path);
}

void silenced(torch::Tensor x, torch::Device device) {
  x.to(device); // NOLINT
  // NOLINTNEXTLINE(device-discarded-to)
  x.cuda();
  // NOLINTBEGIN(device-discarded-to)
  x.cpu();
  x.to(torch::kCUDA);
  // NOLINTEND(device-discarded-to)
}
'''

# (line, column, check) of every finding in MAIN_CPP.
MAIN_FINDINGS = [
    (11, 3, 'device-discarded-to'),
    (17, 5, 'device-loop-copy-to'),
    (23, 3, 'device-load-without-device'),
]
MAIN_MESSAGES = {
    'device-discarded-to':
        "result of 'to' is discarded: it returns a new tensor and leaves "
        "'image' unchanged, on its current device",
    'device-loop-copy-to':
        "'t' is a copy of the container's element: assigning the moved tensor "
        "to it leaves the container unchanged",
    'device-load-without-device':
        "'torch::load' without a device moves the parameters of 'net' back to "
        "the device the checkpoint was saved from, undoing its move to "
        "'device'; pass 'device' to load to",
}

# The severity of each rule (checks/Checks.def), after its name in text.
MAIN_SEVERITIES = {
    'device-discarded-to': 'bug',
    'device-loop-copy-to': 'bug',
    'device-load-without-device': 'hazard',
}


def without_severity(text):
    """Text output with `[check,<severity>` written `[check`, as stock
    clang-tidy loading the plugin writes it."""
    return re.sub(r'\[([\w-]+),(?:bug|hazard|performance)\b', r'[\1', text)

# One finding of each rule; in a directory whose .torch-tidy enables one rule.
LIMITED_CPP = r'''#include <torch/torch.h>

void limited(torch::Tensor x, std::vector<torch::Tensor> &batch,
             torch::Device device) {
  x.to(device);
  for (auto t : batch)
    t = t.to(device);
  torch::load(x, "x.pt");
}
'''
LIMITED_FINDINGS = [(5, 3, 'device-discarded-to')]

BROKEN_CPP = 'int main() { return undeclared_name; }\n'

CHECKS = ['device-discarded-to', 'device-load-without-device',
          'device-loop-copy-to']
ONLY_TESTED_CHECKS = '--checks=-*,' + ','.join(CHECKS)

WARNING_LINE = re.compile(
    r'^(?P<file>[^\n:]+):(?P<line>\d+):(?P<col>\d+): (?P<level>warning|error): '
    r'(?P<message>.*) \[(?P<check>[\w.,-]+)\]$', re.M)


def flags():
    return shlex.split(ARGS.flags) + ['-include-pch', ARGS.pch]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    return path


def read(path):
    with open(path) as f:
        return f.read()


def make_project(root, files):
    """Writes files ({relative: text}) and a compile_commands.json at root
    listing every .cpp among them. Returns {relative: absolute path}."""
    paths = {rel: write(os.path.join(root, rel), text)
             for rel, text in files.items()}
    entries = [{'directory': root, 'file': path,
                'arguments': [ARGS.clang] + flags() + ['-c', path,
                                                       '-o', '/dev/null']}
               for rel, path in sorted(paths.items()) if rel.endswith('.cpp')]
    write(os.path.join(root, 'compile_commands.json'), json.dumps(entries, indent=1))
    return paths


class Result:
    def __init__(self, proc):
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def __repr__(self):
        return 'exit %d\n--- stdout ---\n%s\n--- stderr ---\n%s' % (
            self.code, self.out, self.err)


def run(args, cwd=None, tool=None):
    proc = subprocess.run([tool or ARGS.torch_tidy] + list(args), cwd=cwd,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    return Result(proc)


def text_findings(output, checks=None):
    """[(file, line, col, check)] of the warnings and errors in text output,
    of the given checks only (default: the three rules tested here, so that
    rules added later do not break these tests)."""
    checks = CHECKS if checks is None else checks
    found = ((m['file'], int(m['line']), int(m['col']),
              m['check'].split(',')[0]) for m in WARNING_LINE.finditer(output))
    return sorted(f for f in found if checks == 'all' or f[3] in checks)


def json_findings(items):
    return sorted((i['file'], i['line'], i['column'], i['check'])
                  for i in items if i['check'] in CHECKS)


def expected(path, findings):
    return sorted((path, line, col, check) for line, col, check in findings)


class ProjectTestCase(unittest.TestCase):
    """A temporary project, removed after the class's tests."""

    @classmethod
    def make(cls, files):
        cls.root = os.path.realpath(tempfile.mkdtemp(prefix='torch-tidy-e2e-'))
        cls.addClassCleanup(shutil.rmtree, cls.root, True)
        return make_project(cls.root, files)

    def assertNoCrash(self, result):
        for sign in ('Stack dump', 'PLEASE submit', 'Segmentation fault',
                     'terminate called', 'Assertion'):
            self.assertNotIn(sign, result.out + result.err, result)
        self.assertGreaterEqual(result.code, 0, 'killed by a signal: %r' % result)


class TextOutputTest(ProjectTestCase):
    """The default run: text, exit codes, NOLINT, discovery, the plugin."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'src/main.cpp': MAIN_CPP})
        cls.main = cls.paths['src/main.cpp']
        # No -p and no '--': compile_commands.json is found above the file.
        cls.default = run([cls.main], cwd=cls.root)
        cls.strict = run([ONLY_TESTED_CHECKS, '--warnings-as-errors=device-*',
                          cls.main], cwd=cls.root)

    def test_exit_zero_with_warnings(self):
        self.assertEqual(self.default.code, 0, self.default)
        self.assertNoCrash(self.default)

    def test_database_is_discovered_above_the_file(self):
        self.assertNotIn('no compile_commands.json', self.default.err)
        self.assertNotIn('error:', self.default.out, self.default)

    def test_findings_and_messages(self):
        self.assertEqual(text_findings(self.default.out),
                         expected(self.main, MAIN_FINDINGS), self.default)
        for line, col, check in MAIN_FINDINGS:
            self.assertIn('%s:%d:%d: warning: %s [%s,%s]\n' % (
                self.main, line, col, MAIN_MESSAGES[check], check,
                MAIN_SEVERITIES[check]), self.default.out)

    def test_source_line_and_caret_follow_each_warning(self):
        lines = self.default.out.splitlines()
        source = MAIN_CPP.splitlines()
        for line, col, check in MAIN_FINDINGS:
            header = '%s:%d:%d: warning: %s [%s,%s]' % (
                self.main, line, col, MAIN_MESSAGES[check], check,
                MAIN_SEVERITIES[check])
            at = lines.index(header)
            # clang 19 prints '   11 |   image.to(device);' and the caret below.
            self.assertTrue(lines[at + 1].endswith('| ' + source[line - 1]),
                            lines[at + 1])
            caret = lines[at + 2].split('|', 1)[1]
            self.assertEqual(caret.index('^'), col, repr(caret))

    def test_notes(self):
        self.assertIn('%s:12:10: note: \'image\' is used here, still where it '
                      'was before the discarded \'to\'' % self.main,
                      self.default.out)
        self.assertIn('%s:16:13: note: \'t\' is declared here as a copy' %
                      self.main, self.default.out)

    def test_nolint_forms_silence_their_lines(self):
        found_lines = {line for _, line, _, _ in text_findings(self.default.out)}
        for line in (27, 29, 31, 32):  # NOLINT, NEXTLINE, BEGIN..END
            self.assertNotIn(line, found_lines)

    def test_warnings_as_errors(self):
        self.assertEqual(self.strict.code, 1, self.strict)
        self.assertIn('warnings-as-errors', self.strict.out)
        self.assertIn('%s:11:3: error: ' % self.main, self.strict.out)
        self.assertIn('3 warnings treated as errors', self.strict.err)
        self.assertNoCrash(self.strict)

    def test_plugin_reports_the_same_warnings(self):
        plugin = run(['--load=' + ARGS.plugin, '--checks=-*,device-*',
                      self.main, '--'] + flags(),
                     cwd=self.root, tool=ARGS.clang_tidy)
        self.assertNoCrash(plugin)
        self.assertEqual(plugin.code, 0, plugin)
        self.assertEqual(text_findings(plugin.out, 'all'),
                         text_findings(self.default.out, 'all'), plugin)
        # The messages too, word for word (clang-tidy writes no severity).
        self.assertEqual(
            sorted(m.group(0) for m in WARNING_LINE.finditer(plugin.out)),
            sorted(m.group(0) for m in WARNING_LINE.finditer(
                without_severity(self.default.out))))


class ProjectTest(ProjectTestCase):
    """-p without files, JSON, SARIF to a file, -j, configuration files."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({
            'src/main.cpp': MAIN_CPP,
            'src/limited/limited.cpp': LIMITED_CPP,
            'src/limited/.torch-tidy': "Checks: '-*,device-discarded-to'\n",
            # Another tool's configuration: it must not switch our rules off.
            '.clang-tidy': "Checks: '-*'\n",
        })
        cls.main = cls.paths['src/main.cpp']
        cls.limited = cls.paths['src/limited/limited.cpp']
        cls.sarif_path = os.path.join(cls.root, 'out', 'report.sarif')
        os.makedirs(os.path.dirname(cls.sarif_path))
        # Every entry of the database, one at a time, as JSON.
        cls.json_run = run(['-p', cls.root, '--format=json', '-j', '1'],
                           cwd=cls.root)
        # The same two files, two at a time, as SARIF into a file.
        cls.sarif_run = run(['-p', '.', '-j', '2', '--format=sarif',
                             '--output=' + cls.sarif_path,
                             'src/main.cpp', 'src/limited/limited.cpp'],
                            cwd=cls.root)

    def setUp(self):
        self.assertEqual(self.json_run.code, 0, self.json_run)

    def items(self):
        return json.loads(self.json_run.out)

    def sarif(self):
        self.assertEqual(self.sarif_run.code, 0, self.sarif_run)
        with open(self.sarif_path) as f:
            return json.load(f)

    def test_dash_p_alone_analyzes_every_entry(self):
        files = {i['file'] for i in self.items()}
        self.assertEqual(files, {self.main, self.limited})

    def test_clang_tidy_file_does_not_disable_torch_tidy(self):
        self.assertEqual(
            json_findings(i for i in self.items() if i['file'] == self.main),
            expected(self.main, MAIN_FINDINGS))

    def test_torch_tidy_file_limits_checks(self):
        self.assertEqual(
            json_findings(i for i in self.items() if i['file'] == self.limited),
            expected(self.limited, LIMITED_FINDINGS))

    def test_json_fields(self):
        for item in self.items():
            for key in ('file', 'line', 'column', 'end_line', 'end_column',
                        'check', 'severity', 'message', 'notes', 'fixes'):
                self.assertIn(key, item)
            self.assertEqual(item['severity'], 'warning')
        by_check = {i['check']: i for i in self.items() if i['file'] == self.main}
        discarded = by_check['device-discarded-to']
        self.assertEqual(discarded['message'], MAIN_MESSAGES['device-discarded-to'])
        self.assertEqual([(n['line'], n['column']) for n in discarded['notes']],
                         [(12, 10)])
        self.assertEqual(discarded['fixes'][0]['replacement'], 'image = ')
        self.assertEqual(discarded['fixes'][0]['line'], 11)
        self.assertEqual(by_check['device-load-without-device']['fixes'][0]
                         ['replacement'], ', device')

    def test_jobs_two_gives_the_same_findings_as_one(self):
        results = self.sarif()['runs'][0]['results']
        from_sarif = sorted(
            (os.path.join(self.root, r['locations'][0]['physicalLocation']
                          ['artifactLocation']['uri']),
             r['locations'][0]['physicalLocation']['region']['startLine'],
             r['locations'][0]['physicalLocation']['region']['startColumn'],
             r['ruleId']) for r in results if r['ruleId'] in CHECKS)
        self.assertEqual(from_sarif, json_findings(self.items()))

    def test_sarif_to_a_file(self):
        self.assertEqual(self.sarif_run.out, '', 'the report goes to the file')
        log = self.sarif()
        self.assertEqual(log['version'], '2.1.0')
        self.assertIn('sarif', log['$schema'])
        run_ = log['runs'][0]
        driver = run_['tool']['driver']
        self.assertEqual(driver['name'], 'torch-tidy')
        self.assertTrue(driver['version'])
        self.assertTrue(driver['informationUri'].startswith('https://'))
        rule_ids = [r['id'] for r in driver['rules']]
        self.assertTrue(set(CHECKS) <= set(rule_ids), rule_ids)
        for rule in driver['rules']:
            for key in ('shortDescription', 'fullDescription', 'help'):
                self.assertTrue(rule[key]['text'], (rule['id'], key))
            self.assertTrue(rule['helpUri'].endswith(
                'docs/checks/%s.md' % rule['id']))
            # The level follows the rule's severity, as CodeQL's metadata.
            self.assertEqual(rule['defaultConfiguration']['level'],
                             {'error': 'error', 'warning': 'warning',
                              'recommendation': 'note'}[
                                  rule['properties']['problem.severity']])
        self.assertEqual(run_['originalUriBaseIds']['SRCROOT']['uri'],
                         'file://' + self.root + '/')
        self.assertEqual(
            len([r for r in run_['results'] if r['ruleId'] in CHECKS]), 4)
        for result in run_['results']:
            self.assertEqual(driver['rules'][result['ruleIndex']]['id'],
                             result['ruleId'])
            # No finding here is an error or was judged by the probe: each
            # has its rule's level.
            self.assertEqual(result['level'], driver['rules'][
                result['ruleIndex']]['defaultConfiguration']['level'])
            self.assertTrue(result['message']['text'])
            physical = result['locations'][0]['physicalLocation']
            self.assertIn(physical['artifactLocation']['uri'],
                          ('src/main.cpp', 'src/limited/limited.cpp'))
            self.assertEqual(physical['artifactLocation']['uriBaseId'], 'SRCROOT')
            for key in ('startLine', 'startColumn', 'endLine', 'endColumn'):
                self.assertGreater(physical['region'][key], 0)
            self.assertTrue(result['partialFingerprints'])
            for fix in result['fixes']:
                change = fix['artifactChanges'][0]
                self.assertEqual(change['artifactLocation']['uriBaseId'], 'SRCROOT')
                for replacement in change['replacements']:
                    self.assertIn('deletedRegion', replacement)
                    self.assertIn('text', replacement['insertedContent'])
        discarded = [r for r in run_['results']
                     if r['ruleId'] == 'device-discarded-to' and
                     r['locations'][0]['physicalLocation']['artifactLocation']
                     ['uri'] == 'src/main.cpp'][0]
        related = discarded['relatedLocations'][0]
        self.assertEqual(related['physicalLocation']['region']['startLine'], 12)
        self.assertIn('still where it was', related['message']['text'])


class ConfigTest(ProjectTestCase):
    """--config, --config-file, --list-checks, --dump-config."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'src/main.cpp': MAIN_CPP,
                              'only-load.yaml':
                                  "Checks: '-*,device-load-without-device'\n"})
        cls.main = cls.paths['src/main.cpp']
        cls.configured = run(["--config={Checks: '-*,device-loop-copy-to'}",
                              cls.main], cwd=cls.root)

    def test_config_selects_checks_for_the_analysis(self):
        self.assertEqual(self.configured.code, 0, self.configured)
        self.assertEqual(text_findings(self.configured.out),
                         [(self.main, 17, 5, 'device-loop-copy-to')])

    def test_list_checks(self):
        listed = run(['--list-checks'], cwd=self.root)
        self.assertEqual(listed.code, 0, listed)
        for check in CHECKS:
            self.assertIn(check, listed.out)

    def test_config_file_with_list_checks(self):
        listed = run(['--config-file=' + self.paths['only-load.yaml'],
                      '--list-checks', self.main], cwd=self.root)
        self.assertEqual(listed.code, 0, listed)
        self.assertIn('device-load-without-device', listed.out)
        self.assertNotIn('device-discarded-to', listed.out)

    def test_dump_config(self):
        dumped = run(['--dump-config', self.main], cwd=self.root)
        self.assertEqual(dumped.code, 0, dumped)
        self.assertRegex(dumped.out, r"Checks:\s+'[^']*device-\*")
        with_config = run(["--config={Checks: '-*,device-loop-copy-to'}",
                           '--dump-config'], cwd=self.root)
        self.assertIn('device-loop-copy-to', with_config.out)

    def test_torch_tidy_file_next_to_the_file(self):
        write(os.path.join(self.root, 'sub', '.torch-tidy'),
              "Checks: '-*,device-discarded-to'\n")
        listed = run(['--list-checks', os.path.join(self.root, 'sub', 'x.cpp')],
                     cwd=self.root)
        self.assertEqual(listed.code, 0, listed)
        self.assertIn('device-discarded-to', listed.out)
        self.assertNotIn('device-loop-copy-to', listed.out)


class FixTest(ProjectTestCase):
    """--fix and --export-fixes."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'src/main.cpp': MAIN_CPP})
        cls.main = cls.paths['src/main.cpp']
        cls.yaml_path = os.path.join(cls.root, 'fixes.yaml')
        cls.fixed_run = run([ONLY_TESTED_CHECKS, '--fix',
                             '--export-fixes=' + cls.yaml_path, cls.main],
                            cwd=cls.root)
        cls.fixed = read(cls.main)

    def test_exit_and_summary(self):
        self.assertEqual(self.fixed_run.code, 0, self.fixed_run)
        self.assertIn('applied 3 of 3 suggested fixes', self.fixed_run.err)
        self.assertNoCrash(self.fixed_run)

    def test_file_is_rewritten(self):
        self.assertIn('  image = image.to(device);\n', self.fixed)
        self.assertIn('  for (auto &t : batch)\n', self.fixed)
        self.assertIn('  torch::load(net, path, device);\n', self.fixed)
        # NOLINT lines are not fixed.
        self.assertIn('  x.to(device); // NOLINT\n', self.fixed)
        self.assertIn('  x.cuda();\n', self.fixed)
        self.assertEqual(os.listdir(os.path.dirname(self.main)), ['main.cpp'])

    def test_fixed_file_compiles(self):
        proc = subprocess.run([ARGS.clang, '-fsyntax-only'] + flags() +
                              [self.main], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        self.assertEqual(proc.returncode, 0, proc.stdout)

    def test_export_fixes_yaml(self):
        yaml = read(self.yaml_path)
        self.assertIn('MainSourceFile:', yaml)
        self.assertIn('DiagnosticName:  device-discarded-to', yaml)
        self.assertIn('Replacements:', yaml)
        self.assertIn("ReplacementText: 'image = '", yaml)
        self.assertIn("ReplacementText: ', device'", yaml)
        self.assertIn("ReplacementText: '&'", yaml)
        self.assertIn('FilePath:        \'%s\'' % self.main, yaml)
        offset = MAIN_CPP.index('image.to(device)')
        self.assertIn('Offset:          %d' % offset, yaml)


CONFIRM_CPP = r'''#include <torch/torch.h>

torch::Tensor accumulate(const std::vector<torch::Tensor> &outs) {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto total = torch::zeros({4});
  auto out = torch::randn({4}, torch::device(device));
  total += out;
  auto w = torch::randn({3}, torch::requires_grad()).to(device);
  torch::optim::SGD opt({w}, 0.1);
  return total;
}
'''
CONFIRM_FACTORY = (5, 16, 'device-factory-without-device')
CONFIRM_LEAF = (8, 12, 'device-mid-graph-to')


def probe_path():
    """torch-tidy-probe of the same build, if LibTorch was found."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(ARGS.torch_tidy)))
    path = os.path.join(build, 'cuda_probe', 'torch-tidy-probe')
    return path if os.access(path, os.X_OK) else None


class ConfirmTest(ProjectTestCase):
    """--confirm on the meta stand-in, --emit-plans and --verdicts."""

    @classmethod
    def setUpClass(cls):
        if not probe_path():
            raise unittest.SkipTest('torch-tidy-probe was not built (no LibTorch)')
        cls.paths = cls.make({'src/confirm.cpp': CONFIRM_CPP})
        cls.cpp = cls.paths['src/confirm.cpp']
        cls.plans = os.path.join(cls.root, 'plans')
        checks = '--checks=-*,device-factory-without-device,device-mid-graph-to'
        cls.confirmed = run([cls.cpp, checks, '--confirm=meta', '--format=json',
                             '--emit-plans=' + cls.plans], cwd=cls.root)
        cls.verdicts = write(os.path.join(cls.root, 'verdicts.json'), json.dumps({
            'format': 'torch-tidy-verdicts', 'version': 1, 'verdicts': [{
                'id': 'src/confirm.cpp:5:16:device-factory-without-device',
                'verdict': 'not-reproduced', 'device': 'cuda:0 NVIDIA H200',
                'message': 'ran clean'}]}))
        cls.merged = run([cls.cpp, checks, '--verdicts=' + cls.verdicts,
                          '--format=json'], cwd=cls.root)
        cls.strict = run([cls.cpp, checks, '--verdicts=' + cls.verdicts,
                          '--confirm-strict', '--format=sarif'], cwd=cls.root)

    def finding(self, items, where):
        line, col, check = where
        matches = [i for i in items if (i['line'], i['column'], i['check']) ==
                   (line, col, check)]
        self.assertEqual(len(matches), 1, items)
        return matches[0]

    def test_confirmed_on_meta_with_libtorch_message(self):
        self.assertNoCrash(self.confirmed)
        self.assertEqual(self.confirmed.code, 0, self.confirmed)
        items = json.loads(self.confirmed.out)
        verdict = self.finding(items, CONFIRM_FACTORY)['verdict']
        self.assertEqual(verdict['verdict'], 'confirmed', items)
        self.assertIn('meta', verdict['device'])
        self.assertIn('Expected all tensors to be on the same device',
                      verdict['message'])
        leaf = self.finding(items, CONFIRM_LEAF)['verdict']
        self.assertEqual(leaf['verdict'], 'confirmed', items)
        self.assertIn("can't optimize a non-leaf Tensor", leaf['message'])

    def test_emitted_plans_are_named_after_their_findings(self):
        names = sorted(os.listdir(self.plans))
        self.assertEqual(len(names), 2, names)
        plans = [json.loads(read(os.path.join(self.plans, n))) for n in names]
        ids = sorted(p['id'] for p in plans)
        self.assertEqual(ids, ['src/confirm.cpp:5:16:device-factory-without-device',
                               'src/confirm.cpp:8:12:device-mid-graph-to'])
        for plan in plans:
            self.assertEqual(plan['format'], 'torch-tidy-plan')
            self.assertEqual(plan['location']['file'], 'src/confirm.cpp')

    def test_not_reproduced_is_downgraded_to_a_note(self):
        self.assertEqual(self.merged.code, 0, self.merged)
        items = json.loads(self.merged.out)
        factory = self.finding(items, CONFIRM_FACTORY)
        self.assertEqual(factory['severity'], 'note')
        self.assertEqual(factory['verdict']['device'], 'cuda:0 NVIDIA H200')
        leaf = self.finding(items, CONFIRM_LEAF)
        self.assertEqual(leaf['severity'], 'warning')
        self.assertNotIn('verdict', leaf)

    def test_confirm_strict_drops_it_and_sarif_carries_verdicts(self):
        self.assertEqual(self.strict.code, 0, self.strict)
        results = json.loads(self.strict.out)['runs'][0]['results']
        self.assertEqual([r['ruleId'] for r in results], ['device-mid-graph-to'])

    def test_malformed_verdicts_is_one_line_error(self):
        bad = write(os.path.join(self.root, 'bad-verdicts.json'), '{"verdicts": 3}')
        result = run([self.cpp, '--verdicts=' + bad, '--checks=-*,device-mid-graph-to'],
                     cwd=self.root)
        self.assertNoCrash(result)
        self.assertNotEqual(result.code, 0, result)
        errors = [l for l in result.err.splitlines() if l.startswith('torch-tidy: error:')]
        self.assertEqual(len(errors), 1, result)
        self.assertIn('bad-verdicts.json', errors[0])


# Programs of our own with the constructs on which torch-tidy once crashed in
# the official LibTorch examples (pytorch/examples cpp/): a training function
# template instantiated from main with AT_ASSERT in its loop (mnist), a main
# with TORCH_CHECK and a constant condition (dcgan), and a reader looping on
# `while (true)` with `assert(false)` in a branch (custom-dataset). Each
# leaves a null successor in clang's CFG.
CLASSIFIER_CPP = r'''#include <torch/torch.h>

struct Classifier : torch::nn::Module {
  Classifier() { fc = register_module("fc", torch::nn::Linear(784, 10)); }
  torch::Tensor forward(torch::Tensor x) {
    return torch::log_softmax(fc->forward(x.view({-1, 784})), 1);
  }
  torch::nn::Linear fc{nullptr};
};

template <typename Loader>
void train(Classifier &model, torch::Device device, Loader &loader,
           torch::optim::Optimizer &optimizer) {
  model.train();
  for (auto &batch : loader) {
    auto data = batch.data.to(device), targets = batch.target.to(device);
    optimizer.zero_grad();
    auto loss = torch::nll_loss(model.forward(data), targets);
    AT_ASSERT(!std::isnan(loss.template item<float>()));
    loss.backward();
    optimizer.step();
  }
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Classifier model;
  model.to(device);
  auto dataset = torch::data::datasets::MNIST("data").map(
      torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(dataset), 64);
  torch::optim::SGD optimizer(model.parameters(), 0.01);
  train(model, device, *loader, optimizer);
  auto correct = torch::zeros({1});
  correct += model.forward(torch::rand({1, 784}).to(device)).sum();
}
'''
GENERATOR_CPP = r'''#include <torch/torch.h>

constexpr bool kRestoreFromCheckpoint = false;

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto generator = torch::nn::Sequential(torch::nn::Linear(100, 784),
                                         torch::nn::Tanh());
  generator->to(device);
  if (kRestoreFromCheckpoint)
    torch::load(generator, "generator-checkpoint.pt");
  for (int epoch = 0; epoch < 3; ++epoch) {
    auto noise = torch::randn({64, 100}, device);
    auto images = generator->forward(noise);
    TORCH_CHECK(images.size(0) == 64, "one image per noise vector");
  }
}
'''
READER_CPP = r'''#include <torch/torch.h>
#include <cassert>
#include <fstream>

using Data = std::vector<std::pair<std::string, long>>;

std::pair<Data, Data> readInfo(const std::string &file) {
  Data train, test;
  std::ifstream stream(file);
  long label;
  std::string path, type;
  while (true) {
    stream >> path >> label >> type;
    if (type == "train")
      train.emplace_back(path, label);
    else if (type == "test")
      test.emplace_back(path, label);
    else
      assert(false);
    if (stream.eof())
      break;
  }
  return {train, test};
}

torch::Tensor labels(const Data &data, torch::Device device) {
  auto out = torch::empty({static_cast<long>(data.size())}, torch::kLong);
  for (size_t i = 0; i < data.size(); ++i)
    out[i] = data[i].second;
  return out.to(device);
}
'''


# A project whose device facts cross files: the model's forward() and the
# helpers are defined in one file, the device chosen and the model moved in
# another (train.cpp). Each file is analysed once; the findings that depend
# on another file's facts are kept back and resolved at the end of the run.
CROSS_FILE_MODEL_H = r"""#pragma once
#include <torch/torch.h>
struct AttentionImpl : torch::nn::Module {
  AttentionImpl();
  torch::Tensor forward(const torch::Tensor &x);
  torch::nn::Linear proj{nullptr};
};
TORCH_MODULE(Attention);
struct IdleImpl : torch::nn::Module {
  IdleImpl();
  torch::Tensor forward(const torch::Tensor &x);
  torch::nn::Linear proj{nullptr};
};
TORCH_MODULE(Idle);
torch::Tensor contrastive_loss(const torch::Tensor &sim);
torch::Tensor cpu_only_metric(const torch::Tensor &scores);
float first_score(const torch::Tensor &scores);
"""

CROSS_FILE_MODEL_CPP = r"""#include "model.h"
AttentionImpl::AttentionImpl() { proj = register_module("proj", torch::nn::Linear(4, 4)); }
torch::Tensor AttentionImpl::forward(const torch::Tensor &x) {
  auto mask = torch::ones({4});
  return proj(x) * mask;
}
IdleImpl::IdleImpl() { proj = register_module("proj", torch::nn::Linear(4, 4)); }
torch::Tensor IdleImpl::forward(const torch::Tensor &x) {
  return proj(x) + torch::ones({4});
}
"""

CROSS_FILE_LOSSES_CPP = r"""#include "model.h"
torch::Tensor contrastive_loss(const torch::Tensor &sim) {
  auto eye = torch::eye(sim.size(0));
  return (sim - eye).pow(2).mean();
}
torch::Tensor cpu_only_metric(const torch::Tensor &scores) {
  return scores + torch::ones({4});
}
float first_score(const torch::Tensor &scores) {
  const float *p = scores.data_ptr<float>();
  return p[0];
}
"""

CROSS_FILE_TRAIN_CPP = r"""#include "model.h"
int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Attention attention;
  attention->to(device);
  Idle idle;
  auto x = torch::randn({4, 4}).to(device);
  auto loss = contrastive_loss(attention(x));
  auto metric = cpu_only_metric(torch::randn({4}));
  auto best = first_score(x);
  return 0;
}
"""

CROSS_FILE_CHECKS = ['device-factory-without-device', 'device-host-access']


class CrossFileTest(ProjectTestCase):
    """Findings in one file whose device facts another file supplies."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'model.h': CROSS_FILE_MODEL_H,
                              'model.cpp': CROSS_FILE_MODEL_CPP,
                              'losses.cpp': CROSS_FILE_LOSSES_CPP,
                              'train.cpp': CROSS_FILE_TRAIN_CPP})
        cls.whole = run(['-p', cls.root, '-j', '2', '--format=json'], cwd=cls.root)
        cls.alone = run(['-p', cls.root, cls.paths['losses.cpp'], '--format=json'],
                        cwd=cls.root)

    def findings(self, result):
        self.assertNoCrash(result)
        return [i for i in json.loads(result.out) if i['check'] in CROSS_FILE_CHECKS]

    def test_findings_in_the_files_the_device_never_reaches_by_name(self):
        found = sorted((os.path.basename(i['file']), i['line'], i['check'])
                       for i in self.findings(self.whole))
        self.assertEqual(found, [
            ('losses.cpp', 3, 'device-factory-without-device'),
            ('losses.cpp', 10, 'device-host-access'),
            ('model.cpp', 4, 'device-factory-without-device'),
        ], self.whole)

    def test_each_names_where_the_other_file_supplies_the_device(self):
        notes = {(os.path.basename(i['file']), i['line']):
                 [(os.path.basename(n['file']), n['line'], n['message'])
                  for n in i['notes']]
                 for i in self.findings(self.whole)}
        self.assertIn(('train.cpp', 8, "'contrastive_loss' is called here with "
                       "'attention(x)' on 'device' (which may be a GPU)"),
                      notes[('losses.cpp', 3)])
        self.assertIn(('train.cpp', 10, "'first_score' is called here with 'x' "
                       "on 'device' (which may be a GPU)"),
                      notes[('losses.cpp', 10)])
        self.assertIn(('train.cpp', 5, "'Attention' is moved to 'device' (which "
                       "may be a GPU) here"), notes[('model.cpp', 4)])

    def test_a_file_analysed_alone_keeps_what_it_cannot_know_back(self):
        self.assertEqual(self.findings(self.alone), [], self.alone)
        self.assertEqual(self.alone.code, 0, self.alone)


# Facts that cross files in chains and returns: main.cpp calls summarize()
# (report.cpp) with a GPU tensor, which passes it on to first_value()
# (stats.cpp), which reads it on the host; ping() and pong() recurse across
# files. load_pair() and load_batch() (data.cpp) return their tensors on the
# CPU, load_shuffled() (report.cpp) what load_pair() returns, and main.cpp
# moves only some. The negatives: a pass-through called with
# a CPU tensor only, one that passes on a CPU copy, a batch whose CPU fields
# are all moved (here, or by to_device() in data.cpp through a reference),
# and a return whose device follows its argument.
CHAIN_MODEL_H = r"""#pragma once
#include <torch/torch.h>
struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);
struct Batch {
  torch::Tensor data;
  torch::Tensor target;
};
std::pair<torch::Tensor, torch::Tensor> load_pair();
Batch load_batch();
torch::Tensor scaled(const torch::Tensor &x);
float summarize(const torch::Tensor &scores);
float summarize_host(const torch::Tensor &scores);
float summarize_copy(const torch::Tensor &scores);
float first_value(const torch::Tensor &scores);
float last_value(const torch::Tensor &scores);
float ping(const torch::Tensor &t, int n);
float pong(const torch::Tensor &t, int n);
std::pair<torch::Tensor, torch::Tensor> load_shuffled();
torch::Tensor noise();
void to_device(Batch &batch, torch::Device device);
"""

CHAIN_STATS_CPP = r"""#include "model.h"
float first_value(const torch::Tensor &scores) {
  const float *p = scores.data_ptr<float>();
  return p[0];
}
float last_value(const torch::Tensor &scores) {
  const float *p = scores.data_ptr<float>();
  return p[scores.numel() - 1];
}
float pong(const torch::Tensor &t, int n) {
  if (n == 0)
    return t.data_ptr<float>()[0];
  return ping(t, n - 1);
}
"""

CHAIN_REPORT_CPP = r"""#include "model.h"
float summarize(const torch::Tensor &scores) {
  return first_value(scores.softmax(0));
}
float summarize_host(const torch::Tensor &scores) { return last_value(scores); }
float summarize_copy(const torch::Tensor &scores) {
  return last_value(scores.cpu());
}
float ping(const torch::Tensor &t, int n) { return pong(t, n); }
std::pair<torch::Tensor, torch::Tensor> load_shuffled() {
  auto p = load_pair();
  return {p.second, p.first};
}
"""

CHAIN_DATA_CPP = r"""#include "model.h"
std::pair<torch::Tensor, torch::Tensor> load_pair() {
  auto x = torch::randn({8, 4});
  auto y = torch::randint(0, 2, {8});
  return {x, y};
}
Batch load_batch() {
  Batch b;
  b.data = torch::randn({8, 4});
  b.target = torch::randint(0, 2, {8});
  return b;
}
torch::Tensor scaled(const torch::Tensor &x) { return x * 2; }
torch::Tensor noise() { return torch::randn({8, 2}); }
void to_device(Batch &batch, torch::Device device) {
  batch.data = batch.data.to(device);
  batch.target = batch.target.to(device);
}
"""

CHAIN_TRAIN_CPP = r"""#include "model.h"
int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  auto [x, y] = load_pair();
  x = x.to(device);
  auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
  Batch moved = load_batch();
  moved.data = moved.data.to(device);
  moved.target = moved.target.to(device);
  auto kept = torch::nn::functional::cross_entropy(model->forward(moved.data), moved.target);
  Batch half = load_batch();
  half.data = half.data.to(device);
  auto lost = torch::nn::functional::cross_entropy(model->forward(half.data), half.target);
  auto out = model->forward(x);
  auto sum = out + scaled(out);
  float s = summarize(out) + summarize_host(torch::ones({4})) + summarize_copy(out);
  float r = ping(out, 3);
  auto [a, b] = load_shuffled();
  a = a.to(device);
  auto more = torch::nn::functional::cross_entropy(model->forward(a), b);
  auto jitter = out + noise();
  Batch by_ref = load_batch();
  to_device(by_ref, device);
  auto moved_by_ref = torch::nn::functional::cross_entropy(model->forward(by_ref.data), by_ref.target);
  return 0;
}
"""

CHAIN_CHECKS = ['device-host-access', 'device-mismatch', 'device-unmoved-target']


class CrossFileChainTest(ProjectTestCase):
    """Chains of facts across files, values returned across files, and the
    chain's notes in JSON and SARIF."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'model.h': CHAIN_MODEL_H,
                              'stats.cpp': CHAIN_STATS_CPP,
                              'report.cpp': CHAIN_REPORT_CPP,
                              'data.cpp': CHAIN_DATA_CPP,
                              'train.cpp': CHAIN_TRAIN_CPP})
        cls.whole = run(['-p', cls.root, '-j', '2', '--format=json'], cwd=cls.root)
        cls.sarif = run(['-p', cls.root, '--format=sarif'], cwd=cls.root)
        cls.alone = run(['-p', cls.root, cls.paths['train.cpp'], '--format=json'],
                        cwd=cls.root)

    def findings(self, result):
        self.assertNoCrash(result)
        return [i for i in json.loads(result.out) if i['check'] in CHAIN_CHECKS]

    def notes(self):
        return {(os.path.basename(i['file']), i['line']):
                [(os.path.basename(n['file']), n['line'], n['message'])
                 for n in i['notes']]
                for i in self.findings(self.whole)}

    def test_the_chains_and_the_returns_reach_and_the_negatives_stay_quiet(self):
        found = sorted((os.path.basename(i['file']), i['line'], i['check'])
                       for i in self.findings(self.whole))
        self.assertEqual(found, [
            ('stats.cpp', 3, 'device-host-access'),
            ('stats.cpp', 12, 'device-host-access'),
            ('train.cpp', 8, 'device-unmoved-target'),
            ('train.cpp', 15, 'device-unmoved-target'),
            ('train.cpp', 22, 'device-unmoved-target'),
            ('train.cpp', 23, 'device-mismatch'),
        ], self.whole)
        self.assertIn('; 6 findings decided across files;', self.whole.err)

    def test_a_chain_names_each_link_from_the_outermost(self):
        chain = [n for n in self.notes()[('stats.cpp', 3)]
                 if n[0] != 'stats.cpp']
        self.assertEqual(chain, [
            ('train.cpp', 18, "'summarize' is called here with 'out' on "
             "'device' (which may be a GPU)"),
            ('report.cpp', 3, "'first_value' is called here with "
             "'scores.softmax(0)' on an accelerator (which may be a GPU)"),
        ], self.whole)
        recursion = [n[:2] for n in self.notes()[('stats.cpp', 12)]
                     if n[0] != 'stats.cpp']
        self.assertEqual(recursion, [('train.cpp', 19), ('report.cpp', 9)],
                         self.whole)

    def test_a_return_names_where_the_other_file_returns_it(self):
        self.assertIn(('data.cpp', 3, "'load_pair' returns its tensors on the "
                       "CPU, from here"), self.notes()[('train.cpp', 8)])
        self.assertIn(('data.cpp', 10, "'load_batch' returns 'target' on the "
                       "CPU, from here"), self.notes()[('train.cpp', 15)])
        # Returned through a function of a third file: one note per link.
        chain = [n for n in self.notes()[('train.cpp', 22)] if n[0] != 'train.cpp']
        self.assertEqual(chain, [
            ('data.cpp', 3, "'load_pair' returns its tensors on the CPU, from here"),
            ('report.cpp', 11, "'load_shuffled' returns its tensors on the CPU, "
             "from here")], self.whole)
        # A tensor, not a batch: the CPU operand of a plain mismatch.
        self.assertIn(('data.cpp', 14, "'noise' returns its tensor on the CPU, "
                       "from here"), self.notes()[('train.cpp', 23)])

    def test_sarif_has_the_notes_and_the_chain_as_a_code_flow(self):
        self.assertNoCrash(self.sarif)
        results = json.loads(self.sarif.out)['runs'][0]['results']

        def at(result):
            loc = result['locations'][0]['physicalLocation']
            return (os.path.basename(loc['artifactLocation']['uri']),
                    loc['region']['startLine'])

        [chained] = [r for r in results if at(r) == ('stats.cpp', 3)]
        related = [(os.path.basename(r['physicalLocation']['artifactLocation']['uri']),
                    r['physicalLocation']['region']['startLine'])
                   for r in chained['relatedLocations']]
        self.assertIn(('train.cpp', 18), related)
        self.assertIn(('report.cpp', 3), related)
        [flow] = chained['codeFlows']
        steps = [(os.path.basename(s['location']['physicalLocation']
                                   ['artifactLocation']['uri']),
                  s['location']['physicalLocation']['region']['startLine'])
                 for s in flow['threadFlows'][0]['locations']]
        self.assertEqual(steps, [('train.cpp', 18), ('report.cpp', 3),
                                 ('stats.cpp', 3)])
        [returned] = [r for r in results if at(r) == ('train.cpp', 8)]
        self.assertNotIn('codeFlows', returned)
        self.assertTrue(any('load_pair' in r['message']['text']
                            for r in returned['relatedLocations']))

    def test_a_file_analysed_alone_keeps_what_it_cannot_know_back(self):
        self.assertEqual(self.findings(self.alone), [], self.alone)


# Modules handed to functions of another file: main.cpp moves one model and
# leaves others on the CPU; the helpers in helpers.cpp, which never name an
# accelerator, see each module as its callers pass it (a forward, a tensor
# meeting its output, a checkpoint loaded into it).
MODULES_MODEL_H = r"""#pragma once
#include <torch/torch.h>
struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);
torch::Tensor evaluate(Net model, const torch::Tensor &x);
torch::Tensor generate(Net &model);
torch::Tensor run_on(Net model, const torch::Tensor &x, torch::Device device);
torch::Tensor score(Net model, torch::Device device);
void train(Net model, torch::Device device);
torch::Tensor predict(Net model, const torch::Tensor &x);
void load_checkpoint(Net model, const std::string &path);
void load_cpu(Net model, const std::string &path);
"""

MODULES_HELPERS_CPP = r"""#include "model.h"
torch::Tensor evaluate(Net model, const torch::Tensor &x) {
  auto probe = torch::ones({1, 4});
  return model->forward(probe) + x;
}
torch::Tensor generate(Net &model) {
  auto out = model->forward(torch::zeros({1, 4}, model->fc->weight.options()));
  return out + torch::randn({1, 4});
}
torch::Tensor run_on(Net model, const torch::Tensor &x, torch::Device device) {
  return model->forward(x.to(device));
}
torch::Tensor score(Net model, torch::Device device) {
  return model->forward(torch::ones({1, 4}).to(device));
}
void train(Net model, torch::Device device) {
  model->to(device);
  auto y = model->forward(torch::ones({1, 4}).to(device));
}
torch::Tensor predict(Net model, const torch::Tensor &x) {
  return model->forward(x);
}
void load_checkpoint(Net model, const std::string &path) {
  torch::load(model, path);
}
void load_cpu(Net model, const std::string &path) {
  torch::load(model, path);
}
"""

MODULES_MAIN_CPP = r"""#include "model.h"
int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  auto a = evaluate(model, torch::ones({1, 4}).to(device));
  auto b = generate(model);
  Net fresh;
  auto c = run_on(fresh, torch::ones({1, 4}), device);
  Net cpu_model;
  cpu_model->to(torch::kCPU);
  auto d = score(cpu_model, device);
  Net trained;
  train(trained, device);
  Net shared;
  train(shared, device);
  auto e = run_on(shared, torch::ones({1, 4}), device);
  Net idle;
  auto f = predict(idle, torch::ones({1, 4}));
  load_checkpoint(model, "checkpoint.pt");
  load_cpu(cpu_model, "checkpoint.pt");
  return 0;
}
"""

MODULES_CHECKS = ['device-unmoved-input', 'device-unmoved-module', 'device-mismatch',
                  'device-factory-without-device', 'device-load-without-device']


class CrossFileModulesTest(ProjectTestCase):
    """Modules passed by value or reference to functions of another file."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'model.h': MODULES_MODEL_H,
                              'helpers.cpp': MODULES_HELPERS_CPP,
                              'main.cpp': MODULES_MAIN_CPP})
        cls.whole = run(['-p', cls.root, '-j', '2', '--format=json'], cwd=cls.root)
        cls.alone = run(['-p', cls.root, cls.paths['helpers.cpp'], '--format=json'],
                        cwd=cls.root)

    def findings(self, result):
        self.assertNoCrash(result)
        return [i for i in json.loads(result.out) if i['check'] in MODULES_CHECKS]

    def test_the_helpers_see_the_modules_their_callers_pass(self):
        found = sorted((os.path.basename(i['file']), i['line'], i['check'])
                       for i in self.findings(self.whole))
        self.assertEqual(found, [
            ('helpers.cpp', 4, 'device-unmoved-input'),
            ('helpers.cpp', 8, 'device-factory-without-device'),
            ('helpers.cpp', 11, 'device-unmoved-module'),
            ('helpers.cpp', 24, 'device-load-without-device'),
        ], self.whole)

    def test_each_names_the_call_that_passes_the_module(self):
        notes = {(os.path.basename(i['file']), i['line']):
                 [(os.path.basename(n['file']), n['line'], n['message'])
                  for n in i['notes']]
                 for i in self.findings(self.whole)}
        self.assertIn(('main.cpp', 6, "'evaluate' is called here with 'model' "
                       "moved to 'device' (which may be a GPU)"),
                      notes[('helpers.cpp', 4)])
        self.assertIn(('main.cpp', 9, "'run_on' is called here with 'fresh', "
                       "built on the CPU and never moved"),
                      notes[('helpers.cpp', 11)])

    def test_a_file_analysed_alone_keeps_what_it_cannot_know_back(self):
        self.assertEqual(self.findings(self.alone), [], self.alone)


class OfficialExamplesTest(ProjectTestCase):
    """The constructs of the official examples: analysed, no crash."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'classifier.cpp': CLASSIFIER_CPP,
                              'generator.cpp': GENERATOR_CPP,
                              'reader.cpp': READER_CPP})
        cls.result = run(['-p', cls.root, '-j', '2'], cwd=cls.root)

    def test_no_crash_and_exit_zero_with_warnings(self):
        self.assertNoCrash(self.result)
        self.assertNotIn('torch-tidy-crash', self.result.out, self.result)
        self.assertEqual(self.result.code, 0, self.result)

    def test_functions_with_pruned_edges_are_analysed(self):
        found = text_findings(self.result.out, 'all')
        self.assertIn((self.paths['classifier.cpp'], 34, 18,
                       'device-factory-without-device'), found, self.result)
        self.assertIn((self.paths['generator.cpp'], 11, 5,
                       'device-load-without-device'), found, self.result)


CRASHING_CPP = '''#pragma clang __debug crash
int main() {}
'''

# Compiler errors: the missing header is a fatal error, after which clang
# instantiates no template, so every register_module(...) below becomes a
# recovery expression. The module registers everything, and the file checks
# for CUDA: neither "never registered" nor "never checks" may be concluded.
MISSING_DEPENDENCY_CPP = r'''#include "argparse/argparse.hpp"
#include <torch/torch.h>

struct Generator : torch::nn::Module {
  Generator() : conv(torch::nn::Conv2dOptions(1, 8, 3)), norm(8) {
    register_module("conv", conv);
    register_module("norm", norm);
  }
  torch::Tensor forward(torch::Tensor x) { return norm(conv(x)); }
  torch::nn::Conv2d conv;
  torch::nn::BatchNorm2d norm;
};

int main(int argc, const char *argv[]) {
  argparse::ArgumentParser parser("generator");
  parser.parse_args(argc, argv);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = std::make_shared<Generator>();
  model->to(torch::kCUDA);
}
'''


class ReliabilityTest(ProjectTestCase):
    """A crash costs its file only; compiler errors silence absence rules."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'main.cpp': MAIN_CPP, 'crash.cpp': CRASHING_CPP,
                              'missing_dependency.cpp': MISSING_DEPENDENCY_CPP})
        cls.text = run(['-p', cls.root, '-j', '2'], cwd=cls.root)
        cls.sarif = run(['-p', cls.root, '--format=sarif'], cwd=cls.root)
        cls.json = run(['-p', cls.root, cls.paths['crash.cpp'], '--format=json'],
                       cwd=cls.root)

    def test_the_other_files_keep_their_findings(self):
        self.assertEqual(text_findings(self.text.out),
                         expected(self.paths['main.cpp'], MAIN_FINDINGS),
                         self.text)

    def test_the_crashed_file_gets_an_error_finding(self):
        crashes = [f for f in text_findings(self.text.out, 'all')
                   if f[3] == 'torch-tidy-crash']
        self.assertEqual(crashes, [(self.paths['crash.cpp'], 1, 2,
                                    'torch-tidy-crash')], self.text)
        self.assertRegex(self.text.out, r'error: torch-tidy crashed analysing '
                         r"this file \(Illegal instruction\) at 'current parser "
                         r"token 'pragma''")
        self.assertEqual(self.text.code, 1, self.text)
        self.assertIn('torch-tidy: error: the analysis crashed on 1 file',
                      self.text.err)

    def test_sarif_has_a_tool_execution_notification(self):
        self.assertEqual(self.sarif.code, 1, self.sarif)
        run_ = json.loads(self.sarif.out)['runs'][0]
        invocation = run_['invocations'][0]
        self.assertFalse(invocation['executionSuccessful'])
        [note] = invocation['toolExecutionNotifications']
        self.assertEqual(note['descriptor']['id'], 'torch-tidy-crash')
        self.assertEqual(note['locations'][0]['physicalLocation']
                         ['artifactLocation']['uri'], 'crash.cpp')
        rules = [r['ruleId'] for r in run_['results']]
        self.assertIn('torch-tidy-crash', rules)
        self.assertIn('device-discarded-to', rules)

    def test_json_has_the_crash_as_an_error(self):
        items = json.loads(self.json.out)
        self.assertEqual([(i['check'], i['severity']) for i in items],
                         [('torch-tidy-crash', 'error')], self.json)

    def test_compiler_errors_silence_conclusions_from_absence(self):
        found = [f for f in text_findings(self.text.out, 'all')
                 if f[0] == self.paths['missing_dependency.cpp']]
        self.assertEqual(found, [(self.paths['missing_dependency.cpp'], 1, 10,
                                  'clang-diagnostic-error')], self.text)


class BadInputTest(ProjectTestCase):
    """Each mistake: a one-line 'torch-tidy: error:', non-zero exit, no crash."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'src/broken.cpp': BROKEN_CPP,
                              'bad/compile_commands.json': '[{"directory": "/x",',
                              'empty/README': 'no database here\n'})
        cls.broken = cls.paths['src/broken.cpp']

    def assertOneLineError(self, result, *words):
        self.assertNoCrash(result)
        self.assertNotEqual(result.code, 0, result)
        errors = [l for l in result.err.splitlines()
                  if l.startswith('torch-tidy: error:')]
        self.assertEqual(len(errors), 1, result)
        for word in words:
            self.assertIn(word, errors[0], result)
        others = [l for l in result.err.splitlines()
                  if l and not l.startswith('torch-tidy: ')]
        self.assertEqual(others, [], result)

    def test_missing_file(self):
        result = run([os.path.join(self.root, 'nope.cpp'), '--', '-std=c++17'])
        self.assertOneLineError(result, 'nope.cpp')

    def test_malformed_database(self):
        result = run(['-p', os.path.join(self.root, 'bad'), self.broken])
        self.assertOneLineError(result, 'compile_commands.json')

    def test_truncated_database(self):
        good = read(os.path.join(self.root, 'compile_commands.json'))
        path = write(os.path.join(self.root, 'cut', 'compile_commands.json'),
                     good.rstrip()[:-1].rstrip() + ',')
        result = run(['-p', os.path.dirname(path)])
        self.assertOneLineError(result, path)

    def test_build_dir_without_database(self):
        result = run(['-p', os.path.join(self.root, 'empty'), self.broken])
        self.assertOneLineError(result, 'compile_commands.json')

    def test_file_that_does_not_compile(self):
        result = run([self.broken], cwd=self.root)
        self.assertNoCrash(result)
        self.assertEqual(result.code, 1, result)
        self.assertIn("error: use of undeclared identifier 'undeclared_name'",
                      result.out)
        self.assertIn('torch-tidy: error: compiler errors', result.err)

    def test_output_in_missing_directory(self):
        result = run(['--output=' + os.path.join(self.root, 'no', 'such', 'out'),
                      self.broken], cwd=self.root)
        self.assertOneLineError(result, 'no', 'out')

    def test_output_is_a_directory(self):
        result = run(['--output=' + self.root, self.broken], cwd=self.root)
        self.assertOneLineError(result, self.root)

    def test_output_under_proc(self):
        result = run(['--output=/proc/x/out', self.broken], cwd=self.root)
        self.assertOneLineError(result, '/proc/x/out')

    def test_missing_config_file(self):
        result = run(['--config-file=' + os.path.join(self.root, 'none.yaml'),
                      self.broken], cwd=self.root)
        self.assertOneLineError(result, 'none.yaml')

    def test_invalid_config_yaml(self):
        result = run(['--config={Checks: [unclosed', self.broken], cwd=self.root)
        self.assertOneLineError(result, 'config')

    def test_config_not_utf8(self):
        # The config fuzzer's find: --dump-config would write U+FFFD for the
        # byte, a configuration with other checks than the one read.
        result = run(['--config=Checks: "\udc9b-{b,*"', self.broken], cwd=self.root)
        self.assertOneLineError(result, 'UTF-8')
        path = os.path.join(self.root, 'latin1.yaml')
        with open(path, 'wb') as f:
            f.write(b"Checks: '-*,device-\xe9'\n")
        result = run(['--config-file=' + path, self.broken], cwd=self.root)
        self.assertOneLineError(result, 'latin1.yaml', 'UTF-8')

    def test_no_input(self):
        result = run([], cwd=self.root)
        self.assertOneLineError(result, 'no input')


# --- The CI gate: compile databases of every generator, baseline, diff,
# --- shards, the GitHub Action, the pre-commit hook, CMake's clang-tidy hook.

# One finding of device-discarded-to (line 5) and one of device-loop-copy-to
# (line 11), which a .torch-tidy beside it switches off.
LAYOUT_CPP = r'''#include <torch/torch.h>

torch::Tensor discarded(torch::Device device) {
  auto image = torch::rand({3, 4});
  image.to(device);
  return image * 2;
}

void loopCopy(std::vector<torch::Tensor> &batch, torch::Device device) {
  for (auto t : batch)
    t = t.to(device);
}

int main() {}
'''
LAYOUT_FINDING = (5, 3, 'device-discarded-to')
ONLY_DISCARDED = "Checks: '-*,device-discarded-to'\n"


def sarif_findings(log):
    """[(uri, startLine, startColumn, ruleId)] of a SARIF log's results."""
    out = []
    for r in log['runs'][0]['results']:
        physical = r['locations'][0]['physicalLocation']
        region = physical.get('region', {})
        out.append((physical['artifactLocation']['uri'],
                    region.get('startLine'), region.get('startColumn'),
                    r['ruleId']))
    return sorted(out)


def tool(*args, cwd=None, env=None):
    """Runs a build tool (git, cmake, meson, bear, pre-commit); its output."""
    proc = subprocess.run(list(args), cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    if proc.returncode != 0:
        raise AssertionError('%s failed (%d):\n%s' % (' '.join(args),
                                                      proc.returncode,
                                                      proc.stdout))
    return proc.stdout


def git(cwd, *args):
    return tool('git', '-c', 'user.name=t', '-c', 'user.email=t@t',
                '-c', 'init.defaultBranch=main', *args, cwd=cwd)


def torch_include():
    return [f for f in shlex.split(ARGS.flags) if f.startswith('-I')]


def source_dir():
    return os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))


CMAKE_PROJECT = '''cmake_minimum_required(VERSION 3.16)
project(x CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_EXTENSIONS OFF)
add_library(x OBJECT src/x.cpp)
target_compile_options(x PRIVATE %s -include-pch %s)
'''


class GeneratorsTest(ProjectTestCase):
    """The compile databases of CMake, Meson and Bear, analysed from another
    directory: Meson's "file" entries are relative to "directory"."""

    @classmethod
    def setUpClass(cls):
        cls.root = os.path.realpath(tempfile.mkdtemp(prefix='torch-tidy-e2e-'))
        cls.addClassCleanup(shutil.rmtree, cls.root, True)
        cls.sources, cls.builds = {}, {}
        for generator in ('cmake', 'meson', 'bear'):
            project = os.path.join(cls.root, generator)
            cls.sources[generator] = write(os.path.join(project, 'src', 'x.cpp'),
                                           LAYOUT_CPP)
            write(os.path.join(project, 'src', '.torch-tidy'), ONLY_DISCARDED)
            cls.builds[generator] = getattr(cls, generator)(project)
        cls.text = {g: run(['-p', b], cwd='/') for g, b in cls.builds.items()}
        cls.sarif = {g: run(['-p', b, '--format=sarif', '--source-root=' +
                             os.path.dirname(os.path.dirname(cls.sources[g]))],
                            cwd='/')
                     for g, b in cls.builds.items()}

    @staticmethod
    def cmake(project):
        write(os.path.join(project, 'CMakeLists.txt'),
              CMAKE_PROJECT % (' '.join(torch_include()), ARGS.pch))
        build = os.path.join(project, 'build')
        tool('cmake', '-S', project, '-B', build, '-G', 'Ninja',
             '-DCMAKE_CXX_COMPILER=' + ARGS.clang,
             '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON')
        return build

    @staticmethod
    def meson(project):
        args = ', '.join("'%s'" % a for a in
                         torch_include() + ['-include-pch', ARGS.pch])
        write(os.path.join(project, 'meson.build'),
              "project('x', 'cpp', default_options: "
              "['cpp_std=c++17', 'buildtype=plain'])\n"
              "add_project_arguments(%s, language: 'cpp')\n"
              "executable('x', 'src/x.cpp')\n" % args)
        build = os.path.join(project, 'builddir')
        tool('meson', 'setup', build, cwd=project,
             env=dict(os.environ, CXX=ARGS.clang))
        return build

    @staticmethod
    def bear(project):
        write(os.path.join(project, 'Makefile'),
              'x.o: src/x.cpp\n\t$(CXX) %s -c src/x.cpp -o x.o\n' %
              ' '.join(flags()))
        tool('bear', '--output', os.path.join(project, 'compile_commands.json'),
             '--', 'make', 'CXX=' + ARGS.clang, cwd=project)
        return project

    def database(self, generator):
        return json.loads(read(os.path.join(self.builds[generator],
                                            'compile_commands.json')))

    def test_the_layouts_are_the_generators_own(self):
        cmake, meson, bear = (self.database(g)[0]
                              for g in ('cmake', 'meson', 'bear'))
        self.assertTrue(os.path.isabs(cmake['file']), cmake)
        self.assertIn('command', cmake)
        self.assertEqual(meson['file'], '../src/x.cpp')
        self.assertEqual(meson['directory'], self.builds['meson'])
        self.assertIn('arguments', bear)

    def test_text_has_file_line_col_wherever_it_runs(self):
        line, col, check = LAYOUT_FINDING
        for generator, result in self.text.items():
            with self.subTest(generator=generator):
                self.assertNoCrash(result)
                self.assertEqual(result.code, 0, result)
                # The .torch-tidy beside the file is read: one rule only.
                self.assertEqual(text_findings(result.out, 'all'),
                                 [(self.sources[generator], line, col, check)],
                                 result)
                self.assertNotIn('Error reading configuration', result.err)

    def test_sarif_uris_and_regions(self):
        line, col, check = LAYOUT_FINDING
        for generator, result in self.sarif.items():
            with self.subTest(generator=generator):
                self.assertEqual(result.code, 0, result)
                self.assertEqual(sarif_findings(json.loads(result.out)),
                                 [('src/x.cpp', line, col, check)], result)
                self.assertNotIn('Error reading configuration', result.err)


# The story of a gate. Commit A has three bugs; B inserts lines above them
# and gives 'out' a device, which makes 'total' a fourth bug, reported on a
# line B did not change; C fixes the first bug.
def line_of(text, needle):
    return text[:text.index(needle)].count('\n') + 1


STORY_A = MAIN_CPP + r'''
torch::Tensor accumulate(torch::Device device) {
  auto total = torch::zeros({4});
  auto out = torch::randn({4});
  total += out;
  return total;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  accumulate(device);
}
'''
STORY_B = STORY_A.replace(
    '#include <torch/torch.h>\n',
    '#include <torch/torch.h>\n\n// Two lines inserted above\n// every old finding.\n'
).replace('auto out = torch::randn({4});',
          'auto out = torch::randn({4}, torch::device(device));')
STORY_C = STORY_B.replace('  image.to(device);', '  image = image.to(device);')
STORY_OLD = {'device-discarded-to', 'device-loop-copy-to',
             'device-load-without-device'}
STORY_NEW = (line_of(STORY_B, 'torch::zeros'), 16, 'device-factory-without-device')


class GateTest(ProjectTestCase):
    """Baseline, --diff, --diff-file and --line-filter on a real git
    repository: only what a change introduces counts."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'src/train.cpp': STORY_A})
        cls.cpp = cls.paths['src/train.cpp']
        git(cls.root, 'init', '-q')
        git(cls.root, 'add', 'src/train.cpp', 'compile_commands.json')
        git(cls.root, 'commit', '-q', '-m', 'A: three bugs')
        cls.rev_a = git(cls.root, 'rev-parse', 'HEAD').strip()
        cls.baseline = os.path.join(cls.root, 'torch-tidy-baseline.json')
        cls.written = run(['-p', '.', '--write-baseline=' + cls.baseline],
                          cwd=cls.root)
        strict = '--warnings-as-errors=device-*'
        cls.at_a = run(['-p', '.', '--baseline=' + cls.baseline, strict],
                       cwd=cls.root)
        write(cls.cpp, STORY_B)
        git(cls.root, 'commit', '-q', '-am', 'B: a fourth bug, lines above')
        cls.with_baseline = run(['-p', '.', '--baseline=' + cls.baseline,
                                 strict], cwd=cls.root)
        cls.with_diff = run(['-p', '.', '--diff=' + cls.rev_a, strict],
                            cwd=cls.root)
        patch = git(cls.root, 'diff', '-U0', cls.rev_a, 'HEAD')
        cls.with_patch = Result(subprocess.run(
            [ARGS.torch_tidy, '-p', '.', '--diff-file=-', strict],
            cwd=cls.root, input=patch, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True))
        # Only the line of 'out', the root cause: clang-tidy's filter lets a
        # finding through by its notes too.
        out_line = line_of(STORY_B, 'auto out')
        line_filter = '[{"name":"src/train.cpp","lines":[[%d,%d]]}]' % (
            out_line, out_line)
        cls.filtered = run(['--line-filter=' + line_filter, cls.cpp],
                           cwd=cls.root)
        cls.plugin_filtered = run(
            ['--load=' + ARGS.plugin, '--checks=-*,device-*',
             '--line-filter=' + line_filter, cls.cpp, '--'] + flags(),
            cwd=cls.root, tool=ARGS.clang_tidy)
        write(cls.cpp, STORY_C)
        cls.fixed = run(['-p', '.', '--baseline=' + cls.baseline,
                         '--format=sarif'], cwd=cls.root)

    def test_write_baseline(self):
        self.assertEqual(self.written.code, 0, self.written)
        self.assertIn('wrote 3 findings to the baseline', self.written.err)
        baseline = json.loads(read(self.baseline))
        self.assertEqual(baseline['format'], 'torch-tidy-baseline')
        self.assertEqual(baseline['version'], 1)
        self.assertEqual({f['rule'] for f in baseline['findings']}, STORY_OLD)
        for f in baseline['findings']:
            self.assertEqual(f['path'], 'src/train.cpp')
            self.assertEqual(set(f), {'rule', 'path', 'hash', 'occurrence', 'line'})
        # One finding a line: a change of the baseline is a diff of lines.
        self.assertEqual(len(read(self.baseline).splitlines()), 4 + 3 + 2)

    def test_nothing_counts_on_the_commit_of_the_baseline(self):
        self.assertEqual(self.at_a.code, 0, self.at_a)
        self.assertEqual(text_findings(self.at_a.out, 'all'), [])

    def test_baseline_reports_exactly_the_new_finding_and_fails(self):
        r = self.with_baseline
        self.assertNoCrash(r)
        self.assertEqual(r.code, 1, r)
        line, col, check = STORY_NEW
        self.assertEqual(text_findings(r.out, 'all'),
                         [(self.cpp, line, col, check)], r)
        self.assertIn('1 warning treated as error', r.err)
        self.assertIn('1 new finding; 3 findings in the baseline not shown', r.err)

    def test_diff_agrees_through_the_note_on_the_changed_line(self):
        for r in (self.with_diff, self.with_patch):
            self.assertNoCrash(r)
            self.assertEqual(r.code, 1, r)
            self.assertEqual(text_findings(r.out, 'all'),
                             text_findings(self.with_baseline.out, 'all'), r)
            # Reported at 'total', which B did not change; a note is at 'out'.
            self.assertIn('%s:%d:14: note: created on' % (
                self.cpp, line_of(STORY_B, 'auto out')), r.out)

    def test_line_filter_is_clang_tidys(self):
        self.assertEqual(self.filtered.code, 0, self.filtered)
        self.assertEqual(self.plugin_filtered.code, 0, self.plugin_filtered)
        line, col, check = STORY_NEW
        self.assertEqual(text_findings(self.filtered.out, 'all'),
                         [(self.cpp, line, col, check)], self.filtered)
        self.assertEqual(text_findings(self.plugin_filtered.out, 'all'),
                         text_findings(self.filtered.out, 'all'),
                         self.plugin_filtered)

    def test_sarif_marks_the_fixed_finding_absent(self):
        self.assertEqual(self.fixed.code, 0, self.fixed)
        results = json.loads(self.fixed.out)['runs'][0]['results']
        states = sorted((r['ruleId'], r['baselineState']) for r in results)
        self.assertEqual(states, [
            ('device-discarded-to', 'absent'),
            ('device-factory-without-device', 'new'),
            ('device-load-without-device', 'unchanged'),
            ('device-loop-copy-to', 'unchanged')])
        absent = [r for r in results if r['baselineState'] == 'absent'][0]
        self.assertEqual(absent['locations'][0]['physicalLocation']
                         ['artifactLocation']['uri'], 'src/train.cpp')
        self.assertIn('image.to(device);', absent['message']['text'])
        for r in results:
            if r['baselineState'] != 'absent':
                self.assertRegex(r['partialFingerprints']
                                 ['primaryLocationLineHash'], r'^[0-9a-f]+:\d+$')

    def test_bad_gate_options_are_one_line_errors(self):
        cases = [
            (['--shard=3/2'], 'K/N'),
            (['--line-filter=[{"lines":[[1,2]]}]'], '--line-filter'),
            (['--baseline=' + os.path.join(self.root, 'none.json')], 'none.json'),
            (['--baseline=' + self.cpp], 'baseline'),
            (['--diff=no-such-revision'], 'no-such-revision'),
            (['--diff=' + self.rev_a, '--line-filter=[]'], 'give one'),
            (['--write-baseline=x.json', '--shard=1/2'], '--write-baseline'),
            (['--diff-file=' + os.path.join(self.root, 'none.patch')],
             'none.patch'),
        ]
        for extra, word in cases:
            with self.subTest(extra=extra):
                r = run(['-p', '.'] + extra, cwd=self.root)
                self.assertNoCrash(r)
                self.assertEqual(r.code, 1, r)
                errors = [l for l in r.err.splitlines()
                          if l.startswith('torch-tidy: error:')]
                self.assertEqual(len(errors), 1, r)
                self.assertIn(word, errors[0], r)


# A training loop that never clears its gradients: a bug.
NO_ZERO_GRAD_CPP = r"""#include <torch/torch.h>

void train(torch::nn::Linear model, torch::Device device) {
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({8, 4}, device);
    auto loss = model->forward(x).pow(2).mean();
    loss.backward();
    opt.step();
  }
}
"""
NO_ZERO_GRAD_FINDING = (10, 9, 'training-missing-zero-grad')

# The same loop, right, reading its loss on every step: a performance hint.
ITEM_IN_LOOP_CPP = r"""#include <torch/torch.h>

double train(torch::nn::Linear model) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  double total = 0;
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    auto x = torch::randn({8, 4}, device);
    auto loss = model->forward(x).pow(2).mean();
    loss.backward();
    opt.step();
    total += loss.item<double>();
  }
  return total;
}
"""
ITEM_IN_LOOP_FINDING = (14, 19, 'device-sync-in-loop')


class SeverityGateTest(ProjectTestCase):
    """The documented default gate (action.yml's args, the same in the
    pre-commit hook) fails on a bug and passes on a performance hint; the
    severity shows in text, JSON and SARIF."""

    @classmethod
    def setUpClass(cls):
        import yaml
        action = yaml.safe_load(read(os.path.join(source_dir(), 'action.yml')))
        cls.gate = action['inputs']['args']['default'].split()
        hooks = yaml.safe_load(read(os.path.join(source_dir(),
                                                 '.pre-commit-hooks.yaml')))
        cls.hook_args = hooks[0]['args']
        cls.paths = cls.make({'src/bug.cpp': NO_ZERO_GRAD_CPP,
                              'src/hint.cpp': ITEM_IN_LOOP_CPP})
        cls.bug = run(['-p', cls.root, cls.paths['src/bug.cpp']] + cls.gate,
                      cwd=cls.root)
        cls.hint = run(['-p', cls.root, cls.paths['src/hint.cpp']] + cls.gate,
                       cwd=cls.root)
        # The cache replays the analyses: these runs cost little.
        cls.hint_failing = run(['-p', cls.root, cls.paths['src/hint.cpp'],
                                '--fail-on=performance'], cwd=cls.root)
        cls.plain = run(['-p', cls.root, cls.paths['src/bug.cpp']],
                        cwd=cls.root)
        cls.with_warnings_as_errors = run(
            ['-p', cls.root, cls.paths['src/hint.cpp'], '--fail-on=bug',
             '--warnings-as-errors=device-sync-in-loop'], cwd=cls.root)
        cls.json = run(['-p', cls.root, '--format=json'], cwd=cls.root)
        cls.sarif = run(['-p', cls.root, '--format=sarif'], cwd=cls.root)

    def test_the_documented_gate_fails_on_bugs_and_hazards(self):
        self.assertEqual(self.gate, ['--fail-on=bug,hazard'])
        self.assertIn('--fail-on=bug,hazard', self.hook_args)

    def test_a_bug_fails_the_gate(self):
        r = self.bug
        self.assertNoCrash(r)
        self.assertEqual(r.code, 1, r)
        line, col, check = NO_ZERO_GRAD_FINDING
        self.assertEqual(text_findings(r.out, 'all'),
                         [(self.paths['src/bug.cpp'], line, col, check)], r)
        self.assertIn('warning: optimizer', r.out)
        self.assertIn('[training-missing-zero-grad,bug]', r.out)
        self.assertIn('torch-tidy: 1 finding (1 bug);', r.err)
        self.assertIn('1 finding treated as error (--fail-on=bug,hazard)', r.err)

    def test_a_performance_hint_passes_the_gate_and_is_printed(self):
        r = self.hint
        self.assertNoCrash(r)
        self.assertEqual(r.code, 0, r)
        line, col, check = ITEM_IN_LOOP_FINDING
        self.assertEqual(text_findings(r.out, 'all'),
                         [(self.paths['src/hint.cpp'], line, col, check)], r)
        self.assertIn('[device-sync-in-loop,performance]', r.out)
        self.assertIn('torch-tidy: 1 finding (1 performance);', r.err)

    def test_fail_on_performance_fails_on_the_hint(self):
        self.assertEqual(self.hint_failing.code, 1, self.hint_failing)

    def test_without_fail_on_the_exit_codes_are_clang_tidys(self):
        self.assertEqual(self.plain.code, 0, self.plain)
        self.assertIn('[training-missing-zero-grad,bug]', self.plain.out)

    def test_fail_on_composes_with_warnings_as_errors(self):
        r = self.with_warnings_as_errors
        self.assertEqual(r.code, 1, r)
        self.assertIn('[device-sync-in-loop,performance,-warnings-as-errors]',
                      r.out)
        self.assertIn('1 warning treated as error', r.err)
        self.assertNotIn('--fail-on', r.err)

    def test_json_and_sarif_carry_the_severity(self):
        self.assertEqual(self.json.code, 0, self.json)
        severities = sorted((i['check'], i['rule_severity'])
                            for i in json.loads(self.json.out))
        self.assertEqual(severities, [('device-sync-in-loop', 'performance'),
                                      ('training-missing-zero-grad', 'bug')])
        self.assertEqual(self.sarif.code, 0, self.sarif)
        run_ = json.loads(self.sarif.out)['runs'][0]
        levels = sorted((r['ruleId'], r['level']) for r in run_['results'])
        self.assertEqual(levels, [('device-sync-in-loop', 'note'),
                                  ('training-missing-zero-grad', 'error')])
        rules = {r['id']: r for r in run_['tool']['driver']['rules']}
        zero_grad = rules['training-missing-zero-grad']
        self.assertEqual(zero_grad['defaultConfiguration']['level'], 'error')
        self.assertEqual(zero_grad['properties']['tags'], ['bug', 'training'])
        self.assertEqual(zero_grad['properties']['problem.severity'], 'error')
        self.assertEqual(zero_grad['properties']['precision'], 'high')
        self.assertEqual(rules['device-sync-in-loop']['properties']
                         ['problem.severity'], 'recommendation')
        self.assertEqual(rules['device-load-without-device']['properties']
                         ['tags'], ['hazard', 'device'])

    def test_an_unknown_severity_is_a_one_line_error(self):
        for value in ('bugs', 'bug,warning', 'error'):
            with self.subTest(value=value):
                r = run(['-p', self.root, '--fail-on=' + value], cwd=self.root)
                self.assertNoCrash(r)
                self.assertEqual(r.code, 1, r)
                self.assertEqual(r.err.count('\n'), 1, r)
                self.assertTrue(r.err.startswith('torch-tidy: error: --fail-on'), r)
                for valid in ('bug', 'hazard', 'performance'):
                    self.assertIn(valid, r.err)


class ShardTest(ProjectTestCase):
    """--shard=K/N parts merged with 'torch-tidy merge' give one run's SARIF."""

    @classmethod
    def setUpClass(cls):
        cls.paths = cls.make({'src/main.cpp': MAIN_CPP,
                              'src/train.cpp': STORY_B,
                              'src/limited.cpp': LIMITED_CPP})
        sarif = ['-p', cls.root, '--format=sarif', '-j', '2']
        cls.whole = run(sarif, cwd=cls.root)
        cls.parts = []
        for k in (1, 2):
            out = os.path.join(cls.root, 'part%d.sarif' % k)
            cls.parts.append((out, run(sarif + ['--shard=%d/2' % k,
                                                '--output=' + out],
                                       cwd=cls.root)))
        cls.merged_path = os.path.join(cls.root, 'all.sarif')
        cls.merged = run(['merge', cls.parts[0][0], cls.parts[1][0],
                          '-o', cls.merged_path], cwd=cls.root)

    def test_parts_are_disjoint_and_cover_the_database(self):
        files = []
        for out, result in self.parts:
            self.assertEqual(result.code, 0, result)
            part = {f[0] for f in sarif_findings(json.loads(read(out)))}
            self.assertTrue(part, 'every part analyses a file')
            files.append(part)
        self.assertFalse(files[0] & files[1])
        self.assertEqual(files[0] | files[1], {
            f[0] for f in sarif_findings(json.loads(self.whole.out))})

    def test_merged_parts_are_one_run(self):
        self.assertEqual(self.merged.code, 0, self.merged)
        self.assertEqual(self.whole.code, 0, self.whole)
        merged = json.loads(read(self.merged_path))['runs']
        whole = json.loads(self.whole.out)['runs']
        self.assertEqual(len(merged), 1)
        self.assertEqual(merged[0]['results'], whole[0]['results'])
        self.assertEqual(
            sorted(r['id'] for r in merged[0]['tool']['driver']['rules']),
            sorted(r['id'] for r in whole[0]['tool']['driver']['rules']))
        self.assertEqual(merged[0]['invocations'], whole[0]['invocations'])

    def test_merge_rejects_what_is_not_a_report(self):
        r = run(['merge', self.parts[0][0], self.paths['src/main.cpp']],
                cwd=self.root)
        self.assertEqual(r.code, 1, r)
        self.assertRegex(r.err, r'^torch-tidy: error: cannot merge .*main\.cpp')


def github_expression(text, inputs, outputs):
    """Evaluates the ${{ ... }} of text, for what action.yml uses:
    inputs.NAME, steps.ID.outputs.NAME, strings, ==, !=, &&, || and
    !cancelled() (false: the test is never cancelled)."""
    def value(expr):
        expr = re.sub(r'steps\.([\w-]+)\.outputs\.([\w-]+)',
                      lambda m: repr(outputs.get(m.group(1), {})
                                     .get(m.group(2), '')), expr)
        expr = re.sub(r'inputs\.([\w-]+)',
                      lambda m: repr(inputs[m.group(1)]), expr)
        expr = expr.replace('!cancelled()', 'True')
        expr = expr.replace('&&', ' and ').replace('||', ' or ')
        return eval(expr, {'__builtins__': {}})
    return re.sub(r'\$\{\{(.*?)\}\}', lambda m: str(value(m.group(1))), text)


def github_condition(condition, inputs, outputs):
    if condition is None:
        return True
    condition = str(condition).strip()
    if not condition.startswith('${{'):
        condition = '${{ %s }}' % condition
    return github_expression(condition, inputs, outputs) == 'True'


class ActionTest(ProjectTestCase):
    """action.yml run offline as a runner would run it: each step's
    condition, environment and command, with the torch-tidy of this build.
    The upload step (another action) is checked, not run."""

    @classmethod
    def setUpClass(cls):
        import yaml
        cls.action = yaml.safe_load(read(os.path.join(source_dir(), 'action.yml')))
        cls.paths = cls.make({'src/main.cpp': MAIN_CPP})
        baseline = os.path.join(cls.root, 'baseline.json')
        cls.written = run(['-p', cls.root, '--write-baseline=' + baseline],
                          cwd=cls.root)
        # One finding of the baseline fixed, a new one added.
        write(cls.paths['src/main.cpp'], MAIN_CPP.replace(
            'for (auto t : batch)', 'for (auto &t : batch)').replace(
            'void resume', 'void more(torch::Tensor x, torch::Device d) {\n'
            '  x.to(d);\n  x.sum();\n}\n\nvoid resume'))
        cls.inputs = {name: spec.get('default', '')
                      for name, spec in cls.action['inputs'].items()}
        cls.inputs.update({'build-dir': cls.root, 'baseline': baseline,
                           'torch-tidy': ARGS.torch_tidy})
        temp = os.path.join(cls.root, 'runner-temp')
        os.makedirs(temp)
        cls.summary = os.path.join(temp, 'step-summary.md')
        cls.ran, cls.outputs, cls.skipped = {}, {}, []
        for step in cls.action['runs']['steps']:
            if not github_condition(step.get('if'), cls.inputs, cls.outputs):
                cls.skipped.append(step['id'])
                continue
            if 'uses' in step:
                cls.ran[step['id']] = step
                continue
            output_file = os.path.join(temp, step['id'] + '.out')
            open(output_file, 'w').close()
            env = dict(os.environ, GITHUB_ACTION_PATH=source_dir(),
                       GITHUB_OUTPUT=output_file, RUNNER_TEMP=temp,
                       GITHUB_STEP_SUMMARY=cls.summary,
                       GITHUB_WORKSPACE=cls.root)
            for name, text in step.get('env', {}).items():
                env[name] = github_expression(str(text), cls.inputs, cls.outputs)
            cls.ran[step['id']] = subprocess.run(
                [step['shell'], '-c', step['run']], cwd=cls.root, env=env,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            cls.outputs[step['id']] = dict(
                line.split('=', 1) for line in read(output_file).splitlines())

    def states(self, sarif_path):
        log = json.loads(read(sarif_path))
        return sorted(r['baselineState'] for r in log['runs'][0]['results']
                      if r['ruleId'] in CHECKS)

    def test_a_composite_action_with_its_inputs(self):
        self.assertEqual(self.action['runs']['using'], 'composite')
        for name in ('build-dir', 'baseline', 'diff', 'args', 'sarif-category',
                     'upload', 'torch-tidy'):
            self.assertIn(name, self.action['inputs'])
        for step in self.action['runs']['steps']:
            self.assertTrue(step.get('name'), step)
            if 'run' in step:
                self.assertEqual(step['shell'], 'bash')
                syntax = subprocess.run(['bash', '-n', '-c', step['run']])
                self.assertEqual(syntax.returncode, 0, step['run'])

    def test_a_given_torch_tidy_skips_install_and_build(self):
        self.assertEqual(self.skipped, ['install', 'build'])

    def test_the_analysis_writes_sarif_with_the_baseline(self):
        proc = self.ran['analyse']
        self.assertEqual(self.written.code, 0, self.written)
        self.assertEqual(proc.returncode, 0, proc.stdout)
        self.assertEqual(self.outputs['analyse']['exit-code'], '1', proc.stdout)
        log = json.loads(read(self.outputs['analyse']['sarif']))
        self.assertEqual(log['runs'][0]['automationDetails']['id'], 'torch-tidy/')
        self.assertEqual(self.states(self.outputs['analyse']['sarif']),
                         ['absent', 'new', 'unchanged', 'unchanged'])

    def test_the_upload_has_no_absent_results(self):
        self.assertEqual(self.ran['prepare'].returncode, 0,
                         self.ran['prepare'].stdout)
        self.assertEqual(self.states(self.outputs['prepare']['sarif']),
                         ['new', 'unchanged', 'unchanged'])
        step = self.ran['upload']
        self.assertTrue(step['uses'].startswith(
            'github/codeql-action/upload-sarif@'), step)
        self.assertEqual(github_expression(step['with']['sarif_file'],
                                           self.inputs, self.outputs),
                         self.outputs['prepare']['sarif'])
        self.assertEqual(github_expression(step['with']['category'],
                                           self.inputs, self.outputs),
                         'torch-tidy')

    def test_the_findings_that_count_are_annotations_in_the_log(self):
        log = self.ran['analyse'].stdout
        annotations = [l for l in log.splitlines() if l.startswith('::')]
        # Only the new finding counts (the baseline has the others): a bug,
        # so an error, at the workspace's relative path, to the end of the
        # call, titled with its rule, its note in the message.
        self.assertEqual(len(annotations), 1, log)
        self.assertRegex(
            annotations[0],
            r"^::error file=src/main\.cpp,line=21,col=3,endLine=21,"
            r"endColumn=10,title=device-discarded-to::result of 'to' is "
            r"discarded: .*%0Anote: src/main\.cpp:22: ", log)
        # The same finding as text, with its source line.
        self.assertIn(self.paths['src/main.cpp'] + ':21:3: warning: result of '
                      "'to' is discarded", log)
        self.assertIn('  x.to(d);', log)

    def test_the_job_summary_is_a_table_by_rule_and_severity(self):
        summary = read(self.summary)
        self.assertIn('| Rule | Severity | Findings |', summary)
        self.assertRegex(summary, r'\| \[`device-discarded-to`\]\([^)]*'
                         r'device-discarded-to\.md\) \| bug \| 1 \|')
        self.assertIn('| **total** | | **1** |', summary)

    def test_the_readme_section_it_cites_exists(self):
        cited = re.search(r'README\.md, "([^"]+)"',
                          read(os.path.join(source_dir(), 'action.yml')))
        self.assertTrue(cited)
        readme = read(os.path.join(source_dir(), 'README.md'))
        self.assertIn('\n## %s\n' % cited.group(1), readme)

    def test_the_job_fails_after_the_upload(self):
        self.assertEqual(self.ran['gate'].returncode, 1, self.ran['gate'].stdout)
        order = [s['id'] for s in self.action['runs']['steps']]
        self.assertLess(order.index('upload'), order.index('gate'))


class PreCommitTest(ProjectTestCase):
    """.pre-commit-hooks.yaml through the real pre-commit, on a real git
    repository: a staged bug stops the commit, its fix lets it through."""

    @classmethod
    def setUpClass(cls):
        if not shutil.which('pre-commit'):
            raise unittest.SkipTest('pre-commit is not installed')
        cls.root = os.path.realpath(tempfile.mkdtemp(prefix='torch-tidy-e2e-'))
        cls.addClassCleanup(shutil.rmtree, cls.root, True)
        # The hook repository: this one's hooks file, committed.
        hooks = os.path.join(cls.root, 'hooks')
        os.makedirs(hooks)
        shutil.copy(os.path.join(source_dir(), '.pre-commit-hooks.yaml'), hooks)
        git(hooks, 'init', '-q')
        git(hooks, 'add', '.')
        git(hooks, 'commit', '-q', '-m', 'hooks')
        rev = git(hooks, 'rev-parse', 'HEAD').strip()
        # The project, its database in build/ as the hook's default expects.
        project = os.path.join(cls.root, 'project')
        cls.cpp = write(os.path.join(project, 'src', 'main.cpp'),
                        'int main() {}\n')
        write(os.path.join(project, 'build', 'compile_commands.json'),
              json.dumps([{'directory': project, 'file': 'src/main.cpp',
                           'arguments': [ARGS.clang] + flags() +
                           ['-c', 'src/main.cpp']}]))
        write(os.path.join(project, '.pre-commit-config.yaml'),
              'repos:\n- repo: %s\n  rev: %s\n  hooks:\n  - id: torch-tidy\n'
              % (hooks, rev))
        git(project, 'init', '-q')
        git(project, 'add', '.pre-commit-config.yaml', 'src/main.cpp')
        git(project, 'commit', '-q', '-m', 'start')
        env = dict(os.environ, PRE_COMMIT_HOME=os.path.join(cls.root, 'cache'),
                   PATH=os.path.dirname(os.path.abspath(ARGS.torch_tidy)) +
                   os.pathsep + os.environ['PATH'])
        tool('pre-commit', 'install', cwd=project, env=env)

        def commit(text, message):
            write(cls.cpp, text)
            git(project, 'add', 'src/main.cpp')
            return subprocess.run(
                ['git', '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit',
                 '-q', '-m', message], cwd=project, env=env,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        cls.stopped = commit(LAYOUT_CPP, 'bugs')
        cls.log_after_stop = git(project, 'log', '--format=%s')
        fixed = (LAYOUT_CPP
                 .replace('  image.to(device);', '  image = image.to(device);')
                 .replace('for (auto t : batch)', 'for (auto &t : batch)'))
        cls.passed = commit(fixed, 'fixed')
        cls.log_after_pass = git(project, 'log', '--format=%s')

    def test_a_staged_bug_stops_the_commit(self):
        self.assertNotEqual(self.stopped.returncode, 0, self.stopped.stdout)
        self.assertIn('Failed', self.stopped.stdout)
        self.assertIn("src/main.cpp:5:3: warning: result of 'to' is discarded",
                      self.stopped.stdout)
        self.assertIn('[device-discarded-to,bug]', self.stopped.stdout)
        self.assertEqual(self.log_after_stop.split(), ['start'])

    def test_the_fixed_file_is_committed(self):
        self.assertEqual(self.passed.returncode, 0, self.passed.stdout)
        self.assertIn('Passed', self.passed.stdout)
        self.assertEqual(self.log_after_pass.split(), ['fixed', 'start'])


class CMakeHookTest(ProjectTestCase):
    """CMAKE_CXX_CLANG_TIDY=torch-tidy: CMake runs it on each file it
    compiles, in its own form (torch-tidy ... <file> -- <compiler command>)."""

    @classmethod
    def setUpClass(cls):
        cls.root = os.path.realpath(tempfile.mkdtemp(prefix='torch-tidy-e2e-'))
        cls.addClassCleanup(shutil.rmtree, cls.root, True)
        cls.cpp = write(os.path.join(cls.root, 'src', 'x.cpp'), LAYOUT_CPP)
        write(os.path.join(cls.root, 'CMakeLists.txt'),
              CMAKE_PROJECT % (' '.join(torch_include()), ARGS.pch))
        cls.builds = {}
        for name, tidy in (('warn', ARGS.torch_tidy),
                           ('strict', ARGS.torch_tidy +
                            ';--fail-on=bug,hazard')):
            build = os.path.join(cls.root, 'build-' + name)
            tool('cmake', '-S', cls.root, '-B', build, '-G', 'Ninja',
                 '-DCMAKE_CXX_COMPILER=' + ARGS.clang,
                 '-DCMAKE_CXX_CLANG_TIDY=' + tidy)
            cls.builds[name] = subprocess.run(
                ['cmake', '--build', build], stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True)

    def test_the_build_prints_the_findings(self):
        build = self.builds['warn']
        self.assertEqual(build.returncode, 0, build.stdout)
        line, col, check = LAYOUT_FINDING
        self.assertIn('%s:%d:%d: warning: ' % (self.cpp, line, col), build.stdout)
        self.assertIn('[%s,bug]' % check, build.stdout)
        self.assertIn('[device-loop-copy-to,bug]', build.stdout)

    def test_bugs_fail_the_build(self):
        build = self.builds['strict']
        self.assertNotEqual(build.returncode, 0, build.stdout)
        self.assertIn('[device-discarded-to,bug]', build.stdout)
        self.assertIn('2 findings treated as errors (--fail-on=bug,hazard)',
                      build.stdout)
        self.assertIn('FAILED', build.stdout)



def parse_arguments(description):
    """The tools and flags (into ARGS); the rest, for unittest."""
    global ARGS
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument('--torch-tidy', required=True)
    parser.add_argument('--clang-tidy', required=True)
    parser.add_argument('--plugin', required=True)
    parser.add_argument('--clang', required=True)
    parser.add_argument('--pch', required=True)
    parser.add_argument('--flags', required=True)
    ARGS, rest = parser.parse_known_args()
    return rest


def main():
    rest = parse_arguments(__doc__)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == '__main__':
    main()
