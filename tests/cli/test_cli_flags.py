"""The flags made from the declarations read and say what the hand-written ones did.

Each subcommand's ``--help`` shows every option flag with its declared help (the help
texts moved from the hand-written parser verbatim: ``kappaframe --help`` and each
subcommand's help printed the same before and after), each reader of a flag's text refuses
a bad value in its own words, and a flag gives its option the value and default it gave.
"""

from __future__ import annotations

import argparse

import pytest

from kappaframe import cli
from kappaframe._api.settings.params import declaration, declarations_of
from kappaframe._cli.bind import COMMAND_FUNCTION


@pytest.mark.parametrize("command", list(COMMAND_FUNCTION))
def test_the_help_shows_each_option_flag_with_its_declared_help(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert cli.main([command, "--help"]) == 0
    shown = "".join(capsys.readouterr().out.split())  # lines wrap at spaces and hyphens
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    where = COMMAND_FUNCTION[command]
    options = [
        a.dest
        for a in sub.choices[command]._actions
        if a.dest not in ("format", "output") and any(p.flag for p in declarations_of(a.dest))
    ]
    assert len(options) >= (7 if command == "judge" else 13)  # judge_report has 7 options
    for name in options:
        param = declaration(where, name)
        assert "".join((param.help_for(where) or "").split()) in shown, name
        assert "".join(f"{param.flag} {param.metavar or ''}".split()) in shown, name


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["report", "x.csv", "--ci", "1.5"],
            "--ci: a confidence level is between 0 and 1; got 1.5",
        ),
        (["report", "x.csv", "--ci", "high"], "--ci: not a number: 'high'"),
        (
            ["report", "x.csv", "--fail-under", "inf"],
            "--fail-under: 'inf' would switch the check off; give a finite number, e.g. 0.6",
        ),
        (
            ["report", "x.csv", "--max-drop", "2"],
            "--max-drop: a drop of a coefficient is in [0, 2), e.g. 0.1; got 2",
        ),
        (
            ["report", "x.csv", "--heatmaps", "-1"],
            "--heatmaps: a number of groups is 0 or more; got -1",
        ),
        (["report", "x.csv", "--min-items", "ten"], "--min-items: invalid int value: 'ten'"),
        (["report", "x.csv", "--population", "many"], "--population: invalid float value"),
        (["report", "x.csv", "--ddof", "2"], "--ddof: invalid choice: 2 (choose from 1, 0)"),
        (["report", "x.csv", "--weights", "lineer"], "--weights: invalid choice: 'lineer'"),
        (
            ["report", "x.csv", "--delimiter", ";;"],
            "--delimiter: a separator is one character (or 'tab'); got ';;'",
        ),
        (["items", "x.csv", "--min-p", "1.5"], "--min-p: a share is between 0 and 1; got 1.5"),
        (["items", "x.csv", "--max-iter", "2.5"], "--max-iter: invalid int value: '2.5'"),
        (["items", "x.csv", "--tol", "small"], "--tol: invalid float value: 'small'"),
        (["plan", "--n-raters", "2.5"], "--n-raters: not a whole number: '2.5'"),
        (["plan", "--seed", "x"], "--seed: not a whole number: 'x'"),
        (["plan", "--kappa0", "x"], "--kappa0: not a number: 'x'"),
        (["plan", "--props", "0.5", "half"], "--props: not a number: 'half'"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_a_flags_reader_refuses_a_bad_value_in_its_own_words(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    assert f"error: argument {said}" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "name", "value"),
    [
        (["report", "x.csv", "--ddof", "0"], "ddof", 0),
        (["report", "x.csv", "--min-items", "0"], "min_items", 0),
        (["report", "x.csv", "--population", "500"], "population", 500.0),
        (["report", "x.csv", "--stats", "all"], "stats", ["all"]),
        (["report", "x.csv", "--by", "a", "b"], "by", ["a", "b"]),
        (["report", "x.csv"], "scale", "landis_koch"),
        (["report", "x.csv"], "seed", None),
        (["items", "x.csv", "--no-labels"], "labels", False),
        (["items", "x.csv"], "labels", None),
        (["items", "x.csv", "--disagreements"], "disagreements", True),
        (["items", "x.csv"], "tol", 1e-7),
        (["plan", "--n-raters", "3"], "n_raters", 3),
        (["plan", "--props", "0.3", "0.7"], "props", [0.3, 0.7]),
        (["plan"], "seed", 0),
        (["plan"], "alternative", "greater"),
        (["plan"], "reference", None),
    ],
)
def test_a_flag_gives_its_option_the_value_and_default_it_gave(
    argv: list[str], name: str, value: object
) -> None:
    args = cli.build_parser().parse_args(argv)
    given = getattr(args, name)
    assert given == value and type(given) is type(value)
