#!/usr/bin/env python3
"""Writes a compile_commands.json for a source tree without running its build system.

    compdb.py ROOT OUT_DIR [SUBDIR ...] [!GLOB ...]

Every .cpp/.cc/.cxx under the SUBDIRs (default: the whole tree), outside obviously
vendored directories and outside the !GLOBs (fnmatch patterns on the path relative to ROOT,
for vendored files that no directory name gives away), becomes one entry:

    clang++ -std=c++NN -I<each directory of ROOT that holds headers, and its parents>
            -I/usr/include/torch/csrc/api/include -I/usr/include/opencv4
            -I/usr/include/eigen3 -I/usr/include/python3.N [-D<the project's global CMake
            definitions>] -c FILE

  - vendored directories (third_party, external, ...) are left out of the file list but
    kept as include directories;
  - a directory holding a header named like a system header (math.h, time.h, ...) is
    passed with -iquote, not -I, so that <math.h> still finds the system's;
  - -std is $REALWORLD_STD (default 17); 'auto' takes the standard the project's CMake asks
    for, if later than 17 (Debian's LibTorch 1.13 headers do not compile as C++20 with
    libstdc++ 12: c10::IValue is incomplete where constexpr std::vector needs it);
  - the definitions are those of add_definitions()/add_compile_definitions() in the
    CMakeLists.txt of ROOT and of the SUBDIRs, without generator expressions or
    variables.

Also writes OUT_DIR/files.json: the analysed files with their non-blank line counts, the
include directories, the flags, the -std used and the one the project's CMake asks for (for
the report and the fix check).
"""
import fnmatch
import glob
import json
import os
import re
import sys

SOURCE_EXT = (".cpp", ".cc", ".cxx")
HEADER_EXT = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tcc", ".cuh")
# Directory names that hold someone else's code: not analysed, still on the include path.
VENDORED = {
    "third_party", "third-party", "thirdparty", "3rdparty", "3rd_party", "3rd-party", "3rd",
    "external", "externals", "extern", "vendor", "vendors", "vendored", "deps", "_deps",
    "dependencies", "submodules", "contrib", "libtorch",
}
# Directories that are build output or tool state, never source.
SKIPPED = {".git", ".github", ".cache", ".vscode", ".idea", "__pycache__", "node_modules"}
SYSTEM_INCLUDE_DIRS = (
    ["/usr/include", "/usr/include/x86_64-linux-gnu", "/usr/local/include"]
    + sorted(glob.glob("/usr/include/c++/*"))
    + sorted(glob.glob("/usr/lib/llvm-19/lib/clang/*/include"))
)
EXTERNAL_INCLUDES = [
    "/usr/include/torch/csrc/api/include",
    "/usr/include/opencv4",
    "/usr/include/eigen3",
] + sorted(glob.glob("/usr/include/python3.[0-9]*"),      # pybind11's <Python.h>: the newest
           key=lambda d: int(d.rsplit(".", 1)[1]))[-1:]
COMPILER = "clang++"


def is_build_dir(name):
    return name == "build" or name.startswith(("cmake-build-", "build-", "build_"))


def walk(root):
    """Yields (dirpath, dirnames, filenames) below root, skipping tool and build dirs."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIPPED and not d.startswith(".") and not is_build_dir(d))
        yield dirpath, dirnames, sorted(filenames)


def shadows_system_header(name):
    return any(os.path.isfile(os.path.join(d, name)) for d in SYSTEM_INCLUDE_DIRS)


def include_dirs(root):
    """(-I dirs, -iquote dirs): every directory holding headers and its parents up to root."""
    with_headers, shadowing = set(), set()
    for dirpath, _, filenames in walk(root):
        headers = [f for f in filenames if f.endswith(HEADER_EXT)]
        if headers:
            with_headers.add(dirpath)
            if any(shadows_system_header(h) for h in headers):
                shadowing.add(dirpath)
    dirs = set()
    for d in with_headers:
        while True:
            dirs.add(d)
            if d == root:
                break
            d = os.path.dirname(d)
    return sorted(dirs - shadowing), sorted(shadowing)


def is_vendored(rel):
    return any(part.lower() in VENDORED for part in rel.split(os.sep)[:-1])


def sources(root, subdirs, excluded=()):
    found = []
    for sub in subdirs or ["."]:
        top = os.path.normpath(os.path.join(root, sub))
        if not os.path.isdir(top):
            print(f"compdb: no directory '{sub}' in {root}", file=sys.stderr)
            continue
        for dirpath, _, filenames in walk(top):
            for f in filenames:
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                if (f.endswith(SOURCE_EXT) and not is_vendored(rel)
                        and not any(fnmatch.fnmatch(rel, g) for g in excluded)):
                    found.append(path)
    return sorted(set(found))


STD_PATTERNS = [
    re.compile(r"CMAKE_CXX_STANDARD\s+(\d+)"),
    re.compile(r"CXX_STANDARD\s+(\d+)"),
    re.compile(r"cxx_std_(\d+)"),
    re.compile(r"-std=(?:c|gnu)\+\+(\w\w)"),
]
STD_ALIASES = {"0x": 11, "1y": 14, "1z": 17, "2a": 20, "2b": 23, "2c": 26}


def cmake_files(root, subdirs):
    """The CMakeLists.txt files that speak for the analysed part of the tree."""
    files = {os.path.join(root, "CMakeLists.txt")}
    for sub in subdirs:
        top = os.path.normpath(os.path.join(root, sub))
        d = top
        while d.startswith(root) and d != root:      # the subdir's parents
            files.add(os.path.join(d, "CMakeLists.txt"))
            d = os.path.dirname(d)
        for dirpath, _, filenames in walk(top):     # and everything below it
            if "CMakeLists.txt" in filenames and not is_vendored(
                    os.path.relpath(os.path.join(dirpath, "x"), root)):
                files.add(os.path.join(dirpath, "CMakeLists.txt"))
    if not subdirs:
        for dirpath, _, filenames in walk(root):
            if "CMakeLists.txt" in filenames and not is_vendored(
                    os.path.relpath(os.path.join(dirpath, "x"), root)):
                files.add(os.path.join(dirpath, "CMakeLists.txt"))
    return sorted(f for f in files if os.path.isfile(f))


def strip_cmake_comments(text):
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def cmake_settings(root, subdirs):
    std, defines = 17, []
    for path in cmake_files(root, subdirs):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = strip_cmake_comments(f.read())
        for pattern in STD_PATTERNS:
            for m in pattern.finditer(text):
                v = m.group(1)
                v = STD_ALIASES.get(v, int(v) if v.isdigit() else 0)
                if v in (17, 20, 23, 26):
                    std = max(std, v)
        for m in re.finditer(r"\badd_(compile_)?definitions\s*\(([^)]*)\)", text, re.I):
            for token in m.group(2).split():
                token = token.strip('"')
                if "$" in token or "<" in token or not token:
                    continue
                if m.group(1):                     # add_compile_definitions(FOO=1)
                    token = "-D" + token
                if re.fullmatch(r"-D[A-Za-z_]\w*(=[\w.]*)?", token) and token not in defines:
                    defines.append(token)
    return std, defines


def non_blank_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return sum(1 for line in f if line.strip())


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    out_dir = os.path.abspath(argv[2])
    subdirs = [s.strip("/") for s in argv[3:] if not s.startswith("!")]
    excluded = [s[1:] for s in argv[3:] if s.startswith("!")]
    inc, quote = include_dirs(root)
    project_std, defines = cmake_settings(root, subdirs)
    wanted_std = os.environ.get("REALWORLD_STD", "17")
    std = project_std if wanted_std == "auto" else int(wanted_std)
    flags = [f"-std=c++{std}"]
    flags += [f"-I{d}" for d in inc] + [a for d in quote for a in ("-iquote", d)]
    flags += [f"-I{d}" for d in EXTERNAL_INCLUDES] + defines
    files = sources(root, subdirs, excluded)
    entries = [{"directory": os.path.dirname(f), "file": f,
                "arguments": [COMPILER] + flags + ["-c", f]} for f in files]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    meta = {"root": root, "flags": flags, "std": std, "project_std": project_std,
            "defines": defines,
            "include_dirs": inc, "quote_dirs": quote,
            "files": {os.path.relpath(f, root): non_blank_lines(f) for f in files}}
    with open(os.path.join(out_dir, "files.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(f"{len(files)} files, -std=c++{std}, {len(inc)} -I, {len(quote)} -iquote"
          + (f", {' '.join(defines)}" if defines else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
