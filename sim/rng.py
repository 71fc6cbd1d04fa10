"""Counter-based random streams: the generator of match ``i`` is a pure function of
``(seed, i, stream)``.

Each stream is a xoshiro256** generator whose 256-bit state is filled by SplitMix64
from a key that mixes the seed, the match index and the stream id. Nothing depends on
thread, chunk or machine, so match ``i`` is bitwise identical everywhere, and stream
``DEAL_STREAM`` (the cards) does not depend on the policies: common random numbers
for every comparison. numba's ``np.random`` is never used in kernels (its state is
per thread and seeded from the OS).
"""

from __future__ import annotations

import numpy as np

from sim.jit import jit

DEAL_STREAM = 0
"""Stream that deals the cards; policy streams are ``policy_stream(seat)``."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)
_2POW32 = np.uint64(1 << 32)


def policy_stream(seat: int) -> int:
    """Stream id that feeds the policy sitting at ``seat``."""
    return 1 + seat


@jit
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@jit
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@jit
def seed_stream(state, seed, index, stream):
    """Fill ``state`` (uint64[4]) for stream ``stream`` of match ``index``."""
    key = _mix(np.uint64(seed) + _GOLDEN)
    key = _mix(key ^ (np.uint64(index) * _GOLDEN))
    key = _mix(key ^ (np.uint64(stream) + _M2))
    for j in range(4):
        key += _GOLDEN
        state[j] = _mix(key)


@jit
def _step(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in local variables (so that loops keep it
    in registers): (64 random bits, new state)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@jit
def _below(n, s0, s1, s2, s3):
    """``below`` on a state in local variables: (draw, new state)."""
    bound = np.uint64(n)
    x, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
    m = (x >> np.uint64(32)) * bound
    low = m & _MASK32
    if low < bound:
        threshold = (_2POW32 - bound) % bound
        while low < threshold:
            x, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
            m = (x >> np.uint64(32)) * bound
            low = m & _MASK32
    return np.int64(m >> np.uint64(32)), s0, s1, s2, s3


@jit
def next_u64(state):
    """Next 64 random bits (xoshiro256**)."""
    result, state[0], state[1], state[2], state[3] = _step(state[0], state[1], state[2],
                                                           state[3])
    return result


@jit
def below(state, n):
    """Uniform integer in ``[0, n)`` for ``0 < n < 2**32``, without bias (Lemire)."""
    j, state[0], state[1], state[2], state[3] = _below(n, state[0], state[1], state[2],
                                                       state[3])
    return j


@jit
def uniform(state):
    """Uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def shuffle(state, items):
    """Fisher-Yates shuffle of ``items`` in place."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(items.shape[0] - 1, 0, -1):
        j, s0, s1, s2, s3 = _below(i + 1, s0, s1, s2, s3)
        items[i], items[j] = items[j], items[i]
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
