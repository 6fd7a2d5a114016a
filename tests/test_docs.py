"""The API reference and the changelog keep up with the public API."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

import kappaframe as kf
from kappaframe._accessor import KappaAccessor

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api.md"


@pytest.mark.skipif(not API.exists(), reason="docs/ not shipped with this copy")
def test_api_reference_names_every_public_name() -> None:
    text = API.read_text(encoding="utf-8")
    missing = [
        name
        for name in kf.__all__
        if not name.startswith("__") and f"kf.{name}" not in text and f"`{name}`" not in text
    ]
    assert missing == []


@pytest.mark.skipif(not API.exists(), reason="docs/ not shipped with this copy")
def test_api_reference_names_every_accessor_method() -> None:
    text = API.read_text(encoding="utf-8")
    methods = [m for m in dir(KappaAccessor) if not m.startswith("_")]
    assert [m for m in methods if f"kf.{m}" not in text and f"kappa.{m}" not in text] == []


@pytest.mark.skipif(not API.exists(), reason="docs/ not shipped with this copy")
def test_api_reference_names_every_cli_option() -> None:
    from kappaframe.cli import build_parser

    text = API.read_text(encoding="utf-8")
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    options = {
        option
        for sub in commands.values()
        for action in sub._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }
    assert sorted(o for o in options if o not in text) == []


README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"


@pytest.mark.skipif(not CI.exists(), reason=".ci/ not shipped with this copy")
def test_readme_gives_the_test_command_ci_runs() -> None:
    ci = CI.read_text(encoding="utf-8").splitlines()
    command = ci[ci.index("# The README's test command:") + 1].strip()
    assert command.startswith("python -m pip install")
    assert command in README.read_text(encoding="utf-8")


@pytest.mark.skipif(not CI.exists(), reason=".ci/ not shipped with this copy")
def test_ci_installs_the_spark_extra_before_the_test_command() -> None:
    """The test extra leaves PySpark out; CI adds the spark extra so the Spark tests run."""
    ci = CI.read_text(encoding="utf-8").splitlines()
    readme_command = ci.index("# The README's test command:")
    installs = [line for line in ci[:readme_command] if "pip install" in line]
    assert [line for line in installs if '-e ".[spark]"' in line]


def test_readme_first_command_makes_and_uses_a_virtual_environment() -> None:
    text = README.read_text(encoding="utf-8")
    block = text.split("## Two commands", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    first = block.strip().splitlines()[0]
    assert first.startswith("python3 -m venv .venv && . .venv/bin/activate && ")
    assert "kappaframe demo" in first


def test_the_notebook_extra_installs_a_front_end() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extra = project["project"]["optional-dependencies"]["notebook"]
    assert any(dep.startswith(("jupyterlab", "notebook")) for dep in extra)
    assert any(dep.startswith("ipykernel") for dep in extra)


def test_the_notebook_extra_installs_what_the_notebooks_import() -> None:
    """Listed by name: ``kappaframe[...]`` inside an extra would name the project itself."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extra = project["optional-dependencies"]["notebook"]
    assert not [dep for dep in extra if dep.startswith("kappaframe")]
    installed = {re.split(r"[<>=\[; ]", dep, maxsplit=1)[0].lower() for dep in extra}
    installed |= {re.split(r"[<>=\[; ]", dep, maxsplit=1)[0] for dep in project["dependencies"]}
    distribution = {"sklearn": "scikit-learn"}
    imported = set()
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                imported |= set(re.findall(r"^\s*(?:from|import) (\w+)", source, flags=re.M))
    imported -= {"kappaframe", *sys.stdlib_module_names}
    assert imported, "no imports found: the notebooks moved?"
    assert (
        sorted(distribution.get(m, m) for m in imported if distribution.get(m, m) not in installed)
        == []
    )
