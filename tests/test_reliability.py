"""Nothing silently wrong: huge tensors (64-bit indexing), memory use and
out-of-memory, and every misuse with its exact error."""

import os

import pytest
import torch

import torch_transpose
from helpers import assert_bitwise_equal, random_tensor

op = torch.ops.gputranspose
HUGE = pytest.mark.skipif(os.environ.get("GPUTRANSPOSE_HUGE") != "1",
                          reason="set GPUTRANSPOSE_HUGE=1 (needs ~30 GB of GPU memory)")


# -- huge tensors --------------------------------------------------------------------------

def _check_huge(x, dims=(-2, -1)):
    y = op.transpose(x, *dims)
    expected = x.transpose(*dims).contiguous()
    assert torch.equal(y, expected)
    del y, expected
    torch.cuda.empty_cache()


@pytest.mark.cuda
@HUGE
def test_more_than_2_pow_31_elements_2d():
    x = torch.randint(0, 256, (50_000, 50_000), dtype=torch.uint8, device="cuda")
    assert x.numel() > 2**31
    _check_huge(x)
    _check_huge(x[:, 7:])  # odd row pitch: the word-shifted path, still past 2^31


@pytest.mark.cuda
@HUGE
def test_more_than_2_pow_31_odd_2_byte_elements():
    # Rows that start anywhere on both sides, past L2: staged or word-shifted loads
    # (stages_2_byte_rows), skewed stores; byte offsets past 2^32.
    x = torch.randint(-2**15, 2**15, (46_341, 46_343), dtype=torch.int16, device="cuda")
    assert x.numel() > 2**31
    _check_huge(x)


@pytest.mark.cuda
@HUGE
def test_batched_past_2_pow_32_bytes():
    x = torch.randint(0, 256, (3, 40_000, 40_001), dtype=torch.uint8, device="cuda")
    assert x.numel() * x.element_size() > 2**32
    _check_huge(x)


@pytest.mark.cuda
@HUGE
def test_huge_wide_elements():
    x = torch.randn(33_000, 33_001, dtype=torch.float32, device="cuda")
    assert x.numel() > 2**30
    _check_huge(x.view(torch.int32))


@pytest.mark.cuda
@HUGE
def test_huge_permutes_with_outer_batch_dims():
    # A 4-D move of 2.3 G 1-byte elements (two batch dims: one on the grid's y) and a
    # channels_last conversion of 2.2 G: offsets past 2^31 in every batch dim's term.
    x = torch.randint(0, 256, (14, 160, 1100, 1000), dtype=torch.uint8, device="cuda")
    assert x.numel() > 2**31
    y = op.permute(x, [3, 1, 0, 2])
    assert torch.equal(y, x.permute(3, 1, 0, 2).contiguous())
    del y
    assert x[:13].numel() > 2**31
    y = op.contiguous(x[:13], torch.channels_last)
    assert y.is_contiguous(memory_format=torch.channels_last)
    assert torch.equal(y, x[:13])
    del x, y
    torch.cuda.empty_cache()


@pytest.mark.cuda
@HUGE
def test_huge_wide_element_transpose():
    # (B, S, H, D) heads of 512-byte elements, 5 GiB: byte offsets past 2^32 on both sides,
    # read at evict_last (past L2) by the wide-element kernel.
    x = torch.randint(0, 256, (5, 16384, 128, 512), dtype=torch.uint8, device="cuda")
    assert x.numel() > 2**32
    _check_huge(x, (1, 2))


def _bytes(*sizes):
    return random_tensor(sizes, torch.uint8, "cuda")


# Every kernel past 2^31 elements, in the kernel the H100/H200 rule picks for it (64-bit
# offsets in each kernel's own index math): (make the input, transpose dims or None,
# permutation or None, explain()'s path, a part of its kernel name).
KERNELS_PAST_2_POW_31 = {
    "small_dim_output_rows": (lambda: _bytes(3, 800_000_000), (0, 1), None,
                              "small_dim", "short=3, short_rows=output"),
    "small_dim_input_rows": (lambda: _bytes(400_000_000, 12).view(torch.int16), (0, 1), None,
                             "small_dim", "short=6, short_rows=input"),
    "batched_small": (lambda: _bytes(1_900_000, 34, 35), (1, 2), None, "batched_small", ""),
    "unit_tiled_3_byte_elements": (lambda: _bytes(26_000, 30_000, 3), (0, 1), None,
                                   "tiled_units", "units=3"),
    "one_unit_tiles": (lambda: _bytes(110_000_000, 20), (0, 1), None, "tiled_units", "units=1,"),
    "element_runs": (lambda: _bytes(4400, 5000, 103)[..., :101], (0, 1), None,
                     "element_runs", "e=101"),
    "realigned_wide_elements": (lambda: _bytes(1 + 3000 * 1000 * 787)[1:].view(3000, 1000, 787),
                                (0, 1), None, "wide_elements", "realigned"),
    "nd_tiles_2d": (lambda: _bytes(20, 110_000_000), (0, 1), None, "nd_tiles", "in_dims=1"),
    "nd_tiles_all_3_reversal": (lambda: _bytes(*[3] * 20), None, tuple(range(19, -1, -1)),
                                "nd_tiles", "in_dims=4"),
}


@pytest.mark.cuda
@HUGE
@pytest.mark.parametrize("case", list(KERNELS_PAST_2_POW_31))
def test_every_kernel_past_2_pow_31_elements(case):
    make, dims, perm, path, kernel = KERNELS_PAST_2_POW_31[case]
    x = make()
    assert x.numel() > 2**31
    if dims is not None:
        how = torch_transpose.explain(x, *dims)
        y, expected = op.transpose(x, *dims), x.transpose(*dims).contiguous()
    else:
        how = torch_transpose.explain_permute(x, perm)
        y, expected = op.permute(x, perm), x.permute(perm).contiguous()
    if torch.cuda.get_device_capability(x.device) == (9, 0):  # the rule's choice on Hopper
        assert how["path"] == path and kernel in how["kernel"], how
    assert torch.equal(y, expected)
    del x, y, expected
    torch.cuda.empty_cache()


# -- memory ----------------------------------------------------------------------------------

@pytest.mark.cuda
@pytest.mark.parametrize("make", [lambda: torch.randn(4096, 4095, device="cuda"),
                                  lambda: torch.randn(4096, 4096, device="cuda")[:, 5:],
                                  lambda: random_tensor((16, 512, 513), torch.uint8, "cuda")],
                         ids=["contiguous", "row_strided", "batched"])
def test_peak_memory_is_the_output_alone(make):
    x = make()
    torch.cuda.synchronize()
    # Bytes requested from the caching allocator (its own rounding left out).
    before = torch.cuda.memory_stats()["requested_bytes.all.current"]
    torch.cuda.reset_peak_memory_stats()
    y = op.transpose(x)
    torch.cuda.synchronize()
    peak = torch.cuda.memory_stats()["requested_bytes.all.peak"]
    assert peak - before == y.numel() * y.element_size()


@pytest.mark.cuda
def test_out_of_memory_is_pytorchs_error_and_the_process_stays_usable():
    free, _ = torch.cuda.mem_get_info()
    side = int((free // 4) ** 0.5) * 4
    x = torch.zeros(1, dtype=torch.float32, device="cuda").expand(side, side)
    with pytest.raises(torch.OutOfMemoryError):
        op.transpose(x)
    y = random_tensor((300, 200), torch.float32, "cuda")
    assert_bitwise_equal(op.transpose(y), y.t().contiguous())


# -- misuse --------------------------------------------------------------------------------

def _quantized():
    return torch.quantize_per_tensor(torch.randn(4, 4), 0.1, 0, torch.qint8)


def _nested():
    return torch.nested.nested_tensor([torch.randn(2, 3), torch.randn(4, 3)])


MISUSE = [
    ("quantized", lambda: op.transpose(_quantized()), NotImplementedError,
     "gputranspose.transpose: quantized tensors are not supported; transpose x.dequantize()"),
    ("nested", lambda: op.transpose(_nested()), NotImplementedError,
     "gputranspose.transpose: nested tensors are not supported"),
    ("sparse csr", lambda: op.transpose(torch.eye(3).to_sparse_csr()), NotImplementedError,
     "gputranspose.transpose: sparse compressed (CSR, CSC, BSR, BSC) tensors are not supported"),
    ("dims both bad", lambda: op.transpose(torch.empty(2, 2), 7, 9), IndexError,
     "gputranspose.transpose: dim0=7 is out of range for a 2-D tensor"),
    ("scalar bad dim", lambda: op.transpose(torch.tensor(1.0), 0, 1), IndexError,
     "gputranspose.transpose: dim1=1 is out of range for a 0-D tensor"),
    ("non-tensor", lambda: op.transpose([[1, 2]]), RuntimeError,
     "Expected a value of type 'Tensor' for argument 'x' but instead found type 'list'"),
    ("meta x, cpu out", lambda: op.transpose.out(torch.empty(2, 3, device="meta"), out=torch.empty(3, 2)),
     RuntimeError, "gputranspose.transpose.out: out is on cpu but x is on meta"),
    ("out bool for float", lambda: op.transpose.out(torch.empty(2, 3), out=torch.empty(3, 2, dtype=torch.bool)),
     RuntimeError, "out has dtype Bool but x has dtype Float"),
]


@pytest.mark.parametrize("call,error,message", [m[1:] for m in MISUSE], ids=[m[0] for m in MISUSE])
def test_misuse_raises_its_exact_error(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


CUDA_MISUSE = [
    ("cuda x, cpu out", lambda: op.transpose.out(torch.empty(2, 3, device="cuda"), out=torch.empty(3, 2)),
     RuntimeError, "gputranspose.transpose.out: out is on cpu but x is on cuda:0"),
    ("cpu x, cuda out", lambda: op.transpose.out(torch.empty(2, 3), out=torch.empty(3, 2, device="cuda")),
     RuntimeError, "gputranspose.transpose.out: out is on cuda:0 but x is on cpu"),
    ("out aliases a view of x", lambda: (lambda b: op.transpose.out(b[:, :4], out=b[:, 4:].t()))(
        torch.empty(4, 8, device="cuda")), RuntimeError, "out must be contiguous"),
    ("out overlaps x", lambda: (lambda b: op.transpose.out(b[:64].view(8, 8), out=b[32:96].view(8, 8)))(
        torch.empty(128, device="cuda")), RuntimeError, "gputranspose.transpose.out: out overlaps x"),
    ("quantized cuda", lambda: op.transpose(torch.quantize_per_tensor(torch.randn(4, 4, device="cuda"), 0.1, 0, torch.quint8)),
     NotImplementedError, "gputranspose.transpose: quantized tensors are not supported; transpose x.dequantize()"),
]


@pytest.mark.cuda
@pytest.mark.parametrize("call,error,message", [m[1:] for m in CUDA_MISUSE], ids=[m[0] for m in CUDA_MISUSE])
def test_cuda_misuse_raises_its_exact_error(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)
    torch.cuda.synchronize()  # and the device is still fine
