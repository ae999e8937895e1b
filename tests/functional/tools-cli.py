#!/usr/bin/env python3
"""linx-user and linx-system from the command line: the shared C++ program
(exit 0 under the JIT, the interpreter and one-instruction blocks), -strace
to stderr and to -D FILE, -trace-commit, the peer's accepted options, and
the usage errors (exit 2 with a message) and start errors (exit 1).

    tools-cli.py LINX_USER LINX_SYSTEM USER_ELF VIRT_ELF SHARED_DIR

USER_ELF is a small Linux program that exits 42 (tests/guest/user/exit42.s),
VIRT_ELF one that prints on the UART and exits 0 (tests/guest/virt/uart.s).
The shared-binary checks are skipped when ../shared is absent.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

failures = []


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


def expect(name, p, status, out_re=None, err_re=None):
    problems = []
    if p.returncode != status:
        problems.append('exit status %d, expected %d' % (p.returncode, status))
    if out_re and not re.search(out_re, p.stdout, re.M):
        problems.append('stdout lacks /%s/' % out_re)
    if err_re and not re.search(err_re, p.stderr, re.M):
        problems.append('stderr lacks /%s/' % err_re)
    if problems:
        failures.append(name)
        print('FAIL: %s: %s\n  stdout: %s\n  stderr: %s' %
              (name, '; '.join(problems), p.stdout[-500:], p.stderr[-500:]))
    else:
        print('ok: %s' % name)


def user_checks(user, elf, tmp):
    expect('user: exit status', run([user, elf]), 42)
    expect('user: no program', run([user]), 2, err_re='no program given')
    expect('user: unknown option', run([user, '-bogus', elf]), 2, err_re="unknown option '-bogus'")
    expect('user: bad accel', run([user, '-accel', 'fast', elf]), 2, err_re='accel')
    expect('user: -E without =', run([user, '-E', 'FOO', elf]), 2, err_re='-E needs VAR=VALUE')
    expect('user: -U with =', run([user, '-U', 'A=B', elf]), 2, err_re='-U needs a variable')
    expect('user: bad stack size', run([user, '-s', '12x', elf]), 2, err_re='bad stack size')
    expect('user: option without argument', run([user, elf, '-s']), 42)
    expect('user: -E missing argument', run([user, '-E']), 2, err_re='needs an argument')
    expect('user: -help', run([user, '-help']), 0, out_re='^usage: linx-user')
    expect('user: -version', run([user, '-version']), 0, out_re='linx-user')
    expect('user: -d help', run([user, '-d', 'help']), 0, out_re='in_asm')
    expect('user: missing program', run([user, os.path.join(tmp, 'none')]), 1,
           err_re='No such file or directory')
    expect('user: -s and -0', run([user, '-s', '1M', '-0', 'other', elf]), 42)
    # -strace goes to stderr, or to the -D file.
    expect('user: -strace', run([user, '-strace', elf]), 42,
           err_re=r'^\d+ exit_group\(42\) = \?$')
    log = os.path.join(tmp, 'strace.log')
    p = run([user, '-strace', '-D', log, elf])
    expect('user: -strace -D', p, 42)
    with open(log) as f:
        text = f.read()
    if 'exit_group(42) = ?' not in text or 'exit_group' in p.stderr:
        failures.append('user: -strace -D content')
        print('FAIL: user: -strace -D: log %r, stderr %r' % (text, p.stderr))


def shared_checks(user, shared, tmp):
    prog = os.path.join(shared, 'guest', 'linux-user', '02_algorithms.static')
    if not os.path.exists(prog):
        print('SKIP: %s not present' % prog)
        return
    for opts in (['-accel', 'jit'], ['-accel', 'interp'], ['-one-insn-per-tb']):
        expect('user: 02_algorithms.static %s' % ' '.join(opts), run([user] + opts + [prog]), 0)
    expect('user: 02_algorithms.static -strace', run([user, '-strace', prog]), 0,
           err_re=r'set_tid_address\(0x[0-9a-f]+\) = \d+$')
    trace = os.path.join(tmp, 'alg.jsonl')
    expect('user: 02_algorithms.static -trace-commit', run([user, '-trace-commit', trace, prog]),
           0)
    with open(trace) as f:
        rows = [json.loads(l) for l in f]
    if len(rows) < 100 or rows[0]['pc'] != 0x11240 or rows[0]['wb_valid']:
        failures.append('user: commit trace')
        print('FAIL: user: commit trace: %d rows, first %r' % (len(rows), rows[:1]))
    else:
        print('ok: user: commit trace (%d rows from the entry)' % len(rows))


def system_checks(system, elf, tmp):
    k = ['-M', 'virt', '-kernel', elf]
    expect('system: runs', run([system] + k), 0, out_re='^virt uart ok$',
           err_re=r'^LINX_INSN_COUNT=\d+$')
    expect('system: peer options', run([system, '-machine', 'virt', '-nographic', '-monitor',
                                        'none', '-serial', 'stdio', '-smp', '1', '-m', '256M',
                                        '-kernel', elf]), 0, out_re='virt uart ok')
    expect('system: no kernel', run([system, '-M', 'virt']), 2, err_re='no program given')
    expect('system: unknown machine', run([system, '-M', 'pc', '-kernel', elf]), 2,
           err_re="unknown machine 'pc'")
    expect('system: bad -m', run([system, '-m', 'lots'] + k), 2, err_re='bad memory size')
    expect('system: -m too small', run([system, '-m', '0'] + k), 2, err_re='not supported')
    expect('system: -smp 4', run([system, '-smp', '4'] + k), 2, err_re='only one CPU')
    expect('system: -initrd', run([system, '-initrd', 'x'] + k), 2, err_re='not supported')
    expect('system: -M help', run([system, '-M', 'help']), 0, out_re='virt')
    expect('system: misspelt option', run([system, '-kernl', 'x']), 2,
           err_re="unknown option '-kernl' \\(did you mean '-kernel'\\?\\)")
    expect('system: stray argument', run([system, elf]), 2, err_re='unexpected argument')
    expect('system: unknown option', run([system, '-bogus'] + k), 2, err_re='unknown option')
    expect('system: -help', run([system, '-help']), 0, out_re='^usage: linx-system')
    expect('system: missing kernel file', run([system, '-M', 'virt', '-kernel',
                                               os.path.join(tmp, 'none')]), 1,
           err_re='No such file')


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    user, system, user_elf, virt_elf, shared = sys.argv[1:]
    with tempfile.TemporaryDirectory(prefix='linx-cli-') as tmp:
        user_checks(user, user_elf, tmp)
        shared_checks(user, shared, tmp)
        system_checks(system, virt_elf, tmp)
    if failures:
        print('%d failure(s)' % len(failures))
        return 1
    print('ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
