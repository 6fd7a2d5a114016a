"""PARAMS, the one declaration of each public option, against everything that spells it.

Every parameter of every public callable has exactly one declaration; its default, its
documented choices and its command-line flag equal the declaration's; and every value a
declaration refuses is refused by every callable that takes the option, naming it, before
any source is read (scikit-learn's ``test_public_functions`` is the model).
"""

from __future__ import annotations

import argparse
import inspect
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import polars
import pytest

import kappaframe as kf
from kappaframe._api.settings.bind import declarations
from kappaframe._api.settings.constraints import Flag, OneOf
from kappaframe._api.settings.params import (
    PARAMS,
    PLACEHOLDER,
    REQUIRED,
    Param,
    declaration,
    declarations_of,
    fill_entries,
    render_entry,
)
from kappaframe._cli.bind import COMMAND_FUNCTION
from kappaframe._cli.parser import build_parser
from kappaframe._expressions import KappaExpr


def public_callables() -> Iterator[tuple[str, Callable[..., Any]]]:
    """Every public function, and every public method of the public classes."""
    for name in kf.__all__:
        value = getattr(kf, name)
        if inspect.isfunction(value):
            yield name, value
        elif isinstance(value, type) and name in ("Counts", "FileScan"):
            for member, func in vars(value).items():
                if member.startswith("_"):
                    continue
                if isinstance(func, (classmethod, staticmethod)):
                    func = func.__func__
                if inspect.isfunction(func):
                    yield f"{name}.{member}", func
    # The namespace of polars expressions (``pl.col("a").kappa.cohen(...)``).
    for member, func in vars(KappaExpr).items():
        if not member.startswith("_") and inspect.isfunction(func):
            yield f"KappaExpr.{member}", func


CALLABLES = dict(public_callables())
PARAMETERS = [
    (where, name)
    for where, func in CALLABLES.items()
    for name in inspect.signature(func).parameters
    if name not in ("self", "cls")
]
#: Public callables whose checks run in their own body, not at binding: they are not
#: wrapped (the reason beside each), though their parameters are declared.
#: Public functions of ``_io``, a layer below the declarations: bound where they are
#: exported (``kappaframe/__init__.py``); their docstrings spell the declared entries, and
#: the test of documented entries checks each against its declaration.
BELOW_THE_DECLARATIONS = {"scan", "provenance", "read_annotations"}
UNWRAPPED = {
    "Counts.from_prepared": "takes a Prepared, made inside kappaframe; called once per part",
    "Counts.to_frame": "takes no options",
    "FileScan.batches": "lives below the public functions (_io)",
}


def test_there_are_many_public_callables() -> None:
    assert len(CALLABLES) >= 35
    assert len(PARAMETERS) >= 340


@pytest.mark.parametrize(("where", "name"), PARAMETERS, ids=[f"{w}-{n}" for w, n in PARAMETERS])
def test_every_parameter_has_exactly_one_declaration(where: str, name: str) -> None:
    param = declaration(where, name)
    default = inspect.signature(CALLABLES[where]).parameters[name].default
    if default is inspect.Parameter.empty:
        assert param.default is REQUIRED
    elif isinstance(default, float) and math.isnan(default):
        assert math.isnan(param.default)
    else:
        assert param.default == default and type(param.default) is type(default)


def test_every_declaration_serves_a_callable() -> None:
    used = {id(declaration(where, name)) for where, name in PARAMETERS}
    unused = [(p.name, p.where) for p in PARAMS if id(p) not in used]
    assert unused == []


def test_a_name_has_at_most_one_general_declaration() -> None:
    general = [p.name for p in PARAMS if p.where is None]
    assert sorted(general) == sorted(set(general))


@pytest.mark.parametrize(("where", "name"), PARAMETERS, ids=[f"{w}-{n}" for w, n in PARAMETERS])
def test_a_default_passes_its_own_declaration(where: str, name: str) -> None:
    param = declaration(where, name)
    if param.default is not REQUIRED:
        param.constraint.check(name, param.default)


def _doc_entry(doc: str, name: str) -> str | None:
    """The type line of ``name``'s entry in a numpydoc Parameters section."""
    for line in inspect.cleandoc(doc).splitlines():
        grouped = line and not line.startswith(" ") and " : " not in line and "," in line
        if grouped and name in [n.strip() for n in line.split(",")]:
            return line
        if line.startswith(" ") or " : " not in line:
            continue
        names = [n.strip() for n in line.split(" : ")[0].split(",")]
        if name in names:
            return line
    return None


@pytest.mark.parametrize(("where", "name"), PARAMETERS, ids=[f"{w}-{n}" for w, n in PARAMETERS])
def test_the_documented_choices_are_the_declared_ones(where: str, name: str) -> None:
    doc = CALLABLES[where].__doc__ or ""
    if where.startswith(("Counts.", "FileScan.")) and "Parameters" not in doc:
        pytest.skip(f"{where} documents its parameters on its class")
    entry = _doc_entry(doc, name)
    same = re.search(r"Parameters are those of ``kappaframe\.(\w+)``", doc)
    if entry is None and same is not None:
        entry = _doc_entry(getattr(kf, same.group(1)).__doc__ or "", name)
    if name in ("self", "cls") or (entry is None and name == "data" and "data" not in doc):
        return
    assert entry is not None, f"{where} does not document {name}"
    choices = declaration(where, name).choices
    braces = re.search(r" : \{([^}]*)\}", entry)
    if braces is None or not choices:
        return
    documented = [c.strip().strip('"') for c in braces.group(1).split(",")]
    documented = [c for c in documented if c != "None"]
    if isinstance(declaration(where, name).constraint, OneOf):
        assert documented == [str(c) for c in choices]
    else:  # a name among other kinds of value (weights: also a matrix): those documented
        assert set(documented) <= {str(c) for c in choices}


# ----------------------------------------------------------- one docstring entry each


def _entries(doc: str) -> dict[str, str]:
    """A numpydoc Parameters section's entries by name: ``name : type`` and its lines."""
    found: dict[str, str] = {}
    match = re.search(r"^Parameters\n-+\n(.*?)(?=^\S[^\n]*\n-{3,}\n|\Z)", doc, re.M | re.S)
    if match is None:
        return found
    current: list[str] = []
    for line in match.group(1).rstrip("\n").split("\n"):
        if line and not line.startswith(" "):
            current = [line]
            for name in line.split(" : ")[0].split(","):
                found[name.strip()] = current  # grouped names share one entry
        elif current:
            current.append(line)
    return {name: "\n".join(lines).rstrip() for name, lines in found.items()}


def _documented_as(where: str) -> tuple[str, str] | None:
    """Where ``where``'s parameters are documented: its own docstring, or another's."""
    doc = inspect.getdoc(CALLABLES[where]) or ""
    same = re.search(r"Parameters are those of ``kappaframe\.(\w+)``", doc)
    if "Parameters\n---" in doc:
        return where, doc
    if same is not None:
        return same.group(1), inspect.getdoc(getattr(kf, same.group(1))) or ""
    return None  # documented on its class, in prose


def test_every_declaration_has_a_numpydoc_entry() -> None:
    for param in PARAMS:
        type_line, *description = param.entry.split("\n")
        assert type_line and not type_line.startswith(" "), param
        assert description, f"{param.name} ({param.where}) has no description"
        assert all(line.startswith("    ") and line.strip() for line in description), param


@pytest.mark.parametrize(("where", "name"), PARAMETERS, ids=[f"{w}-{n}" for w, n in PARAMETERS])
def test_the_documented_entry_is_the_declared_one(where: str, name: str) -> None:
    documented = _documented_as(where)
    if documented is None:
        pytest.skip(f"{where} documents its parameters on its class")
    owner, doc = documented
    assert PLACEHOLDER.search(doc) is None, f"{owner} has an unfilled placeholder"
    entry = _entries(doc).get(name)
    assert entry is not None, f"{owner} does not document {name}"
    assert entry == render_entry(declaration(where, name))


def test_every_wrapped_callable_takes_its_entries_from_the_declarations() -> None:
    for where, func in CALLABLES.items():
        if where in UNWRAPPED or where in BELOW_THE_DECLARATIONS or "." in where:
            continue
        source = inspect.unwrap(func).__doc__ or ""
        names = [n for n in inspect.signature(func).parameters if n not in ("self", "cls")]
        every = "%(parameters)s" in source
        assert every or all(f"%({n})s" in source for n in names), where


def test_one_placeholder_stands_for_every_parameter_in_the_signatures_order() -> None:
    doc = "Summary.\n\n    Parameters\n    ----------\n    %(parameters)s\n\n    Returns\n"
    params = {n: declaration("items", n) for n in ("ties", "by")}
    filled = fill_entries(doc, params) or ""
    assert filled.index("    ties : ") < filled.index("    by : ") < filled.index("Returns")
    rendered = inspect.getdoc(kf.items) or ""
    names = [n for n in inspect.signature(kf.items).parameters]
    places = [rendered.index(f"\n{n} : ") for n in names]
    assert places == sorted(places)


def test_a_placeholder_takes_its_indentation_and_an_unknown_one_is_refused() -> None:
    doc = "Summary.\n\n    Parameters\n    ----------\n    %(ties)s\n    %(by)s\n"
    filled = fill_entries(doc, lambda name: declaration("items", name)) or ""
    ties = declaration("items", "ties")
    assert "\n".join("    " + line for line in render_entry(ties).split("\n")) in filled
    assert inspect.cleandoc(filled).count(" : ") == 2
    with pytest.raises(LookupError, match="no_such_option"):
        fill_entries("    %(no_such_option)s", lambda name: declaration("items", name))
    with pytest.raises(KeyError):
        fill_entries("    %(ties)s", {})
    # Text that only looks like a placeholder is left alone: ``95%(ci)s`` mid-line.
    assert fill_entries("a 95%(ci)s level", {}) == "a 95%(ci)s level"


def test_the_accessor_shows_the_declared_entries() -> None:
    from kappaframe._accessor import KappaAccessor

    doc = inspect.getdoc(KappaAccessor.pairwise) or ""
    for name in ("weights", "duplicates", "ci"):
        assert render_entry(declaration("pairwise", name)) in doc
    assert PLACEHOLDER.search(doc) is None


def _flags() -> dict[str, list[tuple[str, argparse.Action]]]:
    """Each flag's actions by destination, with the subcommand that has it."""
    parser = build_parser()
    found: dict[str, list[tuple[str, argparse.Action]]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                for a in sub._actions:
                    if any(s.startswith("--") for s in a.option_strings):
                        found.setdefault(a.dest, []).append((command, a))
    return found


FLAGS = _flags()
FLAGGED = [p for p in PARAMS if p.flag is not None]


@pytest.mark.parametrize("param", FLAGGED, ids=[f"{p.name}{p.where or ''}" for p in FLAGGED])
def test_a_declared_flag_is_the_command_lines_flag(param: Param) -> None:
    actions = FLAGS.get(param.name, [])
    assert actions, f"the command line has no flag for {param.name}"
    for command, action in actions:
        assert param.flag in action.option_strings
        if action.choices is None:
            continue
        offered = list(action.choices)
        declared = [list(p.choices) for p in PARAMS if p.name == param.name and p.choices]
        if command == "demo":  # the demo simulates with a few of the choices
            assert any(set(offered) <= set(d) for d in declared), offered
        else:  # one of the declarations of this name (a subcommand's meaning) has them
            assert offered in declared, f"{param.flag} offers {offered}"


#: Flags of the command line's own (where the output goes, its format): not options of a
#: Python function, though a function has a parameter of the same name.
OWN_FLAGS = {"format", "output"}


def test_every_option_flag_of_the_command_line_is_declared() -> None:
    names = {p.name for p in PARAMS} - OWN_FLAGS
    undeclared = sorted(
        dest
        for dest in FLAGS
        if dest in names and not any(p.flag for p in PARAMS if p.name == dest)
    )
    # The flags the command line has for options of the plan and items commands that
    # feed their own subcommand (they are declared where a callable takes them).
    assert undeclared == []


SUBCOMMANDS = next(
    a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
).choices
#: Each subcommand's flags that set an option of the function it calls, with that function.
OPTION_FLAGS = [
    (command, where, action)
    for command, where in COMMAND_FUNCTION.items()
    for action in SUBCOMMANDS[command]._actions
    if action.dest not in OWN_FLAGS and any(p.flag for p in declarations_of(action.dest))
]


def test_the_subcommands_have_option_flags() -> None:
    assert {c for c, _, _ in OPTION_FLAGS} == {"report", "items", "plan", "judge"}
    assert len(OPTION_FLAGS) >= 70


@pytest.mark.parametrize(
    ("command", "where", "action"),
    OPTION_FLAGS,
    ids=[f"{c}-{a.dest}" for c, _, a in OPTION_FLAGS],
)
def test_an_option_flag_is_made_from_its_declaration(
    command: str, where: str, action: argparse.Action
) -> None:
    param = declaration(where, action.dest)
    assert action.option_strings[0] == param.flag
    assert action.help == param.help_for(where) and action.help
    assert action.default == (None if param.default is REQUIRED else param.default)
    assert action.choices == (list(param.choices) if param.choices else None)
    if isinstance(param.constraint, Flag):
        assert action.nargs == 0
    else:
        assert action.metavar == param.metavar


@pytest.mark.parametrize("command", list(COMMAND_FUNCTION))
def test_every_flagged_option_of_a_subcommands_function_has_its_flag(command: str) -> None:
    func = CALLABLES[COMMAND_FUNCTION[command]]
    flagged = {n for n, p in declarations(func).items() if p.flag is not None}
    offered = {a.dest for c, _, a in OPTION_FLAGS if c == command}
    assert flagged <= offered


def test_a_flag_has_help_and_a_subcommands_wording_names_its_function() -> None:
    assert [p.name for p in FLAGGED if not p.help] == []
    served = set(COMMAND_FUNCTION.values())
    assert {c for p in PARAMS for c, _ in p.help_in} <= served
    assert all(p.flag for p in PARAMS if p.help or p.help_in or p.metavar or p.cli_type)


def test_a_declared_reader_is_one_the_command_line_has() -> None:
    from kappaframe._cli.flags import READERS

    named = {p.cli_type for p in PARAMS if p.cli_type is not None}
    assert named <= set(READERS)


def test_an_option_without_a_flag_gets_none() -> None:
    from kappaframe._cli.flags import add_option

    parser = argparse.ArgumentParser()
    with pytest.raises(LookupError, match=r"heatmap\(stat=\.\.\.\) is declared without"):
        add_option(parser, "stat", "heatmap")


# ----------------------------------------------------------- refusals before any read


@pytest.fixture(scope="module")
def corrupt(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A source that cannot be read at all: an option's error must come first."""
    path = tmp_path_factory.mktemp("corrupt") / "ratings.csv.xz"
    path.write_bytes(b"\xfd7zXZ\x00 this is not xz data")
    return str(path)


def _counts() -> kf.Counts:
    team = kf.datasets.labeling_team()
    return kf.counts(team, ["ana", "ben", "cai"])


#: The arguments each callable needs besides the option under test (``data`` is the
#: corrupt source where the callable reads one).
def _needed(where: str, source: str) -> tuple[Callable[..., Any], dict[str, Any]]:
    func = CALLABLES[where]
    if where.startswith("Counts."):
        counts = _counts()
        method = getattr(counts, where.split(".")[1], None)
        if where == "Counts.from_frame":
            return kf.Counts.from_frame, {"cells": source}
        if where == "Counts.from_table":
            return kf.Counts.from_table, {"table": source}
        return method, {"raters": ["ana", "ben"]} if where == "Counts.with_raters" else {}
    if where.startswith("KappaExpr."):  # an expression is built before any data
        method = getattr(polars.col("ana").kappa, where.split(".")[1])
        return method, {"other": "ben"} if where == "KappaExpr.cohen" else {}
    needed: dict[str, Any] = {}
    for name, p in inspect.signature(func).parameters.items():
        if p.default is not inspect.Parameter.empty:
            continue
        needed[name] = {
            "data": source,
            "a": "ana",
            "b": "ben",
            "y1": [1, 2],
            "y2": [1, 2],
            "first": ("ana", "ben"),
            "result": source,
            "baseline": source,
            "max_drop": 0.1,
            "coeff": 0.5,
            "se": 0.1,
            "y_true": "gold",
            "path": source,
            "source": source,
            "scores": "score",
            "judge": "ana",
            "gold": "ben",
            "question": "q",
            "second": "ba",
        }[name]
    if "data" in inspect.signature(func).parameters and "data" not in needed:
        needed["data"] = source
    return func, needed


def _call(func: Callable[..., Any], arguments: dict[str, Any]) -> Any:
    """Call with positional-only arguments by position, the others by name."""
    params = inspect.signature(func).parameters
    positional = [
        arguments.pop(n)
        for n, p in list(params.items())
        if p.kind is inspect.Parameter.POSITIONAL_ONLY and n in arguments
    ]
    return func(*positional, **arguments)


REFUSALS = [
    (where, name, bad)
    for where, name in PARAMETERS
    if where not in UNWRAPPED
    for bad in declaration(where, name).constraint.invalid()
]


@pytest.mark.parametrize(
    ("where", "name", "bad"),
    REFUSALS,
    ids=[f"{w}-{n}-{type(b).__name__}{i}" for i, (w, n, b) in enumerate(REFUSALS)],
)
def test_an_invalid_value_is_refused_naming_its_option_before_any_read(
    where: str, name: str, bad: Any, corrupt: str
) -> None:
    func, needed = _needed(where, corrupt)
    with pytest.raises(kf.KappaFrameError) as refused:
        _call(func, {**needed, name: bad})
    assert refused.value.option == name, str(refused.value)
    assert name in str(refused.value) or repr(bad) in str(refused.value)


@pytest.mark.parametrize("where", [w for w in CALLABLES if w not in UNWRAPPED])
def test_every_public_callable_is_bound_to_its_declarations(where: str) -> None:
    params = declarations(CALLABLES[where])
    assert list(params) == [
        n for n in inspect.signature(CALLABLES[where]).parameters if n not in ("self", "cls")
    ]


@pytest.mark.parametrize(
    ("call", "option"),
    [
        (lambda s: kf.pairwise(s, categories=3), "categories"),
        (lambda s: kf.pairwise(s, reference=["c"]), "reference"),
        (lambda s: kf.pairwise(s, item=["i"], rater="r", label="l"), "item"),
        (lambda s: kf.cohen_kappa([1, 2], [1, 2], labels=3), "labels"),
        (lambda s: kf.cohen_kappa([1, 2], [1, 2], sample_weight="w"), "sample_weight"),
        (lambda s: kf.Counts.from_frame(s, raters=5), "raters"),
        (lambda s: kf.heatmap(s, ax=np.array([1, 2])), "ax"),
        (lambda s: kf.overall(s, categories=["a"], by={"g": 1}), "by"),
        (lambda s: kf.scan(s, csv_options="delimiter=;"), "csv_options"),
    ],
    ids=[
        "categories",
        "reference",
        "item",
        "labels",
        "sample_weight",
        "from_frame",
        "ax",
        "by",
        "csv_options",
    ],
)
def test_wrong_types_named_in_the_issue_are_refused(
    call: Callable[[str], Any], option: str, corrupt: str
) -> None:
    with pytest.raises(kf.KappaFrameError) as refused:
        call(corrupt)
    assert refused.value.option == option


def test_the_command_line_names_the_flag_for_a_declared_refusal(
    corrupt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from kappaframe import cli

    code = cli.main(["report", corrupt, "--raters", "a", "b", "--ci", "0.95", "--population", "0"])
    assert code == 2
    err = capsys.readouterr().err
    assert "--population" in err and "xz" not in err.lower()


def test_binding_costs_no_more_than_the_call_it_guards(tmp_path: Path) -> None:
    # Not a timing: the wrapper binds once per call, and internal per-part calls go to
    # unwrapped callables (Counts.from_prepared), so no part is bound again.
    assert "Counts.from_prepared" in UNWRAPPED
    assert not hasattr(kf.Counts.from_prepared, "__kappaframe_params__")


def test_the_gate_compares_every_option_declared_to_match() -> None:
    from kappaframe._cli.baseline import SAME_SETTINGS

    must = {p.name: p.flag for p in PARAMS if p.match and p.flag}
    assert all(p.record for p in PARAMS if p.match)  # what the gate compares is recorded
    assert must.items() <= SAME_SETTINGS.items()


# ----------------------------------------------------------- what results record


def _long_with_a_second_rating() -> Any:
    import pandas as pd

    team = kf.datasets.labeling_team()
    long = team.melt(id_vars=["item"], value_vars=["ana", "ben", "cai"], var_name="r")
    extra = long.iloc[:5].assign(value=long["value"].iloc[5:10].to_numpy())
    return pd.concat([long, extra], ignore_index=True)


def test_a_result_records_every_option_declared_to_match() -> None:
    team = kf.datasets.labeling_team()
    res = kf.pairwise(team, ["ana", "ben"], ci=0.95, population=5000)
    record = res.attrs["kappaframe"]
    for p in PARAMS:
        if p.match and p.name in inspect.signature(kf.pairwise).parameters:
            assert p.name in record, p.name
    assert record["population"] == 5000 and record["duplicates"] == "raise"


@pytest.mark.parametrize("gate", ["against_baseline", "compare"])
def test_results_made_otherwise_are_refused_naming_each_difference(gate: str) -> None:
    ratings = _long_with_a_second_rating()
    long = {"item": "item", "rater": "r", "label": "value", "ci": 0.95}
    first = kf.pairwise(ratings, duplicates="first", **long)
    last = kf.pairwise(ratings, duplicates="last", population=10_000, **long)
    with pytest.raises(kf.KappaFrameError) as refused:
        if gate == "compare":
            kf.compare(first, last)
        else:
            kf.against_baseline(last, baseline=first, max_drop=0.1)
    message = str(refused.value)
    assert refused.value.option == "duplicates"
    assert "'first'" in message and "'last'" in message
    assert "population" in message and "10000" in message


def test_overall_at_another_level_is_not_compared() -> None:
    team = kf.datasets.labeling_team()
    grades = team.assign(**{r: team[r].cat.codes for r in ["ana", "ben", "cai"]})
    nominal = kf.overall(grades, ["ana", "ben", "cai"], method="krippendorff", ci=0.95)
    ordinal = kf.overall(
        grades, ["ana", "ben", "cai"], method="krippendorff", level="ordinal", ci=0.95
    )
    with pytest.raises(kf.KappaFrameError, match="level") as refused:
        kf.against_baseline(ordinal, baseline=nominal, max_drop=0.1)
    assert refused.value.option == "level"


def _literal_values(annotation: Any) -> set[Any] | None:
    """The values of the Literals in an annotation (None when it names none)."""
    import typing

    if typing.get_origin(annotation) is typing.Literal:
        return set(typing.get_args(annotation))
    found: set[Any] | None = None
    for arg in typing.get_args(annotation):
        values = _literal_values(arg)
        if values is not None:
            found = (found or set()) | values
    return found


@pytest.mark.parametrize(("where", "name"), PARAMETERS, ids=[f"{w}-{n}" for w, n in PARAMETERS])
def test_an_annotated_choice_list_is_the_declared_one(where: str, name: str) -> None:
    import typing

    func = inspect.unwrap(CALLABLES[where])
    # Names imported for type checkers only stand for any type here.
    checkers_only = {n: Any for n in ("ArrayLike", "Axes", "Figure", "Prepared", "FileScan")}
    import pandas as pd

    import kappaframe._types as types

    local = {**vars(types), **checkers_only, "Counts": kf.Counts, "pd": pd, "np": np}
    hints = typing.get_type_hints(func, localns=local)
    param = declaration(where, name)
    values = _literal_values(hints.get(name))
    if isinstance(param.constraint, OneOf) and all(isinstance(c, str) for c in param.choices):
        assert values == set(param.choices), f"{where}({name}: {hints.get(name)})"
    elif values is not None and param.choices:
        assert values <= set(param.choices)
