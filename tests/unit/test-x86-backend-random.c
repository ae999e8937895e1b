/*
 * Differential test of the x86-64 backend: on thousands of random IR
 * programs (test-x86-backend-random-ir.h) the JIT must leave exactly the
 * state the IR interpreter (tcg/interp.c, the reference semantics) leaves:
 * same globals, same guest memory, same exit value.  Each program runs
 * four ways: interpreter and JIT on the op list as generated, then both
 * again after ir_optimize(), with and without the optional host
 * instructions (BMI1/BMI2/LZCNT/POPCNT).
 */
#include "test-x86-backend-random-ir.h"

#include "tcg/optimize.h"

#define NB_PROGRAMS 3000
#define PROGRAM_STEPS 70

static void test_jit_matches_interpreter(void **state)
{
    JitFixture f;
    static RIRState init, want, got;
    uint32_t all_features;

    fixture_init(&f);
    all_features = f.bs.host_features;
    LinxInterp *it = interp_new(f.ir);
    for (unsigned p = 0; p < NB_PROGRAMS; p++) {
        f.bs.host_features = (p & 1) ? all_features : 0;
        random_program(&f, PROGRAM_STEPS);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jit_matches_interpreter),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
