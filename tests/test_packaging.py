"""The wheel and the sdist carry the licence, the project URLs and the Python classifiers."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from email.message import Message
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"

pytestmark = pytest.mark.skipif(
    not PYPROJECT.exists(), reason="pyproject.toml not shipped with this copy"
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Build the wheel (with pip, as users do) and the sdist (hatchling's own hook)."""
    pytest.importorskip("hatchling", reason="building needs hatchling (the test extra has it)")
    out = tmp_path_factory.mktemp("dist")
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    result = subprocess.run(
        [*pip, "-w", str(out), str(ROOT)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    sdist = f"from hatchling.build import build_sdist; build_sdist({str(out)!r})"
    result = subprocess.run(
        [sys.executable, "-c", sdist], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    (wheel,) = out.glob("kappaframe-*.whl")
    (tar,) = out.glob("kappaframe-*.tar.gz")
    return {"wheel": wheel, "sdist": tar}


def metadata_of_wheel(path: Path) -> tuple[list[str], Message]:
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        return names, Parser().parsestr(wheel.read(meta).decode("utf-8"))


def test_wheel_holds_the_licence(built: dict[str, Path]) -> None:
    names, meta = metadata_of_wheel(built["wheel"])
    (licence,) = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
    with zipfile.ZipFile(built["wheel"]) as wheel:
        text = wheel.read(licence).decode("utf-8")
    assert text == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("BSD 3-Clause License")
    assert "kappaframe developers" in text
    assert meta["License-Expression"] == "BSD-3-Clause"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert "kappaframe/py.typed" in names


def test_wheel_metadata_has_urls_and_python_classifiers(built: dict[str, Path]) -> None:
    _, meta = metadata_of_wheel(built["wheel"])
    urls = dict(line.split(", ", 1) for line in meta.get_all("Project-URL") or [])
    assert sorted(urls) == ["Changelog", "Documentation", "Homepage", "Issues", "Source"]
    source = urls["Source"]
    assert source.startswith("https://github.com/")
    assert urls["Issues"] == f"{source}/issues"
    assert urls["Changelog"].startswith(f"{source}/blob/main/")
    assert all(url.startswith("https://") for url in urls.values())
    classifiers = meta.get_all("Classifier") or []
    pythons = sorted(
        (
            c.rsplit(" ", 1)[1]
            for c in classifiers
            if c.startswith("Programming Language :: Python :: 3.")
        ),
        key=lambda v: tuple(map(int, v.split("."))),
    )
    assert pythons == ["3.10", "3.11", "3.12", "3.13"]
    assert meta["Requires-Python"] == f">={pythons[0]}"
    # PEP 639: the licence expression replaces the licence classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]


def test_no_extra_installs_kappaframe_itself(built: dict[str, Path]) -> None:
    """An extra naming kappaframe[...] would be resolved against the project itself."""
    _, meta = metadata_of_wheel(built["wheel"])
    requires = meta.get_all("Requires-Dist") or []
    assert requires and not [r for r in requires if r.lower().startswith("kappaframe")]
    extras = set(meta.get_all("Provides-Extra") or [])
    assert {"polars", "plot", "parquet", "dask", "duckdb", "spark", "notebook", "test"} <= extras
    # PySpark (about 500 MB) only with the spark extra, not with the test extra
    assert not [r for r in requires if r.startswith("pyspark") and "extra == 'test'" in r]
    assert [r for r in requires if r.startswith("pyspark") and "extra == 'spark'" in r]


def test_sdist_holds_the_licence_and_what_builds_and_tests(built: dict[str, Path]) -> None:
    with tarfile.open(built["sdist"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
        (pkg_info,) = [m for m in sdist.getmembers() if m.name.endswith("/PKG-INFO")]
        handle = sdist.extractfile(pkg_info)
        assert handle is not None
        meta = Parser().parsestr(handle.read().decode("utf-8"))
    assert {"LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml"} <= names
    assert {"kappaframe/__init__.py", "kappaframe/py.typed", "tests/conftest.py"} <= names
    assert meta["License-Expression"] == "BSD-3-Clause"
    assert meta.get_all("License-File") == ["LICENSE"]
