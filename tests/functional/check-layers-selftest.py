#!/usr/bin/env python3
"""Test scripts/check-layers.py on small fake trees.

The oracle is the rule text (scripts/check-layers.py, docs/architecture.md),
not the checker's own output: each tree is built so that we know, by
construction, which includes break which rule, and the test asserts that
exactly those are reported, with file:line, and nothing else.
"""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts',
                       'check-layers.py')

failures = []


def check(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        failures.append(what)


def make_tree(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, 'w') as f:
            f.write(text)


def run(root, *extra):
    p = subprocess.run([sys.executable, CHECKER, '--root', root, *extra],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


# A clean tree: every include points down (tcg -> hw -> util, target -> tcg,
# a front end -> target, the virt machine assembly -> target), no cycle,
# plus the private-header pattern (foo.c includes foo-internal.h, which
# includes foo.h), which is one module and so no cycle.
CLEAN = {
    'util/log.h': '#pragma once\n',
    'util/log.c': '#include "util/log.h"\n',
    'hw/dev/regs.h': '#include "util/log.h"\n',
    'hw/dev/regs.c': '#include "hw/dev/regs.h"\n#include <stdio.h>\n',
    'tcg/exec.h': '#include "hw/dev/regs.h"\n',
    'tcg/exec-internal.h': '#include "exec.h"\n',
    'tcg/exec.c': '#include "tcg/exec-internal.h"\n#include "tcg/engine-config.h"\n',
    'target/cpu/cpu.h': '#include "tcg/exec.h"\n',
    'target/cpu/cpu.c': '#include "cpu.h"\n',
    'hw/linx/virt.c': '#include "target/cpu/cpu.h"\n#include "gdbstub/stub.h"\n',
    'gdbstub/stub.h': '#include "target/cpu/cpu.h"\n',
    'gdbstub/stub.c': '#include "stub.h"\n',
    'tools/as/main.c': '#include "gdbstub/stub.h"\n',
    'tests/unit/t.c': '#include "tools/as/main.c"\n#include "hw/linx/virt.c"\n',
}

with tempfile.TemporaryDirectory() as d:
    make_tree(d, CLEAN)
    rc, out = run(d)
    check(rc == 0, 'a clean tree passes (exit 0)')
    check('no upward include, no cycle' in out, 'a clean tree says so')

# A violation: a device model including the CPU (hw -> target), the exec
# loop including the target (tcg -> target), and util including hw.
with tempfile.TemporaryDirectory() as d:
    tree = dict(CLEAN)
    tree['hw/dev/regs.c'] = '#include "hw/dev/regs.h"\n\n#include "target/cpu/cpu.h"\n'
    tree['tcg/exec.c'] = '#include "tcg/exec-internal.h"\n#include "target/cpu/cpu.h"\n'
    tree['util/log.c'] = '#include "util/log.h"\n#include "hw/dev/regs.h"\n'
    make_tree(d, tree)
    rc, out = run(d)
    check(rc == 1, 'upward includes fail (exit 1)')
    check('hw/dev/regs.c:3: #include "target/cpu/cpu.h": hw may not include target' in out,
          'hw -> target is named with file:line and the include')
    check('tcg/exec.c:2: #include "target/cpu/cpu.h": tcg may not include target' in out,
          'tcg -> target is named with file:line and the include')
    check('util/log.c:2: #include "hw/dev/regs.h": util may not include hw' in out,
          'util -> hw is named with file:line and the include')
    n = sum(1 for line in out.splitlines() if 'may not include' in line)
    check(n == 3, f'exactly the three upward includes are reported ({n})')

# A cycle: buffers.c includes loaddata.h and loaddata.c includes buffers.h
# (both in hw: no direction problem, only the circle), and a three-module
# circle in a front end.
with tempfile.TemporaryDirectory() as d:
    tree = dict(CLEAN)
    tree['hw/dev/buffers.h'] = '#pragma once\n'
    tree['hw/dev/buffers.c'] = '#include "buffers.h"\n#include "loaddata.h"\n'
    tree['hw/dev/loaddata.h'] = '#pragma once\n'
    tree['hw/dev/loaddata.c'] = '#include "loaddata.h"\n#include "hw/dev/buffers.h"\n'
    tree['gdbstub/packet.h'] = '#pragma once\n'
    tree['gdbstub/packet.c'] = '#include "packet.h"\n#include "commands.h"\n'
    tree['gdbstub/commands.h'] = '#pragma once\n'
    tree['gdbstub/commands.c'] = '#include "commands.h"\n#include "regs.h"\n'
    tree['gdbstub/regs.h'] = '#pragma once\n'
    tree['gdbstub/regs.c'] = '#include "regs.h"\n#include "packet.h"\n'
    make_tree(d, tree)
    rc, out = run(d)
    check(rc == 1, 'include cycles fail (exit 1)')
    check('include cycle between modules: hw/dev/buffers -> hw/dev/loaddata -> hw/dev/buffers'
          in out, 'the two-module cycle is named')
    check('hw/dev/buffers.c:2: #include "loaddata.h"' in out and
          'hw/dev/loaddata.c:2: #include "hw/dev/buffers.h"' in out,
          'both includes closing the two-module cycle are named with file:line')
    check('include cycle between modules: gdbstub/commands -> gdbstub/regs -> gdbstub/packet '
          '-> gdbstub/commands' in out, 'the three-module cycle is named')
    check('may not include' not in out, 'a cycle inside a layer is no direction problem')

# An empty tree is no pass.
with tempfile.TemporaryDirectory() as d:
    rc, out = run(d)
    check(rc == 2, 'a tree with no sources fails (exit 2), no false green')

# No list of tolerated problems: the check knows no --baseline (the
# refactor of issue 14 is done; every problem fails).
with tempfile.TemporaryDirectory() as d:
    make_tree(d, CLEAN)
    rc, out = run(d, '--baseline', os.path.join(d, 'baseline.txt'))
    check(rc == 2, 'there is no --baseline option (usage error)')

# The directory graph (docs/architecture.md's picture): one node per
# directory, the virt machine assembly a node of its own in the front end,
# an edge per directory pair with an include, red when it points up; the
# committed .dot/.svg pair is checked for staleness.
with tempfile.TemporaryDirectory() as d:
    tree = dict(CLEAN)
    tree['tcg/exec.c'] = '#include "tcg/exec-internal.h"\n#include "target/cpu/cpu.h"\n'
    make_tree(d, tree)
    dot = os.path.join(d, 'layers.dot')
    rc, out = run(d, '--dot-dirs', dot)
    text = open(dot).read() if os.path.exists(dot) else ''
    check(rc == 0 and text.startswith('// Generated'), '--dot-dirs writes the graph (exit 0)')
    edges = set()
    for line in text.splitlines():
        if ' -> ' in line and 'invis' not in line:
            a, b = line.strip().rstrip(';').split(' [')[0].split(' -> ')
            edges.add((a.strip('"'), b.strip('"'), 'red' in line))
    want = {('tcg', 'hw/dev', False), ('tcg', 'target/cpu', True),
            ('target/cpu', 'tcg', False), ('hw/dev', 'util', False),
            ('hw/linx/virt*', 'target/cpu', False), ('hw/linx/virt*', 'gdbstub', False),
            ('gdbstub', 'target/cpu', False), ('tools/as', 'gdbstub', False)}
    check(edges == want, f'the directory edges are those of the tree, the upward one red '
                         f'(extra {sorted(edges - want)}, missing {sorted(want - edges)})')
    check('"hw/linx/virt*"' in text.split('cluster_front')[1].split('}')[0],
          'the virt machine assembly is drawn in the front-end layer')
    check('tests' not in text, 'tests are not drawn')
    svg = os.path.join(d, 'layers.svg')
    titles = ['layers'] + [f'cluster_{n}' for n in ('util', 'hw', 'tcg', 'target', 'front',
                                                     'tools')]
    titles += ['util', 'hw/dev', 'tcg', 'target/cpu', 'gdbstub', 'hw/linx/virt*', 'tools/as']
    titles += [f'{a}&#45;&gt;{b}' for a, b, _ in want]
    with open(svg, 'w') as f:
        f.write(''.join(f'<g><title>{t}</title></g>\n' for t in titles))
    rc, out = run(d, '--check-dot-dirs', dot)
    check(rc == 0 and 'are current' in out, '--check-dot-dirs passes on a current pair')
    with open(svg, 'w') as f:
        f.write(''.join(f'<g><title>{t}</title></g>\n' for t in titles[:-1]))
    rc, out = run(d, '--check-dot-dirs', dot)
    check(rc == 1 and 'does not draw' in out, '--check-dot-dirs fails on an SVG missing an edge')
    make_tree(d, {'tools/as/main.c': '#include "gdbstub/stub.h"\n#include "util/log.h"\n'})
    rc, out = run(d, '--check-dot-dirs', dot)
    check(rc == 1 and 'is stale' in out, '--check-dot-dirs fails when an include adds an edge')

# The real tree's layer table covers every source directory.
rc, out = subprocess.run([sys.executable, CHECKER, '--table'], capture_output=True,
                         text=True).returncode, ''
check(rc == 0, '--table runs')

print(f'{len(failures)} failed')
sys.exit(1 if failures else 0)
