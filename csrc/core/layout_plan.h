#pragma once
// Layout dispatch: which path a transpose of a given strided tensor takes, and the
// tensor seen as a batch of matrices. Framework-free: it reads sizes, strides, the
// element size and the data address, so every front end shares it.

#include <cstdint>

namespace gputranspose {

enum class TransposePath {
  Empty,            // nothing to move: a zero-size tensor
  Memcpy,           // the input is already laid out in the result's order: one copy, or
                    // one 2-D copy of `rows` rows of element_size bytes row_stride apart
  TiledContiguous,  // (batch of) contiguous row-major matrices, adjacent dims swapped
  TiledRowStrided,  // rows strided (slices, padded pitch, a permutation's dims between
                    // them), unit stride inside a row
  TiledUnits,       // elements of no power-of-two size and no multiple of 16 (3, 6, 12, 24
                    // ... bytes), moved as units of their largest power-of-two divisor
  WideElements,     // elements wider than 16 bytes (the trailing dims that keep their
                    // order): a copy of whole elements into the result's order
  SmallDim,         // a batch of matrices with one side of 2-16 elements (a kernel choice
                    // of a tiled plan: kernel_choice.h)
  BatchedSmall,     // a batch of small matrices back to back on both sides whose rows start
                    // anywhere: a chunk of whole matrices a block (a kernel choice of a
                    // tiled plan: kernel_choice.h)
  ElementRuns,      // elements of odd sizes moved run by run, shifted into place (a kernel
                    // choice of a unit-tiled plan: kernel_choice.h)
  NdTiles,          // tiles over several dims on each side (a kernel choice where the
                    // framework's copy would run: nd_tiles.h, kernel_choice.h)
  AtenFallback,     // anything else: the framework's own copy, correct but not fast
};

const char* path_name(TransposePath path);

// A strided tensor as the planner sees it. `itemsize` is the bytes of one value of a
// dtype the kernels move (1, 2, 4, 8 or 16), or 0 for a dtype they do not.
struct StridedLayout {
  int64_t ndim = 0;
  const int64_t* sizes = nullptr;
  const int64_t* strides = nullptr;  // in values
  int64_t itemsize = 0;
  uintptr_t address = 0;  // of the first value (a tensor without memory: its offset in bytes)
};

// dim0/dim1 after wrapping; `copy_only` for 0-D/1-D inputs with the default dims,
// which return a copy as x.t() does. The front end wraps them (and raises for bad ones).
struct TransposeDims {
  int64_t dim0;
  int64_t dim1;
  bool copy_only;
};

// Batch dims beyond the first that the kernels take (each a grid dim of its own).
constexpr int kMaxOuterDims = 8;

// Tiles over several dims on each side (nd_tiles.h: plan_nd_tiles fills them): where the
// result is no batch of matrices the tiled kernels fill.
constexpr int kMaxNdSideDims = 8;   // dims a tile side takes
constexpr int kMaxNdBatchDims = 40; // batch dims (the kernel's parameters stay under 4 KiB)
constexpr int kMaxNdSide = 128;     // elements a tile side, at most

// Elements a tile side takes for E-byte elements: a tile of at most 32 KiB.
constexpr int64_t nd_side_max(int64_t e) { return e <= 2 ? 128 : e <= 8 ? 64 : 32; }

// A tile side: whole dims, innermost first, and where the next dim does not fit whole, a
// chunk of it as the side's outermost dim (a tile's side then covers chunk of its indices).
struct NdTileSide {
  int dims = 0;
  int64_t sizes[kMaxNdSideDims] = {};       // whole sizes
  int64_t in_strides[kMaxNdSideDims] = {};  // elements
  int64_t out_strides[kMaxNdSideDims] = {};
  int64_t inner = 1;       // elements of the whole dims
  bool chunked = false;    // the outermost dim is chunked
  int64_t chunk = 1;       // its indices a tile
  int64_t chunks = 1;      // tiles along it
  int64_t extent = 1;      // elements of a tile's side: inner x chunk
};

struct NdTilePlan {
  bool applies = false;
  const char* reason = "";  // why not, where it does not apply
  int64_t element_size = 0;
  int64_t value_size = 0;  // the dtype's bytes
  int64_t bytes = 0;
  NdTileSide in_side;   // contiguous in the input: a tile's loads run along it
  NdTileSide out_side;  // contiguous in the output: a tile's stores run along it
  int batch_dims = 0;
  int64_t batch_sizes[kMaxNdBatchDims] = {};
  int64_t batch_in_strides[kMaxNdBatchDims] = {};   // elements
  int64_t batch_out_strides[kMaxNdBatchDims] = {};  // elements
  int64_t batch_count = 1;
  int64_t tiles = 0;  // in_side.chunks x out_side.chunks x batch_count
  int64_t pitch = 0;  // elements between a shared tile's rows (one an output-side index)
  // Tiles a block moves (nd_group_layout: small tiles in groups, so that a block moves
  // about 4 KiB), and its shared memory at that many.
  int64_t tiles_per_block = 1;
  int64_t shared_bytes = 0;
};

// The input seen as a batch of matrices of rows x cols elements whose transposes the result
// holds: input row i of matrix b starts at element b * batch_stride + i * row_stride (strides
// in elements, from the data pointer; its element j at j * col_stride more, col_stride 1
// but for wide and strided elements, whose columns may lie anywhere; where the strides are
// no whole number of elements they count values instead: stride_unit), and its element j
// lands at output element
// b * out_batch_stride + j * out_row_stride + i. Where the result moves more dims than one
// pair, the further batch dims are `outer` ones, each with its input and output stride. The
// planner fuses the result's dims that lie back to back in the input, drops size-1 dims and
// takes the trailing run that keeps its order as the element (element_size bytes, moved
// whole): any layout whose result is such a batch takes the kernels (adjacent dims swapped,
// transposed views, permuted batches, permutations of any rank whose input has a unit-stride
// dim). A plain batch of transposes has out_batch_stride = rows x cols, out_row_stride = rows.
struct TransposePlan {
  TransposePath path = TransposePath::AtenFallback;
  // A static string: planning runs on every call and allocates nothing.
  const char* reason = "";
  int64_t bytes = 0;         // of the whole tensor
  int64_t element_size = 0;  // bytes; 0 where the path does not move elements itself
  int64_t batch = 0;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t batch_stride = 0;      // input, elements
  int64_t row_stride = 0;        // input, elements
  int64_t col_stride = 1;        // input, elements: 1 but for wide or strided elements
  // The bytes one unit of the input's strides (batch, row, col, outer) spans: the element,
  // but a value where elements lie a part of an element apart (TiledUnits, and WideElements
  // whose strides lie on 16 bytes).
  int64_t stride_unit = 0;
  int64_t out_batch_stride = 0;  // output, elements
  int64_t out_row_stride = 0;    // output, elements
  int outer_dims = 0;
  int64_t outer_count = 1;  // the product of the outer sizes
  int64_t outer_sizes[kMaxOuterDims] = {};
  int64_t outer_strides[kMaxOuterDims] = {};      // input, elements
  int64_t outer_out_strides[kMaxOuterDims] = {};  // output, elements
  // How each side's rows start: 16 where every row starts 16-byte aligned (128-bit
  // accesses), 4 where rows start anywhere; 0 off the tiled paths. The kernel choice
  // (kernel_choice.h) picks the access from these.
  int64_t load_bytes = 0;
  int64_t store_bytes = 0;
  int64_t value_size = 0;     // the dtype's bytes (the framework's copy needs pointers on it)
  int64_t in_alignment = 0;   // of the input's data pointer, in bytes (a power of two, <= 256)
  int64_t out_alignment = 0;  // of the output's data pointer, in bytes (a power of two)
  // The same result as tiles over several dims on each side, where they apply (plan_permute
  // fills them for the tiled paths and the framework's copy; the kernel choice takes them
  // where the framework's copy would run).
  NdTilePlan nd;
};

// Elements the unit-tiled kernel takes: up to 682 bytes (an 8 x 8 tile in 48 KiB).
constexpr int64_t kMaxUnitElementBytes = 682;
// The unit of such an element: the largest power of two, up to 8, that divides its size.
int64_t unit_bytes(int64_t element_size);

// The largest power of two, up to 256, that divides `address`.
int64_t pointer_alignment(uintptr_t address);

// Whether a side's data pointer (or its alignment) and its batch and outer strides (in
// elements of `plan`) all lie on 16 bytes: every matrix of that side starts 16-byte aligned.
bool batches_aligned_16(uintptr_t address, const TransposePlan& plan, int64_t batch_stride,
                        const int64_t* outer_strides);

// `out_alignment`: the alignment in bytes of the output's data pointer (a fresh
// allocation is 256-byte aligned; an out= buffer may be less).
TransposePlan plan_transpose(const StridedLayout& x, const TransposeDims& dims,
                             int64_t out_alignment = 256);

// Dims a layout may have: the planners' arrays live on the stack (planning allocates nothing).
constexpr int kMaxDims = 64;

// x.permute(order)'s dims in the result's order, each with the input's stride (values), size-1
// dims dropped and neighbours fused where they lie back to back in the input too; returns
// their count (at most x.ndim <= kMaxDims).
int fuse_result_dims(const StridedLayout& x, const int64_t* order, int64_t* sizes,
                     int64_t* strides);

// The plan of x.permute(order).contiguous(): `order` holds x.ndim distinct input dims,
// result dim i being input dim order[i] (wrapped and checked by the front end).
TransposePlan plan_permute(const StridedLayout& x, const int64_t* order,
                           int64_t out_alignment = 256);

}  // namespace gputranspose
