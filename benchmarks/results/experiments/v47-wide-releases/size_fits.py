"""v47: time against bytes for three uint8 kernel families (calls 5-7): least-squares
t = fixed + slope x MiB for gputranspose and for the same-shape copy, inputs of 48 MiB or
more (past L2). python3 size_fits.py   (from this folder)"""
import json

rows = [r for call, name in (("call5", "sizes"), ("call6", "shapes"), ("call7", "waves"))
        for r in json.load(open(f"{call}/{name}.json"))["rows"] if r["dtype"] == "uint8"]


def dims(r):
    rows_, cols = (int(v) for v in r["shape"].split(" ")[0].split("x"))
    return rows_, cols, r["input_pitch"] - cols


def line(xs, ys):
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


FAMILIES = {
    "slices (pitch = cols + 17)": lambda r: " of " in r["shape"] and dims(r)[2] == 17,
    "aligned rows, pitch = cols + 16": lambda r: " of " in r["shape"] and dims(r)[2] == 16,
    "aligned, contiguous": lambda r: " of " not in r["shape"] and dims(r)[1] % 16 == 0
                                     and dims(r)[0] % 16 == 0,
    "odd, contiguous (R x C both odd)": lambda r: " of " not in r["shape"] and dims(r)[0] % 2
                                                   and dims(r)[1] % 2,
}
for name, member in FAMILIES.items():
    fam = [r for r in rows if member(r) and dims(r)[0] * dims(r)[1] >= 48 << 20]
    mib = [dims(r)[0] * dims(r)[1] / 2**20 for r in fam]
    (a, b), (ca, cb) = line(mib, [r["gputranspose_us"] for r in fam]), line(mib, [r["copy_us"] for r in fam])
    print(f"{name:34s} {len(fam):2d} rows, {min(mib):.0f}-{max(mib):.0f} MiB: ours {a:5.2f} us + "
          f"{b:.4f} us/MiB, copy {ca:5.2f} + {cb:.4f}: slope {b / cb:.3f}x the copy's, fixed {a - ca:+.2f} us")
