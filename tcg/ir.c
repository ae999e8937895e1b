/*
 * linxemu IR: the context (temps, labels, helper table, op list), the
 * generic emitter, the dumper (-d op / op_opt) and the validator.
 *
 * The op table comes from ir-ops.h (one line per op); everything here is
 * driven by it, so adding an op means adding its line there and its
 * semantics to the interpreter and the backend.
 *
 * Invariants:
 *   - temps [0, nglobals) are the env temp and the globals, registered
 *     before the first ir_reset(); they survive ir_reset(); locals and
 *     constants are numbered after them and dropped by ir_reset();
 *   - the helper table only grows (indices are baked into the op lists
 *     kept in TBs), so a helper keeps its index for the context's life;
 *   - names of globals are copied, so callers may pass temporary strings.
 */
#include "tcg/ir.h"

#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const IROpInfo ir_op_info[IR_NB_OPS] = {
#define IR_OP(name_, outs_, ins_, consts_, flags_, doc_) \
    [IR_##name_] = { .name = #name_, .nout = (outs_), .nin = (ins_), \
                     .nconst = (consts_), .flags = (flags_), .doc = (doc_) },
#include "ir-ops.h"
#undef IR_OP
};

static const char *const cond_names[] = {
    [IR_COND_NEVER] = "never", [IR_COND_ALWAYS] = "always", [IR_COND_EQ] = "eq",
    [IR_COND_NE] = "ne",       [IR_COND_LT] = "lt",         [IR_COND_GE] = "ge",
    [IR_COND_LE] = "le",       [IR_COND_GT] = "gt",         [IR_COND_LTU] = "ltu",
    [IR_COND_GEU] = "geu",     [IR_COND_LEU] = "leu",       [IR_COND_GTU] = "gtu",
    [IR_COND_TSTEQ] = "tsteq", [IR_COND_TSTNE] = "tstne",
};

#define IR_INITIAL_INSNS 256
#define IR_INITIAL_TEMPS 256
/* The helper table never moves (interpreters on other threads read it
 * while a translation adds to it): a fixed capacity. */
#define IR_MAX_HELPERS 1024

/* ------------------------------------------------------------------ */
/* Context                                                             */
/* ------------------------------------------------------------------ */

IRContext *ir_context_new(void)
{
    IRContext *ir = g_new0(IRContext, 1);
    IRTempInfo *env;

    ir->insns_cap = IR_INITIAL_INSNS;
    ir->insns = g_new(IRInsn, ir->insns_cap);
    ir->temps_cap = IR_INITIAL_TEMPS;
    ir->temps = g_new0(IRTempInfo, ir->temps_cap);
    ir->helpers_cap = IR_MAX_HELPERS;
    ir->helpers = g_new0(const IRHelperInfo *, ir->helpers_cap);

    /* Temp 0 is the CPU-state pointer. */
    env = &ir->temps[0];
    env->kind = IR_TEMP_FIXED;
    env->name = "env";
    ir->env = 0;
    ir->ntemps = 1;
    ir->nglobals = 1;
    return ir;
}

void ir_context_free(IRContext *ir)
{
    if (!ir) {
        return;
    }
    for (unsigned i = 1; i < ir->nglobals; i++) {
        g_free((char *)ir->temps[i].name);
    }
    for (unsigned i = 0; i < IR_NB_PASS_SCRATCH; i++) {
        if (ir->pass_scratch[i].p && ir->pass_scratch[i].free) {
            ir->pass_scratch[i].free(ir->pass_scratch[i].p);
        }
    }
    g_free(ir->insns);
    g_free(ir->temps);
    g_free(ir->helpers);
    g_free(ir);
}

static IRTemp new_temp(IRContext *ir, IRTempKind kind)
{
    IRTempInfo *t;

    if (ir->ntemps == ir->temps_cap) {
        ir->temps_cap *= 2;
        ir->temps = g_renew(IRTempInfo, ir->temps, ir->temps_cap);
    }
    t = &ir->temps[ir->ntemps];
    memset(t, 0, sizeof(*t));
    t->kind = kind;
    return ir->ntemps++;
}

IRTemp ir_global(IRContext *ir, int env_offset, const char *name)
{
    IRTemp t;

    /* Globals must come before any local: ir_reset() keeps [0, nglobals). */
    g_assert(ir->ntemps == ir->nglobals);
    t = new_temp(ir, IR_TEMP_GLOBAL);
    ir->temps[t].env_offset = env_offset;
    ir->temps[t].name = g_strdup(name ? name : "global");
    ir->nglobals = ir->ntemps;
    return t;
}

void ir_reset(IRContext *ir)
{
    ir->ninsns = 0;
    ir->ntemps = ir->nglobals;
    ir->nlabels = 0;
    ir->globals_written = 0;
}

IRTemp ir_temp(IRContext *ir)
{
    return new_temp(ir, IR_TEMP_LOCAL);
}

IRTemp ir_const(IRContext *ir, int64_t value)
{
    IRTemp t = new_temp(ir, IR_TEMP_CONST);

    ir->temps[t].value = value;
    return t;
}

IRLabel ir_label(IRContext *ir)
{
    return ir->nlabels++;
}

IRInsn *ir_emit(IRContext *ir, IROpcode op, const uint64_t *args)
{
    const IROpInfo *info = &ir_op_info[op];
    unsigned n = info->nout + info->nin + info->nconst;
    IRInsn *insn;

    if (ir->ninsns == ir->insns_cap) {
        ir->insns_cap *= 2;
        ir->insns = g_renew(IRInsn, ir->insns, ir->insns_cap);
    }
    insn = &ir->insns[ir->ninsns++];
    /* Only the operands the counts name are ever read: the rest of args[]
     * is not cleared (per op, per TB: translation cost). */
    insn->op = op;
    insn->nout = info->nout;
    insn->nin = info->nin;
    insn->nconst = info->nconst;
    insn->dead = 0;
    for (unsigned k = 0; k < n; k++) {
        insn->args[k] = args[k];
    }
    for (unsigned k = 0; k < info->nout; k++) {
        if (args[k] < 64) {
            ir->globals_written |= (uint64_t)1 << args[k];
        }
    }
    if (op == IR_set_label) {
        ir->globals_written = ~(uint64_t)0;
    }
    return insn;
}

unsigned ir_helper_index(IRContext *ir, const IRHelperInfo *h)
{
    for (unsigned i = 0; i < ir->nhelpers; i++) {
        if (ir->helpers[i] == h) {
            return i;
        }
    }
    if (ir->nhelpers == ir->helpers_cap) {
        fprintf(stderr, "linxemu: internal error: more than %u distinct helpers\n",
                ir->helpers_cap);
        abort();
    }
    ir->helpers[ir->nhelpers] = h;
    return ir->nhelpers++;
}

void ir_gen_call(IRContext *ir, const IRHelperInfo *h, IRTemp ret, unsigned nargs,
                 const IRTemp *args)
{
    uint64_t a[IR_MAX_ARGS];
    unsigned n = 0;
    IRInsn *insn;

    g_assert(nargs <= IR_MAX_HELPER_ARGS && nargs == h->nargs);
    g_assert((ret != IR_NO_TEMP) == (h->has_ret != 0));
    if (ret != IR_NO_TEMP) {
        a[n++] = ret;
    }
    for (unsigned i = 0; i < nargs; i++) {
        a[n++] = args[i];
    }
    a[n++] = ir_helper_index(ir, h);
    insn = ir_emit(ir, IR_call, a); /* copies nothing: the call op lists 0+0+1 */
    insn->nout = ret != IR_NO_TEMP;
    insn->nin = nargs;
    insn->nconst = 1;
    memcpy(insn->args, a, n * sizeof(uint64_t));
    /* ir_emit saw no output (the table's counts): record the result. */
    if (ret < 64) {
        ir->globals_written |= (uint64_t)1 << ret;
    }
}

/* ------------------------------------------------------------------ */
/* Dumper                                                              */
/* ------------------------------------------------------------------ */

const char *ir_cond_name(unsigned c)
{
    return c < IR_NB_CONDS ? cond_names[c] : "?";
}

static void dump_temp(const IRTempInfo *temps, unsigned ntemps, uint64_t t, FILE *f)
{
    const IRTempInfo *ti;

    if (t >= ntemps) {
        fprintf(f, "<bad temp %" PRIu64 ">", t);
        return;
    }
    ti = &temps[t];
    switch (ti->kind) {
    case IR_TEMP_FIXED:
    case IR_TEMP_GLOBAL:
        fputs(ti->name ? ti->name : "global", f);
        break;
    case IR_TEMP_CONST:
        fprintf(f, "$0x%" PRIx64, (uint64_t)ti->value);
        break;
    default:
        fprintf(f, "tmp%" PRIu64, t);
        break;
    }
}

static void dump_memop(uint64_t mo, FILE *f)
{
    static const char *const sizes[] = { "8", "16", "32", "64" };

    fprintf(f, "%s%s%s", (mo & IR_MO_SIGN) ? "s" : "u", sizes[mo & IR_MO_SIZE],
            (mo & IR_MO_ALIGN) ? "+al" : "");
}

void ir_dump_insns(const IRInsn *insns, unsigned n, const IRTempInfo *temps, unsigned ntemps,
                   const IRHelperInfo *const *helpers, unsigned nhelpers, void *file)
{
    FILE *f = file;

    for (unsigned i = 0; i < n; i++) {
        const IRInsn *in = &insns[i];
        const uint64_t *c = &in->args[in->nout + in->nin];
        bool first = true;

        if (in->dead) {
            continue;
        }
        if (in->op >= IR_NB_OPS) {
            fprintf(f, " <bad op %u>\n", in->op);
            continue;
        }
        switch (in->op) {
        case IR_insn_start:
            fprintf(f, " ---- 0x%" PRIx64 " (insn %" PRIu64 ")\n", c[0], c[1]);
            continue;
        case IR_set_label:
            fprintf(f, " $L%" PRIu64 ":\n", c[0]);
            continue;
        case IR_call:
            fprintf(f, " call %s", c[0] < nhelpers && helpers[c[0]] ? helpers[c[0]]->name : "?");
            break;
        default:
            fprintf(f, " %s", ir_op_info[in->op].name);
            break;
        }
        for (unsigned k = 0; k < (unsigned)in->nout + in->nin; k++) {
            fputs(first ? " " : ", ", f);
            if (in->op == IR_call && k == 0 && in->nout) {
                dump_temp(temps, ntemps, in->args[k], f);
                fputs(" <-", f);
                first = true;
                continue;
            }
            dump_temp(temps, ntemps, in->args[k], f);
            first = false;
        }
        for (unsigned k = 0; k < in->nconst && in->op != IR_call; k++) {
            fputs(first ? " " : ", ", f);
            first = false;
            switch (in->op) {
            case IR_brcond:
                if (k == 0) {
                    fputs(ir_cond_name(c[0]), f);
                } else {
                    fprintf(f, "$L%" PRIu64, c[1]);
                }
                break;
            case IR_setcond:
            case IR_movcond:
                fputs(ir_cond_name(c[0]), f);
                break;
            case IR_br:
                fprintf(f, "$L%" PRIu64, c[0]);
                break;
            case IR_qemu_ld:
            case IR_qemu_st:
                if (k == 0) {
                    dump_memop(c[0], f);
                } else {
                    fprintf(f, "pc=0x%" PRIx64, c[1]);
                }
                break;
            case IR_discard:
                fprintf(f, "tmp%" PRIu64, c[0]);
                break;
            default:
                if ((int64_t)c[k] < 0) {
                    fprintf(f, "-0x%" PRIx64, -c[k]);
                } else {
                    fprintf(f, "0x%" PRIx64, c[k]);
                }
                break;
            }
        }
        fputc('\n', f);
    }
}

void ir_dump(const IRContext *ir, void *file)
{
    ir_dump_insns(ir->insns, ir->ninsns, ir->temps, ir->ntemps, ir->helpers, ir->nhelpers, file);
}

/* ------------------------------------------------------------------ */
/* Validator                                                           */
/* ------------------------------------------------------------------ */

static bool vfail(FILE *f, unsigned i, const IRInsn *in, const char *why, uint64_t what)
{
    if (f) {
        fprintf(f, "IR invalid at op %u (%s): %s (%" PRIu64 ")\n", i,
                in && in->op < IR_NB_OPS ? ir_op_info[in->op].name : "?", why, what);
    }
    return false;
}

/* Can control not fall through @in? */
static bool is_terminal(const IRContext *ir, const IRInsn *in)
{
    if (in->op == IR_call) {
        uint64_t h = in->args[in->nout + in->nin];
        return h < ir->nhelpers && (ir->helpers[h]->flags & IR_CALL_NORETURN);
    }
    return in->op == IR_exit_tb || in->op == IR_goto_ptr || in->op == IR_br;
}

bool ir_validate(const IRContext *ir, void *file)
{
    FILE *f = file;
    uint8_t *written = g_new0(uint8_t, ir->ntemps ? ir->ntemps : 1);
    uint8_t *label_def = g_new0(uint8_t, ir->nlabels ? ir->nlabels : 1);
    uint8_t *label_use = g_new0(uint8_t, ir->nlabels ? ir->nlabels : 1);
    const IRInsn *last = NULL;
    bool ok = true, goto_tb_pending = false;
    unsigned slots_used = 0;

    for (unsigned i = 0; i < ir->ninsns && ok; i++) {
        const IRInsn *in = &ir->insns[i];
        const IROpInfo *info;
        const uint64_t *c;

        if (in->dead) {
            continue;
        }
        if (in->op >= IR_NB_OPS) {
            ok = vfail(f, i, in, "unknown opcode", in->op);
            break;
        }
        info = &ir_op_info[in->op];
        c = &in->args[in->nout + in->nin];
        /* goto_tb, then plain ops (the unchained path stores the pc),
         * then exit_tb. */
        if (goto_tb_pending && in->op != IR_exit_tb &&
            (info->flags & (IR_F_BB_END | IR_F_CALL | IR_F_MEM))) {
            ok = vfail(f, i, in, "goto_tb must be followed by exit_tb (only plain ops between)",
                       0);
            break;
        }
        if (in->op == IR_exit_tb) {
            goto_tb_pending = false;
        }
        if (in->op == IR_call) {
            const IRHelperInfo *h;
            if (in->nconst != 1 || c[0] >= ir->nhelpers) {
                ok = vfail(f, i, in, "bad helper index", c[0]);
                break;
            }
            h = ir->helpers[c[0]];
            if (in->nin != h->nargs || in->nout != (h->has_ret ? 1 : 0)) {
                ok = vfail(f, i, in, "argument count does not match the helper", in->nin);
                break;
            }
        } else if (in->nout != info->nout || in->nin != info->nin ||
                   in->nconst != info->nconst) {
            ok = vfail(f, i, in, "operand counts do not match the op table", in->nin);
            break;
        }
        if ((unsigned)in->nout + in->nin + in->nconst > IR_MAX_ARGS) {
            ok = vfail(f, i, in, "too many operands", in->nin);
            break;
        }
        /* Inputs: in range; locals written earlier in this extended
         * basic block (locals do not live across labels). */
        for (unsigned k = in->nout; k < (unsigned)in->nout + in->nin; k++) {
            uint64_t t = in->args[k];
            if (t >= ir->ntemps) {
                ok = vfail(f, i, in, "input temp out of range", t);
                break;
            }
            if (ir->temps[t].kind == IR_TEMP_LOCAL && !written[t]) {
                ok = vfail(f, i, in, "local temp read before it is written", t);
                break;
            }
        }
        if (!ok) {
            break;
        }
        for (unsigned k = 0; k < in->nout; k++) {
            uint64_t t = in->args[k];
            if (t >= ir->ntemps) {
                ok = vfail(f, i, in, "output temp out of range", t);
                break;
            }
            if (ir->temps[t].kind == IR_TEMP_CONST || ir->temps[t].kind == IR_TEMP_FIXED) {
                ok = vfail(f, i, in, "output is a constant or the env temp", t);
                break;
            }
            written[t] = 1;
        }
        if (!ok) {
            break;
        }
        switch (in->op) {
        case IR_set_label:
            if (c[0] >= ir->nlabels || label_def[c[0]]) {
                ok = vfail(f, i, in, "label undefined or defined twice", c[0]);
                break;
            }
            label_def[c[0]] = 1;
            for (unsigned t = ir->nglobals; t < ir->ntemps; t++) {
                written[t] = 0;
            }
            break;
        case IR_br:
        case IR_brcond: {
            uint64_t l = in->op == IR_br ? c[0] : c[1];
            if (l >= ir->nlabels) {
                ok = vfail(f, i, in, "label out of range", l);
                break;
            }
            label_use[l] = 1;
            if (in->op == IR_brcond && c[0] >= IR_NB_CONDS) {
                ok = vfail(f, i, in, "bad condition", c[0]);
            }
            break;
        }
        case IR_setcond:
        case IR_movcond:
            if (c[0] >= IR_NB_CONDS) {
                ok = vfail(f, i, in, "bad condition", c[0]);
            }
            break;
        case IR_qemu_ld:
        case IR_qemu_st:
            if (c[0] & ~(uint64_t)(IR_MO_SIZE | IR_MO_SIGN | IR_MO_ALIGN)) {
                ok = vfail(f, i, in, "bad memop", c[0]);
            }
            break;
        case IR_goto_tb:
            if (c[0] > 1 || (slots_used & (1u << c[0]))) {
                ok = vfail(f, i, in, "goto_tb slot not 0/1 or used twice", c[0]);
                break;
            }
            slots_used |= 1u << c[0];
            goto_tb_pending = true;
            break;
        case IR_discard:
            if (c[0] >= ir->ntemps) {
                ok = vfail(f, i, in, "discarded temp out of range", c[0]);
            } else {
                written[c[0]] = 0;
            }
            break;
        default:
            break;
        }
        last = in;
    }
    if (ok && goto_tb_pending) {
        ok = vfail(f, ir->ninsns, NULL, "goto_tb at the end of the list", 0);
    }
    if (ok && (!last || !is_terminal(ir, last))) {
        ok = vfail(f, ir->ninsns, last, "the op list can run off its end (needs exit_tb, "
                   "goto_ptr, br or a no-return call last)", 0);
    }
    for (unsigned l = 0; ok && l < ir->nlabels; l++) {
        if (label_use[l] && !label_def[l]) {
            ok = vfail(f, ir->ninsns, NULL, "branch to a label that is never set", l);
        }
    }
    g_free(written);
    g_free(label_def);
    g_free(label_use);
    return ok;
}
