"""The server's bounds: frame and upload sizes, numbers of games and
connections, and the rates one connection or one address may send at."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limits:
    """Every bound the server enforces; :func:`wts.serve.app.create_app` takes one."""

    #: The largest WebSocket frame read, in bytes (larger ones close the socket, code 1009).
    max_frame: int = 2048
    #: The largest game record an upload may be, in bytes.
    max_record: int = 64 * 1024
    #: Games not yet finished, across the whole database, and made from one address.
    max_open_games: int = 2000
    max_open_games_per_address: int = 20
    #: An unfinished game nobody has moved in for this long is deleted (seconds; longer
    #: than the longest move clock) ...
    idle_game_seconds: float = 25 * 3600
    #: ... and an online game whose second seat nobody took, this long after it was made.
    unjoined_game_seconds: float = 15 * 60
    #: Bot games in progress (unfinished, a move within ``bot_active_seconds``) one
    #: address may have; a bot game's search starts only once its player is connected.
    max_bot_games_per_address: int = 3
    bot_active_seconds: float = 10 * 60
    #: Games that may be in memory (being played or watched) at once.
    max_rooms: int = 1000
    #: WebSocket connections open at once, in all and from one address.
    max_connections: int = 2000
    max_connections_per_address: int = 64
    #: Messages one connection may send: a burst, then so many a second.
    messages_burst: int = 30
    messages_per_second: float = 10.0
    #: HTTP requests that create something (games, joins, replays, lesson moves)
    #: one address may make: a burst, then so many a second.
    creates_burst: int = 60
    creates_per_second: float = 2.0
    #: Logins one address may try (a burst, then so many a second) and logins to
    #: one account name from anywhere: password guessing is slowed both ways.
    logins_burst: int = 10
    logins_per_second: float = 0.2
    account_logins_burst: int = 5
    account_logins_per_second: float = 1 / 60
    #: Bot searches running at once (each holds one worker thread).
    max_bot_searches: int = 2
    #: Seconds a request's line, headers and body may take to arrive (a slow
    #: client sending a byte at a time holds a connection no longer), and the
    #: HTTP connections one address may hold open (the proxies of
    #: ``forwarded_allow_ips`` excepted).
    request_seconds: float = 10.0
    max_http_connections_per_address: int = 64
    #: A finished game's clock: the longest time for a whole game or a move, in seconds.
    max_clock_seconds: int = 24 * 3600
    #: Each process says it is alive this often (seconds); one silent for three
    #: times as long is taken for stopped, and the seeks of its lobby's players
    #: with no socket elsewhere end.
    presence_seconds: float = 10.0


@dataclass
class TokenBucket:
    """A rate limit: ``burst`` actions at once, refilled at ``rate`` a second."""

    burst: float
    rate: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        """Spend one action; False when the bucket is empty (the action is refused)."""
        now = time.monotonic()
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class AddressBuckets:
    """One :class:`TokenBucket` per client address, forgetting idle ones so the
    table stays bounded."""

    def __init__(self, burst: float, rate: float, max_addresses: int = 10_000) -> None:
        self.burst = burst
        self.rate = rate
        self.max_addresses = max_addresses
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, address: str) -> bool:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.max_addresses:
                # A full bucket is the same as a missing one: drop the full ones.
                now = time.monotonic()
                self.buckets = {a: b for a, b in self.buckets.items()
                                if b.tokens + (now - b.stamp) * b.rate < b.burst}
                while len(self.buckets) >= self.max_addresses:
                    # Still full: the oldest goes, so a flood of new keys (made-up
                    # names, say) never shuts the table to everyone else.
                    del self.buckets[next(iter(self.buckets))]
            bucket = self.buckets[address] = TokenBucket(self.burst, self.rate)
        return bucket.take()
