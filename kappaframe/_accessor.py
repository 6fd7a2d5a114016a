"""The ``.kappa`` accessor: stateless one-line calls of the public functions.

pandas builds a new accessor object on every attribute access and polars caches one per
frame, so the classes only keep a reference to the frame.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ._api import category_counts as _category_counts
from ._api import compare as _compare
from ._api import concordance as _concordance
from ._api import icc as _icc
from ._api import items as _items
from ._api import overall as _overall
from ._api import pairwise as _api
from ._api import per_label as _per_label
from ._api import raters as _raters
from ._api import sample_size as _sample_size
from ._api import threshold
from ._report import plots
from ._stats.scales import MIN_ITEMS
from ._types import (
    AlphaCentre,
    Alternative,
    Benchmark,
    CategoryMethod,
    CIDist,
    CIMethod,
    Closed,
    CompareMethod,
    ConsensusModel,
    Distance,
    Duplicates,
    LabelMethod,
    Layout,
    Level,
    Method,
    Normalization,
    Scale,
    SizeAlternative,
    SizeMethod,
    Stat,
    Ties,
    Triangle,
    ZFrom,
)

if TYPE_CHECKING:
    import numpy as np
    from matplotlib.axes import Axes
    from numpy.typing import ArrayLike

    from ._api.counts import Counts

__all__ = ["KappaAccessor"]

FrameT = TypeVar("FrameT")
MethodT = TypeVar("MethodT", bound=Callable[..., Any])

# A numpy-style parameter entry for ``data``: its line and the indented lines under it.
_DATA_ENTRY = re.compile(r"^data : [^\n]*\n(?:    [^\n]*\n|\n(?=    ))*", re.MULTILINE)


def _documented(func: Callable[..., Any]) -> Callable[[MethodT], MethodT]:
    """Give an accessor method the whole documentation of the function it calls.

    ``help(df.kappa.pairwise)`` then shows what ``help(kappaframe.pairwise)`` shows, less
    the ``data`` parameter (the frame the accessor sits on), with the call spelled as a
    method. The method keeps its own signature, which ``tests/test_layout.py`` checks
    against the function's.
    """
    doc = inspect.cleandoc(func.__doc__ or "")
    summary, _, body = doc.partition("\n")
    body = _DATA_ENTRY.sub("", body)
    note = (
        f"Called on a frame as ``df.kappa.{func.__name__}(...)``, this is "
        f"``kappaframe.{func.__name__}(df, ...)``."
    )

    def attach(method: MethodT) -> MethodT:
        method.__doc__ = f"{summary}\n\n{note}\n{body}"
        return method

    return attach


class KappaAccessor(Generic[FrameT]):
    """Agreement between raters, as ``df.kappa.<method>(...)``.

    Each method is a one-line call of the function of the same name in ``kappaframe``
    (``df.kappa.pairwise(...)`` is ``kappaframe.pairwise(df, ...)``).
    """

    def __init__(self, frame: FrameT) -> None:
        self._frame = frame

    @_documented(_api.pairwise)
    def pairwise(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        time: Hashable | None = None,
        every: str | None = None,
        period: str | None = None,
        offset: str | None = None,
        closed: Closed = "left",
        weights: str | ArrayLike | None = None,
        categories: Sequence[Any] | None = None,
        scale: Scale = "landis_koch",
        min_items: int | None = MIN_ITEMS,
        ci: float | None = None,
        duplicates: Duplicates = "raise",
        min_overlap: int | None = None,
        stats: str | Sequence[str] | None = None,
        reference: Hashable | None = None,
        ci_method: CIMethod = "analytic",
        n_boot: int | None = None,
        seed: int | np.random.Generator | None = None,
        alternative: Alternative = "two-sided",
        ci_dist: CIDist = "normal",
        population: float | None = None,
        benchmark: Benchmark = "point",
    ) -> FrameT:
        return _api.pairwise(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            time=time,
            every=every,
            period=period,
            offset=offset,
            closed=closed,
            weights=weights,
            categories=categories,
            scale=scale,
            min_items=min_items,
            ci=ci,
            duplicates=duplicates,
            min_overlap=min_overlap,
            stats=stats,
            reference=reference,
            ci_method=ci_method,
            n_boot=n_boot,
            seed=seed,
            alternative=alternative,
            ci_dist=ci_dist,
            population=population,
            benchmark=benchmark,
        )

    @_documented(_api.matrix)
    def matrix(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        time: Hashable | None = None,
        every: str | None = None,
        period: str | None = None,
        offset: str | None = None,
        closed: Closed = "left",
        stat: Stat = "kappa",
        weights: str | ArrayLike | None = None,
        categories: Sequence[Any] | None = None,
        duplicates: Duplicates = "raise",
        min_overlap: int | None = None,
    ) -> FrameT:
        return _api.matrix(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            time=time,
            every=every,
            period=period,
            offset=offset,
            closed=closed,
            stat=stat,
            weights=weights,
            categories=categories,
            duplicates=duplicates,
            min_overlap=min_overlap,
        )

    @_documented(_api.score)
    def score(
        self,
        a: Hashable,
        b: Hashable,
        *,
        weights: str | ArrayLike | None = None,
        categories: Sequence[Any] | None = None,
    ) -> float:
        return _api.score(self._frame, a, b, weights=weights, categories=categories)

    @_documented(_api.confusion)
    def confusion(
        self, a: Hashable, b: Hashable, *, categories: Sequence[Any] | None = None
    ) -> FrameT:
        return _api.confusion(self._frame, a, b, categories=categories)

    @_documented(_overall.overall)
    def overall(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        time: Hashable | None = None,
        every: str | None = None,
        period: str | None = None,
        offset: str | None = None,
        closed: Closed = "left",
        method: Method | Sequence[Method] = "fleiss",
        weights: str | ArrayLike | None = None,
        level: Level = "nominal",
        categories: Sequence[Any] | None = None,
        scale: Scale = "landis_koch",
        min_items: int | None = MIN_ITEMS,
        ci: float | None = None,
        duplicates: Duplicates = "raise",
        layout: Layout = "ratings",
        alternative: Alternative = "two-sided",
        ci_dist: CIDist = "normal",
        population: float | None = None,
        benchmark: Benchmark = "point",
        agreement_weights: ArrayLike | None = None,
        ddof: int = 1,
        alpha_centre: AlphaCentre = "p_a_prime",
        z_from: ZFrom = "se0",
        distance: Distance | None = None,
        multi_sep: str | None = None,
        ci_method: CIMethod = "analytic",
        n_boot: int | None = None,
        seed: int | np.random.Generator | None = None,
    ) -> FrameT:
        return _overall.overall(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            time=time,
            every=every,
            period=period,
            offset=offset,
            closed=closed,
            method=method,
            weights=weights,
            level=level,
            categories=categories,
            scale=scale,
            min_items=min_items,
            ci=ci,
            duplicates=duplicates,
            layout=layout,
            alternative=alternative,
            ci_dist=ci_dist,
            population=population,
            benchmark=benchmark,
            agreement_weights=agreement_weights,
            ddof=ddof,
            alpha_centre=alpha_centre,
            z_from=z_from,
            distance=distance,
            multi_sep=multi_sep,
            ci_method=ci_method,
            n_boot=n_boot,
            seed=seed,
        )

    @_documented(_category_counts.category_counts)
    def category_counts(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        categories: Sequence[Any] | None = None,
        duplicates: Duplicates = "raise",
    ) -> FrameT:
        return _category_counts.category_counts(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            categories=categories,
            duplicates=duplicates,
        )

    @_documented(_raters.raters)
    def raters(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        time: Hashable | None = None,
        every: str | None = None,
        period: str | None = None,
        offset: str | None = None,
        closed: Closed = "left",
        weights: str | ArrayLike | None = None,
        categories: Sequence[Any] | None = None,
        duplicates: Duplicates = "raise",
    ) -> FrameT:
        return _raters.raters(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            time=time,
            every=every,
            period=period,
            offset=offset,
            closed=closed,
            weights=weights,
            categories=categories,
            duplicates=duplicates,
        )

    @_documented(_compare.compare)
    def compare(
        self,
        first: Any,
        second: Any = None,
        /,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        weights: str | ArrayLike | None = None,
        categories: Sequence[Any] | None = None,
        duplicates: Duplicates = "raise",
        method: CompareMethod | None = None,
        n_boot: int | None = None,
        seed: int | np.random.Generator | None = None,
        ci: float = 0.95,
    ) -> Any:
        return _compare.compare(
            self._frame,
            first,
            second,
            item=item,
            rater=rater,
            label=label,
            by=by,
            weights=weights,
            categories=categories,
            duplicates=duplicates,
            method=method,
            n_boot=n_boot,
            seed=seed,
            ci=ci,
        )

    @_documented(_items.items)
    def items(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        time: Hashable | None = None,
        every: str | None = None,
        period: str | None = None,
        offset: str | None = None,
        closed: Closed = "left",
        categories: Sequence[Any] | None = None,
        duplicates: Duplicates = "raise",
        reference: Hashable | None = None,
        consensus: ConsensusModel = "majority",
        ties: Ties = "missing",
        seed: int | np.random.Generator | None = None,
        max_iter: int = 100,
        tol: float = 1e-7,
        disagreements: bool = False,
        min_p: float | None = None,
        max_support: float | None = None,
        labels: bool | None = None,
    ) -> FrameT:
        return _items.items(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            time=time,
            every=every,
            period=period,
            offset=offset,
            closed=closed,
            categories=categories,
            duplicates=duplicates,
            reference=reference,
            consensus=consensus,
            ties=ties,
            seed=seed,
            max_iter=max_iter,
            tol=tol,
            disagreements=disagreements,
            min_p=min_p,
            max_support=max_support,
            labels=labels,
        )

    @_documented(_items.rater_confusion)
    def rater_confusion(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        categories: Sequence[Any] | None = None,
        duplicates: Duplicates = "raise",
        max_iter: int = 100,
        tol: float = 1e-7,
    ) -> FrameT:
        return _items.rater_confusion(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            categories=categories,
            duplicates=duplicates,
            max_iter=max_iter,
            tol=tol,
        )

    @_documented(_sample_size.sample_size)
    def sample_size(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        categories: Sequence[Any] | None = None,
        duplicates: Duplicates = "raise",
        kappa0: float | None = None,
        kappa1: float | None = None,
        props: Sequence[float] | None = None,
        n_raters: int | None = None,
        alpha: float = 0.05,
        power: float = 0.8,
        width: float | None = None,
        lower: float | None = None,
        upper: float | None = None,
        n_items: int | None = None,
        alternative: SizeAlternative = "greater",
        method: SizeMethod = "auto",
        seed: int = 0,
    ) -> Any:
        return _sample_size.sample_size(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            categories=categories,
            duplicates=duplicates,
            kappa0=kappa0,
            kappa1=kappa1,
            props=props,
            n_raters=n_raters,
            alpha=alpha,
            power=power,
            width=width,
            lower=lower,
            upper=upper,
            n_items=n_items,
            alternative=alternative,
            method=method,
            seed=seed,
        )

    @_documented(_icc.icc)
    def icc(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        value: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        ci: float | None = 0.95,
        duplicates: Duplicates = "raise",
    ) -> FrameT:
        return _icc.icc(
            self._frame,
            raters,
            item=item,
            rater=rater,
            value=value,
            by=by,
            ci=ci,
            duplicates=duplicates,
        )

    @_documented(_icc.kendall_w)
    def kendall_w(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        value: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        correct: bool = True,
        duplicates: Duplicates = "raise",
    ) -> FrameT:
        return _icc.kendall_w(
            self._frame,
            raters,
            item=item,
            rater=rater,
            value=value,
            by=by,
            correct=correct,
            duplicates=duplicates,
        )

    @_documented(_overall.per_category)
    def per_category(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        method: CategoryMethod = "fleiss",
        categories: Sequence[Any] | None = None,
        scale: Scale = "landis_koch",
        min_items: int | None = MIN_ITEMS,
        ci: float | None = None,
        duplicates: Duplicates = "raise",
    ) -> FrameT:
        return _overall.per_category(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            method=method,
            categories=categories,
            scale=scale,
            min_items=min_items,
            ci=ci,
            duplicates=duplicates,
        )

    @_documented(_per_label.per_label)
    def per_label(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        method: LabelMethod | Sequence[LabelMethod] = "fleiss",
        multi_sep: str | None = None,
        categories: Sequence[Any] | None = None,
        scale: Scale = "landis_koch",
        min_items: int | None = MIN_ITEMS,
        ci: float | None = None,
        duplicates: Duplicates = "raise",
    ) -> FrameT:
        return _per_label.per_label(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            method=method,
            multi_sep=multi_sep,
            categories=categories,
            scale=scale,
            min_items=min_items,
            ci=ci,
            duplicates=duplicates,
        )

    @_documented(_api.counts)
    def counts(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        categories: Sequence[Any] | None = None,
        duplicates: Duplicates = "raise",
    ) -> Counts:
        return _api.counts(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            categories=categories,
            duplicates=duplicates,
        )

    @_documented(plots.heatmap)
    def heatmap(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        stat: Stat = "kappa",
        weights: str | ArrayLike | None = None,
        categories: Sequence[Any] | None = None,
        duplicates: Duplicates = "raise",
        fail_under: float | None = None,
        annotate: bool = True,
        show_n: bool = False,
        triangle: Triangle | None = None,
        scale: Scale | None = "landis_koch",
        ncols: int | None = None,
        ax: Axes | None = None,
    ) -> Any:
        return plots.heatmap(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            stat=stat,
            weights=weights,
            categories=categories,
            duplicates=duplicates,
            fail_under=fail_under,
            annotate=annotate,
            show_n=show_n,
            triangle=triangle,
            scale=scale,
            ncols=ncols,
            ax=ax,
        )

    @_documented(plots.confusion_plot)
    def confusion_plot(
        self,
        a: Hashable,
        b: Hashable,
        *,
        categories: Sequence[Any] | None = None,
        weights: str | ArrayLike | None = None,
        normalize: Normalization | bool | None = None,
        ax: Axes | None = None,
    ) -> Any:
        return plots.confusion_plot(
            self._frame,
            a,
            b,
            categories=categories,
            weights=weights,
            normalize=normalize,
            ax=ax,
        )

    @_documented(plots.trend_plot)
    def trend_plot(
        self,
        *,
        value: str | None = None,
        scale: Scale | None = "landis_koch",
        title: str | None = None,
        ax: Axes | None = None,
    ) -> Any:
        return plots.trend_plot(self._frame, value=value, scale=scale, title=title, ax=ax)

    @_documented(threshold.threshold_sweep)
    def threshold_sweep(
        self,
        y_true: Hashable,
        scores: Hashable,
        thresholds: ArrayLike | None = None,
        *,
        by: Hashable | Sequence[Hashable] | None = None,
        pos_label: Any = None,
    ) -> FrameT:
        return threshold.threshold_sweep(
            y_true, scores, thresholds, data=self._frame, by=by, pos_label=pos_label
        )

    @_documented(_concordance.ccc)
    def ccc(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        value: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        reference: Hashable | None = None,
        ci: float | None = 0.95,
        duplicates: Duplicates = "raise",
        matrix: bool = False,
    ) -> FrameT:
        return _concordance.ccc(
            self._frame,
            raters,
            item=item,
            rater=rater,
            value=value,
            label=label,
            by=by,
            reference=reference,
            ci=ci,
            duplicates=duplicates,
            matrix=matrix,
        )

    @_documented(_concordance.bland_altman)
    def bland_altman(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        value: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        reference: Hashable | None = None,
        agreement: float = 1.96,
        ci: float | None = 0.95,
        duplicates: Duplicates = "raise",
    ) -> FrameT:
        return _concordance.bland_altman(
            self._frame,
            raters,
            item=item,
            rater=rater,
            value=value,
            label=label,
            by=by,
            reference=reference,
            agreement=agreement,
            ci=ci,
            duplicates=duplicates,
        )

    @_documented(plots.bland_altman_plot)
    def bland_altman_plot(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        value: Hashable | None = None,
        label: Hashable | None = None,
        agreement: float = 1.96,
        ci: float | None = 0.95,
        duplicates: Duplicates = "raise",
        ax: Axes | None = None,
    ) -> Any:
        return plots.bland_altman_plot(
            self._frame,
            raters,
            item=item,
            rater=rater,
            value=value,
            label=label,
            agreement=agreement,
            ci=ci,
            duplicates=duplicates,
            ax=ax,
        )
