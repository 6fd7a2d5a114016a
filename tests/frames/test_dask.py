"""Dask DataFrames, on a real distributed.LocalCluster (2 worker processes): same as pandas.

With ``categories=`` in the wide layout a call only builds a graph: no computation runs
until ``.compute()`` (counted with a local scheduler's callbacks).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
from dask.callbacks import Callback  # noqa: E402

RATERS = ["ann1", "ann2", "ann3", "ann4"]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def labels() -> pd.DataFrame:
    rng = np.random.default_rng(11)
    n = 2000
    truth = rng.integers(1, 4, n)
    data: dict[str, Any] = {"project": rng.choice(["beta", "alpha", "gamma"], n)}
    for name, skill in zip(RATERS, [0.9, 0.7, 0.5, 0.3], strict=True):
        values = np.where(rng.random(n) < skill, truth, rng.integers(1, 4, n)).astype(float)
        values[rng.random(n) < 0.1] = np.nan
        data[name] = values
    return pd.DataFrame(data)


def same(got: Any, expected: pd.DataFrame) -> None:
    """Equal values; Dask stores strings as pyarrow strings, so compare those as objects."""
    assert isinstance(got, dd.DataFrame)
    got = got.compute()
    strings = [c for c in got.columns if pd.api.types.is_string_dtype(got[c].dtype)]
    pd.testing.assert_frame_equal(
        got.astype(dict.fromkeys(strings, object)),
        expected.astype(dict.fromkeys(strings, object)),
        check_exact=False,
        rtol=0,
        atol=1e-12,
    )


def test_wide_pairwise_and_matrix(client: Any, labels: pd.DataFrame) -> None:
    ddf = dd.from_pandas(labels, npartitions=5)
    local = ddf.compute()  # the same frame (Dask's string dtypes), in pandas
    options = {"by": "project", "weights": "linear", "ci": 0.95}
    same(ddf.kappa.pairwise(RATERS, **options), local.kappa.pairwise(RATERS, **options))
    matrix = ddf.kappa.matrix(RATERS, stat="n").compute()
    pd.testing.assert_frame_equal(
        matrix, local.kappa.matrix(RATERS, stat="n"), check_index_type=False
    )
    assert kf.score(ddf, "ann1", "ann4") == pytest.approx(kf.score(local, "ann1", "ann4"))


def test_long_layout_is_shuffled_by_item(client: Any, labels: pd.DataFrame) -> None:
    long = labels.reset_index(names="item").melt(
        id_vars=["item", "project"], var_name="who", value_name="label"
    )
    long = long.sample(frac=1.0, random_state=5)  # ratings of an item spread everywhere
    ddf = dd.from_pandas(long, npartitions=6, sort=False)
    opts = {"item": "item", "rater": "who", "label": "label", "by": "project"}
    local = ddf.compute()
    same(ddf.kappa.pairwise(min_overlap=1, **opts), local.kappa.pairwise(min_overlap=1, **opts))
    picked = ddf.kappa.pairwise(raters=["ann3", "ann1"], categories=[1.0, 2.0, 3.0], **opts)
    same(picked, local.kappa.pairwise(raters=["ann3", "ann1"], categories=[1.0, 2.0, 3.0], **opts))


def test_overall_gathers_the_codes(client: Any, labels: pd.DataFrame) -> None:
    ddf = dd.from_pandas(labels, npartitions=3)
    options = {"by": "project", "method": ["fleiss", "conger", "krippendorff"]}
    got = ddf.kappa.overall(RATERS, **options)
    same(got, ddf.compute().kappa.overall(RATERS, **options))


def test_counts_from_partitions(client: Any, labels: pd.DataFrame) -> None:
    ddf = dd.from_pandas(labels, npartitions=4)
    counts = kf.counts(ddf, RATERS, by="project")
    assert counts == kf.counts(ddf.compute(), RATERS, by="project")
    cells = counts.to_frame()
    assert isinstance(cells, pd.DataFrame) and cells["count"].sum() > 0


class Computes(Callback):  # type: ignore[misc]
    """Counts the Dask computations started while it is active."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def _start(self, dsk: Any) -> None:
        self.count += 1


CATEGORIES = [1.0, 2.0, 3.0]


def test_known_categories_build_a_graph_only(labels: pd.DataFrame) -> None:
    ddf = dd.from_pandas(labels, npartitions=5)
    local = ddf.compute()
    options = {"by": "project", "categories": CATEGORIES, "weights": "linear", "ci": 0.95}
    with dask.config.set(scheduler="sync"):
        with Computes() as computes:
            got = kf.pairwise(ddf, RATERS, **options)
            matrix = ddf.kappa.matrix(RATERS, by="project", categories=CATEGORIES)
        assert computes.count == 0
        same(got, kf.pairwise(local, RATERS, **options))
        expected = kf.matrix(local, RATERS, by="project", categories=CATEGORIES)
        pd.testing.assert_frame_equal(
            matrix.compute(),
            expected.reset_index(level="project"),
            check_index_type=False,
            check_exact=False,
            rtol=0,
            atol=1e-12,
        )


@pytest.mark.parametrize(
    "options",
    [
        {"by": "project", "ci": 0.9, "stats": ["pabak"]},
        {"reference": "ann1", "min_items": None},
        {"stat": "n", "by": "project"},
    ],
)
def test_the_planned_meta_is_the_computed_schema(labels: pd.DataFrame, options: dict) -> None:
    ddf = dd.from_pandas(labels, npartitions=3)
    func = kf.matrix if "stat" in options else kf.pairwise
    with dask.config.set(scheduler="sync"):
        got = func(ddf, RATERS, categories=CATEGORIES, **options)
        computed = got.compute()
    assert list(got.columns) == list(computed.columns)
    assert got._meta.index.name == computed.index.name
    for column in computed.columns:
        meta, real = got._meta[column].dtype, computed[column].dtype
        assert meta == real or (  # Dask keeps strings as pyarrow strings in its meta
            pd.api.types.is_string_dtype(meta) and pd.api.types.is_string_dtype(real)
        ), (column, meta, real)


def test_known_categories_check_columns_at_call_time(labels: pd.DataFrame) -> None:
    ddf = dd.from_pandas(labels, npartitions=2)
    with (
        dask.config.set(scheduler="sync"),
        Computes() as computes,
        pytest.raises(kf.KappaFrameError, match="nope"),
    ):
        kf.pairwise(ddf, ["ann1", "nope"], categories=CATEGORIES)
    assert computes.count == 0


def test_unknown_categories_are_found_first(labels: pd.DataFrame) -> None:
    ddf = dd.from_pandas(labels, npartitions=3)
    with dask.config.set(scheduler="sync"), Computes() as computes:
        got = kf.pairwise(ddf, RATERS, by="project")
        assert computes.count > 0
        same(got, kf.pairwise(ddf.compute(), RATERS, by="project"))


def test_known_categories_on_a_cluster(client: Any, labels: pd.DataFrame) -> None:
    ddf = dd.from_pandas(labels, npartitions=4)
    options = {"by": "project", "categories": CATEGORIES, "stats": "all"}
    same(ddf.kappa.pairwise(RATERS, **options), kf.pairwise(ddf.compute(), RATERS, **options))
