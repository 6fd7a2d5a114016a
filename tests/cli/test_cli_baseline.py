"""``kappaframe report NEW --baseline OLD --max-drop D``: the gate that knows noise from change.

Every test runs the real command line (``kappaframe.cli.main``) on real files: a baseline
written by ``kappaframe report --ci ... --output``, then this run against it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

import kappaframe as kf
from kappaframe import cli

RATERS = ["ana", "ben"]
#: Per group: (items, share of items ben copies from ana) in the baseline and now.
#: steady: many items, same agreement (ok); fell: many items, agreement falls far
#: (dropped); few: 30 items, a small fall that 30 items cannot tell (inconclusive).
PLAN = {
    "steady": ((3000, 0.8), (3000, 0.8)),
    "fell": ((3000, 0.8), (3000, 0.3)),
    "few": ((30, 0.8), (30, 0.7)),
}


def ratings(groups: dict[str, tuple[int, float]], seed: int) -> pd.DataFrame:
    """Two raters of four labels: ben copies ana on a share of the items, else guesses."""
    rng = np.random.default_rng(seed)
    parts = []
    for name, (n, share) in groups.items():
        ana = rng.integers(0, 4, n)
        ben = np.where(rng.random(n) < share, ana, rng.integers(0, 4, n))
        labels = np.array(["bad", "poor", "ok", "good"])
        parts.append(pd.DataFrame({"project": name, "ana": labels[ana], "ben": labels[ben]}))
    return pd.concat(parts, ignore_index=True)


def write(frame: pd.DataFrame, path: Path) -> Path:
    frame.to_csv(path, index=False)
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


REPORT = ["--raters", *RATERS, "--by", "project", "--ci", "0.95"]


@pytest.fixture
def baseline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Last week's table, written by the command line with --ci."""
    old = write(ratings({g: plan[0] for g, plan in PLAN.items()}, seed=1), tmp_path / "old.csv")
    out = tmp_path / "old.parquet"
    code, _, err = run(["report", old, *REPORT, "--output", out], capsys)
    assert code == 0, err
    return out


def now_csv(tmp_path: Path, groups: list[str], seed: int = 2) -> Path:
    return write(ratings({g: PLAN[g][1] for g in groups}, seed), tmp_path / "new.csv")


def gate(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    new: Path,
    old: Path,
    *extra: Any,
    max_drop: float = 0.1,
) -> tuple[int, pd.DataFrame, str]:
    out = tmp_path / "now.csv"
    argv = ["report", new, *REPORT, "--baseline", old, "--max-drop", max_drop, "-o", out]
    code, _, err = run([*argv, *extra], capsys)
    table = pd.read_csv(out, keep_default_na=False, na_values=[""]) if out.exists() else None
    return code, table, err


def states(table: pd.DataFrame) -> dict[str, str]:
    return dict(zip(table["project"], table["state"], strict=True))


# ----------------------------------------------------------------- the three states


def test_each_state_and_its_numbers(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = now_csv(tmp_path, list(PLAN))
    code, table, err = gate(tmp_path, capsys, new, baseline)
    assert states(table) == {"steady": "ok", "fell": "dropped", "few": "inconclusive"}
    assert code == 1  # a drop is a failure, whatever else
    assert "1 of 3 rows dropped by more than 0.1" in err
    # The numbers, computed here from the two tables alone.
    old = pd.read_parquet(baseline).set_index("project")
    z = norm.ppf(0.975)
    for row in table.itertuples():
        before = old.loc[row.project]
        assert row.baseline == pytest.approx(before["kappa"], abs=1e-12)
        assert row.change == pytest.approx(row.kappa - before["kappa"], abs=1e-12)
        se = math.hypot(row.se, before["se"])
        assert row.change_low == pytest.approx(row.change - z * se, abs=1e-9)
        assert row.change_high == pytest.approx(row.change + z * se, abs=1e-9)
    # The states follow from the intervals and the bar of -0.1.
    by = table.set_index("project")
    assert by.loc["fell", "change_high"] < -0.1
    assert by.loc["steady", "change_low"] >= -0.1
    assert by.loc["few", "change_low"] < -0.1 <= by.loc["few", "change_high"]


@pytest.mark.parametrize(
    ("groups", "expected"),
    [
        (["steady"], 0),
        (["steady", "few"], 3),
        (["few"], 3),
        (["fell"], 1),
        (["steady", "few", "fell"], 1),
    ],
)
def test_exit_code_tells_a_drop_from_a_run_that_cannot_tell(
    tmp_path: Path,
    baseline: Path,
    capsys: pytest.CaptureFixture[str],
    groups: list[str],
    expected: int,
) -> None:
    new = now_csv(tmp_path, groups)
    # The baseline's other groups are reported as missing; they do not change the code.
    code, table, err = gate(tmp_path, capsys, new, baseline)
    assert code == expected, err
    kept = table[table["state"] != "missing"]
    assert sorted(kept["project"]) == sorted(groups)
    if expected == 3:
        assert "cannot tell a drop larger than 0.1 from noise" in err
        assert "few" in err


def test_the_verdict_is_said_with_quiet(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = now_csv(tmp_path, ["steady", "few"])
    code, _, err = gate(tmp_path, capsys, new, baseline, "--quiet")
    assert code == 3
    assert "cannot tell" in err and "missing" not in err  # notes are quiet, verdicts are not


def test_a_larger_max_drop_turns_inconclusive_into_ok(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = now_csv(tmp_path, ["steady", "few"])
    code, table, _ = gate(tmp_path, capsys, new, baseline, max_drop=1.5)
    assert code == 0
    assert set(table.loc[table["state"] != "missing", "state"]) == {"ok"}


# ----------------------------------------------------------------- with --fail-under


@pytest.mark.parametrize(
    ("groups", "bar", "expected"),
    [
        (["steady"], 0.5, 0),  # above the bar, no drop
        (["steady"], 0.9, 1),  # below the bar: 1 whatever the baseline says
        (["few"], 0.1, 3),  # above the bar, but cannot tell
        (["few"], 0.9, 1),  # below the bar wins over cannot tell
        (["fell"], 0.0, 1),  # a drop fails even above the bar
    ],
)
def test_fail_under_and_baseline_combine(
    tmp_path: Path,
    baseline: Path,
    capsys: pytest.CaptureFixture[str],
    groups: list[str],
    bar: float,
    expected: int,
) -> None:
    new = now_csv(tmp_path, groups)
    code, _, err = gate(tmp_path, capsys, new, baseline, "--fail-under", bar)
    assert code == expected, err
    # The baseline's groups missing from this run are not "undefined" rows of the bar.
    assert "no kappa (undefined)" not in err


# ----------------------------------------------------------------- unmatched rows


def test_rows_in_one_table_only_are_reported_not_dropped(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = ratings({"steady": PLAN["steady"][1], "extra": (3000, 0.8)}, seed=3)
    frame["cai"] = frame["ana"]  # a new rater: new pairs
    new = write(frame, tmp_path / "new.csv")
    out = tmp_path / "now.parquet"
    argv = ["report", new, "--raters", "ana", "ben", "cai", "--by", "project", "--ci", "0.95"]
    code, _, err = run([*argv, "--baseline", baseline, "--max-drop", "0.1", "-o", out], capsys)
    table = pd.read_parquet(out)
    got = {(r.project, r.rater_a, r.rater_b): r.state for r in table.itertuples()}
    assert got[("steady", "ana", "ben")] == "ok"
    assert got[("steady", "ana", "cai")] == "new"
    assert got[("extra", "ana", "ben")] == "new"
    assert got[("fell", "ana", "ben")] == "missing"
    assert got[("few", "ana", "ben")] == "missing"
    assert len(table) == 3 * 2 + 2  # this run's six pairs, then the two missing ones
    missing = table[table["state"] == "missing"]
    old = pd.read_parquet(baseline).set_index("project")
    assert missing["baseline"].tolist() == old.loc[["fell", "few"], "kappa"].tolist()
    assert missing["kappa"].isna().all() and missing["n"].isna().all()
    assert code == 0  # the one matched row is ok; the others are notes
    assert "5 rows not in the baseline (new)" in err
    assert "2 rows in the baseline only" in err


def test_a_baseline_that_shares_no_row_is_refused(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = write(ratings({"other": (100, 0.8)}, seed=4), tmp_path / "new.csv")
    code, table, err = gate(tmp_path, capsys, new, baseline)
    assert code == 2 and table is None
    assert "shares no row" in err and "other" in err and "steady" in err


def test_the_output_is_the_next_baseline(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A compared table (with its missing rows) serves as the next night's baseline."""
    first = now_csv(tmp_path, ["steady"])
    middle = tmp_path / "middle.parquet"
    argv = ["report", first, *REPORT, "--baseline", baseline, "--max-drop", "0.1"]
    code, _, _ = run([*argv, "-o", middle], capsys)
    assert code == 0
    assert set(pd.read_parquet(middle)["state"]) == {"ok", "missing"}
    again = now_csv(tmp_path, list(PLAN), seed=5)
    code, table, err = gate(tmp_path, capsys, again, middle)
    # Rows the middle run lacked are not its rows: fell and few are new against it.
    assert states(table) == {"steady": "ok", "fell": "new", "few": "new"}
    assert code == 0, err


# ----------------------------------------------------------------- bad baselines


def test_a_baseline_without_se_is_refused_saying_ci(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = now_csv(tmp_path, ["steady"], seed=6)
    plain = tmp_path / "plain.csv"
    code, _, _ = run(["report", old, "--raters", *RATERS, "--by", "project", "-o", plain], capsys)
    assert code == 0
    new = now_csv(tmp_path, ["steady"])
    code, table, err = gate(tmp_path, capsys, new, plain)
    assert code == 2 and table is None
    assert "no se column" in err and "--ci 0.95" in err


@pytest.mark.parametrize(
    ("then", "now", "named"),
    [
        ([], ["--weights", "linear", "--categories", "bad", "poor", "ok", "good"], "--weights"),
        (["--categories", "bad", "poor", "ok", "good"], [], "--categories"),
        ([], ["--map", "poor=bad"], "--map"),
        ([], ["--drop-labels", "ok"], "--drop-labels"),
    ],
)
def test_a_baseline_made_with_other_settings_is_refused_naming_them(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    then: list[str],
    now: list[str],
    named: str,
) -> None:
    old = write(ratings({"steady": (200, 0.8)}, seed=7), tmp_path / "old.csv")
    for suffix in ("parquet", "csv"):  # the record in Parquet metadata, or in the sidecar
        base = tmp_path / f"base.{suffix}"
        code, _, err = run(["report", old, *REPORT, *then, "-o", base], capsys)
        assert code == 0, err
        code, table, err = gate(tmp_path, capsys, old, base, *now)
        assert code == 2 and table is None
        assert "was made with other settings" in err and named in err


def test_a_baseline_grouped_otherwise_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = write(ratings({"steady": (200, 0.8)}, seed=7), tmp_path / "old.csv")
    base = tmp_path / "base.parquet"
    code, _, _ = run(["report", old, "--raters", *RATERS, "--ci", "0.95", "-o", base], capsys)
    assert code == 0
    code, _, err = gate(tmp_path, capsys, old, base)
    assert code == 2 and "--by: none then, project now" in err


def test_a_table_without_a_record_is_compared_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table written in Python has no provenance: compared, with a note saying so."""
    frame = ratings({"steady": PLAN["steady"][0]}, seed=1)
    base = tmp_path / "python.csv"
    kf.pairwise(frame, RATERS, by="project", ci=0.95).to_csv(base, index=False)
    code, table, err = gate(tmp_path, capsys, now_csv(tmp_path, ["steady"]), base)
    assert code == 0 and states(table) == {"steady": "ok"}
    assert "has no provenance record" in err


def test_a_sidecar_of_another_file_is_not_believed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = write(ratings({"steady": PLAN["steady"][0]}, seed=1), tmp_path / "old.csv")
    base = tmp_path / "base.csv"
    # Another --population: refused, if the sidecar were believed.
    code, _, _ = run(["report", old, *REPORT, "--population", "1e9", "-o", base], capsys)
    assert code == 0
    code, _, err = gate(tmp_path, capsys, now_csv(tmp_path, ["steady"]), base)
    assert code == 2 and "--population" in err
    # The table is edited after the run: its sidecar no longer describes it.
    base.write_text(base.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    new = now_csv(tmp_path, ["steady"])
    code, table, err = gate(tmp_path, capsys, new, base)
    assert "does not describe base.csv" in err
    assert code == 0 and states(table) == {"steady": "ok"}


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--max-drop", "0.1"], "add --baseline"),
        (["--baseline", "old.parquet"], "needs --max-drop"),
        (["--baseline", "-", "--max-drop", "0.1"], "is a file"),
    ],
)
def test_flags_without_their_partners(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], said: str
) -> None:
    new = now_csv(tmp_path, ["steady"])
    code, _, err = run(["report", new, *REPORT, *flags], capsys)
    assert code == 2 and said in err


def test_baseline_needs_ci(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = now_csv(tmp_path, ["steady"])
    argv = ["report", new, "--raters", *RATERS, "--by", "project", "--baseline", baseline]
    code, _, err = run([*argv, "--max-drop", "0.1"], capsys)
    assert code == 2 and "add --ci 0.95" in err


@pytest.mark.parametrize("value", ["-0.1", "2", "nan"])
def test_max_drop_out_of_range(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    new = now_csv(tmp_path, ["steady"])
    code, _, err = run(
        ["report", new, *REPORT, "--baseline", baseline, "--max-drop", value], capsys
    )
    assert code == 2 and "--max-drop" in err


# ----------------------------------------------------------------- order and names


def test_state_depends_on_neither_row_order_nor_group_names(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = now_csv(tmp_path, list(PLAN))
    _, plain, _ = gate(tmp_path, capsys, new, baseline)
    expected = {row.project: row for row in plain.itertuples()}

    # The same ratings, rows shuffled, groups renamed so that they sort the other way
    # round; the baseline's rows shuffled and renamed alike.
    names = {"steady": "zz-1", "fell": "aa-2", "few": "mm-3"}
    rng = np.random.default_rng(8)
    shuffled = pd.read_csv(new).sample(frac=1.0, random_state=9)
    shuffled["project"] = shuffled["project"].map(names)
    new2 = write(shuffled, tmp_path / "new2.csv")
    old = pd.read_parquet(baseline)
    old = old.iloc[rng.permutation(len(old))]
    old["project"] = old["project"].map(names)
    old2 = tmp_path / "old2.parquet"
    old.to_parquet(old2)
    code, moved, _ = gate(tmp_path, capsys, new2, old2)
    assert code == 1
    back = {v: k for k, v in names.items()}
    for row in moved.itertuples():
        same = expected[back[row.project]]
        assert row.state == same.state
        assert row.change == pytest.approx(same.change, abs=1e-12)
        assert row.change_low == pytest.approx(same.change_low, abs=1e-12)


# ----------------------------------------------------------------- formats and tables


@pytest.mark.parametrize("suffix", ["csv", "tsv", "json", "jsonl", "parquet", "csv.gz"])
def test_every_table_format_serves_as_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    old = write(ratings({g: plan[0] for g, plan in PLAN.items()}, seed=1), tmp_path / "old.csv")
    base = tmp_path / f"base.{suffix}"
    code, _, err = run(["report", old, *REPORT, "-o", base], capsys)
    assert code == 0, err
    code, table, err = gate(tmp_path, capsys, now_csv(tmp_path, list(PLAN)), base)
    assert code == 1, err
    assert states(table) == {"steady": "ok", "fell": "dropped", "few": "inconclusive"}
    assert "no provenance" not in err


def test_stored_counts_as_baseline(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Counts kept with kf.counts are finalised with this run's options: the same states."""
    frame = ratings({g: plan[0] for g, plan in PLAN.items()}, seed=1)
    cells = tmp_path / "counts.parquet"
    kf.counts(frame, RATERS, by="project").to_frame().to_parquet(cells)
    new = now_csv(tmp_path, list(PLAN))
    _, from_table, _ = gate(tmp_path, capsys, new, baseline)
    code, from_counts, err = gate(tmp_path, capsys, new, cells)
    assert code == 1, err
    pd.testing.assert_frame_equal(from_counts, from_table)
    # Counts carry no weights: they are weighted as this run is.
    code, weighted, _ = gate(
        tmp_path,
        capsys,
        new,
        cells,
        "--weights",
        "linear",
        "--categories",
        "bad",
        "poor",
        "ok",
        "good",
    )
    expected = kf.pairwise(
        frame,
        RATERS,
        by="project",
        weights="linear",
        ci=0.95,
        categories=["bad", "poor", "ok", "good"],
    )
    assert weighted["baseline"].tolist() == pytest.approx(expected["kappa"].tolist(), abs=1e-12)


def test_the_overall_table_as_baseline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = write(ratings({g: plan[0] for g, plan in PLAN.items()}, seed=1), tmp_path / "old.csv")
    out = tmp_path / "old.parquet"
    overall = ["--overall", "fleiss", "krippendorff"]
    code, _, err = run(["report", old, *REPORT, *overall, "-o", out], capsys)
    assert code == 0, err
    base = tmp_path / "old.overall.parquet"
    new = now_csv(tmp_path, list(PLAN))
    now = tmp_path / "now.parquet"
    argv = ["report", new, *REPORT, *overall, "--baseline", base, "--max-drop", "0.1"]
    code, _, err = run([*argv, "-o", now], capsys)
    assert code == 1, err
    table = pd.read_parquet(tmp_path / "now.overall.parquet")
    got = {(r.project, r.method): r.state for r in table.itertuples()}
    assert got[("fell", "fleiss")] == "dropped" and got[("fell", "krippendorff")] == "dropped"
    assert got[("steady", "fleiss")] == "ok" and got[("few", "fleiss")] == "inconclusive"
    assert "state" not in pd.read_parquet(now).columns  # the pairs are not compared
    # Without --overall, the overall table cannot be compared.
    code, _, err = run(["report", new, *REPORT, "--baseline", base, "--max-drop", "0.1"], capsys)
    assert code == 2 and "add --overall" in err


def test_a_pairs_baseline_against_overall_rows_is_refused(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overall = tmp_path / "o.csv"
    kf.overall(ratings({"steady": (100, 0.8)}, 1), RATERS, by="project", ci=0.95).to_csv(
        overall, index=False
    )
    frame = kf.pairwise(ratings({"steady": (100, 0.8)}, 2), RATERS, by="project", ci=0.95)
    with pytest.raises(kf.KappaFrameError, match="overall values keyed by project, method"):
        kf.against_baseline(frame, baseline=pd.read_csv(overall), max_drop=0.1)


# ----------------------------------------------------------------- the report


@pytest.mark.parametrize("fmt", ["html", "markdown"])
def test_the_report_shows_the_baseline_and_the_state(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    new = now_csv(tmp_path, list(PLAN))
    out = tmp_path / f"report.{'html' if fmt == 'html' else 'md'}"
    argv = ["report", new, *REPORT, "--baseline", baseline, "--max-drop", "0.1"]
    code, _, _ = run([*argv, "-o", out], capsys)
    assert code == 1
    text = out.read_text(encoding="utf-8")
    assert "old.parquet: 1 ok, 1 inconclusive, 1 dropped" in text
    assert "state against the baseline" in text
    for column in ("baseline", "change_low", "change_high", "state"):
        assert column in text.replace("_<wbr>", "_")
    if fmt == "html":
        assert '<td class="text" style="font-weight: bold; color: #b2182b">dropped</td>' in text
        assert '<td class="text" style="font-style: italic">inconclusive</td>' in text
        record = text.split('<pre style="white-space: pre-wrap">', 1)[1].split("</pre>")[0]
        assert json.loads(record.replace("&quot;", '"'))["options"]["max_drop"] == 0.1


def test_rows_that_cannot_tell_are_a_note_when_a_row_dropped(
    tmp_path: Path, baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = now_csv(tmp_path, ["fell", "few"])
    code, _, err = gate(tmp_path, capsys, new, baseline)
    assert code == 1
    assert "kappaframe: note: 1 of 2 rows cannot tell" in err
    code, _, err = gate(tmp_path, capsys, new, baseline, "--quiet")
    assert code == 1 and "dropped by more than 0.1" in err and "cannot tell" not in err


def test_nothing_compared_is_not_a_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every matched row undefined (one label only): the gate cannot tell, exit 3."""
    one_label = pd.DataFrame({"project": "steady", "ana": ["ok"] * 50, "ben": ["ok"] * 50})
    base = tmp_path / "base.csv"
    with pytest.warns(kf.UndefinedKappaWarning):
        kf.pairwise(one_label, RATERS, by="project", ci=0.95).to_csv(base, index=False)
    code, table, err = gate(tmp_path, capsys, now_csv(tmp_path, ["steady"]), base)
    assert states(table) == {"steady": "undefined"}
    assert code == 3 and "no row could be compared" in err


def test_a_rater_with_one_category_is_undefined_not_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """20 items on which ana used one label: kappa 0, no se; listed and counted, no failure."""
    base = ratings({"steady": PLAN["steady"][0], "twenty": (20, 0.9)}, seed=1)
    old = tmp_path / "old_twenty.csv"
    code, _, err = run(["report", write(base, tmp_path / "b.csv"), *REPORT, "-o", old], capsys)
    assert code == 0, err
    now = ratings({"steady": PLAN["steady"][1], "twenty": (20, 0.9)}, seed=2)
    now.loc[now["project"] == "twenty", "ana"] = "ok"
    code, table, err = gate(tmp_path, capsys, write(now, tmp_path / "now_in.csv"), old)
    assert states(table) == {"steady": "ok", "twenty": "undefined"}
    twenty = table.set_index("project").loc["twenty"]
    assert twenty["kappa"] == 0 and math.isnan(twenty["se"]) and math.isnan(twenty["change"])
    assert code == 0
    assert (
        "note: 1 row without a value or standard error on one side (undefined: no item rated "
        "by both, or a rater who used one category only); it does not count for the gate"
    ) in err
    assert "is undefined (NaN) for 1 of 2 pair x group cells: where a rater used one" in err


@pytest.mark.parametrize("suffix", ["csv", "parquet", "json"])
def test_ids_that_look_like_numbers_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    """Raters named "101" (wide: column names) and projects numbered 7 match in every format."""
    frame = ratings({"7": (300, 0.8), "8": (300, 0.8)}, seed=10)
    frame = frame.rename(columns={"ana": "101", "ben": "102"})
    old = write(frame, tmp_path / "old.csv")
    base = tmp_path / f"base.{suffix}"
    flags = ["--raters", "101", "102", "--by", "project", "--ci", "0.95"]
    code, _, err = run(["report", old, *flags, "-o", base], capsys)
    assert code == 0, err
    out = tmp_path / "out.parquet"
    argv = ["report", old, *flags, "--baseline", base, "--max-drop", "0.2", "-o", out]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    table = pd.read_parquet(out)
    assert table["project"].tolist() == [7, 8]
    assert table["rater_a"].tolist() == ["101", "101"]
    assert table["state"].tolist() == ["ok", "ok"]
    # JSON is read back to within a unit in the last place (pandas' read_json).
    assert table["change"].tolist() == pytest.approx([0, 0], abs=1e-15)


def test_stored_counts_keep_the_runs_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = ratings({"steady": PLAN["steady"][0]}, seed=1).assign(cai=lambda f: f["ana"])
    cells = tmp_path / "counts.csv"
    kf.counts(frame, ["ana", "ben", "cai"], by="project").to_frame().to_csv(cells, index=False)
    new = write(frame, tmp_path / "new.csv")
    out = tmp_path / "out.csv"
    argv = ["report", new, "--raters", "ana", "ben", "cai", "--reference", "cai", *REPORT[3:]]
    code, _, err = run([*argv, "--baseline", cells, "--max-drop", "0.1", "-o", out], capsys)
    assert code == 0, err
    table = pd.read_csv(out)
    assert list(zip(table["rater_a"], table["rater_b"], strict=True)) == [
        ("ana", "cai"),
        ("ben", "cai"),
    ]
    assert table["state"].tolist() == ["ok", "ok"]


def test_dates_as_groups_match_from_a_csv_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = ratings({"2025-01-01": (300, 0.8), "2025-01-02": (300, 0.8)}, seed=11)
    frame["project"] = pd.to_datetime(frame["project"])
    old = tmp_path / "old.parquet"
    frame.to_parquet(old)
    base = tmp_path / "base.csv"
    code, _, err = run(["report", old, *REPORT, "-o", base], capsys)
    assert code == 0, err
    out = tmp_path / "out.parquet"
    argv = ["report", old, *REPORT, "--baseline", base, "--max-drop", "0.2", "-o", out]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    table = pd.read_parquet(out)
    assert table["state"].tolist() == ["ok", "ok"]
    assert str(table["project"].iloc[0].date()) == "2025-01-01"
