"""``kappaframe report INPUT``: flags in, ``kf.pairwise``, ``kf.overall``, ``kf.raters`` out."""

from __future__ import annotations

import argparse
import os
import warnings
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import IO, Any

from . import EXIT_BELOW, EXIT_INCONCLUSIVE, EXIT_OK
from .bind import keywords
from .logs import log, relay
from .messages import comma_hint, line_numbers, shown_input, usage_error
from .output import SIDECAR_MARK, records_provenance, write_result, written_files
from .ratings import (
    coerce,
    long_layout_of_export,
    needed_columns,
    read_whole,
    relabel,
    resolve_exclude,
    text_options,
    tool_export,
)
from .stream import scan_input, stream_read_errors, streamable

#: ``--fail-on`` columns that are not bounded by [-1, 1]: any finite bar is allowed.
_UNBOUNDED = ("n", "z")


#: The flags that choose a reference's convention for --overall, and their defaults.
_CONVENTIONS = {"ddof": 1, "alpha_centre": "p_a_prime", "z_from": "se0"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: Flags that change what is said on stderr, never the result: not in the provenance.
_NOT_SETTINGS = ("quiet", "verbose", "no_progress", "no_provenance")


def settings(args: argparse.Namespace, fmt: str) -> dict[str, Any]:
    """The options a table was made with, for its provenance: the flags as resolved.

    Every flag's value (the defaults included) but those that only change the messages,
    with the output format as decided (``--format`` or the suffix) and ``raters`` as
    taken (``--exclude`` resolved).
    """
    options = {k: v for k, v in vars(args).items() if k not in _NOT_SETTINGS}
    options["format"] = fmt
    return options


@dataclass
class _Ratings:
    """The input as the report reads it: its rows, what is counted, and how it is laid out."""

    data: Any
    source: Any  # what the functions count: the rows, or the file scan with --stream
    long: bool
    by: list[Any]
    stream: bool
    progress: bool | None
    raters: Any
    categories: Any
    multi: bool
    sep: str | None


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``kappaframe report``: write the report of ``args.input``; return the exit code."""
    from .._io.formats import output_format
    from .._io.provenance import provenance
    from . import baseline as gate

    if tool_export(args):
        long_layout_of_export(args)
    fmt = output_format(args.output, args.format)
    wrong = _usage(args, fmt)
    if wrong is not None:
        return usage_error(wrong, err)
    log.debug("flags: %s", settings(args, fmt))
    earlier = None
    if args.baseline is not None:
        earlier = gate.read_baseline(args, settings(args, fmt))
        if earlier.kind == "overall" and not args.overall:
            return usage_error(
                f"--baseline {earlier.name} is an --overall table (method, value): add "
                "--overall with its methods, or give the pairs table as the baseline.",
                err,
            )
    ratings = _read(args, fmt)
    tables = _compute(args, ratings)
    compared = None
    if earlier is not None:
        old = earlier.table
        if earlier.kind == "counts":
            old = gate.counts_baseline(
                earlier, args, {"by": ratings.by or None, **_shared(args, ratings)}
            )
        which = "overall" if earlier.kind == "overall" else "pairs"
        tables[which] = compared = gate.compare(tables[which], old, args, earlier.name)
    on_overall = args.fail_on == "overall" or (args.fail_on == "value" and args.overall)
    checked: Any = tables["overall"] if on_overall else tables["pairs"]
    column = "value" if on_overall else args.fail_on
    if args.fail_under is not None:
        _check_fail_on(checked, column)
    created = datetime.now(timezone.utc).replace(microsecond=0)
    report = _report(args, ratings, tables["pairs"], created, on_overall, earlier, compared)
    record = None
    if records_provenance(fmt, args.output, args):
        record = provenance(
            [args.input], settings(args, fmt), created=created, progress=ratings.progress
        )
    extra = {k: v for k, v in tables.items() if k != "pairs" and v is not None}
    write_result(report, fmt, args.output, args.raw, extra, out, provenance=record)

    if compared is not None and checked is compared:  # rows of the baseline only: no value
        checked = checked[checked["state"].astype(str) != "missing"]
    below = _fail_under(args, checked, column)
    verdict = EXIT_OK
    if compared is not None and earlier is not None:
        verdict = gate.verdict(compared, args, earlier.name, failed=below == EXIT_BELOW)
    if EXIT_BELOW in (below, verdict):
        return EXIT_BELOW
    return EXIT_INCONCLUSIVE if verdict == EXIT_INCONCLUSIVE else EXIT_OK


def _usage(args: argparse.Namespace, fmt: str) -> str | None:
    """What is wrong with the flags together, before anything is read; else None."""
    from .._io.formats import STDIO
    from . import baseline as gate

    long_args = {"item": args.item, "rater": args.rater, "label": args.label}
    long = any(v is not None for v in long_args.values())
    wide_trials = args.trial is not None and args.rater is None and args.label is None
    if long and any(v is None for v in long_args.values()) and not wide_trials:
        lacking = ", ".join(f"--{k}" for k, v in long_args.items() if v is None)
        return f"the long layout needs --item, --rater and --label; {lacking} missing."
    if fmt == "parquet" and args.output is None:
        return "parquet is binary: name a file with --output (or -o - for stdout)."
    if args.fail_on == "overall" and not args.overall:
        return "--fail-on overall checks the --overall table: add --overall METHOD."
    chosen = [k for k, default in _CONVENTIONS.items() if getattr(args, k) != default]
    if chosen and not args.overall:
        flag = "--" + chosen[0].replace("_", "-")
        return (
            f"{flag} chooses a convention of the --overall coefficients; add --overall "
            f"METHOD or drop {flag}."
        )
    bar = args.fail_under
    if bar is not None and args.fail_on not in _UNBOUNDED and not -1 <= bar <= 1:
        return (
            f"--fail-under {bar:g} is outside [-1, 1], where {args.fail_on} lies, so it "
            "would fail every row or none; give a bar such as 0.6."
        )
    wrong = gate.check_flags(args)
    if wrong is not None:
        return wrong
    if args.distance is not None and not args.overall:
        return "--distance is Krippendorff's distance between sets: add --overall krippendorff."
    if _multi(args) and args.stream:
        return (
            "sets of labels (--multi-sep, --distance, --per-label) are read whole; drop --stream."
        )
    if args.trial is not None and args.stream:
        return "repeated trials (--trial) are read whole; drop --stream."
    extra = bool(args.overall or args.raters_summary or args.per_label is not None)
    if (
        extra
        and fmt in ("csv", "tsv", "json", "jsonl", "parquet")
        and (args.output is None or args.output == STDIO)
    ):
        return (
            f"--overall, --raters-summary and --per-label write their tables beside the "
            f"--output file (<name>.overall.{fmt}, <name>.raters.{fmt}, "
            f"<name>.per_label.{fmt}); name a file with --output, or "
            "use the text format on stdout."
        )
    if args.input != STDIO:
        asked = {
            "overall": args.overall,
            "raters": args.raters_summary,
            "per_label": args.per_label is not None,
        }
        _check_not_input(
            args.input, written_files(args.output, fmt, [n for n, on in asked.items() if on])
        )
    return None


def _multi(args: argparse.Namespace) -> bool:
    """Labels are sets (--multi-sep, --distance or --per-label)."""
    return args.multi_sep is not None or args.distance is not None or args.per_label is not None


def _read(args: argparse.Namespace, fmt: str) -> _Ratings:
    """Read INPUT (whole, or as a scan with --stream) and the raters and categories in it."""
    from .._errors import KappaFrameError

    trial = [args.trial] if args.trial is not None else []
    # With --trial, --item alone is the wide layout's item column (a row per item and trial).
    long = args.item is not None and not (trial and args.rater is None and args.label is None)
    by = list(args.by or [])
    options = text_options(args)
    keys = [*by, *([args.time] if args.time is not None else [])]  # read as group keys
    keys += [*trial, *([args.item] if trial and not long and args.item is not None else [])]
    keys += [args.cluster] if args.cluster is not None else []
    resolve_exclude(args, keys, long, options)
    needed = needed_columns(args, keys, long)
    progress = False if args.no_progress or args.quiet else None
    stream = args.stream and streamable(args, fmt)
    if stream:
        with stream_read_errors(args), comma_hint(args):
            source, data = scan_input(args, fmt, needed, keys, options, progress)
    else:
        data = read_whole(args, needed, keys, long, options, progress)
        source = data
    label_columns = [args.label] if long else (args.raters or [c for c in data if c not in keys])
    if args.map or args.drop_labels:
        data = relabel(data, label_columns, args.map, args.drop_labels)
        source = data
    categories = coerce(args.categories, data, label_columns)
    multi, sep = _multi(args), None
    if multi:  # sets compared whole in the pairs table; split again by overall, per_label
        data, sep = sets_as_text(data, label_columns, args.multi_sep)
        source = data
    raters = coerce(args.raters, data, [args.rater]) if long else args.raters
    if args.fail_under is not None and not len(data) and not stream:
        raise KappaFrameError(
            f"no rows to check: {shown_input(args.input)} has no data rows (a header only), "
            "and --fail-under refuses to pass on nothing; check the export."
        )
    return _Ratings(data, source, long, by, stream, progress, raters, categories, multi, sep)


def _shared(args: argparse.Namespace, ratings: _Ratings) -> dict[str, Any]:
    """What the command worked out that every function takes: groups and categories."""
    return {"by": ratings.by or None, "categories": None if ratings.multi else ratings.categories}


def _compute(args: argparse.Namespace, ratings: _Ratings) -> dict[str, Any]:
    """The pairs table, and the --overall, --raters-summary and --per-label tables asked."""
    from .._api.overall import overall
    from .._api.pairwise import pairwise
    from .._api.per_label import per_label
    from .._api.raters import raters as rater_summary
    from .._errors import KappaFrameError

    source, raters, shared = ratings.source, ratings.raters, _shared(args, ratings)
    sets = {"multi_sep": ratings.sep, "categories": ratings.categories}
    tables: dict[str, Any] = {"pairs": None, "overall": None, "raters": None, "per_label": None}
    with (
        warnings.catch_warnings(record=True) as caught,
        stream_read_errors(args),
        line_numbers(args, ratings.long),
    ):
        warnings.simplefilter("always")
        tables["pairs"] = pairwise(source, raters, **keywords(pairwise, args, **shared))
        if args.overall:
            options = keywords(overall, args, **{**shared, **sets}, method=args.overall)
            tables["overall"] = overall(source, raters, **options)
        if args.raters_summary:
            if args.time is not None:
                raise KappaFrameError(
                    "--raters-summary is not computed per time window; leave out --time, "
                    "or run it on each window's rows.",
                    option="time",
                )
            options = keywords(rater_summary, args, **shared)
            tables["raters"] = rater_summary(source, raters, **options)
        if args.per_label is not None:
            method = args.per_label or "fleiss"
            options = keywords(per_label, args, **{**shared, **sets}, method=method)
            tables["per_label"] = per_label(source, raters, **options)
    relay(str(w.message) for w in caught)
    return tables


def _report(
    args: argparse.Namespace,
    ratings: _Ratings,
    tidy: Any,
    created: datetime,
    on_overall: bool,
    earlier: Any,
    compared: Any,
) -> Any:
    """The report of the pairs table, with what it was made from and the gate's states."""
    from .._report.report import MAX_GROUP_HEATMAPS, Report

    stream_or_windows = ratings.stream or args.time is not None
    return Report(
        tidy=tidy,
        data=None if stream_or_windows else ratings.data,  # heatmaps: not per window
        source=shown_input(args.input),
        raters=ratings.raters,
        by=ratings.by,
        item=args.item,
        rater=args.rater,
        label=args.label,
        weights=args.weights,
        categories=ratings.categories,
        duplicates=args.duplicates,
        ci=args.ci,
        fail_under=None if on_overall else args.fail_under,
        fail_on=args.fail_on,
        progress=ratings.progress,
        max_heatmaps=MAX_GROUP_HEATMAPS if args.heatmaps is None else args.heatmaps,
        min_items=args.min_items,
        scale=args.scale,
        created=created,
        baseline=None if earlier is None else earlier.name,
        max_drop=args.max_drop,
        baseline_states=None if compared is None else _state_counts(compared),
    )


def _state_counts(compared: Any) -> dict[str, int]:
    """How many rows are in each state (in the states' order)."""
    from .._api.baseline import STATES

    found = compared["state"].astype(str).value_counts()
    return {s: int(found.get(s, 0)) for s in STATES}


def _fail_under(args: argparse.Namespace, checked: Any, column: str) -> int:
    """The ``--fail-under`` gate: 1 when some row is below the bar (said on stderr), else 0."""
    from .._errors import KappaFrameError
    from .._report.report import render_text

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
        log.warning(
            "%s %s no %s (undefined); %s not count against --fail-under.",
            _plural(undefined, "row"),
            verb,
            column,
            they,
            extra={"label": "note"},
        )
    if below.empty:
        return EXIT_OK
    # The verdict behind exit 1: shown even with --quiet (an ERROR record, unlabelled).
    table = render_text(below.reset_index(drop=True), min_items=args.min_items)
    log.error(
        "%d of %d rows have %s below %g:\n%s",
        len(below),
        len(checked),
        column,
        args.fail_under,
        table.rstrip("\n"),
        extra={"label": ""},
    )
    return EXIT_BELOW


def sets_as_text(data: Any, columns: list[Any], sep: str | None) -> tuple[Any, str]:
    """The label columns with each set written once, its labels sorted and joined by ``sep``.

    The pairs table then compares whole sets, and ``overall`` and ``per_label`` split
    them again on the same separator. Cells that are lists (Parquet) need no ``sep``;
    their labels are joined with "|", which none of them may hold.
    """
    from .._encode.sets import SetLabels
    from .._errors import KappaFrameError
    from .._frames.pandas import factorize_sets

    joiner = "|" if sep is None else sep
    data = data.copy()
    for column in columns:
        fact = factorize_sets(data[column], SetLabels(sep))
        held = [x for labels in fact.uniques for x in labels if joiner in str(x)]
        if held:
            raise KappaFrameError(
                f"label {held[0]!r} in column {column!r} holds {joiner!r}; name another "
                "separator with --multi-sep."
            )
        texts = [joiner.join(map(str, labels)) for labels in fact.uniques] + [None]
        data[column] = [texts[code] for code in fact.codes]
    return data, joiner


def _check_not_input(input_path: str, files: dict[str, str]) -> None:
    """Refuse to write any of ``files`` (path -> its flag) over an input file.

    By any name and through any INPUT: a link, a hard link, a glob's match, a file in an
    input directory; checked before anything is read or written.
    """
    from .._errors import KappaFrameError
    from .._io.read import expand_input

    existing = {path: flag for path, flag in files.items() if os.path.exists(path)}
    if not existing:
        return
    try:
        inputs = expand_input(input_path)
    except (KappaFrameError, OSError):
        return  # reading the input says what is wrong with it
    for path, flag in existing.items():
        for source in inputs:
            try:
                same = os.path.samefile(source, path)
            except OSError:
                continue
            if not same:
                continue
            if source == input_path:
                via = ""
            elif os.path.isdir(input_path):
                via = f" (in the input directory {input_path!r})"
            else:
                via = f" (a match of the input {input_path!r})"
            if flag == "--output":
                what = f"--output {path!r}"
            elif flag.endswith(SIDECAR_MARK):
                table = flag[: -len(SIDECAR_MARK)]
                what = f"the provenance of {table}'s table goes beside it, to {path!r}, which"
            else:
                what = f"{flag} writes its table beside --output, to {path!r}, which"
            raise KappaFrameError(
                f"{what} is the input file {source!r}{via}; writing the report there would "
                "destroy the ratings: choose another --output."
            )


def _check_fail_on(tidy: Any, column: str) -> None:
    """The ``--fail-on`` column must be in the result and hold numbers."""
    import pandas as pd

    from .._errors import KappaFrameError

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
