"""Provenance records input paths as given, says so in --help, and --no-provenance writes none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kappaframe as kf
from kappaframe import cli

TWO = "ana,ben\ngood,good\nbad,good\nbad,bad\ngood,good\n"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with two small rating files, made the working directory."""
    (tmp_path / "parts").mkdir()
    (tmp_path / "ratings.csv").write_text(TWO, encoding="utf-8")
    (tmp_path / "parts" / "a.csv").write_text(TWO, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def quiet(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*argv, "-q"]) == 0
    capsys.readouterr()


def test_input_paths_are_recorded_as_given(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quiet(["report", "ratings.csv", "-o", "r.csv"], capsys)
    record = json.loads((here / "r.csv.provenance.json").read_text(encoding="utf-8"))
    assert [f["path"] for f in record["inputs"]] == ["ratings.csv"]
    assert str(here) not in (here / "r.csv.provenance.json").read_text(encoding="utf-8")
    # The Python function, a glob and a folder alike; an absolute path stays absolute.
    assert kf.provenance("ratings.csv")["inputs"][0]["path"] == "ratings.csv"
    joined = str(Path("parts") / "a.csv")
    assert kf.provenance("parts/*.csv")["inputs"][0]["path"] == joined
    assert kf.provenance("parts")["inputs"][0]["path"] == joined
    absolute = str(here / "ratings.csv")
    assert kf.provenance(absolute)["inputs"][0]["path"] == absolute


@pytest.mark.parametrize(
    "argv",
    [
        ["report", "ratings.csv", "-o", "out.csv"],
        ["report", "ratings.csv", "-o", "out.json", "--overall", "fleiss"],
        ["items", "ratings.csv", "-o", "out.csv"],
        ["plan", "ratings.csv", "--kappa0", "0.2", "-o", "out.csv"],
        ["demo", "--save", "out.csv"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_no_provenance_writes_no_sidecar_and_the_same_file(
    argv: list[str], here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quiet(argv, capsys)
    written = {p.name for p in here.iterdir()}
    sidecars = {n for n in written if n.endswith(".provenance.json")}
    assert "out.csv.provenance.json" in sidecars or "out.json.provenance.json" in sidecars
    first = {n: (here / n).read_bytes() for n in written - sidecars if n.startswith("out")}
    for name in written - {"ratings.csv", "parts"}:
        (here / name).unlink()

    quiet([*argv, "--no-provenance"], capsys)
    again = {p.name for p in here.iterdir()} - {"ratings.csv", "parts"}
    assert again == set(first)  # the same files, no sidecar
    if argv[0] != "demo":  # the demo's data set is the same; a table's bytes are too
        assert {n: (here / n).read_bytes() for n in again} == first


def test_no_provenance_keeps_none_inside_parquet(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    for argv in (["report", "ratings.csv", "-o", "r.parquet"], ["demo", "--save", "d.parquet"]):
        quiet(argv, capsys)
        assert b"kappaframe" in pq.read_schema(here / argv[-1]).metadata
        quiet([*argv, "--no-provenance"], capsys)
        assert b"kappaframe" not in (pq.read_schema(here / argv[-1]).metadata or {})
    assert not list(here.glob("*.provenance.json"))


def test_no_provenance_keeps_none_in_the_html_report(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # With a record, the footer holds it (tests/cli/test_cli_manners.py checks it).
    quiet(["report", "ratings.csv", "-o", "r.html", "--no-provenance"], capsys)
    page = (here / "r.html").read_text(encoding="utf-8")
    assert "Made by kappaframe" in page and "kappaframe-provenance" not in page
    assert not list(here.glob("*.provenance.json"))


@pytest.mark.parametrize("command", ["report", "items", "plan", "demo"])
def test_help_says_what_is_written_beside_a_file(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "PATH.provenance.json says what made it" in text
    assert "path as given" in text or command == "demo"
    assert "--no-provenance write no provenance record" in text
