"""What the portable code needs that differs between CPython, CircuitPython and MicroPython.

- ``const``: the real one on CircuitPython/MicroPython (folded at compile time), a no-op here.
- ``Package``: the packages' ``__getattr__`` (a module imported when it is asked for).

The project's PRNG is rng.py's: apart, so the device's menu, which needs only ``const``, does
not hold it.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


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
        raise AttributeError("module {!r} has no attribute {!r}".format(package, name))
