/*
 * The LinxISA `virt` machine: RAM, devices, boot and the run loop (the
 * map and the boot contract are in hw/linx/virt.h and docs/virt.md).
 *
 * One CPU.  Everything hangs off the LinxVirtMachine, so several machines
 * can live in one process (the unit tests make many).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/gdbstub.h"
#include "hw/linx/buffers.h"
#include "target/linx/tile-engine.h"
#include "hw/linx/tile-regs.h"
#include "hw/linx/virt.h"
#include "target/linx/decode.h"
#include "target/linx/disas.h"
#include "target/linx/trap-report.h"
#include "target/linx/tma-translate.h"
#include "target/linx/trap.h"
#include "tcg/exec.h"
#include "util/elf-file.h"

/*
 * The exit trampoline (ra at boot): returning from the program stores a0
 * to the EXIT register.  Verified against the decoder by
 * tests/unit/test-virt.c:
 *   C.BSTART.STD             0x0800
 *   lui 0x10000, ->t         t#1 = 0x10000000 (the UART page)
 *   swi a0, [t#1, 1]         *(u32 *)(t#1 + 4) = a0 (EXIT)
 *   C.BSTOP                  0x0000
 *   C.BSTART DIRECT, .       a loop, in case the store did not stop us
 *   C.BSTOP
 */
static const uint8_t virt_tramp_code[VIRT_TRAMP_BYTES] = {
    0x00, 0x08,             /* C.BSTART.STD */
    0x97, 0x0f, 0x00, 0x10, /* lui 65536, ->t */
    0x59, 0x20, 0x81, 0x03, /* swi a0, [t#1, 1] */
    0x00, 0x00,             /* C.BSTOP */
    0x02, 0x00,             /* C.BSTART DIRECT, . */
    0x00, 0x00,             /* C.BSTOP */
};

/*
 * The machine's block-engine hook, for the tile and kernel headers the
 * translator does not plan itself (TMA headers never come here: the
 * front end plans them at translation time, target/linx/tma-translate.h).
 *
 * Peer compatibility (docs/virt.md, "Tile headers"): the LinxISA QEMU
 * bring-up runs a TMA header that binds no operand at all - no B.ARG,
 * B.IOR, B.IOT/B.IOTI or B.DIM - as a no-op.  Its tile_descriptor_smoke
 * test (shared/guest/baremetal/model_tile_descriptor_legality.elf:
 * BSTART.TLOAD + B.TEXT) is such a header and expects to run on; v0.4
 * (08_tile_blocks) would raise E_BLOCK(EC_BLOCKFMT).  The machine asks the
 * translator for that rule with env->tma_empty_header_noop
 * (linx_virt_boot).
 */
static void virt_block_engine(CPULinxState *env, void *opaque)
{
    LinxVirtMachine *m = opaque;

    if (m->tile_engine) {
        m->tile_engine(env, m->tile_engine_opaque);
        return;
    }
    linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), env->pc,
                         env->pc);
}

/*
 * The machine's trap hook: a trap goes to the guest handler at EVBASE of
 * the ring that handles it (target/linx/trap.h, docs/virt.md "Traps").
 * When there is none, or the handler itself trapped before it returned,
 * the trap stops the machine with a report (the reason is kept for it).
 */
static bool virt_trap_hook(CPULinxState *env, void *opaque)
{
    LinxVirtMachine *m = opaque;

    m->trap_refusal = linx_trap_deliver(env, &m->trap_ring);
    return m->trap_refusal == LINX_TRAP_DELIVERED;
}

static bool virt_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

/* Map RAM [0, size) around the device regions (listed in address order). */
static bool map_ram(GuestMemory *gm, uint64_t size)
{
    uint64_t cur = VIRT_RAM_BASE;

    for (size_t i = 0; i < VIRT_NUM_DEVICE_REGIONS && cur < size; i++) {
        const LinxVirtRegion *r = &linx_virt_device_regions[i];
        uint64_t end = r->base < size ? r->base : size;
        if (end > cur && !guest_mem_map(gm, cur, end - cur, GM_PROT_ALL, false)) {
            return false;
        }
        cur = r->base + r->size;
    }
    return cur >= size || guest_mem_map(gm, cur, size - cur, GM_PROT_ALL, false);
}

LinxVirtMachine *linx_virt_new(uint64_t ram_size, char *err, size_t errlen)
{
    LinxVirtMachine *m;

    if (ram_size < VIRT_RAM_MIN || ram_size > VIRT_RAM_MAX || ram_size % GUEST_PAGE_SIZE) {
        virt_fail(err, errlen,
                  "RAM size %llu is not supported (1 MiB to 64 GiB, a multiple of 4 KiB)",
                  (unsigned long long)ram_size);
        return NULL;
    }
    /* The trampoline page must be RAM, not a device page. */
    uint64_t tramp = (ram_size - 8) & ~(uint64_t)15;
    if (!linx_virt_is_ram(ram_size, tramp, VIRT_TRAMP_BYTES) ||
        !linx_virt_is_ram(ram_size, tramp - VIRT_STACK_GAP, VIRT_STACK_GAP)) {
        virt_fail(err, errlen, "RAM size 0x%llx ends inside a device page",
                  (unsigned long long)ram_size);
        return NULL;
    }
    m = calloc(1, sizeof(*m));
    if (!m) {
        virt_fail(err, errlen, "out of memory");
        return NULL;
    }
    m->ram_size = ram_size;
    m->tramp = tramp;
    m->initial_sp = (tramp - VIRT_STACK_GAP) & ~(uint64_t)15;
    m->uart_out = stdout;
    m->uart_in_fd = 0;
    m->mem = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    m->buffers = linx_buffers_new(LINX_BUF_PROFILE_A2A3);
    m->tiles = linx_tile_state_new();
    LinxTileEngine *eng = calloc(1, sizeof(*eng));
    if (eng) {
        linx_tile_engine_init(eng, NULL);
        m->tile_engine = linx_tile_block_engine;
        m->tile_engine_opaque = eng;
    }
    if (!m->mem || !m->buffers || !m->tiles || !eng || !map_ram(m->mem, ram_size) ||
        !linx_virt_map_devices(m)) {
        virt_fail(err, errlen, "cannot set up the address space");
        linx_virt_free(m);
        return NULL;
    }
    return m;
}

void linx_virt_free(LinxVirtMachine *m)
{
    if (!m) {
        return;
    }
    guest_mem_free(m->mem);
    if (m->buffers) {
        linx_buffers_free(m->buffers);
    }
    if (m->tiles) {
        linx_tile_state_free(m->tiles);
    }
    free(m->tile_engine_opaque);
    free(m);
}

bool linx_virt_load_image(LinxVirtMachine *m, const ElfFile *ef, const char *what, char *err,
                          size_t errlen)
{
    bool ok = linx_virt_load_elf(m->mem, m->ram_size, ef, what, &m->entry, &m->image_end, err,
                                 errlen);

    memset(&m->profile_vote, 0, sizeof(m->profile_vote));
    linx_profile_vote_elf(&m->profile_vote, ef);
    if (ok && m->image_end > m->initial_sp) {
        return virt_fail(err, errlen,
                         "%s: the image (ends at 0x%llx) overlaps the boot stack at 0x%llx; "
                         "give the machine more RAM (-m)",
                         what, (unsigned long long)m->image_end,
                         (unsigned long long)m->initial_sp);
    }
    return ok;
}

bool linx_virt_load(LinxVirtMachine *m, const char *path, char *err, size_t errlen)
{
    ElfFile ef;
    bool ok;

    if (!elf_file_open(&ef, path, err, errlen)) {
        return false;
    }
    ok = linx_virt_load_image(m, &ef, path, err, errlen);
    elf_file_close(&ef);
    return ok;
}

void linx_virt_reset_devices(LinxVirtMachine *m)
{
    if (m->buffers) {
        linx_buffers_reset(m->buffers);
    }
    if (m->tiles) {
        linx_tile_state_reset(m->tiles);
    }
    if (m->tile_engine == linx_tile_block_engine && m->tile_engine_opaque) {
        linx_tile_engine_init(m->tile_engine_opaque, NULL);
    }
    m->cpu = NULL;
    m->stop = VIRT_RUNNING;
    m->exit_code = 0;
    m->stop_value = 0;
    m->trap_refusal = LINX_TRAP_NO_HANDLER;
    m->trap_ring = 0;
}

void linx_virt_boot(LinxVirtMachine *m, CPULinxState *env)
{
    guest_mem_debug_rw(m->mem, m->tramp, (void *)virt_tramp_code, sizeof(virt_tramp_code), true);
    linx_cpu_reset(env, m->entry, 0);
    env->engine.mem = m->mem;
    env->tiles = m->tiles;
    env->block_engine = virt_block_engine;
    env->block_engine_opaque = m;
    env->tma_empty_header_noop = true; /* peer rule, see virt_block_engine */
    env->trap_hook = virt_trap_hook;
    env->trap_opaque = m;
    m->trap_refusal = LINX_TRAP_NO_HANDLER;
    m->trap_ring = 0;
    env->gpr[LINX_REG_SP] = m->initial_sp;
    env->gpr[LINX_REG_RA] = m->tramp;
    env->gpr[LINX_REG_A0] = 0;     /* hart id */
    env->gpr[LINX_REG_A0 + 1] = 0; /* device tree: none */
    env->gpr[LINX_REG_A0 + 2] = 0;
    /* The commit trace reports a register as written when it differs
     * from the helper's snapshot (target/linx/helper_trace.c: GPRs, then
     * the T and U queues); the boot values are not writes. */
    memcpy(env->trace_shadow, env->gpr, sizeof(env->gpr));
    memcpy(env->trace_shadow + LINX_NUM_GPRS, env->tq, sizeof(env->tq));
    memcpy(env->trace_shadow + LINX_NUM_GPRS + LINX_QUEUE_DEPTH, env->uq, sizeof(env->uq));
    m->cpu = env;
    m->stop = VIRT_RUNNING;
}

bool linx_virt_set_cmdline(LinxVirtMachine *m, CPULinxState *env, const char *cmdline)
{
    size_t n = strlen(cmdline) + 1;
    uint64_t addr = (env->gpr[LINX_REG_SP] - n) & ~(uint64_t)15;

    if (n > VIRT_STACK_GAP / 2 || addr < m->image_end ||
        guest_mem_debug_rw(m->mem, addr, (void *)cmdline, n, true) != GM_OK) {
        return false;
    }
    env->gpr[LINX_REG_SP] = addr;
    env->gpr[LINX_REG_A0 + 2] = addr;
    memcpy(env->trace_shadow, env->gpr, sizeof(env->gpr)); /* boot values, not writes */
    return true;
}

static void report_trap(LinxVirtMachine *m, CPULinxState *env)
{
    unsigned trapnum = linx_trapno_num(env->trapno);
    unsigned cause = linx_trapno_cause(env->trapno);
    char text[LINX_DISAS_MAX + 80];

    linx_trap_insn_text(env, env->trap_pc, text, sizeof(text));
    linx_tile_fault_report(stderr, env); /* "illegal tile parameter: ..." */
    /* A rejected engine GO store: "buffer engine: <rule>: <line>". */
    linx_buffers_fault_report(stderr, m->buffers, env->traparg0);
    fprintf(stderr,
            "linx-system: unhandled trap %u (cause 0x%x) at pc 0x%" PRIx64 ": %s\n"
            "  traparg0 0x%" PRIx64 "; the machine stops (%s ACR%u",
            trapnum, cause, env->trap_pc, text, env->traparg0,
            m->trap_refusal == LINX_TRAP_DOUBLE_FAULT ? "a trap inside the trap handler of"
                                                       : "no trap handler: EVBASE is 0 in",
            m->trap_ring);
    if (m->trap_refusal == LINX_TRAP_DOUBLE_FAULT) {
        fprintf(stderr, ", before its ACRE; first trap %" PRIu64 " at 0x%" PRIx64 ")\n",
                env->mgr_ssr[m->trap_ring][LINX_MSSR_TRAPNO] & 0x3f,
                env->mgr_ssr[m->trap_ring][LINX_MSSR_EBARG_TPC]);
    } else {
        fprintf(stderr, ")\n");
    }
    linx_trap_report(stderr, env);
}

int linx_virt_run(LinxVirtMachine *m, CPULinxState *env)
{
    while (m->stop == VIRT_RUNNING) {
        int r = m->gdb ? gdb_stub_cpu_exec(m->gdb, env) : cpu_exec(env);

        if (m->stop != VIRT_RUNNING) {
            break;
        }
        if (m->external_stop && __atomic_load_n(m->external_stop, __ATOMIC_ACQUIRE)) {
            linx_virt_request_stop(m, VIRT_STOP_EXTERNAL, VIRT_EXIT_TRAP);
            break;
        }
        switch (r) {
        case EXCP_TRAP:
            report_trap(m, env);
            linx_virt_request_stop(m, VIRT_STOP_TRAP, VIRT_EXIT_TRAP);
            break;
        case EXCP_EXIT:
            linx_virt_request_stop(m, VIRT_STOP_EXIT, env->exit_code);
            break;
        case EXCP_HALTED:
            fprintf(stderr, "linx-system: the CPU cannot run\n");
            linx_virt_request_stop(m, VIRT_STOP_ERROR, VIRT_EXIT_TRAP);
            break;
        default:
            break; /* EXCP_INTERRUPT, EXCP_DEBUG */
        }
    }
    env->engine.exit_request = 0;
    if (m->uart_out) {
        fflush(m->uart_out);
    }
    if (!m->quiet && (m->stop == VIRT_STOP_EXIT || m->stop == VIRT_STOP_FINISHER)) {
        fprintf(stderr, "LINX_INSN_COUNT=%" PRIu64 "\n", env->insn_count);
    }
    return m->exit_code;
}
