"""A self-play run folder is hostile until checked: links planted in a shared
folder, FIFOs, damaged or hostile shards, hand-edited manifests, failed games,
other versions, faults of the disk. Each case is refused with a ``wts.WtsError``
naming the file (one line from ``wts selfplay``), writes nothing through a
link, and leaves the folder resumable to the same bytes as a run never
disturbed. tests/test_runfolder_crashes.py kills and powers off runs."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap
import tracemalloc
from importlib.metadata import requires
from typing import Any

import numpy as np
import pytest

import wts
from wts.scale import files
from wts.scale import selfplay as selfplay_module
from wts.scale.backends import run_chunks
from wts.scale.data import iter_shards
from wts.scale.files import RunFolderError
from wts.scale.selfplay import GameFailedError, RunEnvironmentError, load, selfplay

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="links, FIFOs and locks are POSIX")
RUN = dict(agent="random", seed=4, shard_size=2)
GAMES = 5


def digest(out: pathlib.Path) -> dict[str, str]:
    """Every file of a run but its lock, by path: what must be byte-identical."""
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and p.name != ".lock"}


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("reference") / "run"
    selfplay(out, GAMES, **RUN)
    return out


@pytest.fixture
def run(reference: pathlib.Path, tmp_path: pathlib.Path) -> pathlib.Path:
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    return out


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
    return subprocess.run(
        [sys.executable, "-c", "import sys; from wts.interfaces.cli import main; "
         "sys.exit(main(sys.argv[1:]))", *args],
        capture_output=True, text=True, timeout=120,
        env=None if env is None else {**os.environ, **env})


def selfplay_cli(out: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return cli("selfplay", "--agent", "random", "--games", str(GAMES), "--seed", "4",
               "--shard-size", "2", "--out", str(out), "--no-progress")


def one_line_error(result: subprocess.CompletedProcess[str], match: str) -> None:
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wts selfplay: "), result.stderr
    assert match in lines[0], lines[0]


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
        tmp_path: pathlib.Path, reference: pathlib.Path, planted: str) -> None:
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
        assert digest(out) == digest(reference)
    assert sorted(os.listdir(elsewhere)) == ["victim"]
    assert victim.read_text() == "precious"


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
    result = subprocess.run([sys.executable, "-c", f"out = {str(out)!r}\n" + code],
                            capture_output=True, text=True, timeout=60)
    assert result.stdout.startswith("RunFolderError") and "not a regular file" in result.stdout


def test_a_listed_shard_replaced_by_a_folder_is_played_again(
        run: pathlib.Path, reference: pathlib.Path) -> None:
    path = run / "games" / "shard-00001.parquet"
    path.unlink()
    path.mkdir()
    with pytest.raises(RunFolderError, match="not a regular file"):
        load(run)
    path.rmdir()  # a folder is not removed for the user
    resumes_to_the_reference(run, reference)


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


# --- 5. Damaged listed shards are played again ---------------------------------------


@pytest.mark.parametrize("damage", ["flipped byte", "cut short", "empty", "deleted"])
@pytest.mark.parametrize("folder", ["games", "examples"])
def test_a_damaged_listed_shard_is_refused_then_played_again(
        run: pathlib.Path, reference: pathlib.Path, damage: str, folder: str) -> None:
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
    resumes_to_the_reference(run, reference)


# --- 6. Failed games are games not yet played ----------------------------------------


_real_play_game = selfplay_module._play_game


def _fail_game_3_once(flag: pathlib.Path) -> Any:
    def play(spec: str, index: int, seeds: tuple[int, int], max_turns: int) -> Any:
        if index == 3 and not flag.exists():
            flag.write_text("failed")
            raise RuntimeError("a passing fault")
        return _real_play_game(spec, index, seeds, max_turns)
    return play


def test_a_skipped_game_is_played_when_the_run_resumes(
        tmp_path: pathlib.Path, reference: pathlib.Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selfplay_module, "_play_game", _fail_game_3_once(tmp_path / "flag"))
    out = tmp_path / "run"
    report = selfplay(out, GAMES, on_error="skip", **RUN)
    assert [f.game for f in report.failures] == [3] and report.games == 4
    assert manifest_of(out)["complete"] is False
    report = selfplay(out, GAMES, on_error="stop", **RUN)  # stop: nothing fails now
    assert report.played == 2 and not report.failures
    assert manifest_of(out)["complete"] is True
    assert digest(out) == digest(reference)


def test_a_game_that_fails_again_on_resume_stops_a_stop_run(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def always(spec: str, index: int, seeds: tuple[int, int], max_turns: int) -> Any:
        if index == 3:
            raise RuntimeError("a lasting fault")
        return _real_play_game(spec, index, seeds, max_turns)

    monkeypatch.setattr(selfplay_module, "_play_game", always)
    out = tmp_path / "run"
    selfplay(out, GAMES, on_error="skip", **RUN)
    with pytest.raises(GameFailedError, match="game 3"):
        selfplay(out, GAMES, on_error="stop", **RUN)


@pytest.mark.parametrize("error", [ImportError("no module named 'pyspiel'"), MemoryError(),
                                   OSError(errno.ENOSPC, "No space left on device")])
@pytest.mark.parametrize("on_error", ["stop", "skip"])
def test_an_error_of_the_machine_stops_the_run_and_fails_no_game(
        tmp_path: pathlib.Path, reference: pathlib.Path, monkeypatch: pytest.MonkeyPatch,
        error: BaseException, on_error: str) -> None:
    def play(spec: str, index: int, seeds: tuple[int, int], max_turns: int) -> Any:
        if index == 3:
            raise error
        return _real_play_game(spec, index, seeds, max_turns)

    monkeypatch.setattr(selfplay_module, "_play_game", play)
    out = tmp_path / "run"
    with pytest.raises(RunEnvironmentError, match=f"game 3 .*{type(error).__name__}"):
        selfplay(out, GAMES, on_error=on_error, **RUN)
    assert sorted(manifest_of(out)["shards"]) == ["0"]
    monkeypatch.setattr(selfplay_module, "_play_game", _real_play_game)
    resumes_to_the_reference(out, reference)


# --- 7. Hand-edited manifests --------------------------------------------------------


def _edit(manifest: dict[str, Any], how: str) -> None:
    shards = manifest["shards"]
    if how in ("01", "\u0661", "\u00b2", "+1", " 1", "1.0", "-0"):
        shards[how] = shards["1"]
    elif how == "negative examples":
        shards["1"]["examples"] = -4
    elif how == "boolean games":
        shards["2"]["games"] = True
    elif how == "too many examples":
        shards["1"]["examples"] = 2 * 1000 * 2 + 2
    elif how == "games and failures disagree":
        shards["1"]["games"] = 1
    elif how == "a failed game outside the shard":
        shards["1"]["failed"] = [{"game": 0, "seeds": [1, 2], "error": "x"}]
        shards["1"]["games"] = 1
    elif how == "a failed entry that is a string":
        shards["1"]["failed"] = ["game 3"]
    elif how == "a bad checksum":
        shards["1"]["files"]["games"]["sha256"] = "z" * 64
    elif how == "an unknown key":
        manifest["extra"] = 1
    elif how == "a version with a newline":
        shards["0"]["versions"]["wts"] = "0.1\n"
    elif how == "a negative seed":
        manifest["settings"]["seed"] = -1


@pytest.mark.parametrize("how", [
    "01", "\u0661", "\u00b2", "+1", " 1", "1.0", "-0", "negative examples", "boolean games",
    "too many examples", "games and failures disagree", "a failed game outside the shard",
    "a failed entry that is a string", "a bad checksum", "an unknown key",
    "a version with a newline", "a negative seed"])
def test_a_hand_edited_manifest_is_refused_by_name(run: pathlib.Path, how: str) -> None:
    manifest = manifest_of(run)
    _edit(manifest, how)
    write_manifest(run, manifest)
    with pytest.raises(RunFolderError, match="damaged wts selfplay manifest"):
        load(run)
    with pytest.raises(RunFolderError, match="damaged wts selfplay manifest"):
        selfplay(run, GAMES, **RUN)


@pytest.mark.parametrize("text, match", [
    ("[" * 100_000 + "]" * 100_000, "objects and lists in 200,000 bytes"),
    (('{"' + "a" * 30 + '":') * 5000 + "1" + "}" * 5000, "nested too deep"),
    ('{"format": "wts-selfplay/2", "format": "wts-selfplay/2"}', "appears twice"),
    ('{"complete": NaN}', "not a JSON number"),
    (b"\xff\xfe".decode("latin-1"), "not a wts selfplay manifest"),
    ("1" * 5000, "not a wts selfplay manifest"),
])
def test_a_malformed_manifest_is_one_line_from_the_command(
        run: pathlib.Path, text: str, match: str) -> None:
    (run / "manifest.json").write_text(text, encoding="latin-1")
    with pytest.raises(RunFolderError, match=match):
        load(run)
    one_line_error(selfplay_cli(run), match)


def test_duplicate_keys_never_alias_a_shard(run: pathlib.Path) -> None:
    text = (run / "manifest.json").read_text()
    entry = json.dumps(manifest_of(run)["shards"]["1"])
    (run / "manifest.json").write_text(text.replace('"shards":{', f'"shards":{{"1":{entry},'))
    with pytest.raises(RunFolderError, match="appears twice"):
        load(run)


# --- 8. Other versions ---------------------------------------------------------------


def test_a_run_of_another_version_resumes_only_when_allowed(
        run: pathlib.Path, reference: pathlib.Path) -> None:
    manifest = manifest_of(run)
    del manifest["shards"]["2"]
    for entry in manifest["shards"].values():
        entry["versions"]["wts"] = "0.0.9"
    write_manifest(run, manifest)
    assert len(load(run)) > 0  # reading across versions is fine
    with pytest.raises(wts.ParameterError, match=r"played with wts 0\.0\.9.*mixed versions"):
        selfplay(run, GAMES, **RUN)
    assert selfplay(run, GAMES, mixed_versions=True, **RUN).played == 1
    versions = {k: e["versions"]["wts"] for k, e in manifest_of(run)["shards"].items()}
    assert versions == {"0": "0.0.9", "1": "0.0.9", "2": wts.__version__}


def test_each_shard_records_the_versions_that_played_it(reference: pathlib.Path) -> None:
    for entry in manifest_of(reference)["shards"].values():
        assert entry["versions"] == {"wts": wts.__version__}


# --- 9. Only its own temporary files are removed -------------------------------------


def test_only_its_own_leftovers_are_removed(
        run: pathlib.Path, reference: pathlib.Path) -> None:
    theirs = [".notes.tmp", ".manifest.json.1234.tmp", "games/.data.tmp",
              ".manifest.json.0123456789ABCDEF.tmp"]
    ours = [".manifest.json.0123456789abcdef.tmp",
            "games/.shard-00001.parquet.fedcba9876543210.tmp"]
    for name in theirs + ours:
        (run / name).write_text("left")
    selfplay(run, GAMES, **RUN)
    assert all((run / name).exists() for name in theirs)
    assert not any((run / name).exists() for name in ours)


# --- 10, 11. Memory bounded by what is asked -----------------------------------------


class _Enough(Exception):
    pass


def test_a_huge_run_makes_its_chunks_as_it_goes(tmp_path: pathlib.Path) -> None:
    seen = []

    def stop_after_two(progress: Any) -> None:
        seen.append(progress.games)
        if len(seen) == 2:
            raise _Enough

    tracemalloc.start()
    try:
        with pytest.raises(_Enough):
            selfplay(tmp_path / "run", 1 << 20, agent="random", shard_size=1,
                     progress=stop_after_two)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seen == [1, 2]
    assert peak < 20 << 20, f"{peak:,} bytes to start a run of 2**20 shards"


def test_the_process_backend_reads_chunks_as_workers_free_up() -> None:
    import itertools

    pulled = []

    def endless() -> Any:
        for value in itertools.count(1):
            pulled.append(value)
            yield value

    results = run_chunks(abs, endless(), backend="process", workers=2)
    first = [next(results) for _ in range(6)]
    results.close()  # type: ignore[attr-defined]
    assert len({value for _, value in first}) == 6
    assert len(pulled) <= 6 + 2 * 2  # those yielded, and two a worker in flight


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
        run: pathlib.Path, reference: pathlib.Path, change: str) -> None:
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
    assert digest(run) == digest(reference)


def test_load_holds_its_result_and_one_shard(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "run"
    selfplay(out, 24, agent="random", seed=2, shard_size=2)
    tracemalloc.start()
    try:
        data = load(out)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    result = sum(getattr(data, name).nbytes for name in (
        "game", "turn", "color", "seed", "observation", "policy", "move", "outcome",
        "symmetry"))
    assert peak < 1.3 * result + (256 << 10), f"peak {peak:,} for a result of {result:,}"


def test_iter_shards_gives_load_shard_by_shard(reference: pathlib.Path) -> None:
    for symmetries in (False, True):
        whole = load(reference, symmetries=symmetries)
        parts = list(iter_shards(reference, symmetries=symmetries))
        assert len(parts) == 3
        assert sum(len(p) for p in parts) == len(whole)
        assert [r for p in parts for r in p.records] == whole.records
        if not symmetries:
            for name in ("game", "observation", "policy", "move", "outcome"):
                assert np.array_equal(np.concatenate([getattr(p, name) for p in parts]),
                                      getattr(whole, name))
    rows = len(load(reference))
    augmented = load(reference, symmetries=True)
    assert np.array_equal(augmented.symmetry, np.repeat(np.arange(8), rows))


def test_the_data_repr_is_a_summary(reference: pathlib.Path) -> None:
    data = load(reference)
    assert repr(data) == f"<SelfplayData: {len(data):,} examples from 5 games of 'random'>"


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
    # A folder of Ray's own with no cluster in it, whatever else runs on the machine.
    result = cli("selfplay", "--agent", "random", "--games", "2", "--out",
                 str(tmp_path / "run"), "--backend", "ray", "--address", address,
                 env={"RAY_TMPDIR": str(tmp_path), "RAY_ADDRESS": ""})
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert address in result.stderr and "Ray cluster" in result.stderr


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
        tmp_path: pathlib.Path, reference: pathlib.Path, monkeypatch: pytest.MonkeyPatch,
        error: int, at: int) -> None:
    monkeypatch.setattr(files, "disk", FailingDisk(at, error))
    out = tmp_path / "run"
    with pytest.raises(RunFolderError, match=os.strerror(error)):
        selfplay(out, GAMES, **RUN)
    monkeypatch.setattr(files, "disk", files.Disk())
    assert not list(out.rglob("*.tmp"))
    resumes_to_the_reference(out, reference)


@posix_only
@pytest.mark.parametrize("odd, match", [
    (".lock is a folder", "lock"),
    ("games is a file", "not a folder"),
    ("manifest.json is a folder", "not a regular file"),
])
def test_an_odd_run_folder_is_one_line_from_the_command(
        tmp_path: pathlib.Path, reference: pathlib.Path, odd: str, match: str) -> None:
    out = tmp_path / "run"
    out.mkdir()
    name = odd.split()[0]
    if odd.endswith("a folder"):
        (out / name).mkdir()
    else:
        (out / name).write_text("")
    one_line_error(selfplay_cli(out), match)
    (out / name).rmdir() if (out / name).is_dir() else (out / name).unlink()
    resumes_to_the_reference(out, reference)


@posix_only
def test_a_read_only_run_folder_is_one_line_from_the_command(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    script = textwrap.dedent(f"""
        import errno, os, sys
        from wts.scale import files
        class ReadOnly(files.Disk):
            def open(self, name, flags, mode=0o666, *, dir_fd=None):
                if flags & os.O_CREAT:
                    raise OSError(errno.EROFS, os.strerror(errno.EROFS))
                return super().open(name, flags, mode, dir_fd=dir_fd)
        files.disk = ReadOnly()
        from wts.interfaces.cli import main
        sys.exit(main(["selfplay", "--agent", "random", "--games", "2", "--out", {str(out)!r}]))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120)
    one_line_error(result, "Read-only file system")


# --- 14. Agent specs with odd white space --------------------------------------------


def test_an_agent_spec_with_a_tab_or_newline_is_normalised_before_any_play(
        tmp_path: pathlib.Path) -> None:
    selfplay(tmp_path / "a", 1, agent="mcts:1,\tplayouts=8\n")
    assert load(tmp_path / "a").agent == "mcts:1,playouts=8"
    with pytest.raises(wts.ParameterError, match="white space or a control character"):
        selfplay(tmp_path / "b", 1, agent="mcts:1,policy=r\tm")
    assert not (tmp_path / "b").exists()


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
    import time

    # Ray's sockets live in its folder, whose path must be short.
    ray_dir = pathlib.Path(tempfile.mkdtemp(prefix="wts-ray-", dir="/tmp"))
    out = tmp_path / "run"
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; from wts.interfaces.cli import main; "
         "sys.exit(main(sys.argv[1:]))", "selfplay", "--agent", "mcts:1", "--games", "400",
         "--shard-size", "2", "--out", str(out), "--backend", "ray", "--workers", "2",
         "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "RAY_TMPDIR": str(ray_dir)})
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
    left = []
    for _ in range(100):  # Ray's processes may take a moment to go
        ps = subprocess.run(["ps", "-eo", "stat,args"], capture_output=True, text=True).stdout
        left = [line for line in ps.splitlines()
                if str(ray_dir) in line and not line.startswith("Z")]
        if not left:
            break
        time.sleep(0.2)
    assert not left, left


# --- Hostile shards, manifests and addresses, found in review ------------------------


def test_a_record_longer_than_its_turns_can_write_is_refused(run: pathlib.Path) -> None:
    table = pq.read_table(run / "games" / "shard-00000.parquet")
    records = [("x" * (1 << 20)) for _ in range(table.num_rows)]  # a megabyte a record
    table = table.set_column(3, "record", pa.array(records, pa.string()))
    replace_shard_file(run, "games", 0, table_bytes(table))
    with pytest.raises(RunFolderError, match=r"record is longer than its turns can write|"
                       r"more than its 2 rows can hold"):
        load(run)


def test_a_manifest_dense_with_lists_is_refused_before_it_is_parsed(run: pathlib.Path) -> None:
    (run / "manifest.json").write_text("[" + "[]," * 1_000_000 + "[]]")
    with pytest.raises(RunFolderError, match="objects and lists in"):
        load(run)


def test_a_run_of_too_many_shards_is_refused_before_anything_is_written(
        tmp_path: pathlib.Path) -> None:
    with pytest.raises(wts.ParameterError, match="take a larger shard_size"):
        selfplay(tmp_path / "run", 10**9, agent="random", shard_size=1)
    assert not (tmp_path / "run").exists()


def test_load_checks_every_shard_before_it_makes_its_arrays(run: pathlib.Path) -> None:
    manifest = manifest_of(run)
    manifest["settings"]["max_turns"] = 1 << 20
    manifest["shards"]["2"]["examples"] = 2 * (1 << 20)  # far more than the file holds
    write_manifest(run, manifest)
    tracemalloc.start()
    try:
        with pytest.raises(RunFolderError, match="rows where the manifest lists"):
            load(run)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
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
        run: pathlib.Path, reference: pathlib.Path) -> None:
    table = pq.read_table(run / "examples" / "shard-00000.parquet")
    table = table.rename_columns(["move\x1b[2J\nfake line\r", *table.column_names[1:]])
    replace_shard_file(run, "examples", 0, table_bytes(table))
    result = cli("fit-prior", str(run))
    assert result.returncode == 1 and "\x1b" not in result.stderr, result
    assert len(result.stderr.strip().splitlines()) == 1 and "\\x1b[2J\\n" in result.stderr
    result = selfplay_cli(run)
    assert "\x1b" not in result.stdout and "played again shard 0: " in result.stdout
    assert digest(run) == digest(reference)


def test_a_bad_option_value_is_refused_before_any_game(tmp_path: pathlib.Path) -> None:
    with pytest.raises(wts.ParameterError, match="policy"):
        selfplay(tmp_path / "run", 3, agent="mcts:1,policy=bogus", on_error="skip")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("out", ["run\0x", b"run", 5])
def test_a_bad_run_path_is_a_parameter_error(tmp_path: pathlib.Path, out: object) -> None:
    for call in (lambda: selfplay(out, 1, agent="random"),  # type: ignore[arg-type]
                 lambda: load(out), lambda: list(iter_shards(out))):  # type: ignore[arg-type]
        with pytest.raises(wts.ParameterError, match="a run's folder is a path"):
            call()


def test_one_agent_spelled_two_ways_is_one_run(tmp_path: pathlib.Path) -> None:
    selfplay(tmp_path, 1, agent="mcts:1, playouts=08, reuse=no")
    again = selfplay(tmp_path, 1, agent="MCTS:1,playouts=8,reuse=false")
    assert again.played == 0 and load(tmp_path).agent == "mcts:1,playouts=8,reuse=false"


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


def test_a_chunk_that_kills_its_worker_is_blamed_alone() -> None:
    from tests.tasks import kill_on_poison
    from wts.scale.backends import WorkerLostError

    chunks = ["ok0", "poison", "ok2", "ok3", "ok4"]
    finished = []
    with pytest.raises(WorkerLostError, match="chunk 1"):
        for index, value in run_chunks(kill_on_poison, chunks, backend="process", workers=2,
                                       retries=1):
            finished.append((index, value))
    # The chunks that shared a pool with it are played again, alone, first.
    assert {(2, "ok2"), (3, "ok3")} <= set(finished) and (1, "poison") not in finished
