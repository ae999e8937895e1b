#!/usr/bin/env python3
"""Generate linxemu's instruction tables from the LinxISA v0.4 catalog.

Reads the public ISA catalog (linxisa-v0.4.json) and writes, in the project's
own format:

  target/linx/insn-forms.h       enum of forms and fields, table types
  target/linx/insn-forms.c.inc   the form table, field pieces, dispatch tables
  docs/insn-forms.txt            a readable listing, one line per form
  target/linx/insn-syntax.c.inc  per-form assembly syntax (insn_syntax.py)
  docs/insn-syntax.txt           a readable listing of that syntax

The generated files are committed; the build never needs the catalog.
`meson compile -C build check-insn-tables` regenerates into a temporary
directory and fails when the committed copy differs.

Usage: gen-insn-tables.py [--catalog PATH] [--outdir DIR]
"""

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import insn_syntax  # noqa: E402

DEFAULT_CATALOG = os.path.join(os.path.dirname(__file__), "..", "..", "shared",
                               "isa", "v0.4", "linxisa-v0.4.json")

# Forms the project adds to the catalog (docs/decisions.md).  Same shape as
# catalog entries, reduced to what this script reads.
EXTENSION_FORMS = [
    {
        # Seed 000's layout descriptor.  v0.4 leaves opcode 0x23 funct3 001
        # free; LinxISA's later "PTO ISA 0.58" profile puts B.DATR there with
        # these fields.
        "mnemonic": "B.DATR",
        "asm": "B.DATR Layout",
        "group": "Block Descriptor",
        "uop_big_kind": "CMD",
        "length_bits": 32,
        "extension": True,
        "encoding": {"parts": [{
            "width_bits": 32, "mask": "0x0000707f", "match": "0x00001023",
            "fields": [
                {"name": "CMode", "signed": None, "pieces": [{"insn_msb": 31, "insn_lsb": 29}]},
                {"name": "Pad", "signed": None, "pieces": [{"insn_msb": 28, "insn_lsb": 27}]},
                {"name": "Sat", "signed": None, "pieces": [{"insn_msb": 26, "insn_lsb": 26}]},
                {"name": "Canon", "signed": None, "pieces": [{"insn_msb": 25, "insn_lsb": 25}]},
                {"name": "DataType", "signed": None, "pieces": [{"insn_msb": 24, "insn_lsb": 20}]},
                {"name": "RMode", "signed": None, "pieces": [{"insn_msb": 17, "insn_lsb": 15}]},
                # Not assigned by the profile; a field so that no bit of a
                # decoded word is lost when it is printed and reassembled.
                {"name": "reserve", "signed": None, "pieces": [{"insn_msb": 19, "insn_lsb": 18}]},
                {"name": "Layout", "signed": None, "pieces": [{"insn_msb": 11, "insn_lsb": 7}]},
            ]}]},
    },
]

# Forms that share their exact encoding with another form and are only an
# alternative spelling: decoded as the named form, accepted by the assembler.
ENCODING_ALIASES = {
    "BSTART.PAR": "BSTART.TEPL",
}

# Catalog pseudo-forms that are really two ordinary instructions (a BSTART
# followed by C.SETRET).  They do not obey the length rule, so they stay out
# of the length-indexed dispatch tables.
FUSED_PAIR_FORMS = {"BSTART CALL", "HL.BSTART CALL"}

CONSTRAINT_CONSTS = {"RA": 10}

UOP_KINDS = ["AGU", "ALU", "AMO", "BBD", "BRU", "CMD", "FSU", "SYS", "VEC"]
LEN_CLASS = {16: 0, 32: 1, 48: 2, 64: 3}


def c_ident(s):
    s = re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")
    return s


def field_name(raw):
    """Catalog field name -> the project's field identifier."""
    name = raw.split("=")[0]
    if name in ("SSRID", "SSR-ID"):
        name = "SSR_ID"
    return c_ident(name)


def variant_suffix(form):
    """A short, stable suffix telling apart forms that share a mnemonic."""
    asm = form["asm"]
    rest = asm[len(form["mnemonic"]):].strip() if asm.upper().startswith(
        form["mnemonic"].upper()) else asm.split(None, 1)[1] if " " in asm else ""
    m = re.search(r"group=(\d)", rest)
    if m:
        return "G" + m.group(1)
    m = re.search(r"->\s*(LB\d)", rest)
    if m:
        return m.group(1)
    tok = rest.split(",")[0].strip()
    tok = tok.lstrip("{").split(",")[0]
    tok = re.sub(r"[<{].*", "", tok)
    return c_ident(tok).upper()


def parse_int(s):
    return int(s, 16) if isinstance(s, str) else int(s)


class Form:
    pass


def load_forms(catalog_path):
    with open(catalog_path) as f:
        cat = json.load(f)
    raw_forms = list(cat["instructions"]) + EXTENSION_FORMS
    if len(cat["instructions"]) != cat.get("instruction_count", 740):
        sys.exit("catalog instruction_count disagrees with its list")

    by_mnemonic = {}
    for r in raw_forms:
        by_mnemonic.setdefault(r["mnemonic"], []).append(r)

    forms = []
    for r in raw_forms:
        fm = Form()
        fm.mnemonic = r["mnemonic"]
        fm.asm = " ".join(r["asm"].split())
        fm.group = r.get("group", "")
        fm.uop = r.get("uop_big_kind", "SYS")
        fm.length = r["length_bits"]
        fm.extension = bool(r.get("extension"))
        fm.fused = fm.mnemonic in FUSED_PAIR_FORMS
        fm.alias_of = ENCODING_ALIASES.get(fm.mnemonic)
        base = c_ident(fm.mnemonic).upper()
        if len(by_mnemonic[fm.mnemonic]) > 1:
            base += "_" + variant_suffix(r)
        fm.ident = base

        parts = r["encoding"]["parts"]
        mask = match = 0
        shift = 0
        fields = {}
        order = []
        constraints = []
        for p in parts:
            pm = parse_int(p["mask"])
            pv = parse_int(p["match"])
            mask |= pm << shift
            match |= pv << shift
            for fld in p["fields"]:
                name = field_name(fld["name"])
                if name not in fields:
                    fields[name] = {"signed": bool(fld.get("signed")), "pieces": []}
                    order.append(name)
                for pc in fld["pieces"]:
                    msb = pc["insn_msb"] + shift
                    lsb = pc["insn_lsb"] + shift
                    width = msb - lsb + 1
                    if "value_lsb" in pc:
                        vlsb = pc["value_lsb"]
                        if pc["value_msb"] - vlsb + 1 != width:
                            sys.exit("%s: piece width mismatch" % fm.mnemonic)
                    else:
                        vlsb = None
                    fields[name]["pieces"].append([msb, lsb, vlsb])
                if fld.get("signed"):
                    fields[name]["signed"] = True
            for c in p.get("constraints", []):
                val = c["value"]
                val = CONSTRAINT_CONSTS.get(val, val)
                constraints.append((field_name(c["field"]), c["op"], int(val)))
            shift += p["width_bits"]
        if shift != fm.length:
            sys.exit("%s: parts do not add up to the length" % fm.mnemonic)
        # Pieces without value positions: a single piece starts at value bit
        # 0; several pieces without positions are concatenated msb-first.
        for name, fd in fields.items():
            pcs = fd["pieces"]
            if any(p[2] is None for p in pcs):
                if all(p[2] is None for p in pcs):
                    v = 0
                    for p in reversed(pcs):
                        p[2] = v
                        v += p[0] - p[1] + 1
                else:
                    sys.exit("%s.%s: mixed piece forms" % (fm.mnemonic, name))
            fd["width"] = max(p[2] + p[0] - p[1] + 1 for p in pcs)
            covered = 0
            for p in pcs:
                covered |= ((1 << (p[0] - p[1] + 1)) - 1) << p[1]
            if covered & mask:
                sys.exit("%s.%s overlaps fixed bits" % (fm.mnemonic, name))
        fm.mask = mask
        fm.match = match
        fm.fields = [(n, fields[n]) for n in order]
        fm.constraints = constraints
        if match & ~mask:
            sys.exit("%s: match has bits outside mask" % fm.mnemonic)
        forms.append(fm)

    idents = {}
    for fm in forms:
        if fm.ident in idents:
            sys.exit("duplicate form identifier %s (%s / %s)" %
                     (fm.ident, fm.asm, idents[fm.ident].asm))
        idents[fm.ident] = fm
    forms.sort(key=lambda f: (LEN_CLASS[f.length], f.mnemonic, f.ident))
    return forms


def popcount(x):
    return bin(x).count("1")


def choose_key_bits(forms, width, max_bits):
    """Greedy choice of dispatch key bits: each step adds the bit that most
    reduces the largest bucket (forms with a don't-care bit go to both)."""
    chosen = []
    candidates = [b for b in range(width)
                  if sum(1 for f in forms if f.mask >> b & 1) * 2 >= len(forms)]

    def worst(bits):
        buckets = {(): forms}
        for b in bits:
            nb = {}
            for k, fl in buckets.items():
                for v in (0, 1):
                    nb[k + (v,)] = [f for f in fl
                                    if not (f.mask >> b & 1) or (f.match >> b & 1) == v]
            buckets = nb
        return max(len(v) for v in buckets.values()), sum(len(v) for v in buckets.values())

    current = worst(chosen)
    while len(chosen) < max_bits:
        best = None
        for b in candidates:
            if b in chosen:
                continue
            w = worst(chosen + [b])
            if best is None or w < best[0]:
                best = (w, b)
        if best is None or best[0] >= current:
            break
        chosen.append(best[1])
        current = best[0]
    return sorted(chosen)


def bit_runs(bits):
    runs = []
    for b in bits:
        if runs and runs[-1][0] + runs[-1][1] == b:
            runs[-1][1] += 1
        else:
            runs.append([b, 1])
    return runs


def build_dispatch(forms, field_ids):
    classes = []
    entries = []
    for length in (16, 32, 48, 64):
        fl = [f for f in forms if f.length == length and not f.fused and not f.alias_of]
        # Most specific first; ties keep catalog-independent name order.
        fl.sort(key=lambda f: (-popcount(f.mask), f.ident))
        bits = choose_key_bits(fl, length, 11 if length != 16 else 8)
        runs = bit_runs(bits)
        nkeys = 1 << len(bits)
        table = []
        for key in range(nkeys):
            lst = []
            for f in fl:
                ok = True
                for i, b in enumerate(bits):
                    if f.mask >> b & 1 and (f.match >> b & 1) != (key >> i & 1):
                        ok = False
                        break
                if ok:
                    lst.append(f.index)
            table.append((len(entries), len(lst)))
            entries.extend(lst)
        classes.append({"length": length, "bits": bits, "runs": runs, "table": table,
                        "max": max(t[1] for t in table)})
    return classes, entries


def check_ambiguity(forms):
    """List pairs of forms that can match the same word, so the resolution
    rules (most mask bits, constraints, documented exceptions) stay visible."""
    out = []
    for length in (16, 32, 48, 64):
        fl = [f for f in forms if f.length == length and not f.fused]
        for i, a in enumerate(fl):
            for b in fl[i + 1:]:
                common = a.mask & b.mask
                if (a.match & common) == (b.match & common):
                    out.append((a, b))
    return out


def emit(forms, outdir, catalog_name):
    field_ids = []
    for f in forms:
        for n, _ in f.fields:
            if n not in field_ids:
                field_ids.append(n)
        for c in f.constraints:
            if c[0] not in field_ids:
                sys.exit("constraint on unknown field " + c[0])
    field_ids.sort(key=lambda s: s.lower())
    for i, f in enumerate(forms):
        f.index = i
    max_fields = max(len(f.fields) for f in forms)

    classes, entries = build_dispatch(forms, field_ids)
    header = ("/* GENERATED by scripts/gen-insn-tables.py from %s -- do not edit.\n"
              " * Rebuild: meson compile -C build regen-insn-tables */\n" % catalog_name)

    h = [header]
    h.append("#ifndef LINX_INSN_FORMS_H\n#define LINX_INSN_FORMS_H\n\n")
    h.append("#define LINX_NUM_CATALOG_FORMS %d\n" % sum(1 for f in forms if not f.extension))
    h.append("#define LINX_MAX_FIELDS %d\n\n" % max_fields)
    h.append("typedef enum LinxFormId {\n")
    for f in forms:
        h.append("    LINX_F_%s, /* %s */\n" % (f.ident, f.asm.replace("*/", "* /")))
    h.append("    LINX_F__COUNT\n} LinxFormId;\n\n")
    h.append("typedef enum LinxFieldId {\n")
    for n in field_ids:
        h.append("    LINX_FLD_%s,\n" % n)
    h.append("    LINX_FLD__COUNT\n} LinxFieldId;\n\n")
    h.append("#endif /* LINX_INSN_FORMS_H */\n")

    c = [header]
    c.append("/* Included by target/linx/insn-table.c only. */\n\n")
    c.append("const char *const linx_field_names[LINX_FLD__COUNT] = {\n")
    for n in field_ids:
        c.append('    "%s",\n' % n)
    c.append("};\n\n")

    pieces = []
    flds = []
    for f in forms:
        f.field_start = len(flds)
        for n, fd in f.fields:
            start = len(pieces)
            for msb, lsb, vlsb in fd["pieces"]:
                pieces.append((lsb, msb - lsb + 1, vlsb))
            flds.append((n, fd["signed"], fd["width"], start, len(fd["pieces"])))
    c.append("static const LinxFieldPiece linx_field_pieces_tab[%d] = {\n" % len(pieces))
    for lsb, w, vlsb in pieces:
        c.append("    { %d, %d, %d },\n" % (lsb, w, vlsb))
    c.append("};\n\n")
    c.append("static const LinxFormField linx_form_fields_tab[%d] = {\n" % len(flds))
    for n, sgn, w, start, cnt in flds:
        c.append("    { LINX_FLD_%s, %d, %d, %d, %d },\n" % (n, 1 if sgn else 0, w, start, cnt))
    c.append("};\n\n")

    cons = []
    for f in forms:
        f.cons_start = len(cons)
        cons.extend(f.constraints)
    ops = {"!=": "LINX_CONS_NE", ">=": "LINX_CONS_GE", "==": "LINX_CONS_EQ", "<": "LINX_CONS_LT"}
    c.append("static const LinxConstraint linx_constraints[%d] = {\n" % max(1, len(cons)))
    for fld, op, val in cons:
        c.append("    { LINX_FLD_%s, %s, %d },\n" % (fld, ops[op], val))
    c.append("};\n\n")

    c.append("const LinxFormInfo linx_forms[LINX_F__COUNT] = {\n")
    for f in forms:
        flags = []
        if f.fused:
            flags.append("LINX_FORMF_FUSED_PAIR")
        if f.alias_of:
            flags.append("LINX_FORMF_ALIAS")
        if f.extension:
            flags.append("LINX_FORMF_EXTENSION")
        alias = "LINX_F_" + [g for g in forms if g.mnemonic == f.alias_of][0].ident \
            if f.alias_of else "LINX_F_" + f.ident
        c.append('    [LINX_F_%s] = { "%s", "%s", "%s", %d, LINX_UOP_%s, %s,\n'
                 '        UINT64_C(0x%x), UINT64_C(0x%x), %d, %d, %d, %d, %s },\n'
                 % (f.ident, f.mnemonic, f.asm.replace('"', '\\"'), f.group, f.length // 8,
                    f.uop, " | ".join(flags) or "0", f.mask, f.match,
                    f.field_start, len(f.fields), f.cons_start, len(f.constraints), alias))
    c.append("};\n\n")

    c.append("static const uint16_t linx_dispatch_entries_tab[%d] = {\n" % len(entries))
    for i in range(0, len(entries), 12):
        c.append("    " + ", ".join(str(e) for e in entries[i:i + 12]) + ",\n")
    c.append("};\n\n")
    for cl in classes:
        c.append("static const LinxDispatchSlot linx_dispatch_%d[%d] = {\n"
                 % (cl["length"], len(cl["table"])))
        for start, cnt in cl["table"]:
            c.append("    { %d, %d },\n" % (start, cnt))
        c.append("};\n\n")
    c.append("static const LinxDispatchClass linx_dispatch[4] = {\n")
    for cl in classes:
        runs = ", ".join("{ %d, %d }" % (lsb, w) for lsb, w in cl["runs"])
        c.append("    { %d, linx_dispatch_%d, %d, { %s } }, /* key bits %s, max %d candidates */\n"
                 % (len(cl["runs"]), cl["length"], cl["length"] // 8, runs,
                    ",".join(map(str, cl["bits"])), cl["max"]))
    c.append("};\n")

    lst = [header.replace("/*", "#").replace(" */", "").replace("\n *", "\n#")]
    lst.append("# form | len | uop | mask/match | fields (name[s]:msb-lsb>value_lsb...) | constraints\n")
    for f in forms:
        fs = []
        for n, fd in f.fields:
            fs.append("%s%s:%s" % (n, "s" if fd["signed"] else "", ",".join(
                "%d-%d>%d" % (p[0], p[1], p[2]) for p in fd["pieces"])))
        notes = []
        if f.fused:
            notes.append("fused pair")
        if f.alias_of:
            notes.append("alias of " + f.alias_of)
        if f.extension:
            notes.append("linxemu extension")
        lst.append("%-22s | %2d | %s | %0*x/%0*x | %s | %s%s\n" % (
            f.ident, f.length, f.uop, f.length // 4, f.mask, f.length // 4, f.match,
            " ".join(fs), " ".join("%s%s%d" % c2 for c2 in f.constraints),
            (" [" + "; ".join(notes) + "]") if notes else ""))
    lst.append("\n# Encodings matched by more than one form, and how decoding resolves them:\n")
    for a, b in check_ambiguity(forms):
        if a.alias_of == b.mnemonic or b.alias_of == a.mnemonic:
            rule = "identical encoding; %s is the alias" % (a.ident if a.alias_of else b.ident)
        elif a.constraints or b.constraints:
            rule = "constraints"
        elif popcount(a.mask) != popcount(b.mask):
            win = a if popcount(a.mask) > popcount(b.mask) else b
            rule = "most mask bits: %s" % win.ident
        else:
            rule = "UNRESOLVED"
        lst.append("#   %s ~ %s: %s\n" % (a.ident, b.ident, rule))

    try:
        syn_c, syn_txt = insn_syntax.emit(forms, header)
    except insn_syntax.SyntaxError_ as e:
        sys.exit("syntax table: %s" % e)
    files = {
        os.path.join("target", "linx", "insn-forms.h"): "".join(h),
        os.path.join("target", "linx", "insn-forms.c.inc"): "".join(c),
        os.path.join("docs", "insn-forms.txt"): "".join(lst),
        os.path.join("target", "linx", "insn-syntax.c.inc"): syn_c,
        os.path.join("docs", "insn-syntax.txt"): syn_txt,
    }
    for rel, text in files.items():
        path = os.path.join(outdir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    if any("UNRESOLVED" in l for l in lst):
        sys.exit("unresolved decode ambiguity; see docs/insn-forms.txt")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--catalog", default=os.environ.get("LINX_ISA_CATALOG", DEFAULT_CATALOG))
    ap.add_argument("--outdir", default=os.path.join(os.path.dirname(__file__), ".."))
    args = ap.parse_args()
    if not os.path.exists(args.catalog):
        sys.exit("catalog not found: %s (pass --catalog PATH)" % args.catalog)
    forms = load_forms(args.catalog)
    emit(forms, args.outdir, os.path.basename(args.catalog))


if __name__ == "__main__":
    main()
