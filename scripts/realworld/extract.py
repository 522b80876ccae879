#!/usr/bin/env python3
"""Writes the tree of a commit from a git directory, skipping blobs the repository lacks.

    extract.py GIT_DIR COMMIT DEST

A fallback for 'git archive COMMIT | tar -x', which stops at the first missing object:
snapshots of public repositories may lack their largest files (models, images). Regular
files and executables are written, symbolic links are made, submodules (which a commit
only names) stay empty directories. Prints how many blobs were missing.
"""
import os
import subprocess
import sys


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    git_dir, commit, dest = argv[1], argv[2], os.path.abspath(argv[3])
    git = ["git", "--git-dir", git_dir]
    listing = subprocess.run(git + ["ls-tree", "-r", "-z", "--full-tree", commit],
                             check=True, capture_output=True).stdout
    entries = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        info, path = record.split(b"\t", 1)
        mode, kind, sha = info.split()
        entries.append((mode.decode(), kind.decode(), sha.decode(), os.fsdecode(path)))

    blobs = [e for e in entries if e[1] == "blob"]
    # One 'cat-file --batch' process: '<sha>\n' in, '<sha> blob <size>\n<bytes>\n' or
    # '<sha> missing\n' out, in order.
    cat = subprocess.Popen(git + ["cat-file", "--batch"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE)
    missing = written = 0
    for mode, _, sha, path in blobs:
        cat.stdin.write(sha.encode() + b"\n")
        cat.stdin.flush()
        header = cat.stdout.readline().split()
        if len(header) < 3 or header[1] != b"blob":
            missing += 1
            continue
        data = cat.stdout.read(int(header[2]))
        cat.stdout.read(1)                           # the newline after the content
        target = os.path.join(dest, path)
        if not os.path.realpath(target).startswith(dest + os.sep):
            continue                                 # a path that climbs out of dest
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if mode == "120000":
            if not os.path.lexists(target):
                os.symlink(os.fsdecode(data), target)
        else:
            with open(target, "wb") as f:
                f.write(data)
            if mode == "100755":
                os.chmod(target, 0o755)
        written += 1
    cat.stdin.close()
    cat.wait()
    for mode, kind, _, path in entries:
        if kind == "commit":                         # a submodule: an empty directory
            os.makedirs(os.path.join(dest, path), exist_ok=True)
    print(f"{written} files written, {missing} blobs missing from the snapshot")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
