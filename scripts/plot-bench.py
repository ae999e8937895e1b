#!/usr/bin/env python3
"""Plot the guest benchmark's ratios: linxemu / native and qemu-riscv64 /
native per anchor kernel (and linxemu / qemu as text), from the JSON that
`ninja -C build bench` writes (build/bench-guest.json, bench-guest.py
--json).  One grouped bar chart; the output format follows each -o
file's extension (.svg, .png).  The title names the date and the machine
of the run, so a plot is never separated from where it was measured.

    scripts/plot-bench.py build/bench-guest.json -o docs/images/bench-ratios.svg [-o X.png]

Needs matplotlib (Debian: python3-matplotlib).  Exit 2 on a bad input
file (what is wrong, which file).
"""
import argparse
import json
import os
import sys


def fail(msg):
    print('plot-bench: ' + msg, file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail('%s: %s' % (path, e))
    ks = doc.get('kernels') if isinstance(doc, dict) else None
    if not isinstance(ks, list) or not ks:
        fail('%s: no "kernels" list (is it bench-guest.py --json output?)' % path)
    for k in ks:
        if not isinstance(k, dict) or 'name' not in k or not isinstance(
                k.get('linxemu_native'), (int, float)):
            fail('%s: a kernel without "name" and "linxemu_native": %r' % (path, k))
    return doc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('json')
    ap.add_argument('-o', '--output', action='append', required=True,
                    help='output file (.svg or .png); may be given more than once')
    args = ap.parse_args()
    for out in args.output:
        if os.path.splitext(out)[1].lower() not in ('.svg', '.png'):
            ap.error('%s: the output must end in .svg or .png' % out)
    doc = load(args.json)

    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    matplotlib.rcParams['svg.hashsalt'] = 'linxemu'  # stable ids: diffable SVGs
    matplotlib.rcParams['svg.fonttype'] = 'none'     # text stays text (searchable)

    ks = doc['kernels']
    names = [k['name'] for k in ks]
    lin = [k['linxemu_native'] for k in ks]
    qem = [k.get('qemu_native') for k in ks]
    has_q = any(q is not None for q in qem)
    x = range(len(ks))
    w = 0.38 if has_q else 0.6

    fig, ax = plt.subplots(figsize=(8, 4.2), dpi=100)
    off = -w / 2 if has_q else 0
    b1 = ax.bar([i + off for i in x], lin, w, label='linxemu / native', color='#2b6cb0')
    ax.bar_label(b1, labels=['%.2f' % v for v in lin], fontsize=8, padding=2)
    if has_q:
        qv = [q if q is not None else 0 for q in qem]
        b2 = ax.bar([i + w / 2 for i in x], qv, w, label='qemu-riscv64 / native',
                    color='#c05621')
        ax.bar_label(b2, labels=['%.2f' % q if q is not None else '-' for q in qem],
                     fontsize=8, padding=2)
    labels = []
    for k in ks:
        lq = k.get('linxemu_qemu')
        labels.append(k['name'] + ('\nlinxemu/qemu %.2f' % lq if lq is not None else ''))
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, fontsize=8)
    ax.axhline(1.0, color='#444444', linewidth=0.8, linestyle='--')
    ax.set_ylabel('kernel CPU time / native -O2 (lower is better)')
    top = max(lin + [q for q in qem if q is not None])
    ax.set_ylim(0, top * 1.18)
    m = doc.get('machine', {})
    ax.set_title('Anchor kernels, %d interleaved rounds, %s\n%s, %s CPUs'
                 % (doc.get('rounds', 0), doc.get('date', '?'), m.get('cpu', '?'),
                    m.get('cpus', '?')), fontsize=9)
    ax.legend(fontsize=8, loc='upper left')
    fig.tight_layout()
    for out in args.output:
        fig.savefig(out, metadata={'Date': None} if out.lower().endswith('.svg') else None)
        print('plot-bench: wrote %s' % out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
