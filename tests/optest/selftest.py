#!/usr/bin/env python3
"""Tests of linx-optest itself (docs/optest.md): every exit status and
message a user meets.

    selftest.py LINX_OPTEST LINX_AS

Cases: a suite with raw inputs, symbol offsets, ulp tolerances, a wrong
golden (integers as integers with hex, floats with their ulp distance,
the index as a coordinate); --case/--filter/--list and names, filters,
paths that match nothing (exit 2); a trapping guest; a guest that spins
forever (timed out, the run goes on, with -j too); [matrix] expansion,
placeholders and exclusions; generators (Python in one interpreter, a
shell script, a failing one, stamps and --regenerate); .S programs through
the preprocessor and .s programs with defines; directories mixed with
manifests; -j; --shard and the Slurm / Kubernetes variables; SIGTERM
(the partial report); report files to a device and a symbolic link;
manifest errors; Linux user mode; an ELF program.  Under the sanitizer
build (tests/run-all.sh --sanitize) a leak on any of these paths makes
the exit status wrong, so the test fails.
"""
import json
import os
import signal
import stat
import subprocess
import sys
import tempfile
import time

from selfprogs import (LOOP_PROG, TRAP_PROG, USER_PROG, VIRT_PROG, npy, run_tool,
                       write)

OPTEST, LINX_AS = sys.argv[1], sys.argv[2]
failures = []
checks = 0


def run(args, want_status, want_out=(), not_out=(), name='', env=None):
    global checks
    checks += 1
    status, text = run_tool(OPTEST, args, env=env)
    ok = status == want_status and all(w in text for w in want_out) and \
        not any(w in text for w in not_out)
    if not ok:
        missing = [w for w in want_out if w not in text]
        present = [w for w in not_out if w in text]
        failures.append('%s: status %d (want %d), missing %r, unwanted %r, output:\n%s' %
                        (name, status, want_status, missing, present, text))
    return text


def check(cond, name, detail=''):
    global checks
    checks += 1
    if not cond:
        failures.append('%s %s' % (name, detail))


def basics(d):
    write(d, 'p.s', VIRT_PROG)
    write(d, 'trap.s', TRAP_PROG)
    write(d, 'loop.s', LOOP_PROG)
    ints = [i * 7 - 20 for i in range(16)]
    floats = [0.5 * i - 1.0 for i in range(16)]
    import struct
    with open(os.path.join(d, 'in.bin'), 'wb') as f:
        f.write(struct.pack('<16i', *ints) + struct.pack('<16f', *floats))
    npy(os.path.join(d, 'want.npy'), '<i4', 'i', [v * 3 for v in ints])
    npy(os.path.join(d, 'want2d.npy'), '<i4', 'i', [v * 3 for v in ints], (4, 4))
    npy(os.path.join(d, 'wrong.npy'), '<i4', 'i', [v * 3 + (i == 5) for i, v in enumerate(ints)])
    # the same, 2-D: element 5 is [1, 1]
    npy(os.path.join(d, 'wrong2d.npy'), '<i4', 'i', [v * 3 + (i == 5) for i, v in enumerate(ints)],
        (4, 4))
    # the float copy, each positive value one ulp off: passes with ulp 1 only
    off = [struct.unpack('<f', struct.pack('<I', struct.unpack('<I', struct.pack('<f', v))[0] + 1))[0]
           if v > 0 else v for v in floats]
    npy(os.path.join(d, 'fl.npy'), '<f4', 'f', off)
    write(d, 'ok.optest', '''[suite]
name = self
program = p.s
rtol = 0

[case ints]
args = 16 0
input.in = in.bin at vin dtype i32
output.out = golden want.npy at vout

[case floats]
args = 16 7
status = 7
input.in = in.bin at vin dtype i32
output.out = golden fl.npy at vout+64 ulp 1

[case wrong]
args = 16 0
input.in = in.bin at vin
output.out = golden wrong.npy at vout

[case wrong2d]
args = 16 0
input.in = in.bin at vin dtype i32
output.out = golden wrong2d.npy at vout

[case flexact]
args = 16 0
input.in = in.bin at vin dtype i32
output.out = golden fl.npy at vout+64

[case parked]
skip = waiting for a fix
args = 16 0
input.in = in.bin at vin dtype i32
output.out = golden wrong.npy at vout
''')
    ok = os.path.join(d, 'ok.optest')
    run([ok], 1, ['PASS self/ints', 'PASS self/floats',
                  'FAIL self/wrong: output out (i32 [16]): 1 of 16 elements differ, first at '
                  '[5]: got 45 (0x0000002d), want 46 (0x0000002e)',
                  'FAIL self/wrong2d: output out (i32 [4, 4]): 1 of 16 elements differ, first at '
                  '[1, 1]: got 45 (0x0000002d), want 46 (0x0000002e)',
                  'FAIL self/flexact: output out (f32 [16]): 13 of 16 elements differ, first at '
                  '[3]: got 0.5 (0x3f000000), want 0.50000006 (0x3f000001), 1 ulp apart',
                  'SKIP self/parked: waiting for a fix',
                  'self: 2 passed, 3 failed, 1 skipped',
                  'linx-optest: 2 passed, 3 failed, 1 skipped; 6 cases in'], name='mixed suite')
    run([ok, '--case', 'ints'], 0, ['PASS self/ints'], ['self/floats'], name='--case')
    run([ok, '-c', 'self/ints', '-c', 'floats'], 0, ['PASS self/ints', 'PASS self/floats'],
        name='--case suite/case')
    run([ok, '--list'], 0, ['self/ints\nself/floats\nself/wrong\n'], name='--list')
    run([ok, '-a', 'interp', '-c', 'floats', '-q'], 0,
        ['linx-optest: 1 passed, 0 failed, 0 skipped'], ['PASS'], name='quiet interp')
    run([ok, '-k', 'wr*', '-l'], 0, ['self/wrong\nself/wrong2d\n'], ['self/ints'],
        name='-k without /')
    run([ok, '-k', 'self/f*', '-l'], 0, ['self/floats\nself/flexact\n'], ['self/ints'],
        name='-k with /')
    run([ok, '-k', 'nosuch*'], 2, ["--filter 'nosuch*' matches no case"], name='-k nothing')
    run([ok, '-c', 'nosuch'], 2, ["--case 'nosuch' matches no case"], name='-c nothing')
    run([ok, '-c', 'ints', '-c', 'nosuch'], 2, ["--case 'nosuch' matches no case"],
        name='one -c of two matches nothing')
    run([ok, '-c', 'ints', '-v'], 0, ['output out (i32 [16], 16 elements): max abs err 0'],
        name='--verbose figures')
    write(d, 'trap.optest', '''[suite]
program = trap.s
[case t]
output.o = golden want.npy at vout
''')
    run([os.path.join(d, 'trap.optest')], 1,
        ['exit status 1, expected 0', 'unhandled trap 35', '--- guest output and reports ---'],
        name='trap')


def timeouts(d):
    write(d, 'loop.optest', '''[suite]
program = loop.s
timeout = 1
[case spin]
output.o = golden want.npy at vout
''')
    run([os.path.join(d, 'loop.optest')], 1,
        ['FAIL loop.optest/spin: timed out after 1 s: the program was still running '
         '([suite] timeout'], name='timeout')
    # with other cases running beside it: they still pass
    t0 = time.time()
    run([os.path.join(d, 'loop.optest'), os.path.join(d, 'ok.optest'), '-c', 'spin',
         '-c', 'ints', '-c', 'floats', '-j', '2'], 1,
        ['FAIL loop.optest/spin: timed out', 'PASS self/ints', 'PASS self/floats'],
        name='timeout with -j 2')
    check(time.time() - t0 < 30, 'timeout with -j 2 took too long')
    run([os.path.join(d, 'loop.optest'), '--timeout', '0.3'], 1,
        ['timed out after 0.3 s', '--timeout'], name='--timeout')
    run([os.path.join(d, 'loop.optest'), '--timeout', 'x'], 2, ['--timeout takes seconds'],
        name='bad --timeout')


def matrix(d):
    m = os.path.join(d, 'mx')
    write(m, 'p.s', VIRT_PROG)
    write(m, 'gen.py', '''import os, struct, sys
n, k = int(sys.argv[1]), int(sys.argv[2])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helper import npy
vals = [i * 5 - 7 for i in range(n)]
npy('in.npy', '<i4', 'i', vals)
npy('out.npy', '<i4', 'i', [v * 3 for v in vals])
open('note.txt', 'w').write(os.environ['OPTEST_SUITE'] + '/' + os.environ['OPTEST_CASE'] + ' ' + str(k))
''')
    write(m, 'helper.py', open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                            'selfprogs.py')).read())
    write(m, 'gen.sh', '#!/bin/sh\nset -e\ncp "$1" in.npy\ncp "$2" out.npy\n')
    os.chmod(os.path.join(m, 'gen.sh'), 0o755)
    write(m, 'bad.py', 'import sys\nsys.exit("no data for " + sys.argv[1])\n')
    write(m, 'm.optest', '''[suite]
name = mx
program = p.s
rtol = 0

[matrix tri]
n = 1, 16, 8
k = 0, 1
size = 2x8
exclude = n=8 k=1
name = tri-{n}-{k}
generate = gen.py {n} {size.1}
args = {n} {k}
status = {k}
input.in = in.npy at vin
output.out = golden out.npy at vout

[matrix]
which = a
name = sh-{which}-{suite}
generate = gen.sh {{abs}}/in.npy {{abs}}/out.npy
args = 16
input.in = in.npy at vin
output.out = golden out.npy at vout
''')
    data = os.path.join(d, 'data')
    text = run([os.path.join(m, 'm.optest'), '--list', '-D', data], 0,
               ['mx/tri-1-0\tn=1 k=0 size=2x8\n', 'mx/tri-8-0\t', 'mx/sh-a-mx\twhich=a'],
               ['tri-8-1'], name='matrix --list')
    check(text.count('mx/tri-') == 5, 'matrix: 5 tri cases', text)
    # the shell generator's arguments had {{abs}}: literal braces (a failing command)
    run([os.path.join(m, 'm.optest'), '-D', data, '-k', 'tri-*'], 0,
        ['PASS mx/tri-1-0', 'PASS mx/tri-8-0', 'PASS mx/tri-16-1', 'mx: 5 passed'],
        name='matrix run')
    try:
        with open(os.path.join(data, 'mx', 'tri-16-1', 'note.txt')) as f:
            check(f.read() == 'mx/tri-16-1 8', 'generator environment')
    except OSError as e:
        check(False, 'generator environment', str(e))
    stamp = os.path.join(data, 'mx', 'tri-16-1', '.optest-generated')
    check(os.path.exists(stamp), 'stamp written')
    if not os.path.exists(stamp):
        return
    os.utime(stamp, (1, 1))
    run([os.path.join(m, 'm.optest'), '-D', data, '-k', 'tri-16-1', '-q'], 0, [], name='cached')
    check(os.stat(stamp).st_mtime == 1, 'up-to-date data is not generated again')
    run([os.path.join(m, 'm.optest'), '-D', data, '-k', 'tri-16-1', '-q', '--regenerate'], 0, [],
        name='regenerate')
    check(os.stat(stamp).st_mtime > 1, '--regenerate runs the generator')
    run([os.path.join(m, 'm.optest'), '-D', data, '-c', 'sh-a-mx'], 1,
        ['generator of mx/sh-a-mx failed: gen.sh {abs}/in.npy {abs}/out.npy',
         'FAIL mx/sh-a-mx: the generator failed'], name='failing shell generator')
    # a shell generator that works: absolute paths of prepared files
    npy(os.path.join(d, 'sin.npy'), '<i4', 'i', list(range(16)))
    npy(os.path.join(d, 'sout.npy'), '<i4', 'i', [3 * i for i in range(16)])
    write(m, 'sh.optest', '''[suite]
name = shgen
program = p.s
rtol = 0
[case one]
generate = gen.sh %s %s
args = 16
input.in = in.npy at vin
output.out = golden out.npy at vout
[case bad]
generate = bad.py {case}
args = 16
input.in = in.npy at vin
output.out = golden out.npy at vout
''' % (os.path.join(d, 'sin.npy'), os.path.join(d, 'sout.npy')))
    run([os.path.join(m, 'sh.optest'), '-D', data], 1,
        ['PASS shgen/one', 'generator of shgen/bad failed: bad.py bad', 'no data for bad',
         'FAIL shgen/bad: the generator failed'], name='shell generator and a failing one')
    run([os.path.join(m, 'sh.optest'), '-D', data, '--generate-only'], 1,
        ['generators of 2 cases ran, 1 failed'], name='--generate-only')
    run([os.path.join(m, 'sh.optest'), '-D', data, '--generate-only', '-c', 'one'], 0,
        ['generators of 1 cases ran, 0 failed'], name='--generate-only ok')
    for bad, msg in (('[matrix]\nn = 1\noutput.o = golden {m} at vout\n', "unknown placeholder '{m}'"),
                     ('[matrix]\nn = ,\noutput.o = golden x at vout\n', "axis 'n' has no values"),
                     ('[matrix]\noutput.o = golden x at vout\n', 'no axes'),
                     ('[matrix]\nn = 1\nexclude = n\noutput.o = golden x at vout\n',
                      'exclude: expected AXIS=GLOB'),
                     ('[matrix]\nn = 1\nexclude = m=1\noutput.o = golden x at vout\n',
                      "exclude: no axis 'm'"),
                     ('[matrix]\nn = 1\nexclude = n=*\noutput.o = golden x at vout\n',
                      'every combination is excluded'),
                     ('[matrix]\nn = 1, 2\nname = same\noutput.o = golden x at vout\n',
                      '[case same] a second case of that name'),
                     ('[matrix]\nn = 1x2\noutput.o = golden {n.2} at vout\n',
                      "'1x2' has 2 'x'-separated parts"),
                     ('[matrix]\ncase = 1\noutput.o = golden x at vout\n', "'case' is not an axis"),
                     # fuzz-optest found: the first 'name' leaked
                     ('[matrix]\nn = 1\nname = a\nname = b\noutput.o = golden x at vout\n',
                      "key 'name' appears twice")):
        write(d, 'badm.optest', '[suite]\nprogram = p.s\n' + bad)
        run([os.path.join(d, 'badm.optest')], 2, [msg], name='matrix error: ' + msg)


def programs(d):
    pd = os.path.join(d, 'prog')
    write(pd, 'p.s', VIRT_PROG.replace('hl.lis 3, ->s4', 'hl.lis MUL, ->s4'))
    write(pd, 'c.S', '#define TIMES(x) x\n' +
          VIRT_PROG.replace('hl.lis 3, ->s4', 'hl.lis TIMES(MUL), ->s4'))
    npy(os.path.join(pd, 'in.npy'), '<i4', 'i', list(range(16)))
    for k in (3, 5):
        npy(os.path.join(pd, 'out%d.npy' % k), '<i4', 'i', [k * i for i in range(16)])
    write(pd, 'p.optest', '''[suite]
name = progs
program = p.s
rtol = 0
[matrix]
mul = 3, 5
kind = s, S
program = {kind}.{kind}
args = 16
defines = MUL={mul}
input.in = in.npy at vin
output.out = golden out{mul}.npy at vout
''')
    os.rename(os.path.join(pd, 'c.S'), os.path.join(pd, 'S.S'))
    os.rename(os.path.join(pd, 'p.s'), os.path.join(pd, 's.s'))
    run([os.path.join(pd, 'p.optest')], 0, ['PASS progs/3-s', 'PASS progs/5-S', 'progs: 4 passed'],
        name='.s defines and .S preprocessing')
    run([os.path.join(pd, 'p.optest'), '-k', '*-S'], 1, ['cannot run the preprocessor'],
        name='no preprocessor', env={'LINX_OPTEST_CPP': '/nonexistent/cpp'})
    write(pd, 'bad.optest', '''[suite]
program = s.s
[case a]
defines = 1X=2
args = 16
input.in = in.npy at vin
output.out = golden out3.npy at vout
''')
    run([os.path.join(pd, 'bad.optest')], 1, ["defines: '1X=2' is not NAME=VALUE"],
        name='bad define')


def discovery(d):
    root = os.path.join(d, 'tree')
    for sub, name in (('a', 'one'), ('a/b', 'two'), ('c', 'three')):
        write(root, sub + '/p.s', VIRT_PROG)
        npy(os.path.join(root, sub, 'in.npy'), '<i4', 'i', list(range(4)))
        npy(os.path.join(root, sub, 'out.npy'), '<i4', 'i', [3 * i for i in range(4)])
        write(root, sub + '/' + name + '.optest', '''[suite]
name = %s
program = p.s
rtol = 0
[case c]
args = 4
input.in = in.npy at vin
output.out = golden out.npy at vout
''' % name)
    write(root, '.hidden/x.optest', 'not read')
    run([os.path.join(root, 'a'), os.path.join(root, 'c', 'three.optest'),
         os.path.join(root, 'a', 'b', 'two.optest')], 0,
        ['PASS one/c', 'PASS two/c', 'PASS three/c', '3 cases'], name='directories and files')
    os.makedirs(os.path.join(root, 'empty'))
    run([os.path.join(root, 'empty')], 2, ['no *.optest manifests in this directory'],
        name='empty directory')
    run([os.path.join(root, 'nosuch')], 2, ['no such manifest or directory'],
        name='missing path')
    write(root, 'dup/p.optest', '[suite]\nname = one\nprogram = p.s\n[case c]\n'
          'output.o = golden x at vout\n')
    run([root], 2, ["both name suite 'one'"], name='duplicate suite names')


def jobs_and_shards(d):
    ok = os.path.join(d, 'ok.optest')
    for j in ('1', '3'):
        run([ok, '-j', j, '-c', 'ints', '-c', 'floats'], 0, ['2 passed'], name='-j ' + j)
    run([ok, '-j', '0'], 2, ['-j takes a number'], name='-j 0')
    listed = {}
    for k in range(3):
        text = run([ok, '-l', '--shard', '%d/3' % k], 0, [], name='--shard %d/3' % k)
        listed[k] = set(text.split())
    allnames = set(run([ok, '-l'], 0, [], name='all').split())
    check(listed[0] | listed[1] | listed[2] == allnames and
          sum(len(v) for v in listed.values()) == len(allnames), 'shards split the cases',
          repr(listed))
    text = run([ok, '-l'], 0, [], name='SLURM_ARRAY_TASK_ID',
               env={'SLURM_ARRAY_TASK_ID': '5', 'SLURM_ARRAY_TASK_COUNT': '3',
                    'SLURM_ARRAY_TASK_MIN': '4'})
    check(set(text.split()) - {'linx-optest:', 'shard', '1/3', 'from',
                               'SLURM_ARRAY_TASK_ID=5'} == listed[1], 'Slurm shard 1',
          text)
    text = run([ok, '-l', '--shards', '3'], 0, ['shard 2/3 from JOB_COMPLETION_INDEX'],
               name='JOB_COMPLETION_INDEX', env={'JOB_COMPLETION_INDEX': '2'})
    run([ok, '-l'], 2, ['give --shards N'], name='JOB_COMPLETION_INDEX without --shards',
        env={'JOB_COMPLETION_INDEX': '2'})
    run([ok, '-l', '--shards', '2'], 2, ['--shards needs'], name='--shards without variables')
    for bad in ('3/3', '1', 'a/2', '-1/2', '1/0'):
        run([ok, '--shard', bad], 2, ['--shard takes K/N'], name='--shard ' + bad)


def interrupt(d):
    write(d, 'many.optest', '[suite]\nname = many\nprogram = p.s\nrtol = 0\n' + ''.join(
        '[case c%02d]\nargs = 16 0\ninput.in = in.bin at vin dtype i32\n'
        'output.out = golden want.npy at vout\n' % i for i in range(8)) +
        '[case zz]\nprogram = loop.s\ntimeout = 60\noutput.out = golden want.npy at vout\n')
    rep = os.path.join(d, 'int.json')
    p = subprocess.Popen([OPTEST, os.path.join(d, 'many.optest'), '-j', '1', '--json', rep],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(2)
    p.send_signal(signal.SIGTERM)
    out, _ = p.communicate(timeout=60)
    check(p.returncode == 128 + signal.SIGTERM, 'SIGTERM exit status', '%d\n%s' %
          (p.returncode, out))
    check('INTERRUPTED: partial results' in out and 'reports written' in out,
          'SIGTERM summary', out)
    try:
        with open(rep) as f:
            r = json.load(f)
        byname = {c['case']: c for c in r['cases']}
        check(r['interrupted'] is True and r['summary']['total'] == 9, 'partial report', r)
        check(byname['c00']['status'] == 'pass' and byname['zz']['kind'] == 'interrupted',
              'partial report cases', r)
    except (OSError, ValueError, KeyError) as e:
        check(False, 'partial report readable', str(e))


def report_files(d):
    ok = os.path.join(d, 'ok.optest')
    if os.getuid() == 0:
        run([ok, '-c', 'ints', '--json', '/dev/null', '--junit', '/dev/null'], 0, ['1 passed'],
            name='reports to /dev/null')
        check(stat.S_ISCHR(os.stat('/dev/null').st_mode), '/dev/null is still a device')
    target = os.path.join(d, 'target.json')
    link = os.path.join(d, 'link.json')
    os.symlink(target, link)
    run([ok, '-c', 'ints', '--json', link], 0, [], name='report through a symlink')
    check(os.path.islink(link) and os.path.exists(target), 'the link stays a link')
    run([ok, '-c', 'ints', '--json', os.path.join(d, 'nodir', 'r.json')], 2,
        ['nodir/r.json', 'No such file or directory'],
        name='unwritable report')


def manifest_errors(d):
    for bad, msg in (('[suite]\nprogram = p.s\n', 'no cases ([case NAME] or [matrix] groups)'),
                     ('[suite]\n[case a]\noutput.o = golden x at y\n', 'has no program'),
                     ('[suite]\nprogram = p.s\n[case a]\nouput.o = golden x at y\n',
                      "unknown key 'ouput.o'"),
                     ('[suite]\nprogram = p.s\n[case a]\noutput.o = golden x\n',
                      "expected 'golden FILE at PLACE"),
                     ('[suite]\nprogram = p.s\nmachine = vrit\n[case a]\n', 'machine'),
                     ('[suite]\nprogram = p.s\n[cases a]\n', 'unknown group'),
                     ('[suite]\nprogram = p.s\nspeed = 3\n[case a]\n', "[suite] unknown key 'speed'"),
                     ('[suite]\nprogram = p.s\ntimeout = -1\n[case a]\n', 'timeout'),
                     ('[suite]\nprogram = p.s\n[case a]\nstatus = 300\noutput.o = golden x at y\n',
                      'status: expected 0..255'),
                     ('[suite]\nprogram = p.s\n[case a/b]\noutput.o = golden x at y\n',
                      "case name 'a/b'"),
                     ('[suite]\nprogram = p.s\n[case a]\nargs = 1\nargs = 2\n'
                      'output.o = golden x at y\n', "key 'args' appears twice"),
                     ('not a manifest\n', 'bad.optest')):
        write(d, 'bad.optest', bad)
        run([os.path.join(d, 'bad.optest')], 2, [msg], name='manifest: ' + msg)
    run([os.path.join(d, 'missing.optest')], 2, ['missing.optest'], name='no manifest')
    run([], 2, ['usage'], name='no arguments')
    run(['-a', 'fast', os.path.join(d, 'ok.optest')], 2, ['--accel'], name='bad accel')
    run(['--data', d, '--data-root', d, os.path.join(d, 'ok.optest')], 2, ['not both'],
        name='--data and --data-root')
    run(['merge'], 2, ['usage: linx-optest merge'], name='merge without reports')


def user_and_elf(d):
    write(d, 'user.s', USER_PROG)
    npy(os.path.join(d, 'uin.npy'), '<i8', 'q', [40, 2, 0])
    npy(os.path.join(d, 'uout.npy'), '<i8', 'q', [42])
    write(d, 'user.optest', '''[suite]
program = user.s
machine = user
[case add]
input.v = uin.npy at vin
output.r = golden uout.npy at vin+16
''')
    run([os.path.join(d, 'user.optest')], 0, ['PASS user.optest/add'], name='user mode')
    subprocess.run([LINX_AS, '-o', os.path.join(d, 'p.elf'), os.path.join(d, 'p.s')],
                   check=True)
    write(d, 'elf.optest', '''[suite]
program = p.elf
[case ints]
args = 16
input.in = in.bin at vin dtype i32
output.out = golden want.npy at vout
''')
    run([os.path.join(d, 'elf.optest')], 0, ['PASS elf.optest/ints'], name='ELF program')


def main():
    keep = os.environ.get('OPTEST_SELFTEST_KEEP')
    with tempfile.TemporaryDirectory() as d:
        if keep:
            d = keep
            os.makedirs(d, exist_ok=True)
        basics(d)
        timeouts(d)
        matrix(d)
        programs(d)
        discovery(d)
        jobs_and_shards(d)
        interrupt(d)
        report_files(d)
        manifest_errors(d)
        user_and_elf(d)
    for f in failures:
        print('FAIL:', f)
    print('optest selftest: %d checks, %d failure(s)' % (checks, len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
