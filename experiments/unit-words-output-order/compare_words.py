"""Case-by-case time ratios of time_words.py records: each build over the first's, by unit
and tile shape, 16 MiB or more and all; ATen's ratio between the runs shows the drift.

    python compare_words.py base-1.json other-1.json ... [--list N]
"""
import json
import math
import sys


def geomean(xs):
    xs = list(xs)
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def key(r):
    return (r["seed"], r["id"])


def main(argv):
    listing = 0
    if "--list" in argv:
        i = argv.index("--list")
        listing = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    runs = [(p, {key(r): r for r in json.load(open(p)) if "times_us" in r}) for p in argv]
    base_name, base = runs[0]
    for name, run in runs[1:]:
        common = [k for k in base if k in run]
        def ratios(pred, fn="gputranspose"):
            return [run[k]["times_us"][fn] / run[k]["times_us"]["copy"] /
                    (base[k]["times_us"][fn] / base[k]["times_us"]["copy"])
                    for k in common if pred(base[k])]
        large = lambda r: r["bytes"] >= 16 << 20
        for label, pred in [("all", lambda r: True), ("16 MiB+", large),
                            ("unit=1 16 MiB+", lambda r: large(r) and "unit=1," in r["kernel"]),
                            ("unit=2 16 MiB+", lambda r: large(r) and "unit=2," in r["kernel"]),
                            ("one-unit 16 MiB+", lambda r: large(r) and "units=1," in r["kernel"])]:
            xs = ratios(pred)
            print(f"{name} / {base_name}, {label}, {len(xs)} cases: op {geomean(xs):.3f} "
                  f"(aten {geomean(ratios(pred, 'aten')):.3f}); new x copy "
                  f"{geomean(run[k]['ratio_to_copy']['gputranspose'] for k in common if pred(base[k])):.3f}")
        if listing:
            rows = sorted(common, key=lambda k: run[k]["times_us"]["gputranspose"] /
                          base[k]["times_us"]["gputranspose"])
            for k in rows[:listing] + rows[-listing:]:
                b, r = base[k], run[k]
                print(f"  {r['times_us']['gputranspose'] / b['times_us']['gputranspose']:.2f} "
                      f"{b['ratio_to_copy']['gputranspose']:.2f}x -> {r['ratio_to_copy']['gputranspose']:.2f}x "
                      f"{b['dtype']} {b['shape']} {b['dims']} {b['view']} {b['bytes'] >> 20} MiB {b['kernel']}")


if __name__ == "__main__":
    main(sys.argv[1:])
