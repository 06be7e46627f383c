"""Shared fixtures of the Python tests: the battery subsets of test/data
read as numbers (the same strtod-exact parsing as the C tests)."""
import csv
import os

import numpy as np
import pytest

DATA = os.environ.get("SOV_TEST_DATA_DIR", os.path.join(os.path.dirname(__file__), "..", "data"))
SUBSETS = ["paper_subset.csv", "stress_subset.csv"]


def read_battery(name):
    """(ids, body 1 rows, body 2 rows): rows of a1 a2 a3 eps1 eps2 tx ty qw qx qy qz px py pz."""
    with open(os.path.join(DATA, name), newline="") as f:
        rows = [[float(x) for x in r] for r in list(csv.reader(f))[1:] if r]
    a = np.array(rows)
    return a[:, 0].astype(np.int64), a[:, 1:15], a[:, 15:29]


@pytest.fixture(params=SUBSETS)
def battery(request):
    """One battery subset: (name, ids, body 1 rows, body 2 rows)."""
    return (request.param, *read_battery(request.param))
