"""The board on the desk: CircuitPython onto a bare Pico (`lunchbox flash`: uf2, download,
drives, ports), the firmware onto CIRCUITPY (`lunchbox sync`: fileset, mpycross, sync) and
what is attached (`lunchbox doctor`)."""
