from stats import spread


def test_spread():
    assert spread([1, 5, 3]) == 4
