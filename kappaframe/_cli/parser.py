"""The ``kappaframe`` command's flags: ``build_parser`` and the checks of their values."""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import Any, get_args

_EPILOG = """\
exit codes: 0 ok; 1 some row below --fail-under, or dropped since --baseline (only
those); 2 usage, input or output error; 3 with --baseline, some row's change cannot be
told from noise (inconclusive) and none failed; 70 a fault in kappaframe (with its
traceback); 130 interrupted.

the baseline gate: --baseline OLD (the table an earlier run wrote with --ci and --output,
or stored counts) --max-drop D. Rows are matched on their groups, raters (a pair in
either order) or method; each gets baseline, change, change_low, change_high (the
change's --ci interval, two independent samples) and a state: dropped (the whole
interval below -D), ok (none of it below -D), inconclusive (it straddles -D: too few
items to tell), new, missing (in one table only), undefined. A baseline made with other
--weights, --categories, --map, --drop-labels, --na-values, --duplicates, --multi-sep,
--distance, --population, --ddof, --alpha-centre or --by is refused.

missing values: in CSV, TSV and JSON only an empty cell is missing; add tokens with
--na-values (e.g. --na-values NA N/A). Labels are compared as written ("01", "1" and
"1.0" are three labels); they are numbers (ordered 1 < 2 < 10 for weights) only when
every label is a plain number and no two name the same number.

examples:
  kappaframe demo
  kappaframe demo --save team.csv
  kappaframe report team.csv --raters ana ben cai dee eli --by project \\
      --categories bad poor ok good great --weights linear --ci 0.95
  kappaframe report ratings.parquet --item item_id --rater annotator --label label \\
      --by project --output agreement.parquet --fail-under 0.6
  kappaframe report team.csv --by project --exclude item model_score \\
      --format html --output team.html
  kappaframe report today.csv --by project --exclude item model_score --ci 0.95 \\
      --baseline yesterday.parquet --max-drop 0.1 --output today.parquet
  kappaframe report export.csv --delimiter ";" --decimal , --encoding cp1252
  cat team.csv | kappaframe report - --by project --exclude item model_score \\
      --overall fleiss krippendorff
"""


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of the ``kappaframe`` command."""
    from .._api.settings.params import choices_of
    from .._io.formats import OUTPUT_FORMATS
    from .._types import (
        AlphaCentre,
        Alternative,
        Benchmark,
        CIDist,
        CIMethod,
        WeightsName,
        ZFrom,
    )
    from .._version import __version__

    parser = argparse.ArgumentParser(
        prog="kappaframe",
        description="Cohen's kappa between raters, from a file of labels.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"kappaframe {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = commands.add_parser(
        "demo",
        help="show agreement tables for a bundled data set (no input needed)",
        description="Print a pairwise table and a rater matrix for a bundled data set.",
    )
    demo.add_argument(
        "--dataset",
        choices=["labeling_team", "multiple_sclerosis"],
        default="labeling_team",
        help="labeling_team: five simulated annotators, three projects (default); "
        "multiple_sclerosis: Landis & Koch (1977)'s two neurologists",
    )
    demo.add_argument("--seed", type=int, default=0, help="seed of the simulated team")
    demo.add_argument(
        "--weights",
        choices=list(get_args(WeightsName)),
        help="weighted kappa (grades are ordinal)",
    )
    demo.add_argument(
        "--save",
        metavar="PATH",
        help="also write the data set to PATH (.csv, .tsv, .json, .jsonl, .parquet; "
        "compressed .gz, .bz2, .xz too) to try `report` on",
    )
    _message_flags(demo)

    report = commands.add_parser(
        "report",
        help="pairwise agreement of a CSV, Parquet or JSON lines file",
        description="Pairwise Cohen's kappa of the raters in INPUT, per group; written as "
        "a table to stdout or to --output.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _input_flags(report)
    _layout_flags(report)
    stats = report.add_argument_group("statistics")
    stats.add_argument("--by", nargs="+", metavar="COL", help="group columns")
    stats.add_argument(
        "--weights",
        choices=choices_of("weights"),
        help="weighted kappa: linear, quadratic, or Gwet's ordinal, radical, ratio, circular, "
        "bipolar (irrCAC's definitions)",
    )
    _label_flags(stats, "all labels in order (needed for weights when labels are words)")
    stats.add_argument(
        "--overall",
        nargs="+",
        metavar="METHOD",
        help="also the many-rater coefficients (kf.overall), e.g. fleiss krippendorff",
    )
    stats.add_argument(
        "--raters-summary",
        action="store_true",
        help="also one row per rater (kf.raters): items, labels used, mean kappa, ...",
    )
    stats.add_argument(
        "--scale", choices=choices_of("scale"), default="landis_koch", help="interpretation bands"
    )
    stats.add_argument(
        "--ci",
        type=_level,
        metavar="LEVEL",
        help="confidence level, e.g. 0.95: adds se, se0, ci_low, ci_high, z, p_value",
    )
    stats.add_argument(
        "--alternative",
        choices=list(get_args(Alternative)),
        default="two-sided",
        help="what p_value tests a zero coefficient against (default two-sided; irrCAC "
        "prints greater); with --ci",
    )
    stats.add_argument(
        "--ci-dist",
        choices=list(get_args(CIDist)),
        default="normal",
        help="interval quantile: normal (default) or Student's t with n - 1 degrees of "
        "freedom, as irrCAC prints; with --ci",
    )
    stats.add_argument(
        "--population",
        type=float,
        metavar="N",
        help="items in the population the rated items come from: variances times 1 - n/N "
        "(finite-population correction); with --ci",
    )
    stats.add_argument(
        "--z-from",
        choices=list(get_args(ZFrom)),
        default="se0",
        help="what z and p_value of --overall divide by: se0, the null standard error "
        "(default; Fleiss, Nee & Landis) or se, as irrCAC does; with --ci",
    )
    stats.add_argument(
        "--ddof",
        type=int,
        choices=[1, 0],
        default=1,
        help="--overall's variances divide the sum of squares by n (n - ddof): 1 (default; "
        "irrCAC's raw-data functions) or 0 (irrCAC's *.table functions); with --ci",
    )
    stats.add_argument(
        "--alpha-centre",
        choices=list(get_args(AlphaCentre)),
        default="p_a_prime",
        help="Krippendorff's alpha standard error (--overall krippendorff): each item "
        "centred on p_a_prime (default; Gwet's irrCAC >= 1.2) or p_a (CRAN irrCAC 1.0, "
        "irrCAC for Python); with --ci",
    )
    stats.add_argument(
        "--benchmark",
        choices=list(get_args(Benchmark)),
        default="point",
        help="interpretation: the band the estimate is in (point, default), or Gwet's "
        "probabilistic benchmark, the highest band reached with the --ci probability; adds "
        "interpretation_p",
    )
    stats.add_argument(
        "--ci-method",
        choices=list(get_args(CIMethod)),
        default="analytic",
        help="the interval and se of --ci (pairs and --overall): large-sample (analytic, "
        "default) or the percentile bootstrap over items; with --ci",
    )
    stats.add_argument(
        "--n-boot",
        type=int,
        metavar="N",
        help="bootstrap replicates (default 1000); with --ci-method bootstrap",
    )
    stats.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="seed of the bootstrap: the same intervals on every run; with --ci-method bootstrap",
    )
    stats.add_argument(
        "--stats", nargs="+", metavar="NAME", help='extra coefficients per pair, or "all"'
    )
    stats.add_argument(
        "--reference", metavar="COL", help="compare every rater with this column only"
    )
    stats.add_argument(
        "--min-overlap",
        type=int,
        metavar="N",
        help="long layout with many raters: only pairs that co-rated at least N items",
    )
    stats.add_argument(
        "--min-items",
        type=int,
        default=10,
        metavar="N",
        help="below N items (n) the interpretation is 'too few items', not a band; kappa "
        "is unchanged (default 10; 0 gives every row its band)",
    )
    _multi_label_flags(report)
    _window_flags(report)
    out = _output_flags(report, OUTPUT_FORMATS)
    out.add_argument(
        "--fail-under",
        type=_bar,
        metavar="X",
        help="exit 1 when some row's --fail-on value is below X, a number in [-1, 1] "
        "(any finite number for --fail-on n or z); rows with no value do not count",
    )
    out.add_argument(
        "--fail-on",
        default="kappa",
        metavar="COLUMN",
        help="the column --fail-under checks (default kappa; e.g. ci_low, p_o); 'overall' "
        "checks the value column of --overall",
    )
    out.add_argument(
        "--heatmaps",
        type=_count,
        default=None,
        metavar="N",
        help="html: draw the kappa matrix of at most N groups (default "
        "24, in table order); every group stays in the pairs table",
    )
    gate = report.add_argument_group(
        "baseline", "the gate against an earlier run: dropped, ok, or cannot tell"
    )
    gate.add_argument(
        "--baseline",
        metavar="OLD",
        help="the table an earlier run wrote with --ci and --output (csv, tsv, json, jsonl, "
        "parquet; the .overall table to gate --overall) or stored counts; needs --ci and "
        "--max-drop; adds baseline, change, change_low, change_high, state",
    )
    gate.add_argument(
        "--max-drop",
        type=_drop,
        metavar="D",
        help="with --baseline: the largest drop that does not matter, in [0, 2); exit 1 "
        "when some row's change interval lies wholly below -D, 3 when some straddles it",
    )
    report.add_argument(
        "--stream",
        action="store_true",
        help="count CSV, JSON lines (compressed too) or Parquet in batches (memory flat "
        "in the file's size) instead of reading it whole; tables only (not markdown or html)",
    )
    _message_flags(report)
    _items_command(commands)
    _plan_command(commands)
    return parser


def _multi_label_flags(command: argparse.ArgumentParser) -> None:
    """Set-valued labels: how a cell's labels are separated, MASI/Jaccard alpha, per label."""
    from .._types import Distance, LabelMethod

    group = command.add_argument_group(
        "multi-label",
        "each rating a set of labels (tags, intents, codes); the pairs table "
        "then compares whole sets (equal or not)",
    )
    group.add_argument(
        "--multi-sep",
        metavar="SEP",
        help='the separator between the labels of one cell, e.g. "|" ("a|b"); a text '
        "cell is never split without it (Parquet list columns need none)",
    )
    group.add_argument(
        "--distance",
        choices=list(get_args(Distance)),
        help="with --overall krippendorff: Krippendorff's alpha with the MASI or Jaccard "
        "distance between two raters' sets",
    )
    group.add_argument(
        "--per-label",
        nargs="*",
        choices=list(get_args(LabelMethod)),
        metavar="METHOD",
        help="also agreement on each label, present or absent (kf.per_label): cohen per "
        "pair, or fleiss (the default), krippendorff, ... over all raters",
    )


def _window_flags(command: argparse.ArgumentParser) -> None:
    """``--time COL --every 1w [--period 4w]``: agreement per time window."""
    from .._types import Closed

    group = command.add_argument_group(
        "over time",
        "one result per time window (polars' group_by_dynamic windows), keyed by "
        "window_start and window_end after the --by columns",
    )
    group.add_argument(
        "--time", metavar="COL", help="the date or datetime column (ISO 8601 text in CSV)"
    )
    group.add_argument(
        "--every",
        metavar="DURATION",
        help="a window starts every DURATION: 2h, 1d, 1w (from Monday), 1mo, 1q, 1y",
    )
    group.add_argument(
        "--period",
        metavar="DURATION",
        help="a window lasts DURATION (default --every); longer gives rolling windows",
    )
    group.add_argument(
        "--offset", metavar="DURATION", help="shift the window starts, e.g. 6h or -1d"
    )
    group.add_argument(
        "--closed",
        choices=list(get_args(Closed)),
        default="left",
        help="which bounds a window holds (default left)",
    )


def _input_flags(command: argparse.ArgumentParser, optional: str | None = None) -> None:
    """INPUT, its format, how its text is read, and which cells are missing.

    ``optional``: INPUT may be left out, and this says what it is for.
    """
    from .._io.formats import INPUT_FORMATS

    command.add_argument(
        "input",
        metavar="INPUT",
        nargs="?" if optional else None,
        help=(optional + ": " if optional else "")
        + "CSV, TSV, Parquet or JSON lines file (compressed too); a glob or a directory "
        "of them (rows stacked, columns united); - for standard input",
    )
    command.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        help="default: from the file's suffix; for - sniffed from the first bytes. "
        "label-studio, prodigy, doccano: an annotation tool's export (JSON or JSON lines), "
        "read as the long layout item, rater, label (found from the first record of a "
        ".json or .jsonl file when not named)",
    )
    command.add_argument(
        "--fields",
        nargs="+",
        metavar="NAME",
        help="an annotation tool's export: the choice fields to read (Label Studio's "
        "control tag names; default: every field, a field that is not a choice is an "
        "error; Label Studio's JSON-MIN export needs them named)",
    )
    text_in = command.add_argument_group("text input (CSV, TSV)")
    text_in.add_argument(
        "--delimiter",
        type=_delimiter,
        metavar="SEP",
        help="the field separator, e.g. ';' or tab (default: sniffed among , ; tab |)",
    )
    text_in.add_argument(
        "--decimal",
        choices=[".", ","],
        help="the decimal mark of numbers (default: ',' when the separator is not ',' and "
        "the numbers are written 0,75)",
    )
    text_in.add_argument(
        "--encoding",
        metavar="NAME",
        help="the text encoding, e.g. cp1252 for Excel's 'CSV (Windows)' (default: UTF-8, "
        "with or without a byte order mark)",
    )
    command.add_argument(
        "--na-values",
        nargs="+",
        action="extend",
        default=[],
        metavar="TOKEN",
        help="text that also means a missing label, e.g. --na-values NA N/A (default: "
        "only an empty cell is missing; 'NA', 'None', 'null' are labels); CSV, TSV, JSON",
    )


def _layout_flags(command: argparse.ArgumentParser) -> None:
    """The wide layout's rater columns, or the long layout's three columns."""
    from .._types import Duplicates

    layout = command.add_argument_group(
        "layout", "wide: one column per rater (--raters); long: one row per rating"
    )
    layout.add_argument(
        "--raters",
        nargs="+",
        metavar="NAME",
        help="wide: the rater columns (default: every column not in --by); "
        "long: the rater ids to keep",
    )
    layout.add_argument(
        "--exclude",
        nargs="+",
        metavar="COL",
        default=[],
        help="wide, without --raters: columns that are not raters (ids, scores)",
    )
    layout.add_argument("--item", metavar="COL", help="long layout: the item id column")
    layout.add_argument("--rater", metavar="COL", help="long layout: the rater id column")
    layout.add_argument("--label", metavar="COL", help="long layout: the label column")
    layout.add_argument(
        "--duplicates",
        choices=list(get_args(Duplicates)),
        default="raise",
        help="long layout: a rater who rated an item twice (default: error)",
    )


def _label_flags(group: Any, categories: str) -> None:
    """The category order, and the labels renamed or dropped before anything is counted."""
    group.add_argument("--categories", nargs="+", metavar="LABEL", help=categories)
    group.add_argument(
        "--drop-labels",
        nargs="+",
        default=[],
        metavar="LABEL",
        help="treat these labels as missing (e.g. an 'unsure' outside --categories)",
    )
    group.add_argument(
        "--map",
        nargs="+",
        default=[],
        type=_mapping,
        metavar="OLD=NEW",
        help="rename labels before counting, e.g. --map gut=good schlecht=bad",
    )


def _output_flags(command: argparse.ArgumentParser, formats: Sequence[str]) -> Any:
    """Where the result goes and in which format; returns the group for more flags."""
    out = command.add_argument_group("output")
    out.add_argument("-o", "--output", metavar="PATH", help="write here (atomically)")
    out.add_argument(
        "--format",
        choices=list(formats),
        help="default: from the output's suffix; a readable table on stdout",
    )
    out.add_argument(
        "--raw",
        action="store_true",
        help="CSV: write every cell exactly; by default a text cell starting with = + - @ "
        "(or a tab or carriage return) gets a leading ' so that a spreadsheet shows it "
        "as text instead of running it as a formula (numbers are never changed)",
    )
    out.add_argument(
        "--no-progress", action="store_true", help="no progress bar, even on a terminal"
    )
    return out


#: ``kappaframe items --format``: the tables, text and markdown, and two annotation tools'
#: import formats (the queue sent back to be labelled again).
ITEM_FORMATS = ("text", "csv", "tsv", "json", "jsonl", "parquet", "markdown")
TOOL_FORMATS = ("label-studio", "prodigy")

_ITEMS_EPILOG = """\
the queue: --disagreements keeps the items whose raters do not all agree, --min-p and
--max-support the items under a bar; each group's items come most contested first (lowest
p_i, then lowest support), with every rater's label. --format label-studio writes Label
Studio tasks (each rater's answer a prediction), --format prodigy Prodigy JSON lines.

examples:
  kappaframe items team.csv --by project --exclude item model_score
  kappaframe items team.csv --by project --exclude item model_score --disagreements \\
      --output queue.csv
  kappaframe items ratings.parquet --item item_id --rater annotator --label label \\
      --reference expert --format markdown
"""


def _items_command(commands: Any) -> None:
    """``kappaframe items``: one row per item, or the queue of the items to send back."""
    from .._stats.consensus import TIES
    from .._types import ConsensusModel

    items = commands.add_parser(
        "items",
        help="per-item agreement and consensus labels; the queue of items to send back",
        description="One row per item of INPUT (per group): its ratings, the consensus "
        "label and its support, Fleiss' per-item agreement p_i and the entropy; with "
        "--disagreements (or --min-p, --max-support) the items to send back, most contested "
        "first.",
        epilog=_ITEMS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _input_flags(items)
    _layout_flags(items)
    group = items.add_argument_group("items")
    group.add_argument("--by", nargs="+", metavar="COL", help="group columns")
    _label_flags(group, "all labels in order (the first-category tie rule follows it)")
    group.add_argument(
        "--reference",
        metavar="COL",
        help="the rater (column, or rater id) holding the gold labels: left out of the "
        "consensus; adds reference_label and correct",
    )
    group.add_argument(
        "--consensus",
        choices=list(get_args(ConsensusModel)),
        default="majority",
        help="majority vote (default) or Dawid-Skene's model of each rater's confusion",
    )
    group.add_argument(
        "--ties",
        choices=list(TIES),
        default="missing",
        help="a tie for the consensus: no label (missing, default), the first category in "
        "order, or a random one (with --seed)",
    )
    group.add_argument("--seed", type=int, metavar="N", help="seed of --ties random")
    group.add_argument(
        "--max-iter",
        type=int,
        default=100,
        metavar="N",
        help="dawid-skene: the most iterations (default 100)",
    )
    group.add_argument(
        "--tol",
        type=float,
        default=1e-7,
        metavar="X",
        help="dawid-skene: stop when no posterior moves by more (default 1e-7)",
    )
    group.add_argument(
        "--disagreements",
        action="store_true",
        help="the queue: only the items whose raters do not all agree, most contested first",
    )
    group.add_argument(
        "--min-p",
        type=_share,
        metavar="X",
        help="the queue: only the items whose p_i is below X",
    )
    group.add_argument(
        "--max-support",
        type=_share,
        metavar="X",
        help="the queue: only the items whose consensus has at most this share X",
    )
    group.add_argument(
        "--labels",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="one column per rater with their label (default: in the queue only)",
    )
    _window_flags(items)
    _output_flags(items, (*ITEM_FORMATS, *TOOL_FORMATS))
    _message_flags(items)


_PLAN_EPILOG = """\
power (--kappa1): items to reject kappa <= --kappa0 (one-sided, or --alternative two-sided as
R's kappaSize) with --power when kappa is --kappa1. interval (--width, or --lower/--upper):
items for the expected confidence limits around --kappa0 to reach them. With a pilot INPUT,
its category shares and Fleiss' kappa (per --by group) stand for --props and --kappa1
(power) or --kappa0 (interval). n_items is rounded up, as kappaSize reports it.

examples:
  kappaframe plan --kappa0 0.4 --kappa1 0.6 --props 0.3 0.7 --power 0.8
  kappaframe plan --kappa0 0.6 --width 0.2 --props 0.2 0.3 0.5 --n-raters 3
  kappaframe plan pilot.csv --raters a b --kappa0 0.4 --by project
"""


def _plan_command(commands: Any) -> None:
    """``kappaframe plan``: how many items to rate, from numbers or a pilot file."""
    from .._types import SizeAlternative, SizeMethod

    plan = commands.add_parser(
        "plan",
        help="how many items to rate: the sample size for power or an interval of kappa",
        description="The number of items a kappa study needs: to reject --kappa0 when kappa "
        "is --kappa1 (power), or for the interval around --kappa0 to reach --width, --lower "
        "or --upper; from numbers, or from a pilot INPUT.",
        epilog=_PLAN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _input_flags(plan, optional="a pilot (optional)")
    _layout_flags(plan)
    plan.set_defaults(reference=None)
    group = plan.add_argument_group("plan")
    group.add_argument("--by", nargs="+", metavar="COL", help="pilot: group columns")
    group.add_argument(
        "--categories", nargs="+", metavar="LABEL", help="pilot: the categories, in order"
    )
    group.add_argument(
        "--kappa0",
        type=_number,
        metavar="K",
        help="power: the kappa to reject; interval: the anticipated kappa (a pilot gives it)",
    )
    group.add_argument(
        "--kappa1",
        type=_number,
        metavar="K",
        help="power: the kappa to detect, above --kappa0 (a pilot gives it)",
    )
    group.add_argument(
        "--props",
        nargs="+",
        type=_number,
        metavar="P",
        help="the share of each category, summing to 1 (a pilot gives them)",
    )
    group.add_argument(
        "--n-raters",
        type=lambda text: _number(text, int),
        metavar="M",
        help="raters per item (default: the pilot's raters, or 2)",
    )
    group.add_argument(
        "--alpha", type=_number, default=0.05, metavar="A", help="level of the test (0.05)"
    )
    group.add_argument(
        "--power", type=_number, default=0.8, metavar="P", help="power: its chance (0.8)"
    )
    group.add_argument(
        "--width", type=_number, metavar="W", help="interval: its full width around --kappa0"
    )
    group.add_argument("--lower", type=_number, metavar="K", help="interval: its lower limit")
    group.add_argument("--upper", type=_number, metavar="K", help="interval: its upper limit")
    group.add_argument(
        "--n-items",
        type=lambda text: _number(text, int),
        metavar="N",
        help="the other way round: the expected lower limit N items give around --kappa0",
    )
    group.add_argument(
        "--alternative",
        choices=list(get_args(SizeAlternative)),
        default="greater",
        help="power: one-sided (greater, default) or two-sided as kappaSize",
    )
    group.add_argument(
        "--method",
        dest="size_method",
        choices=list(get_args(SizeMethod)),
        default="auto",
        help="goodness-of-fit (kappaSize's closed form: 2-5 categories, 2-6 raters), "
        "simulation (of Fleiss' kappa), or auto: the closed form where there is one",
    )
    group.add_argument(
        "--seed",
        type=lambda text: _number(text, int),
        default=0,
        metavar="N",
        help="seed of the simulation (more than 5 categories or 6 raters)",
    )
    _output_flags(plan, ITEM_FORMATS)
    _message_flags(plan)


#: Python options whose flag has another name (the rest are spelled alike: ``min_items``
#: is ``--min-items``).
_RENAMED = {"method": "overall", "null_values": "na_values"}


def option_flags(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each Python option the command line offers, and the flag that sets it.

    Read off the parser, so a new flag names itself in messages: ``{"weights":
    "--weights", "method": "--overall", ...}``.
    """
    flags: dict[str, str] = {}
    actions = list(parser._actions)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            actions += [a for sub in action.choices.values() for a in sub._actions]
    for action in actions:
        long = [s for s in action.option_strings if s.startswith("--")]
        if long and action.dest not in ("help", "version"):
            flags[action.dest] = long[0]
    for option, dest in _RENAMED.items():
        flags[option] = flags[dest]
    return flags


def _message_flags(command: argparse.ArgumentParser) -> None:
    """``--quiet`` and ``--verbose``: how much the command says on stderr."""
    group = command.add_argument_group(
        "messages", "what goes to stderr (the report itself is never affected)"
    )
    either = group.add_mutually_exclusive_group()
    either.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="errors only (and the rows under --fail-under, or that dropped or cannot tell "
        "since --baseline): no warnings, notes or progress bar",
    )
    either.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="also say what is read, which raters are taken, what is written, with "
        "timings; -vv adds details for debugging",
    )


def _number(text: str, kind: type[float] | type[int] = float) -> Any:
    """``text`` as a float (or an int), or an argparse error naming it."""
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None


def _level(text: str) -> float:
    value = _number(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"a confidence level is between 0 and 1; got {text}")
    return float(value)


def _bar(text: str) -> float:
    value = _number(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(
            f"{text!r} would switch the check off; give a finite number, e.g. 0.6"
        )
    return float(value)


def _drop(text: str) -> float:
    value = _number(text)
    if not 0 <= value < 2:
        raise argparse.ArgumentTypeError(
            f"a drop of a coefficient is in [0, 2), e.g. 0.1; got {text}"
        )
    return float(value)


def _delimiter(text: str) -> str:
    named = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}
    sep = named.get(text.lower(), text)
    if len(sep) != 1:
        raise argparse.ArgumentTypeError(f"a separator is one character (or 'tab'); got {text!r}")
    return sep


def _mapping(text: str) -> tuple[str, str]:
    old, eq, new = text.partition("=")
    if not eq or not old:
        raise argparse.ArgumentTypeError(f"write a label change as OLD=NEW; got {text!r}")
    return old, new


def _share(text: str) -> float:
    value = _number(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a share is between 0 and 1; got {text}")
    return float(value)


def _count(text: str) -> int:
    value = _number(text, int)
    if value < 0:
        raise argparse.ArgumentTypeError(f"a number of groups is 0 or more; got {text}")
    return int(value)
