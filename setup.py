"""Builds torch_transpose._C against the torch already installed:

    pip install --no-build-isolation .        (or -e .)

The CUDA kernels are built whenever nvcc is found (no GPU is needed to build);
TORCH_CUDA_ARCH_LIST picks the architectures (default below, Hopper included).
"""

import glob
import os

from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension

ROOT = os.path.dirname(os.path.abspath(__file__))
VERSION = open(os.path.join(ROOT, "VERSION")).read().strip()
DEFAULT_CUDA_ARCH_LIST = "8.0;9.0;10.0;12.0+PTX"


def sources(*patterns):
    return sorted(
        os.path.relpath(path, ROOT)
        for pattern in patterns
        for path in glob.glob(os.path.join(ROOT, "csrc", pattern))
    )


def extension():
    with_cuda = CUDA_HOME is not None and os.environ.get("GPUTRANSPOSE_WITH_CUDA", "1") != "0"
    cxx_flags = ["-O3", "-std=c++17", f'-DGPUTRANSPOSE_VERSION="{VERSION}"']
    common = dict(
        name="torch_transpose._C",
        sources=sources("*.cpp", "cpu/*.cpp", "autograd/*.cpp", "python/*.cpp"),
        include_dirs=[os.path.join(ROOT, "csrc", "include")],
    )
    if not with_cuda:
        return CppExtension(**common, extra_compile_args={"cxx": cxx_flags})
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", DEFAULT_CUDA_ARCH_LIST)
    common["sources"] += sources("cuda/*.cu", "cuda/*.cpp")
    return CUDAExtension(
        **common,
        libraries=["cublas"],
        extra_compile_args={
            "cxx": cxx_flags + ["-DGPUTRANSPOSE_WITH_CUDA"],
            "nvcc": ["-O3", "-std=c++17", "-DGPUTRANSPOSE_WITH_CUDA", "-Xptxas=-v"]
            if os.environ.get("GPUTRANSPOSE_PTXAS_VERBOSE")
            else ["-O3", "-std=c++17", "-DGPUTRANSPOSE_WITH_CUDA"],
        },
    )


setup(
    name="torch_transpose",
    version=VERSION,
    description="gputranspose: copy-speed matrix transpose for PyTorch on NVIDIA GPUs",
    packages=["torch_transpose"],
    ext_modules=[extension()],
    cmdclass={"build_ext": BuildExtension.with_options(use_ninja=True)},
    python_requires=">=3.10",
    install_requires=["torch"],
)
