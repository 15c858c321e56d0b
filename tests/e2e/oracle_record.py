"""Numba's answers to the oracle cases, recorded so that CI need not compile
every kernel in Numba again.

CI starts with an empty Numba cache, and Numba spends 0.5-1 s compiling
each (kernel, signature): that was most of the test suite's time. So
check_cases looks a case up here first, and asks Numba only on a miss.
A record is Numba's own output, kept under the exact conditions it was
computed in: one file per driver and kernel file
(tests/e2e/recorded/DRIVER-STEM.pkl.gz), valid only while that kernel
file's bytes and the installed Numba and NumPy versions are the ones it
was recorded with (anything else: every case of the file goes to Numba
live), and one entry per case keyed by the kernel name, the expectation
and every input's dtype, shape, strides and bytes. Inputs a kernel writes
to are recorded too, so a hit leaves them as Numba left them.

UF_ORACLE_RECORD=1 writes back what Numba computed live
(scripts/record-oracles.sh runs every driver so).
"""
import fcntl
import gzip
import hashlib
import importlib.metadata
import os
import pickle
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD_DIR = os.path.join(HERE, "recorded")
FORMAT = 1


def _versions():
    try:
        return (importlib.metadata.version("numba"),
                importlib.metadata.version("numpy"))
    except importlib.metadata.PackageNotFoundError:
        return None


def _encode(h, v):
    """Feeds one input to the hash; False where it cannot be keyed."""
    if isinstance(v, np.ndarray):
        h.update(repr((v.dtype.str, v.shape, v.strides)).encode())
        h.update(np.ascontiguousarray(v).tobytes())
        return True
    if isinstance(v, np.generic):
        h.update(repr((v.dtype.str,)).encode())
        h.update(v.tobytes())
        return True
    if v is None or isinstance(v, (bool, int, float, complex, str)):
        h.update(repr((type(v).__name__, v)).encode())
        return True
    if isinstance(v, (tuple, list)):
        h.update(f"{type(v).__name__}{len(v)}(".encode())
        return all(_encode(h, x) for x in v)
    return False


class Record:
    """The recorded answers for one kernel file."""

    def __init__(self, path):
        # one file per driver and kernel file: drivers sharing a kernel
        # file ask it different questions, and may run side by side
        driver = os.path.basename(sys.argv[0])
        driver = driver.removeprefix("run_").removesuffix(".py")
        driver = driver.removesuffix("_oracle")
        stem = os.path.splitext(os.path.basename(path))[0]
        self.file = os.path.join(RECORD_DIR, f"{driver}-{stem}.pkl.gz")
        with open(path, "rb") as f:
            source = hashlib.sha256(f.read()).hexdigest()
        self.header = (FORMAT, source, _versions())
        self.writing = os.environ.get("UF_ORACLE_RECORD") == "1"
        self.entries, self.used = {}, {}
        self.hits = self.misses = 0
        self.entries = self._read()

    def _read(self):
        try:
            with gzip.open(self.file, "rb") as f:
                header, entries = pickle.load(f)
            if header == self.header:
                return entries
        except (OSError, EOFError, pickle.UnpicklingError, ValueError):
            pass
        return {}

    def key(self, kernel, expect, vals):
        h = hashlib.sha256(repr((kernel, expect)).encode())
        return h.hexdigest() if _encode(h, list(vals)) else None

    def get(self, key):
        """The recorded value of `key` (counted a hit), or None."""
        if key is None or key not in self.entries:
            return None
        self.hits += 1
        self.used[key] = self.entries[key]
        return self.entries[key]

    def put(self, key, value):
        """A value computed now (counted a miss), recorded when writing."""
        self.misses += 1
        if key is not None:
            self.used[key] = value

    def answer(self, key, vals, compute):
        """compute() on a miss; on a hit the recorded answer, with the
        inputs Numba wrote to written again."""
        hit = self.get(key)
        if hit is not None:
            answer, written = hit
            for i, a in written:
                np.copyto(vals[i], a)
            return answer
        before = [v.tobytes() if isinstance(v, np.ndarray) else None
                  for v in vals]
        answer = compute()
        written = [(i, v.copy()) for i, (v, b) in enumerate(zip(vals, before))
                   if b is not None and v.tobytes() != b]
        self.put(key, (answer, written))
        return answer

    def close(self):
        """Adds what Numba computed now to the record when recording (under
        a lock: drivers sharing a kernel file run side by side; entries of
        cases since removed go when the kernel file next changes); says
        how many answers came from the record."""
        if self.writing and self.misses and self.header[2]:
            os.makedirs(RECORD_DIR, exist_ok=True)
            with open(self.file + ".lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                keep = self._read()
                keep.update(self.used)
                tmp = self.file + ".tmp"
                with gzip.GzipFile(tmp, "wb", mtime=0) as f:
                    pickle.dump((self.header, keep), f, protocol=4)
                os.replace(tmp, self.file)
        if self.hits or self.misses:
            print(f"Numba: {self.hits} answers recorded "
                  f"({os.path.relpath(self.file, HERE)}), "
                  f"{self.misses} computed now")
