"""What a game against the bot is when it asks for nothing: the player on
black, the bot MCTS level 1, the weakest, for a first game. ``wts play``
with no options plays the same bot. Importing this needs no extra."""

from __future__ import annotations

from typing import Final

__all__ = ["BOT_LEVEL", "PLAYER_COLOR"]

#: The bot's MCTS level (:data:`wts.agents.LEVELS`).
BOT_LEVEL: Final = 1
#: The colour the player takes; the bot plays the other.
PLAYER_COLOR: Final = "black"
