"""Python side of the bridge kernels: deal, solve (cached, in batches), bid, score.

A chunk of boards goes through three steps, and the solver never runs inside a
kernel: (1) ``kernel.deal_chunk`` deals every board of the chunk (or the chunk's rows
of an imported PBN file are taken, ``deals``: their tags set board number, dealer and
vulnerability, B1 filling in what they lack; ``board_facts``); (2) ``dd.solve``
returns their double-dummy tables from the on-disk cache, solving the missing ones in
full DDS batches on all cores, and ``dd.par`` their par scores and contracts (B12);
(3) ``kernel.auction_chunk`` plays every auction and scores the contract on the table.
"""

from __future__ import annotations

import numpy as np

from sim import harness as H
from sim.errors import BidlabError, StrategyError
from sim.game import Columns, Policies, Tables
from sim.games.bridge import core as C
from sim.games.bridge import dd as DD
from sim.games.bridge import kernel as K
from sim.games.bridge import pbn as PBN
from sim.games.bridge.pbn import format_deal
from sim.games.bridge.rules import BOARD_VUL, R_VUL, VUL_NAMES, pack
from sim.rules import Rules

NO_DD = np.zeros((0, 4, 5), dtype=np.int8)
NO_PAR = np.zeros(0, dtype=np.int32)
NO_ORACLE = np.zeros((0, 4), dtype=np.int64)
NO_FACTS = np.zeros((0, 2), dtype=np.int64)


def deal(seed: int, start: int, count: int) -> np.ndarray:
    """Hands of boards ``start .. start + count - 1``: int64 ``(count, 4)`` masks."""
    hands = np.zeros((count, 4), dtype=np.int64)
    if count:
        K.deal_chunk(np.uint64(seed), start, count, H.blocks(count), hands)
    return hands


def board_numbers(start: int, count: int, deals: np.ndarray | None = None) -> np.ndarray:
    """Board numbers of matches ``start .. start + count - 1``: ``i + 1``, so that every
    board of a run has its own number (its dealer and vulnerability are those of board
    ``i mod 16 + 1``, B1: board 17 is dealt like board 1), or an imported board's
    ``Board`` tag where it has one."""
    numbers = np.arange(start, start + count, dtype=np.int64) + 1
    if deals is not None:
        tagged = deals[:, PBN.D_BOARD] > 0
        numbers[tagged] = deals[tagged, PBN.D_BOARD]
    return numbers


def board_facts(rules: Rules, start: int, count: int, deals: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """(dealer, vulnerability code) per board. B1 by board number; an imported board
    (``deals``, rows of ``pbn.read_deals``) keeps its ``Dealer`` and ``Vulnerable``
    tags where it has them; a fixed ``vulnerability`` rule overrides every board."""
    cycle = (board_numbers(start, count, deals) - 1) % 16
    dealer = cycle % 4
    vul = BOARD_VUL[cycle].copy()
    if deals is not None:
        dealer = np.where(deals[:, PBN.D_DEALER] >= 0, deals[:, PBN.D_DEALER], dealer)
        vul = np.where(deals[:, PBN.D_VUL] >= 0, deals[:, PBN.D_VUL], vul)
    R = pack(rules)
    if R[R_VUL] >= 0:
        vul = np.full(count, R[R_VUL])
    return dealer.astype(np.int64), vul.astype(np.int64)


def board_hands(seed: int, start: int, count: int, deals: np.ndarray | None = None
                ) -> np.ndarray:
    """Hands of the boards: dealt from ``(seed, i)``, or the imported ones (checked:
    four hands of 13 cards that make one deck, tags in range)."""
    if deals is None:
        return deal(seed, start, count)
    deals = H.deck_rows("bridge", deals, count, PBN.D_COLS,
                        "the four hands as card masks, then board number, dealer and "
                        "vulnerability code, -1 where untagged", unit="entries")
    hands = np.ascontiguousarray(deals[:, :4])
    for m, four in enumerate(hands.tolist()):
        union = 0
        for h in four:
            if h < 0 or h >> 52 or bin(h).count("1") != 13 or union & h:
                raise BidlabError(f"bridge deals, row {m}: not four hands of 13 different "
                                  f"cards that make one 52-card deck")
            union |= h
    tags = deals[:, PBN.D_DEALER:PBN.D_VUL + 1]
    if ((tags < -1) | (tags > 3)).any():
        raise BidlabError("bridge deals: a dealer or vulnerability code out of -1..3")
    return hands


def dealt(seed: int, start: int, count: int) -> np.ndarray:
    """Boards ``start ..`` as dealt, as ``deals=`` rows (``pbn.read_deals``'s layout):
    the four hands and no tags, so that B1 gives board number, dealer and
    vulnerability as for the dealt boards."""
    out = np.full((count, PBN.D_COLS), -1, dtype=np.int64)
    out[:, :4] = deal(seed, start, count)
    return out


def hidden_deals(rules: Rules, seed: int, index: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Board ``index`` as dealt, and the same board with the hands of the other three
    seats moved round among them (each gets the next one's hand): what ``seat`` sees
    (its own hand, the board number, dealer and vulnerability, and calls that tell
    nothing of the cards, ``Game.blind``) is the same in both; the changed board costs
    a double-dummy solve. The check compares the contract the auction reaches
    (``view_columns``): the tricks and scores follow from all four hands."""
    same = dealt(seed, index, 1)
    other = same.copy()
    others = [s for s in range(4) if s != seat]
    for a, b in zip(others, others[1:] + others[:1]):
        other[0, a] = same[0, b]
    return same, other


def solve_boards(rules: Rules, hands: np.ndarray, start: int, progress: bool | None = None,
                 deals: np.ndarray | None = None):
    """(dd tables, par_ns, par contracts) of the boards (cached; B9, B12)."""
    dealers, vuls = board_facts(rules, start, hands.shape[0], deals)
    tables = DD.solve(hands, progress=progress)
    par_ns, oracle = DD.par(hands, tables, dealers, vuls)
    return tables, par_ns, oracle


def _check_policies(policies: Policies) -> None:
    if "bid" not in policies:
        raise StrategyError(f"bridge needs a 'bid' policy per seat; got {sorted(policies)}")
    ids, params = policies["bid"]
    if len(ids) != 4 or params.shape[0] != 4:
        raise StrategyError(f"bridge needs 4 bid policies, got {len(ids)}")


def explain(e: H.KernelError, label: str, where: str | None = None,
            seat: str | None = None) -> str:
    """The message of a kernel error record; ``where`` and ``seat`` say where it
    happened and name the seat (default: the board index and the seat number)."""
    where = f"board {e.index}" if where is None else where
    seat = str(e.seat) if seat is None else seat
    if e.code == K.NO_DD:
        return (f"{where}: no double-dummy result for declarer {seat} in strain "
                f"{C.STRAINS[e.value]}")
    shown = C.call_text(e.value) if 0 <= e.value < C.N_CALLS else str(e.value)
    allowed = " ".join(C.call_text(c) for c in range(C.N_CALLS) if e.lo >> c & 1)
    return (f"{where}, call {e.step + 1}: bid policy of {label!r} (seat {seat}) answered "
            f"{shown}, which is illegal; legal: {allowed} (rules B3, B4)")


def auctions(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int, start: int,
             hands: np.ndarray, tables=NO_DD, par_ns=NO_PAR, oracle=NO_ORACLE,
             log: bool = False, parallel: bool = True, deals: np.ndarray | None = None):
    """Play (and with ``tables`` score) the auctions of ``hands``: ``board_out`` and,
    with ``log``, the calls (count x MAX_AUCTION int8). ``deals``: the imported boards
    these hands come from (their tags set dealer and vulnerability)."""
    _check_policies(policies)
    ids, params = policies["bid"]
    count = hands.shape[0]
    out = np.zeros((count, K.BOARD_COLS), dtype=np.int32)
    err = H.new_errors(count)
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    params = np.ascontiguousarray(params, dtype=np.float64)
    R = pack(rules)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    facts = NO_FACTS if deals is None else \
        np.ascontiguousarray(np.stack(board_facts(rules, start, count, deals), axis=1))
    if log or not parallel:
        calls = np.zeros((count if log else 0, C.MAX_AUCTION), dtype=np.int8)
        K.auction_serial(np.uint64(seed), start, count, R, hands, facts, tables, par_ns,
                         oracle, ids, params, out, err,
                         calls if log else np.zeros((0, 1), np.int8))
    else:
        calls = None
        K.auction_chunk(np.uint64(seed), start, count, H.blocks(count), R, hands, facts, tables,
                        par_ns, oracle, ids, params, out, err)
    H.check(err, start, explain, labels)
    return out, calls


def seat_columns(out: np.ndarray, start: int) -> Columns:
    count = out.shape[0]
    score_ns = out[:, K.B_SCORE_NS].astype(np.int64)
    par_ns = out[:, K.B_PAR_NS].astype(np.int64)
    imps_ns = imps_vec(score_ns - par_ns)
    sign = np.array([1, -1, 1, -1])
    level = out[:, K.B_LEVEL]
    side_score = (score_ns[:, None] * sign).ravel()
    side_imps = (imps_ns[:, None] * sign).ravel()
    diff = ((score_ns - par_ns)[:, None] * sign).ravel()

    def rep(x, dtype):
        return np.repeat(np.asarray(x), 4).astype(dtype)

    return {
        **H.match_seat(start, count, 4),
        "score": side_score.astype(np.float64),
        "win": np.where(diff > 0, 1.0, np.where(diff == 0, 0.5, 0.0)),
        "imps_vs_par": side_imps.astype(np.float64),
        "score_ns": rep(score_ns, np.int32),
        "par_ns": rep(par_ns, np.int32),
        "imps_ns_vs_par": rep(imps_ns, np.int16),
        "level": rep(level, np.int8),
        "strain": rep(out[:, K.B_STRAIN], np.int8),
        "doubled": rep(out[:, K.B_DOUBLED], np.int8),
        "declarer": rep(out[:, K.B_DECLARER], np.int8),
        "tricks": rep(out[:, K.B_TRICKS], np.int8),
        "one": np.ones(4 * count, dtype=np.int8),
        "passed_out": rep(level == 0, np.int8),
        "partscore": rep((level > 0) & (level < 6) & ~_game(out), np.int8),
        "game": rep((level > 0) & (level < 6) & _game(out), np.int8),
        "slam": rep(level == 6, np.int8),
        "grand": rep(level == 7, np.int8),
        "doubled_any": rep(out[:, K.B_DOUBLED] > 0, np.int8),
    }


def imps_vec(diff: np.ndarray) -> np.ndarray:
    k = np.searchsorted(C.IMP_LIMITS, np.abs(diff), side="left")
    return np.sign(diff) * k


def _game(out: np.ndarray) -> np.ndarray:
    """Contracts whose trick score (undoubled... with the double) reaches 100: games."""
    level, strain, dbl = out[:, K.B_LEVEL], out[:, K.B_STRAIN], out[:, K.B_DOUBLED]
    per = np.where(strain == 4, 40 + 30 * (level - 1), np.where(strain >= 2, 30 * level,
                                                                 20 * level))
    return per * (1 << np.maximum(dbl, 0)) >= 100


def run_chunk(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
              start: int, count: int, detail: bool = False,
              deals: np.ndarray | None = None) -> Tables:
    """Boards ``start .. start + count - 1``; tables ``seats`` (+ ``boards``). With
    ``deals`` (rows ``start ..`` of an imported file) those boards are played instead
    of dealt ones."""
    _check_policies(policies)
    hands = board_hands(seed, start, count, deals)
    tables, par_ns, oracle = solve_boards(rules, hands, start, deals=deals)
    out, calls = auctions(rules, policies, labels, seed, start, hands, tables, par_ns, oracle,
                          log=detail, deals=deals)
    result = {"seats": seat_columns(out, start)}
    if detail:
        result["boards"] = board_table(out, calls, hands, start, deals)
    return result


def board_table(out: np.ndarray, calls: np.ndarray, hands: np.ndarray, start: int,
                deals: np.ndarray | None = None) -> Columns:
    count = out.shape[0]
    texts = [C.call_text(c) for c in range(C.N_CALLS)]
    auction = np.array([" ".join(texts[c] for c in calls[m, :out[m, K.B_NCALLS]])
                        for m in range(count)], dtype=object)
    return {
        "match": np.arange(start, start + count, dtype=np.int64),
        "board": board_numbers(start, count, deals).astype(np.int32),
        "dealer": out[:, K.B_DEALER].astype(np.int8),
        "vulnerability": np.array([VUL_NAMES[v] for v in out[:, K.B_VUL]], dtype=object),
        "deal": np.array([format_deal(hands[m]) for m in range(count)], dtype=object),
        "auction": auction,
        "contract": np.array([contract_text(out[m]) or "" for m in range(count)], dtype=object),
        "declarer": out[:, K.B_DECLARER].astype(np.int8),
        "tricks": out[:, K.B_TRICKS].astype(np.int8),
        "score_ns": out[:, K.B_SCORE_NS],
        "par_ns": out[:, K.B_PAR_NS],
    }


def contract_text(row) -> str | None:
    level = int(row[K.B_LEVEL])
    if level == 0:
        return None
    return f"{level}{C.STRAINS[int(row[K.B_STRAIN])]}" + ("", "X", "XX")[int(row[K.B_DOUBLED])]
