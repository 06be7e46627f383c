"""Runs one pytest file for ctest (test/python/CMakeLists.txt).

Exit code 77 (ctest's "Skipped") with the reason on stdout when the build
cannot host the extension module in python3 (SOV_PYTEST_SKIP: some
sanitizer builds); pytest's own exit code otherwise, where "no test ran"
(5) counts as a failure.
"""
import os
import sys

import pytest

reason = os.environ.get("SOV_PYTEST_SKIP")
if reason:
    print(f"skipped: {reason}")
    sys.exit(77)
code = pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]])
sys.exit(1 if code == 5 else int(code))
