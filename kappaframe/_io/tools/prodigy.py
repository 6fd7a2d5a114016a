"""Prodigy: its ``db-out`` export in.

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
from collections.abc import Iterator, Mapping
from typing import Any

from ..._errors import KappaFrameError, arg
from .base import Export, Options, Rating, Tool, flat, is_scalar, keys_of

__all__ = ["TOOL"]

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
        data = flat({k: v for k, v in task.items() if not k.startswith("_") and k not in _NOT_DATA})
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
