/*
 * Test rig for kernel-block programs: assemble LinxISA text with the
 * project's assembler (linx-as library), load .text/.data into a fresh
 * address space, and run it through the exec loop under the JIT or the
 * interpreter until the guest stops (EBREAK, a trap).  Header-only, static
 * inline functions.
 *
 *   KRig r;
 *   krig_start(&r, src, LINX_ACCEL_JIT, true);   // true: a tile register file
 *   krig_run(&r);                                // EXCP_* in r.excp
 *   krig_u64(&r, krig_sym(&r, "out"));
 *   krig_free(&r);
 */
#ifndef LINX_TESTS_KERNEL_RIG_H
#define LINX_TESTS_KERNEL_RIG_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hw/core/guest-memory.h"
#include "target/linx/tile-engine.h"
#include "hw/linx/tile-regs.h"
#include "target/linx/cpu.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"
#include "tools/linx-as/linx-as.h"

#define KRIG_MEM_BASE UINT64_C(0x10000)
#define KRIG_MEM_SIZE UINT64_C(0x200000)
#define KRIG_STACK_BASE UINT64_C(0x400000)
#define KRIG_STACK_SIZE UINT64_C(0x10000)

typedef struct KRig {
    LinxAs *as;
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
    LinxTileEngine engine; /* TMA headers the translator does not plan itself */
    int excp;
} KRig;

static inline void krig_load_section(KRig *r, const char *name)
{
    uint64_t addr, size;
    const uint8_t *data = NULL;

    if (linx_as_section(r->as, name, &addr, &size, &data) && data && size) {
        assert_int_equal(guest_mem_debug_rw(r->gm, addr, (void *)data, size, true), GM_OK);
    }
}

static inline void krig_start_opts(KRig *r, const char *src, const LinxExecOptions *eo, bool tiles)
{
    LinxAsOptions o;
    char err[256];

    memset(r, 0, sizeof(*r));
    linx_as_default_options(&o);
    r->as = linx_as_new(&o);
    linx_as_add_source(r->as, "k.s", src, strlen(src));
    if (!linx_as_assemble(r->as)) {
        print_message("%s", linx_as_diagnostics(r->as));
        fail_msg("assembly failed");
    }
    r->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    assert_true(guest_mem_map(r->gm, KRIG_MEM_BASE, KRIG_MEM_SIZE, GM_PROT_ALL, false));
    assert_true(guest_mem_map(r->gm, KRIG_STACK_BASE, KRIG_STACK_SIZE,
                              GM_PROT_READ | GM_PROT_WRITE, false));
    krig_load_section(r, ".text");
    krig_load_section(r, ".data");
    r->ec = linx_exec_new(eo, err, sizeof(err));
    assert_non_null(r->ec);
    r->env = calloc(1, sizeof(*r->env));
    assert_non_null(r->env);
    linx_cpu_reset(r->env, linx_as_entry(r->as), 2);
    r->env->engine.mem = r->gm;
    r->env->gpr[LINX_REG_SP] = KRIG_STACK_BASE + KRIG_STACK_SIZE;
    if (tiles) {
        r->env->tiles = linx_tile_state_new();
        linx_tile_engine_init(&r->engine, NULL);
        r->env->block_engine = linx_tile_block_engine;
        r->env->block_engine_opaque = &r->engine;
    }
    linx_exec_attach_cpu(r->ec, r->env);
}

static inline void krig_start(KRig *r, const char *src, LinxAccel accel, bool tiles)
{
    LinxExecOptions eo;

    linx_exec_options_init(&eo);
    eo.accel = accel;
    krig_start_opts(r, src, &eo, tiles);
}

static inline int krig_run(KRig *r)
{
    r->excp = cpu_exec(r->env);
    return r->excp;
}

static inline unsigned krig_trapnum(const KRig *r)
{
    return (unsigned)(r->env->trapno & 0x3f);
}

static inline unsigned krig_cause(const KRig *r)
{
    return (unsigned)((r->env->trapno >> 24) & 0xffffff);
}

/* Run to the program's EBREAK. */
static inline void krig_run_to_break(KRig *r)
{
    krig_run(r);
    if (r->excp != EXCP_TRAP || krig_trapnum(r) != LINX_TRAP_SW_BREAKPOINT) {
        linx_cpu_dump_state(r->env, stderr);
        fail_msg("stopped with %d, trap %u cause 0x%x at pc 0x%llx", r->excp, krig_trapnum(r),
                 krig_cause(r), (unsigned long long)r->env->trap_pc);
    }
}

static inline uint64_t krig_sym(KRig *r, const char *name)
{
    uint64_t v = 0;

    assert_true(linx_as_symbol_value(r->as, name, &v));
    return v;
}

static inline uint64_t krig_read(KRig *r, uint64_t addr, unsigned size)
{
    uint64_t v = 0;

    assert_int_equal(guest_mem_debug_rw(r->gm, addr, &v, size, false), GM_OK);
    return v;
}

static inline void krig_free(KRig *r)
{
    linx_exec_detach_cpu(r->ec, r->env);
    linx_exec_free(r->ec);
    if (r->env->tiles) {
        linx_tile_state_free(r->env->tiles);
    }
    guest_mem_free(r->gm);
    free(r->env);
    linx_as_free(r->as);
}

#endif /* LINX_TESTS_KERNEL_RIG_H */
