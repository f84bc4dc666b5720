import json, sys, statistics
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
trees = sys.argv[2].split(",")
d = {}
for r in rows:
    d.setdefault((r["dtype"], r["shape"]), {}).setdefault(r["tree"][0], []).append(r)
for k, v in d.items():
    base = statistics.median(x["ours_us"] for x in v[trees[0]])
    cells = []
    for t in trees:
        if t not in v: cells.append("-"); continue
        m = statistics.median(x["ours_us"] for x in v[t]); c = statistics.median(x["copy_us"] for x in v[t])
        ok = all(x["correct"] for x in v[t])
        cells.append(f"{m:7.1f} {100*(m/base-1):+5.1f}% x{m/c:.3f}{'' if ok else ' WRONG'}")
    print(f"{k[0]:9s} {k[1]:18s} " + " ".join(f"{c:>28s}" for c in cells))
