"""Loads torch_transpose._C only under the torch it was built for.

A C++ extension binds to one torch release's C++ ABI: under any other torch it
fails to load with an ``undefined symbol`` error that does not say what to do.
setup.py records the torch it built against in ``_build_info.py`` (generated,
next to ``_C``); :func:`check` compares it with the torch imported now and
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


def installed_torch_version() -> str:
    import torch

    return torch.__version__


def _same_build(built: str, installed: str) -> bool:
    # The C++ ABI is per torch build: release, pre-release/dev tag and local label
    # (+cu130, +cpu: a CPU build has no libc10_cuda) all have to match.
    return str(built).strip() == str(installed).strip()


def mismatch_message(built: str, installed: str) -> str:
    return f"torch_transpose was built for torch {built} but torch {installed} is installed; {REBUILD_ADVICE}"


def check() -> None:
    """Raise ImportError if torch_transpose was built for a torch other than the
    one installed. Does nothing where the build recorded no torch version."""
    if os.environ.get("GPUTRANSPOSE_SKIP_TORCH_CHECK", "") not in ("", "0"):
        return
    built = built_torch_version()
    if built is None:
        return
    installed = installed_torch_version()
    if not _same_build(built, installed):
        raise ImportError(mismatch_message(built, installed))


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
        if "undefined symbol" in text or (
            "cannot open shared object file" in text and ("libc10" in text or "libtorch" in text)
        ):
            if _same_build(built, installed):  # the right torch: a stale or broken build
                cause = f"torch_transpose was built for this torch ({installed}) but does not match it"
            else:
                cause = f"torch_transpose was built for torch {built} but torch {installed} is installed"
            raise ImportError(f"torch_transpose._C failed to load ({text.strip()}): {cause}; {REBUILD_ADVICE}") from error
        if isinstance(error, ModuleNotFoundError) and error.name == f"{package}._C":
            raise ImportError(
                f"torch_transpose._C is not built (torch {installed} is installed); "
                "build: pip install --no-build-isolation . (or ./scripts/setup-env)"
            ) from error
        raise
