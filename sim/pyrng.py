"""Plain-Python twin of ``sim/rng.py`` for the reference engines and referees: the same
counter-based streams (SplitMix64-keyed xoshiro256**, Lemire's bounded integers, the
Fisher-Yates shuffle), number for number, with Python ints. Kept in step with the
numba original; ``tests/test_auktsion_reference.py`` compares the two."""

from __future__ import annotations

MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
DEAL_STREAM = 0


def _mix(z: int) -> int:
    """SplitMix64's finaliser on a 64-bit int."""
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


class Stream:
    """Random stream ``stream`` of match ``index`` of the run with ``seed``: the same
    numbers as ``sim.rng`` gives the kernel (xoshiro256** seeded by SplitMix64)."""

    __slots__ = ("s0", "s1", "s2", "s3")

    def __init__(self, seed: int, index: int, stream: int):
        key = _mix((seed + _GOLDEN) & MASK64)
        key = _mix(key ^ ((index * _GOLDEN) & MASK64))
        key = _mix(key ^ ((stream + _M2) & MASK64))
        state = []
        for _ in range(4):
            key = (key + _GOLDEN) & MASK64
            state.append(_mix(key))
        self.s0, self.s1, self.s2, self.s3 = state

    def next_u64(self) -> int:
        """Next 64 random bits (xoshiro256**)."""
        s0, s1, s2, s3 = self.s0, self.s1, self.s2, self.s3
        x = (s1 * 5) & MASK64
        result = ((((x << 7) & MASK64) | (x >> 57)) * 9) & MASK64
        t = (s1 << 17) & MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self.s0, self.s1, self.s2 = s0, s1, s2
        self.s3 = ((s3 << 45) & MASK64) | (s3 >> 19)
        return result

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` for ``0 < n < 2**32``, without bias (Lemire)."""
        m = (self.next_u64() >> 32) * n
        low = m & _MASK32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & _MASK32
        return m >> 32

    def uniform(self) -> float:
        """Uniform float in ``[0, 1)`` with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / 9007199254740992.0)

    def shuffle(self, items: list) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
