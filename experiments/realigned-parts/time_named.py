"""Times the realigned wide-element kernel on the H100 sweep's cases it was built for: the op
with wide_realigned=1 (forced), with wide_realigned=0 (the choice before it: ATen's copy or
narrow units), ATen's permute().contiguous(), and a same-size device copy. CUDA events,
medians of 15 runs after 3 warm-ups, the input rotated over copies that together outgrow L2
(each run reads an input L2 does not hold). Prints each time over the copy's.

    PYTHONPATH=$PWD python3 experiments/realigned-parts/time_named.py
"""

import statistics
import sys

import torch

import torch_transpose

L2_BYTES = 50 << 20  # H100 SXM: 50 MiB


def permuted_view(order):
    return lambda x: x.permute(order).contiguous().permute([order.index(d) for d in range(len(order))])


# (name, base shape, dtype, view, permutation): the sweep's (benchmarks/results/permute-h100.json)
CASES = [
    ("float8 (2,3705,2,26909) permuted view [2,1,0,3]", (2, 3705, 2, 26909), torch.float8_e5m2,
     permuted_view([2, 0, 1, 3]), [2, 1, 0, 3]),
    ("int8 (2,1,22131,1195) [1,2,0,3]", (2, 1, 22131, 1195), torch.int8, None, [1, 2, 0, 3]),
    ("float32 (2432,4,4,56,56) at +1 transpose(1,2)", (1 + 2432 * 4 * 4 * 56 * 56,), torch.float32,
     lambda x: x[1:].view(2432, 4, 4, 56, 56), [0, 2, 1, 3, 4]),
    ("float32 (38,3,255,255) transpose(1,2)", (38, 3, 255, 255), torch.float32, None, [0, 2, 1, 3]),
    ("bool (285,1,4,47998,1,2) at +10 [2,1,0,3,5,4]", (10 + 285 * 4 * 47998 * 2,), torch.bool,
     lambda x: x[10:].view(285, 1, 4, 47998, 1, 2), [2, 1, 0, 3, 5, 4]),
]


def random_input(shape, dtype):
    n = torch.empty((), dtype=dtype).element_size()
    for s in shape:
        n *= s
    raw = torch.randint(0, 2 if dtype == torch.bool else 256, (n,), dtype=torch.uint8, device="cuda")
    return raw.view(dtype).view(shape)


def median_ms(fn, inputs, reps=15, warm=3):
    times = []
    for r in range(warm + reps):
        x = inputs[r % len(inputs)]
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(x)
        end.record()
        end.synchronize()
        if r >= warm:
            times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    tuned = torch_transpose._C._permute_tuned
    print(torch.cuda.get_device_name(), flush=True)
    print(f"{'case':50} {'bytes':>11} {'realigned':>10} {'old':>8} {'aten':>8} {'copy ms':>8}  kernels")
    for name, shape, dtype, view, perm in CASES:
        base = random_input(shape, dtype)
        x0 = view(base) if view else base
        nbytes = x0.numel() * x0.element_size()
        copies = max(2, -(-2 * L2_BYTES // nbytes))
        inputs = [x0] + [view(random_input(shape, dtype)) if view else random_input(shape, dtype)
                         for _ in range(copies - 1)]
        flat = [torch.empty(nbytes, dtype=torch.uint8, device="cuda") for _ in range(copies)]
        out = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
        expected = x0.permute(perm).contiguous()
        for w in (1, 0):
            got = tuned(x0, perm, wide_realigned=w)
            if not torch.equal(got.view(-1).view(torch.uint8), expected.view(-1).view(torch.uint8)):
                print(f"{name}: WRONG with wide_realigned={w}")
                return 1
        del got, expected
        k1 = torch_transpose._C._explain_permute_tuned(x0, perm, wide_realigned=1)["kernel"]
        k0 = torch_transpose._C._explain_permute_tuned(x0, perm, wide_realigned=0)
        k0 = k0["kernel"] or k0["path"]
        copy_ms = median_ms(lambda i: out.copy_(i), flat)
        t1 = median_ms(lambda x: tuned(x, perm, wide_realigned=1), inputs)
        t0 = median_ms(lambda x: tuned(x, perm, wide_realigned=0), inputs)
        ta = median_ms(lambda x: x.permute(perm).contiguous(), inputs)
        print(f"{name:50} {nbytes:11d} {t1 / copy_ms:9.2f}x {t0 / copy_ms:7.2f}x {ta / copy_ms:7.2f}x"
              f" {copy_ms:8.3f}  {k1} | {k0}", flush=True)
        del inputs, flat, out
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
