#!/usr/bin/env python3
"""Check scripts/plot-bench.py: from a bench-guest.py --json file with
known ratios it must write an SVG whose bar labels, tick labels and title
carry exactly those figures (text kept as text) and a PNG of the stated
size; a file that is not benchmark output must be refused with exit 2 and
a message naming it.  The oracle is the input file itself.

    plot-bench-test.py PYTHON_WITH_MATPLOTLIB scripts/plot-bench.py
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile


def main():
    py, script = sys.argv[1], sys.argv[2]
    fails = []
    doc = {'date': '2030-01-02T03:04:05+00:00', 'rounds': 3,
           'machine': {'cpu': 'Test CPU 9000', 'cpus': 2},
           'kernels': [
               {'name': 'crc32', 'linxemu_native': 1.14, 'qemu_native': 1.27, 'linxemu_qemu': 0.9},
               {'name': 'mix', 'linxemu_native': 2.83, 'qemu_native': 2.66,
                'linxemu_qemu': 1.064},
               {'name': 'memcpy', 'linxemu_native': 3.24, 'qemu_native': None,
                'linxemu_qemu': None}]}
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, 'b.json')
        with open(src, 'w') as f:
            json.dump(doc, f)
        svg, png = os.path.join(d, 'p.svg'), os.path.join(d, 'p.png')
        r = subprocess.run([py, script, src, '-o', svg, '-o', png], capture_output=True, text=True)
        if r.returncode != 0:
            print('FAIL: plot-bench exit %d: %s' % (r.returncode, r.stderr))
            return 1
        text = open(svg).read()
        texts = re.findall(r'<text[^>]*>([^<]*)</text>', text)
        joined = '\n'.join(texts)
        for want in ['1.14', '1.27', '2.83', '2.66', '3.24', 'crc32', 'mix', 'memcpy',
                     'linxemu/qemu 0.90', 'linxemu/qemu 1.06', 'linxemu / native',
                     'qemu-riscv64 / native', 'Test CPU 9000', '2030-01-02T03:04:05+00:00']:
            if want not in joined:
                fails.append('SVG text lacks %r' % want)
        if 'linxemu/qemu' in ''.join(t for t in texts if t.startswith('memcpy')):
            fails.append('memcpy has no qemu figure but got a linxemu/qemu label')
        with open(png, 'rb') as f:
            head = f.read(24)
        if head[:8] != b'\x89PNG\r\n\x1a\n':
            fails.append('PNG signature missing')
        else:
            w, h = struct.unpack('>II', head[16:24])
            if (w, h) != (800, 420):
                fails.append('PNG is %dx%d, expected 800x420' % (w, h))
        bad = os.path.join(d, 'bad.json')
        with open(bad, 'w') as f:
            f.write('{"something": 1}')
        r = subprocess.run([py, script, bad, '-o', svg], capture_output=True, text=True)
        if r.returncode != 2 or 'bad.json' not in r.stderr or 'kernels' not in r.stderr:
            fails.append('bad input: exit %d, stderr %r' % (r.returncode, r.stderr))
        r = subprocess.run([py, script, src, '-o', os.path.join(d, 'p.pdfx')],
                           capture_output=True, text=True)
        if r.returncode != 2:
            fails.append('bad output extension: exit %d' % r.returncode)
    for f in fails:
        print('FAIL: ' + f)
    print('ok: plot-bench' if not fails else '%d problems' % len(fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
