"""The op as a first-class PyTorch citizen: torch.compile, CUDA graphs, streams,
out=, torch.export / AOTInductor, autocast, inference mode. CPU cases run in CI;
the CUDA ones on a GPU (marked `cuda`)."""

import threading

import pytest
import torch
import torch._dynamo.testing

import torch_transpose
from helpers import (ALL_DTYPES, assert_bitwise_equal, dtype_id, poison_cuda_cache, random_finite,
                     random_tensor, run_in_fresh_process)

op = torch.ops.gputranspose


class TransposeBlock(torch.nn.Module):
    """A model that calls the op between two ordinary ops."""

    def forward(self, x):
        return op.transpose(x * 2) + 1


def expected_block(x):
    return (x * 2).transpose(-2, -1).contiguous() + 1


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _devices():
    return ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)]


# -- 1. torch.compile ----------------------------------------------------------------------

@pytest.mark.parametrize("device", _devices())
@pytest.mark.parametrize("dynamic", [False, True])
def test_compile_fullgraph_has_no_graph_break(device, dynamic):
    counter = torch._dynamo.testing.CompileCounter()
    model = torch.compile(TransposeBlock(), backend=counter, fullgraph=True, dynamic=dynamic)
    for shape in [(4, 6), (5, 7), (3, 4, 9)]:
        x = torch.randn(shape, device=device)
        torch.testing.assert_close(model(x), expected_block(x), rtol=0, atol=0)
    assert counter.frame_count >= 1
    explanation = torch._dynamo.explain(TransposeBlock())(torch.randn(4, 6, device=device))
    assert explanation.graph_break_count == 0
    assert explanation.graph_count == 1


@pytest.mark.parametrize("device", _devices())
def test_compile_with_a_marked_dynamic_batch(device):
    counter = torch._dynamo.testing.CompileCounter()
    model = torch.compile(TransposeBlock(), backend=counter, fullgraph=True)
    for batch in [2, 3, 5, 8]:
        x = torch.randn(batch, 6, 10, device=device)
        torch._dynamo.mark_dynamic(x, 0)
        torch.testing.assert_close(model(x), expected_block(x), rtol=0, atol=0)
    assert counter.frame_count == 1  # one graph for every batch size


@pytest.mark.parametrize("device", _devices())
@pytest.mark.parametrize("dynamic", [False, True])
def test_compile_inductor(device, dynamic):
    model = torch.compile(TransposeBlock(), fullgraph=True, dynamic=dynamic)
    for shape in [(16, 24), (17, 33)]:
        x = torch.randn(shape, device=device)
        torch.testing.assert_close(model(x), expected_block(x), rtol=0, atol=0)


@pytest.mark.cuda
def test_compile_reduce_overhead_cuda_graphs():
    model = torch.compile(TransposeBlock(), fullgraph=True, mode="reduce-overhead")
    for _ in range(4):  # warm-up, record, replays
        x = torch.randn(64, 96, device="cuda")
        torch.testing.assert_close(model(x).clone(), expected_block(x), rtol=0, atol=0)


@pytest.mark.parametrize("device", _devices())
def test_compile_backward(device):
    x = torch.randn(5, 7, device=device, requires_grad=True)
    w = torch.randn(7, 5, device=device)
    model = torch.compile(lambda t: (op.transpose(t) * w).sum(), fullgraph=True)
    model(x).backward()
    assert_bitwise_equal(x.grad, w.t().contiguous())


# -- 2. CUDA graph capture -----------------------------------------------------------------

@pytest.mark.cuda
@pytest.mark.parametrize("dtype", [torch.uint8, torch.float32, torch.complex128], ids=dtype_id)
@pytest.mark.parametrize("shape", [(257, 515), (4, 64, 64), (1, 300)], ids=str)
def test_cuda_graph_capture_and_replay(dtype, shape):
    static_x = random_tensor(shape, dtype, "cuda")
    static_out = torch.empty(static_x.mT.shape, dtype=dtype, device="cuda")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):  # warm-up outside the capture
        op.transpose(static_x)
        op.transpose.out(static_x, out=static_out)
    torch.cuda.current_stream().wait_stream(stream)

    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_y = op.transpose(static_x)
        op.transpose.out(static_x, out=static_out)
    for _ in range(3):
        fresh = random_tensor(shape, dtype, "cuda")
        static_x.copy_(fresh)
        graph.replay()
        torch.cuda.synchronize()
        assert_bitwise_equal(static_y, fresh.mT.contiguous())
        assert_bitwise_equal(static_out, fresh.mT.contiguous())


# The kernels' once-per-device set-up (the shared-memory opt-in of tiles over 48 KiB,
# the occupancy query that picks small tiles) runs at a kernel's first launch: here,
# in a fresh process, inside the capture.
FIRST_LAUNCH_IN_CAPTURE = """
import sys, torch, torch_transpose
sys.path.insert(0, {tests!r})
from helpers import assert_bitwise_equal, random_tensor
cases = [  # small aligned tiles (1- and 16-byte), staged 68 and 66 KiB tiles, skewed words
    ((1024, 1024), torch.uint8, None), ((256, 512), torch.complex128, None),
    ((257, 259), torch.uint8, None), ((256, 300), torch.uint8, lambda x: x[:, :-17]),
    ((129, 131), torch.bfloat16, None)]
inputs = []
for shape, dtype, view in cases:
    x = random_tensor(shape, dtype, "cuda")
    inputs.append(view(x) if view else x)
torch.cuda.synchronize()
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    outputs = [torch.ops.gputranspose.transpose(x) for x in inputs]
for _ in range(2):
    for x in inputs:
        x.copy_(random_tensor(x.shape, x.dtype, "cuda"))
    graph.replay()
    torch.cuda.synchronize()
    for x, y in zip(inputs, outputs):
        assert_bitwise_equal(y, x.t().contiguous())
print("ok")
"""


@pytest.mark.cuda
def test_first_launch_inside_a_graph_capture():
    result = run_in_fresh_process(FIRST_LAUNCH_IN_CAPTURE)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-3000:]


# -- 3. streams and devices ----------------------------------------------------------------

@pytest.mark.cuda
def test_runs_on_the_current_side_stream():
    side = torch.cuda.Stream()
    x = random_tensor((2048, 2048), torch.float32, "cuda")
    poison_cuda_cache(x.numel() * 4)
    torch.cuda.synchronize()
    with torch.cuda.stream(side):
        torch.cuda._sleep(100_000_000)  # hold the side stream for a while
        x1 = x + 1                      # written only once the sleep is over
        y = op.transpose(x1)            # must queue behind it, on the side stream
    assert not side.query()
    side.synchronize()
    assert_bitwise_equal(y, (x + 1).t().contiguous())


@pytest.mark.cuda
def test_memory_is_safe_across_streams():
    side = torch.cuda.Stream()
    x = random_tensor((1024, 1024), torch.int32, "cuda")
    expected = x.t().contiguous()
    with torch.cuda.stream(side):
        y = op.transpose(x)
    y.record_stream(side)
    torch.cuda.current_stream().wait_stream(side)
    assert_bitwise_equal(y, expected)


@pytest.mark.cuda
@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
# uint8 with odd sizes, and uint8 slices, take tiles of more than 48 KiB of shared
# memory, which the launcher must allow on each device, not only on the first it
# ran on; aligned uint8 and complex128 matrices take small tiles by an occupancy
# worked out per device, and aligned inputs larger than L2 (64 MiB) evict_last loads
# by an L2 size worked out per device; skewed 2-byte rows past L2 are staged (68 KiB
# tiles) or word-loaded by a memory speed read per device (stages_2_byte_rows).
@pytest.mark.parametrize(
    "make",
    [
        lambda device: random_tensor((300, 500), torch.float32, device),
        lambda device: random_tensor((257, 259), torch.uint8, device),
        lambda device: random_tensor((256, 300), torch.uint8, device)[:, :-17],
        lambda device: random_tensor((1024, 1024), torch.uint8, device),
        lambda device: random_tensor((256, 512), torch.complex128, device),
        lambda device: random_tensor((4096, 4096), torch.float32, device),
        lambda device: random_tensor((6001, 6003), torch.bfloat16, device),
    ],
    ids=["float32", "uint8-odd", "uint8-slice", "uint8-aligned", "complex128-aligned",
         "float32-past-l2", "bfloat16-odd-past-l2"],
)
def test_second_device_runs_on_its_own_device(make):
    op.transpose(make("cuda:0"))
    x = make("cuda:1")
    with torch.cuda.device(0):
        y = op.transpose(x)
    assert y.device == torch.device("cuda:1")
    assert_bitwise_equal(y, x.t().contiguous())


@pytest.mark.cuda
def test_many_threads_on_their_own_streams_and_one_shared_stream():
    shared = torch.cuda.Stream()
    errors = []

    def work(seed, own_stream):
        try:
            gen = torch.Generator().manual_seed(seed)
            stream = torch.cuda.Stream() if own_stream else shared
            with torch.cuda.stream(stream):
                for i in range(20):
                    x = random_tensor((100 + seed, 200 + i), torch.bfloat16, "cuda", gen)
                    y = op.transpose(x)
                    if not torch.equal(y.view(torch.int16), x.t().contiguous().view(torch.int16)):
                        errors.append((seed, i))
            stream.synchronize()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(s, s % 2 == 0)) for s in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


# -- 4. out= -----------------------------------------------------------------------------

@pytest.mark.parametrize("device", _devices())
def test_out_variant_under_compile(device):
    def f(x, out):
        op.transpose.out(x, out=out)
        return out * 1

    x = torch.randn(6, 10, device=device)
    out = torch.empty(10, 6, device=device)
    compiled = torch.compile(f, fullgraph=True, backend="aot_eager")
    result = compiled(x, out)
    assert_bitwise_equal(result, x.t().contiguous())
    assert_bitwise_equal(out, x.t().contiguous())  # the mutation is kept


@pytest.mark.cuda
def test_out_variant_allocates_nothing():
    x = random_tensor((1024, 2048), torch.float32, "cuda")
    out = torch.empty(2048, 1024, device="cuda")
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    torch_transpose.transpose(x, out=out)
    torch.cuda.synchronize()
    assert torch.cuda.max_memory_allocated() == before
    assert_bitwise_equal(out, x.t().contiguous())


# -- 5. export and AOTInductor -------------------------------------------------------------

@pytest.mark.parametrize("device", _devices())
def test_torch_export_and_run(device):
    x = torch.randn(3, 5, 7, device=device)
    exported = torch.export.export(TransposeBlock(), (x,))
    assert any(node.target == op.transpose.default for node in exported.graph.nodes)
    y = torch.randn(3, 5, 7, device=device)
    torch.testing.assert_close(exported.module()(y), expected_block(y), rtol=0, atol=0)


# AOTInductor compiles the exported block into a shared library and loads it back, in a
# process of its own: a loader that crashes takes only that process. Where it crashes, the
# same block without this op is packaged and loaded too; if that crashes as well, the fault
# is torch's AOTInductor on this machine, not this op's, and the test skips saying so.
AOTI_PACKAGE_AND_LOAD = """
import os, torch
device, with_op = os.environ["AOTI_DEVICE"], os.environ["AOTI_WITH_OP"] == "1"
if with_op:
    import torch_transpose  # registers the op
    transpose = torch.ops.gputranspose.transpose
else:
    def transpose(x):
        return x.transpose(-2, -1).contiguous()
class Block(torch.nn.Module):
    def forward(self, x):
        return transpose(x * 2) + 1
x = torch.randn(4, 6, 8, device=device)
batch = torch.export.Dim("batch", min=1, max=64)
exported = torch.export.export(Block(), (x,), dynamic_shapes={{"x": {{0: batch}}}})
# (by name: without the import, torch.ops.gputranspose has no transpose to compare with)
assert with_op == any(str(node.target).startswith("gputranspose.") for node in exported.graph.nodes)
path = torch._inductor.aoti_compile_and_package(
    exported, package_path=os.path.join(os.environ["AOTI_DIR"], f"block-{{with_op}}.pt2"))
print("compiled", flush=True)
loaded = torch._inductor.aoti_load_package(path)
for b in [1, 4, 9]:
    y = torch.randn(b, 6, 8, device=device)
    expected = (y * 2).transpose(-2, -1).contiguous() + 1
    torch.testing.assert_close(loaded(y), expected, rtol=0, atol=0)
print("loaded and equal")
"""


@pytest.mark.parametrize("device", _devices())
def test_aot_inductor_package_and_load(device, tmp_path):
    def package_and_load(with_op):
        return run_in_fresh_process(AOTI_PACKAGE_AND_LOAD, AOTI_DEVICE=device,
                                    AOTI_WITH_OP=str(int(with_op)), AOTI_DIR=str(tmp_path))

    result = package_and_load(True)
    if result.returncode < 0 and "compiled" in result.stdout:  # killed by a signal on load
        plain = package_and_load(False)
        if plain.returncode < 0 and "compiled" in plain.stdout:
            pytest.skip(f"torch's AOTInductor dies (signal {-plain.returncode}) loading a package "
                        "without this op too, on this machine: not this op's fault")
        assert False, ("only the package with the op died on load", result.returncode,
                       result.stderr[-3000:], plain.returncode, plain.stderr[-3000:])
    assert result.returncode == 0 and "loaded and equal" in result.stdout, (
        result.returncode, result.stderr[-4000:])


# -- 6. autocast, inference mode, gradients -------------------------------------------------

@pytest.mark.parametrize("device", _devices())
def test_autocast_keeps_the_dtype(device):
    x = torch.randn(8, 16, device=device)
    autocast_dtype = torch.bfloat16
    with torch.autocast(device_type=device, dtype=autocast_dtype):
        y = op.transpose(x)
        z = op.transpose(x.to(autocast_dtype))
    assert y.dtype == torch.float32
    assert z.dtype == autocast_dtype
    assert_bitwise_equal(y, x.t().contiguous())


@pytest.mark.parametrize("device", _devices())
def test_inference_mode(device):
    with torch.inference_mode():
        x = torch.randn(9, 13, device=device)
        y = op.transpose(x)
        out = torch.empty(13, 9, device=device)
        op.transpose.out(x, out=out)
    assert y.is_inference()
    assert_bitwise_equal(y, x.t().contiguous())
    assert_bitwise_equal(out, x.t().contiguous())


@pytest.mark.parametrize("device", _devices())
def test_double_backward(device):
    x = torch.randn(4, 6, dtype=torch.float64, device=device, requires_grad=True)
    y = op.transpose(x)
    (g,) = torch.autograd.grad((y ** 3).sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    torch.testing.assert_close(gg, 6 * x.detach(), rtol=1e-12, atol=1e-12)


# -- 7. opcheck, every dtype on CUDA --------------------------------------------------------

@pytest.mark.cuda
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_opcheck_every_dtype_cuda(dtype):
    x = random_finite((3, 33, 65), dtype, "cuda")
    if dtype in (torch.float32, torch.float64, torch.complex64, torch.complex128):
        x.requires_grad_(True)
    checks = ["test_schema", "test_autograd_registration", "test_faketensor",
              "test_aot_dispatch_dynamic"]
    if dtype.itemsize == 1 and dtype.is_floating_point:
        checks.remove("test_schema")  # opcheck's schema check multiplies the inputs: no float8 mul
    torch.library.opcheck(op.transpose.default, (x, -2, -1), test_utils=checks)
