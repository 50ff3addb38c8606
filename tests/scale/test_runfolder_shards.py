"""A run folder's shards are hostile until checked: a pyarrow with
CVE-2023-47248, extension types, damaged listed shards (played again), shards
that claim more rows than listed, of another shape, or whose values are not
their games; and reading a run holds only its result and one shard. The
other cases are in tests/scale/test_runfolder_*.py."""

from __future__ import annotations

import pathlib
from importlib.metadata import requires
from typing import Any

import numpy as np
import pytest

from tests.support.processes import traced_in_a_fresh_process
from tests.support.runfolders import (
    cli,
    digest,
    manifest_of,
    pa,
    pq,
    replace_shard_file,
    resumes_to_the_reference,
    selfplay_cli,
    table_bytes,
    write_manifest,
)
from wts.runtime.files import RunFolderError
from wts.scale.data import iter_shards
from wts.scale.selfplay import load

# --- 2. pyarrow's CVE-2023-47248, and extension types --------------------------------


def test_every_extra_requires_a_pyarrow_without_cve_2023_47248() -> None:
    found = [r for r in requires("wts") or () if r.startswith("pyarrow")]
    assert found
    for requirement in found:
        assert "pyarrow>=14.0.1" in requirement.replace(" ", ""), requirement


class _Opaque(pa.ExtensionType):
    def __init__(self) -> None:
        super().__init__(pa.int16(), "wts-test.opaque")

    def __arrow_ext_serialize__(self) -> bytes:
        return b""

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type: Any, serialized: bytes) -> _Opaque:
        return cls()


@pytest.mark.parametrize("registered", [True, False])
def test_a_shard_with_an_extension_type_column_is_refused(
        run: pathlib.Path, registered: bool) -> None:
    table = pq.read_table(run / "examples" / "shard-00000.parquet")
    column = pa.ExtensionArray.from_storage(_Opaque(), table["move"].combine_chunks())
    pa.register_extension_type(_Opaque())
    try:
        replace_shard_file(run, "examples", 0,
                           table_bytes(table.set_column(7, "move", column)))
    finally:
        pa.unregister_extension_type("wts-test.opaque")
    if registered:
        pa.register_extension_type(_Opaque())
    try:
        with pytest.raises(RunFolderError, match="extension type"):
            load(run)
    finally:
        if registered:
            pa.unregister_extension_type("wts-test.opaque")


# --- 5. Damaged listed shards are played again ---------------------------------------


@pytest.mark.parametrize("damage", ["flipped byte", "cut short", "empty", "deleted"])
@pytest.mark.parametrize("folder", ["games", "examples"])
def test_a_damaged_listed_shard_is_refused_then_played_again(
        run: pathlib.Path, finished_run: pathlib.Path, damage: str, folder: str) -> None:
    path = run / folder / "shard-00001.parquet"
    data = bytearray(path.read_bytes())
    if damage == "flipped byte":
        data[len(data) // 2] ^= 0x40
        path.write_bytes(bytes(data))
    elif damage == "cut short":
        path.write_bytes(bytes(data[:-100]))
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        path.unlink()
    with pytest.raises(RunFolderError, match="shard 1 is listed but cannot be read"):
        load(run)
    resumes_to_the_reference(run, finished_run)


# --- 10, 11. Memory bounded by what is asked -----------------------------------------


def test_a_shard_claiming_more_rows_than_listed_is_refused_before_reading(
        run: pathlib.Path) -> None:
    rows = 2_000_000  # about 1.4 GB uncompressed, a few kilobytes on disk
    schema = pq.read_schema(run / "examples" / "shard-00000.parquet")
    columns = []
    for field in schema:
        if field.name == "agent":
            columns.append(pa.DictionaryArray.from_arrays(
                pa.array(np.zeros(rows, np.int8)), pa.array(["random"])))
        elif isinstance(field.type, pa.FixedSizeListType):
            width = field.type.list_size
            values = pa.array(np.zeros(rows * width, field.type.value_type.to_pandas_dtype()))
            columns.append(pa.FixedSizeListArray.from_arrays(values, width))
        else:
            columns.append(pa.array(np.zeros(rows, field.type.to_pandas_dtype())))
    data = table_bytes(pa.Table.from_arrays(columns, schema=schema))
    del columns
    assert len(data) < 1 << 20
    replace_shard_file(run, "examples", 0, data)
    before = pa.total_allocated_bytes()
    with pytest.raises(RunFolderError, match="2,000,000 rows where the manifest lists"):
        load(run)
    assert pa.total_allocated_bytes() - before < 1 << 20


@pytest.mark.parametrize("change", ["missing column", "wrong width", "wrong type"])
def test_a_shard_of_another_shape_is_refused_by_name(
        run: pathlib.Path, finished_run: pathlib.Path, change: str) -> None:
    table = pq.read_table(run / "examples" / "shard-00000.parquet")
    if change == "missing column":
        table = table.drop_columns(["policy"])
    elif change == "wrong width":
        flat = table["policy"].combine_chunks().flatten()
        table = table.set_column(6, "policy", pa.FixedSizeListArray.from_arrays(
            pa.concat_arrays([flat, flat]), 162))
    else:
        table = table.set_column(7, "move", table["move"].cast(pa.int32()))
    replace_shard_file(run, "examples", 0, table_bytes(table))
    with pytest.raises(RunFolderError, match="are not those of a wts selfplay examples file"):
        load(run)
    result = selfplay_cli(run)  # checked on resume too, and played again
    assert result.returncode == 0 and "Traceback" not in result.stderr, result
    assert "played again shard 0: " in result.stdout and "columns" in result.stdout
    assert digest(run) == digest(finished_run)


def test_load_holds_its_result_and_one_shard(tmp_path: pathlib.Path) -> None:
    peak, result = traced_in_a_fresh_process(f"""if True:
        import json, tracemalloc
        from wts.scale.selfplay import load, selfplay
        out = {str(tmp_path / "run")!r}
        selfplay(out, 24, agent="random", seed=2, shard_size=2)
        load(out)  # once first: what a first load imports and caches is not the result
        tracemalloc.start()
        data = load(out)
        peak = tracemalloc.get_traced_memory()[1]
        print(json.dumps([peak, sum(getattr(data, name).nbytes for name in (
            "game", "turn", "color", "seed", "observation", "policy", "move", "outcome",
            "symmetry"))]))
    """)
    assert peak < 1.3 * result + (256 << 10), f"peak {peak:,} for a result of {result:,}"


def test_iter_shards_gives_load_shard_by_shard(finished_run: pathlib.Path) -> None:
    for symmetries in (False, True):
        whole = load(finished_run, symmetries=symmetries)
        parts = list(iter_shards(finished_run, symmetries=symmetries))
        assert len(parts) == 3
        assert sum(len(p) for p in parts) == len(whole)
        assert [r for p in parts for r in p.records] == whole.records
        if not symmetries:
            for name in ("game", "observation", "policy", "move", "outcome"):
                assert np.array_equal(np.concatenate([getattr(p, name) for p in parts]),
                                      getattr(whole, name))
    rows = len(load(finished_run))
    augmented = load(finished_run, symmetries=True)
    assert np.array_equal(augmented.symmetry, np.repeat(np.arange(8), rows))


def test_the_data_repr_is_a_summary(finished_run: pathlib.Path) -> None:
    data = load(finished_run)
    assert repr(data) == f"<SelfplayData: {len(data):,} examples from 5 games of 'random'>"


# --- Hostile shards, manifests and addresses, found in review ------------------------


def test_a_record_longer_than_its_turns_can_write_is_refused(run: pathlib.Path) -> None:
    table = pq.read_table(run / "games" / "shard-00000.parquet")
    records = [("x" * (1 << 20)) for _ in range(table.num_rows)]  # a megabyte a record
    table = table.set_column(3, "record", pa.array(records, pa.string()))
    replace_shard_file(run, "games", 0, table_bytes(table))
    with pytest.raises(RunFolderError, match=r"record is longer than its turns can write|"
                       r"more than its 2 rows can hold"):
        load(run)


def test_load_checks_every_shard_before_it_makes_its_arrays(run: pathlib.Path) -> None:
    manifest = manifest_of(run)
    manifest["settings"]["max_turns"] = 1 << 20
    manifest["shards"]["2"]["examples"] = 2 * (1 << 20)  # far more than the file holds
    write_manifest(run, manifest)
    message, peak = traced_in_a_fresh_process(f"""if True:
        import json, tracemalloc
        from wts.runtime.files import RunFolderError
        from wts.scale.selfplay import load
        tracemalloc.start()
        try:
            load({str(run)!r})
        except RunFolderError as exc:
            print(json.dumps([str(exc), tracemalloc.get_traced_memory()[1]]))
    """)
    assert "rows where the manifest lists" in message
    assert peak < 8 << 20


@pytest.mark.parametrize("change, match", [
    ("move 500", "'move' has values outside 0 to 80"),
    ("move -3", "'move' has values outside 0 to 80"),
    ("outcome 99", "'outcome' has values outside -1 to 1"),
    ("every game 0", "'game' column is not two a turn of its games"),
    ("turns shuffled", "'turn' column is not two a turn of its games"),
])
def test_a_shard_whose_values_are_not_its_games_is_refused(
        run: pathlib.Path, change: str, match: str) -> None:
    table = pq.read_table(run / "examples" / "shard-00000.parquet")
    name, value = change.split(" ", 1)
    if name == "every":
        column, values = "game", np.zeros(table.num_rows, np.int64)
    elif name == "turns":
        column, values = "turn", table["turn"].to_numpy()[::-1].copy()
    else:
        column, values = name, table[name].to_numpy().copy()
        values[0] = int(value)
    index = table.column_names.index(column)
    table = table.set_column(index, column, pa.array(values, table.schema.field(column).type))
    replace_shard_file(run, "examples", 0, table_bytes(table))
    with pytest.raises(RunFolderError, match=match):
        load(run, symmetries=True)


def test_a_column_name_with_control_characters_stays_one_line(
        run: pathlib.Path, finished_run: pathlib.Path) -> None:
    table = pq.read_table(run / "examples" / "shard-00000.parquet")
    table = table.rename_columns(["move\x1b[2J\nfake line\r", *table.column_names[1:]])
    replace_shard_file(run, "examples", 0, table_bytes(table))
    result = cli("fit-prior", str(run))
    assert result.returncode == 1 and "\x1b" not in result.stderr, result
    assert len(result.stderr.strip().splitlines()) == 1 and "\\x1b[2J\\n" in result.stderr
    result = selfplay_cli(run)
    assert "\x1b" not in result.stdout and "played again shard 0: " in result.stdout
    assert digest(run) == digest(finished_run)
