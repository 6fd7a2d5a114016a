"""kf.icc and kf.kendall_w against pingouin, R psych and irr, and the literature."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import kappaframe as kf
from kappaframe._stats.icc import icc_forms, icc_sums
from tests.conftest import to_pandas

FORMS = ["ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"]
NUMBERS = ["icc", "f", "p_value", "ci_low", "ci_high"]

# Shrout & Fleiss (1979), Table 2: 6 targets (rows) scored by 4 judges (columns); the
# example of R psych's ``ICC`` help page (``sf``).
SF = pd.DataFrame(
    {
        "j1": [9, 6, 8, 7, 10, 6],
        "j2": [2, 1, 4, 1, 5, 2],
        "j3": [5, 3, 6, 2, 6, 4],
        "j4": [8, 2, 8, 6, 9, 7],
    }
)

# R irr's ``anxiety`` data (irr 0.84.1, data/anxiety.rda): 20 subjects, 3 raters.
ANXIETY = pd.DataFrame(
    {
        "rater1": [3, 3, 3, 4, 5, 5, 2, 3, 5, 2, 2, 6, 1, 5, 2, 2, 1, 2, 4, 3],
        "rater2": [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4],
        "rater3": [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2],
    }
)


def long_of(wide: pd.DataFrame, by: list[str] | None = None) -> pd.DataFrame:
    ids = ["item", *(by or [])]
    return wide.reset_index(names="item").melt(ids, var_name="judge", value_name="score")


LONG = {"item": "item", "rater": "judge", "value": "score"}


def scores(seed: int = 0, n: int = 120, k: int = 4, missing: float = 0.05) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    target = rng.normal(size=n)
    frame = pd.DataFrame(
        {f"r{j}": target + 0.3 * j + rng.normal(scale=0.8, size=n) for j in range(k)}
    )
    frame["group"] = rng.choice(["a", "b", "c"], size=n)
    frame.loc[rng.random(n) < missing, "r1"] = np.nan
    return frame


# ---------------------------------------------------------------- published values
def test_shrout_fleiss_table() -> None:
    """Shrout & Fleiss (1979): the six estimates they report for their Table 2 data."""
    res = kf.icc(SF)
    assert list(res["type"]) == FORMS
    assert list(res["mcgraw_wong"]) == [
        "ICC(1,1)", "ICC(A,1)", "ICC(C,1)", "ICC(1,k)", "ICC(A,k)", "ICC(C,k)",
    ]  # fmt: skip
    assert [round(float(v), 2) for v in res["icc"]] == [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    assert (res["n_items"] == 6).all() and (res["n_raters"] == 4).all()
    assert (res["n_dropped"] == 0).all()


def test_psych_icc_documented_example() -> None:
    """R psych 2.2.9, ``ICC(sf, lmer=FALSE)`` of the help page's example, printed to 15 digits."""
    want = pd.DataFrame(
        {
            "icc": [0.165741768405476, 0.289763779527559, 0.714840714840715,
                    0.442797133679269, 0.620050547598989, 0.909315542377069],
            "f": [1.79467849223947, 11.02724795640327, 11.02724795640327,
                  1.79467849223947, 11.02724795640327, 11.02724795640327],
            "df1": [5] * 6,
            "df2": [18, 15, 15, 18, 15, 15],
            "p_value": [0.164768808344639611, 0.000134566516484337, 0.000134566516484337,
                        0.164768808344639611, 0.000134566516484337, 0.000134566516484337],
            "ci_low": [-0.1329323248747509, 0.0187865133747120, 0.3424647650339254,
                       -0.8844421552381190, 0.0711368153025035, 0.6756747138163047],
            "ci_high": [0.722560062328121, 0.761084369648953, 0.945858259955360,
                        0.912415420340776, 0.927232040167722, 0.985891678169062],
        }
    )  # fmt: skip
    res = kf.icc(SF)
    assert res["description"].tolist() == [
        "Single raters absolute", "Single random raters", "Single fixed raters",
        "Average raters absolute", "Average random raters", "Average fixed raters",
    ]  # fmt: skip
    assert res["df1"].tolist() == want["df1"].tolist()
    assert res["df2"].tolist() == want["df2"].tolist()
    for col in [*NUMBERS, "f"]:
        np.testing.assert_allclose(res[col], want[col], rtol=1e-12, err_msg=col)


def test_psych_and_irr_on_anxiety() -> None:
    """R psych 2.2.9 ``ICC(anxiety, lmer=FALSE)``; irr 0.84.1 ``icc(anxiety, ...)`` agrees.

    irr's single and average ICC for its three models (oneway; twoway consistency; twoway
    agreement) are psych's ICC1/ICC1k, ICC3/ICC3k and ICC2/ICC2k; irr's agreement F test
    uses McGraw & Wong's approximate degrees of freedom, psych's and pingouin's do not.
    """
    want_icc = [0.175022381378693, 0.197998259355962, 0.216049382716049,
                0.388925729442971, 0.425498753117207, 0.452586206896552]  # fmt: skip
    want_low = [-0.0774465748654547, -0.0389106260931603, -0.0462578853236332,
                -0.2749234898786879, -0.1265827027094597, -0.1529212866540728]  # fmt: skip
    want_high = [0.484336093818820, 0.493573945972123, 0.522259078395644,
                 0.738065123579582, 0.745149288545210, 0.766330800234059]  # fmt: skip
    res = kf.icc(ANXIETY)
    np.testing.assert_allclose(res["icc"], want_icc, rtol=1e-12)
    np.testing.assert_allclose(res["ci_low"], want_low, rtol=1e-10)
    np.testing.assert_allclose(res["ci_high"], want_high, rtol=1e-12)
    f1, f3 = 1.63646228974498, 1.82677165354331
    np.testing.assert_allclose(res["f"], [f1, f3, f3, f1, f3, f3], rtol=1e-12)
    np.testing.assert_allclose(
        res["p_value"].iloc[[0, 2]], [0.0939307271289242, 0.0562012735474978], rtol=1e-10
    )
    assert res["df2"].tolist() == [40, 38, 38, 40, 38, 38]


@pytest.fixture
def pingouin() -> Any:
    return pytest.importorskip("pingouin")


def pingouin_icc(pg: Any, long: pd.DataFrame, **kwargs: Any) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pingouin's own deprecation notices
        return pg.intraclass_corr(long, "item", "judge", "score", **kwargs)


def test_pingouin_wine_example(pingouin: Any) -> None:
    """pingouin's documented example (``read_dataset("icc")``: 8 wines, 4 judges)."""
    data = pingouin.read_dataset("icc")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = pingouin.intraclass_corr(data, "Wine", "Judge", "Scores")
    res = kf.icc(data, item="Wine", rater="Judge", value="Scores")
    np.testing.assert_allclose(res["icc"], want["ICC"], rtol=1e-12)
    np.testing.assert_allclose(res["f"], want["F"], rtol=1e-12)
    np.testing.assert_allclose(res["p_value"], want["pval"], rtol=1e-9)
    assert res["df1"].tolist() == want["df1"].tolist()
    assert res["df2"].tolist() == want["df2"].tolist()
    ci_column = next(c for c in want.columns if c.startswith("CI95"))  # "CI95%" before 0.7
    ci = np.stack(want[ci_column].to_numpy())  # pingouin rounds its intervals to 2 decimals
    np.testing.assert_allclose(res["ci_low"], ci[:, 0], atol=0.005)
    np.testing.assert_allclose(res["ci_high"], ci[:, 1], atol=0.005)
    # As its documentation prints them (pingouin 0.5): ICC 0.728, 0.728, 0.729, 0.914, ...
    assert [round(float(v), 3) for v in res["icc"]] == [0.728, 0.728, 0.729, 0.914, 0.914, 0.915]


def test_pingouin_looped_over_groups_with_missing(pingouin: Any) -> None:
    """Per group and with missing scores: pingouin's ``nan_policy="omit"`` group by group."""
    data = scores(3, missing=0.1)
    res = kf.icc(data, ["r0", "r1", "r2", "r3"], by="group")
    for g, part in data.groupby("group"):
        long = long_of(part.drop(columns="group"))
        want = pingouin_icc(pingouin, long, nan_policy="omit")
        got = res[res["group"] == g]
        np.testing.assert_allclose(got["icc"], want["ICC"], rtol=1e-10)
        np.testing.assert_allclose(got["p_value"], want["pval"], rtol=1e-8)
        complete = part[["r0", "r1", "r2", "r3"]].notna().all(axis=1)
        assert (got["n_items"] == complete.sum()).all()
        assert (got["n_dropped"] == (~complete).sum()).all()
    assert res["n_dropped"].sum() > 0


def test_independent_anova_with_statsmodels() -> None:
    """The mean squares from sums are those of an ordinary two-way ANOVA (statsmodels)."""
    sm = pytest.importorskip("statsmodels.formula.api")
    anova_lm = pytest.importorskip("statsmodels.stats.anova").anova_lm
    data = scores(5, n=40, missing=0.0).drop(columns="group")
    long = long_of(data)
    fit = sm.ols("score ~ C(item) + C(judge)", data=long).fit()
    table = anova_lm(fit, typ=2)
    ms = table["sum_sq"] / table["df"]
    msr, msc, mse = ms["C(item)"], ms["C(judge)"], ms["Residual"]
    n, k = len(data), 4
    icc3 = (msr - mse) / (msr + (k - 1) * mse)
    icc2 = (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)
    res = kf.icc(data)
    np.testing.assert_allclose(res["icc"].iloc[[1, 2]], [icc2, icc3], rtol=1e-10)
    np.testing.assert_allclose(res["f"].iloc[2], msr / mse, rtol=1e-10)


# ---------------------------------------------------------------- Kendall's W
def test_kendall_irr_documented_example() -> None:
    """R irr 0.84.1, ``kendall(anxiety, TRUE)`` (its help page's example) and ``FALSE``."""
    res = kf.kendall_w(ANXIETY)
    np.testing.assert_allclose(res["w"], [0.53965687595437], rtol=1e-12)
    np.testing.assert_allclose(res["chi2"], [30.7604419293991], rtol=1e-12)
    np.testing.assert_allclose(res["p_value"], [0.0428834731269479], rtol=1e-10)
    assert res["df"].tolist() == [19]
    plain = kf.kendall_w(ANXIETY, correct=False)
    np.testing.assert_allclose(plain["w"], [0.501921470342523], rtol=1e-12)
    np.testing.assert_allclose(plain["chi2"], [28.6095238095238], rtol=1e-12)
    np.testing.assert_allclose(plain["p_value"], [0.0723803546937571], rtol=1e-10)


def test_kendall_against_scipy_friedman() -> None:
    """Friedman's statistic (scipy, tie-corrected) is m (n - 1) W_t, per group."""
    from scipy import stats

    data = scores(7, n=60, missing=0.1).round(0)  # rounded: many ties
    res = kf.kendall_w(data, by="group")
    for g, part in data.groupby("group"):
        complete = part[["r0", "r1", "r2", "r3"]].dropna().to_numpy()
        chi2, p = stats.friedmanchisquare(*complete)  # one argument per item
        m, n = complete.shape[1], complete.shape[0]
        got = res[res["group"] == g].iloc[0]
        np.testing.assert_allclose(got["chi2"], chi2, rtol=1e-10)
        np.testing.assert_allclose(got["p_value"], p, rtol=1e-9)
        np.testing.assert_allclose(got["w"], chi2 / (m * (n - 1)), rtol=1e-10)
        ranks = np.apply_along_axis(stats.rankdata, 0, complete)
        f = (m - 1) * got["w"] / (1 - got["w"])
        np.testing.assert_allclose(got["f"], f, rtol=1e-12)
        assert got["n_items"] == n and ranks.shape == (n, m)


def test_kendall_perfect_and_reversed() -> None:
    same = pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [10, 20, 30, 40, 50], "c": [2, 3, 4, 5, 6]})
    assert kf.kendall_w(same)["w"].iloc[0] == pytest.approx(1.0)
    two = pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [5, 4, 3, 2, 1]})
    assert kf.kendall_w(two)["w"].iloc[0] == pytest.approx(0.0)


# ---------------------------------------------------------------- every way in
@pytest.fixture
def duck() -> Iterator[Any]:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    con = duckdb.connect()
    yield con
    con.close()


def same_numbers(got: Any, want: pd.DataFrame, columns: list[str] = NUMBERS) -> None:
    if hasattr(got, "compute"):  # Dask in, Dask out
        got = got.compute()
    got = to_pandas(got).reset_index(drop=True)
    assert got.columns.tolist() == want.columns.tolist()
    assert got["n_items"].tolist() == want["n_items"].tolist()
    assert got["n_dropped"].tolist() == want["n_dropped"].tolist()
    np.testing.assert_allclose(
        got[columns].to_numpy(float), want[columns].to_numpy(float), rtol=1e-9, atol=1e-12
    )


def test_ways_in_give_the_same_numbers(tmp_path: Any) -> None:
    pl = pytest.importorskip("polars")
    dd = pytest.importorskip("dask.dataframe")
    data = scores(11)
    want = kf.icc(data, by="group")
    same_numbers(kf.icc(pl.from_pandas(data), by="group"), want)
    lazy = kf.icc(pl.from_pandas(data).lazy(), by="group")
    assert isinstance(lazy, pl.LazyFrame)
    same_numbers(lazy, want)
    same_numbers(kf.icc(dd.from_pandas(data, npartitions=3), by="group").compute(), want)
    path = tmp_path / "scores.parquet"
    data.to_parquet(path)
    same_numbers(kf.icc(path, by="group"), want)
    same_numbers(kf.icc(str(path), by="group"), want)
    long = long_of(data.drop(columns="group").assign(group=data["group"]), ["group"])
    long = long[long["judge"] != "group"]
    same_numbers(kf.icc(long, by="group", **LONG), want)
    same_numbers(kf.icc(pl.from_pandas(long).lazy(), by="group", **LONG), want)
    same_numbers(kf.icc(dd.from_pandas(long, npartitions=4), by="group", **LONG), want)
    assert data.kappa.icc(by="group").equals(want)


def test_kendall_ways_in(tmp_path: Any) -> None:
    pl = pytest.importorskip("polars")
    dd = pytest.importorskip("dask.dataframe")
    data = scores(12)
    want = kf.kendall_w(data, by="group")
    cols = ["w", "chi2", "p_value", "f", "f_p_value"]
    for got in (
        kf.kendall_w(pl.from_pandas(data), by="group"),
        kf.kendall_w(pl.from_pandas(data).lazy(), by="group"),
        kf.kendall_w(dd.from_pandas(data, npartitions=3), by="group").compute(),
        pl.from_pandas(data).kappa.kendall_w(by="group"),
    ):
        same_numbers(got, want, cols)
    path = tmp_path / "scores.csv"
    data.to_csv(path, index=False)
    same_numbers(kf.kendall_w(path, by="group"), want, cols)
    long = long_of(data, ["group"])
    same_numbers(kf.kendall_w(long, by="group", **LONG), want, cols)


def test_duckdb_sums_in_the_engine(duck: Any) -> None:
    data = scores(13)
    data.loc[::17, "group"] = None  # a missing key is a group of its own
    want = kf.icc(data, by="group")
    duck.register("wide", data)
    got = kf.icc(duck.sql("SELECT * FROM wide"), by="group")
    assert isinstance(got, pd.DataFrame)
    same_numbers(got, want)
    assert got["group"].isna().sum() == 6
    same_numbers(kf.icc(duck.sql("SELECT * FROM wide"), ["r2", "r0"]), kf.icc(data, ["r2", "r0"]))
    long = long_of(data, ["group"])
    duck.register("long", long)
    same_numbers(kf.icc(duck.sql("SELECT * FROM long"), by="group", **LONG), want)
    three = {"raters": ["r0", "r2", "r3"], **LONG}
    same_numbers(kf.icc(duck.sql("SELECT * FROM long"), **three), kf.icc(long, **three))


def test_duckdb_refuses_infinite_scores(duck: Any) -> None:
    duck.register("inf", SF.astype(float).assign(j3=[1, 2, np.inf, 4, 5, 6]))
    with pytest.raises(kf.KappaFrameError, match="infinite score"):
        kf.icc(duck.sql("SELECT * FROM inf"))


def test_duckdb_refusals(duck: Any) -> None:
    duck.register("text", pd.DataFrame({"a": ["x", "y"], "b": [1.0, 2.0]}))
    with pytest.raises(kf.KappaFrameError, match=r"column 'a' holds 'x'"):
        kf.icc(duck.sql("SELECT * FROM text"))
    duck.register("wide", SF)
    with pytest.raises(kf.KappaFrameError, match="ranks"):
        kf.kendall_w(duck.sql("SELECT * FROM wide"))


def spark_frame(session: Any, frame: pd.DataFrame) -> Any:
    rows = [
        tuple(None if isinstance(v, float) and np.isnan(v) else v for v in row)
        for row in frame.itertuples(index=False)
    ]
    types = {"item": "bigint", "judge": "string", "group": "string"}
    schema = ", ".join(f"{c} {types.get(c, 'double')}" for c in frame.columns)
    return session.createDataFrame(rows, schema)


def test_spark_sums_in_the_engine(spark_session: Any) -> None:
    data = scores(14, n=40)
    want = kf.icc(data, by="group")
    same_numbers(kf.icc(spark_frame(spark_session, data), by="group"), want)
    long = long_of(data, ["group"])
    got = kf.icc(spark_frame(spark_session, long), by="group", **LONG)
    same_numbers(got, want)


# ---------------------------------------------------------------- behaviour and bad input
def test_missing_scores_drop_the_item_and_say_so() -> None:
    data = SF.astype(float)
    data.loc[2, "j3"] = np.nan
    res = kf.icc(data)
    assert (res["n_items"] == 5).all() and (res["n_dropped"] == 1).all()
    np.testing.assert_allclose(res["icc"], kf.icc(SF.drop(index=2))["icc"], rtol=1e-12)
    # pandas' nullable integers and polars' nulls are missing too
    nullable = SF.astype("Int64")
    nullable.loc[2, "j3"] = pd.NA
    np.testing.assert_allclose(kf.icc(nullable)["icc"], res["icc"], rtol=1e-12)


def test_an_item_with_no_score_is_not_counted_as_dropped() -> None:
    data = SF.astype(float)
    data.loc[6] = np.nan
    res = kf.icc(data)
    assert (res["n_dropped"] == 0).all() and (res["n_items"] == 6).all()


def test_large_offset_keeps_precision() -> None:
    shifted = SF + 1e9
    np.testing.assert_allclose(kf.icc(shifted)["icc"], kf.icc(SF)["icc"], rtol=1e-9)


def test_sums_add_up_over_parts() -> None:
    data = scores(15).drop(columns="group")
    cols = [data[c].to_numpy() for c in data.columns]
    whole = icc_sums(cols, None, 1)
    parts = icc_sums([c[:50] for c in cols], None, 1) + icc_sums([c[50:] for c in cols], None, 1)
    np.testing.assert_allclose(icc_forms(parts)["icc"], icc_forms(whole)["icc"], rtol=1e-12)


def test_caller_frame_untouched() -> None:
    data = scores(16)
    before = data.copy()
    kf.icc(data, by="group")
    kf.kendall_w(data, by="group")
    pd.testing.assert_frame_equal(data, before)


def test_constant_ratings_warn_once() -> None:
    data = pd.DataFrame({"a": [3.0, 3, 3, 3], "b": [3.0, 3, 3, 3], "g": ["x", "x", "y", "y"]})
    with pytest.warns(kf.UndefinedKappaWarning, match="2 of 2 groups") as caught:
        res = kf.icc(data, by="g")
    assert len(caught) == 1
    assert res["icc"].isna().all() and res["p_value"].isna().all()
    with pytest.warns(kf.UndefinedKappaWarning) as caught:
        assert kf.kendall_w(data, by="g")["w"].isna().all()
    assert len(caught) == 1


def test_perfect_agreement_is_one() -> None:
    data = pd.DataFrame({"a": [1.0, 2, 3, 4], "b": [1.0, 2, 3, 4]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = kf.icc(data)
    np.testing.assert_allclose(res["icc"], 1.0)
    assert (res["p_value"] == 0).all()


def test_non_numeric_values_name_column_and_value() -> None:
    data = SF.astype(object)
    data.loc[3, "j2"] = "high"
    with pytest.raises(kf.KappaFrameError, match=r"column 'j2' holds 'high'"):
        kf.icc(data)
    with pytest.raises(kf.KappaFrameError, match=r"column 'label' holds 'x'"):
        kf.icc(pd.DataFrame({"label": ["x", "y"], "b": [1.0, 2.0]}))
    long = long_of(SF).astype({"score": object})
    long.loc[0, "score"] = "n/a"
    with pytest.raises(kf.KappaFrameError, match=r"column 'score' holds 'n/a'"):
        kf.kendall_w(long, **LONG)
    with pytest.raises(kf.KappaFrameError, match=r"column 'j1' holds True"):
        kf.icc(SF.assign(j1=SF["j1"] > 7))


def test_infinite_scores_are_refused() -> None:
    data = SF.astype(float).assign(j3=[1, 2, -np.inf, 4, 5, 6])
    for call in (kf.icc, kf.kendall_w):
        with pytest.raises(kf.KappaFrameError, match=r"column 'j3' holds -inf \(row 2\)"):
            call(data)
        with pytest.raises(kf.KappaFrameError, match=r"column 'score' holds -inf \(rater 'j3'"):
            call(long_of(data), **LONG)


def test_polars_non_numeric() -> None:
    pl = pytest.importorskip("polars")
    with pytest.raises(kf.KappaFrameError, match=r"column 'a' holds 'x'"):
        kf.icc(pl.DataFrame({"a": [None, "x", "y"], "b": [1.0, 2.0, 3.0]}))


def test_too_few_raters_or_items() -> None:
    with pytest.raises(kf.KappaFrameError, match="at least 2 raters"):
        kf.icc(SF[["j1"]])
    with pytest.raises(kf.KappaFrameError, match="at least 2 items"):
        kf.icc(SF.iloc[:1])
    gappy = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": [np.nan, 2.0, 3.0]})
    with pytest.raises(kf.KappaFrameError, match=r"1 complete item.*2 left out"):
        kf.kendall_w(gappy)
    one = long_of(SF)
    one = one[one["judge"] == "j1"]
    with pytest.raises(kf.KappaFrameError, match="at least 2 raters"):
        kf.icc(one, **LONG)


def test_one_small_group_is_nan_not_an_error() -> None:
    data = pd.concat([SF.assign(g="big"), SF.iloc[:1].assign(g="tiny")], ignore_index=True)
    with pytest.warns(kf.UndefinedKappaWarning, match="fewer than 2 complete items"):
        res = kf.icc(data, by="g")
    assert res.loc[res["g"] == "tiny", "icc"].isna().all()
    assert res.loc[res["g"] == "big", "icc"].notna().all()


def test_long_layout_options() -> None:
    long = long_of(SF)
    with pytest.raises(kf.KappaFrameError, match="value= missing"):
        kf.icc(long, item="item", rater="judge")
    with pytest.raises(kf.KappaFrameError, match="value column not found: 'nope'"):
        kf.icc(long, item="item", rater="judge", value="nope")
    twice = pd.concat([long, long.iloc[:1]], ignore_index=True)
    with pytest.raises(kf.KappaFrameError, match="more than once"):
        kf.icc(twice, **LONG)
    first = kf.icc(twice, duplicates="first", **LONG)
    np.testing.assert_allclose(first["icc"], kf.icc(SF)["icc"], rtol=1e-12)
    picked = kf.icc(long, ["j1", "j3"], **LONG)
    np.testing.assert_allclose(picked["icc"], kf.icc(SF, ["j1", "j3"])["icc"], rtol=1e-12)


def test_ci_none_and_bad_ci() -> None:
    res = kf.icc(SF, ci=None)
    assert "ci_low" not in res.columns and res.columns[-1] == "p_value"
    with pytest.raises(kf.KappaFrameError, match="ci"):
        kf.icc(SF, ci=95)
    with pytest.raises(kf.KappaFrameError, match="correct"):
        kf.kendall_w(SF, correct="yes")  # type: ignore[arg-type]
    narrow = kf.icc(SF, ci=0.5)
    wide = kf.icc(SF)
    assert (narrow["ci_low"] > wide["ci_low"]).all()
    assert (narrow["ci_high"] < wide["ci_high"]).all()


def test_by_column_named_like_output() -> None:
    with pytest.raises(kf.KappaFrameError, match="by column 'type'"):
        kf.icc(SF.assign(type="x"), by="type")


def test_a_row_number_column_is_not_taken_as_a_rater() -> None:
    data = scores(17).drop(columns="group")
    with_ids = data.reset_index(names="item_id")
    with pytest.raises(kf.KappaFrameError, match=r"column 'item_id' numbers the rows") as info:
        kf.icc(with_ids)
    assert info.value.option == "raters"
    named = kf.icc(with_ids, ["r0", "r1", "r2", "r3"])
    np.testing.assert_allclose(named["icc"], kf.icc(data)["icc"], rtol=1e-12)


def test_duckdb_large_offset_keeps_precision(duck: Any) -> None:
    data = scores(18).drop(columns="group") + 1e9
    duck.register("far", data)
    got = kf.icc(duck.sql("SELECT * FROM far"))
    np.testing.assert_allclose(got["icc"], kf.icc(data - 1e9)["icc"], rtol=1e-8)
    long = long_of(data)
    duck.register("far_long", long)
    got = kf.icc(duck.sql("SELECT * FROM far_long"), **LONG)
    np.testing.assert_allclose(got["icc"], kf.icc(data - 1e9)["icc"], rtol=1e-8)


# ---------------------------------------------------------------- properties
SCORE_MATRICES = st.integers(3, 12).flatmap(
    lambda n: st.lists(st.lists(st.integers(0, 9), min_size=n, max_size=n), min_size=2, max_size=5)
)


def frame_of(columns: list[list[int]]) -> pd.DataFrame:
    return pd.DataFrame({f"r{j}": col for j, col in enumerate(columns)}, dtype=float)


def well_posed(columns: list[list[int]]) -> bool:
    """Items differ and raters do not fit them exactly: no mean square near 0.

    Where one is (e.g. every item scored alike but one), the ICC is a ratio of two
    differences of nearly equal sums and its last digits are rounding, which a shift,
    a scale or another group's data may change.
    """
    x = np.asarray(columns, dtype=float).T  # items x raters
    items, raters = x.mean(axis=1), x.mean(axis=0)
    resid = x - items[:, None] - raters[None, :] + x.mean()
    return bool(np.var(items) > 0.05 and np.mean(resid**2) > 0.05)


@settings(max_examples=40, deadline=None)
@given(SCORE_MATRICES, st.floats(-1e3, 1e3), st.floats(0.1, 100), st.randoms())
def test_icc_unchanged_by_row_order_shift_and_scale(
    columns: list[list[int]], shift: float, scale: float, random: Any
) -> None:
    assume(well_posed(columns))
    data = frame_of(columns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        raters = list(data.columns)  # named: a few items scored all differently look like ids
        want = kf.icc(data, raters)
        order = list(range(len(data)))
        random.shuffle(order)
        moved = kf.icc(data.iloc[order] * scale + shift, raters)
    np.testing.assert_allclose(moved["icc"], want["icc"], rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(moved["f"], want["f"], rtol=1e-7, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(SCORE_MATRICES)
def test_kendall_w_bounds_and_monotone_invariance(columns: list[list[int]]) -> None:
    data = frame_of(columns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        raters = list(data.columns)  # named: a few items scored all differently look like ids
        w = kf.kendall_w(data, raters)["w"].iloc[0]
        # A strictly increasing transform of each rater's scores keeps every rank.
        bent = kf.kendall_w(np.exp(data / 3) * 2 - 5, raters)["w"].iloc[0]
    if np.isnan(w):
        assert np.isnan(bent)
        return
    assert -1e-12 <= w <= 1 + 1e-12
    assert bent == pytest.approx(w, rel=1e-12, abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(SCORE_MATRICES, SCORE_MATRICES)
# An error mean square and an ICC2k bound within rounding of 0: F and the bound infinite.
@example([[0, 0, 0], [0, 0, 1]], [[1, 0, 1], [1, 3, 1]])
# An ICC2 bound 5e-8 from -1: the ICC2k bound -3.9e7, its last 8 digits rounding.
@example([[0, 3, 9, 3, 4, 7], [0, 9, 4, 0, 1, 3]], [[2, 5, 5], [9, 5, 5]])
def test_icc_of_groups_is_icc_of_each_group(a: list[list[int]], b: list[list[int]]) -> None:
    k = min(len(a), len(b))
    assume(well_posed(a[:k]) and well_posed(b[:k]))
    first, second = frame_of(a[:k]), frame_of(b[:k])
    both = pd.concat([first.assign(g="a"), second.assign(g="b")], ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        # The raters named: a few items scored all differently may look like ids.
        raters = list(first.columns)
        grouped = kf.icc(both, raters, by="g")
        alone = pd.concat([kf.icc(first, raters), kf.icc(second, raters)], ignore_index=True)
    cols = ["icc", "f", "p_value", "ci_low", "ci_high"]
    np.testing.assert_allclose(
        _single_scale(grouped, k)[cols], _single_scale(alone, k)[cols], rtol=1e-12, atol=1e-12
    )


def _single_scale(res: pd.DataFrame, k: int) -> pd.DataFrame:
    """The average forms' ICC and bounds ``y`` as one rater's, ``y / (k - (k - 1) y)``.

    Spearman-Brown's step up ``k x / (1 + (k - 1) x)`` amplifies rounding without bound as
    ``x`` nears ``-1 / (k - 1)`` (a bound of -3.9e7 from one 5e-8 away); the step back is
    well conditioned (its slope is at most ``k`` where ``y <= 1``), so two computations of
    the same numbers agree there to rounding.
    """
    out = res.copy()
    average = out["type"].str.endswith("k").to_numpy()
    for col in ("icc", "ci_low", "ci_high"):
        y = out[col].to_numpy(dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            x = np.where(np.isneginf(y), -1.0 / (k - 1), y / (k - (k - 1) * y))
        out[col] = np.where(average, x, y)
    return out


def test_a_rater_absent_from_a_group_is_said() -> None:
    three = long_of(SF[["j1", "j2", "j3"]]).assign(team="y")  # j4 scored nothing in y
    long = pd.concat([long_of(SF).assign(team="x"), three], ignore_index=True)
    with pytest.warns(kf.UndefinedKappaWarning, match=r"a rater with no score in a group"):
        res = kf.icc(long, by="team", **LONG)
    y = res[res["team"] == "y"]
    assert y["icc"].isna().all() and y["n_items"].eq(0).all() and y["n_dropped"].eq(6).all()
    x = res[res["team"] == "x"]
    np.testing.assert_allclose(x["icc"], kf.icc(SF)["icc"], rtol=1e-12)
    picked = kf.icc(long, ["j1", "j2", "j3"], by="team", **LONG)
    np.testing.assert_allclose(
        picked.loc[picked["team"] == "y", "icc"], kf.icc(SF[["j1", "j2", "j3"]])["icc"]
    )


def test_duckdb_only_sums_come_back(duck: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """What travels back from the engine: a few rows per group, never the scores."""
    from kappaframe._frames import engines

    sizes: list[int] = []
    real = engines._to_pandas

    def recorded(query: Any) -> Any:
        out = real(query)
        sizes.append(len(out))
        return out

    monkeypatch.setattr(engines, "_to_pandas", recorded)
    data = scores(19, n=600)  # 600 items, 3 groups
    duck.register("many", data)
    kf.icc(duck.sql("SELECT * FROM many"), by="group")
    assert sizes and max(sizes) <= 3  # one row per group (and a LIMIT 1 shift)
    sizes.clear()
    duck.register("many_long", long_of(data, ["group"]))
    kf.icc(duck.sql("SELECT * FROM many_long"), by="group", **LONG)
    assert sizes and max(sizes) <= 3 * 4  # per group, or per group and rater (4 raters)


# ---- one way in: icc, kendall_w, ccc and bland_altman read numeric ratings alike ----


def test_every_numeric_statistic_names_a_value_that_is_not_a_number() -> None:
    data = SF.astype(object)
    data.loc[3, "j2"] = "high"
    for call in (kf.icc, kf.kendall_w, kf.ccc, kf.bland_altman):
        with pytest.raises(kf.KappaFrameTypeError, match=r"column 'j2' holds 'high' \(str\)"):
            call(data)


def test_every_numeric_statistic_names_an_infinite_score_and_its_row() -> None:
    data = SF.astype(float).assign(j3=[1, 2, -np.inf, 4, 5, 6])
    for call in (kf.icc, kf.kendall_w, kf.ccc, kf.bland_altman):
        with pytest.raises(kf.KappaFrameError, match=r"column 'j3' holds -inf \(row 2\)"):
            call(data)
        with pytest.raises(kf.KappaFrameError, match=r"column 'score' holds -inf \(rater 'j3'"):
            call(long_of(data), **LONG)


def test_every_numeric_statistic_refuses_a_column_that_numbers_the_rows() -> None:
    data = pd.DataFrame({"id": np.arange(30), "a": np.arange(30) % 7, "b": np.arange(30) % 5})
    for call in (kf.icc, kf.kendall_w, kf.ccc, kf.bland_altman):
        with pytest.raises(kf.KappaFrameError, match=r"column 'id' numbers the rows"):
            call(data)
        call(data, ["a", "b"])  # named raters: no guess to refuse


def test_every_numeric_statistic_takes_the_long_layout_alike() -> None:
    long = long_of(SF)
    for call in (kf.icc, kf.kendall_w, kf.ccc, kf.bland_altman):
        with pytest.raises(kf.KappaFrameError, match="value= missing"):
            call(long, item="item", rater="judge")
        with pytest.raises(kf.KappaFrameError, match="more than once"):
            call(pd.concat([long, long]), **LONG)


def test_engines_refuse_infinite_scores_and_unknown_rater_ids_alike(duck: Any) -> None:
    duck.register("inf", SF.astype(float).assign(j3=[1, 2, np.inf, 4, 5, 6]))
    for call in (kf.icc, kf.ccc, kf.bland_altman):
        with pytest.raises(kf.KappaFrameError, match="infinite score"):
            call(duck.sql("SELECT * FROM inf"))
    duck.register("long", long_of(SF))
    for call in (kf.icc, kf.ccc, kf.bland_altman):
        with pytest.raises(kf.KappaFrameError, match=r"'j9'"):
            call(duck.sql("SELECT * FROM long"), ["j1", "j9"], **LONG)
    duck.register("text", pd.DataFrame({"a": ["x", "y"], "b": [1.0, 2.0]}))
    for call in (kf.icc, kf.ccc):
        with pytest.raises(kf.KappaFrameTypeError, match=r"column 'a' holds 'x' \(String\)"):
            call(duck.sql("SELECT * FROM text"))


def test_a_form_whose_denominator_is_zero_is_undefined_not_huge() -> None:
    # Two raters, three items: MSR + (MSC - MSE) / n is 0 here, so ICC2k has no value;
    # rounding alone would make it about -1.5e15 (and another value after scaling).
    data = pd.DataFrame({"r0": [0.0, 8.0, 7.0], "r1": [8.0, 0.0, 9.0]})
    with pytest.warns(kf.UndefinedKappaWarning, match="a denominator is 0"):
        res = kf.icc(data).set_index("type")
    assert np.isnan(res.loc["ICC2k", ["icc", "ci_low", "ci_high"]].astype(float)).all()
    others = res.drop(index="ICC2k")
    assert np.isfinite(others["icc"]).all() and (others["icc"].abs() < 10).all()
    with pytest.warns(kf.UndefinedKappaWarning):
        scaled = kf.icc(data * 0.109375).set_index("type")
    np.testing.assert_allclose(scaled["icc"], res["icc"], rtol=1e-9)
