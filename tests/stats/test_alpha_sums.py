"""Krippendorff's alpha from sums over the values (``kappaframe._stats.alpha_sums``).

The sums path must give the matrix path's numbers (values, ``p_o``, ``p_e``, variances and
bootstrap intervals) and the ``krippendorff`` package's alpha, on data with ties, missing
values, units with one value, 2 to 5 raters and several groups. ``SUMS_FROM`` chooses the
path; the tests move it to run both on the same data.
"""

from __future__ import annotations

from typing import Any

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kappaframe as kf
import kappaframe._api.overall as overall_module
import kappaframe._stats.alpha_sums as alpha_sums
import kappaframe._stats.multirater as multirater
from kappaframe._errors import KappaFrameError
from kappaframe._stats.bootstrap_overall import bootstrap_overall, item_patterns, value_patterns
from kappaframe._stats.multirater import Ratings, compute, ratings_of

LEVELS = ["interval", "ratio", "ordinal"]
MATRIX = 10**9  # SUMS_FROM that keeps every call on the matrix path
SUMS = 1  # ... that sends every call to the sums path


def drawn(seed: int, n_items: int = 60, n_values: int = 12) -> tuple[np.ndarray, np.ndarray, int]:
    """Codes (raters x items) with ties, missing labels and units with one value; groups."""
    rng = np.random.default_rng(seed)
    n_raters = int(rng.integers(2, 6))
    true = rng.integers(0, n_values, n_items)
    codes = np.clip(true + rng.integers(-2, 3, (n_raters, n_items)), 0, n_values - 1)
    codes[rng.random(codes.shape) < 0.25] = -1
    codes[1:, 0] = -1  # one value only
    codes[:, 1] = -1  # no value at all
    n_groups = int(rng.integers(1, 4))
    return codes, rng.integers(0, n_groups, n_items), n_groups


def categories_for(level: str, n_values: int, seed: int) -> list[Any]:
    """Numbers with uneven gaps (and a zero for ratio); any ordered labels for ordinal."""
    rng = np.random.default_rng(seed)
    values = np.cumsum(rng.random(n_values).round(2) + 0.01) + (0.0 if level == "ratio" else 3.0)
    if level == "ratio":
        values[0] = 0.0
    return [float(v) for v in values]


def both_paths(
    monkeypatch: pytest.MonkeyPatch, rt: Ratings, level: str, cats: list[Any], centre: str
) -> list[dict[str, np.ndarray]]:
    out = []
    for start in (MATRIX, SUMS):
        monkeypatch.setattr(alpha_sums, "SUMS_FROM", start)
        out.append(
            compute(
                rt,
                "krippendorff",
                1.0 - np.eye(rt.n_categories),
                weighted=False,
                level=level,
                categories=cats,
                with_variance=True,
                centre=centre,
            )
        )
    return out


def assert_same(first: dict[str, np.ndarray], second: dict[str, np.ndarray]) -> None:
    assert first.keys() == second.keys()
    for key in first:
        np.testing.assert_allclose(second[key], first[key], rtol=1e-12, atol=1e-12, err_msg=key)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("level", LEVELS)
def test_sums_equal_the_matrix_path(monkeypatch: pytest.MonkeyPatch, level: str, seed: int) -> None:
    codes, group, n_groups = drawn(seed)
    rt = ratings_of(codes, group, n_groups, 12)
    cats = categories_for(level, 12, seed)
    centre = "p_a" if seed % 2 else "p_a_prime"
    matrix, sums = both_paths(monkeypatch, rt, level, cats, centre)
    assert np.isfinite(matrix["value"]).all()
    assert_same(matrix, sums)


@pytest.mark.parametrize("level", LEVELS)
def test_sums_from_counts_equal_the_matrix_path(
    monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    """``layout="counts"``: each nonzero count is a value given that many times."""
    codes, group, n_groups = drawn(7)
    labelled = ratings_of(codes, group, n_groups, 12)
    counts = labelled.counts
    rt = Ratings(np.zeros((0, len(counts)), np.int8), counts, labelled.group, n_groups, 12)
    matrix, sums = both_paths(monkeypatch, rt, level, categories_for(level, 12, 7), "p_a_prime")
    assert_same(matrix, sums)


@pytest.mark.parametrize("level", LEVELS)
def test_one_category_and_one_group_without_pairs(
    monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    """All values alike (the largest distance is 0): alpha undefined on both paths."""
    codes = np.array([[0, 0, 0, -1], [0, 0, -1, 0]])
    rt = ratings_of(codes, np.array([0, 0, 1, 1]), 2, 1)
    matrix, sums = both_paths(monkeypatch, rt, level, [2.0], "p_a_prime")
    assert np.isnan(matrix["value"]).all()
    assert_same(matrix, sums)


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(
        st.lists(st.one_of(st.none(), st.integers(0, 6)), min_size=2, max_size=5),
        min_size=2,
        max_size=12,
    ),
    level=st.sampled_from(LEVELS),
)
def test_sums_equal_the_matrix_path_on_any_ratings(rows: list[list[Any]], level: str) -> None:
    width = max(len(r) for r in rows)
    codes = np.array([[-1 if v is None else v for v in r] + [-1] * (width - len(r)) for r in rows])
    rt = ratings_of(codes.T.copy(), None, 1, 7)
    cats = [0.0, 1.0, 2.5, 3.0, 7.0, 7.5, 20.0]
    out = []
    saved = alpha_sums.SUMS_FROM
    try:
        for start in (MATRIX, SUMS):
            alpha_sums.SUMS_FROM = start
            out.append(
                compute(
                    rt,
                    "krippendorff",
                    1.0 - np.eye(7),
                    weighted=False,
                    level=level,
                    categories=cats,
                    with_variance=True,
                )
            )
    finally:
        alpha_sums.SUMS_FROM = saved
    assert_same(*out)


@pytest.mark.parametrize("dense", [True, False])
def test_ordinal_midranks_sorted_or_counted(monkeypatch: pytest.MonkeyPatch, dense: bool) -> None:
    """The mid-ranks from one dense bincount or from the sorted cells that occur: the same."""
    codes, group, n_groups = drawn(3, n_values=40)
    rt = ratings_of(codes, group, n_groups, 40)
    if not dense:
        monkeypatch.setattr(alpha_sums, "_DENSE_SPAN", 0)
        monkeypatch.setattr(alpha_sums, "_DENSE_MIN", 0)
    matrix, sums = both_paths(monkeypatch, rt, "ordinal", list(range(40)), "p_a_prime")
    assert_same(matrix, sums)


def scores(seed: int, n_items: int, n_raters: int = 3, offset: float = 10.0) -> pd.DataFrame:
    """Real-valued scores (every value its own category, a few ties), some missing."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n_items, 1)) + 0.6 * rng.normal(size=(n_items, n_raters)) + offset
    x = x.round(2)
    x[rng.random(x.shape) < 0.15] = np.nan
    return pd.DataFrame(x, columns=[f"r{i}" for i in range(n_raters)])


@pytest.mark.parametrize("level", LEVELS)
def test_real_valued_scores_match_the_krippendorff_package(level: str) -> None:
    df = scores(5, 80, 4)
    raters = list(df.columns)
    res = kf.overall(df, raters=raters, method="krippendorff", level=level)
    assert len(np.unique(df.to_numpy()[np.isfinite(df.to_numpy())])) > alpha_sums.SUMS_FROM
    expected = krippendorff.alpha(reliability_data=df.to_numpy().T, level_of_measurement=level)
    assert abs(float(res["value"].iloc[0]) - expected) < 1e-9


def test_large_offsets_lose_no_digits() -> None:
    """Interval alpha is centred before squaring: 1e8 added to every score changes nothing."""
    near = scores(6, 60)
    far = near + 1e8
    a = kf.overall(near, raters=list(near.columns), method="krippendorff", level="interval")
    b = kf.overall(far, raters=list(far.columns), method="krippendorff", level="interval")
    assert abs(float(a["value"].iloc[0]) - float(b["value"].iloc[0])) < 1e-9


def test_no_k_by_k_matrix_for_alpha_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Alpha from its sums reads no weights matrix and no (items, K) counts."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a K x K weights matrix was built")

    monkeypatch.setattr(overall_module, "weight_matrix", refuse)
    monkeypatch.setattr(multirater, "MAX_COUNT_BYTES", 1)  # any per-item counts would refuse
    df = scores(8, 50)
    res = kf.overall(
        df, raters=list(df.columns), method="krippendorff", level="interval", ci=0.9,
        ci_method="bootstrap", n_boot=50, seed=1,
    )  # fmt: skip
    assert np.isfinite(res["ci_low"].iloc[0])
    with pytest.raises(AssertionError, match="K x K"):
        kf.overall(df, raters=list(df.columns), method="krippendorff")  # nominal: the matrix


def test_per_item_counts_are_refused_where_they_are_allocated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    codes, group, n_groups = drawn(1)
    rt = ratings_of(codes, group, n_groups, 12)  # nothing counted yet: not refused
    monkeypatch.setattr(multirater, "MAX_COUNT_BYTES", 100)
    with pytest.raises(
        KappaFrameError, match=r"per-item category counts would take .* 12 categories"
    ):
        _ = rt.counts


@pytest.mark.parametrize("level", ["interval", "ratio"])
def test_labels_that_are_not_numbers_are_refused_on_both_paths(
    monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    codes, group, n_groups = drawn(2)
    rt = ratings_of(codes, group, n_groups, 12)
    cats: list[Any] = [f"v{i}" for i in range(12)]
    messages = []
    for start in (MATRIX, SUMS):
        monkeypatch.setattr(alpha_sums, "SUMS_FROM", start)
        with pytest.raises(KappaFrameError, match="needs numeric labels") as err:
            compute(
                rt, "krippendorff", 1.0 - np.eye(12), weighted=False, level=level,
                categories=cats, with_variance=False,
            )  # fmt: skip
        messages.append(str(err.value))
    assert messages[0] == messages[1]


def test_negative_ratio_values_are_refused_on_the_sums_path() -> None:
    df = scores(9, 40, offset=0.0)
    with pytest.raises(KappaFrameError, match="level='ratio' needs non-negative values"):
        kf.overall(df, raters=list(df.columns), method="krippendorff", level="ratio")


@pytest.mark.parametrize("seed", range(3))
def test_value_patterns_are_the_item_patterns(seed: int) -> None:
    """Same patterns, same order, same counts: the bootstrap draws alike on both paths."""
    codes, group, n_groups = drawn(seed, n_items=200, n_values=6)
    rt = ratings_of(codes, group, n_groups, 6)
    cats: list[Any] = [5.0, 1.0, 4.0, 0.5, 2.0, 3.0] if seed else [float(i) for i in range(6)]
    dense, sparse = item_patterns(rt, False, cats), value_patterns(rt, cats)
    for name in ("group", "freq", "bounds", "first", "of_item"):
        np.testing.assert_array_equal(getattr(sparse, name), getattr(dense, name), err_msg=name)
    assert sparse.values is not None
    unit, code, count = sparse.values
    rebuilt = np.zeros_like(dense.rows)
    np.add.at(rebuilt, (unit, code), count)
    np.testing.assert_array_equal(rebuilt, dense.rows)


@pytest.mark.parametrize("methods", [["krippendorff"], ["fleiss", "krippendorff"]])
@pytest.mark.parametrize("level", LEVELS)
def test_bootstrap_equals_the_matrix_path(
    monkeypatch: pytest.MonkeyPatch, level: str, methods: list[str]
) -> None:
    codes, group, n_groups = drawn(4, n_items=80)
    rt = ratings_of(codes, group, n_groups, 12)
    cats = categories_for(level, 12, 4)
    out = []
    for start in (MATRIX, SUMS):
        monkeypatch.setattr(alpha_sums, "SUMS_FROM", start)
        boot = bootstrap_overall(
            rt, methods, 1.0 - np.eye(12), weighted=False, level=level, categories=cats,
            given=None, ci=0.9, n_boot=120, seed=11, workers=1,
        )  # fmt: skip
        out.append(boot[-1])
    assert np.isfinite(out[0]["se"]).all()
    assert_same(out[0], out[1])


def test_overall_bootstrap_of_real_valued_scores_equals_the_matrix_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    df = scores(10, 60)
    df["g"] = np.arange(60) % 2
    raters = ["r0", "r1", "r2"]
    out = []
    for start in (MATRIX, SUMS):
        monkeypatch.setattr(alpha_sums, "SUMS_FROM", start)
        res = kf.overall(
            df, raters=raters, by="g", method="krippendorff", level="ordinal", ci=0.95,
            ci_method="bootstrap", n_boot=100, seed=2,
        )  # fmt: skip
        out.append(res[["p_o", "p_e", "value", "se", "ci_low", "ci_high"]].to_numpy())
    np.testing.assert_allclose(out[1], out[0], rtol=1e-12, atol=1e-12)
