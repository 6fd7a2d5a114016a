"""Constructor fixtures: each behaviour is written once and run on every backend."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe  # noqa: F401  (registers the accessors)


def _pandas(data: dict[str, Any]) -> pd.DataFrame:
    return pd.DataFrame(data)


def _polars(data: dict[str, Any]) -> Any:
    pl = pytest.importorskip("polars")
    return pl.from_pandas(pd.DataFrame(data))


def _polars_lazy(data: dict[str, Any]) -> Any:
    return _polars(data).lazy()


CONSTRUCTORS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "pandas": _pandas,
    "polars": _polars,
    "polars_lazy": _polars_lazy,
}


@pytest.fixture(params=list(CONSTRUCTORS))
def constructor(request: pytest.FixtureRequest) -> Callable[[dict[str, Any]], Any]:
    return CONSTRUCTORS[request.param]


def to_pandas(result: Any) -> pd.DataFrame:
    """Any kappaframe result as a pandas frame (polars results converted, lazy collected)."""
    if isinstance(result, pd.DataFrame):
        return result
    if hasattr(result, "collect"):
        result = result.collect()
    return result.to_pandas()


def native_type_matches(result: Any, frame: Any) -> bool:
    """Input type decides output type: pandas -> pandas, DataFrame -> DataFrame, lazy -> lazy."""
    return type(result) is type(frame)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261121)


@pytest.fixture(scope="session")
def spark_session() -> Iterator[Any]:
    """One local PySpark session for the whole run (starting one takes seconds).

    PySpark is not in the test extra (it is large): the Spark tests run where the spark
    extra is installed too, as CI does.
    """
    pytest.importorskip(
        "pyspark", reason='PySpark is not installed: pip install -e ".[spark]" runs these tests'
    )
    pytest.importorskip("narwhals", reason='narwhals is not installed: pip install -e ".[spark]"')
    if shutil.which("java") is None:
        pytest.skip("PySpark needs Java (a JRE on the PATH)")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[1]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .getOrCreate()
    )
    yield session
    session.stop()
