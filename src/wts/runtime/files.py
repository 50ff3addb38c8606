"""A run folder's files: written whole and durably, read back bounded and checked.

A run folder may be shared (a cluster's shared disk) and edited by hand, so
nothing in it is trusted:

- a file is written to a new name made exclusively (``O_CREAT | O_EXCL``,
  which never follows a link), flushed to the disk, renamed over its final
  name, and then the folder itself is flushed, so the rename is on the disk
  too before anything that relies on it (a manifest listing the shard);
- the folders below the run's are opened without following links, and every
  file is named relative to its folder's descriptor, so a link planted in
  the folder cannot send a write, a read or a removal elsewhere;
- a file is read only if it is a regular file, only up to a size the caller
  states, and never by opening a FIFO for long (``O_NONBLOCK``).

On Windows, where names cannot be taken relative to a folder and links are
not refused at open, only the exclusive creation and the checks of what is
read hold: do not share a run folder with people you do not trust there.

Every system call goes through :data:`disk`, so a test can trace the calls or
cut the power between any two of them (tests/scale/test_runfolder_crashes.py).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from wts.errors import WtsError

__all__ = ["Disk", "disk", "Folder", "RunFolderError", "write_atomically"]

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_BINARY = getattr(os, "O_BINARY", 0)
# Where names can be taken relative to a folder's descriptor (POSIX), they are.
_AT = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd
# A temporary file of this module's: ".NAME.TOKEN.tmp", TOKEN 16 hex digits.
_TEMPORARY = re.compile(r"\.(?P<name>[A-Za-z0-9_-][A-Za-z0-9_.-]*)\.[0-9a-f]{16}\.tmp")


class RunFolderError(WtsError):
    """A run folder's file could not be written or read: names the file and why."""


class Disk:
    """The system calls a run folder makes, in one place: a test replaces
    :data:`disk` with a subclass that records them or fails at any one."""

    def open(self, name: str, flags: int, mode: int = 0o666, *,
             dir_fd: int | None = None) -> int:
        return os.open(name, flags, mode, dir_fd=dir_fd)

    def write(self, fd: int, data: memoryview) -> int:
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def close(self, fd: int) -> None:
        os.close(fd)

    def replace(self, source: str, target: str, *, dir_fd: int | None = None) -> None:
        os.replace(source, target, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)

    def unlink(self, name: str, *, dir_fd: int | None = None) -> None:
        os.unlink(name, dir_fd=dir_fd)

    def mkdir(self, name: str, *, dir_fd: int | None = None) -> None:
        os.mkdir(name, dir_fd=dir_fd)


#: The calls every :class:`Folder` makes.
disk = Disk()


def _failed(path: Path, doing: str, exc: OSError) -> RunFolderError:
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ELOOP:
        reason = "it is a symbolic link, which a run folder never follows"
    return RunFolderError(f"cannot {doing} {path}: {reason}")


class Folder:
    """A folder of a run, held open: its files are named relative to it.

    ``Folder.open(path)`` opens (and with ``create=True`` makes) the run's own
    folder, following a link the user named; :meth:`sub` opens a folder in it
    without following links.
    """

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path = path
        self._fd = fd

    @classmethod
    def open(cls, path: Path, *, create: bool = False) -> Folder:
        if create:
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise _failed(path, "make the run's directory", exc) from None
        if not _AT:
            if not path.is_dir():
                raise RunFolderError(f"cannot open {path}: not a folder")
            return cls(path, None)
        try:
            fd = disk.open(str(path), os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        except OSError as exc:
            raise _failed(path, "open the run's directory", exc) from None
        return cls(path, fd)

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _name(self, name: str) -> tuple[str, dict[str, Any]]:
        if self._fd is None:
            return str(self.path / name), {}
        return name, {"dir_fd": self._fd}

    def sub(self, name: str, *, create: bool) -> Folder:
        """The folder ``name`` in this one, never through a link; made if asked."""
        path = self.path / name
        target, at = self._name(name)
        if create:
            try:
                disk.mkdir(target, **at)
            except FileExistsError:
                pass
            except OSError as exc:
                raise _failed(path, "make the folder", exc) from None
            else:
                self.flush()
        if self._fd is None:
            if path.is_symlink() or not path.is_dir():
                raise RunFolderError(f"cannot open {path}: not a folder")
            return Folder(path, None)
        try:
            fd = disk.open(target, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, **at)
        except FileNotFoundError:
            raise RunFolderError(f"cannot open {path}: no such folder") from None
        except OSError as exc:
            if exc.errno in (errno.ENOTDIR, errno.ELOOP):
                what = "a symbolic link, which a run folder never follows" if self._is_link(
                    name) else "not a folder"
                raise RunFolderError(f"cannot open {path}: it is {what}") from None
            raise _failed(path, "open the folder", exc) from None
        return Folder(path, fd)

    def _is_link(self, name: str) -> bool:
        target, at = self._name(name)
        try:
            return stat.S_ISLNK(os.stat(target, follow_symlinks=False, **at).st_mode)
        except OSError:
            return False

    def flush(self) -> None:
        """The folder's entries on the disk (a rename or a new name in it)."""
        if self._fd is None:  # Windows: a folder cannot be opened to flush it
            return
        try:
            disk.fsync(self._fd)
        except OSError as exc:
            raise _failed(self.path, "flush the folder", exc) from None

    def write(self, name: str, data: bytes) -> None:
        """``name`` replaced whole by ``data``, on the disk when this returns:
        a crash at any point leaves the old file or the new one, never a part."""
        path = self.path / name
        temporary = f".{name}.{secrets.token_hex(8)}.tmp"
        target, at = self._name(temporary)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | _BINARY
        try:
            fd = disk.open(target, flags, 0o666, **at)
        except OSError as exc:
            raise _failed(path, "write", exc) from None
        renamed = False
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[disk.write(fd, view):]
                disk.fsync(fd)
            finally:
                disk.close(fd)
            disk.replace(target, self._name(name)[0], **at)
            renamed = True
        except OSError as exc:
            raise _failed(path, "write", exc) from None
        finally:
            if not renamed:
                with contextlib.suppress(OSError):
                    disk.unlink(target, **at)
        self.flush()

    def read(self, name: str, limit: int) -> bytes | None:
        """The bytes of the regular file ``name``, or None if there is none;
        a link, a folder, a FIFO or a file over ``limit`` bytes is refused."""
        path = self.path / name
        target, at = self._name(name)
        try:
            fd = disk.open(target, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC | _BINARY,
                           **at)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise _failed(path, "read", exc) from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise RunFolderError(f"cannot read {path}: it is not a regular file")
            if info.st_size > limit:
                raise RunFolderError(f"cannot read {path}: {info.st_size:,} bytes, more than "
                                     f"the {limit:,} it can hold")
            chunks = []
            left = info.st_size
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 24))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            return b"".join(chunks)
        except OSError as exc:
            raise _failed(path, "read", exc) from None
        finally:
            disk.close(fd)

    def is_file(self, name: str) -> bool:
        """Whether ``name`` is a regular file here (a link to one is not)."""
        target, at = self._name(name)
        try:
            return stat.S_ISREG(os.stat(target, follow_symlinks=False, **at).st_mode)
        except OSError:
            return False

    def remove_leftovers(self) -> int:
        """The temporary files this module left here (a run killed while
        writing): regular files of this user's named as it names them;
        nothing else is touched. Returns how many went."""
        removed = 0
        uid = os.getuid() if hasattr(os, "getuid") else None
        with os.scandir(self._fd if self._fd is not None else self.path) as entries:
            names = [entry.name for entry in entries if _TEMPORARY.fullmatch(entry.name)]
        for name in names:
            target, at = self._name(name)
            try:
                info = os.stat(target, follow_symlinks=False, **at)
            except OSError:
                continue
            # A regular file of this user's: another user's file of the same
            # name in a shared folder is theirs.
            if not stat.S_ISREG(info.st_mode) or (uid is not None and info.st_uid != uid):
                continue
            try:
                disk.unlink(target, **at)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise _failed(self.path / name, "remove the leftover", exc) from None
            removed += 1
        return removed

    @contextlib.contextmanager
    def lock(self, name: str, busy: str) -> Iterator[None]:
        """Held while the block runs: a second holder (another process) gets a
        RunFolderError saying ``busy``; the lock goes with its process."""
        try:
            import fcntl
        except ImportError:  # Windows: no advisory locks; one run at a time is on the user
            yield
            return
        path = self.path / name
        target, at = self._name(name)
        try:
            fd = disk.open(target, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC,
                           0o666, **at)
        except OSError as exc:
            raise _failed(path, "open the lock file", exc) from None
        # Both the lock file (as runs of earlier versions take it) and the
        # folder itself, which no one can delete from under the lock.
        held = [fd] if self._fd is None else [fd, self._fd]
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise RunFolderError(f"cannot lock {path}: it is not a regular file")
            taken = []
            try:
                for handle in held:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    taken.append(handle)
            except OSError:
                for handle in taken:
                    fcntl.flock(handle, fcntl.LOCK_UN)
                raise RunFolderError(busy) from None
            try:
                yield
            finally:
                for handle in taken:
                    fcntl.flock(handle, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def write_atomically(path: Path, data: bytes) -> None:
    """The file ``path`` replaced whole by ``data``, as :meth:`Folder.write`
    writes a run's files: a crash leaves the old file or the new one."""
    with Folder.open(path.parent) as folder:
        folder.write(path.name, data)
