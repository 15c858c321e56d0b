"""The package itself: type objects, python -m ufjit, the version."""
import os
import subprocess
import sys

import ufjit
from ufjit import float32, float64, int32, void


def test_type_objects_spell_numba_signatures():
    assert str(float64[:]) == "float64[:]"
    assert str(float64[:, ::1]) == "float64[:, ::1]"
    assert str(float64[::1, :]) == "float64[::1, :]"
    assert str(void(float64[:], int32)) == "void(float64[:], int32)"
    assert str(float32(float32, float32)) == "float32(float32, float32)"
    v = float32(2.5)
    assert type(v).__name__ == "float32" and v == 2.5


def test_python_m_ufjit_sysinfo_is_the_command():
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-m", "ufjit", "sysinfo"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "LLVM" in r.stdout
    from ufjit.__main__ import _cli
    direct = subprocess.run([_cli(), "sysinfo"], capture_output=True,
                            text=True)
    # the same report, line for line, but for what changes between runs
    def stable(text):
        return [line for line in text.splitlines()
                if "Time stamp" not in line and "Memory available" not in line]
    assert stable(r.stdout) == stable(direct.stdout)


def test_version():
    assert ufjit.__version__.count(".") == 2


def test_numba_type_objects_are_accepted_too():
    """A file importing the types from numba and the decorators from
    ufjit: Numba's own type objects become the same signature text."""
    numba = __import__("pytest").importorskip("numba")
    from ufjit.types import signature_text
    assert signature_text(numba.int32(numba.int32, numba.float64[:, ::1])) \
        == "int32(int32, float64[:, ::1])"
    assert signature_text(numba.void(numba.float32[::1, :], numba.boolean)) \
        == "void(float32[::1, :], boolean)"
    assert signature_text((numba.int32[:], numba.int32)) == \
        "int32[:], int32"
