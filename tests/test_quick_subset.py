"""The quick subset (`pytest -m "not slow"`) and the whole suite (`pytest`, what CI runs)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .conftest import SLOW, SLOW_AFTER_FIRST, SLOW_FIXTURES, slow_reason

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("nodeid", [*SLOW, *SLOW_AFTER_FIRST])
def test_every_listed_test_exists(nodeid: str) -> None:
    """A renamed or removed test leaves no stale entry that quietly marks nothing."""
    path, _, name = nodeid.partition("::")
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert name.split("[", 1)[0] in functions, nodeid


def test_slow_reason_reads_the_lists() -> None:
    prefix = next(p for p in SLOW if p.endswith("[spark-"))
    assert slow_reason(prefix + "ci]", (), first=True) == SLOW[prefix]
    function = next(iter(SLOW_AFTER_FIRST))
    assert slow_reason(function + "[a]", (), first=True) is None
    assert slow_reason(function + "[b]", (), first=False) == SLOW_AFTER_FIRST[function]
    fixture = next(iter(SLOW_FIXTURES))
    quick = "tests/test_quick_subset.py::test_slow_reason_reads_the_lists"
    assert slow_reason(quick, ("tmp_path", fixture), first=True) == SLOW_FIXTURES[fixture]
    assert slow_reason(quick, ("tmp_path",), first=True) is None
    assert slow_reason(quick, ("tmp_path",), first=False) is None


def test_this_test_is_in_the_quick_subset(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("slow") is None


@pytest.mark.skipif(not (ROOT / ".ci" / "run").exists(), reason=".ci/ not shipped with this copy")
def test_ci_runs_the_whole_suite_and_the_readme_names_both() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = ci[ci.index("# The README's test command:") + 1]
    # no -m: every test, slow ones too; -n auto: on every core (pytest-xdist)
    assert command.rstrip().endswith("python -m pytest -n auto")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert command.strip() in readme
    assert 'python -m pytest -n auto -m "not slow"' in readme
