"""What every plain-Python reference engine shares (``sim/games/<game>/reference.py``).

A game's reference engine is its slow path: the same matches as its numba kernel --
same random streams (``sim/pyrng.py``), same policies, same observations -- played
with nothing but Python ints, floats and lists, so that a test can assert
``reference.play(...) == GAME.trace(...)``, a user can prototype a policy as a plain
Python function before writing it for numba, and the benchmark has a plain-Python
baseline. The game's module keeps only its rules: a :class:`ReferenceMatch` subclass
and the ports of its policies. This module holds the rest, once:

- :class:`PythonPolicy`, a policy written in plain Python. It is slow (the kernel is
  some 50 to hundreds of times faster) and labelled so: its label always starts with
  ``python:``, in traces and in error messages;
- :func:`seats_from`, which turns what a caller gives (a ``SeatAssignment``, strategy
  texts, ``Strategy`` objects, :class:`PythonPolicy` objects, functions, ``(function,
  params)`` pairs, or a tuple of parts for one seat) into one :class:`Seat` per player,
  with the same rules and the same error messages in every game;
- :func:`play` (one match -> its trace) and :func:`play_many` (matches without traces,
  the benchmark's baseline), given the game's match class; :func:`entry_points` binds
  the two to it, as a game's ``reference.play`` and ``reference.play_many``.

What a seat may be (:func:`seats_from`), per seat:

- a strategy text (``"budget"``, ``"strength+pimc:samples=8"``) or a ``Strategy``:
  the game's ported policies, one per decision kind;
- a :class:`PythonPolicy`: it answers its decision kind; the seat's other decision
  kinds play the game's default strategy;
- a function, or a ``(function, params)`` pair: a :class:`PythonPolicy` (only in a
  game with one decision kind: elsewhere say which with ``PythonPolicy(func,
  decision=...)``);
- a tuple of parts: at most one strategy (text or ``Strategy``), and Python policies
  (at most one per decision kind) that replace its policies for their decision kinds,
  whatever their order: ``("strength+random", PythonPolicy(f, decision="play"))``.

A list gives one of those per seat; a single spec (a tuple included) is the same for
every seat. Whatever is none of these is a :class:`StrategyError` that names the seat
and says what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sim.errors import StrategyError
from sim.harness import trace_header
from sim.pyrng import DEAL_STREAM, Stream
from sim.rules import Rules

PYTHON = "python:"
"""How the label of every :class:`PythonPolicy` starts: the slow path says so."""


@dataclass(frozen=True)
class PythonPolicy:
    """A policy written in plain Python: the slow path, for prototyping and tests.

    ``func`` is called with what the seat is shown (copies: changing them changes
    nothing; the game's reference module documents their layout and the answer it
    wants), then ``params`` (a tuple of floats) and the seat's random stream ``rng``
    (``below(n)``, ``uniform()``, as ``sim/pyrng.py``). ``decision`` is the decision
    kind it answers (``"bid"``, ``"play"``); it may be left out in a game with only one.
    ``name`` labels it in traces and errors; the label is ``python:<name>`` (default
    ``python:<function name>``), so a trace always shows which seats took the slow path.
    Only the reference engines play it, never the kernels.
    """

    func: Callable[..., Any]
    params: tuple[float, ...] = ()
    name: str = ""
    decision: str = ""

    def __post_init__(self) -> None:
        if not callable(self.func):
            raise StrategyError(f"PythonPolicy needs a function, not {self.func!r}")
        if isinstance(self.params, str):
            raise StrategyError(f"PythonPolicy {self.label!r}: params {self.params!r} is text, "
                                f"not numbers; the decision kind goes by name: "
                                f"PythonPolicy(func, decision={self.params!r})")
        try:
            params = tuple(float(x) for x in self.params)
        except (TypeError, ValueError):
            raise StrategyError(f"PythonPolicy {self.label!r}: params must be numbers, not "
                                f"{self.params!r}") from None
        object.__setattr__(self, "params", params)

    @property
    def label(self) -> str:
        name = self.name or getattr(self.func, "__name__", "policy")
        return name if name.startswith(PYTHON) else PYTHON + name


@dataclass(frozen=True)
class SeatPolicy:
    """What a seat plays for one decision kind: a ported policy of the game (``python``
    false: asked with the engine's own lists) or a :class:`PythonPolicy` (``python``
    true: asked with copies)."""

    decision: str
    name: str                  # the ported policy's name, or the PythonPolicy's label
    func: Callable[..., Any]
    params: tuple[float, ...]
    python: bool


@dataclass(frozen=True)
class Seat:
    """One player's policies, one per decision kind (in the game's order)."""

    label: str
    policies: tuple[SeatPolicy, ...]

    def __getitem__(self, decision: str) -> SeatPolicy:
        for p in self.policies:
            if p.decision == decision:
                return p
        raise KeyError(decision)


@dataclass(frozen=True)
class Ports:
    """What a game's reference engine tells the shared plumbing: the game, how to make
    its rules, its plain-Python ports (per decision kind: policy name -> function) and,
    for messages, how a :class:`PythonPolicy` is called there."""

    game: str
    make_rules: Callable[[Mapping[str, Any] | None], Rules]
    policies: Mapping[str, Mapping[str, Callable[..., Any]]]
    call: str

    def rules(self, rules: Rules | Mapping[str, Any] | None) -> Rules:
        return rules if isinstance(rules, Rules) else self.make_rules(rules)


# -- seats ------------------------------------------------------------------------------

def seats_from(ports: Ports, strategies: Any, n: int) -> list[Seat]:
    """One :class:`Seat` per player from a ``SeatAssignment``, a list of per-seat specs,
    or one spec for every seat (see the module docstring for what a spec may be)."""
    from strategies.base import SeatAssignment

    if isinstance(strategies, SeatAssignment):
        specs = list(strategies.strategies)
    elif isinstance(strategies, list):
        specs = strategies
    else:
        specs = [strategies] * n
    if len(specs) != n:
        raise StrategyError(f"{len(specs)} strategies for {n} seats: give one per seat")
    return [seat(ports, spec, s) for s, spec in enumerate(specs)]


def seat(ports: Ports, spec: Any, s: int = 0) -> Seat:
    """Seat ``s`` from one spec; a :class:`StrategyError` names the seat."""
    if isinstance(spec, Seat):
        return spec
    try:
        return _seat(ports, spec)
    except StrategyError as e:
        raise StrategyError(f"seat {s}: {e}") from None


def _is_pair(spec: Any) -> bool:
    """A ``(function, params)`` pair (not a tuple of parts)."""
    return (isinstance(spec, tuple) and len(spec) == 2 and callable(spec[0])
            and not callable(spec[1]) and not isinstance(spec[1], (str, PythonPolicy)))


def _seat(ports: Ports, spec: Any) -> Seat:
    import strategies
    from strategies.base import Strategy

    game = strategies.for_game(ports.game)
    decisions = game.decisions
    parts = spec if isinstance(spec, tuple) and not _is_pair(spec) else (spec,)
    base: Strategy | None = None
    python: dict[str, PythonPolicy] = {}
    for part in parts:
        if isinstance(part, str):
            part = game.parse(part)
        elif _is_pair(part):
            part = PythonPolicy(part[0], part[1])
        elif callable(part):
            part = PythonPolicy(part)
        if isinstance(part, Strategy):
            if base is not None:
                raise StrategyError(f"{spec!r} names two strategies ({base.label!r}, "
                                    f"{part.label!r}) for one seat; a tuple is one seat's "
                                    f"parts (give a list for one strategy per seat)")
            base = part
        elif isinstance(part, PythonPolicy):
            d = _decision(part, game.game, decisions)
            if d in python:
                raise StrategyError(f"two Python policies ({python[d].label!r}, "
                                    f"{part.label!r}) answer the {d} decision")
            python[d] = part
        else:
            raise StrategyError(_cannot_use(part, ports, game.default, decisions))
    if base is None:
        base = game.parse(game.default)
    chosen = []
    for d in decisions:
        if d in python:
            p = python[d]
            chosen.append(SeatPolicy(d, p.label, p.func, p.params, True))
            continue
        policy, values = base.policy(d)
        port = ports.policies.get(d, {}).get(policy.name)
        if port is None:
            raise StrategyError(f"the reference engine has no port of the {game.game} {d} "
                                f"policy {policy.name!r}; it has "
                                f"{', '.join(ports.policies.get(d, {})) or 'none'}, or give a "
                                f"PythonPolicy")
        chosen.append(SeatPolicy(d, policy.name, port, tuple(float(v) for v in values), False))
    return Seat(base.label if not python else _label(base, chosen), tuple(chosen))


def _decision(p: PythonPolicy, game: str, decisions: tuple[str, ...]) -> str:
    if not p.decision and len(decisions) == 1:
        return decisions[0]
    if p.decision in decisions:
        return p.decision
    kinds = ", ".join(decisions)
    if not p.decision:
        raise StrategyError(f"Python policy {p.label!r} does not say which decision it answers "
                            f"({game} has {kinds}): write PythonPolicy(func, "
                            f"decision={_either(decisions)})")
    raise StrategyError(f"Python policy {p.label!r} answers the decision {p.decision!r}, which "
                        f"{game} does not have; its decisions: {kinds}")


def _either(decisions: tuple[str, ...]) -> str:
    return " or ".join(repr(d) for d in decisions)


def _cannot_use(part: Any, ports: Ports, default: str, decisions: tuple[str, ...]) -> str:
    how = (f"PythonPolicy(func, params, decision={_either(decisions)})" if len(decisions) > 1 else
           "PythonPolicy(func, params), a function or a (function, params) pair")
    an = "an" if ports.game[0] in "aeiou" else "a"
    return (f"cannot use {part!r} as {an} {ports.game} strategy; allowed: a strategy text "
            f"such as {default!r}, a Strategy, {how} with func{ports.call.removeprefix('policy')}, "
            f"or a tuple of one strategy and Python policies that replace its decisions")


def _label(base: Any, chosen: list[SeatPolicy]) -> str:
    """A mixed seat's label, as ``Strategy.label`` writes one: the names per decision
    kind joined by ``+``, then the ported policies' parameters that differ from their
    defaults."""
    names = "+".join(p.name for p in chosen)
    changed = []
    for p in chosen:
        if not p.python:
            policy, _ = base.policy(p.decision)
            changed += [f"{prm.name}={_number(v)}" for prm, v in zip(policy.params, p.params)
                        if v != prm.default]
    return names + (":" + ",".join(changed) if changed else "")


def _number(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


# -- the match --------------------------------------------------------------------------

class ReferenceMatch:
    """The start of every reference match: its rules, seats and random streams (stream
    0 deals, stream ``1 + seat`` feeds that seat's policies), the deal records of its
    trace, and how a seat is asked. A game's subclass sets ``PORTS`` and ``FIGURES``
    (the columns of :func:`play_many`) and writes ``play()`` (the whole match; returns
    ``self``), ``result()`` (the trace's fields after ``deals``) and ``figures()``.

    ``strategies`` is anything :func:`seats_from` takes. With ``record`` the match keeps
    the JSON hand history (``deals``); without it, only the figures.
    """

    PORTS: ClassVar[Ports]
    FIGURES: ClassVar[tuple[str, ...]]
    CEILINGS: ClassVar[Mapping[str, Callable] | None] = None
    """An auction game's ceiling ports by policy name: a ceiling settles a lot without
    the seat being asked call by call (``self.ceilings``, per seat; ``None`` where a
    seat is asked for every call: a Python policy, or a port without a ceiling)."""

    @staticmethod
    def n_seats(rules: Rules) -> int:
        """The match's number of seats (a game with a fixed count overrides it)."""
        return rules.players

    def __init__(self, rules: Rules | Mapping[str, Any] | None, strategies: Any, seed: int,
                 index: int, record: bool = True):
        self.rules = rules = self.PORTS.rules(rules)
        self.n = n = self.n_seats(rules)
        self.seats = seats_from(self.PORTS, strategies, n)
        self.seed, self.index, self.record = seed, index, record
        self.deal_rng = Stream(seed, index, DEAL_STREAM)
        self.rngs = [Stream(seed, index, 1 + s) for s in range(n)]
        self.deals: list[dict] = []
        if self.CEILINGS is not None:
            self.bids = [s["bid"] for s in self.seats]
            self.ceilings = [None if p.python else self.CEILINGS.get(p.name) for p in self.bids]

    def ask(self, seat: int, decision: str, *shown: list) -> Any:
        """``seat``'s answer for ``decision``, shown ``shown`` (the engine's own lists for
        a ported policy, copies for a Python policy); unchecked."""
        p = self.seats[seat][decision]
        if p.python:
            shown = tuple(list(v) for v in shown)
        return p.func(*shown, p.params, self.rngs[seat])

    def ask_holding(self, seat: int, decision: str, o: list[int], hand: int, legal: int,
                    at: tuple[int, int, int]) -> Any:
        """``seat``'s answer, shown ``o`` with its number, own ``hand`` and ``legal``
        cards written at the offsets ``at`` (seat, hand, legal) for this question only,
        so the observation never keeps a seat's hidden cards."""
        o[at[0]], o[at[1]], o[at[2]] = seat, hand, legal
        answer = self.ask(seat, decision, o)
        o[at[1]] = o[at[2]] = 0
        return answer

    def play(self) -> ReferenceMatch:
        raise NotImplementedError

    def result(self) -> dict:
        raise NotImplementedError

    def figures(self) -> dict[str, Any]:
        raise NotImplementedError

    def trace(self, labels: Sequence[str] | None = None) -> dict:
        """The JSON hand history (``labels`` replace the seats' labels)."""
        labels = tuple(labels) if labels is not None else tuple(s.label for s in self.seats)
        return {**trace_header(self.PORTS.game, self.rules, self.seed, self.index, labels),
                "deals": self.deals, **self.result()}


def play(match: type[ReferenceMatch], rules: Rules | Mapping[str, Any] | None,
         strategies: Any, seed: int, index: int, labels: Sequence[str] | None = None,
         **options: Any) -> dict:
    """Play match ``index`` of the run with ``seed`` (``options`` go to ``match``) and
    return its trace, equal to the kernel's ``GAME.trace`` for the same strategies."""
    return match(rules, strategies, seed, index, **options).play().trace(labels)


def play_many(match: type[ReferenceMatch], rules: Rules | Mapping[str, Any] | None,
              strategies: Any, seed: int, start: int, count: int) -> dict[str, list]:
    """Play matches ``start .. start + count - 1`` without traces (the plain-Python
    baseline of the benchmark): per column of ``match.FIGURES``, one entry per match."""
    ports = match.PORTS
    rules = ports.rules(rules)
    seats = seats_from(ports, strategies, match.n_seats(rules))
    out: dict[str, list] = {k: [] for k in match.FIGURES}
    for index in range(start, start + count):
        figures = match(rules, seats, seed, index, record=False).play().figures()
        for k in match.FIGURES:
            out[k].append(figures[k])
    return out


def entry_points(match: type[ReferenceMatch]) -> tuple[Callable[..., dict], Callable[..., dict]]:
    """A game's ``reference.play`` and ``reference.play_many``: :func:`play` and
    :func:`play_many` bound to its match class ``match``."""
    game = match.PORTS.game

    def play_one(rules: Rules | Mapping[str, Any] | None, strategies: Any, seed: int,
                 index: int, labels: Sequence[str] | None = None, **options: Any) -> dict:
        return play(match, rules, strategies, seed, index, labels, **options)

    def play_count(rules: Rules | Mapping[str, Any] | None, strategies: Any, seed: int,
                   start: int, count: int) -> dict[str, list]:
        return play_many(match, rules, strategies, seed, start, count)

    play_one.__name__ = play_one.__qualname__ = "play"
    play_one.__doc__ = (
        f"Play {game} match ``index`` of the run with ``seed`` and return its trace, equal "
        f"to ``GAME.trace(rules, policies, labels, seed, index)`` for the same strategies "
        f"(anything ``sim.reference.seats_from`` takes: a ``SeatAssignment``, strategy "
        f"texts, ``Strategy`` or ``PythonPolicy`` objects, functions). ``labels`` replace "
        f"the strategy labels in the trace; ``options`` go to ``{match.__qualname__}``.")
    play_count.__name__ = play_count.__qualname__ = "play_many"
    play_count.__doc__ = (
        f"Play {game} matches ``start .. start + count - 1`` without traces (the "
        f"plain-Python baseline of the benchmark): per column of ``FIGURES``, one entry "
        f"per match.")
    return play_one, play_count
