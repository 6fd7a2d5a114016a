"""A throwaway PostgreSQL server for the warehouse tests (the ``postgres`` fixture).

:func:`start` finds the system's PostgreSQL binaries (on the PATH, else Debian's
``/usr/lib/postgresql/<version>/bin``), makes a new cluster in a temporary directory
(``initdb``) and starts it there (``pg_ctl``), listening on a Unix socket in that
directory only: no TCP port is opened. ``initdb`` refuses to run as root, so as root
both run as the ``postgres`` system user, the directory given to it. :func:`stop` stops
the server and removes the directory. Each returns the reason to skip instead, where the
binaries or the user are absent.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: Where Debian and the PostgreSQL packages put the binaries (not on the PATH).
SEARCHED = ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin", "/usr/pgsql-*/bin")


@dataclass
class Server:
    """A running server: connect with ``host=socket_dir``, ``port``, ``user``."""

    bin_dir: Path
    root: Path
    port: int
    user: str
    run_as: list[str]

    @property
    def socket_dir(self) -> str:
        return str(self.root / "socket")

    @property
    def data_dir(self) -> str:
        return str(self.root / "data")


def _version(path: Path) -> tuple[int, ...]:
    digits = path.parent.name
    return tuple(int(p) for p in digits.split(".") if p.isdigit())


def find_binaries() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl`` (the newest version found)."""
    on_path = shutil.which("pg_ctl")
    if on_path is not None and shutil.which("initdb") is not None:
        return Path(on_path).resolve().parent
    found = [
        d
        for pattern in SEARCHED
        for d in sorted(Path("/").glob(pattern.lstrip("/")), key=_version, reverse=True)
        if (d / "initdb").exists() and (d / "pg_ctl").exists()
    ]
    return found[0] if found else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(server: Server, *args: str) -> None:
    done = subprocess.run(
        [*server.run_as, *args], capture_output=True, text=True, timeout=60, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stdout}{done.stderr}")


def start() -> Server | str:
    """A new running server, or the reason it cannot be started here."""
    bin_dir = find_binaries()
    if bin_dir is None:
        return (
            "PostgreSQL is not installed (no initdb/pg_ctl on the PATH or in "
            "/usr/lib/postgresql/*/bin): apt-get install postgresql runs these tests"
        )
    run_as: list[str] = []
    user = pwd.getpwuid(os.getuid()).pw_name
    if os.getuid() == 0:  # initdb refuses root: run the server as the postgres user
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run PostgreSQL as"
        runuser = shutil.which("runuser")
        if runuser is None:
            return "running as root and runuser is absent: cannot run PostgreSQL as postgres"
        run_as, user = [runuser, "-u", "postgres", "--"], "postgres"
    root = Path(tempfile.mkdtemp(prefix="kappaframe-postgres-"))
    (root / "socket").mkdir()
    if run_as:
        for path in (root, root / "socket"):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    server = Server(bin_dir, root, _free_port(), user, run_as)
    try:
        _run(
            server,
            str(bin_dir / "initdb"),
            "-D",
            server.data_dir,
            "-U",
            user,
            "--auth=trust",
            "--no-sync",
            "--no-locale",
            "-E",
            "UTF8",
        )
        options = f"-p {server.port} -k {server.socket_dir} -c listen_addresses='' -c fsync=off"
        _run(
            server,
            str(bin_dir / "pg_ctl"),
            "-D",
            server.data_dir,
            "-l",
            str(root / "server.log"),
            "-o",
            options,
            "-w",
            "start",
        )
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as err:
        shutil.rmtree(root, ignore_errors=True)
        return f"PostgreSQL could not be started: {err}"
    return server


def stop(server: Server) -> None:
    """Stop the server at once and remove its directory."""
    try:
        _run(
            server,
            str(server.bin_dir / "pg_ctl"),
            "-D",
            server.data_dir,
            "-m",
            "immediate",
            "-w",
            "stop",
        )
    finally:
        shutil.rmtree(server.root, ignore_errors=True)
