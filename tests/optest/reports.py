#!/usr/bin/env python3
"""linx-optest's report files validate (docs/optest.md "Reports"): the
JSON report against docs/optest-report.schema.json (python3-jsonschema),
the JUnit XML against tests/optest/junit.xsd (xmllint), TAP 13 by its
plan and lines; their contents name the cases' results; shard reports
merge into the whole run's report.

    reports.py LINX_OPTEST SOURCE_ROOT

Exit 77 (skipped) when jsonschema or xmllint is missing (.ci/run installs
python3-jsonschema and libxml2-utils).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from selfprogs import LOOP_PROG, NOISY_PROG, TRAP_PROG, VIRT_PROG, npy, run_tool, write

OPTEST, ROOT = sys.argv[1], sys.argv[2]
failures = []


def check(cond, name, detail=''):
    if not cond:
        failures.append('%s %s' % (name, detail))


def suite(d):
    import struct
    write(d, 'p.s', VIRT_PROG)
    write(d, 'trap.s', TRAP_PROG)
    write(d, 'loop.s', LOOP_PROG)
    write(d, 'noisy.s', NOISY_PROG)
    ints = [i * 7 - 20 for i in range(16)]
    floats = [0.5 * i - 1.0 for i in range(16)]
    with open(os.path.join(d, 'in.bin'), 'wb') as f:
        f.write(struct.pack('<16i', *ints) + struct.pack('<16f', *floats))
    npy(os.path.join(d, 'want.npy'), '<i4', 'i', [v * 3 for v in ints], (4, 4))
    npy(os.path.join(d, 'wrong.npy'), '<i4', 'i', [v * 3 + (i == 6) for i, v in enumerate(ints)],
        (4, 4))
    off = [struct.unpack('<f', struct.pack('<I', struct.unpack('<I', struct.pack('<f', v))[0] + 2))[0]
           if v > 0 else v for v in floats]
    npy(os.path.join(d, 'fl.npy'), '<f4', 'f', off)
    write(d, 'r.optest', '''[suite]
name = rep
program = p.s
rtol = 0
[case good]
args = 16 0
input.in = in.bin at vin dtype i32
output.out = golden want.npy at vout
[case intwrong]
args = 16 0
input.in = in.bin at vin dtype i32
output.out = golden wrong.npy at vout
[case floatwrong]
args = 16 0
input.in = in.bin at vin dtype i32
output.out = golden fl.npy at vout+64
[case parked]
skip = needs <a> & "b"
output.out = golden want.npy at vout
[case trap]
program = trap.s
output.out = golden want.npy at vout
[case spin]
program = loop.s
timeout = 0.5
output.out = golden want.npy at vout
[case noisy]
program = noisy.s
output.out = golden want.npy at vout
[matrix m]
n = 16, 17
args = {n} 0
input.in = in.bin at vin dtype i32
output.out = golden want.npy at vout
''')
    return os.path.join(d, 'r.optest')


def strip_run(report):
    """The cases without what differs between runs (times, phases, and the
    translations a case made: a worker reuses those of the cases it ran
    before, which depend on the shard)."""
    out = []
    for c in report['cases']:
        c = dict(c)
        for k in ('time', 'phases', 'manifest', 'tbs_translated'):
            c.pop(k, None)
        out.append(c)
    return out


def main():
    try:
        import jsonschema
    except ImportError:
        print('SKIP: python3-jsonschema is not installed')
        return 77
    xmllint = shutil.which('xmllint')
    if not xmllint:
        print('SKIP: xmllint (libxml2-utils) is not installed')
        return 77
    with open(os.path.join(ROOT, 'docs', 'optest-report.schema.json')) as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    xsd = os.path.join(ROOT, 'tests', 'optest', 'junit.xsd')
    with tempfile.TemporaryDirectory() as d:
        manifest = suite(d)
        rj, rx = os.path.join(d, 'r.json'), os.path.join(d, 'r.xml')
        status, text = run_tool(OPTEST, [manifest, '--json', rj, '--junit', rx, '-j', '2'])
        check(status == 1, 'run status', '%d\n%s' % (status, text))
        with open(rj) as f:
            report = json.load(f)
        errors = sorted(validator.iter_errors(report), key=str)
        check(not errors, 'JSON report validates', '\n'.join(str(e) for e in errors[:3]))
        cases = {c['case']: c for c in report['cases']}
        check(report['summary'] == {'total': 9, 'passed': 3, 'failed': 5, 'skipped': 1},
              'summary', report['summary'])
        check([c['name'] for c in report['cases']] ==
              sorted(c['name'] for c in report['cases']), 'cases sorted')
        mm = cases['intwrong']['mismatch']
        check(cases['intwrong']['kind'] == 'mismatch' and mm['index'] == [1, 2] and
              mm['flat_index'] == 6 and mm['got'] == 66 and mm['want'] == 67 and
              mm['got_bits'] == '0x00000042' and mm['ulp'] is None, 'integer mismatch', mm)
        mm = cases['floatwrong']['mismatch']
        check(mm['dtype'] == 'f32' and mm['ulp'] == 2 and mm['index'] == [3] and
              mm['got'] == 0.5 and mm['got_bits'] == '0x3f000000', 'float mismatch', mm)
        check(cases['parked']['status'] == 'skip' and
              cases['parked']['message'] == 'needs <a> & "b"', 'skip', cases['parked'])
        check(cases['trap']['kind'] == 'exit-status' and 'unhandled trap' in
              (cases['trap']['output'] or ''), 'trap', cases['trap'])
        check(cases['spin']['kind'] == 'timeout' and 'timed out after 0.5 s' in
              cases['spin']['message'], 'timeout', cases['spin'])
        check(cases['m-17']['params'] == {'n': '17'} and cases['good']['params'] is None,
              'params', cases['m-17'])
        check(cases['noisy']['output'] is not None and '<&\x01\ufffd"' in cases['noisy']['output'],
              'guest output with controls and invalid UTF-8', repr(cases['noisy']['output']))
        r = subprocess.run([xmllint, '--noout', '--schema', xsd, rx], capture_output=True,
                           text=True)
        check(r.returncode == 0, 'JUnit validates', r.stdout + r.stderr)
        import xml.etree.ElementTree as ET
        root = ET.parse(rx).getroot()
        ts = root.find('testsuite')
        check(root.get('tests') == '9' and root.get('failures') == '5' and
              root.get('skipped') == '1' and ts.get('name') == 'rep', 'JUnit counts',
              ET.tostring(root)[:300])
        kinds = {tc.get('name'): (tc.find('failure').get('type') if tc.find('failure') is not None
                                  else 'skipped' if tc.find('skipped') is not None else 'pass')
                 for tc in ts.findall('testcase')}
        check(kinds == {'good': 'pass', 'intwrong': 'mismatch', 'floatwrong': 'mismatch',
                        'parked': 'skipped', 'trap': 'exit-status', 'spin': 'timeout',
                        'noisy': 'exit-status', 'm-16': 'pass', 'm-17': 'pass'},
              'JUnit cases', kinds)
        # TAP
        status, text = run_tool(OPTEST, [manifest, '--tap', '-j', '1'])
        lines = text.splitlines()
        check(lines[0] == 'TAP version 13' and lines[1] == '1..9', 'TAP header', lines[:2])
        oks = [ln for ln in lines if ln.startswith('ok ')]
        nots = [ln for ln in lines if ln.startswith('not ok ')]
        check(len(oks) == 4 and len(nots) == 5 and
              any(ln.endswith('# SKIP needs <a> & "b"') for ln in oks), 'TAP lines', text)
        check(all(' - rep/' in ln for ln in oks + nots), 'TAP names', text)
        # shards merge into the whole run
        shards = []
        for k in range(3):
            path = os.path.join(d, 's%d.json' % k)
            run_tool(OPTEST, [manifest, '--json', path, '--shard', '%d/3' % k])
            shards.append(path)
        mj, mx = os.path.join(d, 'm.json'), os.path.join(d, 'm.xml')
        status, text = run_tool(OPTEST, ['merge', '--json', mj, '--junit', mx] + shards)
        check(status == 1 and 'linx-optest: 3 passed, 5 failed, 1 skipped; 9 cases' in text,
              'merge status and summary', text)
        with open(mj) as f:
            merged = json.load(f)
        errors = list(validator.iter_errors(merged))
        check(not errors, 'merged JSON validates', '\n'.join(str(e) for e in errors[:3]))
        check(merged['shard'] is None and strip_run(merged) == strip_run(report),
              'merged shards equal the whole run')
        r = subprocess.run([xmllint, '--noout', '--schema', xsd, mx], capture_output=True,
                           text=True)
        check(r.returncode == 0, 'merged JUnit validates', r.stdout + r.stderr)
        for args, msg in ((shards[:2], 'shard 2/3 is missing'),
                          (shards + shards[:1], 'given twice'),
                          ([rj] + shards, 'is not a shard'),
                          ([os.path.join(d, 'r.xml')], 'not JSON'),
                          ([manifest], 'not JSON')):
            status, text = run_tool(OPTEST, ['merge'] + args)
            check(status == 2 and msg in text, 'merge error: ' + msg, text)
        write(d, 'empty.json', json.dumps(dict(report, cases=[], summary={
            'total': 0, 'passed': 0, 'failed': 0, 'skipped': 0})))
        status, text = run_tool(OPTEST, ['merge', os.path.join(d, 'empty.json')])
        check(status == 2 and 'hold no cases' in text, 'empty merge', text)
        status, text = run_tool(OPTEST, ['merge', '-q', rj])
        check(status == 1, 'merge of one report')
    for f in failures:
        print('FAIL:', f)
    print('optest reports: %d failure(s)' % len(failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
