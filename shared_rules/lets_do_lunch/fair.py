"""Let's Do Lunch: the roll history against fair dice, in words a table understands.

Fair dice give each sum 3..9 in 1, 3, 6, 7, 6, 3, 1 of the 27 ways three dice (1, 2, 3 each)
can fall. ``rows`` compares the match's counts (``Match.counts``) with that; ``verdict`` puts
the chi-square test of ``shared_rules.lets_do_lunch.rules`` (exact integers, critical values for 6
degrees of freedom, no floats) into words.
"""

from shared_rules.lets_do_lunch.rules import SUM_WEIGHTS, chi_square_x100, fairness

MIN_ROLLS = 135  # the rarest sums (1 in 27) are then expected at least 5 times

_WORDS = (
    ("few rolls", "Too few rolls to judge: {} of {}."),
    ("fair", "The dice look fair."),
    ("doubtful", "Odd: fair dice do this under 1 time in 20."),
    ("unfair", "Suspicious: fair dice do this under 1 time in 100."),
)


def total(counts):
    n = 0
    for c in counts:
        n += c
    return n


def rows(counts):
    """[(sum, rolled, expected x10, ways of 27)] for sums 3..9; expected is n*ways/27 rounded to
    a tenth (an int, shown as "12.3")."""
    n = total(counts)
    out = []
    for k in range(7):
        w = SUM_WEIGHTS[k]
        out.append((k + 3, counts[k], (20 * n * w + 27) // 54, w))
    return out


def tenths(x10):
    return "{}.{}".format(x10 // 10, x10 % 10)


def verdict(counts):
    """(one word, a sentence) for the counts so far."""
    word = fairness(counts)
    for w, sentence in _WORDS:
        if w == word:
            return word, sentence.format(total(counts), MIN_ROLLS)
    return word, word


def chi_text(counts):
    """The statistic as "chi2 4.21 (6 df)"; the 5% point is 12.59."""
    return "chi2 {} (6 df)".format(tenths_100(chi_square_x100(counts)))


def tenths_100(x100):
    return "{}.{:02d}".format(x100 // 100, x100 % 100)
