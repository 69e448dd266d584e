from calc import add, mean, median, mul


def test_add():
    assert add(2, 3) == 5


def test_mul():
    assert mul(2, 3) == 6


def test_mean():
    assert mean([1, 2, 3]) == 2
    assert mean([1, 2]) == 1.5


def test_median():
    assert median([3, 1, 2]) == 2
    assert median([1, 2]) == 1.5
