#pragma once
// The tiled kernels' configurations as plain constants: what each instance of the tiled
// kernel is (its tile, threads, shared memory, skew), the set of instances that exist,
// and a visitor from runtime values to an instance. Plain C++ (no device code), so that
// the kernel choice (kernel_choice.cpp) and the launchers (cuda/) read the same numbers.
// docs/DESIGN.md ("The tiled kernel": "Tile shapes") gives the measurements behind them.

#include <cstdint>

namespace gputranspose {

// Which tile a kernel takes (kernel_choice.cpp picks it per shape).
enum class Tiling : uint8_t {
  Wide,    // one matrix per tile (TileShape's aligned, word_loaded or skewed tiles)
  Small,   // one matrix per tile, for aligned 1- and 16-byte matrices whose tiles all fit
           // on the GPU at once, so that one tile's latency bounds them: smaller tiles
           // (1-byte), or more blocks a SM (16-byte: MIN_BLOCKS_PER_SM)
  Folded,  // several whole small matrices per tile (FoldedTile), TileShape::small
  Tall,    // one matrix per tile, TileShape::tall: rows that start anywhere under
           // aligned stores (has_tall_tile), where the output's rows are long
};

// How a side's rows are touched.
enum class Access : uint8_t {
  Aligned16,  // every row starts 16-byte aligned: one 128-bit access per 16 bytes
  Words,      // rows start anywhere: the widest aligned words, shifted into place
              // (stores: skewed tiles writing whole aligned 16-byte chunks)
  Staged,     // (loads) rows start anywhere: aligned 16-byte chunks staged in
              // shared memory, shifted into place from there
};

// The L2 priority of the input's lines (one-matrix tiles only).
enum class InputL2 : uint8_t {
  Normal,     // plain loads
  EvictLast,  // evict_last loads, released by the tiles that read the input's last
              // half an L2 of lines, after their stores (reads_evict_last)
};

const char* tiling_name(Tiling tiling);
const char* access_name(Access access);
const char* input_l2_name(InputL2 l2);

// Input past L2 is read at evict_last and released by the last blocks: the output's
// lines then stay in L2 longer before they are written back, and L2 is left as a copy
// leaves it. Worth it for aligned loads (aligned stores, or skewed stores of 1- to
// 8-byte elements) and 8-byte word loads; the other unaligned loads lose by it.
constexpr bool reads_evict_last(int e, Access load, Access store) {
  if (load == Access::Aligned16) return store == Access::Aligned16 || e <= 8;
  return load == Access::Words && e == 8;
}

// The kernels of rows that start anywhere (under aligned stores) that have a tall tile:
// staged 1- and 2-byte rows and 4- and 8-byte word loads. 2-byte word loads' shorter
// shifted runs cost a sector more each, and 16-byte output runs are 1 KiB already.
constexpr bool has_tall_tile(int e, Access load) {
  return load == Access::Staged || (load == Access::Words && (e == 4 || e == 8));
}

// A tile's extent: `rows` x `cols` input elements (rows and columns of at least
// 128 bytes: a cache line, the swizzle's period).
struct TileExtent {
  int rows;
  int cols;
  // Tiling::Tall's tile from a wide one: twice as tall and half as wide, as many bytes.
  constexpr TileExtent taller() const { return {2 * rows, cols / 2}; }
};

// The tiles per element size, one per kind of kernel (TiledConfig picks it):
//   small          small and folded tiles (Tiling), 16 KiB; 32 KiB for 16-byte
//                  elements, whose 1 KiB output rows are faster
//   aligned        both sides aligned, one matrix (or staged 1-byte loads): input
//                  rows read 256 bytes at a time at least
//   word_loaded    word-shifted loads, aligned stores: 256 bytes or more of each row,
//                  for the same reason; 2-byte ones 64 x 256, one micro-block a thread
//   skewed         skewed stores, aligned or staged loads: twice as tall, since a
//                  skewed tile re-reads 16 or 32 bytes of each column
//   staged_loaded  staged loads, aligned stores: 1-byte ones the aligned tile; 2-byte
//                  ones 256-byte runs on both sides
//   skewed_past_l2 skewed stores with aligned loads, past L2 (at evict_last): the
//                  skewed tile, but 1-byte ones 256 bytes wide rather than tall
//   tall           Tiling::Tall: twice as tall and half as wide as staged_loaded (1-
//                  and 2-byte) or word_loaded (4- and 8-byte), so output runs are
//                  twice as long
//   word_skewed    skewed stores, word-shifted (or staged 2-byte) loads: input runs
//                  start anywhere, so wider runs read fewer extra L2 sectors (128
//                  bytes: 5 sectors for 4 of data; 256: 9 for 8), worth more than the
//                  rows a shorter tile re-reads
// 16-byte elements' output rows are always aligned (never skewed), and 1-byte rows
// that start anywhere are staged, never word-shifted, so those element sizes leave
// some of these tiles unused.
// `piece` is the bytes of each input row that one thread takes in phase 1: one 32-bit
// word for 1-byte elements, so that their tile has 256 threads rather than 64; 16
// bytes otherwise (staged skewed 2-byte tiles take 8: TiledConfig::PIECE).
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
  // 256-byte input runs, as the aligned tile's, for twice the re-read rows.
  static constexpr TileExtent skewed_past_l2 = {128, 256};
};
template <>
struct TileShape<2> {
  static constexpr int piece = 16;
  static constexpr TileExtent small = {128, 64};
  static constexpr TileExtent aligned = {128, 128};
  static constexpr TileExtent word_loaded = {64, 256};
  static constexpr TileExtent staged_loaded = {128, 128};
  static constexpr TileExtent skewed = {256, 128};
  static constexpr TileExtent skewed_past_l2 = skewed;
  static constexpr TileExtent word_skewed = {128, 128};
  static constexpr TileExtent tall = staged_loaded.taller();  // staged loads only
};

// One instance of the tiled kernel (cuda/tiled_transpose.cuh), templated on what it
// moves, never on the dtype:
//   E       element size in bytes (1, 2, 4, 8, 16)
//   LOAD    how input rows are read:     Access::Aligned16, Words or Staged
//   STORE   how output rows are written: Access::Aligned16 or Words (skewed tiles)
//   TILING  the tile (Tiling)
//   L2      the L2 priority of the input's lines (InputL2)
template <int E, Access LOAD, Access STORE, Tiling TILING = Tiling::Wide,
          InputL2 L2 = InputL2::Normal>
struct TiledConfig {
  static constexpr int ELEMENT_SIZE = E;
  static constexpr Access LOAD_ACCESS = LOAD;
  static constexpr Access STORE_ACCESS = STORE;
  static constexpr Tiling TILING_KIND = TILING;
  static constexpr InputL2 INPUT_L2 = L2;
  // Staged 2-byte rows take the word-shifted tiles' shape under skewed stores (their
  // loads cover rows that start anywhere alike), and staged_loaded under aligned ones.
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
  static constexpr int M = 16 / E;  // micro-block rows, in elements
  // Staged 2-byte rows under skewed stores take 8-byte pieces (one micro-block of 8 rows
  // x 8 bytes a thread), so that their tile has 512 threads, as staged 1-byte tiles have.
  static constexpr bool STAGED_SKEWED_2_BYTE =
      E == 2 && LOAD == Access::Staged && STORE == Access::Words;
  static constexpr int PIECE = STAGED_SKEWED_2_BYTE ? 8 : TileShape<E>::piece;
  static constexpr int W = PIECE / 4;   // words of each of its rows
  static constexpr int MC = 4 * W / E;  // micro-block columns
  // Edge micro-blocks without a round trip per element (micro_block.cuh, edge loads),
  // where they cost something: the first and last tile-rows of skewed tiles, whose
  // output rows are not 16-byte aligned, so that their number is not a multiple of M.
  // Elsewhere the path only costs registers.
  static constexpr bool FAST_EDGES = STORE == Access::Words && M > 1;
  // Micro-blocks of 2-byte rows cut by the matrix's last column, a column of M elements
  // at a time (load_tile): where FAST_EDGES, for word-loaded tiles, and in one-matrix
  // aligned-store tiles. Not staged ones, whose cut micro-blocks are read whole.
  static constexpr bool COLUMN_EDGES =
      E == 2 && LOAD != Access::Staged &&
      (FAST_EDGES ? LOAD == Access::Words : TILING == Tiling::Wide);
  static constexpr bool EVICT_LAST = L2 == InputL2::EvictLast;
  static constexpr int BLOCKS_C = TC / MC;  // micro-blocks along a tile row
  static constexpr int NUM_BLOCKS = (TR / M) * BLOCKS_C;
  // Skewed and staged tiles: up to 512 threads take their micro-blocks one each rather
  // than 256 taking two (more warps in flight; fewer registers a thread); aligned 1-byte
  // tiles keep 256 (at 512 they hold three blocks a SM, not four).
  static constexpr int MAX_THREADS =
      STORE == Access::Words || LOAD == Access::Staged ? 512 : 256;
  static constexpr int THREADS = NUM_BLOCKS < MAX_THREADS ? NUM_BLOCKS : MAX_THREADS;
  // Register bounds where ptxas's own choice loses blocks a SM: small 16-byte tiles
  // (four blocks a SM, so that a 1024^2 matrix's 512 tiles run in one wave), folded
  // 1-byte tiles (eight), staged skewed 2-byte tiles (three of 512 threads, as many as
  // an H100's shared memory holds), skewed 1-byte tiles at evict_last (four). 0 leaves
  // the others to ptxas.
  static constexpr bool SKEWED_1_BYTE_EVICT_LAST =
      E == 1 && LOAD == Access::Aligned16 && STORE == Access::Words && L2 == InputL2::EvictLast;
  static constexpr int MIN_BLOCKS_PER_SM = E == 16 && TILING == Tiling::Small ? 4
                                           : E == 1 && TILING == Tiling::Folded ? 8
                                           : STAGED_SKEWED_2_BYTE               ? 3
                                           : SKEWED_1_BYTE_EVICT_LAST           ? 4
                                                                                : 0;
  static constexpr int SMEM_ROW_BYTES = TR * E;  // an output-tile row
  static constexpr int SMEM_BYTES = TC * SMEM_ROW_BYTES;
  static constexpr int ROW_SEGMENTS = SMEM_ROW_BYTES / 16;
  // Staged loads: each input row of the tile kept as the aligned 16-byte chunks that
  // hold it (one more than its 16-byte units), after the output tile, each chunk at its
  // source's offset in a 32-byte sector (16 bytes more a row): a copy whose destination
  // lies otherwise in its sector than its source has L2 send back more sectors than the
  // copies ask for. A staged row's first byte lies at the row's address modulo
  // STAGE_SECTOR.
  static constexpr int STAGE_SECTOR = 32;
  static constexpr int STAGE_UNITS = TC * E / 16 + 1;
  static constexpr int STAGE_ROW_BYTES = 16 * STAGE_UNITS + STAGE_SECTOR - 16;
  static constexpr int STAGE_BYTES = LOAD == Access::Staged ? TR * STAGE_ROW_BYTES : 0;
  static constexpr int SMEM_TOTAL_BYTES = SMEM_BYTES + STAGE_BYTES;
  // Skewed tiles (cuda/tiled_transpose.cuh): input rows whose output a tile writes, and
  // the rows it loads before the first of them. Sector-aligned write windows cost twice
  // the re-read rows: worth it where loads are aligned or words of 4- to 16-byte
  // elements, not where 1-byte rows are staged or 2-byte rows shifted.
  static constexpr int SKEW_BYTES = LOAD == Access::Aligned16 || E >= 4 ? 32 : 16;
  static constexpr int STEP_R = STORE == Access::Words ? TR - SKEW_BYTES / E : TR;
  static constexpr int LEAD_R = TR - STEP_R;
  // How far a row's write window slides up: its misalignment, at most LEAD_R - 1.
  static constexpr int MAX_SKEW_R = STORE == Access::Words ? LEAD_R - 1 : 0;

  // Tiles per matrix along its rows and its columns.
  static constexpr int64_t tiles_along_rows(int64_t rows) {
    return (rows + MAX_SKEW_R + STEP_R - 1) / STEP_R;
  }
  static constexpr int64_t tiles_along_cols(int64_t cols) { return (cols + TC - 1) / TC; }
  // Tiles of a batch of matrices, one matrix per tile (not Folded).
  static constexpr int64_t tiles_of(int64_t batch, int64_t rows, int64_t cols) {
    return batch * tiles_along_rows(rows) * tiles_along_cols(cols);
  }

  static_assert(!EVICT_LAST || (TILING == Tiling::Wide && reads_evict_last(E, LOAD, STORE)),
                "evict_last input: the one-matrix tiles of reads_evict_last");
  static_assert(TR % M == 0 && TC % M == 0 && M % MC == 0, "tile must hold whole micro-blocks");
  static_assert(TILING == Tiling::Wide || TILING == Tiling::Tall ||
                    (LOAD == Access::Aligned16 && STORE == Access::Aligned16),
                "small and folded tiles move aligned rows only");
  static_assert(TILING != Tiling::Tall || (has_tall_tile(E, LOAD) && STORE == Access::Aligned16),
                "tall tiles: has_tall_tile's rows that start anywhere, under aligned stores");
  static_assert(STORE != Access::Staged, "staging is for loads");
  static_assert(SMEM_ROW_BYTES % 128 == 0 && TC * E >= 128,
                "the swizzle needs tile rows and columns of at least 128 bytes");
  static_assert(NUM_BLOCKS % THREADS == 0 && (TC * ROW_SEGMENTS) % THREADS == 0,
                "even work split");
};

// How rows that start anywhere are read, per element size: 1-byte rows are staged
// (word-shifted loads would spread each warp request over four rows), wider ones read
// as words (2-byte ones staged too where kernel_choice.cpp says).
constexpr Access unaligned_load(int e) { return e == 1 ? Access::Staged : Access::Words; }

// The instances that exist: those kernel_choice.cpp can pick. The launchers compile
// exactly these, and a choice outside them is refused.
constexpr bool tiled_kernel_exists(int e, Access load, Access store, Tiling tiling, InputL2 l2) {
  if (store == Access::Staged) return false;
  const bool unaligned = load == unaligned_load(e) || (e == 2 && load == Access::Staged);
  switch (tiling) {
    case Tiling::Folded:
      return load == Access::Aligned16 && store == Access::Aligned16 && l2 == InputL2::Normal;
    case Tiling::Small:
      return (e == 1 || e == 16) && load == Access::Aligned16 && store == Access::Aligned16 &&
             l2 == InputL2::Normal;
    case Tiling::Tall:
      return unaligned && has_tall_tile(e, load) && store == Access::Aligned16 &&
             l2 == InputL2::Normal;
    case Tiling::Wide:
      if (load != Access::Aligned16 && !unaligned) return false;
      if (e == 16 && load == Access::Aligned16 && store == Access::Words && l2 == InputL2::EvictLast)
        return false;
      return l2 == InputL2::Normal || reads_evict_last(e, load, store);
  }
  return false;
}

namespace detail {

template <int E, Access L, Access S, Tiling T, InputL2 C, class F>
bool visit_instance(F& f) {
  if constexpr (tiled_kernel_exists(E, L, S, T, C)) {
    f(TiledConfig<E, L, S, T, C>{});
    return true;
  } else {
    return false;
  }
}

template <int E, Access L, Access S, Tiling T, class F>
bool visit_l2(InputL2 l2, F& f) {
  return l2 == InputL2::EvictLast ? visit_instance<E, L, S, T, InputL2::EvictLast>(f)
                                  : visit_instance<E, L, S, T, InputL2::Normal>(f);
}

template <int E, Access L, Access S, class F>
bool visit_tiling(Tiling tiling, InputL2 l2, F& f) {
  switch (tiling) {
    case Tiling::Wide:
      return visit_l2<E, L, S, Tiling::Wide>(l2, f);
    case Tiling::Small:
      return visit_l2<E, L, S, Tiling::Small>(l2, f);
    case Tiling::Folded:
      return visit_l2<E, L, S, Tiling::Folded>(l2, f);
    case Tiling::Tall:
      return visit_l2<E, L, S, Tiling::Tall>(l2, f);
  }
  return false;
}

template <int E, Access L, class F>
bool visit_store(Access store, Tiling tiling, InputL2 l2, F& f) {
  return store == Access::Aligned16 ? visit_tiling<E, L, Access::Aligned16>(tiling, l2, f)
         : store == Access::Words   ? visit_tiling<E, L, Access::Words>(tiling, l2, f)
                                    : false;
}

}  // namespace detail

// Calls f(TiledConfig<E, load, store, tiling, l2>{}) for the instance named by runtime
// values, E fixed; false (f not called) where no such instance exists.
template <int E, class F>
bool visit_tiled_config(Access load, Access store, Tiling tiling, InputL2 l2, F&& f) {
  switch (load) {
    case Access::Aligned16:
      return detail::visit_store<E, Access::Aligned16>(store, tiling, l2, f);
    case Access::Words:
      return detail::visit_store<E, Access::Words>(store, tiling, l2, f);
    case Access::Staged:
      return detail::visit_store<E, Access::Staged>(store, tiling, l2, f);
  }
  return false;
}

// The same with the element size a runtime value too.
template <class F>
bool visit_tiled_config(int e, Access load, Access store, Tiling tiling, InputL2 l2, F&& f) {
  switch (e) {
    case 1:
      return visit_tiled_config<1>(load, store, tiling, l2, f);
    case 2:
      return visit_tiled_config<2>(load, store, tiling, l2, f);
    case 4:
      return visit_tiled_config<4>(load, store, tiling, l2, f);
    case 8:
      return visit_tiled_config<8>(load, store, tiling, l2, f);
    case 16:
      return visit_tiled_config<16>(load, store, tiling, l2, f);
  }
  return false;
}

// The wide-element kernel (cuda/wide_element_transpose.cuh): elements of a multiple of
// 16 bytes, copied as 16-byte units with no shared memory (elements over 682 bytes off 16
// bytes: units of 8 to 1 byte, as many more a tile as keep its bytes). A tile is 2^rows_log2 output
// rows (consecutive elements of each input row) by a span of units of each, so that each
// input row's part of it is a run of up to 1 KiB.
struct WideElementTile {
  static constexpr int64_t INPUT_RUN_BYTES = 1024;
  static constexpr int OUTPUT_RUN_UNITS = 16;  // 256 bytes: a tile's least of an output row
  static constexpr int MIN_UNITS = 128;        // 2 KiB: a tile's least
  static constexpr int MAX_THREADS = 256;
  // Input rows this far apart or more are walked in patches of PATCH_GROUPS tile-rows.
  static constexpr int64_t PATCH_PITCH_BYTES = int64_t{128} << 10;
  static constexpr int PATCH_GROUPS = 16;

  static constexpr int MAX_ROWS_LOG2 = 5;
  // log2 of the output rows a tile takes: the most (a power of two, up to 32) whose
  // elements make an input run of at most INPUT_RUN_BYTES (0 to 5: elements of 1 KiB or
  // more down to 32 bytes; 16-byte elements 5).
  static constexpr int rows_log2(int64_t element_size) {
    int log2 = 0;
    while (log2 < MAX_ROWS_LOG2 && (element_size << (log2 + 1)) <= INPUT_RUN_BYTES) ++log2;
    return log2;
  }
  // 16-byte units a tile: 128, 256 for 48- and 64-byte elements (16 rows), 512 for
  // 32-byte ones (32 rows).
  static constexpr int units(int rows_log2) {
    return MIN_UNITS > (OUTPUT_RUN_UNITS << rows_log2) ? MIN_UNITS : OUTPUT_RUN_UNITS << rows_log2;
  }
  // Threads a block of `units`: one unit each, up to MAX_THREADS (32-byte elements two
  // each).
  static constexpr int threads(int units) { return units < MAX_THREADS ? units : MAX_THREADS; }
};

}  // namespace gputranspose
