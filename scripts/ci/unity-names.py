#!/usr/bin/env python3
"""Fails when a unity batch holds two file-local functions of one name.

A unity build (cmake/UnityBuild.cmake) compiles several sources as one file.
Two static functions, or two in anonymous namespaces, with the same name
and the same parameters fail to compile; with other parameters they compile
as overloads, and a call meant for one file's function may silently pick the
other file's (a `factory(const char *, ...)` beats a
`factory(const std::string &, ...)` for a string literal). This reads the
batches CMake wrote (BUILD/**/Unity/unity_*.cxx) and lists every name that a
batch defines in two sources, where one of them is file-local.

    unity-names.py BUILD_DIR
"""
import glob
import os
import re
import sys

INCLUDE = re.compile(r'^#include "(.+)"$', re.MULTILINE)
# A function defined at the start of a line, outside any class: its name is
# the last identifier before '(' (not qualified: members are A::f).
DEFINITION = re.compile(r'^(?!(?:return|using|namespace|typedef|class|struct|'
                        r'enum|template|TEST|TEST_F|TEST_P|INSTANTIATE)\b)'
                        r'[A-Za-z_][\w:<>,\s\*&]*?[\s\*&](\w+)\s*\(')
ANONYMOUS_OPEN = re.compile(r'^namespace\s*\{')
NAMESPACE_CLOSE = re.compile(r'^\}')
# C++ code that tests hold in raw strings is not the file's own.
RAW_STRING = re.compile(r'R"(\w*)\(.*?\)\1"', re.DOTALL)


def defined_names(path):
    """{name: file_local} for the functions \\p path defines at top level."""
    names = {}
    anonymous = False
    with open(path, encoding='utf-8', errors='replace') as source:
        text = RAW_STRING.sub('""', source.read())
        for line in text.splitlines():
            if ANONYMOUS_OPEN.match(line):
                anonymous = True
            elif NAMESPACE_CLOSE.match(line) and 'namespace' in line:
                anonymous = False
            match = DEFINITION.match(line)
            if not match or line.rstrip().endswith(';'):
                continue
            local = anonymous or line.startswith('static ')
            name = match.group(1)
            names[name] = names.get(name, False) or local
    return names


def clashes(batch):
    """(name, first source, second source) for each clash in \\p batch."""
    with open(batch, encoding='utf-8') as unity:
        sources = INCLUDE.findall(unity.read())
    seen = {}
    found = []
    for source in sources:
        for name, local in defined_names(source).items():
            if name in seen and (local or seen[name][1]):
                found.append((name, seen[name][0], source))
            seen.setdefault(name, (source, local))
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: unity-names.py BUILD_DIR')
    batches = glob.glob(os.path.join(sys.argv[1], '**', 'Unity', 'unity_*.cxx'),
                        recursive=True)
    if not batches:
        sys.exit('unity-names.py: no unity batches under %s (configure with '
                 '-DCMAKE_UNITY_BUILD=ON)' % sys.argv[1])
    problems = [c for batch in sorted(batches) for c in clashes(batch)]
    for name, first, second in problems:
        print("'%s' is defined in %s and %s, one of them file-local: in one "
              "unity batch a call may reach the other file's; rename one"
              % (name, os.path.relpath(first), os.path.relpath(second)))
    print('%d unity batches, %d clashes' % (len(batches), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
