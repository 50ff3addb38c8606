"""What the run folder tests (tests/scale/test_runfolder_*.py) share: the run they
play, its digest, manifest and shard edits, and the command line they check.
The ``finished_run`` and the ``run`` copy of it are fixtures of conftest.py."""

from __future__ import annotations

import hashlib
import json
import pathlib
import subprocess
import sys
from typing import Any

import pytest

from tests.support.processes import CLI, run_python
from wts.scale.selfplay import selfplay

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="links, FIFOs and locks are POSIX")
RUN = dict(agent="random", seed=4, shard_size=2)
GAMES = 5


def digest(out: pathlib.Path) -> dict[str, str]:
    """Every file of a run but its lock, by path: what must be byte-identical."""
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and p.name != ".lock"}


def manifest_of(out: pathlib.Path) -> dict[str, Any]:
    return json.loads((out / "manifest.json").read_text())


def write_manifest(out: pathlib.Path, manifest: dict[str, Any]) -> None:
    (out / "manifest.json").write_text(json.dumps(manifest))


def replace_shard_file(out: pathlib.Path, folder: str, shard: int, data: bytes) -> None:
    """A shard file replaced, and the manifest edited to match it: only the
    checks past the checksum can refuse it."""
    (out / folder / f"shard-{shard:05d}.parquet").write_bytes(data)
    manifest = manifest_of(out)
    manifest["shards"][str(shard)]["files"][folder] = {
        "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    write_manifest(out, manifest)


def table_bytes(table: Any) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue().to_pybytes()


def resumes_to_the_reference(out: pathlib.Path, reference: pathlib.Path) -> None:
    selfplay(out, GAMES, **RUN)
    assert digest(out) == digest(reference)
    assert not list(out.rglob("*.tmp"))


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_python("-c", CLI, *args, env=env)


def selfplay_cli(out: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return cli("selfplay", "--agent", "random", "--games", str(GAMES), "--seed", "4",
               "--shard-size", "2", "--out", str(out), "--no-progress")


def one_line_error(result: subprocess.CompletedProcess[str], match: str) -> None:
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wts selfplay: "), result.stderr
    assert match in lines[0], lines[0]
