"""torch.func.vmap rules for the gputranspose ops: one call of the op on the batch, not
the per-sample loop (and its warning) that vmap falls back to for ops without one.

The vmapped dim moves to the front and the op's dims shift past it. The dims are checked
(and a 0-D or 1-D sample's transpose copy decided) by the op itself on one sample's shape
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



def _has_rule(op) -> bool:
    # A rule registered already (another copy of the library, in this process) stays.
    return torch._C._dispatch_has_kernel_for_dispatch_key(op._name, "FuncTorchBatched")


if not _has_rule(_transpose):
    torch.library.register_vmap(_transpose, _transpose_batched)


_permute = torch.ops.gputranspose.permute.default
_contiguous = torch.ops.gputranspose.contiguous.default


def _permute_batched(info, in_dims, x, dims):
    x = x.movedim(in_dims[0], 0)
    sample = torch.empty(x.shape[1:], dtype=x.dtype, device="meta")
    _permute(sample, dims)
    ndim = sample.dim()
    return _permute(x, [0] + [d % ndim + 1 for d in dims]), 0


def _contiguous_batched(info, in_dims, x, memory_format=None):
    # A format is for a rank (channels_last: 4-D), which the batch dim would change: the
    # samples' format is the batch's dims in that order after the batch dim.
    x = x.movedim(in_dims[0], 0)
    sample = torch.empty(x.shape[1:], dtype=x.dtype, device="meta")
    _contiguous(sample, memory_format)
    if memory_format in (None, torch.contiguous_format):
        return _contiguous(x, memory_format), 0
    order = [0, 2, 3, 1] if memory_format == torch.channels_last else [0, 2, 3, 4, 1]
    dense = _permute(x, [0] + [d + 1 for d in order])
    inverse = [order.index(d) + 1 for d in range(len(order))]
    return dense.permute([0] + inverse), 0


if not _has_rule(_permute):
    torch.library.register_vmap(_permute, _permute_batched)
if not _has_rule(_contiguous):
    torch.library.register_vmap(_contiguous, _contiguous_batched)
