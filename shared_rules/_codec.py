"""Helpers the engines share for their saved bytes."""


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


class SnapshotUndo:
    """Undo by snapshots of ``to_bytes()`` (ending in the 2-byte checksum), kept in RAM only,
    up to ``max_undo``. The engine provides ``to_bytes()`` and ``_load(body)``."""

    def _init_undo(self, max_undo):
        if type(max_undo) is not int or max_undo < 0:
            raise ValueError("max_undo must be an int >= 0, got {!r}".format(max_undo))
        self.max_undo = max_undo
        self._undo = []

    def _remember(self):
        """Call just before an action changes the state."""
        if self.max_undo:
            self._undo.append(self.to_bytes())
            if len(self._undo) > self.max_undo:
                self._undo.pop(0)

    def undo(self):
        """Take back the last action (up to ``max_undo`` of them; not kept by to_bytes)."""
        if not self._undo:
            raise ValueError("nothing to undo")
        self._load(self._undo.pop()[:-2])

    def can_undo(self):
        return len(self._undo) > 0
