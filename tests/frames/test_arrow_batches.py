"""A DuckDB relation streamed as Arrow batches: the numbers of pandas and of the pushdown.

DuckDB runs in this process, so its relations are counted here from their Arrow record
batches (``kappaframe._frames.arrow_batches``); a Spark frame is counted in its engine.
``pushdown`` forces the count into DuckDB (as Spark's is), to compare the two ways.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._cli.logs import to_stream
from tests.frames.test_engines import LONG, long_ratings, ratings, same

duckdb = pytest.importorskip("duckdb")
pytest.importorskip("narwhals")
pytest.importorskip("pyarrow")

from kappaframe._frames import arrow_batches  # noqa: E402


@pytest.fixture
def con() -> Iterator[Any]:
    connection = duckdb.connect()
    yield connection
    connection.close()


@pytest.fixture
def pushdown(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[], Any]], Any]:
    """Run a call with DuckDB counted in its engine (no engine taken as in-process)."""

    def run(call: Callable[[], Any]) -> Any:
        with monkeypatch.context() as m:
            m.setattr(arrow_batches, "IN_PROCESS", ())
            return call()

    return run


@pytest.fixture
def streaming(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[], Any]], Any]:
    """Run a call with DuckDB streamed however few its tables (3 or fewer are pushed down)."""

    def run(call: Callable[[], Any]) -> Any:
        with monkeypatch.context() as m:
            m.setattr(arrow_batches, "PUSHED_TABLES", 0)
            return call()

    return run


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Rows of every Arrow batch counted (the batches made small: 7 rows)."""
    sizes: list[int] = []
    parts = arrow_batches.ArrowBatches.parts

    def counted(self: Any, columns: Any) -> Iterator[Any]:
        for part in parts(self, columns):
            sizes.append(len(part))
            yield part

    monkeypatch.setattr(arrow_batches.ArrowBatches, "batch_size", 7)
    monkeypatch.setattr(arrow_batches.ArrowBatches, "parts", counted)
    return sizes


def table(con: Any, frame: pd.DataFrame, sql: str = "SELECT * FROM data") -> Any:
    """``frame`` as a DuckDB table (not a view of the pandas frame), then ``sql`` on it."""
    con.register("source", frame)
    con.execute("CREATE OR REPLACE TABLE data AS SELECT * FROM source")
    con.unregister("source")
    return con.sql(sql)


def test_wide_streamed_equals_pandas_and_pushdown(
    con: Any, pushdown: Any, streaming: Any, batches: list[int]
) -> None:
    data = ratings(11, n=40)
    rel = table(con, data)
    for opts in ({"by": "project"}, {"by": "project", "weights": "quadratic"}):
        got = streaming(lambda opts=opts: kf.pairwise(rel, **opts))
        same(got, kf.pairwise(data, **opts))
        same(got, pushdown(lambda opts=opts: kf.pairwise(rel, **opts)))
        same(got, kf.pairwise(rel, **opts))  # three pairs: pushed down by the rule
    # Several batches were counted and added: 40 rows in batches of at most 7, twice.
    assert len(batches) >= 2 * 6 and max(batches) <= 7 and sum(batches) == 2 * 40


def test_long_streamed_equals_pandas_and_pushdown(con: Any, pushdown: Any) -> None:
    data = long_ratings(ratings(12, n=50))
    rel = table(con, data)
    for extra in ({}, {"raters": ["ann3", "ann1"], "weights": "linear"}):
        opts: dict[str, Any] = {**LONG, "by": "project", **extra}
        got = kf.pairwise(rel, **opts)
        same(got, kf.pairwise(data, **opts))
        same(got, pushdown(lambda opts=opts: kf.pairwise(rel, **opts)))


def test_categories_and_missing_labels(
    con: Any, pushdown: Any, streaming: Any, batches: list[int]
) -> None:
    data = ratings(13, n=60)
    data.loc[:20, "ann2"] = np.nan  # the first batches miss a rater's labels
    rel = table(con, data)
    cats = [2.0, 1.0, 0.0, 5.0]
    opts = {"by": "project", "weights": "linear", "categories": cats}
    got = streaming(lambda: kf.pairwise(rel, **opts))
    same(got, kf.pairwise(data, **opts))
    same(got, pushdown(lambda: kf.pairwise(rel, **opts)))
    with pytest.raises(kf.KappaFrameError, match="categories"):  # 2.0 is not listed
        streaming(lambda: kf.pairwise(rel, by="project", categories=[0.0, 1.0]))
    assert len(batches) > 1


def test_whole_numbers_with_missing_values_stay_whole(
    con: Any, pushdown: Any, streaming: Any
) -> None:
    """INTEGER labels and group keys with NULLs, counted in batches: the pushdown's labels."""
    data = ratings(14, n=40)
    sql = "SELECT CAST(ann1 AS INTEGER) AS ann1, CAST(ann2 AS INTEGER) AS ann2, "
    sql += "CAST(ann3 AS INTEGER) AS ann3, CAST((ann1 + ann2) % 3 AS INTEGER) AS ann4, "
    sql += "CAST(project = 'p' AS INTEGER) AS g FROM data"  # NULL where project is
    rel = table(con, data, sql)
    got = streaming(lambda: kf.confusion(rel, "ann1", "ann2"))
    want = pushdown(lambda: kf.confusion(rel, "ann1", "ann2"))
    same(got, want)
    same(kf.confusion(rel, "ann1", "ann2"), want)  # three tables: pushed down by the rule
    assert list(got.index) == [0, 1, 2] and isinstance(got.index[0], (int, np.integer))
    raters = ["ann1", "ann2", "ann4", "ann3"]  # six pairs: streamed
    same(
        kf.pairwise(rel, raters, by="g"),
        pushdown(lambda: kf.pairwise(rel, raters, by="g")),
    )


def test_the_way_taken_is_logged(con: Any, pushdown: Any) -> None:
    data = ratings(15, n=30)
    rel = table(con, data.assign(ann4=data["ann1"]))
    shown = io.StringIO()
    with to_stream(logging.INFO, shown):  # what ``--verbose`` sets up
        kf.pairwise(rel, by="project")
        pushdown(lambda: kf.pairwise(rel, by="project"))
        kf.pairwise(rel, ["ann1", "ann2"], by="project")
        kf.pairwise(table(con, long_ratings(ratings(15, n=30))), **LONG)
    lines = shown.getvalue().splitlines()
    rows = arrow_batches.ArrowBatches.batch_size
    assert (
        f"kappaframe: counting the DuckDB relation by streaming its Arrow batches ({rows} "
        "rows per batch)"
    ) in lines
    assert "kappaframe: pushing the count down to DuckDB" in lines
    assert (
        "kappaframe: pushing the count down to DuckDB (1 table(s) to count: one query costs "
        "less than streaming the rows here)"
    ) in lines
    assert any(
        line.startswith("kappaframe: counting the DuckDB relation here: its item,")
        for line in lines
    )


def test_id_columns_and_duplicates_are_refused_as_before(con: Any) -> None:
    data = ratings(16, n=30)
    data.insert(0, "item_id", np.arange(1000, 1030))
    rel = table(con, data)
    with pytest.raises(kf.KappaFrameError, match="item_id") as streamed:
        kf.pairwise(rel, by="project")
    with pytest.raises(kf.KappaFrameError, match="item_id") as eager:
        kf.pairwise(data, by="project")
    assert str(streamed.value) == str(eager.value)
    long = long_ratings(ratings(17, n=20))
    rel = table(con, pd.concat([long, long.head(1)]))
    with pytest.raises(kf.KappaFrameError, match="more than once; keep one rating"):
        kf.pairwise(rel, **LONG)
    with pytest.raises(kf.KappaFrameError, match="SQL engine's rows have none"):
        kf.pairwise(rel, **LONG, duplicates="first")


def test_statistics_of_every_rating_are_still_refused(con: Any) -> None:
    rel = table(con, ratings(18, n=20))
    with pytest.raises(kf.KappaFrameError, match="every rating of every item"):
        kf.overall(rel, by="project")


def test_only_an_engine_in_this_process_is_streamed(
    con: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule: DuckDB is streamed, unless 3 tables or fewer are counted (one query is
    cheaper there); Spark (its data elsewhere) is pushed down.

    Windows over time are counted in DuckDB's query (``tests/api/test_windows.py``).
    """
    from kappaframe._frames.engines import EngineFrame, engine_frame

    frame = engine_frame(table(con, ratings(19, n=10)))
    assert isinstance(arrow_batches.streamed_reader(frame), arrow_batches.ArrowBatches)
    assert isinstance(arrow_batches.streamed_reader(frame, 4), arrow_batches.ArrowBatches)
    assert arrow_batches.streamed_reader(frame, 3) is None
    monkeypatch.setattr(EngineFrame, "engine", property(lambda self: "pyspark"))
    assert arrow_batches.streamed_reader(frame) is None
    assert arrow_batches.engine_name(frame) == "Spark"


def test_streamed_errors_are_those_of_pandas(con: Any) -> None:
    """A label not in categories= names the caller's column; an unknown rater id is refused.

    Streamed (four raters) or pushed down (two; the count's cells hold ``label_a``). (In
    the engine, the unknown rater id gave a row of n = 0: Spark, counting long ratings in
    its engine, still does.)
    """
    data = ratings(20, n=20)
    long = long_ratings(data)
    four = data.assign(ann4=data["ann2"])
    calls = [
        (data, lambda frame: kf.pairwise(frame, ["ann1", "ann2"], categories=[0.0, 1.0])),
        (
            four,
            lambda frame: kf.pairwise(
                frame, ["ann4", "ann3", "ann2", "ann1"], categories=[0.0, 1.0]
            ),
        ),
        (long, lambda frame: kf.pairwise(frame, **LONG, raters=["ann1", "nobody"])),
    ]
    for frame, call in calls:
        with pytest.raises(kf.KappaFrameError) as eager:
            call(frame)
        with pytest.raises(kf.KappaFrameError) as streamed:
            call(table(con, frame))
        assert str(streamed.value) == str(eager.value)
