// Every op's schema and its kernels' registration with the dispatcher, in one place (the
// ops' C++ APIs live in transpose.cpp and permute.cpp, their kernels beside them: kernels.h).

#include "kernels.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <memory>
#include <optional>
#include <vector>

namespace gputranspose {
namespace {

void define_schemas(torch::Library& m) {
  m.def("transpose(Tensor x, int dim0=-2, int dim1=-1) -> Tensor", {at::Tag::pt2_compliant_tag});
  // The out variants mutate `out` and return nothing. A custom op may not return an
  // alias of an input under torch.compile: functionalization (auto_functionalized) only
  // handles mutable custom ops whose outputs are fresh tensors, so `-> Tensor(a!)` would
  // break compiled graphs. The Python and C++ wrappers hand `out` back themselves.
  m.def("transpose.out(Tensor x, int dim0=-2, int dim1=-1, *, Tensor(a!) out) -> ()",
        {at::Tag::pt2_compliant_tag});
  m.def("permute(Tensor x, int[] dims) -> Tensor", {at::Tag::pt2_compliant_tag});
  m.def("permute.out(Tensor x, int[] dims, *, Tensor(a!) out) -> ()",
        {at::Tag::pt2_compliant_tag});
  m.def("contiguous(Tensor x, MemoryFormat? memory_format=None) -> Tensor",
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
          .impl("transpose.out", &transpose_out_reference)
          .impl("permute", &permute_reference)
          .impl("permute.out", &permute_out_reference)
          .impl("contiguous", &contiguous_reference);
    }
    library(torch::Library::IMPL, c10::DispatchKey::Autograd)
        .impl("transpose", &transpose_autograd)
        .impl("transpose.out", &transpose_out_autograd)
        .impl("permute", &permute_autograd)
        .impl("permute.out", &permute_out_autograd)
        .impl("contiguous", &contiguous_autograd);
#ifdef GPUTRANSPOSE_WITH_CUDA
    library(torch::Library::IMPL, c10::DispatchKey::CUDA)
        .impl("transpose", &transpose_cuda)
        .impl("transpose.out", &transpose_out_cuda)
        .impl("permute", &permute_cuda)
        .impl("permute.out", &permute_out_cuda)
        .impl("contiguous", &contiguous_cuda);
#endif
    // Inference mode skips the Autograd kernel: these backends then get the same error.
    for (const c10::DispatchKey key :
         {c10::DispatchKey::SparseCPU, c10::DispatchKey::SparseCUDA, c10::DispatchKey::SparseCsrCPU,
          c10::DispatchKey::SparseCsrCUDA, c10::DispatchKey::QuantizedCPU,
          c10::DispatchKey::QuantizedCUDA, c10::DispatchKey::MkldnnCPU,
          c10::DispatchKey::NestedTensorCPU, c10::DispatchKey::NestedTensorCUDA}) {
      library(torch::Library::IMPL, key)
          .impl("transpose", &transpose_unsupported)
          .impl("transpose.out", &transpose_out_unsupported)
          .impl("permute", &permute_unsupported)
          .impl("permute.out", &permute_out_unsupported)
          .impl("contiguous", &contiguous_unsupported);
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
}  // namespace gputranspose
