// gputranspose::_explain: what a transpose or permute of x runs on CUDA, and why (the plan
// and the device's kernel choice, as the CUDA kernels make them), as "key<TAB>value" lines
// in a uint8 tensor: the stable ABI passes tensors and numbers, not dicts or strings, and
// torch_transpose/_explain.py reads the lines into explain()'s dict.

#include "../core/kernel_choice.h"
#include "../core/tile_config.h"
#include "errors.h"
#include "kernels.h"
#include "tuning.h"

#include <torch/csrc/stable/ops.h>
#include <torch/headeronly/core/ScalarType.h>

#ifdef GPUTRANSPOSE_WITH_CUDA
#include "../core/launch.h"

#include <cuda_runtime_api.h>
#include <torch/csrc/stable/macros.h>
#endif

#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>

namespace gputranspose::stable {

namespace {

class Lines {
 public:
  Lines() { text_ << std::setprecision(std::numeric_limits<double>::max_digits10); }
  template <class T>
  void add(const char* key, const T& value) {
    text_ << key << '\t' << value << '\n';
  }
  void add_list(const char* key, const int64_t* values, int count) {
    text_ << key << '\t';
    for (int i = 0; i < count; ++i) text_ << (i ? "," : "") << values[i];
    text_ << '\n';
  }
  Tensor tensor() const {
    const std::string text = text_.str();
    Tensor out = torch::stable::empty({static_cast<int64_t>(text.size())},
                                      torch::headeronly::ScalarType::Byte);
    if (!text.empty()) std::memcpy(out.mutable_data_ptr(), text.data(), text.size());
    return out;
  }

 private:
  std::ostringstream text_;
};

void describe_choice(const KernelChoice& choice, Lines& e) {
  if (choice.path == TransposePath::AtenFallback && choice.fallback_reason == nullptr) {
    return;  // the plan's own fallback, as the plan says
  }
  e.add("path", path_name(choice.path));
  if (choice.fallback_reason != nullptr) {
    e.add("reason", choice.fallback_reason);
    e.add("tile_utilization", choice.tile_utilization);
    return;
  }
  e.add("kernel", kernel_name(choice));
  if (choice.unsupported != nullptr) {
    e.add("note", choice.unsupported);
    return;
  }
  if (choice.path == TransposePath::NdTiles) {
    e.add("reason", "tiles over several dims on each side (the kernel's name gives them)");
    e.add("element_size", choice.element_size);
  }
  e.add("threads", choice.threads);
  e.add("blocks", choice.blocks);
  e.add("shared_bytes", choice.shared_bytes);
  e.add("tile_utilization", choice.tile_utilization);
  if (choice.path == TransposePath::TiledContiguous ||
      choice.path == TransposePath::TiledRowStrided) {
    e.add("tiling", tiling_name(choice.tiling));
    e.add("load", access_name(choice.load));
    e.add("store", access_name(choice.store));
    e.add("group_rows", choice.group_rows);
    e.add("interleave", choice.interleave ? 1 : 0);
  }
  if (choice.path == TransposePath::TiledContiguous ||
      choice.path == TransposePath::TiledRowStrided ||
      choice.path == TransposePath::TiledUnits ||
      choice.path == TransposePath::WideElements) {
    e.add("input_l2", input_l2_name(choice.input_l2));
    e.add("tile_rows", choice.tile_rows);
    e.add("tile_cols", choice.tile_cols);
  }
}

}  // namespace

Tensor explain_op(const Tensor& x, std::vector<int64_t> dims, bool permute, int64_t device,
                  std::vector<int64_t> tuning_values, double memory_bytes_per_s) {
  const std::optional<Tuning> tuning = tuning_from(tuning_values, memory_bytes_per_s);
  TransposePlan plan;
  if (permute) {
    plan = plan_permute(x, wrap_permutation(x, dims, "gputranspose.explain_permute"));
  } else {
    check_value(dims.size() == 2, "gputranspose._explain: a transpose takes two dims");
    plan = plan_transpose(x, wrap_transpose_dims(x, dims[0], dims[1]));
  }
  Lines e;
  e.add("path", path_name(plan.path));
  e.add("reason", plan.reason);
  e.add("plan_path", path_name(plan.path));
  e.add("plan_reason", plan.reason);
  e.add("element_size", plan.element_size);
  e.add("batch", plan.batch);
  e.add("rows", plan.rows);
  e.add("cols", plan.cols);
  e.add("batch_stride", plan.batch_stride);
  e.add("row_stride", plan.row_stride);
  e.add("col_stride", plan.col_stride);
  e.add("stride_unit", plan.stride_unit);
  e.add("out_batch_stride", plan.out_batch_stride);
  e.add("out_row_stride", plan.out_row_stride);
  e.add_list("outer_sizes", plan.outer_sizes, plan.outer_dims);
  e.add_list("outer_strides", plan.outer_strides, plan.outer_dims);
  e.add_list("outer_out_strides", plan.outer_out_strides, plan.outer_dims);
  e.add("load_bytes", plan.load_bytes);
  e.add("store_bytes", plan.store_bytes);
  // A plan the tiled kernels do not take may still take tiles over several dims.
  if (plan.path == TransposePath::Empty ||
      (plan.path == TransposePath::AtenFallback && !plan.nd.applies)) {
    return e.tensor();
  }
#ifdef GPUTRANSPOSE_WITH_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // no driver or no device: no device to choose for
    count = 0;
  }
  if (x.is_cuda()) {
    device = x.get_device_index();
  } else if (device < 0 && count > 0) {
    int current = 0;
    STD_CUDA_CHECK(cudaGetDevice(&current));
    device = current;
  }
  if (device < 0) {
    e.add("note", "no CUDA device to choose a kernel for");
    return e.tensor();
  }
  check_index(device < count, "gputranspose.explain: device ", device, " is out of range (",
              count, " CUDA devices)");
  e.add("device", device);
  DeviceFacts facts;
  STD_CUDA_CHECK(query_device_facts(static_cast<int>(device), &facts));
  describe_choice(choose_kernel(plan, facts, tuning ? &*tuning : nullptr), e);
#else
  (void)device;
  e.add("note", "this build has no CUDA kernels");
#endif
  return e.tensor();
}

}  // namespace gputranspose::stable
