"""Self-play data for training: ``wts selfplay`` and :func:`selfplay`, :func:`load`.

An agent plays itself; every game is written as a game record, and every turn
as two training examples, one from each player's side. A run's directory::

    manifest.json                 the run's settings and its finished shards
    games/shard-00000.parquet     one row a game: index, seeds, record, result
    examples/shard-00000.parquet  one row a player a turn (columns below)

Shard ``k`` holds games ``k * shard_size`` to ``(k + 1) * shard_size - 1``.
Its two files are written under temporary names and renamed into place, then
the manifest (itself replaced in one rename) lists the shard: a shard is
finished exactly when the manifest lists it, and :func:`load` reads only
those. A run started again with the same arguments plays only the shards the
manifest does not list, so a killed run loses no game and writes none twice.

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
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from wts._version import __version__
from wts.engine.game import Game
from wts.engine.observation import observation_planes
from wts.engine.pieces import Color
from wts.engine.symmetry import Symmetry, transform_masks, transform_planes
from wts.errors import ParameterError, ParameterTypeError, WtsError
from wts.formats import record
from wts.params import check_choice, check_int, check_seed
from wts.players.agents import MCTSAgent, RandomAgent, make_agent, parse_agent_spec
from wts.players.tournament import MAX_TURNS, game_seed
from wts.scale.backends import check_backend, run_chunks

__all__ = ["selfplay", "load", "SelfplayReport", "SelfplayProgress", "SelfplayData",
           "GameFailure", "GameFailedError", "SHARD_SIZE", "ON_ERROR"]

FORMAT = "wts-selfplay/1"
MANIFEST = "manifest.json"
#: Games a shard holds, unless told otherwise.
SHARD_SIZE = 16
#: What a game that raises does to the run: stop it, or skip the game.
ON_ERROR = ("stop", "skip")
_PLANES = 4 * 81


class GameFailedError(WtsError, RuntimeError):
    """A game raised and the run was told to stop on errors."""


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
    agent: str
    seed: int
    max_turns: int


@dataclass
class _Shard:
    """What a worker sends back for one shard: plain arrays, cheap to pickle."""

    shard: int
    games: dict[str, Any]
    examples: dict[str, Any]
    failures: list[GameFailure]


def _policy(agent: Any, game: Game, square: int) -> npt.NDArray[np.float32]:
    policy = np.zeros(81, dtype=np.float32)
    if isinstance(agent, MCTSAgent) and agent.last_search is not None:
        policy[:] = agent.last_search.strategy
    elif isinstance(agent, RandomAgent):
        legal = game.legal_moves()
        policy[legal] = 1.0 / len(legal)
    else:
        policy[square] = 1.0
    return policy


def _play_game(spec: str, index: int, seeds: tuple[int, int],
               max_turns: int) -> tuple[Game, list[tuple[Any, ...]]]:
    agents = [make_agent(spec, seed=seeds[side]) for side in (0, 1)]
    game = Game()
    rows: list[tuple[Any, ...]] = []
    try:
        while not game.is_over() and game.turn < max_turns:
            turn_rows = []
            moves = []
            for side, color in enumerate((Color.BLACK, Color.WHITE)):
                square = agents[side].select(game, color)
                moves.append(square)
                turn_rows.append((game.turn, side, seeds[side], observation_planes(game, color),
                                  _policy(agents[side], game, square), square))
            game.play(*moves)
            rows += turn_rows
    finally:
        for agent in agents:  # an engine program ends with its game
            close = getattr(agent, "close", None)
            if close is not None:
                close()
    return game, rows


def play_shard(chunk: _Chunk) -> _Shard:
    """Play the games of one shard (a backend task: runs in any worker)."""
    games: dict[str, list[Any]] = {"game": [], "black_seed": [], "white_seed": [],
                                   "record": [], "result": [], "turns": []}
    columns: dict[str, list[Any]] = {name: [] for name in (
        "game", "turn", "color", "seed", "observation", "policy", "move", "outcome")}
    failures = []
    for index in range(chunk.first, chunk.stop):
        seeds = (game_seed(chunk.seed, index, 0), game_seed(chunk.seed, index, 1))
        try:
            game, rows = _play_game(chunk.agent, index, seeds, chunk.max_turns)
        except Exception as exc:  # reported with its seeds; the run decides
            failures.append(GameFailure(index, seeds, f"{type(exc).__name__}: {exc}"))
            continue
        winner = game.winner
        headers = {"Event": "wts selfplay", "Round": str(index), "Black": chunk.agent,
                   "White": chunk.agent}
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
            columns["outcome"].append(0 if winner is None else (1 if winner is color else -1))
    examples = {
        "game": np.array(columns["game"], dtype=np.int64),
        "turn": np.array(columns["turn"], dtype=np.int32),
        "color": np.array(columns["color"], dtype=np.int8),
        "seed": np.array(columns["seed"], dtype=np.uint64),
        "observation": np.array(columns["observation"], dtype=np.uint8).reshape(-1, _PLANES),
        "policy": np.array(columns["policy"], dtype=np.float32).reshape(-1, 81),
        "move": np.array(columns["move"], dtype=np.int16),
        "outcome": np.array(columns["outcome"], dtype=np.int8),
    }
    return _Shard(chunk.shard, games, examples, failures)


# --- Writing ---------------------------------------------------------------------


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:
        raise ImportError("self-play data is Parquet: python -m pip install pyarrow "
                          "(the selfplay extra)") from exc
    return pyarrow


def _fixed(pa: Any, values: npt.NDArray[Any], width: int) -> Any:
    return pa.FixedSizeListArray.from_arrays(pa.array(values.reshape(-1)), width)


def _tables(shard: _Shard, agent: str) -> tuple[Any, Any]:
    pa = _pyarrow()
    games = pa.table({
        "game": pa.array(shard.games["game"], pa.int64()),
        "black_seed": pa.array(shard.games["black_seed"], pa.uint64()),
        "white_seed": pa.array(shard.games["white_seed"], pa.uint64()),
        "record": pa.array(shard.games["record"], pa.string()),
        "result": pa.array(shard.games["result"], pa.string()),
        "turns": pa.array(shard.games["turns"], pa.int32()),
    })
    e = shard.examples
    rows = len(e["game"])
    examples = pa.table({
        "game": e["game"], "turn": e["turn"], "color": e["color"], "seed": e["seed"],
        "agent": pa.DictionaryArray.from_arrays(pa.array(np.zeros(rows, dtype=np.int8)),
                                                pa.array([agent])),
        "observation": _fixed(pa, e["observation"], _PLANES),
        "policy": _fixed(pa, e["policy"], 81),
        "move": e["move"], "outcome": e["outcome"],
    })
    return games, examples


def _write_atomically(path: Path, write: Callable[[Path], None]) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(temporary)
        os.replace(temporary, path)
    finally:
        if temporary.exists():
            temporary.unlink()


def _remove_leftovers(out: Path) -> None:
    """The temporary files of a run killed while writing: never a finished shard."""
    for folder in (out, out / "games", out / "examples"):
        for path in folder.glob(".*.tmp") if folder.is_dir() else ():
            path.unlink()


def _shard_name(shard: int) -> str:
    return f"shard-{shard:05d}.parquet"


def _write_shard(out: Path, shard: _Shard, agent: str) -> None:
    import pyarrow.parquet as pq

    games, examples = _tables(shard, agent)
    for folder, table in (("games", games), ("examples", examples)):
        (out / folder).mkdir(exist_ok=True)
        _write_atomically(out / folder / _shard_name(shard.shard),
                          lambda path, table=table: pq.write_table(table, path,
                                                                   compression="zstd"))


def _write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    _write_atomically(out / MANIFEST, lambda path: path.write_text(text, encoding="utf-8"))


def _read_manifest(out: Path) -> dict[str, Any]:
    """The manifest of the run at ``out``, checked entry by entry: a WtsError
    names what is wrong with a damaged one."""
    path = out / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise WtsError(f"{out} holds no wts selfplay run (no {MANIFEST})") from None
    except (OSError, ValueError) as exc:
        raise WtsError(f"{path}: not a wts selfplay manifest ({exc})") from None

    def bad(what: str) -> WtsError:
        return WtsError(f"{path}: a damaged wts selfplay manifest: {what}")

    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        found = manifest.get("format") if isinstance(manifest, dict) else type(manifest).__name__
        raise WtsError(f"{path}: not a wts selfplay manifest (format {found!r}, "
                       f"expected {FORMAT!r})")
    settings, shards = manifest.get("settings"), manifest.get("shards")
    if not isinstance(settings, dict) or not all(
            isinstance(settings.get(key), kind) for key, kind in _SETTINGS.items()):
        raise bad(f"settings {settings!r}")
    if not isinstance(shards, dict):
        raise bad(f"shards {shards!r}")
    count = -(-settings["games"] // max(1, settings["shard_size"]))
    for key, entry in shards.items():
        if not (key.isdigit() and int(key) < count):
            raise bad(f"shard {key!r} (the run has shards 0 to {count - 1})")
        if not (isinstance(entry, dict) and isinstance(entry.get("games"), int)
                and isinstance(entry.get("examples"), int)
                and isinstance(entry.get("failed"), list)):
            raise bad(f"shard {key}: {entry!r}")
    return manifest


# The settings a run's data depends on, and their types.
_SETTINGS = {"agent": str, "games": int, "seed": int, "shard_size": int, "max_turns": int}


def _open_manifest(out: Path, settings: dict[str, Any]) -> dict[str, Any]:
    """The manifest of the run at ``out``, created if there is none; a shard it
    lists whose files are gone is forgotten, to be played again."""
    if not (out / MANIFEST).exists():
        manifest = {"format": FORMAT, "wts": __version__, "settings": settings,
                    "shards": {}, "complete": False}
        _write_manifest(out, manifest)
        return manifest
    manifest = _read_manifest(out)
    if manifest["settings"] != settings:
        raise ParameterError(
            f"{out} holds a run with other settings ({manifest['settings']}); resume it "
            "with the same arguments, or write this run to another directory")
    missing = [key for key in manifest["shards"]
               if not all((out / folder / _shard_name(int(key))).is_file()
                          for folder in ("games", "examples"))]
    for key in missing:
        del manifest["shards"][key]
    if missing:
        manifest["complete"] = False
        _write_manifest(out, manifest)
    return manifest


@contextlib.contextmanager
def _run_lock(out: Path) -> Iterator[None]:
    """One run at a time in a directory: a second is refused while the first
    lives (the lock goes with its process, however it ends)."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; one run at a time is on the user
        yield
        return
    with open(out / ".lock", "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise WtsError(f"{out} is in use by another wts selfplay run") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


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

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds else 0.0


def selfplay(
    out: str | os.PathLike[str],
    games: int,
    *,
    agent: str = "mcts:2",
    seed: int = 0,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    shard_size: int = SHARD_SIZE,
    max_turns: int = MAX_TURNS,
    on_error: str = "stop",
    progress: Callable[[SelfplayProgress], None] | None = None,
) -> SelfplayReport:
    """Play ``games`` self-play games of ``agent`` and write them to ``out``.

    Resumes a run ``out`` already holds (same arguments but the backend,
    workers and address, which change nothing in the data). ``on_error``:
    ``"stop"`` raises :class:`GameFailedError` naming the first game that
    raised, its index and seeds (the shards finished stay written);
    ``"skip"`` leaves such games out and lists them in the report and the
    manifest. ``progress`` is called after every shard.

    >>> import tempfile
    >>> report = selfplay(tempfile.mkdtemp(), 2, agent="random", seed=1)
    >>> report.games, report.examples == 2 * load(report.out).game_turns.sum()
    (2, True)
    """
    _pyarrow()
    if not isinstance(agent, str):
        raise ParameterTypeError(f"agent must be a str such as 'mcts:2', not {agent!r}")
    name, _number = parse_agent_spec(agent)
    # as the command line writes it; an engine's command keeps its case
    agent = agent.strip() if name == "engine" else agent.strip().lower()
    games = check_int(games, "games", 0)
    seed = check_seed(seed)
    shard_size = check_int(shard_size, "shard_size", 1, 1 << 20)
    max_turns = check_int(max_turns, "max_turns", 1)
    on_error = check_choice(on_error, "on_error", ON_ERROR)
    check_backend(backend, workers, address)
    if progress is not None and not callable(progress):
        raise ParameterTypeError(f"progress must be a function, not {progress!r}")
    if not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
        raise ParameterError(f"out must be a directory's path, not {out!r}")
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WtsError(f"cannot make the run's directory {out}: {exc}") from None
    settings = {"agent": agent, "games": games, "seed": seed, "shard_size": shard_size,
                "max_turns": max_turns}
    with _run_lock(out):
        return _run(out, settings, on_error, backend, workers, address, progress)


def _run(out: Path, settings: dict[str, Any], on_error: str, backend: str,
         workers: int | None, address: str | None,
         progress: Callable[[SelfplayProgress], None] | None) -> SelfplayReport:
    agent, games, seed = settings["agent"], settings["games"], settings["seed"]
    shard_size, max_turns = settings["shard_size"], settings["max_turns"]
    _remove_leftovers(out)
    manifest = _open_manifest(out, settings)
    done: dict[str, Any] = manifest["shards"]
    count = -(-games // shard_size)
    chunks = [_Chunk(k, k * shard_size, min(games, (k + 1) * shard_size), agent, seed,
                     max_turns) for k in range(count) if str(k) not in done]
    finished = sum(entry["games"] + len(entry["failed"]) for entry in done.values())
    examples = sum(entry["examples"] for entry in done.values())
    played = 0
    started = time.perf_counter()
    for _index, shard in run_chunks(play_shard, chunks, backend=backend, workers=workers,
                                    address=address):
        if shard.failures and on_error == "stop":
            first = shard.failures[0]
            raise GameFailedError(
                f"game {first.game} (seeds {first.seeds[0]} and {first.seeds[1]}) raised "
                f"{first.error}; the run stops (on_error='skip' goes on without it)")
        _write_shard(out, shard, agent)
        done[str(shard.shard)] = {
            "games": len(shard.games["game"]), "examples": len(shard.examples["game"]),
            "failed": [{"game": f.game, "seeds": list(f.seeds), "error": f.error}
                       for f in shard.failures]}
        _write_manifest(out, manifest)
        new = len(shard.games["game"]) + len(shard.failures)
        played += new
        finished += new
        examples += len(shard.examples["game"])
        if progress is not None:
            progress(SelfplayProgress(finished, games, examples,
                                      time.perf_counter() - started, played))
    manifest["complete"] = True
    _write_manifest(out, manifest)
    failures = [GameFailure(f["game"], tuple(f["seeds"]), f["error"])  # type: ignore[arg-type]
                for key in sorted(done, key=int) for f in done[key]["failed"]]
    return SelfplayReport(out, finished - len(failures), examples, count, played,
                          time.perf_counter() - started, failures)


# --- Reading ---------------------------------------------------------------------


@dataclass
class SelfplayData:
    """A run's examples as numpy arrays, one row an example (see the module's
    docstring for the columns); ``symmetry`` is the :class:`wts.Symmetry`
    applied to the row (0 when the data was loaded without augmentation)."""

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


def load(path: str | os.PathLike[str], *, symmetries: bool = False) -> SelfplayData:
    """The examples of the finished shards of the run at ``path``, in game order;
    with ``symmetries=True``, each example 8 times, once per :class:`wts.Symmetry`
    (observation, policy and move transformed together), for augmentation."""
    import pyarrow.parquet as pq

    _pyarrow()
    out = Path(path)
    manifest = _read_manifest(out)
    shards = sorted(int(k) for k in manifest["shards"])

    def read(folder: str, shard: int) -> Any:
        try:
            return pq.read_table(out / folder / _shard_name(shard))
        except (OSError, ValueError) as exc:  # missing, or not Parquet
            raise WtsError(f"{out}: shard {shard} is listed but cannot be read ({exc}); "
                           "run the same wts selfplay command again to replay it") from None

    parts = [read("examples", k) for k in shards]
    games = [read("games", k) for k in shards]
    records = [text for table in games for text in table["record"].to_pylist()]
    game_turns = np.array([n for table in games for n in table["turns"].to_pylist()],
                          dtype=np.int32)

    def column(name: str, dtype: Any) -> npt.NDArray[Any]:
        if not parts:
            return np.zeros(0, dtype=dtype)
        return np.concatenate([part[name].to_numpy() for part in parts]).astype(dtype)

    def fixed(name: str, dtype: Any, width: int) -> npt.NDArray[Any]:
        if not parts:
            return np.zeros((0, width), dtype=dtype)
        return np.concatenate([
            part[name].combine_chunks().flatten().to_numpy().reshape(-1, width)
            for part in parts]).astype(dtype)

    data = SelfplayData(
        column("game", np.int64), column("turn", np.int32), column("color", np.int8),
        column("seed", np.uint64), fixed("observation", np.uint8, _PLANES).reshape(-1, 4, 9, 9),
        fixed("policy", np.float32, 81), column("move", np.int16), column("outcome", np.int8),
        np.zeros(sum(len(p) for p in parts), dtype=np.uint8), records, game_turns,
        manifest["settings"]["agent"])
    return _augmented(data) if symmetries else data


def _augmented(data: SelfplayData) -> SelfplayData:
    """Every example under each of the eight symmetries, symmetry by symmetry."""
    n = len(data)
    chosen = np.repeat(np.arange(8, dtype=np.uint8), n)

    def tile(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return np.tile(values, (8,) + (1,) * (values.ndim - 1))

    maps = np.array([[Symmetry(s).square(sq) for sq in range(81)] for s in range(8)],
                    dtype=np.int16)
    moves = maps[chosen, tile(data.move)] if n else tile(data.move)
    return SelfplayData(
        tile(data.game), tile(data.turn), tile(data.color), tile(data.seed),
        transform_planes(tile(data.observation), chosen),
        transform_masks(tile(data.policy), chosen), moves.astype(np.int16),
        tile(data.outcome), chosen, data.records, data.game_turns, data.agent)
