"""Runs once at power-up: the USB data channel next to the console (the host tools talk over
it; find it by interface name, the port order is not guaranteed). CircuitPython's: MicroPython
has no second USB channel (the host reads the record files with mpremote), and no usb_cdc."""

try:
    import usb_cdc
except ImportError:  # MicroPython
    usb_cdc = None

if usb_cdc is not None:
    usb_cdc.enable(console=True, data=True)
