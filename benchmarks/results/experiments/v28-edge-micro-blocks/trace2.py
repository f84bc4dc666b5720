# Per-block trace (a .ab/t_trace build) of cold runs: "dtype:shape:tiles_r" (tiles along
# rows, so that block t is tile-row t % tiles_r, tile-column t // tiles_r: one group).
import os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))
import numpy as np, torch
import bench_transpose as bt
out_dir = os.environ.get("OUT", "/tmp")
res = {}
for spec in sys.argv[1:]:
    dtype_s, shape_s, tiles_r = spec.split(":"); tiles_r = int(tiles_r)
    shape = tuple(int(n) for n in shape_s.split("x"))
    inputs = bt.rotated_inputs(shape, bt.DTYPES[dtype_s], None)
    buf = torch.zeros(4 * 131072, dtype=torch.int64, device="cuda")
    for i in range(6):
        torch.ops.gputranspose.transpose(inputs[i % len(inputs)])
    runs = []
    for k in range(6):
        os.environ["GPUTRANSPOSE_TRACE"] = str(buf.data_ptr())
        torch.cuda.synchronize()
        y = torch.ops.gputranspose.transpose(inputs[k % len(inputs)])
        torch.cuda.synchronize()
        del os.environ["GPUTRANSPOSE_TRACE"]
        t = buf.view(-1, 4).cpu().numpy()
        n = int((t[:, 1] > 0).sum()); runs.append(t[:n].copy()); buf.zero_()
    assert torch.equal(bt.bytes_of(y), bt.bytes_of(bt.aten_transpose(inputs[5 % len(inputs)])))
    T = np.stack(runs); res[spec] = T
    span = (T[:, :, 1].max(1) - T[:, :, 0].min(1)) / 1e3
    cyc = T[:, :, 2].astype(float); nb = T.shape[1]
    bid = np.arange(nb); tr = bid % tiles_r; tc = bid // tiles_r
    print(f"== {spec}: {nb} blocks, span us {np.round(np.median(span), 1)} (runs {np.round(span, 1).tolist()})")
    print(f"   cycles: median {np.median(cyc):.0f} p10 {np.percentile(cyc,10):.0f} p90 {np.percentile(cyc,90):.0f} p99 {np.percentile(cyc,99):.0f} max {cyc.max():.0f}")
    med = np.median(cyc, 0)
    print(f"   by tile-row: first {int(np.median(med[tr==0]))} second {int(np.median(med[tr==1]))} middle {int(np.median(med[(tr>1)&(tr<tiles_r-1)]))} last {int(np.median(med[tr==tiles_r-1]))}")
    ntc = tc.max() + 1
    print(f"   by tile-col: first {int(np.median(med[tc==0]))} middle {int(np.median(med[(tc>0)&(tc<ntc-1)]))} last {int(np.median(med[tc==ntc-1]))}")
    t = T[0]; s0 = t[:, 0].min(); ends = (t[:, 1] - s0) / 1e3
    order = np.argsort(t[:, 0], kind="stable"); sl = np.array_split(order, 10)
    print("   run 0 by start decile: cycles", [int(np.median(t[i, 2])) for i in sl])
    print(f"   run 0 ends: p50 {np.percentile(ends,50):.1f} p90 {np.percentile(ends,90):.1f} p99 {np.percentile(ends,99):.1f} max {ends.max():.1f};"
          f" last start {((t[:,0]-s0)/1e3).max():.1f}")
    del inputs; torch.cuda.empty_cache()
np.savez_compressed(os.path.join(out_dir, "trace2.npz"), **{k.replace(":", "_"): v for k, v in res.items()})
