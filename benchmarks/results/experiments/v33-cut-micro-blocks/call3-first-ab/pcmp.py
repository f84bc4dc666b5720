# Compare .ab/ptime2.py runs: per case, each tree's median ours_us over its rounds, b vs a.
import json, sys, statistics, collections
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
by = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    by[r["case"]][r["tree"]].append(r)
trees = sys.argv[2].split(",") if len(sys.argv) > 2 else ["a", "b"]
for case, t in by.items():
    med = {k: statistics.median(x["ours_us"] for x in v) for k, v in t.items()}
    rat = {k: statistics.median(x["ratio"] for x in v) for k, v in t.items()}
    ok = all(x["correct"] for v in t.values() for x in v)
    a = med.get(trees[0])
    line = f"{case:28s} " + " ".join(f"{k} {med[k]:8.2f}us ({rat[k]:.3f}x copy)" for k in trees if k in med)
    if a:
        line += "  " + " ".join(f"{k}/a {100 * (med[k] / a - 1):+.1f}%" for k in trees[1:] if k in med)
    print(line + ("" if ok else "  WRONG"))
