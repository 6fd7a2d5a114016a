"""``kappaframe judge``: the judge's report of a file, through the command."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli
from kappaframe._report.report import render_text


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def _labels(n: int = 60) -> pd.DataFrame:
    rng = np.random.default_rng(31)
    gold = rng.choice(["no", "yes"], size=n, p=[0.6, 0.4])
    judge = np.where(rng.random(n) < 0.8, gold, rng.choice(["no", "yes"], size=n))
    frame = pd.DataFrame(
        {
            "id": [f"q{i}" for i in range(n)],
            "project": np.where(np.arange(n) % 3 == 0, "alpha", "beta"),
            "llm": judge,
            "human": gold.astype(object),
        }
    )
    frame.loc[[4, 17], "human"] = None  # judged, not labelled by the humans
    return frame


@pytest.fixture
def labels_csv(tmp_path: Path) -> Path:
    path = tmp_path / "labels.csv"
    _labels().to_csv(path, index=False)
    return path


def assert_same(got: pd.DataFrame, expected: pd.DataFrame) -> None:
    """The same columns, numbers (to the last bit a CSV keeps) and labels."""
    assert list(got.columns) == list(expected.columns)
    assert len(got) == len(expected)
    for column in expected.columns:
        want = expected[column]
        if pd.api.types.is_numeric_dtype(want) and not pd.api.types.is_bool_dtype(want):
            np.testing.assert_allclose(got[column].to_numpy(float), want.to_numpy(float))
        else:
            assert got[column].astype(str).tolist() == want.astype(str).tolist(), column


def test_the_written_tables_are_judge_reports(
    labels_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "out" / "judge.csv"
    out_path.parent.mkdir()
    argv = ["judge", str(labels_csv), "--judge", "llm", "--gold", "human", "--by", "project"]
    code, out, err = run([*argv, "-o", str(out_path)], capsys)
    assert code == 0 and out == "", err
    expected = kf.judge_report(pd.read_csv(labels_csv), "llm", "human", by="project")
    assert_same(pd.read_csv(out_path), expected.classes)
    summary_path = tmp_path / "out" / "judge.summary.csv"
    assert_same(pd.read_csv(summary_path), expected.summary)
    assert sorted(p.name for p in out_path.parent.iterdir()) == [
        "judge.csv",
        "judge.csv.provenance.json",
        "judge.summary.csv",
        "judge.summary.csv.provenance.json",
    ]
    record = json.loads((tmp_path / "out" / "judge.summary.csv.provenance.json").read_text())
    assert record["file"]["name"] == "judge.summary.csv"
    assert record["options"]["judge"] == "llm" and record["options"]["gold"] == "human"


def test_no_provenance_writes_the_two_tables_only(
    labels_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "j.tsv"
    argv = ["judge", str(labels_csv), "--judge", "llm", "--gold", "human", "-o", str(out_path)]
    code, _, err = run([*argv, "--no-provenance"], capsys)
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.summary.tsv", "j.tsv", "labels.csv"]
    expected = kf.judge_report(pd.read_csv(labels_csv), "llm", "human")
    assert_same(pd.read_csv(tmp_path / "j.summary.tsv", sep="\t"), expected.summary)


def test_parquet_keeps_the_tables_and_their_provenance(
    labels_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "j.parquet"
    argv = ["judge", str(labels_csv), "--judge", "llm", "--gold", "human", "--ci", "0.9"]
    code, _, err = run([*argv, "-o", str(out_path)], capsys)
    assert code == 0, err
    expected = kf.judge_report(pd.read_csv(labels_csv), "llm", "human", ci=0.9)
    assert_same(pd.read_parquet(out_path), expected.classes)
    assert_same(pd.read_parquet(tmp_path / "j.summary.parquet"), expected.summary)
    assert not list(tmp_path.glob("*.provenance.json"))


def test_the_printed_tables_are_the_reports_classes_then_summary(
    labels_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["judge", str(labels_csv), "--judge", "llm", "--gold", "human", "--by", "project"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    expected = kf.judge_report(pd.read_csv(labels_csv), "llm", "human", by="project")
    classes, summary = render_text(expected.classes), render_text(expected.summary)
    assert classes in out and summary in out
    assert out.index(classes) < out.index("Summary:") < out.index(summary)


def test_a_semicolon_file_is_read_with_the_csv_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "labels.csv"
    frame = _labels()
    frame["llm"] = np.where(frame["llm"] == "yes", 1, 0)
    frame["human"] = frame["human"].map({"yes": 1, "no": 0}).astype("Int64")
    frame.to_csv(path, index=False, sep=";")
    out_path = tmp_path / "j.csv"
    argv = ["judge", str(path), "--delimiter", ";", "--judge", "llm", "--gold", "human"]
    argv += ["--categories", "1", "0", "--by", "project", "-o", str(out_path)]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    data = pd.read_csv(path, sep=";")
    expected = kf.judge_report(data, "llm", "human", by="project", categories=[1, 0])
    got = pd.read_csv(tmp_path / "j.summary.csv")
    assert_same(got, expected.summary)
    assert got["positive"].tolist() == [0, 0]  # the second of --categories
    assert_same(pd.read_csv(out_path), expected.classes)


def test_the_html_page_holds_the_summary_then_the_classes(
    labels_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kappaframe._report.report import _html_table

    page_path = tmp_path / "judge.html"
    argv = ["judge", str(labels_csv), "--judge", "llm", "--gold", "human", "--by", "project"]
    code, out, err = run([*argv, "-o", str(page_path)], capsys)
    assert code == 0 and out == "", err
    page = page_path.read_text(encoding="utf-8")
    expected = kf.judge_report(pd.read_csv(labels_csv), "llm", "human", by="project")
    summary = _html_table(expected.summary, colour=("kappa",))
    classes = _html_table(expected.classes, colour=())
    assert page.startswith("<!DOCTYPE html>")
    assert page.index(summary) < page.index(classes)
    assert 'id="kappaframe-provenance"' in page  # inside the page, no sidecar
    assert sorted(p.name for p in tmp_path.iterdir()) == ["judge.html", "labels.csv"]
    code, out, err = run([*argv, "--format", "html", "--no-provenance"], capsys)
    assert code == 0, err
    assert summary in out and "kappaframe-provenance" not in out


@pytest.mark.parametrize("flag", ["--judge", "--gold", "--by"])
def test_a_missing_column_is_refused_naming_its_flag(
    flag: str, labels_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given = {"--judge": "llm", "--gold": "human"}
    given[flag] = "humann"
    argv = ["judge", str(labels_csv), *(x for kv in given.items() for x in kv)]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert f"{flag} names 'humann', not a column of labels.csv" in err
    assert "human" in err.split("labels.csv:")[1]  # the columns there are


def test_a_missing_column_of_standard_input_is_refused_too(
    labels_csv: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    raw = io.TextIOWrapper(io.BytesIO(labels_csv.read_bytes()))
    monkeypatch.setattr(sys, "stdin", raw)
    code, _, err = run(["judge", "-", "--judge", "llm", "--gold", "gold"], capsys)
    assert code == 2
    assert "--gold names 'gold', not a column of standard input" in err


def test_one_table_format_on_stdout_is_refused(
    labels_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["judge", str(labels_csv), "--judge", "llm", "--gold", "human", "--format", "csv"]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert "two tables" in err and "--output" in err


def test_a_bad_level_is_refused(labels_csv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["judge", str(labels_csv), "--judge", "llm", "--gold", "human", "--ci", "95"]
    code, _, err = run(argv, capsys)
    assert code == 2 and "--ci" in err


def test_help_lists_the_flags(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["judge", "--help"], capsys)
    assert code == 0
    for flag in ("--judge", "--gold", "--by", "--categories", "--ci", "--scale", "--output"):
        assert flag in out
    assert "--no-provenance" in out and "judge.summary.csv" in out
    code, out, _ = run(["--help"], capsys)
    assert code == 0 and "judge" in out
