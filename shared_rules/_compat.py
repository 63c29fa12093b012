"""What the portable code needs that differs between CPython, CircuitPython and MicroPython.

- ``const``: the real one on CircuitPython/MicroPython (folded at compile time), a no-op here.
- ``Rng``: a small seeded PRNG (xorshift32). ``random`` differs between runtimes and lacks
  ``shuffle`` on MicroPython, so a seed must replay the same game on the Pico and the PC.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


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



class Package:
    """A package's ``__getattr__``, for attributes not set yet: ``__getattr__ =
    Package(__name__, "rules").attr`` (a bound method of one small object costs the device
    less heap than a function of its own in every package)."""

    def __init__(self, name, engine=None):
        self.name = name
        self.engine = engine

    def attr(self, name):
        """The package's module ``name``, imported (MicroPython's ``from package import
        module`` asks ``__getattr__`` before it looks for the file), else the engine module's
        name of that name (``from shared_rules import space_lunch`` then ``space_lunch.Solo``,
        as before the games had folders). The module first: a module that the engine imports,
        asking for it while the engine loads, must not load the engine again."""
        if name[:2] == "__":
            raise AttributeError(name)
        package = self.name
        try:
            return __import__(package + "." + name, None, None, [name])
        except ImportError as e:
            if name not in str(e):  # that module exists and failed to import: say why
                raise
        if self.engine is not None:
            module = __import__(package + "." + self.engine, None, None, [self.engine])
            if hasattr(module, name):
                return getattr(module, name)
        if package == "shared_rules":  # a module's name from before the games had folders
            from shared_rules._renamed import module

            found = module(name)
            if found is not None:
                return found
        raise AttributeError("module {!r} has no attribute {!r}".format(package, name))
