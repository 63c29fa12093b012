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
