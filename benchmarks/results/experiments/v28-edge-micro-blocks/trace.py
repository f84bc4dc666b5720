# Per-block trace of the tiled kernel (a .ab/t_trace build): start/end (globaltimer ns),
# cycles, SM, for cold runs of uint8 shapes; summary by tile-row, wave and SM; npz to $OUT.
import os, sys, json
sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))
import numpy as np, torch
import bench_transpose as bt
out_dir = os.environ.get("OUT", "/tmp")
res = {}
for shape_s in sys.argv[1:]:
    shape = tuple(int(n) for n in shape_s.split("x"))
    inputs = bt.rotated_inputs(shape, torch.uint8, None)
    buf = torch.zeros(4 * 65536, dtype=torch.int64, device="cuda")
    for i in range(6):
        torch.ops.gputranspose.transpose(inputs[i % len(inputs)])
    runs = []
    for k in range(8):
        os.environ["GPUTRANSPOSE_TRACE"] = str(buf.data_ptr())
        torch.cuda.synchronize()
        y = torch.ops.gputranspose.transpose(inputs[k % len(inputs)])
        torch.cuda.synchronize()
        del os.environ["GPUTRANSPOSE_TRACE"]
        t = buf.view(-1, 4).cpu().numpy()
        n = int((t[:, 1] > 0).sum())
        runs.append(t[:n].copy())
        buf.zero_()
    assert torch.equal(y, inputs[7 % len(inputs)].t().contiguous())
    res[shape_s] = np.stack(runs)
    T = res[shape_s]  # runs x blocks x 4
    span = (T[:, :, 1].max(1) - T[:, :, 0].min(1)) / 1e3
    cyc = T[:, :, 2].astype(float)
    nb = T.shape[1]
    tiles_r = 37 if shape[0] in (8191, 8193) else None
    print(f"== {shape_s}: {nb} blocks, span us per run {np.round(span, 1).tolist()}")
    print(f"   block cycles: median {np.median(cyc):.0f} p10 {np.percentile(cyc,10):.0f} p90 {np.percentile(cyc,90):.0f} p99 {np.percentile(cyc,99):.0f} max {cyc.max():.0f}")
    # by block order (start rank) in 12 slices
    for r in range(min(3, len(T))):
        t = T[r]; s0 = t[:, 0].min()
        order = np.argsort(t[:, 0], kind="stable")
        sl = np.array_split(order, 12)
        print(f"   run {r}: by start slice: cycles med", [int(np.median(t[i, 2])) for i in sl])
        print(f"            start us       ", [round((t[i, 0].min() - s0) / 1e3, 1) for i in sl])
        ends = (t[:, 1] - s0) / 1e3
        print(f"            ends: p50 {np.percentile(ends,50):.1f} p90 {np.percentile(ends,90):.1f} p99 {np.percentile(ends,99):.1f} max {ends.max():.1f}")
        busy = np.bincount(t[:, 3].astype(int), weights=t[:, 2], minlength=132)
        cnt = np.bincount(t[:, 3].astype(int), minlength=132)
        last = np.zeros(132); np.maximum.at(last, t[:, 3].astype(int), ends)
        print(f"            per SM: blocks {cnt.min()}-{cnt.max()}, busy Mcyc {busy.min()/1e6:.3f}-{busy.max()/1e6:.3f}, last end us {last.min():.1f}-{last.max():.1f}")
    if tiles_r:
        bid = np.arange(nb); tr = bid % tiles_r
        med_tr = [int(np.median(cyc[:, tr == i])) for i in range(tiles_r)]
        print("   cycles median by tile-row:", med_tr)
        tc = bid // tiles_r
        print("   cycles median by tile-col (first 16):", [int(np.median(cyc[:, tc == i])) for i in range(16)])
    del inputs; torch.cuda.empty_cache()
np.savez_compressed(os.path.join(out_dir, "trace.npz"), **res)
