"""The hardware profiles every screen test runs on (hardware/profiles/): the two reference
displays, a colour TFT with 4 buttons and a mono OLED with 5 (their sizes and button sets
differ). The one list: conftest's ``profile`` fixture and the tests that parametrize at
collection (the play-throughs, the real-CircuitPython lane) all take it from here."""

PROFILES = ("pico-display-pack", "pico-ssd1306-5btn")
