#!/usr/bin/env python3
"""The commit trace against the LinxISA QEMU trace shipped with a shared
bare-metal ELF, on every field of the peer's schema except `cycle`:
sources (src0/src1: SrcL/RegSrc0 and SrcR/RegSrc1, GPRs, values before
the instruction), write-back and destination, the memory access (loads,
stores, the 8-byte steps of MCOPY/MSET), trap and block fields, next_pc.
tests/functional/virt-trace.py covers the header-duplication and dtype
differences of the other shared trace; this file has neither.  Exit
status 77 (skip) when the shared directory is absent.

    trace-peer.py LINX_SYSTEM SHARED_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

CASE = 'model_scalar_mcopy_mset'


def main():
    system, shared = sys.argv[1:3]
    base = os.path.join(shared, 'guest', 'baremetal')
    elf = os.path.join(base, CASE + '.elf')
    if not os.path.exists(elf):
        print('SKIP: %s not present' % elf)
        return 77
    with open(os.path.join(base, CASE + '.trace.jsonl')) as f:
        ref = [json.loads(l) for l in f if l.strip()]
    bad = 0
    with tempfile.TemporaryDirectory(prefix='linx-trace-peer-') as tmp:
        for accel in ('jit', 'interp'):
            path = os.path.join(tmp, accel + '.jsonl')
            p = subprocess.run([system, '-M', 'virt', '-kernel', elf, '-accel', accel,
                                '-trace-commit', path], capture_output=True, text=True,
                               timeout=120)
            if p.returncode != 0:
                print('FAIL: %s exited %d: %s' % (accel, p.returncode, p.stderr))
                bad += 1
                continue
            with open(path) as f:
                ours = [json.loads(l) for l in f if l.strip()]
            if len(ours) != len(ref):
                print('FAIL: %s: %d rows, the shared trace has %d' % (accel, len(ours), len(ref)))
                bad += 1
            for i, (g, r) in enumerate(zip(ours, ref)):
                for k in r:
                    if k != 'cycle' and g.get(k) != r[k]:
                        bad += 1
                        if bad <= 20:
                            print('FAIL: %s row %d (pc 0x%x): %s is %r, the shared trace has %r'
                                  % (accel, i, r['pc'], k, g.get(k), r[k]))
    if bad:
        return 1
    print('OK: %d rows, every field but cycle' % len(ref))
    return 0


if __name__ == '__main__':
    sys.exit(main())
