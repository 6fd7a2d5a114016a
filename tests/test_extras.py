"""A missing optional library is one line naming the extra that installs it.

Absence is simulated in a fresh interpreter with ``sys.modules[name] = None`` (which makes
``import name`` raise ``ModuleNotFoundError``, as when it is not installed).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from kappaframe._errors import EXTRAS, install_hint, missing_dependency, optional_import

ROOT = Path(__file__).resolve().parents[1]


def without(modules: list[str], code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    prelude = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in modules)
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )


@pytest.fixture
def files(tmp_path: Path) -> Path:
    frame = pd.DataFrame({"a": [1, 2, 1, 2] * 5, "b": [1, 2, 2, 2] * 5})
    frame.to_csv(tmp_path / "ratings.csv", index=False)
    pytest.importorskip("pyarrow")
    frame.to_parquet(tmp_path / "ratings.parquet")
    return tmp_path


def api_error(modules: list[str], call: str, cwd: Path) -> str:
    result = without(
        modules,
        f"""
        import kappaframe as kf
        try:
            {call}
        except ModuleNotFoundError as err:
            print(type(err).__name__, err.name, "|", err)
        """,
        cwd,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.parametrize(
    ("call", "says"),
    [
        ('kf.pairwise("ratings.csv")', "reading Parquet, CSV or JSON lines files in batches"),
        ('kf.scan("ratings.parquet")', "reading Parquet, CSV or JSON lines files in batches"),
    ],
)
def test_files_without_pyarrow(files: Path, call: str, says: str) -> None:
    out = api_error(["pyarrow"], call, files)
    assert (
        out
        == f'ModuleNotFoundError pyarrow | {says} needs pyarrow: pip install "kappaframe[parquet]"'
    )


def test_pictures_without_matplotlib(tmp_path: Path) -> None:
    call = 'kf.heatmap(kf.datasets.labeling_team(), ["ana", "ben", "cai"])'
    out = api_error(["matplotlib"], call, tmp_path)
    assert out.startswith("ModuleNotFoundError matplotlib | ")
    assert out.endswith('matplotlib: pip install "kappaframe[plot]"')


def cli(modules: list[str], args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return without(modules, f"from kappaframe.cli import main\nsys.exit(main({args!r}))", cwd)


@pytest.mark.parametrize(
    "args",
    [
        ["report", "ratings.parquet"],
        ["report", "ratings.csv", "--stream"],
        ["report", "ratings.csv", "--output", "out.parquet"],
    ],
)
def test_command_line_without_pyarrow_says_one_line(files: Path, args: list[str]) -> None:
    result = cli(["pyarrow"], args, files)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("kappaframe: error: ")
    assert lines[0].endswith('pyarrow: pip install "kappaframe[parquet]"') or lines[0].endswith(
        'pyarrow is not installed: pip install "kappaframe[parquet]"'
    )
    assert not (files / "out.parquet").exists()


def test_command_line_reads_csv_without_pyarrow(files: Path) -> None:
    result = cli(["pyarrow"], ["report", "ratings.csv", "--format", "csv"], files)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("rater_a,rater_b,n,")


def test_optional_import_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("narwhals", "narwhals.stable.v2"):  # also when imported already
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ModuleNotFoundError) as info:
        optional_import("narwhals.stable.v2", "reading a DuckDB relation")
    assert str(info.value) == (
        'reading a DuckDB relation needs narwhals: pip install "kappaframe[duckdb]" or '
        '"kappaframe[spark]" or "kappaframe[ibis]"'
    )
    assert info.value.name == "narwhals"


def test_optional_import_says_what_the_library_itself_misses(tmp_path: Path) -> None:
    pytest.importorskip("dask")
    result = without(
        ["pyarrow"],
        """
        from kappaframe._errors import optional_import
        try:
            optional_import("dask.dataframe", "counting a Dask DataFrame")
        except ModuleNotFoundError as err:
            print(err.name, "|", err)
        """,
        tmp_path,
    )
    assert result.stdout.strip() == (
        'pyarrow | counting a Dask DataFrame needs dask, which needs pyarrow: pip install "'
        'kappaframe[dask]"'
    )


def test_missing_dependency_keeps_other_messages() -> None:
    assert missing_dependency(ModuleNotFoundError("No module named 'nope'", name="nope")) == (
        "No module named 'nope'"
    )
    bare = ModuleNotFoundError("No module named 'polars'", name="polars")
    assert missing_dependency(bare) == 'polars is not installed: pip install "kappaframe[polars]"'
    said = ModuleNotFoundError("x needs zstandard: pip install zstandard", name="zstandard")
    assert missing_dependency(said) == "x needs zstandard: pip install zstandard"


def test_every_extra_named_installs_its_library() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras = project["project"]["optional-dependencies"]
    for module, names in EXTRAS.items():
        for extra in names:
            assert any(dep.lower().startswith(module) for dep in extras[extra]), (module, extra)
        assert install_hint(module).startswith("pip install")


def test_spark_tests_skip_with_a_reason_without_pyspark(tmp_path: Path) -> None:
    """PySpark is not in the test extra: without it the Spark tests skip and say why."""
    run = (
        "import pytest\n"
        f"sys.exit(pytest.main(['-q', '-rs', '-p', 'no:cacheprovider', '--rootdir', {str(ROOT)!r},"
        f" '-k', 'spark', {str(ROOT / 'tests' / 'frames' / 'test_engines.py')!r}]))"
    )
    result = without(["pyspark"], run, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "failed" not in result.stdout and " skipped" in result.stdout
    assert 'PySpark is not installed: pip install -e ".[spark]" runs these tests' in result.stdout
