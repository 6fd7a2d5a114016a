"""Backend-free orchestration: adapter -> codes -> kernel -> statistics -> result table.

Every public function runs through here; the adapters only read columns and render.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import numpy as np

from .._count import crowd as _crowd
from .._count.diagonal import DiagonalCounts, use_diagonal
from .._count.kernel import all_pairs, diagonal_counts, pair_counts
from .._encode.codes import (
    Factorized,
    Groups,
    encode_groups,
    encode_labels,
    long_to_wide,
    shared_categories,
    sort_ratings,
)
from .._errors import (
    KappaFrameError,
    KappaFrameTypeError,
    UndefinedKappaWarning,
    bad_option,
    missing_columns,
    too_few_raters,
)
from .._schema import CI_COLUMNS, TIDY_COLUMNS, Column, Table
from .._stats.agreement import pair_agreement, weight_matrix
from .._stats.scales import resolve_scale
from .options import PairOptions, check_pair_options, pair_extras, rater_pairs

__all__ = [
    "Prepared",
    "adapt",
    "as_list",
    "check_symmetric",
    "key_columns",
    "prepare",
    "tidy",
    "warn_undefined",
]

#: The package root: warnings point at the first frame outside it.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Frame(Protocol):
    """What an adapter offers the shared code."""

    def columns(self) -> list[Hashable]: ...
    def load(self, needed: list[Hashable]) -> None: ...
    @property
    def n_rows(self) -> int: ...
    def labels(self, name: Hashable) -> Factorized: ...
    def keys(self, name: Hashable) -> tuple[np.ndarray, int]: ...
    def render(self, table: Table) -> Any: ...


def adapt(data: Any) -> Frame:
    """Wrap a supported frame in its adapter; anything else is a clear error."""
    import pandas as pd

    if isinstance(data, pd.DataFrame):
        from .._frames.pandas import PandasFrame

        return PandasFrame(data)
    pl = sys.modules.get("polars")
    if pl is not None and isinstance(data, pl.LazyFrame):
        from .._frames.files import StreamedLazyFrame

        return StreamedLazyFrame(data)
    if pl is not None and isinstance(data, pl.DataFrame):
        from .._frames.polars import PolarsFrame

        return PolarsFrame(data)
    dd = sys.modules.get("dask.dataframe")
    if dd is not None and isinstance(data, dd.DataFrame):
        from .._frames.dask import DaskFrame

        return cast(Frame, DaskFrame(data))
    from .._frames.files import file_adapter

    files = file_adapter(data)  # a path, paths, a pyarrow Dataset or kf.scan(...)
    if files is not None:
        return cast(Frame, files)
    kind = f"{type(data).__module__}.{type(data).__qualname__}"
    if isinstance(data, (str, os.PathLike)):
        kind = f"{os.fspath(data)!r}, which is not an existing file"
    raise KappaFrameTypeError(
        f"expected a pandas or Dask DataFrame, a polars DataFrame/LazyFrame, or parquet/CSV "
        f"files (a path); got {kind}. For two plain arrays of labels use "
        "kappaframe.cohen_kappa(y1, y2)."
    )


def as_list(value: Any, names: Sequence[Hashable] = ()) -> list[Hashable]:
    """Normalise a column argument: ``None`` -> ``[]``, a list or tuple -> a list, else ``[value]``.

    A tuple that is itself a column name (pandas MultiIndex columns) stays one name.
    """
    if value is None:
        return []
    if isinstance(value, tuple) and value in set(names):
        return [value]
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, (set, frozenset, dict)):
        raise KappaFrameTypeError(
            f"column lists must be ordered (a list or tuple); got a {type(value).__name__}."
        )
    if hasattr(value, "__iter__") and not isinstance(value, (str, bytes)):
        return list(value)
    return [value]


def _check_columns(asked: Sequence[Hashable], names: Sequence[Hashable], role: str) -> None:
    err = missing_columns(asked, names, role)
    if err is not None:
        raise err
    seen: set[Hashable] = set()
    for c in asked:
        if c in seen:
            raise KappaFrameError(f"{role} {c!r} is listed twice.")
        seen.add(c)


@dataclass
class Prepared:
    """Everything the statistics need, independent of the frame library."""

    frame: Frame
    raters: list[Hashable]
    codes: np.ndarray
    categories: list[Any]
    groups: Groups
    by: list[Hashable]
    #: Where the pair counts come from when not from ``codes`` by the dense kernel: the
    #: crowd path (:class:`kappaframe._count.crowd.CrowdCounts`) or stored counts
    #: (:class:`kappaframe.Counts`: Dask, files, streams). See :meth:`tables`.
    source: Any = None
    #: Report only (pair, group) cells whose ``n`` reaches this (``None``: every cell).
    min_overlap: int | None = None

    def pairs(self) -> np.ndarray:
        """Return the ``(n_pairs, 2)`` rater pairs ``a < b`` to report, in rater order.

        Every pair; on the sparse paths with ``min_overlap``, only the pairs that share
        at least that many items (in all groups together).
        """
        if self.source is not None:
            return self.source.pairs(self.min_overlap)
        return all_pairs(len(self.raters))

    def tables(
        self, pairs: np.ndarray, weights: Any = None, full: bool = False
    ) -> np.ndarray | DiagonalCounts:
        """Count each pair in each group.

        ``(n_pairs, G, K, K)`` tables, or, for many categories and a statistic that
        allows it, :class:`DiagonalCounts`.

        ``weights`` is the caller's option (the diagonal path serves ``None``,
        ``"linear"`` and ``"quadratic"``); ``full`` asks for the tables whatever the cost
        (e.g. for standard errors).
        """
        if self.source is not None:
            return self.source.tables(pairs, weights, full)
        k, g = len(self.categories), self.groups.n_groups
        if use_diagonal(len(pairs), g, k, weights, full):
            sums = diagonal_counts(self.codes, pairs, k, self.groups.codes, g)
            return DiagonalCounts.from_sums(sums)
        return pair_counts(self.codes, pairs, k, self.groups.codes, g)

    def kept(self, n: np.ndarray) -> np.ndarray:
        """Mask of the (pair, group) cells to report: all, or ``n >= min_overlap``."""
        if not self.min_overlap:
            return np.ones(np.shape(n), dtype=bool)
        return np.asarray(n) >= self.min_overlap


def prepare(
    frame: Frame,
    raters: Any = None,
    *,
    by: Any = None,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: str = "raise",
    min_raters: int = 2,
    min_overlap: int | None = None,
    from_counts: bool = False,
) -> Prepared:
    """Resolve columns, encode labels and groups, pivot the long layout.

    The long layout is counted sparsely (:mod:`kappaframe._count.crowd`) when
    :func:`kappaframe._count.crowd.use_crowd` says it beats the dense pivot; the numbers are the
    same either way.

    ``from_counts=True`` says the caller reads pair counts only (``prep.tables``), never
    ``prep.codes``: then adapters that count in parts (Dask, files, streamed polars
    LazyFrames) count batch by batch (through here) and return a prepared view of the
    summed :class:`kappaframe.Counts`. Otherwise they gather the label codes of every
    item (one small integer per rating) from their parts.
    """
    min_overlap = check_min_overlap(min_overlap)
    counted = getattr(frame, "prepared", None)
    if counted is not None:  # Dask, files, LazyFrames: they choose how to read in parts
        return counted(
            raters,
            by=by,
            item=item,
            rater=rater,
            label=label,
            categories=categories,
            duplicates=duplicates,
            min_raters=min_raters,
            min_overlap=min_overlap,
            from_counts=from_counts,
        )
    names = frame.columns()
    by_list = as_list(by, names)
    _check_columns(by_list, names, "by column")
    if categories is not None and isinstance(categories, (str, bytes)):
        raise KappaFrameTypeError(
            f"categories must be a list of labels; got the string {categories!r}."
        )
    if duplicates not in ("raise", "first", "last"):
        raise bad_option("duplicates", duplicates, ["raise", "first", "last"])
    long_args = {"item": item, "rater": rater, "label": label}
    if any(v is not None for v in long_args.values()):
        lacking = [k for k, v in long_args.items() if v is None]
        if lacking:
            raise KappaFrameError(
                f"the long layout needs item=, rater= and label=; {', '.join(lacking)}= "
                "missing. For one column per rater (wide layout) pass none of them."
            )
        return _prepare_long(
            frame,
            names,
            raters,
            by_list,
            item,
            rater,
            label,
            categories,
            duplicates,
            min_raters,
            min_overlap,
        )

    rater_list = as_list(raters, names)
    if not rater_list:
        rater_list = [c for c in names if c not in set(by_list)]
    _check_columns(rater_list, names, "rater column")
    overlap = [c for c in rater_list if c in set(by_list)]
    if overlap:
        raise KappaFrameError(
            f"column {overlap[0]!r} is both a rater and a by column; a group key cannot be rated."
        )
    if len(rater_list) < min_raters:
        raise too_few_raters(min_raters, rater_list)
    frame.load([*by_list, *rater_list])
    facts = {r: frame.labels(r) for r in rater_list}
    cats = shared_categories(facts, categories)
    codes = encode_labels(list(facts.values()), cats)
    groups = encode_groups([frame.keys(b) for b in by_list], frame.n_rows)
    return Prepared(frame, rater_list, codes, cats, groups, by_list, min_overlap=min_overlap)


def check_min_overlap(min_overlap: Any) -> int | None:
    """``None`` or a whole number >= 0 (0 and ``None`` both mean every pair)."""
    if min_overlap is None:
        return None
    if (
        isinstance(min_overlap, (bool, np.bool_))
        or not isinstance(min_overlap, (int, np.integer))
        or min_overlap < 0
    ):
        raise KappaFrameError(
            f"min_overlap must be a whole number of shared items (>= 0) or None; got "
            f"{min_overlap!r}."
        )
    return int(min_overlap)


def _prepare_long(
    frame: Frame,
    names: list[Hashable],
    raters: Any,
    by_list: list[Hashable],
    item: Hashable,
    rater: Hashable,
    label: Hashable,
    categories: Sequence[Any] | None,
    duplicates: str,
    min_raters: int,
    min_overlap: int | None = None,
) -> Prepared:
    roles = {"item": item, "rater": rater, "label": label}
    for role, col in roles.items():
        _check_columns([col], names, f"{role} column")
    if len({item, rater, label}) < 3:
        raise KappaFrameError(
            f"item=, rater= and label= must be three different columns; got {roles}."
        )
    for col in by_list:
        if col in roles.values():
            raise KappaFrameError(f"by column {col!r} is also the item, rater or label column.")
    frame.load([*by_list, item, rater, label])
    items = frame.labels(item)
    rater_fact = _sorted_ids(frame.labels(rater))
    wanted = as_list(raters)
    if wanted:
        rater_fact = _select_ids(rater_fact, wanted, rater)
    label_fact = frame.labels(label)
    cats = shared_categories({label: label_fact}, categories)
    label_codes = encode_labels([label_fact], cats)[0]
    keep = rater_fact.codes >= 0 if wanted else None
    row_groups = encode_groups([frame.keys(b) for b in by_list], frame.n_rows)
    if keep is not None and not keep.all():
        idx = np.flatnonzero(keep)
        items = Factorized(items.codes[idx], items.uniques)
        rater_fact = Factorized(rater_fact.codes[idx], rater_fact.uniques)
        label_codes = label_codes[idx]
        row_groups = _subset_groups(row_groups, idx)
    ratings = sort_ratings(items, rater_fact, row_groups, duplicates, item, rater)
    if len(rater_fact.uniques) < min_raters:
        raise too_few_raters(min_raters, rater_fact.uniques, rater)
    n_raters = len(rater_fact.uniques)
    rated = ratings.order[label_codes[ratings.order] >= 0]
    n_rating_pairs = _crowd.rating_pairs(ratings.unit[rated], ratings.n_units)
    if _crowd.use_crowd(n_raters, ratings.n_units, n_rating_pairs):
        unit_groups = ratings.unit_groups
        source = _crowd.CrowdCounts(
            rater_fact.codes[rated],
            ratings.unit[rated],
            label_codes[rated],
            unit_groups.codes,
            n_raters,
            unit_groups.n_groups,
            len(cats),
        )
        groups = Groups(None, unit_groups.n_groups, unit_groups.first_row)
        return Prepared(
            frame,
            list(rater_fact.uniques),
            np.zeros((n_raters, 0), np.int8),
            cats,
            groups,
            by_list,
            source=source,
            min_overlap=min_overlap,
        )
    wide = long_to_wide(items, rater_fact, label_codes, row_groups, ratings=ratings)
    return Prepared(
        frame,
        list(rater_fact.uniques),
        wide.codes,
        cats,
        wide.groups,
        by_list,
        min_overlap=min_overlap,
    )


def _subset_groups(groups: Groups, idx: np.ndarray) -> Groups:
    if groups.codes is None:
        return groups
    codes = groups.codes[idx]
    n = groups.n_groups
    present = np.bincount(codes, minlength=n) > 0
    lookup = np.cumsum(present) - 1
    first = groups.first_row[present]
    return Groups(lookup[codes], int(present.sum()), first)


def _sorted_ids(fact: Factorized) -> Factorized:
    """Rater ids in sorted order (order of appearance when they cannot be sorted)."""
    try:
        order = sorted(range(len(fact.uniques)), key=lambda i: fact.uniques[i])
    except TypeError:
        return fact
    rank = np.empty(len(order) + 1, dtype=np.intp)
    rank[np.asarray(order, dtype=np.intp)] = np.arange(len(order))
    rank[-1] = -1
    return Factorized(rank[fact.codes], [fact.uniques[i] for i in order])


def _select_ids(fact: Factorized, wanted: list[Hashable], column: Hashable) -> Factorized:
    err = missing_columns(wanted, fact.uniques, f"rater id in column {column!r}")
    if err is not None:
        raise err
    position = {u: i for i, u in enumerate(fact.uniques)}
    lookup = np.full(len(fact.uniques) + 1, -1, dtype=np.intp)
    for new, rid in enumerate(wanted):
        lookup[position[rid]] = new
    return Factorized(lookup[fact.codes], list(wanted))


def warn_undefined(undefined: np.ndarray, n: np.ndarray, what: str = "pair x group cells") -> None:
    """One warning per call naming how many results are undefined and why."""
    count = int(np.count_nonzero(undefined))
    if not count:
        return
    empty = int(np.count_nonzero(undefined & (n == 0)))
    parts = []
    if empty:
        parts.append(f"{empty} with no item rated by both")
    if count - empty:
        parts.append(f"{count - empty} where chance agreement is 1 (one shared category only)")
    message = (
        f"kappa is undefined (NaN) for {count} of {undefined.size} {what}: {'; '.join(parts)}."
    )
    warnings.warn(message, UndefinedKappaWarning, stacklevel=_user_stacklevel())


def _user_stacklevel() -> int:
    """Stack level of the first frame outside this package (so warnings point at user code)."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(
        _PACKAGE_DIR + os.sep
    ):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def tidy(
    prep: Prepared,
    *,
    weights: Any = None,
    scale: Any = "landis_koch",
    ci: float | None = None,
    reference: Any = None,
    extra: PairOptions | None = None,
) -> Table:
    """The tidy pairwise table of a prepared input.

    ``reference``: pairs of each rater with that rater only. ``extra``: the checked
    ``ci``/``ci_method``/``n_boot``/``seed``/``stats`` options (:mod:`kappaframe._api.options`);
    its columns follow ``interpretation``.
    """
    extra = check_pair_options(ci, by=prep.by) if extra is None else extra
    scale_obj = resolve_scale(scale)
    w = weight_matrix(weights, prep.categories)
    check_symmetric(w)
    pairs = prep.pairs() if reference is None else rater_pairs(prep.raters, reference)
    counts = prep.tables(pairs, weights, full=bool(extra.names))
    stats = pair_agreement(counts, w, weights)
    kept = prep.kept(stats["n"])
    warn_undefined(stats["undefined"][kept], stats["n"][kept])

    # Rows are group-major: every pair of group 0, then group 1, ... (with min_overlap,
    # only the cells with enough shared items).
    group_of_row, pair_of_row = np.nonzero(np.swapaxes(kept, 0, 1))

    def rows(values: np.ndarray) -> np.ndarray:
        return np.swapaxes(values, 0, 1)[group_of_row, pair_of_row]

    columns = key_columns(prep, group_of_row)
    a_idx, b_idx = pairs[:, 0], pairs[:, 1]
    kappa = rows(stats["kappa"])
    columns += [
        Column("rater_a", "name", a_idx[pair_of_row], categories=list(prep.raters)),
        Column("rater_b", "name", b_idx[pair_of_row], categories=list(prep.raters)),
        Column("n", "int", rows(stats["n"]).astype(np.int64)),
        Column("p_o", "float", rows(stats["p_o"])),
        Column("p_e", "float", rows(stats["p_e"])),
        Column("kappa", "float", kappa),
        Column("interpretation", "enum", scale_obj.classify(kappa), categories=scale_obj.labels),
    ]
    extras = pair_extras(counts, w, stats["kappa"], extra)
    columns += [Column(name, "float", rows(values)) for name, values in extras.items()]
    return Table(columns)


def check_symmetric(w: np.ndarray) -> None:
    if not np.allclose(w, w.T, rtol=0, atol=1e-12):
        raise KappaFrameError(
            "weights matrix must be symmetric (the disagreement of labels i and j is that of "
            "j and i); average it with its transpose, (W + W.T) / 2, if that is what you mean."
        )


def key_columns(prep: Prepared, group_of_row: np.ndarray) -> list[Column]:
    clash = [b for b in prep.by if b in TIDY_COLUMNS or b in CI_COLUMNS]
    if clash:
        raise KappaFrameError(
            f"by column {clash[0]!r} has the name of an output column; rename it first."
        )
    first = prep.groups.first_row[group_of_row] if len(group_of_row) else group_of_row
    return [Column(b, "key", first, source=b) for b in prep.by]
