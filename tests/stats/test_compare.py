"""The comparison of two estimates against scipy's normal distribution."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from kappaframe._stats.compare import difference


def test_independent_difference_is_the_normal_test() -> None:
    first, se1 = np.array([0.62, 0.30]), np.array([0.05, 0.10])
    second, se2 = np.array([0.48, 0.35]), np.array([0.06, 0.08])
    out = difference(first, se1, second, se2, 0.90)
    se = np.hypot(se1, se2)
    z = (second - first) / se
    np.testing.assert_allclose(out["difference"], second - first, rtol=1e-14)
    np.testing.assert_allclose(out["se"], se, rtol=1e-14)
    np.testing.assert_allclose(out["z"], z, rtol=1e-14)
    np.testing.assert_allclose(out["p_value"], 2 * stats.norm.sf(np.abs(z)), rtol=1e-12)
    q = stats.norm.ppf(0.95)
    np.testing.assert_allclose(out["ci_low"], second - first - q * se, rtol=1e-12)
    np.testing.assert_allclose(out["ci_high"], second - first + q * se, rtol=1e-12)


def test_covariance_narrows_a_paired_difference() -> None:
    out = difference(
        np.array([0.5]), np.array([0.1]), np.array([0.6]), np.array([0.1]), 0.95, cov=0.008
    )
    assert out["se"][0] == pytest.approx(np.sqrt(0.01 + 0.01 - 0.016), rel=1e-14)


def test_missing_or_zero_errors_give_no_test() -> None:
    out = difference(
        np.array([0.5, np.nan, 0.4]),
        np.array([np.nan, 0.1, 0.0]),
        np.array([0.6, 0.6, 0.4]),
        np.array([0.1, 0.1, 0.0]),
        0.95,
    )
    assert np.isnan(out["se"][:2]).all() and np.isnan(out["difference"][:2]).all()
    assert out["se"][2] == 0.0 and np.isnan(out["z"][2]) and np.isnan(out["p_value"][2])


# ----------------------------------------------------------------------------- paired kappas

from kappaframe._stats.agreement import agreement  # noqa: E402
from kappaframe._stats.compare import (  # noqa: E402
    joint_patterns,
    paired_bootstrap,
    paired_delta,
)

#: Vanbelle & Albert's (2008) depression data, as shipped in Vanbelle's R package
#: ``multiagree`` (``data(depression)``): 50 patients, a diagnosis and two questionnaires.
DIAG = [1] * 7 + [0, 0] + [1] * 4 + [0, 0, 1, 1] + [0] * 33
BDI = [1] * 9 + [0] * 41
GHQ = [1] * 8 + [0] + [1] * 6 + [0] * 35
DEPRESSION = np.array([DIAG, BDI, GHQ])
UNWEIGHTED = 1.0 - np.eye(2)


def _depression() -> object:
    return joint_patterns(DEPRESSION, None, 1, 2)


def test_patterns_count_the_pair_tables() -> None:
    rng = np.random.default_rng(0)
    codes = rng.integers(-1, 4, size=(3, 500))
    group = rng.integers(0, 3, size=500)
    patterns = joint_patterns(codes, group, 3, 4)
    complete = (codes >= 0).all(axis=0)
    for g in range(3):
        keep = complete & (group == g)
        want = np.zeros((4, 4), dtype=np.int64)
        np.add.at(want, (codes[0, keep], codes[2, keep]), 1)
        np.testing.assert_array_equal(patterns.table((0, 2))[g], want)
    assert patterns.count.sum() == complete.sum()


def test_many_categories_count_patterns_as_rows() -> None:
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 40_000, size=(4, 300))
    codes[:, 150:] = codes[:, :150]  # every pattern twice
    by_rows = joint_patterns(codes, None, 1, 40_000)  # 40,000^4 does not fit one number
    assert by_rows.count.tolist() == [2] * 150
    order = np.lexsort(codes[:, :150][::-1])
    np.testing.assert_array_equal(by_rows.labels, codes[:, :150][:, order])


@pytest.mark.parametrize("counted", [True, False])
def test_distinct_patterns_are_numpy_unique(counted: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting every possible pattern finds what sorting the kept items finds."""
    import kappaframe._stats.compare as module

    if not counted:
        monkeypatch.setattr(module, "COUNTED_PATTERNS", -(10**9))  # always sort
    rng = np.random.default_rng(5)
    ids = rng.integers(0, 60, size=400)
    keep = rng.random(400) < 0.7
    want = np.unique(ids[keep], return_counts=True)
    unique, count = module._distinct(ids.copy(), keep, 60)
    np.testing.assert_array_equal(unique, want[0])
    np.testing.assert_array_equal(count, want[1])
    assert unique.dtype == want[0].dtype and count.dtype == want[1].dtype


@pytest.mark.parametrize("room", [-1_300, -(10**9)])
def test_patterns_counted_or_sorted_alike(room: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every possible pattern with missing labels counted (4 x 6^3 = 864 numbers), only the
    complete ones counted (4 x 5^3 = 500: ``room`` -1,300 leaves 700), or the items sorted."""
    import kappaframe._stats.compare as module

    rng = np.random.default_rng(6)
    codes = rng.integers(-1, 5, size=(3, 2_000)).astype(np.int8)
    group = rng.integers(0, 4, size=2_000)
    before = (codes.copy(), group.copy())
    counted = joint_patterns(codes, group, 4, 5)
    monkeypatch.setattr(module, "COUNTED_PATTERNS", room)
    sorted_ = joint_patterns(codes, group, 4, 5)
    for name in ("labels", "group", "count"):
        np.testing.assert_array_equal(getattr(counted, name), getattr(sorted_, name))
        assert getattr(counted, name).dtype == getattr(sorted_, name).dtype
    np.testing.assert_array_equal(codes, before[0])  # the caller's arrays are untouched
    np.testing.assert_array_equal(group, before[1])


@pytest.mark.parametrize("index_type", [np.uint16, np.int64])
def test_count_rows_is_a_bincount_per_row(
    index_type: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blocks of rows (the last one short) count as one bincount per row does."""
    import kappaframe._stats.compare as module

    monkeypatch.setattr(module, "BLOCK_ITEMS", 100)  # 3 rows of 37 items a block
    rng = np.random.default_rng(8)
    count = np.array([20, 9, 5, 2, 1])
    pattern_of_item = np.repeat(np.arange(5, dtype=np.int64), count)
    drawn = rng.integers(0, count.sum(), size=(11, count.sum())).astype(index_type)
    out = np.full((11, 5), -1.0)
    module.count_rows(pattern_of_item, drawn, 5, out)
    want = [np.bincount(pattern_of_item[row], minlength=5) for row in drawn]
    np.testing.assert_array_equal(out, np.array(want, dtype=float))


def multiagree_delta(data: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``multiagree::delta.pair(data, ID, multilevel=FALSE)``'s algebra, step by step.

    An independent transcription of Vanbelle's R code (one item per cluster): the
    vector (P_o of each pair, every rater's marginals), its covariance ``V`` from the
    items' indicators, the Jacobian ``J`` to (P_o, P_e), then ``s`` to kappa.
    """
    n_items, n_raters = data.shape
    k = w.shape[0]
    n_kappa = n_raters // 2
    xi = np.full(n_items, 1.0 / n_items)
    po_items = np.array([[w[data[s, 2 * t], data[s, 2 * t + 1]] for s in range(n_items)]
                         for t in range(n_kappa)])  # fmt: skip
    marg_items = [np.eye(k)[data[:, r]].T for r in range(n_raters)]  # (k, items)
    omega = (
        (np.eye(n_items) - np.outer(xi, np.ones(n_items)))
        @ np.diag(xi**2)
        @ (np.eye(n_items) - np.outer(np.ones(n_items), xi))
    )
    size = n_kappa + n_raters * k
    rows = [po_items[t][None, :] for t in range(n_kappa)] + marg_items
    stacked = np.vstack(rows)  # (size, items)
    v = n_items**2 / (n_items - 1) * stacked @ omega @ stacked.T
    marg = [m.mean(axis=1) for m in marg_items]
    jac = np.zeros((2 * n_kappa, size))
    jac[:n_kappa, :n_kappa] = np.eye(n_kappa)
    for i in range(n_kappa):
        start = n_kappa + 2 * i * k
        jac[n_kappa + i, start : start + 2 * k] = np.concatenate(
            [w @ marg[2 * i + 1], w.T @ marg[2 * i]]
        )
    varpsy = jac @ v @ jac.T
    pe = np.array([marg[2 * i] @ w @ marg[2 * i + 1] for i in range(n_kappa)])
    p0 = po_items.mean(axis=1)
    s = np.zeros((n_kappa, 2 * n_kappa))
    s[:, :n_kappa] = np.diag(1 / (1 - pe))
    s[:, n_kappa:] = np.diag((p0 - 1) / (1 - pe) ** 2)
    var_kappa = s @ varpsy @ s.T * (n_items - 1) / n_items**2
    return (p0 - pe) / (1 - pe), var_kappa


def test_delta_is_multiagree_delta_pair_on_the_depression_data() -> None:
    out = paired_delta(_depression(), (0, 1), (0, 2), UNWEIGHTED, 0.95)
    data = DEPRESSION[[0, 1, 0, 2]].T
    kappa, var = multiagree_delta(data, np.eye(2))
    np.testing.assert_allclose([out["kappa_first"][0], out["kappa_second"][0]], kappa, rtol=1e-12)
    np.testing.assert_allclose(out["se_first"][0] ** 2, var[0, 0], rtol=1e-10)
    np.testing.assert_allclose(out["se_second"][0] ** 2, var[1, 1], rtol=1e-10)
    np.testing.assert_allclose(out["cov"][0], var[0, 1], rtol=1e-10)
    # The kappas of the paper (Vanbelle & Albert 2008): 0.538 and 0.746.
    assert round(float(out["kappa_first"][0]), 3) == 0.538
    assert round(float(out["kappa_second"][0]), 3) == 0.746


def test_delta_variances_are_fleiss_cohen_everitt() -> None:
    """Each kappa's delta variance is the large-sample one statsmodels computes."""
    from statsmodels.stats.inter_rater import cohens_kappa

    rng = np.random.default_rng(7)
    truth = rng.integers(0, 4, 400)
    codes = np.array([np.where(rng.random(400) < p, truth, rng.integers(0, 4, 400))
                      for p in (0.6, 0.7, 0.5)])  # fmt: skip
    patterns = joint_patterns(codes, None, 1, 4)
    for weights, wt in ((None, None), ("linear", "linear"), ("quadratic", "quadratic")):
        from kappaframe._stats.agreement import weight_matrix

        w = weight_matrix(weights, range(4))
        out = paired_delta(patterns, (0, 1), (2, 1), w, 0.95)
        for pair, name in (((0, 1), "se_first"), ((2, 1), "se_second")):
            res = cohens_kappa(patterns.table(pair)[0], wt=wt)
            assert out[name][0] == pytest.approx(res["std_kappa"], rel=1e-10)


def _brute_delta(table3: np.ndarray, w: np.ndarray, n: int) -> tuple[float, float, float]:
    """The delta method by numerical derivatives of both kappas in the joint proportions."""
    pi = table3 / table3.sum()

    def kappas(p: np.ndarray) -> np.ndarray:
        t1 = p.sum(axis=2)  # raters 0 x 1
        t2 = p.sum(axis=0).T  # raters 2 x 1 (rows: rater 2)
        return np.array([agreement(t, w)["kappa"] for t in (t1, t2)])

    flat = pi.reshape(-1)
    grads = np.zeros((2, flat.size))
    step = 1e-6
    for i in range(flat.size):
        up, down = flat.copy(), flat.copy()
        up[i] += step
        down[i] -= step
        grads[:, i] = (kappas(up.reshape(pi.shape)) - kappas(down.reshape(pi.shape))) / (2 * step)
    sigma = (np.diag(flat) - np.outer(flat, flat)) / n
    cov = grads @ sigma @ grads.T
    return cov[0, 0], cov[1, 1], cov[0, 1]


def test_delta_is_the_numerical_delta_method_with_asymmetric_weights() -> None:
    rng = np.random.default_rng(11)
    n, k = 300, 3
    truth = rng.integers(0, k, n)
    codes = np.array([np.where(rng.random(n) < p, truth, rng.integers(0, k, n))
                      for p in (0.7, 0.8, 0.55)])  # fmt: skip
    w = np.array([[0.0, 1.0, 3.0], [2.0, 0.0, 1.0], [4.0, 2.0, 0.0]]) / 4.0
    patterns = joint_patterns(codes, None, 1, k)
    out = paired_delta(patterns, (0, 1), (2, 1), w, 0.95)
    table3 = np.zeros((k, k, k))
    np.add.at(table3, tuple(codes), 1)
    var1, var2, cov = _brute_delta(table3, w, n)
    assert out["se_first"][0] ** 2 == pytest.approx(var1, rel=1e-6)
    assert out["se_second"][0] ** 2 == pytest.approx(var2, rel=1e-6)
    assert out["cov"][0] == pytest.approx(cov, rel=1e-6)
    assert out["se"][0] ** 2 == pytest.approx(var1 + var2 - 2 * cov, rel=1e-6)


def test_bootstrap_reproduces_multiagree_boot_pair_on_the_depression_data() -> None:
    """Vanbelle's ``multiagree`` documents ``boot.pair`` on these data (1,000 samples).

    Its printed output (``multiagree_pack.docx``, ``set.seed(103)``): standard errors
    0.144 and 0.114, correlation 0.395, Hotelling's T^2 2.19. Different draws: ours
    with 20,000 samples must land within the Monte Carlo error of theirs.
    """
    out = paired_bootstrap(_depression(), (0, 1), (0, 2), UNWEIGHTED, 0.95, 20_000, seed=103)
    assert out["se_first"][0] == pytest.approx(0.144, rel=0.06)
    assert out["se_second"][0] == pytest.approx(0.114, rel=0.06)
    corr = out["cov"][0] / (out["se_first"][0] * out["se_second"][0])
    assert corr == pytest.approx(0.395, abs=0.06)
    # Their T^2 = d^2 / var(d) with their bootstrap mean difference 0.213.
    assert 0.213**2 / out["se"][0] ** 2 == pytest.approx(2.19, rel=0.12)


def test_the_published_test_of_the_depression_data() -> None:
    """Vanbelle & Albert (2008, sec. 5.2): T^2 = 2.19, p = 0.14 for diag-BDI vs diag-GHQ.

    (Also the values R's ``kappaGold::kappa_test_corr`` is tested against.) With one
    difference, T^2 is z^2; both of kappaframe's tests land on the published test.
    """
    patterns = _depression()
    for out in (
        paired_delta(patterns, (0, 1), (0, 2), UNWEIGHTED, 0.95),
        paired_bootstrap(patterns, (0, 1), (0, 2), UNWEIGHTED, 0.95, 20_000, seed=2008),
    ):
        assert out["z"][0] ** 2 == pytest.approx(2.19, rel=0.08)
        assert out["p_value"][0] == pytest.approx(0.14, abs=0.015)


def test_bootstrap_agrees_with_delta_on_a_large_sample() -> None:
    rng = np.random.default_rng(3)
    n, k = 4000, 4
    truth = rng.integers(0, k, n)
    codes = np.array([np.where(rng.random(n) < p, truth, rng.integers(0, k, n))
                      for p in (0.6, 0.7, 0.65)])  # fmt: skip
    group = rng.integers(0, 2, n)
    patterns = joint_patterns(codes, group, 2, k)
    from kappaframe._stats.agreement import weight_matrix

    w = weight_matrix("linear", range(k))
    delta = paired_delta(patterns, (0, 1), (2, 1), w, 0.95)
    boot = paired_bootstrap(patterns, (0, 1), (2, 1), w, 0.95, 2000, seed=1)
    np.testing.assert_allclose(boot["se"], delta["se"], rtol=0.08)
    np.testing.assert_allclose(boot["cov"], delta["cov"], rtol=0.2)
    np.testing.assert_allclose(boot["difference"], delta["difference"], rtol=1e-14)
    # The percentile interval about the normal one.
    np.testing.assert_allclose(boot["ci_low"], delta["ci_low"], atol=0.2 * delta["se"].max())


def test_bootstrap_is_the_resampling_of_items() -> None:
    """Against resampling item indices by hand (other draws; the same distribution)."""
    rng = np.random.default_rng(5)
    n, k = 200, 3
    truth = rng.integers(0, k, n)
    codes = np.array([np.where(rng.random(n) < p, truth, rng.integers(0, k, n))
                      for p in (0.6, 0.75, 0.6)])  # fmt: skip
    w = 1.0 - np.eye(k)
    diffs = []
    for _ in range(3000):
        idx = rng.integers(0, n, n)
        t1, t2 = np.zeros((k, k)), np.zeros((k, k))
        np.add.at(t1, (codes[0, idx], codes[1, idx]), 1)
        np.add.at(t2, (codes[2, idx], codes[1, idx]), 1)
        diffs.append(agreement(t2, w)["kappa"] - agreement(t1, w)["kappa"])
    out = paired_bootstrap(joint_patterns(codes, None, 1, k), (0, 1), (2, 1), w, 0.95, 3000, 2)
    assert out["se"][0] == pytest.approx(np.std(diffs, ddof=1), rel=0.08)


def test_bootstrap_is_reproducible_on_any_number_of_threads() -> None:
    rng = np.random.default_rng(9)
    codes = rng.integers(0, 3, size=(4, 900))
    group = rng.integers(0, 5, 900)
    patterns = joint_patterns(codes, group, 5, 3)
    w = 1.0 - np.eye(3)
    one = paired_bootstrap(patterns, (0, 1), (2, 3), w, 0.9, 300, seed=4, workers=1)
    many = paired_bootstrap(patterns, (0, 1), (2, 3), w, 0.9, 300, seed=4, workers=3)
    again = paired_bootstrap(patterns, (0, 1), (2, 3), w, 0.9, 300, seed=4)
    other = paired_bootstrap(patterns, (0, 1), (2, 3), w, 0.9, 300, seed=5)
    for name in ("se", "ci_low", "ci_high", "cov"):
        np.testing.assert_array_equal(one[name], many[name])
        np.testing.assert_array_equal(one[name], again[name])
    assert not np.array_equal(one["se"], other["se"])


def test_a_large_group_is_drawn_in_chunks_alike_on_any_number_of_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Few large groups: their chunks of replicates run on the threads, each from its seed."""
    from kappaframe._stats import compare as module

    monkeypatch.setattr(module, "CHUNK_WORK", 20_000)
    rng = np.random.default_rng(3)
    n, k = 3000, 4
    truth = rng.integers(0, k, n)
    codes = np.array([np.where(rng.random(n) < p, truth, rng.integers(0, k, n))
                      for p in (0.6, 0.7, 0.65)])  # fmt: skip
    group = (rng.random(n) < 0.4).astype(np.int64)
    patterns = joint_patterns(codes, group, 2, k)
    sizes = module.replicate_chunks(2001, int(patterns.count[patterns.group == 0].sum()), 64)
    assert len(sizes) > 2 and sum(sizes) == 2001 and max(sizes) - min(sizes) <= len(sizes)
    assert module.replicate_chunks(2001, 5, 64) == [2001]  # a small group: one draw

    drawn: list[np.ndarray] = []
    resampled = module._resampled

    def spy(gen: np.random.Generator, count: np.ndarray, n: int, n_boot: int) -> np.ndarray:
        out = resampled(gen, count, n, n_boot)
        drawn.append(out)
        return out

    monkeypatch.setattr(module, "_resampled", spy)
    w = 1.0 - np.eye(k)
    one = paired_bootstrap(patterns, (0, 1), (2, 1), w, 0.95, 2001, seed=4, workers=1)
    # Every replicate drawn once, each chunk from its own seed (no chunk repeats another).
    assert sum(d.shape[0] for d in drawn) == 2 * 2001
    firsts = {d[0].tobytes() for d in drawn}
    assert len(firsts) == len(drawn) > 4
    for workers in (2, 3, 8):
        many = paired_bootstrap(patterns, (0, 1), (2, 1), w, 0.95, 2001, seed=4, workers=workers)
        for name in ("se", "ci_low", "ci_high", "se_first", "se_second", "cov"):
            np.testing.assert_array_equal(one[name], many[name])
    # The chunks together are one bootstrap: its spread is the delta method's.
    delta = paired_delta(patterns, (0, 1), (2, 1), w, 0.95)
    np.testing.assert_allclose(one["se"], delta["se"], rtol=0.08)
    np.testing.assert_allclose(one["cov"], delta["cov"], rtol=0.25)


def test_a_small_group_keeps_the_draws_it_had_before_chunks() -> None:
    """A group drawn in one chunk draws from its own seed: a seeded gate's numbers stay.

    The values were given by kappaframe before a group's replicates came in chunks.
    """
    rng = np.random.default_rng(11)
    codes = rng.integers(-1, 3, size=(3, 400))
    group = rng.integers(0, 2, 400)
    patterns = joint_patterns(codes, group, 2, 3)
    out = paired_bootstrap(patterns, (0, 1), (2, 1), 1.0 - np.eye(3), 0.95, 200, seed=7)
    np.testing.assert_allclose(out["se"], [0.10059455741342956, 0.10352664462513837], rtol=1e-12)
    np.testing.assert_allclose(
        out["ci_low"], [-0.30501838671217857, -0.09783873258172107], rtol=1e-12
    )
    np.testing.assert_allclose(out["ci_high"], [0.06618876638812633, 0.28699106214846], rtol=1e-12)


def test_a_group_without_complete_items_has_no_test() -> None:
    codes = np.array([[0, 1, 0, 1, -1], [0, 1, 1, 1, 0], [1, 1, 0, 0, 0]])
    group = np.array([0, 0, 0, 0, 1])
    patterns = joint_patterns(codes, group, 2, 2)
    for out in (
        paired_delta(patterns, (0, 1), (2, 1), UNWEIGHTED, 0.95),
        paired_bootstrap(patterns, (0, 1), (2, 1), UNWEIGHTED, 0.95, 50, seed=0),
    ):
        assert out["n"][1] == 0
        assert np.isnan(out["se"][1]) and np.isnan(out["p_value"][1])


def test_both_ways_of_resampling_draw_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """Few items per pattern: item indices; many: one multinomial draw. Same distribution."""
    import kappaframe._stats.compare as module

    rng = np.random.default_rng(12)
    n, k = 600, 3
    truth = rng.integers(0, k, n)
    codes = np.array([np.where(rng.random(n) < p, truth, rng.integers(0, k, n))
                      for p in (0.6, 0.75, 0.6)])  # fmt: skip
    patterns = joint_patterns(codes, None, 1, k)
    w = 1.0 - np.eye(k)
    runs = {}
    for cost in (1, 10_000):  # multinomial; item indices
        monkeypatch.setattr(module, "PATTERN_COST", cost)
        runs[cost] = paired_bootstrap(patterns, (0, 1), (2, 1), w, 0.95, 4000, seed=3)
    assert runs[1]["se"][0] == pytest.approx(runs[10_000]["se"][0], rel=0.06)
    assert not np.array_equal(runs[1]["ci_low"], runs[10_000]["ci_low"])  # other draws
