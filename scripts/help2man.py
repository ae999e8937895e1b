#!/usr/bin/env python3
"""Make a man page (troff, man(7) macros) from a tool's --help text.

    help2man.py TOOL --name "one-line description" [--section 1] [--see-also a,b]
                [--help-option --help] [--version-option --version] -o FILE

The --help text's shape is the one util/options.c generates (and the tools
that predate it follow): "usage: ..." lines become the SYNOPSIS, the
paragraph after them the DESCRIPTION, a line ending in ':' at the left
margin a section of its own ("Options:" -> OPTIONS), and an indented line
starting with '-' (or a NAME in an environment table) an entry whose text
runs on in the deeper-indented lines after it.  A tool that does not answer
--help with exit status 0 and some text is an error: no empty man page.
"""
import argparse
import datetime
import os
import re
import subprocess
import sys

ENTRY = re.compile(r'^(\s{1,8})(-\S.*?|[A-Z][A-Z0-9_]{2,}(?:=\S*)?)(?:\s{2,}(.*))?$')


def esc(s):
    """Escape text for troff."""
    s = s.replace('\\', '\\e')
    s = re.sub(r'^([.\'])', r'\\&\1', s)
    return s.replace('-', '\\-')


def run(tool, opt):
    r = subprocess.run([tool, opt], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=60)
    return r.returncode, r.stdout.decode(errors='replace')


def convert(name, summary, section, help_text, version, see_also):
    out = []
    date = datetime.datetime.utcfromtimestamp(
        int(os.environ.get('SOURCE_DATE_EPOCH', '0')) or
        int(datetime.datetime.utcnow().timestamp())).strftime('%Y-%m-%d')
    out.append('.TH %s %s "%s" "%s" "User Commands"' % (name.upper(), section, date,
                                                       esc(version)))
    out.append('.SH NAME')
    out.append('%s \\- %s' % (esc(name), esc(summary)))
    lines = help_text.rstrip('\n').split('\n')
    i = 0
    synopsis = []
    while i < len(lines) and (lines[i].lower().startswith('usage:') or
                              (synopsis and lines[i].startswith(' ') and lines[i].strip())):
        synopsis.append(re.sub(r'^usage:\s*', '', lines[i], flags=re.I).strip())
        i += 1
    if synopsis:
        out.append('.SH SYNOPSIS')
        for k, s in enumerate(synopsis):
            if k:
                out.append('.br')
            tool, _, rest = s.partition(' ')
            out.append('.B %s' % esc(tool))
            if rest:
                out.append(esc(rest))
    section_open = False
    in_entry = False
    para = []

    def flush_para():
        if para:
            out.append('.PP')
            out.append(esc(' '.join(p.strip() for p in para)))
            para.clear()

    for ln in lines[i:]:
        if not ln.strip():
            flush_para()
            in_entry = False
            continue
        if not ln.startswith(' ') and ln.rstrip().endswith(':') and len(ln) < 60:
            flush_para()
            title = ln.rstrip()[:-1].strip()
            title = re.sub(r'\s*\(.*$', '', title)
            out.append('.SH %s' % esc(title.upper()))
            section_open = True
            in_entry = False
            continue
        if not section_open:
            out.append('.SH DESCRIPTION')
            section_open = True
        m = ENTRY.match(ln)
        if m and not (in_entry and len(m.group(1)) > 6 and m.group(3) is None and
                      not m.group(2).startswith('-')):
            flush_para()
            out.append('.TP')
            out.append('.B %s' % esc(m.group(2).strip()))
            if m.group(3):
                out.append(esc(m.group(3).strip()))
            in_entry = True
            continue
        if in_entry:
            out.append(esc(ln.strip()))
            continue
        para.append(ln)
    flush_para()
    if see_also:
        out.append('.SH SEE ALSO')
        out.append(', '.join('\\fB%s\\fR(1)' % esc(s) for s in see_also))
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description='Make a man page from a tool\'s --help text.')
    ap.add_argument('tool')
    ap.add_argument('--name', required=True, help='one-line description for NAME')
    ap.add_argument('--section', default='1')
    ap.add_argument('--see-also', default='')
    ap.add_argument('--help-option', default='--help')
    ap.add_argument('--version-option', default='--version')
    ap.add_argument('-o', '--output', required=True)
    args = ap.parse_args()
    prog = os.path.basename(args.tool)
    rc, text = run(args.tool, args.help_option)
    if rc != 0 or not text.strip():
        print('help2man: %s %s exited %d with %d bytes of text: no man page'
              % (args.tool, args.help_option, rc, len(text)), file=sys.stderr)
        return 1
    vrc, vtext = run(args.tool, args.version_option)
    version = vtext.strip().split('\n')[0] if vrc == 0 and vtext.strip() else 'linxemu'
    see = [s for s in args.see_also.split(',') if s and s != prog]
    page = convert(prog, args.name, args.section, text, version, see)
    with open(args.output, 'w') as f:
        f.write(page)
    return 0


if __name__ == '__main__':
    sys.exit(main())
