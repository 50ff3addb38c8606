"""One fuzzed game: drawn from ``(seed, index)``, played on both engines at once."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from wts.engine.squares import NUM_SQUARES

from .branches import classify_turn
from .compare import Difference, EngineClass, EnginePair, Move, Script, position_part
from .policies import LookAheadFailed, Plan, View, choose_moves, draw_plan, illegal_move, spell
from .setups import SETUPS

__all__ = ["game_rng", "FuzzGame", "play_fuzz_game"]


def game_rng(seed: int, index: int) -> random.Random:
    """The random source of game ``index`` under ``seed``."""
    return random.Random(f"wts-fuzz:{seed}:{index}")


@dataclass
class FuzzGame:
    """One fuzzed game: its plan, the script fed to both engines and what it reached."""

    index: int
    plan: Plan
    script: Script
    turns: int
    coverage: Counter[str]
    difference: Difference | None


def play_fuzz_game(
    reference: EngineClass, candidate: EngineClass, seed: int, index: int
) -> FuzzGame:
    """Play game ``index`` of ``seed`` on both engines, comparing after every step."""
    rng = game_rng(seed, index)
    plan = draw_plan(rng)
    setup = SETUPS[plan.setup_kind](rng)
    for _ in range(5):  # a start that is already decided wastes the game
        # Asked of the reference: a candidate's failure here would go unreported.
        if not setup.build(reference).status.is_over:
            break
        setup = SETUPS[plan.setup_kind](rng)
    pair = EnginePair(reference, candidate, setup)
    steps: list[Move] = []
    coverage: Counter[str] = Counter()
    turns = 0
    while pair.ready:
        before = pair.ref_position
        status = position_part(before, "status")
        cand_pos = pair.cand_position
        view = View(
            pair.cand, position_part(cand_pos, "black"), position_part(cand_pos, "white"),
            position_part(cand_pos, "eggs"), position_part(cand_pos, "legal_moves"),
        )
        if status.is_over or turns >= plan.max_turns:
            if status.is_over and rng.random() < 0.3:
                move: Move = (rng.randrange(NUM_SQUARES), rng.randrange(NUM_SQUARES))
                steps.append(move)
                _result, error = pair.step(len(steps) - 1, *move)
                if error is not None and pair.difference is None:
                    coverage["game_over"] += 1
            break
        if not view.legal:  # the candidate disagrees; the comparison already said so
            break
        if rng.random() < plan.probe:
            move = illegal_move(view, rng)
            steps.append(move)
            _result, error = pair.step(len(steps) - 1, *move)
            if error is not None and pair.difference is None:
                coverage["illegal"] += 1
            continue
        looked: LookAheadFailed | None = None
        try:
            black_move, white_move = choose_moves(view, plan, rng)
        except LookAheadFailed as failed:  # played for real: the comparison reports it
            black_move, white_move = failed.moves
            looked = failed
        # The policies try moves on copies of the candidate: a copy() that shares
        # state with the original would have changed the live game.
        compared = (view.black, view.white, view.eggs, position_part(cand_pos, "turn"))
        now = (pair.cand.black, pair.cand.white, pair.cand.eggs, pair.cand.turn)
        if now != compared:
            pair.difference = Difference(
                len(steps) - 1, "candidate changed by plays on its copy()", compared, now
            )
            break
        move = (spell(black_move, rng), spell(white_move, rng))
        steps.append(move)
        result, _error = pair.step(len(steps) - 1, *move)
        if looked is not None and pair.difference is None:
            pair.difference = Difference(len(steps) - 1, "copy().play", "the turn played",
                                         str(looked))
        if result is not None:
            turns += 1
            after = pair.ref_position
            pieces = sum(len(position_part(after, part)) for part in ("black", "white", "eggs"))
            coverage.update(classify_turn(result, status, position_part(before, "eggs"),
                                          board_full=pieces == NUM_SQUARES,
                                          turn=position_part(after, "turn")))
    return FuzzGame(index, plan, Script(setup, tuple(steps)), turns, coverage, pair.difference)
