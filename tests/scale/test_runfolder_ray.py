"""A self-play run on the Ray backend: an address with no cluster, a
malformed address, or a port that is not Ray is a ``wts`` error at once, and
Ctrl-C stops the run and leaves no Ray process. The tests that start or look
for a Ray cluster share one worker (xdist_group "ray"). The other cases are
in tests/scale/test_runfolder_*.py."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import time

import pytest

import wts
from tests.support.processes import CLI, interruptible, start_python
from tests.support.runfolders import cli, manifest_of, posix_only
from wts.scale.selfplay import selfplay


def _processes_left(*names: str, seconds: float) -> list[str]:
    """The live processes whose command line holds one of ``names``, once
    they have had ``seconds`` to end (Ray's take a moment after a shutdown)."""
    deadline = time.monotonic() + seconds
    while True:
        # -ww: whole lines, whatever COLUMNS says (Ray's paths are long).
        ps = subprocess.run(["ps", "-ww", "-eo", "stat,args"], capture_output=True,
                            text=True).stdout
        left = [line for line in ps.splitlines()
                if any(name in line for name in names) and not line.startswith("Z")]
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.2)


# --- 12. A Ray address with no cluster -----------------------------------------------


@pytest.mark.xdist_group("ray")
@pytest.mark.parametrize("address", ["127.0.0.1:{port}", "auto"])
def test_a_ray_address_with_no_cluster_is_a_wts_error_at_once(
        tmp_path: pathlib.Path, address: str) -> None:
    pytest.importorskip("ray")
    import socket

    with socket.socket() as unused:  # a port nothing listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    address = address.format(port=port)
    # `auto` joins the cluster of any raylet ps shows, the earlier tests' too.
    if address == "auto" and shutil.which("ps") and _processes_left(
            "raylet", "gcs_server", seconds=60):
        pytest.skip("a Ray cluster runs on this machine, and `auto` joins any")
    # A folder of Ray's own with no cluster in it, whatever else runs on the machine.
    result = cli("selfplay", "--agent", "random", "--games", "2", "--out",
                 str(tmp_path / "run"), "--backend", "ray", "--address", address,
                 env={"RAY_TMPDIR": str(tmp_path), "RAY_ADDRESS": ""})
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert address in result.stderr and "Ray cluster" in result.stderr


# --- 14. Agent specs with odd white space --------------------------------------------


@pytest.mark.xdist_group("ray")
@posix_only
@pytest.mark.parametrize("when", ["while Ray starts", "while shards are played"])
def test_ctrl_c_on_the_ray_backend_stops_the_run_and_leaves_no_ray_process(
        tmp_path: pathlib.Path, when: str) -> None:
    """Ray's own start-up and shut-down take seconds (the promise for Ray, in
    docs/reliability.md): Ctrl-C stops the run, no shard is
    written after it, and Ray's processes end with the command."""
    pytest.importorskip("ray")
    import signal
    import tempfile

    # Ray's sockets live in its folder, whose path must be short.
    ray_dir = pathlib.Path(tempfile.mkdtemp(prefix="wts-ray-", dir="/tmp"))
    out = tmp_path / "run"
    child = start_python(
        "-c", interruptible(CLI), "selfplay", "--agent", "mcts:1", "--games", "400",
        "--shard-size", "2", "--out", str(out), "--backend", "ray", "--workers", "2",
        "--no-progress", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, env={"RAY_TMPDIR": str(ray_dir)})
    try:
        deadline = time.monotonic() + 120
        def under_way() -> bool:
            if when == "while Ray starts":
                return any(ray_dir.iterdir())
            return (out / "manifest.json").exists() and bool(manifest_of(out)["shards"])

        while not under_way() and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        os.killpg(child.pid, signal.SIGINT)
        _, stderr = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        shutil.rmtree(ray_dir, ignore_errors=True)
    assert child.returncode == 130, stderr
    assert stderr.strip().endswith("wts selfplay: interrupted"), stderr
    if (out / "manifest.json").exists():
        listed = set(manifest_of(out)["shards"])
        written = {p.name[6:11].lstrip("0") or "0" for p in (out / "games").glob("shard-*")}
        assert written == listed
    left = _processes_left(str(ray_dir), seconds=20)
    assert not left, left


# --- Hostile shards, manifests and addresses, found in review ------------------------


@pytest.mark.parametrize("address", ["", ":::", "localhost", "http://127.0.0.1:1",
                                     "127.0.0.1:-1", "127.0.0.1:99999", "host:12 34"])
def test_a_malformed_ray_address_is_a_parameter_error(
        tmp_path: pathlib.Path, address: str) -> None:
    with pytest.raises(wts.ParameterError, match="address must be"):
        selfplay(tmp_path / "run", 1, agent="random", backend="ray", address=address)
    assert not (tmp_path / "run").exists()


@pytest.mark.xdist_group("ray")
def test_a_port_that_is_not_ray_is_refused_at_once(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("ray")
    import socket
    import threading

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"127.0.0.1:{server.getsockname()[1]}"

        def answer_nonsense() -> None:
            connection, _ = server.accept()
            with connection:
                connection.recv(64)
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

        thread = threading.Thread(target=answer_nonsense, daemon=True)
        thread.start()
        with pytest.raises(wts.WtsError, match="is not a Ray cluster"):
            selfplay(tmp_path / "run", 1, agent="random", backend="ray", address=address)
        thread.join(10)

