/*
 * Seed 004's kernel-body spellings, mapped to the v0.4 forms before the
 * instruction encoder sees them (digest section 7; docs/assembler.md
 * "Seed kernel bodies").
 *
 *  1. A vector load/store whose base is a scalar import (`ri0`..`ri11`)
 *     and that does not say `.brg` is the bridged global form:
 *        v.lwi [ri0, lc0<<2, 4], ->vt.w   =>  v.lwi.brg [ri0, lc0<<2, 4], ->vt.w
 *     (v0.4 requires .brg for global accesses; tile bases TA..TS stay the
 *     plain local form.)
 *  2. Tile bases are written in upper case in the seed (`TO`): lowered.
 *  3. A two-part address `[base, lc0<<k]` (lane term, no offset) is the
 *     immediate form with offset 0:
 *        v.sw vt#1.sw, [TO, lc0<<2]  =>  v.swi vt#1.sw, [to, lc0<<2, 0]
 *  4. Seed 004's example writes `vt#1,.sw` for `vt#1.sw`: the stray comma
 *     before a type suffix is dropped.
 * Text that needs none of this is returned unchanged (NULL).
 *
 * These spellings are valid v0.4 text with another meaning (a non-.brg
 * access with an ri base is the local form; `[base, idx<<k]` is the
 * register-index form), so the mapping applies only inside a seed kernel
 * body: from a label that a seed MPAR/MSEQ header written before it names
 * as its body, to the block terminator (C.BSTOP/BSTOP) or the next block
 * start, template, section directive or file end.
 */
#include <string.h>

#include "as-internal.h"

#define SEED_MAX_TEXT 512

static bool is_vector_mem(const char *mn, size_t n)
{
    /* v.l* and v.s* memory forms (not v.sll/v.slli/v.srl... shifts, v.sub). */
    static const char *const mem[] = {
        "v.lb", "v.lbu", "v.lh", "v.lhu", "v.lw", "v.lwu", "v.ld",
        "v.lbi", "v.lbui", "v.lhi", "v.lhui", "v.lwi", "v.lwui", "v.ldi",
        "v.sb", "v.sh", "v.sw", "v.sd", "v.sbi", "v.shi", "v.swi", "v.sdi",
    };
    for (size_t i = 0; i < sizeof(mem) / sizeof(mem[0]); i++) {
        if (as_word_eq(mn, n, mem[i])) {
            return true;
        }
    }
    return false;
}

static bool is_tile_base(const char *p, size_t n)
{
    static const char *const bases[] = { "TA", "TB", "TC", "TD", "TO", "TS" };
    for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
        if (n == 2 && strncmp(p, bases[i], 2) == 0) {
            return true;
        }
    }
    return false;
}

static bool is_type_suffix(const char *p)
{
    static const char *const sfx[] = { ".sw", ".uw", ".sd", ".ud", ".sh", ".uh", ".sb", ".ub",
                                        ".fs", ".fd", ".fh", ".w", ".d", ".h", ".b" };
    size_t n = 1;

    if (p[0] != '.') {
        return false;
    }
    while (as_is_ident_char((unsigned char)p[n]) && p[n] != '.') {
        n++;
    }
    for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
        if (as_word_eq(p, n, sfx[i])) {
            return true;
        }
    }
    return false;
}

/* Is the second element of the address at '[' @b a lane term "lc0<<k"? */
static bool lane_term_second(const char *b)
{
    const char *c = strchr(b, ',');
    if (!c) {
        return false;
    }
    c = as_skip_ws(c + 1);
    return (c[0] == 'l' || c[0] == 'L') && (c[1] == 'c' || c[1] == 'C') && c[2] == '0' &&
           !as_is_ident_char((unsigned char)c[3]);
}

void as_seed_body_note(LinxAs *as, const char *name, size_t len)
{
    as_grow((void **)&as->seed_bodies, &as->seed_bodies_cap, as->nseed_bodies + 1, sizeof(char *));
    as->seed_bodies[as->nseed_bodies++] = as_xstrndup(name, len);
}

static bool is_block_boundary(const char *text)
{
    size_t n = 0;
    while (text[n] && !as_is_space((unsigned char)text[n])) {
        n++;
    }
    return as_word_eq(text, n, "C.BSTOP") || as_word_eq(text, n, "BSTOP") ||
           (n >= 6 && as_word_eq(text, 6, "BSTART")) || (n >= 8 && as_word_eq(text, 8, "C.BSTART")) ||
           (n >= 9 && as_word_eq(text, 9, "HL.BSTART"));
}

void as_seed_body_track(LinxAs *as, const AsStmt *st)
{
    switch (st->kind) {
    case AS_ST_LABEL:
        for (uint32_t i = 0; i < as->nseed_bodies && !st->is_numlabel; i++) {
            if (strcmp(as->seed_bodies[i], st->text) == 0) {
                as->in_seed_body = true;
            }
        }
        break;
    case AS_ST_INSN:
        if (is_block_boundary(st->text)) {
            as->in_seed_body = false;
        }
        break;
    case AS_ST_TEMPLATE:
        as->in_seed_body = false;
        break;
    case AS_ST_DIRECTIVE:
        if (st->sec != as->cur_sec) {
            as->in_seed_body = false;
        }
        break;
    default:
        break;
    }
}

char *as_seed_body_rewrite(const char *text)
{
    char out[SEED_MAX_TEXT];
    size_t o = 0, mlen;
    const char *p = text, *bracket;
    bool changed = false, mem, brg, immform;

    if (!((p[0] == 'v' || p[0] == 'V') && p[1] == '.')) {
        return NULL;
    }
    if (strlen(text) + 16 >= sizeof(out)) {
        return NULL;
    }
    mlen = 0;
    while (p[mlen] && !as_is_space((unsigned char)p[mlen])) {
        mlen++;
    }
    brg = mlen > 4 && as_word_eq(p + mlen - 4, 4, ".brg");
    mem = is_vector_mem(p, brg ? mlen - 4 : mlen);
    bracket = strchr(p + mlen, '[');
    immform = mem && (p[(brg ? mlen - 4 : mlen) - 1] == 'i' || p[(brg ? mlen - 4 : mlen) - 1] == 'I');

    /* Mnemonic, with "i" and ".brg" added where needed. */
    memcpy(out, p, brg ? mlen - 4 : mlen);
    o = brg ? mlen - 4 : mlen;
    if (mem && bracket) {
        const char *b = as_skip_ws(bracket + 1);
        size_t bn = as_ident_len(b);
        int commas = 0, depth = 0;
        for (const char *q = bracket + 1; *q && !(depth == 0 && *q == ']'); q++) {
            depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
            commas += depth == 0 && *q == ',';
        }
        if (commas == 1 && !immform && lane_term_second(bracket)) {
            out[o++] = 'i';
            changed = true;
        }
        if (!brg && bn >= 3 && (b[0] == 'r' || b[0] == 'R') && (b[1] == 'i' || b[1] == 'I') &&
            as_is_digit((unsigned char)b[2])) {
            memcpy(out + o, ".brg", 4);
            o += 4;
            changed = true;
        } else if (brg) {
            memcpy(out + o, ".brg", 4);
            o += 4;
        }
    } else if (brg) {
        memcpy(out + o, ".brg", 4);
        o += 4;
    }
    p += mlen;

    /* Operands. */
    while (*p && o + 8 < sizeof(out)) {
        if (*p == ',' && is_type_suffix(as_skip_ws(p + 1)) && o > 0 &&
            (as_is_ident_char((unsigned char)out[o - 1]))) {
            p = as_skip_ws(p + 1); /* "vt#1,.sw" -> "vt#1.sw" */
            changed = true;
            continue;
        }
        if (p == bracket) {
            const char *b = as_skip_ws(p + 1);
            size_t bn = as_ident_len(b);
            out[o++] = '[';
            memcpy(out + o, p + 1, (size_t)(b - (p + 1)));
            o += (size_t)(b - (p + 1));
            if (is_tile_base(b, bn)) {
                out[o++] = (char)(b[0] | 0x20);
                out[o++] = (char)(b[1] | 0x20);
                changed = true;
            } else {
                memcpy(out + o, b, bn);
                o += bn;
            }
            p = b + bn;
            continue;
        }
        if (mem && *p == ']' && bracket && p > bracket && !immform && o > 0) {
            /* Two-part address: add the zero offset of the immediate form. */
            int commas = 0, depth = 0;
            for (const char *q = bracket + 1; q < p; q++) {
                depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
                commas += depth == 0 && *q == ',';
            }
            if (commas == 1 && lane_term_second(bracket)) {
                memcpy(out + o, ", 0", 3);
                o += 3;
            }
        }
        out[o++] = *p++;
    }
    if (*p) {
        return NULL;
    }
    out[o] = '\0';
    return changed ? as_xstrndup(out, o) : NULL;
}
