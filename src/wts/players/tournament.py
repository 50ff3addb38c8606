"""Matches between agents: ``wts tournament A B --games N --seed S``.

An agent is a spec of :func:`wts.agents.make_agent`; ``openspiel-mcts:N``
is OpenSpiel's ``MCTSBot`` seated as the first mover of every turn
(:mod:`wts.adapters.openspiel_agent`).

Agent A plays black in the even-numbered games and white in the odd ones
(both colours equally when N is even). Game ``i`` gives each side its own
seed, derived from ``S``, ``i`` and the side, so a match is reproducible and
its games independent (``--jobs`` plays several at once on threads; the MCTS
search releases the GIL). The report: wins by colour, draws, A's score, the
Elo difference of A over B with a 95% interval, and MCTS playouts per second.

An engine program (``engine:CMD``, :mod:`wts.protocol.player`) that crashes,
hangs, breaks the protocol or names a square it may not play forfeits that
game: the other side wins it, and the reason is kept in the game's record
(:attr:`MatchGame.forfeit`) and listed in the report.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from wts._interrupts import result_of, stop_pool
from wts._seeds import derive
from wts.engine.game import Game
from wts.engine.pieces import Color
from wts.errors import ParameterError, PlayerError
from wts.limits import MATCH_TURNS, MAX_GAMES, MAX_THREADS
from wts.params import check_choice, check_int, check_seed
from wts.players.agents import Agent, check_agent, make_agent
from wts.players.specs import OPENSPIEL_SIMULATIONS, AgentSpec
from wts.players.sprt import elo_from_score
from wts.runtime.backends import check_backend, run_chunks

__all__ = [
    "MatchGame",
    "MatchResult",
    "RESTARTS",
    "Seats",
    "play_seated",
    "play_match_game",
    "play_match",
    "check_where",
    "elo_difference",
    "format_header",
    "format_result",
]


@dataclass(frozen=True)
class MatchGame:
    """One game of a match: who played black, who won, and the moves; ``forfeit``
    says why a game ended off the board (an engine's failure), else None."""

    index: int
    a_color: Color
    winner: Color | None
    turns: int
    moves: tuple[tuple[int, int], ...]
    forfeit: str | None = None

    @property
    def a_won(self) -> bool:
        return self.winner is self.a_color

    @property
    def b_won(self) -> bool:
        return self.winner is not None and self.winner is not self.a_color


@dataclass
class MatchResult:
    """A whole match, from A's side."""

    a: str
    b: str
    seed: int
    records: list[MatchGame] = field(default_factory=list)
    seconds: float = 0.0
    # Per side: MCTS playouts and the seconds their searches took.
    playouts: list[int] = field(default_factory=lambda: [0, 0])
    search_seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    moves: list[int] = field(default_factory=lambda: [0, 0])
    #: The name each engine program declares (``id name``), None for the others.
    names: list[str | None] = field(default_factory=lambda: [None, None])

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def a_wins(self) -> int:
        return sum(r.a_won for r in self.records)

    @property
    def b_wins(self) -> int:
        return sum(r.b_won for r in self.records)

    @property
    def draws(self) -> int:
        return sum(r.winner is None for r in self.records)

    def wins_as(self, side: int, color: Color) -> int:
        """Wins of side 0 (A) or 1 (B) when playing ``color``."""
        return sum(
            r.winner is color and ((r.a_color is color) == (side == 0)) for r in self.records
        )

    @property
    def forfeits(self) -> list[MatchGame]:
        """The games an engine forfeited."""
        return [r for r in self.records if r.forfeit is not None]

    @property
    def score(self) -> float:
        """A's points (1 a win, 1/2 a draw) per game."""
        return (self.a_wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def playouts_per_second(self, side: int) -> float | None:
        """MCTS playouts per second of side 0 (A) or 1 (B); None if it did no search."""
        if not self.playouts[side] or not self.search_seconds[side]:
            return None
        return self.playouts[side] / self.search_seconds[side]


def play_match_game(black: Agent, white: Agent, max_turns: int = MATCH_TURNS,
                    stop: threading.Event | None = None) -> Game:
    """Play one game between two agents from the start; returns the final game.

    Once ``stop`` is set (from any thread) no further turn is played: the game
    is returned as it stands, unfinished.
    """
    game, forfeit = play_game_or_forfeit(black, white, max_turns, stop)
    if forfeit is not None:
        raise forfeit[1]
    return game


def play_game_or_forfeit(black: Agent, white: Agent, max_turns: int = MATCH_TURNS,
                         stop: threading.Event | None = None, *, start: Game | None = None
                         ) -> tuple[Game, tuple[Color | None, PlayerError] | None]:
    """:func:`play_match_game` (from ``start``, a new game by default), where an
    engine's failure (a :class:`wts.errors.PlayerError`) ends the game: the
    game, and (the colour that won by forfeit, the error) or None. Both sides
    are asked every turn; when both fail the game is drawn (the colour is None)."""
    game = Game() if start is None else start.copy()
    while not game.is_over() and game.turn < max_turns:
        if stop is not None and stop.is_set():
            break
        moves: list[int] = []
        failed: list[tuple[Color, PlayerError]] = []
        for color, agent in ((Color.BLACK, black), (Color.WHITE, white)):
            try:
                moves.append(agent.select(game, color))
            except PlayerError as exc:
                failed.append((color, exc))
        if failed:
            errors = [type(exc)(f"{color.value} forfeits: {exc}") for color, exc in failed]
            if len(failed) == 2:
                return game, (None, type(errors[0])(f"{errors[0]}; {errors[1]}"))
            return game, (failed[0][0].opponent, errors[0])
        game.play(moves[0], moves[1])
    return game, None


def elo_difference(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """The Elo difference that A's score implies, and a 95% interval.

    The interval is the Wilson score interval of the score (draws counting a
    half) mapped to Elo, so it stays finite on one side after a clean sweep;
    a score of 0 or 1 gives an infinite estimate.
    """
    n = wins + draws + losses
    if n == 0:
        return 0.0, -math.inf, math.inf
    score = (wins + 0.5 * draws) / n
    z = 1.959963984540054
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n))
    low = -math.inf if score <= 0.0 else elo_from_score(centre - half)
    high = math.inf if score >= 1.0 else elo_from_score(centre + half)
    return elo_from_score(score), low, high


# One game's record, and per side its MCTS playouts, search seconds and moves.
_Played = tuple[MatchGame, list[int], list[float], list[int], list[str | None]]


#: When a match starts an engine program again: ``"failure"`` (the default)
#: keeps each side's engine running from game to game, telling it
#: ``newgame`` and the game's seed, and starts it again only after it failed;
#: ``"game"`` starts it for every game.
RESTARTS = ("failure", "game")


class Seats:
    """The two sides' agents for a run of games on one thread: each game's are
    made afresh, but an engine program (an agent with ``new_game``) is kept
    for the next game unless ``restart`` is ``"game"`` or it failed. Close it
    (or use it as a context manager) to end the engines kept."""

    def __init__(self, restart: str = "failure") -> None:
        self.restart = check_choice(restart, "restart", RESTARTS)
        self._kept: dict[int, Agent] = {}

    def agents(self, specs: Sequence[AgentSpec], seeds: Sequence[int], level: int | None,
               time_limit: float | None, stop: threading.Event | None = None) -> list[Agent]:
        """Side ``i``'s agent for a new game, seeded with ``seeds[i]``."""
        agents = []
        for side, (spec, seed) in enumerate(zip(specs, seeds)):
            agent = self._kept.pop(side, None)
            if agent is not None:
                try:
                    agent.new_game(seed)  # type: ignore[attr-defined]
                except PlayerError:  # not ready for another game: a fresh one instead
                    agent = None
            if agent is None:
                agent = make_agent(spec, seed=seed, level=level, time_limit=time_limit,
                                   stop=stop)
            agents.append(agent)
        return agents

    def finished(self, agents: Sequence[Agent], failed: Sequence[bool]) -> None:
        """After the game: keep the engines that did not fail (``failed[i]``)
        for the next, and end the rest."""
        for side, agent in enumerate(agents):
            keep = (self.restart == "failure" and not failed[side]
                    and callable(getattr(agent, "new_game", None)))
            if keep:
                self._kept[side] = agent
            else:
                _close(agent)

    def close(self) -> None:
        """End the engines kept."""
        kept, self._kept = self._kept, {}
        for agent in kept.values():
            _close(agent)

    def __enter__(self) -> Seats:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _close(agent: object) -> None:
    close = getattr(agent, "close", None)
    if close is not None:
        close()


def _totals(agents: Sequence[Agent]) -> tuple[list[int], list[float]]:
    """The searching agents' playouts (MCTS, OpenSpiel MCTS) and seconds so far."""
    return ([getattr(a, "total_playouts", 0) for a in agents],
            [getattr(a, "total_seconds", 0.0) for a in agents])


def play_seated(seats: Seats, specs: Sequence[AgentSpec], seeds: Sequence[int],
                a_color: Color, level: int | None, time_limit: float | None,
                stop: threading.Event | None, start: Game | None = None,
                ) -> tuple[Game, tuple[Color | None, PlayerError] | None, list[Agent],
                           list[int], list[float]]:
    """One game of A (``specs[0]``, playing ``a_color``) and B from ``seats``:
    the game, its forfeit (as :func:`play_game_or_forfeit`), the agents, and
    their playouts and seconds in it."""
    agents = seats.agents(specs, seeds, level, time_limit, stop)
    playouts, seconds = _totals(agents)
    black, white = (agents[0], agents[1]) if a_color is Color.BLACK else (agents[1], agents[0])
    failed = [True, True]  # until the game says otherwise: an interrupted game ends them
    try:
        game, forfeit = play_game_or_forfeit(black, white, MATCH_TURNS, stop, start=start)
        if forfeit is None:
            failed = [False, False]
        elif forfeit[0] is not None:  # the side that lost failed
            failed = [forfeit[0] is not a_color, forfeit[0] is a_color]
    finally:
        seats.finished(agents, failed)
    playouts_after, seconds_after = _totals(agents)
    return (game, forfeit, agents, [n - m for n, m in zip(playouts_after, playouts)],
            [t - u for t, u in zip(seconds_after, seconds)])


def _play_one(spec_a: AgentSpec, spec_b: AgentSpec, seed: int, index: int, level: int | None,
              time_limit: float | None, stop: threading.Event, seats: Seats) -> _Played | None:
    """Game ``index`` of the match; None if ``stop`` was set before it ended."""
    a_color = Color.BLACK if index % 2 == 0 else Color.WHITE
    game, forfeit, agents, playouts, seconds = play_seated(
        seats, (spec_a, spec_b), (derive(seed, index, 0), derive(seed, index, 1)), a_color,
        level, time_limit, stop)
    if stop.is_set():
        return None
    moves = tuple((turn.black_move, turn.white_move) for turn in game.history)
    if forfeit is None:
        record = MatchGame(index, a_color, game.winner, game.turn, moves)
    else:
        record = MatchGame(index, a_color, forfeit[0], game.turn, moves, str(forfeit[1]))
    return record, playouts, seconds, [game.turn, game.turn], engine_names(agents)


@dataclass(frozen=True)
class _MatchChunk:
    """Games ``first`` to ``stop - 1`` of a match, for a process or Ray worker."""

    spec_a: AgentSpec
    spec_b: AgentSpec
    seed: int
    first: int
    stop: int
    level: int | None
    time_limit: float | None
    restart: str = "failure"


def play_match_chunk(chunk: _MatchChunk) -> list[_Played]:
    """Play one chunk of a match (a backend task: runs in any worker)."""
    stop = threading.Event()  # never set: a worker is stopped by ending its process
    played = []
    with Seats(chunk.restart) as seats:
        for index in range(chunk.first, chunk.stop):
            one = _play_one(chunk.spec_a, chunk.spec_b, chunk.seed, index, chunk.level,
                            chunk.time_limit, stop, seats)
            assert one is not None
            played.append(one)
    return played


def check_where(jobs: int, backend: str, workers: int | None,
                address: str | None) -> tuple[int, str]:
    """A match's ``jobs`` and ``backend``, checked with ``workers`` and
    ``address`` (:func:`play_match` says what each is); ParameterError if they
    do not go together."""
    jobs = check_int(jobs, "jobs", 1, MAX_THREADS)
    backend, _ = check_backend(backend, workers, address)
    if backend == "local" and workers is not None:
        raise ParameterError("workers= is for the process and ray backends; "
                             "the local one plays jobs= games at once")
    if backend != "local" and jobs != 1:
        raise ParameterError(f"jobs= plays games on threads of the local backend; the "
                             f"{backend} backend plays workers= chunks at once")
    return jobs, backend


#: Games a process or Ray task plays: enough that a task's overhead does not
#: count, few enough that a lost worker costs little.
CHUNK_GAMES = 4


def play_match(
    spec_a: str | AgentSpec,
    spec_b: str | AgentSpec,
    games: int,
    seed: int = 0,
    *,
    level: int | None = None,
    time_limit: float | None = None,
    jobs: int = 1,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
    restart: str = "failure",
) -> MatchResult:
    """Play ``games`` games of A against B (agent specs as in :func:`wts.agents.make_agent`).

    ``backend="local"`` plays ``jobs`` games at once on threads (with
    ``jobs=1``, in the calling thread); ``"process"`` and ``"ray"`` play
    chunks of :data:`CHUNK_GAMES` games on ``workers`` processes or Ray tasks
    (:mod:`wts.runtime.backends`; ``address`` joins a Ray cluster). The games,
    the wins and the Elo table do not depend on the backend, ``jobs`` or
    ``workers``; only the speed lines do. An engine program is kept running
    from game to game on its thread or in its chunk (``restart``: see
    :data:`RESTARTS`); an engine that forgets its last game on ``newgame``,
    as ``wts engine`` does, plays each game as a fresh process would. Ctrl-C stops a match within
    milliseconds: every game's searches are told to stop (or the workers are
    ended), the games not started are dropped, and the KeyboardInterrupt goes on.

    >>> result = play_match("greedy", "random", 2, seed=1)
    >>> result.games, result.a_wins + result.b_wins + result.draws
    (2, 2)
    """
    a = check_agent(spec_a, level=level, time_limit=time_limit)
    b = check_agent(spec_b, level=level, time_limit=time_limit)
    games = check_int(games, "games", 0, MAX_GAMES)
    seed = check_seed(seed)
    jobs, backend = check_where(jobs, backend, workers, address)
    restart = check_choice(restart, "restart", RESTARTS)
    result = MatchResult(str(a), str(b), seed)
    stop = threading.Event()
    started = time.perf_counter()
    # Each thread's seats: its engines are kept from one of its games to the next.
    local = threading.local()
    every: list[Seats] = []
    lock = threading.Lock()

    def one(index: int) -> _Played | None:
        seats = getattr(local, "seats", None)
        if seats is None:
            seats = local.seats = Seats(restart)
            with lock:
                every.append(seats)
        return _play_one(a, b, seed, index, level, time_limit, stop, seats)

    def collect(played: _Played | None) -> None:
        assert played is not None  # only a stopped match has unfinished games
        record, playouts, seconds, moves, names = played
        result.records.append(record)
        result.names = [old or new for old, new in zip(result.names, names)]
        for side in (0, 1):
            result.playouts[side] += playouts[side]
            result.search_seconds[side] += seconds[side]
            result.moves[side] += moves[side]
        if progress is not None:
            progress(len(result.records))

    try:
        if backend != "local":
            chunks = (_MatchChunk(a, b, seed, first, min(games, first + CHUNK_GAMES),
                                  level, time_limit, restart)
                      for first in range(0, games, CHUNK_GAMES))
            finished: dict[int, list[_Played]] = {}
            for index, played in run_chunks(play_match_chunk, chunks, backend=backend,
                                            workers=workers, address=address):
                finished[index] = played
                while len(result.records) // CHUNK_GAMES in finished:  # in game order
                    for game in finished.pop(len(result.records) // CHUNK_GAMES):
                        collect(game)
        elif jobs == 1:
            for index in range(games):  # here Ctrl-C interrupts the search itself
                collect(one(index))
        else:
            _play_on_threads(one, games, jobs, stop, collect)
    finally:
        for seats in every:
            seats.close()
    result.seconds = time.perf_counter() - started
    return result


def _play_on_threads(one: Callable[[int], _Played | None], games: int, jobs: int,
                     stop: threading.Event, collect: Callable[[_Played | None], None]) -> None:
    """Play games 0..games-1 on ``jobs`` threads, collecting them in order. At
    most ``2 * jobs`` games are queued at a time, not one future per game of
    the match. On an error or Ctrl-C, ``stop`` is set, the queued games are
    cancelled and the running ones joined before it is raised."""
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="wts-tournament")
    indices = iter(range(games))
    pending: deque[Future[_Played | None]] = deque()
    try:
        pending.extend(pool.submit(one, index) for index in itertools.islice(indices, 2 * jobs))
        while pending:
            played = result_of(pending.popleft())
            following = next(indices, None)
            if following is not None:
                pending.append(pool.submit(one, following))
            collect(played)
    except BaseException:
        stop.set()
        stop_pool(pool, pending)
        raise
    pool.shutdown(wait=True)


def _signed(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}" if round(value) else "0"  # never "-0"


def _label(spec: str | AgentSpec, level: int | None) -> str:
    """The spec's text, with the number it plays at when it names none."""
    spec = AgentSpec.parse(spec)
    if spec.number is None and spec.name in ("mcts", "az"):
        spec = replace(spec, number=level or 3)
    elif spec.number is None and spec.name == "openspiel-mcts":
        spec = replace(spec, number=OPENSPIEL_SIMULATIONS)
    return str(spec)


def engine_names(agents: Sequence[object]) -> list[str | None]:
    """The name each agent that is an engine program declares (``id name``),
    once it has started; None for the others."""
    names = [getattr(agent, "engine_name", None) for agent in agents]
    return [name if isinstance(name, str) and name else None for name in names]


def _labels(a: str, b: str, level: int | None,
            names: Sequence[str | None] = (None, None)) -> list[str]:
    """How a report names A and B: an engine by the name it declares, the
    others by their spec."""
    labels = [names[0] or _label(a, level), names[1] or _label(b, level)]
    if labels[0] == labels[1]:
        labels = [labels[0] + " (A)", labels[1] + " (B)"]
    return labels


def format_header(a: str, b: str, games: int, seed: int, level: int | None = None) -> str:
    """The first line of the report, which ``wts tournament`` prints before playing."""
    labels = _labels(a, b, level)
    return f"wts tournament: {labels[0]} vs {labels[1]}, {games} games, seed {seed}"


def format_result(result: MatchResult, level: int | None = None) -> str:
    """The report ``wts tournament`` prints."""
    labels = _labels(result.a, result.b, level, result.names)
    width = max(12, *(len(label) for label in labels))
    diff, low, high = elo_difference(result.a_wins, result.draws, result.b_wins)
    lines = [
        format_header(result.a, result.b, result.games, result.seed, level),
        f"  {'':<{width}} {'wins':>6} {'as black':>9} {'as white':>9}",
    ]
    for side, wins in ((0, result.a_wins), (1, result.b_wins)):
        lines.append(
            f"  {labels[side]:<{width}} {wins:>6} {result.wins_as(side, Color.BLACK):>9} "
            f"{result.wins_as(side, Color.WHITE):>9}"
        )
    lines.append(f"  {'draws':<{width}} {result.draws:>6}")
    forfeits = result.forfeits
    if forfeits:
        lines.append(f"  {'forfeits':<{width}} {len(forfeits):>6}")
        for record in forfeits[:3]:
            black, white = labels if record.a_color is Color.BLACK else labels[::-1]
            lines.append(f"    game {record.index} (black {black}, white {white}): "
                         f"{record.forfeit}")
        if len(forfeits) > 3:
            lines.append(f"    ... and {len(forfeits) - 3} more")
    lines.append(f"  {'score':<{width}} {100 * result.score:>5.1f}% for {labels[0]}")
    lines.append(
        f"  {'Elo':<{width}} {_signed(diff)} for {labels[0]} "
        f"(95% interval {_signed(low)} to {_signed(high)})"
    )
    for side in (0, 1):
        rate = result.playouts_per_second(side)
        if rate is not None:
            per_move = result.search_seconds[side] / max(1, result.moves[side])
            lines.append(
                f"  {'playouts/s':<{width}} {rate:,.0f} for {labels[side]} "
                f"({result.playouts[side] / max(1, result.moves[side]):,.0f} playouts, "
                f"{per_move:.3f} s a move)"
            )
    if not any(result.playouts_per_second(side) is not None for side in (0, 1)):
        lines.append(f"  {'playouts/s':<{width}} - (no MCTS agent)")
    lines.append(f"  {'time':<{width}} {result.seconds:.1f} s")
    return "\n".join(lines)
