"""Load on the club deployment of docs/serve.md: ``python bench/club_load.py
[--games 50]``.

Starts what docs/serve.md's "Several processes" runs: a PostgreSQL server
(initdb in a temporary folder, as the deployment test does), two
``wts serve`` processes on it and nginx in front with deploy/nginx.conf.
Then, all through the proxy:

1. signs up ``2 * --games`` accounts, then logs each in again (the Argon2id
   hash is checked on every login, on purpose slow);
2. plays ``--games`` rated games at once, each made by one account and
   joined by another, every game the same line of 19 turns that black wins
   on the last, so that each game's end moves both ratings;
3. reads every player's profile back and checks that each rating moved.

Prints sign-ups and logins a second (with their p50 latency), the move
latency (from the second seat's move sent to the resolved turn received by
both seats) at p50 and p99, the turns and games a second, and what one
Argon2id hash costs on this machine. Needs PostgreSQL's and nginx's Debian
packages (``postgresql``, ``nginx-light``) and ``pip install -e
".[serve,postgresql,test]"``; run it from the repository's root.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.support starts the real services

import serve_load  # noqa: E402  (beside this file: bench/ is the script's folder)

from tests.support.services import (  # noqa: E402
    NGINX_CONF,
    free_port,
    new_database,
    render_nginx_config,
    start_nginx,
    start_postgres,
)
from wts.cli.arguments import integer  # noqa: E402

PASSWORD = "correct horse battery staple"
# 18 turns with no capture and no five (as bench/serve_load.py plays), then
# black's C1 closes A1-E1: the game ends, and the ratings move.
LINE = [*serve_load.LINE, ("C1", "I9")]
CLOCK = {"kind": "game", "seconds": 600}  # a rated game has a clock
# Each process's bounds opened up: every client here has the one address 127.0.0.1.
SERVER = """
import sys
from wts.serve.bounds import Limits
from wts.serve.launch import run
many = 1_000_000
run(port=int(sys.argv[2]), db=sys.argv[1], forwarded_allow_ips="127.0.0.1",
    limits=Limits(max_connections_per_address=many, max_connections=many,
                  creates_burst=many, creates_per_second=many, max_open_games=many,
                  max_rooms=many, max_open_games_per_address=many,
                  logins_burst=many, logins_per_second=many,
                  account_logins_burst=many, account_logins_per_second=many))
"""


class Player:
    """One account's browser: its cookie jar, through the proxy."""

    def __init__(self, base: str, name: str) -> None:
        self.base, self.name = base, name
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(
            f"{self.base}{path}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"content-type": "application/json", "origin": self.base})
        with self.opener.open(request, timeout=60) as response:
            text = response.read()
        return json.loads(text) if text else None


def timed_all(work: Callable[[Player], Any], players: list[Player],
              threads: int) -> tuple[float, list[float]]:
    """Runs ``work`` on every player from ``threads`` threads: the seconds it
    took in all, and each call's."""
    def one(player: Player) -> float:
        started = time.perf_counter()
        work(player)
        return time.perf_counter() - started

    started = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        each = list(pool.map(one, players))
    return time.perf_counter() - started, each


async def until_turn(ws: Any, turn: int) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if message.get("type") == "state" and (message["turn"] >= turn or message["over"]):
            return message  # type: ignore[no-any-return]


async def rated_game(host: str, game: str, tokens: tuple[str, str],
                     latencies: list[float]) -> int:
    address = f"ws://{host}/ws?game={game}"  # nginx sends it to the game's process
    async with connect(address, open_timeout=30) as black, \
            connect(address, open_timeout=30) as white:
        for ws, token in zip((black, white), tokens):
            await ws.send(json.dumps({"type": "hello", "version": 1, "game": game,
                                      "tokens": [token]}))
            await until_turn(ws, 0)
        for turn, (b, w) in enumerate(LINE):
            await black.send(json.dumps({"type": "move", "color": "black", "square": b,
                                         "turn": turn}))
            sent = time.perf_counter()
            await white.send(json.dumps({"type": "move", "color": "white", "square": w,
                                         "turn": turn}))
            states = await asyncio.gather(until_turn(black, turn + 1),
                                          until_turn(white, turn + 1))
            latencies.append(time.perf_counter() - sent)
            if states[0]["over"]:
                return turn + 1
    return len(LINE)


def argon2_seconds() -> float:
    """One Argon2id hash with the server's parameters (argon2-cffi's defaults)."""
    from argon2 import PasswordHasher

    hasher = PasswordHasher()
    hasher.hash(PASSWORD)  # the first call maps its memory
    started = time.perf_counter()
    for _ in range(5):
        hasher.hash(PASSWORD)
    return (time.perf_counter() - started) / 5


def p50_ms(seconds: list[float]) -> str:
    return f"p50 {1000 * statistics.median(seconds):.0f} ms"


def measure(base: str, games: int, threads: int) -> bool:
    """The three steps of the module's doc against the proxy at ``base``;
    whether every rating moved."""
    run_id = f"{time.time_ns() % 10**8:08d}"
    players = [Player(base, f"p{run_id}{i}") for i in range(2 * games)]
    signed, each = timed_all(lambda p: p.call("POST", "/api/account", {
        "name": p.name, "password": PASSWORD, "age_16_or_over": True}), players, threads)
    print(f"  sign-ups       {len(players) / signed:.1f}/s ({len(players)} in {signed:.1f} s, "
          f"{p50_ms(each)}, {threads} at a time)")
    logged, each = timed_all(lambda p: p.call("POST", "/api/session", {
        "name": p.name, "password": PASSWORD}), players, threads)
    print(f"  logins         {len(players) / logged:.1f}/s ({p50_ms(each)})")

    made = []
    for black, white in zip(players[::2], players[1::2]):
        game = black.call("POST", "/api/games", {"mode": "online", "color": "black",
                                                 "rated": True, "clock": CLOCK})
        joined = white.call("POST", "/api/join", {"code": game["invite"]})
        made.append((game["game"], (game["tokens"]["black"], joined["tokens"]["white"])))
    latencies: list[float] = []

    async def play_all() -> list[int]:
        host = base.removeprefix("http://")
        return await asyncio.gather(*(rated_game(host, game, tokens, latencies)
                                      for game, tokens in made))

    started = time.perf_counter()
    turns = asyncio.run(play_all())
    elapsed = time.perf_counter() - started
    finished = sum(1 for t in turns if t == len(LINE))
    latencies.sort()
    print(f"  move latency   p50 {1000 * statistics.median(latencies):.1f} ms, "
          f"p99 {1000 * latencies[int(0.99 * (len(latencies) - 1))]:.1f} ms "
          f"({len(latencies):,} turns)")
    print(f"  throughput     {sum(turns) / elapsed:,.0f} turns/s, {finished / elapsed:.1f} "
          f"games/s ({finished} of {games} won by black in {elapsed:.1f} s)")

    moved = 0
    for player in players:
        rating = player.call("GET", f"/api/players/{player.name}")["rating"]
        moved += rating["games"] == 1 and rating["value"] != 1500
    print(f"  ratings        {moved} of {len(players)} moved by their one rated game")
    return finished == games and moved == len(players)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=integer("a number of games", 1, 1000), default=50,
                        help="rated games played at once (default 50)")
    parser.add_argument("--threads", type=integer("a number of threads", 1, 64), default=8,
                        help="sign-ups and logins sent at once (default 8)")
    args = parser.parse_args()
    print(f"one Argon2id hash here: {1000 * argon2_seconds():.0f} ms on one thread")
    with tempfile.TemporaryDirectory() as folder, start_postgres(Path(folder)) as postgres:
        database = new_database(postgres)
        ports = [free_port(), free_port()]
        servers = [subprocess.Popen([sys.executable, "-c", SERVER, database, str(port)],
                                    stdout=subprocess.PIPE, text=True) for port in ports]
        try:
            for server in servers:
                said = server.stdout.readline()  # type: ignore[union-attr]
                if not said.startswith("wts serve: http://"):
                    raise SystemExit(f"a server did not start: {said!r}")
            nginx = Path(folder) / "nginx"
            nginx.mkdir()
            listen = free_port()
            config = render_nginx_config(NGINX_CONF.read_text(), listen, ports, nginx)
            with start_nginx(nginx, config):
                print(f"club load: {args.games} rated games between accounts at once, "
                      f"through nginx to 2 wts serve processes on PostgreSQL")
                ok = measure(f"http://127.0.0.1:{listen}", args.games, args.threads)
        finally:
            for server in servers:
                server.terminate()
                server.wait(30)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
