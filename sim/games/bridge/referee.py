"""Plain-Python referee of a bridge trace: replays the auction call by call and
recomputes everything (board facts, legality, contract, declarer, score) from the
rules text alone, independently of the kernel's code. Raises :class:`~sim.errors.RefereeError` naming
the rule at the first disagreement."""

from __future__ import annotations

from sim.errors import RefereeError
from sim.games.bridge.rules import KEYS as _RULE_KEYS
from sim.referee import Replayed, TraceReferee, is_int

STRAINS = "CDHSN"


def board_facts(board: int, vulnerability_rule: str) -> tuple[int, str]:
    """B1: (dealer, vulnerability) of a board number (17 is dealt like 1, and so on)."""
    board = (board - 1) % 16 + 1
    dealer = {1: 0, 5: 0, 9: 0, 13: 0, 2: 1, 6: 1, 10: 1, 14: 1,
              3: 2, 7: 2, 11: 2, 15: 2, 4: 3, 8: 3, 12: 3, 16: 3}[board]
    if vulnerability_rule != "board":
        return dealer, {"none": "None", "ns": "NS", "ew": "EW", "both": "Both"}[vulnerability_rule]
    for vul, boards in (("None", (1, 8, 11, 14)), ("NS", (2, 5, 12, 15)),
                        ("EW", (3, 6, 9, 16)), ("Both", (4, 7, 10, 13))):
        if board in boards:
            return dealer, vul
    raise AssertionError(board)


def duplicate_score(level: int, strain: str, doubled: int, vul: bool, tricks: int) -> int:
    """B10, written from the rules text: the declaring side's score."""
    need = 6 + level
    if tricks < need:
        u = need - tricks
        if doubled == 0:
            return -(100 if vul else 50) * u
        figures = []
        for k in range(1, u + 1):
            if vul:
                figures.append(200 if k == 1 else 300)
            else:
                figures.append(100 if k == 1 else 200 if k <= 3 else 300)
        return -sum(figures) * (2 if doubled == 2 else 1)
    first = {"C": 20, "D": 20, "H": 30, "S": 30, "N": 40}[strain]
    later = {"C": 20, "D": 20, "H": 30, "S": 30, "N": 30}[strain]
    trick_score = (first + later * (level - 1)) * (1, 2, 4)[doubled]
    total = trick_score + ((500 if vul else 300) if trick_score >= 100 else 50)
    if level == 6:
        total += 750 if vul else 500
    if level == 7:
        total += 1500 if vul else 1000
    total += (0, 50, 100)[doubled]
    over = tricks - need
    if doubled == 0:
        total += over * later
    elif doubled == 1:
        total += over * (200 if vul else 100)
    else:
        total += over * (400 if vul else 200)
    return total


def imps(diff: int) -> int:
    """B11, from the table's ranges."""
    table = [(0, 10), (20, 40), (50, 80), (90, 120), (130, 160), (170, 210), (220, 260),
             (270, 310), (320, 360), (370, 420), (430, 490), (500, 590), (600, 740),
             (750, 890), (900, 1090), (1100, 1290), (1300, 1490), (1500, 1740),
             (1750, 1990), (2000, 2240), (2250, 2490), (2500, 2990), (3000, 3490),
             (3500, 3990)]
    a = abs(diff)
    result = 24
    for k, (_lo, hi) in enumerate(table):
        if a <= hi:
            result = k
            break
    return result if diff >= 0 else -result


def _bid(call: str) -> tuple[int, int] | None:
    if len(call) == 2 and call[0] in "1234567" and call[1] in STRAINS:
        return int(call[0]), STRAINS.index(call[1])
    return None


def auction_result(dealer: int, calls: list[str], fail=None):
    """B2-B7 on a list of calls from the dealer: None when passed out, else
    ((level, strain, last bidder), doubled, declarer)."""
    if fail is None:
        def fail(rule, why):
            raise RefereeError(f"{why} (rule {rule})")
    last = None          # (level, strain, seat)
    doubled = 0
    passes = 0
    first_bidder: dict[tuple[int, int], int] = {}
    seat = dealer
    for i, call in enumerate(calls):
        done = (last is None and passes == 4) or (last is not None and passes == 3)
        if done:
            fail("B5/B6", f"call {i + 1} ({call}) after the auction ended")
        bid = _bid(call)
        if call == "P":
            passes += 1
        elif call == "X":
            if last is None or (last[2] - seat) % 2 == 0 or doubled != 0:
                fail("B4", f"call {i + 1}: seat {seat} doubles illegally")
            doubled, passes = 1, 0
        elif call == "XX":
            if last is None or (last[2] - seat) % 2 == 1 or doubled != 1:
                fail("B4", f"call {i + 1}: seat {seat} redoubles illegally")
            doubled, passes = 2, 0
        elif bid is not None:
            if last is not None and (bid[0], bid[1]) <= (last[0], last[1]):
                fail("B3", f"call {i + 1}: {call} is not higher than the last bid")
            last = (bid[0], bid[1], seat)
            doubled, passes = 0, 0
            first_bidder.setdefault((seat % 2, bid[1]), seat)
        else:
            fail("B2", f"call {i + 1}: {call!r} is not a call")
        seat = (seat + 1) % 4
    if not ((last is None and passes == 4) or (last is not None and passes == 3)):
        fail("B5/B6", "the auction has not ended")
    if last is None:
        return None
    return last, doubled, first_bidder[(last[2] % 2, last[1])]


class _Referee(TraceReferee):
    game = "bridge"

    def rule(self, rule: str, why: str):
        raise self.fail("", f"{why} (rule {rule})")

    def expected_facts(self) -> tuple[int, str]:
        """B1: board number index + 1, dealer and vulnerability by board number (board
        17 dealt like board 1).
        An imported board (``imported``: the file's tags, None where absent) keeps the
        number, dealer and vulnerability its file gave; a fixed vulnerability rule wins."""
        t = self.trace
        tags = t.get("imported") or {}
        board = tags.get("board") or self.field(t, "index", "") + 1
        if self.field(t, "board", "") != board:
            self.rule("B1", f"board number {t['board']}, expected {board}")
        rule = self.rules_with(tuple(k.name for k in _RULE_KEYS))["vulnerability"]
        dealer, vul = board_facts(board, rule)
        if tags.get("dealer") is not None:
            dealer = tags["dealer"]
        if tags.get("vulnerability") is not None and rule == "board":
            vul = tags["vulnerability"]
        return dealer, vul

    def check_hands(self) -> None:
        hands = self.field(self.trace, "hands", "")
        if not isinstance(hands, list) or len(hands) != 4 or not all(
                isinstance(h, str) and h.count(".") == 3 for h in hands):
            self.rule("B1", "hands are four PBN hands (S.H.D.C), one per seat from North")
        if any(len(h.replace(".", "")) != 13 for h in hands):
            self.rule("B1", "every seat must hold 13 cards")
        seen = set()
        for h in hands:
            for suit, ranks in zip("SHDC", h.split(".")):
                for r in ranks:
                    if (suit, r) in seen:
                        self.rule("B1", f"{r}{suit} dealt twice")
                    seen.add((suit, r))

    def run(self) -> Replayed:
        t = self.trace
        dealer, vul = self.expected_facts()
        if (dealer, vul) != (self.field(t, "dealer", ""), self.field(t, "vulnerability", "")):
            self.rule("B1", f"dealer/vulnerability {t['dealer']}/{t['vulnerability']}, "
                            f"expected {dealer}/{vul}")
        self.check_hands()
        auction = self.field(t, "auction", "")
        if not isinstance(auction, list) or not all(isinstance(c, str) for c in auction):
            self.rule("B2", "the auction is a list of calls (P, X, XX or a bid like 1N)")
        result = auction_result(dealer, auction, self.rule)
        dd = self.field(t, "dd_table", "")
        if not isinstance(dd, list) or len(dd) != 4 or not all(
                isinstance(row, list) and len(row) == 5 and all(is_int(x) and 0 <= x <= 13
                                                                for x in row) for row in dd):
            self.rule("B9", "dd_table holds four rows (N E S W) of five trick counts 0..13")
        contract, declarer, score = (self.field(t, k, "")
                                     for k in ("contract", "declarer", "score_ns"))
        if result is None:
            if contract is not None or score != 0 or declarer is not None:
                self.rule("B5", "a passed-out board has no contract and scores 0")
        else:
            last, doubled, expected_declarer = result
            expected = f"{last[0]}{STRAINS[last[1]]}" + ("", "X", "XX")[doubled]
            if contract != expected:
                self.rule("B6", f"contract {contract}, expected {expected}")
            if declarer != expected_declarer:
                self.rule("B7", f"declarer {declarer}, expected {expected_declarer}")
            tricks = dd[declarer][last[1]]
            if self.field(t, "tricks", "") != tricks:
                self.rule("B9", f"tricks {t['tricks']}, the double-dummy table says {tricks}")
            side_vul = vul == "Both" or vul == ("NS" if declarer % 2 == 0 else "EW")
            s = duplicate_score(last[0], STRAINS[last[1]], doubled, side_vul, tricks)
            expected_score = s if declarer % 2 == 0 else -s
            if score != expected_score:
                self.rule("B10", f"score_ns {score}, expected {expected_score}")
        side = [score, -score, score, -score]
        par = self.field(t, "par_ns", "")
        par_side = [par, -par, par, -par]
        return Replayed([float(x) for x in side],
                        [s for s in range(4) if side[s] > par_side[s]], len(auction),
                        {"contract": contract, "score_ns": score})


def replay(trace: dict) -> Replayed:
    """Check a bridge trace against the rules (B1-B10) and re-derive its result: the
    seats' side scores, the seats whose side beat par (``winners``) and the calls checked
    (``actions``). Raises :class:`~sim.errors.RefereeError` naming the rule at the first
    disagreement."""
    return _Referee(trace).run()
