"""The search's tree reuse, transpositions, threads and clock, and agent options in specs."""

from __future__ import annotations

import pickle
import threading
import time
from typing import Any

import pytest

import wts
from wts.players import search_team
from wts.players._search import Search
from wts.players.agents import MCTSAgent, make_agent
from wts.players.search_options import SearchOptions
from wts.players.specs import AgentSpec
from wts.players.tournament import format_result, play_match, play_match_game


def _most_visited(search: Search) -> tuple[int, int]:
    return tuple(max(range(81), key=search.visits(color).__getitem__)  # type: ignore[return-value]
                 for color in (0, 1))


def _searched(transpositions: bool = False, iterations: int = 5_000) -> tuple[wts.Game, Search]:
    game = wts.Game.from_fen("4o4/9/9/9/4x4/3o5/9/9/4x4 - 2")
    search = Search(game, seed=3, transpositions=transpositions)
    search.run(iterations)
    return game, search


@pytest.mark.parametrize("transpositions", [False, True])
def test_advance_keeps_the_subtree_of_the_joint_move_played(transpositions: bool) -> None:
    game, search = _searched(transpositions)
    nodes = search.nodes
    black, white = _most_visited(search)
    assert search.holds(game)
    assert search.advance(black, white)
    game.play(black, white)
    assert search.holds(game)
    # The new root kept its visits; every visit after its first chose a joint move.
    kept = search.iterations
    assert 0 < kept < 5_000 and search.nodes < nodes
    if not transpositions:
        assert sum(search.visits(0)) == sum(search.visits(1)) == kept - 1
    assert search.run(1_000) == 1_000 and search.iterations == kept + 1_000
    assert abs(sum(search.strategy(0)) - 1.0) < 1e-9
    # Everything the new root says is about the new position.
    legal = set(game.legal_moves())
    assert {sq for sq in range(81) if search.visits(0)[sq]} <= legal


def test_advance_by_an_unsearched_move_changes_nothing() -> None:
    game, search = _searched(iterations=300)
    before = (search.iterations, search.nodes, search.edges, search.visits(0), search.values(1))
    # 300 iterations try at most 300 of the 77 x 77 joint moves: take two
    # squares each side tried least.
    black = min(game.legal_moves(), key=lambda sq: (search.visits(0)[sq], sq))
    white = min(game.legal_moves(), key=lambda sq: (search.visits(1)[sq], sq))
    assert not search.advance(black, white)
    assert (search.iterations, search.nodes, search.edges, search.visits(0),
            search.values(1)) == before
    assert search.holds(game)


def test_advance_checks_its_squares() -> None:
    _, search = _searched(iterations=100)
    for bad in (-1, 81):
        with pytest.raises(wts.ParameterError):
            search.advance(bad, 0)
    with pytest.raises(TypeError):
        search.advance("E5", 0)  # type: ignore[arg-type]


def test_advance_again_and_again_to_the_end_of_a_game() -> None:
    game = wts.Game()
    search = Search(game, seed=5, transpositions=True, max_memory=1 << 20)
    while not game.is_over():
        search.run(400)
        black, white = _most_visited(search)
        game.play(black, white)
        if not search.advance(black, white):
            search = Search(game, seed=game.turn, transpositions=True, max_memory=1 << 20)
        assert search.holds(game)
        assert search.memory <= 1 << 20


def test_transpositions_join_paths_that_reach_one_position() -> None:
    # Quiet moves far apart commute: (a, b) then (c, d) is (c, d) then (a, b).
    _, plain = _searched(False, 20_000)
    _, joined = _searched(True, 20_000)
    assert plain.edges == plain.nodes - 1
    assert joined.edges > joined.nodes - 1


def test_an_agent_keeps_its_tree_for_the_next_move_and_the_other_colour() -> None:
    game = wts.Game()
    agent = MCTSAgent(playouts=2_000, seed=1)
    black = agent.select(game, "black")
    assert agent._team.reused == 0
    white = agent.select(game, "white")  # the same position: the same trees
    assert agent._team.reused == 2_000 and agent.last_search.playouts == 2_000
    game.play(black, white)
    agent.select(game, "black")
    assert agent._team.reused > 0
    fresh = MCTSAgent(playouts=2_000, seed=1, reuse=False)
    fresh.select(game, "black")
    assert fresh._team.reused == 0


def test_reuse_gives_the_same_moves_for_the_same_seed() -> None:
    def moves(threads: int) -> list[tuple[int, int]]:
        a, b = (MCTSAgent(playouts=600, seed=s, threads=threads) for s in (1, 2))
        return [(t.black_move, t.white_move) for t in play_match_game(a, b).history]

    assert moves(1) == moves(1)
    assert moves(2) == moves(2)


def test_threads_share_out_the_playouts_and_add_up_the_roots() -> None:
    game = wts.Game()
    agent = MCTSAgent(playouts=3_001, seed=1, threads=3, reuse=False)
    square = agent.select(game, "black")
    team = agent._team
    assert [tree.iterations for tree in team.trees] == [1_001, 1_000, 1_000]
    assert team.iterations == 3_001 == agent.last_search.playouts
    assert team.visits(0) == [sum(t.visits(0)[sq] for t in team.trees) for sq in range(81)]
    assert square == max(range(81), key=lambda sq: (team.visits(0)[sq], -sq)) or \
        team.visits(0)[square] == max(team.visits(0))
    assert abs(sum(team.strategy(0)) - 1.0) < 1e-9


class _FullTree:
    """A tree two playouts short of MAX_PLAYOUTS: what a search may still do."""

    def __init__(self) -> None:
        self.iterations = search_team.MAX_PLAYOUTS - 2
        self.asked: list[int] = []

    def run(self, iterations: int, stop: object = None) -> int:
        self.asked.append(iterations)
        self.iterations += iterations
        return iterations


@pytest.mark.parametrize("timed", [False, True])
def test_a_search_never_takes_a_tree_past_its_playout_limit(timed: bool) -> None:
    tree = _FullTree()
    deadline = time.perf_counter() + 3_600 if timed else None
    search_team._search(tree, None if timed else 10**6, deadline,  # type: ignore[arg-type]
                        search_team._Either(None, threading.Event()))
    assert sum(tree.asked) == 2 and tree.iterations == search_team.MAX_PLAYOUTS


class _RecordingTree(_FullTree):
    """A tree that records the threads that search it and what each run asks."""

    def __init__(self) -> None:
        super().__init__()
        self.iterations = 0
        self.threads: set[threading.Thread] = set()  # not idents, which are reused

    def run(self, iterations: int, stop: object = None) -> int:
        self.threads.add(threading.current_thread())
        return super().run(iterations, stop)


def _team_of(trees: list[_RecordingTree]) -> search_team.SearchTeam:
    team = search_team.SearchTeam(len(trees), SearchOptions(), 1 << 20, True)
    team.trees = trees  # type: ignore[assignment]
    return team


@pytest.mark.parametrize("cores", [1, 2, 3])
def test_a_team_searches_its_trees_on_no_more_threads_than_cores(
        cores: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """256 threads on 2 cores took 0.09-0.26 s for a 0.05 s limit, mostly
    starting and joining threads; each tree still gets exactly its budget."""
    monkeypatch.setattr(search_team, "usable_cores", lambda: cores)
    trees = [_RecordingTree() for _ in range(8)]
    _team_of(trees).run(8_003, None, None)
    assert [tree.iterations for tree in trees] == [1_001] * 3 + [1_000] * 5
    assert len(set().union(*(tree.threads for tree in trees))) == cores
    assert all(len(tree.threads) == 1 for tree in trees)


def test_a_timed_team_first_asks_each_tree_for_a_share_of_the_first_chunk(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of 256 trees once did 64 playouts before its first look at the
    clock: 16,384 playouts, far past a short deadline on 2 cores."""
    monkeypatch.setattr(search_team, "usable_cores", lambda: 2)
    assert search_team.first_chunk(256, 2) == 1 and search_team.first_chunk(2, 2) == 64
    assert search_team.first_chunk(16, 2) == 8
    trees = [_RecordingTree() for _ in range(256)]
    _team_of(trees).run(None, time.perf_counter() + 3_600, _stop_once_all_asked(trees))
    assert all(tree.asked[0] == 1 for tree in trees)


def _stop_once_all_asked(trees: list[_RecordingTree]) -> threading.Event:
    """An event set once every tree has been asked for playouts."""
    stop = threading.Event()
    for tree in trees:
        run = tree.run

        def counted(iterations: int, given: object = None, run=run) -> int:
            done = run(iterations, given)
            if all(t.asked for t in trees):
                stop.set()
            return done

        tree.run = counted  # type: ignore[method-assign]
    return stop


def test_an_agent_with_a_budget_plays_alike_on_any_number_of_cores(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With a playout budget the trees' results depend only on their seeds,
    however many threads search them."""
    plays = []
    for cores in (4, 2, 1):
        monkeypatch.setattr(search_team, "usable_cores", lambda cores=cores: cores)
        agent = MCTSAgent(playouts=4_000, threads=4, seed=8)
        game = wts.Game()
        first = agent.select(game, "black")
        game.play(first, 40 if first != 40 else 41)
        second = agent.select(game, "white")
        info = agent.last_search
        assert info is not None
        plays.append((first, second, info.playouts, info.nodes, info.strategy))
    assert plays[0] == plays[1] == plays[2]


def test_a_whole_game_clock_gives_each_move_a_tenth_of_what_is_left() -> None:
    agent = MCTSAgent(clock=2.0, seed=1)
    game = wts.Game()
    assert agent._move_time(game) == pytest.approx(0.2)
    agent._clock_used = 1.5
    # The same turn again (the other colour, say): the same game, the clock runs on.
    assert agent._move_time(game) == pytest.approx(0.05)
    game.play(0, 1)
    assert agent._move_time(game) == pytest.approx(0.05)
    assert agent._move_time(wts.Game()) == pytest.approx(0.2)  # an earlier turn: a new game
    capped = MCTSAgent(clock=100.0, time_limit=0.5, seed=1)
    assert capped._move_time(wts.Game()) == 0.5
    spent = MCTSAgent(clock=1.0, seed=1)
    spent._clock_turn, spent._clock_used = 0, 5.0
    game.play(2, 3)
    assert spent._move_time(game) == 0.0


def test_a_clocked_agent_plays_a_whole_game() -> None:
    agent = MCTSAgent(clock=1.0, seed=2)
    game = play_match_game(agent, make_agent("random", seed=3))
    assert game.is_over() and agent.total_playouts > 0


def test_an_agent_playing_both_sides_spends_one_clock() -> None:
    agent = MCTSAgent(clock=1.0, seed=3, playouts=50)
    game = wts.Game()
    agent.select(game, "black")
    spent = agent._clock_used
    agent.select(game, "white")
    assert agent._clock_used > spent


def test_trees_without_playouts_do_not_dilute_the_strategy() -> None:
    agent = MCTSAgent(playouts=3, threads=4, seed=1, reuse=False)
    agent.select(wts.Game(), "black")
    strategy = agent.last_search.strategy
    assert sum(p > 0 for p in strategy) <= 3
    assert abs(sum(strategy) - 1.0) < 1e-9


def test_playouts_near_the_last_turn_still_play() -> None:
    # The playout's turn limit must not wrap around near WTS_MAX_TURN.
    game = wts.Game.from_fen("9/9/9/9/4e4/9/9/9/9 E5 4294967000")
    search = Search(game, seed=0)
    search.run(2_000)
    assert {v for v in search.values(0) if v is not None} != {0.5}


def test_search_checks_transpositions_is_a_bool() -> None:
    with pytest.raises(wts.ParameterTypeError):
        Search(wts.Game(), transpositions="false")  # type: ignore[arg-type]


def test_agent_specs_take_options() -> None:
    assert AgentSpec.parse("mcts:1,threads=2, reuse = false,policy=rm").keywords() == {
        "threads": 2, "reuse": False, "policy": "rm"}
    assert AgentSpec.parse("mcts:1,threads=2") == AgentSpec("mcts", 1, (("threads", 2),))
    agent = make_agent("mcts:2,playouts=500,transpositions=yes,final=value", seed=1)
    assert isinstance(agent, MCTSAgent)
    assert (agent.playouts, agent.transpositions, agent.final) == (500, True, "value")
    assert make_agent("mcts,time_limit=0.5", time_limit=2.0).time_limit == 0.5
    assert make_agent("mcts", time_limit=2.0).time_limit == 2.0
    assert str(AgentSpec.parse(" mcts : 2 , threads=2")) == "mcts:2,threads=2"


def test_ladder_anchors_take_options() -> None:
    from wts.cli.ladder import _anchors

    assert [str(a) for a in _anchors("random,mcts:1,policy=rm,final=value,greedy")] == [
        "random", "mcts:1,policy=rm,final=value", "greedy"]


@pytest.mark.parametrize(("spec", "words"), [
    ("mcts:1,speed=2", "bad option 'speed=2'"),
    ("mcts:1,threads", "bad option 'threads'"),
    ("mcts:1,threads=", "bad option 'threads='"),
    ("mcts:1,threads=two", "bad value for threads"),
    ("mcts:1,reuse=maybe", "expected true or false"),
    ("mcts:1,threads=2,threads=3", "given twice"),
    ("random,threads=2", "KEY one of: none"),
    ("openspiel-mcts:10,threads=2", "uct_c"),
    ("mcts:1,threads=\uff12", "expected digits"),
    ("mcts:1,threads=1_0", "expected digits"),
    ("mcts:1,exploration=\uff10.3", "expected float"),
    ("mcts:1,speed=" + "9" * 10_000, "more characters"),
])
def test_bad_agent_options_are_named(spec: str, words: str) -> None:
    with pytest.raises(wts.ParameterError, match=words):
        AgentSpec.parse(spec)


def test_option_values_are_checked_by_the_agent() -> None:
    for spec in ("mcts:1,threads=0", "mcts:1,exploration=nan", "mcts:1,clock=-1",
                 "mcts:1,policy=best"):
        with pytest.raises(wts.ParameterError):
            make_agent(spec)


def test_a_match_between_two_settings_labels_them_apart() -> None:
    result = play_match("mcts:1,playouts=50", "mcts:1,playouts=50,reuse=false", 2, seed=0)
    report = format_result(result)
    assert "mcts:1,playouts=50,reuse=false" in report
    started = time.perf_counter()
    assert result.games == 2 and time.perf_counter() - started < 60


def test_a_spec_is_parsed_once_into_a_value_that_writes_its_text() -> None:
    spec = AgentSpec.parse(" MCTS : 2 , threads = 02, reuse=no")
    assert str(spec) == "mcts:2,threads=2,reuse=false"
    assert AgentSpec.parse(spec) is spec  # a value passes through, not parsed again
    assert AgentSpec.parse(str(spec)) == spec
    assert pickle.loads(pickle.dumps(spec)) == spec  # what a worker process is sent
    engine = AgentSpec.parse("  engine: ./My Engine --Depth=3,x ")
    assert engine.is_engine and engine.command == "./My Engine --Depth=3,x"
    assert str(engine) == "engine:./My Engine --Depth=3,x"
    assert AgentSpec.parse("engine:./no-such-program").command == "./no-such-program"  # no disk
    for bad, words in [("mcts:1,policy=r m", "white space"), ("engine:", "needs a command"),
                       ("engine:a\x00b", "control character"), (3, "a string")]:
        with pytest.raises(wts.ParameterError, match=words):
            AgentSpec.parse(bad)  # type: ignore[arg-type]


def test_an_agent_checks_its_search_options_once_and_builds_no_search_to_do_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[object] = []

    class Counted(search_team.Search):  # type: ignore[misc]
        def __init__(self, *args: object, **kwargs: object) -> None:
            built.append(args)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(search_team, "Search", Counted)
    agent = MCTSAgent(level=1, seed=1, policy="rm")
    assert built == [] and agent.options == SearchOptions(policy="rm")
    with pytest.raises(wts.ParameterError, match="policy"):
        MCTSAgent(policy="best")  # refused by the options, before any tree
    agent.select(wts.Game(), "black")
    assert len(built) == 1 and built[0][2] is agent.options  # the same checked value


@pytest.mark.parametrize("build", [
    lambda: AgentSpec("bogus"),
    lambda: AgentSpec("engine"),
    lambda: AgentSpec("engine", 2, command="x"),
    lambda: AgentSpec("mcts", command="x"),
    lambda: AgentSpec("mcts", 9),
    lambda: AgentSpec("mcts", True),
    lambda: AgentSpec("random", 5),
    lambda: AgentSpec("mcts", 1, (("evil", 1),)),
    lambda: AgentSpec("mcts", 1, (("threads", "2"),)),
    lambda: AgentSpec("mcts", 1, (("threads", 2), ("threads", 3))),
    lambda: AgentSpec("random", None, (("threads", 2),)),
], ids=range(11))
def test_a_spec_built_field_by_field_is_held_to_what_parse_makes(build: Any) -> None:
    with pytest.raises(wts.ParameterError):
        build()


def test_a_non_finite_option_is_refused_when_parsed() -> None:
    for text in ("nan", "inf", "-inf", "1e309"):
        with pytest.raises(wts.ParameterError, match="expected float"):
            AgentSpec.parse(f"mcts:1,exploration={text}")


def test_check_agent_says_a_bad_value_before_any_game() -> None:
    from wts.players.agents import check_agent

    assert check_agent("mcts:1,threads=2") == AgentSpec("mcts", 1, (("threads", 2),))
    for bad in ("mcts:1,threads=0", "mcts:1,policy=foo", "engine:/nonexistent/engine"):
        with pytest.raises(wts.ParameterError):
            check_agent(bad)


def test_large_trees_grown_and_freed_on_two_threads_search_as_one_at_a_time() -> None:
    """The tree's large arrays (wts_blocks.h) move between threads, grow past the
    size where they become mappings, and are taken again from the one kept
    spare: each search still gives what it gives alone."""
    game = wts.Game.from_fen("4o4/9/9/9/4x4/3o5/9/9/4x4 - 2")
    # From a few hundred kilobytes to tens of megabytes, some capped by max_memory.
    plans = [(seed, iterations, memory) for seed, (iterations, memory) in enumerate(
        [(300, 256 << 20), (4_000, 256 << 20), (2_500, 2 << 20), (800, 2 << 20),
         (6_000, 256 << 20), (1_500, 256 << 20)] * 3)]

    def searched(seed: int, iterations: int, memory: int) -> tuple[Any, ...]:
        search = Search(game, seed=seed, max_memory=memory)
        search.run(iterations)
        grown = search.nodes
        moved = search.advance(*_most_visited(search))
        if moved:
            search.run(iterations // 2)
        return grown, moved, search.nodes, search.visits(0), search.visits(1)

    alone = [searched(*plan) for plan in plans]
    together: dict[int, tuple[Any, ...]] = {}

    def share(part: list[tuple[int, int, int]]) -> None:
        for plan in part:
            together[plan[0]] = searched(*plan)

    workers = [threading.Thread(target=share, args=(plans[i::2],)) for i in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert [together[seed] for seed, _, _ in plans] == alone
    assert all(result[0] < 2_500 for result in alone[2::6])  # max_memory held these back
    assert all(result[0] == 6_001 for result in alone[4::6])
