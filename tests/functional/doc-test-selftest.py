#!/usr/bin/env python3
"""scripts/doc-test.py checks what it claims: passing and failing commands,
exit statuses, '...' wildcards, continuation lines, the shared skip, the
scratch directory, and no green when a document holds nothing to run.

    doc-test-selftest.py SCRIPT
"""
import os
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL: ' + what)
    else:
        print('ok: ' + what)


def run(script, root, doc_text, *extra):
    path = os.path.join(root, 'doc.md')
    with open(path, 'w') as f:
        f.write(doc_text)
    r = subprocess.run([sys.executable, script, '--root', root, '--build', os.path.join(root, 'b'),
                        '--shared', os.path.join(root, 'no-shared')] + list(extra) + [path],
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


def main():
    script = sys.argv[1]
    with tempfile.TemporaryDirectory() as root:
        os.mkdir(os.path.join(root, 'b'))
        with open(os.path.join(root, 'b', 'tool'), 'w') as f:
            f.write('#!/bin/sh\necho "tool: $*"\n')
        os.chmod(os.path.join(root, 'b', 'tool'), 0o755)
        os.mkdir(os.path.join(root, 'data'))
        with open(os.path.join(root, 'data', 'x.txt'), 'w') as f:
            f.write('seven\n')

        rc, out = run(script, root, '```console\n'
                      '$ build/tool a b\ntool: a b\n'
                      '$ cat data/x.txt\nseven\n'
                      '$ echo made > new.txt && cat new.txt\nmade\n'
                      '$ printf "1\\n2\\n3\\n4\\n" \\\n  | tail -n 3\n2\n...\n4\n'
                      '$ echo "rate 12.5 x" >&2; exit 4\nrate ... x\n[exit 4]\n'
                      '$ true\n'
                      '$ printf "  a\\t\\tb  c\\n"\na b c\n'
                      '```\n\n```sh\n$ false\n```\n\n    $ false\n')
        check(rc == 0 and '7 passed, 0 failed, 0 skipped' in out,
              'seven passing commands (tools via build/, files of the tree, continuation, '
              'wildcards, exit status, blanks and tabs as one space); sh and indented blocks '
              'are not run: %r' % out[-300:])
        check(not os.path.exists(os.path.join(root, 'new.txt')),
              'files the commands write stay out of the source tree')

        rc, out = run(script, root, '```console\n$ echo one\ntwo\n```\n')
        check(rc == 1 and 'output differs' in out and '1 failed' in out,
              'a wrong output line fails')
        rc, out = run(script, root, '```console\n$ echo one\none\nextra\n```\n')
        check(rc == 1 and 'output differs' in out, 'a missing output line fails')
        rc, out = run(script, root, '```console\n$ exit 3\n```\n')
        check(rc == 1 and 'exit status 3, the document says 0' in out,
              'an unexpected exit status fails')
        rc, out = run(script, root, '```console\n$ true\n[exit 1]\n```\n')
        check(rc == 1 and 'exit status 0, the document says 1' in out,
              'a command that should fail and does not fails')
        rc, out = run(script, root, '```console\n$ sleep 5\n```\n', '--timeout', '0.5')
        check(rc == 1 and 'ran longer' in out, 'a command that hangs fails at the timeout')
        rc, out = run(script, root, '```console\n$ ls ../shared/guest\n```\n')
        check(rc == 0 and '0 passed, 0 failed, 1 skipped' in out and 'absent' in out,
              'a command naming ../shared is skipped when it is absent')
        rc, out = run(script, root, '# nothing\n\n```sh\n$ true\n```\n')
        check(rc == 2 and 'nothing was tested' in out, 'a document with nothing to run exits 2')
        rc, out = run(script, root, '```console\nstray output\n$ true\n```\n')
        check(rc == 2 and 'before any' in out, 'output before a command is an error')

    if failures:
        print('%d check(s) failed' % len(failures))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
