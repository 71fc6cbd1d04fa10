"""One validated run specification (:class:`RunSpec`): what every API and CLI entry point
that plays matches is given (game, number of matches, seed, rules, strategies, where and
how the matches run), checked in one place, so that the same bad value gets the same
message from every entry point, before anything is compiled, played or written."""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import strategies as strategies_
from sim import runner
from sim.errors import BidlabError
from sim.games import get_game
from sim.rules import Rules, load_rules_file
from strategies import solved

StrategySpec = str | list[str] | Mapping[int | str | tuple[int, ...], str] | None
"""Strategies per seat: ``"0=value"``, ``["0,2=value", "1=budget"]``, or a mapping
``{0: "value"}``, ``{"0,2": "value"}``, ``{(0, 2): "value"}``, ``{"all": "budget"}``."""


def make_rules(game: str, rules: Mapping[str, Any] | None = None,
               rules_file: str | None = None) -> Rules:
    """Validated rules: defaults, then the TOML file, then ``rules`` on top."""
    merged = dict(load_rules_file(rules_file)) if rules_file else {}
    merged.update(rules or {})
    return get_game(game).make_rules(merged)


def seat_strategies(game: str, rules: Rules, strategies: StrategySpec
                    ) -> strategies_.SeatAssignment:
    """``"0=value"``, ``["0,2=value", "all=budget"]``, ``{0: "value"}``, ``{"0,2": "value"}``
    or ``{(0, 2): "value"}`` -> strategies per seat (see :data:`StrategySpec`)."""
    if isinstance(strategies, Mapping):
        strategies = [f"{seats_text(seat)}={spec}" for seat, spec in strategies.items()]
    n_seats = get_game(game).n_seats(rules)
    seats = strategies_.assign_seats(strategies_.for_game(game), n_seats, strategies)
    return solved.attach(game, rules, seats)


def seats_text(seat: Any) -> str:
    """A mapping key of :func:`seat_strategies` as ``assign_seats`` reads it: ``(0, 2)``
    (any tuple, list, set or range of seats) -> ``"0,2"``."""
    if isinstance(seat, (tuple, list, set, frozenset, range)):
        return ",".join(str(s) for s in (sorted(seat) if isinstance(seat, (set, frozenset))
                                         else seat))
    return str(seat)


def check_seed(seed: int) -> int:
    """A seed is a whole number in ``0..2**64-1`` (the kernels' counter-based streams)."""
    try:
        value = operator.index(seed)
    except TypeError:
        value = -1
    if not 0 <= value < 2 ** 64:
        raise BidlabError(f"--seed {seed}: give a whole number in 0..2**64-1")
    return seed


@dataclass(frozen=True)
class Count:
    """What an entry point's ``n`` counts (matches, matches per lineup, rollouts...) and
    its least value: one message form for every count, ``-n 0: give at least 1 match``."""

    option: str = "-n"
    least: int = 1
    one: str = "match"
    many: str = "matches"

    def check(self, value: int) -> int:
        if value < self.least:
            raise BidlabError(f"{self.option} {value}: give at least {self.least} "
                              f"{self.one if self.least == 1 else self.many}")
        return value


MATCHES = Count()
MATCHES_PER_LINEUP = Count(one="match per lineup")
MATCHES_PER_VARIANT = Count(one="match per variant")
TUNING_MATCHES = Count(least=2)
"""An optimiser's tuning matches: a variance needs two."""
HOLDOUT_MATCHES = Count("--holdout", 2, many="held-out matches")
ROLLOUTS = Count("--rollouts", 2, many="rollouts")


@dataclass(frozen=True)
class RunSpec:
    """Everything an entry point is told about the matches it plays, validated by
    :meth:`make`; fields an entry point does not take hold their defaults (bid-EV's
    chunk size, a tournament's strategies: its entrants are its own)."""

    game: str
    n: int
    seed: int
    rules: Rules
    strategies: strategies_.SeatAssignment
    threads: int | None = None
    chunk_size: int = runner.DEFAULT_CHUNK
    workers: int | None = None
    scheduler: str | None = None
    progress: bool | None = False

    @classmethod
    def make(cls, game: str, n: int | None = None, *, seed: int = 0,
             rules: Mapping[str, Any] | None = None, rules_file: str | None = None,
             strategies: StrategySpec = None, threads: int | None = None,
             chunk_size: int = runner.DEFAULT_CHUNK, workers: int | None = None,
             scheduler: str | None = None, progress: bool | None = False,
             count: Count = MATCHES) -> RunSpec:
        """The one validating constructor: ``n`` (default: the game's ``default_n``; what
        it counts and its least value: ``count``), the seed, the execution options, the
        rules and the strategies per seat, checked in that order."""
        n = count.check(get_game(game).default_n if n is None else n)
        check_seed(seed)
        runner.check_options(chunk_size, threads, workers, scheduler)
        r = make_rules(game, rules, rules_file)
        return cls(game, n, seed, r, seat_strategies(game, r, strategies), threads,
                   chunk_size, workers, scheduler, progress)

    def with_strategies(self, strategies: StrategySpec) -> RunSpec:
        """This spec with other strategies per seat, validated under its rules (compare
        ``--solved``: the seats play solutions that exist only once solved)."""
        return replace(self, strategies=seat_strategies(self.game, self.rules, strategies))

    def execution(self) -> dict[str, Any]:
        """Where and how the matches run: the keywords of :func:`sim.runner.run`."""
        return {"chunk_size": self.chunk_size, "threads": self.threads,
                "workers": self.workers, "scheduler": self.scheduler,
                "progress": self.progress}
