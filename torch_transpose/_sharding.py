"""DTensor sharding rules for the gputranspose ops.

A transpose, a permute and a contiguous copy move values without combining them, so each
shard moves on its own rank and no collective runs: ``Shard(d)`` becomes ``Shard`` of the
dim that ``d`` moves to, ``Replicate`` stays ``Replicate`` and ``Partial`` stays
``Partial`` (any reduction commutes with moving values). Uneven shards map the same way.
The ``out=`` overloads are refused under DTensor with an error that names the functional op.

``torch.distributed.tensor`` costs about a third of ``import torch`` again, so the rules
are registered when it is first imported (DTensor users import it before they make a
DTensor), or at once where it already is.
"""

import importlib.abc
import importlib.util
import sys
import warnings

import torch

_DTENSOR_MODULE = "torch.distributed.tensor"
_PARTIAL_REDUCTIONS = ("sum", "avg", "max", "min")


def _moving_shardings(ndim, moved, rest):
    """Every placement of one mesh dim, input dim d's shard going to result dim moved[d];
    `rest`: the op's other (non-tensor) arguments."""
    from torch.distributed.tensor import Partial, Replicate, Shard

    shardings = [([Replicate()], [Replicate(), *rest])]
    shardings += [([Shard(moved.get(d, d))], [Shard(d), *rest]) for d in range(ndim)]
    shardings += [([Partial(op)], [Partial(op), *rest]) for op in _PARTIAL_REDUCTIONS]
    return shardings


def _transpose_shardings(x, dim0=-2, dim1=-1):
    ndim = x.ndim
    moved = {}
    if ndim >= 2:  # 0-D and 1-D inputs are copied: every dim stays where it is
        d0, d1 = dim0 % ndim, dim1 % ndim
        moved = {d0: d1, d1: d0}
    return _moving_shardings(ndim, moved, [None, None])


def _permute_shardings(x, dims):
    ndim = x.ndim
    return _moving_shardings(ndim, {d % ndim: i for i, d in enumerate(dims)}, [None])


def _contiguous_shardings(x, memory_format=None):
    return _moving_shardings(x.ndim, {}, [None])  # the same dims, in a dense layout


def _refuse_out(op, call):
    def refuse(*args, **kwargs):
        raise RuntimeError(
            f"gputranspose.{op}: out= is not supported for DTensor inputs; call {call} "
            f"(or torch_transpose.{op} without out=), which returns a DTensor")
    return refuse


def register() -> None:
    """Registers the rules with DTensor (``torch.distributed.tensor`` must be importable)."""
    from torch.distributed.tensor.experimental import register_sharding

    ops = torch.ops.gputranspose
    register_sharding(ops.transpose.default)(_transpose_shardings)
    register_sharding(ops.transpose.out)(
        _refuse_out("transpose", "torch.ops.gputranspose.transpose(x, dim0, dim1)"))
    register_sharding(ops.permute.default)(_permute_shardings)
    # register_sharding keys its cache on int arguments only: the placements of a permute
    # depend on its int[] dims, which must be part of the key.
    from torch.distributed.tensor import DTensor
    from torch.distributed.tensor._op_schema import RuntimeSchemaInfo

    DTensor._op_dispatcher.sharding_propagator.op_to_schema_info[ops.permute.default] = (
        RuntimeSchemaInfo(static_argnum=1, needs_pytree=True))
    register_sharding(ops.permute.out)(
        _refuse_out("permute", "torch.ops.gputranspose.permute(x, dims)"))
    register_sharding(ops.contiguous.default)(_contiguous_shardings)


def _register_or_warn() -> None:
    try:
        register()
    except Exception as e:  # a torch whose DTensor API moved: say so, do not break imports
        warnings.warn(f"torch_transpose: DTensor sharding rules not registered ({type(e).__name__}: "
                      f"{e}); gputranspose ops on DTensors will raise", RuntimeWarning)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs `callback` once `name` has been imported (a post-import hook)."""

    def __init__(self, name, callback):
        self.name, self.callback = name, callback

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _LoaderThenCallback(spec.loader, self.callback)
        return spec


class _LoaderThenCallback(importlib.abc.Loader):
    def __init__(self, loader, callback):
        self._loader, self._callback = loader, callback

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._callback()

    def __getattr__(self, name):  # get_source, get_resource_reader, ...: the real loader's
        return getattr(self._loader, name)


def register_when_dtensor_is_imported() -> None:
    if not torch.distributed.is_available():
        return
    if _DTENSOR_MODULE in sys.modules:
        _register_or_warn()
    else:
        sys.meta_path.insert(0, _AfterImport(_DTENSOR_MODULE, _register_or_warn))
