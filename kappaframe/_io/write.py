"""Writing a result file atomically: a temporary file next to the target, then a rename."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from .._errors import KappaFrameError


def write_atomic(path: str | os.PathLike[str], write: Callable[[Path], None]) -> None:
    """Call ``write(tmp)`` on a temporary file beside ``path``, then rename it to ``path``.

    The rename is atomic on one file system: readers see the old file or the new one,
    never a half-written one; if ``write`` fails the temporary file is removed and
    ``path`` is untouched. The new file gets the usual permissions (0666 minus umask).
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise KappaFrameError(f"output directory does not exist: {str(directory)!r}.")
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
