#pragma once
// Register-level pieces of the tiled kernel: the transpose of a micro-block (M = 16 / E
// rows of one piece each) in registers, the shifts that take a piece out of the aligned
// words that hold it, the loads of row pieces, and the stores of (parts of) aligned
// 16-byte output chunks.

#include "../tile_config.h"
#include "ptx.cuh"

#include <cstdint>

namespace gputranspose {
namespace cuda {

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
    // half by half.
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

// Edge paths issue every load before using any: a load whose value is stored
// (or merged) before the next one is issued costs a whole memory round trip, about
// a microsecond under a busy memory system, so that the 60 of a 1-byte micro-block
// cut by the matrix's last row made the last tile-row's blocks four times as slow
// as the rest.

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

// The bytes [lo, hi) of a 16-byte chunk that lie inside the matrix, the chunk
// starting at byte `in_row` of its output row (negative: before the row).
struct Span {
  int lo;
  int hi;
};
__device__ __forceinline__ Span inside_matrix(int64_t in_row, int64_t matrix_bytes) {
  return {in_row < 0 ? static_cast<int>(-in_row) : 0,
          matrix_bytes - in_row < 16 ? static_cast<int>(matrix_bytes - in_row) : 16};
}

// One aligned piece (1, 2, 4 or 8 bytes) of halves at byte pos, to dst + pos.
__device__ __forceinline__ void store_word(char* dst, const uint64_t (&halves)[2], int pos,
                                           int size) {
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

// Bytes [lo, hi) of `value` to dst[lo, hi), dst 16-byte aligned: at most one
// aligned piece of each size rising to alignment, then one of each falling.
__device__ __forceinline__ void store_part(char* dst, const Segment& value, int lo, int hi) {
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

// One aligned 16-byte output chunk: one 128-bit store, or its part `span`.
__device__ __forceinline__ void store_chunk(char* dst, const Segment& value, Span span) {
  if (span.lo == 0 && span.hi == 16) {
    *reinterpret_cast<Segment*>(dst) = value;
  } else {
    store_part(dst, value, span.lo, span.hi);
  }
}

}  // namespace cuda
}  // namespace gputranspose
