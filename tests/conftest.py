"""Constructor fixtures: each behaviour is written once and run on every backend.

``constructor`` makes a native frame from a dict; ``way_in`` pushes one pandas frame of
ratings through any way in (``tests/ways.py``: frames, files, scans, engines, the command
line) for the parity suites.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe  # noqa: F401  (registers the accessors)

from . import warehouse
from .ways import WayIn, push


def _pandas(data: dict[str, Any]) -> pd.DataFrame:
    return pd.DataFrame(data)


def _polars(data: dict[str, Any]) -> Any:
    pl = pytest.importorskip("polars")
    return pl.from_pandas(pd.DataFrame(data))


def _polars_lazy(data: dict[str, Any]) -> Any:
    return _polars(data).lazy()


CONSTRUCTORS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "pandas": _pandas,
    "polars": _polars,
    "polars_lazy": _polars_lazy,
}


@pytest.fixture(params=list(CONSTRUCTORS))
def constructor(request: pytest.FixtureRequest) -> Callable[[dict[str, Any]], Any]:
    return CONSTRUCTORS[request.param]


def to_pandas(result: Any) -> pd.DataFrame:
    """Any kappaframe result as a pandas frame (polars results converted, lazy collected)."""
    if isinstance(result, pd.DataFrame):
        return result
    if hasattr(result, "collect"):
        result = result.collect()
    return result.to_pandas()


def native_type_matches(result: Any, frame: Any) -> bool:
    """Input type decides output type: pandas -> pandas, DataFrame -> DataFrame, lazy -> lazy."""
    return type(result) is type(frame)


@pytest.fixture
def way_in(request: pytest.FixtureRequest) -> Callable[..., WayIn]:
    """``way_in(name, frame, raters=..., long=...)``: a pandas frame through a way in.

    :func:`tests.ways.push` bound to the test (its ``tmp_path``, ``capsys`` and the Dask
    and Spark fixtures); parametrize on names from :data:`tests.ways.WAYS_IN`.
    """

    def make(name: str, frame: pd.DataFrame, **spec: Any) -> WayIn:
        return push(name, frame, request, **spec)

    return make


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    """One cheap in-process Dask cluster per module (the ``dask`` ways in)."""
    pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261121)


@pytest.fixture(scope="session")
def spark_session() -> Iterator[Any]:
    """One local PySpark session for the whole run (starting one takes seconds).

    PySpark is not in the test extra (it is large): the Spark tests run where the spark
    extra is installed too, as CI does.
    """
    pytest.importorskip(
        "pyspark", reason='PySpark is not installed: pip install -e ".[spark]" runs these tests'
    )
    pytest.importorskip("narwhals", reason='narwhals is not installed: pip install -e ".[spark]"')
    if shutil.which("java") is None:
        pytest.skip("PySpark needs Java (a JRE on the PATH)")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[1]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .getOrCreate()
    )
    yield session
    session.stop()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """An Ibis connection to a throwaway PostgreSQL server, one for the whole run.

    The server is the system's PostgreSQL, started in a temporary directory on a Unix
    socket (``tests/warehouse.py``) and stopped at the end; skipped, saying why, where
    PostgreSQL, its user or Ibis' PostgreSQL backend is absent.
    """
    ibis = pytest.importorskip(
        "ibis", reason='Ibis is not installed: pip install -e ".[test]" runs these tests'
    )
    pytest.importorskip("narwhals", reason='narwhals is not installed: pip install -e ".[ibis]"')
    pytest.importorskip(
        "psycopg",
        reason="Ibis' PostgreSQL backend needs psycopg and libpq: "
        'pip install "ibis-framework[postgres]" (and the libpq5 package)',
    )
    try:
        backend = ibis.postgres
    except (AttributeError, ImportError) as err:  # the backend's own requirements
        pytest.skip(f"Ibis' PostgreSQL backend cannot be loaded: {err}")
    server = warehouse.start()
    if isinstance(server, str):
        pytest.skip(server)
    try:
        con = backend.connect(
            host=server.socket_dir, port=server.port, user=server.user, database="postgres"
        )
        yield con
        con.disconnect()
    finally:
        warehouse.stop(server)


# ------------------------------------------------------------------------ the quick subset
# `python -m pytest -m "not slow"` is the quick subset a developer runs while working;
# `python -m pytest` is the whole suite, which CI runs. The tests below are marked `slow`
# here, in one place, each with why: they start a browser, a JVM, a Dask cluster, a docs
# build or a fresh interpreter per case. Every feature keeps a fast test in the quick subset
# (named after "quick:" where it is not the obvious neighbour).

#: Node-id prefixes marked slow, and why.
SLOW: dict[str, str] = {
    # The documentation site: mkdocs builds the whole site (quick: the page checks that need
    # no build, and the code of the other user pages).
    "tests/test_docs_site.py::test_the_site_builds_strict_with_every_page": "mkdocs build",
    "tests/test_docs_site.py::test_the_api_reference_renders_the_docstrings": "mkdocs build",
    "tests/test_docs_site.py::test_the_notebooks_show_their_saved_outputs": "mkdocs build",
    "tests/test_docs_site.py::test_the_site_shows_the_readme_section": "mkdocs build",
    "tests/test_docs_site.py::test_the_code_on_the_page_runs_as_shown[nightly-job]": (
        "a dozen command-line runs, each a fresh interpreter"
    ),
    # The notebooks run top to bottom in a kernel (quick: their saved outputs, the display).
    "tests/report/test_notebooks.py::test_notebook_runs_top_to_bottom": "runs whole notebooks",
    # Headless Chromium renders and prints the HTML report (quick: the HTML itself).
    "tests/report/test_report.py::test_html_report_renders_in_headless_chromium": "a browser",
    "tests/report/test_report.py::test_html_report_prints_every_row_in_headless_chromium": (
        "a browser"
    ),
    "tests/report/test_report.py::test_html_report_prints_whole_on_paper": "a browser",
    # PySpark starts a JVM (quick: the same narwhals engine path on DuckDB).
    "tests/api/test_parity.py::test_parity[spark-": "a Spark session",
    "tests/api/test_parity.py::test_parity_grid_windows[spark]": "a Spark session",
    "tests/api/test_parity.py::test_numeric_parity[spark-": "a Spark session",
    "tests/test_extras.py::test_spark_tests_skip_with_a_reason_without_pyspark": (
        "a pytest run in a fresh interpreter"
    ),
    # A local Dask cluster of two worker processes (quick: Dask graphs on the local
    # scheduler, test_dask.py's other tests and the dask cases of test_parity.py).
    "tests/frames/test_dask.py::test_wide_pairwise_and_matrix": "a Dask cluster",
    "tests/frames/test_dask.py::test_long_layout_is_shuffled_by_item": "a Dask cluster",
    "tests/frames/test_dask.py::test_overall_gathers_the_codes": "a Dask cluster",
    "tests/frames/test_dask.py::test_counts_from_partitions": "a Dask cluster",
    "tests/frames/test_dask.py::test_known_categories_on_a_cluster": "a Dask cluster",
    # Heatmaps of 14 and 20 raters in several panels (quick: 14 raters in one panel, 5 in 3).
    "tests/report/test_plot.py::test_heatmap_size_is_capped_and_its_text_readable[14-7]": (
        "draws 7 panels"
    ),
    "tests/report/test_plot.py::test_heatmap_size_is_capped_and_its_text_readable[20-3]": (
        "draws 3 panels of 20 raters"
    ),
    # The command line on files, each case a fresh interpreter or two (quick: the in-process
    # command-line tests of tests/cli/, and the cases of test_cli_files.py left out here).
    "tests/cli/test_cli_files.py::test_german_decimal_commas_are_numbers": "interpreters",
    "tests/cli/test_cli_files.py::test_a_forced_tab_delimiter": "interpreters",
    "tests/cli/test_cli_files.py::test_cp1252_reads_with_encoding": "interpreters",
    "tests/cli/test_cli_files.py::test_stdin_is_sniffed_and_stdout_takes_a_format": "interpreters",
    "tests/cli/test_cli_files.py::test_stdin_as_named_format": "interpreters",
    "tests/cli/test_cli_files.py::test_globs_and_directories_stack_files": "interpreters",
    "tests/cli/test_cli_files.py::test_header_only_file_does_not_pass_the_gate": "interpreters",
    "tests/cli/test_cli_files.py::test_documented_commands_work_on_the_demo_file": "interpreters",
    "tests/cli/test_cli_files.py::test_exclude_names_columns_of_the_file": "interpreters",
    "tests/cli/test_cli_files.py::test_duplicates_name_the_flag_and_the_lines": "interpreters",
    "tests/cli/test_cli_files.py::test_label_outside_categories_offers_drop_labels_and_map": (
        "interpreters"
    ),
    "tests/cli/test_cli_files.py::test_mixed_label_types_name_flags_not_python": "interpreters",
    "tests/cli/test_cli_files.py::test_comma_separated_raters_get_a_hint": "interpreters",
    "tests/cli/test_cli_files.py::test_demo_save_lists_the_suffixes_it_writes": "interpreters",
    "tests/cli/test_cli_files.py::test_parquet_output_keeps_the_ordered_interpretation": (
        "interpreters"
    ),
    "tests/cli/test_cli_files.py::test_overall_and_rater_summary_in_text": "interpreters",
    "tests/cli/test_cli_files.py::test_overall_tables_go_beside_the_output": "interpreters",
    "tests/cli/test_cli_files.py::test_the_gate_on_overall": "interpreters",
    "tests/cli/test_cli_files.py::test_no_progress_when_stderr_is_not_a_terminal": "interpreters",
    "tests/cli/test_cli_files.py::test_stdin_that_cannot_be_sniffed_names_the_flag": (
        "interpreters"
    ),
    "tests/cli/test_cli_files.py::test_stream_reads_compressed_csv_and_json_lines": (
        "interpreters (quick: tests/io/test_stream_formats.py reads the same files in-process)"
    ),
    "tests/cli/test_cli_files.py::test_overall_in_markdown_and_html": "interpreters",
    "tests/cli/test_cli_plan.py::test_the_installed_command_runs": (
        "an interpreter (quick: test_cli.py runs the installed command)"
    ),
    "tests/cli/test_cli_no_provenance.py::test_no_provenance_keeps_none_in_the_html_report": (
        "an HTML report (quick: the same switch on every other format)"
    ),
    # Optional libraries hidden from a fresh interpreter (quick: one case of each, and
    # test_plot.py's missing-matplotlib message).
    "tests/test_extras.py::test_pictures_without_matplotlib": "an interpreter",
    # Namespace registration in a fresh interpreter, each import order (quick: polars
    # imported after kappaframe, and optional libraries left unimported).
    "tests/test_import.py::test_polars_imported_first_gets_the_namespace": "an interpreter",
    "tests/test_import.py::test_pandas_accessor_registered_once": "an interpreter",
}

#: Parametrized tests whose first collected case stays quick and whose other cases are slow:
#: each case costs what the first does (an interpreter, a query, a report, a crowd) and runs
#: the same code on other values.
SLOW_AFTER_FIRST: dict[str, str] = {
    "tests/api/test_id_columns.py::test_the_command_line_refuses_an_id_column": (
        "a whole report each; the other cases run the same rule on every way in"
    ),
    "tests/test_docs.py::test_readme_python_example_prints_what_it_shows": "an interpreter each",
    "tests/test_docs.py::test_readme_command_line_example_prints_what_it_shows": (
        "interpreters each"
    ),
    "tests/test_extras.py::test_files_without_pyarrow": "an interpreter each",
    "tests/test_extras.py::test_command_line_without_pyarrow_says_one_line": "an interpreter each",
    "tests/cli/test_cli_files.py::test_tsv_and_compressed_outputs": "interpreters each",
    "tests/api/test_windows.py::test_duckdb_counts_calendar_windows_in_its_query": (
        "a DuckDB query each"
    ),
    "tests/io/test_file_errors.py::test_a_quoted_line_break_on_a_block_boundary_is_no_new_item": (
        "26 block sizes through every way in, each"
    ),
    "tests/report/test_report.py::test_html_legend_explains_marked_rows": "a report each",
    # Dawid-Skene against crowd-kit: one real crowd in the quick subset (dog), all three here.
    "tests/stats/test_dawid_skene.py::test_the_same_iterations_give_crowdkits_posteriors": (
        "crowd-kit's model fitted to each crowd"
    ),
    "tests/stats/test_dawid_skene.py::"
    "test_defaults_agree_with_crowdkit_and_beat_the_majority_vote_on_gold": (
        "crowd-kit's model fitted to each crowd"
    ),
}

#: Fixtures that make a test slow wherever it is used.
SLOW_FIXTURES: dict[str, str] = {
    "spark_session": "a Spark session starts a JVM",
    "postgres": "a PostgreSQL server starts (quick: the ibis ways of the parity suites)",
}


def slow_reason(nodeid: str, fixtures: Iterable[str], first: bool) -> str | None:
    """Why the test ``nodeid`` is slow (None: it is in the quick subset).

    ``fixtures`` are the fixtures it uses; ``first`` says whether it is the first collected
    case of its test function.
    """
    for prefix, why in SLOW.items():
        if nodeid.startswith(prefix):
            return why
    function = nodeid.split("[", 1)[0]
    if function in SLOW_AFTER_FIRST and not first:
        return SLOW_AFTER_FIRST[function]
    return next((SLOW_FIXTURES[name] for name in fixtures if name in SLOW_FIXTURES), None)


#: Tests that share one costly server, by what their ids or fixtures name: run in parallel
#: (``-n auto``, pytest-xdist's ``--dist loadgroup``), each group stays on one worker, so
#: that one JVM and one PostgreSQL server are started, not one per worker.
SERVER_GROUPS: dict[str, str] = {"spark": "spark", "postgres": "postgres"}


def server_group(nodeid: str, fixtures: Iterable[str]) -> str | None:
    """The server group of a test (``SERVER_GROUPS``), or None."""
    names = [nodeid.lower(), *fixtures]
    return next(
        (group for word, group in SERVER_GROUPS.items() if any(word in n for n in names)),
        None,
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests listed above `slow`; with pytest-xdist, group those of one server."""
    seen: set[str] = set()
    parallel = config.pluginmanager.hasplugin("xdist")
    for item in items:
        function = item.nodeid.split("[", 1)[0]
        first = function not in seen
        seen.add(function)
        fixtures = getattr(item, "fixturenames", ())
        if slow_reason(item.nodeid, fixtures, first) is not None:
            item.add_marker(pytest.mark.slow)
        group = server_group(item.nodeid, fixtures) if parallel else None
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
