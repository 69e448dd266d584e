"""Statistics built on calc: it depends on calc.mean being right."""
from calc import mean


def spread(values):
    return max(values) - min(values)
