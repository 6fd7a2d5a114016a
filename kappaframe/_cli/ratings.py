"""The ratings of INPUT as the commands read them whole: columns, missing cells, relabelling.

``kappaframe report`` (when not ``--stream``) and ``kappaframe items`` read their input
alike: the layout flags say which columns are needed, ``--exclude`` leaves columns out of
the raters, ``read_input`` reads the file as written, and ``--map`` / ``--drop-labels``
rename or drop labels before anything is counted.
"""

from __future__ import annotations

import argparse
from collections.abc import Hashable, Sequence
from typing import Any

__all__ = [
    "coerce",
    "long_layout_of_export",
    "needed_columns",
    "read_whole",
    "relabel",
    "resolve_exclude",
    "text_options",
    "tool_export",
]


def text_options(args: argparse.Namespace) -> Any:
    """``--delimiter``, ``--decimal``, ``--encoding`` as the reader takes them."""
    from .._io.read import TextOptions

    return TextOptions(args.delimiter, args.decimal, args.encoding)


def resolve_exclude(args: argparse.Namespace, by: list[Hashable], long: bool, options: Any) -> None:
    """``--exclude`` (wide layout, no ``--raters``): ``args.raters`` become the other columns.

    The ``--by`` columns, the ``--reference`` column and (``items``) the ``--item`` column
    are no raters either.
    """
    from .._errors import KappaFrameError
    from .._io.read import columns_of

    if not args.exclude or long or args.raters:
        return
    skip = {*by, *args.exclude, *_key(args), *([args.reference] if args.reference else [])}
    names = columns_of(args.input, args.input_format, options)
    unknown = [c for c in args.exclude if c not in names]
    if unknown:
        raise KappaFrameError(
            f"--exclude names {', '.join(map(repr, unknown))}, not a column of the input: "
            f"{', '.join(names)}."
        )
    args.raters = [c for c in names if c not in skip]


def needed_columns(
    args: argparse.Namespace, by: list[Hashable], long: bool
) -> list[Hashable] | None:
    """The columns to read (``None``: every column)."""
    if long:
        return [*by, args.item, args.rater, args.label]
    if args.raters:
        reference = [args.reference] if args.reference is not None else []
        return [*by, *_key(args), *args.raters, *reference]
    return None


def _key(args: argparse.Namespace) -> list[Hashable]:
    """The wide layout's item key column (``kappaframe items --item`` alone), if any."""
    item = getattr(args, "item", None)
    return [item] if item is not None else []


def read_whole(
    args: argparse.Namespace,
    needed: list[Hashable] | None,
    by: list[Hashable],
    long: bool,
    options: Any,
    progress: bool | None,
) -> Any:
    """Read INPUT whole: the label columns as written (text unless every label is a number)."""
    from .._io.read import read_input
    from .messages import comma_hint

    if long:
        labels, text = [args.label], [args.item]
    elif args.raters:
        labels = [*args.raters, *([args.reference] if args.reference else [])]
        text = _key(args)
    else:
        labels, text = None, _key(args)
    with comma_hint(args):
        return read_input(
            args.input,
            needed,
            fmt=args.input_format,
            progress=progress,
            na_values=args.na_values,
            labels=labels,
            text=text,
            options=options,
            labels_except=[*by, *text] if labels is None else None,
            fields=args.fields,
        )


def coerce(values: list[str] | None, frame: Any, columns: Sequence[Hashable]) -> Any:
    """Command-line labels as numbers when the label columns hold numbers."""
    if values is None:
        return None
    from pandas.api.types import is_bool_dtype, is_integer_dtype, is_numeric_dtype

    dtypes = [frame[c].dtype for c in columns if c in frame]
    if not dtypes or not all(is_numeric_dtype(d) and not is_bool_dtype(d) for d in dtypes):
        return values
    out: list[Any] = []
    for v in values:
        try:
            number = float(v)
        except ValueError:
            return values
        as_int = all(is_integer_dtype(d) for d in dtypes) or number.is_integer()
        out.append(int(number) if as_int and number.is_integer() else number)
    return out


def relabel(
    data: Any, columns: Sequence[Hashable], changes: list[tuple[str, str]], dropped: list[str]
) -> Any:
    """``--map OLD=NEW`` renames, then ``--drop-labels`` marks missing, in the label columns."""
    data = data.copy()
    present = [c for c in columns if c in data]
    olds = coerce([o for o, _ in changes], data, present) or []
    news = coerce([n for _, n in changes], data, present) or []
    gone = coerce(dropped, data, present) or []
    for c in present:
        column = data[c]
        if hasattr(column, "cat"):
            column = column.astype(object)
        if changes:
            column = column.replace(dict(zip(olds, news, strict=True)))
        if gone:
            column = column.where(~column.isin(gone), None)
        data[c] = column
    return data


def tool_export(args: argparse.Namespace) -> bool:
    """Whether INPUT is an annotation tool's export (named, or found from its first record)."""
    from .._errors import KappaFrameError
    from .._io.formats import TOOL_FORMATS
    from .._io.read import expand_input, input_kind

    try:
        return any(
            input_kind(p, args.input_format) in TOOL_FORMATS for p in expand_input(args.input)
        )
    except (KappaFrameError, OSError):
        return False  # reading the input says what is wrong with it


def long_layout_of_export(args: argparse.Namespace) -> None:
    """An export is read as ``item``, ``rater``, ``label``: the long layout, unless flags say."""
    from .logs import log

    if args.raters or args.exclude or any((args.item, args.rater, args.label)):
        return
    args.item, args.rater, args.label = "item", "rater", "label"
    log.info("an annotation tool's export: the long layout --item item --rater rater --label label")
