"""Prodigy: its ``db-out`` export in, its JSONL task format out.

``prodigy db-out DATASET`` writes one annotated task per line: the task's own keys
(``text``, ``meta``, ...), ``_input_hash`` (the input: the item), ``_task_hash`` (the
question), ``_view_id`` (the interface), ``answer`` (``accept``, ``reject`` or ``ignore``)
and, with named sessions, ``_session_id`` and ``_annotator_id``. Two kinds of task carry
labels to agree on:

- binary (``classification``, or a task with a ``label`` and no ``options``): the answer
  to "does ``label`` apply?". The field is the task's ``label``, the label the answer,
  ``"accept"`` or ``"reject"``.
- choice (``choice``, or a task with ``options``): the ids in ``accept``, the options
  chosen. The field is ``"accept"``. A rejected choice task says the options do not fit
  the input; like an ignored one, it is no label.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from ..._errors import KappaFrameError, arg
from .base import Export, Options, Rating, Tool, flat, is_scalar, keys_of
from .queue import check_queue, is_missing, json_value, sorted_values

__all__ = ["TOOL", "prodigy_lines"]

#: A task's keys that are no data of the item: Prodigy's own, and the answer's.
_NOT_DATA = frozenset(
    {"answer", "accept", "options", "label", "config", "spans", "tokens", "flagged"}
)

_SUPPORTED = (
    "binary tasks (accept or reject a task's label) and choice tasks (the options in accept)"
)

#: The field of a choice task's answer: the key that holds it.
CHOICE_FIELD = "accept"


def _sniff(record: Mapping[str, Any]) -> bool:
    return "_input_hash" in record and "_task_hash" in record


def _ratings(export: Export, options: Options, skipped: Counter[str]) -> Iterator[Rating]:
    seen: dict[Any, Mapping[str, Any]] = {}  # each input's data, from its first task
    for n, task in enumerate(export.records, 1):
        where = f"{export.name}, line {n}"
        item = task.get("_input_hash")
        if item is None:
            raise KappaFrameError(
                f"{where}: no _input_hash, which names the item; export with prodigy db-out."
            )
        answer = task.get("answer")
        if answer is None:
            skipped["unanswered tasks"] += 1
            continue
        if answer == "ignore":
            skipped["ignored"] += 1
            continue
        if answer not in ("accept", "reject"):
            raise KappaFrameError(
                f"{where}: answer {answer!r}; Prodigy answers 'accept', 'reject' or 'ignore'."
            )
        rater = task.get("_annotator_id") or task.get("_session_id") or export.rater
        if rater is None:
            raise KappaFrameError(
                f"{where}: no _annotator_id or _session_id says who answered; annotate "
                "with named sessions (?session=alice), or export each annotator's dataset "
                "to a file named after them (alice.jsonl)."
            )
        view = task.get("_view_id")
        binary = view == "classification" or (
            view is None and "label" in task and "options" not in task
        )
        is_choice = view == "choice" or (view in (None, "blocks") and "options" in task)
        data = seen.get(item)
        if data is None:
            data = seen[item] = flat(
                {k: v for k, v in task.items() if not k.startswith("_") and k not in _NOT_DATA}
            )
        if binary:
            label = task.get("label")
            if not is_scalar(label):
                raise KappaFrameError(
                    f"{where}: a binary task without a label ({label!r}) asks nothing to agree "
                    "on; each binary task names the label it asks about."
                )
            if not options.wants(str(label)):
                continue
            yield Rating(item, rater, str(label), (answer,), False, data)
        elif is_choice and not task.get("spans"):
            if not options.wants(CHOICE_FIELD):
                continue
            if answer == "reject":
                skipped["rejected choice tasks"] += 1
                continue
            accept = task.get("accept") or []
            if not isinstance(accept, list) or not all(is_scalar(a) for a in accept):
                raise KappaFrameError(f"{where}: accept is {accept!r}, not a list of option ids.")
            config = task.get("config")
            several = isinstance(config, Mapping) and config.get("choice_style") == "multiple"
            yield Rating(item, rater, CHOICE_FIELD, tuple(accept), True, data, several=several)
        else:
            if options.fields is not None:
                continue
            what = f"a {view} task" if view else f"a task with keys {keys_of(task)}"
            if task.get("spans"):
                what += " (spans with start and end)"
            raise KappaFrameError(
                f"{where}: {what} is no choice among labels; kappaframe reads {_SUPPORTED}. "
                f"Read those only with {arg('fields', ...)} (their labels, or 'accept').",
                option="fields",
            )


TOOL = Tool(
    name="prodigy",
    title="Prodigy db-out JSONL",
    looks="Prodigy (db-out: records with _input_hash and _task_hash)",
    sniff=_sniff,
    ratings=_ratings,
)


def prodigy_lines(
    queue: Any,
    *,
    raters: Sequence[Hashable],
    item: Hashable = "item",
    text: Hashable | None = "text",
    categories: Sequence[Any] | None = None,
    meta: Sequence[Hashable] | None = None,
    preselect: Hashable | None = None,
) -> list[dict[str, Any]]:
    """Prodigy choice tasks of a queue, each rater's label in the task's meta (JSON-ready).

    One task per row of ``queue``: ``{"text": ..., "options": [{"id": ..., "text": ...}],
    "accept": [...], "meta": {...}}``, the input of Prodigy's ``choice`` interface (e.g. a
    ``mark`` or custom recipe, one JSON object per line). ``meta`` shows the item id, each
    rater's label (``"rater": label``; a set as ``"a, b"``) and the other columns in the
    card's corner. When a label is a set, the task says ``"config": {"choice_style":
    "multiple"}``.

    Parameters
    ----------
    queue : pandas.DataFrame
        One row per item.
    raters : list of hashable
        The columns holding each rater's label.
    item : hashable, default "item"
        The item id column.
    text : hashable or None, default "text"
        The column of the text the annotator reads; None shows the item id.
    categories : sequence, optional
        The options, in order; default: every label the raters gave, sorted.
    meta : list of hashable, optional
        The columns shown in ``meta`` besides the item and the raters' labels; default:
        every other column but ``text``.
    preselect : hashable, optional
        A column whose label is chosen in advance (``accept``), e.g. the consensus;
        default: nothing chosen.

    Returns
    -------
    list of dict
        Write them one JSON object a line.
    """
    others = [c for c in (text, preselect) if c is not None]
    raters = check_queue(queue, item, raters, [*others, *(meta or ())])
    if meta is None:
        meta = [c for c in queue.columns if c not in {item, text, *raters}]
    columns = {c: queue[c].tolist() for c in dict.fromkeys([item, *others, *raters, *meta])}
    given = [columns[r][i] for r in raters for i in range(len(queue))]
    if preselect is not None:
        given += columns[preselect]
    several = any(isinstance(v, (frozenset, set, tuple, list)) for v in given)
    if categories is None:
        seen: dict[Any, None] = {}
        for value in given:
            if is_missing(value):
                continue
            for v in value if isinstance(value, (frozenset, set, tuple, list)) else [value]:
                seen[json_value(v)] = None
        options = sorted_values(seen)
    else:
        options = [json_value(c) for c in categories]
    known = set(options)
    lines = []
    for i in range(len(queue)):
        shown = {"item": json_value(columns[item][i])}
        for r in raters:
            shown[str(r)] = _shown(columns[r][i])
        for c in meta:
            if c not in shown:
                shown[str(c)] = _shown(columns[c][i])
        task: dict[str, Any] = {
            "text": str(json_value(columns[text][i]) if text is not None else shown["item"]),
            "options": [{"id": o, "text": str(o)} for o in options],
            "accept": _accept(columns[preselect][i], known) if preselect is not None else [],
            "meta": shown,
        }
        if several:
            task["config"] = {"choice_style": "multiple"}
        lines.append(task)
    return lines


def _shown(value: Any) -> Any:
    """A meta value: a JSON scalar, a set written ``"a, b"``."""
    value = json_value(value)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value


def _accept(value: Any, known: set[Any]) -> list[Any]:
    """The option ids chosen in advance: the label (or each of a set), if an option."""
    if is_missing(value):
        return []
    chosen = json_value(value)
    chosen = chosen if isinstance(chosen, list) else [chosen]
    missing = [c for c in chosen if c not in known]
    if missing:
        raise KappaFrameError(
            f"preselect: label {missing[0]!r} is not among the options; add it to "
            f"{arg('categories', ...)}.",
            option="preselect",
        )
    return list(chosen)
