"""Command-line manners: --quiet and --verbose through logging, and the provenance of outputs.

Every test runs the real command (``cli.main`` in this process, or ``python -m
kappaframe`` in a child) on real files in ``tmp_path``.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import io
import json
import logging
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli, datasets
from kappaframe._io.write import TEMP_MARK, plain

ROOT = Path(__file__).resolve().parents[2]
TEAM = list(datasets.TEAM)
GRADES = list(datasets.GRADES)
WIDE = ["--raters", *TEAM, "--by", "project", "--categories", *GRADES]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def team_csv(tmp_path: Path) -> Path:
    path = tmp_path / "team.csv"
    plain(datasets.labeling_team(seed=0)).to_csv(path, index=False)
    return path


@pytest.fixture
def na_csv(tmp_path: Path) -> Path:
    """Two raters; one label is 'NA', which kappaframe counts and warns about."""
    path = tmp_path / "na.csv"
    path.write_text("a,b\nx,x\ny,NA\nx,y\ny,y\nx,x\n", encoding="utf-8")
    return path


def expected_team(**options: Any) -> pd.DataFrame:
    team = datasets.labeling_team(seed=0)
    return kf.pairwise(team, TEAM, by="project", categories=GRADES, **options)


# ------------------------------------------------------------------ 1. --quiet, --verbose


def test_default_shows_warnings_only(na_csv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["report", str(na_csv), "--format", "csv"], capsys)
    assert code == 0 and out.startswith("rater_a,rater_b,n")
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("kappaframe: warning: labels that often mean missing")
    assert "--na-values NA" in lines[0]  # in the command line's words


def test_quiet_says_nothing_but_errors(na_csv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["report", str(na_csv), "--format", "csv", "--quiet"], capsys)
    assert code == 0 and out.startswith("rater_a,rater_b,n") and err == ""
    code, _, err = run(["report", str(na_csv), "-q", "--raters", "a", "nobody"], capsys)
    assert code == 2
    assert err.startswith("kappaframe: error:") and "'nobody'" in err


def test_quiet_still_gives_the_rows_under_the_bar(
    na_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        ["report", str(na_csv), "--format", "csv", "-q", "--fail-under", "0.99"], capsys
    )
    assert code == 1
    assert err.startswith("kappaframe: 1 of 1 rows have kappa below 0.99:\n")
    assert "warning" not in err
    assert "rater_a" in err.splitlines()[1]


def test_verbose_says_what_is_read_taken_and_written(
    na_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "r.csv"
    code, _, err = run(["report", str(na_csv), "-o", str(out_path), "--verbose"], capsys)
    assert code == 0
    assert re.search(r"^kappaframe: read .*na\.csv \(csv\): 5 rows, 2 columns in ", err, re.M)
    assert "kappaframe: raters a, b; 3 categories; 1 group(s)" in err
    assert f"kappaframe: wrote {out_path} (" in err
    assert f"kappaframe: wrote {out_path}.provenance.json (" in err
    assert "kappaframe: warning: labels that often mean missing" in err  # still there
    assert re.search(r"^kappaframe: done in \d+\.\d\d s \(exit 0\)$", err, re.M)
    assert "debug:" not in err


def test_very_verbose_adds_details(na_csv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["report", str(na_csv), "--format", "csv", "-vv"], capsys)
    assert code == 0
    assert "kappaframe: debug: flags: {'command': 'report'" in err
    assert "separator ',' (sniffed)" in err
    assert "kappaframe: raters a, b" in err  # INFO too


def test_quiet_and_verbose_exclude_each_other(
    na_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = cli.main(["report", str(na_csv), "-q", "-v"])
    except SystemExit as exit_:
        code = exit_.code
    assert code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_demo_takes_the_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "team.csv"
    code, out, err = run(["demo", "--save", str(saved), "-v"], capsys)
    assert code == 0 and "Pairwise Cohen's kappa" in out
    assert f"kappaframe: wrote {saved} (" in err
    code, out, err = run(["demo", "--quiet"], capsys)
    assert code == 0 and out and err == ""


@pytest.mark.filterwarnings("default")  # as Python runs the command (no -W error)
def test_any_warning_goes_through_the_logger(
    na_csv: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warning raised outside the report's own calls (here: while reading) is relayed."""
    import warnings

    from kappaframe._io import read

    real = read.read_input

    def reading_with_a_warning(*args: Any, **kwargs: Any) -> Any:
        warnings.warn("the disk is nearly full", UserWarning, stacklevel=2)
        return real(*args, **kwargs)

    monkeypatch.setattr(read, "read_input", reading_with_a_warning)
    argv = ["report", str(na_csv), "--format", "csv", "--na-values", "NA"]
    code, _, err = run(argv, capsys)
    assert code == 0
    assert err == "kappaframe: warning: the disk is nearly full\n"  # no file:line noise
    code, _, err = run([*argv, "-q"], capsys)
    assert code == 0 and err == ""


def test_the_logging_set_up_is_left_as_it_was(
    na_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logger = logging.getLogger("kappaframe")
    before = (list(logger.handlers), logger.level, logger.propagate)
    for flags in ([], ["-q"], ["-vv"]):
        assert cli.main(["report", str(na_csv), "--format", "csv", *flags]) == 0
    capsys.readouterr()
    assert (list(logger.handlers), logger.level, logger.propagate) == before


def test_the_library_logs_but_sets_up_no_handler(
    na_csv: Path, caplog: pytest.LogCaptureFixture
) -> None:
    code = "import logging, kappaframe; print(logging.getLogger('kappaframe').handlers)"
    child = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.strip() == "[]"
    frame = pd.DataFrame({"ana": [1, 2, 1], "ben": [1, 2, 2], "cai": [2, 2, 1]})
    with caplog.at_level(logging.INFO, logger="kappaframe"):
        kf.pairwise(frame)
    said = [(r.name, r.getMessage()) for r in caplog.records]
    assert any(
        name == "kappaframe._api.plan" and message.startswith("raters ana, ben, cai; 2 categories")
        for name, message in said
    ), said


def test_quiet_turns_the_progress_bars_off(
    team_csv: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kappaframe._io import read

    asked: list[tuple[str, Any]] = []
    real = read.Progress.__init__

    def recording(self: Any, label: str, *args: Any, **kwargs: Any) -> None:
        asked.append((label, kwargs.get("enabled")))
        real(self, label, *args, **kwargs)

    monkeypatch.setattr(read.Progress, "__init__", recording)
    html_out = tmp_path / "r.html"
    argv = ["report", str(team_csv), *WIDE, "-o", str(html_out)]
    assert run(argv, capsys)[0] == 0
    assert {label.split()[0] for label, _ in asked} >= {"reading", "hashing"}
    assert all(enabled is None for _, enabled in asked)  # on a terminal only
    asked.clear()
    assert run([*argv, "--quiet"], capsys)[0] == 0
    assert asked and all(enabled is False for _, enabled in asked), asked


# ------------------------------------------------------------------ 2. provenance


def _check_record(record: dict[str, Any], inputs: list[Path], before: datetime) -> None:
    assert record["version"] == kf.__version__
    created = datetime.strptime(record["created"], "%Y-%m-%dT%H:%M:%SZ")
    created = created.replace(tzinfo=timezone.utc)
    assert before - timedelta(seconds=1) <= created <= datetime.now(timezone.utc)
    assert record["inputs"] == [
        {"path": str(p), "bytes": p.stat().st_size, "sha256": sha256(p)} for p in inputs
    ]


def test_csv_gets_a_sidecar(
    team_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "r.csv"
    before = datetime.now(timezone.utc)
    argv = ["report", str(team_csv), *WIDE, "--weights", "linear", "--ci", "0.9"]
    code, _, err = run([*argv, "-o", str(out_path)], capsys)
    assert code == 0, err
    sidecar = tmp_path / "r.csv.provenance.json"
    record = json.loads(sidecar.read_text(encoding="utf-8"))
    assert list(record) == ["version", "created", "inputs", "options", "file"]
    _check_record(record, [team_csv], before)
    options = record["options"]
    assert options["weights"] == "linear" and options["ci"] == 0.9
    assert options["by"] == ["project"] and options["raters"] == TEAM
    assert options["categories"] == GRADES and options["format"] == "csv"
    assert options["output"] == str(out_path) and options["min_items"] == 10
    assert not {"quiet", "verbose", "no_progress"} & set(options)
    assert record["file"] == {
        "name": "r.csv",
        "bytes": out_path.stat().st_size,
        "sha256": sha256(out_path),
    }
    # The table itself is what it was: the same bytes as the table on stdout.
    code, out, _ = run([*argv, "--format", "csv"], capsys)
    assert code == 0 and out_path.read_text(encoding="utf-8") == out
    got = pd.read_csv(out_path)
    want = expected_team(weights="linear", ci=0.9)
    pd.testing.assert_series_equal(got["kappa"], want["kappa"], rtol=0, atol=1e-12)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["team.csv", "r.csv", "r.csv.provenance.json"]
    )


@pytest.mark.parametrize(
    ("name", "reader"),
    [
        ("r.tsv", lambda p: pd.read_csv(p, sep="\t")),
        ("r.json", pd.read_json),
        ("r.jsonl", lambda p: pd.read_json(p, lines=True)),
        ("r.csv.gz", pd.read_csv),
        ("r.md", None),
        ("r.txt", None),
    ],
)
def test_other_files_get_a_sidecar_too(
    name: str, reader: Any, team_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / name
    code, _, err = run(["report", str(team_csv), *WIDE, "-o", str(out_path)], capsys)
    assert code == 0, err
    record = json.loads((tmp_path / f"{name}.provenance.json").read_text(encoding="utf-8"))
    assert record["inputs"][0]["sha256"] == sha256(team_csv)
    assert record["file"]["sha256"] == sha256(out_path)  # as written (compressed here)
    if reader is not None:
        got = reader(out_path)
        pd.testing.assert_series_equal(
            got["kappa"], expected_team()["kappa"], rtol=0, atol=1e-12, check_dtype=False
        )


def test_the_sidecar_is_written_atomically(
    team_csv: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out_path = tmp_path / "r.csv"
    sidecar = tmp_path / "r.csv.provenance.json"
    sidecar.write_text('{"left": "from yesterday"}\n', encoding="utf-8")
    real = Path.write_bytes

    def full_disk(self: Path, data: Any) -> int:
        if self.name.startswith(f".{sidecar.name}{TEMP_MARK}"):
            real(self, bytes(data)[:10])
            raise OSError(28, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full_disk)
    code, _, err = run(["report", str(team_csv), *WIDE, "-o", str(out_path)], capsys)
    assert code == 2 and "cannot write" in err and sidecar.name in err
    assert sidecar.read_text(encoding="utf-8") == '{"left": "from yesterday"}\n'
    assert out_path.exists()  # the table first, then the sidecar beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["team.csv", "r.csv", "r.csv.provenance.json"]
    )  # no temporary file left


def test_parquet_keeps_it_in_its_metadata(
    team_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out_path = tmp_path / "r.parquet"
    before = datetime.now(timezone.utc)
    argv = ["report", str(team_csv), *WIDE, "--weights", "quadratic", "--overall", "fleiss"]
    code, _, err = run([*argv, "-o", str(out_path)], capsys)
    assert code == 0, err
    table = pq.read_table(out_path)
    metadata = table.schema.metadata
    assert set(metadata) == {b"pandas", b"kappaframe"}
    record = json.loads(metadata[b"kappaframe"])
    _check_record(record, [team_csv], before)
    assert record["options"]["weights"] == "quadratic"
    assert record["options"]["overall"] == ["fleiss"]
    assert "file" not in record  # a file cannot hold its own digest
    side = pq.read_table(tmp_path / "r.overall.parquet")
    assert json.loads(side.schema.metadata[b"kappaframe"]) == record
    assert not list(tmp_path.glob("*.provenance.json"))
    got = table.to_pandas()
    want = expected_team(weights="quadratic")
    pd.testing.assert_series_equal(got["kappa"], want["kappa"], rtol=0, atol=1e-12)

    # The same run with --no-provenance (as before provenance existed): the same columns,
    # types, values and pandas metadata; only the "kappaframe" key differs.
    old_path = tmp_path / "old.parquet"
    assert run([*argv, "-o", str(old_path), "--no-provenance"], capsys)[0] == 0
    old = pq.read_table(old_path)
    assert set(old.schema.metadata) == {b"pandas"}
    assert old.schema.metadata[b"pandas"] == metadata[b"pandas"]
    assert table.schema.remove_metadata() == old.schema.remove_metadata()
    assert table.equals(old)


def test_parquet_on_stdout_keeps_it_too(team_csv: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    argv = ["report", str(team_csv), *WIDE, "-o", "-", "--format", "parquet"]
    child = subprocess.run(
        [sys.executable, "-m", "kappaframe", *argv],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    metadata = pq.read_schema(io.BytesIO(child.stdout)).metadata
    record = json.loads(metadata[b"kappaframe"])
    assert record["inputs"][0]["sha256"] == sha256(team_csv)
    assert record["options"]["output"] == "-"


def test_html_footer_says_it(
    team_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "r.html"
    before = datetime.now(timezone.utc)
    code, _, err = run(["report", str(team_csv), *WIDE, "-o", str(out_path)], capsys)
    assert code == 0, err
    page = out_path.read_text(encoding="utf-8")
    footer = page[page.index("<footer>") : page.index("</footer>")]
    assert f"SHA-256 {sha256(team_csv)}" in footer
    assert f"({team_csv.stat().st_size:,} bytes" in footer
    shown = re.search(r'<details id="kappaframe-provenance">.*?<pre[^>]*>(.*?)</pre>', footer, re.S)
    assert shown is not None
    record = json.loads(html.unescape(shown.group(1)))
    _check_record(record, [team_csv], before)
    assert record["options"]["format"] == "html"
    when = record["created"].replace("Z", "+00:00")
    assert f'<time datetime="{when}">' in footer  # one time for the page and the record
    assert "<script" not in page
    assert not list(tmp_path.glob("*.provenance.json"))


def test_standard_input_is_named_with_the_digest_of_what_came(
    team_csv: Path, tmp_path: Path
) -> None:
    piped = gzip.compress(team_csv.read_bytes())
    child = subprocess.run(
        [sys.executable, "-m", "kappaframe", "report", "-", *WIDE, "-o", "r.json"],
        cwd=tmp_path,
        input=piped,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    record = json.loads((tmp_path / "r.json.provenance.json").read_text(encoding="utf-8"))
    assert record["inputs"] == [
        {
            "path": "standard input",
            "bytes": len(piped),
            "sha256": hashlib.sha256(piped).hexdigest(),
        }
    ]


def test_a_glob_lists_every_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    team = datasets.labeling_team(seed=0)
    folder = tmp_path / "parts"
    folder.mkdir()
    files = []
    for project, part in team.groupby("project"):
        files.append(folder / f"{project}.csv")
        part.to_csv(files[-1], index=False)
    out_path = tmp_path / "r.csv"
    code, _, err = run(
        ["report", str(folder / "*.csv"), *WIDE, "-o", str(out_path), "--stream"], capsys
    )
    assert code == 0, err
    record = json.loads((tmp_path / "r.csv.provenance.json").read_text(encoding="utf-8"))
    assert [f["path"] for f in record["inputs"]] == [str(p) for p in sorted(files)]
    assert [f["sha256"] for f in record["inputs"]] == [sha256(p) for p in sorted(files)]
    assert record["options"]["input"] == str(folder / "*.csv")


def test_nothing_is_written_beside_standard_output(
    team_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    for argv in (["--format", "csv"], ["-o", "-", "--format", "markdown"]):
        assert run(["report", "team.csv", *WIDE, *argv], capsys)[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["team.csv"]


def test_demo_save_says_what_made_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "team.parquet"
    assert run(["demo", "--save", str(path), "--seed", "3", "-q"], capsys)[0] == 0
    record = json.loads(pq.read_schema(path).metadata[b"kappaframe"])
    assert record["inputs"] == [] and record["version"] == kf.__version__
    assert record["options"]["seed"] == 3 and record["options"]["command"] == "demo"


# ------------------------------------------------------------------ 3. sidecars are not input


def test_a_folder_or_glob_never_reads_a_sidecar(
    team_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    saved = folder / "team.json"
    assert run(["demo", "--save", str(saved), "-q"], capsys)[0] == 0
    assert (folder / "team.json.provenance.json").exists()
    for given in (str(folder), str(folder / "*.json")):
        code, out, err = run(["report", given, *WIDE, "--format", "csv", "-v"], capsys)
        assert code == 0, err
        assert "left out 1 provenance sidecar(s)" in err
        got = pd.read_csv(io.StringIO(out))
        pd.testing.assert_series_equal(got["kappa"], expected_team()["kappa"], atol=1e-12)


def test_a_sidecar_over_the_input_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ratings = tmp_path / "r.csv.provenance.json"  # a JSON file of ratings, oddly named
    ratings.write_text('[{"a": "x", "b": "x"}, {"a": "y", "b": "x"}]\n', encoding="utf-8")
    before = ratings.read_bytes()
    code, _, err = run(["report", str(ratings), "-o", str(tmp_path / "r.csv")], capsys)
    assert code == 2
    assert "the provenance of --output's table goes beside it" in err
    assert "is the input file" in err and "choose another --output" in err
    assert ratings.read_bytes() == before
    assert not (tmp_path / "r.csv").exists()
