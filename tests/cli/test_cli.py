"""The command line: demo, report formats, exit codes, atomic writes, progress."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli, datasets
from kappaframe._io.read import Progress
from kappaframe._io.write import write_atomic
from kappaframe._report.report import Report, _plain

TEAM = list(datasets.TEAM)
GRADES = list(datasets.GRADES)
ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def team_csv(tmp_path: Path) -> Path:
    path = tmp_path / "team.csv"
    _plain(datasets.labeling_team(seed=0)).to_csv(path, index=False)
    return path


def expected_team(**kwargs: object) -> pd.DataFrame:
    team = datasets.labeling_team(seed=0)
    return team.kappa.pairwise(TEAM, by="project", categories=GRADES, **kwargs)


def test_demo_prints_pairs_and_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["demo"], capsys)
    assert code == 0 and err == ""
    assert "Pairwise Cohen's kappa per project" in out
    assert "Rater x rater kappa" in out
    res = expected_team()
    gamma = res[(res["project"] == "gamma") & (res["rater_b"] == "dee")].iloc[0]
    row = f"gamma    {gamma['rater_a']}      dee      {gamma['n']}"
    assert row in out and f"{gamma['kappa']:.3f}" in out
    assert "Lowest mean kappa: dee" in out


def test_demo_classic_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["demo", "--dataset", "multiple_sclerosis"], capsys)
    assert code == 0
    assert "Landis & Koch 1977" in out
    lines = [line for line in out.splitlines() if line.startswith(("New Orleans", "Winnipeg"))]
    lines = lines[:2]  # the pairwise table (the matrix follows)
    assert [line.split()[0] for line in lines] == ["New", "Winnipeg"]
    assert "0.297" in lines[0] and "0.208" in lines[1]


def test_demo_save_then_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "team.parquet"
    pytest.importorskip("pyarrow")
    assert run(["demo", "--save", str(path)], capsys)[0] == 0
    args = [str(path), "--raters", *TEAM, "--by", "project", "--categories", *GRADES]
    code, out, _ = run(["report", *args, "--format", "csv"], capsys)
    assert code == 0
    got = pd.read_csv(io.StringIO(out))
    np.testing.assert_allclose(got["kappa"], expected_team()["kappa"], rtol=0, atol=1e-12)


def test_report_text_to_stdout(team_csv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["report", str(team_csv), "--raters", *TEAM, "--by", "project"]
    code, out, err = run(
        [*args, "--categories", *GRADES, "--weights", "linear", "--ci", "0.9"], capsys
    )
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == [
        "project",
        "rater_a",
        "rater_b",
        "n",
        "p_o",
        "p_e",
        "kappa",
        "interpretation",
        "se",
        "se0",
        "ci_low",
        "ci_high",
        "z",
        "p_value",
    ]
    assert len(lines) == 2 + 30
    res = expected_team(weights="linear", ci=0.9)
    first = lines[2].split()
    assert first[:4] == ["alpha", "ana", "ben", str(res["n"].iloc[0])]
    assert first[6] == f"{res['kappa'].iloc[0]:.3f}"


@pytest.mark.parametrize("suffix", [".csv", ".json", ".jsonl", ".parquet", ".md", ".html"])
def test_report_formats_from_suffix(
    team_csv: Path, tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    out_path = tmp_path / f"agreement{suffix}"
    args = ["report", str(team_csv), "--raters", *TEAM, "--by", "project"]
    code, out, err = run([*args, "--categories", *GRADES, "-o", str(out_path)], capsys)
    assert (code, out, err) == (0, "", "")
    expected = expected_team()
    if suffix == ".csv":
        got = pd.read_csv(out_path)
    elif suffix == ".json":
        got = pd.DataFrame(json.loads(out_path.read_text()))
    elif suffix == ".jsonl":
        got = pd.read_json(out_path, lines=True)
    elif suffix == ".parquet":
        got = pd.read_parquet(out_path)
    else:
        text = out_path.read_text()
        assert "Agreement report" in text
        assert f"{expected['kappa'].min():.3f}" in text
        return
    assert list(got.columns) == list(expected.columns)
    assert got["rater_b"].tolist() == expected["rater_b"].tolist()
    np.testing.assert_allclose(got["kappa"], expected["kappa"], rtol=0, atol=1e-12)
    assert got["interpretation"].tolist() == expected["interpretation"].astype(str).tolist()


def _floats(records: list[dict[str, object]], column: str) -> list[object]:
    return [r[column] for r in records]


def _exact(values: object) -> list[float | None]:
    """Floats as they are (NaN as None, what JSON writes): compared with ``==``, not approx."""
    return [None if np.isnan(v) else float(v) for v in np.asarray(values, dtype=float)]


def test_json_writes_every_float_exactly(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from kappaframe._io.write import table_bytes

    data = datasets.labeling_team(seed=0)
    res = data.kappa.pairwise(TEAM, by="project", categories=GRADES, ci=0.95)
    frame = _plain(res)
    frame.loc[0, "p_o"] = 0.1 + 0.2  # 0.30000000000000004: 0.3 at 15 digits
    frame.loc[1, "p_e"] = 1 / 3
    frame.loc[2, "kappa"] = np.nan
    floats = [c for c in frame.columns if frame[c].dtype == float]
    shortened = [float(f"{v:.15g}") != v for c in floats for v in frame[c].dropna()]
    assert sum(shortened) > 10  # the values 15 significant digits would change
    parquet = pd.read_parquet(io.BytesIO(table_bytes(frame, "parquet")))
    json_records = json.loads(table_bytes(frame, "json"))
    lines = table_bytes(frame, "jsonl").decode().splitlines()
    assert len(lines) == len(frame)
    line_records = [json.loads(line) for line in lines]
    for records in (json_records, line_records):
        assert [list(r) for r in records] == [list(frame.columns)] * len(frame)
        for column in floats:
            assert _floats(records, column) == _exact(frame[column]), column
            assert _floats(records, column) == _exact(parquet[column]), column
        assert _floats(records, "n") == frame["n"].tolist()
        assert _floats(records, "interpretation") == frame["interpretation"].tolist()
    assert json_records[0]["p_o"] == 0.1 + 0.2 and json_records[2]["kappa"] is None


def test_json_cells_other_than_floats_as_before() -> None:
    from kappaframe._io.write import json_text

    frame = pd.DataFrame(
        {
            "x": [0.1 + 0.2, np.inf, np.nan],
            "mixed": [1 / 3, "é", None],
            "count": pd.array([1, None, 3], dtype="Int64"),
            "flag": [True, False, True],
            "share": pd.array([0.5, None, 2 / 3], dtype="Float64"),
        }
    )
    records = json.loads(json_text(frame))
    assert records == [
        {"x": 0.1 + 0.2, "mixed": 1 / 3, "count": 1, "flag": True, "share": 0.5},
        {"x": None, "mixed": "é", "count": None, "flag": False, "share": None},
        {"x": None, "mixed": None, "count": 3, "flag": True, "share": 2 / 3},
    ]
    assert json_text(frame, lines=True).splitlines() == [
        json.dumps(r, separators=(",", ":")) for r in records
    ]
    assert (
        json.loads(json_text(frame.iloc[:0])) == [] and json_text(frame.iloc[:0], lines=True) == ""
    )
    with pytest.raises(kf.KappaFrameError, match="two columns named 'x'"):
        json_text(pd.DataFrame([[1, 2]], columns=["x", "x"]))


def test_report_json_equals_parquet_of_the_same_run(
    team_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyarrow")
    args = ["report", str(team_csv), "--raters", *TEAM, "--by", "project"]
    args += ["--categories", *GRADES, "--ci", "0.9", "--weights", "quadratic"]
    outputs = {}
    for suffix in (".json", ".jsonl", ".parquet"):
        path = tmp_path / f"agreement{suffix}"
        assert run([*args, "-o", str(path)], capsys)[0] == 0
        outputs[suffix] = path
    parquet = pd.read_parquet(outputs[".parquet"])
    as_json = json.loads(outputs[".json"].read_text())
    as_lines = [json.loads(line) for line in outputs[".jsonl"].read_text().splitlines()]
    expected = expected_team(weights="quadratic", ci=0.9)
    for column in ("p_o", "p_e", "kappa", "se", "ci_low", "ci_high", "z", "p_value"):
        exact = _exact(expected[column])
        assert _exact(parquet[column]) == exact, column
        assert _floats(as_json, column) == exact, column
        assert _floats(as_lines, column) == exact, column
    # The same through the report writer (the Python side of --format json).
    from kappaframe._report.report import write_report

    report = Report(tidy=expected)
    for fmt in ("json", "jsonl"):
        text = write_report(report, fmt, None)
        assert text is not None
        records = json.loads(text) if fmt == "json" else [json.loads(x) for x in text.splitlines()]
        assert _floats(records, "kappa") == _exact(expected["kappa"])


def test_report_long_layout_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long = _plain(datasets.labeling_team(seed=0, layout="long"))
    path = tmp_path / "ratings.jsonl"
    long.to_json(path, orient="records", lines=True)
    args = ["report", str(path), "--item", "item", "--rater", "annotator", "--label", "grade"]
    code, out, _ = run(
        [*args, "--by", "project", "--categories", *GRADES, "--format", "csv"], capsys
    )
    assert code == 0
    got = pd.read_csv(io.StringIO(out))
    np.testing.assert_allclose(got["kappa"], expected_team()["kappa"], rtol=0, atol=1e-12)
    # --raters in the long layout picks rater ids
    code, out, _ = run([*args, "--raters", "ana", "dee", "--format", "csv"], capsys)
    assert code == 0
    assert pd.read_csv(io.StringIO(out))[["rater_a", "rater_b"]].to_numpy().tolist() == [
        ["ana", "dee"]
    ]


def test_numeric_labels_and_categories(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Grades 1..10 must keep their numeric order (a string sort puts 10 before 2).
    rng = np.random.default_rng(7)
    a = rng.integers(1, 11, 300)
    b = np.clip(a + rng.integers(-2, 3, 300), 1, 10)
    path = tmp_path / "grades.csv"
    pd.DataFrame({"a": a, "b": b}).to_csv(path, index=False)
    expected = kf.cohen_kappa(a, b, weights="quadratic", labels=list(range(1, 11)))
    for extra in ([], ["--stream"]):  # both reads keep the numeric order
        args = ["report", str(path), "--weights", "quadratic", "--format", "csv", *extra]
        code, out, err = run(args, capsys)
        assert code == 0, err
        assert pd.read_csv(io.StringIO(out))["kappa"].item() == pytest.approx(expected, abs=1e-12)
    cats = [str(c) for c in range(1, 11)]
    code, out, _ = run(
        ["report", str(path), "--weights", "quadratic", "--categories", *cats, "--format", "csv"],
        capsys,
    )
    assert code == 0
    assert pd.read_csv(io.StringIO(out))["kappa"].item() == pytest.approx(expected, abs=1e-12)


def test_fail_under(team_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_path = tmp_path / "agreement.csv"
    args = ["report", str(team_csv), "--raters", *TEAM, "--by", "project", "-o", str(out_path)]
    code, out, err = run([*args, "--fail-under", "0.3"], capsys)
    expected = expected_team()
    below = expected[expected["kappa"] < 0.3]
    assert code == 1 and out == ""
    assert f"{len(below)} of 30 rows have kappa below 0.3" in err
    assert len(err.splitlines()) == 1 + 2 + len(below)
    assert out_path.exists()  # the report is still written
    assert run([*args, "--fail-under", "-0.5"], capsys)[0] == 0
    code, _, err = run([*args, "--fail-under", "0.3", "--fail-on", "p_o"], capsys)
    assert code == (1 if (expected["p_o"] < 0.3).any() else 0)
    code, _, err = run([*args, "--fail-under", "0.3", "--fail-on", "ci_low"], capsys)
    assert code == 2 and "--fail-on column 'ci_low' is not in the result" in err
    code, _, err = run(
        [*args, "--ci", "0.95", "--fail-under", "0.0", "--fail-on", "ci_low"], capsys
    )
    assert code == 1


def test_fail_under_ignores_undefined(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "same.csv"
    pd.DataFrame({"a": ["x"] * 4, "b": ["x"] * 4, "c": ["x", "y", "x", "y"]}).to_csv(
        path, index=False
    )
    code, _, err = run(["report", str(path), "--fail-under", "-0.5"], capsys)
    assert code == 0
    assert "warning: kappa is undefined (NaN) for 1 of 3" in err
    assert "note: 1 row has no kappa" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["report", "missing.csv"], "input file not found"),
        (["report", "{csv}", "--raters", "ana", "bob"], "column not found: 'bob'"),
        (["report", "{csv}", "--item", "item"], "--rater, --label missing"),
        (["report", "{csv}", "--format", "parquet"], "parquet is binary"),
        (["report", "{csv}", "-o", "out.xlsx"], "cannot tell the output format"),
        (["report", "{dir}/data.xyz"], "cannot tell the format"),
        (
            ["report", "{csv}", "--raters", "ana", "ben", "--categories", "bad"],
            "not in --categories",
        ),
        (["report", "{csv}", "--ci", "95"], "between 0 and 1"),
        (["report", "{csv}", "--weights", "cubic"], "invalid choice"),
        (["report", "{csv}", "--raters", "ana", "ben", "--ci-dist", "t"], "--ci-dist shapes"),
        (["report", "{csv}", "--by", "project"], "leave them out with --exclude"),
        (["report", "{csv}", "--raters", "ana", "ben", "--weights", "linear"], "--categories ..."),
        (["report", "{csv}", "--raters", "ana", "ben", "--overall", "gwet_ac2"], "--weights"),
        (["report", "{csv}", "--raters", "ana", "ben", "--min-items", "-1"], "--min-items 0"),
        (["report"], "the following arguments are required: INPUT"),
        ([], "usage: kappaframe"),
    ],
)
def test_usage_and_input_errors_exit_2(
    args: list[str], message: str, team_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (team_csv.parent / "data.xyz").write_text("a,b\n1,2\n")
    args = [a.format(csv=team_csv, dir=team_csv.parent) for a in args]
    code, out, err = run(args, capsys)
    assert code == 2 and out == ""
    assert message in err
    # The command line's own words: flags, never Python's keyword arguments.
    assert not re.search(r"\b[a-z_]{2,}=(?!NEW)", err), err
    assert "Traceback" not in err


def test_bad_input_file_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.parquet"
    path.write_bytes(b"not parquet at all")
    pytest.importorskip("pyarrow")
    code, _, err = run(["report", str(path)], capsys)
    assert code == 2 and "could not read" in err and "Traceback" not in err


def test_failed_write_leaves_old_report(tmp_path: Path) -> None:
    target = tmp_path / "report.csv"
    target.write_text("old\n")

    def broken(tmp: Path) -> None:
        tmp.write_text("half a rep")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        write_atomic(target, broken)
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.csv"]
    write_atomic(target, lambda tmp: tmp.write_text("new\n"))
    assert target.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.csv"]
    assert target.stat().st_mode & 0o777 != 0o600  # not mkstemp's private mode


def test_cli_failure_keeps_previous_output(
    team_csv: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    target = tmp_path / "report.html"
    target.write_text("yesterday")
    from kappaframe._report import report as _report

    def explode(report: object) -> str:
        raise kf.KappaFrameError("rendering failed")

    monkeypatch.setattr(_report, "render_html", explode)
    code, _, err = run(
        ["report", str(team_csv), "--raters", "ana", "ben", "-o", str(target)], capsys
    )
    assert code == 2 and "rendering failed" in err
    assert target.read_text() == "yesterday"


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_only_on_a_terminal() -> None:
    tty = FakeTerminal()
    with Progress("reading", 2048, unit="B", stream=tty, delay=0) as bar:
        bar.advance(1024)
        assert "reading [" in tty.getvalue() and "50%" in tty.getvalue()
        assert "1.0 KiB / 2.0 KiB" in tty.getvalue()
    assert tty.getvalue().endswith("\r")
    pipe = io.StringIO()
    with Progress("reading", 2048, unit="B", stream=pipe, delay=0) as bar:
        bar.advance(2048)
    assert pipe.getvalue() == ""


def test_report_is_silent_on_stderr_when_not_a_terminal(
    team_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["report", str(team_csv), "--raters", *TEAM, "--format", "csv"], capsys)
    assert code == 0 and err == ""


def test_stats_and_reference_pass_through(
    team_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["report", str(team_csv), "--raters", *TEAM, "--format", "csv"]
    code, out, err = run([*args, "--stats", "all"], capsys)
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out))
    expected = kf.pairwise(datasets.labeling_team(seed=0), TEAM, stats="all")
    assert list(got.columns) == list(expected.columns)
    code, out, err = run(
        ["report", str(team_csv), "--raters", *TEAM, "--reference", "gold", "--format", "csv"],
        capsys,
    )
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out))
    assert len(got) == len(TEAM)


def test_min_overlap_passes_through(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long = _plain(datasets.labeling_team(seed=0, layout="long"))
    long = long[~((long["annotator"] == "eli") & (long["item"] > 20))]
    path = tmp_path / "ratings.csv"
    long.to_csv(path, index=False)
    args = ["report", str(path), "--item", "item", "--rater", "annotator", "--label", "grade"]
    code, out, _ = run([*args, "--min-overlap", "50", "--format", "csv"], capsys)
    assert code == 0
    got = pd.read_csv(io.StringIO(out))
    assert len(got) == 6 and "eli" not in set(got["rater_a"]) | set(got["rater_b"])


def test_report_says_too_few_items(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.csv"
    rows = {"g": ["few"] * 2 + ["many"] * 12, "a": ["x", "y"] * 7, "b": ["x", "y"] * 7}
    pd.DataFrame(rows).to_csv(path, index=False)
    for stream in ([], ["--stream"]):
        code, out, err = run(["report", str(path), "--by", "g", *stream], capsys)
        assert (code, err) == (0, "")
        lines = out.splitlines()
        assert lines[2].endswith("1.000  too few items")
        assert lines[3].endswith("almost perfect")
        assert lines[-1].startswith("too few items: 1 row rests on fewer than 10 items (n)")
    target = tmp_path / "out.json"
    assert run(["report", str(path), "--by", "g", "-o", str(target)], capsys)[0] == 0
    records = json.loads(target.read_text())
    assert [r["interpretation"] for r in records] == ["too few items", "almost perfect"]
    assert [r["kappa"] for r in records] == [1.0, 1.0]


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet"])
def test_stream_gives_the_same_table(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyarrow")
    team = _plain(datasets.labeling_team(seed=0))
    path = tmp_path / f"team{suffix}"
    if suffix == ".parquet":
        team.to_parquet(path)
    else:
        team.to_csv(path, index=False, sep="\t" if suffix == ".tsv" else ",")
    args = ["report", str(path), "--raters", *TEAM, "--by", "project", "--format", "csv"]
    code, out, err = run(
        [*args, "--categories", *GRADES, "--weights", "linear", "--stream"], capsys
    )
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out))
    np.testing.assert_allclose(
        got["kappa"], expected_team(weights="linear")["kappa"], rtol=0, atol=1e-12
    )
    code, _, err = run([*args[:-2], "--stream", "--format", "html", "-o", "x.html"], capsys)
    assert code == 2 and "drop --stream" in err


def test_python_dash_m_and_entry_point() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "kappaframe", "--version"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert out.stdout.strip() == f"kappaframe {kf.__version__}"
    text = (ROOT / "pyproject.toml").read_text()
    assert 'kappaframe = "kappaframe.cli:main"' in text


def test_cli_import_is_light() -> None:
    code = (
        "import sys, kappaframe.cli\n"
        "heavy = [m for m in ('matplotlib', 'polars', 'dask') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_min_items_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--min-items sets where 'too few items' starts; 0 gives every row its band."""
    import kappaframe as kf
    from kappaframe import cli

    path = tmp_path / "ms.csv"
    kf.datasets.multiple_sclerosis().to_csv(path, index=False)  # n = 218 items
    for flag, words in (("0", False), ("218", False), ("219", True)):
        argv = ["report", str(path), "--raters", "new_orleans", "winnipeg"]
        assert cli.main([*argv, "--min-items", flag]) == 0
        out = capsys.readouterr().out
        assert ("too few items" in out) is words, (flag, out)
    assert cli.main(["report", str(path), "--min-items", "-1"]) == 2
    err = capsys.readouterr().err
    assert "--min-items must be a whole number of items (>= 0)" in err
