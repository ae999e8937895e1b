/*
 * The optimiser and the x86-64 backend keep their working memory in the
 * IR context from one TB to the next (IRContext.pass_scratch; the
 * optimiser's tables emptied by generation numbers, its and the backend's
 * per-global state re-initialised only where the last TB touched it;
 * docs/performance.md, "Translation cost").  Kept state must never show:
 * for random programs of varied size (growing the arrays, spilling past
 * the static frame, with and without a pinned global), the op list after
 * ir_optimize() and the host code bytes are exactly those a context
 * without kept state produces for the same program, and the code leaves
 * the state the IR interpreter leaves (globals, memory, exit value).
 */
#include "test-x86-backend-random-ir.h"

#include "tcg/optimize.h"

#define NB_PROGRAMS 400

/* A copy of a context's op list and temps (the program as generated). */
typedef struct Snapshot {
    IRInsn *insns;
    unsigned ninsns;
    IRTempInfo *temps;
    unsigned ntemps, nlabels;
} Snapshot;

static void snap_take(Snapshot *s, const IRContext *ir)
{
    s->ninsns = ir->ninsns;
    s->ntemps = ir->ntemps;
    s->nlabels = ir->nlabels;
    s->insns = g_memdup2(ir->insns, ir->ninsns * sizeof(IRInsn));
    s->temps = g_memdup2(ir->temps, ir->ntemps * sizeof(IRTempInfo));
}

static void snap_restore(const Snapshot *s, IRContext *ir)
{
    assert_true(s->ninsns <= ir->insns_cap && s->ntemps <= ir->temps_cap);
    memcpy(ir->insns, s->insns, s->ninsns * sizeof(IRInsn));
    memcpy(ir->temps, s->temps, s->ntemps * sizeof(IRTempInfo));
    ir->ninsns = s->ninsns;
    ir->ntemps = s->ntemps;
    ir->nlabels = s->nlabels;
}

static void snap_free(Snapshot *s)
{
    g_free(s->insns);
    g_free(s->temps);
}

/* Drop what the passes kept, as in a context that never translated. */
static void drop_scratch(IRContext *ir)
{
    for (unsigned i = 0; i < IR_NB_PASS_SCRATCH; i++) {
        if (ir->pass_scratch[i].p) {
            ir->pass_scratch[i].free(ir->pass_scratch[i].p);
            ir->pass_scratch[i].p = NULL;
        }
    }
}

/* The op list's operands as the counts name them (the rest is not
 * defined), one line per op. */
static GString *op_list(const IRContext *ir)
{
    GString *s = g_string_new(NULL);

    for (unsigned i = 0; i < ir->ninsns; i++) {
        const IRInsn *in = &ir->insns[i];
        g_string_append_printf(s, "%u %u %u %u %u:", in->op, in->nout, in->nin, in->nconst,
                               in->dead);
        for (unsigned k = 0; k < (unsigned)in->nout + in->nin + in->nconst; k++) {
            g_string_append_printf(s, " %llx", (unsigned long long)in->args[k]);
        }
        g_string_append_c(s, '\n');
    }
    for (unsigned t = ir->nglobals; t < ir->ntemps; t++) {
        g_string_append_printf(s, "t%u %u %llx\n", t, ir->temps[t].kind,
                               (unsigned long long)ir->temps[t].value);
    }
    return s;
}

/* Optimise and generate at the start of the buffer; the op list and the
 * code bytes. */
static void translate(JitFixture *f, GString **ops, GByteArray **code)
{
    ir_optimize(f->ir);
    *ops = op_list(f->ir);
    code_buffer_reset(&f->cb);
    fixture_gen(f, NULL);
    *code = g_byte_array_new();
    g_byte_array_append(*code, (const guint8 *)f->tb.host_code, f->tb.host_size);
}

static void test_kept_state_never_shows(void **state)
{
    JitFixture f;
    static RIRState init, want, got;

    fixture_init(&f);
    LinxInterp *it = interp_new(f.ir);
    for (unsigned p = 0; p < NB_PROGRAMS; p++) {
        Snapshot s;
        GString *ops_kept, *ops_fresh;
        GByteArray *code_kept, *code_fresh;

        /* Every fifth program is long straight code with many live
         * locals (spills, a frame larger than the static one). */
        if (p % 5 == 4) {
            random_program_ex(&f, 300 + p % 400, 200, 90, true);
        } else {
            random_program(&f, 20 + p % 120);
        }
        f.bs.pinned_env_offset = p % 3 == 0 ? (int32_t)offsetof(CPULinxState, gpr[2]) : -1;
        snap_take(&s, f.ir);
        /* The interpreter on the program as generated is the reference. */
        rir_randomize(&f);
        rir_save(&f, &init, 0);
        rir_save(&f, &want, run_interp(&f, it));
        translate(&f, &ops_kept, &code_kept); /* with what the last programs left */
        rir_load(&f, &init);
        rir_save(&f, &got, fixture_run(&f));
        rir_expect_same(&want, &got, "JIT with kept state vs interpreter", p);
        drop_scratch(f.ir);
        snap_restore(&s, f.ir);
        translate(&f, &ops_fresh, &code_fresh);
        if (strcmp(ops_kept->str, ops_fresh->str) != 0) {
            fail_msg("program %u: the op list after ir_optimize differs with kept state", p);
        }
        if (code_kept->len != code_fresh->len ||
            memcmp(code_kept->data, code_fresh->data, code_kept->len) != 0) {
            fail_msg("program %u: the host code differs with kept state (%u vs %u bytes)", p,
                     code_kept->len, code_fresh->len);
        }
        g_string_free(ops_kept, true);
        g_string_free(ops_fresh, true);
        g_byte_array_free(code_kept, true);
        g_byte_array_free(code_fresh, true);
        snap_free(&s);
    }
    interp_free(it);
    fixture_fini(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_state_never_shows),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
