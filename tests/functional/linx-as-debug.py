#!/usr/bin/env python3
"""linx-as -g and symbol types, read back with binutils' readelf (and LLVM's
DWARF verifier when installed): an independent decoder of what linx-as
wrote.

usage: linx-as-debug.py LINX_AS DEBUGGER_DIR

On tests/functional/debugger/calls.s (+ user-exit.s):
  - symbols: data labels are STT_OBJECT sized by their data (.quad: 8,
    four .words: 16, .asciz "linx debug": 11), global and called code labels
    STT_FUNC sized to the next function, local labels (main_ret) untyped;
  - .debug_line: every instruction line of the sources maps to the address
    the -a listing shows for it, and no other line appears;
  - .debug_frame: for each FENTRY of the source, CFA = sp + S after it and
    the range saved at CFA-8, -16, ... under the RISC-V numbers of the
    registers' ABI names (ra 1, s0 8, s1 9: the RISC-V psABI), or with
    --dwarf-regs=llvm the LinxISA LLVM numbers (ra 10, s0 11, s1 12, sp 1);
  - .debug_info: subprograms and variables by name;
  - without -g no .debug_* section; a bad --dwarf-regs is a usage error.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

LINX_AS, DBG_DIR = map(os.path.abspath, sys.argv[1:3])
failures = []
checks = [0]


def check(what, cond, detail=""):
    checks[0] += 1
    if not cond:
        failures.append(what)
        print("FAIL", what, str(detail)[:3000], file=sys.stderr)


tmp = tempfile.mkdtemp(prefix="linx-as-debug-")
for f in ("calls.s", "user-exit.s"):
    shutil.copy(os.path.join(DBG_DIR, f), tmp)


def assemble(out, *opts):
    p = subprocess.run([LINX_AS, *opts, "-a", "-o", out, "calls.s", "user-exit.s"], cwd=tmp,
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit("linx-as failed: " + p.stderr)
    return p.stdout


def readelf(*args):
    return subprocess.run(["readelf", *args], capture_output=True, text=True,
                          timeout=60).stdout


listing = assemble("g.elf", "-g")
elf = os.path.join(tmp, "g.elf")
# The listing: file, line -> address of the statement; labels.
rows, labels, cur = {}, {}, None
for line in listing.splitlines():
    m = re.match(r"^(\S+\.s):$", line)
    if m:
        cur = m.group(1)
        continue
    m = re.match(r"^\s*(\d+)\s+([0-9a-f]{8})\s+(\S.*)$", line)
    if m:
        n, addr, rest = int(m.group(1)), int(m.group(2), 16), m.group(3)
        lm = re.match(r"^(\w+):\s*$", rest)
        if lm:
            labels[lm.group(1)] = addr
        elif re.match(r"^[0-9a-f]{4}", rest):
            rows[(cur, n)] = addr

# Instruction lines, from the source text alone: not blank, not a comment,
# not a label, not a directive.
insn_lines = set()
for f in ("calls.s", "user-exit.s"):
    for n, text in enumerate(open(os.path.join(tmp, f)), 1):
        t = text.split("#")[0].strip()
        if t and not t.endswith(":") and not t.startswith("."):
            insn_lines.add((f, n))

# ---- symbols
syms = {}
for line in readelf("-sW", elf).splitlines():
    f = line.split()
    if len(f) >= 8 and f[0].endswith(":") and f[0][:-1].isdigit():
        syms[f[7]] = (int(f[1], 16), int(f[2], 0), f[3], f[4])
for name, size in (("counter", 8), ("table", 16), ("msg", len("linx debug") + 1)):
    check("%s is an object of %d bytes" % (name, size),
          syms.get(name, (0, 0, "", ""))[1:3] == (size, "OBJECT"), syms.get(name))
order = sorted(labels[n] for n in ("_start", "main", "middle", "leaf", "exit_program"))
for name, nxt in (("_start", "main"), ("main", "middle"), ("middle", "leaf"),
                  ("leaf", "exit_program")):
    check("%s is a function up to %s" % (name, nxt),
          syms.get(name, (0, 0, "", ""))[1:3] == (labels[nxt] - labels[name], "FUNC"),
          syms.get(name))
check("main and _start are global", syms["main"][3] == "GLOBAL" and syms["_start"][3] == "GLOBAL")
check("a return label is not a function", syms.get("main_ret", (0, 0, ""))[2] == "NOTYPE",
      syms.get("main_ret"))

# ---- .debug_line
decoded = set()
for line in readelf("--debug-dump=decodedline", elf).splitlines():
    m = re.match(r"^(\S+\.s)\s+(\d+)\s+(0x[0-9a-f]+)", line)
    if m:
        decoded.add((m.group(1), int(m.group(2)), int(m.group(3), 16)))
want = {(f, n, rows[(f, n)]) for (f, n) in insn_lines}
check("every instruction line is in the line table at its address", want <= decoded,
      sorted(want - decoded))
check("no other rows", {(f, n) for f, n, _ in decoded} == insn_lines,
      sorted({(f, n) for f, n, _ in decoded} ^ insn_lines))

# ---- .debug_frame
RISCV = {"ra": 1, "sp": 2, "s0": 8, "s1": 9}
LLVM = {"ra": 10, "sp": 1, "s0": 11, "s1": 12}
GPRS = ["zero", "sp"] + ["a%d" % i for i in range(8)] + ["ra"] + ["s%d" % i for i in range(9)]


def fentries():
    """(address after it, S, [registers]) for every FENTRY of calls.s."""
    out = []
    for n, text in enumerate(open(os.path.join(tmp, "calls.s")), 1):
        m = re.match(r"^\s*FENTRY \[(\w+) ~ (\w+)\], sp!, (\d+)", text)
        if m:
            b, e = GPRS.index(m.group(1)), GPRS.index(m.group(2))
            out.append((rows[("calls.s", n)] + 4, int(m.group(3)), GPRS[b:e + 1]))
    return out


def frame_rules(path):
    """{location: text of the CFA instructions from there} per FDE."""
    text = readelf("--debug-dump=frames", path)
    return text, re.findall(r"DW_CFA_advance_loc4: \d+ to ([0-9a-f]+)\n((?:  DW_CFA_(?!advance)"
                            r".*\n)+)", text)


for numbers, opts, tag in ((RISCV, ["-g"], "compat"), (LLVM, ["-g", "--dwarf-regs=llvm"], "llvm")):
    path = os.path.join(tmp, tag + ".elf")
    assemble(tag + ".elf", *opts)
    text, rules = frame_rules(path)
    at = {int(a, 16): r for a, r in rules}
    check(tag + ": CIE: CFA = sp, return address in ra",
          "Return address column: %d" % numbers["ra"] in text and
          "DW_CFA_def_cfa: r%d ofs 0" % numbers["sp"] in text, text[:800])
    fe = fentries()
    check("calls.s has two FENTRY frames", len(fe) == 2, fe)
    for addr, size, regs in fe:
        r = at.get(addr, "")
        ok = "DW_CFA_def_cfa_offset: %d" % size in r
        for k, reg in enumerate(regs):
            ok = ok and ("DW_CFA_offset: r%d at cfa-%d" % (numbers[reg], 8 * (k + 1)) in r)
        check("%s: CFI after the FENTRY at 0x%x" % (tag, addr - 4), ok, (r, rules))
    check(tag + ": _start is the outermost frame", "DW_CFA_undefined: r%d" % numbers["ra"] in text,
          text[:1500])

# ---- .debug_info
info = readelf("--debug-dump=info", elf)
for name in ("_start", "main", "middle", "leaf", "exit_program"):
    m = re.search(r"\(DW_TAG_subprogram\)\n.*DW_AT_name\s*: %s\n.*DW_AT_low_pc\s*: (0x[0-9a-f]+)\n"
                  r".*DW_AT_high_pc\s*: (0x[0-9a-f]+)" % name, info)
    check("subprogram " + name, m and int(m.group(1), 16) == labels[name] and
          int(m.group(2), 16) == syms[name][1], info[:800])
for name in ("counter", "table", "msg"):
    m = re.search(r"\(DW_TAG_variable\)\n.*DW_AT_name\s*: %s\n(?:.*\n){2}.*DW_OP_addr: ([0-9a-f]+)"
                  % name, info)
    check("variable " + name, m and int(m.group(1), 16) == labels[name], info[-1500:])
dwarfdump = shutil.which("llvm-dwarfdump") or "/usr/lib/llvm-14/bin/llvm-dwarfdump"
if os.path.exists(dwarfdump):
    v = subprocess.run([dwarfdump, "--verify", elf], capture_output=True, text=True)
    check("llvm-dwarfdump --verify", v.returncode == 0 and "No errors." in v.stdout, v.stdout)

# ---- without -g, bad options
assemble("plain.elf")
sections = readelf("-SW", os.path.join(tmp, "plain.elf"))
check("no debug sections without -g", ".debug_" not in sections, sections)
check("symbols typed without -g too", re.search(r"\s8 OBJECT\s+LOCAL\s+DEFAULT\s+\d+ counter",
                                                readelf("-sW", os.path.join(tmp, "plain.elf"))))
p = subprocess.run([LINX_AS, "-g", "--dwarf-regs=mips", "-o", "x.elf", "calls.s"], cwd=tmp,
                   capture_output=True, text=True)
check("bad --dwarf-regs", p.returncode == 2 and "--dwarf-regs" in p.stderr, p.stderr)

shutil.rmtree(tmp, ignore_errors=True)
if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("all %d linx-as debug checks passed" % checks[0])
