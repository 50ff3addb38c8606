"""The network player's search and agent."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import wts
from wts.agents import AgentSpec, AZAgent, make_agent
from wts.errors import GameOverError, NetworkFileError, ParameterError
from wts.network import Network, NetworkShape
from wts.players._az import AZSearch

SMALL = NetworkShape(blocks=1, channels=8)


def run(search: AZSearch, net: Network, evaluations: int, batch: int = 8) -> None:
    planes = np.empty((batch, 81, 11), np.float32)
    legal = np.empty((batch, 81), np.uint8)
    while search.evaluations < evaluations:
        count = search.collect(planes, legal)
        if count == 0:
            break
        out = net.evaluate(planes[:count], legal[:count].view(bool))
        if not search.apply(out.black, out.white, out.value):
            break


def test_with_uniform_priors_and_drawn_values_the_visits_spread_evenly() -> None:
    # Documented: every square starts equal, so PUCT visits the least visited first.
    search = AZSearch(wts.Game(), seed=0)
    run(search, Network.uniform(SMALL), 800, batch=1)
    for player in (0, 1):
        visits, values, priors = search.root(player)
        assert max(visits) - min(visits) <= 1
        assert all(v == pytest.approx(0.5) for v in values if v is not None)
        assert priors == pytest.approx([1 / 81] * 81)


def test_a_search_repeats_exactly_for_a_seed() -> None:
    net = Network.initial(SMALL, seed=2)
    game = wts.Game()
    game.play("e5", "d4")
    roots = []
    for _ in range(2):
        search = AZSearch(game, seed=7, mix=0.5)
        run(search, net, 300)
        roots.append((search.root(0), search.root(1), search.nodes))
    assert roots[0] == roots[1]


def test_the_search_finds_a_five() -> None:
    game = wts.Game.from_setup(black=["a1", "b1", "c1", "d1"], white=["a9", "b9", "c9"])
    agent = AZAgent(playouts=400, net=Network.uniform(SMALL), seed=1)
    # White may lay an egg there by naming it too, so the win is likely, not sure.
    assert agent.select(game, "black") == wts.parse_square("e1")
    assert agent.last_search.value is not None and agent.last_search.value > 0.6


def test_collect_and_apply_go_in_turn_and_check_their_arrays() -> None:
    search = AZSearch(wts.Game(), seed=0)
    planes = np.empty((4, 81, 11), np.float32)
    legal = np.empty((4, 81), np.uint8)
    with pytest.raises(ParameterError, match="collect first"):
        search.apply(np.zeros((1, 81), np.float32), np.zeros((1, 81), np.float32),
                     np.zeros(1, np.float32))
    assert search.collect(planes, legal) == 1  # the root alone, first
    with pytest.raises(ParameterError, match="twice"):
        search.collect(planes, legal)
    with pytest.raises(ParameterError, match="from 0 to 1"):
        search.apply(np.ones((1, 81), np.float32), np.ones((1, 81), np.float32),
                     np.full(1, 2.0, np.float32))
    search.cancel()
    assert search.iterations == 0 and search.evaluations == 0
    with pytest.raises(ParameterError, match="batch"):
        search.collect(np.empty((0, 81, 11), np.float32), np.empty((0, 81), np.uint8))


def test_a_full_tree_stops_the_search_and_changes_nothing() -> None:
    search = AZSearch(wts.Game(), seed=0, max_memory=0)
    run(search, Network.uniform(SMALL), 1000)
    assert search.full and search.evaluations == 1  # the root always fits
    assert sum(search.root(0)[0]) < 64


def run_expanding(search: AZSearch, net: Network, descents: int, batch: int = 8) -> None:
    """A search with expand_at, as AZAgent runs it: chunks of descents, the
    network only for the nodes they send."""
    planes = np.empty((batch, 81, 11), np.float32)
    legal = np.empty((batch, 81), np.uint8)
    while search.iterations < descents:
        before = search.iterations
        count = search.collect(planes, legal, min(100, descents - search.iterations))
        if count:
            out = net.evaluate(planes[:count], legal[:count].view(bool))
            assert search.apply(out.black, out.white, out.value) == count
        elif search.iterations == before:
            break


def test_with_expand_at_the_network_sees_only_the_root_and_the_nodes_visited_that_often(
        ) -> None:
    """Documented: past the root every leaf is played out at once, and a node
    goes to the network once visited expand_at times, so the network sees
    fewer nodes the larger expand_at, and far fewer than the descents."""
    net = Network.initial(SMALL, seed=2)
    seen = []
    for expand_at in (4, 16, 64):
        search = AZSearch(wts.Game(), seed=3, expand_at=expand_at)
        run_expanding(search, net, 3000)
        assert search.iterations == 3000
        assert 1 < search.evaluations < 3000 // 4
        assert sum(search.root(0)[0]) == 3000 - 1  # the root's first descent waited for it
        seen.append(search.evaluations)
    assert seen == sorted(seen, reverse=True)
    plain = AZSearch(wts.Game(), seed=3)
    run(plain, net, 200)
    assert plain.evaluations >= 200  # without it, every leaf waits for the network


def test_with_expand_at_a_search_repeats_exactly_for_a_seed_and_finds_a_five() -> None:
    net = Network.initial(SMALL, seed=2)
    roots = []
    for _ in range(2):
        search = AZSearch(wts.Game(), seed=7, expand_at=8)
        run_expanding(search, net, 2000)
        roots.append((search.root(0), search.root(1), search.nodes, search.evaluations))
    assert roots[0] == roots[1]
    game = wts.Game.from_setup(black=["a1", "b1", "c1", "d1"], white=["a9", "b9", "c9"])
    agent = AZAgent(playouts=2000, net=Network.uniform(SMALL), seed=1, expand_at=8)
    assert agent.select(game, "black") == wts.parse_square("e1")
    assert agent.last_search.playouts == 2000


def test_with_expand_at_a_full_tree_goes_on_from_the_nodes_it_has() -> None:
    """No room to grow stops a plain search; with expand_at the descents go on,
    played out from the tree's last nodes."""
    search = AZSearch(wts.Game(), seed=0, expand_at=4, max_memory=200_000)
    run_expanding(search, Network.uniform(SMALL), 20_000)
    assert search.full and search.iterations == 20_000
    assert search.memory <= 200_000 + 8 * 4096 * 16


def test_the_agent_plays_whole_games_and_names_both_players_strategies() -> None:
    agent = AZAgent(playouts=16, net=Network.initial(SMALL, seed=3), seed=4)
    game = wts.Game()
    while not game.is_over() and game.turn < 60:
        black, white = agent.select_both(game)
        info = agent.last_search
        assert sum(info.strategies[0]) == pytest.approx(1)
        assert info.strategies[0][black] > 0 and info.strategies[1][white] > 0
        game.play(black, white)
    with pytest.raises(GameOverError):
        if game.is_over():
            agent.select(game, "black")
        else:
            raise GameOverError("a game cut at 60 turns")


def test_the_az_spec_takes_levels_and_options_and_keeps_the_case_of_a_path(
        tmp_path: Path) -> None:
    path = tmp_path / "Gen-001.wtsnet"
    Network.initial(SMALL).save(path)
    spec = AgentSpec.parse(f"AZ:4,Playouts=20,net={path}")
    assert spec.name == "az" and spec.number == 4 and dict(spec.options)["net"] == str(path)
    agent = make_agent(spec, seed=1)
    assert isinstance(agent, AZAgent) and agent.playouts == 20
    assert make_agent("az:5").time_limit == 1.8
    with pytest.raises(ParameterError, match="az:1 to az:5"):
        AgentSpec.parse("az:6")
    with pytest.raises(NetworkFileError):
        make_agent(f"az,net={tmp_path / 'none.wtsnet'}")
