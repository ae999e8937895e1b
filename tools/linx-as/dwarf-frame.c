/*
 * linx-as -g: .debug_frame, the call frame information of the FENTRY
 * frame templates, so a stock debugger unwinds LinxISA frames (`bt`,
 * `finish`, `up`, `info frame`).
 *
 * A LinxISA function's frame (docs/frontend.md, linxisa digest 3.4):
 *     FENTRY [Begin ~ End], sp!, S    stores the range Begin..End (by code,
 *                                     wrapping from R23 to R2) at [sp-8],
 *                                     [sp-16], ..., then sp -= S
 *     FRET.STK / FRET.RA              reload the range, sp += S, return
 *     FEXIT                           reload the range, sp += S, fall through
 *                                     (a tail call follows)
 * Each is a whole one-instruction block: the frame exists exactly from the
 * end of FENTRY until FRET/FEXIT has run, and a FRET ends the function's
 * path, so the CFI needs no epilogue rules.  One FDE per function
 * (symbol-types.c) says:
 *     at entry               CFA = sp, return address in ra (the CIE)
 *     after FENTRY           CFA = sp + S; register i of the range saved
 *                            at CFA - 8 * (i + 1)
 *     after FEXIT            CFA = sp, registers restored, until the next
 *                            label past the tail-call block's start (that
 *                            block has none inside)
 *     the entry function     return address undefined: the outermost frame
 * Register numbers: LINX_DWARF_DEBUGGER by default, the numbers stock gdb
 * (riscv:rv64) and the gdb stub's compat description use; --dwarf-regs=llvm
 * for the LinxISA LLVM backend's (target/linx/dwarf-regs.h, decisions D10).
 * Registers without a number (x0-x3 under the default) are not described.
 * Not modelled: sp moved after FENTRY (frames over 32 KiB, alloca).
 */
#include <string.h>

#include "dwarf.h"
#include "target/linx/cpu.h"
#include "target/linx/decode.h"
#include "target/linx/dwarf-regs.h"

enum {
    DW_CFA_advance_loc4 = 0x04,
    DW_CFA_undefined = 0x07,
    DW_CFA_remember_state = 0x0a,
    DW_CFA_restore_state = 0x0b,
    DW_CFA_def_cfa = 0x0c,
    DW_CFA_def_cfa_offset = 0x0e,
    DW_CFA_offset = 0x80,
    DW_CFA_restore = 0xc0,
};

#define CIE_ID 0xffffffffu
#define CIE_VERSION 4 /* carries the address size: gdb would take 4 from an unknown machine */
#define ADDR_SIZE 8
#define DATA_ALIGN (-8)
#define FRAME_SLOT 8
#define MAX_REG_IN_OPCODE 0x3f

static int dwarf_reg(const LinxAs *as, unsigned gpr)
{
    return linx_dwarf_regnum((LinxDwarfRegs)as->opt.dwarf_regs, gpr);
}

static void pad8(DwBuf *b, size_t start)
{
    while ((b->len - start) % ADDR_SIZE) {
        dw_u8(b, 0); /* DW_CFA_nop */
    }
}

static void advance(DwBuf *b, uint64_t *loc, uint64_t to)
{
    if (to > *loc) {
        dw_u8(b, DW_CFA_advance_loc4);
        dw_le(b, to - *loc, 4);
        *loc = to;
    }
}

/* The frame template range, as the translator expands it. */
static unsigned template_range(unsigned begin, unsigned end, uint8_t regs[LINX_NUM_GPRS])
{
    unsigned n = 0, r = begin;

    if (begin < LINX_REG_A0 || begin >= LINX_NUM_GPRS || end < LINX_REG_A0 ||
        end >= LINX_NUM_GPRS) {
        return 0;
    }
    for (;;) {
        regs[n++] = (uint8_t)r;
        if (r == end || n == LINX_NUM_GPRS - LINX_REG_A0) {
            return n;
        }
        r = r == LINX_NUM_GPRS - 1 ? LINX_REG_A0 : r + 1;
    }
}

/* The instruction of statement @st, decoded from the section bytes. */
static bool stmt_insn(const LinxAs *as, const AsStmt *st, LinxInsn *insn)
{
    const AsSection *s = &as->secs[st->sec];

    return st->kind == AS_ST_INSN && s->data && st->off + st->size <= s->size &&
           linx_decode(s->data + st->off, (size_t)st->size, insn) == LINX_DECODE_OK;
}

static void fde(LinxAs *as, const AsFunc *f, DwBuf *b)
{
    const AsSection *sec = &as->secs[f->sec];
    uint64_t start = sec->addr + f->start, loc = start;
    size_t len_off = b->len, body;
    uint8_t regs[LINX_NUM_GPRS];
    unsigned nregs = 0;
    bool after_fexit = false;
    uint64_t fexit_end = 0;

    dw_le(b, 0, 4); /* length, patched */
    body = b->len;
    dw_le(b, 0, 4); /* CIE_pointer: the CIE at offset 0 */
    dw_le(b, start, ADDR_SIZE);
    dw_le(b, f->end - f->start, ADDR_SIZE);
    if (start == as->entry) {
        int ra = dwarf_reg(as, LINX_REG_RA);
        if (ra >= 0) {
            dw_u8(b, DW_CFA_undefined);
            dw_uleb(b, (uint64_t)ra);
        }
    }
    for (uint32_t i = 0; i < as->nstmts; i++) {
        const AsStmt *st = &as->stmts[i];
        LinxInsn insn;
        if (st->sec != f->sec || st->off < f->start || st->off >= f->end || st->failed) {
            continue;
        }
        if (after_fexit && st->kind == AS_ST_LABEL && st->off > fexit_end) {
            advance(b, &loc, sec->addr + st->off);
            dw_u8(b, DW_CFA_restore_state);
            after_fexit = false;
        }
        if (!stmt_insn(as, st, &insn)) {
            continue;
        }
        if (insn.form == LINX_F_FENTRY) {
            uint64_t size = (uint64_t)linx_insn_field(&insn, LINX_FLD_uimm, NULL);
            nregs = template_range((unsigned)linx_insn_field(&insn, LINX_FLD_SrcBegin, NULL),
                                   (unsigned)linx_insn_field(&insn, LINX_FLD_SrcEnd, NULL), regs);
            advance(b, &loc, sec->addr + st->off + insn.len);
            dw_u8(b, DW_CFA_def_cfa_offset);
            dw_uleb(b, size);
            for (unsigned k = 0; k < nregs; k++) {
                int r = dwarf_reg(as, regs[k]);
                if (r < 0 || r > MAX_REG_IN_OPCODE) {
                    continue;
                }
                dw_u8(b, (uint8_t)(DW_CFA_offset | r));
                dw_uleb(b, k + 1); /* CFA - 8 * (k + 1), factored by -8 */
            }
        } else if (insn.form == LINX_F_FEXIT && nregs && !after_fexit) {
            advance(b, &loc, sec->addr + st->off + insn.len);
            dw_u8(b, DW_CFA_remember_state);
            dw_u8(b, DW_CFA_def_cfa_offset);
            dw_uleb(b, 0);
            for (unsigned k = 0; k < nregs; k++) {
                int r = dwarf_reg(as, regs[k]);
                if (r >= 0 && r <= MAX_REG_IN_OPCODE) {
                    dw_u8(b, (uint8_t)(DW_CFA_restore | r));
                }
            }
            after_fexit = true;
            fexit_end = st->off + insn.len;
        }
    }
    pad8(b, len_off);
    dw_patch(b, len_off, b->len - body, 4);
}

void as_dwarf_frame(LinxAs *as, const AsSymInfo *info, DwBuf *b)
{
    int sp = dwarf_reg(as, LINX_REG_SP), ra = dwarf_reg(as, LINX_REG_RA);
    size_t body;

    /* The CIE: CFA = sp at a function's first instruction, the return
     * address in ra. */
    dw_le(b, 0, 4);
    body = b->len;
    dw_le(b, CIE_ID, 4);
    dw_u8(b, CIE_VERSION);
    dw_u8(b, 0); /* augmentation "" */
    dw_u8(b, ADDR_SIZE);
    dw_u8(b, 0);   /* segment selector size */
    dw_uleb(b, 1); /* code alignment factor */
    dw_sleb(b, DATA_ALIGN);
    dw_uleb(b, (uint64_t)ra);
    dw_u8(b, DW_CFA_def_cfa);
    dw_uleb(b, (uint64_t)sp);
    dw_uleb(b, 0);
    pad8(b, 0);
    dw_patch(b, 0, b->len - body, 4);
    for (uint32_t i = 0; i < info->nfuncs; i++) {
        if (info->funcs[i].end > info->funcs[i].start) {
            fde(as, &info->funcs[i], b);
        }
    }
}
