"""Make ``tests/data/bridge_dd.json``: boards of bidlab's dealer solved once by DDS.

Run once (about 10 s): ``.venv/bin/python tests/data/bridge_make_fixture.py``. Tests load
the file into a temporary double-dummy cache, so CI never solves more than a handful of
boards. The file holds, per board, the deal (PBN), the full table (declarer seat x
strain C D H S N) and the par score and contract for the board's dealer and
vulnerability (B1, B12).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

SEED, BOARDS = 1, 48

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    os.environ["BIDLAB_DD_CACHE"] = os.path.join(tempfile.mkdtemp(), "dd.sqlite")
    from sim.games.bridge import dd as DD
    from sim.games.bridge import engine as E
    from sim.games.bridge.pbn import format_deal
    from sim.games.bridge.rules import make

    hands = E.deal(SEED, 0, BOARDS)
    tables = DD.solve_direct(hands, progress=True)
    dealers, vuls = E.board_facts(make(), 0, BOARDS)
    par_ns, contracts = DD.par(hands, tables, dealers, vuls)
    boards = [{"seed": SEED, "index": i, "deal": format_deal(hands[i]),
               "dd_table": tables[i].astype(int).tolist(), "dealer": int(dealers[i]),
               "vul": int(vuls[i]), "par_ns": int(par_ns[i]),
               "par_contract": contracts[i].astype(int).tolist()} for i in range(BOARDS)]
    out = Path(__file__).with_name("bridge_dd.json")
    out.write_text(json.dumps({"solver": "endplay (DDS) calc_all_tables + par",
                               "boards": boards}, indent=0))
    print(f"wrote {out}: {BOARDS} boards")
