#!/usr/bin/env python3
"""Runs torch-tidy on one check fixture, in the manner of clang-tidy's
check_clang_tidy.py.

The fixture is test/checks/<check-name>.cpp. Its comments say what must happen:
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'to' ... [device-...]
  // CHECK-FIXES: x = x.to(dev);
Every warning torch-tidy prints must be expected by a CHECK-MESSAGES line
(FileCheck's -implicit-check-not), the file after --fix must match the
CHECK-FIXES lines, and the fixed file must still compile. With --plugin, stock
clang-tidy loading libTorchTidyModule.so must print the same warnings.

torch-tidy writes the rule's severity after its name, `[device-x,bug]`; each
finding must carry the severity checks/Checks.def declares, and the lines are
then matched and compared with the plugin's (which cannot write it) as
`[device-x]`.

A fixture that says `// FIXTURE-FIX-NOTES` is fixed with --fix-notes too: the
fix-its that a rule puts on notes (edits that change more than the warning
says) are applied, checked and compiled.

A CUDA fixture, test/checks/<check-name>.cu, is parsed with --cuda-flags and
--cuda-pch (clang's CUDA host-side parse, as torch-tidy parses a .cu file);
without them (no CUDA toolkit) it is skipped with exit status 77.

A fixture that says `// FIXTURE-HEADERS: DIR` is parsed against the stand-in
headers in test/checks/DIR (its <torch/torch.h>) instead of LibTorch's, and
without the precompiled header: the construct alone, in milliseconds.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from check_registry import registry

CHECK_COMMENT = re.compile(r'// *CHECK-[A-Z0-9\-]*:[^\r\n]*')
# `// FIXTURE-CONFIG: {CheckOptions: ...}`: the fixture's own --config.
FIXTURE_CONFIG = re.compile(r'^// *FIXTURE-CONFIG: *(.*)$', re.MULTILINE)
# `// FIXTURE-FIX-NOTES`: --fix-notes with --fix.
FIXTURE_FIX_NOTES = re.compile(r'^// *FIXTURE-FIX-NOTES *$', re.MULTILINE)
# `// FIXTURE-HEADERS: standin`: stand-in headers instead of LibTorch's.
FIXTURE_HEADERS = re.compile(r'^// *FIXTURE-HEADERS: *(\S+) *$', re.MULTILINE)


def run(cmd, **kwargs):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, **kwargs)


def filecheck(filecheck_bin, fixture, prefix, text, extra=()):
    result = subprocess.run(
        [filecheck_bin, fixture, '--check-prefix=' + prefix, '--strict-whitespace'] +
        list(extra), input=text, text=True, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT)
    if result.returncode != 0:
        sys.exit('FileCheck %s failed:\n%s\n--- input was ---\n%s' %
                 (prefix, result.stdout, text))


def warning_lines(output):
    """The `file:line:col: warning: ... [check]` lines, of every file."""
    return sorted(line for line in output.splitlines()
                  if re.match(r'[^ ]+:\d+:\d+: warning: ', line))


def without_severity(output, check, root):
    """torch-tidy's output with `[check,<severity>` written `[check`, once
    every finding of \p check is found to carry the declared severity."""
    declared = {name: severity for name, _, severity, _, _ in registry(root)}
    tags = re.findall(r'\[' + re.escape(check) + r'(,[a-z]+)?[],]', output)
    wrong = [tag for tag in tags if tag != ',' + declared[check]]
    if wrong:
        sys.exit('%s findings tagged %s, not its severity in Checks.def, %s' %
                 (check, wrong, declared[check]))
    return output.replace('[%s,%s' % (check, declared[check]), '[' + check)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('fixture')
    parser.add_argument('--torch-tidy', required=True)
    parser.add_argument('--filecheck', required=True)
    parser.add_argument('--clang', required=True)
    parser.add_argument('--pch', required=True)
    parser.add_argument('--plugin', help='libTorchTidyModule.so to compare with')
    parser.add_argument('--clang-tidy', help='stock clang-tidy for --plugin')
    parser.add_argument('--config', help='configuration (--config) to use')
    parser.add_argument('--flags', default='-std=c++17',
                        help='compiler flags, space separated')
    parser.add_argument('--cuda-pch', default='',
                        help='the precompiled header of the .cu fixtures')
    parser.add_argument('--cuda-flags', default='',
                        help='compiler flags of the .cu fixtures')
    args = parser.parse_args()
    extension = os.path.splitext(args.fixture)[1]
    if extension == '.cu':
        if not args.cuda_pch or not args.cuda_flags:
            print('fixture %s: skipped, no CUDA toolkit (set CUDA_HOME)' %
                  args.fixture)
            sys.exit(77)
        args.pch, args.flags = args.cuda_pch, args.cuda_flags

    check = os.path.splitext(os.path.basename(args.fixture))[0]
    check = check.split('.')[0]  # device-x.strict.cpp tests device-x too
    with open(args.fixture) as f:
        original = f.read()
    has_fixes = 'CHECK-FIXES' in original
    if not args.config:
        config = FIXTURE_CONFIG.search(original)
        if config:
            args.config = config.group(1).strip()

    headers = FIXTURE_HEADERS.search(original)
    if headers:
        standin = os.path.join(os.path.dirname(os.path.abspath(args.fixture)),
                               headers.group(1))
        if not os.path.isdir(standin):
            sys.exit('no stand-in header directory ' + standin)
        # The language standard of the fixtures, none of LibTorch's paths.
        flags = [f for f in args.flags.split() if f.startswith('-std=')]
        flags += ['-I', standin]
    else:
        flags = args.flags.split() + ['-include-pch', args.pch]
    workdir = tempfile.mkdtemp(prefix='torch-tidy-fixture-')
    try:
        path = os.path.join(workdir, check + extension)
        with open(path, 'w') as f:
            f.write(CHECK_COMMENT.sub('//', original))

        tidy = [args.torch_tidy, path, '--checks=-*,' + check, '--quiet']
        if args.config:
            tidy.append('--config=' + args.config)
        if has_fixes:
            tidy.append('--fix')
            if FIXTURE_FIX_NOTES.search(original):
                tidy.append('--fix-notes')
        result = run(tidy + ['--'] + flags)
        print(result.stdout)
        if result.returncode != 0:
            sys.exit('torch-tidy exited with %d' % result.returncode)
        root = os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))
        output = without_severity(result.stdout, check, root)

        filecheck(args.filecheck, args.fixture, 'CHECK-MESSAGES', output,
                  ['-implicit-check-not={{warning|error}}:',
                   '--allow-empty'])  # a fixture of negatives only
        if has_fixes:
            with open(path) as f:
                fixed = f.read()
            filecheck(args.filecheck, args.fixture, 'CHECK-FIXES', fixed)
            compiled = run([args.clang, '-fsyntax-only', path] + flags)
            if compiled.returncode != 0:
                sys.exit('the fixed file does not compile:\n' + compiled.stdout)

        if args.plugin:
            with open(path, 'w') as f:
                f.write(CHECK_COMMENT.sub('//', original))
            stock = [args.clang_tidy, '--load=' + args.plugin,
                     '--checks=-*,' + check, path]
            if args.config:
                stock.append('--config=' + args.config)
            plugin = run(stock + ['--'] + flags)
            ours, theirs = warning_lines(output), warning_lines(plugin.stdout)
            if ours != theirs:
                sys.exit('clang-tidy --load differs from torch-tidy:\n'
                         'torch-tidy:\n  %s\nclang-tidy:\n  %s\n%s' %
                         ('\n  '.join(ours), '\n  '.join(theirs), plugin.stdout))
    finally:
        shutil.rmtree(workdir)
    print('fixture %s: passed' % check)


if __name__ == '__main__':
    main()
