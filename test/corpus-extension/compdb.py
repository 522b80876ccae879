#!/usr/bin/env python3
"""Compile commands for C++/CUDA extension sources: .cu through clang's CUDA front end (host side),
.cpp/.cc as C++, with the CUDA 13 / CPU-LibTorch stand-in headers of check-parse.sh.

    compdb.py [-o compile_commands.json] [--shims DIR] [-I DIR ...] FILE...
    compdb.py --check [--clang clang++-19] FILE...     # parse each file (-fsyntax-only), one at a time

Writes a compile database for torch-tidy (-p DIR); check-parse.sh and bench/fixed-bugs/replay.py
use it too.
Python 3 standard library only.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")
SHIM_HEADERS = ("texture_fetch_functions.h", "texture_indirect_functions.h",
                "c10/cuda/impl/cuda_cmake_macros.h")


def make_shims(directory, extra=()):
    """Empty stand-ins for the headers CUDA 13 / Debian's CPU-only LibTorch lack (searched last),
    and for `extra` ones (headers of older PyTorch releases that a fetched project includes)."""
    for name in SHIM_HEADERS + tuple(extra):
        path = os.path.join(directory, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "a").close()
    return directory


def python_include():
    found = sorted(glob.glob("/usr/include/python3*/Python.h"))
    return os.path.dirname(found[-1]) if found else None


def command_for(path, shims, includes=(), defines=(), extra=()):
    """The clang argument list that parses `path` as the extension build would compile it."""
    args = ["clang++"]
    if path.endswith((".cu", ".cuh")):
        args += ["-x", "cuda", "--cuda-host-only", "-Wno-unknown-cuda-version",
                 "--cuda-path=" + CUDA_HOME, "-nocudalib"]
    else:
        args += ["-x", "c++"]
    args += ["-std=c++17", "-I/usr/include/torch/csrc/api/include", "-I" + CUDA_HOME + "/include",
             "-I" + CUDA_HOME + "/include/cccl"]
    args += ["-I" + d for d in includes]
    # What torch.utils.cpp_extension defines: torch/torch.h then pulls in torch/extension.h
    # (pybind11), and PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) gets a module name.
    stem = os.path.splitext(os.path.basename(path))[0]
    args += ["-DTORCH_API_INCLUDE_EXTENSION_H", "-DTORCH_EXTENSION_NAME=" + "".join(
        c if c.isalnum() else "_" for c in stem)]
    args += ["-D" + d for d in defines]
    args += list(extra)
    py = python_include()
    if py:
        args += ["-isystem", py]
    args += ["-idirafter", shims, "-c", path]
    return args


def entries(paths, shims, includes=(), defines=(), extra=()):
    return [{"directory": os.path.dirname(os.path.abspath(p)), "file": os.path.abspath(p),
             "arguments": command_for(os.path.abspath(p), shims, includes, defines, extra)} for p in paths]


def check(paths, shims, clang):
    """Parses every file; prints the ones that fail; returns how many failed."""
    failed = 0
    for path in paths:
        args = command_for(os.path.abspath(path), shims)
        args = [clang] + [a for a in args[1:] if a != "-c"] + ["-fsyntax-only"]
        if subprocess.run(args).returncode != 0:
            print(f"check-parse: {os.path.basename(path)} does not parse", file=sys.stderr)
            failed += 1
    print(f"check-parse: {len(paths) - failed} of {len(paths)} files parse")
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--output", default="compile_commands.json")
    ap.add_argument("--shims", default="/tmp/extshims", help="where the stand-in headers are made")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    ap.add_argument("--check", action="store_true", help="parse the files instead of writing a database")
    ap.add_argument("--clang", default="clang++-19")
    args = ap.parse_args()
    make_shims(args.shims)
    if args.check:
        return 1 if check(args.files, os.path.abspath(args.shims), args.clang) else 0
    with open(args.output, "w", encoding="utf-8") as f:
        json.dump(entries(args.files, os.path.abspath(args.shims), args.includes), f, indent=1)
    print(f"compdb: {len(args.files)} files -> {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
