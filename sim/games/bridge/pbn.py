"""PBN text of hands and deals (Portable Bridge Notation): a hand is ``S.H.D.C`` with
ranks high to low (``AKQ52.K3.742.Q87``; ``10`` is accepted for ``T``, ``-`` for a
void); a deal is ``N:hand hand hand hand`` starting at the named seat, clockwise."""

from __future__ import annotations

import numpy as np

from sim.errors import BidlabError

RANKS = "23456789TJQKA"
SEAT_LETTERS = "NESW"


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
        raise BidlabError(f"cannot read hand {text!r}: write four suits S.H.D.C separated "
                          f"by dots, ranks high to low, e.g. AKQ52.K3.742.Q87 ('-' or "
                          f"nothing for a void)")
    mask = 0
    for suit, cards in zip((3, 2, 1, 0), suits):
        for ch in cards.replace("-", ""):
            if ch not in RANKS:
                raise BidlabError(f"cannot read hand {text!r}: {ch!r} is not a rank "
                                  f"({' '.join(RANKS)})")
            bit = 1 << (13 * suit + RANKS.index(ch))
            if mask & bit:
                raise BidlabError(f"hand {text!r} holds {ch} of {'SHDC'[3 - suit]} twice")
            mask |= bit
    return mask


def format_deal(hands, first: int = 0) -> str:
    """``N:... ... ... ...`` from four masks (seat 0 North)."""
    return SEAT_LETTERS[first] + ":" + " ".join(format_hand(hands[(first + k) % 4])
                                                for k in range(4))


def parse_deal(text: str) -> np.ndarray:
    """Four masks (North, East, South, West) from a PBN deal string; every card once."""
    t = text.strip().strip('"')
    if len(t) < 2 or t[1] != ":" or t[0].upper() not in SEAT_LETTERS:
        raise BidlabError(f"cannot read deal {text!r}: write 'N:S.H.D.C S.H.D.C S.H.D.C "
                          f"S.H.D.C' (the first hand's seat, then clockwise)")
    first = SEAT_LETTERS.index(t[0].upper())
    hands_text = t[2:].split()
    if len(hands_text) != 4:
        raise BidlabError(f"deal {text!r}: four hands expected, got {len(hands_text)}")
    out = np.zeros(4, dtype=np.int64)
    seen = 0
    for k, h in enumerate(hands_text):
        m = parse_hand(h)
        if bin(m).count("1") != 13:
            raise BidlabError(f"deal {text!r}: hand {h!r} has {bin(m).count('1')} cards, not 13")
        if seen & m:
            raise BidlabError(f"deal {text!r}: a card is dealt twice")
        seen |= m
        out[(first + k) % 4] = m
    return out


def write_pbn(path, boards: list[dict]) -> None:
    """Write boards (dicts with ``board``, ``dealer``, ``vulnerability``, ``hands``
    masks and optionally ``auction``, ``contract``, ``declarer``, ``score_ns``,
    ``tricks``, ``par_ns``) as a PBN file."""
    vul_pbn = {"None": "None", "NS": "NS", "EW": "EW", "Both": "All"}
    lines = ['% PBN 2.1', '% bidlab export', '']
    for b in boards:
        lines.append('[Event "bidlab"]')
        lines.append(f'[Board "{b["board"]}"]')
        lines.append(f'[Dealer "{SEAT_LETTERS[b["dealer"]]}"]')
        lines.append(f'[Vulnerable "{vul_pbn[b["vulnerability"]]}"]')
        lines.append(f'[Deal "{format_deal(b["hands"])}"]')
        if b.get("auction") is not None:
            contract = b.get("contract")
            lines.append(f'[Declarer "{SEAT_LETTERS[b["declarer"]] if contract else ""}"]')
            lines.append(f'[Contract "{contract or "Pass"}"]')
            if contract:
                lines.append(f'[Result "{b["tricks"]}"]')
            lines.append(f'[Score "NS {b["score_ns"]}"]')
            if b.get("par_ns") is not None:
                lines.append(f'[ParScore "NS {b["par_ns"]}"]')
            lines.append(f'[Auction "{SEAT_LETTERS[b["dealer"]]}"]')
            calls = ["Pass" if c == "P" else c.replace("N", "NT") if c[0].isdigit() else c
                     for c in b["auction"]]
            for i in range(0, len(calls), 4):
                lines.append(" ".join(calls[i:i + 4]))
        lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def read_pbn(path) -> list[dict]:
    """Boards of a PBN file: ``board`` (int or None), ``dealer`` (seat or None),
    ``vulnerability`` (None/NS/EW/Both or None) and ``hands`` (four masks)."""
    boards: list[dict] = []
    cur: dict = {}
    vul_map = {"NONE": "None", "LOVE": "None", "-": "None", "NS": "NS", "EW": "EW",
               "ALL": "Both", "BOTH": "Both"}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("[") or " " not in line:
                continue
            tag, _, value = line[1:].rstrip("]").partition(" ")
            value = value.strip().strip('"')
            if tag == "Board":
                if "hands" in cur:
                    boards.append(cur)
                cur = {"board": int(value) if value.isdigit() else None}
            elif tag == "Dealer":
                cur["dealer"] = SEAT_LETTERS.index(value.upper()) if value else None
            elif tag == "Vulnerable":
                cur["vulnerability"] = vul_map.get(value.upper())
            elif tag == "Deal":
                if "hands" in cur:
                    boards.append(cur)
                    cur = {"board": None}
                cur["hands"] = parse_deal(value)
    if "hands" in cur:
        boards.append(cur)
    return boards
