"""Public functions swap_consistency() and resolve_swaps(): preference judges and the swap.

Frame (pandas or polars; ``eager_adapter``) -> each row's two verdicts as positions (0 the
answer shown first, 1 the answer shown second, 2 a tie; ``_positions``) -> one of nine
cells per question (``kappaframe._stats.preference``) -> counts per judge and group, or the
resolved verdict per question -> ``Table`` -> the caller's frame type.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from .._encode.codes import Factorized, Groups, encode_groups
from .._errors import KappaFrameError, KappaFrameTypeError, missing_columns
from .._frames.native import eager_adapter
from .._schema import Column, Table, check_names
from .._stats import preference as _pref
from .options import as_list
from .settings.bind import declared

__all__ = ["resolve_swaps", "swap_consistency"]

FrameT = TypeVar("FrameT")

#: The shares of ``swap_consistency``, each with its cells of ``_stats.preference``.
SHARES = (
    ("consistency", _pref.CONSISTENT),
    ("first_bias", _pref.FIRST_BIAS),
    ("second_bias", _pref.SECOND_BIAS),
    ("ties", _pref.TIES),
)
#: ``swap_consistency``'s columns after the ``by`` and ``judge`` columns (with ``ci``).
SWAP_COLUMNS = (
    "n",
    "n_missing",
    *(f"{name}{end}" for name, _ in SHARES for end in ("", "_low", "_high")),
)
#: ``resolve_swaps``'s column after the ``by``, ``judge`` and ``question`` columns.
RESOLVED_COLUMNS = ("verdict",)


@declared
def swap_consistency(
    data: FrameT,
    *,
    question: Hashable,
    first: Hashable,
    second: Hashable,
    by: Hashable | Sequence[Hashable] | None = None,
    judge: Hashable | None = None,
    labels: Sequence[Any] = ("A", "B", "tie"),
    ci: float | None = 0.95,
) -> FrameT:
    """How often a preference judge keeps its verdict when the two answers swap places.

    Each row is one question put to a judge twice: ``first`` holds the verdict with the
    answers shown as (A, B), ``second`` the verdict with them shown as (B, A). Verdicts
    name positions, as the judge saw them: ``labels = (shown first, shown second, tie)``.
    A judge that prefers answer A says ``"A"`` in ``first`` and, the positions swapped,
    ``"B"`` in ``second``. Over the ``n`` questions of a judge (per group) read in both
    orders:

    - ``consistency = (n_AB + n_BA + n_TT) / n``: the verdict survives the swap (answer A
      in both orders, answer B in both, or a tie in both);
    - ``first_bias = n_AA / n``: whatever was shown first won, in both orders;
    - ``second_bias = n_BB / n``: whatever was shown second won, in both orders;
    - ``ties = (n_AT + n_TA + n_BT + n_TB + n_TT) / n``: a tie in either order (or both).

    ``n_xy`` counts questions with ``x`` in ``first`` and ``y`` in ``second`` (``T`` a
    tie). ``consistency + first_bias + second_bias`` plus the share with a tie in exactly
    one order is 1. Each share has Wilson's score interval,
    ``(p + z^2 / 2n -/+ z sqrt(p (1 - p) / n + z^2 / 4n^2)) / (1 + z^2 / n)``.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame
        A frame of the input's library, one row per group and judge (sorted by key; a
        missing key sorted last): the ``by`` columns, the ``judge`` column, ``n``
        (questions read in both orders), ``n_missing`` (questions dropped: a verdict
        missing in either order), ``consistency``, ``first_bias``, ``second_bias`` and
        ``ties``, each followed (with ``ci``) by its ``*_low`` and ``*_high``. A group
        with ``n = 0`` has NaN shares.

    Raises
    ------
    KappaFrameError
        A verdict not among ``labels`` (naming the column and the value); ``labels`` not
        three distinct values; a question twice for the same judge and group; a missing
        question id; unknown columns; a ``by`` column named like an output column.

    See Also
    --------
    resolve_swaps : the verdict per question with the swap resolved, for kappa against
        people.

    Notes
    -----
    MT-Bench (Zheng et al., 2023, section 3.3, "Position bias") reports the consistency of
    its judges this way, and its "biased toward first" and "biased toward second" are the
    shares here. A question with a verdict missing in one order (the judge's answer could
    not be read) is not counted in any share; ``n_missing`` states how many there were.
    The intervals are statsmodels' ``proportion_confint(x, n, alpha=1 - ci,
    method="wilson")``; they treat questions as independent.

    References
    ----------
    Zheng, L., Chiang, W.-L., Sheng, Y., et al. (2023). Judging LLM-as-a-judge with
    MT-Bench and Chatbot Arena. *Advances in Neural Information Processing Systems* 36.

    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
    inference. *Journal of the American Statistical Association* 22, 209-212.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({
    ...     "q": [1, 2, 3, 4, 5],
    ...     "ab": ["A", "B", "A", "tie", "A"],
    ...     "ba": ["B", "A", "A", "tie", "tie"],
    ... })
    >>> res = kf.swap_consistency(df, question="q", first="ab", second="ba", ci=None)
    >>> res[["n", "consistency", "first_bias", "second_bias", "ties"]]
       n  consistency  first_bias  second_bias  ties
    0  5          0.6         0.2          0.0   0.4
    """
    read = _read(data, question, first, second, by, judge, labels, SWAP_COLUMNS)
    counts, missing = _pref.cell_counts(read.cells, read.group, read.groups.n_groups)
    n = counts.sum(axis=1)
    columns = read.keys(read.groups.first_row)
    columns += [Column("n", "int", n), Column("n_missing", "int", missing)]
    columns += _shares(counts, n, ci)
    return read.frame.render(Table(columns))


@declared
def resolve_swaps(
    data: FrameT,
    *,
    question: Hashable,
    first: Hashable,
    second: Hashable,
    by: Hashable | Sequence[Hashable] | None = None,
    judge: Hashable | None = None,
    labels: Sequence[Any] = ("A", "B", "tie"),
) -> FrameT:
    """The verdict of each question with the swap resolved, as MT-Bench resolves it.

    Read as ``swap_consistency`` reads its rows. A verdict that survives the swap stays:
    answer A in both orders (``first = "A"``, ``second = "B"``) gives ``"A"``, answer B
    in both gives ``"B"``, a tie in both gives ``"tie"``; any other pair (a position bias,
    or a tie in one order only) becomes ``"tie"`` (Zheng et al., 2023, section 3.3: "we
    ... declare a win only if an answer is preferred in both orders"). The verdicts then
    name answers, not positions, in the spelling of ``labels``: give them with people's
    win/tie/loss labels to ``kappaframe.pairwise(..., reference=...)``.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame
        A frame of the input's library with one row per input row, in order: the ``by``
        columns, the ``judge`` column, the ``question`` column and ``verdict``
        (``labels[0]``: answer A, ``labels[1]``: answer B, ``labels[2]``: a tie); missing
        where either order's verdict is missing.

    Raises
    ------
    KappaFrameError
        As ``swap_consistency``.

    See Also
    --------
    swap_consistency : how often the verdicts survive the swap.
    pairwise : kappa of the resolved verdicts against people (``reference=``).

    References
    ----------
    Zheng, L., Chiang, W.-L., Sheng, Y., et al. (2023). Judging LLM-as-a-judge with
    MT-Bench and Chatbot Arena. *Advances in Neural Information Processing Systems* 36.

    Examples
    --------
    A judge's verdicts in both orders, and a person's verdict on the same questions:

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({
    ...     "q": [1, 2, 3, 4, 5, 6],
    ...     "ab": ["A", "B", "A", "tie", "A", "B"],
    ...     "ba": ["B", "A", "A", "tie", "B", "A"],
    ...     "human": ["A", "B", "tie", "tie", "A", "A"],
    ... })
    >>> resolved = kf.resolve_swaps(df, question="q", first="ab", second="ba")
    >>> resolved["verdict"].tolist()
    ['A', 'B', 'tie', 'tie', 'A', 'B']
    >>> both = resolved.assign(human=df["human"])
    >>> res = kf.pairwise(both, ["verdict", "human"], reference="human")
    >>> round(float(res["kappa"].iloc[0]), 4)
    0.75
    """
    read = _read(data, question, first, second, by, judge, labels, RESOLVED_COLUMNS)
    rows = np.arange(len(read.cells), dtype=np.intp)
    columns = [*read.keys(rows), Column(question, "key", rows, source=question)]
    columns.append(Column("verdict", "label", _verdicts(read.cells, read.labels)))
    return read.frame.render(Table(columns))


@dataclass(frozen=True)
class _Read:
    """The rows of a swap frame: the frame, its groups, each row's cell and the labels."""

    frame: Any
    key_names: list[Hashable]
    groups: Groups
    cells: np.ndarray
    labels: tuple[Any, ...]

    @property
    def group(self) -> np.ndarray:
        codes = self.groups.codes
        return np.zeros(len(self.cells), dtype=np.intp) if codes is None else codes

    def keys(self, rows: np.ndarray) -> list[Column]:
        """The ``by`` and ``judge`` columns at ``rows`` of the frame."""
        return [Column(k, "key", rows, source=k) for k in self.key_names]


def _read(
    data: Any,
    question: Hashable,
    first: Hashable,
    second: Hashable,
    by: Any,
    judge: Hashable | None,
    labels: Sequence[Any],
    output: Sequence[Hashable],
) -> _Read:
    """Check the columns and labels, and code each row's verdicts (one question per row)."""
    frame = eager_adapter(data)
    if frame is None:
        raise KappaFrameTypeError(
            "swap_consistency and resolve_swaps take a pandas or polars DataFrame (or "
            f"LazyFrame); got {type(data).__module__}.{type(data).__qualname__}."
        )
    names = frame.columns()
    key_names = [*as_list(by, names), *([] if judge is None else [judge])]
    for role, cols in (
        ("question column", [question]),
        ("verdict column", [first, second]),
        ("by or judge column", key_names),
    ):
        err = missing_columns(cols, names, role)
        if err is not None:
            raise err
    check_names(key_names, (*output, question), "swap_consistency")
    chosen = _check_labels(labels)
    frame.load([*key_names, question, first, second])
    groups = encode_groups([frame.keys(k) for k in key_names], frame.n_rows)
    read = _Read(
        frame,
        key_names,
        groups,
        _pref.cells(
            _positions(frame.labels(first), chosen, first),
            _positions(frame.labels(second), chosen, second),
        ),
        chosen,
    )
    _check_questions(frame.labels(question), read.group, groups.n_groups, question)
    return read


def _verdicts(cells: np.ndarray, labels: tuple[Any, ...]) -> np.ndarray:
    """Each question's resolved verdict in the caller's labels; None where an order is missing."""
    spelled = np.empty(4, dtype=object)
    for code, label in enumerate((*labels, None)):
        spelled[code] = label
    return spelled[np.where(cells >= 0, _pref.RESOLVED[np.maximum(cells, 0)], 3)]


def _check_labels(labels: Sequence[Any]) -> tuple[Any, ...]:
    chosen = tuple(labels)
    if len(chosen) != 3 or len({repr(v) for v in chosen}) != 3:
        raise KappaFrameError(
            "labels must be three distinct verdicts, (shown first, shown second, tie), e.g. "
            f'labels=("A", "B", "tie"); got {labels!r}.',
            option="labels",
        )
    return chosen


def _positions(fact: Factorized, labels: tuple[Any, ...], column: Hashable) -> np.ndarray:
    """Each verdict as its position in ``labels`` (-1 missing); an unknown one refused."""
    position = np.full(len(fact.uniques) + 1, -1, dtype=np.intp)
    for code, value in enumerate(fact.uniques):
        found = [i for i, label in enumerate(labels) if _same(value, label)]
        if not found:
            raise KappaFrameError(
                f"verdict column {column!r} holds {value!r}, which is not among labels="
                f"{labels!r} (shown first, shown second, tie). Recode it, or pass the "
                "verdicts your judge uses as labels=(...).",
                option="labels",
            )
        position[code] = found[0]
    return position[np.asarray(fact.codes, dtype=np.intp)]


def _same(value: Any, label: Any) -> bool:
    try:
        return bool(value == label)
    except (TypeError, ValueError):
        return False


def _check_questions(fact: Factorized, group: np.ndarray, n_groups: int, name: Hashable) -> None:
    """Refuse a missing question id, and a question twice for one judge and group."""
    codes = np.asarray(fact.codes, dtype=np.int64)
    if (codes < 0).any():
        row = int(np.flatnonzero(codes < 0)[0])
        raise KappaFrameError(
            f"question column {name!r} is missing on row {row}: every row needs its "
            "question's id. Drop or fill those rows first.",
            option="question",
        )
    key = group.astype(np.int64) * max(len(fact.uniques), 1) + codes
    unique, counts = np.unique(key, return_counts=True)
    if (counts > 1).any():
        twice = fact.uniques[int(unique[counts > 1][0] % max(len(fact.uniques), 1))]
        raise KappaFrameError(
            f"question {twice!r} (column {name!r}) appears on more than one row for the same "
            "judge and group: each row must hold one question's two verdicts. Pass judge= "
            "or by= if the rows are different judges or groups, or drop the duplicates.",
            option="question",
        )


def _shares(counts: np.ndarray, n: np.ndarray, ci: float | None) -> list[Column]:
    """Each share of ``SHARES`` and, with ``ci``, its Wilson interval."""
    columns: list[Column] = []
    for name, cells in SHARES:
        hits = counts[:, list(cells)].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            columns.append(Column(name, "float", hits / n))
        if ci is not None:
            low, high = _pref.wilson(hits, n, ci)
            columns += [Column(f"{name}_low", "float", low), Column(f"{name}_high", "float", high)]
    return columns
