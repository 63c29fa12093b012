"""A fake ``microcontroller.nvm`` that behaves like CircuitPython's on RP2 (one flash sector).

Like ports/raspberrypi/common-hal/nvm/ByteArray.c: a slice assignment over bytes that are all
still erased (0xFF) only programs them; anything else copies the sector, overlays the new
bytes, erases the whole sector to 0xFF and programs all of it back from byte 0. It counts
erase cycles and bytes programmed, and can lose power part-way through a write:

- ``cut_after = k``: power fails after k more bytes are programmed (a prefix survives).
  With ``tear`` (an Rng), the byte at the cut is left half-programmed (some of its bits);
  with ``tear_page`` too, every byte from the cut to the end of its 256-byte flash page is
  (a page is programmed as a whole, so a cut can catch all of it part-way).
- ``erase_cut`` (an Rng): power fails during the next erase; every byte keeps its old bits
  plus some random ones set (erasing sets bits to 1 gradually, all over the sector).

Losing power raises PowerCut (a BaseException, so code that catches Exception cannot hide
it); the fake then refuses writes until ``power_on()``. Portable: runs on MicroPython too.
"""


class PowerCut(BaseException):
    pass


class FlashNVM:
    def __init__(self, size=4096, data=None):
        if data is not None:
            self.mem = bytearray(data)
        else:
            self.mem = bytearray(b"\xff" * size)
        self.erases = 0
        self.programmed = 0  # bytes programmed (the whole sector for an erase-and-write)
        self.writes = 0  # slice assignments
        self.cut_after = None
        self.tear = None
        self.tear_page = False
        self.erase_cut = None
        self.dead = False

    def __len__(self):
        return len(self.mem)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return bytearray(self.mem[key])
        return self.mem[key]

    def power_on(self):
        self.dead = False
        self.cut_after = None
        self.tear = None
        self.erase_cut = None

    def copy(self):
        other = FlashNVM(data=self.mem)
        return other

    def __setitem__(self, key, value):
        if self.dead:
            raise PowerCut("no power")
        n = len(self.mem)
        if isinstance(key, slice):
            if key.step not in (None, 1):
                raise ValueError("nvm slices have no step")
            start = 0 if key.start is None else key.start
            stop = n if key.stop is None else key.stop
            value = bytes(value)
        else:
            start, stop, value = key, key + 1, bytes((value,))
        if start < 0 or stop > n or stop - start != len(value):
            raise ValueError("nvm slice {}:{} cannot take {} bytes".format(start, stop,
                                                                           len(value)))
        self.writes += 1
        mem = self.mem
        if mem[start:stop] == b"\xff" * (stop - start):
            self._program(start, value)
            return
        buf = bytearray(mem)
        buf[start:stop] = value
        self.erases += 1
        if self.erase_cut is not None:
            rng = self.erase_cut
            for i in range(n):
                mem[i] |= rng.next32() & rng.next32() & 0xFF
            self.dead = True
            raise PowerCut("power cut during erase")
        mem[0:n] = b"\xff" * n
        self._program(0, buf)

    def _program(self, start, data):
        size = len(data)
        if self.cut_after is not None and self.cut_after < size:
            k = self.cut_after
            self.mem[start:start + k] = data[:k]
            self.programmed += k
            if self.tear is not None and k < size:
                stop = k + 1
                if self.tear_page:
                    stop = min(size, (start + k) // 256 * 256 + 256 - start)
                for j in range(k, stop):
                    want = data[j]
                    self.mem[start + j] = want | (self.tear.next32() & ~want & 0xFF)
            self.dead = True
            raise PowerCut("power cut after {} bytes".format(k))
        if self.cut_after is not None:
            self.cut_after -= size
        self.mem[start:start + size] = data
        self.programmed += size
