"""CRC-32 (the zlib / PNG / Ethernet one) for the nvm save log.

Pure Python, portable. The state is kept as two 16-bit halves and folded in a nibble at a time
through two 16-entry tables, so every intermediate value stays a small int on a Pico (a 32-bit
value would be a heap-allocated long on CircuitPython and MicroPython). ``crc32`` uses the
runtime's C version instead when it has one (CPython, most MicroPython builds); both give the
same numbers, which the tests check.
"""

# T[n] = the CRC register after shifting nibble n through the reflected polynomial 0xEDB88320,
# low and high 16 bits. Two literal tuples: nothing is built at import.
_LO = (0x0000, 0x1064, 0x20C8, 0x30AC, 0x4190, 0x51F4, 0x6158, 0x713C,
       0x8320, 0x9344, 0xA3E8, 0xB38C, 0xC2B0, 0xD2D4, 0xE278, 0xF21C)
_HI = (0x0000, 0x1DB7, 0x3B6E, 0x26D9, 0x76DC, 0x6B6B, 0x4DB2, 0x5005,
       0xEDB8, 0xF00F, 0xD6D6, 0xCB61, 0x9B64, 0x86D3, 0xA00A, 0xBDBD)

CHECK = 0xCBF43926  # crc32(b"123456789"), the standard check value

try:
    from binascii import crc32 as _native
except ImportError:
    _native = None
_native_ok = None  # unknown until first use: some ports ship a binascii.crc32 of another kind


def crc32_pure(data, start=0, end=None):
    """CRC-32 of ``data[start:end]`` (bytes, bytearray or memoryview) without slicing it."""
    if end is None:
        end = len(data)
    lo = 0xFFFF
    hi = 0xFFFF
    tlo = _LO
    thi = _HI
    for i in range(start, end):
        lo ^= data[i]
        n = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ tlo[n]
        hi = (hi >> 4) ^ thi[n]
        n = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ tlo[n]
        hi = (hi >> 4) ^ thi[n]
    return ((hi ^ 0xFFFF) << 16) | (lo ^ 0xFFFF)


def crc32(data, start=0, end=None):
    """CRC-32 of ``data[start:end]``, by the runtime's C function when it has a correct one."""
    global _native_ok
    if _native_ok is None:
        _native_ok = False
        if _native is not None:
            try:
                _native_ok = (_native(b"123456789") & 0xFFFFFFFF) == CHECK
            except Exception:  # any oddity: use the pure version
                _native_ok = False
    if not _native_ok:
        return crc32_pure(data, start, end)
    if end is None:
        end = len(data)
    if start == 0 and end == len(data):
        return _native(data) & 0xFFFFFFFF
    return _native(memoryview(data)[start:end]) & 0xFFFFFFFF
