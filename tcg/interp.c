/*
 * The IR interpreter (see interp.h for the contract).
 *
 * Each op is one case of a switch over the kept op list.  Operands are
 * reached through a per-TB table of pointers (InterpProg.ptr): globals
 * point into env, locals into the interpreter's frame, constants at the
 * TB's own copy of the constant, the env temp at a slot holding the env
 * pointer.  So "o0 = i0 + i1" is *P(0) = *P(1) + *P(2) whatever the temp
 * kinds are, and globals are always current in env.
 *
 * Semantics follow ir-ops.h exactly: arithmetic wraps modulo 2^64, shift
 * counts are taken modulo 64, clz/ctz of 0 are 64, host memory is read
 * and written with memcpy (no alignment assumption), guest memory goes
 * through linx_ld/linx_st (softmmu.h).
 */
#include "tcg/interp.h"

#include <ffi.h>
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcg/softmmu.h"

typedef struct InterpProg {
    const CPULinxState *bound_env;
    const uint64_t *bound_frame;
    uint64_t env_value;  /* what the env temp reads as */
    uint32_t nlabels;
    uint32_t *label_pos; /* op index of each set_label */
    uint64_t **ptr;      /* per temp */
} InterpProg;

typedef struct InterpCif {
    bool ready;
    ffi_cif cif;
} InterpCif;

struct LinxInterp {
    const IRContext *ir;
    InterpCif *cifs;
    unsigned ncifs;
    ffi_type *arg_types[IR_MAX_HELPER_ARGS];
    uint64_t *frame;
    unsigned frame_size;
    bool no_chain;
    InterpStats stats;
};

#define LABEL_UNSET UINT32_MAX

LinxInterp *interp_new(const IRContext *ir)
{
    LinxInterp *it = g_new0(LinxInterp, 1);

    it->ir = ir;
    for (unsigned i = 0; i < IR_MAX_HELPER_ARGS; i++) {
        it->arg_types[i] = &ffi_type_uint64;
    }
    it->frame_size = 64;
    it->frame = g_new0(uint64_t, it->frame_size);
    return it;
}

void interp_free(LinxInterp *it)
{
    if (!it) {
        return;
    }
    g_free(it->cifs);
    g_free(it->frame);
    g_free(it);
}

void interp_get_stats(const LinxInterp *it, InterpStats *st)
{
    *st = it->stats;
}

void interp_set_chaining(LinxInterp *it, bool on)
{
    it->no_chain = !on;
}

void interp_tb_release(TranslationBlock *tb)
{
    InterpProg *p = tb->interp_prog;

    if (p) {
        g_free(p->label_pos);
        g_free(p->ptr);
        g_free(p);
        tb->interp_prog = NULL;
    }
}

static _Noreturn void interp_fatal(const TranslationBlock *tb, unsigned i, const char *why)
{
    fprintf(stderr, "linxemu: internal error: IR of the TB at pc 0x%" PRIx64
            " op %u: %s\n", tb->pc, i, why);
    abort();
}

/* Build (or rebind) the prepared program of @tb for @env. */
static InterpProg *prepare(LinxInterp *it, CPULinxState *env, TranslationBlock *tb)
{
    InterpProg *p = tb->interp_prog;

    if (p && p->bound_env == env && p->bound_frame == it->frame) {
        return p;
    }
    if (tb->ntemps > it->frame_size) {
        while (it->frame_size < tb->ntemps) {
            it->frame_size *= 2;
        }
        it->frame = g_renew(uint64_t, it->frame, it->frame_size);
        memset(it->frame, 0, it->frame_size * sizeof(uint64_t));
    }
    if (!p) {
        uint32_t nlabels = 0;
        p = g_new0(InterpProg, 1);
        for (unsigned i = 0; i < tb->nir; i++) {
            const IRInsn *in = &tb->ir[i];
            if (in->op == IR_set_label || in->op == IR_br) {
                nlabels = MAX(nlabels, (uint32_t)in->args[in->nout + in->nin] + 1);
            } else if (in->op == IR_brcond) {
                nlabels = MAX(nlabels, (uint32_t)in->args[in->nout + in->nin + 1] + 1);
            }
        }
        p->nlabels = nlabels;
        p->label_pos = g_new(uint32_t, nlabels ? nlabels : 1);
        for (unsigned l = 0; l < nlabels; l++) {
            p->label_pos[l] = LABEL_UNSET;
        }
        for (unsigned i = 0; i < tb->nir; i++) {
            if (tb->ir[i].op == IR_set_label) {
                p->label_pos[tb->ir[i].args[0]] = i;
            }
        }
        for (unsigned i = 0; i < tb->nir; i++) {
            const IRInsn *in = &tb->ir[i];
            if (in->op >= IR_NB_OPS) {
                interp_fatal(tb, i, "unknown opcode");
            }
            if ((in->op == IR_br && p->label_pos[in->args[0]] == LABEL_UNSET) ||
                (in->op == IR_brcond && p->label_pos[in->args[3]] == LABEL_UNSET)) {
                interp_fatal(tb, i, "branch to a label that is never set");
            }
            for (unsigned k = 0; k < (unsigned)in->nout + in->nin; k++) {
                if (in->args[k] >= tb->ntemps) {
                    interp_fatal(tb, i, "temp out of range");
                }
            }
        }
        p->ptr = g_new(uint64_t *, tb->ntemps ? tb->ntemps : 1);
        tb->interp_prog = p;
    }
    p->bound_env = env;
    p->bound_frame = it->frame;
    p->env_value = (uint64_t)(uintptr_t)env;
    for (unsigned t = 0; t < tb->ntemps; t++) {
        const IRTempInfo *ti = &tb->temps[t];
        switch (ti->kind) {
        case IR_TEMP_FIXED:
            p->ptr[t] = &p->env_value;
            break;
        case IR_TEMP_GLOBAL:
            p->ptr[t] = (uint64_t *)((uint8_t *)env + ti->env_offset);
            break;
        case IR_TEMP_CONST:
            p->ptr[t] = (uint64_t *)&tb->temps[t].value;
            break;
        default:
            p->ptr[t] = &it->frame[t];
            break;
        }
    }
    return p;
}

static bool eval_cond(uint64_t cond, uint64_t a, uint64_t b)
{
    switch (cond) {
    case IR_COND_NEVER:
        return false;
    case IR_COND_ALWAYS:
        return true;
    case IR_COND_EQ:
        return a == b;
    case IR_COND_NE:
        return a != b;
    case IR_COND_LT:
        return (int64_t)a < (int64_t)b;
    case IR_COND_GE:
        return (int64_t)a >= (int64_t)b;
    case IR_COND_LE:
        return (int64_t)a <= (int64_t)b;
    case IR_COND_GT:
        return (int64_t)a > (int64_t)b;
    case IR_COND_LTU:
        return a < b;
    case IR_COND_GEU:
        return a >= b;
    case IR_COND_LEU:
        return a <= b;
    case IR_COND_GTU:
        return a > b;
    case IR_COND_TSTEQ:
        return (a & b) == 0;
    case IR_COND_TSTNE:
        return (a & b) != 0;
    default:
        return false;
    }
}

static uint64_t host_load(uint64_t base, int64_t off, unsigned size)
{
    uint64_t v = 0;

    memcpy(&v, (const void *)(uintptr_t)(base + (uint64_t)off), size);
    return v;
}

static void host_store(uint64_t base, int64_t off, uint64_t v, unsigned size)
{
    memcpy((void *)(uintptr_t)(base + (uint64_t)off), &v, size);
}

static void do_call(LinxInterp *it, const IRInsn *in, uint64_t *const *ptr)
{
    unsigned idx = (unsigned)in->args[in->nout + in->nin];
    const IRHelperInfo *h;
    void *avalues[IR_MAX_HELPER_ARGS];
    ffi_arg ret = 0;

    if (idx >= it->ir->nhelpers) {
        fprintf(stderr, "linxemu: internal error: helper index %u out of range\n", idx);
        abort();
    }
    h = it->ir->helpers[idx];
    if (idx >= it->ncifs) {
        unsigned n = MAX(it->ir->nhelpers, 16u);
        it->cifs = g_renew(InterpCif, it->cifs, n);
        memset(&it->cifs[it->ncifs], 0, (n - it->ncifs) * sizeof(InterpCif));
        it->ncifs = n;
    }
    if (!it->cifs[idx].ready) {
        if (ffi_prep_cif(&it->cifs[idx].cif, FFI_DEFAULT_ABI, h->nargs,
                         h->has_ret ? &ffi_type_uint64 : &ffi_type_void,
                         it->arg_types) != FFI_OK) {
            fprintf(stderr, "linxemu: internal error: libffi cannot describe helper %s\n",
                    h->name);
            abort();
        }
        it->cifs[idx].ready = true;
    }
    for (unsigned k = 0; k < in->nin; k++) {
        avalues[k] = ptr[in->args[in->nout + k]];
    }
    it->stats.calls++;
    ffi_call(&it->cifs[idx].cif, FFI_FN(h->func), &ret, avalues);
    if (in->nout) {
        *ptr[in->args[0]] = (uint64_t)ret;
    }
}

uintptr_t interp_run_tb(LinxInterp *it, CPULinxState *env, TranslationBlock *tb)
{
    InterpProg *p = prepare(it, env, tb);
    uint64_t *const *ptr = p->ptr;
    const IRInsn *ops = tb->ir;
    unsigned n = tb->nir;

#define P(k) (*ptr[in->args[(k)]])
#define C(k) (in->args[in->nout + in->nin + (k)])

    for (unsigned i = 0; i < n; i++) {
        const IRInsn *in = &ops[i];
        switch ((IROpcode)in->op) {
        case IR_discard:
        case IR_set_label:
        case IR_insn_start:
            break;
        case IR_br:
            i = p->label_pos[C(0)];
            break;
        case IR_brcond:
            if (eval_cond(C(0), P(0), P(1))) {
                i = p->label_pos[C(1)];
            }
            break;
        case IR_mov:
            P(0) = P(1);
            break;
        case IR_movi:
            P(0) = C(0);
            break;
        case IR_setcond:
            P(0) = eval_cond(C(0), P(1), P(2));
            break;
        case IR_movcond:
            P(0) = eval_cond(C(0), P(1), P(2)) ? P(3) : P(4);
            break;
        case IR_add:
            P(0) = P(1) + P(2);
            break;
        case IR_sub:
            P(0) = P(1) - P(2);
            break;
        case IR_mul:
            P(0) = P(1) * P(2);
            break;
        case IR_mulsh:
            P(0) = (uint64_t)(((__int128)(int64_t)P(1) * (int64_t)P(2)) >> 64);
            break;
        case IR_muluh:
            P(0) = (uint64_t)(((unsigned __int128)P(1) * P(2)) >> 64);
            break;
        case IR_neg:
            P(0) = -P(1);
            break;
        case IR_and:
            P(0) = P(1) & P(2);
            break;
        case IR_or:
            P(0) = P(1) | P(2);
            break;
        case IR_xor:
            P(0) = P(1) ^ P(2);
            break;
        case IR_andc:
            P(0) = P(1) & ~P(2);
            break;
        case IR_not:
            P(0) = ~P(1);
            break;
        case IR_shl:
            P(0) = P(1) << (P(2) & 63);
            break;
        case IR_shr:
            P(0) = P(1) >> (P(2) & 63);
            break;
        case IR_sar:
            P(0) = (uint64_t)((int64_t)P(1) >> (P(2) & 63));
            break;
        case IR_rotr: {
            uint64_t v = P(1), s = P(2) & 63;
            P(0) = s ? (v >> s) | (v << (64 - s)) : v;
            break;
        }
        case IR_clz: {
            uint64_t v = P(1);
            P(0) = v ? (uint64_t)__builtin_clzll(v) : 64;
            break;
        }
        case IR_ctz: {
            uint64_t v = P(1);
            P(0) = v ? (uint64_t)__builtin_ctzll(v) : 64;
            break;
        }
        case IR_ctpop:
            P(0) = (uint64_t)__builtin_popcountll(P(1));
            break;
        case IR_bswap64:
            P(0) = __builtin_bswap64(P(1));
            break;
        case IR_ext8s:
            P(0) = (uint64_t)(int64_t)(int8_t)P(1);
            break;
        case IR_ext8u:
            P(0) = (uint8_t)P(1);
            break;
        case IR_ext16s:
            P(0) = (uint64_t)(int64_t)(int16_t)P(1);
            break;
        case IR_ext16u:
            P(0) = (uint16_t)P(1);
            break;
        case IR_ext32s:
            P(0) = (uint64_t)(int64_t)(int32_t)P(1);
            break;
        case IR_ext32u:
            P(0) = (uint32_t)P(1);
            break;
        case IR_ld8u:
            P(0) = (uint8_t)host_load(P(1), (int64_t)C(0), 1);
            break;
        case IR_ld8s:
            P(0) = (uint64_t)(int64_t)(int8_t)host_load(P(1), (int64_t)C(0), 1);
            break;
        case IR_ld16u:
            P(0) = (uint16_t)host_load(P(1), (int64_t)C(0), 2);
            break;
        case IR_ld16s:
            P(0) = (uint64_t)(int64_t)(int16_t)host_load(P(1), (int64_t)C(0), 2);
            break;
        case IR_ld32u:
            P(0) = (uint32_t)host_load(P(1), (int64_t)C(0), 4);
            break;
        case IR_ld32s:
            P(0) = (uint64_t)(int64_t)(int32_t)host_load(P(1), (int64_t)C(0), 4);
            break;
        case IR_ld64:
            P(0) = host_load(P(1), (int64_t)C(0), 8);
            break;
        case IR_st8:
            host_store(P(1), (int64_t)C(0), P(0), 1);
            break;
        case IR_st16:
            host_store(P(1), (int64_t)C(0), P(0), 2);
            break;
        case IR_st32:
            host_store(P(1), (int64_t)C(0), P(0), 4);
            break;
        case IR_st64:
            host_store(P(1), (int64_t)C(0), P(0), 8);
            break;
        case IR_qemu_ld:
            P(0) = linx_ld(env, P(1), (unsigned)C(0), C(1));
            break;
        case IR_qemu_st:
            linx_st(env, P(1), P(0), (unsigned)C(0), C(1));
            break;
        case IR_call:
            do_call(it, in, ptr);
            break;
        case IR_goto_tb: {
            TranslationBlock *next = tb->jmp_dest[C(0) & 1];
            if (next && !env->exit_request && !it->no_chain) {
                /* Chained: continue with the next TB in this loop. */
                it->stats.chained++;
                tb = next;
                p = tb->interp_prog;
                if (!p || p->bound_env != env || p->bound_frame != it->frame) {
                    p = prepare(it, env, tb);
                }
                ptr = p->ptr;
                ops = tb->ir;
                n = tb->nir;
                i = UINT32_MAX; /* wraps to 0 */
            }
            break;
        }
        case IR_exit_tb:
            return (uintptr_t)C(0);
        case IR_goto_ptr: {
            TranslationBlock *next = (TranslationBlock *)(uintptr_t)P(0);
            if (!next || env->exit_request || it->no_chain) {
                return 0;
            }
            it->stats.chained++;
            tb = next;
            p = prepare(it, env, tb);
            ptr = p->ptr;
            ops = tb->ir;
            n = tb->nir;
            i = UINT32_MAX;
            break;
        }
        case IR_NB_OPS:
        default:
            interp_fatal(tb, i, "unknown opcode");
        }
    }
#undef P
#undef C
    interp_fatal(tb, n, "the op list ran off its end");
}
