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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar, cast, get_args

import numpy as np

from .._api.concordance import BlandAltmanPoints, bland_altman_points
from .._api.pairwise import PairTable, confusion_counts, matrix_squares
from .._api.settings.bind import declared
from .._api.settings.reading import ReadSpec, score_column
from .._errors import KappaFrameError, bad_option, optional_import
from .._stats.scales import resolve_scale
from .._types import Duplicates, Normalization, Scale, Stat, Triangle
from . import colours
from .describe import COEFFICIENTS, pandas_result, result_kind
from .display import number_text, register_figure_formatter

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from numpy.typing import ArrayLike

__all__ = [
    "TRIANGLES",
    "Cells",
    "Grid",
    "Normalization",
    "bar_width",
    "bland_altman_plot",
    "confusion_plot",
    "forest_plot",
    "grid",
    "heatmap",
    "normalized",
    "require_matplotlib",
    "squares_figure",
    "stat_label",
    "text_width",
    "trend_plot",
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
    return optional_import("matplotlib", "drawing kappaframe's pictures")


def _plain_text(draw: Callable[P, R]) -> Callable[P, R]:
    """Draw names as written: ``$x$`` in a rater name, group key or label is not math."""

    @functools.wraps(draw)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        matplotlib = require_matplotlib()
        with matplotlib.rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)

    return wrapper


#: No figure is larger than this, in inches, across or down.
FIGURE_CAP = 20.0


def _new_figure(width: float, height: float, *, constrained: bool = True) -> Figure:
    """A new figure of this size, within ``FIGURE_CAP`` (both sides shrunk alike)."""
    require_matplotlib()
    from matplotlib.figure import Figure

    register_figure_formatter()
    shrink = min(1.0, FIGURE_CAP / max(width, height))
    size = (width * shrink, height * shrink)
    return Figure(figsize=size, layout="constrained" if constrained else None)


def _figure_of(ax: Axes | None, width: float, height: float) -> tuple[Figure, Axes]:
    """The caller's Axes and its figure, or a new figure of this size and its one Axes."""
    if ax is None:
        fig = _new_figure(width, height)
        return fig, fig.subplots()
    return cast("Figure", ax.figure), ax


@declared
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
    show_n: bool = False,
    triangle: Triangle | None = None,
    scale: Scale | None = "landis_koch",
    ncols: int | None = None,
    ax: Axes | None = None,
) -> Figure:
    """Heatmap of the rater x rater matrix, annotated, one panel per group.

    The numbers are those of ``kappaframe.matrix`` (same arguments). Kappa is drawn
    on a diverging scale centred on 0, the agreement expected by chance: near 0 a
    neutral near-white, above it blue (darker as agreement grows; "moderate" is a calm
    middle blue), below it red, continuously (-0.26 is clearly redder than -0.003). The
    colour bar runs from -1 to 1 and marks the bands of ``scale``. ``p_o`` and ``p_e``
    use the upper half of the scale over [0, 1], ``n`` over [0, its maximum]. The same
    colours colour the notebook tables and the HTML report. The scale is fixed, so
    panels and figures compare.

    The diagonal (each rater with themself: always 1) is masked: hatched, not coloured,
    no number; for ``stat="n"`` it shows the items each rater labelled. Undefined cells
    are grey and say "n/a". All panels share one colour bar, labelled with the
    statistic and its weighting ("linear-weighted kappa").

    The figure is at most 12 inches wide and 20 high: with many raters or groups the
    cells get smaller (and the panels fewer per row), down to the size where a value
    still reads at 7 points; below that (about 30 raters) the cells carry colour only.
    Where the 20 inches down are what leaves no room for the values (many groups in
    rows), the figure grows wider instead, with more panels per row, up to 20 inches:
    no figure is larger than 20 x 20 inches.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    matplotlib.figure.Figure
        The figure (``ax.figure`` when ``ax`` is given), with one colour bar. Each panel
        is titled by its group, or "all items" when not grouped.

    Raises
    ------
    ModuleNotFoundError
        matplotlib is not installed (``pip install "kappaframe[plot]"``).
    KappaFrameError
        An option is not one of its choices.

    See Also
    --------
    matrix : the numbers behind the picture, as a frame.
    confusion_plot : the table of one pair.

    Notes
    -----
    ``ax`` draws ungrouped data only: grouped data draws one panel per group in a
    new figure.

    Examples
    --------
    >>> import kappaframe as kf
    >>> team = kf.datasets.labeling_team(seed=0)
    >>> fig = kf.heatmap(team, list(kf.datasets.TEAM), by="project")
    >>> [a.get_title() for a in fig.axes[:3]]
    ['project = alpha', 'project = beta', 'project = gamma']
    >>> fig.axes[3].get_ylabel()
    "Cohen's kappa (unweighted)"
    """
    if ncols is not None and (isinstance(ncols, bool) or not isinstance(ncols, int) or ncols < 1):
        raise KappaFrameError(f"ncols must be a positive integer or None; got {ncols!r}.")
    _check_bar(fail_under)
    _check_triangle(triangle)
    bands = None if scale is None else resolve_scale(scale)
    require_matplotlib()
    read = ReadSpec.of(locals())
    squares = matrix_squares(data, read, stat, weights, counts=show_n)
    _check_panels(squares.values.shape[0], ax)
    return squares_figure(
        squares.values,
        [str(r) for r in squares.raters],
        squares.titles,
        stat=stat,
        weights=weights,
        fail_under=fail_under,
        annotate=annotate,
        counts=squares.counts,
        triangle=triangle,
        scale=bands,
        ncols=ncols,
        ax=ax,
    )


def _check_panels(n_groups: int, ax: Axes | None) -> None:
    """Some group to draw, and one panel only when drawn into the caller's ``ax``."""
    if n_groups == 0:
        raise KappaFrameError("no groups to draw: the frame has no rows.")
    if ax is not None and n_groups > 1:
        raise KappaFrameError(
            f"ax= draws one panel, but there are {n_groups} groups; drop ax= to get one "
            "panel per group."
        )


def _check_bar(fail_under: Any) -> None:
    if fail_under is None:
        return
    if isinstance(fail_under, bool) or not isinstance(fail_under, (int, float, np.number)):
        raise KappaFrameError(f"fail_under must be a number or None; got {fail_under!r}.")
    if not math.isfinite(float(fail_under)):
        raise KappaFrameError(f"fail_under must be a finite number; got {fail_under!r}.")


def _check_triangle(triangle: Any) -> None:
    if triangle is not None and triangle not in TRIANGLES:
        raise bad_option("triangle", triangle, [*TRIANGLES, None])


#: ``heatmap(triangle=...)``: the halves of the matrix that can be drawn alone.
TRIANGLES: tuple[str, ...] = get_args(Triangle)

#: The largest figure ``squares_figure`` draws, in inches (width, height): within
#: ``FIGURE_CAP``, the cells shrink instead.
MAX_FIGURE = (12.0, 20.0)
#: Side of a cell, in inches: at most (where there is room), and the least that holds a
#: value written at 7 points (one line, and with ``n=`` under it).
CELL_MAX, CELL_MIN, CELL_MIN_N = 0.5, 0.3, 0.4
#: Font sizes in points: the least for any text, tick labels, the colour bar's text.
FONT_MIN, FONT_TICKS, FONT_BAR = 7.0, 9.0, 8.0
#: Inches between panels (across, down), around the figure, and the colour bar's width.
GAP_X, GAP_Y, EDGE, BAR = 0.3, 0.2, 0.08, 0.18


def text_width(text: str, size: float) -> float:
    """Inches a text takes at ``size`` points (its longest line), measured on its glyphs."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    font = FontProperties(size=size)
    measure = TextToPath().get_text_width_height_descent
    points = max((measure(line, font, ismath=False)[0] for line in text.split("\n")), default=0)
    return 1.08 * points / 72  # a little more than the glyphs: the renderer's bearings


@dataclass(frozen=True)
class Grid:
    """Where ``squares_figure`` puts its panels and colour bar (inches, from the left/top).

    ``left`` holds the row names (once a row of panels: the panels of a row have the
    same raters), ``bottom`` the slanted column names, ``top`` a title; ``bar`` is the
    width of the colour bar with its numbers, band names and label.
    """

    cols: int
    rows: int
    cell: float
    raters: int
    left: float
    bottom: float
    top: float
    bar: float
    bar_height: float

    @property
    def panel(self) -> float:
        return self.raters * self.cell

    @property
    def width(self) -> float:
        return 2 * EDGE + self.left + self.cols * self.panel + (self.cols - 1) * GAP_X + self.bar

    @property
    def height(self) -> float:
        rows = self.rows * (self.top + self.panel + self.bottom) + (self.rows - 1) * GAP_Y
        return max(2 * EDGE + rows, self.bar_height + 2 * EDGE + self.top)

    def ticks(self) -> float:
        """Points for the rater names: as large as a cell holds, within 7 to 9."""
        return min(FONT_TICKS, max(FONT_MIN, self.cell * 72 * 0.8))

    def font(self, show_n: bool = False) -> float | None:
        """Points for the values in the cells, or None when a value cannot be read there."""
        points = self.cell * 72
        if show_n:
            return None if self.cell < CELL_MIN_N else min(9.0, points / 3.8, points / 2.7)
        return None if self.cell < CELL_MIN else min(10.0, max(FONT_MIN, points / 3.4))

    def panel_box(self, g: int) -> tuple[float, float, float, float]:
        """Panel ``g``'s axes as [left, bottom, width, height], fractions of the figure."""
        row, col = divmod(g, self.cols)
        x = EDGE + self.left + col * (self.panel + GAP_X)
        y_top = EDGE + row * (self.top + self.panel + self.bottom + GAP_Y) + self.top
        return self._box(x, y_top, self.panel, self.panel)

    def bar_box(self) -> tuple[float, float, float, float]:
        """The colour bar's axes, beside the panels, centred on the first row."""
        x = self.width - EDGE - self.bar + GAP_X
        centre = EDGE + self.top + self.panel / 2
        y_top = max(EDGE + self.top, centre - self.bar_height / 2)
        return self._box(x, y_top, BAR, self.bar_height)

    def _box(self, x: float, y_top: float, w: float, h: float) -> tuple[float, float, float, float]:
        width, height = self.width, self.height
        return (x / width, 1 - (y_top + h) / height, w / width, h / height)


def grid(
    n_raters: int,
    n_groups: int,
    names: Sequence[str],
    *,
    ncols: int | None = None,
    bar: float = 0.0,
    limits: tuple[float, float] = MAX_FIGURE,
) -> Grid:
    """Lay out ``n_groups`` panels of ``n_raters`` x ``n_raters`` cells within ``limits``.

    Without ``ncols``, the number of panels per row that gives the largest cells (the
    most such, on ties). The cells are at most ``CELL_MAX`` inches, less where the
    figure would exceed ``limits`` (width, height); ``bar`` is the colour bar's width
    (``bar_width``), 0 for none. The margins are measured on the names as drawn.
    """
    width_limit, height_limit = limits
    r = max(n_raters, 1)
    longest = max(names, key=lambda n: text_width(n, FONT_TICKS), default="")

    def margins(ticks: float) -> tuple[float, float, float]:
        name = text_width(longest, ticks)
        left = name + 0.06
        bottom = 0.71 * (name + ticks / 72) + 0.04  # names slanted at 45 degrees
        top = 1.3 * (FONT_TICKS + 1) / 72 + 0.06
        return left, bottom, top

    def layout(cols: int, ticks: float = FONT_TICKS) -> Grid:
        rows = math.ceil(n_groups / cols)
        left, bottom, top = margins(ticks)
        across = (width_limit - 2 * EDGE - bar - left - (cols - 1) * GAP_X) / (cols * r)
        down = (height_limit - 2 * EDGE - rows * (top + bottom) - (rows - 1) * GAP_Y) / (rows * r)
        cell = max(min(CELL_MAX, across, down), 0.05)
        bar_height = max(r * cell, 2.4) if bar else 0.0
        return Grid(cols, rows, cell, r, left, bottom, top, bar, bar_height)

    choices = [min(ncols, n_groups)] if ncols else range(1, n_groups + 1)
    cols = max(choices, key=lambda c: (round(layout(c).cell, 3), c))
    first = layout(cols)
    return layout(cols, first.ticks())  # the names at the size the cells allow


def bar_width(
    stat: str, scale: Any = None, fail_under: float | None = None, top: float = 1.0
) -> float:
    """Inches the colour bar takes: gap, bar, numbers, band names, the label's lines."""
    if stat == "kappa" and scale is not None:
        numbers = [f"{e:g}" for e in _edges(scale)]
    elif stat == "n":
        numbers = [f"{top:.0f}"]
    else:
        numbers = ["-1.0", "0.0"]
    width = GAP_X + BAR + 0.05 + max(text_width(t, FONT_BAR) for t in numbers)
    if stat == "kappa" and scale is not None:
        width += 0.08 + max((text_width(name, FONT_BAR) for name in scale.labels), default=0)
    lines = 2 if fail_under is not None else 1
    return width + 0.04 + lines * 1.25 * FONT_TICKS / 72


#: Widths (inches) a heatmap grows to, in turn, when its height cap leaves no room for
#: the values in the cells (many groups, stacked in rows).
WIDER = (14.0, 16.0, 18.0, FIGURE_CAP)


def _widened(
    layout: Grid, names: Sequence[str], n_groups: int, ncols: int | None, bar: float, show_n: bool
) -> Grid:
    """A wider layout (up to ``FIGURE_CAP``) whose cells hold their values.

    Only where the height was what made them too small; else ``layout`` (the cells
    carry colour only).
    """
    width, height = MAX_FIGURE

    def fits(limits: tuple[float, float]) -> Grid | None:
        found = grid(len(names), n_groups, names, ncols=ncols, bar=bar, limits=limits)
        return found if found.font(show_n) is not None else None

    if fits((width, math.inf)) is None:  # too many raters for the width: colour only
        return layout
    return next((g for w in WIDER if (g := fits((w, height))) is not None), layout)


def _edges(scale: Any) -> list[float]:
    """The band edges within (-1, 1), with -1 and 1: the numbers on a kappa colour bar."""
    lower, _ = scale.limits()
    return sorted({-1.0, 1.0, *(float(e) for e in lower if -1.0 < e < 1.0)})


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
    counts: np.ndarray | None = None,
    triangle: str | None = None,
    scale: Any = None,
    ncols: int | None = None,
    ax: Axes | None = None,
    colour_bar: bool = True,
    limits: tuple[float, float] = MAX_FIGURE,
) -> Figure:
    """Draw (groups, R, R) values as annotated panels sharing one colour bar.

    What ``heatmap`` draws from arrays (those of
    ``kappaframe._api.pairwise.matrix_squares``); the HTML report draws each group with
    it (``colour_bar=False``: the page has one key, and ``limits`` of a printed page).
    An empty title becomes "all items". ``counts`` (groups, R, R) adds ``n=`` to each
    cell; ``scale`` (a resolved ``kappaframe._stats.scales.Scale``) marks its bands on a
    kappa colour bar.
    The panels and the bar are placed where ``grid`` measured room for their names.
    """
    n_groups = squares.shape[0]
    show_n = counts is not None
    cax = None
    if ax is not None:
        fig, axes = ax.figure, [ax]
        box = ax.get_window_extent().transformed(fig.dpi_scale_trans.inverted())
        cell = max(min(box.width, box.height) / max(len(names), 1), 0.05)
        layout = Grid(1, 1, cell, len(names), 0, 0, 0, 0, 0)
    else:
        top = float(np.nanmax(squares)) if stat == "n" and np.isfinite(squares).any() else 1.0
        bar = bar_width(stat, scale, fail_under, top) if colour_bar else 0.0
        layout = grid(len(names), n_groups, names, ncols=ncols, bar=bar, limits=limits)
        if annotate and layout.font(show_n) is None and limits == MAX_FIGURE:
            layout = _widened(layout, names, n_groups, ncols, bar, show_n)
        fig = _new_figure(layout.width, layout.height, constrained=False)
        axes = [fig.add_axes(layout.panel_box(g)) for g in range(n_groups)]
        cax = fig.add_axes(layout.bar_box(), label="<colorbar>") if colour_bar else None
    font = layout.font(show_n) if annotate else None
    ticks = layout.ticks()
    cmap, norm = _scale(stat, squares)
    images = []
    for g, panel in enumerate(axes):
        cells = Cells(
            values=squares[g].astype(float),
            counts=None if counts is None else counts[g],
            stat=stat,
            triangle=triangle,
            fail_under=fail_under,
        )
        outline = 2.0 if layout.cell >= 0.45 else 1.4
        images.append(_draw_square(panel, cells, names, cmap, norm, font, ticks, outline))
        if ax is None and g % layout.cols:  # the row's first panel names the rows
            panel.tick_params(labelleft=False)
        panel.set_title(titles[g] or "all items", fontsize=FONT_TICKS + 1)
    if colour_bar:
        _colour_bar(fig, images[0], axes, cax, stat, weights, fail_under, scale)
    return cast("Figure", fig)


def _colour_bar(
    fig: Any,
    image: Any,
    axes: list[Any],
    cax: Any,
    stat: str,
    weights: Any,
    fail_under: float | None,
    scale: Any,
) -> None:
    """One colour bar for all panels: the statistic, the bands of ``scale``, the bar."""
    caption = stat_label(stat, weights)
    if fail_under is not None:
        caption += f"\noutlined: below {fail_under:g}"
    if cax is not None:
        bar = fig.colorbar(image, cax=cax)
    else:  # into the caller's figure: room taken from the caller's axes
        bar = fig.colorbar(image, ax=axes, shrink=0.8, fraction=0.05)
    bar.set_label(caption, fontsize=FONT_TICKS)
    bar.ax.tick_params(labelsize=FONT_BAR)
    norm = image.norm
    if stat == "kappa" and scale is not None:
        lower, upper = scale.limits()
        edges = _edges(scale)
        bar.set_ticks(edges, labels=[f"{e:g}" for e in edges])
        for edge in edges[1:-1]:
            bar.ax.axhline(edge, color="white", linewidth=1.2)
        middles, names = [], []
        for low, high, name in zip(lower, upper, scale.labels, strict=True):
            if high > low:
                middles.append((low + high) / 2)
                names.append(name)
        # The band names in a column beyond the numbers, as minor tick labels.
        numbers = max(text_width(f"{e:g}", FONT_BAR) for e in edges) * 72
        bar.ax.set_yticks(middles, labels=names, minor=True)
        bar.ax.tick_params(which="minor", length=0, labelsize=FONT_BAR, pad=numbers + 9)
    if fail_under is not None and norm.vmin <= fail_under <= norm.vmax:
        bar.ax.axhline(fail_under, color=colours.OUTLINE, linewidth=2.5)


def _set_ticks(ax: Axes, labels: list[str], size: float = FONT_TICKS) -> None:
    """Label both axes of a square panel (x labels slanted) and hide the tick marks."""
    ticks = np.arange(len(labels))
    ax.set_xticks(ticks, labels=labels, rotation=45, ha="right", rotation_mode="anchor")
    ax.set_yticks(ticks, labels=labels)
    ax.tick_params(length=0, labelsize=size)


def _write(
    ax: Axes, x: int, y: int, text: str, cmap: Any, norm: Any, value: float, size: float = 9
) -> None:
    """Write ``text`` in a cell, in the colour that reads on the cell's colour."""
    from matplotlib.colors import to_hex

    colour = colours.text_colour(to_hex(cmap(norm(value))))
    ax.text(x, y, text, ha="center", va="center", fontsize=size, color=colour)


def _scale(stat: str, squares: np.ndarray) -> tuple[Any, Any]:
    """Colour map and norm: kappa over [-1, 1]; p_o, p_e over [0, 1]; n up to its maximum."""
    from matplotlib.colors import Normalize

    # Masked cells (diagonal, other triangle, undefined) are not painted by the map:
    # each is drawn on its own (hatched, blank, grey).
    clear = (0.0, 0.0, 0.0, 0.0)
    if stat == "kappa":
        return colours.kappa_colormap().with_extremes(bad=clear), Normalize(vmin=-1.0, vmax=1.0)
    cmap = colours.share_colormap().with_extremes(bad=clear)
    if stat == "n":
        top = float(np.nanmax(squares)) if squares.size and np.isfinite(squares).any() else 1.0
        return cmap, Normalize(vmin=0.0, vmax=max(top, 1.0))
    return cmap, Normalize(vmin=0.0, vmax=1.0)


@dataclass(frozen=True)
class Cells:
    """One panel's values and what to draw of them."""

    values: np.ndarray
    counts: np.ndarray | None
    stat: str
    triangle: str | None
    fail_under: float | None

    def diagonal(self) -> np.ndarray:
        """The cells masked as the diagonal (none for ``stat="n"``: it has counts there)."""
        size = self.values.shape[0]
        if self.stat == "n":
            return np.zeros((size, size), dtype=bool)
        return np.eye(size, dtype=bool)

    def hidden(self) -> np.ndarray:
        """The cells of the other triangle, not drawn."""
        size = self.values.shape[0]
        rows, cols = np.indices((size, size))
        if self.triangle == "lower":
            return cols > rows
        if self.triangle == "upper":
            return cols < rows
        return np.zeros((size, size), dtype=bool)

    def below(self) -> np.ndarray:
        """The drawn cells whose value is below ``fail_under``."""
        if self.fail_under is None:
            return np.zeros(self.values.shape, dtype=bool)
        with np.errstate(invalid="ignore"):
            low = np.isfinite(self.values) & (self.values < self.fail_under)
        return low & ~self.diagonal() & ~self.hidden()

    def text(self, i: int, j: int) -> str:
        """What cell (i, j) says: its value as written (see ``number_text``), and n."""
        value = self.values[i, j]
        if not np.isfinite(value):
            shown = "n/a"
        elif self.stat == "n":
            shown = f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"
        else:
            shown = number_text(float(value), 2, self.fail_under)
        if self.counts is not None and self.stat != "n":
            n = float(self.counts[i, j])
            shown += f"\nn={n:.0f}" if n.is_integer() else f"\nn={n:.1f}"
        return shown


def _draw_square(
    ax: Axes,
    cells: Cells,
    names: list[str],
    cmap: Any,
    norm: Any,
    font: float | None,
    ticks: float = FONT_TICKS,
    outline: float = 2.0,
) -> Any:
    from matplotlib.patches import Rectangle

    values = cells.values
    size = values.shape[0]
    diagonal, hidden = cells.diagonal(), cells.hidden()
    masked = np.ma.masked_array(values, mask=~np.isfinite(values) | diagonal | hidden)
    image = ax.imshow(masked, cmap=cmap, norm=norm)
    undefined = ~np.isfinite(values) & ~diagonal & ~hidden
    if undefined.any():  # grey, not the axes' white (masked cells are not drawn)
        grey = np.ma.masked_array(np.zeros(values.shape), mask=~undefined)
        from matplotlib.colors import ListedColormap

        ax.imshow(grey, cmap=ListedColormap([colours.MISSING]), vmin=0, vmax=1)
    _set_ticks(ax, names, ticks)
    for spine in ax.spines.values():
        spine.set_visible(False)
    for d in np.flatnonzero(diagonal.diagonal()):
        ax.add_patch(
            Rectangle(
                (d - 0.5, d - 0.5),
                1,
                1,
                facecolor=colours.DIAGONAL,
                edgecolor=colours.DIAGONAL_HATCH,
                hatch="////",
                linewidth=0,
                label="diagonal",
            )
        )
    for row, col in zip(*np.nonzero(cells.below()), strict=True):
        ax.add_patch(
            Rectangle(
                (col - 0.45, row - 0.45),
                0.9,
                0.9,
                fill=False,
                edgecolor=colours.OUTLINE,
                linewidth=outline,
                label="below fail_under",
            )
        )
    if font is not None:
        for i in range(size):
            for j in range(size):
                if diagonal[i, j] or hidden[i, j]:
                    continue
                if np.isfinite(values[i, j]):
                    _write(ax, j, i, cells.text(i, j), cmap, norm, values[i, j], font)
                else:
                    ax.text(
                        j,
                        i,
                        cells.text(i, j),
                        ha="center",
                        va="center",
                        fontsize=font,
                        color=colours.MISSING_TEXT,
                    )
    return image


#: The side a confusion matrix grows to (inches) before its cells get smaller.
CONFUSION_SIDE = 7.0

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


@declared
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
    %(parameters)s

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

    Notes
    -----
    ``weights`` weights the kappa in the title only; the cells are counts (or
    shares).

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
    pair = confusion_counts(data, a, b, categories=categories, weights=weights)
    cell = _confusion_cell(len(pair.categories))
    fig, ax = _confusion_axes(len(pair.categories), cell, ax)
    image = _draw_counts(ax, pair, how, cell, (str(a), str(b)))
    name = "kappa" if weights is None else stat_label("kappa", weights)
    shown = "undefined" if math.isnan(pair.kappa) else f"{pair.kappa:.2f}"
    ax.set_title(f"{a} vs {b}: n = {pair.n}, {name} = {shown}")
    caption = "items" if how is None else _SHARE_CAPTIONS[how]
    fig.colorbar(image, ax=ax, shrink=0.8, label=caption)
    return fig


def _confusion_cell(k: int) -> float:
    """Inches a cell of a K x K confusion matrix gets: at most 0.6, at least 0.25.

    Less than 0.25 where the figure would be wider than ``FIGURE_CAP`` (about 70
    categories); the cells then carry colour only (``CONFUSION_WRITTEN``).
    """
    most = (FIGURE_CAP - 0.8 - 1.8) / max(k, 1)
    return min(0.6, max(0.25, (CONFUSION_SIDE - 1.8) / max(k, 1)), most)


#: The least cell (inches) a confusion matrix writes its counts in.
CONFUSION_WRITTEN = 0.25


def _confusion_axes(k: int, cell: float, ax: Axes | None) -> tuple[Figure, Axes]:
    """The caller's ``ax`` and its figure, or a new figure sized for K x K cells."""
    size = max(3.0, cell * k + 1.8)
    return _figure_of(ax, size + 0.8, size)


def _draw_counts(
    ax: Axes, pair: PairTable, how: str | None, cell: float, names: tuple[str, str]
) -> Any:
    """The counts (or shares) of ``pair`` as coloured cells, each written in its cell."""
    from matplotlib.colors import Normalize

    table, k = pair.table, len(pair.categories)
    values = normalized(table, cast("Normalization | None", how))
    cmap = colours.share_colormap()
    top = 1.0 if how is not None else (float(values.max()) if values.size else 1.0)
    norm = Normalize(vmin=0.0, vmax=top if top > 0 else 1.0)
    image = ax.imshow(values, cmap=cmap, norm=norm)
    font = min(FONT_TICKS, max(FONT_MIN, cell * 72 / 3.4))
    labels = [str(c) for c in pair.categories]
    _set_ticks(ax, labels, min(FONT_TICKS, max(FONT_MIN, cell * 72 * 0.8)))
    ax.set_xlabel(names[1])
    ax.set_ylabel(names[0])
    for i in range(k):
        for j in range(k):
            count = float(table[i, j])
            text = f"{int(count)}" if how is None else _share_text(values[i, j], count)
            if text and cell >= CONFUSION_WRITTEN:
                _write(ax, j, i, text, cmap, norm, values[i, j], font)
    return image


@declared
@_plain_text
def bland_altman_plot(
    data: Any,
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
) -> Figure:
    """Draw the Bland-Altman plot of two raters: each item's difference against its mean.

    One point per item both rated, at ``x = (a + b) / 2`` and ``y = a - b``; a solid
    line at the bias (the mean difference), dashed lines at the limits of agreement
    ``bias -/+ agreement * sd``, and, with ``ci``, a shaded band for the interval of
    each line (Bland & Altman 1986). The lines are the numbers of
    ``kappaframe.bland_altman`` for the pair.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    KappaFrameError
        Not exactly two raters, fewer than two items rated by both, values that are not
        numbers (the column and value named), a bad ``agreement`` or ``ci``.

    See Also
    --------
    bland_altman : the bias, limits and intervals of every pair, as a frame.

    Notes
    -----
    ``raters`` names the two raters ``[a, b]`` (columns, or ids in the long layout);
    the difference drawn is ``a - b``. Default: the two raters of the input (an error when
    there are more). ``ci`` is the level of the shaded bands around the bias and the
    limits; ``None`` draws none.

    References
    ----------
    Bland, J. M., & Altman, D. G. (1986). Statistical methods for assessing agreement
    between two methods of clinical measurement. *The Lancet* 327(8476), 307-310.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [1.5, 1.5, 3.5, 3.0]})
    >>> fig = kf.bland_altman_plot(df)
    >>> fig.axes[0].get_title()
    'a - b: n = 4, bias = 0.125, limits of agreement -1.34 to 1.59'
    """
    require_matplotlib()
    column, word = score_column(value, label)
    read = ReadSpec.of(locals(), label=column, label_word=word)
    points = bland_altman_points(data, raters, read, agreement=agreement, ci=ci)
    fig, ax = _figure_of(ax, 6.0, 4.2)
    _draw_bland_altman(ax, points)
    first, second = (str(r) for r in points.raters)
    lines = points.lines
    ax.set_xlabel(f"mean of {first} and {second}")
    ax.set_ylabel(f"{first} - {second}")
    ax.set_title(
        f"{first} - {second}: n = {points.n}, bias = {lines['bias']:.3g}, "
        f"limits of agreement {lines['loa_low']:.3g} to {lines['loa_high']:.3g}"
    )
    ax.legend(loc="best", fontsize=FONT_MIN + 1, frameon=False)
    return fig


def _draw_bland_altman(ax: Axes, points: BlandAltmanPoints) -> None:
    """The items, the bias and limits (with their intervals as bands), and the zero line."""
    line_colour, band_colour = "#1f4e79", "#9ecae1"
    stats, level, k = points.lines, points.level, points.agreement
    if level is not None:
        for name in ("bias", "loa_low", "loa_high"):
            ax.axhspan(
                stats[f"{name}_ci_low"],
                stats[f"{name}_ci_high"],
                color=band_colour,
                alpha=0.35,
                linewidth=0,
                label=f"{level:.0%} interval" if name == "bias" else None,
                gid=f"{name}_ci",
            )
    ax.scatter(points.means, points.diffs, s=18, color="#333333", zorder=3, gid="items")
    ax.axhline(stats["bias"], color=line_colour, linewidth=1.5, label="bias", gid="bias")
    for name in ("loa_low", "loa_high"):
        ax.axhline(
            stats[name],
            color=line_colour,
            linestyle="--",
            linewidth=1.2,
            label=f"bias -/+ {k:g} SD" if name == "loa_low" else None,
            gid=name,
        )
    ax.axhline(0.0, color="#999999", linewidth=0.8, zorder=1, gid="zero")


#: The columns that name one line of a trend (besides the ``by`` columns).
_SERIES = ("rater_a", "rater_b", "method", "rater")


@declared
@_plain_text
def trend_plot(
    data: Any,
    *,
    value: str | None = None,
    scale: Scale | None = "landis_koch",
    title: str | None = None,
    ax: Axes | None = None,
) -> Figure:
    """Draw an agreement coefficient over time: one line per pair or group, with its interval.

    ``data`` is a result computed in time windows (``time=``, ``every=``): each row is
    drawn at the middle of its window, ``(window_start + window_end) / 2``. One line per
    series: the ``by`` columns with ``rater_a`` and ``rater_b`` (``pairwise``), ``method``
    (``overall``) or ``rater``. With ``ci_low`` and ``ci_high`` (``ci=``) each line has
    its interval as a band around it. Behind the lines, the interpretation scale's bands
    (Landis & Koch's by default), each labelled at the right. Windows with no rows are
    absent from the result, so a line joins the windows that have data; an undefined
    coefficient (NaN) leaves a gap.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    KappaFrameError
        ``data`` has no window columns (it was not computed with ``time=``) or no
        ``value`` column.

    See Also
    --------
    pairwise, overall : with ``time=`` and ``every=``, the windows drawn here.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({
    ...     "day": pd.date_range("2024-01-01", periods=14, freq="D"),
    ...     "ann1": ["a", "b"] * 7,
    ...     "ann2": ["a", "b", "b"] * 4 + ["a", "b"],
    ... })
    >>> res = kf.pairwise(df, time="day", every="1w", min_items=None)
    >>> fig = kf.trend_plot(res)
    >>> len(fig.axes[0].lines), fig.axes[0].get_title()
    (1, 'kappa over time')
    """
    require_matplotlib()
    trend = _Trend.of(pandas_result(data, "trend_plot() takes a result frame"), value)
    fig, ax = _figure_of(ax, 8.0, 4.5)
    _draw_trend(ax, trend)
    bottom = trend.bottom()
    ax.set_ylim(max(-1.0, bottom), 1.0)
    if scale is not None:
        _scale_bands(ax, resolve_scale(scale), max(-1.0, bottom))
    ax.set_ylabel(str(trend.value))
    ax.set_xlabel("window (drawn at its middle)")
    ax.set_title(title if title is not None else f"{trend.value} over time")
    if trend.keys and len(trend.series) > 1:
        ax.legend(fontsize=FONT_TICKS, loc="lower left")
    fig.autofmt_xdate()
    return fig


@dataclass(frozen=True)
class _Trend:
    """A windowed result as lines: each row at its window's middle, rows per series."""

    value: str
    middle: Any
    y: np.ndarray
    low: np.ndarray
    high: np.ndarray
    with_ci: bool
    keys: list[Any]
    series: dict[Any, Any]

    @classmethod
    def of(cls, frame: Any, value: str | None) -> _Trend:
        import pandas as pd

        value = _trend_value(frame, value)
        start = pd.to_datetime(frame["window_start"])
        middle = start + (pd.to_datetime(frame["window_end"]) - start) / 2
        names = list(frame.columns)
        keys = names[: names.index("window_start")] + [c for c in _SERIES if c in names]
        y = pd.to_numeric(frame[value], errors="coerce").to_numpy(dtype=float)
        with_ci = "ci_low" in names and "ci_high" in names
        low = frame["ci_low"].to_numpy(dtype=float) if with_ci else y
        high = frame["ci_high"].to_numpy(dtype=float) if with_ci else y
        series = (
            frame.groupby(keys, sort=False, dropna=False).indices
            if keys
            else {"": np.arange(len(y))}
        )
        return cls(value, middle, y, low, high, with_ci, keys, series)

    def bottom(self) -> float:
        """The lowest value or interval end drawn, less a margin; 0 when all are above."""
        shown = np.concatenate([self.y, self.low, self.high])
        shown = shown[np.isfinite(shown)]
        return min(0.0, float(shown.min()) - 0.05) if shown.size else 0.0


def _trend_value(frame: Any, value: str | None) -> str:
    """The column drawn (default ``kappa``, else ``value``), once the windows are there."""
    missing = [c for c in ("window_start", "window_end") if c not in frame.columns]
    if missing:
        raise KappaFrameError(
            f"trend_plot() draws a result computed in time windows, and this one has no "
            f"{missing[0]!r} column; compute it with time= and every= (e.g. "
            "kf.pairwise(df, time='date', every='1w')).",
            option="data",
        )
    if value is None:
        value = "kappa" if "kappa" in frame.columns else "value"
    if value not in frame.columns:
        shown = ", ".join(map(str, frame.columns))
        raise KappaFrameError(
            f"value={value!r} is not a column of the result ({shown}); pass value= as one "
            "of its numeric columns.",
            option="value",
        )
    return value


def _draw_trend(ax: Axes, trend: _Trend) -> None:
    """One line per series, in window order, with its interval as a band around it."""
    for key, rows in trend.series.items():
        rows = np.asarray(rows)[np.argsort(trend.middle.to_numpy()[rows], kind="stable")]
        parts = key if isinstance(key, tuple) else (key,)
        label = ", ".join(str(p) for p in parts) if trend.keys else str(trend.value)
        x = trend.middle.iloc[rows]
        (line,) = ax.plot(x, trend.y[rows], marker="o", markersize=3, label=label)
        if trend.with_ci:
            ax.fill_between(
                x, trend.low[rows], trend.high[rows], color=line.get_color(), alpha=0.18
            )


def _scale_bands(ax: Axes, scale: Any, bottom: float) -> None:
    """The scale's bands as shaded strips, lowest first, each named at the right edge."""
    from matplotlib.colors import Normalize

    lower, upper = scale.limits()
    cmap = colours.kappa_colormap()
    norm = Normalize(vmin=-1.0, vmax=1.0)
    transform = ax.get_yaxis_transform()
    for lo, hi, name in zip(lower, upper, scale.labels, strict=True):
        lo, hi = max(float(lo), bottom), float(hi)
        if hi <= lo:
            continue
        ax.axhspan(lo, hi, color=cmap(norm((lo + hi) / 2)), alpha=0.12, zorder=0, lw=0)
        ax.text(
            1.005, (lo + hi) / 2, str(name), transform=transform, va="center", ha="left",
            fontsize=FONT_MIN, clip_on=False,
        )  # fmt: skip


@declared
@_plain_text
def forest_plot(
    data: Any,
    *,
    scale: Scale | None = "landis_koch",
    ax: Axes | None = None,
) -> Figure:
    """Draw each row of a result as its coefficient with its interval: a forest plot.

    One row per pair (``pairwise``) or method (``overall``), in each group, top to
    bottom in the result's order: the coefficient as a point and, with ``ci_low`` and
    ``ci_high`` (``ci=``), its interval as a horizontal error bar. Behind them the
    interpretation scale's bands (Landis & Koch's by default), shaded in the kappa
    colours and named at the top. An undefined coefficient (NaN) leaves its row empty.
    A new figure is 7 inches wide and a third of an inch a row high, within 20 x 20
    inches.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    KappaFrameError
        ``data`` is not a result of ``pairwise`` or ``overall``.

    See Also
    --------
    describe : the same rows in words.

    Examples
    --------
    >>> import kappaframe as kf
    >>> team = kf.datasets.labeling_team(seed=0)
    >>> res = kf.pairwise(team, ["ana", "ben", "cai"], ci=0.95)
    >>> fig = kf.forest_plot(res)
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['ana and ben', 'ana and cai', 'ben and cai']
    """
    require_matplotlib()
    frame = pandas_result(data, "forest_plot() takes a result frame of pairwise or overall")
    rows = _forest_rows(frame, result_kind(frame))
    fig, ax = _figure_of(ax, 7.0, 1.2 + len(rows.labels) / 3)
    _draw_forest(ax, rows)
    if scale is not None:
        _scale_columns(ax, resolve_scale(scale))
    return fig


@dataclass(frozen=True)
class _Forest:
    """A result's rows as a forest plot draws them."""

    labels: list[str]
    value: np.ndarray
    low: np.ndarray | None
    high: np.ndarray | None
    name: str


def _forest_rows(frame: Any, kind: str) -> _Forest:
    """Labels, values and intervals of each row (the group first in its label)."""
    first = "rater_a" if kind == "pairwise" else "method"
    keys = list(frame.columns[: list(frame.columns).index(first)])
    if kind == "pairwise":
        names = frame["rater_a"].astype(str) + " and " + frame["rater_b"].astype(str)
        value = frame["kappa"]
    else:
        names = frame["method"].astype(str).map(lambda m: COEFFICIENTS.get(m, (m, m))[1])
        value = frame["value"]
    labels = [
        ", ".join([*(f"{k} = {row[k]}" for k in keys), name])
        for name, (_, row) in zip(names, frame.iterrows(), strict=True)
    ]
    with_ci = "ci_low" in frame.columns and "ci_high" in frame.columns
    low = frame["ci_low"].to_numpy(dtype=float) if with_ci else None
    high = frame["ci_high"].to_numpy(dtype=float) if with_ci else None
    name = "kappa" if kind == "pairwise" else "coefficient"
    return _Forest(labels, value.to_numpy(dtype=float), low, high, name)


def _draw_forest(ax: Axes, rows: _Forest) -> None:
    """The points and their error bars, first row at the top."""
    y = np.arange(len(rows.labels), dtype=float)
    xerr = None
    if rows.low is not None and rows.high is not None:
        xerr = np.vstack([rows.value - rows.low, rows.high - rows.value])
    ax.errorbar(rows.value, y, xerr=xerr, fmt="o", color="#111111", capsize=3, markersize=4)
    ax.set_yticks(y, rows.labels)
    ax.set_ylim(len(rows.labels) - 0.5, -0.5)
    ax.set_xlim(-1.0, 1.0)
    ax.axvline(0.0, color="#888888", lw=0.8, zorder=1)
    ax.set_xlabel(rows.name + (" with its interval" if xerr is not None else ""))


def _scale_columns(ax: Axes, scale: Any) -> None:
    """The scale's bands as shaded columns, each named at the top edge."""
    from matplotlib.colors import Normalize

    lower, upper = scale.limits()
    cmap = colours.kappa_colormap()
    norm = Normalize(vmin=-1.0, vmax=1.0)
    transform = ax.get_xaxis_transform()
    for lo, hi, name in zip(lower, upper, scale.labels, strict=True):
        lo, hi = float(lo), float(hi)
        if hi <= lo:
            continue
        ax.axvspan(lo, hi, color=cmap(norm((lo + hi) / 2)), alpha=0.25, zorder=0, lw=0)
        ax.text(
            (lo + hi) / 2, 1.01, str(name), transform=transform, va="bottom", ha="center",
            fontsize=FONT_MIN, rotation=30, clip_on=False,
        )  # fmt: skip
