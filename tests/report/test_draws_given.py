"""The report and the pictures draw results they are given: ``_report`` computes nothing.

Every name a ``_report`` module imports from the rest of kappaframe is on ``ALLOWED``:
the public functions (and the small ``_api`` helpers that hand a picture its arrays,
computed as the public function computes them), the binding of options, errors, the
scales' bands and labels, and the writing of files. Nothing that reads ratings or
computes a statistic: not ``_count``, ``_encode`` or ``_frames``, no ``_stats`` function
other than a scale's, and none of ``_api``'s preparation (``prepare_input``,
``read_numeric``, ``square_values``, ...).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import kappaframe

PACKAGE = Path(kappaframe.__file__).parent
REPORT = PACKAGE / "_report"

#: What ``_report`` may take from the rest of the package, module by module. ``None``:
#: any name of that module (it holds no computation: type aliases, the version).
ALLOWED: dict[str, frozenset[str] | None] = {
    # the results drawn: public functions, and the arrays a picture needs
    "kappaframe._api.pairwise": frozenset(
        {"confusion", "matrix", "confusion_counts", "matrix_squares", "PairTable"}
    ),
    "kappaframe._api.concordance": frozenset({"bland_altman_points", "BlandAltmanPoints"}),
    "kappaframe._api.raters": frozenset({"raters"}),
    # the options bound, before anything is read
    "kappaframe._api.settings.bind": frozenset({"declared"}),
    "kappaframe._api.settings.reading": frozenset({"ReadSpec", "score_column"}),
    # names and bands for display
    "kappaframe._stats.scales": frozenset(
        {"MIN_ITEMS", "SCALES", "TOO_FEW_ITEMS", "Scale", "resolve_scale"}
    ),
    "kappaframe._schema": frozenset({"MARK"}),
    "kappaframe._types": None,
    "kappaframe._version": None,
    "kappaframe._errors": frozenset(
        {
            "KappaFrameError",
            "KappaFrameTypeError",
            "bad_option",
            "optional_import",
            "quiet_undefined",
        }
    ),
    # writing what was drawn
    "kappaframe._io.formats": frozenset({"TABLE_FORMATS"}),
    "kappaframe._io.read": frozenset({"Progress"}),
    "kappaframe._io.write": frozenset({"table_bytes", "write_atomic"}),
}

#: Names that compute or prepare: never on ``ALLOWED``.
COMPUTING = frozenset(
    {
        "prepare_input",
        "adapt",
        "count_input",
        "read_numeric",
        "read_pair_sums",
        "numeric_layout",
        "square_values",
        "agreement",
        "pair_agreement",
        "weight_matrix",
        "bland_altman_stats",
        "order_is_known",
    }
)


def module_of(path: Path, root: Path = PACKAGE) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, root: Path = PACKAGE) -> Iterator[tuple[str, str, int]]:
    """(module, name, line) of every import in a file, inside functions too."""
    here = module_of(path, root)
    package = here if path.name == "__init__.py" else here.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                yield module, alias.name, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, "", node.lineno


def outside_report(path: Path, root: Path = PACKAGE) -> list[tuple[str, str, int]]:
    """The package's names a ``_report`` module imports, less those of ``_report``."""
    found = []
    for module, name, line in imported(path, root):
        full = f"{module}.{name}" if name else module
        if not full.startswith("kappaframe") or full.startswith("kappaframe._report"):
            continue
        found.append((module, name, line))
    return sorted(found, key=lambda f: f[2])


def refused(path: Path, root: Path = PACKAGE) -> list[str]:
    out = []
    for module, name, line in outside_report(path, root):
        allowed = ALLOWED.get(module, frozenset())
        if allowed is not None and name not in allowed:
            out.append(f"{path.name}:{line} imports {name or module!r} from {module}")
    return out


MODULES = sorted(REPORT.glob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_report_modules_import_only_what_draws(path: Path) -> None:
    found = refused(path)
    assert found == [], (
        "_report draws results it is given; compute in _api (a public function, or a helper "
        f"next to it that returns the arrays a picture needs): {found}"
    )


def test_nothing_that_computes_is_allowed() -> None:
    for module, names in ALLOWED.items():
        assert module.startswith("kappaframe.") and not module.startswith("kappaframe._report")
        assert not module.startswith(("kappaframe._count", "kappaframe._encode")), module
        assert not (names or frozenset()) & COMPUTING, module
    assert "kappaframe._api.plan" not in ALLOWED and "kappaframe._api.numeric" not in ALLOWED
    assert "kappaframe._stats.agreement" not in ALLOWED
    assert "kappaframe._stats.concordance" not in ALLOWED


def test_the_guard_sees_imports_of_every_kind(tmp_path: Path) -> None:
    module = REPORT / "plots.py"
    names = {(m, n) for m, n, _ in outside_report(module)}
    assert ("kappaframe._api.pairwise", "matrix_squares") in names
    # A computing import, at the top or inside a function, relative or absolute, is refused.
    fake = tmp_path / "kappaframe" / "_report" / "fake.py"
    fake.parent.mkdir(parents=True)
    fake.write_text(
        "from .._api.plan import prepare_input\n"
        "def f():\n"
        "    from kappaframe._stats.agreement import agreement\n"
        "    import kappaframe._count.kernel\n",
        encoding="utf-8",
    )
    assert refused(fake, tmp_path / "kappaframe") == [
        "fake.py:1 imports 'prepare_input' from kappaframe._api.plan",
        "fake.py:3 imports 'agreement' from kappaframe._stats.agreement",
        "fake.py:4 imports 'kappaframe._count.kernel' from kappaframe._count.kernel",
    ]


def test_every_report_module_is_seen() -> None:
    assert {p.name for p in MODULES} >= {"plots.py", "report.py", "display.py", "colours.py"}
