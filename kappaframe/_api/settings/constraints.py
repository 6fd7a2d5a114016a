"""What a value of an option may be, as data.

Each constraint checks a value and knows values it refuses (the tests generated from the
declarations draw on them).

A refusal is a ``KappaFrameError`` naming the option (the command line names its flag), in
scikit-learn's template: the option, what is allowed, what was given.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..._errors import KappaFrameError, KappaFrameTypeError, bad_option, spelled

__all__ = [
    "ANY",
    "Checked",
    "Column",
    "Columns",
    "Constraint",
    "Flag",
    "Labels",
    "Names",
    "Number",
    "OneOf",
    "Options",
    "Text",
]


class Constraint:
    """A rule for one option's values; the base accepts every value."""

    #: The values allowed, for options that take one of a list (the command line's choices).
    choices: tuple[Any, ...] = ()
    #: ``None`` is allowed too.
    none: bool = False

    def check(self, name: str, value: Any) -> None:
        """Raise a ``KappaFrameError`` naming ``name`` if ``value`` is not allowed."""

    def describe(self) -> str:
        """What the values may be, in a few words (the options' reference page)."""
        return "any value the function takes (it checks the value itself)"

    def _or_none(self, text: str) -> str:
        return f"{text}, or None" if self.none else text

    def invalid(self) -> tuple[Any, ...]:
        """Values this rule refuses (for the generated tests); none for the base."""
        return ()

    def _refuse(self, name: str, value: Any, wanted: str) -> KappaFrameTypeError:
        none = " or None" if self.none else ""
        return KappaFrameTypeError(
            f"{spelled(name)} must be {wanted}{none}; got {_shown(value)}.", option=name
        )


def _shown(value: Any) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    kind = type(value).__name__
    return text if isinstance(value, (str, int, float, type(None))) else f"{kind} {text}"


#: Every value is allowed here (the function checks it where it needs the data to).
ANY = Constraint()


@dataclass(frozen=True)
class OneOf(Constraint):
    """One of a fixed list (a ``_types`` Literal's names); booleans are not the numbers 1, 0."""

    choices: tuple[Any, ...] = ()
    none: bool = False

    def check(self, name: str, value: Any) -> None:
        if value is None and self.none:
            return
        allowed = isinstance(value, Hashable) and any(
            value == c and isinstance(value, bool) == isinstance(c, bool) for c in self.choices
        )
        if not allowed:
            raise bad_option(name, value, self.choices)

    def describe(self) -> str:
        return self._or_none("one of " + ", ".join(f"`{c!r}`" for c in self.choices))

    def invalid(self) -> tuple[Any, ...]:
        return ("no-such-choice", ["list"])


@dataclass(frozen=True)
class Number(Constraint):
    """A real number (``integer=True``: a whole one) within ``[low, high]``.

    ``open_low`` / ``open_high`` leave a bound out; booleans are not numbers; NaN is refused
    unless ``nan`` allows it.
    """

    low: float = -math.inf
    high: float = math.inf
    integer: bool = False
    none: bool = False
    open_low: bool = False
    open_high: bool = False
    nan: bool = False

    def check(self, name: str, value: Any) -> None:
        if value is None and self.none:
            return
        kind = numbers.Integral if self.integer else numbers.Real
        what = "a whole number" if self.integer else "a number"
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, kind):
            raise self._refuse(name, value, f"{what}{self._range()}")
        if math.isnan(float(value)):
            if self.nan:
                return
            raise self._refuse(name, value, f"{what}{self._range()} (not NaN)")
        x = float(value)
        below = x <= self.low if self.open_low else x < self.low
        above = x >= self.high if self.open_high else x > self.high
        if below or above:
            raise KappaFrameError(
                f"{spelled(name)} must be {what}{self._range()}; got {value!r}.", option=name
            )

    def _range(self) -> str:
        if self.low == -math.inf and self.high == math.inf:
            return ""
        if self.high == math.inf:
            return f" {'>' if self.open_low else '>='} {self.low:g}"
        if self.low == -math.inf:
            return f" {'<' if self.open_high else '<='} {self.high:g}"
        left = "(" if self.open_low else "["
        right = ")" if self.open_high else "]"
        return f" in {left}{self.low:g}, {self.high:g}{right}"

    def describe(self) -> str:
        what = "a whole number" if self.integer else "a number"
        return self._or_none(what + self._range())

    def invalid(self) -> tuple[Any, ...]:
        bad: list[Any] = ["1", True]
        if self.low > -math.inf:
            bad.append(self.low - 1)
        if self.high < math.inf:
            bad.append(self.high + 1)
        if self.integer:
            bad.append(2.5)
        return tuple(bad)


@dataclass(frozen=True)
class Flag(Constraint):
    """``True`` or ``False`` (NumPy's booleans too)."""

    none: bool = False

    def check(self, name: str, value: Any) -> None:
        if (value is None and self.none) or isinstance(value, (bool, np.bool_)):
            return
        raise self._refuse(name, value, "True or False")

    def describe(self) -> str:
        return self._or_none("True or False")

    def invalid(self) -> tuple[Any, ...]:
        return ("yes", 2)


@dataclass(frozen=True)
class Text(Constraint):
    """A string."""

    none: bool = False

    def check(self, name: str, value: Any) -> None:
        if (value is None and self.none) or isinstance(value, str):
            return
        raise self._refuse(name, value, "a string")

    def describe(self) -> str:
        return self._or_none("a string")

    def invalid(self) -> tuple[Any, ...]:
        return (3, ["a"])


@dataclass(frozen=True)
class Column(Constraint):
    """One column name (any hashable value; a list names several columns, so is refused)."""

    none: bool = True

    def check(self, name: str, value: Any) -> None:
        if value is None and self.none:
            return
        if isinstance(value, Hashable) and not isinstance(value, (set, frozenset)):
            return
        raise self._refuse(name, value, "one column name")

    def describe(self) -> str:
        return self._or_none("one column name")

    def invalid(self) -> tuple[Any, ...]:
        return (["i"], {"i": 1})


@dataclass(frozen=True)
class Columns(Constraint):
    """A column name, or a list (tuple, array, Index) of names; not a set or a mapping."""

    none: bool = True

    def check(self, name: str, value: Any) -> None:
        if value is None and self.none:
            return
        if isinstance(value, (set, frozenset, Mapping)):
            raise self._refuse(name, value, "a column name or a list of names, in order")
        if isinstance(value, Hashable):
            return
        if not isinstance(value, (Sequence, np.ndarray)) and not hasattr(value, "tolist"):
            raise self._refuse(name, value, "a column name or a list of names, in order")
        for v in value:
            if not isinstance(v, Hashable):
                raise self._refuse(name, value, "a list of column names")

    def describe(self) -> str:
        return self._or_none("a column name or a list of names")

    def invalid(self) -> tuple[Any, ...]:
        return ({"a": 1}, [["a"]])


@dataclass(frozen=True)
class Names(Constraint):
    """A list (tuple, array, Index) of names: several of them, never one bare name."""

    none: bool = False

    def check(self, name: str, value: Any) -> None:
        if value is None and self.none:
            return
        if isinstance(value, (str, bytes, set, frozenset, Mapping)) or not hasattr(
            value, "__iter__"
        ):
            raise self._refuse(name, value, "a list of names, in order")
        for v in value:
            if not isinstance(v, Hashable):
                raise self._refuse(name, value, "a list of names")

    def describe(self) -> str:
        return self._or_none("a list of names")

    def invalid(self) -> tuple[Any, ...]:
        return (5, "ab", {"a"})


@dataclass(frozen=True)
class Labels(Constraint):
    """An ordered collection of labels (a list, tuple, array, Index, Series)."""

    none: bool = True

    def check(self, name: str, value: Any) -> None:
        if value is None and self.none:
            return
        if isinstance(value, (str, bytes)):
            raise KappaFrameTypeError(
                f"{spelled(name)} must be a list of labels; got the string {value!r}.",
                option=name,
            )
        if isinstance(value, (set, frozenset, Mapping)) or not hasattr(value, "__iter__"):
            raise self._refuse(name, value, "a list of labels in order (a list, tuple or array)")

    def describe(self) -> str:
        return self._or_none("a list of labels, in order")

    def invalid(self) -> tuple[Any, ...]:
        return (3, "abc", {"a", "b"})


@dataclass(frozen=True)
class Options(Constraint):
    """A mapping of keyword options (a dict)."""

    none: bool = True

    def check(self, name: str, value: Any) -> None:
        if (value is None and self.none) or isinstance(value, Mapping):
            return
        raise self._refuse(name, value, "a dict of options")

    def describe(self) -> str:
        return self._or_none("a dict of options")

    def invalid(self) -> tuple[Any, ...]:
        return ("delimiter=;", 3)


@dataclass(frozen=True)
class Checked(Constraint):
    """A value checked by a function of its own (one that knows the option's rules).

    The function raises ``KappaFrameError``; one that does not name the option gets it
    named here. ``bad`` lists values it refuses, for the generated tests.
    """

    func: Callable[[Any], Any] = field(default=lambda value: None)
    bad: tuple[Any, ...] = ()
    none: bool = False
    choices: tuple[Any, ...] = ()
    #: What the values may be, in a few words (the options' reference page).
    text: str = "checked by its own rules"

    def check(self, name: str, value: Any) -> None:
        if value is None and self.none:
            return
        try:
            self.func(value)
        except KappaFrameError as err:
            if err.option is None:
                err.option = name
            raise
        except (TypeError, ValueError) as err:
            raise KappaFrameTypeError(
                f"{spelled(name)}: {_shown(value)} is not a value it takes ({err}).",
                option=name,
            ) from err

    def describe(self) -> str:
        named = ", ".join(f"`{c!r}`" for c in self.choices)
        return self._or_none(f"{self.text} (names: {named})" if named else self.text)

    def invalid(self) -> tuple[Any, ...]:
        return self.bad
