"""DTensor sharding rules for the gputranspose ops.

A transpose moves values without combining them, so each shard transposes on its own rank
and no collective runs: ``Shard(d)`` becomes ``Shard`` of the dim that ``d`` moves to,
``Replicate`` stays ``Replicate`` and ``Partial`` stays ``Partial`` (any reduction commutes
with moving values). Uneven shards map the same way. The ``out=`` overload is refused
under DTensor with an error that names the functional op.

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


def _transpose_shardings(x, dim0=-2, dim1=-1):
    from torch.distributed.tensor import Partial, Replicate, Shard

    ndim = x.ndim
    moved = {}
    if ndim >= 2:  # 0-D and 1-D inputs are copied: every dim stays where it is
        d0, d1 = dim0 % ndim, dim1 % ndim
        moved = {d0: d1, d1: d0}
    rest = [None, None]  # dim0, dim1: not tensors
    shardings = [([Replicate()], [Replicate(), *rest])]
    shardings += [([Shard(moved.get(d, d))], [Shard(d), *rest]) for d in range(ndim)]
    shardings += [([Partial(op)], [Partial(op), *rest]) for op in _PARTIAL_REDUCTIONS]
    return shardings


def _refuse_out(*args, **kwargs):
    raise RuntimeError(
        "gputranspose.transpose: out= is not supported for DTensor inputs; call "
        "torch.ops.gputranspose.transpose(x, dim0, dim1) (or torch_transpose.transpose "
        "without out=), which returns a DTensor")


def register() -> None:
    """Registers the rules with DTensor (``torch.distributed.tensor`` must be importable)."""
    from torch.distributed.tensor.experimental import register_sharding

    register_sharding(torch.ops.gputranspose.transpose.default)(_transpose_shardings)
    register_sharding(torch.ops.gputranspose.transpose.out)(_refuse_out)


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
