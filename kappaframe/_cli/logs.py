"""What the command says on stderr: the ``kappaframe`` logger, set by --quiet and --verbose.

The library logs through ``logging`` (loggers under ``kappaframe``: which file is
read, how many rows, which raters are taken, what is written, with timings) and never
sets up a handler; the command line sets up one, on stderr, for the time of a command:

- default: warnings and notes (WARNING), errors;
- ``--verbose``: also what is done (INFO); ``-vv``: details (DEBUG);
- ``--quiet``: errors only (ERROR), and no progress bar.

Warnings the library emits with ``warnings.warn`` (``MissingTokenWarning``,
``UndefinedKappaWarning``, ...) are relayed as WARNING records of the ``kappaframe``
logger, in the command line's words (built while its flags are the spelling), so that
``--quiet`` silences them like every other note. ``logging.captureWarnings`` is not
used: it logs to the ``py.warnings`` logger, outside ``kappaframe``'s level, with the
file, line and source text of the warning, which say nothing to a command-line user.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import warnings
from collections.abc import Iterable, Iterator
from typing import IO, Any

#: The logger the command line sets up; the library's loggers are its children.
LOGGER = "kappaframe"

#: The command line's own records.
log = logging.getLogger("kappaframe.cli")

_LABELS = {logging.DEBUG: "debug", logging.WARNING: "warning", logging.ERROR: "error"}


def level_of(args: argparse.Namespace) -> int:
    """The level ``--quiet`` / ``--verbose`` ask for (WARNING without either)."""
    if getattr(args, "quiet", False):
        return logging.ERROR
    verbose = int(getattr(args, "verbose", 0) or 0)
    return logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG


class _Lines(logging.Formatter):
    """``kappaframe: warning: ...``: a label by level (none for INFO), or the record's own.

    A record given ``extra={"label": "note"}`` is labelled so (``""``: no label). Text
    from the input (file, rater and label names) is shown with control characters
    escaped (``kappaframe._report.display.visible``).
    """

    def format(self, record: logging.LogRecord) -> str:
        from .._report.display import visible

        label = getattr(record, "label", _LABELS.get(record.levelno, ""))
        message = visible(record.getMessage(), newlines=True)
        return f"kappaframe: {label}: {message}" if label else f"kappaframe: {message}"


class _Handler(logging.StreamHandler):
    """A stderr handler that stays silent when stderr itself fails (a closed pipe)."""

    def handleError(self, record: logging.LogRecord) -> None:
        pass


@contextlib.contextmanager
def to_stream(level: int, stream: IO[str]) -> Iterator[None]:
    """Send the ``kappaframe`` logger's records of ``level`` and above to ``stream``.

    For the time of the block: one handler (removed after, with the logger's level and
    propagation as they were, so that a program calling ``main()`` keeps its own set-up
    and sees no record twice), and every warning shown through it (``relay``).
    """
    logger = logging.getLogger(LOGGER)
    handler = _Handler(stream)
    handler.setFormatter(_Lines())
    saved = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
    try:
        with warnings.catch_warnings():  # restores showwarning and the filters after
            warnings.showwarning = _show
            yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]


def _show(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    """A warning that reached Python's filters: one WARNING record, in flags' words."""
    relay([str(message)])


def relay(texts: Iterable[str]) -> None:
    """Each distinct warning message once, as a WARNING record in the command's words."""
    for message in dict.fromkeys(texts):
        log.warning(message)
