"""Lin's concordance correlation and Bland-Altman limits of every rater pair.

References:

- Bland, J. M. & Altman, D. G. (1986). Statistical methods for assessing agreement between
  two methods of clinical measurement. The Lancet 327(8476), 307-310. The peak expiratory
  flow rates (l/min) of 17 people, first reading with the Wright peak flow meter and with
  the mini Wright meter (their Table 1; the same data are in the examples of R's
  ``epiR::epi.ccc``). Published: r = 0.94; mean difference -2.1, SD 38.8; limits (2 SD)
  -79.7 and 75.5; 95% intervals (t = 2.12, 16 df) of the bias -22.0 to 17.8, of the lower
  limit -114.3 to -45.1 and of the upper limit 40.9 to 110.1. The paper computed the limits
  and intervals from the rounded bias and SD (and the rounded standard errors 9.4 and
  16.3), so ours agree to 0.1 (limits) and 0.2 (intervals), not more.
- Lin (1989, 2000) and R's ``epiR::epi.ccc`` (``ci = "z-transform"``): the coefficient and
  its interval are checked against an independent transcription of ``epi.ccc``'s
  computation, done per pair on the raw ratings (``_epi_ccc`` below), to 1e-12.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

import kappaframe as kf
from kappaframe._stats.concordance import PairMoments
from tests.conftest import to_pandas

WRIGHT = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
MINI = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259, 350, 451]
PEFR = pd.DataFrame({"wright": WRIGHT, "mini_wright": MINI})

RATERS = ["r0", "r1", "r2", "r3"]
BY = "site"


def make_scores() -> pd.DataFrame:
    """90 items, 4 raters on a 0-100 scale, ~10% missing, 3 sites of unequal size.

    Each rater is the item's true score with a rater-specific offset and stretch plus
    noise, so the pairs have different biases and concordances.
    """
    rng = np.random.default_rng(20261125)
    n = 90
    truth = rng.normal(50, 15, n)
    data: dict[str, Any] = {BY: rng.choice(["north", "south", "west"], n, p=[0.45, 0.35, 0.2])}
    for i, name in enumerate(RATERS):
        score = 2.0 * i + (1 + 0.05 * i) * truth + rng.normal(0, 5 + i, n)
        score[rng.random(n) < 0.1] = np.nan
        data[name] = np.round(score, 1)
    return pd.DataFrame(data)


SCORES = make_scores()
WIDE = SCORES[RATERS]


def to_long(df: pd.DataFrame) -> pd.DataFrame:
    wide = df.assign(item=[f"i{i:03d}" for i in range(len(df))])
    long = wide.melt(id_vars=["item", BY], value_vars=RATERS, var_name="rater", value_name="score")
    return long.dropna(subset=["score"]).reset_index(drop=True)


def _epi_ccc(x: np.ndarray, y: np.ndarray, level: float = 0.95) -> dict[str, float]:
    """R's ``epiR::epi.ccc(x, y, ci = "z-transform")``, transcribed line by line.

    epi.ccc's ``x`` is our ``rater_b`` and ``y`` our ``rater_a`` for the signs of the
    shifts; the coefficient and its interval do not depend on the order.
    """
    keep = ~np.isnan(x) & ~np.isnan(y)
    x, y = x[keep], y[keep]
    zv = scipy_stats.norm.ppf(1 - (1 - level) / 2)
    k = len(y)
    yb, sy2, sd1 = y.mean(), y.var(ddof=1) * (k - 1) / k, y.std(ddof=1)
    xb, sx2, sd2 = x.mean(), x.var(ddof=1) * (k - 1) / k, x.std(ddof=1)
    r = np.corrcoef(x, y)[0, 1]
    sxy = r * np.sqrt(sx2 * sy2)
    p = 2 * sxy / (sx2 + sy2 + (yb - xb) ** 2)
    v = sd1 / sd2
    u = (yb - xb) / (sx2 * sy2) ** 0.25
    sep = np.sqrt(
        (
            (1 - r**2) * p**2 * (1 - p**2) / r**2
            + 2 * p**3 * (1 - p) * u**2 / r
            - 0.5 * p**4 * u**4 / r**2
        )
        / (k - 2)
    )
    t = np.log((1 + p) / (1 - p)) / 2
    set_ = sep / (1 - p**2)
    llt, ult = np.tanh(t - zv * set_), np.tanh(t + zv * set_)
    return {"n": k, "ccc": p, "r": r, "v": v, "u": u, "se": sep, "low": llt, "high": ult}


def _bland_altman(a: np.ndarray, b: np.ndarray, agreement: float, level: float) -> dict[str, float]:
    """Bland & Altman (1986) directly from the differences, with SciPy's t quantile."""
    keep = ~np.isnan(a) & ~np.isnan(b)
    d = a[keep] - b[keep]
    n = len(d)
    bias, sd = d.mean(), d.std(ddof=1)
    t = scipy_stats.t.ppf((1 + level) / 2, n - 1)
    se_bias, se_loa = sd / np.sqrt(n), np.sqrt(3 * sd**2 / n)
    low, high = bias - agreement * sd, bias + agreement * sd
    return {
        "n": n,
        "bias": bias,
        "sd": sd,
        "loa_low": low,
        "loa_high": high,
        "bias_ci_low": bias - t * se_bias,
        "bias_ci_high": bias + t * se_bias,
        "loa_low_ci_low": low - t * se_loa,
        "loa_low_ci_high": low + t * se_loa,
        "loa_high_ci_low": high - t * se_loa,
        "loa_high_ci_high": high + t * se_loa,
    }


# ----------------------------------------------------------------------------- literature


def test_bland_altman_1986_peak_flow_meters() -> None:
    res = kf.bland_altman(PEFR, ["wright", "mini_wright"], agreement=2).iloc[0]
    assert int(res["n"]) == 17
    assert round(float(res["bias"]), 1) == -2.1
    assert round(float(res["sd"]), 1) == 38.8
    published = {
        "loa_low": (-79.7, 0.1),
        "loa_high": (75.5, 0.1),
        "bias_ci_low": (-22.0, 0.1),
        "bias_ci_high": (17.8, 0.1),
        "loa_low_ci_low": (-114.3, 0.2),
        "loa_low_ci_high": (-45.1, 0.2),
        "loa_high_ci_low": (40.9, 0.2),
        "loa_high_ci_high": (110.1, 0.2),
    }
    for column, (value, tolerance) in published.items():
        assert abs(float(res[column]) - value) <= tolerance, (column, float(res[column]))


def test_bland_altman_1986_correlation_and_ccc() -> None:
    res = kf.ccc(PEFR, ["wright", "mini_wright"]).iloc[0]
    assert round(float(res["pearson_r"]), 2) == 0.94  # "r = 0.94" in the paper
    want = _epi_ccc(np.asarray(MINI, float), np.asarray(WRIGHT, float))
    assert float(res["ccc"]) == pytest.approx(want["ccc"], abs=1e-12)
    assert float(res["ci_low"]) == pytest.approx(want["low"], abs=1e-12)
    assert float(res["ci_high"]) == pytest.approx(want["high"], abs=1e-12)
    assert float(res["se"]) == pytest.approx(want["se"], abs=1e-12)
    # Lin's C_b = ccc / r; epi.ccc's shifts put y (our rater_a) first: sd(y) / sd(x), y - x.
    assert float(res["bias_correction"]) == pytest.approx(want["ccc"] / want["r"], abs=1e-12)
    assert float(res["scale_shift"]) == pytest.approx(want["v"], abs=1e-12)
    assert float(res["location_shift"]) == pytest.approx(want["u"], abs=1e-12)


# ----------------------------------------------------------------------------- oracles


@pytest.mark.parametrize("level", [0.95, 0.9])
def test_ccc_of_every_pair_and_group_matches_epi_ccc(level: float) -> None:
    res = kf.ccc(SCORES, by=BY, ci=level)
    assert list(res.columns) == [
        BY,
        "rater_a",
        "rater_b",
        "n",
        "ccc",
        "pearson_r",
        "bias_correction",
        "scale_shift",
        "location_shift",
        "se",
        "ci_low",
        "ci_high",
    ]
    assert len(res) == 3 * 6
    for row in res.itertuples(index=False):
        part = SCORES[SCORES[BY] == row[0]]
        want = _epi_ccc(part[row.rater_b].to_numpy(), part[row.rater_a].to_numpy(), level)
        assert row.n == want["n"]
        for got, key in ((row.ccc, "ccc"), (row.ci_low, "low"), (row.ci_high, "high")):
            assert got == pytest.approx(want[key], abs=1e-12), key
        assert row.pearson_r == pytest.approx(want["r"], abs=1e-12)


@pytest.mark.parametrize(("agreement", "level"), [(1.96, 0.95), (2.0, 0.9)])
def test_bland_altman_of_every_pair_and_group_matches_the_differences(
    agreement: float, level: float
) -> None:
    res = kf.bland_altman(SCORES, by=BY, agreement=agreement, ci=level)
    assert len(res) == 18
    for row in res.to_dict("records"):
        part = SCORES[SCORES[BY] == row[BY]]
        want = _bland_altman(
            part[row["rater_a"]].to_numpy(), part[row["rater_b"]].to_numpy(), agreement, level
        )
        for key, value in want.items():
            assert row[key] == pytest.approx(value, abs=1e-10), key


def test_n_counts_the_items_both_rated() -> None:
    res = kf.ccc(WIDE)
    for row in res.itertuples(index=False):
        both = SCORES[row.rater_a].notna() & SCORES[row.rater_b].notna()
        assert row.n == int(both.sum())
    assert len(set(res["n"])) > 1  # the missing ratings differ between pairs


def test_ccc_of_a_rater_with_itself_is_one_and_symmetric() -> None:
    twice = WIDE.assign(copy=WIDE["r0"])
    res = kf.ccc(twice, ["r0", "copy", "r1"])
    assert float(res["ccc"].iloc[0]) == pytest.approx(1.0, abs=1e-12)
    swapped = kf.ccc(WIDE, ["r1", "r0"])
    forward = kf.ccc(WIDE, ["r0", "r1"])
    assert float(swapped["ccc"].iloc[0]) == pytest.approx(float(forward["ccc"].iloc[0]), 1e-14)
    back = kf.bland_altman(WIDE, ["r1", "r0"])["bias"].iloc[0]
    assert float(back) == pytest.approx(-float(kf.bland_altman(WIDE, ["r0", "r1"])["bias"][0]))


def test_a_large_common_offset_loses_no_digits() -> None:
    # 1e9 + 26.1 is stored to about 1e-7: the inputs themselves differ that much. Sums of
    # squares about zero would lose every digit here (1e18 n against a spread of 225 n).
    shifted = WIDE + 1e9
    far = kf.ccc(shifted)
    near = kf.ccc(WIDE)
    np.testing.assert_allclose(far["ccc"], near["ccc"], rtol=0, atol=1e-6)
    ba_far, ba_near = kf.bland_altman(shifted), kf.bland_altman(WIDE)
    np.testing.assert_allclose(ba_far["sd"], ba_near["sd"], rtol=1e-6)


def test_sums_of_parts_add_up_to_the_whole() -> None:
    values = SCORES[RATERS].to_numpy().T
    group = pd.factorize(SCORES[BY], sort=True)[0]
    whole = PairMoments.of(values, group, 3)
    half = 37
    parts = PairMoments.of(values[:, :half], group[:half], 3) + PairMoments.of(
        values[:, half:], group[half:], 3
    )
    np.testing.assert_array_equal(parts.n, whole.n)
    for name in ("mean", "ss", "cross"):
        np.testing.assert_allclose(getattr(parts, name), getattr(whole, name), atol=1e-9)


def test_matrix_holds_the_tidy_numbers() -> None:
    square = kf.ccc(WIDE, matrix=True)
    tidy = kf.ccc(WIDE)
    assert list(square.columns) == RATERS
    np.testing.assert_allclose(np.diag(square.to_numpy()), 1.0)
    for row in tidy.itertuples(index=False):
        assert square.loc[row.rater_a, row.rater_b] == pytest.approx(row.ccc, abs=1e-14)
        assert square.loc[row.rater_b, row.rater_a] == pytest.approx(row.ccc, abs=1e-14)
    grouped = kf.ccc(SCORES, by=BY, matrix=True)
    assert grouped.index.names == [BY, "rater"]
    assert len(grouped) == 3 * 4


def test_reference_pairs_each_rater_with_it() -> None:
    res = kf.bland_altman(WIDE, reference="r0")
    assert list(zip(res["rater_a"], res["rater_b"], strict=True)) == [
        ("r1", "r0"),
        ("r2", "r0"),
        ("r3", "r0"),
    ]
    both = kf.bland_altman(WIDE, ["r1", "r0"])
    assert float(res["bias"].iloc[0]) == pytest.approx(float(both["bias"].iloc[0]), abs=1e-12)


def test_ci_none_leaves_the_intervals_out() -> None:
    assert "ci_low" not in kf.ccc(WIDE, ci=None).columns
    assert list(kf.bland_altman(WIDE, ci=None).columns) == [
        "rater_a",
        "rater_b",
        "n",
        "bias",
        "sd",
        "loa_low",
        "loa_high",
    ]


def test_the_caller_frame_is_not_modified() -> None:
    before = SCORES.copy()
    kf.ccc(SCORES, by=BY)
    kf.bland_altman(to_long(SCORES), item="item", rater="rater", value="score")
    pd.testing.assert_frame_equal(SCORES, before)


def test_the_accessor_is_the_function() -> None:
    pd.testing.assert_frame_equal(SCORES.kappa.ccc(by=BY), kf.ccc(SCORES, by=BY))
    pd.testing.assert_frame_equal(
        WIDE.kappa.bland_altman(RATERS[:2]), kf.bland_altman(WIDE, RATERS[:2])
    )


def test_label_names_the_long_layouts_value_column_too() -> None:
    long = to_long(SCORES)
    by_value = kf.ccc(long, item="item", rater="rater", value="score")
    by_label = kf.ccc(long, item="item", rater="rater", label="score")
    pd.testing.assert_frame_equal(by_value, by_label)


# ----------------------------------------------------------------------------- bad input


def test_a_value_that_is_not_a_number_is_named() -> None:
    bad = WIDE.astype({"r2": object})
    bad.loc[5, "r2"] = "n/a"
    with pytest.raises(kf.KappaFrameTypeError, match=r"column 'r2' holds 'n/a' \(str\)"):
        kf.ccc(bad)
    long = to_long(SCORES).astype({"score": object})
    long.loc[3, "score"] = "high"
    with pytest.raises(kf.KappaFrameTypeError, match=r"column 'score' holds 'high'"):
        kf.bland_altman(long, item="item", rater="rater", value="score")
    flags = pd.DataFrame({"a": [True, False, True], "b": [1.0, 2.0, 3.0]})
    with pytest.raises(kf.KappaFrameTypeError, match="column 'a' holds True"):
        kf.ccc(flags)
    infinite = pd.DataFrame({"a": [1.0, np.inf, 3.0], "b": [1.0, 2.0, 3.0]})
    with pytest.raises(kf.KappaFrameError, match="column 'a' holds inf"):
        kf.ccc(infinite)


def test_constant_ratings_give_nan_and_one_warning() -> None:
    df = WIDE.assign(flat=5.0, flat2=5.0)
    with pytest.warns(kf.UndefinedKappaWarning) as caught:
        res = kf.ccc(df)
    assert len(caught) == 1
    assert "ccc is undefined (NaN) for 9 of 15" in str(caught[0].message)
    flat = res[(res["rater_a"] == "flat") | (res["rater_b"] == "flat")]
    assert flat["ccc"].isna().all() and flat["ci_low"].isna().all()
    assert res.loc[res["rater_b"] == "r1", "ccc"].notna().all()
    # Bland-Altman is defined for constant ratings: the differences vary.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ba = kf.bland_altman(df, ["r0", "flat"])
    assert float(ba["bias"].iloc[0]) == pytest.approx(float((SCORES["r0"] - 5.0).mean()))


def test_a_pair_sharing_one_item_is_undefined_with_one_warning() -> None:
    df = pd.DataFrame({"a": [1.0, 2.0, 3.0, np.nan], "b": [np.nan, np.nan, 3.0, 4.0]})
    with pytest.warns(kf.UndefinedKappaWarning, match="fewer than 2 items rated by both"):
        res = kf.bland_altman(df)
    assert int(res["n"].iloc[0]) == 1 and np.isnan(res["sd"].iloc[0])


def test_fewer_than_two_items_is_an_error() -> None:
    with pytest.raises(kf.KappaFrameError, match="needs at least 2 items; the input has 1"):
        kf.ccc(pd.DataFrame({"a": [1.0], "b": [2.0]}))
    with pytest.raises(kf.KappaFrameError, match="at least 2 raters"):
        kf.bland_altman(pd.DataFrame({"a": [1.0, 2.0]}))


@pytest.mark.parametrize(
    ("options", "match", "option"),
    [
        ({"value": "score", "label": "score"}, "name the same column", "value"),
        ({"item": "item"}, "rater=, value= missing", "item"),
        ({"label": "score"}, "item=, rater= missing", "label"),
        ({"ci": 1.5}, "ci", "ci"),
        ({"agreement": -1}, "agreement must be", "agreement"),
        ({"duplicates": "keep"}, "duplicates", "duplicates"),
    ],
)
def test_bad_options_are_named(options: dict[str, Any], match: str, option: str) -> None:
    with pytest.raises(kf.KappaFrameError, match=match) as info:
        kf.bland_altman(to_long(SCORES), **options)
    assert info.value.option == option


def test_matrix_must_be_a_flag() -> None:
    with pytest.raises(kf.KappaFrameTypeError, match="matrix must be True or False") as info:
        kf.ccc(WIDE, matrix="yes")
    assert info.value.option == "matrix"


def test_a_duplicate_rating_is_refused_unless_asked() -> None:
    long = to_long(SCORES)
    twice = pd.concat([long, long.iloc[[0]]], ignore_index=True)
    with pytest.raises(kf.KappaFrameError, match="more than once"):
        kf.ccc(twice, item="item", rater="rater", value="score")
    first = kf.ccc(twice, item="item", rater="rater", value="score", duplicates="first")
    pd.testing.assert_frame_equal(first, kf.ccc(long, item="item", rater="rater", value="score"))


@pytest.fixture
def duckdb_con() -> Any:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    con = duckdb.connect()
    yield con
    con.close()


@pytest.mark.parametrize("function", ["ccc", "bland_altman"])
def test_duckdb_sums_in_the_engine_with_the_same_numbers(duckdb_con: Any, function: str) -> None:
    call = getattr(kf, function)
    # NULL and NaN both missing, a float and an integer column, a missing group key.
    df = SCORES.assign(r3=SCORES["r3"].round().astype("Int64"))
    df.loc[[3, 4], BY] = None
    relation = duckdb_con.sql(
        "SELECT site, r0, CASE WHEN r1 > 60 THEN 'NaN'::DOUBLE ELSE r1 END AS r1, r2, r3 FROM df"
    )
    local = df.assign(r1=df["r1"].where(~(df["r1"] > 60), np.nan))
    got = call(relation, by=BY, reference="r2")
    want = call(local, by=BY, reference="r2")
    assert isinstance(got, pd.DataFrame)
    assert got[BY].isna().tolist() == want[BY].isna().tolist()
    assert (
        got[[BY, "rater_a", "rater_b"]]
        .astype(str)
        .equals(want[[BY, "rater_a", "rater_b"]].astype(str))
    )
    numbers = [c for c in want.columns if c not in (BY, "rater_a", "rater_b")]
    np.testing.assert_allclose(
        got[numbers].to_numpy(float), want[numbers].to_numpy(float), rtol=0, atol=1e-9
    )


@pytest.mark.parametrize("function", ["ccc", "bland_altman"])
def test_duckdb_long_layout_joins_in_the_engine(duckdb_con: Any, function: str) -> None:
    call = getattr(kf, function)
    long = to_long(SCORES)
    long.loc[[5, 6], BY] = None  # a missing group key: a group of its own
    long.loc[long["rater"] == "r3", "score"] = np.nan  # a rater with no rating at all
    with pytest.warns(kf.UndefinedKappaWarning, match="15 of 24"):  # r3 and the null group
        got = call(duckdb_con.from_df(long), by=BY, **LONG)
    with pytest.warns(kf.UndefinedKappaWarning, match="15 of 24"):
        want = call(long, by=BY, **LONG)
    assert (
        got[[BY, "rater_a", "rater_b"]]
        .astype(str)
        .equals(want[[BY, "rater_a", "rater_b"]].astype(str))
    )
    numbers = [c for c in want.columns if c not in (BY, "rater_a", "rater_b")]
    np.testing.assert_allclose(
        got[numbers].to_numpy(float), want[numbers].to_numpy(float), rtol=0, atol=1e-9
    )
    chosen = call(duckdb_con.from_df(long), ["r2", "r0"], **LONG)
    assert chosen[["rater_a", "rater_b"]].to_numpy().tolist() == [["r2", "r0"]]


def test_duckdb_without_groups_and_a_large_offset(duckdb_con: Any) -> None:
    shifted = WIDE + 1e9
    got = kf.bland_altman(duckdb_con.from_df(shifted))
    np.testing.assert_allclose(got["sd"], kf.bland_altman(WIDE)["sd"], rtol=1e-6)
    square = kf.ccc(duckdb_con.from_df(WIDE), matrix=True)
    pd.testing.assert_frame_equal(square, kf.ccc(WIDE, matrix=True), rtol=0, atol=1e-12)


def test_duckdb_refusals_say_the_way_out(duckdb_con: Any) -> None:
    text = duckdb_con.sql("SELECT r0, CAST(r1 AS VARCHAR) AS r1 FROM WIDE")
    with pytest.raises(kf.KappaFrameTypeError, match=r"column 'r1' holds .* \(String\)"):
        kf.ccc(text)
    long = duckdb_con.from_df(to_long(SCORES))
    with pytest.raises(kf.KappaFrameError, match=r"labeled item .* more than once"):
        kf.ccc(duckdb_con.from_df(pd.concat([to_long(SCORES)] * 2)), **LONG)
    with pytest.raises(kf.KappaFrameError, match="row order"):
        kf.ccc(long, **LONG, duplicates="first")
    with pytest.raises(kf.KappaFrameError, match=r"'r9'"):
        kf.ccc(long, ["r0", "r9"], **LONG)
    pytest.importorskip("matplotlib").use("Agg")
    with pytest.raises(kf.KappaFrameError, match="bring the ratings into pandas or polars"):
        kf.bland_altman_plot(duckdb_con.from_df(WIDE[["r0", "r1"]]))


def test_pyspark_sums_in_the_engine_with_the_same_numbers(spark_session: Any) -> None:
    rows = [
        tuple(None if isinstance(v, float) and np.isnan(v) else v for v in row)
        for row in SCORES.itertuples(index=False)
    ]
    schema = ", ".join(f"{c} {'string' if c == BY else 'double'}" for c in SCORES.columns)
    spark = spark_session.createDataFrame(rows, schema)  # rows: no pandas conversion
    long_rows = [tuple(row) for row in to_long(SCORES).itertuples(index=False)]
    long = spark_session.createDataFrame(
        long_rows, f"item string, {BY} string, rater string, score double"
    )
    # Each function on one layout (Spark's queries cost seconds each; both functions read
    # both layouts through the same narwhals sums, which the DuckDB test runs on each).
    for function, data, options in ((kf.ccc, spark, {}), (kf.bland_altman, long, LONG)):
        got, want = function(data, by=BY, **options), function(SCORES, by=BY)
        numbers = [c for c in want.columns if c not in (BY, "rater_a", "rater_b")]
        np.testing.assert_allclose(
            got[numbers].to_numpy(float), want[numbers].to_numpy(float), rtol=0, atol=1e-9
        )


# ----------------------------------------------------------------------------- ways in


def _polars(df: pd.DataFrame) -> Any:
    return pytest.importorskip("polars").from_pandas(df)


def _scan(df: pd.DataFrame, tmp_path: Path, suffix: str) -> Any:
    path = tmp_path / f"scores.{suffix}"
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
        df.to_parquet(path, index=False)
    else:
        df.to_csv(path, index=False)
    return kf.scan(path, batch_size=7)


def _dask(df: pd.DataFrame) -> Any:
    dd = pytest.importorskip("dask.dataframe")
    return dd.from_pandas(df, npartitions=3)


LONG = {"item": "item", "rater": "rater", "value": "score"}

#: Each way in: (input from the wide frame, extra options, the expected result type name).
WAYS: dict[str, Any] = {
    "pandas": (lambda df, tmp: df, {}, "DataFrame"),
    "polars": (lambda df, tmp: _polars(df), {}, "DataFrame"),
    "polars_lazy": (lambda df, tmp: _polars(df).lazy(), {}, "LazyFrame"),
    "long_pandas": (lambda df, tmp: to_long(df), LONG, "DataFrame"),
    "long_polars": (lambda df, tmp: _polars(to_long(df)), LONG, "DataFrame"),
    "long_lazy": (lambda df, tmp: _polars(to_long(df)).lazy(), LONG, "LazyFrame"),
    "scan_parquet": (lambda df, tmp: _scan(df, tmp, "parquet"), {}, "DataFrame"),
    "scan_csv": (lambda df, tmp: _scan(df, tmp, "csv"), {}, "DataFrame"),
    "long_scan_csv": (lambda df, tmp: _scan(to_long(df), tmp, "csv"), LONG, "DataFrame"),
    "dask": (lambda df, tmp: _dask(df), {}, "DataFrame"),
    "long_dask": (lambda df, tmp: _dask(to_long(df)), LONG, "DataFrame"),
}

FUNCTIONS = {
    "ccc": lambda data, **o: kf.ccc(data, by=BY, **o),
    "ccc_reference": lambda data, **o: kf.ccc(data, by=BY, reference="r3", ci=0.9, **o),
    "bland_altman": lambda data, **o: kf.bland_altman(data, by=BY, **o),
    "bland_altman_raters": lambda data, **o: kf.bland_altman(
        data, ["r2", "r0", "r3"], agreement=2, ci=None, **o
    ),
}


@pytest.mark.parametrize("function", list(FUNCTIONS))
@pytest.mark.parametrize("way", list(WAYS))
def test_every_way_in_gives_the_same_numbers(way: str, function: str, tmp_path: Path) -> None:
    make, options, kind = WAYS[way]
    call = FUNCTIONS[function]
    want = call(SCORES)
    with warnings.catch_warnings():
        # Dask's own warnings about its shuffles are not ours to judge.
        warnings.filterwarnings("ignore", module="dask")
        warnings.filterwarnings("ignore", module="distributed")
        got = call(make(SCORES, tmp_path), **options)
    if way.endswith("lazy"):
        assert type(got).__name__ == kind
    if "dask" in way:
        got = got.compute() if hasattr(got, "compute") else got
    got = to_pandas(got).reset_index(drop=True)
    assert list(map(str, got.columns)) == list(map(str, want.columns))
    key = [c for c in (BY, "rater_a", "rater_b") if c in want.columns]
    assert got[key].astype(str).to_numpy().tolist() == want[key].astype(str).to_numpy().tolist()
    numbers = [c for c in want.columns if c not in key]
    np.testing.assert_allclose(
        got[numbers].to_numpy(float), want[numbers].to_numpy(float), rtol=0, atol=1e-9
    )


def test_a_lazy_result_has_its_schema_before_it_runs() -> None:
    pl = pytest.importorskip("polars")
    lazy = kf.ccc(pl.from_pandas(SCORES).lazy(), by=BY)
    assert lazy.collect_schema().names()[:4] == [BY, "rater_a", "rater_b", "n"]
    with pytest.raises(kf.KappaFrameError, match="agreement must be"):
        kf.bland_altman(pl.from_pandas(SCORES).lazy(), agreement=0)


# ----------------------------------------------------------------------------- the plot


@pytest.fixture
def agg() -> Any:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    return matplotlib


def _by_gid(ax: Any, gid: str) -> list[Any]:
    return [a for a in [*ax.lines, *ax.patches, *ax.collections] if a.get_gid() == gid]


def test_the_plot_draws_the_items_and_the_lines_of_the_table(agg: Any) -> None:
    fig = kf.bland_altman_plot(PEFR, ["wright", "mini_wright"], agreement=2)
    ax = fig.axes[0]
    table = kf.bland_altman(PEFR, ["wright", "mini_wright"], agreement=2).iloc[0]
    (points,) = _by_gid(ax, "items")
    offsets = points.get_offsets()
    a, b = np.asarray(WRIGHT, float), np.asarray(MINI, float)
    np.testing.assert_allclose(offsets[:, 0], (a + b) / 2)
    np.testing.assert_allclose(offsets[:, 1], a - b)
    for name in ("bias", "loa_low", "loa_high"):
        (line,) = _by_gid(ax, name)
        assert line.get_ydata()[0] == pytest.approx(float(table[name]))
        (band,) = _by_gid(ax, f"{name}_ci")
        ys = band.get_patch_transform().transform(band.get_path().vertices)[:, 1]
        low, high = float(np.min(ys)), float(np.max(ys))
        assert low == pytest.approx(float(table[f"{name}_ci_low"]))
        assert high == pytest.approx(float(table[f"{name}_ci_high"]))
    assert ax.get_title() == (
        "wright - mini_wright: n = 17, bias = -2.12, limits of agreement -79.6 to 75.4"
    )
    assert ax.get_ylabel() == "wright - mini_wright"


def test_the_plot_without_ci_has_no_bands_and_skips_missing_items(agg: Any) -> None:
    df = SCORES[["r0", "r1"]]
    fig = kf.bland_altman_plot(df, ci=None)
    ax = fig.axes[0]
    assert not [p for p in ax.patches if (p.get_gid() or "").endswith("_ci")]
    both = int((df["r0"].notna() & df["r1"].notna()).sum())
    assert len(_by_gid(ax, "items")[0].get_offsets()) == both


def test_the_plot_of_the_long_layout_and_the_accessor(agg: Any) -> None:
    fig = kf.bland_altman_plot(to_long(SCORES), ["r1", "r2"], **LONG)
    assert fig.axes[0].get_title().startswith("r1 - r2: n = ")
    ax = agg.figure.Figure().subplots()
    assert WIDE.kappa.bland_altman_plot(["r1", "r2"], ax=ax) is ax.figure


def test_the_plot_wants_exactly_two_raters(agg: Any) -> None:
    with pytest.raises(kf.KappaFrameError, match="draws one pair of raters; the input has 4"):
        kf.bland_altman_plot(WIDE)
    short = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": [np.nan, 2.0, 3.0]})
    with pytest.raises(kf.KappaFrameError, match="they share 1"):
        kf.bland_altman_plot(short)


def test_many_groups_take_the_per_pair_path_with_the_same_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kappaframe._stats import concordance

    want = kf.ccc(SCORES, by=BY)
    monkeypatch.setattr(concordance, "MATMUL_MAX_GROUPS", 1)
    got = kf.ccc(SCORES, by=BY)
    pd.testing.assert_frame_equal(got, want, rtol=0, atol=1e-12)


def test_blocks_of_items_add_up_to_the_same_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    from kappaframe._stats import concordance

    want = kf.bland_altman(SCORES, by=BY)
    monkeypatch.setattr(concordance, "CHUNK_ITEMS", 7)  # blocks cut through the groups' runs
    got = kf.bland_altman(SCORES, by=BY)
    pd.testing.assert_frame_equal(got, want, rtol=0, atol=1e-10)


# ----------------------------------------------------------------------------- properties

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_RATING = st.one_of(st.none(), st.integers(-50, 50).map(float))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(_RATING, _RATING, st.sampled_from(["g1", "g2"])), min_size=2, max_size=40),
    st.randoms(use_true_random=False),
)
def test_properties_of_random_ratings(rows: list[Any], random: Any) -> None:
    df = pd.DataFrame(rows, columns=["a", "b", "g"]).astype({"a": float, "b": float})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        res = kf.ccc(df, ["a", "b"], by="g")
        ba = kf.bland_altman(df, ["a", "b"], by="g")
        shuffled = df.sample(frac=1.0, random_state=random.randint(0, 1000))
        again = kf.ccc(shuffled, ["a", "b"], by="g")
        swapped = kf.ccc(df, ["b", "a"], by="g")
        back = kf.bland_altman(df, ["b", "a"], by="g")
    np.testing.assert_allclose(again["ccc"], res["ccc"], atol=1e-12)
    np.testing.assert_allclose(swapped["ccc"], res["ccc"], atol=1e-12)
    np.testing.assert_allclose(back["bias"], -ba["bias"], atol=1e-12)
    for row in res.itertuples(index=False):
        part = df[df["g"] == row.g]
        both = part["a"].notna() & part["b"].notna()
        assert row.n == int(both.sum())
        x, y = part.loc[both, "a"].to_numpy(), part.loc[both, "b"].to_numpy()
        if row.n >= 2 and x.std() > 0 and y.std() > 0:
            assert -1 <= row.ccc <= 1
            assert abs(row.ccc) <= abs(row.pearson_r) + 1e-12  # Lin: |ccc| <= |r|
            with np.errstate(divide="ignore", invalid="ignore"):  # its se at n = 2
                want = _epi_ccc(y, x)["ccc"]
            assert row.ccc == pytest.approx(want, abs=1e-12)
        else:
            assert np.isnan(row.ccc)


def test_a_file_column_of_numbers_written_two_ways_says_how_to_type_it(tmp_path: Path) -> None:
    path = tmp_path / "mixed.csv"
    path.write_text("a,b\n1,2\n1.0,3\n2,2.5\n")
    with pytest.raises(kf.KappaFrameTypeError, match=r"column 'a' holds '1' \(str\).*column_types"):
        kf.ccc(kf.scan(path))
    typed = kf.ccc(kf.scan(path, csv_options={"convert": {"column_types": {"a": "float64"}}}))
    want = kf.ccc(pd.DataFrame({"a": [1.0, 1.0, 2.0], "b": [2.0, 3.0, 2.5]}))
    pd.testing.assert_frame_equal(typed, want)


def test_the_plot_of_the_long_layout_names_a_missing_rater_id(agg: Any, tmp_path: Path) -> None:
    with pytest.raises(kf.KappaFrameError, match=r"'r9'"):
        kf.bland_altman_plot(to_long(SCORES), ["r0", "r9"], **LONG)
    path = tmp_path / "long.csv"
    to_long(SCORES).to_csv(path, index=False)
    fig = kf.bland_altman_plot(kf.scan(path, batch_size=7), ["r2", "r0"], **LONG)
    assert fig.axes[0].get_title().startswith("r2 - r0: n = ")


def test_scores_that_do_not_vary_about_a_shifted_origin_give_no_ccc() -> None:
    # b is -1 on every pair, but its sums are taken about the first block's mean (-0.4),
    # which leaves a few ulps: the variance is 0 and ccc undefined, not 1e-18.
    df = pd.DataFrame(
        {"a": [None, None, 0.0, 0.0, 1.0], "b": [0.0, 1.0, -1.0, -1.0, -1.0]}, dtype=float
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        res = kf.ccc(df, ["a", "b"])
        ba = kf.bland_altman(df, ["a", "b"])
    assert res["n"].iloc[0] == 3 and np.isnan(res["ccc"].iloc[0])
    assert np.isnan(res["pearson_r"].iloc[0])
    assert ba["bias"].iloc[0] == pytest.approx(4 / 3, abs=1e-12)
