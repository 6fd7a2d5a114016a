"""Exceptions, warnings and the message builders shared by every backend."""

from __future__ import annotations

import contextlib
import contextvars
import difflib
import importlib
import os
import sys
import warnings
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = [
    "ConvergenceWarning",
    "KappaFrameAttributeError",
    "KappaFrameError",
    "KappaFrameTypeError",
    "MissingTokenWarning",
    "UndefinedKappaWarning",
    "arg",
    "bad_option",
    "install_hint",
    "missing_columns",
    "missing_dependency",
    "optional_import",
    "quiet_undefined",
    "refuse_nested",
    "spelled",
    "spelled_as",
    "too_few_raters",
    "user_stacklevel",
    "warn_undefined",
    "ways",
]

#: The package root: warnings point at the first frame outside it.
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class KappaFrameError(ValueError):
    """Raised for input kappaframe cannot use; the message says what and how to fix it.

    ``option`` names the argument the error concerns (``"categories"``, ``"weights"``,
    ``"raters"``, ...) when there is one, so that the command line can name its flag
    instead of the Python argument.
    """

    def __init__(self, message: str = "", option: str | None = None) -> None:
        super().__init__(message)
        self.option = option

    def __reduce__(self) -> tuple[Any, ...]:  # keep the option across processes (Dask)
        return (type(self), (str(self), self.option))


class MissingTokenWarning(UserWarning):
    """A label is a token that often means missing (``NA``, ``N/A``, ``null``...).

    Only an empty cell (and NaN, None, pd.NA, null) is missing; such a label is counted
    as a category, and this warning says so once per call, naming the column.
    """


class UndefinedKappaWarning(RuntimeWarning):
    """Some pair (or group) has an undefined kappa: no shared items, or chance agreement 1."""


class ConvergenceWarning(UserWarning):
    """An iterative model (Dawid-Skene) stopped at its iteration limit before its tolerance.

    Its results are those of the last iteration, marked as not converged; the message names
    the options that give it more room (``max_iter``, ``tol``).
    """


#: The caller's spelling of options while a call runs: ``None`` for Python's keyword
#: arguments, or a map from option name to command-line flag that the command line
#: installs (``spelled_as``). Messages name options through ``arg``, so each
#: caller reads its own way out, and nothing rewrites a message afterwards.
_FLAGS: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar(
    "kappaframe_flags", default=None
)

#: ``arg(name)`` without a value: the option's name alone (``by=`` / ``--by``).
_NAME_ONLY = object()


@contextlib.contextmanager
def spelled_as(flags: Mapping[str, str]) -> Iterator[None]:
    """Name options by ``flags`` (option name -> flag) in messages built inside the block."""
    token = _FLAGS.set(flags)
    try:
        yield
    finally:
        _FLAGS.reset(token)


def arg(name: str, value: object = _NAME_ONLY) -> str:
    """An option as the caller writes it: ``weights='linear'`` in Python, ``--weights linear``.

    ``value=...`` (Ellipsis) stands for a list to fill in: ``raters=[...]`` /
    ``--raters ...``. Options the command line has no flag for keep the Python spelling.
    """
    flags = _FLAGS.get()
    flag = None if flags is None else flags.get(name)
    if flag is None:
        if value is _NAME_ONLY:
            return f"{name}="
        return f"{name}=[...]" if value is Ellipsis else f"{name}={value!r}"
    if value is _NAME_ONLY:
        return flag
    if value is Ellipsis:
        return f"{flag} ..."
    if isinstance(value, (list, tuple)):
        return " ".join([flag, *(str(v) for v in value)])
    return f"{flag} {value}"


def ways(python: str, command_line: str) -> str:
    """The way out in the caller's terms: Python code, or what to do on the command line."""
    return python if _FLAGS.get() is None else command_line


def spelled(name: str) -> str:
    """An option's name as the caller writes it: ``weights`` in Python, ``--weights``."""
    flags = _FLAGS.get()
    return name if flags is None else flags.get(name, name)


def bad_option(name: str, value: object, allowed: Iterable[object]) -> KappaFrameError:
    """Build the error for an option outside its allowed values (scikit-learn's template)."""
    choices = ", ".join(repr(a) for a in allowed)
    return KappaFrameError(f"{spelled(name)} must be one of {choices}; got {value!r}.", option=name)


def refuse_nested(frame: Any, name: str) -> None:
    """Refuse nested values (a JSON object or list in a cell) of a pandas frame.

    The row is counted from 1 by the frame's index (a chunk of lines keeps its place in
    the file).
    """
    for c in frame.columns:
        if frame[c].dtype != object:
            continue
        nested = frame[c].map(lambda v: isinstance(v, (dict, list))).to_numpy(dtype=bool)
        if nested.any():
            row = int(nested.argmax())
            raise KappaFrameError(
                f"{name}: column {c!r} holds a nested value in row {frame.index[row] + 1} "
                f"({frame[c].iloc[row]!r}); labels are single values: flatten the file first."
            )


def too_few_raters(
    need: int, found: Sequence[Hashable], column: Hashable | None = None
) -> KappaFrameError:
    """Build the error for fewer raters than agreement needs.

    ``column`` is the long layout's rater column (``None``: the wide layout's columns).
    """
    if column is None:
        return KappaFrameError(
            f"agreement needs at least {need} raters; got {len(found)}: {list(found)}. "
            f"Name the rater columns with {arg('raters', ...)}."
        )
    return KappaFrameError(
        f"agreement needs at least {need} raters; column {column!r} has "
        f"{len(found)}: {list(found)[:10]}."
    )


def missing_columns(
    asked: Sequence[Hashable], available: Sequence[Hashable], role: str = "column"
) -> KappaFrameError | None:
    """Return an error naming the columns in ``asked`` that are not in ``available``."""
    present = set(available)
    missing = [c for c in asked if c not in present]
    if not missing:
        return None
    parts = []
    names = [str(c) for c in available]
    for col in missing:
        close = difflib.get_close_matches(str(col), names, n=3, cutoff=0.6)
        hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
        parts.append(f"{col!r}{hint}")
    shown = ", ".join(repr(c) for c in list(available)[:20])
    more = ", ..." if len(available) > 20 else ""
    plural = "s" if len(missing) > 1 else ""
    return KappaFrameError(
        f"{role}{plural} not found: {'; '.join(parts)}. The frame has: [{shown}{more}]."
    )


class KappaFrameTypeError(KappaFrameError, TypeError):
    """Raised when an argument has an unsupported type (e.g. not a frame)."""


class KappaFrameAttributeError(KappaFrameError, AttributeError):
    """Raised for an attribute that is not there, where kappaframe can say what was meant.

    An ``AttributeError``, so that ``hasattr`` and ``getattr(obj, name, default)`` behave.
    """

    def __init__(self, message: str = "", name: str | None = None, obj: Any = None) -> None:
        super().__init__(message)
        self.name = name
        self.obj = obj


#: Set (per thread and task) while a call runs on no rows, or redoes
#: what was already reported: its undefined results are not news.
_QUIET_UNDEFINED: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "kappaframe_quiet_undefined", default=False
)


@contextlib.contextmanager
def quiet_undefined() -> Iterator[None]:
    """Say nothing of undefined results inside the block, in this thread only.

    ``warnings.catch_warnings`` changes the filters of every thread at once: a Dask or
    polars worker thread leaving its own block could restore them under this one.
    """
    token = _QUIET_UNDEFINED.set(True)
    try:
        yield
    finally:
        _QUIET_UNDEFINED.reset(token)


def warn_undefined(
    undefined: np.ndarray,
    n: np.ndarray | None = None,
    what: str = "pair x group cells",
    *,
    subject: str = "kappa",
    fewer_than: int | None = None,
    too_few: str = "with no item rated by both",
    otherwise: str = "where chance agreement is 1 (one shared category only)",
) -> None:
    """One warning per call naming how many results are undefined and why.

    Every statistic warns of its undefined (NaN) results here, as one
    ``UndefinedKappaWarning`` per call: "``subject`` is undefined (NaN) for 3 of 10
    ``what``: ...". ``n`` gives the items behind each result: those with none (with
    ``fewer_than``, fewer than that many) are counted as ``too_few``, the others as
    ``otherwise``; without ``n``, ``otherwise`` is the one reason given. Nothing is said
    inside ``quiet_undefined``.
    """
    count = int(np.count_nonzero(undefined))
    if not count or _QUIET_UNDEFINED.get():
        return
    parts = [otherwise]
    if n is not None:
        few = int(np.count_nonzero(undefined & (n == 0 if fewer_than is None else n < fewer_than)))
        parts = [f"{few} {too_few}"] if few else []
        if count - few:
            parts.append(f"{count - few} {otherwise}")
    message = (
        f"{subject} is undefined (NaN) for {count} of {np.size(undefined)} {what}: "
        f"{'; '.join(parts)}."
    )
    warnings.warn(message, UndefinedKappaWarning, stacklevel=user_stacklevel())


def user_stacklevel() -> int:
    """Stack level of the first frame outside this package (so warnings point at user code)."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(
        _PACKAGE_DIR + os.sep
    ):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


#: The optional libraries, and the extra of ``pip install "kappaframe[...]"`` that installs
#: each (pyproject.toml's extras); ``()`` for a library that no extra installs.
EXTRAS: dict[str, tuple[str, ...]] = {
    "polars": ("polars",),
    "pyarrow": ("parquet",),
    "matplotlib": ("plot",),
    "dask": ("dask",),
    "distributed": ("dask",),
    "duckdb": ("duckdb",),
    "narwhals": ("duckdb", "spark", "ibis"),
    "ibis": ("ibis",),
    "pyspark": ("spark",),
    "jinja2": ("notebook",),
    "zstandard": (),
}


def install_hint(module: str) -> str:
    """What to run to install an optional library: ``pip install "kappaframe[parquet]"``."""
    top = module.partition(".")[0]
    extras = EXTRAS.get(top, ())
    if not extras:
        return f"pip install {top}"
    return "pip install " + " or ".join(f'"kappaframe[{extra}]"' for extra in extras)


def optional_import(module: str, purpose: str) -> Any:
    """Import an optional library, or say in one line which extra installs it.

    Parameters
    ----------
    module : str
        The module to import, e.g. ``"pyarrow.dataset"``.
    purpose : str
        What needs it, to start the message: ``"reading Parquet files"``.

    Returns
    -------
    module
        The imported module.

    Raises
    ------
    ModuleNotFoundError
        ``reading Parquet files needs pyarrow: pip install "kappaframe[parquet]"``; its
        ``name`` is the top-level module that could not be imported.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        top = module.partition(".")[0]
        missing = (err.name or top).partition(".")[0]
        needs = top if missing == top else f"{top}, which needs {missing}"
        raise ModuleNotFoundError(
            f"{purpose} needs {needs}: {install_hint(module)}", name=missing
        ) from None


def missing_dependency(err: ModuleNotFoundError) -> str:
    """One line for a missing module: the extra that installs it, when it is an optional one.

    A message that already says what to install is kept as it is.
    """
    message = str(err)
    top = (err.name or "").partition(".")[0]
    if "pip install" in message or top not in EXTRAS:
        return message
    return f"{top} is not installed: {install_hint(top)}"
