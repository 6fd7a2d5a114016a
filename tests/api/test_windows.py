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


def _polars_windows(frame: pl.DataFrame, by: list[str], **options: object) -> set:
    """(row, window start, window end) of every row in every window, by polars itself."""
    out = (
        frame.sort([*by, "t"])
        .group_by_dynamic("t", include_boundaries=True, group_by=by or None, **options)
        .agg(pl.col("row"))
        .explode("row")
        .drop_nulls("row")
    )
    return {
        (r["row"], pd.Timestamp(r["_lower_boundary"]), pd.Timestamp(r["_upper_boundary"]))
        for r in out.iter_rows(named=True)
    }


def _our_windows(frame: pd.DataFrame, by: list[str], **options: object) -> set:
    w = check_windows("t", **options)
    assert w is not None
    out = with_windows(frame, w, by)
    return {
        (int(r), pd.Timestamp(s), pd.Timestamp(e))
        for r, s, e in zip(out["row"], out["window_start"], out["window_end"], strict=True)
    }


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
