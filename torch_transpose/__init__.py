"""gputranspose: a matrix transpose for PyTorch that runs at copy speed on NVIDIA GPUs.

Importing this package loads the compiled library, which registers
``torch.ops.gputranspose.transpose`` (and its ``.out`` overload and
``transpose_cublas``) with PyTorch's dispatcher.
"""

from typing import Optional

import torch

from . import _C
from . import _vmap  # noqa: F401  (registers the op's torch.func.vmap rule)

__version__ = _C.__version__

__all__ = ["transpose", "explain", "has_cuda_kernels", "cuda_arch_list", "__version__"]


def transpose(
    x: torch.Tensor, dim0: int = -2, dim1: int = -1, *, out: Optional[torch.Tensor] = None
) -> torch.Tensor:
    """Return ``x.transpose(dim0, dim1).contiguous()`` as a new tensor.

    The defaults swap the last two dims, so a 2-D ``x`` gives ``x.t()`` and an
    N-D ``x`` transposes each matrix of the batch. Other adjacent dims take the
    dims after them as the element (``transpose(q, 1, 2)`` of a ``(B, S, H, D)``
    tensor moves rows of ``D`` values). A 0-D or 1-D ``x`` gives a copy, as
    ``x.t()`` would. The result never aliases ``x``.

    On CUDA, tiled kernels move every dtype at copy speed; layouts they do not
    take fall back to ATen (see :func:`explain`). Differentiable in reverse and
    forward mode (dual tensors, ``torch.func.jvp``), and batched by ``torch.func.vmap``.

    If ``out`` is given, the result is written into it and ``out`` is returned:
    it must have x's dtype and device, be contiguous and not overlap ``x``; an
    empty ``out`` is resized, any other wrong shape is an error.
    """
    if out is None:
        return torch.ops.gputranspose.transpose(x, dim0, dim1)
    torch.ops.gputranspose.transpose.out(x, dim0, dim1, out=out)
    return out


def explain(x: torch.Tensor, dim0: int = -2, dim1: int = -1) -> dict:
    """Which path ``transpose(x, dim0, dim1)`` takes on CUDA, and why.

    Returns a dict with ``path`` (``"empty"``, ``"memcpy"``, ``"tiled_contiguous"``,
    ``"tiled_row_strided"``, ``"wide_elements"`` or ``"aten_fallback"``), ``reason``, and
    ``load_bytes`` / ``store_bytes``: how the tiled kernels touch each side, 16
    (128-bit accesses, rows 16-byte aligned) or 4 (rows starting anywhere: loads
    read the aligned words that hold a row, or for 1-byte types (and 2-byte ones
    past L2 on memory under 4 TB/s) stage its aligned 16-byte chunks in shared
    memory, and shift them into place; stores write
    whole aligned 16-byte chunks from skewed tiles, as they also do for 16-byte-aligned
    output rows that start mid-sector and span several tiles); 0 off the tiled paths.
    Looks at the layout only, so it answers for CPU and meta tensors too; CPU
    tensors always run the ATen implementation.
    """
    return _C.explain(x, dim0, dim1)


def has_cuda_kernels() -> bool:
    """Whether this build contains the CUDA kernels."""
    return _C.has_cuda_kernels()


def cuda_arch_list() -> list:
    """The GPU architectures the CUDA kernels were compiled for, e.g. ``['sm_90']``."""
    return _C.cuda_arch_list()
