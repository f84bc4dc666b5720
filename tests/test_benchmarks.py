"""The random-shape sweep's pure parts (benchmarks/bench_sweep.py): its distribution
meets the quotas it documents, its summary counts and ratios are the documented ones,
and a case's checks count a wrong op as wrong and leave it untimed. No GPU needed."""

import argparse
import collections
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

import bench_sweep  # noqa: E402
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
