#!/usr/bin/env python3
"""Commit-trace block fields (docs/engine.md, "Commit trace") for the block
kinds the shared peer traces lack: trace-kinds.s runs on the virt machine
under the JIT, the interpreter and one-instruction TBs; the three traces
must be identical, and every row must carry the block_kind, lane_id,
tile_meta (func,dtype,iot_valid,iot_count), tile_ref_src and tile_ref_dst
listed below (worked out by hand from the rule), for the instruction named
(the disassembly of the row's pc).

    trace-kinds.py LINX_SYSTEM LINX_OBJDUMP trace-kinds.elf
"""
import json
import os
import re
import subprocess
import sys
import tempfile

# mnemonic, block_kind, lane_id, tile_meta values ('-': empty), ref_src, ref_dst
EXPECTED = """
    C.BSTART.STD   scalar -1 -          0 0
    addtpc         scalar -1 -          0 0
    addi           scalar -1 -          0 0
    ssrget         sys    -1 -          0 0
    fadd.fd        sys    -1 -          0 0
    fmax.fd        scalar -1 -          0 0
    BSTART.STD     call   -1 -          0 0
    c.setret       call   -1 -          0 0
    C.BSTART.STD   ret    -1 -          0 0
    c.setc.tgt     ret    -1 -          0 0
    C.BSTOP        ret    -1 -          0 0
    C.BSTART.SYS   sys    -1 -          0 0
    hl.lis         scalar -1 -          0 0
    BSTART.TMA     tma    -1 0,17,0,0   0 0
    C.B.DIMI       tma    -1 0,17,0,0   0 0
    C.B.DIMI       tma    -1 0,17,0,0   0 0
    C.B.DIMI       tma    -1 0,17,0,0   0 0
    B.ARG          tma    -1 0,17,0,0   0 0
    B.IOR          tma    -1 0,17,0,0   0 0
    B.IOTI         tma    -1 0,17,1,1   0 0
    BSTART.TMA     tma    -1 0,17,0,0   0 0
    C.B.DIMI       tma    -1 0,17,0,0   0 0
    C.B.DIMI       tma    -1 0,17,0,0   0 0
    C.B.DIMI       tma    -1 0,17,0,0   0 0
    B.ARG          tma    -1 0,17,0,0   0 0
    B.IOR          tma    -1 0,17,0,0   0 0
    B.IOTI         tma    -1 0,17,1,1   0 0
    BSTART.TEPL    tepl   -1 1,17,0,0   0 0
    C.B.DIMI       tepl   -1 1,17,0,0   0 0
    C.B.DIMI       tepl   -1 1,17,0,0   0 0
    B.IOTI         tepl   -1 1,17,1,1   1 0
    BSTART.TMA     tma    -1 0,19,0,0   0 0
    C.B.DIMI       tma    -1 0,19,0,0   0 0
    C.B.DIMI       tma    -1 0,19,0,0   0 0
    C.B.DIMI       tma    -1 0,19,0,0   0 0
    B.ARG          tma    -1 0,19,0,0   0 0
    B.IOR          tma    -1 0,19,0,0   0 0
    B.IOTI         tma    -1 0,19,1,1   0 0
    BSTART.TMA     tma    -1 0,19,0,0   0 0
    C.B.DIMI       tma    -1 0,19,0,0   0 0
    C.B.DIMI       tma    -1 0,19,0,0   0 0
    C.B.DIMI       tma    -1 0,19,0,0   0 0
    B.ARG          tma    -1 0,19,0,0   0 0
    B.IOR          tma    -1 0,19,0,0   0 0
    B.IOTI         tma    -1 0,19,1,1   0 0
    BSTART.CUBE    cube   -1 0,19,0,0   0 0
    C.B.DIMI       cube   -1 0,19,0,0   0 0
    C.B.DIMI       cube   -1 0,19,0,0   0 0
    C.B.DIMI       cube   -1 0,19,0,0   0 0
    B.ARG          cube   -1 0,19,0,0   0 0
    B.IOTI         cube   -1 0,19,1,1   0 8
    BSTART.CUBE    cube   -1 8,17,0,0   0 0
    C.B.DIMI       cube   -1 8,17,0,0   0 0
    C.B.DIMI       cube   -1 8,17,0,0   0 0
    C.B.DIMI       cube   -1 8,17,0,0   0 0
    B.ARG          cube   -1 8,17,0,0   0 0
    B.IOR          cube   -1 8,17,0,0   0 0
    B.IOTI         cube   -1 8,17,1,1   0 0
    BSTART.MPAR    scalar -1 -          0 0
    B.TEXT         scalar -1 -          0 0
    C.B.DIMI       scalar -1 -          0 0
    v.addi         vpar    0 -          0 0
    v.subi         vpar    0 -          0 0
    v.addi         vpar    0 -          0 0
    v.subi         vpar    0 -          0 0
    BSTART.VPAR    vpar    0 -          0 0
    B.TEXT         vpar    0 -          0 0
    C.B.DIMI       vpar    0 -          0 0
    v.addi         vpar    0 -          0 0
    v.addi         vpar    0 -          0 0
    v.addi         vpar    0 -          0 0
    C.BSTART.VSEQ  vseq    0 -          0 0
    B.TEXT         vseq    0 -          0 0
    C.B.DIMI       vseq    0 -          0 0
    v.addi         vseq    0 -          0 0
    v.addi         vseq    0 -          0 0
    v.rdadd        vseq    0 -          0 0
    v.rdadd        vseq    0 -          0 0
    C.BSTART.STD   scalar -1 -          0 0
    hl.liu         scalar -1 -          0 0
    swi            scalar -1 -          0 0"""

MODES = (['-accel', 'jit'], ['-accel', 'interp'], ['-accel', 'jit', '-one-insn-per-tb'])


def expected_rows():
    rows = []
    for line in EXPECTED.strip().splitlines():
        mn, kind, lane, meta, src, dst = line.split()
        if meta != '-':
            meta = 'func=%s,dtype=%s,iot_valid=%s,iot_count=%s' % tuple(meta.split(','))
        rows.append((mn, kind, int(lane), '' if meta == '-' else meta, int(src), int(dst)))
    return rows


def disassembly(objdump, elf):
    out = subprocess.run([objdump, '-d', elf], capture_output=True, text=True,
                         check=True).stdout
    dis = {}
    for line in out.splitlines():
        m = re.match(r'\s*([0-9a-f]+):\s+(?:[0-9a-f]{4,8} )+\s*(\S+)', line)
        if m:
            dis[int(m.group(1), 16)] = m.group(2)
    return dis


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    system, objdump, elf = sys.argv[1:]
    dis = disassembly(objdump, elf)
    want = expected_rows()
    bad = 0
    texts = []
    with tempfile.TemporaryDirectory(prefix='linx-trace-kinds-') as tmp:
        for n, mode in enumerate(MODES):
            path = os.path.join(tmp, '%d.jsonl' % n)
            p = subprocess.run([system, '-M', 'virt', '-kernel', elf] + mode +
                               ['-trace-commit', path], capture_output=True, text=True,
                               timeout=120)
            if p.returncode != 0:
                print('FAIL: %s: exit status %d\n%s' % (' '.join(mode), p.returncode, p.stderr))
                return 1
            with open(path) as f:
                texts.append(f.read())
    for n in range(1, len(MODES)):
        if texts[n] != texts[0]:
            print('FAIL: the trace under %s differs from the one under %s' %
                  (' '.join(MODES[n]), ' '.join(MODES[0])))
            bad += 1
    rows = [json.loads(l) for l in texts[0].splitlines() if l.strip()]
    if len(rows) != len(want):
        print('FAIL: %d rows, expected %d' % (len(rows), len(want)))
        bad += 1
    for i, (r, w) in enumerate(zip(rows, want)):
        got = (dis.get(r['pc'], '?'), r['block_kind'], r['lane_id'], r['tile_meta'],
               r['tile_ref_src'], r['tile_ref_dst'])
        if got != w:
            bad += 1
            print('FAIL: row %d (pc 0x%x): %r, expected %r' % (i, r['pc'], got, w))
        if w[0].startswith('v.'):
            # kernel-body rows: next_pc = pc + len, no register/memory fields
            body = (r['len'], r['next_pc'] - r['pc'], r['wb_valid'], r['src0_valid'],
                    r['src1_valid'], r['dst_valid'], r['mem_valid'], r['trap_valid'])
            if body != (8, 8, 0, 0, 0, 0, 0, 0):
                bad += 1
                print('FAIL: body row %d (pc 0x%x): len/next_pc-pc/wb/src0/src1/dst/mem/trap '
                      '%r' % (i, r['pc'], body))
    if bad:
        return 1
    print('ok: %d rows, identical under %d modes' % (len(rows), len(MODES)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
