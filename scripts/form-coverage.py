#!/usr/bin/env python3
"""Scalar-form coverage of the guest tests.

The guest-test runner (tests/guest/linx-run --forms FILE) writes the
catalog forms of the instructions a program retired, one name per line.
This script merges those files, compares them with the set of *scalar*
forms defined below, prints "executed forms / scalar forms" and the missing
forms, and exits 1 when coverage is below 100 %.

    form-coverage.py --forms-table docs/insn-forms.txt DIR_OR_FILES...
    form-coverage.py --forms-table docs/insn-forms.txt --run LINX_RUN PROG.elf...
    form-coverage.py --forms-table docs/insn-forms.txt --list-scalar

With --run, each program is run (interpreter) by the given linx-run with
--forms into a temporary directory first; a program that fails fails the
check.  A program argument may carry extra linx-run options after "::"
(prog.elf::--expect-trap 50).  Form files hold form indices (docs/insn-forms.txt order) or names.

Scalar forms = every form of docs/insn-forms.txt except (reasons in
docs/frontend.md, "Scalar forms"):
  * uop class VEC: the 64-bit V.* kernel-body forms (and V.QPUSH/V.QPOP);
  * tile and kernel block headers (BSTART.TMA/TLOAD/TSTORE/TMOV/CUBE/
    TMATMUL/TMATMUL.ACC/ACCCVT/TEPL/PAR/FIXP/MPAR/MSEQ/VPAR/VSEQ and the
    C.BSTART.MPAR/MSEQ/VPAR/VSEQ headers);
  * the header descriptors B.* and C.B.DIM/C.B.DIMI (tile/kernel headers);
  * the kernel-body branches B.EQ..B.GEU, B.Z, B.NZ, J, JR (illegal in
    scalar blocks);
  * the general queue manager HL.QMT/HL.QPUSH/HL.QPOP (kernel queues);
  * forms without v0.4 semantics: the RESERVE group (HL.BFI, HL.MIADD,
    HL.MISUB), BSE/BWE/BWI/BWT (digest 10.11), XB (system-call block, spec
    contradictory), ESAVE/ERCOV (extended-context templates);
  * catalog pseudo-forms made of two instructions (BSTART CALL, HL.BSTART
    CALL: their parts are counted) and alias spellings (BSTART.PAR).
"""
import argparse
import os
import subprocess
import sys
import tempfile

TILE_HEADERS = {
    'BSTART_TMA', 'BSTART_TLOAD', 'BSTART_TSTORE', 'BSTART_TMOV', 'BSTART_CUBE',
    'BSTART_TMATMUL', 'BSTART_TMATMUL_ACC', 'BSTART_ACCCVT', 'BSTART_TEPL',
    'BSTART_PAR', 'BSTART_FIXP', 'BSTART_MPAR', 'BSTART_MSEQ', 'BSTART_VPAR',
    'BSTART_VSEQ', 'C_BSTART_MPAR', 'C_BSTART_MSEQ', 'C_BSTART_VPAR', 'C_BSTART_VSEQ',
}
KERNEL_BRANCHES = {'B_EQ', 'B_NE', 'B_LT', 'B_GE', 'B_LTU', 'B_GEU', 'B_Z', 'B_NZ', 'J', 'JR'}
QUEUE_MANAGER = {'HL_QMT', 'HL_QPUSH', 'HL_QPOP'}
NO_SEMANTICS = {'HL_BFI', 'HL_MIADD', 'HL_MISUB', 'BSE', 'BWE', 'BWI', 'BWT', 'XB', 'ESAVE',
                'ERCOV'}
PSEUDO = {'BSTART_CALL', 'HL_BSTART_CALL'}


def read_forms(path):
    """(name, uop) of every form in docs/insn-forms.txt."""
    forms = []
    with open(path) as f:
        for line in f:
            if line.startswith('#') or '|' not in line:
                continue
            cols = [c.strip() for c in line.split('|')]
            forms.append((cols[0], cols[2], cols[-1]))
    return forms


def scalar_forms(forms):
    out = []
    for name, uop, note in forms:
        if uop == 'VEC' or name.startswith('V_'):
            continue
        if name in TILE_HEADERS or name in KERNEL_BRANCHES or name in QUEUE_MANAGER:
            continue
        if name in NO_SEMANTICS or name in PSEUDO or 'alias of' in note:
            continue
        if name.startswith('B_') or name in ('C_B_DIM', 'C_B_DIMI'):
            continue
        out.append(name)
    return out


def read_executed(paths, names):
    done = set()
    for p in paths:
        files = [os.path.join(p, n) for n in sorted(os.listdir(p))] if os.path.isdir(p) else [p]
        for fn in files:
            with open(fn) as f:
                for line in f:
                    line = line.strip()
                    if line.isdigit() and int(line) < len(names):
                        done.add(names[int(line)])
                    elif line:
                        done.add(line)
    return done


def run_programs(linx_run, progs, outdir):
    """Run every program with --forms; returns the failures."""
    failed = []
    for i, spec in enumerate(progs):
        # "prog.elf" or "prog.elf::extra linx-run options"
        prog, _, extra = spec.partition('::')
        out = os.path.join(outdir, '%03d.forms' % i)
        r = subprocess.run([linx_run, '-accel', 'interp', '--forms', out] + extra.split() + [prog],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            failed.append('%s (exit %d): %s' % (prog, r.returncode, r.stdout.strip()[-400:]))
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--forms-table', required=True)
    ap.add_argument('--list-scalar', action='store_true')
    ap.add_argument('--run', metavar='LINX_RUN')
    ap.add_argument('executed', nargs='*')
    args = ap.parse_args()

    forms = read_forms(args.forms_table)
    names = [f[0] for f in forms]
    scalar = scalar_forms(forms)
    if args.list_scalar:
        print('\n'.join(scalar))
        return 0
    if args.run:
        with tempfile.TemporaryDirectory() as tmp:
            failed = run_programs(args.run, args.executed, tmp)
            for f in failed:
                print('program failed: %s' % f)
            done = read_executed([tmp], names)
        if failed:
            return 1
    else:
        done = read_executed(args.executed, names)
    missing = [f for f in scalar if f not in done]
    hit = len(scalar) - len(missing)
    print('executed scalar forms: %d / %d (%.1f %%)' % (hit, len(scalar),
                                                       100.0 * hit / len(scalar)))
    for f in missing:
        print('  not executed: %s' % f)
    return 0 if not missing else 1


if __name__ == '__main__':
    sys.exit(main())
