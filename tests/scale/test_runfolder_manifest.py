"""A run folder's manifest is hostile until checked: hand-edited, malformed,
with keys given twice, dense with lists, listing too many shards, or written
by another version of wts. Each is refused by name before anything is
written. The other cases are in tests/scale/test_runfolder_*.py."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

import wts
from tests.support.runfolders import (
    GAMES,
    RUN,
    manifest_of,
    one_line_error,
    selfplay_cli,
    write_manifest,
)
from wts.runtime.files import RunFolderError
from wts.scale.selfplay import load, selfplay

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
        run: pathlib.Path, finished_run: pathlib.Path) -> None:
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


def test_each_shard_records_the_versions_that_played_it(finished_run: pathlib.Path) -> None:
    for entry in manifest_of(finished_run)["shards"].values():
        assert entry["versions"] == {"wts": wts.__version__}


# --- Hostile shards, manifests and addresses, found in review ------------------------


def test_a_manifest_dense_with_lists_is_refused_before_it_is_parsed(run: pathlib.Path) -> None:
    (run / "manifest.json").write_text("[" + "[]," * 1_000_000 + "[]]")
    with pytest.raises(RunFolderError, match="objects and lists in"):
        load(run)


def test_a_run_of_too_many_shards_is_refused_before_anything_is_written(
        tmp_path: pathlib.Path) -> None:
    with pytest.raises(wts.ParameterError, match="take a larger shard_size"):
        selfplay(tmp_path / "run", 10**9, agent="random", shard_size=1)
    assert not (tmp_path / "run").exists()
