#!/usr/bin/env python3
"""The man page torch-tidy.1, from the --help of a torch-tidy executable:
the overview as DESCRIPTION, the options as they are printed.

  help-to-man.py TORCH_TIDY OUTPUT
"""
import subprocess
import sys


def roff(text):
    """Text safe in roff: backslashes escaped, no line starting with a
    control character."""
    lines = []
    for line in text.replace('\\', '\\e').splitlines():
        if line.startswith(('.', "'")):
            line = '\\&' + line
        lines.append(line)
    return '\n'.join(lines)


def main():
    tool, output = sys.argv[1:]
    version = subprocess.run([tool, '--version'], stdout=subprocess.PIPE,
                             text=True, check=True).stdout.split()
    help_text = subprocess.run([tool, '--help'], stdout=subprocess.PIPE,
                               text=True, check=True).stdout
    overview, _, rest = help_text.partition('USAGE:')
    overview = overview.replace('OVERVIEW:', '').strip()
    usage, _, options = rest.partition('OPTIONS:')
    page = [
        '.TH TORCH-TIDY 1 "" "torch-tidy %s" "User Commands"' % version[1],
        '.SH NAME',
        'torch-tidy \\- device-consistency bugs in LibTorch C++ code',
        '.SH SYNOPSIS',
        '.nf', roff(usage.strip()), '.fi',
        '.SH DESCRIPTION',
        '.nf', roff(overview), '.fi',
        '.SH OPTIONS',
        '.nf', roff(options.strip('\n')), '.fi',
        '.SH SEE ALSO',
        "clang-tidy(1); the README and the rules' pages (docs/checks/) in "
        'share/doc/torch-tidy of the installation',
    ]
    with open(output, 'w') as f:
        f.write('\n'.join(page) + '\n')


if __name__ == '__main__':
    main()
