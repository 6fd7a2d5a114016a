"""Public function ``sample_size``: how many items a kappa study needs.

Numbers in (``kappa0``, ``kappa1`` or the interval's bounds, ``props``, ``n_raters``), or a
pilot frame whose category shares and Fleiss' kappa are estimated per group
(``kappaframe._api.many_common.prepare_ratings`` -> per-item counts) -> the sample size of
``kappaframe._stats.sample_size`` -> ``Table`` -> a pandas frame (numbers) or the pilot's
frame type.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, get_args

import numpy as np

from .._encode.codes import object_array
from .._errors import KappaFrameError, arg, bad_option, user_stacklevel, ways
from .._frames.render import render
from .._schema import PILOT_COLUMNS, SAMPLE_SIZE_COLUMNS, Column, Table
from .._stats import sample_size as _size
from .._stats.multirater import ratings_of
from .._types import Duplicates, SizeAlternative, SizeMethod
from .assemble import key_columns
from .many_common import prepare_ratings
from .settings.bind import declared
from .settings.reading import ReadSpec

__all__ = ["sample_size"]

FrameT = TypeVar("FrameT")

SIZE_ALTERNATIVES: tuple[str, ...] = get_args(SizeAlternative)
SIZE_METHODS: tuple[str, ...] = get_args(SizeMethod)
#: How far the proportions may sum from 1 (kappaSize's tolerance); never renormalised.
PROPS_TOLERANCE = 1e-3
#: Below this expected count of a category, the chi-square approximation is rough.
SMALL_CELL = 5


@dataclass(frozen=True)
class _Plan:
    """The checked numbers of one sample-size question (one row of the result)."""

    goal: str  # "power" or "interval"
    kappa0: float
    kappa1: float | None
    lower: float | None
    upper: float | None
    props: np.ndarray
    n_raters: int
    alpha: float
    power: float | None
    alternative: str
    #: ``goal="limit"``: the items the study has (the limit is the answer).
    fixed_items: int | None = None


def _number(name: str, value: Any) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise KappaFrameError(
            f"{arg(name, value)} must be a number; got {type(value).__name__}.", option=name
        )
    out = float(value)
    if not math.isfinite(out):
        raise KappaFrameError(f"{arg(name, value)} must be a finite number.", option=name)
    return out


def _probability(name: str, value: Any, why: str) -> float:
    out = _number(name, value)
    if not 0.0 < out < 1.0:
        raise KappaFrameError(
            f"{arg(name, value)} is outside (0, 1); {why}.",
            option=name,
        )
    return out


def _kappa(name: str, value: Any, low_ok: bool) -> float:
    out = _number(name, value)
    above = out >= 0.0 if low_ok else out > 0.0
    if not (above and out < 1.0):
        side = "[0, 1)" if low_ok else "(0, 1)"
        raise KappaFrameError(
            f"{arg(name, value)} is outside {side}: the sample-size model describes agreement "
            f"beyond chance (kappa >= 0) short of perfect (kappa < 1); give a value in {side}.",
            option=name,
        )
    return out


def check_props(props: Any) -> np.ndarray:
    """The category shares: 2 or more numbers in (0, 1) summing to 1 (within 0.001)."""
    if (
        props is None
        or isinstance(props, (str, bytes))
        or not isinstance(props, Sequence | np.ndarray)
    ):
        raise KappaFrameError(
            f"{arg('props', props)} must be the anticipated share of each category, e.g. "
            f"{ways('props=[0.3, 0.7]', '--props 0.3 0.7')}.",
            option="props",
        )
    values = [_number("props", v) for v in props]
    if len(values) < 2:
        raise KappaFrameError(
            f"{arg('props', list(props))} names {len(values)} category; agreement needs at "
            "least 2: give the share of every category (for a binary trait of prevalence "
            f"0.3: {ways('props=[0.7, 0.3]', '--props 0.7 0.3')}).",
            option="props",
        )
    bad = [v for v in values if not 0.0 < v < 1.0]
    if bad:
        raise KappaFrameError(
            f"{arg('props', list(props))} has a share outside (0, 1): {bad[0]!r}; every "
            "category needs a share above 0 (drop a category nobody uses).",
            option="props",
        )
    total = sum(values)
    if abs(total - 1.0) > PROPS_TOLERANCE:
        raise KappaFrameError(
            f"{arg('props', list(props))} sums to {total:.6g}, not 1; shares are not "
            "rescaled for you: give shares that sum to 1 (within 0.001).",
            option="props",
        )
    return np.asarray(values, dtype=float)


def _n_raters(value: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 2:
        raise KappaFrameError(
            f"{arg('n_raters', value)} must be a whole number of raters per item, at least 2.",
            option="n_raters",
        )
    return int(value)


def _plan(
    kappa0: float,
    kappa1: Any,
    props: np.ndarray,
    n_raters: int,
    alpha: Any,
    power: Any,
    width: Any,
    lower: Any,
    upper: Any,
    alternative: str,
    n_items: int | None = None,
) -> _Plan:
    """Check one question's numbers, in the order a reader would fix them."""
    alpha = _probability("alpha", alpha, "it is the chance of a false claim, e.g. 0.05")
    interval = width is not None or lower is not None or upper is not None
    if n_items is not None:
        asked = {"kappa1": kappa1, "width": width, "lower": lower, "upper": upper}
        clash = [name for name, value in asked.items() if value is not None]
        if clash:
            raise KappaFrameError(
                f"{arg('n_items', n_items)} asks which lower limit that many items give, "
                f"and {arg(clash[0], asked[clash[0]])} how many items; ask one question per "
                "call.",
                option="n_items",
            )
        if alpha >= 0.5:
            raise KappaFrameError(
                f"{arg('alpha', alpha)} must be below 0.5 for a one-sided limit.",
                option="alpha",
            )
        return _Plan(
            "limit", kappa0, None, None, None, props, n_raters, alpha, None, "greater", n_items
        )
    if interval:
        if kappa1 is not None:
            raise KappaFrameError(
                f"{arg('kappa1', kappa1)} asks for power, and "
                f"{arg('width') if width is not None else arg('lower')} for an interval; "
                "ask one question per call.",
                option="kappa1",
            )
        if width is not None and (lower is not None or upper is not None):
            raise KappaFrameError(
                f"{arg('width', width)} sets both limits as kappa0 -/+ width/2; drop it or "
                f"drop {arg('lower')} / {arg('upper')}.",
                option="width",
            )
        if width is not None:
            w = _number("width", width)
            if not w > 0:
                raise KappaFrameError(
                    f"{arg('width', width)} must be above 0: the full width of the interval.",
                    option="width",
                )
            lower, upper = kappa0 - w / 2.0, kappa0 + w / 2.0
            if lower < 0.0 or upper >= 1.0:
                raise KappaFrameError(
                    f"{arg('width', width)} around kappa0 {kappa0:.4g} reaches "
                    f"[{lower:.3g}, {upper:.3g}], outside [0, 1); take a narrower width, or "
                    f"give one limit with {arg('lower')}.",
                    option="width",
                )
        low = None if lower is None else _kappa("lower", lower, low_ok=True)
        high = None if upper is None else _kappa("upper", upper, low_ok=False)
        if low is not None and not low < kappa0:
            raise KappaFrameError(
                f"{arg('lower', lower)} must be below kappa0 ({kappa0:.4g}): it is the lowest "
                "value the interval may reach.",
                option="lower",
            )
        if high is not None and not high > kappa0:
            raise KappaFrameError(
                f"{arg('upper', upper)} must be above kappa0 ({kappa0:.4g}): it is the highest "
                "value the interval may reach.",
                option="upper",
            )
        if low is not None and high is not None:
            sided = "two-sided"
        else:
            sided = "greater" if low is not None else "less"
            if alpha >= 0.5:
                raise KappaFrameError(
                    f"{arg('alpha', alpha)} must be below 0.5 for a one-sided limit.",
                    option="alpha",
                )
        for bound in (low, high):
            if bound is not None:
                _size.check_cells(bound, props, n_raters)
        return _Plan("interval", kappa0, None, low, high, props, n_raters, alpha, None, sided)
    if kappa1 is None:
        raise KappaFrameError(
            f"say what the study must show: {arg('kappa1')} (power to reject kappa <= kappa0 "
            f"when kappa is kappa1), or {arg('width')} / {arg('lower')} (an interval around "
            "kappa0).",
            option="kappa1",
        )
    k1 = _kappa("kappa1", kappa1, low_ok=False)
    if not k1 > kappa0:
        raise KappaFrameError(
            f"{arg('kappa1', kappa1)} must be above kappa0 ({kappa0:.4g}): the study shows "
            "agreement above kappa0 when it is really kappa1; swap them, or ask for an "
            f"interval with {arg('lower')}.",
            option="kappa1",
        )
    pw = _probability("power", power, "it is the chance the study rejects kappa0, e.g. 0.8")
    if alternative not in SIZE_ALTERNATIVES:
        raise bad_option("alternative", alternative, SIZE_ALTERNATIVES)
    two_sided = alternative == "two-sided"
    size = alpha if not two_sided else alpha / 2.0
    if not pw > size:
        raise KappaFrameError(
            f"{arg('power', power)} must be above the test's {size:g} chance of rejecting "
            "kappa0 when it holds; ask for more power (e.g. 0.8).",
            option="power",
        )
    if alpha >= 0.5 and not two_sided:
        raise KappaFrameError(
            f"{arg('alpha', alpha)} must be below 0.5 for a one-sided test.", option="alpha"
        )
    _size.check_cells(k1, props, n_raters)
    return _Plan("power", kappa0, k1, None, None, props, n_raters, alpha, pw, alternative)


def _solve(plan: _Plan, seed: int, method: str) -> tuple[str, int, float | None]:
    """``method``, ``n_items`` and (``goal="limit"``) the lower limit of one question."""
    k = len(plan.props)
    closed = k in _size.CLOSED_FORM_CATEGORIES and plan.n_raters in _size.CLOSED_FORM_RATERS
    if method == "goodness-of-fit" and not closed:
        # ``method`` is ``--method`` here, not report's ``--overall``: spelled out
        given = ways(f"method={method!r}", f"--method {method}")
        other = ways("method='simulation' (or 'auto')", "--method simulation (or auto)")
        raise KappaFrameError(
            f"{given} has a closed form for 2 to 5 categories and 2 to 6 raters "
            f"(kappaSize's); this plan has {k} categories and {plan.n_raters} raters: use "
            f"{other}."
        )
    if closed and method != "simulation":
        if plan.goal == "limit":
            assert plan.fixed_items is not None
            low = _size.lower_limit(
                plan.kappa0, plan.fixed_items, plan.props, plan.n_raters, plan.alpha
            )
            return "goodness-of-fit", plan.fixed_items, _limit(plan, low)
        if plan.goal == "power":
            assert plan.kappa1 is not None and plan.power is not None
            _, n = _size.items_for_power(
                plan.kappa0,
                plan.kappa1,
                plan.props,
                plan.n_raters,
                plan.alpha,
                plan.power,
                plan.alternative == "two-sided",
            )
        else:
            _, n = _size.items_for_interval(
                plan.kappa0, plan.lower, plan.upper, plan.props, plan.n_raters, plan.alpha
            )
        return "goodness-of-fit", n, None
    var0 = _size.simulated_variance(plan.kappa0, plan.props, plan.n_raters, seed=seed)
    if plan.goal == "limit":
        assert plan.fixed_items is not None
        low = _size.lower_limit_normal(plan.kappa0, plan.fixed_items, var0, plan.alpha)
        return "simulation", plan.fixed_items, _limit(plan, low)
    if plan.goal == "power":
        assert plan.kappa1 is not None and plan.power is not None
        var1 = _size.simulated_variance(plan.kappa1, plan.props, plan.n_raters, seed=seed + 1)
        _, n = _size.items_for_power_normal(
            plan.kappa0,
            plan.kappa1,
            var0,
            var1,
            plan.alpha,
            plan.power,
            plan.alternative == "two-sided",
        )
    else:
        _, n = _size.items_for_interval_normal(
            plan.kappa0, plan.lower, plan.upper, var0, plan.alpha
        )
    return "simulation", n, None


def _limit(plan: _Plan, low: float | None) -> float:
    """The lower limit, or the error of too few items for one at or above 0."""
    if low is None:
        raise KappaFrameError(
            f"{arg('n_items', plan.fixed_items)} items leave kappa0 {plan.kappa0:.4g} without "
            "an expected lower limit at or above 0: give more items (or a higher alpha).",
            option="n_items",
        )
    return low


def _shown(props: np.ndarray, digits: int | None) -> str:
    return ", ".join(f"{p:g}" if digits is None else f"{p:.{digits}f}" for p in props)


def _warn_small_cells(plans: list[_Plan], solved: list[tuple[str, int, float | None]]) -> None:
    """One warning per call for the rows where a category is expected fewer than 5 times.

    kappaSize's rule: some share times ``n_items`` is below 5 (its ``print`` methods warn).
    """
    small = sum(
        how == "goodness-of-fit" and float(plan.props.min()) * n < SMALL_CELL
        for plan, (how, n, _) in zip(plans, solved, strict=True)
    )
    if small:
        rows = "the row" if len(plans) == 1 else f"{small} of {len(plans)} rows"
        other = ways("method='simulation'", "--method simulation")
        warnings.warn(
            f"sample_size: for {rows}, some category's share times n_items is below "
            f"{SMALL_CELL} (too few items to see it): the goodness-of-fit approximation is "
            f"rough there, as kappaSize warns; compare {other}.",
            UserWarning,
            stacklevel=user_stacklevel(),
        )


def _columns(plans: list[_Plan], seed: int, method: str, digits: int | None) -> list[Column]:
    solved = [_solve(p, seed, method) for p in plans]
    _warn_small_cells(plans, solved)

    def floats(values: list[float | None]) -> np.ndarray:
        return np.array([np.nan if v is None else v for v in values], dtype=float)

    return [
        Column("goal", "name", object_array([p.goal for p in plans])),
        Column("method", "name", object_array([s[0] for s in solved])),
        Column("n_raters", "int", np.array([p.n_raters for p in plans], dtype=np.int64)),
        Column("n_categories", "int", np.array([len(p.props) for p in plans], dtype=np.int64)),
        Column("props", "name", object_array([_shown(p.props, digits) for p in plans])),
        Column("kappa0", "float", floats([p.kappa0 for p in plans])),
        Column("kappa1", "float", floats([p.kappa1 for p in plans])),
        Column(
            "lower",
            "float",
            floats(
                [s[2] if s[2] is not None else p.lower for p, s in zip(plans, solved, strict=True)]
            ),
        ),
        Column("upper", "float", floats([p.upper for p in plans])),
        Column("alpha", "float", floats([p.alpha for p in plans])),
        Column("power", "float", floats([p.power for p in plans])),
        Column("alternative", "name", object_array([p.alternative for p in plans])),
        Column("n_items", "int", np.array([s[1] for s in solved], dtype=np.int64)),
    ]


def _check_seed(seed: Any) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise KappaFrameError(
            f"{arg('seed', seed)} must be a whole number >= 0 (the simulation's seed).",
            option="seed",
        )
    return int(seed)


@declared
def sample_size(
    data: FrameT | None = None,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: Duplicates = "raise",
    kappa0: float | None = None,
    kappa1: float | None = None,
    props: Sequence[float] | None = None,
    n_raters: int | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    width: float | None = None,
    lower: float | None = None,
    upper: float | None = None,
    n_items: int | None = None,
    alternative: SizeAlternative = "greater",
    method: SizeMethod = "auto",
    seed: int = 0,
) -> Any:
    """How many items to rate: the sample size of a kappa study, for power or an interval.

    Two questions (and their inverse), for ``n_raters`` raters who put each item in one of
    ``K`` categories with shares ``props`` and a common agreement kappa:

    - **power** (``kappa1=``): items needed to reject ``H0: kappa <= kappa0`` at level
      ``alpha`` with probability ``power`` when kappa is really ``kappa1``;
    - **interval** (``width=``, or ``lower=`` / ``upper=``): items needed for the expected
      confidence limits around an anticipated ``kappa0`` to reach ``kappa0 -/+ width/2``
      (two-sided ``100 (1 - alpha)%``), or ``lower`` alone (a one-sided limit);
    - **limit** (``n_items=``): the other way round, the expected one-sided lower limit
      that ``n_items`` items give around ``kappa0`` (kappaSize's ``FixedN*``: ``kappa0``
      stepped down by 0.001 until ``n D(kappa0, lower) >= c + 0.001``).

    The answer is Donner & Eliasziw's (1992) goodness-of-fit approach (binary outcome) and
    Donner & Rotondi's (2010, 2012) for more raters and categories, as R's ``kappaSize``
    computes it. An item's ratings fall in a few cells whose probabilities ``P_c(kappa)``
    follow from ``props`` and kappa (the number of raters choosing the second category for
    ``K = 2``; "all chose category k" and "they did not all agree" for ``K >= 3``). With
    ``D(a, b) = sum_c (P_c(a) - P_c(b))^2 / P_c(b)``:

        power:     n = lambda / D(kappa1, kappa0),  P(chi2_1(lambda) <= c) = 1 - power
        interval:  n = c / D(kappa0, bound)          (the larger over the bounds)

    with ``c = z_(1 - alpha)^2`` one-sided and ``z_(1 - alpha/2)^2`` two-sided.
    ``n_items`` is ``n`` rounded up (``ceil``), as kappaSize prints it; for an interval,
    kappaSize's count (at least 11, and ``n D >= c + 0.001``).

    kappaSize covers 2 to 5 categories and 2 to 6 raters. Outside that range the
    literature has no closed form, and ``method`` is "simulation": the large-sample variance
    ``v`` of Fleiss' kappa is estimated from one seeded sample of 200,000 items drawn from
    the same model, and ``n = ((z_a sqrt(v0) + z_power sqrt(v1)) / (kappa1 - kappa0))^2`` or
    ``n = v0 (z / (kappa0 - bound))^2``. The two methods size different tests: the
    goodness-of-fit test reads the whole pattern of each item's ratings, the simulation sizes
    the normal test (or interval) of Fleiss' kappa itself, which for two raters needs about
    as many items (within 10% in the tests) and for many raters may need more.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        One row (per ``by`` group for a pilot): a pandas frame for numbers, the pilot's
        frame type for a pilot. Columns: the ``by`` columns; with a pilot, ``pilot_items``
        and ``pilot_kappa``; ``goal`` ("power", "interval" or "limit"); ``method``
        ("goodness-of-fit" or "simulation"); ``n_raters``; ``n_categories``; ``props``
        (the shares, as text); ``kappa0``; ``kappa1``; ``lower``; ``upper``; ``alpha``;
        ``power``; ``alternative`` (of an interval: "two-sided", or "greater" for a lower
        limit alone); ``n_items`` (the answer, or the items given for a limit, whose answer
        is ``lower``). Numbers that do not apply are NaN.

    Warns
    -----
    UserWarning
        Once per call, with a count, when some category's share times ``n_items`` is below 5
        (the goodness-of-fit approximation is rough there; kappaSize prints the same
        warning).

    Raises
    ------
    KappaFrameError
        ``kappa1 <= kappa0``; ``props`` not summing to 1 or with a share outside (0, 1);
        ``alpha`` or ``power`` outside (0, 1); both a power and an interval question; a
        pilot group with a kappa not above ``kappa0``, or a category it never used.

    See Also
    --------
    overall : Fleiss' kappa of a pilot, with its interval.

    Notes
    -----
    The model assumes every rater has the same category shares (the pilot's pooled shares)
    and one kappa for every pair of raters, as kappaSize does; the kappa of a pilot is
    Fleiss' kappa, the estimate under that model (Scott's pi for two raters). kappaSize's
    ``alpha`` is two-sided for power: ``alternative="two-sided"`` reproduces it; the default
    one-sided test needs fewer items (kappaSize's count at ``2 alpha``). A pilot's kappa is
    an estimate: for a cautious count, plan from numbers with a lower ``kappa1`` (e.g. the
    ``ci_low`` of ``overall(..., ci=0.95)``).

    References
    ----------
    Donner, A., & Eliasziw, M. (1992). A goodness-of-fit approach to inference procedures
    for the kappa statistic: confidence interval construction, significance-testing and
    sample size estimation. *Statistics in Medicine* 11(11), 1511-1519.

    Donner, A., & Rotondi, M. A. (2010). Sample size requirements for interval estimation
    of the kappa statistic for interobserver agreement studies with a binary outcome and
    multiple raters. *The International Journal of Biostatistics* 6(1), article 31.

    Rotondi, M. A., & Donner, A. (2012). A confidence interval approach to sample size
    estimation for interobserver agreement studies with multiple raters and outcomes.
    *Journal of Clinical Epidemiology* 65(7), 778-784.

    Rotondi, M. A. (2018). kappaSize: Sample size estimation functions for studies of
    interobserver agreement. R package version 1.2.

    Examples
    --------
    kappaSize's ``PowerBinary(kappa0=0.4, kappa1=0.6, props=0.30)`` (two-sided, 191):

    >>> import kappaframe as kf
    >>> res = kf.sample_size(kappa0=0.4, kappa1=0.6, props=[0.7, 0.3],
    ...                      alternative="two-sided")
    >>> int(res["n_items"].iloc[0])
    191

    One-sided, as the question "is agreement above 0.4?" asks it:

    >>> int(kf.sample_size(kappa0=0.4, kappa1=0.6, props=[0.7, 0.3])["n_items"].iloc[0])
    151

    An interval 0.2 wide around 0.4 (kappaSize's ``CIBinary``, 397 subjects):

    >>> res = kf.sample_size(kappa0=0.4, width=0.2, props=[0.7, 0.3])
    >>> int(res["n_items"].iloc[0])
    397

    The lower limit 100 items give, four raters (kappaSize's ``FixedNBinary``, 0.61):

    >>> kf.sample_size(kappa0=0.7, n_items=100, props=[0.5, 0.5], n_raters=4)["lower"].item()
    0.61
    """
    seed = _check_seed(seed)
    if method not in SIZE_METHODS:
        raise bad_option("method", method, SIZE_METHODS)
    if alternative not in SIZE_ALTERNATIVES:
        raise bad_option("alternative", alternative, SIZE_ALTERNATIVES)
    numbers = {
        "kappa0": kappa0, "kappa1": kappa1, "props": props, "n_raters": n_raters,
        "alpha": alpha, "power": power, "width": width, "lower": lower, "upper": upper,
        "n_items": n_items, "alternative": alternative, "method": method, "seed": seed,
    }  # fmt: skip
    _check_numbers(numbers)
    reading = {
        "item": item, "rater": rater, "label": label, "by": by, "categories": categories,
        "duplicates": duplicates,
    }  # fmt: skip
    if data is None:
        return _from_numbers(raters, reading, numbers)
    return _from_pilot(data, raters, **reading, **numbers)


def _check_numbers(numbers: dict[str, Any]) -> None:
    """The numbers' types and ranges, before any other check (a foreign type named first)."""
    for name in ("kappa0", "kappa1", "alpha", "power", "width", "lower", "upper"):
        if numbers[name] is not None:
            _number(name, numbers[name])
    if numbers["n_raters"] is not None:
        _n_raters(numbers["n_raters"])
    if numbers["n_items"] is not None:
        _fixed_items(numbers["n_items"])


def _from_numbers(raters: Any, reading: dict[str, Any], numbers: dict[str, Any]) -> Any:
    """The sample size from numbers alone: the pilot's options refused, ``kappa0`` needed."""
    duplicates = reading["duplicates"]
    if duplicates != "raise":
        raise KappaFrameError(
            f"{arg('duplicates', duplicates)} describes a pilot frame, and none was "
            "given; pass the pilot, or drop it.",
            option="duplicates",
        )
    pilot_only: dict[str, Any] = {"raters": raters}
    pilot_only.update({k: reading[k] for k in ("item", "rater", "label", "by", "categories")})
    for name, given in pilot_only.items():
        if given is not None:
            raise KappaFrameError(
                f"{arg(name, given)} describes a pilot frame, and none was given; pass "
                "the pilot, or drop it.",
                option=name,
            )
    if numbers["kappa0"] is None:
        raise KappaFrameError(
            f"{arg('kappa0')} is needed: the kappa to reject (power) or the anticipated "
            "kappa (interval); or pass a pilot frame.",
            option="kappa0",
        )
    k0 = _kappa("kappa0", numbers["kappa0"], low_ok=True)
    shares = check_props(numbers["props"])
    n_raters = numbers["n_raters"]
    m = 2 if n_raters is None else _n_raters(n_raters)
    _size.check_cells(k0, shares, m)
    plan = _plan(
        k0, numbers["kappa1"], shares, m, numbers["alpha"], numbers["power"], numbers["width"],
        numbers["lower"], numbers["upper"], numbers["alternative"], numbers["n_items"],
    )  # fmt: skip
    table = Table(_columns([plan], numbers["seed"], numbers["method"], digits=None))
    return render(table, None, "pandas", eager=True)


def _fixed_items(value: Any) -> int:
    if (
        isinstance(value, (bool, np.bool_))
        or not isinstance(value, (int, np.integer))
        or value < 11
    ):
        raise KappaFrameError(
            f"{arg('n_items', value)} must be a whole number of items above 10 (kappaSize's "
            "floor for a study of agreement).",
            option="n_items",
        )
    return int(value)


def _from_pilot(data: Any, raters: Any, **options: Any) -> Any:
    """One question per pilot group: its shares and Fleiss' kappa, then the sample size."""
    # an interval or a limit: the pilot's kappa is the anticipated kappa0
    interval = any(options[o] is not None for o in ("width", "lower", "upper", "n_items"))
    if options["props"] is not None:
        raise KappaFrameError(
            f"{arg('props', options['props'])} comes from the pilot's ratings; drop it, or "
            "drop the pilot and give every number.",
            option="props",
        )
    if options["kappa1"] is not None:
        raise KappaFrameError(
            f"{arg('kappa1', options['kappa1'])} comes from the pilot (its Fleiss' kappa); "
            f"drop it and give {arg('kappa0')}, the kappa to reject.",
            option="kappa1",
        )
    if interval and options["kappa0"] is not None:
        raise KappaFrameError(
            f"{arg('kappa0', options['kappa0'])}: for an interval or a limit the anticipated "
            "kappa is the pilot's Fleiss' kappa; drop it, or drop the pilot and give every "
            "number.",
            option="kappa0",
        )
    if not interval and options["kappa0"] is None:
        raise KappaFrameError(
            f"a pilot gives kappa1 (its Fleiss' kappa); give {arg('kappa0')}, the kappa to "
            f"reject, or ask for an interval with {arg('width')} or {arg('lower')}.",
            option="kappa0",
        )
    k0_given = None if interval else _kappa("kappa0", options["kappa0"], low_ok=True)
    if options["n_raters"] is not None:
        _n_raters(options["n_raters"])
    prep = prepare_ratings(data, ReadSpec.of(options, raters=raters))
    k = len(prep.categories)
    n_groups = prep.groups.n_groups
    rt = ratings_of(prep.codes, prep.groups.codes, n_groups, k)
    pilot = _size.pilot_estimates(rt)
    m = len(prep.raters) if options["n_raters"] is None else int(options["n_raters"])
    plans = []
    for g in range(n_groups):
        where = f" (group {g + 1} of {n_groups} in {arg('by')} order)" if n_groups > 1 else ""
        shares = pilot.props[g]
        unused = [prep.categories[c] for c in range(k) if not shares[c] > 0]
        if pilot.n_items[g] == 0 or unused:
            what = f"category {unused[0]!r} has no rating" if unused else "no item has a label"
            raise KappaFrameError(
                f"the pilot{where}: {what}, so its share is 0 and no sample size follows; "
                f"leave the category out of {arg('categories')}, or plan from numbers with "
                f"{arg('props')}.",
                option="categories",
            )
        kappa = float(pilot.kappa[g])
        if not math.isfinite(kappa) or not 0.0 <= kappa < 1.0:
            raise KappaFrameError(
                f"the pilot's Fleiss' kappa{where} is {kappa:.4g}, outside [0, 1): the model "
                "needs agreement beyond chance short of perfect; plan from numbers with "
                f"{arg('kappa0')} and {arg('kappa1')}.",
                option="kappa0" if interval else "kappa1",
            )
        _size.check_cells(kappa, shares, m)
        if interval:
            try:
                plan = _plan(
                    kappa,
                    None,
                    shares,
                    m,
                    options["alpha"],
                    options["power"],
                    options["width"],
                    options["lower"],
                    options["upper"],
                    options["alternative"],
                    options["n_items"],
                )
            except KappaFrameError as err:  # say which pilot group's kappa0 it is
                raise KappaFrameError(
                    f"the pilot's Fleiss' kappa{where} is the kappa0: {err}", option=err.option
                ) from None
        else:
            assert k0_given is not None
            if not kappa > k0_given:
                raise KappaFrameError(
                    f"the pilot's Fleiss' kappa{where} is {kappa:.4g}, not above "
                    f"{arg('kappa0', options['kappa0'])}: no number of items shows agreement "
                    "above kappa0 then; lower kappa0, or ask for an interval with "
                    f"{arg('width')}.",
                    option="kappa0",
                )
            _size.check_cells(k0_given, shares, m)
            plan = _plan(
                k0_given,
                kappa,
                shares,
                m,
                options["alpha"],
                options["power"],
                None,
                None,
                None,
                options["alternative"],
            )
        plans.append(plan)
    group_of_row = np.arange(n_groups)
    output = PILOT_COLUMNS + SAMPLE_SIZE_COLUMNS
    columns = key_columns(prep, group_of_row, output, "sample_size")
    columns += [
        Column("pilot_items", "int", pilot.n_items.astype(np.int64)),
        Column("pilot_kappa", "float", pilot.kappa.astype(float)),
    ]
    columns += _columns(plans, options["seed"], options["method"], digits=4)
    return prep.frame.render(Table(columns))
