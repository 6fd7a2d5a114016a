"""``kappaframe report NEW --baseline OLD --max-drop D``: the gate that knows noise from change.

- ``read_baseline``: OLD read whole (a table ``kappaframe report`` wrote with ``--ci``,
  or stored counts, ``kf.Counts.to_frame``), with its provenance record (Parquet
  metadata, or the sidecar ``<OLD>.provenance.json`` whose digest is OLD's); a
  baseline made with another value of a setting of ``SAME_SETTINGS`` (weights,
  categories, relabelling, missing tokens, sets, conventions, groups) is refused,
  naming each difference.
- ``compare``: this run's table against it (``kappaframe.against_baseline``: pairs in
  either order match).
- ``verdict``: the states said on stderr, and the exit code: 1 for a drop
  (``EXIT_BELOW``, as ``--fail-under``), 3 when some row cannot tell
  (``EXIT_INCONCLUSIVE``), else 0.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
from dataclasses import dataclass
from typing import Any

from .._api.settings.params import PARAMS
from . import EXIT_BELOW, EXIT_INCONCLUSIVE, EXIT_OK
from .logs import log

#: The settings that change what a coefficient or its standard error means: a baseline
#: made with another value of any of them is refused (the value is the flag). The
#: options' own are those declared ``match`` (``params.PARAMS``: how labels are weighed,
#: sets split and compared, the standard error's conventions, duplicates, the groups);
#: the command line adds its readers' settings of which cells are labels and which labels
#: (``--na-values``, ``--map``, ``--drop-labels``). The rest do not: the interval's level
#: and quantile, ``z``, the bootstrap's draws, the interpretation, which raters or pairs
#: are there (rows are matched on them), how the file is parsed and what is written.
SAME_SETTINGS = {
    **{p.name: p.flag for p in PARAMS if p.match and p.flag is not None},
    "map": "--map",
    "drop_labels": "--drop-labels",
    "na_values": "--na-values",
}
#: Settings of ``SAME_SETTINGS`` that are lists of tokens whose order means nothing
#: (``--na-values NA N/A`` is ``--na-values N/A NA``).
_UNORDERED = ("na_values", "drop_labels")

#: Columns of the rows said on stderr, after the keys.
_SHOWN = ("baseline", "change", "change_low", "change_high", "state")


@dataclass
class Baseline:
    """The baseline as read: its table, what it is, its name and provenance."""

    table: Any
    kind: str  # "pairs", "overall" or "counts"
    name: str
    record: dict[str, Any] | None


def check_flags(args: argparse.Namespace) -> str | None:
    """A usage message when ``--baseline`` or ``--max-drop`` lacks its partner; else None."""
    if args.baseline is None:
        if args.max_drop is not None:
            return "--max-drop is the drop --baseline tolerates: add --baseline OLD."
        return None
    if args.max_drop is None:
        return (
            "--baseline needs --max-drop D: the largest drop of kappa that does not matter, "
            "e.g. --max-drop 0.1 (a row is dropped when its change's interval lies wholly "
            "below -D)."
        )
    if args.ci is None:
        return (
            "--baseline compares intervals: add --ci 0.95 (this run's standard errors, and "
            "the level of the change's interval)."
        )
    if args.baseline == "-":
        return "--baseline is a file (standard input is for INPUT); name the baseline's path."
    return None


def read_baseline(args: argparse.Namespace, settings: dict[str, Any]) -> Baseline:
    """Read ``--baseline`` whole, tell what it is, and refuse one made otherwise."""
    from .._errors import KappaFrameError
    from .._io.read import TEXT_FORMATS, expand_input, input_kind, read_input
    from .._schema import CELL_COLUMNS
    from .messages import shown_input

    path = args.baseline
    found = expand_input(path)
    if found != [path]:
        raise KappaFrameError(
            f"--baseline {path!r} names {len(found)} files; a baseline is one table "
            "(one earlier run's --output): name that file."
        )
    table = read_input(path, progress=False)
    name = shown_input(path)
    columns = list(table.columns)
    if input_kind(path) in TEXT_FORMATS:
        # Key cells as written (a rater named "101" stays a name); ``compare`` reads them
        # as numbers where this run's keys are numbers.
        count = next((c for c in columns if c in ("n", "n_items")), None)
        keys = columns[: columns.index(count)] if count is not None else []
        if keys:
            table = read_input(path, progress=False, text=keys)
    if all(c in columns for c in CELL_COLUMNS):
        kind = "counts"
    elif "rater_a" in columns:
        kind = "pairs"
    elif "method" in columns:
        kind = "overall"
    else:
        raise KappaFrameError(
            f"--baseline {name} is neither a table kappaframe report wrote (no rater_a or "
            f"method column) nor stored counts ({', '.join(CELL_COLUMNS)}); its columns: "
            f"{', '.join(str(c) for c in columns[:12])}."
        )
    record = None if kind == "counts" else _record(path)
    if record is None and kind != "counts":
        log.warning(
            "--baseline %s has no provenance record (Parquet metadata, or %s beside it), so "
            "the options it was made with are not checked: make sure it used the same "
            "--weights, --categories and --by.",
            name,
            os.path.basename(path) + ".provenance.json",
            extra={"label": "note"},
        )
    elif record is not None:
        _check_same(record.get("options") or {}, settings, name)
    return Baseline(table, kind, name, record)


def _record(path: str) -> dict[str, Any] | None:
    """The provenance record of a file kappaframe wrote, or None if it has none."""
    from .._io.formats import sidecar_path
    from .._io.provenance import METADATA_KEY, file_digest
    from .._io.read import input_kind

    if input_kind(path) == "parquet":
        import pyarrow.parquet as pq

        metadata = pq.read_schema(path).metadata or {}
        text = metadata.get(METADATA_KEY.encode())
        return _json(text.decode("utf-8")) if text is not None else None
    side = sidecar_path(path)
    if not os.path.isfile(side):
        return None
    with open(side, encoding="utf-8") as handle:
        record = _json(handle.read())
    described = (record or {}).get("file") or {}
    if described.get("sha256") != file_digest(path)[1]:
        log.warning(
            "%s does not describe %s as it is now (another digest): a sidecar left from "
            "another run; the baseline's options are not checked.",
            os.path.basename(side),
            os.path.basename(path),
            extra={"label": "note"},
        )
        return None
    return record


def _json(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _check_same(old: dict[str, Any], new: dict[str, Any], name: str) -> None:
    """Refuse a baseline whose provenance names other settings, saying each difference."""
    from .._errors import KappaFrameError

    differences = []
    for option, flag in SAME_SETTINGS.items():
        if option not in old:
            continue
        before = _normal(old.get(option), option in _UNORDERED)
        now = _normal(new.get(option), option in _UNORDERED)
        if before != now:
            differences.append(f"{flag}: {_shown(before)} then, {_shown(now)} now")
    if differences:
        raise KappaFrameError(
            f"--baseline {name} was made with other settings, so its coefficients are not "
            f"this run's: {'; '.join(differences)}. Run with the baseline's settings, or "
            "make a new baseline with these."
        )


def _normal(value: Any, unordered: bool = False) -> Any:
    """A setting as JSON has it (tuples are lists; an empty list is no value).

    ``unordered``: a list of tokens whose order means nothing, sorted and each once.
    """
    value = json.loads(json.dumps(value, default=str))
    if unordered and isinstance(value, list):
        value = sorted(set(map(str, value)))
    return None if value == [] else value


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return " ".join("=".join(map(str, v)) if isinstance(v, list) else str(v) for v in value)
    return str(value)


def counts_baseline(baseline: Baseline, args: argparse.Namespace, shared: dict[str, Any]) -> Any:
    """Stored counts finalised as this run finalises its pairs (weights, ci, population).

    And with its ``--min-overlap`` and ``--reference``, so that the same pairs are there.
    """
    from .._api.counts import Counts

    counts = Counts.from_frame(baseline.table, by=shared["by"], categories=shared["categories"])
    return counts.pairwise(
        weights=args.weights,
        ci=args.ci,
        population=args.population,
        min_items=args.min_items,
        min_overlap=args.min_overlap,
        reference=args.reference,
    )


def compare(new: Any, baseline: Any, args: argparse.Namespace, name: str) -> Any:
    """Compare this run's table with the baseline's; refuse one sharing no row with it."""
    from .._api.baseline import against_baseline
    from .._errors import KappaFrameError

    out = against_baseline(
        new, baseline=_typed_like(baseline, new), max_drop=args.max_drop, ci=args.ci
    )
    state = out["state"].astype(str)
    if len(out) and state.isin(["new", "missing"]).all():
        keys = [c for c in out.columns if c in _keys(out)]
        shown_new = _examples(out[state == "new"], keys)
        shown_old = _examples(out[state == "missing"], keys)
        raise KappaFrameError(
            f"--baseline {name} shares no row with this run (rows are matched on "
            f"{', '.join(map(str, keys))}): this run has {shown_new}, the baseline "
            f"{shown_old}. Check --by, the raters and the file."
        )
    return out


def _typed_like(baseline: Any, new: Any) -> Any:
    """The baseline with its text key cells as numbers (or times) where this run's are.

    A CSV baseline's key cells are read as written (text); a key that this run reads as
    numbers (a group id 7, a rater id 101) or as dates and times is read so in the
    baseline too, when every cell is one.
    """
    import pandas as pd
    from pandas.api.types import is_bool_dtype, is_datetime64_any_dtype, is_numeric_dtype

    out = baseline
    for column in _keys(new):
        if column not in baseline.columns:
            continue
        kind, written = new[column].dtype, baseline[column].dtype
        if is_numeric_dtype(written) or is_datetime64_any_dtype(written):
            continue
        try:
            if is_datetime64_any_dtype(kind):
                numbers = pd.to_datetime(baseline[column]).astype(kind)
            elif is_numeric_dtype(kind) and not is_bool_dtype(kind):
                numbers = pd.to_numeric(baseline[column])
            else:
                continue
        except (TypeError, ValueError):
            continue  # against_baseline names the column whose kinds differ
        if out is baseline:
            out = baseline.copy()
        out[column] = numbers
    return out


def _keys(table: Any) -> list[Any]:
    from .._api.baseline import result_layout

    return result_layout([c for c in table.columns if c not in _SHOWN], "the table").keys


def _examples(rows: Any, keys: list[Any]) -> str:
    if not len(rows):
        return "no rows"
    shown = [
        "(" + ", ".join(str(v) for v in row) + ")"
        for row in rows[keys].head(3).itertuples(index=False, name=None)
    ]
    more = f" and {len(rows) - 3} more" if len(rows) > 3 else ""
    return ", ".join(shown) + more


def verdict(compared: Any, args: argparse.Namespace, name: str, failed: bool = False) -> int:
    """Say the states on stderr; return 1 (a drop), 3 (cannot tell) or 0.

    ``failed``: the run fails already (``--fail-under``): rows that cannot tell are a note.
    """
    from .._report.report import render_text

    state = compared["state"].astype(str)
    keys = _keys(compared)
    value = "kappa" if "kappa" in compared.columns else "value"
    columns = [*keys, value, *_SHOWN]
    counts = state.value_counts()

    def rows(which: str) -> str:
        table = compared.loc[state == which, columns].reset_index(drop=True)
        return render_text(table, min_items=None).rstrip("\n")

    level = f"{args.ci * 100:g}%"
    for which, what in (
        ("new", "not in the baseline (new)"),
        ("missing", "in the baseline only (missing from this run)"),
        (
            "undefined",
            "without a value or standard error on one side (undefined: no item rated by "
            "both, or a rater who used one category only)",
        ),
    ):
        if counts.get(which, 0):
            n = int(counts[which])
            log.warning(
                "%s %s; %s not count for the gate:\n%s",
                f"{n} row" if n == 1 else f"{n} rows",
                what,
                "it does" if n == 1 else "they do",
                rows(which),
                extra={"label": "note"},
            )
    compared_rows = int(state.isin(["ok", "inconclusive", "dropped"]).sum())
    dropped = int(counts.get("dropped", 0))
    if dropped:
        # The verdict behind exit 1: shown even with --quiet (an ERROR record, unlabelled).
        log.error(
            "%d of %d rows dropped by more than %g since %s (the change's %s interval lies "
            "below -%g):\n%s",
            counts["dropped"],
            compared_rows,
            args.max_drop,
            name,
            level,
            args.max_drop,
            rows("dropped"),
            extra={"label": ""},
        )
    if counts.get("inconclusive", 0):
        # The verdict behind exit 3, unless the run fails already (then a note).
        note = bool(dropped) or failed
        log.log(
            logging.WARNING if note else logging.ERROR,
            "%d of %d rows cannot tell a drop larger than %g from noise (inconclusive: the "
            "change's %s interval reaches below -%g and above it); more items, or a larger "
            "--max-drop, would tell:\n%s",
            counts["inconclusive"],
            compared_rows,
            args.max_drop,
            level,
            args.max_drop,
            rows("inconclusive"),
            extra={"label": "note" if note else ""},
        )
    if dropped:
        return EXIT_BELOW
    if counts.get("inconclusive", 0):
        return EXIT_INCONCLUSIVE
    if not compared_rows:
        log.error(
            "no row could be compared with %s (every matched row is undefined): the gate "
            "cannot tell.",
            name,
            extra={"label": ""},
        )
        return EXIT_INCONCLUSIVE
    return EXIT_OK
