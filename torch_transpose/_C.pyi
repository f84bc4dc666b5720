# Type stubs for torch_transpose._C, the compiled module (csrc/python/module.cpp).
# Importing it registers torch.ops.gputranspose.* with PyTorch's dispatcher.
from typing import Any, Optional

from torch import Tensor

__version__: str
__torch_version__: str  # the torch release it was compiled against (major.minor.patch)

def has_cuda_kernels() -> bool: ...
def cuda_arch_list() -> list[str]: ...
def development_build() -> bool: ...
def explain(x: Tensor, dim0: int = -2, dim1: int = -1, device: Optional[int] = None) -> dict[str, Any]: ...
def explain_permute(x: Tensor, dims: list[int], device: Optional[int] = None) -> dict[str, Any]: ...

# Development builds only (GPUTRANSPOSE_DEVELOPMENT=1; _transpose_tuned also needs the CUDA kernels).
def _explain_tuned(
    x: Tensor,
    dim0: int = -2,
    dim1: int = -1,
    device: Optional[int] = None,
    *,
    l2_bytes: int = 0,
    memory_bytes_per_s: float = 0.0,
    tile_group_rows: int = 0,
    interleave: int = -1,
    fallback: int = -1,
    small_dim: int = -1,
) -> dict[str, Any]: ...
def _transpose_tuned(
    x: Tensor,
    dim0: int = -2,
    dim1: int = -1,
    *,
    l2_bytes: int = 0,
    memory_bytes_per_s: float = 0.0,
    tile_group_rows: int = 0,
    interleave: int = -1,
    fallback: int = -1,
    small_dim: int = -1,
) -> Tensor: ...
def _explain_permute_tuned(
    x: Tensor,
    dims: list[int],
    device: Optional[int] = None,
    *,
    l2_bytes: int = 0,
    memory_bytes_per_s: float = 0.0,
    tile_group_rows: int = 0,
    interleave: int = -1,
    fallback: int = -1,
    small_dim: int = -1,
) -> dict[str, Any]: ...
def _permute_tuned(
    x: Tensor,
    dims: list[int],
    *,
    l2_bytes: int = 0,
    memory_bytes_per_s: float = 0.0,
    tile_group_rows: int = 0,
    interleave: int = -1,
    fallback: int = -1,
    small_dim: int = -1,
) -> Tensor: ...
