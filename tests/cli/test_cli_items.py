"""``kappaframe items``: the items table and the queue, from a file, in every output format."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli, datasets
from kappaframe._report.report import _plain

TEAM = list(datasets.TEAM)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def team_csv(tmp_path: Path) -> Path:
    path = tmp_path / "team.csv"
    _plain(datasets.labeling_team(seed=0)).to_csv(path, index=False)
    return path


def expected(**options: object) -> pd.DataFrame:
    team = datasets.labeling_team(seed=0)
    return kf.items(team, TEAM, by="project", item="item", **options)  # type: ignore[arg-type]


def same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    assert list(got.columns) == list(want.columns)
    assert got["item"].astype(str).tolist() == want["item"].astype(str).tolist()
    for col in ("n_ratings", "n_distinct", "support", "p_i", "entropy"):
        np.testing.assert_allclose(got[col], want[col], rtol=0, atol=1e-12, err_msg=col)
    shown = [c for c in ("consensus", "reference_label", *TEAM) if c in want]
    for col in shown:
        assert got[col].fillna("").astype(str).tolist() == (
            want[col].astype(object).fillna("").astype(str).tolist()
        ), col


def test_the_queue_to_csv_with_its_provenance(
    team_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "queue.csv"
    argv = ["items", str(team_csv), "--by", "project", "--item", "item", "--raters", *TEAM]
    code, _, err = run([*argv, "--disagreements", "--output", str(out)], capsys)
    assert code == 0, err
    got = pd.read_csv(out, keep_default_na=False, na_values=[""])
    same(got, expected(disagreements=True))
    record = json.loads((tmp_path / "queue.csv.provenance.json").read_text())
    assert record["options"]["disagreements"] is True
    assert record["file"]["name"] == "queue.csv"


def test_reference_and_labels_on_stdout(team_csv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["items", str(team_csv), "--by", "project", "--item", "item", "--raters", *TEAM]
    code, out, err = run([*argv, "--reference", "gold", "--labels", "--format", "csv"], capsys)
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out), keep_default_na=False, na_values=[""])
    want = expected(reference="gold", labels=True)
    same(got, want)
    shown = got["correct"].map(lambda v: "" if pd.isna(v) else str(bool(v))).tolist()
    assert shown == want["correct"].map(lambda v: "" if pd.isna(v) else str(v)).tolist()


def test_parquet_keeps_the_record_in_its_metadata(
    team_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "items.parquet"
    argv = ["items", str(team_csv), "--exclude", "item", "model_score", "--by", "project"]
    code, _, err = run([*argv, "-o", str(out)], capsys)
    assert code == 0, err
    table = pq.read_table(out)
    assert b"kappaframe" in table.schema.metadata
    assert not list(tmp_path.glob("*.provenance.json"))
    got = table.to_pandas()
    want = kf.items(datasets.labeling_team(seed=0), [*TEAM, "gold"], by="project")
    np.testing.assert_allclose(got["p_i"], want["p_i"], rtol=0, atol=1e-12)


def test_text_and_markdown(team_csv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["items", str(team_csv), "--item", "item", "--raters", *TEAM, "--min-p", "0.1"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert out.splitlines()[0].split()[:4] == ["item", "n_ratings", "n_distinct", "consensus"]
    code, out, err = run([*argv, "--format", "markdown"], capsys)
    assert code == 0, err
    assert out.startswith("# Items of team.csv") and "| item | n_ratings |" in out


def test_the_long_layout_and_a_numeric_reference_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = pd.DataFrame(
        {
            "doc": ["a", "a", "a", "b", "b", "b"],
            "who": [1, 2, 9, 1, 2, 9],
            "lab": ["x", "x", "x", "x", "y", "y"],
        }
    )
    path = tmp_path / "long.csv"
    long.to_csv(path, index=False)
    argv = ["items", str(path), "--item", "doc", "--rater", "who", "--label", "lab"]
    code, out, err = run([*argv, "--reference", "9", "--format", "csv"], capsys)
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out), keep_default_na=False, na_values=[""])
    assert got["item"].tolist() == ["a", "b"] and got["reference_label"].tolist() == ["x", "y"]
    assert bool(got["correct"].iloc[0]) and pd.isna(got["correct"].iloc[1])  # b: a tie


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--reference", "goldd"], "--reference"),
        (["--ties", "random"], "--seed"),
        (["--seed", "3"], "--ties random"),
        (["--max-iter", "5"], "--consensus dawid-skene"),
        (["--output", "items.html"], "no HTML report"),
        (["--rater", "who"], "--item, --rater and --label"),
    ],
)
def test_errors_name_the_flags(
    flags: list[str], named: str, team_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["items", str(team_csv), "--raters", *TEAM]
    code, _, err = run([*argv, *flags], capsys)
    assert code == 2
    assert err.startswith("kappaframe: error:") and named in err, err


@pytest.mark.parametrize("fmt", ["label-studio", "prodigy"])
def test_the_queue_goes_back_into_the_tool(
    fmt: str, team_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from ..io.test_tools import LS_IMPORT_SCHEMA, PRODIGY_TASK_SCHEMA

    out = tmp_path / f"queue.{fmt}"
    grades = ["bad", "poor", "ok", "good", "great"]
    argv = ["items", str(team_csv), "--item", "item", "--raters", *TEAM, "--disagreements"]
    argv += ["--by", "project", "--categories", *grades]
    code, _, err = run([*argv, "--format", fmt, "-o", str(out)], capsys)
    assert code == 0, err
    text = out.read_text()
    queue = expected(disagreements=True, categories=grades)
    if fmt == "label-studio":
        tasks = json.loads(text)
        jsonschema.validate(tasks, LS_IMPORT_SCHEMA)
        first = tasks[0]
        given = {
            p["model_version"]: p["result"][0]["value"]["choices"] for p in first["predictions"]
        }
        row = queue.iloc[0]
        assert first["data"]["item"] == str(row["item"])  # the most contested item first
        assert given == {r: [row[r]] for r in TEAM if pd.notna(row[r])}
    else:
        tasks = [json.loads(line) for line in text.splitlines() if line]
        for task in tasks:
            jsonschema.validate(task, PRODIGY_TASK_SCHEMA)
        assert [o["id"] for o in tasks[0]["options"]] == grades  # the declared order
        assert tasks[0]["accept"] == []  # nothing chosen for the adjudicator
    assert len(tasks) == len(queue)


def test_a_queue_without_labels_cannot_go_to_a_tool(
    team_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["items", str(team_csv), "--raters", *TEAM, "--disagreements", "--no-labels"]
    code, out, err = run([*argv, "--format", "label-studio"], capsys)
    assert code == 2 and out == ""
    assert "drop --no-labels" in err


QUEUE_CSV = """item,body,ana,ben,cai
1,all agree on d,d,d,d
2,"second, with a comma",a,b,b
3,third text,b,a,c
4,fourth text,a,a,b
"""


@pytest.mark.parametrize("fmt", ["label-studio", "prodigy"])
def test_the_queue_keeps_the_items_text_and_every_category(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ..io.test_tools import LS_IMPORT_SCHEMA, PRODIGY_TASK_SCHEMA, validate

    source = tmp_path / "queue_in.csv"
    source.write_text(QUEUE_CSV)
    out = tmp_path / f"queue.{fmt}"
    argv = ["items", str(source), "--item", "item", "--text", "body", "--disagreements"]
    code, _, err = run([*argv, "--format", fmt, "-o", str(out)], capsys)
    assert code == 0, err
    assert "no --text" not in err
    texts = dict(zip(*pd.read_csv(source)[["item", "body"]].to_numpy().T, strict=True))
    if fmt == "label-studio":
        tasks = json.loads(out.read_text())
        validate(tasks, LS_IMPORT_SCHEMA)
        shown = [(t["data"]["item"], t["data"]["text"]) for t in tasks]
        raters = {p["model_version"] for t in tasks for p in t["predictions"]}
        assert raters == {"ana", "ben", "cai"}  # the text column is no rater
    else:
        tasks = [json.loads(line) for line in out.read_text().splitlines()]
        for task in tasks:
            validate(task, PRODIGY_TASK_SCHEMA)
        shown = [(t["meta"]["item"], t["text"]) for t in tasks]
        # Every category of the input, "d" too, which no item of the queue has.
        assert [o["id"] for t in tasks for o in t["options"]] == ["a", "b", "c", "d"] * 3
        assert {t["meta"]["ana"] for t in tasks} == {"a", "b"} and "body" not in tasks[0]["meta"]
    assert [item for item, _ in shown] == ["3", "2", "4"]  # most contested first
    assert all(text == texts[int(item)] for item, text in shown)


def test_the_items_table_has_the_text_after_the_item_long_layout_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wide = pd.read_csv(io.StringIO(QUEUE_CSV))
    long = wide.melt(["item", "body"], var_name="annotator", value_name="grade")
    source = tmp_path / "long.csv"
    long.to_csv(source, index=False)
    out = tmp_path / "items.csv"
    argv = ["items", str(source), "--item", "item", "--rater", "annotator", "--label", "grade"]
    code, _, err = run([*argv, "--text", "body", "-o", str(out)], capsys)
    assert code == 0, err
    table = pd.read_csv(out)
    assert list(table.columns[:3]) == ["item", "text", "n_ratings"]
    assert table["text"].tolist() == wide["body"].tolist()
    long.loc[0, "body"] = "another text"  # item 1 with two texts
    long.to_csv(source, index=False)
    code, _, err = run([*argv, "--text", "body"], capsys)
    assert code == 2 and "--text 'body': item '1' has two texts" in err


def test_the_queues_messages_name_the_flags_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "queue_in.csv"
    source.write_text(QUEUE_CSV)
    argv = ["items", str(source), "--item", "item"]
    # No queue flag: the labels come with the queue; --no-labels was never given.
    code, _, err = run([*argv, "--exclude", "body", "--format", "label-studio"], capsys)
    assert code == 2 and "--no-labels" not in err
    assert "add --disagreements (or --min-p, --max-support), or --labels" in err
    code, out, err = run(
        [*argv, "--exclude", "body", "--disagreements", "--format", "prodigy"], capsys
    )
    assert code == 0
    assert [json.loads(line)["text"] for line in out.splitlines()] == ["3", "2", "4"]
    assert "note: no --text: Prodigy shows each item's id as its text" in err
    code, _, err = run([*argv, "--raters", "ana", "body", "--text", "body"], capsys)
    assert code == 2 and "--text 'body' is also given to --raters" in err
    code, _, err = run([*argv, "--text", "bodies"], capsys)
    assert code == 2 and "--text 'bodies' is not a column of the input" in err


def test_the_documented_commands_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["demo", "--save", str(tmp_path / "team.csv")], capsys)[0] == 0
    epilog = cli.build_parser()._subparsers._group_actions[0].choices["items"].epilog  # type: ignore[union-attr]
    joined = (epilog or "").replace("\\\n", " ")
    commands = [
        shlex.split(line.strip())[1:]
        for line in joined.splitlines()
        if line.strip().startswith("kappaframe items team.csv")
    ]
    assert len(commands) >= 2
    for command in commands:
        command = [str(tmp_path / c) if c in ("team.csv", "queue.csv") else c for c in command]
        code, _, err = run(command, capsys)
        assert code == 0, (command, err)
    assert (tmp_path / "queue.csv").exists()


def test_items_is_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = cli.main(["--help"])
    except SystemExit as exit_info:
        code = exit_info.code
    assert code in (0, None)
    assert "items" in capsys.readouterr().out


def test_a_rater_named_like_a_column_names_the_flag_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c.csv"
    path.write_text("consensus,b\nx,y\ny,y\n")
    code, _, err = run(["items", str(path), "--labels"], capsys)
    assert code == 2 and "rater 'consensus'" in err and "--no-labels" in err
    code, out, err = run(["items", str(path), "--format", "csv"], capsys)
    assert code == 0, err
    assert out.splitlines()[0].startswith("item,n_ratings")
