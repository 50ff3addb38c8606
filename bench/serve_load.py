"""Load on ``wts serve``: ``python bench/serve_load.py [--games 200] [--bots 4]``;
``--games 1 --rounds 20 --bots 0`` measures the idle move round trip.

Starts a server on a loopback port the system picks (its own process, a fresh database
in a temporary folder), then plays ``--games`` online games at once, each
with two WebSocket clients (one a seat), every game the same 18-turn line,
while ``--bots`` bot games (level ``--level``) run beside them with a client
that plays random squares. Prints the move latency (from the second seat's
move sent to the resolved turn received by both seats) at p50 and p99, the
turns and games a second, and the bot games' turns. ``--seconds`` bounds the
run: games still going then are left unfinished and the figures are of the
turns played. ``--db postgresql://...`` plays on that PostgreSQL database (an
empty one: the games are left in it) in place of a new SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from wts.cli.arguments import integer

# A line of 18 turns with no capture and no row of five: every game plays it.
LINE = [(f"{'ABCDEFGHI'[f]}{r}", f"{'ABCDEFGHI'[f]}{r + 1}")
        for r in (1, 3, 5) for f in range(9) if f % 3 != 2]
#: The idle move round trip's target on loopback (``--games 1 --bots 0``).
IDLE_TARGET_MS = 2.0
# The server's bounds, opened up for one address playing many games at once.
SERVER = """
import sys
from wts.serve.bounds import Limits
from wts.serve.launch import run
run(port=0, db=sys.argv[1],
    limits=Limits(max_connections_per_address=100_000, max_connections=100_000,
                  creates_burst=100_000, max_open_games=100_000, max_rooms=100_000,
                  max_open_games_per_address=100_000, max_bot_games_per_address=100_000))
"""


def post(url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{url}{path}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json",
                                              "origin": url})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


async def until_turn(ws: Any, turn: int) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if message.get("type") == "state" and message["turn"] >= turn:
            return message  # type: ignore[no-any-return]


async def online_game(host: str, made: dict[str, Any], white_token: str,
                      latencies: list[float], deadline: float) -> int:
    address = f"ws://{host}/ws?game={made['game']}"  # as the page opens it
    async with connect(address) as black, connect(address) as white:
        for ws, token in ((black, made["tokens"]["black"]), (white, white_token)):
            await ws.send(json.dumps({"type": "hello", "version": 1, "game": made["game"],
                                      "tokens": [token]}))
            await until_turn(ws, 0)
        for turn, (b, w) in enumerate(LINE):
            if time.monotonic() > deadline:
                return turn
            await black.send(json.dumps({"type": "move", "color": "black", "square": b,
                                         "turn": turn}))
            sent = time.perf_counter()
            await white.send(json.dumps({"type": "move", "color": "white", "square": w,
                                         "turn": turn}))
            await asyncio.gather(until_turn(black, turn + 1), until_turn(white, turn + 1))
            latencies.append(time.perf_counter() - sent)
    return len(LINE)


async def bot_game(host: str, url: str, level: int, deadline: float) -> int:
    made = await asyncio.to_thread(post, url, "/api/games",
                                   {"mode": "bot", "color": "black", "level": level})
    rng = random.Random(1)
    async with connect(f"ws://{host}/ws?game={made['game']}") as ws:
        await ws.send(json.dumps({"type": "hello", "version": 1, "game": made["game"],
                                  "tokens": [made["tokens"]["black"]]}))
        state = await until_turn(ws, 0)
        while not state["over"] and time.monotonic() < deadline:
            empty = [i for i, c in enumerate(state["board"]) if c == "."]
            square = "ABCDEFGHI"[(i := rng.choice(empty)) % 9] + str(i // 9 + 1)
            await ws.send(json.dumps({"type": "move", "color": "black", "square": square,
                                      "turn": state["turn"]}))
            turn = state["turn"]
            while state["turn"] == turn and not state["over"]:
                state = json.loads(await ws.recv())
                while state.get("type") != "state":
                    state = json.loads(await ws.recv())
        return int(state["turn"])


async def lane(host: str, games: list[tuple[dict[str, Any], str]], latencies: list[float],
               deadline: float) -> list[int]:
    """Games played one after another, as one pair of players would."""
    return [await online_game(host, made, white, latencies, deadline) for made, white in games]


async def run(url: str, games: int, rounds: int, bots: int, level: int,
              seconds: float) -> None:
    host = url.removeprefix("http://")
    made = []
    for _ in range(games * rounds):
        game = post(url, "/api/games", {"mode": "online", "color": "black"})
        joined = post(url, "/api/join", {"code": game["invite"]})
        made.append((game, joined["tokens"]["white"]))
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    start = time.perf_counter()
    bot_tasks = [asyncio.create_task(bot_game(host, url, level, deadline)) for _ in range(bots)]
    lanes = await asyncio.gather(*(lane(host, made[i::games], latencies, deadline)
                                   for i in range(games)))
    turns = [played for games_played in lanes for played in games_played]
    elapsed = time.perf_counter() - start
    bot_turns = await asyncio.gather(*bot_tasks)
    latencies.sort()
    finished = sum(1 for t in turns if t == len(LINE))
    games *= rounds
    print(f"wts serve load: {games // rounds} online games of {len(LINE)} turns at once "
          f"({rounds} after one another), {bots} bot games (level {level}) beside them")
    print(f"  move latency   p50 {1000 * statistics.median(latencies):.1f} ms, "
          f"p99 {1000 * latencies[int(0.99 * (len(latencies) - 1))]:.1f} ms "
          f"({len(latencies):,} turns)")
    print(f"  throughput     {sum(turns) / elapsed:,.0f} turns/s, "
          f"{finished / elapsed:.1f} games/s ({finished} of {games} finished "
          f"in {elapsed:.1f} s)")
    print(f"  bot games      {sum(bot_turns)} turns played")
    if games == rounds and bots == 0:  # one game at a time: the idle round trip
        p50 = 1000 * statistics.median(latencies)
        print(f"  idle round trip p50 {p50:.2f} ms: target under {IDLE_TARGET_MS:g} ms "
              f"{'met' if p50 < IDLE_TARGET_MS else 'MISSED'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=integer("a number of games", 1, 5000), default=200)
    parser.add_argument("--rounds", type=integer("a number of rounds", 1, 1000), default=1,
                        help="games each pair plays one after another (default 1)")
    parser.add_argument("--bots", type=integer("a number of bot games", 0, 100), default=4)
    parser.add_argument("--level", type=integer("a level", 1, 5), default=2)
    parser.add_argument("--seconds", type=integer("seconds", 1, 3600), default=120)
    parser.add_argument("--db", default=None, metavar="URL",
                        help="a postgresql:// database to play on (default: a new SQLite "
                        "file in a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        # Port 0: the system picks a free one, which the server's first line names.
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, args.db or str(Path(folder) / "load.sqlite3")],
            stdout=subprocess.PIPE, text=True)
        try:
            said = server.stdout.readline()  # type: ignore[union-attr]
            if not said.startswith("wts serve: http://"):
                raise SystemExit(f"the server did not start: {said!r}")
            url = said.split()[2].rstrip("/")
            asyncio.run(run(url, args.games, args.rounds, args.bots, args.level,
                            args.seconds))
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
