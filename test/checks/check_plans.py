#!/usr/bin/env python3
"""Checks the replay plans torch-tidy emits for one check fixture.

Runs torch-tidy with --emit-plans on test/checks/<check>.cpp (through the
precompiled LibTorch header, as check_fixture.py does) and checks that:
  - every emitted plan passes the runtime's validator (validate_plans);
  - every plan belongs to a finding, and replays that finding's operation: a
    finding in 'operator*' has a 'mul' plan, never an 'add' one; a finding on
    '.cuda()' a 'cuda' move; and so on, rule by rule;
  - a finding without a plan says why: its operation is not replayable, or
    its rule records no plans;
  - with --probe, replayed on the meta stand-in, a plan is confirmed only
    where meta checks devices as a GPU does.
The operation tables here are written from LibTorch's API, independently of
checks/plans, so that the two check each other.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

CHECK_COMMENT = re.compile(r'// *CHECK-[A-Z0-9\-]*:[^\r\n]*')
FIXTURE_CONFIG = re.compile(r'^// *FIXTURE-CONFIG: *(.*)$', re.MULTILINE)

NOT_REPLAYABLE = 'operation not replayable'
NO_PLAN = 'no replay plan for this finding'

# Rules whose findings never carry a plan: the format has no step for them.
RULES_WITHOUT_PLANS = {'device-from-blob', 'device-hardcoded',
                       'device-invalid-string', 'device-load-without-device',
                       'device-unmoved-module'}
# Rules whose findings have no faithful replay: each says its operation is
# not replayable (the same on every device, or about how processes launch).
RULES_NOT_REPLAYABLE = {'device-rank-unaware', 'device-string-compare',
                        'training-inference-without-no-grad',
                        'training-missing-zero-grad'}
# The step that replays each host-device synchronisation of
# device-sync-in-loop: (op, fn); equal/allclose/is_nonzero have none.
SYNC_STEP = {'item': ('sync', 'item'), 'cpu': ('move', 'cpu'),
             'to': ('move', 'to'), 'synchronize': ('sync', 'synchronize'),
             'operator<<': ('sync', 'print'), 'nonzero': ('sync', 'nonzero')}

# The plan's call function for each LibTorch function or tensor operator.
CALL_OF = {
    'operator+': 'add', 'operator-': 'sub', 'operator*': 'mul',
    'operator/': 'div', 'operator==': 'eq', 'operator!=': 'ne',
    'operator<': 'lt', 'operator<=': 'le', 'operator>': 'gt',
    'operator>=': 'ge', 'operator&': 'bitwise_and', 'operator|': 'bitwise_or',
    'operator^': 'bitwise_xor', 'operator+=': 'add_', 'operator-=': 'sub_',
    'operator*=': 'mul_', 'operator/=': 'div_', 'cross_entropy_loss':
    'cross_entropy'}
for name in ('add sub mul div true_divide fmod remainder pow eq ne lt le gt '
             'ge minimum maximum atan2 hypot logical_and logical_or where '
             'add_ sub_ mul_ div_ pow_ lerp mm matmul bmm mv dot cat '
             'stack hstack vstack index_select mse_loss l1_loss '
             'smooth_l1_loss huber_loss kl_div cross_entropy nll_loss '
             'binary_cross_entropy binary_cross_entropy_with_logits').split():
    CALL_OF[name] = name
# Loss modules, by class, and the function their forward calls.
LOSS_MODULE_CALL = {
    'CrossEntropyLoss': 'cross_entropy', 'NLLLoss': 'nll_loss',
    'MSELoss': 'mse_loss', 'L1Loss': 'l1_loss',
    'SmoothL1Loss': 'smooth_l1_loss', 'HuberLoss': 'huber_loss',
    'KLDivLoss': 'kl_div', 'BCELoss': 'binary_cross_entropy',
    'BCEWithLogitsLoss': 'binary_cross_entropy_with_logits'}
# Where meta throws LibTorch's same-device error as a GPU does (measured with
# LibTorch 1.13; DESIGN.md, "LibTorch facts").
META_MODELS = set(
    'add sub mul div true_divide fmod remainder pow eq ne lt le gt ge '
    'bitwise_and bitwise_or bitwise_xor minimum maximum atan2 hypot add_ sub_ '
    'mul_ div_ pow_ clamp lerp mse_loss l1_loss smooth_l1_loss kl_div '
    'binary_cross_entropy_with_logits'.split())
# Methods that read a tensor's memory through data_ptr.
RAW_ACCESS = {'data_ptr', 'data', 'accessor', 'mutable_data_ptr',
              'const_data_ptr'}
MOVES = {'to', 'cuda', 'cpu'}


class Failure(Exception):
    pass


def expect(condition, what, finding):
    if not condition:
        raise Failure('%s:%s: %s\n  finding: %s' % (
            finding['line'], finding['column'], what, finding['message']))


def quoted_after(message, prefix):
    match = re.search(prefix + r"'([^']+)'", message)
    return match.group(1) if match else None


def step_at_expect(plan):
    return plan['steps'][plan['expect']['step']]


def steps_with_op(plan, op):
    return [s for s in plan['steps'] if s['op'] == op]


def check_conflict(finding, plan):
    """device-mismatch, -factory-without-device, -unmoved-target."""
    message = finding['message']
    loss = quoted_after(message, r'in the loss ')
    name = quoted_after(message, r' in ') if loss is None else None
    wanted = LOSS_MODULE_CALL.get(loss) if loss else CALL_OF.get(name)
    if plan is None:
        expect(wanted is None, "no plan for '%s', which the format replays "
               "as '%s'" % (loss or name, wanted), finding)
        return
    step = step_at_expect(plan)
    expect(plan['expect']['kind'] == 'device-mismatch',
           'the observable is not a device mismatch', finding)
    expect(step['op'] == 'call' and step['fn'] == wanted,
           "the plan replays '%s' where the finding is in '%s'" %
           (step.get('fn', step['op']), loss or name), finding)


def declared_module_class(source, variable):
    match = re.search(r'torch::nn::(\w+)\s+' + re.escape(variable) + r'\b',
                      source)
    return match.group(1) if match else None


def check_unmoved_input(finding, plan, source):
    module = quoted_after(finding['message'], r'but ')
    layer = {'Linear': 'linear', 'Conv2d': 'conv2d'}.get(
        declared_module_class(source, module))
    if plan is None:
        expect(layer is None, "no plan for a '%s' module" % layer, finding)
        return
    expect(layer is not None, "a plan replays the forward of '%s', a module "
           "whose forward is user code" % module, finding)
    step = step_at_expect(plan)
    expect(step['op'] == 'forward', 'the plan does not end in a forward',
           finding)
    built = [s for s in plan['steps'] if s.get('id') == step['module']]
    expect(built and built[0]['op'] == layer,
           'the plan replays the forward of a %s, not of a %s' %
           (built[0]['op'] if built else '?', layer), finding)
    expect(steps_with_op(plan, 'module_to'), 'the module is never moved',
           finding)


def check_move(finding, plan, method):
    if plan is None:
        expect(method not in ('cuda', 'cpu'),
               "no plan for '.%s()', which the format replays" % method,
               finding)
        return
    expect(method in MOVES, "a plan replays '.%s()', which the format has "
           "no move for" % method, finding)
    moves = steps_with_op(plan, 'move')
    expect(len(moves) == 1 and moves[0]['fn'] == method,
           "the plan moves with '%s' where the code calls '.%s()'" %
           ([m['fn'] for m in moves], method), finding)


def loop_copy_method(finding, source_lines):
    line = source_lines[finding['line'] - 1][finding['column'] - 1:]
    match = re.search(r'=\s*[^;]*?\.(\w+)\(', line)
    return match.group(1) if match else None


def check_host_access(finding, plan):
    message = finding['message']
    temporary = re.search(r"'[^']*\.(\w+)\([^']*\)' is a new tensor", message)
    if temporary:
        method = temporary.group(1)
        check_move(finding, plan, method)
        if plan is not None:
            expect(plan['expect']['kind'] == 'to-copies' and
                   step_at_expect(plan)['op'] == 'move',
                   'the plan does not observe the copy', finding)
        return
    method = quoted_after(message, '^')
    expect(method in RAW_ACCESS, "unexpected access '%s'" % method, finding)
    expect(plan is not None and step_at_expect(plan)['op'] == 'data_ptr',
           "'%s' is not replayed as data_ptr" % method, finding)


def check_unregistered(finding, plan):
    message = finding['message']
    member = quoted_after(message, r'^(?:tensor member|submodule) ')
    if 'eval() does not reach it' in message:
        # A parameter-free module that reads the training mode: the format
        # replays devices, not modes.
        expect(plan is None, 'a plan for a training-mode finding', finding)
        return
    expect(plan is not None, 'no plan', finding)
    expect(step_at_expect(plan)['op'] == 'module_to',
           'the plan does not end in Module::to', finding)
    value = plan['expect']['value'].split('.')
    expect(len(value) >= 2 and value[1] == member,
           "the plan observes '%s', not the member '%s'" %
           (plan['expect']['value'], member), finding)


def check_sync(finding, plan):
    """A loop with and without the sync, timed: the sync is the observed step."""
    call = quoted_after(finding['message'], '^')
    wanted = SYNC_STEP.get(call)
    if plan is None:
        expect(wanted is None, "no plan for '%s', which the format replays"
               % call, finding)
        return
    expect(wanted is not None, "a plan replays '%s', which the format has no "
           "step for" % call, finding)
    expect(plan['expect']['kind'] == 'sync-cost',
           'the observable is not the cost of the sync', finding)
    step = step_at_expect(plan)
    expect((step['op'], step['fn']) == wanted,
           "the plan times '%s %s' where the code calls '%s'" %
           (step['op'], step['fn'], call), finding)
    if call == 'to':
        expect(step.get('device') == 'cpu', 'the move is not to the CPU',
               finding)
    work = plan['expect']['work']
    expect(0 <= work < plan['expect']['step'],
           'the loop has no work before the sync', finding)
    made = [s for s in plan['steps'] if s['op'] == 'factory']
    expect(made and all(s.get('device') == 'accel' for s in made),
           'the synced tensor is not on the device', finding)


def check_finding(check, finding, plan, source):
    lines = source.splitlines()
    verdict = finding.get('verdict', {})
    expect(finding['check'] == check, 'a finding of ' + finding['check'],
           finding)
    if check in RULES_NOT_REPLAYABLE:
        expect(plan is None, 'a plan for a finding with no faithful replay',
               finding)
    if plan is None:
        reason = NO_PLAN if check in RULES_WITHOUT_PLANS else NOT_REPLAYABLE
        expect(verdict.get('verdict') == 'inconclusive' and
               verdict.get('reason') == reason,
               "a finding without a plan must be inconclusive, '%s'; got %s" %
               (reason, verdict), finding)
    if check in RULES_WITHOUT_PLANS:
        expect(plan is None, 'a rule without plans emitted one', finding)
    elif check in ('device-mismatch', 'device-factory-without-device',
                   'device-unmoved-target'):
        check_conflict(finding, plan)
    elif check == 'device-unmoved-input':
        check_unmoved_input(finding, plan, source)
    elif check == 'device-discarded-to':
        check_move(finding, plan, quoted_after(finding['message'],
                                               r'result of '))
    elif check == 'device-loop-copy-to':
        check_move(finding, plan, loop_copy_method(finding, lines))
    elif check == 'device-mid-graph-to':
        check_move(finding, plan, quoted_after(finding['message'], '^'))
    elif check == 'device-loop-invariant-to':
        check_move(finding, plan, quoted_after(finding['message'], r'yet '))
    elif check == 'device-factory-then-to':
        check_move(finding, plan, quoted_after(finding['message'], r'by '))
    elif check == 'device-host-access':
        check_host_access(finding, plan)
    elif check == 'device-unregistered-member':
        check_unregistered(finding, plan)
    elif check == 'device-sync-in-loop':
        check_sync(finding, plan)
    elif check in RULES_NOT_REPLAYABLE:
        pass
    else:
        raise Failure('no plan checks for rule ' + check)


def check_meta_verdict(finding, plan):
    """Meta confirms a device mismatch only where it models it, and never
    the cost of a sync: it measures no device work."""
    verdict = finding.get('verdict', {})
    if plan is not None and plan['expect']['kind'] == 'sync-cost':
        expect(verdict.get('verdict') == 'inconclusive',
               'the cost of a sync on meta: %s' % verdict, finding)
        return
    if (plan is None or verdict.get('verdict') != 'confirmed' or
            plan['expect']['kind'] != 'device-mismatch'):
        return
    step = step_at_expect(plan)
    expect(step['op'] == 'call' and step['fn'] in META_MODELS,
           "confirmed on meta, which does not model '%s'" %
           step.get('fn', step['op']), finding)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('fixture')
    parser.add_argument('--torch-tidy', required=True)
    parser.add_argument('--validator', required=True,
                        help='validate_plans, the runtime validator')
    parser.add_argument('--pch', required=True)
    parser.add_argument('--probe', help='torch-tidy-probe, to replay on meta')
    parser.add_argument('--flags', default='-std=c++17')
    args = parser.parse_args()
    # torch-tidy runs in a temporary directory: every path must be absolute.
    for name in ('torch_tidy', 'validator', 'pch', 'probe'):
        if getattr(args, name):
            setattr(args, name, os.path.abspath(getattr(args, name)))

    check = os.path.basename(args.fixture).split('.')[0]
    with open(args.fixture) as f:
        original = f.read()
    config = FIXTURE_CONFIG.search(original)
    flags = args.flags.split() + ['-include-pch', args.pch]
    workdir = tempfile.mkdtemp(prefix='torch-tidy-plans-')
    try:
        source = CHECK_COMMENT.sub('//', original)
        path = os.path.join(workdir, check + '.cpp')
        with open(path, 'w') as f:
            f.write(source)
        plans_dir = os.path.join(workdir, 'plans')
        tidy = [args.torch_tidy, path, '--checks=-*,' + check, '--quiet',
                '--format=json', '--emit-plans=' + plans_dir]
        if config:
            tidy.append('--config=' + config.group(1).strip())
        env = dict(os.environ)
        if args.probe:
            tidy.append('--confirm=meta')
            env['TORCH_TIDY_PROBE'] = args.probe
        else:
            empty = os.path.join(workdir, 'verdicts.json')
            with open(empty, 'w') as f:
                json.dump({'format': 'torch-tidy-verdicts', 'version': 1,
                           'verdicts': []}, f)
            tidy.append('--verdicts=' + empty)
        result = subprocess.run(tidy + ['--'] + flags, cwd=workdir, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        if result.returncode != 0:
            sys.exit('torch-tidy exited with %d:\n%s' % (result.returncode,
                                                         result.stderr))
        findings = json.loads(result.stdout)
        if not findings:
            sys.exit('no findings in ' + args.fixture)

        files = sorted(glob.glob(os.path.join(plans_dir, '*.json')))
        if files:
            validated = subprocess.run([args.validator] + files,
                                       stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, text=True)
            if validated.returncode != 0:
                sys.exit('invalid plans:\n' + validated.stdout)
        plans = {}
        for name in files:
            with open(name) as f:
                plan = json.load(f)
            loc = plan['location']
            plans[(loc['line'], loc['column'], plan['check'])] = plan

        failures = []
        claimed = set()
        for finding in findings:
            key = (finding['line'], finding['column'], finding['check'])
            plan = plans.get(key)
            claimed.add(key)
            try:
                check_finding(check, finding, plan, source)
                if args.probe:
                    check_meta_verdict(finding, plan)
            except Failure as failure:
                failures.append(str(failure))
        for key in sorted(set(plans) - claimed):
            failures.append('%s:%s: a %s plan without a finding' % key)
        if failures:
            sys.exit('%d problem(s) with the plans of %s:\n%s' % (
                len(failures), check, '\n'.join(failures)))
        print('plans of %s: %d findings, %d plans, all valid and replaying '
              'their findings\' operations' % (check, len(findings),
                                               len(plans)))
    finally:
        shutil.rmtree(workdir)


if __name__ == '__main__':
    main()
