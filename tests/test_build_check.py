"""The torch-version guard (torch_transpose/_build_check.py): an extension built for
one torch must refuse to load under another with advice to rebuild, not with an
``undefined symbol`` error. CPU only."""

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
    assert build_info.TORCH_VERSION == torch.__version__
    assert build_info.VERSION == torch_transpose.__version__
    assert build_info.CUDA_KERNELS == torch_transpose._C.has_cuda_kernels()
    if hasattr(torch_transpose._C, "development_build"):
        assert build_info.DEVELOPMENT == torch_transpose._C.development_build()
    _build_check.check()  # the torch installed is the one it was built for


def test_check_names_both_versions_and_how_to_rebuild(build_info, monkeypatch):
    monkeypatch.setattr(build_info, "TORCH_VERSION", "2.10.0+cu128")
    with pytest.raises(ImportError) as error:
        _build_check.check()
    assert str(error.value) == (
        f"torch_transpose was built for torch 2.10.0+cu128 but torch {torch.__version__} is installed; {ADVICE}"
    )


@pytest.mark.parametrize("suffix", ["+cpu", "+cu999", ".dev20260101", "a0"])
def test_check_compares_the_whole_build(build_info, monkeypatch, suffix):
    # Same release, other build (local label, nightly): another C++ ABI or CUDA runtime.
    base = torch.__version__.split("+")[0]
    monkeypatch.setattr(build_info, "TORCH_VERSION", base + suffix)
    if base + suffix == torch.__version__:
        _build_check.check()
        return
    with pytest.raises(ImportError, match=re.escape(f"built for torch {base + suffix} but torch")):
        _build_check.check()


def test_check_can_be_skipped(build_info, monkeypatch):
    monkeypatch.setattr(build_info, "TORCH_VERSION", "1.0.0")
    monkeypatch.setenv("GPUTRANSPOSE_SKIP_TORCH_CHECK", "1")
    _build_check.check()


def test_import_extension_returns_the_module(build_info):
    assert _build_check.import_extension() is torch_transpose._C


def _failing_import(error):
    def import_module(name, *args):
        raise error

    return import_module


def test_undefined_symbol_becomes_rebuild_advice(build_info, monkeypatch):
    monkeypatch.setattr(build_info, "TORCH_VERSION", torch.__version__)
    original = ImportError("/x/torch_transpose/_C.so: undefined symbol: _ZN3c1017RegisterOperatorsD1Ev")
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
    original = ImportError("_C.so: undefined symbol: _ZNK3c1010TensorImpl4sizeEv")
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


def test_importing_the_package_under_another_torch_fails_with_the_advice():
    # The package's __init__ runs the check before loading _C: a torch that reports
    # another version must get the message, not an undefined-symbol error.
    code = "import torch; torch.__version__ = '2.0.0+fake'; import torch_transpose"
    env = {k: v for k, v in os.environ.items() if k != "GPUTRANSPOSE_SKIP_TORCH_CHECK"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
    assert result.returncode != 0
    assert f"torch_transpose was built for torch {torch.__version__} but torch 2.0.0+fake is installed; {ADVICE}" in result.stderr
