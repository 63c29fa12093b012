"""The games registry's "no flow worse by more than 1 KB" check: a fresh lane run with nothing
held back (``bench/cp_heap.py --hold 0 --json AFTER``) against the tree before the registry
(``bench/data/descriptor_baseline.json``, bench/descriptor_baseline.md says how it was
measured), screen by screen.

    .venv/bin/python bench/descriptor_compare.py AFTER.json [--label TEXT]

Per flow and display: the least free over the steps both trees reached as the flow means them
(for a flow the old tree crashed in, the steps before its crash), the difference, and the
matched screen where the tree now has the least beside the old one. Prints a markdown table.
"""

import argparse
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "data" / "descriptor_baseline.json"
LIKE_FOR_LIKE = {"tree": "before", "hold": 0, "heap_start": 163840, "drive": "mpy"}
TRACE = "170852e's trace.py wrapping app.step"  # the plain hook, not the diagnostics


def before_rows(baseline):
    """{(flow, profile): row} of the old tree, like for like with the lane as shipped."""
    out = {}
    for b in baseline:
        if all(b.get(k) == v for k, v in LIKE_FOR_LIKE.items()) and b["trace"].startswith(TRACE):
            out.setdefault((b["flow"], b["profile"]), b)
    return out


def compare(before, after):
    """One dict per flow and display both trees ran."""
    out = []
    for a in after:
        b = before.get((a["flow"], a["profile"]))
        if b is None:
            continue
        reached = b["per_screen"]
        if b.get("crash_steps"):
            cut = list(reached).index(b["crash_steps"][0]) if b["crash_steps"][0] in reached \
                else len(reached)
            reached = dict(list(reached.items())[:cut])
        now = {r["screen"]: r["free"] for r in a["rows"] if r["free"] is not None}
        both = [s for s in reached if s in now and reached[s] is not None]
        if not both:
            continue
        worst = min(both, key=lambda s: now[s] - reached[s])
        least_b = min(reached[s] for s in both)
        least_a = min(now[s] for s in both)
        out.append({"flow": a["flow"], "display": "st7789" if "display" in a["profile"]
                    else "ssd1306", "before": least_b, "after": least_a,
                    "diff": least_a - least_b, "worst": worst,
                    "worst_diff": now[worst] - reached[worst], "steps": len(both),
                    "of": len(b["per_screen"]), "crash": b.get("crash"),
                    "complete": a["complete"]})
    return out


def markdown(rows, label):
    out = ["| flow | display | before (e86ef1a) | {} | after - before | worst screen "
           "(after - before) | steps compared | before: crash |".format(label),
           "|---|---|---:|---:|---:|---|---|---|"]
    for r in rows:
        out.append("| {} | {} | {} | {} | {:+d} | {} ({:+d}) | {} of {} | {} |".format(
            r["flow"], r["display"], r["before"], r["after"], r["diff"], r["worst"],
            r["worst_diff"], r["steps"], r["of"], r["crash"] or "-"))
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("after")
    ap.add_argument("--label", default="after")
    args = ap.parse_args(argv)
    after = json.loads(Path(args.after).read_text())
    if any(a["hold"] for a in after):
        raise SystemExit("{}: run with --hold 0 (the baseline held nothing)".format(args.after))
    print(markdown(compare(before_rows(json.loads(BASELINE.read_text())), after), args.label))


if __name__ == "__main__":
    main()
