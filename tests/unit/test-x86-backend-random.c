/*
 * Differential test of the x86-64 backend: on thousands of random IR
 * programs (test-x86-backend-random-ir.h) the JIT must leave exactly the
 * state the IR interpreter (tcg/interp.c, the reference semantics) leaves:
 * same globals, same guest memory, same exit value.  Each program runs
 * four ways: interpreter and JIT on the op list as generated, then both
 * again after ir_optimize(), with and without the optional host
 * instructions (BMI1/BMI2/LZCNT/POPCNT); every third program with one
 * of the globals pinned to a host register (BackendState.
 * pinned_env_offset).
 */
#include "test-x86-backend-random-ir.h"

#include "tcg/optimize.h"

#define NB_PROGRAMS 3000
#define PROGRAM_STEPS 70
#define NB_PRESSURE_PROGRAMS 150
#define PRESSURE_STEPS 700

static void run_programs(unsigned nprograms, unsigned steps, unsigned max_pool,
                         unsigned new_local_pct, bool straight)
{
    JitFixture f;
    static RIRState init, want, got;
    uint32_t all_features;

    fixture_init(&f);
    all_features = f.bs.host_features;
    LinxInterp *it = interp_new(f.ir);
    for (unsigned p = 0; p < nprograms; p++) {
        f.bs.host_features = (p & 1) ? all_features : 0;
        f.bs.pinned_env_offset =
            p % 3 == 2 ? (int32_t)offsetof(CPULinxState, gpr[(p / 3) % NB_TEST_GLOBALS]) : -1;
        random_program_ex(&f, steps, max_pool, new_local_pct, straight);
        if (!ir_validate(f.ir, stderr)) {
            ir_dump(f.ir, stderr);
            fail_msg("generator made invalid IR (program %u)", p);
        }
        rir_randomize(&f);
        rir_save(&f, &init, 0);

        rir_save(&f, &want, run_interp(&f, it));

        rir_load(&f, &init);
        fixture_gen(&f, NULL);
        rir_save(&f, &got, fixture_run(&f));
        if (memcmp(&want, &got, sizeof(want)) != 0) {
            ir_dump(f.ir, stderr);
            fixture_gen(&f, stderr);
        }
        rir_expect_same(&want, &got, "JIT vs interpreter", p);

        ir_optimize(f.ir);
        if (!ir_validate(f.ir, stderr)) {
            ir_dump(f.ir, stderr);
            fail_msg("optimiser made invalid IR (program %u)", p);
        }
        rir_load(&f, &init);
        rir_save(&f, &got, run_interp(&f, it));
        rir_expect_same(&want, &got, "interpreter after ir_optimize", p);

        rir_load(&f, &init);
        fixture_gen(&f, NULL);
        rir_save(&f, &got, fixture_run(&f));
        if (memcmp(&want, &got, sizeof(want)) != 0) {
            ir_dump(f.ir, stderr);
            fixture_gen(&f, stderr);
        }
        rir_expect_same(&want, &got, "JIT after ir_optimize", p);
    }
    interp_free(it);
    fixture_fini(&f);
}

static void test_jit_matches_interpreter(void **state)
{
    run_programs(NB_PROGRAMS, PROGRAM_STEPS, 64, 60, false);
}

/* Long straight-line programs with hundreds of live locals: spills,
 * evictions, frames larger than the static one. */
static void test_jit_matches_interpreter_under_pressure(void **state)
{
    run_programs(NB_PRESSURE_PROGRAMS, PRESSURE_STEPS, 400, 90, true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jit_matches_interpreter),
        cmocka_unit_test(test_jit_matches_interpreter_under_pressure),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
