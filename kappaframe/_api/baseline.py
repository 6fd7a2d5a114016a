"""A result against an earlier one: which rows dropped, which held, which cannot tell.

``against_baseline`` matches the rows of two results of ``pairwise`` or ``overall``
(computed with ``ci=``, so each row has its ``se``) on their key columns, takes the
change of each coefficient with its interval (``kappaframe._stats.compare.difference``:
two independent samples of items), and gives every row a state. The command line's
``kappaframe report --baseline`` is this function on two files. Nothing here knows a
frame library.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, get_args

import numpy as np

from .._errors import KappaFrameError, KappaFrameTypeError, arg, ways
from .._frames.native import append_rows, eager_adapter
from .._frames.render import render
from .._schema import BASELINE_COLUMNS, MARK, Column, Table, check_names
from .._stats.compare import difference
from .._types import BaselineState
from .options import check_level, check_max_drop
from .settings.bind import declared
from .settings.params import PARAMS

__all__ = [
    "RECORDED",
    "STATES",
    "against_baseline",
    "check_turned_round",
    "recorded_differences",
    "result_layout",
    "said_differences",
    "unordered",
]

#: The states, in the order of the ``state`` column's categories.
STATES: tuple[str, ...] = get_args(BaselineState)

#: The count column that ends a result's keys: ``n`` (pairs, categories), ``n_items``
#: (overall).
_COUNT_COLUMNS = ("n", "n_items")
#: The coefficient a result holds: ``kappa`` (pairs), ``value`` (overall).
_VALUE_COLUMNS = ("kappa", "value")
#: The options a result records (``kappaframe._stats.compare.options_record``, and
#: ``overall``'s conventions and set distance) that two compared results must share.
#: The options a result records that two compared results must share: those declared
#: ``match`` (``settings.params.PARAMS``), in the declarations' order.
RECORDED = tuple(dict.fromkeys(p.name for p in PARAMS if p.match))


@dataclass(frozen=True)
class Layout:
    """Which columns of a result identify a row, and which holds its coefficient."""

    keys: list[Hashable]
    value: Hashable


def result_layout(names: Sequence[Hashable], what: str) -> Layout:
    """The key and value columns of a result with columns ``names``.

    The keys are the columns before the count column (``n`` or ``n_items``): the
    groups, then ``rater_a``, ``rater_b`` (pairs) or ``method`` (overall); the value
    is ``kappa`` or ``value``; ``se`` must be there. ``what`` names the frame in
    messages.
    """
    count = next((c for c in names if c in _COUNT_COLUMNS), None)
    value = next((c for c in _VALUE_COLUMNS if c in names), None)
    if count is None or value is None:
        shown = ", ".join(repr(c) for c in list(names)[:12])
        raise KappaFrameError(
            f"{what} is not a result of pairwise() or overall(): it has no "
            f"{'count column (n or n_items)' if count is None else 'kappa or value column'} "
            f"(its columns: {shown}); "
            + ways(
                "pass the frames pairwise() or overall() returned, or files they were written to.",
                "give a table kappaframe report wrote (csv, tsv, json, jsonl, parquet).",
            )
        )
    if "se" not in names:
        raise KappaFrameError(
            f"{what} has no se column: it was computed without a confidence level, so the "
            "change has no interval; "
            + ways(
                "compute it with ci=0.95.",
                "make it with --ci 0.95 (or give stored counts, which are finalised with "
                "this run's options).",
            ),
            option="ci",
        )
    keys = list(names[: list(names).index(count)])
    return Layout(keys, value)


def record_of(frame: Any) -> dict[str, Any]:
    """The options a pandas result records (in ``attrs``); ``{}`` for any other frame."""
    attrs = getattr(frame, "attrs", None)
    mark = attrs.get(MARK) if isinstance(attrs, dict) else None
    return mark if isinstance(mark, dict) else {}


def recorded_differences(one: dict[str, Any], two: dict[str, Any]) -> list[str]:
    """The options of ``RECORDED`` that two results' records both hold, differently.

    Without weights the category list does not enter the coefficient (a label nobody
    used adds nothing), so two weeks with different rare labels stay comparable.
    """
    unweighted = one.get("weights") is None and two.get("weights") is None
    return [
        key
        for key in RECORDED
        if not (key == "categories" and unweighted)
        and key in one
        and key in two
        and one[key] != two[key]
    ]


def said_differences(keys: list[str], records: tuple[dict[str, Any], dict[str, Any]]) -> str:
    """Each differing option and its two values, for a message."""
    return "; ".join(
        f"{key} {records[0][key]!r:.200} and {key} {records[1][key]!r:.200}" for key in keys
    )


def check_turned_round(
    records: tuple[dict[str, Any], dict[str, Any]],
    turned: bool,
    names: tuple[str, str],
    option: str,
) -> None:
    """Refuse pairs matched the other way round when a weight matrix makes kappa one-way.

    A pair's kappa, ``p_o``, ``p_e`` and standard errors are the same whichever rater is
    ``rater_a`` for a symmetric weighting (none, or any named one), so a pair written
    ``(ben, ana)`` is compared with ``(ana, ben)`` as it is. With a weight matrix, which
    may be asymmetric, the kappa of the pair turned round is the kappa of the transposed
    matrix: another number, which a result does not hold. ``turned``: some matched pair
    is written the other way round; ``names``: the two results, as messages say them.
    """
    if not turned:
        return
    weighted = [
        name
        for name, record in zip(names, records, strict=True)
        if str(record.get("weights") or "").startswith("matrix")
    ]
    if weighted:
        raise KappaFrameError(
            f"some pairs are written the other way round in {names[0]} and {names[1]} "
            f"(rater_a and rater_b swapped), and {weighted[0]} was weighted by a matrix: "
            "with an asymmetric matrix a pair's kappa turned round is another number, so "
            "it is not compared. Compute both with the raters in the same order, or with "
            "named weights (e.g. 'linear').",
            option=option,
        )


def _frame(data: Any, name: str) -> Any:
    frame = eager_adapter(data)
    if frame is None:
        raise KappaFrameTypeError(
            f"{name} must be a pandas or polars DataFrame (or LazyFrame), a result of "
            f"pairwise() or overall(); got {type(data).__module__}.{type(data).__qualname__}.",
            option=name,
        )
    return frame


def _kind(value: Any) -> str:
    if isinstance(value, str):
        return "text"
    if isinstance(value, (bool, np.bool_)):
        return "boolean"
    if isinstance(value, numbers.Number):
        return "number"
    return type(value).__name__


def _plain(value: Any) -> Any:
    """A NumPy scalar as the Python value it holds (so that keys hash alike)."""
    return value.item() if isinstance(value, np.generic) else value


def _key_columns(frame: Any, keys: Sequence[Hashable]) -> list[tuple[np.ndarray, list[Any]]]:
    """Each key column as (codes, distinct values); a missing key is the value None."""
    out = []
    for name in keys:
        fact = frame.labels(name)
        out.append((np.asarray(fact.codes), [_plain(u) for u in fact.uniques]))
    return out


def _row_keys(columns: list[tuple[np.ndarray, list[Any]]], n_rows: int) -> list[tuple[Any, ...]]:
    values = [[*uniques, None] for _, uniques in columns]
    return [
        tuple(values[j][int(codes[i])] for j, (codes, _) in enumerate(columns))
        for i in range(n_rows)
    ]


def _numbers(frame: Any, name: Hashable, what: str) -> np.ndarray:
    """A column of numbers as float64 (missing: NaN), or an error naming it."""
    fact = frame.labels(name)
    uniques = [_plain(u) for u in fact.uniques]
    bad = [
        u
        for u in uniques
        if u is not None and (isinstance(u, bool) or not isinstance(u, numbers.Real))
    ]
    if bad:
        raise KappaFrameError(
            f"column {name!r} of {what} must hold numbers; found e.g. {bad[:3]}; check that "
            "it is a table of kappaframe's."
        )
    table = np.array([math.nan if u is None else float(u) for u in uniques] + [math.nan])
    return table[np.asarray(fact.codes)]


def _describe_key(keys: Sequence[Hashable], row: tuple[Any, ...]) -> str:
    return ", ".join(f"{k} = {v!r}" for k, v in zip(keys, row, strict=True))


def unordered(rows: list[tuple[Any, ...]], keys: Sequence[Hashable]) -> list[tuple[Any, ...]]:
    """Each row's key with its pair unordered: ``(ana, ben)`` and ``(ben, ana)`` are one key.

    Keys without ``rater_a`` and ``rater_b`` (an overall result's) are returned as they are.
    """
    if "rater_a" not in keys or "rater_b" not in keys:
        return rows
    a, b = list(keys).index("rater_a"), list(keys).index("rater_b")
    out = []
    for row in rows:
        key = list(row)
        key[a], key[b] = frozenset((row[a], row[b])), None
        out.append(tuple(key))
    return out


def _unique_rows(
    rows: list[tuple[Any, ...]],
    matched: list[tuple[Any, ...]],
    keys: Sequence[Hashable],
    what: str,
) -> None:
    """Refuse a key twice (``matched``: the keys rows are matched on, pairs unordered)."""
    seen: set[tuple[Any, ...]] = set()
    for row, key in zip(rows, matched, strict=True):
        if key in seen:
            either = " (its raters in either order)" if key != row else ""
            raise KappaFrameError(
                f"{what} has two rows for {_describe_key(keys, row)}{either}: a baseline "
                "is one result (one row per group and pair or method); keep one run's "
                "rows, e.g. one night's."
            )
        seen.add(key)


def states(change: np.ndarray, low: np.ndarray, high: np.ndarray, max_drop: float) -> np.ndarray:
    """Each matched row's state code (positions in ``STATES``) from its change's interval.

    ``dropped``: the whole interval lies below ``-max_drop``; ``ok``: none of it does;
    ``inconclusive``: it straddles ``-max_drop``; ``undefined``: no change (either value
    or standard error missing).
    """
    code = {s: i for i, s in enumerate(STATES)}
    out = np.full(len(change), code["inconclusive"], dtype=np.int8)
    out[high < -max_drop] = code["dropped"]
    out[low >= -max_drop] = code["ok"]
    out[~np.isfinite(change) | ~np.isfinite(low) | ~np.isfinite(high)] = code["undefined"]
    return out


@declared
def against_baseline(result: Any, *, baseline: Any, max_drop: float, ci: float = 0.95) -> Any:
    """Compare a result with an earlier one, row by row: ok, dropped, or cannot tell.

    Both are results of ``pairwise`` or ``overall`` made with ``ci=`` (each row has its
    standard error ``se``), e.g. this week's and last week's. Their rows are matched on
    the key columns (the ``by`` columns, then ``rater_a``, ``rater_b`` or ``method``:
    every column before ``n`` / ``n_items``), a pair unordered: ``rater_a=ben,
    rater_b=ana`` is the pair ``ana, ben``, so a run that names its raters in another
    order is matched pair by pair and keeps its own orientation (kappa and its standard
    error are the same whichever rater comes first). For a row in both, the change of
    the coefficient (``kappa``, or ``value`` for ``overall``) and its interval are those
    of two independent samples of items:

        change = new - baseline,   se = sqrt(se_new^2 + se_baseline^2),
        change_low, change_high = change -/+ z_(1 - alpha/2) se,   alpha = 1 - ci

    and the row's ``state`` says what the interval shows about a drop larger than
    ``max_drop``:

    - ``dropped``: ``change_high < -max_drop``, the whole interval lies below
      ``-max_drop``: at this confidence, agreement fell by more than ``max_drop``;
    - ``ok``: ``change_low >= -max_drop``: a drop larger than ``max_drop`` is ruled out
      (rises count as ok);
    - ``inconclusive``: ``change_low < -max_drop <= change_high``: the interval is too
      wide to tell (too few items in either run for a drop of that size);
    - ``undefined``: either coefficient or standard error is missing (no item rated by
      both, one label only, or a rater who used one category only: kappa is then 0 with
      no standard error); not a drop, whatever the other side's value;
    - ``new``: a row of ``result`` the baseline does not have (its baseline columns
      are missing);
    - ``missing``: a row of the baseline that ``result`` does not have, appended after
      the result's rows with its keys and ``baseline`` (its other columns missing).

    A row's state depends only on its own two values and standard errors, ``max_drop``
    and ``ci``: never on the order of the rows or on the groups' names.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame
        Of ``result``'s library (pandas, polars; a LazyFrame stays lazy): ``result``'s
        columns and rows, then the ``missing`` rows; and the columns ``baseline`` (the
        baseline's coefficient), ``change``, ``change_low``, ``change_high`` and
        ``state`` (a categorical / Enum of ``"ok"``, ``"inconclusive"``, ``"dropped"``,
        ``"new"``, ``"missing"``, ``"undefined"``).

    Raises
    ------
    KappaFrameError
        A frame without ``se`` (made without ``ci=``), or that is not a result of
        ``pairwise`` or ``overall``; key columns that differ (other groups, a pairs table
        against an overall one), or hold text in one and numbers in the other; a key
        that repeats (a pair in either order); ``max_drop`` outside [0, 2); ``ci`` outside
        (0, 1); results that record different weights, categories (with weights), level,
        conventions or set ``distance`` (the message names it); a pair written the other way
        round where either result was weighted by a matrix (which may be asymmetric).
    KappaFrameTypeError
        ``result`` or ``baseline`` that is not a frame.

    See Also
    --------
    pairwise, overall : the results compared (with ``ci=``).

    Notes
    -----
    ``dropped`` and ``ok`` are the two one-sided tests of a drop larger than
    ``max_drop``, each at level ``(1 - ci) / 2``: ``dropped`` rejects "the drop is at
    most ``max_drop``", ``ok`` rejects "the drop is larger" (a non-inferiority test with
    margin ``max_drop``, Wellek 2010, ch. 1). A point drop larger than ``max_drop`` is
    not enough for ``dropped``: with few items it is often noise, and the interval says
    so (``inconclusive``). With ``n`` items in each run a kappa's standard error is
    roughly ``1 / sqrt(n)`` or less, so the interval's half-width is about
    ``1.96 * sqrt(2 / n)``: choose ``max_drop`` above it, or rate more items.

    The two results must be independent samples of items (e.g. two nights' exports);
    for the same items rated twice the interval is too wide (a paired comparison
    would need the covariance).

    References
    ----------
    Fleiss, J. L., Levin, B. & Paik, M. C. (2003). Statistical Methods for Rates and
    Proportions (3rd ed.), sec. 18.1. Wiley.

    Wellek, S. (2010). Testing Statistical Hypotheses of Equivalence and
    Noninferiority (2nd ed.). Chapman & Hall/CRC.

    Examples
    --------
    The first 300 items of a team as the baseline, the next 300 as now:

    >>> import kappaframe as kf
    >>> team = kf.datasets.labeling_team(seed=0)
    >>> before = kf.pairwise(team[team["item"] <= 300], ["ana", "ben", "dee"], ci=0.95)
    >>> after = kf.pairwise(team[team["item"] > 300], ["ana", "ben", "dee"], ci=0.95)
    >>> out = kf.against_baseline(after, baseline=before, max_drop=0.1)
    >>> out[["rater_a", "rater_b", "baseline", "kappa", "change_low"]].round(3).values.tolist()
    [['ana', 'ben', 0.464, 0.376, -0.191], ['ana', 'dee', 0.128, 0.108, -0.093], \
['ben', 'dee', 0.081, 0.039, -0.093]]
    >>> out["state"].tolist()
    ['inconclusive', 'ok', 'ok']

    ana and ben's kappa fell by 0.088: less than 0.1, but on about 300 items each a drop
    of 0.19 cannot be ruled out, so it is inconclusive.
    """
    level = check_level(ci)
    drop = check_max_drop(max_drop)
    read = _read_both(result, baseline)
    matched = _match_rows(read)
    return _compared(read, matched, _changes(matched, level, drop))


@dataclass(frozen=True)
class _Both:
    """The result and the baseline, their layouts checked alike and their columns loaded."""

    new_frame: Any
    old_frame: Any
    new_names: list[Hashable]
    new_layout: Layout
    old_layout: Layout
    records: tuple[dict[str, Any], dict[str, Any]]


def _read_both(result: Any, baseline: Any) -> _Both:
    """Read both sides: the same rows (function, keys) and the same recorded options."""
    new_frame, old_frame = _frame(result, "result"), _frame(baseline, "baseline")
    new_names, old_names = new_frame.columns(), old_frame.columns()
    new_names = [c for c in new_names if c not in BASELINE_COLUMNS]
    new_layout = result_layout(new_names, "result")
    old_layout = result_layout(old_names, "the baseline")
    check_names(new_layout.keys, BASELINE_COLUMNS, "against_baseline")
    if set(new_layout.keys) != set(old_layout.keys) or new_layout.value != old_layout.value:
        raise KappaFrameError(
            f"the baseline's rows are {_rows_of(old_layout)}, the result's "
            f"{_rows_of(new_layout)}; compare like with like: "
            + ways(
                "the same function (pairwise or overall) with the same by= columns.",
                "a baseline made with the same --by (a pairs table for the pairs, the "
                "<name>.overall table for --overall).",
            )
        )
    records = (record_of(result), record_of(baseline))
    different = recorded_differences(*records)
    if different:
        first = different[0]
        said = [repr(record[first]) for record in records]
        others = different[1:]
        also = f" (and {said_differences(others, records)})" if others else ""
        raise KappaFrameError(
            f"the result was computed with {first} {said[0]:.200} and the baseline "
            f"with {first} {said[1]:.200}{also}; their coefficients do not measure the same "
            f"thing. Compute both with the same "
            f"{', '.join(arg(k) for k in different)}.",
            option=first,
        )
    keys = new_layout.keys
    new_frame.load([*new_names, *(["state"] if "state" in new_frame.columns() else [])])
    old_needed = [*keys, old_layout.value, "se", *(["state"] if "state" in old_names else [])]
    old_frame.load(old_needed)
    return _Both(new_frame, old_frame, new_names, new_layout, old_layout, records)


@dataclass(frozen=True)
class _Matched:
    """The measured rows of both sides, their values, and which old row each new one is.

    ``match[i]``: the baseline's row of the result's row ``i`` (-1: new); ``missing``:
    the baseline's rows the result does not have.
    """

    new_keep: np.ndarray
    new_rows: list[tuple[Any, ...]]
    old_rows: list[tuple[Any, ...]]
    new_value: np.ndarray
    new_se: np.ndarray
    old_value: np.ndarray
    old_se: np.ndarray
    match: np.ndarray
    missing: list[int]


def _match_rows(read: _Both) -> _Matched:
    """Match the rows by their keys (a pair as an unordered pair), checked on both sides."""
    new_frame, old_frame, records = read.new_frame, read.old_frame, read.records
    keys, new_layout, old_layout = read.new_layout.keys, read.new_layout, read.old_layout
    new_columns = _key_columns(new_frame, keys)
    old_columns = _key_columns(old_frame, keys)
    for name, (_, new_u), (_, old_u) in zip(keys, new_columns, old_columns, strict=True):
        new_kinds = {_kind(u) for u in new_u if u is not None}
        old_kinds = {_kind(u) for u in old_u if u is not None}
        if new_kinds and old_kinds and new_kinds != old_kinds:
            raise KappaFrameError(
                f"key column {name!r} holds {' and '.join(sorted(new_kinds))} in the result "
                f"but {' and '.join(sorted(old_kinds))} in the baseline, so no row would "
                f"match; write it as one type in both (e.g. .astype(str))."
            )
    new_keep, old_keep = _measured(new_frame), _measured(old_frame)
    new_rows = _row_keys(new_columns, new_frame.n_rows)
    new_rows = [r for r, keep in zip(new_rows, new_keep, strict=True) if keep]
    old_rows = _row_keys(old_columns, old_frame.n_rows)
    old_rows = [r for r, keep in zip(old_rows, old_keep, strict=True) if keep]
    new_keys, old_keys = unordered(new_rows, keys), unordered(old_rows, keys)
    _unique_rows(new_rows, new_keys, keys, "the result")
    _unique_rows(old_rows, old_keys, keys, "the baseline")
    new_value = _numbers(new_frame, new_layout.value, "the result")[new_keep]
    new_se = _numbers(new_frame, "se", "the result")[new_keep]
    old_value = _numbers(old_frame, old_layout.value, "the baseline")[old_keep]
    old_se = _numbers(old_frame, "se", "the baseline")[old_keep]
    position = {key: i for i, key in enumerate(old_keys)}
    match = np.array([position.get(key, -1) for key in new_keys], dtype=np.intp)
    matched = match >= 0
    turned = [new_rows[i] != old_rows[j] for i, j in enumerate(match.tolist()) if j >= 0]
    check_turned_round(records, any(turned), ("the result", "the baseline"), "weights")
    found = set(match[matched].tolist())
    missing = [i for i in range(len(old_rows)) if i not in found]
    return _Matched(
        new_keep, new_rows, old_rows, new_value, new_se, old_value, old_se, match, missing
    )


def _changes(m: _Matched, level: float, drop: float) -> dict[str, np.ndarray]:
    """Each row's baseline, change, its interval and state (new and missing rows too)."""
    new_rows, missing, match = m.new_rows, m.missing, m.match
    old_value, old_se, new_value, new_se = m.old_value, m.old_se, m.new_value, m.new_se
    matched = match >= 0
    n_new, n_all = len(new_rows), len(new_rows) + len(missing)
    base = np.full(n_all, math.nan)
    base[:n_new][matched] = old_value[match[matched]]
    base[n_new:] = old_value[missing]
    change, low, high = (np.full(n_all, math.nan) for _ in range(3))
    state = np.full(n_all, STATES.index("new"), dtype=np.int8)
    state[n_new:] = STATES.index("missing")
    if matched.any():
        rows = match[matched]
        diff = difference(old_value[rows], old_se[rows], new_value[matched], new_se[matched], level)
        change[:n_new][matched] = diff["difference"]
        low[:n_new][matched] = diff["ci_low"]
        high[:n_new][matched] = diff["ci_high"]
        state[:n_new][matched] = states(diff["difference"], diff["ci_low"], diff["ci_high"], drop)
    return {
        "baseline": base,
        "change": change,
        "change_low": low,
        "change_high": high,
        "state": state,
    }


def _compared(read: _Both, m: _Matched, changes: dict[str, np.ndarray]) -> Any:
    """The result's rows, the missing ones appended, with the comparison's columns."""
    new_frame, keys, new_names = read.new_frame, read.new_layout.keys, read.new_names
    missing, old_rows, new_keep = m.missing, m.old_rows, m.new_keep
    native = new_frame.frame
    if missing:
        extra = [old_rows[i] for i in missing]
        native = append_rows(native, {k: [r[j] for r in extra] for j, k in enumerate(keys)})
    appended = new_frame.n_rows + np.arange(len(missing), dtype=np.intp)
    shown = np.concatenate([np.flatnonzero(new_keep), appended]).astype(np.intp)
    columns = [Column(c, "key", shown, source=c) for c in new_names]
    columns += [
        Column(name, "float", changes[name])
        for name in ("baseline", "change", "change_low", "change_high")
    ]
    columns.append(Column("state", "enum", changes["state"], categories=STATES))
    mark = getattr(native, "attrs", {}).get(MARK)
    table = Table(columns, mark=dict(mark) if isinstance(mark, dict) else None)
    return render(table, native, new_frame.output)


def _measured(frame: Any) -> np.ndarray:
    """Rows that are a result's own: not ``missing`` rows an earlier comparison appended."""
    keep = np.ones(frame.n_rows, dtype=bool)
    if "state" in frame.columns():
        fact = frame.labels("state")
        uniques = [str(_plain(u)) for u in fact.uniques]
        if "missing" in uniques:
            keep = np.asarray(fact.codes) != uniques.index("missing")
    return keep


def _rows_of(layout: Layout) -> str:
    coefficient = "pairs' kappa" if layout.value == "kappa" else "overall values"
    keys = ", ".join(str(k) for k in layout.keys) or "no key"
    return f"{coefficient} keyed by {keys}"
