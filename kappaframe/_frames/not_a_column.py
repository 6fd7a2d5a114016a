"""The ``.kappa`` accessor used as the ``kappa`` column says so, naming ``res["kappa"]``.

A result has a ``kappa`` column, and ``res.kappa`` is the accessor, not the column (pandas
and polars both give a registered accessor before a column of its name). ``NotAColumn``,
a base of the accessor, turns what only a column can do (``res.kappa.mean()``,
``res.kappa > 0.6``, ``res.kappa + 1``, ``np.asarray(res.kappa)``, ``len``, iteration,
``bool``, indexing) into an error that names the column's spelling. The errors are what
Python expects for each (``AttributeError`` for an attribute, so ``hasattr`` and
``getattr(..., default)`` behave; ``TypeError`` for the rest), and kappaframe's own. On a
frame without a ``kappa`` column nothing changes but the wording of those errors.
"""

from __future__ import annotations

from typing import Any, NoReturn

from .._errors import KappaFrameAttributeError, KappaFrameTypeError

__all__ = ["NotAColumn"]

#: The operators a column has and the accessor has not: method name -> the spelling shown.
_BINARY = {
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "add": "+",
    "sub": "-",
    "mul": "*",
    "truediv": "/",
    "floordiv": "//",
    "mod": "%",
    "pow": "**",
    "and": "&",
    "or": "|",
    "xor": "^",
}
_REFLECTED = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor")
_UNARY = {"neg": "-", "pos": "+", "abs": "abs", "invert": "~"}


def _has_kappa_column(frame: Any) -> bool:
    """Whether ``frame`` has a column named ``kappa`` (its schema only; no data read)."""
    try:
        schema = getattr(frame, "collect_schema", None)
        names = schema().names() if schema is not None else list(frame.columns)
    except Exception:  # not a frame we can ask: say nothing about a column
        return False
    return "kappa" in names


def _column(frame: Any, use: str) -> str:
    """What to write instead: ``res["kappa"]`` (``pl.col("kappa")`` in a lazy plan), used."""
    spelled = 'pl.col("kappa")' if type(frame).__name__ == "LazyFrame" else 'res["kappa"]'
    return use.replace("COLUMN", spelled)


def _message(frame: Any, tried: str, use: str) -> str:
    return (
        f"{tried.replace('COLUMN', 'res.kappa')}: res.kappa is kappaframe's accessor "
        '(res.kappa.pairwise() and the like), not the column "kappa"; for the column, '
        f"write {_column(frame, use)}."
    )


class NotAColumn:
    """What the accessor says when it is used as the ``kappa`` column."""

    _frame: Any

    def _not_a_column(self, tried: str, use: str, fallback: str) -> NoReturn:
        """Raise the error of ``tried`` (its hint only where the frame has the column)."""
        frame = self.__dict__.get("_frame")
        if _has_kappa_column(frame):
            raise KappaFrameTypeError(_message(frame, tried, use))
        raise TypeError(fallback)

    def __getattr__(self, name: str) -> Any:  # only names the class does not have
        frame = self.__dict__.get("_frame")
        if not name.startswith("_") and _has_kappa_column(frame):
            raise KappaFrameAttributeError(
                _message(frame, f"COLUMN.{name}", f"COLUMN.{name}"), name=name, obj=self
            )
        raise AttributeError(
            f"{type(self).__name__!r} object has no attribute {name!r}", name=name, obj=self
        )

    __hash__ = object.__hash__

    def __array__(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._not_a_column(
            "np.asarray(COLUMN)", "COLUMN.to_numpy()", "the .kappa accessor is not an array"
        )

    def __len__(self) -> int:
        name = type(self).__name__
        self._not_a_column("len(COLUMN)", "len(COLUMN)", f"object of type {name!r} has no len()")

    def __iter__(self) -> NoReturn:
        name = type(self).__name__
        self._not_a_column("iter(COLUMN)", "COLUMN", f"{name!r} object is not iterable")

    def __getitem__(self, key: Any) -> NoReturn:
        name = type(self).__name__
        self._not_a_column(
            f"COLUMN[{key!r}]", f"COLUMN[{key!r}]", f"{name!r} object is not subscriptable"
        )

    def __contains__(self, value: Any) -> bool:
        name, shown = type(self).__name__, repr(value)[:40]
        self._not_a_column(
            f"{shown} in COLUMN",
            f"{shown} in COLUMN.to_list()",
            f"argument of type {name!r} is not iterable",
        )

    def __round__(self, digits: int | None = None) -> NoReturn:
        name = type(self).__name__
        self._not_a_column(
            "round(COLUMN)", "COLUMN.round()", f"type {name} doesn't define __round__ method"
        )

    def __bool__(self) -> bool:
        if _has_kappa_column(self.__dict__.get("_frame")):
            self._not_a_column("bool(COLUMN)", "COLUMN", "")
        return True

    def __float__(self) -> float:
        self._not_a_column("float(COLUMN)", "COLUMN.item()", "the .kappa accessor is not a number")

    def __int__(self) -> int:
        self._not_a_column("int(COLUMN)", "COLUMN.item()", "the .kappa accessor is not a number")


def _binary(name: str, symbol: str, reflected: bool) -> Any:
    def operator(self: NotAColumn, other: Any) -> Any:
        if not _has_kappa_column(self.__dict__.get("_frame")):
            return NotImplemented
        shown = f"{other!r}"[:40]
        tried = f"{shown} {symbol} COLUMN" if reflected else f"COLUMN {symbol} {shown}"
        self._not_a_column(tried, tried, "")

    operator.__name__ = f"__{'r' if reflected else ''}{name}__"
    return operator


def _unary(name: str, symbol: str) -> Any:
    def operator(self: NotAColumn) -> Any:
        tried = f"{symbol}(COLUMN)" if symbol == "abs" else f"{symbol}COLUMN"
        what = "abs()" if symbol == "abs" else f"unary {symbol}"
        self._not_a_column(tried, tried, f"bad operand type for {what}: {type(self).__name__!r}")

    operator.__name__ = f"__{name}__"
    return operator


for _name, _symbol in _BINARY.items():
    setattr(NotAColumn, f"__{_name}__", _binary(_name, _symbol, reflected=False))
for _name in _REFLECTED:
    setattr(NotAColumn, f"__r{_name}__", _binary(_name, _BINARY[_name], reflected=True))
for _name, _symbol in _UNARY.items():
    setattr(NotAColumn, f"__{_name}__", _unary(_name, _symbol))
