"""Columns that are not ratings: the one rule for ids, scores and row numbers. NumPy only.

With ``raters=None`` every column not in ``by`` is taken as a rater; a column that
holds item ids, row numbers or scores would then be counted as one, with numbers that
look right and mean nothing. ``NotRatings`` gathers what the rule needs of each such
column (its distinct values, its labelled rows, whether they are whole numbers) from
one eager frame or from the parts of a bigger input, part after part, and refuses the
columns that are not ratings, with the same answer whatever the way in, the row order
and the number of rows.

The rule, for a column whose dtype does not declare its categories:

- labels (``kind="labels"``): at least ``ID_MIN_DISTINCT`` distinct values on nearly
  all (``ID_SHARE``) of its labelled rows is an id; numbers that are not whole (0.79)
  are scores;
- scores (``kind="scores"``): whole numbers counting the rows from 0 or 1 in row order
  (on at least ``ROW_NUMBERS_FROM`` rows, the first rows of the input) are row numbers;
- both: whole numbers, each on one row only (sorted, shuffled or with gaps), are ids
  when another column holds labels that repeat, and more than twice as many distinct
  values as any such column has. A rater's labels repeat over the items; where every
  column is distinct on every row (three items scored 1, 2, 3; ranks; measurements)
  nothing tells ids from ratings, and the columns are taken as raters.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._errors import KappaFrameError, arg, ways

__all__ = [
    "ID_MIN_DISTINCT",
    "ID_SHARE",
    "ROW_NUMBERS_FROM",
    "NotRatings",
    "ScoresSeen",
    "check_labels",
    "check_scores",
    "seen_scores",
]

#: A column with at least this many distinct labels, nearly all of its labelled rows
#: distinct (this share), holds ids, not a rater's labels.
ID_MIN_DISTINCT = 20
ID_SHARE = 0.9

#: A column of scores is refused when it counts its rows from 0 or 1 in row order (on at
#: least this many rows): an item id or a row number, not scores.
ROW_NUMBERS_FROM = 20

#: A number written as text the way a number column is written (``0.79``, ``-2``).
_WRITTEN_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


@dataclass
class _Column:
    """What the rule knows of one column, over the rows read so far."""

    labelled: int = 0
    #: The distinct non-missing values, as met (``None``: not kept, scores not whole).
    values: dict[Any, None] | None = field(default_factory=dict)
    repeats: bool = False
    whole: bool = True
    declared: bool = False
    # Labels read as text count as numbers when every one is written as a plain number.
    texts: bool = True
    written: bool = True
    text_fraction: Any = None
    number_fraction: Any = None
    # Scores: the rows counted so far, the first score, whether they count the rows.
    rows: int = 0
    first: float = math.nan
    last: float = math.nan
    counting: bool = True
    #: The number of distinct values, when only counted (where the data lives).
    counted: int | None = None

    @property
    def distinct(self) -> int:
        if self.counted is not None:
            return self.counted
        return len(self.values) if self.values is not None else 0

    def fraction(self) -> Any:
        """A label that is not a whole number, if the labels are numbers (or written so)."""
        if self.values and self.texts:
            return self.text_fraction if self.written else None
        return self.number_fraction

    def meet(self, uniques: Sequence[Any], labelled: int) -> None:
        """Add one part's distinct values (each once) met on ``labelled`` rows."""
        self.labelled += labelled
        if len(uniques) < labelled:
            self.repeats = True
        seen = self.values
        if seen is None:
            return
        if not self.repeats and seen and any(u in seen for u in uniques):
            self.repeats = True
        new = [u for u in uniques if u not in seen] if seen else list(uniques)
        seen.update(dict.fromkeys(new))
        for value in new:
            if isinstance(value, str):
                written = _WRITTEN_NUMBER.fullmatch(value) is not None
                self.written = self.written and written
                if not written or not float(value).is_integer():  # "1.0" is whole
                    self.whole = False
                    if written and self.text_fraction is None:
                        self.text_fraction = value
                continue
            self.texts = False
            if isinstance(value, (bool, np.bool_)):
                self.whole = False
            elif not isinstance(value, numbers.Integral):
                finite = isinstance(value, numbers.Real) and math.isfinite(value)
                if not (finite and float(value).is_integer()):
                    self.whole = False
                    if finite and self.number_fraction is None:
                        self.number_fraction = value


def _distinct_whole(values: np.ndarray) -> np.ndarray:
    """The distinct values of whole numbers (a count over their range when it is narrow)."""
    low, high = values.min(), values.max()
    if low > -(2**53) and high < 2**53 and high - low <= 4 * len(values) + 1024:
        shifted = (values - low).astype(np.int64)
        return np.flatnonzero(np.bincount(shifted)) + int(low)
    return np.unique(values)


@dataclass(frozen=True)
class ScoresSeen:
    """What the rule needs of one part of a score column (``seen_scores``).

    Small and picklable: a part read elsewhere (a Dask partition) sends it back, and
    ``NotRatings.follow`` adds the parts in row order as if it had read the scores.
    """

    rows: int
    first: float
    last: float
    #: The scores count up by one from the first, row after row.
    consecutive: bool
    rated: int
    whole: bool
    #: The distinct scores when they are whole numbers (else not kept).
    uniques: list[Any] | None


def seen_scores(values: np.ndarray, keep: bool = True) -> ScoresSeen:
    """What the rule needs of one part of a score column (``NaN`` missing), in row order.

    ``keep=False``: the column is known not to hold whole numbers (its distinct values
    are not needed).
    """
    rows = len(values)
    first = float(values[0]) if rows else math.nan
    last = float(values[-1]) if rows else math.nan
    consecutive = bool(rows) and bool(
        np.array_equal(values, np.arange(rows, dtype=float) + values[0])
    )
    rated = values[~np.isnan(values)]
    whole = keep and bool(np.isfinite(rated).all() and (rated == np.floor(rated)).all())
    uniques = _distinct_whole(rated).tolist() if whole and len(rated) else None
    return ScoresSeen(rows, first, last, consecutive, len(rated), whole, uniques)


class NotRatings:
    """The rule for columns taken as raters by default, over one input or its parts.

    ``kind``: ``"labels"`` (the label path) or ``"scores"`` (numeric ratings). Feed it
    each part with ``labels`` or ``scores``, and call ``refuse(final=True)`` once the
    whole input is read; ``refuse(final=False)`` after a part refuses as soon as the rows
    read so far show it (labels: many distinct values, numbers that are not whole).
    """

    def __init__(self, kind: Literal["labels", "scores"] = "labels") -> None:
        self.kind = kind
        self.columns: dict[Hashable, _Column] = {}

    def labels(
        self, name: Hashable, uniques: Sequence[Any], labelled: int, declared: Any = None
    ) -> None:
        """One part of a label column: its distinct values, on ``labelled`` rows."""
        col = self.columns.setdefault(name, _Column())
        if declared is not None or col.declared:
            col.declared = True
            return
        col.meet(uniques, labelled)

    def scores(self, name: Hashable, values: np.ndarray) -> None:
        """One part of a score column (``NaN`` missing), in row order."""
        col = self.columns.get(name)
        self.follow(name, seen_scores(values, keep=col is None or col.values is not None))

    def follow(self, name: Hashable, seen: ScoresSeen) -> None:
        """The next part of a score column, as ``seen_scores`` saw it (parts in row order)."""
        col = self.columns.setdefault(name, _Column())
        if col.counting and seen.rows:
            start = col.first + col.rows if col.rows else seen.first
            if col.rows == 0 and start not in (0.0, 1.0):
                col.counting = False
            col.counting = col.counting and seen.consecutive and seen.first == start
            if col.rows == 0:
                col.first = seen.first
            col.last = seen.last
        col.rows += seen.rows
        if col.values is None:
            col.labelled += seen.rated
            return
        if seen.rated and not seen.whole:
            col.whole, col.values = False, None  # scores: never an id, never compared
            col.labelled += seen.rated
            return
        if not seen.rated:
            return
        col.meet(seen.uniques or [], seen.rated)

    def counted(
        self,
        name: Hashable,
        labelled: int,
        distinct: int,
        whole: bool,
        fraction: Any = None,
        declared: bool = False,
    ) -> None:
        """A whole column, counted where it lives (a SQL engine's aggregates).

        Its labelled rows, its distinct values, whether they are all whole numbers (text
        written as whole numbers included), and one that is not whole when the column
        holds numbers (or text written as numbers). Rows in an engine have no order: no
        row numbers are looked for.
        """
        col = self.columns.setdefault(name, _Column())
        if declared:
            col.declared = True
            return
        col.labelled, col.counted, col.repeats = labelled, distinct, distinct < labelled
        col.whole, col.texts, col.number_fraction = whole, False, fraction
        col.counting = False
        if self.kind == "scores" and labelled and not whole:
            col.values = None

    def refuse(self, final: bool = True) -> None:
        """Refuse the columns that are not ratings (``final``: the whole input is read)."""
        if self.kind == "scores":
            self._row_numbers()
        found = []
        for name, col in self.columns.items():
            if col.declared:
                continue
            if self.kind == "labels":
                if col.distinct >= ID_MIN_DISTINCT and col.distinct >= ID_SHARE * col.labelled:
                    found.append(self._ids(name, col))
                    continue
                fraction = col.fraction()
                if fraction is not None:
                    found.append(f"{name!r} (numbers that are not whole, such as {fraction!r})")
                    continue
            if final and self._an_id(name, col):
                found.append(self._ids(name, col))
        if found:
            raise self._error(found)

    def _an_id(self, name: Hashable, col: _Column) -> bool:
        """Whole numbers on one row each, beside labels that repeat over fewer values."""
        if not col.whole or col.repeats or col.values is None or col.distinct < 2:
            return False
        repeating = [
            c.distinct
            for other, c in self.columns.items()
            if other != name and c.repeats and c.values is not None
        ]
        return bool(repeating) and col.distinct > 2 * max(repeating)

    def _ids(self, name: Hashable, col: _Column) -> str:
        if self.kind == "scores":
            return f"{name!r} ({col.distinct} distinct whole numbers in {col.labelled} rows)"
        return f"{name!r} ({col.distinct} distinct values in {col.labelled} labelled rows)"

    def _row_numbers(self) -> None:
        for name, col in self.columns.items():
            if col.counting and col.rows >= ROW_NUMBERS_FROM:
                second = col.first + 1
                raise KappaFrameError(
                    f"column {name!r} numbers the rows ({col.first:g}, {second:g}, ... "
                    f"{col.last:g}): an item id, not a rater's scores. Name the rater columns "
                    f"with {arg('raters', ...)}, or drop the id column first.",
                    option="raters",
                )

    def _error(self, found: list[str]) -> KappaFrameError:
        it = "it" if len(found) == 1 else "them"
        what = "ids or scores, not labels" if self.kind == "labels" else "ids, not scores"
        return KappaFrameError(
            f"no {arg('raters')} was given, so every column not in {arg('by')} would be a "
            f"rater, but {'; '.join(found)} look{'s' if len(found) == 1 else ''} like {what}. "
            f"Name the rater columns with {arg('raters', ...)} "
            + ways(f"(or drop {it} first).", f"(or leave {it} out with {arg('exclude')})."),
            option="raters",
        )


def _settle(rule: NotRatings, check: Any) -> None:
    """Refuse what the rows read so far show (all of them, ``check=True``)."""
    rule.refuse(final=check is True)


def check_labels(check: Any, columns: dict[Hashable, Any]) -> None:
    """Check label columns (``Factorized``: codes, uniques, declared) as ``check`` says.

    ``check``: ``True`` (the frame is the whole input), ``"part"`` (a part of an input
    whose parts are not gathered: what its rows show alone), a ``NotRatings`` gathering
    the parts (what the rows so far show; its owner decides once every part is read),
    falsy (named raters).
    """
    if not check:
        return
    rule = check if isinstance(check, NotRatings) else NotRatings("labels")
    for name, col in columns.items():
        labelled = 0 if col.declared is not None else int(np.count_nonzero(col.codes >= 0))
        rule.labels(name, col.uniques, labelled, col.declared)
    _settle(rule, check)


def check_scores(check: Any, columns: dict[Hashable, np.ndarray]) -> None:
    """Check score columns (``NaN`` missing), in row order, as ``check`` says (above)."""
    if not check:
        return
    rule = check if isinstance(check, NotRatings) else NotRatings("scores")
    for name, values in columns.items():
        rule.scores(name, values)
    _settle(rule, check)
