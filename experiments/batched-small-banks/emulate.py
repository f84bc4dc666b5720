#!/usr/bin/env python3
"""Replays the batched-small kernel's phase-2 gathers (back to back, batched_small_transpose.cuh)
warp by warp and counts shared-load wavefronts per warp-wide gather: on sm_90 a load's
wavefronts are the most distinct 4-byte words that its lanes ask of one bank (same words
broadcast). Conflict ratio = wavefronts beyond the ideal (1, or E x lanes / 128 for 8- and
16-byte elements) over all wavefronts, as ncu's shared-load bank conflicts / wavefronts.

Layouts (shared address a of an input byte staged at shift + k):
  current  a
  slot16   16-byte slots XORed in their 128-byte row: a ^ (((a >> 7) & 7) << 4)
  pad      a 4-byte pad after every 16 x C bytes (rows of 16 apart no longer 4 words x C)
  word     4-byte words XORed by their 128-byte row: a ^ (((a >> 7) & 31) << 2)
           (phase 1 keeps 16-byte stores: a slot moves whole within its row, its words
           permuted in registers)
  rot      current layout; lane l gathers its word's 4-byte groups starting at group
           (l >> 3) & 3 (then rotates the word's registers back)
"""
import random, sys

def layout(name):
    if name in ("current", "rot", "sync"):
        return lambda a, C: a
    if name == "slot16":
        return lambda a, C: a ^ (((a >> 7) & 7) << 4)
    if name == "pad":
        return lambda a, C: a + 4 * (a // (16 * C))
    if name in ("word", "syncword"):
        return lambda a, C: a ^ (((a >> 7) & 31) << 2)
    if name == "word8":  # only the 3 slot bits and 2 word bits from row bits 0..4, as word
        return lambda a, C: a ^ ((a >> 5) & 0x7C)
    raise ValueError(name)

def count(E, R, C, name, matrices=None, blocks=8, in_base=0, out_base=0):
    RC = R * C
    mb = RC * E
    per_chunk = max(1, 8192 // mb) if matrices is None else matrices
    chunk = per_chunk * mb
    total_matrices = per_chunk * blocks + (per_chunk // 2)
    nbytes = total_matrices * mb
    f = layout(name)
    wav = ideal = 0
    nblocks = (nbytes + chunk - 1) // chunk
    for b in range(nblocks):
        begin = b * chunk
        n = min(chunk, nbytes - begin)
        shift = (in_base + begin) % 16
        out_shift = (out_base + begin) % 16
        words = (out_shift + n + 15) // 16
        steps = 16 // E
        for w0 in range(0, words, 32):  # a warp's words (thread t: word t, t + 256, ...)
            lanes = [w for w in range(w0, min(w0 + 32, words))
                     if 16 * w - out_shift >= 0 and 16 * w - out_shift + 16 <= n]
            if not lanes:
                continue
            for s in range(steps):
                req = {}
                for w in lanes:
                    l = w % 32
                    q = s
                    if name in ("sync", "syncword"):
                        k0 = (16 * w - out_shift) // E
                        i0 = (k0 % RC) % R
                        q = (s - i0) % steps
                    elif name == "rot" and steps >= 4:
                        g = steps // 4  # elements a 4-byte group
                        q = (s + g * ((l >> 3) & 3)) % steps
                    k = (16 * w - out_shift) // E + q
                    m, t = divmod(k, RC)
                    j, i = divmod(t, R)
                    a = f(shift + E * (m * RC + i * C + j), C)
                    for wd in range(a // 4, (a + E - 1) // 4 + 1):
                        req.setdefault(wd % 32, set()).add(wd)
                wf = max(len(v) for v in req.values())
                wav += wf
                ideal += max(1, -(-len(lanes) * E // 128))
    return wav, ideal

SHAPES = [(1, 34, 35), (1, 113, 10), (1, 49, 64), (1, 49, 128), (1, 449, 15), (1, 210, 9),
          (1, 16, 33), (1, 17, 200), (2, 27, 128), (2, 34, 35), (4, 34, 35), (8, 34, 35)]
LAYOUTS = ["current", "slot16", "pad", "word", "rot"]

def ratio(E, R, C, name, **kw):
    w, i = count(E, R, C, name, **kw)
    return (w - i) / w

def main():
    names = sys.argv[1:] or LAYOUTS
    print("E  R x C        " + " ".join(f"{n:>8}" for n in names))
    for E, R, C in SHAPES:
        print(f"{E}  {R:>3} x {C:<4}    " + " ".join(f"{100 * ratio(E, R, C, n):7.1f}%" for n in names))
    rng = random.Random(7)
    tot = {n: [0, 0] for n in names}
    for _ in range(40):
        E = rng.choice([1, 1, 2, 4])
        while True:
            R, C = rng.randint(16 // E, 200), rng.randint(1, 200)
            if R * C * E <= 8192:
                break
        for n in names:
            w, i = count(E, R, C, n, blocks=3)
            tot[n][0] += w
            tot[n][1] += i
    print("random 40 (E in 1,1,2,4; R >= 16/E; R C E <= 8192) " +
          " ".join(f"{100 * (w - i) / w:7.1f}%" for w, i in tot.values()))

if __name__ == "__main__":
    main()
