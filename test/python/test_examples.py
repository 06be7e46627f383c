"""The example scripts of python/examples run: the tour prints its
sections, the sweep writes its PNG (or says that matplotlib is missing)."""
import os
import subprocess
import sys

import pytest

EXAMPLES = os.environ.get("SOV_PYTHON_EXAMPLES_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "python", "examples"))


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args],
                          capture_output=True, text=True, timeout=240)


def test_tour_runs():
    p = run("example.py")
    assert p.returncode == 0, p.stderr
    assert "d = 0.210108125544" in p.stdout and "Error -6" in p.stdout
    assert "100000 pairs on" in p.stdout


def test_sweep_plot_is_written(tmp_path):
    out = tmp_path / "sweep.png"
    p = run("plot_distance_sweep.py", "--out", str(out), "--steps", "60")
    if p.returncode == 4:
        pytest.skip(p.stderr.strip())
    assert p.returncode == 0, p.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000
    assert "of 60 positions touching or overlapping" in p.stdout
