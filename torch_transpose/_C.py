"""torch_transpose._C: the compiled library's Python face.

Importing it loads torch_transpose._kernels (the stable-ABI extension, an abi3 module) and
registers the gputranspose ops once per process (_registration.py). Its functions give the
build's facts and explain(), and in development builds the tuned kernels for tests; they
call private ops (gputranspose::_explain, ...) rather than bind C++ to Python, so that the
extension needs neither pybind11 nor ATen's C++ ABI.
"""

from typing import Any, Dict, List, Optional, Sequence

import torch

from . import _kernels
from . import _registration

__version__: str = _kernels.__version__
__torch_version__: str = _kernels.__torch_version__  # the torch whose headers built it
# The oldest torch the extension serves (its TORCH_TARGET_VERSION), "2.10".
__torch_target__: str = f"{_kernels.TORCH_TARGET_VERSION_MAJOR}.{_kernels.TORCH_TARGET_VERSION_MINOR}"


def has_cuda_kernels() -> bool:
    """Whether this build contains the CUDA kernels."""
    return bool(_kernels.HAS_CUDA_KERNELS)


def development_build() -> bool:
    """Whether this build has the tuning overrides (a development build)."""
    return bool(_kernels.DEVELOPMENT_BUILD)


def cuda_arch_list() -> List[str]:
    """The GPU architectures the CUDA kernels were compiled for, e.g. ['sm_90']."""
    # nvcc lists them as "800,900": sm_80, sm_90.
    return [f"sm_{arch[:-1]}" for arch in _kernels.CUDA_ARCHITECTURES.split(",") if arch]


# -- explain -------------------------------------------------------------------------------------

_TEXT_FIELDS = ("path", "reason", "plan_path", "plan_reason", "kernel", "note", "tiling", "load",
                "store", "input_l2")
_LIST_FIELDS = ("outer_sizes", "outer_strides", "outer_out_strides")


def _read_explanation(text: str) -> Dict[str, Any]:
    """The fields of csrc/include/gputranspose/transpose.h's Explanation, from _explain's lines."""
    e: Dict[str, Any] = {name: "" for name in _TEXT_FIELDS}
    e.update({name: [] for name in _LIST_FIELDS})
    e.update(device=-1, tile_utilization=0.0)
    for line in text.splitlines():
        key, _, value = line.partition("\t")
        if key in _TEXT_FIELDS:
            e[key] = value
        elif key in _LIST_FIELDS:
            e[key] = [int(v) for v in value.split(",") if v]
        elif key == "tile_utilization":
            e[key] = float(value)
        else:
            e[key] = int(value)
    return e


def _to_dict(e: Dict[str, Any]) -> Dict[str, Any]:
    # The dict explain() returns (the C++ library's gputranspose::Explanation, as a dict).
    get = e.get
    d: Dict[str, Any] = {"path": e["path"], "reason": e["reason"],
                         "plan_path": e["plan_path"] or e["path"],
                         "plan_reason": e["plan_reason"] or e["reason"],
                         "kernel": e["kernel"] or None}
    if e["note"]:
        d["note"] = e["note"]
    d["device"] = e["device"] if e["device"] >= 0 else None
    d["element_size"] = get("element_size", 0)
    if get("rows", 0) > 0:
        d["matrices"] = (e["batch"], e["rows"], e["cols"])
        d["strides"] = (e["batch_stride"], e["row_stride"])
        d["col_stride"] = e["col_stride"]
        d["stride_unit"] = e["stride_unit"]
        d["out_strides"] = (e["out_batch_stride"], e["out_row_stride"])
        d["outer"] = [tuple(t) for t in zip(e["outer_sizes"], e["outer_strides"], e["outer_out_strides"])]
    d["load_bytes"] = get("load_bytes", 0)
    d["store_bytes"] = get("store_bytes", 0)
    if e["tiling"]:
        d["tiling"] = e["tiling"]
        d["load"] = e["load"]
        d["store"] = e["store"]
        d["group_rows"] = get("group_rows", 0)
        d["interleave"] = bool(get("interleave", 0))
    if e["input_l2"]:
        d["input_l2"] = e["input_l2"]
        d["tile"] = (get("tile_rows", 0), get("tile_cols", 0))
    if e["kernel"] and not e["kernel"].startswith("memcpy"):
        d["blocks"] = get("blocks", 0)
        d["threads"] = get("threads", 0)
        d["shared_bytes"] = get("shared_bytes", 0)
    if e["tile_utilization"] > 0:
        d["tile_utilization"] = e["tile_utilization"]
    return d


def _explain(x: torch.Tensor, dims: Sequence[int], permute: bool, device: Optional[int],
             tuning: Sequence[int] = (), memory_bytes_per_s: float = 0.0) -> Dict[str, Any]:
    message = _registration.unsupported_layout(x)
    if message is not None:
        return _to_dict(_read_explanation(f"path\tunsupported\nreason\t{message}\n"))
    text = torch.ops.gputranspose._explain(
        x.detach(), list(dims), permute, -1 if device is None else device, list(tuning),
        float(memory_bytes_per_s))
    return _to_dict(_read_explanation(bytes(text.tolist()).decode()))


def explain(x: torch.Tensor, dim0: int = -2, dim1: int = -1,
            device: Optional[int] = None) -> Dict[str, Any]:
    """What a transpose of x runs on CUDA, and why."""
    return _explain(x, [dim0, dim1], False, device)


def explain_permute(x: torch.Tensor, dims: Sequence[int],
                    device: Optional[int] = None) -> Dict[str, Any]:
    """What a permute of x runs on CUDA, and why."""
    return _explain(x, dims, True, device)


# -- development builds ----------------------------------------------------------------------------

def _tuning(l2_bytes: int, memory_bytes_per_s: float, tile_group_rows: int, interleave: int,
            fallback: int, small_dim: int, unit_tile_bytes: int, element_runs: int,
            one_unit_tiles: int, wide_16: int, nd_tiles: int,
            wide_realigned: int, batched_small: int) -> List[int]:
    if l2_bytes < 0:
        raise ValueError("l2_bytes must be >= 0 (0: the device's)")
    if memory_bytes_per_s < 0:
        raise ValueError("memory_bytes_per_s must be >= 0 (0: the device's)")
    if tile_group_rows < 0:
        raise ValueError("tile_group_rows must be >= 0 (0: the rule's)")
    if not -1 <= interleave <= 1:
        raise ValueError("interleave must be -1 (the rule's), 0 or 1")
    if not -1 <= fallback <= 1:
        raise ValueError("fallback must be -1 (the rule's), 0 or 1")
    if not -1 <= small_dim <= 0:
        raise ValueError("small_dim must be -1 (the rule's) or 0")
    if unit_tile_bytes < -1:
        raise ValueError("unit_tile_bytes must be -1 (the rule's), 0 (square tiles of up to 32) "
                         "or a tile's bytes")
    if not -1 <= element_runs <= 1:
        raise ValueError("element_runs must be -1 (the rule's), 0 or 1")
    if not -1 <= one_unit_tiles <= 2:
        raise ValueError("one_unit_tiles must be -1 (the rule's), 0, 1 (wherever the tiled kernel "
                         "would run) or 2 (and where the small-dim kernel would)")
    if not -1 <= wide_16 <= 1:
        raise ValueError("wide_16 must be -1 (the rule's), 0 or 1 (16-byte elements in the "
                         "wide-element kernel wherever the tiled kernel would run)")
    if not -1 <= nd_tiles <= 2:
        raise ValueError("nd_tiles must be -1 (the rule's), 0, 1 (tiles over several dims "
                         "wherever the plan has them) or 2 (only where the framework's copy "
                         "would run)")
    if not -1 <= wide_realigned <= 1:
        raise ValueError("wide_realigned must be -1 (the rule's), 0 or 1 (wide elements in "
                         "realigned 16-byte granules wherever the wide-element kernel runs)")
    if not -1 <= batched_small <= 1:
        raise ValueError("batched_small must be -1 (the rule's), 0 or 1 (batches of small "
                         "matrices in the batched-small kernel however full the tiled kernel's "
                         "tiles)")
    return [int(l2_bytes), int(tile_group_rows), int(interleave), int(fallback), int(small_dim),
            int(unit_tile_bytes), int(element_runs), int(one_unit_tiles), int(wide_16),
            int(nd_tiles), int(wide_realigned), int(batched_small)]


if development_build():

    def _explain_tuned(x: torch.Tensor, dim0: int = -2, dim1: int = -1,
                       device: Optional[int] = None, *, l2_bytes: int = 0,
                       memory_bytes_per_s: float = 0.0, tile_group_rows: int = 0,
                       interleave: int = -1, fallback: int = -1,
                       small_dim: int = -1, unit_tile_bytes: int = -1,
                       element_runs: int = -1, one_unit_tiles: int = -1, wide_16: int = -1,
                       nd_tiles: int = -1, wide_realigned: int = -1,
                       batched_small: int = -1) -> Dict[str, Any]:
        """explain() with other device facts and choice overrides (development builds)."""
        tuning = _tuning(l2_bytes, memory_bytes_per_s, tile_group_rows, interleave, fallback,
                         small_dim, unit_tile_bytes, element_runs, one_unit_tiles, wide_16,
                         nd_tiles, wide_realigned, batched_small)
        return _explain(x, [dim0, dim1], False, device, tuning, memory_bytes_per_s)

    def _explain_permute_tuned(x: torch.Tensor, dims: Sequence[int],
                               device: Optional[int] = None, *, l2_bytes: int = 0,
                               memory_bytes_per_s: float = 0.0, tile_group_rows: int = 0,
                               interleave: int = -1, fallback: int = -1,
                               small_dim: int = -1, unit_tile_bytes: int = -1,
                               element_runs: int = -1,
                               one_unit_tiles: int = -1, wide_16: int = -1,
                               nd_tiles: int = -1, wide_realigned: int = -1,
                               batched_small: int = -1) -> Dict[str, Any]:
        """explain_permute() with other device facts and choice overrides (development builds)."""
        tuning = _tuning(l2_bytes, memory_bytes_per_s, tile_group_rows, interleave, fallback,
                         small_dim, unit_tile_bytes, element_runs, one_unit_tiles, wide_16,
                         nd_tiles, wide_realigned, batched_small)
        return _explain(x, dims, True, device, tuning, memory_bytes_per_s)

    if has_cuda_kernels():

        def _check_tuned_input(x: torch.Tensor, op: str) -> None:
            if not x.is_cuda:
                raise RuntimeError("gputranspose: the tuned kernel takes CUDA tensors")
            _registration.check_supported_layout(x, op)

        def _transpose_tuned(x: torch.Tensor, dim0: int = -2, dim1: int = -1, *,
                             l2_bytes: int = 0, memory_bytes_per_s: float = 0.0,
                             tile_group_rows: int = 0, interleave: int = -1,
                             fallback: int = -1, small_dim: int = -1,
                             unit_tile_bytes: int = -1, element_runs: int = -1,
                             one_unit_tiles: int = -1, wide_16: int = -1,
                             nd_tiles: int = -1, wide_realigned: int = -1,
                             batched_small: int = -1) -> torch.Tensor:
            """The CUDA kernel with other device facts and choice overrides."""
            tuning = _tuning(l2_bytes, memory_bytes_per_s, tile_group_rows, interleave, fallback,
                             small_dim, unit_tile_bytes, element_runs, one_unit_tiles, wide_16,
                             nd_tiles, wide_realigned, batched_small)
            _check_tuned_input(x, "gputranspose.transpose")
            return torch.ops.gputranspose._transpose_tuned(x, dim0, dim1, tuning,
                                                           float(memory_bytes_per_s))

        def _permute_tuned(x: torch.Tensor, dims: Sequence[int], *, l2_bytes: int = 0,
                           memory_bytes_per_s: float = 0.0, tile_group_rows: int = 0,
                           interleave: int = -1, fallback: int = -1,
                           small_dim: int = -1, unit_tile_bytes: int = -1,
                           element_runs: int = -1, one_unit_tiles: int = -1, wide_16: int = -1,
                           nd_tiles: int = -1, wide_realigned: int = -1,
                           batched_small: int = -1) -> torch.Tensor:
            """The permute's CUDA kernel with other device facts and choice overrides."""
            tuning = _tuning(l2_bytes, memory_bytes_per_s, tile_group_rows, interleave, fallback,
                             small_dim, unit_tile_bytes, element_runs, one_unit_tiles, wide_16,
                             nd_tiles, wide_realigned, batched_small)
            _check_tuned_input(x, "gputranspose.permute")
            return torch.ops.gputranspose._permute_tuned(x, list(dims), tuning,
                                                         float(memory_bytes_per_s))
