#!/usr/bin/env python3
"""Find the first instruction where two runs of a LinxISA program differ.

    linx-difftrace.py [--tool PATH] [--a OPTS] [--b OPTS] [--objdump PATH]
                      [--context N] -- PROGRAM [ARGS...]

Runs PROGRAM twice under the same tool (default: linx-user next to this
script's build, or --tool: linx-user or linx-system; for linx-system give
"-M virt -kernel" in the options and PROGRAM last), each time with its own
options and -trace-commit, and compares the two commit traces row by row
(docs/engine.md "Commit trace"): the first row whose pc, instruction,
register write-back, memory access, trap or next pc differ is reported
with the rows before it, disassembled.  The defaults compare the JIT with
whole-block TBs (--a "") against the interpreter with one instruction per
TB (--b "-accel interp -one-insn-per-tb"): the engine checking itself on
compiled code.  Other pairs work the same way, e.g. the two ISA profiles
(--a "-cpu linx-toolchain" --b "-cpu linx-v0.4") to see where a program's
convention first matters.

Two runs of a Linux program are separate processes: a system call whose
result differs between them for that reason (getpid, set_tid_address,
the clock) is not an engine difference.  When the first difference is the
result of a system call (the row after an acrc differs in its value only),
the report says so and the comparison goes on with control flow only (pc,
instruction, next pc, memory addresses), so a later divergence of the path
is still found.

Exit status: 0 the traces agree (or differ only in system-call results and
what follows from them), 1 they differ (the report is on stdout), 2 a run
failed to start or a usage error.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

FIELDS = ('pc', 'insn', 'len', 'wb_valid', 'wb_rd', 'wb_data', 'dst_reg', 'mem_valid',
          'mem_is_store', 'mem_addr', 'mem_wdata', 'mem_rdata', 'mem_size', 'trap_valid',
          'trap_cause', 'next_pc')
FLOW_FIELDS = ('pc', 'insn', 'len', 'wb_valid', 'wb_rd', 'mem_valid', 'mem_is_store',
               'mem_size', 'trap_valid', 'next_pc')
ACRC_WORD = 0x0010302b


def default_tool(name):
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, '..', 'build', 'linux-user', name),
                 os.path.join(here, '..', 'build', 'tools', name),
                 os.path.join(here, '..', 'build', name)):
        if os.path.exists(cand):
            return cand
    return name


def hex_words(insn, length):
    if length == 2:
        return '%04x' % (insn & 0xffff)
    if length == 4:
        return '%08x' % (insn & 0xffffffff)
    if length == 6:
        return '%04x %08x' % (insn & 0xffff, (insn >> 16) & 0xffffffff)
    return '%08x %08x' % (insn & 0xffffffff, (insn >> 32) & 0xffffffff)


def disas(objdump, row, cache):
    key = (row['insn'], row['len'], row['pc'])
    if key not in cache:
        try:
            p = subprocess.run([objdump, '--start-address', str(row['pc']), '--hex',
                                hex_words(row['insn'], row['len'])], capture_output=True,
                               text=True, timeout=30)
            line = [l for l in p.stdout.splitlines() if ':' in l]
            cache[key] = ' '.join(line[0].split(':', 1)[1].split()[1:]) if line else '?'
        except OSError:
            cache[key] = '?'
    return cache[key]


def run(tool, opts, prog, trace):
    cmd = [tool] + opts + ['-trace-commit', trace] + prog
    return subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=3600)


def describe(row, objdump, cache):
    s = '%#x: %-40s' % (row['pc'], disas(objdump, row, cache))
    if row.get('wb_valid'):
        s += ' r%d=%#x' % (row['wb_rd'], row['wb_data'])
    if row.get('mem_valid'):
        if row['mem_is_store']:
            s += ' store%d [%#x]=%#x' % (row['mem_size'] * 8, row['mem_addr'], row['mem_wdata'])
        else:
            s += ' load%d [%#x]=%#x' % (row['mem_size'] * 8, row['mem_addr'], row['mem_rdata'])
    if row.get('trap_valid'):
        s += ' trap %#x' % row['trap_cause']
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--tool', default=None)
    ap.add_argument('--a', default='', help='options of run A (default: none, the JIT)')
    ap.add_argument('--b', default='-accel interp -one-insn-per-tb',
                    help='options of run B (default: %(default)s)')
    ap.add_argument('--objdump', default=None)
    ap.add_argument('--context', type=int, default=8)
    ap.add_argument('prog', nargs=argparse.REMAINDER)
    args = ap.parse_args()
    prog = args.prog[1:] if args.prog[:1] == ['--'] else args.prog
    if not prog:
        ap.error('no program given')
    tool = args.tool or default_tool('linx-user')
    objdump = args.objdump or default_tool('linx-objdump')
    with tempfile.TemporaryDirectory() as tmp:
        ta, tb = os.path.join(tmp, 'a.jsonl'), os.path.join(tmp, 'b.jsonl')
        ra = run(tool, shlex.split(args.a), prog, ta)
        rb = run(tool, shlex.split(args.b), prog, tb)
        for name, r, t in (('A', ra, ta), ('B', rb, tb)):
            if not os.path.exists(t):
                print('run %s did not start (status %d): %s' % (name, r.returncode,
                                                               r.stderr.decode(errors='replace')[-2000:]))
                return 2
        history = []
        cache = {}
        fields = FIELDS
        prev = None
        with open(ta) as fa, open(tb) as fb:
            n = 0
            while True:
                la, lb = fa.readline(), fb.readline()
                if not la and not lb:
                    print('the traces agree%s: %d instructions; exit status A %d, B %d' % (
                        ' in control flow' if fields is FLOW_FIELDS else '', n, ra.returncode,
                        rb.returncode))
                    return 0 if ra.returncode == rb.returncode else 1
                if la == lb and la:
                    history.append(la)
                    del history[:-args.context]
                    prev = None
                    n += 1
                    continue
                a = json.loads(la) if la else None
                b = json.loads(lb) if lb else None
                if a and b and all(a.get(f) == b.get(f) for f in fields):
                    history.append(la)
                    del history[:-args.context]
                    prev = a
                    n += 1
                    continue
                last = json.loads(history[-1]) if history else None
                if (a and b and fields is FIELDS and last and last['insn'] == ACRC_WORD and
                        all(a.get(f) == b.get(f) for f in FLOW_FIELDS)):
                    print('note: the system call at %#x returned %#x in A and %#x in B (separate '
                          'processes); from instruction %d on, control flow is compared' % (
                              last['pc'], a.get('wb_data', 0), b.get('wb_data', 0), n + 1))
                    fields = FLOW_FIELDS
                    history.append(la)
                    del history[:-args.context]
                    n += 1
                    continue
                print('first difference at instruction %d (commit-trace row %d):' % (n + 1, n))
                for h in history:
                    print('    %s' % describe(json.loads(h), objdump, cache))
                for name, row, opts in (('A', a, args.a), ('B', b, args.b)):
                    if row is None:
                        print('  %s [%s]: the run ended (status %d)' % (
                            name, opts, ra.returncode if name == 'A' else rb.returncode))
                    else:
                        print('  %s [%s]: %s' % (name, opts, describe(row, objdump, cache)))
                if a and b:
                    diff = [f for f in FIELDS if a.get(f) != b.get(f)]
                    print('  fields that differ: %s' % ', '.join(
                        '%s %#x / %#x' % (f, a.get(f) or 0, b.get(f) or 0) for f in diff))
                return 1


if __name__ == '__main__':
    sys.exit(main())
