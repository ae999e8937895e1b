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
rc, out, err = run("--help")
check("help", rc == 0 and "--hex" in out and "--section-headers" in out, out)
rc, out, err = run("--version")
check("version", rc == 0 and out.startswith("linx-objdump"), out)
rc, out, err = run("--disasembl", "x")
check("misspelt option", rc == 2 and "did you mean '--disassemble'" in err, err)
rc, out, err = run("/some/file")
check("nothing to do", rc == 2 and "nothing to do" in err, err)

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
    # llvm-objdump's other views, against binutils' readelf (an
    # independent reader of the same file).
    def readelf(*args):
        return subprocess.run(["readelf", "-W", *args, exe], capture_output=True, text=True).stdout
    secs = []  # (name, addr, size, flags)
    for m in re.finditer(r"\[\s*(\d+)\]\s+(\S*)\s+\S+\s+([0-9a-f]{16})\s+[0-9a-f]+\s+([0-9a-f]+)"
                         r"\s+[0-9a-f]+\s+([A-Z]*)", readelf("-S")):
        secs.append((m.group(2), int(m.group(3), 16), int(m.group(4), 16), m.group(5)))
    rc, out, err = run("-h", exe)
    check("-h rc", rc == 0, err)
    rows = re.findall(r"^\s*(\d+) (\S+)\s+([0-9a-f]{8}) ([0-9a-f]{16}) ?(.*)$", out, re.M)
    named = [(r[1], int(r[3], 16), int(r[2], 16)) for r in rows]
    check("-h sections", named == [(n, a, z) for n, a, z, f in secs if n], "%r / %r" % (named, secs))
    check("-h types", any(r[1] == ".text" and r[4].strip() == "TEXT" for r in rows) and
          any(r[1] == ".bss" and r[4].strip() == "BSS" for r in rows), out)
    syms = {}
    for m in re.finditer(r"^\s*\d+: ([0-9a-f]{16})\s+(\d+)\s+(\w+)\s+(\w+)\s+\w+\s+\S+\s+(\S+)$",
                         readelf("-s"), re.M):
        syms.setdefault(m.group(5), (int(m.group(1), 16), int(m.group(2)), m.group(3), m.group(4)))
    rc, out, err = run("-t", exe)
    got = {}
    for m in re.finditer(r"^([0-9a-f]{16}) (.{7}) (\S+)\t([0-9a-f]{16}) (\S+)$", out, re.M):
        got.setdefault(m.group(5), (int(m.group(1), 16), int(m.group(4), 16), m.group(2)))
    check("-t count", len(got) > 100 and set(got) == set(syms), "%d / %d" % (len(got), len(syms)))
    check("-t values", all(got[n][:2] == syms[n][:2] for n in got if n in syms), "")
    check("-t main is a global function", got.get("main", ("", "", ""))[2] == "g     F", repr(got.get("main")))
    with open(exe, "rb") as f:
        image = f.read()
    off = [int(m.group(1), 16) for m in re.finditer(r"\]\s+\.rodata\s+\S+\s+[0-9a-f]{16}\s+([0-9a-f]+)", readelf("-S"))]
    rod = [x for x in secs if x[0] == ".rodata"][0]
    rc, out, err = run("-s", "-j", ".rodata", exe)
    dumped = b"".join(bytes.fromhex(l.split(" ", 2)[2][:35].replace(" ", ""))
                      for l in out.splitlines() if re.match(r"^ [0-9a-f]{4,} ", l))
    check("-s -j .rodata", off and dumped[:rod[2]] == image[off[0]:off[0] + rod[2]] and
          "Contents of section .text" not in out, out[:300])
    rc, out, err = run("-d", "--no-show-raw-insn", "--start-address", "0x11240",
                       "--stop-address", "0x11256", exe)
    lines = [l for l in out.splitlines() if re.match(r"^ +[0-9a-f]+:", l)]
    # The entry's first instructions (linxisa-digest section 9): 2, 2, 4, 4,
    # 6, 2, 2 bytes; 0x11256 is the next one, not listed.
    check("--start/--stop-address", [l.split(":")[0].strip() for l in lines] ==
          ["11240", "11242", "11244", "11248", "1124c", "11252", "11254"], repr(lines))
    check("--no-show-raw-insn", lines and lines[0] == "   11240: \tC.BSTART.STD\t", repr(lines[:1]))
    rc, out, err = run("-d", "--no-leading-addr", "--no-show-raw-insn", "--stop-address",
                       "0x11244", exe)
    check("--no-leading-addr", "\tC.BSTART.STD\t" in out.splitlines(), out[-300:])
    rc, out, err = run("--symbolize-operands", "--hex", "0800 0004 0000", "--start-address",
                       "0x1000")
    # C.BSTART COND with offset 0 at 0x1002 branches to itself: labelled.
    check("--symbolize-operands", out.splitlines()[1:3] == [
        "<L0>:", "    1002: 0004         \tC.BSTART\tCOND, 0x1002 <L0>"], repr(out))
    rc, out, err = run("-d", "-j", ".nosuch", exe)
    check("-j missing section", rc == 0 and "not found" in err, err)
    rc, out, err = run("-x", exe)
    check("-x", "Sections:" in out and "SYMBOL TABLE:" in out, "")
else:
    print("SKIP: %s not found" % exe)
if os.path.exists(rel):
    rc, out, err = run("-d", rel)
    check("rel rc", rc == 0, err)
    check("rel label", "0000000000000000 <_start>:" in out.splitlines(), out[:400])
    check("rel body label", "B.TEXT\t0x20 <__linx_tile_empty_body>" in out, out[:800])


def rel_object(text_addr, code, syms):
    """A minimal ELF64 ET_REL for EM 0xE9 written here, independently of
    linx-as: .text at sh_addr @text_addr holding @code, .symtab with the
    (name, offset, STT) of @syms (global), .strtab, .shstrtab."""
    import struct
    strtab = b"\0"
    symtab = b"\0" * 24
    for name, off, stt in syms:
        symtab += struct.pack("<IBBHQQ", len(strtab), (1 << 4) | stt, 0, 1, off, 0)
        strtab += name.encode() + b"\0"
    shstr = b"\0.text\0.symtab\0.strtab\0.shstrtab\0"
    body = code + symtab + strtab + shstr
    o_text = 64
    o_sym = o_text + len(code)
    o_str = o_sym + len(symtab)
    o_shs = o_str + len(strtab)
    o_sh = o_shs + len(shstr)
    sh = b"\0" * 64
    sh += struct.pack("<IIQQQQIIQQ", 1, 1, 6, text_addr, o_text, len(code), 0, 0, 2, 0)
    sh += struct.pack("<IIQQQQIIQQ", 7, 2, 0, 0, o_sym, len(symtab), 3, 1, 8, 24)
    sh += struct.pack("<IIQQQQIIQQ", 15, 3, 0, 0, o_str, len(strtab), 0, 0, 1, 0)
    sh += struct.pack("<IIQQQQIIQQ", 23, 3, 0, 0, o_shs, len(shstr), 0, 0, 1, 0)
    eh = b"\x7fELF\x02\x01\x01" + b"\0" * 9 + struct.pack(
        "<HHIQQQIHHHHHH", 1, 0xE9, 1, 0, 0, o_sh, 0, 64, 0, 0, 64, 5, 4)
    return eh + body + sh


# A relocatable object whose .text has an address (linx-as -r puts it at
# 0x10000): its symbols are offsets in .text, shown at section address +
# offset as llvm-objdump does (the labels were '<.text>' and none before).
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "rel.o")
    with open(path, "wb") as f:
        f.write(rel_object(0x10000, bytes.fromhex("0008" "0008" "0008" "0008"),
                           [("first", 0, 2), ("second", 4, 2)]))
    rc, out, err = run("-d", "-t", path)
    lines = out.splitlines()
    check("rel at 0x10000: -d labels", rc == 0 and "0000000000010000 <first>:" in lines and
          "0000000000010004 <second>:" in lines, out + err)
    check("rel at 0x10000: -t addresses", re.search(r"^0000000000010004 g +F \.text\t0{16} second$",
                                                    out, re.M) is not None, out)

if failures:
    for f in failures:
        print("FAIL:", f)
    sys.exit(1)
print("linx-objdump-cli: all checks passed")
