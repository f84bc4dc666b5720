"""Steady-state transposes for ncu: 4 rotating inputs (more than the L2), 8 launches."""
import sys, torch
import torch_transpose  # noqa: F401
shape, dtype = {"u8": ((8192, 8192), torch.uint8), "f64": ((8192, 8192), torch.float64)}[sys.argv[1]]
xs = [torch.randint(0, 100, shape, device="cuda").to(dtype) for _ in range(4)]
for i in range(8):
    torch.ops.gputranspose.transpose(xs[i % 4])
torch.cuda.synchronize()
