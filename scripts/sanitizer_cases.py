"""A compact run of every CUDA path and kernel variant, for compute-sanitizer
(scripts/sanitize): each element size x {16-byte, word-shifted or staged}
loads x {16-byte, skewed word} stores, edge tiles, batches (several small
matrices a tile), sides of 2-16 elements (the small-dim kernel), adjacent dims other than the last two (elements of the trailing
dims, wide ones and odd-sized ones too), permutations (outer batch dims on the grid's y and z, wide elements
among them), the memcpy / empty / fallback paths and out=. Checks every
result against ATen; exits non-zero on a mismatch. The tuning options (a development
build's) take the kernels a different device would run: --help lists them.
    python3 scripts/sanitizer_cases.py [NAME ...]   only the cases whose names contain one"""

import argparse
import math
import os
import sys

import torch

import torch_transpose

# Tensors off their value's alignment, and ATen's reference for them: the tests' helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from helpers import at_byte_offset, element_aligned  # noqa: E402

op = torch.ops.gputranspose
DTYPES = [torch.uint8, torch.bfloat16, torch.float32, torch.float64, torch.complex128]
# Aligned shapes with more tiles than fit on the GPU at once, by element size, so that 1- and
# 16-byte elements take wide tiles, not small ones (other sizes have no small tiles).
WIDE_TILE_SHAPES = {1: (2, 4000, 4096), 16: (2048, 1056)}


def random_bytes(shape, dtype):
    n = torch.empty((), dtype=dtype).element_size() * math.prod(shape)
    return torch.randint(0, 256, (n,), dtype=torch.uint8, device="cuda").view(dtype).view(shape)


def cases(dtype):
    wide = WIDE_TILE_SHAPES.get(dtype.itemsize, (256, 256))
    yield "aligned", random_bytes((256, 256), dtype)
    if dtype.itemsize in WIDE_TILE_SHAPES:  # small tiles above, wide ones here
        yield "aligned, wide tiles", random_bytes(wide, dtype)
    yield "odd pitch (word loads)", random_bytes((256, 259), dtype)[:, :-3]
    yield "odd rows (word stores)", random_bytes((255, 256), dtype)
    yield "odd both", random_bytes((255, 257), dtype)
    yield "storage offset", random_bytes((1 + 129 * 131,), dtype)[1:].view(129, 131)
    # Columns that cut the last micro-block, under aligned output rows: contiguous (staged
    # or word loads), and a view of 16-byte aligned rows in storage that ends at its last
    # element (a cut word of the last row must stop there).
    yield "odd cols, aligned output rows", random_bytes((272, 261), dtype)
    pitch = 528
    cut = random_bytes((271 * pitch + pitch - 3,), dtype).as_strided((272, pitch - 3), (pitch, 1))
    yield "odd cols of aligned rows", cut
    # 16-byte aligned rows whose first byte is not on a 128-byte line: the aligned kernels
    # release each input line's L2 priority from the line's start, before the tensor's.
    skip = 16 // dtype.itemsize
    yield "aligned, 16 bytes into a line", random_bytes((skip + math.prod(wide),), dtype)[skip:].view(wide)
    # Rows 128 KiB apart: the blocks walk the tile columns interleaved, an odd
    # number of them here, and the last column cut.
    row = (128 << 10) // dtype.itemsize
    yield "rows 128 KiB apart", random_bytes((33, row), dtype)[:, :-(row // 5)]
    # Matrices one element apart in storage that ends at the last one's last row: the
    # earlier matrices' last rows end within a 16-byte chunk of the input's end too, and
    # their unaligned loads (staged chunks, shifted words) must stop there as well.
    offset = 4  # the rows' last chunks reach 10-13 bytes past the end
    size, stride = (3, 256, 256), (1, 259, 1)
    storage = random_bytes((offset + 2 + 255 * 259 + 256,), dtype)
    yield "overlapping batches", storage.as_strided(size, stride, offset)
    # Rows that start anywhere under output rows of 16384 elements or more: tall tiles for
    # 1-, 4- and 8-byte elements, and for 2-byte ones where they are staged (the small-L2
    # passes; has_tall_tile, tall_tiles), the last tile-row cut.
    yield "long output rows", random_bytes((16416, 37), dtype)[:, 1:]
    yield "edge tiles", random_bytes((3, 33, 65), dtype)
    yield "small matrices (folded tiles)", random_bytes((5, 32, 48), dtype)
    yield "small padded matrices", random_bytes((5, 32, 64), dtype)[..., :47]
    yield "skinny", random_bytes((1000, 3), dtype)
    # A side of 2-16 (the small-dim kernel for elements of up to 8 bytes): short input
    # rows, and short output rows with the long side cut short of a whole vector.
    yield "short input rows", random_bytes((4096, 3), dtype)
    yield "short output rows, cut", random_bytes((5, 4096 + 16), dtype)[:, :4097]
    yield "short input rows, long rows anywhere", random_bytes((8195, 3), dtype)
    yield "short input rows, long rows anywhere, batch", random_bytes((3, 8195, 16), dtype)
    yield "short output rows, long rows anywhere, batch", random_bytes((3, 16, 8195), dtype)
    # Short rows' spans off 16 bytes (staged in units): batches, and one matrix at an offset.
    yield "short input rows, span off 16, batch", random_bytes((3 * 24601 + 1,), dtype).as_strided((3, 8200, 3), (24601, 3, 1))
    yield "short output rows, span off 16, batch", random_bytes((3 * 41006,), dtype).as_strided((3, 5, 8201), (41006, 8201, 1))
    yield "short input rows, span off 16, one matrix", random_bytes((1 + 4096 * 3,), dtype)[1:].view(4096, 3)
    # Small matrices back to back, rows anywhere: the batched-small kernel's chunks of whole
    # matrices, the last one short, at an offset.
    yield "batched small, 3 x 7", random_bytes((2001, 3, 7), dtype)
    yield "batched small, 34 x 35 at an offset", random_bytes((1 + 301 * 34 * 35,), dtype)[1:].view(301, 34, 35)
    yield "batched small, rows apart", random_bytes((301, 5, 40), dtype)[:, :, 1:38]
    yield "short input rows a pitch apart", random_bytes((9001, 21), dtype)[:, 2:7]
    yield "memcpy", random_bytes((64, 40), dtype).t()
    yield "fallback", random_bytes((64, 64), dtype)[:, ::2]
    yield "empty", random_bytes((0, 64), dtype)


def adjacent_dims_cases():
    """Adjacent dims other than the last two: the trailing dims make the element."""
    yield "4-byte elements", random_bytes((67, 129, 4), torch.uint8), (0, 1)
    yield "16-byte elements, odd pitch", random_bytes((67, 131, 2, 2), torch.float32)[:, :-2], (0, 1)
    yield "wide elements (heads)", random_bytes((2, 67, 13, 64), torch.bfloat16), (1, 2)
    yield "48-byte elements", random_bytes((3, 129, 7, 24), torch.float16), (1, 2)
    yield "wide elements, strided rows", random_bytes((6, 40, 10, 16), torch.float32)[:, 5:-3], (1, 2)
    yield "wide, 70000 output rows", random_bytes((35000, 2, 2, 8), torch.float32), (1, 2)
    yield "wide, rows mid-line, gaps", random_bytes((3, 70, 5, 72), torch.float16)[:, :, 1:], (1, 2)
    yield "3-byte units", random_bytes((67, 129, 3), torch.uint8), (0, 1)
    yield "6-byte elements, sliced", random_bytes((67, 131, 3), torch.int16)[:, 2:], (0, 1)
    yield "12-byte elements", random_bytes((130, 67, 3), torch.float32), (0, 1)
    yield "6-byte elements at an odd address", random_bytes((1 + 67 * 129 * 6,), torch.uint8)[1:].view(67, 129, 6), (0, 1)
    yield "600-byte elements (8 x 8 tiles)", random_bytes((20, 30, 600), torch.uint8), (0, 1)
    yield "strided elements, 2-byte units", random_bytes((4, 96, 40, 30), torch.uint8)[..., :14], (1, 2)
    yield "strided elements, 1-byte units", random_bytes((2, 70, 64, 23), torch.uint8)[..., 2:9], (1, 2)
    yield "strided elements, column step", random_bytes((67, 192), torch.float32)[:, ::3], (0, 1)
    yield "strided elements, runs of 3", random_bytes((40, 300, 19), torch.float64)[..., :3], (0, 1)
    yield "strided elements, outer dim", random_bytes((5, 40, 6, 64, 12), torch.bfloat16)[..., :10], (1, 3)
    # 1- and 2-byte units move as 4-byte words: rows at every address mod 4, 16 x 16 tiles of
    # 46-byte elements, strided 3-byte elements under an outer dim.
    yield "7-byte words at an odd address", random_bytes((1 + 67 * 129 * 7,), torch.uint8)[1:].view(67, 129, 7), (0, 1)
    yield "46-byte elements in 2-byte units", random_bytes((50, 40, 23), torch.int16), (0, 1)
    yield "strided elements, 3-byte words, outer dim", random_bytes((3, 63, 4, 97, 7), torch.uint8)[..., 1:4], (1, 3)
    # Tiles of about 16 KiB: 64 x 64 tiles of 3-byte words (more rows a warp than a pass of
    # its edges), a short side of 24 whole.
    yield "3-byte words, 64 x 64 tiles", random_bytes((40, 256, 256, 3), torch.uint8), (1, 2)
    yield "3-byte words, a short side whole", random_bytes((24, 40000, 3), torch.uint8), (0, 1)
    # Input rows of a few words: several rows a warp's pass, a group of lanes each.
    yield "3-byte words, short input rows", random_bytes((40000, 7, 3), torch.uint8), (0, 1)
    # Strided elements of 64 bytes and more in 1-byte units: run by run, shifted into place.
    yield "element runs, 201 bytes", random_bytes((65, 300, 256), torch.uint8)[..., :201], (0, 1)
    yield "element runs, 201 bytes at an odd address", random_bytes((1 + 65 * 300 * 256,), torch.uint8)[1:].view(65, 300, 256)[..., 2:203], (0, 1)
    yield "element runs, 255 bytes", random_bytes((40, 33, 300), torch.uint8)[..., 3:258], (0, 1)
    yield "element runs, outer dim", random_bytes((3, 40, 7, 33, 128), torch.int8)[..., :101], (1, 3)
    # 1- and 2-byte elements in matrices too narrow for the tiled kernel's tiles, rows that
    # start anywhere: elements of one unit in the unit-tiled kernel (short tail tiles, a
    # transposed view, sliced rows).
    yield "one-unit bytes, a side of 20", random_bytes((20011, 20), torch.uint8), (0, 1)
    yield "one-unit bytes, sliced rows", random_bytes((20011, 24), torch.uint8)[:, :20], (0, 1)
    yield "one-unit bytes, a transposed view", random_bytes((1, 1777, 113, 20), torch.uint8).transpose(2, 3), (1, 2)
    yield "one-unit halves, a side of 27", random_bytes((19010, 27), torch.int16), (0, 1)
    # 16-byte elements whose matrices leave the tiled kernel's tiles mostly empty: the
    # wide-element kernel, 32 output rows a tile (a side of 16, a transposed view, an outer dim).
    yield "16-byte wide, a side of 16", random_bytes((16, 16, 589), torch.complex128), (1, 2)
    yield "16-byte wide, a transposed view", random_bytes((20, 998, 2, 4), torch.complex128).transpose(2, 3), (1, 2)
    yield "16-byte wide, sliced rows", random_bytes((9, 14, 4001), torch.complex128)[..., :4000], (1, 2)
    # Pitches that cut an element (input strides in values), data pointers off the element.
    yield "wide elements, pitch cutting the element", random_bytes((96 * 50 * 72,), torch.float16).as_strided((96, 50, 64), (3600, 72, 1)), (0, 1)
    yield "units, pitch cutting the element", random_bytes((40 * 8820,), torch.int64).as_strided((40, 30, 14, 14), (8820, 294, 21, 1)), (0, 1)
    yield "bfloat16 at an odd address", at_byte_offset(random_bytes((129, 131), torch.bfloat16), 1), (0, 1)
    yield "float32 2 bytes off, 640-byte elements", at_byte_offset(random_bytes((20, 30, 160), torch.float32), 2), (0, 1)
    # Wide elements over 682 bytes in units of 8, 4, 2 and 1 byte.
    yield "wide units of 8, 1600-byte elements 8 bytes off", at_byte_offset(random_bytes((40, 30, 200), torch.float64), 8), (0, 1)
    yield "wide units of 4, 1020-byte elements", random_bytes((6, 3, 255, 255), torch.float32), (1, 2)
    yield "wide units of 2, 1568-byte elements 2 bytes off", at_byte_offset(random_bytes((2, 64, 20, 28, 28), torch.bfloat16), 2), (1, 2)
    yield "wide units of 1, 700-byte elements 701 apart", random_bytes((30, 40, 701), torch.uint8)[..., :700], (0, 1)
    # Wide elements off 16 bytes in realigned 16-byte granules (the rule's choice there):
    # every input residue mod 16 against an aligned output, odd sizes, row slices.
    yield "realigned wide elements, 1020-byte float32", random_bytes((6, 3, 255, 255), torch.float32), (1, 2)
    yield "realigned wide elements, 2691-byte int8 at +7", at_byte_offset(random_bytes((3, 5, 7, 2691), torch.uint8), 7), (1, 2)
    yield "realigned wide elements, 1598 of 1605 bytes", random_bytes((9, 11, 1605), torch.uint8)[..., 3:1601], (0, 1)
    # Strided elements of 8- and 16-byte values (a sliced last dim; realigned only by the
    # override, --wide-realigned 1): 24-byte int64 runs (a full granule and an 8-byte part
    # each), 120-byte complex64 ones, 16-byte complex128 ones.
    yield "realigned strided elements, int64 sliced to 3 of 5", random_bytes((12, 3001, 2, 5), torch.int64)[..., :3], (0, 1)
    yield "realigned strided elements, complex64 sliced to 15 of 16", random_bytes((2, 4001, 1, 16), torch.complex64)[..., :15], (0, 1)
    yield "realigned strided elements, complex128 sliced to 1 of 2", random_bytes((9, 1541, 3, 2, 2), torch.complex128)[..., :1], (0, 1)
    # Rows a pitch apart in the result's order: the batched-small kernel's 1 x n matrices.
    yield "pitched rows, a size-1 dim swapped", random_bytes((40, 300, 1, 51), torch.bfloat16)[..., :50], (1, 2)
    yield "pitched rows, 1000 of 1003 bytes", random_bytes((300, 1, 1003), torch.uint8)[..., 2:1002], (0, 1)
    yield "pitched rows, bfloat16 at an odd address", at_byte_offset(random_bytes((301, 1, 51), torch.bfloat16), 1)[..., :50], (0, 1)


def permutation_cases():
    """Permutes whose plans have outer batch dims (the grid's y and z) or strided outputs."""
    yield "3-D reversal", random_bytes((67, 33, 129), torch.float32), [2, 1, 0]
    yield "4-D reversal, odd pitch", random_bytes((9, 10, 67, 131), torch.uint8)[..., :-2], [3, 2, 1, 0]
    yield "5-D shuffle, 2-byte", random_bytes((5, 6, 33, 7, 65), torch.bfloat16), [4, 2, 0, 3, 1]
    yield "all-2 reversal", random_bytes((2,) * 16, torch.uint8), list(range(15, -1, -1))
    yield "wide elements, outer dims", random_bytes((3, 4, 33, 5, 64), torch.float16), [1, 3, 2, 0, 4]
    yield "realigned wide elements, float8 permuted view", random_bytes((2, 37, 2, 2691), torch.float8_e5m2).permute(2, 0, 1, 3).contiguous().permute(1, 2, 0, 3), [2, 1, 0, 3]
    yield "realigned wide elements, 1-byte values at +10", at_byte_offset(random_bytes((5, 1, 4, 479, 1, 2), torch.uint8), 10), [2, 1, 0, 3, 5, 4]
    yield "NCHW to NHWC, 3 channels", random_bytes((4, 3, 65, 67), torch.float32), [0, 2, 3, 1]
    yield "NCHW to NHWC, 3 aligned planes", random_bytes((4, 3, 64, 64), torch.uint8), [0, 2, 3, 1]
    yield "NHWC to NCHW, 3 channels", random_bytes((4, 64, 64, 3), torch.bfloat16), [0, 3, 1, 2]
    yield "short rows, outer dims", random_bytes((4, 6, 96, 5), torch.float32), [1, 3, 0, 2]
    # Tiles over several dims on each side (what ATen's copy would run): reversals beyond the
    # plan's batch dims, a 3-D reversal with a side of 3 (the output side chunked), a 4-D
    # move of short dims, 16-byte elements.
    # Tensors of a tile an SM or more (the kernel choice keeps ATen's copy for fewer).
    yield "nd tiles, all-3 reversal", random_bytes((3,) * 12, torch.float32), list(range(11, -1, -1))
    yield "nd tiles, 3-D reversal, a side of 3", random_bytes((3, 7544, 165), torch.uint8), [2, 1, 0]
    yield "nd tiles, 4-D move", random_bytes((5, 5, 122, 1132), torch.bfloat16), [1, 3, 2, 0]
    # Short sides (flattened phases) and small tiles (several a block; by --nd-tiles 1 where
    # the rule keeps ATen's copy): output rows of 7 bytes, input rows of 2 values, a
    # transposed view's 16 x 24-byte tiles, 14 x 14 2-byte ones.
    yield "nd tiles, output rows of 7 bytes", random_bytes((7, 63, 13, 550, 5, 9), torch.uint8), [2, 1, 3, 5, 4, 0]
    yield "nd tiles, input rows of 2 values", random_bytes((65, 7291, 3, 2), torch.bfloat16), [1, 0, 3, 2]
    yield "nd tiles, 16 x 24-byte tiles", random_bytes((31, 58, 9, 24, 16), torch.uint8).transpose(3, 4), [0, 2, 1, 3, 4]
    yield "nd tiles, 14 x 14 tiles", random_bytes((6, 32, 32, 14, 14), torch.float16).transpose(3, 4), [0, 2, 1, 3, 4]
    # 2-D tiles in place of the tiled kernel's word stores (rows of 21 floats, past the L2
    # by --l2-bytes, or forced by --nd-tiles 1).
    yield "nd tiles, 2-D, rows of 21 floats", random_bytes((2, 1, 21, 30011), torch.float32), [0, 1, 3, 2]
    yield "nd tiles, 16-byte elements", random_bytes((2,) * 18, torch.complex128), list(range(17, -1, -1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="only the cases whose names contain one of these")
    parser.add_argument("--tile-group-rows", type=int, default=0,
                        help="tile-rows walked together (0: the kernel choice's)")
    parser.add_argument("--l2-bytes", type=int, default=0, help="take the L2 as this many bytes")
    parser.add_argument("--memory-bytes-per-s", type=float, default=0.0,
                        help="take the memory as this fast (2-byte rows past L2 are staged under 4e12)")
    parser.add_argument("--fallback", type=int, choices=[-1, 0, 1], default=-1,
                        help="tiles the tensor barely fills: 0 the tiled kernel, 1 ATen (-1: the rule's)")
    parser.add_argument("--wide-realigned", type=int, choices=[-1, 0, 1], default=-1,
                        help="realigned 16-byte granules: 1 wherever they apply, 0 never (-1: the rule's)")
    parser.add_argument("--nd-tiles", type=int, choices=[-1, 0, 1], default=-1,
                        help="tiles over several dims: 1 wherever planned, 0 never (-1: the rule's)")
    args = parser.parse_args()
    tuning = dict(tile_group_rows=args.tile_group_rows, l2_bytes=args.l2_bytes,
                  memory_bytes_per_s=args.memory_bytes_per_s)
    if args.fallback >= 0:
        tuning["fallback"] = args.fallback
    if args.wide_realigned >= 0:
        tuning["wide_realigned"] = args.wide_realigned
    if args.nd_tiles >= 0:
        tuning["nd_tiles"] = args.nd_tiles
    tuned = any(tuning.values()) or any(k in tuning for k in ("fallback", "wide_realigned", "nd_tiles"))
    if tuned and not torch_transpose._C.development_build():
        sys.exit("tuning needs a development build (GPUTRANSPOSE_DEVELOPMENT=1)")
    seen, bad = 0, []
    all_cases = [(name, x, (-2, -1)) for dtype in DTYPES for name, x in cases(dtype)]
    all_cases += list(adjacent_dims_cases())
    if args.names:
        all_cases = [case for case in all_cases if any(name in case[0] for name in args.names)]
    for name, x, dims in all_cases:
        expected = element_aligned(x).transpose(*dims).contiguous()
        if tuned:
            got = torch_transpose._C._transpose_tuned(x, *dims, **tuning)
            how = torch_transpose._C._explain_tuned(x, *dims, **tuning)
        else:
            got = op.transpose(x, *dims)
            how = torch_transpose.explain(x, *dims)
        out = torch.empty(expected.shape, dtype=x.dtype, device="cuda")
        op.transpose.out(x, *dims, out=out)
        expected = expected.view(-1).view(torch.uint8)
        seen += 1
        if not (torch.equal(got.view(-1).view(torch.uint8), expected)
                and torch.equal(out.view(-1).view(torch.uint8), expected)):
            bad.append((str(x.dtype), name))
        print(f"{str(x.dtype):16} {name:30} {how['path']:18} {how['kernel'] or ''}", flush=True)
    for name, x, perm in permutation_cases():
        if args.names and not any(n in name for n in args.names):
            continue
        expected = x.permute(perm).contiguous().view(-1).view(torch.uint8)
        if tuned:
            got = torch_transpose._C._permute_tuned(x, perm, **tuning)
            how = torch_transpose._C._explain_permute_tuned(x, perm, **tuning)
        else:
            got = op.permute(x, perm)
            how = torch_transpose.explain_permute(x, perm)
        seen += 1
        if not torch.equal(got.view(-1).view(torch.uint8), expected):
            bad.append((str(x.dtype), name))
        print(f"{str(x.dtype):16} {name:30} {how['path']:18} {how['kernel'] or ''}", flush=True)
    torch.cuda.synchronize()
    print(f"{seen} cases, {len(bad)} wrong {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
