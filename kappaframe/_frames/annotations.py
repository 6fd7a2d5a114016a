"""Annotation tools' exports as input: a Label Studio, Prodigy or doccano file, read whole.

A path (a glob, a folder, a list of them) whose JSON or JSON lines files are an annotation
tool's export (``kappaframe._io.read.input_kind`` sniffs the first record) is read by
``kappaframe.read_annotations`` into the long frame, which every function then takes
with ``item="item", rater="rater", label="label"``. Other files are the file reader's.
"""

from __future__ import annotations

import os
from typing import Any

from .._errors import KappaFrameError
from .._io.formats import STDIO, TOOL_FORMATS
from .._io.read import expand_input, input_kind, read_tool_export
from .._io.tools.registry import one_kind
from .native import eager_adapter

__all__ = ["annotation_export"]


def annotation_export(data: Any) -> Any:
    """The adapter of the frame read from an annotation tool's export; else None."""
    if isinstance(data, (str, os.PathLike)):
        given = [data]
    elif (
        isinstance(data, (list, tuple))
        and data
        and all(isinstance(x, (str, os.PathLike)) for x in data)
    ):
        given = list(data)
    else:
        return None
    paths: list[str] = []
    kinds: list[str] = []
    for one in given:
        text = os.fspath(one)
        if text == STDIO:
            return None
        try:
            found = expand_input(one)
            kinds.extend(input_kind(p) for p in found)
        except (KappaFrameError, OSError):
            return None  # the file reader says what is wrong
        paths.extend(found)
    tools = {k for k in kinds if k in TOOL_FORMATS}
    if not tools:
        return None
    if len(set(kinds)) > 1:
        mixed = ", ".join(f"{p} ({k})" for p, k in list(zip(paths, kinds, strict=True))[:6])
        raise KappaFrameError(
            f"the input mixes an annotation tool's export with other files: {mixed}; "
            "read the export apart."
        )
    shown = os.fspath(given[0]) if len(given) == 1 else f"{len(paths)} files"
    return eager_adapter(one_kind(read_tool_export(paths, tools.pop()), shown))
