"""Byte-flip fuzzing of an engine's saved state, shared by the engines' playthrough tests."""

import pytest

from shared_rules._codec import checksum


def flip_every_byte(load, check, states, deltas):
    """Change each byte of each saved state by each delta (``load`` reads a state, ``check`` is
    the engine's consistency check). Every flip must fail the checksum;
    the same flip resealed with a valid checksum must be rejected by the consistency checks or
    load as a consistent, playable state. Returns (rejected, accepted) resealed flips."""
    rejected = accepted = 0
    for data in states:
        for i in range(len(data)):
            for delta in deltas:
                bad = bytearray(data)
                bad[i] = (bad[i] + delta) % 256
                with pytest.raises(ValueError):  # the checksum catches every single flip
                    load(bytes(bad))
                if i >= len(data) - 2:
                    continue
                body = bytes(bad[:-2])
                try:
                    h = load(body + checksum(body))
                except ValueError:
                    rejected += 1
                    continue
                accepted += 1
                check(h)
                h.legal_actions()
    return rejected, accepted
