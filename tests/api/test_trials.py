"""Repeated trials (``trial=``): icc, pairwise, overall and bland_altman.

Every number is checked against an independent computation: scikit-learn's
``cohen_kappa_score`` on each rater's two trials, the mean squares of statsmodels'
``anova_lm`` of the two-way model with interaction, statsmodels' OLS, and the printed
numbers of Bland & Altman (1999), section 5.1.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest

import kappaframe as kf
from kappaframe import KappaFrameError

# Bland & Altman (1999), Table 1: systolic blood pressure (mmHg) of 85 subjects, three
# readings each by observer J and by the machine S (readings 1 to 3 in order).
SBP_J = [
    (100, 106, 107),
    (108, 110, 108),
    (76, 84, 82),
    (108, 104, 104),
    (124, 112, 112),
    (122, 140, 124),
    (116, 108, 102),
    (114, 110, 112),
    (100, 108, 112),
    (108, 92, 100),
    (100, 106, 104),
    (108, 112, 122),
    (112, 112, 110),
    (104, 108, 104),
    (106, 108, 102),
    (122, 122, 114),
    (100, 102, 102),
    (118, 118, 120),
    (140, 134, 138),
    (150, 148, 144),
    (166, 154, 154),
    (148, 156, 134),
    (174, 172, 166),
    (174, 166, 150),
    (140, 144, 144),
    (128, 134, 130),
    (146, 138, 140),
    (146, 152, 148),
    (220, 218, 220),
    (208, 200, 192),
    (94, 84, 86),
    (114, 124, 116),
    (126, 120, 122),
    (124, 124, 132),
    (110, 120, 128),
    (90, 90, 94),
    (106, 106, 110),
    (218, 202, 208),
    (130, 128, 130),
    (136, 136, 130),
    (100, 96, 88),
    (100, 98, 88),
    (124, 116, 122),
    (164, 168, 154),
    (100, 102, 100),
    (136, 126, 122),
    (114, 108, 122),
    (148, 120, 132),
    (160, 150, 148),
    (84, 92, 98),
    (156, 162, 152),
    (110, 98, 98),
    (100, 106, 106),
    (100, 102, 94),
    (86, 74, 76),
    (106, 100, 110),
    (108, 110, 106),
    (168, 188, 178),
    (166, 150, 154),
    (146, 142, 132),
    (204, 198, 188),
    (96, 94, 86),
    (134, 126, 124),
    (138, 144, 140),
    (134, 136, 142),
    (156, 160, 154),
    (124, 138, 138),
    (114, 110, 114),
    (112, 116, 122),
    (112, 116, 134),
    (202, 220, 228),
    (132, 136, 134),
    (158, 162, 152),
    (88, 76, 88),
    (170, 174, 176),
    (182, 176, 180),
    (112, 114, 124),
    (120, 118, 120),
    (110, 108, 106),
    (112, 112, 106),
    (154, 134, 130),
    (116, 112, 94),
    (108, 110, 114),
    (106, 98, 100),
    (122, 112, 112),
]
SBP_S = [
    (122, 128, 124),
    (121, 127, 128),
    (95, 94, 98),
    (127, 127, 135),
    (140, 131, 124),
    (139, 142, 136),
    (122, 112, 112),
    (130, 129, 135),
    (119, 122, 122),
    (126, 113, 111),
    (107, 113, 111),
    (123, 125, 125),
    (131, 129, 122),
    (123, 126, 114),
    (127, 119, 126),
    (142, 133, 137),
    (104, 116, 115),
    (117, 113, 112),
    (139, 127, 113),
    (143, 155, 133),
    (181, 170, 166),
    (149, 156, 140),
    (173, 170, 154),
    (160, 155, 170),
    (158, 152, 154),
    (139, 144, 141),
    (153, 150, 154),
    (138, 144, 131),
    (228, 228, 226),
    (190, 183, 184),
    (103, 99, 106),
    (131, 131, 124),
    (131, 123, 124),
    (126, 129, 125),
    (121, 114, 125),
    (97, 94, 96),
    (116, 121, 127),
    (215, 201, 207),
    (141, 133, 146),
    (153, 143, 138),
    (113, 107, 102),
    (109, 105, 97),
    (145, 102, 137),
    (192, 178, 171),
    (112, 116, 116),
    (152, 144, 147),
    (141, 141, 137),
    (206, 188, 166),
    (151, 147, 136),
    (112, 125, 124),
    (162, 165, 189),
    (117, 118, 109),
    (119, 131, 124),
    (136, 116, 113),
    (112, 115, 104),
    (120, 118, 132),
    (117, 118, 115),
    (194, 191, 196),
    (167, 160, 161),
    (173, 161, 154),
    (228, 218, 189),
    (77, 89, 101),
    (154, 156, 141),
    (154, 155, 148),
    (145, 154, 166),
    (200, 180, 179),
    (188, 147, 139),
    (149, 217, 192),
    (136, 132, 133),
    (128, 125, 142),
    (204, 222, 224),
    (184, 187, 192),
    (163, 160, 152),
    (93, 88, 88),
    (178, 181, 181),
    (202, 199, 195),
    (162, 166, 148),
    (227, 227, 219),
    (133, 127, 126),
    (202, 190, 213),
    (158, 121, 134),
    (124, 149, 137),
    (114, 118, 126),
    (137, 135, 134),
    (121, 123, 128),
]


def _sbp() -> pd.DataFrame:
    """One row per subject and reading, a column per method (the wide layout)."""
    rows = [
        (subject + 1, reading + 1, j[reading], s[reading])
        for subject, (j, s) in enumerate(zip(SBP_J, SBP_S, strict=True))
        for reading in range(3)
    ]
    return pd.DataFrame(rows, columns=["subject", "reading", "J", "S"])


def _scores(n: int = 9, k: int = 3, r: int = 2, seed: int = 1) -> pd.DataFrame:
    """Long numeric ratings: item, rater, trial, score (an item effect, rater shifts)."""
    rng = np.random.default_rng(seed)
    rows = [
        (f"i{i}", f"r{j}", t + 1, 10 + item + 0.7 * j + rng.normal(0, 1))
        for i, item in enumerate(rng.normal(0, 2, n))
        for j in range(k)
        for t in range(r)
    ]
    return pd.DataFrame(rows, columns=["item", "rater", "trial", "score"])


def _labels(n: int = 40, seed: int = 2) -> pd.DataFrame:
    """Long labels 0..2: two raters, two trials, a group column."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        truth = int(rng.integers(0, 3))
        for rater in ("ann", "bob"):
            for t in (1, 2):
                label = truth if rng.random() < 0.7 else int(rng.integers(0, 3))
                rows.append((i, "ab"[i % 2], rater, t, label))
    return pd.DataFrame(rows, columns=["item", "site", "rater", "trial", "label"])


# ---- icc -----------------------------------------------------------------------------


def test_trials_with_the_incomplete_design_are_refused_not_one_ignored() -> None:
    with pytest.raises(KappaFrameError, match=r"trial='trial' and missing='available' do not"):
        kf.icc(
            _scores(), item="item", rater="rater", value="score", trial="trial", missing="available"
        )


def test_icc_intra_rows_are_icc_of_each_raters_trials() -> None:
    df = _scores()
    res = kf.icc(df, item="item", rater="rater", value="score", trial="trial")
    intra = res[res["kind"] == "intra"]
    assert list(intra["rater"].unique()) == ["r0", "r1", "r2"]
    for name, rows in intra.groupby("rater", sort=False):
        one = df[df["rater"] == name]
        wide = one.pivot_table(aggfunc="first", index="item", columns="trial", values="score")
        expected = kf.icc(wide)
        for col in ("icc", "f", "p_value", "ci_low", "ci_high"):
            np.testing.assert_allclose(rows[col], expected[col], rtol=1e-12, atol=1e-12)
        assert rows["type"].tolist() == expected["type"].tolist()
        assert (rows["n_raters"] == 1).all() and (rows["n_trials"] == 2).all()


def test_icc_inter_rows_from_the_anova_mean_squares() -> None:
    smf = pytest.importorskip("statsmodels.formula.api")
    anova_lm = pytest.importorskip("statsmodels.stats.anova").anova_lm
    df = _scores(n=8, k=3, r=3, seed=4)
    res = kf.icc(df, item="item", rater="rater", value="score", trial="trial")
    inter = res[res["kind"] == "inter"].reset_index(drop=True)
    table = anova_lm(smf.ols("score ~ C(item) * C(rater)", data=df).fit())
    ms = table["mean_sq"]
    msr, msc = ms["C(item)"], ms["C(rater)"]
    msi, mse = ms["C(item):C(rater)"], ms["Residual"]
    n, k, r = 8, 3, 3
    s_item, s_rater, s_inter = (msr - msi) / (k * r), (msc - msi) / (n * r), (msi - mse) / r
    expected = [
        s_item / (s_item + s_rater + s_inter + mse),
        s_item / (s_item + s_inter + mse),
    ]
    assert inter["type"].tolist() == ["ICC2", "ICC3"]
    assert inter["mcgraw_wong"].tolist() == ["ICC(A,1)", "ICC(C,1)"]
    assert inter["rater"].isna().all()
    np.testing.assert_allclose(inter["icc"], expected, rtol=1e-10)
    np.testing.assert_allclose(inter["f"], msr / msi, rtol=1e-10)
    assert inter["df1"].tolist() == [n - 1] * 2 and inter["df2"].tolist() == [(n - 1) * (k - 1)] * 2
    assert inter["n_items"].tolist() == [n, n] and inter["n_raters"].tolist() == [k, k]


def test_icc_trial_wide_long_pandas_polars_agree() -> None:
    df = _scores()
    long = kf.icc(df, item="item", rater="rater", value="score", trial="trial")
    wide = df.pivot_table(
        aggfunc="first", index=["item", "trial"], columns="rater", values="score"
    ).reset_index()
    wide.columns.name = None
    from_wide = kf.icc(wide, item="item", trial="trial")
    pd.testing.assert_frame_equal(long, from_wide)
    polars = kf.icc(pl.from_pandas(wide), item="item", trial="trial")
    assert isinstance(polars, pl.DataFrame)
    np.testing.assert_allclose(polars["icc"].to_numpy(), long["icc"].to_numpy(), rtol=1e-12)
    assert polars["rater"].to_list()[-1] is None


def test_icc_trial_by_groups_and_a_gap_leaves_the_item_out() -> None:
    df = _scores(n=10)
    df["site"] = np.where(df["item"].isin([f"i{i}" for i in range(5)]), "x", "y")
    gap = df.drop(df.index[(df["item"] == "i0") & (df["rater"] == "r1") & (df["trial"] == 2)])
    before = gap.copy()
    res = kf.icc(gap, item="item", rater="rater", value="score", trial="trial", by="site")
    pd.testing.assert_frame_equal(gap, before)  # the caller's frame is not modified
    inter = res[res["kind"] == "inter"]
    assert inter.groupby("site")["n_items"].first().tolist() == [4, 5]
    assert inter.groupby("site")["n_dropped"].first().tolist() == [1, 0]
    r1 = res[(res["kind"] == "intra") & (res["rater"] == "r1") & (res["site"] == "x")]
    assert set(r1["n_items"]) == {4} and set(r1["n_dropped"]) == {1}
    r0 = res[(res["kind"] == "intra") & (res["rater"] == "r0") & (res["site"] == "x")]
    assert set(r0["n_items"]) == {5}


# ---- pairwise and overall ----------------------------------------------------------


@pytest.mark.parametrize("weights", [None, "linear"])
def test_intra_rater_kappa_is_sklearn_on_the_two_trials(weights: str | None) -> None:
    cohen_kappa_score = pytest.importorskip("sklearn.metrics").cohen_kappa_score
    df = _labels()
    res = kf.pairwise(
        df, item="item", rater="rater", label="label", trial="trial", weights=weights, ci=0.95
    )
    assert res.columns[:4].tolist() == ["rater", "trial_a", "trial_b", "n"]
    assert res["rater"].tolist() == ["ann", "bob"]
    for _, row in res.iterrows():
        one = df[df["rater"] == row["rater"]].pivot_table(
            aggfunc="first", index="item", columns="trial", values="label"
        )
        expected = cohen_kappa_score(one[1], one[2], weights=weights)
        assert row["kappa"] == pytest.approx(expected, abs=1e-12)
        assert row["ci_low"] < row["kappa"] < row["ci_high"]


def test_intra_rater_kappa_by_group_wide_and_polars() -> None:
    cohen_kappa_score = pytest.importorskip("sklearn.metrics").cohen_kappa_score
    df = _labels()
    wide = df.pivot_table(
        aggfunc="first", index=["site", "item", "trial"], columns="rater", values="label"
    )
    wide = wide.reset_index()
    wide.columns.name = None
    res = kf.pairwise(wide, item="item", trial="trial", by="site")
    assert res.columns[:4].tolist() == ["site", "rater", "trial_a", "trial_b"]
    for _, row in res.iterrows():
        one = df[(df["rater"] == row["rater"]) & (df["site"] == row["site"])]
        one = one.pivot_table(aggfunc="first", index="item", columns="trial", values="label")
        assert row["kappa"] == pytest.approx(cohen_kappa_score(one[1], one[2]), abs=1e-12)
    polars = kf.pairwise(pl.from_pandas(wide), item="item", trial="trial", by="site")
    assert isinstance(polars, pl.DataFrame)
    np.testing.assert_allclose(polars["kappa"].to_numpy(), res["kappa"].to_numpy())


def test_intra_rater_kappa_with_a_gap_counts_the_items_of_both_trials() -> None:
    df = _labels()
    gap = df.drop(df.index[(df["rater"] == "ann") & (df["trial"] == 2) & (df["item"] < 5)])
    res = kf.pairwise(gap, item="item", rater="rater", label="label", trial="trial")
    assert res["n"].tolist() == [35, 40]


def test_overall_trial_is_overall_of_each_raters_trials() -> None:
    df = _labels()
    res = kf.overall(
        df, item="item", rater="rater", label="label", trial="trial", method=["fleiss", "gwet_ac1"]
    )
    for name, rows in res.groupby("rater", sort=False):
        one = df[df["rater"] == name]
        expected = kf.overall(
            one, item="item", rater="trial", label="label", method=["fleiss", "gwet_ac1"]
        )
        np.testing.assert_allclose(rows["value"], expected["value"], rtol=1e-12)


# ---- bland_altman ----------------------------------------------------------------------


def test_bland_altman_repeated_measures_bland_altman_1999() -> None:
    # Bland & Altman (1999), section 5.1 (pp. 151-153): observer J against machine S,
    # three readings each: mean difference -15.62 mmHg, SD of the differences 20.95,
    # limits -56.68 and 25.44; the limits' 95% intervals -63.5 to -49.9 and 18.7 to 32.2.
    res = kf.bland_altman(_sbp(), ["J", "S"], item="subject", trial="reading")
    row = res.iloc[0]
    assert (row["rater_a"], row["rater_b"], row["n"]) == ("J", "S", 85)
    assert round(row["bias"], 2) == -15.62
    assert round(row["sd"], 2) == 20.95
    assert (round(row["loa_low"], 2), round(row["loa_high"], 2)) == (-56.68, 25.44)
    assert (round(row["loa_low_ci_low"], 1), round(row["loa_low_ci_high"], 1)) == (-63.5, -49.9)
    assert (round(row["loa_high_ci_low"], 1), round(row["loa_high_ci_high"], 1)) == (18.7, 32.2)


def test_bland_altman_trial_long_and_polars_agree_and_single_readings_are_todays() -> None:
    wide = _sbp()
    long = wide.melt(id_vars=["subject", "reading"], var_name="method", value_name="bp")
    a = kf.bland_altman(wide, ["J", "S"], item="subject", trial="reading")
    b = kf.bland_altman(long, item="subject", rater="method", value="bp", trial="reading")
    pd.testing.assert_frame_equal(a, b)
    c = kf.bland_altman(pl.from_pandas(wide), ["J", "S"], item="subject", trial="reading")
    np.testing.assert_allclose(c["sd"].to_numpy(), a["sd"].to_numpy(), rtol=1e-12)
    # One reading per subject and method: no within-subject part, today's limits.
    first = wide[wide["reading"] == 1]
    other = wide[wide["reading"] == 2].assign(J=np.nan, S=np.nan)
    once = kf.bland_altman(pd.concat([first, other]), ["J", "S"], item="subject", trial="reading")
    today = kf.bland_altman(first, ["J", "S"])
    for col in ("bias", "sd", "loa_low", "loa_high", "bias_ci_low", "bias_ci_high"):
        assert once[col].iloc[0] == pytest.approx(today[col].iloc[0], rel=1e-12)


def test_bland_altman_unequal_replicates_use_harmonic_means() -> None:
    wide = _sbp()
    drop = (wide["reading"] == 3) & (wide["subject"] <= 40)
    res = kf.bland_altman(wide[~drop], ["J", "S"], item="subject", trial="reading", ci=None)
    rows = wide[~drop]
    m = rows.groupby("subject").size().to_numpy()
    means = rows.groupby("subject")[["J", "S"]].mean()
    d = (means["J"] - means["S"]).to_numpy()
    weight = 1 - np.mean(1 / m)
    within = [
        ((rows[c] - rows.groupby("subject")[c].transform("mean")) ** 2).sum() / (m.sum() - len(m))
        for c in ("J", "S")
    ]
    expected = np.sqrt(d.var(ddof=1) + weight * within[0] + weight * within[1])
    assert res["sd"].iloc[0] == pytest.approx(expected, rel=1e-12)
    assert res["bias"].iloc[0] == pytest.approx(d.mean(), rel=1e-12)


def test_proportional_bias_is_the_ols_line_of_differences_on_means() -> None:
    sm = pytest.importorskip("statsmodels.api")
    first = _sbp()
    first = first[first["reading"] == 1]
    res = kf.bland_altman(first, ["J", "S"], proportional=True, ci=0.9)
    x, y = first["J"].to_numpy(float), first["S"].to_numpy(float)
    fit = sm.OLS(x - y, sm.add_constant((x + y) / 2)).fit()
    low, high = fit.conf_int(alpha=0.1)[1]
    row = res.iloc[0]
    assert row["intercept"] == pytest.approx(fit.params[0], rel=1e-10)
    assert row["slope"] == pytest.approx(fit.params[1], rel=1e-10)
    assert row["slope_ci_low"] == pytest.approx(low, rel=1e-10)
    assert row["slope_ci_high"] == pytest.approx(high, rel=1e-10)
    assert row["slope_p_value"] == pytest.approx(fit.pvalues[1], rel=1e-9)
    assert "slope" not in kf.bland_altman(first, ["J", "S"]).columns  # today's columns


def test_proportional_bias_with_trials_uses_the_subject_means() -> None:
    sm = pytest.importorskip("statsmodels.api")
    res = kf.bland_altman(_sbp(), ["J", "S"], item="subject", trial="reading", proportional=True)
    j, s = np.array(SBP_J, float).mean(axis=1), np.array(SBP_S, float).mean(axis=1)
    fit = sm.OLS(j - s, sm.add_constant((j + s) / 2)).fit()
    assert res["slope"].iloc[0] == pytest.approx(fit.params[1], rel=1e-10)
    assert res["slope_ci_high"].iloc[0] == pytest.approx(fit.conf_int()[1][1], rel=1e-10)


# ---- never guess -----------------------------------------------------------------------


def test_a_missing_trial_id_is_refused() -> None:
    df = _labels().astype({"trial": "float"})
    df.loc[3, "trial"] = np.nan
    with pytest.raises(KappaFrameError, match="trial column 'trial' is missing on 1 row"):
        kf.pairwise(df, item="item", rater="rater", label="label", trial="trial")


def test_one_trial_is_refused() -> None:
    df = _scores()
    df = df[df["trial"] == 1]
    with pytest.raises(KappaFrameError, match=r"holds 1 trial\(s\) \(\[1\]\).*at least 2"):
        kf.icc(df, item="item", rater="rater", value="score", trial="trial")


def test_trial_ids_that_cannot_be_ordered_are_refused() -> None:
    df = _scores().astype({"trial": object})
    df.loc[df["trial"] == 2, "trial"] = "second"
    with pytest.raises(KappaFrameError, match=r"cannot be ordered.*int, str.*one type"):
        kf.icc(df, item="item", rater="rater", value="score", trial="trial")


def test_the_wide_layout_needs_the_item_column() -> None:
    with pytest.raises(KappaFrameError, match="name the item column with item="):
        kf.bland_altman(_sbp(), ["J", "S"], trial="reading")


def test_a_repeat_within_one_trial_is_refused_or_kept_as_asked() -> None:
    df = _scores()
    twice = pd.concat([df, df.iloc[[0]].assign(score=99.0)], ignore_index=True)
    with pytest.raises(KappaFrameError, match="more than once in one trial"):
        kf.icc(twice, item="item", rater="rater", value="score", trial="trial")
    first = kf.icc(
        twice, item="item", rater="rater", value="score", trial="trial", duplicates="first"
    )
    plain = kf.icc(df, item="item", rater="rater", value="score", trial="trial")
    pd.testing.assert_frame_equal(first, plain)
    last = kf.icc(
        twice, item="item", rater="rater", value="score", trial="trial", duplicates="last"
    )
    assert not np.allclose(last["icc"], plain["icc"])


@pytest.mark.parametrize("function", ["pairwise", "overall"])
def test_a_repeat_within_one_trial_is_said_in_the_trials_words(function: str) -> None:
    """Not "rater 1 rated item 0 more than once" (the trial taken for a rater)."""
    df = _labels()
    twice = pd.concat([df, df.iloc[[0]]], ignore_index=True)
    call = getattr(kf, function)
    options = {"item": "item", "rater": "rater", "label": "label", "trial": "trial"}
    with pytest.raises(KappaFrameError, match=r"more than once in one trial \(1 time"):
        call(twice, **options)
    kept = call(twice, **options, duplicates="first")
    pd.testing.assert_frame_equal(kept, call(df, **options))


def test_a_lazy_frame_is_refused_with_the_way_out() -> None:
    lazy = pl.from_pandas(_scores()).lazy()
    with pytest.raises(
        KappaFrameError, match=r"pandas or polars DataFrame; got LazyFrame.*collect"
    ):
        kf.icc(lazy, item="item", rater="rater", value="score", trial="trial")


def test_trial_as_a_by_column_or_with_reference_is_refused() -> None:
    df = _labels()
    with pytest.raises(KappaFrameError, match="also a by column"):
        kf.pairwise(df, item="item", rater="rater", label="label", trial="trial", by="trial")
    with pytest.raises(KappaFrameError, match="reference= does not apply with trial="):
        kf.pairwise(df, item="item", rater="rater", label="label", trial="trial", reference="ann")


def test_the_wide_layout_keeps_the_column_order_and_the_categories() -> None:
    df = _sbp()[["subject", "reading", "S", "J"]]
    res = kf.bland_altman(df, item="subject", trial="reading")
    assert (res["rater_a"].iloc[0], res["rater_b"].iloc[0]) == ("S", "J")
    icc = kf.icc(df, item="subject", trial="reading")
    assert list(icc.loc[icc["kind"] == "intra", "rater"].unique()) == ["S", "J"]
    labels = _labels().replace({"label": {0: "low", 1: "mid", 2: "high"}})
    wide = labels.pivot_table(
        aggfunc="first", index=["item", "trial"], columns="rater", values="label"
    ).reset_index()
    ordered = pd.CategoricalDtype(["low", "mid", "high"], ordered=True)
    wide = wide.astype({"ann": ordered, "bob": ordered})
    got = kf.pairwise(wide, ["ann", "bob"], item="item", trial="trial", weights="linear")
    want = kf.pairwise(
        labels, item="item", rater="rater", label="label", trial="trial", weights="linear",
        categories=["low", "mid", "high"],
    )  # fmt: skip
    np.testing.assert_allclose(got["kappa"], want["kappa"], rtol=1e-12)


def test_a_rater_asked_for_without_ratings_is_refused() -> None:
    with pytest.raises(KappaFrameError, match="rater 'r9' has no rating in column 'rater'"):
        kf.icc(_scores(), ["r0", "r9"], item="item", rater="rater", value="score", trial="trial")


@pytest.mark.parametrize("function", ["pairwise", "overall", "icc", "bland_altman"])
def test_trials_with_clusters_are_refused_not_one_ignored(function: str) -> None:
    """Repeated trials' intervals are per item: a cluster column is refused, not dropped."""
    if function in ("pairwise", "overall"):
        df, value = _labels(), {"label": "label"}
    else:
        df, value = _scores(), {"value": "score"}
    df = df.assign(patient=df["item"].astype(str).str[-1])
    with pytest.raises(KappaFrameError, match=r"cluster='patient' does not apply with trial"):
        getattr(kf, function)(
            df, item="item", rater="rater", trial="trial", cluster="patient", **value
        )


def test_the_command_line_refuses_stream_with_trials(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--stream is not dropped quietly with --trial (the trials are read whole)."""
    from kappaframe import cli

    path = tmp_path / "trials.csv"
    _labels().to_csv(path, index=False)
    args = ["report", str(path), "--item", "item", "--rater", "rater", "--label", "label"]
    assert cli.main([*args, "--trial", "trial", "--stream", "--no-progress"]) == 2
    assert "repeated trials (--trial) are read whole; drop --stream." in capsys.readouterr().err
    assert cli.main([*args, "--trial", "trial", "--no-progress"]) == 0
