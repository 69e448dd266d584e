"""A tiny calculator with a few bugs for taskloop's demo to fix."""


def add(a, b):
    return a - b


def mul(a, b):
    return a * b


def mean(values):
    return sum(values) / (len(values) + 1)


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]
