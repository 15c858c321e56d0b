"""What the benchmark ran on (lscpu, uname, memory, package versions) and
how quiet the machine was: the CPU time other processes used while the
suite ran, from /proc/stat less the suite's own processes."""
import os
import platform
import subprocess
import time


def _lscpu():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {}
    info = {}
    for line in out.splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            info[k.strip()] = v.strip()
    return info


def describe():
    """Lines of Markdown describing the machine."""
    cpu = _lscpu()
    flags = cpu.get("Flags", "").split()
    simd = [f for f in ("avx2", "avx512f", "avx512dq", "avx512vl", "fma")
            if f in flags]
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
        mem = f", {kb / 2**20:.0f} GiB memory"
    except (OSError, ValueError, IndexError):
        pass
    caches = ", ".join(f"{k.split()[0]} {cpu[k]}" for k in
                       ("L1d cache", "L2 cache", "L3 cache") if k in cpu)
    u = platform.uname()
    return [
        f"- CPU: {cpu.get('Model name', platform.processor() or '?')}, "
        f"{os.cpu_count()} logical CPUs "
        f"({cpu.get('Thread(s) per core', '?')} thread(s) per core), "
        f"{cpu.get('Hypervisor vendor', 'no')} hypervisor; caches: "
        f"{caches or '?'}; SIMD: {' '.join(simd) or 'none listed'}{mem}",
        f"- System: {u.system} {u.release} {u.machine}, Python "
        f"{platform.python_version()}",
    ]


def family():
    """(key, title) of this CPU's family as RESULTS.md files its section:
    vendor, model and widest vector ISA, so that a run on an AVX2 EPYC
    and one on an AVX-512 Xeon keep their own figures."""
    cpu = _lscpu()
    flags = cpu.get("Flags", "").split()
    isa = ("AVX-512" if "avx512f" in flags else
           "AVX2" if "avx2" in flags else "SSE")
    vendor = {"GenuineIntel": "Intel", "AuthenticAMD": "AMD"}.get(
        cpu.get("Vendor ID", ""), cpu.get("Vendor ID", "unknown vendor"))
    model = cpu.get("Model name", platform.processor() or "unknown CPU")
    return (family_key(vendor, model, isa),
            f"{model} ({isa})" if vendor in model else
            f"{model} ({vendor}, {isa})")


def family_key(vendor, model, isa):
    """"amd-epyc-avx512": the words of vendor and model, once each."""
    words = []
    for w in "".join(c.lower() if c.isalnum() else " "
                     for c in f"{vendor} {model}").split():
        if w not in ("r", "tm", "processor", "cpu") and w not in words:
            words.append(w)
    return "-".join(words + [isa.lower().replace("-", "")])


def _jiffies_total():
    with open("/proc/stat") as f:
        parts = f.readline().split()[1:]
    vals = [int(x) for x in parts]
    idle = vals[3] + (vals[4] if len(vals) > 4 else 0)
    return sum(vals[:8]) - idle  # busy: user nice system irq softirq steal


def _jiffies_of(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
        # utime stime cutime cstime (children reaped by it)
        return sum(int(x) for x in parts[11:15])
    except (OSError, IndexError, ValueError):
        return 0


class Quiet:
    """CPU used by other processes between start() and stop()."""

    def __init__(self):
        self.pids = set()
        self.own = {}

    def watch(self, pid):
        self.pids.add(pid)
        self.own.setdefault(pid, 0)

    def sample(self):
        """Records the CPU time of watched processes still alive."""
        for pid in self.pids:
            self.own[pid] = max(self.own[pid], _jiffies_of(pid))

    def start(self):
        self.watch(os.getpid())
        self.t0 = time.monotonic()
        self.busy0 = _jiffies_total()
        self.self0 = _jiffies_of(os.getpid())
        self.load0 = os.getloadavg()

    def stop(self):
        self.sample()
        elapsed = time.monotonic() - self.t0
        hz = os.sysconf("SC_CLK_TCK")
        busy = (_jiffies_total() - self.busy0) / hz
        own = (sum(self.own.values()) - self.self0) / hz
        others = max(0.0, busy - own)
        ncpu = os.cpu_count() or 1
        return {"elapsed_s": elapsed, "others_cpu_s": others,
                "others_share": others / (elapsed * ncpu),
                "load_start": self.load0[0], "load_end": os.getloadavg()[0]}
