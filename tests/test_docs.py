"""The API reference and the changelog keep up with the public API."""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import subprocess
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


def test_readme_installs_from_source_first_while_not_on_the_index() -> None:
    """kappaframe is not on the package index yet: no command installs it from there."""
    text = README.read_text(encoding="utf-8")
    install = text.index("## Install")
    assert install < text.index("### From source") < text.index("python3 -m venv")
    assert "not published on the Python package index yet" in text[install:]
    blocks = [body for lang, body in fenced_blocks(text) if lang == "bash"]
    assert not [b for b in blocks if re.search(r"pip install [\"']?kappaframe\b", b)]


def test_readme_from_source_makes_and_uses_a_virtual_environment() -> None:
    text = README.read_text(encoding="utf-8")
    block = text.split("### From source", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    first = block.strip().splitlines()[0]
    assert first.startswith("python3 -m venv .venv && . .venv/bin/activate && ")
    assert "kappaframe demo" in first


# ------------------------------------------------------------------ README blocks


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """Each fenced block of a Markdown text as (language, body), in order."""
    blocks = []
    lines = iter(text.splitlines())
    for line in lines:
        if line.startswith("```"):
            body = []
            for inner in lines:
                if inner.startswith("```"):
                    break
                body.append(inner)
            blocks.append((line[3:].strip(), "\n".join(body)))
    return blocks


def headings(text: str) -> list[str]:
    """The Markdown headings outside fenced blocks."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            out.append(line.lstrip("#").strip())
    return out


README_TEXT = README.read_text(encoding="utf-8")
BLOCKS = fenced_blocks(README_TEXT)
#: ```python blocks followed by a plain ``` block showing what they print.
PYTHON_EXAMPLES = [
    pytest.param(code, shown, id=code.strip().splitlines()[-1][:40])
    for (lang, code), (next_lang, shown) in itertools.pairwise(BLOCKS)
    if lang == "python" and next_lang == ""
]
CONSOLE_EXAMPLES = [
    pytest.param(body, id=body.splitlines()[0][:50]) for lang, body in BLOCKS if lang == "console"
]

#: Runs a block as the interpreter does at its prompt: the value of a last expression is shown.
REPL = """
import ast, sys
tree = ast.parse(sys.stdin.read())
last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
namespace = {"__name__": "__main__"}
exec(compile(tree, "README.md", "exec"), namespace)
if last is not None:
    value = eval(compile(ast.Expression(last.value), "README.md", "eval"), namespace)
    if value is not None:
        print(repr(value))
"""


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.pop("COLUMNS", None)
    return env


def test_readme_shows_examples_with_their_output() -> None:
    assert len(PYTHON_EXAMPLES) >= 2 and len(CONSOLE_EXAMPLES) >= 1


@pytest.mark.parametrize(("code", "shown"), PYTHON_EXAMPLES)
def test_readme_python_example_prints_what_it_shows(code: str, shown: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", REPL],
        input=code,
        capture_output=True,
        text=True,
        env=environment(),
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip("\n") == shown


def console_commands(body: str) -> list[tuple[str, str]]:
    """Each ``$ command`` of a console block (continued over ``\\`` lines) and its output."""
    commands: list[tuple[str, list[str]]] = []
    continued = False
    for line in body.splitlines():
        if line.startswith("$ ") or continued:
            text = line[2:] if line.startswith("$ ") and not continued else line.strip()
            if continued:
                commands[-1] = (commands[-1][0] + " " + text.rstrip("\\").strip(), [])
            else:
                commands.append((text.rstrip("\\").strip(), []))
            continued = line.endswith("\\")
        else:
            commands[-1][1].append(line)
    return [(command, "\n".join(out)) for command, out in commands]


@pytest.mark.parametrize("body", CONSOLE_EXAMPLES)
def test_readme_command_line_example_prints_what_it_shows(body: str, tmp_path: Path) -> None:
    """Run in a directory holding the file ``kappaframe demo --save team.csv`` writes."""
    kappaframe = [sys.executable, "-m", "kappaframe"]
    setup = subprocess.run(
        [*kappaframe, "demo", "--save", "team.csv"],
        cwd=tmp_path,
        capture_output=True,
        env=environment(),
        check=False,
    )
    assert setup.returncode == 0, setup.stderr
    for command, shown in console_commands(body):
        args = shlex.split(command)
        assert args[0] == "kappaframe", command
        result = subprocess.run(
            kappaframe + args[1:],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=environment(),
            check=False,
        )
        assert result.returncode in (0, 1), result.stderr  # 1: the --fail-under gate
        assert (result.stdout + result.stderr).rstrip("\n") == shown, command


def test_console_commands_are_parsed_with_continuations() -> None:
    body = "$ kappaframe a \\\n    --b c\none\ntwo\n$ kappaframe d\nthree"
    assert console_commands(body) == [("kappaframe a --b c", "one\ntwo"), ("kappaframe d", "three")]


def test_readme_has_each_heading_once() -> None:
    seen = headings(README_TEXT)
    assert "Where the references disagree" in seen
    assert sorted({h for h in seen if seen.count(h) > 1}) == []


def test_readme_links_are_absolute_and_point_into_the_repository() -> None:
    """Relative links break on the package index; the images load from the repository."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    source = project["urls"]["Source"]
    owner_repo = source.removeprefix("https://github.com/")
    raw = f"https://raw.githubusercontent.com/{owner_repo}/main/"
    blob = f"{source}/blob/main/"
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README_TEXT)
    links = re.findall(r"(?<!!)\[[^\]]*\]\(([^)]+)\)", README_TEXT)
    assert images and all(url.startswith(raw) for url in images), images
    for url in [*images, *links]:
        assert url.startswith(("https://", "#")), url
        for base in (raw, blob):
            if url.startswith(base):
                assert (ROOT / url.removeprefix(base)).exists(), url


def test_readme_dependency_table_matches_pyproject() -> None:
    """One row per dependency, grouped by what installs it, as pyproject.toml lists them."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    section = README_TEXT.split("### What each dependency is for", 1)[1].split("\n#", 1)[0]
    groups: dict[str, str] = {}
    current = ""
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if not row.startswith("|") or cells[0] == "install" or set("".join(cells)) <= {"-"}:
            continue
        current = cells[0].strip("`") or current
        groups[current] = groups.get(current, "") + " " + cells[1]
    wanted = {"kappaframe": project["dependencies"]}
    wanted |= {f"kappaframe[{k}]": v for k, v in project["optional-dependencies"].items()}
    assert sorted(groups) == sorted(wanted)
    for install, deps in wanted.items():
        for dep in deps:
            name = re.split(r"[<>=; ]", dep, maxsplit=1)[0]
            if name.startswith("kappaframe["):
                for extra in name.removeprefix("kappaframe[").rstrip("]").split(","):
                    assert f"`{extra}`" in groups[install], (install, extra)
            else:
                assert f"`{name.lower()}`" in groups[install].lower(), (install, name)


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
