"""Pictures: the rater x rater heatmap (one panel per group) and a pair's confusion matrix.

matplotlib is an optional extra (``pip install "kappaframe[plot]"``), imported only when
a picture is drawn. Figures are built with ``matplotlib.figure.Figure``, not pyplot,
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
from .._errors import KappaFrameError, KappaFrameTypeError, bad_option
from .._schema import Column, Table
from .._stats.agreement import agreement, weight_matrix
from .._types import Duplicates, Normalization, Stat
from .display import register_figure_formatter

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from numpy.typing import ArrayLike

__all__ = [
    "Normalization",
    "confusion_plot",
    "group_squares",
    "heatmap",
    "normalized",
    "require_matplotlib",
    "squares_figure",
    "stat_label",
]

#: ``confusion_plot(normalize=...)``: rows sum to 1, columns sum to 1, or all cells do.

P = ParamSpec("P")
R = TypeVar("R")

_CAPTIONS = {
    "kappa": "kappa",
    "p_o": "observed agreement",
    "p_e": "chance agreement",
    "n": "items rated by both",
}

#: Colours: undefined cells, the rater-with-themself diagonal, kappa below 0 (the colour
#: bar's lower arrow), and the outline of cells below ``fail_under``.
_UNDEFINED = "#d9d9d9"
_DIAGONAL = "#f4f4f4"
_NEGATIVE = "#2d004b"
_BAR = "#2b8cff"


def stat_label(stat: str = "kappa", weights: Any = None) -> str:
    """Name a statistic with its weighting, as a colour bar or a heading says it.

    Parameters
    ----------
    stat : {"kappa", "p_o", "p_e", "n"}, default "kappa"
    weights : None, str or array
        As in ``kappaframe.pairwise``.

    Returns
    -------
    str
        ``"Cohen's kappa (unweighted)"``, ``"linear-weighted kappa"``, ``"weighted kappa
        (custom weights)"``, ``"observed agreement (linear-weighted)"``, ...

    Examples
    --------
    >>> stat_label("kappa", "linear")
    'linear-weighted kappa'
    """
    if stat == "n":
        return _CAPTIONS["n"]
    if weights is None:
        how = "unweighted"
    elif isinstance(weights, str):
        how = f"{weights}-weighted"
    else:
        how = "custom weights"
    if stat == "kappa":
        if weights is None:
            return "Cohen's kappa (unweighted)"
        return f"{how} kappa" if isinstance(weights, str) else "weighted kappa (custom weights)"
    return f"{_CAPTIONS[stat]} ({how})"


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
    fail_under: float | None = None,
    annotate: bool = True,
    ncols: int = 3,
    ax: Axes | None = None,
) -> Figure:
    """Heatmap of the rater x rater matrix, annotated, one panel per group.

    The numbers are those of ``kappaframe.matrix`` (same arguments). The picture is
    drawn to find low agreement: kappa and ``p_o`` use one sequential scale over
    [0, 1] on which low values are saturated dark red and high values pale; kappa
    below 0 is clipped to the dark purple of the colour bar's lower arrow (its cell
    still shows the number). ``p_e`` runs white to blue over [0, 1], ``n`` white to
    blue up to its maximum. The scale is fixed, so panels and figures compare.
    The diagonal (each rater with themself: always 1) is masked: hatched, not
    coloured, no number; for ``stat="n"`` it shows the items each rater labelled.
    Undefined cells are grey and say "n/a". All panels share one colour bar, labelled
    with the statistic and its weighting ("linear-weighted kappa").

    Parameters
    ----------
    data, raters, item, rater, label, by, stat, weights, categories, duplicates
        As in ``kappaframe.matrix``.
    fail_under : float, optional
        A bar (the command line's ``--fail-under``): cells whose value is below it are
        outlined, and the colour bar carries a line at it.
    annotate : bool, default True
        Write each value in its cell (two decimals; counts as integers).
    ncols : int, default 3
        Panels per row when grouped.
    ax : matplotlib Axes, optional
        Draw into this Axes (ungrouped data only); default a new figure.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (``ax.figure`` when ``ax`` is given), with one colour bar. Each panel
        is titled by its group, or "all items" when not grouped.

    Raises
    ------
    ModuleNotFoundError
        matplotlib is not installed (``pip install "kappaframe[plot]"``).

    See Also
    --------
    matrix : the numbers behind the picture, as a frame.
    confusion_plot : the table of one pair.

    Examples
    --------
    >>> import kappaframe as kf
    >>> team = kf.datasets.labeling_team(seed=0)
    >>> fig = kf.heatmap(team, list(kf.datasets.TEAM), by="project")
    >>> [a.get_title() for a in fig.axes[:3]]
    ['project = alpha', 'project = beta', 'project = gamma']
    >>> fig.axes[-1].get_ylabel()
    "Cohen's kappa (unweighted)"
    """
    if not isinstance(ncols, int) or ncols < 1:
        raise KappaFrameError(f"ncols must be a positive integer; got {ncols!r}.")
    _check_bar(fail_under)
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
    check_axes(ax)
    if ax is not None and n_groups > 1:
        raise KappaFrameError(
            f"ax= draws one panel, but there are {n_groups} groups; drop ax= to get one "
            "panel per group."
        )
    return squares_figure(
        squares,
        names,
        titles,
        stat=stat,
        weights=weights,
        fail_under=fail_under,
        annotate=annotate,
        ncols=ncols,
        ax=ax,
    )


def _check_bar(fail_under: Any) -> None:
    if fail_under is None:
        return
    if isinstance(fail_under, bool) or not isinstance(fail_under, (int, float, np.number)):
        raise KappaFrameError(f"fail_under must be a number or None; got {fail_under!r}.")
    if not math.isfinite(float(fail_under)):
        raise KappaFrameError(f"fail_under must be a finite number; got {fail_under!r}.")


@_plain_text
def squares_figure(
    squares: np.ndarray,
    names: list[str],
    titles: list[str],
    *,
    stat: str = "kappa",
    weights: Any = None,
    fail_under: float | None = None,
    annotate: bool = True,
    ncols: int = 3,
    ax: Axes | None = None,
) -> Figure:
    """Draw (groups, R, R) values as annotated panels sharing one colour bar.

    What ``heatmap`` draws from arrays (those of ``group_squares``); the HTML
    report draws its groups with it. An empty title becomes "all items".
    """
    n_groups = squares.shape[0]
    size = _panel_size(names)
    if ax is not None:
        fig, axes = ax.figure, [ax]
    else:
        cols = max(1, min(ncols, n_groups))
        rows = max(1, math.ceil(n_groups / cols))
        fig = _new_figure(size * cols + 1.2, size * rows + 0.3)
        grid = fig.subplots(rows, cols, squeeze=False)
        axes = list(grid.ravel())
        for extra in axes[n_groups:]:
            extra.set_visible(False)
        axes = axes[:n_groups]

    cmap, norm = _scale(stat, squares)
    images = []
    for g, panel in enumerate(axes):
        images.append(
            _draw_square(panel, squares[g], names, cmap, norm, stat, annotate, fail_under)
        )
        panel.set_title(titles[g] or "all items")
    extend = "min" if stat == "kappa" else "neither"
    caption = stat_label(stat, weights)
    if fail_under is not None:
        caption += f"\noutlined: below {fail_under:g}"
    bar = fig.colorbar(images[0], ax=axes, shrink=0.8, label=caption, extend=extend)
    if fail_under is not None and norm.vmin <= fail_under <= norm.vmax:
        bar.ax.axhline(fail_under, color=_BAR, linewidth=2.5)
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
    """Compute ``kappaframe.matrix`` as arrays: (groups, R, R), rater names, titles."""
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


def _panel_size(names: list[str]) -> float:
    """Side of one rater x rater panel, in inches."""
    return max(2.6, 0.55 * len(names) + 1.4)


def check_axes(ax: Any) -> None:
    """``None`` or one matplotlib Axes (not an array of them, as ``plt.subplots`` returns)."""
    if ax is None:
        return
    from matplotlib.axes import Axes as AxesType

    if not isinstance(ax, AxesType):
        hint = (
            " (plt.subplots(...) returned several: pass one, e.g. axes[0])"
            if hasattr(ax, "__len__") and not isinstance(ax, str)
            else ""
        )
        raise KappaFrameTypeError(
            f"ax must be one matplotlib Axes; got {type(ax).__name__}{hint}.", option="ax"
        )


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
    """Colour map and norm: low agreement dark red, high pale; below 0 dark purple."""
    import matplotlib as mpl
    from matplotlib.colors import Normalize

    if stat in ("kappa", "p_o"):
        cmap = mpl.colormaps["Reds_r"].with_extremes(bad=_UNDEFINED, under=_NEGATIVE)
        return cmap, Normalize(vmin=0.0, vmax=1.0)
    cmap = mpl.colormaps["Blues"].with_extremes(bad=_UNDEFINED)
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
    fail_under: float | None = None,
) -> Any:
    from matplotlib.patches import Rectangle

    values = values.astype(float)
    size = values.shape[0]
    diagonal = np.eye(size, dtype=bool) if stat != "n" else np.zeros((size, size), dtype=bool)
    masked = np.ma.masked_array(values, mask=~np.isfinite(values) | diagonal)
    image = ax.imshow(masked, cmap=cmap, norm=norm)
    _set_ticks(ax, names)
    for spine in ax.spines.values():
        spine.set_visible(False)
    for d in np.flatnonzero(diagonal.diagonal()):
        ax.add_patch(
            Rectangle(
                (d - 0.5, d - 0.5),
                1,
                1,
                facecolor=_DIAGONAL,
                edgecolor="#c8c8c8",
                hatch="////",
                linewidth=0,
                label="diagonal",
            )
        )
    if fail_under is not None:
        below = np.isfinite(values) & ~diagonal & (values < fail_under)
        for row, col in zip(*np.nonzero(below), strict=True):
            ax.add_patch(
                Rectangle(
                    (col - 0.45, row - 0.45),
                    0.9,
                    0.9,
                    fill=False,
                    edgecolor=_BAR,
                    linewidth=2.2,
                    label="below fail_under",
                )
            )
    if annotate:
        for i in range(size):
            for j in range(size):
                if not diagonal[i, j]:
                    _annotate(ax, j, i, values[i, j], cmap, norm, stat)
    return image


def _annotate(ax: Axes, x: int, y: int, value: float, cmap: Any, norm: Any, stat: str) -> None:
    if not np.isfinite(value):
        ax.text(x, y, "n/a", ha="center", va="center", fontsize=8, color="#444444")
        return
    _write(ax, x, y, f"{int(value)}" if stat == "n" else f"{value:.2f}", cmap, norm, value)


_NORMALIZE_CHOICES: tuple[Any, ...] = ("true", "pred", "all", None, True, False)
_SHARE_CAPTIONS = {
    "true": "share of the row (each row sums to 1)",
    "pred": "share of the column (each column sums to 1)",
    "all": "share of all items",
}


def normalized(table: np.ndarray, normalize: Normalization | bool | None) -> np.ndarray:
    """Counts as shares, as scikit-learn's ``confusion_matrix(normalize=...)``.

    ``"true"`` divides each row by its sum, ``"pred"`` each column, ``"all"`` every
    cell by the total; ``None`` (or ``False``) keeps the counts, ``True`` means
    ``"all"``. A row or column with no items gives shares of 0.
    """
    how = _normalize_mode(normalize)
    counts = np.asarray(table, dtype=float)
    if how is None:
        return counts
    if how == "true":
        total = counts.sum(axis=1, keepdims=True)
    elif how == "pred":
        total = counts.sum(axis=0, keepdims=True)
    else:
        total = np.full((1, 1), counts.sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = counts / total
    return np.nan_to_num(shares)


def _normalize_mode(normalize: Any) -> str | None:
    if normalize is True:
        return "all"
    if normalize is False or normalize is None:
        return None
    if isinstance(normalize, str) and normalize in ("true", "pred", "all"):
        return normalize
    raise bad_option("normalize", normalize, _NORMALIZE_CHOICES)


def _share_text(share: float, count: float) -> str:
    """A share for a cell: blank when no item is there, "<0.01" when it rounds to 0."""
    if count == 0:
        return ""
    return "<0.01" if share < 0.005 else f"{share:.2f}"


@_plain_text
def confusion_plot(
    data: Any,
    a: Hashable,
    b: Hashable,
    *,
    categories: Sequence[Any] | None = None,
    weights: str | ArrayLike | None = None,
    normalize: Normalization | bool | None = None,
    ax: Axes | None = None,
) -> Figure:
    """Draw the K x K confusion matrix of two rater columns, annotated.

    The counts are those of ``kappaframe.confusion`` (rows ``a``, columns ``b``;
    items either rater left missing are not counted); the title gives ``n`` and kappa
    with the weighting asked for ("linear-weighted kappa = 0.03").

    Parameters
    ----------
    data : pandas.DataFrame, polars.DataFrame or polars.LazyFrame
    a, b : column name
        The two rater columns (rows, columns).
    categories : sequence, optional
        Category order, as in ``kappaframe.confusion``.
    weights : {None, "linear", "quadratic"} or array, optional
        The weighting of the kappa in the title, as in ``kappaframe.pairwise``.
    normalize : {"true", "pred", "all"}, bool or None, default None
        As scikit-learn's ``ConfusionMatrixDisplay.from_predictions(normalize=)``, with
        ``a`` as the truth: ``"true"`` shows each row as shares of its items (rows sum
        to 1), ``"pred"`` each column (columns sum to 1), ``"all"`` shares of all
        counted items; None shows counts. ``True`` means ``"all"`` and ``False`` None.
        Shares are written with two decimals; an empty cell is left blank (a share that
        rounds to 0 reads "<0.01").
    ax : matplotlib Axes, optional
        Draw into this Axes; default a new figure.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    KappaFrameError
        ``normalize`` is not one of the choices above.

    See Also
    --------
    confusion : the same counts as a frame.
    heatmap : every pair at once.

    Examples
    --------
    >>> import kappaframe as kf
    >>> ms = kf.datasets.multiple_sclerosis()
    >>> fig = kf.confusion_plot(ms, "new_orleans", "winnipeg")
    >>> fig.axes[0].get_title()
    'new_orleans vs winnipeg: n = 218, kappa = 0.26'
    """
    how = _normalize_mode(normalize)
    require_matplotlib()
    check_axes(ax)
    prep = prepare_input(adapt(data), [a, b], categories=categories, from_counts=True)
    prep.require_order(weights)
    k = len(prep.categories)
    table = np.asarray(prep.tables(np.array([[0, 1]]), full=True))[0, 0]
    stats = agreement(table, weight_matrix(weights, prep.categories))
    n = int(stats["n"])
    values = normalized(table, cast("Normalization | None", how))
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
    top = 1.0 if how is not None else (float(values.max()) if values.size else 1.0)
    norm = Normalize(vmin=0.0, vmax=top if top > 0 else 1.0)
    image = ax.imshow(values, cmap=cmap, norm=norm)
    _set_ticks(ax, labels)
    ax.set_xlabel(str(b))
    ax.set_ylabel(str(a))
    for i in range(k):
        for j in range(k):
            count = float(table[i, j])
            text = f"{int(count)}" if how is None else _share_text(values[i, j], count)
            if text:
                _write(ax, j, i, text, cmap, norm, values[i, j])
    kappa = float(stats["kappa"])
    shown = "undefined" if math.isnan(kappa) else f"{kappa:.2f}"
    name = "kappa" if weights is None else stat_label("kappa", weights)
    ax.set_title(f"{a} vs {b}: n = {n}, {name} = {shown}")
    caption = "items" if how is None else _SHARE_CAPTIONS[how]
    fig.colorbar(image, ax=ax, shrink=0.8, label=caption)
    return fig
