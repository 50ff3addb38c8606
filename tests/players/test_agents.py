"""The agents (``wts.agents``), their C kernels (``wts.players._search`` and
``_greedy``) and ``wts tournament``.

Fast checks only: the strength of the agents is measured by
``bench/test_strength.py``, not asserted here.
"""

from __future__ import annotations

import math
import random
import threading
import time

import numpy as np
import pytest

import wts
import wts.engine.reference
from wts._seeds import derive
from wts.cli import main as cli
from wts.players._greedy import evaluate_position, greedy_move, winning_squares
from wts.players._search import Search
from wts.players.agents import (
    Agent,
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    make_agent,
    ucb_exploration,
)
from wts.players.specs import AGENT_NAMES, LEVELS, AgentSpec
from wts.players.tournament import elo_difference, play_match, play_match_game

# Black has four in a row on rank 2 with both ends open: A2 or F2 wins.
OPEN_FOUR = dict(black=["B2", "C2", "D2", "E2"], white=["A9", "I9", "E7"])
# White has four on rank 1 against the edge: only E1 completes it.
WHITE_FOUR = dict(black=["A9", "C7", "E5"], white=["A1", "B1", "C1", "D1"])
# Black's E5 brackets F5 and G5 against H5, and the egg on C3 hatches for it.
CAPTURE = dict(black=["H5", "A9"], white=["F5", "G5", "I1"], eggs=["C3"])


def small_agents(seed: int | None = 1) -> list[Agent]:
    return [RandomAgent(seed=seed), GreedyAgent(seed=seed),
            MCTSAgent(level=1, seed=seed, playouts=300)]


def squares(*names: str) -> set[int]:
    return {wts.parse_square(name) for name in names}


# -- the protocol ------------------------------------------------------------------

@pytest.mark.parametrize("agent", small_agents(), ids=lambda a: type(a).__name__)
def test_agents_follow_the_protocol(agent: Agent) -> None:
    assert isinstance(agent, Agent)
    game = wts.Game.from_setup(black=["E5"], white=["D4"], eggs=["A1"])
    before = game.copy()
    for color in (wts.Color.BLACK, wts.Color.WHITE, "black", "white"):
        square = agent.select(game, color)
        assert type(square) is int and square in game.legal_moves()
    assert game == before  # select leaves the game alone
    agent.reset()


@pytest.mark.parametrize("agent", small_agents(), ids=lambda a: type(a).__name__)
def test_agents_play_whole_games_with_legal_moves_only(agent: Agent) -> None:
    opponent = RandomAgent(seed=5)
    for first in (True, False):
        game = wts.Game()
        black, white = (agent, opponent) if first else (opponent, agent)
        while not game.is_over():
            game.play(black.select(game, "black"), white.select(game, "white"))  # never raises


@pytest.mark.parametrize("make", [
    lambda seed: RandomAgent(seed=seed),
    lambda seed: GreedyAgent(seed=seed),
    lambda seed: MCTSAgent(level=1, seed=seed, playouts=200),
], ids=["random", "greedy", "mcts"])
def test_a_seed_makes_an_agent_reproducible(make) -> None:
    def moves(agent: Agent) -> list[int]:
        game, opponent, played = wts.Game(), RandomAgent(seed=3), []
        while not game.is_over() and game.turn < 12:
            move = agent.select(game, "black")
            played.append(move)
            game.play(move, opponent.select(game, "white"))
        return played

    first = make(11)
    sequence = moves(first)
    assert moves(make(11)) == sequence
    first.reset()
    assert moves(first) == sequence  # reset goes back to the seed
    assert any(moves(make(seed)) != sequence for seed in (12, 13, 14))


@pytest.mark.parametrize("agent", small_agents(seed=4), ids=lambda a: type(a).__name__)
def test_agents_read_the_reference_engine_too(agent: Agent) -> None:
    fast = wts.Game.from_setup(**CAPTURE)
    slow = wts.reference.Game.from_setup(**CAPTURE)
    agent.reset()
    on_fast = agent.select(fast, "white")
    agent.reset()
    assert agent.select(slow, "white") == on_fast


@pytest.mark.parametrize("agent", small_agents(), ids=lambda a: type(a).__name__)
def test_agents_refuse_a_finished_game_and_a_bad_colour(agent: Agent) -> None:
    over = wts.Game.from_setup(black=["A1", "B1", "C1", "D1", "E1"])
    assert over.is_over()
    with pytest.raises(wts.GameOverError):
        agent.select(over, "black")
    for color in ("red", 0, None):
        with pytest.raises(ValueError, match="colour"):
            agent.select(wts.Game(), color)  # type: ignore[arg-type]


def test_constructor_arguments_are_checked() -> None:
    for level in (0, 6, "3", True, 2.0):
        with pytest.raises(ValueError, match="level"):
            MCTSAgent(level=level)  # type: ignore[arg-type]
    for limit in (0, -1, float("inf"), "1"):
        with pytest.raises(ValueError, match="time_limit"):
            MCTSAgent(time_limit=limit)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="policy"):
        MCTSAgent(policy="minimax")
    with pytest.raises(ValueError, match="playout"):
        MCTSAgent(playout="heavy")
    with pytest.raises(ValueError, match="final"):
        MCTSAgent(final="best")
    with pytest.raises(ValueError, match="playouts"):
        MCTSAgent(playouts=0)
    for agent_class in (RandomAgent, GreedyAgent, MCTSAgent):
        with pytest.raises(TypeError, match="seed"):
            agent_class(seed="1")  # type: ignore[arg-type]


@pytest.mark.parametrize("level", [True, 3.0, None, "3"])
def test_a_level_of_the_wrong_type_is_a_parameter_type_error(level) -> None:
    with pytest.raises(wts.ParameterTypeError, match="level"):
        MCTSAgent(level=level)


def test_a_level_may_be_any_integer_type() -> None:
    assert MCTSAgent(level=np.int64(2)).level == MCTSAgent(level=np.array(2)).level == 2


def test_the_ucb_constant_grows_with_the_playout_budget() -> None:
    assert ucb_exploration(1) == ucb_exploration(1000) == 0.2
    assert ucb_exploration(32_000) == pytest.approx(0.4)
    constants = [MCTSAgent(level=level).exploration for level in sorted(LEVELS)]
    assert constants == sorted(set(constants)) and constants[0] == 0.2
    assert MCTSAgent(playouts=2000).exploration == pytest.approx(0.24)
    assert MCTSAgent(level=5, exploration=0.1).exploration == 0.1  # given, kept
    # A timed search takes its level's constant; other policies keep their gamma.
    assert MCTSAgent(level=3, time_limit=0.1).exploration == pytest.approx(0.4)
    assert MCTSAgent(policy="rm").exploration == 0.2  # gamma, whatever the playouts
    agent = make_agent("mcts:3,exploration=0.3", seed=1)
    assert isinstance(agent, MCTSAgent) and agent.exploration == 0.3
    with pytest.raises(wts.ParameterError, match="playouts"):
        ucb_exploration(0)
    with pytest.raises(wts.ParameterError, match="policy"):  # checked, not compared
        MCTSAgent(policy=np.array(["ucb", "rm"]))


def test_levels_and_agent_specs() -> None:
    assert sorted(LEVELS) == [1, 2, 3, 4, 5]
    assert all(LEVELS[k] < LEVELS[k + 1] for k in range(1, 5))
    assert MCTSAgent().playouts == LEVELS[3]
    assert AGENT_NAMES == ("random", "greedy", "mcts", "az", "openspiel-mcts")
    assert AgentSpec.parse("mcts:2") == AgentSpec("mcts", 2)
    assert AgentSpec.parse(" Greedy ") == AgentSpec("greedy")
    assert isinstance(make_agent("random", seed=1), RandomAgent)
    assert isinstance(make_agent("greedy", seed=1), GreedyAgent)
    assert make_agent("mcts", seed=1).level == 3
    assert make_agent("mcts", level=4).level == 4
    assert make_agent("mcts:2", level=4).level == 2  # the spec's own level wins
    assert make_agent("mcts", time_limit=0.5).time_limit == 0.5
    assert AgentSpec.parse(" OpenSpiel-MCTS:200 ") == AgentSpec("openspiel-mcts", 200)
    assert AgentSpec.parse("openspiel-mcts") == AgentSpec("openspiel-mcts")
    for bad in ("minimax", "mcts:0", "mcts:6", "mcts:x", "greedy:2", "", "openspiel-mcts:0",
                "openspiel-mcts:x", "openspiel-mcts:-5", "openspiel-mcts:1000001",
                "openspiel-mcts:٣"):
        with pytest.raises(ValueError):
            AgentSpec.parse(bad)


# -- what the agents see -------------------------------------------------------------

def test_greedy_takes_a_capture() -> None:
    game = wts.Game.from_setup(**CAPTURE)
    assert {GreedyAgent(seed=s).select(game, "black") for s in range(5)} == squares("E5")


def test_greedy_blocks_an_immediate_five() -> None:
    game = wts.Game.from_setup(**WHITE_FOUR)
    assert {GreedyAgent(seed=s).select(game, "black") for s in range(5)} == squares("E1")


def test_greedy_completes_its_own_five() -> None:
    game = wts.Game.from_setup(**OPEN_FOUR)
    assert {GreedyAgent(seed=s).select(game, "black") for s in range(5)} <= squares("A2", "F2")


def test_mcts_finds_the_winning_squares() -> None:
    game = wts.Game.from_setup(**OPEN_FOUR)
    for seed in range(3):
        agent = MCTSAgent(level=2, seed=seed)
        assert agent.select(game, "black") in squares("A2", "F2")
        info = agent.last_search
        assert info is not None and info.playouts == LEVELS[2] and info.value > 0.9


def test_mcts_blocks_the_opponents_five() -> None:
    game = wts.Game.from_setup(**WHITE_FOUR)
    for seed in range(3):
        assert MCTSAgent(level=2, seed=seed).select(game, "black") == wts.E1


def test_mcts_defends_an_open_four_as_well_as_it_can() -> None:
    # Two winning squares: white can only guess one of them (a collision lays an egg).
    game = wts.Game.from_setup(**OPEN_FOUR)
    assert MCTSAgent(level=2, seed=1).select(game, "white") in squares("A2", "F2")


@pytest.mark.parametrize("policy", ["rm", "exp3", "ucb"])
def test_every_selection_policy_finds_a_win(policy: str) -> None:
    game = wts.Game.from_setup(**OPEN_FOUR)
    agent = MCTSAgent(seed=2, playouts=4000, policy=policy)
    assert agent.select(game, "black") in squares("A2", "F2")


def test_the_time_limit_is_respected_roughly() -> None:
    agent = MCTSAgent(seed=1, time_limit=0.25)
    started = time.perf_counter()
    agent.select(wts.Game(), "black")
    took = time.perf_counter() - started
    assert 0.2 <= took < 5.0  # an upper bound only against a runaway: the machine is shared
    assert agent.last_search is not None and agent.last_search.playouts > 100
    assert agent.playouts_per_second > 0


def test_kernel_helpers() -> None:
    game = wts.Game.from_setup(**OPEN_FOUR)
    assert winning_squares(game, 0) == sorted(squares("A2", "F2"))
    assert winning_squares(game, 1) == []
    assert evaluate_position(game, 0) > evaluate_position(game, 1)
    won = wts.Game.from_setup(black=["A1", "B1", "C1", "D1", "E1"])
    assert evaluate_position(won, 0) == 1e6 and evaluate_position(won, 1) == -1e6
    assert greedy_move(won, 0, 1) == -1
    with pytest.raises(ValueError):
        greedy_move(game, 2, 1)


# -- the search --------------------------------------------------------------------

def test_search_statistics_add_up() -> None:
    search = Search(wts.Game.from_setup(black=["E5"], white=["D4"]), seed=3)
    assert search.run(2000) == 2000 and search.iterations == 2000
    for color in (0, 1):
        visits = search.visits(color)
        assert sum(visits) == 2000
        assert visits[wts.E5] == visits[wts.D4] == 0
        strategy = search.strategy(color)
        assert math.isclose(sum(strategy), 1.0) and strategy[wts.E5] == 0.0
        values = search.values(color)
        assert values[wts.E5] is None
        assert all(v is None or 0.0 <= v <= 1.0 for v in values)
    assert search.nodes > search.expanded >= 1 and search.memory > 0
    with pytest.raises(ValueError):
        search.strategy(2)
    with pytest.raises(ValueError):
        search.run(-1)


def test_search_is_deterministic_and_runs_in_threads() -> None:
    game = wts.Game()
    alone = Search(game, seed=9)
    alone.run(3000)
    searches = [Search(game, seed=9) for _ in range(2)]
    threads = [threading.Thread(target=s.run, args=(3000,)) for s in searches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for search in searches:
        assert search.visits(0) == alone.visits(0) and search.values(1) == alone.values(1)


def test_search_from_a_finished_game_does_nothing() -> None:
    search = Search(wts.Game.from_setup(black=["A1", "B1", "C1", "D1", "E1"]))
    assert search.run(100) == 0
    assert search.strategy(0) == [0.0] * 81 and search.visits(1) == [0] * 81


def test_search_memory_limit_stops_the_tree_not_the_search() -> None:
    search = Search(wts.Game(), seed=1, max_memory=1 << 20)
    search.run(20_000)
    assert search.iterations == 20_000 and search.memory <= 1 << 20
    assert sum(search.visits(0)) == 20_000


@pytest.mark.parametrize("prior", [None, "learned"])
@pytest.mark.parametrize("max_memory", [0, 1 << 20, 3 << 20])
def test_search_memory_stays_within_max_memory_with_or_without_a_prior(
        prior: str | None, max_memory: int) -> None:
    """The statistics' size depends on the prior (its array is kept only
    then): max_memory bounds the tree either way, the root aside."""
    from wts.players.prior import LEARNED

    search = Search(wts.Game(), seed=2, max_memory=max_memory,
                    prior=LEARNED if prior else None)
    root = search.memory
    search.run(15_000)
    assert search.memory <= max(max_memory, root)
    assert sum(search.visits(0)) == sum(search.visits(1)) == 15_000
    assert abs(sum(search.strategy(0)) - 1.0) < 1e-9


def _one_square_left() -> wts.Game:
    """A full board but I9, with no five: the only joint move, both on I9,
    lays an egg there and ends the game in a draw, so an iteration is cheap."""
    squares = [(r, c) for r in range(9) for c in range(9) if r * 9 + c != 80]
    return wts.Game.from_setup(black=[r * 9 + c for r, c in squares if (r + 2 * c) % 4 < 2],
                               white=[r * 9 + c for r, c in squares if (r + 2 * c) % 4 >= 2])


@pytest.mark.parametrize("policy", ["ucb", "rm"])
def test_search_counts_a_square_past_two_to_the_24_visits_exactly(policy: str) -> None:
    """Float statistics froze a square's visits at 2**24 = 16,777,216 (and its
    sum of rewards), a few minutes of a long search; the counts stay exact."""
    game = _one_square_left()
    assert game.legal_moves() == [80]
    search = Search(game, seed=1, policy=policy, max_memory=0)
    iterations = 2**24 + 1000
    assert search.run(iterations) == iterations == search.iterations
    for color in (0, 1):
        assert search.visits(color)[80] == iterations
        assert search.values(color)[80] == 0.5
        assert search.strategy(color)[80] == 1.0


def test_search_arguments_are_checked() -> None:
    game = wts.Game()
    with pytest.raises(ValueError, match="policy"):
        Search(game, policy="x")
    with pytest.raises(ValueError, match="playout"):
        Search(game, playout="x")
    with pytest.raises(ValueError, match="exploration"):
        Search(game, policy="rm", exploration=0.0)
    with pytest.raises(ValueError, match="expand_threshold"):
        Search(game, expand_threshold=0)
    with pytest.raises(TypeError):
        Search(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("exploration", [float("nan"), float("inf"), -float("inf"), -0.1, 2e6])
def test_search_refuses_a_non_finite_or_out_of_range_exploration(exploration: float) -> None:
    """NaN once passed a ``< 0`` check and the search played square -1 until it crashed."""
    with pytest.raises(wts.ParameterError, match="exploration"):
        Search(wts.Game(), policy="ucb", exploration=exploration)
    with pytest.raises(wts.ParameterError, match="exploration"):
        MCTSAgent(playouts=10, policy="rm", exploration=exploration)


@pytest.mark.parametrize("call", [
    lambda s: s.run(1), lambda s: s.strategy(0), lambda s: s.visits(0), lambda s: s.values(1),
    lambda s: s.iterations, lambda s: s.nodes, lambda s: s.expanded, lambda s: s.memory,
])
def test_a_search_never_initialised_raises_instead_of_crashing(call) -> None:
    with pytest.raises(RuntimeError, match="__init__"):
        call(Search.__new__(Search))


def test_search_takes_numpy_integers_and_refuses_bad_counts() -> None:
    search = Search(wts.Game(), seed=np.uint64(3), expand_threshold=np.int8(2))
    assert search.run(np.int64(50)) == 50 and len(search.strategy(np.int32(1))) == 81
    with pytest.raises(wts.ParameterError, match="iterations"):
        search.run(2**31)
    with pytest.raises(wts.ParameterTypeError, match="iterations"):
        search.run(1.5)
    with pytest.raises(wts.ParameterError, match="color"):
        search.visits(-1)


def test_a_set_stop_event_ends_a_search_at_once() -> None:
    stop = threading.Event()
    search = Search(wts.Game(), seed=1)
    stop.set()
    assert search.run(10**9, stop) == 0
    agent = MCTSAgent(playouts=10**9, seed=2, stop=stop)
    assert agent.select(wts.Game(), "white") in range(81)
    assert agent.last_search is not None and agent.last_search.playouts == 0


@pytest.mark.parametrize(("threads", "time_limit"), [(1, None), (2, None), (2, 600.0)])
def test_stop_event_set_from_another_thread_makes_select_answer(
        threads: int, time_limit: float | None) -> None:
    stop = threading.Event()
    agent = MCTSAgent(playouts=10**9, seed=2, stop=stop, threads=threads, time_limit=time_limit)
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        square = agent.select(wts.Game(), "black")
    finally:
        timer.cancel()
    assert square in range(81)
    assert agent.last_search is not None and 0 < agent.last_search.playouts < 10**9
    # A thread the machine starts after the stop may not search at all.
    assert any(tree.iterations > 0 for tree in agent._team.trees)


def test_reset_during_a_select_in_another_thread_is_refused_and_changes_nothing() -> None:
    """``reset`` takes the busy lock as ``select`` does: while another thread
    selects it raises BusyError, and that select ends with its own state (a
    reset once raced it, failing it with IndexError and undone by it)."""
    stop = threading.Event()
    agent = MCTSAgent(playouts=10**9, seed=4, stop=stop)
    result: list[int] = []
    selecting = threading.Thread(target=lambda: result.append(agent.select(wts.Game(), "black")))
    selecting.start()
    try:
        while not agent._busy.locked() and selecting.is_alive():
            time.sleep(0.001)
        state = agent._rng.getstate()
        with pytest.raises(wts.BusyError, match="another thread"):
            agent.reset()
        assert agent._rng.getstate() == state and agent._team.trees
    finally:
        stop.set()
        selecting.join()
    assert result and result[0] in range(81)
    assert agent.total_playouts > 0
    agent.reset()  # once the select has ended
    assert agent.total_playouts == 0 and agent.last_search is None


@pytest.mark.parametrize("seed", range(40))
def test_winning_squares_match_the_reference_lines(seed: int) -> None:
    """Every empty square that would complete five of ``color``, by the reference's
    line finder (the C version once shifted by 64 and erred at -O0)."""
    rng = random.Random(seed)
    squares_left = list(range(81))
    rng.shuffle(squares_left)
    black, white = squares_left[:20], squares_left[20:40]
    game = wts.Game.from_setup(black=black, white=white)
    for color, own in ((0, black), (1, white)):
        expected = []
        for square in squares_left[40:]:
            board = [wts.Piece.EMPTY] * 81
            for sq in [*own, square]:
                board[sq] = wts.Piece.BLACK if color == 0 else wts.Piece.WHITE
            turtle = wts.Color.BLACK if color == 0 else wts.Color.WHITE
            if square in wts.engine.reference.winning_turtles(board, turtle):
                expected.append(square)
        assert winning_squares(game, color) == sorted(expected)


# -- tournament --------------------------------------------------------------------

def test_elo_difference() -> None:
    assert elo_difference(50, 0, 50)[0] == 0.0
    diff, low, high = elo_difference(75, 0, 25)
    assert math.isclose(diff, 190.85, abs_tol=0.01) and low < diff < high
    assert elo_difference(10, 10, 0)[0] == pytest.approx(190.85, abs=0.01)
    diff, low, high = elo_difference(20, 0, 0)
    assert diff == math.inf and high == math.inf and 0 < low < math.inf
    diff, low, high = elo_difference(0, 0, 20)
    assert diff == -math.inf and low == -math.inf and -math.inf < high < 0


def test_match_colours_seeds_and_counts() -> None:
    result = play_match("greedy", "random", 6, seed=3)
    assert result.games == 6
    assert [r.a_color for r in result.records] == [wts.Color.BLACK, wts.Color.WHITE] * 3
    assert result.a_wins + result.b_wins + result.draws == 6
    assert result.wins_as(0, wts.Color.BLACK) + result.wins_as(0, wts.Color.WHITE) == result.a_wins
    again = play_match("greedy", "random", 6, seed=3, jobs=2)
    assert [r.moves for r in again.records] == [r.moves for r in result.records]
    assert derive(3, 0, 0) != derive(3, 0, 1) != derive(3, 1, 0)


def test_match_records_are_the_games_played() -> None:
    result = play_match("greedy", "random", 3, seed=np.uint64(2), jobs=np.int64(2))
    for record in result.records:
        game = wts.Game()
        for black, white in record.moves:
            game.play(black, white)
        assert game.turn == record.turns and game.winner is record.winner


@pytest.mark.parametrize(("kwargs", "error", "name"), [
    (dict(games=-1), wts.ParameterError, "games"),
    (dict(games=2.0), wts.ParameterTypeError, "games"),
    (dict(games=2, jobs=0), wts.ParameterError, "jobs"),
    (dict(games=2, jobs=2000), wts.ParameterError, "jobs"),
    (dict(games=2, seed=-1), wts.ParameterError, "seed"),
])
def test_match_rejects_bad_counts(kwargs: dict[str, object], error: type[Exception],
                                  name: str) -> None:
    with pytest.raises(error, match=name):
        play_match("greedy", "random", **kwargs)  # type: ignore[arg-type]


def test_an_error_in_a_match_on_threads_is_raised_with_no_thread_left() -> None:
    threads = threading.active_count()
    with pytest.raises(wts.ParameterError, match="time_limit"):
        play_match("mcts", "random", 50, time_limit=-1.0, jobs=3)
    assert threading.active_count() == threads


def test_a_game_stops_once_its_event_is_set() -> None:
    stop = threading.Event()
    stop.set()
    game = play_match_game(MCTSAgent(level=1, seed=1, stop=stop), RandomAgent(seed=2),
                           stop=stop)
    assert game.turn == 0 and not game.is_over()


def test_tournament_module_examples() -> None:
    import doctest

    import wts.players.tournament

    assert doctest.testmod(wts.players.tournament).failed == 0


def test_tournament_cli_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tournament", "mcts:1", "random", "--games", "2", "--seed", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "wts tournament: mcts:1 vs random, 2 games, seed 5"
    assert lines[1].split() == ["wins", "as", "black", "as", "white"]
    assert lines[2].split()[0] == "mcts:1" and lines[3].split()[0] == "random"
    wins = int(lines[2].split()[1]) + int(lines[3].split()[1])
    assert lines[4].split()[0] == "draws" and wins + int(lines[4].split()[1]) == 2
    assert lines[5].startswith("  score") and lines[5].endswith("for mcts:1")
    assert lines[6].startswith("  Elo") and "(95% interval" in lines[6]
    assert lines[7].startswith("  playouts/s") and "for mcts:1 (1,000 playouts" in lines[7]
    assert lines[8].startswith("  time")


def test_tournament_cli_level_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tournament", "mcts", "mcts:1", "--games", "1", "--level", "1"]) == 0
    out = capsys.readouterr().out
    assert "mcts:1 (A) vs mcts:1 (B), 1 games" in out


@pytest.mark.parametrize("argv", [
    ["tournament"],
    ["tournament", "greedy"],
    ["tournament", "minimax", "random"],
    ["tournament", "mcts:9", "random"],
    ["tournament", "greedy:2", "random"],
    ["tournament", "greedy", "random", "--games", "0"],
    ["tournament", "greedy", "random", "--games", "many"],
    ["tournament", "greedy", "random", "--seed", "-1"],
    ["tournament", "greedy", "random", "--level", "6"],
    ["tournament", "greedy", "random", "--time-limit", "0"],
    ["tournament", "greedy", "random", "--jobs", "0"],
])
def test_tournament_cli_bad_arguments_exit_2(argv: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


def test_module_examples() -> None:
    import doctest

    import wts.players.agents

    assert doctest.testmod(wts.players.agents).failed == 0
