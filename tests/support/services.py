"""Real servers for the deployment tests, each started in a test's folder: a
PostgreSQL server (:func:`start_postgres`) and nginx as the reverse proxy
(:func:`start_nginx`, with deploy/nginx.conf made into a test's config by
:func:`render_nginx_config`). :func:`require_services` skips a test where
their programs are missing, or fails it where CI says it must run."""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from types import TracebackType

import pytest

#: The shipped proxy config (deploy/nginx.conf), for :func:`render_nginx_config`.
NGINX_CONF = pathlib.Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"

#: Debian's package for each service, named when its programs are missing.
PACKAGES = {"postgres": "postgresql", "nginx": "nginx-light"}
#: Seconds a server may take to start or stop (a loaded 2-core machine).
START_TIMEOUT = 30.0
#: PostgreSQL refuses to run as root; as root, this user runs it.
POSTGRES_USER = "postgres"
#: Settings for a throwaway test server: durability traded for speed.
POSTGRES_SETTINGS = """
listen_addresses = '127.0.0.1'
port = {port}
unix_socket_directories = '{sockets}'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 50
shared_buffers = 32MB
"""
#: The longest unix socket path (sun_path is 108 bytes, with its NUL).
SOCKET_PATH_MAX = 107


class ServiceError(RuntimeError):
    """A server that would not start or stop; the message ends with its log's tail."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (another process
    may still take it before the caller binds it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _tail(path: pathlib.Path, lines: int = 30) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError as error:
        return f"(no log at {path}: {error})"
    return "\n".join(text.splitlines()[-lines:]) or f"({path} is empty)"


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def services_required() -> bool:
    """Whether a missing service must fail a test rather than skip it: in CI
    (``CI`` true) and where ``WTS_REQUIRE_SERVICES=1`` (.ci/run sets it)."""
    return os.environ.get("WTS_REQUIRE_SERVICES") == "1" or _truthy(os.environ.get("CI"))


# ---------------------------------------------------------------- PostgreSQL

def postgres_bin() -> pathlib.Path | None:
    """The folder of PostgreSQL's server programs (initdb, pg_ctl, postgres):
    that of ``initdb`` on PATH, else the newest /usr/lib/postgresql/*/bin
    (Debian keeps them off PATH). None where there is none."""
    candidates: list[pathlib.Path] = []
    on_path = shutil.which("initdb")
    if on_path:  # /usr/local/bin/initdb may be a link: pg_ctl finds postgres beside the target
        candidates.append(pathlib.Path(os.path.realpath(on_path)).parent)

    def version(folder: pathlib.Path) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", folder.parent.name))

    candidates += sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin"), key=version,
                         reverse=True)
    return next((folder for folder in candidates
                 if all((folder / name).is_file() for name in ("initdb", "pg_ctl", "postgres"))),
                None)


def nginx_binary() -> str | None:
    """``nginx`` on PATH, else /usr/sbin/nginx (off a non-root user's PATH); None without."""
    found = shutil.which("nginx")
    if found:
        return found
    return "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None


def missing_services(*names: str) -> list[str]:
    """Those of ``names`` ("postgres", "nginx") whose programs this machine lacks."""
    unknown = set(names) - set(PACKAGES)
    if unknown:
        raise ValueError(f"unknown services {sorted(unknown)}: known are {sorted(PACKAGES)}")
    lacking: list[str] = []
    for name in names:
        if name == "postgres":
            found = (postgres_bin() is not None
                     and shutil.which("psql", path=_client_path()) is not None)
        else:
            found = nginx_binary() is not None
        if not found:
            lacking.append(name)
    return lacking


def require_services(*names: str) -> None:
    """Skips the calling test (or module, at import) where the programs of
    ``names`` ("postgres", with its driver psycopg, and "nginx") are missing; fails it instead where
    :func:`services_required` says it must run, naming the packages to install."""
    lacking = missing_services(*names)
    if lacking:
        packages = " ".join(PACKAGES[name] for name in lacking)
        what = f"missing: {' and '.join(lacking)} (on Debian: apt-get install {packages})"
    elif "postgres" in names and importlib.util.find_spec("psycopg") is None:
        what = "missing: psycopg, wts serve's PostgreSQL driver (pip install -e \".[postgresql]\")"
    else:
        return
    if services_required():
        pytest.fail(f"{what}, and CI or WTS_REQUIRE_SERVICES=1 says this test must run",
                    pytrace=False)
    pytest.skip(what, allow_module_level=True)


def _client_path() -> str:
    # psql and createdb: beside the server programs, else Debian's wrappers on PATH.
    folder = postgres_bin()
    return os.pathsep.join(filter(None, [str(folder) if folder else None,
                                         os.environ.get("PATH")]))


class PostgresServer:
    """A running PostgreSQL server, its database ``wts`` owned by the
    superuser ``wts``, who needs no password. A context manager that stops it."""

    def __init__(self, port: int, home: pathlib.Path, bin: pathlib.Path,
                 run_as: list[str], made: list[pathlib.Path]) -> None:
        self.port = port
        #: ``postgresql://wts@127.0.0.1:PORT/wts``.
        self.dsn = f"postgresql://wts@127.0.0.1:{port}/wts"
        #: The folder of its data (``data``), log (``postgres.log``) and sockets.
        self.home = home
        self.data = home / "data"
        self.log = home / "postgres.log"
        self._bin = bin
        self._run_as = run_as  # ["runuser", "-u", "postgres", "--"] as root, else []
        self._made = made  # folders made under /tmp for it: removed at stop
        self._stopped = False

    def _pg_ctl(self, *args: str) -> subprocess.CompletedProcess[str]:
        return _run([*self._run_as, str(self._bin / "pg_ctl"), "-D", str(self.data), *args],
                    cwd=self.home, log=self.log)

    def query(self, sql: str, database: str = "wts") -> str:
        """``sql`` run by psql over TCP, its rows as psql's unaligned text (``-tA``)."""
        result = subprocess.run(
            [shutil.which("psql", path=_client_path()) or "psql", "-X", "-q", "-tA",
             "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.port), "-U", "wts",
             "-d", database, "-c", sql],
            capture_output=True, text=True, timeout=START_TIMEOUT, stdin=subprocess.DEVNULL)
        if result.returncode:
            raise ServiceError(f"psql -c {sql!r} failed ({result.returncode}): "
                               f"{result.stderr.strip()}\n--- {self.log}:\n{_tail(self.log)}")
        return result.stdout.strip()

    def restart(self) -> None:
        """Stops and starts the server (``pg_ctl restart -m fast``): every
        connection to it is cut."""
        self._pg_ctl("restart", "-m", "fast", "-w", "-t", str(int(START_TIMEOUT)), "-l",
                     str(self.log))

    def stop(self) -> None:
        """Stops the server (``pg_ctl stop -m fast``); again, does nothing."""
        if self._stopped:
            return
        self._stopped = True
        try:
            if (self.data / "postmaster.pid").exists():
                self._pg_ctl("stop", "-m", "fast", "-w", "-t", str(int(START_TIMEOUT)))
        finally:
            for made in self._made:
                shutil.rmtree(made, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()


def _run(command: list[str], cwd: pathlib.Path, log: pathlib.Path,
         timeout: float = START_TIMEOUT) -> subprocess.CompletedProcess[str]:
    # Output captured; a failure raises with it and the server log's tail.
    try:
        result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                                timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as expired:
        raise ServiceError(f"{' '.join(command)} ran past {timeout:.0f} s\n"
                           f"--- {log}:\n{_tail(log)}") from expired
    if result.returncode:
        raise ServiceError(f"{' '.join(command)} failed ({result.returncode}):\n"
                           f"{(result.stdout + result.stderr).strip()}\n"
                           f"--- {log}:\n{_tail(log)}")
    return result


def _postgres_home(folder: pathlib.Path) -> tuple[pathlib.Path, list[str], bool]:
    """Where the server's files go, the command prefix that runs its programs,
    and whether that folder was made for it (and is removed at stop)."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return folder, [], False
    # As root, PostgreSQL runs as the user postgres, who must reach the folder:
    # a pytest folder under /tmp/pytest-of-root (mode 700) is out of its reach,
    # and then a folder of its own under /tmp is used instead.
    run_as = ["runuser", "-u", POSTGRES_USER, "--"]
    shutil.chown(folder, POSTGRES_USER, POSTGRES_USER)
    reachable = subprocess.run([*run_as, "test", "-w", str(folder), "-a", "-x", str(folder)],
                               stdin=subprocess.DEVNULL, capture_output=True).returncode == 0
    if reachable:
        return folder, run_as, False
    home = pathlib.Path(tempfile.mkdtemp(prefix="wts-postgres-", dir="/tmp"))
    shutil.chown(home, POSTGRES_USER, POSTGRES_USER)
    (folder / "where").write_text(f"{home}\n")  # for whoever looks for its files
    return home, run_as, True


def start_postgres(folder: pathlib.Path) -> PostgresServer:
    """A new PostgreSQL cluster in ``folder/data`` (initdb: UTF8, trust
    authentication, the superuser ``wts``), its server started by pg_ctl on
    127.0.0.1 on a free port with its unix socket in ``folder/sockets``, and
    the database ``wts`` created. As root, run as the user postgres (then in a
    folder of its own under /tmp where postgres cannot reach ``folder``)."""
    bin = postgres_bin()
    if bin is None:
        raise ServiceError("no PostgreSQL server programs (initdb, pg_ctl) on PATH or in "
                           "/usr/lib/postgresql/*/bin: apt-get install postgresql")
    home, run_as, owned = _postgres_home(pathlib.Path(folder))
    made = [home] if owned else []
    log = home / "postgres.log"
    try:
        sockets = home / "sockets"
        if len(str(sockets / ".s.PGSQL.65535.lock")) > SOCKET_PATH_MAX:
            sockets = pathlib.Path(tempfile.mkdtemp(prefix="wts-pg-", dir="/tmp"))  # shorter
            made.append(sockets)
        sockets.mkdir(exist_ok=True)
        if run_as:
            shutil.chown(sockets, POSTGRES_USER, POSTGRES_USER)
        _run([*run_as, str(bin / "initdb"), "-D", str(home / "data"), "-U", "wts",
              "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"], cwd=home, log=log)
        port = free_port()
        with (home / "data" / "postgresql.conf").open("a") as conf:  # later lines win
            conf.write(POSTGRES_SETTINGS.format(port=port, sockets=sockets))
        server = PostgresServer(port, home, bin, run_as, made)
    except BaseException:
        for folder_made in made:
            shutil.rmtree(folder_made, ignore_errors=True)
        raise
    try:
        server._pg_ctl("start", "-w", "-t", str(int(START_TIMEOUT)), "-l", str(log))
        server.query("CREATE DATABASE wts", database="postgres")
    except BaseException:
        server.stop()  # a server that started too slowly, or without its database
        raise
    return server


# --------------------------------------------------------------------- nginx

#: The directives that say where nginx writes: render_nginx_config puts its own.
_WRITES = re.compile(r"^\s*(pid|error_log|access_log|lock_file|"
                     r"(client_body|proxy|fastcgi|uwsgi|scgi)_temp_path)\s[^;]*;[^\n]*\n",
                     re.MULTILINE)


def render_nginx_config(template: str, listen: int, upstreams: list[int],
                        folder: pathlib.Path) -> str:
    """``template`` (deploy/nginx.conf's text) for a test: its ``listen``
    port replaced by 127.0.0.1:``listen``, the ports of its upstream servers
    by ``upstreams`` (the first port it names by the first of them, and so
    on, in every upstream block), and its pid, logs and temporary files put
    in ``folder``, so nginx needs no root and writes nowhere else."""
    folder = pathlib.Path(folder).resolve()
    text = _WRITES.sub("", template)
    text, listens = re.subn(r"^(\s*listen\s+)(?:[^\s;]*:)?\d+", rf"\g<1>127.0.0.1:{listen}",
                            text, flags=re.MULTILINE)
    if listens != 1:
        raise ValueError(f"the template has {listens} listen directives, not 1")

    # Each upstream block's `server HOST:PORT` lines, numbered by first appearance.
    ports: dict[str, int] = {}

    def upstream(block: re.Match[str]) -> str:
        def server(line: re.Match[str]) -> str:
            index = ports.setdefault(line["port"], len(ports))
            if index >= len(upstreams):
                raise ValueError(f"the template names more than {len(upstreams)} upstream ports")
            return f"{line['head']}{line['host']}:{upstreams[index]}"
        return re.sub(r"(?P<head>^\s*server\s+)(?P<host>[^\s:;]+):(?P<port>\d+)", server,
                      block[0], flags=re.MULTILINE)

    text = re.sub(r"^\s*upstream\s+\S+\s*\{[^}]*\}", upstream, text, flags=re.MULTILINE)
    if len(ports) != len(upstreams):
        raise ValueError(f"the template names {len(ports)} upstream ports, "
                         f"not {len(upstreams)}")

    main = (f"pid {folder / 'nginx.pid'};\n"
            f"error_log {folder / 'error.log'} info;\n")
    http = (f"    access_log {folder / 'access.log'};\n"
            + "".join(f"    {kind}_temp_path {folder / 'temp' / kind};\n"
                      for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")))
    text, found = re.subn(r"^http\s*\{\n", lambda head: head[0] + http, text, count=1,
                          flags=re.MULTILINE)
    if not found:
        raise ValueError("the template has no http block")
    return main + text


class ProxyServer:
    """A running nginx (its master process), started by :func:`start_nginx`.
    A context manager that stops it."""

    def __init__(self, process: subprocess.Popen[bytes], port: int,
                 folder: pathlib.Path) -> None:
        self.process = process
        self.port = port
        self.folder = folder
        self.url = f"http://127.0.0.1:{port}"
        self.error_log = folder / "error.log"
        self._stopped = False

    def stop(self) -> None:
        """Ends nginx: SIGTERM (a fast shutdown), then, past 10 s, SIGKILL to
        its whole process group, as its workers outlive a killed master. Again,
        does nothing."""
        if self._stopped:
            return
        self._stopped = True
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
                return  # its workers end before it does
            except subprocess.TimeoutExpired:
                pass
        # Stuck, or ended without its workers (killed): its process group, that
        # start_new_session made, holds them.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def __enter__(self) -> ProxyServer:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()


def _listen_port(config_text: str) -> int:
    found = re.search(r"^\s*listen\s+(?:[^\s;]*:)?(\d+)", config_text, flags=re.MULTILINE)
    if found is None:
        raise ValueError("the nginx config has no listen directive")
    return int(found[1])


def _nginx_command(folder: pathlib.Path, config_text: str, *args: str) -> list[str]:
    binary = nginx_binary()
    if binary is None:
        raise ServiceError("no nginx on PATH or at /usr/sbin/nginx: apt-get install nginx-light")
    directives = "daemon off;"
    if os.geteuid() == 0 and not re.search(r"^\s*user\s", config_text, flags=re.MULTILINE):
        # As root its workers would run as nobody, who cannot reach the
        # temporary files in a pytest folder (mode 700): a test's nginx only.
        directives += " user root;"
    return [binary, "-p", f"{folder}/", "-c", str(folder / "nginx.conf"), "-g", directives,
            *args]


def start_nginx(folder: pathlib.Path, config_text: str) -> ProxyServer:
    """nginx run in the foreground on ``config_text`` (written to
    ``folder/nginx.conf``; made by :func:`render_nginx_config`, so that it
    writes only in ``folder``), once its port accepts connections."""
    folder = pathlib.Path(folder).resolve()
    (folder / "temp").mkdir(parents=True, exist_ok=True)
    (folder / "nginx.conf").write_text(config_text)
    port = _listen_port(config_text)
    log = folder / "error.log"
    # Checked first, so that a bad config fails with nginx's own words.
    _run(_nginx_command(folder, config_text, "-t", "-q"), cwd=folder, log=log)
    output = (folder / "nginx.out").open("wb")
    with output:
        process = subprocess.Popen(_nginx_command(folder, config_text), cwd=folder,
                                   stdin=subprocess.DEVNULL, stdout=output,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    server = ProxyServer(process, port, folder)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            server.stop()
            raise ServiceError(f"nginx exited ({process.returncode}) on start:\n"
                               f"{_tail(folder / 'nginx.out')}\n--- {log}:\n{_tail(log)}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            if time.monotonic() > deadline:
                server.stop()
                raise ServiceError(f"nginx did not listen on {port} in {START_TIMEOUT:.0f} s"
                                   f"\n--- {log}:\n{_tail(log)}") from None
            time.sleep(0.05)


_databases = itertools.count()


def new_database(server: PostgresServer) -> str:
    """A new, empty database on ``server``; its URL."""
    name = f"test_{os.getpid()}_{next(_databases)}"
    server.query(f"CREATE DATABASE {name}")
    return server.dsn.rsplit("/", 1)[0] + "/" + name
