"""Registry of games: every subpackage of ``sim.games`` that defines ``GAME``.

A new game adds its package here and registers itself; nothing else needs editing.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from sim.errors import BidlabError
from sim.game import Game


@cache
def all_games() -> dict[str, Game]:
    games = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            games[game.name] = game
    return dict(sorted(games.items()))


def get_game(name: str) -> Game:
    """The game called ``name``; imports only its package (a game's import error stays
    its own)."""
    if name in {info.name for info in pkgutil.iter_modules(__path__)}:
        game = getattr(importlib.import_module(f"{__name__}.{name}"), "GAME", None)
        if isinstance(game, Game) and game.name == name:
            return game
    raise BidlabError(f"unknown game {name!r}; known games: {', '.join(all_games())}")
