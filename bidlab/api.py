"""The Python API; every CLI command is a thin layer over a function here."""

from __future__ import annotations

from typing import Any

import pandas as pd

import strategies as strategies_
from analysis.bidev import BidEV, bid_ev
from analysis.compare import Comparison, compare
from analysis.optimize import Optimization, optimize
from analysis.runs import Simulation, simulate, trace
from analysis.spec import make_rules, seat_strategies
from analysis.tournament import Tournament, tournament
from sim.games import all_games, get_game

__all__ = ["games", "rule_keys", "policies", "simulate", "trace", "bid_ev", "optimize",
           "compare", "tournament", "make_rules", "seat_strategies", "Simulation", "BidEV",
           "Optimization", "Comparison", "Tournament"]


def games() -> dict[str, str]:
    """Game name -> one-line description."""
    return {name: g.title for name, g in all_games().items()}


def rule_keys(game: str) -> pd.DataFrame:
    """The rule keys (house variants) of ``game``: key, default, allowed, rule, meaning."""
    g = get_game(game)
    defaults = g.make_rules({})
    return pd.DataFrame([{"key": k.name, "default": _show(defaults[k.name]),
                          "allowed": k.describe_range(defaults), "rule": k.rule, "meaning": k.doc}
                         for k in g.rule_keys])


def policies(game: str) -> pd.DataFrame:
    """The policies of ``game`` with their parameters (default, bounds, meaning)."""
    gs = strategies_.for_game(game)
    default = {(p.decision, p.name) for p, _ in gs.parse(gs.default).choices}
    rows = []
    for p in gs.policies:
        mark = " [default]" if (p.decision, p.name) in default else ""
        rows.append({"decision": p.decision, "policy": p.name, "param": "", "default": "",
                     "range": "", "meaning": p.doc + mark})
        for prm in p.params:
            rows.append({"decision": "", "policy": "", "param": prm.name,
                         "default": _show(prm.default),
                         "range": f"{_show(prm.lo)}..{_show(prm.hi)}" + (" int" if prm.integer else ""),
                         "meaning": prm.doc + (f" (acts only with "
                                               f"{' and '.join(map(str, prm.acts_when))})"
                                               if prm.acts_when else "")})
    for name, spec in gs.bundles.items():  # named strategies: one policy per decision
        rows.append({"decision": "bundle", "policy": name, "param": "", "default": "",
                     "range": "", "meaning": f"= {spec}" + (" [default]" if name == gs.default
                                                           else "")})
    return pd.DataFrame(rows)


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, tuple):
        return ",".join(map(str, v))
    return str(v)
