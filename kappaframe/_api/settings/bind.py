"""Bind a call to its declarations: every argument checked before the function's body runs.

``declared`` wraps a public callable. A call binds to its signature and each argument that
is not the default is checked against its declaration (``params.PARAMS``), in the
signature's order, before the body opens any source: a bad option is refused naming the
option even when the data cannot be read. The rules that join several options (``n_boot``
only with ``ci_method="bootstrap"``) stay in the body, where they also run before any read.
The binding costs microseconds per call, never anything per row or batch.

The wrapper's docstring is the function's with each placeholder ``%(name)s`` (and
``%(parameters)s``, every parameter in the signature's order) of its
Parameters section replaced by the declaration's entry (``params.fill_entries``).

A pandas result of ``pairwise`` or ``overall`` records, in its ``attrs``, the options
declared ``match`` with the values of the call (the defaults included), so that the gate
(``against_baseline``, ``compare`` of two results) refuses two results made otherwise.
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable
from typing import Any, TypeVar

from ..._schema import MARK
from ..._version import __version__
from .constraints import ANY
from .params import Param, declaration, fill_entries

__all__ = ["declarations", "declared"]

F = TypeVar("F", bound=Callable[..., Any])

#: The attribute of a declared callable that holds its declarations, by parameter name.
ATTRIBUTE = "__kappaframe_params__"


def declarations(func: Callable[..., Any]) -> dict[str, Param]:
    """The declarations of a public callable's parameters, by name (empty if undeclared)."""
    return dict(getattr(func, ATTRIBUTE, {}))


def declared(func: F) -> F:
    """Check each argument of a call against its declaration before the body runs."""
    signature = inspect.signature(func)
    where = func.__qualname__
    params = {
        name: declaration(where, name)
        for name in signature.parameters
        if name not in ("self", "cls")
    }
    checks = tuple(
        (name, param.constraint, signature.parameters[name].default)
        for name, param in params.items()
        if param.constraint is not ANY
    )
    matched = tuple(
        (name, signature.parameters[name].default)
        for name, p in params.items()
        if p.match or p.record
    )
    bind = signature.bind
    record = _record

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            arguments = bind(*args, **kwargs).arguments
        except TypeError:
            return func(*args, **kwargs)  # Python's own message for a call that cannot bind
        for name, rule, default in checks:
            if name in arguments:
                value = arguments[name]
                if value is not default:
                    rule.check(name, value)
        result = func(*args, **kwargs)
        if matched:
            record(result, matched, arguments)
        return result

    # The wrapper lives in the module of the function it wraps (its globals), so that
    # doctest finds the function's examples there; its body reads only its closure.
    wrapper = types.FunctionType(
        call.__code__, func.__globals__, func.__name__, None, call.__closure__
    )
    functools.update_wrapper(wrapper, func)
    # The docstring's placeholders ``%(name)s`` become the declarations' entries.
    wrapper.__doc__ = fill_entries(func.__doc__, params)
    setattr(wrapper, ATTRIBUTE, params)
    return wrapper  # type: ignore[return-value]


#: The kinds of result the gate compares; their records gain the options declared ``match``.
RECORDED_KINDS = ("pairwise", "overall")


def _record(result: Any, matched: tuple[tuple[str, Any], ...], arguments: dict[str, Any]) -> None:
    """Add the call's recorded options to a pandas result's record (what is not there yet).

    The options declared ``match`` (the gate compares them) and those declared ``record``
    (as a written file's provenance keeps them: the interval's level and method, the
    replicates, the seed, the scale, ...), and the kappaframe version, so that the result
    says how it was made (``kappaframe.describe`` writes its methods paragraph from it).
    """
    attrs = getattr(result, "attrs", None)
    mark = attrs.get(MARK) if isinstance(attrs, dict) else None
    if not isinstance(mark, dict) or mark.get("kind") not in RECORDED_KINDS:
        return
    for name, default in matched:
        if name not in mark:
            mark[name] = _json(arguments.get(name, default))
    mark.setdefault("version", __version__)


def _json(value: Any) -> Any:
    """An option's value as a record holds it (JSON: tuples and other sequences are lists)."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    item = getattr(value, "item", None)  # a NumPy scalar
    if callable(item) and getattr(value, "ndim", None) == 0:
        return _json(item())
    return repr(value)
