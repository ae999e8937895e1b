#!/usr/bin/env python3
"""linx-objdump command line: hex and ELF disassembly, -M legacy, errors.

usage: linx-objdump-cli.py LINX_OBJDUMP SHARED_DIR

Checks exact output lines for hex words, the ELF listing format on the
shared binaries (skipped when ../shared is absent), exit codes and the
error messages for bad files, options and words.  Exits non-zero naming the
first failed check.
"""
import os
import re
import subprocess
import sys
import tempfile

objdump, shared = sys.argv[1], sys.argv[2]
failures = []


def run(*args):
    p = subprocess.run([objdump, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check(what, cond, detail=""):
    if not cond:
        failures.append("%s %s" % (what, detail))


# Hex words, exact lines (address, bytes column, text).
rc, out, err = run("--hex", "0800 02001181 0129127f 01f92109", "--start-address", "0x11766")
check("hex rc", rc == 0, err)
lines = out.splitlines()
check("hex lines", lines == [
    "   11766: 0800         \tC.BSTART.STD\t",
    "   11768: 02001181     \tBSTART.MPAR\tVS16",
    "   1176c: 0129127f 01f92109    \tv.lw\t[tc, lc0<<2, zero.sd], \t->vm.w",
], repr(lines))

rc, out, err = run("-M", "legacy", "--hex", "02001181 22109181 30007493")
check("legacy rc", rc == 0, err)
check("legacy text", [l.split("\t", 1)[1] for l in out.splitlines()] == [
    "BSTART.VPAR\tVCALL", "BSTART.TMA\tTLOAD, FP16", "B.IOTI\t[], last\t->t<4KB>"], out)

# A hex file with comments; a truncated last instruction.
with tempfile.NamedTemporaryFile("w", suffix=".hex", delete=False) as f:
    f.write("# comment\n0800  # C.BSTART.STD\n000e\n")
    hexfile = f.name
rc, out, err = run("--hex-file", hexfile)
os.unlink(hexfile)
check("hex-file rc", rc == 0, err)
check("hex-file truncated", out.splitlines()[-1].endswith("<truncated>"), out)

# Errors.
rc, out, err = run("--hex", "0800 zz")
check("bad word", rc == 1 and "bad word 'zz'" in err, err)
rc, out, err = run("-d", "/nonexistent/file.elf")
check("missing file", rc == 1 and "/nonexistent/file.elf" in err, err)
rc, out, err = run("-d", objdump)  # an x86-64 ELF, not LinxISA
check("wrong machine", rc == 1 and "not a LinxISA file" in err, err)
rc, out, err = run("-M", "fancy", "--hex", "0800")
check("bad -M", rc == 2 and "unknown disassembler option 'fancy'" in err, err)
rc, out, err = run("--bogus")
check("bad option", rc == 2 and "unknown option '--bogus'" in err, err)
rc, out, err = run()
check("no arguments", rc == 2 and "usage:" in err, err)
rc, out, err = run("-h")
check("help", rc == 0 and "--hex" in out, out)

# ELF files from ../shared.
exe = os.path.join(shared, "guest", "linux-user", "02_algorithms.static")
rel = os.path.join(shared, "guest", "baremetal", "model_tile_descriptor_legality.elf")
if os.path.exists(exe):
    rc, out, err = run("-d", exe)
    check("exec rc", rc == 0, err)
    lines = out.splitlines()
    check("file format line", lines[1] == "%s:\tfile format elf64-linxisa" % exe, lines[1])
    check("section line", "Disassembly of section .text:" in lines, "")
    check("_start label", "0000000000011240 <_start>:" in lines, "")
    insns = [l for l in lines if re.match(r"^ +[0-9a-f]+: ", l)]
    check("instruction count", len(insns) == 1930, str(len(insns)))
    check("no undecodable words", not any(".insn" in l for l in insns), "")
    check("call annotation", any("HL.BSTART.STD\tCALL, 0x1125a <_start_c>" in l for l in insns), "")
else:
    print("SKIP: %s not found" % exe)
if os.path.exists(rel):
    rc, out, err = run("-d", rel)
    check("rel rc", rc == 0, err)
    check("rel label", "0000000000000000 <_start>:" in out.splitlines(), out[:400])
    check("rel body label", "B.TEXT\t0x20 <__linx_tile_empty_body>" in out, out[:800])

if failures:
    for f in failures:
        print("FAIL:", f)
    sys.exit(1)
print("linx-objdump-cli: all checks passed")
