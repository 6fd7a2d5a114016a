"""``cluster=``: standard errors and intervals of kappa that linearise or resample by cluster.

The properties: one item per cluster gives the answer without ``cluster``; every item
duplicated inside its own cluster gives the same interval (the naive one shrinks by the
square root of two); a seeded simulation of clustered ratings covers near the nominal level
where the naive interval does not. And never a guess: a missing id, one cluster, an item in
two clusters are refused.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import kappaframe as kf
from kappaframe import KappaFrameError
from kappaframe._stats.agreement import agreement
from kappaframe._stats.cluster import cluster_errors, cluster_paired_delta, cluster_variance
from kappaframe._stats.compare import joint_patterns
from kappaframe._stats.inference import standard_errors

CI_COLUMNS = ["se", "se0", "ci_low", "ci_high", "z", "p_value"]


def _ratings(n_clusters: int = 15, size: int = 4, seed: int = 3) -> pd.DataFrame:
    """Three raters, items in clusters whose agreement differs from cluster to cluster."""
    rng = np.random.default_rng(seed)
    cluster = np.repeat(np.arange(n_clusters), size)
    n = cluster.size
    base = rng.integers(0, 3, n_clusters)[cluster]
    a = np.where(rng.random(n) < 0.7, base, rng.integers(0, 3, n))
    close = np.where(rng.random(n_clusters) < 0.5, 0.95, 0.4)[cluster]
    b = np.where(rng.random(n) < close, a, rng.integers(0, 3, n))
    c = np.where(rng.random(n) < 0.6, a, rng.integers(0, 3, n))
    return pd.DataFrame({"ann1": a, "ann2": b, "ann3": c, "patient": [f"p{k}" for k in cluster]})


def _long(wide: pd.DataFrame) -> pd.DataFrame:
    long = wide.assign(item=np.arange(len(wide))).melt(
        id_vars=["item", "patient"], var_name="rater", value_name="label"
    )
    return long.sample(frac=1.0, random_state=0).reset_index(drop=True)


def _twice(frame: pd.DataFrame) -> pd.DataFrame:
    """Every item twice, in its own cluster."""
    return pd.concat([frame, frame], ignore_index=True)


@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_one_item_per_cluster_is_the_answer_without_clusters(weights: str | None) -> None:
    df = _ratings()
    plain = kf.pairwise(df, ["ann1", "ann2", "ann3"], ci=0.95, weights=weights)
    alone = kf.pairwise(df.assign(id=np.arange(len(df))), ["ann1", "ann2", "ann3"], ci=0.95,
                        weights=weights, cluster="id")  # fmt: skip
    pd.testing.assert_frame_equal(alone, plain, check_exact=True)
    boot = {"ci": 0.9, "ci_method": "bootstrap", "n_boot": 200, "seed": 5}
    plain = kf.pairwise(df, ["ann1", "ann2"], **boot)
    alone = kf.pairwise(df.assign(id=np.arange(len(df))), ["ann1", "ann2"], cluster="id", **boot)
    pd.testing.assert_frame_equal(alone, plain, check_exact=True)


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_the_linearisation_of_single_items_is_fleiss_cohen_everitt(weights: str | None) -> None:
    # Not through the shortcut of single items: the sum of squared influences itself.
    df = _ratings()
    codes = df[["ann1", "ann2"]].to_numpy()
    per = np.zeros((1, len(df), 3, 3))
    per[0, np.arange(len(df)), codes[:, 0], codes[:, 1]] = 1
    w = {None: 1 - np.eye(3), "linear": None, "quadratic": None}[weights]
    if w is None:
        d = np.abs(np.subtract.outer(np.arange(3), np.arange(3))).astype(float)
        w = d / 2 if weights == "linear" else d**2 / 4
    counts = per.sum(axis=1, keepdims=True)
    kappa = agreement(counts, w)["kappa"]
    var, clusters = cluster_variance(per, np.zeros(len(df), np.intp), counts, w, kappa)
    fce = standard_errors(counts, w, kappa, 0.95)["se"]
    np.testing.assert_allclose(np.sqrt(var), fce, rtol=1e-12, atol=0)
    assert clusters[0, 0] == len(df)


def test_every_item_twice_in_its_cluster_gives_the_same_interval() -> None:
    df = _ratings()
    raters = ["ann1", "ann2", "ann3"]
    once = kf.pairwise(df, raters, ci=0.95, cluster="patient")
    twice = kf.pairwise(_twice(df), raters, ci=0.95, cluster="patient")
    for column in ["kappa", *CI_COLUMNS]:
        np.testing.assert_allclose(twice[column], once[column], rtol=1e-12, atol=1e-12)
    # Without the clusters, the same duplication shrinks the interval by sqrt(2).
    naive_once = kf.pairwise(df, raters, ci=0.95)
    naive_twice = kf.pairwise(_twice(df), raters, ci=0.95)
    np.testing.assert_allclose(naive_once["se"] / naive_twice["se"], math.sqrt(2), rtol=1e-12)
    half = (naive_once["ci_high"] - naive_once["ci_low"]) / 2
    half_twice = (naive_twice["ci_high"] - naive_twice["ci_low"]) / 2
    np.testing.assert_allclose(half / half_twice, math.sqrt(2), rtol=1e-12)
    # And the clustered interval is wider than the naive one on these clustered data.
    assert (once["se"] > naive_once["se"]).any()


def test_the_cluster_bootstrap_draws_clusters() -> None:
    df = _ratings()
    boot = {"ci": 0.95, "ci_method": "bootstrap", "n_boot": 300, "seed": 11}
    once = kf.pairwise(df, ["ann1", "ann2"], cluster="patient", **boot)
    twice = kf.pairwise(_twice(df), ["ann1", "ann2"], cluster="patient", **boot)
    # The same clusters drawn (same seed, same clusters): each replicate's kappa is the same.
    for column in ("se", "ci_low", "ci_high"):
        np.testing.assert_allclose(twice[column], once[column], rtol=1e-12, atol=1e-12)
    analytic = kf.pairwise(df, ["ann1", "ann2"], ci=0.95, cluster="patient")
    assert once["se"].iloc[0] == pytest.approx(analytic["se"].iloc[0], rel=0.25)
    again = kf.pairwise(df, ["ann1", "ann2"], cluster="patient", **boot)
    pd.testing.assert_frame_equal(again, once)


def test_coverage_of_clustered_ratings_is_near_nominal() -> None:
    """400 seeded studies of 40 clusters of 8 items: the cluster-robust 95% interval covers
    the kappa of the population near 95%; the naive one, treating items as independent,
    well below."""
    n_clusters, size, k = 40, 8, 3
    w = 1.0 - np.eye(k)

    def studies(rng: np.random.Generator, count: int) -> np.ndarray:
        base = rng.integers(0, k, (count, n_clusters, 1))
        a = np.where(rng.random((count, n_clusters, size)) < 0.7, base,
                     rng.integers(0, k, (count, n_clusters, size)))  # fmt: skip
        close = np.where(rng.random((count, n_clusters, 1)) < 0.5, 0.95, 0.35)
        b = np.where(rng.random((count, n_clusters, size)) < close, a,
                     rng.integers(0, k, (count, n_clusters, size)))  # fmt: skip
        per = np.zeros((count, n_clusters, k, k))
        study, cluster, _ = np.indices((count, n_clusters, size))
        np.add.at(per, (study, cluster, a, b), 1)
        return per

    population = studies(np.random.default_rng(1), 2000).sum(axis=(0, 1))
    truth = float(agreement(population, w)["kappa"])
    per = studies(np.random.default_rng(7), 400)  # one study per "pair"
    counts = per.sum(axis=1, keepdims=True)
    kappa = agreement(counts, w)["kappa"]
    robust = cluster_errors(per, np.zeros(n_clusters, np.intp), counts, w, kappa, 0.95)
    naive = standard_errors(counts, w, kappa, 0.95)
    covered = float(((robust["ci_low"] <= truth) & (truth <= robust["ci_high"])).mean())
    naive_covered = float(((naive["ci_low"] <= truth) & (truth <= naive["ci_high"])).mean())
    assert 0.92 <= covered <= 0.98, covered
    assert naive_covered < 0.85, naive_covered


def test_the_long_layout_gives_the_wide_layouts_numbers() -> None:
    df = _ratings()
    wide = kf.pairwise(df, ["ann1", "ann2", "ann3"], ci=0.95, cluster="patient")
    long = kf.pairwise(_long(df), item="item", rater="rater", label="label", ci=0.95,
                       cluster="patient")  # fmt: skip
    for column in ["n", "kappa", *CI_COLUMNS]:
        np.testing.assert_allclose(long[column], wide[column], rtol=1e-12)


def test_groups_are_the_subsets_answers() -> None:
    df = _ratings().assign(site=lambda d: np.where(d["patient"] < "p5", "north", "south"))
    both = kf.pairwise(df, ["ann1", "ann2"], by="site", ci=0.95, cluster="patient")
    for site, part in df.groupby("site"):
        alone = kf.pairwise(part, ["ann1", "ann2"], ci=0.95, cluster="patient")
        row = both[both["site"] == site]
        for column in ["kappa", *CI_COLUMNS]:
            assert row[column].iloc[0] == pytest.approx(alone[column].iloc[0], rel=1e-12)


def test_polars_gives_pandas_numbers_and_the_frame_is_untouched() -> None:
    pl = pytest.importorskip("polars")
    df = _ratings()
    before = df.copy()
    res = kf.pairwise(df, ["ann1", "ann2"], ci=0.95, cluster="patient")
    pd.testing.assert_frame_equal(df, before)
    res_pl = kf.pairwise(pl.from_pandas(df), ["ann1", "ann2"], ci=0.95, cluster="patient")
    for column in ["kappa", *CI_COLUMNS]:
        assert res_pl[column][0] == pytest.approx(res[column].iloc[0], rel=1e-12)


def test_the_cluster_is_never_a_rater() -> None:
    df = _ratings()
    res = kf.pairwise(df, ci=0.95, cluster="patient")  # every other column is a rater
    assert set(res["rater_a"]) | set(res["rater_b"]) == {"ann1", "ann2", "ann3"}


def test_ci_dist_t_takes_the_clusters_as_its_degrees_of_freedom() -> None:
    df = _ratings(n_clusters=6)
    normal = kf.pairwise(df, ["ann1", "ann2"], ci=0.95, cluster="patient").iloc[0]
    t = kf.pairwise(df, ["ann1", "ann2"], ci=0.95, cluster="patient", ci_dist="t").iloc[0]
    assert t["se"] == normal["se"]
    half = stats.t.ppf(0.975, 5) * normal["se"]
    assert t["ci_high"] == pytest.approx(min(1.0, normal["kappa"] + half), rel=1e-12)


def test_a_missing_cluster_id_is_refused() -> None:
    df = _ratings().astype({"patient": object})
    df.loc[5, "patient"] = None
    with pytest.raises(KappaFrameError, match=r"'patient' has 1 missing id.*row 5.*drop those"):
        kf.pairwise(df, ["ann1", "ann2"], ci=0.95, cluster="patient")


def test_one_cluster_is_refused() -> None:
    df = _ratings().assign(patient="p0")
    with pytest.raises(KappaFrameError, match=r"'patient' holds one cluster only \('p0'\).*leave"):
        kf.pairwise(df, ["ann1", "ann2"], ci=0.95, cluster="patient")


def test_an_item_in_two_clusters_is_refused() -> None:
    long = _long(_ratings())
    row = long.index[(long["item"] == 7) & (long["rater"] == "ann2")][0]
    long.loc[row, "patient"] = "p9"
    with pytest.raises(KappaFrameError, match=r"item 7 is in two clusters of column 'patient'"):
        kf.pairwise(long, item="item", rater="rater", label="label", ci=0.95, cluster="patient")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cluster": "nope"}, "cluster column not found: 'nope'"),
        ({"cluster": "ann1"}, "cluster='ann1' is also a raters column"),
        ({"cluster": "patient", "by": "patient"}, "cluster='patient' is also a by column"),
        ({"cluster": "patient", "population": 1000}, "population=1000.*do not mix"),
    ],
)
def test_bad_cluster_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(KappaFrameError, match=message):
        kf.pairwise(_ratings(), ["ann1", "ann2"], ci=0.95, **options)  # type: ignore[arg-type]


def test_a_lazy_input_is_refused_with_the_way_out() -> None:
    pl = pytest.importorskip("polars")
    lazy = pl.from_pandas(_ratings()).lazy()
    with pytest.raises(KappaFrameError, match=r"needs every rating in memory.*\.collect\(\)"):
        kf.pairwise(lazy, ["ann1", "ann2"], ci=0.95, cluster="patient").collect()


def test_the_result_records_its_cluster_column() -> None:
    res = kf.pairwise(_ratings(), ["ann1", "ann2"], ci=0.95, cluster="patient")
    assert res.attrs["kappaframe"]["cluster"] == "patient"
    plain = kf.pairwise(_ratings(), ["ann1", "ann2"], ci=0.95)
    with pytest.raises(KappaFrameError, match="cluster"):
        kf.against_baseline(plain, baseline=res, max_drop=0.1)


def test_the_command_line_records_the_cluster_and_the_gate_matches_it(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    from kappaframe import cli

    path = tmp_path / "ratings.csv"  # type: ignore[operator]
    _ratings().to_csv(path, index=False)
    old = tmp_path / "old.csv"  # type: ignore[operator]
    common = ["report", str(path), "--raters", "ann1", "ann2", "--ci", "0.95", "--no-progress"]
    assert cli.main([*common, "--cluster", "patient", "--output", str(old)]) == 0
    written = pd.read_csv(old)
    res = kf.pairwise(_ratings(), ["ann1", "ann2"], ci=0.95, cluster="patient")
    assert written["se"].iloc[0] == pytest.approx(res["se"].iloc[0], rel=1e-12)
    capsys.readouterr()
    assert cli.main([*common, "--baseline", str(old), "--max-drop", "0.1"]) == 2
    assert "--cluster: patient then, none now" in capsys.readouterr().err
    gate = [*common, "--cluster", "patient", "--baseline", str(old), "--max-drop", "0.5"]
    assert cli.main(gate) == 0


# ----------------------------------------------------------------------------- compare


def _two_models(seed: int = 4) -> pd.DataFrame:
    """A gold label and two models, 30 patients of 4 scans, some patients hard for model 2."""
    rng = np.random.default_rng(seed)
    patient = np.repeat(np.arange(30), 4)
    gold = rng.integers(0, 2, 30)[patient]
    m1 = np.where(rng.random(120) < 0.8, gold, 1 - gold)
    m2 = np.where(rng.random(120) < np.where(rng.random(30) < 0.5, 0.95, 0.5)[patient], gold,
                  1 - gold)  # fmt: skip
    return pd.DataFrame({"gold": gold, "m1": m1, "m2": m2, "patient": patient})


COMPARED = ["difference", "se", "ci_low", "ci_high", "z", "p_value"]


@pytest.mark.parametrize("method", ["delta", "bootstrap"])
def test_compare_one_item_per_cluster_and_items_twice(method: str) -> None:
    df = _two_models()
    opts = {"method": method} | ({"n_boot": 300, "seed": 2} if method == "bootstrap" else {})
    pairs = (("m1", "gold"), ("m2", "gold"))
    plain = kf.compare(df, *pairs, **opts)
    alone = kf.compare(df.assign(id=np.arange(len(df))), *pairs, cluster="id", **opts)
    pd.testing.assert_frame_equal(alone, plain, check_exact=True)
    once = kf.compare(df, *pairs, cluster="patient", **opts)
    twice = kf.compare(_twice(df), *pairs, cluster="patient", **opts)
    for column in COMPARED:
        np.testing.assert_allclose(twice[column], once[column], rtol=1e-12, atol=1e-12)
    assert once["se"].iloc[0] != pytest.approx(plain["se"].iloc[0], rel=0.01)


def test_compare_cluster_variances_are_pairwise_cluster_variances() -> None:
    df = _two_models()
    codes = df[["m1", "gold", "m2"]].to_numpy().T
    whole = joint_patterns(codes, None, 1, 2)
    per = joint_patterns(codes, df["patient"].to_numpy(), 30, 2)
    out = cluster_paired_delta(per, np.zeros(30, np.intp), whole, (0, 1), (2, 1), 1 - np.eye(2),
                               0.95)  # fmt: skip
    for first, name in (("m1", "se_first"), ("m2", "se_second")):
        one = kf.pairwise(df, [first, "gold"], ci=0.95, cluster="patient")
        assert out[name][0] == pytest.approx(one["se"].iloc[0], rel=1e-12)
    res = kf.compare(df, ("m1", "gold"), ("m2", "gold"), cluster="patient")
    assert res["se"].iloc[0] == pytest.approx(out["se"][0], rel=1e-12)


def test_compare_of_two_results_refuses_a_cluster() -> None:
    one = kf.pairwise(_two_models(), ["m1", "gold"], ci=0.95)
    with pytest.raises(KappaFrameError, match=r"cluster= applies to two rater pairs"):
        kf.compare(one, one, cluster="patient")


# ----------------------------------------------------------------------------- overall

LINEARIZED = ["fleiss", "gwet_ac1", "conger", "brennan_prediger"]
EVERY_METHOD = [*LINEARIZED, "krippendorff", "percent", "light"]
OVERALL_ERRORS = ["value", "se", "se0", "ci_low", "ci_high", "z", "p_value"]
RATERS = ["ann1", "ann2", "ann3"]


def _numbers(res: pd.DataFrame) -> np.ndarray:
    return res[OVERALL_ERRORS].to_numpy(dtype=float)


def test_overall_one_item_per_cluster_is_the_answer_without_clusters() -> None:
    df = _ratings().assign(id=lambda d: np.arange(len(d)))
    plain = kf.overall(df, RATERS, method=LINEARIZED, ci=0.95)
    alone = kf.overall(df, RATERS, method=LINEARIZED, ci=0.95, cluster="id")
    np.testing.assert_array_equal(_numbers(alone), _numbers(plain))
    boot = {"ci": 0.9, "ci_method": "bootstrap", "n_boot": 200, "seed": 4}
    plain = kf.overall(df, RATERS, method=EVERY_METHOD, **boot)
    alone = kf.overall(df, RATERS, method=EVERY_METHOD, cluster="id", **boot)
    np.testing.assert_array_equal(_numbers(alone), _numbers(plain))


def test_overall_every_item_twice_in_its_cluster_gives_the_same_interval() -> None:
    df = _ratings()
    once = kf.overall(df, RATERS, method=LINEARIZED, ci=0.95, cluster="patient")
    twice = kf.overall(_twice(df), RATERS, method=LINEARIZED, ci=0.95, cluster="patient")
    np.testing.assert_allclose(_numbers(twice), _numbers(once), rtol=1e-12, atol=1e-12)
    naive = kf.overall(df, RATERS, method=LINEARIZED, ci=0.95)
    assert (once["se"] > naive["se"]).any()
    # (Krippendorff's alpha itself changes when every value is doubled: not here.)
    boot = {"ci": 0.9, "ci_method": "bootstrap", "n_boot": 200, "seed": 4}
    methods = [m for m in EVERY_METHOD if m != "krippendorff"]
    once = kf.overall(df, RATERS, method=methods, cluster="patient", **boot)
    twice = kf.overall(_twice(df), RATERS, method=methods, cluster="patient", **boot)
    np.testing.assert_allclose(_numbers(twice), _numbers(once), rtol=1e-12, atol=1e-12)


def test_overall_groups_are_the_subsets_answers() -> None:
    df = _ratings().assign(site=lambda d: np.where(d["patient"] < "p5", "north", "south"))
    both = kf.overall(df, RATERS, by="site", method=LINEARIZED, ci=0.95, cluster="patient")
    for site, part in df.groupby("site"):
        alone = kf.overall(part, RATERS, method=LINEARIZED, ci=0.95, cluster="patient")
        np.testing.assert_allclose(
            _numbers(both[both["site"] == site]), _numbers(alone), rtol=1e-12, atol=1e-15
        )


@pytest.mark.parametrize("method", ["krippendorff", "percent", "light"])
def test_overall_without_a_cluster_linearisation_asks_for_the_bootstrap(method: str) -> None:
    with pytest.raises(KappaFrameError, match=rf"'{method}' has no linearized.*ci_method="):
        kf.overall(_ratings(), RATERS, method=method, ci=0.95, cluster="patient")


def test_overall_counts_have_no_clusters() -> None:
    table = pd.DataFrame({"a": [2, 1, 0], "b": [0, 1, 2], "patient": [1, 1, 2]})
    with pytest.raises(KappaFrameError, match=r"cluster='patient' reads each item's cluster"):
        kf.overall(table, layout="counts", categories=["a", "b"], ci=0.95, cluster="patient")


# ----------------------------------------------------------------------------- numeric


def _scores(seed: int = 5) -> pd.DataFrame:
    """Three raters' scores of 30 patients' 4 lesions; lesions of a patient alike."""
    rng = np.random.default_rng(seed)
    patient = np.repeat(np.arange(30), 4)
    true = rng.normal(size=30)[patient] * 2 + rng.normal(size=120)
    return pd.DataFrame(
        {
            "a": true + rng.normal(size=120) * 0.5,
            "b": true + 0.3 + rng.normal(size=120) * 0.5,
            "c": true + rng.normal(size=120) * 0.7,
            "patient": patient,
        }
    )


def test_ccc_cluster_bootstrap_is_the_same_for_every_item_twice() -> None:
    df = _scores()
    once = kf.ccc(df, ["a", "b", "c"], cluster="patient", seed=1, n_boot=300)
    twice = kf.ccc(_twice(df), ["a", "b", "c"], cluster="patient", seed=1, n_boot=300)
    for column in ("ccc", "se", "ci_low", "ci_high"):
        np.testing.assert_allclose(twice[column], once[column], rtol=1e-12, atol=1e-12)
    plain = kf.ccc(df, ["a", "b", "c"])
    np.testing.assert_array_equal(once["ccc"], plain["ccc"])
    assert ((once["ci_low"] < once["ccc"]) & (once["ccc"] < once["ci_high"])).all()
    assert (once["se"] > plain["se"]).all()  # the lesions of a patient are alike
    again = kf.ccc(df, ["a", "b", "c"], cluster="patient", seed=1, n_boot=300)
    pd.testing.assert_frame_equal(again, once)


def test_ccc_long_layout_and_groups() -> None:
    df = _scores().assign(site=lambda d: np.where(d["patient"] < 15, "north", "south"))
    wide = kf.ccc(df, ["a", "b"], by="site", cluster="patient", seed=2, n_boot=200)
    long = df.assign(item=np.arange(len(df))).melt(
        id_vars=["item", "patient", "site"], value_vars=["a", "b"], var_name="rater"
    )
    got = kf.ccc(long, item="item", rater="rater", value="value", by="site",
                 cluster="patient", seed=2, n_boot=200)  # fmt: skip
    for column in ("ccc", "se", "ci_low", "ci_high"):
        np.testing.assert_allclose(got[column], wide[column], rtol=1e-12)
    assert wide["ci_low"].notna().all()


def test_bland_altman_and_icc_cluster_intervals() -> None:
    df = _scores()
    plain = kf.bland_altman(df, ["a", "b"])
    res = kf.bland_altman(df, ["a", "b"], cluster="patient", seed=3, n_boot=300)
    for line in ("bias", "loa_low", "loa_high"):
        assert res[line].iloc[0] == plain[line].iloc[0]
        assert res[f"{line}_ci_low"].iloc[0] < res[line].iloc[0] < res[f"{line}_ci_high"].iloc[0]
    icc = kf.icc(df, ["a", "b", "c"], cluster="patient", seed=3, n_boot=300)
    icc_plain = kf.icc(df, ["a", "b", "c"])
    np.testing.assert_array_equal(icc["icc"], icc_plain["icc"])
    np.testing.assert_array_equal(icc["p_value"], icc_plain["p_value"])
    assert ((icc["ci_low"] < icc["icc"]) & (icc["icc"] < icc["ci_high"])).all()
    assert not np.allclose(icc["ci_low"], icc_plain["ci_low"])


@pytest.mark.parametrize("function", [kf.icc, kf.ccc, kf.bland_altman])
def test_numeric_draws_need_a_cluster(function: object) -> None:
    with pytest.raises(KappaFrameError, match=r"seed= applies to the cluster bootstrap"):
        function(_scores(), ["a", "b"], seed=1)  # type: ignore[operator]
    pl = pytest.importorskip("polars")
    lazy = pl.from_pandas(_scores()).lazy()
    with pytest.raises(KappaFrameError, match=r"needs every rating in memory"):
        result = function(lazy, ["a", "b"], cluster="patient")  # type: ignore[operator]
        result.collect()


def test_a_group_with_one_cluster_gets_no_interval() -> None:
    df = _ratings().assign(site=lambda d: np.where(d["patient"] == "p0", "alone", "many"))
    res = kf.pairwise(df, ["ann1", "ann2"], by="site", ci=0.95, cluster="patient")
    alone, many = res[res["site"] == "alone"].iloc[0], res[res["site"] == "many"].iloc[0]
    assert np.isnan(alone["se"]) and np.isnan(alone["ci_low"]) and not np.isnan(alone["kappa"])
    assert np.isfinite(many["se"])


def test_clusters_with_what_is_per_item_are_refused_not_one_ignored() -> None:
    """The incomplete design's ICC and the proportional-bias line are per item."""
    long = _long(_ratings()).rename(columns={"label": "score"})
    with pytest.raises(kf.KappaFrameError, match=r"cluster='patient' does not apply with missing"):
        kf.icc(
            long, item="item", rater="rater", value="score", cluster="patient", missing="available"
        )
    with pytest.raises(kf.KappaFrameError, match=r"proportional=True does not apply with cluster"):
        kf.bland_altman(_ratings(), ["ann1", "ann2"], cluster="patient", proportional=True)
