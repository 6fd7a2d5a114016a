"""Time windows, the frame side: a time column in, the window key columns out.

``windowed`` turns an adapted input into one whose rows carry ``window_start`` and
``window_end`` (typed as the time column), a row repeated once per window it falls in
and the time column itself left out, so the statistics count the windows as any other
group key. An eager frame is windowed at once; a reader of parts (LazyFrame batches,
Dask partitions, files) becomes a ``WindowedReader``, which windows each part in the one
loop over parts (``kappaframe._api.plan``), so every part gets the same windows. The
window arithmetic is ``kappaframe._encode.windows``.

A group's windows start from its earliest time (polars' ``group_by_dynamic`` with
``group_by``). When the windows are one grid of whole cells (``period`` equal to
``every``; ``kappaframe._encode.windows.on_grid``) a row's window is its grid cell, the
same whichever group it is in, and each part is windowed on its own. Otherwise an input
read in parts is first read once for each group's earliest time (the time and ``by``
columns only).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable, Hashable, Sequence
from typing import Any, cast

import numpy as np
import pandas as pd

from .._encode.codes import encode_groups
from .._encode.windows import (
    WINDOW_COLUMNS,
    Windows,
    grid_starts,
    grid_step,
    on_grid,
    window_rows,
)
from .._errors import KappaFrameError, arg, missing_columns, ways
from .engines import EngineFrame
from .pandas import PandasFrame
from .parts import PartReader

__all__ = [
    "ROW_COLUMN",
    "WindowedEngine",
    "WindowedReader",
    "anchors_of",
    "polars_window_dtype",
    "time_ticks",
    "windowed",
    "windowed_frame_check",
    "with_windows",
]

#: The column holding each row's position in the input, for items named by position.
ROW_COLUMN = "__row__"


def _pl() -> Any:
    return sys.modules.get("polars")


def _is_polars(native: Any) -> bool:
    pl = _pl()
    return pl is not None and isinstance(native, pl.DataFrame)


# ---- the time column as integer ticks ----------------------------------------------------


def time_ticks(native: Any, column: Hashable) -> tuple[np.ndarray, str, Any]:
    """The time column as int64 ticks, their unit, and how to give window bounds its type.

    Dates tick in days (``"D"``), datetimes in their own unit; text is read as ISO 8601
    (``2024-05-01``, ``2024-05-01T13:30:00``) into microseconds, the way a CSV file's
    dates come in. The third value turns a ``datetime64`` array into a column of the
    input's type.
    """
    if _is_polars(native):
        return _polars_ticks(native.get_column(str(column)), column)
    return _pandas_ticks(native[column], column)


def _pandas_ticks(series: pd.Series, column: Hashable) -> tuple[np.ndarray, str, Any]:
    dtype = series.dtype
    if isinstance(dtype, pd.DatetimeTZDtype):
        raise _zoned(column, str(dtype.tz))
    if isinstance(dtype, pd.ArrowDtype):
        import pyarrow as pa

        kind = dtype.pyarrow_dtype
        if pa.types.is_timestamp(kind) and kind.tz is not None:
            raise _zoned(column, str(kind.tz))
        if pa.types.is_date(kind) or pa.types.is_timestamp(kind):
            unit = "D" if pa.types.is_date(kind) else kind.unit
            _no_nulls(series.isna().to_numpy(), column)
            wide = np.dtype(f"datetime64[{'s' if unit == 'D' else unit}]")
            values = series.astype(wide).to_numpy()
            values = values.astype(f"datetime64[{unit}]")
            return values.view(np.int64), unit, lambda a: pd.array(a).astype(dtype)
    if isinstance(dtype, np.dtype) and dtype.kind == "M":
        _no_nulls(series.isna().to_numpy(), column)
        unit = np.datetime_data(cast(Any, dtype))[0]
        if unit not in ("s", "ms", "us", "ns"):  # pragma: no cover - pandas keeps these four
            unit = "ns"
        values = series.to_numpy().astype(f"datetime64[{unit}]")
        return values.view(np.int64), unit, lambda a: a
    values = series.to_numpy(dtype=object)
    _no_nulls(pd.isna(values), column)
    dates = all(isinstance(v, dt.date) and not isinstance(v, dt.datetime) for v in values)
    if len(values) and dates:
        days = np.array(values, dtype="datetime64[D]")
        return days.view(np.int64), "D", lambda a: a.astype(object)
    if len(values) and all(isinstance(v, dt.datetime) for v in values):
        if any(v.tzinfo is not None for v in values):
            raise _zoned(column, "a time zone")
        stamps = np.array(values, dtype="datetime64[us]")
        return stamps.view(np.int64), "us", lambda a: a
    return _text_ticks(values, column, str(dtype)), "us", lambda a: a


def _polars_ticks(series: Any, column: Hashable) -> tuple[np.ndarray, str, Any]:
    pl = _pl()
    dtype = series.dtype
    _no_nulls(series.is_null().to_numpy(), column)
    if dtype == pl.Date:
        days = series.cast(pl.Int32).to_numpy().astype(np.int64)
        return days, "D", lambda a: pl.Series(a.astype("datetime64[D]")).cast(pl.Date)
    if isinstance(dtype, pl.Datetime):
        if dtype.time_zone is not None:
            raise _zoned(column, dtype.time_zone)
        unit = dtype.time_unit
        ticks = series.to_physical().to_numpy().astype(np.int64)
        return ticks, unit, lambda a: pl.Series(a).cast(dtype)
    if dtype == pl.String:
        values = series.to_numpy().astype(object)
        target = pl.Datetime("us")
        return _text_ticks(values, column, "String"), "us", lambda a: pl.Series(a).cast(target)
    raise _not_temporal(column, str(dtype))


def polars_window_dtype(dtype: Any, w: Windows) -> Any:
    """The polars type of the window columns over a time column of ``dtype`` (checked)."""
    pl = _pl()
    if dtype == pl.Date:
        w.check_unit("D", w.time)
        return dtype
    if isinstance(dtype, pl.Datetime):
        if dtype.time_zone is not None:
            raise _zoned(w.time, dtype.time_zone)
        w.check_unit(dtype.time_unit, w.time)
        return dtype
    if dtype == pl.String:
        return pl.Datetime("us")
    raise _not_temporal(w.time, str(dtype))


def _text_ticks(values: np.ndarray, column: Hashable, dtype: str) -> np.ndarray:
    """ISO 8601 text as microseconds; NumPy's words for no time or a moving one refused."""
    if not all(isinstance(v, str) for v in values):
        raise _not_temporal(column, dtype)
    try:
        stamps = np.array(values, dtype="datetime64[us]")
        if np.isnat(stamps).any() or {"today", "now"} & {v.strip().lower() for v in values}:
            raise ValueError("not a time")
    except ValueError:
        bad = next(v for v in values if not _iso(v))
        raise KappaFrameError(
            f"time column {column!r} holds {bad!r}, which is not an ISO 8601 date or time "
            "(2024-05-01, 2024-05-01T13:30:00); "
            + ways(
                f"convert it first, e.g. pd.to_datetime(df[{column!r}], format=...).",
                "write the times in ISO 8601 in the file.",
            ),
            option="time",
        ) from None
    return stamps.view(np.int64)


def _iso(value: str) -> bool:
    try:
        stamp = np.datetime64(value, "us")
    except ValueError:
        return False
    return not np.isnat(stamp) and value.strip().lower() not in ("today", "now")


def _no_nulls(missing: np.ndarray, column: Hashable) -> None:
    if missing.any():
        n = int(missing.sum())
        raise KappaFrameError(
            f"time column {column!r} has {n} missing value(s); a row without a time is in "
            f"no window. Drop those rows first (e.g. df.dropna(subset=[{column!r}]) or "
            f"df.drop_nulls({column!r})), or fill them.",
            option="time",
        )


def _zoned(column: Hashable, zone: str) -> KappaFrameError:
    return KappaFrameError(
        f"time column {column!r} is time-zone aware ({zone}); windows are counted on "
        "wall-clock time. Convert it to the wall clock you mean first, e.g. "
        f"df[{column!r}].dt.tz_convert('Europe/Paris').dt.tz_localize(None) (pandas) or "
        f"pl.col({column!r}).dt.convert_time_zone(...).dt.replace_time_zone(None) (polars).",
        option="time",
    )


def _not_temporal(column: Hashable, dtype: str) -> KappaFrameError:
    return KappaFrameError(
        f"time column {column!r} has dtype {dtype}, not dates or datetimes; pass a date or "
        f"datetime column as {arg('time')}, or convert it first (pd.to_datetime, "
        "str.to_datetime).",
        option="time",
    )


# ---- one frame ---------------------------------------------------------------------------


def _keys_and_groups(native: Any, by: Sequence[Hashable]) -> tuple[np.ndarray, list[tuple]]:
    """Each row's group (codes) and each group's key values (missing keys made equal)."""
    if _is_polars(native):
        from .polars import PolarsFrame

        adapter: Any = PolarsFrame(native)
    else:
        adapter = PandasFrame(native)
    n = len(native)
    groups = encode_groups([adapter.keys(b) for b in by], n)
    codes = groups.codes if groups.codes is not None else np.zeros(n, dtype=np.intp)
    first = groups.first_row[: groups.n_groups] if n else np.zeros(0, dtype=np.intp)
    columns = [_values(native, b, first) for b in by]
    keys = [tuple(_key(c[i]) for c in columns) for i in range(len(first))]
    return codes, keys


def _values(native: Any, name: Hashable, rows: np.ndarray) -> list[Any]:
    if _is_polars(native):
        return list(native.get_column(str(name)).gather(rows).to_list())
    return list(native[name].iloc[rows].tolist())


def _key(value: Any) -> Any:
    """A key value as a dictionary key: every kind of missing (NaN, NA, NaT) is ``None``.

    (``None`` survives pickling to a Dask worker and back; a sentinel object would not.)
    """
    try:
        if value is None or pd.isna(value):
            return None
    except (TypeError, ValueError):
        pass
    return value


def anchors_of(native: Any, w: Windows, by: Sequence[Hashable]) -> dict[tuple, int]:
    """Each group's earliest time (ticks), by the group's key values."""
    ticks, _, _ = time_ticks(native, w.time)
    codes, keys = _keys_and_groups(native, by)
    return dict(zip(keys, _earliest(ticks, codes, len(keys)).tolist(), strict=True))


def _earliest(ticks: np.ndarray, codes: np.ndarray, n_groups: int) -> np.ndarray:
    earliest = np.full(n_groups, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(earliest, codes, ticks)
    return earliest


def with_windows(
    native: Any,
    w: Windows,
    by: Sequence[Hashable],
    anchors: dict[tuple, int] | None = None,
    row: int | None = None,
) -> Any:
    """``native`` with ``window_start`` and ``window_end``: a row once per window it is in.

    ``anchors``: each group's earliest time (default: this frame's own). ``row``: add
    ``ROW_COLUMN``, each row's position in the input counted from ``row``. The time
    column is left out (unless it is a ``by`` column).
    """
    names = list(native.columns)
    windowed_frame_check(names, w)
    for name in WINDOW_COLUMNS:
        if name in names:
            raise KappaFrameError(
                f"the input already has a column {name!r}, which windows add as a key; "
                "rename it first.",
                option="time",
            )
    ticks, unit, typed = time_ticks(native, w.time)
    w.check_unit(unit, w.time)
    if on_grid(w) is None:  # one grid: any time at or before the rows starts it alike
        first = np.array([ticks.min()], dtype=np.int64) if len(ticks) else ticks[:0]
        rows, start, end = window_rows(ticks, w, unit, first, None)
    else:
        codes, keys = _keys_and_groups(native, by)
        if anchors is None:  # this frame's own
            earliest = _earliest(ticks, codes, len(keys))
        else:
            earliest = np.array([anchors[k] for k in keys], dtype=np.int64)
        group = codes if len(keys) > 1 else None
        rows, start, end = window_rows(ticks, w, unit, earliest, group)
    kind = f"datetime64[{unit}]"
    drop = [] if w.time in set(by) else [w.time]
    if _is_polars(native):
        pl = _pl()
        out = native.drop([str(c) for c in drop])[rows]
        added = [
            typed(start.astype(kind)).alias(WINDOW_COLUMNS[0]),
            typed(end.astype(kind)).alias(WINDOW_COLUMNS[1]),
        ]
        if row is not None:
            added.append(pl.Series(ROW_COLUMN, rows.astype(np.int64) + row))
        return out.with_columns(added)
    out = native.drop(columns=drop).iloc[rows]
    out = out.assign(
        **{
            WINDOW_COLUMNS[0]: typed(start.astype(kind)),
            WINDOW_COLUMNS[1]: typed(end.astype(kind)),
        }
    )
    if row is not None:
        out[ROW_COLUMN] = rows.astype(np.int64) + row
    return out


# ---- any input ---------------------------------------------------------------------------


def windowed_frame_check(names: Sequence[Hashable], w: Windows) -> None:
    """Refuse a time column the input does not have, or window columns it has already."""
    err = missing_columns([w.time], names, "time column")
    if err is not None:
        raise KappaFrameError(str(err), option="time")
    for name in WINDOW_COLUMNS:
        if name in names:
            raise KappaFrameError(
                f"the input already has a column {name!r}, which windows add as a key; "
                "rename it first.",
                option="time",
            )


def windowed(frame: Any, w: Windows, by: Sequence[Hashable], row: bool = False) -> Any:
    """The adapted input ``frame`` with its rows in windows (see the module's notes).

    ``row``: carry each row's position in the input as ``ROW_COLUMN``.
    """
    if isinstance(frame, EngineFrame):
        return WindowedEngine(frame, w, list(by))
    if isinstance(frame, PartReader):
        return WindowedReader(frame, w, list(by), row)
    native: Any = frame.frame if isinstance(frame, PandasFrame) else frame.source
    lazy = getattr(frame, "lazy", False)
    if lazy:
        native = native.collect()
    out = with_windows(native, w, by, row=0 if row else None)
    return type(frame)(out.lazy() if lazy else out)


class WindowedReader(PartReader):
    """A reader whose parts come in windows: each part windowed as it is read.

    The time column is read in place of the window columns; a first pass over the time
    and ``by`` columns finds each group's earliest time, where its windows start.
    """

    def __init__(self, inner: PartReader, w: Windows, by: list[Hashable], row: bool) -> None:
        self.inner = inner
        self.w = w
        self.by = by
        self.row = row and not inner.distributed  # Dask names items by its index
        self._anchors: dict[tuple, int] | None = None
        self._rows = 0  # the input's rows, counted with the earliest times
        windowed_frame_check(inner.columns(), w)
        # The time column is read as a group key is: on its own (a CSV file's labels
        # then become numbers as they would without it).
        inner.wrap()(inner.empty()).keys(w.time)

    @property
    def output(self) -> str:  # type: ignore[override]
        return self.inner.output

    @property
    def distributed(self) -> bool:  # type: ignore[override]
        return self.inner.distributed

    def columns(self) -> list[Hashable]:
        keep = [c for c in self.inner.columns() if c != self.w.time or c in self.by]
        return [*keep, *WINDOW_COLUMNS, *([ROW_COLUMN] if self.row else [])]

    def empty(self) -> Any:
        return with_windows(
            self.inner.empty(), self.w, self.by, anchors={}, row=0 if self.row else None
        )

    def wrap(self) -> Callable[[Any], Any]:
        return self.inner.wrap()

    def eager(self) -> Any:
        """A LazyFrame's rows at once, in windows (items named by row need its order)."""
        from .native import eager_adapter

        return windowed(eager_adapter(self.inner.source), self.w, self.by, self.row)  # type: ignore[attr-defined]

    def anchors(self) -> dict[tuple, int]:
        """Each group's earliest time, over every part (read once)."""
        if self._anchors is None:
            found = self.inner.map([*self.by, self.w.time], _part_anchors, self.w, self.by)
            self._rows = sum(n for _, n in found)
            merged: dict[tuple, int] = {}
            for part, _ in found:
                for key, value in part.items():
                    merged[key] = min(value, merged.get(key, value))
            self._anchors = merged
        return self._anchors

    def _read(self, columns: Sequence[Hashable]) -> list[Hashable]:
        wanted = [c for c in columns if c not in (*WINDOW_COLUMNS, ROW_COLUMN)]
        return list(dict.fromkeys([*wanted, *self.by, self.w.time]))

    def _func(self, func: Callable[..., Any]) -> Any:
        if on_grid(self.w) is None and not self.row:  # no pass first: see with_windows
            return _Windowed(func, self.w, self.by, None)
        anchors = self.anchors()
        if self.row:
            return _Counted(func, self.w, self.by, anchors)
        return _Windowed(func, self.w, self.by, anchors)

    def map(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        *args: Any,
        together: Hashable | None = None,
        compact: Sequence[Hashable] = (),
    ) -> list[Any]:
        windowed = self._func(func)
        out = self.inner.map(
            self._read(columns), windowed, *args, together=together, compact=compact
        )
        if isinstance(windowed, _Counted) and windowed.seen != self._rows:
            # The reader started over (a file's column changed its type half-way): the
            # rows were numbered twice. Number them again, in one pass now.
            windowed = self._func(func)
            out = self.inner.map(
                self._read(columns), windowed, *args, together=together, compact=compact
            )
        return out

    def reduce(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        combine: Callable[[list[Any]], Any],
        *args: Any,
        together: Hashable | None = None,
        compact: Sequence[Hashable] = (),
    ) -> Any:
        return self.inner.reduce(
            self._read(columns),
            self._func(func),
            combine,
            *args,
            together=together,
            compact=compact,
        )


def _part_anchors(part: Any, w: Windows, by: list[Hashable]) -> tuple[dict[tuple, int], int]:
    return anchors_of(part, w, by), len(part)


class _Windowed:
    """``func`` of a part in windows (picklable: it runs on a Dask worker)."""

    def __init__(
        self,
        func: Callable[..., Any],
        w: Windows,
        by: list[Hashable],
        anchors: dict[tuple, int] | None,
    ) -> None:
        self.func, self.w, self.by, self.anchors = func, w, by, anchors

    def __call__(self, part: Any, *args: Any) -> Any:
        return self.func(with_windows(part, self.w, self.by, self.anchors), *args)


class _Counted(_Windowed):
    """``_Windowed`` that numbers the rows across the parts, read one after the other."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.seen = 0

    def __call__(self, part: Any, *args: Any) -> Any:
        start = self.seen
        self.seen += len(part)
        return self.func(with_windows(part, self.w, self.by, self.anchors, row=start), *args)


#: The grid cell column an engine computes (see ``kappaframe._encode.windows.on_grid``).
_CELL = "__window_cell__"


class WindowedEngine(EngineFrame):
    """A DuckDB, PySpark or Ibis input counted per window in its engine.

    The engine computes each row's grid cell from the time's date parts (one integer
    column, a group key of the counting query); the cells that come back get their
    ``window_start`` and ``window_end`` here. Only windows that are one grid of whole
    cells (``period`` equal to ``every``; see ``on_grid``) are computed so.
    """

    def __init__(self, inner: EngineFrame, w: Windows, by: list[Hashable]) -> None:
        why = on_grid(w)
        if why is not None:
            raise KappaFrameError(
                f"a {inner.engine} input is counted in its engine, which computes windows "
                f"that are one grid of whole cells only, and here {why}. Pass period= equal "
                "to every= (and closed='left'), or bring the rows into pandas or polars "
                f"first ({inner.way_out or 'relation.pl(), spark_df.toPandas()'}).",
                option="time",
            )
        windowed_frame_check(inner.columns(), w)
        import narwhals as nw

        dtype = inner.frame.collect_schema()[str(w.time)]
        if not isinstance(dtype, (nw.Date, nw.Datetime)) and dtype not in (nw.Date, nw.Datetime):
            raise KappaFrameError(
                f"time column {w.time!r} has type {dtype} in the {inner.engine} input, not "
                "a date or timestamp; cast it there first (CAST(col AS TIMESTAMP)).",
                option="time",
            )
        if isinstance(dtype, nw.Datetime) and dtype.time_zone is not None:
            raise KappaFrameError(
                f"time column {w.time!r} is time-zone aware ({dtype.time_zone}) in the "
                f"{inner.engine} input; windows are counted on wall-clock time: cast it to a "
                "timestamp without time zone there (CAST(col AS TIMESTAMP_NTZ) in Spark, "
                "CAST(col AS TIMESTAMP) in DuckDB).",
                option="time",
            )
        empty = inner.empty()
        _, unit, typed = time_ticks(empty, w.time)
        w.check_unit(unit, w.time)
        super().__init__(inner.frame.with_columns(_cell(w, inner.frame, unit).alias(_CELL)))
        self.w, self.by, self.unit, self.typed = w, by, unit, typed
        self._empty = with_windows(empty, w, by, anchors={})
        self._names = inner.columns()

    def columns(self) -> list[Hashable]:
        keep = [c for c in self._names if c != self.w.time or c in self.by]
        return [*keep, *WINDOW_COLUMNS]

    def empty(self) -> Any:
        return self._empty

    def wide_cells(
        self, raters: Sequence[Hashable], by: Sequence[Hashable], own: bool = True
    ) -> Any:
        return self._bounds(super().wide_cells(raters, self._keys(by), own=own))

    def long_cells(self, by: Sequence[Hashable], *args: Any) -> Any:
        return self._bounds(super().long_cells(self._keys(by), *args))

    def _keys(self, by: Sequence[Hashable]) -> list[Hashable]:
        return [*(b for b in by if b not in WINDOW_COLUMNS), _CELL]

    def _bounds(self, cells: Any) -> Any:
        """The cells with ``window_start``/``window_end`` in place of the grid cell."""
        start, end = grid_starts(cells[_CELL].to_numpy(dtype=np.int64), self.w, self.unit)
        kind = f"datetime64[{self.unit}]"
        at = list(cells.columns).index(_CELL)
        cells = cells.drop(columns=[_CELL])
        cells.insert(at, WINDOW_COLUMNS[0], self.typed(start.astype(kind)))
        cells.insert(at + 1, WINDOW_COLUMNS[1], self.typed(end.astype(kind)))
        return cells


def _cell(w: Windows, frame: Any, unit: str) -> Any:
    """The engine expression of each row's grid cell (narwhals), from its date parts."""
    import narwhals as nw

    t = nw.col(str(w.time))
    anchor, offset, length = grid_step(w)
    if w.every.months:
        months = (t.dt.year() - 1970) * 12 + t.dt.month() - 1
        return (months - offset) // length
    micros = _days_from_civil(nw, t) * 86_400_000_000
    if unit != "D":
        micros = micros + (
            t.dt.hour() * 3_600_000_000
            + t.dt.minute() * 60_000_000
            + t.dt.second() * 1_000_000
            + t.dt.microsecond()
        )
    shift = anchor + offset + (1 if w.closed == "right" else 0)
    return (micros - shift) // length


def _days_from_civil(nw: Any, t: Any) -> Any:
    """Days since 1970-01-01 of a date's year, month and day (Hinnant's days_from_civil)."""
    month = t.dt.month()
    year = t.dt.year() - nw.when(month <= 2).then(1).otherwise(0)
    era = year // 400
    yoe = year - era * 400
    shifted = nw.when(month > 2).then(month - 3).otherwise(month + 9)
    doy = (153 * shifted + 2) // 5 + t.dt.day() - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468
