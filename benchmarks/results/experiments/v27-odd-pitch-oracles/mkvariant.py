# Make variant trees of HEAD's tiled_transpose.cuh: python3 .ab/mkvariant.py NAME FLAGS...
import subprocess, sys, os, shutil
name, flags = sys.argv[1], set(sys.argv[2:])
d = f".ab/t_{name}"
shutil.rmtree(d, ignore_errors=True); os.makedirs(d)
subprocess.run(f"git archive HEAD | tar -x -C {d} && rm -rf {d}/benchmarks/results", shell=True, check=True)
p = f"{d}/csrc/cuda/tiled_transpose.cuh"
s = open(p).read()
def rep(a, b):
    global s
    assert s.count(a) == 1, a
    s = s.replace(a, b)
if "line_skew" in flags:  # 1-byte skewed tiles: write windows on 128-byte lines
    rep("static constexpr int SKEW_BYTES = LOAD == Access::Aligned16 || E >= 4 ? 32 : 16;",
        "static constexpr int SKEW_BYTES = E == 1 ? 128 : LOAD == Access::Aligned16 || E >= 4 ? 32 : 16;")
if "line_skew" in flags or "skew64" in flags:
    rep("""    static_assert(ROW_STEP * E % SKEW_BYTES == 0, "a thread's rows share their misalignment");""",
        """    constexpr bool SHARED_PLACE = ROW_STEP * E % SKEW_BYTES == 0;""")
    rep("""    const int misalignment =
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
    const int next_unit = unit + 1 < ROW_SEGMENTS ? unit + 1 : unit;""",
    """    const int next_unit = unit + 1 < ROW_SEGMENTS ? unit + 1 : unit;
    const ChunkPlace first = place_chunk(row_at_tile, unit, r0, row_bytes);
    if (SHARED_PLACE && first.span.lo >= first.span.hi) {
      return;
    }""")
    rep("""      // Output rows start element-aligned, so offset is a multiple of E.
      const Segment out = bytes_at<E>(smem_unit(smem, row, unit),
                                      smem_unit(smem, row, next_unit), offset);
      store_chunk(row_at_tile + task * ROW_STEP * row_bytes + begin, out, span);
    }
  }
""", """      char* const dst_row = row_at_tile + task * ROW_STEP * row_bytes;
      const ChunkPlace at = SHARED_PLACE ? first : place_chunk(dst_row, unit, r0, row_bytes);
      if (!SHARED_PLACE && at.span.lo >= at.span.hi) {
        continue;
      }
      const Segment out = bytes_at<E>(smem_unit(smem, row, unit),
                                      smem_unit(smem, row, next_unit), at.offset);
      store_chunk(dst_row + at.begin, out, at.span);
    }
  }

  struct ChunkPlace {
    int begin;
    int offset;
    Span span;
  };
  static __device__ __forceinline__ ChunkPlace place_chunk(const char* row_at_tile, int unit,
                                                           int64_t r0, int64_t row_bytes) {
    constexpr int ROW_CHUNKS = STEP_R * E / 16;
    const int misalignment =
        static_cast<int>(reinterpret_cast<uintptr_t>(row_at_tile) & (SKEW_BYTES - 1));
    const int window = SKEW_BYTES - misalignment;
    const int offset = window % 16;
    const int chunk = unit - window / 16;
    if (chunk < 0 || chunk >= ROW_CHUNKS) {
      return {0, 0, {0, 0}};
    }
    const int begin = 16 * unit + offset;
    return {begin, offset, inside_matrix(r0 * E + begin, row_bytes)};
  }
""")
if "no_lead" in flags:  # oracle: skewed tiles skip their LEAD rows' loads (output wrong)
    rep("""      full[k] = w.row_lo <= 0 && w.row_hi >= M && w.col_hi >= MC;
      if (full[k]) {""", """      full[k] = w.row_lo <= 0 && w.row_hi >= M && w.col_hi >= MC;
      if (STORE == Access::Words && r < LEAD_R) { full[k] = false; continue; }
      if (full[k]) {""")
    rep("""          if (unit < BODY_UNITS || misalignment_16(row) != 0) {""",
        """          if (STORE == Access::Words && r < LEAD_R) {} else
          if (unit < BODY_UNITS || misalignment_16(row) != 0) {""")
if "aligned_256x128" in flags:  # 1-byte aligned tiles in the skewed tiles' geometry
    rep("static constexpr TileExtent aligned = {128, 256};", "static constexpr TileExtent aligned = {256, 128};")
    rep("static constexpr int MAX_THREADS = STORE == Access::Words ? 512 : 256;",
        "static constexpr int MAX_THREADS = STORE == Access::Words || (E == 1 && TILING == Tiling::Wide) ? 512 : 256;")

mode = next((f for f in flags if f.startswith("exact")), None)
if mode:  # 1-byte skewed tiles write exactly their TR rows of each output row (no LEAD rows)
    rep("static constexpr int STEP_R = STORE == Access::Words ? TR - SKEW_BYTES / E : TR;",
        "static constexpr bool EXACT = E == 1 && STORE == Access::Words;\n"
        "  static constexpr int STEP_R = STORE == Access::Words && !EXACT ? TR - SKEW_BYTES / E : TR;")
    rep("static constexpr int MAX_SKEW_R = STORE == Access::Words ? LEAD_R - 1 : 0;",
        "static constexpr int MAX_SKEW_R = STORE == Access::Words && !EXACT ? LEAD_R - 1 : 0;")
    body = {
      "exact": """
        const int lo_unit = m && unit > 0 ? unit - 1 : unit;
        const int hi_unit = m ? unit : lo_unit;
        const Segment lo = smem_unit(smem, row, lo_unit);
        const Segment hi = smem_unit(smem, row, hi_unit);
        Span span = inside_matrix(r0 * E + 16 * unit - m, row_bytes);
        if (unit == 0 && span.lo < m) span.lo = m;
        if (span.lo < span.hi) store_chunk(base + 16 * unit, bytes_at<E>(lo, hi, (16 - m) & 15), span);
        if (unit == ROW_SEGMENTS - 1 && m) {
          Span last = inside_matrix(r0 * E + TR * E - m, row_bytes);
          if (last.hi > m) last.hi = m;
          if (last.lo < last.hi) store_chunk(base + 16 * ROW_SEGMENTS, bytes_at<E>(hi, hi, 16 - m), last);
        }""",
      "exact_g16": """
        const Span span = inside_matrix(r0 * E + 16 * unit - m, row_bytes);
        if (span.lo == 0 && span.hi == 16) *reinterpret_cast<Segment*>(base + 16 * unit) = smem_unit(smem, row, unit);""",
      "exact_g128": """
        const Span span = inside_matrix(r0 * E + 16 * unit - m, row_bytes);
        char* const line = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(start) & ~uintptr_t{127});
        if (span.lo == 0 && span.hi == 16 && line >= p.out) *reinterpret_cast<Segment*>(line + 16 * unit) = smem_unit(smem, row, unit);""",
    }[mode]
    rep("""    constexpr int ROW_CHUNKS = STEP_R * E / 16;
    constexpr int ROW_STEP = THREADS / ROW_SEGMENTS;  // output rows between a thread's tasks
""", """    constexpr int ROW_STEP = THREADS / ROW_SEGMENTS;  // output rows between a thread's tasks
    if constexpr (EXACT) {
      const int first_row = threadIdx.x / ROW_SEGMENTS;
      const int unit = threadIdx.x % ROW_SEGMENTS;
      const int64_t row_bytes = p.rows * E;
      char* const row_at_tile = p.out + out_tile + first_row * row_bytes;
#pragma unroll
      for (int task = 0; task < TC / ROW_STEP; ++task) {
        const int row = first_row + task * ROW_STEP;
        if (row >= cols_here) return;
        char* const start = row_at_tile + task * ROW_STEP * row_bytes;
        const int m = misalignment_16(start);
        char* const base = start - m;
""" + body + """
      }
      return;
    } else {
    constexpr int ROW_CHUNKS = STEP_R * E / 16;
""")
    rep("""      store_chunk(row_at_tile + task * ROW_STEP * row_bytes + begin, out, span);
    }
  }
""", """      store_chunk(row_at_tile + task * ROW_STEP * row_bytes + begin, out, span);
    }
    }
  }
""")
if "rows_reversed" in flags:  # skewed store: a tile's output rows written last to first
    rep("""    const int first_row = threadIdx.x / ROW_SEGMENTS;  // input column
    const int unit = threadIdx.x % ROW_SEGMENTS;
    const int64_t row_bytes = p.rows * E;""", """    const int first_row = TC - 1 - threadIdx.x / ROW_SEGMENTS;  // input column
    const int unit = threadIdx.x % ROW_SEGMENTS;
    const int64_t row_bytes = p.rows * E;""")
    rep("""      const int row = first_row + task * ROW_STEP;
      if (row >= cols_here) {
        return;
      }
      // Output rows""", """      const int row = first_row - task * ROW_STEP;
      if (row >= cols_here) {
        continue;
      }
      // Output rows""")
    rep("store_chunk(row_at_tile + task * ROW_STEP * row_bytes + begin, out, span);",
        "store_chunk(row_at_tile - task * ROW_STEP * row_bytes + begin, out, span);")
if "cols_reversed" in flags:  # skewed kernels walk the tile columns last to first
    rep("    const int64_t tc = tc_u;", "    const int64_t tc = STORE == Access::Words ? p.tiles_c - 1 - tc_u : tc_u;")
if "skew64" in flags:  # 1-byte aligned-load skewed tiles: 64-byte write windows
    rep("static constexpr int SKEW_BYTES = LOAD == Access::Aligned16 || E >= 4 ? 32 : 16;",
        "static constexpr int SKEW_BYTES = E == 1 && LOAD == Access::Aligned16 ? 64 : LOAD == Access::Aligned16 || E >= 4 ? 32 : 16;")
if "force_env" in flags:  # GPUTRANSPOSE_FORCE=skew|stage|both picks the odd kernels for any rows
    q = f"{d}/csrc/cuda/transpose_cuda.cu"
    t = open(q).read()
    a = """  const bool load16 = plan.load_bytes == 16;
  const bool store16 = plan.store_bytes == 16;"""
    assert a in t
    t = t.replace(a, """  static const int force = [] {
    const char* f = std::getenv("GPUTRANSPOSE_FORCE");
    return !f ? 0 : f[0] == 's' && f[1] == 'k' ? 1 : f[0] == 's' ? 2 : f[0] == 'b' ? 3 : 0;
  }();
  const bool load16 = plan.load_bytes == 16 && !(force & 2);
  const bool store16 = plan.store_bytes == 16 && !(force & 1);""")
    open(q, "w").write(t)
open(p, "w").write(s)
print(name, sorted(flags))
