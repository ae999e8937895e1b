/*
 * The IR interpreter (see interp.h for the contract).
 *
 * On first run a TB's op list is turned into a compact, bound form
 * (InterpOp, one cache line per op): every operand is a pointer to where
 * the temp lives - into env for globals, into the interpreter's frame for
 * locals, at the TB's copy of the constant for constants, at a slot
 * holding the env pointer for the env temp - and branch targets are op
 * indices.  So "o0 = i0 + i1" is *a[0] = *a[1] + *a[2] whatever the temp
 * kinds are, and globals are always current in env.  The pointers are
 * rebound when the TB runs on another CPU state or the frame moved.
 *
 * Each interpreter (one per CPU: its frame, its libffi descriptions) has
 * its own bound program per TB: tb->interp_prog is a list of them, one
 * per interpreter that ran the TB, to which a new one is added with a
 * compare-and-swap, so CPUs on several threads run the same TB at once.
 * Helpers are resolved when a program is built (the IR context's helper
 * table never moves).
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
#include "util/atomic.h"

/* Most operands an op other than call has (movcond: 1 out + 4 in). */
#define INTERP_MAX_OPERANDS 5
/* The op after the last: running into it is a bug in the op list. */
#define INTERP_OP_END IR_NB_OPS

typedef struct InterpOp {
    uint16_t op;        /* IROpcode, or INTERP_OP_END */
    uint8_t nout, nin;
    uint32_t target;    /* br/brcond: op index of the label; call: helper index */
    union {
        uint64_t *a[INTERP_MAX_OPERANDS]; /* outputs, then inputs */
        struct {
            uint64_t **call_args;         /* call: nout + nin pointers */
            const IRHelperInfo *helper;   /* call: the helper */
        };
    };
    uint64_t c0, c1;    /* the op's constants */
} InterpOp;

typedef struct InterpProg {
    const struct LinxInterp *owner; /* the interpreter it is bound for */
    struct InterpProg *next;        /* the TB's next program (another interpreter's) */
    const CPUArchState *bound_env;
    const uint64_t *bound_frame;
    uint64_t env_value;  /* what the env temp reads as */
    uint32_t nops;
    InterpOp *ops;       /* nops + 1 (the end marker) */
    uint64_t **call_ptrs; /* storage for the calls' operand pointers */
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

    while (p) {
        InterpProg *next = p->next;
        g_free(p->ops);
        g_free(p->call_ptrs);
        g_free(p);
        p = next;
    }
    tb->interp_prog = NULL;
}

/* @it's program for @tb, or NULL. */
static InterpProg *find_prog(const LinxInterp *it, const TranslationBlock *tb)
{
    InterpProg *p = atomic_load_acq(&((TranslationBlock *)tb)->interp_prog);

    while (p && p->owner != it) {
        p = p->next;
    }
    return p;
}

static _Noreturn void interp_fatal(const TranslationBlock *tb, unsigned i, const char *why)
{
    fprintf(stderr, "linxemu: internal error: IR of the TB at pc 0x%" PRIx64
            " op %u: %s\n", tb->pc, i, why);
    abort();
}

/* Check @tb's op list and build its InterpOps (pointers bound later). */
static InterpProg *compile(const LinxInterp *it, const TranslationBlock *tb)
{
    InterpProg *p = g_new0(InterpProg, 1);
    uint32_t nlabels = 0, *label_pos;
    size_t ncall = 0;

    for (unsigned i = 0; i < tb->nir; i++) {
        const IRInsn *in = &tb->ir[i];
        const uint64_t *c = &in->args[in->nout + in->nin];
        if (in->op >= IR_NB_OPS) {
            interp_fatal(tb, i, "unknown opcode");
        }
        if ((unsigned)in->nout + in->nin > (in->op == IR_call ? IR_MAX_HELPER_ARGS + 1u
                                                              : INTERP_MAX_OPERANDS) ||
            (unsigned)in->nout + in->nin + in->nconst > IR_MAX_ARGS) {
            interp_fatal(tb, i, "too many operands");
        }
        for (unsigned k = 0; k < (unsigned)in->nout + in->nin; k++) {
            if (in->args[k] >= tb->ntemps) {
                interp_fatal(tb, i, "temp out of range");
            }
        }
        if (in->op == IR_set_label || in->op == IR_br) {
            nlabels = MAX(nlabels, (uint32_t)c[0] + 1);
        } else if (in->op == IR_brcond) {
            nlabels = MAX(nlabels, (uint32_t)c[1] + 1);
        } else if (in->op == IR_call) {
            ncall += in->nout + in->nin;
        }
    }
    label_pos = g_new(uint32_t, nlabels ? nlabels : 1);
    for (unsigned l = 0; l < nlabels; l++) {
        label_pos[l] = LABEL_UNSET;
    }
    for (unsigned i = 0; i < tb->nir; i++) {
        if (tb->ir[i].op == IR_set_label) {
            label_pos[tb->ir[i].args[0]] = i;
        }
    }

    p->nops = tb->nir;
    p->ops = g_new0(InterpOp, tb->nir + 1);
    p->call_ptrs = ncall ? g_new0(uint64_t *, ncall) : NULL;
    ncall = 0;
    for (unsigned i = 0; i < tb->nir; i++) {
        const IRInsn *in = &tb->ir[i];
        const uint64_t *c = &in->args[in->nout + in->nin];
        InterpOp *o = &p->ops[i];

        o->op = in->op;
        o->nout = in->nout;
        o->nin = in->nin;
        o->c0 = in->nconst > 0 ? c[0] : 0;
        o->c1 = in->nconst > 1 ? c[1] : 0;
        switch (in->op) {
        case IR_br:
        case IR_brcond: {
            uint64_t l = in->op == IR_br ? c[0] : c[1];
            if (label_pos[l] == LABEL_UNSET) {
                interp_fatal(tb, i, "branch to a label that is never set");
            }
            o->target = label_pos[l];
            break;
        }
        case IR_call:
            if (c[0] >= it->ir->helpers_cap || !it->ir->helpers[c[0]]) {
                interp_fatal(tb, i, "helper index out of range");
            }
            o->target = (uint32_t)c[0];
            o->helper = it->ir->helpers[c[0]];
            o->call_args = &p->call_ptrs[ncall];
            ncall += in->nout + in->nin;
            break;
        default:
            break;
        }
    }
    p->ops[tb->nir].op = INTERP_OP_END;
    g_free(label_pos);
    return p;
}

static uint64_t *temp_ptr(InterpProg *p, LinxInterp *it, CPUArchState *env,
                          const TranslationBlock *tb, uint64_t t)
{
    const IRTempInfo *ti = &tb->temps[t];

    switch (ti->kind) {
    case IR_TEMP_FIXED:
        return &p->env_value;
    case IR_TEMP_GLOBAL:
        return (uint64_t *)((uint8_t *)env + ti->env_offset);
    case IR_TEMP_CONST:
        return (uint64_t *)&tb->temps[t].value;
    default:
        return &it->frame[t];
    }
}

/* The program of @tb bound to @env and the current frame. */
static InterpProg *prepare(LinxInterp *it, CPUArchState *env, TranslationBlock *tb)
{
    InterpProg *p = find_prog(it, tb);

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
        InterpProg *head;
        p = compile(it, tb);
        p->owner = it;
        head = atomic_read(&tb->interp_prog);
        do {
            p->next = head;
        } while (!__atomic_compare_exchange_n(&tb->interp_prog, (void **)&head, p, false,
                                              __ATOMIC_RELEASE, __ATOMIC_RELAXED));
    }
    p->bound_env = env;
    p->bound_frame = it->frame;
    p->env_value = (uint64_t)(uintptr_t)env;
    for (unsigned i = 0; i < p->nops; i++) {
        const IRInsn *in = &tb->ir[i];
        InterpOp *o = &p->ops[i];
        uint64_t **a = in->op == IR_call ? o->call_args : o->a;
        for (unsigned k = 0; k < (unsigned)in->nout + in->nin; k++) {
            a[k] = temp_ptr(p, it, env, tb, in->args[k]);
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

/* Host loads and stores of the IR (the CPU state, host pointers the
 * front end computed).  Aligned ones are relaxed atomic accesses - plain
 * moves on x86, as the JIT emits - because other threads write some of
 * those words at any time (exit_request: the stop watcher, kicks). */
static uint64_t host_load(uint64_t base, int64_t off, unsigned size)
{
    uintptr_t a = (uintptr_t)(base + (uint64_t)off);
    uint64_t v = 0;

    if ((a & (size - 1)) == 0) {
        switch (size) {
        case 1:
            return __atomic_load_n((const uint8_t *)a, __ATOMIC_RELAXED);
        case 2:
            return __atomic_load_n((const uint16_t *)a, __ATOMIC_RELAXED);
        case 4:
            return __atomic_load_n((const uint32_t *)a, __ATOMIC_RELAXED);
        case 8:
            return __atomic_load_n((const uint64_t *)a, __ATOMIC_RELAXED);
        default:
            break;
        }
    }
    memcpy(&v, (const void *)a, size);
    return v;
}

static void host_store(uint64_t base, int64_t off, uint64_t v, unsigned size)
{
    uintptr_t a = (uintptr_t)(base + (uint64_t)off);

    if ((a & (size - 1)) == 0) {
        switch (size) {
        case 1:
            __atomic_store_n((uint8_t *)a, (uint8_t)v, __ATOMIC_RELAXED);
            return;
        case 2:
            __atomic_store_n((uint16_t *)a, (uint16_t)v, __ATOMIC_RELAXED);
            return;
        case 4:
            __atomic_store_n((uint32_t *)a, (uint32_t)v, __ATOMIC_RELAXED);
            return;
        case 8:
            __atomic_store_n((uint64_t *)a, v, __ATOMIC_RELAXED);
            return;
        default:
            break;
        }
    }
    memcpy((void *)a, &v, size);
}

static void do_call(LinxInterp *it, const InterpOp *o)
{
    unsigned idx = o->target;
    const IRHelperInfo *h = o->helper;
    void *avalues[IR_MAX_HELPER_ARGS];
    ffi_arg ret = 0;

    if (idx >= it->ncifs) {
        unsigned n = MAX(idx + 16u, 2 * it->ncifs);
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
    for (unsigned k = 0; k < o->nin; k++) {
        avalues[k] = o->call_args[o->nout + k];
    }
    it->stats.calls++;
    ffi_call(&it->cifs[idx].cif, FFI_FN(h->func), &ret, avalues);
    if (o->nout) {
        *o->call_args[0] = (uint64_t)ret;
    }
}

/* Switch to @next (chaining): its program, bound. */
static const InterpOp *enter(LinxInterp *it, CPUArchState *env, TranslationBlock *next)
{
    InterpProg *p = find_prog(it, next);

    it->stats.chained++;
    if (!p || p->bound_env != env || p->bound_frame != it->frame) {
        p = prepare(it, env, next);
    }
    return p->ops;
}

uintptr_t interp_run_tb(LinxInterp *it, CPUArchState *env, TranslationBlock *tb)
{
    const InterpOp *ops = prepare(it, env, tb)->ops;

#define A(k) (*o->a[(k)])

    /* i wraps from SIZE_MAX to 0 when a chain restarts at the next TB. */
    for (size_t i = 0;; i++) {
        const InterpOp *o = &ops[i];
        switch (o->op) {
        case IR_discard:
        case IR_set_label:
        case IR_insn_start:
            break;
        case IR_br:
            i = o->target;
            break;
        case IR_brcond:
            if (eval_cond(o->c0, A(0), A(1))) {
                i = o->target;
            }
            break;
        case IR_mov:
            A(0) = A(1);
            break;
        case IR_movi:
            A(0) = o->c0;
            break;
        case IR_setcond:
            A(0) = eval_cond(o->c0, A(1), A(2));
            break;
        case IR_movcond:
            A(0) = eval_cond(o->c0, A(1), A(2)) ? A(3) : A(4);
            break;
        case IR_add:
            A(0) = A(1) + A(2);
            break;
        case IR_sub:
            A(0) = A(1) - A(2);
            break;
        case IR_mul:
            A(0) = A(1) * A(2);
            break;
        case IR_mulsh:
            A(0) = (uint64_t)(((__int128)(int64_t)A(1) * (int64_t)A(2)) >> 64);
            break;
        case IR_muluh:
            A(0) = (uint64_t)(((unsigned __int128)A(1) * A(2)) >> 64);
            break;
        case IR_neg:
            A(0) = -A(1);
            break;
        case IR_and:
            A(0) = A(1) & A(2);
            break;
        case IR_or:
            A(0) = A(1) | A(2);
            break;
        case IR_xor:
            A(0) = A(1) ^ A(2);
            break;
        case IR_andc:
            A(0) = A(1) & ~A(2);
            break;
        case IR_not:
            A(0) = ~A(1);
            break;
        case IR_shl:
            A(0) = A(1) << (A(2) & 63);
            break;
        case IR_shr:
            A(0) = A(1) >> (A(2) & 63);
            break;
        case IR_sar:
            A(0) = (uint64_t)((int64_t)A(1) >> (A(2) & 63));
            break;
        case IR_rotr: {
            uint64_t v = A(1), sh = A(2) & 63;
            A(0) = sh ? (v >> sh) | (v << (64 - sh)) : v;
            break;
        }
        case IR_clz: {
            uint64_t v = A(1);
            A(0) = v ? (uint64_t)__builtin_clzll(v) : 64;
            break;
        }
        case IR_ctz: {
            uint64_t v = A(1);
            A(0) = v ? (uint64_t)__builtin_ctzll(v) : 64;
            break;
        }
        case IR_ctpop:
            A(0) = (uint64_t)__builtin_popcountll(A(1));
            break;
        case IR_bswap64:
            A(0) = __builtin_bswap64(A(1));
            break;
        case IR_ext8s:
            A(0) = (uint64_t)(int64_t)(int8_t)A(1);
            break;
        case IR_ext8u:
            A(0) = (uint8_t)A(1);
            break;
        case IR_ext16s:
            A(0) = (uint64_t)(int64_t)(int16_t)A(1);
            break;
        case IR_ext16u:
            A(0) = (uint16_t)A(1);
            break;
        case IR_ext32s:
            A(0) = (uint64_t)(int64_t)(int32_t)A(1);
            break;
        case IR_ext32u:
            A(0) = (uint32_t)A(1);
            break;
        case IR_ld8u:
            A(0) = (uint8_t)host_load(A(1), (int64_t)o->c0, 1);
            break;
        case IR_ld8s:
            A(0) = (uint64_t)(int64_t)(int8_t)host_load(A(1), (int64_t)o->c0, 1);
            break;
        case IR_ld16u:
            A(0) = (uint16_t)host_load(A(1), (int64_t)o->c0, 2);
            break;
        case IR_ld16s:
            A(0) = (uint64_t)(int64_t)(int16_t)host_load(A(1), (int64_t)o->c0, 2);
            break;
        case IR_ld32u:
            A(0) = (uint32_t)host_load(A(1), (int64_t)o->c0, 4);
            break;
        case IR_ld32s:
            A(0) = (uint64_t)(int64_t)(int32_t)host_load(A(1), (int64_t)o->c0, 4);
            break;
        case IR_ld64:
            A(0) = host_load(A(1), (int64_t)o->c0, 8);
            break;
        case IR_st8:
            host_store(A(1), (int64_t)o->c0, A(0), 1);
            break;
        case IR_st16:
            host_store(A(1), (int64_t)o->c0, A(0), 2);
            break;
        case IR_st32:
            host_store(A(1), (int64_t)o->c0, A(0), 4);
            break;
        case IR_st64:
            host_store(A(1), (int64_t)o->c0, A(0), 8);
            break;
        case IR_qemu_ld:
            A(0) = linx_ld(env, A(1), (unsigned)o->c0, o->c1);
            break;
        case IR_qemu_st:
            linx_st(env, A(1), A(0), (unsigned)o->c0, o->c1);
            break;
        case IR_call:
            do_call(it, o);
            break;
        case IR_goto_tb: {
            TranslationBlock *next = atomic_load_acq(&tb->jmp_dest[o->c0 & 1]);
            if (next && !atomic_read(&cpu_engine(env)->exit_request) && !it->no_chain) {
                /* Chained: continue with the next TB in this loop. */
                tb = next;
                ops = enter(it, env, tb);
                i = SIZE_MAX;
            }
            break;
        }
        case IR_exit_tb:
            return (uintptr_t)o->c0;
        case IR_goto_ptr: {
            TranslationBlock *next = (TranslationBlock *)(uintptr_t)A(0);
            if (!next || atomic_read(&cpu_engine(env)->exit_request) || it->no_chain) {
                return 0;
            }
            tb = next;
            ops = enter(it, env, tb);
            i = SIZE_MAX;
            break;
        }
        default:
            interp_fatal(tb, (unsigned)i, o->op == INTERP_OP_END
                         ? "the op list ran off its end" : "unknown opcode");
        }
    }
#undef A
}
