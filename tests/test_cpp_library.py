"""The C++ library as a LibTorch app uses it: build and install it with CMake,
run its GoogleTest suite through CTest, then build the example app against the
installed CMake package and run it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    # scripts/check-wheel runs the tests against an installed wheel, without the sources.
    pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(),
                       reason="needs the source tree: builds the C++ library from source with CMake"),
    pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake not installed"),
]


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{' '.join(map(str, cmd))}\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    return result.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    build = tmp_path_factory.mktemp("build")
    prefix = tmp_path_factory.mktemp("install")
    torch_prefix = torch.utils.cmake_prefix_path
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    configure = ["cmake", "-S", ROOT, "-B", build, *generator, f"-DCMAKE_PREFIX_PATH={torch_prefix}",
                 f"-DPython_EXECUTABLE={sys.executable}"]
    if os.environ.get("GPUTRANSPOSE_GTEST_SOURCE_DIR"):
        configure.append(f"-DGPUTRANSPOSE_GTEST_SOURCE_DIR={os.environ['GPUTRANSPOSE_GTEST_SOURCE_DIR']}")
    env = dict(os.environ)
    env.setdefault("TORCH_CUDA_ARCH_LIST", "9.0")
    run(configure, env=env)
    run(["cmake", "--build", build, "--parallel", str(os.cpu_count() or 2)], env=env)
    run(["cmake", "--install", build, "--prefix", prefix])
    return build, prefix, torch_prefix, generator


def test_ctest_passes(installed):
    build = installed[0]
    out = run(["ctest", "--test-dir", build, "--output-on-failure", "-V"])
    assert "100% tests passed" in out
    # The CUDA cases skip without a GPU and fail under GPUTRANSPOSE_REQUIRE_CUDA=1 (in the test).
    if torch.cuda.is_available():
        assert "[  SKIPPED ]" not in out


def test_installed_package_layout(installed):
    prefix = installed[1]
    assert (prefix / "include" / "gputranspose" / "transpose.h").is_file()
    assert (prefix / "lib" / "libgputranspose.so").is_file()
    assert (prefix / "lib" / "cmake" / "gputranspose" / "gputransposeConfig.cmake").is_file()


@pytest.fixture(scope="module")
def example_apps(installed, tmp_path_factory):
    _, prefix, torch_prefix, generator = installed
    build = tmp_path_factory.mktemp("example")
    run(["cmake", "-S", ROOT / "examples" / "cpp", "-B", build, *generator,
         f"-DCMAKE_PREFIX_PATH={prefix};{torch_prefix}"])
    run(["cmake", "--build", build])
    return build


def test_example_app_builds_against_the_package_and_runs(example_apps):
    out = run([example_apps / "transpose_example"])
    assert "equal to ATen: true, gradient right: true" in out
    if torch.cuda.is_available():
        assert "on cuda" in out


class TransposeBlock(torch.nn.Module):
    def forward(self, x):
        return torch.ops.gputranspose.transpose(x * 2) + 1


def test_aot_inductor_package_runs_from_the_cpp_app(example_apps, tmp_path):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    x = torch.randn(4, 6, 8, device=device)
    batch = torch.export.Dim("batch", min=1, max=64)
    exported = torch.export.export(TransposeBlock(), (x,), dynamic_shapes={"x": {0: batch}})
    package = torch._inductor.aoti_compile_and_package(exported, package_path=str(tmp_path / "block.pt2"))
    out = run([example_apps / "aoti_run", package])
    assert f"AOTInductor package run from C++ on {device}, equal to eager: true" in out


# The Python package and a LibTorch app's library in one process: whichever loads first
# registers the ops, the other finds them registered (a second registration of the
# namespace would abort the process).
ONE_PROCESS = """
import sys, torch
first, library = sys.argv[1], sys.argv[2]
if first == "library":
    torch.ops.load_library(library)
import torch_transpose
if first == "package":
    torch.ops.load_library(library)
x = torch.randn(64, 96)
assert torch.equal(torch.ops.gputranspose.transpose(x), x.t().contiguous())
assert torch.equal(torch_transpose.transpose(x), x.t().contiguous())
print("ok", torch_transpose.explain(x)["path"])
"""


@pytest.mark.parametrize("first", ["package", "library"])
def test_python_package_and_cpp_library_in_one_process(installed, first):
    library = installed[1] / "lib" / "libgputranspose.so"
    out = run([sys.executable, "-c", ONE_PROCESS, first, str(library)], cwd=ROOT)
    assert out.strip() == "ok tiled_contiguous"
