#!/usr/bin/env python3
"""Compiled LinxISA programs under linx-user, checked by their output.

    run-programs.py LINX_USER SHARED_DIR CORPUS_DIR [engine options...]

* ../shared/guest/linux-user/01_containers.static and 02_algorithms.static
  (clang + musl C++ tests of the LinxISA compiler): exit status 0 and no
  output, with no flags (the ISA profile comes from -cpu auto).
* From CORPUS_DIR (meson option guest_corpus, or LINX_GUEST_CORPUS; e.g. a
  LinxCore checkout's tests/benchmarks_specint_stage_a/elf/), when
  present: SPEC CPU 999.specrand_ir (specrand_ir_base.*), a static-PIE
  program that prints the Mersenne Twister sequence of a seed, checked
  against MT19937 (init_genrand / genrand_int32 of Matsumoto and
  Nishimura, written out below) for several seeds and counts: every
  integer exactly; every %f value within 1e-6 of the exact value (the
  compiled musl printf's %f rounding is off in the last digit,
  docs/decisions.md "Toolchain defects").

Exits 1 on any mismatch, 77 (skip) when the shared programs are absent.
"""
import glob
import os
import re
import subprocess
import sys

SKIP = 77


class MT19937:
    N, M = 624, 397

    def __init__(self, seed):
        self.mt = [seed & 0xffffffff]
        for i in range(1, self.N):
            prev = self.mt[-1]
            self.mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xffffffff)
        self.i = self.N

    def int32(self):
        if self.i >= self.N:
            for k in range(self.N):
                y = (self.mt[k] & 0x80000000) | (self.mt[(k + 1) % self.N] & 0x7fffffff)
                self.mt[k] = self.mt[(k + self.M) % self.N] ^ (y >> 1) ^ (0x9908b0df if y & 1 else 0)
            self.i = 0
        y = self.mt[self.i]
        self.i += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9d2c5680
        y ^= (y << 15) & 0xefc60000
        y ^= y >> 18
        return y


def specrand_expected(seed, count):
    """Per run_sequence(seed): four sequences, each reseeded, printing
    every tenth value: unscaled real, (long)(real * 0x7fffffff) + 1, int31
    with int31 / 0x7fffffff, int31."""
    def seq():
        m = MT19937(seed)
        return [m.int32() for _ in range(count)]
    v = seq()
    picks = [i for i in range(count) if i % 10 == 0]
    reals = [v[i] / 2.0 ** 32 for i in picks]
    int31 = [v[i] >> 1 for i in picks]
    return {
        'unscaled_f': reals,
        'scaled_d': [(r, int(r * 2147483647) + 1) for r in reals],
        'scaled_f': [(n, n / 2147483647) for n in int31],
        'unscaled_d': int31,
    }


def parse_specrand(out):
    runs = []
    for block in out.split('=================================')[1:]:
        m = re.search(r'seed = (-?\d+)\s+count = (\d+)', block)
        secs = re.split(r'\n(?=%)', block)
        run = {'seed': int(m.group(1)), 'count': int(m.group(2))}
        for sec in secs:
            lines = [l.strip() for l in sec.strip().split('\n')[1:] if l.strip()]
            if sec.startswith('%f sequence (unscaled)'):
                run['unscaled_f'] = [float(l) for l in lines]
            elif sec.startswith('%d sequence (scaled)'):
                run['scaled_d'] = [(float(re.match(r'\(\s*([\d.]+)', l).group(1)),
                                    int(l.split('=')[1])) for l in lines]
            elif sec.startswith('%f sequence (scaled)'):
                run['scaled_f'] = [(int(l.split('/')[0]), float(l.split('=')[1])) for l in lines]
            elif sec.startswith('%d sequence (unscaled)'):
                run['unscaled_d'] = [int(l) for l in lines]
        runs.append(run)
    return runs


def check_specrand(user, prog, opts, seed, count):
    p = subprocess.run([user] + opts + [prog, str(seed), str(count)], capture_output=True,
                       text=True, timeout=300)
    if p.returncode != 0:
        return ['exit %d: %s' % (p.returncode, p.stderr[-500:])]
    runs = parse_specrand(p.stdout)
    errs = []
    # main() runs the sequence for seed, then for seed - 2.
    if [r['seed'] for r in runs] != [seed, seed - 2]:
        return ['seeds %r, want %r' % ([r['seed'] for r in runs], [seed, seed - 2])]
    for run in runs:
        want = specrand_expected(run['seed'], count)
        tag = 'seed %d count %d' % (run['seed'], count)
        for key in ('unscaled_f', 'scaled_d', 'scaled_f', 'unscaled_d'):
            if len(run.get(key, [])) != len(want[key]):
                errs.append('%s %s: %d values, want %d' % (tag, key, len(run.get(key, [])),
                                                         len(want[key])))
                continue
            for got, exp in zip(run[key], want[key]):
                if key == 'unscaled_f':
                    ok = abs(got - exp) <= 1e-6
                elif key == 'scaled_d':
                    ok = abs(got[0] - exp[0]) <= 1e-6 and got[1] == exp[1]
                elif key == 'scaled_f':
                    ok = got[0] == exp[0] and abs(got[1] - exp[1]) <= 1e-6
                else:
                    ok = got == exp
                if not ok:
                    errs.append('%s %s: got %r, want %r' % (tag, key, got, exp))
    return errs


def main():
    user, shared, corpus = sys.argv[1], sys.argv[2], sys.argv[3]
    opts = sys.argv[4:]
    corpus = corpus or os.environ.get('LINX_GUEST_CORPUS', '')
    fails, checked = [], 0
    progs = [os.path.join(shared, 'guest', 'linux-user', n)
             for n in ('01_containers.static', '02_algorithms.static')]
    if not all(os.path.exists(p) for p in progs):
        print('SKIP: %s not found' % ' or '.join(progs))
        return SKIP
    for prog in progs:
        p = subprocess.run([user] + opts + [prog], capture_output=True, timeout=300)
        checked += 1
        name = os.path.basename(prog)
        if p.returncode != 0 or p.stdout:
            fails.append('%s: exit %d, stdout %r, stderr %s' % (name, p.returncode,
                                                               p.stdout[:200], p.stderr[-500:]))
        else:
            print('ok: %s exits 0' % name)
    sr = sorted(glob.glob(os.path.join(corpus, '**', 'specrand_ir_base*'), recursive=True)) \
        if corpus else []
    if sr:
        for seed, count in ((1, 25), (12345, 40), (-7, 31), (2026, 101)):
            errs = check_specrand(user, sr[0], opts, seed, count)
            checked += 1
            fails += ['specrand %d %d: %s' % (seed, count, e) for e in errs[:10]]
            if not errs:
                print('ok: specrand %d %d matches MT19937' % (seed, count))
    else:
        print('note: no SPEC specrand in the guest corpus (%s); set -Dguest_corpus=DIR or '
              'LINX_GUEST_CORPUS' % (corpus or 'not set'))
    for f in fails:
        print('FAIL: ' + f)
    print('%d programs checked, %d failures' % (checked, len(fails)))
    return 1 if fails or checked == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
