"""Time windows as group keys: the window arithmetic of polars' ``group_by_dynamic``, in NumPy.

A time column is read as integer ticks of one unit (``"D"`` for dates, else ``"s"``,
``"ms"``, ``"us"`` or ``"ns"``). ``window_rows`` gives, for every row, each window it
falls in: the row's position and the window's start and end, in ticks. A row in several
windows (``period`` longer than ``every``) comes once per window; a row in none (in a gap
when ``period`` is shorter than ``every``) does not come at all.

The windows of a group are those of polars' ``group_by_dynamic(time, every=, period=,
offset=, closed=, group_by=by)`` with ``start_by="window"``: the group's earliest time
(its *anchor*) truncated to ``every`` (weeks start on Monday, months count from January
1970, fixed lengths from the epoch), plus ``offset``, moved back by ``every`` until it
is at or before the anchor; from there a window starts every ``every`` and lasts
``period``. Calendar lengths (``d``, ``w``, ``mo``, ``q``, ``y``) add whole days and
months: the 31st plus a month is the last day of a shorter month.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import get_args

import numpy as np

from .._errors import KappaFrameError, arg, bad_option
from .._types import Closed

__all__ = [
    "CLOSED",
    "WINDOW_COLUMNS",
    "Duration",
    "Windows",
    "check_windows",
    "grid_starts",
    "on_grid",
    "parse_duration",
    "window_rows",
]

#: The key columns a windowed result gets, after the ``by`` columns.
WINDOW_COLUMNS = ("window_start", "window_end")
#: Which ends of a window hold the times on its bounds (polars' ``closed``).
CLOSED: tuple[str, ...] = get_args(Closed)

_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}
_NS["m"] = 60 * _NS["s"]
_NS["h"] = 60 * _NS["m"]
_DAY_NS = 24 * _NS["h"]
_UNIT_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000, "D": _DAY_NS}
_PART = re.compile(r"(\d+)(ns|us|µs|ms|s|mo|m|h|d|w|q|y)")
_UNITS_SHOWN = "ns, us, ms, s, m, h, d, w, mo, q, y"
#: 1970-01-01 was a Thursday: weeks (from Monday) start 4 days later.
_MONDAY = 4
#: Candidate (row, window) entries tried at once for a period in months.
_BLOCK = 1 << 22


@dataclass(frozen=True)
class Duration:
    """A length in polars' duration language: months, weeks, days and nanoseconds."""

    text: str
    months: int = 0
    weeks: int = 0
    days: int = 0
    nanos: int = 0
    negative: bool = False

    @property
    def parts(self) -> int:
        """How many of months, weeks, days and sub-day units it uses."""
        return sum(bool(x) for x in (self.months, self.weeks, self.days, self.nanos))

    @property
    def zero(self) -> bool:
        return self.parts == 0

    def ticks(self, unit: str) -> tuple[int, int, int, int]:
        """``(months, weeks, days, ticks)`` with their sign, the sub-day part in ``unit``."""
        sign = -1 if self.negative else 1
        return (
            sign * self.months,
            sign * self.weeks,
            sign * self.days,
            sign * (self.nanos // _UNIT_NS[unit]),
        )


def parse_duration(value: object, name: str, *, signed: bool = False) -> Duration:
    """Read ``value`` ("1d", "2w", "1mo", "3d12h", "-6h") as a ``Duration``.

    ``signed``: a leading ``-`` is allowed (``offset``). Units: ns, us, ms, s, m
    (minutes), h, d, w, mo, q (3 months), y (12 months), as in polars.
    """
    if not isinstance(value, str) or not value.strip():
        raise _bad_duration(name, value, signed)
    text = value.strip()
    body = text[1:] if text.startswith("-") else text
    if (text.startswith("-") and not signed) or not body:
        raise _bad_duration(name, value, signed)
    months = weeks = days = nanos = 0
    position = 0
    for match in _PART.finditer(body):
        if match.start() != position:
            break
        position = match.end()
        n, unit = int(match.group(1)), match.group(2)
        if unit == "mo":
            months += n
        elif unit == "q":
            months += 3 * n
        elif unit == "y":
            months += 12 * n
        elif unit == "w":
            weeks += n
        elif unit == "d":
            days += n
        else:
            nanos += n * _NS["us" if unit == "µs" else unit]
    if position != len(body):
        raise _bad_duration(name, value, signed)
    return Duration(text, months, weeks, days, nanos, text.startswith("-"))


def _bad_duration(name: str, value: object, signed: bool) -> KappaFrameError:
    sign = " (a leading '-' moves the windows earlier)" if signed else ""
    return KappaFrameError(
        f"{arg(name, value)} is not a duration; write a number and a unit, e.g. '1d', "
        f"'2w', '1mo', '3d12h'{sign}. Units: {_UNITS_SHOWN}.",
        option=name,
    )


@dataclass(frozen=True)
class Windows:
    """Checked window options: the time column, ``every``, ``period``, ``offset``, ``closed``."""

    time: Hashable
    every: Duration
    period: Duration
    offset: Duration
    closed: str = "left"

    def check_unit(self, unit: str, column: Hashable) -> None:
        """Refuse lengths finer than the time column holds (a date column: whole days)."""
        step = _UNIT_NS[unit]
        for name, d in (("every", self.every), ("period", self.period), ("offset", self.offset)):
            if d.nanos % step:
                what = "dates" if unit == "D" else f"times in whole {unit}"
                raise KappaFrameError(
                    f"{arg(name, d.text)} is finer than time column {column!r} holds "
                    f"({what}); use whole {'days' if unit == 'D' else unit} or longer, or "
                    "pass a datetime column.",
                    option=name,
                )


def check_windows(
    time: Hashable | None,
    every: object = None,
    period: object = None,
    offset: object = None,
    closed: object = "left",
) -> Windows | None:
    """Check the window options before any data; ``None`` when no ``time`` column is given.

    ``every`` is one unit ("1d", "2w", "1mo"), as in polars; ``period`` (default
    ``every``) and ``offset`` may combine units ("3d12h"). ``period`` shorter than
    ``every`` leaves gaps (rows in them are in no window), as in polars; longer gives
    overlapping windows, a row counted in each.
    """
    if closed not in CLOSED:
        raise bad_option("closed", closed, CLOSED)
    if time is None:
        given = [(n, v) for n, v in (("every", every), ("period", period), ("offset", offset)) if v]
        if given:
            name, value = given[0]
            raise KappaFrameError(
                f"{arg(name, value)} needs the time column the windows are over: pass "
                f"{arg('time')} too.",
                option=name,
            )
        return None
    if every is None:
        raise KappaFrameError(
            f"{arg('time', time)} needs the windows' length: pass {arg('every')} "
            "(e.g. '1d', '1w', '1mo').",
            option="time",
        )
    step = parse_duration(every, "every")
    if step.zero:
        raise KappaFrameError(f"{arg('every', every)} must be longer than zero.", option="every")
    if step.parts > 1:
        raise KappaFrameError(
            f"{arg('every', every)} mixes units; windows start every one unit "
            "('36h', '2w', '3mo'), as in polars. Combined units are for period= and offset=.",
            option="every",
        )
    length = step if period is None else parse_duration(period, "period")
    if length.zero:
        raise KappaFrameError(f"{arg('period', period)} must be longer than zero.", option="period")
    shift = parse_duration("0s" if offset is None else offset, "offset", signed=True)
    return Windows(time, step, length, shift, str(closed))


# ---- calendar arithmetic on integer ticks --------------------------------------------------


def _add(t: np.ndarray, d: Duration, unit: str, times: np.ndarray | int = 1) -> np.ndarray:
    """``t + times * d`` (months first, then weeks and days, then the rest), as polars adds."""
    months, weeks, days, ticks = d.ticks(unit)
    out = np.asarray(t, dtype=np.int64)
    n = np.asarray(times, dtype=np.int64)
    if months:
        out = _add_months(out, months * n, unit)
    day = _UNIT_NS["D"] // _UNIT_NS[unit]
    return out + n * ((7 * weeks + days) * day + ticks)


def _add_months(t: np.ndarray, months: np.ndarray, unit: str) -> np.ndarray:
    """Add whole months; a day past the new month's end becomes its last day."""
    day = _UNIT_NS["D"] // _UNIT_NS[unit]
    stamp = t.astype(f"datetime64[{unit}]")
    month = stamp.astype("datetime64[M]")
    into = t - month.astype(f"datetime64[{unit}]").astype(np.int64)
    dom, clock = np.divmod(into, day)
    target = month + np.asarray(months, dtype=np.int64).astype("timedelta64[M]")
    first = target.astype("datetime64[D]")
    length = ((target + np.timedelta64(1, "M")).astype("datetime64[D]") - first).astype(np.int64)
    start = first.astype(f"datetime64[{unit}]").astype(np.int64)
    return start + np.minimum(dom, length - 1) * day + clock


def _truncate(t: np.ndarray, every: Duration, unit: str) -> np.ndarray:
    """The start of the ``every``-long slot holding ``t`` (weeks from Monday, months from 1970)."""
    months, weeks, days, ticks = every.ticks(unit)
    day = _UNIT_NS["D"] // _UNIT_NS[unit]
    if months:
        month = t.astype(f"datetime64[{unit}]").astype("datetime64[M]").astype(np.int64)
        month = month - np.mod(month, months)
        return month.astype("datetime64[M]").astype(f"datetime64[{unit}]").astype(np.int64)
    if weeks:
        size = 7 * weeks * day
        return t - np.mod(t - _MONDAY * day, size)
    size = days * day if days else ticks
    return t - np.mod(t, size)


def _first_start(anchor: np.ndarray, w: Windows, unit: str) -> np.ndarray:
    """Each anchor's first window start: truncated, offset, moved back until at the anchor."""
    start = _add(_truncate(anchor, w.every, unit), w.offset, unit)
    late = _late(start, anchor, w.closed)
    while late.any():  # a few steps at most: the offset's length in units of every
        start[late] = _add(start[late], w.every, unit, -1)
        late = _late(start, anchor, w.closed)
    return start


def _late(start: np.ndarray, t: np.ndarray, closed: str) -> np.ndarray:
    """Whether a window starting at ``start`` begins after ``t`` (at ``t`` for open starts)."""
    return start > t if closed in ("left", "both") else start >= t


def _inside(start: np.ndarray, end: np.ndarray, t: np.ndarray, closed: str) -> np.ndarray:
    lower = start <= t if closed in ("left", "both") else start < t
    upper = t <= end if closed in ("right", "both") else t < end
    return lower & upper


def window_rows(
    ticks: np.ndarray, w: Windows, unit: str, anchors: np.ndarray, group: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The windows every row falls in: ``(row, start, end)``, one entry per row and window.

    ``ticks``: the rows' times; ``anchors``: each group's earliest time (the same unit);
    ``group``: each row's group (``None``: one group). Entries come row by row, a row's
    windows in time order.

    Examples
    --------
    >>> w = check_windows("t", every="1w", period="2w")
    >>> days = np.array([19725, 19732], dtype=np.int64)  # Wednesdays 2024-01-03 and -10
    >>> row, start, end = window_rows(days, w, "D", days[:1], None)
    >>> row.tolist(), start.astype("datetime64[D]").astype(str).tolist()
    ([0, 1, 1], ['2024-01-01', '2024-01-01', '2024-01-08'])
    """
    ticks = np.asarray(ticks, dtype=np.int64)
    if not len(ticks):
        empty = np.zeros(0, dtype=np.int64)
        return empty.astype(np.intp), empty, empty
    first = _first_start(np.asarray(anchors, dtype=np.int64), w, unit)
    base = first[group] if group is not None else np.full(len(ticks), first[0])
    # k: the last window starting at or before each row (estimated, then corrected).
    k = _estimate(ticks, base, w, unit)
    for _ in range(4):
        ahead = ~_late(_add(base, w.every, unit, k + 1), ticks, w.closed)
        behind = _late(_add(base, w.every, unit, k), ticks, w.closed) & (k > 0)
        if not (ahead.any() or behind.any()):
            break
        k = k + ahead - behind
    if w.period.months:
        return _calendar_rows(ticks, base, k, w, unit)
    # A row's windows are k, k - 1, ... as long as they hold it: a period of fixed length
    # (days, weeks, hours) ends later the later it starts.
    count = np.zeros(len(ticks), dtype=np.int64)
    live = np.flatnonzero(k >= 0)
    step = 0
    while len(live):
        j = k[live] - step
        start = _add(base[live], w.every, unit, j)
        inside = (j >= 0) & _inside(start, _add(start, w.period, unit), ticks[live], w.closed)
        live = live[inside]
        count[live] += 1
        step += 1
    row = np.repeat(np.arange(len(ticks), dtype=np.intp), count)
    first = np.cumsum(count) - count  # each row's first entry
    j = np.repeat(k - count + 1, count) + (np.arange(len(row)) - np.repeat(first, count))
    start = _add(base[row], w.every, unit, j)
    return row, start, _add(start, w.period, unit)


def _calendar_rows(
    ticks: np.ndarray, base: np.ndarray, k: np.ndarray, w: Windows, unit: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``window_rows`` for a period in months: a later start may end earlier (the 31st).

    Every window starting less than the longest such period before the row is tried.
    """
    day = _UNIT_NS["D"] // _UNIT_NS[unit]
    months, weeks, days, step = w.period.ticks(unit)
    longest = (31 * months + 7 * weeks + days) * day + step
    e_months, e_weeks, e_days, e_step = w.every.ticks(unit)
    shortest = (28 * e_months + 7 * e_weeks + e_days) * day + e_step
    n, steps = len(ticks), int(longest // shortest) + 2
    block = max(1, _BLOCK // max(n, 1))  # steps tried at once: memory bounded
    rows, index = [], []
    for first in range(0, steps, block):
        back = np.arange(first, min(first + block, steps), dtype=np.int64)
        row = np.repeat(np.arange(n, dtype=np.intp), len(back))
        j = k[row] - np.tile(back, n)
        start = _add(base[row], w.every, unit, j)
        end = _add(start, w.period, unit)
        inside = (j >= 0) & _inside(start, end, ticks[row], w.closed)
        rows.append(row[inside])
        index.append(j[inside])
    row, j = np.concatenate(rows), np.concatenate(index)
    order = np.lexsort((j, row))
    row, j = row[order], j[order]
    start = _add(base[row], w.every, unit, j)
    return row, start, _add(start, w.period, unit)


def _estimate(ticks: np.ndarray, base: np.ndarray, w: Windows, unit: str) -> np.ndarray:
    """About how many ``every`` steps each row lies after its first window start."""
    months, weeks, days, step = w.every.ticks(unit)
    if months:
        t = ticks.astype(f"datetime64[{unit}]").astype("datetime64[M]").astype(np.int64)
        b = base.astype(f"datetime64[{unit}]").astype("datetime64[M]").astype(np.int64)
        return np.maximum((t - b) // months, 0)
    day = _UNIT_NS["D"] // _UNIT_NS[unit]
    size = (7 * weeks + days) * day + step
    return np.maximum((ticks - base) // size, 0)


# ---- windows as one grid (what an SQL engine computes) -------------------------------------


def on_grid(w: Windows) -> str | None:
    """Why the windows are not one grid of whole cells (``None``: they are).

    They are when every row is in exactly the one window of its grid cell, wherever a
    group starts: ``period`` equal to ``every``, a left-closed window (or a right-closed
    one of fixed length), and an offset of whole months for windows of months (a day
    offset would clamp at a month's end). A grid cell is then a number an engine computes
    from a row's date parts (``grid_starts`` turns it back into the window).
    """
    if w.period != w.every and w.period.ticks("ns") != w.every.ticks("ns"):
        return f"period= ({w.period.text}) differs from every= ({w.every.text})"
    if w.every.months:
        if w.offset.weeks or w.offset.days or w.offset.nanos:
            return f"offset= ({w.offset.text}) is not whole months"
        if w.closed != "left":
            return f"closed={w.closed!r} with windows of months"
    elif w.closed not in ("left", "right"):
        return f"closed={w.closed!r}"
    if w.offset.months and not w.every.months:
        return f"offset= ({w.offset.text}) has months"
    return None


def grid_step(w: Windows) -> tuple[int, int, int]:
    """The grid of fixed-length windows in microseconds: ``(anchor, offset, length)``.

    A row at ``t`` microseconds is in cell ``(t - anchor - offset) // length`` (left-closed;
    ``(t - anchor - offset - 1) // length`` right-closed). For windows of months, the
    month counterparts: ``(0, offset months, months)``.
    """
    months, weeks, days, step = w.every.ticks("us")
    if months:
        return 0, w.offset.ticks("us")[0], months
    day = _DAY_NS // 1_000
    anchor = _MONDAY * day if weeks else 0
    _, o_weeks, o_days, o_step = w.offset.ticks("us")
    return anchor, (7 * o_weeks + o_days) * day + o_step, (7 * weeks + days) * day + step


def grid_starts(cell: np.ndarray, w: Windows, unit: str) -> tuple[np.ndarray, np.ndarray]:
    """The start and end (ticks of ``unit``) of each grid cell (see ``grid_step``)."""
    anchor, offset, length = grid_step(w)
    cell = np.asarray(cell, dtype=np.int64)
    if w.every.months:
        month = (cell * length + offset).astype("datetime64[M]")
        start = month.astype(f"datetime64[{unit}]").astype(np.int64)
    else:
        micros = anchor + offset + cell * length
        start = micros.astype("datetime64[us]").astype(f"datetime64[{unit}]").astype(np.int64)
    return start, _add(start, w.period, unit)
