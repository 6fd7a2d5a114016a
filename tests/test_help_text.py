"""``help()`` in a terminal reads cleanly: the public documentation has no Sphinx markup.

A docstring is read in two places: ``help(kf.pairwise)`` in a terminal, which prints it as
written, and the documentation site, which renders it as Markdown. Plain double backticks,
indented formulas and numpydoc sections read well in both; reStructuredText roles
(``:func:`x```) and directives (``.. math::``) read well in neither.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import kappaframe as kf
from kappaframe._accessor import KappaAccessor

ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`")
DIRECTIVE = re.compile(r"^\s*\.\. [a-z-]+::", re.MULTILINE)


def _members(owner: type | ModuleType, prefix: str) -> Iterator[tuple[str, Any]]:
    names = getattr(owner, "__all__", None) or [n for n in vars(owner) if not n.startswith("_")]
    for name in names:
        obj = inspect.getattr_static(owner, name)
        obj = getattr(obj, "__func__", obj)  # classmethod, staticmethod
        obj = getattr(obj, "fget", None) or obj  # property
        if callable(obj) or isinstance(obj, ModuleType):
            yield f"{prefix}.{name}", obj


def public_objects() -> Iterator[tuple[str, Any]]:
    """Every public function, class, method and module of the package, by its name."""
    yield "kappaframe", kf
    for name, obj in _members(kf, "kf"):
        yield name, obj
        ours = inspect.isclass(obj) and obj.__module__.startswith("kappaframe")
        if ours or isinstance(obj, ModuleType):
            yield from _members(obj, name)
    yield from _members(KappaAccessor, "df.kappa")
    scale = type(kf.SCALES["landis_koch"])
    yield "kf.SCALES", scale
    yield from _members(scale, "kf.SCALES")


OBJECTS = dict(public_objects())


def test_the_public_surface_is_collected() -> None:
    for name in ("kf.pairwise", "kf.Counts.from_table", "kf.datasets.labeling_team"):
        assert name in OBJECTS
    assert "df.kappa.pairwise" in OBJECTS
    assert len(OBJECTS) > 40


@pytest.mark.parametrize("name", sorted(OBJECTS))
def test_docstring_has_no_sphinx_markup(name: str) -> None:
    doc = inspect.getdoc(OBJECTS[name]) or ""
    assert ROLE.findall(doc) == [], f"{name}: write ``name`` instead of a :role:`name`"
    assert DIRECTIVE.findall(doc) == [], f"{name}: write an indented block, not a directive"


def test_the_check_finds_markup() -> None:
    assert ROLE.search("see :func:`kappaframe.pairwise` and :py:class:`Counts`")
    assert DIRECTIVE.search("Formula:\n\n    .. math:: \\kappa = 1\n")
    assert not ROLE.search("ratio 1:2, see ``kappaframe.pairwise``, time 10:30")
