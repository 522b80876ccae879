#!/usr/bin/env python3
"""Which analysed files did not compile, and why (scripts/realworld.sh, after torch-tidy).

    classify.py OUT_DIR KEY

Reads OUT_DIR/db/KEY/files.json (compdb.py) and OUT_DIR/KEY.json (torch-tidy's findings);
writes OUT_DIR/errors/KEY.json:
  {"causes": {analysed file: cause}, "first_error": {analysed file: "path: message"},
   "suspect": [files only broken files include], "compiled": [files compiled here to tell],
   "installed": [causes whose Debian package is installed: it lacks the header wanted]}

torch-tidy reports each compiler error once, where it is, without the file being analysed
(clang-diagnostic-error findings). An error in a project file is charged to every analysed
file that includes it (the project's own #includes, resolved like the compiler with
compdb.py's include directories). An error in a header outside the project (LibTorch,
libstdc++) cannot be charged that way: the analysed files left without a cause are then
compiled here, 'clang++-19 -fsyntax-only' under nice, and their first error decides.

A cause is the dependency named by a header that was not found ('opencv2/core.hpp' file
not found: OpenCV), "in-tree header off the include path (NAME)" when the project has a
file of that name; else "other (in LibTorch or system headers)" when the first error is
outside the project; else, when the project's CMake asks for a later standard than the -std
used, "the project's C++NN under -std=c++MM" (LibTorch 1.13's headers do not compile as
C++20 here, so such a project's C++20 code cannot); else "other".
"""
import collections
import json
import os
import re
import subprocess
import sys

# A missing header names its dependency: (regex on the include name, dependency, Debian package).
DEPENDENCIES = [
    (r"^opencv2?/|^cv\.h$|^highgui\.h$", "OpenCV", "libopencv-dev"),
    (r"^(Eigen|eigen3|unsupported/Eigen)/", "Eigen", "libeigen3-dev"),
    (r"^zmq(_addon)?\.hpp$", "cppzmq", "cppzmq-dev"),
    (r"^zmq\.h$", "ZeroMQ", "libzmq3-dev"),
    (r"^toml\+\+/", "toml++", "libtomlplusplus-dev"),
    (r"^toml\.hpp$", "toml++ or toml11", "libtomlplusplus-dev"),
    (r"^toml\.h$", "toml11", ""),
    (r"^boost/", "Boost", "libboost-dev"),
    (r"^yaml-cpp/", "yaml-cpp", "libyaml-cpp-dev"),
    (r"^fmt/", "fmt", "libfmt-dev"),
    (r"^folly/", "folly", ""),
    (r"^glog/", "glog", "libgoogle-glog-dev"),
    (r"^gflags/", "gflags", "libgflags-dev"),
    (r"^(gtest|gmock)/", "GoogleTest", "libgtest-dev"),
    (r"^spdlog/", "spdlog", "libspdlog-dev"),
    (r"^nlohmann/|^json\.hpp$", "nlohmann-json", "nlohmann-json3-dev"),
    (r"^(cuda|cuda_runtime\w*|cublas\w*|cudnn\w*|curand\w*|nvToolsExt)\.h$|^(thrust|cub)/"
     r"|^(c10|ATen)/cuda/|^torch/csrc/cuda/", "CUDA", ""),
    (r"^Qt\w*/|^Q[A-Z]\w*$|^Q[A-Z]\w*\.h$|^ui_\w+\.h$", "Qt", "qtbase5-dev"),
    (r"^re2/", "RE2", "libre2-dev"),
    (r"^sentencepiece", "sentencepiece", "libsentencepiece-dev"),
    (r"^double-conversion/", "double-conversion", "libdouble-conversion-dev"),
    (r"^utf8proc\.h$", "utf8proc", "libutf8proc-dev"),
    (r"^pybind11/", "pybind11", "pybind11-dev"),
    (r"^Python\.h$", "Python", "python3-dev"),
    (r"^msgpack\.hpp$", "msgpack", "libmsgpack-cxx-dev"),
    (r"^common/common\.h$|^llama\.h$", "llama.cpp", ""),
    (r"^tokenizers_cpp\.h$", "tokenizers-cpp", ""),
    (r"^cxxopts\.hpp$", "cxxopts", "libcxxopts-dev"),
    (r"^png\+\+/", "png++", "libpng++-dev"),
    (r"^(png|pngconf)\.h$", "libpng", "libpng-dev"),
    (r"^jpeglib\.h$", "libjpeg", "libjpeg-dev"),
    (r"^SFML/", "SFML", "libsfml-dev"),
    (r"^imgui", "Dear ImGui", ""),
    (r"^GL/|^GLFW/", "OpenGL", ""),
    (r"^omp\.h$", "OpenMP", "libomp-19-dev"),
    (r"^(format|print|expected|generator|stacktrace|flat_map|flat_set|mdspan|spanstream)$",
     "a newer libstdc++ (C++20/23 headers)", ""),
    (r"^(windows|Windows|direct|io|tchar|conio)\.h$", "Windows SDK", ""),
    (r"^c10d/|^torch/csrc/distributed/", "LibTorch distributed (c10d)", ""),
    (r"^(torch|ATen|c10|caffe2)/", "LibTorch (a newer one)", ""),
    (r"^tensorrt|^NvInfer", "TensorRT", ""),
    (r"^onnxruntime", "ONNX Runtime", ""),
]
NOT_FOUND = re.compile(r"'(.+)' file not found")
# Errors in LibTorch's or the C++ library's own headers: the environment (a LibTorch too old
# for the project, or for its -std), rarely the project.
OUTSIDE = "other (in LibTorch or system headers)"
ERROR_LINE = re.compile(r"^(.*?):\d+:\d+: (?:fatal )?error: (.*)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
CLANGXX = os.environ.get("CLANGXX", "clang++-19")
TIMEOUT = 600


def dependency(header, tree_files):
    """Names what provides a header that was not found."""
    if os.path.basename(header) in tree_files:
        return f"in-tree header off the include path ({header})"
    for pattern, name, _ in DEPENDENCIES:
        if re.search(pattern, header):
            return name
    return header.split("/")[0]


def package_of(dep):
    for _, name, pkg in DEPENDENCIES:
        if name == dep:
            return pkg
    return ""


class IncludeGraph:
    """Project-local includes, resolved as the compiler would with compdb.py's flags."""

    def __init__(self, meta):
        self.dirs = meta.get("include_dirs", [])
        self.quote_dirs = meta.get("quote_dirs", [])
        self.direct = {}

    def resolve(self, name, includer, quoted):
        candidates = ([os.path.dirname(includer)] + self.quote_dirs if quoted else []) + self.dirs
        for d in candidates:
            path = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(path):
                return path
        return None

    def includes(self, path):
        if path not in self.direct:
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
            except OSError:
                text = ""
            found = (self.resolve(name, path, kind == '"') for kind, name in INCLUDE.findall(text))
            self.direct[path] = {p for p in found if p}
        return self.direct[path]

    def closure(self, path):
        seen, todo = {path}, [path]
        while todo:
            for p in self.includes(todo.pop()):
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        return seen


def newer_std(meta):
    """The cause of an in-project error when the project wants a later -std than it got."""
    wanted, used = meta.get("project_std", 17), meta.get("std", 17)
    return f"the project's C++{wanted} under -std=c++{used}" if wanted > used else None


def cause_of(errors, root, tree_files, meta):
    """The cause of a file's errors, [(path, message)] in order."""
    for _, message in errors:
        m = NOT_FOUND.search(message)
        if m:
            return dependency(m.group(1), tree_files)
    if errors and not os.path.normpath(errors[0][0]).startswith(root + os.sep):
        return OUTSIDE
    return newer_std(meta) or "other"


def compile_errors(meta, tu):
    """[(path, message)] of the errors of 'clang++-19 -fsyntax-only' on tu (none: it compiles)."""
    cmd = ["nice", "-n", "19", CLANGXX] + meta["flags"] + ["-fsyntax-only", tu]
    try:
        run = subprocess.run(cmd, cwd=os.path.dirname(tu), capture_output=True, text=True,
                             timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return [f"timed out after {TIMEOUT} s"]
    if run.returncode == 0:
        return []
    errors = []
    for line in run.stderr.splitlines():
        m = ERROR_LINE.match(line)
        if m:
            path = m.group(1)
            path = path if os.path.isabs(path) else os.path.join(os.path.dirname(tu), path)
            errors.append((os.path.normpath(path), m.group(2)))
    return errors or [(tu, run.stderr.strip()[-200:] or f"exit status {run.returncode}")]


def classify(meta, findings):
    root = meta["root"]
    tus = [os.path.join(root, rel) for rel in meta["files"]]
    errors = [f for f in findings if f.get("check", "").startswith("clang-diagnostic-")
              and f.get("severity") == "error"]
    result = {"causes": {}, "suspect": [], "compiled": []}
    if not errors:
        return result
    tree_files = set()
    for _, _, filenames in os.walk(root):
        tree_files.update(filenames)
    graph = IncludeGraph(meta)
    closures = {tu: graph.closure(tu) for tu in tus}
    by_file = collections.defaultdict(list)
    for e in errors:
        path = os.path.normpath(e.get("file", ""))
        by_file[path].append((path, e.get("message", "")))
    outside = any(not p.startswith(root + os.sep) for p in by_file)

    causes, first = {}, {}
    for tu in tus:
        mine = by_file.get(tu, []) + [e for p in sorted(closures[tu] - {tu})
                                      for e in by_file.get(p, [])]
        if mine:
            causes[tu], first[tu] = cause_of(mine, root, tree_files, meta), mine[0]
    if outside:
        unknown = [tu for tu in tus if tu not in causes]
        if unknown:
            print(f"   {len(unknown)} files to compile: errors outside the project cannot be "
                  "charged to files otherwise", flush=True)
        for tu in unknown:
            found = compile_errors(meta, tu)
            result["compiled"].append(os.path.relpath(tu, root))
            if found:
                causes[tu], first[tu] = cause_of(found, root, tree_files, meta), found[0]
    broken = set(causes)
    seen_by_broken = set().union(*(closures[tu] for tu in broken)) if broken else set()
    seen_by_sound = set().union(*(closures[tu] for tu in tus if tu not in broken))
    result["causes"] = {os.path.relpath(tu, root): c for tu, c in sorted(causes.items())}
    # The first error of each file: what "other" means, for whoever reads the report.
    def shown(path):
        return os.path.relpath(path, root) if path.startswith(root + os.sep) else path

    result["first_error"] = {os.path.relpath(tu, root): f"{shown(path)}: {message}"
                             for tu, (path, message) in sorted(first.items())}
    result["suspect"] = sorted(seen_by_broken - seen_by_sound)
    result["installed"] = sorted(c for c in set(causes.values()) if is_installed(package_of(c)))
    return result


def is_installed(package):
    """Whether Debian package \p package is installed here (dpkg-query)."""
    if not package:
        return False
    try:
        run = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                             capture_output=True, text=True)
    except OSError:
        return False
    return run.stdout.endswith("install ok installed")


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out, key = argv[1], argv[2]
    with open(os.path.join(out, "db", key, "files.json")) as f:
        meta = json.load(f)
    try:
        with open(os.path.join(out, key + ".json")) as f:
            findings = json.load(f)
    except (OSError, ValueError):
        findings = []
    result = classify(meta, findings)
    os.makedirs(os.path.join(out, "errors"), exist_ok=True)
    with open(os.path.join(out, "errors", key + ".json"), "w") as f:
        json.dump(result, f, indent=1)
    counts = collections.Counter(result["causes"].values())
    if counts:
        print("   compiler errors: " + ", ".join(f"{c} {n}" for c, n in counts.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
