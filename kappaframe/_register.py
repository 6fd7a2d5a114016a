"""Register the ``.kappa`` accessor, once per library, without importing polars or dask.

pandas is a dependency and is registered at import. polars (and ``dask.dataframe``) is
registered at once if it is already imported, else the moment it is (a post-import hook
on ``sys.meta_path``), so ``import kappaframe`` never pays for, nor requires, either.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Any

from ._accessor import KappaAccessor

__all__ = ["register_dask_when_imported", "register_pandas", "register_polars_when_imported"]

_DONE: set[str] = set()


def register_pandas() -> None:
    if "pandas" in _DONE:
        return
    import pandas as pd

    pd.api.extensions.register_dataframe_accessor("kappa")(KappaAccessor)
    _DONE.add("pandas")


def _register_polars(pl: ModuleType) -> None:
    if "polars" in _DONE:
        return
    _DONE.add("polars")
    pl.api.register_dataframe_namespace("kappa")(KappaAccessor)
    pl.api.register_lazyframe_namespace("kappa")(KappaAccessor)
    pl.api.register_expr_namespace("kappa")(_expression_namespace)


def _expression_namespace(expr: Any) -> Any:
    """``pl.col(...).kappa``, made where it is used.

    Its module imports polars itself, so it is imported only once polars is (importing it
    first would come back here).
    """
    from ._expressions import KappaExpr

    return KappaExpr(expr)


def _register_dask(dd: ModuleType) -> None:
    if "dask" in _DONE:
        return
    _DONE.add("dask")
    dd.extensions.register_dataframe_accessor("kappa")(KappaAccessor)


class _ImportHook(importlib.abc.MetaPathFinder):
    """Finds nothing itself; wraps one module's loader to register after its import."""

    def __init__(self, name: str, register: Any) -> None:
        self.name = name
        self.register = register

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        for finder in sys.meta_path:
            if isinstance(finder, _ImportHook) or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _RegisteringLoader(spec.loader, self)
                return spec
        return None

    def remove(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)


class _RegisteringLoader(importlib.abc.Loader):
    def __init__(self, loader: Any, hook: _ImportHook) -> None:
        self._loader = loader
        self._hook = hook

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        self._hook.remove()
        self._hook.register(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


_HOOK = _ImportHook("polars", _register_polars)
_DASK_HOOK = _ImportHook("dask.dataframe", _register_dask)


def _register_when_imported(hook: _ImportHook, ready: str) -> None:
    """Register now if ``hook.name`` is imported (and has ``ready``), else on its import."""
    module = sys.modules.get(hook.name)
    if module is not None and hasattr(module, ready):
        hook.register(module)
    elif hook not in sys.meta_path:
        sys.meta_path.insert(0, hook)


def register_polars_when_imported() -> None:
    _register_when_imported(_HOOK, "api")


def register_dask_when_imported() -> None:
    _register_when_imported(_DASK_HOOK, "extensions")
