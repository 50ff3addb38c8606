"""Self-play data for training: ``wts selfplay`` and :func:`selfplay`, :func:`load`.

An agent plays itself; every game is written as a game record, and every turn
as two training examples, one from each player's side. A run's folder::

    manifest.json                 the run's settings and its finished shards
    games/shard-00000.parquet     one row a game: index, seeds, record, result
    examples/shard-00000.parquet  one row a player a turn (columns below)

Shard ``k`` holds games ``k * shard_size`` to ``(k + 1) * shard_size - 1``.
Its two files are written whole and flushed to the disk, then the manifest
(:mod:`wts.scale.manifest`) lists the shard with each file's size and
SHA-256: a shard is finished exactly when the manifest lists it, and
:func:`load` reads only those, checking each file against the manifest
before reading it (:mod:`wts.scale.shards`). A run started again with the
same arguments checks every shard listed, plays again those that fail the
check or hold a game that raised, and plays the shards not listed; so a run
killed at any moment, or a machine that lost its power, loses no finished
game and writes none twice (:mod:`wts.runtime.files` says how).

Game ``i``'s two agents are seeded from (``seed``, ``i``, side) alone, and a
shard's files depend on its games alone, so every backend and every number of
workers writes the same bytes.

The example columns: ``game`` (int64), ``turn`` (int32, turns played before
the move), ``color`` (int8: 0 black, 1 white), ``seed`` (uint64, that
player's agent seed), ``agent`` (the agent spec), ``observation`` (4 x 9 x 9
uint8 planes from that player's side, as :func:`wts.env` gives them:
own turtles, opponent's turtles, eggs, egg age), ``policy`` (81 float32: the
search's final average strategy for MCTS, uniform over the legal squares for
the random agent, the chosen square for the greedy one), ``move`` (int16) and
``outcome`` (int8, from that player's side: 1 won, -1 lost, 0 drawn or cut
at ``max_turns``).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from wts._interrupts import interrupts_deferred
from wts._seeds import derive
from wts._version import __version__
from wts.engine.game import Game
from wts.engine.observation import observation_planes
from wts.engine.pieces import Color
from wts.errors import ParameterError, ParameterTypeError, WtsError
from wts.formats import record
from wts.limits import MATCH_TURNS, MAX_GAMES, MAX_SELFPLAY_TURNS
from wts.params import check_choice, check_int, check_seed
from wts.players.agents import MCTSAgent, RandomAgent, check_agent, make_agent
from wts.players.az import AZAgent
from wts.players.specs import AgentSpec
from wts.runtime.backends import check_backend, run_chunks
from wts.runtime.files import RunFolderError
from wts.scale import manifest as manifests
from wts.scale import shards
from wts.scale.data import SelfplayData, iter_shards, load
from wts.scale.runfolder import RunFolder, run_path

__all__ = ["selfplay", "load", "iter_shards", "SelfplayReport", "SelfplayProgress",
           "SelfplayData", "GameFailure", "GameFailedError", "RunEnvironmentError",
           "SHARD_SIZE", "ON_ERROR"]

#: Games a shard holds, unless told otherwise.
SHARD_SIZE = 16
#: What a game that raises does to the run: stop it, or skip the game.
ON_ERROR = ("stop", "skip")
# Errors of the machine, not of the game: they stop the run whatever on_error says.
_ENVIRONMENT_ERRORS = (ImportError, MemoryError, OSError)


class GameFailedError(WtsError, RuntimeError):
    """A game raised and the run was told to stop on errors."""


class RunEnvironmentError(WtsError, RuntimeError):
    """A game could not be played for a reason of the machine's, not the
    game's (a missing extra, memory, the file system): the run stops, and
    resumes once that is fixed; no game is counted as failed."""


@dataclass(frozen=True)
class GameFailure:
    """A game that raised: its index, its two agents' seeds and the error."""

    game: int
    seeds: tuple[int, int]
    error: str


@dataclass(frozen=True)
class _Chunk:
    shard: int
    first: int
    stop: int
    agent: AgentSpec
    seed: int
    max_turns: int


def _versions(agent: AgentSpec) -> dict[str, str]:
    """The versions that decide an agent's moves: wts's, and OpenSpiel's for its agent."""
    versions = {"wts": __version__}
    if agent.name == "openspiel-mcts":
        from importlib.metadata import PackageNotFoundError, version

        # Without OpenSpiel the agent's own ImportError says what is missing.
        with contextlib.suppress(PackageNotFoundError):
            versions["open_spiel"] = version("open_spiel")
    return versions


def _policy(agent: Any, game: Game, square: int, color: Color) -> npt.NDArray[np.float32]:
    policy = np.zeros(81, dtype=np.float32)
    if isinstance(agent, AZAgent) and agent.last_search is not None:
        policy[:] = agent.strategy_of(color)
    elif isinstance(agent, MCTSAgent) and agent.last_search is not None:
        policy[:] = agent.last_search.strategy
    elif isinstance(agent, RandomAgent):
        legal = game.legal_moves()
        policy[legal] = 1.0 / len(legal)
    else:
        policy[square] = 1.0
    return policy


def _play_game(spec: AgentSpec, index: int, seeds: tuple[int, int],
               max_turns: int) -> tuple[Game, list[tuple[Any, ...]]]:
    agents = [make_agent(spec, seed=seeds[side]) for side in (0, 1)]
    # The network player searches once a turn for both sides (its seed black's).
    joint = agents[0] if isinstance(agents[0], AZAgent) else None
    game = Game()
    rows: list[tuple[Any, ...]] = []
    try:
        while not game.is_over() and game.turn < max_turns:
            turn_rows = []
            moves = list(joint.select_both(game)) if joint is not None else []
            for side, color in enumerate((Color.BLACK, Color.WHITE)):
                agent = joint if joint is not None else agents[side]
                square = moves[side] if joint is not None else agent.select(game, color)
                if joint is None:
                    moves.append(square)
                turn_rows.append((game.turn, side, seeds[side], observation_planes(game, color),
                                  _policy(agent, game, square, color), square))
            game.play(*moves)
            rows += turn_rows
    finally:
        for agent in agents:  # an engine program ends with its game
            close = getattr(agent, "close", None)
            if close is not None:
                close()
    return game, rows


def play_shard(chunk: _Chunk) -> shards.Played:
    """Play the games of one shard (a backend task: runs in any worker)."""
    games: dict[str, list[Any]] = {"game": [], "black_seed": [], "white_seed": [],
                                   "record": [], "result": [], "turns": []}
    columns: dict[str, list[Any]] = {name: [] for name in (
        "game", "turn", "color", "seed", "observation", "policy", "move", "outcome")}
    failures = []
    for index in range(chunk.first, chunk.stop):
        seeds = (derive(chunk.seed, index, 0), derive(chunk.seed, index, 1))
        try:
            game, rows = _play_game(chunk.agent, index, seeds, chunk.max_turns)
        except _ENVIRONMENT_ERRORS as exc:
            raise RunEnvironmentError(
                f"game {index} could not be played here ({type(exc).__name__}: {exc}); the "
                "run stops, and the same command resumes it once that is fixed") from None
        except Exception as exc:  # reported with its seeds; the run decides
            error = f"{type(exc).__name__}: {exc}"[:manifests.MAX_ERROR]
            failures.append(GameFailure(index, seeds, error))
            continue
        status = game.status
        headers = {"Event": "wts selfplay", "Round": str(index), "Black": str(chunk.agent),
                   "White": str(chunk.agent)}
        games["game"].append(index)
        games["black_seed"].append(seeds[0])
        games["white_seed"].append(seeds[1])
        games["record"].append(record.dumps(game, headers=headers))
        games["result"].append(record.result_of(game))
        games["turns"].append(game.turn)
        for turn, side, seed, planes, policy, move in rows:
            color = (Color.BLACK, Color.WHITE)[side]
            columns["game"].append(index)
            columns["turn"].append(turn)
            columns["color"].append(side)
            columns["seed"].append(seed)
            columns["observation"].append(planes)
            columns["policy"].append(policy)
            columns["move"].append(move)
            columns["outcome"].append(status.reward(color))
    examples = {
        "game": np.array(columns["game"], dtype=np.int64),
        "turn": np.array(columns["turn"], dtype=np.int32),
        "color": np.array(columns["color"], dtype=np.int8),
        "seed": np.array(columns["seed"], dtype=np.uint64),
        "observation": np.array(columns["observation"], dtype=np.uint8).reshape(
            -1, shards.PLANES),
        "policy": np.array(columns["policy"], dtype=np.float32).reshape(-1, 81),
        "move": np.array(columns["move"], dtype=np.int16),
        "outcome": np.array(columns["outcome"], dtype=np.int8),
    }
    return shards.Played(chunk.shard, games, examples, failures, _versions(chunk.agent))


# --- Running ---------------------------------------------------------------------


@dataclass(frozen=True)
class SelfplayProgress:
    """How far a run is, for a progress display."""

    games: int        # games finished, this run and before
    total: int        # games the run plays in all
    examples: int     # examples written
    seconds: float    # since this run started
    new_games: int    # games played by this run (for the rate)


@dataclass
class SelfplayReport:
    """What :func:`selfplay` did."""

    out: Path
    games: int
    examples: int
    shards: int
    played: int          # games played by this call (the rest were already written)
    seconds: float
    failures: list[GameFailure] = field(default_factory=list)
    replayed: list[str] = field(default_factory=list)  # listed shards played again, and why

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds else 0.0


def selfplay(
    out: str | os.PathLike[str],
    games: int,
    *,
    agent: str | AgentSpec = "mcts:2",
    seed: int = 0,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    shard_size: int = SHARD_SIZE,
    max_turns: int = MATCH_TURNS,
    on_error: str = "stop",
    mixed_versions: bool = False,
    progress: Callable[[SelfplayProgress], None] | None = None,
) -> SelfplayReport:
    """Play ``games`` self-play games of ``agent`` and write them to ``out``.

    Resumes a run ``out`` already holds (same arguments but the backend,
    workers and address, which change nothing in the data): every shard it
    lists is checked, and those that fail the check or hold a game that
    raised are played again. ``on_error``: ``"stop"`` raises
    :class:`GameFailedError` naming the first game that raised, its index and
    seeds (the shards finished stay written); ``"skip"`` leaves such games
    out and lists them in the report and the manifest, and the run is not
    complete until a resume plays them. An error of the machine's (a missing
    extra, memory) raises :class:`RunEnvironmentError` either way. A run
    written by another version of wts (or of OpenSpiel, for its agent) is
    resumed only with ``mixed_versions=True``. ``progress`` is called after
    every shard.

    The same arguments give the same bytes, on any backend, except for an
    agent with a ``time_limit`` or ``clock`` option, whose searches depend on
    the machine's speed: its shards are all kept and none is written twice,
    but a shard played again differs.

    >>> import tempfile
    >>> report = selfplay(tempfile.mkdtemp(), 2, agent="random", seed=1)
    >>> report.games, report.examples == 2 * load(report.out).game_turns.sum()
    (2, True)
    """
    shards.pyarrow()
    spec = AgentSpec.parse(agent)
    agent = str(spec)  # as the command line writes it
    games = check_int(games, "games", 0, MAX_GAMES)
    seed = check_seed(seed)
    shard_size = check_int(shard_size, "shard_size", 1, manifests.MAX_SHARD_SIZE)
    max_turns = check_int(max_turns, "max_turns", 1, MAX_SELFPLAY_TURNS)
    on_error = check_choice(on_error, "on_error", ON_ERROR)
    if not isinstance(mixed_versions, bool):
        raise ParameterTypeError(f"mixed_versions must be True or False, not {mixed_versions!r}")
    check_backend(backend, workers, address)
    if progress is not None and not callable(progress):
        raise ParameterTypeError(f"progress must be a function, not {progress!r}")
    out = run_path(out)
    if -(-games // shard_size) > manifests.MAX_SHARDS:
        raise ParameterError(f"{games:,} games in shards of {shard_size:,} make more than the "
                             f"{manifests.MAX_SHARDS:,} shards a run may have: take a larger "
                             "shard_size")
    check_agent(spec)  # a bad option fails here, not in every game
    settings = {"agent": agent, "games": games, "seed": seed, "shard_size": shard_size,
                "max_turns": max_turns}
    with RunFolder(out, create=True) as folder, folder.top.lock(
            ".lock", f"{out} is in use by another wts selfplay run"):
        return _Run(folder, settings, on_error, mixed_versions, progress).run(
            backend, workers, address)


class _Run:
    """One call of :func:`selfplay` on a locked run folder."""

    def __init__(self, folder: RunFolder, settings: dict[str, Any], on_error: str,
                 mixed_versions: bool,
                 progress: Callable[[SelfplayProgress], None] | None) -> None:
        self.folder = folder
        self.settings = settings
        self.on_error = on_error
        self.mixed_versions = mixed_versions
        self.progress = progress
        self.spec = AgentSpec.parse(settings["agent"])
        self.versions = _versions(self.spec)
        self.replayed: list[str] = []

    def run(self, backend: str, workers: int | None, address: str | None) -> SelfplayReport:
        folder, settings = self.folder, self.settings
        folder.remove_leftovers()
        manifest = self.open_manifest()
        done: dict[str, Any] = manifest["shards"]
        count = manifests.shard_count(settings)
        # Made one at a time as the backend asks: a run of 10**12 games holds
        # only the chunks in flight.
        chunks = (_Chunk(k, k * settings["shard_size"],
                         min(settings["games"], (k + 1) * settings["shard_size"]),
                         self.spec, settings["seed"], settings["max_turns"])
                  for k in range(count) if str(k) not in done)
        finished = sum(entry["games"] + len(entry["failed"]) for entry in done.values())
        examples = sum(entry["examples"] for entry in done.values())
        played = 0
        started = time.perf_counter()
        for _index, shard in run_chunks(play_shard, chunks, backend=backend, workers=workers,
                                        address=address):
            self.check_versions({"shard": shard.versions})
            if shard.failures and self.on_error == "stop":
                first = shard.failures[0]
                raise GameFailedError(
                    f"game {first.game} (seeds {first.seeds[0]} and {first.seeds[1]}) raised "
                    f"{first.error}; the run stops (on_error='skip' goes on without it)")
            with interrupts_deferred():  # a shard's files are listed, or not written
                done[str(shard.shard)] = folder.write_shard(shard, settings["agent"])
                folder.write_manifest(manifest)
            new = len(shard.games["game"]) + len(shard.failures)
            played += new
            finished += new
            examples += len(shard.examples["game"])
            if self.progress is not None:
                self.progress(SelfplayProgress(finished, settings["games"], examples,
                                               time.perf_counter() - started, played))
        failures = [GameFailure(f["game"], tuple(f["seeds"]), f["error"])
                    for key in sorted(done, key=int) for f in done[key]["failed"]]
        manifest["complete"] = len(done) == count and not failures
        folder.write_manifest(manifest)
        return SelfplayReport(folder.path, finished - len(failures), examples, count, played,
                              time.perf_counter() - started, failures, self.replayed)

    def open_manifest(self) -> dict[str, Any]:
        """The run's manifest, made if there is none; listed shards whose files
        fail their check, or that hold a game that raised, are forgotten, to be
        played again."""
        folder = self.folder
        manifest = folder.read_manifest()
        if manifest is None:
            manifest = manifests.new(self.settings, __version__)
            folder.write_manifest(manifest)
            return manifest
        if manifest["settings"] != self.settings:
            raise ParameterError(
                f"{folder.path} holds a run with other settings ({manifest['settings']}); "
                "resume it with the same arguments, or write this run to another directory")
        # The shards' versions, which the data depends on; the version that
        # began the run only while no shard is written.
        self.check_versions({f"shard {key}": entry["versions"]
                             for key, entry in manifest["shards"].items()}
                            or {"the run": {"wts": manifest["wts"]}})
        again = {}
        for key, entry in manifest["shards"].items():
            if entry["failed"]:
                games = ", ".join(str(item["game"]) for item in entry["failed"])
                again[key] = f"game {games} raised before"
                continue
            try:
                folder.read_shard(manifest, int(key), check_only=True)
            except RunFolderError as exc:
                again[key] = str(exc)
        for key, reason in again.items():
            del manifest["shards"][key]
            self.replayed.append(f"shard {key}: {reason}")
        if again:
            manifest["complete"] = False
            folder.write_manifest(manifest)
        return manifest

    def check_versions(self, found: dict[str, dict[str, str]]) -> None:
        """Refuse shards of another version of what decides the moves, unless allowed."""
        if self.mixed_versions:
            return
        for what, versions in found.items():
            for package, version in versions.items():
                if package in self.versions and version != self.versions[package]:
                    raise ParameterError(
                        f"{self.folder.path}: {what} was played with {package} {version}, "
                        f"and this is {package} {self.versions[package]}, whose players may "
                        "choose other moves: resume it with that version, or allow mixed "
                        "versions (--mixed-versions, mixed_versions=True)")
