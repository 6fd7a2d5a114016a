"""How to read the ratings is bound once (``ReadSpec``); internal functions take it whole.

The guard of the binding: no internal function (one that is neither a public callable of
``kappaframe`` nor a public method of ``Counts`` / ``FileScan``) spells out three or more
of the reading options ``item, rater, label, by, categories, duplicates``; they take a
``ReadSpec`` (or, below ``_api``, a ``LongLayout``) instead.
"""

from __future__ import annotations

import ast
import inspect
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest

import kappaframe as kf
from kappaframe._api.settings.reading import ReadSpec, score_column
from kappaframe._encode.layout import LongLayout

PACKAGE = Path(kf.__file__).parent
READING = {"item", "rater", "label", "by", "categories", "duplicates"}


def _code_of(obj: object) -> tuple[str, int] | None:
    func = inspect.unwrap(getattr(obj, "__func__", obj))  # type: ignore[arg-type]
    code = getattr(func, "__code__", None)
    if code is None:
        return None
    return str(Path(code.co_filename).resolve()), code.co_firstlineno


def public_code() -> set[tuple[str, int]]:
    """Where each public callable and public method of ``Counts``/``FileScan`` is defined."""
    found = set()
    for name in kf.__all__:
        where = _code_of(getattr(kf, name))
        if where is not None:
            found.add(where)
    for cls in (kf.Counts, kf.FileScan):
        for name, member in vars(cls).items():
            if not name.startswith("_"):
                where = _code_of(member)
                if where is not None:
                    found.add(where)
    return found


def reading_signatures() -> Iterator[tuple[str, int, str, list[str]]]:
    """Every function of the package naming three or more reading options."""
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                names = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
                if len(names & READING) >= 3:
                    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                    yield str(path.resolve()), first, node.name, sorted(names & READING)


def test_the_scan_sees_the_public_functions() -> None:
    """The public functions keep their keywords: the scan finds them, and knows them."""
    public = public_code()
    seen = {name for path, line, name, _ in reading_signatures() if (path, line) in public}
    assert {"pairwise", "matrix", "counts", "overall", "items", "icc", "heatmap"} <= seen


def test_no_internal_function_takes_the_reading_options_one_by_one() -> None:
    public = public_code()
    spelled = [
        f"{Path(path).relative_to(PACKAGE.parent)}:{line} {name}{names}"
        for path, line, name, names in reading_signatures()
        if (path, line) not in public
    ]
    assert spelled == [], "take a ReadSpec (or a LongLayout) instead:\n" + "\n".join(spelled)


def test_read_spec_checks_the_layout_when_made() -> None:
    assert ReadSpec().layout is None and not ReadSpec().long
    read = ReadSpec(item="i", rater="r", label="l", by="g")
    assert read.layout == LongLayout("i", "r", "l") and read.long
    with pytest.raises(kf.KappaFrameError, match=r"label=.* missing") as err:
        ReadSpec(item="i", rater="r")
    assert err.value.option == "item"
    with pytest.raises(kf.KappaFrameError, match="three different columns"):
        ReadSpec(item="i", rater="i", label="l")
    with pytest.raises(kf.KappaFrameError, match=r"raters=\[\] names no rater"):
        ReadSpec([])
    with pytest.raises(kf.KappaFrameError, match="duplicates"):
        ReadSpec(duplicates="keep")
    with pytest.raises(kf.KappaFrameTypeError, match="categories"):
        ReadSpec(categories="abc")


def test_read_spec_is_frozen_and_checked_again_when_changed() -> None:
    read = ReadSpec(["a", "b"], categories=[1, 2])
    with pytest.raises(AttributeError):
        read.raters = ["c"]  # type: ignore[misc]
    assert read.replace(raters=["c", "d"]).raters == ["c", "d"]
    assert read.raters == ["a", "b"]
    with pytest.raises(kf.KappaFrameError, match="missing"):
        read.replace(item="i")
    # It travels to the workers that read the parts (Dask): it pickles, layout and all.
    long = ReadSpec(item="i", rater="r", label="l")
    again = pickle.loads(pickle.dumps(long))
    assert again == long and again.layout == long.layout


def test_read_spec_of_a_call_and_the_score_column() -> None:
    options = {"raters": None, "item": "i", "rater": "r", "label": "l", "weights": "linear"}
    read = ReadSpec.of(options, raters=["x", "y"])
    assert (read.raters, read.layout) == (["x", "y"], LongLayout("i", "r", "l"))
    assert score_column("v", None) == ("v", "value")
    assert score_column(None, "s") == ("s", "label")
    with pytest.raises(kf.KappaFrameError, match="name the same column") as err:
        score_column("v", "s")
    assert err.value.option == "value"


def test_the_long_layout_is_refused_before_a_damaged_file_is_read(tmp_path: Path) -> None:
    """The binding comes before the source is opened: the option is named, not the file."""
    damaged = tmp_path / "ratings.parquet"
    damaged.write_bytes(b"PAR1 this is not a parquet file")
    for call in (kf.counts, kf.pairwise, kf.matrix, kf.overall, kf.raters, kf.items, kf.icc):
        with pytest.raises(kf.KappaFrameError, match="long layout needs") as err:
            call(str(damaged), item="i", rater="r")
        assert err.value.option == "item", call
