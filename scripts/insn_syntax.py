"""Assembly syntax of every instruction form, for gen-insn-tables.py.

One description drives both the disassembler (target/linx/disas*.c) and the
one-instruction assembler (target/linx/asm-insn.c): for each form this module
derives a *template*, a string of literal text and operand slots

    add\t{r:SrcL}, {rs:SrcR,SrcRType,shamt}, \t->{d:RegDst}

from the catalog's `asm` text and field list (with explicit rules where the
llvm-objdump listings in ../shared/guest/disasm spell a form differently from
the catalog), checks it, and turns it into a table of items with enum kinds
and field ids, so the C side never parses a string mini-language.

Operand slot syntax: {kind:Field,Field,...;arg,arg}.  A field may be left
empty (",,") when a kind's optional operand is absent in the form.  The kinds
(LINX_SYN_* in target/linx/insn-syntax.h) and their args:

  r        5-bit register source (zero, sp, a0.., t#1..u#4)
  d        5-bit destination (t, u, or a register name)
  rs       index/second source: reg, SrcRType suffix, optional <<shamt;
           args: not (".not" instead of ".neg"), shN (fixed shift N)
  i        decimal immediate; arg sN = scaled by 2^N (memory offsets),
           x = sign-extend a field the catalog declares unsigned
  sh       SETC immediate: (imm, shamt) printed as one value
  pc       PC-relative target, printed as an absolute address;
           args sN (field << N), x (sign-extend an unsigned field),
           bN (base = pc + N bytes)
  fall     optional "FALL, target" of FALL headers
  brt      branch kind of C.BSTART.STD/FP (FALL printed as nothing)
  e        named value; arg = table (dtype, vs, tmafn, cubefn, teplop,
           bargfmt, lb, pad, trace, ftype, prf)
  ll       literal with a legacy spelling: {ll:NEW|OLD}
  rr       FENTRY/FEXIT/FRET register range [ra ~ s2]
  ior/iord B.IOR source list / destination list
  iots     B.IOT/B.IOTI source tiles [t#3.reuse, t#2]
  iotd     B.IOT/B.IOTI destination ->u<2KB>; arg reg (B.IOT: size from GPR)
  v        RegId10 source; args f (float domain), base (memory base)
  vd       RegId10 destination (vt, vu, t, ...) with width
  vlane    ", lc0<<k" when the C bit is set; arg sK
  vidx     RegId10 index: reg, type, optional SrcRType, <<shamt;
           args sK (fixed shift), plus (always print <<(K+shamt)), f
  ord      atomic ordering suffix .aq/.rl/.f/.rd from aq, rl, far, rd
  flags    letter flags (hl.qmt.ie): fields named by single letters
  cvt      conversion suffix fd2fs ...; arg = variant
  loc      ".local" when the L bit is set
  ssr      system register name or number
  attr     B.ATTR attribute list
  hint     B.HINT branch/temperature/prefetch list
  flag     ", name" when a 1-bit field is set; {flag:Sat;sat}
  lvpar    legacy tile header named by its TileOpcode (whole instruction)

Each form has one printed template, optionally a legacy printed template
(-M legacy) and parse-only alternative spellings.
"""

import re

KINDS = ["lit", "r", "d", "rs", "i", "sh", "pc", "fall", "brt", "e", "ll", "rr",
         "ior", "iord", "iots", "iotd", "v", "vd", "vlane", "vidx", "ord", "flags",
         "cvt", "loc", "ssr", "attr", "hint", "flag", "lvpar"]

ENUM_TABLES = ["dtype", "vs", "tmafn", "cubefn", "teplop", "bargfmt", "lb", "pad",
               "trace", "ftype", "prf"]

CVT_VARIANTS = ["ff", "fi", "si", "ui", "vff", "vfi", "vii", "vif"]

TPL_PRINT = 0
TPL_LEGACY = 1
TPL_ALT = 2
TPL_LEGACY_ALT = 3

REGS = {"SrcL", "SrcR", "SrcD", "SrcP", "SrcA", "SrcD1", "RegSrc", "RegSrc0",
        "RegSrc1", "RegSrc2"}

DST = ", \t->{d:RegDst}"


class SyntaxError_(Exception):
    pass


def fail(fm, what):
    raise SyntaxError_("%s (%s): %s" % (fm.ident, fm.asm, what))


def fields_of(fm):
    return [n for n, _ in fm.fields]


def print_mnemonic(fm):
    tok = fm.asm.split()[0] if fm.asm else fm.mnemonic
    return fm.mnemonic if tok[0].isupper() else fm.mnemonic.lower()


def access_log2(op):
    """Access size (log2 bytes) from a load/store mnemonic's base name."""
    for prefix, sz in (("LB", 0), ("SB", 0), ("LH", 1), ("SH", 1), ("LW", 2), ("SW", 2),
                       ("LD", 3), ("SD", 3), ("PRF", 0)):
        if op.startswith(prefix):
            return sz
    return 0


def scalar_scale(mnemonic):
    """Immediate offsets of scalar loads/stores are scaled by the access
    size except for the unscaled (.U, .UPO, .UPR) forms."""
    m = mnemonic.upper()
    if m.endswith(".U") or m.endswith(".UPO") or m.endswith(".UPR") or ".PCR" in m:
        return 0
    for p in ("HL.", "C."):
        if m.startswith(p):
            m = m[len(p):]
    return access_log2(m.split(".")[0])


def vector_size(mnemonic):
    m = mnemonic.upper()[2:].replace(".BRG", "")
    return access_log2(m.split(".")[0])


def vector_scale(mnemonic):
    m = mnemonic.upper().replace(".BRG", "")
    if m.endswith(".U"):
        return 0
    return vector_size(mnemonic)


def split_head(asm):
    """Split catalog asm into the mnemonic token and the operand text; the
    mnemonic may contain spaces inside <...> (ld.add<.{aq, rl}>)."""
    n = 0
    for n, ch, depth in bracket_scan(asm):
        if ch == " " and depth == 0:
            return asm[:n], asm[n + 1:]
    return asm, ""


def bracket_scan(s):
    """Yield (index, char, depth) over @s, where "<<" (a shift) and "->" (a
    destination arrow) are not brackets."""
    depth = 0
    i = 0
    while i < len(s):
        if s[i:i + 2] in ("<<", "->"):
            yield i, s[i], depth
            yield i + 1, s[i + 1], depth
            i += 2
            continue
        ch = s[i]
        if ch in "[{<(":
            depth += 1
        elif ch in "]}>)":
            depth -= 1
        yield i, ch, depth
        i += 1


def split_top(s):
    """Split an operand list at top-level commas."""
    out, cur = [], ""
    for _n, ch, depth in bracket_scan(s):
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


IMM_ORDER = ["simm12", "uimm12", "simm5", "uimm5", "simm17", "simm22", "simm24", "uimm24",
             "imm20", "imm32", "simm32", "uimm32", "imm", "uimm", "simm", "uimm17", "uimm19",
             "imm4", "imm5", "imm8", "shamt", "RST_Type", "RRA_Type", "PRED_IMM",
             "SUCC_IMM", "LSR_ID"]


class Ctx:
    def __init__(self, fm):
        self.fm = fm
        self.names = fields_of(fm)
        self.used = set()

    def has(self, f):
        return f in self.names

    def take(self, f):
        if f not in self.names:
            fail(self.fm, "no field " + f)
        self.used.add(f)
        return f

    def next_imm(self):
        for f in IMM_ORDER:
            if f in self.names and f not in self.used:
                return self.take(f)
        fail(self.fm, "no immediate field left")


def reg_token(ctx, tok):
    """A register operand token of the catalog asm ('SrcL', 'srcR', ...)."""
    name = tok[0].upper() + tok[1:]
    if ctx.has(name):
        return "{r:%s}" % ctx.take(name)
    fail(ctx.fm, "register token " + tok)


def rs_token(ctx, tok, vector=False):
    """SrcR with a type suffix and/or shift."""
    args = []
    typ = ctx.take("SrcRType") if ctx.has("SrcRType") else ""
    if ".not" in tok:
        args.append("not")
    sh = ""
    m = re.search(r"<<(\d)\]?$", tok)
    if "<<<shamt>" in tok or "+shamt" in tok:
        sh = ctx.take("shamt")
    elif m:
        args.append("sh" + m.group(1))
    out = "{rs:%s,%s,%s" % (ctx.take("SrcR"), typ, sh)
    return out + (";" + ",".join(args) if args else "") + "}"


# Immediates the catalog declares unsigned but the ISA sign-extends
# (digest 1.6, docs/decisions.md D5): printed signed, accepted either way.
SEXT_IMM_FORMS = {"ADDTPC", "LUI", "HL.ADDTPC", "HL.LUI"}


def imm_token(ctx, tok, scale=0):
    f = ctx.next_imm()
    args = []
    if scale:
        args.append("s%d" % scale)
    if ctx.fm.mnemonic in SEXT_IMM_FORMS:
        args.append("x")
    return "{i:%s%s}" % (f, (";" + ",".join(args)) if args else "")


def mem_operand(ctx, inner, scale):
    parts = split_top(inner)
    base = parts[0]
    out = "[" + reg_token(ctx, base.split("<")[0].split(".")[0])
    for p in parts[1:]:
        if p.startswith("SrcR"):
            out += ", " + rs_token(ctx, p)
        elif re.match(r"[su]?imm", p):
            out += ", " + imm_token(ctx, p, scale)
        else:
            fail(ctx.fm, "memory operand part " + p)
    return out + "]"


def scalar_template(fm):
    """Template of an ordinary scalar form, from the catalog asm text."""
    ctx = Ctx(fm)
    asm = fm.asm
    head, rest = split_head(asm)
    mn = print_mnemonic(fm)
    # Mnemonic suffix kinds.
    if "{T}" in head:
        mn = mn + ".{e:%s;ftype}" % ctx.take("SrcType")
    elif "{srcT2dstT}" in head:
        # FCVTA/M/N/P/Z convert float to integer (the LinxISA manual:
        # "FCVTM converts an FP64, FP32, FP16, or E4M3 source to
        # U64/U32/U16/U8 or S64/S32/S16/S8 with fixed round-down mode").
        variant = {"FCVTA": "fi", "FCVTM": "fi", "FCVTN": "fi", "FCVTP": "fi", "FCVTZ": "fi",
                   "SCVTF": "si", "UCVTF": "ui"}.get(fm.mnemonic, "ff")
        mn = mn + ".{cvt:%s,%s;%s}" % (ctx.take("SrcType"), ctx.take("DstType"), variant)
    elif "{.l1,.l2,.l3}" in head:
        mn = mn + "{e:%s;prf}" % ctx.take("model")
    elif "<.{" in head:
        flds = [ctx.take(f) if ctx.has(f) else "" for f in ("aq", "rl", "far", "rd")]
        mn = mn + "{ord:%s}" % ",".join(flds)
    elif re.search(r"\.\{[a-z,]+\}$", head):
        letters = [f for f in ("i", "h", "e", "s", "r") if ctx.has(f)]
        mn = mn + "{flags:%s}" % ",".join(ctx.take(f) for f in letters)
    scale = scalar_scale(fm.mnemonic)
    ops = split_top(rest)
    out = []
    is_setc_imm = fm.mnemonic.startswith(("SETC.", "HL.SETC.")) and ctx.has("shamt")
    bitfield = {"M": None, "N": None}
    if ctx.has("imms") and ctx.has("imml"):
        bitfield = {"M": "imms", "N": "imml"}
    elif ctx.has("immr") and ctx.has("imml"):
        bitfield = {"M": "immr", "N": "imml"}
    elif ctx.has("immr") and ctx.has("imms"):
        bitfield = {"M": "immr", "N": "imms"}
    i = 0
    while i < len(ops):
        tok = ops[i]
        low = tok.replace(" ", "")
        if low in ("->{t,u,Rd}", "{->t,->u,->Rd}", "->{t,u}"):
            out.append("\t->{d:%s}" % ctx.take("RegDst"))
        elif low == "->Dst0":
            out.append("\t->{d:%s}" % ctx.take("RegDst0"))
        elif low == "Dst1":
            out.append("{d:%s}" % ctx.take("RegDst1"))
        elif low == "->t":
            out.append("->t")
        elif low.lower() in ("->ra", "-ra", "->ra"):
            out.append("->ra")
        elif low == "t#1":
            out.append("t#1")
        elif tok.startswith("["):
            inner = tok[1:tok.rindex("]")]
            if inner in ("symbol", "<symbol>"):
                f = "simm17" if ctx.has("simm17") else "simm"
                out.append("[{pc:%s}]" % ctx.take(f))
            else:
                out.append(mem_operand(ctx, inner, scale))
        elif re.match(r"(Src[LRDPA]1?|src[LR]|RegSrc\d?)$", tok):
            out.append(reg_token(ctx, tok))
        elif tok.startswith("SrcR"):
            out.append(rs_token(ctx, tok))
        elif tok in ("SSR-ID", "SSR_ID"):
            out.append("{ssr:%s}" % ctx.take("SSR_ID"))
        elif tok in ("label", "<label>"):
            f = [x for x in ("simm12", "simm22", "simm17", "simm25") if ctx.has(x)][0]
            out.append("{pc:%s;s1}" % ctx.take(f))
        elif tok in ("M", "N"):
            out.append("{i:%s}" % ctx.take(bitfield[tok]))
        elif is_setc_imm and tok in ("simm", "uimm"):
            f = ctx.next_imm()
            out.append("{sh:%s,%s}" % (f, ctx.take("shamt")))
        elif re.match(r"(simm|uimm|imm|shamt|rst_type|rra_type|pred_imm|succ_imm|LSR_ID)$",
                      tok):
            out.append(imm_token(ctx, tok))
        else:
            fail(fm, "operand token " + tok)
        i += 1
    # Join: destinations carry their own leading ", \t" convention.
    text = mn
    first = True
    for o in out:
        if o.startswith("\t->"):
            text += (", " if not first else "\t") + o
        elif o == "->t" or o == "->ra":
            text += (", " if not first else "\t") + o
        else:
            text += ("\t" if first else ", ") + o
        first = False
    return text, ctx


def vreg(ctx, f, dom, base=False):
    args = []
    if dom:
        args.append("f")
    if base:
        args.append("base")
    return "{v:%s%s}" % (ctx.take(f), (";" + ",".join(args)) if args else "")


def vector_template(fm):
    ctx = Ctx(fm)
    # The catalog spells V.SDI's lane term "<lc0<3>"; every other form has
    # "<lc0<<3>".
    asm = fm.asm.replace("<lc0<3>", "<lc0<<3>")
    head, rest = split_head(asm)
    m = fm.mnemonic
    mn = m.lower()
    dom = m.startswith("V.F") or m.startswith("V.RDF")
    if "<.local>" in head:
        mn += "{loc:%s}" % ctx.take("L")
    if "{st2dt}" in head:
        variant = {"V.FCVT": "vff", "V.FCVTI": "vfi", "V.ICVT": "vii", "V.ICVTF": "vif"}[m]
        mn += ".{cvt:%s,%s;%s}" % (ctx.take("SrcType"), ctx.take("DstType"), variant)
        dom = variant.startswith("vf")
    if "<.{" in head:
        flds = [ctx.take(f) if ctx.has(f) else "" for f in ("aq", "rl", "far", "rd")]
        mn += "{ord:%s}" % ",".join(flds)
    ops = split_top(rest)
    out = []
    k = vector_size(m)
    scale = vector_scale(m)
    for tok in ops:
        t = tok.replace(" ", "")
        if t.startswith("->"):
            out.append("\t->{vd:%s}" % ctx.take("RegDst"))
        elif t.startswith("["):
            inner = split_top(t[1:t.rindex("]")])
            base = inner[0].split("<")[0].split(".")[0]
            s = "[" + vreg(ctx, base, False, base=True)
            for p in inner[1:]:
                if p.startswith("<lc0"):
                    s += "{vlane:%s;s%d}" % (ctx.take("C"), k)
                elif p.startswith("SrcR"):
                    args = ["s%d" % k, "plus"] if "+shamt" in p else []
                    sh = ctx.take("shamt") if "shamt" in p else ""
                    s += ", {vidx:%s,,%s%s}" % (ctx.take("SrcR"), sh,
                                                (";" + ",".join(args)) if args else "")
                elif p.startswith("simm"):
                    s += ", {i:%s%s}" % (ctx.take("simm24"), ";s%d" % scale if scale else "")
                else:
                    fail(fm, "vector memory part " + p)
            out.append(s + "]")
        elif t.startswith("SrcR") and ("<.neg>" in t or "<.not>" in t or "shamt" in t):
            typ = ctx.take("SrcRType") if ctx.has("SrcRType") else ""
            sh = ctx.take("shamt") if "shamt" in t and ctx.has("shamt") else ""
            args = ["f"] if dom else []
            if "<.not>" in t:
                args.append("not")
            out.append("{vidx:%s,%s,%s%s}" % (ctx.take("SrcR"), typ, sh,
                                              (";" + ",".join(args)) if args else ""))
        elif t == "SrcP" and m == "V.PSEL":
            out.append("p")
        elif re.match(r"Src[LRDPA]", t):
            out.append(vreg(ctx, t[:4], dom))
        elif t in ("M", "N"):
            if ctx.has("imms") and ctx.has("imml"):
                f = "imms" if t == "M" else "imml"
            else:
                f = "immr" if t == "M" else "imml"
            out.append("{i:%s}" % ctx.take(f))
        elif t in ("simm", "uimm", "imm", "shamt"):
            out.append("{i:%s}" % ctx.next_imm())
        else:
            fail(fm, "vector operand " + tok)
    text = mn
    first = True
    for o in out:
        if o.startswith("\t->"):
            text += (", " if not first else "\t") + o
        else:
            text += ("\t" if first else ", ") + o
        first = False
    return text, ctx


def bstart_templates(fm):
    """Block headers and block-split forms: (print, legacy, alternatives)."""
    m, i = fm.mnemonic, fm.ident
    names = fields_of(fm)
    dt = "{e:DataType;dtype}"
    if i in ("C_BSTART_COND", "C_BSTART_DIRECT"):
        kind = i.split("_")[-1]
        body = "\t%s, {pc:simm12;s1}" % kind
        return "C.BSTART" + body, "C.BSTART.STD" + body, ["C.BSTART.STD" + body]
    if i in ("C_BSTART_STD", "C_BSTART_FP"):
        mn = "C." + m[2:]
        alts = ["C.BSTART\t{brt:BrType}"] if i == "C_BSTART_STD" else []
        return mn + "\t{brt:BrType}", None, alts
    if m == "C.BSTOP":
        return "C.BSTOP", None, []
    if m.startswith("C.BSTART."):
        return m, None, [m + "\tFALL"]
    if i in ("BSTART_DIRECT", "BSTART_COND"):
        kind = i.split("_")[-1]
        body = "\t%s, {pc:simm25;s1}" % kind
        alts = ["BSTART\tCALL, {pc:simm25;s1}"] if kind == "DIRECT" else []
        return "BSTART" + body, "BSTART.STD" + body, alts
    if m in ("BSTART.STD", "BSTART.FP", "BSTART.SYS", "HL.BSTART.STD", "HL.BSTART.FP",
             "HL.BSTART.SYS"):
        kind = fm.asm.split()[1].split("<")[0].rstrip(",")
        f = "simm" if m.startswith("HL.") else "simm17"
        sh = "" if m.startswith("HL.") else ";s1"
        if kind == "FALL":
            return m + "{fall:%s%s}" % (f, sh), None, []
        if kind in ("RET", "IND", "ICALL"):
            return m + "\t" + kind, None, []
        return m + "\t%s, {pc:%s%s}" % (kind, f, sh), None, []
    if m in ("BSTART.MPAR", "BSTART.MSEQ", "BSTART.VPAR", "BSTART.VSEQ"):
        return m + "\t{e:Mode;vs}", None, []
    if m in ("BSTART.TLOAD", "BSTART.TSTORE", "BSTART.TMOV"):
        fn = m.split(".")[1]
        return "BSTART.TMA\t%s, %s" % (fn, dt), None, [m + "\t" + dt]
    if m == "BSTART.TMA":
        return "BSTART.TMA\t{e:Function;tmafn}, " + dt, None, []
    if m in ("BSTART.TMATMUL", "BSTART.TMATMUL.ACC"):
        new = m.split(".", 1)[1]
        old = new.replace("TMATMUL", "MAMULB")
        return ("BSTART.CUBE\t{ll:%s|%s}, %s" % (new, old, dt), None,
                ["BSTART.%s\t%s" % (new, dt), "BSTART.%s\t%s" % (old, dt)])
    if m == "BSTART.ACCCVT":
        return "BSTART.CUBE\tACCCVT, " + dt, None, ["BSTART.ACCCVT\t" + dt]
    if m == "BSTART.CUBE":
        return "BSTART.CUBE\t{e:Function;cubefn}, " + dt, None, []
    if m in ("BSTART.TEPL", "BSTART.PAR"):
        # The v0.3-era toolchain put every tile header in this encoding
        # space and named it by TileOpcode (33 = TMA TLOAD, 2 = CUBE
        # MAMULB, ...): the lvpar kind prints the whole header.
        legacy = "{lvpar:TileOpcode,DataType}" if m == "BSTART.TEPL" else None
        return m + "\t{e:TileOpcode;teplop}, " + dt, legacy, []
    if m == "BSTART.FIXP":
        return "BSTART.FIXP\t{i:Function}, " + dt, None, []
    if m == "BSTOP":
        return "BSTOP", None, []
    if m == "BSTART CALL":
        return "BSTART.CALL\t{pc:simm12;s1}, {pc:uimm5;s1,b2}, ->ra", None, []
    if m == "HL.BSTART CALL":
        return "HL.BSTART.CALL\t{pc:simm25;s1}, {pc:uimm5;s1,b4}, ->ra", None, []
    if m == "XB":
        return "XB\t{i:ACR_ID}, {i:CROSS_BID}", None, []
    if m in ("FENTRY", "FEXIT", "FRET.RA", "FRET.STK"):
        b, e = ("SrcBegin", "SrcEnd") if "SrcBegin" in names else ("DstBegin", "DstEnd")
        return m + "\t{rr:%s,%s}, sp!, {i:uimm}" % (b, e), None, []
    if m in ("MCOPY", "MSET", "ESAVE", "ERCOV"):
        return m + "\t[{r:RegSrc0}, {r:RegSrc1}, {r:RegSrc2}]", None, []
    return None


def descriptor_templates(fm):
    m, i = fm.mnemonic, fm.ident
    if m == "B.ARG":
        if i == "B_ARG_FORMAT":
            return "B.ARG\t{e:format;bargfmt}", None, []
        return "B.ARG\t" + fm.asm[len("B.ARG "):], None, []
    if m == "B.ATTR":
        return "B.ATTR{attr}", None, ["B.CATR{attr}"]
    if m == "B.DATR":
        return ("B.DATR\t{e:Layout;bargfmt}, {e:DataType;dtype}, {e:Pad;pad}, "
                "cmode={i:CMode}, rmode={i:RMode}{flag:Sat;sat}{flag:Canon;canon}"), None, []
    if m == "B.DIM":
        lb = i[-3:].lower()
        return "B.DIM\t{r:RegSrc}, {i:uimm17}, \t->" + lb, None, []
    if i == "C_B_DIM":
        return "C.B.DIM\t{r:RegSrc}, \t->{e:LoopNest;lb}", None, []
    if i == "C_B_DIMI":
        return "C.B.DIMI\t{i:imm8}, \t->{e:LoopNest;lb}", None, []
    if i == "B_HINT_BR":
        return "B.HINT\t{hint}", None, []
    if i == "B_HINT_TRACE":
        return "B.HINT\t{e:B_E;trace}", None, []
    if m == "B.IOD":
        return ("B.IOD\t{i:DepSrc0}, {i:DepSrc1}, {i:DepSrc2}, \t->{i:DepDst}"), None, []
    if m == "B.IOR":
        return "B.IOR\t{ior:RegSrc0,RegSrc1,RegSrc2},{iord:RegDst}", None, []
    if m in ("B.IOT", "B.IOTI"):
        last = ", last" if i.endswith("G1") else ""
        if m == "B.IOT":
            d = "{iotd:DstTile,RegSrc;reg}"
        else:
            d = "{iotd:DstTile,imm5}"
        return m + "\t{iots}" + last + d, None, []
    if m == "B.TEXT":
        return "B.TEXT\t{pc:simm25;s1}", None, []
    return None


def special_scalar(fm):
    m = fm.mnemonic
    if m == "C.SETRET":
        return "c.setret\t{pc:uimm5;s1}, ->ra", None, []
    if m == "SETRET":
        return "setret\t{pc:imm20;s1}, ->ra", None, []
    if m == "HL.SETRET":
        return "hl.setret\t{pc:imm32;s1,x}, ->ra", None, []
    if m == "C.EBREAK":
        return "c.ebreak\t{i:imm5}", None, ["c.break\t{i:imm5}"]
    if m == "C.SDI" or m == "C.SWI":
        sc = scalar_scale(m)
        return "%s\tt#1, [{r:SrcL}, {i:simm5;s%d}]" % (m.lower(), sc), None, []
    if m == "V.PSEL":
        return None
    return None


def templates(fm):
    """(print, legacy, [alternatives]) templates of a form."""
    for fn in (bstart_templates, descriptor_templates, special_scalar):
        r = fn(fm)
        if r:
            return r
    if fm.length == 64:
        return vector_template(fm)[0], None, []
    return scalar_template(fm)[0], None, []


SLOT_RE = re.compile(r"\{([a-z]+)(?::([^;}]*))?(?:;([^}]*))?\}")


def arg_value(fm, kind, args):
    v = 0
    for a in args:
        if not a:
            continue
        if kind == "e":
            if a not in ENUM_TABLES:
                fail(fm, "unknown enum table " + a)
            v = ENUM_TABLES.index(a)
        elif kind == "cvt":
            v = CVT_VARIANTS.index(a)
        elif kind in ("i", "vlane", "fall") and a[0] == "s":
            v |= int(a[1:])
        elif kind == "i" and a == "x":
            v |= 16
        elif kind == "pc":
            if a[0] == "s":
                v |= int(a[1:])
            elif a == "x":
                v |= 4
            elif a[0] == "b":
                v |= (int(a[1:]) // 2) << 3
        elif kind == "rs":
            if a == "not":
                v |= 4
            elif a.startswith("sh"):
                v |= int(a[2:])
        elif kind == "v":
            v |= {"f": 1, "base": 2}[a]
        elif kind == "vidx":
            if a == "f":
                v |= 1
            elif a == "not":
                v |= 16
            elif a == "plus":
                v |= 8
            elif a[0] == "s":
                v |= int(a[1:]) << 1
        elif kind == "iotd":
            v |= {"reg": 1}[a]
        else:
            fail(fm, "unexpected arg %s for kind %s" % (a, kind))
    return v


def tokenize(fm, tpl, field_ids):
    """Template string -> list of (kind, arg, [field names], text, text2)."""
    items = []
    pos = 0
    names = fields_of(fm)
    for mt in SLOT_RE.finditer(tpl):
        if mt.start() > pos:
            items.append(("lit", 0, [], tpl[pos:mt.start()], None))
        kind, flds, args = mt.group(1), mt.group(2) or "", mt.group(3) or ""
        if kind not in KINDS:
            fail(fm, "unknown kind " + kind)
        text = text2 = None
        if kind == "ll":
            text, text2 = flds.split("|")
            fl = []
        elif kind == "flag":
            fl = [flds]
            text = args
            args = ""
        else:
            fl = flds.split(",") if flds else []
        for f in fl:
            if f and f not in names:
                fail(fm, "template names field %s the form lacks" % f)
        items.append((kind, arg_value(fm, kind, args.split(",")), fl, text, text2))
        pos = mt.end()
    if pos < len(tpl):
        items.append(("lit", 0, [], tpl[pos:], None))
    return items


# Fields some kinds read by fixed name rather than from their slot list.
IMPLICIT_FIELDS = {
    "iots": ["S0V", "S0R", "SrcTile0", "S1V", "S1R", "SrcTile1"],
    "attr": ["T", "atom", "aq", "rl", "far", "DataLayout", "C", "DataType", "PadValue", "DR"],
    "hint": ["L_UL", "temp", "prefetch_size"],
}


def check_coverage(fm, all_items):
    """Every field a template does not mention must be one the printer
    shows through the generic {Field=value} override list; report forms
    whose printed template leaves out a field so docs list them."""
    named = set()
    for kind, _a, fl, _t, _t2 in all_items:
        named.update(f for f in fl if f)
        named.update(IMPLICIT_FIELDS.get(kind, []))
    return [f for f in fields_of(fm) if f not in named]


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'


def emit(forms, header):
    """Return (insn-syntax.c.inc text, docs/insn-syntax.txt text)."""
    c = [header, "/* Included by target/linx/disas-syntax.c only. */\n\n"]
    items = []
    tpls = []  # (form index, flag, start, count)
    listing = [header.replace("/*", "#").replace(" */", "").replace("\n *", "\n#")]
    listing.append("# form | printed template (P), legacy (L), accepted alternatives (A)\n"
                   "# fields not in a template are printed as a trailing {Field=value}\n"
                   "# list when non-zero\n")
    for fm in forms:
        p, leg, alts = templates(fm)
        entries = [(TPL_PRINT, p)]
        if leg:
            entries.append((TPL_LEGACY, leg))
        entries += [(TPL_ALT, a) for a in alts]
        all_items = []
        for flag, t in entries:
            its = tokenize(fm, t, None)
            all_items += its
            tpls.append((fm.index, flag, len(items), len(its)))
            items += its
        hidden = check_coverage(fm, tokenize(fm, p, None))
        for flag, t in entries:
            listing.append("%-22s %s %s%s\n" % (fm.ident, "PLAA"[flag], t.replace("\t", " "),
                                                ("   [hidden: %s]" % " ".join(hidden))
                                                if hidden and flag == TPL_PRINT else ""))
    c.append("static const LinxSynItem linx_syn_item_tab[%d] = {\n" % len(items))
    for kind, arg, fl, text, text2 in items:
        if len(fl) > 4:
            raise SyntaxError_("more than 4 fields in one item: %s" % fl)
        fl = list(fl) + [""] * (4 - len(fl))
        fids = ", ".join("LINX_FLD_%s" % f if f else "LINX_SYN_NOFIELD" for f in fl)
        c.append("    { LINX_SYN_%s, %d, { %s }, %s, %s },\n" % (
            kind.upper(), arg, fids or "LINX_SYN_NOFIELD",
            c_str(text) if text is not None else "NULL",
            c_str(text2) if text2 is not None else "NULL"))
    c.append("};\n\n")
    c.append("static const LinxSynTemplate linx_syn_template_tab[%d] = {\n" % len(tpls))
    for form, flag, start, count in tpls:
        c.append("    { %d, %d, %d, %d },\n" % (form, flag, start, count))
    c.append("};\n\n")
    first = {}
    for n, (form, _f, _s, _c) in enumerate(tpls):
        first.setdefault(form, [n, 0])
        first[form][1] += 1
    # Mnemonic index: the leading literal word of each template (lower
    # case), sorted, so the assembler looks at the few templates whose key
    # is a prefix of the instruction's first word.
    keys = []
    for n, (form, _f, start, _cnt) in enumerate(tpls):
        kind, _a, _fl, text, _t2 = items[start]
        if kind == "lit":
            key = re.split(r"[\s]", text, 1)[0].lower()
        elif kind == "lvpar":
            key = "bstart."
        else:
            raise SyntaxError_("template %d of form %d starts with an operand" % (n, form))
        keys.append((key, n))
    keys.sort()
    c.append("static const LinxSynKey linx_syn_key_tab[%d] = {\n" % len(keys))
    for key, n in keys:
        c.append("    { %s, %d },\n" % (c_str(key), n))
    c.append("};\n\n")
    c.append("static const LinxSynRange linx_syn_form_range[LINX_F__COUNT] = {\n")
    for fm in forms:
        s, cnt = first[fm.index]
        c.append("    { %d, %d }, /* %s */\n" % (s, cnt, fm.ident))
    c.append("};\n")
    return "".join(c), "".join(listing)
