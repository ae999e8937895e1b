#!/usr/bin/env python3
"""Translation cost per TB on real programs (issue 16 item 4): runs each
compiled program under linx-user -d stats, several rounds, and prints per
program the TBs translated, guest instructions per TB, and the thread CPU
time per TB by stage - front end (decode and IR build, one pass),
optimiser, backend (liveness, register allocation and emission, one pass),
the rest of a translation (the TB's memory, the hash; "other") - with the
whole against the 5 us goal and the share of the process's CPU time that
translation takes (both from the same run).  Minimum over the rounds per
stage.  The engine subtracts the cost of reading the clock from every
interval it measures (ns_clock_read, printed here).  Programs that are absent (../shared not there) are
skipped with a note; none at all is a failure (exit 2).

  bench-translate.py --linx-user PATH [--rounds N] PROGRAM[:ARG...] ...
"""
import argparse
import os
import re
import resource
import subprocess
import sys

GOAL_US = 5.0


def run(linx_user, prog, args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([linx_user, '-d', 'stats', prog] + args, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    err = p.stderr.decode(errors='replace')
    if p.returncode != 0:
        sys.exit('bench-translate: %s exited %d:\n%s' % (prog, p.returncode, err[-2000:]))
    m = re.findall(r'^stats: (.*)$', err, re.M)
    if not m:
        sys.exit('bench-translate: no stats line from %s' % prog)
    f = {k: int(v) for k, v in (kv.split('=', 1) for kv in m[-1].split())}
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return f, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--linx-user', required=True)
    ap.add_argument('--rounds', type=int, default=int(os.environ.get('BENCH_ROUNDS', '3')))
    ap.add_argument('program', nargs='+')
    a = ap.parse_args()
    progs = []
    for spec in a.program:
        parts = spec.split(':')
        if not os.path.exists(parts[0]):
            print('skipped (absent): %s' % parts[0])
            continue
        progs.append((parts[0], parts[1:]))
    if not progs:
        print('bench-translate: no program to run', file=sys.stderr)
        return 2
    res = {p: [] for p, _ in progs}
    for _ in range(a.rounds):
        for p, args in progs:
            res[p].append(run(a.linx_user, p, args))
    print('| program | TBs | insns/TB | front end us/TB | optimise us/TB | backend us/TB '
          '| other us/TB | total us/TB | total / 5 us goal | translation / process CPU |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    tot_ns = tot_tbs = 0
    clock = []
    keys = ('ns_frontend', 'ns_optimize', 'ns_backend', 'ns_translate')
    for p, _ in progs:
        runs = res[p]
        f0 = runs[0][0]
        tbs = f0['tbs_translated']
        if tbs == 0:
            sys.exit('bench-translate: %s translated nothing' % p)
        st = {k: min(r[0][k] for r in runs) for k in keys}
        total = st['ns_translate']
        other = max(0, total - st['ns_frontend'] - st['ns_optimize'] - st['ns_backend'])
        share = min(r[0]['ns_translate'] / 1e9 / r[1] for r in runs if r[1] > 0)
        clock += [r[0]['ns_clock_read'] for r in runs]
        tot_ns += total
        tot_tbs += tbs
        print('| %s | %d | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f %% |'
              % (os.path.basename(p), tbs, f0['guest_insns_translated'] / tbs,
                 st['ns_frontend'] / tbs / 1e3, st['ns_optimize'] / tbs / 1e3,
                 st['ns_backend'] / tbs / 1e3, other / tbs / 1e3, total / tbs / 1e3,
                 total / tbs / 1e3 / GOAL_US, 100 * share))
    print()
    print('All programs: %.2f us per TB (goal %.1f us: %.2fx).  Thread CPU time per stage, '
          'minimum of %d rounds, less the clock reading cost (%d-%d ns per reading); share: '
          'translation time / the process\'s CPU time in the same run.'
          % (tot_ns / tot_tbs / 1e3, GOAL_US, tot_ns / tot_tbs / 1e3 / GOAL_US, a.rounds,
             min(clock), max(clock)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
