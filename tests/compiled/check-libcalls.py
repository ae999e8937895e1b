#!/usr/bin/env python3
"""Compiled library routines of a real LinxISA program against the host.

The C++ test program ../shared/guest/linux-user/01_containers.static (clang
+ musl, linx-isa avs/compiler/linx-llvm/tests/out-cpp/bin) carries
compiler-rt's soft-float arithmetic and musl's string, memory and printf
code.  linx-call (tests/guest/linx-call.c) calls them under linx-user's
process set-up; the expected values come from the host, independently of
the emulator: Python's IEEE-754 double arithmetic (round to nearest even),
Python's string and bytes operations, and Python's %-formatting, which
equals C's for the integer, character and string conversions used here.

    check-libcalls.py LINX_CALL PROGRAM [engine options...]

Prints one summary line per routine and exits 1 on any mismatch (or when
nothing was checked), 77 (skip) when PROGRAM is absent.
"""
import math
import os
import random
import struct
import subprocess
import sys

SKIP = 77


def bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def from_bits(b):
    return struct.unpack('<d', struct.pack('<Q', b & 0xffffffffffffffff))[0]


def interesting_doubles(rng, n):
    special = [0.0, -0.0, 1.0, -1.0, 1.5, 0.1, 2.0 ** -1074, -2.0 ** -1074, 2.0 ** -1022,
               1.7976931348623157e308, -1.7976931348623157e308, math.inf, -math.inf,
               math.nan, 2.0 ** 53, 2.0 ** 53 + 2, 3.0, 1e-300, 1e300, 0.5, 0.25]
    out = list(special)
    while len(out) < n:
        kind = rng.random()
        if kind < 0.5:
            out.append(rng.uniform(-1e6, 1e6))
        elif kind < 0.8:
            out.append(from_bits(rng.getrandbits(64)))
        else:
            out.append(rng.choice(special) * rng.choice([1, -1, 3, 0.5, 2.0 ** 30]))
    return out


def esc(s):
    return s.replace('\\', '\\\\').replace(' ', '\\s')


def main():
    if len(sys.argv) < 3:
        print('usage: check-libcalls.py LINX_CALL PROGRAM [engine options...]')
        return 2
    tool, prog, opts = sys.argv[1], sys.argv[2], sys.argv[3:]
    if not os.path.exists(prog):
        print('SKIP: %s not found' % prog)
        return SKIP
    rng = random.Random(20261203)
    calls = []   # (routine, call line, check(result dict) -> None or message)

    def add(routine, line, check):
        calls.append((routine, line, check))

    # --- soft-float: bit-exact against the host's IEEE-754 arithmetic ---
    xs = interesting_doubles(rng, 160)
    ys = interesting_doubles(rng, 160)
    rng.shuffle(ys)
    ops = {'__adddf3': lambda a, b: a + b, '__subdf3': lambda a, b: a - b,
           '__muldf3': lambda a, b: a * b}
    excluded = {}
    for name, op in ops.items():
        for a, b in zip(xs, ys):
            try:
                want = op(a, b)
            except OverflowError:
                want = math.inf
            if name == '__muldf3' and muldf3_defect(a, b, want):
                excluded[name] = excluded.get(name, 0) + 1
                continue
            def chk(r, a=a, b=b, want=want, name=name):
                got = from_bits(r['a0'])
                if math.isnan(want):
                    return None if math.isnan(got) else '%s(%r, %r) = %r, want NaN' % (
                        name, a, b, got)
                return None if r['a0'] == bits(want) else '%s(%r, %r) = %r (0x%016x), want %r (0x%016x)' % (
                    name, a, b, got, r['a0'], want, bits(want))
            add(name, '%s 0x%x 0x%x' % (name, bits(a), bits(b)), chk)

    # --- strings and memory ---
    words = ['', 'a', 'hello', 'hello world', 'Hello', 'abc\x01def', 'x' * 100, 'zz', 'hellp']
    for s in words:
        add('strlen', 'strlen str:%s' % esc(s),
            lambda r, s=s: None if r['a0'] == len(s.encode()) else 'strlen(%r) = %d' % (s, r['a0']))
        for n in (0, 3, 200):
            want = min(len(s.encode()), n)
            add('strnlen', 'strnlen str:%s %d' % (esc(s), n),
                lambda r, s=s, n=n, want=want: None if r['a0'] == want else
                'strnlen(%r, %d) = %d' % (s, n, r['a0']))
    for a in words:
        for b in words:
            want = (a > b) - (a < b)  # same order as unsigned bytes for these strings
            add('strcmp', 'strcmp str:%s str:%s' % (esc(a), esc(b)),
                lambda r, a=a, b=b, want=want: None if sign32(r['a0']) == want else
                'strcmp(%r, %r) = %d' % (a, b, sign32(r['a0'])))
            n = 4
            wn = (a[:n] > b[:n]) - (a[:n] < b[:n])
            add('strncmp', 'strncmp str:%s str:%s %d' % (esc(a), esc(b), n),
                lambda r, a=a, b=b, wn=wn: None if sign32(r['a0']) == wn else
                'strncmp(%r, %r, 4) = %d' % (a, b, sign32(r['a0'])))
    for _ in range(40):
        n = rng.randrange(1, 300)
        a = bytes(rng.getrandbits(8) for _ in range(n))
        b = bytearray(a)
        if rng.random() < 0.7:
            b[rng.randrange(n)] = rng.getrandbits(8)
        b = bytes(b)
        want = (a > b) - (a < b)
        add('memcmp', 'memcmp hex:%s hex:%s %d' % (a.hex(), b.hex(), n),
            lambda r, want=want: None if sign32(r['a0']) == want else 'memcmp = %d, want sign %d' %
            (sign32(r['a0']), want))
        c = rng.choice(list(a)) if rng.random() < 0.7 else rng.getrandbits(8)
        pos = a.find(bytes([c]))
        add('memchr', 'memchr hex:%s %d %d' % (a.hex(), c, n),
            lambda r, pos=pos, c=c: memchr_check(r, pos, c))
        add('memcpy', 'memcpy buf:%d hex:%s %d' % (n + 8, a.hex(), n),
            lambda r, a=a, n=n: None if r['arg0'] == a + bytes(8) else 'memcpy: wrong bytes')
        add('memmove', 'memmove buf:%d hex:%s %d' % (n, a.hex(), n),
            lambda r, a=a: None if r['arg0'] == a else 'memmove: wrong bytes')
        v = rng.getrandbits(8)
        k = rng.randrange(0, n)
        add('memset', 'memset hex:%s %d %d' % (a.hex(), v, k),
            lambda r, a=a, v=v, k=k: None if r['arg0'] == bytes([v]) * k + a[k:] else
            'memset(%d, %d): wrong bytes' % (v, k))

    # --- snprintf, integer/char/string conversions (Python's % = C's here) ---
    convs = ['%d', '%i', '%u', '%x', '%X', '%o', '%5d', '%-7d|', '%08d', '%+d', '% d', '%ld',
             '%lu', '%lx', '%hhd', '%c', '%s', '%.3s', '%10s|', '%-10s|', '%%', '%#x', '%#o']
    for _ in range(120):
        k = rng.randrange(1, 5)
        fmt, pyfmt, args, pyargs = '', '', [], []
        for _ in range(k):
            c = rng.choice(convs)
            fmt += c + ','
            if c == '%%':
                pyfmt += '%%,'
                continue
            if c.endswith('s') or c.endswith('s|'):
                s = rng.choice(['', 'x', 'word', 'a longer string'])
                args.append('@str:' + esc(s))
                pyfmt += c + ','
                pyargs.append(s)
                continue
            if c == '%c':
                ch = rng.randrange(33, 127)
                args.append('@w:%d' % ch)
                pyfmt += '%c,'
                pyargs.append(chr(ch))
                continue
            v = rng.choice([0, 1, -1, 7, 255, 256, -42, 123456789, -2147483648, 2147483647,
                            rng.getrandbits(31), -rng.getrandbits(31)])
            if c.startswith('%l'):
                v = rng.choice([v, rng.getrandbits(63), -rng.getrandbits(63)])
            if c in ('%#x', '%#o') and v == 0:
                v = 9
            # int conversions take a 32-bit slot, %l ones a 64-bit one (the
            # compiled va_arg packs at natural size, linx-call.c)
            args.append(('@%d' if c.startswith('%l') else '@w:%d') % v)
            if c in ('%u',):
                pv = v & 0xffffffff
            elif c in ('%x', '%X', '%o', '%#x', '%#o'):
                pv = v & 0xffffffff
            elif c == '%lu' or c == '%lx':
                pv = v & 0xffffffffffffffff
            elif c == '%hhd':
                pv = ((v & 0xff) ^ 0x80) - 0x80
            elif c.startswith('%l'):
                pv = v
            else:
                pv = ((v & 0xffffffff) ^ 0x80000000) - 0x80000000
            if c == '%#o':
                # C's alternate octal form is a leading 0 (Python's is 0o)
                pyfmt += '%s,'
                pyargs.append('0%o' % pv)
                continue
            pyfmt += c.replace('l', '').replace('hh', '').replace('%i', '%d').replace('%u', '%d') + ','
            pyargs.append(pv)
        want = (pyfmt % tuple(pyargs)).encode()
        size = 200
        add('snprintf', 'snprintf @buf:%d @%d @str:%s %s' % (size, size, esc(fmt), ' '.join(args)),
            lambda r, want=want, fmt=fmt: snprintf_check(r, want, fmt))

    lines = '\n'.join(c[1] for c in calls) + '\n'
    if os.environ.get("LINX_CALL_DUMP"):
        open(os.environ["LINX_CALL_DUMP"], "w").write(lines)
    p = subprocess.run([tool] + opts + ['-batch', prog], input=lines, capture_output=True,
                       text=True, timeout=600)
    outs = p.stdout.splitlines()
    if p.returncode != 0 or len(outs) != len(calls):
        print('FAIL: linx-call exited %d after %d of %d calls\n%s' % (
            p.returncode, len(outs), len(calls), p.stderr[-3000:]))
        return 1
    per = {}
    bad = 0
    for (routine, line, check), out in zip(calls, outs):
        r = {}
        for kv in out.split():
            k, v = kv.split('=', 1)
            r[k] = bytes.fromhex(v) if k.startswith('arg') else int(v, 16)
        msg = check(r)
        ok, n = per.get(routine, (0, 0))
        per[routine] = (ok + (msg is None), n + 1)
        if msg is not None:
            bad += 1
            if bad <= 20:
                print('FAIL %s: %s\n    call: %s' % (routine, msg, line))
    for routine, (ok, n) in per.items():
        print('%-10s %d/%d' % (routine, ok, n))
    total = sum(n for _, n in per.values())
    for name, n in excluded.items():
        print('%-10s %d inputs not checked (documented toolchain defect)' % (name, n))
    print('%d calls, %d mismatches' % (total, bad))
    return 1 if bad or total == 0 else 0


TINY = 2.0 ** -1022


def muldf3_defect(a, b, want):
    """Inputs where this build of compiler-rt's __muldf3 is wrong whatever
    runs it (docs/decisions.md "Toolchain defects"): a NaN result is
    returned as the single-precision NaN bits 0x7fc00000 (hl.lwu.pcr of a
    float constant into the double result, the f32->f64 extending load the
    backend selects as lwu), and the subnormal paths (a subnormal input or
    a result below the smallest normal) compare a register never set to
    the product exponent (setc.ge a5, a6 at 0x4b29e)."""
    if math.isnan(want):
        return True
    sub = lambda x: x != 0 and abs(x) < TINY
    return sub(a) or sub(b) or (abs(want) < TINY and a != 0 and b != 0 and
                                not math.isinf(a) and not math.isinf(b))


def sign32(v):
    v &= 0xffffffff
    v = v - (1 << 32) if v >> 31 else v
    return (v > 0) - (v < 0)


def memchr_check(r, pos, c):
    want = 0 if pos < 0 else r['addr0'] + pos
    return None if r['a0'] == want else 'memchr(%d) = 0x%x, want 0x%x' % (c, r['a0'], want)


def snprintf_check(r, want, fmt):
    got = r['arg0']
    n = r['a0'] & 0xffffffff
    if got[:len(want)] != want or got[len(want)] != 0:
        return 'snprintf(%r) wrote %r, want %r' % (fmt, got[:len(want) + 8], want)
    if n != len(want):
        return 'snprintf(%r) returned %d, want %d' % (fmt, n, len(want))
    return None


if __name__ == '__main__':
    sys.exit(main())
