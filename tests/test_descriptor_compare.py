"""bench/descriptor_compare.py, the games registry's before/after check on the lane: fed the
baseline file's own "after" rows (170852e), it gives the differences
bench/descriptor_baseline.md states for them."""

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import descriptor_compare  # noqa: E402


def after_170852e(baseline):
    out, seen = [], set()
    for a in baseline:
        key = (a["flow"], a["profile"])
        if (a["tree"] == "after" and a["hold"] == 0 and a["heap_start"] == 163840
                and a["drive"] == "mpy" and key not in seen):
            seen.add(key)
            out.append({"flow": a["flow"], "profile": a["profile"], "hold": 0,
                        "complete": True, "rows": [{"screen": s, "free": f}
                                                   for s, f in a["per_screen"].items()]})
    return out


def test_the_baselines_own_after_rows_give_its_stated_differences():
    baseline = json.loads(descriptor_compare.BASELINE.read_text())
    rows = descriptor_compare.compare(descriptor_compare.before_rows(baseline),
                                      after_170852e(baseline))
    got = {(r["flow"], r["display"]): r for r in rows}
    # bench/descriptor_baseline.md, the like-for-like table
    assert got[("aqua_brunch", "st7789")]["diff"] == -592
    assert got[("aqua_brunch", "ssd1306")]["diff"] == -6912
    assert got[("start", "ssd1306")]["diff"] == -16336
    solo = got[("space_lunch solo", "st7789")]  # the old tree crashed at its 4th step
    assert (solo["steps"], solo["of"], solo["diff"]) == (3, 20, 7472)
    assert "pystack" in solo["crash"]
    table = descriptor_compare.markdown(rows, "170852e")
    assert "| aqua_brunch | st7789 | 61104 | 60512 | -592 |" in table


def test_the_after_table_in_the_baseline_doc_is_the_after_runs():
    """bench/descriptor_baseline.md's last table is descriptor_compare's of the recorded
    hold-0 run (bench/data/descriptor_after.json): the doc says what the data says."""
    baseline = json.loads(descriptor_compare.BASELINE.read_text())
    after = json.loads((BENCH / "data" / "descriptor_after.json").read_text())
    assert all(a["hold"] == 0 and a["complete"] for a in after)
    rows = descriptor_compare.compare(descriptor_compare.before_rows(baseline), after)
    table = descriptor_compare.markdown(rows, "now (d96f47f)")
    assert table in (BENCH / "descriptor_baseline.md").read_text()
