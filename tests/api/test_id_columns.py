"""One rule for columns that are not ratings, on every way in and for every function.

An integer column whose values are all distinct across rows is an item id whatever their
order (sorted, shuffled, filtered with gaps) and however few the rows: taken as a rater
by default it is refused alike by pandas, polars, a LazyFrame, a CSV, Parquet or JSON
lines path, a file read in batches, a Dask frame, a DuckDB relation, a Spark frame (the
``way_in`` fixture) and the command line; named raters are taken as given, with the same
numbers.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from tests.conftest import CONSTRUCTORS, to_pandas
from tests.ways import WayIn, ways

RATERS = ["alice", "bob", "carol"]


def _team(ids: np.ndarray) -> pd.DataFrame:
    rng = np.random.default_rng(28)
    n = len(ids)
    truth = rng.integers(1, 6, n)
    noise = np.clip(truth + rng.integers(-1, 2, n), 1, 5)
    return pd.DataFrame({"item_id": ids, "alice": truth, "bob": noise, "carol": truth[::-1]})


def _ids(kind: str) -> np.ndarray:
    rng = np.random.default_rng(7)
    if kind == "sorted":
        return np.arange(1, 41)
    if kind == "shuffled":
        return rng.permutation(np.arange(1, 41))
    if kind == "filtered":  # a subset of a bigger table: gaps, in its own order
        return rng.permutation(np.sort(rng.choice(np.arange(1, 400), 40, replace=False)))
    return np.arange(1, 16)  # a small file: 15 items


IDS = ["sorted", "shuffled", "filtered", "small"]


def _csv(df: pd.DataFrame, tmp_path: Path) -> str:
    path = tmp_path / "ratings.csv"
    df.to_csv(path, index=False)
    return str(path)


#: The ways in (``tests/ways.py``) the rule is checked on.
WAYS = ways(
    "pandas",
    "polars",
    "polars_lazy",
    "csv_path",
    "parquet_path",
    "jsonl_path",
    "scan_csv",
    "dask",
    "duckdb",
    "ibis",
    "spark",
)

#: The ways whose ratings are counted and summed in a SQL engine.
ENGINES = ("duckdb", "ibis", "spark")

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "pairwise": kf.pairwise,
    "overall": kf.overall,
    "matrix": kf.matrix,
    "raters": kf.raters,
    "items": kf.items,
    "icc": kf.icc,
    "ccc": kf.ccc,
    "kendall_w": kf.kendall_w,
    "bland_altman": kf.bland_altman,
}

#: The functions that need every rating of every item: an engine refuses them whatever
#: the columns (``test_an_engine_refuses_what_needs_every_rating``).
EVERY_RATING = ("overall", "raters", "items", "kendall_w")

#: The functions that read scores (the others read labels).
SCORES = ("icc", "ccc", "kendall_w", "bland_altman")


#: Spark runs the engine path that DuckDB runs in full, in a JVM (a second or more a
#: case): one label function and one score function stand for the others there.
SPARK_FUNCTIONS = ("pairwise", "ccc")
#: Ibis runs that path too, its queries compiled by Ibis: one label function and each kind
#: of sums (per pair, the ICC's) stand for the others there.
IBIS_FUNCTIONS = ("pairwise", "icc", "ccc")


def _cases(ways: list[str]) -> list[tuple[str, str]]:
    """(way, function) for every function the way takes."""
    return [
        (way, function)
        for way in ways
        for function in FUNCTIONS
        if not (way in ENGINES and function in EVERY_RATING)
        and not (way == "spark" and function not in SPARK_FUNCTIONS)
        and not (way == "ibis" and function not in IBIS_FUNCTIONS)
    ]


def _tidy(result: pd.DataFrame) -> pd.DataFrame:
    return result.reset_index() if result.index.name is not None else result  # matrix


def _run(function: str, data: Any, **options: Any) -> pd.DataFrame:
    return _tidy(to_pandas(FUNCTIONS[function](data, **options)))  # a LazyFrame: collected


@pytest.mark.parametrize("ids", IDS)
@pytest.mark.parametrize(("way", "function"), _cases(WAYS))
def test_an_id_column_is_refused_on_every_way_in(
    way: str, ids: str, function: str, way_in: Callable[..., WayIn]
) -> None:
    through = way_in(way, _team(_ids(ids)))
    with pytest.raises(kf.KappaFrameError, match="'item_id'") as refused:
        through(FUNCTIONS[function])  # a LazyFrame: when collected
    message = str(refused.value)
    assert "raters=[...]" in message
    assert "alice" not in message  # the raters are not blamed


@pytest.mark.parametrize("ids", ["shuffled", "small"])
@pytest.mark.parametrize(("way", "function"), _cases(WAYS))
def test_named_raters_give_the_numbers_of_the_frame_without_ids(
    way: str, ids: str, function: str, way_in: Callable[..., WayIn]
) -> None:
    team = _team(_ids(ids))
    want = _run(function, team[RATERS])  # the oracle: no id column at all
    got = _tidy(way_in(way, team)(FUNCTIONS[function], raters=RATERS))
    assert list(got.columns) == list(want.columns)
    numbers = [c for c in want.columns if pd.api.types.is_numeric_dtype(want[c])]
    key = [c for c in want.columns if c not in numbers]
    got, want = got.reset_index(drop=True), want.reset_index(drop=True)
    if function == "items":  # the items are named by the id column's row position
        key = [c for c in key if c != "item"]
        numbers = [c for c in numbers if c != "item"]
    assert got[key].astype(str).to_numpy().tolist() == want[key].astype(str).to_numpy().tolist()
    np.testing.assert_allclose(
        got[numbers].to_numpy(float), want[numbers].to_numpy(float), rtol=0, atol=1e-12
    )


@pytest.mark.parametrize("ids", IDS)
@pytest.mark.parametrize(("way", "function"), _cases(ways("dask", "duckdb", "ibis", "spark")))
def test_the_refusal_is_the_one_of_the_frame(
    way: str, ids: str, function: str, way_in: Callable[..., WayIn]
) -> None:
    # The rule decides from the same facts wherever they are gathered (each Dask
    # partition's scores in row order; one aggregate query in an engine): the same words
    # and numbers as pandas. An engine's rows have no order: it does not look for row
    # numbers, and the sorted ids are refused as ids.
    team = _team(_ids(ids))
    messages = []
    for data in (team, way_in(way, team).data):
        with pytest.raises(kf.KappaFrameError) as refused:
            to_pandas(FUNCTIONS[function](data))  # Dask: when computed
        messages.append(str(refused.value))
    if way in ENGINES and function in SCORES and ids == "sorted":
        assert "numbers the rows" in messages[0]
        assert "'item_id' (" in messages[1] and "distinct whole numbers" in messages[1]
        return
    assert messages[1] == messages[0]


@pytest.mark.parametrize("way", ways("duckdb", "ibis", "spark"))
@pytest.mark.parametrize("function", EVERY_RATING)
def test_an_engine_refuses_what_needs_every_rating(
    way: str, function: str, way_in: Callable[..., WayIn]
) -> None:
    through = way_in(way, _team(_ids("shuffled")))
    with pytest.raises(kf.KappaFrameError, match="pandas or polars"):
        through(FUNCTIONS[function], raters=RATERS)


@pytest.mark.parametrize("way", ways("pandas", "dask", "duckdb", "ibis", "spark"))
@pytest.mark.parametrize(
    ("column", "shown"),
    [
        ([1.0, 2.0, 0.79, 3.0, 2.0, 1.0], "0.79"),  # a score read as a label
        (["1", "2", "0.5", "3", "2", "1"], "'0.5'"),  # text written as numbers
    ],
)
def test_numbers_that_are_not_whole_are_refused_as_labels(
    way: str, column: list[Any], shown: str, way_in: Callable[..., WayIn]
) -> None:
    data = pd.DataFrame({"alice": [1, 2, 2, 3, 1, 1], "bob": [1, 2, 3, 3, 1, 2], "s": column})
    through = way_in(way, data)
    with pytest.raises(kf.KappaFrameError) as refused:
        through(kf.pairwise)
    assert f"'s' (numbers that are not whole, such as {shown})" in str(refused.value)
    got = through(kf.pairwise, raters=["alice", "bob"])
    assert got["kappa"].tolist() == kf.pairwise(data, raters=["alice", "bob"])["kappa"].tolist()


@pytest.mark.parametrize("way", ways("dask", "duckdb", "ibis", "spark"))
@pytest.mark.parametrize(
    "data",
    [
        {"a": [1, 2, 3], "b": [1, 2, 3]},
        {"a": [0, 1, 2, 3], "b": [0, 1, 1, 3]},
        {"a": [3, 1, 2], "b": [2, 2, 1], "c": [3, 1, 1]},
        {"a": [1, 2, 3, 4, 5, 6], "b": [1, 1, 2, 2, 3, 3], "c": [None, 2, 2, 3, 3, 1]},
    ],
)
def test_raters_are_raters_in_every_engine(
    way: str, data: dict[str, list[Any]], way_in: Callable[..., WayIn]
) -> None:
    # Few distinct values beside them: no column is an id (missing ratings are not values).
    frame = pd.DataFrame(data)
    through = way_in(way, frame)
    for function in (kf.pairwise, kf.ccc):
        got, want = through(function), function(frame, raters=list(data))
        np.testing.assert_allclose(
            got.select_dtypes("number").to_numpy(float),
            want.select_dtypes("number").to_numpy(float),
            rtol=0,
            atol=1e-12,
        )


@pytest.mark.parametrize("ids", IDS)
@pytest.mark.parametrize("stream", [False, True])
def test_the_command_line_refuses_an_id_column(ids: str, stream: bool, tmp_path: Path) -> None:
    path = _csv(_team(_ids(ids)), tmp_path)
    args = [sys.executable, "-m", "kappaframe", "report", path, *(["--stream"] if stream else [])]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stdout
    assert "'item_id'" in done.stderr
    assert "--raters" in done.stderr
    assert "item_id vs" not in done.stdout


def test_the_small_file_is_refused_as_its_frame_is(tmp_path: Path) -> None:
    team = _team(_ids("small"))
    messages = []
    for data in (team, _csv(team, tmp_path)):
        with pytest.raises(kf.KappaFrameError) as refused:
            kf.pairwise(data)
        messages.append(str(refused.value))
    assert messages[0] == messages[1]
    assert "'item_id' (15 distinct values in 15 labelled rows)" in messages[0]


@pytest.mark.parametrize("make", list(CONSTRUCTORS))
@pytest.mark.parametrize(
    "data",
    [
        {"a": [1, 2, 3], "b": [1, 2, 3]},  # three items scored 1, 2, 3 by everyone
        {"a": [0, 1, 2, 3], "b": [0, 1, 1, 3]},  # one rater all distinct, as few labels
        {"a": [3, 1, 2], "b": [2, 2, 1], "c": [3, 1, 1]},
    ],
)
def test_raters_whose_labels_happen_to_be_distinct_are_raters(
    make: str, data: dict[str, list[int]]
) -> None:
    frame = CONSTRUCTORS[make](data)
    got = to_pandas(kf.pairwise(frame))
    want = kf.pairwise(pd.DataFrame(data), raters=list(data))
    assert got["rater_a"].tolist() == want["rater_a"].tolist()
    np.testing.assert_allclose(got["kappa"], want["kappa"], rtol=0, atol=1e-12)


def test_measurements_distinct_on_every_row_are_scores() -> None:
    # Whole-number measurements rarely repeat: nothing tells them from ids, so they are
    # scores (one rater with a tie does not make the other an id).
    data = pd.DataFrame({"wright": [494, 395, 516, 434, 476], "mini": [512, 430, 520, 428, 512]})
    got = kf.ccc(data)
    want = kf.ccc(data, raters=["wright", "mini"])
    np.testing.assert_allclose(got["ccc"], want["ccc"], rtol=0, atol=0)


def test_a_declared_category_column_is_never_an_id() -> None:
    data = pd.DataFrame(
        {
            "a": pd.Categorical(list(range(15)), categories=list(range(15)), ordered=True),
            "b": np.arange(15) % 3,
        }
    )
    assert len(kf.pairwise(data)) == 1
