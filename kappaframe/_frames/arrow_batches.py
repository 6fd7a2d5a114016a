"""In-process engines as frame parts: a DuckDB relation's Arrow record batches.

An engine input (``kappaframe._frames.engines.EngineFrame``) can be counted two ways:

- **pushed down**: one ``GROUP BY ... COUNT(*)`` per pair of rater columns (a self-join
  in the long layout) runs in the engine and only the K x K cells come back. Its cost
  grows with rows x pairs: 190 pairs of 20 raters scan the rows 190 times, in SQL.
- **streamed**: the needed columns come to this process as Arrow record batches
  (``relation.to_arrow_reader(batch_size)``) and each batch is counted by the NumPy
  kernel, as a LazyFrame's batches or a file's are (``kappaframe._api.plan``). Its cost
  grows with rows x columns for the transfer, and the pairs are counted by one bincount
  each, at the speed of a pandas input.

The rule (``streamed_reader``): **stream when the engine runs in this process** (DuckDB:
its batches reach NumPy without a copy over a network, in milliseconds), **push the
count down when its data is elsewhere** (Spark: its rows live in a JVM or on a cluster,
and only the cells should travel), **and when it counts few tables** (up to
``PUSHED_TABLES`` aggregations, one per table, on the engine's threads beat bringing
every row here: 2,000,000 items in memory, 2 raters' one pair 0.04 s against 0.09 s
streamed, 3 raters' three pairs 0.08-0.10 s against 0.11 s, 4 raters' six 0.15-0.17 s
against 0.13-0.14 s; ``benchmarks/bench_engines.py``). Counting
windows over time is done in the engine's query
(``kappaframe._frames.windows.WindowedEngine``) and stays pushed down.

Memory: in the wide layout one batch (``batch_size`` rows of the needed columns) is held
at a time; the long layout, whose ratings of an item must be counted together, reads its
needed columns at once (the item, rater and label ids, and the ``by`` columns), as a
LazyFrame or a file does. Each batch becomes a pandas frame with integer and boolean
columns as pandas' nullable types, so that a missing value does not turn a batch's
whole numbers into floats and its labels stay those the engine holds.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

from .engines import EngineFrame
from .pandas import PandasFrame
from .parts import DEFAULT_BATCH_ROWS, BatchReader

__all__ = ["IN_PROCESS", "PUSHED_TABLES", "ArrowBatches", "engine_name", "streamed_reader"]

#: Engines that run in this process: their relations are streamed, not pushed down.
IN_PROCESS = ("duckdb",)
#: ... unless the wide layout's count is of this many tables or fewer (pairs of raters,
#: and each rater with itself where the caller shows those).
PUSHED_TABLES = 3

#: Engines as people name them (in what the ``kappaframe`` logger says).
_NAMES = {
    "duckdb": "DuckDB",
    "pyspark": "Spark",
    "pyspark_connect": "Spark",
    "sqlframe": "SQLFrame",
}


def engine_name(frame: EngineFrame) -> str:
    """The engine of ``frame`` as people name it (``DuckDB``, ``Spark``)."""
    return _NAMES.get(frame.engine, frame.engine)


def streamed_reader(frame: EngineFrame, tables: int | None = None) -> ArrowBatches | None:
    """The reader of ``frame``'s Arrow batches when streaming is cheaper; else ``None``.

    ``None`` (push the count down) for an engine whose data is not in this process, for
    windows over time, which the engine's query computes, and for a count of ``tables``
    tables (the wide layout's) up to ``PUSHED_TABLES``.
    """
    if type(frame) is not EngineFrame or frame.engine not in IN_PROCESS:
        return None
    if tables is not None and tables <= PUSHED_TABLES:
        return None
    return ArrowBatches(frame)


class ArrowBatches(BatchReader):
    """A DuckDB relation as pandas parts: its Arrow record batches of the needed columns.

    Attributes
    ----------
    batch_size : int
        Rows per batch (``DEFAULT_BATCH_ROWS``, as for files and LazyFrames).
    keys : set of str
        The group key columns, read as the pushed-down count reads them (``_pandas``).
    """

    output = "pandas"
    batch_size = DEFAULT_BATCH_ROWS

    def __init__(self, engine: EngineFrame, keys: Sequence[Hashable] = ()) -> None:
        self.engine = engine
        self.keys = {str(k) for k in keys}
        self._empty: Any = None

    @property
    def name(self) -> str:
        """The engine's name, as people name it (``DuckDB``)."""
        return engine_name(self.engine)

    def columns(self) -> list[Hashable]:
        return self.engine.columns()

    def empty(self) -> Any:
        """The input's columns and types, no rows (one ``LIMIT 0`` query, then kept)."""
        if self._empty is None:
            self._empty = self.engine.empty()
        return self._empty.copy()

    def wrap(self) -> Callable[[Any], Any]:
        return PandasFrame

    def _relation(self, columns: Sequence[Hashable]) -> Any:
        """The native relation of ``columns`` (names quoted by narwhals)."""
        return self.engine.frame.select(*[str(c) for c in columns]).to_native()

    def parts(self, columns: Sequence[Hashable]) -> Iterator[Any]:
        """Parts of ``batch_size`` rows (the last one fewer).

        DuckDB hands out record batches of at most a row group (122,880 rows) whatever
        size is asked; they are put together up to ``batch_size`` rows, so that each part
        is counted item block by item block as a large frame is, and pays the fixed cost
        of a part once.
        """
        import pyarrow as pa

        reader = _arrow_reader(self._relation(columns), self.batch_size)
        pending: list[Any] = []
        rows = 0
        try:
            for batch in reader:
                pending.append(batch)
                rows += batch.num_rows
                if rows >= self.batch_size:
                    yield _pandas(pa.Table.from_batches(pending, reader.schema), self.keys)
                    pending, rows = [], 0
            if pending:
                yield _pandas(pa.Table.from_batches(pending, reader.schema), self.keys)
        finally:
            reader.close()  # DuckDB runs no other query on the connection until it is

    def whole(self, columns: Sequence[Hashable], compact: Sequence[Hashable] = ()) -> Any:
        """Every row of ``columns``; the strings of ``compact`` dictionary-encoded."""
        import pyarrow as pa

        table = self._relation(columns).to_arrow_table()
        for name in [str(c) for c in compact]:
            position = table.schema.get_field_index(name)
            column = table.column(position)
            if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
                table = table.set_column(position, name, column.dictionary_encode())
        return _pandas(table, self.keys)


def _arrow_reader(relation: Any, batch_size: int) -> Any:
    """A ``pyarrow.RecordBatchReader`` of ``relation`` (DuckDB 1.4+; before, its old name)."""
    to_reader = getattr(relation, "to_arrow_reader", None)
    if to_reader is None:  # pragma: no cover - DuckDB before 1.4
        to_reader = relation.fetch_arrow_reader
    return to_reader(batch_size)


def _pandas(batch: Any, keys: set[str]) -> Any:
    """A record batch or table as pandas, its labels as the pushed-down count reads them.

    Labels: whole numbers and booleans keep their type beside a missing value (pandas'
    nullable types; the engine's cells hold only the labels that are there). Group keys
    (``keys``), missing ones included: pyarrow's conversion, as the engine's cells come.
    """
    import pandas as pd
    import pyarrow as pa

    def nullable(dtype: Any) -> Any:
        if pa.types.is_integer(dtype):
            return pd.api.types.pandas_dtype(str(dtype).capitalize().replace("Uint", "UInt"))
        if pa.types.is_boolean(dtype):
            return pd.BooleanDtype()
        return None  # pyarrow's own conversion

    frame = batch.to_pandas(types_mapper=nullable)  # one conversion, the columns in order
    for name in batch.schema.names:
        if name in keys and nullable(batch.schema.field(name).type) is not None:
            frame[name] = batch.column(name).to_pandas()  # a key as pyarrow converts it
    return frame
