"""Label Studio: its JSON and JSON-MIN exports in, its import format (tasks) out.

JSON export: a list of tasks, each with ``id``, ``data`` and ``annotations`` (``completions``
before Label Studio 1.0); an annotation has ``completed_by`` (a user id, or the user as an
object with ``email``), ``was_cancelled`` and ``result``: a list of results with
``from_name`` (the control tag's name: the field), ``type`` and ``value``. A ``choices``
result holds ``value.choices`` (a list); a ``rating`` result ``value.rating``.

JSON-MIN export (label-studio-converter): one flat record per annotation, with the task's
data keys, ``id`` (the task), ``annotator``, ``annotation_id``, ``created_at``,
``updated_at``, ``lead_time`` and one key per control tag (``from_name``): one choice as its
value, several as ``{"choices": [...]}``, a rating as ``[{"rating": 4}]``. Nothing in it
says which keys are answers and which are the task's data, so the fields are named.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from ..._errors import KappaFrameError, arg
from .base import Export, Options, Rating, Tool, flat, is_scalar, keys_of, not_choices
from .queue import check_queue, choices, is_missing, json_value

__all__ = ["TOOL", "label_studio_tasks"]

#: The keys of a JSON-MIN record that are not the task's data nor answers.
_MIN_KEYS = frozenset(
    {"id", "annotator", "annotation_id", "created_at", "updated_at", "lead_time", "agreement"}
)

_SUPPORTED = "choices results (value.choices) and rating results (value.rating)"

_WHAT = {
    "labels": "labels results (spans of text with start and end)",
    "hypertextlabels": "hypertextlabels results (spans with start and end)",
    "paragraphlabels": "paragraphlabels results (spans of dialogue)",
    "textarea": "textarea results (free text)",
    "taxonomy": "taxonomy results (paths in a tree of labels)",
    "relation": "relation results (links between regions)",
}


def _is_min(record: Mapping[str, Any]) -> bool:
    return "annotation_id" in record and "annotator" in record and "data" not in record


def _sniff(record: Mapping[str, Any]) -> bool:
    if _is_min(record):
        return True
    return isinstance(record.get("data"), Mapping) and any(
        isinstance(record.get(k), list) for k in ("annotations", "completions", "predictions")
    )


def _ratings(export: Export, options: Options, skipped: Counter[str]) -> Iterator[Rating]:
    for n, record in enumerate(export.records, 1):
        if _is_min(record):
            yield from _min_record(export, n, record, options)
        elif isinstance(record.get("data"), Mapping):
            yield from _task(export, n, record, options, skipped)
        else:
            raise KappaFrameError(
                f"{export.name}: record {n} is neither a Label Studio task (with data and "
                f"annotations) nor a JSON-MIN record (with annotator and annotation_id); its "
                f"keys: {keys_of(record)}."
            )


def _task(
    export: Export, n: int, task: Mapping[str, Any], options: Options, skipped: Counter[str]
) -> Iterator[Rating]:
    item = task.get("id")
    if item is None:
        raise KappaFrameError(
            f"{export.name}: task {n} has no id; Label Studio exports each task with its id, "
            "which names the item."
        )
    where = f"{export.name}, task {item!r}"
    data = flat(task["data"])
    annotations = task.get("annotations", task.get("completions")) or []
    for annotation in annotations:
        if not isinstance(annotation, Mapping):
            raise KappaFrameError(
                f"{where}: the annotations are ids ({annotation!r}), not annotations; export "
                "the project as JSON with its annotations."
            )
        if annotation.get("was_cancelled") or annotation.get("skipped"):
            skipped["cancelled annotations"] += 1
            continue
        rater = _annotator(annotation.get("completed_by"), where)
        yield from _results(annotation.get("result") or [], item, rater, data, where, options)
    if not options.predictions:
        return
    for prediction in task.get("predictions") or []:
        if not isinstance(prediction, Mapping):
            raise KappaFrameError(
                f"{where}: the predictions are ids ({prediction!r}), not predictions; export "
                "with complete predictions, or read without predictions=True."
            )
        rater = prediction.get("model_version") or "prediction"
        yield from _results(prediction.get("result") or [], item, rater, data, where, options)


def _annotator(who: Any, where: str) -> Hashable:
    """The rater of an annotation: the user's id, or the email of the user object."""
    if isinstance(who, Mapping):
        who = who.get("email") or who.get("id")
    if who is None or not is_scalar(who):
        raise KappaFrameError(
            f"{where}: an annotation has no completed_by ({who!r}), so its rater is unknown; "
            "export the project with its annotators."
        )
    return who


def _results(
    results: Sequence[Mapping[str, Any]],
    item: Hashable,
    rater: Hashable,
    data: Mapping[str, Any],
    where: str,
    options: Options,
) -> Iterator[Rating]:
    seen: set[str] = set()
    for result in results:
        name = result.get("from_name")
        kind = str(result.get("type", "")).lower()
        value = result.get("value") or {}
        if name is None:
            if options.fields is not None:
                continue
            raise not_choices(where, str(kind), _WHAT.get(kind, f"{kind} results"), _SUPPORTED)
        name = str(name)
        if not options.wants(name):
            continue
        if kind == "choices" and isinstance(value.get("choices"), list):
            answer, choice = tuple(value["choices"]), True
        elif kind == "rating" and is_scalar(value.get("rating")):
            answer, choice = (value["rating"],), False
        else:
            raise not_choices(where, name, _WHAT.get(kind, f"{kind} results"), _SUPPORTED)
        if name in seen:
            raise KappaFrameError(
                f"{where}: field {name!r} has two results in one annotation by {rater!r} "
                "(choices per region?); kappaframe reads one answer per field of a task."
            )
        seen.add(name)
        yield Rating(item, rater, name, answer, choice, data)


def _min_record(
    export: Export, n: int, record: Mapping[str, Any], options: Options
) -> Iterator[Rating]:
    if options.fields is None:
        candidates = ", ".join(repr(k) for k in record if k not in _MIN_KEYS) or "none"
        raise KappaFrameError(
            f"{export.name} is a Label Studio JSON-MIN export, which does not say which of "
            f"its keys are answers and which are the task's data ({candidates}): name the "
            f"choice fields with {arg('fields', ...)}, or export the project as JSON, which "
            "says.",
            option="fields",
        )
    item = record.get("id")
    where = f"{export.name}, record {n} (task {item!r})"
    if item is None:
        raise KappaFrameError(f"{where}: no id, which names the task.")
    rater = _annotator(record.get("annotator"), where)
    data = flat({k: v for k, v in record.items() if k not in _MIN_KEYS | options.fields})
    for name, value in record.items():
        if name in _MIN_KEYS or not options.wants(str(name)) or value is None:
            continue
        yield _min_answer(where, str(name), value, item, rater, data)


def _min_answer(
    where: str, name: str, value: Any, item: Hashable, rater: Hashable, data: Mapping[str, Any]
) -> Rating:
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], Mapping):
        value = value[0]  # a rating, as the converter writes it: [{"rating": 4}]
    if is_scalar(value):
        return Rating(item, rater, name, (value,), True, data)
    if isinstance(value, Mapping):
        if isinstance(value.get("choices"), list):
            return Rating(item, rater, name, tuple(value["choices"]), True, data)
        if is_scalar(value.get("rating")):
            return Rating(item, rater, name, (value["rating"],), False, data)
        if "text" in value:
            raise not_choices(where, name, _WHAT["textarea"], _SUPPORTED)
        what = f"an object with keys {keys_of(value)}"
    else:
        what = "a list of regions (spans, boxes)" if value else "an empty list"
    raise not_choices(where, name, what, _SUPPORTED)


TOOL = Tool(
    name="label-studio",
    title="Label Studio JSON or JSON-MIN export",
    looks="Label Studio (JSON: tasks with data and annotations; JSON-MIN: records with "
    "annotator and annotation_id)",
    sniff=_sniff,
    ratings=_ratings,
)


def label_studio_tasks(
    queue: Any,
    *,
    raters: Sequence[Hashable],
    item: Hashable = "item",
    data: Sequence[Hashable] | None = None,
    from_name: str = "label",
    to_name: str = "text",
) -> list[dict[str, Any]]:
    """Label Studio tasks of a queue, each rater's label as a prediction (JSON-ready).

    One task per row of ``queue``: ``{"data": {...}, "predictions": [...]}``, the import
    format of Label Studio (Basic Label Studio JSON with pre-annotations). Each rater's
    label is a prediction whose ``model_version`` is the rater, with one ``choices``
    result (``from_name``, ``to_name``, ``value.choices``): the adjudicator sees every
    rater's answer and picks one. A set of labels gives several choices; a missing label
    no prediction. Choices are text (Label Studio's ``<Choice value="...">``).

    Parameters
    ----------
    queue : pandas.DataFrame
        One row per item.
    raters : list of hashable
        The columns holding each rater's label.
    item : hashable, default "item"
        The item id column, always kept in ``data``.
    data : list of hashable, optional
        The columns copied into each task's ``data`` (the labeling configuration refers to
        them as ``$name``, e.g. ``<Text name="text" value="$text"/>``); default: every
        column but the raters'. Values are JSON (NaN as null, sets as sorted lists).
    from_name, to_name : str, default "label", "text"
        The names of the ``<Choices>`` control tag and of the object tag it labels, as in
        the project's labeling configuration
        (``<Choices name="label" toName="text">``).

    Returns
    -------
    list of dict
        Write them with ``json.dump`` as one JSON array and import the file.
    """
    raters = check_queue(queue, item, raters, list(data or ()))
    if data is None:
        data = [c for c in queue.columns if c not in raters]
    keep = list(dict.fromkeys([item, *data]))
    columns = {c: queue[c].tolist() for c in [*keep, *raters]}
    tasks: list[dict[str, Any]] = []
    for i in range(len(queue)):
        predictions = []
        for j, rater in enumerate(raters):
            label = columns[rater][i]
            if is_missing(label):
                continue
            result = {
                "id": f"kf{i}-{j}",
                "from_name": from_name,
                "to_name": to_name,
                "type": "choices",
                "value": {"choices": choices(label)},
            }
            predictions.append({"model_version": str(rater), "result": [result]})
        task_data = {str(c): json_value(columns[c][i]) for c in keep}
        tasks.append({"data": task_data, "predictions": predictions})
    return tasks
