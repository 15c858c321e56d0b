"""Turns a benchmark run (the dict suite.main builds) into its CPU family's
section of RESULTS.md and its chart: medians, spread, ratios against each
peer and the limit, and issue 4's and issue 5's goals marked met or
missed."""
import os
import statistics
import time

import numpy as np

import machine

LIBM = "libm"  # suite.LIBM: label suffix of UFJIT_ENABLE_LIBMVEC=0 runs
ORDER = ["ufjit cpu", "ufjit cpu libm", "ufjit parallel",
         "ufjit parallel libm", "numpy", "numpy add.reduce", "numexpr 1t",
         "numexpr 2t", "numba cpu", "numba parallel", "numba prange",
         "numba guvec cpu", "numba guvec parallel", "numba njit prange"]
GROUPS = [("elementwise", "Elementwise", "ms"),
          ("overhead", "Call overhead", "us"),
          ("gufunc", "Gufuncs", "ms"),
          ("reduce", "Reductions", "ms")]
SCALE = {"ms": 1e3, "us": 1e6}


def med(ts):
    return statistics.median(ts) if ts else None


def fmt(x, digits=3):
    if x is None:
        return "n/a"
    if x == 0:
        return "0"
    return f"{x:.{digits}g}" if abs(x) < 10 ** digits else f"{x:.0f}"


def order_key(label):
    for i, o in enumerate(ORDER):
        if label == o:
            return (i, label)
    for i, o in enumerate(ORDER):
        if label.startswith(o):
            return (i, label)
    return (len(ORDER), label)


def labels_of(results):
    seen = set()
    for r in results:
        seen.update(k for k, v in r["contenders"].items()
                    if v["status"] != "missing")
    return sorted(seen, key=order_key)


def is_libm(label):
    return label.endswith(" " + LIBM)


def best(res, prefix, libm=False):
    """Fastest median among contenders whose label starts with prefix:
    (time, label), or (None, reason). The `libm` contenders (libmvec
    turned off, not ufjit's default) count only when libm is true."""
    found, why = [], None
    for k, v in res["contenders"].items():
        if is_libm(k) and not libm:
            continue
        if k == prefix or k.startswith(prefix + " "):
            if v.get("times"):
                found.append((med(v["times"]), k))
            elif why is None:
                why = v.get("note", v["status"])
    return min(found) if found else (None, why)


def at(d, threads):
    """d[threads], also after a JSON round trip made the key a string."""
    return d.get(threads, d.get(str(threads))) or {}


def limit_time(res, threads):
    return med(at(res.get("limit") or {}, threads))


# ---- goals ----------------------------------------------------------------
def goals(raw):
    rows = []  # (goal, case, measured, target, ratio, verdict)
    res = raw["results"]

    def row(goal, case, measured, target, ratio, ok, na=None):
        if na:
            verdict = f"not available yet ({na})"
        else:
            verdict = "**met**" if ok else "**missed**"
        rows.append((goal, case, measured, target,
                     fmt(ratio) if ratio is not None else "", verdict))

    for r in res:
        if r["group"] != "elementwise":
            continue
        t, lab = best(r, "ufjit parallel")
        na = None if t is not None else short(lab)
        if r["bound"] == "memory":
            lim = limit_time(r, 2)
            frac = lim / t if t and lim else None
            # a large output from small inputs: the write-only kernel's
            # bandwidth bounds it, not triad's (bench_stream.c)
            kind = ("the write-only limit" if r.get("limit_kind") == "write"
                    else "STREAM triad")
            row(f"memory-bound, parallel 2 threads: >= 90% of {kind}",
                r["name"], f"{fmt(100 * frac)}% of the limit" if frac else
                "n/a", ">= 90%", frac, frac is not None and frac >= 0.9,
                na or (None if lim else "no STREAM limit"))
            nb, nlab = min(((med(v["times"]), k) for k, v in
                            r["contenders"].items()
                            if k.startswith("numba") and v.get("times")),
                           default=(None, None))
            ratio = nb / t if t and nb else None
            row("memory-bound, parallel: no slower than Numba's best",
                r["name"], f"{nlab} {fmt(nb * 1e3)} ms / ufjit "
                f"{fmt(t * 1e3)} ms" if ratio else "n/a", ">= 1x", ratio,
                ratio is not None and ratio >= 1.0,
                na or (None if nb else "no Numba"))
        elif r["bound"] == "transcendental":
            for peer, target, want in (("numba parallel", ">= 5x", 5.0),
                                       ("numpy", ">= 1.5x", 1.5)):
                p = med(r["contenders"].get(peer, {}).get("times"))
                ratio = p / t if p and t else None
                row(f"transcendental, parallel: vs {peer}", r["name"],
                    f"{peer} {fmt(p * 1e3)} ms / ufjit {fmt(t * 1e3)} ms"
                    if ratio else "n/a", target, ratio,
                    ratio is not None and ratio >= want,
                    na or (None if p else f"no {peer}"))
            lim = limit_time(r, 2)
            ratio = t / lim if t and lim else None
            row("transcendental, parallel: within 1.2x of the libmvec loop",
                r["name"], f"ufjit {fmt(t * 1e3)} ms / libmvec 2t "
                f"{fmt(lim * 1e3)} ms" if ratio else "n/a", "<= 1.2x", ratio,
                ratio is not None and ratio <= 1.2,
                na or (None if lim else short(r.get("limit_note") or
                                              "no limit")))
    for r in res:
        if r["name"] != "call 10 elements":
            continue
        for target, us in (("cpu", 0.15), ("parallel", 0.3)):
            t, lab = best(r, f"ufjit {target}")
            row(f"10-element call from C, {target}", r["name"],
                f"{fmt(t * 1e6)} us" if t else "n/a", f"< {us} us",
                t * 1e6 / us if t else None, t is not None and t * 1e6 < us,
                None if t else short(lab))
    if not raw["misc"]:  # a --only run: cases only
        return rows
    for k, v in raw["misc"].get("compile", {}).items():
        t = med(v["ufjit"])
        row("compile of one more signature", k,
            f"{fmt(t * 1e3)} ms" if t else "n/a", "< 10 ms",
            t * 1e3 / 10 if t else None, t is not None and t < 0.010,
            None if t else short(v.get("note") or "failed"))
    c = raw["misc"].get("cache", {})
    t = med(c.get("hit"))
    na = None
    if not c.get("files"):
        na = "UFJIT_CACHE_DIR stays empty: no disk cache"
    row("disk-cache hit (new context: load + first call)", "rel_diff f64",
        f"{fmt(t * 1e3)} ms" if t else "n/a", "< 3 ms",
        t * 1e3 / 3 if t else None, t is not None and t < 0.003, na)
    p = raw["misc"].get("process", {})
    t = med(p.get("times", {}).get("ufjit call"))
    cached = "" if p.get("cache_files") else " (no disk cache yet: compiles)"
    row("`ufjit call` process on a cached kernel", "rel_diff 1000 f64",
        f"{fmt(t * 1e3)} ms{cached}" if t else "n/a", "< 30 ms",
        t * 1e3 / 30 if t else None, t is not None and t < 0.030,
        None if t else short(p.get("notes", {}).get("ufjit call", "failed")))
    return rows


# issue 4's goals, worded as the issue words them
G4_GUVEC = "gufuncs: at least 1.5x Numba guvectorize (best target each)"
G4_STREAM = "memory-bound gufuncs: within 1.3x of STREAM bandwidth"
G4_SUM = "sum of 1e8 float64: 30 GB/s on 2 threads"
G4_AXIS = "axis reductions: at least 2x NumPy's add.reduce"


def best_of(res, prefixes, libm=False):
    """(time, label) of the fastest among several prefixes' best."""
    got = [best(res, p, libm) for p in prefixes]
    ok = [g for g in got if g[0] is not None]
    return min(ok) if ok else got[0]


def goals4(raw):
    rows = []

    def row(goal, case, measured, target, ratio, ok, na=None):
        verdict = (f"not available yet ({na})" if na else
                   "**met**" if ok else "**missed**")
        rows.append((goal, case, measured, target,
                     fmt(ratio) if ratio is not None else "", verdict))

    ufjit = ("ufjit cpu", "ufjit parallel")
    for r in raw["results"]:
        if r["group"] != "gufunc":
            continue
        t, lab = best_of(r, ufjit)
        nb, nlab = best_of(r, ("numba guvec",))
        ratio = nb / t if t and nb else None
        row(G4_GUVEC, r["name"],
            f"{nlab} {fmt(nb * 1e3)} ms / {lab} {fmt(t * 1e3)} ms"
            if ratio else "n/a", ">= 1.5x", ratio,
            ratio is not None and ratio >= 1.5,
            None if ratio else short(lab if t is None else nlab or
                                     "no Numba"))
        if r.get("bound") != "memory":
            continue
        for target, th in (("cpu", 1), ("parallel", 2)):
            t, lab = best(r, f"ufjit {target}")
            lim = limit_time(r, th)
            ratio = t / lim if t and lim else None
            gbs = r["bytes"] / lim / 1e9 if lim else None
            row(f"{G4_STREAM} ({th} thread{'s' if th > 1 else ''})",
                r["name"], f"{lab} {fmt(t * 1e3)} ms / limit {th}t "
                f"{fmt(lim * 1e3)} ms ({fmt(r['bytes'] / 1e6)} MB at "
                f"{fmt(gbs)} GB/s)" if ratio else "n/a", "<= 1.3x", ratio,
                ratio is not None and ratio <= 1.3,
                None if ratio else short(lab if t is None else
                                         r.get("limit_note") or "no limit"))
    for r in raw["results"]:
        if r["group"] != "reduce":
            continue
        if r["name"].startswith("sum 1e"):
            t, lab = best(r, "ufjit parallel")
            gbs = r["bytes"] / t / 1e9 if t else None
            lim = limit_time(r, 2)
            read = r["bytes"] / lim / 1e9 if lim else None
            also = (f"; {fmt(100 * gbs / read)}% of this machine's read "
                    f"bandwidth, {fmt(read)} GB/s (bench_stream sum, 2 "
                    "threads)" if gbs and read else "")
            row(G4_SUM, r["name"], f"{fmt(gbs)} GB/s ({lab}, "
                f"{fmt(t * 1e3)} ms){also}" if gbs else "n/a",
                ">= 30 GB/s", gbs / 30 if gbs else None,
                gbs is not None and gbs >= 30,
                None if gbs else short(lab))
        elif "axis" in r["name"]:
            t, lab = best_of(r, ufjit)
            p = med(r["contenders"].get("numpy add.reduce", {}).get("times"))
            ratio = p / t if p and t else None
            row(G4_AXIS, r["name"], f"numpy add.reduce {fmt(p * 1e3)} ms / "
                f"{lab} {fmt(t * 1e3)} ms" if ratio else "n/a", ">= 2x",
                ratio, ratio is not None and ratio >= 2.0,
                None if ratio else short(lab if t is None else
                                         "no numpy add.reduce"))
    return rows


def sum_note(raw):
    """Whether 30 GB/s is within this machine's read bandwidth, as the sum
    case's own limit measured it (2 threads)."""
    for r in raw["results"]:
        lim = limit_time(r, 2)
        if r["group"] == "reduce" and r["name"].startswith("sum 1e") and lim:
            bw = r["bytes"] / lim / 1e9
            return [f"The sum goal's 30 GB/s is "
                    f"{'above' if bw < 30 else 'within'} what this machine "
                    f"can read: bench_stream's read-only sum ran at "
                    f"{fmt(bw)} GB/s on 2 threads in the sum's own rounds."]
    return []


def plan_text(meta):
    p = meta["plan"]
    return (f"{p['rounds']} rounds x up to {p['reps']} reps, reductions "
            f"{p['r_rounds']} rounds, call overheads up to {p['o_reps']} "
            "reps of many calls each; a contender slower than "
            f"{p['budget']} s a round gets fewer reps, at least one")


def short(note, n=70):
    note = (note or "").strip().splitlines()[0] if note else ""
    return note if len(note) <= n else note[:n - 3] + "..."


# ---- tables ---------------------------------------------------------------
def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def times_table(results, unit):
    labels = labels_of(results)
    has_limit = any("limit" in r for r in results)
    header = ["case"] + labels + (["limit 1t", "limit 2t"] if has_limit
                                  else [])
    rows = []
    for r in results:
        row = [r["name"]]
        for k in labels:
            v = r["contenders"].get(k)
            row.append(fmt(med(v["times"]) * SCALE[unit])
                       if v and v.get("times") else
                       ("--" if v is None else status_mark(v)))
        if has_limit:
            for t in (1, 2):
                lt = limit_time(r, t)
                row.append(fmt(lt * SCALE[unit]) if lt else "--")
        rows.append(row)
    return table(header, rows)


def status_mark(v):
    return {"unavailable": "n/a", "error": "error", "wrong": "WRONG",
            "missing": "missing"}.get(v["status"], v["status"])


def ratio_table(results, target):
    """peer / ufjit (>1: ufjit faster); limit: ufjit / limit."""
    peers = [k for k in labels_of(results) if not k.startswith("ufjit")]
    threads = 1 if target == "cpu" else 2
    has_limit = any("limit" in r for r in results)
    header = ["case", f"ufjit {target} (best)"] + \
        [f"{p} / ufjit" for p in peers] + \
        ([f"ufjit / limit {threads}t"] if has_limit else [])
    rows, any_ok = [], False
    for r in results:
        t, lab = best(r, f"ufjit {target}")
        if t is None:
            rows.append([r["name"], "n/a"] + [""] * (len(header) - 2))
            continue
        any_ok = True
        row = [r["name"], lab.replace("ufjit ", "")]
        for p in peers:
            pt = med(r["contenders"].get(p, {}).get("times"))
            row.append(fmt(pt / t) if pt else "--")
        if has_limit:
            lt = limit_time(r, threads)
            row.append(fmt(t / lt) if lt else "--")
        rows.append(row)
    return table(header, rows) if any_ok else []


def spread_rows(results, unit):
    rows = []
    for r in results:
        for k in sorted(r["contenders"], key=order_key):
            v = r["contenders"][k]
            ts = v.get("times")
            if not ts:
                continue
            q = np.percentile(ts, [25, 75]) * SCALE[unit]
            first = v.get("first_s")
            rows.append([r["name"], k, fmt(med(ts) * SCALE[unit]),
                         f"{fmt(q[0])}-{fmt(q[1])}",
                         f"{fmt(min(ts) * SCALE[unit])}-"
                         f"{fmt(max(ts) * SCALE[unit])}", len(ts),
                         fmt(first * 1e3) if first is not None else ""])
    return rows


def unavailable_notes(results):
    notes = {}
    for r in results:
        for k, v in r["contenders"].items():
            if v["status"] in ("unavailable", "missing", "error", "wrong"):
                notes.setdefault((k, v["status"], short(v.get("note"), 160)),
                                 []).append(r["name"])
    out = []
    for (k, st, note), names in sorted(notes.items()):
        where = names[0] if len(names) == 1 else f"{len(names)} cases"
        out.append(f"- {k}: {st} ({where}): {note}")
    return out


def peer_env_text(meta):
    """Which oneTBB Numba's tbb layer used (run.py's LD_LIBRARY_PATH)."""
    tbb = meta.get("numba_tbb")
    return f"; Numba's TBB: {tbb}" if tbb else ""


def harness_busy_text(meta, res):
    """How much CPU run.py's threads other than its main one used while
    the C programs ran their rounds (a spinning peer thread pool takes a
    CPU from them): over the whole run and in the worst case (short
    rounds make a pool's normal sub-millisecond spin after a call look
    large there)."""
    busy = [(r.get("harness_busy") or 0.0, r["name"]) for r in res]
    if not busy:
        return "- Harness: no case ran"
    worst, name = max(busy)
    total = meta.get("harness_busy", 0.0)
    return (f"- Harness: while the C programs (ufjit, STREAM, libmvec) ran "
            f"their rounds, run.py's other threads (the peers' thread "
            f"pools) used {100 * total:.0f}% of a CPU, at most "
            f"{100 * worst:.0f}% in one case ({name})"
            + (". **A peer's threads spun during the C programs' rounds: "
               "their times are too slow.**" if total > 0.05 or worst > 0.25
               else ""))


# ---- the document -----------------------------------------------------------
def write(raw, out_dir):
    meta, lim, misc = raw["meta"], raw["limits"], raw["misc"]
    res = raw["results"]
    q = meta["quiet"]
    v = meta["versions"]
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(meta["started"]))
    lines = ["# ufjit benchmark results", "",
             "Written by `make bench` (bench/run.py; cases in "
             f"bench/cases.py). Run: **{meta['size']}**"
             f"{' (BENCH_QUICK)' if meta['size'] == 'quick' else ''}, "
             f"{when}, {q['elapsed_s']:.0f} s. Rounds alternate between all "
             "contenders of a case (order rotated each round); outputs "
             "preallocated; medians over rounds x repetitions "
             f"({plan_text(meta)}). Elementwise cases have 10,000,000 "
             "elements, other cases the sizes in their names"
             + ("" if meta["size"] == "full" else
                f" (**this {meta['size']} run divides the sizes**, see "
                "bench/cases.py)") + ".", "",
             "## Machine", ""]
    if meta.get("only"):
        lines[-2:-2] = [f"**Partial run**: only the cases matching "
                        f"`{meta['only']}`.", ""]
    if meta["size"] != "full":
        lines[-2:-2] = ["The divided sizes may fit in the caches while the "
                        "limits' arrays do not: ratios to the bandwidth "
                        "limits mean something only in a full run.", ""]
    lines += meta["machine"]
    lines += [
        f"- ufjit: {meta.get('ufjit', '?')}. Contenders `ufjit T` (target "
        "T) are ufjit's default, libmvec vector math on (run with "
        "UFJIT_ENABLE_LIBMVEC=1 set explicitly); `ufjit T libm` "
        "(transcendental cases) run with UFJIT_ENABLE_LIBMVEC=0, scalar "
        "libm calls. Goals use the default contenders",
        f"- Peers: NumPy {v['numpy']}, Numba {v['numba']} (threading layer "
        f"{meta['numba_layer']}, 2 threads), numexpr {v['numexpr']}, "
        f"matplotlib {v['matplotlib']}; from {meta['pyenv']}"
        + (f"; missing: {', '.join(meta['missing'])}" if meta["missing"]
           else "") + peer_env_text(meta),
        harness_busy_text(meta, res),
        f"- Quiet: other processes used {100 * q['others_share']:.0f}% of "
        f"the machine's CPU time during the run ({q['others_cpu_s']:.0f} "
        f"CPU-s; 1-min load {q['load_start']:.1f} at the start, "
        f"{q['load_end']:.1f} at the end). "
        + ("Quiet enough to compare." if q["others_share"] < 0.1 else
           "**Noisy: treat the numbers as rough.**"), ""]

    lines += ["## Goals of issue 5", "",
              "Ratios: `>= 1x` goals are peer time / ufjit time, `<=` goals "
              "ufjit / limit, time goals measured / target.", ""]
    lines += table(["goal", "case", "measured", "target", "ratio",
                    "verdict"], goals(raw))
    lines.append("")
    g4 = goals4(raw)
    if g4:
        lines += ["## Goals of issue 4", "",
                  "ufjit's best: the faster of its `cpu` and `parallel` "
                  "(2 threads) targets, and for reductions of its two ways "
                  "(the @reduce kernel through uf_call, the add ufunc's "
                  "uf_reduce); Numba's best: the faster of guvectorize "
                  "`cpu` and `parallel`. STREAM rows: ufjit's time over the "
                  "limit, the case's bytes (every input array read once, "
                  "every output written once, as STREAM counts them, no "
                  "write-allocate traffic: 8 bytes per element of every "
                  "input and output array) divided by STREAM triad's "
                  "bandwidth measured in the same rounds on 1 and 2 "
                  "threads. The sum "
                  "row: the bytes summed (8 per element) / ufjit parallel's "
                  "time.", ""]
        lines += table(["goal", "case", "measured", "target", "ratio",
                        "verdict"], g4)
        lines += [""] + sum_note(raw) + [""]

    lines += ["## Limits of this machine", ""]
    if "stream" in lim:
        rows = []
        for k in ("copy", "scale", "add", "triad", "sum", "write"):
            row = [k + {"sum": " (read only)",
                        "write": " (write only)"}.get(k, "")]
            for t in (1, 2):
                st = at(lim["stream"], t)
                d = st.get(k) or {} if st.get("ok") else {}
                bw = [d["bytes"] / x / 1e9 for x in d.get("times", [])]
                row.append(f"{fmt(med(bw))} ({fmt(min(bw))}-{fmt(max(bw))})"
                           if bw else "n/a")
            rows.append(row)
        n = at(lim["stream"], 1).get("n", 0)
        lines += [f"STREAM (bench/bench_stream.c), 3 arrays of {n:,} "
                  "doubles, GB/s median (min-max), counting reads and "
                  "writes as STREAM does (copy, scale 16 bytes per "
                  "element, add, triad 24, sum 8: s += a[i], the limit of "
                  "the reductions, timed four ways each rep and the "
                  "fastest kept, write 8: b[i] = s with non-temporal "
                  "stores, the limit of broadcasting a row and a "
                  "column):", ""]
        lines += table(["kernel", "1 thread", "2 threads"], rows)
        won = []
        for t in (1, 2):
            ways = at(lim["stream"], t).get("sum_ways") or {}
            if ways:
                won.append(f"{t} thread{'s' if t > 1 else ''}: " + ", ".join(
                    f"{w} {c}" for w, c in ways.items()))
        if won:
            lines += ["", "The read-only sum's reps won by each way of "
                      "reading (one stream; four streams side by side; "
                      "software prefetch 2 KiB ahead; rows of 1024 added into "
                      "accumulators in L1, as an axis-0 reduction reads): " + "; ".join(won)
                      + "."]
    else:
        lines.append(f"STREAM: not available ({lim.get('stream_error')})")
    lines.append("")
    if lim.get("mvec"):
        rows = []
        for k, d in lim["mvec"].items():
            row = [k]
            for t in (1, 2):
                ts = at(d, t)
                row.append(fmt(lim["mvec_n"] / med(ts) / 1e9) if ts else
                           "n/a")
            rows.append(row)
        lines += ["libmvec loops (bench/bench_mvec.c, "
                  f"{lim['mvec_n']:,} elements; the widest ISA the CPU "
                  "runs, and AVX2 too on an AVX-512 CPU), Gelem/s:", ""]
        lines += table(["function", "1 thread", "2 threads"], rows)
        whats = [[r["name"], r["limit_what"]] for r in res
                 if r.get("limit_what")]
        if whats:
            lines += ["", "The transcendental cases' limits: bench_mvec's C "
                      "loop calling the functions the kernel calls, in the "
                      "precision the kernel computes them in. That is "
                      "Numba's typing, which ufjit follows (checked with "
                      "`ufjit inspect --llvm`): float32 op float64 literal "
                      "is float64, so a float32 case is not all float32:",
                      ""]
            lines += table(["case", "the limit loop computes"], whats)
    else:
        lines.append("libmvec loops: not available "
                     f"({lim.get('mvec_error')})")
    lines.append("")

    for group, title, unit in GROUPS:
        rs = [r for r in res if r["group"] == group]
        if not rs:
            continue
        lines += [f"## {title} ({unit} per call, median)", ""]
        if group == "elementwise":
            lines += ["Limit columns: the case's bytes at STREAM triad "
                      "bandwidth (memory-bound cases; broadcast: at the "
                      "write-only kernel's) or the libmvec C loop "
                      "(transcendental ones), on 1 and 2 threads, measured "
                      "in the same rounds. `libm`: ufjit with "
                      "UFJIT_ENABLE_LIBMVEC=0.", ""]
        elif group == "gufunc":
            lines += ["Limit columns: the case's bytes at STREAM triad "
                      "bandwidth, on 1 and 2 threads, measured in the same "
                      "rounds.", ""]
        elif group == "reduce":
            lines += ["Limit columns: the case's bytes at the read-only "
                      "sum's bandwidth (bench_stream sum), on 1 and 2 "
                      "threads, measured in the same rounds.", ""]
        lines += times_table(rs, unit)
        lines.append("")
        for target in ("cpu", "parallel"):
            t = ratio_table(rs, target)
            if t:
                lines += [f"Ratios for ufjit {target} (peer / ufjit: above 1 "
                          "ufjit is faster; ufjit / limit: 1 is the limit):",
                          ""] + t + [""]
        notes = unavailable_notes(rs)
        if notes:
            lines += ["Not measured:"] + notes + [""]

    c = misc.get("compile", {})
    if c:
        rows = [[k, fmt(med(d["ufjit"]) * 1e3) if d["ufjit"] else
                 f"n/a ({short(d.get('note'))})",
                 fmt(med(d["numba"]) * 1e3) if d["numba"] else "n/a"]
                for k, d in c.items()]
        lines += ["## Compile time", "",
                  "One more signature in a warm process: a fresh kernel "
                  "(unique name) loaded, compiled and called once on 10 "
                  "elements, less a warm call; Numba: the same source's "
                  "`vectorize` decoration in-process. ms, median:", ""]
        lines += table(["kernel", "ufjit", "Numba"], rows)
        imp, first = misc.get("numba_import"), misc.get("numba_first_compile")
        if imp:
            lines += ["", "Numba in a new process: import "
                      f"{fmt(med(imp) * 1e3)} ms, then its first vectorize "
                      "compile "
                      f"{fmt(med(first) * 1e3)} ms."]
        lines.append("")
    cache = misc.get("cache", {})
    proc = misc.get("process", {})
    if cache or proc:
        lines += ["## Disk cache and whole processes", ""]
        rows = []
        if cache.get("cold"):
            rows.append(["ufjit: new context, first call, empty "
                          "UFJIT_CACHE_DIR", fmt(med(cache["cold"]) * 1e3)])
            again = (f"once the directory holds it ({cache['files']} "
                     "files)" if cache["files"] else
                     "again (the directory stayed empty: no disk cache)")
            rows.append([f"ufjit: the same {again}",
                         fmt(med(cache["hit"]) * 1e3)])
        for k, ts in proc.get("times", {}).items():
            if ts:
                rows.append([f"whole process: {k}, rel_diff on 1000 float64",
                             fmt(med(ts) * 1e3)])
        lines += table(["what", "ms (median)"], rows)
        for k, n in proc.get("notes", {}).items():
            lines.append(f"- {k}: failed: {short(n, 200)}")
        if cache.get("note"):
            lines.append(f"- cache: {short(cache['note'], 200)}")
        lines.append("")
    for name, o in misc.get("others", {}).items():
        lines += [f"## {name} (run by name; its own program)", "",
                  f"Exit status {o['status']}."]
        if o["rows"]:
            keys = []
            for r in o["rows"]:
                keys += [k for k in r if k not in keys]
            lines += [""] + table(keys, [[r.get(k, "") for k in keys]
                                         for r in o["rows"]])
        if o["raw"].strip() or (o["status"] != 0 and o["stderr"].strip()):
            lines += ["", "```", (o["raw"] or o["stderr"]).strip(), "```"]
        lines.append("")

    lines += ["## Spread", "",
              "Every sample: median, interquartile range, min-max (ms; "
              "call overheads in us), samples, first call (ms, includes "
              "compiling).", ""]
    for group, title, unit in GROUPS:
        rows = spread_rows([r for r in res if r["group"] == group], unit)
        if rows:
            lines += [f"{title} ({unit}):", ""]
            lines += table(["case", "contender", "median", "IQR", "min-max",
                            "n", "first ms"], rows) + [""]
    if meta["errors"]:
        lines += ["## Errors", ""] + [f"- {e}" for e in meta["errors"]] + [""]
    key, title = raw["meta"].get("family") or ("unknown", "unknown CPU")
    png = chart(raw, out_dir, f"results-{key}.png")
    if png:
        lines += [f"![ms per case per contender, log scale]({png})", ""]
    path = os.path.join(out_dir, "RESULTS.md")
    merge_section(path, key, title, lines)
    print(f"bench: wrote the {title} section of {path}")


RESULTS_HEAD = [
    "# ufjit benchmark results", "",
    "Written by `make bench`. One section per CPU family (vendor, model, "
    "widest vector ISA): a run replaces its own family's section and "
    "leaves the others' figures alone (issue 19), so the goals can be read "
    "for each kind of machine the project runs on.", ""]


def _demoted(lines):
    """A run's report as a section: its headings one level down."""
    out = []
    for line in lines:
        if line.startswith("#"):
            line = "#" + line
        out.append(line)
    return out


def merge_section(path, key, title, lines):
    """Writes this run's report as `key`'s section of the RESULTS.md at
    path, keeping every other family's section. A file from before the
    sections (one machine, no markers) becomes the section of the family
    its Machine line names."""
    sections = {}
    order = []
    try:
        with open(path) as f:
            old = f.read().splitlines()
    except OSError:
        old = []
    if old and not any(l.startswith("<!-- cpu: ") for l in old):
        body = old[1:] if old and old[0].startswith("# ") else old
        cpu = next((l for l in old if l.startswith("- CPU: ")), "")
        simd = cpu.split("SIMD: ")[-1] if "SIMD: " in cpu else ""
        isa = "AVX-512" if "avx512f" in simd else "AVX2" \
            if "avx2" in simd else "SSE"
        name = cpu[len("- CPU: "):].split(",")[0] or "an earlier machine"
        vendor = "Intel" if "Intel" in name else "AMD" if "AMD" in name \
            else "unknown vendor"
        okey = machine.family_key(vendor, name, isa)
        sections[okey] = [f"## {name} ({isa})" if vendor in name else
                          f"## {name} ({vendor}, {isa})", ""] + \
            _demoted(body)
        order.append(okey)
    else:
        cur = None
        for line in old:
            if line.startswith("<!-- cpu: "):
                cur = line[len("<!-- cpu: "):].split(" ")[0]
                sections[cur] = []
                order.append(cur)
            elif line.startswith("<!-- end cpu: "):
                cur = None
            elif cur is not None:
                sections[cur].append(line)
    body = lines[1:] if lines and lines[0].startswith("# ") else lines
    if key not in sections:
        order.append(key)
    sections[key] = [f"## {title}", ""] + _demoted(body)
    out = list(RESULTS_HEAD)
    for k in order:
        out += [f"<!-- cpu: {k} -->"] + sections[k] + \
            [f"<!-- end cpu: {k} -->", ""]
    with open(path, "w") as f:
        f.write("\n".join(out))


def chart(raw, out_dir, name="results.png"):
    """The chart (`name`): ms per case per contender on a log scale, one row per
    case, one marker per contender (a dot plot: 20 contenders stay
    readable), one panel per group; None without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    panels = []
    for group, title, unit in GROUPS:
        rows = []
        for r in raw["results"]:
            if r["group"] != group:
                continue
            vals = {k: med(v["times"]) * SCALE[unit]
                    for k, v in r["contenders"].items() if v.get("times")}
            for t in (1, 2):
                lt = limit_time(r, t)
                if lt:
                    vals[f"limit {t}t"] = lt * SCALE[unit]
            rows.append((r["name"], vals))
        if rows:
            panels.append((title, unit, rows))
    if not panels:
        return None
    labels = sorted({k for _, _, rows in panels for _, v in rows for k in v},
                    key=order_key)
    cmap = plt.get_cmap("tab20")
    style = {}
    for i, k in enumerate(labels):
        if k.startswith("limit"):
            style[k] = dict(marker="|", color="black" if k == "limit 2t"
                            else "dimgray", s=300, linewidths=2)
        elif k.startswith("ufjit"):
            style[k] = dict(marker="o", color=cmap(i % 20), s=70,
                            edgecolors="black", linewidths=0.6)
        else:
            style[k] = dict(marker="D^vs<>Ph*X"[i % 10], color=cmap(i % 20),
                            s=40)
    heights = [len(rows) + 1.5 for _, _, rows in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 0.3 * sum(heights)
                                                      + 1),
                             gridspec_kw={"height_ratios": heights},
                             squeeze=False)
    for ax, (title, unit, rows) in zip(axes[:, 0], panels):
        for y, (_, vals) in enumerate(rows):
            ax.axhline(y, color="0.9", lw=0.8, zorder=0)
            for k, x in vals.items():
                ax.scatter([x], [y], label=k, zorder=3, **style[k])
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([n for n, _ in rows], fontsize=8)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_xscale("log")
        ax.grid(axis="x", which="both", alpha=0.3)
        ax.set_title(f"{title} ({unit} per call, median; log scale)",
                     fontsize=9, loc="left")
    handles = {}
    for ax in axes[:, 0]:
        for h, n in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(n, h)
    fig.legend([handles[k] for k in labels], labels, loc="upper left",
               bbox_to_anchor=(0.78, 0.99), fontsize=8, frameon=False)
    part = ", partial" if raw["meta"].get("only") else ""
    fig.suptitle(f"ufjit and its peers ({raw['meta']['size']} run{part})",
                 x=0.4, fontsize=11)
    fig.tight_layout(rect=(0, 0, 0.78, 0.98))
    path = os.path.join(out_dir, name)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return name
