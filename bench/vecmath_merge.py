"""Merges several runs of bench_vecmath (its Markdown tables) into one:
each entry point's best ns/elem over the runs, the speed-up against
libmvec's best recomputed. The error columns are the same in every run
(fixed inputs). On a shared machine the best of a few runs is the figure
closest to the CPU's own.

    python3 bench/vecmath_merge.py RUN1.md RUN2.md ... > merged.md
"""
import sys


def main(paths):
    rows, order, head = {}, [], []
    for path in paths:
        with open(path) as f:
            for line in f:
                if not line.startswith("| ") or line.startswith("|---"):
                    if not rows and not line.startswith("|"):
                        head.append(line.rstrip("\n"))
                    continue
                c = [x.strip() for x in line.strip().strip("|").split("|")]
                if c[0] == "function":
                    title = line.rstrip("\n")
                    continue
                key = c[4]
                if key not in rows:
                    rows[key] = c
                    order.append(key)
                elif float(c[5]) < float(rows[key][5]):
                    rows[key][5] = c[5]
    base = {tuple(rows[k][:3]): float(rows[k][5]) for k in order
            if rows[k][3] == "libmvec"}
    out = head[:1] + ["", f"Best of {len(paths)} runs.", "", title,
                      "|---" * 10 + "|"]
    for k in order:
        c = rows[k]
        b = base.get(tuple(c[:3]))
        c[6] = f"{b / float(c[5]):.2f}x" if b else "(no libmvec)"
        out.append("| " + " | ".join(c) + " |")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
