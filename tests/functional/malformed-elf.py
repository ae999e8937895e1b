#!/usr/bin/env python3
"""Malformed ELF files given to linx-user and linx-system: each must be
refused with a clear message (naming the file and the rule it breaks) and
exit status 1 - never a crash, a hang or a sanitizer report (the test runs
the sanitizer build too).

The files are made here, by mutating good programs that linx-as built (no
binaries are committed):

    malformed-elf.py LINX_USER LINX_SYSTEM GOOD_USER_ELF GOOD_VIRT_ELF GOOD_VIRT_REL

GOOD_USER_ELF must have three PT_LOADs (text, read-only data, data+bss),
as linx-as lays out a program with .text, .rodata and .data/.bss.
"""
import os
import struct
import subprocess
import sys
import tempfile

EHDR = 64
PHDR = 56
SHDR = 64
PT_LOAD, PT_DYNAMIC, PT_INTERP, PT_NOTE = 1, 2, 3, 4
SHT_RELA = 4

failures = []


def u16(b, off, v):
    b[off:off + 2] = struct.pack('<H', v)


def u32(b, off, v):
    b[off:off + 4] = struct.pack('<I', v)


def u64(b, off, v):
    b[off:off + 8] = struct.pack('<Q', v & 0xffffffffffffffff)


def r64(b, off):
    return struct.unpack_from('<Q', b, off)[0]


def phdr(b, i):
    return r64(b, 32) + i * PHDR


def loads(b):
    n = struct.unpack_from('<H', b, 56)[0]
    return [i for i in range(n) if struct.unpack_from('<I', b, phdr(b, i))[0] == PT_LOAD]


# ---- mutations of the good ET_EXEC (linux-user) ----

def set_type(t):
    return lambda b: u16(b, 16, t)


def seg(k, field_off, value):
    """Set a field of the k-th PT_LOAD."""
    def f(b):
        u64(b, phdr(b, loads(b)[k]) + field_off, value(b) if callable(value) else value)
    return f


def truncate(n):
    return lambda b: b.__delitem__(slice(n, None))


def make_dynamic(b):
    """The rodata segment becomes PT_INTERP, the data segment PT_DYNAMIC."""
    text, rodata, data = loads(b)
    u32(b, phdr(b, rodata), PT_INTERP)
    u32(b, phdr(b, data), PT_DYNAMIC)


def user_cases():
    size = lambda b: len(b)
    return [
        ('truncated header', truncate(20), 'truncated ELF header'),
        ('empty file', truncate(0), 'truncated ELF header'),
        ('bad magic', lambda b: b.__setitem__(1, ord('X')), 'not an ELF file'),
        ('wrong class', lambda b: b.__setitem__(4, 1), 'wrong ELF class 1'),
        ('big-endian', lambda b: b.__setitem__(5, 2), 'wrong data encoding'),
        ('wrong machine', lambda b: u16(b, 18, 62), 'wrong machine 62 (x86-64)'),
        ('relocatable object', set_type(1), 'relocatable object (ET_REL)'),
        ('core file', set_type(4), 'ELF type 4 is not an executable'),
        ('program header size', lambda b: u16(b, 54, 40), 'bad program header size 40'),
        ('program headers past the end', lambda b: u16(b, 56, 2000),
         'program headers (2000 at offset 0x40) extend past end of file'),
        ('segment past the end of the file', seg(0, 32, lambda b: len(b)),
         'extends past end of file'),
        ('filesz > memsz', seg(2, 40, 4), 'larger than memory size'),
        ('overlapping segments', seg(1, 16, 0x10100), 'overlap'),
        ('huge memsz', seg(2, 40, 1 << 50), 'is too large'),
        ('address wraps', lambda b: (seg(2, 16, (1 << 64) - 0x1000)(b), seg(2, 40, 0x3000)(b)),
         'wraps around'),
        ('image in page zero', seg(0, 16, 0), 'below the lowest user address'),
        ('entry outside code', lambda b: u64(b, 24, 0x11000),
         'entry point 0x11000 is not inside an executable segment'),
        ('alignment not a power of two', seg(2, 48, 0x1001), 'not a power of two'),
        ('no PT_LOAD', lambda b: [u32(b, phdr(b, i), PT_NOTE) for i in loads(b)],
         'no loadable segment'),
        ('dynamic program', make_dynamic, 'dynamic linking not supported'),
    ]


# ---- mutations for linx-system ----

def section_headers(b):
    shoff = r64(b, 40)
    n = struct.unpack_from('<H', b, 60)[0]
    stridx = struct.unpack_from('<H', b, 62)[0]
    strtab = r64(b, shoff + stridx * SHDR + 24)
    out = []
    for i in range(n):
        off = shoff + i * SHDR
        name_off = struct.unpack_from('<I', b, off)[0]
        end = b.index(0, strtab + name_off)
        out.append((i, off, bytes(b[strtab + name_off:end]).decode()))
    return out


def rel_add_relocations(b):
    """Turn .strtab's header into a RELA section against .text."""
    text = [i for i, _, n in section_headers(b) if n == '.text'][0]
    for i, off, name in section_headers(b):
        if name == '.strtab':
            u32(b, off + 4, SHT_RELA)
            u32(b, off + 44, text)


def rel_rename_text(b):
    for i, off, name in section_headers(b):
        if name == '.text':
            name_off = struct.unpack_from('<I', b, off)[0]
            strtab = r64(b, r64(b, 40) + struct.unpack_from('<H', b, 62)[0] * SHDR + 24)
            b[strtab + name_off + 4] = ord('X')


def system_exec_cases():
    return [
        ('truncated header', truncate(30), 'truncated ELF header'),
        ('wrong machine', lambda b: u16(b, 18, 183), 'wrong machine 183'),
        ('core file', set_type(4), 'ELF type 4 cannot be loaded'),
        ('segment beyond RAM', seg(0, 16, 0x7ffff000), 'is not inside RAM'),
        ('segment over the UART', seg(0, 16, 0x10000000), 'is not inside RAM'),
        ('entry outside code', lambda b: u64(b, 24, 0x20000),
         'entry point 0x20000 is not inside an executable segment'),
        ('section headers past the end', lambda b: u64(b, 40, len(b) + 100),
         'section headers'),
    ]


def system_rel_cases():
    return [
        ('relocations', rel_add_relocations, 'does not link; link it first'),
        ('no .text', rel_rename_text, 'no allocated, executable .text section'),
        ('symbol table links to a bad section',
         lambda b: [u32(b, off + 40, 999) for i, off, n in section_headers(b) if n == '.symtab'],
         'symbol table links to bad section 999'),
    ]


def check(tool, name, path, expect, extra=()):
    try:
        p = subprocess.run([tool] + list(extra) + [path], capture_output=True, text=True,
                           timeout=60)
    except subprocess.TimeoutExpired:
        failures.append('%s: %s: hangs' % (os.path.basename(tool), name))
        print('FAIL: %s: %s: hangs' % (os.path.basename(tool), name))
        return
    problems = []
    if p.returncode != 1:
        problems.append('exit status %d, expected 1' % p.returncode)
    if expect not in p.stderr:
        problems.append('message lacks %r' % expect)
    if path not in p.stderr:
        problems.append('message does not name the file')
    for bad in ('AddressSanitizer', 'runtime error', 'LeakSanitizer', 'Segmentation'):
        if bad in p.stderr:
            problems.append('sanitizer/crash report: %s' % bad)
    tag = '%s: %s' % (os.path.basename(tool), name)
    if problems:
        failures.append(tag)
        print('FAIL: %s: %s\n  stderr: %s' % (tag, '; '.join(problems), p.stderr.strip()))
    else:
        print('ok: %s: %s' % (tag, p.stderr.strip().splitlines()[0]))


def mutate_all(tool, good, cases, tmp, extra=()):
    with open(good, 'rb') as f:
        data = f.read()
    for name, mutate, expect in cases:
        b = bytearray(data)
        mutate(b)
        path = os.path.join(tmp, name.replace(' ', '-'))
        with open(path, 'wb') as f:
            f.write(b)
        check(tool, name, path, expect, extra)


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    user, system, good_user, good_virt, good_rel = sys.argv[1:]
    with open(good_user, 'rb') as f:
        if len(loads(bytearray(f.read()))) != 3:
            sys.exit('%s: expected three PT_LOAD segments' % good_user)
    with tempfile.TemporaryDirectory(prefix='linx-malformed-') as tmp:
        mutate_all(user, good_user, user_cases(), tmp)
        check(user, 'a directory', tmp, 'not a regular file')
        missing = os.path.join(tmp, 'missing')
        check(user, 'no such file', missing, 'No such file or directory')
        sys_tmp = os.path.join(tmp, 'system')
        os.mkdir(sys_tmp)
        kernel = ['-M', 'virt', '-kernel']
        mutate_all(system, good_virt, system_exec_cases(), sys_tmp, kernel)
        rel_tmp = os.path.join(tmp, 'rel')
        os.mkdir(rel_tmp)
        mutate_all(system, good_rel, system_rel_cases(), rel_tmp, kernel)
    if failures:
        print('%d failure(s)' % len(failures))
        return 1
    print('ok: %d malformed files refused' % (len(user_cases()) + len(system_exec_cases()) +
                                             len(system_rel_cases()) + 2))
    return 0


if __name__ == '__main__':
    sys.exit(main())
