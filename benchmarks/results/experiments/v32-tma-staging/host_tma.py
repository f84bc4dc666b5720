# Host time per call (no sync inside the loop) of the op on small odd uint8 shapes.
import sys, time, json, torch, torch_transpose
tag = sys.argv[1]
for shape in [(1023, 1025), (255, 257)]:
    x = torch.randint(0, 255, shape, dtype=torch.uint8, device="cuda")
    op = torch.ops.gputranspose.transpose
    for _ in range(200): op(x)
    torch.cuda.synchronize()
    best = []
    for rep in range(5):
        t = time.perf_counter()
        for _ in range(2000): op(x)
        best.append((time.perf_counter() - t) / 2000 * 1e6)
        torch.cuda.synchronize()
    print(json.dumps({"tree": tag, "shape": list(shape), "host_us": sorted(best)[:3]}), flush=True)
