"""The benchmark's verdicts: how bench_transpose.py turns rows into the issue's targets,
how bench_pitches.py reads its cases, and how ab_compare.py tables an A/B run. The
timing itself needs a GPU; these do not."""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

import ab_compare  # noqa: E402
import bench_pitches  # noqa: E402
import bench_transpose  # noqa: E402


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


@pytest.mark.parametrize("text, expected", [
    ("uint8:8192x8193", ("uint8", 8192, 8193, 8193, 1)),
    ("bfloat16:8192x8193:8200", ("bfloat16", 8192, 8193, 8200, 1)),
    ("uint8:32x2048x2048", ("uint8", 2048, 2048, 2048, 32)),
])
def test_a_case_is_dtype_an_optional_batch_rows_cols_and_an_optional_pitch(text, expected):
    assert bench_pitches.parse_case(text) == expected


@pytest.mark.parametrize("text", ["uint8:8192x8193:8192", "int3:16x16", "uint8:2x16x16:32",
                                  "uint8:2x2x16x16", "uint8:16"])
def test_a_pitch_under_the_row_a_strided_batch_or_an_unknown_dtype_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError):
        bench_pitches.parse_case(text)


def pitches_run(path, tag, us, ratio):
    rows = [{"dtype": "uint8", "shape": "8191x8193", "tag": tag, "gputranspose_us": us,
             "ours_over_copy": ratio}]
    path.write_text(json.dumps({"environment": {}, "rows": rows}))


def test_an_ab_table_gives_each_trees_median_and_its_change_against_the_first(tmp_path):
    for tag, us, ratio in [("a1", 50.0, 1.25), ("a2", 52.0, 1.30), ("a3", 51.0, 1.27),
                           ("b1", 45.9, 1.15), ("b2", 45.0, 1.12), ("b3", 45.0, 1.13)]:
        pitches_run(tmp_path / f"{tag}.json", tag, us, ratio)
    [line] = ab_compare.table(ab_compare.load([str(tmp_path)]), ["a", "b"])
    assert line.startswith("uint8 8191x8193")
    assert "a    51.00 us 1.270x (1.250-1.300, 3)" in line
    assert "b    45.00 us 1.130x (1.120-1.150, 3)" in line
    assert line.endswith("b/a -11.8%")


@pytest.mark.parametrize("script", ["bench_transpose.py", "bench_pitches.py", "gpu_time_small.py",
                                    "l2_after_op.py", "ab_compare.py"])
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
