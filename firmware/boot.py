"""Runs once at power-up: the USB data channel next to the console (the host tools talk over
it; find it by interface name, the port order is not guaranteed)."""

import usb_cdc

usb_cdc.enable(console=True, data=True)
