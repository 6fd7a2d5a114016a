"""Agreement over time: the windows of polars' ``group_by_dynamic``, on every way in."""

from __future__ import annotations

import datetime as dt
import itertools

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import KappaFrameError
from kappaframe._encode.windows import check_windows
from kappaframe._frames.windows import with_windows

pl = pytest.importorskip("polars")

EVERY = ["1h", "5h", "1d", "3d", "1w", "2w", "1mo", "2mo", "1q", "5mo", "1y"]
PERIOD = [None, "12h", "2d", "3w", "1mo1d", "45d", "2mo"]
OFFSET = [None, "6h", "-1d", "30d", "-1mo2d", "3d"]
CLOSED = ["left", "right", "both", "none"]


def _times(rng: np.random.Generator, n: int, date: bool) -> list:
    start = dt.datetime(2023, 11, 27, 5, 30)
    minutes = rng.integers(0, 60 * 24 * 400, n)
    if rng.random() < 0.3:  # times exactly on day and month bounds
        minutes = (minutes // (60 * 24)) * 60 * 24 - 330
    stamps = [start + dt.timedelta(minutes=int(m)) for m in minutes]
    return [s.date() for s in stamps] if date else stamps


def _micros(values: object) -> list[int]:
    """Times as integer microseconds (dates at midnight), whatever library gave them."""
    stamps = np.asarray(pd.to_datetime(pd.Series(values)).to_numpy(), dtype="datetime64[us]")
    return stamps.astype(np.int64).tolist()


def _polars_windows(frame: pl.DataFrame, by: list[str], **options: object) -> set:
    """(row, window start, window end) of every row in every window, by polars itself."""
    out = (
        frame.sort([*by, "t"])
        .group_by_dynamic("t", include_boundaries=True, group_by=by or None, **options)
        .agg(pl.col("row"))
        .explode("row")
        .drop_nulls("row")
    )
    starts, ends = _micros(out["_lower_boundary"]), _micros(out["_upper_boundary"])
    return set(zip(out["row"].to_list(), starts, ends, strict=True))


def _our_windows(frame: pd.DataFrame, by: list[str], **options: object) -> set:
    w = check_windows("t", **options)
    assert w is not None
    out = with_windows(frame, w, by)
    starts, ends = _micros(out["window_start"]), _micros(out["window_end"])
    return set(zip(out["row"].tolist(), starts, ends, strict=True))


@pytest.mark.parametrize("date", [False, True])
def test_every_row_is_in_the_windows_polars_puts_it_in(date: bool) -> None:
    rng = np.random.default_rng(7 + date)
    combos = list(itertools.product(EVERY, PERIOD, OFFSET, CLOSED))
    rng.shuffle(combos)
    checked = 0
    for every, period, offset, closed in combos[:150]:
        if date and any(o is not None and "h" in o for o in (every, period, offset)):
            continue
        n = int(rng.integers(1, 60))
        by = ["g"] if rng.random() < 0.5 else []
        frame = pd.DataFrame(
            {"t": _times(rng, n, date), "g": rng.choice(["x", "y", "z"], n), "row": range(n)}
        )
        options = {"every": every, "period": period, "offset": offset, "closed": closed}
        given = {k: v for k, v in options.items() if v is not None}
        expected = _polars_windows(pl.from_pandas(frame), by, **given)
        assert _our_windows(frame, by, **options) == expected, (options, by)
        checked += len(expected)
    assert checked > 2000  # row-window memberships compared


# ----------------------------------------------------------------------------- the numbers


def _team(n: int = 240, seed: int = 3) -> pd.DataFrame:
    """Three raters of 3 labels, two projects, one item every 9 hours from a Thursday."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n)
    frame = {"day": pd.Timestamp("2024-02-01 10:00") + pd.to_timedelta(np.arange(n) * 9, "h")}
    frame["project"] = rng.choice(["p", "q"], n)
    for name, keep in (("ana", 0.85), ("ben", 0.7), ("cai", 0.55)):
        frame[name] = np.where(rng.random(n) < keep, truth, rng.integers(0, 3, n))
    return pd.DataFrame(frame)


def test_each_window_is_cohens_kappa_of_the_rows_polars_puts_in_it() -> None:
    """Independent: sklearn's kappa of the rows of each polars window (rolling windows)."""
    metrics = pytest.importorskip("sklearn.metrics")
    team = _team()
    res = kf.pairwise(team, ["ana", "ben"], by="project", time="day", every="1w", period="3w")
    windows = (
        pl.from_pandas(team)
        .sort("project", "day")
        .group_by_dynamic(
            "day", every="1w", period="3w", group_by="project", include_boundaries=True
        )
        .agg(pl.col("ana"), pl.col("ben"))
        .sort("project", "_lower_boundary")
    )
    assert len(res) == windows.height > 10
    for got, want in zip(res.itertuples(), windows.iter_rows(named=True), strict=True):
        assert (got.project, got.window_start, got.window_end) == (
            want["project"],
            pd.Timestamp(want["_lower_boundary"]),
            pd.Timestamp(want["_upper_boundary"]),
        )
        assert got.n == len(want["ana"])
        kappa = metrics.cohen_kappa_score(want["ana"], want["ben"])
        assert got.kappa == pytest.approx(kappa, abs=1e-12)


def test_overlapping_windows_count_a_row_in_each() -> None:
    team = _team()
    weekly = kf.pairwise(team, ["ana", "ben"], time="day", every="1w")
    rolling = kf.pairwise(team, ["ana", "ben"], time="day", every="1w", period="2w")
    assert weekly["n"].sum() == len(team)
    assert rolling["n"].sum() == 2 * len(team) - weekly["n"].iloc[0]  # the first week once
    assert list(rolling.columns[:2]) == ["window_start", "window_end"]
    assert (rolling["window_end"] - rolling["window_start"] == pd.Timedelta(days=14)).all()
    assert (rolling["window_start"].dt.day_of_week == 0).all()  # weeks start on Monday


@pytest.mark.filterwarnings("ignore::kappaframe.UndefinedKappaWarning")  # days of few items
def test_a_window_with_no_rows_is_absent() -> None:
    team = _team(40).drop(index=range(10, 30))  # a gap of 20 x 9 hours: a week with no rows
    res = kf.pairwise(team, ["ana", "ben"], time="day", every="1d", min_items=None)
    assert len(res) == team["day"].dt.normalize().nunique()


@pytest.mark.filterwarnings("ignore::kappaframe.UndefinedKappaWarning")  # a short last month
def test_dates_give_date_windows_and_the_frame_is_kept() -> None:
    team = _team().assign(day=lambda d: d["day"].dt.date)
    before = team.copy()
    res = kf.overall(team, ["ana", "ben", "cai"], time="day", every="1mo")
    pd.testing.assert_frame_equal(team, before)
    assert isinstance(res["window_start"].iloc[0], dt.date)
    assert [d.day for d in res["window_start"]] == [1] * len(res)
    out = kf.pairwise(pl.from_pandas(team), ["ana", "ben"], time="day", every="1mo")
    assert out.schema["window_start"] == pl.Date and out.schema["window_end"] == pl.Date


OVERALL_WAYS = ["pandas", "polars", "lazy", "dask", "parquet", "csv", "long"]


def _way(way: str, frame: pd.DataFrame, tmp_path: object) -> object:
    if way == "polars":
        return pl.from_pandas(frame)
    if way == "lazy":
        return pl.from_pandas(frame).lazy()
    if way == "dask":
        dd = pytest.importorskip("dask.dataframe")
        return dd.from_pandas(frame, npartitions=4)
    if way in ("parquet", "csv"):
        pytest.importorskip("pyarrow")
        path = tmp_path / f"team.{way}"  # type: ignore[operator]
        frame.to_parquet(path) if way == "parquet" else frame.to_csv(path, index=False)
        return kf.scan(path, batch_size=37)
    return frame


def _plain(res: object) -> pd.DataFrame:
    if hasattr(res, "collect"):
        res = res.collect()
    if hasattr(res, "compute"):
        res = res.compute()
    if hasattr(res, "to_pandas"):
        res = res.to_pandas()
    assert isinstance(res, pd.DataFrame)
    res = res.reset_index(drop=True)
    for name in ("window_start", "window_end"):
        res[name] = pd.to_datetime(res[name]).astype("datetime64[ns]")
    for name in ("consensus", "ana", "ben", "cai"):  # labels: CSV text and numbers alike
        if name in res:
            res[name] = [None if pd.isna(v) else str(int(float(v))) for v in res[name]]
    return res


@pytest.mark.parametrize("way", OVERALL_WAYS)
def test_overall_and_items_in_windows_alike_on_every_way_in(way: str, tmp_path: object) -> None:
    team = _team()
    options = {"by": "project", "time": "day", "every": "1w", "period": "2w", "offset": "-1d"}
    raters = ["ana", "ben", "cai"]
    want = _plain(kf.overall(team, raters, method=["fleiss", "krippendorff"], **options))
    items_want = _plain(kf.items(team, raters, **options))
    if way == "long":
        data = team.assign(item=range(len(team))).melt(
            id_vars=["item", "day", "project"], value_vars=raters, var_name="r", value_name="l"
        )
        layout = {"item": "item", "rater": "r", "label": "l"}
        got = _plain(kf.overall(data, method=["fleiss", "krippendorff"], **layout, **options))
        items_got = _plain(kf.items(data, **layout, **options))
    else:
        data = _way(way, team, tmp_path)
        got = _plain(kf.overall(data, raters, method=["fleiss", "krippendorff"], **options))
        items_got = _plain(kf.items(data, raters, **options))
    pd.testing.assert_frame_equal(got, want, check_dtype=False, check_categorical=False)
    assert items_got["n_ratings"].sum() == items_want["n_ratings"].sum() > 2 * len(team) * 2
    keys = ["project", "window_start", "item"]
    items_got = items_got.sort_values(keys, kind="stable").reset_index(drop=True)
    items_want = items_want.sort_values(keys, kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(items_got, items_want, check_dtype=False, check_categorical=False)


def test_items_keep_their_names_in_windows() -> None:
    """Items named by row (polars) or index (pandas) keep the name of their input row."""
    team = _team(60)
    want = kf.items(team.set_index(pd.RangeIndex(100, 160)), ["ana", "ben", "cai"])
    res = kf.items(pl.from_pandas(team), ["ana", "ben", "cai"], time="day", every="1w")
    assert sorted(res["item"].to_list()) == list(range(60))
    got = kf.items(
        team.set_index(pd.RangeIndex(100, 160)), ["ana", "ben", "cai"], time="day", every="1w"
    )
    assert sorted(got["item"]) == sorted(want["item"])
    merged = got.merge(want, on="item", suffixes=("", "_all"))
    assert len(merged) == 60
    assert merged["consensus"].fillna(-1).eq(merged["consensus_all"].fillna(-1)).all()


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"every": "1w"}, "needs the time column"),
        ({"time": "day"}, "every="),
        ({"time": "day", "every": "1week"}, "is not a duration"),
        ({"time": "day", "every": "-1d"}, "is not a duration"),
        ({"time": "day", "every": "1d12h"}, "mixes units"),
        ({"time": "day", "every": "0d"}, "longer than zero"),
        ({"time": "day", "every": "1d", "period": "0h"}, "longer than zero"),
        ({"time": "day", "every": "1d", "closed": "middle"}, "closed must be one of"),
        ({"time": "when", "every": "1d"}, "when"),
        ({"time": "ana", "every": "1d"}, "not dates or datetimes"),
    ],
)
def test_bad_window_options_are_refused(options: dict, message: str) -> None:
    team = _team(30)
    with pytest.raises(KappaFrameError, match=message):
        kf.pairwise(team, ["ben", "cai"], **options)


def test_a_missing_time_names_the_column_and_the_way_out() -> None:
    team = _team(30)
    team.loc[3, "day"] = pd.NaT
    for frame in (team, pl.from_pandas(team)):
        with pytest.raises(KappaFrameError, match=r"time column 'day' has 1 missing.*Drop"):
            kf.pairwise(frame, ["ana", "ben"], time="day", every="1d")


def test_time_zones_and_hours_on_dates_are_refused() -> None:
    team = _team(30)
    zoned = team.assign(day=team["day"].dt.tz_localize("Europe/Paris"))
    with pytest.raises(KappaFrameError, match="time-zone aware"):
        kf.pairwise(zoned, ["ana", "ben"], time="day", every="1d")
    dates = pl.from_pandas(team).with_columns(pl.col("day").dt.date())
    with pytest.raises(KappaFrameError, match="finer than time column 'day'"):
        kf.pairwise(dates, ["ana", "ben"], time="day", every="12h")
    with pytest.raises(KappaFrameError, match="not an ISO 8601"):
        kf.pairwise(team.assign(day="last monday"), ["ana", "ben"], time="day", every="1d")


@pytest.mark.filterwarnings("ignore::kappaframe.UndefinedKappaWarning")  # a short last month
@pytest.mark.parametrize(
    "options",
    [
        {"every": "1w"},
        {"every": "1d", "offset": "6h"},
        {"every": "5h", "closed": "right"},
        {"every": "2mo", "offset": "1mo"},
        {"every": "1q"},
    ],
)
def test_duckdb_counts_calendar_windows_in_its_query(options: dict) -> None:
    """One grid of whole windows is computed in the engine: the windows of pandas."""
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    team = _team()
    team["day"] += pd.to_timedelta(np.arange(len(team)) * 37, unit="s")  # off the hour
    long = team.assign(item=range(len(team))).melt(
        id_vars=["item", "day", "project"], value_vars=["ana", "ben"], var_name="r", value_name="l"
    )
    layout = {"item": "item", "rater": "r", "label": "l"}
    for frame, raters, extra in ((team, ["ana", "ben", "cai"], {}), (long, None, layout)):
        want = kf.pairwise(frame, raters, by="project", time="day", **extra, **options)
        got = kf.pairwise(
            duckdb.from_df(frame), raters, by="project", time="day", **extra, **options
        )
        pd.testing.assert_frame_equal(_plain(got), _plain(want), check_dtype=False)


def test_duckdb_dates_and_what_an_engine_refuses() -> None:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    team = _team().assign(day=lambda d: d["day"].dt.date)
    relation = duckdb.from_df(team)
    got = kf.pairwise(relation, ["ana", "ben"], time="day", every="1w")
    want = kf.pairwise(team, ["ana", "ben"], time="day", every="1w")
    np.testing.assert_array_equal(
        got["window_start"].to_numpy("datetime64[D]"),
        np.array(want["window_start"].tolist(), dtype="datetime64[D]"),
    )
    np.testing.assert_allclose(got["kappa"], want["kappa"], rtol=0, atol=1e-12)
    with pytest.raises(KappaFrameError, match=r"period= \(2w\) differs.*relation.pl\(\)"):
        kf.pairwise(relation, ["ana", "ben"], time="day", every="1w", period="2w")
    text = duckdb.from_df(team.assign(day=team["day"].astype(str)))
    with pytest.raises(KappaFrameError, match=r"CAST\(col AS TIMESTAMP\)"):
        kf.pairwise(text, ["ana", "ben"], time="day", every="1w")
    with pytest.raises(KappaFrameError, match="every rating of every item"):
        kf.overall(relation, ["ana", "ben"], time="day", every="1w")


def test_a_window_column_already_there_is_refused() -> None:
    team = _team(30).assign(window_start=1)
    with pytest.raises(KappaFrameError, match="already has a column 'window_start'"):
        kf.pairwise(team, ["ana", "ben"], time="day", every="1d")


# ----------------------------------------------------------------------------- the picture


def test_trend_plot_draws_lines_bands_and_the_scale() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.collections import PolyCollection

    team = _team()
    res = kf.pairwise(team, ["ana", "ben", "cai"], time="day", every="1w", period="2w", ci=0.95)
    fig = kf.trend_plot(res)
    ax = fig.axes[0]
    assert [line.get_label() for line in ax.lines] == ["ana, ben", "ana, cai", "ben, cai"]
    first = res[(res["rater_a"] == "ana") & (res["rater_b"] == "ben")]
    np.testing.assert_allclose(ax.lines[0].get_ydata(), first["kappa"].to_numpy())
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(bands) == 3  # one interval band per line
    top = bands[0].get_paths()[0].vertices[:, 1].max()
    assert top == pytest.approx(first["ci_high"].max())
    labels = [t.get_text() for t in ax.texts]
    assert labels[-4:] == ["fair", "moderate", "substantial", "almost perfect"]
    assert len(ax.patches) == len(labels)  # the bands behind, those within the y range
    overall = kf.overall(team, ["ana", "ben", "cai"], by="project", time="day", every="2w")
    fig = kf.trend_plot(overall, scale="altman")
    ax = fig.axes[0]
    assert [line.get_label() for line in ax.lines] == ["p, fleiss", "q, fleiss"]
    assert not [c for c in ax.collections if isinstance(c, PolyCollection)]  # no ci: no band
    assert "good" in [t.get_text() for t in ax.texts]
    assert not res.kappa.trend_plot(scale=None).axes[0].texts


def test_trend_plot_needs_a_windowed_result() -> None:
    pytest.importorskip("matplotlib")
    res = kf.pairwise(_team(30), ["ana", "ben"])
    with pytest.raises(KappaFrameError, match="time= and every="):
        kf.trend_plot(res)


@pytest.mark.filterwarnings("ignore::kappaframe.UndefinedKappaWarning")
def test_a_missing_group_key_has_its_own_windows_on_every_way_in(tmp_path: object) -> None:
    """A missing ``by`` key is a group (sorted last) whose windows start at its own time."""
    team = _team(120)
    team["project"] = team["project"].astype(object)
    team.loc[team.index % 7 == 0, "project"] = None
    options = {"by": "project", "time": "day", "every": "1w", "period": "2w"}
    want = _plain(kf.pairwise(team, ["ana", "ben"], **options))
    assert want["project"].isna().any()
    want["project"] = [None if pd.isna(p) else p for p in want["project"]]
    for way in ("polars", "dask", "parquet"):
        got = _plain(kf.pairwise(_way(way, team, tmp_path), ["ana", "ben"], **options))
        got["project"] = [None if pd.isna(p) else p for p in got["project"]]
        pd.testing.assert_frame_equal(got, want, check_dtype=False, check_categorical=False)


def test_file_items_are_named_by_their_row_across_batches(tmp_path: object) -> None:
    """Items of a file in windows keep the row number they have in the file."""
    team = _team(300)
    path = tmp_path / "team.csv"  # type: ignore[operator]
    team.to_csv(path, index=False)
    options = {"time": "day", "every": "1w", "period": "2w", "labels": True}
    got = kf.items(kf.scan(path, batch_size=40), ["ana", "ben", "cai"], **options)
    want = kf.items(pl.from_pandas(team), ["ana", "ben", "cai"], **options).to_pandas()
    assert sorted(set(got["item"])) == list(range(300))
    assert len(got) == len(want) > 500  # two windows for almost every row
    keys = ["window_start", "item"]
    got = got.sort_values(keys).reset_index(drop=True)
    want = want.sort_values(keys).reset_index(drop=True)
    assert got["item"].tolist() == want["item"].tolist()
    assert got["ana"].tolist() == want["ana"].tolist() == team["ana"][got["item"]].tolist()


@pytest.mark.filterwarnings("ignore::kappaframe.UndefinedKappaWarning")  # a rater with itself
def test_raters_and_matrix_in_windows_are_those_of_each_window() -> None:
    team = _team()
    raters = ["ana", "ben", "cai"]
    res = kf.raters(team, raters, time="day", every="1mo")
    matrix = kf.matrix(team, raters, time="day", every="1mo")
    months = team["day"].dt.to_period("M")
    assert res["window_start"].nunique() == months.nunique() == 4
    for start, rows in res.groupby("window_start"):
        sub = team[months == pd.Period(start, "M")]
        np.testing.assert_allclose(
            rows["mean_kappa"], kf.raters(sub, raters)["mean_kappa"], rtol=0, atol=1e-12
        )
        square = matrix.loc[start].droplevel(0)
        np.testing.assert_allclose(square, kf.matrix(sub, raters), rtol=0, atol=1e-12)


def test_arrow_times_keep_their_type_and_numpys_words_are_no_times() -> None:
    pa = pytest.importorskip("pyarrow")
    team = _team(120)
    want = kf.pairwise(team, ["ana", "ben"], time="day", every="1mo")
    for dtype in (pd.ArrowDtype(pa.timestamp("ms")), pd.ArrowDtype(pa.date32())):
        column = team["day"] if dtype.pyarrow_dtype == pa.timestamp("ms") else team["day"].dt.date
        got = kf.pairwise(
            team.assign(day=column.astype(dtype)), ["ana", "ben"], time="day", every="1mo"
        )
        assert got["window_start"].dtype == dtype
        assert [pd.Timestamp(t) for t in got["window_start"]] == want["window_start"].tolist()
        np.testing.assert_allclose(got["kappa"], want["kappa"], rtol=0, atol=1e-12)
    for word in ("NaT", "today", "now"):
        days = team["day"].astype(str)
        text = team.assign(day=days.where(days.index != 5, word))
        with pytest.raises(KappaFrameError, match=f"holds '{word}', which is not an ISO 8601"):
            kf.pairwise(text, ["ana", "ben"], time="day", every="1mo")
