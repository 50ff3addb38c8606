"""Every public object shared by four threads, switching as often as CPython can.

Each test hammers one object from 4 threads with ``sys.setswitchinterval(1e-6)``
and then checks the invariants of every position it holds: no square holds two
pieces, the eggs are distinct, the status is the one the position gives, and
the history replays to the position (a pickle round trip replays and checks
it). Objects that serialise their calls (games, batches, environments) must
have played every accepted turn whole; objects that run one call at a time
(searches, MCTS agents) must have refused the others with ``wts.BusyError``.
"""

from __future__ import annotations

import contextlib
import importlib
import pickle
import random
import subprocess
import sys
import sysconfig
import threading
from collections.abc import Callable, Iterator

import numpy as np
import pytest

import wts
from tests.support.processes import run_python
from wts.engine.base import GameBase
from wts.players._search import Search
from wts.players.agents import MCTSAgent

THREADS = 4


@pytest.fixture(autouse=True)
def fast_switching() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def hammer(work: Callable[[int], None]) -> None:
    """Run ``work(thread_index)`` on THREADS threads at once; re-raise the first failure."""
    failures: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def run(index: int) -> None:
        try:
            start.wait()
            work(index)
        except BaseException as exc:  # reported in the main thread
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]


def check_position(game: GameBase) -> None:
    """The invariants of any reachable position."""
    black, white, eggs = game.black, game.white, game.eggs
    assert not black & white
    assert not (black | white) & set(eggs)
    assert len(set(eggs)) == len(eggs) <= 81
    assert all(0 <= sq < 81 for sq in black | white | set(eggs))
    again = type(game).from_setup(black=black, white=white, eggs=eggs, turn=game.turn)
    assert (again.status, again.winning_counts) == (game.status, game.winning_counts)


def check_history(game: GameBase) -> None:
    """The history replays, turn by turn, to the position (unpickling checks it)."""
    assert len(game.history) == game.turn
    assert pickle.loads(pickle.dumps(game)) == game


def moves_as(kind: int, square: int) -> object:
    """The same square as an int, a numpy integer or a name: the checked paths too."""
    return (square, np.int64(square), wts.square_name(square))[kind % 3]


@pytest.mark.parametrize("Game", [wts.Game, wts.reference.Game], ids=["fast", "reference"])
def test_shared_game_plays_whole_turns(Game) -> None:
    games = [Game() for _ in range(40 if Game is wts.Game else 4)]
    played = [0] * THREADS

    def work(index: int) -> None:
        rng = random.Random(index)
        attempt = 0
        for game in games:  # every thread plays each game until it ends
            while legal := game.legal_moves():
                attempt += 1
                black, white = rng.choice(legal), rng.choice(legal)
                try:
                    game.play(moves_as(attempt, black), moves_as(attempt + index, white))
                except wts.IllegalMoveError:  # another thread took the square, or won
                    continue
                played[index] += 1
                if attempt % 8 == 0:
                    check_position(game.copy())  # one read of the whole position

    hammer(work)
    assert sum(played) == sum(game.turn for game in games)
    for game in games:
        assert game.is_over()
        check_position(game)
        check_history(game)


@pytest.mark.parametrize("Game", [wts.Game, wts.reference.Game], ids=["fast", "reference"])
def test_shared_game_pushes_and_pops_whole_turns(Game) -> None:
    """Threads push and pop on one game: every pop gives back a turn some push
    played, and the game ends at a position its history replays to, with the
    key computed from its board."""
    game = Game()
    pushed = [0] * THREADS
    popped = [0] * THREADS

    def work(index: int) -> None:
        rng = random.Random(index)
        for attempt in range(300 if Game is wts.Game else 60):
            if attempt % 3 == 2:
                try:
                    game.pop()
                    popped[index] += 1
                except wts.NoTurnError:
                    pass
                continue
            legal = game.legal_moves()
            if not legal:
                continue
            try:
                game.push(rng.choice(legal), rng.choice(legal))
                pushed[index] += 1
            except wts.IllegalMoveError:
                continue

    hammer(work)
    assert sum(pushed) - sum(popped) == game.turn
    check_position(game)
    check_history(game)
    assert game.key() == type(game).from_fen(game.fen()).key()


def test_shared_game_copies_are_whole() -> None:
    """Copies and reads made while other threads play are positions of some turn."""
    game = wts.Game()
    seen: list[wts.Game] = []

    def work(index: int) -> None:
        rng = random.Random(index)
        for _ in range(300):
            if index % 2:
                seen.append(game.copy())
                continue
            legal = game.legal_moves()
            if not legal:
                return
            try:
                game.play(rng.choice(legal), rng.choice(legal))
            except wts.IllegalMoveError:
                continue

    hammer(work)
    assert seen
    for copy in seen:
        check_position(copy)
        check_history(copy)


def test_shared_batch_steps_whole() -> None:
    batch = wts.BatchGame(256)
    steps = [0] * THREADS

    def work(index: int) -> None:
        rng = np.random.default_rng(index)
        for _ in range(100):
            mask = batch.legal_mask()
            over = ~mask.any(axis=1)
            moves = []
            for _side in range(2):
                weights = rng.random(mask.shape) * mask
                moves.append(np.where(over, wts.NO_MOVE, weights.argmax(axis=1)))
            try:
                batch.step(moves[0], moves[1])
            except wts.IllegalMoveError:  # another thread stepped in between
                continue
            steps[index] += 1
            batch.observation()
            batch[index]

    hammer(work)
    total = sum(steps)
    assert total > 0
    turns, over = batch.turns, batch.is_over()
    # Every accepted step played one turn in every game still going.
    assert (turns[~over] == total).all() and (turns <= total).all()
    for game in batch:
        check_position(game)


def test_a_batch_reads_moves_another_thread_rewrites_once() -> None:
    """The core checks the moves, then plays them, without the GIL: it must read
    a copy of its own, or a move rewritten in between (not a square, or an
    occupied one) is played unchecked: a crash, or two turtles on one square."""
    n = 1 << 16
    batch = wts.BatchGame(n)
    batch.step(np.zeros(n, np.int64), np.ones(n, np.int64))
    black, white = np.full(n, 2, np.int64), np.full(n, 3, np.int64)
    stop = threading.Event()

    def rewrite() -> None:
        while not stop.is_set():
            black[-1] = 2_000_000_000
            black[-1] = 1  # white's square
            black[-1] = 2

    writer = threading.Thread(target=rewrite)
    writer.start()
    try:
        for _ in range(100):
            try:
                batch.step(black, white)
            except wts.IllegalMoveError as error:  # refused as a whole, and named
                assert str(error).startswith(f"game {n - 1}: black's move ")
            batch.reset()
            batch.step(np.zeros(n, np.int64), np.ones(n, np.int64))
    finally:
        stop.set()
        writer.join()
    last = batch[n - 1]
    assert not (last.black & last.white) and last.black | last.white <= {0, 1, 2, 3}
    assert (batch.turns == 1).all()


def test_shared_search_refuses_concurrent_calls() -> None:
    search = Search(wts.Game(), seed=1, max_memory=8 << 20)
    done = [0] * THREADS
    refused = [0] * THREADS

    def work(index: int) -> None:
        for _ in range(60):
            try:
                if index % 2:
                    done[index] += search.run(200)
                else:
                    strategy = search.strategy(index // 2)
                    assert abs(sum(strategy) - 1.0) < 1e-6
                    search.visits(0)
            except wts.BusyError:
                refused[index] += 1

    hammer(work)
    assert search.iterations == sum(done) > 0
    assert sum(search.visits(0)) == search.iterations


def test_shared_mcts_agent_refuses_concurrent_selects() -> None:
    agent = MCTSAgent(playouts=300, seed=3)
    game = wts.Game()
    squares: list[int] = []

    def work(index: int) -> None:
        for _ in range(8):
            with contextlib.suppress(wts.BusyError):
                squares.append(agent.select(game, ("black", "white")[index % 2]))

    hammer(work)
    assert squares and all(sq in range(81) for sq in squares)
    assert agent.total_playouts == 300 * len(squares)
    assert game == wts.Game()


def test_shared_parallel_env_steps_whole() -> None:
    pytest.importorskip("pettingzoo")
    from wts.adapters.env import parallel_env

    env = parallel_env(max_cycles=10_000)
    env.reset(seed=5)
    steps = [0] * THREADS

    def work(index: int) -> None:
        rng = random.Random(index)
        for _ in range(100):
            if not env.agents:
                return
            env.step({"black": rng.randrange(81), "white": rng.randrange(81)})
            steps[index] += 1
            env.state()

    hammer(work)
    assert env.game.turn <= sum(steps)
    check_position(env.game)
    check_history(env.game)


def test_shared_openspiel_state_keeps_moves_with_turns() -> None:
    pytest.importorskip("pyspiel")
    from wts.adapters.openspiel import load_game

    state = load_game(max_turns=1000).new_initial_state()

    def work(index: int) -> None:
        rng = random.Random(index)
        for _ in range(80):
            if state.is_terminal():
                return
            legal = state.legal_actions(0)
            if not legal:  # ended by another thread since is_terminal()
                return
            try:
                state.apply_actions([rng.choice(legal), rng.choice(legal)])
            except (wts.IllegalMoveError, RuntimeError):  # a square taken in between
                continue

    hammer(work)
    replayed = wts.Game()
    for black, white in state.moves:
        replayed.play(black, white)
    assert replayed == state.game
    check_position(state.game)


@pytest.mark.skipif(not sysconfig.get_config_var("Py_GIL_DISABLED"),
                    reason="needs a free-threaded CPython (3.14t)")
def test_importing_wts_keeps_the_gil_off() -> None:
    """Every extension declares itself free-threading compatible; one that did not
    would turn the GIL back on when imported."""
    for name in ("engine._batch", "engine._core", "engine._game", "engine._perft",
                 "engine._simulate", "players._search", "players._greedy"):
        importlib.import_module(f"wts.{name}")
    assert not sys._is_gil_enabled()


@pytest.mark.parametrize("Game", [wts.Game, wts.reference.Game], ids=["fast", "reference"])
def test_pickles_and_position_strings_read_while_another_thread_plays_are_whole(Game) -> None:
    """A pickle or a position string made while another thread plays is of one
    turn: pickles load (the history replays to the position) and every position
    string read is one the game passed through."""
    game = Game()
    seen: set[str] = set()
    reads: list[tuple[bytes, str]] = []

    def work(index: int) -> None:
        rng = random.Random(index)
        if index == 0:
            while legal := game.legal_moves():
                game.play(rng.choice(legal), rng.choice(legal))
                seen.add(game.copy().fen())
            return
        for _ in range(40 if Game is wts.Game else 10):
            reads.append((pickle.dumps(game), game.fen()))

    seen.add(Game().fen())
    hammer(work)
    for data, fen in reads:
        pickle.loads(data)
        assert fen in seen


FINALISER_READS_THE_GAME = """
import gc, sys
import numpy as np
import wts

game = wts.{engine}
batch = wts.BatchGame(2)
seen = []

class Reader:
    # A cycle: only the collector frees it, in whatever call allocates next.
    def __init__(self):
        self.me = self

    def __del__(self):
        seen.append((game.turn, game.status, game.fen(), len(game.copy().history)))
        if not game.is_over() and len(seen) % 7 == 0:
            game.play(game.legal_moves()[0], game.legal_moves()[-1])
        batch.is_over()
        batch[1]

gc.set_threshold(1, 1, 1)
for _ in range(300):
    if game.is_over():
        game = wts.{engine}
    legal = game.legal_moves()
    Reader()
    try:
        game.play(legal[0], legal[-1])
    except (wts.IllegalMoveError, wts.GameOverError):
        pass  # a finaliser played a turn first: the moves were checked again
    Reader()
    game.copy()
    Reader()
    batch[0] = wts.Game.from_fen(game.fen())
    Reader()
    try:
        batch._get_state(5, wts.Game())
    except IndexError:
        pass
gc.collect()
assert seen, "no finaliser ran"
print("ok", len(seen))
"""


@pytest.mark.parametrize("engine", ["Game()", "reference.Game()"], ids=["fast", "reference"])
def test_a_finaliser_that_reads_the_game_mid_turn_does_not_hang(engine: str) -> None:
    """The collector may run any finaliser inside any call that makes an object;
    one that reads (or plays) the game being played must not wait on that
    game's own mutex. Run in a child, so a hang fails the test instead of the run."""
    code = FINALISER_READS_THE_GAME.format(engine=engine)
    try:
        done = run_python("-c", code)
    except subprocess.TimeoutExpired:
        pytest.fail("a finaliser reading the game deadlocked it")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok") and not done.stderr, done.stderr
