"""A tensor-parallel attention projection that calls gputranspose on sharded activations.

The query projection is column-parallel (each rank holds a slice of the heads), so the
(B, S, H, D) activations are sharded on H; `transpose(q, 1, 2)` makes the (B, H, S, D)
layout attention kernels take, on each rank's own heads, without a collective.

    torchrun --nproc-per-node 2 examples/python/tensor_parallel.py          # CPU (gloo)
    torchrun --nproc-per-node 2 examples/python/tensor_parallel.py --cuda   # one GPU a rank
"""

import argparse
import os

import torch
import torch.distributed as dist
from torch.distributed.tensor import Shard
from torch.distributed.tensor.parallel import ColwiseParallel, parallelize_module

import torch_transpose  # noqa: F401  (registers torch.ops.gputranspose and its DTensor rules)


class QueryHeads(torch.nn.Module):
    def __init__(self, model_dim, heads):
        super().__init__()
        self.heads = heads
        self.q = torch.nn.Linear(model_dim, model_dim, bias=False)

    def forward(self, x):
        b, s, _ = x.shape
        q = self.q(x).view(b, s, self.heads, -1)           # (B, S, H, D)
        return torch.ops.gputranspose.transpose(q, 1, 2)   # (B, H, S, D)


def run(mesh, device, batch=2, seq=48, model_dim=64, heads=8):
    """The sharded module's output (a DTensor sharded on heads) and the unsharded one's."""
    torch.manual_seed(0)
    full = QueryHeads(model_dim, heads).to(device)
    sharded = QueryHeads(model_dim, heads).to(device)
    sharded.load_state_dict(full.state_dict())
    # The projection's output stays a DTensor sharded on its last dim (the heads' values).
    parallelize_module(sharded, mesh, {"q": ColwiseParallel(use_local_output=False)})
    x = torch.randn(batch, seq, model_dim, device=device)
    return sharded(x), full(x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuda", action="store_true", help="one GPU a rank, NCCL")
    args = parser.parse_args()
    rank = int(os.environ["RANK"])
    device = f"cuda:{int(os.environ['LOCAL_RANK'])}" if args.cuda else "cpu"
    if args.cuda:
        torch.cuda.set_device(device)
    dist.init_process_group("nccl" if args.cuda else "gloo")
    mesh = dist.device_mesh.init_device_mesh("cuda" if args.cuda else "cpu",
                                             (dist.get_world_size(),))
    out, expected = run(mesh, device)
    assert tuple(out.placements) == (Shard(1),), out.placements
    same = torch.allclose(out.full_tensor(), expected)
    if rank == 0:
        print(f"local {tuple(out.to_local().shape)} of {tuple(out.shape)}, placements "
              f"{out.placements}, equal to the unsharded module: {same}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
