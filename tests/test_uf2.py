"""UF2 validation: valid images for both chips pass; each kind of broken file is refused
with its own message."""

import struct
from pathlib import Path

import pytest

from lunchbox.device import flash, uf2
from lunchbox.device.uf2 import UF2Error

PAYLOAD = bytes(range(256)) * 300  # 75 KiB: just over the minimum sane size


def image(family=uf2.RP2040, payload=PAYLOAD):
    return uf2.build(payload, family)


def patch(data, block, offset, value):
    buf = bytearray(data)
    struct.pack_into("<I", buf, block * 512 + offset, value)
    return bytes(buf)


def test_valid_rp2040():
    info = uf2.validate(image(), chip="RP2040")
    assert info.chip == "RP2040"
    assert info.blocks == 300
    assert info.payload_bytes == len(PAYLOAD)
    assert info.low == uf2.FLASH_BASE
    assert "RP2040" in info.describe()


def test_valid_rp2350_with_absolute_block():
    # picotool puts a one-block "absolute" family image before RP2350 firmware (erratum E10)
    extra = uf2.build(bytes(256), uf2.RP2XXX_ABSOLUTE, base=0x10FFFF00)
    info = uf2.validate(extra + image(uf2.RP2350_ARM_S), chip="RP2350")
    assert info.chip == "RP2350"
    assert info.payload_bytes == len(PAYLOAD)


def test_chip_optional():
    assert uf2.validate(image(uf2.RP2350_ARM_S)).chip == "RP2350"


def test_blocks_out_of_order_are_fine():
    data = image()
    blocks = [data[i:i + 512] for i in range(0, len(data), 512)]
    shuffled = b"".join(blocks[1::2] + blocks[0::2])
    assert uf2.validate(shuffled).blocks == 300


BROKEN = {
    "empty": (lambda d: b"", "empty"),
    "shorter than a block": (lambda d: d[:100], "shorter than one 512-byte"),
    "truncated mid-block": (lambda d: d[:-100], "truncated"),
    "zip file": (lambda d: b"PK\x03\x04" + d[4:], "zip archive"),
    "html error page": (lambda d: b"<!DOCTYPE html>" + d[15:], "web page"),
    "bad start magic": (lambda d: patch(d, 5, 4, 0x12345678), "block 5 has wrong start magic"),
    "bad end magic": (lambda d: patch(d, 7, 508, 0), "block 7 has a wrong end magic"),
    "no family flag": (lambda d: patch(d, 3, 8, 0), "block 3 has no family id"),
    "file container": (lambda d: patch(d, 0, 8, 0x3000), "file-container"),
    "payload too big": (lambda d: patch(d, 2, 16, 477), "claims 477 payload bytes"),
    "payload not 256": (lambda d: patch(d, 2, 16, 128), "exactly 256"),
    "block number past count": (lambda d: patch(d, 4, 20, 300), "numbered 300 of 300"),
    "inconsistent count": (lambda d: patch(d, 9, 24, 301), "inconsistent"),
    "duplicate block number": (lambda d: patch(d, 9, 20, 8), "appears twice"),
    "missing blocks": (lambda d: d[:512 * 299], "1 of 300 blocks are missing"),
    "unaligned address": (lambda d: patch(d, 1, 12, uf2.FLASH_BASE + 0x101), "256-byte page"),
    "address outside flash": (lambda d: patch(d, 1, 12, 0x20000000), "outside the RP2 flash"),
    "overlapping addresses": (lambda d: patch(d, 1, 12, uf2.FLASH_BASE), "both write"),
    "other microcontroller": (lambda d: uf2.build(PAYLOAD, 0x68ED2B88), "(SAMD21)"),
    "mixed chips": (lambda d: d + uf2.build(PAYLOAD, uf2.RP2350_ARM_S, base=0x10100000),
                    "not those of an RP2040 or RP2350"),
    "too small": (lambda d: uf2.build(bytes(4096), uf2.RP2040), "too small"),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_broken_files_refused(kind):
    make, message = BROKEN[kind]
    with pytest.raises(UF2Error) as err:
        uf2.validate(make(image()), chip="RP2040")
    assert message in str(err.value), str(err.value)
    assert err.value.hint


def test_wrong_chip_for_board():
    with pytest.raises(UF2Error, match=r"an RP2350 \(RP2350 Arm secure\) image, but this "
                                       r"board needs an RP2040 one"):
        uf2.validate(image(uf2.RP2350_ARM_S), chip="RP2040")
    with pytest.raises(UF2Error, match="an RP2040 image, but this board needs an RP2350 one"):
        uf2.validate(image(uf2.RP2040), chip="RP2350")


def test_unknown_chip_argument():
    with pytest.raises(UF2Error, match="unknown chip"):
        uf2.validate(image(), chip="ESP32")


def test_not_main_flash_blocks_skipped_for_addresses():
    data = patch(image(), 1, 8, uf2.FLAG_FAMILY_ID | uf2.FLAG_NOT_MAIN_FLASH)
    data = patch(data, 1, 12, 0)  # a metadata block may point anywhere
    info = uf2.validate(data)
    assert info.payload_bytes == len(PAYLOAD) - 256


@pytest.mark.parametrize("text,chip", [
    ("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n", "RP2040"),
    ("UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n", "RP2350"),
    ("UF2 Bootloader v3.0\nModel: Adafruit Feather M0\nBoard-ID: SAMD21G18A\n", None),
])
def test_chip_from_info(text, chip):
    assert uf2.chip_from_info(text) == chip


def test_rp2350_absolute_block_sharing_one_numbering():
    main = image(uf2.RP2350_ARM_S)
    extra = uf2.build(bytes(256), uf2.RP2XXX_ABSOLUTE, base=0x10FFFF00)
    total = len(main) // 512 + 1
    data = patch(patch(extra, 0, 24, total), 0, 20, 0)
    for i in range(len(main) // 512):
        main = patch(patch(main, i, 24, total), i, 20, i + 1)
    assert uf2.validate(data + main, chip="RP2350").payload_bytes == len(PAYLOAD)
    # one block short of that shared numbering is still refused
    with pytest.raises(UF2Error, match="missing"):
        uf2.validate(data + main[:-512], chip="RP2350")


REAL = Path(__file__).resolve().parent / "cp"


@pytest.mark.parametrize("version", ["9.2.2", "10.0.0"])
def test_adafruits_own_pico_images_pass(version):
    """The real release images of both majors the docs name (tests/cp/README.md: where they
    come from, their sha256): a whole RP2040 image, and the version and board read from it."""
    data = (REAL / "adafruit-circuitpython-raspberry_pi_pico-en_US-{}.uf2".format(version)
            ).read_bytes()
    info = uf2.validate(data, chip="RP2040")
    assert info.chip == "RP2040" and info.low == uf2.FLASH_BASE
    fw = uf2.identify(data)
    assert (fw.kind, fw.version_text, fw.board, fw.chip) == (
        "CircuitPython", version, "Raspberry Pi Pico", "rp2040")
    flash.check_firmware(fw, board="raspberry_pi_pico")  # flash takes it for a Pico
    with pytest.raises(UF2Error, match="but the board is"):
        flash.check_firmware(fw, board="raspberry_pi_pico2")
