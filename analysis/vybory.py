"""vybory's own statistics: contract types, the election and the value of a type by
the hand of the seat that named it first (``rules/vybory.md``).

Tours (matches) are the independent units. A tour plays several deals, and a contract
type occurs in a varying number of them, so every per-deal figure here is a *ratio*:
the sum over tours of the quantity over the sum over tours of the deals it counts
(the denominator is deals, never seat rows), with a 95% interval from the ratio's
linearisation clustered by tour (``analysis.ratios``). pandas, NumPy and SciPy only; no
plotting (that is ``reports``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from analysis.ratios import (
    cluster_sums,
    clustered_slope,
    paired_ratio,
    per_cluster,
    ratio_by,
    ratio_ci,
)
from sim.games.vybory import core as C

SUITS = "CDHS"
LOW_RANKS = (0, 1, 2, 3)
"""Ranks 2, 3, 4, 5 (rank index 0..12 is 2..A)."""
HONOUR_RANKS = (9, 10, 11, 12)
"""Ranks J, Q, K, A."""
LOW_MASK = sum(1 << (13 * s + r) for s in range(4) for r in LOW_RANKS)
HONOUR_MASK = sum(1 << (13 * s + r) for s in range(4) for r in HONOUR_RANKS)
SUIT_MASK = 0x1FFF

FEATURES = {"low": "low cards (2-5)", "honours": "honours (A, K, Q, J)",
            "longest": "longest suit", "trumps": "trumps held"}
"""Hand features: column -> what it counts."""
BUCKETS: dict[str, tuple[tuple[int, int, str], ...]] = {
    "low": ((0, 2, "0-2"), (3, 3, "3"), (4, 4, "4"), (5, 5, "5"), (6, 13, "6+")),
    "honours": ((0, 2, "0-2"), (3, 3, "3"), (4, 4, "4"), (5, 5, "5"), (6, 13, "6+")),
    "longest": ((4, 4, "4"), (5, 5, "5"), (6, 6, "6"), (7, 13, "7+")),
    "trumps": ((0, 1, "0-1"), (2, 2, "2"), (3, 3, "3"), (4, 4, "4"), (5, 5, "5"),
               (6, 13, "6+")),
}
"""Per feature, ``(lowest, highest, label)`` of each bucket, in order."""


# -- hands ----------------------------------------------------------------------------

def _popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(np.asarray(x, np.int64).astype(np.uint64)).astype(np.int64)


def suit_lengths(hands: np.ndarray) -> np.ndarray:
    """Cards of each suit (C, D, H, S) in each hand mask: shape ``(n, 4)``."""
    h = np.asarray(hands, np.int64)
    return np.stack([_popcount((h >> (13 * s)) & SUIT_MASK) for s in range(4)], axis=1)


def hand_features(hands: np.ndarray, trump: np.ndarray | None = None) -> pd.DataFrame:
    """Per hand mask (bit ``suit * 13 + rank``): ``low`` (cards 2-5), ``honours`` (A, K,
    Q, J), ``longest`` (length of the longest suit) and, with ``trump`` (a suit 0..3 per
    hand, -1 for none), ``trumps`` (cards of that suit; NaN without a trump suit)."""
    h = np.asarray(hands, np.int64)
    lengths = suit_lengths(h)
    out = pd.DataFrame({"low": _popcount(h & LOW_MASK), "honours": _popcount(h & HONOUR_MASK),
                        "longest": lengths.max(axis=1) if len(h) else np.zeros(0, np.int64)})
    if trump is not None:
        t = np.asarray(trump, np.int64)
        held = lengths[np.arange(len(h)), np.clip(t, 0, 3)].astype(np.float64)
        out["trumps"] = np.where(t >= 0, held, np.nan)
    return out


def type_trumps(codes: Sequence[int] | np.ndarray, type_set: str = "standard") -> np.ndarray:
    """The trump suit (0..3, C D H S; -1: none) of each contract type code 1..8."""
    alt = C.TYPE_SETS.index(type_set)
    return C.TRUMP[alt][np.asarray(codes, np.int64)]


def type_names(type_set: str = "standard") -> tuple[str, ...]:
    """The eight type names of ``type_set``, code 1 first."""
    return C.NAMES[C.TYPE_SETS.index(type_set)]


def bucket(values: pd.Series | np.ndarray, feature: str) -> pd.Series:
    """Each value's bucket label (:data:`BUCKETS`), an ordered categorical; NaN stays NaN."""
    spec = BUCKETS[feature]
    v = pd.Series(np.asarray(values, np.float64))
    out = pd.Series(pd.NA, index=v.index, dtype=object)
    for lo, hi, label in spec:
        out[(v >= lo) & (v <= hi)] = label
    return pd.Series(pd.Categorical(out, categories=[b[2] for b in spec], ordered=True),
                     index=values.index if isinstance(values, pd.Series) else v.index)


# -- contract types and the election --------------------------------------------------

def deal_outcomes(deals: pd.DataFrame) -> pd.DataFrame:
    """The ``deals`` table with the attackers' ``win``, ``draw``, ``loss`` (0/1),
    ``score`` (win 1, draw 1/2) and ``margin`` (attack_points - defence_points)."""
    r = deals["result"].to_numpy()
    return deals.assign(win=(r == 1).astype(float), draw=(r == 0).astype(float),
                        loss=(r == -1).astype(float), score=(r == 1) + 0.5 * (r == 0),
                        margin=(deals["attack_points"] - deals["defence_points"]).astype(float))


def contract_types(deals: pd.DataFrame, type_set: str = "standard") -> pd.DataFrame:
    """One row per contract type code 1..8 (all eight, played or not): ``code,
    contract, deals, share`` of all deals, and per deal of the type the attackers'
    ``win``, ``draw``, ``margin`` and the election's ``calls`` (each with ``<name>_ci_low``,
    ``<name>_ci_high``: 95% intervals clustered by tour; the denominator is deals)."""
    d = deal_outcomes(deals)
    clusters = np.unique(d["match"].to_numpy())
    _, all_n = cluster_sums(d, None, clusters, "match")
    names = type_names(type_set)
    rows = []
    for code in range(1, len(names) + 1):
        part = d[d["contract_code"] == code]
        ys, _ = cluster_sums(part, None, clusters, "match")
        row = {"code": code, "contract": names[code - 1], "deals": len(part),
               "tours": int((ys > 0).sum())}
        row["share"], row["share_ci_low"], row["share_ci_high"] = ratio_ci(ys, all_n, proportion=True)
        for value in ("win", "draw", "margin", "calls"):
            y, n = cluster_sums(part, value, clusters, "match")
            row[value], row[f"{value}_ci_low"], row[f"{value}_ci_high"] = ratio_ci(
                y, n, proportion=value in ("win", "draw"))
        rows.append(row)
    return pd.DataFrame(rows)


def announcement_shares(seats: pd.DataFrame, type_set: str = "standard") -> pd.DataFrame:
    """Share of all announcements naming each type (``seats``' ``named_1..named_8``),
    clustered by tour: ``code, contract, announcements, share, ci_low, ci_high`` (the
    denominator is announcements)."""
    names = type_names(type_set)
    cols = [f"named_{c}" for c in range(1, len(names) + 1)]
    per = seats.groupby("match")[cols].sum()
    total = per.sum(axis=1).to_numpy(np.float64)
    rows = []
    for code, col in enumerate(cols, 1):
        y = per[col].to_numpy(np.float64)
        mean, lo, hi = ratio_ci(y, total)
        rows.append({"code": code, "contract": names[code - 1], "announcements": int(y.sum()),
                     "share": mean, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def election_lengths(deals: pd.DataFrame) -> pd.DataFrame:
    """Per election length (``calls``, 2..9): ``calls, deals, share`` of all deals and
    the attackers' ``win`` share and ``margin`` in those deals, with intervals clustered
    by tour (``<name>_ci_low``, ``<name>_ci_high``)."""
    d = deal_outcomes(deals)
    clusters = np.unique(d["match"].to_numpy())
    _, all_n = cluster_sums(d, None, clusters, "match")
    rows = []
    for calls in sorted(d["calls"].unique()):
        part = d[d["calls"] == calls]
        ys, _ = cluster_sums(part, None, clusters, "match")
        row = {"calls": int(calls), "deals": len(part)}
        row["share"], row["share_ci_low"], row["share_ci_high"] = ratio_ci(ys, all_n, proportion=True)
        for value in ("win", "margin"):
            y, n = cluster_sums(part, value, clusters, "match")
            row[value], row[f"{value}_ci_low"], row[f"{value}_ci_high"] = ratio_ci(y, n)
        rows.append(row)
    return pd.DataFrame(rows)


def election_round(calls: np.ndarray | pd.Series, players: int = 4) -> np.ndarray:
    """The round (1, 2, 3) of the call that ended each election of ``calls`` calls."""
    return (np.asarray(calls, np.int64) - 1) // players + 1


# -- the first announcer's hand -------------------------------------------------------

def first_announcer_hands(deals: pd.DataFrame, deal_seats: pd.DataFrame,
                          type_set: str = "standard") -> pd.DataFrame:
    """One row per deal: the deal's outcomes (:func:`deal_outcomes`) with the hand
    features (:func:`hand_features`) of the seat that named the contract type first,
    ``trumps`` counted in the contract's trump suit (NaN for a type without trumps)."""
    d = deal_outcomes(deals)
    hands = deal_seats[["match", "deal", "seat", "hand"]].rename(
        columns={"seat": "first_announcer"})
    merged = d.merge(hands.astype({"first_announcer": d["first_announcer"].dtype}),
                     on=["match", "deal", "first_announcer"], how="left", validate="one_to_one")
    if merged["hand"].isna().any():
        raise ValueError("deal_seats lacks the first announcer's row of some deals")
    trump = type_trumps(merged["contract_code"].to_numpy(), type_set)
    feats = hand_features(merged["hand"].to_numpy(np.int64), trump)
    return pd.concat([merged.reset_index(drop=True), feats], axis=1)


def margin_by_feature(frame: pd.DataFrame, feature: str, value: str = "margin",
                      by: str = "contract") -> pd.DataFrame:
    """Mean ``value`` per ``by`` and bucket of ``feature`` (:data:`BUCKETS`), rows being
    deals, with intervals clustered by tour over every tour of ``frame``: ``contract,
    feature, bucket, deals, tours, mean, ci_low, ci_high``."""
    clusters = np.unique(frame["match"].to_numpy())
    f = frame.assign(bucket=bucket(frame[feature], feature)).dropna(subset=["bucket"])
    out = ratio_by(f, [by, "bucket"], value, clusters=clusters)
    if out.empty:
        return out.assign(feature=feature)
    out.insert(1, "feature", feature)
    out["bucket"] = pd.Categorical(out["bucket"], categories=[b[2] for b in BUCKETS[feature]],
                                   ordered=True)
    return out.sort_values([by, "bucket"], kind="stable").reset_index(drop=True)


def feature_slopes(frame: pd.DataFrame, value: str = "margin", by: str = "contract",
                   features: Sequence[str] = tuple(FEATURES)) -> pd.DataFrame:
    """Per ``by`` and feature: the least-squares slope of ``value`` on the feature (per
    card more), clustered by tour: ``contract, feature, slope, ci_low, ci_high, rows,
    tours``."""
    rows = []
    for key, part in frame.groupby(by, sort=True):
        for feat in features:
            if feat in part and part[feat].notna().any():
                rows.append({by: key, "feature": feat,
                             **clustered_slope(part, feat, value)})
    return pd.DataFrame(rows)


def house_effects(base: pd.DataFrame, runs: dict[str, pd.DataFrame],
                  metrics: Sequence[str]) -> pd.DataFrame:
    """Per house variant and per-deal figure (``metrics``: ``deal_outcomes``' columns and
    ``late``, a deal played in types 6-8), the default's and the variant's value and
    their difference, paired by tour (the ``deals`` tables of runs on the same seed):
    ``variant, metric, default, value, diff, ci_low, ci_high, p_value``."""
    def prepared(d):
        return deal_outcomes(d).assign(late=(d["contract_code"] >= 6).astype(float))

    b = prepared(base)
    tours = np.unique(b["match"].to_numpy())
    rows = []
    for label, deals in runs.items():
        v = prepared(deals)
        for key in metrics:
            r = paired_ratio(per_cluster(b, key, tours), per_cluster(v, key, tours))
            rows.append({"variant": label, "metric": key, "default": r["base"],
                         "value": r["value"], "diff": r["diff"], "ci_low": r["ci_low"],
                         "ci_high": r["ci_high"], "p_value": r["p_value"]})
    return pd.DataFrame(rows)
