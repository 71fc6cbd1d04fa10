"""What a game package provides to the runner, the CLI and the analysis: a
:class:`Game`, whose entry points have the exact signatures below in every game."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from sim.rules import RuleKey, Rules

if TYPE_CHECKING:
    from sim.cfr import Abstraction
    from sim.referee import Replayed

Columns = dict[str, np.ndarray]
"""One table's columns, equal-length arrays (a masked array where values may be null)."""

Tables = dict[str, Columns]
"""Tables by name: ``seats`` always, the game's detail tables with ``detail``."""

Policies = Mapping[str, Any]
"""Per decision kind: (policy id per seat, parameter matrix seats x params); and under
``SOLUTION``, where a seat plays ``solved``, the solution's table (float64)."""

SOLUTION = "solution"
"""The key of :data:`Policies` that holds the table the ``solved`` policies play
(``strategies/solved.py``); kernels get it as an array argument
(``sim.harness.solution_table``), so a new solution never recompiles anything."""


class RunChunk(Protocol):
    def __call__(self, rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
                 start: int, count: int, detail: bool = False,
                 deals: np.ndarray | None = None) -> Tables:
        """Play matches ``start .. start + count - 1`` of the run with ``seed``.

        ``labels`` name each seat's strategy (for error messages). ``deals``: cards to
        play instead of dealing them from ``(seed, i)``, in the game's own layout, or
        None (every game takes one row per match): bridge the chunk's rows of imported
        boards (``BoardFiles.read``); pitch chosen hands (per deal a card mask or -1 per
        seat); auktsion and aukcio deck orders, vybory hands, fpsb values (each game's
        ``engine.dealt``).
        """


class TraceFn(Protocol):
    def __call__(self, rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
                 index: int, deals: np.ndarray | None = None) -> dict:
        """The JSON hand history of match ``index``: the same match ``run_chunk`` plays
        (``deals`` as there, for this one match)."""


class ReplayFn(Protocol):
    def __call__(self, trace: dict) -> Replayed:
        """Check a trace against the rules in plain Python (raising ``RefereeError``
        at the first thing wrong) and re-derive its result."""


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
    always has the columns ``match, seat, score, win`` (``tests/test_conformance.py``
    holds every game to this interface)."""

    name: str
    title: str
    rule_keys: tuple[RuleKey, ...]
    make_rules: Callable[[Mapping[str, Any] | None], Rules]
    n_seats: Callable[[Rules], int]
    run_chunk: RunChunk
    trace: TraceFn
    replay: ReplayFn
    tables: Mapping[str, str]
    """Table name -> one line on what a row is; ``seats`` always, others with detail."""
    default_n: int = 100_000
    """Matches a command plays when the user gives no ``-n`` (bridge: fewer, because
    every new board costs a double-dummy solve)."""
    summary_metrics: tuple[str, ...] = ("score", "win")
    """Columns of the ``seats`` table that a run summary reports per strategy and seat."""
    share_metrics: tuple[str, ...] = ("win",)
    """Columns of the ``seats`` table that are a seat's share in [0, 1] (``win``: its
    share of the win, ties split): their intervals stay honest at 0 and 1
    (``analysis.summary.mean_interval``), so a seat that never wins in n matches gets an
    upper bound near 3.8 / n, not the no-width interval of a sample without spread."""
    rollouts: Callable[..., Rollouts] | None = None
    """Bid-EV rollouts: ``(rules, policies, labels, situation, candidates, seed, n,
    progress)`` -> :class:`Rollouts` (``progress``: bars on the slow steps, bridge's
    double-dummy solving; None: on a terminal); None where the game has no bid-EV yet."""
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
    table_ratios: tuple[tuple[str, str, str], ...] = ()
    """(title, numerator, denominator): like ``ratio_metrics``, of ``seats`` columns
    that are equal on every seat of a match (a fact of the table, not of a seat), so
    each match counts once, for the table as a whole (bridge: the contract mix over
    boards)."""
    trace_text: Callable[[dict], str] | None = None
    """A trace (as ``trace`` returns it, or loaded back from JSON) as a hand history for
    people (``bidlab trace --text``): pure formatting, no play; ``trace.text`` of the
    game's package, picked up by :func:`game_package`; None where the game has none."""
    boards: BoardFiles | None = None
    """Boards in files, for a game whose boards people exchange (bridge only: PBN)."""
    hidden_deals: Callable[[Rules, int, int, int], tuple[np.ndarray, np.ndarray]] | None = None
    """``(rules, seed, index, seat)`` -> two ``deals=`` for match ``index``: as dealt,
    and with every card hidden from ``seat`` changed, what it sees kept, while the other
    seats play ``blind`` (the conformance suite checks that a policy's calls are the
    same in both); None where the game has no such pair yet. Where play shows the
    cards, "what it sees" is its view up to the first card shown (``view_columns``)."""
    blind: str = "passive"
    """A strategy whose actions tell nothing of its cards (fpsb: ``linear:a=0``; bridge:
    ``random``, calls drawn from the seat's own random stream)."""
    sides: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Fixed partnerships, as (name, seats) (bridge: NS 0 and 2, EW 1 and 3): a
    tournament seats one strategy per side; empty where every seat plays for itself
    (vybory's partners change every deal)."""
    objective: str = "score"
    """The ``seats`` column the optimisers maximise (``bidlab optimize``): the match score,
    or ``win`` where a seat's score can rise without beating anyone (vybory: the pairs'
    points do not cancel, so naming rich types lifts everyone's score)."""
    view_columns: tuple[str, ...] = ()
    """The ``seats`` columns the hidden-card check compares; empty: every column. A trick
    game, whose play shows every card in the end, changes hidden cards only where the
    calls of its first decision are made and compares only the columns that count them
    (vybory: ``named_1..named_8``; pitch: the first deal's call, ``redeals`` and
    ``pitched_1..pitched_4``; bridge: the contract the auction reaches, not the
    double-dummy tricks and scores, which depend on every hand)."""
    abstraction: Callable[[Rules], Abstraction] | None = None
    """The solver's abstraction under the given rules (``abstraction.py`` of the game's
    package, where ``bidlab solve`` solves the game): what a solution is indexed by."""
    view_rules: Mapping[str, Any] = field(default_factory=dict)
    """Rule values the hidden-card check plays under, the others at their defaults
    (pitch: ``max_deals=1``, so that the calls counted are those of the one deal whose
    hidden cards change, all made before its first card shows them)."""


@dataclass(frozen=True)
class BoardFiles:
    """Reading and writing boards as files (bridge only: PBN), for ``--boards``,
    ``--pbn`` and ``trace --pbn``."""

    read: Callable[[Any], np.ndarray]
    """Deals imported from a file: an array with one row per board; ``run_chunk`` and
    ``trace`` then take rows ``[start, start + count)`` as ``deals=`` and play those
    boards instead of dealing."""
    writer: Callable[..., Any]
    """``(path, labels, comment)`` -> a runner sink that writes every board played to a
    file from the ``detail`` tables; has ``close()``."""
    text: Callable[[dict], str]
    """A trace in the file's notation (one PBN game)."""


def players(rules: Rules) -> int:
    """The number of seats of a game whose rules have a ``players`` key."""
    return rules.players


def game_package(package: str, *, title: str, tables: Mapping[str, str],
                 n_seats: Callable[[Rules], int] = players, **fields: Any) -> Game:
    """The :class:`Game` of package ``package``, laid out as every game is (README,
    "Adding a game"): ``rules.py`` (``KEYS``, ``make``), ``engine.py`` (``run_chunk``),
    ``trace.py`` (``trace``, and where it has one ``text``: the hand history for people),
    ``referee.py`` (``replay``) and, where the game has bid-EV, ``rollout.py``
    (``run_rollouts``) with ``situation.py`` (``HELP``, and where they differ from the
    defaults ``METRIC``, ``OUTCOMES``, ``ROLLOUTS``). ``fields``: the other :class:`Game`
    fields."""
    def part(name: str):
        return importlib.import_module(f"{package}.{name}")

    rules = part("rules")
    trace = part("trace")
    if hasattr(trace, "text"):
        fields.setdefault("trace_text", trace.text)
    if importlib.util.find_spec(f"{package}.abstraction") is not None:
        fields["abstraction"] = part("abstraction").abstraction
    if importlib.util.find_spec(f"{package}.rollout") is not None:
        situation = part("situation")
        fields["rollouts"] = part("rollout").run_rollouts
        fields["situation_help"] = situation.HELP
        for attr, key in (("METRIC", "bidev_metric"), ("OUTCOMES", "bidev_outcomes"),
                          ("ROLLOUTS", "bidev_rollouts")):
            if hasattr(situation, attr):
                fields[key] = getattr(situation, attr)
    return Game(name=package.rsplit(".", 1)[-1], title=title, rule_keys=rules.KEYS,
                make_rules=rules.make, n_seats=n_seats, run_chunk=part("engine").run_chunk,
                trace=trace.trace, replay=part("referee").replay, tables=tables,
                **fields)
