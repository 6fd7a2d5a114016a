"""Register the ``.kappa`` accessor, once per library, without importing polars.

pandas is a dependency and is registered at import. polars is registered at once if it
is already imported, else the moment it is (a post-import hook on ``sys.meta_path``), so
``import kappaframe`` never pays for, nor requires, polars.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Any

from ._accessor import KappaAccessor

__all__ = ["register_pandas", "register_polars_when_imported"]

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


class _PolarsHook(importlib.abc.MetaPathFinder):
    """Finds nothing itself; wraps polars' loader to register the namespace after import."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != "polars":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _RegisteringLoader(spec.loader)
                return spec
        return None


class _RegisteringLoader(importlib.abc.Loader):
    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        _remove_hook()
        _register_polars(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


_HOOK = _PolarsHook()


def _remove_hook() -> None:
    if _HOOK in sys.meta_path:
        sys.meta_path.remove(_HOOK)


def register_polars_when_imported() -> None:
    pl = sys.modules.get("polars")
    if pl is not None and hasattr(pl, "api"):
        _register_polars(pl)
    elif _HOOK not in sys.meta_path:
        sys.meta_path.insert(0, _HOOK)
