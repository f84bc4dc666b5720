"""The ops on DTensors: each shard transposes on its own rank, with no collective, and the
placements follow the dims (Shard(d) to the dim d moves to, Replicate and Partial kept).
Runs 2 and 4 CPU processes over gloo, and 2 GPUs over NCCL where there are two."""

import os
import subprocess
import sys

import pytest
import torch

pytestmark = pytest.mark.skipif(
    not (torch.distributed.is_available() and torch.distributed.is_gloo_available()),
    reason="needs torch.distributed with gloo")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _check_no_collective_and_placements(op, dt, dims, expected_placements, expected,
                                        local_reference=None):
    from torch.distributed.tensor.debug import CommDebugMode

    with CommDebugMode() as comm:
        y = op(dt, *dims)
    assert comm.get_total_counts() == 0, comm.get_comm_counts()
    assert tuple(y.placements) == tuple(expected_placements), (dt.placements, dims, y.placements)
    local = dt.to_local()
    local_expected = (local_reference(local) if local_reference
                      else local.transpose(*dims).contiguous())
    assert torch.equal(y.to_local(), local_expected)
    assert torch.equal(y.full_tensor(), expected)


def _worker(rank, world, store, device_type):
    import torch.distributed as dist

    cuda = device_type == "cuda"
    if cuda:
        torch.cuda.set_device(rank)
    # A file store: no rank serves it, and no free port can be taken meanwhile.
    dist.init_process_group("nccl" if cuda else "gloo", init_method="file://" + store,
                            rank=rank, world_size=world)
    try:
        import torch_transpose
        from torch.distributed.tensor import (DTensor, Partial, Replicate, Shard, distribute_tensor,
                                              init_device_mesh)

        op = torch.ops.gputranspose.transpose
        mesh = init_device_mesh(device_type, (world,))
        device = torch.device(device_type, rank) if cuda else torch.device("cpu")
        torch.manual_seed(0)
        x = torch.randn(7, 10, 6).to(device)  # 7 and 10 split unevenly over 4 ranks, 7 over 2
        for dims in [(0, 1), (1, 2), (-1, -2), (2, 0)]:
            expected = x.transpose(*dims).contiguous()
            d0, d1 = dims[0] % 3, dims[1] % 3
            for d in range(3):
                moved = d1 if d == d0 else d0 if d == d1 else d
                dt = distribute_tensor(x, mesh, [Shard(d)])
                _check_no_collective_and_placements(op, dt, dims, [Shard(moved)], expected)
            _check_no_collective_and_placements(
                op, distribute_tensor(x, mesh, [Replicate()]), dims, [Replicate()], expected)
        # permute: Shard(d) goes where d goes; contiguous keeps every placement.
        for perm in [(2, 0, 1), (1, 2, 0), (2, 1, 0)]:
            expected = x.permute(perm).contiguous()
            for d in range(3):
                _check_no_collective_and_placements(
                    torch.ops.gputranspose.permute, distribute_tensor(x, mesh, [Shard(d)]),
                    (list(perm),), [Shard(perm.index(d))], expected,
                    lambda t: t.permute(perm).contiguous())
        for d in range(3):
            _check_no_collective_and_placements(
                torch.ops.gputranspose.contiguous, distribute_tensor(x.transpose(0, 2), mesh, [Shard(d)]),
                (None,), [Shard(d)], x.transpose(0, 2).contiguous(), lambda t: t.contiguous())
        with pytest.raises(RuntimeError, match="gputranspose.permute: out= is not supported"):
            torch.ops.gputranspose.permute.out(
                distribute_tensor(x, mesh, [Shard(0)]), [1, 0, 2],
                out=distribute_tensor(torch.empty(10, 7, 6, device=device), mesh, [Shard(1)]))
        # Partial sums stay partial: rank 0 holds the values, the others zeros (exact).
        ints = torch.randint(-1000, 1000, (5, 9), dtype=torch.int64).to(device)
        local = ints if rank == 0 else torch.zeros_like(ints)
        partial = DTensor.from_local(local, mesh, [Partial()])
        _check_no_collective_and_placements(op, partial, (0, 1), [Partial()], ints.t().contiguous())
        # The Python wrapper, and gradients, sharded.
        dt = distribute_tensor(x, mesh, [Shard(0)]).requires_grad_()
        y = torch_transpose.transpose(dt, 0, 1)
        assert tuple(y.placements) == (Shard(1),)
        y.backward(distribute_tensor(torch.full((10, 7, 6), 2.0, device=device), mesh, [Shard(1)]))
        assert tuple(dt.grad.placements) == (Shard(0),)  # the backward transposes it back
        assert torch.equal(dt.grad.full_tensor(), torch.full_like(x, 2))
        # out= is refused with a clear error.
        out = distribute_tensor(torch.empty(10, 7, 6, device=device), mesh, [Shard(1)])
        with pytest.raises(RuntimeError, match="out= is not supported for DTensor"):
            op.out(distribute_tensor(x, mesh, [Shard(0)]), 0, 1, out=out)
        # The tensor-parallel example: a column-parallel projection's heads, transposed.
        sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
        import tensor_parallel

        out, unsharded = tensor_parallel.run(mesh, device)
        assert tuple(out.placements) == (Shard(1),)
        torch.testing.assert_close(out.full_tensor(), unsharded)
        if world == 4:  # a 2 x 2 mesh: each mesh dim's placement follows its tensor dim
            mesh2 = init_device_mesh(device_type, (2, 2))
            dt = distribute_tensor(x, mesh2, [Shard(0), Shard(1)])
            _check_no_collective_and_placements(op, dt, (0, 1), [Shard(1), Shard(0)],
                                                x.transpose(0, 1).contiguous())
            dt = distribute_tensor(x, mesh2, [Replicate(), Shard(2)])
            _check_no_collective_and_placements(op, dt, (1, 2), [Replicate(), Shard(1)],
                                                x.transpose(1, 2).contiguous())
    finally:
        dist.destroy_process_group()
    # Leave without the interpreter's teardown: a distributed thread still joinable there
    # aborts the process after every check passed ("terminate called without an active
    # exception", no Python frame; 1-3 of 10 runs on 2 cores). A failed check raises above.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


@pytest.mark.parametrize("world", [2, 4])
def test_sharded_transposes_run_on_each_rank_without_collectives(world, tmp_path):
    torch.multiprocessing.spawn(_worker, args=(world, str(tmp_path / "store"), "cpu"), nprocs=world,
                                join=True)


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2
                    or not torch.distributed.is_nccl_available(), reason="needs two GPUs and NCCL")
def test_sharded_transposes_on_two_gpus_run_the_kernels_without_collectives(tmp_path):
    torch.multiprocessing.spawn(_worker, args=(2, str(tmp_path / "store"), "cuda"), nprocs=2,
                                join=True)


def _run(code):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


REGISTERED = """
import sys, torch
{first}
from torch.distributed.tensor import DTensor
funcs = DTensor._op_dispatcher.sharding_propagator.op_strategy_funcs
print(torch.ops.gputranspose.transpose.default in funcs, torch.ops.gputranspose.transpose.out in funcs)
"""


@pytest.mark.parametrize("first", [
    # Importing the package does not import DTensor (it would add a third to torch's import).
    "before = 'torch.distributed.tensor' in sys.modules; import torch_transpose; "
    "assert ('torch.distributed.tensor' in sys.modules) == before",
    "import torch.distributed.tensor, torch_transpose",
], ids=["package first (registered on DTensor's import)", "DTensor first"])
def test_the_rules_are_registered_whichever_is_imported_first(first):
    result = _run(REGISTERED.format(first=first))
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["True", "True"], result.stdout + result.stderr[-2000:]
