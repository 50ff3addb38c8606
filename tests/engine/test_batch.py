"""wts.BatchGame: many games stepped together, checked against single games."""

from __future__ import annotations

import random

import numpy as np
import pytest

import wts


def random_moves(batch: wts.BatchGame, rng: np.random.Generator, collide: float = 0.1):
    legal = batch.legal_mask()
    live = legal.any(axis=1)
    black = (rng.random(legal.shape) * legal).argmax(axis=1)
    white = (rng.random(legal.shape) * legal).argmax(axis=1)
    same = rng.random(len(black)) < collide
    white[same] = black[same]
    black[~live] = white[~live] = wts.NO_MOVE
    return black, white


def test_batch_matches_single_games_turn_by_turn():
    rng = np.random.default_rng(1)
    starts = [wts.Game()] + [
        wts.Game.from_setup(**setup)
        for setup in (
            dict(black=["E5", "H5"], white=["F5", "G5"], eggs=["C3"]),
            dict(black=["A1", "B2", "C3", "D4"], white=["I9"], eggs=["E5", "A9"]),
        )
    ]
    starts = starts * 20
    batch = wts.BatchGame.from_games(starts)
    singles = [game.copy() for game in starts]
    for _ in range(60):
        black, white = random_moves(batch, rng)
        result = batch.step(black, white)
        for i, game in enumerate(singles):
            if black[i] == wts.NO_MOVE:
                assert result.captures[i].tolist() == [0, 0] and result.hatches[i] == 0
                continue
            turn = game.play(int(black[i]), int(white[i]))
            assert batch[i] == game
            assert batch.keys()[i] == game.key()
            assert wts.STATUSES[result.status[i]] is game.status
            black_captures = sum(c.color is wts.Color.BLACK for c in turn.captures)
            white_captures = len(turn.captures) - black_captures
            assert result.captures[i].tolist() == [black_captures, white_captures]
            assert result.hatches[i] == len(turn.hatched)
        assert np.array_equal(batch.is_over(), [g.is_over() for g in singles])
    assert batch.is_over().any()


def test_batch_legal_mask_observation_and_counts_match_single_games():
    game = wts.Game.from_setup(
        black=["A1", "B1", "C1", "D1", "E1", "E5"], white=["E6"], eggs=["I9", "H8"]
    )
    other = wts.Game.from_setup(black=["C3"], white=["D4"], eggs=["H8", "I9", "A5"])
    batch = wts.BatchGame.from_games([game, other])
    mask = batch.legal_mask()
    assert mask.shape == (2, 81) and mask.dtype == np.bool_
    assert not mask[0].any()  # black has won: no legal moves
    assert sorted(np.flatnonzero(mask[1])) == other.legal_moves()
    obs = batch.observation()
    assert obs.shape == (2, 4, 9, 9) and obs.dtype == np.uint8
    assert obs[1, 0, 2, 2] == 1  # C3 black: rank 3 -> row 2, file C -> column 2
    assert obs[1, 1, 3, 3] == 1  # D4 white
    assert obs[1, 2].sum() == 3
    assert obs[1, 3, 7, 7] == 1 and obs[1, 3, 8, 8] == 2 and obs[1, 3, 4, 0] == 3  # egg ages
    assert batch.winning_counts.tolist() == [[5, 0], [0, 0]]
    assert batch.turns.tolist() == [0, 0]
    assert [wts.STATUSES[s] for s in batch.status] == [wts.Status.BLACK_WINS, wts.Status.ONGOING]


def test_batch_reset_restarts_only_the_chosen_games():
    batch = wts.BatchGame(3)
    batch.step([0, 1, 2], [3, 4, 5])
    batch.reset(np.array([True, False, True]))
    assert batch[0] == wts.Game() and batch[2] == wts.Game()
    assert batch[1].black == {1} and batch[1].turn == 1
    batch.reset()
    assert all(game == wts.Game() for game in batch)


def test_batch_getitem_is_a_copy_and_setitem_replaces():
    batch = wts.BatchGame(2)
    copy = batch[0]
    copy.play("E5", "E6")
    assert batch[0] == wts.Game()
    batch[1] = copy
    assert batch[1] == copy and batch[-1] == copy
    with pytest.raises(IndexError):
        batch[2]


def test_batch_state_size_is_documented():
    from wts.engine._core import state_size

    assert state_size() == 152


# --- every bad input raises before any game changes ---------------------------------


def snapshot(batch):
    return [batch[i] for i in range(len(batch))]


@pytest.fixture
def busy_batch():
    batch = wts.BatchGame.from_games(
        [wts.Game(), wts.Game.from_setup(black=["E5"], white=["E6"]),
         wts.Game.from_setup(black=["A1", "A2", "A3", "A4", "A5"])]
    )
    return batch


@pytest.mark.parametrize(
    ("black", "white", "error", "message"),
    [
        ([0, 40, -1], [1, 2, -1], wts.IllegalMoveError, "game 1: black's move E5 is illegal"),
        ([0, 0, -1], [1, 49, -1], wts.IllegalMoveError, "game 1: white's move E6 is illegal"),
        ([81, 0, -1], [1, 2, -1], wts.IllegalMoveError, "game 0: black's move is illegal"),
        ([-1, 0, -1], [1, 2, -1], wts.IllegalMoveError, "game 0: black's move is illegal"),
        ([0, 1, 7], [1, 2, 8], wts.GameOverError, "game 2: the game is over"),
        ([0, 1], [1, 2], wts.BatchError, r"black_moves must have shape \(3,\)"),
        ([0, 1, -1], [[1, 2, -1]], wts.BatchError, r"white_moves must have shape \(3,\)"),
        ([0.0, 1.0, -1.0], [1, 2, -1], wts.BatchError, "must hold integers"),
        ([True, False, True], [1, 2, -1], wts.BatchError, "must hold integers"),
        ([0, 1, -1], [True, 2, -1], wts.BatchError, "white_moves must hold integers .* not bool"),
        (np.array([0, 1, 2**64 - 1], dtype=">u8"), np.array([1, 2, 2**64 - 1], dtype=">u8"),
         wts.GameOverError, "not 18446744073709551615 and 18446744073709551615"),
    ],
)
def test_batch_step_rejects_bad_moves_before_any_game_changes(
    busy_batch, black, white, error, message
):
    before = snapshot(busy_batch)
    with pytest.raises(error, match=message):
        busy_batch.step(black, white)
    assert snapshot(busy_batch) == before


@pytest.mark.parametrize(
    ("black", "white", "message"),
    [
        ([0, 40, -1], [1, 2, -1], "game 1: black's move E5 is illegal"),
        ([81, 0, -1], [1, 2, -1], "game 0: black's move is illegal"),
        ([2**63 - 1, 0, -1], [1, 2, -1], "game 0: black's move is illegal: 9223372036854775807"),
        ([0, 1, 7], [1, 2, 8], "game 2: the game is over"),
    ],
)
@pytest.mark.parametrize("dtype", [np.int64, np.longlong])
def test_batch_step_rejects_bad_moves_in_int64_rows_as_in_lists(
    busy_batch, black, white, message, dtype
):
    """Rows of int64 go to the core as they are; their errors read as a list's."""
    before = snapshot(busy_batch)
    with pytest.raises((wts.IllegalMoveError, wts.GameOverError), match=message):
        busy_batch.step(np.array(black, dtype=dtype), np.array(white, dtype=dtype))
    assert snapshot(busy_batch) == before


@pytest.mark.parametrize("won_first", [True, False])
def test_batch_step_names_the_first_game_it_cannot_play(won_first):
    """A move given to a game over and an illegal move in a running game: the
    error names whichever game comes first."""
    won = wts.Game.from_setup(black=["A1", "A2", "A3", "A4", "A5"])
    games = [won, wts.Game()] if won_first else [wts.Game(), won]
    moves = [5, 81] if won_first else [81, 5]
    batch = wts.BatchGame.from_games(games)
    error = wts.GameOverError if won_first else wts.IllegalMoveError
    with pytest.raises(error, match=r"^game 0: "):
        batch.step(np.array(moves), np.array([6, 7]))


def test_batch_step_captures_in_games_with_and_without_eggs():
    # Black's E5 takes F5 and G5 against H5; white's A1 takes nothing. With
    # no egg nothing hatches (the captures are lost); with one, it hatches.
    plain = wts.Game.from_setup(black=["H5"], white=["F5", "G5"])
    egged = wts.Game.from_setup(black=["H5"], white=["F5", "G5"], eggs=["I9"])
    starts = [plain, egged, plain, plain, egged, plain, plain, plain, plain]
    batch = wts.BatchGame.from_games(starts)
    result = batch.step([wts.parse_square("E5")] * 9, [wts.parse_square("A1")] * 9)
    for i, start in enumerate(starts):
        game = start.copy()
        turn = game.play("E5", "A1")
        assert batch[i] == game and batch.keys()[i] == game.key()
        assert result.captures[i].tolist() == [1, 0]
        assert result.hatches[i] == len(turn.hatched) == (start is egged)


def test_batch_step_capture_without_eggs_ends_a_sudden_death():
    # Five against five, no egg: black's C6 takes C7 and C8 out of white's
    # line, white's C4 takes C3 and C2 out of black's, in one turn; both lines
    # break, so play is normal again (point 11), counts 0, nothing hatched.
    start = wts.Game.from_setup(black=["A2", "B2", "C2", "D2", "E2", "C3", "C9"],
                                white=["A8", "B8", "C8", "D8", "E8", "C7", "C1"])
    assert start.status is wts.Status.SUDDEN_DEATH
    batch = wts.BatchGame.from_games([start] * 9)
    result = batch.step([wts.parse_square("C6")] * 9, [wts.parse_square("C4")] * 9)
    game = start.copy()
    turn = game.play("C6", "C4")
    assert game.status is wts.Status.ONGOING and len(turn.captures) == 2
    for i in range(9):
        assert batch[i] == game and batch.keys()[i] == game.key()
        assert wts.STATUSES[result.status[i]] is wts.Status.ONGOING
        assert result.captures[i].tolist() == [1, 1] and result.hatches[i] == 0
    assert batch.winning_counts.tolist() == [[0, 0]] * 9


def test_batch_step_sees_games_replaced_and_restarted():
    """A game set over by assignment takes only NO_MOVE; restarted, it plays again."""
    won = wts.Game.from_setup(black=["A1", "A2", "A3", "A4", "A5"])
    batch = wts.BatchGame(2)
    batch[1] = won
    with pytest.raises(wts.GameOverError, match=r"^game 1: "):
        batch.step(np.array([0, 1]), np.array([2, 3]))
    assert batch.step(np.array([0, -1]), np.array([2, -1])).status.tolist() == [0, 2]
    batch.reset(np.array([False, True]))
    assert batch.step(np.array([1, 0]), np.array([3, 2])).status.tolist() == [0, 0]
    assert batch[1].black == {0}
    batch[0] = won
    assert batch.step(np.array([-1, 1]), np.array([-1, 3])).status.tolist() == [2, 0]


def test_batch_step_plays_the_same_turn_whatever_form_the_moves_take():
    """int64 rows (the core's own form, numpy's or array.array's), other integer
    dtypes, strided and read-only arrays, lists and tuples: one turn."""
    import array

    start = wts.BatchGame.from_games(
        [wts.Game(), wts.Game.from_setup(black=["E5"], white=["E6"]),
         wts.Game.from_setup(black=["A1", "A2", "A3", "A4", "A5"])]
    )
    black, white = [0, 30, -1], [1, 30, -1]

    def strided(moves):
        return np.repeat(np.array(moves, dtype=np.int64), 2)[::2]

    def read_only(moves):
        row = np.array(moves, dtype=np.int64)
        row.flags.writeable = False
        return row

    forms = [list, tuple, np.array, strided, read_only,
             lambda moves: np.array(moves, dtype=np.longlong),
             lambda moves: np.array(moves, dtype=np.int32),
             lambda moves: np.array(moves, dtype=np.int64).astype(">i8"),
             lambda moves: array.array("q", moves),
             lambda moves: memoryview(np.array(moves, dtype=np.int64))]
    outcomes = []
    for form in forms:
        batch = wts.BatchGame.from_games(snapshot(start))
        result = batch.step(form(black), form(white))
        outcomes.append(([r.tolist() for r in result], snapshot(batch)))
    assert all(outcome == outcomes[0] for outcome in outcomes)
    assert outcomes[0][0][0] == [0, 0, 2]  # a collision, then a game already won
    assert outcomes[0][1][1].eggs == (30,)


@pytest.mark.parametrize(
    "mask", [np.array([True, False]), np.array([1, 0, 1]), [[True, False, True]]]
)
def test_batch_reset_rejects_a_bad_mask(busy_batch, mask):
    before = snapshot(busy_batch)
    with pytest.raises(wts.BatchError):
        busy_batch.reset(mask)
    assert snapshot(busy_batch) == before


def test_batch_from_games_rejects_other_objects():
    import wts.engine.reference

    with pytest.raises(wts.BatchError, match=r"games\[1\]"):
        wts.BatchGame.from_games([wts.Game(), wts.reference.Game()])


def test_batch_errors_are_value_errors():
    assert issubclass(wts.BatchError, ValueError) and issubclass(wts.BatchError, wts.WtsError)


def test_batch_of_many_games_runs_to_the_end():
    rng = np.random.default_rng(7)
    batch = wts.BatchGame(500)
    for _ in range(200):
        if batch.is_over().all():
            break
        batch.step(*random_moves(batch, rng, collide=0.0))
    assert batch.is_over().all()
    random.seed(0)


def test_batch_too_large_to_allocate_raises_memory_error():
    with pytest.raises(MemoryError):
        wts.BatchGame(2**62)


@pytest.mark.parametrize("n", [True, 1.5, "3", None, np.array([2])])
def test_batch_size_of_the_wrong_type_is_a_parameter_type_error(n):
    with pytest.raises(wts.ParameterTypeError, match="n must be an int"):
        wts.BatchGame(n)


def test_batch_size_out_of_range_is_a_parameter_error():
    with pytest.raises(wts.ParameterError, match="n must be"):
        wts.BatchGame(-1)


def test_batch_takes_numpy_integers_for_its_size_and_indices():
    batch = wts.BatchGame(np.int64(3))
    batch[np.int32(1)] = wts.Game.from_setup(black=["E5"])
    assert len(batch) == 3 and batch[np.uint8(1)].black == {wts.E5}


@pytest.mark.parametrize("index", [1.5, "0", None, True])
def test_batch_index_of_the_wrong_type_is_a_type_error_both_ways(index):
    """As for any Python sequence: reading or writing with a float is a TypeError."""
    batch = wts.BatchGame(2)
    with pytest.raises(TypeError, match="batch indices are ints"):
        batch[index]
    with pytest.raises(TypeError, match="batch indices are ints"):
        batch[index] = wts.Game()
    assert batch[0] == batch[1] == wts.Game()


def test_batch_core_bounds_checks_its_raw_accessors():
    """The state accessors under BatchGame check their index too: no C read past the end."""
    batch = wts.BatchGame(1)
    with pytest.raises(IndexError):
        batch._get_state(1, wts.Game())
    with pytest.raises(IndexError):
        batch._set_state(-1, wts.Game())


@pytest.mark.parametrize("broken", ["status", "captures", "hatches"])
@pytest.mark.parametrize("kind", ["short", "itemsize", "read-only", "strided", "no buffer"])
def test_batch_core_step_checks_its_output_arrays(broken, kind):
    """The raw step writes into arrays it is given: one of the wrong size,
    item size, layout or access is refused before any game is played."""
    n = 3
    batch = wts.BatchGame(n)
    before = [batch[i].fen() for i in range(n)]
    arrays = {"status": np.zeros(n, np.uint8), "captures": np.zeros((n, 2), np.int32),
              "hatches": np.zeros(n, np.int32)}
    array = arrays[broken]
    arrays[broken] = {
        "short": array[:-1],
        "itemsize": array.astype(np.int64 if array.itemsize == 4 else np.int16),
        "read-only": np.frombuffer(array.tobytes(), array.dtype).reshape(array.shape),
        "strided": np.zeros((2 * n, 2), array.dtype)[::2, 0] if array.ndim == 1
        else np.zeros((n, 4), np.int32)[:, ::2],
        "no buffer": array.tolist(),
    }[kind]
    moves = np.array([0, 1, 2], dtype=np.int64)
    with pytest.raises((ValueError, BufferError, TypeError)):
        batch._step(moves, moves + 3, arrays["status"], arrays["captures"], arrays["hatches"],
                    wts.Game)
    assert [batch[i].fen() for i in range(n)] == before
