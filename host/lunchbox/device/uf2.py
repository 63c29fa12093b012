"""UF2 firmware files: check one before it goes anywhere near a bootloader drive.

A UF2 file is a run of 512-byte blocks (Microsoft's uf2 spec): two start magics, flags,
target address, payload size, block number, block count, family id (when flag 0x2000 is
set), up to 476 bytes of payload and an end magic. The RP2 bootloaders write whatever a
well-formed block says, so a wrong-family or truncated file is refused here, before writing.
"""

import re
import struct

from ..errors import LunchboxError
from .drives import version_tuple

BLOCK = 512
MAGIC_START0 = 0x0A324655
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
MAX_PAYLOAD = 476

FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FILE_CONTAINER = 0x00001000
FLAG_FAMILY_ID = 0x00002000

RP2040 = 0xE48BFF56
RP2XXX_ABSOLUTE = 0xE48BFF57  # picotool's extra block for the RP2350-E10 erratum
RP2350_ARM_S = 0xE48BFF59
RP2350_RISCV = 0xE48BFF5A
RP2350_ARM_NS = 0xE48BFF5B

FAMILY_NAMES = {
    RP2040: "RP2040",
    RP2XXX_ABSOLUTE: "RP2XXX absolute",
    RP2350_ARM_S: "RP2350 Arm secure",
    RP2350_RISCV: "RP2350 RISC-V",
    RP2350_ARM_NS: "RP2350 Arm non-secure",
    0x68ED2B88: "SAMD21",
    0x55114460: "SAMD51",
    0xADA52840: "nRF52840",
    0xC47E5767: "ESP32-S3",
    0xBFDD4EEE: "ESP32-S2",
}

# chip -> (families that may carry the firmware, families allowed beside them)
CHIP_FAMILIES = {
    "RP2040": ((RP2040,), ()),
    "RP2350": ((RP2350_ARM_S, RP2350_RISCV, RP2350_ARM_NS), (RP2XXX_ABSOLUTE,)),
}

FLASH_BASE = 0x10000000
FLASH_MAX = 16 * 1024 * 1024  # the RP2 XIP window; a Pico has 2 MB, a Pico 2 has 4 MB
# CircuitPython for RP2 is well over a megabyte; anything below this is not a firmware image.
MIN_PAYLOAD = 64 * 1024

_HEADER = struct.Struct("<8I")


class UF2Error(LunchboxError):
    """A UF2 file that must not be written."""


def family_name(family):
    return FAMILY_NAMES.get(family, "unknown family 0x{:08X}".format(family))


class UF2Info:
    """What validate() learned: enough to print and to match a bootloader."""

    def __init__(self, chip, families, blocks, payload_bytes, low, high):
        self.chip = chip
        self.families = families
        self.blocks = blocks
        self.payload_bytes = payload_bytes
        self.low = low
        self.high = high
        self.firmware = None  # what the image says it is: identify() (set by flash)

    def describe(self):
        return "{} UF2, {} blocks, {} KiB of flash at 0x{:08X}-0x{:08X}".format(
            self.chip, self.blocks, self.payload_bytes // 1024, self.low, self.high
        )


def _fail(message, hint=None):
    raise UF2Error(message, hint=hint or "use a CircuitPython .uf2 from circuitpython.org "
                   "for your board, downloaded completely")


def _not_uf2(data):
    if data[:2] == b"PK":
        return "it is a zip archive, not a UF2 (unzip it first?)"
    if data[:1] == b":":
        return "it looks like an Intel HEX file, not a UF2"
    if data[:4] in (b"<!DO", b"<htm", b"<HTM"):
        return "it is a web page, not a UF2 (the download saved an error page?)"
    return "block 0 does not start with the UF2 magic numbers: not a UF2 file"


def validate(data, chip=None, min_payload=MIN_PAYLOAD):
    """Check ``data`` (bytes) as a UF2 firmware image; return a UF2Info or raise UF2Error.

    ``chip`` ("RP2040" / "RP2350"), when given, must match the file's family id. The checks,
    in order: the file's size, each block's header (_HEADER_CHECKS), its numbering and the
    flash it writes, every block there, then the chip the families make and the payload."""
    if chip is not None and chip not in CHIP_FAMILIES:
        raise UF2Error("unknown chip {!r}".format(chip), hint="use RP2040 or RP2350")
    _check_size(data)
    groups = {}  # family -> {"count": numBlocks, "seen": set of blockNo}
    written = {}  # target address -> the block writing it (overlap check)
    for block in _blocks(data):
        _number(block, groups)
        if not block.flags & FLAG_NOT_MAIN_FLASH:  # else comments the bootloader skips
            _place(block, written)
    _check_complete(groups)
    families = sorted(groups)
    file_chip = _chip_of(families, chip)
    firmware = [b for b in written.values() if b.family != RP2XXX_ABSOLUTE]
    payload_bytes = sum(b.size for b in firmware)
    if payload_bytes < min_payload:
        _fail("the file writes only {} bytes of flash: too small to be CircuitPython "
              "(expected over {} KiB)".format(payload_bytes, min_payload // 1024))
    return UF2Info(file_chip, families, len(data) // BLOCK, payload_bytes,
                   min((b.addr for b in firmware), default=None),
                   max((b.addr + b.size for b in firmware), default=None))


def _check_size(data):
    size = len(data)
    if size == 0:
        _fail("the file is empty")
    if size % BLOCK:
        if size > BLOCK and struct.unpack_from("<2I", data, 0) == (MAGIC_START0, MAGIC_START1):
            _fail("the file is {} bytes, not a whole number of 512-byte blocks: it is "
                  "truncated (last block has {} bytes)".format(size, size % BLOCK))
        if size < BLOCK:
            _fail("the file is {} bytes, shorter than one 512-byte UF2 block".format(size))
        _fail("the file is {} bytes, not a whole number of 512-byte blocks".format(size))
    if size > 2 * FLASH_MAX:
        _fail("the file is {} MiB, too big for any RP2 flash".format(size >> 20))


class _Block:
    """One block's header: ``index`` in the file, ``number`` of ``count`` in its family."""

    def __init__(self, index, data):
        off = index * BLOCK
        (m0, m1, self.flags, self.addr, self.size, self.number, self.count,
         self.family) = _HEADER.unpack_from(data, off)
        self.index = index
        self.start = (m0, m1)
        (self.end,) = struct.unpack_from("<I", data, off + BLOCK - 4)


_RP2_FAMILIES = (RP2040,) + CHIP_FAMILIES["RP2350"][0] + CHIP_FAMILIES["RP2350"][1]

# A block's header, after its start magics: (what is wrong, the message), in order.
_HEADER_CHECKS = (
    (lambda b: b.end != MAGIC_END,
     "block {index} has a wrong end magic number: the file is corrupt"),
    (lambda b: b.flags & FLAG_FILE_CONTAINER,
     "block {index} is a file-container block: this UF2 packs files, not firmware"),
    (lambda b: not b.flags & FLAG_FAMILY_ID,
     "block {index} has no family id, so it cannot be checked against the chip"),
    (lambda b: b.size == 0 or b.size > MAX_PAYLOAD,
     "block {index} claims {size} payload bytes (allowed 1..%d)" % MAX_PAYLOAD),
    (lambda b: b.family in _RP2_FAMILIES and b.size != 256,
     "block {index} carries {size} bytes; RP2 bootloaders need exactly 256 per block"),
    (lambda b: b.count == 0 or b.number >= b.count,
     "block {index} is numbered {number} of {count}: numbering is broken"),
)


def _blocks(data):
    """Each block of the file whose header passes the checks (the first that fails raises)."""
    for index in range(len(data) // BLOCK):
        block = _Block(index, data)
        if block.start != (MAGIC_START0, MAGIC_START1):
            _fail(_not_uf2(data) if index == 0 else
                  "block {} has wrong start magic numbers: the file is corrupt".format(index))
        for wrong, message in _HEADER_CHECKS:
            if wrong(block):
                _fail(message.format(**vars(block)))
        yield block


def _number(block, groups):
    """The block's number, unique in its family, whose blocks all give the same count."""
    group = groups.get(block.family)
    if group is None:
        group = groups[block.family] = {"count": block.count, "seen": set()}
    elif group["count"] != block.count:
        _fail("block {} says the file has {} blocks but earlier blocks said {}: "
              "numbering is inconsistent".format(block.index, block.count, group["count"]))
    if block.number in group["seen"]:
        _fail("block number {} appears twice (block {}): the file is "
              "corrupt".format(block.number, block.index))
    group["seen"].add(block.number)


def _place(block, written):
    """Where the block writes: a 256-byte page of the RP2 flash no other block writes."""
    index, addr = block.index, block.addr
    if addr % 256:
        _fail("block {} targets 0x{:08X}, not on a 256-byte page".format(index, addr))
    if block.family != RP2XXX_ABSOLUTE and not (
        FLASH_BASE <= addr and addr + block.size <= FLASH_BASE + FLASH_MAX
    ):
        _fail("block {} targets 0x{:08X}, outside the RP2 flash "
              "(0x{:08X}..)".format(index, addr, FLASH_BASE))
    if addr in written:
        _fail("blocks {} and {} both write address 0x{:08X}: the file is "
              "corrupt".format(written[addr].index, index, addr))
    written[addr] = block


def _check_complete(groups):
    """Every block number there. Each family's blocks are numbered on their own, or (one
    image for several families, as a tool may do for the RP2350's extra block) all blocks
    share one numbering."""
    counts = {g["count"] for g in groups.values()}
    shared = set()
    for g in groups.values():
        shared |= g["seen"]
    one_numbering = (len(groups) > 1 and len(counts) == 1
                     and sum(len(g["seen"]) for g in groups.values()) == len(shared)
                     and len(shared) == counts.pop())
    for family in sorted(groups):
        group = groups[family]
        if len(group["seen"]) != group["count"] and not one_numbering:
            missing = sorted(set(range(group["count"])) - group["seen"])
            _fail("{} of {} blocks are missing (first missing: block number {}): the file "
                  "is truncated or corrupt".format(len(missing), group["count"], missing[0]))


def _chip_of(families, chip):
    """The chip the file's families make (it must be ``chip`` when that is given)."""
    file_chip = None
    for name in sorted(CHIP_FAMILIES):
        main, extra = CHIP_FAMILIES[name]
        if any(f in main for f in families) and all(f in main + extra for f in families):
            file_chip = name
    if file_chip is None:
        _fail("the file's family ids ({}) are not those of an RP2040 or RP2350 "
              "image".format(", ".join(family_name(f) for f in families)))
    if chip is not None and file_chip != chip:
        fams = ", ".join(family_name(f) for f in families)
        raise UF2Error(
            "the file is an {} image, but this board needs an {} one".format(
                file_chip if fams == file_chip else "{} ({})".format(file_chip, fams), chip),
            hint="download the CircuitPython UF2 made for your board "
                 "(Pico = RP2040, Pico 2 = RP2350)")
    return file_chip


def build(payload, family, base=FLASH_BASE, block_payload=256, flags=FLAG_FAMILY_ID):
    """Pack ``payload`` into UF2 blocks (used by tests and the bench to make test images)."""
    chunks = [payload[i:i + block_payload] for i in range(0, len(payload), block_payload)]
    out = bytearray()
    for n, chunk in enumerate(chunks):
        header = _HEADER.pack(MAGIC_START0, MAGIC_START1, flags, base + n * block_payload,
                              len(chunk), n, len(chunks), family)
        body = chunk + bytes(MAX_PAYLOAD - len(chunk))
        out += header + body + struct.pack("<I", MAGIC_END)
    return bytes(out)


def chip_from_info(text):
    """The chip named by a bootloader's INFO_UF2.TXT, or None when it does not say."""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip().lower()
        value = value.strip()
        if key in ("board-id", "model"):
            upper = value.upper()
            if "RP2350" in upper:
                return "RP2350"
            if "RPI-RP2" in upper or "RP2040" in upper or upper.endswith("RP2"):
                return "RP2040"
    return None


# What a firmware image says it is. CircuitPython carries MICROPY_FULL_VERSION_INFO, e.g.
# "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040", in its flash
# payload (it is what boot_out.txt's first line and the REPL banner print); MicroPython
# carries "MicroPython v1.22.0 on 2023-12-27; Raspberry Pi Pico with RP2040".
_CIRCUITPYTHON = re.compile(
    rb"Adafruit CircuitPython ([0-9][0-9A-Za-z.+-]{0,40}) on ([0-9][0-9-]{0,20});"
    rb" ([\x20-\x3a\x3c-\x7e]{1,80}?) with ([A-Za-z0-9_-]{1,20})")
_MICROPYTHON = re.compile(
    rb"MicroPython (v?[0-9][0-9A-Za-z.+-]{0,40}) on ([0-9][0-9-]{0,20});"
    rb" ([\x20-\x3a\x3c-\x7e]{1,80}?) with ([A-Za-z0-9_-]{1,20})")
# MicroPython 1.2x keeps the banner's two halves apart: "MicroPython v1.24.1 on 2024-11-29"
# (Pimoroni's: "MicroPython v1.23.0, pico v1.23.0-1 on 2024-06-06") and, elsewhere,
# "; Raspberry Pi Pico with RP2040" (MICROPY_BANNER_MACHINE)
_MICROPYTHON_NAME = re.compile(
    rb"MicroPython (v?[0-9][0-9A-Za-z.+-]{0,40})(?:, ([\x20-\x7e]{1,40}?))? on "
    rb"([0-9][0-9-]{0,20})\x00")
_MICROPYTHON_MACHINE = re.compile(
    rb"\x00; ([\x20-\x3a\x3c-\x7e]{1,80}?) with ([A-Za-z0-9_-]{1,20})\x00")
# Pimoroni's builds carry their PicoGraphics module (the Display Pack's driver)
_PICOGRAPHICS = b"picographics"


class Firmware:
    """What an image says it is: ``kind`` "CircuitPython", "MicroPython" or None (it does
    not say: a bare C program, or something else), its version, build date, board and chip
    names as written in it."""

    def __init__(self, kind=None, version_text=None, date=None, board=None, chip=None,
                 build=None, picographics=False):
        self.kind = kind
        self.build = build  # Pimoroni's "pico v1.23.0-1", or None
        self.picographics = picographics
        self.version_text = version_text
        self.date = date
        self.board = board
        self.chip = chip
        self.version = version_tuple(version_text)

    def describe(self):
        if self.kind is None:
            return "an image with no CircuitPython version string"
        return "{} {}{} ({}, for {} with {}{})".format(
            self.kind, self.version_text, ", " + self.build if self.build else "", self.date,
            self.board, self.chip, "; PicoGraphics" if self.picographics else "")


def flash_payload(data):
    """The bytes a UF2 writes to main flash, in address order (gaps are not filled: the
    strings looked for here never cross one)."""
    chunks = []
    for off in range(0, len(data) - len(data) % BLOCK, BLOCK):
        m0, m1, flags, addr, psize, _, _, _ = _HEADER.unpack_from(data, off)
        if (m0, m1) != (MAGIC_START0, MAGIC_START1) or flags & FLAG_NOT_MAIN_FLASH:
            continue
        psize = min(psize, MAX_PAYLOAD)
        chunks.append((addr, data[off + 32:off + 32 + psize]))
    chunks.sort(key=lambda c: c[0])
    return b"".join(c for _, c in chunks)


def identify(data):
    """The Firmware a UF2 image (bytes) says it is."""
    payload = flash_payload(data)
    for kind, pattern in (("CircuitPython", _CIRCUITPYTHON), ("MicroPython", _MICROPYTHON)):
        m = pattern.search(payload)
        if m:
            return Firmware(kind, *(g.decode("ascii") for g in m.groups()))
    m = _MICROPYTHON_NAME.search(payload)
    if m:
        machine = _MICROPYTHON_MACHINE.search(payload)
        board, chip = (g.decode("ascii") for g in machine.groups()) if machine else (None, None)
        build = m.group(2).decode("ascii") if m.group(2) else None
        return Firmware("MicroPython", m.group(1).decode("ascii"), m.group(3).decode("ascii"),
                        board, chip, build, _PICOGRAPHICS in payload)
    return Firmware()
