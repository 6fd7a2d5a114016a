"""One undefined-result warning: every statistic says what is undefined through ``warn_undefined``.

One ``UndefinedKappaWarning`` per call, counting the undefined results and naming why;
none inside ``quiet_undefined``.
"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._errors import quiet_undefined, warn_undefined

PACKAGE = Path(kf.__file__).parent


def raised_where(path: Path) -> list[str]:
    """The functions of a module whose code (not docstrings) names UndefinedKappaWarning."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name) and inner.id == "UndefinedKappaWarning":
                    found.append(node.name)
    return found


def test_only_warn_undefined_raises_the_warning() -> None:
    where = {
        str(path.relative_to(PACKAGE)): names
        for path in sorted(PACKAGE.rglob("*.py"))
        if (names := raised_where(path))
    }
    assert where == {"_errors.py": ["warn_undefined"]}


def test_the_finder_sees_a_warning_raised_in_a_function(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import warnings\n"
        "def f():\n"
        "    warnings.warn('x', UndefinedKappaWarning)\n"
        "def g():\n"
        "    '''UndefinedKappaWarning, only named'''\n",
        encoding="utf-8",
    )
    assert raised_where(module) == ["f"]


def caught(call: Any) -> list[str]:
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in found if issubclass(w.category, kf.UndefinedKappaWarning)]


LABELS = pd.DataFrame(
    {"a": ["x"] * 4, "b": ["x"] * 4, "c": ["x", "y", "x", "y"], "g": [1, 1, 2, 2]}
)
SETS = pd.DataFrame(
    {
        "a": [["x"], ["x"], ["x"], ["x"]],
        "b": [["x"], ["x"], ["x"], ["x"]],
        "c": [["x"], ["y"], ["x"], ["x", "y"]],
    }
)
SCORES = pd.DataFrame({"a": [1.0, 1, 1, 1], "b": [1.0, 2, 3, 4], "g": [1, 1, 2, 2]})

CALLS = {
    "overall": lambda: kf.overall(LABELS, ["a", "b"], by="g"),
    "per_category": lambda: kf.per_category(LABELS.assign(d="x"), ["a", "b", "d"], by="g"),
    "per_label": lambda: kf.per_label(SETS, ["a", "b", "c"], categories=["x", "y", "z"]),
    "icc": lambda: kf.icc(pd.DataFrame({"a": [1.0, 1, 1], "b": [1.0, 1, 1]})),
    "ccc": lambda: kf.ccc(SCORES, ["a", "b"], by="g"),
    "pairwise": lambda: kf.pairwise(LABELS, ["a", "b", "c"], by="g", min_items=None),
}


def test_the_messages_are_as_before() -> None:
    assert caught(CALLS["overall"]) == [
        "the agreement coefficient is undefined (NaN) for 2 of 2 rows: no items to compare, "
        "or chance agreement 1 (a single category in use)."
    ]
    assert caught(CALLS["per_label"]) == [
        "the agreement on a label is undefined (NaN) for 1 of 3 rows: no items to compare, "
        "or a label nobody (or everybody, always) gave."
    ]
    assert caught(CALLS["icc"]) == [
        "the intraclass correlation (some form) is undefined (NaN) for 1 of 1 groups: 1 where "
        "a denominator is 0 (no variance to compare: every score equal; or mean squares that "
        "cancel)."
    ]
    assert caught(CALLS["ccc"]) == [
        "ccc is undefined (NaN) for 2 of 2 pair x group cells: 2 where a rater's ratings do "
        "not vary."
    ]


@pytest.mark.parametrize("name", sorted(CALLS))
def test_one_warning_per_call_and_none_when_quiet(name: str) -> None:
    assert len(caught(CALLS[name])) == 1
    with quiet_undefined():
        assert caught(CALLS[name]) == []


def test_a_heatmap_with_counts_warns_once() -> None:
    pytest.importorskip("matplotlib")
    messages = caught(lambda: kf.heatmap(LABELS, ["a", "b", "c"], by="g", show_n=True))
    assert messages == [
        "kappa is undefined (NaN) for 2 of 6 pair x group cells: 2 where chance agreement is "
        "1 (one shared category only)."
    ]


def test_the_reasons_split_by_the_items_behind_each_result() -> None:
    undefined = np.array([True, True, True, False])
    n = np.array([0, 1, 5, 5])
    assert caught(lambda: warn_undefined(undefined, n)) == [
        "kappa is undefined (NaN) for 3 of 4 pair x group cells: 1 with no item rated by "
        "both; 2 where chance agreement is 1 (one shared category only)."
    ]
    few = lambda: warn_undefined(  # noqa: E731
        undefined, n, "pairs", subject="ccc", fewer_than=2, too_few="few", otherwise="flat"
    )
    assert caught(few) == ["ccc is undefined (NaN) for 3 of 4 pairs: 2 few; 1 flat."]
    alone = lambda: warn_undefined(undefined, None, "rows", otherwise="why")  # noqa: E731
    assert caught(alone) == ["kappa is undefined (NaN) for 3 of 4 rows: why."]
    assert caught(lambda: warn_undefined(np.zeros(3, dtype=bool), None)) == []
