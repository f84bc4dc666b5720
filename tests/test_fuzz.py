"""Property-based fuzzing against ATen, bit-exact: random dtype, rank 2-5 (permutes: 1-6),
sizes 0 to several thousand (primes and tile sizes +-1 favoured), random dim pairs and
permutations, slices and steps, storage offsets that break 16-byte alignment, expanded
and permuted views; contiguous() into each memory format. The CPU profile runs in CI;
GPUTRANSPOSE_FUZZ_PROFILE=gpu runs 10,000 transposes and 10,000 permutes on CUDA and
reports how many took each path of the layout dispatch (also written to
$GPUTRANSPOSE_FUZZ_REPORT if set)."""

import collections
import json
import math
import os

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import torch_transpose
from helpers import ALL_DTYPES, as_bytes, plan_result, poison_cuda_cache, random_tensor

settings.register_profile("ci", max_examples=300, deadline=None, derandomize=False,
                          suppress_health_check=list(HealthCheck))
settings.register_profile("gpu", max_examples=10_000, deadline=None,
                          suppress_health_check=list(HealthCheck))
PROFILE = os.environ.get("GPUTRANSPOSE_FUZZ_PROFILE", "ci")

TILE_SIDES = [16, 32, 64, 128]
SPECIAL_SIZES = sorted({0, 1, 2, 3, 5, 7, 13, 97, 509, 1021, 2039, 3001}
                       | {t + d for t in TILE_SIDES for d in (-1, 0, 1)})
MAX_ELEMENTS = 1 << 20
PATHS = collections.Counter()


@st.composite
def transpose_cases(draw):
    dtype = draw(st.sampled_from(ALL_DTYPES))
    rank = draw(st.integers(2, 5))
    size = st.one_of(st.sampled_from(SPECIAL_SIZES), st.integers(0, 3000))
    shape = []
    for _ in range(rank):
        room = max(1, MAX_ELEMENTS // max(1, math.prod(shape)))
        shape.append(min(draw(size), room))
    # The view: slices/steps per dim, a storage offset, a permutation, an expand.
    # Mostly layouts the tiled kernels take (the fallback is ATen itself), but all kinds.
    wild = draw(st.integers(0, 9)) < 3  # slices and steps in the batch dims too
    starts = [draw(st.integers(0, 3)) if s > 4 and (wild or d >= rank - 2) else 0
              for d, s in enumerate(shape)]
    steps = [draw(st.sampled_from([1, 1, 2, 3])) if wild else 1 for _ in shape[:-2]]
    steps.append(draw(st.sampled_from([1] * 6 + [2, 3])))
    steps.append(draw(st.sampled_from([1] * 12 + [2])))
    offset = draw(st.sampled_from([0, 0, 0, 1, 2, 3, 5, 8]))
    permute = draw(st.integers(0, 9)) < 2
    perm = draw(st.permutations(range(rank))) if permute else list(range(rank))
    expand_dim = draw(st.integers(0, rank - 1)) if draw(st.integers(0, 9)) < 1 else -1
    which_dims = draw(st.integers(0, 9))
    if which_dims < 6:
        dim0, dim1 = draw(st.sampled_from([(-2, -1), (-1, -2), (rank - 2, rank - 1)]))
    elif which_dims < 8:  # adjacent dims: the dims after them make the element
        dim0 = draw(st.integers(0, rank - 2))
        dim1 = dim0 + 1
        if dim1 < rank - 1 and draw(st.booleans()):
            # A last dim of whole 16-byte units and, mostly, a layout the wide-element
            # kernel takes (32-byte elements and more): the dims from dim1 on unsliced,
            # 16-byte aligned, not permuted or expanded; the other dims shrunk to fit.
            unit = max(1, 16 // dtype.itemsize)
            shape[-1] = unit * draw(st.sampled_from([1, 2, 3, 4, 8, 9, 64]))
            if draw(st.integers(0, 3)) < 3:
                for d in range(dim1, rank):
                    starts[d], steps[d] = 0, 1
                offset = unit * draw(st.sampled_from([0, 0, 1, 3]))
                perm, expand_dim = list(range(rank)), -1
            for d in range(rank - 1):
                room = MAX_ELEMENTS // max(1, math.prod(shape[:d]) * shape[-1])
                shape[d] = min(shape[d], max(1, room))
    else:
        dim0 = draw(st.integers(-rank, rank - 1))
        dim1 = draw(st.sampled_from([dim0, draw(st.integers(-rank, rank - 1))]))
    return dtype, shape, starts, steps, offset, perm, expand_dim, dim0, dim1


@st.composite
def permute_cases(draw):
    """A strided view (as transpose_cases makes) and a permutation of its dims: small dims
    (1-4) favoured, so that many dims fuse or drop, and the ranks where outer batch dims
    appear; sometimes a memory format to convert to instead."""
    dtype = draw(st.sampled_from(ALL_DTYPES))
    rank = draw(st.integers(1, 6))
    size = st.one_of(st.integers(1, 4), st.sampled_from(SPECIAL_SIZES), st.integers(0, 300))
    shape = []
    for _ in range(rank):
        room = max(1, MAX_ELEMENTS // max(1, math.prod(shape)))
        shape.append(min(draw(size), room))
    wild = draw(st.integers(0, 9)) < 3
    starts = [draw(st.integers(0, 2)) if s > 4 and wild else 0 for s in shape]
    steps = [draw(st.sampled_from([1, 1, 1, 2])) if wild else 1 for _ in shape]
    offset = draw(st.sampled_from([0, 0, 0, 1, 2, 3, 5, 8]))
    perm = draw(st.permutations(range(rank))) if draw(st.integers(0, 9)) < 3 else list(range(rank))
    expand_dim = draw(st.integers(0, rank - 1)) if draw(st.integers(0, 9)) < 1 else -1
    dims = list(draw(st.permutations(range(rank))))
    dims = [d - rank if draw(st.booleans()) else d for d in dims]  # negative dims too
    formats = [None, torch.contiguous_format] + (
        [torch.channels_last] if rank == 4 else [torch.channels_last_3d] if rank == 5 else [])
    memory_format = draw(st.sampled_from(formats)) if draw(st.integers(0, 9)) < 2 else "permute"
    return (dtype, shape, starts, steps, offset, perm, expand_dim, None, None), dims, memory_format


FORMAT_ORDER = {None: None, torch.contiguous_format: None, torch.channels_last: [0, 2, 3, 1],
                torch.channels_last_3d: [0, 2, 3, 4, 1]}


def check_permute(case, device):
    view_case, dims, memory_format = case
    x, _, _ = build(view_case, device)
    if memory_format != "permute":
        expected = x.contiguous(memory_format=memory_format or torch.contiguous_format)
        if expected.data_ptr() == x.data_ptr():
            expected = x.clone(memory_format=memory_format or torch.contiguous_format)
        actual = torch.ops.gputranspose.contiguous(x, memory_format)
        # A fresh tensor's strides (an empty one's are ATen's choice, and carry no values).
        assert actual.shape == expected.shape and (actual.stride() == expected.stride() or x.numel() == 0), (
            x.shape, x.stride(), memory_format, actual.stride(), expected.stride())
        assert torch.equal(as_bytes(actual), as_bytes(expected)), (x.shape, x.stride(), memory_format)
        dims = FORMAT_ORDER[memory_format] or list(range(x.dim()))
    how = torch_transpose.explain_permute(x, dims)
    PATHS["permute " + how["path"]] += 1
    expected = x.permute(dims).contiguous()
    planned = plan_result(x, how)
    if planned is not None:
        assert torch.equal(as_bytes(planned), as_bytes(expected)), (x.shape, x.stride(), dims, how)
    if device == "cuda":
        poison_cuda_cache(expected.numel() * expected.element_size())
    actual = torch.ops.gputranspose.permute(x, dims)
    assert actual.shape == expected.shape and actual.is_contiguous()
    assert torch.equal(as_bytes(actual), as_bytes(expected)), (x.shape, x.stride(), dims)
    if device == "cuda" and torch_transpose._C.development_build():
        tiled = torch_transpose._C._permute_tuned(x, dims, fallback=0)
        assert torch.equal(as_bytes(tiled), as_bytes(expected)), (x.shape, x.stride(), dims)


def build(case, device):
    dtype, shape, starts, steps, offset, perm, expand_dim, dim0, dim1 = case
    base_shape = [start + size * step for size, start, step in zip(shape, starts, steps)]
    flat = random_tensor((offset + math.prod(base_shape),), dtype, device)
    x = flat[offset:].view(base_shape)
    x = x[tuple(slice(start, None, step) for start, step in zip(starts, steps))]
    x = x.permute(perm)
    if expand_dim >= 0 and x.size(expand_dim) > 0:
        index = [slice(None)] * x.dim()
        index[expand_dim] = slice(0, 1)
        x = x[tuple(index)].expand(x.shape)
    return x, dim0, dim1


def check(case, device):
    x, dim0, dim1 = build(case, device)
    how = torch_transpose.explain(x, dim0, dim1)
    PATHS[how["path"]] += 1
    expected = x.transpose(dim0, dim1).contiguous()
    planned = plan_result(x, how)  # the plan the kernels take, read back by ATen
    if planned is not None:
        assert torch.equal(as_bytes(planned), as_bytes(expected)), (x.shape, x.stride(), dim0, dim1, how)
    if device == "cuda":
        poison_cuda_cache(expected.numel() * expected.element_size())
    actual = torch.ops.gputranspose.transpose(x, dim0, dim1)
    assert actual.shape == expected.shape and actual.is_contiguous()
    assert torch.equal(as_bytes(actual), as_bytes(expected)), (x.shape, x.stride(), dim0, dim1)
    if device == "cuda" and torch_transpose._C.development_build():
        # The tiled kernel too where the choice takes ATen's copy (tiles barely filled).
        tiled = torch_transpose._C._transpose_tuned(x, dim0, dim1, fallback=0)
        assert torch.equal(as_bytes(tiled), as_bytes(expected)), (x.shape, x.stride(), dim0, dim1)


@pytest.fixture(scope="module", autouse=True)
def _report_paths():
    yield
    report = {"profile": PROFILE, "cases": sum(PATHS.values()), "paths": dict(PATHS)}
    print(f"\nfuzz: {report}")
    if os.environ.get("GPUTRANSPOSE_FUZZ_REPORT"):
        with open(os.environ["GPUTRANSPOSE_FUZZ_REPORT"], "w") as f:
            json.dump(report, f, indent=1)


@settings(settings.get_profile("ci"))
@given(transpose_cases())
def test_fuzz_cpu(case):
    check(case, "cpu")


@pytest.mark.cuda
@settings(settings.get_profile(PROFILE))
@given(transpose_cases())
def test_fuzz_cuda(case):
    check(case, "cuda")


@settings(settings.get_profile("ci"))
@given(permute_cases())
def test_fuzz_permute_cpu(case):
    check_permute(case, "cpu")


@pytest.mark.cuda
@settings(settings.get_profile(PROFILE))
@given(permute_cases())
def test_fuzz_permute_cuda(case):
    check_permute(case, "cuda")
