"""Files as frame parts: the batches of ``kappaframe._io.scan``, read as pandas frames.

``file_reader`` turns a path, a glob, a folder, a list of paths, a ``pyarrow`` Dataset
or a ``FileScan`` into a ``FileReader``, which yields eager parts to
the one loop of ``kappaframe._api.plan``. Reading (formats, decompression, CSV blocks,
JSON lines, the kinds of CSV cells) is ``kappaframe._io.scan``'s.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

from .._io.read import (
    number_kind,
)
from .._io.scan import (
    FileScan,
    JsonLines,
    _as_kind,
    _as_kinds,
    _CommasChanged,
    _CsvFiles,
    _distinct,
    _guessed_kinds,
    _is_string,
    _KindsChanged,
    csv_kinds,
)
from .pandas import PandasFrame
from .parts import BatchReader

__all__ = ["FileReader", "file_reader"]


def file_reader(data: Any) -> FileReader | None:
    """Read a path, a list of paths, a Dataset or a ``FileScan``; else None."""
    if isinstance(data, FileScan):
        return FileReader(data)
    if isinstance(data, (str, os.PathLike)):
        text = os.fspath(data)
        if not os.path.exists(text) and not any(ch in text for ch in "*?["):
            return None  # not a file: the caller says what it takes
        return FileReader(FileScan(data))  # a glob that matches nothing says so
    if (
        isinstance(data, (list, tuple))
        and data
        and all(isinstance(x, (str, os.PathLike)) for x in data)
    ):
        return FileReader(FileScan(list(data)))
    ds = sys.modules.get("pyarrow.dataset")
    if ds is not None and isinstance(data, ds.Dataset):
        return FileReader(FileScan(data))
    return None


class FileReader(BatchReader):
    """Files as pandas parts: batches of rows, or the needed columns whole (long layout).

    CSV cells are read as written and become numbers as the command line decides it
    (``kappaframe._io.read.number_kind``, over every value): the rater columns of the
    wide layout together, as their labels share one category index, and every other
    column on its own; a column given a type in ``csv_options`` keeps it. Which columns
    are group keys the counting tells by asking the adapter (``wrap``) for their keys,
    which it does first on ``empty``, before any batch is read.

    The batches are counted as they are read, with the kinds the files' first blocks
    show; each batch is checked against them, and should a later value change a kind
    (a ``2.5`` among whole numbers, a ``01``), every value is looked at once and the
    counting starts again (``reduce``, ``map``).
    """

    output = "pandas"

    def __init__(self, scan: FileScan) -> None:
        self.scan = scan
        self.keys: set[str] = set()  # the columns the counting uses as group keys
        self._kinds: dict[tuple[tuple[str, ...], ...], dict[str, str | None]] = {}

    def columns(self) -> list[Hashable]:
        if isinstance(self.scan.dataset, JsonLines):
            return list(self.scan.dataset.names)
        return list(self.scan.dataset.schema.names)

    def empty(self) -> Any:
        if isinstance(self.scan.dataset, JsonLines):
            return self.scan.dataset.empty()
        return self.scan.dataset.schema.empty_table().to_pandas()

    def wrap(self) -> Callable[[Any], Any]:
        if isinstance(self.scan.dataset, _CsvFiles):
            return functools.partial(_CsvPart, keys=self.keys)
        return PandasFrame

    def parts(self, columns: Sequence[Hashable]) -> Iterator[Any]:
        names = [str(c) for c in columns]
        if not isinstance(self.scan.dataset, _CsvFiles):
            for batch in self.scan.batches(names):
                yield batch.to_pandas() if hasattr(batch, "to_pandas") else batch
            return
        free = [c for c in names if c not in self.scan.dataset.typed]
        sets = (  # raters together, group keys each alone
            tuple(c for c in free if c not in self.keys),
            *((c,) for c in free if c in self.keys),
        )
        kinds = self._kinds.get(sets)
        check = None
        if kinds is None:
            kinds, check = _guessed_kinds(self.scan.dataset.schema, sets)
        try:
            for batch in self.scan.batches(names):
                if check is not None:
                    check.add(batch)
                yield _as_kinds(batch, kinds).to_pandas()
        except _CommasChanged:
            raise _KindsChanged(sets, commas=True) from None
        if check is not None:
            check.done()
            self._kinds[sets] = kinds

    def map(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        *args: Any,
        together: Hashable | None = None,
        compact: Sequence[Hashable] = (),
    ) -> list[Any]:
        try:
            return super().map(columns, func, *args, together=together, compact=compact)
        except _KindsChanged as changed:
            self._again(changed)
            return super().map(columns, func, *args, together=together, compact=compact)

    def reduce(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        combine: Callable[[list[Any]], Any],
        *args: Any,
        together: Hashable | None = None,
        compact: Sequence[Hashable] = (),
    ) -> Any:
        try:
            return super().reduce(columns, func, combine, *args, together=together, compact=compact)
        except _KindsChanged as changed:
            self._again(changed)
            return super().reduce(columns, func, combine, *args, together=together, compact=compact)

    def _again(self, changed: _KindsChanged) -> None:
        """Decide every value of the columns whose guessed kind (or decimal mark) changed."""
        if changed.commas:
            columns = [c for group in changed.sets for c in group]
            self.scan.dataset.decide_commas(columns)
        self._kinds[changed.sets] = csv_kinds(self.scan, changed.sets)

    def whole(self, columns: Sequence[Hashable], compact: Sequence[Hashable] = ()) -> Any:
        """Every row of ``columns``; the strings of ``compact`` dictionary-encoded.

        A dictionary-encoded string costs about 4 bytes a value; the other columns (group
        keys) come back as plain values, not categoricals.
        """
        import pyarrow as pa

        names = [str(c) for c in columns]
        if isinstance(self.scan.dataset, JsonLines):
            return self.scan.dataset.to_table(names)
        if isinstance(self.scan.dataset, _CsvFiles):
            # Every column decides on its own: the long layout's labels are one column.
            typed = self.scan.dataset.typed
            strings = [str(c) for c in compact if str(c) not in typed]
            table = self.scan.dataset.to_table(names, dictionary=strings)
            for name in names:
                if name not in typed:
                    column = table.column(name)
                    kind = number_kind(_distinct(column))
                    if kind is not None:
                        position = table.schema.get_field_index(name)
                        table = table.set_column(position, name, _as_kind(column, kind))
            return table.to_pandas()
        schema = self.scan.dataset.schema
        strings = [str(c) for c in compact if _is_string(schema.field(str(c)).type)]
        table = self.scan._open(strings).to_table(columns=names)
        for name in names:
            column = table.column(name)
            if name not in strings and pa.types.is_dictionary(column.type):
                position = table.schema.get_field_index(name)
                table = table.set_column(position, name, column.cast(column.type.value_type))
        return table.to_pandas()


class _CsvPart(PandasFrame):
    """A batch of a CSV file that tells its reader which columns are group keys."""

    def __init__(self, frame: Any, keys: set[str]) -> None:
        super().__init__(frame)
        self._keys = keys

    def keys(self, name: Hashable) -> tuple[Any, int]:
        self._keys.add(str(name))
        return super().keys(name)
