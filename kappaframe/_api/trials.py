"""Repeated trials (``trial=``): a rater who rates the same item once per trial.

Every function that takes ``trial`` first reads the ratings into one long frame of the
caller's library (``trial_frame``): one row per rating, with the group keys, the item,
the rater, the trial and the rating. The wide layout (one row per item and trial, one
column per rater) is unpivoted into it. The trial column is checked here, once: present
on every row, ids that sort, at least two of them.

From there each statistic reads the trials as it needs them:

- ``pairwise`` and ``overall`` (intra-rater kappa): the trials become the raters and the
  rater a group key, so each rater's trials are paired (or pooled) by the one kernel of
  every other call, with every option (``ci``, ``weights``, ``by``) as it is;
- ``icc`` and ``bland_altman``: the ratings as arrays (``read_trials``), a cube
  ``unit x rater x trial`` per group (``kappaframe._stats.trials``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._encode.codes import Groups, encode_groups
from .._encode.layout import LongLayout
from .._errors import KappaFrameError, arg
from .._frames.native import eager_adapter
from .._frames.numeric import column_numbers
from .._frames.trials import eager_frame, keep_rows, renamed, unpivot
from .._schema import ICC_CI_COLUMNS, ICC_TRIAL_COLUMNS, Column, Table, check_names
from .._stats.icc import DESCRIPTIONS, FORMS, MCGRAW_WONG, icc_forms, icc_sums
from .._stats.proportional import proportional_bias
from .._stats.trials import INTER_FORMS, repeated_limits, replicate_icc
from .options import as_list, check_columns, rater_pairs

__all__ = [
    "TrialFrame",
    "TrialRatings",
    "bland_altman_trial_table",
    "icc_trial_table",
    "no_lazy_trial",
    "read_trials",
    "trial_frame",
    "trial_kappa",
]

#: The names of the long frame's rater and rating columns, for a wide input.
RATER = "rater"
RATING = "value"


@dataclass(frozen=True)
class TrialFrame:
    """The ratings of a call with ``trial``, one per row, in the caller's library."""

    native: Any
    by: list[Hashable]
    item: Hashable
    rater: Hashable
    trial: Hashable
    value: Hashable
    #: The trial ids, sorted.
    trials: list[Any]
    #: The raters in order: the wide layout's columns, or the ids asked for (``[]``:
    #: every id, sorted).
    raters: list[Any]


def _native(data: Any) -> Any:
    """The caller's pandas or polars DataFrame; anything else is refused."""
    if eager_frame(data):
        return data
    raise _not_in_memory(type(data).__name__)


def no_lazy_trial(options: dict[str, Any]) -> None:
    """Refuse ``trial`` when a lazy result is planned (a LazyFrame or Dask input)."""
    if options.get("trial") is not None:
        raise _not_in_memory("a lazy frame (LazyFrame or Dask)")


def no_cluster_with_trial(options: dict[str, Any]) -> None:
    """Refuse ``cluster`` with ``trial``: the repeated trials' intervals are not clustered."""
    if options.get("cluster") is not None:
        raise KappaFrameError(
            f"{arg('cluster', options['cluster'])} does not apply with "
            f"{arg('trial', options['trial'])}: the intervals of repeated trials are "
            f"computed per item, not per cluster. Drop {arg('cluster')} (intervals over "
            f"items), or {arg('trial')} (one rating per item and rater).",
            option="cluster",
        )


def _not_in_memory(got: str) -> KappaFrameError:
    return KappaFrameError(
        f"{arg('trial')} reads a pandas or polars DataFrame; got {got}. Bring the ratings "
        "into memory first (LazyFrame.collect(), dask_frame.compute(), relation.pl() in "
        f"DuckDB), or leave {arg('trial')} out.",
        option="trial",
    )


def trial_frame(
    data: Any,
    trial: Hashable,
    *,
    raters: Any,
    columns: LongLayout,
    by: Any,
    word: str = "value",
) -> TrialFrame:
    """The long frame of a call with ``trial``: checked, wide unpivoted, raters kept.

    ``columns``: the caller's ``item``, ``rater`` and rating column (``None`` where not
    given: the wide layout gives ``item`` alone); ``word``: the caller's name of the rating
    column (``label`` for kappa).
    """
    item, rater, value = columns.item, columns.rater, columns.label
    native = _native(data)
    names = list(native.columns)
    check_columns([trial], names, "trial column")
    by_list = as_list(by, names)
    check_columns(by_list, names, "by column")
    if trial in by_list:
        raise KappaFrameError(
            f"trial column {trial!r} is also a by column; a trial is not a group. Drop it "
            f"from {arg('by')}.",
            option="trial",
        )
    order = as_list(raters)
    if rater is None and value is None:
        native, order = _unpivot(native, names, trial, raters, item, by_list)
        rater, value = RATER, RATING
    else:
        native = _long(native, names, trial, raters, columns, by_list, word)
    trials = _trial_ids(native, trial)
    return TrialFrame(native, by_list, item, rater, trial, value, trials, order)


def _long(
    native: Any,
    names: list[Hashable],
    trial: Hashable,
    raters: Any,
    columns: LongLayout,
    by: list[Hashable],
    word: str,
) -> Any:
    """The long layout's frame, its raters kept (``raters``: the ids asked for)."""
    rater = columns.rater
    roles = {"item": columns.item, "rater": rater, word: columns.label}
    lacking = [k for k, v in roles.items() if v is None]
    if lacking:
        raise KappaFrameError(
            f"with {arg('trial')}, the long layout needs {arg('item')}, {arg('rater')} and "
            f"{arg(word)}; {', '.join(arg(k) for k in lacking)} missing. For one row per "
            f"item and trial and one column per rater (wide layout), pass {arg('item')} "
            "alone.",
            option=lacking[0],
        )
    for role, col in roles.items():
        check_columns([col], names, f"{role} column")
        if col == trial or col in by:
            raise KappaFrameError(
                f"{role} column {col!r} is also the trial column or a by column; they must "
                "be different columns.",
                option="trial",
            )
    wanted = as_list(raters)
    if not wanted:
        return native
    return keep_rows(native, rater, wanted)


def _unpivot(
    native: Any,
    names: list[Hashable],
    trial: Hashable,
    raters: Any,
    item: Hashable | None,
    by: list[Hashable],
) -> tuple[Any, list[Hashable]]:
    """A wide frame (a row per item and trial, a column per rater) as the long layout.

    Returns the long frame and the rater columns, in order.
    """
    if item is None:
        raise KappaFrameError(
            f"with {arg('trial')} and one column per rater (wide layout), each row is one "
            f"item in one trial: name the item column with {arg('item')} (a row per item "
            f"and trial), or pass {arg('item')}, {arg('rater')} and the rating column (long "
            "layout).",
            option="item",
        )
    check_columns([item], names, "item column")
    if item == trial or item in by:
        raise KappaFrameError(
            f"item column {item!r} is also the trial column or a by column; they must be "
            "different columns.",
            option="item",
        )
    keys = [*by, item, trial]
    columns = as_list(raters) or [c for c in names if c not in set(keys)]
    check_columns(columns, names, "rater column")
    taken = [c for c in (RATER, RATING) if c in set(keys)]
    if taken:
        raise KappaFrameError(
            f"column {taken[0]!r} is a key of the wide layout with {arg('trial')}, and the "
            "name of the rater or rating column it is read into; rename it first.",
            option="trial",
        )
    return unpivot(native, keys, columns, RATER, RATING), list(columns)


def _trial_ids(native: Any, trial: Hashable) -> list[Any]:
    """The trial ids, sorted; refused: a missing id, ids that do not sort, one trial."""
    frame = eager_adapter(native)
    frame.load([trial])
    ids = frame.labels(trial)
    missing = np.asarray(ids.codes) < 0
    if missing.any():
        raise KappaFrameError(
            f"trial column {trial!r} is missing on {int(missing.sum())} row(s) (first at "
            f"position {int(np.flatnonzero(missing)[0])}); every rating needs its trial. "
            "Drop those rows or fill the trial first.",
            option="trial",
        )
    found = list(ids.uniques)
    try:
        trials = sorted(found)
    except TypeError:
        kinds = sorted({type(t).__name__ for t in found})
        raise KappaFrameError(
            f"trial column {trial!r} holds ids that cannot be ordered ({', '.join(kinds)}: "
            f"e.g. {found[:4]!r}); trials are compared in order. Make them one type "
            "(numbers, or text) first.",
            option="trial",
        ) from None
    if len(trials) < 2:
        raise KappaFrameError(
            f"trial column {trial!r} holds {len(trials)} trial(s) ({trials!r}); repeated "
            f"trials need at least 2. Without repeats, leave {arg('trial')} out.",
            option="trial",
        )
    return trials


def trial_kappa(func: Any, data: Any, options: dict[str, Any], word: str = "label") -> Any:
    """``pairwise`` or ``overall`` with ``trial``: each rater's trials as raters.

    The trials become the raters and the rater a group key (the last ``by`` column), so
    every rater's trials are compared by the call itself, with all its options; the
    pairs' ``rater_a`` and ``rater_b`` are named ``trial_a`` and ``trial_b``.
    """
    no_cluster_with_trial(options)
    for name in ("reference", "time"):
        if options.get(name) is not None:
            raise KappaFrameError(
                f"{arg(name)} does not apply with {arg('trial')} (each rater is compared "
                f"with themself across trials); drop one of them.",
                option=name,
            )
    if options.get("layout", "ratings") != "ratings":
        raise KappaFrameError(
            f"{arg('trial')} reads ratings, one per row or per rater column; got "
            f"layout={options['layout']!r}. Pass the ratings, or leave {arg('trial')} out.",
            option="layout",
        )
    rest = {k: v for k, v in options.items() if k not in {"data", "trial", "raters"}}
    columns = LongLayout(options.get("item"), options.get("rater"), options.get(word))
    t = trial_frame(
        data,
        options["trial"],
        raters=options.get("raters"),
        columns=columns,
        by=options.get("by"),
        word=word,
    )
    if options.get("duplicates", "raise") == "raise":
        _refuse_repeats(t)  # in the trials' words, not those of the call's raters
    rest.update(item=t.item, rater=t.trial, by=[*t.by, t.rater])
    rest[word] = t.value
    out = func(t.native, **rest)
    if "rater_a" not in out.columns:
        return out
    return renamed(out, {"rater_a": "trial_a", "rater_b": "trial_b"})


@dataclass(frozen=True)
class TrialRatings:
    """The ratings of a call with ``trial`` as arrays: one cell per unit, rater, trial.

    ``cube[u, j, t]``: unit ``u``'s (an item of a group) rating by rater ``j`` in trial
    ``t``, NaN where none; ``group[u]`` the unit's group; ``first_row[g]`` a row of group
    ``g`` in ``frame`` (where its keys are read).
    """

    frame: Any
    by: list[Hashable]
    raters: list[Any]
    trials: list[Any]
    cube: np.ndarray
    group: np.ndarray
    groups: Groups


def read_trials(t: TrialFrame, duplicates: str) -> TrialRatings:
    """The long frame's scores as a ``unit x rater x trial`` cube, per group.

    The raters in ``t.raters``' order (every id, sorted, where it is empty).
    """
    frame = eager_adapter(t.native)
    frame.load([*t.by, t.item, t.rater, t.trial, t.value])
    items = frame.labels(t.item)
    ids = frame.labels(t.rater)
    trial_ids = frame.labels(t.trial)
    values = column_numbers(frame, t.value, "value")
    groups = encode_groups([frame.keys(b) for b in t.by], frame.n_rows)
    rater_list = list(t.raters) if t.raters else _sorted(list(ids.uniques))
    absent = [r for r in rater_list if r not in set(ids.uniques)]
    if absent:
        raise KappaFrameError(
            f"rater {absent[0]!r} has no rating in column {t.rater!r} (ids found: "
            f"{_sorted(list(ids.uniques))[:10]!r}); pass the raters that rated.",
            option="raters",
        )
    position = {r: i for i, r in enumerate(rater_list)}
    rater_code = np.array([position[u] for u in ids.uniques], dtype=np.intp)[ids.codes]
    order = {v: i for i, v in enumerate(t.trials)}
    trial_code = np.array([order[u] for u in trial_ids.uniques], dtype=np.intp)[trial_ids.codes]
    item_codes = np.asarray(items.codes, dtype=np.int64)
    if (item_codes < 0).any():
        raise KappaFrameError(
            f"column {t.item!r} is missing on {int((item_codes < 0).sum())} row(s); every "
            "rating needs an item. Drop those rows first.",
            option="item",
        )
    group = np.zeros(len(values), np.int64) if groups.codes is None else groups.codes
    key = group.astype(np.int64) * (int(item_codes.max(initial=0)) + 1) + item_codes
    unit, n_units = _dense(key)
    k, r = len(rater_list), len(t.trials)
    cell = (unit * k + rater_code) * r + trial_code
    keep = _kept(cell, n_units * k * r, duplicates, t)
    cube = np.full(n_units * k * r, np.nan)
    cube[cell[keep]] = values[keep]
    unit_group = np.zeros(n_units, np.intp)
    unit_group[unit] = group
    return TrialRatings(
        frame, t.by, rater_list, t.trials, cube.reshape(-1, k, r), unit_group, groups
    )


def _by_group(cube: np.ndarray, group: np.ndarray, n_groups: int) -> list[np.ndarray]:
    """Each group's units of ``cube``, groups in order (one sort, not a scan per group)."""
    if not n_groups:
        return []
    order = np.argsort(group, kind="stable")
    ends = np.cumsum(np.bincount(group, minlength=n_groups)[:n_groups])
    return np.split(cube[order], ends[:-1])


def _dense(key: np.ndarray) -> tuple[np.ndarray, int]:
    """Codes ``0 .. n - 1`` of the distinct ``key`` values, in their order, and ``n``."""
    if len(key) and int(key.max()) < 4 * len(key) + 1024:  # a lookup table, no sort
        present = np.zeros(int(key.max()) + 1, dtype=bool)
        present[key] = True
        code = np.cumsum(present) - 1
        return code[key], int(present.sum())
    uniques, inverse = np.unique(key, return_inverse=True)
    return inverse.reshape(-1), len(uniques)


def _refuse_repeats(t: TrialFrame) -> None:
    """Refuse a rater's second rating of an item in one trial, as ``read_trials`` does."""
    frame = eager_adapter(t.native)
    frame.load([*t.by, t.item, t.rater, t.trial])
    groups = encode_groups([frame.keys(b) for b in t.by], frame.n_rows)
    group = np.zeros(frame.n_rows, np.int64) if groups.codes is None else groups.codes
    ids = [np.asarray(frame.labels(c).codes, np.int64) for c in (t.item, t.rater, t.trial)]
    _, cell = np.unique(np.stack([group, *ids], axis=1), axis=0, return_inverse=True)
    cell = cell.reshape(-1)
    _kept(cell, int(cell.max(initial=-1)) + 1, "raise", t)


def _kept(cell: np.ndarray, n_cells: int, duplicates: str, t: TrialFrame) -> np.ndarray:
    """The rows kept: one per cell (a rater's rating of an item in a trial)."""
    repeats = int((np.bincount(cell, minlength=n_cells) > 1).sum())
    if not repeats:
        return np.arange(len(cell))
    if duplicates == "last":
        _, last = np.unique(cell[::-1], return_index=True)
        return len(cell) - 1 - last
    _, first = np.unique(cell, return_index=True)
    if duplicates == "raise":
        raise KappaFrameError(
            f"a rater rated the same item more than once in one trial ({repeats}"
            f" time(s)) in columns {t.item!r}, {t.rater!r}, {t.trial!r}. Pass "
            f"{arg('duplicates', 'first')} or {arg('duplicates', 'last')} to keep one, or "
            "drop the repeats first.",
            option="duplicates",
        )
    return first


def _sorted(ids: list[Any]) -> list[Any]:
    try:
        return sorted(ids)
    except TypeError:
        return list(ids)


def icc_trial_table(t: TrialRatings, ci: float | None) -> tuple[Table, np.ndarray, np.ndarray]:
    """``icc``'s rows with ``trial``, and the inter-rater items used and left out.

    Per group: each rater's six forms (the trials as the judges), then the two forms of
    every rater with replicates (``kappaframe._stats.trials.replicate_icc``).
    """
    n_groups, k, r = t.groups.n_groups, len(t.raters), len(t.trials)
    check_names(t.by, (*ICC_TRIAL_COLUMNS, *ICC_CI_COLUMNS), "icc")
    # Each rater against themself: a row per item and rater, the trials as its columns.
    row_group = (t.group[:, None] * k + np.arange(k)[None, :]).reshape(-1)
    sums = icc_sums([t.cube[:, :, s].reshape(-1) for s in range(r)], row_group, n_groups * k)
    intra = icc_forms(sums, ci)
    rated = np.isfinite(t.cube)
    complete = rated.all(axis=(1, 2))
    n_inter = np.bincount(t.group[complete], minlength=n_groups)[:n_groups]
    dropped = np.bincount(t.group[rated.any(axis=(1, 2)) & ~complete], minlength=n_groups)
    inter = [
        replicate_icc(cube) for cube in _by_group(t.cube[complete], t.group[complete], n_groups)
    ]
    n_intra, n_inter_forms = k * len(FORMS), len(INTER_FORMS)

    def rows(intra_values: np.ndarray, inter_values: np.ndarray) -> np.ndarray:
        block = np.concatenate(
            [
                np.asarray(intra_values).reshape(n_groups, n_intra),
                np.asarray(inter_values).reshape(n_groups, n_inter_forms),
            ],
            axis=1,
        )
        return np.ascontiguousarray(block).reshape(-1)

    def stat(key: str) -> np.ndarray:
        if key not in intra:
            return rows(np.full(n_groups * n_intra, np.nan), np.full(n_groups * 2, np.nan))
        nan = np.full(n_inter_forms, np.nan)
        return rows(intra[key], np.stack([g.get(key, nan) for g in inter]) if inter else nan[:0])

    per_group = np.ones((n_groups, 1), np.int64)
    forms = np.tile(np.arange(len(FORMS)), k)
    group_of_row = rows(
        np.repeat(np.arange(n_groups), n_intra), np.repeat(np.arange(n_groups), n_inter_forms)
    )
    rater_names = np.empty(k * len(FORMS) + n_inter_forms, dtype=object)
    rater_names[: k * len(FORMS)] = np.repeat(np.array(t.raters, dtype=object), len(FORMS))
    first = t.groups.first_row[group_of_row] if len(group_of_row) else group_of_row
    columns = [Column(b, "key", first, source=b) for b in t.by]
    columns += [
        Column(
            "kind",
            "name",
            rows(0 * per_group * forms, per_group * [1, 1]),
            categories=("intra", "inter"),
        ),
        Column("rater", "label", np.tile(rater_names, n_groups)),
        Column("type", "name", rows(per_group * forms, per_group * [1, 2]), categories=FORMS),
        Column(
            "description",
            "name",
            rows(per_group * forms, per_group * [1, 2]),
            categories=DESCRIPTIONS,
        ),
        Column(
            "mcgraw_wong",
            "name",
            rows(per_group * forms, per_group * [1, 2]),
            categories=MCGRAW_WONG,
        ),
        Column(
            "n_items",
            "int",
            rows(np.repeat(sums.count, len(FORMS)), np.repeat(n_inter, n_inter_forms)),
        ),
        Column("n_raters", "int", rows(per_group * forms * 0 + 1, per_group * [k, k])),
        Column("n_trials", "int", np.full(len(group_of_row), r, np.int64)),
        Column(
            "n_dropped",
            "int",
            rows(
                np.repeat(sums.dropped, len(FORMS)),
                np.repeat(dropped[:n_groups], n_inter_forms),
            ).astype(np.int64),
        ),
        Column("icc", "float", stat("icc")),
        Column("f", "float", stat("f")),
        Column("df1", "int", np.maximum(np.nan_to_num(stat("df1")), 0).astype(np.int64)),
        Column("df2", "int", np.maximum(np.nan_to_num(stat("df2")), 0).astype(np.int64)),
        Column("p_value", "float", stat("p_value")),
    ]
    if ci is not None:
        columns += [Column(name, "float", stat(name)) for name in ICC_CI_COLUMNS]
    table = Table(columns, mark={"kind": "icc"})
    return table, n_inter.astype(np.int64), dropped[:n_groups].astype(np.int64)


def bland_altman_trial_table(
    t: TrialRatings,
    reference: Any,
    agreement: float,
    ci: float | None,
    names: Sequence[str],
    proportional: bool,
) -> tuple[Table, np.ndarray]:
    """``bland_altman``'s rows with ``trial``, and the items of each row.

    Every pair of raters (per group), their limits from every replicate
    (``kappaframe._stats.trials.repeated_limits``).
    """
    pairs = rater_pairs(t.raters, reference)
    n_groups = t.groups.n_groups
    rows: list[dict[str, Any]] = []
    for cube in _by_group(t.cube, t.group, n_groups):
        for a, b in pairs:
            out = repeated_limits(cube[:, a, :], cube[:, b, :], agreement, ci)
            if proportional:
                out.update(_line(out["mean_a"], out["mean_b"], ci))
            rows.append(out)
    group = np.repeat(np.arange(n_groups), len(pairs))
    first = t.groups.first_row[group] if len(group) else group
    n = np.array([r["n"] for r in rows], dtype=np.int64)
    columns = [Column(b, "key", first, source=b) for b in t.by]
    columns += [
        Column("rater_a", "name", np.tile(pairs[:, 0], n_groups), categories=t.raters),
        Column("rater_b", "name", np.tile(pairs[:, 1], n_groups), categories=t.raters),
        Column("n", "int", n),
    ]
    columns += [Column(c, "float", np.array([r[c] for r in rows], dtype=float)) for c in names]
    return Table(columns, mark={"kind": "bland_altman"}), n


def _line(mean_a: np.ndarray, mean_b: np.ndarray, ci: float | None) -> dict[str, float]:
    """The line of the items' differences on their means (``proportional``)."""
    moments: dict[str, Any] = {
        "n": np.array(len(mean_a)),
        "mean_x": mean_a.mean() if len(mean_a) else np.nan,
        "mean_y": mean_b.mean() if len(mean_b) else np.nan,
        "ss_x": ((mean_a - mean_a.mean()) ** 2).sum() if len(mean_a) else np.nan,
        "ss_y": ((mean_b - mean_b.mean()) ** 2).sum() if len(mean_b) else np.nan,
        "cross": ((mean_a - mean_a.mean()) * (mean_b - mean_b.mean())).sum()
        if len(mean_a)
        else np.nan,
    }
    return {k: float(v) for k, v in proportional_bias(**moments, ci=ci).items()}
