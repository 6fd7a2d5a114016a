"""Ratings in a warehouse: Ibis tables on a real PostgreSQL server, counted there.

The ``postgres`` fixture (``tests/conftest.py``) starts a throwaway server; the ratings
are loaded with Ibis (``con.create_table``) and every statistic that an engine counts or
sums is checked against the pandas frame's, to 1e-12. The Ibis way in on Ibis' DuckDB
backend runs through the parity suites (``tests/ways.py``: ``ibis``, ``long_ibis``).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

RATERS = ["ann1", "ann2", "ann3"]
LONG = {"item": "item", "rater": "who", "label": "label"}
SCORES = {"item": "item", "rater": "who", "value": "label"}
_names = itertools.count()


def ratings(seed: int, n: int = 90) -> pd.DataFrame:
    """Three raters' labels 0-2 (some missing), a project (some missing) and a time."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "project": rng.choice(["p", "q", None], n).astype(object),
            **{r: rng.integers(0, 3, n).astype(float) for r in RATERS},
            "t": pd.Timestamp("2024-01-03 09:00") + pd.to_timedelta(np.arange(n) * 17, unit="h"),
        }
    )
    frame.loc[rng.random(n) < 0.2, "ann1"] = np.nan
    frame.loc[rng.random(n) < 0.1, "ann3"] = np.nan
    return frame


def scores(seed: int, n: int = 90) -> pd.DataFrame:
    """Scores with a large offset (digits to lose), every rater scoring most items."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(1000.0, 5.0, n)
    frame = pd.DataFrame({"project": rng.choice(["p", "q"], n).astype(object)})
    for i, r in enumerate(RATERS):
        frame[r] = np.round(truth + i + rng.normal(0, 2, n), 2)
    frame.loc[rng.random(n) < 0.1, "ann2"] = np.nan
    return frame


def long_of(wide: pd.DataFrame) -> pd.DataFrame:
    keep = [c for c in wide.columns if c not in RATERS]
    long = wide.reset_index(names="item").melt(["item", *keep], RATERS, var_name="who")
    return long.rename(columns={"value": "label"}).dropna(subset=["label"])


def table(con: Any, frame: pd.DataFrame) -> Any:
    """``frame`` as a new PostgreSQL table, loaded through Ibis."""
    return con.create_table(f"ratings_{next(_names)}", frame.reset_index(drop=True))


def same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    assert isinstance(got, pd.DataFrame)
    pd.testing.assert_frame_equal(
        got.reset_index(drop=True), want.reset_index(drop=True), rtol=1e-12, check_dtype=False
    )


def test_pairwise_wide_and_long(postgres: Any) -> None:
    data = ratings(1)
    wide, long = table(postgres, data), table(postgres, long_of(data))
    for weights in (None, "quadratic"):
        opts: dict[str, Any] = {"by": "project", "weights": weights, "ci": 0.95}
        same(kf.pairwise(wide, RATERS, **opts), kf.pairwise(data, RATERS, **opts))
        same(kf.pairwise(long, **LONG, **opts), kf.pairwise(long_of(data), **LONG, **opts))
    picked = {**LONG, "raters": ["ann3", "ann1"]}
    same(kf.pairwise(long, **picked), kf.pairwise(long_of(data), **picked))


def test_text_labels_counts_matrix_and_score(postgres: Any) -> None:
    data = ratings(2)
    named = {0.0: "low", 1.0: "mid", 2.0: "high"}
    text = data.assign(**{r: data[r].map(named) for r in RATERS})
    t = table(postgres, text)
    cats = ["low", "mid", "high"]
    opts: dict[str, Any] = {"by": "project", "categories": cats, "weights": "linear"}
    same(kf.pairwise(t, RATERS, **opts), kf.pairwise(text, RATERS, **opts))
    assert kf.counts(t, RATERS, by="project") == kf.counts(text, RATERS, by="project")
    same(kf.matrix(t, RATERS, by="project"), kf.matrix(text, RATERS, by="project"))
    assert kf.score(t, "ann1", "ann2", weights="linear", categories=cats) == pytest.approx(
        kf.score(text, "ann1", "ann2", weights="linear", categories=cats), rel=1e-12
    )


def test_raters_taken_by_default_and_an_id_column_refused(postgres: Any) -> None:
    # The columns taken as raters are checked in the engine (one aggregate query and one
    # union of distinct labels): an id column is refused as for a pandas frame.
    data = ratings(3)[RATERS]
    same(kf.pairwise(table(postgres, data)), kf.pairwise(data))
    ids = data.assign(item_id=np.arange(1000, 1000 + len(data)))
    t = table(postgres, ids)
    with pytest.raises(kf.KappaFrameError) as refused:
        kf.pairwise(t)
    with pytest.raises(kf.KappaFrameError) as local:
        kf.pairwise(ids)
    assert str(refused.value) == str(local.value)
    assert "'item_id'" in str(refused.value)


@pytest.mark.filterwarnings("ignore::kappaframe.UndefinedKappaWarning")  # an edge window
def test_calendar_windows(postgres: Any) -> None:
    data = ratings(4)
    t = table(postgres, data)
    opts: dict[str, Any] = {"by": "project", "time": "t", "every": "2w"}
    got, want = kf.pairwise(t, RATERS, **opts), kf.pairwise(data, RATERS, **opts)
    assert want["window_start"].nunique() > 3
    for name in ("window_start", "window_end"):
        got[name] = pd.to_datetime(got[name]).astype("datetime64[ns]")
        want[name] = pd.to_datetime(want[name]).astype("datetime64[ns]")
    same(got, want)


def test_icc_ccc_and_bland_altman_sums(postgres: Any) -> None:
    data = scores(5)
    wide, long = table(postgres, data), table(postgres, long_of(data))
    for function in (kf.icc, kf.ccc, kf.bland_altman):
        same(function(wide, RATERS, by="project"), function(data, RATERS, by="project"))
        got = function(long, by="project", **SCORES)
        same(got, function(long_of(data), by="project", **SCORES))


def test_only_cells_and_sums_come_back(postgres: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from kappaframe._frames import engines

    sizes: list[int] = []
    real = engines._to_pandas

    def recorded(query: Any) -> Any:
        out = real(query)
        sizes.append(len(out))
        return out

    monkeypatch.setattr(engines, "_to_pandas", recorded)
    data = ratings(6, n=600)
    kf.pairwise(table(postgres, data), RATERS, by="project")
    assert sizes and max(sizes) <= 3 * 6 * 9  # groups x pairs (and selves) x cells
    sizes.clear()
    kf.icc(table(postgres, scores(7, n=600)), RATERS, by="project")
    assert sizes and max(sizes) <= 2  # one row per group, a LIMIT 1 shift


def test_what_needs_every_rating_is_refused_with_the_way_out(postgres: Any) -> None:
    data = ratings(8)
    t = table(postgres, data)
    for call in (
        lambda: kf.overall(t, RATERS, by="project"),
        lambda: kf.kendall_w(t, RATERS, by="project"),
        lambda: kf.pairwise(t, RATERS, time="t", every="1w", period="2w"),
    ):
        with pytest.raises(kf.KappaFrameError) as refused:
            call()
        message = str(refused.value)
        assert "postgres (Ibis)" in message
        assert "table.to_pandas() or table.to_polars()" in message


# ------------------------------------------------------------------ what a backend cannot do
@pytest.fixture
def duck_table() -> Any:
    """A small Ibis table on Ibis' DuckDB backend (no server needed)."""
    ibis = pytest.importorskip("ibis")
    pytest.importorskip("narwhals")
    pa = pytest.importorskip("pyarrow")
    con = ibis.duckdb.connect()
    frame = ratings(9, n=30)[RATERS]
    yield con.create_table("ratings", ibis.memtable(pa.Table.from_pandas(frame)))
    con.disconnect()


def test_an_operation_the_backend_cannot_translate_is_named_with_the_way_out(
    duck_table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Nothing falls back to reading the rows: the backend's refusal is the answer.
    from ibis.backends.duckdb import Backend
    from ibis.common.exceptions import OperationNotDefinedError

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OperationNotDefinedError("No translation rule for <class 'CountStar'>")

    monkeypatch.setattr(Backend, "to_pyarrow", refuse)
    with pytest.raises(kf.KappaFrameError) as refused:
        kf.pairwise(duck_table, RATERS)
    message = str(refused.value)
    assert "the duckdb (Ibis) backend cannot run a query" in message
    assert "No translation rule for <class 'CountStar'>" in message
    assert "table.to_pandas() or table.to_polars()" in message

    def lost(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("server closed the connection")

    monkeypatch.setattr(Backend, "to_pyarrow", lost)
    with pytest.raises(ConnectionError, match="server closed"):  # not a refusal: unchanged
        kf.pairwise(duck_table, RATERS)
