"""The annotation tools' files: Label Studio, Prodigy and doccano exports in, the queue out.

The fixtures are written in the shapes the tools export, after their documentation:
Label Studio's JSON export ("Label Studio JSON format of annotated tasks") and the JSON-MIN
records of label-studio-converter; Prodigy's ``db-out`` lines (the "Annotation interfaces"
task formats, with ``answer`` and the hashes); doccano's per-member JSONL files and the zip
of them (``data_export``: ``{"id", "text", "label": [...]}``).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import zipfile
from pathlib import Path
from typing import Any, get_args

import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli
from kappaframe._io.formats import INPUT_FORMATS, TOOL_FORMATS
from kappaframe._io.tools.label_studio import label_studio_tasks
from kappaframe._io.tools.prodigy import prodigy_lines
from kappaframe._io.tools.registry import TOOLS
from kappaframe._types import AnnotationTool

# ---------------------------------------------------------------------------- fixtures


def ls_result(field: str, *choices: str, kind: str = "choices", rid: str = "r") -> dict:
    return {
        "id": rid,
        "from_name": field,
        "to_name": "text",
        "type": kind,
        "origin": "manual",
        "value": {"choices": list(choices)},
    }


def ls_annotation(aid: int, user: Any, *results: dict, cancelled: bool = False) -> dict:
    return {
        "id": aid,
        "completed_by": user,
        "result": list(results),
        "was_cancelled": cancelled,
        "ground_truth": False,
        "created_at": "2024-03-09T22:16:08.728353Z",
        "updated_at": "2024-03-09T22:16:08.728378Z",
        "lead_time": 4.288,
        "prediction": {},
        "result_count": 0,
        "task": aid // 10,
    }


def ls_task(tid: int, text: str, *annotations: dict, predictions: Any = ()) -> dict:
    return {
        "id": tid,
        "annotations": list(annotations),
        "file_upload": "reviews.csv",
        "drafts": [],
        "predictions": list(predictions),
        "data": {"text": text, "meta": {"source": "web" if tid % 2 else "app"}},
        "meta": {},
        "created_at": "2024-03-09T21:52:49.513742Z",
        "updated_at": "2024-03-09T22:16:08.746926Z",
        "inner_id": tid,
        "total_annotations": len(annotations),
        "cancelled_annotations": 0,
        "project": 83,
    }


#: Three reviews, users 1 and 2 (user 2 exported as an object with an email), a
#: cancelled annotation by user 3, a multi-choice "topic" field on the first task.
LS_EXPORT = [
    ls_task(
        1,
        "Great food, fair price.",
        ls_annotation(
            11,
            1,
            ls_result("sentiment", "Positive"),
            ls_result("topic", "food", "price", rid="t"),
        ),
        ls_annotation(12, {"id": 2, "email": "bo@example.org"}, ls_result("sentiment", "Positive")),
        ls_annotation(13, 3, cancelled=True),
    ),
    ls_task(
        2,
        "Cold and late.",
        ls_annotation(21, 1, ls_result("sentiment", "Negative"), ls_result("topic", "food")),
        ls_annotation(22, {"id": 2, "email": "bo@example.org"}, ls_result("sentiment", "Neutral")),
    ),
    ls_task(
        3,
        "Fine.",
        ls_annotation(31, 1, ls_result("sentiment", "Neutral")),
        ls_annotation(32, {"id": 2, "email": "bo@example.org"}, ls_result("sentiment", "Neutral")),
    ),
]


def one_field(export: list[dict], field: str = "sentiment") -> list[dict]:
    """The export with only ``field``'s results (what a one-question project exports)."""
    out = json.loads(json.dumps(export))
    for task in out:
        for annotation in task["annotations"]:
            annotation["result"] = [r for r in annotation["result"] if r["from_name"] == field]
    return out


#: label-studio-converter's JSON-MIN: the task's data keys, id, one key per control tag
#: (one choice as text, several as {"choices": [...]}, a rating as [{"rating": n}]).
LS_MIN = [
    {
        "text": "Great food, fair price.",
        "id": 1,
        "sentiment": "Positive",
        "topic": {"choices": ["food", "price"]},
        "stars": [{"rating": 5}],
        "annotator": 1,
        "annotation_id": 11,
        "created_at": "2024-03-09T22:16:08.728353Z",
        "updated_at": "2024-03-09T22:16:08.728378Z",
        "lead_time": 4.2,
    },
    {
        "text": "Great food, fair price.",
        "id": 1,
        "sentiment": "Positive",
        "stars": [{"rating": 4}],
        "annotator": "bo@example.org",
        "annotation_id": 12,
        "created_at": "2024-03-09T22:17:08.728353Z",
        "updated_at": "2024-03-09T22:17:08.728378Z",
        "lead_time": 3.1,
    },
    {
        "text": "Cold and late.",
        "id": 2,
        "sentiment": "Negative",
        "topic": "food",
        "annotator": 1,
        "annotation_id": 21,
        "created_at": "2024-03-09T22:18:08.728353Z",
        "updated_at": "2024-03-09T22:18:08.728378Z",
        "lead_time": 2.0,
    },
]


def prodigy_binary(ih: int, text: str, label: str, answer: str, who: str) -> dict:
    return {
        "text": text,
        "label": label,
        "meta": {"source": "news"},
        "_input_hash": ih,
        "_task_hash": ih * 31 + len(label),
        "_is_binary": True,
        "_view_id": "classification",
        "answer": answer,
        "_timestamp": 1700000000,
        "_annotator_id": f"headlines-{who}",
        "_session_id": f"headlines-{who}",
    }


PRODIGY_OPTIONS = [{"id": "POS", "text": "positive"}, {"id": "NEG", "text": "negative"}]


def prodigy_choice(
    ih: int, text: str, accept: list[str], answer: str, who: str, **extra: Any
) -> dict:
    return {
        "text": text,
        "options": PRODIGY_OPTIONS,
        "_input_hash": ih,
        "_task_hash": ih * 7,
        "_view_id": "choice",
        "config": {"choice_style": "single"},
        "accept": accept,
        "answer": answer,
        "_timestamp": 1700000000,
        "_annotator_id": f"reviews-{who}",
        "_session_id": f"reviews-{who}",
        **extra,
    }


PRODIGY_BINARY = [
    prodigy_binary(-101, "Team wins cup", "SPORTS", "accept", "alice"),
    prodigy_binary(-101, "Team wins cup", "SPORTS", "accept", "bob"),
    prodigy_binary(-102, "Budget passes", "SPORTS", "reject", "alice"),
    prodigy_binary(-102, "Budget passes", "SPORTS", "accept", "bob"),
    prodigy_binary(-103, "Rain again", "SPORTS", "ignore", "bob"),
]

PRODIGY_CHOICE = [
    prodigy_choice(1, "Loved it", ["POS"], "accept", "alice"),
    prodigy_choice(1, "Loved it", ["POS"], "accept", "bob"),
    prodigy_choice(2, "Meh", ["NEG"], "accept", "alice"),
    prodigy_choice(2, "Meh", ["POS"], "reject", "bob"),
    prodigy_choice(3, "Awful", [], "ignore", "alice"),
]


def doccano_line(eid: int, text: str, labels: list[str]) -> dict:
    return {"id": eid, "text": text, "label": labels, "Comments": [], "source": "survey"}


DOCCANO = {
    "alice": [
        doccano_line(1, "I love it", ["positive"]),
        doccano_line(2, "Not great", ["negative"]),
        doccano_line(3, "It is a phone", []),
    ],
    "bob": [
        doccano_line(1, "I love it", ["positive"]),
        doccano_line(2, "Not great", ["positive"]),
        doccano_line(3, "It is a phone", ["neutral"]),
    ],
}


def write_json(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------------- registry


def test_the_registry_lists_every_tool_once_and_the_formats_name_them() -> None:
    assert tuple(TOOLS) == get_args(AnnotationTool) == TOOL_FORMATS
    assert set(TOOL_FORMATS) <= set(INPUT_FORMATS)
    assert all(name == tool.name for name, tool in TOOLS.items())


# ---------------------------------------------------------------------------- Label Studio


def test_label_studio_json_export_is_the_long_frame(tmp_path: Path) -> None:
    path = write_json(tmp_path / "project-83-at-2024.json", LS_EXPORT)
    before = digest(path)
    res = kf.read_annotations(path)
    assert digest(path) == before
    assert list(res.columns) == ["item", "rater", "field", "label", "data.text", "data.meta.source"]
    sentiment = res[res["field"] == "sentiment"]
    assert sentiment[["item", "rater", "label"]].to_numpy().tolist() == [
        [1, 1, "Positive"],
        [1, "bo@example.org", "Positive"],
        [2, 1, "Negative"],
        [2, "bo@example.org", "Neutral"],
        [3, 1, "Neutral"],
        [3, "bo@example.org", "Neutral"],
    ]
    # user 3's cancelled annotation is no label
    assert 3 not in set(res["rater"])
    # one answer with two topics: the field's labels are sets, never one of the two
    topic = res[res["field"] == "topic"]
    assert topic["label"].tolist() == [frozenset({"food", "price"}), frozenset({"food"})]
    assert res.loc[res["item"] == 2, "data.meta.source"].unique().tolist() == ["app"]
    # file order: task by task, annotation by annotation, result by result
    assert res["field"].tolist()[:3] == ["sentiment", "topic", "sentiment"]


def test_label_studio_export_through_pairwise_and_by_field(tmp_path: Path) -> None:
    path = write_json(tmp_path / "export.json", one_field(LS_EXPORT))
    res = kf.pairwise(path, item="item", rater="rater", label="label", min_items=0)
    frame = kf.read_annotations(path)
    by = {
        r: dict(zip(g["item"], g["label"], strict=True))
        for r, g in frame.groupby("rater", sort=False)
    }
    one, bo = ([by[r][i] for i in (1, 2, 3)] for r in (1, "bo@example.org"))
    expected = kf.cohen_kappa(one, bo)
    assert 0 < expected < 1
    assert res["n"].tolist() == [3]
    assert res["kappa"].iloc[0] == pytest.approx(expected)
    grouped = kf.pairwise(
        frame, item="item", rater="rater", label="label", by="data.meta.source", min_items=0
    )
    assert grouped["data.meta.source"].tolist() == ["app", "web"]


def test_fields_of_different_kinds_are_read_apart_for_agreement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_json(tmp_path / "export.json", LS_EXPORT)
    long = {"item": "item", "rater": "rater", "label": "label"}
    with pytest.raises(kf.KappaFrameError) as err:
        kf.pairwise(path, **long, by="field")
    assert "'sentiment' (text), 'topic' (sets of labels)" in str(err.value)
    assert "kf.read_annotations(path, fields=[...])" in str(err.value)
    flags = ["--item", "item", "--rater", "rater", "--label", "label", "--by", "field"]
    assert cli.main(["report", str(path), *flags]) == 2
    assert "with --fields ..." in capsys.readouterr().err
    res = kf.pairwise(kf.read_annotations(path, fields="sentiment"), **long, min_items=0)
    assert res["n"].tolist() == [3]


def test_label_studio_before_1_0_wrote_completions(tmp_path: Path) -> None:
    old = one_field(LS_EXPORT)
    for task in old:
        task["completions"] = task.pop("annotations")
    res = kf.read_annotations(write_json(tmp_path / "old.json", old))
    assert len(res) == 6 and "field" not in res


def test_label_studio_rating_fields_are_numbers(tmp_path: Path) -> None:
    def stars(n: int) -> dict:
        return {"from_name": "stars", "to_name": "text", "type": "rating", "value": {"rating": n}}

    tasks = [ls_task(1, "a", ls_annotation(11, 1, stars(4)), ls_annotation(12, 2, stars(5)))]
    res = kf.read_annotations(write_json(tmp_path / "stars.json", tasks))
    assert res["label"].tolist() == [4, 5]
    assert pd.api.types.is_integer_dtype(res["label"])


def test_label_studio_spans_and_text_areas_are_named_and_skipped_with_fields(
    tmp_path: Path,
) -> None:
    span = {
        "from_name": "entities",
        "to_name": "text",
        "type": "labels",
        "value": {"start": 0, "end": 5, "text": "Great", "labels": ["ORG"]},
    }
    note = {
        "from_name": "comment",
        "to_name": "text",
        "type": "textarea",
        "value": {"text": ["ok"]},
    }
    tasks = one_field(LS_EXPORT)
    tasks[0]["annotations"][0]["result"] += [span, note]
    path = write_json(tmp_path / "mixed.json", tasks)
    with pytest.raises(kf.KappaFrameError, match=r"field 'entities' holds labels results \(spans"):
        kf.read_annotations(path)
    with pytest.raises(kf.KappaFrameError, match=r"fields=\[\.\.\.\]"):
        kf.read_annotations(path)
    res = kf.read_annotations(path, fields=["sentiment"])
    assert len(res) == 6 and set(res.columns) >= {"item", "rater", "label"}
    with pytest.raises(kf.KappaFrameError, match=r"field 'comment' holds textarea results"):
        kf.read_annotations(path, fields=["sentiment", "comment"])
    with pytest.raises(kf.KappaFrameError, match=r"its fields: 'sentiment', 'entities'"):
        kf.read_annotations(path, fields="mood")


def test_label_studio_choices_per_region_are_refused(tmp_path: Path) -> None:
    tasks = one_field(LS_EXPORT)
    tasks[0]["annotations"][0]["result"].append(ls_result("sentiment", "Negative", rid="r2"))
    with pytest.raises(kf.KappaFrameError, match="two results in one annotation"):
        kf.read_annotations(write_json(tmp_path / "regions.json", tasks))


def test_label_studio_predictions_are_raters_when_asked(tmp_path: Path) -> None:
    tasks = one_field(LS_EXPORT)
    tasks[1]["predictions"] = [
        {
            "id": 7,
            "model_version": "bert-v2",
            "score": 0.9,
            "result": [ls_result("sentiment", "Negative")],
        }
    ]
    path = write_json(tmp_path / "with-predictions.json", tasks)
    assert "bert-v2" not in set(kf.read_annotations(path)["rater"])
    res = kf.read_annotations(path, predictions=True)
    assert res[res["rater"] == "bert-v2"][["item", "label"]].to_numpy().tolist() == [
        [2, "Negative"]
    ]
    tasks[1]["predictions"] = [7]  # exported as ids only
    with pytest.raises(kf.KappaFrameError, match="predictions are ids"):
        kf.read_annotations(write_json(path, tasks), predictions=True)


def test_label_studio_json_min_needs_its_fields_named(tmp_path: Path) -> None:
    path = write_json(tmp_path / "min.json", LS_MIN)
    with pytest.raises(kf.KappaFrameError, match="JSON-MIN") as err:
        kf.read_annotations(path)
    assert "'text', 'sentiment', 'topic', 'stars'" in str(err.value)
    assert "fields=[...]" in str(err.value)
    res = kf.read_annotations(path, fields=["sentiment", "topic", "stars"])
    assert list(res.columns) == ["item", "rater", "field", "label", "data.text"]
    by_field = {f: g["label"].tolist() for f, g in res.groupby("field", sort=False)}
    assert by_field == {
        "sentiment": ["Positive", "Positive", "Negative"],
        "topic": [frozenset({"food", "price"}), frozenset({"food"})],
        "stars": [5, 4],
    }
    assert res["rater"].tolist()[:4] == [1, 1, 1, "bo@example.org"]
    one = kf.read_annotations(path, fields="sentiment")
    assert "field" not in one and one["data.text"].iloc[0] == "Great food, fair price."


def test_multiple_decides_whether_answers_are_sets(tmp_path: Path) -> None:
    path = write_json(tmp_path / "export.json", LS_EXPORT)
    sets = kf.read_annotations(path, multiple=True)
    assert set(map(type, sets["label"])) == {frozenset}
    with pytest.raises(kf.KappaFrameError, match=r"chose 2 labels .* field 'topic' of item 1"):
        kf.read_annotations(path, multiple=False)
    single = kf.read_annotations(path, fields=["sentiment"], multiple=False)
    assert set(map(type, single["label"])) == {str}
    with pytest.raises(kf.KappaFrameError, match="multiple must be one of"):
        kf.read_annotations(path, multiple="yes")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- Prodigy


def test_prodigy_binary_answers_are_the_labels(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "headlines.jsonl", PRODIGY_BINARY)
    res = kf.read_annotations(path)
    assert list(res.columns) == ["item", "rater", "label", "data.text", "data.meta.source"]
    assert res[["item", "rater", "label"]].to_numpy().tolist() == [
        [-101, "headlines-alice", "accept"],
        [-101, "headlines-bob", "accept"],
        [-102, "headlines-alice", "reject"],
        [-102, "headlines-bob", "accept"],
    ]  # the ignored task is no label


def test_prodigy_binary_labels_are_fields(tmp_path: Path) -> None:
    lines = [*PRODIGY_BINARY, prodigy_binary(-101, "Team wins cup", "POLITICS", "reject", "bob")]
    res = kf.read_annotations(write_jsonl(tmp_path / "two-labels.jsonl", lines))
    assert res["field"].tolist() == ["SPORTS"] * 4 + ["POLITICS"]
    only = kf.read_annotations(tmp_path / "two-labels.jsonl", fields=["POLITICS"])
    assert only["label"].tolist() == ["reject"]


def test_prodigy_choice_tasks(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "reviews.jsonl", PRODIGY_CHOICE)
    res = kf.read_annotations(path, tool="prodigy")
    # bob rejected item 2 (the options do not fit): no label; the ignored task neither
    assert res[["item", "rater", "label"]].to_numpy().tolist() == [
        [1, "reviews-alice", "POS"],
        [1, "reviews-bob", "POS"],
        [2, "reviews-alice", "NEG"],
    ]
    multi = [
        prodigy_choice(
            1, "Loved it", ["POS"], "accept", "alice", config={"choice_style": "multiple"}
        ),
        prodigy_choice(
            1, "Loved it", ["POS", "NEG"], "accept", "bob", config={"choice_style": "multiple"}
        ),
        prodigy_choice(2, "Meh", [], "accept", "bob", config={"choice_style": "multiple"}),
    ]
    sets = kf.read_annotations(write_jsonl(tmp_path / "multi.jsonl", multi))
    assert sets["label"].tolist() == [
        frozenset({"POS"}),
        frozenset({"POS", "NEG"}),
        frozenset(),  # "none of these" is an answer when several may be chosen
    ]


def test_prodigy_rater_falls_back_to_the_session_then_the_file_name(tmp_path: Path) -> None:
    lines = [dict(r) for r in PRODIGY_BINARY[:2]]
    del lines[0]["_annotator_id"]
    del lines[1]["_annotator_id"], lines[1]["_session_id"]
    res = kf.read_annotations(write_jsonl(tmp_path / "carol.jsonl", lines))
    assert res["rater"].tolist() == ["headlines-alice", "carol"]
    gz = tmp_path / "dave.jsonl.gz"
    gz.write_bytes(gzip.compress(b"".join(json.dumps(r).encode() + b"\n" for r in lines)))
    assert kf.read_annotations(gz)["rater"].tolist() == ["headlines-alice", "dave"]


def test_prodigy_spans_are_refused(tmp_path: Path) -> None:
    ner = {
        "text": "Apple buys a shop",
        "spans": [{"start": 0, "end": 5, "label": "ORG"}],
        "_input_hash": 5,
        "_task_hash": 6,
        "_view_id": "ner_manual",
        "answer": "accept",
        "_session_id": "ner-alice",
    }
    path = write_jsonl(tmp_path / "ner.jsonl", [PRODIGY_CHOICE[0], ner])
    with pytest.raises(kf.KappaFrameError, match=r"line 2: a ner_manual task \(spans"):
        kf.read_annotations(path)
    assert len(kf.read_annotations(path, fields=["accept"])) == 1


# ---------------------------------------------------------------------------- doccano


def doccano_files(folder: Path) -> list[Path]:
    folder.mkdir(exist_ok=True)
    return [write_jsonl(folder / f"{who}.jsonl", lines) for who, lines in DOCCANO.items()]


def test_doccano_member_files_name_the_raters(tmp_path: Path) -> None:
    files = doccano_files(tmp_path / "export")
    res = kf.read_annotations(files)
    assert list(res.columns) == ["item", "rater", "label", "data.text", "data.source"]
    assert res[["item", "rater", "label"]].to_numpy().tolist() == [
        [1, "alice", "positive"],
        [2, "alice", "negative"],
        [1, "bob", "positive"],
        [2, "bob", "positive"],
        [3, "bob", "neutral"],
    ]  # alice left example 3 unlabelled: not rated by her
    folder = kf.read_annotations(tmp_path / "export")
    glob = kf.read_annotations(str(tmp_path / "export" / "*.jsonl"))
    pd.testing.assert_frame_equal(folder, res)
    pd.testing.assert_frame_equal(glob, res)
    via_pairwise = kf.pairwise(
        str(tmp_path / "export" / "*.jsonl"), item="item", rater="rater", label="label"
    )
    assert via_pairwise["n"].tolist() == [2]


def test_doccano_zip_as_downloaded(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for who, lines in DOCCANO.items():
            archive.writestr(f"{who}.jsonl", "".join(json.dumps(r) + "\n" for r in lines))
    path = tmp_path / "project-export.zip"
    path.write_bytes(buffer.getvalue())
    res = kf.read_annotations(path)
    assert res["rater"].tolist() == ["alice", "alice", "bob", "bob", "bob"]


def test_doccano_multi_label_and_old_exports(tmp_path: Path) -> None:
    lines = [
        doccano_line(1, "Cheap and fast", ["price", "speed"]),
        doccano_line(2, "Slow", ["speed"]),
    ]
    res = kf.read_annotations(write_jsonl(tmp_path / "carol.jsonl", lines))
    assert res["label"].tolist() == [frozenset({"price", "speed"}), frozenset({"speed"})]
    # doccano before 1.5: the label ids and their user, in "annotations"
    old = [
        {
            "id": 7,
            "text": "Fine",
            "annotations": [{"label": 3, "user": 1}, {"label": 4, "user": 2}],
            "meta": {"batch": "a"},
            "annotation_approver": None,
        }
    ]
    res = kf.read_annotations(write_jsonl(tmp_path / "old.jsonl", old), tool="doccano")
    assert res[["item", "rater", "label", "data.meta.batch"]].to_numpy().tolist() == [
        [7, 1, 3, "a"],
        [7, 2, 4, "a"],
    ]


def test_doccano_collaborative_export_and_spans_are_refused(tmp_path: Path) -> None:
    merged = write_jsonl(tmp_path / "all.jsonl", DOCCANO["bob"])
    with pytest.raises(kf.KappaFrameError, match="collaborative export"):
        kf.read_annotations(merged)
    spans = [{"id": 1, "text": "EU rejects German call", "label": [[0, 2, "ORG"]]}]
    with pytest.raises(kf.KappaFrameError, match=r"field 'label' holds spans"):
        kf.read_annotations(write_jsonl(tmp_path / "ner.jsonl", spans))


# ---------------------------------------------------------------------------- bad input


def test_unknown_content_names_what_was_seen_and_the_tools(tmp_path: Path) -> None:
    path = write_json(tmp_path / "other.json", [{"question": 1, "who": "a", "grade": 3}])
    with pytest.raises(kf.KappaFrameError) as err:
        kf.read_annotations(path)
    message = str(err.value)
    assert "question, who, grade" in message
    assert all(name in message for name in ("Label Studio", "Prodigy", "doccano", "tool="))
    with pytest.raises(
        kf.KappaFrameError, match=r"not a Prodigy db-out JSONL: .* looks like a Label"
    ):
        kf.read_annotations(write_json(tmp_path / "ls.json", LS_EXPORT), tool="prodigy")
    with pytest.raises(kf.KappaFrameError, match="tool must be one of"):
        kf.read_annotations(path, tool="labelbox")  # type: ignore[arg-type]


def test_exports_without_annotations_are_refused(tmp_path: Path) -> None:
    with pytest.raises(kf.KappaFrameError, match="holds no annotations"):
        kf.read_annotations(write_json(tmp_path / "empty.json", []))
    unannotated = [ls_task(1, "a"), ls_task(2, "b", ls_annotation(21, 1, cancelled=True))]
    with pytest.raises(kf.KappaFrameError, match=r"holds no labels.*1 cancelled annotations"):
        kf.read_annotations(write_json(tmp_path / "tasks.json", unannotated))
    ignored = [prodigy_binary(1, "x", "A", "ignore", "a")]
    with pytest.raises(kf.KappaFrameError, match=r"no labels.*1 ignored"):
        kf.read_annotations(write_jsonl(tmp_path / "ignored.jsonl", ignored))


def test_broken_json_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps(PRODIGY_CHOICE[0]) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(kf.KappaFrameError, match=r"broken.jsonl: not valid JSON at line 2"):
        kf.read_annotations(path, tool="prodigy")


def test_plain_json_files_are_still_the_file_readers(tmp_path: Path) -> None:
    ratings = [
        {"item": i, "rater": r, "label": lab}
        for i, (a, b) in enumerate([("x", "x"), ("y", "x"), ("y", "y")])
        for r, lab in (("a", a), ("b", b))
    ]
    jsonl = write_jsonl(tmp_path / "ratings.jsonl", ratings)
    res = kf.pairwise(jsonl, item="item", rater="rater", label="label", min_items=0)
    assert res["n"].tolist() == [3]
    with pytest.raises(kf.KappaFrameError, match="JSON array"):
        kf.pairwise(
            write_json(tmp_path / "ratings.json", ratings),
            item="item",
            rater="rater",
            label="label",
        )


# ---------------------------------------------------------------------------- command line


def test_report_reads_an_export_by_its_content_or_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_json(tmp_path / "export.json", one_field(LS_EXPORT))
    out = tmp_path / "agreement.csv"
    long = ["--item", "item", "--rater", "rater", "--label", "label", "--min-items", "0"]
    assert cli.main(["report", str(path), *long, "-o", str(out)]) == 0
    expected = kf.pairwise(path, item="item", rater="rater", label="label", min_items=0)
    assert pd.read_csv(out)["kappa"].tolist() == pytest.approx(expected["kappa"].tolist())
    # a name that does not say it: --input-format names the tool
    renamed = tmp_path / "labels.txt"
    renamed.write_bytes(path.read_bytes())
    assert cli.main(["report", str(renamed), "--input-format", "label-studio", *long]) == 0
    assert "bo@example.org" in capsys.readouterr().out
    # --fields picks the choice field of a project with several, --by groups by task data
    several = write_json(tmp_path / "several.json", LS_EXPORT)
    argv = ["report", str(several), *long, "--fields", "sentiment", "--by", "data.meta.source"]
    assert cli.main(argv) == 0
    assert "app" in capsys.readouterr().out
    # standard input, sniffed
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    from kappaframe._io import read

    monkeypatch.setattr(read, "_stdin_cache", {})
    assert cli.main(["report", "-", *long, "--stream"]) == 0
    assert "bo@example.org" in capsys.readouterr().out


def test_report_takes_an_export_in_the_long_layout_one_field_at_a_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_json(tmp_path / "one.json", one_field(LS_EXPORT))
    assert cli.main(["report", str(path), "--min-items", "0", "-o", str(tmp_path / "a.csv")]) == 0
    table = pd.read_csv(tmp_path / "a.csv")
    assert table[["rater_a", "rater_b", "n"]].to_numpy().tolist() == [[1, "bo@example.org", 3]]
    # two questions: agreement per question, never pooled
    tasks = one_field(LS_EXPORT)
    for task in tasks:
        for i, annotation in enumerate(task["annotations"]):
            annotation["result"].append(ls_result("urgent", "yes" if i else "no", rid="u"))
    two = write_json(tmp_path / "two.json", tasks)
    assert cli.main(["report", str(two)]) == 2
    err = capsys.readouterr().err
    assert "holds several fields ('sentiment', 'urgent')" in err
    assert "--by field" in err and "--fields ..." in err
    assert cli.main(["report", str(two), "--by", "field", "--min-items", "0"]) == 0
    out = capsys.readouterr().out
    assert "sentiment" in out and "urgent" in out


def test_report_says_what_is_wrong_with_an_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_json(tmp_path / "min.json", LS_MIN)
    long = ["--item", "item", "--rater", "rater", "--label", "label"]
    assert cli.main(["report", str(path), *long]) == 2
    assert "--fields ..." in capsys.readouterr().err
    assert cli.main(["report", str(path), *long, "--fields", "sentiment"]) == 0
    capsys.readouterr()
    csv = tmp_path / "wide.csv"
    csv.write_text("a,b\nx,x\n", encoding="utf-8")
    assert cli.main(["report", str(csv), "--fields", "sentiment"]) == 2
    assert "reads an annotation tool's export" in capsys.readouterr().err
    other = write_json(tmp_path / "other.json", [{"q": 1}])
    assert cli.main(["report", str(other), "--input-format", "doccano", *long]) == 2
    assert "other.json is not a doccano JSONL export" in capsys.readouterr().err
    assert cli.main(["report", str(other), *long]) == 2  # a plain JSON array, not a tool's
    assert "nested" not in capsys.readouterr().err
    dup = one_field(LS_EXPORT)
    dup[0]["annotations"].append(ls_annotation(14, 1, ls_result("sentiment", "Negative")))
    assert cli.main(["report", str(write_json(tmp_path / "dup.json", dup)), *long]) == 2
    assert "two of the ratings read from dup.json" in capsys.readouterr().err


# ---------------------------------------------------------------------------- queue writers

#: The queue the items table gives: one row per item, each rater's label beside.
QUEUE = pd.DataFrame(
    {
        "item": [2, 1, 3],
        "text": ["Cold and late.", "Great food, fair price.", "Fine."],
        "consensus": [None, "Positive", "Neutral"],
        "p_i": [0.0, 1.0, 1.0],
        "ann": ["Negative", "Positive", "Neutral"],
        "bo": ["Neutral", "Positive", None],
    }
)

#: Label Studio's import format with pre-annotations, as its documentation describes it
#: ("Import pre-annotated data": tasks with data and predictions; a prediction's result
#: items with id, from_name, to_name, type and value).
LS_IMPORT_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["data"],
        "properties": {
            "data": {"type": "object", "minProperties": 1},
            "predictions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["result"],
                    "properties": {
                        "model_version": {"type": "string"},
                        "score": {"type": "number"},
                        "result": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["from_name", "to_name", "type", "value"],
                                "properties": {
                                    "id": {"type": "string"},
                                    "from_name": {"type": "string"},
                                    "to_name": {"type": "string"},
                                    "type": {"const": "choices"},
                                    "value": {
                                        "type": "object",
                                        "required": ["choices"],
                                        "properties": {
                                            "choices": {
                                                "type": "array",
                                                "items": {"type": "string"},
                                                "minItems": 1,
                                            }
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}

#: Prodigy's choice task format ("Annotation interfaces": choice): text, options with id
#: and text, accept (the ids chosen in advance), meta shown in the card's corner, config.
PRODIGY_TASK_SCHEMA = {
    "type": "object",
    "required": ["text", "options"],
    "properties": {
        "text": {"type": "string"},
        "options": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["id", "text"],
                "properties": {"id": {"type": ["string", "integer"]}, "text": {"type": "string"}},
            },
        },
        "accept": {"type": "array", "items": {"type": ["string", "integer"]}},
        "meta": {
            "type": "object",
            "additionalProperties": {"type": ["string", "number", "boolean", "null"]},
        },
        "config": {
            "type": "object",
            "properties": {"choice_style": {"enum": ["single", "multiple"]}},
        },
    },
}


def validate(instance: Any, schema: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(instance, schema)


def test_label_studio_tasks_validate_and_read_back(tmp_path: Path) -> None:
    before = QUEUE.copy()
    tasks = label_studio_tasks(QUEUE, raters=["ann", "bo"], data=["text", "p_i"])
    pd.testing.assert_frame_equal(QUEUE, before)
    text = json.dumps(tasks)  # JSON-ready: no NumPy scalars, no NaN
    validate(json.loads(text), LS_IMPORT_SCHEMA)
    assert tasks[0]["data"] == {"item": 2, "text": "Cold and late.", "p_i": 0.0}
    assert [p["model_version"] for p in tasks[2]["predictions"]] == ["ann"]  # bo: missing
    ids = [r["id"] for t in tasks for p in t["predictions"] for r in p["result"]]
    assert len(ids) == len(set(ids))
    # Label Studio gives the imported tasks ids; its export then reads back as the queue
    exported = [{"id": 100 + i, **task, "annotations": []} for i, task in enumerate(tasks)]
    back = kf.read_annotations(write_json(tmp_path / "back.json", exported), predictions=True)
    long = QUEUE.melt(id_vars="item", value_vars=["ann", "bo"], var_name="rater").dropna()
    got = sorted(zip(back["data.item"], back["rater"], back["label"], strict=True))
    assert got == sorted(zip(long["item"], long["rater"], long["value"], strict=True))


def test_label_studio_tasks_names_and_sets() -> None:
    queue = pd.DataFrame({"item": ["a"], "x": [frozenset({"food", "price"})], "y": [3]})
    tasks = label_studio_tasks(queue, raters=["x", "y"], from_name="topic", to_name="review")
    validate(tasks, LS_IMPORT_SCHEMA)
    results = [p["result"][0] for p in tasks[0]["predictions"]]
    assert [r["value"]["choices"] for r in results] == [["food", "price"], ["3"]]
    assert {(r["from_name"], r["to_name"]) for r in results} == {("topic", "review")}
    assert tasks[0]["data"] == {"item": "a"}
    with pytest.raises(kf.KappaFrameError, match=r"'annie' \(did you mean 'ann'"):
        label_studio_tasks(QUEUE, raters=["annie"])
    with pytest.raises(kf.KappaFrameTypeError, match="list of the queue's rater columns"):
        label_studio_tasks(QUEUE, raters="ann")  # type: ignore[arg-type]


def test_prodigy_lines_validate() -> None:
    lines = prodigy_lines(QUEUE, raters=["ann", "bo"], preselect="consensus")
    text = "".join(json.dumps(line) + "\n" for line in lines)
    for line in text.splitlines():
        validate(json.loads(line), PRODIGY_TASK_SCHEMA)
    first = lines[0]
    assert first["text"] == "Cold and late."
    assert [o["id"] for o in first["options"]] == ["Negative", "Neutral", "Positive"]
    assert first["accept"] == [] and lines[1]["accept"] == ["Positive"]
    assert first["meta"] == {
        "item": 2,
        "ann": "Negative",
        "bo": "Neutral",
        "consensus": None,
        "p_i": 0.0,
    }
    assert "config" not in first
    cats = prodigy_lines(
        QUEUE, raters=["ann"], categories=["Positive", "Neutral", "Negative"], text=None
    )
    assert [o["id"] for o in cats[0]["options"]] == ["Positive", "Neutral", "Negative"]
    assert cats[0]["text"] == "2"
    with pytest.raises(kf.KappaFrameError, match="not among the options"):
        prodigy_lines(QUEUE, raters=["ann"], categories=["Positive"], preselect="consensus")


def test_prodigy_lines_answered_come_back_through_db_out(tmp_path: Path) -> None:
    lines = prodigy_lines(QUEUE, raters=["ann", "bo"], preselect="consensus")
    # what Prodigy adds when an adjudicator answers the tasks: hashes, view, answer, who
    answered = [
        {
            **line,
            "_input_hash": 1000 + i,
            "_task_hash": 2000 + i,
            "_view_id": "choice",
            "answer": "accept",
            "accept": line["accept"] or ["Negative"],
            "_annotator_id": "queue-lead",
            "_session_id": "queue-lead",
        }
        for i, line in enumerate(lines)
    ]
    back = kf.read_annotations(write_jsonl(tmp_path / "adjudicated.jsonl", answered))
    assert back["label"].tolist() == ["Negative", "Positive", "Neutral"]
    assert back["data.meta.item"].tolist() == [2, 1, 3]
    assert back["data.meta.ann"].tolist() == ["Negative", "Positive", "Neutral"]


def test_prodigy_lines_of_sets_choose_several() -> None:
    queue = pd.DataFrame({"item": [1], "text": ["t"], "a": [frozenset({"x", "y"})], "b": ["x"]})
    (line,) = prodigy_lines(queue, raters=["a", "b"], preselect="a")
    validate(line, PRODIGY_TASK_SCHEMA)
    assert line["config"] == {"choice_style": "multiple"}
    assert line["accept"] == ["x", "y"]
    assert line["meta"]["a"] == "x, y"
