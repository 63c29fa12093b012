"""The PRNG yields the same sequence on CPython and MicroPython (this module runs in both)."""

from _harness import raises
from shared_rules._compat import const
from shared_rules.rng import Rng

# Computed once and frozen: a change here breaks every saved seed, so it must be deliberate.
EXPECTED_SEED_42 = [103786203, 2892188545, 1735534600, 1813258001, 289363370]


def test_const_is_identity():
    assert const(7) == 7


def test_expected_sequence():
    rng = Rng(42)
    assert [rng.next32() for _ in range(5)] == EXPECTED_SEED_42


def test_state_replays():
    a = Rng(123)
    for _ in range(10):
        a.next32()
    b = Rng(0)
    b.state = a.state
    assert [a.randrange(6) for _ in range(20)] == [b.randrange(6) for _ in range(20)]


def test_zero_seed_is_not_stuck():
    rng = Rng(0)
    values = [rng.next32() for _ in range(3)]
    assert values[0] != 0 and len(set(values)) == 3


def test_randrange_bounds_and_coverage():
    rng = Rng(7)
    seen = [0] * 6
    for _ in range(600):
        v = rng.randrange(6)
        assert 0 <= v < 6
        seen[v] += 1
    assert min(seen) > 60
    for _ in range(100):
        v = rng.randrange(3, 10, 2)
        assert v in (3, 5, 7, 9)
        assert 1 <= rng.randint(1, 3) <= 3


def test_shuffle_is_a_permutation_and_deterministic():
    a = list(range(12))
    b = list(range(12))
    Rng(99).shuffle(a)
    Rng(99).shuffle(b)
    assert a == b
    assert sorted(a) == list(range(12))
    assert a != list(range(12))


def test_choice_and_errors():
    rng = Rng(5)
    assert rng.choice("abc") in "abc"
    with raises(IndexError):
        rng.choice([])
    with raises(ValueError):
        rng.randrange(0)
    with raises(ValueError):
        rng.randbelow(-1)


def test_weighted_follows_the_weights():
    rng = Rng(11)
    counts = [0, 0, 0]
    for _ in range(900):
        counts[rng.weighted([(0, 1), (1, 0), (2, 2)])] += 1
    assert counts[1] == 0
    assert 240 < counts[0] < 360 and 540 < counts[2] < 660
    with raises(ValueError):
        rng.weighted([])
    with raises(ValueError):
        rng.weighted([("a", 0)])
