"""The hardware profiles (hardware/profiles/*.toml): reading and checking them against the
boards' pins, and the documents made from them (`lunchbox profile`). The device commands and
the simulator both build from a profile."""
