"""Fitting text into a fixed number of character cells (portable)."""


def count(n, word):
    """"1 day", "7 days": a number and its noun, in words a player reads."""
    return "{} {}{}".format(n, word, "" if n == 1 else "s")


def fit(text, cells):
    """``text`` cut to ``cells`` characters, ending in '~' when something was cut. ``text``
    may be a tuple of phrasings, longest first: the first that fits (the last one cut when
    none does), so a line says as much as the display has room for."""
    if isinstance(text, tuple):
        for t in text:
            if len(t) <= cells:
                return t
        text = text[-1]
    text = str(text)
    if cells <= 0:
        return ""
    if len(text) <= cells:
        return text
    if cells == 1:
        return "~"
    return text[:cells - 1] + "~"


def wrap(text, cells, max_lines=0):
    """Word-wrap ``text`` into lines of at most ``cells`` characters.

    Words longer than a line are split. Explicit newlines are kept. With ``max_lines`` the
    result is cut to that many lines, the last one ending in '~' when text was dropped.
    """
    if cells <= 0:
        return []
    lines = []
    for para in str(text).split("\n"):
        line = ""
        for word in para.split():
            while len(word) > cells:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:cells])
                word = word[cells:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= cells:
                line = line + " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    while len(lines) > 1 and lines[-1] == "":
        lines.pop()
    if max_lines and len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        lines[-1] = (last[:cells - 1] if len(last) >= cells else last) + "~"
    return lines
