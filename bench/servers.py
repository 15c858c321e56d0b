"""Clients of the suite's C programs, which run as servers (one command
line in, one JSON line out) so that they keep their compiled kernels and
arrays while the harness alternates rounds between contenders."""
import json
import os
import subprocess
import time

# The harness's Python loads the oneTBB of its venv (PyPI's `tbb`, which
# run.py installs there) through LD_LIBRARY_PATH; the C programs must keep
# the system's, which ufjit was built with. Why: Numba 0.68 on the system's
# oneTBB 2021.8 (Debian 12), whose tbbpool makes and drops a task_arena on
# every parallel call, pays more for each call than for the one before
# (10-element calls: 9 us at first, 0.5 ms after 20,000 calls, 13 ms late
# in a full run) and a TBB worker then spins at 100% of a CPU for seconds
# after the calls, for ever once enough have been made, and at exit
# (tbb::finalize waits for it): it took a CPU from the C programs' 2-thread
# rounds (STREAM triad 21.9 GB/s instead of 30, ufjit's parallel rounds)
# and kept run.py busy after it wrote its results. On oneTBB 2023.2 the
# same calls stay at 6 us and nothing spins once they return.
SAVED_LD_PATH = "BENCH_C_LD_LIBRARY_PATH"


def use_lib_dir(lib):
    """Puts lib first in LD_LIBRARY_PATH for the processes about to start
    (run.py, before it execs the venv's Python); clean_env undoes it."""
    old = os.environ.get("LD_LIBRARY_PATH", "")
    os.environ.setdefault(SAVED_LD_PATH, old)
    os.environ["LD_LIBRARY_PATH"] = lib + (":" + old if old else "")


def clean_env(extra=None):
    """The environment of a C program: os.environ with LD_LIBRARY_PATH
    as it was before use_lib_dir, plus extra."""
    env = dict(os.environ)
    if SAVED_LD_PATH in env:
        old = env.pop(SAVED_LD_PATH)
        if old:
            env["LD_LIBRARY_PATH"] = old
        else:
            env.pop("LD_LIBRARY_PATH", None)
    env.update(extra or {})
    return env


def loaded_tbb():
    """The libtbb this process has mapped (None: none)."""
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                if "/libtbb.so" in path:
                    return os.path.realpath(path)
    except OSError:
        pass
    return None


def harness_cpu():
    """CPU seconds used so far by this process's threads other than the
    calling one (the peers' thread pools, BLAS's, ...)."""
    return time.process_time() - time.thread_time()


class ServerError(RuntimeError):
    pass


class Server:
    def __init__(self, path, env=None):
        self.path = path
        self.name = os.path.basename(path)
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, bufsize=1, env=clean_env(env))
        # CPU the harness's other threads (the peers' thread pools) used
        # while this thread waited for this server's replies, and the wall
        # time of those waits: CPU a spinning pool took from the C
        # program's rounds
        self.wait_cpu = 0.0
        self.wait_wall = 0.0

    @property
    def pid(self):
        return self.proc.pid

    def ask(self, *words):
        """Sends one command; returns the reply (a dict with "ok")."""
        line = " ".join(str(w) for w in words)
        c0, t0 = harness_cpu(), time.perf_counter()
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline()
            self.wait_cpu += harness_cpu() - c0
            self.wait_wall += time.perf_counter() - t0
        except (BrokenPipeError, OSError) as e:
            raise ServerError(f"{self.name}: {e} (after '{line[:80]}')")
        if not reply:
            rc = self.proc.wait()
            raise ServerError(f"{self.name} died (status {rc}) on "
                              f"'{line[:80]}'")
        try:
            return json.loads(reply)
        except ValueError:
            raise ServerError(f"{self.name}: unreadable reply {reply!r}")

    def close(self):
        """Stops the server; returns its exit status (a sanitizer's report
        makes it nonzero)."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def start(path, env=None):
    """A Server, or None when the program was not built."""
    return Server(path, env) if os.path.exists(path) else None
