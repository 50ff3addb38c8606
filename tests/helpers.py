"""What the tests share: squares by name, set-up positions, the events a turn
is expected to report, snapshots of a game, random reachable games, and the
tools that build and run C for 64-bit ARM."""

from __future__ import annotations

import os
import random
import shutil
import sys
from typing import Any

import pytest

from wts import Capture, Color, Hatch, Status, TurnResult, parse_square


def names(text: str) -> list[int]:
    """Squares from space-separated names: ``names("E5 A1") == [40, 0]``."""
    return [parse_square(n) for n in text.split()]


def setup(Game: Any, black: str = "", white: str = "", eggs: str = "") -> Any:
    """A set-up position from space-separated names (eggs oldest first)."""
    return Game.from_setup(black=names(black), white=names(white), eggs=names(eggs))


def play_for(game: Any, color: Color, move: object, other: object) -> TurnResult:
    """``color`` plays ``move`` while the opponent plays ``other``."""
    return game.play(move, other) if color is Color.BLACK else game.play(other, move)


def cap(color: Color, round_: int, closer: str, trapped: str, anchor: str) -> Capture:
    """A capture: ``closer`` brackets ``trapped`` (nearest first) against ``anchor``."""
    first, second = names(trapped)
    return Capture(color, round_, (first, second), parse_square(closer), parse_square(anchor))


def hatch(square: str, color: Color, wave: int) -> Hatch:
    return Hatch(parse_square(square), color, wave)


def turn(
    black_move: str,
    white_move: str,
    *,
    collision: str | None = None,
    captures: tuple[Capture, ...] = (),
    dissolved: str = "",
    hatched: tuple[Hatch, ...] = (),
    status: Status = Status.ONGOING,
    counts: tuple[int, int] = (0, 0),
) -> TurnResult:
    """The TurnResult a turn is expected to return."""
    return TurnResult(
        parse_square(black_move),
        parse_square(white_move),
        None if collision is None else parse_square(collision),
        captures,
        tuple(names(dissolved)),
        hatched,
        status,
        counts,
    )


def assert_board(game: Any, black: str = "", white: str = "", eggs: str = "") -> None:
    """The game holds exactly these turtles, and these eggs in this age order."""
    assert game.black == frozenset(names(black))
    assert game.white == frozenset(names(white))
    assert game.eggs == tuple(names(eggs))


def snapshot(game: Any) -> tuple[Any, ...]:
    """Everything observable about a game's state."""
    return (
        game.black,
        game.white,
        game.eggs,
        game.turn,
        game.status,
        game.winning_counts,
        game.legal_moves(),
        str(game),
    )


def random_game(Game: Any, seed: int, turns: int | None = None, *, start: Any = None,
                collide: float = 0.2) -> Any:
    """A reachable game: random turns from ``start`` (a new game by default) until
    it ends or ``turns`` were played; each turn is a collision with chance ``collide``."""
    rng = random.Random(seed)
    game = start.copy() if start is not None else Game()
    played = 0
    while not game.is_over() and (turns is None or played < turns):
        legal = game.legal_moves()
        black = rng.choice(legal)
        game.play(black, black if rng.random() < collide else rng.choice(legal))
        played += 1
    return game


def unix_c_compiler() -> str | None:
    """The first of cc, gcc and clang on PATH; None on Windows or without one."""
    if sys.platform == "win32":
        return None
    return next((name for name in ("cc", "gcc", "clang") if shutil.which(name)), None)


def aarch64_tools() -> tuple[str, str]:
    """The AArch64 cross compiler (``$WTS_AARCH64_CC``, else Debian's
    gcc-aarch64-linux-gnu) and the emulator that runs its static programs
    (qemu-user-static or qemu-user). Without them the test skips, but fails
    where ``WTS_REQUIRE_AARCH64=1`` says it must run (.ci/run sets it)."""
    compiler = os.environ.get("WTS_AARCH64_CC", "aarch64-linux-gnu-gcc")
    emulator = shutil.which("qemu-aarch64-static") or shutil.which("qemu-aarch64")
    lacking = ([f"an AArch64 cross compiler ({compiler})"] if shutil.which(compiler) is None
               else []) + (["qemu-aarch64-static or qemu-aarch64"] if emulator is None else [])
    if lacking:
        what = f"no {' and no '.join(lacking)} on PATH"
        if os.environ.get("WTS_REQUIRE_AARCH64") == "1":
            pytest.fail(f"{what}, and WTS_REQUIRE_AARCH64=1 says this test must run")
        pytest.skip(what)
    assert emulator is not None
    return compiler, emulator


def traced_in_a_fresh_process(script: str) -> Any:
    """Run ``script`` in a fresh interpreter and read the last line it prints
    as JSON. On CPython before 3.12.9 stopping tracemalloc while other threads
    allocate (the test process's, or pyarrow's pool in any process) can crash
    the process (python/cpython#128679): the script never stops it, and the
    process ends by ``os._exit`` once its output is flushed, so that
    finalization does not stop it either."""
    import json
    import subprocess

    import wts

    source = os.path.dirname(os.path.dirname(os.path.abspath(wts.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([source, os.environ.get("PYTHONPATH", "")]))
    script += "\nimport os, sys\nsys.stdout.flush()\nos._exit(0)\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    return json.loads(done.stdout.splitlines()[-1])
