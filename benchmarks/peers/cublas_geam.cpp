// gputranspose_bench::geam_transpose: cuBLAS geam (C = alpha * op(A) + beta * B with
// op = transpose, alpha = 1, beta = 0), on torch's cuBLAS handle and current stream.
// A peer that the benchmarks time beside gputranspose; not part of the product.
// benchmarks/peers/__init__.py builds it on first use (load_cublas_peer()).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/Exceptions.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/library.h>

#include <cublas_v2.h>
#include <cuComplex.h>

#include <limits>

namespace gputranspose_bench {
namespace {

template <typename T>
using GeamFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                  const T*, const T*, int, const T*, const T*, int, T*, int);

// Row-major rows x cols with row pitch `pitch` is column-major cols x rows with
// leading dimension `pitch`; its transpose, column-major rows x cols with
// leading dimension rows, is the row-major cols x rows result. B is C with
// beta = 0: cuBLAS's in-place form, which needs ldb == ldc and no op on B.
template <typename T>
void geam(GeamFn<T> fn, const at::Tensor& x, at::Tensor& out, T one, T zero) {
  const int rows = static_cast<int>(x.size(0));
  const int cols = static_cast<int>(x.size(1));
  const int pitch = static_cast<int>(x.size(0) > 1 ? x.stride(0) : x.size(1));
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();  // on the current stream
  auto* c = static_cast<T*>(out.data_ptr());
  TORCH_CUDABLAS_CHECK(fn(handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one,
                          static_cast<const T*>(x.const_data_ptr()), pitch, &zero, c, rows, c,
                          rows));
}

at::Tensor geam_transpose_cuda(const at::Tensor& x) {
  constexpr const char* op = "gputranspose_bench.geam_transpose";
  TORCH_CHECK(x.is_cuda(), op, ": takes CUDA tensors, got one on ", x.device());
  TORCH_CHECK(x.dim() == 2, op, ": cuBLAS geam takes 2-D tensors, got ", x.dim(), "-D");
  TORCH_CHECK(x.size(1) <= 1 || x.stride(1) == 1, op,
              ": cuBLAS geam needs unit stride inside a row, got strides ", x.strides());
  TORCH_CHECK(x.size(0) <= 1 || x.stride(0) >= x.size(1), op,
              ": cuBLAS geam needs a row pitch of at least the row length, got strides ",
              x.strides());
  constexpr int64_t int_max = std::numeric_limits<int>::max();
  TORCH_CHECK(x.size(0) <= int_max && x.size(1) <= int_max && x.stride(0) <= int_max, op,
              ": cuBLAS geam takes 32-bit sizes and strides, got sizes ", x.sizes(),
              " and strides ", x.strides());
  const auto dtype = x.scalar_type();
  TORCH_CHECK(dtype == at::kFloat || dtype == at::kDouble || dtype == at::kComplexFloat ||
                  dtype == at::kComplexDouble,
              op, ": cuBLAS geam takes float32, float64, complex64 and complex128, got ", dtype);
  const c10::cuda::CUDAGuard device_guard(x.device());
  at::Tensor out = at::empty({x.size(1), x.size(0)}, x.options());
  if (out.numel() == 0) {
    return out;
  }
  switch (dtype) {
    case at::kFloat:
      geam<float>(cublasSgeam, x, out, 1.0f, 0.0f);
      break;
    case at::kDouble:
      geam<double>(cublasDgeam, x, out, 1.0, 0.0);
      break;
    case at::kComplexFloat:
      geam<cuComplex>(cublasCgeam, x, out, make_cuComplex(1, 0), make_cuComplex(0, 0));
      break;
    default:  // at::kComplexDouble, checked above
      geam<cuDoubleComplex>(cublasZgeam, x, out, make_cuDoubleComplex(1, 0),
                            make_cuDoubleComplex(0, 0));
      break;
  }
  return out;
}

}  // namespace

TORCH_LIBRARY(gputranspose_bench, m) {
  m.def("geam_transpose(Tensor x) -> Tensor");
}

TORCH_LIBRARY_IMPL(gputranspose_bench, CUDA, m) {
  m.impl("geam_transpose", &geam_transpose_cuda);
}

}  // namespace gputranspose_bench
