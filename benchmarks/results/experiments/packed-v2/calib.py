"""Per sweep case where the choice matters: the tiled kernel (packed=0), the packed kernel
(packed=1) and ATen, each over a same-size copy. Prints a line a case, writes JSON."""
import json, math, os, sys, time
sys.path.insert(0, "benchmarks")
import torch
import torch_transpose
from bench_sweep import (sample_cases, build_input, allocated_elements, ITEMSIZE, describe,
                         case_class, HEAD_START_CYCLES_PER_REP)
from bench_transpose import time_interleaved_ms

T = torch_transpose._C
out_path = os.path.join(os.environ.get("OUT", "."), "calib.json")
seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
n = int(sys.argv[2]) if len(sys.argv) > 2 else 500
budget_s = float(sys.argv[3]) if len(sys.argv) > 3 else 240
l2 = torch.cuda.get_device_properties(0).L2_cache_size
rows, t0 = [], time.time()
for case in sample_cases(n, seed):
    if time.time() - t0 > budget_s:
        print("budget reached"); break
    dtype = getattr(torch, case["dtype"]); d0, d1 = case["dims"]
    nbytes = case["bytes"]
    alloc = allocated_elements(case) * ITEMSIZE[case["dtype"]]
    copies = max(2, math.ceil(2 * l2 / max(nbytes, 1)) + 1)
    if copies * (alloc + nbytes) + 5 * nbytes > 0.8 * torch.cuda.mem_get_info()[0]:
        copies = 2
    x = build_input(case, torch, dtype)
    how0 = T._explain_tuned(x, d0, d1, route=0)
    how = torch_transpose.explain(x, d0, d1)
    util = how0.get("tile_utilization", 1.0)
    tiled = how0["path"] in ("tiled_contiguous", "tiled_row_strided")
    if not (tiled or how0["path"] == "packed"):
        continue
    fns = {"packed8k": lambda t: T._transpose_tuned(t, d0, d1, route=1, packed_tile_bytes=8192),
           "packed16k": lambda t: T._transpose_tuned(t, d0, d1, route=1, packed_tile_bytes=16384),
           "packed32k": lambda t: T._transpose_tuned(t, d0, d1, route=1, packed_tile_bytes=32768),
           "aten": lambda t: t.transpose(d0, d1).contiguous()}
    if tiled:
        fns["tiled"] = lambda t: T._transpose_tuned(t, d0, d1, route=0)
    expected = x.transpose(d0, d1).contiguous().view(-1).view(torch.uint8)
    bad = [k for k, f in fns.items() if not torch.equal(f(x).contiguous().view(-1).view(torch.uint8), expected)]
    del expected
    inputs = [x] + [build_input(case, torch, dtype) for _ in range(copies - 1)]
    sources = [torch.empty(x.numel(), dtype=dtype, device="cuda").copy_(t.reshape(-1)) for t in inputs]
    out = torch.empty(x.numel(), dtype=dtype, device="cuda")
    timed = {k: (f, inputs) for k, f in fns.items()}
    timed["copy"] = (lambda s: out.copy_(s), sources)
    ms = time_interleaved_ms(timed, 10, 2, 3, head_start=True, head_start_cycles=HEAD_START_CYCLES_PER_REP)
    r = {"case": describe(case), "bytes": nbytes, "class": case_class(case), "util": util,
         "rule": how["path"], "kernel": T._explain_tuned(x, d0, d1, route=1).get("kernel"), "bad": bad,
         **{k + "_x": ms[k] / ms["copy"] for k in fns}}
    rows.append(r)
    print(f"{r['case'][:70]:70s} {nbytes/2**20:8.1f}MiB u={util:.3f} rule={how['path'][:6]} "
          + " ".join(f"{k}={r[k+'_x']:.2f}" for k in fns) + (f" BAD {bad}" if bad else ""), flush=True)
    del inputs, sources, out, x, timed
    if nbytes >= 64 << 20:
        torch.cuda.empty_cache()
json.dump(rows, open(out_path, "w"), indent=1)
print("cases", len(rows), "bad", sum(1 for r in rows if r["bad"]), f"{time.time()-t0:.0f}s")
