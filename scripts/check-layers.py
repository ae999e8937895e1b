#!/usr/bin/env python3
"""Check that the source tree's layers point one way (docs/architecture.md).

Every `#include "..."` of a C file (.c, .h, .inc) in the tree is an edge of
the include graph.  Two rules hold for it:

1. Directions.  Each file belongs to a layer (the LAYERS table below, first
   matching rule wins).  A file may include files of its own layer and of
   the layers below it, never of a layer above:

       util <- hw <- tcg <- target <- front ends <- tools <- tests

2. No circles.  A module is a C file and its header (foo.c + foo.h in one
   directory; a private foo-internal.h belongs to module foo too).  Module A uses module B when a file of A includes a file of
   B; the "uses" graph has no cycle, so every module can be read knowing
   only the modules below it.

Violations are printed one per line as `file:line: #include "x": why`
(a cycle prints each include that closes it), and the exit status is 1.
Exit status 0 when the tree is clean, 2 on usage errors or when nothing
was scanned (no false green).

    scripts/check-layers.py [--root DIR]          check (the 'check-layers' test)
    scripts/check-layers.py --dot FILE            also write the module graph
                                                  for Graphviz (docs/architecture.md)
    scripts/check-layers.py --dot-dirs FILE       write the directory graph
                                                  (docs/images/layers.dot)
    scripts/check-layers.py --dot-dirs FILE --svg SVG  ... and draw it (Graphviz)
    scripts/check-layers.py --check-dot-dirs FILE fail if FILE (and the SVG beside
                                                  it) is not current
    scripts/check-layers.py --table               print the layer table
"""
import argparse
import html
import fnmatch
import os
import re
import sys

# The layers, lowest first: (name, what it owns, path patterns).  A file's
# layer is that of the first pattern (fnmatch, '/'-separated, relative to
# the root) it matches, in table order, MACHINE_ASSEMBLY first: the
# virt machine's files, which live in hw/linx/ as QEMU's machines live in
# hw/<arch>/, count as a front end: they wire devices, a CPU, the exec loop
# and the debugger together.
MACHINE_ASSEMBLY = ['hw/linx/virt*']
LAYERS = [
    ('util', 'host helpers: ELF files, options, file writes; the IEEE floating-point '
     'library (fpu/, as QEMU\'s)',
     ['util/*', 'fpu/*']),
    ('hw', 'device models: guest memory, tile registers, buffers, TMA, cube, TEPL; '
     'plain parameter structs in, a device status out',
     ['hw/*']),
    ('tcg', 'target-independent engine: IR, optimiser, x86-64 backend, interpreter, '
     'TB cache, softmmu, exec loop; reaches the guest through the ops table '
     'a target registers',
     ['tcg/*']),
    ('target', 'LinxISA: CPU state, decoder, translator, helpers, traps, '
     'assembler/disassembler core, FPU; maps device status to traps',
     ['target/*']),
    ('front', 'front ends: linux-user, gdbstub, the virt machine assembly',
     MACHINE_ASSEMBLY + ['linux-user/*', 'gdbstub/*']),
    ('tools', 'programs built on the layers: linx-as, linx-objdump, linx-optest',
     ['tools/*']),
    ('tests', 'unit, functional, fuzz and benchmark programs',
     ['tests/*']),
]

SOURCE_DIRS = ['util', 'fpu', 'hw', 'tcg', 'target', 'linux-user', 'gdbstub', 'tools', 'tests']
SOURCE_SUFFIXES = ('.c', '.h', '.inc')
# Directories searched for "..." includes after the including file's own
# (meson's include_directories: the root for everything, target/linx for
# the ISA library's users).
INCLUDE_DIRS = ['.', 'target/linx']

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_rank():
    return {name: i for i, (name, _, _) in enumerate(LAYERS)}


def layer_of(path):
    """Layer name of a root-relative '/'-separated path, or None."""
    for p in MACHINE_ASSEMBLY:
        if fnmatch.fnmatchcase(path, p):
            return 'front'
    for name, _, patterns in LAYERS:
        for p in patterns:
            if fnmatch.fnmatchcase(path, p):
                return name
    return None


def module_of(path):
    """foo.c, foo.h, its private header foo-internal.h and foo.c.inc in one
    directory are module 'dir/foo'."""
    d, base = os.path.split(path)
    for suf in ('.c.inc', '.h.inc', '.inc', '.c', '.h'):
        if base.endswith(suf):
            base = base[:-len(suf)]
            break
    if base.endswith('-internal'):
        base = base[:-len('-internal')]
    return d + '/' + base if d else base


def scan(root):
    """Yield root-relative paths of the C sources under SOURCE_DIRS."""
    for top in SOURCE_DIRS:
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
            for f in sorted(filenames):
                if f.endswith(SOURCE_SUFFIXES):
                    yield os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, '/')


def resolve(root, includer, name, known):
    """Root-relative path an include names, or None (system/generated)."""
    cands = [os.path.join(os.path.dirname(includer), name)]
    cands += [os.path.join(d, name) for d in INCLUDE_DIRS]
    for c in cands:
        c = os.path.normpath(c).replace(os.sep, '/')
        if c in known or os.path.isfile(os.path.join(root, c)):
            return c
    # A generated header (tcg/engine-config.h, in the build tree): its path
    # names its directory, so it still has a layer.
    first = name.split('/')[0]
    if first in SOURCE_DIRS:
        return os.path.normpath(name).replace(os.sep, '/')
    return None


class Graph:
    def __init__(self, root):
        self.root = root
        self.files = list(scan(root))
        known = set(self.files)
        # (includer, line, text, target)
        self.edges = []
        for f in self.files:
            with open(os.path.join(root, f), encoding='utf-8', errors='replace') as fh:
                for n, line in enumerate(fh, 1):
                    m = INCLUDE_RE.match(line)
                    if not m:
                        continue
                    tgt = resolve(root, f, m.group(1), known)
                    if tgt is not None:
                        self.edges.append((f, n, m.group(1), tgt))

    def direction_errors(self):
        rank = layer_rank()
        errs = []
        for f, n, text, tgt in self.edges:
            lf, lt = layer_of(f), layer_of(tgt)
            if lf is None:
                errs.append((f, n, text, 'the file is in no layer (add a rule to LAYERS)'))
            elif lt is None:
                errs.append((f, n, text, f'{tgt} is in no layer (add a rule to LAYERS)'))
            elif rank[lt] > rank[lf]:
                below = ', '.join(name for name, _, _ in LAYERS[:rank[lf] + 1])
                errs.append((f, n, text,
                             f'{lf} may not include {lt} ({f} is {lf}: it may include {below})'))
        return errs

    def module_edges(self):
        """{(modA, modB): [(file, line, text), ...]} for A != B."""
        me = {}
        for f, n, text, tgt in self.edges:
            a, b = module_of(f), module_of(tgt)
            if a != b:
                me.setdefault((a, b), []).append((f, n, text))
        return me

    def cycles(self):
        """Strongly connected components of more than one module, each as
        a cycle path [m0, m1, ..., m0] through it."""
        me = self.module_edges()
        succ = {}
        for a, b in me:
            succ.setdefault(a, set()).add(b)
            succ.setdefault(b, set())
        # Tarjan, iterative.
        index, low, onstack, stack, sccs = {}, {}, set(), [], []
        counter = [0]
        for start in sorted(succ):
            if start in index:
                continue
            work = [(start, iter(sorted(succ[start])))]
            index[start] = low[start] = counter[0]
            counter[0] += 1
            stack.append(start)
            onstack.add(start)
            while work:
                v, it = work[-1]
                nxt = next(it, None)
                if nxt is not None:
                    if nxt not in index:
                        index[nxt] = low[nxt] = counter[0]
                        counter[0] += 1
                        stack.append(nxt)
                        onstack.add(nxt)
                        work.append((nxt, iter(sorted(succ[nxt]))))
                    elif nxt in onstack:
                        low[v] = min(low[v], index[nxt])
                    continue
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        onstack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        sccs.append(sorted(comp))
        result = []
        for comp in sorted(sccs):
            cs = set(comp)
            # Shortest cycle through the component's first module (BFS).
            s = comp[0]
            prev = {s: None}
            queue = [s]
            found = None
            while queue and found is None:
                nq = []
                for v in queue:
                    for w in sorted(succ[v]):
                        if w not in cs:
                            continue
                        if w == s:
                            found = v
                            break
                        if w not in prev:
                            prev[w] = v
                            nq.append(w)
                    if found is not None:
                        break
                queue = nq
            path = [s]
            v = found
            while v is not None and v != s:
                path.append(v)
                v = prev[v]
            path = [s] + list(reversed(path[1:])) + [s]
            result.append((comp, path, [me[(path[i], path[i + 1])][0]
                                        for i in range(len(path) - 1)]))
        return result

    def write_dir_dot(self, out):
        """The directory graph (one node per source directory, clustered by
        layer, lowest layer at the bottom; an edge where some file of one
        directory includes a file of another).  An include that points up
        the layers is a red edge.  Deterministic: docs/images/layers.dot is
        this output, checked by the 'architecture-graph' test."""
        rank = layer_rank()

        def node(f):
            # The virt machine's assembly, in hw/linx/ but a front end, is
            # a node of its own.
            for p in MACHINE_ASSEMBLY:
                if fnmatch.fnmatchcase(f, p):
                    return p
            return os.path.dirname(f)

        dirs = {}
        for f in self.files:
            lay = layer_of(f)
            if lay in (None, 'tests'):
                continue
            dirs.setdefault(node(f), set()).add(lay)
        edges = {}
        for f, _, _, tgt in self.edges:
            a, b = node(f), node(tgt)
            la, lb = layer_of(f), layer_of(tgt)
            if a == b or la in (None, 'tests') or lb is None or a not in dirs or b not in dirs:
                continue
            up = rank[lb] > rank[la]
            edges[(a, b)] = edges.get((a, b), False) or up
        lines = ['// Generated by scripts/check-layers.py --dot-dirs; do not edit.',
                 '// ninja -C build architecture-graph redraws docs/images/layers.svg.',
                 'digraph layers {', '  rankdir=TB;', '  newrank=true;', '  ranksep=0.9;',
                 '  node [shape=box, style=filled, fillcolor=white, fontsize=11, '
                 'fontname="Helvetica"];',
                 '  edge [arrowsize=0.5, color="#555555"];']
        tops = []
        for i, (name, desc, _) in enumerate(LAYERS):
            if name == 'tests':
                continue
            members = sorted(d for d, lays in dirs.items()
                             if min(lays, key=lambda x: rank[x]) == name)
            if not members:
                continue
            lines.append(f'  subgraph cluster_{name} {{')
            lines.append(f'    label="{name}"; style=filled; fillcolor="#eeeeee"; '
                         f'fontsize=13; fontname="Helvetica-Bold"; labeljust=l;')
            lines.append('    { rank=same; ' + ' '.join(f'"{d}";' for d in members) + ' }')
            lines.append('  }')
            tops.append(members[0])
        # One row per layer, the lowest at the bottom.
        for hi, lo in zip(reversed(tops), list(reversed(tops))[1:]):
            lines.append(f'  "{hi}" -> "{lo}" [style=invis, weight=10];')
        for (a, b), up in sorted(edges.items()):
            attr = ' [color=red, penwidth=1.5, constraint=false]' if up else ''
            lines.append(f'  "{a}" -> "{b}"{attr};')
        lines.append('}')
        out.write('\n'.join(lines) + '\n')

    def write_dot(self, out):
        """The module graph, clustered by layer, for Graphviz."""
        me = self.module_edges()
        mods = {}
        for f in self.files:
            if layer_of(f) == 'tests':
                continue
            mods.setdefault(module_of(f), layer_of(f))
        lines = ['digraph layers {', '  rankdir=BT;', '  newrank=true;',
                 '  node [shape=box, fontsize=9, height=0.2, fontname="Helvetica"];',
                 '  edge [arrowsize=0.4, color="#00000040"];']
        for i, (name, desc, _) in enumerate(LAYERS):
            if name == 'tests':
                continue
            members = sorted(m for m, lay in mods.items() if lay == name)
            lines.append(f'  subgraph cluster_{i} {{')
            lines.append(f'    label="{name}"; style=filled; fillcolor="#f4f4f4"; fontsize=14;')
            for m in members:
                lines.append(f'    "{m}";')
            lines.append('  }')
        for (a, b) in sorted(me):
            if a in mods and b in mods:
                lines.append(f'  "{a}" -> "{b}";')
        lines.append('}')
        out.write('\n'.join(lines) + '\n')


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--root', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'),
                    help='source tree to check (default: this script\'s tree)')
    ap.add_argument('--dot', metavar='FILE', help='write the module graph (Graphviz) to FILE')
    ap.add_argument('--dot-dirs', metavar='FILE',
                    help='write the directory graph (Graphviz; docs/images/layers.dot) to FILE')
    ap.add_argument('--svg', metavar='FILE',
                    help='with --dot-dirs: also draw it with Graphviz into FILE')
    ap.add_argument('--graphviz', metavar='DOT', default='dot',
                    help='the Graphviz dot program for --svg (default: dot)')
    ap.add_argument('--check-dot-dirs', metavar='FILE',
                    help='fail unless FILE is what --dot-dirs writes (the committed graph is current)')
    ap.add_argument('--table', action='store_true', help='print the layer table and exit')
    args = ap.parse_args(argv)

    if args.table:
        for name, desc, patterns in LAYERS:
            print(f'{name:7} {" ".join(patterns)}\n        {desc}')
        return 0

    root = os.path.abspath(args.root)
    g = Graph(root)
    if not g.files:
        print(f'check-layers: no C sources under {root} ({", ".join(SOURCE_DIRS)})',
              file=sys.stderr)
        return 2
    if args.dot:
        with open(args.dot, 'w') as out:
            g.write_dot(out)
    if args.dot_dirs:
        # A drawing, not a check: upward includes are its red edges.
        with open(args.dot_dirs, 'w') as out:
            g.write_dir_dot(out)
        if args.svg:
            import subprocess
            r = subprocess.run([args.graphviz, '-Tsvg', args.dot_dirs, '-o', args.svg])
            if r.returncode != 0:
                print(f'check-layers: {args.graphviz} failed drawing {args.svg}', file=sys.stderr)
                return 1
        return 0
    if args.check_dot_dirs:
        import io
        buf = io.StringIO()
        g.write_dir_dot(buf)
        try:
            with open(args.check_dot_dirs) as fh:
                old = fh.read()
        except OSError as e:
            print(f'check-layers: {args.check_dot_dirs}: {e.strerror}', file=sys.stderr)
            return 1
        if old != buf.getvalue():
            print(f'check-layers: {args.check_dot_dirs} is stale: the directories or their '
                  f'includes changed; run ninja -C build architecture-graph and commit it '
                  f'with docs/images/layers.svg', file=sys.stderr)
            return 1
        # The drawing next to it shows the same nodes and edges (Graphviz
        # titles every node "name" and every edge "tail->head").
        svg = os.path.splitext(args.check_dot_dirs)[0] + '.svg'
        want = set()
        for line in old.splitlines():
            if 'rank=same' in line:
                want |= set(re.findall(r'"([^"]+)";', line))
            m = re.match(r'\s*"([^"]+)" -> "([^"]+)"', line)
            if m and 'style=invis' not in line:  # invisible edges are not drawn
                want.add(f'{m.group(1)}->{m.group(2)}')
        want |= set(re.findall(r'^\s*subgraph (cluster_\w+)', old, re.M)) | {'layers'}
        try:
            with open(svg, encoding='utf-8') as fh:
                have = {html.unescape(t) for t in re.findall(r'<title>([^<]*)</title>', fh.read())}
        except OSError as e:
            print(f'check-layers: {svg}: {e.strerror}', file=sys.stderr)
            return 1
        if have != want:
            print(f'check-layers: {svg} does not draw {args.check_dot_dirs} (missing: '
                  f'{sorted(want - have)}, extra: {sorted(have - want)}); run ninja -C build '
                  f'architecture-graph', file=sys.stderr)
            return 1
        print(f'check-layers: {args.check_dot_dirs} and {svg} are current '
              f'({len(want)} nodes, edges and layers)')
        return 0

    bad = 0
    for f, n, text, why in g.direction_errors():
        bad += 1
        print(f'{f}:{n}: #include "{text}": {why}')
    for comp, path, closing in g.cycles():
        bad += 1
        print(f'include cycle between modules: {" -> ".join(path)}')
        if len(comp) > len(path) - 1:
            print(f'  (one of the cycles among {", ".join(comp)})')
        for f, n, text in closing:
            print(f'  {f}:{n}: #include "{text}"')
    nmods = len({module_of(f) for f in g.files})
    if bad:
        print(f'check-layers: {bad} problem(s) in {len(g.files)} files '
              f'({nmods} modules, {len(g.edges)} includes)')
        return 1
    print(f'check-layers: ok: {len(g.files)} files, {nmods} modules, {len(g.edges)} includes, '
          f'{len(LAYERS)} layers, no upward include, no cycle')
    return 0


if __name__ == '__main__':
    sys.exit(main())
