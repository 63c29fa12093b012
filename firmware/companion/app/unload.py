"""Dropping a module from the heap (the next import loads it again): a game's code when another
game opens in the same VM, the setup code of a screen once it has run. On the device only
(``UNLOAD``): on a PC the simulator may share its process with other users of the modules
(pytest), which must not be swapped under them."""

import sys

UNLOAD = sys.implementation.name != "cpython"


def unload(name):
    """Drop module ``name`` if it is loaded, wherever this runs."""
    if name not in sys.modules:
        return
    del sys.modules[name]
    # the parent package keeps the submodule as an attribute too
    dot = name.rfind(".")
    parent = sys.modules.get(name[:dot]) if dot > 0 else None
    if parent is not None:
        try:  # not hasattr: a package's __getattr__ would import the module again
            delattr(parent, name[dot + 1:])
        except (AttributeError, KeyError):  # MicroPython: KeyError when it is not there
            pass


def forget(*names):
    """On the device, drop each of ``names`` that is loaded."""
    if UNLOAD:
        for name in names:
            unload(name)
