"""overall(ci_method="bootstrap"): items resampled, every coefficient, per group.

The intervals are checked against a brute-force bootstrap that knows nothing of the
per-pattern sums: for each replicate it builds the resampled frame (the items repeated as
drawn) and calls ``kf.overall`` on it. Both use the same draws
(``replicate_counts``, one multinomial over the distinct items of each group), so the
standard errors and percentile intervals must agree to 1e-12. On a large sample the
bootstrap standard error must be close to the large-sample (linearization) one.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._stats.bootstrap_overall import (
    REPLICATES_PER_SEED,
    _design,
    bootstrap_overall,
    item_patterns,
    replicate_counts,
)
from kappaframe._stats.multirater import compute, ratings_of

CATS = [0.0, 1.0, 2.0, 3.0]
UNWEIGHTED = ["fleiss", "light", "conger", "krippendorff", "gwet_ac1"]
UNWEIGHTED += ["brennan_prediger", "percent"]
WEIGHTED = ["fleiss", "light", "conger", "krippendorff", "gwet_ac2"]
WEIGHTED += ["brennan_prediger", "percent"]


def team(n: int, raters: int, seed: int, missing: float = 0.15, copy: float = 0.6) -> pd.DataFrame:
    """``n`` items, raters who copy a latent label with probability ``copy``, some missing."""
    rng = np.random.default_rng(seed)
    latent = rng.integers(0, len(CATS), n)
    data: dict[str, Any] = {}
    for r in range(raters):
        codes = np.where(rng.random(n) < copy, latent, rng.integers(0, len(CATS), n))
        labels = codes.astype(float)
        labels[rng.random(n) < missing] = np.nan
        data[f"r{r}"] = labels
    return pd.DataFrame(data)


def brute_force(
    df: pd.DataFrame, opts: dict[str, Any], n_boot: int, seed: int, by: str | None = None
) -> pd.DataFrame:
    """The bootstrap by hand: resampled frames through ``kf.overall``, per group.

    The items of a group are folded into their distinct rows (per-item category counts,
    or the labels rater by rater when Conger or Light is asked), sorted; the draws of
    ``replicate_counts`` say how many times each row is taken.
    """
    methods = [opts["method"]] if isinstance(opts["method"], str) else opts["method"]
    raters = [c for c in df.columns if c != by]
    by_rater = bool({"conger", "light"} & set(methods))
    groups = [("", df)] if by is None else sorted(df.groupby(by), key=lambda kv: kv[0])
    parts, frames = [], []
    for _, sub in groups:
        sub = sub[sub[raters].notna().any(axis=1)].reset_index(drop=True)
        codes = np.where(sub[raters].isna(), -1, sub[raters].fillna(0)).astype(int)
        if by_rater:
            keys = [tuple(row) for row in codes]
        else:
            keys = [tuple(int((row == c).sum()) for c in range(len(CATS))) for row in codes]
        distinct = sorted(set(keys))
        parts.append(np.array([keys.count(key) for key in distinct]))
        frames.append((sub, [keys.index(key) for key in distinct]))
    draws = replicate_counts(parts, n_boot, seed)
    rows = []
    level = opts["ci"]
    for (sub, first), counts in zip(frames, draws, strict=True):
        values = []
        for b in range(n_boot):
            take = np.repeat(first, counts[b])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
                res = kf.overall(
                    sub.iloc[take][raters].reset_index(drop=True),
                    categories=CATS,
                    min_items=None,
                    **{
                        k: v
                        for k, v in opts.items()
                        if k not in ("ci", "ci_method", "n_boot", "seed")
                    },
                )
            values.append(res["value"].to_numpy(dtype=float))
        reps = np.array(values)
        rows.append(
            pd.DataFrame(
                {
                    "se": np.nanstd(reps, axis=0, ddof=1),
                    "ci_low": np.nanquantile(reps, (1 - level) / 2, axis=0),
                    "ci_high": np.nanquantile(reps, (1 + level) / 2, axis=0),
                }
            )
        )
    return pd.concat(rows, ignore_index=True)


CASES = {
    "unweighted": {"method": UNWEIGHTED},
    "quadratic": {"method": WEIGHTED, "weights": "quadratic"},
    "linear_counts_only": {"method": ["fleiss", "gwet_ac2", "percent"], "weights": "linear"},
    "ordinal": {"method": "krippendorff", "level": "ordinal"},
    "interval": {"method": "krippendorff", "level": "interval"},
    "ratio": {"method": "krippendorff", "level": "ratio"},
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_the_bootstrap_by_hand(case: str) -> None:
    """se, ci_low and ci_high of every coefficient equal the brute force to 1e-12."""
    df = team(40, 4, seed=1)
    opts = {**CASES[case], "ci": 0.9}
    n_boot = 60
    res = kf.overall(
        df, categories=CATS, ci_method="bootstrap", n_boot=n_boot, seed=5, min_items=None, **opts
    )
    want = brute_force(df, opts, n_boot, seed=5)
    for col in ("se", "ci_low", "ci_high"):
        np.testing.assert_allclose(res[col], want[col], rtol=0, atol=1e-12, err_msg=col)
    assert (res["ci_low"] < res["value"]).all() and (res["value"] < res["ci_high"]).all()


def test_matches_the_bootstrap_by_hand_per_group(monkeypatch: pytest.MonkeyPatch) -> None:
    """Per group: each group resampled within itself, from its own seed and blocks."""
    import kappaframe._stats.bootstrap_overall as module

    monkeypatch.setattr(module, "_BLOCK_DRAWS", 1)  # blocks of REPLICATES_PER_SEED
    df = team(90, 3, seed=2)
    df["group"] = np.random.default_rng(3).choice(["b", "a", "c"], size=len(df))
    opts = {"method": ["fleiss", "conger", "light", "krippendorff"], "ci": 0.8}
    n_boot = REPLICATES_PER_SEED + 20  # two blocks of replicates per group
    res = kf.overall(
        df, by="group", categories=CATS, ci_method="bootstrap", n_boot=n_boot, seed=9, **opts
    )
    assert list(res["group"]) == ["a"] * 4 + ["b"] * 4 + ["c"] * 4
    want = brute_force(df, opts, n_boot, seed=9, by="group")
    for col in ("se", "ci_low", "ci_high"):
        np.testing.assert_allclose(res[col], want[col], rtol=0, atol=1e-12, err_msg=col)


@pytest.mark.parametrize("case", list(CASES))
def test_the_observed_counts_give_the_estimate(case: str) -> None:
    """The sums of the observed items (every pattern taken as often as it occurs) finish
    to each coefficient's point estimate: the bootstrap's formulas are the estimate's."""
    df = team(70, 5, seed=4)
    opts = CASES[case]
    methods = [opts["method"]] if isinstance(opts["method"], str) else opts["method"]
    codes = np.where(df.isna(), -1, df.fillna(0)).astype(np.int64).T
    rt = ratings_of(codes, None, 1, len(CATS))
    weighted = "weights" in opts
    from kappaframe._stats.agreement import weight_matrix

    disagree = weight_matrix(opts.get("weights"), CATS)
    given = weight_matrix(opts.get("weights"), CATS, rescale=False)
    level = opts.get("level", "nominal")
    pat = item_patterns(rt, bool({"conger", "light"} & set(methods)))
    design = _design(pat, methods, len(CATS), disagree, given, weighted, level, CATS)
    freq = pat.freq.astype(float)[None, :]
    sums = freq @ design.columns if design.width else np.zeros((1, 0))
    for method in methods:
        want = compute(
            rt,
            method,
            disagree,
            weighted=weighted,
            level=level,
            categories=CATS,
            with_variance=False,
            given=given,
        )["value"]
        if method == "light":
            from kappaframe._stats.bootstrap_overall import _light_indicator, _light_sums

            assert design.light_cells is not None and design.light_finish is not None
            indicator = _light_indicator(design.light_cells, len(CATS), disagree)
            got = design.light_finish(_light_sums(freq, indicator))  # (terms, 1)
        else:
            got = design.finish[method](sums, np.array([float(pat.freq.sum())]))
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13, err_msg=method)


@pytest.mark.parametrize(
    ("method", "extra"),
    [(m, {}) for m in UNWEIGHTED]
    + [("gwet_ac2", {"weights": "quadratic"}), ("krippendorff", {"level": "interval"})],
)
def test_large_sample_se_is_the_analytic_one(method: str, extra: dict[str, Any]) -> None:
    """On 3,000 items the bootstrap se is within 7% of the linearization se, and the
    percentile interval within a few se of the normal one."""
    df = team(3000, 4, seed=7, missing=0.1)
    common = {"method": method, "categories": CATS, "ci": 0.95, **extra}
    boot = kf.overall(df, ci_method="bootstrap", n_boot=1000, seed=1, **common)
    analytic = kf.overall(df, **common)
    ratio = float(boot["se"].iloc[0] / analytic["se"].iloc[0])
    assert 0.93 < ratio < 1.07, ratio
    se = float(analytic["se"].iloc[0])
    for col in ("ci_low", "ci_high"):
        assert abs(float(boot[col].iloc[0] - analytic[col].iloc[0])) < 0.2 * se, col
    # z and p_value stay the large-sample test, as in pairwise's bootstrap
    for col in ("se0", "z", "p_value", "value"):
        assert float(boot[col].iloc[0]) == float(analytic[col].iloc[0]), col


def test_reproducible_and_thread_count_free() -> None:
    """The same seed gives the same numbers, on one thread or many; another seed does not."""
    df = team(200, 4, seed=8)
    df["group"] = np.arange(len(df)) % 3
    rt = ratings_of(
        np.where(df[["r0", "r1", "r2", "r3"]].isna(), -1, df[["r0", "r1", "r2", "r3"]].fillna(0))
        .astype(np.int64)
        .T,
        df["group"].to_numpy(),
        3,
        len(CATS),
    )
    disagree = 1.0 - np.eye(len(CATS))
    common = {"weighted": False, "level": "nominal", "categories": CATS, "given": None}
    runs = [
        bootstrap_overall(
            rt, UNWEIGHTED, disagree, ci=0.95, n_boot=250, seed=4, workers=w, **common
        )
        for w in (1, 3)
    ]
    again = bootstrap_overall(
        rt, UNWEIGHTED, disagree, ci=0.95, n_boot=250, seed=np.random.default_rng(4), **common
    )
    other = bootstrap_overall(rt, UNWEIGHTED, disagree, ci=0.95, n_boot=250, seed=5, **common)
    for m in range(len(UNWEIGHTED)):
        for key in ("se", "ci_low", "ci_high"):
            np.testing.assert_array_equal(runs[0][m][key], runs[1][m][key])
            np.testing.assert_array_equal(runs[0][m][key], again[m][key])
        assert not np.array_equal(runs[0][m]["se"], other[m]["se"])
    # small memory chunks draw the same numbers one after another (the matrix products
    # of other shapes round differently in the last digit)
    small = bootstrap_overall(
        rt, UNWEIGHTED, disagree, ci=0.95, n_boot=250, seed=4, chunk_bytes=1, **common
    )
    for m in range(len(UNWEIGHTED)):
        np.testing.assert_allclose(runs[0][m]["se"], small[m]["se"], rtol=1e-13, atol=0)


def test_undefined_values_get_no_interval() -> None:
    """Every label in one category: no value, so no se and no interval (and one warning)."""
    df = pd.DataFrame({"a": [1, 1, 1, 1], "b": [1, 1, 1, 1], "c": [1, 1, np.nan, 1]})
    with pytest.warns(kf.UndefinedKappaWarning):
        res = kf.overall(
            df, method=["fleiss", "krippendorff"], ci=0.95, ci_method="bootstrap", seed=0
        )
    assert res[["value", "se", "ci_low", "ci_high"]].isna().all().all()


def test_options_are_checked_first() -> None:
    df = team(30, 3, seed=9)
    with pytest.raises(kf.KappaFrameError, match="needs a confidence level"):
        kf.overall(df, ci_method="bootstrap")
    with pytest.raises(kf.KappaFrameError, match="apply to ci_method='bootstrap' only"):
        kf.overall(df, ci=0.95, n_boot=100)
    with pytest.raises(kf.KappaFrameError, match="n_boot must be an integer of at least 2"):
        kf.overall(df, ci=0.95, ci_method="bootstrap", n_boot=1)
    with pytest.raises(kf.KappaFrameError, match="seed must be a non-negative integer"):
        kf.overall(df, ci=0.95, ci_method="bootstrap", seed=-1)
    with pytest.raises(kf.KappaFrameError, match="ci_method"):
        kf.overall(df, ci=0.95, ci_method="jackknife")  # type: ignore[arg-type]


def test_fractional_counts_resample_their_rows() -> None:
    """layout="counts" with fractions: the rows are the items; the intervals follow them."""
    counts = pd.DataFrame({"x": [1.5, 0.0, 2.0, 0.5] * 10, "y": [0.5, 2.0, 0.0, 1.5] * 10})
    res = kf.overall(
        counts,
        layout="counts",
        method=["fleiss", "gwet_ac1"],
        ci=0.95,
        ci_method="bootstrap",
        n_boot=300,
        seed=2,
    )
    assert res["se"].between(0.01, 0.5).all()
    # the rows of the whole table, four times over, give the same patterns and draws
    twice = kf.overall(
        pd.concat([counts] * 4, ignore_index=True),
        layout="counts",
        method=["fleiss", "gwet_ac1"],
        ci=0.95,
        ci_method="bootstrap",
        n_boot=300,
        seed=2,
    )
    assert (twice["se"] < res["se"]).all()


def test_the_input_is_not_modified() -> None:
    df = team(50, 3, seed=10)
    before = df.copy()
    kf.overall(df, method=UNWEIGHTED, ci=0.9, ci_method="bootstrap", n_boot=50, seed=1)
    pd.testing.assert_frame_equal(df, before)


def test_too_many_terms_are_refused_before_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Terms that would not fit are refused with the size and the way out, not allocated."""
    import kappaframe._stats.bootstrap_overall as module

    monkeypatch.setattr(module, "MAX_COUNT_BYTES", 1000)
    with pytest.raises(kf.KappaFrameError, match="ci_method='analytic'") as refused:
        kf.overall(team(60, 4, seed=11), method="conger", ci=0.95, ci_method="bootstrap")
    assert refused.value.option == "ci_method"
