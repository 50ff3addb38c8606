"""A self-play run's folder: its manifest and its shards' files, read and
written only through :class:`~wts.runtime.files.Folder` and checked on every read."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from wts.errors import ParameterError
from wts.runtime.files import Folder, RunFolderError
from wts.scale import manifest as manifests
from wts.scale import shards

__all__ = ["RunFolder", "run_path"]


def run_path(path: object) -> Path:
    """``path`` as a run folder's path, or the ParameterError saying why not."""
    text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    if not isinstance(text, str) or not text or "\0" in text:
        raise ParameterError(f"a run's folder is a path (str or os.PathLike of str), not "
                             f"{path!r}")
    return Path(text)


class RunFolder:
    """The folder of the run at ``path``: the run's folder and its ``games``
    and ``examples`` folders, held open while the object lives."""

    def __init__(self, path: Path, *, create: bool) -> None:
        self.path = path
        self.top = Folder.open(path, create=create)
        self._folders: dict[str, Folder] = {}
        if create:
            try:
                for name in manifests.FOLDERS:
                    self.folder(name, create=True)
            except BaseException:
                self.close()
                raise

    def folder(self, name: str, *, create: bool = False) -> Folder:
        """The ``games`` or ``examples`` folder, opened on first use."""
        if name not in self._folders:
            self._folders[name] = self.top.sub(name, create=create)
        return self._folders[name]

    def close(self) -> None:
        for folder in (*self._folders.values(), self.top):
            folder.close()

    def __enter__(self) -> RunFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def remove_leftovers(self) -> None:
        """The temporary files a killed run left (only this package's own)."""
        for folder in (self.top, *self._folders.values()):
            folder.remove_leftovers()

    def read_manifest(self) -> dict[str, Any] | None:
        """The checked manifest, or None where there is none yet."""
        data = self.top.read(manifests.NAME, manifests.MAX_BYTES)
        if data is None:
            return None
        return manifests.parse(data, str(self.path / manifests.NAME))

    def manifest(self) -> dict[str, Any]:
        """The checked manifest; a RunFolderError where there is none."""
        manifest = self.read_manifest()
        if manifest is None:
            raise RunFolderError(f"{self.path} holds no wts selfplay run "
                                 f"(no {manifests.NAME})")
        return manifest

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        self.top.write(manifests.NAME, manifests.dumps(manifest))

    def write_shard(self, played: shards.Played, agent: str) -> dict[str, Any]:
        """Both files of a played shard, on the disk; returns the manifest's
        entry for it (which the caller writes after)."""
        files = shards.encode(played, agent)
        entry_files = {}
        for folder, data in files.items():
            self.folder(folder).write(shards.name(played.shard), data)
            entry_files[folder] = {"bytes": len(data), "sha256": shards.digest(data)}
        failed = [{"game": f.game, "seeds": list(f.seeds), "error": f.error}
                  for f in played.failures]
        return {"games": len(played.games["game"]), "examples": len(played.examples["game"]),
                "failed": failed, "versions": dict(played.versions), "files": entry_files}

    def read_shard(self, manifest: dict[str, Any], shard: int, *,
                   check_only: bool = False) -> dict[str, Any]:
        """The two tables of listed shard ``shard``, each checked against the
        manifest (size, SHA-256, schema, rows, game indices) before it is read,
        and against each other: each game has two examples a turn, in turn
        order, black's then white's. A RunFolderError names the first fault.
        ``check_only`` decompresses only the columns the checks need."""
        return self.decode_shard(manifest, shard, self.read_files(manifest, shard),
                                 check_only=check_only)

    def read_files(self, manifest: dict[str, Any], shard: int) -> dict[str, bytes]:
        """The bytes of listed shard ``shard``'s two files, read up to the size
        the manifest records (checked by :meth:`decode_shard`)."""
        entry = manifest["shards"][str(shard)]
        files = {}
        for folder in manifests.FOLDERS:
            name = shards.name(shard)
            data = self.folder(folder).read(name, entry["files"][folder]["bytes"])
            if data is None:
                raise RunFolderError(f"{self.path / folder / name} (shard {shard}): missing")
            files[folder] = data
        return files

    def decode_shard(self, manifest: dict[str, Any], shard: int, files: dict[str, bytes], *,
                     check_only: bool = False) -> dict[str, Any]:
        """The tables of :meth:`read_files`' bytes, checked (see :meth:`read_shard`)."""
        settings = manifest["settings"]
        entry = manifest["shards"][str(shard)]
        failed = {item["game"] for item in entry["failed"]}
        games = [i for i in manifests.shard_games(settings, shard) if i not in failed]
        rows = {"games": entry["games"], "examples": entry["examples"]}
        tables = {}
        for folder in manifests.FOLDERS:
            where = f"{self.path / folder / shards.name(shard)} (shard {shard})"
            tables[folder] = shards.decode(files[folder], folder, entry["files"][folder],
                                           rows[folder], games, settings["max_turns"], where,
                                           columns=[] if check_only else None)
        turns = tables["games"]["turns"].to_numpy().astype(np.int64)
        examples = tables["examples"]
        where = f"{self.path} (shard {shard})"
        if 2 * int(turns.sum()) != entry["examples"]:
            raise RunFolderError(f"{where}: its games last {int(turns.sum()):,} turns, which "
                                 f"give {2 * int(turns.sum()):,} examples, not "
                                 f"{entry['examples']:,}")
        expected = {"game": np.repeat(np.array(games, dtype=np.int64), 2 * turns)}
        if not check_only:
            expected["turn"] = np.concatenate(
                [np.zeros(0, np.int32), *(np.repeat(np.arange(t, dtype=np.int32), 2)
                                          for t in turns)])
            expected["color"] = np.tile(np.array([0, 1], dtype=np.int8), int(turns.sum()))
        for name, values in expected.items():
            if not np.array_equal(examples[name].to_numpy(), values):
                raise RunFolderError(f"{where}: its examples' {name!r} column is not two a "
                                     "turn of its games, in order")
        return tables
