"""Two random-shape sweeps of the same cases (bench_sweep.py or bench_permute.py, one seed),
case by case:

    python benchmarks/compare_sweeps.py OLD.json NEW.json [--list 20] [--kernel access=words]

For the cases whose kernel changed and for those whose kernel did not, the geometric mean of
gputranspose's time over the copy's in NEW over the same in OLD, by class, for cases of
16 MiB or more and for all; then the changed cases, most improved first (old and new ratio to
the copy, old and new kernel); then both summaries. The unchanged cases measure the two
runs' drift (the same code timed twice); a change is judged against it, and only between
runs on the same kind of GPU. Cases are matched by id and must agree on dtype, shape, dims
and view (the same seed and distribution). --kernel keeps the cases whose kernel, in either
run, contains the text.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_sweep import _geomean as geomean, class_groups  # noqa: E402

SAME_CASE_KEYS = ("dtype", "shape", "dims", "view")


def kernel_of(case):
    """The kernel a case ran (explain()'s kernel, or its path where no kernel is named)."""
    return case.get("kernel") or case.get("path")


def ratio_of(case):
    """gputranspose's time over the copy's, or None for a wrong or skipped case."""
    return (case.get("ratio_to_copy") or {}).get("gputranspose")


def paired_cases(old, new):
    """(old case, new case) for every id both sweeps timed; raises where an id's case differs."""
    old_by_id = {c["id"]: c for c in old["cases"]}
    pairs = []
    for case in new["cases"]:
        before = old_by_id.get(case["id"])
        if before is None:
            continue
        for key in SAME_CASE_KEYS:
            if before.get(key) != case.get(key):
                raise ValueError(f"case {case['id']} differs in {key}: {before.get(key)!r} against "
                                 f"{case.get(key)!r} (another seed or distribution?)")
        if ratio_of(before) is not None and ratio_of(case) is not None:
            pairs.append((before, case))
    return pairs


def compare(old, new, kernel=""):
    """{'changed': [(old, new)], 'unchanged': [(old, new)]}: the timed pairs (those whose
    kernel in either run contains `kernel`) by whether the kernel changed."""
    split = {"changed": [], "unchanged": []}
    for before, after in paired_cases(old, new):
        if kernel not in kernel_of(before) and kernel not in kernel_of(after):
            continue
        split["changed" if kernel_of(before) != kernel_of(after) else "unchanged"].append(
            (before, after))
    return split


def group_lines(label, pairs):
    """Lines of new over old time geomeans, overall and by class, large cases and all."""
    lines = []
    for name, size, subset in class_groups(pairs, case=lambda pair: pair[1]):
        change = geomean(ratio_of(a) / ratio_of(b) for b, a in subset)
        lines.append(f"{label}, {name}, {size}, {len(subset)} cases: new / old time "
                     f"{change:.3f} ({geomean(ratio_of(b) for b, _ in subset):.2f}x -> "
                     f"{geomean(ratio_of(a) for _, a in subset):.2f}x the copy)")
    return lines


def moved_dims(case):
    """A transpose's dims, or a permute sweep's case's permutation."""
    return f"dims {case['dims']}" if "dims" in case else f"perm {case['perm']}"


def case_line(before, after):
    return (f"{ratio_of(after) / ratio_of(before):5.2f}  {ratio_of(before):6.2f}x -> "
            f"{ratio_of(after):6.2f}x  #{after['id']} {after['dtype']} {after['shape']} "
            f"{moved_dims(after)} {after['view']} {after['bytes'] / (1 << 20):.1f} MiB: "
            f"{kernel_of(before)} -> {kernel_of(after)}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--list", type=int, default=20,
                        help="changed cases to list, best and worst (0: all)")
    parser.add_argument("--kernel", default="",
                        help="only cases whose kernel (in either run) contains this text")
    args = parser.parse_args(argv)
    with open(args.old) as f:
        old = json.load(f)
    with open(args.new) as f:
        new = json.load(f)
    devices = [s.get("environment", {}).get("device") for s in (old, new)]
    if devices[0] != devices[1]:
        print(f"note: different devices ({devices[0]} / {devices[1]}): the drift is the GPUs'")
    split = compare(old, new, args.kernel)
    for label in ("unchanged", "changed"):
        for line in group_lines(f"{label} kernel", split[label]):
            print(line)
    changed = sorted(split["changed"], key=lambda p: ratio_of(p[1]) / ratio_of(p[0]))
    shown = changed if args.list <= 0 or len(changed) <= 2 * args.list else \
        changed[:args.list] + changed[-args.list:]
    if shown:
        print(f"changed cases ({len(changed)}; new / old time, old -> new ratio to the copy):")
        for before, after in shown:
            print("  " + case_line(before, after))
    for name, sweep in (("old", old), ("new", new)):
        print(f"{name} summary: {json.dumps(sweep.get('summary', {}))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
