"""Render numpydoc's "See Also" and the accessor's methods on the documentation site.

A Griffe extension, loaded by mkdocstrings (``mkdocs.yml``). The docstrings are written
for ``help()`` in a terminal; two things there need a hand on the site:

- a "See Also" entry (``name : description``, numpydoc's form) becomes a list item whose
  name links to that object's entry in the API reference; a name that is not kappaframe's
  stays plain code. A link to an object that no page shows fails ``mkdocs build --strict``.
- a parameter's type that starts with a set of choices (``{None, "linear"} or array-like``,
  numpydoc's form) is shown whole; Griffe would otherwise keep the braces only.
- a public function's parameters are written once, in its declarations
  (``kappaframe._api.settings.params``): the source's Parameters section holds
  placeholders (``%(weights)s``) that the package fills when it is imported, so each
  function whose source has one gets its runtime docstring (``inspect.getdoc``) here.
- the ``.kappa`` accessor's methods are made from the functions when the package is
  imported, so the site, which reads the source, gets one entry per method here: each
  method's summary and a link to its function.
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import griffe

HEADER = re.compile(r"^See Also\n-{3,}\n", re.MULTILINE)
CHOICES = re.compile(r"^([\w*][\w*, ]*) : \{", re.MULTILINE)
PLACEHOLDER = re.compile(r"^[ \t]*%\(\w+\)s[ \t]*$", re.MULTILINE)
ENTRY = re.compile(r"^(?P<names>[\w.]+(?:\s*,\s*[\w.]+)*)\s*(?::\s*(?P<text>.*))?$")


class NumpydocForTheSite(griffe.Extension):
    """Link "See Also" entries; summarise the accessor's methods."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the package's docstrings once everything is loaded."""
        if pkg.name != "kappaframe":
            return
        for obj in _walk(pkg):
            if obj.docstring is None:
                continue
            if obj.is_function and PLACEHOLDER.search(obj.docstring.value):
                obj.docstring.value = _runtime_doc(obj)
            # Griffe reads "name : {a, b} or c" as the choices a, b and drops " or c"; a
            # second space before the brace makes it read the type as written.
            obj.docstring.value = CHOICES.sub(r"\1 :  {", obj.docstring.value)
            if HEADER.search(obj.docstring.value):
                obj.docstring.value = _link_see_also(obj.docstring.value, obj, pkg)
        _summarise_accessor(pkg)


def _walk(obj: griffe.Object) -> Any:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _walk(member)  # type: ignore[arg-type]


def _runtime_doc(obj: griffe.Object) -> str:
    """The docstring of the imported object (its placeholders filled), as ``help()`` shows it."""
    module = obj.module
    value: Any = importlib.import_module(module.path)
    for part in obj.path[len(module.path) + 1 :].split("."):
        try:
            value = inspect.getattr_static(value, part)
        except AttributeError:
            raise AttributeError(f"{obj.path}: no {part} in {value!r}") from None
        value = getattr(value, "__func__", value)  # classmethod, staticmethod
    doc = inspect.getdoc(value)
    if doc is None or PLACEHOLDER.search(doc):
        raise ValueError(f"{obj.path}: the imported object's docstring has no entries filled")
    return doc


def _resolve(name: str, where: griffe.Object, pkg: griffe.Module) -> str | None:
    """The public path of ``name`` as seen from ``where``, or None if it is not ours."""
    name = name.removeprefix("kappaframe.")
    candidates = [name]
    parent = where.parent
    if parent is not None and parent.is_class:  # a method's sibling: ``pairwise`` in Counts
        candidates.insert(0, f"{parent.name}.{name}")
    for candidate in candidates:
        try:
            pkg[candidate]
        except (KeyError, griffe.AliasResolutionError):
            continue
        return f"kappaframe.{candidate}"
    return None


def _link_see_also(doc: str, where: griffe.Object, pkg: griffe.Module) -> str:
    match = HEADER.search(doc)
    assert match is not None
    head, body = doc[: match.end()], doc[match.end() :]
    lines = body.split("\n")
    items: list[str] = []
    rest = 0
    for rest, line in enumerate(lines):  # noqa: B007 - the index after the loop is used
        if line.startswith("    ") and items:  # a description's continuation
            items[-1] += " " + line.strip()
            continue
        entry = ENTRY.match(line)
        if not line.strip() or entry is None:
            break
        links = []
        for name in re.split(r"\s*,\s*", entry["names"]):
            path = _resolve(name, where, pkg)
            links.append(f"[`{name}`][{path}]" if path else f"`{name}`")
        text = entry["text"]
        items.append(f"- {', '.join(links)}" + (f": {text}" if text else ""))
    else:
        rest = len(lines)
    return head + "\n".join(items) + "\n" + "\n".join(lines[rest:])


def _summarise_accessor(pkg: griffe.Module) -> None:
    """Give the accessor one member per method, each linking to its function.

    The methods are made from the functions when the package is imported
    (``kappaframe._accessor.FUNCTIONS``), so the source holds none: they are added here.
    """
    from kappaframe._accessor import FUNCTIONS

    accessor = pkg["_accessor.KappaAccessor"]
    for func in FUNCTIONS:
        name = func.__name__
        function = _resolve(name, pkg, pkg)
        if function is None:
            continue
        summary = inspect.cleandoc(pkg[name].docstring.value).partition("\n")[0]
        method = griffe.Function(name, parent=accessor)
        method.docstring = griffe.Docstring(
            f"{summary}\n\n``df.kappa.{name}(...)`` is [`kappaframe.{name}(df, ...)`]"
            f"[{function}]: the parameters, the result and examples are there.",
            parent=method,
        )
        accessor.set_member(name, method)
