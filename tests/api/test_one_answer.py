"""One answer per input: the same ratings give the same numbers on every way in.

Row order, the codes a backend (or a declared category order) gives the labels, and the
way the ratings come in (a pandas or polars frame, a LazyFrame, a CSV path, the command
line) must not change a seeded draw: the bootstrap intervals of ``pairwise``,
``overall`` and ``compare``, and the random tie break of ``items``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from tests.conftest import to_pandas
from tests.ways import WayIn, ways

TEAM = list(kf.datasets.TEAM)


def _call(data: Any, function: Callable[..., Any], *args: Any, **options: Any) -> pd.DataFrame:
    """``function(data, ...)`` on a frame, as pandas (the reference of each test)."""
    return to_pandas(function(data, *args, **options))


@pytest.fixture(scope="module")
def team() -> pd.DataFrame:
    """The bundled team: ordered categoricals (bad < poor < ok < good < great)."""
    return kf.datasets.labeling_team()


def _as_text(df: pd.DataFrame) -> pd.DataFrame:
    """Plain text labels (no declared order): sorted alphabetically, other codes."""
    return df.astype({r: object for r in [*TEAM, "gold"]})


#: The ways in (``tests/ways.py``) to the same ratings (the command line is its own test:
#: it writes text).
WAYS = ways("pandas", "polars", "polars_lazy", "csv_path", "shuffled", "text_labels")


def _pairwise_se(data: Any) -> pd.DataFrame:
    """The bootstrap columns of ``pairwise`` on ``data`` (a frame, or a way in)."""
    call = data if isinstance(data, WayIn) else partial(_call, data)
    res = call(kf.pairwise, raters=TEAM, ci=0.95, ci_method="bootstrap", seed=0)
    return res.set_index(["rater_a", "rater_b"])[["se", "ci_low", "ci_high"]].sort_index()


@pytest.mark.parametrize("way", WAYS)
def test_pairwise_bootstrap_is_one_answer_on_every_way_in(
    way: str, team: pd.DataFrame, way_in: Callable[..., WayIn]
) -> None:
    expected = _pairwise_se(team)
    got = _pairwise_se(way_in(way, team))
    pd.testing.assert_frame_equal(got, expected, rtol=1e-12, atol=0)


def test_pairwise_bootstrap_on_the_command_line_is_the_frame_s(
    team: pd.DataFrame, way_in: Callable[..., WayIn]
) -> None:
    expected = _pairwise_se(team)
    for way in ("cli", "cli_stream"):  # kappaframe report, and report --stream
        got = _pairwise_se(way_in(way, team))
        pd.testing.assert_frame_equal(got, expected, rtol=1e-12, atol=0)


def test_pairwise_bootstrap_does_not_follow_a_declared_order(team: pd.DataFrame) -> None:
    """The same ratings with the categories declared in another order draw alike."""
    turned = team.copy()
    for r in TEAM:
        turned[r] = turned[r].cat.reorder_categories(["ok", "great", "bad", "good", "poor"])
    pd.testing.assert_frame_equal(_pairwise_se(turned), _pairwise_se(team), rtol=1e-12, atol=0)


def test_a_weighted_bootstrap_keeps_its_weights_with_the_labels(team: pd.DataFrame) -> None:
    """Quadratic weights follow the declared order; the draws follow the labels."""
    grades = list(kf.datasets.GRADES)

    def se(data: Any) -> pd.Series:
        res = to_pandas(
            kf.pairwise(
                data,
                raters=TEAM,
                weights="quadratic",
                categories=grades,
                ci=0.95,
                ci_method="bootstrap",
                seed=0,
            )
        )
        # The replicates are of the weighted kappa: their interval holds the estimate.
        assert ((res["ci_low"] < res["kappa"]) & (res["kappa"] < res["ci_high"])).all()
        return res["se"]

    pl = pytest.importorskip("polars")
    expected = se(team)
    pd.testing.assert_series_equal(se(pl.from_pandas(team)), expected, rtol=1e-12, atol=0)
    pd.testing.assert_series_equal(se(_as_text(team)), expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize("method", ["fleiss", "conger", "light", "krippendorff"])
@pytest.mark.parametrize("way", WAYS)
def test_overall_bootstrap_is_one_answer_on_every_way_in(
    way: str, method: str, team: pd.DataFrame, way_in: Callable[..., WayIn]
) -> None:
    def se(call: Callable[..., pd.DataFrame]) -> np.ndarray:
        res = call(kf.overall, raters=TEAM, method=method, ci=0.95, ci_method="bootstrap", seed=0)
        return res[["se", "ci_low", "ci_high"]].to_numpy(dtype=float)

    np.testing.assert_allclose(se(way_in(way, team)), se(partial(_call, team)), rtol=1e-12, atol=0)


@pytest.mark.parametrize("way", WAYS)
def test_compare_bootstrap_is_one_answer_on_every_way_in(
    way: str, team: pd.DataFrame, way_in: Callable[..., WayIn]
) -> None:
    def se(call: Callable[..., pd.DataFrame]) -> np.ndarray:
        res = call(kf.compare, ("ana", "gold"), ("ben", "gold"), method="bootstrap", seed=0)
        return res[["se", "ci_low", "ci_high"]].to_numpy(dtype=float)

    np.testing.assert_allclose(se(way_in(way, team)), se(partial(_call, team)), rtol=1e-12, atol=0)


def _consensus(data: Any, **options: Any) -> pd.Series:
    call = data if isinstance(data, WayIn) else partial(_call, data)
    res = call(kf.items, raters=TEAM, ties="random", seed=0, **options)
    return res.set_index("item")["consensus"].astype(str).sort_index()


@pytest.mark.parametrize("way", WAYS)
def test_a_random_tie_break_picks_the_same_label_per_item_on_every_way_in(
    way: str, team: pd.DataFrame, way_in: Callable[..., WayIn]
) -> None:
    expected = _consensus(team)
    assert to_pandas(kf.items(team, TEAM))["tied"].sum() > 50  # ties to break
    pd.testing.assert_series_equal(_consensus(way_in(way, team)), expected)


def test_a_random_tie_break_of_the_long_layout_ignores_the_row_order() -> None:
    long = kf.datasets.labeling_team(layout="long")
    options = {"item": "item", "rater": "annotator", "label": "grade"}

    def consensus(data: pd.DataFrame) -> pd.Series:
        res = kf.items(data, ties="random", seed=0, **options)
        return res.set_index("item")["consensus"].astype(str)

    expected = consensus(long)
    shuffled = long.sample(frac=1.0, random_state=3)
    as_text = shuffled.astype({"grade": object})
    pd.testing.assert_series_equal(consensus(shuffled), expected)
    pd.testing.assert_series_equal(consensus(as_text), expected)


def test_a_random_tie_break_by_group_ignores_the_row_order(team: pd.DataFrame) -> None:
    expected = _consensus(team, by="project")
    pd.testing.assert_series_equal(
        _consensus(team.sample(frac=1.0, random_state=11), by="project"), expected
    )


def test_the_labels_own_order_is_sorted_by_value_whatever_the_codes() -> None:
    from kappaframe._encode.codes import canonical_order

    assert canonical_order(["good", "bad", "ok"]).tolist() == [1, 0, 2]
    assert canonical_order([10.0, 2.5, 0.5]).tolist() == [2, 1, 0]
    sets = [frozenset({"b", "c"}), frozenset({"a"}), frozenset()]
    assert canonical_order(sets).tolist() == [2, 1, 0]
    assert canonical_order([2, "a", 1]).tolist() == [2, 0, 1]  # numbers, then text
    assert canonical_order([]).tolist() == []
