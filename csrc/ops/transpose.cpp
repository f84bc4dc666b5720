// The op: its schema, its registration, its C++ API and explain(), in one file (as
// torchvision's csrc/ops do). The kernels live beside it (kernels.h).

#include <gputranspose/transpose.h>

#include "../core/kernel_choice.h"
#include "kernels.h"
#include "tensor_layout.h"
#include "transpose_op.h"

#ifdef GPUTRANSPOSE_WITH_CUDA
#include "../core/launch.h"

#include <c10/cuda/CUDAFunctions.h>
#endif

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <memory>
#include <optional>
#include <vector>

#ifndef GPUTRANSPOSE_VERSION
#define GPUTRANSPOSE_VERSION "unknown"
#endif

namespace gputranspose {
namespace {

void define_schemas(torch::Library& m) {
  m.def("transpose(Tensor x, int dim0=-2, int dim1=-1) -> Tensor", {at::Tag::pt2_compliant_tag});
  // The out variant mutates `out` and returns nothing. A custom op may not return an
  // alias of an input under torch.compile: functionalization (auto_functionalized) only
  // handles mutable custom ops whose outputs are fresh tensors, so `-> Tensor(a!)` would
  // break compiled graphs. The Python and C++ wrappers hand `out` back themselves.
  m.def("transpose.out(Tensor x, int dim0=-2, int dim1=-1, *, Tensor(a!) out) -> ()",
        {at::Tag::pt2_compliant_tag});
}

// The ops are registered once per process, by the first copy of this library that loads
// (the Python package's and a LibTorch app's libgputranspose may both be loaded): a
// second TORCH_LIBRARY of the namespace would abort the process. The copies are built
// from the same sources, so whichever registers serves both.
class Registration {
 public:
  Registration() {
    if (c10::Dispatcher::singleton().findSchema({"gputranspose::transpose", ""}).has_value()) {
      return;
    }
    define_schemas(library(torch::Library::DEF, std::nullopt));
    for (const c10::DispatchKey key : {c10::DispatchKey::CPU, c10::DispatchKey::Meta}) {
      library(torch::Library::IMPL, key)
          .impl("transpose", &transpose_reference)
          .impl("transpose.out", &transpose_out_reference);
    }
    library(torch::Library::IMPL, c10::DispatchKey::Autograd)
        .impl("transpose", &transpose_autograd)
        .impl("transpose.out", &transpose_out_autograd);
#ifdef GPUTRANSPOSE_WITH_CUDA
    library(torch::Library::IMPL, c10::DispatchKey::CUDA)
        .impl("transpose", &transpose_cuda)
        .impl("transpose.out", &transpose_out_cuda);
#endif
    // Inference mode skips the Autograd kernel: these backends then get the same error.
    for (const c10::DispatchKey key :
         {c10::DispatchKey::SparseCPU, c10::DispatchKey::SparseCUDA, c10::DispatchKey::SparseCsrCPU,
          c10::DispatchKey::SparseCsrCUDA, c10::DispatchKey::QuantizedCPU,
          c10::DispatchKey::QuantizedCUDA, c10::DispatchKey::MkldnnCPU,
          c10::DispatchKey::NestedTensorCPU, c10::DispatchKey::NestedTensorCUDA}) {
      library(torch::Library::IMPL, key)
          .impl("transpose", &transpose_unsupported)
          .impl("transpose.out", &transpose_out_unsupported);
    }
  }

 private:
  torch::Library& library(torch::Library::Kind kind, std::optional<c10::DispatchKey> key) {
    libraries_.push_back(
        std::make_unique<torch::Library>(kind, "gputranspose", key, __FILE__, __LINE__));
    return *libraries_.back();
  }

  std::vector<std::unique_ptr<torch::Library>> libraries_;
};

const Registration registration;

}  // namespace

const TransposeOp& transpose_op() {
  static const TransposeOp op = c10::Dispatcher::singleton()
                                    .findSchemaOrThrow("gputranspose::transpose", "")
                                    .typed<at::Tensor(const at::Tensor&, int64_t, int64_t)>();
  return op;
}

at::Tensor transpose(const at::Tensor& x, int64_t dim0, int64_t dim1) {
  return transpose_op().call(x, dim0, dim1);
}

void transpose_out(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out) {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("gputranspose::transpose", "out")
                       .typed<void(const at::Tensor&, int64_t, int64_t, at::Tensor&)>();
  op.call(x, dim0, dim1, out);
}

namespace {

void describe_choice(const KernelChoice& choice, Explanation& e) {
  e.path = path_name(choice.path);
  if (choice.fallback_reason != nullptr) {
    e.reason = choice.fallback_reason;
    e.tile_utilization = choice.tile_utilization;
    return;
  }
  e.kernel = kernel_name(choice);
  if (choice.unsupported != nullptr) {
    e.note = choice.unsupported;
    return;
  }
  e.threads = choice.threads;
  e.blocks = choice.blocks;
  e.shared_bytes = choice.shared_bytes;
  e.tile_utilization = choice.tile_utilization;
  if (choice.path == TransposePath::TiledContiguous ||
      choice.path == TransposePath::TiledRowStrided) {
    e.tiling = tiling_name(choice.tiling);
    e.load = access_name(choice.load);
    e.store = access_name(choice.store);
    e.group_rows = choice.group_rows;
    e.interleave = choice.interleave;
  }
  if (choice.path == TransposePath::TiledContiguous ||
      choice.path == TransposePath::TiledRowStrided ||
      choice.path == TransposePath::WideElements) {
    e.input_l2 = input_l2_name(choice.input_l2);
    e.tile_rows = choice.tile_rows;
    e.tile_cols = choice.tile_cols;
  }
}

}  // namespace

namespace {

Explanation explain_for(const at::Tensor& x, int64_t dim0, int64_t dim1, int device,
                        const Tuning* tuning) {
  Explanation e;
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  if (const char* message = unsupported_layout(x)) {
    e.path = "unsupported";
    e.reason = message;
    return e;
  }
  const TransposePlan plan = plan_transpose(x, dims);
  e.path = path_name(plan.path);
  e.reason = plan.reason;
  e.element_size = plan.element_size;
  e.batch = plan.batch;
  e.rows = plan.rows;
  e.cols = plan.cols;
  e.batch_stride = plan.batch_stride;
  e.row_stride = plan.row_stride;
  e.load_bytes = plan.load_bytes;
  e.store_bytes = plan.store_bytes;
  if (plan.path == TransposePath::Empty || plan.path == TransposePath::AtenFallback) {
    return e;
  }
#ifdef GPUTRANSPOSE_WITH_CUDA
  if (x.is_cuda()) {
    device = x.device().index();
  } else if (device < 0) {
    device = c10::cuda::device_count() > 0 ? c10::cuda::current_device() : -1;
  }
  if (device < 0) {
    e.note = "no CUDA device to choose a kernel for";
    return e;
  }
  TORCH_CHECK_INDEX(device < c10::cuda::device_count(), "gputranspose.explain: device ", device,
                    " is out of range (", c10::cuda::device_count(), " CUDA devices)");
  e.device = device;
  describe_choice(choose_kernel(plan, cuda_device_facts(device), tuning), e);
#else
  (void)device;
  (void)tuning;
  e.note = "this build has no CUDA kernels";
#endif
  return e;
}

}  // namespace

Explanation explain(const at::Tensor& x, int64_t dim0, int64_t dim1, int device) {
  return explain_for(x, dim0, dim1, device, nullptr);
}

#ifdef GPUTRANSPOSE_DEVELOPMENT
Explanation explain_tuned(const at::Tensor& x, int64_t dim0, int64_t dim1, int device,
                          const Tuning& tuning) {
  return explain_for(x, dim0, dim1, device, &tuning);
}
#endif

const char* version() {
  return GPUTRANSPOSE_VERSION;
}

bool has_cuda_kernels() {
#ifdef GPUTRANSPOSE_WITH_CUDA
  return true;
#else
  return false;
#endif
}

const char* cuda_arch_list() {
#ifdef GPUTRANSPOSE_WITH_CUDA
  return compiled_architectures();
#else
  return "";
#endif
}

bool development_build() {
#ifdef GPUTRANSPOSE_DEVELOPMENT
  return true;
#else
  return false;
#endif
}

}  // namespace gputranspose
