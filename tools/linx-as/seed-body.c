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
 *  3. A two-part address `[base, lc0<<k]` has no offset: the immediate
 *     form with offset 0 is meant:
 *        v.sw vt#1.sw, [TO, lc0<<2]  =>  v.swi vt#1.sw, [to, lc0<<2, 0]
 *  4. Seed 004's example writes `vt#1,.sw` for `vt#1.sw`: the stray comma
 *     before a type suffix is dropped.
 * Text that needs none of this is returned unchanged (NULL).
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
    size_t n = 1 + as_ident_len(p + 1);
    if (p[0] != '.') {
        return false;
    }
    n = 1;
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
        if (commas == 1 && !immform) {
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
            if (commas == 1) {
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
