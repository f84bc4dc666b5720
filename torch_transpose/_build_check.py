"""Loads torch_transpose._C only under a torch its build serves.

The extension (torch_transpose._kernels) is built on LibTorch's stable ABI with
TORCH_TARGET_VERSION 2.10: one build loads under torch 2.10 and every later release
(any local label: +cpu, +cu130). Under an older torch it would fail to load with an
``undefined symbol`` error that does not say what to do. setup.py records the torch
it built against and the oldest it serves in ``_build_info.py`` (generated, next to
the extension); :func:`check` compares that with the torch imported now and
:func:`import_extension` turns a failed load into advice to rebuild.

``GPUTRANSPOSE_SKIP_TORCH_CHECK=1`` skips the comparison (the load still runs).
"""

import importlib
import os
from typing import Optional

REBUILD_ADVICE = "rebuild: pip install --no-build-isolation --force-reinstall . (or ./scripts/setup-env)"


def built_torch_version() -> Optional[str]:
    """The torch version this build of torch_transpose was compiled against, or
    None where the build recorded none (a build made without setup.py)."""
    try:
        from . import _build_info
    except ImportError:
        return None
    return getattr(_build_info, "TORCH_VERSION", None)


def required_torch_version() -> Optional[str]:
    """The oldest torch ("2.10") this build serves, or None where the build recorded none."""
    try:
        from . import _build_info
    except ImportError:
        return None
    return getattr(_build_info, "TORCH_TARGET", None)


def built_cuda_version() -> Optional[str]:
    """The CUDA version ("13.0") of the torch this build's CUDA kernels were compiled
    against, or None for a build without CUDA kernels or one that recorded none."""
    try:
        from . import _build_info
    except ImportError:
        return None
    if not getattr(_build_info, "CUDA_KERNELS", False):
        return None
    return getattr(_build_info, "TORCH_CUDA_VERSION", None)


def installed_cuda_version() -> Optional[str]:
    import torch

    return torch.version.cuda


def _cuda_major(version: Optional[str]) -> Optional[str]:
    return str(version).strip().split(".")[0] if version else None


def cuda_mismatch_message(built_cuda: str, installed_cuda: Optional[str], installed: str) -> str:
    have = f"a CUDA {installed_cuda} build" if installed_cuda else "a build without CUDA"
    return (f"torch_transpose's CUDA kernels are built for CUDA {_cuda_major(built_cuda)} (torch built for "
            f"CUDA {built_cuda}) but torch {installed} is {have}; install a torch built for CUDA "
            f"{_cuda_major(built_cuda)} (PyPI's torch >= 2.11 is), or build torch_transpose from source "
            "against this torch: pip install --no-build-isolation . (README, Install)")


def installed_torch_version() -> str:
    import torch

    return torch.__version__


def _same_build(built: str, installed: str) -> bool:
    return str(built).strip() == str(installed).strip()


def _release(version: str):
    """(major, minor) of a torch version string ("2.11.0+cu130" -> (2, 11))."""
    parts = []
    for part in str(version).strip().split("+")[0].split(".")[:2]:
        digits = "".join(c for c in part if c.isdigit()) if not part.isdigit() else part
        parts.append(int(digits or 0))
    return tuple(parts + [0] * (2 - len(parts)))


def serves(required: str, installed: str) -> bool:
    """Whether a stable-ABI build for torch ``required`` loads under torch ``installed``:
    the same release or a later one, whatever its local label."""
    return _release(installed) >= _release(required)


def mismatch_message(required: str, installed: str) -> str:
    return (f"torch_transpose needs torch >= {required} (its stable-ABI build serves torch {required} "
            f"and later) but torch {installed} is installed; upgrade torch, or {REBUILD_ADVICE}")


def check() -> None:
    """Raise ImportError if the torch installed is older than the one this build of
    torch_transpose serves. Does nothing where the build recorded none."""
    if os.environ.get("GPUTRANSPOSE_SKIP_TORCH_CHECK", "") not in ("", "0"):
        return
    required = required_torch_version()
    if required is None:
        return
    installed = installed_torch_version()
    if not serves(required, installed):
        raise ImportError(mismatch_message(required, installed))
    # The CUDA kernels link the CUDA runtime of their major (libcudart.so.13): under a torch
    # of another CUDA major they would not load, or would load a second runtime.
    built_cuda = built_cuda_version()
    installed_cuda = installed_cuda_version()
    if built_cuda and installed_cuda and _cuda_major(built_cuda) != _cuda_major(installed_cuda):
        raise ImportError(cuda_mismatch_message(built_cuda, installed_cuda, installed))


def import_extension():
    """check(), then import and return torch_transpose._C.

    A load failure from an ABI mismatch (``undefined symbol``) or a missing
    library of another torch build (``libc10_cuda.so``, ``libtorch*``) is
    re-raised as an ImportError that names the two torch versions and how to
    rebuild; a missing _C says that the extension is not built.
    """
    check()
    package = __name__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}._C")
    except ImportError as error:
        text = str(error)
        built = built_torch_version() or "another torch"
        installed = installed_torch_version()
        built_cuda = built_cuda_version()
        if built_cuda and "cannot open shared object file" in text and "libcudart" in text:
            raise ImportError(f"torch_transpose._C failed to load ({text.strip()}): "
                              + cuda_mismatch_message(built_cuda, installed_cuda_version(), installed)) from error
        if "undefined symbol" in text or (
            "cannot open shared object file" in text and ("libc10" in text or "libtorch" in text)
        ):
            if _same_build(built, installed):  # the right torch: a stale or broken build
                cause = f"torch_transpose was built for this torch ({installed}) but does not match it"
            else:
                cause = f"torch_transpose was built for torch {built} but torch {installed} is installed"
            raise ImportError(f"torch_transpose._C failed to load ({text.strip()}): {cause}; {REBUILD_ADVICE}") from error
        if isinstance(error, ModuleNotFoundError) and error.name in (f"{package}._C", f"{package}._kernels"):
            raise ImportError(
                f"torch_transpose._C is not built (torch {installed} is installed); "
                "build: pip install --no-build-isolation . (or ./scripts/setup-env)"
            ) from error
        raise
