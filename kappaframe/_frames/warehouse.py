"""Ibis tables: ratings in a warehouse (PostgreSQL, BigQuery, Snowflake, DuckDB, ...).

An Ibis table is an engine input like a DuckDB relation (``kappaframe._frames.engines``):
narwhals reads it lazily, the counting and summing queries are written once with its
lazy API and run in the table's backend, and only their small answers (cells, sums)
travel back. No row of the table is brought into Python, and nothing falls back to
reading the rows: what the backend (or narwhals' Ibis support) cannot express is
refused, naming it and the way out (``table.to_pandas()`` or ``table.to_polars()``).
Statistics that need every rating of every item are refused as for any engine input.

This module holds what is particular to Ibis: the name of the backend in messages, the
way out, and the translation of a backend's refusal. Ibis is never imported here.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .._errors import KappaFrameError

__all__ = ["IBIS", "WAY_OUT", "ibis_engine", "is_ibis", "refused_by_backend"]

#: The top-level module of an Ibis table, and narwhals' name of its implementation.
IBIS = "ibis"

#: How to bring an Ibis table's rows into Python, for the messages that refuse.
WAY_OUT = "table.to_pandas() or table.to_polars()"


def is_ibis(frame: Any) -> bool:
    """Whether the narwhals LazyFrame ``frame`` is over an Ibis table."""
    return str(frame.implementation).rsplit(".", 1)[-1].lower() == IBIS


def ibis_engine(frame: Any) -> str:
    """The engine of an Ibis table, for messages: ``"postgres (Ibis)"``."""
    try:
        backend = str(frame.to_native().get_backend().name)
    except Exception:  # an unbound table (a memtable): Ibis' default backend runs it
        return "Ibis"
    return f"{backend} (Ibis)"


@contextmanager
def refused_by_backend(query: Any) -> Iterator[None]:
    """Turn a refusal of the Ibis backend running ``query`` into a ``KappaFrameError``.

    A backend that has no translation of an operation (Ibis' ``TranslationError``), or
    an operation narwhals does not write for Ibis (``NotImplementedError``), is named
    with the way out. Other errors (a lost connection, a missing table) pass unchanged.
    """
    try:
        yield
    except Exception as err:
        if not is_ibis(query) or not _refusal(err):
            raise
        raise KappaFrameError(
            f"the {ibis_engine(query)} backend cannot run a query kappaframe writes for "
            f"this statistic ({type(err).__name__}: {err}); bring the ratings into pandas "
            f"or polars first ({WAY_OUT})."
        ) from err


def _refusal(err: Exception) -> bool:
    if isinstance(err, NotImplementedError):
        return True
    exceptions = sys.modules.get("ibis.common.exceptions")
    return exceptions is not None and isinstance(err, exceptions.TranslationError)
