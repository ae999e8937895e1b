#!/usr/bin/env python3
"""The whole operator suite gives the same report with workers (one reused
machine per -j slot, the default) as with a process per case (--isolate):
every case's status, failure kind, message, first mismatch and output,
compared case by case (times, phases and translation counts differ by
design).  The isolation of hostile cases is tests/optest/isolation.py.

    modes.py LINX_OPTEST DATA_ROOT SUITE_DIR...
"""
import json
import os
import subprocess
import sys
import tempfile


def run(tool, args, path):
    r = subprocess.run([tool, '-q', '--no-progress', '--json', path] + args,
                       capture_output=True, text=True, errors='replace')
    with open(path) as f:
        return r.returncode, r.stdout + r.stderr, json.load(f)


def strip(report):
    return {c['name']: {k: v for k, v in c.items()
                        if k not in ('time', 'phases', 'manifest', 'tbs_translated')}
            for c in report['cases']}


def main():
    tool, data, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as d:
        common = ['-j', '2', '-D', data] + dirs
        s1, out1, iso = run(tool, ['--isolate'] + common, os.path.join(d, 'iso.json'))
        s2, out2, wrk = run(tool, common, os.path.join(d, 'wrk.json'))
    a, b = strip(iso), strip(wrk)
    bad = []
    if not a:
        bad.append('no cases ran (a filter or directory that matched nothing)')
    if s1 != s2:
        bad.append('exit status %d with --isolate, %d with workers' % (s1, s2))
    if iso['summary'] != wrk['summary']:
        bad.append('summaries differ: %s / %s' % (iso['summary'], wrk['summary']))
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            bad.append('%s: --isolate %s\n    workers %s' % (name, json.dumps(a.get(name))[:600],
                                                            json.dumps(b.get(name))[:600]))
    for line in bad[:20]:
        print('FAIL:', line)
    print('optest modes: %d cases, %s, %d difference(s)' %
          (len(a), ', '.join('%s %d' % kv for kv in sorted(iso['summary'].items())), len(bad)))
    if bad:
        print(out1[-2000:], out2[-2000:])
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
