"""Counts.from_table: kappa from a K x K contingency table, as statsmodels and R psych take it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

from ..conftest import to_pandas

inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")

# A SAS PROC FREQ printout, frozen in statsmodels' tests (test_inter_rater.py): simple kappa
# and weighted kappa with Cicchetti-Allison (linear) weights, each with its asymptotic
# standard error (ASE), 95% limits and the test of kappa = 0.
SAS_TABLE = [[0, 4, 1], [0, 8, 0], [0, 1, 5]]
SAS_SIMPLE = {"kappa": 0.4842, "se": 0.1380, "ci_low": 0.2137, "ci_high": 0.7547, "z": 3.2626}
SAS_LINEAR = {"kappa": 0.4701, "se": 0.1457, "ci_low": 0.1845, "ci_high": 0.7558, "z": 3.2971}

# Cohen (1968), Table 1 as proportions of n = 200 (the example of R psych's cohen.kappa,
# which takes it with n.obs = 200). Unweighted kappa: p_o = .70, p_e = .41, so .29 / .59
# (psych prints 0.49); Cohen's asymmetric disagreement weights give his kw = .353.
COHEN_PROPORTIONS = np.array([[0.44, 0.07, 0.09], [0.05, 0.20, 0.05], [0.01, 0.03, 0.06]])
COHEN_COUNTS = np.array([[88, 14, 18], [10, 40, 10], [2, 6, 12]])
COHEN_WEIGHTS = np.array([[0, 1, 4], [1, 0, 6], [2, 2, 0]], dtype=float)

NUMBERS = ("n", "p_o", "p_e", "kappa", "se", "ci_low", "ci_high", "z", "p_value")


def first_row(result: Any) -> pd.Series:
    return to_pandas(result).iloc[0]


def ratings(table: np.ndarray, labels: list[Any]) -> dict[str, list[Any]]:
    """The raw ratings behind a table of whole counts: one row per item."""
    a: list[Any] = []
    b: list[Any] = []
    for (i, j), count in np.ndenumerate(np.asarray(table)):
        a += [labels[i]] * int(count)
        b += [labels[j]] * int(count)
    return {"rater_a": a, "rater_b": b}


def random_table(rng: np.random.Generator, k: int) -> np.ndarray:
    return rng.integers(0, 30, (k, k)) + np.diag(rng.integers(5, 60, k))


# --------------------------------------------------------------------------- oracles
@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_matches_statsmodels_cohens_kappa(
    k: int, weights: str | None, rng: np.random.Generator
) -> None:
    for _ in range(4):
        table = random_table(rng, k)
        res = first_row(kf.Counts.from_table(table).pairwise(weights=weights, ci=0.95))
        sm = inter_rater.cohens_kappa(table, wt=weights)
        assert res["kappa"] == pytest.approx(sm.kappa, abs=1e-10)
        assert res["se"] == pytest.approx(sm.std_kappa, abs=1e-10)
        assert res["z"] == pytest.approx(sm.z_value, abs=1e-10)
        assert res["p_value"] == pytest.approx(sm.pvalue_two_sided, abs=1e-10)
        assert res["n"] == table.sum()


def test_sas_printout() -> None:
    counts = kf.Counts.from_table(SAS_TABLE)
    for weights, printed in ((None, SAS_SIMPLE), ("linear", SAS_LINEAR)):
        res = first_row(counts.pairwise(weights=weights, ci=0.95))
        for name, value in printed.items():
            assert round(float(res[name]), 4) == value, (weights, name)


def test_cohen_1968_proportions_with_n_obs() -> None:
    counts = kf.Counts.from_table(COHEN_PROPORTIONS, n_obs=200)
    plain = first_row(counts.pairwise())
    assert round(float(plain["kappa"]), 2) == 0.49  # as R psych prints it
    assert plain["kappa"] == pytest.approx(0.29 / 0.59, abs=1e-12)
    assert plain["p_o"] == pytest.approx(0.70, abs=1e-12)
    assert plain["p_e"] == pytest.approx(0.41, abs=1e-12)
    weighted = first_row(counts.pairwise(weights=COHEN_WEIGHTS, ci=0.95))
    assert round(float(weighted["kappa"]), 3) == 0.353  # Cohen's published kw
    oracle = inter_rater.cohens_kappa(COHEN_COUNTS, weights=COHEN_WEIGHTS)
    assert weighted["kappa"] == pytest.approx(oracle.kappa, abs=1e-12)
    assert weighted["se"] == pytest.approx(oracle.std_kappa, abs=1e-12)


# ------------------------------------------------------------- the same as raw ratings
@pytest.mark.parametrize("weights", [None, "linear", "quadratic", COHEN_WEIGHTS])
def test_same_numbers_as_the_raw_ratings(constructor: Any, weights: Any) -> None:
    labels = ["low", "mid", "high"]  # not alphabetical: the order must come from categories=
    frame = constructor(ratings(COHEN_COUNTS, labels))
    options: dict[str, Any] = {"weights": weights, "ci": 0.95, "stats": "all"}
    raw = first_row(kf.pairwise(frame, categories=labels, **options))
    table = first_row(kf.Counts.from_table(COHEN_COUNTS, categories=labels).pairwise(**options))
    assert list(raw.index) == list(table.index)
    for name, value in raw.items():
        if isinstance(value, float):
            assert table[name] == pytest.approx(value, abs=1e-12, nan_ok=True), name
        else:
            assert table[name] == value, name


def test_same_counts_as_counting_the_ratings(rng: np.random.Generator) -> None:
    table = random_table(rng, 4)
    frame = pd.DataFrame(ratings(table, [0, 1, 2, 3]))
    assert kf.Counts.from_table(table) == kf.counts(frame)
    square = kf.Counts.from_table(table).matrix()
    assert square.loc["rater_a", "rater_b"] == pytest.approx(
        kf.matrix(frame).loc["rater_a", "rater_b"], abs=1e-12
    )


def test_round_trip_through_cells() -> None:
    counts = kf.Counts.from_table(COHEN_COUNTS, categories=["p", "n", "x"])
    back = kf.Counts.from_frame(counts.to_frame())
    assert back == counts
    assert first_row(back.pairwise(ci=0.9))["se"] == first_row(counts.pairwise(ci=0.9))["se"]


# ------------------------------------------------------------------------ frames in
def test_pandas_confusion_frame(rng: np.random.Generator) -> None:
    labels = [3, 1, 2]
    frame = pd.DataFrame(ratings(random_table(rng, 3), labels))
    table = kf.confusion(frame, "rater_a", "rater_b", categories=labels)
    got = first_row(kf.Counts.from_table(table).pairwise(weights="linear", ci=0.95))
    want = first_row(kf.pairwise(frame, categories=labels, weights="linear", ci=0.95))
    for name in NUMBERS:
        assert got[name] == pytest.approx(want[name], abs=1e-12), name


def test_pandas_columns_in_another_order() -> None:
    table = pd.DataFrame(COHEN_COUNTS, index=["p", "n", "x"], columns=["p", "n", "x"])
    shuffled = table[["x", "p", "n"]]
    counts = kf.Counts.from_table(shuffled)
    assert counts.categories == ["p", "n", "x"]
    assert np.array_equal(counts.tables[1, 0], COHEN_COUNTS)


def test_polars_confusion_frame() -> None:
    pl = pytest.importorskip("polars")
    labels = [1, 2, 3]  # polars names the columns "1", "2", "3"
    frame = pl.from_pandas(pd.DataFrame(ratings(COHEN_COUNTS, labels)))
    for native in (frame, frame.lazy()):
        table = kf.confusion(native, "rater_a", "rater_b")
        counts = kf.Counts.from_table(table)
        assert counts.categories == labels
        result = counts.pairwise(weights="quadratic", ci=0.95)
        assert type(result) is type(native)  # input type decides output type
        got, want = first_row(result), first_row(kf.pairwise(frame, weights="quadratic", ci=0.95))
        for name in NUMBERS:
            assert got[name] == pytest.approx(want[name], abs=1e-12), name


def test_frame_categories_order_and_unused_categories() -> None:
    table = pd.DataFrame(COHEN_COUNTS, index=["p", "n", "x"], columns=["p", "n", "x"])
    counts = kf.Counts.from_table(table, categories=["x", "n", "p", "unused"])
    assert counts.categories == ["x", "n", "p", "unused"]
    expected = np.zeros((4, 4), dtype=np.int64)
    expected[:3, :3] = COHEN_COUNTS[::-1, ::-1]
    assert np.array_equal(counts.tables[1, 0], expected)
    frame = pd.DataFrame(ratings(COHEN_COUNTS, ["p", "n", "x"]))
    got = first_row(counts.pairwise(weights="linear"))
    want = first_row(kf.pairwise(frame, categories=["x", "n", "p", "unused"], weights="linear"))
    assert got["kappa"] == pytest.approx(want["kappa"], abs=1e-12)


def test_rater_names() -> None:
    res = first_row(kf.Counts.from_table(SAS_TABLE, raters=("judge", "model")).pairwise())
    assert (res["rater_a"], res["rater_b"]) == ("judge", "model")


# ------------------------------------------------------------ counts and proportions
def test_whole_counts_are_int64_fractional_kept_exactly() -> None:
    assert kf.Counts.from_table(np.array([[3.0, 1.0], [2.0, 4.0]])).tables.dtype == np.int64
    assert kf.Counts.from_table([[3, 1], [2, 4]]).tables.dtype == np.int64
    fractional = [[2.5, 0.25], [0.75, 3.5]]
    counts = kf.Counts.from_table(fractional)
    assert counts.tables.dtype == np.float64
    assert counts.tables[1, 0].tolist() == fractional  # not rounded
    res = first_row(counts.pairwise(ci=0.95))
    assert res["n"] == 7.0
    assert res["p_o"] == pytest.approx(6.0 / 7.0, abs=1e-12)
    scaled = first_row(kf.Counts.from_table([[10, 1], [3, 14]]).pairwise())  # x 4: whole
    assert res["kappa"] == pytest.approx(scaled["kappa"], abs=1e-12)
    sm = inter_rater.cohens_kappa(np.array(fractional))
    assert res["kappa"] == pytest.approx(sm.kappa, abs=1e-12)
    assert res["se"] == pytest.approx(sm.std_kappa, abs=1e-12)
    with pytest.raises(kf.KappaFrameError, match=r"bootstrap.*fractional"):
        counts.pairwise(ci=0.95, ci_method="bootstrap", seed=1)


def test_huge_whole_counts_refused() -> None:
    with pytest.raises(kf.KappaFrameError, match=r"2\*\*62"):
        kf.Counts.from_table([[2**61, 2**61], [2**61, 0]])


def test_proportions_with_n_obs_give_the_counts_numbers() -> None:
    from_shares = kf.Counts.from_table(COHEN_PROPORTIONS, n_obs=200)
    assert from_shares.tables.dtype == np.float64
    from_counts = kf.Counts.from_table(COHEN_COUNTS)
    for weights in (None, "linear", "quadratic", COHEN_WEIGHTS):
        got = first_row(from_shares.pairwise(weights=weights, ci=0.95, stats="all"))
        want = first_row(from_counts.pairwise(weights=weights, ci=0.95, stats="all"))
        for name, value in want.items():
            if isinstance(value, float):
                assert got[name] == pytest.approx(value, abs=1e-12, nan_ok=True), name
    assert first_row(from_shares.pairwise())["n"] == pytest.approx(200, abs=1e-12)


def test_proportions_without_n_obs_give_kappa_but_no_interval() -> None:
    shares = kf.Counts.from_table(COHEN_PROPORTIONS)
    res = first_row(shares.pairwise(weights="linear", stats=["pabak", "gwet_ac1"]))
    want = first_row(kf.Counts.from_table(COHEN_COUNTS).pairwise(weights="linear", stats="all"))
    for name in ("p_o", "p_e", "kappa", "pabak", "gwet_ac1"):
        assert res[name] == pytest.approx(want[name], abs=1e-12), name
    assert res["n"] == pytest.approx(1.0, abs=1e-12)
    with pytest.raises(kf.KappaFrameError, match=r"proportions.*pass n_obs="):
        shares.pairwise(ci=0.95)


def test_n_obs_with_a_table_of_counts() -> None:
    same = kf.Counts.from_table(COHEN_COUNTS, n_obs=200)
    assert same == kf.Counts.from_table(COHEN_COUNTS)
    with pytest.raises(kf.KappaFrameError, match=r"sums to 200, and not to n_obs=150"):
        kf.Counts.from_table(COHEN_COUNTS, n_obs=150)
    for bad in (0, -5, float("nan"), True, "200"):
        with pytest.raises(kf.KappaFrameError, match="n_obs must be a positive number"):
            kf.Counts.from_table(COHEN_PROPORTIONS, n_obs=bad)


# ------------------------------------------------------------------------ refusals
@pytest.mark.parametrize(
    ("table", "message"),
    [
        ([[1, 2, 3], [4, 5, 6]], r"square.*2 rows and 3 columns"),
        ([1, 2, 3, 4], r"2-D.*\(4,\)"),
        ([[1, 2], [3]], "same length"),
        (np.zeros((0, 0)), "empty"),
        ([[1, -2], [3, 4]], r"non-negative.*-2"),
        ([[1, np.nan], [3, 4]], r"finite.*nan"),
        ([[1, np.inf], [3, 4]], r"finite.*inf"),
        ([[True, False], [False, True]], "must hold numbers"),
        ([["1", "2"], ["3", "4"]], "must hold numbers"),
    ],
)
def test_bad_tables_refused(table: Any, message: str) -> None:
    with pytest.raises(kf.KappaFrameError, match=message):
        kf.Counts.from_table(table)


def test_bad_frames_refused() -> None:
    differ = pd.DataFrame([[1, 2], [3, 4]], index=["a", "b"], columns=["a", "total"])
    with pytest.raises(kf.KappaFrameError, match=r"only in the rows: \['b'\].*\['total'\]"):
        kf.Counts.from_table(differ)
    repeated = pd.DataFrame([[1, 2], [3, 4]], index=["a", "a"], columns=["a", "b"])
    with pytest.raises(kf.KappaFrameError, match=r"rows repeat the labels \['a'\]"):
        kf.Counts.from_table(repeated)
    holes = pd.DataFrame([[1.0, np.nan], [3.0, 4.0]], index=["a", "b"], columns=["a", "b"])
    with pytest.raises(kf.KappaFrameError, match=r"column 'b' has 1 missing \(NaN or null\)"):
        kf.Counts.from_table(holes)
    negative = pd.DataFrame([[1, -1], [3, 4]], index=["a", "b"], columns=["a", "b"])
    with pytest.raises(kf.KappaFrameError, match="non-negative"):
        kf.Counts.from_table(negative)
    pl = pytest.importorskip("polars")
    wide = pl.DataFrame({"label": ["a", "b"], "a": [1, 2], "c": [3, 4]})
    with pytest.raises(kf.KappaFrameError, match=r"only in the rows: \['b'\].*\['c'\]"):
        kf.Counts.from_table(wide)


def test_bad_categories_refused() -> None:
    with pytest.raises(kf.KappaFrameError, match="needs 3 labels; got 2"):
        kf.Counts.from_table(COHEN_COUNTS, categories=["a", "b"])
    with pytest.raises(kf.KappaFrameError, match=r"lists \['a'\] more than once"):
        kf.Counts.from_table(COHEN_COUNTS, categories=["a", "a", "b"])
    with pytest.raises(kf.KappaFrameTypeError, match="list of labels"):
        kf.Counts.from_table(COHEN_COUNTS, categories="abc")
    table = pd.DataFrame(COHEN_COUNTS, index=["p", "n", "x"], columns=["p", "n", "x"])
    with pytest.raises(kf.KappaFrameError, match=r"lacks 1 label\(s\) of the table, e.g. \['x'\]"):
        kf.Counts.from_table(table, categories=["p", "n"])


def test_bad_raters_and_types_refused() -> None:
    with pytest.raises(kf.KappaFrameError, match="two different names"):
        kf.Counts.from_table(SAS_TABLE, raters=("a", "a"))
    with pytest.raises(kf.KappaFrameError, match="two different names"):
        kf.Counts.from_table(SAS_TABLE, raters=("a", "b", "c"))
    with pytest.raises(kf.KappaFrameTypeError, match="pair of names"):
        kf.Counts.from_table(SAS_TABLE, raters="ab")
    with pytest.raises(kf.KappaFrameTypeError, match="NumPy array, a nested list"):
        kf.Counts.from_table("1 2; 3 4")
