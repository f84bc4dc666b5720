"""gputranspose: transposes, permutes and layout changes for PyTorch that run at copy
speed on NVIDIA GPUs.

Importing this package loads the compiled library, which registers
``torch.ops.gputranspose.transpose``, ``.permute`` (each with an ``.out`` overload) and
``.contiguous`` with PyTorch's dispatcher, once per process.
"""

from typing import Any, Dict, List, Optional, Sequence

import torch

from . import _build_check

_C = _build_check.import_extension()

from . import _vmap  # noqa: E402,F401  (registers the op's torch.func.vmap rule)
from . import _sharding  # noqa: E402

_sharding.register_when_dtensor_is_imported()  # DTensor's sharding rules, once it is imported

__version__: str = _C.__version__

__all__ = [
    "transpose", "permute", "contiguous", "explain", "explain_permute", "has_cuda_kernels",
    "cuda_arch_list", "__version__",
]


def _check_tensor(x: Any, name: str) -> None:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"torch_transpose: {name} must be a torch.Tensor, got {type(x).__name__}")


def _check_dim(dim: Any, name: str) -> None:
    # bool is an int subclass, but True/False as a dim is a bug at the call site.
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"torch_transpose: {name} must be an int, got {type(dim).__name__}")


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
    take fall back to ATen (see :func:`explain`). Sparse, quantized, nested and
    mkldnn tensors raise ``NotImplementedError``. Differentiable in reverse and
    forward mode (dual tensors, ``torch.func.jvp``), and batched by ``torch.func.vmap``.

    If ``out`` is given, the result is written into it and ``out`` is returned:
    it must have x's dtype and device, be contiguous and not overlap ``x``; an
    empty ``out`` is resized, any other wrong shape is an error.
    """
    _check_tensor(x, "x")
    _check_dim(dim0, "dim0")
    _check_dim(dim1, "dim1")
    if out is None:
        return torch.ops.gputranspose.transpose(x, dim0, dim1)
    _check_tensor(out, "out")
    torch.ops.gputranspose.transpose.out(x, dim0, dim1, out=out)
    return out


def _check_dims(dims: Any) -> List[int]:
    if isinstance(dims, torch.Tensor) or not isinstance(dims, (list, tuple, torch.Size)):
        raise TypeError(f"torch_transpose: dims must be a sequence of ints, got {type(dims).__name__}")
    for d in dims:
        _check_dim(d, "each of dims")
    return list(dims)


def permute(
    x: torch.Tensor, dims: Sequence[int], *, out: Optional[torch.Tensor] = None
) -> torch.Tensor:
    """Return ``x.permute(dims).contiguous()`` as a new tensor.

    Any permutation of any rank (``(0, 2, 3, 1)``: NCHW to NHWC; ``(0, 2, 3, 1)`` of a
    ``(B, S, H, D)`` tensor: ``(B, H, D, S)``). The dims that stay together on both sides
    are fused first, so the result is moved as a batch of matrix transposes wherever it is
    one, whatever the input's strides (views, slices, offsets): see :func:`explain_permute`.
    The result never aliases ``x``. Differentiable (the gradient is the inverse permute,
    through the op), in forward mode too, and batched by ``torch.func.vmap``.

    ``out``: as for :func:`transpose`.
    """
    _check_tensor(x, "x")
    dims = _check_dims(dims)
    if out is None:
        return torch.ops.gputranspose.permute(x, dims)
    _check_tensor(out, "out")
    torch.ops.gputranspose.permute.out(x, dims, out=out)
    return out


def contiguous(
    x: torch.Tensor, memory_format: Optional[torch.memory_format] = None
) -> torch.Tensor:
    """Return x's values in a new dense tensor of ``memory_format``.

    ``torch.contiguous_format`` (the default), ``torch.channels_last`` (4-D ``x``) or
    ``torch.channels_last_3d`` (5-D ``x``), from any strided ``x`` (views, slices, expanded
    or permuted dims): equal to ``x.contiguous(memory_format=memory_format)`` in values and
    strides, but always a copy. It runs as :func:`permute` of ``x`` into the format's dim
    order (``explain_permute(x, (0, 2, 3, 1))`` for channels_last). Differentiable.
    """
    _check_tensor(x, "x")
    if memory_format is not None and not isinstance(memory_format, torch.memory_format):
        raise TypeError("torch_transpose: memory_format must be a torch.memory_format, got "
                        f"{type(memory_format).__name__}")
    return torch.ops.gputranspose.contiguous(x, memory_format)


def explain(
    x: torch.Tensor, dim0: int = -2, dim1: int = -1, *, device: Optional[int] = None
) -> Dict[str, Any]:
    """What ``transpose(x, dim0, dim1)`` runs on CUDA, and why.

    Returns a dict:

    * ``path``: ``"empty"``, ``"memcpy"``, ``"tiled_contiguous"``, ``"tiled_row_strided"``,
      ``"tiled_units"`` (elements of odd sizes, and 1- and 2-byte elements of matrices too
      narrow for the tiled kernel), ``"small_dim"`` (a side of 2-16 elements),
      ``"batched_small"`` (batches of small matrices, rows anywhere), ``"element_runs"``
      (long strided elements of odd sizes, run by run), ``"wide_elements"``, ``"nd_tiles"``
      (tiles over several dims on each side: reversals and moves of short dims),
      ``"aten_fallback"`` (ATen's copy runs: correct, not fast), or
      ``"unsupported"`` (the op raises for this layout); ``reason`` says why.
    * ``plan_path``, ``plan_reason``: the layout's own path and reason, known without a
      device. ``path`` differs where the device's kernel choice sends the layout elsewhere
      (a 2-D copy of rows under 64 bytes to ``"aten_fallback"``, a batch of small matrices to
      ``"batched_small"``).
    * ``kernel``: the kernel a CUDA device runs (e.g. ``"tiled<e=1, load=staged,
      store=aligned16, tiling=wide, l2=normal>"``), or ``None`` where no kernel runs or none
      is known; then ``note`` says why (no CUDA device to choose for, a CPU-only build).
    * ``device``: the CUDA device whose facts chose the kernel; ``element_size``: the bytes
      moved as one element; on the kernels' paths ``matrices`` ``(batch, rows, cols)`` and
      ``strides`` ``(batch_stride, row_stride)`` in elements (in ``stride_unit`` bytes: the
      element size, or a value's where strided elements lie a part of an element apart), the
      columns ``col_stride`` apart: the layout as the kernels see it, after the dims that lie back to back on both sides are fused; ``out_strides``
      ``(out_batch_stride, out_row_stride)``: where each matrix's transpose lands; and
      ``outer``: a permutation's further batch dims as ``(size, stride, out_stride)``.
    * On the tiled paths: ``tiling``, ``load``, ``store``, ``group_rows``, ``interleave``;
      on the tiled and wide-element paths ``input_l2`` and ``tile``; and the launch shape
      ``blocks``, ``threads``, ``shared_bytes``.

    For a CUDA tensor the answer is its device's; for a CPU or meta tensor it is what
    ``device`` (default: the current CUDA device) would run, since such tensors themselves
    always run ATen's implementation.
    """
    _check_tensor(x, "x")
    _check_dim(dim0, "dim0")
    _check_dim(dim1, "dim1")
    if device is not None:
        _check_dim(device, "device")
    return _C.explain(x, dim0, dim1, device)


def explain_permute(
    x: torch.Tensor, dims: Sequence[int], *, device: Optional[int] = None
) -> Dict[str, Any]:
    """What ``permute(x, dims)`` runs on CUDA, and why: the dict :func:`explain` returns."""
    _check_tensor(x, "x")
    dims = _check_dims(dims)
    if device is not None:
        _check_dim(device, "device")
    return _C.explain_permute(x, dims, device)


def has_cuda_kernels() -> bool:
    """Whether this build contains the CUDA kernels."""
    return _C.has_cuda_kernels()


def cuda_arch_list() -> List[str]:
    """The GPU architectures the CUDA kernels were compiled for, e.g. ``['sm_90']``."""
    return _C.cuda_arch_list()
