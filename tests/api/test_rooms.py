"""Small rooms: every public function reads bind, read, compute, table.

Each public function of ``kappaframe`` (the functions in ``__all__``, read with ``ast`` in
the module that defines them) has a body of at most ``MOST`` lines of code (not its
docstring, blank lines or comments), and the body hands its work to named helpers: it
holds no loop and defines no function of its own. The steps are the helpers': bind the
options (checked before any source opens), read the input, compute the statistic, build
the table.
"""

from __future__ import annotations

import ast
import inspect
import io
import textwrap
import tokenize
from collections.abc import Callable
from typing import Any

import pytest

import kappaframe as kf

#: The most lines of code a public function's body holds.
MOST = 60

#: Public functions not yet split into bind, read, compute and table helpers. The list
#: only shrinks: a function on it that meets the rule fails ``test_the_pending_list_is_true``.
PENDING: frozenset[str] = frozenset()

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def public_functions() -> dict[str, Callable[..., Any]]:
    """The functions of ``kappaframe.__all__`` (not the classes, modules or constants)."""
    found = {}
    for name in kf.__all__:
        obj = getattr(kf, name)
        if inspect.isfunction(obj):
            found[name] = inspect.unwrap(obj)
    return found


def definition(func: Callable[..., Any]) -> tuple[FunctionNode, str]:
    """The ``def`` of ``func`` in the source of its defining module, and that source."""
    source = inspect.getsource(inspect.getmodule(func))  # type: ignore[arg-type]
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == func.__name__:
            return node, source
    raise AssertionError(f"no top-level def of {func.__qualname__} in its module")


def body(node: FunctionNode) -> list[ast.stmt]:
    """The statements of a function's body, less its docstring."""
    statements = list(node.body)
    first = statements[0] if statements else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        statements = statements[1:]
    return statements


def code_lines(node: FunctionNode, source: str) -> int:
    """How many lines of the body hold code: its docstring, blanks and comments left out."""
    statements = body(node)
    if not statements:
        return 0
    start = statements[0].lineno
    end = max(s.end_lineno or s.lineno for s in statements)
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in skip or token.type == tokenize.ENDMARKER:
            continue
        lines.update(n for n in range(token.start[0], token.end[0] + 1) if start <= n <= end)
    return len(lines)


def work_in_body(node: FunctionNode) -> list[str]:
    """What a body does itself that belongs in a helper: loops and functions of its own."""
    found = []
    for statement in body(node):
        for inner in ast.walk(statement):
            if isinstance(inner, (ast.For, ast.AsyncFor, ast.While)):
                found.append(f"a loop at line {inner.lineno}")
            elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                found.append(f"a function defined at line {inner.lineno}")
    return found


def room(name: str) -> tuple[int, list[str]]:
    node, source = definition(public_functions()[name])
    return code_lines(node, source), work_in_body(node)


def test_the_count_leaves_out_the_docstring_blank_lines_and_comments() -> None:
    source = textwrap.dedent(
        '''
        def f(a, b):
            """Doc.

            More doc.
            """
            # a comment

            x = (a +  # a trailing comment
                 b)
            for i in range(x):
                pass
            return x
        '''
    )
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef)
    assert code_lines(node, source) == 5
    assert work_in_body(node) == ["a loop at line 11"]


def test_the_measure_sees_the_public_functions() -> None:
    names = set(public_functions())
    assert {"overall", "pairwise", "items", "compare", "icc", "sample_size"} <= names
    assert "Counts" not in names and "datasets" not in names
    assert names >= PENDING


@pytest.mark.parametrize("name", sorted(set(public_functions()) - PENDING))
def test_a_public_function_reads_bind_read_compute_table(name: str) -> None:
    lines, work = room(name)
    assert lines <= MOST, f"{name}: {lines} lines of code (at most {MOST})"
    assert work == [], f"{name} does its work itself ({', '.join(work)}): name a helper"


@pytest.mark.parametrize("name", sorted(PENDING))
def test_the_pending_list_is_true(name: str) -> None:
    lines, work = room(name)
    assert lines > MOST or work, f"{name} meets the rule now: take it off PENDING"
