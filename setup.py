"""Builds torch_transpose (its extension, torch_transpose._kernels) against the torch already installed:

    pip install --no-build-isolation .        (or -e .)

The CUDA kernels are built whenever nvcc is found (no GPU is needed to build;
GPUTRANSPOSE_WITH_CUDA=0 builds without them); TORCH_CUDA_ARCH_LIST picks the
architectures (default below, Hopper included). GPUTRANSPOSE_DEVELOPMENT=1 makes
a development build (private test and tuning entry points; ./scripts/test builds
one). The C++ standard is the one torch.utils.cpp_extension picks for the
installed torch (C++17 for torch 2.11, C++20 for newer ones).

The extension (torch_transpose._kernels, an abi3 module) is built on LibTorch's
stable ABI (TORCH_TARGET_VERSION: torch 2.10) and CPython's limited API (3.10): one
build serves every torch from 2.10 on and every CPython from 3.10 on. Its sources
include no ATen or c10 header (the torch headers refuse to be included under
TORCH_TARGET_VERSION). The build records the torch it was built against and the oldest
torch it serves in torch_transpose/_build_info.py (generated next to it): importing
the package under an older torch raises an ImportError that says to upgrade or rebuild.
"""

import glob
import os

import setuptools
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension

ROOT = os.path.dirname(os.path.abspath(__file__))
VERSION = open(os.path.join(ROOT, "VERSION")).read().strip()
DEFAULT_CUDA_ARCH_LIST = "8.0;9.0;10.0;12.0+PTX"
# The stable ABI release the extension targets: it loads under this torch and every later one.
TORCH_TARGET = (2, 10)
TORCH_TARGET_VERSION = (TORCH_TARGET[0] << 56) | (TORCH_TARGET[1] << 48)  # as torch/csrc/stable/version.h
PY_LIMITED_API = "0x030A0000"  # CPython 3.10's stable ABI: the wheel is cp310-abi3
# The torch the package asks pip for: every release from the stable ABI's target on.
# scripts/build-wheel raises it to torch>=2.11 for the CUDA 13 wheel (GPUTRANSPOSE_TORCH_REQUIREMENT):
# PyPI's torch 2.10 is a CUDA 12.8 build, under which CUDA 13 kernels cannot load, and PyPI's
# torch is a CUDA 13 build from 2.11 on.
TORCH_REQUIREMENT = os.environ.get("GPUTRANSPOSE_TORCH_REQUIREMENT", "").strip() or \
    f"torch>={TORCH_TARGET[0]}.{TORCH_TARGET[1]}"


def flag(name, default="0"):
    return os.environ.get(name, default).strip().lower() not in ("", "0", "off", "false", "no")


WITH_CUDA = CUDA_HOME is not None and flag("GPUTRANSPOSE_WITH_CUDA", "1")
DEVELOPMENT = flag("GPUTRANSPOSE_DEVELOPMENT")


def sources(*patterns):
    return sorted(
        os.path.relpath(path, ROOT)
        for pattern in patterns
        for path in glob.glob(os.path.join(ROOT, "csrc", pattern), recursive=True)
    )


def extension():
    # csrc/core: framework-free C++ (core/cuda: its kernels); csrc/stable: the front end on
    # LibTorch's stable ABI and CPython's limited API (csrc/ops, the ATen front end, is the
    # C++ library's: CMakeLists.txt).
    defines = [
        f'-DGPUTRANSPOSE_VERSION="{VERSION}"',
        f"-DTORCH_TARGET_VERSION=0x{TORCH_TARGET_VERSION:016x}",
        f"-DPy_LIMITED_API={PY_LIMITED_API}",
    ]
    if DEVELOPMENT:
        defines.append("-DGPUTRANSPOSE_DEVELOPMENT")
    cuda_sources = ["csrc/stable/cuda_kernels.cpp"]
    common = dict(
        name="torch_transpose._kernels",
        sources=[s for s in sources("core/*.cpp", "stable/*.cpp") if s not in cuda_sources],
        include_dirs=[os.path.join(ROOT, "csrc")],
        # Headers: a change makes setuptools rebuild (ninja then rebuilds what includes it).
        depends=sources("core/**/*.h", "core/**/*.cuh", "stable/**/*.h", "ops/element_size.h"),
        py_limited_api=True,
    )
    # No -std= here: torch.utils.cpp_extension adds the standard its headers need.
    if not WITH_CUDA:
        return CppExtension(**common, extra_compile_args={"cxx": ["-O3"] + defines})
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", DEFAULT_CUDA_ARCH_LIST)
    common["sources"] += sources("core/cuda/*.cu") + cuda_sources
    # USE_CUDA: the stable C shim's CUDA entry points (current stream, CUDA error text).
    defines += ["-DGPUTRANSPOSE_WITH_CUDA", "-DUSE_CUDA"]
    nvcc = ["-O3"] + defines
    if flag("GPUTRANSPOSE_PTXAS_VERBOSE"):
        nvcc.append("-Xptxas=-v")
    return CUDAExtension(**common, extra_compile_args={"cxx": ["-O3"] + defines, "nvcc": nvcc})


def build_info():
    import torch

    return "".join(
        f"{name} = {value!r}\n"
        for name, value in [
            ("VERSION", VERSION),
            ("TORCH_VERSION", str(torch.__version__)),
            ("TORCH_TARGET", f"{TORCH_TARGET[0]}.{TORCH_TARGET[1]}"),
            ("TORCH_CUDA_VERSION", torch.version.cuda),
            ("CUDA_KERNELS", WITH_CUDA),
            ("CUDA_ARCH_LIST", os.environ.get("TORCH_CUDA_ARCH_LIST") if WITH_CUDA else None),
            ("DEVELOPMENT", DEVELOPMENT),
        ]
    )


class BuildExtensionWithInfo(BuildExtension.with_options(use_ninja=True)):
    """Builds _kernels, then writes _build_info.py beside it (the source tree for
    --inplace and editable installs, the build directory for wheels)."""

    def run(self):
        super().run()
        package_dir = os.path.dirname(self.get_ext_fullpath("torch_transpose._kernels"))
        os.makedirs(package_dir, exist_ok=True)
        with open(os.path.join(package_dir, "_build_info.py"), "w") as f:
            f.write("# Generated by setup.py when torch_transpose._kernels was built: the build it is.\n")
            f.write(build_info())


def license_metadata():
    # setuptools >= 77 writes an SPDX License-Expression (PEP 639) and rejects the
    # license classifiers beside it; older ones take the classic field and classifier.
    if tuple(int(part) for part in setuptools.__version__.split(".")[:2] if part.isdigit()) >= (77, 0):
        return {"license_expression": "BSD-3-Clause", "license_files": ["LICENSE"]}, []
    return {"license": "BSD-3-Clause", "license_files": ["LICENSE"]}, ["License :: OSI Approved :: BSD License"]


LICENSE, LICENSE_CLASSIFIERS = license_metadata()


def cuda_major():
    """The CUDA major the kernels are built for (torch's, which nvcc must match), or None."""
    if not WITH_CUDA:
        return None
    import torch

    return torch.version.cuda.split(".")[0] if torch.version.cuda else None


CUDA_MAJOR = cuda_major()


def long_description():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return f.read()


setup(
    name="torch_transpose",
    version=VERSION,
    description=(
        "gputranspose: transposes, permutes and layout changes at copy speed for PyTorch on NVIDIA GPUs "
        + (f"(CUDA {CUDA_MAJOR} kernels for sm80-sm120; {TORCH_REQUIREMENT}, stable ABI)" if CUDA_MAJOR
           else f"(no CUDA kernels in this build; {TORCH_REQUIREMENT}, stable ABI)")
    ),
    long_description=long_description(),
    long_description_content_type="text/markdown",
    url="https://github.com/gputranspose/gputranspose",
    project_urls={"Source": "https://github.com/gputranspose/gputranspose"},
    author="the gputranspose developers",
    **LICENSE,
    classifiers=LICENSE_CLASSIFIERS + [
        "Development Status :: 4 - Beta",
        "Intended Audience :: Developers",
        "Intended Audience :: Science/Research",
        "Operating System :: POSIX :: Linux",
        "Programming Language :: Python :: 3",
        "Programming Language :: Python :: 3 :: Only",
        "Programming Language :: Python :: 3.10",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
        "Programming Language :: C++",
        "Environment :: GPU :: NVIDIA CUDA",
    ] + ([f"Environment :: GPU :: NVIDIA CUDA :: {CUDA_MAJOR}"] if CUDA_MAJOR else []) + [
        "Topic :: Scientific/Engineering",
        "Topic :: Scientific/Engineering :: Artificial Intelligence",
        "Topic :: Software Development :: Libraries :: Python Modules",
        "Typing :: Typed",
    ],
    keywords=["pytorch", "cuda", "transpose", "custom-op"],
    packages=["torch_transpose"],
    package_data={"torch_transpose": ["py.typed"]},
    ext_modules=[extension()],
    cmdclass={"build_ext": BuildExtensionWithInfo},
    python_requires=">=3.10",
    install_requires=[TORCH_REQUIREMENT],
    zip_safe=False,
    # One wheel for CPython 3.10 and later: the extension uses the limited API only.
    options={"bdist_wheel": {"py_limited_api": "cp310"}},
)
