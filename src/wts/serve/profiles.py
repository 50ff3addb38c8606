"""Players' public pages as JSON: a profile (rating, its history, the games
played and their results) and the leaderboard. Nothing here is personal
beyond the name and the games; a deleted account has no profile, and its
games show it as a deleted player."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from wts.engine.game import Game
from wts.serve import glicko2
from wts.serve.messages import NAME
from wts.serve.rooms import DELETED
from wts.serve.store import GameRow, Store

__all__ = ["profile_routes", "rating_view"]


def rating_view(rating: glicko2.Rating, games: int) -> dict[str, Any]:
    return {"value": round(rating.value, 1), "deviation": round(rating.deviation, 1),
            "volatility": round(rating.volatility, 6), "provisional": rating.provisional,
            "games": games}


def _result(row: GameRow) -> str | None:
    """``black``, ``white`` or ``draw`` for a finished game."""
    if row.ending is not None:
        return row.ending["result"]
    game = Game()  # the stored turns decide it
    for black, white in row.moves:
        game.play(black, white)
    winner = game.status.winner
    return "draw" if winner is None else winner.value


def profile_routes(store: Callable[[], Store]) -> list[Route]:
    async def profile(request: Request) -> Response:
        name = request.path_params["name"]
        found = store().user_named(name) if re.fullmatch(NAME, name) else None
        if found is None:
            return JSONResponse({"type": "error", "code": "no-player",
                                 "message": "no player has that name"}, status_code=404)
        user_id, real_name, _, created = found
        rating, count = store().rating(user_id)
        rows = store().games_of(user_id)
        others = {u for row in rows for u in (row.black_user, row.white_user)
                  if u is not None and u != user_id}
        names = store().user_names(others)
        games = []
        for row in rows:
            color = "black" if row.black_user == user_id else "white"
            other = row.white_user if color == "black" else row.black_user
            result = _result(row)
            games.append({
                "game": row.id, "color": color, "rated": row.rated, "mode": row.mode,
                "opponent": ("the bot" if row.mode == "bot" else None if other is None
                             else names.get(other, DELETED)),
                "result": "draw" if result == "draw" else "win" if result == color else "loss",
                "turns": len(row.moves), "record": f"/api/games/{row.id}/record",
                "replay": f"/game/{row.id}"})
        history = [{"game": g, "at": at, "value": round(v, 1), "deviation": round(d, 1)}
                   for g, at, v, d in store().rating_history(user_id)]
        return JSONResponse({"name": real_name, "created": created,
                             "rating": rating_view(rating, count), "history": history,
                             "games": games})

    async def leaderboard(request: Request) -> Response:
        return JSONResponse({"players": [{"name": name, **rating_view(rating, games)}
                                         for name, rating, games in store().leaderboard()]})

    return [Route("/api/players/{name}", profile), Route("/api/leaderboard", leaderboard)]
