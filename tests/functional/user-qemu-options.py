#!/usr/bin/env python3
"""linx-user speaks qemu-user: options and their environment twins.

    user-qemu-options.py LINX_USER QEMU_OPTS_PROG

QEMU_OPTS_PROG is tests/guest/user/qemu_opts.s: it writes 16 bytes of
getrandom(), the value of LINX_QTEST (or "-") and a newline, then the
first bytes of /linx-qtest-probe.txt (or "no file").  Expected values:
-seed N gives splitmix64(N)'s bytes 16..31 (AT_RANDOM takes the first 16;
the generator is written out below); -E/-U/LINX_SET_ENV/LINX_UNSET_ENV edit
the environment, comma lists included; -L PREFIX makes the absolute path
resolve under PREFIX; misspelt options get a suggestion; every failure
exits 2.
"""
import os
import subprocess
import sys
import tempfile

user, prog = sys.argv[1], sys.argv[2]
fails = []


def splitmix64_bytes(seed, n):
    out, state = [], seed
    for _ in range(n):
        state = (state + 0x9e3779b97f4a7c15) & 0xffffffffffffffff
        z = state
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & 0xffffffffffffffff
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & 0xffffffffffffffff
        out.append((z ^ (z >> 31)) & 0xff)
    return bytes(out)


def run(args, env_add=None, env_del=()):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith('LINX_') or k in env_del:
            del env[k]
    env.update(env_add or {})
    return subprocess.run([user] + args, capture_output=True, env=env, timeout=60)


def parts(out):
    rnd, rest = out[:16], out[16:]
    var, _, tail = rest.partition(b'\n')
    return rnd, var.decode(), tail.decode()


def check(name, cond, detail=''):
    if not cond:
        fails.append('%s %s' % (name, detail))


want42 = splitmix64_bytes(42, 32)[16:]
p = run(['-seed', '42', prog])
check('-seed 42', p.returncode == 0 and parts(p.stdout)[0] == want42, repr(p.stdout[:16]))
p = run([prog], {'LINX_RAND_SEED': '42'})
check('LINX_RAND_SEED=42', parts(p.stdout)[0] == want42, repr(p.stdout[:16]))
p = run(['-seed', '43', prog])
check('-seed 43', parts(p.stdout)[0] == splitmix64_bytes(43, 32)[16:], repr(p.stdout[:16]))
p = run(['-E', 'LINX_QTEST=abc,OTHER=1', prog])
check('-E list', parts(p.stdout)[1] == 'abc', repr(p.stdout))
p = run([prog], {'LINX_SET_ENV': 'OTHER=1,LINX_QTEST=from-env'})
check('LINX_SET_ENV', parts(p.stdout)[1] == 'from-env', repr(p.stdout))
p = run(['-U', 'OTHER,LINX_QTEST', prog], {'LINX_QTEST': 'x'})
check('-U list', parts(p.stdout)[1] == '-', repr(p.stdout))
p = run(['-E', 'LINX_QTEST=cmd', prog], {'LINX_SET_ENV': 'LINX_QTEST=env'})
check('command line after environment', parts(p.stdout)[1] == 'cmd', repr(p.stdout))
with tempfile.TemporaryDirectory() as root:
    with open(os.path.join(root, 'linx-qtest-probe.txt'), 'w') as f:
        f.write('from the sysroot')
    p = run(['-L', root, prog])
    check('-L', parts(p.stdout)[2] == 'from the sysroot', repr(p.stdout))
    p = run([prog], {'LINX_LD_PREFIX': root})
    check('LINX_LD_PREFIX', parts(p.stdout)[2] == 'from the sysroot', repr(p.stdout))
p = run([prog])
check('no -L', parts(p.stdout)[2] == 'no file', repr(p.stdout))
p = run(['-singlestep', '-accel', 'interp', '-seed', '42', prog])
check('-singlestep', p.returncode == 0 and parts(p.stdout)[0] == want42, repr(p.stdout[:16]))
for args, env, msg in (
        (['-strase', prog], None, "unknown option '-strase' (did you mean '-strace'?)"),
        (['-cpu', 'nope', prog], None, "unknown CPU 'nope'"),
        (['-E', 'NOEQUALS', prog], None, "-E needs VAR=VALUE"),
        (['-seed', 'x', prog], None, "-seed needs a number"),
        ([prog], {'LINX_CPU': 'nope'}, 'LINX_CPU=nope: '),
        (['-s'], None, "option '-s' needs an argument")):
    p = run(args, env)
    check('bad %s' % ' '.join(args[:2]), p.returncode == 2 and msg in p.stderr.decode(),
          'status %d: %s' % (p.returncode, p.stderr.decode().strip()))
p = run(['-cpu', 'help'])
check('-cpu help', p.returncode == 0 and b'linx-toolchain' in p.stdout and b'linx-v0.4' in p.stdout)
p = run(['-help'])
check('-help', p.returncode == 0 and b'LINX_RAND_SEED' in p.stdout and b'-seed NUMBER' in p.stdout)
p = run(['-version'])
check('-version', p.returncode == 0 and p.stdout.startswith(b'linx-user'))
for f in fails:
    print('FAIL: ' + f)
print('%d checks failed' % len(fails) if fails else 'linx-user qemu options: all checks passed')
sys.exit(1 if fails else 0)
