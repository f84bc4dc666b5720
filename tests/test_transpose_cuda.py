"""The CUDA kernels against ATen, bit for bit, on fresh random data written over
poisoned memory. Skipped without a GPU; GPUTRANSPOSE_REQUIRE_CUDA=1 makes the
skip a failure."""

import pytest
import torch

import torch_transpose
from helpers import (ALL_DTYPES, DTYPES_BY_SIZE, ONE_DTYPE_PER_SIZE, assert_bitwise_equal, at_byte_offset, dtype_id,
                     element_aligned, development_build_or_skip, poison_cuda_cache, poisoned_like, random_finite,
                     plan_result, random_tensor)

pytestmark = pytest.mark.cuda
op = torch.ops.gputranspose

# Tiles are 32, 64 or 128 elements a side: sizes on and either side of them.
TILE_EDGES = [31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257]
SHAPES = [(1, 1), (1, 1000), (1000, 1), (2, 3), (17, 300), (300, 17), (1024, 1024),
          (96, 4099), (4099, 96), (5, 64, 64), (3, 129, 257), (2, 2, 33, 65)]


def check(x, dim0=-2, dim1=-1, tiled_too=False):
    """Runs the op over poisoned memory and compares its bytes with ATen's; with
    `tiled_too`, in a development build, also the tiled kernel where the choice takes
    ATen's copy (tiles the tensor barely fills), one-unit tiles (1- and 2-byte elements) or
    the wide-element kernel (16-byte elements)."""
    reference = element_aligned(x)
    expected = reference.transpose(dim0, dim1).contiguous() if x.dim() >= 2 else reference.clone()
    poison_cuda_cache(expected.numel() * expected.element_size())
    actual = op.transpose(x, dim0, dim1)
    assert actual.is_contiguous()
    assert_bitwise_equal(actual, expected)
    out = poisoned_like(expected.shape, x.dtype, x.device)
    op.transpose.out(x, dim0, dim1, out=out)
    assert_bitwise_equal(out, expected)
    if tiled_too and torch_transpose._C.development_build() and x.dim() >= 2:
        for rule in (-1, 0):
            poison_cuda_cache(expected.numel() * expected.element_size())
            assert_bitwise_equal(torch_transpose._C._transpose_tuned(
                x, dim0, dim1, fallback=0, one_unit_tiles=rule, wide_16=rule,
                wide_realigned=rule), expected)
    return actual


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_every_dtype_matches_aten(dtype, shape):
    check(random_tensor(shape, dtype, "cuda"), tiled_too=True)


@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("rows", TILE_EDGES)
@pytest.mark.parametrize("cols", [31, 64, 129, 257])
def test_tile_edges(dtype, rows, cols):
    check(random_tensor((rows, cols), dtype, "cuda"), tiled_too=True)
    check(random_tensor((cols, rows), dtype, "cuda"), tiled_too=True)


@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("shape", [(8191, 8193), (2, 4097, 1023), (65536, 65), (3, 4096)], ids=str)
def test_large_and_prime_shapes(dtype, shape):
    check(random_tensor(shape, dtype, "cuda"), tiled_too=True)


# Aligned 1- and 16-byte matrices whose tiles all fit on the GPU at once take
# small tiles, larger ones wide tiles: shapes on both sides, with edge tiles.
@pytest.mark.parametrize("dtype,shape", [
    *((torch.uint8, shape) for shape in [(1024, 1024), (64, 65536), (65536, 64), (4000, 4112),
                                         (2, 4000, 4096), (4096, 8208)]),
    (torch.bool, (1024, 1024)), (torch.float8_e4m3fn, (1024, 1024)),
    *((torch.complex128, shape) for shape in [(1024, 1024), (1000, 1008), (2048, 1056)]),
], ids=str)
def test_small_and_wide_tiles(dtype, shape):
    check(random_tensor(shape, dtype, "cuda"))


# Inputs larger than L2 with aligned rows are read at L2 priority evict_last, the
# lines released by the tiles that read the last half an L2 of them (InputL2): sizes
# just past the device's L2, edge tiles on both sides, rows that start 16 bytes into
# a 128-byte line, whose first line begins before them, and output rows that start
# anywhere (4111 of them: skewed stores, which 1- to 8-byte elements take with it).
@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("line_offset", [0, 16], ids=lambda n: f"{n}-byte offset")
@pytest.mark.parametrize("rows", [4112, 4111])
def test_inputs_larger_than_l2(dtype, line_offset, rows):
    size = torch.empty((), dtype=dtype).element_size()
    l2 = torch.cuda.get_device_properties(torch.cuda.current_device()).L2_cache_size
    cols = -(-l2 // (rows * size)) // 64 * 64 + 80
    skip = line_offset // size
    x = random_tensor((skip + rows * cols,), dtype, "cuda")[skip:].view(rows, cols)
    assert x.numel() * size > l2
    path = torch_transpose.explain(x)
    assert (path["path"], path["load_bytes"]) == ("tiled_contiguous", 16)
    assert (path["store_bytes"] == 16) == (rows * size % 16 == 0)
    check(x)


@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("batch", [2, 3, 5, 33])
@pytest.mark.parametrize("rows_segments,cols_segments", [(1, 1), (1, 4), (3, 2), (4, 4), (2, 8)],
                         ids=str)
def test_batches_of_small_aligned_matrices(dtype, batch, rows_segments, cols_segments):
    # Rows and cols of whole 16-byte segments, smaller than a tile: several
    # matrices share a tile; a batch that does not fill the last tile.
    per_segment = 16 // torch.empty((), dtype=dtype).element_size()
    rows, cols = rows_segments * per_segment, cols_segments * per_segment
    check(random_tensor((batch, rows, cols), dtype, "cuda"), tiled_too=True)
    # The same with a padded pitch: rows cut inside a micro-block.
    padded = random_tensor((batch, rows, cols + per_segment), dtype, "cuda")
    check(padded[..., : cols - 1] if cols > 1 else padded[..., :cols], tiled_too=True)


# Columns that cut the last micro-block of each tile-row (a micro-block is 16 / size
# columns wide, 4 for 1-byte elements): rows read staged or as words (an odd pitch),
# or aligned (a view of 16-byte aligned rows), in storage that ends at the last
# element, so that the last row's cut piece must stop there; under aligned output
# rows (272 rows: more than one tile-row) and skewed ones (271).
@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("cut", [1, 2, 3, 5, 7])
@pytest.mark.parametrize("rows_aligned", [False, True], ids=["odd pitch", "aligned rows"])
@pytest.mark.parametrize("rows", [272, 271])
def test_last_column_cutting_micro_blocks(dtype, cut, rows_aligned, rows):
    pitch = 528  # x size: a multiple of 16 bytes
    cols = pitch - cut
    if not rows_aligned:
        pitch = cols
    storage = random_tensor(((rows - 1) * pitch + cols,), dtype, "cuda")
    x = storage.as_strided((rows, cols), (pitch, 1))
    plan = torch_transpose.explain(x)
    assert (plan["load_bytes"] == 16) == (pitch * dtype.itemsize % 16 == 0)
    assert (plan["store_bytes"] == 16) == (rows * dtype.itemsize % 16 == 0)
    check(x)


@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("offset", [1, 2, 3, 5, 8])
def test_misaligned_storage_offsets(dtype, offset):
    base = random_tensor((offset + 257 * 515,), dtype, "cuda")
    x = base[offset:].view(257, 515)
    check(x)
    y = random_tensor((300, 516), dtype, "cuda")[:, offset:offset + 480]
    check(y)


# Matrices under 16 bytes apart in storage (a legal as_strided view) that ends at the last
# one's last row: every matrix's last row then ends within a 16-byte chunk of the input's
# end, where unaligned loads must stop. Bytes read past it never reach the output, so this
# checks the result of such views on the fast path; the read itself is memcheck's to see,
# on the same case in scripts/sanitizer_cases.py ("overlapping batches", scripts/sanitize).
@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("apart", [1, 3], ids=lambda n: f"{n} apart")
def test_overlapping_batches(dtype, apart):
    storage = random_tensor((4 + 2 * apart + 255 * 259 + 256,), dtype, "cuda")
    x = storage.as_strided((3, 256, 256), (apart, 259, 1), 4)
    assert torch_transpose.explain(x)["path"] == "tiled_row_strided"
    check(x)


# Output rows that start 16 bytes into a 32-byte sector (16 mod 32 bytes long, or
# an out= buffer 16 bytes past a sector) and run across several tiles go through
# skewed tiles; rows inside one tile (fewer than a tile's rows) through aligned ones.
@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("row_bytes", [1040, 48], ids=lambda n: f"{n}-byte rows")
def test_output_rows_starting_mid_sector(dtype, row_bytes):
    rows = max(1, row_bytes // dtype.itemsize)
    for shape in [(rows, 300), (2, rows, 77)]:
        check(random_tensor(shape, dtype, "cuda"))
    x = random_tensor((2 * rows, 129), dtype, "cuda")
    expected = x.mT.contiguous()
    offset = 16 // dtype.itemsize
    buffer = poisoned_like((expected.numel() + offset,), dtype, "cuda")
    out = buffer[offset:].view(expected.shape)
    op.transpose.out(x, -2, -1, out=out)
    assert_bitwise_equal(out, expected)


def check_tuned(cases, **tuning):
    """Each (shape, view) case, for every element size, through the tiled CUDA kernel
    (never ATen's copy, one-unit tiles, the wide-element kernel nor nd tiles) with other
    device facts or walk overrides (a development build's _transpose_tuned), byte for byte;
    a view may use `skip`, 16 bytes in elements. Returns the kernels chosen."""
    development_build_or_skip()
    tuning.setdefault("fallback", 0)
    tuning.setdefault("one_unit_tiles", 0)
    tuning.setdefault("wide_16", 0)
    tuning.setdefault("nd_tiles", 0)
    kernels = []
    for dtype in ONE_DTYPE_PER_SIZE:
        skip = 16 // dtype.itemsize
        for shape, view in cases:
            x = random_tensor(shape, dtype, "cuda")
            x = view(x, skip) if view else x
            expected = x.mT.contiguous()
            poison_cuda_cache(expected.numel() * expected.element_size())
            assert_bitwise_equal(torch_transpose._C._transpose_tuned(x, **tuning), expected)
            kernels.append(torch_transpose._C._explain_tuned(x, **tuning))
    return kernels


# Blocks walk the tiles a group of tile-rows at a time (a whole column of tiles by
# default): groups of 3 tile-rows and a shorter last group, on every path that walks
# tiles in groups.
TILE_WALK_CASES = [((1000, 700), None), ((2, 999, 1001), None), ((3, 4000, 129), None),
                   ((1100, 530), lambda x, skip: x[:, 3:-17])]


def test_tile_walk_in_groups_covers_every_tile():
    for how in check_tuned(TILE_WALK_CASES, tile_group_rows=3):
        assert how["group_rows"] <= 3, how


def test_interleaved_tile_columns_cover_every_tile():
    # Every shape's columns interleaved (the choice does it where rows lie an odd
    # multiple of 128 KiB apart), odd and even numbers of them, in groups of 3 too.
    for group in (3, 0):
        for how in check_tuned(TILE_WALK_CASES, interleave=1, tile_group_rows=group):
            assert how["interleave"], how


# Rows 16 bytes into a 128-byte line in the fifth case; rows that start anywhere in
# the sixth and seventh (8-byte elements' word loads at evict_last: skewed and aligned
# stores); in the last two, skewed tiles whose last tile column is cut (1-byte ones are
# 256 bytes wide past L2), one matrix and a batch.
EVICT_LAST_CASES = [
    ((1000, 704), None), ((999, 1024), None), ((3, 1000, 704), None), ((4111, 512), None),
    ((16 + 999 * 1024,), lambda x, skip: x[skip:skip + 999 * 1024].view(999, 1024)),
    ((1001, 703), None), ((1000, 720), lambda x, skip: x[:, 1:]), ((1001, 1040), None),
    ((2, 999, 528), None)]


@pytest.mark.parametrize("l2_bytes", [65536, 1048576])
def test_evict_last_kernels_on_a_small_l2(l2_bytes):
    # With the L2 taken as 64 KiB or 1 MiB, these inputs take the evict_last kernels
    # (aligned loads, or 8-byte word loads; aligned and skewed stores), with releases
    # from the blocks that read the last half of that: none, some or all of a matrix's tiles.
    kernels = check_tuned(EVICT_LAST_CASES, l2_bytes=l2_bytes)
    evict_last = [how for how in kernels if how["input_l2"] == "evict_last"]
    assert len(evict_last) >= len(kernels) // 2, kernels
    assert {how["store"] for how in evict_last} == {"aligned16", "words"}


# 2-byte rows that start anywhere and outgrow L2 are staged on memory under 4 TB/s and
# read as shifted words elsewhere: each way, with the L2 taken as 64 KiB, for odd
# pitches, slices, a storage offset and batches, under skewed and (the last two)
# aligned stores.
STAGED_2_BYTE_CASES = [
    ((1001, 1003), None), ((999, 1025), lambda x, skip: x[:, 1:]),
    ((1000, 1019), lambda x, skip: x[:, :-17]), ((1 + 513 * 257,), lambda x, skip: x[1:].view(513, 257)),
    ((3, 257, 515), None), ((4099, 63), None), ((1024, 1041), lambda x, skip: x[:, :-17]),
    ((512, 515), lambda x, skip: x[:, 3:])]


@pytest.mark.parametrize("memory_bytes_per_s,load", [(3.35e12, "staged"), (4.8e12, "words")])
def test_2_byte_rows_past_l2_staged_or_word_loaded(memory_bytes_per_s, load):
    kernels = check_tuned(STAGED_2_BYTE_CASES, l2_bytes=65536, memory_bytes_per_s=memory_bytes_per_s)
    two_byte = [how for how in kernels if how["element_size"] == 2 and how["load"] != "aligned16"]
    assert two_byte and {how["load"] for how in two_byte} == {load}, two_byte
    assert {how["store"] for how in two_byte} == {"aligned16", "words"}, two_byte


@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("rows", [16384, 16416])
def test_long_output_rows_of_unaligned_rows(dtype, rows):
    check(random_tensor((rows, 301), dtype, "cuda")[:, :35])
    check(random_tensor((rows, 301), dtype, "cuda")[:, 3:-17])
    check(random_tensor((1 + 2 * rows * 37,), dtype, "cuda")[1:].view(2, rows, 37))


@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
def test_tall_unaligned_rows_walk_in_tile_row_groups(dtype):
    # Rows that start anywhere, 32768 or more of them: the launcher walks their tiles 8
    # tile-rows at a time (tile_group_rows), the last group short.
    check(random_tensor((65536 + 300, 301), dtype, "cuda")[:, 3:-17])


# Rows that start anywhere, under aligned stores, take tall tiles where the output's rows
# are 16384 elements or longer, for the kernels that have them (staged 1-byte rows, 4-
# and 8-byte word loads, and 2-byte rows where they are staged, past L2 on slower memory):
# the long-row shapes above with the L2 taken as 64 KiB and 2-byte rows staged, every
# element size; then 16384 rows (tall tiles) and 8192 (not) of each such kernel.
LONG_OUTPUT_ROW_CASES = [((16384, 301), lambda x, skip: x[:, :35]),
                         ((16416, 301), lambda x, skip: x[:, 3:-17]),
                         ((1 + 2 * 16416 * 37,), lambda x, skip: x[1:].view(2, 16416, 37))]


def test_long_output_rows_take_tall_tiles():
    kernels = check_tuned(LONG_OUTPUT_ROW_CASES, l2_bytes=65536, memory_bytes_per_s=3.35e12)
    assert any(how["tiling"] == "tall" for how in kernels), kernels
    for dtype in (torch.uint8, torch.bfloat16, torch.float32, torch.float64):
        for rows, tiling in ((16384, "tall"), (8192, "wide")):
            x = torch.randint(0, 100, (rows, 35), device="cuda").to(dtype)
            tuning = dict(l2_bytes=65536, memory_bytes_per_s=3.35e12, one_unit_tiles=0)
            how = torch_transpose._C._explain_tuned(x, **tuning)
            assert how["tiling"] == tiling and how["store"] == "aligned16", (dtype, rows, how)
            assert_bitwise_equal(torch_transpose._C._transpose_tuned(x, **tuning), x.mT.contiguous())


@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("view", [lambda x: x, lambda x: x[:, 3:-1000], lambda x: x[:-2, 16:]],
                         ids=["whole", "unaligned_slice", "odd_rows"])
def test_rows_128_kib_apart(dtype, view):
    # The tile columns these rows cut are walked interleaved.
    row = (128 << 10) // torch.empty((), dtype=dtype).element_size()
    check(view(random_tensor((37, row), dtype, "cuda")), tiled_too=True)


STRIDED_VIEWS = {
    "row_slice": (lambda x: x[:, 16:], "tiled_row_strided"),
    "padded_pitch": (lambda x: x[:, :-17], "tiled_row_strided"),
    "row_step": (lambda x: x[::2], "tiled_row_strided"),
    # 2-byte elements: tiles filled under a quarter, on an input the L2 holds, into output
    # rows of 138 and 100 bytes: ATen's copy (measured faster there; kernel choice)
    "batch_slice": (lambda x: x.view(4, 75, 200)[:, 3:-3, 8:],
                    lambda dtype: "aten_fallback" if dtype.itemsize == 2 else "tiled_row_strided"),
    "transposed": (lambda x: x.t(), "memcpy"),
    "batch_transposed": (lambda x: x.view(4, 75, 200).mT, "memcpy"),
    # strided elements; 8-byte and wider values in 8-byte units: ATen's copy, as wide
    "column_step": (lambda x: x[:, ::2], lambda dtype: "aten_fallback" if dtype.itemsize >= 8 else "tiled_units"),
    "expanded": (lambda x: x[:1].expand(50, -1), "aten_fallback"),
    # 4 x 200 matrices: the small-dim kernel (1- to 8-byte elements), the 200-element rows
    # on 16 bytes or not (1-byte rows are 8 bytes off); else under a tenth of the tiles
    # filled, and output rows of 64 bytes of 16-byte values: ATen's copy (the tiled kernel
    # too below).
    "permuted_batch": (lambda x: x.view(4, 75, 200).permute(1, 0, 2),
                       lambda dtype: "small_dim" if dtype.itemsize <= 8 else "aten_fallback"),
    "two_batch_dims": (lambda x: x.view(2, 3, 50, 200)[:, :2],
                       lambda dtype: "aten_fallback" if dtype.itemsize == 2 else "tiled_row_strided"),
}


def tiled_path(how, paths, itemsize):
    """Whether explain()'s `how` is one of the tiled `paths`, or (1- and 2-byte elements in
    matrices that fill the tiled kernel's tiles under about a fifth) one-unit tiles."""
    if how["path"] == "tiled_units" and itemsize <= 2:
        return how["kernel"].startswith(f"tiled_units<unit={itemsize}, units=1,")
    return how["path"] in paths


@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("view", STRIDED_VIEWS, ids=str)
def test_each_layout_path_on_cuda(dtype, view):
    make, path = STRIDED_VIEWS[view]
    x = make(random_tensor((300, 200), dtype, "cuda"))
    path = path(dtype) if callable(path) else path
    how = torch_transpose.explain(x)
    if path.startswith("tiled_"):
        assert tiled_path(how, (path,), dtype.itemsize), how
    else:
        assert how["path"] == path, how
    check(x, tiled_too=True)


def test_explain_gives_the_layouts_plan_and_the_devices_choice():
    # A strided run of 4-byte values plans as a 2-D copy of 4-byte rows, which the kernel
    # choice leaves to ATen's strided copy (rows under 64 bytes); 63 x 65 uint8 matrices plan
    # as the tiled kernel's, which the choice runs as a batch of small matrices.
    how = torch_transpose.explain(random_tensor((64,), torch.float32, "cuda")[::2], 0, 0)
    assert (how["plan_path"], how["path"]) == ("memcpy", "aten_fallback"), how
    assert "a 2-D copy" in how["plan_reason"] and "rows a pitch apart" in how["reason"], how
    how = torch_transpose.explain(random_tensor((63, 65), torch.uint8, "cuda"))
    assert (how["plan_path"], how["path"]) == ("tiled_contiguous", "batched_small"), how
    assert how["device"] == torch.cuda.current_device() and how["kernel"].startswith("batched_small<")


@pytest.mark.parametrize("shape,dims", [((3, 4, 5, 6), (0, 2)), ((3, 4, 5), (0, 1)), ((7,), (0, 0)),
                                        ((4, 5), (1, 1)), ((), (0, -1))], ids=str)
def test_non_default_dims_and_low_rank(shape, dims):
    check(random_tensor(shape, torch.float32, "cuda"), *dims)


# Adjacent dims other than the last two: the dims after them make one element of the
# transpose, moved whole (1- to 16-byte ones by the tiled kernels, wider ones, a
# multiple of 16 bytes, by the wide-element kernel; other sizes by ATen).
ADJACENT_DIMS = [
    # shape, dtype, dims, view, path
    ((67, 129, 4), torch.uint8, (0, 1), None, "tiled_contiguous"),           # RGBA images
    ((3, 67, 129, 2), torch.bfloat16, (1, 2), None, "tiled_contiguous"),     # 4-byte elements
    ((67, 129, 2), torch.float32, (1, 0), None, "tiled_contiguous"),         # 8-byte elements
    ((2, 33, 65, 2, 2), torch.float32, (1, 2), None, "tiled_contiguous"),    # 16 bytes in two dims
    ((300, 200, 2), torch.int16, (0, 1), lambda x: x[:, 3:], "tiled_row_strided"),
    ((257, 515, 2), torch.uint8, (0, 1), lambda x: x[:, :-3], "tiled_row_strided"),  # odd pitch
    ((2, 67, 13, 64), torch.bfloat16, (1, 2), None, "wide_elements"),        # (B, S, H, D) heads
    ((3, 129, 7, 24), torch.float16, (-3, -2), None, "wide_elements"),       # 48-byte elements
    ((4097, 3, 32), torch.float32, (0, 1), None, "wide_elements"),
    ((5, 9, 11, 2, 1, 16), torch.int8, (1, 2), None, "wide_elements"),       # size-1 dim inside
    ((6, 40, 10, 16), torch.float32, (1, 2), lambda x: x[:, 5:-3], "wide_elements"),
    ((6, 40, 10, 16), torch.float32, (1, 2), lambda x: x[::2, :, 1:], "wide_elements"),
    ((35000, 2, 2, 8), torch.float32, (1, 2), None, "wide_elements"),        # 2188 tiles of 32 rows
    ((33000, 2, 2, 1024), torch.uint8, (1, 2), None, "wide_elements"),       # 66000 tiles of 1 row
    ((3, 5, 33, 2), torch.complex128, (1, 2), None, "wide_elements"),        # a tile past the rows
    ((2, 4, 5, 8), torch.complex128, (1, 2), None, "wide_elements"),
    ((64, 65, 3), torch.float32, (0, 1), None, "tiled_units"),               # 12-byte elements
    # Strided elements: 3-element rows fill under half the tiles (ATen's copy); 6-byte
    # elements 8 bytes apart take the unit-tiled kernel.
    ((64, 65, 6), torch.uint8, (0, 1), lambda x: x[..., ::2], "aten_fallback"),
    ((64, 65, 8), torch.uint8, (0, 1), lambda x: x[..., :6], "tiled_units"),
    ((40, 4, 50, 6), torch.float32, (0, 2), None, "tiled_units"),            # 24-byte elements
    ((1 + 64 * 65 * 6,), torch.uint8, (0, 1),
     lambda x: x[1:].view(64, 65, 6), "tiled_units"),                        # at an odd address
    ((64, 40, 96, 8), torch.int16, (0, 2), None, "tiled_row_strided"),      # not adjacent
    ((1 + 40 * 10 * 16,), torch.float32, (0, 1),
     lambda x: x[1:].view(40, 10, 16), "tiled_units"),                       # off 16 bytes
]


@pytest.mark.parametrize("shape,dtype,dims,view,path", ADJACENT_DIMS,
                         ids=[f"{c[0]}-{dtype_id(c[1])}-{c[2]}-{c[4]}" for c in ADJACENT_DIMS])
def test_adjacent_dims_move_the_trailing_dims_as_elements(shape, dtype, dims, view, path):
    x = random_tensor(shape, dtype, "cuda")
    x = view(x) if view else x
    assert torch_transpose.explain(x, *dims)["path"] == path
    check(x, *dims)


# Matrices with a side of 2 to 16 elements take the small-dim kernel: every short side and
# element size, short input rows and short output rows, in batches whose warps cross
# matrices, with a permutation's outer dims, and long sides cut short of a whole vector.
SMALL_DIM_DTYPES = [d for d in ONE_DTYPE_PER_SIZE if torch.empty((), dtype=d).element_size() <= 8]


@pytest.mark.parametrize("dtype", SMALL_DIM_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("short", range(2, 17))
def test_small_dims_take_the_small_dim_kernel(dtype, short):
    v = 16 // torch.empty((), dtype=dtype).element_size()  # elements a 16-byte vector
    long = 48 * v
    cases = [
        (random_tensor((long, short), dtype, "cuda"), (0, 1)),
        (random_tensor((3, long, short), dtype, "cuda"), (1, 2)),
        (random_tensor((3, short, long), dtype, "cuda"), (1, 2)),
        (random_tensor((short, 1024 * v), dtype, "cuda"), (0, 1)),                # staged spans
        (random_tensor((short, long + v), dtype, "cuda")[:, :long + 1], (0, 1)),  # cut short
        # Long rows off 16 bytes: one matrix, or rows of 8 KiB or more (warps that cross a
        # matrix move element by element) whose short rows' side stays on 16 bytes.
        (random_tensor((long + 1, short), dtype, "cuda"), (0, 1)),
        (random_tensor((short, long + 1), dtype, "cuda"), (0, 1)),
        (random_tensor((3, 512 * v + 16, short), dtype, "cuda")[:, :512 * v + 1], (1, 2)),
    ]
    if short % 2 == 0:  # 8200-byte input rows; the output's batch stride on 16 bytes
        cases.append((random_tensor((3, short, 512 * v + v // 2), dtype, "cuda"), (1, 2)))
    for x, dims in cases:
        assert torch_transpose.explain(x, *dims)["path"] == "small_dim", (x.shape, dims)
        check(x, *dims)
    # A permutation's outer dims, and output rows further apart than the long side.
    for shape, dims in [((4, 6, long, short), (1, 3, 0, 2)), ((4, 6, short, long), (1, 0, 3, 2))]:
        x = random_tensor(shape, dtype, "cuda")
        assert torch_transpose.explain_permute(x, dims)["path"] == "small_dim", (shape, dims)
        expected = x.permute(dims).contiguous()
        poison_cuda_cache(expected.numel() * expected.element_size())
        assert_bitwise_equal(op.permute(x, dims), expected)


# Wide elements of inputs larger than L2 are read at evict_last, and the last blocks
# release the lines they read: the one a line's first unit or a row's first unit is in
# (rows that start mid-line, gaps between rows). Releases change no data: this checks
# the results of the evict_last kernels, with their releases, for each tile: 128 units
# (elements of 80 bytes and more), 256 (48 and 64 bytes), 512 (32 bytes).
WIDE_EVICT_LAST_CASES = [((4097, 3, 32), torch.float32, (0, 1), None),                        # 128 B
         ((3, 700, 5, 72), torch.float16, (1, 2), None),                      # 144 B, rows mid-line
         ((3, 700, 5, 72), torch.float16, (1, 2), lambda x: x[:, :, 1:]),     # and gaps
         ((5, 130, 3, 1024), torch.uint8, (1, 2), None),                      # 1 KiB
         ((2, 500, 9, 24), torch.float16, (1, 2), None),                      # 48 B, rows mid-line
         ((6, 400, 10, 16), torch.float32, (1, 2), lambda x: x[::2, :, 1:]),  # 64 B, gaps
         ((3000, 33, 4), torch.float64, (0, 1), None),                        # 32 B
         ((3, 2000, 7, 4), torch.float64, (1, 2), lambda x: x[:, 5:-3])]      # gaps between batches


@pytest.mark.parametrize("l2_bytes", [65536, 1048576])
def test_wide_elements_at_evict_last_on_a_small_l2(l2_bytes):
    development_build_or_skip()
    for shape, dtype, dims, view in WIDE_EVICT_LAST_CASES:
        x = random_tensor(shape, dtype, "cuda")
        x = view(x) if view else x
        how = torch_transpose._C._explain_tuned(x, *dims, l2_bytes=l2_bytes)
        past_l2 = x.numel() * x.element_size() > l2_bytes
        assert how["path"] == "wide_elements", (shape, dtype, how)
        assert how["input_l2"] == ("evict_last" if past_l2 else "normal"), (shape, dtype, how)
        expected = x.transpose(*dims).contiguous()
        poison_cuda_cache(expected.numel() * expected.element_size())
        assert_bitwise_equal(torch_transpose._C._transpose_tuned(x, *dims, l2_bytes=l2_bytes), expected)


def test_wide_elements_into_an_out_buffer_off_16_bytes_fall_back():
    x = random_tensor((4, 33, 9, 64), torch.bfloat16, "cuda")
    expected = x.transpose(1, 2).contiguous()
    storage = poisoned_like((expected.numel() + 1,), x.dtype, x.device)
    out = storage[1:].view(expected.shape)  # 2 bytes past a 16-byte boundary
    op.transpose.out(x, 1, 2, out=out)
    assert_bitwise_equal(out, expected)


# Layouts that are batches of matrix transposes once the result's dims that lie back to
# back in the input are fused: transposed views (sliced too), permuted batches, the copy of
# an mT view, non-adjacent dims around size-1 dims.
FUSED_LAYOUTS = [
    # shape, view, dims
    ((8, 65, 64), lambda x: x.transpose(1, 2), (0, 1)),
    ((6, 67, 40), lambda x: x[:, :, 3:36].transpose(1, 2), (0, 1)),
    ((40, 75, 66), lambda x: x.permute(1, 0, 2), (-2, -1)),
    ((30, 66, 100), lambda x: x.mT, (1, 1)),
    ((33, 1, 100, 1, 8), lambda x: x, (0, 2)),
]


@pytest.mark.parametrize("dtype", ONE_DTYPE_PER_SIZE, ids=dtype_id)
@pytest.mark.parametrize("shape,view,dims", FUSED_LAYOUTS, ids=[str(c[0]) for c in FUSED_LAYOUTS])
def test_fused_layouts_take_the_kernels(dtype, shape, view, dims):
    x = view(random_tensor(shape, dtype, "cuda"))
    how = torch_transpose.explain(x, *dims)
    assert how["plan_path"] in ("tiled_contiguous", "tiled_row_strided", "wide_elements"), how
    # Small matrices with rows off 16 bytes take the batched-small kernel (kernel choice);
    # 33 x 100 matrices of 8-byte elements (uint8 blocks of 8) fill their tiles under a
    # quarter on an input the L2 holds, rows 264 bytes apart in the output: ATen's copy.
    if shape == (33, 1, 100, 1, 8) and dtype.itemsize == 1:
        assert how["path"] == "aten_fallback" and "filled under a quarter" in how["reason"], how
    else:
        assert tiled_path(how, ("tiled_contiguous", "tiled_row_strided", "wide_elements",
                                "batched_small"), dtype.itemsize), how
    check(x, *dims, tiled_too=True)


# Tiled layouts whose launched tiles the tensor fills less than a tenth of (a swapped dim
# far smaller than a tile) run as the batched-small kernel where the matrices (up to 8 KiB)
# lie back to back on both sides, or a pitch apart in elements wider than their values, as
# ATen's strided copy elsewhere, and explain() says so; where they fill more, the tiled
# kernel runs.
@pytest.mark.parametrize("shape,dtype,dims,view,path", [
    ((8, 3, 5000), torch.uint8, (1, 2), None, "aten_fallback"),            # 15 KB matrices
    ((4, 1001, 3), torch.float16, (1, 2), None, "batched_small"),         # short rows off 16 bytes
    ((5000, 3), torch.float16, (0, 1), None, "small_dim"),                # on 16 bytes
    ((20000, 5, 2), torch.float64, (1, 2), None, "batched_small"),         # 5 x 2 matrices
    ((20000, 3, 3), torch.float8_e4m3fn, (1, 2), None, "batched_small"),  # 3 x 3 matrices
    ((3000, 34, 35), torch.bool, (1, 2), None, "batched_small"),          # 34 x 35 bytes
    ((1 + 3000 * 10,), torch.float64, (1, 2), lambda x: x[1:].view(3000, 5, 2), "batched_small"),
    ((20000, 3, 7), torch.float32, (1, 2), None, "batched_small"),        # 3 x 7 floats
    ((8, 3, 2000), torch.uint8, (1, 2), lambda x: x[:, :, 1:], "aten_fallback"),  # rows apart
    ((7, 1001, 2), torch.int32, (1, 2), lambda x: x[:, 1:], "aten_fallback"),
    ((300, 3, 1031), torch.float8_e4m3fn, (1, 2), lambda x: x[..., :1024], "aten_fallback"),
    ((300, 3, 1031, 2), torch.float8_e4m3fn, (1, 2), lambda x: x[..., :1024, :], "batched_small"),
    ((2000, 4, 203), torch.int32, (1, 2), lambda x: x[..., :196], "aten_fallback"),
    ((81, 2000, 3, 6), torch.int16, (0, 1), lambda x: x.transpose(2, 3), "aten_fallback"),
    ((4096, 64, 64), torch.uint8, (1, 2), None, "tiled_contiguous"),        # folded tiles
    ((300, 200), torch.float32, (0, 1), None, "tiled_contiguous"),
], ids=str)
def test_tiles_barely_filled_take_atens_copy(shape, dtype, dims, view, path):
    x = random_tensor(shape, dtype, "cuda")
    x = view(x) if view else x
    how = torch_transpose.explain(x, *dims)
    assert how["path"] == path, how
    if path == "aten_fallback":
        assert how["tile_utilization"] < 0.1 and "strided copy" in how["reason"], how
        assert how["kernel"] is None, how
    check(x, *dims, tiled_too=True)


# A side of 2-16 elements whose short rows' runs lie off 16 bytes (a storage offset, batch
# strides off 16 bytes, an out= buffer at an offset): the small-dim kernel's warps stage the
# span in units of its alignment where its matrix is one or its long rows 8 KiB or more.
PACKED_OFF_16 = [
    # name, size, strides, offset (values), dtype, dims
    ("float8 batches 8 mod 16", (7, 180462, 12), (2165544, 12, 1), 0, torch.float8_e4m3fn, (1, 2)),
    ("int16 at +10 bytes", (1544, 11686, 5), (58430, 5, 1), 5, torch.int16, (1, 2)),
    ("uint8 one matrix at +14", (201997, 4), (4, 1), 14, torch.uint8, (0, 1)),
    ("short output rows, batches 4 mod 16", (50, 15, 10860), (162915, 10861, 1), 0, torch.uint8, (1, 2)),
]

# Short input rows a pitch apart (a column slice of a wide tensor): the warps that stage
# their rows gather them element by element; the others move element by element.
PITCHED_SHORT_ROWS = [
    ("float8 rows of 7 of 107", (200001, 107), torch.float8_e5m2, (0, 1), lambda x: x[:, :7]),
    ("float16 rows of 5 of 105", (50001, 105), torch.float16, (0, 1), lambda x: x[:, 2:7]),
    ("int32 rows of 3 of 20, a batch", (3, 9001, 20), torch.int32, (1, 2), lambda x: x[..., 1:4]),
    ("int64 rows of 16 of 17", (20001, 17), torch.int64, (0, 1), lambda x: x[:, :16]),
]


@pytest.mark.parametrize("shape,dtype,dims,view", [c[1:] for c in PITCHED_SHORT_ROWS],
                         ids=[c[0] for c in PITCHED_SHORT_ROWS])
def test_short_input_rows_a_pitch_apart_take_the_small_dim_kernel(shape, dtype, dims, view):
    x = view(random_tensor(shape, dtype, "cuda"))
    how = torch_transpose.explain(x, *dims)
    assert how["path"] == "small_dim" and "packed=pitched" in how["kernel"], how
    check(x, *dims)


@pytest.mark.parametrize("size,strides,offset,dtype,dims", [c[1:] for c in PACKED_OFF_16],
                         ids=[c[0] for c in PACKED_OFF_16])
def test_short_rows_off_16_bytes_take_the_small_dim_kernel(size, strides, offset, dtype, dims):
    extent = offset + 1 + sum((n - 1) * s for n, s in zip(size, strides))
    x = random_tensor((extent,), dtype, "cuda").as_strided(size, strides, offset)
    how = torch_transpose.explain(x, *dims)
    assert how["path"] == "small_dim" and "packed=any" in how["kernel"], how
    check(x, *dims)


# Short output rows into an out= buffer 4 bytes past 16: one matrix, its span staged.
@pytest.mark.parametrize("dtype", [torch.uint8, torch.bfloat16, torch.float32], ids=dtype_id)
def test_short_output_rows_into_an_out_buffer_off_16_bytes(dtype):
    x = random_tensor((3, 40001), dtype, "cuda")
    expected = x.transpose(0, 1).contiguous()
    skip = 4 // dtype.itemsize
    storage = poisoned_like((expected.numel() + skip,), dtype, x.device)
    out = storage[skip:].view(expected.shape)
    op.transpose.out(x, 0, 1, out=out)
    assert_bitwise_equal(out, expected)
    assert_bitwise_equal(storage[:skip], poisoned_like((skip,), dtype, x.device))


@pytest.mark.parametrize("shape", [(), (5,), (0,), (0, 7), (7, 0), (3, 0, 4)], ids=str)
def test_copy_and_empty_paths(shape):
    x = random_tensor(shape, torch.int16, "cuda")
    y = op.transpose(x)
    assert_bitwise_equal(y, x.t() if x.dim() < 2 else x.transpose(-2, -1).contiguous())
    if x.numel():
        assert y.data_ptr() != x.data_ptr()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.uint8, torch.complex128],
                         ids=dtype_id)
def test_opcheck_cuda(dtype):
    x = random_finite((3, 65, 129), dtype, "cuda")
    if dtype in (torch.float32, torch.complex128):
        x.requires_grad_(True)
    torch.library.opcheck(op.transpose.default, (x, -2, -1))
    torch.library.opcheck(op.transpose.out, (x.detach(), -2, -1),
                          {"out": torch.empty(3, 129, 65, dtype=dtype, device="cuda")})


def test_autograd_on_cuda():
    x = torch.randn(40, 70, dtype=torch.float64, device="cuda", requires_grad=True)
    assert torch.autograd.gradcheck(op.transpose, (x,), check_forward_ad=True)
    assert torch.autograd.gradgradcheck(op.transpose, (x,), check_fwd_over_rev=True)


def test_jvp_and_vmap_on_cuda():
    x, tangent = (random_finite((6, 40, 70), torch.bfloat16, "cuda") for _ in range(2))
    primal_out, tangent_out = torch.func.jvp(op.transpose, (x,), (tangent,))
    assert_bitwise_equal(primal_out, x.mT.contiguous())
    assert_bitwise_equal(tangent_out, tangent.mT.contiguous())
    assert_bitwise_equal(torch.func.vmap(op.transpose, in_dims=2)(x), x.movedim(2, 0).mT.contiguous())


@pytest.mark.parametrize("call,message", [
    (lambda: op.transpose.out(torch.empty(3, 4, device="cuda"), out=torch.empty(4, 3)),
     "out is on cpu but x is on cuda:0"),
    (lambda: op.transpose.out(torch.empty(3, 4), out=torch.empty(4, 3, device="cuda")),
     "out is on cuda:0 but x is on cpu"),
    (lambda: (lambda x: op.transpose.out(x, out=x))(torch.empty(8, 8, device="cuda")), "out overlaps x"),
    (lambda: op.transpose(torch.empty(3, 4, device="cuda"), 0, 5), "dim1=5 is out of range"),
    (lambda: op.transpose(torch.eye(3, device="cuda").to_sparse()), "sparse COO tensors are not supported"),
], ids=["out_cpu", "x_cpu", "out_alias", "bad_dim", "sparse"])
def test_bad_input_on_cuda(call, message):
    with pytest.raises((RuntimeError, IndexError, NotImplementedError)) as info:
        call()
    assert message in str(info.value)


def test_all_dtypes_covered_by_element_size_map():
    for size, dtypes in DTYPES_BY_SIZE.items():
        for dtype in dtypes:
            how = torch_transpose.explain(torch.empty(64, 64, dtype=dtype, device="cuda"))
            assert how["path"] == "tiled_contiguous", (dtype, how)
            assert (how["load_bytes"], how["store_bytes"]) == (16, 16), (dtype, how)


# Elements of no power-of-two size (odd trailing blocks) move as units of their largest
# power-of-two divisor: 1-byte units (3, 5 bytes), 2 (6), 4 (12, 20), 8 (24, 600: 8 x 8 tiles),
# through tile edges, strided rows, storage offsets, outer batch dims. Units of 1 and 2 bytes
# move as 4-byte words: input rows and output rows that start at every address mod 4 (odd
# addresses, odd row pitches), 46-byte elements (16 x 16 tiles for words), 1-byte units of
# long elements (8 x 8 tiles), tiles cut on both sides, outer dims.
ODD_ELEMENTS = [
    ((67, 129, 3), torch.uint8, (0, 1), None),
    ((67, 131, 5), torch.uint8, (0, 1), lambda x: x[:, 2:]),
    ((67, 129, 3), torch.int16, (0, 1), None),
    ((1 + 33 * 70 * 3,), torch.int16, (0, 1), lambda x: x[1:].view(33, 70, 3)),
    ((130, 67, 3), torch.float32, (0, 1), None),
    ((3, 40, 50, 5), torch.float32, (1, 2), None),
    ((33, 70, 3), torch.float64, (0, 1), None),
    ((20, 30, 600), torch.uint8, (0, 1), None),
    ((40, 6, 50, 3), torch.int16, (0, 2), None),
    ((1 + 67 * 129 * 7,), torch.uint8, (0, 1), lambda x: x[1:].view(67, 129, 7)),
    ((3 + 65 * 97 * 10,), torch.uint8, (0, 1), lambda x: x[3:].view(65, 97, 10)),  # 1-byte units
    ((70, 67, 5), torch.int16, (0, 1), lambda x: x[:, 1:]),     # 10 bytes, rows 670 bytes apart
    ((33, 31, 3), torch.uint8, (0, 1), lambda x: x[1:, :-2]),  # rows 93 bytes apart, 32 x 29
    ((1 + 50 * 40 * 46,), torch.uint8, (0, 1), lambda x: x[1:].view(50, 40, 46)),
    ((50, 40, 23), torch.int16, (0, 1), None),
    ((21, 19, 255), torch.uint8, (0, 1), None),
    ((3, 40, 5, 70, 3), torch.uint8, (1, 3), None),            # an outer dim
    ((5, 129, 3), torch.uint8, (0, 1), None),
]


@pytest.mark.parametrize("shape,dtype,dims,view", ODD_ELEMENTS,
                         ids=[f"{c[0]}-{dtype_id(c[1])}-{c[2]}" for c in ODD_ELEMENTS])
def test_odd_elements_move_as_units(shape, dtype, dims, view):
    x = random_tensor(shape, dtype, "cuda")
    x = view(x) if view else x
    how = torch_transpose.explain(x, *dims)
    assert how["path"] in ("tiled_units", "element_runs", "aten_fallback"), how
    check(x, *dims, tiled_too=True)


# Odd elements back to back take tiles of about 16 KiB (kernel_choice.cpp): a short side
# whole, long sides up to 128 elements and evened out, tiles of more rows than a warp's pass
# of edges moves (1-byte units: 5 rows a warp), rows at every address mod 4. Each case runs
# in the rule's tiles, square ones and tiles of other sizes, byte for byte.
TILE_SHAPES = [
    ((8, 195, 1024, 3), torch.uint8, (1, 2), None),           # 98 x 64 tiles of 3 bytes
    ((24, 20011, 3), torch.uint8, (0, 1), None),              # a short side of 24, whole
    ((45, 5847, 3), torch.float16, (0, 1), None),             # 2-byte units
    ((1 + 130 * 129 * 5,), torch.uint8, (0, 1), lambda x: x[1:].view(130, 129, 5)),
    ((257, 130, 7), torch.uint8, (0, 1), lambda x: x[:, 1:]),  # rows 903 bytes apart
    ((3, 100, 7, 90, 3), torch.int16, (1, 3), None),           # an outer dim
    ((600, 130, 3), torch.float32, (0, 1), None),              # 4-byte units, a unit a lane
    ((130, 300, 5), torch.float16, (0, 1), None),              # 10 bytes in 2-byte units
]


@pytest.mark.parametrize("shape,dtype,dims,view", TILE_SHAPES,
                         ids=[f"{c[0]}-{dtype_id(c[1])}-{c[2]}" for c in TILE_SHAPES])
def test_odd_elements_take_tiles_of_about_16_kib(shape, dtype, dims, view):
    development_build_or_skip()
    x = random_tensor(shape, dtype, "cuda")
    x = view(x) if view else x
    expected = element_aligned(x).transpose(*dims).contiguous()
    tiles = set()
    for tile_bytes in (-1, 0, 2048, 8192, 16384, 49152):
        how = torch_transpose._C._explain_tuned(x, *dims, fallback=0, unit_tile_bytes=tile_bytes)
        assert how["path"] == "tiled_units", how
        tiles.add(how["tile"])
        poison_cuda_cache(expected.numel() * expected.element_size())
        got = torch_transpose._C._transpose_tuned(x, *dims, fallback=0, unit_tile_bytes=tile_bytes)
        assert_bitwise_equal(got, expected)
    assert len(tiles) >= 3, tiles
    assert max(max(t) for t in tiles) > 32, tiles


# Strided elements (a sliced last dim) of 64 bytes and more in 1-byte units move run by run,
# shifted into place (the element-runs kernel): runs that start at every address mod 4, an
# odd address, int16 values at one, an outer dim, the longest unit-tiled element (682 bytes),
# into out= buffers at every address mod 4; the same bytes as the unit-tiled kernel's.
ELEMENT_RUNS = [
    ((65, 300, 256), torch.uint8, (0, 1), lambda x: x[..., :201]),
    ((40, 33, 300), torch.uint8, (0, 1), lambda x: x[..., 3:258]),
    ((1 + 65 * 300 * 256,), torch.uint8, (0, 1), lambda x: x[1:].view(65, 300, 256)[..., 2:203]),
    ((65, 301, 128), torch.int16, (0, 1), lambda x: at_byte_offset(x, 1)[:, 1:, :101]),
    ((3, 40, 7, 33, 128), torch.int8, (1, 3), lambda x: x[..., :101]),  # an outer dim
    ((50, 7, 700), torch.uint8, (0, 1), lambda x: x[..., 1:683]),
]


@pytest.mark.parametrize("shape,dtype,dims,view", ELEMENT_RUNS,
                         ids=[f"{c[0]}-{dtype_id(c[1])}-{c[2]}" for c in ELEMENT_RUNS])
def test_long_odd_elements_move_as_runs(shape, dtype, dims, view):
    x = random_tensor(shape, dtype, "cuda")
    x = view(x) if view else x
    how = torch_transpose.explain(x, *dims)
    assert how["path"] == "element_runs" and "strided elements" in how["reason"], how
    expected = check(x, *dims)
    if torch_transpose._C.development_build():
        tiles = torch_transpose._C._transpose_tuned(x, *dims, element_runs=0, fallback=0)
        assert_bitwise_equal(tiles, expected)
    for offset in (1, 2, 3) if dtype.itemsize == 1 else ():
        storage = poisoned_like((expected.numel() + 4,), dtype, x.device)
        out = storage[offset:offset + expected.numel()].view(expected.shape)
        op.transpose.out(x, *dims, out=out)
        assert_bitwise_equal(out, expected)
        assert_bitwise_equal(storage[:offset], poisoned_like((offset,), dtype, x.device))


# Small matrices (up to 8 KiB) whose rows lie off 16 bytes on either side run as the
# batched-small kernel however full the tiled kernel's tiles would be (one-unit tiles
# included), a chunk of whole matrices a block; rows on 16 bytes on both sides keep the
# tiled kernel's folded tiles (above).
@pytest.mark.parametrize("shape,dtype,dims,view", [
    ((1 + 3000 * 27 * 128,), torch.int16, (1, 2), lambda x: x[1:].view(3000, 27, 128)),
    ((300, 449, 15), torch.bool, (1, 2), None),
    ((500, 49, 128), torch.bool, (1, 2), None),
    ((2000, 11, 26, 12), torch.float16, (1, 2), lambda x: x.transpose(2, 3)),
    ((700, 56, 40), torch.uint8, (1, 2), None),
], ids=str)
def test_small_matrices_with_rows_off_16_bytes_take_the_batched_small_kernel(shape, dtype, dims, view):
    x = random_tensor(shape, dtype, "cuda")
    x = view(x) if view else x
    how = torch_transpose.explain(x, *dims)
    assert how["path"] == "batched_small", how
    check(x, *dims, tiled_too=True)


# 1- and 2-byte elements move through the unit-tiled kernel as elements of one unit (its
# words path, k = 1) wherever asked to (one_unit_tiles: 1 in place of the tiled kernel, 2 of
# the small-dim kernel too): narrow matrices both ways, a transposed view, sliced rows, a
# storage offset, short sides, an outer dim; the same bytes as ATen's.
ONE_UNIT = [
    ((20011, 32), torch.uint8, (0, 1), None),
    ((24, 20011), torch.int16, (0, 1), None),
    ((1, 1777, 113, 32), torch.bool, (1, 2), lambda x: x.transpose(2, 3)),
    ((300, 24, 1261), torch.bool, (1, 2), lambda x: x[..., :1254]),
    ((409, 49, 27), torch.uint8, (1, 2), lambda x: x[..., :24]),
    ((87, 22207), torch.int8, (0, 1), None),
    ((531, 58, 104), torch.float16, (1, 2), None),
    ((3, 40, 7, 33), torch.int8, (1, 3), None),
    ((2, 26591, 5), torch.bfloat16, (1, 2), lambda x: x[:, 1:]),
    ((3001, 3), torch.uint8, (0, 1), lambda x: x[1:]),
]


@pytest.mark.parametrize("shape,dtype,dims,view", ONE_UNIT,
                         ids=[f"{c[0]}-{dtype_id(c[1])}-{c[2]}" for c in ONE_UNIT])
def test_narrow_matrices_move_as_elements_of_one_unit(shape, dtype, dims, view):
    development_build_or_skip()
    x = random_tensor(shape, dtype, "cuda")
    x = view(x) if view else x
    expected = x.transpose(*dims).contiguous()
    ran = 0
    for forced in (1, 2):
        how = torch_transpose._C._explain_tuned(x, *dims, fallback=0, one_unit_tiles=forced)
        if how["path"] != "tiled_units":
            assert forced == 1 and how["path"] == "small_dim", how
            continue
        assert how["kernel"].startswith(f"tiled_units<unit={x.element_size()}, units=1,"), how
        poison_cuda_cache(expected.numel() * expected.element_size())
        got = torch_transpose._C._transpose_tuned(x, *dims, fallback=0, one_unit_tiles=forced)
        assert_bitwise_equal(got, expected)
        ran += 1
    assert ran >= 1


# By the rule, 1- and 2-byte matrices that fill the tiled kernel's tiles under about a fifth
# (a side of 17-32 elements) take one-unit tiles where their output rows are 64 bytes or more
# and their rows start anywhere (or under a tenth filled, where ATen's copy would run).
@pytest.mark.parametrize("make,dims", [
    (lambda: random_tensor((200003, 20), torch.uint8, "cuda"), (0, 1)),
    (lambda: random_tensor((20011, 24), torch.uint8, "cuda")[:, :20], (0, 1)),
    (lambda: random_tensor((1, 17677, 113, 32), torch.bool, "cuda").transpose(2, 3), (1, 2)),
    (lambda: random_tensor((190102, 27), torch.float16, "cuda"), (0, 1)),
], ids=["uint8-side-20", "uint8-sliced-rows", "bool-view-under-a-tenth", "float16-side-27"])
def test_narrow_matrices_take_one_unit_tiles(make, dims):
    x = make()
    how = torch_transpose.explain(x, *dims)
    assert how["path"] == "tiled_units", how
    assert how["kernel"].startswith(f"tiled_units<unit={x.element_size()}, units=1,"), how
    check(x, *dims)


# 16-byte elements (complex128, or four 4-byte values that keep their order) move through
# the wide-element kernel wherever asked to (wide_16=1): short and long sides, sliced rows,
# a transposed view, an outer dim, a batch; the same bytes as ATen's.
SIXTEEN_BYTE = [
    ((16, 16, 5888), torch.complex128, (1, 2), None),
    ((8, 14, 4783, 1), torch.complex128, (1, 2), None),
    ((3001, 5, 4), torch.float32, (0, 1), None),
    ((7, 301, 20), torch.complex128, (1, 2), lambda x: x[..., :13]),
    ((57, 98, 2, 4), torch.complex128, (1, 2), lambda x: x.transpose(2, 3)),
    ((5, 33, 40, 9), torch.complex128, (1, 3), None),
    ((129, 3), torch.complex128, (0, 1), None),
    ((1000, 1666), torch.complex128, (0, 1), None),
]


@pytest.mark.parametrize("shape,dtype,dims,view", SIXTEEN_BYTE,
                         ids=[f"{c[0]}-{dtype_id(c[1])}-{c[2]}" for c in SIXTEEN_BYTE])
def test_sixteen_byte_elements_move_through_the_wide_element_kernel(shape, dtype, dims, view):
    development_build_or_skip()
    x = random_tensor(shape, dtype, "cuda")
    x = view(x) if view else x
    expected = x.transpose(*dims).contiguous()
    how = torch_transpose._C._explain_tuned(x, *dims, wide_16=1)
    assert how["path"] == "wide_elements", how
    assert how["kernel"].startswith("wide_elements<unit=16,"), how
    poison_cuda_cache(expected.numel() * expected.element_size())
    assert_bitwise_equal(torch_transpose._C._transpose_tuned(x, *dims, wide_16=1), expected)


# By the rule, 16-byte matrices that fill the tiled kernel's tiles 0.1-0.3 (a side of a few
# elements, or of up to 16 against a long one) take the wide-element kernel; full tiles keep
# the tiled kernel, and tiles filled under a tenth what ran before (not the wide kernel).
@pytest.mark.parametrize("make,dims,path", [
    (lambda: random_tensor((16, 16, 5888), torch.complex128, "cuda"), (1, 2), "wide_elements"),
    (lambda: random_tensor((20, 998, 2, 4), torch.complex128, "cuda").transpose(2, 3), (1, 2),
     "wide_elements"),
    (lambda: random_tensor((57, 98, 2, 4), torch.complex128, "cuda").transpose(2, 3), (1, 2),
     None),
    (lambda: random_tensor((8, 14, 47846), torch.complex128, "cuda"), (1, 2), "wide_elements"),
    (lambda: random_tensor((1000, 1666), torch.complex128, "cuda"), (0, 1), "tiled_contiguous"),
], ids=["side-16", "transposed-view-side-4", "under-a-tenth-filled", "side-14", "square"])
def test_sixteen_byte_matrices_with_a_short_side_take_the_wide_element_kernel(make, dims, path):
    x = make()
    got = torch_transpose.explain(x, *dims)["path"]
    assert got == path if path else got != "wide_elements"
    check(x, *dims, tiled_too=True)


# Odd elements into out= buffers at every address mod 4: units as small as the output's
# alignment (1 byte at an odd address), words into output rows that start anywhere.
@pytest.mark.parametrize("offset", [1, 2, 3])
def test_odd_elements_into_an_out_buffer_at_any_address(offset):
    x = random_tensor((67, 129, 6), torch.uint8, "cuda")
    expected = x.transpose(0, 1).contiguous()
    storage = poisoned_like((expected.numel() + offset,), x.dtype, x.device)
    out = storage[offset:].view(expected.shape)
    op.transpose.out(x, 0, 1, out=out)
    assert_bitwise_equal(out, expected)
    assert_bitwise_equal(storage[:offset], poisoned_like((offset,), x.dtype, x.device))


# Strided elements (no dim one element apart in the input: a row slice that cuts the dims
# after the swapped pair, a column step) take the unit-tiled kernel, each element read as
# its own run of units; where they lie a part of an element apart the strides count values
# and the unit shrinks to what every stride shares (tiles filled under half take ATen's copy:
# kernel_choice.cpp). Rows cut at odd and even pads, strided single values, outer dims,
# every unit size, storage offsets.
STRIDED_ELEMENTS = [
    ((4, 96, 40, 30), torch.float8_e4m3fn, (1, 2), lambda x: x[..., :14]),   # 2-byte units
    ((2, 70, 64, 23), torch.uint8, (1, 2), lambda x: x[..., 2:9]),           # 1-byte units
    ((70, 131, 4), torch.float16, (0, 1), lambda x: x[..., :1]),              # one value, 8 bytes apart
    ((40, 300, 76), torch.int16, (0, 1), lambda x: x[..., :12]),            # runs of 24 bytes
    ((96, 100, 19), torch.int32, (0, 1), lambda x: x[..., :2]),               # 8 bytes, 76 apart
    ((3, 40, 66, 34), torch.float32, (1, 2), lambda x: x[..., 2:32]),
    ((70, 64, 8), torch.float32, (0, 1), lambda x: x[..., :4]),              # 16 bytes, 8-byte units
    ((5, 40, 6, 64, 12), torch.bfloat16, (1, 3), lambda x: x[..., :10]),     # an outer dim
    ((1 + 64 * 80 * 9,), torch.uint8, (0, 1), lambda x: x[1:].view(64, 80, 9)[..., :5]),
    ((64, 129), torch.uint8, (0, 1), lambda x: x[:, ::3]),                   # 1-byte elements
    ((70, 64, 5), torch.uint8, (0, 1), lambda x: x[..., 1:3]),               # 2 bytes, 1-byte units
    ((3, 63, 4, 97, 7), torch.uint8, (1, 3), lambda x: x[..., 1:4]),         # 3 bytes, outer dim
    ((40, 33, 24), torch.int16, (0, 1), lambda x: x[..., :23]),              # 46 bytes, 16 x 16 tiles
    ((20, 17, 300), torch.uint8, (0, 1), lambda x: x[..., :255]),            # 255 bytes, 8 x 8 tiles
]


@pytest.mark.parametrize("shape,dtype,dims,view", STRIDED_ELEMENTS,
                         ids=[f"{c[0]}-{dtype_id(c[1])}-{c[2]}" for c in STRIDED_ELEMENTS])
def test_strided_elements_move_as_units(shape, dtype, dims, view):
    base = random_tensor(shape, dtype, "cpu")
    x = view(base.cuda())
    how = torch_transpose.explain(x, *dims)
    assert how["path"] in ("tiled_units", "element_runs") and "strided elements" in how["reason"], how
    assert_bitwise_equal(plan_result(view(base), how).view(-1),
                         view(base).transpose(*dims).contiguous().view(-1))
    check(x, *dims)


# 8-byte and wider values as strided elements would move as 8-byte units, no wider than the
# values: ATen's strided copy is faster there (H200 sweep), and the kernel stays right.
@pytest.mark.parametrize("shape,dtype,dims,view", [
    ((40, 300, 19), torch.int64, (0, 1), lambda x: x[..., :3]),
    ((3, 40, 66, 17), torch.complex64, (1, 2), lambda x: x[..., 1:16]),
    ((70, 64, 2), torch.complex128, (0, 1), lambda x: x[..., :1]),
], ids=str)
def test_strided_8_byte_values_take_atens_copy(shape, dtype, dims, view):
    x = view(random_tensor(shape, dtype, "cuda"))
    how = torch_transpose.explain(x, *dims)
    assert how["path"] == "aten_fallback" and "8-byte units" in how["reason"], how
    check(x, *dims, tiled_too=True)


# Rows or batches a pitch apart that cuts an element (as_strided views, padded pitches that
# are no multiple of the element) count the input's strides in values: wide elements keep
# their kernel where every stride lies on 16 bytes, other elements move as units of what
# the strides share.
PITCHES_CUTTING_ELEMENTS = [
    # size, strides, dtype, dims, path
    ((96, 50, 64), (3600, 72, 1), torch.float16, (0, 1), "wide_elements"),         # 128 B, 144 apart
    ((64, 30, 28), (1080, 36, 1), torch.complex128, (0, 1), "wide_elements"),      # 448 B, 576 apart
    ((3, 40, 20, 48), (44000, 1100, 52, 1), torch.float32, (1, 2), "wide_elements"),  # an outer dim
    ((64, 30, 28), (1110, 37, 1), torch.float32, (0, 1), "tiled_units"),           # 4-byte units
    ((40, 30, 14, 56), (35280, 1176, 84, 1), torch.int16, (0, 1), "tiled_units"),  # 112 B, 168 apart
    ((64, 40, 4), (161, 4, 1), torch.bfloat16, (0, 1), "tiled_units"),            # 2-byte units
    ((70, 33, 5), (167, 5, 1), torch.uint8, (0, 1), "tiled_units"),                # 5 B, 167 apart
]


@pytest.mark.parametrize("size,strides,dtype,dims,path", PITCHES_CUTTING_ELEMENTS,
                         ids=[f"{c[0]}-{c[1]}-{dtype_id(c[2])}" for c in PITCHES_CUTTING_ELEMENTS])
def test_pitches_cutting_an_element_count_strides_in_values(size, strides, dtype, dims, path):
    extent = 1 + sum((n - 1) * s for n, s in zip(size, strides))
    base = random_tensor((extent,), dtype, "cpu")
    view = lambda t: t.as_strided(size, strides)
    x = view(base.cuda())
    how = torch_transpose.explain(x, *dims)
    assert how["path"] == path and how["stride_unit"] == x.element_size(), how
    assert_bitwise_equal(plan_result(view(base), how).view(-1),
                         view(base).transpose(*dims).contiguous().view(-1))
    check(x, *dims, tiled_too=True)


# A data pointer off the element (a byte buffer's view, DLPack, an out= buffer at a byte
# offset) moves the elements as units of what both pointers share, never ATen's copy.
OFF_ELEMENT = [
    ((67, 129), torch.bfloat16, (0, 1), 1),
    ((67, 129), torch.float32, (0, 1), 2),
    ((130, 67), torch.float32, (0, 1), 3),
    ((67, 129), torch.float64, (0, 1), 4),
    ((40, 67), torch.complex128, (0, 1), 8),
    ((3, 40, 50), torch.int16, (0, 2), 1),               # a permutation's outer dim
    ((64, 40, 64), torch.float16, (0, 1), 2),            # 128-byte elements, 2-byte units
    ((20, 30, 160), torch.float32, (0, 1), 4),           # 640 bytes, 8 x 8 tiles
]


@pytest.mark.parametrize("shape,dtype,dims,offset", OFF_ELEMENT,
                         ids=[f"{c[0]}-{dtype_id(c[1])}-{c[2]}-{c[3]}" for c in OFF_ELEMENT])
def test_data_pointers_off_the_element_move_as_units(shape, dtype, dims, offset):
    x = at_byte_offset(random_tensor(shape, dtype, "cuda"), offset)
    how = torch_transpose.explain(x, *dims)
    assert how["path"] in ("tiled_units", "element_runs"), how
    assert "off the element's alignment" in how["reason"], how
    check(x, *dims, tiled_too=True)
    # And into an out= buffer off its element, from an aligned input.
    x = random_tensor(shape, dtype, "cuda")
    expected = x.transpose(*dims).contiguous()
    storage = poisoned_like((expected.numel() * expected.element_size() + 2 * offset,), torch.uint8,
                            x.device)
    out = torch.empty(0, dtype=dtype, device=x.device).set_(
        storage.untyped_storage()[offset:], 0, expected.shape)
    op.transpose.out(x, *dims, out=out)
    assert_bitwise_equal(out, expected)
    assert_bitwise_equal(storage[:offset], poisoned_like((offset,), torch.uint8, x.device))


# Rows in the result's order a pitch apart (a transpose with a size-1 dim, the copy of a
# slice, a strided run) move as a 2-D copy, rows of any width at any pitch and address: the
# batched-small kernel's 1 x n matrices in units wider than the values, or rows of bytes too
# wide for it, one cudaMemcpy2DAsync; elsewhere (None) ATen's strided copy is faster, but
# never for pointers off their value's alignment.
PITCHED_ROWS = [
    ("a size-1 dim swapped, rows of 51", (40, 300, 51), torch.bfloat16,
     lambda x: x[..., :50].unsqueeze(2).transpose(1, 2), None),
    ("a column slice", (300, 70), torch.float32, lambda x: x[:, 3:70], None),
    ("100-byte rows 102 apart", (300, 102), torch.uint8, lambda x: x[:, 2:102], "batched_small<e=2,"),
    ("7-byte rows 107 apart", (5000, 107), torch.uint8, lambda x: x[:, :7], None),
    ("a strided run", (3000,), torch.int16, lambda x: x[1::3], None),
    ("16-byte rows off 16 bytes", (700, 5), torch.complex64, lambda x: x[:, 1:3], None),
    ("bfloat16 rows at an odd address", (300, 51), torch.bfloat16, lambda x: at_byte_offset(x, 1)[:, :50],
     "batched_small<e=1,"),
    ("1000-byte rows 1003 apart", (300, 1003), torch.uint8, lambda x: x[:, 2:1002], "batched_small<e=1,"),
    ("40000-byte rows 40001 apart", (70, 40001), torch.uint8, lambda x: x[:, 1:], "memcpy2d"),
]


@pytest.mark.parametrize("shape,dtype,view,kernel", [c[1:] for c in PITCHED_ROWS],
                         ids=[c[0] for c in PITCHED_ROWS])
def test_rows_a_pitch_apart_take_a_2d_copy(shape, dtype, view, kernel):
    x = view(random_tensor(shape, dtype, "cuda"))
    how = torch_transpose.explain_permute(x, list(range(x.dim())))
    assert how["path"] == "aten_fallback" if kernel is None else how["kernel"].startswith(kernel), how
    expected = element_aligned(x).contiguous()
    poison_cuda_cache(expected.numel() * expected.element_size())
    assert_bitwise_equal(torch_transpose.contiguous(x), expected)
    assert_bitwise_equal(op.permute(x, list(range(x.dim()))), expected)
    out = poisoned_like(expected.shape, dtype, x.device)
    op.permute.out(x, list(range(x.dim())), out=out)
    assert_bitwise_equal(out, expected)


# Elements over 682 bytes (more than the unit-tiled kernel's tile holds) off 16 bytes (a
# storage offset, a size of no multiple of 16, a pitch cutting them) take the wide kernel in
# realigned 16-byte granules by the rule; without them (wide_realigned=0), in the units they
# share (8, 4, 2 and 1 byte, outer dims, expanded columns) where those are wider than the
# values; where not, ATen's copy, as wide, is faster.
WIDE_NARROW_UNITS = [
    ((2 + 40 * 30 * 400,), torch.bfloat16, (0, 1), lambda x: x[2:].view(40, 30, 400), 4, True),
    ((1 + 40 * 30 * 200,), torch.float32, (0, 1), lambda x: x[1:].view(40, 30, 200), 4, False),
    ((1 + 40 * 30 * 200,), torch.float64, (0, 1), lambda x: x[1:].view(40, 30, 200), 8, False),
    ((4 + 2 * 64 * 20 * 28 * 28,), torch.int8, (1, 2),
     lambda x: x[4:].view(2, 64, 20, 28, 28), 4, True),                  # 784 B at +4 bytes
    ((38, 3, 255, 255), torch.float32, (1, 2), None, 4, False),          # 1020 B elements
    ((30, 40, 702), torch.uint8, (0, 1), lambda x: x[..., :700], 2, True),   # 700 B, 702 apart
    ((30, 40, 701), torch.uint8, (0, 1), lambda x: x[..., :700], 1, False),  # 700 B, 701 apart
    ((8, 32, 40, 516), torch.bfloat16, (1, 2), lambda x: x[..., :512], 8, True),  # 1 KiB, 1032 apart
    ((5, 6, 7, 180), torch.float32, (0, 2), None, 16, True),             # 720 B, a permutation
    ((3, 1, 50, 802), torch.int8, (0, 2), lambda x: x[..., 2:].expand(3, 4, 50, 800), 2, True),  # expanded
    ((3, 1, 50, 404), torch.int16, (0, 2), lambda x: x[..., 4:].expand(3, 4, 50, 400), 8, True),
]


@pytest.mark.parametrize("shape,dtype,dims,view,unit,wide", WIDE_NARROW_UNITS,
                         ids=[f"{c[0]}-{dtype_id(c[1])}-{c[2]}" for c in WIDE_NARROW_UNITS])
def test_wide_elements_off_16_bytes_move_in_the_units_they_share(shape, dtype, dims, view, unit, wide):
    base = random_tensor(shape, dtype, "cpu")
    x = view(base.cuda()) if view else base.cuda()
    how = torch_transpose.explain(x, *dims)
    kernel = "wide_elements<unit=16, realigned," if unit < 16 else f"wide_elements<unit={unit},"
    assert how["path"] == "wide_elements" and how["kernel"].startswith(kernel), how
    cpu = view(base) if view else base
    assert_bitwise_equal(plan_result(cpu, how).view(-1), cpu.transpose(*dims).contiguous().view(-1))
    check(x, *dims, tiled_too=True)
    if not torch_transpose._C.development_build():
        return
    old = torch_transpose._C._explain_tuned(x, *dims, wide_realigned=0)
    if wide:
        assert old["path"] == "wide_elements" and f"unit={unit}," in old["kernel"], old
    else:  # units no wider than the values: ATen's copy is faster; the kernel stays right
        assert old["path"] == "aten_fallback" and "no wider than their values" in old["reason"], old


# Wide elements forced through realigned 16-byte granules (wide_realigned=1): the H100
# sweep's cases that ran ATen's copy or 2-byte units (float8 26909-byte elements of a permuted
# view, int8 1195-byte, float32 at a storage offset and of 1020 bytes, bool 95996-byte at an
# offset), and smaller ones of every value size at storage offsets of every residue their
# values allow, row slices, a transposed view and outer dims. The bytes equal ATen's; the rule
# takes the same kernel where units under 16 bytes would run, and the old choice
# (wide_realigned=0) gives the same bytes.
def _view_of_permuted(order):
    """A view of x whose memory holds its dims in `order`'s order (the sweep's permuted_view)."""
    return lambda x: x.permute(order).contiguous().permute([order.index(d) for d in range(len(order))])


REALIGNED = [
    ("float8 permuted view, 26909 B", (2, 3705, 2, 26909), torch.float8_e5m2,
     _view_of_permuted([2, 0, 1, 3]), [2, 1, 0, 3], True),
    ("int8 1195 B", (2, 1, 22131, 1195), torch.int8, None, [1, 2, 0, 3], True),
    ("float32 at +1 value, 224 B x 56", (1 + 2432 * 4 * 4 * 56 * 56,), torch.float32,
     lambda x: x[1:].view(2432, 4, 4, 56, 56), [0, 2, 1, 3, 4], True),
    ("float32 1020 B", (38, 3, 255, 255), torch.float32, None, [0, 2, 1, 3], True),
    ("bool at +10, 95996 B", (10 + 285 * 4 * 47998 * 2,), torch.bool,
     lambda x: x[10:].view(285, 1, 4, 47998, 1, 2), [2, 1, 0, 3, 5, 4], True),
] + [
    (f"{dtype_id(dtype)} at +{residue} B, {k} values", (residue // dtype.itemsize + 7 * 9 * 5 * k,),
     dtype, (lambda r, k: lambda x: x[r:].view(7, 9, 5, k))(residue // dtype.itemsize, k),
     [0, 2, 1, 3], False)
    for dtype, residues, k in [
        (torch.uint8, range(16), 1001), (torch.bfloat16, range(0, 16, 2), 701),
        (torch.float32, range(0, 16, 4), 345), (torch.float64, (0, 8), 171),
        (torch.complex128, (0,), 87)]
    for residue in residues
] + [
    ("uint8 row slice 1598 of 1605", (9, 11, 1605), torch.uint8, lambda x: x[..., 3:1601], [1, 0, 2],
     False),
    ("bfloat16 transposed view", (6, 40, 30, 401), torch.bfloat16, lambda x: x.transpose(0, 2)[..., :400],
     [0, 2, 1, 3], False),
    ("int16 outer dims at +2 B", (1 + 3 * 4 * 5 * 6 * 345,), torch.int16,
     lambda x: x[1:].view(3, 4, 5, 6, 345), [3, 1, 0, 2, 4], False),
]


# Strided elements of 8- and 16-byte values (a sliced last dim, 16 bytes or more an element)
# forced through realigned 16-byte granules (wide_realigned=1): the H100 sweep's int64
# 24-byte, complex64 120-byte, complex128 16-byte and int64 15-value elements, scaled. The
# bytes equal ATen's; the rule keeps ATen's strided copy there, which the A/B found as fast
# or faster (kernel_choice.cpp).
STRIDED_EIGHT_BYTE_VALUES = [
    ("int64 (12, 135296, 2, 3) sliced from 5", (12, 135296, 2, 5), torch.int64,
     lambda x: x[..., :3], (0, 1)),
    ("complex64 (2, 329145, 1, 15) sliced from 16", (2, 329145, 1, 16), torch.complex64,
     lambda x: x[..., :15], (0, 1)),
    ("complex128 (69, 11541, 3, 2, 1) sliced from 2", (69, 11541, 3, 2, 2), torch.complex128,
     lambda x: x[..., :1], (0, 1)),
    ("int64 (129, 16055, 15) sliced from 16", (129, 16055, 16), torch.int64,
     lambda x: x[..., :15], (0, 1)),
    ("complex64 (1, 64, 300, 28, 28) sliced from 29", (1, 64, 300, 28, 29), torch.complex64,
     lambda x: x[..., :28], (1, 2)),
]


@pytest.mark.parametrize("shape,dtype,view,dims", [c[1:] for c in STRIDED_EIGHT_BYTE_VALUES],
                         ids=[c[0] for c in STRIDED_EIGHT_BYTE_VALUES])
def test_strided_eight_byte_values_move_in_realigned_granules_when_forced(shape, dtype, view, dims):
    development_build_or_skip()
    x = view(random_tensor(shape, dtype, "cuda"))
    expected = x.transpose(*dims).contiguous()
    how = torch_transpose._C._explain_tuned(x, *dims, wide_realigned=1)
    assert how["kernel"].startswith("wide_elements<unit=16, realigned, threads=256,"), how
    rule = torch_transpose.explain(x, *dims)
    assert rule["path"] == "aten_fallback" and "8-byte values" in rule["reason"], rule
    poison_cuda_cache(expected.numel() * expected.element_size())
    assert_bitwise_equal(torch_transpose._C._transpose_tuned(x, *dims, wide_realigned=1), expected)


@pytest.mark.parametrize("shape,dtype,view,perm,named", [c[1:] for c in REALIGNED],
                         ids=[c[0] for c in REALIGNED])
def test_wide_elements_move_in_realigned_granules(shape, dtype, view, perm, named):
    development_build_or_skip()
    x = random_tensor(shape, dtype, "cuda")
    x = view(x) if view else x
    expected = element_aligned(x).permute(perm).contiguous()
    how = torch_transpose._C._explain_permute_tuned(x, perm, wide_realigned=1)
    assert how["path"] == "wide_elements", how
    assert how["kernel"].startswith("wide_elements<unit=16, realigned, threads=256,"), how
    if named or x.data_ptr() % 16 or how["element_size"] % 16:
        rule = torch_transpose.explain_permute(x, perm)
        assert rule["kernel"] == how["kernel"], rule
    for tuning in (dict(wide_realigned=1), dict(wide_realigned=0)):
        poison_cuda_cache(expected.numel() * expected.element_size())
        assert_bitwise_equal(torch_transpose._C._permute_tuned(x, perm, **tuning), expected)
    if named:  # the registered op too, by the rule
        poison_cuda_cache(expected.numel() * expected.element_size())
        assert_bitwise_equal(op.permute(x, perm), expected)
