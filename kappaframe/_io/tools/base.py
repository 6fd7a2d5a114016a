"""What the annotation tools' readers share: one rating, one tool, and the long frame.

A tool's reader turns the records of an export (parsed JSON objects) into ``Rating``s;
``frame`` turns the ratings of every file read into the long frame. Which fields hold sets
(several choices in one answer) is decided there, over all the ratings of a field, so a
field's labels are all plain values or all frozensets.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._errors import KappaFrameError, arg

_log = logging.getLogger("kappaframe")

#: The prefix of the columns that hold a task's data (``data.text``, ``data.meta.source``):
#: they cannot clash with ``item``, ``rater``, ``field`` and ``label``.
DATA_PREFIX = "data."


@dataclass(frozen=True)
class Export:
    """The records of one file (or one member of a zip file) of a tool's export.

    ``rater``: the rater the file's name gives (``alice`` for ``alice.jsonl``), for tools
    whose records may not say who made them (doccano's per-member files, a Prodigy
    dataset of one annotator); None for standard input.
    """

    name: str
    records: list[dict[str, Any]]
    rater: str | None


@dataclass
class Options:
    """What the caller asked for: the fields to read (None: every one) and predictions.

    ``seen`` collects every field met, read or not (for the message when ``fields``
    names none of them).
    """

    fields: frozenset[str] | None = None
    predictions: bool = False
    seen: dict[str, None] = field(default_factory=dict)

    def wants(self, name: str) -> bool:
        """Whether field ``name`` is read (and note that it exists)."""
        self.seen[name] = None
        return self.fields is None or name in self.fields


@dataclass(frozen=True)
class Rating:
    """One rater's answer to one field of one item.

    ``answer``: the values chosen (a choice answer may hold none, one or several);
    ``choice``: whether the answer is a choice among options (False: one value by nature,
    a star rating or a binary accept/reject); ``several``: the tool itself says the field
    takes several choices (Prodigy's ``choice_style: multiple``); ``data``: the item's
    data columns (shared by the item's ratings, not copied).
    """

    item: Hashable
    rater: Hashable
    field: str
    answer: tuple[Any, ...]
    choice: bool
    data: Mapping[str, Any]
    several: bool = False


@dataclass(frozen=True)
class Tool:
    """One annotation tool: its name, what its exports look like, and its reader.

    ``sniff(record)`` says whether a record (the first of a file) is this tool's;
    ``ratings(export, options, skipped)`` yields the export's ratings and counts what it
    leaves out (cancelled, ignored, unlabelled) in ``skipped``.
    """

    name: str
    title: str
    looks: str
    sniff: Callable[[Mapping[str, Any]], bool]
    ratings: Callable[[Export, Options, Counter[str]], Iterator[Rating]]


def flat(values: Mapping[str, Any], prefix: str = DATA_PREFIX) -> dict[str, Any]:
    """A task's data as columns: scalars kept, objects flattened with ``.``, lists left out.

    ``{"text": "hi", "meta": {"source": "web"}}`` gives ``{"data.text": "hi",
    "data.meta.source": "web"}``.
    """
    out: dict[str, Any] = {}
    for key, value in values.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(flat(value, f"{name}."))
        elif not isinstance(value, (list, tuple)):
            out[name] = value
    return out


def keys_of(record: Mapping[str, Any], limit: int = 12) -> str:
    """The first keys of a record, for messages."""
    keys = [str(k) for k in record]
    shown = ", ".join(keys[:limit])
    return shown + (", ..." if len(keys) > limit else "") if keys else "no keys"


def is_scalar(value: Any) -> bool:
    """A JSON scalar (text, number, true/false): what a choice or a rating can be."""
    return isinstance(value, (str, int, float, bool))


def not_choices(where: str, name: str, what: str, supported: str) -> KappaFrameError:
    """The error for a field that holds something else than choices (spans, text, boxes)."""
    return KappaFrameError(
        f"{where}: field {name!r} holds {what}, not a choice among labels; kappaframe "
        f"reads {supported}. Read the choice fields only with {arg('fields', ...)}.",
        option="fields",
    )


def frame(
    ratings: Iterable[Rating],
    *,
    names: Sequence[str],
    options: Options,
    multiple: bool | None,
    skipped: Counter[str],
    records: int,
) -> Any:
    """The long frame of ``ratings``: ``item``, ``rater``, [``field``], ``label``, data.

    A field whose answers hold several choices (or whose tool says so, or with
    ``multiple=True``) has every label a frozenset; otherwise each label is the one value
    chosen, and an answer with no choice is no label.
    """
    import pandas as pd

    ratings = list(ratings)
    by_field: dict[str, list[Rating]] = {}
    for rating in ratings:
        by_field.setdefault(rating.field, []).append(rating)
    shown = ", ".join(names) if len(names) <= 3 else f"{names[0]} and {len(names) - 1} more"
    if options.fields is not None:
        unknown = sorted(options.fields - set(by_field))
        if unknown:
            seen = ", ".join(repr(f) for f in options.seen) or "none"
            raise KappaFrameError(
                f"{shown}: {arg('fields', unknown)} names no field with answers in the "
                f"export; its fields: {seen}.",
                option="fields",
            )
    sets = {name: _holds_sets(name, rows, multiple, shown) for name, rows in by_field.items()}
    items: list[Any] = []
    raters: list[Any] = []
    fields: list[str] = []
    labels: list[Any] = []
    data: list[Mapping[str, Any]] = []
    for r in ratings:
        if r.choice and sets[r.field]:
            label: Any = frozenset(r.answer)
        elif len(r.answer) == 1:
            label = r.answer[0]
        else:
            skipped["answers with no choice"] += 1
            continue
        items.append(r.item)
        raters.append(r.rater)
        fields.append(r.field)
        labels.append(label)
        data.append(r.data)
    if not labels:
        raise KappaFrameError(
            f"{shown} holds no labels: {_plural(records, 'record')} read, no answer kept"
            f"{_skipped(skipped)}. Export the annotations (not only the tasks) from the tool."
        )
    _log.info(
        "read %s: %d ratings of %d raters on %d items%s",
        shown,
        len(labels),
        len(set(raters)),
        len(set(items)),
        _skipped(skipped),
    )
    columns: dict[str, Any] = {"item": items, "rater": raters}
    if len(by_field) > 1:
        columns["field"] = fields
    columns["label"] = pd.Series(labels, dtype=object) if any(sets.values()) else labels
    names_in_order = dict.fromkeys(k for d in _distinct(data) for k in d)
    for name in names_in_order:
        columns[name] = [d.get(name) for d in data]
    return pd.DataFrame(columns)


def _distinct(data: list[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Each data mapping once (the ratings of an item share theirs)."""
    seen: set[int] = set()
    for d in data:
        if id(d) not in seen:
            seen.add(id(d))
            yield d


def _holds_sets(name: str, rows: list[Rating], multiple: bool | None, shown: str) -> bool:
    """Whether field ``name``'s labels are frozensets (several choices in an answer)."""
    if not any(r.choice for r in rows):
        return False
    several = next((r for r in rows if r.choice and len(r.answer) > 1), None)
    if multiple is False:
        if several is not None:
            raise KappaFrameError(
                f"{shown}: rater {several.rater!r} chose {len(several.answer)} labels "
                f"({', '.join(map(repr, several.answer))}) for field {name!r} of item "
                f"{several.item!r}, and {arg('multiple', False)} keeps one label per answer; "
                f"drop it to keep each answer as a set.",
                option="multiple",
            )
        return False
    return bool(multiple) or several is not None or any(r.several for r in rows)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _skipped(skipped: Counter[str]) -> str:
    """``" (2 cancelled, 1 ignored)"`` or nothing."""
    parts = [f"{n} {why}" for why, n in skipped.items() if n]
    return f" (left out: {', '.join(parts)})" if parts else ""
