"""The ``.kappa`` accessor: its methods are made from the public functions that take a frame.

Each method is the function with the frame as ``data``: the function's signature less
``data`` and its documentation (less the ``data`` entry, with the call spelled as a method),
so nothing here repeats a parameter. pandas builds a new accessor object on every attribute
access and polars caches one per frame, so the class only keeps a reference to the frame.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from ._api import category_counts as _category_counts
from ._api import compare as _compare
from ._api import concordance as _concordance
from ._api import icc as _icc
from ._api import items as _items
from ._api import judge as _judge
from ._api import overall as _overall
from ._api import pairwise as _pairwise
from ._api import per_label as _per_label
from ._api import preference as _preference
from ._api import raters as _raters
from ._api import sample_size as _sample_size
from ._api import table_tests as _table_tests
from ._api import threshold as _threshold
from ._frames.not_a_column import NotAColumn
from ._report import describe as _describe
from ._report import plots as _plots

__all__ = ["FUNCTIONS", "KappaAccessor"]

FrameT = TypeVar("FrameT")

#: The functions the accessor offers, each as ``df.kappa.<name>(...)``.
FUNCTIONS: tuple[Callable[..., Any], ...] = (
    _pairwise.pairwise,
    _pairwise.matrix,
    _pairwise.score,
    _pairwise.confusion,
    _pairwise.counts,
    _overall.overall,
    _overall.per_category,
    _category_counts.category_counts,
    _raters.raters,
    _table_tests.table_tests,
    _compare.compare,
    _items.items,
    _items.rater_confusion,
    _judge.judge_report,
    _sample_size.sample_size,
    _icc.icc,
    _icc.kendall_w,
    _per_label.per_label,
    _concordance.ccc,
    _concordance.bland_altman,
    _threshold.threshold_sweep,
    _preference.swap_consistency,
    _preference.resolve_swaps,
    _plots.heatmap,
    _plots.confusion_plot,
    _plots.trend_plot,
    _plots.bland_altman_plot,
    _plots.forest_plot,
    _describe.describe,
)

# A numpy-style parameter entry for ``data``: its line and the indented lines under it.
_DATA_ENTRY = re.compile(r"^data : [^\n]*\n(?:    [^\n]*\n|\n(?=    ))*", re.MULTILINE)


def _doc(func: Callable[..., Any]) -> str:
    """The function's documentation, less ``data``, with the call spelled as a method."""
    summary, _, body = inspect.cleandoc(func.__doc__ or "").partition("\n")
    note = (
        f"Called on a frame as ``df.kappa.{func.__name__}(...)``, this is "
        f"``kappaframe.{func.__name__}(df, ...)``."
    )
    return f"{summary}\n\n{note}\n{_DATA_ENTRY.sub('', body)}"


def _method(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` with the accessor's frame as its ``data``: one call, no work of its own."""
    signature = inspect.signature(func)
    first = next(iter(signature.parameters))
    rest = [p for p in signature.parameters.values() if p.name != "data"]
    self = inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)

    if first == "data":

        def method(self: KappaAccessor[Any], /, *args: Any, **kwargs: Any) -> Any:
            return func(self._frame, *args, **kwargs)

    else:  # ``data`` is a keyword (threshold_sweep takes arrays first)

        def method(self: KappaAccessor[Any], /, *args: Any, **kwargs: Any) -> Any:
            return func(*args, data=self._frame, **kwargs)

    method.__name__ = func.__name__
    method.__qualname__ = f"KappaAccessor.{func.__name__}"
    method.__doc__ = _doc(func)
    method.__signature__ = signature.replace(parameters=[self, *rest])  # type: ignore[attr-defined]
    return method


class KappaAccessor(NotAColumn, Generic[FrameT]):
    """Agreement between raters, as ``df.kappa.<method>(...)``.

    Each method is a one-line call of the function of the same name in ``kappaframe``
    (``df.kappa.pairwise(...)`` is ``kappaframe.pairwise(df, ...)``). Used as a result's
    ``kappa`` column (``res.kappa.mean()``), it says to write ``res["kappa"]``.
    """

    def __init__(self, frame: FrameT) -> None:
        self._frame = frame


for _func in FUNCTIONS:
    setattr(KappaAccessor, _func.__name__, _method(_func))
