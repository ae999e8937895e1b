#!/usr/bin/env python3
"""Stock debuggers against the gdb stub (issue 11): Debian's gdb-multiarch 13
and lldb 14, in batch mode, with no client command beyond connecting
(`target remote`, `gdb-remote`) and loading the program's symbols.

usage: test-debuggers.py LINX_AS LINX_USER LINX_SYSTEM DEBUGGER_DIR SHARED_DIR

Programs: DEBUGGER_DIR/calls.s (a 3-deep call chain, data objects) with
user-exit.s or virt-exit.s, and spin.s (a loop for Ctrl-C), assembled with
linx-as -g.  Every expected pc is the address of a label of that source, as
the assembler's listing gives it; values come from the program text (n = 5:
leaf returns 30, main stores 35 and exits with it); the exit statuses are the
emulators'.  Checked on linux-user and on the virt machine (-S), for each
client: connect, registers, break/continue (by name and by address),
stepi/step-inst x4 with the pcs of the instructions, bt through leaf/middle/
main, finish/step-out, info frame, x/s, p on data symbols, list and step on
source lines, a register write that changes the exit status, a memory write,
a watchpoint (stop pc exact), Ctrl-C, detach, kill; and gdb's `break main`
in ../shared/guest/linux-user/02_algorithms.static (a compiled program
without debug information) stopping at main's first instruction (skipped
only when ../shared is absent).  A missing gdb-multiarch or lldb is a
failure: .ci/run installs them.
"""
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

LINX_AS, LINX_USER, LINX_SYSTEM, DBG_DIR, SHARED = map(os.path.abspath, sys.argv[1:6])
TIMEOUT = 60
LLDB_PYTHON = "/usr/lib/llvm-14/lib/python3.11/dist-packages"
ALGORITHMS = os.path.join(SHARED, "guest", "linux-user", "02_algorithms.static")
failures = []
skipped = []
checks = [0]


def check(what, cond, detail=""):
    checks[0] += 1
    if not cond:
        failures.append("%s: %s" % (what, detail))
        print("FAIL", what, str(detail)[:2000], file=sys.stderr)
    return cond


tmp = tempfile.mkdtemp(prefix="debuggers-test-")


def assemble(name, files, opts=()):
    """linx-as -g FILES -> (elf, {label: address}) from the listing.  The
    sources are copied next to the ELF and named without a directory, as a
    user would assemble them (the debuggers find them there)."""
    elf = os.path.join(tmp, name + ".elf")
    for f in files:
        shutil.copy(f, tmp)
    p = subprocess.run([LINX_AS, "-g", *opts, "-a", "-o", elf] +
                       [os.path.basename(f) for f in files],
                       capture_output=True, text=True, timeout=TIMEOUT, cwd=tmp)
    if p.returncode != 0:
        sys.exit("linx-as failed on %s: %s" % (name, p.stderr))
    labels = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^\s*\d+\s+([0-9a-f]{8})\s+(\w+):\s*$", line)
        if m:
            labels[m.group(2)] = int(m.group(1), 16)
    return elf, labels


def riscv_copy(elf):
    """lldb will not load e_machine 0xE9: a copy with EM_RISCV (0xF3)."""
    copy = elf[:-4] + "-rv.elf"
    data = bytearray(open(elf, "rb").read())
    data[18:20] = b"\xf3\x00"
    open(copy, "wb").write(data)
    return copy


def source_line(path, text):
    """1-based number of the line of @path holding @text."""
    for n, line in enumerate(open(path), 1):
        if text in line:
            return n
    sys.exit("no line with %r in %s" % (text, path))


CALLS = os.path.join(DBG_DIR, "calls.s")
user_elf, L = assemble("calls-user", [CALLS, os.path.join(DBG_DIR, "user-exit.s")])
virt_elf, LV = assemble("calls-virt", [CALLS, os.path.join(DBG_DIR, "virt-exit.s")])
spin_elf, S = assemble("spin", [os.path.join(DBG_DIR, "spin.s")])
llvm_elf, LL = assemble("calls-llvm", [CALLS, os.path.join(DBG_DIR, "user-exit.s")],
                        ["--dwarf-regs=llvm"])
check("both builds lay calls.s out alike", {k: L[k] for k in LV} == LV, (L, LV))
STORE_LINE = source_line(CALLS, "sdi a0, [a1, 0]")
AFTER_STORE_LINE = source_line(CALLS, "FRET.STK [ra ~ s1], sp!, 32")
LEAF_LINE = source_line(CALLS, "C.BSTART.STD RET")
CALL_MIDDLE_LINE = source_line(CALLS, "BSTART CALL, middle")
CALL_LEAF_LINE = source_line(CALLS, "BSTART CALL, leaf")
MIDDLE_RET_LINE = source_line(CALLS, "FRET.STK [ra ~ s0], sp!, 16")
N, LEAF_RESULT, EXIT_STATUS = 5, 30, 35  # calls.s: 2 * (n + 10), + n


# ---------------------------------------------------------------- emulators

def start(kind, elf, opts=""):
    """linx-user -g 0 / linx-system -gdb tcp::0 -S: (process, port)."""
    args = ([LINX_USER, "-g", "0" + opts, elf] if kind == "user" else
            [LINX_SYSTEM, "-gdb", "tcp::0" + opts, "-S", "-kernel", elf])
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = b""
    deadline = time.time() + TIMEOUT
    while b"\n" not in line and time.time() < deadline:
        r, _, _ = select.select([p.stderr], [], [], 1)
        if r:
            c = p.stderr.read1(1)
            if not c:
                break
            line += c
    m = re.search(rb"listening on [^ ]*:(\d+)", line)
    if not m:
        p.kill()
        sys.exit("no 'listening on' line from %s: %r" % (args, line))
    return p, int(m.group(1))


def finish(p):
    """The emulator's exit status (None if it hangs) and its output."""
    try:
        out, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return None, out + err
    return p.returncode, out + err


def chunks(text):
    """Output split at the @@name markers the sessions print: {name: text}."""
    parts = {}
    for m in re.finditer(r"@@(\w+)\n(.*?)(?=@@\w+\n|\Z)", text, re.S):
        parts[m.group(1)] = m.group(2)
    return parts


# ---------------------------------------------------------------- clients

def gdb(port, elf, steps, interrupt_after=None):
    """gdb-multiarch -batch: file, target remote, then @steps: ("name",
    command) pairs (a marker is printed before each named one).  With
    @interrupt_after, SIGINT goes to gdb once that marker is out (Ctrl-C)."""
    cmd = ["gdb-multiarch", "-nx", "-batch"]
    if elf:
        cmd += ["-ex", "file " + elf]
    cmd += ["-ex", "target remote 127.0.0.1:%d" % port]
    for name, c in steps:
        if name:
            cmd += ["-ex", "echo @@%s\\n" % name]
        cmd += ["-ex", c]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = b""
    if interrupt_after:
        deadline = time.time() + TIMEOUT
        while b"@@" + interrupt_after.encode() not in text and time.time() < deadline:
            r, _, _ = select.select([p.stdout], [], [], 1)
            if r:
                d = os.read(p.stdout.fileno(), 4096)
                if not d:
                    break
                text += d
        time.sleep(1.0)  # gdb sends the continue; the guest runs
        p.send_signal(signal.SIGINT)
    try:
        out, _ = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        out += b"\n<gdb timed out>"
    return (text + out).decode(errors="replace")


def lldb(port, elf, steps):
    """lldb -b: target create, gdb-remote, then @steps as for gdb()."""
    cmd = ["lldb", "--no-lldbinit", "-b"]
    if elf:
        cmd += ["-o", "target create " + elf]
    cmd += ["-o", "gdb-remote 127.0.0.1:%d" % port]
    for name, c in steps:
        if name:
            cmd += ["-o", 'script print("@@%s")' % name]
        cmd += ["-o", c]
    # Debian's lldb 14 needs its Python package on PYTHONPATH, and its
    # embedded Python takes its prefix from the python3 first on PATH (a
    # pyenv one lacks Debian's six): the system's first.
    env = dict(os.environ, PYTHONPATH=LLDB_PYTHON,
               PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""))
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, env=env)
        return p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        return (e.stdout or b"").decode(errors="replace") + "\n<lldb timed out>"


def gdb_value(text):
    """The value of the first "$N = V" in @text (an int for hex/decimal)."""
    m = re.search(r"\$\d+ = (?:\([^)]*\) )?(0x[0-9a-f]+|-?\d+)", text)
    return int(m.group(1), 0) if m else None


def lldb_reg(text, reg):
    m = re.search(r"\b%s = (0x[0-9a-f]+)" % reg, text)
    return int(m.group(1), 16) if m else None


# ---------------------------------------------------------------- gdb

def source_insn(label):
    """The instruction text of calls.s right after @label:, squeezed."""
    lines = open(CALLS).read().splitlines()
    i = next(k for k, line in enumerate(lines) if line.strip() == label + ":")
    return " ".join(lines[i + 1].split("#")[0].split())


def gdb_session(kind, elf, A):
    trace = os.path.join(tmp, "trace-%s.jsonl" % kind)
    p, port = start(kind, elf)
    steps = [("start", "p/x $pc"),
             ("regs", "info registers"),
             ("sp", "p/x $sp"),
             ("linxregs", "info registers bpc tq1 cycle"),
             ("break", "break leaf"),
             ("cont", "continue"),
             ("pc_leaf", "p/x $pc"),
             ("bt", "bt"),
             ("frame", "info frame"),
             ("mbt", "monitor bt"),
             ("mdis", "monitor dis $pc 4"),
             ("mblocks", "monitor info blocks middle 3"),
             ("mtrace", "monitor trace on %s" % trace)]
    for i in range(4):
        steps += [(None, "stepi"), ("si%d" % i, "p/x $pc")]
    steps += [("mtraceoff", "monitor trace off"),
              ("mbad", "monitor dis nosuchsymbol"),
              ("a0_leaf", "p $a0"),
              ("finish", "finish"),
              ("pc_finish", "p/x $pc"),
              ("a0_finish", "p $a0"),
              ("xs", "x/s &msg"),
              ("counter", "p counter"),
              ("table", "p table"),
              ("msg", "p msg"),
              ("list", "list leaf"),
              ("bstore", "break calls.s:%d" % STORE_LINE),
              ("cont2", "continue"),
              ("pc_store", "p/x $pc"),
              ("seta0", "set $a0 = 7"),
              ("a0_set", "p $a0"),
              (None, "set var table[1] = 9"),
              ("table_set", "p table"),
              ("mem", "x/4dw &table"),
              ("watch", "watch counter"),
              ("cont3", "continue"),
              ("pc_watch", "p/x $pc"),
              ("counter_watch", "p counter"),
              (None, "delete"),
              ("step", "step"),
              ("pc_step", "p/x $pc"),
              ("detach", "detach")]
    out = gdb(port, elf, steps)
    rc, emu = finish(p)
    c = chunks(out)
    t = "gdb/%s: " % kind
    check(t + "stopped at _start on connect", gdb_value(c.get("start", "")) == A["_start"], out)
    check(t + "info registers: RISC-V-shaped names, Linx values",
          re.search(r"^pc\s+0x%x\s" % A["_start"], c.get("regs", ""), re.M) and
          re.search(r"^sp\s+0x[0-9a-f]+", c.get("regs", ""), re.M) and
          re.search(r"^t0\s+<unavailable>", c.get("regs", ""), re.M), c.get("regs"))
    check(t + "sp set", (gdb_value(c.get("sp", "")) or 0) != 0, c.get("sp"))
    check(t + "Linx registers by name", re.search(r"^bpc\s+0x%x" % A["_start"],
                                                   c.get("linxregs", ""), re.M) and
          "tq1" in c.get("linxregs", "") and "cycle" in c.get("linxregs", ""),
          c.get("linxregs"))
    check(t + "break leaf at its first instruction",
          "Breakpoint 1 at 0x%x: file calls.s, line %d." % (A["leaf"], LEAF_LINE) in
          c.get("break", ""), c.get("break"))
    check(t + "breakpoint hit", "Breakpoint 1, leaf () at calls.s:%d" % LEAF_LINE in
          c.get("cont", ""), c.get("cont"))
    check(t + "pc at leaf", gdb_value(c.get("pc_leaf", "")) == A["leaf"], c.get("pc_leaf"))
    bt = c.get("bt", "")
    check(t + "bt through three frames",
          re.search(r"#0\s+leaf \(\) at calls.s:%d" % LEAF_LINE, bt) and
          re.search(r"#1\s+0x0*%x in middle \(\) at calls.s:%d" % (A["middle_ret"],
                                                                   CALL_LEAF_LINE), bt) and
          re.search(r"#2\s+0x0*%x in main \(\) at calls.s:%d" % (A["main_ret"],
                                                                 CALL_MIDDLE_LINE), bt), bt)
    check(t + "info frame: caller's pc", "saved pc = 0x%x" % A["middle_ret"] in c.get("frame", ""),
          c.get("frame"))
    for i, want in enumerate(("leaf_add", "leaf_ret", "leaf_stop", "middle_ret")):
        check(t + "stepi %d at %s" % (i + 1, want), gdb_value(c.get("si%d" % i, "")) == A[want],
              (c.get("si%d" % i), hex(A[want])))
    # monitor bt: the FENTRY frames (middle: 16 bytes, 2 saved; main: 32,
    # 3 saved, from their FENTRY lines) up to _start.
    mbt = c.get("mbt", "")
    check(t + "monitor bt", re.search(r"#0\s+0x0*%x in leaf\+0x0 .*\[no frame\]" % A["leaf"], mbt)
          and re.search(r"#1\s+0x0*%x in middle\+0x%x .*\[FENTRY 16 bytes, 2 saved\]" %
                        (A["middle_ret"], A["middle_ret"] - A["middle"]), mbt)
          and re.search(r"#2\s+0x0*%x in main\+0x%x .*\[FENTRY 32 bytes, 3 saved\]" %
                        (A["main_ret"], A["main_ret"] - A["main"]), mbt)
          and re.search(r"#3\s+0x0*%x in _start\+0x%x" % (A["start_ret"],
                                                          A["start_ret"] - A["_start"]), mbt)
          and "#4" not in mbt, mbt)
    # monitor dis: Linx text, as the source spells the instructions.
    dis = c.get("mdis", "")
    for label in ("leaf_add", "leaf_ret", "leaf_stop"):
        check(t + "monitor dis " + label,
              re.search(r"0x0*%x: [0-9a-f ]+ %s\s*$" % (A[label], re.escape(source_insn(label))),
                        dis, re.M | re.I), (source_insn(label), dis))
    check(t + "monitor dis marks pc", re.search(r"^=> 0x0*%x:" % A["leaf"], dis, re.M), dis)
    blocks = c.get("mblocks", "")
    check(t + "monitor info blocks", re.search(r"0x0*%x: .*FENTRY.*\n\s+\(1 instruction\)" %
                                               A["middle"], blocks) and
          re.search(r"0x0*%x: .*C.BSTART.STD.*\n\s+\(3 instructions\)" % A["middle_body"], blocks),
          blocks)
    check(t + "monitor with a bad address", "usage: monitor dis" in c.get("mbad", ""), c.get("mbad"))
    rows = [json.loads(x) for x in open(trace)] if os.path.exists(trace) else []
    check(t + "monitor trace on/off: the stepped instructions", [r["pc"] for r in rows] ==
          [A["leaf"], A["leaf_add"], A["leaf_ret"], A["leaf_stop"]], rows)
    check(t + "a0 after leaf", gdb_value(c.get("a0_leaf", "")) == LEAF_RESULT, c.get("a0_leaf"))
    check(t + "finish returns to main", "main () at calls.s:" in c.get("finish", "") and
          gdb_value(c.get("pc_finish", "")) == A["main_ret"], c.get("finish", "") +
          c.get("pc_finish", ""))
    check(t + "a0 after finish", gdb_value(c.get("a0_finish", "")) == LEAF_RESULT,
          c.get("a0_finish"))
    check(t + "x/s", '<msg>:\t"linx debug"' in c.get("xs", ""), c.get("xs"))
    check(t + "p counter", re.search(r"\$\d+ = 0\s*$", c.get("counter", ""), re.M),
          c.get("counter"))
    check(t + "p table", "= {1, 2, 3, 4}" in c.get("table", ""), c.get("table"))
    check(t + "p msg", '= "linx debug"' in c.get("msg", ""), c.get("msg"))
    check(t + "list leaf", "leaf:" in c.get("list", "") and "add a0, a0, ->a0" in
          c.get("list", ""), c.get("list"))
    check(t + "line breakpoint", gdb_value(c.get("pc_store", "")) == A["main_store"],
          c.get("pc_store"))
    check(t + "register write", gdb_value(c.get("a0_set", "")) == 7, c.get("a0_set"))
    check(t + "memory write", "= {1, 9, 3, 4}" in c.get("table_set", "") and
          re.search(r":\s+1\s+9\s+3\s+4", c.get("mem", "")), c.get("table_set", "") +
          c.get("mem", ""))
    w = c.get("cont3", "")
    check(t + "watchpoint: old and new value", "Old value = 0" in w and "New value = 7" in w, w)
    check(t + "watchpoint: stop right after the store",
          gdb_value(c.get("pc_watch", "")) == A["main_after_store"], c.get("pc_watch"))
    check(t + "counter written", gdb_value(c.get("counter_watch", "")) == 7,
          c.get("counter_watch"))
    # step from the FRET.STK: main returns; the next line is _start's.
    check(t + "step to the next source line", gdb_value(c.get("pc_step", "")) == A["start_ret"]
          and "_start () at calls.s:" in c.get("step", ""), c.get("step", "") +
          c.get("pc_step", ""))
    check(t + "detach", "detached" in c.get("detach", ""), c.get("detach"))
    check(t + "runs to its end after detach with the written a0", rc == 7, (rc, emu, out))


def gdb_kill_and_interrupt(kind):
    # Ctrl-C: SIGINT to gdb while the guest spins; then kill.
    p, port = start(kind, spin_elf)
    out = gdb(port, spin_elf, [("go", "continue"), ("pc", "p/x $pc"), ("s0", "p/x $s0"),
                               ("kill", "kill")], interrupt_after="go")
    rc, emu = finish(p)
    c = chunks(out)
    t = "gdb/%s: " % kind
    check(t + "Ctrl-C stops the guest", "Program received signal SIGINT" in c.get("go", ""), out)
    check(t + "stopped in the loop", gdb_value(c.get("pc", "")) in (S["spin"], S["spin_body"]),
          c.get("pc"))
    check(t + "the loop ran", (gdb_value(c.get("s0", "")) or 0) > 0, c.get("s0"))
    check(t + "kill", "killed" in c.get("kill", ""), c.get("kill"))
    check(t + "killed guest ends with 137", rc == 137, (rc, emu))


def gdb_break_main_compiled():
    """break main in a compiled program without line information: gdb's
    prologue analysis must leave the breakpoint on an instruction boundary
    (gdb-multiarch takes the objfile of an unknown e_machine as i386 and its
    analyser finds no x86 prologue in Linx bytes: main itself)."""
    if not os.path.exists(ALGORITHMS):
        skipped.append("break main in 02_algorithms.static (no %s)" % ALGORITHMS)
        return
    main = None
    p = subprocess.run(["readelf", "-sW", ALGORITHMS], capture_output=True, text=True)
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) >= 8 and f[7] == "main" and f[3] == "FUNC":
            main = int(f[1], 16)
    if not check("main in 02_algorithms' symbol table", main is not None, p.stdout[-500:]):
        return
    p, port = start("user", ALGORITHMS)
    out = gdb(port, ALGORITHMS, [("break", "break main"), ("cont", "continue"),
                                 ("pc", "p/x $pc"), ("mon", "monitor dis $pc 1"),
                                 ("bt", "monitor bt"), ("kill", "kill")])
    rc, emu = finish(p)
    c = chunks(out)
    check("gdb/compiled: break main at main", "Breakpoint 1 at 0x%x" % main in c.get("break", ""),
          c.get("break"))
    check("gdb/compiled: stopped at main", "Breakpoint 1, 0x%016x in main ()" % main in
          c.get("cont", "") and gdb_value(c.get("pc", "")) == main, out)
    check("gdb/compiled: monitor bt walks the FENTRY frames to _start",
          re.search(r"#0\s+0x0*%x in main\+0x0" % main, c.get("bt", "")) and
          re.search(r"in _start\+0x", c.get("bt", "")), c.get("bt"))
    check("gdb/compiled: killed", rc == 137, (rc, emu))
    # With `set architecture riscv:rv64` before `file` (what addresses above
    # 4 GiB need) gdb's RISC-V prologue analyser reads Linx bytes and puts
    # `break main` inside an instruction: the stub refuses it, so gdb says
    # so instead of never stopping; `break *main` stops at main.
    p, port = start("user", ALGORITHMS)
    out = gdb(port, None, [(None, "set architecture riscv:rv64"), (None, "file " + ALGORITHMS),
                           ("break", "break main"), ("cont", "continue"), (None, "delete"),
                           ("break2", "break *main"), ("cont2", "continue"), ("pc", "p/x $pc"),
                           ("kill", "kill")])
    rc, emu = finish(p)
    c = chunks(out)
    m = re.search(r"Breakpoint 1 at (0x[0-9a-f]+)", c.get("break", ""))
    check("gdb/compiled rv64: the analyser's address is inside main", m and
          main < int(m.group(1), 16) < main + 16, c.get("break"))
    check("gdb/compiled rv64: refused, and gdb says so", "Cannot insert breakpoint 1" in
          c.get("cont", ""), c.get("cont"))
    check("gdb/compiled rv64: break *main stops at main", gdb_value(c.get("pc", "")) == main,
          c.get("cont2", "") + c.get("pc", ""))
    check("gdb/compiled rv64: killed", rc == 137, (rc, emu))


# ---------------------------------------------------------------- lldb

def lldb_session(kind, elf, A):
    rv = riscv_copy(elf)
    p, port = start(kind, elf)
    steps = [("start", "register read pc sp"),
             ("regs", "register read"),
             ("linxregs", "register read bpc tq1 cycle"),
             ("bname", "breakpoint set -n leaf"),
             ("baddr", "breakpoint set -a 0x%x" % A["main_store"]),
             ("cont", "continue"),
             ("bt", "bt")]
    for i in range(3):
        steps += [(None, "thread step-inst"), ("si%d" % i, "register read pc")]
    steps += [("a0_leaf", "register read a0"),
              ("out", "thread step-out"),
              ("pc_out", "register read pc a0"),
              ("vars", "target variable counter table msg"),
              ("cont2", "continue"),
              ("pc_store", "register read pc"),
              (None, "register write a0 7"),
              ("a0_set", "register read a0"),
              (None, "memory write -s 4 0x%x 9" % (A["table"] + 4)),
              ("mem", "memory read -s4 -fd -c4 0x%x" % A["table"]),
              (None, "breakpoint delete -f"),
              ("watch", "watchpoint set variable counter"),
              ("cont3", "continue"),
              ("pc_watch", "register read pc"),
              ("counter", "target variable counter"),
              (None, "watchpoint delete -f"),
              ("detach", "process detach")]
    out = lldb(port, rv, steps)
    rc, emu = finish(p)
    c = chunks(out)
    t = "lldb/%s: " % kind
    check(t + "stopped at _start on connect", lldb_reg(c.get("start", ""), "pc") == A["_start"]
          and "calls.s:" in out.split("@@start")[0], out)
    check(t + "sp set", (lldb_reg(c.get("start", ""), "sp") or 0) != 0, c.get("start"))
    check(t + "register read: Linx names and values", lldb_reg(c.get("regs", ""), "pc") ==
          A["_start"] and lldb_reg(c.get("regs", ""), "a0") is not None and
          re.search(r"t0 = 0x[0-9a-f]+", c.get("regs", "")) and
          lldb_reg(c.get("linxregs", ""), "bpc") == A["_start"] and
          "tq1 = " in c.get("linxregs", ""), c.get("regs", "") + c.get("linxregs", ""))
    # lldb skips to the function's second line-table row (its prologue end).
    check(t + "breakpoint by name", "address = 0x%016x" % A["leaf_add"] in c.get("bname", ""),
          c.get("bname"))
    check(t + "breakpoint by address", "address = 0x%016x" % A["main_store"] in
          c.get("baddr", ""), c.get("baddr"))
    check(t + "breakpoint hit", "stop reason = breakpoint 1.1" in c.get("cont", "") and
          "frame #0: 0x%016x" % A["leaf_add"] in c.get("cont", ""), c.get("cont"))
    bt = c.get("bt", "")
    check(t + "bt through three frames",
          re.search(r"frame #0: 0x0*%x \S+`leaf at calls.s:" % A["leaf_add"], bt) and
          re.search(r"frame #1: 0x0*%x \S+`middle at calls.s:%d" % (A["middle_ret"],
                                                                     CALL_LEAF_LINE), bt) and
          re.search(r"frame #2: 0x0*%x \S+`main at calls.s:%d" % (A["main_ret"],
                                                                   CALL_MIDDLE_LINE), bt), bt)
    for i, want in enumerate(("leaf_ret", "leaf_stop", "middle_ret")):
        check(t + "step-inst %d at %s" % (i + 1, want), lldb_reg(c.get("si%d" % i, ""), "pc") ==
              A[want], (c.get("si%d" % i), hex(A[want])))
    check(t + "a0 after leaf", lldb_reg(c.get("a0_leaf", ""), "a0") == LEAF_RESULT,
          c.get("a0_leaf"))
    check(t + "step-out returns to main", lldb_reg(c.get("pc_out", ""), "pc") == A["main_ret"] and
          lldb_reg(c.get("pc_out", ""), "a0") == LEAF_RESULT, c.get("out", "") +
          c.get("pc_out", ""))
    v = c.get("vars", "")
    check(t + "data symbols as variables", "(long) counter = 0" in v and
          "(int[4]) table = ([0] = 1, [1] = 2, [2] = 3, [3] = 4)" in v and
          '(char[11]) msg = "linx debug"' in v, v)
    check(t + "address breakpoint hit", lldb_reg(c.get("pc_store", ""), "pc") == A["main_store"],
          c.get("cont2", "") + c.get("pc_store", ""))
    check(t + "register write", lldb_reg(c.get("a0_set", ""), "a0") == 7, c.get("a0_set"))
    check(t + "memory write", re.search(r"0x0*%x: 1\s+0x0*%x: 9\s+0x0*%x: 3\s+0x0*%x: 4" %
                                        tuple(A["table"] + 4 * i for i in range(4)),
                                        c.get("mem", "")), c.get("mem"))
    w = c.get("cont3", "")
    check(t + "watchpoint: old and new value", "Watchpoint 1 hit" in w and "old value: 0" in w and
          "new value: 7" in w, c.get("watch", "") + w)
    check(t + "watchpoint: stop right after the store",
          lldb_reg(c.get("pc_watch", ""), "pc") == A["main_after_store"], c.get("pc_watch"))
    check(t + "counter written", "(long) counter = 7" in c.get("counter", ""), c.get("counter"))
    check(t + "detach", "detached" in c.get("detach", ""), c.get("detach"))
    check(t + "runs to its end after detach with the written a0", rc == 7, (rc, emu, out))


def lldb_linx_description():
    """lldb on the pure Linx description (-g 0,tdesc=linx), with CFI in the
    LinxISA LLVM numbering its dwarf_regnum attributes use."""
    rv = riscv_copy(llvm_elf)
    p, port = start("user", llvm_elf, ",tdesc=linx")
    out = lldb(port, rv, [("regs", "register read pc sp bpc tq1"),
                          (None, "breakpoint set -n leaf"),
                          ("cont", "continue"),
                          ("bt", "bt"),
                          ("out", "thread step-out"),
                          ("pc", "register read pc a0"),
                          ("kill", "process kill")])
    rc, emu = finish(p)
    c = chunks(out)
    A = LL
    t = "lldb/linx description: "
    check(t + "registers", lldb_reg(c.get("regs", ""), "pc") == A["_start"] and
          lldb_reg(c.get("regs", ""), "bpc") == A["_start"] and "tq1 = " in c.get("regs", ""),
          c.get("regs"))
    check(t + "breakpoint", "frame #0: 0x%016x" % A["leaf_add"] in c.get("cont", ""),
          c.get("cont"))
    bt = c.get("bt", "")
    check(t + "bt (LLVM register numbers)",
          re.search(r"frame #1: 0x0*%x \S+`middle" % A["middle_ret"], bt) and
          re.search(r"frame #2: 0x0*%x \S+`main" % A["main_ret"], bt), bt)
    check(t + "step-out", lldb_reg(c.get("pc", ""), "pc") == A["middle_ret"] and
          lldb_reg(c.get("pc", ""), "a0") == LEAF_RESULT, c.get("pc"))
    check(t + "kill", rc == 137, (rc, emu))


def lldb_kill_and_interrupt(kind):
    rv = riscv_copy(spin_elf)
    p, port = start(kind, spin_elf)
    out = lldb(port, rv, [(None, "script lldb.debugger.SetAsync(True)"),
                          ("go", "continue"),
                          (None, "script import time; time.sleep(1)"),
                          ("stop", "process interrupt"),
                          (None, "script time.sleep(1)"),
                          (None, "script lldb.debugger.SetAsync(False)"),
                          ("pc", "register read pc s0"),
                          ("kill", "process kill")])
    rc, emu = finish(p)
    c = chunks(out)
    t = "lldb/%s: " % kind
    check(t + "interrupt stops the guest", "stop reason = signal SIGINT" in out, out)
    check(t + "stopped in the loop", lldb_reg(c.get("pc", ""), "pc") in (S["spin"],
                                                                        S["spin_body"]),
          c.get("pc"))
    check(t + "the loop ran", (lldb_reg(c.get("pc", ""), "s0") or 0) > 0, c.get("pc"))
    check(t + "kill", "exited with status = 9" in c.get("kill", ""), c.get("kill"))
    check(t + "killed guest ends with 137", rc == 137, (rc, emu))


# ---------------------------------------------------------------- main

missing = [c for c in ("gdb-multiarch", "lldb", "readelf") if not shutil.which(c)]
if missing:
    print("FAIL: %s not installed (.ci/run installs gdb-multiarch and lldb)" %
          ", ".join(missing))
    sys.exit(1)

# Runs without a debugger give the statuses the sessions expect.
for kind, elf in (("user", user_elf), ("virt", virt_elf)):
    args = [LINX_USER, elf] if kind == "user" else [LINX_SYSTEM, "-kernel", elf]
    r = subprocess.run(args, capture_output=True, timeout=TIMEOUT)
    check("%s: calls exits with %d without a debugger" % (kind, EXIT_STATUS),
          r.returncode == EXIT_STATUS, r)

tests = [lambda: gdb_session("user", user_elf, L), lambda: gdb_session("virt", virt_elf, LV),
         lambda: gdb_kill_and_interrupt("user"), lambda: gdb_kill_and_interrupt("virt"),
         gdb_break_main_compiled,
         lambda: lldb_session("user", user_elf, L), lambda: lldb_session("virt", virt_elf, LV),
         lambda: lldb_kill_and_interrupt("user"), lambda: lldb_kill_and_interrupt("virt"),
         lldb_linx_description]
for t in tests:
    try:
        t()
    except Exception as e:  # a hang or a crash shows up here
        check("session", False, "%s: %s" % (type(e).__name__, e))

for s in skipped:
    print("SKIP", s)
shutil.rmtree(tmp, ignore_errors=True)
if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("all %d debugger checks passed" % checks[0])
