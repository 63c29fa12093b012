"""Space Lunch widgets: the 3x3 food grid with its tokens, and the food picker wheel.

The grid is nine cells of a card each: a face (the food's colour on the colour display) with
the food's number, inside a frame that marks the cursor (white) or the Automa's next card
(red). On the mono display the cursor is inverse video and the Automa's card is framed. The
Pick token is a bar under its column, the Solo token a bar left of its row. Boxes are vectorio
shapes (ui.rect), each with its own one-colour palette.
"""

import displayio

from companion.screen.ui import rect, show, text

# Twelve foods, twelve colours far apart (and the number on each in black or white).
FOOD_COLORS = (0xE6194B, 0x3CB44B, 0xFFE119, 0x4363D8, 0xF58231, 0x911EB4,
               0x42D4F4, 0xF032E6, 0xBFEF45, 0xFABED4, 0x469990, 0x9A6324)
DARK_TEXT = (3, 7, 9, 10)  # light faces: black numbers

NONE = 0
CURSOR = 1
AUTOMA = 2
WAITING = 3  # a space waiting for its card


def food_color(food):
    return FOOD_COLORS[(food - 1) % 12]


def ink(d, food):
    """The number's colour on a food's face."""
    if d.mono or not food:
        return d.FG
    return 0x000000 if food in DARK_TEXT else 0xFFFFFF


class FoodGrid:
    def __init__(self, d, left, top, cw, ch, scale, bar):
        self.d = d
        self.left, self.top, self.cw, self.ch = left, top, cw, ch
        self.group = displayio.Group()
        m = 1 if d.mono else 3  # frame width inside the slot
        fw, fh = cw - 2, ch - (0 if d.mono else 2)
        self.frames, self.faces, self.labels = [], [], []
        self.state = [None] * 9
        for c in range(9):
            x = left + (c % 3) * cw
            y = top + (c // 3) * ch
            frame = rect(x + 1, y + (0 if d.mono else 1), fw, fh, d.FG)
            frame.hidden = True
            face = rect(x + m, y + m, cw - 2 * m, ch - 2 * m, d.BG)
            lab = text(d, "", x + cw // 2, y + ch // 2, d.FG, scale, (0.5, 0.5))
            for part in (frame, face, lab):
                self.group.append(part)
            self.frames.append(frame)
            self.faces.append(face)
            self.labels.append(lab)
        self.pick = rect(left + 1, top + 3 * ch, cw - 2, bar, d.ACCENT)
        self.solo = rect(0, top + 2, max(2, left - 2), ch - 4, d.ACCENT)
        self.group.append(self.pick)
        self.group.append(self.solo)

    def set(self, c, food, mark=NONE, shown=""):
        """Cell c shows ``food`` (0: empty) with a mark; ``shown`` overrides the number
        (e.g. "?" for a space waiting for its card)."""
        d = self.d
        s = shown if shown else (str(food) if food else "")
        key = (food, mark, s)
        if self.state[c] == key:
            return
        self.state[c] = key
        face, frame, lab = self.faces[c], self.frames[c], self.labels[c]
        if d.mono:
            inverse = mark == CURSOR
            face.pixel_shader[0] = d.FG if inverse else d.BG
            lab.color = d.BG if inverse else d.FG
            show(frame, mark == AUTOMA)  # a waiting space shows its "?" alone
        else:
            face.pixel_shader[0] = food_color(food) if food else d.BG
            lab.color = ink(d, food)
            show(frame, mark != NONE)
            frame.pixel_shader[0] = (d.FG if mark == CURSOR else d.BAD if mark == AUTOMA
                                     else d.DIM)
        if lab.text != s:
            lab.text = s

    def tokens(self, pick, solo):
        """The Pick token under column ``pick``; the Solo token beside row ``solo`` (None:
        no Solo token, the two-player game)."""
        self.pick.x = self.left + pick * self.cw + 1
        # (ui.show: a shown layer told to show again is drawn whole at the next refresh)
        show(self.solo, solo is not None)
        if solo is not None:
            self.solo.y = self.top + solo * self.ch + 2


class Wheel:
    """The food picker: the food being entered in the middle, on a bar of its colour, with its
    neighbours above and below (prev goes up, next goes down; the list wraps)."""

    def __init__(self, d, left, top, width, row_h, scale):
        self.d = d
        self.group = displayio.Group()
        self.bar = rect(left, top + row_h + 1, width, row_h - 2, d.SEL_BG)
        self.group.append(self.bar)
        self.labels = []
        for i in range(3):
            lab = text(d, "", left + width // 2, top + i * row_h + row_h // 2, d.FG, scale,
                       (0.5, 0.5))
            self.labels.append(lab)
            self.group.append(lab)
        self.group.hidden = True

    def show(self, choices, index):
        d = self.d
        n = len(choices)
        food = choices[index]
        texts = ("", str(food), "")
        if n > 1:
            texts = (str(choices[(index - 1) % n]), str(food), str(choices[(index + 1) % n]))
        if n == 2:
            texts = ("", texts[1], texts[2])
        for i in range(3):
            if self.labels[i].text != texts[i]:
                self.labels[i].text = texts[i]
        if d.mono:
            self.labels[1].color = d.SEL_FG
        else:
            self.bar.pixel_shader[0] = food_color(food)
            self.labels[1].color = ink(d, food)
        self.group.hidden = False

    def hide(self):
        self.group.hidden = True
