"""What the tests share: the dtypes, random data of every bit pattern, byte-exact
comparison, and poisoned memory for outputs."""

import os
import subprocess
import sys

import pytest
import torch

# Every dtype PyTorch has on CUDA that the kernels move, by element size.
DTYPES_BY_SIZE = {
    1: [torch.bool, torch.uint8, torch.int8, torch.float8_e4m3fn, torch.float8_e5m2,
        torch.float8_e4m3fnuz, torch.float8_e5m2fnuz, torch.float8_e8m0fnu],
    2: [torch.int16, torch.uint16, torch.float16, torch.bfloat16],
    4: [torch.int32, torch.uint32, torch.float32, torch.complex32],
    8: [torch.int64, torch.uint64, torch.float64, torch.complex64],
    16: [torch.complex128],
}
ALL_DTYPES = [dtype for dtypes in DTYPES_BY_SIZE.values() for dtype in dtypes]
# One dtype per element size, for the slower sweeps.
ONE_DTYPE_PER_SIZE = [torch.uint8, torch.bfloat16, torch.float32, torch.complex64, torch.complex128]

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))

POISON_BYTE = 0xA5
REQUIRE_CUDA = os.environ.get("GPUTRANSPOSE_REQUIRE_CUDA") == "1"
# scripts/check-wheel: the tests run against an installed release wheel, without the source
# tree; what needs a development build or the sources skips, even under REQUIRE_CUDA.
RELEASE_BUILD_UNDER_TEST = os.environ.get("GPUTRANSPOSE_TEST_RELEASE_BUILD") == "1"


def dtype_id(dtype):
    return str(dtype).replace("torch.", "")


def random_tensor(shape, dtype, device="cpu", generator=None):
    """Fresh random bytes viewed as `dtype`: every bit pattern, NaNs included, never zeros."""
    itemsize = torch.empty((), dtype=dtype).element_size()
    numel = 1
    for size in shape:
        numel *= size
    # Drawn where the tensor lives (a generator draws on its own device).
    where = generator.device if generator is not None else device
    data = torch.randint(0, 256, (numel * itemsize,), dtype=torch.uint8, generator=generator,
                         device=where)
    if dtype == torch.bool:
        data = data % 2  # a bool must be 0 or 1
    return data.view(dtype).reshape(shape).to(device)


def random_finite(shape, dtype, device="cpu"):
    """Random values without NaN/inf, for checks that compare values (opcheck)."""
    if dtype.is_complex:
        return torch.randn(shape, device=device, dtype=torch.complex128).to(dtype)
    if dtype.is_floating_point:
        return torch.randn(shape, device=device).to(dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, device=device).bool()
    return torch.randint(0, 100, shape, device=device).to(dtype)


def as_bytes(t):
    """The tensor's values as raw bytes in logical order (NaN-safe comparison)."""
    return element_aligned(t).reshape(-1).clone(memory_format=torch.contiguous_format).view(torch.uint8)


def element_aligned(x):
    """x, or where its data pointer lies off its element (ATen's CUDA kernels fault on such
    tensors: misaligned address), a copy of its storage span at a fresh address with x's
    sizes and strides, so that ATen can compute the reference."""
    size = x.element_size()
    if x.data_ptr() % size == 0:
        return x
    span = 1 + sum((n - 1) * s for n, s in zip(x.shape, x.stride())) if x.numel() else 0
    raw = torch.empty(0, dtype=torch.uint8, device=x.device).set_(
        x.untyped_storage(), x.storage_offset() * size, (span * size,))
    return raw.clone().view(x.dtype).as_strided(x.shape, x.stride())


def assert_bitwise_equal(actual, expected):
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.device == expected.device, (actual.device, expected.device)
    mismatch = (as_bytes(actual) != as_bytes(expected)).nonzero()
    assert mismatch.numel() == 0, f"{mismatch.numel()} bytes differ, first at byte {mismatch[0].item()}"


def poison_cuda_cache(nbytes, device="cuda"):
    """Leave a poisoned block of `nbytes` in the caching allocator, so that the next
    allocation of that size (the op's output) starts out as poison, not zeros."""
    block = torch.full((max(nbytes, 1),), POISON_BYTE, dtype=torch.uint8, device=device)
    del block


def poisoned_like(shape, dtype, device):
    out = torch.empty(shape, dtype=dtype, device=device)
    out.reshape(-1).view(torch.uint8).fill_(POISON_BYTE)
    return out


def at_byte_offset(x, offset):
    """A copy of x whose data pointer lies `offset` bytes past a fresh buffer's (aligned to
    256 bytes on CUDA, 64 on the CPU), off its element where `offset` is no multiple of it
    (as a view of a byte buffer, DLPack or torch.frombuffer can give). The values move as
    bytes: ATen's CUDA kernels cannot write such a tensor (see `element_aligned`)."""
    storage = torch.empty(x.numel() * x.element_size() + offset, dtype=torch.uint8,
                          device=x.device).untyped_storage()
    y = torch.empty(0, dtype=x.dtype, device=x.device).set_(storage[offset:], 0, x.shape)
    assert y.data_ptr() == storage.data_ptr() + offset
    y.view(-1).view(torch.uint8).copy_(x.contiguous().view(-1).view(torch.uint8))
    return y


def cuda_available_or_skip():
    """Skip without a GPU, unless GPUTRANSPOSE_REQUIRE_CUDA=1 makes that a failure."""
    if torch.cuda.is_available():
        return
    if REQUIRE_CUDA:
        pytest.fail("GPUTRANSPOSE_REQUIRE_CUDA=1 but torch.cuda.is_available() is False")
    pytest.skip("no CUDA device (set GPUTRANSPOSE_REQUIRE_CUDA=1 to make this a failure)")


def run_in_fresh_process(script, **env):
    """Runs `script` in a new Python process (for what a process does once: set-up at
    a kernel's first launch, settings read once), with `env` added to the environment.
    `{tests}` in the script stands for this folder, so that it can import helpers."""
    return subprocess.run([sys.executable, "-c", script.format(tests=TESTS_DIR)],
                          env=dict(os.environ, **env), capture_output=True, text=True, timeout=300)


def development_build_or_skip():
    """Skip unless this is a development build (its tuned entry points: other device facts,
    walk overrides), or fail where GPUTRANSPOSE_REQUIRE_CUDA=1 asks for the whole check."""
    import torch_transpose

    if torch_transpose._C.development_build():
        return
    message = "needs a development build (GPUTRANSPOSE_DEVELOPMENT=1; ./scripts/test builds one)"
    if RELEASE_BUILD_UNDER_TEST:
        pytest.skip("a release wheel under test (scripts/check-wheel): " + message)
    if REQUIRE_CUDA:
        pytest.fail(message)
    pytest.skip(message)


def plan_result(x, how):
    """The result as the kernels compute it from explain()'s plan, flat: the input read as
    `matrices` (batch, rows, cols) of elements at `strides` (the columns `col_stride`
    apart; input strides in units of `stride_unit` bytes), for every index into the
    `outer` dims, each matrix transposed to `out_strides` (poison where the plan writes
    nothing); None off the kernels' paths."""
    if "matrices" not in how:
        return None
    e = how["element_size"] // x.element_size()
    s = how["stride_unit"] // x.element_size()  # values per unit of the input strides
    batch, rows, cols = how["matrices"]
    batch_stride, row_stride = how["strides"]
    out_batch_stride, out_row_stride = how["out_strides"]
    outer = how["outer"]
    sizes = [size for size, _, _ in outer] + [batch, rows, cols, e]
    col_stride = how["col_stride"]
    src = torch.as_strided(
        x, sizes,
        [stride * s for _, stride, _ in outer] + [batch_stride * s, row_stride * s, col_stride * s, 1],
        x.storage_offset())
    out = poisoned_like((x.numel(),), x.dtype, x.device)
    dst = torch.as_strided(
        out, sizes, [out_stride * e for _, _, out_stride in outer]
        + [out_batch_stride * e, e, out_row_stride * e, 1])
    dst.copy_(src)
    return out
