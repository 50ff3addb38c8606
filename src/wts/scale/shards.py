"""A shard's two Parquet files: made from a played shard, and checked when read.

A shard's files are bytes made here and checked here: their size and SHA-256
are recorded in the manifest beside them, and a file read back must have
that size and digest before Parquet reads a byte of it. Then its footer must
show exactly this module's schema (no extension type, whose reader could run
code), the row count the manifest states, and an uncompressed size a row of
that schema can have, before any column is decompressed; and its game indices
must be the shard's. A game's record may take a kilobyte and 64 bytes a turn
of its game, so a hostile record cannot make a small file large in memory.
What Parquet's pages declare of their own sizes is trusted as far as the
footer's sizes bound them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from wts.runtime.files import RunFolderError

__all__ = ["PLANES", "Played", "pyarrow", "encode", "decode", "name", "digest"]

#: An observation's bytes: 4 planes of 9 x 9.
PLANES = 4 * 81
# The most bytes a row may take before compression, with room for Parquet's
# own levels and headers: an example row holds about 680 bytes; a game row
# its record, which has headers and a line a turn.
_EXAMPLE_ROW_BYTES = 2048
_RECORD_BYTES = 1024
_RECORD_BYTES_A_TURN = 64
_SLACK_BYTES = 1 << 20


@dataclass
class Played:
    """What a worker sends back for one shard: plain arrays, cheap to pickle."""

    shard: int
    games: dict[str, Any]
    examples: dict[str, Any]
    failures: list[Any]
    versions: dict[str, str]


def pyarrow() -> Any:
    """pyarrow, or the ImportError saying which extra brings it."""
    try:
        import pyarrow as pa
        import pyarrow.parquet
    except ImportError as exc:
        raise ImportError("self-play data is Parquet: python -m pip install pyarrow "
                          "(the selfplay extra)") from exc
    return pa


def name(shard: int) -> str:
    """The file name of shard ``shard`` in each of its two folders."""
    return f"shard-{shard:05d}.parquet"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _schemas(pa: Any) -> dict[str, Any]:
    return {
        "games": pa.schema([
            ("game", pa.int64()), ("black_seed", pa.uint64()), ("white_seed", pa.uint64()),
            ("record", pa.string()), ("result", pa.string()), ("turns", pa.int32())]),
        "examples": pa.schema([
            ("game", pa.int64()), ("turn", pa.int32()), ("color", pa.int8()),
            ("seed", pa.uint64()), ("agent", pa.dictionary(pa.int8(), pa.string())),
            ("observation", pa.list_(pa.uint8(), PLANES)),
            ("policy", pa.list_(pa.float32(), 81)),
            ("move", pa.int16()), ("outcome", pa.int8())]),
    }


def _fixed(pa: Any, values: npt.NDArray[Any], width: int) -> Any:
    return pa.FixedSizeListArray.from_arrays(pa.array(values.reshape(-1)), width)


def encode(played: Played, agent: str) -> dict[str, bytes]:
    """The bytes of the shard's two files, by folder: the same bytes for the same games."""
    pa = pyarrow()
    import pyarrow.parquet as pq

    schemas = _schemas(pa)
    g = played.games
    e = played.examples
    rows = len(e["game"])
    tables = {
        "games": pa.table([
            pa.array(g["game"], pa.int64()), pa.array(g["black_seed"], pa.uint64()),
            pa.array(g["white_seed"], pa.uint64()), pa.array(g["record"], pa.string()),
            pa.array(g["result"], pa.string()), pa.array(g["turns"], pa.int32())],
            schema=schemas["games"]),
        "examples": pa.table([
            e["game"], e["turn"], e["color"], e["seed"],
            pa.DictionaryArray.from_arrays(pa.array(np.zeros(rows, dtype=np.int8)),
                                           pa.array([agent])),
            _fixed(pa, e["observation"], PLANES), _fixed(pa, e["policy"], 81),
            e["move"], e["outcome"]], schema=schemas["examples"]),
    }
    files = {}
    for folder, table in tables.items():
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink, compression="zstd")
        files[folder] = sink.getvalue().to_pybytes()
    return files


def decode(data: bytes, folder: str, expected: dict[str, Any], rows: int, games: list[int],
           max_turns: int, where: str, *, columns: list[str] | None = None) -> Any:
    """The table in ``data``, a file of ``folder`` (``"games"`` or
    ``"examples"``) that the manifest lists with ``expected`` (bytes, sha256)
    and ``rows`` rows of the games ``games``; a RunFolderError names the first
    thing wrong. ``columns`` reads only those (with ``game``, and a game's
    ``turns``, which the checks need). :meth:`RunFolder.read_shard` checks the
    two files against each other."""
    def bad(what: str) -> RunFolderError:
        return RunFolderError(f"{where}: {what}")

    if len(data) != expected["bytes"] or digest(data) != expected["sha256"]:
        raise bad(f"{len(data):,} bytes whose SHA-256 is not the one the manifest records "
                  "(damaged, cut short or replaced)")
    pa = pyarrow()
    import pyarrow.parquet as pq

    # One shard is small; Arrow's reader threads gain nothing on it and can
    # abort the interpreter at exit (std::terminate on a joinable thread).
    try:
        file = pq.ParquetFile(pa.BufferReader(data))
        schema = file.schema_arrow
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise bad(f"not a Parquet file ({exc})") from None
    wanted = _schemas(pa)[folder]
    for field in schema:
        if isinstance(field.type, pa.ExtensionType) or b"ARROW:extension:name" in (
                field.metadata or {}):
            raise bad(f"column {field.name!r} has an extension type, which is refused")
    if not schema.equals(wanted):
        found = ", ".join(f"{f.name!r}: {f.type}" for f in schema)
        raise bad(f"columns ({found}) are not those of a wts selfplay {folder} file")
    metadata = file.metadata
    if metadata.num_rows != rows:
        raise bad(f"{metadata.num_rows:,} rows where the manifest lists {rows:,}")
    sizes = [metadata.row_group(i).column(j) for i in range(metadata.num_row_groups)
             for j in range(metadata.num_columns)]
    read = None if columns is None else ["game", *(["turns"] if folder == "games" else []),
                                          *columns]
    try:
        if folder == "games":
            # A record's bytes follow its game's turns: the turns are read
            # first, and bound what the records may take uncompressed.
            turns = file.read(columns=["turns"], use_threads=False)["turns"].to_numpy()
            if rows and not (turns.min() >= 0 and turns.max() <= max_turns):
                raise bad(f"turns from {turns.min()} to {turns.max()}, outside 0 to "
                          f"{max_turns}")
            limit = rows * _RECORD_BYTES + _RECORD_BYTES_A_TURN * int(turns.sum())
        else:
            limit = rows * _EXAMPLE_ROW_BYTES
        size = sum(column.total_uncompressed_size for column in sizes)
        if not 0 <= size <= limit + _SLACK_BYTES:
            raise bad(f"{size:,} bytes uncompressed, more than its {rows:,} rows can hold")
        table = file.read(columns=list(dict.fromkeys(read)) if read is not None else None,
                          use_threads=False)
    except (OSError, ValueError, pa.ArrowException) as exc:
        if isinstance(exc, RunFolderError):
            raise
        raise bad(f"cannot be read ({exc})") from None
    if folder == "games" and table["game"].to_pylist() != games:
        raise bad("its games are not the ones the manifest lists")
    if folder == "games" and "record" in table.column_names:
        import pyarrow.compute as pc

        lengths = pc.binary_length(table["record"]).to_numpy(zero_copy_only=False)
        if np.any(lengths > _RECORD_BYTES + _RECORD_BYTES_A_TURN * table["turns"].to_numpy()):
            raise bad("a game's record is longer than its turns can write")
    if folder == "examples" and columns is None:
        for name, low, high in (("color", 0, 1), ("move", 0, 80), ("outcome", -1, 1)):
            values = table[name].to_numpy()
            if rows and not (low <= values.min() and values.max() <= high):
                raise bad(f"column {name!r} has values outside {low} to {high}")
    return table
