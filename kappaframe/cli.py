"""The ``kappaframe`` command: ``kappaframe demo`` and ``kappaframe report INPUT``.

Exit codes: 0 ok; 1 when ``--fail-under`` is given and some row is below it (the
offending rows go to stderr; the report is still written); 2 for usage and input errors
(a message on stderr, no traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Hashable, Sequence
from typing import IO, Any

__all__ = ["build_parser", "main"]

EXIT_OK, EXIT_BELOW, EXIT_USAGE = 0, 1, 2

_EPILOG = """\
exit codes: 0 ok; 1 some row below --fail-under; 2 usage or input error.

examples:
  kappaframe demo
  kappaframe demo --save team.csv
  kappaframe report team.csv --raters ana ben cai dee eli --by project \\
      --categories bad poor ok good great --weights linear --ci 0.95
  kappaframe report ratings.parquet --item item_id --rater annotator --label label \\
      --by project --output agreement.parquet --fail-under 0.6
  kappaframe report team.csv --by project --format html --output team.html
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
        help="also write the data set to PATH (.csv, .parquet, .jsonl) to try `report` on",
    )

    report = commands.add_parser(
        "report",
        help="pairwise agreement of a CSV, Parquet or JSON lines file",
        description="Pairwise Cohen's kappa of the raters in INPUT, per group; written as "
        "a table to stdout or to --output.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    report.add_argument("input", metavar="INPUT", help="CSV, TSV, Parquet or JSON lines file")
    report.add_argument(
        "--input-format", choices=INPUT_FORMATS, help="default: from the file's suffix"
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
    stats.add_argument("--weights", choices=["linear", "quadratic"], help="weighted kappa")
    stats.add_argument(
        "--categories",
        nargs="+",
        metavar="LABEL",
        help="all labels in order (needed for weights when labels are words)",
    )
    stats.add_argument(
        "--scale", choices=sorted(SCALES), default="landis_koch", help="interpretation bands"
    )
    stats.add_argument(
        "--ci",
        type=_level,
        metavar="LEVEL",
        help="confidence level, e.g. 0.95: adds se, ci_low, ci_high, z, p_value",
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
        type=float,
        metavar="X",
        help="exit 1 when some row's --fail-on value is below X (NaN does not count)",
    )
    out.add_argument(
        "--fail-on",
        default="kappa",
        metavar="COLUMN",
        help="the column --fail-under checks (default kappa; e.g. ci_low, p_o)",
    )
    out.add_argument(
        "--no-progress", action="store_true", help="no progress bar, even on a terminal"
    )
    report.add_argument(
        "--stream",
        action="store_true",
        help="count CSV or Parquet in batches (memory flat in the file's size) instead of "
        "reading it whole; tables only (not markdown or html)",
    )
    return parser


def _level(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"a confidence level is between 0 and 1; got {text}")
    return value


def _error(message: str, stream: IO[str]) -> int:
    stream.write(f"kappaframe: error: {message}\n")
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
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
        return _error(str(err), sys.stderr)
    except ModuleNotFoundError as err:
        return _error(str(err), sys.stderr)
    except KeyboardInterrupt:
        sys.stderr.write("kappaframe: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader of our stdout went away (e.g. `| head`): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


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


def _save_dataset(data: Any, path: str) -> None:
    from ._io.formats import output_format
    from ._io.write import write_atomic
    from ._report.report import Report, _plain, write_report

    fmt = output_format(path)
    if fmt in ("csv", "json", "jsonl", "parquet"):
        write_report(Report(tidy=data), fmt, path)
    else:
        frame = _plain(data)
        write_atomic(path, lambda tmp: frame.to_csv(tmp, index=False))


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


def _streamed(args: argparse.Namespace, fmt: str, needed: Any) -> tuple[Any, Any]:
    """``kf.scan`` of the input for pairwise, and its first rows (for label types)."""
    from pathlib import Path

    from ._errors import KappaFrameError
    from ._frames.files import scan
    from ._io.formats import _split_suffix, input_format
    from ._io.read import read_head

    if fmt in ("markdown", "html"):
        raise KappaFrameError(
            f"--format {fmt} shows pictures and summaries of the rows, so it reads the file "
            "whole; drop --stream, or write a table (csv, json, jsonl, parquet, text)."
        )
    kind = input_format(args.input, args.input_format)
    if kind not in ("csv", "tsv", "parquet") or _split_suffix(Path(args.input))[1] is not None:
        raise KappaFrameError("--stream reads uncompressed CSV, TSV and Parquet files.")
    head = read_head(args.input, needed, fmt=kind)
    # Empty cells are missing labels, as pandas reads them (pyarrow's default is "").
    options: dict[str, Any] = {"convert": {"strings_can_be_null": True}}
    if kind == "tsv":
        options["parse"] = {"delimiter": "\t"}
    fmt_name = "parquet" if kind == "parquet" else "csv"
    return scan(args.input, format=fmt_name, csv_options=options), head


def _report(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from ._api.pairwise import pairwise
    from ._errors import KappaFrameError
    from ._io.formats import output_format
    from ._io.read import read_input
    from ._report.report import Report, render_text, write_report

    long_args = {"item": args.item, "rater": args.rater, "label": args.label}
    long = any(v is not None for v in long_args.values())
    if long and any(v is None for v in long_args.values()):
        lacking = ", ".join(f"--{k}" for k, v in long_args.items() if v is None)
        return _error(f"the long layout needs --item, --rater and --label; {lacking} missing.", err)
    fmt = output_format(args.output, args.format)
    if fmt == "parquet" and args.output is None:
        return _error("parquet is binary: name a file with --output.", err)

    by = list(args.by or [])

    if long:
        needed: list[Hashable] | None = [*by, args.item, args.rater, args.label]
    elif args.raters:
        needed = [*by, *args.raters]
        if args.reference is not None:
            needed.append(args.reference)
    else:
        needed = None
    progress = False if args.no_progress else None
    if args.stream:
        source, data = _streamed(args, fmt, needed)
    else:
        data = read_input(args.input, needed, fmt=args.input_format, progress=progress)
        source = data

    label_columns = [args.label] if long else (args.raters or [c for c in data if c not in by])
    categories = _coerce(args.categories, data, label_columns)
    raters = _coerce(args.raters, data, [args.rater]) if long else args.raters
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tidy = pairwise(
            source,
            raters,
            item=args.item,
            rater=args.rater,
            label=args.label,
            by=by or None,
            weights=args.weights,
            categories=categories,
            scale=args.scale,
            ci=args.ci,
            duplicates=args.duplicates,
            min_overlap=args.min_overlap,
            stats=args.stats[0] if args.stats == ["all"] else args.stats,
            reference=args.reference,
        )
    for warning in caught:
        err.write(f"kappaframe: warning: {warning.message}\n")

    if args.fail_under is not None and args.fail_on not in tidy.columns:
        shown = ", ".join(str(c) for c in tidy.columns)
        raise KappaFrameError(f"--fail-on column {args.fail_on!r} is not in the result: {shown}.")
    report = Report(
        tidy=tidy,
        data=None if args.stream else data,
        source=os.path.basename(args.input),
        raters=raters,
        by=by,
        item=args.item,
        rater=args.rater,
        label=args.label,
        weights=args.weights,
        categories=categories,
        duplicates=args.duplicates,
        fail_under=args.fail_under,
        fail_on=args.fail_on,
        progress=progress,
    )
    text = write_report(report, fmt, args.output)
    if text is not None:
        out.write(text)
        out.flush()

    if args.fail_under is None:
        return EXIT_OK
    below = tidy[tidy[args.fail_on] < args.fail_under]
    undefined = int(tidy[args.fail_on].isna().sum())
    if undefined:
        err.write(
            f"kappaframe: note: {undefined} rows have no {args.fail_on} (undefined); "
            "they do not count against --fail-under.\n"
        )
    if below.empty:
        return EXIT_OK
    err.write(
        f"kappaframe: {len(below)} of {len(tidy)} rows have {args.fail_on} below "
        f"{args.fail_under:g}:\n"
    )
    err.write(render_text(below.reset_index(drop=True)))
    return EXIT_BELOW


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
