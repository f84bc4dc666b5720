// torch_transpose._kernels: the Python extension module (CPython's limited API, abi3) that
// carries the stable-ABI kernels of the gputranspose ops, and the build's facts.
//
// Loading it registers nothing: the ops may already be registered in this process by the
// C++ library (libgputranspose.so, loaded first), and a second registration would
// override its kernels (a second schema definition would abort). torch_transpose's
// _registration.py defines the schemas where they are absent and then calls
// register_kernels() here, once; register_private_kernels() registers the private ops
// (explain, the development builds' tuned kernels), which only this module defines.
// The kernels go through the stable ABI: TORCH_BOX boxes them, the library objects are
// the ones STABLE_TORCH_LIBRARY_IMPL makes, created on demand instead of at load time.

#include <Python.h>

#include "kernels.h"

#include <torch/csrc/stable/library.h>

#ifdef GPUTRANSPOSE_WITH_CUDA
#include "../core/launch.h"
#endif

#include <memory>
#include <vector>

namespace {

namespace gs = gputranspose::stable;
using torch::stable::detail::StableLibrary;

// Registrations last as long as the process (the module is never unloaded).
std::vector<std::unique_ptr<StableLibrary>>& libraries() {
  static auto* kept = new std::vector<std::unique_ptr<StableLibrary>>();
  return *kept;
}

StableLibrary& impl_library(const char* dispatch_key) {
  libraries().push_back(std::make_unique<StableLibrary>(
      StableLibrary::Kind::IMPL, "gputranspose", dispatch_key, __FILE__, __LINE__));
  return *libraries().back();
}

bool registered_ops = false;
bool registered_private = false;

// Runs `body`, turning a C++ exception into a Python RuntimeError.
template <class Body>
PyObject* guarded(Body&& body) {
  try {
    body();
  } catch (const std::exception& error) {
    PyErr_SetString(PyExc_RuntimeError, error.what());
    return nullptr;
  }
  Py_RETURN_NONE;
}

PyObject* register_kernels(PyObject*, PyObject*) {
  return guarded([] {
    if (registered_ops) return;
    impl_library("CPU")
        .impl("transpose", TORCH_BOX(&gs::transpose_cpu))
        .impl("transpose.out", TORCH_BOX(&gs::transpose_out_cpu))
        .impl("permute", TORCH_BOX(&gs::permute_cpu))
        .impl("permute.out", TORCH_BOX(&gs::permute_out_cpu))
        .impl("contiguous", TORCH_BOX(&gs::contiguous_cpu));
#ifdef GPUTRANSPOSE_WITH_CUDA
    impl_library("CUDA")
        .impl("transpose", TORCH_BOX(&gs::transpose_cuda))
        .impl("transpose.out", TORCH_BOX(&gs::transpose_out_cuda))
        .impl("permute", TORCH_BOX(&gs::permute_cuda))
        .impl("permute.out", TORCH_BOX(&gs::permute_out_cuda))
        .impl("contiguous", TORCH_BOX(&gs::contiguous_cuda));
#endif
    registered_ops = true;
  });
}

PyObject* register_private_kernels(PyObject*, PyObject*) {
  return guarded([] {
    if (registered_private) return;
    // Explain reads only a tensor's metadata: one kernel for CPU, CUDA and Meta tensors.
    impl_library("CompositeExplicitAutograd").impl("_explain", TORCH_BOX(&gs::explain_op));
#if defined(GPUTRANSPOSE_WITH_CUDA) && defined(GPUTRANSPOSE_DEVELOPMENT)
    impl_library("CUDA")
        .impl("_transpose_tuned", TORCH_BOX(&gs::transpose_tuned_cuda))
        .impl("_permute_tuned", TORCH_BOX(&gs::permute_tuned_cuda));
#endif
    registered_private = true;
  });
}

PyMethodDef methods[] = {
    {"register_kernels", register_kernels, METH_NOARGS,
     "Registers the CPU and CUDA kernels of the gputranspose ops (their schemas must be "
     "defined, and have no kernels yet)."},
    {"register_private_kernels", register_private_kernels, METH_NOARGS,
     "Registers the kernels of gputranspose::_explain and the development builds' tuned ops."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_kernels",
                          "gputranspose's stable-ABI kernels (torch_transpose._C is the API)",
                          -1, methods};

}  // namespace

extern "C" PyMODINIT_FUNC PyInit__kernels(void) {
  PyObject* module = PyModule_Create(&module_def);
  if (module == nullptr) return nullptr;
#ifdef GPUTRANSPOSE_WITH_CUDA
  const bool cuda = true;
  const char* archs = gputranspose::compiled_architectures();
#else
  const bool cuda = false;
  const char* archs = "";
#endif
#ifdef GPUTRANSPOSE_DEVELOPMENT
  const bool development = true;
#else
  const bool development = false;
#endif
  if (PyModule_AddStringConstant(module, "__version__", GPUTRANSPOSE_VERSION) < 0 ||
      PyModule_AddStringConstant(module, "__torch_version__", TORCH_VERSION) < 0 ||
      PyModule_AddIntConstant(module, "TORCH_TARGET_VERSION_MAJOR",
                              static_cast<long>((TORCH_TARGET_VERSION >> 56) & 0xff)) < 0 ||
      PyModule_AddIntConstant(module, "TORCH_TARGET_VERSION_MINOR",
                              static_cast<long>((TORCH_TARGET_VERSION >> 48) & 0xff)) < 0 ||
      PyModule_AddIntConstant(module, "HAS_CUDA_KERNELS", cuda) < 0 ||
      PyModule_AddStringConstant(module, "CUDA_ARCHITECTURES", archs) < 0 ||
      PyModule_AddIntConstant(module, "DEVELOPMENT_BUILD", development) < 0) {
    Py_DECREF(module);
    return nullptr;
  }
  return module;
}
