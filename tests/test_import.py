"""Import isolation and accessor registration, each checked in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


def run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_import_does_not_import_optional_libraries() -> None:
    out = run("""
        import sys
        import pandas  # pandas itself may import pyarrow; only kappaframe's imports count
        before = set(sys.modules)
        import kappaframe
        added = set(sys.modules) - before
        print(sorted(m for m in ("polars", "dask", "matplotlib", "pyarrow", "scipy",
                                 "sklearn", "IPython") if m in added))
    """)
    assert out == "[]"


def test_import_works_without_polars() -> None:
    out = run("""
        import sys
        sys.modules["polars"] = None  # makes `import polars` fail, as when not installed
        import pandas as pd
        import kappaframe as kf
        df = pd.DataFrame({"a": [1, 2, 1], "b": [1, 2, 2]})
        print(round(df.kappa.score("a", "b"), 4))
    """)
    assert out == "0.4"


def test_polars_imported_later_gets_the_namespace() -> None:
    pytest.importorskip("polars")
    out = run("""
        import kappaframe
        import polars as pl
        frame = pl.DataFrame({"a": [1, 2, 1], "b": [1, 2, 2]})
        print(round(frame.kappa.score("a", "b"), 4), hasattr(pl.LazyFrame, "kappa"))
    """)
    assert out == "0.4 True"


def test_polars_imported_first_gets_the_namespace() -> None:
    pytest.importorskip("polars")
    out = run("""
        import polars as pl
        import kappaframe
        import importlib
        importlib.reload(kappaframe)  # registering again must not warn (-W error)
        print(round(pl.DataFrame({"a": [1, 2, 1], "b": [1, 2, 2]}).kappa.score("a", "b"), 4))
    """)
    assert out == "0.4"


def test_pandas_accessor_registered_once() -> None:
    out = run("""
        import importlib
        import kappaframe
        importlib.reload(kappaframe)
        import pandas as pd
        print(type(pd.DataFrame().kappa).__name__)
    """)
    assert out == "KappaAccessor"
