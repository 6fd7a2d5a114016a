"""DuckDB relations and PySpark DataFrames: counted in the engine, the same numbers as pandas."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

LONG = {"item": "item", "rater": "who", "label": "label"}


def ratings(seed: int = 0, n: int = 60) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "project": rng.choice(["p", "q", None], n).astype(object),
            "ann1": rng.integers(0, 3, n).astype(float),
            "ann2": rng.integers(0, 3, n).astype(float),
            "ann3": rng.integers(0, 3, n).astype(float),
        }
    )
    frame.loc[rng.random(n) < 0.2, "ann1"] = np.nan
    frame.loc[rng.random(n) < 0.1, "ann3"] = np.nan
    return frame


def long_ratings(wide: pd.DataFrame) -> pd.DataFrame:
    long = wide.reset_index(names="item").melt(["project", "item"], var_name="who")
    return long.rename(columns={"value": "label"})


def same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    assert isinstance(got, pd.DataFrame)
    pd.testing.assert_frame_equal(got, want, rtol=1e-12)


# ------------------------------------------------------------------------ DuckDB
@pytest.fixture
def duck() -> Iterator[Any]:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    con = duckdb.connect()
    yield con
    con.close()


def relation(con: Any, frame: pd.DataFrame, name: str) -> Any:
    con.register(name, frame)
    return con.sql(f"SELECT * FROM {name}")


@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_duckdb_wide(duck: Any, weights: str | None) -> None:
    data = ratings(1)
    rel = relation(duck, data, "wide")
    same(
        kf.pairwise(rel, by="project", weights=weights),
        kf.pairwise(data, by="project", weights=weights),
    )
    same(
        kf.pairwise(rel, ["ann3", "ann1"], weights=weights, ci=0.95),
        kf.pairwise(data, ["ann3", "ann1"], weights=weights, ci=0.95),
    )


@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_duckdb_long(duck: Any, weights: str | None) -> None:
    data = long_ratings(ratings(2))
    rel = relation(duck, data, "long")
    opts: dict[str, Any] = {**LONG, "by": "project", "weights": weights}
    same(kf.pairwise(rel, **opts), kf.pairwise(data, **opts))
    opts["raters"] = ["ann2", "ann3"]
    same(kf.pairwise(rel, **opts), kf.pairwise(data, **opts))


def test_duckdb_matrix_score_confusion_counts(duck: Any) -> None:
    data = ratings(3)
    rel = relation(duck, data, "wide")
    same(kf.matrix(rel, by="project"), kf.matrix(data, by="project"))
    assert kf.score(rel, "ann1", "ann2", weights="linear") == pytest.approx(
        kf.score(data, "ann1", "ann2", weights="linear"), rel=1e-12
    )
    same(kf.confusion(rel, "ann1", "ann2"), kf.confusion(data, "ann1", "ann2"))
    assert kf.counts(rel, by="project") == kf.counts(data, by="project")


def test_duckdb_categories_and_errors(duck: Any) -> None:
    data = ratings(4)
    rel = relation(duck, data, "wide")
    cats = [2.0, 1.0, 0.0, 5.0]
    same(
        kf.pairwise(rel, by="project", weights="linear", categories=cats),
        kf.pairwise(data, by="project", weights="linear", categories=cats),
    )
    with pytest.raises(kf.KappaFrameError, match="annn1"):
        kf.pairwise(rel, ["annn1", "ann2"])
    with pytest.raises(kf.KappaFrameError, match="every rating"):
        kf.overall(rel, by="project")


def test_duckdb_long_duplicates_are_refused(duck: Any) -> None:
    data = long_ratings(ratings(5))
    rel = relation(duck, pd.concat([data, data.head(1)]), "dup")
    with pytest.raises(kf.KappaFrameError, match="more than once"):
        kf.pairwise(rel, **LONG)


# ------------------------------------------------------------------------ Spark
@pytest.fixture
def spark(spark_session: Any) -> Any:
    return spark_session


def spark_frame(session: Any, frame: pd.DataFrame) -> Any:
    rows = [
        tuple(None if isinstance(v, float) and np.isnan(v) else v for v in row)
        for row in frame.itertuples(index=False)
    ]
    types = {"item": "bigint", "who": "string", "project": "string"}
    schema = ", ".join(f"{c} {types.get(c, 'double')}" for c in frame.columns)
    return session.createDataFrame(rows, schema)


def test_spark_wide_and_long(spark: Any) -> None:
    data = ratings(6, n=40)
    sdf = spark_frame(spark, data)
    for weights in (None, "quadratic"):
        same(
            kf.pairwise(sdf, by="project", weights=weights),
            kf.pairwise(data, by="project", weights=weights),
        )
    long = long_ratings(data)
    opts = {**LONG, "by": "project", "weights": "quadratic"}
    same(kf.pairwise(spark_frame(spark, long), **opts), kf.pairwise(long, **opts))
