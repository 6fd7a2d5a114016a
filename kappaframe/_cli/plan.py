"""``kappaframe plan [INPUT]``: flags in, ``kf.sample_size`` out: how many items to rate.

Without INPUT every number comes from the flags; with INPUT (a pilot, read as ``report``
reads it) its category shares and Fleiss' kappa per ``--by`` group stand for ``--props`` and
``--kappa1`` (power) or ``--kappa0`` (interval). The table goes to stdout or ``--output``.
"""

from __future__ import annotations

import argparse
import warnings
from datetime import datetime, timezone
from typing import IO, Any

from . import EXIT_OK
from .logs import log, relay
from .messages import line_numbers, shown_input
from .output import records_provenance, table_format, write_table
from .ratings import coerce, needed_columns, read_whole, resolve_exclude, text_options
from .report import settings


def _format(args: argparse.Namespace) -> str:
    return table_format(args.output, args.format, "the plan")


def _pilot_flags(args: argparse.Namespace) -> None:
    """Refuse the pilot's flags without a pilot: they would be silently unused."""
    from .._errors import KappaFrameError

    given = {
        "--raters": args.raters,
        "--exclude": args.exclude,
        "--item": args.item,
        "--rater": args.rater,
        "--label": args.label,
        "--by": args.by,
        "--categories": args.categories,
    }
    used = [flag for flag, value in given.items() if value]
    if used:
        raise KappaFrameError(
            f"{used[0]} describes a pilot file, and none was given: name the pilot "
            f"(kappaframe plan pilot.csv {used[0]} ...), or drop {used[0]}."
        )


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``kappaframe plan``: write the sample-size table; return the exit code."""
    from .._api.sample_size import sample_size
    from .._io.provenance import provenance

    fmt = _format(args)
    numbers = {
        "kappa0": args.kappa0,
        "kappa1": args.kappa1,
        "props": args.props,
        "n_raters": args.n_raters,
        "alpha": args.alpha,
        "power": args.power,
        "width": args.width,
        "lower": args.lower,
        "upper": args.upper,
        "n_items": args.n_items,
        "alternative": args.alternative,
        "method": args.size_method,
        "seed": args.seed,
    }
    log.debug("flags: %s", settings(args, fmt))
    progress = False if args.no_progress or args.quiet else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if args.input is None:
            _pilot_flags(args)
            table = sample_size(**numbers)
        else:
            table = _from_pilot(args, numbers, progress)
    relay(str(w.message) for w in caught)
    created = datetime.now(timezone.utc).replace(microsecond=0)
    record = None
    if records_provenance(fmt, args.output, args):
        inputs = [] if args.input is None else [args.input]
        record = provenance(inputs, settings(args, fmt), created=created, progress=progress)
    source = "the given numbers" if args.input is None else shown_input(args.input)
    write_plan(table, fmt, args.output, args.raw, out, record, source)
    return EXIT_OK


def _from_pilot(args: argparse.Namespace, numbers: dict[str, Any], progress: bool | None) -> Any:
    """Read the pilot as ``report`` reads it, and plan from its shares and kappa."""
    from .._api.sample_size import sample_size
    from .._errors import KappaFrameError
    from .._io.formats import STDIO

    given = {"item": args.item, "rater": args.rater, "label": args.label}
    long = args.rater is not None or args.label is not None
    if long and any(v is None for v in given.values()):
        lacking = ", ".join(f"--{k}" for k, v in given.items() if v is None)
        raise KappaFrameError(
            f"the long layout needs --item, --rater and --label; {lacking} missing."
        )
    by = list(args.by or [])
    options = text_options(args)
    if args.input != STDIO:
        resolve_exclude(args, by, long, options)
    data = read_whole(args, needed_columns(args, by, long), by, long, options, progress)
    key = [] if long or args.item is None else [args.item]
    label_columns = (
        [args.label] if long else (args.raters or [c for c in data if c not in {*by, *key}])
    )
    categories = coerce(args.categories, data, label_columns)
    raters = coerce(args.raters, data, [args.rater]) if long else args.raters
    if not long and raters is None and key:
        raters = label_columns
    with line_numbers(args, long):
        return sample_size(
            data,
            raters,
            item=args.item if long else None,
            rater=args.rater,
            label=args.label,
            by=by or None,
            categories=categories,
            duplicates=args.duplicates,
            **numbers,
        )


def write_plan(
    table: Any,
    fmt: str,
    output: str | None,
    raw: bool,
    out: IO[str],
    provenance: dict[str, Any] | None,
    source: str,
) -> None:
    """Write the plan in ``fmt`` to ``output`` (or stdout), with its provenance."""
    write_table(table, fmt, output, raw, out, provenance, f"How many items? ({source})")
