"""PBN (Portable Bridge Notation 2.1): hands, deals, and files of boards.

A hand is ``S.H.D.C`` with ranks high to low (``AKQ52.K3.742.Q87``; ``10`` is accepted
for ``T``, an empty suit is a void); a deal is ``N:hand hand hand hand`` starting at the
named seat, clockwise. A file holds games separated by empty lines, each a list of tag
pairs ``[Tag "value"]``; the ``Auction`` tag is followed by its calls.

Reading (:func:`read_pbn`, :func:`read_deals`) takes the deal and the board's number,
dealer and vulnerability from the tags, and the auction and result where present; games
without a ``Deal`` tag (a file header, a score table) are skipped. Every error names the
file, the board and what is wrong. Writing (:func:`board_text`, :class:`PbnWriter`)
produces the export format: the mandatory tags in their order, then the score, the par
score (``OptimumScore``) and the auction.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from sim.errors import PbnError
from sim.games.bridge.rules import SEAT_NAMES, VUL_NAMES

RANKS = "23456789TJQKA"
SEAT_WORDS = ("North", "East", "South", "West")
SUITS_PBN = "SHDC"
"""PBN's suit order in a hand; suit ``s`` of a card mask (0 clubs .. 3 spades) is
``SUITS_PBN[3 - s]``."""
VUL_PBN = ("None", "NS", "EW", "All")
"""The ``Vulnerable`` tag value written for vulnerability codes 0..3."""
_VUL_READ = {"NONE": 0, "LOVE": 0, "-": 0, "NS": 1, "EW": 2, "ALL": 3, "BOTH": 3}

# Columns of an imported deals array (``read_deals``): the four hands, then the tags;
# -1 where the file has no such tag (the engine falls back on B1).
D_BOARD, D_DEALER, D_VUL = 4, 5, 6
D_COLS = 7

_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


def card_name(card: int) -> str:
    """PBN card name, suit then rank: ``SK``, ``H7``."""
    return SUITS_PBN[3 - card // 13] + RANKS[card % 13]


def format_hand(mask: int) -> str:
    mask = int(mask)
    parts = []
    for suit in (3, 2, 1, 0):
        parts.append("".join(RANKS[r] for r in range(12, -1, -1)
                             if mask >> (13 * suit + r) & 1))
    return ".".join(parts)


def parse_hand(text: str) -> int:
    """Card mask of a PBN hand ``S.H.D.C``; fewer than 13 cards is allowed (a partial
    hand for constrained dealing is checked by the caller)."""
    t = text.strip().upper().replace("10", "T")
    suits = t.split(".")
    if len(suits) != 4:
        raise PbnError(f"cannot read hand {text!r}: write four suits S.H.D.C separated "
                       f"by dots, ranks high to low, e.g. AKQ52.K3.742.Q87 (nothing "
                       f"between two dots for a void)")
    mask = 0
    for suit, cards in zip((3, 2, 1, 0), suits):
        for ch in cards.replace("-", ""):
            if ch not in RANKS:
                raise PbnError(f"cannot read hand {text!r}: {ch!r} is not a rank "
                               f"({' '.join(RANKS)})")
            bit = 1 << (13 * suit + RANKS.index(ch))
            if mask & bit:
                raise PbnError(f"hand {text!r} holds {SUITS_PBN[3 - suit]}{ch} twice")
            mask |= bit
    return mask


def format_deal(hands, first: int = 0) -> str:
    """``N:... ... ... ...`` from four masks (seat 0 North)."""
    return SEAT_NAMES[first] + ":" + " ".join(format_hand(hands[(first + k) % 4])
                                                for k in range(4))


def parse_deal(text: str) -> np.ndarray:
    """Four masks (North, East, South, West) from a PBN deal string. Every seat must
    hold 13 cards and every card must be dealt once (B1)."""
    t = text.strip().strip('"').strip()
    if len(t) < 2 or t[1] != ":" or t[0].upper() not in SEAT_NAMES:
        raise PbnError(f"cannot read deal {text!r}: write 'N:S.H.D.C S.H.D.C S.H.D.C "
                       f"S.H.D.C' (the first hand's seat, then clockwise)")
    first = SEAT_NAMES.index(t[0].upper())
    hands_text = t[2:].split()
    if len(hands_text) != 4:
        raise PbnError(f"incomplete deal {t!r}: {len(hands_text)} hands, expected 4 "
                       f"(the first hand's seat, then clockwise)")
    out = np.zeros(4, dtype=np.int64)
    for k, h in enumerate(hands_text):
        seat = (first + k) % 4
        if h == "-":
            raise PbnError(f"incomplete deal {t!r}: the {SEAT_WORDS[seat]} hand is not "
                           f"given ('-'); bidlab plays only complete deals")
        out[seat] = parse_hand(h)
    _check_complete(out, t)
    return out


def _check_complete(hands: np.ndarray, text: str) -> None:
    for a in range(4):
        for b in range(a + 1, 4):
            both = int(hands[a]) & int(hands[b])
            if both:
                card = card_name(both.bit_length() - 1)
                raise PbnError(f"deal {text!r}: {card} is dealt twice ({SEAT_WORDS[a]} and "
                               f"{SEAT_WORDS[b]})")
    for seat in range(4):
        count = bin(int(hands[seat])).count("1")
        if count != 13:
            held = int(np.bitwise_or.reduce(hands))
            missing = [card_name(c) for c in range(51, -1, -1) if not held >> c & 1]
            raise PbnError(f"incomplete deal {text!r}: {SEAT_WORDS[seat]} holds {count} "
                           f"cards, not 13" + (f"; nobody holds {' '.join(missing)}"
                                               if missing else ""))


# ----------------------------------------------------------------------------- writing

def _pbn_call(call: str) -> str:
    if call == "P":
        return "Pass"
    return call + "T" if call.endswith("N") and call[0].isdigit() else call


def _side_score(score_ns: int) -> str:
    return f"NS {int(score_ns)}"


MANDATORY = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
             "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")
"""PBN 2.1's mandatory tags, in the order export format writes them (section 3.1)."""


def board_text(b: dict, players=("", "", "", ""), event: str = "bidlab") -> str:
    """One game in PBN export format: every mandatory tag (:data:`MANDATORY`), in order.
    ``b`` holds ``board``, ``dealer`` (seat), ``vulnerability`` (``None``/``NS``/``EW``/
    ``Both``), ``hands`` (four masks) or ``deal`` (a PBN deal string), and for a played
    board ``auction`` (calls as ``P``, ``X``, ``XX``, ``1C``..``7N``), ``contract``
    (``4SX``; None when passed out), ``declarer``, ``tricks``, ``score_ns`` and optionally
    ``par_ns``; a board not played (``auction`` absent) has ``?`` (unknown) for its
    declarer, contract and result. ``players``: the names of North, East, South, West
    (their strategies)."""
    deal = b.get("deal") or format_deal(b["hands"])
    played = b.get("auction") is not None
    contract = b.get("contract") or None
    if played:
        declarer = SEAT_NAMES[int(b["declarer"])] if contract else ""
        contract_tag = _pbn_call(contract[:2]) + contract[2:] if contract else "Pass"
        result = str(int(b["tricks"])) if contract else ""
    else:
        declarer = contract_tag = result = "?"
    tags = [("Event", event), ("Site", ""), ("Date", ""), ("Board", str(int(b["board"])))]
    tags += [(SEAT_WORDS[s], players[s]) for s in (3, 0, 1, 2)]
    tags += [("Dealer", SEAT_NAMES[int(b["dealer"])]),
             ("Vulnerable", VUL_PBN[VUL_NAMES.index(b["vulnerability"])]),
             ("Deal", deal), ("Scoring", ""), ("Declarer", declarer),
             ("Contract", contract_tag), ("Result", result)]
    lines = [f'[{k} "{v}"]' for k, v in tags]
    if not played:
        return "\n".join(lines) + "\n"
    lines.append(f'[Score "{_side_score(b["score_ns"])}"]')
    if b.get("par_ns") is not None:
        lines.append(f'[OptimumScore "{_side_score(b["par_ns"])}"]')
    lines.append(f'[Auction "{SEAT_NAMES[int(b["dealer"])]}"]')
    calls = [_pbn_call(c) for c in b["auction"]]
    lines += [" ".join(calls[i:i + 4]) for i in range(0, len(calls), 4)]
    return "\n".join(lines) + "\n"


HEADER = "% PBN 2.1\n% EXPORT\n"


def header(comment: str = "") -> str:
    """The file's first lines: :data:`HEADER`, then ``comment`` as ``%`` lines."""
    return HEADER + "".join(f"% {line}\n" for line in comment.splitlines())


def pbn_text(boards: list[dict], players=("", "", "", ""), comment: str = "") -> str:
    """A whole PBN file of boards (dicts as :func:`board_text` takes them)."""
    return header(comment) + "\n" + "\n".join(board_text(b, players) for b in boards)


def write_pbn(path, boards: list[dict], players=("", "", "", ""), comment: str = "") -> None:
    """Write boards (dicts as :func:`board_text` takes them) as a PBN file."""
    with open(path, "w", encoding="latin-1", errors="replace") as f:
        f.write(pbn_text(boards, players, comment))


class PbnWriter:
    """A runner sink: writes every board of the ``boards`` table to a PBN file, chunk by
    chunk, in match order (memory stays flat)."""

    def __init__(self, path, labels: tuple[str, ...], comment: str = ""):
        self.path = Path(path)
        self.players = tuple(labels)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._f = open(self.path, "w", encoding="latin-1", errors="replace")
        self._f.write(header(comment))
        self.boards = 0

    def add(self, start: int, tables) -> None:
        cols = tables["boards"]
        for m in range(len(cols["match"])):
            contract = str(cols["contract"][m]) or None
            auction = str(cols["auction"][m])
            b = {"board": cols["board"][m], "dealer": cols["dealer"][m],
                 "vulnerability": str(cols["vulnerability"][m]), "deal": str(cols["deal"][m]),
                 "auction": auction.split() if auction else [], "contract": contract,
                 "declarer": cols["declarer"][m], "tricks": cols["tricks"][m],
                 "score_ns": cols["score_ns"][m], "par_ns": cols["par_ns"][m]}
            self._f.write("\n" + board_text(b, self.players))
            self.boards += 1

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()


# ----------------------------------------------------------------------------- reading

def _games(text: str):
    """(tags in file order as (name, value, line number), auction tokens) per game;
    comments (``%`` lines, ``;`` to the end of a line, ``{...}`` blocks) are dropped."""
    tags: list[tuple[str, str, int]] = []
    auction: list[str] = []
    section = None
    in_block = False
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw
        if in_block:
            end = line.find("}")
            if end < 0:
                continue
            line, in_block = line[end + 1:], False
        if line.startswith("%"):
            continue
        m = _TAG.match(line.strip())
        if m:
            tags.append((m.group(1), m.group(2).replace('\\"', '"').replace("\\\\", "\\"), no))
            section = m.group(1).lower()
            continue
        line = re.sub(r"\{[^}]*\}", " ", line)
        if "{" in line:
            line, in_block = line[:line.index("{")], True
        line = line.split(";", 1)[0].strip()
        if not line and not in_block and raw.strip() == "":
            if tags:
                yield tags, auction
            tags, auction, section = [], [], None
            continue
        if section == "auction":
            auction += line.split()
    if tags:
        yield tags, auction


def _calls(tokens: list[str]) -> list[str]:
    """Auction tokens -> calls (``P``, ``X``, ``XX``, ``1C``..``7N``); ``AP`` (all
    pass) closes the auction, notes (``=1=``) and glyphs (``$1``) are skipped."""
    calls: list[str] = []
    for tok in tokens:
        t = tok.upper().rstrip("!?")
        if not t or t.startswith("=") or t.startswith("$"):
            continue
        if t in ("*", "+", "-"):
            break
        if t == "AP":
            calls += ["P"] * 3
            continue
        t = {"PASS": "P", "DBL": "X", "RDBL": "XX"}.get(t, t).replace("NT", "N")
        calls.append(t)
    return calls


def _score_ns(value: str):
    """``NS 620``, ``EW -620`` or ``620`` (the declarer's side: unknown here) -> NS
    points, or None."""
    parts = value.split()
    try:
        if len(parts) == 2 and parts[0].upper() in ("NS", "EW"):
            return int(parts[1]) * (1 if parts[0].upper() == "NS" else -1)
    except ValueError:
        pass
    return None


def _board(tags: dict, auction: list[str], where) -> dict:
    board = tags.get("Board", "").strip()
    if board in ("", "?"):
        number = None
    elif board.isdigit() and int(board) > 0:
        number = int(board)
    else:
        raise PbnError(f"{where(None, 'Board')}: Board tag {board!r} is not a board number "
                       f"(a whole number from 1)")
    dealer = tags.get("Dealer", "").strip().upper()
    if dealer not in ("", "?") and dealer not in SEAT_NAMES:
        raise PbnError(f"{where(number, 'Dealer')}: Dealer tag {tags['Dealer']!r} is not a "
                       f"seat (N, E, S or W)")
    vul = tags.get("Vulnerable", "").strip().upper()
    if vul not in ("", "?") and vul not in _VUL_READ:
        raise PbnError(f"{where(number, 'Vulnerable')}: Vulnerable tag "
                       f"{tags['Vulnerable']!r} is not allowed: None, NS, EW, All (also Love, "
                       f"-, Both)")
    try:
        hands = parse_deal(tags["Deal"])
    except PbnError as e:
        raise PbnError(f"{where(number, 'Deal')}: {e}") from None
    contract = tags.get("Contract", "").strip().upper().replace("NT", "N")
    declarer = tags.get("Declarer", "").strip().upper()
    result = tags.get("Result", "").strip()
    return {"board": number,
            "dealer": SEAT_NAMES.index(dealer) if dealer in SEAT_NAMES and dealer else None,
            "vulnerability": VUL_NAMES[_VUL_READ[vul]] if vul in _VUL_READ else None,
            "hands": hands,
            "auction": _calls(auction) if "Auction" in tags else None,
            "contract": None if contract in ("", "?", "PASS") else contract,
            "declarer": SEAT_NAMES.index(declarer) if declarer and declarer in SEAT_NAMES
            else None,
            "tricks": int(result) if result.isdigit() else None,
            "score_ns": _score_ns(tags.get("Score", "")),
            "par_ns": _score_ns(tags.get("OptimumScore", ""))}


def _read_text(path) -> str:
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise PbnError(f"cannot read {path}: no such file") from None
    except OSError as e:
        raise PbnError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")      # PBN's own character set (ISO 8859-1)


def read_pbn(path) -> list[dict]:
    """The boards of a PBN file, in file order: ``board`` (int or None), ``dealer``
    (seat or None), ``vulnerability`` (``None``/``NS``/``EW``/``Both``, or None),
    ``hands`` (four masks), ``auction`` (calls or None), ``contract`` (``4SX``; None
    when passed out or not given), ``declarer``, ``tricks``, ``score_ns``, ``par_ns``
    (None when absent).
    A tag value ``#`` repeats the previous game's value (PBN tag inheritance)."""
    boards = []
    previous: dict[str, str] = {}
    for k, (pairs, auction) in enumerate(_games(_read_text(path)), 1):
        tags: dict[str, str] = {}
        lines: dict[str, int] = {}
        for name, value, no in pairs:
            if name not in tags:                    # PBN: a repeated tag is ignored
                tags[name] = previous.get(name, "") if value == "#" else value
                lines[name] = no
        previous = tags
        if "Deal" not in tags:
            continue

        def where(number, tag, k=k, lines=lines):
            shown = (f"board {number}" if number is not None
                     else f"the file's board {len(boards) + 1}")
            return f"{path}, {shown} (game {k}, line {lines[tag]})"
        boards.append(_board(tags, auction, where))
    return boards


def read_deals(path) -> np.ndarray:
    """The deals of a PBN file as an int64 array (boards x ``D_COLS``): the four hands,
    then the board number, dealer and vulnerability code from the tags (-1 where a tag
    is absent, so that the engine applies B1)."""
    boards = read_pbn(path)
    if not boards:
        raise PbnError(f"{path}: no deal in this file (each board needs a tag like "
                       f'[Deal "N:AKQ52.K3.742.Q87 ..."])')
    out = np.full((len(boards), D_COLS), -1, dtype=np.int64)
    for i, b in enumerate(boards):
        out[i, :4] = b["hands"]
        if b["board"] is not None:
            out[i, D_BOARD] = b["board"]
        if b["dealer"] is not None:
            out[i, D_DEALER] = b["dealer"]
        if b["vulnerability"] is not None:
            out[i, D_VUL] = VUL_NAMES.index(b["vulnerability"])
    return out
