"""Per-kernel SASS of two builds (cuobjdump -sass dumps), names demangled and the
namespaces dropped: which kernels are identical instruction for instruction."""
import re
import subprocess
import sys


def kernels(path):
    funcs, cur, body = {}, None, []
    for line in open(path):
        m = re.match(r"\s+Function : (\S+)", line)
        if m:
            if cur:
                funcs[cur] = body
            cur, body = m.group(1), []
            continue
        if cur:
            s = re.sub(r"/\*[0-9a-f]{4,}\*/", "", line)
            s = re.sub(r"/\* 0x[0-9a-f]+ \*/", "", s).strip()
            if NORMALIZE_PARAMS:
                s = re.sub(r"c\[0x0\]\[0x[0-9a-f]+\]", "c[0x0][PARAM]", s)
            if s:
                body.append(s)
    if cur:
        funcs[cur] = body
    names = subprocess.run(["c++filt"], input="\n".join(funcs), capture_output=True, text=True).stdout.split("\n")
    return {n.replace("gputranspose::cuda::", "").replace("gputranspose::", ""): v
            for n, v in zip(names, funcs.values())}


NORMALIZE_PARAMS = False
old, new = kernels(sys.argv[1]), kernels(sys.argv[2])
exact = sum(1 for k in old if new.get(k) == old[k])
# Kernel parameters live in constant bank 0: a field fewer in the parameter struct moves
# the offsets of those after it, and nothing else.
NORMALIZE_PARAMS = True
old, new = kernels(sys.argv[1]), kernels(sys.argv[2])
print(f"SASS: {exact} kernels identical as they are; with parameter offsets normalized:")
same = sum(1 for k in old if new.get(k) == old[k])
print(f"SASS: {len(old)} kernels before, {len(new)} after, {same} identical instruction for instruction")
for k in old:
    if new.get(k) != old[k]:
        print("  differs or missing:", k[:160])
