#!/usr/bin/env python3
"""Run one guest program under linx-user or linx-system and check what it
did: the exit status, and optionally its standard output and a pattern in
its standard error.

    run-guest.py [--status N] [--stdout TEXT] [--stderr-re REGEX]
                 [--tmpdir] [--env NAME=VALUE]... [--clean-env]
                 [--timeout SECONDS] [--stat-max NAME=N]... [--repeat N]
                 -- COMMAND [ARGS...]

--tmpdir runs the command in a fresh temporary directory (removed
afterwards), for programs that create files.  --clean-env gives the command
only the --env variables (plus what the sanitizers need), so a guest test
can check its environment exactly.  The check fails with a message saying
what differed; a command that runs past --timeout (default 60 s) fails too.
--stat-max NAME=N checks the engine's statistics (the "stats: name=value"
line that -d stats prints on stderr; the command must ask for it): each
named counter must be present and at most N (e.g. tbs_translated, to catch
retranslation storms).
--repeat N runs the command N times (to shake out races in multi-threaded
guests); every run is checked, and the first one that differs fails.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

KEEP_IN_CLEAN_ENV = ('ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS', 'MSAN_OPTIONS')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--status', type=int, default=0)
    ap.add_argument('--stdout')
    ap.add_argument('--stderr-re')
    ap.add_argument('--tmpdir', action='store_true')
    ap.add_argument('--env', action='append', default=[])
    ap.add_argument('--clean-env', action='store_true')
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--stat-max', action='append', default=[])
    ap.add_argument('--repeat', type=int, default=1)
    ap.add_argument('command', nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ['--'] else args.command
    if not cmd:
        ap.error('no command')

    if args.tmpdir:
        # Paths given relative to where we were started must still work.
        cmd = [os.path.abspath(c) if os.path.exists(c) else c for c in cmd]
    env = {} if args.clean_env else dict(os.environ)
    if args.clean_env:
        for k in KEEP_IN_CLEAN_ENV:
            if k in os.environ:
                env[k] = os.environ[k]
    for e in args.env:
        k, _, v = e.partition('=')
        env[k] = v
    if args.repeat < 1:
        ap.error('--repeat must be at least 1')
    for run in range(args.repeat):
        rc = run_once(args, cmd, env, '' if args.repeat == 1 else ' (run %d of %d)' % (run + 1, args.repeat))
        if rc:
            return rc
    return 0


def run_once(args, cmd, env, which):
    cwd = tempfile.mkdtemp(prefix='linx-guest-') if args.tmpdir else None
    try:
        r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        print('FAIL: %s ran longer than %g s%s' % (' '.join(cmd), args.timeout, which))
        return 1
    finally:
        if cwd:
            shutil.rmtree(cwd, ignore_errors=True)
    out = r.stdout.decode(errors='replace')
    err = r.stderr.decode(errors='replace')
    problems = []
    if r.returncode != args.status:
        problems.append('exit status %d, expected %d' % (r.returncode, args.status))
    if args.stdout is not None and out != args.stdout.encode().decode('unicode_escape'):
        problems.append('stdout %r, expected %r' % (out, args.stdout))
    if args.stderr_re and not re.search(args.stderr_re, err, re.M):
        problems.append('stderr does not match %r' % args.stderr_re)
    for sm in args.stat_max:
        name, _, limit = sm.partition('=')
        lines = re.findall(r'^stats: (.*)$', err, re.M)
        if not lines:
            problems.append('no "stats:" line on stderr (run with -d stats)')
            continue
        fields = dict(kv.split('=', 1) for kv in lines[-1].split() if '=' in kv)
        if name not in fields:
            problems.append('no statistic %r in %r' % (name, lines[-1]))
        elif int(fields[name]) > int(limit):
            problems.append('%s = %s, expected at most %s' % (name, fields[name], limit))
        else:
            print('%s = %s (at most %s)' % (name, fields[name], limit))
    if problems:
        print('FAIL: %s%s' % (' '.join(cmd), which))
        for p in problems:
            print('  ' + p)
        print('--- stdout ---\n%s--- stderr ---\n%s' % (out, err))
        return 1
    print('ok: %s (status %d)%s' % (' '.join(cmd), r.returncode, which))
    return 0


if __name__ == '__main__':
    sys.exit(main())
