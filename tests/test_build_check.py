"""The torch-version guard (torch_transpose/_build_check.py): the stable-ABI extension
serves torch 2.10 and later; under an older torch it must refuse to load with advice,
not with an ``undefined symbol`` error. CPU only."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import torch_transpose
from torch_transpose import _build_check

ROOT = Path(__file__).resolve().parent.parent
ADVICE = "rebuild: pip install --no-build-isolation --force-reinstall . (or ./scripts/setup-env)"


@pytest.fixture
def build_info(monkeypatch):
    from torch_transpose import _build_info

    monkeypatch.delenv("GPUTRANSPOSE_SKIP_TORCH_CHECK", raising=False)
    return _build_info


def test_build_info_records_this_build(build_info):
    # The stable ABI: the torch built against (the wheel's is 2.11) and the torch running
    # (any later release) may differ; both serve the target.
    assert _build_check.serves(build_info.TORCH_TARGET, build_info.TORCH_VERSION)
    assert _build_check.serves(build_info.TORCH_TARGET, torch.__version__)
    assert build_info.TORCH_TARGET == "2.10" == torch_transpose._C.__torch_target__
    assert build_info.VERSION == torch_transpose.__version__
    assert build_info.CUDA_KERNELS == torch_transpose._C.has_cuda_kernels()
    if hasattr(torch_transpose._C, "development_build"):
        assert build_info.DEVELOPMENT == torch_transpose._C.development_build()
    _build_check.check()  # the torch installed is the one it was built for


def test_check_names_both_versions_and_how_to_rebuild(build_info, monkeypatch):
    monkeypatch.setattr(_build_check, "installed_torch_version", lambda: "2.9.1+cu128")
    with pytest.raises(ImportError) as error:
        _build_check.check()
    assert str(error.value) == (
        "torch_transpose needs torch >= 2.10 (its stable-ABI build serves torch 2.10 and later) "
        f"but torch 2.9.1+cu128 is installed; upgrade torch, or {ADVICE}"
    )


@pytest.mark.parametrize("installed", ["2.10.0", "2.10.1+cpu", "2.11.0+cu130", "2.12.0.dev20260101",
                                       "2.13.0a0", "3.0.0"])
def test_one_build_serves_every_later_torch(build_info, monkeypatch, installed):
    # The stable ABI: any release from the target on, whatever its local label.
    monkeypatch.setattr(_build_check, "installed_torch_version", lambda: installed)
    _build_check.check()


@pytest.mark.parametrize("installed", ["2.9.0", "2.9.1+cpu", "2.9.0.dev20250101", "1.13.1"])
def test_older_torch_is_refused(build_info, monkeypatch, installed):
    monkeypatch.setattr(_build_check, "installed_torch_version", lambda: installed)
    with pytest.raises(ImportError, match=re.escape(f"needs torch >= 2.10 (its stable-ABI build serves torch 2.10 and later) but torch {installed} is installed")):
        _build_check.check()


def test_check_can_be_skipped(build_info, monkeypatch):
    monkeypatch.setattr(_build_check, "installed_torch_version", lambda: "1.0.0")
    monkeypatch.setenv("GPUTRANSPOSE_SKIP_TORCH_CHECK", "1")
    _build_check.check()


def test_cuda_kernels_of_another_cuda_major_are_refused_with_the_advice(build_info, monkeypatch):
    # The CUDA 13 wheel under PyPI's torch 2.10 (a CUDA 12.8 build): say what to install instead.
    monkeypatch.setattr(_build_check, "built_cuda_version", lambda: "13.0")
    monkeypatch.setattr(_build_check, "installed_cuda_version", lambda: "12.8")
    monkeypatch.setattr(_build_check, "installed_torch_version", lambda: "2.10.0+cu128")
    with pytest.raises(ImportError) as error:
        _build_check.check()
    assert str(error.value) == (
        "torch_transpose's CUDA kernels are built for CUDA 13 (torch built for CUDA 13.0) but torch "
        "2.10.0+cu128 is a CUDA 12.8 build; install a torch built for CUDA 13 (PyPI's torch >= 2.11 is), "
        "or build torch_transpose from source against this torch: pip install --no-build-isolation . "
        "(README, Install)")


@pytest.mark.parametrize("built, installed", [("13.0", "13.2"), ("13.0", None), (None, "12.8"), ("12.8", "12.6")])
def test_same_cuda_major_or_no_cuda_on_one_side_loads(build_info, monkeypatch, built, installed):
    monkeypatch.setattr(_build_check, "built_cuda_version", lambda: built)
    monkeypatch.setattr(_build_check, "installed_cuda_version", lambda: installed)
    _build_check.check()


def test_import_extension_returns_the_module(build_info):
    assert _build_check.import_extension() is torch_transpose._C


def _failing_import(error):
    def import_module(name, *args):
        raise error

    return import_module


def test_undefined_symbol_becomes_rebuild_advice(build_info, monkeypatch):
    monkeypatch.setattr(build_info, "TORCH_VERSION", torch.__version__)
    original = ImportError("/x/torch_transpose/_kernels.abi3.so: undefined symbol: _ZN3c1017RegisterOperatorsD1Ev")
    monkeypatch.setattr(_build_check.importlib, "import_module", _failing_import(original))
    # The version check passes (faked to match), the load then fails: the advice still comes.
    with pytest.raises(ImportError) as error:
        _build_check.import_extension()
    message = str(error.value)
    assert "undefined symbol: _ZN3c1017RegisterOperatorsD1Ev" in message
    assert message.endswith(ADVICE)
    assert error.value.__cause__ is original


def test_undefined_symbol_names_the_versions(build_info, monkeypatch):
    monkeypatch.setattr(_build_check, "check", lambda: None)  # e.g. GPUTRANSPOSE_SKIP_TORCH_CHECK=1
    monkeypatch.setattr(build_info, "TORCH_VERSION", "2.10.0")
    original = ImportError("_kernels.abi3.so: undefined symbol: _ZNK3c1010TensorImpl4sizeEv")
    monkeypatch.setattr(_build_check.importlib, "import_module", _failing_import(original))
    with pytest.raises(ImportError, match=re.escape(f"built for torch 2.10.0 but torch {torch.__version__} is installed; {ADVICE}")):
        _build_check.import_extension()


def test_missing_extension_says_not_built(build_info, monkeypatch):
    original = ModuleNotFoundError("No module named 'torch_transpose._C'", name="torch_transpose._C")
    monkeypatch.setattr(_build_check.importlib, "import_module", _failing_import(original))
    with pytest.raises(ImportError, match="torch_transpose._C is not built"):
        _build_check.import_extension()


def test_other_import_errors_pass_through(build_info, monkeypatch):
    original = ImportError("something else entirely")
    monkeypatch.setattr(_build_check.importlib, "import_module", _failing_import(original))
    with pytest.raises(ImportError) as error:
        _build_check.import_extension()
    assert error.value is original


def test_importing_the_package_under_an_older_torch_fails_with_the_advice():
    # The package's __init__ runs the check before loading the extension: a torch that
    # reports an older version must get the message, not an undefined-symbol error.
    code = "import torch; torch.__version__ = '2.0.0+fake'; import torch_transpose"
    env = {k: v for k, v in os.environ.items() if k != "GPUTRANSPOSE_SKIP_TORCH_CHECK"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
    assert result.returncode != 0
    assert f"torch_transpose needs torch >= 2.10 (its stable-ABI build serves torch 2.10 and later) but torch 2.0.0+fake is installed; upgrade torch, or {ADVICE}" in result.stderr


def test_importing_the_package_under_a_later_torch_loads():
    code = ("import torch; torch.__version__ = '2.99.0+fake'; import torch_transpose; "
            "x = torch.randn(3, 4); assert torch.equal(torch_transpose.transpose(x), x.t().contiguous())")
    env = {k: v for k, v in os.environ.items() if k != "GPUTRANSPOSE_SKIP_TORCH_CHECK"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
    assert result.returncode == 0, result.stderr
