"""The ``kappaframe`` command's flags: ``build_parser`` and the checks of their values."""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import Any, get_args

_EPILOG = """\
exit codes: 0 ok; 1 some row below --fail-under (only that); 2 usage, input or output
error; 70 a fault in kappaframe (with its traceback); 130 interrupted.

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
  kappaframe report export.csv --delimiter ";" --decimal , --encoding cp1252
  cat team.csv | kappaframe report - --by project --exclude item model_score \\
      --overall fleiss krippendorff
"""


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of the ``kappaframe`` command."""
    from .._io.formats import OUTPUT_FORMATS
    from .._stats.scales import SCALES
    from .._types import Alternative, Benchmark, CIDist, CIMethod, WeightsName
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
        choices=list(NAMED_WEIGHTS),
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
        "--scale", choices=sorted(SCALES), default="landis_koch", help="interpretation bands"
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
    report.add_argument(
        "--stream",
        action="store_true",
        help="count CSV, JSON lines (compressed too) or Parquet in batches (memory flat "
        "in the file's size) instead of reading it whole; tables only (not markdown or html)",
    )
    _message_flags(report)
    _items_command(commands)
    return parser


def _input_flags(command: argparse.ArgumentParser) -> None:
    """INPUT, its format, how its text is read, and which cells are missing."""
    from .._io.formats import INPUT_FORMATS

    command.add_argument(
        "input",
        metavar="INPUT",
        help="CSV, TSV, Parquet or JSON lines file (compressed too); a glob or a directory "
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
    _output_flags(items, (*ITEM_FORMATS, *TOOL_FORMATS))
    _message_flags(items)


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
        help="errors only (and the rows under --fail-under): no warnings, notes or progress bar",
    )
    either.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="also say what is read, which raters are taken, what is written, with "
        "timings; -vv adds details for debugging",
    )


#: The named weights ``--weights`` offers (those of kappaframe's ``weights=``).
NAMED_WEIGHTS = ("linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")


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
