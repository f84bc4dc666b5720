#pragma once
// The tiled transpose kernel, templated on what it moves, never on the dtype:
//   E       element size in bytes (1, 2, 4, 8, 16)
//   LOAD    how input rows are read:    Access::Aligned16, Words or Staged
//   STORE   how output rows are written: Access::Aligned16 or Words
//   TILING  the tile: one matrix's (Tiling::Wide, or Small where all its tiles
//           fit on the GPU at once, or Tall where unaligned rows' output rows are
//           long: has_tall_tile), or several whole small matrices' (Folded)
//   L2      the L2 priority of the input's lines: InputL2::Normal, or EvictLast
//           (released by the last tiles) for aligned loads (and 8-byte word loads)
//           of one-matrix tiles of inputs past L2 (reads_evict_last)
// The tile (TileShape<E>, one per kind of kernel) is TR x TC input elements;
// its transpose is staged in shared memory. The launcher (transpose_cuda.cu)
// picks the instance.
//
// Phase 1: each thread takes a micro-block of M = 16 / E rows and one piece of
// each (TileShape::piece bytes: 16 for E >= 4, one 32-bit word for 1-byte
// elements, so that a 1-byte tile has 256 threads, not 64; 8 bytes for staged skewed
// 2-byte rows, TiledTranspose::PIECE). Where rows start
// 16-byte aligned, a piece is one aligned load (Aligned16). Where rows start
// anywhere (an odd pitch, a storage offset), either each piece is read as the
// widest aligned words that hold it (Words: 8- or 4-byte loads for E >= 4,
// 32-bit words funnel-shifted into place for E = 2), or (Staged, for 1-byte
// elements, and 2-byte ones where the launcher's stages_2_byte_rows says) the
// block first copies the aligned 16-byte chunks that hold its rows into a
// staging area of shared memory (cp.async: 128-bit, coalesced, no registers)
// and shifts each piece out of the two staged words that hold it.
// It transposes the micro-block in registers (word moves for E >= 4, byte
// permutes for 1- and 2-byte elements) and stores its columns as 16-byte rows
// of the output tile in shared memory.
// Phase 2: after one barrier the block writes the output tile row by row, as
// 128-bit stores (Aligned16), or, where output rows start anywhere (Words), as
// aligned 16-byte chunks shifted out of two 16-byte units of shared memory.
// Consecutive lanes always touch consecutive addresses on both global sides.
//
// Skewed tiles (Words stores): a tile loads TR input rows but writes only
// STEP_R = TR - LEAD_R of them per output row, chosen per row so that its
// writes are whole aligned 16-byte chunks starting at a SKEW_BYTES boundary (a
// 32-byte sector where loads are aligned, 16 bytes otherwise): its load window
// starts LEAD_R = SKEW_BYTES / E rows above its write window, which slides up by
// the row's misalignment (< LEAD_R elements). Neighbouring tiles therefore never
// share a chunk, or with 32-byte skews a sector (no partial or byte stores but
// at the matrix's edges, no divergence), at the price of re-reading LEAD_R of
// every TR rows (from L2: the tile above has just read them).
//
// Shared memory is XOR-swizzled in 16-byte units, the unit index flipped by the
// micro-block's column, so that neither the scattered phase-1 stores nor the
// row-wise phase-2 loads hit one bank twice within a wavefront (padding alone
// cannot do that for 16-byte accesses).
//
// Blocks walk the tiles in groups of `group_rows` tile-rows (down a group, then across;
// by default a group is a whole column of tiles, the launcher's tile_group_rows), so
// that the blocks in flight cover a compact patch of both input and output. Where
// input rows lie an odd multiple of 128 KiB apart the columns are interleaved (0, h, 1,
// h + 1, ... for h = half the tile columns, `interleave_half`): the few columns in
// flight at once then lie half a row apart, not side by side (v34).

#include <cstdint>
#include <cstring>

#include "fast_divider.h"
#include "l2_priority.cuh"

namespace gputranspose {
namespace cuda {

// blockIdx.x read anew, a value the compiler cannot take for an earlier read's: what is
// worked out from it again after a tile's stores is not held in registers through them.
__device__ __forceinline__ uint32_t block_index() {
  uint32_t block;
  asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(block));
  return block;
}

// Which tile a kernel takes; the launcher picks it per shape.
enum class Tiling {
  Wide,    // one matrix per tile (TileShape's aligned, word_loaded or skewed tiles)
  Small,   // one matrix per tile, for aligned 1- and 16-byte matrices whose tiles all
           // fit on the GPU at once, so that one tile's latency bounds them: 1-byte
           // tiles TileShape::small, twice as many as wide ones (v18, GPU time:
           // uint8 1024^2 -17%, 2048^2 -11%, 65536x64 -12%, 64x65536 -5%, 4096^2 -3%;
           // 2-byte ones -5 to +5%, so not for them); 16-byte tiles at four blocks per
           // SM, not three, so that 1024^2's 512 tiles run in one wave (-4 to -6%; at
           // four blocks per SM large shapes ran 0.1-0.5% slower, so only here)
  Folded,  // several whole small matrices per tile (FoldedTile), TileShape::small
  Tall,    // one matrix per tile, TileShape::tall: rows that start anywhere under aligned
           // stores (the kernels of has_tall_tile), where the output's rows are long
           // (the launcher's tall_tiles)
};

enum class Access {
  Aligned16,  // every row starts 16-byte aligned: one 128-bit access per 16 bytes
  Words,      // rows start anywhere: the widest aligned words, shifted into place
  Staged,     // (loads) rows start anywhere: aligned 16-byte chunks staged in
              // shared memory, shifted into place from there
};

// The L2 priority of the input's lines (one-matrix tiles only).
enum class InputL2 {
  Normal,     // plain loads
  EvictLast,  // evict_last loads, released by the tiles that read the input's last
              // half an L2 of lines, after their stores (below; reads_evict_last
              // says which kernels)
};

template <int N>
struct Bytes;
template <>
struct Bytes<1> {
  using type = uint8_t;
};
template <>
struct Bytes<2> {
  using type = uint16_t;
};
template <>
struct Bytes<4> {
  using type = uint32_t;
};
template <>
struct Bytes<8> {
  using type = uint2;
};
template <>
struct Bytes<16> {
  using type = uint4;
};

// N 32-bit words of one row (a piece), aligned to their size.
template <int N>
struct alignas(4 * N) Words {
  uint32_t w[N];
};
using Segment = Words<4>;  // 16 bytes

// A tile's extent: `rows` x `cols` input elements (rows and columns of at least
// 128 bytes: a cache line, the swizzle's period).
struct TileExtent {
  int rows;
  int cols;
  // Tiling::Tall's tile from a wide one: twice as tall and half as wide, as many bytes.
  constexpr TileExtent taller() const { return {2 * rows, cols / 2}; }
};

// The tiles per element size, one per kind of kernel (TiledTranspose picks it):
//   small         small and folded tiles (Tiling), 16 KiB; 32 KiB for 16-byte
//                 elements, whose 1 KiB output rows measured faster (v12)
//   aligned       both sides aligned, one matrix (or staged 1-byte loads):
//                 input rows read 256 bytes at a time at least (v15: bfloat16
//                 3-6%, uint8 up to 3%; v16: staged uint8 slices 2.5%, their
//                 boundary chunk one in 17, not 9)
//   word_loaded   word-shifted loads, aligned stores: 256 bytes or more, for the
//                 same reason (v16: slices of bfloat16 5%, float32 1.2%, float64
//                 and complex64 1.7%); 2-byte ones 64 x 256, 512 bytes with one
//                 micro-block a thread (v26: slices 1%, L2 read sectors -5%;
//                 128 x 256, two a thread at 116 registers: v16, 12% slower)
//   skewed        skewed stores (below), aligned or staged loads: twice as tall,
//                 since a skewed tile re-reads 16 or 32 bytes of each column (v13:
//                 8191x8192 uint8 12% faster; v14: bfloat16 3.8%, float32 1.4%);
//                 2-byte ones 256 bytes wide too (v15: 8191x8192 bfloat16 1.5% in
//                 64 KiB; uint8 6% slower)
//   staged_loaded  staged loads, aligned stores: 1-byte ones the aligned tile; 2-byte
//                 ones (stages_2_byte_rows) 256-byte runs on both sides (v77)
//   skewed_past_l2  skewed stores with aligned loads, past L2 (at evict_last): the
//                 skewed tile, but 1-byte ones 256 bytes wide rather than tall (v75)
//   tall          Tiling::Tall, rows that start anywhere under aligned stores,
//                 output rows of 16384 elements or more (has_tall_tile): twice as
//                 tall and half as wide as staged_loaded (1- and 2-byte) or
//                 word_loaded (4- and 8-byte), so output runs twice as long (v78:
//                 32768x4097 uint8 3.4% and float32 4.6% faster, 16384x16401[:, :-17]
//                 1.0% and 1.2%; 8192-row ones 0.3-0.4% slower; v79: 32768x4097
//                 bfloat16 3.5%, float64 3.8%, 16384x16401[:, :-17] 0.4% and 1.5%)
//   word_skewed   skewed stores, word-shifted loads (and staged 2-byte ones,
//                 stages_2_byte_rows in transpose_cuda.cu, as word_loaded above
//                 for aligned stores): input runs start anywhere,
//                 so wider runs read fewer extra L2 sectors (128 bytes: 5 sectors
//                 for 4 of data; 256: 9 for 8; 512: 17 for 16), worth more than
//                 the rows a shorter tile re-reads (v26: 2-byte 128 x 128,
//                 8191x8193 bfloat16 4% faster; 8-byte 64 x 64, float64 1.0%,
//                 complex64 1.2%; 4-byte 128 x 128 needs 64 KiB and loses a
//                 block per SM: 2.4% slower)
// 16-byte elements' output rows are always aligned (never skewed), and 1-byte
// rows that start anywhere are staged, never word-shifted (Access), so those
// element sizes leave some of these tiles unused.
// `piece` is the bytes of each input row that one thread takes in phase 1: one
// 32-bit word for 1-byte elements, so that their tile has 256 threads rather than
// 64 (v13: odd sizes 27% faster); 16 bytes otherwise (a word lost for 2-byte
// elements: 13-17% slower on unaligned rows; staged skewed 2-byte tiles take 8 bytes,
// TiledTranspose::PIECE).
template <int E>
struct TileShape {  // 4- to 16-byte elements
  static_assert(E == 4 || E == 8 || E == 16, "element size");
  static constexpr int piece = 16;
  static constexpr TileExtent small = {64, E == 4 ? 64 : 32};
  static constexpr TileExtent aligned = small;
  static constexpr TileExtent word_loaded = {64, E == 16 ? 32 : 512 / E};
  static constexpr TileExtent staged_loaded = word_loaded;  // (never staged)
  static constexpr TileExtent tall = word_loaded.taller();  // (no tall 16-byte kernel)
  static constexpr TileExtent skewed = {E == 16 ? 64 : 128, small.cols};
  static constexpr TileExtent skewed_past_l2 = skewed;
  static constexpr TileExtent word_skewed = E == 8 ? TileExtent{64, 64} : skewed;
};
template <>
struct TileShape<1> {  // unaligned 1-byte rows are staged, never read as words
  static constexpr int piece = 4;
  static constexpr TileExtent small = {128, 128};
  static constexpr TileExtent aligned = {128, 256};
  static constexpr TileExtent word_loaded = small;
  static constexpr TileExtent staged_loaded = aligned;
  static constexpr TileExtent skewed = {256, 128};
  static constexpr TileExtent word_skewed = skewed;
  static constexpr TileExtent tall = staged_loaded.taller();
  // Skewed stores with aligned loads past L2 (at evict_last): 256-byte input runs, as
  // the aligned tile's, for twice the re-read rows (25%, not 12.5%; v75: 8191x8192
  // uint8 1.6% faster, 16383x16384 1.7%).
  static constexpr TileExtent skewed_past_l2 = {128, 256};
};
template <>
struct TileShape<2> {
  static constexpr int piece = 16;
  static constexpr TileExtent small = {128, 64};
  static constexpr TileExtent aligned = {128, 128};
  static constexpr TileExtent word_loaded = {64, 256};
  // Staged loads (stages_2_byte_rows), aligned stores: 256-byte runs on both sides rather
  // than word_loaded's 512 in and 128 out (v77: bfloat16 16384x16401[:, :-17] 2.4% faster).
  static constexpr TileExtent staged_loaded = {128, 128};
  static constexpr TileExtent skewed = {256, 128};
  static constexpr TileExtent skewed_past_l2 = skewed;
  static constexpr TileExtent word_skewed = {128, 128};
  static constexpr TileExtent tall = staged_loaded.taller();  // staged loads only (has_tall_tile)
};

// out[j] = column j of the M x (4W / E) block whose rows are in[0..M), M = 16 / E.
template <int E, int W>
__device__ __forceinline__ void transpose_micro_block(const Words<W> (&in)[16 / E],
                                                      Segment (&out)[4 * W / E]) {
  constexpr int M = 16 / E;
  constexpr int COLS = 4 * W / E;
  if constexpr (E >= 4) {
    constexpr int EW = E / 4;  // words per element: pure register renaming
#pragma unroll
    for (int j = 0; j < COLS; ++j)
#pragma unroll
      for (int i = 0; i < M; ++i)
#pragma unroll
        for (int h = 0; h < EW; ++h) out[j].w[i * EW + h] = in[i].w[j * EW + h];
  } else if constexpr (E == 2) {
    // Word w of column j: half (j % 2) of word j / 2 of rows 2w and 2w + 1.
#pragma unroll
    for (int j = 0; j < COLS; ++j)
#pragma unroll
      for (int w = 0; w < 4; ++w)
        out[j].w[w] = __byte_perm(in[2 * w].w[j / 2], in[2 * w + 1].w[j / 2],
                                  (j % 2) ? 0x7632 : 0x5410);
  } else {
    static_assert(E == 1, "element size");
    // Word w of column j: byte (j % 4) of word j / 4 of rows 4w .. 4w + 3. Each 4 x 4
    // block of bytes in two rounds of byte permutes, eight in all rather than twelve:
    // rows 4w, 4w + 1 (and 4w + 2, 4w + 3) interleaved byte by byte, then those pairs
    // half by half (v37: staged kernels 0.7-2.2% faster, the rest level).
#pragma unroll
    for (int q = 0; q < W; ++q) {
#pragma unroll
      for (int w = 0; w < 4; ++w) {
        const uint32_t a = in[4 * w].w[q], b = in[4 * w + 1].w[q];
        const uint32_t c = in[4 * w + 2].w[q], d = in[4 * w + 3].w[q];
        const uint32_t ab01 = __byte_perm(a, b, 0x5140), ab23 = __byte_perm(a, b, 0x7362);
        const uint32_t cd01 = __byte_perm(c, d, 0x5140), cd23 = __byte_perm(c, d, 0x7362);
        out[4 * q + 0].w[w] = __byte_perm(ab01, cd01, 0x5410);
        out[4 * q + 1].w[w] = __byte_perm(ab01, cd01, 0x7632);
        out[4 * q + 2].w[w] = __byte_perm(ab23, cd23, 0x5410);
        out[4 * q + 3].w[w] = __byte_perm(ab23, cd23, 0x7632);
      }
    }
  }
}

// The W words of x[0..W] that start `shift` bytes (modulo 4: the funnel shift
// takes its bit count modulo 32) into x[0].
template <int W>
__device__ __forceinline__ Words<W> funnel_shift(const uint32_t (&x)[W + 1], unsigned shift) {
  Words<W> s;
#pragma unroll
  for (int j = 0; j < W; ++j) s.w[j] = __funnelshift_r(x[j], x[j + 1], 8 * shift);
  return s;
}

// Bytes [offset, offset + 16) of the 32 bytes lo:hi (offset < 16, a multiple of
// ALIGN): the word offset picked by up to two rounds of selects, the byte offset
// by funnel shifts; a round that ALIGN makes a no-op is left out.
template <int ALIGN>
__device__ __forceinline__ Segment bytes_at(const Segment& lo, const Segment& hi,
                                            unsigned offset) {
  uint32_t x[8];
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    x[j] = lo.w[j];
    x[j + 4] = hi.w[j];
  }
  const unsigned words = offset >> 2;
  if constexpr (ALIGN < 8) {
#pragma unroll
    for (int j = 0; j < 7; ++j) x[j] = (words & 1) ? x[j + 1] : x[j];
  }
  if constexpr (ALIGN < 16) {
#pragma unroll
    for (int j = 0; j < 5; ++j) x[j] = (words & 2) ? x[j + 2] : x[j];
  }
  if constexpr (ALIGN < 4) {
    uint32_t by3[5];
#pragma unroll
    for (int j = 0; j < 5; ++j) by3[j] = x[j];
    return funnel_shift<4>(by3, offset & 3);
  } else {
    return {{x[0], x[1], x[2], x[3]}};
  }
}

// Unaligned rows are read with an L2 prefetch-size hint of 256 bytes: their
// requests cover parts of lines, and the hint has L2 fetch whole 256-byte
// blocks from DRAM at once (v18: 8191x8193 and slices 1.5-3% faster for 1-,
// 4- and 8-byte elements, 16-byte ones level). Aligned loads cover whole lines
// and are left plain (the hint moved them by -0.4 to +0.9%, within the rounds'
// spread), and so are 2-byte word loads (8191x8193 bfloat16 0.7-3.6% slower).
#define GPUTRANSPOSE_LD_UNALIGNED "ld.global.L2::256B"

// The aligned 4 or 8 bytes at `p`, a word of an unaligned row of 4- to 16-byte
// elements; 8-byte words at L2 evict_last where EVICT_LAST (InputL2, below).
template <class T, bool EVICT_LAST = false>
__device__ __forceinline__ T load_unaligned_row(const void* p, uint64_t policy) {
  T value;
  if constexpr (sizeof(T) == 4) {
    static_assert(!EVICT_LAST, "evict_last word loads: 8-byte words");
    uint32_t v;
    asm(GPUTRANSPOSE_LD_UNALIGNED ".u32 %0, [%1];" : "=r"(v) : "l"(p));
    memcpy(&value, &v, 4);
  } else {
    static_assert(sizeof(T) == 8, "4- or 8-byte words");
    uint2 v;
    if constexpr (EVICT_LAST) {
      asm("ld.global.L2::cache_hint.L2::256B.v2.u32 {%0, %1}, [%2], %3;"
          : "=r"(v.x), "=r"(v.y)
          : "l"(p), "l"(policy));
    } else {
      asm(GPUTRANSPOSE_LD_UNALIGNED ".v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
    }
    memcpy(&value, &v, 8);
  }
  return value;
}

// Asynchronous copy of the aligned 16 bytes at `src` to shared memory (cp.async,
// sm_80+), a part of an unaligned row (L2 prefetch hint as above).
__device__ __forceinline__ void copy_async_16(unsigned smem_dst, const char* src) {
  asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n" ::"r"(smem_dst), "l"(src)
               : "memory");
}

// Asynchronous copy of the aligned N (4, 8 or 16) bytes at `src` to shared memory.
template <int N>
__device__ __forceinline__ void copy_async(unsigned smem_dst, const char* src) {
  static_assert(N == 4 || N == 8 || N == 16, "cp.async copies 4, 8 or 16 bytes");
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(smem_dst), "l"(src), "n"(N)
               : "memory");
}

// A shared-memory pointer as the 32-bit address that cp.async takes.
__device__ __forceinline__ unsigned shared_address(const char* smem) {
  return static_cast<unsigned>(__cvta_generic_to_shared(smem));
}

__device__ __forceinline__ void wait_async_copies() {
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}

// InputL2::EvictLast: input rows are read at L2 priority evict_last, as
// torch.compile's transposes read theirs, and each line is set back to evict_normal
// once its tile has stored its output. evict_last alone was 1.3-2.7% faster but left
// the input in L2 ahead of the next kernel's data (a 24 MB sum after the op 12-14%
// slower; v15, v22); released, the lines leave L2 as a copy leaves it, and about
// half the gain stays (v29: 0.5-3.4%). Only the last blocks release theirs, those
// that read the input's last half an L2 (TiledTransposeParams::release_from): their
// evict_last lines displace the earlier ones, which are then gone from L2 too (v39:
// large rows 0.3-1.1% faster). The gain is in the output's lines, which stay in L2
// longer before they are written back (v25), so it needs an input larger than L2; a
// smaller one's transpose is bound by its blocks' latency, which the release
// lengthens (float64 1024^2 6% slower in GPU time): the launcher decides.
// The wide-element kernel reads and releases its input the same way (v46,
// wide_element_transpose.cuh). The tiled kernels whose input, past L2, is read at
// evict_last (one-matrix tiles only: folded and small tiles are launch-bound):
// aligned loads with aligned stores, or with
// skewed ones of 1- to 8-byte elements (v39, with the last tiles' releases only:
// float32 and float64 8191x8192 1.4% and 1.7% faster, v29's release by every tile had
// left them level; v42: bfloat16 and float16 8191x8192 1.3-1.4%, once its registers
// were brought back to 63; v68: uint8 8191x8192 1.2%, the 1-byte tile held to four
// blocks a SM, MIN_BLOCKS_PER_SM), and 8-byte elements' word loads (v41: float64 and
// complex64 8191x8193 1.5% faster, their slices 0.7-1.4%). Not the other unaligned loads
// (v39: staged 1-byte rows 9-15% slower, 2-byte word loads up to 4.7%, 4-byte ones -0.2
// to +1.6%).
template <int E, Access LOAD, Access STORE>
constexpr bool reads_evict_last() {
  if (LOAD == Access::Aligned16) return STORE == Access::Aligned16 || E <= 8;
  return LOAD == Access::Words && E == 8;
}

// The kernels of rows that start anywhere (under aligned stores) that have a tall tile
// (Tiling::Tall; the launcher's tall_tiles says where): staged 1- and 2-byte rows (v78,
// v79) and 4- and 8-byte word loads (v78, v79). Not 2-byte word loads (the H200's past
// L2, every GPU's under it: v81, 128 x 128 level past L2 and 5.8% slower under it, their
// shorter shifted runs a sector dearer each), nor 16-byte ones, whose output runs are 1 KiB
// already.
template <int E, Access LOAD>
constexpr bool has_tall_tile() {
  return LOAD == Access::Staged || (LOAD == Access::Words && (E == 4 || E == 8));
}

template <int W>
__device__ __forceinline__ Words<W> load_evict_last(const char* p, uint64_t policy) {
  Words<W> v;
  if constexpr (W == 1) {
    asm("ld.global.L2::cache_hint.u32 %0, [%1], %2;" : "=r"(v.w[0]) : "l"(p), "l"(policy));
  } else {
    static_assert(W == 4, "a 4- or 16-byte piece");
    asm("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
        : "=r"(v.w[0]), "=r"(v.w[1]), "=r"(v.w[2]), "=r"(v.w[3])
        : "l"(p), "l"(policy));
  }
  return v;
}

// Edge paths issue every load before using any: a load whose value is stored
// (or merged) before the next one is issued costs a whole memory round trip, about
// a microsecond under a busy memory system, so that the 60 of a 1-byte micro-block
// cut by the matrix's last row made the last tile-row's blocks four times as slow
// as the rest (8191x8192 uint8 1.25x the copy; the time grew with the rows' count
// modulo 16; v28).

// The aligned word at `word` of a row of E-byte elements (1 or 2), of which only
// the elements before `end` are read (the rest of the word zero): a word that runs
// past the end (the input's last row only) holds at least one element before it.
// Its loads are waited on by nothing here (edge paths, above).
template <int E>
__device__ __forceinline__ uint32_t load_word_to_end(const char* word, const char* end) {
  static_assert(E == 1 || E == 2, "1- or 2-byte elements");
  if (word + 4 <= end) return *reinterpret_cast<const uint32_t*>(word);
  if constexpr (E == 2) {
    return uint32_t{*reinterpret_cast<const uint16_t*>(word)};  // its one element before the end
  } else {
    uint32_t value = 0;
    for (int i = 0; i < 3 && word + i < end; ++i) {
      value |= uint32_t{static_cast<uint8_t>(word[i])} << (8 * i);
    }
    return value;
  }
}

// The 4W bytes of a row starting at `p` (E-byte aligned; 4W-byte aligned for
// Aligned16); `end` is one past the input's last byte, which only the tiles
// that hold the input's last row need to watch (CHECK_END).
template <int E, int W, Access A, bool CHECK_END, bool EVICT_LAST = false>
__device__ __forceinline__ Words<W> load_piece(const char* p, const char* end,
                                               uint64_t policy = 0) {
  if constexpr (A == Access::Aligned16) {
    return *reinterpret_cast<const Words<W>*>(p);
  } else if constexpr (E >= 4) {
    // p is aligned to the element: the widest aligned words that tile the 16
    // bytes, no shifting and nothing read outside them.
    static_assert(W == 4, "a piece of 4- to 16-byte elements is 16 bytes");
    using Word = typename Bytes<(E > 8 ? 8 : E)>::type;
    constexpr int WORDS = 16 / sizeof(Word);
    Segment s;
    Word* out = reinterpret_cast<Word*>(s.w);
#pragma unroll
    for (int j = 0; j < WORDS; ++j) {
      out[j] = load_unaligned_row<Word, EVICT_LAST>(p + j * sizeof(Word), policy);
    }
    return s;
  } else {
    static_assert(E == 2, "rows of 1-byte elements that start anywhere are staged");
    // The aligned words that hold bytes [p, p + 4W). Each holds at least one of
    // them, so all lie in the tensor's allocation; the bytes they bring beside
    // those (a row gap, a neighbouring element) are read but never used, and
    // the last word, needed only when p is unaligned, stops at the input's end.
    const unsigned shift = static_cast<unsigned>(reinterpret_cast<uintptr_t>(p) & 3);
    const uint32_t* words = reinterpret_cast<const uint32_t*>(p - shift);
    uint32_t x[W + 1];
#pragma unroll
    for (int j = 0; j < W; ++j) x[j] = words[j];
    if constexpr (CHECK_END) {
      x[W] = shift ? load_word_to_end<2>(reinterpret_cast<const char*>(words + W), end) : 0u;
    } else {
      x[W] = shift ? words[W] : 0u;
    }
    return funnel_shift<W>(x, shift);
  }
}

struct TiledTransposeParams {
  const char* in;
  const char* in_end;    // one past the input's last byte
  char* out;
  int64_t batch;         // matrices
  int64_t rows;          // of each input matrix
  int64_t cols;
  int64_t batch_stride;  // input, in elements
  int64_t row_stride;    // input, in elements
  int64_t tiles_r;       // tiles per matrix along its rows (see STEP_R) and its cols
  int64_t tiles_c;       // (not read since v14: dropping it moved ptxas's register
                         // counts by up to 12 either way, unmeasured, so it stays)
  // The block order (above): blocks per matrix, per group of tile-rows, and
  // the tile-rows of a group and of the last, maybe shorter, group.
  FastDivider matrix_tiles;
  FastDivider group_tiles;
  FastDivider group_rows;
  FastDivider last_group_rows;
  // Batches of small matrices (a Folded kernel): log2 of the sub-tile that
  // holds one whole matrix; the tile holds (TR >> sub_rows_log2) x
  // (TC >> sub_cols_log2) matrices.
  int sub_rows_log2;
  int sub_cols_log2;
  // Interleaved tile columns (above): the walk's column k is tile column
  // (k >> interleave_shift) + (k & interleave_shift) * interleave_half, so that
  // shift 1 interleaves the halves and shift 0 (with half 0) keeps column k.
  uint32_t interleave_shift;
  uint32_t interleave_half;
  // InputL2::EvictLast: blocks from release_from on release their input lines.
  uint32_t release_from;
  // The first matrix whose last row may end within a 16-byte chunk of the input's end
  // (the last matrix, or where batches lie under 16 bytes apart the ones before it too):
  // its tiles that hold that row stop their unaligned loads at the input's end.
  uint32_t first_matrix_near_end;
};

// Where the micro-block (or output segment) at tile-local input row r and
// column c lies: byte offsets of its first element in the input and in the
// output, and the element rows [row_lo, row_hi) and columns [0, col_hi),
// counted from (r, c), that lie inside its matrix.
struct Window {
  int64_t in;
  int64_t out;
  int row_lo;
  int row_hi;
  int col_hi;
};

// A tile of one matrix: input rows r0 + [rows_lo, rows_here) and columns
// c0 + [0, cols_here) (tile-local rows outside the matrix are left out).
template <int E>
struct MatrixTile {
  const TiledTransposeParams* p;
  int64_t in_tile;   // byte offsets of tile-local (0, 0); only offsets that land
  int64_t out_tile;  // inside the matrix are ever dereferenced
  int rows_lo;
  int rows_here;
  int cols_here;
  int64_t r0;        // the matrix's row of tile-local row 0 (negative: above it)
  uint32_t matrix;   // in the batch

  __device__ __forceinline__ Window at(int r, int c) const {
    return {in_tile + (r * p->row_stride + c) * E, out_tile + (c * p->rows + r) * E, rows_lo - r,
            rows_here - r, cols_here - c};
  }
};

// A tile of whole small matrices, one per 2^sub_rows_log2 x 2^sub_cols_log2
// sub-tile, matrices first .. first + count - 1 in row-major sub-tile order.
template <int E>
struct FoldedTile {
  const TiledTransposeParams* p;
  int64_t first;
  int sub_tiles_c;

  __device__ __forceinline__ Window at(int r, int c) const {
    const int64_t b = first + (r >> p->sub_rows_log2) * sub_tiles_c + (c >> p->sub_cols_log2);
    const int lr = r & ((1 << p->sub_rows_log2) - 1);
    const int lc = c & ((1 << p->sub_cols_log2) - 1);
    const bool inside = b < p->batch;
    return {(b * p->batch_stride + lr * p->row_stride + lc) * E,
            (b * p->rows * p->cols + lc * p->rows + lr) * E, -lr,
            inside ? static_cast<int>(p->rows - lr) : 0, inside ? static_cast<int>(p->cols - lc) : 0};
  }
};

// Tiling::Folded: a tile holds several whole small matrices (FoldedTile), so that
// all threads of a block have work where a matrix is smaller than a tile.
template <int E, Access LOAD, Access STORE, Tiling TILING = Tiling::Wide,
          InputL2 L2 = InputL2::Normal>
struct TiledTranspose {
  // Skewed tiles re-read LEAD_R of their rows: taller ones re-read fewer (v15:
  // staged ones too, in 68 KiB of shared memory: 8191x8193 uint8 3.8% faster).
  // Staged 2-byte rows (stages_2_byte_rows in transpose_cuda.cu) take the word-shifted
  // tiles' shape under skewed stores (their loads cover rows that start anywhere alike),
  // and staged_loaded under aligned ones.
  static constexpr bool UNALIGNED_LOADS =
      LOAD == Access::Words || (LOAD == Access::Staged && E == 2);
  static constexpr TileExtent SHAPE =
      TILING == Tiling::Tall ? TileShape<E>::tall
      : TILING != Tiling::Wide ? TileShape<E>::small
      : STORE == Access::Aligned16
          ? (LOAD == Access::Staged ? TileShape<E>::staged_loaded
             : LOAD == Access::Words ? TileShape<E>::word_loaded
                                     : TileShape<E>::aligned)
      : UNALIGNED_LOADS ? TileShape<E>::word_skewed
      : L2 == InputL2::EvictLast ? TileShape<E>::skewed_past_l2
                                 : TileShape<E>::skewed;
  static constexpr int TR = SHAPE.rows;
  static constexpr int TC = SHAPE.cols;
  static constexpr int M = 16 / E;                 // micro-block rows, in elements
  // Staged 2-byte rows under skewed stores take 8-byte pieces (one micro-block of 8 rows
  // x 8 bytes a thread), so that their tile has 512 threads, as staged 1-byte tiles have
  // (v38), not 256 (v65: 2-byte 8191 x 8193 and skewed slices 0.4-0.8% faster on an
  // H100; under aligned stores level, so those keep 16-byte pieces).
  static constexpr bool STAGED_SKEWED_2_BYTE =
      E == 2 && LOAD == Access::Staged && STORE == Access::Words;
  static constexpr int PIECE = STAGED_SKEWED_2_BYTE ? 8 : TileShape<E>::piece;
  static constexpr int W = PIECE / 4;              // words of each of its rows
  static constexpr int MC = 4 * W / E;             // micro-block columns
  // Edge micro-blocks without a round trip per element (edge paths, above), where
  // they cost something: the first and last tile-rows of skewed tiles, whose
  // output rows are not 16-byte aligned, so that their number is not a multiple
  // of M (aligned rows never cut a micro-block). In every other kernel they
  // moved ptxas's register counts, up to 14 either way, for nothing.
  static constexpr bool FAST_EDGES = STORE == Access::Words && M > 1;
  // Micro-blocks of 2-byte rows cut by the matrix's last column, a column of M
  // elements at a time (load_tile): where FAST_EDGES, for word-loaded tiles, and
  // in one-matrix aligned-store tiles (v33: element by element, bfloat16 8192x8191
  // 3% slower). Not staged ones, whose cut micro-blocks are read whole (load_tile):
  // the path, never taken there, held 64 registers in the aligned-store one, not 59.
  static constexpr bool COLUMN_EDGES = E == 2 && LOAD != Access::Staged &&
                                       (FAST_EDGES ? LOAD == Access::Words : TILING == Tiling::Wide);
  static constexpr bool EVICT_LAST = L2 == InputL2::EvictLast;
  static_assert(!EVICT_LAST || (TILING == Tiling::Wide && reads_evict_last<E, LOAD, STORE>()),
                "evict_last input: the one-matrix tiles of reads_evict_last");
  static constexpr int BLOCKS_C = TC / MC;         // micro-blocks along a tile row
  static constexpr int NUM_BLOCKS = (TR / M) * BLOCKS_C;
  // A skewed tile is twice as tall: up to 512 threads take its micro-blocks one
  // each rather than 256 taking two (v14: 8191x8192 uint8 5% faster, from 50% to
  // 65% of warps active). So do staged tiles' (v38: uint8 slices 0.8% and 8192x8193
  // 1.2% faster, 48 -> 32 registers); aligned 1-byte tiles keep 256 (at 512, 40
  // registers and three blocks a SM: large shapes level, uint8 4096^2 6.5% slower).
  static constexpr int MAX_THREADS =
      STORE == Access::Words || LOAD == Access::Staged ? 512 : 256;
  static constexpr int THREADS = NUM_BLOCKS < MAX_THREADS ? NUM_BLOCKS : MAX_THREADS;
  // Small 16-byte tiles: 64 registers rather than 69, four blocks per SM (Tiling).
  // Folded 1-byte tiles: 32 registers rather than 40, eight blocks per SM (v37: 40 took
  // uint8 4096x64x64 from 10.1 to 10.5 us). Staged skewed 2-byte tiles: three blocks of
  // 512 threads, as many as an H100's shared memory holds (40 registers; v65 measured it
  // so; GPUs with less shared memory a SM hold fewer, at the same registers, unmeasured).
  // Skewed 1-byte tiles with aligned loads at evict_last: 32 registers rather than 38, four
  // blocks of 512 threads a SM, as without evict_last (at three, v42: 3.5-3.8% slower).
  // 0 leaves the others to ptxas (a bound of 1 block moved their registers by up to 40%).
  static constexpr bool SKEWED_1_BYTE_EVICT_LAST =
      E == 1 && LOAD == Access::Aligned16 && STORE == Access::Words && L2 == InputL2::EvictLast;
  static constexpr int MIN_BLOCKS_PER_SM =
      E == 16 && TILING == Tiling::Small ? 4
      : E == 1 && TILING == Tiling::Folded ? 8
      : STAGED_SKEWED_2_BYTE ? 3
      : SKEWED_1_BYTE_EVICT_LAST ? 4
                             : 0;
  static constexpr int SMEM_ROW_BYTES = TR * E;    // an output-tile row
  static constexpr int SMEM_BYTES = TC * SMEM_ROW_BYTES;
  static constexpr int ROW_SEGMENTS = SMEM_ROW_BYTES / 16;
  // Staged loads: each input row of the tile kept as the aligned 16-byte chunks
  // that hold it (one more than its 16-byte units), after the output tile, each
  // chunk at its source's offset in a 32-byte sector (sector_offset: 16 bytes more
  // a row). A copy whose destination lies otherwise in its sector than its source
  // had L2 send back 27-28% more sectors than the copies asked for
  // (v55: the uint8 slice's L2 read sectors 18% fewer, 8191x8193's 15%).
  // A staged row's first byte lies at the row's address modulo STAGE_SECTOR.
  static constexpr int STAGE_SECTOR = 32;
  static constexpr int STAGE_UNITS = TC * E / 16 + 1;
  static constexpr int STAGE_ROW_BYTES = 16 * STAGE_UNITS + STAGE_SECTOR - 16;
  static constexpr int STAGE_BYTES = LOAD == Access::Staged ? TR * STAGE_ROW_BYTES : 0;
  static constexpr int SMEM_TOTAL_BYTES = SMEM_BYTES + STAGE_BYTES;
  // Input rows whose output a tile writes (see "Skewed tiles" above), and the
  // rows it loads before the first of them.
  // Sector-aligned write windows cost twice the re-read rows: worth it where
  // loads are aligned or words of 4- to 16-byte elements (v16: 8191x8192 uint8
  // 1.7% faster, 8191x8193 float32 0.7%), not where 1-byte rows are staged or
  // 2-byte rows shifted (8191x8193 uint8 1.3%, bfloat16 2.8% slower).
  static constexpr int SKEW_BYTES = LOAD == Access::Aligned16 || E >= 4 ? 32 : 16;
  static constexpr int STEP_R = STORE == Access::Words ? TR - SKEW_BYTES / E : TR;
  static constexpr int LEAD_R = TR - STEP_R;
  // How far a row's write window slides up: its misalignment, at most LEAD_R - 1.
  static constexpr int MAX_SKEW_R = STORE == Access::Words ? LEAD_R - 1 : 0;

  // Tiles per matrix along its rows.
  static int64_t tiles_along_rows(int64_t rows) {
    return (rows + MAX_SKEW_R + STEP_R - 1) / STEP_R;
  }
  static int64_t tiles_along_cols(int64_t cols) { return (cols + TC - 1) / TC; }
  // Tiles of a batch of matrices, one matrix per tile (not Folded).
  static int64_t tiles_of(int64_t batch, int64_t rows, int64_t cols) {
    return batch * tiles_along_rows(rows) * tiles_along_cols(cols);
  }

  static_assert(TR % M == 0 && TC % M == 0 && M % MC == 0, "tile must hold whole micro-blocks");
  static_assert(TILING == Tiling::Wide || TILING == Tiling::Tall ||
                    (LOAD == Access::Aligned16 && STORE == Access::Aligned16),
                "small and folded tiles move aligned rows only");
  static_assert(TILING != Tiling::Tall ||
                    (has_tall_tile<E, LOAD>() && STORE == Access::Aligned16),
                "tall tiles: has_tall_tile's rows that start anywhere, under aligned stores");
  static_assert(STORE != Access::Staged, "staging is for loads");
  static_assert(SMEM_ROW_BYTES % 128 == 0 && TC * E >= 128,
                "the swizzle needs tile rows and columns of at least 128 bytes");
  static_assert(NUM_BLOCKS % THREADS == 0 && (TC * ROW_SEGMENTS) % THREADS == 0,
                "even work split");

  using Element = typename Bytes<E>::type;

  // Byte offset in shared memory of byte `col_byte` of output-tile row `row`:
  // the rows that one micro-block writes share a flip, neighbouring ones differ.
  static __device__ __forceinline__ int smem_offset(int row, int col_byte) {
    const int flip = ((row / MC) % 8) * 16;
    return row * SMEM_ROW_BYTES + (col_byte ^ flip);
  }

  static __device__ __forceinline__ void run(const TiledTransposeParams& p, char* smem) {
    if constexpr (TILING == Tiling::Folded) {
      const int sub_tiles_c = TC >> p.sub_cols_log2;
      const int per_tile = (TR >> p.sub_rows_log2) * sub_tiles_c;
      const FoldedTile<E> tile{&p, static_cast<int64_t>(blockIdx.x) * per_tile, sub_tiles_c};
      load_tile<false>(p, tile, smem);
      __syncthreads();
      store_tile_aligned(p, tile, smem);
      return;
    }
    const MatrixTile<E> tile = matrix_tile(p, blockIdx.x);
    const int64_t r0 = tile.r0;

    // Only the tiles holding a matrix's last row near the input's end may meet that end
    // mid-chunk (first_matrix_near_end).
    const bool last_rows = tile.matrix >= p.first_matrix_near_end && r0 + TR >= p.rows;
    if (LOAD != Access::Aligned16 && last_rows) {
      load_tile<true>(p, tile, smem);
    } else {
      load_tile<false>(p, tile, smem);
    }
    __syncthreads();
    if constexpr (STORE == Access::Aligned16) {
      store_tile_aligned(p, tile, smem);
    } else {
      store_tile_skewed(p, tile.out_tile, r0, tile.cols_here, smem);
    }
    if constexpr (EVICT_LAST) {
      if (blockIdx.x >= p.release_from) {
        // The 2-byte skewed kernel works its tile out again from a fresh read of the
        // block index: held through the stores, the tile took it from 63 registers to 82,
        // one block a SM rather than two (v42). In the other kernels that moved registers
        // both ways, uint8 8192^2 0.9% slower, so they keep the tile they have.
        constexpr bool TILE_AGAIN = E == 2 && STORE == Access::Words;
        release_input_lines(p, TILE_AGAIN ? matrix_tile(p, block_index()) : tile);
      }
    }
  }

  // The tile of block `block`, p.group_rows tile-rows at a time (block < 2^31).
  static __device__ __forceinline__ MatrixTile<E> matrix_tile(const TiledTransposeParams& p,
                                                              uint32_t block) {
    uint32_t t = block;
    const uint32_t b = p.matrix_tiles.div(t);
    t -= b * p.matrix_tiles.divisor;
    const uint32_t group = p.group_tiles.div(t);
    t -= group * p.group_tiles.divisor;
    const FastDivider rows_in_group =
        (group + 1) * p.group_rows.divisor < p.tiles_r ? p.group_rows : p.last_group_rows;
    const uint32_t tc_u = rows_in_group.div(t);
    const int64_t tr = group * p.group_rows.divisor + (t - tc_u * rows_in_group.divisor);
    const int64_t tc =
        (tc_u >> p.interleave_shift) + (tc_u & p.interleave_shift) * p.interleave_half;
    const int64_t r0 = tr * STEP_R - LEAD_R;
    const int64_t c0 = tc * TC;
    return {&p,
            (b * p.batch_stride + r0 * p.row_stride + c0) * E,
            (b * p.rows * p.cols + c0 * p.rows + r0) * E,
            static_cast<int>(r0 < 0 ? -r0 : 0),
            static_cast<int>(p.rows - r0 < TR ? p.rows - r0 : TR),
            static_cast<int>(p.cols - c0 < TC ? p.cols - c0 : TC),
            r0,
            b};
  }

  // Every input line of the tile back to evict_normal (edge rows' too, which were
  // read plain), a line per task: by the thread whose piece starts a line, 1-byte
  // tiles (4-byte pieces) took 32 mostly idle releases a thread (v29: up to 4% slower).
  static __device__ __forceinline__ void release_input_lines(const TiledTransposeParams& p,
                                                             const MatrixTile<E>& tile) {
    constexpr int LINES = TC * E / 128 + 1;  // of a tile row, 16-byte aligned
    const int64_t row_bytes = p.row_stride * E;
#pragma unroll 1
    for (int task = threadIdx.x; task < TR * LINES; task += THREADS) {
      const int r = task / LINES;
      const int line = task - r * LINES;
      if (r < tile.rows_lo || r >= tile.rows_here) continue;
      const char* row = p.in + tile.in_tile + r * row_bytes;
      const uintptr_t at = (reinterpret_cast<uintptr_t>(row) & ~uintptr_t{127}) + 128u * line;
      if (at < reinterpret_cast<uintptr_t>(row + tile.cols_here * E)) {
        release_line(reinterpret_cast<const char*>(at));
      }
    }
  }

  // Staged loads, first: the tile's input rows, each as the aligned 16-byte
  // chunks that hold its bytes, copied to its staging row as they are, from the
  // row's sector_offset (its first byte lands at its address modulo 32). The one
  // chunk that runs past the input's end is copied byte by byte, up to the end:
  // nothing outside the tensor's allocation is read.
  // A tile inside the matrix, away from the input's end (most of them), takes
  // stage_whole_rows, which needs none of these checks.
  template <bool CHECK_END, class Tile>
  static __device__ __forceinline__ void stage_rows(const TiledTransposeParams& p, const Tile& tile,
                                                    char* stage) {
    if constexpr (!CHECK_END) {
      if (tile.rows_lo == 0 && tile.rows_here == TR && tile.cols_here == TC) {
        stage_whole_rows(p, tile, stage);
        return;
      }
    }
    for (int task = threadIdx.x; task < TR * STAGE_UNITS; task += THREADS) {
      const int r = task / STAGE_UNITS;
      const int unit = task % STAGE_UNITS;
      const Window w = tile.at(r, 0);
      if (w.row_lo > 0 || w.row_hi <= 0) {
        continue;  // a tile row outside the matrix
      }
      const char* row = p.in + w.in;
      const char* chunk = chunk_of(row, unit);
      if (chunk >= row + w.col_hi * E) {
        continue;  // past the tile's columns
      }
      char* dst = stage + r * STAGE_ROW_BYTES + sector_offset(row) + 16 * unit;
      const int64_t left = p.in_end - chunk;
      if (left >= 16) {
        copy_async_16(shared_address(dst), chunk);
      } else {
        // The input's last chunk, up to its end (edge paths: above).
        uint8_t bytes[16];
#pragma unroll
        for (int i = 0; i < 16; ++i) bytes[i] = i < left ? static_cast<uint8_t>(chunk[i]) : 0;
        memcpy(dst, bytes, 16);
      }
    }
    wait_async_copies();
    __syncthreads();
  }

  // stage_rows for a tile of TR whole rows of TC columns, none of them the
  // input's last: a row's first TC * E / 16 chunks (its body) always hold its
  // bytes and lie in the input, its last only where the row starts unaligned.
  // Lanes take consecutive chunks of a row, with no per-task window arithmetic
  // (v15: the general loop's was a fifth of the staged kernel's instructions).
  // A row's last chunk is staged in a pass of its own where rows have 16 body
  // chunks, and in the same pass as the body where they have 8, one in 9 of
  // their chunks (v17: 8191x8193 uint8 1.4% faster; 16-chunk rows 3.3% slower).
  static __device__ __forceinline__ void stage_whole_rows(const TiledTransposeParams& p,
                                                          const MatrixTile<E>& tile, char* stage) {
    constexpr int BODY_UNITS = TC * E / 16;
    const char* const first_row = p.in + tile.in_tile;
    const int64_t row_bytes = p.row_stride * E;
    const unsigned stage_at = shared_address(stage);
    if constexpr (BODY_UNITS <= 8) {
      // Task t = threadIdx.x + k * THREADS is chunk t % UNITS of row t / UNITS; a
      // thread steps from one task to its next by ROW_STEP rows and UNIT_STEP
      // chunks (with a carry), so that the row's address and the staging address
      // are sums, not a division and a 64-bit product per task.
      constexpr int UNITS = STAGE_UNITS;  // the body and the last chunk
      constexpr int TASKS = TR * UNITS;
      constexpr int ROW_STEP = THREADS / UNITS;
      constexpr int UNIT_STEP = THREADS % UNITS;
      int r = threadIdx.x / UNITS;
      int unit = threadIdx.x - r * UNITS;
      const char* row = first_row + r * row_bytes;
      unsigned dst = stage_at + r * STAGE_ROW_BYTES + 16 * unit;  // before the row's sector_offset
#pragma unroll
      for (int k = 0; k < (TASKS + THREADS - 1) / THREADS; ++k) {
        if (TASKS % THREADS == 0 || r < TR) {
          if (unit < BODY_UNITS || misalignment_16(row) != 0) {
            copy_async_16(dst + sector_offset(row), chunk_of(row, unit));
          }
        }
        const bool carry = unit + UNIT_STEP >= UNITS;
        unit += carry ? UNIT_STEP - UNITS : UNIT_STEP;
        r += carry ? ROW_STEP + 1 : ROW_STEP;
        row += (carry ? ROW_STEP + 1 : ROW_STEP) * row_bytes;
        dst += carry ? (ROW_STEP + 1) * STAGE_ROW_BYTES + 16 * (UNIT_STEP - UNITS)
                     : ROW_STEP * STAGE_ROW_BYTES + 16 * UNIT_STEP;
      }
    } else {
      constexpr int ROWS_PER_PASS = THREADS / BODY_UNITS;
      static_assert(THREADS % BODY_UNITS == 0 && TR % ROWS_PER_PASS == 0 && TR <= THREADS,
                    "even staging split");
      const int unit = threadIdx.x % BODY_UNITS;
#pragma unroll
      for (int k = 0; k < TR / ROWS_PER_PASS; ++k) {
        const int r = threadIdx.x / BODY_UNITS + k * ROWS_PER_PASS;
        const char* row = first_row + r * row_bytes;
        copy_async_16(stage_at + r * STAGE_ROW_BYTES + sector_offset(row) + 16 * unit,
                      chunk_of(row, unit));
      }
      if (threadIdx.x < TR) {
        const int r = threadIdx.x;
        const char* row = first_row + r * row_bytes;
        if (misalignment_16(row) != 0) {
          copy_async_16(stage_at + r * STAGE_ROW_BYTES + sector_offset(row) + 16 * BODY_UNITS,
                        chunk_of(row, BODY_UNITS));
        }
      }
    }
    wait_async_copies();
    __syncthreads();
  }

  // Where the first chunk of the row starting at `row` goes in its staging row:
  // at the chunk's offset in its 32-byte sector, 0 or 16 (STAGE_SECTOR).
  static __device__ __forceinline__ unsigned sector_offset(const char* row) {
    return static_cast<unsigned>(reinterpret_cast<uintptr_t>(row)) & (STAGE_SECTOR - 16);
  }

  // Aligned 16-byte chunk `unit` of the chunks that hold the row starting at
  // `row` (masked and added unsigned: no sign extensions in the 64-bit sum).
  static __device__ __forceinline__ const char* chunk_of(const char* row, int unit) {
    const uintptr_t first = reinterpret_cast<uintptr_t>(row) & ~uintptr_t{15};
    return reinterpret_cast<const char*>(first + 16u * static_cast<unsigned>(unit));
  }

  // The piece at input row `row` and column `c` of the tile, from its staging
  // row, whose column 0 lies at the row's address modulo 32 (stage_rows):
  // `row_address` is the low 32 bits of the row's first byte's address, of which
  // only the low 5 bits count. c * E is a multiple of 4, so the piece's first word
  // is c * E + (row_address modulo 32, rounded down to a word) into the staging
  // row, and the funnel shift (8 x its argument, modulo 32) takes the rest.
  static __device__ __forceinline__ Words<W> staged_piece(const char* stage, int row, int c,
                                                          uint32_t row_address) {
    static_assert(MC * E % 4 == 0, "a micro-block starts on a word of its staging row");
    if constexpr (W == 4) {
      // 2-byte rows: a 16-byte piece from the two aligned 16-byte chunks that hold it, two
      // conflict-free 128-bit reads and a word select (the piece's first word in the
      // eight is the same for every lane of a row), not five 32-bit reads 16 bytes apart
      // a lane, four lanes to a bank: the aligned-store tile spilled with those (v63).
      static_assert(MC * E % 16 == 0 && STAGE_ROW_BYTES % 16 == 0, "16-byte aligned chunks");
      const unsigned offset = row_address & (STAGE_SECTOR - 4);
      const Segment* chunks = reinterpret_cast<const Segment*>(
          stage + row * STAGE_ROW_BYTES + c * E + (offset & 16));
      const Segment lo = chunks[0], hi = chunks[1];
      const uint32_t w8[8] = {lo.w[0], lo.w[1], lo.w[2], lo.w[3], hi.w[0], hi.w[1], hi.w[2], hi.w[3]};
      const unsigned k = (offset >> 2) & 3;  // the piece's first word in the 8
      uint32_t t[6];
#pragma unroll
      for (int j = 0; j < 6; ++j) t[j] = (k & 2) ? w8[j + 2] : w8[j];
      uint32_t x[W + 1];
#pragma unroll
      for (int j = 0; j <= W; ++j) x[j] = (k & 1) ? t[j + 1] : t[j];
      return funnel_shift<W>(x, row_address);
    } else {
      // 4- and 8-byte pieces (1-byte rows; staged skewed 2-byte rows, PIECE): W + 1 words.
      const uint32_t* words = reinterpret_cast<const uint32_t*>(
          stage + row * STAGE_ROW_BYTES + c * E + (row_address & (STAGE_SECTOR - 4)));
      uint32_t x[W + 1];
#pragma unroll
      for (int j = 0; j <= W; ++j) x[j] = words[j];
      return funnel_shift<W>(x, row_address);
    }
  }

  // The piece of row r + i, column c of the tile (micro-block (r, c), its window w).
  template <bool CHECK_END>
  static __device__ __forceinline__ Words<W> load_row_piece(const TiledTransposeParams& p,
                                                            const Window& w, const char* stage,
                                                            int r, int c, int i) {
    if constexpr (LOAD == Access::Staged) {
      // Low 32 bits of row r + i's address: sums and products of the 64-bit
      // ones' low words.
      const uint32_t row_address =
          static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p.in) + w.in - c * E) +
          static_cast<uint32_t>(i) * static_cast<uint32_t>(p.row_stride * E);
      return staged_piece(stage, r + i, c, row_address);
    } else if constexpr (LOAD == Access::Aligned16 && EVICT_LAST) {
      return load_evict_last<W>(p.in + w.in + i * p.row_stride * E, evict_last_policy());
    } else {
      return load_piece<E, W, LOAD, CHECK_END, EVICT_LAST>(p.in + w.in + i * p.row_stride * E,
                                                          p.in_end,
                                                          EVICT_LAST ? evict_last_policy() : 0);
    }
  }

  // Phase 1: global -> registers -> transposed into shared memory. Every load of
  // the thread is issued before the first is used.
  template <bool CHECK_END, class Tile>
  static __device__ __forceinline__ void load_tile(const TiledTransposeParams& p, const Tile& tile,
                                                   char* smem) {
    constexpr int LOADS = NUM_BLOCKS / THREADS;
    char* stage = smem + SMEM_BYTES;
    if constexpr (LOAD == Access::Staged) {
      stage_rows<CHECK_END>(p, tile, stage);
    }
    Words<W> rows_in[LOADS][M];
    // The micro-block's pieces are in rows_in: all of them, or where it is cut by
    // the matrix's first or last row (FAST_EDGES), its other rows' pieces, the
    // nearest of them in place of the rest (shared memory that no output byte is
    // taken from: loads without conditions, as few registers as a whole one).
    // Staged rows hold a piece cut by the last column too (the chunks that hold
    // its elements; its bytes past that column land in output-tile rows that are
    // never stored), so staged micro-blocks cut by it are read as whole ones (v33:
    // element by element, a round trip each, uint8 8192x8193 took 13% longer than
    // 8192x8192 in aligned-store tiles).
    constexpr int CUT_COLS = LOAD == Access::Staged ? 1 : MC;
    bool in_registers[LOADS];
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
      const int blk = threadIdx.x + k * THREADS;
      const int r = (blk / BLOCKS_C) * M;
      const int c = (blk % BLOCKS_C) * MC;
      const Window w = tile.at(r, c);
      in_registers[k] = w.row_lo <= 0 && w.row_hi >= M && w.col_hi >= CUT_COLS;
      if (in_registers[k]) {
#pragma unroll
        for (int i = 0; i < M; ++i) rows_in[k][i] = load_row_piece<CHECK_END>(p, w, stage, r, c, i);
      } else if (FAST_EDGES && w.row_lo < M && w.row_hi > 0 && w.col_hi >= CUT_COLS) {
        // Every load issued before any is used (edge paths, above).
        in_registers[k] = true;
#pragma unroll
        for (int i = 0; i < M; ++i) {
          rows_in[k][i] =
              load_row_piece<CHECK_END>(p, w, stage, r, c, min(max(i, w.row_lo), w.row_hi - 1));
        }
      } else if (E == 1 && LOAD == Access::Aligned16 && !FAST_EDGES && TILING == Tiling::Wide &&
                 w.row_lo <= 0 && w.row_hi >= M && w.col_hi > 0) {
        // Cut by the matrix's last column, 1-byte aligned rows: each row's word is
        // read whole (its bytes past the column, in the row's gap or a later row,
        // lie inside the input) unless it runs past the input's end; those bytes
        // land in output-tile rows that are never stored (v33: element by element,
        // uint8 8192x8193 views of 8208-byte rows 1.35x the copy).
        in_registers[k] = true;
#pragma unroll
        for (int i = 0; i < M; ++i) {
          rows_in[k][i].w[0] = load_word_to_end<1>(p.in + w.in + i * p.row_stride, p.in_end);
        }
      } else if (COLUMN_EDGES && w.row_lo < M && w.row_hi > 0 && w.col_hi > 0 &&
                 w.col_hi < MC) {
        // Cut by the matrix's last column (COLUMN_EDGES): a column's M elements
        // (rows clamped as above) loaded before any is stored, one column at a
        // time (unrolled across columns, this path for every element size had
        // ptxas hoist all of their loads: up to 28 more registers, v28).
#pragma unroll 1
        for (int e = 0; e < w.col_hi; ++e) {
          Element column[M];
#pragma unroll
          for (int i = 0; i < M; ++i) {
            const int row = min(max(i, w.row_lo), w.row_hi - 1);
            column[i] = *reinterpret_cast<const Element*>(p.in + w.in + (row * p.row_stride + e) * E);
          }
#pragma unroll
          for (int i = 0; i < M; ++i) {
            *reinterpret_cast<Element*>(smem + smem_offset(c + e, (r + i) * E)) = column[i];
          }
        }
      } else if (w.row_lo < M && w.row_hi > 0 && w.col_hi > 0) {
        // Cut by the matrix's last column: element by element, to the output
        // tile directly, so that nothing of it stays live past the loads;
        // 4- to 16-byte elements by asynchronous copies, all in flight at once.
#pragma unroll
        for (int i = 0; i < M; ++i) {
#pragma unroll
          for (int e = 0; e < MC; ++e) {
            if (i >= w.row_lo && i < w.row_hi && e < w.col_hi) {
              const char* src = p.in + w.in + (i * p.row_stride + e) * E;
              char* dst = smem + smem_offset(c + e, (r + i) * E);
              if constexpr (FAST_EDGES && E >= 4) {
                copy_async<E>(shared_address(dst), src);
              } else {
                *reinterpret_cast<Element*>(dst) = *reinterpret_cast<const Element*>(src);
              }
            }
          }
        }
      }
    }
    if constexpr (FAST_EDGES && E >= 4) {
      wait_async_copies();
    }
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
      if (in_registers[k]) {
        const int blk = threadIdx.x + k * THREADS;
        const int r = (blk / BLOCKS_C) * M;
        const int c = (blk % BLOCKS_C) * MC;
        Segment cols_out[MC];
        transpose_micro_block<E, W>(rows_in[k], cols_out);
#pragma unroll
        for (int j = 0; j < MC; ++j) {
          *reinterpret_cast<Segment*>(smem + smem_offset(c + j, r * E)) = cols_out[j];
        }
      }
    }
  }

  // Phase 2, rows 16-byte aligned: one 128-bit store per 16 bytes.
  template <class Tile>
  static __device__ __forceinline__ void store_tile_aligned(const TiledTransposeParams& p,
                                                            const Tile& tile, const char* smem) {
    constexpr int STORES = TC * ROW_SEGMENTS / THREADS;
#pragma unroll
    for (int k = 0; k < STORES; ++k) {
      const int v = threadIdx.x + k * THREADS;
      const int row = v / ROW_SEGMENTS;        // input column
      const int col = (v % ROW_SEGMENTS) * M;  // input row
      const Window w = tile.at(col, row);
      if (w.col_hi <= 0) {
        continue;
      }
      if (w.row_hi >= M) {
        *reinterpret_cast<Segment*>(p.out + w.out) =
            *reinterpret_cast<const Segment*>(smem + smem_offset(row, col * E));
      } else if (w.row_hi > 0) {
        store_bytes(p.out + w.out, smem, row, col * E, w.row_hi * E);
      }
    }
  }

  // The bytes [lo, hi) of a 16-byte chunk that lie inside the matrix, the chunk
  // starting at byte `in_row` of its output row (negative: before the row).
  struct Span {
    int lo;
    int hi;
  };
  static __device__ __forceinline__ Span inside_matrix(int64_t in_row, int64_t matrix_bytes) {
    return {in_row < 0 ? static_cast<int>(-in_row) : 0,
            matrix_bytes - in_row < 16 ? static_cast<int>(matrix_bytes - in_row) : 16};
  }

  // One aligned 16-byte output chunk: one 128-bit store, or its part `span`.
  static __device__ __forceinline__ void store_chunk(char* dst, const Segment& value, Span span) {
    if (span.lo == 0 && span.hi == 16) {
      *reinterpret_cast<Segment*>(dst) = value;
    } else {
      store_part(dst, value, span.lo, span.hi);
    }
  }

  static __device__ __forceinline__ int misalignment_16(const char* p) {
    return static_cast<int>(reinterpret_cast<uintptr_t>(p) & 15);
  }

  // Phase 2, output rows starting anywhere (a skewed tile): output row `row`
  // gets STEP_R elements from this tile, the ones in the aligned 16-byte chunks
  // that start LEAD_R elements minus the row's misalignment (modulo SKEW_BYTES)
  // into the tile. Lane `unit` of a row builds the chunk that starts in 16-byte
  // unit `unit` of the row from that unit and the next (two 128-bit
  // shared-memory reads, conflict-free within a quarter-warp, which stays on one
  // row) and stores it with one 128-bit store; only chunks reaching past the
  // matrix's first or last row are stored in parts. A/B on 8191x8193 against
  // five 32-bit reads and funnel shifts per chunk: float32 4.5% faster (v10);
  // with v13's narrow loads, uint8 0.9% faster and bfloat16 level, so all
  // element sizes use this one.
  static __device__ __forceinline__ void store_tile_skewed(const TiledTransposeParams& p,
                                                    int64_t out_tile, int64_t r0, int cols_here,
                                                    const char* smem) {
    constexpr int ROW_CHUNKS = STEP_R * E / 16;
    constexpr int ROW_STEP = THREADS / ROW_SEGMENTS;  // output rows between a thread's tasks
    static_assert(LEAD_R * E == SKEW_BYTES && ROW_CHUNKS == ROW_SEGMENTS - SKEW_BYTES / 16,
                  "a skewed tile writes all but SKEW_BYTES of each row");
    static_assert(THREADS % ROW_SEGMENTS == 0 && (TC * ROW_SEGMENTS) % THREADS == 0,
                  "even work split");
    // A thread's rows lie ROW_STEP * E * p.rows bytes apart, a multiple of
    // SKEW_BYTES, so they share their misalignment: where the thread's chunk
    // starts, and whether it is this tile's, is worked out once.
    static_assert(ROW_STEP * E % SKEW_BYTES == 0, "a thread's rows share their misalignment");
    const int first_row = threadIdx.x / ROW_SEGMENTS;  // input column
    const int unit = threadIdx.x % ROW_SEGMENTS;
    const int64_t row_bytes = p.rows * E;
    // The first row's bytes from the tile's first row on; the tile's part of
    // them starts at the first SKEW_BYTES boundary after the first byte (`window`
    // bytes in), so the chunk that starts in unit `unit` lies `offset` bytes into it.
    char* const row_at_tile = p.out + out_tile + first_row * row_bytes;
    const int misalignment =
        static_cast<int>(reinterpret_cast<uintptr_t>(row_at_tile) & (SKEW_BYTES - 1));
    const int window = SKEW_BYTES - misalignment;  // in (0, SKEW_BYTES]
    const int offset = window % 16;
    const int chunk = unit - window / 16;
    if (chunk < 0 || chunk >= ROW_CHUNKS) {
      return;  // the unit's bytes are the neighbouring tile's to store
    }
    const int begin = 16 * unit + offset;  // in the tile's row, in bytes
    const Span span = inside_matrix(r0 * E + begin, row_bytes);
    if (span.lo >= span.hi) {
      return;
    }
    const int next_unit = unit + 1 < ROW_SEGMENTS ? unit + 1 : unit;
#pragma unroll
    for (int task = 0; task < TC / ROW_STEP; ++task) {
      const int row = first_row + task * ROW_STEP;
      if (row >= cols_here) {
        return;
      }
      // Output rows start element-aligned, so offset is a multiple of E.
      const Segment out = bytes_at<E>(smem_unit(smem, row, unit),
                                      smem_unit(smem, row, next_unit), offset);
      store_chunk(row_at_tile + task * ROW_STEP * row_bytes + begin, out, span);
    }
  }

  // 16-byte unit `unit` of output-tile row `row`.
  static __device__ __forceinline__ Segment smem_unit(const char* smem, int row, int unit) {
    return *reinterpret_cast<const Segment*>(smem + smem_offset(row, 16 * unit));
  }

  // Bytes [lo, hi) of `value` to dst[lo, hi), dst 16-byte aligned: at most one
  // aligned piece of each size rising to alignment, then one of each falling.
  static __device__ __forceinline__ void store_part(char* dst, const Segment& value, int lo,
                                                    int hi) {
    const uint64_t halves[2] = {value.w[0] | (uint64_t{value.w[1]} << 32),
                                value.w[2] | (uint64_t{value.w[3]} << 32)};
    int pos = lo;
#pragma unroll
    for (int size = 1; size <= 8; size *= 2) {
      if ((pos & size) && pos + size <= hi) {
        store_word(dst, halves, pos, size);
        pos += size;
      }
    }
#pragma unroll
    for (int size = 8; size >= 1; size /= 2) {
      if (pos + size <= hi) {
        store_word(dst, halves, pos, size);
        pos += size;
      }
    }
  }

  static __device__ __forceinline__ void store_word(char* dst, const uint64_t (&halves)[2],
                                                     int pos, int size) {
    const uint64_t bits = (pos >= 8 ? halves[1] : halves[0]) >> (8 * (pos & 7));
    switch (size) {
      case 1:
        *reinterpret_cast<uint8_t*>(dst + pos) = static_cast<uint8_t>(bits);
        break;
      case 2:
        *reinterpret_cast<uint16_t*>(dst + pos) = static_cast<uint16_t>(bits);
        break;
      case 4:
        *reinterpret_cast<uint32_t*>(dst + pos) = static_cast<uint32_t>(bits);
        break;
      default:
        *reinterpret_cast<uint64_t*>(dst + pos) = bits;
        break;
    }
  }

  // `count` bytes of output-tile row `row` from byte `begin` on, to dst.
  static __device__ __forceinline__ void store_bytes(char* dst, const char* smem, int row,
                                                     int begin, int count) {
    for (int i = 0; i < count; i += E) {
      *reinterpret_cast<Element*>(dst + i) =
          *reinterpret_cast<const Element*>(smem + smem_offset(row, begin + i));
    }
  }
};

template <int E, Access LOAD, Access STORE, Tiling TILING, InputL2 L2 = InputL2::Normal>
__global__ void __launch_bounds__(TiledTranspose<E, LOAD, STORE, TILING, L2>::THREADS,
                                  TiledTranspose<E, LOAD, STORE, TILING, L2>::MIN_BLOCKS_PER_SM)
    tiled_transpose_kernel(const TiledTransposeParams params) {
  using Kernel = TiledTranspose<E, LOAD, STORE, TILING, L2>;
  // Dynamic, so that a tile may take more than 48 KiB (the launcher opts in).
  extern __shared__ __align__(16) char smem[];  // Kernel::SMEM_TOTAL_BYTES
  Kernel::run(params, smem);
}

}  // namespace cuda
}  // namespace gputranspose
