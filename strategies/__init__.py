"""Policies and strategies of every game, found by module name: ``strategies.<game>``
defines ``STRATEGIES`` (a :class:`strategies.base.GameStrategies`)."""

from __future__ import annotations

import importlib

import sim  # noqa: F401  (sets numba's cache directory before any kernel is defined)
from sim.errors import BidlabError
from sim.games import get_game
from strategies.base import GameStrategies, SeatAssignment, Strategy, assign_seats

__all__ = ["for_game", "GameStrategies", "SeatAssignment", "Strategy", "assign_seats"]


def for_game(game: str) -> GameStrategies:
    get_game(game)  # the game package first: its kernel imports its policies module
    try:
        module = importlib.import_module(f"strategies.{game}")
    except ModuleNotFoundError:
        raise BidlabError(f"no strategies for game {game!r}") from None
    return module.STRATEGIES
