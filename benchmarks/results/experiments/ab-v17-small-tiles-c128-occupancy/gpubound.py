"""GPU time per call with the queue kept full (a sleep kernel queued first):
the kernels' own time for small shapes, host excluded."""
import statistics, sys, torch, torch_transpose
torch.manual_seed(0)
def run(fn, xs, reps=200):
    fn(xs[0]); torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(40_000 * reps)
    s.record()
    for i in range(reps): fn(xs[i % len(xs)])
    e.record(); torch.cuda.synchronize()
    return s.elapsed_time(e) / reps * 1000
dtypes = sys.argv[1].split(",") if len(sys.argv) > 1 else ["uint8", "bool", "float8_e4m3fn", "bfloat16", "float16", "float32", "float64", "complex64", "complex128"]
shapes = [(1024, 1024), (65536, 64), (64, 65536), (4096, 64, 64)]
for dt in dtypes:
  for shape in shapes:
    dtype = getattr(torch, dt)
    def mk():
        if dtype.is_complex: return torch.randn(shape, dtype=dtype, device="cuda")
        if dtype.is_floating_point: return torch.randn(shape, device="cuda").to(dtype)
        return torch.randint(0, 2 if dtype == torch.bool else 256, shape, dtype=torch.uint8, device="cuda").to(dtype)
    x0 = mk(); nbytes = x0.numel() * x0.element_size()
    xs = [x0] + [mk() for _ in range(max(2, 4 * 50 * 2**20 // nbytes + 1) - 1)]
    fns = {"ours": torch.ops.gputranspose.transpose.default, "aten": lambda x: x.mT.contiguous(),
           "copy": lambda x: torch.empty_like(x).copy_(x)}
    if dt in ("float32", "float64", "complex64", "complex128") and len(shape) == 2:
        fns["geam"] = torch.ops.gputranspose.transpose_cublas
    assert torch.equal(fns["ours"](x0).view(torch.uint8) if False else fns["ours"](x0).cpu().view(-1).view(torch.uint8), x0.mT.contiguous().cpu().view(-1).view(torch.uint8))
    res = {k: [] for k in fns}
    for rnd in range(5):
        for k, f in fns.items(): res[k].append(run(f, xs))
    med = {k: statistics.median(v) for k, v in res.items()}
    print(f"{dt:13s} {'x'.join(map(str, shape)):12s} " + "  ".join(f"{k} {v:6.2f}" for k, v in med.items()) + f"  ours/copy {med['ours']/med['copy']:.3f}", flush=True)
