"""Peers that the benchmarks time beside gputranspose, built only for the benchmarks.

load_cublas_peer() JIT-builds cublas_geam.cpp (cuBLAS geam, beta = 0, on torch's
cuBLAS handle and current stream) with torch.utils.cpp_extension into its usual build
folder under the user's cache (TORCH_EXTENSIONS_DIR overrides it), registers
torch.ops.gputranspose_bench.geam_transpose(x) and returns that op, or None, printing
why, where there is no GPU, no CUDA toolkit or the build fails. The first call builds
(a minute or so); later ones, in new processes, reuse the build.
"""

import functools
import glob
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CUBLAS_SOURCE = os.path.join(HERE, "cublas_geam.cpp")
CUBLAS_EXTENSION = "gputranspose_bench_cublas"


def _cublas_ldflags(cuda_home):
    """-lcublas against the toolkit's library, or a pip wheel's versioned one where
    the toolkit has no unversioned libcublas.so."""
    for sub in ("lib64", "lib", os.path.join("targets", "x86_64-linux", "lib"),
                os.path.join("targets", "sbsa-linux", "lib")):
        folder = os.path.join(cuda_home, sub)
        if os.path.exists(os.path.join(folder, "libcublas.so")):
            return [f"-L{folder}", "-lcublas"]
    for path in sys.path:
        for lib in sorted(glob.glob(os.path.join(path, "nvidia", "*", "lib", "libcublas.so.*"))):
            return [f"-L{os.path.dirname(lib)}", f"-l:{os.path.basename(lib)}"]
    return ["-lcublas"]


@functools.lru_cache(maxsize=None)
def load_cublas_peer(verbose=False, need_gpu=True):
    """torch.ops.gputranspose_bench.geam_transpose, built on first use, or None (with
    the reason printed) where it cannot be built or run. need_gpu=False builds and
    loads it without a GPU (the op then has nothing to run on)."""
    import torch
    from torch.utils import cpp_extension

    if need_gpu and not torch.cuda.is_available():
        print("cuBLAS peer skipped: no CUDA GPU", file=sys.stderr)
        return None
    if not torch.version.cuda or cpp_extension.CUDA_HOME is None:
        print("cuBLAS peer skipped: no CUDA toolkit found (torch built without CUDA, or "
              "no nvcc: set CUDA_HOME)", file=sys.stderr)
        return None
    if shutil.which("ninja") is None:
        # The venv's ninja, where the script runs from the venv's python without it on PATH.
        os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    if not torch.cuda.is_available() and not os.environ.get("TORCH_CUDA_ARCH_LIST"):
        # Without a GPU cpp_extension cannot pick nvcc flags; the source is C++ only, so any do.
        os.environ["TORCH_CUDA_ARCH_LIST"] = "9.0"
    if not hasattr(torch.ops.gputranspose_bench, "geam_transpose"):
        try:
            cpp_extension.load(
                name=CUBLAS_EXTENSION,
                sources=[CUBLAS_SOURCE],
                extra_ldflags=_cublas_ldflags(cpp_extension.CUDA_HOME),
                with_cuda=True,
                is_python_module=False,
                verbose=verbose,
            )
        except Exception as e:  # a failed build leaves the suite without this peer only
            lines = str(e).strip().splitlines()
            print(f"cuBLAS peer skipped: its build failed: {type(e).__name__}: "
                  + "\n".join(lines[-20:]), file=sys.stderr)
            return None
    return torch.ops.gputranspose_bench.geam_transpose


GEAM_DTYPE_NAMES = ("float32", "float64", "complex64", "complex128")


def geam_applies(x, dims):
    """Whether cuBLAS geam can transpose x over dims: 2-D float32/float64/complex64/
    complex128 swapping its two dims, unit stride inside rows, a row pitch of at least a
    row, 32-bit sizes."""
    if x.dim() != 2 or str(x.dtype).replace("torch.", "") not in GEAM_DTYPE_NAMES:
        return False
    if sorted(d % 2 for d in dims) != [0, 1]:
        return False
    rows, cols = x.shape
    if cols > 1 and x.stride(1) != 1:
        return False
    if rows > 1 and x.stride(0) < cols:
        return False
    return max(rows, cols, x.stride(0)) <= 2**31 - 1
