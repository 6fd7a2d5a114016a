"""Every argument checked once, before any work: layout, columns, intervals, stats, overlap.

Each public function checks its options here first; the messages name the value given and
what is allowed. Backend-free.
"""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, get_args

import numpy as np

from .._count.kernel import all_pairs
from .._encode.layout import LongLayout
from .._errors import (
    KappaFrameError,
    KappaFrameTypeError,
    arg,
    bad_option,
    missing_columns,
    spelled,
    ways,
)
from .._schema import BENCHMARK_COLUMNS, CI_COLUMNS, check_names
from .._stats.agreement import check_weights
from .._stats.bootstrap import check_bootstrap, make_rng
from .._stats.family import resolve_stats
from .._stats.inference import ALTERNATIVES, CI_DISTS, Z_FROM
from .._stats.multirater import LEVELS, resolve_methods
from .._stats.scales import resolve_scale
from .._types import AlphaCentre, Benchmark, CIMethod, Duplicates, Stat

__all__ = [
    "ALPHA_CENTRES",
    "BENCHMARKS",
    "CI_METHODS",
    "DUPLICATES",
    "MAX_BOOT",
    "STATS",
    "LongLayout",
    "PairOptions",
    "as_list",
    "check_categories",
    "check_columns",
    "check_conventions",
    "check_layout",
    "check_level",
    "check_max_drop",
    "check_min_items",
    "check_min_overlap",
    "check_overall_options",
    "check_pair_options",
    "check_population",
    "check_reference",
    "check_settings",
    "check_stat",
    "rater_pairs",
    "unknown_reference",
    "with_reference",
]

CI_METHODS: tuple[str, ...] = get_args(CIMethod)
BENCHMARKS: tuple[str, ...] = get_args(Benchmark)

#: The most bootstrap replicates one call draws: more only costs time and memory.
MAX_BOOT = 1_000_000


class PairOptions:
    """The checked options of the optional pairwise columns."""

    def __init__(
        self,
        ci: float | None,
        ci_method: str,
        n_boot: int | None,
        seed: Any,
        stats: list[str],
        alternative: str = "two-sided",
        ci_dist: str = "normal",
        population: float | None = None,
        benchmark: str = "point",
        z_from: str = "se0",
        kappa0: float = 0.0,
    ) -> None:
        self.ci = ci
        self.z_from = z_from
        self.kappa0 = kappa0
        self.benchmark = benchmark
        self.ci_method = ci_method
        self.n_boot = n_boot
        self.seed = seed
        self.stats = stats
        self.alternative = alternative
        self.ci_dist = ci_dist
        self.population = population

    @property
    def test(self) -> dict[str, Any]:
        """The keyword options of ``kappaframe._stats.inference.normal_interval``."""
        return {
            "alternative": self.alternative,
            "dist": self.ci_dist,
            "population": self.population,
            "z_from": self.z_from,
            "kappa0": self.kappa0,
        }

    @property
    def names(self) -> list[str]:
        """The extra column names, in output order."""
        return [*self.ci_names, *self.stats]

    @property
    def ci_names(self) -> list[str]:
        """The ``ci=`` columns (and the benchmark's probability), in output order."""
        if self.ci is None:
            return []
        return [*CI_COLUMNS, *(BENCHMARK_COLUMNS if self.benchmark == "probabilistic" else ())]


def check_pair_options(
    ci: Any = None,
    ci_method: str = "analytic",
    n_boot: Any = None,
    seed: Any = None,
    stats: Any = None,
    alternative: Any = "two-sided",
    ci_dist: Any = "normal",
    population: Any = None,
    benchmark: Any = "point",
    z_from: Any = "se0",
    kappa0: Any = 0.0,
) -> PairOptions:
    """Validate the options of the optional columns before any work.

    ``ci``, ``ci_method``, ``n_boot``, ``seed``, ``stats``, ``alternative``, ``ci_dist``,
    ``population``, ``benchmark``, ``z_from`` and ``kappa0`` (``pairwise``'s, checked by
    its declaration).
    """
    if ci_method not in CI_METHODS:
        raise bad_option("ci_method", ci_method, CI_METHODS)
    if benchmark not in BENCHMARKS:
        raise bad_option("benchmark", benchmark, BENCHMARKS)
    if benchmark == "probabilistic" and ci is None:
        raise KappaFrameError(
            f"{arg('benchmark', 'probabilistic')} interprets the coefficient with its "
            f"standard error; pass {arg('ci', 0.95)} (the probability the chosen band must "
            f"reach) or drop {arg('benchmark')}.",
            option="benchmark",
        )
    if alternative not in ALTERNATIVES:
        raise bad_option("alternative", alternative, ALTERNATIVES)
    if ci_dist not in CI_DISTS:
        raise bad_option("ci_dist", ci_dist, CI_DISTS)
    if z_from not in Z_FROM:
        raise bad_option("z_from", z_from, Z_FROM)
    population = check_population(population)
    if ci is None and (
        alternative != "two-sided"
        or ci_dist != "normal"
        or population
        or z_from != "se0"
        or kappa0 != 0
    ):
        given = [
            name
            for name, value, default in (
                ("alternative", alternative, "two-sided"),
                ("ci_dist", ci_dist, "normal"),
                ("population", population, None),
                ("z_from", z_from, "se0"),
                ("kappa0", kappa0, 0.0),
            )
            if value != default
        ]
        raise KappaFrameError(
            f"{' and '.join(arg(g) for g in given)} shape{'s' if len(given) == 1 else ''} "
            f"the {arg('ci')} columns; pass {arg('ci', 0.95)} (or another level) or drop "
            f"{'it' if len(given) == 1 else 'them'}.",
            option=given[0],
        )
    if ci is not None:
        ci = check_level(ci)
    if ci_method == "bootstrap":
        if ci is None:
            raise KappaFrameError(
                f"{arg('ci_method', 'bootstrap')} needs a confidence level: pass "
                f"{arg('ci', 0.95)} (or another level).",
                option="ci",
            )
        n_boot = check_bootstrap(1000 if n_boot is None else n_boot)
        if n_boot > MAX_BOOT:
            raise KappaFrameError(
                f"n_boot must be at most {MAX_BOOT:,} replicates (10,000 is plenty for a 95% "
                f"interval); got {n_boot:,}.",
                option="n_boot",
            )
        make_rng(seed)  # check the seed now, before counting
    elif n_boot is not None or seed is not None:
        raise KappaFrameError(
            f"{arg('n_boot')} and {arg('seed')} apply to {arg('ci_method', 'bootstrap')} "
            f"only; pass {arg('ci_method', 'bootstrap')} (with {arg('ci')}) or drop them.",
            option="n_boot" if n_boot is not None else "seed",
        )
    return PairOptions(
        ci,
        ci_method,
        n_boot,
        seed,
        resolve_stats(stats),
        alternative,
        ci_dist,
        population,
        benchmark,
        z_from,
        float(kappa0),
    )


#: ``alpha_centre=``: where Krippendorff's alpha's variance centres each item's term.
ALPHA_CENTRES: tuple[str, ...] = get_args(AlphaCentre)


def check_conventions(methods: list[str], ci: Any, ddof: Any, alpha_centre: Any) -> None:
    """Check ``overall``'s ``ddof`` and ``alpha_centre``: valid, and something reads them.

    Both shape the ``ci`` columns; ``ddof`` applies to the linearized variances (not
    Light's), ``alpha_centre`` to Krippendorff's alpha.
    """
    if isinstance(ddof, bool) or ddof not in (0, 1):
        raise bad_option("ddof", ddof, [1, 0])
    if alpha_centre not in ALPHA_CENTRES:
        raise bad_option("alpha_centre", alpha_centre, ALPHA_CENTRES)
    for name, changed in (("ddof", ddof != 1), ("alpha_centre", alpha_centre != "p_a_prime")):
        if changed and ci is None:
            raise KappaFrameError(
                f"{arg(name)} shapes the standard error; pass {arg('ci', 0.95)} (or another "
                "level) or drop it.",
                option=name,
            )
    if ddof != 1 and "light" in methods:
        raise KappaFrameError(
            f"{arg('ddof', ddof)} sets the divisor of the linearized variances; Light's "
            f"variance (Fleiss, Cohen & Everitt's, pair by pair) has none. Compute "
            f"{arg('method', 'light')} in a call of its own, without {arg('ddof')}.",
            option="ddof",
        )
    if alpha_centre != "p_a_prime" and "krippendorff" not in methods:
        raise KappaFrameError(
            f"{arg('alpha_centre', alpha_centre)} applies to "
            f"{arg('method', 'krippendorff')} only; add it to {arg('method')} or drop "
            f"{arg('alpha_centre')}.",
            option="alpha_centre",
        )


def check_population(population: Any) -> float | None:
    """``None`` or the population size N (a positive number, ``inf`` allowed) as a float.

    The variances are multiplied by ``1 - n / N``; ``n > N`` is refused where ``n`` is known.
    """
    if population is None:
        return None
    if (
        isinstance(population, (bool, np.bool_))
        or not isinstance(population, numbers.Real)
        or not float(population) > 0
    ):
        raise KappaFrameError(
            f"{spelled('population')} must be the number of items in the population the "
            f"rated items "
            f"were drawn from (a positive number, e.g. 500); got {population!r}.",
            option="population",
        )
    return float(population)


def check_level(ci: Any) -> float:
    """A confidence level strictly between 0 and 1, as a float.

    NumPy scalars count as numbers (a ``np.float32(0.9)`` is read as 0.9, the value it
    prints as, not its binary expansion 0.89999997...); booleans do not.
    """
    if (
        isinstance(ci, (bool, np.bool_))
        or not isinstance(ci, numbers.Real)
        or not 0 < float(ci) < 1
    ):
        raise KappaFrameError(
            f"{ways('ci', arg('ci'))} must be a confidence level between 0 and 1 (e.g. 0.95); "
            f"got {ci!r}.",
            option="ci",
        )
    if isinstance(ci, np.floating) and not isinstance(ci, float):
        return float(str(ci))  # the shortest decimal that round-trips in its own precision
    return float(ci)


def unknown_reference(reference: Any, raters: Sequence[Hashable]) -> KappaFrameError:
    """The error for a ``reference`` that is not one of the ``raters``."""
    shown = list(raters)[:20]
    return KappaFrameError(
        f"reference {reference!r} is not one of the raters {shown}; name a rater column "
        "(or, in the long layout, a rater id).",
        option="reference",
    )


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
        raise unknown_reference(reference, raters) from None
    pairs = [(r, ref) for r in range(len(raters)) if r != ref]
    return np.asarray(pairs, dtype=np.intp).reshape(-1, 2)


def with_reference(raters: Any, reference: Any) -> Any:
    """``raters`` with ``reference`` appended when they are listed and lack it."""
    if reference is None or raters is None:
        return raters
    listed = list(raters) if isinstance(raters, (list, tuple)) else [raters]
    return listed if reference in listed else [*listed, reference]


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


def check_columns(asked: Sequence[Hashable], names: Sequence[Hashable], role: str) -> None:
    err = missing_columns(asked, names, role)
    if err is not None:
        raise err
    seen: set[Hashable] = set()
    for c in asked:
        if c in seen:
            raise KappaFrameError(f"{role} {c!r} is listed twice.")
        seen.add(c)


def check_max_drop(max_drop: Any) -> float:
    """``against_baseline``'s ``max_drop``: a number in [0, 2) (a coefficient is in [-1, 1])."""
    if (
        isinstance(max_drop, (bool, np.bool_))
        or not isinstance(max_drop, numbers.Real)
        or not 0 <= float(max_drop) < 2
    ):
        raise KappaFrameError(
            f"{arg('max_drop', max_drop)}: the largest drop that does not matter is a "
            "number in [0, 2) (a coefficient lies in [-1, 1]), e.g. 0.1; got "
            f"{max_drop!r}.",
            option="max_drop",
        )
    return float(max_drop)


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
            f"{ways('min_overlap', arg('min_overlap'))} must be a whole number of shared items "
            f"(>= 0){ways(' or None', '')}; got {min_overlap!r}.",
            option="min_overlap",
        )
    return int(min_overlap)


def check_min_items(min_items: Any) -> int | None:
    """``None`` or a whole number >= 0 (0 and ``None`` both mean a band for every value)."""
    if min_items is None:
        return None
    if (
        isinstance(min_items, (bool, np.bool_))
        or not isinstance(min_items, (int, np.integer))
        or min_items < 0
    ):
        raise KappaFrameError(
            ways(
                f"min_items must be a whole number of items (>= 0) or None; got {min_items!r}. "
                "Below it, interpretation says 'too few items' instead of a band; 0 or None "
                "gives every value its band.",
                f"{arg('min_items')} must be a whole number of items (>= 0); got "
                f"{min_items!r}. Below it, interpretation says 'too few items' instead of a "
                f"band; {arg('min_items', 0)} gives every row its band.",
            ),
            option="min_items",
        )
    return int(min_items) or None


DUPLICATES: tuple[str, ...] = get_args(Duplicates)


def check_categories(categories: Any, option: str = "categories") -> None:
    """``None`` or an ordered collection of labels (a list, tuple, array, Index, Series)."""
    if categories is None:
        return
    if isinstance(categories, (str, bytes)):
        raise KappaFrameTypeError(
            f"{option} must be a list of labels; got the string {categories!r}.", option=option
        )
    if isinstance(categories, (set, frozenset, dict)) or not hasattr(categories, "__iter__"):
        what = type(categories).__name__
        raise KappaFrameTypeError(
            f"{option} must be a list of labels in order (a list, tuple or array); got "
            f"{what} {categories!r}.",
            option=option,
        )


def check_reference(reference: Any) -> None:
    """``None`` or one rater: a column name (wide layout) or a rater id (long layout)."""
    if isinstance(reference, (list, set, frozenset, dict)):
        raise KappaFrameTypeError(
            f"reference must be one rater (a column name, or a rater id in the long layout); "
            f"got a {type(reference).__name__} {reference!r}.",
            option="reference",
        )


class Reading(Protocol):
    """How to read the ratings (``kappaframe._api.settings.reading.ReadSpec``)."""

    @property
    def raters(self) -> Any: ...
    @property
    def item(self) -> Hashable | None: ...
    @property
    def rater(self) -> Hashable | None: ...
    @property
    def label(self) -> Hashable | None: ...
    @property
    def categories(self) -> Any: ...
    @property
    def duplicates(self) -> Any: ...
    @property
    def label_word(self) -> str: ...


def check_layout(read: Reading) -> LongLayout | None:
    """Check the arguments that say how to read the ratings, before reading any.

    Returns the long layout's columns, or ``None`` for the wide layout. ``read.label_word``:
    the name the caller gave the rating column (``"value"`` for numeric ratings).
    """
    raters, item, rater, label = read.raters, read.item, read.rater, read.label
    categories, duplicates, label_word = read.categories, read.duplicates, read.label_word
    if isinstance(raters, (list, tuple)) and len(raters) == 0:
        raise KappaFrameError(
            "raters=[] names no rater; pass raters=None for every column not in by "
            "(wide layout) or every rater id (long layout), or list at least two.",
            option="raters",
        )
    check_categories(categories)
    if duplicates not in DUPLICATES:
        raise bad_option("duplicates", duplicates, DUPLICATES)
    long_args = {"item": item, "rater": rater, label_word: label}
    if all(v is None for v in long_args.values()):
        return None
    lacking = [k for k, v in long_args.items() if v is None]
    if lacking:
        raise KappaFrameError(
            f"the long layout needs {arg('item')}, {arg('rater')} and {arg(label_word)}; "
            f"{', '.join(arg(k) for k in lacking)} missing. For one column per rater (wide "
            "layout) pass none of them.",
            option=next(k for k, v in long_args.items() if v is not None),
        )
    if len({item, rater, label}) < 3:
        raise KappaFrameError(
            f"{arg('item')}, {arg('rater')} and {arg(label_word)} must be three different "
            f"columns; got {long_args}.",
            option="item",
        )
    return LongLayout(item, rater, label)


def check_overall_options(method: Any, level: Any, weights: Any) -> list[str]:
    """Check ``kappaframe.overall``'s ``method``, ``level`` and ``weights``; the methods.

    ``weights`` is only looked at for being given: its values need the categories.
    """
    methods = resolve_methods(method)
    if level not in LEVELS:
        raise bad_option("level", level, LEVELS)
    if level != "nominal" and "krippendorff" not in methods:
        raise KappaFrameError(
            f"level={level!r} applies to {arg('method', 'krippendorff')} only; add it to "
            f"{arg('method')} or drop level=.",
            option="level",
        )
    if weights is not None and methods == ["gwet_ac1"]:  # nothing would use them
        raise KappaFrameError(
            f"{arg('weights')} does not apply to method 'gwet_ac1': Gwet's weighted "
            f"coefficient is {arg('method', 'gwet_ac2')}. Drop {arg('weights')} or add a "
            f"weighted method to {arg('method')}.",
            option="weights",
        )
    if "gwet_ac2" in methods and weights is None:
        raise KappaFrameError(
            f"method 'gwet_ac2' is Gwet's weighted coefficient and needs {arg('weights')} "
            "(e.g. 'linear' or 'quadratic'); without weights it is 'gwet_ac1'.",
            option="weights",
        )
    return methods


def check_settings(
    *,
    weights: Any = None,
    scale: Any = None,
    by: Any = None,
    output: Sequence[Hashable] = (),
    what: str = "pairwise",
) -> None:
    """Check before any data is read: the weights, the scale, ``by`` against the output.

    What needs the data (the size of a weight matrix, an order for weights on text) is
    checked once the categories are known.
    """
    check_weights(weights)
    if scale is not None:
        resolve_scale(scale)
    if output:
        check_names(as_list(by), output, what)


STATS: tuple[str, ...] = get_args(Stat)


def check_stat(stat: Any) -> str:
    """Check ``kappaframe.matrix``'s ``stat``."""
    if stat not in STATS:
        raise bad_option("stat", stat, STATS)
    return str(stat)
