"""A self-play run folder on disk is hostile until checked: links planted in a
shared folder, FIFOs, folders at a file's name, odd and read-only folders,
faults of the disk, a deleted lock, other users' files. Each case is refused
with a ``wts.WtsError`` naming the file (one line from ``wts selfplay``),
writes nothing through a link, and leaves the folder resumable to the same
bytes as a run never disturbed; every file is flushed before its rename.
The other cases are in tests/scale/test_runfolder_*.py; tests/scale/test_runfolder_crashes.py
kills and powers off runs."""

from __future__ import annotations

import errno
import os
import pathlib
import textwrap
from typing import Any

import pytest

from tests.support.processes import run_python
from tests.support.runfolders import (
    GAMES,
    RUN,
    digest,
    one_line_error,
    posix_only,
    resumes_to_the_reference,
    selfplay_cli,
)
from wts.runtime import files
from wts.runtime.files import RunFolderError
from wts.scale.selfplay import load, selfplay

# --- 1. Links planted in a shared run folder -----------------------------------------


@posix_only
def test_a_link_at_a_temporary_name_is_never_written_through(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    victim = tmp_path / "victim"
    victim.write_text("precious")
    out = tmp_path / "run"
    (out / "games").mkdir(parents=True)
    # Even a temporary name guessed right is created exclusively, never followed.
    monkeypatch.setattr(files.secrets, "token_hex", lambda n: "0123456789abcdef")
    for name in (".manifest.json.0123456789abcdef.tmp",
                 "games/.shard-00000.parquet.0123456789abcdef.tmp"):
        (out / name).symlink_to(victim)
    with pytest.raises(RunFolderError, match="cannot write"):
        selfplay(out, GAMES, **RUN)
    assert victim.read_text() == "precious"


@posix_only
@pytest.mark.parametrize("planted", ["games", "examples", ".lock", "manifest.json",
                                     "games/shard-00000.parquet"])
def test_a_link_in_the_run_folder_is_never_followed(
        tmp_path: pathlib.Path, finished_run: pathlib.Path, planted: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    victim = elsewhere / "victim"
    victim.write_text("precious")
    out = tmp_path / "run"
    (out / "games").mkdir(parents=True)
    target = elsewhere if planted in ("games", "examples") else victim
    if planted == "games":
        (out / "games").rmdir()
    (out / planted).symlink_to(target)
    try:
        selfplay(out, GAMES, **RUN)
    except RunFolderError as exc:
        assert "symbolic link" in str(exc) or "not a" in str(exc)
    else:  # a link at a shard's final name is replaced by the shard, not followed
        assert planted == "games/shard-00000.parquet"
        assert digest(out) == digest(finished_run)
    assert sorted(os.listdir(elsewhere)) == ["victim"]
    assert victim.read_text() == "precious"


# --- 3. Files that are not regular files ---------------------------------------------


@posix_only
@pytest.mark.parametrize("call", ["load", "selfplay"])
def test_a_fifo_manifest_is_refused_without_blocking(tmp_path: pathlib.Path, call: str) -> None:
    out = tmp_path / "run"
    for folder in ("games", "examples"):
        (out / folder).mkdir(parents=True)
    os.mkfifo(out / "manifest.json")
    action = "load(out)" if call == "load" else "selfplay(out, 2, agent='random')"
    code = ("from wts.scale.selfplay import load, selfplay\n"
            f"try:\n    {action}\n"
            "except Exception as exc:\n    print(type(exc).__name__, exc)\n")
    result = run_python("-c", f"out = {str(out)!r}\n" + code, timeout=60)
    assert result.stdout.startswith("RunFolderError") and "not a regular file" in result.stdout


def test_a_listed_shard_replaced_by_a_folder_is_played_again(
        run: pathlib.Path, finished_run: pathlib.Path) -> None:
    path = run / "games" / "shard-00001.parquet"
    path.unlink()
    path.mkdir()
    with pytest.raises(RunFolderError, match="not a regular file"):
        load(run)
    path.rmdir()  # a folder is not removed for the user
    resumes_to_the_reference(run, finished_run)


# --- 4. Durability: flushed before renamed, the folder after -------------------------


class TracingDisk(files.Disk):
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.folders: set[int] = set()

    def open(self, name: str, flags: int, mode: int = 0o666, *,
             dir_fd: int | None = None) -> int:
        fd = super().open(name, flags, mode, dir_fd=dir_fd)
        if flags & getattr(os, "O_DIRECTORY", 0):
            self.folders.add(fd)
        self.calls.append(("open", name if flags & os.O_CREAT else None))
        return fd

    def write(self, fd: int, data: memoryview) -> int:
        self.calls.append(("write", fd))
        return super().write(fd, data)

    def fsync(self, fd: int) -> None:
        self.calls.append(("fsync folder" if fd in self.folders else "fsync", fd))
        super().fsync(fd)

    def replace(self, source: str, target: str, *, dir_fd: int | None = None) -> None:
        self.calls.append(("replace", target))
        super().replace(source, target, dir_fd=dir_fd)


@posix_only
def test_every_file_is_flushed_before_its_rename_and_its_folder_after(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracing = TracingDisk()
    monkeypatch.setattr(files, "disk", tracing)
    selfplay(tmp_path / "run", GAMES, **RUN)
    kinds = [kind for kind, _ in tracing.calls if kind != "open"]
    renames = [i for i, kind in enumerate(kinds) if kind == "replace"]
    # 3 shards of 2 files, the manifest made, rewritten after each shard, and completed.
    assert len(renames) == 3 * 2 + 1 + 3 + 1
    for i in renames:
        assert kinds[i - 1] == "fsync" and kinds[i - 2] == "write"
        assert kinds[i + 1] == "fsync folder"


# --- 9. Only its own temporary files are removed -------------------------------------


def test_only_its_own_leftovers_are_removed(
        run: pathlib.Path, finished_run: pathlib.Path) -> None:
    theirs = [".notes.tmp", ".manifest.json.1234.tmp", "games/.data.tmp",
              ".manifest.json.0123456789ABCDEF.tmp"]
    ours = [".manifest.json.0123456789abcdef.tmp",
            "games/.shard-00001.parquet.fedcba9876543210.tmp"]
    for name in theirs + ours:
        (run / name).write_text("left")
    selfplay(run, GAMES, **RUN)
    assert all((run / name).exists() for name in theirs)
    assert not any((run / name).exists() for name in ours)


# --- 13. Faults of the disk and odd folders ------------------------------------------


class FailingDisk(files.Disk):
    """The disk fills up (or turns read-only) at the n-th write."""

    def __init__(self, at: int, error: int) -> None:
        self.left = at
        self.error = error

    def write(self, fd: int, data: memoryview) -> int:
        self.left -= 1
        if self.left == 0:
            raise OSError(self.error, os.strerror(self.error))
        return super().write(fd, data)


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EROFS, errno.EIO])
@pytest.mark.parametrize("at", [1, 3, 6])
def test_a_disk_fault_is_a_wts_error_and_the_run_resumes(
        tmp_path: pathlib.Path, finished_run: pathlib.Path, monkeypatch: pytest.MonkeyPatch,
        error: int, at: int) -> None:
    monkeypatch.setattr(files, "disk", FailingDisk(at, error))
    out = tmp_path / "run"
    with pytest.raises(RunFolderError, match=os.strerror(error)):
        selfplay(out, GAMES, **RUN)
    monkeypatch.setattr(files, "disk", files.Disk())
    assert not list(out.rglob("*.tmp"))
    resumes_to_the_reference(out, finished_run)


@posix_only
@pytest.mark.parametrize("odd, match", [
    (".lock is a folder", "lock"),
    ("games is a file", "not a folder"),
    ("manifest.json is a folder", "not a regular file"),
])
def test_an_odd_run_folder_is_one_line_from_the_command(
        tmp_path: pathlib.Path, finished_run: pathlib.Path, odd: str, match: str) -> None:
    out = tmp_path / "run"
    out.mkdir()
    name = odd.split()[0]
    if odd.endswith("a folder"):
        (out / name).mkdir()
    else:
        (out / name).write_text("")
    one_line_error(selfplay_cli(out), match)
    (out / name).rmdir() if (out / name).is_dir() else (out / name).unlink()
    resumes_to_the_reference(out, finished_run)


@posix_only
def test_a_read_only_run_folder_is_one_line_from_the_command(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    script = textwrap.dedent(f"""
        import errno, os, sys
        from wts.runtime import files
        class ReadOnly(files.Disk):
            def open(self, name, flags, mode=0o666, *, dir_fd=None):
                if flags & os.O_CREAT:
                    raise OSError(errno.EROFS, os.strerror(errno.EROFS))
                return super().open(name, flags, mode, dir_fd=dir_fd)
        files.disk = ReadOnly()
        from wts.cli.main import main
        sys.exit(main(["selfplay", "--agent", "random", "--games", "2", "--out", {str(out)!r}]))
    """)
    result = run_python("-c", script)
    one_line_error(result, "Read-only file system")


# --- Hostile shards, manifests and addresses, found in review ------------------------


@posix_only
def test_deleting_the_lock_file_lets_no_second_run_in(tmp_path: pathlib.Path) -> None:
    import threading

    out = tmp_path / "run"
    started, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def first_shard_then_wait(progress: Any) -> None:
        started.set()
        release.wait(30)

    def first() -> None:
        try:
            selfplay(out, 4, agent="random", shard_size=2, progress=first_shard_then_wait)
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=first)
    thread.start()
    try:
        assert started.wait(60)
        (out / ".lock").unlink()
        with pytest.raises(RunFolderError, match="in use by another wts selfplay run"):
            selfplay(out, 4, agent="random", shard_size=2)
    finally:
        release.set()
        thread.join()
    assert not errors


@posix_only
def test_another_users_file_of_a_temporary_name_is_left_alone(run: pathlib.Path) -> None:
    theirs = run / ".manifest.json.00112233445566ff.tmp"
    theirs.write_text("theirs")
    os.chown(theirs, 12345, 12345) if os.getuid() == 0 else pytest.skip("needs root")
    selfplay(run, GAMES, **RUN)
    assert theirs.read_text() == "theirs"
