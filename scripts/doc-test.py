#!/usr/bin/env python3
"""Run the runnable command lines of Markdown documents and check them.

A runnable example is a fenced code block whose info string is `console`:

    ```console
    $ build/linx-as -o hello-linux tests/guest/examples/hello-linux.s
    $ build/linx-user ./hello-linux
    hello
    $ build/linx-system -M virt -kernel missing.o
    linx-system: ...missing.o...
    [exit 1]
    ```

Each `$ ` line is a command (a line ending in a backslash continues it on the
next line); the lines after it, up to the next command, are its expected
output, stdout and stderr together: every line must match in order (runs of
blanks and tabs compare as one space, so listings with tabs can be shown),
`...` alone on a line matches any number of lines, `...` inside a line
matches any text, and a final `[exit N]` gives the exit status (0 when absent).  A command
with no expected lines is checked for its exit status only.  Other code blocks
(`sh`, indented, ...) are not run: use them for sessions that cannot run
unattended (a gdb waiting for a client, a placeholder path).

Every document runs in its own scratch directory, `proj/` next to `shared/`:
`proj/` holds a symbolic link to each top-level entry of the source tree
(`build` pointing at the build directory given), `shared/` points at the
shared directory, so `build/...`, `tests/...` and `../shared/...` resolve as
they do from the project root, and files the commands write stay in the
scratch directory.  The blocks of a document share it, in order.  A command
naming `../shared` is skipped (with the reason) when the shared directory is
absent.

Exit status: 0 when every command passed, 1 when one failed, 2 when the
documents held no runnable command at all (nothing to test is no pass) or
could not be read.  The last line reads "N passed, N failed, N skipped".
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r'^(\s*)(`{3,}|~{3,})\s*([^\s`]*)')
EXIT = re.compile(r'^\[exit (\d+)\]$')


class Command:
    def __init__(self, path, line, text):
        self.path = path
        self.line = line
        self.text = text
        self.expected = []
        self.status = 0


def parse(path, text):
    """The runnable commands of one document, in order."""
    cmds = []
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3)
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        if info != 'console':
            continue
        start = i - len(body)  # 1-based line number of the first body line
        cur = None
        j = 0
        while j < len(body):
            ln = body[j]
            if ln.startswith('$ '):
                cmd = ln[2:]
                first = start + j
                while cmd.endswith('\\') and j + 1 < len(body):
                    j += 1
                    cmd = cmd + '\n' + body[j]
                cur = Command(path, first, cmd)
                cmds.append(cur)
            elif cur is None:
                if ln.strip():
                    raise ValueError('%s:%d: output line before any "$ " command in a console '
                                     'block' % (path, start + j))
            else:
                e = EXIT.match(ln.strip())
                if e:
                    cur.status = int(e.group(1))
                else:
                    cur.expected.append(ln.rstrip())
            j += 1
        for c in cmds:
            while c.expected and c.expected[-1] == '':
                c.expected.pop()
    return cmds


def squeeze(line):
    return ' '.join(line.split())


def line_matches(pattern, line):
    pattern, line = squeeze(pattern), squeeze(line)
    if '...' not in pattern:
        return pattern == line
    rx = '.*'.join(re.escape(p) for p in pattern.split('...'))
    return re.fullmatch(rx, line) is not None


def output_matches(expected, got):
    """Match expected lines against output lines; '...' lines skip any."""
    def match(e, g):
        if e == len(expected):
            return g == len(got)
        if expected[e] == '...':
            return any(match(e + 1, k) for k in range(g, len(got) + 1))
        return g < len(got) and line_matches(expected[e], got[g]) and match(e + 1, g + 1)
    return match(0, 0)


def make_scratch(root, build, shared):
    top = tempfile.mkdtemp(prefix='linx-doctest-')
    proj = os.path.join(top, 'proj')
    os.mkdir(proj)
    for name in os.listdir(root):
        if name in ('.git', 'build'):
            continue
        os.symlink(os.path.join(root, name), os.path.join(proj, name))
    os.symlink(build, os.path.join(proj, 'build'))
    if shared and os.path.isdir(shared):
        os.symlink(shared, os.path.join(top, 'shared'))
    return top, proj


def run_doc(path, cmds, args, counts):
    top, proj = make_scratch(args.root, args.build, args.shared)
    try:
        for c in cmds:
            where = '%s:%d' % (os.path.relpath(c.path, args.root), c.line)
            shown = c.text.replace('\n', ' ')
            if '../shared' in c.text and not os.path.isdir(os.path.join(top, 'shared')):
                print('skip %s $ %s  (../shared is absent)' % (where, shown))
                counts['skipped'] += 1
                continue
            env = dict(os.environ)
            env.pop('LINX_COMMIT_TRACE', None)
            try:
                r = subprocess.run(['bash', '-o', 'pipefail', '-c', c.text], cwd=proj, env=env,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                print('FAIL %s $ %s\n  ran longer than %g s' % (where, shown, args.timeout))
                counts['failed'] += 1
                continue
            out = r.stdout.decode(errors='replace').replace(proj + '/', '')
            got = [ln.rstrip() for ln in out.split('\n')]
            while got and got[-1] == '':
                got.pop()
            problems = []
            if r.returncode != c.status:
                problems.append('exit status %d, the document says %d' % (r.returncode, c.status))
            if c.expected and not output_matches(c.expected, got):
                problems.append('output differs from the document')
            if problems:
                print('FAIL %s $ %s' % (where, shown))
                for p in problems:
                    print('  ' + p)
                if c.expected:
                    print('  --- the document shows ---')
                    for ln in c.expected:
                        print('  ' + ln)
                print('  --- the command printed ---')
                for ln in got[:60]:
                    print('  ' + ln)
                if len(got) > 60:
                    print('  ... (%d lines more)' % (len(got) - 60))
                counts['failed'] += 1
            else:
                print('ok   %s $ %s' % (where, shown))
                counts['passed'] += 1
    finally:
        if args.keep:
            print('scratch directory kept: %s' % top)
        else:
            shutil.rmtree(top, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('docs', nargs='*', help='Markdown files (default: README.md docs/*.md)')
    ap.add_argument('--root', default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    help='the source tree (default: this script\'s project)')
    ap.add_argument('--build', help='the build directory (default: ROOT/build)')
    ap.add_argument('--shared', help='the shared directory (default: ROOT/../shared)')
    ap.add_argument('--timeout', type=float, default=120, help='seconds per command')
    ap.add_argument('--list', action='store_true', help='list the runnable commands, run nothing')
    ap.add_argument('--keep', action='store_true', help='keep the scratch directories')
    args = ap.parse_args()
    args.root = os.path.abspath(args.root)
    args.build = os.path.abspath(args.build or os.path.join(args.root, 'build'))
    args.shared = os.path.abspath(args.shared or os.path.join(args.root, '..', 'shared'))
    docs = args.docs
    if not docs:
        docs = [os.path.join(args.root, 'README.md')]
        ddir = os.path.join(args.root, 'docs')
        if os.path.isdir(ddir):
            docs += sorted(os.path.join(ddir, f) for f in os.listdir(ddir) if f.endswith('.md'))
    counts = {'passed': 0, 'failed': 0, 'skipped': 0}
    total = 0
    parsed = []
    for d in docs:
        try:
            with open(d, encoding='utf-8') as f:
                cmds = parse(d, f.read())
        except (OSError, ValueError) as e:
            print('doc-test: %s' % e, file=sys.stderr)
            return 2
        total += len(cmds)
        parsed.append((d, cmds))
    if total == 0:
        print('doc-test: no runnable command (a ```console block) in %s: nothing was tested'
              % ', '.join(docs), file=sys.stderr)
        return 2
    for d, cmds in parsed:
        if args.list:
            for c in cmds:
                print('%s:%d $ %s' % (d, c.line, c.text.replace('\n', ' ')))
            continue
        if cmds:
            run_doc(d, cmds, args, counts)
    if args.list:
        return 0
    print('%d passed, %d failed, %d skipped' % (counts['passed'], counts['failed'],
                                               counts['skipped']))
    return 1 if counts['failed'] else 0


if __name__ == '__main__':
    sys.exit(main())
