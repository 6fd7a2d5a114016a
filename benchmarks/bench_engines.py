"""Benchmark: engines as inputs: a DuckDB relation and a Spark frame against pandas.

A DuckDB relation is counted in this process from its Arrow record batches (DuckDB runs
here); a Spark frame is counted in its engine (a GROUP BY per pair pushed down; its data
is in a JVM or on a cluster). See ``kappaframe/_frames/arrow_batches.py``.

One run measures, side by side:

1. Speed, on W1-small (``bench_w1.make_frame``: 200,000 items x 20 raters (190 pairs) x
   5 categories x 100 groups, float labels with 10% missing), best of ``--repeat``:
   ``kf.pairwise(data, raters, by="group")`` on the pandas frame, on the same data as a
   DuckDB table (streamed: ratio DuckDB / pandas, target <= 1.5), and on that table with
   the count pushed down into DuckDB (the way every DuckDB relation was counted before;
   timed once). With pyspark installed, the same call on a local Spark session (2 cores,
   ``spark.sql.shuffle.partitions`` 4, as Spark's tuning guide suggests for a few cores;
   its default of 200 is slower still) and its ratio to pandas (timed once, after a
   warm-up call; about seven minutes a call on 2 cores: the pushed-down count is one query
   of 210 aggregations); ``--no-spark`` skips it, and without pyspark the line says it was
   skipped. All results must agree to 1e-12. Then, on ten times the items, 2, 3 and 4
   raters: the same call on pandas, DuckDB streamed and pushed down (up to 3 pairs are
   pushed down by the rule, 6 streamed).
2. Memory, on two DuckDB database files written here of ``--small`` and ``--rows`` rows
   (an ``item`` id as text, a ``group`` of 100 values, 8 raters of labels 1..5 with 10%
   NULL as TINYINT; about 10 bytes a row on disk): in a fresh process each, the peak
   resident set size (``VmHWM``, Linux, counted from after the imports) and the time of
   ``kf.pairwise(relation, raters, by="group")`` streamed, pushed down, and on the
   needed columns brought into pandas first (``.df()``). The streamed peak stays flat as
   the file grows; the pandas one grows with it. The three give the same numbers on the
   larger file.

Run from the repository root::

    python benchmarks/bench_engines.py                       # about four minutes
    python benchmarks/bench_engines.py --rows 500000000      # a file of about 5 GB
    python benchmarks/bench_engines.py --no-memory           # the speed part only
    python benchmarks/bench_engines.py --no-memory --no-spark  # DuckDB and pandas only
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
for path in (str(REPO), str(HERE)):
    if path not in sys.path:
        sys.path.insert(0, path)

from bench_w1 import make_frame, rater_names  # noqa: E402

import kappaframe as kf  # noqa: E402
from kappaframe._frames import arrow_batches  # noqa: E402

MB = 1024**2
TARGET = 1.5
RATERS = [f"r{i}" for i in range(8)]


# ------------------------------------------------------------------------------ speed


def best(call: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The best time of ``repeat`` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return min(times), result


def pushed_down(call: Callable[[], Any]) -> Any:
    """Run ``call`` with DuckDB counted in its engine (as Spark is)."""
    saved = arrow_batches.IN_PROCESS
    arrow_batches.IN_PROCESS = ()
    try:
        return call()
    finally:
        arrow_batches.IN_PROCESS = saved


def agree(got: pd.DataFrame, want: pd.DataFrame, what: str) -> None:
    assert list(got["n"]) == list(want["n"]), what
    np.testing.assert_allclose(
        got["kappa"].to_numpy(float), want["kappa"].to_numpy(float), rtol=1e-12, err_msg=what
    )


def spark_ratio(df: pd.DataFrame, raters: list[str], pandas_seconds: float, want: Any) -> str:
    """Spark's time on a local session and its ratio to pandas; or why it was skipped."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        return "skipped: pyspark not installed"
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("bench_engines")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        spark.conf.set("spark.sql.shuffle.partitions", "4")
        spark.conf.set("spark.sql.execution.arrow.pyspark.enabled", "true")
        sdf = spark.createDataFrame(df).cache()
        sdf.count()
        kf.pairwise(sdf, raters, by="group")  # warm-up: the JVM compiles the plan
        start = time.perf_counter()
        got = kf.pairwise(sdf, raters, by="group")
        seconds = time.perf_counter() - start
        agree(got, want, "spark")
        return f"{seconds:6.2f} s   spark / pandas: {seconds / pandas_seconds:.1f}x (pushed down)"
    finally:
        spark.stop()


def speed(args: argparse.Namespace) -> None:
    df = make_frame(args.items, args.raters, 5, args.groups, 0.10, args.seed)
    raters = rater_names(args.raters)
    con = duckdb.connect()
    con.register("source", df)
    con.execute("CREATE TABLE w1 AS SELECT * FROM source")
    con.unregister("source")
    rel = con.table("w1")
    pairs = args.raters * (args.raters - 1) // 2
    print(
        f"W1-small: {args.items:,} items x {args.raters} raters ({pairs} pairs) x 5 "
        f"categories x {args.groups} groups, 10% missing; best of {args.repeat}"
    )
    kf.pairwise(df.head(1000), raters, by="group")  # imports and first calls out of the timing
    kf.pairwise(con.sql("SELECT * FROM w1 LIMIT 1000"), raters, by="group")
    pandas_s = duck_s = float("inf")
    want = got = None
    for _ in range(args.repeat):  # turns within a round
        t, want = best(lambda: kf.pairwise(df, raters, by="group"), 1)
        pandas_s = min(pandas_s, t)
        t, got = best(lambda: kf.pairwise(rel, raters, by="group"), 1)
        duck_s = min(duck_s, t)
    push_s, pushed = best(lambda: pushed_down(lambda: kf.pairwise(rel, raters, by="group")), 1)
    agree(got, want, "duckdb streamed")
    agree(pushed, want, "duckdb pushed down")
    ratio = duck_s / pandas_s
    print(f"  pandas frame                   {pandas_s:6.2f} s")
    print(
        f"  DuckDB table, streamed         {duck_s:6.2f} s   duckdb / pandas: {ratio:.2f}x "
        f"(target <= {TARGET}: {'ok' if ratio <= TARGET else 'MISSED'})"
    )
    print(
        f"  DuckDB table, pushed down      {push_s:6.2f} s   pushed down / pandas: "
        f"{push_s / pandas_s:.1f}x (before: every DuckDB relation)"
    )
    spark = "skipped: --no-spark" if args.no_spark else spark_ratio(df, raters, pandas_s, want)
    print(f"  Spark, local[2]                {spark}")
    print("  check: streamed, pushed down (and Spark, when run) equal pandas (n; kappa to 1e-12)")
    con.close()
    few_raters(args)


def streamed(call: Callable[[], Any]) -> Any:
    """Run ``call`` with DuckDB streamed whatever the number of raters."""
    saved = arrow_batches.PUSHED_TABLES
    arrow_batches.PUSHED_TABLES = 0
    try:
        return call()
    finally:
        arrow_batches.PUSHED_TABLES = saved


def few_raters(args: argparse.Namespace) -> None:
    """The rule's threshold: up to 3 tables (pairs) pushed down, more streamed."""
    items = 10 * args.items
    print(f"Few raters: {items:,} items x 5 categories x {args.groups} groups, 10% missing")
    for n_raters in (2, 3, 4):
        print(f"  {n_raters} raters: {few(n_raters, items, args)}")


def few(n_raters: int, items: int, args: argparse.Namespace) -> str:
    """pandas, DuckDB streamed and pushed down on ``n_raters`` raters (best of turns)."""
    df = make_frame(items, n_raters, 5, args.groups, 0.10, args.seed)
    raters = rater_names(n_raters)
    con = duckdb.connect()
    con.register("source", df)
    con.execute("CREATE TABLE few AS SELECT * FROM source")
    con.unregister("source")
    rel = con.table("few")
    ways = {
        "pandas": lambda: kf.pairwise(df, raters, by="group"),
        "streamed": lambda: streamed(lambda: kf.pairwise(rel, raters, by="group")),
        "pushed": lambda: pushed_down(lambda: kf.pairwise(rel, raters, by="group")),
    }
    times = dict.fromkeys(ways, float("inf"))
    results = {}
    for _ in range(args.repeat):
        for name, call in ways.items():
            t, results[name] = best(call, 1)
            times[name] = min(times[name], t)
    for name in ("streamed", "pushed"):
        agree(results[name], results["pandas"], f"{n_raters} raters {name}")
    con.close()
    pairs = n_raters * (n_raters - 1) // 2
    taken = "pushed down" if pairs <= arrow_batches.PUSHED_TABLES else "streamed"
    return (
        f"pandas {times['pandas']:.3f} s, DuckDB streamed {times['streamed']:.3f} s, "
        f"pushed down {times['pushed']:.3f} s (the rule takes: {taken})"
    )


# ----------------------------------------------------------------------------- memory

CHILD = r"""
import json, sys, time, tracemalloc, warnings
sys.path.insert(0, {repo!r})
warnings.simplefilter("ignore")
import duckdb, numpy as np, pandas as pd, pyarrow
import kappaframe as kf
from kappaframe._frames import arrow_batches

def rss(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024

path, how = {path!r}, {how!r}
con = duckdb.connect(path, read_only=True)
if {limit!r}:
    con.execute("SET memory_limit = '{limit}'")
rel = con.table("ratings")
if how == "pushdown":
    arrow_batches.IN_PROCESS = ()
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")  # count the peak from here: after the imports
before = rss("VmRSS")
tracemalloc.start()
start = time.perf_counter()
raters = [c for c in rel.columns if c not in ("item", "group")]
if how == "pandas":
    res = kf.pairwise(con.sql("SELECT * EXCLUDE (item) FROM ratings").df(), raters, by="group")
else:
    res = kf.pairwise(rel, raters, by="group")
seconds = time.perf_counter() - start
python_peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
held = con.execute("SELECT sum(memory_usage_bytes) FROM duckdb_memory()").fetchone()[0]
kappa = np.asarray(res["kappa"], dtype=float)
print(json.dumps({{"before": before, "peak": rss("VmHWM"), "seconds": seconds,
                  "python": python_peak, "duckdb": int(held or 0),
                  "rows": len(res), "n": np.asarray(res["n"]).tolist(),
                  "kappa": np.where(np.isnan(kappa), None, kappa).tolist()}}))
"""

HOWS = {
    "stream": 'kf.pairwise(relation, raters, by="group")  (Arrow batches)',
    "pushdown": "the same, the count pushed down to DuckDB",
    "pandas": "the same on the columns' .df()  (all in memory)",
}


def write_database(path: Path, rows: int) -> float:
    """A DuckDB file of ``rows`` rows: ``item`` (text), ``group``, 8 raters (1..5, 10% NULL)."""
    start = time.perf_counter()
    skill = np.linspace(0.5, 0.9, len(RATERS))
    labels = ",\n".join(
        f"CASE WHEN random() < 0.1 THEN NULL WHEN random() < {p:.3f} THEN truth "
        f"ELSE 1 + floor(random() * 5) END::TINYINT AS {name}"
        for name, p in zip(RATERS, skill, strict=True)
    )
    with duckdb.connect(str(path)) as con:
        con.execute("SELECT setseed(0.5)")
        con.execute(
            f"CREATE TABLE ratings AS SELECT 'item-' || i AS item, (i % 100)::SMALLINT AS "
            f'"group", {labels} FROM (SELECT i, (1 + floor(random() * 5))::TINYINT AS truth '
            f"FROM range({rows}) t(i))"
        )
        con.execute("CHECKPOINT")
    return time.perf_counter() - start


def measure(path: Path, how: str, limit: str = "") -> dict[str, Any]:
    """Run one call in a fresh process; its peak memory, time and result (or its error).

    ``limit``: DuckDB's ``memory_limit`` in that process (its buffer pool, which keeps the
    blocks it read, up to 80% of the memory by default), e.g. ``"1GB"``; "" keeps DuckDB's.
    """
    code = CHILD.format(repo=str(REPO), path=str(path), how=how, limit=limit)
    out = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, env=os.environ
    )
    if out.returncode != 0:
        lines = out.stderr.strip().splitlines() or [f"exit {out.returncode}"]
        return {"error": lines[-1]}
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def available_bytes() -> int | None:
    """What the machine has available (``MemAvailable``, Linux), or None where unknown."""
    try:
        with open("/proc/meminfo") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _measured(path: Path, how: str, rows: int, limit: str = "") -> dict[str, Any]:
    """``measure``, except ``.df()`` of a file whose float columns would not fit in half
    the memory available: that way is skipped, saying what it would need."""
    need = rows * (len(RATERS) + 1) * 8  # the labels and the group as float64 columns
    have = available_bytes()
    if how == "pandas" and have is not None and need > have // 2:
        return {
            "error": f"skipped: .df() of {rows:,} rows needs about {need / 1024**3:.0f} GB, "
            f"and {have / 1024**3:.0f} GB are available"
        }
    return measure(path, how, limit)


def memory(args: argparse.Namespace) -> None:
    folder = args.dir or Path(tempfile.mkdtemp(prefix="kappaframe-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    sizes = [args.small, args.rows]
    files = {}
    for rows in sizes:
        path = folder / f"ratings_{rows}.duckdb"
        if path.exists():
            path.unlink()
        seconds = write_database(path, rows)
        files[rows] = path
        print(
            f"wrote {path.name}: {rows:,} rows x {len(RATERS)} raters + item + group, "
            f"{path.stat().st_size / MB:,.0f} MB on disk, in {seconds:.1f} s"
        )
    print(
        "peak RSS (VmHWM) of a fresh process after its imports; extra = peak - RSS before; "
        "py = peak of Python and NumPy allocations (tracemalloc); duckdb = what DuckDB holds "
        "after the call (duckdb_memory(): its buffer pool, which keeps the blocks it read):"
    )
    hows = {how: label for how, label in HOWS.items() if how in args.ways}
    if args.memory_limit:
        print(f"DuckDB's memory_limit set to {args.memory_limit} in each process")
    results = {
        (how, rows): _measured(files[rows], how, rows, args.memory_limit)
        for how in hows
        for rows in sizes
    }
    head = "".join(f"{f'{rows:,} rows':>46}" for rows in sizes)
    print(f"{'':52}{head}{'growth':>9}")
    for how, label in hows.items():
        failed = next((results[how, r] for r in sizes if "error" in results[how, r]), None)
        if failed is not None:
            print(
                f"{label:52}{'' if failed['error'].startswith('skipped') else 'fails: '}"
                f"{failed['error'][:120]}"
            )
            continue
        cells, peaks = "", []
        for rows in sizes:
            r = results[how, rows]
            peaks.append(r["peak"] / MB)
            extra = (r["peak"] - r["before"]) / MB
            cells += (
                f"{r['peak'] / MB:7.0f} MB (+{extra:4.0f}; py {r['python'] / MB:4.0f}, "
                f"duckdb {r['duckdb'] / MB:4.0f}) {r['seconds']:5.1f} s"
            )
        print(f"{label:52}{cells}{peaks[1] / peaks[0]:8.2f}x")
    big = [results[how, sizes[1]] for how in hows if "error" not in results[how, sizes[1]]]
    for other in big[1:]:
        assert other["rows"] == big[0]["rows"] and other["n"] == big[0]["n"]
        a = np.array(other["kappa"], dtype=float)
        b = np.array(big[0]["kappa"], dtype=float)
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    print(
        f"check: the {len(big)} give the same {big[0]['rows']:,} rows (n equal, kappa to "
        f"1e-12) on the {sizes[1]:,}-row file"
    )
    if not args.keep:
        for path in files.values():
            path.unlink()
        if args.dir is None:
            folder.rmdir()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=200_000)
    parser.add_argument("--raters", type=int, default=20)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=9, help="best of N (DuckDB and pandas)")
    parser.add_argument("--rows", type=int, default=16_000_000, help="rows of the larger file")
    parser.add_argument("--small", type=int, default=4_000_000, help="rows of the smaller file")
    parser.add_argument("--dir", type=Path, default=None, help="where to write the files")
    parser.add_argument("--keep", action="store_true", help="keep the DuckDB files")
    parser.add_argument(
        "--ways", nargs="+", choices=list(HOWS), default=list(HOWS), help="the ways to measure"
    )
    parser.add_argument(
        "--memory-limit", default="", help="DuckDB's memory_limit in each process, e.g. 1GB"
    )
    parser.add_argument("--no-memory", action="store_true", help="the speed part only")
    parser.add_argument("--no-spark", action="store_true", help="skip the Spark session")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print(f"duckdb {duckdb.__version__}, pandas {pd.__version__}, {os.cpu_count()} CPUs")
    speed(args)
    if not args.no_memory:
        memory(args)


if __name__ == "__main__":
    main()
