"""The learned prior over the squares (wts.players.prior): its features against
literal definitions, the fit, and its use in the search."""

from __future__ import annotations

import dataclasses
import json
import math
import random

import numpy as np
import pytest

import wts
from wts.agents import MCTSAgent, make_agent
from wts.cli.main import main
from wts.engine.observation import observation_planes
from wts.errors import ParameterError, ParameterTypeError
from wts.players._search import Search
from wts.players.prior import FEATURES, LEARNED, MAX_WEIGHT, features, prior
from wts.scale.prior_fit import fit
from wts.scale.selfplay import SelfplayData

LINES = ((0, 1), (1, 0), (1, 1), (1, -1))  # (rank step, file step)
NEIGHBOURS = [(dr, df) for dr in (-1, 0, 1) for df in (-1, 0, 1) if (dr, df) != (0, 0)]


def literal_features(own: set[int], foe: set[int], eggs: set[int]) -> list[set[int]]:
    """Each feature's squares, straight from the definitions in wts.players.prior."""
    def at(rank: int, file: int) -> int | None:
        return rank * 9 + file if 0 <= rank < 9 and 0 <= file < 9 else None

    empty = set(range(81)) - own - foe - eggs
    result: dict[str, set[int]] = {name: set() for name in FEATURES}
    for player, prefix in ((own, "own"), (foe, "foe")):
        threes_by_line: list[set[int]] = []
        for dr, df in LINES:
            threes: set[int] = set()
            for rank in range(9):
                for file in range(9):
                    cells = [at(rank + k * dr, file + k * df) for k in range(5)]
                    if None in cells or any(c not in player and c not in empty for c in cells):
                        continue
                    count = sum(c in player for c in cells)
                    gaps = {c for c in cells if c in empty}
                    if count == 3:
                        threes |= gaps
                    if 1 <= count <= 4 and (prefix == "own" or count >= 2):
                        result[f"{prefix}{count}"] |= gaps
            threes_by_line.append(threes)
        twice = {sq for i, a in enumerate(threes_by_line) for b in threes_by_line[i + 1:]
                 for sq in a & b}
        result[f"{prefix}3_twice"] = twice
    for square in empty:
        rank, file = divmod(square, 9)
        for dr, df in NEIGHBOURS:
            one, two, three = (at(rank + k * dr, file + k * df) for k in (1, 2, 3))
            if one in foe | eggs and two in foe | eggs and three in own:
                result["capture"].add(square)
            if one in own | eggs and two in own | eggs and three in foe:
                result["foe_capture"].add(square)
            back = at(rank - dr, file - df)
            # The pair (square, one): a turtle of the opponent at one end, an
            # empty square at the other.
            if one in own and ((two in foe and back in empty)
                               or (two in empty and back in foe)):
                result["exposed"].add(square)
            for pieces, name in ((own, "near_own"), (foe, "near_foe"), (eggs, "near_egg")):
                if one in pieces:
                    result[name].add(square)
        distance = max(abs(rank - 4), abs(file - 4))
        if distance <= 3:
            result[f"ring{max(distance, 1)}"].add(square)
    if eggs:
        result["capture_hatches"] = set(result["capture"])
    return [result[name] for name in FEATURES]


def random_position(rng: random.Random) -> wts.Game:
    """A game some random turns in (collisions forced now and then, for eggs)."""
    game = wts.Game()
    for _ in range(rng.randrange(0, 40)):
        if game.is_over():
            break
        legal = game.legal_moves()
        black = rng.choice(legal)
        white = black if rng.random() < 0.15 else rng.choice(legal)
        game.play(black, white)
    return game


def test_the_features_match_their_literal_definitions():
    rng = random.Random(5)
    planes = []
    for _ in range(300):
        game = random_position(rng)
        planes.append(observation_planes(game, rng.choice(["black", "white"])))
    batch = np.stack(planes)
    got = features(batch)
    assert got.shape == (300, 81, len(FEATURES))
    seen = np.zeros(len(FEATURES), dtype=int)
    for n, position in enumerate(batch):
        own, foe, eggs = ({int(s) for s in np.flatnonzero(position[k])} for k in range(3))
        for f, squares in enumerate(literal_features(own, foe, eggs)):
            assert set(np.flatnonzero(got[n, :, f])) == squares, (n, FEATURES[f])
            seen[f] += bool(squares)
    # Every feature occurs in these positions, so none of the comparisons is empty.
    assert seen.min() > 0, dict(zip(FEATURES, seen))


def test_features_refuse_bad_planes_clearly():
    with pytest.raises(ParameterTypeError, match="numpy array"):
        features([[0] * 81])
    with pytest.raises(ParameterError, match="shape"):
        features(np.zeros((2, 2, 9, 9), np.uint8))
    with pytest.raises(ParameterTypeError, match="uint8"):
        features(np.zeros((1, 4, 9, 9), np.int64))
    twos = np.zeros((1, 4, 9, 9), np.uint8)
    twos[0, 0, 0, 0] = 2
    with pytest.raises(ParameterError, match="0 and 1"):
        features(twos)
    both = np.zeros((3, 4, 9, 9), np.uint8)
    both[2, 0, 4, 4] = both[2, 2, 4, 4] = 1
    with pytest.raises(ParameterError, match="position 2 has two pieces"):
        features(both)
    assert features(np.zeros((0, 4, 9, 9), np.uint8)).shape == (0, 81, len(FEATURES))


def test_prior_is_a_distribution_over_the_legal_squares():
    game = random_position(random.Random(3))
    for color in ("black", "white"):
        p = prior(game, color)
        assert math.isclose(sum(p), 1.0)
        for square in range(81):
            assert (p[square] > 0) == (square in game.legal_moves())
    over = wts.Game.from_setup(black=[0, 1, 2, 3, 4])
    assert over.is_over() and prior(over, "black") == [0.0] * 81
    with pytest.raises(ParameterError, match="19 weights"):
        prior(wts.Game(), "black", [0.0] * 3)
    with pytest.raises(ParameterError, match="prior weight 0"):
        prior(wts.Game(), "black", [MAX_WEIGHT + 1] + [0.0] * 18)


def test_learned_weights_are_in_range_and_one_per_feature():
    assert len(LEARNED) == len(FEATURES) == features(np.zeros((1, 4, 9, 9), np.uint8)).shape[2]
    assert all(abs(w) <= MAX_WEIGHT for w in LEARNED)
    # exp() of every weight at its largest, over 81 squares, stays finite in a double.
    assert math.isfinite(81 * math.exp(len(FEATURES) * MAX_WEIGHT))


def synthetic_data(weights: np.ndarray, positions: int, seed: int) -> SelfplayData:
    """Positions from random games, each labelled with the softmax of ``weights``."""
    rng = random.Random(seed)
    planes, games = [], []
    for n in range(positions):
        planes.append(observation_planes(random_position(rng), rng.choice(["black", "white"])))
        games.append(n)
    observation = np.stack(planes)
    x = features(observation).astype(np.float64)
    legal = observation[:, :3].sum(axis=1).reshape(positions, 81) == 0
    scores = np.where(legal, x @ weights, -np.inf)
    policy = np.exp(scores - scores.max(axis=1, keepdims=True))
    policy /= policy.sum(axis=1, keepdims=True)
    move = policy.argmax(axis=1).astype(np.int16)
    n = positions
    return SelfplayData(
        game=np.array(games, np.int64), turn=np.zeros(n, np.int32), color=np.zeros(n, np.int8),
        seed=np.zeros(n, np.uint64), observation=observation, policy=policy.astype(np.float32),
        move=move, outcome=np.zeros(n, np.int8), symmetry=np.zeros(n, np.uint8),
        records=[], game_turns=np.zeros(0, np.int32), agent="synthetic")


def test_fit_recovers_the_weights_that_made_the_data():
    truth = np.array(LEARNED)
    data = synthetic_data(truth, 600, seed=9)
    result = fit(data, holdout=0.25, ridge=0.0)
    # The fitted prior gives the data's own distribution on held-out positions:
    # its cross-entropy is the data's entropy, far below the uniform prior's.
    held = data.game >= 450
    p = data.policy[held].astype(np.float64)
    entropy = -np.sum(np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)) / held.sum()
    assert result.test_cross_entropy == pytest.approx(entropy, abs=2e-3)
    assert result.uniform_cross_entropy > entropy + 0.3
    assert result.train_examples == 450 and result.test_examples == 150
    # The weights of the features the positions show often come back.
    counts = features(data.observation).reshape(-1, len(FEATURES)).sum(axis=0)
    for f, name in enumerate(FEATURES):
        if counts[f] > 2000:
            assert result.weights[f] == pytest.approx(truth[f], abs=0.05), name
    assert result.agreement > 0.9
    assert "held out" in result.table()


def test_fit_refuses_what_it_cannot_use():
    data = synthetic_data(np.zeros(len(FEATURES)), 4, seed=1)
    with pytest.raises(ParameterError, match="holdout"):
        fit(data, holdout=0.95)
    empty = dataclasses.replace(data, game=data.game[:0], observation=data.observation[:0],
                                policy=data.policy[:0], move=data.move[:0])
    with pytest.raises(ParameterError, match="no example"):
        fit(empty)
    with pytest.raises(ParameterError, match="ridge"):
        fit(data, ridge=-1.0)


def test_search_with_a_prior_tries_the_squares_it_favours_first():
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("ring1")] = MAX_WEIGHT  # the 9 centre squares
    # A large prior_weight: the prior term outweighs any mean reward.
    search = Search(wts.Game(), seed=1, prior=weights, prior_weight=100.0)
    search.run(9)
    centre = {r * 9 + f for r in (3, 4, 5) for f in (3, 4, 5)}
    for color in (0, 1):
        assert {sq for sq, v in enumerate(search.visits(color)) if v} == centre


def test_search_with_a_prior_is_deterministic_and_survives_advance():
    game = random_position(random.Random(11))
    runs = []
    for _ in range(2):
        search = Search(game, seed=4, prior=LEARNED)
        search.run(3000)
        runs.append((search.visits(0), search.visits(1), search.strategy(0)))
    assert runs[0] == runs[1]
    visits = search.visits(0)
    black = max(range(81), key=visits.__getitem__)
    white = max(range(81), key=search.visits(1).__getitem__)
    assert search.advance(black, white)
    search.run(500)
    assert sum(search.visits(0)) > 0


def test_search_checks_its_prior():
    core = wts.Game()
    with pytest.raises(ParameterError, match="19 weights"):
        Search(core, prior=[0.0] * 18)
    with pytest.raises(ParameterTypeError, match="sequence"):
        Search(core, prior=3)
    with pytest.raises(ParameterError, match="prior weight 2"):
        Search(core, prior=[0.0, 0.0, float("nan")] + [0.0] * 16)
    with pytest.raises(ParameterError, match="policy 'ucb'"):
        Search(core, policy="rm", prior=LEARNED)
    with pytest.raises(ParameterError, match="prior_weight"):
        Search(core, prior=LEARNED, prior_weight=-1.0)


def test_mcts_agent_takes_the_learned_prior_by_name_and_in_specs():
    agent = make_agent("mcts:1,prior=learned,prior_weight=0.5", seed=3)
    assert isinstance(agent, MCTSAgent) and agent.prior == LEARNED and agent.prior_weight == 0.5
    game = wts.Game()
    assert agent.select(game, "black") in game.legal_moves()
    assert MCTSAgent(level=1, prior="none").prior is None
    assert MCTSAgent(level=1, prior=[0.1] * 19).prior == (0.1,) * 19
    with pytest.raises(ParameterError, match="prior must be one of"):
        MCTSAgent(level=1, prior="strong")
    with pytest.raises(ParameterError, match="19 weights"):
        MCTSAgent(level=1, prior=[0.0])


def test_fit_prior_command_prints_and_writes_the_weights(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    from wts.scale.selfplay import selfplay

    run = tmp_path / "run"
    selfplay(run, 4, agent="mcts:1,playouts=200", seed=2)
    out = tmp_path / "prior.json"
    assert main(["fit-prior", str(run), "--holdout", "0.25", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "weights:" in printed and "held out" in printed
    document = json.loads(out.read_text())
    assert document["features"] == list(FEATURES) and len(document["weights"]) == 19
    assert main(["fit-prior", str(run), "--holdout", "2"]) == 2
    assert main(["fit-prior", str(tmp_path / "missing")]) != 0


def test_the_default_prior_weight_follows_the_playouts():
    from wts.players.agents import default_prior_weight
    from wts.players.specs import LEVELS

    assert MCTSAgent(level=1, prior="learned").prior_weight == 1.0
    assert MCTSAgent(level=3, prior="learned").prior_weight == pytest.approx(
        math.sqrt(1000 / LEVELS[3]))
    assert MCTSAgent(level=3, playouts=500, prior="learned").prior_weight == 1.0
    assert MCTSAgent(level=3, prior="learned", prior_weight=0.7).prior_weight == 0.7
    with pytest.raises(ParameterError, match="playouts"):
        default_prior_weight(0)


def test_module_examples():
    import doctest

    import wts.players.prior

    assert doctest.testmod(wts.players.prior).failed == 0


def test_fit_learns_a_turn_without_a_policy_from_its_move():
    data = synthetic_data(np.array(LEARNED), 40, seed=3)
    data.policy[5] = 0.0  # nothing on the legal squares: the move is the target
    result = fit(data, holdout=0.0)
    assert all(math.isfinite(w) for w in result.weights)
    assert result.test_examples == 0 and result.train_examples == 40


@pytest.mark.parametrize("white", [38, 41], ids=["foe-beside-the-new-turtle", "foe-beyond"])
def test_exposed_marks_a_pair_the_opponent_can_bracket_either_way(white):
    # Black on E5 (40), white on C5 (38) or F5 (41): a black turtle on D5 (39)
    # makes a pair with E5 that white closes at the other end next turn.
    game = wts.Game.from_setup(black=[40], white=[white])
    planes = observation_planes(game, "black")[np.newaxis]
    assert features(planes)[0, 39, FEATURES.index("exposed")] == 1
    game.play(39, 0)
    turn = game.play(72, 41 if white == 38 else 38)
    assert [sorted(c.squares) for c in turn.captures] == [[39, 40]]


def test_fit_refuses_malformed_data_naming_the_problem():
    data = synthetic_data(np.array(LEARNED), 30, seed=4)

    def changed(**columns):
        return dataclasses.replace(data, **columns)

    with pytest.raises(ParameterTypeError, match="self-play data"):
        fit(None)
    with pytest.raises(ParameterError, match="differ in length"):
        fit(changed(game=data.game[:10]))
    with pytest.raises(ParameterError, match=r"shape \(30, 81\)"):
        fit(changed(policy=data.policy[:, :80]))
    bad = data.policy.copy()
    bad[7, 3] = np.nan
    with pytest.raises(ParameterError, match="example 7's policy"):
        fit(changed(policy=bad))
    bad = data.policy.copy()
    bad[2, 0] = -0.5
    with pytest.raises(ParameterError, match="example 2's policy"):
        fit(changed(policy=bad))
    moves = data.move.copy()
    moves[4] = 81
    with pytest.raises(ParameterError, match="example 4's move 81"):
        fit(changed(move=moves))
    with pytest.raises(ParameterTypeError, match="integers"):
        fit(changed(game=data.game.astype(np.float64)))


def test_fit_learns_from_huge_finite_policies_as_from_their_scaled_down_form():
    """A strategy of 1e308s summed to infinity: the fit returned zero weights
    and a loss of 0.0 without a word."""
    data = synthetic_data(np.array(LEARNED), 40, seed=5)
    ones = np.where(data.policy > 1e-3, 1.0, 0.0)
    ones[:, 0] = 1.0  # occupied in some positions: the fit ignores those
    expected = fit(dataclasses.replace(data, policy=ones), holdout=0.25)
    result = fit(dataclasses.replace(data, policy=ones * 1e308), holdout=0.25)
    assert result.train_cross_entropy > 0.0 and any(result.weights)
    assert result.weights == pytest.approx(expected.weights, abs=1e-6)
    assert result.test_cross_entropy == pytest.approx(expected.test_cross_entropy, abs=1e-9)


@pytest.mark.parametrize("column", ["game", "observation", "policy", "move"])
def test_fit_refuses_a_masked_column(column):
    data = synthetic_data(np.array(LEARNED), 10, seed=2)
    masked = np.ma.masked_array(getattr(data, column), mask=True)
    with pytest.raises(ParameterTypeError, match="masked array"):
        fit(dataclasses.replace(data, **{column: masked}))


@pytest.mark.parametrize("mask", [True, False])
def test_weights_in_a_masked_array_are_refused(mask):
    weights = np.ma.masked_array(LEARNED, mask=mask)
    with pytest.raises(ParameterTypeError, match="masked array"):
        MCTSAgent(prior=weights)
    with pytest.raises(ParameterTypeError, match="masked array"):
        Search(wts.Game(), prior=weights)


def test_fit_with_nothing_held_out_says_so():
    result = fit(synthetic_data(np.array(LEARNED), 20, seed=6), holdout=0.0)
    assert result.test_examples == 0
    assert "nothing held out" in result.table() and "held-out moves" not in result.table()


def test_weights_are_never_read_from_an_endless_iterable():
    import itertools

    with pytest.raises(ParameterTypeError, match="sequence"):
        prior(wts.Game(), "black", itertools.repeat(0.0))
    with pytest.raises(ParameterTypeError, match="sequence"):
        Search(wts.Game(), prior=itertools.repeat(0.0))
    with pytest.raises(ParameterTypeError, match="sequence"):
        MCTSAgent(level=1, prior=itertools.repeat(0.0))
    with pytest.raises(ParameterTypeError, match="sequence"):
        prior(wts.Game(), "black", 5)
    with pytest.raises(ParameterTypeError, match="numpy array"):
        features(np.ma.masked_array(np.zeros((1, 4, 9, 9), np.uint8), mask=True))


def test_prior_weight_needs_a_prior_and_the_agent_says_which_it_has():
    with pytest.raises(ParameterError, match="prior_weight needs a prior"):
        MCTSAgent(level=1, prior_weight=0.5)
    with pytest.raises(ParameterError, match="prior_weight needs a prior"):
        make_agent("mcts:1,prior_weight=0.5")
    agent = MCTSAgent(level=1, seed=2, prior="learned", prior_weight=np.float32(0.5))
    assert type(agent.prior_weight) is float
    assert repr(agent) == "MCTSAgent(level=1, seed=2, prior='learned')"
    assert repr(MCTSAgent(level=1, seed=2)) == "MCTSAgent(level=1, seed=2)"


def test_fit_prior_refuses_an_unwritable_out_before_fitting(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    from wts.scale.selfplay import selfplay

    run = tmp_path / "run"
    selfplay(run, 2, agent="random", seed=1)
    assert main(["fit-prior", str(run), "--holdout", "0", "--out", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "cannot write" in captured.err and "weights:" not in captured.out
    assert main(["fit-prior", str(run), "--holdout", "0",
                 "--out", str(tmp_path / "missing" / "prior.json")]) == 1
    assert list(tmp_path.iterdir()) == [run]
