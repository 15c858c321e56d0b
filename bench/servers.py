"""Clients of the suite's C programs, which run as servers (one command
line in, one JSON line out) so that they keep their compiled kernels and
arrays while the harness alternates rounds between contenders."""
import json
import os
import subprocess


class ServerError(RuntimeError):
    pass


class Server:
    def __init__(self, path, env=None):
        self.path = path
        self.name = os.path.basename(path)
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, bufsize=1, env=dict(os.environ, **(env or {})))

    @property
    def pid(self):
        return self.proc.pid

    def ask(self, *words):
        """Sends one command; returns the reply (a dict with "ok")."""
        line = " ".join(str(w) for w in words)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline()
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
