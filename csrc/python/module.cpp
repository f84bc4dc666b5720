// torch_transpose._C: the Python side of the library. Loading it registers the
// gputranspose ops (once per process: ops/registration.cpp); its functions expose build
// facts and explain(), and in development builds the tuned kernel for tests.

#include <gputranspose/transpose.h>

#include "../ops/kernels.h"

#include <torch/extension.h>

#include <optional>
#include <string>
#include <vector>

namespace {

pybind11::dict to_dict(const gputranspose::Explanation& e) {
  pybind11::dict d;
  d["path"] = e.path;
  d["reason"] = e.reason;
  d["kernel"] = e.kernel.empty() ? pybind11::object(pybind11::none())
                                 : pybind11::object(pybind11::str(e.kernel));
  if (!e.note.empty()) d["note"] = e.note;
  d["device"] = e.device >= 0 ? pybind11::object(pybind11::int_(e.device))
                              : pybind11::object(pybind11::none());
  d["element_size"] = e.element_size;
  if (e.rows > 0) {
    d["matrices"] = pybind11::make_tuple(e.batch, e.rows, e.cols);
    d["strides"] = pybind11::make_tuple(e.batch_stride, e.row_stride);
    d["col_stride"] = e.col_stride;
    d["stride_unit"] = e.stride_unit;
    d["out_strides"] = pybind11::make_tuple(e.out_batch_stride, e.out_row_stride);
    pybind11::list outer;
    for (size_t k = 0; k < e.outer_sizes.size(); ++k) {
      outer.append(pybind11::make_tuple(e.outer_sizes[k], e.outer_strides[k], e.outer_out_strides[k]));
    }
    d["outer"] = outer;
  }
  d["load_bytes"] = e.load_bytes;
  d["store_bytes"] = e.store_bytes;
  if (!e.tiling.empty()) {
    d["tiling"] = e.tiling;
    d["load"] = e.load;
    d["store"] = e.store;
    d["group_rows"] = e.group_rows;
    d["interleave"] = e.interleave;
  }
  if (!e.input_l2.empty()) {
    d["input_l2"] = e.input_l2;
    d["tile"] = pybind11::make_tuple(e.tile_rows, e.tile_cols);
  }
  if (!e.kernel.empty() && e.kernel != "memcpy") {
    d["blocks"] = e.blocks;
    d["threads"] = e.threads;
    d["shared_bytes"] = e.shared_bytes;
  }
  if (e.tile_utilization > 0) d["tile_utilization"] = e.tile_utilization;
  return d;
}

int device_index(std::optional<int> device) { return device.has_value() ? *device : -1; }

#ifdef GPUTRANSPOSE_DEVELOPMENT
gputranspose::Tuning tuning_from(int64_t l2_bytes, double memory_bytes_per_s,
                                 int64_t tile_group_rows, int interleave, int fallback, int small_dim) {
  TORCH_CHECK_VALUE(l2_bytes >= 0, "l2_bytes must be >= 0 (0: the device's)");
  TORCH_CHECK_VALUE(memory_bytes_per_s >= 0, "memory_bytes_per_s must be >= 0 (0: the device's)");
  TORCH_CHECK_VALUE(tile_group_rows >= 0, "tile_group_rows must be >= 0 (0: the rule's)");
  TORCH_CHECK_VALUE(interleave >= -1 && interleave <= 1,
                    "interleave must be -1 (the rule's), 0 or 1");
  TORCH_CHECK_VALUE(fallback >= -1 && fallback <= 1, "fallback must be -1 (the rule's), 0 or 1");
  TORCH_CHECK_VALUE(small_dim >= -1 && small_dim <= 0, "small_dim must be -1 (the rule's) or 0");
  gputranspose::Tuning tuning;
  tuning.l2_bytes = l2_bytes;
  tuning.memory_bytes_per_s = memory_bytes_per_s;
  tuning.choice.tile_group_rows = tile_group_rows;
  tuning.choice.interleave = interleave;
  tuning.choice.fallback = fallback;
  tuning.choice.small_dim = small_dim;
  return tuning;
}
#endif

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  namespace py = pybind11;
  m.doc() = "gputranspose: copy-speed transpose kernels for PyTorch";
  m.attr("__version__") = gputranspose::version();
  m.attr("__torch_version__") = TORCH_VERSION;
  m.def("has_cuda_kernels", &gputranspose::has_cuda_kernels,
        "Whether this build contains the CUDA kernels.");
  m.def("development_build", &gputranspose::development_build,
        "Whether this build has the tuning overrides (a development build).");
  m.def(
      "cuda_arch_list",
      []() {
        std::vector<std::string> archs;
        const std::string list = gputranspose::cuda_arch_list();
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
      [](const at::Tensor& x, int64_t dim0, int64_t dim1, std::optional<int> device) {
        return to_dict(gputranspose::explain(x, dim0, dim1, device_index(device)));
      },
      py::arg("x"), py::arg("dim0") = -2, py::arg("dim1") = -1, py::arg("device") = py::none(),
      "What a transpose of x runs on CUDA, and why.");
  m.def(
      "explain_permute",
      [](const at::Tensor& x, std::vector<int64_t> dims, std::optional<int> device) {
        return to_dict(gputranspose::explain_permute(x, dims, device_index(device)));
      },
      py::arg("x"), py::arg("dims"), py::arg("device") = py::none(),
      "What a permute of x runs on CUDA, and why.");
#ifdef GPUTRANSPOSE_DEVELOPMENT
  m.def(
      "_explain_tuned",
      [](const at::Tensor& x, int64_t dim0, int64_t dim1, std::optional<int> device,
         int64_t l2_bytes, double memory_bytes_per_s, int64_t tile_group_rows, int interleave,
         int fallback, int small_dim) {
        return to_dict(gputranspose::explain_tuned(
            x, dim0, dim1, device_index(device),
            tuning_from(l2_bytes, memory_bytes_per_s, tile_group_rows, interleave, fallback,
                        small_dim)));
      },
      py::arg("x"), py::arg("dim0") = -2, py::arg("dim1") = -1, py::arg("device") = py::none(),
      py::kw_only(), py::arg("l2_bytes") = 0, py::arg("memory_bytes_per_s") = 0.0,
      py::arg("tile_group_rows") = 0, py::arg("interleave") = -1, py::arg("fallback") = -1,
      py::arg("small_dim") = -1,
      "explain() with other device facts and choice overrides (development builds).");
  m.def(
      "_explain_permute_tuned",
      [](const at::Tensor& x, std::vector<int64_t> dims, std::optional<int> device,
         int64_t l2_bytes, double memory_bytes_per_s, int64_t tile_group_rows, int interleave,
         int fallback, int small_dim) {
        return to_dict(gputranspose::explain_permute_tuned(
            x, dims, device_index(device),
            tuning_from(l2_bytes, memory_bytes_per_s, tile_group_rows, interleave, fallback,
                        small_dim)));
      },
      py::arg("x"), py::arg("dims"), py::arg("device") = py::none(), py::kw_only(),
      py::arg("l2_bytes") = 0, py::arg("memory_bytes_per_s") = 0.0,
      py::arg("tile_group_rows") = 0, py::arg("interleave") = -1, py::arg("fallback") = -1,
      py::arg("small_dim") = -1,
      "explain_permute() with other device facts and choice overrides (development builds).");
#ifdef GPUTRANSPOSE_WITH_CUDA
  m.def(
      "_transpose_tuned",
      [](const at::Tensor& x, int64_t dim0, int64_t dim1, int64_t l2_bytes,
         double memory_bytes_per_s, int64_t tile_group_rows, int interleave, int fallback, int small_dim) {
        return gputranspose::transpose_cuda_tuned(
            x, dim0, dim1,
            tuning_from(l2_bytes, memory_bytes_per_s, tile_group_rows, interleave, fallback,
                        small_dim));
      },
      py::arg("x"), py::arg("dim0") = -2, py::arg("dim1") = -1, py::kw_only(),
      py::arg("l2_bytes") = 0, py::arg("memory_bytes_per_s") = 0.0,
      py::arg("tile_group_rows") = 0, py::arg("interleave") = -1, py::arg("fallback") = -1,
      py::arg("small_dim") = -1,
      "The CUDA kernel with other device facts and choice overrides (development builds).");
  m.def(
      "_permute_tuned",
      [](const at::Tensor& x, std::vector<int64_t> dims, int64_t l2_bytes,
         double memory_bytes_per_s, int64_t tile_group_rows, int interleave, int fallback, int small_dim) {
        return gputranspose::permute_cuda_tuned(
            x, dims,
            tuning_from(l2_bytes, memory_bytes_per_s, tile_group_rows, interleave, fallback,
                        small_dim));
      },
      py::arg("x"), py::arg("dims"), py::kw_only(), py::arg("l2_bytes") = 0,
      py::arg("memory_bytes_per_s") = 0.0, py::arg("tile_group_rows") = 0,
      py::arg("interleave") = -1, py::arg("fallback") = -1,
      py::arg("small_dim") = -1,
      "The permute's CUDA kernel with other device facts and choice overrides (development "
      "builds).");
#endif
#endif
}
