"""`lunchbox doctor`'s look through the data link: what the box says of itself, the figures of
its Settings > Check the box (firmware/companion/settings/boxcheck.py, the link's CHECK request),
so a first builder sees them on the computer too."""

from ..errors import LunchboxError


def words(figures):
    """One line a player reads: firmware and profile, free heap, time running, power."""
    parts = ["firmware {}".format(figures.get("firmware", "?"))]
    if figures.get("profile"):
        parts[0] += " ({})".format(figures["profile"])
    heap = figures.get("heap_free")
    if heap and heap.isdigit():
        parts.append("{:.1f} KB of heap free".format(int(heap) / 1024))
    run = figures.get("runtime_s")
    if run and run.isdigit():
        s = int(run)
        parts.append("running {}:{:02d}:{:02d}".format(s // 3600, s // 60 % 60, s % 60))
    battery = figures.get("battery")
    if battery == "usb":
        parts.append("on USB power")
    elif battery == "on":
        mv, pct = figures.get("battery_mv"), figures.get("battery_pct")
        cell = "on its battery"
        if mv and mv.isdigit():
            cell += " {:.2f} V".format(int(mv) / 1000)
        if pct and pct.isdigit():
            cell += " {}%".format(pct)
        parts.append(cell)
    elif battery == "none":
        parts.append("reads no battery")
    return ", ".join(parts)


def look(report, device, open_link=None):
    """Ask the box on data channel ``device`` for its figures and put them in ``report``.
    A box that cannot be asked is said in one line, never a traceback."""
    from ..records import link as rlink
    from ..records import linkproto as lp

    try:
        ln = (open_link or rlink.open_link)(device)
    except (OSError, LunchboxError) as e:
        report.see("box check on {}: the port would not open ({})".format(device, e))
        return None
    try:
        ln.hello()
        figures = ln.check()
    except lp.DeviceError as e:
        if e.code == lp.E_TYPE:
            report.note("the box on {} runs firmware older than its box check".format(device),
                        report.sync_cmd)
        else:
            report.see("box check on {}: the box refused ({})".format(device, e))
        return None
    except (OSError, LunchboxError) as e:
        report.see("box check on {}: {}".format(device, e))
        return None
    finally:
        try:
            ln.close()
        except OSError:
            pass
    report.see("the box says (Settings > Check the box): " + words(figures))
    return figures
