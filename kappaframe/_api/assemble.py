"""Prepared input -> statistics -> ``kappaframe._schema.Table``: the pairwise outputs.

The tidy table (``tidy``) and the square matrix (``matrix_table``) of any prepared
input, eager or counted in parts: the one place where pair counts become output columns.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from .._count.diagonal import DiagonalCounts
from .._count.kernel import all_pairs
from .._errors import KappaFrameError, warn_undefined
from .._schema import CI_COLUMNS, MATRIX_KEY, TIDY_COLUMNS, Column, Kind, Table, check_names
from .._stats.agreement import Weights, pair_agreement
from .._stats.bootstrap import bootstrap_kappa
from .._stats.cluster import cluster_bootstrap, cluster_errors
from .._stats.compare import options_record
from .._stats.family import family
from .._stats.inference import standard_errors
from .._stats.scales import Scale, resolve_scale, with_min_items
from .options import PairOptions, check_pair_options, rater_pairs
from .prepare import Prepared

__all__ = [
    "interpret",
    "key_columns",
    "matrix_schema",
    "matrix_table",
    "pair_extras",
    "square_values",
    "tidy",
    "tidy_schema",
]


def tidy(
    prep: Prepared,
    *,
    weights: Any = None,
    scale: Any = "landis_koch",
    ci: float | None = None,
    reference: Any = None,
    extra: PairOptions | None = None,
    min_items: int | None = None,
    clusters: Any = None,
) -> Table:
    """The tidy pairwise table of a prepared input.

    ``reference``: pairs of each rater with that rater only. ``extra``: the checked
    ``ci``/``ci_method``/``n_boot``/``seed``/``stats`` options (``kappaframe._api.options``);
    its columns follow ``interpretation``. ``min_items`` (checked): rows with fewer items
    (``n``) are interpreted as "too few items" (``kappaframe._stats.scales.with_min_items``).
    ``clusters``: the ratings counted per cluster (``kappaframe._api.cluster.Clusters``); the
    standard errors and intervals are then cluster-robust (``kappaframe._stats.cluster``).
    """
    extra = check_pair_options(ci) if extra is None else extra
    scale_obj = resolve_scale(scale)
    prep.require_order(weights)
    w = Weights.of(weights, prep.categories)
    pairs = prep.pairs() if reference is None else rater_pairs(prep.raters, reference)
    per_cluster = None
    if clusters is None:
        counts = prep.tables(pairs, weights, full=bool(extra.names))
    else:
        per_cluster, counts = clusters.tables(pairs, weights)
    stats = pair_agreement(counts, w)
    kept = prep.kept(stats["n"])
    every_cell = bool(kept.all())
    if every_cell:  # (no boolean copies of a crowd's million cells)
        warn_undefined(stats["undefined"], stats["n"])
    else:
        warn_undefined(stats["undefined"][kept], stats["n"][kept])

    # Rows are group-major: every pair of group 0, then group 1, ... (with min_overlap,
    # only the cells with enough shared items).
    if every_cell:  # every cell: a reshape, no index (a crowd has a million pairs)
        n_pairs, n_groups = kept.shape
        group_of_row = np.repeat(np.arange(n_groups), n_pairs)
        a_idx, b_idx = np.tile(pairs[:, 0], n_groups), np.tile(pairs[:, 1], n_groups)

        def rows(values: np.ndarray) -> np.ndarray:
            return np.swapaxes(values, 0, 1).reshape(-1)

    else:
        group_of_row, pair_of_row = np.nonzero(np.swapaxes(kept, 0, 1))
        a_idx, b_idx = pairs[pair_of_row, 0], pairs[pair_of_row, 1]

        def rows(values: np.ndarray) -> np.ndarray:
            return np.swapaxes(values, 0, 1)[group_of_row, pair_of_row]

    keys = key_columns(prep, group_of_row, (*TIDY_COLUMNS, *extra.names), "pairwise")
    kappa = rows(stats["kappa"])
    where = None if clusters is None else (per_cluster, clusters.outer)
    extras = (
        pair_extras(counts, w.matrix, stats["kappa"], extra, prep.categories, where)
        if extra.names
        else {}
    )
    extras = {name: rows(values) for name, values in extras.items()}
    if ONE_CATEGORY in extras:
        warn_one_category(extras.pop(ONE_CATEGORY))
    whole = counted_whole(counts)
    n = rows(stats["n"]).astype(np.int64 if whole else np.float64)
    band, labels = with_min_items(
        interpret(scale_obj, kappa, extras, extra), n, min_items, scale_obj.labels
    )
    return tidy_table(
        keys,
        list(prep.raters),
        (a_idx, b_idx),
        {"n": n, "p_o": rows(stats["p_o"]), "p_e": rows(stats["p_e"]), "kappa": kappa},
        (band, labels),
        {name: extras[name] for name in extra.names},
        mark=options_record(weights, prep.categories),
    )


def tidy_table(
    keys: list[Column],
    raters: list[Hashable],
    pair: tuple[np.ndarray, np.ndarray],
    values: dict[str, np.ndarray],
    band: tuple[np.ndarray, tuple[str, ...]],
    extras: dict[str, np.ndarray],
    mark: dict[str, Any] | None = None,
) -> Table:
    """The pairwise table's columns, in output order: keys, pair, statistics, extras.

    ``pair``: each row's raters (positions into ``raters``); ``values``: ``n`` (integer
    when whole), ``p_o``, ``p_e`` and ``kappa``; ``band``: the interpretation codes and
    their labels; ``extras``: the optional columns, in order; ``mark``: the options the
    result records (``kappaframe._stats.compare.options_record``).
    """
    n = values["n"]
    columns = [
        *keys,
        Column("rater_a", "name", pair[0], categories=raters),
        Column("rater_b", "name", pair[1], categories=raters),
        Column("n", "int" if n.dtype.kind in "iu" else "float", n),
        *(Column(name, "float", values[name]) for name in ("p_o", "p_e", "kappa")),
        Column("interpretation", "enum", band[0], categories=band[1]),
    ]
    columns += [Column(name, "float", column) for name, column in extras.items()]
    return Table(columns, mark={"kind": "pairwise", **(mark or {})})


def tidy_schema(
    by: list[Hashable], raters: list[Hashable], labels: tuple[str, ...], extras: Sequence[str]
) -> Table:
    """The pairwise table with no rows: its schema, before anything is counted."""
    check_names(by, (*TIDY_COLUMNS, *extras), "pairwise")
    none, nothing = np.zeros(0, dtype=np.intp), np.zeros(0)
    return tidy_table(
        [Column(b, "key", none, source=b) for b in by],
        raters,
        (none, none),
        {"n": np.zeros(0, dtype=np.int64), "p_o": nothing, "p_e": nothing, "kappa": nothing},
        (np.zeros(0, dtype=np.int8), labels),
        {name: nothing for name in extras},
    )


def interpret(
    scale: Scale, value: np.ndarray, errors: dict[str, np.ndarray], options: PairOptions
) -> np.ndarray:
    """The band of each value: by its point estimate, or Gwet's probabilistic benchmark.

    With ``options.benchmark == "probabilistic"`` the band is the highest one whose
    cumulative membership probability reaches the ``ci`` level, and ``errors`` gains
    ``interpretation_p``, that probability.
    """
    if options.benchmark != "probabilistic" or options.ci is None:
        return scale.classify(value)
    band, probability = scale.benchmark(value, errors["se"], options.ci)
    errors["interpretation_p"] = probability
    return band


#: The key of ``pair_extras``' mask of the tables where a rater used one category only.
ONE_CATEGORY = "one_category"


def warn_one_category(single: np.ndarray, what: str = "pair x group cells") -> None:
    """The one warning of the rows whose standard error and test are undefined."""
    warn_undefined(
        single,
        None,
        what,
        subject="the standard error of kappa (se, se0, ci_low, ci_high, z, p_value)",
        otherwise="where a rater used one category only (kappa is then 0 whatever the other did)",
    )


#: Pairs whose optional columns (standard errors, ``stats``) are computed together.
EXTRAS_CHUNK_PAIRS = 1 << 15


def pair_extras(
    counts: Any,
    weights: np.ndarray,
    kappa: np.ndarray,
    options: PairOptions,
    categories: Sequence[Any] | None = None,
    clusters: tuple[Any, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Compute the optional columns for tables ``counts[..., K, K]``, in output order.

    With ``ci``: ``se``, ``ci_low``, ``ci_high`` (Fleiss, Cohen & Everitt, or the
    percentile bootstrap), ``se0``, ``z`` and ``p_value`` (always the large-sample test
    of kappa = 0, against ``options.alternative``), all NaN where a rater used one
    category only (``standard_errors``), and ``ONE_CATEGORY``, the mask of those tables
    (not a column: the caller warns of it once). Then the ``stats`` columns (see
    ``kappaframe._stats.family.family``). ``categories`` (the labels of the tables' rows)
    fix the order of the bootstrap's draws (``kappaframe._stats.bootstrap``).
    ``counts`` must be full tables when ``options.names`` is not empty; otherwise it is
    not read (it may be the diagonal-only counts of many categories). ``clusters``: the
    tables per cluster ``[pairs, clusters, K, K]`` and each cluster's group; the
    standard errors, intervals and test are then cluster-robust
    (``kappaframe._stats.cluster``: the linearisation, or the cluster bootstrap).
    """
    n_pairs = len(counts)
    if n_pairs > EXTRAS_CHUNK_PAIRS and options.ci_method != "bootstrap":
        # Many pairs (a thousand raters): the variance terms' temporaries stay one chunk
        # big. (The bootstrap draws for all tables at once, so its numbers do not depend
        # on a chunk size.)
        parts = [
            pair_extras(
                counts[s : s + EXTRAS_CHUNK_PAIRS],
                weights,
                kappa[s : s + EXTRAS_CHUNK_PAIRS],
                options,
                categories,
                None
                if clusters is None
                else (clusters[0][s : s + EXTRAS_CHUNK_PAIRS], clusters[1]),
            )
            for s in range(0, n_pairs, EXTRAS_CHUNK_PAIRS)
        ]
        return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    out: dict[str, np.ndarray] = {}
    if options.ci is not None and clusters is not None:
        errors = cluster_errors(*clusters, counts, weights, kappa, options.ci, **options.test)
        if options.ci_method == "bootstrap":
            boot = cluster_bootstrap(
                *clusters, counts, weights, options.ci, options.n_boot or 1000, options.seed,
                categories=categories,
            )  # fmt: skip
            errors.update({name: np.where(errors["one_category"], np.nan, boot[name])
                           for name in boot})  # fmt: skip
        out.update((name, errors[name]) for name in CI_COLUMNS)
        out[ONE_CATEGORY] = errors["one_category"]
    elif options.ci is not None:
        errors = standard_errors(counts, weights, kappa, options.ci, **options.test)
        if options.ci_method == "bootstrap":
            errors.update(
                bootstrap_kappa(
                    counts,
                    weights,
                    options.ci,
                    options.n_boot or 1000,
                    options.seed,
                    categories=categories,
                )
            )
            for name in ("se", "ci_low", "ci_high"):  # no interval from a constant rater
                errors[name] = np.where(errors["one_category"], np.nan, errors[name])
        out.update((name, errors[name]) for name in CI_COLUMNS)
        out[ONE_CATEGORY] = errors["one_category"]
    if options.stats:
        out.update(family(counts, weights, options.stats))
    return out


def key_columns(
    prep: Prepared, group_of_row: np.ndarray, output: tuple[Any, ...], what: str
) -> list[Column]:
    """The ``by`` columns of the rows, after checking them against the ``output`` schema."""
    check_names(prep.by, output, what)
    first = prep.groups.first_row[group_of_row] if len(group_of_row) else group_of_row
    return [Column(b, "key", first, source=b) for b in prep.by]


def counted_whole(counts: Any) -> bool:
    """Whether ``counts`` count whole items (integers); weighted counts are fractional.

    ``n`` is then an integer column; else a float column, never rounded.
    """
    values = counts.n if isinstance(counts, DiagonalCounts) else counts
    return bool(np.issubdtype(np.asarray(values).dtype, np.integer))


def matrix_table(prep: Prepared, stat: str, weights: Any) -> Table:
    """Build the rater x rater ``Table`` of ``stat``, one block of rows per group."""
    square = square_values(prep, stat, weights)
    n_raters = len(prep.raters)
    n_groups = prep.groups.n_groups

    group_of_row = np.repeat(np.arange(n_groups), n_raters)
    rater_of_row = np.tile(np.arange(n_raters), n_groups)
    flat = square.reshape(n_groups * n_raters, n_raters)
    kind: Kind = "int" if square.dtype.kind == "i" else "float"
    _check_matrix_raters(prep.raters)
    keys = key_columns(prep, group_of_row, (MATRIX_KEY, *prep.raters), "matrix")
    return matrix_columns(keys, list(prep.raters), rater_of_row, flat, kind, stat)


def matrix_columns(
    keys: list[Column],
    raters: list[Hashable],
    rater_of_row: np.ndarray,
    flat: np.ndarray,
    kind: Kind,
    stat: str,
) -> Table:
    """The matrix's columns, in output order: keys, the row's rater, one column per rater."""
    columns = [*keys, Column(MATRIX_KEY, "name", rater_of_row, categories=raters)]
    columns += [Column(r, kind, np.ascontiguousarray(flat[:, j])) for j, r in enumerate(raters)]
    index = [*(c.name for c in keys), MATRIX_KEY]
    return Table(columns, index=index, mark={"kind": "matrix", "stat": stat})


def _check_matrix_raters(raters: Sequence[Hashable]) -> None:
    if MATRIX_KEY in raters:
        raise KappaFrameError(
            f"a rater is named {MATRIX_KEY!r}, the name of the matrix's rater column; rename "
            "that rater first (or use pairwise(), whose columns are rater_a and rater_b)."
        )


def matrix_schema(by: list[Hashable], raters: list[Hashable], stat: str) -> Table:
    """The matrix with no rows: its schema, before anything is counted."""
    _check_matrix_raters(raters)
    check_names(by, (MATRIX_KEY, *raters), "matrix")
    kind: Kind = "int" if stat == "n" else "float"
    flat = np.zeros((0, len(raters)), dtype=np.int64 if kind == "int" else np.float64)
    none = np.zeros(0, dtype=np.intp)
    keys = [Column(b, "key", none, source=b) for b in by]
    return matrix_columns(keys, raters, none, flat, kind, stat)


def square_values(prep: Prepared, stat: str, weights: Any) -> np.ndarray:
    """``stat`` of every rater pair (and each rater with themself): shape (groups, R, R)."""
    prep.require_order(weights)
    w = Weights.of(weights, prep.categories)
    n_raters, n_groups = len(prep.raters), prep.groups.n_groups
    # Each rater with themself, then the pairs: all of them, or on the sparse paths those
    # that share items (the others share nothing: n 0, statistics undefined).
    own = np.repeat(np.arange(n_raters), 2).reshape(-1, 2)
    shared = all_pairs(n_raters) if prep.source is None else prep.source.pairs(1)
    pairs = np.concatenate([own, shared])
    tables = prep.tables(pairs, weights)
    stats = pair_agreement(tables, w)
    # Cell [a, b] has rater a's labels as the table rows. Symmetric weights give the same
    # numbers either way round; asymmetric ones (a full-table path) are computed again on
    # the transposed tables.
    transposed = stats
    if not w.symmetric:
        transposed = pair_agreement(np.swapaxes(np.asarray(tables), -2, -1), w)
    whole = counted_whole(tables)
    n = np.zeros((n_groups, n_raters, n_raters), dtype=np.int64 if whole else np.float64)
    undefined = np.ones((n_groups, n_raters, n_raters), dtype=bool)
    values = np.zeros_like(n, dtype=n.dtype) if stat == "n" else np.full(n.shape, np.nan)
    for a, b, cells in ((pairs[:, 0], pairs[:, 1], stats), (pairs[:, 1], pairs[:, 0], transposed)):
        n[:, a, b] = cells["n"].T
        undefined[:, a, b] = cells["undefined"].T
        values[:, a, b] = cells[stat].T
    upper = np.triu_indices(n_raters, 1)
    kept = prep.kept(n[:, upper[0], upper[1]])
    warn_undefined(undefined[:, upper[0], upper[1]][kept], n[:, upper[0], upper[1]][kept])
    if stat != "n":
        hidden = ~prep.kept(n)
        hidden[:, np.arange(n_raters), np.arange(n_raters)] = False
        values[hidden] = np.nan
    return values.astype(np.int64) if stat == "n" and whole else values
