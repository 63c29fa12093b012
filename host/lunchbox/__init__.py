"""The `lunchbox` host command: flash, sync, doctor, sim and friends."""

__version__ = "0.1.0"
