"""The digest of the product's sources that a benchmark ran: SHA-256 over the path and bytes
of every file under csrc/ and torch_transpose/ (Python and C++ only, not the build's
_build_info.py) and of setup.py, in path order. The benchmarks record it as `source_digest` beside `git_commit`, which on the GPU
machine names the base of its copy of the tree rather than the code it ran; this digest ties
a result to a commit whatever the copy's git state:

    python benchmarks/source_digest.py              # the working tree's
    python benchmarks/source_digest.py --commit C   # commit C's, from git
"""

import argparse
import hashlib
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_DIRS = ("csrc/", "torch_transpose/")
SOURCE_SUFFIXES = (".h", ".cuh", ".cpp", ".cu", ".py")
SOURCE_FILES = ("setup.py",)
# Written by the build (.gitignore): what was built, not what it was built from.
GENERATED = ("torch_transpose/_build_info.py",)


def is_source(path):
    """Whether a repository-relative path (with '/') is one the digest covers."""
    if path in GENERATED:
        return False
    return path in SOURCE_FILES or (path.startswith(SOURCE_DIRS) and path.endswith(SOURCE_SUFFIXES))


def digest(files):
    """SHA-256 of (path, bytes) pairs, in path order."""
    h = hashlib.sha256()
    for path, data in sorted(files):
        h.update(path.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def tree_digest(root=ROOT):
    """The digest of the files under `root` (a working tree)."""
    files = []
    for top in SOURCE_DIRS:
        for folder, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in names:
                rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                if is_source(rel):
                    with open(os.path.join(root, rel), "rb") as f:
                        files.append((rel, f.read()))
    for rel in SOURCE_FILES:
        with open(os.path.join(root, rel), "rb") as f:
            files.append((rel, f.read()))
    return digest(files)


def commit_digest(commit, root=ROOT):
    """The digest of a commit's files, read from git."""
    listing = subprocess.run(["git", "ls-tree", "-r", "-z", "--name-only", commit], cwd=root,
                             capture_output=True, check=True).stdout.decode()
    files = []
    for rel in filter(None, listing.split("\0")):
        if is_source(rel):
            data = subprocess.run(["git", "show", f"{commit}:{rel}"], cwd=root,
                                  capture_output=True, check=True).stdout
            files.append((rel, data))
    return digest(files)


def source_digest(root=ROOT):
    """The working tree's digest, or None where its sources cannot be read."""
    try:
        return tree_digest(root)
    except OSError:
        return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", help="a commit's digest, from git (default: the working tree's)")
    args = parser.parse_args(argv)
    print(commit_digest(args.commit) if args.commit else tree_digest())
    return 0


if __name__ == "__main__":
    sys.exit(main())
