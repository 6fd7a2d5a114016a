"""The ``kappaframe`` command: ``kappaframe demo`` and ``kappaframe report INPUT``.

Exit codes: 0 ok; 1 when ``--fail-under`` is given and some row is below it (the
offending rows go to stderr; the report is still written), and for nothing else; 2 for
usage, input and output errors (a message on stderr, no traceback); 70 for a fault in
kappaframe itself (the traceback, to report); 130 when interrupted (Ctrl-C); 143 when
terminated (SIGTERM) while writing.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
import traceback
import warnings
from collections.abc import Hashable, Iterator, Sequence
from typing import IO, Any

__all__ = ["build_parser", "main"]

EXIT_OK, EXIT_BELOW, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
#: A fault in kappaframe itself (sysexits' EX_SOFTWARE): never 1, which a nightly gate reads
#: as "agreement below the bar".
EXIT_FAULT = 70

#: ``--fail-on`` columns that are not bounded by [-1, 1]: any finite bar is allowed.
_UNBOUNDED = ("n", "z")

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
    from . import SCALES, __version__
    from ._io.formats import INPUT_FORMATS, OUTPUT_FORMATS

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
        "--weights", choices=["linear", "quadratic"], help="weighted kappa (grades are ordinal)"
    )
    demo.add_argument(
        "--save",
        metavar="PATH",
        help="also write the data set to PATH (.csv, .tsv, .json, .jsonl, .parquet; "
        "compressed .gz, .bz2, .xz too) to try `report` on",
    )

    report = commands.add_parser(
        "report",
        help="pairwise agreement of a CSV, Parquet or JSON lines file",
        description="Pairwise Cohen's kappa of the raters in INPUT, per group; written as "
        "a table to stdout or to --output.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    report.add_argument(
        "input",
        metavar="INPUT",
        help="CSV, TSV, Parquet or JSON lines file (compressed too); a glob or a directory "
        "of them (rows stacked, columns united); - for standard input",
    )
    report.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        help="default: from the file's suffix; for - sniffed from the first bytes",
    )
    text_in = report.add_argument_group("text input (CSV, TSV)")
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
    report.add_argument(
        "--na-values",
        nargs="+",
        action="extend",
        default=[],
        metavar="TOKEN",
        help="text that also means a missing label, e.g. --na-values NA N/A (default: "
        "only an empty cell is missing; 'NA', 'None', 'null' are labels); CSV, TSV, JSON",
    )
    layout = report.add_argument_group(
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
        choices=["raise", "first", "last"],
        default="raise",
        help="long layout: a rater who rated an item twice (default: error)",
    )
    stats = report.add_argument_group("statistics")
    stats.add_argument("--by", nargs="+", metavar="COL", help="group columns")
    stats.add_argument(
        "--weights",
        choices=list(NAMED_WEIGHTS),
        help="weighted kappa: linear, quadratic, or Gwet's ordinal, radical, ratio, circular, "
        "bipolar (irrCAC's definitions)",
    )
    stats.add_argument(
        "--categories",
        nargs="+",
        metavar="LABEL",
        help="all labels in order (needed for weights when labels are words)",
    )
    stats.add_argument(
        "--drop-labels",
        nargs="+",
        default=[],
        metavar="LABEL",
        help="treat these labels as missing (e.g. an 'unsure' outside --categories)",
    )
    stats.add_argument(
        "--map",
        nargs="+",
        default=[],
        type=_mapping,
        metavar="OLD=NEW",
        help="rename labels before counting, e.g. --map gut=good schlecht=bad",
    )
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
        choices=["two-sided", "greater", "less"],
        default="two-sided",
        help="what p_value tests a zero coefficient against (default two-sided; irrCAC "
        "prints greater); with --ci",
    )
    stats.add_argument(
        "--ci-dist",
        choices=["normal", "t"],
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
        choices=["point", "probabilistic"],
        default="point",
        help="interpretation: the band the estimate is in (point, default), or Gwet's "
        "probabilistic benchmark, the highest band reached with the --ci probability; adds "
        "interpretation_p",
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
    out = report.add_argument_group("output")
    out.add_argument("-o", "--output", metavar="PATH", help="write here (atomically)")
    out.add_argument(
        "--format",
        choices=OUTPUT_FORMATS,
        help="default: from the output's suffix; a readable table on stdout",
    )
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
        "--raw",
        action="store_true",
        help="CSV: write every cell exactly; by default a text cell starting with = + - @ "
        "(or a tab or carriage return) gets a leading ' so that a spreadsheet shows it "
        "as text instead of running it as a formula (numbers are never changed)",
    )
    out.add_argument(
        "--heatmaps",
        type=_count,
        default=None,
        metavar="N",
        help="html: draw the kappa matrix of at most N groups (default "
        "24, in table order); every group stays in the pairs table",
    )
    out.add_argument(
        "--no-progress", action="store_true", help="no progress bar, even on a terminal"
    )
    report.add_argument(
        "--stream",
        action="store_true",
        help="count CSV, JSON lines (compressed too) or Parquet in batches (memory flat "
        "in the file's size) instead of reading it whole; tables only (not markdown or html)",
    )
    return parser


#: The named weights ``--weights`` offers (those of kappaframe's ``weights=``).
NAMED_WEIGHTS = ("linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")


def _test_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options that shape the --ci columns, as pairwise() and overall() take them."""
    return {
        "alternative": args.alternative,
        "ci_dist": args.ci_dist,
        "population": args.population,
        "benchmark": args.benchmark,
    }


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


def _count(text: str) -> int:
    value = _number(text, int)
    if value < 0:
        raise argparse.ArgumentTypeError(f"a number of groups is 0 or more; got {text}")
    return int(value)


#: Python spellings in the API's messages, and what a command-line user types instead.
_FOR_CLI = (
    (
        r"Convert the column to one type first, e\.g\. \.astype\(str\)\.",
        "Write the column's labels as one type in the file, or list them with --categories.",
    ),
    (
        r"Convert them to one type \(e\.g\. \.astype\(str\) on the numeric ones\), or pass",
        "Write them as one type in the file, or pass",
    ),
    (r"\.astype\(str\)", "labels of one type"),
    (r"duplicates='first' or 'last'", "--duplicates first or --duplicates last"),
    (r"\b(duplicates|weights|scale|stats)='([\w-]+)'", r"--\1 \2"),
    (r"not in categories= ", "not in categories (--categories) "),
    (r"(categories|raters)=\[\.\.\.\]", r"--\1 ..."),
    (r"raters=None", "no --raters"),
    (r"\bmin_overlap=", "--min-overlap"),
    (r"\bmethod='(\w+)'", r"--overall \1"),
    (
        r"\b(categories|raters|weights|by|reference|stats|scale|ci|item|rater|label|method)=",
        r"--\1",
    ),
    (
        r"Add it to --categories, or recode or drop those rows first\.",
        "Add it to --categories, treat it as missing with --drop-labels LABEL, or rename it "
        "with --map LABEL=NEW.",
    ),
)


def for_cli(message: str) -> str:
    """An API message with its Python option spellings turned into command-line flags."""
    import re

    for pattern, flag in _FOR_CLI:
        message = re.sub(pattern, flag, message)
    return message


def _error(message: str, stream: IO[str]) -> int:
    from ._report.display import visible

    with contextlib.suppress(OSError):
        stream.write(f"kappaframe: error: {visible(message.strip(), newlines=True)}\n")
        stream.flush()
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 ok; 1 some row below ``--fail-under`` (and nothing else); 2 a usage, input
        or output error, said on stderr; 70 a fault in kappaframe itself (its traceback
        on stderr); 130 interrupted.
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:
        with contextlib.suppress(OSError):
            sys.stderr.write("kappaframe: interrupted\n")
        return EXIT_INTERRUPTED
    except Exception:  # a fault of ours: show it whole, but never as exit 1 (the gate's)
        with contextlib.suppress(OSError):
            traceback.print_exc(file=sys.stderr)
            sys.stderr.write(
                f"kappaframe: internal error (exit {EXIT_FAULT}); the traceback above says "
                "where. It is not a verdict on the agreement.\n"
            )
        return EXIT_FAULT


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) if not isinstance(exit_.code, str) else EXIT_USAGE
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    from ._errors import KappaFrameError

    try:
        if args.command == "demo":
            return _demo(args, sys.stdout)
        return _report(args, sys.stdout, sys.stderr)
    except KappaFrameError as err:
        return _error(for_cli(str(err)), sys.stderr)
    except ModuleNotFoundError as err:
        return _error(str(err), sys.stderr)
    except BrokenPipeError:
        # The reader of our stdout went away (e.g. `| head`): stop quietly.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except OSError as err:
        # Reading and writing turn their own errors into KappaFrameError with advice;
        # this says at least what failed, without a traceback.
        where = f"{err.filename!r}: " if err.filename else ""
        return _error(f"{where}{err.strerror or err}.", sys.stderr)


# --------------------------------------------------------------------------- demo


def _demo(args: argparse.Namespace, out: IO[str]) -> int:
    import numpy as np

    from . import datasets
    from ._api.pairwise import matrix, pairwise
    from ._report.report import render_text

    weights = args.weights
    wname = f"{weights} weights" if weights else "unweighted"
    if args.dataset == "labeling_team":
        data = datasets.labeling_team(seed=args.seed)
        raters = list(datasets.TEAM)
        by = "project"
        out.write(
            f"kappaframe demo: a simulated labeling team "
            f"(kappaframe.datasets.labeling_team(seed={args.seed}))\n"
            f"{len(data)} items in {data[by].nunique()} projects, graded "
            f"{' < '.join(datasets.GRADES)} by {len(raters)} annotators: {', '.join(raters)}.\n"
        )
    else:
        data = datasets.multiple_sclerosis()
        raters = ["new_orleans", "winnipeg"]
        by = "patients"
        out.write(
            "kappaframe demo: two neurologists diagnose multiple sclerosis\n"
            "(Westlund & Kurland 1953, tabulated by Landis & Koch 1977, Biometrics 33, Table 1;\n"
            " published kappa: Winnipeg patients 0.208, New Orleans patients 0.297)\n"
            f"{len(data)} patients in two samples, classes {' < '.join(datasets.MS_CLASSES)}.\n"
        )
    if args.save:
        _save_dataset(data, args.save)
        out.write(f"saved the data set to {args.save}\n")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = pairwise(data, raters, by=by, weights=weights)
        m = matrix(data, raters, weights=weights)
    out.write(
        f"\nPairwise Cohen's kappa per {by} ({wname}):  df.kappa.pairwise(raters, by={by!r})\n"
    )
    out.write(render_text(res))
    out.write("\nRater x rater kappa, all items:  df.kappa.matrix(raters)\n")
    out.write(render_text(m.reset_index()))

    square = m.to_numpy(dtype=float, copy=True)
    np.fill_diagonal(square, np.nan)
    if len(raters) > 2:
        mean = np.nanmean(square, axis=1)
        low = int(np.nanargmin(mean))
        name = raters[low]
        top = data[name].value_counts(normalize=True)
        out.write(
            f"\nLowest mean kappa: {name} ({mean[low]:.2f}), who gave "
            f"{top.index[0]!r} to {top.iloc[0]:.0%} of the items.\n"
        )
        out.write(
            "\nNext: kappaframe demo --save team.csv\n"
            "      kappaframe report team.csv --raters ana ben cai dee eli --by project \\\n"
            "          --categories bad poor ok good great --format html --output team.html\n"
        )
    return EXIT_OK


#: What ``demo --save`` writes (compressed text too: .gz, .bz2, .xz, .zst).
_SAVE_FORMATS = ("csv", "tsv", "json", "jsonl", "parquet")


def _save_dataset(data: Any, path: str) -> None:
    from ._errors import KappaFrameError
    from ._io.formats import output_format, suffixes
    from ._io.write import plain, table_bytes, write_output

    allowed = [x for f in _SAVE_FORMATS for x in suffixes(f)]
    try:
        fmt = output_format(path)
    except KappaFrameError:
        fmt = None
    if fmt not in _SAVE_FORMATS:
        raise KappaFrameError(
            f"demo --save writes a data file: name it with one of the suffixes "
            f"{', '.join(allowed)} (text ones compressed too: .gz, .bz2, .xz, .zst); "
            f"got {path!r}."
        )
    write_output(path, table_bytes(plain(data), fmt))


# --------------------------------------------------------------------------- report


def _coerce(values: list[str] | None, frame: Any, columns: Sequence[Hashable]) -> Any:
    """Command-line labels as numbers when the label columns hold numbers."""
    if values is None:
        return None
    from pandas.api.types import is_bool_dtype, is_integer_dtype, is_numeric_dtype

    dtypes = [frame[c].dtype for c in columns if c in frame]
    if not dtypes or not all(is_numeric_dtype(d) and not is_bool_dtype(d) for d in dtypes):
        return values
    out: list[Any] = []
    for v in values:
        try:
            number = float(v)
        except ValueError:
            return values
        as_int = all(is_integer_dtype(d) for d in dtypes) or number.is_integer()
        out.append(int(number) if as_int and number.is_integer() else number)
    return out


def _streamed(
    args: argparse.Namespace,
    fmt: str,
    needed: list[Hashable] | None,
    by: list[Hashable],
    text_options: Any,
    progress: bool | None,
) -> tuple[Any, Any]:
    """``kf.scan`` of the input for pairwise, and its first rows (for label types).

    CSV cells are read as :func:`kappaframe._io.read.read_input` reads them: as written,
    missing only when empty or one of ``--na-values``, numbers only when
    :func:`~kappaframe._io.read.number_kind` says so for all the file's values, so the
    streamed result equals the one read whole. JSON lines are parsed in chunks of lines by
    the whole read's parser (JSON types kept; ``null``, an absent key, the empty string
    and ``--na-values`` missing).
    """
    from ._errors import KappaFrameError
    from ._frames.files import scan
    from ._io.read import (
        Progress,
        as_numbers,
        columns_of,
        counted,
        expand_input,
        input_kind,
        read_head,
    )

    if fmt in ("markdown", "html"):
        raise KappaFrameError(
            f"--format {fmt} shows pictures and summaries of the rows, so it reads the file "
            "whole; drop --stream, or write a table (csv, json, jsonl, parquet, text)."
        )
    paths = expand_input(args.input)
    formats = {input_kind(p, args.input_format) for p in paths}
    if len(formats) > 1 or not formats <= {"csv", "tsv", "parquet", "jsonl"}:
        raise KappaFrameError(
            "--stream reads CSV, TSV, JSON lines and Parquet files (one format at a time)."
        )
    kind = formats.pop()
    head = read_head(paths[0], needed, fmt=kind, na_values=args.na_values, options=text_options)
    bar = Progress("counting", None, unit="rows", enabled=progress)
    if kind == "jsonl":
        lines = {"null_values": ["", *args.na_values], "encoding": text_options.encoding}
        return _counting(scan(paths, format="jsonl", json_options=lines), bar, counted), head
    if kind == "parquet":
        if args.na_values:
            raise KappaFrameError(
                f"--na-values {' '.join(args.na_values)}: Parquet marks missing values "
                "itself (null); drop --na-values for Parquet input."
            )
        return _counting(scan(paths, format="parquet"), bar, counted), head
    sep, _ = text_options.resolve(_source(paths[0]), kind)
    names = columns_of(args.input, args.input_format, text_options)
    columns = needed if needed is not None else names
    if args.item is not None:
        sets = [[args.label], *([c] for c in [*by, args.rater])]
    else:
        sets = [[c for c in columns if c not in by and c != args.reference], *([c] for c in by)]
        if args.reference is not None:
            sets[0].append(args.reference)
    options: dict[str, Any] = {
        "convert": {"null_values": ["", *args.na_values], "strings_can_be_null": True}
    }
    options["parse"] = {"delimiter": sep}
    if text_options.encoding.replace("-", "").lower() not in ("utf8sig", "utf8"):
        options["read"] = {"encoding": text_options.encoding}
    kinds = _stream_kinds(paths, options, sets)
    types = {str(c): _ARROW_TYPES[kinds.get(c)] for c in columns}
    options["convert"]["column_types"] = {c: _arrow_type(t) for c, t in types.items()}
    for group in sets:
        as_numbers(head, [c for c in group if c in head], kinds.get(group[0]) if group else None)
    return _counting(scan(paths, format="csv", csv_options=options), bar, counted), head


def _source(path: str) -> Any:
    from ._io.read import Source

    return Source(path)


def _counting(files: Any, bar: Any, counted: Any) -> Any:
    """The scan, its batches advancing the counting progress bar."""
    batches = files.batches

    def counted_batches(columns: Sequence[str]) -> Any:
        with bar:
            yield from counted(batches(columns), bar)

    files.batches = counted_batches
    return files


#: pyarrow type names of the column kinds of :func:`kappaframe._io.read.number_kind`.
_ARROW_TYPES = {None: "string", "int": "int64", "float": "float64"}


def _arrow_type(name: str) -> Any:
    import pyarrow as pa

    return getattr(pa, name)()


def _stream_kinds(
    paths: list[str], options: dict[str, Any], sets: list[list[Hashable]]
) -> dict[Any, Any]:
    """Each column's kind (None: text), as the whole-file read decides it.

    The label columns decide together, every other set alone. A set with a text column
    in the file's first block stays text; the others are decided over every value, in
    one more pass over those columns only (their distinct values are kept).
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    from ._frames.files import CSV_BLOCK_BYTES, scan
    from ._io.read import _NUMBER, number_kind

    schema = scan(paths, format="csv", csv_options=options).dataset.schema
    text = (pa.string(), pa.large_string())
    pending = [g for g in sets if g and all(schema.field(str(c)).type not in text for c in g)]
    kinds: dict[Any, Any] = {}
    if not pending:
        return kinds
    columns = list(dict.fromkeys(str(c) for group in pending for c in group))
    convert = pacsv.ConvertOptions(
        include_columns=columns,
        column_types={c: pa.string() for c in columns},
        null_values=options["convert"]["null_values"],
        strings_can_be_null=True,
    )
    parse = pacsv.ParseOptions(**options.get("parse", {}))
    read = pacsv.ReadOptions(block_size=CSV_BLOCK_BYTES, **options.get("read", {}))
    seen: dict[str, set[str]] = {c: set() for c in columns}
    worded: set[str] = set()  # columns holding a label that is not a plain number
    for batch in _csv_batches(paths, read, parse, convert):
        for c in columns:
            if c in worded:
                continue
            new = set(pc.unique(batch.column(c)).drop_null().to_pylist()) - seen[c]
            if any(not _NUMBER.fullmatch(v) for v in new):
                worded.add(c)
                seen[c].clear()
            else:
                seen[c] |= new
    for group in pending:
        names = [str(c) for c in group]
        if any(c in worded for c in names):
            continue
        kind = number_kind(set().union(*(seen[c] for c in names)))
        kinds.update(dict.fromkeys(group, kind))
    return kinds


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _text_options(args: argparse.Namespace) -> Any:
    from ._io.read import TextOptions

    return TextOptions(args.delimiter, args.decimal, args.encoding)


def _streamable(args: argparse.Namespace, fmt: str) -> bool:
    """Whether --stream counts in batches: CSV/TSV, JSON lines (compressed too), Parquet.

    Standard input, a JSON array (``.json``), JSON lines mixed with other formats and
    relabelled labels (--map, --drop-labels) are read by the whole-file path instead;
    markdown and HTML are refused by :func:`_streamed`, which says why.
    """
    from ._io.formats import STDIO
    from ._io.read import expand_input, input_kind

    if args.input == STDIO or args.map or args.drop_labels:
        return fmt in ("markdown", "html")
    kinds = {input_kind(p, args.input_format) for p in expand_input(args.input)}
    whole = "json" in kinds or ("jsonl" in kinds and len(kinds) > 1)  # as before
    return not whole or fmt in ("markdown", "html")


def _csv_batches(paths: list[str], read: Any, parse: Any, convert: Any) -> Iterator[Any]:
    """Record batches of CSV files, a block at a time (compressed files decompressed)."""
    from ._frames.files import csv_blocks

    for path in paths:
        yield from csv_blocks(path, read, parse, convert)


def _report(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from ._api.many import overall
    from ._api.many import raters as rater_summary
    from ._api.pairwise import pairwise
    from ._errors import KappaFrameError
    from ._io.formats import STDIO, output_format
    from ._io.read import columns_of, read_input
    from ._report.display import visible
    from ._report.report import MAX_GROUP_HEATMAPS, Report, render_text

    long_args = {"item": args.item, "rater": args.rater, "label": args.label}
    long = any(v is not None for v in long_args.values())
    if long and any(v is None for v in long_args.values()):
        lacking = ", ".join(f"--{k}" for k, v in long_args.items() if v is None)
        return _error(f"the long layout needs --item, --rater and --label; {lacking} missing.", err)
    fmt = output_format(args.output, args.format)
    if fmt == "parquet" and args.output is None:
        return _error("parquet is binary: name a file with --output (or -o - for stdout).", err)
    on_overall = args.fail_on == "overall" or (args.fail_on == "value" and args.overall)
    if args.fail_on == "overall" and not args.overall:
        return _error("--fail-on overall checks the --overall table: add --overall METHOD.", err)
    bar = args.fail_under
    if bar is not None and args.fail_on not in _UNBOUNDED and not -1 <= bar <= 1:
        return _error(
            f"--fail-under {bar:g} is outside [-1, 1], where {args.fail_on} lies, so it "
            "would fail every row or none; give a bar such as 0.6.",
            err,
        )
    extra = bool(args.overall or args.raters_summary)
    if (
        extra
        and fmt in ("csv", "tsv", "json", "jsonl", "parquet")
        and (args.output is None or args.output == STDIO)
    ):
        return _error(
            f"--overall and --raters-summary write their tables beside the --output file "
            f"(<name>.overall.{fmt}, <name>.raters.{fmt}); name a file with --output, or "
            "use the text format on stdout.",
            err,
        )
    if args.input != STDIO:
        _check_not_input(args.input, args.output)

    by = list(args.by or [])
    options = _text_options(args)
    if args.exclude and not long and not args.raters:
        skip = {*by, *args.exclude, *([args.reference] if args.reference else [])}
        names = columns_of(args.input, args.input_format, options)
        unknown = [c for c in args.exclude if c not in names]
        if unknown:
            raise KappaFrameError(
                f"--exclude names {', '.join(map(repr, unknown))}, not a column of the input: "
                f"{', '.join(names)}."
            )
        args.raters = [c for c in names if c not in skip]

    if long:
        needed: list[Hashable] | None = [*by, args.item, args.rater, args.label]
    elif args.raters:
        needed = [*by, *args.raters]
        if args.reference is not None:
            needed.append(args.reference)
    else:
        needed = None
    progress = False if args.no_progress else None
    stream = args.stream and _streamable(args, fmt)
    if stream:
        with _stream_errors(args), _comma_hint(args):
            source, data = _streamed(args, fmt, needed, by, options, progress)
    else:
        if long:
            labels, text = [args.label], [args.item]
        elif args.raters:
            labels, text = [*args.raters, *([args.reference] if args.reference else [])], []
        else:
            labels, text = None, []
        with _comma_hint(args):
            data = read_input(
                args.input,
                needed,
                fmt=args.input_format,
                progress=progress,
                na_values=args.na_values,
                labels=labels,
                text=text,
                options=options,
                labels_except=by if labels is None else None,
            )
        source = data

    label_columns = [args.label] if long else (args.raters or [c for c in data if c not in by])
    if args.map or args.drop_labels:
        data = _relabel(data, label_columns, args.map, args.drop_labels)
        source = data
    categories = _coerce(args.categories, data, label_columns)
    raters = _coerce(args.raters, data, [args.rater]) if long else args.raters
    if args.fail_under is not None and not len(data) and not stream:
        raise KappaFrameError(
            f"no rows to check: {_shown_input(args.input)} has no data rows (a header only), "
            "and --fail-under refuses to pass on nothing; check the export."
        )
    shared = {
        "item": args.item,
        "rater": args.rater,
        "label": args.label,
        "by": by or None,
        "weights": args.weights,
        "categories": categories,
        "duplicates": args.duplicates,
    }
    with warnings.catch_warnings(record=True) as caught, _stream_errors(args), _lines(args, long):
        warnings.simplefilter("always")
        tidy = pairwise(
            source,
            raters,
            **shared,
            scale=args.scale,
            ci=args.ci,
            **_test_options(args),
            min_overlap=args.min_overlap,
            stats=args.stats[0] if args.stats == ["all"] else args.stats,
            reference=args.reference,
        )
        many = (
            overall(
                source,
                raters,
                **shared,
                method=args.overall,
                scale=args.scale,
                ci=args.ci,
                **_test_options(args),
            )
            if args.overall
            else None
        )
        summary = rater_summary(source, raters, **shared) if args.raters_summary else None
    shown_warnings = dict.fromkeys(str(w.message) for w in caught)
    for message in shown_warnings:
        err.write(f"kappaframe: warning: {visible(for_cli(message))}\n")

    checked: Any = many if on_overall else tidy
    column = "value" if on_overall else args.fail_on
    if args.fail_under is not None:
        _check_fail_on(checked, column)
    report = Report(
        tidy=tidy,
        data=None if stream else data,
        source=_shown_input(args.input),
        raters=raters,
        by=by,
        item=args.item,
        rater=args.rater,
        label=args.label,
        weights=args.weights,
        categories=categories,
        duplicates=args.duplicates,
        ci=args.ci,
        fail_under=None if on_overall else args.fail_under,
        fail_on=args.fail_on,
        progress=progress,
        max_heatmaps=MAX_GROUP_HEATMAPS if args.heatmaps is None else args.heatmaps,
    )
    tables = {"overall": many, "raters": summary}
    _write(
        report, fmt, args.output, args.raw, {k: v for k, v in tables.items() if v is not None}, out
    )

    if args.fail_under is None:
        return EXIT_OK
    values = checked[column]
    undefined = int(values.isna().sum())
    if undefined == len(checked):
        what = "rows" if not len(checked) else f"defined {column} values"
        raise KappaFrameError(
            f"no rows to check: the result has no {what} (every one is undefined: no "
            "item rated by both, or one label only), and --fail-under refuses to pass on "
            "nothing."
        )
    below = checked[values < args.fail_under]
    if undefined:
        verb, they = ("has", "it does") if undefined == 1 else ("have", "they do")
        err.write(
            f"kappaframe: note: {_plural(undefined, 'row')} {verb} no {column} (undefined); "
            f"{they} not count against --fail-under.\n"
        )
    if below.empty:
        return EXIT_OK
    err.write(
        f"kappaframe: {len(below)} of {len(checked)} rows have {visible(column)} "
        f"below {args.fail_under:g}:\n"
    )
    err.write(render_text(below.reset_index(drop=True)))
    return EXIT_BELOW


def _shown_input(path: str) -> str:
    return "standard input" if path == "-" else os.path.basename(path) or path


def _write(
    report: Any,
    fmt: str,
    output: str | None,
    raw: bool,
    tables: dict[str, Any],
    out: IO[str],
) -> None:
    """Write the report; the extra tables go beside a table file, or after the text."""
    from pathlib import Path

    from ._io.formats import STDIO, output_compression
    from ._io.write import plain, table_bytes, write_output
    from ._report.report import render_markdown, render_text, spreadsheet_safe, write_report

    titles = {"overall": "Overall agreement (many raters)", "raters": "Raters"}
    if fmt in ("csv", "tsv", "json", "jsonl", "parquet"):

        def encoded(frame: Any) -> bytes:
            if fmt in ("csv", "tsv") and not raw:
                frame = spreadsheet_safe(plain(frame))
            return table_bytes(frame, fmt)

        if output is not None and output != STDIO:
            path = Path(output)
            tail = "".join(path.suffixes[-2:]) if output_compression(path) else path.suffix
            for name, table in tables.items():
                write_output(
                    path.with_name(path.name[: len(path.name) - len(tail)] + f".{name}{tail}"),
                    encoded(table),
                )
        data = encoded(report.tidy)
        if output is None or (output == STDIO and fmt != "parquet"):
            write_output(STDIO, data, out)
        else:
            write_output(output, data, out)
        return
    if fmt == "text":
        text = render_text(report.tidy)
        for name, table in tables.items():
            text += f"\n{titles[name]}:\n{render_text(table)}"
    elif fmt == "markdown":
        text = render_markdown(report)
        for name, table in tables.items():
            text += f"\n## {titles[name]}\n\n{_markdown(table)}"
    else:
        text = write_report(report, fmt, None, raw=raw) or ""
        if fmt == "html" and tables:
            text = text.replace("<footer>", _html_sections(tables, titles) + "<footer>", 1)
    write_output(STDIO if output is None else output, text.encode("utf-8"), out)


def _html_sections(tables: dict[str, Any], titles: dict[str, str]) -> str:
    """The extra tables as HTML sections (the page's own table style)."""
    import html

    from ._report.report import _html_table

    colours = {"overall": ("value",), "raters": ("mean_kappa", "median_kappa", "min_kappa")}
    return "".join(
        f'<section id="{name}-table"><h2>{html.escape(titles[name])}</h2>'
        f'<div class="scroll">{_html_table(table, colour=colours[name])}</div></section>'
        for name, table in tables.items()
    )


def _markdown(frame: Any) -> str:
    from ._report.report import _markdown_table

    return _markdown_table(frame)


@contextlib.contextmanager
def _comma_hint(args: argparse.Namespace) -> Iterator[None]:
    """``--raters a,b,c`` (one name with commas) that is not a column: say to use spaces."""
    from ._errors import KappaFrameError

    try:
        yield
    except KappaFrameError as err:
        commas = [r for r in args.raters or [] if isinstance(r, str) and "," in r]
        if not commas or args.item is not None or "not found" not in str(err):
            raise
        parts = [p for p in commas[0].split(",") if p]
        raise KappaFrameError(
            f"{err} Separate rater names with spaces, not commas: --raters {' '.join(parts)}"
        ) from None


def _relabel(
    data: Any, columns: Sequence[Hashable], changes: list[tuple[str, str]], dropped: list[str]
) -> Any:
    """``--map OLD=NEW`` renames, then ``--drop-labels`` marks missing, in the label columns."""
    data = data.copy()
    present = [c for c in columns if c in data]
    olds = _coerce([o for o, _ in changes], data, present) or []
    news = _coerce([n for _, n in changes], data, present) or []
    gone = _coerce(dropped, data, present) or []
    for c in present:
        column = data[c]
        if hasattr(column, "cat"):
            column = column.astype(object)
        if changes:
            column = column.replace(dict(zip(olds, news, strict=True)))
        if gone:
            column = column.where(~column.isin(gone), None)
        data[c] = column
    return data


@contextlib.contextmanager
def _lines(args: argparse.Namespace, long: bool) -> Iterator[None]:
    """Duplicate ratings: the API's 0-based rows become the file's line numbers."""
    import re

    from ._errors import KappaFrameError
    from ._io.formats import STDIO
    from ._io.read import TEXT_FORMATS, expand_input, input_kind

    try:
        yield
    except KappaFrameError as err:
        message = str(err)
        found = re.search(r"\(rows (\d+) and (\d+)\)", message)
        one = args.input == STDIO or expand_input(args.input) == [args.input]
        if found is None or not long or args.raters or not one:
            raise
        a, b = int(found.group(1)), int(found.group(2))
        if input_kind(args.input, args.input_format) in TEXT_FORMATS:
            where = f"(lines {a + 2} and {b + 2} of {_shown_input(args.input)}, after its header)"
        else:
            where = f"(records {a + 1} and {b + 1} of {_shown_input(args.input)})"
        raise KappaFrameError(message.replace(found.group(0), where)) from None


@contextlib.contextmanager
def _stream_errors(args: argparse.Namespace) -> Iterator[None]:
    """With --stream the file is parsed while counting: its parse errors are input errors."""
    if not args.stream:
        yield
        return
    import pyarrow as pa

    from ._errors import KappaFrameError

    try:
        yield
    except KappaFrameError:
        raise
    except (pa.ArrowException, OSError) as err:
        raise KappaFrameError(
            f"could not read {args.input!r} (--stream): {err}; check the file, or drop --stream "
            "to read it whole."
        ) from None


def _check_not_input(input_path: str, output: str | None) -> None:
    """Refuse an output that is the input file (by any name: a link, a hard link)."""
    from ._errors import KappaFrameError

    if output is None or not os.path.exists(output) or not os.path.exists(input_path):
        return
    try:
        same = os.path.samefile(input_path, output)
    except OSError:
        return
    if same:
        raise KappaFrameError(
            f"--output {output!r} is the input file {input_path!r}; writing the report "
            "there would destroy the ratings: choose another --output."
        )


def _check_fail_on(tidy: Any, column: str) -> None:
    """The ``--fail-on`` column must be in the result and hold numbers."""
    import pandas as pd

    from ._errors import KappaFrameError

    if column not in tidy.columns:
        shown = ", ".join(str(c) for c in tidy.columns)
        raise KappaFrameError(f"--fail-on column {column!r} is not in the result: {shown}.")
    kind = tidy[column].dtype
    if not pd.api.types.is_numeric_dtype(kind) or pd.api.types.is_bool_dtype(kind):
        numbers = [
            str(c)
            for c in tidy.columns
            if pd.api.types.is_numeric_dtype(tidy[c].dtype)
            and not pd.api.types.is_bool_dtype(tidy[c].dtype)
        ]
        raise KappaFrameError(
            f"--fail-on column {column!r} is not a number column; --fail-under compares "
            f"numbers: choose one of {', '.join(numbers)}."
        )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
