"""``read_annotations``: the annotation tools' export files in, the long frame out."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..._errors import KappaFrameTypeError
from ..read import expand_input, read_tool_export

if TYPE_CHECKING:
    import pandas as pd

    from ..._types import AnnotationTool

__all__ = ["read_annotations"]


def read_annotations(
    path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    tool: AnnotationTool | None = None,
    *,
    fields: str | Sequence[str] | None = None,
    multiple: bool | None = None,
    predictions: bool = False,
) -> pd.DataFrame:
    r"""Read an annotation tool's export: one row per rating, ready for every function.

    The files Label Studio, Prodigy and doccano export become the long layout
    (``item``, ``rater``, ``label``), so agreement is one call away:
    ``kf.pairwise(kf.read_annotations("export.json"), item="item", rater="rater",
    label="label")``. The same files are read by every function that takes a path
    (``kf.pairwise("export.json", item="item", rater="rater", label="label")``) and by
    the command line (``kappaframe report export.json --item item --rater rater --label
    label``; ``--input-format label-studio`` names the tool).

    Supported exports (the tool is found from the first record when not named):

    - ``"label-studio"``: the JSON export (tasks with ``data`` and ``annotations``; each
      annotation's ``completed_by`` is its rater, the user's id or email) and the JSON-MIN
      export (one record per annotation, ``annotator`` the rater), of ``choices`` and
      ``rating`` fields. Cancelled (skipped) annotations are no labels.
    - ``"prodigy"``: ``prodigy db-out`` JSONL. The item is ``_input_hash``, the rater
      ``_annotator_id`` (else ``_session_id``, else the file's name). A binary task's
      label is its answer, ``"accept"`` or ``"reject"``, in the field named by the task's
      ``label``; a choice task's label is the options in ``accept``, in the field
      ``"accept"``. Ignored tasks, and rejected choice tasks (the options do not fit), are
      no labels.
    - ``"doccano"``: the JSONL (or JSON) export of text or image classification, one file
      per member (``alice.jsonl``: the rater is the file's name), or the zip of them
      doccano downloads; an example without labels (``[]``) is not rated by that member.
      The collaborative export (``all.jsonl``) merges the members' labels and is refused.

    Parameters
    ----------
    path : path, glob, folder, or list of them
        The export: JSON, JSON lines, compressed too (``.gz``, ``.bz2``, ``.xz``,
        ``.zst``), a zip of them, or ``-`` (standard input). Several files are read as
        one export (doccano's per-member files, Prodigy datasets of one annotator each).
    tool : {"label-studio", "prodigy", "doccano"}, optional
        Default: found from the first record.
    fields : str or list of str, optional
        The fields to read (Label Studio's control tag names, ``from_name``; Prodigy's
        binary labels and ``"accept"``; doccano's ``label``, ``cats``...). Default:
        every field, and a field that holds no choices (spans, text areas, boxes) is an
        error. Label Studio's JSON-MIN export needs them named: nothing in it says which
        keys are answers and which are the task's data.
    multiple : bool, optional
        Whether a field's answers are sets of labels. Default: a field is multi-choice
        when one of its answers holds several choices (or the tool says so, as Prodigy's
        ``choice_style: "multiple"``), and then every label of it is a ``frozenset``;
        ``True``: every choice answer is a frozenset; ``False``: one label per answer,
        and an answer with several choices is an error.
    predictions : bool, default False
        Label Studio: read each task's predictions too, as raters named by their
        ``model_version`` (a model against the annotators; the queue kappaframe writes
        for Label Studio comes back this way).

    Returns
    -------
    pandas.DataFrame
        One row per rating, in the file's order: ``item`` (the task or example id),
        ``rater``, ``field`` (only when the export holds several fields: agree per field
        with ``by="field"``), ``label`` (a plain value, or a ``frozenset`` for
        multi-choice fields: never flattened to one label), then the task's data fields
        as ``data.<key>`` columns (objects flattened: ``data.meta.source``; lists left
        out), which cannot clash with the four above and can be grouped by.

    Raises
    ------
    KappaFrameError
        A file that is no supported tool's export (the message names the keys seen and
        the tools), no annotations, a field that is not a choice (spans, text areas,
        regions: named, with ``fields=`` as the way out), JSON-MIN without ``fields``,
        doccano's collaborative export, a rating with no rater, invalid JSON.

    See Also
    --------
    pairwise : agreement of the long layout (``item=``, ``rater=``, ``label=``).

    Notes
    -----
    Nothing in the files is changed. A rater who answered a task twice keeps both rows
    (``duplicates=`` of the agreement functions decides which counts).

    Examples
    --------
    A Label Studio export of three texts, each labelled by users 1 and 2:

    >>> import json, pathlib, tempfile
    >>> import kappaframe as kf
    >>> def task(i, a, b):
    ...     def ann(user, choice):
    ...         value = {"choices": [choice]}
    ...         result = {"from_name": "sentiment", "to_name": "text", "type": "choices",
    ...                   "value": value}
    ...         return {"completed_by": user, "was_cancelled": False, "result": [result]}
    ...     return {"id": i, "data": {"text": f"review {i}"},
    ...             "annotations": [ann(1, a), ann(2, b)]}
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "export.json"
    >>> tasks = [task(1, "pos", "pos"), task(2, "neg", "pos"), task(3, "neg", "neg")]
    >>> _ = path.write_text(json.dumps(tasks))
    >>> ratings = kf.read_annotations(path)
    >>> list(ratings.columns)
    ['item', 'rater', 'label', 'data.text']
    >>> res = kf.pairwise(ratings, item="item", rater="rater", label="label", min_items=0)
    >>> round(float(res["kappa"].iloc[0]), 4)
    0.4
    """
    if isinstance(path, (str, os.PathLike)):
        given = [path]
    elif (
        isinstance(path, Sequence) and path and all(isinstance(p, (str, os.PathLike)) for p in path)
    ):
        given = list(path)
    else:
        raise KappaFrameTypeError(
            f"read_annotations takes a path, a glob, a folder or a list of paths; got "
            f"{type(path).__module__}.{type(path).__qualname__}."
        )
    paths = [p for one in given for p in expand_input(one)]
    return read_tool_export(paths, tool, fields=fields, multiple=multiple, predictions=predictions)
