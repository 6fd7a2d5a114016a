"""The command line on the files people have: Excel exports, pipes, folders, compressed files."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli, datasets
from kappaframe._io.read import Progress, counted, sniff_decimal, sniff_delimiter

ROOT = Path(__file__).resolve().parents[2]
TEAM = list(datasets.TEAM)


def kappaframe(
    *args: str, cwd: Path, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m kappaframe ARGS`` in ``cwd`` (stderr not a terminal)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "kappaframe", *args],
        cwd=cwd,
        input=stdin if stdin is not None else b"",
        capture_output=True,
        env=env,
        check=False,
    )


def text(data: bytes) -> str:
    return data.decode("utf-8")


def read_csv_out(data: bytes) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(data))


# ------------------------------------------------------------------ 1. German Excel export

#: A German Excel export: UTF-8 with a byte order mark, ';' between fields, CRLF line
#: ends, decimal commas. The first column is a rater, so a kept BOM would rename it.
GERMAN = (
    "\ufeffana;ben;s1;s2\r\n"
    "gut;gut;0,5;0,5\r\n"
    "schlecht;gut;1,5;0,5\r\n"
    "gut;gut;2,5;2,5\r\n"
    "schlecht;schlecht;1,5;1,5\r\n"
    "gut;schlecht;0,5;1,5\r\n"
).encode()


def test_german_excel_export_is_sniffed(tmp_path: Path) -> None:
    (tmp_path / "export.csv").write_bytes(GERMAN)
    run = kappaframe(
        "report", "export.csv", "--raters", "ana", "ben", "--format", "csv", cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == b""
    res = read_csv_out(run.stdout)
    expected = kf.cohen_kappa(
        ["gut", "schlecht", "gut", "schlecht", "gut"], ["gut", "gut", "gut", "schlecht", "schlecht"]
    )
    assert list(res["rater_a"]) == ["ana"] and list(res["rater_b"]) == ["ben"]
    assert res["kappa"].iloc[0] == pytest.approx(expected, abs=1e-12)


def test_german_decimal_commas_are_numbers(tmp_path: Path) -> None:
    (tmp_path / "export.csv").write_bytes(GERMAN)
    args = ["report", "export.csv", "--raters", "s1", "s2", "--weights", "linear"]
    run = kappaframe(*args, "--categories", "0.5", "1.5", "2.5", "--format", "csv", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    expected = kf.cohen_kappa(
        [0.5, 1.5, 2.5, 1.5, 0.5], [0.5, 0.5, 2.5, 1.5, 1.5], weights="linear"
    )
    assert read_csv_out(run.stdout)["kappa"].iloc[0] == pytest.approx(expected, abs=1e-12)
    # Forced: the same; forced to a decimal point, "0,5" stays a word outside --categories.
    forced = kappaframe(
        *args,
        "--categories",
        "0.5",
        "1.5",
        "2.5",
        "--format",
        "csv",
        "--delimiter",
        ";",
        "--decimal",
        ",",
        cwd=tmp_path,
    )
    assert forced.returncode == 0 and forced.stdout == run.stdout
    point = kappaframe(*args, "--categories", "0.5", "1.5", "2.5", "--decimal", ".", cwd=tmp_path)
    assert point.returncode == 2
    assert "'0,5'" in text(point.stderr) and "--drop-labels" in text(point.stderr)


def test_delimiter_and_decimal_sniffing() -> None:
    assert sniff_delimiter("a;b;c\r\n1,5;2;3\r\n") == ";"
    assert sniff_delimiter("a\tb\n1\t2\n") == "\t"
    assert sniff_delimiter("a|b\nx|y\n") == "|"
    assert sniff_delimiter("a,b\nx;1,y\n") == ","
    assert sniff_decimal("a;b\n0,5;1\n", ";") == ","
    assert sniff_decimal("a;b\n0.5;1\n", ";") == "."
    assert sniff_decimal("a,b\n1,2\n", ",") == "."


def test_a_forced_tab_delimiter(tmp_path: Path) -> None:
    (tmp_path / "ratings.txt").write_text("a\tb\nx\tx\ny\tx\ny\ty\n")
    run = kappaframe(
        "report", "ratings.txt", "--input-format", "csv", "--delimiter", "tab", cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"a\s+b\s+3\s", text(run.stdout))


# ------------------------------------------------------------------ 2. encodings

WINDOWS = "Müller,José\nja,ja\nnein,ja\nja,ja\nnein,nein\n".encode("cp1252")


def test_cp1252_fails_naming_encoding(tmp_path: Path) -> None:
    (tmp_path / "windows.csv").write_bytes(WINDOWS)
    run = kappaframe("report", "windows.csv", cwd=tmp_path)
    assert run.returncode == 2 and run.stdout == b""
    message = text(run.stderr)
    assert "not UTF-8" in message and "--encoding cp1252" in message
    assert "Traceback" not in message


def test_cp1252_reads_with_encoding(tmp_path: Path) -> None:
    (tmp_path / "windows.csv").write_bytes(WINDOWS)
    run = kappaframe("report", "windows.csv", "--encoding", "cp1252", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Müller" in text(run.stdout) and "José" in text(run.stdout)
    unknown = kappaframe("report", "windows.csv", "--encoding", "klingon", cwd=tmp_path)
    assert unknown.returncode == 2 and "unknown --encoding 'klingon'" in text(unknown.stderr)


# ------------------------------------------------------------------ 3. streams, folders, outputs


@pytest.fixture
def team(tmp_path: Path) -> Path:
    path = tmp_path / "team.csv"
    run = kappaframe("demo", "--save", "team.csv", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    return path


WIDE = ["--by", "project", "--exclude", "item", "model_score"]


def test_stdin_is_sniffed_and_stdout_takes_a_format(team: Path) -> None:
    whole = kappaframe("report", "team.csv", *WIDE, "--format", "csv", cwd=team.parent)
    piped = kappaframe(
        "report",
        "-",
        *WIDE,
        "-o",
        "-",
        "--format",
        "csv",
        cwd=team.parent,
        stdin=team.read_bytes(),
    )
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == whole.stdout and len(read_csv_out(piped.stdout)) == 3 * 15
    zipped = kappaframe(
        "report",
        "-",
        *WIDE,
        "--format",
        "csv",
        cwd=team.parent,
        stdin=gzip.compress(team.read_bytes()),
    )
    assert zipped.returncode == 0 and zipped.stdout == whole.stdout


def test_stdin_as_named_format(team: Path) -> None:
    frame = pd.read_csv(team)
    lines = frame.to_json(orient="records", lines=True).encode()
    run = kappaframe(
        "report",
        "-",
        "--input-format",
        "jsonl",
        "--raters",
        "ana",
        "ben",
        "--format",
        "json",
        cwd=team.parent,
        stdin=lines,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)[0]["rater_a"] == "ana"


def test_stdin_that_cannot_be_sniffed_names_the_flag(tmp_path: Path) -> None:
    empty = kappaframe("report", "-", cwd=tmp_path, stdin=b"")
    assert empty.returncode == 2
    assert "standard input" in text(empty.stderr) and "--input-format" in text(empty.stderr)
    binary = kappaframe("report", "-", cwd=tmp_path, stdin=b"\x00\x01\x02garbage")
    assert binary.returncode == 2 and "--input-format" in text(binary.stderr)


def test_globs_and_directories_stack_files(team: Path) -> None:
    lines = team.read_text().splitlines(keepends=True)
    parts = team.parent / "parts"
    parts.mkdir()
    (parts / "a.csv").write_text("".join(lines[:301]))
    (parts / "b.csv").write_text("".join([lines[0], *lines[301:]]))
    whole = kappaframe("report", "team.csv", *WIDE, "--format", "csv", cwd=team.parent)
    for source in ("parts", "parts/*.csv"):
        run = kappaframe("report", source, *WIDE, "--format", "csv", cwd=team.parent)
        assert run.returncode == 0, run.stderr
        assert run.stdout == whole.stdout
    nothing = kappaframe("report", "parts/*.parquet", cwd=team.parent)
    assert nothing.returncode == 2 and "no file matches" in text(nothing.stderr)


def test_columns_united_over_files(tmp_path: Path) -> None:
    (tmp_path / "one.csv").write_text("a,b\nx,x\ny,y\n")
    (tmp_path / "two.csv").write_text("a,c\nx,y\ny,y\n")
    run = kappaframe("report", "*.csv", "--format", "csv", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    res = read_csv_out(run.stdout)
    assert list(zip(res["rater_a"], res["rater_b"], res["n"], strict=True)) == [
        ("a", "b", 2),
        ("a", "c", 2),
        ("b", "c", 0),
    ]


@pytest.mark.parametrize(
    ("name", "sep", "opener"),
    [("out.tsv", "\t", open), ("out.csv.gz", ",", gzip.open), ("out.tsv.gz", "\t", gzip.open)],
)
def test_tsv_and_compressed_outputs(team: Path, name: str, sep: str, opener: object) -> None:
    run = kappaframe("report", "team.csv", *WIDE, "-o", name, cwd=team.parent)
    assert run.returncode == 0, run.stderr
    assert run.stdout == b""
    res = pd.read_csv(team.parent / name, sep=sep)
    assert list(res.columns[:3]) == ["project", "rater_a", "rater_b"] and len(res) == 45
    parquet = kappaframe("report", "team.csv", *WIDE, "-o", "out.parquet.gz", cwd=team.parent)
    assert parquet.returncode == 2 and "Parquet compresses its own columns" in text(parquet.stderr)


@pytest.mark.parametrize("name", ["team.csv.gz", "team.jsonl.gz", "team.jsonl", "team.tsv.bz2"])
def test_stream_reads_compressed_csv_and_json_lines(team: Path, name: str) -> None:
    frame = pd.read_csv(team)
    target = team.parent / name
    if ".jsonl" in name:
        frame.to_json(target, orient="records", lines=True)
    else:
        frame.to_csv(target, sep="\t" if ".tsv" in name else ",", index=False)
    whole = kappaframe("report", "team.csv", *WIDE, "--format", "csv", cwd=team.parent)
    run = kappaframe("report", name, *WIDE, "--stream", "--format", "csv", cwd=team.parent)
    assert run.returncode == 0, run.stderr
    got, want = read_csv_out(run.stdout), read_csv_out(whole.stdout)
    pd.testing.assert_frame_equal(got, want, check_exact=False, atol=1e-12, rtol=0)


# ------------------------------------------------------------------ 4. an empty file at the gate


def test_header_only_file_does_not_pass_the_gate(tmp_path: Path) -> None:
    (tmp_path / "empty.csv").write_text("item,ana,ben\n")
    run = kappaframe(
        "report", "empty.csv", "--raters", "ana", "ben", "--fail-under", "0.6", cwd=tmp_path
    )
    assert run.returncode == 2 and run.stdout == b""
    assert "no rows to check" in text(run.stderr) and "--fail-under" in text(run.stderr)
    # Without the gate the (empty) table is still shown.
    plain = kappaframe("report", "empty.csv", "--raters", "ana", "ben", cwd=tmp_path)
    assert plain.returncode == 0


def test_only_undefined_values_do_not_pass_the_gate(tmp_path: Path) -> None:
    (tmp_path / "same.csv").write_text("a,b\nx,x\nx,x\n")
    run = kappaframe("report", "same.csv", "--fail-under", "0.6", cwd=tmp_path)
    assert run.returncode == 2 and "no rows to check" in text(run.stderr)


# ------------------------------------------------------------------ 5. the documented commands


def documented_commands() -> list[list[str]]:
    """The ``kappaframe report team.csv ...`` examples of ``--help``, joined and split."""
    joined = (cli.build_parser().epilog or "").replace("\\\n", " ")
    return [
        shlex.split(line.strip())[1:]
        for line in joined.splitlines()
        if line.strip().startswith("kappaframe report team.csv")
    ]


def test_documented_commands_work_on_the_demo_file(tmp_path: Path) -> None:
    commands = documented_commands()
    assert len(commands) >= 2
    assert kappaframe("demo", "--save", "team.csv", cwd=tmp_path).returncode == 0
    for command in commands:
        run = kappaframe(*command, cwd=tmp_path)
        assert run.returncode == 0, (command, run.stderr)
        assert b"error" not in run.stderr
    assert "<!DOCTYPE html>" in (tmp_path / "team.html").read_text()
    # The piped example too.
    piped = next(
        line
        for line in (cli.build_parser().epilog or "").replace("\\\n", " ").splitlines()
        if "report -" in line
    )
    args = shlex.split(piped.split("|", 1)[1])[1:]
    run = kappaframe(*args, cwd=tmp_path, stdin=(tmp_path / "team.csv").read_bytes())
    assert run.returncode == 0, run.stderr
    assert "Overall agreement" in text(run.stdout)


def test_exclude_names_columns_of_the_file(team: Path) -> None:
    run = kappaframe("report", "team.csv", "--exclude", "nope", cwd=team.parent)
    assert run.returncode == 2 and "--exclude names 'nope'" in text(run.stderr)


# ------------------------------------------------------------------ 6. messages for the CLI


def test_duplicates_name_the_flag_and_the_lines(tmp_path: Path) -> None:
    (tmp_path / "long.csv").write_text("item,annot,label\n1,a,x\n2,a,y\n1,b,x\n1,a,y\n2,b,y\n")
    args = ["report", "long.csv", "--item", "item", "--rater", "annot", "--label", "label"]
    run = kappaframe(*args, cwd=tmp_path)
    assert run.returncode == 2
    message = text(run.stderr)
    assert "--duplicates first or --duplicates last" in message
    assert "lines 2 and 5 of long.csv" in message
    assert "duplicates=" not in message
    assert kappaframe(*args, "--duplicates", "first", cwd=tmp_path).returncode == 0


def test_label_outside_categories_offers_drop_labels_and_map(tmp_path: Path) -> None:
    (tmp_path / "unsure.csv").write_text("a,b\nx,unsure\ny,y\nx,x\ny,x\n")
    run = kappaframe("report", "unsure.csv", "--categories", "x", "y", cwd=tmp_path)
    assert run.returncode == 2
    message = text(run.stderr)
    assert "'unsure'" in message and "--categories" in message and "categories=" not in message
    assert "--drop-labels" in message and "--map" in message
    dropped = kappaframe(
        "report",
        "unsure.csv",
        "--categories",
        "x",
        "y",
        "--drop-labels",
        "unsure",
        "--format",
        "csv",
        cwd=tmp_path,
    )
    assert dropped.returncode == 0 and read_csv_out(dropped.stdout)["n"].iloc[0] == 3
    mapped = kappaframe(
        "report",
        "unsure.csv",
        "--categories",
        "x",
        "y",
        "--map",
        "unsure=x",
        "--format",
        "csv",
        cwd=tmp_path,
    )
    assert mapped.returncode == 0
    expected = kf.cohen_kappa(["x", "y", "x", "y"], ["x", "y", "x", "x"])
    assert read_csv_out(mapped.stdout)["kappa"].iloc[0] == pytest.approx(expected, abs=1e-12)


def test_mixed_label_types_name_flags_not_python(tmp_path: Path) -> None:
    (tmp_path / "mixed.jsonl").write_text('{"a": 1, "b": "x"}\n{"a": 2, "b": "y"}\n')
    run = kappaframe("report", "mixed.jsonl", cwd=tmp_path)
    assert run.returncode == 2
    message = text(run.stderr)
    assert "--categories" in message and ".astype" not in message and "=" not in message


def test_options_are_named_by_the_callers_spelling() -> None:
    from kappaframe._cli.parser import option_flags
    from kappaframe._errors import arg, spelled_as, ways

    assert arg("duplicates", "first") == "duplicates='first'"
    assert arg("raters", ...) == "raters=[...]" and arg("by") == "by="
    flags = option_flags(cli.build_parser())
    # Read off the parser: the Python name of --overall and --na-values is another word.
    assert flags["method"] == "--overall" and flags["null_values"] == "--na-values"
    assert flags["min_items"] == "--min-items"
    with spelled_as(flags):
        assert arg("duplicates", "first") == "--duplicates first"
        assert arg("raters", ...) == "--raters ..." and arg("by") == "--by"
        assert arg("method", "gwet_ac2") == "--overall gwet_ac2"
        assert arg("null_values", ["NA", "N/A"]) == "--na-values NA N/A"
        assert arg("level") == "level="  # no flag: the Python spelling
        assert ways("python", "flags") == "flags"
    assert ways("python", "flags") == "python"


def test_errors_carry_their_option_and_the_cli_names_its_flag(tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_text("a,b\nx,y\ny,z\nz,x\n")
    with pytest.raises(kf.KappaFrameError) as caught:
        kf.pairwise(str(tmp_path / "t.csv"), ["a", "b"], weights="linear")
    assert caught.value.option == "categories"
    assert "categories=[...]" in str(caught.value)
    run = kappaframe("report", "t.csv", "--raters", "a", "b", "--weights", "linear", cwd=tmp_path)
    assert run.returncode == 2
    message = text(run.stderr)
    assert "--categories ..." in message and "categories=" not in message
    assert "--weights linear needs the order" in message


# ------------------------------------------------------------------ 7. smaller things


def test_comma_separated_raters_get_a_hint(team: Path) -> None:
    run = kappaframe("report", "team.csv", "--raters", "ana,ben,cai", cwd=team.parent)
    assert run.returncode == 2
    assert "separate rater names with spaces" in text(run.stderr).lower()
    assert "--raters ana ben cai" in text(run.stderr)


def test_one_undefined_row_is_one_row(tmp_path: Path) -> None:
    (tmp_path / "same.csv").write_text("a,b,c\nx,x,x\nx,x,y\nx,x,x\nx,x,y\n")
    run = kappaframe("report", "same.csv", "--fail-under", "-0.5", cwd=tmp_path)
    assert run.returncode == 0
    assert "note: 1 row has no kappa (undefined); it does not count" in text(run.stderr)
    assert "1 rows" not in text(run.stderr)


def test_demo_save_lists_the_suffixes_it_writes(tmp_path: Path) -> None:
    run = kappaframe("demo", "--save", "team.xlsx", cwd=tmp_path)
    assert run.returncode == 2
    message = text(run.stderr)
    assert "demo --save writes" in message and ".csv" in message and ".parquet" in message
    assert "--format" not in message
    assert not (tmp_path / "team.xlsx").exists()


# ------------------------------------------------------------------ 8. Parquet keeps the order


def test_parquet_output_keeps_the_ordered_interpretation(team: Path) -> None:
    pytest.importorskip("pyarrow")
    run = kappaframe("report", "team.csv", *WIDE, "-o", "out.parquet", cwd=team.parent)
    assert run.returncode == 0, run.stderr
    res = pd.read_parquet(team.parent / "out.parquet")
    labels = (
        kf.SCALES["landis_koch"].labels if hasattr(kf.SCALES["landis_koch"], "labels") else None
    )
    dtype = res["interpretation"].dtype
    assert isinstance(dtype, pd.CategoricalDtype) and dtype.ordered
    expected = kf.pairwise(datasets.labeling_team(seed=0), TEAM, by="project")
    assert list(dtype.categories) == list(expected["interpretation"].cat.categories)
    if labels is not None:
        assert list(dtype.categories) == ["too few items", *labels]


# ------------------------------------------------------------------ 9. many raters


def test_overall_and_rater_summary_in_text(team: Path) -> None:
    run = kappaframe(
        "report",
        "team.csv",
        *WIDE,
        "--overall",
        "fleiss",
        "krippendorff",
        "--raters-summary",
        cwd=team.parent,
    )
    assert run.returncode == 0, run.stderr
    out = text(run.stdout)
    assert "Overall agreement (many raters):" in out and "Raters:" in out
    data = datasets.labeling_team(seed=0)
    raters = [*TEAM, "gold"]
    many = kf.overall(data, raters, by="project", method=["fleiss", "krippendorff"])
    alpha = many[(many["project"] == "alpha") & (many["method"] == "krippendorff")]
    assert f"{alpha['value'].iloc[0]:.3f}" in out


def test_overall_tables_go_beside_the_output(team: Path) -> None:
    run = kappaframe(
        "report",
        "team.csv",
        *WIDE,
        "--overall",
        "fleiss",
        "--raters-summary",
        "-o",
        "agreement.csv",
        cwd=team.parent,
    )
    assert run.returncode == 0, run.stderr
    many = pd.read_csv(team.parent / "agreement.overall.csv")
    summary = pd.read_csv(team.parent / "agreement.raters.csv")
    assert list(many["method"]) == ["fleiss"] * 3 and "value" in many
    assert set(summary["rater"]) == {*TEAM, "gold"}
    refused = kappaframe(
        "report", "team.csv", *WIDE, "--overall", "fleiss", "--format", "csv", cwd=team.parent
    )
    assert refused.returncode == 2 and "--output" in text(refused.stderr)


def test_the_gate_on_overall(team: Path) -> None:
    args = ["report", "team.csv", *WIDE, "--overall", "fleiss", "--fail-on", "overall"]
    low = kappaframe(*args, "--fail-under", "0.2", cwd=team.parent)
    assert low.returncode == 1
    assert "1 of 3 rows have value below 0.2" in text(low.stderr) and "gamma" in text(low.stderr)
    assert kappaframe(*args, "--fail-under", "0.1", cwd=team.parent).returncode == 0
    lone = kappaframe(
        "report", "team.csv", *WIDE, "--fail-on", "overall", "--fail-under", "0.1", cwd=team.parent
    )
    assert lone.returncode == 2 and "add --overall" in text(lone.stderr)


# ------------------------------------------------------------------ 10. progress


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_progress_when_stderr_is_not_a_terminal(team: Path) -> None:
    run = kappaframe("report", "team.csv", *WIDE, "--stream", "--format", "csv", cwd=team.parent)
    assert run.returncode == 0 and run.stderr == b""
    pipe = io.StringIO()
    with Progress("reading", 10, stream=pipe, delay=0) as bar:
        bar.advance(10)
    assert pipe.getvalue() == ""


def test_progress_draws_and_advances_on_a_terminal() -> None:
    pytest.importorskip("tqdm")
    tty = FakeTerminal()
    with Progress("counting", None, unit="rows", stream=tty, delay=0) as bar:

        class Batch:
            num_rows = 1500

        batches = list(counted([Batch(), Batch()], bar))
        assert len(batches) == 2 and bar.done == 3000
        assert "counting 3,000 rows" in tty.getvalue()
    with Progress("drawing", 4, unit="groups", stream=tty, delay=0) as bar:
        bar.advance(1)
        assert "drawing [" in tty.getvalue() and " 25% 1 groups / 4 groups" in tty.getvalue()


@pytest.mark.parametrize(
    ("fmt", "marker"), [("markdown", "## Overall agreement"), ("html", 'id="overall-table"')]
)
def test_overall_in_markdown_and_html(team: Path, fmt: str, marker: str) -> None:
    run = kappaframe(
        "report", "team.csv", *WIDE, "--overall", "fleiss", "--format", fmt, cwd=team.parent
    )
    assert run.returncode == 0, run.stderr
    assert marker in text(run.stdout) and "fleiss" in text(run.stdout)
