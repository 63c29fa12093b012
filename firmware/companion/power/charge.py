"""The charge a one-cell LiPo's voltage means (hardware/README.md, "Power"), portable.

Apart from idle.py so a box on USB (where the supply reads "on USB" and no charge is
worked out) does not keep the curve on its heap.
"""

from shared_rules._compat import const

# (millivolts, percent) down a LiPo's discharge at the box's light load; a cell's protection
# cuts it off near 3.0 V. Between two points the charge is interpolated.
_CURVE = ((4150, 100), (4050, 90), (3970, 80), (3900, 70), (3850, 60), (3800, 50),
          (3760, 40), (3730, 30), (3690, 20), (3630, 10), (3550, 5), (3300, 0))
PLAUSIBLE_MV = const(2800)  # below this no LiPo is running the box: no reading at all


def percent(mv):
    """0..100 for a cell at ``mv`` millivolts; None for a reading no cell gives (a pin that
    reads 0, a board with nothing on VSYS)."""
    if mv < PLAUSIBLE_MV:
        return None
    hi_mv, hi_p = _CURVE[0]
    if mv >= hi_mv:
        return 100
    for lo_mv, lo_p in _CURVE[1:]:
        if mv >= lo_mv:
            return lo_p + (mv - lo_mv) * (hi_p - lo_p) // (hi_mv - lo_mv)
        hi_mv, hi_p = lo_mv, lo_p
    return 0
