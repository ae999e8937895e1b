#!/usr/bin/env python3
"""Guest benchmark: the anchor kernels (/work/shared/anchor/src: crc32, mix,
tile, memcpyb) written as LinxISA programs (tests/bench/linx/*.s), run by
linx-run, against the anchor's own C built by meson at -O2
-fno-tree-vectorize.

For every kernel it prints
  - emulated / native: the JIT's time for the kernel at full size over the
    native build's (the anchor's figures for upstream QEMU are printed
    beside it);
  - JIT / interpreter: the JIT's time over the IR interpreter's on the same
    reduced size (--arg K: the work divided by 2^K);
  - guest instructions and guest MIPS of the JIT run.
Times are process CPU seconds between the kernel's start and end (the
guest's MARK stores; the native build reads the CPU clock through
anchor-cpu-clock.h), the minimum over the rounds, which run interleaved.
CPU time keeps the ratios meaningful on a loaded machine (the QEMU
figures are wall-clock ratios on an idle one).  Every run must self-check
(SELFCHECK PASS; the reduced JIT and interpreter runs must print the same
checksum).

  bench-guest.py --linx-run PATH --kernel NAME:ELF:NATIVE:RAM_MIB:K[:ARGBASE] ...
                 [--rounds N] [--only NAME,...]
"""
import argparse
import os
import re
import subprocess
import sys

# upstream QEMU (qemu-riscv64) / native -O2 -fno-tree-vectorize, wall
# (shared/docs/qemu-anchor-and-design.md)
QEMU_RATIO = {'crc32': 1.2, 'mix': 2.4, 'tile': 2.7, 'memcpy': 7.9, 'memcpy-scalar': 7.9}


def run(cmd, timeout=900):
    """Run @cmd; return its stdout and stderr (it must self-check)."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    out = p.stdout.decode(errors='replace')
    if p.returncode != 0 or 'SELFCHECK PASS' not in out:
        sys.exit('bench-guest: %s failed (status %d):\n%s' % (' '.join(cmd), p.returncode, out))
    return out


def field(out, name):
    m = re.search(r'\b%s=([0-9.]+)' % name, out)
    if not m:
        sys.exit('bench-guest: no %s in:\n%s' % (name, out))
    return float(m.group(1))


def checksum(out):
    m = re.search(r'checksum=(0x[0-9a-f]+)', out)
    return m.group(1) if m else None


class Kernel:
    def __init__(self, spec):
        parts = spec.split(':')
        if len(parts) not in (5, 6):
            sys.exit('bench-guest: bad --kernel %r' % spec)
        self.name, self.elf, self.native = parts[0], parts[1], parts[2]
        self.ram, self.k = parts[3], int(parts[4])
        self.argbase = int(parts[5]) if len(parts) == 6 else 0
        self.native_s, self.jit_s = [], []
        self.insns = 0
        self.red_jit, self.red_interp = [], []

    def guest(self, linx_run, accel, k):
        return [linx_run, '-accel', accel, '--ram-mib', self.ram, '--max-seconds', '900',
                '--arg', str(self.argbase + k), self.elf]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--linx-run', required=True)
    ap.add_argument('--kernel', action='append', required=True)
    ap.add_argument('--rounds', type=int, default=int(os.environ.get('BENCH_ROUNDS', '3')))
    ap.add_argument('--only', default=os.environ.get('BENCH_ONLY', ''))
    args = ap.parse_args()

    kernels = [Kernel(s) for s in args.kernel]
    if args.only:
        keep = args.only.split(',')
        kernels = [k for k in kernels if k.name in keep]
    for r in range(args.rounds):
        for k in kernels:
            out = run([k.native])
            k.native_s.append(field(out, 'kernel_s'))
            out = run(k.guest(args.linx_run, 'jit', 0))
            k.jit_s.append(field(out, 'kernel_cpu_s'))
            k.insns = int(field(out, 'insns'))
            jo = run(k.guest(args.linx_run, 'jit', k.k))
            io = run(k.guest(args.linx_run, 'interp', k.k))
            if checksum(jo) != checksum(io):
                sys.exit('bench-guest: %s: JIT and interpreter disagree:\n%s\n%s' % (k.name, jo, io))
            k.red_jit.append(field(jo, 'kernel_cpu_s'))
            k.red_interp.append(field(io, 'kernel_cpu_s'))
            print('round %d %-13s native %.3f s  jit %.3f s  (reduced: jit %.3f s interp %.3f s)'
                  % (r + 1, k.name, k.native_s[-1], k.jit_s[-1], k.red_jit[-1], k.red_interp[-1]),
                  flush=True)

    print()
    print('| kernel | native -O2 -fno-tree-vectorize (s) | JIT (s) | emulated / native '
          '| upstream QEMU / native | JIT / interpreter | guest insns | guest MIPS |')
    print('|---|---|---|---|---|---|---|---|')
    for k in kernels:
        n, j = min(k.native_s), min(k.jit_s)
        rj, ri = min(k.red_jit), min(k.red_interp)
        print('| %s | %.3f | %.3f | **%.2fx** | %.1fx | %.3f (interp %.1fx slower, 1/%d size) '
              '| %.2f G | %.0f |'
              % (k.name, n, j, j / n, QEMU_RATIO.get(k.name, float('nan')), rj / ri, ri / rj,
                 1 << k.k, k.insns / 1e9, k.insns / 1e6 / j))
    print()
    print('Kernel CPU seconds, minimum of %d interleaved rounds.' % args.rounds)
    return 0


if __name__ == '__main__':
    sys.exit(main())
