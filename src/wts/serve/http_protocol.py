"""HTTP/1.1 under uvicorn with a deadline for each request and a bound on
the connections of one address.

uvicorn closes an idle keep-alive connection, but a client that sends its
headers or its body a byte at a time (slow loris) resets that timer with
every byte and holds its connection, and a file of the server's, for ever;
thousands of them from one address use up the process's files, and then
nobody can connect. Here a request's line, headers and body must all arrive
within ``seconds`` of the connection's start or the last response, and an
address past ``per_address`` open connections has the next closed at once
(the reverse proxies named in ``trusted`` excepted: every client arrives
through them)."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from collections.abc import Callable, Collection
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["guarded_h11"]

# A request still arriving: its line and headers (IDLE), or its body (SEND_BODY).
_ARRIVING = (h11.IDLE, h11.SEND_BODY)


def _trusts(trusted: Collection[str]) -> Callable[[str], bool]:
    """Whether an address is one of ``trusted``: addresses, networks
    (``10.0.0.0/8``) or ``*``, as uvicorn's ``forwarded_allow_ips`` names them."""
    if "*" in trusted:
        return lambda address: True
    networks = []
    for entry in trusted:
        with contextlib.suppress(ValueError):  # else a name, compared as it is written
            networks.append(ipaddress.ip_network(entry, strict=False))
    names = frozenset(trusted)

    def trusts(address: str) -> bool:
        if address in names:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in networks)

    return trusts


def guarded_h11(seconds: float, per_address: int,
                trusted: Collection[str] = ()) -> type[H11Protocol]:
    """uvicorn's h11 protocol (for ``uvicorn.Config(http=...)``), closing a
    connection whose request takes longer than ``seconds`` to arrive, and one
    beyond ``per_address`` open from its address unless the address is in
    ``trusted``. A connection upgraded to a WebSocket leaves the count: the
    app bounds sockets itself."""
    trusts = _trusts(trusted)

    class Guarded(H11Protocol):
        open_by_address: ClassVar[dict[str, int]] = {}
        _deadline: asyncio.TimerHandle | None = None
        _counted: str | None = None

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing() and self.conn.their_state in _ARRIVING:
                self.transport.close()

        def _uncount(self) -> None:
            if self._counted is not None:
                left = self.open_by_address[self._counted] - 1
                if left:
                    self.open_by_address[self._counted] = left
                else:
                    del self.open_by_address[self._counted]
                self._counted = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            address = self.client[0] if self.client else "unknown"
            if not trusts(address):
                if self.open_by_address.get(address, 0) >= per_address:
                    transport.close()  # its file is freed now, not at a timeout
                    return
                self.open_by_address[address] = self.open_by_address.get(address, 0) + 1
                self._counted = address
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state not in _ARRIVING:  # the request is in
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request on this connection

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._disarm()
            self._uncount()
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._uncount()
            super().connection_lost(exc)

    return Guarded
