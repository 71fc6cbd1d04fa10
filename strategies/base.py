"""Policies, their parameters, and strategies (one policy per decision kind).

A policy is identified inside a kernel by an integer id; its parameters travel as a
float64 vector, so tuning a parameter never recompiles anything.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.errors import StrategyError
from sim.jit import jit

ILLEGAL_PID = 99
"""A policy id that no policy has: every game's dispatcher answers it with an action no
rule allows, so that the kernels' illegal-action errors are tested on real kernels (the
conformance suite, ``tests/test_conformance.py``). Never offered to users."""

VIEW_PID = 98
"""A policy id that no policy has: in every game that offers ``Game.hidden_deals``, the
dispatcher answers it with a legal action that is a hash of everything the policy is
shown (its observation and its own cards), so that the conformance suite can tell
whether a change of the cards hidden from it reaches its view. Never offered to users."""


@jit
def view_hash(o, hand):
    """``VIEW_PID``'s hash (FNV-1a) of a policy's whole view: its observation and its own
    cards, each entry taken to a quarter (the views hold whole numbers and halves)."""
    acc = np.uint64(14695981039346656037)
    for x in o:
        acc = (acc ^ np.uint64(np.int64(x * 4.0) & 0xFFFFFFFF)) * np.uint64(1099511628211)
    for x in hand:
        acc = (acc ^ np.uint64(np.int64(x * 4.0) & 0xFFFFFFFF)) * np.uint64(1099511628211)
    return acc


@dataclass(frozen=True)
class Acts:
    """A rule condition a parameter needs in order to act: rule ``key`` has one of
    ``values``, or (with ``above``) is greater than it. Under other rules the parameter
    changes no call (e.g. a sealed bid's shade in the open auction), so the optimisers
    leave it alone and say so."""

    key: str
    values: tuple[Any, ...] = ()
    above: float | None = None

    def holds(self, rules: Mapping[str, Any]) -> bool:
        value = rules[self.key]
        return value > self.above if self.above is not None else value in self.values

    def __str__(self) -> str:
        if self.above is not None:
            return f"{self.key}>{_show(self.above)}"
        return f"{self.key}=" + "|".join(map(_show, self.values))


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


@dataclass(frozen=True)
class Param:
    """A named, bounded policy parameter. ``acts_when``: rule conditions (all of them)
    without which it changes nothing the policy does (:class:`Acts`); empty: it acts
    under every rule set."""

    name: str
    default: float
    lo: float
    hi: float
    doc: str
    integer: bool = False
    acts_when: tuple[Acts, ...] = ()

    def idle_under(self, rules: Mapping[str, Any]) -> str | None:
        """None if the parameter acts under ``rules``; otherwise why not, e.g.
        ``"acts only with auction_form=sealed (here auction_form=open)"``."""
        failed = [c for c in self.acts_when if not c.holds(rules)]
        if not failed:
            return None
        need = " and ".join(map(str, self.acts_when))
        here = ", ".join(f"{c.key}={_show(rules[c.key])}" for c in failed)
        return f"acts only with {need} (here {here})"

    def parse(self, text: str | float, policy: str) -> float:
        try:
            value = float(text)
        except (TypeError, ValueError):
            raise StrategyError(f"policy {policy!r} parameter {self.name}={text!r}: "
                                f"expected a number in {self.lo:g}..{self.hi:g}") from None
        if self.integer and not value.is_integer():
            raise StrategyError(f"policy {policy!r} parameter {self.name}={text!r}: "
                                f"expected a whole number in {self.lo:g}..{self.hi:g}")
        if not (math.isfinite(value) and self.lo <= value <= self.hi):
            raise StrategyError(f"policy {policy!r} parameter {self.name}={text!r} is out of "
                                f"range: allowed {self.lo:g}..{self.hi:g} ({self.doc})")
        return value


@dataclass(frozen=True)
class Policy:
    """One way to make one kind of decision; ``pid`` is its id inside the kernel."""

    name: str
    decision: str
    pid: int
    doc: str
    params: tuple[Param, ...] = ()
    playout: str = ""
    """A search policy: the policy its playouts use (pitch's and vybory's ``pimc``:
    ``greedy``). It must beat that policy; the report checks where its field has both."""

    def defaults(self) -> tuple[float, ...]:
        return tuple(p.default for p in self.params)

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.params) or "none"
        raise StrategyError(f"policy {self.name!r} has no parameter {name!r}; its parameters: {known}")


@dataclass(frozen=True)
class Strategy:
    """One policy (with parameter values) per decision kind of a game."""

    choices: tuple[tuple[Policy, tuple[float, ...]], ...]

    @property
    def label(self) -> str:
        """Canonical text: policy names joined by ``+``, then non-default parameters."""
        names = "+".join(p.name for p, _ in self.choices)
        changed = [f"{prm.name}={_fmt(v)}" for p, values in self.choices
                   for prm, v in zip(p.params, values) if v != prm.default]
        return names + (":" + ",".join(changed) if changed else "")

    def policy(self, decision: str) -> tuple[Policy, tuple[float, ...]]:
        for p, values in self.choices:
            if p.decision == decision:
                return p, values
        raise KeyError(decision)

    def to_json(self) -> dict:
        return {p.decision: {"policy": p.name, "params": {prm.name: v for prm, v in zip(p.params, values)}}
                for p, values in self.choices}


_PLUS = re.compile(r"\+(?=\s*[A-Za-z_]|\s*$)")
"""The '+' between policy names (not the sign of a parameter value, ``a=+1.5``); a
trailing '+' splits off an empty name, which is an error."""


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


@dataclass(frozen=True)
class GameStrategies:
    """The policies a game offers, in kernel id order per decision kind."""

    game: str
    decisions: tuple[str, ...]
    policies: tuple[Policy, ...]
    default: str
    bundles: dict[str, str] = field(default_factory=dict)

    def by_name(self, name: str, decision: str | None = None) -> Policy:
        """The policy called ``name`` (for ``decision``, where two decision kinds have a
        policy of that name, e.g. a random bid and a random card)."""
        for p in self.policies:
            if p.name == name and (decision is None or p.decision == decision):
                return p
        names = ", ".join(dict.fromkeys([p.name for p in self.policies] + list(self.bundles)))
        raise StrategyError(f"unknown {self.game} policy {name!r}; known: {names} "
                            f"(see `bidlab policies {self.game}`)")

    def _resolve(self, names: list[str], text: str) -> list[Policy]:
        """One policy per name. A name that several decision kinds share goes to the
        first of those kinds (in ``decisions`` order) that no other name in the
        strategy takes: ``random+random`` is a random bid and a random card,
        ``strength+random`` a random card."""
        found = [[p for p in self.policies if p.name == name] for name in names]
        for name, options in zip(names, found):
            if not options:
                self.by_name(name)  # raises, listing the known names
        chosen: list[Policy | None] = [o[0] if len(o) == 1 else None for o in found]
        taken = {p.decision for p in chosen if p is not None}
        for i, options in enumerate(found):
            if chosen[i] is None:
                free = sorted((p for p in options if p.decision not in taken),
                              key=lambda p: self.decisions.index(p.decision))
                if not free:
                    raise StrategyError(f"strategy {text!r} names two policies for the same "
                                        f"decision")
                chosen[i] = free[0]
                taken.add(free[0].decision)
        return [p for p in chosen if p is not None]

    def parse(self, text: str) -> Strategy:
        """``NAME[+NAME...][:param=value,...]`` -> Strategy; one policy per decision kind.

        Parameters may also follow the policy they belong to:
        ``strength:aggression=1.4+pimc:samples=8`` is
        ``strength+pimc:strength.aggression=1.4,pimc.samples=8``. The parameters after
        the last name may name any policy of the strategy (``POLICY.param`` where two
        have one of that name), as in the trailing form; those after another name are
        that policy's own."""
        form = "write NAME[+NAME...][:param=value,...] or NAME:param=value+NAME:param=value"
        pieces = _PLUS.split(text.strip())
        names = [piece.partition(":")[0] for piece in pieces]
        if any("=" in name for name in names):
            raise StrategyError(f"strategy {text!r}: {form} (a policy name holds no '='; "
                                f"SEAT=NAME is for --strategy of simulate, trace, compare and "
                                f"bid-ev; see `bidlab policies {self.game}`)")
        joined = "+".join(n.strip() for n in names)
        if joined in self.bundles and not any(":" in piece for piece in pieces[:-1]):
            names = self.bundles[joined].split("+")   # a bundle: its policies, in order
            scoped: list[tuple[int, str]] = []
        else:
            scoped = [(i, piece.partition(":")[2]) for i, piece in enumerate(pieces[:-1])]
            # a bundle named inside a list of names: its policies, in its place
            expanded: list[str] = []
            owner_of: dict[int, list[int]] = {}
            for i, name in enumerate(names):
                parts = self.bundles[name.strip()].split("+") if name.strip() in self.bundles \
                    and len(names) > 1 else [name]
                owner_of[i] = list(range(len(expanded), len(expanded) + len(parts)))
                expanded += parts
            names = expanded
        args = pieces[-1].partition(":")[2]
        if not all(n.strip() for n in names):
            raise StrategyError(f"strategy {text!r}: a policy name is missing; {form}, e.g. "
                                f"{self.default} (see `bidlab policies {self.game}`)")
        chosen = self._resolve([n.strip() for n in names], text)
        by_decision = {p.decision: p for p in chosen}
        if len(by_decision) != len(chosen):
            raise StrategyError(f"strategy {text!r} names two policies for the same decision")
        for d in self.decisions:
            if d not in by_decision:
                by_decision[d] = self.by_name(self._default_for(d), d)
        values = {d: list(p.defaults()) for d, p in by_decision.items()}
        for i, piece_args in scoped:
            own = [chosen[k] for k in owner_of[i]]
            for item in filter(None, (a.strip() for a in piece_args.split(","))):
                self._set(values, item, self._owner(item.partition("=")[0].strip(), own, text,
                                                    scoped=True), text)
        for item in filter(None, (a.strip() for a in args.split(","))):
            self._set(values, item, self._owner(item.partition("=")[0].strip(),
                                                list(by_decision.values()), text), text)
        return Strategy(tuple((by_decision[d], tuple(values[d]))
                              for d in self.decisions))

    @staticmethod
    def _set(values: dict[str, list[float]], item: str, owner: Policy, text: str) -> None:
        """Set ``name=value`` (``item``) of policy ``owner`` in ``values``."""
        key, sep, val = item.partition("=")
        param = key.strip().split(".")[-1]
        prm = owner.param(param)
        if not sep:
            raise StrategyError(f"strategy {text!r}: parameter {item!r} has no value; write "
                                f"name=value, e.g. {key.strip()}={_fmt(prm.default)} "
                                f"(allowed {prm.lo:g}..{prm.hi:g})")
        i = [p.name for p in owner.params].index(param)
        values[owner.decision][i] = owner.params[i].parse(val, owner.name)

    def _default_for(self, decision: str) -> str:
        default = self.bundles.get(self.default, self.default)
        for name in default.split("+"):
            if any(p.name == name and p.decision == decision for p in self.policies):
                return name
        raise StrategyError(f"no default {decision} policy for {self.game}")

    @staticmethod
    def _owner(key: str, chosen: list[Policy], text: str, scoped: bool = False) -> Policy:
        """The policy of ``chosen`` with the parameter ``key`` (``[POLICY.]name``);
        ``scoped``: ``chosen`` are the policies one ``NAME:params`` piece names."""
        policy_name, _, param = key.rpartition(".")
        owners = [p for p in chosen if (not policy_name or p.name == policy_name)
                  and any(q.name == param for q in p.params)]
        if len(owners) == 1:
            return owners[0]
        if not owners and scoped:
            names = " and ".join(repr(p.name) for p in chosen)
            known = ", ".join(q.name for p in chosen for q in p.params) or "none"
            raise StrategyError(f"strategy {text!r}: policy {names} has no parameter {key!r}; "
                                f"its parameters: {known}")
        if not owners:
            known = ", ".join(f"{p.name}.{q.name}" for p in chosen for q in p.params) or "none"
            raise StrategyError(f"strategy {text!r}: no policy in it has a parameter {key!r}; "
                                f"parameters: {known}")
        raise StrategyError(f"strategy {text!r}: parameter {key!r} is ambiguous; write "
                            f"POLICY.{param}")


@dataclass(frozen=True)
class SeatAssignment:
    """Strategies per seat, packed for a kernel: per decision kind an id vector and a
    parameter matrix (seats x longest parameter list)."""

    strategies: tuple[Strategy, ...]
    solution: np.ndarray | None = None
    """The table the seats that play ``solved`` read (``strategies/solved.py``), or None."""

    def plays(self, policy: str) -> bool:
        """Whether some seat plays the policy called ``policy``."""
        return any(p.name == policy for s in self.strategies for p, _ in s.choices)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(s.label for s in self.strategies)

    def ids(self, decision: str) -> np.ndarray:
        return np.array([s.policy(decision)[0].pid for s in self.strategies], dtype=np.int64)

    def params(self, decision: str) -> np.ndarray:
        rows = [s.policy(decision)[1] for s in self.strategies]
        out = np.zeros((len(rows), max(1, max(map(len, rows)))), dtype=np.float64)
        for i, r in enumerate(rows):
            out[i, :len(r)] = r
        return out

    def to_json(self) -> list[dict]:
        return [{"seat": i, "label": s.label, **s.to_json()} for i, s in enumerate(self.strategies)]


def assign_seats(game: GameStrategies, n_seats: int, specs: list[str] | str | None
                 ) -> SeatAssignment:
    """Parse ``SEAT=STRATEGY`` items (``SEAT``: a seat, a list of seats ``0,2`` or
    ``all``; later items win over earlier ones); seats nobody names get the game's
    default strategy. A single string is one item."""
    if isinstance(specs, str):
        specs = [specs]
    seats: list[Strategy | None] = [None] * n_seats
    allowed = f"seats are 0..{n_seats - 1} or 'all'"
    for item in specs or []:
        if not isinstance(item, str):
            raise StrategyError(f"--strategy {item!r}: write SEAT=NAME as text, e.g. "
                                f"'0={game.default}'")
        where, sep, spec = item.partition("=")
        if not sep:
            raise StrategyError(f"--strategy {item!r}: write SEAT=NAME, e.g. 0={game.default}, "
                                f"0,2={game.default} or all={game.default}")
        where = where.strip().lower()
        if not where:
            raise StrategyError(f"--strategy {item!r}: no seat before '='; write SEAT=NAME with "
                                f"SEAT 0..{n_seats - 1}, a list such as 0,2, or 'all', e.g. "
                                f"all={game.default}")
        listed = [w.strip() for w in where.split(",")]
        if "all" in listed and len(listed) > 1:
            raise StrategyError(f"--strategy {item!r}: 'all' already names every seat; write "
                                f"all=NAME or a list of seats such as 0,2=NAME")
        chosen: list[int] = []
        for seat in listed:
            if not seat:
                raise StrategyError(f"--strategy {item!r}: an empty seat in {where!r}; write "
                                    f"seats separated by commas, e.g. 0,2={game.default} "
                                    f"({allowed})")
            if seat != "all" and not (seat.isdigit() and int(seat) < n_seats):
                raise StrategyError(f"--strategy {item!r}: seat {seat!r} does not exist; "
                                    f"{allowed}")
            if seat != "all" and int(seat) in chosen:
                raise StrategyError(f"--strategy {item!r}: seat {int(seat)} is named twice in "
                                    f"{where!r}; name each seat once ({allowed})")
            if seat != "all":
                chosen.append(int(seat))
        if not spec.strip():
            raise StrategyError(f"--strategy {item!r}: no strategy after '='; write SEAT=NAME, "
                                f"e.g. {where}={game.default} (see `bidlab policies {game.game}`)")
        strategy = game.parse(spec)
        for seat in (range(n_seats) if listed == ["all"] else chosen):
            seats[seat] = strategy
    default = game.parse(game.default)
    return SeatAssignment(tuple(s or default for s in seats))
