import sys
from pathlib import Path

# The firmware's own modules (companion, boot, code) import as they do on CIRCUITPY, but at the
# END of sys.path: firmware/code.py must never shadow the stdlib `code` module that pdb imports.
FIRMWARE = str(Path(__file__).resolve().parent.parent / "firmware")
if FIRMWARE not in sys.path:
    sys.path.append(FIRMWARE)
