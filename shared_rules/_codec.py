"""Helpers the engines share for their saved bytes and the names they number."""


def checksum(body):
    """A Fletcher-style sum of the state bytes (mod 256, so any one changed byte shows): it
    catches a flipped byte that would still make a consistent-looking state."""
    a = 0
    b = 0
    for x in body:
        a = (a + x) & 255
        b = (b + a) & 255
    return bytes([b, a])


def open_state(data, name, version, min_len):
    """Check the frame of an engine's saved bytes (type, length, checksum, version) before the
    engine reads the body; ValueError names the game and what is wrong."""
    if not isinstance(data, (bytes, bytearray)) or len(data) < min_len:
        raise ValueError("not a {} state".format(name))
    if checksum(data[:-2]) != bytes(data[-2:]):
        raise ValueError("{} state fails its checksum".format(name))
    if data[0] != version:
        raise ValueError("unknown {} state version {}".format(name, data[0]))


def loaded(g, data, name):
    """Engine ``g`` after its body was read from ``data``: the same bytes must come back, so
    padding or an ordering that to_bytes never writes is refused (ValueError naming it)."""
    if g.to_bytes() != bytes(data):
        raise ValueError("{} state is not in canonical form".format(name))
    return g


def index_of(names, name, what):
    """The index of ``name`` in ``names``; ValueError names the unknown ``what``."""
    for i in range(len(names)):
        if names[i] == name:
            return i
    raise ValueError("unknown {} {!r}".format(what, name))
