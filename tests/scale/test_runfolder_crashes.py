"""Crash consistency of self-play run folders: a run stopped at any system call
of its file layer, by a killed process or by a power cut, resumes to exactly
the bytes of a run never stopped.

Every call a run folder makes goes through ``wts.runtime.files.disk``. The
harness counts a whole run's calls, then runs again and stops it before the
k-th, for every k:

- **killed process**: the k-th call and all after it fail (a dead process
  makes no more calls, ``finally`` blocks included); what was written stays,
  as the kernel keeps a killed process's writes;
- **power cut**: as above, and then the folder is rolled back to what the
  disk held for sure: a file's bytes as of its last ``fsync`` (nothing, if it
  never had one), a folder's names as of its last ``fsync`` of the folder.
  This is the weakest disk POSIX allows, and the one on which an unflushed
  rename loses a shard's bytes while the manifest that lists it survives.

Then the same run is resumed with the real disk, and every file must be the
uninterrupted run's, byte for byte, with no temporary file left.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest

from wts.runtime import files
from wts.scale.selfplay import selfplay

pytest.importorskip("pyarrow")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="folders are flushed on POSIX")

RUN = dict(agent="random", seed=11, shard_size=2, max_turns=12)
GAMES = 3


def digest(out: pathlib.Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and p.name != ".lock"}


class _Stopped(BaseException):
    """The process is gone: raised at the chosen call and at every call after."""


class CountingDisk(files.Disk):
    def __init__(self) -> None:
        self.calls = 0

    def _call(self) -> None:
        self.calls += 1

    def open(self, *args: Any, **kwargs: Any) -> int:
        self._call()
        return super().open(*args, **kwargs)

    def write(self, fd: int, data: memoryview) -> int:
        self._call()
        return super().write(fd, data)

    def fsync(self, fd: int) -> None:
        self._call()
        super().fsync(fd)

    def close(self, fd: int) -> None:
        self._call()
        super().close(fd)

    def replace(self, *args: Any, **kwargs: Any) -> None:
        self._call()
        super().replace(*args, **kwargs)

    def unlink(self, *args: Any, **kwargs: Any) -> None:
        self._call()
        super().unlink(*args, **kwargs)

    def mkdir(self, *args: Any, **kwargs: Any) -> None:
        self._call()
        super().mkdir(*args, **kwargs)


class StoppingDisk(CountingDisk):
    """Fails the ``at``-th call and every later one, as a killed process."""

    def __init__(self, at: int) -> None:
        super().__init__()
        self.at = at

    def _call(self) -> None:
        self.calls += 1
        if self.calls >= self.at:
            raise _Stopped

    def close(self, fd: int) -> None:
        if self.calls + 1 >= self.at:  # the kernel closes a dead process's files
            os.close(fd)
        super().close(fd)


@dataclass
class _Inode:
    data: bytearray = field(default_factory=bytearray)
    durable: bytes = b""
    folder: dict[str, _Inode] | None = None          # a folder's names, as they are
    durable_names: dict[str, _Inode] | None = None   # and as the disk holds them for sure


class PowerCutDisk(StoppingDisk):
    """A model of what the disk holds for sure, kept beside the real calls:
    after the stop, :meth:`roll_back` rewrites the folder to that."""

    def __init__(self, at: int, top: pathlib.Path) -> None:
        super().__init__(at)
        self.top = top
        self.root = _Inode(folder={}, durable_names={})  # the run's folder, made empty
        self.fds: dict[int, _Inode] = {}

    def _parent(self, name: str, dir_fd: int | None) -> tuple[_Inode, str]:
        if dir_fd is None:  # the run's own folder, opened by its path
            assert pathlib.Path(name) == self.top, name
            return self.root, ""
        return self.fds[dir_fd], name

    def open(self, name: str, flags: int, mode: int = 0o666, *,
             dir_fd: int | None = None) -> int:
        fd = super().open(name, flags, mode, dir_fd=dir_fd)
        parent, entry = self._parent(name, dir_fd)
        if not entry:
            self.fds[fd] = parent
        else:
            assert parent.folder is not None
            if entry not in parent.folder:
                assert flags & os.O_CREAT, entry
                parent.folder[entry] = _Inode()
            self.fds[fd] = parent.folder[entry]
        return fd

    def write(self, fd: int, data: memoryview) -> int:
        written = super().write(fd, data)
        self.fds[fd].data += bytes(data[:written])
        return written

    def fsync(self, fd: int) -> None:
        super().fsync(fd)
        inode = self.fds[fd]
        if inode.folder is not None:
            inode.durable_names = dict(inode.folder)
        else:
            inode.durable = bytes(inode.data)

    def close(self, fd: int) -> None:
        super().close(fd)
        del self.fds[fd]

    def replace(self, source: str, target: str, *, dir_fd: int | None = None) -> None:
        super().replace(source, target, dir_fd=dir_fd)
        folder = self.fds[dir_fd].folder  # type: ignore[index]
        assert folder is not None
        folder[target] = folder.pop(source)

    def unlink(self, name: str, *, dir_fd: int | None = None) -> None:
        super().unlink(name, dir_fd=dir_fd)
        folder = self.fds[dir_fd].folder  # type: ignore[index]
        assert folder is not None
        del folder[name]

    def mkdir(self, name: str, *, dir_fd: int | None = None) -> None:
        super().mkdir(name, dir_fd=dir_fd)
        folder = self.fds[dir_fd].folder  # type: ignore[index]
        assert folder is not None
        folder[name] = _Inode(folder={}, durable_names={})

    def roll_back(self) -> None:
        """The run's folder as a power cut now would leave it."""
        shutil.rmtree(self.top)
        self._materialise(self.root, self.top)

    def _materialise(self, inode: _Inode, path: pathlib.Path) -> None:
        path.mkdir()
        assert inode.durable_names is not None
        for name, child in inode.durable_names.items():
            if child.durable_names is not None:
                self._materialise(child, path / name)
            else:
                (path / name).write_bytes(child.durable)


@pytest.fixture(scope="module")
def counted_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, int]:
    """The run never stopped, and how many calls it makes."""
    out = tmp_path_factory.mktemp("counted") / "run"
    counting = CountingDisk()
    original, files.disk = files.disk, counting
    try:
        selfplay(out, GAMES, **RUN)
    finally:
        files.disk = original
    return out, counting.calls


def _stopped_and_resumed(out: pathlib.Path, disk: StoppingDisk) -> None:
    """Stop the run at the disk's call, resume it: no game it reported
    finished (its shard listed by a manifest on the disk) is played again."""
    finished = [0]

    def reported(progress: Any) -> None:
        finished[0] = progress.games

    original, files.disk = files.disk, disk
    try:
        with pytest.raises(_Stopped):
            selfplay(out, GAMES, progress=reported, **RUN)
    finally:
        files.disk = original
    if isinstance(disk, PowerCutDisk):
        disk.roll_back()
    report = selfplay(out, GAMES, **RUN)
    assert report.played <= GAMES - finished[0], (
        f"stopped at call {disk.at}: {finished[0]} games were finished, "
        f"yet {report.played} of {GAMES} were played again")


def test_the_harness_stops_the_run_everywhere(counted_run: tuple[pathlib.Path, int]) -> None:
    # 2 shards of 2 files and 3 manifests, each open, write, fsync, close,
    # rename and folder fsync; the folders made and opened; the lock.
    assert counted_run[1] >= 45


def test_a_run_killed_at_any_call_resumes_to_the_same_bytes(
        counted_run: tuple[pathlib.Path, int], tmp_path: pathlib.Path) -> None:
    expected = digest(counted_run[0])
    for at in range(1, counted_run[1] + 1):
        out = tmp_path / f"killed-{at}"
        _stopped_and_resumed(out, StoppingDisk(at))
        assert digest(out) == expected, f"killed at call {at}"
        assert not list(out.rglob("*.tmp")), f"killed at call {at}"


def test_a_run_whose_power_is_cut_at_any_call_resumes_to_the_same_bytes(
        counted_run: tuple[pathlib.Path, int], tmp_path: pathlib.Path) -> None:
    expected = digest(counted_run[0])
    for at in range(1, counted_run[1] + 1):
        out = tmp_path / f"power-{at}"
        disk = PowerCutDisk(at, out)
        _stopped_and_resumed(out, disk)
        assert digest(out) == expected, f"power cut at call {at}"
        assert not list(out.rglob("*.tmp")), f"power cut at call {at}"


class UnflushedDisk(PowerCutDisk):
    """A file layer that renames without flushing: what the harness must catch."""

    def fsync(self, fd: int) -> None:
        self._call()
        if self.fds[fd].folder is not None:
            self.fds[fd].durable_names = dict(self.fds[fd].folder or {})


def test_the_power_cut_model_catches_a_rename_without_fsync(
        counted_run: tuple[pathlib.Path, int], tmp_path: pathlib.Path) -> None:
    """The harness is not blind: were files renamed unflushed, some cut point
    would leave the manifest, or a shard it lists, empty."""
    damaged = 0
    for at in range(1, counted_run[1] + 1):
        out = tmp_path / f"unflushed-{at}"
        disk = UnflushedDisk(at, out)
        original, files.disk = files.disk, disk
        try:
            with pytest.raises(_Stopped):
                selfplay(out, GAMES, **RUN)
        finally:
            files.disk = original
        disk.roll_back()
        if any(p.stat().st_size == 0 for p in out.rglob("*") if p.is_file()
               and p.name != ".lock"):
            damaged += 1
    assert damaged > 0
