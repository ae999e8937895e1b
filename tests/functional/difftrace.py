#!/usr/bin/env python3
"""scripts/linx-difftrace.py on the shared compiled programs.

    difftrace.py DIFFTRACE LINX_USER LINX_OBJDUMP SHARED_DIR

1. The JIT with whole-block TBs and the interpreter with one instruction
   per TB agree on 01_containers.static and 02_algorithms.static (status 0).
2. Under the two ISA profiles 01_containers.static first differs where the
   LinxISA toolchain's convention first matters: instruction 42 (commit
   row 41), pc 0x420d0, the word 06310105, "add a0, a1" in
   __libc_start_main computing argv + argc * 8 on the way to envp (the
   real-toolchain issue's analysis, checked against LinxCore's commit
   trace): argv + 8 under linx-toolchain, argv - 8 under linx-v0.4.  The
   tool must exit 1 and name that instruction.
Exits 77 when the shared programs are absent.
"""
import os
import re
import subprocess
import sys

diff, user, objdump, shared = sys.argv[1:5]
progs = [os.path.join(shared, 'guest', 'linux-user', n)
         for n in ('01_containers.static', '02_algorithms.static')]
if not all(os.path.exists(p) for p in progs):
    print('SKIP: shared programs not found')
    sys.exit(77)
fails = 0


def run(*args):
    return subprocess.run([sys.executable, diff, '--tool', user, '--objdump', objdump] +
                          list(args), capture_output=True, text=True, timeout=600)


for prog in progs:
    p = run('--', prog)
    if p.returncode != 0 or 'the traces agree' not in p.stdout:
        print('FAIL: JIT vs one-insn interpreter on %s: status %d\n%s%s' % (
            prog, p.returncode, p.stdout, p.stderr))
        fails += 1
    else:
        print('ok: %s: %s' % (os.path.basename(prog), p.stdout.strip().splitlines()[-1]))

p = run('--a', '-cpu linx-toolchain', '--b', '-cpu linx-v0.4', '--', progs[0])
first = re.search(r'first difference at instruction (\d+) \(commit-trace row (\d+)\)', p.stdout)
a_line = re.search(r'^  A \[.*?\]: (0x[0-9a-f]+): (\S+) ', p.stdout, re.M)
vals = re.search(r'fields that differ: wb_data (0x[0-9a-f]+) / (0x[0-9a-f]+)$', p.stdout, re.M)
# a0 = argv, a1 = argc << 3 = 8: "add a0, a1" with SrcRType 3 is argv + 8
# (linx-toolchain, no modifier) or argv - 8 (linx-v0.4, .neg): 16 apart.
if (p.returncode != 1 or not first or first.group(1) != '42' or not a_line or
        a_line.group(1) != '0x420d0' or a_line.group(2) != 'add' or not vals or
        int(vals.group(1), 16) - int(vals.group(2), 16) != 0x10):
    print('FAIL: profile difference not found where expected (status %d):\n%s%s' % (
        p.returncode, p.stdout, p.stderr))
    fails += 1
else:
    print('ok: profiles first differ at instruction 42, 0x420d0 add')
sys.exit(1 if fails else 0)
