"""A self-play run's manifest: what it lists, checked field by field when read.

The manifest is the run's one record of what is finished: a shard is finished
exactly when the manifest lists it. It is JSON, and a hand may have edited it,
so it is read as hostile: every key is canonical ASCII, every number has its
type and range, every shard's counts agree with the run's settings, and
anything else is a :class:`~wts.runtime.files.RunFolderError` naming the field.

Its form (``"format": "wts-selfplay/2"``)::

    {"format": "wts-selfplay/2", "wts": "0.2.0", "complete": false,
     "settings": {"agent": "mcts:2", "games": 100, "seed": 0, "shard_size": 16,
                  "max_turns": 1000},
     "shards": {"0": {"games": 16, "examples": 2048, "failed": [],
                      "versions": {"wts": "0.2.0"},
                      "files": {"games": {"bytes": 9120, "sha256": "..."},
                                "examples": {"bytes": 61440, "sha256": "..."}}}}}

``failed`` lists the games of the shard that raised (``{"game", "seeds",
"error"}``); a shard with any is played again when the run is resumed.
"""

from __future__ import annotations

import json
import re
from typing import Any

from wts.errors import ParameterError
from wts.limits import MAX_GAMES, MAX_SELFPLAY_TURNS, SEED_MAX
from wts.players.specs import AgentSpec
from wts.runtime.files import RunFolderError

__all__ = ["FORMAT", "NAME", "MAX_BYTES", "FOLDERS", "new", "dumps", "parse",
           "shard_count", "shard_games", "max_examples"]

FORMAT = "wts-selfplay/2"
NAME = "manifest.json"
#: The most shards a run may have (a larger one takes a larger shard size):
#: its manifest stays under about 400 MB, rewritten after every shard.
MAX_SHARDS = 1 << 20
#: The largest manifest read.
MAX_BYTES = 1 << 30
#: A manifest's objects and lists: about one in 60 bytes when written here;
#: a denser one would take far more memory to parse than its size.
_MIN_BYTES_A_CONTAINER = 20
#: The folders a shard's two files live in.
FOLDERS = ("games", "examples")
#: The largest shard a run may ask for (games and turns: wts.limits).
MAX_SHARD_SIZE = 1 << 20
#: A recorded error message is cut to this many characters.
MAX_ERROR = 1000

_KEY = re.compile(r"0|[1-9][0-9]{0,18}")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_VERSION = re.compile(r"[0-9A-Za-z.+_-]{1,64}")
_TOP = {"format", "wts", "settings", "shards", "complete"}
_SETTINGS = ("agent", "games", "seed", "shard_size", "max_turns")
_ENTRY = {"games", "examples", "failed", "versions", "files"}


def new(settings: dict[str, Any], version: str) -> dict[str, Any]:
    """The manifest of a run not yet begun."""
    return {"format": FORMAT, "wts": version, "settings": settings, "shards": {},
            "complete": False}


def dumps(manifest: dict[str, Any]) -> bytes:
    """The manifest as the bytes written to the run's folder (stable for equal content)."""
    return (json.dumps(manifest, separators=(",", ":"), sort_keys=True) + "\n").encode("utf-8")


def shard_count(settings: dict[str, Any]) -> int:
    """How many shards the run's games fill."""
    games: int = settings["games"]
    size: int = settings["shard_size"]
    return -(-games // size)


def shard_games(settings: dict[str, Any], shard: int) -> range:
    """The indices of the games shard ``shard`` holds."""
    first = shard * settings["shard_size"]
    return range(first, min(settings["games"], first + settings["shard_size"]))


def max_examples(settings: dict[str, Any], games: int) -> int:
    """The most examples ``games`` games can give: two a turn."""
    turns: int = settings["max_turns"]
    return 2 * turns * games


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return result


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse(data: bytes, where: str) -> dict[str, Any]:
    """The manifest in ``data`` (read from ``where``), checked entry by entry."""
    containers = data.count(b"{") + data.count(b"[")
    if containers > len(data) // _MIN_BYTES_A_CONTAINER + 16:
        raise RunFolderError(f"{where}: not a wts selfplay manifest ({containers:,} objects "
                             f"and lists in {len(data):,} bytes)")
    try:
        manifest = json.loads(data.decode("utf-8"), object_pairs_hook=_refuse_duplicates,
                              parse_constant=_refuse_constant)
    except RecursionError:
        raise RunFolderError(f"{where}: not a wts selfplay manifest (nested too deep)") from None
    except ValueError as exc:  # bad UTF-8, bad JSON, a duplicate key, a huge number
        raise RunFolderError(f"{where}: not a wts selfplay manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        found = manifest.get("format") if isinstance(manifest, dict) else type(manifest).__name__
        older = " (written by an older wts: play the run again with this version)" if (
            found == "wts-selfplay/1") else ""
        raise RunFolderError(f"{where}: not a wts selfplay manifest (format {found!r}, "
                             f"expected {FORMAT!r}){older}")
    return _Checker(where).manifest(manifest)


def _is_int(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


class _Checker:
    def __init__(self, where: str) -> None:
        self.where = where

    def bad(self, what: str) -> RunFolderError:
        return RunFolderError(f"{self.where}: a damaged wts selfplay manifest: {what}")

    def keys(self, value: object, keys: set[str], what: str) -> dict[str, Any]:
        if not isinstance(value, dict) or set(value) != keys:
            raise self.bad(f"{what} must be an object with the keys {', '.join(sorted(keys))}, "
                           f"not {_short(value)}")
        return value

    def manifest(self, manifest: dict[str, Any]) -> dict[str, Any]:
        self.keys(manifest, _TOP, "the manifest")
        self.version(manifest["wts"], "wts")
        if type(manifest["complete"]) is not bool:
            raise self.bad(f"complete {_short(manifest['complete'])}")
        settings = self.settings(manifest["settings"])
        shards = manifest["shards"]
        if not isinstance(shards, dict):
            raise self.bad(f"shards {_short(shards)}")
        count = shard_count(settings)
        if count > MAX_SHARDS:
            raise self.bad(f"settings: {count:,} shards, more than the {MAX_SHARDS:,} a run "
                           "may have")
        for key, entry in shards.items():
            if not (_KEY.fullmatch(key) and int(key) < count):
                raise self.bad(f"shard {_short(key)} (the run has shards 0 to {count - 1}, "
                               "named in plain decimal)")
            self.entry(settings, int(key), entry)
        return manifest

    def settings(self, settings: object) -> dict[str, Any]:
        settings = self.keys(settings, set(_SETTINGS), "settings")
        ranges = {"games": (0, MAX_GAMES), "seed": (0, SEED_MAX),
                  "shard_size": (1, MAX_SHARD_SIZE), "max_turns": (1, MAX_SELFPLAY_TURNS)}
        for name, (low, high) in ranges.items():
            if not _is_int(settings[name], low, high):
                raise self.bad(f"settings: {name} {_short(settings[name])} (an integer from "
                               f"{low} to {high})")
        agent = settings["agent"]
        try:  # read without an engine's program, which may be elsewhere
            canonical = isinstance(agent, str) and str(AgentSpec.parse(agent)) == agent
        except ParameterError:
            canonical = False
        if not canonical:
            raise self.bad(f"settings: agent {_short(agent)}")
        return settings

    def version(self, value: object, what: str) -> None:
        if not (isinstance(value, str) and _VERSION.fullmatch(value)):
            raise self.bad(f"{what} version {_short(value)}")

    def entry(self, settings: dict[str, Any], shard: int, entry: object) -> None:
        entry = self.keys(entry, _ENTRY, f"shard {shard}")
        games = shard_games(settings, shard)
        failed = entry["failed"]
        if not isinstance(failed, list):
            raise self.bad(f"shard {shard}: failed {_short(failed)}")
        seen = set()
        for item in failed:
            item = self.keys(item, {"game", "seeds", "error"}, f"shard {shard}: a failed game")
            seeds = item["seeds"]
            if not (_is_int(item["game"], games.start, games.stop - 1)
                    and item["game"] not in seen
                    and isinstance(seeds, list) and len(seeds) == 2
                    and all(_is_int(s, 0, (1 << 64) - 1) for s in seeds)
                    and isinstance(item["error"], str) and len(item["error"]) <= MAX_ERROR):
                raise self.bad(f"shard {shard}: failed game {_short(item)}")
            seen.add(item["game"])
        played = len(games) - len(failed)
        if entry["games"] != played or type(entry["games"]) is not int:
            raise self.bad(f"shard {shard}: games {_short(entry['games'])} (the shard's "
                           f"{len(games)} games less {len(failed)} failed make {played})")
        examples = entry["examples"]
        if not (_is_int(examples, 0, max_examples(settings, played)) and examples % 2 == 0):
            raise self.bad(f"shard {shard}: examples {_short(examples)}")
        versions = entry["versions"]
        if not isinstance(versions, dict) or "wts" not in versions or not set(versions) <= {
                "wts", "open_spiel"}:
            raise self.bad(f"shard {shard}: versions {_short(versions)}")
        for name, value in versions.items():
            self.version(value, f"shard {shard}: {name}")
        files = self.keys(entry["files"], set(FOLDERS), f"shard {shard}: files")
        for folder in FOLDERS:
            file = self.keys(files[folder], {"bytes", "sha256"}, f"shard {shard}: {folder} file")
            if not (_is_int(file["bytes"], 1, MAX_BYTES)
                    and isinstance(file["sha256"], str) and _SHA256.fullmatch(file["sha256"])):
                raise self.bad(f"shard {shard}: {folder} file {_short(file)}")


def _short(value: object) -> str:
    try:
        text = repr(value)
    except RecursionError:
        return type(value).__name__
    return text if len(text) <= 80 else text[:77] + "..."
