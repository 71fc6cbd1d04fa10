"""What a game package provides to the runner, the CLI and the analysis."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.rules import RuleKey, Rules

Columns = dict[str, np.ndarray]
"""One table's columns, equal-length arrays; nullable integers use -1 and a mask later."""

Policies = Mapping[str, tuple[np.ndarray, np.ndarray]]
"""Per decision kind: (policy id per seat, parameter matrix seats x params)."""


@dataclass(frozen=True)
class Rollouts:
    """What a game's bid-EV rollouts return: outcomes of the asking seat as arrays of
    rollouts x candidates, every candidate on the same rollouts."""

    actions: list[str]
    """The candidates' names, in column order."""
    score: np.ndarray
    """The game's score of the seat (auktsion, pitch: match score; bridge: the side's
    duplicate score)."""
    win: np.ndarray
    """The seat's share of the win (bridge: the matchpoint share among the candidates)."""
    situation: dict
    """The situation as parsed, as JSON (what the rollouts conditioned on)."""
    extra: dict[str, np.ndarray] = field(default_factory=dict)
    """Further outcomes by name, as ``Game.bidev_outcomes`` names them (bridge only:
    ``imps`` against the best candidate)."""


@dataclass(frozen=True)
class Game:
    """A game's entry points. ``run_chunk`` returns tables by name; the ``seats`` table
    always has the columns ``match, seat, score, win``."""

    name: str
    title: str
    rule_keys: tuple[RuleKey, ...]
    make_rules: Callable[[Mapping[str, Any] | None], Rules]
    n_seats: Callable[[Rules], int]
    run_chunk: Callable[..., dict[str, Columns]]
    trace: Callable[..., dict]
    replay: Callable[[dict], dict]
    tables: Mapping[str, str]
    """Table name -> one line on what a row is; ``seats`` always, others with detail."""
    default_n: int = 100_000
    """Matches a command plays when the user gives no ``-n`` (bridge: fewer, because
    every new board costs a double-dummy solve)."""
    summary_metrics: tuple[str, ...] = ("score", "win")
    """Columns of the ``seats`` table that a run summary reports per strategy and seat."""
    rollouts: Callable[..., Rollouts] | None = None
    """Bid-EV rollouts: ``(rules, policies, labels, situation, candidates, seed, n)`` ->
    :class:`Rollouts`; None where the game has no bid-EV yet."""
    situation_help: str = ""
    """The situation keys ``bid-ev`` accepts, for ``--help`` and error messages."""
    bidev_metric: str = "score"
    """What bid-EV ranks candidates by (its ``mean``, best action and P(best)): ``score``
    (expected match score) or ``win`` (expected win share), whichever the game is played
    for; the other is reported next to it."""
    bidev_outcomes: tuple[tuple[str, str], ...] = (("score", "match score"),
                                                   ("win", "win share"))
    """(name, title) of the outcomes bid-EV reports: ``score`` and ``win`` (what they
    mean in this game), then the further outcomes its rollouts return by name."""
    bidev_rollouts: int = 20_000
    """Rollouts a bid-EV takes when the user gives no number (bridge: few, because every
    new deal costs a double-dummy solve)."""
    match_metrics: tuple[tuple[str, str], ...] = ()
    """(column, title): columns of the ``seats`` table that are equal on every seat of a
    match (pitch: ``deals``); a run summary reports their mean per match with a 95%
    interval (``analysis.summary.GameSummary``)."""
    ratio_metrics: tuple[tuple[str, str, str], ...] = ()
    """(title, numerator, denominator): pairs of ``seats`` columns; a run summary reports
    sum over sum, overall and per strategy, with a 95% interval clustered by match
    (pitch: contracts made over contracts pitched, by contract)."""
    read_deals: Callable[[Any], np.ndarray] | None = None
    """Deals imported from a file (bridge: PBN) for ``--boards``: an array with one row
    per board; ``run_chunk`` and ``trace`` then take rows ``[start, start + count)`` as
    ``deals=`` and play those boards instead of dealing. None: the game deals only."""
    board_writer: Callable[..., Any] | None = None
    """``(path, labels, comment)`` -> a runner sink that writes every board played to a
    file (bridge: PBN) from the ``detail`` tables; has ``close()``. For ``--pbn``."""
    trace_text: Callable[[dict], str] | None = None
    """A trace in the game's own notation (bridge: one PBN game), for ``trace --pbn``."""

