"""kf.icc and kf.kendall_w with missing="available": incomplete and crowd designs.

Oracles: today's complete-design functions (nothing missing), statsmodels' one-way
analysis of variance (``anova_lm``) and its REML fit of crossed random effects
(``MixedLM``, one group for everything and ``vc_formula`` for items and raters), and
irrNA's ``kendallNA`` (its R code: the mean of pairwise Spearman correlations, weighted by
the items each pair shares minus one) written out here with ``scipy.stats.spearmanr``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._stats.icc_incomplete import _one_way, reml_components
from tests.api.test_icc import ANXIETY, SF, long_of

NUMBERS = ["icc", "f", "p_value", "ci_low", "ci_high"]


def crowd(seed: int, n: int = 60, k: int = 6, per_item: tuple[int, int] = (2, 4)) -> pd.DataFrame:
    """Items scored by a random subset of the raters: item + rater + noise."""
    rng = np.random.default_rng(seed)
    target = rng.normal(size=n)
    bias = rng.normal(scale=0.6, size=k)
    values = np.full((n, k), np.nan)
    for i in range(n):
        who = rng.choice(k, size=rng.integers(per_item[0], per_item[1] + 1), replace=False)
        values[i, who] = 5 + target[i] + bias[who] + rng.normal(scale=0.8, size=len(who))
    return pd.DataFrame(values.round(3), columns=[f"r{j}" for j in range(k)])


def long_ratings(wide: pd.DataFrame) -> pd.DataFrame:
    out = long_of(wide).dropna(subset=["score"])
    return out.reset_index(drop=True)


NA = np.nan
# irrNA's example data (irrNA 0.2.3, data/*.rda; rows are objects, columns raters).
CONSIST_NA = pd.DataFrame(
    {
        "Rater1": [1, 2, 3, NA, NA, NA],
        "Rater2": [3, 4, 5, NA, NA, NA],
        "Rater3": [5, 6, 7, NA, NA, NA],
        "Rater4": [NA, NA, NA, 5, 6, 7],
        "Rater5": [NA, NA, NA, 3, 4, 5],
        "Rater6": [NA, NA, NA, 1, 2, 3],
    }
)
INDEP_NA = pd.DataFrame(
    {
        "Rater1": [1, 2, 3, 4, 5, NA],
        "Rater2": [2, 3, 4, 5, NA, 1],
        "Rater3": [3, 4, 5, NA, 1, 2],
        "Rater4": [4, 5, NA, 1, 2, 3],
        "Rater5": [5, NA, 1, 2, 3, 4],
        "Rater6": [NA, 1, 2, 3, 4, 5],
    }
)
INDEP_W = pd.DataFrame(
    {
        "Rater1": [1, 2, 3, NA, NA, NA],
        "Rater2": [3, 4, 5, NA, NA, NA],
        "Rater3": [7, 6, 5, NA, NA, NA],
        "Rater4": [NA, NA, NA, 5, 5, 5],
        "Rater5": [NA, NA, NA, 3, 4, 5],
        "Rater6": [NA, NA, NA, 1, 2, 3],
    }
)


# ------------------------------------------------------------------ nothing missing
def test_listwise_is_the_default_and_unchanged() -> None:
    pd.testing.assert_frame_equal(kf.icc(SF, missing="listwise"), kf.icc(SF))
    pd.testing.assert_frame_equal(kf.kendall_w(ANXIETY, missing="listwise"), kf.kendall_w(ANXIETY))


@pytest.mark.parametrize("function", ["icc", "kendall_w"])
def test_complete_design_gives_todays_numbers(function: str) -> None:
    data = SF if function == "icc" else ANXIETY
    want = getattr(kf, function)(data)
    got = getattr(kf, function)(data, missing="available")
    assert list(got.columns[: len(want.columns)]) == list(want.columns)
    numbers = want.select_dtypes("number").columns
    np.testing.assert_allclose(
        got[numbers].to_numpy(float), want[numbers].to_numpy(float), rtol=1e-12, atol=1e-15
    )
    assert set(got["design"]) == {"complete"}
    k = len(data.columns)
    assert (got["n_ratings"] == k * len(data)).all()
    assert (got["ratings_min"] == k).all() and (got["ratings_max"] == k).all()
    assert (got["k0" if function == "icc" else "kq"] == k).all()


def test_reml_of_balanced_data_is_the_anova_estimate() -> None:
    """Balanced data: REML equals the ANOVA estimates where they are positive."""
    data = SF.to_numpy(float)
    n, k = data.shape
    item, rater = np.nonzero(np.ones_like(data, dtype=bool))
    va, vb, ve = reml_components(item, rater, data[item, rater], n, k)
    grand = data.mean()
    msr = k * ((data.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    msc = n * ((data.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    resid = data - data.mean(axis=1, keepdims=True) - data.mean(axis=0) + grand
    mse = (resid**2).sum() / ((n - 1) * (k - 1))
    np.testing.assert_allclose([va, vb, ve], [(msr - mse) / k, (msc - mse) / n, mse], rtol=1e-6)


# ---------------------------------------------------------------- incomplete designs
def test_one_way_forms_are_the_unbalanced_anova() -> None:
    smf = pytest.importorskip("statsmodels.formula.api")
    sm = pytest.importorskip("statsmodels.api")
    data = crowd(3)
    long = long_ratings(data)
    table = sm.stats.anova_lm(smf.ols("score ~ C(item)", data=long).fit())
    msb, msw = table["mean_sq"].iloc[0], table["mean_sq"].iloc[1]
    counts = long.groupby("item").size().to_numpy(float)
    big_n, n = counts.sum(), len(counts)
    k0 = (big_n - (counts**2).sum() / big_n) / (n - 1)
    res = kf.icc(data, missing="available").set_index("type")
    assert res.loc["ICC1", "icc"] == pytest.approx((msb - msw) / (msb + (k0 - 1) * msw), rel=1e-10)
    assert res.loc["ICC1k", "icc"] == pytest.approx((msb - msw) / msb, rel=1e-10)
    assert res.loc["ICC1", "f"] == pytest.approx(msb / msw, rel=1e-10)
    assert (res.loc["ICC1", "df1"], res.loc["ICC1", "df2"]) == (n - 1, big_n - n)
    assert res.loc["ICC1", "k0"] == pytest.approx(k0, rel=1e-12)
    assert set(res["design"]) == {"incomplete"}
    assert res["n_ratings"].iloc[0] == big_n and res["n_dropped"].iloc[0] == 0
    assert (res["ratings_min"].iloc[0], res["ratings_max"].iloc[0]) == (2, 4)
    # Listwise deletion leaves nothing to compute with here.
    with pytest.raises(kf.KappaFrameError, match="complete item"):
        kf.icc(data)


def _statsmodels_components(long: pd.DataFrame) -> tuple[Any, Any]:
    smf = pytest.importorskip("statsmodels.formula.api")
    model = smf.mixedlm(
        "score ~ 1",
        long.assign(everything=1),
        groups="everything",
        re_formula="0",
        vc_formula={"item": "0 + C(item)", "judge": "0 + C(judge)"},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = model.fit(reml=True, method=["lbfgs"])
    return model, fit


def test_two_way_forms_are_statsmodels_reml_components() -> None:
    """Variance components equal statsmodels' MixedLM REML fit (crossed random effects).

    statsmodels stops its optimiser where its gradient is small, on a flat likelihood: its
    variances sit within a relative 1e-3 of the optimum (here about 1e-4 off), while
    statsmodels' own REML log-likelihood is at least as high at kappaframe's estimates
    (to 1e-9): kappaframe's are the better maximum by statsmodels' own measure.
    """
    data = crowd(5)
    long = long_ratings(data)
    model, fit = _statsmodels_components(long)
    va, vb, ve = reml_components(
        long["item"].to_numpy(),
        long["judge"].map({c: j for j, c in enumerate(data.columns)}).to_numpy(),
        long["score"].to_numpy(float),
        len(data),
        len(data.columns),
    )
    item_var, rater_var = fit.vcomp
    np.testing.assert_allclose([va, vb, ve], [item_var, rater_var, fit.scale], rtol=1e-3)
    params = fit.params_object
    ours = params.from_components(
        fe_params=params.fe_params, cov_re=params.cov_re, vcomp=np.array([va, vb]) / ve
    )
    assert model.loglike(ours, profile_fe=True) >= model.loglike(params, profile_fe=True) - 1e-9
    # kf.icc fits the ratings in an order of its own: the same optimum to the optimiser's
    # precision on this flat likelihood (about 1e-8 relative).
    res = kf.icc(data, missing="available").set_index("type")
    k0 = res["k0"].iloc[0]
    assert res.loc["ICC2", "icc"] == pytest.approx(va / (va + vb + ve), rel=1e-6)
    assert res.loc["ICC3", "icc"] == pytest.approx(va / (va + ve), rel=1e-6)
    assert res.loc["ICC2k", "icc"] == pytest.approx(va / (va + (vb + ve) / k0), rel=1e-6)
    assert res.loc["ICC3k", "icc"] == pytest.approx(va / (va + ve / k0), rel=1e-6)
    assert res.loc["ICC2", "icc"] == pytest.approx(
        item_var / (item_var + rater_var + fit.scale), rel=1e-3
    )
    # No interval for the two-way forms of an incomplete design; their F test is the
    # items' adjusted for the raters: statsmodels' two-way ANOVA (type II) of the scores.
    assert res.loc[["ICC2", "ICC3", "ICC2k", "ICC3k"], ["ci_low", "ci_high"]].isna().all().all()
    sm = pytest.importorskip("statsmodels.api")
    smf = pytest.importorskip("statsmodels.formula.api")
    table = sm.stats.anova_lm(smf.ols("score ~ C(item) + C(judge)", data=long).fit(), typ=2)
    for form in ("ICC2", "ICC3", "ICC2k", "ICC3k"):
        assert res.loc[form, "f"] == pytest.approx(table.loc["C(item)", "F"], rel=1e-9)
        assert res.loc[form, "p_value"] == pytest.approx(table.loc["C(item)", "PR(>F)"], rel=1e-6)
        assert res.loc[form, "df1"] == table.loc["C(item)", "df"]
        assert res.loc[form, "df2"] == table.loc["Residual", "df"]


def test_crowd_design_long_and_wide_agree() -> None:
    data = crowd(7, n=120, k=12, per_item=(3, 3))
    wide = kf.icc(data, missing="available")
    long = kf.icc(
        long_ratings(data), item="item", rater="judge", value="score", missing="available"
    )
    np.testing.assert_allclose(
        wide[NUMBERS].to_numpy(float), long[NUMBERS].to_numpy(float), rtol=1e-12, atol=1e-15
    )
    assert (wide["k0"] == 3).all() and (wide["n_items"] == 120).all()


def test_groups_keep_their_own_design() -> None:
    data = pd.concat(
        [SF.astype(float).assign(g="a"), crowd(2, n=20, k=4).set_axis(SF.columns, axis=1)]
    ).fillna({"g": "b"})
    res = kf.icc(data, by="g", missing="available")
    assert res.groupby("g")["design"].first().to_dict() == {"a": "complete", "b": "incomplete"}
    alone = kf.icc(SF, missing="available")
    np.testing.assert_allclose(
        res.loc[res["g"] == "a", NUMBERS].to_numpy(float),
        alone[NUMBERS].to_numpy(float),
        rtol=1e-12,
    )


def test_one_way_interval_covers_near_nominal() -> None:
    """200 seeded replicates of an unbalanced one-way design with ICC 0.4: the 95% interval
    of ICC1 covers it within a binomial tolerance (3 standard errors)."""
    rng = np.random.default_rng(20261128)
    rho, n, hits, reps = 0.4, 30, 0, 200
    for _ in range(reps):
        counts = rng.integers(2, 6, size=n)
        item = np.repeat(np.arange(n), counts)
        y = rng.normal(scale=np.sqrt(rho), size=n)[item] + rng.normal(
            scale=np.sqrt(1 - rho), size=len(item)
        )
        out, _ = _one_way(item, y, n, 0.95, __import__("scipy.special").special)
        hits += out["ci_low"][0] <= rho <= out["ci_high"][0]
    tolerance = 3 * np.sqrt(0.95 * 0.05 / reps)
    assert abs(hits / reps - 0.95) <= tolerance


# ------------------------------------------------------------------------ never guess
def test_every_item_rated_once_is_refused() -> None:
    once = pd.DataFrame({"a": [1.0, np.nan, 3.0, np.nan], "b": [np.nan, 2.0, np.nan, 5.0]})
    with pytest.raises(kf.KappaFrameError, match=r"missing=.*one rating.*listwise"):
        kf.icc(once, missing="available")


def test_a_sparse_group_is_named_by_its_keys(constructor: Any) -> None:
    data = {
        "site": ["north"] * 3 + ["south"] * 3,
        "a": [1.0, 2.0, 3.0, 1.0, NA, 3.0],
        "b": [2.0, 3.0, 5.0, NA, 2.0, NA],
    }
    with pytest.raises(kf.KappaFrameError, match=r"group site='south': every item has one"):
        kf.icc(constructor(data), by="site", missing="available")


def test_confounded_raters_and_items_are_refused() -> None:
    chain = pd.DataFrame(
        {
            "a": [1.0, np.nan, np.nan],
            "b": [2.0, 4.0, np.nan],
            "c": [np.nan, 5.0, 7.0],
            "d": [np.nan, np.nan, 9.0],
        }
    )
    with pytest.raises(kf.KappaFrameError, match=r"cannot be told apart.*listwise"):
        kf.icc(chain, missing="available")


def test_bad_value_names_the_option() -> None:
    with pytest.raises(kf.KappaFrameError, match="missing"):
        kf.icc(SF, missing="pairwise")  # type: ignore[arg-type]


def test_engine_is_refused_with_the_way_out() -> None:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    con = duckdb.connect()
    con.register("sf", SF)
    with pytest.raises(kf.KappaFrameError, match="pandas or polars first"):
        kf.icc(con.sql("SELECT * FROM sf"), missing="available")
    con.close()


# ----------------------------------------------------------------------- Kendall's W
def kendall_na(data: pd.DataFrame) -> float:
    """irrNA's kendallNA, from its R code, with scipy's Spearman correlation."""
    stats = pytest.importorskip("scipy.stats")
    data = data.loc[:, data.notna().sum() > 1]
    total = weights = 0.0
    cols = list(data.columns)
    for a in range(len(cols)):
        for b in range(a):
            both = data[[cols[a], cols[b]]].dropna()
            if len(both) < 2:
                continue
            with warnings.catch_warnings():  # a constant rater: no rho (irrNA counts 0)
                warnings.simplefilter("ignore", stats.ConstantInputWarning)
                rho = stats.spearmanr(both.iloc[:, 0], both.iloc[:, 1]).statistic
            total += (len(both) - 1) * (0.0 if np.isnan(rho) else rho)
            weights += len(both) - 1
    kq = data.notna().sum(axis=1).mean()
    return (1 + total / weights * (kq - 1)) / kq


def test_kendall_incomplete_is_irrna_kendallna() -> None:
    data = ANXIETY.astype(float)
    rng = np.random.default_rng(4)
    for col in data.columns:
        data.loc[rng.random(len(data)) < 0.25, col] = np.nan
    data = data[data.notna().any(axis=1)]
    res = kf.kendall_w(data, missing="available")
    w = kendall_na(data)
    kq = data.notna().sum(axis=1).mean()
    assert res["w"].iloc[0] == pytest.approx(w, rel=1e-12)
    assert res["kq"].iloc[0] == pytest.approx(kq, rel=1e-12)
    assert res["chi2"].iloc[0] == pytest.approx(kq * (len(data) - 1) * w, rel=1e-12)
    assert res["design"].iloc[0] == "incomplete"


def test_kendall_perfect_concordance_with_gaps_is_one() -> None:
    """As irrNA's ConsistNA: every rater ranks alike the items they rated, none rated all."""
    order = np.arange(8, dtype=float)
    data = pd.DataFrame({f"r{j}": order for j in range(4)})
    for j in range(4):
        data.iloc[[j, j + 4], j] = np.nan
    res = kf.kendall_w(data, missing="available")
    assert res["w"].iloc[0] == pytest.approx(1.0, rel=1e-12)
    with pytest.raises(kf.KappaFrameError, match="complete item"):
        kf.kendall_w(data)


# --------------------------------------------------------------- irrNA's examples
def _available(function: Any, data: pd.DataFrame) -> pd.DataFrame:
    result: pd.DataFrame = function(data, raters=list(data.columns), missing="available")
    return result


def test_irrna_consistna_perfect_consistency_and_concordance() -> None:
    """irrNA's help: ConsistNA has "a perfect consistency" (iccNA's ICC(C,1) and ICC(C,k)
    are 1) and "a perfect concordance between raters" (kendallNA's W is 1)."""
    with pytest.warns(kf.UndefinedKappaWarning, match="undefined"):
        res = _available(kf.icc, CONSIST_NA).set_index("type")
    assert res.loc["ICC3", "icc"] == 1.0 and res.loc["ICC3k", "icc"] == 1.0
    # An exact fit cannot weigh the items' variance against the raters': no guess.
    assert res.loc[["ICC2", "ICC2k"], "icc"].isna().all()
    w = _available(kf.kendall_w, CONSIST_NA)
    assert w["w"].iloc[0] == pytest.approx(1.0, rel=1e-12)
    assert w["f_p_value"].iloc[0] == 0.0


def test_irrna_indepw_mean_rho_zero() -> None:
    """irrNA's help: IndepW has "a mean Spearman's rho that equals zero": W = 1 / kq."""
    res = _available(kf.kendall_w, INDEP_W)
    assert res["kq"].iloc[0] == 3.0
    assert res["w"].iloc[0] == pytest.approx(1 / 3, rel=1e-12)
    assert res["w"].iloc[0] == pytest.approx(kendall_na(INDEP_W), rel=1e-12)


def test_irrna_indepna_independence() -> None:
    """irrNA's help: IndepNA has "zero variance between the raters just as well as between
    the objects"; iccNA shows "the perfect independence of the ratings"."""
    with pytest.warns(kf.UndefinedKappaWarning, match="undefined"):  # ICC1k: MSB = 0
        res = _available(kf.icc, INDEP_NA).set_index("type")
    assert np.isnan(res.loc["ICC1k", "icc"]) and np.isnan(res.loc["ICC1k", "ci_low"])
    assert res.loc[["ICC2", "ICC3", "ICC2k", "ICC3k"], "icc"].tolist() == [0.0] * 4
    assert res.loc["ICC1", "f"] == pytest.approx(0.0, abs=1e-12)
    w = _available(kf.kendall_w, INDEP_NA)
    assert w["w"].iloc[0] == pytest.approx(kendall_na(INDEP_NA), rel=1e-12)


def test_a_group_with_one_scored_item_warns_and_the_others_stand() -> None:
    data = pd.DataFrame(
        {
            "g": ["a"] * 4 + ["b"],
            "x": [1, 2, 3, 4, 1],
            "y": [2, NA, 4, 5, 2],
            "z": [NA, 3, 5, 6, NA],
        }
    )
    with pytest.warns(kf.UndefinedKappaWarning, match="fewer than 2 items scored"):
        res = kf.icc(data, by="g", missing="available")
    assert res.loc[res["g"] == "b", "icc"].isna().all()
    assert res.loc[res["g"] == "a", "icc"].notna().all()
    assert res.loc[res["g"] == "b", "n_items"].tolist() == [1] * 6
