"""v47: a CPU mirror of wide_element_transpose_kernel's unit mapping and release rule.
Every 128-byte input line that a releasing block reads must be released by that block.
    python3 release_rule_sim.py          v47's rule: 0 failures expected
    python3 release_rule_sim.py --v46    v46's rule (line starts and row starts only)
Draws 3,000 random layouts (element sizes 32 B to 2 KiB, gaps between rows and matrices,
unaligned bases in 16-byte units) and counts, per layout, the lines a block reads but
does not release."""
import sys
import random
def check(batch, rows, cols, eu, row_stride, batch_stride, rows_log2, units, base_units):
    out_rows = batch*cols; out_row_units = rows*eu
    span_log2 = (units.bit_length()-1) - rows_log2; span=1<<span_log2; mask=span-1
    row_groups = (out_rows + (1<<rows_log2)-1) >> rows_log2
    spans = (out_row_units + span-1)//span
    bad = 0; total=0
    for group in range(row_groups):
        for sp in range(spans):
            first_unit = sp<<span_log2; first_row = group<<rows_log2
            read=set(); released=set()
            for i in range(units):
                out_row = first_row + (i>>span_log2); u = first_unit + (i & mask)
                if out_row >= out_rows or u >= out_row_units: continue
                b, col = divmod(out_row, cols); row, uie = divmod(u, eu)
                addr = (base_units + b*batch_stride + col*eu + row*row_stride + uie)*16
                read.add(addr//128)
                span_end = first_unit + span
                starts_row = col==0 and uie==0
                starts_run = (i & mask)==0 or (uie==0 and (col==0 or (i>>span_log2)==0 or u+eu > span_end))
                if addr % 128 == 0 or (starts_row if V46 else starts_run): released.add(addr//128)
            total += len(read); bad += len(read - released)
    return bad, total
V46 = '--v46' in sys.argv
random.seed(1)
worst=0; n=0
for trial in range(3000):
    eu = random.choice([2,3,4,5,8,9,16,17,33,64,128])
    rows_log2=0
    while (eu*16 << (rows_log2+1)) <= 1024: rows_log2+=1
    units = max(128, 16<<rows_log2)
    cols = random.randint(1,40); rows=random.randint(1,12); batch=random.randint(1,3)
    row_stride = cols*eu + random.choice([0,0,1,3,7])
    batch_stride = rows*row_stride + random.choice([0,0,2,5])
    base = random.randint(0,7)
    bad,total = check(batch,rows,cols,eu,row_stride,batch_stride,rows_log2,units,base)
    n+=total
    if bad: print("UNRELEASED", bad, total, (batch,rows,cols,eu,row_stride,batch_stride,base)); worst+=1
    if worst>5: break
print("trials done; lines checked", n, "failures", worst)
