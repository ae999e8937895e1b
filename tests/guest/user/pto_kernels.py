#!/usr/bin/env python3
"""Run a compiled PTO kernel (clang output: ../shared/guest/asm/pto_*.s, or
the linx-isa mirror's docs/reference/examples/v0.4/generated/pto_*_auto.s)
under linx-user and check its output buffers against numpy.

    pto_kernels.py --kernel mamulb|tmatmul_acc|gemm|flash
                   (--src KERNEL.s | --git-repo GITDIR --git-path PATH)
                   --linx-as AS --linx-user USER --lutest LUTEST.py
                   [--accel jit|interp] [--cpu PROFILE] [--workdir DIR]

--git-repo reads the kernel from a git mirror without a work tree
(`git -C GITDIR show HEAD:PATH`), e.g. the linx-isa mirror's generated
gemm and flash-attention kernels; nothing is copied into this repository.

The oracle is written from the specification, not from linxemu:
  * the tile registers are the v0.4 manual's queues (04_block_isa.adoc:
    "k=1 is the most recent definition"; 8 deep, docs/tile.md), pushed by
    TLOAD and ACCCVT;
  * TLOAD / TSTORE with "C.B.DIMI 0, ->lb0" move the whole 4 KB tile as one
    GM row (docs/decisions.md D8, linx-toolchain);
  * TMATMUL (MAMULB) on ND tiles: A = SrcTile0, B = SrcTile1, read as dense
    row-major m x k and k x n int32 matrices, the int32 sum wrapping
    modulo 2^32 (PTO-Kernel include/pto/linx/impl/backend.hpp cubeMamulb);
    MAMULB.ACC adds to the implicit ACC;
  * ACCCVT INT32 without B.ARG (quant none) pushes the ACC as the dense
    m x n matrix at the start of its tile, zero after it.
This script interprets the kernel's tile headers with that model (numpy
int arrays), so the expected buffers follow from the kernel text and the
rules above.  It fails on any header the model does not know.

The driver (generated here, assembled with the kernel by linx-as) fills the
input buffers, pre-fills every output byte and a guard after it with a
sentinel, calls the kernel, writes the output buffers and the guard to
stdout and exits 0; this script compares every byte.

Exit status: 0 pass, 1 fail, 77 skip (the kernel source is absent).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

TILE_WORDS = 1024          # a 4 KB INT32 tile
SENTINEL = 0xdeadbeef
GUARD_WORDS = 16
QUEUE_DEPTH = 8

# kernel: (function symbol, [(argument register, tiles, is_output)])
KERNELS = {
    'mamulb': ('pto_mamulb_i32_8x8', [('a0', 1, False), ('a1', 1, False), ('a2', 1, True)]),
    'tmatmul_acc': ('pto_tmatmul_acc_i32_8x8',
                    [('a0', 1, False), ('a1', 1, False), ('a2', 1, True)]),
    'gemm': ('pto_gemm_auto_i32', [('a0', 9, False), ('a1', 8, False), ('a2', 11, True)]),
    'flash': ('pto_flash_attention_auto_i32',
              [('a0', 5, False), ('a1', 5, False), ('a2', 4, False), ('a3', 9, True)]),
}
STACK_TILES = 8


class ModelError(Exception):
    pass


def strip_comment(line):
    return re.split(r'(?:^|\s)#(?:\s|$)', line)[0].strip()


def parse_blocks(path):
    """The kernel's tile header blocks, in text order, with the symbolic
    (base register, byte offset) their B.IOR names."""
    regs = {}
    blocks = []
    cur = None
    for raw in open(path):
        line = strip_comment(raw)
        if not line or line.endswith(':') or line.startswith('.'):
            continue
        m = re.match(r'(\S+)\s*(.*)', line)
        op, rest = m.group(1), m.group(2)
        if op.upper().startswith(('BSTART', 'C.BSTART', 'FENTRY', 'FRET', 'FEXIT')):
            if cur:
                blocks.append(cur)
                cur = None
        if op in ('BSTART.TMA', 'BSTART.CUBE'):
            cur = {'op': rest.split(',')[0].strip(), 'dtype': rest.split(',')[1].strip(),
                   'lb': {}, 'line': line}
        elif op.startswith('BSTART.') or op.startswith('C.BSTART.') and op != 'C.BSTART.STD':
            raise ModelError('header the model does not know: ' + line)
        elif op == 'C.B.DIMI' and cur is not None:
            v, lb = re.match(r'(-?\d+),\s*->lb(\d)', rest).groups()
            cur['lb'][int(lb)] = int(v)
        elif op == 'B.ARG' and cur is not None:
            if rest.strip() != 'NORM.normal':
                raise ModelError('B.ARG the model does not know: ' + line)
        elif op == 'B.IOR' and cur is not None:
            cur['ior'] = regs.get(re.match(r'\[(\w+)\]', rest).group(1),
                                  (re.match(r'\[(\w+)\]', rest).group(1), 0))
        elif op == 'B.IOTI' and cur is not None:
            cur['srcs'] = [(h, int(k)) for h, k in
                           re.findall(r'([tumn])#(\d+)', rest.split(']')[0])]
            d = re.search(r'->(\w+)<4KB>', rest)
            if not d:
                raise ModelError('B.IOTI the model does not know: ' + line)
            cur['dst'] = d.group(1)
        elif op == 'hl.addi':
            a = [x.strip() for x in rest.replace('->', '').split(',')]
            base = regs.get(a[0], (a[0], 0))
            regs[a[2]] = (base[0], base[1] + int(a[1]))
        elif cur is not None and not op.startswith(('B.', 'C.B.')):
            raise ModelError('instruction inside a tile header: ' + line)
    if cur:
        blocks.append(cur)
    return blocks


def run_model(blocks, memory):
    """Execute the headers on @memory ({base: uint32 array}) in place."""
    hands = {h: [] for h in 'tumn'}
    acc = None

    def tile(h, k):
        if k > len(hands[h]):
            raise ModelError('%s#%d was never written' % (h, k))
        return hands[h][k - 1]

    def push(h, v):
        hands[h].insert(0, v)
        del hands[h][QUEUE_DEPTH:]

    def window(addr):
        base, off = addr
        if off % 4096:
            raise ModelError('unaligned tile address %r' % (addr,))
        return memory[base], off // 4

    for b in blocks:
        op = b['op']
        if b['dtype'] != 'INT32':
            raise ModelError('dtype the model does not know: ' + b['line'])
        if op in ('TLOAD', 'TSTORE'):
            if b['lb'] != {0: 0, 1: 0}:
                raise ModelError('TMA dims the model does not know: %r' % b['lb'])
            buf, w = window(b['ior'])
            if op == 'TLOAD':
                push(b['dst'], buf[w:w + TILE_WORDS].copy())
            else:
                if len(b['srcs']) != 1:
                    raise ModelError('multi-tile TSTORE')
                buf[w:w + TILE_WORDS] = tile(*b['srcs'][0])
        elif op in ('MAMULB', 'MAMULB.ACC', 'TMATMUL', 'TMATMUL.ACC'):
            m, n, k = b['lb'][0], b['lb'][1], b['lb'][2]
            a = tile(*b['srcs'][0])[:m * k].astype(np.int32).astype(np.int64)
            bb = tile(*b['srcs'][1])[:k * n].astype(np.int32).astype(np.int64)
            # uint64 arithmetic wraps modulo 2^64, which keeps the sum
            # modulo 2^32 exact.
            prod = (a.reshape(m, k).astype(np.uint64) @ bb.reshape(k, n).astype(np.uint64))
            prod = (prod & 0xffffffff).astype(np.uint32)
            if op.endswith('.ACC'):
                if acc is None or acc.shape != (m, n):
                    raise ModelError('.ACC without a matching ACC')
                acc = acc + prod  # uint32 wraps
            else:
                acc = prod
        elif op == 'ACCCVT':
            if acc is None:
                raise ModelError('ACCCVT without ACC')
            out = np.zeros(TILE_WORDS, dtype=np.uint32)
            out[:acc.size] = acc.reshape(-1)
            push(b['dst'], out)
        else:
            raise ModelError('op the model does not know: ' + b['line'])


def driver(symbol, args, inputs):
    """The driver program: data, the call, the write of the outputs."""
    lines = ['    .text', '    .globl _start', '_start:', '    C.BSTART.STD FALL']
    for reg, _, _ in args:
        lines += ['    addtpc buf_%s, ->%s' % (reg, reg),
                  '    addi %s, buf_%s, ->%s' % (reg, reg, reg)]
    lines += ['    BSTART CALL, %s, ra=.Lback' % symbol, '.Lback:', '    C.BSTART.STD FALL']
    for reg, tiles, out in args:
        if not out:
            continue
        lines += ['    hl.lis 1, ->a0',
                  '    addtpc buf_%s, ->a1' % reg,
                  '    addi a1, buf_%s, ->a1' % reg,
                  '    hl.liu %d, ->a2' % (tiles * TILE_WORDS * 4 + GUARD_WORDS * 4),
                  '%SYSCALL write',
                  '    hl.liu %d, ->a3' % (tiles * TILE_WORDS * 4 + GUARD_WORDS * 4),
                  '%CHECKR a0, a3']
    lines += ['%EXIT 0', '', '    .data']
    for reg, tiles, out in args:
        lines += ['    .p2align 12', 'buf_%s:' % reg]
        words = list(inputs[reg]) + [SENTINEL] * GUARD_WORDS
        for i in range(0, len(words), 8):
            lines.append('    .word ' + ', '.join('0x%08x' % w for w in words[i:i + 8]))
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kernel', required=True, choices=sorted(KERNELS))
    ap.add_argument('--src')
    ap.add_argument('--git-repo')
    ap.add_argument('--git-path')
    ap.add_argument('--linx-as', required=True)
    ap.add_argument('--linx-user', required=True)
    ap.add_argument('--lutest', required=True)
    ap.add_argument('--accel', default='jit')
    ap.add_argument('--cpu', default=None)
    ap.add_argument('--workdir', default=None)
    o = ap.parse_args()

    if o.git_repo:
        if not os.path.isdir(o.git_repo):
            print('SKIP: %s is absent' % o.git_repo)
            return 77
        r = subprocess.run(['git', '-C', o.git_repo, 'show', 'HEAD:' + o.git_path],
                           capture_output=True)
        if r.returncode != 0:
            print('SKIP: %s has no %s' % (o.git_repo, o.git_path))
            return 77
        fd, o.src = tempfile.mkstemp(suffix='.s', dir=o.workdir)
        with os.fdopen(fd, 'wb') as f:
            f.write(r.stdout)
        try:
            return run(o)
        finally:
            os.unlink(o.src)
    if not o.src or not os.path.exists(o.src):
        print('SKIP: %s is absent' % o.src)
        return 77
    return run(o)


def run(o):
    symbol, args = KERNELS[o.kernel]
    rng = np.random.default_rng(sum(map(ord, o.kernel)))
    inputs, memory = {}, {}
    for reg, tiles, out in args:
        if out:
            inputs[reg] = np.full(tiles * TILE_WORDS, SENTINEL, dtype=np.uint32)
        else:
            # Full-range int32 (the products and sums wrap), a few extremes.
            v = rng.integers(-2**31, 2**31, size=tiles * TILE_WORDS, dtype=np.int64)
            v[::97] = -2**31
            v[5::89] = 2**31 - 1
            inputs[reg] = v.astype(np.uint32)
        memory[reg] = inputs[reg].copy()
    memory['sp'] = np.zeros(STACK_TILES * TILE_WORDS, dtype=np.uint32)

    try:
        blocks = parse_blocks(o.src)
        # Spill slots are sp + n * 4096 after the FENTRY: a window of its own.
        run_model(blocks, memory)
    except ModelError as e:
        print('FAIL: the oracle cannot model %s: %s' % (o.src, e))
        return 1

    with tempfile.TemporaryDirectory(dir=o.workdir) as tmp:
        drv = os.path.join(tmp, 'driver.s')
        gen = os.path.join(tmp, 'driver.gen.s')
        elf = os.path.join(tmp, 'prog')
        with open(drv, 'w') as f:
            f.write(driver(symbol, args, inputs))
        subprocess.run([sys.executable, o.lutest, drv, '-o', gen], check=True)
        r = subprocess.run([o.linx_as, '-o', elf, gen, o.src], capture_output=True, text=True)
        if r.returncode != 0:
            print('FAIL: linx-as: ' + r.stderr)
            return 1
        cmd = [o.linx_user, '-accel', o.accel] + (['-cpu', o.cpu] if o.cpu else []) + [elf]
        r = subprocess.run(cmd, capture_output=True, timeout=60)
    if r.returncode != 0:
        print('FAIL: %s exited %d: %s' % (' '.join(cmd), r.returncode,
                                         r.stderr.decode(errors='replace')))
        return 1
    got = np.frombuffer(r.stdout, dtype='<u4')
    want = np.concatenate([np.concatenate([memory[reg],
                                           np.full(GUARD_WORDS, SENTINEL, dtype=np.uint32)])
                           for reg, _, out in args if out])
    if got.shape != want.shape:
        print('FAIL: %d output words, expected %d' % (got.size, want.size))
        return 1
    bad = np.nonzero(got != want)[0]
    if bad.size:
        i = bad[0]
        print('FAIL: %d of %d words differ; first at word %d: got 0x%08x, want 0x%08x'
              % (bad.size, want.size, i, got[i], want[i]))
        return 1
    nonzero = int(np.count_nonzero(want != SENTINEL))
    print('ok: %s, %d output words checked (%d blocks modelled)' % (o.kernel, want.size,
                                                                   len(blocks)))
    return 0 if nonzero else 1


if __name__ == '__main__':
    sys.exit(main())
