"""The solvers of ``bidlab solve``, one module per solved game (``analysis/solvers/<game>.py``
defining ``make_solver(rules, seed)``), each on an abstraction of its game's bidding
(``sim/games/<game>/abstraction.py``) and the regret-matching pieces of ``sim/cfr.py``.

A solver is a deterministic machine: its state after ``t`` iterations is a function of
the rules, the seed and ``t`` alone (whatever the threads, and across a checkpoint and
resume), so the solution file is too.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, Protocol

import numpy as np

from sim.cfr import Abstraction
from sim.errors import BidlabError
from sim.games import all_games, get_game
from sim.rules import Rules

NOT_SOLVED = {
    "bridge": "bidlab does not solve bridge bidding: its auction has some 10^47 call "
              "sequences, a partner to agree with and a double-dummy solve (0.05-0.25 s) for "
              "every deal scored, so regret minimization would need far more deals than can "
              "be solved; compare bidding systems with `bidlab bridge pairs` instead",
}


class Solver(Protocol):
    abstraction: Abstraction
    method: str
    """The algorithm, in a line (written into the solution's provenance)."""
    iteration: int
    """Iterations done."""
    default_iterations: int

    def run(self, iterations: int) -> None:
        """Advance by ``iterations`` iterations. Solvers that sample deals
        (``mccfr.DealSampledCFR``) also take a Dask client and the workers' threads,
        and share each iteration's deals out over the cluster."""

    def probabilities(self) -> np.ndarray:
        """The average strategy: information sets x actions, rows summing to 1."""

    def exploitability(self, probabilities: np.ndarray) -> dict[str, Any]:
        """Held-out exploitability of ``probabilities`` in the abstract game:
        ``value``, ``ci_low``, ``ci_high`` and whatever else the game reports."""

    def state(self) -> dict[str, np.ndarray]:
        """Everything a checkpoint needs to resume bit for bit."""

    def restore(self, state: dict[str, np.ndarray]) -> None: ...


def solvable() -> list[str]:
    return [g for g in all_games() if importlib.util.find_spec(f"{__name__}.{g}") is not None]


def require(game: str, what: str = "bidlab solve") -> None:
    """Nothing where ``game`` has a solver; else an error that says why not and names
    the games that have one (``what``: the command or option that needs a solver)."""
    get_game(game)
    if importlib.util.find_spec(f"{__name__}.{game}") is None:
        why = NOT_SOLVED.get(game, f"bidlab has no solver for {game} yet")
        raise BidlabError(f"{what}: {why}; games it solves: {', '.join(solvable())}")


def typical_time(game: str) -> str:
    """How long ``bidlab solve GAME`` takes at its default iterations, in words (the
    solver module's ``TYPICAL_TIME``; "" where it gives none)."""
    require(game)
    return str(getattr(importlib.import_module(f"{__name__}.{game}"), "TYPICAL_TIME", ""))


def make_solver(game: str, rules: Rules, seed: int, settings: dict[str, Any] | None = None
                ) -> Solver:
    """The solver of ``game``; ``settings``: the abstraction's settings its solver
    takes (pitch: ``strength_steps``), e.g. to measure the price of coarsening."""
    get_game(game)
    if importlib.util.find_spec(f"{__name__}.{game}") is None:
        why = NOT_SOLVED.get(game, f"bidlab has no solver for {game} yet")
        raise BidlabError(f"{why}; games it solves: {', '.join(solvable())}")
    module = importlib.import_module(f"{__name__}.{game}")
    try:
        return module.make_solver(rules, seed, **(settings or {}))
    except TypeError as e:
        raise BidlabError(f"{game} solver settings {settings}: {e}") from None
