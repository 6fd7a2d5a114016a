"""Bootstrap intervals for the many-rater coefficients of ``overall``: items resampled.

A bootstrap replicate of a group resamples its ``n`` items with replacement. Every
coefficient of ``kappaframe._stats.multirater`` is a function of sums over items of
per-item terms (Fleiss' observed agreement, the category shares, each rater's label
counts, each pair's K x K table, Krippendorff's pairable values), so a replicate only
changes how many times each item is counted. Items that carry the same labels add the
same terms: they are folded into *patterns* (the distinct per-item category counts, or,
when Conger's or Light's coefficient is asked, the distinct labels rater by rater), and a
replicate is one multinomial draw of ``n`` items over the patterns with probabilities
``f_u / n`` (``f_u`` items share pattern ``u``). The sums of a block of replicates are
one matrix product ``M @ F`` (replicates x patterns times patterns x terms), and each
coefficient is finished from them for every replicate at once, with the same formulas as
the point estimate.

The patterns are sorted (group, then the counts or codes in lexicographic order, the
categories taken in the order of the labels themselves), so the draws depend neither on
the order of the rows nor on how the labels were coded: every way in gives the same
intervals.
Each group draws from its own child of the call's seed, and its replicates come in
blocks of ``REPLICATES_PER_SEED`` (a multiple of it for a group with few distinct items),
each block from its own child of the group's seed; blocks run side by side on the CPUs
this process may use (``kappaframe._stats.bootstrap``), so the numbers do not depend on
how many CPUs there are. The blocks of small groups are drawn one after another in one
task and finished together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._count.kernel import MAX_COUNT_BYTES, all_pairs
from .._encode.codes import canonical_order
from .._errors import KappaFrameError
from . import bootstrap as _bootstrap
from .agreement import chance_corrected, finish_agreement
from .alpha_sums import AlphaReplicates, rated_values, uses_sums
from .bootstrap import CHUNK_BYTES, check_bootstrap, make_rng, percentile_summary
from .cluster import draw_clusters
from .multirater import Ratings, level_weights

__all__ = [
    "NEEDS_RATERS",
    "REPLICATES_PER_SEED",
    "Patterns",
    "bootstrap_overall",
    "item_patterns",
    "replicate_counts",
    "value_patterns",
]

#: The coefficients that read which rater gave which label: their patterns are the items'
#: labels rater by rater, not only their category counts.
NEEDS_RATERS = ("conger", "light")
#: Replicates drawn from one child seed (one block of work for one thread); small groups
#: draw a multiple of it from one seed, up to about ``_BLOCK_DRAWS`` binomial draws.
REPLICATES_PER_SEED = 100
_BLOCK_DRAWS = 1 << 17
#: Groups whose replicates are kept in memory at once (their values, before the summary).
_GROUPS_AT_ONCE = 64


@dataclass(frozen=True)
class Patterns:
    """The distinct items of each group and how many items share each.

    ``rows``: (U, K) category counts (float), or (U, R) codes rater by rater (``-1``
    missing) when ``by_rater``; ``group``: the group of each row; ``freq``: how many items
    have it; ``bounds``: group ``g``'s rows are ``bounds[g]:bounds[g + 1]``; ``first``:
    the position (in ``Ratings`` order) of the first item with that row; ``of_item``: the
    row of each item. Rows are sorted by group, then lexicographically. ``values``: the
    patterns' values as (pattern, category code, count) when the rows are not held
    (``value_patterns``: no (U, K) array for many categories); ``rows`` is then (U, 0).
    """

    rows: np.ndarray
    group: np.ndarray
    freq: np.ndarray
    bounds: np.ndarray
    first: np.ndarray
    of_item: np.ndarray
    by_rater: bool
    values: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None


def item_patterns(rt: Ratings, by_rater: bool, categories: Sequence[Any] | None = None) -> Patterns:
    """Fold the items of ``rt`` into patterns: per-item counts, or codes rater by rater.

    With ``categories`` (the labels the codes stand for), the patterns are sorted as if
    the labels were coded in their own order (``kappaframe._encode.codes.canonical_order``):
    the order of the draws then does not depend on how a way in coded them.
    """
    group = np.asarray(rt.group, dtype=np.int64)
    if by_rater:
        digits = np.ascontiguousarray(rt.codes.T, dtype=np.int64) + 1  # missing -> 0
    elif rt.given_counts is not None:
        digits = np.asarray(rt.given_counts, dtype=float)
    else:
        digits = np.rint(rt.counts).astype(np.int64)
    order = None
    if categories is not None and len(categories) == rt.n_categories:
        order = canonical_order(categories)
    if order is None or np.array_equal(order, np.arange(len(order))):
        first, of_item, freq = _unique_rows(group, digits)
    elif by_rater:
        rank = np.empty(len(order) + 1, dtype=np.int64)
        rank[0] = 0  # missing stays 0
        rank[order + 1] = np.arange(1, len(order) + 1)
        first, of_item, freq = _unique_rows(group, rank[digits])
    else:
        first, of_item, freq = _unique_rows(group, digits[:, order])
    rows = digits[first] - 1 if by_rater else digits[first].astype(float)
    pattern_group = group[first]
    bounds = np.searchsorted(pattern_group, np.arange(rt.n_groups + 1))
    return Patterns(rows, pattern_group, freq, bounds, first, of_item, by_rater)


def value_patterns(rt: Ratings, categories: Sequence[Any]) -> Patterns:
    """``item_patterns(rt, False, categories)`` without the (items, K) counts.

    Each item's counts are its list of (category, count) in the order of the labels; one
    count vector precedes another exactly when the list of (-rank, count) pairs does
    (an absent category reads as a smaller rank, a shorter list as smaller), so
    ``np.unique`` over those lists, padded, gives the same patterns in the same order, and
    the same draws. Memory grows with the labels, not with items x K.
    """
    item, code, _ = rated_values(rt.codes, None)
    k = max(rt.n_categories, 1)
    n_items = rt.codes.shape[1]
    order = _label_order(categories, rt.n_categories)
    rank = code if order is None else np.argsort(order)[code]
    cells, count = np.unique(item * k + rank, return_counts=True)
    c_item, c_rank = np.divmod(cells, k)
    slot = np.arange(len(cells)) - np.searchsorted(c_item, c_item)
    width = int(slot.max(initial=0)) + 1
    keys = np.zeros((n_items, 1 + 2 * width), dtype=np.int64)
    keys[:, 0] = rt.group
    keys[:, 1::2] = -k  # no more labels: below every rank
    keys[c_item, 1 + 2 * slot] = -c_rank
    keys[c_item, 2 + 2 * slot] = count
    _, first, of_item, freq = np.unique(
        keys, axis=0, return_index=True, return_inverse=True, return_counts=True
    )
    of_item = of_item.reshape(-1)
    is_first = np.zeros(n_items, dtype=bool)
    is_first[first] = True
    mine = is_first[c_item]
    codes = c_rank[mine] if order is None else order[c_rank[mine]]
    values = (of_item[c_item[mine]], codes, count[mine].astype(float))
    group = np.asarray(rt.group, dtype=np.int64)[first]
    bounds = np.searchsorted(group, np.arange(rt.n_groups + 1))
    rows = np.zeros((len(first), 0))
    return Patterns(rows, group, freq, bounds, first, of_item, False, values)


def _label_order(categories: Sequence[Any], k: int) -> np.ndarray | None:
    """``canonical_order`` of the labels (at C speed for floats); None: the codes' order."""
    if len(categories) != k:
        return None
    if set(map(type, categories)) <= {float, np.float64}:
        order = np.argsort(np.asarray(categories, dtype=float), kind="stable")
    else:
        order = canonical_order(categories)
    return None if np.array_equal(order, np.arange(len(order))) else order


def _pattern_values(pat: Patterns, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pattern, code, count) of every value of the patterns."""
    if pat.values is not None:
        return pat.values
    if pat.by_rater:
        unit, rater = np.nonzero(pat.rows >= 0)
        return unit, pat.rows[unit, rater].astype(np.int64), np.ones(len(unit))
    unit, code = np.nonzero(pat.rows)
    return unit, code, pat.rows[unit, code]


def _unique_rows(
    group: np.ndarray, digits: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """First index, inverse and count of the distinct (group, row), sorted lexicographically.

    Integer rows are numbered in mixed radix (the group most significant) when the number
    fits in 62 bits, which sorts exactly like the rows; otherwise (or for fractional
    counts) ``np.unique`` sorts the rows themselves.
    """
    n = len(group)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    keys: np.ndarray
    if digits.dtype.kind == "i":
        bases = [int(group.max()) + 1, *(int(m) + 1 for m in digits.max(axis=0))]
        if float(np.sum(np.log2(bases))) < 62:
            number = group.copy()
            for j in range(digits.shape[1]):
                number = number * bases[j + 1] + digits[:, j]
            _, first, inverse, counts = np.unique(
                number, return_index=True, return_inverse=True, return_counts=True
            )
            return first, inverse.reshape(-1), counts
        keys = np.column_stack([group, digits])
    else:
        keys = np.column_stack([group.astype(float), digits])
    _, first, inverse, counts = np.unique(
        keys, axis=0, return_index=True, return_inverse=True, return_counts=True
    )
    return first, inverse.reshape(-1), counts


# --------------------------------------------------------------------------- the draws


def _group_seeds(seed: Any, n_groups: int) -> list[np.random.SeedSequence]:
    """One child seed per group, from the call's generator (which advances)."""
    rng = make_rng(seed)
    root = np.random.SeedSequence(rng.integers(0, 2**63, size=4).tolist())
    return root.spawn(n_groups)


def _blocks(n_boot: int, patterns: int) -> list[tuple[int, int]]:
    """The blocks of replicates of a group with ``patterns`` distinct items.

    ``REPLICATES_PER_SEED`` replicates a block, or a multiple of it for small groups (about
    ``_BLOCK_DRAWS`` binomial draws a block): a function of the data and ``n_boot`` only.
    """
    size = REPLICATES_PER_SEED * max(1, _BLOCK_DRAWS // (max(patterns, 1) * REPLICATES_PER_SEED))
    return [(r0, min(r0 + size, n_boot)) for r0 in range(0, n_boot, size)]


def _draws(
    freq: np.ndarray, reps: int, child: np.random.SeedSequence, chunk_bytes: int
) -> Iterator[np.ndarray]:
    """``reps`` multinomial draws of ``sum(freq)`` items over the patterns, in chunks.

    Chunks come one after another from one generator: the same numbers as one draw.
    """
    generator = np.random.Generator(np.random.PCG64(child))
    n = int(freq.sum())
    probs = freq / n
    step = max(1, min(reps, chunk_bytes // (max(len(freq), 1) * 8 * 4)))
    for r0 in range(0, reps, step):
        yield generator.multinomial(n, probs, size=min(step, reps - r0))


def _cluster_draws(
    incidence: np.ndarray, reps: int, child: np.random.SeedSequence, chunk_bytes: int
) -> Iterator[np.ndarray]:
    """``reps`` draws of the C clusters with replacement, as items per pattern, in chunks.

    ``incidence[c, u]``: the items of cluster ``c`` with pattern ``u``. Each replicate is
    draw of C clusters with replacement (``kappaframe._stats.cluster.draw_clusters``), times
    ``incidence``.
    """
    generator = np.random.Generator(np.random.PCG64(child))
    c = incidence.shape[0]
    step = max(1, min(reps, chunk_bytes // (max(c + incidence.shape[1], 1) * 8 * 4)))
    for r0 in range(0, reps, step):
        yield draw_clusters(generator, c, min(step, reps - r0)) @ incidence


def _incidence(rt: Ratings, pat: Patterns, g: int, lo: int, hi: int) -> np.ndarray:
    """Group ``g``'s (clusters, patterns) matrix of items (``Ratings.cluster``)."""
    mine = np.flatnonzero(rt.group == g)
    _, cluster = np.unique(np.asarray(rt.cluster)[mine], return_inverse=True)
    out = np.zeros((int(cluster.max()) + 1 if mine.size else 0, hi - lo))
    weight = 1.0 if rt.weight is None else rt.weight[mine]
    np.add.at(out, (cluster.reshape(-1), pat.of_item[mine] - lo), weight)
    return out


def replicate_counts(freqs: Sequence[np.ndarray], n_boot: int, seed: Any) -> list[np.ndarray]:
    """The draws ``bootstrap_overall`` makes: per group, (n_boot, patterns) item counts.

    ``freqs[g]`` holds how many items of group ``g`` share each pattern (in pattern
    order). For checking and for resampling elsewhere; ``bootstrap_overall`` never holds
    them all at once.
    """
    n_boot = check_bootstrap(n_boot)
    out = []
    for freq, child in zip(freqs, _group_seeds(seed, len(freqs)), strict=True):
        freq = np.asarray(freq, dtype=np.int64)
        if freq.sum() == 0:
            out.append(np.zeros((n_boot, len(freq)), dtype=np.int64))
            continue
        blocks = _blocks(n_boot, len(freq))
        parts = [
            np.concatenate(list(_draws(freq, r1 - r0, c, CHUNK_BYTES)))
            for (r0, r1), c in zip(blocks, child.spawn(len(blocks)), strict=True)
        ]
        out.append(np.concatenate(parts))
    return out


# --------------------------------------------------------------------------- the terms


Finish = Callable[[np.ndarray, np.ndarray], np.ndarray]


class _Design:
    """The per-pattern terms every asked coefficient sums, and how each one finishes.

    ``columns`` is the (U, d) matrix ``F``; ``finish[m](S, n)`` turns the replicates'
    sums ``S = M @ F`` (rows, d), each of a group of ``n[row]`` items, into method
    ``m``'s values (rows of several groups are finished at once).
    Light's pair tables are not columns (P K^2 of them): ``light_cells`` holds each
    pattern's cell in each pair's table (-1: not both rated).
    """

    def __init__(self) -> None:
        self._parts: list[np.ndarray] = []
        self.width = 0
        self.finish: dict[str, Finish] = {}
        self.light_cells: np.ndarray | None = None
        self.light_finish: Callable[[np.ndarray], np.ndarray] | None = None
        #: Krippendorff's alpha from the sums over values: finished per group and block
        self.alpha: AlphaReplicates | None = None
        self.alpha_at = slice(0, 0)

    def add(self, values: np.ndarray) -> slice:
        values = values.reshape(len(values), -1)
        here = slice(self.width, self.width + values.shape[1])
        self._parts.append(values)
        self.width += values.shape[1]
        return here

    @property
    def columns(self) -> np.ndarray:
        return np.ascontiguousarray(np.concatenate(self._parts, axis=1))


def _counts_of(pat: Patterns, k: int) -> np.ndarray:
    """(U, K) float category counts of the patterns."""
    if not pat.by_rater:
        return pat.rows
    counts = np.zeros((len(pat.rows), k))
    for r in range(pat.rows.shape[1]):
        rated = pat.rows[:, r] >= 0
        np.add.at(counts, (np.flatnonzero(rated), pat.rows[rated, r]), 1.0)
    return counts


def _ratio(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1.0), np.nan)


def _design(
    pat: Patterns,
    methods: Sequence[str],
    k: int,
    disagree: np.ndarray,
    given: np.ndarray,
    weighted: bool,
    level: str,
    categories: Sequence[Any],
) -> _Design:
    """The terms and finishers of ``methods``, as ``kappaframe._stats.multirater`` has them."""
    design = _Design()
    agree = 1.0 - disagree
    as_given = 1.0 - given
    counts = _counts_of(pat, k)
    r = counts.sum(axis=1)
    two = r >= 2
    with np.errstate(divide="ignore", invalid="ignore"):
        share = counts / r[:, None]
        per_pair = np.where(two, 1.0 / np.where(two, r * (r - 1.0), 1.0), 0.0)
        per_value = np.where(two, 1.0 / np.where(two, r - 1.0, 1.0), 0.0)
    observed = [m for m in methods if m not in ("krippendorff", "light")]
    at_two = design.add(two.astype(float)) if observed or "krippendorff" in methods else None
    at_share = design.add(share) if observed else None
    agreements: dict[bytes, slice] = {}

    def observed_sum(a: np.ndarray) -> slice:
        """Column of the items' agreement ``sum_k r_k (A r - 1)_k / (r (r - 1))``."""
        key = a.tobytes()
        if key not in agreements:
            q = ((counts @ a) * counts).sum(axis=1) - r
            agreements[key] = design.add(q * per_pair)
        return agreements[key]

    def pa_pi(s: np.ndarray, n: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        assert at_two is not None and at_share is not None
        pa = _ratio(s[:, observed_sum(a)][:, 0], s[:, at_two][:, 0])
        return pa, s[:, at_share] / n[:, None]

    q = k
    for method in methods:
        if method == "fleiss":
            observed_sum(agree)

            def fleiss(s: np.ndarray, n: np.ndarray) -> np.ndarray:
                pa, pi = pa_pi(s, n, agree)
                return chance_corrected(pa, (pi * _times(pi, agree)).sum(axis=1))

            design.finish[method] = fleiss
        elif method in ("gwet_ac1", "gwet_ac2"):
            a = np.eye(k) if method == "gwet_ac1" else as_given
            observed_sum(a)
            factor = a.sum() / (q * (q - 1.0)) if q >= 2 else np.nan

            def gwet(
                s: np.ndarray, n: np.ndarray, a: np.ndarray = a, f: float = factor
            ) -> np.ndarray:
                pa, pi = pa_pi(s, n, a)
                return chance_corrected(pa, f * (pi * (1.0 - pi)).sum(axis=1))

            design.finish[method] = gwet
        elif method == "brennan_prediger":
            observed_sum(agree)
            chance = agree.sum() / q**2 if q else 1.0

            def brennan(s: np.ndarray, n: np.ndarray, c: float = chance) -> np.ndarray:
                pa, _ = pa_pi(s, n, agree)
                return chance_corrected(pa, np.full(len(pa), c))

            design.finish[method] = brennan
        elif method == "percent":
            a = as_given if weighted else np.eye(k)
            observed_sum(a)

            def percent(s: np.ndarray, n: np.ndarray, a: np.ndarray = a) -> np.ndarray:
                pa, _ = pa_pi(s, n, a)
                return pa

            design.finish[method] = percent
        elif method == "conger":
            design.finish[method] = _conger(design, pat, k, agree, observed_sum, pa_pi)
        elif method == "krippendorff" and uses_sums(level, weighted, k):
            design.alpha = AlphaReplicates(*_pattern_values(pat, k), pat.group, level, categories)
            design.alpha_at = design.add(design.alpha.columns)
        elif method == "krippendorff":
            design.finish[method] = _krippendorff(
                design, counts, r, two, per_value, at_two, weighted, agree, level, categories
            )
        elif method == "light":
            _light(design, pat, k, disagree)
        else:  # pragma: no cover - resolve_methods checked the name
            raise KappaFrameError(f"no bootstrap for method {method!r}")
    return design


def _conger(
    design: _Design,
    pat: Patterns,
    k: int,
    agree: np.ndarray,
    observed_sum: Callable[[np.ndarray], slice],
    pa_pi: Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
) -> Finish:
    """Conger's chance agreement from each rater's label counts (one column per rater x k)."""
    observed_sum(agree)
    n_raters = pat.rows.shape[1]
    own = np.zeros((len(pat.rows), n_raters * k))
    for r in range(n_raters):
        rated = pat.rows[:, r] >= 0
        own[np.flatnonzero(rated), r * k + pat.rows[rated, r]] = 1.0
    at_own = design.add(own)

    def conger(s: np.ndarray, n: np.ndarray) -> np.ndarray:
        pa, _ = pa_pi(s, n, agree)
        # (rater, category, replicate): the replicates innermost, so every sum over raters
        # or categories runs over them in one pass
        labels = np.ascontiguousarray(s[:, at_own].T).reshape(n_raters, k, len(s))
        labeled = labels.sum(axis=1)
        active = labeled > 0
        r_eff = active.sum(axis=0).astype(float)
        shares = labels / np.where(active, labeled, 1.0)[:, None, :]
        total = shares.sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            p_e = (
                (total * _weigh(agree, total)).sum(axis=0)
                - (shares * _weigh(agree, shares)).sum(axis=(0, 1))
            ) / (r_eff * (r_eff - 1.0))
        return chance_corrected(pa, np.where(r_eff >= 2, p_e, np.nan))

    return conger


def _krippendorff(
    design: _Design,
    counts: np.ndarray,
    r: np.ndarray,
    two: np.ndarray,
    per_value: np.ndarray,
    at_two: slice | None,
    weighted: bool,
    agree: np.ndarray,
    level: str,
    categories: Sequence[Any],
) -> Finish:
    """Krippendorff's alpha in Gwet's form from the pairable items' sums."""
    assert at_two is not None
    at_values = design.add(np.where(two, r, 0.0))
    at_marg = design.add(np.where(two[:, None], counts, 0.0))
    ordinal = level == "ordinal" and not weighted
    if ordinal:
        outer = counts[:, :, None] * counts[:, None, :] * per_value[:, None, None]
        at_outer = design.add(outer)
        at_self = design.add(r * per_value)
        fixed = None
    else:
        fixed = agree if weighted and level == "nominal" else level_weights(level, categories)
        at_q = design.add((((counts @ fixed) * counts).sum(axis=1) - r) * per_value)
    k = counts.shape[1]

    def alpha(s: np.ndarray, n_items: np.ndarray) -> np.ndarray:
        n = s[:, at_two][:, 0]
        values = s[:, at_values][:, 0]
        marg = s[:, at_marg]
        if fixed is None:
            a = level_weights("ordinal", categories, marg)
            sum_q = (a.reshape(len(s), k * k) * s[:, at_outer]).sum(axis=1) - s[:, at_self][:, 0]
        else:
            a = fixed
            sum_q = s[:, at_q][:, 0]
        with np.errstate(divide="ignore", invalid="ignore"):
            rbar = values / n
            eps = 1.0 / values
            pa_prime = sum_q / (n * rbar)
            p_o = (1.0 - eps) * pa_prime + eps
            pi = np.nan_to_num(marg / values[:, None])
            a_pi = _times(pi, a) if a.ndim == 2 else np.einsum("bk,bkl->bl", pi, a)
            p_e = np.where(n > 0, (pi * a_pi).sum(axis=1), np.nan)
        return chance_corrected(p_o, p_e)

    return alpha


def _light(design: _Design, pat: Patterns, k: int, disagree: np.ndarray) -> None:
    """Light's mean kappa: each pair's table of each replicate, from the patterns' cells."""
    codes = pat.rows
    pairs = all_pairs(codes.shape[1])
    cells = np.full((len(pairs), len(codes)), -1, dtype=np.int64)
    for p, (a, b) in enumerate(pairs):
        both = (codes[:, a] >= 0) & (codes[:, b] >= 0)
        cells[p, both] = codes[both, a] * k + codes[both, b]
    design.light_cells = cells

    n_pairs = len(pairs)

    def light(sums: np.ndarray) -> np.ndarray:
        """Mean kappa over the pairs from ``_light_sums`` (terms, rows): n, D_o, marginals."""
        rows = sums.shape[1]
        n = sums[:n_pairs]
        dis_obs = sums[n_pairs : 2 * n_pairs]
        margins = sums[2 * n_pairs :].reshape(2, n_pairs, k, rows)
        # replicates innermost: einsum runs over them in one pass (and starts no BLAS)
        weighted = np.einsum("ij,pjr->pir", disagree, margins[1])
        dis_exp = (margins[0] * weighted).sum(axis=1)
        kappa = finish_agreement(n, dis_obs, dis_exp)["kappa"]  # (P, rows)
        defined = np.isfinite(kappa)
        used = defined.sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(defined, kappa, 0.0).sum(axis=0) / used
        return np.where(used > 0, mean, np.nan)

    design.light_finish = light


def _light_indicator(cells: np.ndarray, k: int, disagree: np.ndarray) -> Any:
    """Light's terms of each pattern, sparse: (terms, patterns).

    Per pair ``p``: whether both raters labeled the pattern (rows ``p``), the
    disagreement weight of their two labels (``P + p``), and one in the row of rater
    ``a``'s label (``2P + p K + i``) and of rater ``b``'s (``2P + P K + p K + j``): the
    sums ``n``, ``D_o`` and the two marginals of every pair's table, without the K x K
    tables.
    """
    from scipy import sparse

    n_pairs, u = cells.shape
    both = cells >= 0
    pair_of, pattern_of = np.nonzero(both)
    cell = cells[both]
    first, second = np.divmod(cell, k)
    weight = np.asarray(disagree, dtype=float).reshape(k * k)[cell]
    rows = np.concatenate(
        [
            pair_of,
            n_pairs + pair_of,
            2 * n_pairs + pair_of * k + first,
            2 * n_pairs + n_pairs * k + pair_of * k + second,
        ]
    )
    ones = np.ones(len(pair_of))
    return sparse.csr_matrix(
        (np.concatenate([ones, weight, ones, ones]), (rows, np.tile(pattern_of, 4))),
        shape=(2 * n_pairs + 2 * n_pairs * k, u),
    )


def _light_sums(draws: np.ndarray, indicator: Any) -> np.ndarray:
    """(terms, reps): Light's sums of each replicate, one sparse product.

    The work grows with patterns x pairs x replicates, not times K^2.
    """
    return np.asarray(indicator @ draws.T)


#: The most multiply-adds of one matrix product: below this, BLAS (OpenBLAS) computes on
#: the calling thread. Bigger products start BLAS threads of their own, which contend with
#: the threads drawing the other blocks (and, on a busy machine, wait for each other: one
#: product took a hundred times as long as the same sums in pieces).
_PRODUCT_SIZE = 1 << 18


def _times(values: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """``values @ matrix`` over the last axis, in products of at most ``_PRODUCT_SIZE``."""
    k = matrix.shape[0]
    if matrix.shape == (k, k) and np.array_equal(matrix, np.eye(k)):
        return values
    flat = np.ascontiguousarray(values).reshape(-1, k)
    out = np.empty((len(flat), matrix.shape[1]))
    step = max(1, _PRODUCT_SIZE // max(k * matrix.shape[1], 1))
    for start in range(0, len(flat), step):
        out[start : start + step] = flat[start : start + step] @ matrix
    return out.reshape(*values.shape[:-1], matrix.shape[1])


def _weigh(matrix: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``matrix @ values`` over the category axis of ``values[..., K, reps]`` (einsum)."""
    if np.array_equal(matrix, np.eye(len(matrix))):
        return values
    return np.einsum("ij,...jr->...ir", matrix, values)


def _sums(draws: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """``draws @ columns`` in products of at most ``_PRODUCT_SIZE`` multiply-adds."""
    reps, u = draws.shape
    width = columns.shape[1]
    if reps * u * width <= _PRODUCT_SIZE or width == 0:
        return draws @ columns
    out = np.zeros((reps, width))
    step = max(1, _PRODUCT_SIZE // (reps * width))
    for start in range(0, u, step):
        out += draws[:, start : start + step] @ columns[start : start + step]
    return out


#: Small groups are drawn one after another and finished together, up to about this many
#: binomial draws per task (the per-call cost of finishing is paid once per task).
_TASK_DRAWS = 1 << 19


def _packed(units: list[Any]) -> list[list[Any]]:
    """Consecutive units (group, block) packed into tasks of about ``_TASK_DRAWS``."""
    tasks: list[list[Any]] = []
    size = _TASK_DRAWS
    for unit in units:
        draws = (unit[2] - unit[1]) * (unit[4] - unit[3])
        if size + draws > _TASK_DRAWS:
            tasks.append([])
            size = 0
        tasks[-1].append(unit)
        size += draws
    return tasks


# --------------------------------------------------------------------------- the call


def bootstrap_overall(
    rt: Ratings,
    methods: Sequence[str],
    disagree: np.ndarray,
    *,
    weighted: bool,
    level: str,
    categories: Sequence[Any],
    given: np.ndarray | None,
    ci: float,
    n_boot: int = 1000,
    seed: Any = None,
    workers: int | None = None,
    chunk_bytes: int = CHUNK_BYTES,
) -> list[dict[str, np.ndarray]]:
    """Percentile bootstrap of each method of ``overall``, per group: items resampled.

    Returns, per method (in order), ``se`` (the standard deviation of the replicates,
    ``ddof=1``), ``ci_low`` and ``ci_high`` (their ``(1 - ci) / 2`` and ``(1 + ci) / 2``
    quantiles, linear interpolation), each shaped ``(n_groups,)``. Replicates whose value
    is undefined are left out; a group with fewer than two defined replicates gets NaN.
    Every method of one call reads the same replicates. The categories (and so ``q`` of
    Gwet's and Brennan & Prediger's chance agreement, and the weights) are those of the
    whole data in every replicate; a rater missing from a replicate is missing there.

    With ``rt.cluster`` (the cluster of each item), each replicate draws the group's
    clusters with replacement, with all their items (``_cluster_draws``); the replicates'
    numbers of items vary. With one item per cluster, the item draws above.
    """
    n_boot = check_bootstrap(n_boot)
    k = rt.n_categories
    n_groups = rt.n_groups
    by_rater = any(m in NEEDS_RATERS for m in methods)
    sums_alpha = "krippendorff" in methods and uses_sums(level, weighted, k)
    if sums_alpha and list(methods) == ["krippendorff"] and rt.given_counts is None:
        # no (items, K) counts: per item a key of (rank, count) per label, sorted (a copy),
        # and per label its pattern, code, count and cell (and a pair or two for ordinal)
        n_raters, n_items = rt.codes.shape
        size = n_items * (1 + 2 * n_raters) * 8 * 2 + n_items * n_raters * 8 * 8
        if size <= MAX_COUNT_BYTES:
            pat = value_patterns(rt, categories)
        width = 0
    else:
        pat = item_patterns(rt, by_rater, categories)
        width = 4 + 2 * k + len(methods)
        width += k * rt.codes.shape[0] if "conger" in methods else 0
        width += k * k if "krippendorff" in methods and level == "ordinal" and not sums_alpha else 0
        size = len(pat.rows) * width * 8
    if size > MAX_COUNT_BYTES:
        raise KappaFrameError(
            f"the bootstrap of {', '.join(methods)} would hold {size / 1024**3:.1f} GiB of "
            + (
                f"per-item terms ({len(pat.rows):,} distinct items x {width:,} terms: "
                "each rater's labels for Conger, K^2 for ordinal alpha); merge rare categories, "
                if width
                else f"per-item keys and per-label terms ({rt.codes.shape[1]:,} items x "
                f"{rt.codes.shape[0]} raters); "
            )
            + "pass fewer raters or groups per call, or use ci_method='analytic'.",
            option="ci_method",
        )
    design = _design(
        pat,
        methods,
        k,
        np.asarray(disagree, dtype=float),
        np.asarray(disagree if given is None else given, dtype=float),
        weighted,
        level,
        categories,
    )
    columns = design.columns if design.width else np.zeros((len(pat.rows), 0))
    names = list(methods)
    out = {
        m: {key: np.full(n_groups, np.nan) for key in ("se", "ci_low", "ci_high")} for m in names
    }
    group_seeds = _group_seeds(seed, n_groups)
    threads = _bootstrap._workers() if workers is None else max(1, int(workers))

    indicators: dict[int, Any] = {}  # Light's, per group (by its first pattern)
    clustered = rt.cluster is not None and bool((np.bincount(rt.cluster) > 1).any())
    incidences: dict[int, np.ndarray] = {}  # per group (by its first pattern), clustered
    Unit = tuple[int, int, int, int, int, np.random.SeedSequence]

    def run(values: np.ndarray, task: list[Unit]) -> None:
        """Draw one block of replicates of each group of ``task``; finish them together."""
        sums, tables, sizes, where, alphas = [], [], [], [], []
        for j, lo, hi, r0, r1, child in task:
            freq = pat.freq[lo:hi]
            at = r0
            draws = (
                _cluster_draws(incidences[lo], r1 - r0, child, chunk_bytes)
                if clustered
                else _draws(freq, r1 - r0, child, chunk_bytes)
            )
            for draw in draws:
                weights = draw.astype(np.float64)
                sums.append(_sums(weights, columns[lo:hi]))
                if design.alpha is not None:
                    at_alpha = sums[-1][:, design.alpha_at]
                    alphas.append(design.alpha.finish(int(pat.group[lo]), weights, at_alpha))
                if design.light_finish is not None:
                    tables.append(_light_sums(weights, indicators[lo]))
                sizes.append(
                    weights.sum(axis=1) if clustered else np.full(len(weights), float(freq.sum()))
                )
                where.append((j, at, at + len(weights)))
                at += len(weights)
        every = np.concatenate(sums)
        n = np.concatenate(sizes)
        for m, name in enumerate(names):
            if name == "light":
                assert design.light_finish is not None
                result = design.light_finish(np.concatenate(tables, axis=1))
            elif name == "krippendorff" and design.alpha is not None:
                result = np.concatenate(alphas)
            else:
                result = design.finish[name](every, n)
            start = 0
            for j, a, b in where:
                values[m, j, a:b] = result[start : start + b - a]
                start += b - a

    groups_at_once = max(1, min(_GROUPS_AT_ONCE, chunk_bytes // (8 * len(names) * n_boot)))
    for g0 in range(0, n_groups, groups_at_once):
        batch = range(g0, min(g0 + groups_at_once, n_groups))
        values = np.full((len(names), len(batch), n_boot), np.nan)
        units: list[Unit] = []
        for j, g in enumerate(batch):
            lo, hi = int(pat.bounds[g]), int(pat.bounds[g + 1])
            if hi == lo:
                continue
            blocks = _blocks(n_boot, hi - lo)
            children = group_seeds[g].spawn(len(blocks))
            if design.light_cells is not None:
                indicators[lo] = _light_indicator(design.light_cells[:, lo:hi], k, disagree)
            if clustered:
                incidences[lo] = _incidence(rt, pat, g, lo, hi)
            units += [(j, lo, hi, r0, r1, c) for (r0, r1), c in zip(blocks, children, strict=True)]
        tasks = _packed(units)
        used = min(threads, len(tasks))
        if used <= 1:
            for task in tasks:
                run(values, task)
        else:
            with ThreadPoolExecutor(used) as pool:
                for done in [pool.submit(run, values, t) for t in tasks]:
                    done.result()
        for m, name in enumerate(names):
            summary = percentile_summary(values[m], ci)
            for key in ("se", "ci_low", "ci_high"):
                out[name][key][g0 : g0 + len(batch)] = summary[key]
    return [out[m] for m in names]
