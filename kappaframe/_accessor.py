"""The ``.kappa`` accessor: stateless one-line calls of the public functions.

pandas builds a new accessor object on every attribute access and polars caches one per
frame, so the classes only keep a reference to the frame.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ._api import many, threshold
from ._api import pairwise as _api
from ._report import plots
from ._types import (
    CategoryMethod,
    CIMethod,
    Duplicates,
    Level,
    Method,
    Scale,
    Stat,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from ._api.counts import Counts

__all__ = ["KappaAccessor"]

FrameT = TypeVar("FrameT")


class KappaAccessor(Generic[FrameT]):
    """Agreement between raters, as ``df.kappa.<method>(...)``.

    Each method is a one-line call of the function of the same name in :mod:`kappaframe`
    (``df.kappa.pairwise(...)`` is ``kappaframe.pairwise(df, ...)``).
    """

    def __init__(self, frame: FrameT) -> None:
        self._frame = frame

    def pairwise(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        weights: str | ArrayLike | None = None,
        categories: Sequence[Any] | None = None,
        scale: Scale = "landis_koch",
        ci: float | None = None,
        duplicates: Duplicates = "raise",
        min_overlap: int | None = None,
        stats: str | Sequence[str] | None = None,
        reference: Hashable | None = None,
        ci_method: CIMethod = "analytic",
        n_boot: int | None = None,
        seed: Any = None,
    ) -> FrameT:
        """Cohen's kappa of every pair of raters (per group); see :func:`kappaframe.pairwise`."""
        return _api.pairwise(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            weights=weights,
            categories=categories,
            scale=scale,
            ci=ci,
            duplicates=duplicates,
            min_overlap=min_overlap,
            stats=stats,
            reference=reference,
            ci_method=ci_method,
            n_boot=n_boot,
            seed=seed,
        )

    def matrix(
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
        min_overlap: int | None = None,
    ) -> FrameT:
        """A rater x rater frame of one statistic; see :func:`kappaframe.matrix`."""
        return _api.matrix(
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
            min_overlap=min_overlap,
        )

    def score(
        self,
        a: Hashable,
        b: Hashable,
        *,
        weights: str | ArrayLike | None = None,
        categories: Sequence[Any] | None = None,
    ) -> float:
        """Cohen's kappa of two columns; see :func:`kappaframe.score`."""
        return _api.score(self._frame, a, b, weights=weights, categories=categories)

    def confusion(
        self, a: Hashable, b: Hashable, *, categories: Sequence[Any] | None = None
    ) -> FrameT:
        """The K x K count table of two columns; see :func:`kappaframe.confusion`."""
        return _api.confusion(self._frame, a, b, categories=categories)

    def overall(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        method: Method | Sequence[Method] = "fleiss",
        weights: str | ArrayLike | None = None,
        level: Level = "nominal",
        categories: Sequence[Any] | None = None,
        scale: Scale = "landis_koch",
        ci: float | None = None,
        duplicates: Duplicates = "raise",
    ) -> FrameT:
        """One coefficient over all raters, per group; see :func:`kappaframe.overall`."""
        return many.overall(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            method=method,
            weights=weights,
            level=level,
            categories=categories,
            scale=scale,
            ci=ci,
            duplicates=duplicates,
        )

    def raters(
        self,
        raters: Hashable | Sequence[Hashable] | None = None,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        weights: str | ArrayLike | None = None,
        categories: Sequence[Any] | None = None,
        duplicates: Duplicates = "raise",
    ) -> FrameT:
        """One row per rater: agreement and label mix; see :func:`kappaframe.raters`."""
        return many.raters(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            weights=weights,
            categories=categories,
            duplicates=duplicates,
        )

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
        ci: float | None = None,
        duplicates: Duplicates = "raise",
    ) -> FrameT:
        """Kappa of each category against the rest; see :func:`kappaframe.per_category`."""
        return many.per_category(
            self._frame,
            raters,
            item=item,
            rater=rater,
            label=label,
            by=by,
            method=method,
            categories=categories,
            scale=scale,
            ci=ci,
            duplicates=duplicates,
        )

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
        """Pair counts that add up across parts; see :func:`kappaframe.counts`."""
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
        annotate: bool = True,
        ncols: int = 3,
        ax: Any = None,
    ) -> Any:
        """Draw the rater x rater heatmap, one panel per group; see :func:`kappaframe.heatmap`."""
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
            annotate=annotate,
            ncols=ncols,
            ax=ax,
        )

    def confusion_plot(
        self,
        a: Hashable,
        b: Hashable,
        *,
        categories: Sequence[Any] | None = None,
        normalize: bool = False,
        ax: Any = None,
    ) -> Any:
        """Draw a pair's confusion matrix; see :func:`kappaframe.confusion_plot`."""
        return plots.confusion_plot(
            self._frame, a, b, categories=categories, normalize=normalize, ax=ax
        )

    def threshold_sweep(
        self,
        truth: Hashable,
        score: Hashable,
        *,
        by: Hashable | Sequence[Hashable] | None = None,
        thresholds: ArrayLike | None = None,
        pos_label: Any = None,
    ) -> FrameT:
        """Sweep thresholds of a score column; see :func:`kappaframe.threshold_sweep`."""
        return threshold.threshold_sweep(
            truth, score, thresholds, data=self._frame, by=by, pos_label=pos_label
        )
