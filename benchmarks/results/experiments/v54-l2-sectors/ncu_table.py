import re,sys
def parse(path):
    cases=[];cur=None
    for line in open(path):
        m=re.match(r'^(copyproxy_64M|\w+_(?:u8|bf16|f32|f64))\b',line)
        if m and not line.startswith('  '):
            cases.append(m.group(1))
    out=[];blk=None
    for line in open(path):
        if re.match(r'^  \S.*\(\d+, 1, 1\)x\(\d+, 1, 1\)',line):
            blk={}; out.append(blk)
        m=re.match(r'^\s+(\S+)\s+(\S+)\s+([\d,.]+)\s*$',line)
        if m and blk is not None:
            v=float(m.group(3).replace(',',''))
            unit=m.group(2)
            if unit=='Mbyte': v*=1e6
            if unit=='Gbyte': v*=1e9
            if unit=='Kbyte': v*=1e3
            if unit=='ms': v*=1000
            blk[m.group(1)]=v
    return list(zip(cases,out))
cols=[('gpu__time_duration.sum','us',1),('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum','l1 M',1e6),('l1tex__m_xbar2l1tex_read_sectors.sum','xbar M',1e6),('lts__t_sectors_op_read.sum','rd M',1e6),('lts__t_sectors_op_write.sum','wr M',1e6),
('lts__t_sectors_srcunit_tex_op_read.sum','texrd M',1e6),('lts__t_sectors_srcunit_tex_op_write.sum','texwr M',1e6),
('lts__t_sectors_srcunit_ltcfabric.sum','fab M',1e6),('lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum','rdmiss M',1e6),
('lts__t_requests_srcunit_tex_op_read.sum','rdreq M',1e6),('dram__bytes_read.sum','dramrd MB',1e6),('dram__bytes_write.sum','dramwr MB',1e6),('smsp__inst_executed.sum','inst M',1e6)]
for path in sys.argv[1:]:
    print(path)
    print(f"{'case':14s}"+''.join(f"{c[1]:>10s}" for c in cols)+f"{'ops/us k':>10s}")
    for case,b in parse(path):
        ops=(b.get('lts__t_sectors_op_read.sum',0)+b.get('lts__t_sectors_op_write.sum',0))/b['gpu__time_duration.sum']/1e3
        print(f"{case:14s}"+''.join(f"{b.get(c[0],float('nan'))/c[2]:10.2f}" for c in cols)+f"{ops:10.1f}")
