"""A self-play run's examples as numpy arrays: :func:`load` and :func:`iter_shards`.

Only the shards the manifest lists are read, each file checked against the
manifest before Parquet reads it (:meth:`RunFolder.read_shard`). :func:`load`
checks every shard first, then fills arrays made once at the size found, one
shard at a time, so it holds the result and the run's compressed files, not a
copy of everything;
:func:`iter_shards` holds one shard at a time, for runs larger than memory.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from wts.engine.symmetry import Symmetry, transform_masks, transform_planes
from wts.runtime.files import RunFolderError
from wts.scale import shards
from wts.scale.runfolder import RunFolder, run_path

__all__ = ["SelfplayData", "load", "iter_shards"]

# The example columns and their dtypes, in the order SelfplayData holds them.
_COLUMNS = {"game": np.int64, "turn": np.int32, "color": np.int8, "seed": np.uint64,
            "observation": np.uint8, "policy": np.float32, "move": np.int16,
            "outcome": np.int8}
_WIDTHS = {"observation": shards.PLANES, "policy": 81}
_SHAPES = {"observation": (4, 9, 9), "policy": (81,)}


@dataclass
class SelfplayData:
    """A run's examples as numpy arrays, one row an example (see
    :mod:`wts.scale.selfplay` for the columns); ``symmetry`` is the
    :class:`wts.Symmetry` applied to the row (0 when the data was loaded
    without augmentation)."""

    game: npt.NDArray[np.int64]
    turn: npt.NDArray[np.int32]
    color: npt.NDArray[np.int8]
    seed: npt.NDArray[np.uint64]
    observation: npt.NDArray[np.uint8]   # (n, 4, 9, 9)
    policy: npt.NDArray[np.float32]      # (n, 81)
    move: npt.NDArray[np.int16]
    outcome: npt.NDArray[np.int8]
    symmetry: npt.NDArray[np.uint8]
    records: list[str]                   # each game's record, in game order
    game_turns: npt.NDArray[np.int32]    # each game's length, in game order
    agent: str

    def __len__(self) -> int:
        return len(self.game)

    def __repr__(self) -> str:
        games = len(self.records)
        images = " under 8 symmetries" if len(self) and self.symmetry.any() else ""
        return (f"<SelfplayData: {len(self):,} examples{images} from {games:,} "
                f"game{'' if games == 1 else 's'} of {self.agent!r}>")


def _empty(rows: int) -> dict[str, npt.NDArray[Any]]:
    return {name: np.empty((rows, *_SHAPES.get(name, ())), dtype=dtype)
            for name, dtype in _COLUMNS.items()}


def _fill(arrays: dict[str, npt.NDArray[Any]], start: int, table: Any,
          symmetry: int) -> None:
    """Rows ``start`` on of ``arrays``: the examples of one shard's table, seen
    through ``symmetry``."""
    rows = table.num_rows
    for name in _COLUMNS:
        column = table[name].combine_chunks()
        if name in _WIDTHS:
            values = column.flatten().to_numpy().reshape(rows, *_SHAPES[name])
        else:
            values = column.to_numpy()
        if symmetry and name == "observation":
            values = transform_planes(values, Symmetry(symmetry))
        elif symmetry and name == "policy":
            values = transform_masks(values, Symmetry(symmetry))
        elif symmetry and name == "move":
            values = _SQUARE_MAPS[symmetry][values]
        arrays[name][start:start + rows] = values


_SQUARE_MAPS = np.array([[Symmetry(s).square(sq) for sq in range(81)] for s in range(8)],
                        dtype=np.int16)


def _shard_data(tables: dict[str, Any], agent: str, symmetries: bool) -> SelfplayData:
    rows = tables["examples"].num_rows
    images = 8 if symmetries else 1
    arrays = _empty(rows * images)
    for s in range(images):
        _fill(arrays, s * rows, tables["examples"], s)
    chosen = np.repeat(np.arange(images, dtype=np.uint8), rows)
    return SelfplayData(**arrays, symmetry=chosen,
                        records=tables["games"]["record"].to_pylist(),
                        game_turns=tables["games"]["turns"].to_numpy().astype(np.int32),
                        agent=agent)


def _unreadable(shard: int, exc: RunFolderError) -> RunFolderError:
    return RunFolderError(f"shard {shard} is listed but cannot be read: {exc}; the same "
                          "wts selfplay command plays it again")


def _files(folder: RunFolder, manifest: dict[str, Any], shard: int) -> dict[str, bytes]:
    try:
        return folder.read_files(manifest, shard)
    except RunFolderError as exc:
        raise _unreadable(shard, exc) from None


def _read(folder: RunFolder, manifest: dict[str, Any], shard: int, *,
          files: dict[str, bytes] | None = None, check_only: bool = False) -> dict[str, Any]:
    if files is None:
        files = _files(folder, manifest, shard)
    try:
        return folder.decode_shard(manifest, shard, files, check_only=check_only)
    except RunFolderError as exc:
        raise _unreadable(shard, exc) from None


def iter_shards(path: str | os.PathLike[str], *,
                symmetries: bool = False) -> Iterator[SelfplayData]:
    """The run's finished shards one at a time, in game order, each as
    :class:`SelfplayData` (with ``symmetries=True``, each example 8 times, as
    :func:`load`): memory for one shard, whatever the run's size."""
    shards.pyarrow()
    with RunFolder(run_path(path), create=False) as folder:
        manifest = folder.manifest()
        agent = manifest["settings"]["agent"]
        for shard in sorted(int(k) for k in manifest["shards"]):
            yield _shard_data(_read(folder, manifest, shard), agent, symmetries)


def load(path: str | os.PathLike[str], *, symmetries: bool = False) -> SelfplayData:
    """The examples of the finished shards of the run at ``path``, in game order;
    with ``symmetries=True``, each example 8 times, once per :class:`wts.Symmetry`
    (observation, policy and move transformed together; all the examples under
    symmetry 0, then all under symmetry 1, ...), for augmentation.

    A listed shard whose files are missing, damaged or not what the manifest
    records raises :class:`wts.runtime.files.RunFolderError` (a ``wts.WtsError``)
    naming the file; the same ``wts selfplay`` command plays it again."""
    shards.pyarrow()
    with RunFolder(run_path(path), create=False) as folder:
        manifest = folder.manifest()
        listed = sorted(int(k) for k in manifest["shards"])
        # Every shard checked before anything is made at the size the
        # manifest states; its compressed bytes kept for the second pass.
        files = {}
        for shard in listed:
            files[shard] = _files(folder, manifest, shard)
            _read(folder, manifest, shard, files=files[shard], check_only=True)
        rows = sum(manifest["shards"][str(k)]["examples"] for k in listed)
        images = 8 if symmetries else 1
        try:
            arrays = _empty(rows * images)
        except MemoryError:
            raise RunFolderError(f"{folder.path}: {rows * images:,} examples do not fit in "
                                 "memory; read the run shard by shard with iter_shards"
                                 ) from None
        records: list[str] = []
        turns: list[npt.NDArray[np.int32]] = []
        start = 0
        for shard in listed:
            tables = _read(folder, manifest, shard, files=files.pop(shard))
            for s in range(images):
                _fill(arrays, s * rows + start, tables["examples"], s)
            start += tables["examples"].num_rows
            records += tables["games"]["record"].to_pylist()
            turns.append(tables["games"]["turns"].to_numpy().astype(np.int32))
    return SelfplayData(**arrays, symmetry=np.repeat(np.arange(images, dtype=np.uint8), rows),
                        records=records,
                        game_turns=np.concatenate(turns) if turns else np.zeros(0, np.int32),
                        agent=manifest["settings"]["agent"])
