"""Every public function, accessor method and command-line flag refuses a bad value clearly.

Each option gets a value of a foreign type and a nonsense value: the answer is a
``KappaFrameError`` (never a raw ``TypeError`` or ``ValueError`` from deep inside) that
names the option or the value, or a result when the value is valid for that option
(scikit-learn's ``test_public_functions`` is the model).
"""

from __future__ import annotations

import argparse
import inspect
import warnings
from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli

TEAM = kf.datasets.labeling_team()
R = ["ana", "ben", "cai"]
SCORES = pd.DataFrame({"ana": [1.0, 2, 3, 4], "ben": [2.0, 2, 3, 5], "cai": [1.0, 3, 2, 4]})
PAIRS = kf.pairwise(TEAM, R, ci=0.95)
#: Set-valued labels (multi-label ratings), for per_label.
SETS = pd.DataFrame({r: [[x] if isinstance(x, str) else None for x in TEAM[r]] for r in R})
#: A result in time windows (what trend_plot draws): one item a day.
WINDOWED = kf.pairwise(
    TEAM.assign(day=pd.Timestamp("2024-03-04") + pd.to_timedelta(TEAM["item"], unit="D")),
    R,
    time="day",
    every="1mo",
)

CALLS: dict[str, Callable[..., Any]] = {
    "pairwise": lambda **o: kf.pairwise(TEAM, R, **o),
    "matrix": lambda **o: kf.matrix(TEAM, R, **o),
    "score": lambda **o: kf.score(TEAM, "ana", "ben", **o),
    "confusion": lambda **o: kf.confusion(TEAM, "ana", "ben", **o),
    "counts": lambda **o: kf.counts(TEAM, R, **o),
    "overall": lambda **o: kf.overall(TEAM, R, **o),
    "raters": lambda **o: kf.raters(TEAM, R, **o),
    "per_category": lambda **o: kf.per_category(TEAM, R, **o),
    "items": lambda **o: kf.items(TEAM, R, **o),
    "rater_confusion": lambda **o: kf.rater_confusion(TEAM, R, **o),
    "cohen_kappa": lambda **o: kf.cohen_kappa(TEAM["ana"], TEAM["ben"], **o),
    "compare": lambda **o: kf.compare(TEAM, ("ana", "gold"), ("ben", "gold"), **o),
    "against_baseline": lambda **o: kf.against_baseline(
        PAIRS, baseline=PAIRS, **{"max_drop": 0.1, **o}
    ),
    "sample_size": lambda **o: kf.sample_size(
        **{"kappa0": 0.4, "kappa1": 0.6, "props": [0.5, 0.5], **o}
    ),
    "icc": lambda **o: kf.icc(SCORES, R, **o),
    "kendall_w": lambda **o: kf.kendall_w(SCORES, R, **o),
    "ccc": lambda **o: kf.ccc(SCORES, R, **o),
    "bland_altman": lambda **o: kf.bland_altman(SCORES, R, **o),
    "bland_altman_plot": lambda **o: _plot(kf.bland_altman_plot, SCORES, R[:2], **o),
    "per_label": lambda **o: kf.per_label(SETS, **o),
    "accessor.pairwise": lambda **o: TEAM.kappa.pairwise(R, **o),
    "accessor.overall": lambda **o: TEAM.kappa.overall(R, **o),
    "accessor.items": lambda **o: TEAM.kappa.items(R, **o),
    "accessor.rater_confusion": lambda **o: TEAM.kappa.rater_confusion(R, **o),
    "accessor.per_label": lambda **o: SETS.kappa.per_label(**o),
    "accessor.icc": lambda **o: SCORES.kappa.icc(R, **o),
    "accessor.kendall_w": lambda **o: SCORES.kappa.kendall_w(R, **o),
    "accessor.ccc": lambda **o: SCORES.kappa.ccc(R, **o),
    "accessor.bland_altman": lambda **o: SCORES.kappa.bland_altman(R, **o),
    "accessor.bland_altman_plot": lambda **o: _plot(SCORES.kappa.bland_altman_plot, R[:2], **o),
    "accessor.compare": lambda **o: TEAM.kappa.compare(("ana", "gold"), ("ben", "gold"), **o),
    "accessor.sample_size": lambda **o: TEAM.kappa.sample_size(R, **{"kappa0": 0.1, **o}),
    "trend_plot": lambda **o: kf.trend_plot(WINDOWED, **o),
}


def _plot(draw: Callable[..., Any], *args: Any, **options: Any) -> Any:
    """Draw on Agg (no window), and close nothing: the figures are not pyplot's."""
    pytest.importorskip("matplotlib").use("Agg")
    return draw(*args, **options)


#: Positional data arguments, given by the calls above.
GIVEN = {"data", "raters", "a", "b", "y1", "y2", "first", "second", "result", "baseline"}

#: Options where a free value is a valid answer, not an error (a label, a name, a seed).
FREE = {
    ("*", "seed"),  # any seed NumPy takes
    ("*", "multi_sep"),  # any non-empty text separates labels
    ("*", "title"),  # any text
}


class Foreign:
    """A value no option takes."""

    def __repr__(self) -> str:
        return "Foreign()"


def cases() -> list[Any]:
    out = []
    for name, call in CALLS.items():
        function = getattr(kf, name.split(".")[-1])
        for p in inspect.signature(function).parameters.values():
            if p.name in GIVEN or p.kind is p.VAR_KEYWORD or ("*", p.name) in FREE:
                continue
            for bad in (Foreign(), "nonsense-value"):
                out.append(pytest.param(call, p.name, bad, id=f"{name}-{p.name}-{bad!r}"))
    return out


@pytest.mark.parametrize(("call", "option", "bad"), cases())
def test_a_bad_value_is_refused_naming_the_option(
    call: Callable[..., Any], option: str, bad: Any
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call(**{option: bad})
        except kf.KappaFrameError as err:
            message = str(err)
            assert option in message or repr(bad) in message, message
            assert err.option in (None, option), (err.option, message)
            return
    pytest.fail(f"{option}={bad!r} was accepted")


def flag_cases() -> list[Any]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = []
    for command, subparser in sub.choices.items():
        for action in subparser._actions:
            if not action.option_strings or action.nargs == 0:
                continue
            if action.type is None and action.choices is None:
                continue  # free text: a column name, a path, a label
            flag = max(action.option_strings, key=len)
            out.append(pytest.param(command, flag, id=f"{command}{flag}"))
    return out


@pytest.mark.parametrize(("command", "flag"), flag_cases())
def test_a_bad_flag_value_exits_2_naming_the_flag(
    command: str, flag: str, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    path = tmp_path / "team.csv"
    TEAM.to_csv(path, index=False)
    argv = [command] + ([str(path), "--raters", *R] if command in ("report", "items") else [])
    try:
        code = cli.main([*argv, flag, "nonsense-value"])
    except SystemExit as exit_info:  # argparse's own exit
        code = exit_info.code
    assert code == 2
    err = capsys.readouterr().err
    assert flag in err, err


def test_accessor_errors_match_the_functions() -> None:
    with pytest.raises(kf.KappaFrameError) as by_function:
        kf.pairwise(TEAM, R, categories=Foreign())
    with pytest.raises(kf.KappaFrameError) as by_accessor:
        TEAM.kappa.pairwise(R, categories=Foreign())
    assert str(by_function.value) == str(by_accessor.value)
    assert by_function.value.option == "categories"
    assert isinstance(by_function.value, TypeError)  # a foreign type is a TypeError too


def test_ax_must_be_one_axes() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2)
    try:
        with pytest.raises(kf.KappaFrameTypeError, match=r"pass one, e\.g\. axes\[0\]") as info:
            kf.heatmap(TEAM, R, ax=axes)
        assert info.value.option == "ax"
        with pytest.raises(kf.KappaFrameTypeError, match="ax must be one matplotlib Axes"):
            kf.confusion_plot(TEAM, "ana", "ben", ax="left")
        assert kf.heatmap(TEAM, R, ax=axes[0]) is fig
    finally:
        plt.close(fig)


def test_an_engine_list_column_is_named_as_the_caller_wrote_it() -> None:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    con = duckdb.connect()
    try:
        con.execute("CREATE TABLE t AS SELECT * FROM (VALUES ([1, 2], [1]), ([2], [2])) v(a, b)")
        with pytest.raises(kf.KappaFrameTypeError, match=r"column 'a' holds List"):
            kf.pairwise(con.sql("SELECT * FROM t"))
    finally:
        con.close()


def test_a_misspelled_csv_option_names_the_option_and_the_spelling(tmp_path: Any) -> None:
    path = tmp_path / "team.csv"
    TEAM.to_csv(path, index=False)
    bad = {"convert": {"null_value": ["NA"]}}
    with pytest.raises(kf.KappaFrameError, match=r"did you mean 'null_values'") as info:
        kf.pairwise(kf.scan(str(path), csv_options=bad), R)
    assert info.value.option == "csv_options"
    assert "'equals'" not in str(info.value)  # methods are not options
