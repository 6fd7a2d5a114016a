"""Guards that keep the package's layout: the flow frame -> codes -> counts -> statistics -> frame.

Every import is read from the source (imports inside functions and under ``TYPE_CHECKING``
count), so a loop cannot hide in a function body. The accessor's methods are checked against
the functions they call: same parameters, same defaults, the whole documentation.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

import kappaframe
from kappaframe._accessor import KappaAccessor

PACKAGE = Path(kappaframe.__file__).parent

# Each folder's rank in the flow; a module imports only from lower ranks or its own folder.
RANKS = {
    "kappaframe": 8,  # the package top: __init__, the accessor, its registration, cli
    "_cli": 7,  # the command line's jobs: flags in, the public functions' calls out
    "_report": 6,  # for people: text, markdown, html, pictures
    "_api": 5,  # public functions: options -> adapt -> plan -> stats -> table
    "_frames": 4,  # frame in, frame out (files through _io's reader)
    "_stats": 4,  # counts -> numbers
    "_io": 3,  # bytes <-> tables: formats, sources, readers, writers (knows no kappa)
    "_encode": 3,  # labels -> small integer codes
    "_count": 2,  # codes -> additive count tables
    "_schema": 1,  # output schemas
    "datasets": 1,  # bundled example data (pandas frames)
    "_errors": 0,  # errors and shared types
    "_types": 0,
    "_version": 0,
}

# Frame libraries may be imported only where frames come in or go out.
BACKENDS = ("pandas", "polars", "dask", "distributed", "pyarrow", "matplotlib")
BACKEND_FOLDERS = {"kappaframe", "datasets", "_frames", "_io", "_report"}
# The command line imports them only inside functions (to start fast).
LAZY_BACKEND_FOLDERS = {"_cli"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> Iterator[tuple[str, int]]:
    """Every module ``name`` imports (absolute names, package modules resolved), with its line."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            yield target, node.lineno
            for alias in node.names:  # `from . import plots` imports a module
                if f"{target}.{alias.name}" in MODULES:
                    yield f"{target}.{alias.name}", node.lineno


def internal_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name in MODULES:
        targets = {t for t, _ in imports(name) if t in MODULES and t != name}
        # Importing a.b.c runs a/__init__ and a/b/__init__ too.
        for target in list(targets):
            parts = target.split(".")
            targets.update(".".join(parts[:i]) for i in range(2, len(parts)))
        graph[name] = targets - {name}
    return graph


def folder(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANKS else "kappaframe"


TOP_MODULES = {"__init__", "__main__", "_accessor", "_expressions", "_register", "cli"}


def test_every_module_is_at_the_top_or_in_a_ranked_folder() -> None:
    unplaced = [
        name
        for name in MODULES
        if name != "kappaframe" and name.split(".")[1] not in TOP_MODULES | set(RANKS)
    ]
    assert unplaced == []


def find_loop(graph: dict[str, set[str]]) -> list[str] | None:
    """One import loop of ``graph`` (as a path that returns to its start), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (loop := visit(nxt)):
                return loop
        path.pop()
        state[node] = 2
        return None

    for name in sorted(graph):
        if name not in state and (loop := visit(name)):
            return loop
    return None


def test_the_loop_finder_finds_a_loop() -> None:
    assert find_loop({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_loop({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_loop() -> None:
    assert find_loop(internal_graph()) is None


def test_imports_point_down_the_flow() -> None:
    wrong = []
    for name in MODULES:
        here = folder(name)
        for target, line in imports(name):
            if target not in MODULES or target == "kappaframe":
                if target == "kappaframe" and here != "kappaframe":
                    wrong.append(f"{name}:{line} imports the package top")
                continue
            there = folder(target)
            if there != here and RANKS[there] >= RANKS[here]:
                wrong.append(f"{name}:{line} ({here}) imports {target} ({there})")
    assert wrong == []


def module_level_lines(name: str) -> set[int]:
    """The lines of ``name``'s imports outside functions (run when it is imported)."""
    tree = ast.parse(MODULES[name].read_text())
    inside = {
        n.lineno
        for f in ast.walk(tree)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
        for n in ast.walk(f)
        if isinstance(n, (ast.Import, ast.ImportFrom))
    }
    return {
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, (ast.Import, ast.ImportFrom)) and n.lineno not in inside
    }


def test_frame_libraries_are_imported_only_by_the_frame_adapters() -> None:
    wrong = []
    for name in MODULES:
        if folder(name) in BACKEND_FOLDERS:
            continue
        top = module_level_lines(name) if folder(name) in LAZY_BACKEND_FOLDERS else None
        for target, line in imports(name):
            if target.split(".")[0] in BACKENDS and (top is None or line in top):
                wrong.append(f"{name}:{line} imports {target}")
    assert wrong == []


def test_the_guards_see_imports_inside_functions() -> None:
    # The statistics layer imports nothing at module level from _api, but if a function did,
    # the graph would show it: check the reader on a module known to import in a function.
    found = {
        target
        for name in MODULES
        for target, _ in imports(name)
        if target.startswith("kappaframe.")
    }
    assert "kappaframe._api.pairwise" in found
    tree = ast.parse(MODULES["kappaframe.cli"].read_text())
    nested = [
        n
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef)
        for n in ast.walk(f)
        if isinstance(n, ast.ImportFrom)
    ]
    assert nested, "cli imports inside functions (to start fast); the reader must see them"
    assert all(any(t for t, line in imports("kappaframe.cli") if line == n.lineno) for n in nested)


METHODS = [
    name
    for name, member in vars(KappaAccessor).items()
    if inspect.isfunction(member) and not name.startswith("_")
]


def test_the_accessor_offers_every_frame_function() -> None:
    assert sorted(METHODS) == sorted(
        [
            "bland_altman",
            "bland_altman_plot",
            "ccc",
            "category_counts",
            "compare",
            "confusion",
            "confusion_plot",
            "counts",
            "describe",
            "forest_plot",
            "heatmap",
            "icc",
            "items",
            "judge_report",
            "kendall_w",
            "rater_confusion",
            "matrix",
            "overall",
            "pairwise",
            "per_category",
            "per_label",
            "raters",
            "resolve_swaps",
            "sample_size",
            "score",
            "swap_consistency",
            "table_tests",
            "threshold_sweep",
            "trend_plot",
        ]
    )


@pytest.mark.parametrize("name", METHODS)
def test_accessor_method_has_its_functions_signature(name: str) -> None:
    method = inspect.signature(getattr(KappaAccessor, name))
    func = inspect.signature(getattr(kappaframe, name))
    ours = list(method.parameters.values())[1:]  # less self
    theirs = [p for p in func.parameters.values() if p.name != "data"]
    assert [(p.name, p.kind, p.default) for p in ours] == [
        (p.name, p.kind, p.default) for p in theirs
    ]
    # A function that takes arrays or column names (``Any``) may narrow to names on a frame.
    assert [
        str(a.annotation) for a, b in zip(ours, theirs, strict=True) if b.annotation != "Any"
    ] == [str(b.annotation) for b in theirs if b.annotation != "Any"]


@pytest.mark.parametrize("name", METHODS)
def test_accessor_method_has_its_functions_documentation(name: str) -> None:
    method_doc = inspect.getdoc(getattr(KappaAccessor, name)) or ""
    func_doc = inspect.getdoc(getattr(kappaframe, name)) or ""
    assert f"df.kappa.{name}(" in method_doc
    lines = func_doc.splitlines()
    # Every parameter the method takes is documented as in the function.
    for parameter in inspect.signature(getattr(KappaAccessor, name)).parameters:
        if parameter == "self":
            continue
        entries = [line for line in lines if line.split(" : ")[0].split(", ").count(parameter)]
        assert entries, f"kappaframe.{name} does not document {parameter}"
        assert entries[0] in method_doc.splitlines()
    # The summary, every section and every line of text outside `data` and examples is there.
    kept = [
        line for line in lines if line and not line.startswith(("data :", ">>>", "...", "    "))
    ]
    missing = [line for line in kept if line not in method_doc.splitlines()]
    assert missing == []
    assert len(method_doc.splitlines()) > 0.8 * len(lines)
    assert "data :" not in method_doc


def test_help_on_an_accessor_method_shows_the_parameters() -> None:
    pd = pytest.importorskip("pandas")
    text = inspect.getdoc(pd.DataFrame({"a": [1]}).kappa.pairwise) or ""
    assert "Parameters\n----------\nraters :" in text
    assert "min_overlap : int, optional" in text
