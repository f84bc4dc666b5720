"""Times the sweep's words-path cases (tiled_units, access=words) under the build on
PYTHONPATH: the op, ATen and a same-size copy (bench_sweep's case runner). Run once per
build, interleaved, and compare the records case by case (compare_words.py).

    PYTHONPATH=BUILD python experiments/unit-words-diet/time_words.py --seeds 0,101,102 --out F
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))

import bench_sweep as sweep  # noqa: E402


class WordsSweep(sweep.Sweep):
    def functions(self, x, case):
        d0, d1 = case["dims"]
        return {"gputranspose": lambda t: self.op(t, d0, d1),
                "aten": lambda t: t.transpose(d0, d1).contiguous()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="0,101,102")
    parser.add_argument("--cases", type=int, default=500)
    parser.add_argument("--max-mib", type=int, default=256)
    parser.add_argument("--time-limit", type=float, default=0.0, help="start no case after it")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    args.reps, args.rounds, args.warmup, args.no_compile = 10, 3, 2, True
    import torch
    import torch_transpose

    tuned = torch_transpose._C
    runner = WordsSweep(args)
    records, start = [], time.time()
    for seed in (int(s) for s in args.seeds.split(",")):
        for case in sweep.sample_cases(args.cases, seed):
            if args.time_limit and time.time() - start > args.time_limit:
                break
            if case["bytes"] > args.max_mib * sweep.MIB:
                continue
            x = sweep.build_input(case, torch, getattr(torch, case["dtype"]), device="meta")
            kernel = tuned._explain_tuned(x, *case["dims"]).get("kernel") or ""
            if "access=words" not in kernel or not kernel.startswith("tiled_units"):
                continue
            r = runner.run_case(case)
            r["seed"] = seed
            records.append(r)
            with open(args.out, "w") as f:
                json.dump(records, f)
    wrong = sum(bool(r.get("wrong")) for r in records)
    print(f"{args.out}: {len(records)} cases, {wrong} wrong")


if __name__ == "__main__":
    main()
