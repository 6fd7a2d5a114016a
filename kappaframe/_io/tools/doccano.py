"""doccano: its JSONL (and JSON) exports of text and image classification in.

doccano exports one file per project member when collaborative annotation is off (a zip
of ``alice.jsonl``, ``bob.jsonl``, ...): every example of the project, each line ``{"id":
..., "text": ..., "label": [...], ...}`` with that member's labels (an empty list: not
labelled by them) and the example's metadata keys beside. The member is the file's name.
With collaborative annotation on, the export is one ``all.jsonl`` whose ``label`` lists
merge every member's labels: who chose what is gone, and it is refused.

Text classification writes ``label``; image classification ``label`` beside ``filename``;
intent detection ``cats`` (with spans in ``entities``). Before doccano 1.5 the lists were
``labels``, or ``annotations`` (objects with the label's id and the ``user``), which are
read too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from ..._errors import KappaFrameError
from .base import Export, Options, Rating, Tool, flat, is_scalar, keys_of, not_choices

__all__ = ["TOOL"]

#: The keys that hold labels (the field is the key).
_LABEL_KEYS = ("label", "labels", "cats", "entities")
#: The keys that are no data of the example.
_NOT_DATA = frozenset(
    {*_LABEL_KEYS, "id", "annotations", "annotation_approver", "Comments", "comments", "user"}
)

_SUPPORTED = "category lists (text and image classification: label, labels or cats)"


def _sniff(record: Mapping[str, Any]) -> bool:
    if "_input_hash" in record or isinstance(record.get("data"), Mapping):
        return False
    if "text" not in record and "filename" not in record:
        return False
    lists = any(isinstance(record.get(k), list) for k in _LABEL_KEYS)
    return lists or _old(record)


def _old(record: Mapping[str, Any]) -> bool:
    """Whether a record is of doccano before 1.5: ``annotations`` with ``label``, ``user``."""
    annotations = record.get("annotations")
    return isinstance(annotations, list) and all(
        isinstance(a, Mapping) and "label" in a for a in annotations
    )


def _ratings(export: Export, options: Options, skipped: Counter[str]) -> Iterator[Rating]:
    if export.rater == "all":
        raise KappaFrameError(
            f"{export.name} is doccano's collaborative export, whose label lists merge every "
            "member's labels, so who chose what is gone; export with collaborative "
            "annotation off (one file per member, alice.jsonl, bob.jsonl, in the zip) and "
            "read those."
        )
    for n, record in enumerate(export.records, 1):
        where = f"{export.name}, line {n}"
        item = record.get("id")
        if item is None:
            raise KappaFrameError(
                f"{where}: no id, which names the example; doccano exports each example "
                f"with its id (keys here: {keys_of(record)})."
            )
        data = flat({k: v for k, v in record.items() if k not in _NOT_DATA})
        if _old(record) and not any(k in record for k in _LABEL_KEYS):
            yield from _old_ratings(record, item, data, where, options, skipped)
            continue
        rater = record.get("user") if is_scalar(record.get("user")) else export.rater
        for key in _LABEL_KEYS:
            if key not in record or not options.wants(key):
                continue
            labels = record[key]
            if not isinstance(labels, list):
                raise KappaFrameError(f"{where}: {key} is {labels!r}, not a list of labels.")
            if not all(is_scalar(v) for v in labels):
                raise not_choices(where, key, "spans (start, end and label)", _SUPPORTED)
            if not labels:
                skipped["unlabelled examples"] += 1
                continue
            if rater is None:
                raise KappaFrameError(
                    f"{where}: nothing says whose labels these are; read doccano's per-member "
                    "files (alice.jsonl, bob.jsonl) by their names, or the zip holding them."
                )
            yield Rating(item, rater, key, tuple(labels), True, data)


def _old_ratings(
    record: Mapping[str, Any],
    item: Any,
    data: Mapping[str, Any],
    where: str,
    options: Options,
    skipped: Counter[str],
) -> Iterator[Rating]:
    if not options.wants("annotations"):
        return
    by_user: dict[Any, list[Any]] = {}
    for annotation in record["annotations"]:
        if "start_offset" in annotation:
            raise not_choices(where, "annotations", "spans (start_offset, end_offset)", _SUPPORTED)
        user = annotation.get("user")
        if not is_scalar(user):
            raise KappaFrameError(f"{where}: an annotation without a user: {annotation!r}.")
        by_user.setdefault(user, []).append(annotation["label"])
    if not by_user:
        skipped["unlabelled examples"] += 1
    for user, labels in by_user.items():
        yield Rating(item, user, "annotations", tuple(labels), True, data)


TOOL = Tool(
    name="doccano",
    title="doccano JSONL export (text or image classification)",
    looks="doccano (JSONL: records with id, text and a label list)",
    sniff=_sniff,
    ratings=_ratings,
)
