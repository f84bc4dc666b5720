"""Times the permutes the rule gives the nd-tile kernel (the H100 permute sweep's nd cases:
all-2 and all-3 reversals, 3-D reversals of 1- and 2-byte values, one of 4-byte values as
the control nd-words leaves alone) by the rule, against a same-size copy: CUDA events,
medians of 15 runs after 3 warm-ups, inputs rotated over copies that outgrow L2. Run it in
two builds (with and without nd-words.patch) on one machine and compare the ratios.

    PYTHONPATH=$PWD python3 experiments/nd-words/time_rule_cases.py
"""

import statistics

import torch

import torch_transpose

L2_BYTES = 60 << 20  # above an H100's 50 MiB and an H200's


def rev(n):
    return list(range(n - 1, -1, -1))


CASES = [
    ("uint8 all-2 reversal, rank 24", (2,) * 24, torch.uint8, rev(24)),
    ("uint8 all-3 reversal, rank 17", (3,) * 17, torch.uint8, rev(17)),
    ("bfloat16 all-3 reversal, rank 16", (3,) * 16, torch.bfloat16, rev(16)),
    ("float16 (10, 710, 572) reversed", (10, 710, 572), torch.float16, [2, 1, 0]),
    ("float8 (333, 262938, 3) reversed", (333, 262938, 3), torch.float8_e5m2, [2, 1, 0]),
    ("bool (3, 38864, 1651) reversed", (3, 38864, 1651), torch.bool, [2, 1, 0]),
    ("float32 all-2 reversal, rank 24 (control)", (2,) * 24, torch.float32, rev(24)),
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
    op = torch.ops.gputranspose
    print(torch.cuda.get_device_name(), flush=True)
    for name, shape, dtype, perm in CASES:
        x0 = random_input(shape, dtype)
        nbytes = x0.numel() * x0.element_size()
        copies = max(2, -(-2 * L2_BYTES // nbytes))
        inputs = [x0] + [random_input(shape, dtype) for _ in range(copies - 1)]
        flat = [i.view(-1).view(torch.uint8) for i in inputs]
        out = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
        got = op.permute(x0, perm)
        ok = torch.equal(got.view(-1).view(torch.uint8),
                         x0.permute(perm).contiguous().view(-1).view(torch.uint8))
        kernel = torch_transpose.explain_permute(x0, perm)["kernel"] or "-"
        copy_ms = median_ms(lambda i: out.copy_(i), flat)
        t = median_ms(lambda x: op.permute(x, perm), inputs)
        print(f"{name:44} {nbytes >> 20:5d} MiB {t / copy_ms:6.2f}x copy {'' if ok else 'WRONG '}"
              f"{kernel[:60]}", flush=True)
        del inputs, flat, out, got
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
