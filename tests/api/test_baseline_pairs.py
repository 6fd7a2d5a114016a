"""Pairs are unordered in ``kf.against_baseline`` and ``kf.compare(first, second)``.

A row ``rater_a=ben, rater_b=ana`` is the pair ``ana, ben``: a run that names its raters in
another order is matched with its baseline pair by pair, gets the changes the same order
gets, and keeps its own orientation. What a result records (weights, set distance) must
match, naming the option.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli
from kappaframe._errors import KappaFrameError
from tests.conftest import to_pandas

#: In gamma's later items dee used one label only: the pairs with dee have no se there.
pytestmark = pytest.mark.filterwarnings(
    "ignore:the standard error of kappa:kappaframe.UndefinedKappaWarning"
)

TEAM = kf.datasets.labeling_team(seed=0)
ORDER = ["ana", "ben", "dee"]
SHUFFLED = ["ben", "dee", "ana"]
EARLY, LATE = TEAM[TEAM["item"] <= 300], TEAM[TEAM["item"] > 300]
BEFORE = kf.pairwise(EARLY, ORDER, by="project", ci=0.95)
CATEGORIES = ["bad", "poor", "ok", "good", "great"]
COMPARED = ["baseline", "change", "change_low", "change_high"]


def by_pair(frame: pd.DataFrame, columns: list[str]) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """Each row's columns keyed by (project, unordered pair)."""
    return {
        (row["project"], frozenset((row["rater_a"], row["rater_b"]))): tuple(row[columns])
        for _, row in frame.iterrows()
    }


def test_shuffled_raters_match_their_pairs_with_the_same_changes() -> None:
    same = kf.against_baseline(
        kf.pairwise(LATE, ORDER, by="project", ci=0.95), baseline=BEFORE, max_drop=0.1
    )
    result = kf.pairwise(LATE, SHUFFLED, by="project", ci=0.95)
    turned = kf.against_baseline(result, baseline=BEFORE, max_drop=0.1)
    assert not turned["state"].astype(str).isin(["new", "missing"]).any()
    assert len(turned) == len(same) == 9
    # This run's rows and orientation, in this run's order.
    assert turned[["project", "rater_a", "rater_b"]].equals(
        result[["project", "rater_a", "rater_b"]]
    )
    assert ("ben", "ana") in set(zip(turned["rater_a"], turned["rater_b"], strict=True))
    expected, got = by_pair(same, [*COMPARED, "state"]), by_pair(turned, [*COMPARED, "state"])
    assert got.keys() == expected.keys()
    for key, values in expected.items():
        np.testing.assert_allclose(got[key][:4], values[:4], atol=1e-15)
        assert got[key][4] == values[4]
    # The baseline column is the earlier run's kappa of the pair, whichever way it is written.
    old = by_pair(BEFORE, ["kappa"])
    for _, row in turned.iterrows():
        key = (row["project"], frozenset((row["rater_a"], row["rater_b"])))
        assert row["baseline"] == old[key][0]


def drop_frame(n: int, share: float, seed: int) -> pd.DataFrame:
    """Two raters of four labels: ben copies ana on ``share`` of the items, else guesses."""
    rng = np.random.default_rng(seed)
    ana = rng.integers(0, 4, n)
    ben = np.where(rng.random(n) < share, ana, rng.integers(0, 4, n))
    return pd.DataFrame({"ana": ana, "ben": ben})


def test_a_real_drop_written_the_other_way_round_is_dropped() -> None:
    before = kf.pairwise(drop_frame(3000, 0.8, 1), ["ana", "ben"], ci=0.95)
    now = drop_frame(3000, 0.3, 2)
    turned = kf.against_baseline(
        kf.pairwise(now, ["ben", "ana"], ci=0.95), baseline=before, max_drop=0.1
    )
    same = kf.against_baseline(
        kf.pairwise(now, ["ana", "ben"], ci=0.95), baseline=before, max_drop=0.1
    )
    assert turned["state"].astype(str).tolist() == ["dropped"]
    assert (turned["rater_a"].iloc[0], turned["rater_b"].iloc[0]) == ("ben", "ana")
    np.testing.assert_allclose(turned[COMPARED], same[COMPARED], atol=1e-15)
    assert turned["change_high"].iloc[0] < -0.1


def test_compare_matches_pairs_written_either_way(
    constructor: Callable[[dict[str, Any]], Any],
) -> None:
    def native(frame: pd.DataFrame) -> Any:
        return constructor(frame.astype({"interpretation": str}).to_dict("list"))

    after_same = kf.pairwise(LATE, ORDER, by="project", ci=0.95)
    after_turned = kf.pairwise(LATE, SHUFFLED, by="project", ci=0.95)
    if isinstance(constructor({"a": [1]}), pd.DataFrame):
        first, second, third = BEFORE, after_same, after_turned
    else:
        first, second, third = native(BEFORE), native(after_same), native(after_turned)
        if hasattr(first, "collect"):  # results are compared eagerly
            first, second, third = first.collect(), second.collect(), third.collect()
    same = to_pandas(kf.compare(first, second))
    turned = to_pandas(kf.compare(first, third))
    assert turned["matched"].astype(str).eq("both").all()
    # The first result's rows, in its orientation.
    keys = ["project", "rater_a", "rater_b"]
    assert turned[keys].astype(str).values.tolist() == BEFORE[keys].astype(str).values.tolist()
    numbers = ["kappa_first", "kappa_second", "difference", "se", "ci_low", "ci_high"]
    np.testing.assert_allclose(turned[numbers], same[numbers], atol=1e-15)
    # And the other way: this run first keeps this run's orientation.
    back = to_pandas(kf.compare(third, first))
    assert back["matched"].astype(str).eq("both").all()
    assert back[["rater_a", "rater_b"]].astype(str).values.tolist() == (
        after_turned[["rater_a", "rater_b"]].astype(str).values.tolist()
    )
    flipped, forward = by_pair(back, ["difference"]), by_pair(turned, ["difference"])
    assert flipped.keys() == forward.keys()
    for key, (value,) in forward.items():
        assert flipped[key][0] == pytest.approx(-value, abs=1e-15, nan_ok=True)


def test_a_pair_written_both_ways_in_one_result_is_refused() -> None:
    result = kf.pairwise(LATE, ORDER, ci=0.95)
    twice = pd.concat(
        [result, result.iloc[[0]].assign(rater_a="ben", rater_b="ana")], ignore_index=True
    )
    before = kf.pairwise(EARLY, ORDER, ci=0.95)
    with pytest.raises(KappaFrameError, match="either order"):
        kf.against_baseline(twice, baseline=before, max_drop=0.1)
    with pytest.raises(KappaFrameError, match="more than one row"):
        kf.compare(before, twice)


def test_a_weight_matrix_with_pairs_turned_round_is_refused() -> None:
    # kappa of (b, a) under W is kappa of (a, b) under W transposed: another number.
    cats = CATEGORIES
    w = np.triu(np.ones((5, 5)), 1) + 0.5 * np.tril(np.ones((5, 5)), -1)  # asymmetric
    ab = kf.pairwise(LATE, ["ana", "ben"], weights=w, categories=cats, ci=0.95)
    ba = kf.pairwise(LATE, ["ben", "ana"], weights=w, categories=cats, ci=0.95)
    assert ab["kappa"].iloc[0] != pytest.approx(ba["kappa"].iloc[0])
    before = kf.pairwise(EARLY, ["ana", "ben"], weights=w, categories=cats, ci=0.95)
    with pytest.raises(KappaFrameError, match="other way round") as caught:
        kf.against_baseline(ba, baseline=before, max_drop=0.1)
    assert caught.value.option == "weights"
    with pytest.raises(KappaFrameError, match="other way round") as caught:
        kf.compare(before, ba)
    assert caught.value.option == "weights"
    # Written the same way, the matrix is fine.
    out = kf.against_baseline(ab, baseline=before, max_drop=0.5)
    assert out["baseline"].iloc[0] == before["kappa"].iloc[0]


def sets_frame(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    labels = ["joy", "anger", "fear"]
    ann = ["|".join(x for x in labels if rng.random() < 0.4) for _ in range(300)]
    bob = [s if rng.random() < 0.7 else "|".join(labels[: rng.integers(0, 3)]) for s in ann]
    return pd.DataFrame({"ann": ann, "bob": bob})


def test_masi_alpha_against_whole_set_alpha_is_refused_naming_distance() -> None:
    options: dict[str, Any] = {"method": "krippendorff", "multi_sep": "|", "ci": 0.95}
    whole = kf.overall(sets_frame(1), **options)
    masi = kf.overall(sets_frame(2), distance="masi", **options)
    with pytest.raises(KappaFrameError, match="distance 'masi'") as caught:
        kf.against_baseline(masi, baseline=whole, max_drop=0.1)
    assert caught.value.option == "distance"
    with pytest.raises(KappaFrameError, match="distance None") as caught:
        kf.compare(masi, whole)
    assert caught.value.option == "distance"
    # Alike, they compare.
    out = kf.against_baseline(
        kf.overall(sets_frame(1), distance="masi", **options), baseline=masi, max_drop=0.5
    )
    assert out["baseline"].iloc[0] == masi["value"].iloc[0]


def test_unlike_weights_are_refused_by_against_baseline_as_by_compare() -> None:
    after = kf.pairwise(LATE, ORDER, by="project", ci=0.95, weights="linear",
                        categories=CATEGORIES)  # fmt: skip
    with pytest.raises(KappaFrameError, match="weights 'linear'") as caught:
        kf.against_baseline(after, baseline=BEFORE, max_drop=0.1)
    assert caught.value.option == "weights"


def test_files_the_command_line_wrote_match_their_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "team.csv"
    LATE.to_csv(source, index=False)
    EARLY.to_csv(tmp_path / "early.csv", index=False)
    flags = ["--by", "project", "--ci", "0.95"]
    old, new = tmp_path / "old.parquet", tmp_path / "new.parquet"
    assert cli.main(["report", str(tmp_path / "early.csv"), "--raters", *ORDER, *flags,
                     "-o", str(old)]) == 0  # fmt: skip
    assert cli.main(["report", str(source), "--raters", *SHUFFLED, *flags, "-o", str(new)]) == 0
    capsys.readouterr()
    out = kf.against_baseline(pd.read_parquet(new), baseline=pd.read_parquet(old), max_drop=0.1)
    assert not out["state"].astype(str).isin(["new", "missing"]).any()
    expected = kf.against_baseline(
        kf.pairwise(LATE, ORDER, by="project", ci=0.95), baseline=BEFORE, max_drop=0.1
    )
    got, want = by_pair(out, COMPARED), by_pair(expected, COMPARED)
    for key, values in want.items():
        np.testing.assert_allclose(got[key], values, atol=1e-12)
