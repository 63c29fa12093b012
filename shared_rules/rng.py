"""The project's PRNG: ``Rng``, a small seeded xorshift32. ``random`` differs between runtimes
and lacks ``shuffle`` on MicroPython, so a seed must replay the same game on the Pico and the
PC."""

from shared_rules._compat import const

_MASK32 = const(0xFFFFFFFF)


class Rng:
    """xorshift32 (Marsaglia 2003). The state is a non-zero 32-bit int, kept in ``state`` so a
    saved game can store it and replay the same rolls."""

    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed):
        s = int(seed) & _MASK32
        # Zero is the one state xorshift never leaves; map it (and mix small seeds)
        # deterministically.
        s ^= 0x9E3779B9
        self.state = s or 0x9E3779B9
        for _ in range(4):  # let small seeds diffuse before the first draw
            self.next32()

    def next32(self):
        x = self.state
        x ^= (x << 13) & _MASK32
        x ^= x >> 17
        x ^= (x << 5) & _MASK32
        self.state = x
        return x

    def randbelow(self, n):
        """A uniform int in [0, n), by rejection so no value is favoured."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0, got {}".format(n))
        limit = (_MASK32 + 1) - ((_MASK32 + 1) % n)
        while True:
            x = self.next32()
            if x < limit:
                return x % n

    def randrange(self, start, stop=None, step=1):
        if stop is None:
            start, stop = 0, start
        if step <= 0:
            raise ValueError("randrange needs a positive step")
        n = (stop - start + step - 1) // step
        if n <= 0:
            raise ValueError("empty range for randrange({}, {})".format(start, stop))
        return start + step * self.randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    def choice(self, seq):
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def weighted(self, pairs):
        """The item of one of the ``(item, weight)`` pairs, each with chance weight/total: how
        the engines draw a chance action from their ``chance_outcomes()``."""
        total = 0
        for _, w in pairs:
            total += w
        if total <= 0:
            raise ValueError("no outcome has a positive weight")
        r = self.randbelow(total)
        for item, w in pairs:
            if r < w:
                return item
            r -= w

    def shuffle(self, items):
        """Fisher-Yates in place."""
        i = len(items) - 1
        while i > 0:
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
