"""argparse's errors are short and say what was probably meant ("did you mean --raters?")."""

from __future__ import annotations

import pytest

from kappaframe import cli


def said(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The lines a refused command line writes on stderr (after checking it exits 2)."""
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err.splitlines()


def test_a_bad_value_is_three_short_lines(capsys: pytest.CaptureFixture[str]) -> None:
    lines = said(["report", "x.csv", "--weights", "quadratc"], capsys)
    assert lines == [
        "usage: kappaframe report [options] INPUT",
        lines[1],
        "see kappaframe report --help",
    ]
    assert lines[1].startswith(
        "kappaframe report: error: argument --weights: invalid choice: 'quadratc'"
    )
    assert "'quadratic'?" in lines[1]  # did you mean (maybe you meant, on Python 3.14)


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["reprot", "x.csv"], "'report'?"),
        (["items", "x.csv", "--format", "labelstudio"], "'label-studio'?"),
        (["report", "x.csv", "--scale", "landis-koch"], "'landis_koch'?"),
        (["report", "x.csv", "--ci-method", "bootstrapp"], "'bootstrap'?"),
    ],
)
def test_an_invalid_choice_gets_the_closest_choice(
    argv: list[str], meant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = said(argv, capsys)
    assert len(lines) == 3 and "invalid choice" in lines[1] and meant in lines[1]


def test_a_choice_nothing_is_close_to_gets_no_guess(capsys: pytest.CaptureFixture[str]) -> None:
    lines = said(["report", "x.csv", "--weights", "zzz"], capsys)
    assert "invalid choice: 'zzz'" in lines[1] and "mean" not in lines[1]
    lines = said(["report", "x.csv", "--ddof", "2"], capsys)
    assert lines[1].endswith("--ddof: invalid choice: 2 (choose from 1, 0)")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["report", "x.csv", "--ratrs", "a", "b"],
            "unrecognized arguments: --ratrs a b; --ratrs: did you mean --raters?",
        ),
        (
            ["report", "x.csv", "--wieghts=linear"],
            "unrecognized arguments: --wieghts=linear; --wieghts: did you mean --weights?",
        ),
        (
            ["items", "x.csv", "--disagreement", "--min-pp", "0.5"],
            "unrecognized arguments: --min-pp 0.5; --min-pp: did you mean --min-p?",
        ),
    ],
)
def test_a_misspelled_flag_gets_the_closest_flag(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = said(argv, capsys)
    assert lines[1] == f"kappaframe {argv[0]}: error: {message}"
    assert lines[2] == f"see kappaframe {argv[0]} --help"


@pytest.mark.parametrize("command", ["report", "items", "plan"])
def test_rater_for_raters_says_what_rater_took(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = said([command, "x.csv", "--rater", "a", "b"], capsys)
    assert lines[1] == (
        f"kappaframe {command}: error: unrecognized arguments: b; --rater takes one value "
        "(long layout: the rater id column) and took 'a'; did you mean --raters a b?"
    )


def test_an_abbreviation_names_the_flag_it_was_read_as(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = said(["report", "x.csv", "--lab", "x", "y", "--by", "g"], capsys)
    assert lines[1].endswith(
        "unrecognized arguments: y; --lab was read as --label, which takes one value "
        "(long layout: the label column) and took 'x'"
    )
    # A flag that takes no value, given one.
    lines = said(["report", "x.csv", "--raw", "yes"], capsys)
    assert "unrecognized arguments: yes; --raw takes no value" in lines[1]


def test_a_flag_before_the_command_name_says_where_it_goes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = said(["--quiet", "report", "x.csv"], capsys)
    assert lines[1].endswith(
        "unrecognized arguments: --quiet; --quiet: give it after 'kappaframe report'"
    )


def test_an_ambiguous_abbreviation_lists_the_flags(capsys: pytest.CaptureFixture[str]) -> None:
    lines = said(["report", "x.csv", "--rat", "a"], capsys)
    assert "ambiguous option: --rat could match --raters, --rater, --raters-summary" in lines[1]


def test_help_still_shows_the_whole_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["report", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: kappaframe report [-h]") and "--weights" in out
