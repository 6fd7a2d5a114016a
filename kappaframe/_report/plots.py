"""Pictures: the rater x rater heatmap (one panel per group) and a pair's confusion matrix.

matplotlib is an optional extra (``pip install "kappaframe[plot]"``), imported only when
a picture is drawn. Figures are built with :class:`matplotlib.figure.Figure`, not pyplot,
so drawing touches no global state (safe in scripts, servers and threads); in a notebook
the returned figure displays as the cell's value, and ``fig.savefig(path)`` writes it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar, cast

import numpy as np

from .._api.assemble import square_values
from .._api.options import check_stat
from .._api.plan import adapt, prepare_input
from .._errors import KappaFrameError
from .._schema import Column, Table
from .._stats.agreement import agreement, weight_matrix
from .._types import Duplicates, Stat
from .display import register_figure_formatter

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from numpy.typing import ArrayLike

__all__ = ["confusion_plot", "group_squares", "heatmap", "matrix_figure", "require_matplotlib"]

P = ParamSpec("P")
R = TypeVar("R")

_CAPTIONS = {
    "kappa": "Cohen's kappa",
    "p_o": "observed agreement",
    "p_e": "chance agreement",
    "n": "items rated by both",
}


def require_matplotlib() -> Any:
    """Import matplotlib, or say which extra to install."""
    try:
        import matplotlib
    except ModuleNotFoundError as err:
        raise ModuleNotFoundError(
            'kappaframe pictures need matplotlib: pip install "kappaframe[plot]"',
            name="matplotlib",
        ) from err
    return matplotlib


def _plain_text(draw: Callable[P, R]) -> Callable[P, R]:
    """Draw names as written: ``$x$`` in a rater name, group key or label is not math."""

    @functools.wraps(draw)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        matplotlib = require_matplotlib()
        with matplotlib.rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)

    return wrapper


def _new_figure(width: float, height: float) -> Figure:
    require_matplotlib()
    from matplotlib.figure import Figure

    register_figure_formatter()
    return Figure(figsize=(width, height), layout="constrained")


def _group_titles(prep: Any) -> list[str]:
    """``"project = alpha"`` for each group (``""`` when not grouped)."""
    if not prep.by:
        return [""]
    first = prep.groups.first_row
    table = Table([Column(b, "key", first, source=b) for b in prep.by])
    native = prep.frame.render(table)
    if hasattr(native, "collect"):
        native = native.collect()
    if hasattr(native, "itertuples"):
        rows = list(native.itertuples(index=False, name=None))
    else:
        rows = native.rows()
    return [", ".join(f"{b} = {v}" for b, v in zip(prep.by, row, strict=True)) for row in rows]


@_plain_text
def heatmap(
    data: Any,
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
    ax: Axes | None = None,
) -> Figure:
    """Heatmap of the rater x rater matrix, annotated, one panel per group.

    The numbers are those of :func:`kappaframe.matrix` (same arguments). Kappa uses a
    diverging colour scale centred on 0 (red below, blue above, fixed to [-1, 1] so
    panels and figures compare); ``p_o`` and ``p_e`` a sequential scale over [0, 1];
    ``n`` a sequential scale from 0 to its maximum. Undefined cells are grey.

    Parameters
    ----------
    data, raters, item, rater, label, by, stat, weights, categories, duplicates
        As in :func:`kappaframe.matrix`.
    annotate : bool, default True
        Write each value in its cell (two decimals; counts as integers).
    ncols : int, default 3
        Panels per row when grouped.
    ax : matplotlib Axes, optional
        Draw into this Axes (ungrouped data only); default a new figure.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (``ax.figure`` when ``ax`` is given), with one colour bar.

    Raises
    ------
    ModuleNotFoundError
        matplotlib is not installed (``pip install "kappaframe[plot]"``).

    Examples
    --------
    >>> import kappaframe as kf
    >>> team = kf.datasets.labeling_team(seed=0)
    >>> fig = kf.heatmap(team, list(kf.datasets.TEAM), by="project")
    >>> [a.get_title() for a in fig.axes[:3]]
    ['project = alpha', 'project = beta', 'project = gamma']
    """
    if not isinstance(ncols, int) or ncols < 1:
        raise KappaFrameError(f"ncols must be a positive integer; got {ncols!r}.")
    require_matplotlib()
    squares, names, titles = group_squares(
        data,
        raters,
        item=item,
        rater=rater,
        label=label,
        by=by,
        stat=stat,
        weights=weights,
        categories=categories,
        duplicates=duplicates,
    )
    n_groups = squares.shape[0]
    if n_groups == 0:
        raise KappaFrameError("no groups to draw: the frame has no rows.")
    size = _panel_size(names)
    if ax is not None:
        if n_groups > 1:
            raise KappaFrameError(
                f"ax= draws one panel, but there are {n_groups} groups; drop ax= to get one "
                "panel per group."
            )
        fig, axes = ax.figure, [ax]
    else:
        cols = min(ncols, n_groups)
        rows = math.ceil(n_groups / cols)
        fig = _new_figure(size * cols + 1.0, size * rows)
        grid = fig.subplots(rows, cols, squeeze=False)
        axes = list(grid.ravel())
        for extra in axes[n_groups:]:
            extra.set_visible(False)
        axes = axes[:n_groups]

    cmap, norm = _scale(stat, squares)
    images = []
    for g, panel in enumerate(axes):
        images.append(_draw_square(panel, squares[g], names, cmap, norm, stat, annotate))
        panel.set_title(titles[g])
    fig.colorbar(images[0], ax=axes, shrink=0.8, label=_CAPTIONS[stat])
    return cast("Figure", fig)


def group_squares(
    data: Any,
    raters: Any = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    by: Any = None,
    stat: str = "kappa",
    weights: Any = None,
    categories: Sequence[Any] | None = None,
    duplicates: Duplicates = "raise",
) -> tuple[np.ndarray, list[str], list[str]]:
    """Compute :func:`kappaframe.matrix` as arrays: (groups, R, R), rater names, titles."""
    check_stat(stat)
    prep = prepare_input(
        adapt(data),
        raters,
        by=by,
        item=item,
        rater=rater,
        label=label,
        categories=categories,
        duplicates=duplicates,
        from_counts=True,
    )
    squares = square_values(prep, stat, weights)
    return squares, [str(r) for r in prep.raters], _group_titles(prep)


@_plain_text
def matrix_figure(
    square: np.ndarray, names: list[str], title: str = "", stat: str = "kappa"
) -> Figure:
    """One annotated rater x rater panel with its colour bar (the report draws one per group)."""
    size = _panel_size(names)
    fig = _new_figure(size + 1.0, size)
    ax = fig.subplots()
    cmap, norm = _scale(stat, square[None])
    image = _draw_square(ax, square, names, cmap, norm, stat, True)
    ax.set_title(title)
    fig.colorbar(image, ax=ax, shrink=0.8, label=_CAPTIONS[stat])
    return fig


def _panel_size(names: list[str]) -> float:
    """Side of one rater x rater panel, in inches."""
    return max(2.6, 0.55 * len(names) + 1.4)


def _set_ticks(ax: Axes, labels: list[str]) -> None:
    """Label both axes of a square panel (x labels slanted) and hide the tick marks."""
    ticks = np.arange(len(labels))
    ax.set_xticks(ticks, labels=labels, rotation=45, ha="right", rotation_mode="anchor")
    ax.set_yticks(ticks, labels=labels)
    ax.tick_params(length=0)


def _write(ax: Axes, x: int, y: int, text: str, cmap: Any, norm: Any, value: float) -> None:
    """Write ``text`` in a cell, white on dark colours and near-black on light ones."""
    r, g, b, _ = cmap(norm(value))
    dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5
    ax.text(x, y, text, ha="center", va="center", fontsize=9, color="white" if dark else "#111111")


def _scale(stat: str, squares: np.ndarray) -> tuple[Any, Any]:
    import matplotlib as mpl
    from matplotlib.colors import Normalize, TwoSlopeNorm

    if stat == "kappa":
        cmap = mpl.colormaps["RdBu"].with_extremes(bad="#d9d9d9")
        return cmap, TwoSlopeNorm(vcenter=0.0, vmin=-1.0, vmax=1.0)
    cmap = mpl.colormaps["Blues"].with_extremes(bad="#d9d9d9")
    if stat == "n":
        top = float(np.nanmax(squares)) if squares.size else 1.0
        return cmap, Normalize(vmin=0.0, vmax=max(top, 1.0))
    return cmap, Normalize(vmin=0.0, vmax=1.0)


def _draw_square(
    ax: Axes,
    values: np.ndarray,
    names: list[str],
    cmap: Any,
    norm: Any,
    stat: str,
    annotate: bool,
) -> Any:
    masked = np.ma.masked_invalid(values.astype(float))
    image = ax.imshow(masked, cmap=cmap, norm=norm)
    _set_ticks(ax, names)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if annotate:
        for i in range(values.shape[0]):
            for j in range(values.shape[1]):
                _annotate(ax, j, i, values[i, j], cmap, norm, stat)
    return image


def _annotate(ax: Axes, x: int, y: int, value: float, cmap: Any, norm: Any, stat: str) -> None:
    if not np.isfinite(value):
        ax.text(x, y, "n/a", ha="center", va="center", fontsize=8, color="#444444")
        return
    _write(ax, x, y, f"{int(value)}" if stat == "n" else f"{value:.2f}", cmap, norm, value)


@_plain_text
def confusion_plot(
    data: Any,
    a: Hashable,
    b: Hashable,
    *,
    categories: Sequence[Any] | None = None,
    normalize: bool = False,
    ax: Axes | None = None,
) -> Figure:
    """Draw the K x K confusion matrix of two rater columns, annotated.

    The counts are those of :func:`kappaframe.confusion` (rows ``a``, columns ``b``;
    items either rater left missing are not counted); the title gives ``n`` and kappa.

    Parameters
    ----------
    data : pandas.DataFrame, polars.DataFrame or polars.LazyFrame
    a, b : column name
        The two rater columns (rows, columns).
    categories : sequence, optional
        Category order, as in :func:`kappaframe.confusion`.
    normalize : bool, default False
        Colour and annotate shares of all counted items instead of counts.
    ax : matplotlib Axes, optional
        Draw into this Axes; default a new figure.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import kappaframe as kf
    >>> ms = kf.datasets.multiple_sclerosis()
    >>> fig = kf.confusion_plot(ms, "new_orleans", "winnipeg")
    >>> fig.axes[0].get_title()
    'new_orleans vs winnipeg: n = 218, kappa = 0.26'
    """
    require_matplotlib()
    prep = prepare_input(adapt(data), [a, b], categories=categories, from_counts=True)
    k = len(prep.categories)
    table = np.asarray(prep.tables(np.array([[0, 1]]), full=True))[0, 0]
    stats = agreement(table, weight_matrix(None, prep.categories))
    n = int(stats["n"])
    values = table / n if normalize and n else table.astype(float)
    labels = [str(c) for c in prep.categories]
    if ax is None:
        size = max(3.0, 0.6 * k + 1.8)
        fig = _new_figure(size + 0.8, size)
        ax = fig.subplots()
    else:
        fig = cast("Figure", ax.figure)
    import matplotlib as mpl
    from matplotlib.colors import Normalize

    cmap = mpl.colormaps["Blues"]
    top = float(values.max()) if values.size else 1.0
    norm = Normalize(vmin=0.0, vmax=top if top > 0 else 1.0)
    image = ax.imshow(values, cmap=cmap, norm=norm)
    _set_ticks(ax, labels)
    ax.set_xlabel(str(b))
    ax.set_ylabel(str(a))
    for i in range(k):
        for j in range(k):
            text = f"{values[i, j]:.2f}" if normalize else f"{int(table[i, j])}"
            _write(ax, j, i, text, cmap, norm, values[i, j])
    kappa = float(stats["kappa"])
    shown = "undefined" if math.isnan(kappa) else f"{kappa:.2f}"
    ax.set_title(f"{a} vs {b}: n = {n}, kappa = {shown}")
    fig.colorbar(image, ax=ax, shrink=0.8, label="share of items" if normalize else "items")
    return fig
