"""Python side of the pitch kernel: allocate, call, check errors, shape tables."""

from __future__ import annotations

import numpy as np

from sim import harness as H
from sim.cards import format_card
from sim.errors import BidlabError
from sim.game import Columns, Policies, Tables
from sim.games.pitch import kernel as K
from sim.games.pitch import obs as O
from sim.games.pitch.rules import HAND, pack
from sim.rules import Rules

DEAL_ROWS = 32
"""Per-deal rows reserved per game on the first pass of a detailed run; a chunk with a
longer game is played again with exact room."""

NO_FIXED = np.full((0, 1), -1, dtype=np.int64)
"""One game's chosen hands when none are given (``play_match``'s ``fixed``)."""
NO_DEALS = NO_FIXED[None]
"""``play_chunk``'s chosen hands when none are given: one empty table for every game."""


def _check_policies(policies: Policies, n: int) -> None:
    H.check_policies("pitch", policies, ("bid", "play"), n)


def explain(e: H.KernelError, label: str) -> str:
    where = f"game {e.index}, deal {e.deal}, seat {e.seat}"
    if e.code == H.ILLEGAL:
        allowed = ["a pass (0)"]
        if e.lo <= 4:
            allowed.append(f"a bid of {e.lo}..4")
        if e.hi >= 0:
            allowed.append(f"a hold ({O.HOLD}) at {e.hi}")
        return (f"{where}: bid policy of {label!r} answered {e.value}, which is illegal; "
                f"legal: {', '.join(allowed)} (rules P2, P3)")
    cards = " ".join(format_card(c) for c in range(53) if e.lo >> c & 1)
    shown = format_card(e.value) if 0 <= e.value <= 52 else str(e.value)
    return (f"{where}, trick {e.step}: play policy of {label!r} played {shown}, which is "
            f"illegal; legal: {cards} (rule P7)")


def dealt(rules: Rules, seed: int, start: int, count: int) -> np.ndarray:
    """The hands of games ``start ..`` as dealt: one row per game, for each of the
    ``max_deals`` deals a game may have the hands of the seats in seat order, as card
    masks (the layout ``deals=`` takes; a game reads only the deals it plays)."""
    out = np.zeros((count, rules.max_deals, rules.players), np.int64)
    K.deal_games(np.uint64(seed), start, pack(rules), out)
    return out.reshape(count, -1)


def hidden_deals(rules: Rules, seed: int, index: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Game ``index`` as dealt, and the same game with every card of its first deal that
    ``seat`` does not hold moved (``deals=`` rows): the other seats' new hands are the
    undealt cards (the stock, never shown), then their own old cards, in turn, so that
    no card stays where it was. What ``seat`` sees before the first card is played,
    its own hand included, is the same in both. That card shows a changed hand, and
    from there on (the points, the scores, later deals' views) a game may go another
    way: the check plays one-deal games (``Game.view_rules``) and compares only the
    calls (``view_columns``)."""
    n = rules.players
    same = dealt(rules, seed, index, 1)
    other = same.copy()
    first = [int(h) for h in same[0, :n]]
    deck = 52 + int(rules.joker)
    held = 0
    for h in first:
        held |= h
    stock = [c for c in range(deck) if not held >> c & 1]
    others = [s for s in range(n) if s != seat]
    pool = stock + [c for s in others for c in range(deck) if first[s] >> c & 1]
    for k, s in enumerate(others):
        other[0, s] = sum(1 << c for c in pool[HAND * k:HAND * (k + 1)])
    return same, other


def _checked_deals(rules: Rules, deals: np.ndarray | None, count: int) -> np.ndarray:
    """``deals`` as ``play_chunk`` takes them (``count x deals x seats``; none:
    ``NO_DEALS``), every given hand checked: six cards of the deck, no card twice in
    a deal."""
    if deals is None:
        return NO_DEALS
    n = rules.players
    deals = np.asarray(deals)
    layout = (f"per deal {n} card masks, -1 for a hand dealt at random; at most "
              f"max_deals={rules.max_deals} deals")
    if (deals.ndim != 2 or deals.shape[0] != count or deals.shape[1] == 0
            or deals.shape[1] % n or deals.shape[1] > n * rules.max_deals):
        raise BidlabError(f"pitch deals: expected {count} rows (one per game) of card masks "
                          f"({layout}), got {deals.shape}")
    hands = np.ascontiguousarray(deals, dtype=np.int64).reshape(count, -1, n)
    given = hands >= 0
    mask = np.where(given, hands, 0)
    cards = np.unpackbits(mask[..., None].view(np.uint8), axis=-1).sum(axis=-1)
    union = np.bitwise_or.reduce(mask, axis=2)
    together = np.unpackbits(union[..., None].view(np.uint8), axis=-1).sum(axis=-1)
    deck = (1 << (52 + int(rules.joker))) - 1
    bad = (given & ((cards != HAND) | (mask & ~deck != 0))).any(axis=2) \
        | (together != HAND * given.sum(axis=2))
    if bad.any():
        m, d = (int(x) for x in np.argwhere(bad)[0])
        raise BidlabError(f"pitch deals, row {m}, deal {d}: not hands of {HAND} different "
                          f"cards of the {52 + int(rules.joker)}-card deck, no card twice")
    return hands


def _play(rules: Rules, policies: Policies, seed: int, start: int, count: int, detail: bool,
          doff: np.ndarray, fixed: np.ndarray):
    R = pack(rules)
    n = rules.players
    bid_ids, bid_params = policies["bid"]
    play_ids, play_params = policies["play"]
    rows = int(doff[-1]) if detail else 0
    a = dict(seat_out=np.zeros((count, n, K.SEAT_COLS), np.int32),
             win=np.zeros((count, n), np.float64),
             game_out=np.zeros((count, K.GAME_COLS), np.int32),
             deal_out=np.zeros((rows, K.DEAL_COLS), np.int32),
             deal_seat=np.zeros((rows, n, 2), np.int32),
             err=H.new_errors(count))
    K.play_chunk(np.uint64(seed), start, count, H.blocks(count), R,
                 np.ascontiguousarray(bid_ids, dtype=np.int64),
                 np.ascontiguousarray(bid_params, dtype=np.float64),
                 H.solution_table(policies), np.ascontiguousarray(play_ids, dtype=np.int64),
                 np.ascontiguousarray(play_params, dtype=np.float64), fixed,
                 a["seat_out"], a["win"], a["game_out"], detail, doff, a["deal_out"],
                 a["deal_seat"], a["err"])
    return a


def run_chunk(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
              start: int, count: int, detail: bool = False,
              deals: np.ndarray | None = None) -> Tables:
    """Play games ``start .. start + count - 1``; tables ``seats`` (+ ``deals``).

    ``deals`` (optional): chosen hands, one row per game (``dealt`` gives the layout:
    per deal a card mask, or -1, per seat); deals past the row are dealt; see
    ``kernel.py``.
    """
    n = rules.players
    _check_policies(policies, n)
    fx = _checked_deals(rules, deals, count)
    cap = min(rules.max_deals, DEAL_ROWS)
    doff = np.arange(count + 1, dtype=np.int64) * cap if detail else np.zeros(count + 1, np.int64)
    a = _play(rules, policies, seed, start, count, detail, doff, fx)
    H.check(a["err"], start, explain, labels)
    deals = a["game_out"][:, K.G_DEALS].astype(np.int64)
    if detail and deals.max(initial=0) > cap:        # a long game: play again with room
        doff = np.concatenate([[0], np.cumsum(deals)]).astype(np.int64)
        a = _play(rules, policies, seed, start, count, detail, doff, fx)
    match = np.arange(start, start + count, dtype=np.int64)
    so = a["seat_out"]
    seats = {
        **H.match_seat(start, count, n),
        "score": so[:, :, K.S_SCORE].ravel(), "win": a["win"].ravel(),
        "points": so[:, :, K.S_POINTS].ravel(),
        "deals": np.repeat(a["game_out"][:, K.G_DEALS], n),
        "redeals": np.repeat(a["game_out"][:, K.G_REDEALS], n),
        "pitched": so[:, :, K.S_PITCHED:K.S_PITCHED + 4].sum(axis=2, dtype=np.int32).ravel(),
        "made": so[:, :, K.S_MADE:K.S_MADE + 4].sum(axis=2, dtype=np.int32).ravel(),
        "sets": so[:, :, K.S_SETS].ravel(),
    }
    for b in range(4):
        seats[f"pitched_{b + 1}"] = so[:, :, K.S_PITCHED + b].astype(np.int16).ravel()
    for b in range(4):
        seats[f"made_{b + 1}"] = so[:, :, K.S_MADE + b].astype(np.int16).ravel()
    tables = {"seats": seats}
    if detail:
        tables["deals"] = _deal_table(a, doff, deals, match, n)
    return tables


def _deal_table(a: dict, doff: np.ndarray, deals: np.ndarray, match: np.ndarray,
                n: int) -> Columns:
    """One row per game, deal and seat."""
    rows = np.concatenate([np.arange(doff[m], doff[m] + deals[m]) for m in range(len(deals))]) \
        if len(deals) else np.zeros(0, np.int64)
    deal_no = np.concatenate([np.arange(k) for k in deals]) if len(deals) else rows
    do = a["deal_out"][rows]
    ds = a["deal_seat"][rows]
    k = len(rows)
    seat = np.tile(np.arange(n, dtype=np.int8), k)

    def per_deal(col, dtype=np.int8):
        return np.repeat(do[:, col], n).astype(dtype)

    pitcher = per_deal(K.D_PITCHER)
    redeal = pitcher < 0
    made = per_deal(K.D_MADE)
    out = {
        "match": np.repeat(match[np.repeat(np.arange(len(deals)), deals)], n),
        "deal": np.repeat(deal_no, n).astype(np.int32),
        "seat": seat,
        "dealer": per_deal(K.D_DEALER),
        "pitcher": H.nullable(pitcher),
        "contract": np.ma.array(per_deal(K.D_CONTRACT), mask=redeal, fill_value=-1),
        "made": np.ma.array(made == 1, mask=made < 0),
        "hold": per_deal(K.D_HOLD).astype(bool),
        "stuck": per_deal(K.D_STUCK).astype(bool),
        "trump": H.nullable(per_deal(K.D_TRUMP)),
    }
    for i, name in enumerate(("high", "low", "jack", "joker", "game")):
        out[name] = np.repeat(do[:, K.D_OWNERS + i], n) == seat
    out["deal_score"] = ds[:, :, K.DS_SCORE].ravel().astype(np.int16)
    out["score_after"] = ds[:, :, K.DS_AFTER].ravel()
    return out


def play_one(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int, index: int,
             fixed: np.ndarray | None = None):
    """Game ``index`` with everything recorded: (arrays, logs). ``fixed``: its one row of
    ``deals=`` (as ``run_chunk`` takes them), or None. ``arrays`` holds the
    kernel's outputs for one game (``deal_out``/``deal_seat`` one row per deal);
    ``logs``: ``hands`` (deals x seats masks), ``bids`` (deals x seats, speaking order),
    ``cards`` (deals x 6 players, play order), ``tricks`` (deals x 6 winners)."""
    n = rules.players
    _check_policies(policies, n)
    fx = _checked_deals(rules, fixed, 1)[0] if fixed is not None else NO_FIXED
    R = pack(rules)
    bid_ids, bid_params = policies["bid"]
    play_ids, play_params = policies["play"]
    scratch = K.new_scratch(max(bid_params.shape[1], play_params.shape[1]))

    def play(deals: int):
        a = dict(seat_out=np.zeros((1, n, K.SEAT_COLS), np.int32),
                 win=np.zeros((1, n), np.float64),
                 game_out=np.zeros((1, K.GAME_COLS), np.int32),
                 deal_out=np.zeros((deals, K.DEAL_COLS), np.int32),
                 deal_seat=np.zeros((deals, n, 2), np.int32),
                 err=H.new_errors(1))
        logs = dict(hands=np.zeros((deals, n), np.int64),
                    bids=np.full((deals, n), O.NOT_YET, np.int64),
                    cards=np.full((deals, 6 * n), -1, np.int64),
                    tricks=np.full((deals, 6), -1, np.int64))
        if deals == 0:
            logs = {k: np.empty((0, 1), np.int64) for k in logs}
        K.play_match(np.uint64(seed), index, R, np.asarray(bid_ids, np.int64),
                     np.asarray(bid_params, np.float64), H.solution_table(policies),
                     np.asarray(play_ids, np.int64),
                     np.asarray(play_params, np.float64), 0, fx, *scratch,
                     a["seat_out"], a["win"], a["game_out"], deals > 0,
                     np.array([0, deals], np.int64), a["deal_out"], a["deal_seat"], a["err"],
                     logs["hands"], logs["bids"], logs["cards"], logs["tricks"])
        H.check(a["err"], index, explain, labels)
        return a, logs

    return H.record_twice(lambda deals: play(deals or 0),
                          lambda first: int(first[0]["game_out"][0, K.G_DEALS]))
