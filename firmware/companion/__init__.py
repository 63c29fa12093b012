"""Lunchbox device app. Everything below companion/core/ is hardware-free and portable."""

__version__ = "0.1.0"
