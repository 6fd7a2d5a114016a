"""overall(): many-rater coefficients against statsmodels, krippendorff and published values."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import kappaframe as kf
from kappaframe._stats.agreement import weight_matrix
from kappaframe._stats.multirater import METHODS, compute, ratings_of

from ..conftest import native_type_matches, to_pandas

inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")

NAN = np.nan
OVERALL = ["method", "n_items", "n_raters", "p_o", "p_e", "value", "interpretation"]
CI = ["se", "se0", "ci_low", "ci_high", "z", "p_value"]


def gwet_four_raters() -> pd.DataFrame:
    """Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed., p. 120: 4 raters,
    12 units, 5 categories, missing ratings (irrCAC's ``cac.raw4raters``). The same data
    are Krippendorff's (2011) reliability-data example."""
    return pd.DataFrame(
        {
            "Rater1": [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
            "Rater2": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, NAN],
            "Rater3": [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
            "Rater4": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
        }
    )


def one(res: Any, method: str) -> pd.Series:
    out = to_pandas(res)
    return out[out["method"] == method].iloc[0]


# --------------------------------------------------------------------- published values


def test_gwet_handbook_four_raters_with_missing_ratings() -> None:
    # Values printed by irrCAC (Gwet's package) for this data set, 5 decimals where given.
    df = gwet_four_raters()
    methods = ["fleiss", "gwet_ac1", "brennan_prediger", "conger", "krippendorff"]
    res = df.kappa.overall(method=methods, ci=0.95)
    fleiss = one(res, "fleiss")
    assert round(fleiss["value"], 5) == 0.76117
    assert round(fleiss["se"], 5) == 0.15302
    assert round(fleiss["p_o"], 5) == 0.81818
    assert round(fleiss["p_e"], 5) == 0.23872
    ac1 = one(res, "gwet_ac1")
    assert (round(ac1["value"], 5), round(ac1["se"], 5)) == (0.77544, 0.14295)
    assert round(ac1["p_e"], 5) == 0.19032
    bp = one(res, "brennan_prediger")
    assert (round(bp["value"], 3), round(bp["se"], 3), bp["p_e"]) == (0.773, 0.145, 0.2)
    conger = one(res, "conger")
    assert (round(conger["value"], 3), round(conger["p_o"], 3), round(conger["p_e"], 3)) == (
        0.763,
        0.818,
        0.233,
    )
    alpha = one(res, "krippendorff")
    assert (round(alpha["value"], 3), round(alpha["p_o"], 3), round(alpha["p_e"], 3)) == (
        0.743,
        0.805,
        0.240,
    )
    # Gwet's irrCAC >= 1.2, followed by default, centres on p_a' and prints 0.14548;
    # irrCAC's Python port centres on p_a and prints 0.146: alpha_centre="p_a".
    assert round(alpha["se"], 5) == 0.14548
    res_p_a = df.kappa.overall(method="krippendorff", ci=0.95, alpha_centre="p_a")
    assert round(float(to_pandas(res_p_a)["se"].iloc[0]), 3) == 0.146
    assert list(to_pandas(res)["n_items"]) == [12] * 5
    assert list(to_pandas(res)["n_raters"]) == [4] * 5


def bipolar_disagreement(values: np.ndarray) -> np.ndarray:
    low, high = values.min(), values.max()
    total = values[:, None] + values[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        w = (values[:, None] - values[None, :]) ** 2 / ((total - 2 * low) * (2 * high - total))
    np.fill_diagonal(w, 0.0)
    return w / w.max()


def test_gwet_ac2_with_custom_weights() -> None:
    # irrCAC, same data, bipolar weights: AC2 0.90037, se 0.10582, p_a 0.96836, p_e 0.68244.
    df = gwet_four_raters()
    weights = bipolar_disagreement(np.arange(1.0, 6.0))
    row = one(df.kappa.overall(method="gwet_ac2", weights=weights, ci=0.95), "gwet_ac2")
    assert round(row["value"], 5) == 0.90037
    assert round(row["se"], 5) == 0.10582
    assert (round(row["p_o"], 5), round(row["p_e"], 5)) == (0.96836, 0.68244)


def test_gwet_ac2_two_raters_handbook_table() -> None:
    # Gwet (2014): two abstractors, 100 pregnancies; quadratic AC2 0.94024 (p_a 0.9725,
    # p_e 0.53985), AC1 0.84933.
    table = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
    a, b = [], []
    for (i, j), count in np.ndenumerate(np.asarray(table)):
        a += [i] * count
        b += [j] * count
    df = pd.DataFrame({"a": a, "b": b})
    res = df.kappa.overall(method=["gwet_ac1", "gwet_ac2"], weights="quadratic")
    assert round(one(res, "gwet_ac1")["value"], 5) == 0.84933
    ac2 = one(res, "gwet_ac2")
    assert (round(ac2["value"], 5), round(ac2["p_o"], 4), round(ac2["p_e"], 5)) == (
        0.94024,
        0.9725,
        0.53985,
    )


def test_krippendorff_2011_all_levels() -> None:
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability": nominal .743,
    # ordinal .815, interval .849, ratio .797.
    df = gwet_four_raters()
    got = {
        level: round(float(df.kappa.overall(method="krippendorff", level=level)["value"][0]), 3)
        for level in ["nominal", "ordinal", "interval", "ratio"]
    }
    assert got == {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}


def fleiss_1971() -> pd.DataFrame:
    from statsmodels.stats.tests.test_inter_rater import diagnoses

    return pd.DataFrame(diagnoses, columns=[f"psy{i}" for i in range(1, 7)])


def test_fleiss_1971_thirty_patients_six_psychiatrists() -> None:
    # Fleiss (1971): kappa 0.430. R's irr::kappam.fleiss(diagnoses) reports z = 17.7
    # (Fleiss, Nee & Landis' null standard error).
    row = fleiss_1971().kappa.overall(ci=0.95).iloc[0]
    assert round(row["value"], 3) == 0.430
    assert round(row["z"], 1) == 17.7
    counts = inter_rater.aggregate_raters(fleiss_1971().to_numpy())[0]
    assert row["value"] == pytest.approx(inter_rater.fleiss_kappa(counts), abs=1e-12)
    # FNL's closed form for the same number m of ratings on every item
    p = counts.sum(0) / counts.sum()
    q = 1 - p
    n, m = counts.shape[0], counts.sum(1)[0]
    var0 = (
        2 * ((p * q).sum() ** 2 - (p * q * (q - p)).sum()) / (n * m * (m - 1) * (p * q).sum() ** 2)
    )
    assert row["z"] == pytest.approx(row["value"] / np.sqrt(var0), abs=1e-10)


def test_wikipedia_fleiss_example() -> None:
    # Wikipedia "Fleiss' kappa": 10 subjects, 14 raters, 5 categories, kappa 0.210.
    from statsmodels.stats.tests.test_inter_rater import table1

    rows = [np.repeat(np.arange(5), row.astype(int)) for row in table1]
    df = pd.DataFrame(rows, columns=[f"r{i}" for i in range(14)])
    assert round(float(df.kappa.overall()["value"].iloc[0]), 3) == 0.210


# --------------------------------------------------------------------- oracles


def random_team(
    rng: np.random.Generator, n_items: int, n_raters: int, cats: list[Any], missing: float
) -> pd.DataFrame:
    truth = rng.choice(len(cats), n_items)
    data = {}
    for r in range(n_raters):
        codes = np.where(rng.random(n_items) < 0.6, truth, rng.choice(len(cats), n_items))
        labels = np.asarray(cats, dtype=object)[codes]
        labels[rng.random(n_items) < missing] = None
        data[f"r{r}"] = labels
    return pd.DataFrame(data)


@pytest.mark.parametrize("seed", range(5))
def test_complete_data_matches_statsmodels_fleiss_and_randolph(seed: int) -> None:
    rng = np.random.default_rng(seed)
    df = random_team(rng, 50, 5, ["a", "b", "c", "d"], 0.0)
    res = df.kappa.overall(method=["fleiss", "brennan_prediger"])
    counts = inter_rater.aggregate_raters(df.to_numpy())[0]
    assert one(res, "fleiss")["value"] == pytest.approx(
        inter_rater.fleiss_kappa(counts, method="fleiss"), abs=1e-12
    )
    assert one(res, "brennan_prediger")["value"] == pytest.approx(
        inter_rater.fleiss_kappa(counts, method="randolph"), abs=1e-12
    )


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
@pytest.mark.parametrize("seed", range(4))
def test_krippendorff_matches_the_krippendorff_package(level: str, seed: int) -> None:
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(seed)
    df = random_team(rng, 40, 4, [0, 1, 2, 5, 9], 0.3).astype(float)
    ours = df.kappa.overall(method="krippendorff", level=level)["value"].iloc[0]
    theirs = krippendorff.alpha(reliability_data=df.to_numpy().T, level_of_measurement=level)
    assert ours == pytest.approx(theirs, abs=1e-12)


def test_light_is_the_mean_of_pairwise_kappas(rng: np.random.Generator) -> None:
    order = pd.CategoricalDtype(["x", "y", "z"], ordered=True)  # weights need an order
    df = random_team(rng, 80, 4, ["x", "y", "z"], 0.2).astype(order)
    pairs = df.kappa.pairwise(weights="linear")
    row = df.kappa.overall(method="light", weights="linear", ci=0.9).iloc[0]
    assert row["value"] == pytest.approx(pairs["kappa"].mean(), abs=1e-12)
    assert row["p_o"] == pytest.approx(pairs["p_o"].mean(), abs=1e-12)
    # one pair: Light's standard error is Fleiss, Cohen & Everitt's
    two = df[["r0", "r1"]]
    light = two.kappa.overall(method="light", weights="quadratic", ci=0.9).iloc[0]
    cohen = two.kappa.pairwise(weights="quadratic", ci=0.9).iloc[0]
    assert light["se"] == pytest.approx(cohen["se"], abs=1e-12)


def test_conger_for_two_raters_is_cohens_kappa(rng: np.random.Generator) -> None:
    order = pd.CategoricalDtype(["x", "y", "z"], ordered=True)  # weights need an order
    df = random_team(rng, 70, 2, ["x", "y", "z"], 0.0).astype(order)
    row = df.kappa.overall(method="conger", weights="linear").iloc[0]
    assert row["value"] == pytest.approx(df.kappa.score("r0", "r1", weights="linear"), abs=1e-12)


def test_fleiss_null_variance_with_varying_numbers_of_labels() -> None:
    # Under independence (kappa = 0) with ragged missing labels, the spread of Fleiss'
    # kappa over 400 replicate panels matches the generalised FNL null standard error.
    rng = np.random.default_rng(11)
    n_groups, n_items, n_raters = 400, 60, 5
    codes = rng.choice(3, size=(n_raters, n_groups * n_items), p=[0.5, 0.3, 0.2])
    codes[rng.random(codes.shape) < 0.35] = -1
    group = np.repeat(np.arange(n_groups), n_items)
    rt = ratings_of(codes.astype(np.int8), group, n_groups, 3)
    res = compute(
        rt,
        "fleiss",
        weight_matrix(None, range(3)),
        weighted=False,
        level="nominal",
        categories=[0, 1, 2],
        with_variance=True,
    )
    empirical = np.nanstd(res["value"], ddof=1)
    predicted = np.sqrt(np.nanmean(res["var0"]))
    assert empirical == pytest.approx(predicted, rel=0.1)
    # and the linearization variance (valid at any kappa) agrees under the null too
    assert np.sqrt(np.nanmean(res["var"])) == pytest.approx(empirical, rel=0.1)


# --------------------------------------------------------------------- behaviour


def test_output_on_every_backend(constructor: Any, rng: np.random.Generator) -> None:
    df = random_team(rng, 120, 4, ["bad", "ok", "good"], 0.15)
    df["project"] = rng.choice(["beta", "alpha"], len(df))
    frame = constructor(df.to_dict("list"))
    methods = [
        "fleiss",
        "light",
        "conger",
        "krippendorff",
        "gwet_ac1",
        "gwet_ac2",
        "brennan_prediger",
    ]
    kwargs: dict[str, Any] = {
        "by": "project",
        "method": methods,
        "weights": "linear",
        "level": "ordinal",
        "ci": 0.9,
        "categories": ["bad", "ok", "good"],
    }
    res = frame.kappa.overall(**kwargs)
    assert native_type_matches(res, frame)
    out = to_pandas(res)
    assert list(out.columns) == ["project", *OVERALL, *CI]
    assert list(out["project"]) == ["alpha"] * 7 + ["beta"] * 7
    assert list(out["method"]) == methods * 2
    expected = df.kappa.overall(**kwargs)
    for name in ["p_o", "p_e", "value", *CI]:
        np.testing.assert_allclose(out[name], expected[name], rtol=0, atol=1e-12)
    # grouped = each group alone
    for project, part in expected.groupby("project"):
        alone = (
            df[df["project"] == project]
            .drop(columns="project")
            .kappa.overall(**{**kwargs, "by": None})
        )
        np.testing.assert_allclose(part["value"], alone["value"], rtol=0, atol=1e-12)
        np.testing.assert_allclose(part["se"], alone["se"], rtol=0, atol=1e-12)
    # every method but Light is (p_o - p_e) / (1 - p_e)
    rows = expected[expected["method"] != "light"]
    identity = (rows["p_o"] - rows["p_e"]) / (1 - rows["p_e"])
    np.testing.assert_allclose(identity, rows["value"], rtol=0, atol=1e-12)
    # interval: normal quantile, clipped
    half = 1.6448536269514722 * expected["se"]
    np.testing.assert_allclose(expected["ci_low"], np.clip(expected["value"] - half, -1, 1))
    np.testing.assert_allclose(expected["ci_high"], np.clip(expected["value"] + half, -1, 1))


def test_long_layout_gives_the_same_numbers(rng: np.random.Generator) -> None:
    wide = random_team(rng, 60, 4, ["a", "b", "c"], 0.2)
    long = wide.reset_index(names="item").melt(id_vars="item", var_name="who", value_name="y")
    methods = ["fleiss", "conger", "light", "krippendorff"]
    a = wide.kappa.overall(method=methods)
    b = long.kappa.overall(item="item", rater="who", label="y", method=methods)
    np.testing.assert_allclose(a["value"], b["value"], rtol=0, atol=1e-12)


def test_undefined_is_nan_with_one_warning() -> None:
    df = pd.DataFrame({"a": ["x"] * 5, "b": ["x"] * 5, "c": ["x"] * 5})
    with pytest.warns(kf.UndefinedKappaWarning, match="undefined") as record:
        res = df.kappa.overall(
            method=["fleiss", "conger", "krippendorff", "gwet_ac1"], categories=["x", "y"]
        )
    assert len(record) == 1
    values = dict(zip(res["method"], res["value"], strict=True))
    assert np.isnan(values["fleiss"]) and np.isnan(values["conger"])
    assert np.isnan(values["krippendorff"])
    assert values["gwet_ac1"] == 1.0  # AC1's chance agreement is 0 here, by design
    assert res["interpretation"].isna().sum() == 3


def test_items_with_a_single_label_only() -> None:
    df = pd.DataFrame({"a": ["x", None, "y"], "b": [None, "y", None]})
    with pytest.warns(kf.UndefinedKappaWarning):
        res = df.kappa.overall(method=["fleiss", "krippendorff"])
    assert res["value"].isna().all()
    assert list(res["n_items"]) == [3, 3]


def test_option_errors(rng: np.random.Generator) -> None:
    df = random_team(rng, 20, 3, ["a", "b"], 0.0)
    with pytest.raises(kf.KappaFrameError, match="method must be one of"):
        df.kappa.overall(method="cohen")
    with pytest.raises(kf.KappaFrameError, match="needs weights"):
        df.kappa.overall(method="gwet_ac2")
    with pytest.raises(kf.KappaFrameError, match="applies to method='krippendorff'"):
        df.kappa.overall(level="ordinal")
    with pytest.raises(kf.KappaFrameError, match="level must be one of"):
        df.kappa.overall(method="krippendorff", level="cardinal")
    with pytest.raises(kf.KappaFrameError, match="needs numeric labels"):
        df.kappa.overall(method="krippendorff", level="interval")
    with pytest.raises(kf.KappaFrameError, match="twice"):
        df.kappa.overall(method=["fleiss", "fleiss"])
    with pytest.raises(kf.KappaFrameError, match="between 0 and 1"):
        df.kappa.overall(ci=1.5)
    negative = pd.DataFrame({"a": [-1.0, 2.0, 3.0], "b": [-1.0, 2.0, 2.0]})
    with pytest.raises(kf.KappaFrameError, match="non-negative"):
        negative.kappa.overall(method="krippendorff", level="ratio")
    clash = df.assign(method=1)
    with pytest.raises(kf.KappaFrameError, match="name of an output column"):
        clash.kappa.overall(["r0", "r1"], by="method")


def test_warnings_are_not_raised_for_defined_results(rng: np.random.Generator) -> None:
    df = random_team(rng, 30, 3, ["a", "b", "c"], 0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = df.kappa.overall(method=[m for m in METHODS if m != "gwet_ac2"], ci=0.95)
    assert res["value"].notna().all() and res["se"].notna().all()


def test_category_order_drives_ordinal_alpha_and_weights() -> None:
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(5)
    order = ["low", "mid", "high"]
    df = random_team(rng, 60, 4, order, 0.2)
    as_codes = df.apply(lambda col: col.map({c: i for i, c in enumerate(order)})).astype(float)
    expected = krippendorff.alpha(
        reliability_data=as_codes.to_numpy().T, level_of_measurement="ordinal"
    )
    given = df.kappa.overall(method="krippendorff", level="ordinal", categories=order)
    assert given["value"].iloc[0] == pytest.approx(expected, abs=1e-12)
    # an ordered Categorical declares the same order; plain text has none to guess
    ordered = df.astype(pd.CategoricalDtype(order, ordered=True))
    declared = ordered.kappa.overall(method="krippendorff", level="ordinal")
    assert declared["value"].iloc[0] == pytest.approx(expected, abs=1e-12)
    with pytest.raises(kf.KappaFrameError, match="needs the order of the categories"):
        df.kappa.overall(method="krippendorff", level="ordinal")
    # weighted Fleiss with a weight matrix labelled by category equals the array form
    w = pd.DataFrame([[0, 1, 4], [1, 0, 1], [4, 1, 0]], index=order, columns=order)
    a = df.kappa.overall(weights=w, categories=order)["value"].iloc[0]
    b = df.kappa.overall(weights=w.to_numpy(), categories=order)["value"].iloc[0]
    assert a == pytest.approx(b, abs=1e-15)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_items=st.integers(2, 40),
    n_raters=st.integers(2, 5),
    missing=st.sampled_from([0.0, 0.2, 0.5]),
)
@example(seed=107391, n_items=2, n_raters=3, missing=0.0)  # Light's se is rounding: 5.6e-17
def test_invariant_to_rater_and_item_order_and_relabelling(
    seed: int, n_items: int, n_raters: int, missing: float
) -> None:
    rng = np.random.default_rng(seed)
    df = random_team(rng, n_items, n_raters, ["a", "b", "c"], missing)
    methods = [m for m in METHODS if m != "gwet_ac2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        base = df.kappa.overall(method=methods, categories=["a", "b", "c"], ci=0.9)
        shuffled = df.sample(frac=1.0, random_state=seed % 1000)
        shuffled = shuffled[list(rng.permutation(df.columns))]
        moved = shuffled.kappa.overall(method=methods, categories=["a", "b", "c"], ci=0.9)
        renamed = df.replace({"a": "z", "b": "y", "c": "x"})
        relabelled = renamed.kappa.overall(method=methods, categories=["z", "y", "x"], ci=0.9)
    for other in (moved, relabelled):
        for name in ["value", "p_o", "p_e", "se", "z"]:
            np.testing.assert_allclose(other[name], base[name], rtol=1e-9, atol=1e-12)
    values = base["value"].dropna()
    assert (values <= 1 + 1e-12).all()
    assert (base["se"].dropna() >= 0).all()


def test_which_standard_error_z_uses(rng: np.random.Generator) -> None:
    df = random_team(rng, 80, 4, ["a", "b", "c"], 0.2)
    methods = [m for m in METHODS if m != "gwet_ac2"]
    plain = df.kappa.overall(method=methods, ci=0.95).set_index("method")
    wald = plain.drop(index="fleiss")
    np.testing.assert_allclose(wald["z"], wald["value"] / wald["se"], rtol=1e-12)
    # unweighted Fleiss: the null standard error, smaller than se when kappa > 0
    fleiss = plain.loc["fleiss"]
    assert fleiss["z"] > fleiss["value"] / fleiss["se"]
    # weighted Fleiss has no published null variance here: z = value / se
    weighted = df.kappa.overall(weights="linear", ci=0.95, categories=["a", "b", "c"]).iloc[0]
    assert weighted["z"] == pytest.approx(weighted["value"] / weighted["se"], rel=1e-12)
    from statistics import NormalDist

    p = 2 * (1 - NormalDist().cdf(abs(weighted["z"])))
    assert weighted["p_value"] == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
@pytest.mark.parametrize("n_groups", [1, 3])
def test_krippendorff_over_distinct_items_equals_item_by_item(level: str, n_groups: int) -> None:
    # Alpha sums over the distinct per-item counts; the same sums item by item (counts
    # given as such) must agree, standard error included.
    from dataclasses import replace

    from kappaframe._stats.multirater import _distinct_items, _krippendorff

    rng = np.random.default_rng(11)
    codes = rng.integers(0, 4, (6, 900))
    codes[rng.random(codes.shape) < 0.2] = -1
    groups = rng.integers(0, n_groups, 900) if n_groups > 1 else None
    rt = ratings_of(codes, groups, n_groups, 4)
    assert _distinct_items(rt) is not None
    by_item = replace(rt, given_counts=rt.counts)
    assert _distinct_items(by_item) is None
    cats = [1.0, 2.0, 4.0, 8.0]
    fast = _krippendorff(rt, level, cats, with_variance=True)
    slow = _krippendorff(by_item, level, cats, with_variance=True)
    assert fast.keys() == slow.keys()
    for name in slow:
        np.testing.assert_allclose(fast[name], slow[name], rtol=1e-12, atol=1e-12, err_msg=name)


def test_every_method_name_has_its_coefficient_and_no_other() -> None:
    from kappaframe._stats.multirater import COEFFICIENTS, METHODS

    assert set(COEFFICIENTS) == set(METHODS)


def test_a_weighted_item_counts_as_that_many_alike_items() -> None:
    """``Ratings.weight``: one column standing for w items gives every coefficient (and
    its variance) the value of the w columns written out, to rounding."""
    from kappaframe._stats.multirater import Ratings

    rng = np.random.default_rng(4)
    codes = rng.integers(-1, 3, (4, 60)).astype(np.int8)
    codes[:, 0] = [0, 0, 1, -1]
    group = rng.integers(0, 3, 60)
    weight = rng.integers(1, 5, 60).astype(float)
    repeat = np.repeat(np.arange(60), weight.astype(int))
    keep = codes.max(axis=0) >= 0
    folded = Ratings(codes[:, keep], None, group[keep], 3, 3, weight[keep])
    written = ratings_of(codes[:, repeat], group[repeat], 3, 3)
    plain = 1.0 - np.eye(3)
    for method in METHODS:
        options = dict(weighted=False, level="nominal", categories=[0, 1, 2], with_variance=True)
        want = compute(written, method, plain, **options)
        got = compute(folded, method, plain, **options)
        for key in ("p_o", "p_e", "value", "var", "var0"):
            if key in want:
                np.testing.assert_allclose(got[key], want[key], rtol=0, atol=1e-12, err_msg=method)
        assert np.isfinite(want["value"]).all(), method
