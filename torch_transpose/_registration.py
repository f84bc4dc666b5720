"""Registers the gputranspose ops once per process, with the stable-ABI kernels of
torch_transpose._kernels.

The C++ library (libgputranspose.so, csrc/ops) registers the same ops when it loads, and a
process may load both. Whichever comes first registers: if the ops are already defined,
this module registers nothing for them (their kernels, autograd and fake kernels are the
library's); if not, it defines their schemas (those of csrc/ops/registration.cpp) and
registers:

* the CPU and CUDA kernels: C++, on the stable ABI (_kernels.register_kernels());
* the fake (Meta) kernels, here in Python: the stable ABI has no SymInt, and these compute
  the result's shape on symbolic shapes for torch.compile(dynamic=True) and torch.export;
* autograd, here in Python: reverse mode through the ops themselves (so double backward
  works), forward mode (dual tensors, torch.func.jvp) by the same linear map;
* the layouts the ops refuse (sparse, quantized, nested, mkldnn): NotImplementedError
  with what to do instead (the stable ABI's exceptions cannot say NotImplementedError).

The private ops (``_explain``, and in development builds ``_transpose_tuned`` and
``_permute_tuned``) are only this package's and always registered here. The vmap rules
are torch_transpose/_vmap.py's.
"""

from typing import List, Optional

import torch
import torch.autograd.forward_ad as fwAD
from torch._functorch.utils import enable_single_level_autograd_function

from . import _kernels

NAMESPACE = "gputranspose"

SCHEMAS = [
    "transpose(Tensor x, int dim0=-2, int dim1=-1) -> Tensor",
    # The out variants mutate `out` and return nothing: a custom op may not return an alias
    # of an input under torch.compile (see csrc/ops/registration.cpp).
    "transpose.out(Tensor x, int dim0=-2, int dim1=-1, *, Tensor(a!) out) -> ()",
    "permute(Tensor x, int[] dims) -> Tensor",
    "permute.out(Tensor x, int[] dims, *, Tensor(a!) out) -> ()",
    "contiguous(Tensor x, MemoryFormat? memory_format=None) -> Tensor",
]

PRIVATE_SCHEMAS = [
    # The plan and the kernel choice as text (csrc/stable/explain.cpp; torch_transpose/_C.py
    # reads it). tuning: [] or [l2_bytes, tile_group_rows, interleave, fallback, small_dim,
    # unit_tile_bytes, element_runs, one_unit_tiles, wide_16, nd_tiles, wide_realigned,
    # batched_small]
    # (csrc/stable/tuning.h).
    "_explain(Tensor x, int[] dims, bool permute, int device, int[] tuning, "
    "float memory_bytes_per_s) -> Tensor",
    # Development builds: the CUDA kernels with other device facts and choice overrides.
    "_transpose_tuned(Tensor x, int dim0, int dim1, int[] tuning, float memory_bytes_per_s) -> Tensor",
    "_permute_tuned(Tensor x, int[] dims, int[] tuning, float memory_bytes_per_s) -> Tensor",
]


def _schema_name(schema: str) -> str:
    return schema.split("(", 1)[0]


def has_schema(name: str) -> bool:
    """Whether ``gputranspose::<name>`` (``name`` may carry an overload: ``transpose.out``)
    is defined in this process."""
    op, _, overload = name.partition(".")
    try:
        torch._C._dispatch_find_schema_or_throw(f"{NAMESPACE}::{op}", overload)
    except RuntimeError:
        return False
    return True


# -- layouts the ops refuse (csrc/ops/tensor_layout.cpp: unsupported_layout) ------------------

def unsupported_layout(x: torch.Tensor) -> Optional[str]:
    """None for a strided (dense) tensor; for a layout the ops do not take, a message
    naming it and what to do instead."""
    if x.is_nested:
        return "nested tensors are not supported; transpose each component"
    if x.is_quantized:
        return ("quantized tensors are not supported; transpose x.dequantize(), or x.int_repr() "
                "for the raw integers")
    layout = x.layout
    if layout == torch.strided:
        return None
    if layout == torch.sparse_coo:
        return ("sparse COO tensors are not supported; use x.transpose(dim0, dim1) for a sparse "
                "result, or transpose x.to_dense()")
    if layout in (torch.sparse_csr, torch.sparse_csc, torch.sparse_bsr, torch.sparse_bsc):
        return ("sparse compressed (CSR, CSC, BSR, BSC) tensors are not supported; transpose "
                "x.to_dense()")
    if layout == torch._mkldnn:  # type: ignore[attr-defined]
        return "mkldnn tensors are not supported; transpose x.to_dense()"
    return "only strided (dense) tensors are supported; transpose x.to_dense()"


def check_supported_layout(x: torch.Tensor, op: str) -> None:
    message = unsupported_layout(x)
    if message is not None:
        raise NotImplementedError(f"{op}: {message}")


UNSUPPORTED_KEYS = ["SparseCPU", "SparseCUDA", "SparseCsrCPU", "SparseCsrCUDA", "QuantizedCPU",
                    "QuantizedCUDA", "MkldnnCPU", "NestedTensorCPU", "NestedTensorCUDA"]


# -- dims, as the C++ kernels check them (the fake kernels raise the same errors) -------------

def wrap_transpose_dims(x: torch.Tensor, dim0: int, dim1: int):
    """(dim0, dim1, copy_only), as csrc/stable/tensor_layout.cpp wraps them."""
    ndim = x.dim()
    if ndim < 2 and dim0 == -2 and dim1 == -1:
        return 0, 0, True

    def wrap(dim: int, name: str) -> int:
        extent = ndim if ndim > 0 else 1
        if not -extent <= dim < extent:
            raise IndexError(f"gputranspose.transpose: {name}={dim} is out of range for a {ndim}-D "
                             f"tensor (expected to be in range of [{-extent}, {extent - 1}])")
        return dim + extent if dim < 0 else dim

    return wrap(dim0, "dim0"), wrap(dim1, "dim1"), ndim < 2


def wrap_permutation(x: torch.Tensor, dims: List[int], op: str) -> List[int]:
    ndim = x.dim()
    dims = list(dims)
    if len(dims) != ndim:
        raise RuntimeError(f"{op}: dims must name each of x's dims once, but x has {ndim} dims and "
                           f"dims {dims} has {len(dims)}")
    order, seen = [], set()
    for d in dims:
        if not -ndim <= d < ndim:
            raise IndexError(f"{op}: dim {d} is out of range for a {ndim}-D tensor (expected to be "
                             f"in range of [{-ndim}, {ndim - 1}])")
        d = d + ndim if d < 0 else d
        if d in seen:
            raise RuntimeError(f"{op}: dims {dims} repeat dim {d}")
        seen.add(d)
        order.append(d)
    return order


def memory_format_order(x: torch.Tensor, memory_format, op: str) -> List[int]:
    ndim = x.dim()
    if memory_format is None or memory_format == torch.contiguous_format:
        return list(range(ndim))
    if memory_format == torch.channels_last:
        if ndim != 4:
            raise RuntimeError(f"{op}: channels_last needs a 4-D tensor, but x is {ndim}-D")
        return [0, 2, 3, 1]
    if memory_format == torch.channels_last_3d:
        if ndim != 5:
            raise RuntimeError(f"{op}: channels_last_3d needs a 5-D tensor, but x is {ndim}-D")
        return [0, 2, 3, 4, 1]
    raise RuntimeError(f"{op}: memory_format must be contiguous_format, channels_last or "
                       "channels_last_3d (preserve_format would keep x's own layout, which a copy "
                       "into a dense result cannot promise)")


def _dtype_name(dtype: torch.dtype) -> str:
    # c10's name ("Float", "Bool"), as the C++ kernels print it.
    try:
        return torch.empty(0, dtype=dtype, device="meta").type().rsplit(".", 1)[-1].removesuffix("Tensor")
    except Exception:
        return str(dtype).removeprefix("torch.")


def check_and_prepare_out(x: torch.Tensor, sizes, out: torch.Tensor, op: str) -> None:
    """csrc/stable/out_contract.cpp's checks on (fake or meta) tensors: no memory to overlap."""
    if out.device != x.device:
        raise RuntimeError(f"{op}: out is on {out.device} but x is on {x.device}; they must be on "
                           "the same device")
    if out.dtype != x.dtype:
        raise RuntimeError(f"{op}: out has dtype {_dtype_name(out.dtype)} but x has dtype "
                           f"{_dtype_name(x.dtype)}; it casts nothing")
    if out.layout != torch.strided:
        raise RuntimeError(f"{op}: out must be a strided (dense) tensor")
    sizes = list(sizes)
    if list(out.shape) != sizes:
        if out.numel() != 0:
            raise RuntimeError(f"{op}: out has shape {list(out.shape)} but the result has shape "
                               f"{sizes}; only an empty out is resized")
        out.resize_(sizes)
    if not out.is_contiguous():
        raise RuntimeError(f"{op}: out must be contiguous")


# -- fake kernels ------------------------------------------------------------------------------

def _transpose_fake(x, dim0=-2, dim1=-1):
    d0, d1, copy_only = wrap_transpose_dims(x, dim0, dim1)
    sizes = list(x.shape)
    if not copy_only:
        sizes[d0], sizes[d1] = sizes[d1], sizes[d0]
    return x.new_empty(sizes)


def _transpose_out_fake(x, dim0=-2, dim1=-1, *, out):
    d0, d1, copy_only = wrap_transpose_dims(x, dim0, dim1)
    sizes = list(x.shape)
    if not copy_only:
        sizes[d0], sizes[d1] = sizes[d1], sizes[d0]
    check_and_prepare_out(x, sizes, out, "gputranspose.transpose.out")


def _permute_fake(x, dims):
    order = wrap_permutation(x, dims, "gputranspose.permute")
    return x.new_empty([x.shape[d] for d in order])


def _permute_out_fake(x, dims, *, out):
    order = wrap_permutation(x, dims, "gputranspose.permute.out")
    check_and_prepare_out(x, [x.shape[d] for d in order], out, "gputranspose.permute.out")


def _contiguous_fake(x, memory_format=None):
    memory_format_order(x, memory_format, "gputranspose.contiguous")
    return torch.empty(x.shape, dtype=x.dtype, device=x.device,
                       memory_format=memory_format or torch.contiguous_format)


# -- autograd ------------------------------------------------------------------------------------

def _has_tangent(x: torch.Tensor) -> bool:
    return fwAD._current_level >= 0 and fwAD.unpack_dual(x).tangent is not None


class _LinearOp(torch.autograd.function._SingleLevelFunction):
    """An op whose result is a linear map of x (a new tensor): the gradient is the adjoint
    map of the gradient, the tangent the map of the tangent, both through the ops.

    A single-level Function: the op's Autograd kernel runs inside whatever torch.func
    transform is active, on that level's tensors, so it must not go through
    torch.func's custom_function_call (which has no Autograd kernel of its own)."""

    @staticmethod
    def forward(x, forward_map, adjoint_map):
        with torch._C._AutoDispatchBelowAutograd():
            return forward_map(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.forward_map, ctx.adjoint_map = inputs

    @staticmethod
    def backward(ctx, grad):
        return ctx.adjoint_map(grad), None, None

    @staticmethod
    def jvp(ctx, tangent, *_):
        return ctx.forward_map(tangent)


def _linear_op_autograd(op, name, keyset, x, args, forward_map, adjoint_map):
    # Unsupported layouts reach this kernel first: say so plainly.
    check_supported_layout(x, name)
    try:
        if (torch.is_grad_enabled() and x.requires_grad) or _has_tangent(x):
            with enable_single_level_autograd_function():
                return _LinearOp.apply(x, forward_map, adjoint_map)
        # Nothing to record: on to the backend's kernel with the keys already worked out.
        with torch._C._AutoDispatchBelowAutograd():
            return op.redispatch(keyset & torch._C._after_autograd_keyset, x, *args)
    except RuntimeError as error:
        # The stable ABI carries no exception type: the kernel names an allocation it could
        # not make (csrc/stable/cuda_kernels.cpp), and PyTorch's own type is raised here.
        if "CUDA out of memory" in str(error) and not isinstance(error, torch.OutOfMemoryError):
            raise torch.OutOfMemoryError(str(error)) from None
        raise


def _inverse(order: List[int]) -> List[int]:
    inverse = [0] * len(order)
    for i, d in enumerate(order):
        inverse[d] = i
    return inverse


def _register_autograd(lib: torch.library.Library) -> None:
    ops = torch.ops.gputranspose

    def transpose_autograd(keyset, x, dim0=-2, dim1=-1):
        def move(t):
            return ops.transpose.default(t, dim0, dim1)

        return _linear_op_autograd(ops.transpose.default, "gputranspose.transpose", keyset, x,
                                   (dim0, dim1), move, move)

    def permute_autograd(keyset, x, dims):
        def adjoint(g):
            return ops.permute.default(g, _inverse(wrap_permutation(x, dims, "gputranspose.permute")))

        return _linear_op_autograd(ops.permute.default, "gputranspose.permute", keyset, x, (dims,),
                                   lambda t: ops.permute.default(t, dims), adjoint)

    def contiguous_autograd(keyset, x, memory_format=None):
        # contiguous() is the identity on values: its gradient passes through.
        return _linear_op_autograd(ops.contiguous.default, "gputranspose.contiguous", keyset, x,
                                   (memory_format,),
                                   lambda t: ops.contiguous.default(t, memory_format), lambda g: g)

    def out_variant(op, name, instead):
        # out= records nothing: it refuses arguments that need a gradient or carry a tangent,
        # and bumps out's version.
        def autograd(keyset, x, *args, out):
            check_supported_layout(x, name)
            if torch.is_grad_enabled() and (x.requires_grad or out.requires_grad):
                raise RuntimeError(f"{name}: out= does not support automatic differentiation, but "
                                   f"an argument requires grad; call {instead} instead")
            if _has_tangent(x) or _has_tangent(out):
                raise RuntimeError(f"{name}: out= does not support forward-mode automatic "
                                   f"differentiation, but an argument has a tangent; call {instead} "
                                   "instead")
            with torch._C._AutoDispatchBelowAutograd():
                op.redispatch(keyset & torch._C._after_autograd_keyset, x, *args, out=out)
            torch.autograd.graph.increment_version(out)

        return autograd

    lib.impl("transpose", transpose_autograd, "Autograd", with_keyset=True)
    lib.impl("permute", permute_autograd, "Autograd", with_keyset=True)
    lib.impl("contiguous", contiguous_autograd, "Autograd", with_keyset=True)
    lib.impl("transpose.out", out_variant(ops.transpose.out, "gputranspose.transpose.out",
                                          "transpose(x)"), "Autograd", with_keyset=True)
    lib.impl("permute.out", out_variant(ops.permute.out, "gputranspose.permute.out",
                                        "permute(x, dims)"), "Autograd", with_keyset=True)


def _register_unsupported_layouts(lib: torch.library.Library) -> None:
    # Inference mode skips the Autograd kernel: these backends then give the same error.
    for name in ("transpose", "transpose.out", "permute", "permute.out", "contiguous"):
        op = f"gputranspose.{name}"

        def refuse(x, *args, op=op, **kwargs):
            check_supported_layout(x, op)
            raise NotImplementedError(f"{op}: no kernel for this tensor")

        for key in UNSUPPORTED_KEYS:
            lib.impl(name, refuse, key)


def _register() -> bool:
    """Registers what is not registered yet; True if this package registered the ops."""
    lib = torch.library.Library(NAMESPACE, "FRAGMENT")  # noqa: TOR901
    _LIBRARIES.append(lib)
    owns = not has_schema("transpose")
    if owns:
        for schema in SCHEMAS:
            lib.define(schema, tags=(torch.Tag.pt2_compliant_tag,))
        _kernels.register_kernels()
        for name, fake in [("transpose", _transpose_fake), ("transpose.out", _transpose_out_fake),
                           ("permute", _permute_fake), ("permute.out", _permute_out_fake),
                           ("contiguous", _contiguous_fake)]:
            torch.library.register_fake(f"{NAMESPACE}::{name}", fake, lib=lib)
        _register_autograd(lib)
        _register_unsupported_layouts(lib)
    else:
        missing = [_schema_name(s) for s in SCHEMAS if not has_schema(_schema_name(s))]
        if missing:
            raise ImportError(
                "torch_transpose: the gputranspose ops are partly registered by another library "
                f"(missing: {', '.join(missing)}); load one copy of gputranspose per process")
    for schema in PRIVATE_SCHEMAS:
        if not has_schema(_schema_name(schema)):
            lib.define(schema)
    _kernels.register_private_kernels()
    return owns


_LIBRARIES: List[torch.library.Library] = []  # kept for the life of the process
OWNS_OPS = _register()
