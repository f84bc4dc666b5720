"""The random-shape sweep's pure parts (benchmarks/bench_sweep.py): its distribution
meets the quotas it documents, its summary counts and ratios are the documented ones,
and a case's checks count a wrong op as wrong and leave it untimed; the permute sweep's
(benchmarks/bench_permute.py): its cases, their classes, its summary. No GPU needed."""

import argparse
import collections
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

import bench_permute  # noqa: E402
import bench_ab  # noqa: E402
import bench_sweep  # noqa: E402
import compare_sweeps  # noqa: E402
import bench_transpose  # noqa: E402
import source_digest  # noqa: E402
import numpy as np  # noqa: E402
import sector_bound  # noqa: E402
import torch  # noqa: E402

MIB = 1 << 20


@pytest.fixture(scope="module", params=[0, 1, 7])
def cases(request):
    return bench_sweep.sample_cases(500, seed=request.param)


def test_the_same_seed_gives_the_same_cases_and_another_seed_others():
    assert bench_sweep.sample_cases(60, 3) == bench_sweep.sample_cases(60, 3)
    assert bench_sweep.sample_cases(60, 3) != bench_sweep.sample_cases(60, 4)


def test_a_quarter_or_more_swap_a_dim_of_16_or_less_and_a_quarter_one_of_17_to_128(cases):
    mins = [bench_sweep.swapped_min(c) for c in cases]
    assert sum(m <= 16 for m in mins) >= len(cases) / 4
    assert sum(17 <= m <= 128 for m in mins) >= len(cases) / 4
    assert sum(m > 128 for m in mins) >= len(cases) / 4


@pytest.mark.parametrize("n", [40, 101])
def test_small_runs_meet_the_swapped_dim_quotas_too(n):
    mins = [bench_sweep.swapped_min(c) for c in bench_sweep.sample_cases(n, 0)]
    assert sum(m <= 16 for m in mins) >= n / 4
    assert sum(17 <= m <= 128 for m in mins) >= n / 4


def test_every_dtype_and_element_size_is_drawn(cases):
    dtypes = {c["dtype"] for c in cases}
    assert dtypes == set(bench_sweep.DTYPE_NAMES)
    assert {"bool", "uint8", "float8_e4m3fn", "bfloat16", "float32", "float64",
            "complex128"} <= dtypes
    assert {bench_sweep.ITEMSIZE[d] for d in dtypes} == {1, 2, 4, 8, 16}


def test_ranks_2_to_5_sizes_from_1_mib_to_1_gib_and_adjacent_dim_pairs(cases):
    assert {len(c["shape"]) for c in cases} == {2, 3, 4, 5}
    for c in cases:
        assert MIB <= c["bytes"] <= 1 << 30, c
        assert c["bytes"] == math.prod(c["shape"]) * bench_sweep.ITEMSIZE[c["dtype"]]
        d0, d1 = c["dims"]
        assert d1 == d0 + 1 and 0 <= d0 and d1 < len(c["shape"]), c
        assert all(s >= 1 for s in c["shape"]), c
    # Every adjacent pair of rank 4 and 5 shows up (not only the last).
    for rank in (4, 5):
        assert {c["dims"][0] for c in cases if len(c["shape"]) == rank} == set(range(rank - 1))


def test_sizes_spread_log_uniformly(cases):
    logs = [math.log2(c["bytes"] / MIB) for c in cases]  # uniform in [0, 10]
    assert 4 <= sum(logs) / len(logs) <= 6
    assert sum(c["bytes"] >= 16 * MIB for c in cases) >= 0.5 * len(cases)
    assert sum(c["bytes"] < 4 * MIB for c in cases) >= 0.1 * len(cases)


def test_half_the_cases_are_model_like_and_every_view_kind_is_drawn(cases):
    kinds = collections.Counter(c["kind"] for c in cases)
    assert kinds["model"] == kinds["random"] == 250
    assert {c["template"] for c in cases if c["kind"] == "model"} == set(bench_sweep.MODEL_TEMPLATES)
    views = collections.Counter(c["view"] for c in cases)
    assert views == {"contiguous": 200, "row_sliced": 100, "storage_offset": 100,
                     "transposed_view": 100}


def test_odd_trailing_block_widths_are_drawn(cases):
    widths = {bench_sweep.trailing_bytes(c) for c in cases if c["class"] == "odd block"}
    assert {3, 5, 6, 10, 12, 24, 40} <= widths
    assert sum(c["class"] == "odd block" for c in cases) >= 0.2 * len(cases)


def test_dims_of_size_1_and_small_odd_sizes_are_drawn(cases):
    assert any(1 in c["shape"] for c in cases)
    assert any(bench_sweep.swapped_min(c) == 1 for c in cases)
    assert any(bench_sweep.swapped_min(c) % 2 == 1 and bench_sweep.swapped_min(c) > 1
               for c in cases)


@pytest.mark.parametrize("shape, dims, dtype, expected", [
    ([8, 16], [0, 1], "float32", "dim <= 16"),
    ([17, 4096], [0, 1], "uint8", "dim 17-128"),
    ([129, 4096], [0, 1], "uint8", "dim > 128"),
    ([4096, 7, 3], [0, 1], "uint8", "odd block"),       # 3-byte trailing block
    ([4096, 7, 3], [0, 1], "float64", "odd block"),     # 24 bytes
    ([4096, 7, 4], [0, 1], "float32", "dim <= 16"),     # 16 bytes: a power of two
    ([2, 4096, 300, 1], [1, 2], "bfloat16", "dim > 128"),
])
def test_a_case_class_is_its_odd_block_or_its_smaller_swapped_dim(shape, dims, dtype, expected):
    case = {"shape": shape, "dims": dims, "dtype": dtype}
    assert bench_sweep.case_class(case) == expected


def test_the_storage_behind_a_view_holds_it():
    case = {"shape": [4, 5], "view": "row_sliced", "view_args": {"pad": 3}}
    assert bench_sweep.allocated_elements(case) == 4 * 8
    case = {"shape": [4, 5], "view": "storage_offset", "view_args": {"offset": 7}}
    assert bench_sweep.allocated_elements(case) == 27
    case = {"shape": [4, 5], "view": "transposed_view", "view_args": {"pair": [0, 1]}}
    assert bench_sweep.allocated_elements(case) == 20


# ---------------------------------------------------------------------- summary


def result(nbytes, ours, copy=100.0, wrong=False, **peers):
    times = {"copy": copy, **peers}
    if not wrong:
        times["gputranspose"] = ours
    return {"bytes": nbytes, "wrong": wrong, "class": "dim > 128", "times_us": times,
            "ratio_to_copy": {k: v / copy for k, v in times.items() if k != "copy"}}


def test_the_summary_has_exactly_the_documented_keys_and_values():
    results = [
        result(32 * MIB, 110.0, aten=300.0),
        result(64 * MIB, 100.0, aten=300.0, compile=150.0),
        result(16 * MIB, 121.0, aten=200.0),  # 16 MiB counts as large
        result(2 * MIB, 105.0, aten=120.0),
        result(1 * MIB, 140.0, aten=110.0),   # aten faster by more than 3%
        result(3 * MIB, 0.0, wrong=True, aten=50.0),
        {"bytes": 900 * MIB, "skipped": "needs 7000 MiB, 6000 MiB free"},
    ]
    s = bench_sweep.summarize(results)
    assert list(s) == ["cases", "wrong", "slower_than_a_peer", "large_cases", "large_geomean",
                       "large_p95", "large_worst", "small_geomean", "small_worst"]
    assert s["cases"] == 6
    assert s["wrong"] == 1
    assert s["slower_than_a_peer"] == 1
    assert s["large_cases"] == 3
    assert s["large_geomean"] == pytest.approx((1.1 * 1.0 * 1.21) ** (1 / 3))
    assert s["large_p95"] == pytest.approx(1.21)
    assert s["large_worst"] == pytest.approx(1.21)
    assert s["small_geomean"] == pytest.approx(math.sqrt(1.05 * 1.4))
    assert s["small_worst"] == pytest.approx(1.4)


def test_the_95th_percentile_is_the_nearest_rank():
    results = [result(32 * MIB, 100.0 + i) for i in range(1, 41)]  # ratios 1.01 .. 1.40
    s = bench_sweep.summarize(results)
    assert s["large_p95"] == pytest.approx(1.38)  # rank ceil(0.95 * 40) = 38
    assert s["large_worst"] == pytest.approx(1.40)
    assert s["small_geomean"] is None and s["small_worst"] is None


@pytest.mark.parametrize("ours, peer, slower", [
    (103.0, 100.0, False),   # exactly 3%: not more
    (103.5, 100.0, True),
    (100.0, 100.0, False),
    (90.0, 100.0, False),
])
def test_a_peer_counts_as_faster_only_beyond_3_percent(ours, peer, slower):
    for name in ("aten", "cublas", "compile"):
        r = result(32 * MIB, ours, **{name: peer})
        assert bench_sweep.slower_than_a_peer(r) is slower
        assert bench_sweep.summarize([r])["slower_than_a_peer"] == int(slower)


def test_a_case_without_our_time_is_never_slower_than_a_peer():
    assert not bench_sweep.slower_than_a_peer(result(32 * MIB, 0.0, wrong=True, aten=1.0))


@pytest.mark.parametrize("name, short", [
    ("NVIDIA H100 80GB HBM3", "h100"),
    ("NVIDIA H200", "h200"),
    ("NVIDIA H100 PCIe", "h100"),
    ("NVIDIA A100-SXM4-80GB", "a100"),
    ("NVIDIA GeForce RTX 4090", "rtx4090"),
    ("NVIDIA GH200 480GB", "gh200"),
])
def test_result_files_are_named_for_the_gpu(name, short):
    assert bench_sweep.gpu_short_name(name) == short


def test_the_plot_colours_each_class_and_takes_a_log_size_axis():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import to_rgba

    results = [dict(result(2 ** k * MIB, 100.0 + k), **{"class": cls})
               for k, cls in enumerate(bench_sweep.CLASSES)]
    fig = bench_sweep.sweep_figure(results, "test GPU")
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [f"{cls} (1)" for cls in bench_sweep.CLASSES]
    for handle, cls in zip(ax.get_legend().legend_handles, bench_sweep.CLASSES):
        assert to_rgba(handle.get_facecolor()[0])[:3] == to_rgba(bench_sweep.CLASS_COLORS[cls])[:3]


def test_the_distribution_is_documented_in_the_docstring_and_the_readme():
    text = bench_sweep.distribution_text()
    assert text.startswith("The distribution")
    for word in ("log-uniform", "1 MiB", "1 GiB", "1-16", "17-128", "model-like", "rank 2, 3, 4 or 5",
                 "row-sliced", "storage offset", "transposed view"):
        assert word in text, word
    readme = (Path(__file__).parent.parent / "benchmarks" / "README.md").read_text()
    assert "bench_sweep.py" in readme and "--sweep" in readme


# ------------------------------------------------------- one case, on the CPU


def fake_timer(times_ms):
    def timer(cases, reps, warmup, rounds, head_start, **kwargs):
        for fn, inputs in cases.values():  # each timed function runs on its inputs
            fn(inputs[0])
        return {name: times_ms[name] for name in cases}
    return timer


def cpu_sweep(op, times_ms):
    import torch

    args = argparse.Namespace(reps=4, rounds=2, warmup=1, no_compile=True)
    return bench_sweep.Sweep(args, device="cpu", op=op, timer=fake_timer(times_ms),
                             l2_bytes=1 << 16, free_bytes=lambda: 1 << 40), torch


CPU_CASES = [
    {"id": 0, "dtype": "uint8", "shape": [33, 7, 3], "dims": [0, 1], "view": "contiguous",
     "view_args": {}},
    {"id": 1, "dtype": "float32", "shape": [5, 9, 17], "dims": [1, 2], "view": "row_sliced",
     "view_args": {"pad": 3}},
    {"id": 2, "dtype": "complex128", "shape": [12, 10], "dims": [0, 1], "view": "storage_offset",
     "view_args": {"offset": 5}},
    {"id": 3, "dtype": "bool", "shape": [4, 6, 5, 2], "dims": [2, 3], "view": "transposed_view",
     "view_args": {"pair": [0, 2]}},
]
for _c in CPU_CASES:
    _c["bytes"] = bench_sweep.case_bytes(_c)
    _c["class"] = bench_sweep.case_class(_c)


def new_tensor_transpose(t, d0, d1):
    return t.transpose(d0, d1).clone(memory_format=torch.contiguous_format)


@pytest.mark.parametrize("case", CPU_CASES, ids=lambda c: c["view"])
def test_a_right_op_is_timed_beside_the_peers_and_the_copy(case):
    sweep, torch = cpu_sweep(new_tensor_transpose,
                             {"gputranspose": 1.1, "aten": 2.0, "copy": 1.0})
    r = sweep.run_case(case)
    assert r["wrong"] is False and "errors" not in r
    assert r["times_us"] == pytest.approx({"gputranspose": 1100.0, "aten": 2000.0, "copy": 1000.0})
    assert r["ratio_to_copy"] == pytest.approx({"gputranspose": 1.1, "aten": 2.0})
    x = bench_sweep.build_input(case, torch, getattr(torch, case["dtype"]), "cpu")
    assert list(x.shape) == case["shape"]
    assert r["strides"] == list(x.stride()) and r["storage_offset"] == x.storage_offset()
    assert r["input_copies"] >= 2
    # The least traffic any kernel moves: about a copy's for dense inputs (but the sectors
    # their ends only partly fill), more for a row slice.
    if case["view"] == "row_sliced":
        assert r["sector_bound"] > 1.03, r["sector_bound"]
    else:
        assert r["sector_bound"] == pytest.approx(1.0, abs=0.1), r["sector_bound"]


def test_a_wrong_output_counts_as_wrong_and_is_not_timed():
    def off_by_one_byte(t, d0, d1):
        y = t.transpose(d0, d1).contiguous()
        y.view(-1).view(torch.uint8)[-1] ^= 1
        return y

    sweep, torch = cpu_sweep(off_by_one_byte, {"gputranspose": 1.0, "aten": 2.0, "copy": 1.0})
    r = sweep.run_case(CPU_CASES[0])
    assert r["wrong"] is True
    assert r["errors"]["gputranspose"] == "wrong output"
    assert "gputranspose" not in r["times_us"] and "gputranspose" not in r["ratio_to_copy"]
    assert bench_sweep.summarize([r])["wrong"] == 1


def test_an_op_that_rejects_a_case_is_recorded_not_raised():
    def rejects(t, d0, d1):
        raise RuntimeError("gputranspose: this layout is not supported")

    sweep, _ = cpu_sweep(rejects, {"gputranspose": 1.0, "aten": 2.0, "copy": 1.0})
    r = sweep.run_case(CPU_CASES[1])
    assert r["wrong"] is True
    assert "not supported" in r["errors"]["gputranspose"]
    assert set(r["times_us"]) == {"aten", "copy"}


def test_a_case_that_does_not_fit_in_memory_is_skipped():
    sweep, _ = cpu_sweep(new_tensor_transpose, {"gputranspose": 1.0, "aten": 1.0, "copy": 1.0})
    sweep.free_bytes = lambda: 1000
    r = sweep.run_case(CPU_CASES[0])
    assert "skipped" in r and "times_us" not in r
    assert bench_sweep.summarize([r])["cases"] == 0


ALIAS_CASE = {"id": 9, "dtype": "float32", "shape": [40, 1, 7], "dims": [0, 1],
              "view": "contiguous", "view_args": {}, "bytes": 40 * 7 * 4, "class": "dim <= 16"}


def test_a_peer_that_returns_its_input_as_is_is_not_timed():
    # x.transpose(0, 1) of a (40, 1, 7) tensor is contiguous: ATen returns it, no copy.
    sweep, _ = cpu_sweep(new_tensor_transpose, {"gputranspose": 1.0, "aten": 0.001, "copy": 1.0})
    r = sweep.run_case(ALIAS_CASE)
    assert r["wrong"] is False
    assert r["aliases"] == ["aten"]
    assert set(r["times_us"]) == {"gputranspose", "copy"}
    assert bench_sweep.summarize([r])["slower_than_a_peer"] == 0


def test_an_op_that_returns_a_view_of_its_input_is_wrong():
    sweep, _ = cpu_sweep(lambda t, d0, d1: t.transpose(d0, d1).contiguous(),
                         {"gputranspose": 1.0, "aten": 1.0, "copy": 1.0})
    r = sweep.run_case(ALIAS_CASE)
    assert r["wrong"] is True and "view" in r["errors"]["gputranspose"]


def test_input_copies_hold_more_than_twice_the_l2():
    sweep, _ = cpu_sweep(None, {})
    sweep.l2 = 50 * MIB
    for nbytes in (MIB, 7 * MIB, 60 * MIB, 1 << 30):
        copies = sweep.copies_for(nbytes)
        assert copies >= 2 and copies * nbytes > 2 * sweep.l2


def test_each_compile_key_gets_a_code_object_of_its_own():
    import torch

    f = bench_sweep.transpose_function(0, 1, (2, "uint8", (0, 1)))
    g = bench_sweep.transpose_function(1, 2, (3, "uint8", (1, 2)))
    assert f.__code__ is not g.__code__
    x = torch.arange(24).view(2, 3, 4)
    assert torch.equal(g(x), x.transpose(1, 2).contiguous())
    assert torch.equal(f(x[0]), x[0].t().contiguous())


# ---------------------------------------------------------------- the permute sweep


def contiguous(shape):
    return bench_permute.contiguous_strides(shape)


REV24 = tuple(range(23, -1, -1))


@pytest.mark.parametrize("sizes, strides, itemsize, perm, expected", [
    # NCHW -> NHWC, C = 3 float32: the output's rows are 12 bytes.
    ((32, 3, 112, 112), None, 4, (0, 2, 3, 1), "C"),
    # C = 256 bfloat16: x's rows (H*W) and the output's (C) are both >= 64 bytes.
    ((32, 256, 56, 56), None, 2, (0, 2, 3, 1), "B"),
    # (B, S, H, D) -> (B, H, S, D), D = 64 bfloat16: rows of 128 bytes move unchanged.
    ((8, 4096, 16, 64), None, 2, (0, 2, 1, 3), "A"),
    # The same with D = 2 float32: an unchanged run of 8 bytes is no "A".
    ((8, 4096, 16, 2), None, 4, (0, 2, 1, 3), "C"),
    # All-2 reversal: no two dims fuse, x's innermost run is 2 elements.
    ((2,) * 24, None, 4, REV24, "C"),
    ((2,) * 24, None, 1, REV24, "C"),
    # The identity of a contiguous tensor, and a move of a size-1 dim: a copy.
    ((64, 1024, 1024), None, 4, (0, 1, 2), "copy"),
    ((4096, 1, 4096), None, 2, (1, 0, 2), "copy"),
    # A 3-D reversal of 512^3 float32: rows of 2 KiB on both sides.
    ((512, 512, 512), None, 4, (2, 1, 0), "B"),
    # A transposed view whose permute is x's storage order: a copy.
    ((64, 32), (1, 64), 4, (1, 0), "copy"),
    # No stride-1 dim (every other element): a copy as the planner sees it.
    ((64, 64), (128, 2), 4, (1, 0), "copy"),
])
def test_a_permute_class_is_the_planners_view_of_the_fused_dims(sizes, strides, itemsize, perm,
                                                                  expected):
    strides = strides or contiguous(sizes)
    assert bench_permute.permute_class(sizes, strides, itemsize, perm) == expected


def test_dims_that_lie_back_to_back_in_the_input_fuse():
    assert bench_permute.fused_dims((2, 3, 4), contiguous((2, 3, 4)), (0, 1, 2)) == [(24, 1)]
    assert bench_permute.fused_dims((2, 3, 4), contiguous((2, 3, 4)), (2, 0, 1)) == [(4, 1), (6, 4)]
    # NCHW -> NHWC: H and W fuse, size-1 dims drop out.
    assert bench_permute.fused_dims((1, 3, 5, 7), contiguous((1, 3, 5, 7)), (0, 2, 3, 1)) == \
        [(35, 1), (3, 35)]


@pytest.fixture(scope="module")
def fixed():
    return bench_permute.fixed_cases()


def test_fixed_cases_have_short_unique_names_and_valid_permutations(fixed):
    names = [c["name"] for c in fixed]
    assert len(set(names)) == len(names)
    assert all(len(n) <= 26 and " " not in n for n in names)
    for c in fixed:
        rank = len(c["shape"])
        if "perm" in c:
            assert sorted(c["perm"]) == list(range(rank)), c["name"]
        else:
            assert c["memory_format"] in ("channels_last", "channels_last_3d", "contiguous_format")
            assert rank == {"channels_last": 4, "channels_last_3d": 5}.get(c["memory_format"], rank)
        assert c["bytes"] == math.prod(c["shape"]) * bench_sweep.ITEMSIZE[c["dtype"]]


def test_fixed_cases_are_large_in_every_element_size_and_class(fixed):
    # 64-256 MiB, the targets' sizes, but for the all-2 reversal of 1-byte elements
    # (rank 24: 2^24 elements).
    for c in fixed:
        low = 16 * MIB if c["name"] == "rev-all2-r24-u8" else 64 * MIB
        assert low <= c["bytes"] <= 256 * MIB, c["name"]
    dtypes = {c["dtype"] for c in fixed}
    assert {"bfloat16", "float16", "float32", "uint8", "float64", "int64"} <= dtypes
    assert {c["class"] for c in fixed} == set(bench_permute.CLASSES)
    assert {c["memory_format"] for c in fixed if "memory_format" in c} == \
        {"channels_last", "channels_last_3d", "contiguous_format"}
    assert {c["view"] for c in fixed} == {"contiguous", "row_sliced", "storage_offset",
                                          "permuted_view", "expanded"}


def test_fixed_cases_cover_the_issues_layouts(fixed):
    by_name = {c["name"]: c for c in fixed}
    channels = {c["shape"][1] for c in fixed if c["name"].startswith("nchw-nhwc")}
    assert channels == {3, 4, 64, 256}
    assert {c["shape"][3] for c in fixed if c["name"].startswith("nhwc-nchw")} == {3, 4, 64, 256}
    heads = [c for c in fixed if c["name"].startswith("bshd-")]
    assert {(tuple(c["perm"]), c["shape"][3]) for c in heads} == \
        {(p, d) for p in ((0, 2, 1, 3), (0, 2, 3, 1)) for d in (64, 128)}
    assert {c["shape"][2] for c in heads} == {16, 32}
    three = {tuple(c["perm"]) for c in fixed if "perm" in c and len(c["shape"]) == 3}
    assert {(2, 1, 0), (1, 2, 0), (2, 0, 1)} <= three
    assert any(len(c["shape"]) == 24 and set(c["shape"]) == {2} for c in fixed)
    assert any(len(c["shape"]) >= 16 and set(c["shape"]) == {3} for c in fixed)
    assert by_name["identity-bf16"]["class"] == "copy"
    assert by_name["view-cl-nhwc-bf16"]["class"] == "copy"


@pytest.fixture(scope="module", params=[0, 1, 7])
def permute_cases(request):
    return bench_permute.sample_random_cases(200, seed=request.param)


def test_the_same_seed_gives_the_same_permute_cases_and_another_seed_others():
    assert bench_permute.sample_random_cases(50, 3) == bench_permute.sample_random_cases(50, 3)
    assert bench_permute.sample_random_cases(50, 3) != bench_permute.sample_random_cases(50, 4)
    ids = [c["id"] for c in bench_permute.sample_random_cases(5, 0, first_id=55)]
    assert ids == [55, 56, 57, 58, 59]


def test_random_permutations_of_ranks_2_to_6_in_equal_shares_none_the_identity(permute_cases):
    ranks = collections.Counter(len(c["shape"]) for c in permute_cases)
    assert ranks == {2: 40, 3: 40, 4: 40, 5: 40, 6: 40}
    for c in permute_cases:
        assert sorted(c["perm"]) == list(range(len(c["shape"]))) != c["perm"], c
    assert len({tuple(c["perm"]) for c in permute_cases if len(c["shape"]) == 3}) == 5


def test_random_sizes_run_from_1_mib_to_512_mib_with_tiny_and_odd_dims(permute_cases):
    for c in permute_cases:
        assert MIB <= c["bytes"] <= 512 * MIB, c
        assert c["bytes"] == math.prod(c["shape"]) * bench_sweep.ITEMSIZE[c["dtype"]]
        assert all(s >= 1 for s in c["shape"]), c
    logs = [math.log2(c["bytes"] / MIB) for c in permute_cases]  # uniform in [0, 9]
    assert 3.5 <= sum(logs) / len(logs) <= 5.5
    assert sum(c["bytes"] >= 64 * MIB for c in permute_cases) >= 0.2 * len(permute_cases)
    dims = [s for c in permute_cases for s in c["shape"]]
    for tiny in (1, 2, 3, 4):
        assert dims.count(tiny) >= 10, tiny
    assert sum(s > 4 and s % 2 for s in dims) >= 0.2 * sum(s > 4 for s in dims)


def test_random_cases_draw_every_dtype_view_and_class(permute_cases):
    assert {c["dtype"] for c in permute_cases} == set(bench_sweep.DTYPE_NAMES)
    views = collections.Counter(c["view"] for c in permute_cases)
    assert views == {"contiguous": 80, "row_sliced": 40, "storage_offset": 40,
                     "permuted_view": 40}
    for c in permute_cases:
        if c["view"] == "permuted_view":
            assert sorted(c["view_args"]["order"]) == list(range(len(c["shape"])))
        if c["view"] == "row_sliced":
            assert c["view_args"]["pad"] <= 3 * c["shape"][-1]
    assert {c["class"] for c in permute_cases} == set(bench_permute.CLASSES)


VIEW_CASES = [
    {"dtype": "float32", "shape": [3, 5, 7], "view": "contiguous", "view_args": {}},
    {"dtype": "uint8", "shape": [3, 5, 7], "view": "row_sliced", "view_args": {"pad": 4}},
    {"dtype": "int16", "shape": [3, 5, 7], "view": "storage_offset", "view_args": {"offset": 3}},
    {"dtype": "float64", "shape": [3, 5, 7, 2], "view": "permuted_view",
     "view_args": {"order": [2, 0, 3, 1]}},
    {"dtype": "bfloat16", "shape": [3, 5, 7], "view": "expanded", "view_args": {"dim": 1}},
]


@pytest.mark.parametrize("case", VIEW_CASES, ids=lambda c: c["view"])
def test_the_classs_strides_are_those_of_the_built_input(case):
    x = bench_sweep.build_input(case, torch, getattr(torch, case["dtype"]), "cpu")
    assert list(x.shape) == case["shape"]
    assert list(x.stride()) == bench_permute.input_strides(case)
    assert x.untyped_storage().nbytes() == \
        bench_sweep.allocated_elements(case) * bench_sweep.ITEMSIZE[case["dtype"]]


def test_a_conversion_is_classed_by_its_memory_formats_order():
    case = {"dtype": "float32", "shape": [8, 3, 64, 64], "memory_format": "channels_last",
            "view": "contiguous", "view_args": {}}
    assert bench_permute.result_order(case) == [0, 2, 3, 1]
    assert bench_permute.case_class(case) == "C"
    case.update(memory_format="contiguous_format", view="permuted_view",
                view_args={"order": [0, 3, 1, 2]})
    assert bench_permute.result_order(case) == [0, 1, 2, 3]
    assert bench_permute.case_class(case) == "C"  # rows of 3 floats in x
    assert bench_permute.result_order({"shape": [1] * 5, "memory_format": "channels_last_3d"}) \
        == [0, 2, 3, 4, 1]


def test_the_permute_summary_keeps_the_sweeps_keys_with_64_mib_as_large():
    results = [dict(result(128 * MIB, 110.0, aten=300.0), **{"class": "A"}),
               dict(result(64 * MIB, 150.0, aten=140.0), **{"class": "A", "name": "slow"}),
               dict(result(32 * MIB, 120.0), **{"class": "B"}),
               dict(result(256 * MIB, 0.0, wrong=True), **{"class": "C"})]
    for r, shape in zip(results, ([4, 8], [8, 4], [2, 2], [3, 3])):
        r.update(dtype="float32", shape=shape, perm=[1, 0], view="contiguous", view_args={})
    s = bench_sweep.summarize(results, bench_permute.LARGE_BYTES)
    assert list(s) == list(bench_sweep.summarize([]))
    assert s["large_cases"] == 2 and s["large_worst"] == pytest.approx(1.5)
    assert s["small_worst"] == pytest.approx(1.2) and s["wrong"] == 1
    classes = bench_permute.by_class(results)
    assert list(classes) == ["A", "B", "C", "copy"]
    assert classes["A"]["cases"] == 2
    assert classes["A"]["geomean"] == pytest.approx(math.sqrt(1.1 * 1.5))
    assert classes["A"]["worst"] == pytest.approx(1.5)
    assert classes["A"]["worst_case"].startswith("slow: float32 8x4 perm 1,0")
    assert classes["A"]["slower_than_a_peer"] == 1
    assert classes["B"]["cases"] == 0 and classes["B"]["worst"] is None  # 32 MiB: small
    assert classes["C"]["cases"] == 0  # wrong: not timed
    lines = bench_permute.summary_lines(s, classes, results)
    assert lines[1].startswith("large (>= 64 MiB, 2)")
    assert any(line.startswith("  A      2 cases >= 64 MiB: geomean") for line in lines)
    assert any("worst: slow: float32 8x4 perm 1,0 contiguous 1.500 x copy" in line
               for line in lines)


def cpu_permute_sweep(times_ms, op=None, to_format=None):
    args = argparse.Namespace(reps=4, rounds=2, warmup=1, no_compile=True)
    return bench_permute.PermuteSweep(
        args, device="cpu", op=op or (lambda t, dims: t.permute(dims).clone(
            memory_format=torch.contiguous_format)),
        to_format=to_format or (lambda t, f: torch.empty_like(t, memory_format=f).copy_(t)),
        timer=fake_timer(times_ms), l2_bytes=1 << 16, free_bytes=lambda: 1 << 40)


PERMUTE_CPU_CASES = [
    {"id": 0, "dtype": "bfloat16", "shape": [2, 9, 3, 8], "perm": [0, 2, 1, 3],
     "view": "row_sliced", "view_args": {"pad": 5}},
    {"id": 1, "dtype": "uint8", "shape": [2, 3, 4, 5, 6], "perm": [4, 0, 3, 1, 2],
     "view": "permuted_view", "view_args": {"order": [1, 0, 2, 4, 3]}},
    {"id": 2, "dtype": "float32", "shape": [4, 3, 6, 5], "memory_format": "channels_last",
     "view": "storage_offset", "view_args": {"offset": 3}},
    {"id": 3, "dtype": "int64", "shape": [2, 3, 4, 6, 5], "memory_format": "contiguous_format",
     "view": "permuted_view", "view_args": {"order": [0, 4, 1, 2, 3]}},
    {"id": 4, "dtype": "float16", "shape": [4, 3, 6, 5], "perm": [0, 2, 3, 1],
     "view": "expanded", "view_args": {"dim": 1}},
]
for _c in PERMUTE_CPU_CASES:
    bench_permute._finish(_c)


@pytest.mark.parametrize("case", PERMUTE_CPU_CASES, ids=lambda c: str(c["id"]))
def test_a_right_permute_or_conversion_is_timed_beside_aten_and_the_copy(case):
    sweep = cpu_permute_sweep({"gputranspose": 1.2, "aten": 2.0, "copy": 1.0})
    r = sweep.run_case(case)
    assert r["wrong"] is False and "errors" not in r
    assert r["ratio_to_copy"] == pytest.approx({"gputranspose": 1.2, "aten": 2.0})
    assert r["strides"] == bench_permute.input_strides(case)


def test_a_conversion_with_the_right_values_in_the_wrong_layout_is_wrong():
    sweep = cpu_permute_sweep({"gputranspose": 1.0, "aten": 2.0, "copy": 1.0},
                              to_format=lambda t, f: t.contiguous())
    r = sweep.run_case(PERMUTE_CPU_CASES[2])
    assert r["wrong"] is True and r["errors"]["gputranspose"] == "wrong output"
    assert "gputranspose" not in r["times_us"]


def test_a_permute_that_is_not_contiguous_or_not_a_new_tensor_is_wrong():
    sweep = cpu_permute_sweep({"gputranspose": 1.0, "aten": 2.0, "copy": 1.0},
                              op=lambda t, dims: t.permute(dims))
    assert sweep.run_case(PERMUTE_CPU_CASES[0])["wrong"] is True
    identity = bench_permute._finish(
        {"id": 5, "dtype": "float32", "shape": [3, 4], "perm": [0, 1], "view": "contiguous",
         "view_args": {}})
    r = sweep.run_case(identity)
    assert r["wrong"] is True and r["aliases"] == ["gputranspose", "aten"]


def test_each_permute_compile_key_gets_a_function_of_its_own():
    sweep = cpu_permute_sweep({})
    a, b = PERMUTE_CPU_CASES[0], PERMUTE_CPU_CASES[2]
    assert sweep.compile_key(a) == (4, "bfloat16", (0, 2, 1, 3))
    assert sweep.compile_key(b) == (4, "float32", "channels_last")
    f = sweep.aten_function(a, sweep.compile_key(a))
    g = sweep.aten_function(b, sweep.compile_key(b))
    assert f.__code__ is not g.__code__
    x = torch.arange(120.0).view(2, 3, 4, 5)
    assert torch.equal(f(x), x.permute(0, 2, 1, 3).contiguous())
    assert g(x).stride() == x.contiguous(memory_format=torch.channels_last).stride()


def test_the_permute_plot_colours_its_classes():
    import matplotlib

    matplotlib.use("Agg")
    results = [dict(result(2 ** k * MIB, 100.0 + k), **{"class": cls})
               for k, cls in enumerate(bench_permute.CLASSES)]
    fig = bench_sweep.sweep_figure(results, "test GPU", bench_permute.CLASSES,
                                   bench_permute.CLASS_COLORS, bench_permute.LARGE_BYTES,
                                   "Permute sweep")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == \
        [f"{cls} (1)" for cls in bench_permute.CLASSES]
    assert "64 MiB" in ax.get_xlabel() and ax.get_title().startswith("Permute sweep")


def test_the_permute_sweep_is_documented_in_its_docstring_and_the_readme():
    text = bench_sweep.distribution_text(bench_permute.__doc__)
    assert text.startswith("The distribution of the random cases")
    for word in ("log-uniform", "1 MiB", "512 MiB", "2, 3, 4, 5 or 6", "tiny (1-4)",
                 "row-sliced", "storage offset", "permuted view"):
        assert word in text, word
    assert "64 MiB or more" in bench_permute.__doc__
    readme = (Path(__file__).parent.parent / "benchmarks" / "README.md").read_text()
    assert "bench_permute.py" in readme and "--permute" in readme
    script = (Path(__file__).parent.parent / "scripts" / "bench").read_text()
    assert "bench_permute.py" in script


def test_the_permute_script_prints_its_usage_without_a_gpu():
    script = Path(__file__).parent.parent / "benchmarks" / "bench_permute.py"
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    for option in ("--cases", "--seed", "--quick", "--no-compile", "--only-fixed", "--out-dir",
                   "--reps", "--time-limit"):
        assert option in done.stdout, option


# The sector bound (benchmarks/sector_bound.py): the 32-byte sectors an input's values touch,
# counted against a brute-force count over every byte, and the traffic ratio it gives.
def _brute_sectors(shape, strides, itemsize, byte_offset):
    seen = set()
    for index in np.ndindex(*shape):
        start = byte_offset + itemsize * sum(i * s for i, s in zip(index, strides))
        seen.update(range(start // 32, (start + itemsize - 1) // 32 + 1))
    return len(seen)


@pytest.mark.parametrize("shape,strides,itemsize,offset", [
    ((64, 64), (64, 1), 4, 0),             # contiguous
    ((64, 64), (1, 64), 4, 0),             # a transposed view: every sector of its extent
    ((10, 3), (103, 1), 1, 5),             # 3 bytes of every 103, at an offset
    ((6, 7, 9, 1), (1134, 162, 18, 1), 1, 0),  # one byte of every 18
    ((5, 40, 7), (600, 15, 2), 2, 6),      # strided values, runs sharing sectors
    ((3, 4, 5), (0, 5, 1), 8, 8),          # an expanded dim reads nothing more
    ((2, 3, 4), (40, 12, 3), 1, 31),       # runs of one byte 3 apart across a sector edge
])
def test_sector_bound_counts_every_sector_the_values_touch(shape, strides, itemsize, offset):
    assert sector_bound.input_sectors(shape, strides, itemsize, offset) == \
        _brute_sectors(shape, strides, itemsize, offset)


def test_sector_bound_is_one_copy_for_dense_inputs_and_more_for_sparse_ones():
    case = dict(dtype="float32", shape=[256, 256], strides=[256, 1], storage_offset=0)
    assert sector_bound.copy_ratio_bound(case) == 1.0
    case.update(strides=[1, 256])  # a transposed view
    assert sector_bound.copy_ratio_bound(case) == 1.0
    case.update(dtype="uint8", shape=[1000, 3], strides=[103, 1])  # 3 bytes of 103
    assert 5.5 < sector_bound.copy_ratio_bound(case) < 6.5


# The source digest ties a result to the code it ran: the working tree's equals its commit's,
# changes with any source byte, and leaves out files that are not the product's sources (the
# build's _build_info.py, other folders, other suffixes).
def test_source_digest_of_a_tree_equals_its_commits_and_follows_every_source_byte(tmp_path):
    def write(rel, text):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)

    write("setup.py", "setup()\n")
    write("csrc/core/a.cu", "kernel\n")
    write("torch_transpose/__init__.py", "x = 1\n")
    write("docs/DESIGN.md", "notes\n")
    git = lambda *args: subprocess.run(["git", *args], cwd=tmp_path, check=True,
                                       capture_output=True)
    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c")
    committed = source_digest.commit_digest("HEAD", root=str(tmp_path))
    assert source_digest.tree_digest(str(tmp_path)) == committed
    write("torch_transpose/_build_info.py", "built = True\n")  # generated: not a source
    write("docs/DESIGN.md", "other notes\n")                   # not a source
    write("csrc/core/notes.txt", "x\n")                        # not a source suffix
    assert source_digest.tree_digest(str(tmp_path)) == committed
    write("csrc/core/a.cu", "kernel \n")
    assert source_digest.tree_digest(str(tmp_path)) != committed
    write("csrc/core/a.cu", "kernel\n")
    write("csrc/core/b.cuh", "")                                # a new, empty source
    assert source_digest.tree_digest(str(tmp_path)) != committed


# Interleaved timing reads the inputs with one cursor for every implementation: between two
# reads of an input every other input of the ring is read (the ring holds more than twice the
# L2), so no implementation finds an input that the one before it just read in L2.
@pytest.mark.parametrize("reps,warmup,rounds,copies", [(20, 3, 4, 3), (12, 2, 3, 5), (7, 0, 7, 2)])
def test_interleaved_timing_never_rereads_an_input_another_call_just_read(reps, warmup, rounds,
                                                                          copies):
    reads = []  # (name, input index) in call order
    names = ["gputranspose", "aten", "compile", "copy"]
    fns = {name: (lambda x: None) for name in names}
    name_of = {id(fn): name for name, fn in fns.items()}

    def timer(fn, inputs, n, first, **kwargs):
        for i in range(n):
            reads.append((name_of[id(fn)], (first + i) % len(inputs)))
        return [1.0] * n

    cases = {name: (fns[name], list(range(copies))) for name in names}
    ms = bench_transpose.time_interleaved_ms(cases, reps, warmup, rounds, head_start=False,
                                             timer=timer)
    assert set(ms) == set(names)
    assert len(reads) == reps * len(names)
    for name in names:
        assert sum(1 for fn, _ in reads if fn == name) == reps
    indices = [i for _, i in reads]
    assert indices[0] == warmup % copies  # past the inputs the warm-ups read
    for k in range(1, len(indices)):
        assert indices[k] == (indices[k - 1] + 1) % copies  # a new input every call


# bench_ab.py: variants as NAME=KEY=VALUE,..., cases kept where the variants' kernels differ,
# and a summary of each variant's time over the first's, by class.
def test_ab_variants_parse_their_overrides_and_refuse_unknown_ones():
    assert bench_ab.parse_variant("rule=") == ("rule", {})
    assert bench_ab.parse_variant("square=unit_tile_bytes=0,fallback=0") == \
        ("square", {"unit_tile_bytes": 0, "fallback": 0})
    assert bench_ab.parse_variant("slow=memory_bytes_per_s=3.35e12") == \
        ("slow", {"memory_bytes_per_s": 3.35e12})
    for bad in ("rule", "=fallback=0", "x=tile=3", "x=fallback"):
        with pytest.raises(ValueError):
            bench_ab.parse_variant(bad)
    assert bench_ab.differing({"a": "tiled_units<tile=32x32>", "b": "tiled_units<tile=64x32>"})
    assert not bench_ab.differing({"a": "memcpy", "b": "memcpy"})


def test_ab_summary_gives_each_variant_over_the_first_by_class():
    mib = 1 << 20
    records = [
        {"class": "odd block", "bytes": 64 * mib, "ratio": {"old": 2.0, "new": 1.0, "aten": 4.0}},
        {"class": "odd block", "bytes": 64 * mib, "ratio": {"old": 2.0, "new": 4.0, "aten": 4.0}},
        {"class": "dim > 128", "bytes": 2 * mib, "ratio": {"old": 1.0, "new": 1.5, "aten": 1.0}},
    ]
    lines = bench_ab.summary_lines(records, ["old", "new"])
    assert lines[0].startswith("all, 16 MiB+, 2 cases: old 1.000 (2.00x copy); new 1.000 (2.00x copy)")
    assert any(line.startswith("all, any size, 3 cases:") and "new 1.145" in line for line in lines)
    assert any(line.startswith("dim > 128, any size, 1 cases: old 1.000 (1.00x copy); new 1.500")
               for line in lines)
    assert not any(line.startswith("dim > 128, 16 MiB+") for line in lines)


def test_ab_runs_each_variant_through_the_sweeps_case_runner_and_flags_a_wrong_one():
    def transpose_tuned(t, d0, d1, fallback=-1):
        out = new_tensor_transpose(t, d0, d1)
        if fallback == 0:  # a variant that gets the bytes wrong
            out.view(-1)[:1] = ~out.view(-1)[:1] if out.dtype == torch.bool else out.view(-1)[:1] + 1
        return out

    args = argparse.Namespace(reps=4, rounds=2, warmup=1, no_compile=True)
    times_ms = {"rule": 2.0, "kernel": 1.0, "aten": 4.0, "copy": 1.0}
    ab = bench_ab.ABSweep(args, {"rule": {}, "kernel": {"fallback": 0}}, transpose_tuned,
                          device="cpu", timer=fake_timer(times_ms), l2_bytes=1 << 16,
                          free_bytes=lambda: 1 << 40)
    result = ab.record(CPU_CASES[0], 101, {"rule": "tiled", "kernel": "units"})
    assert result["seed"] == 101 and result["kernels"] == {"rule": "tiled", "kernel": "units"}
    assert result["wrong"] == ["kernel"]
    assert result["ratio"] == {"rule": 2.0, "aten": 4.0}  # the wrong variant is not timed


def test_ab_runs_permute_variants_on_the_permute_sweeps_cases_in_the_results_order():
    def permute_tuned(t, order, nd_tiles=-1):
        out = t.permute(order).contiguous()
        if nd_tiles == 1:  # a variant that gets the bytes wrong
            out.view(-1)[:1] = out.view(-1)[:1] + 1
        return out

    args = argparse.Namespace(reps=4, rounds=2, warmup=1, no_compile=True)
    times_ms = {"rule": 2.0, "nd": 1.0, "aten": 4.0, "copy": 1.0}
    variants = {"rule": {}, "nd": {"nd_tiles": 1}}
    for case in PERMUTE_CPU_CASES[:3]:  # a permutation, a permuted view, a memory format
        ab = bench_ab.ABPermuteSweep(args, variants, permute_tuned, device="cpu",
                                     timer=fake_timer(times_ms), l2_bytes=1 << 16,
                                     free_bytes=lambda: 1 << 40)
        result = ab.record(case, 101, {"rule": "tiled", "nd": "nd_tiles"})
        assert result["wrong"] == ["nd"], case
        assert result["ratio"] == {"rule": 2.0, "aten": 4.0}
    assert bench_ab.parse_variant("nd=nd_tiles=1") == ("nd", {"nd_tiles": 1})
    # Permutes count 64 MiB and more as large, as their sweep does.
    records = [{"class": "C", "bytes": 32 << 20, "ratio": {"rule": 2.0, "nd": 1.0, "aten": 4.0}}]
    lines = bench_ab.summary_lines(records, ["rule", "nd"], large_bytes=64 << 20)
    assert lines[0].startswith("all, any size, 1 cases:") and not any("MiB+" in line for line in lines)


# compare_sweeps.py: two runs of the same cases, paired by id, split by whether the kernel
# changed; new over old time by class; another seed's cases refused.
def sweep_of(cases):
    return {"environment": {"device": "GPU"}, "summary": {"cases": len(cases)},
            "cases": [dict(id=i, dtype="uint8", shape=[64, 3 + i], dims=[0, 1], view="contiguous",
                           bytes=size << 20, **{"class": cls}, kernel=kernel,
                           ratio_to_copy={"gputranspose": ratio})
                      for i, (cls, size, kernel, ratio) in enumerate(cases)]}


def test_compare_sweeps_splits_cases_by_kernel_and_gives_new_over_old_time(tmp_path, capsys):
    old = sweep_of([("odd block", 32, "tiled_units<a>", 2.0), ("odd block", 32, "tiled<a>", 1.0),
                    ("dim <= 16", 1, "small_dim<a>", 1.5), ("dim <= 16", 64, "tiled<b>", 1.2)])
    new = sweep_of([("odd block", 32, "tiled_units<b>", 1.0), ("odd block", 32, "tiled<a>", 1.1),
                    ("dim <= 16", 1, "small_dim<a>", 1.5), ("dim <= 16", 64, "tiled<b>", 1.2)])
    new["cases"][3]["ratio_to_copy"] = {}  # a case the new run did not time
    split = compare_sweeps.compare(old, new)
    assert [b["id"] for b, _ in split["changed"]] == [0]
    assert [b["id"] for b, _ in split["unchanged"]] == [1, 2]
    only = compare_sweeps.compare(old, new, kernel="tiled<")
    assert ([b["id"] for b, _ in only["changed"]], [b["id"] for b, _ in only["unchanged"]]) == ([], [1])
    lines = compare_sweeps.group_lines("unchanged kernel", split["unchanged"])
    assert "unchanged kernel, all, 16 MiB+, 1 cases: new / old time 1.100" in lines[0]
    assert "all, any size, 2 cases: new / old time %.3f" % math.sqrt(1.1) in lines[1]
    assert compare_sweeps.group_lines("changed kernel", split["changed"])[0].startswith(
        "changed kernel, all, 16 MiB+, 1 cases: new / old time 0.500 (2.00x -> 1.00x")
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    assert compare_sweeps.main([str(tmp_path / "old.json"), str(tmp_path / "new.json")]) == 0
    out = capsys.readouterr().out
    assert "changed cases (1;" in out and "tiled_units<a> -> tiled_units<b>" in out
    # A permute sweep's cases name their permutation.
    for run in (old, new):
        run["cases"][0]["perm"] = [1, 0]
        del run["cases"][0]["dims"]
    assert "perm [1, 0]" in compare_sweeps.case_line(old["cases"][0], new["cases"][0])
    other = sweep_of([("odd block", 32, "tiled_units<a>", 2.0)])
    other["cases"][0]["shape"] = [7, 7]
    with pytest.raises(ValueError, match="differs in shape"):
        compare_sweeps.compare(old, other)
