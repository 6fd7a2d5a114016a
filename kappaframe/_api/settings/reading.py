"""How to read the ratings, bound once per call before any source is opened.

A public function binds its reading options (``raters``, ``by``, the long layout's
``item``, ``rater`` and ``label``, ``categories``, ``duplicates``) into one frozen
``ReadSpec``; the layout is checked when it is made (``kappaframe._api.options.
check_layout``), so a bad option is refused naming it before the first read, whatever the
source holds. Everything below the public functions (preparing a frame, counting its
parts, reading scores) takes the ``ReadSpec`` instead of the options one by one; the
frame engines and the statistics take its ``LongLayout``
(``kappaframe._encode.layout``).

>>> read = ReadSpec(item="doc", rater="who", label="tag")
>>> read.long, read.layout
(True, LongLayout(item='doc', rater='who', label='tag'))
>>> ReadSpec(["a", "b"]).layout is None  # one column per rater
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._encode.layout import LongLayout
from ..._encode.sets import SetLabels
from ..._errors import KappaFrameError, arg
from ..options import check_layout

__all__ = ["ReadSpec", "score_column"]


@dataclass(frozen=True)
class ReadSpec:
    """How to read the ratings of one call: the raters, groups, layout, categories.

    ``raters``, ``by``, ``categories`` and ``duplicates`` are the caller's values (the
    columns are resolved against the data later); ``item``, ``rater`` and ``label`` name
    the long layout's columns (all ``None``: the wide layout). ``sets``: the labels are
    sets (``kappaframe._encode.sets``). ``label_word``: the name the caller gave the
    rating column (``"value"`` for numeric scores), used in messages. Made once per call:
    checking costs microseconds, never anything per part or row.
    """

    raters: Any = None
    by: Any = None
    item: Hashable | None = None
    rater: Hashable | None = None
    label: Hashable | None = None
    categories: Sequence[Any] | None = None
    duplicates: str = "raise"
    sets: SetLabels | None = None
    label_word: str = "label"
    #: The long layout's columns (``None``: the wide layout), found by the check.
    layout: LongLayout | None = field(init=False, repr=False, compare=False)

    @classmethod
    def of(cls, options: Mapping[str, Any], **changes: Any) -> ReadSpec:
        """The reading among a call's arguments by name (``options``), with ``changes``."""
        named = {k: options[k] for k in _FIELDS if k in options}
        return cls(**{**named, **changes})

    def __post_init__(self) -> None:
        object.__setattr__(self, "layout", check_layout(self))

    @property
    def long(self) -> bool:
        """Whether the ratings come one per row (the long layout)."""
        return self.layout is not None

    def replace(self, **changes: Any) -> ReadSpec:
        """A copy with ``changes`` (checked again)."""
        return dataclasses.replace(self, **changes)


_FIELDS = tuple(f.name for f in dataclasses.fields(ReadSpec) if f.init)


def score_column(value: Hashable | None, label: Hashable | None) -> tuple[Hashable | None, str]:
    """The long layout's score column, named by ``value`` or ``label``, and the word used.

    ``label`` is another name of ``value`` (the kappa functions' word for the long
    layout's rating column); both at once is refused.
    """
    if label is not None and value is not None:
        raise KappaFrameError(
            f"{arg('value')} and {arg('label')} name the same column (the ratings of the "
            f"long layout); pass one of them: value={value!r} or label={label!r}.",
            option="value",
        )
    if label is not None:
        return label, "label"
    return value, "value"
