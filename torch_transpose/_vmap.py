"""torch.func.vmap rule for ``gputranspose::transpose``: one call of the op on the batch,
not the per-sample loop (and its warning) that vmap falls back to for ops without one.

The vmapped dim moves to the front and the swapped dims shift past it. The dims are
checked, and a 0-D or 1-D sample's copy decided, by the op itself on one sample's shape
(a meta tensor), so that a vmapped call raises exactly what an unbatched one would.
"""

import torch

_transpose = torch.ops.gputranspose.transpose.default
# The dispatcher leaves out trailing arguments that equal the schema's defaults.
_DIM0, _DIM1 = (arg.default_value for arg in _transpose._schema.arguments[1:3])


def _transpose_batched(info, in_dims, x, dim0=_DIM0, dim1=_DIM1):
    # x is batched: torch.library skips the rule when no operand is.
    x = x.movedim(in_dims[0], 0)
    sample = torch.empty(x.shape[1:], dtype=x.dtype, device="meta")
    _transpose(sample, dim0, dim1)
    ndim = sample.dim()
    if ndim < 2:  # the op's copy of a 0-D or 1-D sample
        return _transpose(x, 0, 0), 0
    return _transpose(x, dim0 % ndim + 1, dim1 % ndim + 1), 0


torch.library.register_vmap(_transpose, _transpose_batched)
