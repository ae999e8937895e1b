#!/usr/bin/env python3
"""The guest benchmark's programs (tests/bench/linx/*.s) at reduced size,
as a test: each must print SELFCHECK PASS under the JIT with host faults,
the JIT with TLB checks (LINX_HOST_FAULTS=0) and the interpreter, with the
same checksum in all three; crc32's checksum must equal zlib.crc32 of the
same xorshift64 bytes (the anchor's generator, bench.h: x ^= x << 13;
x ^= x >> 7; x ^= x << 17 from 0x9E3779B97F4A7C15, little-endian) over
64 MiB >> K, computed here.  (The bench target had stopped at its first
program, SELFCHECK FAIL under the wrong ISA profile, and no test noticed.)

  check-programs.py LINX_RUN NAME:ELF:RAM_MIB:ARG ...
"""
import os
import re
import struct
import subprocess
import sys
import zlib

M = (1 << 64) - 1


def xorshift_bytes(n):
    s = 0x9E3779B97F4A7C15
    out = bytearray()
    for _ in range(n // 8):
        s ^= (s << 13) & M
        s ^= s >> 7
        s ^= (s << 17) & M
        out += struct.pack('<Q', s)
    return bytes(out)


def main():
    linx_run = sys.argv[1]
    fails = 0
    for spec in sys.argv[2:]:
        name, elf, ram, arg = spec.split(':')
        sums = {}
        for way, accel, env in (('jit', 'jit', {}), ('jit-tlb', 'jit', {'LINX_HOST_FAULTS': '0'}),
                                ('interp', 'interp', {})):
            e = dict(os.environ)
            e.update(env)
            p = subprocess.run([linx_run, '-accel', accel, '-cpu', 'linx-v0.4', '--ram-mib', ram,
                                '--arg', arg, elf], capture_output=True, text=True, env=e,
                               timeout=300)
            out = p.stdout + p.stderr
            m = re.search(r'checksum=(0x[0-9a-f]+)', out)
            if p.returncode != 0 or 'SELFCHECK PASS' not in out or not m:
                print('FAIL: %s %s: status %d\n%s' % (name, way, p.returncode, out))
                fails += 1
                continue
            sums[way] = int(m.group(1), 16)
        if len(set(sums.values())) > 1:
            print('FAIL: %s: checksums differ: %s' % (name, {k: hex(v) for k, v in sums.items()}))
            fails += 1
        if name == 'crc32' and sums:
            want = zlib.crc32(xorshift_bytes((64 << 20) >> int(arg)))
            if sums.get('jit') != want:
                print('FAIL: crc32: 0x%x, zlib says 0x%x' % (sums.get('jit', -1), want))
                fails += 1
        if not fails:
            print('ok: %s %s' % (name, {k: hex(v) for k, v in sums.items()}))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
