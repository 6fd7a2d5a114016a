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
"""

from __future__ import annotations

import math
from collections.abc import Iterator
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
    Normalization,
    ResultKind,
    SizeAlternative,
    SizeMethod,
    Stat,
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

__all__ = ["PARAMS", "REQUIRED", "Param", "choices_of", "declaration", "declarations_of"]


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
    """One Matplotlib ``Axes`` (not an array of them, as ``plt.subplots`` returns)."""
    if hasattr(value, "figure") and hasattr(value, "plot") and hasattr(value, "set_title"):
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
_SEED = Checked(
    make_rng, bad=(-1, "seed", 1.5), none=True, text="a whole number >= 0 or a NumPy Generator"
)
_ANY_FRAME = "the ratings: a pandas or polars frame, files, or a Dask, DuckDB or Spark frame"

PARAMS: tuple[Param, ...] = (
    # -- how to read the ratings ------------------------------------------------------
    Param("data", ANY, _ANY_FRAME, REQUIRED),
    Param("data", ANY, "a pilot's ratings (optional)", None, where=("sample_size",)),
    Param("data", ANY, "a frame holding the columns", None, where=("threshold_sweep",)),
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
    ),
    Param(
        "raters",
        Names(none=True),
        "the stored counts' rater columns",
        None,
        where=("Counts.from_frame",),
    ),
    Param("raters", Names(), "the raters kept, in order", REQUIRED, where=("Counts.with_raters",)),
    Param(
        "raters",
        ANY,
        "the two rater columns of a pair table",
        ("rater_a", "rater_b"),
        where=("Counts.from_table",),
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
    ),
    Param("value", Column(), "long layout: the score column", None),
    Param("value", Text(none=True), "the result column drawn", None, where=("trend_plot",)),
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
        ),
        metavar="LABEL",
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
    ),
    Param(
        "closed",
        _choices(Closed),
        "which bounds a window holds",
        "left",
        flag="--closed",
        record=True,
        help="which bounds a window holds (default left)",
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
    ),
    Param("layout", _choices(Layout), "what the rows are: ratings, counts or a table", "ratings"),
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
    ),
    Param("agreement_weights", ANY, "agreement weights (Gwet's form)", None),
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
        where=("heatmap", "trend_plot"),
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
    ),
    Param("stat", _choices(Stat), "the statistic in the cells", "kappa"),
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
    ),
    Param(
        "ci",
        _LEVEL,
        "confidence level of the change's interval",
        0.95,
        where=("against_baseline", "compare"),
    ),
    Param(
        "ci",
        Checked(
            check_level, bad=(0, 1.5, "0.95"), none=True, text="a confidence level between 0 and 1"
        ),
        "confidence level of the intervals (None: none)",
        0.95,
        where=("bland_altman", "bland_altman_plot", "ccc", "icc"),
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
    ),
    Param(
        "alternative",
        _choices(SizeAlternative),
        "one- or two-sided test",
        "greater",
        flag="--alternative",
        where=("sample_size",),
        help="power: one-sided (greater, default) or two-sided as kappaSize",
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
    ),
    Param(
        "level",
        Number(low=0, high=1, open_low=True, open_high=True),
        "the probability a band must reach",
        0.95,
        where=("benchmark",),
    ),
    Param(
        "level",
        _choices(Level),
        "the labels' level of measurement",
        "nominal",
        record=True,
        match=True,
        where=("overall",),
    ),
    Param(
        "method",
        _choices(CompareMethod, none=True),
        "the test of two kappas",
        None,
        where=("compare",),
    ),
    Param(
        "method",
        Checked(_methods, bad=("fliess", 3), text="a coefficient's name or a list of them"),
        "the coefficients",
        "fleiss",
        where=("overall",),
    ),
    Param(
        "method",
        _choices(CategoryMethod),
        "the per-category coefficient",
        "fleiss",
        where=("per_category",),
    ),
    Param(
        "method",
        Checked(_label_methods, bad=("fliess",), text="a coefficient's name or a list of them"),
        "the coefficient per label",
        "fleiss",
        where=("per_label",),
    ),
    Param(
        "method", _choices(SizeMethod), "closed form or simulation", "auto", where=("sample_size",)
    ),
    # -- numeric ratings ------------------------------------------------------------------
    Param("agreement", Number(low=0, open_low=True), "the limits' multiple of the SD", 1.96),
    Param("matrix", Flag(), "also the square rater x rater matrix", False),
    Param("correct", Flag(), "correct for tied ranks", True),
    # -- consensus ------------------------------------------------------------------------
    Param(
        "consensus",
        _choices(ConsensusModel),
        "how an item's label is chosen",
        "majority",
        flag="--consensus",
        record=True,
        help="majority vote (default) or Dawid-Skene's model of each rater's confusion",
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
    ),
    Param(
        "disagreements",
        Flag(),
        "only the items raters disagree on",
        False,
        flag="--disagreements",
        record=True,
        help=("the queue: only the items whose raters do not all agree, most contested first"),
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
    ),
    # -- arrays ---------------------------------------------------------------------------
    Param("y1", ANY, "the first rater's labels", REQUIRED),
    Param("y2", ANY, "the second rater's labels", REQUIRED),
    Param("labels", Labels(), "every label, in order", None, where=("cohen_kappa",)),
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
    ),
    Param("replace_undefined_by", Number(nan=True), "kappa where it is undefined", math.nan),
    Param("a", Column(none=False), "the first rater column", REQUIRED),
    Param("b", Column(none=False), "the second rater column", REQUIRED),
    Param("first", ANY, "the first coefficient: a pair or a result", REQUIRED),
    Param("second", ANY, "the second coefficient: a pair or a result", None),
    # -- the gate -------------------------------------------------------------------------
    Param("result", ANY, "this run's result", REQUIRED),
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
    ),
    Param("coeff", Number(), "the coefficient", REQUIRED),
    Param("se", Number(low=0), "its standard error", REQUIRED),
    Param("order", _choices(BandOrder), "the order bands are cumulated in", "highest-first"),
    # -- pictures -------------------------------------------------------------------------
    Param(
        "ax",
        Checked(_axes, bad=("ax", 3), none=True, text="one Matplotlib Axes"),
        "the Axes to draw on",
        None,
    ),
    Param(
        "normalize",
        Checked(_normalize, bad=("rows", 3), none=True, text='"true", "pred", "all" or a boolean'),
        "counts as shares of rows, columns or all",
        None,
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
    ),
    Param("annotate", Flag(), "write the value in each cell", True),
    Param("show_n", Flag(), "write the shared items in each cell", False),
    Param("triangle", _choices(Triangle, none=True), "draw one triangle only", None),
    Param("ncols", Number(integer=True, none=True), "panels per row", None),
    Param("title", Text(none=True), "the title", None),
    # -- threshold sweep ------------------------------------------------------------------
    Param("y_true", ANY, "the truth (array or column)", REQUIRED),
    Param("scores", ANY, "the scores (array or column)", REQUIRED),
    Param("thresholds", ANY, "the thresholds (default every distinct score)", None),
    Param("pos_label", ANY, "the positive class", None),
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
    ),
    # -- files and records ----------------------------------------------------------------
    Param("source", ANY, "files, a directory, a glob or a file object", REQUIRED),
    Param("format", Text(none=True), "the files' format (default from the suffix)", None),
    Param("batch_size", Number(low=1, integer=True), "rows per batch", 262_144),
    Param("csv_options", Options(), "options of the CSV reader", None),
    Param("json_options", Options(), "options of the JSON reader", None),
    Param("columns", Names(), "the columns read", REQUIRED),
    Param("inputs", ANY, "the input files, described by size and digest", ()),
    Param("options", Options(), "the options the result was made with", None),
    Param("created", ANY, "when the record was made (default now)", None),
    Param("progress", Flag(none=True), "a progress bar while digesting", False),
    Param("path", ANY, "an annotation tool's export", REQUIRED),
    Param("tool", _choices(AnnotationTool, none=True), "the tool that wrote it", None),
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
    ),
    Param("multiple", Flag(none=True), "a field holds several labels", None),
    Param("predictions", Flag(), "read model predictions too", False),
    # -- stored counts --------------------------------------------------------------------
    Param("cells", ANY, "stored counts (Counts.to_frame's table)", REQUIRED),
    Param("table", ANY, "a pair's K x K table or its long form", REQUIRED),
    Param("n_obs", ANY, "the items behind a table of shares", None),
    Param("prep", ANY, "prepared ratings", REQUIRED),
    Param("output", _choices(ResultKind), "the kind of results", "pandas"),
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


def choices_of(name: str) -> list[Any]:
    """The choices of the option that every callable shares (the command line offers them)."""
    (param,) = (p for p in declarations_of(name) if p.where is None)
    return list(param.choices)


def flagged() -> dict[str, Param]:
    """The declarations the command line has a flag for, by option name."""
    return {p.name: p for p in PARAMS if p.flag is not None}
