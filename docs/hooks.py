"""Build-time additions to the documentation site (MkDocs hooks).

The notebooks live in ``notebooks/`` at the repository root, where they are run by the tests
and opened by users; the site shows them from there, as they were last saved (stored
outputs, nothing executed), under ``notebooks/`` in the site.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]


@event_priority(100)  # before mkdocs-jupyter turns .ipynb files into pages
def on_files(files: Files, config: Any) -> Files:
    """Add every notebook of ``notebooks/`` to the site's files."""
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        files.append(
            File(
                f"notebooks/{path.name}",
                src_dir=str(ROOT),
                dest_dir=config["site_dir"],
                use_directory_urls=config["use_directory_urls"],
            )
        )
    return files


#: Where the table of every option goes (docs/reference/options.md).
OPTIONS_MARKER = "<!-- the options table -->"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Fill the options page with the table made from the declarations."""
    if OPTIONS_MARKER not in markdown:
        return markdown
    return markdown.replace(OPTIONS_MARKER, options_table())


def options_table() -> str:
    """One row per declaration: values, default, meaning, flag, record, gate, functions."""
    import inspect

    import kappaframe as kf
    from kappaframe._api.settings.params import PARAMS, REQUIRED, declaration

    served: dict[int, list[str]] = {}
    for name in kf.__all__:
        func = getattr(kf, name)
        if not inspect.isfunction(func):
            continue
        for parameter in inspect.signature(func).parameters:
            served.setdefault(id(declaration(name, parameter)), []).append(f"`{name}`")
    rows = [
        "| option | values | default | what it does | flag | recorded | baseline must match "
        "| functions |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for p in PARAMS:
        functions = served.get(id(p))
        if not functions:
            continue  # a parameter of a method (Counts, FileScan) only
        default = "required" if p.default is REQUIRED else f"`{p.default!r}`"
        values = p.constraint.describe().replace("|", "\\|")
        rows.append(
            f"| `{p.name}` | {values} | {default} | {p.doc} | "
            f"{f'`{p.flag}`' if p.flag else ''} | {'yes' if p.record else ''} | "
            f"{'yes' if p.match else ''} | {', '.join(functions)} |"
        )
    return "\n".join(rows) + "\n"
