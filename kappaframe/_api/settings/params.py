"""PARAMS: one declaration per public option, read by everything that needs it.

Each ``Param`` says what an option of kappaframe's public callables is: its name, what its
values may be (a constraint: a ``_types`` choice list, an interval, a checker), its default,
one line saying what it does, the command-line flag that sets it, whether the provenance of
a written table records it, and whether a baseline must have been made with the same value
(``kappaframe report --baseline``). The binding of a call (``bind.declared``) checks each
argument against its declaration before any source is opened; the tests read the table to
check signatures, defaults, annotations, documentation and the command line against it, and
to refuse invalid values on every callable.

An option that means one thing everywhere is declared once (``where=None``). A name with
another meaning or default in some callables is declared once per meaning, each naming the
callables it serves (``where``): every parameter of every public callable matches exactly
one declaration.

Each declaration holds its parameter's one docstring entry (``Param.entry``). A public
function's docstring lists its parameters in its Parameters section as placeholders, one
line each, ``%(name)s`` alone on its line (pandas' spelling: ``%(weights)s``), and
``bind.declared`` puts each declaration's entry there when it wraps the function
(``fill_entries``), so ``help()``, ``inspect.getdoc``, the accessor and the documentation
site show the whole text, the same for every callable the declaration serves. A remark
that holds for one function only stays in that function's docstring (its Notes).
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, get_args

from ..._errors import KappaFrameTypeError
from ..._stats.agreement import GWET_WEIGHT_NAMES, WEIGHT_NAMES, check_weights
from ..._stats.bootstrap import check_bootstrap, make_rng
from ..._stats.family import resolve_stats
from ..._stats.multirater import resolve_methods
from ..._stats.scales import MIN_ITEMS, SCALES, resolve_scale
from ..._types import (
    AlphaCentre,
    Alternative,
    AnnotationTool,
    BandOrder,
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
    MissingDesign,
    Normalization,
    ResultKind,
    SizeAlternative,
    SizeMethod,
    Stat,
    Style,
    TableRows,
    Ties,
    Triangle,
    ZFrom,
)
from ..options import (
    check_level,
    check_max_drop,
    check_min_items,
    check_min_overlap,
    check_population,
    check_reference,
)
from .constraints import (
    ANY,
    Checked,
    Column,
    Columns,
    Constraint,
    Flag,
    Labels,
    Names,
    Number,
    OneOf,
    Options,
    Text,
)

__all__ = [
    "EVERY_PARAMETER",
    "PARAMS",
    "PLACEHOLDER",
    "REQUIRED",
    "Param",
    "declaration",
    "declarations_of",
    "fill_entries",
    "render_entry",
]


class _Required:
    """The default of an option that has none (the caller must give it)."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


@dataclass(frozen=True)
class Param:
    """One public option: its rule, default, meaning and where else it is spelled."""

    name: str
    constraint: Constraint
    doc: str
    default: Any = None
    #: The command-line flag that sets it (``None``: the command line has none).
    flag: str | None = None
    #: The provenance record of a written table keeps its value.
    record: bool = False
    #: A baseline made with another value is refused (its numbers mean something else).
    match: bool = False
    #: The public callables (``"pairwise"``, ``"Counts.from_frame"``) this declaration
    #: serves; ``None``: every callable with a parameter of this name that no other
    #: declaration claims.
    where: tuple[str, ...] | None = None
    #: The flag's help (``kappaframe report --help``).
    help: str | None = None
    #: The flag's help in a subcommand that reads it otherwise, by the callable the
    #: subcommand calls: ``(("items", "seed of --ties random"),)``.
    help_in: tuple[tuple[str, str], ...] = ()
    #: The flag's placeholder in the help (``--ci LEVEL``).
    metavar: str | None = None
    #: How many values the flag takes where the constraint does not say (``"+"``); a list
    #: of columns, names or labels takes one or more.
    nargs: str | None = None
    #: How the command line reads the flag's text where the constraint does not say (a
    #: whole number, a number) or says more (a level in (0, 1)): a reader that
    #: ``kappaframe._cli.flags`` names (``"int"``, ``"float"``, ``"number"``, ``"level"``).
    cli_type: str | None = None
    #: The numpydoc entry of the parameter, less its name: the type line, then the
    #: description indented by four spaces. ``render_entry`` writes it under its name and
    #: ``bind.declared`` puts it where a docstring has the placeholder ``%(name)s``.
    entry: str = ""

    @property
    def choices(self) -> tuple[Any, ...]:
        """The values allowed, where the option takes one of a list."""
        return self.constraint.choices

    def help_for(self, callable_name: str) -> str | None:
        """The flag's help in the subcommand that calls ``callable_name``."""
        return dict(self.help_in).get(callable_name, self.help)


def _choices(literal: Any, *, none: bool = False) -> OneOf:
    return OneOf(tuple(get_args(literal)), none=none)


def _methods(value: Any) -> None:
    resolve_methods(value)


def _label_methods(value: Any) -> None:
    names = [value] if isinstance(value, str) else value
    allowed = get_args(LabelMethod)
    for name in list(names):
        OneOf(allowed).check("method", name)


def _scale(value: Any) -> None:
    resolve_scale(value)


def _axes(value: Any) -> None:
    """One Matplotlib ``Axes`` (not an array of them, as ``plt.subplots`` returns).

    An ``Axes`` exists only once Matplotlib is imported, so it is looked up, not imported.
    """
    axes = sys.modules.get("matplotlib.axes")
    if axes is not None and isinstance(value, axes.Axes):
        return
    hint = (
        " (plt.subplots(...) returned several: pass one, e.g. axes[0])"
        if hasattr(value, "__len__") and not isinstance(value, str)
        else ""
    )
    raise KappaFrameTypeError(
        f"ax must be one matplotlib Axes; got {type(value).__name__}{hint}.", option="ax"
    )


def _normalize(value: Any) -> None:
    if isinstance(value, bool):
        return
    OneOf(tuple(get_args(Normalization))).check("normalize", value)


_LEVEL = Checked(check_level, bad=(0, 1.5, "0.95"), text="a confidence level between 0 and 1")
_LEVEL_OR_NONE = Checked(
    check_level, bad=(0, 1.5, "0.95"), none=True, text="a confidence level between 0 and 1"
)
_SEED = Checked(
    make_rng, bad=(-1, "seed", 1.5), none=True, text="a whole number >= 0 or a NumPy Generator"
)
_ANY_FRAME = "the ratings: a pandas or polars frame, files, or a Dask, DuckDB, Ibis or Spark frame"

PARAMS: tuple[Param, ...] = (
    # -- how to read the ratings ------------------------------------------------------
    Param(
        "data",
        ANY,
        _ANY_FRAME,
        REQUIRED,
        entry=(
            "DataFrame, LazyFrame, Dask DataFrame, files, DuckDB relation, Ibis table or PySpark\n"
            "    DataFrame\n"
            "    The ratings. Wide layout: one row per item, one column per rater. Long layout\n"
            "    (with ``item``, ``rater`` and ``label``, or ``value`` for scores): one row per\n"
            "    rating. A pandas or polars frame is read as it is; a polars LazyFrame gives a\n"
            "    lazy plan where the result can be one (run at ``.collect()``); a Dask DataFrame\n"
            "    is counted per partition; files are read in batches (see ``kappaframe.scan``); a\n"
            "    DuckDB relation, Ibis table (PostgreSQL, BigQuery, ...) or PySpark DataFrame is\n"
            "    counted in its engine where the function only sums."
        ),
    ),
    Param(
        "data",
        ANY,
        "a pilot's ratings (optional)",
        None,
        where=("sample_size",),
        entry=(
            "pandas.DataFrame, polars.DataFrame, polars.LazyFrame, dask or file, optional\n"
            "    A pilot: ratings in the wide or long layout, as in ``pairwise``. Its category\n"
            "    shares (Fleiss' ``pi``: the mean share of each category per item) become\n"
            "    ``props`` and its Fleiss' kappa becomes ``kappa1`` (power, with ``kappa0``\n"
            "    given) or ``kappa0`` (interval), per ``by`` group; ``n_raters`` defaults to its\n"
            "    number of raters. Without it, every number is given."
        ),
    ),
    Param(
        "data",
        ANY,
        "a frame holding the columns",
        None,
        where=("threshold_sweep",),
        entry=(
            "pandas.DataFrame, polars.DataFrame or polars.LazyFrame, optional\n"
            "    Read ``y_true``, ``scores`` and ``by`` as columns of this frame; the result is a\n"
            "    frame of the same library."
        ),
    ),
    Param(
        "data",
        ANY,
        "the ratings, or the first result",
        REQUIRED,
        where=("compare",),
        entry=(
            "frame, or a result of pairwise/overall\n"
            "    Compared in pairs: the ratings, as for ``pairwise`` (pandas, polars DataFrame\n"
            "    or LazyFrame, Dask, files). Compared as results: the first result (pandas or\n"
            "    polars, with ``se``)."
        ),
    ),
    Param(
        "data",
        ANY,
        "a windowed result",
        REQUIRED,
        where=("trend_plot",),
        entry=(
            "pandas.DataFrame, polars.DataFrame or polars.LazyFrame\n"
            "    A windowed result of ``pairwise``, ``overall`` or another table with\n"
            "    ``window_start``, ``window_end`` and the coefficient column."
        ),
    ),
    Param(
        "data",
        ANY,
        "a result of pairwise or overall",
        REQUIRED,
        where=("describe", "forest_plot"),
        entry=(
            "pandas.DataFrame, polars.DataFrame or polars.LazyFrame\n"
            "    A result of ``pairwise`` or ``overall`` (with or without ``ci``); its record\n"
            "    (``attrs``, pandas results only) says how it was made."
        ),
    ),
    Param(
        "style",
        _choices(Style),
        "the style the result is written in",
        "apa",
        entry=(
            '{"apa"}, default "apa"\n'
            "    APA style (7th edition): statistics in the text, values bounded by 1 without\n"
            "    a leading zero."
        ),
    ),
    Param(
        "raters",
        Columns(),
        "the rater columns (wide) or ids to keep (long)",
        None,
        flag="--raters",
        record=True,
        help=(
            "wide: the rater columns (default: every column not in --by); long: the "
            "rater ids to keep"
        ),
        metavar="NAME",
        entry=(
            "column name or list of names, optional\n"
            "    Wide layout: the rater columns, in order (pairs are formed in it); default every\n"
            "    column not in ``by``. Long layout: the rater ids to keep (default all, sorted)."
        ),
    ),
    Param(
        "raters",
        Names(none=True),
        "the stored counts' rater columns",
        None,
        where=("Counts.from_frame",),
        entry=(
            "list, optional\n"
            "    Rater order. Default: the stored positions, else sorted ids. Must list every\n"
            "    rater in ``cells``."
        ),
    ),
    Param(
        "raters",
        Names(),
        "the raters kept, in order",
        REQUIRED,
        where=("Counts.with_raters",),
        entry=(
            "list\n"
            "    The raters of the new counts, in order: every rater of these counts, in an order\n"
            "    they agree with, and raters with no ratings added where wanted."
        ),
    ),
    Param(
        "raters",
        ANY,
        "the two rater columns of a pair table",
        ("rater_a", "rater_b"),
        where=("Counts.from_table",),
        entry=(
            'pair of names, default ``("rater_a", "rater_b")``\n'
            "    The names of the row rater and the column rater, as the ``rater_a`` and\n"
            "    ``rater_b`` columns of ``pairwise`` show them."
        ),
    ),
    Param(
        "item",
        Column(),
        "long layout: the item id column",
        None,
        flag="--item",
        record=True,
        help="long layout: the item id column",
        metavar="COL",
        entry=(
            "column name, optional\n"
            "    Long layout (with ``rater`` and ``label``): the item id column; items are\n"
            "    identified within their group. Wide layout, in ``items`` and\n"
            "    ``category_counts`` (``item`` alone): the column naming each row's item (no\n"
            "    rater); without it a row is named by its index label (pandas, Dask) or its\n"
            "    position from 0 (polars, files)."
        ),
    ),
    Param(
        "rater",
        Column(),
        "long layout: the rater id column",
        None,
        flag="--rater",
        record=True,
        help="long layout: the rater id column",
        metavar="COL",
        entry=(
            "column name, optional\n"
            "    Long layout: the rater id column. A rater who rated an item twice is an error\n"
            "    (see ``duplicates``)."
        ),
    ),
    Param(
        "label",
        Column(),
        "long layout: the label column",
        None,
        flag="--label",
        record=True,
        help="long layout: the label column",
        metavar="COL",
        entry=(
            "column name, optional\n"
            "    Long layout: the label column (for numeric scores, another name of ``value``)."
        ),
    ),
    Param(
        "value",
        Column(),
        "long layout: the score column",
        None,
        entry=(
            "column name, optional\n"
            "    Long layout: the column of the numeric scores (``label`` is accepted for it)."
        ),
    ),
    Param(
        "value",
        Text(none=True),
        "the result column drawn",
        None,
        where=("trend_plot",),
        entry=(
            "str, optional\n    The column drawn; default ``kappa``, else ``value`` (``overall``)."
        ),
    ),
    Param(
        "by",
        Columns(),
        "group columns",
        None,
        flag="--by",
        record=True,
        match=True,
        help="group columns",
        help_in=(("sample_size", "pilot: group columns"),),
        metavar="COL",
        entry=(
            "column name or list of names, optional\n"
            "    Group keys: one result (a block of rows) per group, groups sorted by key. A\n"
            "    missing key is a group of its own, sorted last."
        ),
    ),
    Param(
        "categories",
        Labels(),
        "every label, in order",
        None,
        flag="--categories",
        record=True,
        match=True,
        help="all labels in order (needed for weights when labels are words)",
        help_in=(
            ("items", "all labels in order (the first-category tie rule follows it)"),
            ("sample_size", "pilot: the categories, in order"),
            ("judge_report", "all labels in order (with two, the second is the positive class)"),
        ),
        metavar="LABEL",
        entry=(
            "sequence, optional\n"
            "    All labels, in order. Default: the order of an ordered pandas Categorical or a\n"
            "    polars Enum, else the sorted distinct labels of all rater columns. A label\n"
            "    outside ``categories`` is an error; a category nobody used is kept (a row and a\n"
            "    column of zeros in a table). The order matters for weights."
        ),
    ),
    Param(
        "categories",
        Labels(),
        "the category order of the counts",
        None,
        where=("Counts.from_frame", "Counts.from_table"),
        entry=(
            "sequence, optional\n"
            "    The category order; every label of the counts must be in it, and it may add\n"
            "    categories nobody used (zero rows and columns). ``Counts.from_frame``: default\n"
            "    the stored positions, else as ``kappaframe.pairwise`` orders labels.\n"
            "    ``Counts.from_table``: for an array, the names of the K rows and columns\n"
            "    (default ``0, ..., K-1``; length K); for a frame, default the order of its rows."
        ),
    ),
    Param(
        "duplicates",
        _choices(Duplicates),
        "a rater who rated an item twice",
        "raise",
        flag="--duplicates",
        record=True,
        match=True,
        help="long layout: a rater who rated an item twice (default: error)",
        entry=(
            '{"raise", "first", "last"}, default "raise"\n'
            "    Long layout: a rater who rated the same item more than once is an error\n"
            '    ("raise"), or keeps their first or last rating (in row order).'
        ),
    ),
    Param(
        "trial",
        Column(),
        "repeated trials: the trial id column",
        None,
        flag="--trial",
        record=True,
        match=True,
        help="repeated trials: the column of the trial (occasion) of each rating",
        metavar="COL",
        entry=(
            "column name, optional\n"
            "    Repeated trials (test-retest): the column saying which trial (occasion) a\n"
            "    rating comes from, so that a rater may rate an item once per trial. Long\n"
            "    layout: one row per rating, with ``item``, ``rater`` and the ratings; wide\n"
            "    layout: one row per item and trial, one column per rater, with ``item``\n"
            "    naming the item column. Trial ids must sort (numbers, or text) and be\n"
            "    present on every row; at least two. A pandas or polars DataFrame only."
        ),
    ),
    Param(
        "proportional",
        Flag(),
        "add the line of the differences on the means",
        False,
        entry=(
            "bool, default False\n"
            "    Proportional bias: add the least-squares line of the differences on the means\n"
            "    (``slope``, ``intercept``, ``slope_p_value`` testing slope = 0 on ``n - 2``\n"
            "    degrees of freedom, with ``ci`` ``slope_ci_low`` and ``slope_ci_high``). With\n"
            "    ``trial``, the line of the items' mean differences on their means."
        ),
    ),
    Param(
        "reference",
        Checked(
            check_reference,
            bad=(["c"],),
            none=True,
            text="one rater: a column name (wide) or a rater id (long)",
        ),
        "the rater every other rater is paired with",
        None,
        flag="--reference",
        record=True,
        help="compare every rater with this column only",
        help_in=(
            (
                "items",
                (
                    "the rater (column, or rater id) holding the gold labels: left out of the "
                    "consensus; adds reference_label and correct"
                ),
            ),
        ),
        metavar="COL",
        entry=(
            "column name (long layout: rater id), optional\n"
            "    One rater, added to ``raters`` if they do not list it. Pairs: every other rater\n"
            "    is paired with this one only (a model against the truth, annotators against an\n"
            "    expert): ``rater_a`` is the rater, ``rater_b`` the reference, so a table's rows\n"
            "    are the rater's labels. ``items``: the rater holding the gold labels, left out\n"
            "    of every rater statistic (``n_ratings`` ... ``entropy``, the consensus and the\n"
            "    label columns), adding ``reference_label`` and ``correct``."
        ),
    ),
    Param(
        "min_overlap",
        Checked(
            check_min_overlap,
            none=True,
            bad=(-1, 1.5, "2"),
            text="a whole number >= 0 (0 and None: every pair)",
        ),
        "the fewest shared items a pair needs to be kept",
        None,
        flag="--min-overlap",
        record=True,
        help="long layout with many raters: only pairs that co-rated at least N items",
        metavar="N",
        cli_type="int",
        entry=(
            "int, optional\n"
            "    Leave out the pairs (per group) whose raters share fewer items: no row in a\n"
            '    table of pairs, a NaN cell in a matrix (``stat="n"`` still shows the count).\n'
            "    ``None`` or 0 keeps every pair. With a crowd (long layout, thousands of raters\n"
            "    each labeling a few items) most pairs share nothing: ``min_overlap=1`` keeps\n"
            "    just the pairs that co-rated. Large, sparse long-layout inputs are counted\n"
            "    sparsely, by co-rating pairs only (``kappaframe._count.crowd``); the path never\n"
            "    changes the numbers."
        ),
    ),
    Param(
        "time",
        Column(),
        "a date or datetime column: agreement per time window",
        None,
        flag="--time",
        record=True,
        help="the date or datetime column (ISO 8601 text in CSV)",
        metavar="COL",
        entry=(
            "column name, optional\n"
            "    A date or datetime column: agreement per time window, the windows of polars'\n"
            "    ``group_by_dynamic(time, every=, period=, offset=, closed=, group_by=by)``. The\n"
            "    result gets the key columns ``window_start`` and ``window_end`` (of the time\n"
            "    column's type) after ``by``; windows with no rows are absent, as in polars. A\n"
            "    row is in every window holding its time (in the long layout, each rating by its\n"
            "    own row's time); an item is identified within its group and window. Text is read\n"
            "    as ISO 8601; a time zone or a missing time is an error. A DuckDB relation or\n"
            "    PySpark DataFrame computes each row's window in its counting query when the\n"
            "    windows are one grid (``period`` equal to ``every``)."
        ),
    ),
    Param(
        "every",
        Text(none=True),
        "how often a window starts",
        None,
        flag="--every",
        record=True,
        help="a window starts every DURATION: 2h, 1d, 1w (from Monday), 1mo, 1q, 1y",
        metavar="DURATION",
        entry=(
            "str, optional\n"
            '    How often a window starts, one unit of polars\' duration language: "2h", "1d",\n'
            '    "1w" (weeks start on Monday), "1mo", "1q", "1y". Needed with ``time``.'
        ),
    ),
    Param(
        "period",
        Text(none=True),
        "how long a window lasts",
        None,
        flag="--period",
        record=True,
        help="a window lasts DURATION (default --every); longer gives rolling windows",
        metavar="DURATION",
        entry=(
            "str, optional\n"
            '    How long a window lasts (default ``every``; units may combine: "3d12h"). Longer\n'
            "    than ``every`` gives overlapping (rolling) windows, a row counted in each;\n"
            "    shorter leaves gaps whose rows are in no window."
        ),
    ),
    Param(
        "offset",
        Text(none=True),
        "shift of the window starts",
        None,
        flag="--offset",
        record=True,
        help="shift the window starts, e.g. 6h or -1d",
        metavar="DURATION",
        entry=(
            "str, optional\n"
            '    Shift of the window starts ("6h", "-1d"). A group\'s first window is the one\n'
            "    holding its earliest time."
        ),
    ),
    Param(
        "closed",
        _choices(Closed),
        "which bounds a window holds",
        "left",
        flag="--closed",
        record=True,
        help="which bounds a window holds (default left)",
        entry=(
            '{"left", "right", "both", "none"}, default "left"\n    Which bounds a window holds.'
        ),
    ),
    Param(
        "multi_sep",
        Text(none=True),
        "the separator of several labels in one cell",
        None,
        flag="--multi-sep",
        record=True,
        match=True,
        help=(
            'the separator between the labels of one cell, e.g. "|" ("a|b"); a text cell '
            "is never split without it (Parquet list columns need none)"
        ),
        metavar="SEP",
        entry=(
            "str, optional\n"
            '    The separator between the labels of a text cell (e.g. "|": ``"a|b"`` is ``{"a",\n'
            '    "b"}``, ``""`` the empty set, "no labels"; a missing cell is no rating). Sets\n'
            "    given as Python sets, lists or tuples (pandas) or a ``List`` column (polars)\n"
            "    need no separator; a text cell without one is refused, never split by guessing.\n"
            '    Labels are taken as written: a label with spaces around it (``"a | b"`` with\n'
            '    ``multi_sep="|"``) is refused. With sets, ``categories`` lists the single labels\n'
            "    (each label used must be in it)."
        ),
    ),
    Param(
        "layout",
        _choices(Layout),
        "what the rows are: ratings, counts or a table",
        "ratings",
        entry=(
            '{"ratings", "counts", "table"}, default "ratings"\n'
            '    "ratings": the wide or long layout. "counts": an item x category table of\n'
            "    counts (a frame, or a 2-D NumPy array; statsmodels' ``fleiss_kappa`` table,\n"
            "    irrCAC's ``*.dist`` input): one row per item, one column per category, each cell\n"
            "    how many raters chose that category for that item. Counts may have fractions\n"
            '    except for "krippendorff"; "conger" and "light" need the ratings (who gave which\n'
            '    label) and are refused. With "counts", ``categories`` names the category columns\n'
            "    in order (default every column not in ``by`` or ``item``; for an array, the\n"
            "    labels of its columns, default 0, 1, ...), ``item`` a column of item ids that is\n"
            "    not counted (as ``kappaframe.category_counts`` writes it), ``raters``, ``rater``\n"
            '    and ``label`` do not apply, and there are no time windows. "table": the K x K\n'
            "    contingency table of two raters (irrCAC's ``*.table`` input; rows: the first\n"
            "    rater's labels), read as the ratings it counts, in whole numbers; as in\n"
            "    ``Counts.from_table``, an array's categories are 0, ..., K-1 unless\n"
            "    ``categories=`` names them (irrCAC scores them 1, ..., K: pass\n"
            "    ``categories=range(1, K + 1)`` for its value-based weights)."
        ),
    ),
    # -- weighting and interpretation ---------------------------------------------------
    Param(
        "weights",
        Checked(
            check_weights,
            bad=("lineer", [[0, -1], [1, 0]], 3),
            choices=(*WEIGHT_NAMES, *GWET_WEIGHT_NAMES),
            text="a weighting's name, or a K x K (or 1-D) disagreement matrix",
        ),
        "disagreement weights",
        None,
        flag="--weights",
        record=True,
        match=True,
        help=(
            "weighted kappa: linear, quadratic, or Gwet's ordinal, radical, ratio, "
            "circular, bipolar (irrCAC's definitions)"
        ),
        entry=(
            '{None, "linear", "quadratic"} or array-like of shape (K, K), default None\n'
            "    Disagreement weights over the categories, in the order of ``categories``: a\n"
            '    name ("linear", "quadratic", or Gwet\'s "ordinal", "radical", "ratio",\n'
            '    "circular", "bipolar", irrCAC\'s definitions), or a square, non-negative matrix\n'
            "    with zero diagonal (or a pandas frame labelled by category). An asymmetric\n"
            "    matrix is Cohen's (1968) general weighted kappa: its rows are the first rater's\n"
            "    (``rater_a``'s) labels."
        ),
    ),
    Param(
        "agreement_weights",
        ANY,
        "agreement weights (Gwet's form)",
        None,
        entry=(
            "(K, K) array-like, optional\n"
            "    Agreement weights ``A`` (1 on the diagonal, at most 1), as irrCAC's ``weights=``\n"
            "    takes them, instead of ``weights``: every method then uses ``A`` as given, so\n"
            "    ``p_o`` and ``p_e`` are on its scale, as irrCAC prints them (the kappa-type\n"
            "    values are the same as with ``weights=1 - A``)."
        ),
    ),
    Param(
        "scale",
        Checked(
            _scale,
            bad=("landis", 3, {}),
            choices=tuple(SCALES),
            text="a scale's name, or a {lower_bound: label} mapping",
        ),
        "interpretation bands",
        "landis_koch",
        flag="--scale",
        record=True,
        help="interpretation bands",
        entry=(
            'str or mapping, default "landis_koch"\n'
            '    Interpretation bands: "landis_koch", "fleiss", "altman", "cicchetti",\n'
            '    "mchugh", or ``{lower_bound: label}`` (bounds inclusive).'
        ),
    ),
    Param(
        "scale",
        Checked(
            _scale,
            bad=("landis", 3),
            none=True,
            text="a scale's name, or a {lower_bound: label} mapping",
        ),
        "interpretation bands (None: no bands)",
        "landis_koch",
        where=("heatmap", "trend_plot", "forest_plot"),
        entry=(
            'str, mapping or None, default "landis_koch"\n'
            "    The interpretation bands drawn (on a kappa colour bar, or behind the lines or\n"
            "    intervals), as in ``kappaframe.pairwise``; None draws none."
        ),
    ),
    Param(
        "min_items",
        Checked(
            check_min_items,
            none=True,
            bad=(-1, 2.5, "10"),
            text="a whole number >= 0 (0 and None: every row its band)",
        ),
        "fewer shared items than this get no band",
        MIN_ITEMS,
        flag="--min-items",
        record=True,
        help=(
            "below N items (n) the interpretation is 'too few items', not a band; kappa "
            "is unchanged (default 10; 0 gives every row its band)"
        ),
        metavar="N",
        cli_type="int",
        entry=(
            "int or None, default 10\n"
            "    The fewest items a value needs for a band (``n``, or ``n_items`` for a\n"
            '    coefficient over all raters): below it ``interpretation`` is "too few items",\n'
            '    the lowest category (so ``interpretation >= "moderate"`` never passes a tiny\n'
            "    sample), and the value is unchanged. ``None`` or 0 gives every value its band."
        ),
    ),
    Param(
        "stat",
        _choices(Stat),
        "the statistic in the cells",
        "kappa",
        entry=(
            '{"kappa", "p_o", "p_e", "n"}, default "kappa"\n'
            "    What each cell holds: the pair's kappa, its observed agreement ``p_o``, its\n"
            "    chance agreement ``p_e``, or ``n``, the items both raters rated."
        ),
    ),
    Param(
        "distance",
        _choices(Distance, none=True),
        "distance between label sets",
        None,
        flag="--distance",
        record=True,
        match=True,
        help=(
            "with --overall krippendorff: Krippendorff's alpha with the MASI or Jaccard "
            "distance between two raters' sets"
        ),
        entry=(
            '{"masi", "jaccard"}, optional\n'
            "    Set-valued labels (each rating a set of labels; see ``multi_sep``):\n"
            "    Krippendorff's alpha with ``delta`` the distance between two raters' sets, ``1 -\n"
            '    |A n B| / |A u B|`` ("jaccard") or ``1 - M |A n B| / |A u B|`` ("masi",\n'
            "    Passonneau 2006: ``M`` is 1 for equal sets, 2/3 when one holds the other, 1/3\n"
            "    when they overlap, 0 when disjoint); two empty sets are at distance 0. The\n"
            '    categories are the distinct sets observed. Only with ``method="krippendorff"``,\n'
            "    without ``weights`` or ``level``. The same values as NLTK's\n"
            "    ``AnnotationTask(..., distance=masi_distance).alpha()`` (or\n"
            "    ``jaccard_distance``). With ``multi_sep`` and no ``distance`` every method\n"
            "    compares whole sets (equal or not)."
        ),
    ),
    # -- inference ------------------------------------------------------------------------
    Param(
        "ci",
        Checked(
            check_level, bad=(0, 1.5, "0.95"), none=True, text="a confidence level between 0 and 1"
        ),
        "confidence level of the interval columns",
        None,
        flag="--ci",
        record=True,
        help="confidence level, e.g. 0.95: adds se, se0, ci_low, ci_high, z, p_value",
        metavar="LEVEL",
        cli_type="level",
        entry=(
            "float, optional\n"
            "    Confidence level (e.g. 0.95): adds ``se``, ``ci_low``, ``ci_high``, ``z`` and\n"
            "    ``p_value``, and ``se0``, the standard error under a zero coefficient, where the\n"
            "    coefficient has one. The interval is clipped to [-1, 1]; its quantile is the\n"
            '    normal one unless ``ci_dist="t"`` (see Notes for each coefficient\'s standard\n'
            "    error)."
        ),
    ),
    Param(
        "ci",
        _LEVEL,
        "confidence level of the change's interval",
        0.95,
        where=("against_baseline", "compare"),
        entry=(
            "float, default 0.95\n"
            "    The confidence level of the interval of the change (the difference of the two\n"
            "    coefficients; ``against_baseline`` makes each one-sided decision at\n"
            "    ``(1 + ci) / 2``)."
        ),
    ),
    Param(
        "ci",
        Checked(
            check_level, bad=(0, 1.5, "0.95"), none=True, text="a confidence level between 0 and 1"
        ),
        "confidence level of the intervals (None: none)",
        0.95,
        where=("bland_altman", "bland_altman_plot", "ccc", "icc"),
        entry=(
            "float or None, default 0.95\n"
            "    Confidence level of the intervals (``ci_low``, ``ci_high``; in ``ccc`` also\n"
            "    ``se``); ``None`` leaves them out."
        ),
    ),
    Param(
        "ci_method",
        _choices(CIMethod),
        "the interval's method",
        "analytic",
        flag="--ci-method",
        record=True,
        help=(
            "the interval and se of --ci (pairs and --overall): large-sample (analytic, "
            "default) or the percentile bootstrap over items; with --ci"
        ),
        entry=(
            '{"analytic", "bootstrap"}, default "analytic"\n'
            '    ``"bootstrap"``: ``se`` is the standard deviation and ``ci_low``/``ci_high``\n'
            "    the percentile interval of ``n_boot`` bootstrap replicates (each group's items\n"
            "    resampled with replacement; see Notes). ``se0``, ``z`` and ``p_value`` stay the\n"
            "    large-sample test of a zero coefficient (resampling the observed items does not\n"
            "    simulate the null); ``alternative``, ``ci_dist`` and ``population`` shape only\n"
            "    those. Needs ``ci``."
        ),
    ),
    Param(
        "n_boot",
        Checked(check_bootstrap, bad=(1, 2.5, "1000"), none=True, text="a whole number >= 2"),
        "bootstrap replicates",
        None,
        flag="--n-boot",
        record=True,
        help="bootstrap replicates (default 1000); with --ci-method bootstrap",
        metavar="N",
        cli_type="int",
        entry=(
            "int, optional\n"
            '    Bootstrap replicates (default 1000). Only with ``ci_method="bootstrap"`` (in\n'
            '    ``compare``, ``method="bootstrap"``; in ``icc``, ``ccc`` and ``bland_altman``,\n'
            "    with ``cluster``)."
        ),
    ),
    Param(
        "seed",
        _SEED,
        "seed of the random draws",
        None,
        flag="--seed",
        record=True,
        help=("seed of the bootstrap: the same intervals on every run; with --ci-method bootstrap"),
        help_in=(("items", "seed of --ties random"),),
        metavar="N",
        cli_type="int",
        entry=(
            "int or numpy.random.Generator, optional\n"
            '    Makes the random draws reproducible (the bootstrap of ``ci_method="bootstrap"``\n'
            '    or of ``compare``\'s ``method="bootstrap"``; the cluster bootstrap of ``icc``,\n'
            '    ``ccc`` and ``bland_altman``; ``items``\' ``ties="random"``): the\n'
            "    same numbers on any machine, any number of threads, any row order and every way\n"
            "    in. Only where such draws are made."
        ),
    ),
    Param(
        "seed",
        Number(integer=True),
        "seed of the simulation",
        0,
        where=("sample_size",),
        flag="--seed",
        help="seed of the simulation (more than 5 categories or 6 raters)",
        metavar="N",
        cli_type="whole",
        entry=(
            "int, default 0\n"
            '    The simulation\'s seed (used only when ``method`` is "simulation").'
        ),
    ),
    Param(
        "alternative",
        _choices(Alternative),
        "the test's alternative",
        "two-sided",
        flag="--alternative",
        record=True,
        help=(
            "what p_value tests a zero coefficient against (default two-sided; irrCAC "
            "prints greater); with --ci"
        ),
        entry=(
            '{"two-sided", "greater", "less"}, default "two-sided"\n'
            "    What ``p_value`` tests a zero coefficient against: not zero, above zero\n"
            "    (irrCAC's one-sided p-value) or below zero. Needs ``ci``."
        ),
    ),
    Param(
        "alternative",
        _choices(SizeAlternative),
        "one- or two-sided test",
        "greater",
        flag="--alternative",
        where=("sample_size",),
        help="power: one-sided (greater, default) or two-sided as kappaSize",
        entry=(
            '{"greater", "two-sided"}, default "greater"\n'
            "    Power only: a one-sided test of ``kappa <= kappa0``, or a two-sided one of\n"
            "    ``kappa = kappa0`` at level ``alpha`` (kappaSize's ``Power*`` functions)."
        ),
    ),
    Param(
        "ci_dist",
        _choices(CIDist),
        "the interval's distribution",
        "normal",
        flag="--ci-dist",
        record=True,
        help=(
            "interval quantile: normal (default) or Student's t with n - 1 degrees of "
            "freedom, as irrCAC prints; with --ci"
        ),
        entry=(
            '{"normal", "t"}, default "normal"\n'
            "    The quantile of the interval and the distribution of the test: the normal one,\n"
            "    or Student's t with ``n - 1`` degrees of freedom (``n`` the items of the row,\n"
            "    ``n_items`` for a coefficient over all raters), as irrCAC prints its\n"
            "    intervals. Needs ``ci``."
        ),
    ),
    Param(
        "population",
        Checked(
            check_population,
            bad=(0, "500", True),
            none=True,
            text="a positive number (inf allowed)",
        ),
        "items in the population (finite population correction)",
        None,
        flag="--population",
        record=True,
        match=True,
        help=(
            "items in the population the rated items come from: variances times 1 - n/N "
            "(finite-population correction); with --ci"
        ),
        metavar="N",
        cli_type="float",
        entry=(
            "float, optional\n"
            "    The number N of items in the population the rated items were drawn from\n"
            "    (irrCAC's ``N``): the variances are multiplied by ``1 - n / N`` (the\n"
            "    finite-population correction; ``n`` the items of the row). Needs ``ci``; ``n``\n"
            "    may not exceed it."
        ),
    ),
    Param(
        "benchmark",
        _choices(Benchmark),
        "how a band is chosen",
        "point",
        flag="--benchmark",
        record=True,
        help=(
            "interpretation: the band the estimate is in (point, default), or Gwet's "
            "probabilistic benchmark, the highest band reached with the --ci "
            "probability; adds interpretation_p"
        ),
        entry=(
            '{"point", "probabilistic"}, default "point"\n'
            "    How ``interpretation`` is chosen: the band the estimate falls in, or Gwet's\n"
            "    (2014, ch. 6) probabilistic benchmark, which accounts for the standard error:\n"
            "    going down from the highest band, the first whose cumulative membership\n"
            "    probability reaches the ``ci`` level (irrCAC's ``landis.koch.bf`` and friends,\n"
            "    for every scale). Adds ``interpretation_p``, that probability. Needs ``ci``;\n"
            "    ``kappaframe.benchmark`` gives every band's probability."
        ),
    ),
    Param(
        "z_from",
        _choices(ZFrom),
        "the standard error z divides by",
        "se0",
        flag="--z-from",
        record=True,
        help=(
            "what z and p_value of --overall divide by: se0, the null standard error "
            "(default; Fleiss, Nee & Landis) or se, as irrCAC does; with --ci"
        ),
        entry=(
            '{"se0", "se"}, default "se0"\n'
            "    What ``z`` (and so ``p_value``) divides by: the null standard error ``se0``\n"
            '    where the method has one (unweighted "fleiss": Fleiss, Nee & Landis 1979), or\n'
            "    the estimate's ``se`` as irrCAC does. Needs ``ci``."
        ),
    ),
    Param(
        "kappa0",
        Number(low=-1, high=1, open_low=True, open_high=True),
        "the kappa z and p_value test against",
        0.0,
        where=("pairwise", "Counts.pairwise"),
        flag="--kappa0",
        record=True,
        help=(
            "test kappa = K instead of 0: z = (kappa - K) / se, and its p_value "
            "(default 0, with the null standard error se0); with --ci"
        ),
        metavar="K",
        cli_type="number",
        entry=(
            "float, default 0.0\n"
            "    The value of kappa under the null hypothesis of ``z`` and ``p_value``, in\n"
            "    (-1, 1). 0 divides by the null standard error ``se0``; any other value tests\n"
            "    kappa = kappa0 with ``z = (kappa - kappa0) / se``. Needs ``ci``."
        ),
    ),
    Param(
        "cluster",
        Column(),
        "the column of each item's cluster: cluster-robust intervals",
        None,
        flag="--cluster",
        record=True,
        match=True,
        help=(
            "the column of each item's cluster (a patient, a dialogue): standard errors and "
            "intervals that resample or linearise by cluster; with --ci"
        ),
        metavar="COL",
        entry=(
            "column name, optional\n"
            "    The column holding each item's cluster (a patient with several lesions, a\n"
            "    dialogue with several turns): items of one cluster are not independent. The\n"
            "    point estimates do not change; the standard errors, intervals and tests become\n"
            "    cluster-robust: by default the linearisation (the influence of each item on the\n"
            "    coefficient summed within its cluster), with the bootstrap (``ci_method`` or\n"
            '    ``method="bootstrap"``) the cluster bootstrap (whole clusters resampled). One\n'
            "    item per cluster gives the answer without ``cluster``; a group (or pair) whose\n"
            "    items fall in fewer than two clusters gets no interval (NaN). Long layout: an\n"
            "    item belongs to one cluster. A missing id, a single cluster in the data or an\n"
            "    item in two clusters is an error. Needs the ratings in pandas or polars."
        ),
    ),
    Param(
        "ddof",
        OneOf((1, 0)),
        "divisor of the linearized variances",
        1,
        flag="--ddof",
        record=True,
        match=True,
        help=(
            "--overall's variances divide the sum of squares by n (n - ddof): 1 "
            "(default; irrCAC's raw-data functions) or 0 (irrCAC's *.table functions); "
            "with --ci"
        ),
        entry=(
            "{1, 0}, default 1\n"
            "    The linearized variances divide the sum of squares over the ``n`` items by\n"
            "    ``n (n - ddof)``: 1 as irrCAC's raw-data (``*.raw``) and distribution\n"
            "    (``*.dist``) functions, 0 as its contingency-table (``*.table``) functions\n"
            "    (for two raters: ``se`` times ``sqrt((n - 1) / n)``). Needs ``ci``; not with\n"
            '    "light", whose variance has no such divisor.'
        ),
    ),
    Param(
        "alpha_centre",
        _choices(AlphaCentre),
        "centre of alpha's variance terms",
        "p_a_prime",
        flag="--alpha-centre",
        record=True,
        match=True,
        help=(
            "Krippendorff's alpha standard error (--overall krippendorff): each item "
            "centred on p_a_prime (default; Gwet's irrCAC >= 1.2) or p_a (CRAN irrCAC "
            "1.0, irrCAC for Python); with --ci"
        ),
        entry=(
            '{"p_a_prime", "p_a"}, default "p_a_prime"\n'
            "    Where Krippendorff's alpha centres each item's term of its variance when items\n"
            "    have different numbers of labels: on ``p_a'`` (Gwet's irrCAC since 1.2) or on\n"
            '    ``p_a`` (CRAN\'s irrCAC 1.0 and irrCAC for Python, whose ``ci_dist="t"``\n'
            "    intervals then also take the pairable items minus 1 as degrees of freedom).\n"
            '    Needs ``ci`` and "krippendorff".'
        ),
    ),
    Param(
        "stats",
        Checked(
            resolve_stats,
            none=True,
            bad=("no_such_stat", 3),
            text='"all", or names of the per-pair statistics',
        ),
        "extra per-pair statistics",
        None,
        flag="--stats",
        record=True,
        help='extra coefficients per pair, or "all"',
        metavar="NAME",
        nargs="+",
        entry=(
            '"all" or list of str, optional\n'
            "    More coefficients of each pair's table, as extra columns (in this order with\n"
            '    ``"all"``): ``kappa_max`` (Umesh, Peterson & Sauber 1989), ``pabak``,\n'
            "    ``prevalence_index``, ``bias_index`` (Byrt, Bishop & Carlin 1993), ``scott_pi``,\n"
            "    ``gwet_ac1``, ``bennett_s`` (Bennett et al. 1954; Brennan & Prediger 1981),\n"
            "    ``quantity_disagreement``, ``allocation_disagreement`` (Pontius & Millones\n"
            "    2011). See Notes for their formulas and which ones use ``weights``."
        ),
    ),
    Param(
        "level",
        Number(low=0, high=1, open_low=True, open_high=True),
        "the probability a band must reach",
        0.95,
        where=("benchmark",),
        entry=("float, default 0.95\n    The cumulative probability the chosen band must reach."),
    ),
    Param(
        "level",
        _choices(Level),
        "the labels' level of measurement",
        "nominal",
        record=True,
        match=True,
        where=("overall", "KappaExpr.alpha"),
        entry=(
            '{"nominal", "ordinal", "interval", "ratio"}, default "nominal"\n'
            "    Krippendorff's metric: nominal ``[c != k]``; ordinal on the category order and\n"
            "    the counts of the values in between; interval ``(c - k)^2`` and ratio\n"
            "    ``((c - k) / (c + k))^2`` on the label values (which must be numbers). Only with\n"
            '    ``method="krippendorff"``. Ordinal needs a known category order: numbers, or\n'
            "    text labels with ``categories=``, an ordered Categorical or an Enum (text labels\n"
            "    are not sorted alphabetically behind your back)."
        ),
    ),
    Param(
        "method",
        _choices(CompareMethod, none=True),
        "the test of two kappas",
        None,
        where=("compare",),
        entry=(
            '{"delta", "bootstrap"}, optional\n'
            '    Compared in pairs: the test (default "delta"). Two results are always compared\n'
            "    by the normal test on their standard errors."
        ),
    ),
    Param(
        "method",
        Checked(_methods, bad=("fliess", 3), text="a coefficient's name or a list of them"),
        "the coefficients",
        "fleiss",
        where=("overall",),
        entry=(
            'str or list of str, default "fleiss"\n'
            '    One or more of "fleiss", "light", "conger", "krippendorff", "gwet_ac1",\n'
            '    "gwet_ac2", "brennan_prediger", "percent": one row per method (per group), in\n'
            "    this order."
        ),
    ),
    Param(
        "method",
        _choices(CategoryMethod),
        "the per-category coefficient",
        "fleiss",
        where=("per_category",),
        entry=('{"fleiss", "cohen"}, default "fleiss"\n    All raters together, or each pair.'),
    ),
    Param(
        "method",
        Checked(_label_methods, bad=("fliess",), text="a coefficient's name or a list of them"),
        "the coefficient per label",
        "fleiss",
        where=("per_label",),
        entry=(
            'str or list of str, default "fleiss"\n'
            '    "cohen" (one row per pair of raters and label), or one or more of "fleiss",\n'
            '    "light", "conger", "krippendorff", "gwet_ac1", "brennan_prediger", "percent"\n'
            "    (one row per method and label, over all raters), as in ``overall``."
        ),
    ),
    Param(
        "method",
        _choices(SizeMethod),
        "closed form or simulation",
        "auto",
        where=("sample_size",),
        entry=(
            '{"auto", "goodness-of-fit", "simulation"}, default "auto"\n'
            '    "auto": the goodness-of-fit closed form where kappaSize has one (2 to 5\n'
            "    categories, 2 to 6 raters), else the simulation; or either one by name\n"
            '    ("goodness-of-fit" outside that range is an error).'
        ),
    ),
    Param(
        "per",
        _choices(TableRows),
        "rows of table_tests",
        "pair",
        entry=(
            '{"pair", "category"}, default "pair"\n'
            '    "pair": one row per pair of raters (per group) with the tests and indices;\n'
            '    "category": one row per pair and category with its specific agreement.'
        ),
    ),
    Param(
        "ci",
        _LEVEL_OR_NONE,
        "confidence level of the specific agreement intervals",
        None,
        where=("table_tests",),
        entry=(
            "float, optional\n"
            "    Confidence level (e.g. 0.95) of the intervals of specific agreement: with\n"
            '    ``per="pair"`` (two categories) ``positive_ci_low`` ... ``negative_ci_high``,\n'
            '    with ``per="category"`` ``se``, ``ci_low`` and ``ci_high``. The\n'
            "    delta-method interval of Graham & Bull (1998), clipped to [0, 1]."
        ),
    ),
    # -- numeric ratings ------------------------------------------------------------------
    Param(
        "agreement",
        Number(low=0, open_low=True),
        "the limits' multiple of the SD",
        1.96,
        entry=(
            "float, default 1.96\n"
            "    The limits' distance from the bias, in standard deviations of the differences\n"
            "    (pingouin's ``agreement``, BlandAltmanLeh's ``two``)."
        ),
    ),
    Param(
        "matrix",
        Flag(),
        "also the square rater x rater matrix",
        False,
        entry=(
            "bool, default False\n"
            "    Return the rater x rater frame of ``ccc`` instead (as ``kappaframe.matrix``\n"
            "    lays it out; the diagonal is 1, NaN for a rater whose ratings do not vary)."
        ),
    ),
    Param(
        "correct",
        Flag(),
        "correct for tied ranks",
        True,
        entry=(
            "bool, default True\n"
            "    Correct for ties (R irr's ``kendall(ratings, correct=TRUE)``: W_t). Without ties\n"
            "    both give the same W."
        ),
    ),
    Param(
        "missing",
        _choices(MissingDesign),
        "what to do with items some raters did not score",
        "listwise",
        where=("icc", "kendall_w"),
        entry=(
            '{"listwise", "available"}, default "listwise"\n'
            '    ``"listwise"``: only the items every rater scored are used (the others are\n'
            '    counted in ``n_dropped``). ``"available"``: every rating is used, whoever gave\n'
            "    it (incomplete and crowd designs: each item scored by some of the raters); the\n"
            "    result adds ``design``, ``n_ratings``, ``ratings_min``, ``ratings_max`` and\n"
            "    ``k0`` (``kendall_w``: ``kq``). A DuckDB or PySpark input is refused there."
        ),
    ),
    # -- consensus ------------------------------------------------------------------------
    Param(
        "consensus",
        _choices(ConsensusModel),
        "how an item's label is chosen",
        "majority",
        flag="--consensus",
        record=True,
        help="majority vote (default) or Dawid-Skene's model of each rater's confusion",
        entry=(
            '{"majority", "dawid-skene"}, default "majority"\n'
            '    ``"majority"``: the most chosen category, ``support`` its share of the ratings.\n'
            '    ``"dawid-skene"``: the most probable true category under Dawid and Skene\'s\n'
            "    (1979) model (EM over each rater's confusion matrix, started from the majority\n"
            "    vote's shares, deterministic), ``support`` its posterior probability; fitted\n"
            "    per group."
        ),
    ),
    Param(
        "ties",
        _choices(Ties),
        "an item whose top labels tie",
        "missing",
        flag="--ties",
        record=True,
        help=(
            "a tie for the consensus: no label (missing, default), the first category in "
            "order, or a random one (with --seed)"
        ),
        entry=(
            '{"missing", "first-category", "random"}, default "missing"\n'
            "    When the most chosen (most probable) categories tie: no consensus (``consensus``\n"
            "    missing, ``tied`` True); the first of them in the category order (which text\n"
            "    labels must declare: ``categories=``, an ordered Categorical or an Enum); or one\n"
            "    of them drawn with ``seed``. ``tied`` says which items tied whatever the rule."
        ),
    ),
    Param(
        "max_iter",
        Number(low=1, integer=True),
        "Dawid-Skene's iteration limit",
        100,
        flag="--max-iter",
        record=True,
        help="dawid-skene: the most iterations (default 100)",
        metavar="N",
        entry=(
            "int, default 100\n"
            "    Dawid-Skene's EM: the most iterations (a ``ConvergenceWarning`` when they run\n"
            "    out)."
        ),
    ),
    Param(
        "tol",
        Number(low=0, open_low=True),
        "Dawid-Skene's tolerance",
        1e-7,
        flag="--tol",
        record=True,
        help="dawid-skene: stop when no posterior moves by more (default 1e-7)",
        metavar="X",
        entry=(
            "float, default 1e-7\n"
            "    Dawid-Skene's EM: stop when the log-likelihood per rating rises by less than\n"
            "    this."
        ),
    ),
    Param(
        "disagreements",
        Flag(),
        "only the items raters disagree on",
        False,
        flag="--disagreements",
        record=True,
        help=("the queue: only the items whose raters do not all agree, most contested first"),
        entry=(
            "bool, default False\n"
            "    The queue: only the items whose raters do not all agree (two or more distinct\n"
            "    labels), most contested first."
        ),
    ),
    Param(
        "min_p",
        Number(low=0, high=1, none=True),
        "the lowest support kept",
        None,
        flag="--min-p",
        record=True,
        help="the queue: only the items whose p_i is below X",
        metavar="X",
        cli_type="share",
        entry=(
            "float, optional\n"
            "    The queue: only the items whose ``p_i`` is below ``min_p`` (the least agreement\n"
            "    an item needs to pass; items with one rating have no ``p_i`` and never fall\n"
            "    below it)."
        ),
    ),
    Param(
        "max_support",
        Number(low=0, high=1, none=True),
        "the highest support kept",
        None,
        flag="--max-support",
        record=True,
        help="the queue: only the items whose consensus has at most this share X",
        metavar="X",
        cli_type="share",
        entry=(
            "float, optional\n"
            "    The queue: only the items whose ``support`` is at most ``max_support`` (e.g.\n"
            "    0.6: no category has more than 60% of the ratings)."
        ),
    ),
    Param(
        "labels",
        Flag(none=True),
        "a column per label",
        None,
        flag="--labels",
        record=True,
        where=("items",),
        help="one column per rater with their label (default: in the queue only)",
        entry=(
            "bool, optional\n"
            "    Add one column per rater (named by the rater column, or the rater id in the long\n"
            "    layout) with that rater's label of the item, missing where they gave none.\n"
            "    Default: with the queue, yes; else no."
        ),
    ),
    # -- arrays ---------------------------------------------------------------------------
    Param(
        "y1",
        ANY,
        "the first rater's labels",
        REQUIRED,
        entry=(
            "array-like of shape (n_samples,)\n"
            "    The first rater's labels (a list, NumPy array, pandas or polars Series).\n"
            "    Missing labels (NaN, None, pd.NA, null) are dropped pair-wise."
        ),
    ),
    Param(
        "y2",
        ANY,
        "the second rater's labels",
        REQUIRED,
        entry=(
            "array-like of shape (n_samples,)\n"
            "    The second rater's labels, one per label of ``y1``; missing ones likewise."
        ),
    ),
    Param(
        "other",
        ANY,
        "the other rater's column, in a polars expression",
        REQUIRED,
        entry=(
            "polars.Expr or str\n"
            '    The other rater\'s labels: an expression (``pl.col("ben")``) or a column\n'
            "    name. Missing labels (null) are dropped pair by pair."
        ),
    ),
    Param(
        "others",
        ANY,
        "the other raters' columns, in a polars expression",
        REQUIRED,
        entry=(
            "polars.Expr or str\n"
            '    The other raters\' labels, one expression (``pl.col("ben")``) or column name\n'
            "    each; the column this namespace is on is the first rater."
        ),
    ),
    Param(
        "labels",
        Labels(),
        "every label, in order",
        None,
        where=("cohen_kappa",),
        entry=(
            "sequence, optional\n"
            "    All labels, in order (the order weights use). Unlike scikit-learn, a label\n"
            "    outside ``labels`` is an error, not silently ignored."
        ),
    ),
    Param(
        "sample_weight",
        Checked(
            lambda v: _array_like("sample_weight", v),
            bad=("w", 3),
            none=True,
            text="an array of one number per item",
        ),
        "a weight per item",
        None,
        entry=(
            "array-like of shape (n_samples,), optional\n"
            "    A weight per item: each pair of labels counts this much in the table."
        ),
    ),
    Param(
        "replace_undefined_by",
        Number(nan=True),
        "kappa where it is undefined",
        math.nan,
        entry=(
            "float, default NaN\n"
            "    Returned when kappa is undefined (no pairs, or chance agreement 1)."
        ),
    ),
    Param(
        "a",
        Column(none=False),
        "the first rater column",
        REQUIRED,
        entry=(
            "column name\n"
            "    The first rater column: its labels are the rows of the table (and of an\n"
            "    asymmetric ``weights`` matrix)."
        ),
    ),
    Param(
        "b",
        Column(none=False),
        "the second rater column",
        REQUIRED,
        entry=(
            "column name\n    The second rater column: its labels are the columns of the table."
        ),
    ),
    Param(
        "first",
        ANY,
        "the first coefficient: a pair or a result",
        REQUIRED,
        entry=(
            "tuple of two rater names, or a result of pairwise/overall\n"
            "    Compared in pairs: the first pair ``(rater_a, rater_b)`` (with an asymmetric\n"
            "    weight matrix, ``rater_a``'s labels are its rows). Compared as results: the\n"
            "    second result, of the same function."
        ),
    ),
    Param(
        "second",
        ANY,
        "the second coefficient: a pair or a result",
        None,
        entry=(
            "tuple of two rater names, optional\n"
            "    Compared in pairs: the second pair. Leave it out to compare two results."
        ),
    ),
    # -- the gate -------------------------------------------------------------------------
    Param(
        "result",
        ANY,
        "this run's result",
        REQUIRED,
        entry=(
            "pandas or polars DataFrame (or LazyFrame)\n"
            "    The result of now: ``pairwise(..., ci=...)`` or ``overall(..., ci=...)``.\n"
            "    Columns it has from an earlier comparison (``baseline``, ``change``,\n"
            "    ``change_low``, ``change_high``, ``state``) are replaced, and its ``missing``\n"
            "    rows left out."
        ),
    ),
    Param(
        "baseline",
        ANY,
        "an earlier run's result",
        REQUIRED,
        flag="--baseline",
        help=(
            "the table an earlier run wrote with --ci and --output (csv, tsv, json, "
            "jsonl, parquet; the .overall table to gate --overall) or stored counts; "
            "needs --ci and --max-drop; adds baseline, change, change_low, change_high, "
            "state"
        ),
        metavar="OLD",
        entry=(
            "pandas or polars DataFrame (or LazyFrame)\n"
            "    Keyword only, so that the two results cannot be swapped unnoticed (a drop read\n"
            "    as a rise). The earlier result, with the same key columns, made with the same\n"
            "    weights, categories and coefficient. A pandas result records its weights,\n"
            "    categories (with weights), Krippendorff level, conventions and set distance, and\n"
            "    two that record different ones are refused; a polars result or a table read from\n"
            "    CSV records nothing: compare like with like (``kappaframe report --baseline``\n"
            "    checks the baseline file's provenance). Its rows in state ``missing`` (an\n"
            "    earlier comparison's record of rows its own result lacked) are not rows of that\n"
            "    result and are left out."
        ),
    ),
    Param(
        "max_drop",
        Checked(check_max_drop, bad=(-0.1, 2, "0.1"), text="a number in [0, 2)"),
        "the largest drop that does not matter",
        REQUIRED,
        flag="--max-drop",
        help=(
            "with --baseline: the largest drop that does not matter, in [0, 2); exit 1 "
            "when some row's change interval lies wholly below -D, 3 when some straddles "
            "it"
        ),
        metavar="D",
        cli_type="drop",
        entry=(
            "float\n"
            "    The largest drop of the coefficient that does not matter, in [0, 2), e.g. 0.1.\n"
            "    With 0, a row is ``ok`` only when its interval lies wholly at or above 0."
        ),
    ),
    Param(
        "coeff",
        Number(),
        "the coefficient",
        REQUIRED,
        entry=("float\n    The estimate (e.g. a ``kappa`` or ``value`` of a result), in [-1, 1]."),
    ),
    Param(
        "se",
        Number(low=0),
        "its standard error",
        REQUIRED,
        entry=("float\n    Its standard error (the ``se`` column), non-negative."),
    ),
    Param(
        "order",
        _choices(BandOrder),
        "the order bands are cumulated in",
        "highest-first",
        entry=(
            '{"highest-first", "as-given"}, default "highest-first"\n'
            "    The order of the rows, in which ``cumulative`` adds up: highest band first, or a\n"
            "    mapping's own order (irrCAC's ``interpret``, which cumulates the bands in the\n"
            "    order its scale lists them; the built-in scales are listed highest first there\n"
            "    too). ``chosen`` is Gwet's reading either way: the first band from the top whose\n"
            "    cumulative probability from the top reaches ``level``."
        ),
    ),
    # -- pictures -------------------------------------------------------------------------
    Param(
        "ax",
        Checked(_axes, bad=("ax", 3), none=True, text="one Matplotlib Axes"),
        "the Axes to draw on",
        None,
        entry=("matplotlib Axes, optional\n    Draw into this Axes; default a new figure."),
    ),
    Param(
        "normalize",
        Checked(_normalize, bad=("rows", 3), none=True, text='"true", "pred", "all" or a boolean'),
        "counts as shares of rows, columns or all",
        None,
        entry=(
            '{"true", "pred", "all"}, bool or None, default None\n'
            "    As scikit-learn's ``ConfusionMatrixDisplay.from_predictions(normalize=)``, with\n"
            '    ``a`` as the truth: ``"true"`` shows each row as shares of its items (rows sum\n'
            '    to 1), ``"pred"`` each column (columns sum to 1), ``"all"`` shares of all\n'
            '    counted items; None shows counts. ``True`` means ``"all"`` and ``False`` None.\n'
            "    Shares are written with two decimals; an empty cell is left blank (a share that\n"
            '    rounds to 0 reads "<0.01").'
        ),
    ),
    Param(
        "fail_under",
        Number(none=True),
        "mark cells below this bar",
        None,
        flag="--fail-under",
        help=(
            "exit 1 when some row's --fail-on value is below X, a number in [-1, 1] (any "
            "finite number for --fail-on n or z); rows with no value do not count"
        ),
        metavar="X",
        cli_type="bar",
        entry=(
            "float, optional\n"
            "    A bar (the command line's ``--fail-under``): cells whose value is below it are\n"
            "    outlined, and the colour bar carries a line at it. A value that two decimals\n"
            "    would round onto the other side of the bar is written with more (0.196 against\n"
            '    0.2 reads "0.196"), so what is outlined always reads as below the bar.'
        ),
    ),
    Param(
        "annotate",
        Flag(),
        "write the value in each cell",
        True,
        entry=(
            "bool, default True\n"
            "    Write each value in its cell (two decimals; counts as integers)."
        ),
    ),
    Param(
        "show_n",
        Flag(),
        "write the shared items in each cell",
        False,
        entry=(
            "bool, default False\n"
            "    Also write in each cell the number of items both raters labelled (``n=``)."
        ),
    ),
    Param(
        "triangle",
        _choices(Triangle, none=True),
        "draw one triangle only",
        None,
        entry=(
            '{"lower", "upper"}, optional\n'
            "    Draw only the cells below (or above) the diagonal: the matrix is symmetric, so\n"
            "    each pair shows once. Default: every cell."
        ),
    ),
    Param(
        "ncols",
        Number(integer=True, none=True),
        "panels per row",
        None,
        entry=("int, optional\n    Panels per row when grouped; default as many as fit the width."),
    ),
    Param(
        "title",
        Text(none=True),
        "the title",
        None,
        entry=('str, optional\n    Default "<value> over time".'),
    ),
    # -- the judge's report ---------------------------------------------------------------
    Param(
        "judge",
        Column(none=False),
        "the judge's column (an LLM judge, a classifier)",
        REQUIRED,
        flag="--judge",
        help="the judge's column (an LLM judge, a classifier): its labels are the predictions",
        metavar="COL",
        entry=(
            "column name\n"
            "    The judge's labels (an LLM judge, a classifier): the rows of its table against\n"
            "    the gold, the predictions of precision and recall."
        ),
    ),
    Param(
        "gold",
        Column(none=False),
        "the gold labels' column",
        REQUIRED,
        flag="--gold",
        help="the gold labels' column (humans, the truth) the judge is measured against",
        metavar="COL",
        entry=(
            "column name\n"
            "    The gold labels (humans, the truth) the judge is measured against: the\n"
            "    columns of its table, the truth of precision and recall."
        ),
    ),
    Param(
        "ci",
        _LEVEL,
        "confidence level of the judge's intervals",
        0.95,
        flag="--ci",
        where=("judge_report",),
        help="confidence level of the intervals of the accuracy, kappa and the corrected "
        "prevalence",
        metavar="LEVEL",
        cli_type="level",
        entry=(
            "float, default 0.95\n"
            "    Confidence level of the intervals of the accuracy (Wilson's), of kappa and of\n"
            "    the corrected prevalence."
        ),
    ),
    # -- threshold sweep ------------------------------------------------------------------
    Param(
        "y_true",
        ANY,
        "the truth (array or column)",
        REQUIRED,
        entry=(
            "array-like of shape (n,), or a column name with ``data``\n"
            "    Binary truth: ``{0, 1}``, ``{-1, 1}`` or booleans (positive: 1 / True), or any\n"
            "    two labels with ``pos_label``. Missing values drop the row."
        ),
    ),
    Param(
        "scores",
        ANY,
        "the scores (array or column)",
        REQUIRED,
        entry=(
            "array-like of shape (n,), or a column name with ``data``\n"
            "    Real-valued scores (probabilities, logits, ...); higher means more positive.\n"
            "    NaN (or null) drops the row."
        ),
    ),
    Param(
        "thresholds",
        ANY,
        "the thresholds (default every distinct score)",
        None,
        entry=(
            "array-like, optional\n"
            "    Thresholds to evaluate, in any order (the output is sorted). Default: every\n"
            "    distinct score (of the group), as in ``sklearn.metrics.roc_curve``."
        ),
    ),
    Param(
        "pos_label",
        ANY,
        "the positive class",
        None,
        entry=("optional\n    The positive label of ``y_true``, when it is not 1 / True."),
    ),
    # -- preference judges -----------------------------------------------------------------
    Param(
        "data",
        ANY,
        "a judge's verdicts in both orders",
        REQUIRED,
        where=("swap_consistency", "resolve_swaps"),
        entry=(
            "pandas.DataFrame, polars.DataFrame or polars.LazyFrame\n"
            "    One row per question (per judge and group): the question's id and the judge's\n"
            "    verdict with the answers shown in each order. The result is a frame of the\n"
            "    same library (a LazyFrame is read when this is called)."
        ),
    ),
    Param(
        "question",
        Column(none=False),
        "the question id column",
        REQUIRED,
        where=("swap_consistency", "resolve_swaps"),
        entry=(
            "column name\n"
            "    The question's id. A question appears once per judge and group; a missing id\n"
            "    is an error."
        ),
    ),
    Param(
        "first",
        Column(none=False),
        "the verdict with the answers shown as (A, B)",
        REQUIRED,
        where=("swap_consistency", "resolve_swaps"),
        entry=(
            "column name\n"
            "    The verdict with answer A shown first and answer B second: ``labels[0]`` if\n"
            "    the answer shown first won, ``labels[1]`` if the one shown second won,\n"
            "    ``labels[2]`` for a tie; missing if the judge gave none."
        ),
    ),
    Param(
        "second",
        Column(none=False),
        "the verdict with the answers shown as (B, A)",
        REQUIRED,
        where=("swap_consistency", "resolve_swaps"),
        entry=(
            "column name\n"
            "    The verdict with the answers swapped (answer B shown first), in the same\n"
            "    positional labels: a judge that prefers answer A in both orders says\n"
            "    ``labels[0]`` in ``first`` and ``labels[1]`` here."
        ),
    ),
    Param(
        "judge",
        Column(),
        "the judge id column",
        None,
        where=("swap_consistency", "resolve_swaps"),
        entry=(
            "column name, optional\n"
            "    The judge's id (a model, a prompt): one result per judge, within each ``by``\n"
            "    group. Without it every row is one judge's."
        ),
    ),
    Param(
        "labels",
        Labels(none=False),
        "the verdicts (shown first, shown second, tie)",
        ("A", "B", "tie"),
        where=("swap_consistency", "resolve_swaps"),
        entry=(
            'sequence of three labels, default ``("A", "B", "tie")``\n'
            "    The verdicts as the judge's output spells them, by position: the answer shown\n"
            "    first won, the answer shown second won, a tie. A verdict outside them is an\n"
            "    error naming its column and value (nothing is guessed)."
        ),
    ),
    Param(
        "ci",
        _LEVEL_OR_NONE,
        "confidence level of the Wilson intervals (None: none)",
        0.95,
        where=("swap_consistency",),
        entry=(
            "float or None, default 0.95\n"
            "    Confidence level of each share's Wilson score interval (``*_low``,\n"
            "    ``*_high``); ``None`` leaves them out."
        ),
    ),
    # -- sample size ----------------------------------------------------------------------
    Param(
        "kappa0",
        Number(none=True),
        "kappa under the null",
        None,
        flag="--kappa0",
        help=("power: the kappa to reject; interval: the anticipated kappa (a pilot gives it)"),
        metavar="K",
        cli_type="number",
        entry=(
            "float, optional\n"
            "    Power: the kappa to reject (``H0: kappa <= kappa0``), in [0, 1). Interval: the\n"
            "    anticipated kappa (from the pilot if there is one)."
        ),
    ),
    Param(
        "kappa1",
        Number(none=True),
        "kappa to detect",
        None,
        flag="--kappa1",
        help="power: the kappa to detect, above --kappa0 (a pilot gives it)",
        metavar="K",
        cli_type="number",
        entry=(
            "float, optional\n"
            "    Power: the kappa the study is to detect, above ``kappa0`` and below 1 (from the\n"
            "    pilot if there is one)."
        ),
    ),
    Param(
        "props",
        ANY,
        "the categories' expected shares",
        None,
        flag="--props",
        help="the share of each category, summing to 1 (a pilot gives them)",
        metavar="P",
        nargs="+",
        cli_type="number",
        entry=(
            "sequence of float, optional\n"
            "    The anticipated share of each category, each in (0, 1), summing to 1 (within\n"
            "    0.001; never rescaled). Needed without a pilot; not with one."
        ),
    ),
    Param(
        "n_raters",
        Number(none=True),
        "raters per item",
        None,
        flag="--n-raters",
        help="raters per item (default: the pilot's raters, or 2)",
        metavar="M",
        cli_type="whole",
        entry=(
            "int, optional\n"
            "    Raters per item in the planned study (at least 2). Default: the pilot's raters,\n"
            "    or 2."
        ),
    ),
    Param(
        "alpha",
        Number(),
        "the test's significance level",
        0.05,
        flag="--alpha",
        help="level of the test (0.05)",
        metavar="A",
        cli_type="number",
        entry=(
            "float, default 0.05\n"
            "    The test's level (power) or one minus the confidence level (interval), in (0, 1)."
        ),
    ),
    Param(
        "power",
        Number(),
        "the test's power",
        0.8,
        flag="--power",
        help="power: its chance (0.8)",
        metavar="P",
        cli_type="number",
        entry=(
            "float, default 0.8\n"
            "    The chance of rejecting ``kappa0`` when kappa is ``kappa1``, in (0, 1)."
        ),
    ),
    Param(
        "width",
        Number(none=True),
        "the interval's full width",
        None,
        flag="--width",
        help="interval: its full width around --kappa0",
        metavar="W",
        cli_type="number",
        entry=(
            "float, optional\n"
            "    The full width of a two-sided interval: limits ``kappa0 -/+ width / 2``."
        ),
    ),
    Param(
        "lower",
        Number(none=True),
        "the interval's lower limit",
        None,
        flag="--lower",
        help="interval: its lower limit",
        metavar="K",
        cli_type="number",
        entry=(
            "float, optional\n"
            "    The lowest limit the interval may reach: with ``upper`` a two-sided interval\n"
            "    (kappaSize's ``kappaL``, ``kappaU``), alone a one-sided lower limit."
        ),
    ),
    Param(
        "upper",
        Number(none=True),
        "the interval's upper limit",
        None,
        flag="--upper",
        help="interval: its upper limit",
        metavar="K",
        cli_type="number",
        entry=(
            "float, optional\n"
            "    The highest limit the interval may reach, with ``lower`` (kappaSize's\n"
            "    ``kappaU``): a two-sided interval."
        ),
    ),
    Param(
        "n_items",
        Number(none=True),
        "items available",
        None,
        flag="--n-items",
        help="the other way round: the expected lower limit N items give around --kappa0",
        metavar="N",
        cli_type="whole",
        entry=(
            "int, optional\n"
            "    The items the study has (more than 10): asks for the expected one-sided lower\n"
            "    limit around ``kappa0`` instead of a number of items."
        ),
    ),
    # -- files and records ----------------------------------------------------------------
    Param(
        "source",
        ANY,
        "files, a directory, a glob or a file object",
        REQUIRED,
        entry=(
            "path, glob, folder, list of them, or pyarrow.dataset.Dataset\n"
            "    A folder stands for the data files in it and in its subfolders (known suffixes,\n"
            "    compressed too; hidden files left out), as on the command line."
        ),
    ),
    Param(
        "format",
        Text(none=True),
        "the files' format (default from the suffix)",
        None,
        entry=(
            '{"parquet", "csv", "jsonl"}, optional\n'
            "    Default: from the file suffix (``.parquet``/``.pq``; ``.csv``/``.tsv``/``.tab``/\n"
            "    ``.txt``; ``.jsonl``/``.ndjson``), after a compression suffix (``.gz``,\n"
            "    ``.bz2``, ``.xz``, ``.zst``): compressed CSV and JSON lines are decompressed as\n"
            "    they are read."
        ),
    ),
    Param(
        "batch_size",
        Number(low=1, integer=True),
        "rows per batch",
        262_144,
        entry=(
            "int, default 262144\n    Rows per batch (JSON lines: at most 65,536 lines a batch)."
        ),
    ),
    Param(
        "csv_options",
        Options(),
        "options of the CSV reader",
        None,
        entry=(
            "dict, optional\n"
            '    ``{"parse": {...}, "convert": {...}, "read": {...}}``: keyword arguments of\n'
            "    ``pyarrow.csv.ParseOptions``, ``ConvertOptions`` and ``ReadOptions`` (e.g.\n"
            '    ``{"parse": {"delimiter": "\\t"}}``). As on the command line, the separator is\n'
            "    sniffed unless given, only an empty cell is missing unless ``null_values`` says\n"
            "    otherwise, and labels are compared as written (``01``, ``1`` and ``1.0`` are\n"
            "    three labels, ``true`` and ``TRUE`` two): the rater columns become numbers\n"
            "    together only when every label is a plain number and no two name the same\n"
            "    number, so that weights order ``1 < 2 < 10``; group keys decide each on their\n"
            "    own. The decimal mark is sniffed file by file as the command line sniffs it\n"
            '    (``,`` only when the separator is not ``,``), unless ``{"convert":\n'
            '    {"decimal_point": ","}}`` gives it (``--decimal``); with ``,``, a column whose\n'
            "    every value in the file is an integer or a decimal-comma number (``0,75``) is\n"
            "    read with points (``0.75``) before that decision, and any other column (``a,b``)\n"
            '    stays as written. ``{"convert": {"column_types": {...}}}`` gives columns a type\n'
            "    instead."
        ),
    ),
    Param(
        "json_options",
        Options(),
        "options of the JSON reader",
        None,
        entry=(
            "dict, optional\n"
            '    JSON lines: ``{"null_values": [...], "encoding": "utf-8"}``. Each chunk of lines\n'
            "    is parsed by ``pandas.read_json(lines=True, dtype=False)`` (JSON types kept: a\n"
            "    number is a number, a string a string); ``null`` and an absent key are missing,\n"
            '    and so are the strings in ``null_values`` (default ``[""]``: the empty string).'
        ),
    ),
    Param(
        "columns",
        Names(),
        "the columns read",
        REQUIRED,
        entry=("list of str\n    The columns read, in this order."),
    ),
    Param(
        "inputs",
        ANY,
        "the input files, described by size and digest",
        (),
        entry=(
            "path, or sequence of paths, default ()\n"
            "    The files read. A glob or a directory stands for the files it names, as for\n"
            '    ``kappaframe.scan`` (provenance sidecars excluded). ``"-"`` is standard input\n'
            "    as kappaframe read it (the command line's ``-``)."
        ),
    ),
    Param(
        "options",
        ANY,  # provenance checks it: a mapping, its values written as JSON
        "the options the result was made with",
        None,
        entry=(
            "mapping, optional\n"
            '    The settings that made the result, e.g. ``{"weights": "linear", "by":\n'
            '    ["project"]}``; keys are text and values JSON values (text, numbers, booleans,\n'
            "    None, lists, mappings)."
        ),
    ),
    Param(
        "created",
        ANY,
        "when the record was made (default now)",
        None,
        entry=(
            "datetime, optional\n"
            "    When the result was made (default: now); written in UTC, to the second."
        ),
    ),
    Param(
        "progress",
        Flag(none=True),
        "a progress bar while digesting",
        False,
        entry=(
            "bool, default False\n"
            "    A progress bar on stderr while hashing (None: on a terminal only)."
        ),
    ),
    Param(
        "path",
        ANY,
        "an annotation tool's export",
        REQUIRED,
        entry=(
            "path, glob, folder, or list of them\n"
            "    The export: JSON, JSON lines, compressed too (``.gz``, ``.bz2``, ``.xz``,\n"
            "    ``.zst``), a zip of them, or ``-`` (standard input). Several files are read as\n"
            "    one export (doccano's per-member files, Prodigy datasets of one annotator each)."
        ),
    ),
    Param(
        "tool",
        _choices(AnnotationTool, none=True),
        "the tool that wrote it",
        None,
        entry=(
            '{"label-studio", "prodigy", "doccano"}, optional\n'
            "    Default: found from the first record."
        ),
    ),
    Param(
        "fields",
        Columns(),
        "the annotation fields read",
        None,
        flag="--fields",
        record=True,
        help=(
            "an annotation tool's export: the choice fields to read (Label Studio's "
            "control tag names; default: every field, a field that is not a choice is an "
            "error; Label Studio's JSON-MIN export needs them named)"
        ),
        metavar="NAME",
        entry=(
            "str or list of str, optional\n"
            "    The fields to read (Label Studio's control tag names, ``from_name``; Prodigy's\n"
            '    binary labels and ``"accept"``; doccano\'s ``label``, ``cats``...). Default:\n'
            "    every field, and a field that holds no choices (spans, text areas, boxes) is an\n"
            "    error. Label Studio's JSON-MIN export needs them named: nothing in it says which\n"
            "    keys are answers and which are the task's data."
        ),
    ),
    Param(
        "multiple",
        ANY,  # read_annotations checks it, against what the export holds
        "a field holds several labels",
        None,
        entry=(
            "bool, optional\n"
            "    Whether a field's answers are sets of labels. Default: a field is multi-choice\n"
            "    when one of its answers holds several choices (or the tool says so, as Prodigy's\n"
            '    ``choice_style: "multiple"``), and then every label of it is a ``frozenset``;\n'
            "    ``True``: every choice answer is a frozenset; ``False``: one label per answer,\n"
            "    and an answer with several choices is an error."
        ),
    ),
    Param(
        "predictions",
        Flag(),
        "read model predictions too",
        False,
        entry=(
            "bool, default False\n"
            "    Label Studio: read each task's predictions too, as raters named by their\n"
            "    ``model_version`` (a model against the annotators; the queue kappaframe writes\n"
            "    for Label Studio comes back this way)."
        ),
    ),
    # -- stored counts --------------------------------------------------------------------
    Param(
        "cells",
        ANY,
        "stored counts (Counts.to_frame's table)",
        REQUIRED,
        entry=(
            "pandas or polars DataFrame (or LazyFrame)\n"
            "    Columns ``by...``, ``rater_a``, ``rater_b``, ``label_a``, ``label_b``,\n"
            "    ``count``; optionally the positions ``rater_a_index``, ``rater_b_index``,\n"
            "    ``label_a_index``, ``label_b_index`` that ``to_frame`` writes (they give\n"
            "    the rater and category order). Rows may come in any order and repeat (they\n"
            "    add up); a pair may come either way round. Rows with ``rater_a == rater_b``\n"
            "    (and equal labels) are each rater's own label counts, needed by\n"
            "    ``matrix`` only. Counts are kept exactly: whole numbers as integers,\n"
            "    fractional (weighted) counts as floats; never rounded."
        ),
    ),
    Param(
        "table",
        ANY,
        "a pair's K x K table or its long form",
        REQUIRED,
        entry=(
            "array-like of shape (K, K), pandas or polars DataFrame\n"
            "    A NumPy array or a nested list; a pandas DataFrame labelled by category (index:\n"
            "    the first rater's labels, columns: the second's, the same set in any order); or\n"
            "    a polars DataFrame or LazyFrame whose first column holds the categories and\n"
            "    whose other columns are named by them (the layouts\n"
            "    ``kappaframe.confusion`` returns). Cells are counts (whole numbers kept as\n"
            "    int64, fractional ones as float64, never rounded) or proportions (see\n"
            "    ``n_obs``)."
        ),
    ),
    Param(
        "n_obs",
        ANY,
        "the items behind a table of shares",
        None,
        entry=(
            "number, optional\n"
            "    The number of items behind a table of proportions (a table summing to 1\n"
            "    within 1e-9): counts are ``proportions * n_obs``, kept as float64. A table\n"
            "    of counts needs no ``n_obs`` (if given, it must equal the table's sum).\n"
            "    Without ``n_obs``, a table of fractions summing to 1 is read as proportions:\n"
            "    kappa and the ``stats=`` columns are scale-free and computed, ``n`` is 1,\n"
            "    and ``ci=`` is refused (a standard error needs the number of items)."
        ),
    ),
    Param(
        "prep",
        ANY,
        "prepared ratings",
        REQUIRED,
        entry=("Prepared\n    Ratings prepared inside kappaframe (``kappaframe._api.prepare``)."),
    ),
    Param(
        "output",
        _choices(ResultKind),
        "the kind of results",
        "pandas",
        entry=(
            '{"pandas", "polars", "lazy", "dask"}, default "pandas"\n'
            "    The kind of frame the results are."
        ),
    ),
)


def _array_like(name: str, value: Any) -> None:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise KappaFrameTypeError(
            f"{name} must be an array of one number per item; got {value!r}.", option=name
        )


def declarations_of(name: str) -> Iterator[Param]:
    """Every declaration of an option name."""
    return (p for p in PARAMS if p.name == name)


def declaration(callable_name: str, name: str) -> Param:
    """The one declaration of ``callable_name``'s parameter ``name``.

    Raises ``LookupError`` when there is none or more than one (a test makes sure that
    every public callable's parameters have exactly one).
    """
    found = [p for p in declarations_of(name) if p.where is not None and callable_name in p.where]
    if not found:
        found = [p for p in declarations_of(name) if p.where is None]
    if len(found) != 1:
        raise LookupError(
            f"{callable_name}({name}=...) has {len(found)} declarations in PARAMS; give it one."
        )
    return found[0]


#: A docstring line that stands for a parameter's entry: ``%(name)s`` alone on its line.
PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)%\((?P<name>\w+)\)s[ \t]*$", re.MULTILINE)
#: The placeholder that stands for every parameter's entry, in the signature's order.
EVERY_PARAMETER = "parameters"


def render_entry(param: Param) -> str:
    """The parameter's numpydoc entry with its name: ``name : type`` and its description."""
    return f"{param.name} : {param.entry}"


def fill_entries(
    doc: str | None, params: Mapping[str, Param] | Callable[[str], Param]
) -> str | None:
    """``doc`` with each placeholder ``%(name)s`` replaced by the declaration's entry.

    ``params`` maps each parameter name to its declaration (or looks it up). The entry
    takes the placeholder's indentation; a placeholder with no declaration is an error
    (a ``LookupError`` when the function is wrapped, at import).
    """
    if doc is None:
        return None
    find = params.__getitem__ if isinstance(params, Mapping) else params

    def entry(match: re.Match[str]) -> str:
        indent, name = match["indent"], match["name"]
        if name == EVERY_PARAMETER and isinstance(params, Mapping):
            return "\n".join(_indented(render_entry(p), indent) for p in params.values())
        return _indented(render_entry(find(name)), indent)

    return PLACEHOLDER.sub(entry, doc)


def _indented(entry: str, indent: str) -> str:
    return "\n".join(indent + line if line else line for line in entry.split("\n"))
