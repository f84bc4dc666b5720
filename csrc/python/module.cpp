// torch_transpose._C: loading it registers the gputranspose ops; its Python
// functions expose build facts and the layout explainer.

#include <gputranspose/transpose.h>

#include <torch/extension.h>

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "gputranspose: copy-speed transpose kernels for PyTorch";
  m.attr("__version__") = gputranspose::version();
  m.def("has_cuda_kernels", &gputranspose::has_cuda_kernels,
        "Whether this build contains the CUDA kernels.");
  m.def(
      "cuda_arch_list",
      []() {
        std::vector<std::string> archs;
        std::string list = gputranspose::cuda_arch_list();
        size_t start = 0;
        while (start < list.size()) {
          size_t end = list.find(',', start);
          if (end == std::string::npos) end = list.size();
          archs.push_back("sm_" + list.substr(start, end - start - 1));
          start = end + 1;
        }
        return archs;
      },
      "The GPU architectures the CUDA kernels were compiled for, e.g. ['sm_90'].");
  m.def(
      "explain",
      [](const at::Tensor& x, int64_t dim0, int64_t dim1) {
        const gputranspose::Explanation e = gputranspose::explain(x, dim0, dim1);
        pybind11::dict d;
        d["path"] = e.path;
        d["reason"] = e.reason;
        d["load_bytes"] = e.load_bytes;
        d["store_bytes"] = e.store_bytes;
        return d;
      },
      pybind11::arg("x"), pybind11::arg("dim0") = -2, pybind11::arg("dim1") = -1,
      "Which path a transpose of x takes on CUDA, and why.");
}
