"""permute and contiguous: any dim order and any memory format through the one layout
plan, bit-exact with ATen. CPU and meta tests run everywhere; the CUDA ones (marked) need a
GPU and run the kernels over poisoned memory, through the tiled kernel too where the kernel
choice takes ATen's copy."""

import pytest
import torch
import torch.autograd.forward_ad as fwAD

import torch_transpose
from helpers import (ALL_DTYPES, ONE_DTYPE_PER_SIZE, assert_bitwise_equal,
                     development_build_or_skip, dtype_id, plan_result, poison_cuda_cache,
                     poisoned_like, random_finite, random_tensor)

op = torch.ops.gputranspose


def reference(x, dims):
    return x.permute(dims).contiguous()


# Layouts users move, each (name, shape, dims). The kernel paths they take on CUDA are
# checked in test_the_plan_moves_permutations_as_batches_of_transposes.
PERMUTATIONS = [
    ("NCHW to NHWC, 3 channels", (2, 3, 40, 33), (0, 2, 3, 1)),
    ("NCHW to NHWC, 64 channels", (2, 64, 17, 19), (0, 2, 3, 1)),
    ("NHWC to NCHW", (2, 17, 19, 64), (0, 3, 1, 2)),
    ("(B, S, H, D) to (B, H, S, D)", (2, 33, 4, 64), (0, 2, 1, 3)),
    ("(B, S, H, D) to (B, H, D, S)", (2, 33, 4, 64), (0, 2, 3, 1)),
    ("3-D reversal", (17, 33, 65), (2, 1, 0)),
    ("3-D rotation", (17, 33, 65), (1, 2, 0)),
    ("3-D rotation back", (17, 33, 65), (2, 0, 1)),
    ("4-D reversal", (5, 6, 7, 9), (3, 2, 1, 0)),
    ("5-D move", (3, 4, 5, 6, 7), (0, 2, 3, 4, 1)),
    ("5-D shuffle", (3, 4, 5, 6, 7), (4, 0, 3, 1, 2)),
    ("6-D shuffle", (2, 3, 4, 5, 3, 7), (5, 3, 0, 4, 1, 2)),
    ("all-2 reversal, rank 12", (2,) * 12, tuple(range(11, -1, -1))),
    ("identity", (4, 5, 6), (0, 1, 2)),
    ("size-1 dims moved", (1, 7, 1, 9), (2, 3, 0, 1)),
    ("1-D", (7,), (0,)),
    ("0-D", (), ()),
]


def make_views(shape, dtype, device="cpu"):
    """x contiguous, at a storage offset, sliced in its last dim, and as a permuted view."""
    x = random_tensor(shape, dtype, device)
    views = {"contiguous": x}
    if x.dim() >= 1 and x.numel() > 0:
        flat = random_tensor((x.numel() + 3,), dtype, device)
        views["offset"] = flat[3:].view(shape)
        wider = random_tensor(shape[:-1] + (shape[-1] + 5,), dtype, device)
        views["sliced"] = wider[..., 2:2 + shape[-1]]
        reversed_dims = tuple(range(x.dim() - 1, -1, -1))
        views["permuted view"] = random_tensor(tuple(reversed(shape)), dtype, device).permute(reversed_dims)
    return views


# -- registration ----------------------------------------------------------------------------

def test_schemas():
    assert str(op.permute.default._schema) == "gputranspose::permute(Tensor x, int[] dims) -> Tensor"
    assert str(op.permute.out._schema) == (
        "gputranspose::permute.out(Tensor x, int[] dims, *, Tensor(a!) out) -> ()")
    assert str(op.contiguous.default._schema) == (
        "gputranspose::contiguous(Tensor x, MemoryFormat? memory_format=None) -> Tensor")


@pytest.mark.parametrize("key", ["CPU", "Meta", "Autograd", "FuncTorchBatched"])
@pytest.mark.parametrize("name", ["permute", "contiguous"])
def test_kernels_registered(name, key):
    assert torch._C._dispatch_has_kernel_for_dispatch_key(f"gputranspose::{name}", key)
    has_cuda = torch._C._dispatch_has_kernel_for_dispatch_key(f"gputranspose::{name}", "CUDA")
    assert has_cuda == torch_transpose.has_cuda_kernels()


# -- values ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name,shape,dims", PERMUTATIONS, ids=[c[0] for c in PERMUTATIONS])
@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
def test_permute_matches_aten(name, shape, dims, dtype):
    for view, x in make_views(shape, dtype).items():
        got = torch_transpose.permute(x, dims)
        assert got.is_contiguous() and got.data_ptr() != x.data_ptr(), view
        assert_bitwise_equal(got, reference(x, dims))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_permute_every_dtype(dtype):
    x = random_tensor((3, 5, 7, 2), dtype)
    assert_bitwise_equal(op.permute(x, [2, 0, 3, 1]), reference(x, (2, 0, 3, 1)))


@pytest.mark.parametrize("memory_format,shape", [
    (None, (3, 4, 5)), (torch.contiguous_format, (3, 4, 5, 6)), (torch.channels_last, (2, 3, 5, 7)),
    (torch.channels_last_3d, (2, 3, 4, 5, 6))], ids=str)
def test_contiguous_is_atens_but_always_a_copy(memory_format, shape):
    x = random_tensor(shape, torch.float32)
    fmt = memory_format or torch.contiguous_format
    for view in [x, x.transpose(0, -1), x[..., 1:], x.contiguous(memory_format=fmt),
                 x[:, :1].expand(shape)]:
        got = torch_transpose.contiguous(view, memory_format)
        expected = view.clone(memory_format=fmt)
        assert got.data_ptr() != view.data_ptr()
        assert got.stride() == expected.stride() and got.is_contiguous(memory_format=fmt)
        assert_bitwise_equal(got, expected)


def test_empty_and_zero_size():
    assert op.permute(torch.empty(0, 3, 4), [2, 0, 1]).shape == (4, 0, 3)
    assert op.contiguous(torch.empty(2, 0, 3, 3), torch.channels_last).shape == (2, 0, 3, 3)


def test_out_variant():
    x = random_tensor((3, 4, 5), torch.float32)
    out = torch.empty(5, 3, 4)
    assert torch_transpose.permute(x, (2, 0, 1), out=out) is out
    assert_bitwise_equal(out, reference(x, (2, 0, 1)))
    empty = torch.empty(0)
    torch_transpose.permute(x, (2, 0, 1), out=empty)
    assert_bitwise_equal(empty, reference(x, (2, 0, 1)))


@pytest.mark.parametrize("call,error,message", [
    (lambda: op.permute(torch.empty(2, 3), [0]), RuntimeError, "dims must name each of x's dims once"),
    (lambda: op.permute(torch.empty(2, 3), [0, 0]), RuntimeError, r"repeat dim 0"),
    (lambda: op.permute(torch.empty(2, 3), [0, 2]), IndexError, "dim 2 is out of range for a 2-D tensor"),
    (lambda: op.permute(torch.empty(2, 3), [0, -3]), IndexError, "out of range"),
    (lambda: op.contiguous(torch.empty(2, 3), torch.channels_last), RuntimeError,
     "channels_last needs a 4-D tensor"),
    (lambda: op.contiguous(torch.empty(2, 3, 4, 5), torch.channels_last_3d), RuntimeError,
     "channels_last_3d needs a 5-D tensor"),
    (lambda: op.contiguous(torch.empty(2, 3), torch.preserve_format), RuntimeError,
     "memory_format must be contiguous_format, channels_last or channels_last_3d"),
    (lambda: op.permute.out(torch.empty(2, 3), [1, 0], out=torch.empty(2, 3)), RuntimeError,
     "gputranspose.permute.out: out has shape"),
    (lambda: op.permute.out(torch.empty(2, 3), [1, 0], out=torch.empty(3, 2, dtype=torch.int32)),
     RuntimeError, "gputranspose.permute.out: out has dtype"),
    (lambda: torch_transpose.permute(torch.empty(2, 3), 1), TypeError, "dims must be a sequence"),
    (lambda: torch_transpose.permute(torch.empty(2, 3), [1.0, 0]), TypeError, "must be an int"),
    (lambda: torch_transpose.contiguous(torch.empty(2, 3), "channels_last"), TypeError,
     "memory_format must be a torch.memory_format"),
    (lambda: op.permute(torch.eye(3).to_sparse(), [1, 0]), NotImplementedError,
     "sparse COO tensors are not supported"),
], ids=["too few dims", "repeated dim", "dim out of range", "negative dim out of range",
        "channels_last of 2-D", "channels_last_3d of 4-D", "preserve_format", "out shape",
        "out dtype", "dims not a sequence", "float dim", "format not a memory_format", "sparse"])
def test_bad_input_raises_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


# -- PT2, autograd, vmap -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int16, torch.bool], ids=dtype_id)
def test_opcheck(dtype):
    x = random_finite((3, 4, 5), dtype)
    if dtype.is_floating_point:
        x.requires_grad_(True)
    torch.library.opcheck(op.permute.default, (x, [2, 0, 1]))
    torch.library.opcheck(op.contiguous.default, (random_finite((2, 3, 4, 5), dtype), torch.channels_last))
    torch.library.opcheck(op.contiguous.default, (x.detach().transpose(0, 2), None))
    torch.library.opcheck(op.permute.out, (x.detach(), [2, 0, 1]), {"out": torch.empty(5, 3, 4, dtype=dtype)})


def test_meta_gives_the_result_layout():
    x = torch.empty(2, 3, 4, 5, device="meta")
    assert op.permute(x, [0, 2, 3, 1]).shape == (2, 4, 5, 3)
    y = op.contiguous(x, torch.channels_last)
    assert y.shape == x.shape and y.is_contiguous(memory_format=torch.channels_last)


def test_compiles_with_dynamic_shapes():
    def f(t):
        return op.permute(t, [2, 0, 1]) * 2, op.contiguous(t.transpose(0, 1))

    compiled = torch.compile(f, fullgraph=True, dynamic=True)
    for shape in [(3, 4, 5), (6, 7, 2)]:
        x = torch.randn(shape)
        got, expected = compiled(x), f(x)
        assert_bitwise_equal(got[0], expected[0])
        assert_bitwise_equal(got[1], expected[1])


def test_gradcheck():
    x = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: op.permute(t, [2, 0, 1]), (x,), check_forward_ad=True)
    assert torch.autograd.gradgradcheck(lambda t: op.permute(t, [2, 0, 1]), (x,))
    y = torch.randn(2, 3, 4, 5, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: op.contiguous(t, torch.channels_last), (y,),
                                    check_forward_ad=True)


def test_backward_is_the_inverse_permute():
    x = torch.randn(2, 3, 4, requires_grad=True)
    grad = torch.randn(4, 2, 3)
    op.permute(x, [2, 0, 1]).backward(grad)
    assert_bitwise_equal(x.grad, grad.permute(1, 2, 0).contiguous())


def test_forward_ad_tangent_is_permuted():
    x, tangent = torch.randn(2, 3, 4), torch.randn(2, 3, 4)
    with fwAD.dual_level():
        y = op.permute(fwAD.make_dual(x, tangent), [1, 2, 0])
        assert_bitwise_equal(fwAD.unpack_dual(y).tangent, reference(tangent, (1, 2, 0)))


@pytest.mark.parametrize("in_dim", [0, 2])
def test_vmap_is_atens(in_dim):
    x = torch.randn(3, 4, 5, 6)
    got = torch.func.vmap(lambda t: op.permute(t, [2, 0, 1]), in_dims=in_dim)(x)
    assert_bitwise_equal(got, torch.func.vmap(lambda t: reference(t, (2, 0, 1)), in_dims=in_dim)(x))
    y = torch.randn(3, 2, 4, 5, 6)
    got = torch.func.vmap(lambda t: op.contiguous(t, torch.channels_last), in_dims=in_dim)(y)
    samples = [op.contiguous(t, torch.channels_last) for t in y.movedim(in_dim, 0)]
    assert all(got[i].stride() == t.stride() for i, t in enumerate(samples))
    assert_bitwise_equal(got, torch.stack(samples))


# -- the plan --------------------------------------------------------------------------------

# The planner fuses what stays together, drops size-1 dims, takes the trailing run that keeps
# its order as the element, and then needs a dim one element apart in the input: every such
# permutation is a batch of matrix transposes (more batch dims: `outer`).
PLANNED = [
    # name, shape, dims, path, (batch, rows, cols), outer sizes
    ("NCHW to NHWC", (8, 64, 56, 56), (0, 2, 3, 1), "tiled_contiguous", (8, 64, 3136), []),
    ("3-D reversal", (64, 48, 80), (2, 1, 0), "tiled_row_strided", (48, 64, 80), []),
    ("4-D reversal", (16, 24, 40, 64), (3, 2, 1, 0), "tiled_row_strided", (40, 16, 64), [24]),
    ("(B, S, H, D) to (B, H, S, D)", (2, 64, 8, 64), (0, 2, 1, 3), "wide_elements", (2, 64, 8), []),
    ("5-D shuffle", (8, 12, 16, 20, 24), (4, 2, 0, 3, 1), "tiled_row_strided", (20, 12, 24), [8, 16]),
    ("5-D, two dims fused", (8, 12, 16, 20, 24), (4, 0, 3, 1, 2), "tiled_row_strided", (20, 192, 24), [8]),
    ("q of a packed qkv", lambda: torch.randn(2, 64, 8, 3 * 64)[..., :64], (0, 2, 1, 3),
     "wide_elements", (2, 64, 8), []),
    # The heads dim fuses with the element (16 KiB); the rows (heads) are 0 apart.
    ("expanded kv heads", lambda: torch.randn(2, 64, 1, 64).expand(2, 64, 8, 64), (0, 2, 1, 3),
     "wide_elements", (1, 8, 2), []),
    # Heads to the front: all but the heads fuse into one element, repeated 8 times.
    ("expanded kv, heads first", lambda: torch.randn(2, 64, 1, 64).expand(2, 64, 8, 64),
     (2, 0, 1, 3), "wide_elements", (1, 8, 1), []),
]


@pytest.mark.parametrize("name,shape,dims,path,matrices,outer", PLANNED, ids=[c[0] for c in PLANNED])
def test_the_plan_moves_permutations_as_batches_of_transposes(name, shape, dims, path, matrices, outer):
    x = shape() if callable(shape) else torch.randn(shape)
    how = torch_transpose.explain_permute(x, dims)
    if how.get("reason", "").startswith("a swapped dim far smaller"):
        how = torch_transpose._C._explain_permute_tuned(x, dims, fallback=0)
    assert how["path"] == path, how
    assert how["matrices"] == matrices, how
    assert sorted(size for size, _, _ in how["outer"]) == outer, how
    assert_bitwise_equal(plan_result(x, how).view(-1), reference(x, dims).view(-1))


@pytest.mark.parametrize("name,shape,dims", PERMUTATIONS, ids=[c[0] for c in PERMUTATIONS])
def test_every_planned_permutation_reads_what_aten_reads(name, shape, dims):
    for view, x in make_views(shape, torch.int16).items():
        how = torch_transpose.explain_permute(x, dims)
        if "matrices" in how:
            assert_bitwise_equal(plan_result(x, how).view(-1), reference(x, dims).view(-1))
        else:
            assert how["path"] in ("memcpy", "empty", "aten_fallback", "nd_tiles"), (view, how)


def test_contiguous_of_a_transposed_view_is_a_transpose():
    x = torch.randn(64, 96).t()
    how = torch_transpose.explain_permute(x, (0, 1))
    assert how["path"] == "tiled_contiguous" and how["matrices"] == (1, 64, 96), how


def test_explain_permute_says_why_not():
    how = torch_transpose.explain_permute(torch.empty(1).expand(64), (0,))
    assert how["path"] == "aten_fallback" and "no batch of matrix transposes" in how["reason"], how


# -- CUDA ------------------------------------------------------------------------------------

def check_cuda(x, dims):
    expected = reference(x, dims)
    poison_cuda_cache(expected.numel() * expected.element_size())
    assert_bitwise_equal(op.permute(x, dims), expected)
    out = poisoned_like(expected.shape, x.dtype, x.device)
    op.permute.out(x, dims, out=out)
    assert_bitwise_equal(out, expected)
    if torch_transpose._C.development_build():
        poison_cuda_cache(expected.numel() * expected.element_size())
        assert_bitwise_equal(torch_transpose._C._permute_tuned(x, dims, fallback=0), expected)


@pytest.mark.cuda
@pytest.mark.parametrize("name,shape,dims", PERMUTATIONS, ids=[c[0] for c in PERMUTATIONS])
@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
def test_cuda_permute_matches_aten(name, shape, dims, dtype):
    for view, x in make_views(shape, dtype, "cuda").items():
        check_cuda(x, dims)


@pytest.mark.cuda
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape,dims", [
    ((3, 257, 129), (2, 1, 0)), ((65, 3, 33, 17), (3, 1, 0, 2)), ((2, 3, 129, 130), (0, 2, 3, 1)),
    ((4, 130, 3, 65, 2), (4, 3, 1, 0, 2)), ((2,) * 14, tuple(range(13, -1, -1)))], ids=str)
def test_cuda_every_dtype_and_outer_dims(dtype, shape, dims):
    check_cuda(random_tensor(shape, dtype, "cuda"), dims)


@pytest.mark.cuda
@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
def test_cuda_wide_elements_whose_columns_lie_anywhere(dtype):
    # The wide-element kernel takes rows of 64 values whatever the stride between them:
    # q of a packed qkv, heads expanded from one, and both as the input of a 4-D move.
    qkv = random_tensor((2, 65, 6, 3 * 64), dtype, "cuda")
    kv = random_tensor((2, 65, 1, 64), dtype, "cuda").expand(2, 65, 6, 64)
    for x in [qkv[..., :64], qkv[..., 64:128], kv]:
        for dims in [(0, 2, 1, 3), (2, 0, 1, 3), (1, 2, 0, 3)]:
            assert torch_transpose.explain_permute(x, dims)["path"] == "wide_elements"
            check_cuda(x, dims)


@pytest.mark.cuda
@pytest.mark.parametrize("memory_format,shape", [
    (torch.channels_last, (4, 3, 67, 65)), (torch.channels_last, (2, 256, 15, 17)),
    (torch.channels_last_3d, (2, 5, 7, 9, 33)), (torch.contiguous_format, (33, 65, 129))], ids=str)
@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
def test_cuda_contiguous_is_atens(memory_format, shape, dtype):
    x = random_tensor(shape, dtype, "cuda")
    for view in [x, x.transpose(1, -1), x[..., 2:], x.contiguous(memory_format=memory_format)]:
        expected = view.clone(memory_format=memory_format)
        poison_cuda_cache(expected.numel() * expected.element_size())
        got = op.contiguous(view, memory_format)
        assert got.stride() == expected.stride()
        assert_bitwise_equal(got, expected)


@pytest.mark.cuda
def test_cuda_large_permutations_take_the_kernels():
    # A channels_last conversion and a 3-D reversal of 64 MiB: the tiled kernel, not ATen.
    for x, dims in [(torch.randn(16, 64, 128, 128, device="cuda"), (0, 2, 3, 1)),
                    (torch.randn(256, 256, 256, device="cuda"), (2, 1, 0))]:
        how = torch_transpose.explain_permute(x, dims)
        assert how["path"].startswith("tiled"), how
        check_cuda(x, dims)


# Permutations the tiled kernels cannot batch (reversals of all-2 and all-3 dims past their 9
# batch dims) or whose matrices are a few elements a side among batch dims (a 3-D reversal
# with a side of 3, 4-D and 6-D moves of short dims) take tiles over several dims on each
# side (nd_tiles), where ATen's copy would run and the tensor holds a tile an SM or more; so
# does a kept trailing run (4-byte elements of bytes). Values of 4 bytes or more into output
# rows under 128 bytes keep ATen's copy. Their views (a storage offset, a sliced last dim)
# are checked whatever they run.
ND_TILES = [  # shape, dims, the widest values that take them, values a kept trailing run holds
    ((2,) * 22, tuple(range(21, -1, -1)), 16, 1),
    ((3,) * 13, tuple(range(12, -1, -1)), 16, 1),
    ((3, 7544, 165), (2, 1, 0), 16, 1),
    ((5, 5, 122, 1132), (1, 3, 2, 0), 16, 1),
    ((4, 19, 4, 5, 25, 38), (3, 4, 0, 2, 5, 1), 2, 1),
    ((3,) * 12 + (4,), tuple(range(11, -1, -1)) + (12,), 4, 4),
]


@pytest.mark.cuda
@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("shape,dims,widest,run", ND_TILES, ids=[str(c[0]) for c in ND_TILES])
def test_cuda_nd_tiles(shape, dims, widest, run, dtype):
    x = random_tensor(shape, dtype, "cuda")
    how = torch_transpose.explain_permute(x, dims)
    if dtype.itemsize <= widest:
        assert how["path"] == "nd_tiles", how
        assert how["kernel"].startswith(f"nd_tiles<e={dtype.itemsize * run},"), how
    check_cuda(x, dims)
    # A storage offset and a sliced last dim.
    check_cuda(random_tensor((x.numel() + 3,), dtype, "cuda")[3:].view(shape), dims)
    if shape[-1] > 2:
        check_cuda(random_tensor(shape[:-1] + (shape[-1] + 2,), dtype, "cuda")[..., 1:-1], dims)


# Short sides and small tiles take nd tiles (flattened phases, several tiles a block) where
# ATen's gathers miss the L2: output neighbours a sector or more apart in the input, input
# neighbours a twelfth of the L2 (4.2 MB on an H100) or more apart in the output; 1- and
# 2-byte output runs under 8 elements keep ATen's copy.
@pytest.mark.cuda
@pytest.mark.parametrize("shape,dims,dtype,taken", [
    ((2, 600000, 2), (2, 1, 0), torch.float32, True),
    ((3, 500000, 3), (2, 1, 0), torch.float32, True),
    ((2, 3, 40000, 23), (3, 2, 1, 0), torch.float32, False),  # input neighbours 0.9 MB apart
    ((2, 1100000, 2), (2, 1, 0), torch.float16, False),  # output runs of 2 values
], ids=["float32-2", "float32-3", "near", "float16-runs"])
def test_cuda_short_sides_take_nd_tiles_where_gathers_miss_the_l2(shape, dims, dtype, taken):
    if torch.cuda.get_device_properties(0).L2_cache_size != 50 * 2**20:
        pytest.skip("the cases' distances are set for a 50 MiB L2")
    x = random_tensor(shape, dtype, "cuda")
    how = torch_transpose.explain_permute(x, dims)
    if taken:
        assert how["path"] == "nd_tiles" and "flat=both" in how["kernel"], how
    else:
        assert how["path"] == "aten_fallback", how
    check_cuda(x, dims)


# Past the L2, tiles over several dims take plans whose kernels move short pieces: the tiled
# kernel's tiles under a quarter full (int64 matrices of 396 x 17 among batch dims), its
# folded tiles of matrices with a side under a sector (complex64 2 x 4), the small-dim
# kernel's short input rows a pitch apart (float8 rows of 4 bytes 140 apart), one-unit tiles
# whose input rows the nd tiles' input side outspans (int16 rows of 30 values, 90 with the
# dims packed after them), 2-D tiles a sixth full whose output rows the tiled kernel stores
# as words (float32 rows of 21 values); 2-byte folded matrices (rows of 4 bfloat16 values 16
# bytes apart) and 2-D tiles whose output rows it stores as 16-byte vectors (float8 rows of
# 32 bytes, an eighth full) keep the tiled kernel. Every case is larger than an H100's or
# H200's L2; nd_tiles=2 (development builds) keeps their kernels.
@pytest.mark.cuda
@pytest.mark.parametrize("shape,dims,dtype,view,taken", [
    ((396, 7, 217, 2, 17), (4, 1, 3, 2, 0), torch.int64, None, True),
    ((2, 2, 117324, 9, 4), (2, 4, 0, 3, 1), torch.complex64, None, True),
    ((61, 1, 30695, 35, 4), (4, 0, 3, 1, 2), torch.float8_e4m3fn, None, True),
    ((43, 14647, 3, 3, 30), (4, 0, 1, 2, 3), torch.int16, lambda x: x.permute(1, 2, 4, 0, 3),
     True),
    ((2, 1, 21, 1750499), (0, 1, 3, 2), torch.float32, None, True),
    ((20, 2, 32, 18576, 8), (2, 4, 3, 0, 1), torch.bfloat16, lambda x: x[..., :4], False),
    ((4, 524288, 32), (0, 2, 1), torch.float8_e4m3fn, None, False),
], ids=["int64-sparse-tiles", "complex64-folded", "float8-pitched-rows", "int16-one-unit-tiles",
        "float32-word-stores", "bfloat16-folded", "float8-vector-stores"])
def test_cuda_plans_past_the_l2_take_nd_tiles_where_their_kernels_move_short_pieces(
        shape, dims, dtype, view, taken):
    x = random_tensor(shape, dtype, "cuda")
    x = view(x) if view else x
    how = torch_transpose.explain_permute(x, dims)
    assert (how["path"] == "nd_tiles") == taken, how
    check_cuda(x, dims)
    if torch_transpose._C.development_build():
        kept = torch_transpose._C._explain_permute_tuned(x, dims, nd_tiles=2)
        assert kept["path"] in ("tiled_contiguous", "tiled_row_strided", "small_dim",
                                "tiled_units"), kept


# Forced (nd_tiles=1, a development build), tiles over several dims take permutes the tiled
# and small-dim kernels run by the rule where the plan carries them (a side of 32 or less
# among batch dims), every element size: ATen's bytes.
@pytest.mark.cuda
@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("shape,dims", [
    ((21, 29, 3, 3, 15, 341), (3, 5, 2, 0, 4, 1)),
    ((13, 4284, 4, 3, 3, 5), (5, 0, 4, 3, 2, 1)),
], ids=["6-d", "short-runs"])
def test_cuda_nd_tiles_wherever_forced(shape, dims, dtype):
    development_build_or_skip()
    x = random_tensor(shape, dtype, "cuda")
    how = torch_transpose._C._explain_permute_tuned(x, dims, nd_tiles=1)
    assert how["path"] == "nd_tiles", how
    assert torch_transpose._C._explain_permute_tuned(x, dims, nd_tiles=0)["path"] != "nd_tiles"
    assert_bitwise_equal(torch_transpose._C._permute_tuned(x, dims, nd_tiles=1),
                         x.permute(dims).contiguous())
