"""The op's contract, device-independent: run on CPU (in CI) and on meta tensors.
The CUDA kernels are held to the same contract in test_transpose_cuda.py."""

import importlib.metadata
import os

import pytest
import torch
import torch.autograd.forward_ad as fwAD

import torch_transpose
from helpers import (ALL_DTYPES, plan_result, ONE_DTYPE_PER_SIZE, assert_bitwise_equal, at_byte_offset, dtype_id,
                     random_finite, random_tensor)

op = torch.ops.gputranspose

SHAPES = [(1, 1), (1, 37), (37, 1), (5, 7), (64, 64), (65, 129), (3, 17, 33), (2, 3, 4, 5)]
ZERO_SIZE_SHAPES = [(0, 5), (5, 0), (0, 0), (2, 0, 3), (0, 4, 4)]


def reference(x, dim0=-2, dim1=-1):
    if x.dim() < 2 and (dim0, dim1) == (-2, -1):
        return x.clone(memory_format=torch.contiguous_format)
    return x.transpose(dim0, dim1).contiguous()


# -- registration ----------------------------------------------------------------------------

def test_schemas():
    assert str(op.transpose.default._schema) == (
        "gputranspose::transpose(Tensor x, int dim0=-2, int dim1=-1) -> Tensor")
    assert str(op.transpose.out._schema) == (
        "gputranspose::transpose.out(Tensor x, int dim0=-2, int dim1=-1, *, Tensor(a!) out) -> ()")
    # The cuBLAS peer is a benchmark's (benchmarks/peers), not the product's.
    assert not hasattr(op, "transpose_cublas")


@pytest.mark.parametrize("key", ["CPU", "Meta", "Autograd"])
def test_kernels_registered(key):
    assert torch._C._dispatch_has_kernel_for_dispatch_key("gputranspose::transpose", key)
    assert torch._C._dispatch_has_kernel_for_dispatch_key("gputranspose::transpose.out", key)


def test_cuda_kernels_registered_when_built():
    has = torch._C._dispatch_has_kernel_for_dispatch_key("gputranspose::transpose", "CUDA")
    assert has == torch_transpose.has_cuda_kernels()


def test_build_facts():
    version_file = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "VERSION")
    if os.path.exists(version_file):  # the source tree's build
        assert torch_transpose.__version__ == open(version_file).read().strip()
    else:  # an installed wheel (scripts/check-wheel): its metadata's version
        assert torch_transpose.__version__ == importlib.metadata.version("torch_transpose")
    if torch_transpose.has_cuda_kernels():
        archs = torch_transpose.cuda_arch_list()
        assert archs and all(a.startswith("sm_") for a in archs)
        assert "sm_90" in archs  # Hopper is always built


# -- values ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", SHAPES + ZERO_SIZE_SHAPES, ids=str)
def test_matches_aten_for_every_dtype(dtype, shape):
    x = random_tensor(shape, dtype)
    assert_bitwise_equal(op.transpose(x), reference(x))


@pytest.mark.parametrize("dims", [(0, 1), (1, 0), (0, 2), (-3, -1), (1, 1), (2, -1), (0, 3)])
def test_non_default_dims(dims):
    x = random_tensor((3, 4, 5, 6), torch.float32)
    y = op.transpose(x, *dims)
    assert_bitwise_equal(y, reference(x, *dims))
    assert y.is_contiguous()


VIEWS = {
    "row_slice": lambda x: x[:, 16:],
    "padded_pitch": lambda x: x[:, :-17],
    "transposed": lambda x: x.t(),
    "column_step": lambda x: x[:, ::2],
    "row_step": lambda x: x[::3],
    "misaligned_offset": lambda x: x.reshape(-1)[1:1 + 60 * 70].view(60, 70),
    "expanded": lambda x: x[:1].expand(40, -1),
    "batched_permuted": lambda x: x.reshape(8, 10, 90).permute(1, 0, 2),
}


@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("view", VIEWS, ids=str)
def test_strided_and_transposed_views(dtype, view):
    x = VIEWS[view](random_tensor((80, 90), dtype))
    assert_bitwise_equal(op.transpose(x), reference(x))


@pytest.mark.parametrize("shape", [(), (7,), (0,)], ids=str)
def test_0d_and_1d_return_a_copy_like_t(shape):
    x = random_tensor(shape, torch.float32)
    y = op.transpose(x)
    assert_bitwise_equal(y, x.t())
    if x.numel():
        assert y.data_ptr() != x.data_ptr()


@pytest.mark.parametrize("make", [lambda: random_tensor((4, 4), torch.float32),
                                  lambda: random_tensor((4, 4), torch.float32).t(),
                                  lambda: random_tensor((1, 8), torch.float32)])
def test_result_never_aliases_input(make):
    x = make()
    y = op.transpose(x)
    assert y.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()


def test_python_wrapper():
    x = random_tensor((2, 3, 4), torch.float16)
    assert_bitwise_equal(torch_transpose.transpose(x), reference(x))
    assert_bitwise_equal(torch_transpose.transpose(x, 0, 2), reference(x, 0, 2))
    assert torch_transpose.transpose.__doc__


# -- meta / fake tensors -------------------------------------------------------------------

def test_meta_gives_shape_dtype_and_contiguity():
    x = torch.empty(3, 5, 7, dtype=torch.bfloat16, device="meta")
    y = op.transpose(x)
    assert (y.shape, y.dtype, y.device.type) == ((3, 7, 5), torch.bfloat16, "meta")
    assert y.is_contiguous()
    assert op.transpose(x, 0, 2).shape == (7, 5, 3)


def test_fake_tensor_mode():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        y = op.transpose(torch.empty(4, 6))
    assert y.shape == (6, 4)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16, torch.uint8],
                         ids=dtype_id)
@pytest.mark.parametrize("shape,dims", [((5, 7), (-2, -1)), ((3, 5, 7), (-2, -1)),
                                        ((3, 5, 7), (0, 2)), ((7,), (-2, -1))], ids=str)
def test_opcheck_cpu(dtype, shape, dims):
    x = random_finite(shape, dtype)
    if dtype.is_floating_point and dtype.itemsize >= 4:
        x.requires_grad_(True)
    torch.library.opcheck(op.transpose.default, (x, *dims))


def test_opcheck_out_cpu():
    x = random_tensor((3, 5, 7), torch.float32)
    torch.library.opcheck(op.transpose.out, (x, -2, -1), {"out": torch.empty(3, 7, 5)})


# -- autograd --------------------------------------------------------------------------------

@pytest.mark.parametrize("shape,dims", [((4, 5), (-2, -1)), ((2, 3, 4), (0, 2)), ((6,), (-2, -1))],
                         ids=str)
def test_gradcheck(shape, dims):
    x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: op.transpose(t, *dims), (x,), check_forward_ad=True)
    assert torch.autograd.gradgradcheck(lambda t: op.transpose(t, *dims), (x,),
                                        check_fwd_over_rev=True)


@pytest.mark.parametrize("dims", [(-2, -1), (0, 2)], ids=str)
def test_jvp_is_atens(dims):
    x, tangent = torch.randn(3, 4, 5), torch.randn(3, 4, 5)
    primal_out, tangent_out = torch.func.jvp(lambda t: op.transpose(t, *dims), (x,), (tangent,))
    assert_bitwise_equal(primal_out, reference(x, *dims))
    assert_bitwise_equal(tangent_out, reference(tangent, *dims))


def test_dual_tensor_that_requires_grad_keeps_both_modes():
    x = torch.randn(4, 6, requires_grad=True)
    tangent, grad = torch.randn(4, 6), torch.randn(6, 4)
    with fwAD.dual_level():
        y = op.transpose(fwAD.make_dual(x, tangent))
        assert_bitwise_equal(fwAD.unpack_dual(y).tangent, reference(tangent))
        y.backward(grad)
    assert_bitwise_equal(x.grad, reference(grad))


# -- torch.func.vmap -------------------------------------------------------------------------

def test_vmap_has_a_batching_rule():
    # Without one, vmap would run the op once per sample (with a performance warning).
    assert torch._C._dispatch_has_kernel_for_dispatch_key("gputranspose::transpose", "FuncTorchBatched")


@pytest.mark.parametrize("in_dim", [0, 1, 3])
@pytest.mark.parametrize("dims", [(-2, -1), (0, 2), (1, -1), (2, 2)], ids=str)
def test_vmap_is_atens(in_dim, dims):
    x = torch.randn(5, 3, 4, 6)
    got = torch.func.vmap(lambda t: op.transpose(t, *dims), in_dims=in_dim)(x)
    assert_bitwise_equal(got, torch.func.vmap(lambda t: reference(t, *dims), in_dims=in_dim)(x))


def test_vmap_of_1d_samples_copies_them():
    x = torch.randn(4, 7)
    assert_bitwise_equal(torch.func.vmap(op.transpose)(x), x)


def test_vmap_raises_what_one_sample_would():
    with pytest.raises(IndexError, match="dim1=3 is out of range for a 3-D tensor"):
        torch.func.vmap(lambda t: op.transpose(t, 0, 3))(torch.randn(2, 3, 4, 5))


def test_torch_func_grad():
    # The package's autograd (Python, torch_transpose/_registration.py) runs under torch.func
    # transforms; the C++ library's (a C++ torch::autograd::Function) does not.
    x = torch.randn(3, 4, dtype=torch.float64)
    weights = torch.randn(4, 3, dtype=torch.float64)
    grad = torch.func.grad(lambda t: (op.transpose(t) * weights).sum())(x)
    assert_bitwise_equal(grad, weights.t().contiguous())


def test_gradient_through_a_module():
    class TransposeLinear(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(5, 3)

        def forward(self, x):
            return self.linear(torch_transpose.transpose(x))

    torch.manual_seed(0)
    model = TransposeLinear()
    x = torch.randn(2, 5, 4, requires_grad=True)
    model(x).square().sum().backward()
    grad_ours, wgrad_ours = x.grad.clone(), model.linear.weight.grad.clone()

    x.grad = None
    model.zero_grad()
    model.linear(x.mT).square().sum().backward()
    torch.testing.assert_close(grad_ours, x.grad, rtol=0, atol=0)
    torch.testing.assert_close(wgrad_ours, model.linear.weight.grad, rtol=0, atol=0)


# -- layout dispatch -----------------------------------------------------------------------

def _misaligned(x):
    return x.reshape(-1)[1:1 + 64 * 64].view(64, 64)


EXPLAIN_CASES = [
    # name, tensor, path, (load_bytes, store_bytes)
    ("contiguous 2-D", lambda: torch.empty(64, 64), "tiled_contiguous", (16, 16)),
    ("contiguous batch", lambda: torch.empty(3, 64, 64), "tiled_contiguous", (16, 16)),
    ("row slice", lambda: torch.empty(64, 96)[:, 16:], "tiled_row_strided", (16, 16)),
    ("odd pitch", lambda: torch.empty(64, 81)[:, :-17], "tiled_row_strided", (4, 16)),
    ("misaligned offset", lambda: _misaligned(torch.empty(64 * 64 + 8)), "tiled_contiguous", (4, 16)),
    ("odd rows", lambda: torch.empty(63, 64), "tiled_contiguous", (16, 4)),
    ("odd both", lambda: torch.empty(63, 65, dtype=torch.uint8), "tiled_contiguous", (4, 4)),
    ("already transposed", lambda: torch.empty(64, 32).t(), "memcpy", (0, 0)),
    ("1 x N", lambda: torch.empty(1, 64), "memcpy", (0, 0)),
    ("1-D", lambda: torch.empty(64), "memcpy", (0, 0)),
    ("zero size", lambda: torch.empty(0, 64), "empty", (0, 0)),
    ("column step", lambda: torch.empty(64, 64)[:, ::2], "tiled_units", (0, 0)),
    ("expanded", lambda: torch.empty(1, 64).expand(64, 64), "aten_fallback", (0, 0)),
    ("overlapping rows", lambda: torch.empty(100).as_strided((10, 8), (4, 1)), "aten_fallback", (0, 0)),
    ("overlapping matrices", lambda: torch.empty(2 + 63 * 65 + 64).as_strided((3, 64, 64), (1, 65, 1)),
     "tiled_row_strided", (4, 16)),
    ("two batch dims that do not fold into one", lambda: torch.empty(4, 6, 64, 64)[:, :3],
     "tiled_row_strided", (16, 16)),
]


@pytest.mark.parametrize("make,path,access", [c[1:] for c in EXPLAIN_CASES],
                         ids=[c[0] for c in EXPLAIN_CASES])
def test_explain_names_the_layout_path(make, path, access):
    how = torch_transpose.explain(make())
    assert how["plan_path"] == path, how
    if how["device"] is None:  # no kernel choice: the plan's path runs
        assert how["path"] == path, how
    assert (how["load_bytes"], how["store_bytes"]) == access, how
    assert how["plan_reason"]


EXPLAIN_DIMS_CASES = [
    # name, tensor, dims, path, reason contains
    ("RGBA image rows", lambda: torch.empty(64, 48, 4, dtype=torch.uint8), (0, 1),
     "tiled_contiguous", "contiguous matrices"),
    ("a transposed view", lambda: torch.empty(8, 65, 64).transpose(1, 2), (0, 1),
     "tiled_contiguous", "contiguous matrices"),
    ("attention heads", lambda: torch.empty(2, 64, 8, 64, dtype=torch.bfloat16), (1, 2),
     "wide_elements", "wider than 16 bytes"),
    ("not adjacent", lambda: torch.empty(64, 5, 96), (0, 2), "tiled_row_strided",
     "a permutation"),
    ("the same dim twice, of a transposed view", lambda: torch.empty(4, 64, 96).mT, (1, 1),
     "tiled_contiguous", "contiguous matrices"),
    ("12-byte elements", lambda: torch.empty(64, 64, 3), (0, 1), "tiled_units", "odd trailing blocks"),
    ("700-byte elements", lambda: torch.empty(8, 8, 700, dtype=torch.uint8), (0, 1), "wide_elements",
     "moved in units of what they share"),
    ("strided elements", lambda: torch.empty(64, 64, 2)[..., :1], (0, 1), "tiled_units",
     "strided elements"),
    ("odd blocks under a row slice", lambda: torch.empty(64, 96, 40, dtype=torch.uint8)[..., :14],
     (0, 1), "tiled_units", "strided elements"),
    ("a strided run: rows a pitch apart", lambda: torch.empty(64)[::2], (0, 0), "memcpy",
     "a 2-D copy"),
    ("a size-1 dim swapped with sliced rows", lambda: torch.empty(8, 30, 1, 51)[..., :50], (1, 2),
     "memcpy", "a 2-D copy"),
    ("an expanded run, no columns", lambda: torch.empty(1).expand(64), (0, 0), "aten_fallback",
     "no batch of matrix transposes"),
    ("rows a part of an element apart", lambda: torch.empty(64 * 33).as_strided((64, 8, 4), (33, 4, 1)),
     (0, 1), "tiled_units", "part of an element apart"),
    ("wide rows a part of an element apart, on 16 bytes",
     lambda: torch.empty(96 * 50 * 72, dtype=torch.float16).as_strided((96, 50, 64), (3600, 72, 1)),
     (0, 1), "wide_elements", "wider than 16 bytes"),
    ("bfloat16 at an odd address", lambda: at_byte_offset(torch.zeros(64, 96, dtype=torch.bfloat16), 1),
     (0, 1), "tiled_units", "off the element's alignment"),
    ("wide, off 16 bytes", lambda: torch.empty(1 + 16 * 8 * 8)[1:].view(16, 8, 8), (0, 1),
     "tiled_units", "off the element's alignment"),
    ("wider than 682 bytes, off 16 bytes", lambda: torch.empty(1 + 8 * 8 * 200)[1:].view(8, 8, 200),
     (0, 1), "wide_elements", "off 16 bytes"),
]


@pytest.mark.parametrize("make,dims,path,reason", [c[1:] for c in EXPLAIN_DIMS_CASES],
                         ids=[c[0] for c in EXPLAIN_DIMS_CASES])
def test_explain_adjacent_dims_take_the_trailing_dims_as_elements(make, dims, path, reason):
    how = torch_transpose.explain(make(), *dims)
    assert how["plan_path"] == path, how
    assert reason in how["plan_reason"], how


# The planner fuses the result's dims that lie back to back in the input: these layouts
# are batches of matrix transposes once fused. Read back through the plan, each gives
# ATen's bytes (the kernels compute exactly this on CUDA).
FUSED_LAYOUTS = [
    # name, tensor, dims, (batch, rows, cols)
    ("transposed view", lambda: torch.randn(8, 65, 64).transpose(1, 2), (0, 1), (1, 520, 64)),
    ("permuted batch", lambda: torch.randn(64, 75, 200).permute(1, 0, 2), (-2, -1), (1, 64, 15000)),
    ("copy of an mT view", lambda: torch.randn(4, 64, 96).mT, (1, 1), (4, 64, 96)),
    ("heads", lambda: torch.randn(2, 9, 4, 8), (1, 2), (2, 9, 4)),
    ("sliced transposed view", lambda: torch.randn(6, 67, 40)[:, :, 3:36].transpose(1, 2),
     (0, 1), (1, 402, 33)),
    ("size-1 dims between", lambda: torch.randn(5, 1, 7, 1, 8), (0, 2), (1, 5, 7)),
]


@pytest.mark.parametrize("make,dims,matrices", [c[1:] for c in FUSED_LAYOUTS],
                         ids=[c[0] for c in FUSED_LAYOUTS])
def test_the_plan_fuses_dims_and_reads_what_aten_reads(make, dims, matrices):
    x = make()
    how = torch_transpose.explain(x, *dims)
    assert how["path"] in ("tiled_contiguous", "tiled_row_strided", "wide_elements"), how
    assert how["matrices"] == matrices, how
    assert_bitwise_equal(plan_result(x, how).view(-1), x.transpose(*dims).contiguous().view(-1))


def test_explain_names_the_kernel_or_says_why_not():
    how = torch_transpose.explain(torch.empty(64, 64))
    if torch_transpose.has_cuda_kernels() and torch.cuda.is_available():
        assert how["kernel"].startswith("tiled<e=4,"), how
        assert how["device"] == torch.cuda.current_device()
        assert how["blocks"] > 0 and how["threads"] > 0
        assert how["tile_utilization"] == 1.0  # 64 x 64: whole tiles
    else:
        assert how["kernel"] is None and how["device"] is None, how
        assert how["note"] in ("no CUDA device to choose a kernel for", "this build has no CUDA kernels")


def test_explain_answers_for_meta_tensors():
    assert torch_transpose.explain(torch.empty(64, 64, device="meta"))["path"] == "tiled_contiguous"


@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
def test_explain_access_width_per_element_size(dtype):
    how = torch_transpose.explain(torch.empty(128, 128, dtype=dtype))
    assert (how["load_bytes"], how["store_bytes"]) == (16, 16)
    # One element of storage offset: 16-byte loads no longer line up (except for 16-byte elements).
    x = torch.empty(128 * 128 + 1, dtype=dtype)[1:].view(128, 128)
    how = torch_transpose.explain(x)
    assert (how["load_bytes"], how["store_bytes"]) == (16 if dtype.itemsize == 16 else 4, 16)


# -- bad input -----------------------------------------------------------------------------

def _out_with_a_tangent():
    with fwAD.dual_level():
        op.transpose.out(fwAD.make_dual(torch.empty(3, 4), torch.empty(3, 4)), out=torch.empty(4, 3))


BAD_CALLS = [
    ("dim0 out of range", lambda: op.transpose(torch.empty(3, 4), 2, 0), IndexError,
     "gputranspose.transpose: dim0=2 is out of range for a 2-D tensor"),
    ("dim1 out of range", lambda: op.transpose(torch.empty(3, 4, 5), 0, -4), IndexError,
     "gputranspose.transpose: dim1=-4 is out of range for a 3-D tensor"),
    ("explicit dims on 1-D", lambda: op.transpose(torch.empty(3), 0, 1), IndexError,
     "dim1=1 is out of range for a 1-D tensor"),
    ("out wrong shape", lambda: op.transpose.out(torch.empty(3, 4), out=torch.empty(3, 4)),
     RuntimeError, "out has shape [3, 4] but the result has shape [4, 3]"),
    ("out wrong dtype", lambda: op.transpose.out(torch.empty(3, 4), out=torch.empty(4, 3, dtype=torch.float64)),
     RuntimeError, "out has dtype Double but x has dtype Float"),
    ("out aliases x", lambda: (lambda x: op.transpose.out(x, out=x))(torch.empty(4, 4)),
     RuntimeError, "out overlaps x"),
    ("out overlaps x", lambda: (lambda b: op.transpose.out(b[:16].view(4, 4), out=b[8:24].view(4, 4)))(torch.empty(32)),
     RuntimeError, "out overlaps x"),
    ("out not contiguous", lambda: op.transpose.out(torch.empty(3, 4), out=torch.empty(3, 4).t()),
     RuntimeError, "out must be contiguous"),
    ("out on meta, x on cpu", lambda: op.transpose.out(torch.empty(3, 4), out=torch.empty(4, 3, device="meta")),
     RuntimeError, "out is on meta but x is on cpu"),
    ("out with grad", lambda: op.transpose.out(torch.empty(3, 4, requires_grad=True), out=torch.empty(4, 3)),
     RuntimeError, "out= does not support automatic differentiation"),
    ("out with a tangent", lambda: _out_with_a_tangent(), RuntimeError,
     "out= does not support forward-mode automatic differentiation"),
    ("sparse input", lambda: op.transpose(torch.eye(3).to_sparse()), NotImplementedError,
     "gputranspose.transpose: sparse COO tensors are not supported; use x.transpose(dim0, dim1)"),
    ("sparse input, inference mode", lambda: _in_inference_mode(lambda: op.transpose(torch.eye(3).to_sparse())),
     NotImplementedError, "gputranspose.transpose: sparse COO tensors are not supported"),
    ("sparse CSR input", lambda: op.transpose(torch.eye(3).to_sparse_csr()), NotImplementedError,
     "gputranspose.transpose: sparse compressed (CSR, CSC, BSR, BSC) tensors are not supported"),
    ("quantized input", lambda: op.transpose(torch.quantize_per_tensor(torch.eye(3), 0.1, 0, torch.qint8)),
     NotImplementedError, "gputranspose.transpose: quantized tensors are not supported; transpose x.dequantize()"),
    ("quantized input, inference mode",
     lambda: _in_inference_mode(lambda: op.transpose(torch.quantize_per_tensor(torch.eye(3), 0.1, 0, torch.qint8))),
     NotImplementedError, "gputranspose.transpose: quantized tensors are not supported"),
    ("sparse out=", lambda: op.transpose.out(torch.eye(3).to_sparse(), out=torch.empty(3, 3)), NotImplementedError,
     "gputranspose.transpose.out: sparse COO tensors are not supported"),
    ("x not a tensor", lambda: torch_transpose.transpose([[1, 2]]), TypeError,
     "torch_transpose: x must be a torch.Tensor, got list"),
    ("dim not an int", lambda: torch_transpose.transpose(torch.empty(3, 4), 0.5), TypeError,
     "torch_transpose: dim0 must be an int, got float"),
    ("dim a bool", lambda: torch_transpose.transpose(torch.empty(3, 4), 0, True), TypeError,
     "torch_transpose: dim1 must be an int, got bool"),
    ("out not a tensor", lambda: torch_transpose.transpose(torch.empty(3, 4), out=[]), TypeError,
     "torch_transpose: out must be a torch.Tensor, got list"),
    ("explain of a non-tensor", lambda: torch_transpose.explain(3), TypeError,
     "torch_transpose: x must be a torch.Tensor, got int"),
]


def _in_inference_mode(call):
    # Inference mode skips the Autograd kernel: the backend's kernel must say the same.
    with torch.inference_mode():
        return call()


UNSUPPORTED_LAYOUTS = [
    ("sparse COO", lambda: torch.eye(3).to_sparse(), "sparse COO tensors are not supported"),
    ("sparse CSR", lambda: torch.eye(3).to_sparse_csr(), "sparse compressed"),
    ("quantized", lambda: torch.quantize_per_tensor(torch.eye(3), 0.1, 0, torch.qint8),
     "quantized tensors are not supported"),
    ("nested", lambda: torch.nested.nested_tensor([torch.empty(2, 3), torch.empty(4, 3)]),
     "nested tensors are not supported"),
]


@pytest.mark.parametrize("make,message", [c[1:] for c in UNSUPPORTED_LAYOUTS],
                         ids=[c[0] for c in UNSUPPORTED_LAYOUTS])
def test_explain_agrees_that_unsupported_layouts_raise(make, message):
    x = make()
    how = torch_transpose.explain(x)
    assert how["path"] == "unsupported" and message in how["reason"], how
    assert how["kernel"] is None
    with pytest.raises(NotImplementedError, match=message):
        op.transpose(x)


@pytest.mark.parametrize("call,error,message", [c[1:] for c in BAD_CALLS], ids=[c[0] for c in BAD_CALLS])
def test_bad_input_raises_a_clear_error(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


@pytest.mark.parametrize("view", ["conj", "neg"])
def test_conjugate_and_negative_views_are_resolved(view):
    # ATen's Conjugate and Negative fallbacks materialize the view before any backend's kernel.
    x = torch.randn(5, 7, dtype=torch.complex64)
    lazy = x.conj() if view == "conj" else torch._neg_view(x)
    y = op.transpose(lazy)
    assert not y.is_conj() and not y.is_neg()
    assert_bitwise_equal(y, lazy.resolve_conj().resolve_neg().t().contiguous())


def test_empty_out_is_resized():
    x = random_tensor((3, 4), torch.int32)
    out = torch.empty(0, dtype=torch.int32)
    assert torch_transpose.transpose(x, out=out) is out
    assert_bitwise_equal(out, reference(x))


def test_out_with_a_strided_input():
    x = random_tensor((30, 50), torch.int16)[:, 3:40]
    out = torch.empty(37, 30, dtype=torch.int16)
    torch_transpose.transpose(x, out=out)
    assert_bitwise_equal(out, reference(x))


def test_out_is_written_in_place():
    x = random_tensor((2, 3, 4), torch.float64)
    out = torch.full((2, 4, 3), float("nan"), dtype=torch.float64)
    before = (out.data_ptr(), out._version)
    torch_transpose.transpose(x, out=out)
    assert out.data_ptr() == before[0]
    assert out._version > before[1]
    assert_bitwise_equal(out, reference(x))
