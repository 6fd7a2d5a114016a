"""The command line with hostile or unlucky inputs and outputs: exit codes, files, messages.

Exit code 1 means only "agreement below --fail-under"; a refusal is exit code 2 with a
``kappaframe: error:`` line that names the value and the way out; an interrupt is 130.
"""

from __future__ import annotations

import bz2
import errno
import gzip
import io
import json
import lzma
import os
import re
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli
from kappaframe._io.write import TEMP_MARK, write_atomic

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def refused(code: int, err: str, *words: str) -> None:
    """Exit 2, one ``kappaframe: error:`` message naming ``words``, no traceback."""
    assert code == 2, err
    assert "kappaframe: error:" in err or "error: argument" in err, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


@pytest.fixture
def pairs_csv(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.csv"
    path.write_text("a,b\nx,x\ny,y\nx,y\ny,y\nx,x\ny,x\n")
    return path


def kappa_of(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])


# --------------------------------------------------------------------------- 1. odd targets


def test_symlink_output_stays_a_link(
    pairs_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    code, _, err = run(["report", str(pairs_csv), "-o", str(link)], capsys)
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().startswith("rater_a,rater_b,n")


def test_fifo_output_is_written_through(
    pairs_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, _, err = run(["report", str(pairs_csv), "--format", "csv", "-o", str(fifo)], capsys)
    reader.join(timeout=30)
    assert code == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # not replaced by a regular file
    assert got and got[0].startswith(b"rater_a,rater_b,n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.csv", "report.fifo"]


def test_null_device_stays_a_device(
    pairs_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A private node of the null device (1, 3): a failing run cannot harm /dev/null.
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("creating a device node needs root")
    code, _, err = run(["report", str(pairs_csv), "--format", "csv", "-o", str(null)], capsys)
    assert code == 0, err
    assert stat.S_ISCHR(os.stat(null).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null", "pairs.csv"]


# --------------------------------------------------------------------------- 2. input as output


@pytest.mark.parametrize("how", ["same", "symlink", "hardlink", "dotted"])
def test_output_that_is_the_input_is_refused(
    how: str, pairs_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = pairs_csv.read_bytes()
    target = tmp_path / "other.csv"
    if how == "same":
        target = pairs_csv
    elif how == "symlink":
        target.symlink_to(pairs_csv)
    elif how == "hardlink":
        os.link(pairs_csv, target)
    else:
        target = tmp_path / "." / "sub" / ".." / "pairs.csv"
        (tmp_path / "sub").mkdir()
    code, _, err = run(["report", str(pairs_csv), "-o", str(target)], capsys)
    refused(code, err, "is the input file", "choose another --output")
    assert pairs_csv.read_bytes() == before


@pytest.fixture
def parts(tmp_path: Path) -> Path:
    """A directory of two ratings files (and one more in a subdirectory)."""
    folder = tmp_path / "parts"
    (folder / "more").mkdir(parents=True)
    (folder / "a.csv").write_text("a,b\nx,x\ny,y\nx,y\n")
    (folder / "b.csv").write_text("a,b\ny,y\nx,x\ny,x\n")
    (folder / "more" / "c.csv").write_text("a,b\nx,x\ny,y\n")
    return folder


def contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize(
    ("given", "output"),
    [
        ("parts/*.csv", "parts/a.csv"),
        ("parts/**/*.csv", "parts/more/c.csv"),
        ("parts", "parts/b.csv"),
        ("parts/", "parts/more/c.csv"),
        ("parts", "link.csv"),  # a link to an input file inside the directory
    ],
)
def test_output_that_is_an_input_through_a_glob_or_a_directory_is_refused(
    given: str,
    output: str,
    parts: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(parts.parent)
    if output == "link.csv":
        Path(output).symlink_to(parts / "a.csv")
    before = contents(parts.parent)
    code, out, err = run(["report", given, "--output", output], capsys)
    refused(code, err, f"--output {output!r}", "is the input file", "choose another --output")
    assert out == ""
    assert contents(parts.parent) == before  # every input byte for byte, nothing new


@pytest.mark.parametrize(
    ("given", "output", "extra", "side"),
    [
        ("ratings.overall.csv", "ratings.csv", ["--overall", "fleiss"], "ratings.overall.csv"),
        ("parts", "parts/r.csv", ["--raters-summary"], "parts/r.raters.csv"),
        ("parts/*.csv", "parts/r.csv", ["--overall", "fleiss"], "parts/r.overall.csv"),
        ("r.overall.csv.gz", "r.csv.gz", ["--overall", "fleiss"], "r.overall.csv.gz"),
        ("ratings.overall.csv", "ratings.json", ["--overall", "fleiss"], None),
    ],
)
def test_a_table_written_beside_the_output_over_an_input_is_refused(
    given: str,
    output: str,
    extra: list[str],
    side: str | None,
    parts: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(parts.parent)
    ratings = b"a,b\nx,x\ny,y\nx,y\n"
    Path("ratings.overall.csv").write_bytes(ratings)
    Path("r.overall.csv.gz").write_bytes(gzip.compress(ratings))
    for name in ("r.overall.csv", "r.raters.csv"):
        (parts / name).write_bytes(ratings)
    before = contents(parts.parent)
    code, out, err = run(["report", given, "--output", output, *extra], capsys)
    if side is None:  # ratings.overall.json is not the input: written
        assert code == 0, err
        assert Path("ratings.overall.json").exists()
        return
    flag = extra[0]
    refused(code, err, f"{flag} writes its table", repr(side), "is the input file", "--output")
    assert out == ""
    assert contents(parts.parent) == before  # every input byte for byte, nothing new


def test_output_beside_the_inputs_that_is_not_one_is_written(
    parts: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(parts.parent)
    (parts / "report.json").write_text("[]")  # an old report, not matched by the glob
    code, _, err = run(["report", "parts/*.csv", "--output", "parts/report.json"], capsys)
    assert code == 0, err
    assert [row["n"] for row in json.loads((parts / "report.json").read_text())] == [6]


# --------------------------------------------------------------------------- 4. modes


def test_replaced_output_keeps_its_mode(
    pairs_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    private = tmp_path / "private.csv"
    private.write_text("old\n")
    private.chmod(0o600)
    assert run(["report", str(pairs_csv), "-o", str(private)], capsys)[0] == 0
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert private.read_text().startswith("rater_a")
    fresh = tmp_path / "fresh.csv"
    mask = os.umask(0o022)
    try:
        assert run(["report", str(pairs_csv), "-o", str(fresh)], capsys)[0] == 0
    finally:
        os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644


# --------------------------------------------------------------------------- 5. missing values


@pytest.fixture
def tokens_csv(tmp_path: Path) -> Path:
    path = tmp_path / "tokens.csv"
    path.write_text("a,b\nN/A,N/A\nNone,None\nNA,NA\nyes,yes\nno,no\nN/A,yes\nNone,no\n,yes\n")
    return path


def test_only_empty_cells_are_missing_unless_named(
    tokens_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["report", str(tokens_csv), "--format", "csv"]
    tables = []
    for extra in ([], ["--stream"]):
        code, out, err = run([*base, *extra], capsys)
        assert code == 0, err
        tables.append(out)
    assert tables[0] == tables[1]
    got = kappa_of(tables[0])
    assert got["n"].item() == 7  # N/A, None and NA are labels; the empty cell is missing
    expected = kf.cohen_kappa(
        ["N/A", "None", "NA", "yes", "no", "N/A", "None"],
        ["N/A", "None", "NA", "yes", "no", "yes", "no"],
    )
    assert got["kappa"].item() == pytest.approx(expected, abs=1e-12)

    named = []
    for extra in ([], ["--stream"]):
        code, out, err = run([*base, "--na-values", "N/A", *extra], capsys)
        assert code == 0, err
        named.append(out)
    assert named[0] == named[1]
    assert kappa_of(named[0])["n"].item() == 5  # both N/A rows dropped too


def test_help_says_what_is_missing_and_what_raw_does(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = run(["report", "--help"], capsys)
    assert code == 0
    flat = " ".join(text.split())
    assert "--na-values" in flat and "only an empty cell is missing" in flat
    assert "--raw" in flat and "as a formula" in flat


# --------------------------------------------------------------------------- 6. labels as written


def test_codes_are_compared_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "codes.csv"
    # Read as numbers, 01, 1 and 1.0 would be one label and agreement perfect.
    path.write_text("a,b\n01,1\n1,1.0\n1.0,01\n2,2\n01,01\n2,2\n")
    a = ["01", "1", "1.0", "2", "01", "2"]
    b = ["1", "1.0", "01", "2", "01", "2"]
    expected = kf.cohen_kappa(a, b)
    assert expected < 1
    for extra in ([], ["--stream"]):
        code, out, err = run(["report", str(path), "--format", "csv", *extra], capsys)
        assert code == 0, err
        assert kappa_of(out)["kappa"].item() == pytest.approx(expected, abs=1e-12)


def test_hex_looking_codes_stay_text_in_both_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hex.csv"
    path.write_text("a,b\n0x1,1\n1,1\n0x1,0x1\n2,2\n")
    outs = []
    for extra in ([], ["--stream"]):
        code, out, err = run(["report", str(path), "--format", "csv", *extra], capsys)
        assert code == 0, err
        outs.append(out)
    assert outs[0] == outs[1]
    expected = kf.cohen_kappa(["0x1", "1", "0x1", "2"], ["1", "1", "0x1", "2"])
    assert kappa_of(outs[0])["kappa"].item() == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("stream", [False, True])
def test_repeated_column_name_is_refused(
    stream: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "twice.csv"
    path.write_text("a,b,a\nx,x,y\ny,y,y\n")
    args = ["report", str(path), *(["--stream"] if stream else [])]
    code, _, err = run(args, capsys)
    refused(code, err, "'a' appears more than once", "rename one")


# --------------------------------------------------------------------------- 10. the bar


@pytest.mark.parametrize("bar", ["nan", "inf", "-inf", "NaN", "1.5", "-2"])
def test_fail_under_must_be_a_real_bar(
    bar: str, pairs_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["report", str(pairs_csv), f"--fail-under={bar}"], capsys)
    refused(code, err, "--fail-under")
    assert out == ""
    assert bar in err or bar.lstrip("-") in err


def test_fail_under_on_counts_allows_big_bars(
    pairs_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        ["report", str(pairs_csv), "--fail-on", "n", "--fail-under", "50", "--format", "csv"],
        capsys,
    )
    assert code == 1 and "rows have n below 50" in err


# --------------------------------------------------------------------------- 15. heatmap cap


def test_html_draws_a_capped_number_of_group_heatmaps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    from kappaframe._report.report import MAX_GROUP_HEATMAPS

    rng = np.random.default_rng(0)
    groups = 60
    rows = []
    for g in range(groups):
        for _ in range(6):
            a, b = rng.choice(["x", "y"], 2)
            rows.append({"g": f"g{g:02d}", "a": a, "b": b})
    path = tmp_path / "groups.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    out_path = tmp_path / "groups.html"
    code, _, err = run(["report", str(path), "--by", "g", "-o", str(out_path)], capsys)
    assert code == 0, err
    page = out_path.read_text()

    def panels(page: str) -> list[str]:
        """The groups drawn: one figure, its label naming each panel's group."""
        labels = re.findall(r'aria-label="kappa matrix ([^"]*)"', page)
        return [name for label in labels for name in label.split(", ")]

    assert panels(page) == [f"g = g{g:02d}" for g in range(MAX_GROUP_HEATMAPS)]
    assert f"{MAX_GROUP_HEATMAPS} of {groups} groups drawn" in page
    assert "--heatmaps N" in page
    assert "g59" in page  # every group is still in the pairs table
    code, _, err = run(
        ["report", str(path), "--by", "g", "--heatmaps", "2", "-o", str(out_path)], capsys
    )
    assert code == 0, err
    assert panels(out_path.read_text()) == ["g = g00", "g = g01"]


# --------------------------------------------------------------------------- 16. markdown, html

HOSTILE_RATER = "<script>alert(1)</script>|x\nnext"
HOSTILE_GROUP = '<img src=x onerror="alert(2)">'


@pytest.fixture
def hostile_csv(tmp_path: Path) -> Path:
    frame = pd.DataFrame(
        {
            "g": [HOSTILE_GROUP] * 6 + ["plain"] * 6,
            HOSTILE_RATER: list("xyxyyx") * 2,
            "b&c": list("xyyyxx") * 2,
        }
    )
    path = tmp_path / "hostile.csv"
    frame.to_csv(path, index=False)
    return path


def test_markdown_escapes_names_and_keys(
    hostile_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["report", str(hostile_csv), "--by", "g", "--format", "markdown"], capsys)
    assert code == 0, err
    assert "<script>" not in out and "<img" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;\\|x next" in out
    assert "b&amp;c" in out
    tables: list[list[str]] = [[]]
    for line in out.splitlines():
        if line.startswith("|"):
            tables[-1].append(line)
        elif tables[-1]:
            tables.append([])
        if "script" in line:  # a name never starts a line of its own
            assert line.startswith(("|", "- **", "## ")), line
    for table in filter(None, tables):  # every row as wide as its header
        assert len({line.replace("\\|", "").count("|") for line in table}) == 1, table


def test_html_escapes_names_and_keys(
    hostile_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "hostile.html"
    code, _, err = run(["report", str(hostile_csv), "--by", "g", "-o", str(out_path)], capsys)
    assert code == 0, err
    page = out_path.read_text()
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;" in page or "&amp;lt;script" in page


# --------------------------------------------------------------------------- 17. neutralised


@pytest.fixture
def formula_csv(tmp_path: Path) -> Path:
    path = tmp_path / "formula.csv"
    path.write_text(
        '"=HYPERLINK(""http://x"")",@sum,ann\x1b[2Jx,\u202eevil\n'
        "x,x,x,y\ny,y,y,y\nx,y,x,x\ny,x,y,y\nx,x,y,x\n"
    )
    return path


def test_csv_text_cells_are_quoted_for_spreadsheets(
    formula_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["report", str(formula_csv), "--format", "csv"], capsys)
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out))
    assert set(got["rater_a"]) >= {'\'=HYPERLINK("http://x")', "'@sum"}
    assert not any(str(v).startswith(("=", "+", "@")) for v in got["rater_a"])
    assert (got["kappa"] < 0).any()  # negative numbers stay numbers
    assert not any(str(v).startswith("'") for v in got["kappa"].astype(str))
    code, out, err = run(["report", str(formula_csv), "--format", "csv", "--raw"], capsys)
    assert code == 0, err
    assert "=HYPERLINK" in set(pd.read_csv(io.StringIO(out))["rater_a"].str[:10])


def test_text_output_and_listing_show_control_characters(
    formula_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["report", str(formula_csv), "--fail-under", "0.9"], capsys)
    assert code == 1
    for text in (out, err):
        assert "\x1b" not in text and "\u202e" not in text
    assert "ann\\x1b[2Jx" in out and "\\u202eevil" in out
    assert "\\u202eevil" in err


def test_markdown_and_html_show_control_characters(
    formula_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["report", str(formula_csv), "--format", "markdown"], capsys)
    assert code == 0, err
    assert "\x1b" not in out and "\u202e" not in out and "\\u202eevil" in out
    page_path = tmp_path / "c.html"
    code, _, err = run(["report", str(formula_csv), "-o", str(page_path)], capsys)
    assert code == 0, err
    page = page_path.read_text()
    assert "\x1b" not in page and "\u202e" not in page


# --------------------------------------------------------------------------- 19. no traceback


def _truncated(compress: object, data: bytes) -> bytes:
    blob = compress(data)  # type: ignore[operator]
    return blob[: len(blob) // 2]


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("t.csv.gz", lambda d: _truncated(gzip.compress, d)),
        ("t.csv.bz2", lambda d: _truncated(bz2.compress, d)),
        ("t.csv.xz", lambda d: _truncated(lzma.compress, d)),
        ("t.csv.xz", lambda d: b"not xz at all" * 10),
        ("t.csv.gz", lambda d: b"not gzip at all" * 10),
    ],
)
def test_damaged_compressed_input_is_an_input_error(
    name: str, make: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    data = ("a,b\n" + "x,y\ny,y\n" * 20_000).encode()
    path.write_bytes(make(data))  # type: ignore[operator]
    code, _, err = run(["report", str(path)], capsys)
    refused(code, err, name, "copy it again")


def test_zstd_without_the_module_names_the_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "zstandard", None)  # import fails as if not installed
    path = tmp_path / "t.csv.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd" + b"\0" * 20)
    code, _, err = run(["report", str(path)], capsys)
    refused(code, err, "pip install zstandard")


def test_nested_json_values_are_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nested.jsonl"
    path.write_text('{"a": {"x": 1}, "b": "y"}\n{"a": "x", "b": [1, 2]}\n')
    code, _, err = run(["report", str(path)], capsys)
    refused(code, err, "nested value", "flatten")


def test_output_that_is_a_directory(
    pairs_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "out.csv"
    folder.mkdir()
    code, _, err = run(["report", str(pairs_csv), "-o", str(folder)], capsys)
    refused(code, err, "is a directory", "name a file")


@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="needs Linux sysfs")
def test_output_in_a_directory_that_refuses_files(
    pairs_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["report", str(pairs_csv), "-o", "/sys/kernel/agreement.csv"], capsys)
    refused(code, err, "/sys/kernel/agreement.csv", "cannot write")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_output_in_a_read_only_directory(
    pairs_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, _, err = run(["report", str(pairs_csv), "-o", str(locked / "r.csv")], capsys)
    finally:
        locked.chmod(0o700)
    refused(code, err, "Permission denied", "--output")


class FullDevice(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_stdout_on_a_full_device(
    pairs_csv: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdout", FullDevice())
    code = cli.main(["report", str(pairs_csv)])
    err = capsys.readouterr().err
    refused(code, err, "No space left on device", "--output")


def test_fail_on_a_text_column(pairs_csv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["report", str(pairs_csv), "--fail-under", "0.5", "--fail-on", "interpretation"]
    code, _, err = run(args, capsys)
    refused(code, err, "'interpretation' is not a number column", "kappa")


@pytest.mark.parametrize("where", ["build_parser", "run"])
def test_interrupt_anywhere_exits_130(
    where: str,
    pairs_csv: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kappaframe._cli import report

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli if where == "build_parser" else report, where, interrupted)
    code, _, err = run(["report", str(pairs_csv)], capsys)
    assert code == 130
    assert err == "kappaframe: interrupted\n"


def test_sigterm_during_a_write_removes_the_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "report.csv"
    ready = tmp_path / "ready"
    code = (
        "import pathlib, sys, time\n"
        "from kappaframe._io.write import write_atomic\n"
        "def slow(tmp):\n"
        "    tmp.write_text('half a report')\n"
        f"    pathlib.Path({str(ready)!r}).write_text(tmp.name)\n"
        "    time.sleep(60)\n"
        f"write_atomic({str(target)!r}, slow)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ready.exists()
        name = ready.read_text()
        assert name.startswith(f".report.csv{TEMP_MARK}{child.pid}")
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 143
    assert b"Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ready"]


def test_stale_temporary_files_are_removed(tmp_path: Path) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    pid = int(dead.stdout)
    stale = tmp_path / f".report.csv{TEMP_MARK}{pid}"
    stale.write_text("left by a killed run")
    alive = tmp_path / f".report.csv{TEMP_MARK}{os.getppid()}"
    alive.write_text("a run still writing")
    write_atomic(tmp_path / "report.csv", lambda tmp: tmp.write_text("new\n"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["report.csv", alive.name])


def test_stream_parse_error_late_in_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyarrow")
    path = tmp_path / "ragged.csv"
    path.write_text("a,b\n" + "x,y\n" * 20_000 + "x,y,z\n")  # past the rows read first
    # Read whole, the file fails alike: the way out is the file, not dropping --stream.
    for extra in (["--stream"], []):
        code, _, err = run(["report", str(path), *extra], capsys)
        refused(code, err, "ragged.csv", "as many cells as the header")


# --------------------------------------------------------------------------- 20. late types


def test_stream_agrees_when_a_type_changes_late(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyarrow")
    rows = 300_000  # past pyarrow's first block (1 MiB), where it guesses types
    rng = np.random.default_rng(5)
    a = rng.integers(1, 4, rows).astype(object)
    b = np.where(rng.random(rows) < 0.7, a, rng.integers(1, 4, rows)).astype(object)
    a[-3:] = ["2.5", "2.5", "1.5"]  # the first blocks look like integers
    path = tmp_path / "late.csv"
    path.write_text("a,b\n" + "".join(f"{x},{y}\n" for x, y in zip(a, b, strict=True)))
    assert 2**20 < path.stat().st_size < 2 * 2**20
    outs = []
    for extra in ([], ["--stream"]):
        args = ["report", str(path), "--raters", "a", "b", "--weights", "linear"]
        code, out, err = run([*args, "--format", "csv", *extra], capsys)
        assert code == 0, err
        outs.append(kappa_of(out))
    assert outs[0]["n"].item() == outs[1]["n"].item() == rows
    np.testing.assert_allclose(outs[1]["kappa"], outs[0]["kappa"], rtol=0, atol=1e-12)
    numbers = [float(x) for x in a], [float(y) for y in b]
    expected = kf.cohen_kappa(*numbers, weights="linear")
    assert outs[0]["kappa"].item() == pytest.approx(expected, abs=1e-12)


def test_a_fault_inside_is_exit_70_with_its_traceback_never_1(
    pairs_csv: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from kappaframe._api import pairwise as api

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a fault in the counting")

    monkeypatch.setattr(api, "pairwise", broken)
    code, _, err = run(["report", str(pairs_csv), "--fail-under", "0.5"], capsys)
    assert code == cli.EXIT_FAULT == 70
    assert "Traceback" in err and "ZeroDivisionError: a fault in the counting" in err
    assert "internal error (exit 70)" in err
