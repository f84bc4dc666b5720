"""The benchmark suite's verdicts: how bench_transpose.py turns rows into the issue's
targets, how summarize.py plots them, and that every script loads without a GPU. The
timing itself needs a GPU; these do not."""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

import bench_transpose  # noqa: E402
import summarize  # noqa: E402


def row(dtype, shape, size_class, ours_over_copy, extra_bytes=0, **speedups):
    r = {"dtype": dtype, "shape": shape, "size_class": size_class,
         "ours_over_copy": ours_over_copy, "extra_bytes": extra_bytes}
    r.update({f"speedup_over_{peer}": v for peer, v in speedups.items()})
    return r


ROWS = [
    row("uint8", "8192x8192", "large", 1.04, aten=9.0, compile=1.4),
    row("uint8", "8191x8193", "large", 1.20, aten=9.0, compile=1.4),
    row("float64", "32768x4096", "large", 1.05, aten=2.0, compile=0.997, cublas=1.03),
    row("float32", "1024x1024", "small", 0.92, aten=1.2, compile=3.0, cublas=1.08),
    row("complex128", "65536x64", "small", 1.11, extra_bytes=16, aten=1.4, compile=2.0, cublas=1.09),
]


def test_large_target_counts_rows_over_1_05_and_names_the_worst():
    lines = bench_transpose.summarize_targets(ROWS)
    assert "large (<= 1.05 x copy): worst 1.200 (uint8 8191x8193), 1 of 3 over" in lines


def test_small_target_is_1_1_times_the_copy():
    lines = bench_transpose.summarize_targets(ROWS)
    assert "small (<= 1.10 x copy): worst 1.110 (complex128 65536x64), 1 of 2 over" in lines


def test_a_peer_is_ahead_where_the_speed_up_is_under_one():
    lines = bench_transpose.summarize_targets(ROWS)
    assert "vs compile: worst speed-up 1.00 (float64 32768x4096), 1 of 5 slower" in lines
    assert "vs cublas: worst speed-up 1.03 (float64 32768x4096), 0 of 3 slower" in lines
    assert "vs aten: worst speed-up 1.20 (float32 1024x1024), 0 of 5 slower" in lines


def test_adjacent_dims_rows_are_counted_apart_from_the_targets():
    rows = ROWS + [row("bfloat16", "8x2048x32x128:1,2", "dims", 1.06, aten=2.6, compile=0.99)]
    lines = bench_transpose.summarize_targets(rows)
    assert "large (<= 1.05 x copy): worst 1.200 (uint8 8191x8193), 1 of 3 over" in lines
    assert ("adjacent dims, not the last two (beyond the targets; 1.05): worst 1.060 "
            "(bfloat16 8x2048x32x128:1,2), 1 of 1 over") in lines
    assert "vs compile: worst speed-up 0.99 (bfloat16 8x2048x32x128:1,2), 2 of 6 slower" in lines


def test_a_dims_shape_names_its_dim_pair_and_others_swap_the_last_two():
    assert bench_transpose.dims_of("8x2048x32x128:1,2") == (1, 2)
    assert bench_transpose.dims_of("8191x8193") == (-2, -1)


def test_extra_memory_reports_the_largest():
    lines = bench_transpose.summarize_targets(ROWS)
    assert lines[-1] == "extra device memory beyond the output: max 16 bytes"


@pytest.mark.parametrize("script", ["bench_transpose.py", "bench_sweep.py", "gpu_time_small.py",
                                    "l2_after_op.py"])
def test_every_benchmark_script_loads_and_prints_its_usage_without_a_gpu(script):
    benchmarks = Path(__file__).parent.parent / "benchmarks"
    done = subprocess.run([sys.executable, str(benchmarks / script), "--help"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


def test_the_gpu_time_script_takes_the_suites_small_shapes():
    import gpu_time_small

    assert gpu_time_small.SMALL_SHAPES == ["1024x1024", "65536x64", "64x65536", "4096x64x64"]


@pytest.mark.parametrize("name, expected", [
    ("8192x8209[:,:-17]", ((8192, 8209), (-2, -1))),
    ("8x2048x32x128:1,2", ((8, 2048, 32, 128), (1, 2))),
    ("8x2048x32x68:1,2", ((8, 2048, 32, 68), (1, 2))),
    ("64x32", ((64, 32), (-2, -1))),
])
def test_l2_after_op_takes_suite_shapes_and_any_sizes_with_a_dim_pair(name, expected):
    import l2_after_op

    shape, _, dims = l2_after_op.case_of(name)
    assert (shape, dims) == expected


@pytest.mark.parametrize("name", ["8x2048:1", "axb", "8x2048:1,2,3"])
def test_l2_after_op_refuses_what_it_cannot_read(name):
    import l2_after_op

    with pytest.raises(argparse.ArgumentTypeError):
        l2_after_op.case_of(name)


def plotted_figure(rows, monkeypatch):
    """The figure that summarize.plot writes for rows (caught at savefig)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    saved = []
    monkeypatch.setattr(Figure, "savefig", lambda self, *a, **k: saved.append(self))
    summarize.plot(rows, "unused.png", "test GPU")
    [fig] = saved
    return fig


def frac_row(dtype, shape, **fracs):
    r = {"dtype": dtype, "shape": shape}
    r.update({f"{impl}_frac_of_copy": v for impl, v in fracs.items()})
    return r


def test_the_legend_gives_each_implementation_its_own_colour_whatever_the_first_panel_has(
        monkeypatch):
    from matplotlib.colors import to_rgba

    # --quick: the first panel (uint8) has no cuBLAS bars and no run has compile bars.
    rows = [frac_row("uint8", "8192x8192", gputranspose=0.98, aten=0.3, copy=1.0),
            frac_row("uint8", "1024x1024", gputranspose=0.9, aten=0.4, copy=1.0),
            frac_row("float32", "8192x8192", gputranspose=0.97, aten=0.5, cublas=0.8, copy=1.0)]
    fig = plotted_figure(rows, monkeypatch)
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
    assert len(legends) == 1
    legend = legends[0]
    labels = [t.get_text() for t in legend.get_texts()]
    assert labels == ["gputranspose", "cublas", "aten"]
    for handle, label in zip(legend.legend_handles, labels):
        assert to_rgba(handle.get_facecolor()) == to_rgba(summarize.PLOT_COLORS[label]), label


def test_every_bar_has_its_implementations_colour(monkeypatch):
    from matplotlib.colors import to_rgba

    rows = [frac_row("uint8", "64x64", gputranspose=0.9, compile=0.7),
            frac_row("float64", "64x64", gputranspose=0.9, cublas=0.8, compile=0.7, aten=0.5)]
    fig = plotted_figure(rows, monkeypatch)
    colours = [{to_rgba(p.get_facecolor()) for p in ax.patches} for ax in fig.axes[:2]]
    assert colours[0] == {to_rgba(summarize.PLOT_COLORS[i]) for i in ("gputranspose", "compile")}
    assert colours[1] == {to_rgba(c) for c in summarize.PLOT_COLORS.values()}


def test_the_cublas_peer_is_the_benchmarks_own_and_applies_to_2d_geam_inputs():
    import torch

    from peers import geam_applies

    assert geam_applies(torch.empty(8, 16), (-2, -1))
    assert geam_applies(torch.empty(8, 32, dtype=torch.complex128)[:, :16], (0, 1))
    assert not geam_applies(torch.empty(16, 8).t(), (0, 1))  # no unit stride inside rows
    assert not geam_applies(torch.empty(8, 16, dtype=torch.int32), (0, 1))
    assert not geam_applies(torch.empty(2, 8, 16), (-2, -1))
    source = (Path(__file__).parent.parent / "benchmarks" / "peers" / "cublas_geam.cpp").read_text()
    assert "TORCH_LIBRARY(gputranspose_bench, m)" in source
    assert "geam_transpose(Tensor x) -> Tensor" in source
