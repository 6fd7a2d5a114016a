"""The documentation site builds, and the code on its pages for users runs as shown.

``mkdocs build --strict`` fails on a broken link, a missing picture, a cross-reference to an
object no page shows, or a snippet that cannot be found. It runs where the documentation
tools are installed (the ``docs`` extra, which the ``test`` extra includes) and skips with
the reason elsewhere.

The pages in ``docs/users/`` (and the home page's example) are run block by block, in order,
in a fresh folder: Python blocks as in a notebook (what they print, then the value of the last
expression), bash blocks in a shell whose ``kappaframe`` is this package's
command line. A ``text`` block right after a code block is its output and must match.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
SECTION = "references-disagree"

pytestmark = pytest.mark.skipif(
    not (ROOT / "mkdocs.yml").exists(), reason="the documentation sources are not in this copy"
)

TOOLS = ("mkdocs", "material", "mkdocstrings_handlers.python", "mkdocs_jupyter")


def _missing_tools() -> list[str]:
    missing = []
    for name in TOOLS:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:  # a parent package is absent
            found = False
        if not found:
            missing.append(name)
    return missing


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = _missing_tools()
    if missing:
        pytest.skip(f'needs the docs extra (pip install -e ".[docs]"); missing {missing}')
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def test_the_site_builds_strict_with_every_page(site: Path) -> None:
    for page in ("users/labeling-lead", "users/ml-engineer", "users/nightly-job", "gallery"):
        assert (site / page / "index.html").exists(), page
    for page in ("api", "scale", "spark", "references"):
        assert (site / page / "index.html").exists(), page
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert "jp-Notebook" in _page(site, f"notebooks/{notebook.stem}"), notebook.name


def test_ci_installs_the_documentation_tools() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    docs = " ".join(project["project"]["optional-dependencies"]["docs"])
    for dist in ("mkdocs-material", "mkdocstrings[python]", "mkdocs-jupyter"):
        assert dist in docs
    ci = ROOT / ".ci" / "run"
    if not ci.exists():
        pytest.skip(".ci/ is not in this copy")
    commands = [line for line in ci.read_text(encoding="utf-8").splitlines() if "pip" in line]
    assert any("install" in line and ".[docs]" in line for line in commands)


def test_the_api_reference_renders_the_docstrings(site: Path) -> None:
    html = _page(site, "reference/pairs")
    assert 'id="kappaframe.pairwise"' in html
    assert "Parameters:" in html and "Returns:" in html
    # A "See Also" entry links to the function's own entry.
    see_also = html.split("See Also", 1)[1].split("</details>", 1)[0]
    assert 'href="#kappaframe.cohen_kappa"' in see_also
    # A parameter's choices are shown whole (numpydoc's "{...} or array-like").
    assert "or array-like of shape (K, K)" in html
    accessor = _page(site, "reference/accessor")
    assert 'href="../pairs/#kappaframe.pairwise"' in accessor
    for page in site.glob("reference/*/index.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r":(func|class|meth|data|mod|math):`", text), page.parent.name


def test_the_notebooks_show_their_saved_outputs(site: Path) -> None:
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        outputs = [out for cell in cells for out in cell.get("outputs", [])]
        pictures = sum("image/png" in out.get("data", {}) for out in outputs)
        html = _page(site, f"notebooks/{notebook.stem}")
        assert html.count("data:image/png;base64") >= pictures > 0, notebook.name
        assert html.count("jp-OutputArea-output") >= len(outputs) > 0, notebook.name


def _readme_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"[start:{SECTION}]")
    start = text.index("\n", start) + 1
    end = text.rindex("\n", 0, text.index(f"[end:{SECTION}]"))
    return text[start:end]


def test_where_the_references_disagree_is_written_once() -> None:
    text = README.read_text(encoding="utf-8")
    assert text.count(f"[start:{SECTION}]") == 1
    assert text.count(f"[end:{SECTION}]") == 1
    page = (DOCS / "references.md").read_text(encoding="utf-8")
    assert f'--8<-- "README.md:{SECTION}"' in page
    # No page copies the section's lines: the site includes them from the README.
    lines = [line for line in _readme_section().splitlines() if len(line) > 40]
    assert lines
    for md in DOCS.rglob("*.md"):
        body = md.read_text(encoding="utf-8")
        assert [line for line in lines if line in body] == [], md.name


def test_the_site_shows_the_readme_section(site: Path) -> None:
    html = _page(site, "references")
    first = re.sub(r"`([^`]*)`", r"<code>\1</code>", _readme_section().strip().splitlines()[0])
    words = re.sub(r"<[^>]+>", "", first).split()[:8]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert " ".join(words) in text


def test_the_gallery_shows_every_picture() -> None:
    gallery = (DOCS / "gallery.md").read_text(encoding="utf-8")
    pictures = sorted(p.name for p in DOCS.glob("*.png"))
    assert pictures
    assert [name for name in pictures if f"({name})" not in gallery] == []


# ---------------------------------------------------------------- the pages' code runs
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
# The pages and the languages of theirs that run (the home page's bash installs things).
PAGES = {p: ("python", "bash") for p in sorted((DOCS / "users").glob("*.md"))}
PAGES[DOCS / "index.md"] = ("python",)


def _blocks(page: Path, languages: tuple[str, ...]) -> list[tuple[str, str, str | None]]:
    """The page's (language, code, expected output) in order; output None when not shown."""
    found = [(m[1], m[2]) for m in FENCE.finditer(page.read_text("utf-8"))]
    out: list[tuple[str, str, str | None]] = []
    last = ""
    for lang, code in found:
        if lang == "text" and last in languages and out and out[-1][2] is None:
            out[-1] = (out[-1][0], out[-1][1], code)
        elif lang in languages:
            out.append((lang, code, None))
        last = lang
    return out


def _shown(value: Any) -> str:
    """What a notebook prints for a value, in plain text."""
    if hasattr(value, "to_string") and callable(value.to_string):
        return str(value.to_string())
    return repr(value)


def _print_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    """A warning as Python prints it on stderr (not recorded by the test run)."""
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def _run_python(code: str, namespace: dict[str, Any]) -> str:
    tree = ast.parse(code)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    buffer = io.StringIO()
    with (
        contextlib.redirect_stdout(buffer),
        contextlib.redirect_stderr(buffer),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("default")  # shown once on stderr, as a script shows them
        warnings.showwarning = _print_warning
        exec(compile(tree, "<docs>", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), "<docs>", "eval"), namespace)
            if value is not None:
                print(_shown(value))
    return buffer.getvalue()


def _run_bash(code: str, folder: Path) -> str:
    shell = f'kappaframe() {{ "{sys.executable}" -m kappaframe "$@"; }}\n{code}'
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        ["bash", "-c", shell],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.stdout + done.stderr


@pytest.mark.parametrize("page", list(PAGES), ids=lambda p: p.stem)
def test_the_code_on_the_page_runs_as_shown(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if page.stem == "nightly-job":
        pytest.importorskip("pyarrow")  # the job writes Parquet
    blocks = _blocks(page, PAGES[page])
    assert blocks, f"{page.name} has no code"
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    for number, (lang, code, expected) in enumerate(blocks, 1):
        got = _run_python(code, namespace) if lang == "python" else _run_bash(code, tmp_path)
        if expected is not None:
            assert got.rstrip() == expected.rstrip(), f"{page.name}, block {number}:\n{got}"


def test_the_block_reader_pairs_code_with_its_output(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```python\n1 + 1\n```\n\ntext\n\n```text\n2\n```\n\n```bash\necho hi\n```\n",
        encoding="utf-8",
    )
    both = [("python", "1 + 1\n", "2\n"), ("bash", "echo hi\n", None)]
    assert _blocks(page, ("python", "bash")) == both
    assert _blocks(page, ("python",)) == both[:1]
    assert _run_python("x = 2\nx * 3", {}) == "6\n"
    assert _run_python("x = 2", {}) == ""


def test_the_options_page_is_made_from_the_declarations(site: Path) -> None:
    from kappaframe._api.settings.params import PARAMS

    html = _page(site, "reference/options")
    for p in PARAMS:
        if p.flag is not None:
            assert f"<code>{p.flag}</code>" in html, p.flag
    assert html.count("<tr>") > 100  # a row per declaration a function serves
