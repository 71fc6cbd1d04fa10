"""Python side of the vybory kernel: allocate, call, check errors, shape tables."""

from __future__ import annotations

import numpy as np

from sim import harness as H
from sim.cards import format_card
from sim.errors import BidlabError
from sim.game import Columns, Policies, Tables
from sim.games.vybory import core as C
from sim.games.vybory import kernel as K
from sim.games.vybory.rules import HAND, MAX_CALLS, N_TYPES, PLAYERS, pack
from sim.rules import Rules


def check_policies(policies: Policies) -> None:
    H.check_policies("vybory", policies, ("elect", "play"), PLAYERS)


def explain(e: H.KernelError, label: str) -> str:
    where = f"match {e.index}, deal {e.deal}, seat {e.seat}"
    if e.code == H.ILLEGAL:
        allowed = ", ".join(str(t) for t in range(1, N_TYPES + 1) if e.lo >> t & 1)
        return (f"{where}, announcement {e.step + 1}: elect policy of {label!r} named "
                f"type {e.value}, which is illegal; legal: the types it has not named yet, "
                f"{allowed} (rule V2)")
    cards = " ".join(format_card(c) for c in range(52) if e.lo >> c & 1)
    shown = format_card(e.value) if 0 <= e.value < 52 else str(e.value)
    return (f"{where}, trick {e.step + 1}: play policy of {label!r} played {shown}, which is "
            f"illegal; legal: {cards} (rule V7)")


def dealt(rules: Rules, seed: int, start: int, count: int) -> np.ndarray:
    """The hands of tours ``start ..`` as dealt: one row per tour, per deal the four
    hands as card masks (the layout ``deals=`` takes, ``deals_per_match x 4``)."""
    d = rules.deals_per_match
    out = np.zeros((count, d, PLAYERS), np.int64)
    K.deal_tours(np.uint64(seed), start, d, out)
    return out.reshape(count, d * PLAYERS)


def hidden_deals(rules: Rules, seed: int, index: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Tour ``index`` as dealt, and the same tour with the last deal's hands of the
    other seats moved round among them (each gets the next one's hand): what ``seat``
    sees before the last deal's play is the same in both, its own cards included
    (``deals=`` rows). Later play shows every card, so only the last deal changes and
    only the calls (``view_columns``) are compared."""
    same = dealt(rules, seed, index, 1)
    other = same.copy()
    last = (rules.deals_per_match - 1) * PLAYERS
    others = [s for s in range(PLAYERS) if s != seat]
    for a, b in zip(others, others[1:] + others[:1]):
        other[0, last + a] = same[0, last + b]
    return same, other


def _checked_deals(rules: Rules, deals: np.ndarray | None, count: int) -> np.ndarray:
    """``deals`` as the kernel takes it (``count x deals x 4`` masks; none: shape 0),
    every deal checked: four hands of 13 cards that make one deck."""
    d = rules.deals_per_match
    rows = H.deck_rows("vybory", deals, count, d * PLAYERS,
                       f"{PLAYERS} hands per deal, {d} deals", unit="hand masks")
    hands = rows.reshape(-1, d, PLAYERS)
    for m, tour in enumerate(hands):
        for k, four in enumerate(tour):
            union = 0
            for h in four.tolist():
                if h < 0 or h >> 52 or bin(h).count("1") != HAND or union & h:
                    raise BidlabError(f"vybory deals, row {m}, deal {k}: not four hands of "
                                      f"{HAND} different cards that make one 52-card deck")
                union |= h
    return np.ascontiguousarray(hands)


def _arrays(count: int, rows: int) -> dict[str, np.ndarray]:
    return dict(seat_out=np.zeros((count, PLAYERS, K.SEAT_COLS), np.int32),
                win=np.zeros((count, PLAYERS), np.float64),
                deal_out=np.zeros((rows, K.DEAL_COLS), np.int32),
                deal_seat=np.zeros((rows, PLAYERS, K.DS_COLS), np.int32),
                err=H.new_errors(count))


def policy_arrays(policies: Policies):
    """(elect ids, elect parameters, the solution table, play ids, play parameters) as
    the kernels take them."""
    elect_ids, elect_params, play_ids, play_params = H.policy_arrays(policies, ("elect", "play"))
    return elect_ids, elect_params, H.solution_table(policies), play_ids, play_params


def run_chunk(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
              start: int, count: int, detail: bool = False,
              deals: np.ndarray | None = None) -> Tables:
    """Play tours ``start .. start + count - 1``; tables ``seats`` (+ ``deals`` and
    ``deal_seats``). ``deals``: the hands to play instead of dealing them (``dealt``)."""
    check_policies(policies)
    fixed = _checked_deals(rules, deals, count)
    n_deals = rules.deals_per_match
    a = _arrays(count, count * n_deals if detail else 0)
    K.play_chunk(np.uint64(seed), start, count, H.blocks(count), pack(rules),
                 *policy_arrays(policies), fixed, a["seat_out"], a["win"], detail,
                 a["deal_out"], a["deal_seat"], a["err"])
    H.check(a["err"], start, explain, labels)
    so = a["seat_out"]

    def col(c, dtype=np.int16):
        return so[:, :, c].ravel().astype(dtype)

    seats = {**H.match_seat(start, count, PLAYERS),
             "score": col(K.S_SCORE, np.int32), "win": a["win"].ravel(),
             "points": col(K.S_POINTS, np.int32), "tricks": col(K.S_TRICKS),
             "attacks": col(K.S_ATTACKS), "attack_wins": col(K.S_ATTACK_WINS),
             "first_announcer": col(K.S_FIRSTS), "deal_wins": col(K.S_DEAL_WINS),
             "deal_draws": col(K.S_DEAL_DRAWS),
             **{f"named_{t}": col(K.S_NAMED + t - 1, np.int8) for t in range(1, N_TYPES + 1)}}
    tables = {"seats": seats}
    if detail:
        hands = fixed if len(fixed) else dealt(rules, seed, start, count)
        tables.update(_deal_tables(rules, a, start, count, hands))
    return tables


def _deal_tables(rules: Rules, a: dict, start: int, count: int,
                 hands: np.ndarray) -> dict[str, Columns]:
    """``deals``: one row per tour and deal; ``deal_seats``: one per tour, deal and seat
    (``hand``: the cards dealt, a mask)."""
    n_deals = rules.deals_per_match
    names = np.array(C.NAMES[C.TYPE_SETS.index(rules.type_set)])
    do, ds = a["deal_out"], a["deal_seat"]
    match = np.repeat(np.arange(start, start + count, dtype=np.int64), n_deals)
    deal = np.tile(np.arange(n_deals, dtype=np.int16), count)
    first, second = do[:, K.D_FIRST], do[:, K.D_SECOND]
    deals = {"match": match, "deal": deal, "dealer": do[:, K.D_DEALER].astype(np.int8),
             "contract": names[do[:, K.D_CONTRACT] - 1],
             "contract_code": do[:, K.D_CONTRACT].astype(np.int8),
             "first_announcer": first.astype(np.int8), "partner": second.astype(np.int8),
             "calls": do[:, K.D_CALLS].astype(np.int8),
             "attack_tricks": do[:, K.D_ATTACK_TRICKS].astype(np.int8),
             "attack_points": do[:, K.D_ATTACK_POINTS].astype(np.int16),
             "defence_points": do[:, K.D_DEFEND_POINTS].astype(np.int16),
             "result": do[:, K.D_RESULT].astype(np.int8)}
    seat = np.tile(np.arange(PLAYERS, dtype=np.int8), len(match))
    attacker = (seat == np.repeat(first, PLAYERS)) | (seat == np.repeat(second, PLAYERS))
    per_seat = {"match": np.repeat(match, PLAYERS), "deal": np.repeat(deal, PLAYERS),
                "seat": seat, "attacker": attacker}
    for r in range(3):
        named = ds[:, :, K.DS_NAMED + r].ravel()
        per_seat[f"named_{r + 1}"] = np.ma.array(named.astype(np.int8), mask=named == 0,
                                                 fill_value=-1)
    per_seat.update({"tricks": ds[:, :, K.DS_TRICKS].ravel().astype(np.int8),
                     "points": ds[:, :, K.DS_POINTS].ravel().astype(np.int16),
                     "deal_score": ds[:, :, K.DS_SCORE].ravel().astype(np.int16),
                     "score_after": ds[:, :, K.DS_AFTER].ravel().astype(np.int32),
                     "hand": hands.ravel()})
    return {"deals": deals, "deal_seats": per_seat}


def play_one(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int, index: int,
             deals: np.ndarray | None = None):
    """Tour ``index`` with everything recorded: (arrays, logs). ``arrays`` holds the
    kernel's outputs for one tour (``deal_out``/``deal_seat`` one row per deal); ``logs``:
    ``hands`` (deals x seats masks), ``calls`` (deals x 9 types, 0 after the last),
    ``cards`` (deals x 52, play order), ``tricks`` (deals x 13 winners)."""
    check_policies(policies)
    fixed = _checked_deals(rules, deals, 1)
    given = fixed[0] if len(fixed) else np.empty((0, PLAYERS), np.int64)
    n_deals = rules.deals_per_match
    arrays = policy_arrays(policies)
    scratch = K.new_scratch(max(arrays[1].shape[1], arrays[4].shape[1]))
    a = _arrays(1, n_deals)
    logs = dict(hands=np.zeros((n_deals, PLAYERS), np.int64),
                calls=np.zeros((n_deals, MAX_CALLS), np.int64),
                cards=np.full((n_deals, 52), -1, np.int64),
                tricks=np.full((n_deals, 13), -1, np.int64))
    K.play_match(np.uint64(seed), index, pack(rules), *arrays, 0, given, *scratch,
                 a["seat_out"], a["win"], True, a["deal_out"], a["deal_seat"], a["err"],
                 logs["hands"], logs["calls"], logs["cards"], logs["tricks"])
    H.check(a["err"], index, explain, labels)
    return a, logs
