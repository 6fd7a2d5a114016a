"""pairwise(stats=..., reference=..., ci_method="bootstrap"): oracles, identities, backends."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._stats.agreement import agreement, weight_matrix
from kappaframe._stats.bootstrap import bootstrap_kappa
from kappaframe._stats.family import FAMILY, family, kappa_max

from ..conftest import native_type_matches, to_pandas

inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")


def frame_from_table(table: Any, labels: list[Any] | None = None) -> pd.DataFrame:
    table = np.asarray(table)
    labels = list(range(table.shape[0])) if labels is None else labels
    a, b = [], []
    for (i, j), count in np.ndenumerate(table):
        a += [labels[i]] * int(count)
        b += [labels[j]] * int(count)
    return pd.DataFrame({"a": a, "b": b})


def random_tables(rng: np.random.Generator, k: int, count: int) -> np.ndarray:
    base = rng.integers(0, 25, (count, k, k))
    return base + rng.integers(3, 40, (count, k))[:, :, None] * np.eye(k, dtype=int)


# --------------------------------------------------------------------- oracles


@pytest.mark.parametrize("k", [2, 3, 5])
def test_kappa_max_matches_statsmodels(k: int, rng: np.random.Generator) -> None:
    tables = random_tables(rng, k, 20)
    ours = kappa_max(tables, weight_matrix(None, range(k)))
    for table, value in zip(tables, ours, strict=True):
        assert value == pytest.approx(inter_rater.cohens_kappa(table).kappa_max, abs=1e-12)


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_kappa_max_is_the_linear_program_optimum(
    weights: str, rng: np.random.Generator
) -> None:
    optimize = pytest.importorskip("scipy.optimize")
    k = 4
    w = weight_matrix(weights, range(k))
    for table in random_tables(rng, k, 8):
        probs = table / table.sum()
        rows, cols = probs.sum(1), probs.sum(0)
        # maximise sum (1 - W) x over tables x >= 0 with these marginals
        a_eq = np.vstack([np.kron(np.eye(k), np.ones(k)), np.kron(np.ones(k), np.eye(k))])
        res = optimize.linprog(w.ravel(), A_eq=a_eq, b_eq=np.r_[rows, cols], bounds=(0, None))
        p_e = 1 - rows @ w @ cols
        expected = ((1 - res.fun) - p_e) / (1 - p_e)
        assert kappa_max(table, w) == pytest.approx(expected, abs=1e-9)
        kappa = agreement(table, w)["kappa"]
        assert kappa <= kappa_max(table, w) + 1e-12


def test_kappa_max_is_nan_for_weights_it_cannot_optimise() -> None:
    custom = np.array([[0, 1, 0.2], [1, 0, 1], [0.2, 1, 0]])
    assert np.isnan(kappa_max(np.array([[5, 1, 2], [1, 6, 0], [0, 2, 7]]), custom))


def test_scott_pi_and_bennett_s_match_statsmodels_fleiss(rng: np.random.Generator) -> None:
    # With two raters and no missing label, Fleiss' kappa is Scott's pi and Randolph's
    # free-marginal kappa is Bennett's S.
    for table in random_tables(rng, 3, 10):
        df = frame_from_table(table)
        res = df.kappa.pairwise(stats=["scott_pi", "bennett_s"]).iloc[0]
        counts = inter_rater.aggregate_raters(df.to_numpy(), n_cat=3)[0]
        assert res["scott_pi"] == pytest.approx(inter_rater.fleiss_kappa(counts), abs=1e-12)
        randolph = inter_rater.fleiss_kappa(counts, method="randolph")
        assert res["bennett_s"] == pytest.approx(randolph, abs=1e-12)


def test_gwet_ac1_handbook_example() -> None:
    # Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed.: 100 pregnant women
    # classified by two abstractors (Ectopic, AIU, NIU): AC1 = 0.84933, p_a 0.89,
    # p_e 0.26992 (the values irrCAC prints for this table).
    table = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
    res = frame_from_table(table, ["Ectopic", "AIU", "NIU"]).kappa.pairwise(
        stats=["gwet_ac1"], categories=["Ectopic", "AIU", "NIU"]
    )
    assert round(float(res["gwet_ac1"].iloc[0]), 5) == 0.84933
    assert res["p_o"].iloc[0] == pytest.approx(0.89, abs=1e-12)


def test_byrt_bishop_carlin_identities(rng: np.random.Generator) -> None:
    # PABAK = 2 p_o - 1, and kappa = (PABAK - PI^2 + BI^2) / (1 - PI^2 + BI^2).
    tables = random_tables(rng, 2, 30)
    w = weight_matrix(None, [0, 1])
    got = family(tables, w, ["pabak", "prevalence_index", "bias_index"])
    stats = agreement(tables, w)
    assert np.allclose(got["pabak"], 2 * stats["p_o"] - 1, rtol=0, atol=1e-12)
    pi2, bi2 = got["prevalence_index"] ** 2, got["bias_index"] ** 2
    kappa = (got["pabak"] - pi2 + bi2) / (1 - pi2 + bi2)
    assert np.allclose(kappa, stats["kappa"], rtol=0, atol=1e-12)
    # signs: a = both first category, d = both second; b = rater a first, rater b second
    table = np.array([[40, 10], [2, 48]])
    one = family(table, w, ["prevalence_index", "bias_index"])
    assert one["prevalence_index"] == pytest.approx((40 - 48) / 100)
    assert one["bias_index"] == pytest.approx((10 - 2) / 100)


def test_prevalence_and_bias_need_two_categories() -> None:
    w = weight_matrix(None, range(3))
    got = family(np.array([[5, 1, 0], [1, 5, 1], [0, 1, 5]]), w, ["prevalence_index", "bias_index"])
    assert np.isnan(got["prevalence_index"]) and np.isnan(got["bias_index"])


def test_pontius_quantity_plus_allocation_is_disagreement(rng: np.random.Generator) -> None:
    k = 4
    tables = random_tables(rng, k, 30)
    w = weight_matrix(None, range(k))
    got = family(tables, w, ["quantity_disagreement", "allocation_disagreement"])
    p_o = agreement(tables, w)["p_o"]
    total = got["quantity_disagreement"] + got["allocation_disagreement"]
    assert np.allclose(total, 1 - p_o, rtol=0, atol=1e-12)
    assert np.all(got["allocation_disagreement"] >= 0)
    # Pontius & Millones' definition of quantity: half the sum of marginal differences.
    probs = tables / tables.sum(axis=(1, 2))[:, None, None]
    half = np.abs(probs.sum(2) - probs.sum(1)).sum(1) / 2
    assert np.allclose(got["quantity_disagreement"], half, rtol=0, atol=1e-12)
    # A table with equal marginals has no quantity disagreement.
    same = np.array([[10, 3, 0], [0, 10, 3], [3, 0, 10]])
    one = family(same, weight_matrix(None, range(3)), ["quantity_disagreement"])
    assert one["quantity_disagreement"] == 0


def test_pabak_generalises_to_k_categories() -> None:
    table = np.array([[10, 2, 1], [1, 8, 2], [0, 3, 9]])
    w = weight_matrix(None, range(3))
    got = family(table, w, ["pabak", "bennett_s"])
    p_o = 27 / 36
    assert got["pabak"] == pytest.approx((3 * p_o - 1) / 2, abs=1e-12)
    assert got["bennett_s"] == pytest.approx(got["pabak"], abs=1e-12)


def test_weighted_family_uses_the_rows_p_o() -> None:
    table = np.array([[10, 2, 1], [1, 8, 2], [0, 3, 9]])
    w = weight_matrix("quadratic", range(3))
    got = family(table, w, ["scott_pi", "bennett_s", "gwet_ac1", "pabak"])
    p_o = agreement(table, w)["p_o"]
    pooled = (table.sum(1) + table.sum(0)) / (2 * table.sum())
    p_e = 1 - pooled @ w @ pooled
    assert got["scott_pi"] == pytest.approx((p_o - p_e) / (1 - p_e), abs=1e-12)
    p_e_s = 1 - w.sum() / 9
    assert got["bennett_s"] == pytest.approx((p_o - p_e_s) / (1 - p_e_s), abs=1e-12)
    # gwet_ac1 and pabak stay unweighted
    plain = family(table, weight_matrix(None, range(3)), ["gwet_ac1", "pabak"])
    assert got["gwet_ac1"] == pytest.approx(plain["gwet_ac1"], abs=1e-15)
    assert got["pabak"] == pytest.approx(plain["pabak"], abs=1e-15)


def test_undefined_family_values_are_nan_not_one() -> None:
    # Both raters used one and the same category: chance agreement 1 for kappa, Scott's pi
    # and kappa_max; Gwet's AC1 (p_e = 0 there) and Bennett's S stay defined.
    w = weight_matrix(None, ["a", "b"])
    got = family(np.array([[7, 0], [0, 0]]), w, list(FAMILY))
    assert np.isnan(got["kappa_max"]) and np.isnan(got["scott_pi"])
    assert got["gwet_ac1"] == 1.0 and got["bennett_s"] == 1.0
    empty = family(np.zeros((2, 2), int), w, list(FAMILY))
    assert all(np.isnan(v) for v in empty.values())


# --------------------------------------------------------------------- frames


def labeling_team(rng: np.random.Generator, n: int = 240) -> dict[str, Any]:
    truth = rng.choice(["no", "yes"], n, p=[0.7, 0.3])
    data: dict[str, Any] = {"project": rng.choice(["p1", "p2"], n)}
    for name, skill in [("gold", 1.0), ("ann1", 0.85), ("ann2", 0.6)]:
        labels = np.where(rng.random(n) < skill, truth, rng.choice(["no", "yes"], n))
        labels = labels.astype(object)
        if name != "gold":
            labels[rng.random(n) < 0.1] = None
        data[name] = labels
    return data


def test_stats_columns_on_every_backend(constructor: Any, rng: np.random.Generator) -> None:
    data = labeling_team(rng)
    frame = constructor(data)
    res = frame.kappa.pairwise(["gold", "ann1", "ann2"], by="project", ci=0.9, stats="all")
    assert native_type_matches(res, frame)
    out = to_pandas(res)
    ci_cols = ["se", "se0", "ci_low", "ci_high", "z", "p_value"]
    tidy = ["project", "rater_a", "rater_b", "n", "p_o", "p_e", "kappa", "interpretation"]
    assert list(out.columns) == [*tidy, *ci_cols, *FAMILY]
    expected = pd.DataFrame(data).kappa.pairwise(
        ["gold", "ann1", "ann2"], by="project", ci=0.9, stats="all"
    )
    for name in FAMILY:
        np.testing.assert_allclose(out[name], expected[name], rtol=0, atol=1e-12)
    # the family is computed from the same table as kappa
    two = frame_from_table([[30, 5], [8, 17]])
    row = two.kappa.pairwise(stats=["pabak"]).iloc[0]
    assert row["pabak"] == pytest.approx(2 * row["p_o"] - 1, abs=1e-12)


def test_stats_selection_and_errors(rng: np.random.Generator) -> None:
    df = pd.DataFrame(labeling_team(rng))
    res = df.kappa.pairwise(["ann1", "ann2"], stats=["gwet_ac1", "kappa_max"])
    assert list(res.columns)[-2:] == ["gwet_ac1", "kappa_max"]
    res = df.kappa.pairwise(["ann1", "ann2"], stats="pabak")
    assert list(res.columns)[-1] == "pabak"
    with pytest.raises(kf.KappaFrameError, match="unknown name 'kapa_max'"):
        df.kappa.pairwise(["ann1", "ann2"], stats=["kapa_max"])
    with pytest.raises(kf.KappaFrameError, match="twice"):
        df.kappa.pairwise(["ann1", "ann2"], stats=["pabak", "pabak"])
    clash = df.rename(columns={"project": "pabak"})
    with pytest.raises(kf.KappaFrameError, match="name of an output column"):
        clash.kappa.pairwise(["ann1", "ann2"], by="pabak", stats="all")


def test_reference_pairs_each_rater_with_the_reference(
    constructor: Any, rng: np.random.Generator
) -> None:
    data = labeling_team(rng)
    frame = constructor(data)
    res = to_pandas(
        frame.kappa.pairwise(
            ["ann1", "ann2", "gold"], by="project", reference="gold", stats=["bias_index"]
        )
    )
    assert list(zip(res["project"], res["rater_a"], res["rater_b"], strict=True)) == [
        ("p1", "ann1", "gold"),
        ("p1", "ann2", "gold"),
        ("p2", "ann1", "gold"),
        ("p2", "ann2", "gold"),
    ]
    full = pd.DataFrame(data).kappa.pairwise(
        ["gold", "ann1", "ann2"], by="project", stats=["bias_index"]
    )
    full = full[full["rater_a"] == "gold"]
    np.testing.assert_allclose(res["kappa"], full["kappa"], rtol=0, atol=1e-12)
    # rater_a is the rater: the table is transposed, so the bias index flips its sign
    np.testing.assert_allclose(res["bias_index"], -full["bias_index"].to_numpy(), atol=1e-12)


def test_reference_is_added_to_raters_and_checked(rng: np.random.Generator) -> None:
    df = pd.DataFrame(labeling_team(rng))
    res = df.kappa.pairwise(["ann1", "ann2"], reference="gold")
    assert list(res["rater_b"]) == ["gold", "gold"]
    with pytest.raises(kf.KappaFrameError, match="not found"):
        df.kappa.pairwise(["ann1", "ann2"], reference="truth")
    with pytest.raises(kf.KappaFrameError, match="reference 'project' is not one of"):
        df.kappa.pairwise(by="project", reference="project")


def test_reference_in_the_long_layout(rng: np.random.Generator) -> None:
    wide = pd.DataFrame(labeling_team(rng)).reset_index(names="item")
    long = wide.melt(id_vars=["item", "project"], var_name="who", value_name="label")
    res = long.kappa.pairwise(item="item", rater="who", label="label", reference="gold")
    assert list(zip(res["rater_a"], res["rater_b"], strict=True)) == [
        ("ann1", "gold"),
        ("ann2", "gold"),
    ]
    expected = wide.kappa.pairwise(["ann1", "ann2", "gold"], reference="gold")
    np.testing.assert_allclose(res["kappa"], expected["kappa"], rtol=0, atol=1e-12)


# --------------------------------------------------------------------- bootstrap


def test_bootstrap_is_reproducible_and_close_to_the_analytic_se(
    constructor: Any, rng: np.random.Generator
) -> None:
    data = labeling_team(rng, n=600)
    frame = constructor(data)
    kwargs: dict[str, Any] = {"ci": 0.95, "ci_method": "bootstrap", "n_boot": 400}
    one = to_pandas(frame.kappa.pairwise(["gold", "ann1", "ann2"], seed=7, **kwargs))
    two = to_pandas(frame.kappa.pairwise(["gold", "ann1", "ann2"], seed=7, **kwargs))
    pd.testing.assert_frame_equal(one, two)
    other = to_pandas(frame.kappa.pairwise(["gold", "ann1", "ann2"], seed=8, **kwargs))
    assert not np.allclose(one["se"], other["se"], rtol=0, atol=1e-12)
    analytic = pd.DataFrame(data).kappa.pairwise(["gold", "ann1", "ann2"], ci=0.95)
    # 400 replicates estimate the standard error to within about 10%
    np.testing.assert_allclose(one["se"], analytic["se"], rtol=0.15)
    assert np.all((one["ci_low"] <= one["kappa"]) & (one["kappa"] <= one["ci_high"]))
    # z and p_value stay the analytic test of kappa = 0
    np.testing.assert_allclose(one["z"], analytic["z"], rtol=0, atol=1e-12)


def test_bootstrap_percentiles_of_a_known_distribution() -> None:
    # A single table drawn many times: the replicates' quantiles bracket kappa and their
    # spread matches Fleiss, Cohen & Everitt's large-sample standard error.
    table = np.array([[[300, 40], [60, 600]]])
    w = weight_matrix(None, [0, 1])
    got = bootstrap_kappa(table, w, 0.9, n_boot=4000, seed=1)
    kappa = agreement(table, w)["kappa"][0]
    from kappaframe._stats.inference import standard_errors

    se = standard_errors(table, w, agreement(table, w)["kappa"], 0.9)["se"][0]
    assert got["se"][0] == pytest.approx(se, rel=0.05)
    assert got["ci_low"][0] < kappa < got["ci_high"][0]
    assert got["ci_high"][0] - got["ci_low"][0] == pytest.approx(2 * 1.6449 * se, rel=0.08)


def test_bootstrap_chunks_bound_memory_and_skip_empty_tables() -> None:
    tables = np.array([[[5, 1], [2, 6]], [[0, 0], [0, 0]], [[4, 0], [0, 0]]])
    w = weight_matrix(None, [0, 1])
    small = bootstrap_kappa(tables, w, 0.95, n_boot=50, seed=3, chunk_bytes=64)
    assert np.isfinite(small["se"][0])
    assert np.isnan(small["se"][1])  # no items
    assert np.isnan(small["se"][2])  # every replicate undefined (one category)


def test_bootstrap_options_are_checked(rng: np.random.Generator) -> None:
    df = pd.DataFrame(labeling_team(rng))
    with pytest.raises(kf.KappaFrameError, match="needs a confidence level"):
        df.kappa.pairwise(["ann1", "ann2"], ci_method="bootstrap")
    with pytest.raises(kf.KappaFrameError, match="apply to ci_method='bootstrap'"):
        df.kappa.pairwise(["ann1", "ann2"], ci=0.9, n_boot=100)
    with pytest.raises(kf.KappaFrameError, match="ci_method must be one of"):
        df.kappa.pairwise(["ann1", "ann2"], ci=0.9, ci_method="jackknife")
    with pytest.raises(kf.KappaFrameError, match="n_boot must be an integer"):
        df.kappa.pairwise(["ann1", "ann2"], ci=0.9, ci_method="bootstrap", n_boot=1)
    with pytest.raises(kf.KappaFrameError, match="seed must be"):
        df.kappa.pairwise(["ann1", "ann2"], ci=0.9, ci_method="bootstrap", seed="x")
    with pytest.raises(kf.KappaFrameError, match="between 0 and 1"):
        df.kappa.pairwise(["ann1", "ann2"], ci=95)
    generator = np.random.default_rng(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = df.kappa.pairwise(
            ["ann1", "ann2"], ci=0.9, ci_method="bootstrap", n_boot=20, seed=generator
        )
    assert np.isfinite(res["se"]).all()


def test_bootstrap_numbers_do_not_depend_on_the_number_of_threads() -> None:
    # Each chunk of tables draws from its own child of the seed: one thread or four, the
    # same replicates; a Generator passed as seed advances, so a second call differs.
    rng = np.random.default_rng(2)
    tables = rng.integers(0, 40, (30, 3, 3))
    w = weight_matrix("linear", [0, 1, 2])
    tiny = 3 * 3 * 8 * 3 * 50 * 4  # four tables of 50 replicates a chunk: 8 chunks
    one = bootstrap_kappa(tables, w, 0.9, n_boot=50, seed=9, chunk_bytes=tiny, workers=1)
    four = bootstrap_kappa(tables, w, 0.9, n_boot=50, seed=9, chunk_bytes=tiny, workers=4)
    for name in one:
        np.testing.assert_array_equal(one[name], four[name])
    gen = np.random.default_rng(9)
    first = bootstrap_kappa(tables, w, 0.9, n_boot=50, seed=gen, workers=2)
    second = bootstrap_kappa(tables, w, 0.9, n_boot=50, seed=gen, workers=2)
    assert not np.array_equal(first["se"], second["se"])
