"""One contract: the inconsistencies between paths that the layout change fixed, each pinned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

from ..conftest import to_pandas

nan = np.nan

# Cohen (1968), Table 1 as proportions of n = 200, rows rater a; reproduced in the
# documentation of R psych's cohen.kappa. Cohen reports kw = .353 for his asymmetric
# disagreement weights.
COHEN_TABLE = np.array([[88, 14, 18], [10, 40, 10], [2, 6, 12]])
COHEN_WEIGHTS = np.array([[0, 1, 4], [1, 0, 6], [2, 2, 0]], dtype=float)


def cohen_frame() -> pd.DataFrame:
    a, b = [], []
    for i in range(3):
        for j in range(3):
            a += [i + 1] * int(COHEN_TABLE[i, j])
            b += [j + 1] * int(COHEN_TABLE[i, j])
    return pd.DataFrame({"a": a, "b": b})


def test_asymmetric_weights_cohen_1968(constructor: Any) -> None:
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    frame = constructor(cohen_frame().to_dict("list"))
    res = to_pandas(kf.pairwise(frame, weights=COHEN_WEIGHTS, ci=0.95))
    assert round(float(res["kappa"].iloc[0]), 3) == 0.353  # Cohen's published value
    oracle = inter_rater.cohens_kappa(COHEN_TABLE, weights=COHEN_WEIGHTS)
    assert float(res["kappa"].iloc[0]) == pytest.approx(oracle.kappa, abs=1e-12)
    assert float(res["se"].iloc[0]) == pytest.approx(oracle.std_kappa, abs=1e-12)
    # Orientation: rows are rater_a's labels, so the pair the other way round differs.
    prop = COHEN_TABLE / COHEN_TABLE.sum()
    chance = np.outer(prop.sum(1), prop.sum(0))
    flipped = 1 - (COHEN_WEIGHTS.T * prop).sum() / (COHEN_WEIGHTS.T * chance).sum()
    other = to_pandas(kf.pairwise(frame, weights=COHEN_WEIGHTS, reference="a"))
    assert (other["rater_a"].iloc[0], other["rater_b"].iloc[0]) == ("b", "a")
    assert float(other["kappa"].iloc[0]) == pytest.approx(flipped, abs=1e-12)
    square = to_pandas(kf.matrix(frame, weights=COHEN_WEIGHTS))
    values = square.set_index("rater") if "rater" in square.columns else square
    assert float(values.loc["a", "b"]) == pytest.approx(oracle.kappa, abs=1e-12)
    assert float(values.loc["b", "a"]) == pytest.approx(flipped, abs=1e-12)
    assert kf.score(frame, "a", "b", weights=COHEN_WEIGHTS) == pytest.approx(oracle.kappa)


def test_asymmetric_weights_everywhere_agree() -> None:
    df = cohen_frame()
    expected = kf.cohen_kappa(df["a"], df["b"], weights=COHEN_WEIGHTS)
    assert kf.score(df, "a", "b", weights=COHEN_WEIGHTS) == pytest.approx(expected, abs=1e-12)
    counted = kf.counts(df).pairwise(weights=COHEN_WEIGHTS)
    assert float(counted["kappa"].iloc[0]) == pytest.approx(expected, abs=1e-12)


def test_asymmetric_weights_among_raters_with_no_order() -> None:
    # overall() reads the symmetric part (every coefficient is a sum over unordered
    # pairs of labels); the rater summary, which pools oriented pairs, refuses them.
    df = cohen_frame()
    sym = (np.asarray(COHEN_WEIGHTS) + np.asarray(COHEN_WEIGHTS).T) / 2
    got = kf.overall(df, weights=COHEN_WEIGHTS, method=["fleiss", "conger"], ci=0.95)
    want = kf.overall(df, weights=sym, method=["fleiss", "conger"], ci=0.95)
    np.testing.assert_allclose(got["value"], want["value"], rtol=1e-12)
    np.testing.assert_allclose(got["se"], want["se"], rtol=1e-12)
    with pytest.raises(kf.KappaFrameError, match="symmetric weights matrix"):
        kf.raters(df, weights=COHEN_WEIGHTS)


def test_by_checked_against_the_schema_of_the_function_called() -> None:
    df = pd.DataFrame(
        {
            "rater_a": ["x", "x", "y", "y"] * 3,
            "ann1": [1, 2, 1, 2, 2, 2] * 2,
            "ann2": [1, 2, 2, 2, 1, 2] * 2,
            "ann3": [1, 1, 1, 2, 2, 2] * 2,
        }
    )
    res = kf.overall(df, ["ann1", "ann2", "ann3"], by="rater_a")
    assert list(res.columns[:2]) == ["rater_a", "method"] and len(res) == 2
    res = kf.raters(df, ["ann1", "ann2", "ann3"], by="rater_a")
    assert list(res.columns[:2]) == ["rater_a", "rater"] and len(res) == 6
    with pytest.raises(kf.KappaFrameError, match="'rater_a' has the name of an output column"):
        kf.pairwise(df, ["ann1", "ann2"], by="rater_a")
    with pytest.raises(kf.KappaFrameError, match="'method' has the name of an output column"):
        kf.overall(df.rename(columns={"rater_a": "method"}), ["ann1", "ann2"], by="method")


def test_counts_through_parquet_keep_the_category_order(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    levels = ["low", "mid", "high"]  # not alphabetical
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, 200)
    df = pd.DataFrame(
        {
            f"r{i}": [levels[min(2, max(0, t + rng.integers(-1, 2)))] for t in truth]
            for i in range(3)
        }
    )
    counts = kf.counts(df, categories=levels)
    before = counts.pairwise(weights="quadratic")
    path = tmp_path / "cells.parquet"
    counts.to_frame().to_parquet(path)
    back = kf.Counts.from_frame(pd.read_parquet(path))
    assert back.categories == levels and back.raters == ["r0", "r1", "r2"]
    pd.testing.assert_frame_equal(back.pairwise(weights="quadratic"), before)
    # CSV too: positions are plain integer columns.
    csv = tmp_path / "cells.csv"
    counts.to_frame().to_csv(csv, index=False)
    again = kf.Counts.from_frame(pd.read_csv(csv))
    pd.testing.assert_frame_equal(again.pairwise(weights="quadratic"), before)


def test_counts_keep_a_category_nobody_used() -> None:
    df = pd.DataFrame({"a": [1, 1, 2, 2], "b": [1, 2, 2, 2]})
    counts = kf.counts(df, categories=[1, 2, 3])  # 3 changes linear weights (K - 1 = 2)
    back = kf.Counts.from_frame(counts.to_frame())
    assert back.categories == [1, 2, 3]
    expected = kf.pairwise(df, categories=[1, 2, 3], weights="linear")
    pd.testing.assert_frame_equal(back.pairwise(weights="linear"), expected)


def test_fractional_counts_are_kept_exactly() -> None:
    cells = pd.DataFrame(
        {
            "rater_a": ["a", "a", "a", "a"],
            "rater_b": ["b", "b", "b", "b"],
            "label_a": ["x", "x", "y", "y"],
            "label_b": ["x", "y", "x", "y"],
            "count": [20.9, 5.0, 4.1, 21.0],
        }
    )
    counts = kf.Counts.from_frame(cells)
    table = np.array([[20.9, 5.0], [4.1, 21.0]])
    res = counts.pairwise()
    assert float(res["n"].iloc[0]) == pytest.approx(51.0, abs=1e-12)
    n = table.sum()
    p_o = np.trace(table) / n
    p_e = (table.sum(1) @ table.sum(0)) / n**2
    assert float(res["kappa"].iloc[0]) == pytest.approx((p_o - p_e) / (1 - p_e), abs=1e-12)


def test_large_whole_counts_are_exact_and_overflow_is_refused() -> None:
    big = 2**60 + 1  # not representable as a float64
    cells = pd.DataFrame(
        {
            "rater_a": ["a", "a"],
            "rater_b": ["b", "b"],
            "label_a": ["x", "y"],
            "label_b": ["x", "y"],
            "count": [big, 1],
        }
    )
    counts = kf.Counts.from_frame(cells)
    assert int(np.asarray(counts.tables).sum()) == big + 1
    too_big = cells.assign(count=[2**62, 2**62])
    with pytest.raises(kf.KappaFrameError, match=r"2\*\*62"):
        kf.Counts.from_frame(too_big)


def test_ac1_refuses_weights_and_krippendorff_takes_them() -> None:
    df = pd.DataFrame({"a": [1, 2, 3, 1], "b": [1, 2, 2, 1], "c": [1, 3, 3, 1]})
    # Krippendorff's alpha takes weights= as irrCAC's krippen.alpha.raw(weights=) does:
    # quadratic weights on the positions 1, 2, 3 are level="interval" on these labels.
    weighted = kf.overall(df, method="krippendorff", weights="quadratic")
    interval = kf.overall(df, method="krippendorff", level="interval")
    assert float(weighted["value"].iloc[0]) == pytest.approx(float(interval["value"].iloc[0]))
    with pytest.raises(kf.KappaFrameError, match="gwet_ac2"):
        kf.overall(df, method="gwet_ac1", weights="linear")
    # Next to a weighted method, weights= is used (by that method), so it is accepted.
    both = kf.overall(df, method=["gwet_ac1", "gwet_ac2"], weights="linear")
    assert list(both["method"]) == ["gwet_ac1", "gwet_ac2"]
    weighted = kf.overall(df, method="fleiss", weights="linear")  # still honoured
    plain = kf.overall(df, method="fleiss")
    assert float(weighted["value"].iloc[0]) != float(plain["value"].iloc[0])


# Krippendorff (2011): 4 observers, 12 units; ordinal alpha 0.815.
RELIABILITY = {
    "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    "C": [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
}
WORDS = ["one", "two", "three", "four", "five"]


def test_ordinal_alpha_needs_a_known_order_for_text_labels() -> None:
    numbers = pd.DataFrame(RELIABILITY)
    expected = float(kf.overall(numbers, method="krippendorff", level="ordinal")["value"].iloc[0])
    assert round(expected, 3) == 0.815
    words = numbers.apply(lambda col: col.map(lambda v: WORDS[int(v) - 1] if v == v else None))
    with pytest.raises(kf.KappaFrameError, match="needs the order of the categories"):
        kf.overall(words, method="krippendorff", level="ordinal")
    given = kf.overall(words, method="krippendorff", level="ordinal", categories=WORDS)
    assert float(given["value"].iloc[0]) == pytest.approx(expected, abs=1e-12)
    ordered = words.astype(pd.CategoricalDtype(WORDS, ordered=True))
    declared = kf.overall(ordered, method="krippendorff", level="ordinal")
    assert float(declared["value"].iloc[0]) == pytest.approx(expected, abs=1e-12)


def test_an_explicit_empty_rater_list_is_an_error(constructor: Any) -> None:
    frame = constructor({"a": [1, 2], "b": [1, 2], "note": ["x", "y"]})
    for call in (kf.pairwise, kf.matrix, kf.overall, kf.counts):
        with pytest.raises(kf.KappaFrameError, match=r"raters=\[\] names no rater"):
            call(frame, [])


def test_adding_counts_never_modifies_a_part() -> None:
    day1 = pd.DataFrame({"a": [1, 1, 2], "b": [1, 2, 2]})
    day2 = pd.DataFrame({"a": [2, 2], "b": [2, 1]})
    days = [kf.counts(day1)]
    snapshot = np.asarray(days[0].tables).copy()
    total = sum(days)
    assert total is not days[0] and (0 + days[0]) is not days[0]
    total += kf.counts(day2)
    np.testing.assert_array_equal(np.asarray(days[0].tables), snapshot)
    assert int(np.asarray(total.tables).sum()) == int(snapshot.sum()) + 2 * 3  # 3 pairs + self


def test_matrix_refuses_names_that_clash_with_its_columns(constructor: Any) -> None:
    with pytest.raises(kf.KappaFrameError, match="named 'rater'"):
        kf.matrix(constructor({"rater": [1, 2, 1], "b": [1, 2, 2]}))
    long = {
        "item": [1, 1, 2, 2],
        "who": ["g", "x", "g", "x"],
        "label": [1, 1, 2, 1],
        "g": ["p", "p", "p", "p"],
    }
    with pytest.raises(kf.KappaFrameError, match="'g' has the name of an output column"):
        kf.matrix(constructor(long), item="item", rater="who", label="label", by="g")
