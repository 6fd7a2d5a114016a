"""The optional columns of the pairwise table: uncertainty and the agreement family.

Backend-free: counts in, named NumPy columns out (in output order), plus the option checks
and the pairs of ``reference=``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from .._count.kernel import all_pairs
from .._errors import KappaFrameError, bad_option
from .._schema import CI_COLUMNS
from .._stats.agreement import standard_errors
from .._stats.bootstrap import bootstrap_kappa, check_bootstrap, make_rng
from .._stats.family import family, resolve_stats

__all__ = [
    "CI_METHODS",
    "PairOptions",
    "check_pair_options",
    "pair_extras",
    "rater_pairs",
    "with_reference",
]

CI_METHODS = ("analytic", "bootstrap")


class PairOptions:
    """The checked options of the optional pairwise columns."""

    def __init__(
        self,
        ci: float | None,
        ci_method: str,
        n_boot: int | None,
        seed: Any,
        stats: list[str],
    ) -> None:
        self.ci = ci
        self.ci_method = ci_method
        self.n_boot = n_boot
        self.seed = seed
        self.stats = stats

    @property
    def names(self) -> list[str]:
        """The extra column names, in output order."""
        return [*(CI_COLUMNS if self.ci is not None else ()), *self.stats]


def check_pair_options(
    ci: Any = None,
    ci_method: str = "analytic",
    n_boot: Any = None,
    seed: Any = None,
    stats: Any = None,
    by: Sequence[Hashable] = (),
) -> PairOptions:
    """Validate ``ci``, ``ci_method``, ``n_boot``, ``seed`` and ``stats`` before any work."""
    if ci_method not in CI_METHODS:
        raise bad_option("ci_method", ci_method, CI_METHODS)
    if ci is not None:
        if isinstance(ci, bool) or not isinstance(ci, (int, float)) or not 0 < ci < 1:
            raise KappaFrameError(
                f"ci must be a confidence level between 0 and 1 (e.g. 0.95); got {ci!r}."
            )
        ci = float(ci)
    if ci_method == "bootstrap":
        if ci is None:
            raise KappaFrameError(
                "ci_method='bootstrap' needs a confidence level: pass ci=0.95 (or another level)."
            )
        n_boot = check_bootstrap(1000 if n_boot is None else n_boot)
        make_rng(seed)  # check the seed now, before counting
    elif n_boot is not None or seed is not None:
        raise KappaFrameError(
            "n_boot= and seed= apply to ci_method='bootstrap' only; pass "
            "ci_method='bootstrap' (with ci=) or drop them."
        )
    names = resolve_stats(stats)
    clash = [b for b in by if b in names]
    if clash:
        raise KappaFrameError(
            f"by column {clash[0]!r} has the name of an output column; rename it first."
        )
    return PairOptions(ci, ci_method, n_boot, seed, names)


def pair_extras(
    counts: Any, weights: np.ndarray, kappa: np.ndarray, options: PairOptions
) -> dict[str, np.ndarray]:
    """Compute the optional columns for tables ``counts[..., K, K]``, in output order.

    With ``ci``: ``se``, ``ci_low``, ``ci_high`` (Fleiss, Cohen & Everitt, or the
    percentile bootstrap), ``z`` and ``p_value`` (always the large-sample test of
    kappa = 0). Then the ``stats`` columns (see :func:`kappaframe._stats.family.family`).
    ``counts`` must be full tables when ``options.names`` is not empty; otherwise it is
    not read (it may be the diagonal-only counts of many categories).
    """
    out: dict[str, np.ndarray] = {}
    if options.ci is not None:
        errors = standard_errors(counts, weights, kappa, options.ci)
        if options.ci_method == "bootstrap":
            errors.update(
                bootstrap_kappa(counts, weights, options.ci, options.n_boot or 1000, options.seed)
            )
        out.update((name, errors[name]) for name in CI_COLUMNS)
    if options.stats:
        out.update(family(counts, weights, options.stats))
    return out


def rater_pairs(raters: Sequence[Hashable], reference: Any = None) -> np.ndarray:
    """Every pair ``(a, b)``, ``a`` before ``b``; or each rater against ``reference``.

    Returns an ``(n_pairs, 2)`` array of rater positions.

    With a reference the pairs are ``(rater, reference)`` for every other rater in rater
    order: the rater is ``rater_a`` (rows of the table), the reference ``rater_b``.
    """
    if reference is None:
        return all_pairs(len(raters))
    try:
        ref = list(raters).index(reference)
    except ValueError:
        shown = list(raters)[:20]
        raise KappaFrameError(
            f"reference {reference!r} is not one of the raters {shown}; name a rater column "
            "(or, in the long layout, a rater id)."
        ) from None
    pairs = [(r, ref) for r in range(len(raters)) if r != ref]
    return np.asarray(pairs, dtype=np.intp).reshape(-1, 2)


def with_reference(raters: Any, reference: Any) -> Any:
    """``raters`` with ``reference`` appended when they are listed and lack it."""
    if reference is None or raters is None:
        return raters
    listed = list(raters) if isinstance(raters, (list, tuple)) else [raters]
    return listed if reference in listed else [*listed, reference]
