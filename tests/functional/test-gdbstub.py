#!/usr/bin/env python3
"""The gdb stub end to end: a scripted RSP client drives linx-user and
linx-system over TCP.

usage: test-gdbstub.py LINX_AS LINX_USER LINX_SYSTEM

Guest programs are assembled with our linx-as into a temporary folder.
The client checks the target XML against the 'g' packet, reads and writes
registers and memory (hex and binary), sets, hits and removes breakpoints,
single-steps (s and vCont), sets a write watchpoint, interrupts a running
guest with Ctrl-C, gets traps as signals, runs monitor commands, sends bad
packets (checksum, oversized, malformed, run-length encoded), and ends
sessions by detach, kill, a closed connection and the guest's exit.  The
machine's gdb has no LinxISA support, so this client is the test's gdb.
Exits non-zero naming every failed check.
"""
import os
import re
import select
import socket
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

LINX_AS, LINX_USER, LINX_SYSTEM = sys.argv[1:4]
TIMEOUT = 20
failures = []


def check(what, cond, detail=""):
    if not cond:
        failures.append("%s: %s" % (what, detail))
        print("FAIL", what, detail, file=sys.stderr)


# ---------------------------------------------------------------- programs

LOOP_S = """
    .text
    .globl _start
_start:
    C.BSTART.STD
    hl.lis 0, ->s0
    hl.lis 10, ->s1
    addtpc counter, ->s2
    addi s2, counter, ->s2
loop:
    C.BSTART COND, loop
body:
    addi s0, 1, ->s0
store:
    sdi s0, [s2, 0]
after_store:
    setc.ne s0, s1
done:
    C.BSTART.STD
    addi s0, 0, ->a0
    hl.lis 93, ->a7
    acrc 1
    C.BSTOP

    .data
counter:
    .quad 0
"""

SPIN_S = """
    .text
    .globl _start
_start:
    C.BSTART.STD
    hl.lis 0, ->s0
spin:
    C.BSTART DIRECT, spin
spin_body:
    addi s0, 1, ->s0
"""

TRAP_S = """
    .text
    .globl _start
_start:
    C.BSTART.STD
    hl.lis 7, ->s0
brk:
    ebreak 0
after_brk:
    addi s0, 1, ->s0
    hl.lis 16, ->a1
fault:
    ldi [a1, 0], ->a0
    C.BSTART.STD
    addi s0, 0, ->a0
    hl.lis 93, ->a7
    acrc 1
    C.BSTOP
"""

tmp = tempfile.mkdtemp(prefix="gdbstub-test-")


def assemble(name, src):
    """Assemble @src; returns (elf path, {label: address})."""
    path = os.path.join(tmp, name + ".s")
    elf = os.path.join(tmp, name + ".elf")
    with open(path, "w") as f:
        f.write(src)
    p = subprocess.run([LINX_AS, "-a", "-o", elf, path], capture_output=True, text=True,
                       timeout=TIMEOUT)
    if p.returncode != 0:
        sys.exit("linx-as failed on %s: %s" % (name, p.stderr))
    labels = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^\s*\d+\s+([0-9a-f]{8})\s+(\w+):\s*$", line)
        if m:
            labels[m.group(2)] = int(m.group(1), 16)
    return elf, labels


# ---------------------------------------------------------------- client

def csum(body):
    return sum(body) & 0xff


class Gdb:
    """A minimal RSP client (what gdb does, scripted)."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.buf = b""
        self.ack = True
        self.acks_seen = 0

    def close(self):
        self.sock.close()

    def raw(self, data):
        self.sock.sendall(data)

    def send(self, body):
        if isinstance(body, str):
            body = body.encode()
        self.raw(b"$" + body + b"#%02x" % csum(body))

    def _fill(self):
        r, _, _ = select.select([self.sock], [], [], TIMEOUT)
        if not r:
            raise TimeoutError("no reply from the stub")
        d = self.sock.recv(65536)
        if not d:
            raise EOFError("the stub closed the connection")
        self.buf += d

    def read_char(self):
        while not self.buf:
            self._fill()
        c, self.buf = self.buf[:1], self.buf[1:]
        return c

    def recv(self):
        """The next packet body (acks counted and skipped)."""
        while True:
            while self.buf[:1] in (b"+", b"-"):
                self.acks_seen += self.buf[:1] == b"+"
                self.buf = self.buf[1:]
            m = re.match(rb"\$([^#]*)#([0-9a-fA-F]{2})", self.buf, re.S)
            if m:
                self.buf = self.buf[m.end():]
                body = m.group(1)
                if int(m.group(2), 16) != csum(body):
                    raise ValueError("bad checksum from the stub: %r" % self.buf)
                if self.ack:
                    self.raw(b"+")
                return body
            self._fill()

    def cmd(self, body):
        self.send(body)
        return self.recv()

    def no_ack(self):
        r = self.cmd("QStartNoAckMode")
        self.ack = False
        return r

    def monitor(self, text):
        """Run a monitor command: (output, final reply)."""
        self.send("qRcmd," + text.encode().hex())
        out = b""
        while True:
            p = self.recv()
            if p.startswith(b"O") and p != b"OK":
                out += bytes.fromhex(p[1:].decode())
            else:
                return out.decode(), p


def unescape(data):
    out, i = bytearray(), 0
    while i < len(data):
        if data[i] == 0x7d:
            out.append(data[i + 1] ^ 0x20)
            i += 2
        else:
            out.append(data[i])
            i += 1
    return bytes(out)


def le64(hexstr):
    return int.from_bytes(bytes.fromhex(hexstr.decode() if isinstance(hexstr, bytes) else hexstr),
                          "little")


def hex64(v):
    return (v & (2**64 - 1)).to_bytes(8, "little").hex()


def start(args):
    """Start a tool with a gdb option on port 0; returns (process, port)."""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = b""
    deadline = time.time() + TIMEOUT
    while b"\n" not in line and time.time() < deadline:
        r, _, _ = select.select([p.stderr], [], [], 1)
        if r:
            c = p.stderr.read1(1) if hasattr(p.stderr, "read1") else p.stderr.read(1)
            if not c:
                break
            line += c
    m = re.search(rb"listening on [^ ]*:(\d+)", line)
    if not m:
        p.kill()
        sys.exit("no 'listening on' line from %s: %r" % (args, line))
    return p, int(m.group(1))


def finish(p):
    """Wait for the tool; returns (exit status, stdout, stderr)."""
    try:
        out, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return None, out, err
    return p.returncode, out, err


# ---------------------------------------------------------------- tests

loop_elf, L = assemble("loop", LOOP_S)
spin_elf, S = assemble("spin", SPIN_S)
trap_elf, T = assemble("trap", TRAP_S)
hello_elf, H = assemble("hello", open(os.path.join(os.path.dirname(__file__),
                                                   "../guest/examples/hello.s")).read())


def read_xml(g, annex, chunk=0x80):
    """Read a qXfer annex in small chunks (exercises offsets)."""
    data, off = b"", 0
    while True:
        r = g.cmd("qXfer:features:read:%s:%x,%x" % (annex, off, chunk))
        check("qXfer %s chunk" % annex, r[:1] in (b"m", b"l"), r[:40])
        part = unescape(r[1:])
        data += part
        off += len(part)
        if r[:1] != b"m":
            return data.decode()


def test_session_user():
    p, port = start([LINX_USER, "-g", "0", loop_elf])
    g = Gdb(port)

    # Handshake in ack mode: the stub acknowledges our packets.
    sup = g.cmd("qSupported:multiprocess+;swbreak+;hwbreak+;xmlRegisters=i386")
    for feat in (b"PacketSize=4000", b"qXfer:features:read+", b"swbreak+", b"hwbreak+",
                 b"vContSupported+", b"QStartNoAckMode+"):
        check("qSupported has " + feat.decode(), feat in sup, sup)
    check("stub acks in ack mode", g.acks_seen >= 1, g.acks_seen)
    check("? after attach", g.cmd("?").startswith(b"T05"), "")
    check("vMustReplyEmpty", g.cmd("vMustReplyEmpty") == b"", "")
    check("qAttached", g.cmd("qAttached") == b"1", "")
    check("qC", g.cmd("qC") == b"QC1", "")
    check("qfThreadInfo", g.cmd("qfThreadInfo") == b"m1", "")
    check("qsThreadInfo", g.cmd("qsThreadInfo") == b"l", "")
    check("Hg0", g.cmd("Hg0") == b"OK", "")
    check("Hc-1", g.cmd("Hc-1") == b"OK", "")
    check("T1 alive", g.cmd("T1") == b"OK", "")
    check("T2 not alive", g.cmd("T2").startswith(b"E"), "")
    check("vCont?", g.cmd("vCont?") == b"vCont;c;C;s;S", "")

    # Bad packets: wrong checksum -> '-' and a resend works.
    g.raw(b"$g#00")
    check("bad checksum gets '-'", g.read_char() == b"-", "")
    regs = g.cmd("g")
    check("resend after '-'", len(regs) > 0 and len(regs) % 16 == 0, regs[:20])
    # Oversized: acknowledged, then an error reply.
    big = b"M10000,4000:" + b"00" * 0x4000
    g.raw(b"$" + big + b"#%02x" % csum(big))
    r = g.recv()
    check("oversized packet -> error", r == b"E07", r)
    check("malformed m", g.cmd("mzz").startswith(b"E"), "")
    check("malformed p", g.cmd("p").startswith(b"E"), "")
    check("unknown register", g.cmd("pfff").startswith(b"E"), "")
    check("malformed M", g.cmd("M11000,8:12").startswith(b"E"), "")
    check("huge M length", g.cmd("M11000,8000000000000000:00").startswith(b"E"), "")
    check("malformed Z", g.cmd("Z0,zz").startswith(b"E"), "")
    check("unknown packet -> empty", g.cmd("Jxyz") == b"", "")
    check("unsupported v packet -> empty", g.cmd("vRun;00") == b"", "")
    g.raw(b"noise between packets")
    check("noise ignored", g.cmd("qC") == b"QC1", "")
    g.raw(b"$qC#00")  # bad checksum
    check("second '-'", g.read_char() == b"-", "")
    g.raw(b"$q$qC#%02x" % csum(b"qC"))  # a '$' restarts the packet
    check("'$' restarts a packet", g.recv() == b"QC1", "")

    check("QStartNoAckMode", g.no_ack() == b"OK", "")

    # Target description: one self-contained target.xml in the shape stock
    # gdb-multiarch accepts (riscv:rv64, osabi none, org.gnu.gdb.riscv.cpu
    # with x0-x15 by ABI name), whose registers match the 'g' packet.
    target = read_xml(g, "target.xml")
    root = ET.fromstring(target)
    check("architecture", root.findtext("architecture") == "riscv:rv64", target[:300])
    check("osabi", root.findtext("osabi") == "none", target[:300])
    check("no xi:include", "include" not in target, "")
    feats = [f.get("name") for f in root.findall("feature")]
    check("features", feats == ["org.gnu.gdb.riscv.cpu", "org.linxisa.linx.core",
                                "org.linxisa.linx.block", "org.linxisa.linx.clockhands",
                                "org.linxisa.linx.ssr"], feats)
    names = {}
    attrs = {}
    for feat in root.findall("feature"):
        for reg in feat:
            names[reg.get("name")] = int(reg.get("regnum"))
            attrs[reg.get("name")] = (feat.get("name"), reg.attrib)
            check("64-bit " + reg.get("name"), reg.get("bitsize") == "64", "")
    rv = [n for n in names if attrs[n][0] == "org.gnu.gdb.riscv.cpu"]
    check("riscv.cpu holds x0-x15 by ABI name and pc",
          sorted(rv) == sorted(["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
                                "a0", "a1", "a2", "a3", "a4", "a5", "pc"]), rv)
    for n, role in (("pc", "pc"), ("sp", "sp"), ("ra", "ra")):
        check("generic " + n, attrs[n][1].get("generic") == role, attrs[n])
    # DWARF numbers for lldb: RISC-V's for the same ABI name (decisions D10).
    for n, dw in (("ra", 1), ("sp", 2), ("s0", 8), ("a0", 10), ("s2", 18)):
        check("dwarf_regnum " + n, attrs[n][1].get("dwarf_regnum") == str(dw), attrs[n])
    check("unknown annex", g.cmd("qXfer:features:read:nope.xml:0,100").startswith(b"E"), "")
    abi = ["zero", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "ra", "s0", "s1", "s2",
           "s3", "s4", "s5", "s6", "s7", "s8", "x0", "x1", "x2", "x3", "pc"]
    check("core registers", sorted((names[n], n) for n in names if names[n] < 25) ==
          list(enumerate(abi)), sorted(names.items(), key=lambda x: x[1])[:25])
    for n in ("bpc", "bkind", "carg", "tgt", "lb0", "lc2", "tq1", "tq4", "uq1", "uq4", "tp", "gp",
              "fcsr", "cycle", "trapno"):
        check("register " + n, n in names, "")
    regs = g.cmd("g")
    check("g size matches the XML", len(regs) == 16 * len(names), (len(regs), len(names)))
    check("regnums are dense", sorted(names.values()) == list(range(len(names))), "")
    for n in ("t0", "t1", "t2"):
        off = 16 * names[n]
        check("padding %s unavailable in g" % n, regs[off:off + 16] == b"x" * 16, regs[off:off + 16])
        check("padding %s unavailable in p" % n, g.cmd("p%x" % names[n]) == b"x" * 16, "")
    # lldb: a riscv64 triple without an OS (lldb 14 loads the program with it;
    # decisions G10), watchpoints stop before.
    hi = g.cmd("qHostInfo").decode()
    fields = dict(kv.split(":", 1) for kv in hi.split(";") if kv)
    check("qHostInfo triple", bytes.fromhex(fields.get("triple", "")) ==
          b"riscv64-unknown-elf", hi)
    check("qHostInfo endian/ptrsize", fields.get("endian") == "little" and
          fields.get("ptrsize") == "8", hi)
    check("qHostInfo watchpoints before", fields.get("watchpoint_exceptions_received") ==
          "before", hi)
    check("qWatchpointSupportInfo", g.cmd("qWatchpointSupportInfo:") == b"num:16;", "")

    def reg(name):
        return le64(g.cmd("p%x" % names[name]))

    check("pc at entry", reg("pc") == L["_start"], hex(reg("pc")))
    check("sp set", reg("sp") != 0, "")
    check("zero reads 0", reg("zero") == 0, "")

    # Register writes.
    check("P a0", g.cmd("P%x=%s" % (names["a0"], hex64(0x1122334455667788))) == b"OK", "")
    check("p a0", reg("a0") == 0x1122334455667788, hex(reg("a0")))
    check("P zero ignored", g.cmd("P0=%s" % hex64(5)) == b"OK" and reg("zero") == 0, "")
    check("P read-only refused", g.cmd("P%x=%s" % (names["cycle"], hex64(99))).startswith(b"E"),
          "")
    check("P tp", g.cmd("P%x=%s" % (names["tp"], hex64(0x7000))) == b"OK" and
          reg("tp") == 0x7000, "")
    regs = g.cmd("g")
    check("G round trip", g.cmd(b"G" + regs) == b"OK" and g.cmd("g") == regs, "")
    check("G bad length", g.cmd(b"G" + regs[:-3]).startswith(b"E"), "")
    check("P a0 back", g.cmd("P%x=%s" % (names["a0"], hex64(0))) == b"OK", "")
    out, r = g.monitor("ssr 0")
    check("monitor ssr 0 reads tp", r == b"OK" and "0x0000000000007000" in out, out)

    # Memory.
    ctr = 0x11000
    check("m counter", g.cmd("m%x,8" % ctr) == b"00" * 8, "")
    check("M counter", g.cmd("M%x,4:deadbeef" % ctr) == b"OK", "")
    check("m after M", g.cmd("m%x,4" % ctr) == b"deadbeef", "")
    binary = bytes([0x23, 0x24, 0x7d, 0x2a, 0x00, 0xff, 0x03, 0x2b])
    esc = b"".join(bytes([0x7d, c ^ 0x20]) if c in b"#$}*" else bytes([c]) for c in binary)
    check("X binary", g.cmd(b"X%x,8:" % ctr + esc) == b"OK", "")
    check("m after X", g.cmd("m%x,8" % ctr) == binary.hex().encode(), g.cmd("m%x,8" % ctr))
    check("X probe", g.cmd("X%x,0:" % ctr) == b"OK", "")
    # Run-length encoded packet: 16 zeros as "0*," ("," = 29 + 15 repeats).
    check("RLE M", g.cmd(b"M%x,8:0*," % ctr) == b"OK", "")
    check("m after RLE M", g.cmd("m%x,8" % ctr) == b"00" * 8, "")
    check("m unmapped", g.cmd("m10,8").startswith(b"E"), "")
    r = g.cmd("m%x,20" % (ctr + 0xff0))
    check("m short read at the end of a mapping", r == b"00" * 16, r)
    check("M unmapped", g.cmd("M10,1:00").startswith(b"E"), "")
    code = g.cmd("m%x,2" % L["_start"])
    check("m code", code == b"0008", code)

    # Breakpoints go on instruction starts: inside hl.lis (6 bytes at
    # _start+2) is refused, since it could never stop.
    check("Z0 inside an instruction refused", g.cmd("Z0,%x,2" % (L["_start"] + 4)).startswith(b"E"),
          "")
    check("Z0 at its start", g.cmd("Z0,%x,2" % (L["_start"] + 2)) == b"OK" and
          g.cmd("z0,%x,2" % (L["_start"] + 2)) == b"OK", "")

    # Breakpoint in the loop body: hit, hit again, removed.
    check("Z0", g.cmd("Z0,%x,2" % L["body"]) == b"OK", "")
    r = g.cmd("c")
    check("breakpoint stop", r.startswith(b"T05") and b"swbreak:" in r, r)
    check("pc at breakpoint", reg("pc") == L["body"], hex(reg("pc")))
    check("s0 before the first addi", reg("s0") == 0, reg("s0"))
    check("block state at the breakpoint", reg("bpc") == L["loop"] and reg("bkind") == 3,
          (hex(reg("bpc")), reg("bkind")))
    r = g.cmd("c")
    check("breakpoint hit again", r.startswith(b"T05") and reg("s0") == 1, (r, reg("s0")))
    check("z0", g.cmd("z0,%x,2" % L["body"]) == b"OK", "")
    check("z0 unknown is fine", g.cmd("z0,%x,2" % L["body"]) == b"OK", "")

    # Single steps: addi, sdi, setc (vCont form too).
    check("pc still at body", reg("pc") == L["body"], hex(reg("pc")))
    r = g.cmd("s")
    check("step stop", r.startswith(b"T05") and b"swbreak" not in r, r)
    check("step ran addi", reg("pc") == L["store"] and reg("s0") == 2, (hex(reg("pc")),
                                                                         reg("s0")))
    r = g.cmd("vCont;s:1")
    check("vCont;s", r.startswith(b"T05") and reg("pc") == L["after_store"], hex(reg("pc")))
    check("stored", g.cmd("m%x,8" % ctr) == b"02" + b"00" * 7, "")
    out, r = g.monitor("regs")
    check("monitor regs", r == b"OK" and "pc       %016x" % L["after_store"] in out, out)

    # Write watchpoint on the counter.
    check("Z2", g.cmd("Z2,%x,8" % ctr) == b"OK", "")
    check("Z3 unsupported", g.cmd("Z3,%x,8" % ctr) == b"", "")
    check("Z4 unsupported", g.cmd("Z4,%x,8" % ctr) == b"", "")
    r = g.cmd("vCont;c")
    check("watchpoint stop", r.startswith(b"T05") and (b"watch:%x;" % ctr) in r, r)
    # Before the store (what gdb's riscv gdbarch and lldb expect): pc at
    # the sdi of the next iteration, the counter still 2.
    check("stopped before the store", reg("pc") == L["store"] and reg("s0") == 3 and
          g.cmd("m%x,1" % ctr) == b"02", (hex(reg("pc")), g.cmd("m%x,1" % ctr)))
    # Continuing without removing it runs that store and stops before the
    # next one; the store filled the TLB entry of the watched page.
    r = g.cmd("c")
    check("watchpoint stop again", r.startswith(b"T05") and (b"watch:%x;" % ctr) in r and
          reg("pc") == L["store"] and reg("s0") == 4 and g.cmd("m%x,1" % ctr) == b"03",
          (r, hex(reg("pc")), g.cmd("m%x,1" % ctr)))
    out, r = g.monitor("info tlb")
    check("monitor info tlb: the watched page takes the slow path",
          r == b"OK" and re.search(r"0x0*%x rw- watch" % (ctr & ~0xfff), out), out)
    check("z2", g.cmd("z2,%x,8" % ctr) == b"OK", "")
    out, r = g.monitor("info tlb")
    check("monitor info tlb: no watch flag once removed",
          r == b"OK" and "watch" not in out, out)
    r = g.cmd("s")
    check("step runs the store", reg("pc") == L["after_store"] and g.cmd("m%x,1" % ctr) == b"04",
          (hex(reg("pc")), g.cmd("m%x,1" % ctr)))

    # Monitor commands.
    out, r = g.monitor("help")
    check("monitor help", r == b"OK" and all(c in out for c in ("tile", "tb-flush", "dis", "info tlb",
                                                                "info tb", "info blocks",
                                                                "trace on", "bt")), out)
    out, r = g.monitor("tb-flush")
    check("monitor tb-flush", r == b"OK", out)
    out, r = g.monitor("stats")
    check("monitor stats", r == b"OK" and "TBs translated" in out, out)
    out, r = g.monitor("tile t#1")
    check("monitor tile (linux-user)", (r == b"OK" and out.startswith("t#1")) or
          (r.startswith(b"E") and "no tile" in out), out)
    out, r = g.monitor("frobnicate")
    check("monitor unknown", r.startswith(b"E") and "unknown monitor command" in out, out)
    check("qRcmd bad hex", g.cmd("qRcmd,zz").startswith(b"E"), "")

    # Run to the end: exit code 10 reported as W0a.
    r = g.cmd("c")
    check("exit reported", r == b"W0a", r)
    g.close()
    rc, out, err = finish(p)
    check("linx-user exit status", rc == 10, (rc, err))


def test_ctrl_c_and_kill():
    p, port = start([LINX_USER, "-g", "0", spin_elf])
    g = Gdb(port)
    g.no_ack()
    g.send("c")
    time.sleep(0.3)
    g.raw(b"\x03")
    r = g.recv()
    check("Ctrl-C stops with SIGINT", r.startswith(b"T02"), r)
    pc = le64(g.cmd("p18"))
    check("stopped in the loop", pc in (S["spin"], S["spin_body"]), hex(pc))
    out, r = g.monitor("info tb")
    check("monitor info tb: the loop's translation", r == b"OK" and
          re.search(r"TB 0x0*%x-0x[0-9a-f]+ \d+ insns?" % S["spin"], out) and
          re.search(r"^\d+ TBs in the cache", out, re.M), out)
    out, r = g.monitor("info blocks spin 1")
    # The block: the marker, the addi, and the C.BSTOP that the zero bytes
    # after the program decode as.
    check("monitor info blocks", r == b"OK" and "C.BSTART DIRECT" in out and
          "(3 instructions)" in out, out)
    s0 = le64(g.cmd("pb"))
    check("the loop ran", s0 > 100, s0)
    # Again, from a breakpoint-free continue.
    g.send("c")
    time.sleep(0.2)
    g.raw(b"\x03")
    r = g.recv()
    check("second Ctrl-C", r.startswith(b"T02") and le64(g.cmd("pb")) > s0, r)
    check("k answered X09 (lldb waits for it)", g.cmd("k") == b"X09", "")
    rc, out, err = finish(p)
    check("kill ends the guest", rc == 137, (rc, err))
    g.close()


def test_detach_and_close():
    p, port = start([LINX_USER, "-g", "0", loop_elf])
    g = Gdb(port)
    g.no_ack()
    check("Z0 before detach", g.cmd("Z0,%x,2" % L["body"]) == b"OK", "")
    check("D", g.cmd("D") == b"OK", "")
    rc, out, err = finish(p)
    check("detach runs to the end without breakpoints", rc == 10, (rc, err))
    g.close()

    p, port = start([LINX_USER, "-g", "0", loop_elf])
    g = Gdb(port)
    g.cmd("Z0,%x,2" % L["body"])
    g.close()  # the debugger disappears while the guest is stopped
    rc, out, err = finish(p)
    check("closed connection ends the session", rc == 10, (rc, err))

    # linx-user accepts a new debugger after a detach, like linx-system.
    p, port = start([LINX_USER, "-g", "0", spin_elf])
    g = Gdb(port)
    g.no_ack()
    check("user D", g.cmd("D") == b"OK", "")
    g.close()
    time.sleep(0.2)
    g = Gdb(port)
    g.no_ack()
    r = g.cmd("?")
    check("user reattach stops", r.startswith(b"T05") and le64(g.cmd("pb")) > 0, r)
    g.send("k")
    rc, out, err = finish(p)
    check("user kill after reattach", rc == 137, (rc, err))
    g.close()

    p, port = start([LINX_USER, "-g", "0", loop_elf])
    g = Gdb(port)
    g.cmd("vKill;1")
    rc, out, err = finish(p)
    check("vKill", rc == 137, (rc, err))
    g.close()


def test_traps():
    p, port = start([LINX_USER, "-g", "0", trap_elf])
    g = Gdb(port)
    g.no_ack()
    r = g.cmd("c")
    check("ebreak stops with SIGTRAP", r.startswith(b"T05"), r)
    check("at the ebreak", le64(g.cmd("p18")) == T["brk"], g.cmd("p18"))
    r = g.cmd("c")  # no signal: the ebreak is skipped
    check("fault stops with SIGSEGV", r.startswith(b"T0b"), r)
    check("at the load", le64(g.cmd("p18")) == T["fault"], g.cmd("p18"))
    check("s0 incremented after the ebreak", le64(g.cmd("pb")) == 8, g.cmd("pb"))
    r = g.cmd("C0b")  # pass SIGSEGV on: the guest dies of it
    check("death reported", r == b"X0b", r)
    rc, out, err = finish(p)
    check("died of SIGSEGV", rc == 128 + 11, (rc, err))
    g.close()

    # Discarding the fault after fixing the register makes it succeed.
    p, port = start([LINX_USER, "-g", "0", trap_elf])
    g = Gdb(port)
    g.no_ack()
    g.cmd("c")
    r = g.cmd("c")
    check("fault again", r.startswith(b"T0b"), r)
    sp = le64(g.cmd("p1"))
    g.cmd("P3=%s" % hex64(sp))  # a1 = sp: the load now works
    r = g.cmd("c")
    check("fixed and finished", r == b"W08", r)
    rc, out, err = finish(p)
    check("exit 8", rc == 8, (rc, err))
    g.close()


def test_system():
    # -S: stopped before the first instruction.
    p, port = start([LINX_SYSTEM, "-gdb", "tcp::0", "-S", "-kernel", hello_elf])
    g = Gdb(port)
    g.no_ack()
    check("system ?", g.cmd("?").startswith(b"T05"), "")
    check("system pc at entry", le64(g.cmd("p18")) == 0x10000, g.cmd("p18"))
    out, r = g.monitor("tiles")
    check("monitor tiles", r == b"OK", out)
    out, r = g.monitor("tile t#1")
    check("monitor tile t#1", r == b"OK" and "t#1" in out, out)
    out, r = g.monitor("tile acc hex full")
    check("monitor tile acc", r == b"OK" and "acc" in out, out)
    out, r = g.monitor("tile z#9")
    check("monitor tile bad name", r.startswith(b"E"), out)
    out, r = g.monitor("ssr 0x1f01 0x8000")
    check("monitor ssr write manager", r == b"OK" and "0x0000000000008000" in out, out)
    check("system Z1", g.cmd("Z1,%x,2" % H["putc"]) == b"OK", "")
    r = g.cmd("c")
    # This client did not send qSupported with hwbreak+: no stop reason.
    check("hardware breakpoint stop", r.startswith(b"T05") and b"hwbreak:" not in r, r)
    check("at putc", le64(g.cmd("p18")) == H["putc"], g.cmd("p18"))
    check("system z1", g.cmd("z1,%x,2" % H["putc"]) == b"OK", "")
    r = g.cmd("c")
    check("system exit", r == b"W00", r)
    rc, out, err = finish(p)
    check("linx-system exit", rc == 0 and b"hello" in out, (rc, out, err))
    g.close()

    # No -S: the guest runs; a debugger connecting stops it.
    p, port = start([LINX_SYSTEM, "-gdb", "tcp::0", "-kernel", spin_elf])
    time.sleep(0.3)
    g = Gdb(port)
    g.no_ack()
    r = g.cmd("?")
    check("late attach stops", r.startswith(b"T05"), r)
    s0 = le64(g.cmd("pb"))
    check("it was running", s0 > 0, s0)
    check("system D", g.cmd("D") == b"OK", "")
    g.close()
    time.sleep(0.2)
    g = Gdb(port)  # reconnect
    g.no_ack()
    check("reattach", g.cmd("?").startswith(b"T05") and le64(g.cmd("pb")) > s0, "")
    g.send("k")
    rc, out, err = finish(p)
    check("system kill", rc == 137, (rc, err))
    g.close()


def test_linx_description():
    """-g PORT,tdesc=linx: the pure Linx description, no RISC-V shape."""
    p, port = start([LINX_USER, "-g", "0,tdesc=linx", loop_elf])
    g = Gdb(port)
    g.no_ack()
    target = read_xml(g, "target.xml")
    root = ET.fromstring(target)
    check("linx: no architecture", root.find("architecture") is None, target[:300])
    feats = [f.get("name") for f in root.findall("feature")]
    check("linx: features", feats == ["org.linxisa.linx.core", "org.linxisa.linx.block",
                                      "org.linxisa.linx.clockhands", "org.linxisa.linx.ssr"],
          feats)
    names = {r.get("name"): (f.get("name"), r.attrib) for f in root.findall("feature") for r in f}
    check("linx: no padding", not {"t0", "t1", "t2"} & set(names), sorted(names))
    check("linx: tp is an SSR", names["tp"][0] == "org.linxisa.linx.ssr", names["tp"])
    # DWARF numbers of the LinxISA LLVM backend: Rn = n.
    for n, dw in (("sp", 1), ("a0", 2), ("ra", 10), ("s0", 11), ("x3", 23)):
        check("linx: dwarf_regnum " + n, names[n][1].get("dwarf_regnum") == str(dw), names[n])
    regs = g.cmd("g")
    check("linx: g matches", len(regs) == 16 * len(names) and b"x" not in regs, len(regs))
    check("linx: pc", le64(g.cmd("p18")) == L["_start"], "")
    check("linx: padding numbers unknown", g.cmd("p38").startswith(b"E"), "")
    g.cmd("vKill;1")
    rc, out, err = finish(p)
    check("linx: killed", rc == 137, (rc, err))
    g.close()
    p = subprocess.run([LINX_USER, "-g", "0,tdesc=mips", loop_elf], capture_output=True,
                       text=True, timeout=TIMEOUT)
    check("bad tdesc option", p.returncode == 2 and "tdesc=compat or tdesc=linx" in p.stderr,
          p.stderr)


def test_options():
    p = subprocess.run([LINX_USER, "-g", "notaport", loop_elf], capture_output=True, text=True,
                       timeout=TIMEOUT)
    check("bad -g", p.returncode == 2 and "bad gdb address" in p.stderr, p.stderr)
    p = subprocess.run([LINX_USER, "-g"], capture_output=True, text=True, timeout=TIMEOUT)
    check("-g without a port", p.returncode == 2 and "needs an argument" in p.stderr, p.stderr)
    p = subprocess.run([LINX_SYSTEM, "-S", "-kernel", hello_elf], capture_output=True, text=True,
                       timeout=TIMEOUT)
    check("-S without -s", p.returncode == 2 and "-S" in p.stderr, p.stderr)
    p = subprocess.run([LINX_USER, "-help"], capture_output=True, text=True, timeout=TIMEOUT)
    check("linx-user help lists -g", "-g PORT" in p.stdout, p.stdout)
    p = subprocess.run([LINX_SYSTEM, "-help"], capture_output=True, text=True, timeout=TIMEOUT)
    check("linx-system help lists -gdb", "-gdb tcp::PORT" in p.stdout and "-S " in p.stdout,
          p.stdout)


def refused(port, what):
    """A second debugger connects: it gets an error packet saying why and
    the connection closes (it hung before, waiting for an accept)."""
    g2 = Gdb(port)
    try:
        r = g2.recv()
    except (EOFError, TimeoutError) as e:
        check(what, False, "no refusal packet: %s" % e)
        return
    check(what, r.startswith(b"E.") and b"already attached" in r, r)
    try:
        g2._fill()
        closed = False
    except EOFError:
        closed = True
    except TimeoutError:
        closed = False
    check(what + ": connection closed", closed, "")
    g2.close()


def test_second_connection():
    # linx-user: while the first debugger holds the guest stopped ...
    p, port = start([LINX_USER, "-g", "0", spin_elf])
    g = Gdb(port)
    g.no_ack()
    check("first debugger attached", g.cmd("?").startswith(b"T05"), "")
    refused(port, "user: second connection while stopped")
    # ... the first one goes on working; and while the guest runs.
    check("first debugger still served", g.cmd("?").startswith(b"T05"), "")
    g.send("c")
    time.sleep(0.2)
    refused(port, "user: second connection while running")
    g.raw(b"\x03")
    r = g.recv()
    check("Ctrl-C after the refusal", r.startswith(b"T02") and le64(g.cmd("pb")) > 0, r)
    g.send("k")
    rc, out, err = finish(p)
    check("user: kill after refusals", rc == 137, (rc, err))
    check("user: refusal logged", b"refused a second debugger" in err, err)
    g.close()

    # linx-system -s -S: the same.
    p, port = start([LINX_SYSTEM, "-gdb", "tcp::0", "-S", "-kernel", hello_elf])
    g = Gdb(port)
    g.no_ack()
    check("system: first debugger attached", g.cmd("?").startswith(b"T05"), "")
    refused(port, "system: second connection while stopped")
    r = g.cmd("c")
    check("system: first debugger runs the program", r == b"W00", r)
    rc, out, err = finish(p)
    check("system: exit after refusal", rc == 0 and b"hello" in out, (rc, out, err))
    g.close()


for t in (test_options, test_linx_description, test_session_user, test_ctrl_c_and_kill,
          test_detach_and_close, test_traps, test_system, test_second_connection):
    try:
        t()
    except Exception as e:  # a hang or a crash of the stub shows up here
        check(t.__name__, False, "%s: %s" % (type(e).__name__, e))

if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("all gdbstub checks passed")
