#!/usr/bin/env python3
"""Guest benchmark: the anchor kernels (/work/shared/anchor/src: crc32, mix,
tile, memcpyb) written as LinxISA programs (tests/bench/linx/*.s), run by
linx-run, against the anchor's own C built by meson at -O2
-fno-tree-vectorize natively and, when Debian's qemu-user and
gcc-riscv64-linux-gnu are installed, for riscv64 (static) under
qemu-riscv64 — all three interleaved in the same run.

For every kernel it prints
  - linxemu / native, qemu / native and linxemu / qemu: kernel CPU time at
    full size, ratios of the minimums over the rounds (and the range of
    the per-round ratios, so the noise of a shared machine shows);
  - JIT / interpreter: the JIT's time over the IR interpreter's on the same
    reduced size (--arg K: the work divided by 2^K);
  - guest instructions and guest MIPS of the JIT run.
Times are process CPU seconds between the kernel's start and end (the
guest's MARK stores; the native and riscv64 builds read the CPU clock
through anchor-cpu-clock.h: under qemu-riscv64 that is the host process's
CPU time, translation included, as linx-run's is).  Every run must
self-check (SELFCHECK PASS; the reduced JIT and interpreter runs must
print the same checksum).  On a terminal a progress line on stderr says
what runs now.  --json FILE writes the figures with the date and the
machine (scripts/plot-bench.py draws them).

  bench-guest.py --linx-run PATH --kernel NAME:ELF:NATIVE:RAM_MIB:K[:ARGBASE] ...
                 [--qemu QEMU --rv64 NAME:ELF ...] [--rounds N] [--only NAME,...]
                 [--json FILE]
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time


class Progress:
    """One line on stderr, rewritten in place, when stderr is a terminal."""

    def __init__(self, total):
        self.tty = sys.stderr.isatty()
        self.total = total
        self.done = 0
        self.start = time.monotonic()
        self.width = 0

    def show(self, what):
        if not self.tty:
            return
        el = time.monotonic() - self.start
        eta = ''
        if self.done:
            eta = ', ~%ds left' % round(el / self.done * (self.total - self.done))
        line = '[%d/%d %ds%s] %s' % (self.done + 1, self.total, el, eta, what)
        cols = shutil.get_terminal_size((100, 24)).columns
        line = line[:(cols if cols >= 40 else 100) - 1]
        sys.stderr.write('\r' + line.ljust(self.width))
        sys.stderr.flush()
        self.width = len(line)

    def step(self):
        self.done += 1

    def clear(self):
        if self.tty and self.width:
            sys.stderr.write('\r' + ' ' * self.width + '\r')
            sys.stderr.flush()

    def say(self, text):
        """Print a line to stdout without tearing the progress line."""
        self.clear()
        self.width = 0
        print(text, flush=True)


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
        self.rv64 = None
        self.native_s, self.jit_s, self.qemu_s = [], [], []
        self.insns = 0
        self.red_jit, self.red_interp = [], []

    def guest(self, linx_run, accel, k):
        return [linx_run, '-accel', accel, '-cpu', 'linx-v0.4', '--ram-mib', self.ram,
                '--max-seconds', '900',
                '--arg', str(self.argbase + k), self.elf]


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    model = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    return {'cpu': model, 'cpus': os.cpu_count(), 'kernel': platform.release(),
            'load': [round(x, 2) for x in os.getloadavg()]}


def ratios(a, b):
    """min(a)/min(b) and the range of the per-round ratios."""
    per = [x / y for x, y in zip(a, b)]
    return min(a) / min(b), min(per), max(per)


def fmt_ratio(r):
    if r is None:
        return '-'
    return '**%.2f** (%.2f-%.2f)' % r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--linx-run', required=True)
    ap.add_argument('--kernel', action='append', required=True)
    ap.add_argument('--qemu', help='qemu-riscv64 (with --rv64 builds of the anchors)')
    ap.add_argument('--rv64', action='append', default=[], help='NAME:ELF riscv64 build')
    ap.add_argument('--qemu-missing', default='',
                    help='why there is no qemu column (printed in the table notes)')
    ap.add_argument('--rounds', type=int, default=int(os.environ.get('BENCH_ROUNDS', '3')))
    ap.add_argument('--only', default=os.environ.get('BENCH_ONLY', ''))
    ap.add_argument('--json', help='write the figures here')
    ap.add_argument('--also', action='append', default=[],
                    help='a further benchmark program run after the table (bench-kernels)')
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error('--rounds must be at least 1')

    kernels = [Kernel(s) for s in args.kernel]
    for spec in args.rv64:
        name, _, elf = spec.partition(':')
        for k in kernels:
            if k.name == name:
                k.rv64 = elf
    if args.only:
        keep = args.only.split(',')
        unknown = [n for n in keep if n not in [k.name for k in kernels]]
        if unknown:
            sys.exit('bench-guest: --only names no kernel: %s (kernels: %s)'
                     % (', '.join(unknown), ', '.join(k.name for k in kernels)))
        kernels = [k for k in kernels if k.name in keep]
    use_qemu = bool(args.qemu) and any(k.rv64 for k in kernels)
    runs_per = 4 + (1 if use_qemu else 0)
    prog = Progress(args.rounds * len(kernels) * runs_per)

    for r in range(args.rounds):
        for k in kernels:
            tag = 'round %d/%d %s' % (r + 1, args.rounds, k.name)
            prog.show(tag + ': native')
            out = run([k.native])
            k.native_s.append(field(out, 'kernel_s'))
            prog.step()
            prog.show(tag + ': linxemu')
            out = run(k.guest(args.linx_run, 'jit', 0))
            k.jit_s.append(field(out, 'kernel_cpu_s'))
            k.insns = int(field(out, 'insns'))
            prog.step()
            if use_qemu and k.rv64:
                prog.show(tag + ': qemu-riscv64')
                out = run([args.qemu, k.rv64])
                k.qemu_s.append(field(out, 'kernel_s'))
                prog.step()
            prog.show(tag + ': linxemu reduced (JIT)')
            jo = run(k.guest(args.linx_run, 'jit', k.k))
            prog.step()
            prog.show(tag + ': linxemu reduced (interpreter)')
            io = run(k.guest(args.linx_run, 'interp', k.k))
            prog.step()
            if checksum(jo) != checksum(io):
                sys.exit('bench-guest: %s: JIT and interpreter disagree:\n%s\n%s' % (k.name, jo, io))
            k.red_jit.append(field(jo, 'kernel_cpu_s'))
            k.red_interp.append(field(io, 'kernel_cpu_s'))
            q = '  qemu %.3f s' % k.qemu_s[-1] if len(k.qemu_s) == r + 1 else ''
            prog.say('round %d %-13s native %.3f s  linxemu %.3f s%s  (reduced: jit %.3f s '
                     'interp %.3f s)' % (r + 1, k.name, k.native_s[-1], k.jit_s[-1], q,
                                         k.red_jit[-1], k.red_interp[-1]))
    prog.clear()

    when = datetime.datetime.now().astimezone()
    mach = machine()
    print()
    print('| kernel | native (s) | linxemu (s) | qemu-riscv64 (s) | linxemu / native '
          '| qemu / native | linxemu / qemu | JIT / interpreter | guest insns | guest MIPS |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    rows = []
    for k in kernels:
        n, j = min(k.native_s), min(k.jit_s)
        qs = min(k.qemu_s) if k.qemu_s else None
        rj, ri = min(k.red_jit), min(k.red_interp)
        ln = ratios(k.jit_s, k.native_s)
        qn = ratios(k.qemu_s, k.native_s) if k.qemu_s else None
        lq = ratios(k.jit_s, k.qemu_s) if k.qemu_s else None
        print('| %s | %.3f | %.3f | %s | %s | %s | %s | %.3f (1/%d size) | %.2f G | %.0f |'
              % (k.name, n, j, '%.3f' % qs if qs is not None else '-', fmt_ratio(ln),
                 fmt_ratio(qn), fmt_ratio(lq), rj / ri, 1 << k.k, k.insns / 1e9,
                 k.insns / 1e6 / j))
        rows.append({'name': k.name, 'native_s': k.native_s, 'linxemu_s': k.jit_s,
                     'qemu_s': k.qemu_s or None, 'linxemu_native': ln[0],
                     'qemu_native': qn[0] if qn else None,
                     'linxemu_qemu': lq[0] if lq else None,
                     'jit_interp': rj / ri, 'guest_insns': k.insns})
    print()
    print('Kernel CPU seconds, minimum of %d interleaved rounds; ratios of the minimums '
          '(in brackets: the range of the per-round ratios).' % args.rounds)
    print('native and riscv64: the anchor C at -O2 -fno-tree-vectorize (riscv64: static, '
          'riscv64-linux-gnu-gcc); linxemu: tests/bench/linx/*.s under linx-run -accel jit.')
    if not use_qemu:
        print('No qemu-riscv64 column: %s.' % (args.qemu_missing or 'no --qemu/--rv64 given'))
    print('%s, %s (%d CPUs, Linux %s, load %s).'
          % (when.strftime('%Y-%m-%d %H:%M %Z'), mach['cpu'], mach['cpus'], mach['kernel'],
             ' '.join('%.2f' % x for x in mach['load'])))
    if args.json:
        doc = {'date': when.isoformat(timespec='seconds'), 'machine': mach,
               'rounds': args.rounds, 'qemu': args.qemu if use_qemu else None,
               'kernels': rows}
        with open(args.json, 'w') as f:
            json.dump(doc, f, indent=1)
            f.write('\n')
        print('Figures written to %s (scripts/plot-bench.py %s -o PLOT.svg draws them).'
              % (args.json, args.json))
    for prog in args.also:
        print(flush=True)
        rc = subprocess.run([prog]).returncode
        if rc != 0:
            print('bench-guest: %s failed (exit %d)' % (prog, rc), file=sys.stderr)
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
