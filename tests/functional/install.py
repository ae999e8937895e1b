#!/usr/bin/env python3
"""`meson install --destdir` gives the tree a user puts on PATH: the five
programs in <prefix>/bin, each answering --version from there; a man page
per program that man(1) formats with its options; the gdb target
descriptions; the documents.  The build tree has the same five programs at
build/<name>.

    install.py BUILD_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

PROGRAMS = {
    # name: (version option, text its --help names)
    'linx-as': ('--version', '--output=FILE'),
    'linx-objdump': ('--version', '--disassemble'),
    'linx-user': ('-version', '-strace'),
    'linx-system': ('-version', '-kernel'),
    'linx-optest': ('--version', '--jobs'),
}

failures = []


def check(cond, what):
    print(('ok: ' if cond else 'FAIL: ') + what)
    if not cond:
        failures.append(what)


def main():
    build = os.path.abspath(sys.argv[1])
    for name in PROGRAMS:
        p = os.path.join(build, name)
        check(os.path.isfile(p) and os.access(p, os.X_OK), 'build/%s is a program' % name)

    opts = json.loads(subprocess.run(['meson', 'introspect', '--buildoptions', build],
                                     capture_output=True, text=True, check=True).stdout)
    opt = {o['name']: o['value'] for o in opts}
    prefix, bindir, mandir, datadir = opt['prefix'], opt['bindir'], opt['mandir'], opt['datadir']

    dest = tempfile.mkdtemp(prefix='linx-install-')
    try:
        r = subprocess.run(['meson', 'install', '-C', build, '--no-rebuild', '--quiet',
                            '--destdir', dest], capture_output=True, text=True, timeout=300)
        check(r.returncode == 0, 'meson install --destdir exits 0: %s' % r.stderr[-500:])

        def at(d, *rest):
            # meson's directories are relative to the prefix unless absolute
            return os.path.join(dest + os.path.join(prefix, d), *rest)

        env = dict(os.environ, PATH=at(bindir) + ':' + os.environ.get('PATH', ''))
        for name, (vopt, helpword) in PROGRAMS.items():
            exe = at(bindir, name)
            check(os.access(exe, os.X_OK), '%s installed in %s' % (name, bindir))
            v = subprocess.run([name, vopt], capture_output=True, text=True, env=env, timeout=30)
            check(v.returncode == 0 and v.stdout.startswith(name + ' (linxemu) '),
                  '%s %s from PATH: %r' % (name, vopt, v.stdout[:80]))
            page = at(mandir, 'man1', name + '.1')
            check(os.path.isfile(page), 'man page %s.1 installed' % name)
            check(shutil.which('man') is not None, 'man(1) is installed (configure installs man-db)')
            if os.path.isfile(page) and shutil.which('man'):
                m = subprocess.run(['man', '-l', page], capture_output=True, text=True,
                                   env=dict(env, MANWIDTH='100'),
                                   timeout=30)
                text = m.stdout
                check(m.returncode == 0 and 'NAME' in text and 'SYNOPSIS' in text and
                      helpword in text,
                      'man -l %s.1 formats NAME, SYNOPSIS and the option %s' % (name, helpword))
        xml = at(datadir, 'linxemu', 'gdb-xml', 'target.xml')
        check(os.path.isfile(xml) and '<target' in open(xml).read(),
              'gdb target description installed (%s)' % xml)
        doc = at(datadir, 'doc', 'linxemu')
        for d in ('README.md', 'gdbstub.md', 'decisions.md', 'linux-user.md'):
            check(os.path.isfile(os.path.join(doc, d)), 'document %s installed' % d)
    finally:
        shutil.rmtree(dest, ignore_errors=True)
    if failures:
        print('%d check(s) failed' % len(failures))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
