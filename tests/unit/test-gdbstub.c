/*
 * gdb stub over a socketpair: the stub drives a real LinxISA CPU (front
 * end, exec loop, JIT or interpreter) in a thread, as linx-user does, and
 * the test is gdb on the other end.  Programs are assembled in memory with
 * linx-as; expected values are worked out from the program text.
 *
 * Covered: the register table against the CPU state (every register read
 * and written, read-only ones refused, ClockHands and pc writes taking
 * effect on the running program), breakpoints decided at translation time
 * (hit counts, removal, block-start and mid-block stops, step-over),
 * single steps, write watchpoints, Ctrl-C under the JIT (chaining off),
 * kill, detach, a closed connection, traps as signals, monitor commands on
 * tiles and SSRs, a machine's own exit request during a run (regression:
 * a device stop followed by a trap was reported to gdb), and random
 * packets answered without harm.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdbstub/gdbstub-internal.h"
#include "gdbstub/regs.h"
#include "hw/core/guest-memory.h"
#include "hw/linx/tile-regs.h"
#include "linx-as.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

#define MEM_BASE UINT64_C(0x10000)
#define MEM_SIZE UINT64_C(0x20000)
#define STACK_BASE UINT64_C(0x100000)
#define STACK_SIZE UINT64_C(0x10000)
#define REPLY_TIMEOUT_MS 20000
#define SYS_EXIT 93
#define SYS_STOP_MACHINE 1000 /* test hook: a device-style stop request */
#define SYS_FILL 1001         /* test hook: "the kernel" writes 8 x 0x77 at a1 */
#define PC_REG 0x18
#define S0_REG 0xb
#define A0_REG 2

typedef struct Rig {
    LinxAs *as;
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
    GdbStub *stub;
    int fd;              /* gdb's end */
    pthread_t thread;
    bool running;
    bool machine_stopped; /* the acrc test hook asked the loop to stop */
    int result;          /* what gdb_stub_cpu_exec returned to end the run */
    char in[GDB_MAX_PACKET * 2 + 16];
    size_t in_len;
    char pkt[GDB_MAX_PACKET * 2 + 1];
} Rig;

/* ---- The guest side ---- */

/* acrc 1: exit(a0), or (test hook) ask the loop to stop like a device. */
static bool acrc_hook(CPULinxState *env, unsigned type, void *opaque)
{
    if (env->gpr[LINX_REG_A7] == SYS_EXIT) {
        env->exit_code = (int)env->gpr[LINX_REG_A0];
        linx_cpu_exit_with(env, EXCP_EXIT);
    }
    if (env->gpr[LINX_REG_A7] == SYS_STOP_MACHINE) {
        env->engine.exit_request = 1;
        *(bool *)opaque = true;
        return true;
    }
    if (env->gpr[LINX_REG_A7] == SYS_FILL) {
        static const uint8_t fill[8] = { 0x77, 0x77, 0x77, 0x77, 0x77, 0x77, 0x77, 0x77 };
        return guest_mem_write(env->engine.mem, env->gpr[LINX_REG_A0 + 1], fill, sizeof(fill),
                               NULL) == GM_OK;
    }
    return false;
}

static void *stub_thread(void *opaque)
{
    Rig *r = opaque;

    for (;;) {
        int x = gdb_stub_cpu_exec(r->stub, r->env);
        if (x == EXCP_EXIT || x == EXCP_TRAP || x == EXCP_HALTED) {
            r->result = x;
            break;
        }
        if (r->machine_stopped) {
            r->result = EXCP_INTERRUPT;
            break;
        }
    }
    gdb_stub_report_exit(r->stub, r->env->exit_code, r->result == EXCP_TRAP ? 4 : 0);
    return NULL;
}

static uint64_t sym(Rig *r, const char *name)
{
    uint64_t v = 0;

    assert_true(linx_as_symbol_value(r->as, name, &v));
    return v;
}

static void load_section(Rig *r, const char *name)
{
    uint64_t addr, size;
    const uint8_t *data = NULL;

    if (linx_as_section(r->as, name, &addr, &size, &data) && data && size) {
        assert_int_equal(guest_mem_debug_rw(r->gm, addr, (void *)data, size, true), GM_OK);
    }
}

static void rig_start(Rig *r, const char *src, LinxAccel accel, bool tiles)
{
    LinxAsOptions o;
    LinxExecOptions eo;
    char err[256];
    int sv[2];

    memset(r, 0, sizeof(*r));
    linx_as_default_options(&o);
    r->as = linx_as_new(&o);
    linx_as_add_source(r->as, "t.s", src, strlen(src));
    if (!linx_as_assemble(r->as)) {
        print_message("%s", linx_as_diagnostics(r->as));
        fail_msg("assembly failed");
    }
    r->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    assert_true(guest_mem_map(r->gm, MEM_BASE, MEM_SIZE, GM_PROT_ALL, false));
    assert_true(guest_mem_map(r->gm, STACK_BASE, STACK_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    load_section(r, ".text");
    load_section(r, ".data");
    linx_exec_options_init(&eo);
    eo.accel = accel;
    r->ec = linx_exec_new(&eo, err, sizeof(err));
    assert_non_null(r->ec);
    r->env = calloc(1, sizeof(*r->env));
    linx_cpu_reset(r->env, linx_as_entry(r->as), 2);
    r->env->engine.mem = r->gm;
    r->env->gpr[LINX_REG_SP] = STACK_BASE + STACK_SIZE;
    r->env->acrc_hook = acrc_hook;
    r->env->acrc_opaque = &r->machine_stopped;
    if (tiles) {
        r->env->tiles = linx_tile_state_new();
    }
    linx_exec_attach_cpu(r->ec, r->env);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    GdbStubConfig cfg = { .quiet = true };
    r->stub = gdb_stub_new_connected(sv[0], &cfg);
    r->fd = sv[1];
    assert_int_equal(pthread_create(&r->thread, NULL, stub_thread, r), 0);
    r->running = true;
}

/* Wait for the run to end; returns what ended it. */
static int rig_join(Rig *r)
{
    if (r->running) {
        pthread_join(r->thread, NULL);
        r->running = false;
    }
    return r->result;
}

static void rig_free(Rig *r)
{
    if (r->fd >= 0) {
        close(r->fd);
        r->fd = -1;
    }
    rig_join(r);
    gdb_stub_free(r->stub);
    linx_exec_detach_cpu(r->ec, r->env);
    linx_exec_free(r->ec);
    if (r->env->tiles) {
        linx_tile_state_free(r->env->tiles);
    }
    guest_mem_free(r->gm);
    free(r->env);
    linx_as_free(r->as);
}

/* ---- The gdb side ---- */

static void send_raw(Rig *r, const void *data, size_t n)
{
    assert_int_equal(write(r->fd, data, n), (ssize_t)n);
}

static void send_pkt(Rig *r, const char *body)
{
    GString *f = g_string_new("");

    gdb_frame_text(f, body, strlen(body));
    send_raw(r, f->str, f->len);
    g_string_free(f, TRUE);
}

/* The next packet's body (acks skipped); fails the test on a timeout. */
static const char *recv_pkt(Rig *r)
{
    for (;;) {
        char *start = memchr(r->in, '$', r->in_len);
        char *hash = start ? memchr(start, '#', r->in_len - (size_t)(start - r->in)) : NULL;
        if (hash && (size_t)(hash - r->in) + 3 <= r->in_len) {
            size_t n = (size_t)(hash - start - 1);
            assert_true(n < sizeof(r->pkt));
            memcpy(r->pkt, start + 1, n);
            r->pkt[n] = 0;
            size_t used = (size_t)(hash - r->in) + 3;
            memmove(r->in, r->in + used, r->in_len - used);
            r->in_len -= used;
            return r->pkt;
        }
        struct pollfd p = { .fd = r->fd, .events = POLLIN };
        assert_int_equal(poll(&p, 1, REPLY_TIMEOUT_MS), 1);
        assert_true(r->in_len < sizeof(r->in));
        ssize_t got = read(r->fd, r->in + r->in_len, sizeof(r->in) - r->in_len);
        assert_true(got > 0);
        r->in_len += (size_t)got;
    }
}

static const char *cmd(Rig *r, const char *body)
{
    send_pkt(r, body);
    return recv_pkt(r);
}

static const char *cmdf(Rig *r, const char *fmt, ...)
{
    char body[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(body, sizeof(body), fmt, ap);
    va_end(ap);
    return cmd(r, body);
}

static uint64_t reg(Rig *r, unsigned n)
{
    uint64_t v = 0;

    assert_true(gdb_parse_le64(cmdf(r, "p%x", n), &v));
    return v;
}

static void set_reg(Rig *r, unsigned n, uint64_t v)
{
    GString *b = g_string_new("");

    g_string_printf(b, "P%x=", n);
    gdb_hex_append_le64(b, v);
    assert_string_equal(cmd(r, b->str), "OK");
    g_string_free(b, TRUE);
}

static unsigned regnum(const char *name)
{
    int n = gdb_reg_lookup(name);

    assert_true(n >= 0);
    return (unsigned)n;
}

/* Connect: no-ack mode, swbreak/hwbreak stop reasons. */
static void handshake(Rig *r)
{
    assert_non_null(strstr(cmd(r, "qSupported:swbreak+;hwbreak+"), "PacketSize=4000"));
    assert_string_equal(cmd(r, "QStartNoAckMode"), "OK");
    assert_true(!strncmp(cmd(r, "?"), "T05", 3));
}

static void expect_exit(Rig *r, const char *w, int excp)
{
    assert_string_equal(recv_pkt(r), w);
    assert_int_equal(rig_join(r), excp);
}

/* ---- Programs ---- */

static const char loop_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD\n"
    "    hl.lis 0, ->s0\n"
    "    hl.lis 10, ->s1\n"
    "    addtpc counter, ->s2\n"
    "    addi s2, counter, ->s2\n"
    "loop:\n"
    "    C.BSTART COND, loop\n"
    "body:\n"
    "    addi s0, 1, ->s0\n"
    "store:\n"
    "    sdi s0, [s2, 0]\n"
    "after_store:\n"
    "    setc.ne s0, s1\n"
    "done:\n"
    "    C.BSTART.STD\n"
    "    addi s0, 0, ->a0\n"
    "    hl.lis 93, ->a7\n"
    "    acrc 1\n"
    "    C.BSTOP\n"
    "    .data\n"
    "counter:\n"
    "    .quad 0\n";

/* t#1/t#2 feed an add; an alternative block exits with 42. */
static const char queue_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD\n"
    "    hl.lis 5, ->t\n"
    "    hl.lis 6, ->t\n"
    "use:\n"
    "    add t#1, t#2, ->a0\n"
    "exit:\n"
    "    hl.lis 93, ->a7\n"
    "    acrc 1\n"
    "    C.BSTOP\n"
    "alt:\n"
    "    C.BSTART.STD\n"
    "    hl.lis 42, ->a0\n"
    "    hl.lis 93, ->a7\n"
    "    acrc 1\n"
    "    C.BSTOP\n";

static const char spin_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD\n"
    "    hl.lis 0, ->s0\n"
    "spin:\n"
    "    C.BSTART DIRECT, spin\n"
    "    addi s0, 1, ->s0\n";

/* A device-style stop request, then an illegal instruction. */
static const char stop_then_trap_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD\n"
    "    hl.lis 1000, ->a7\n"
    "    acrc 1\n"
    "    b.eq zero, zero, .Lt\n" /* a kernel-body branch: illegal here */
    ".Lt:\n"
    "    C.BSTART.STD\n"
    "    C.BSTOP\n";

static const char ebreak_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD\n"
    "    hl.lis 7, ->a0\n"
    "brk:\n"
    "    ebreak 0\n"
    "    addi a0, 1, ->a0\n"
    "    hl.lis 93, ->a7\n"
    "    acrc 1\n"
    "    C.BSTOP\n";

/* Tests that depend on how translated code runs go through both. */
static const LinxAccel accels[] = { LINX_ACCEL_JIT, LINX_ACCEL_INTERP };
#define NUM_ACCELS (sizeof(accels) / sizeof(accels[0]))

/* ---- Tests ---- */

/* Every register through p/P/g/G against the CPU state. */
static void test_registers(void **state)
{
    Rig r;
    unsigned n = gdb_reg_count(GDB_TDESC_COMPAT);

    rig_start(&r, loop_src, LINX_ACCEL_INTERP, false);
    handshake(&r);
    assert_int_equal(strlen(cmd(&r, "g")), n * 16);
    assert_int_equal(reg(&r, PC_REG), sym(&r, "_start"));
    assert_int_equal(gdb_reg_pc(), PC_REG);
    assert_string_equal(gdb_reg_name(0), "zero");
    assert_string_equal(gdb_reg_name(PC_REG), "pc");
    assert_null(gdb_reg_name(n));
    for (unsigned i = 0; i < n; i++) {
        const char *name = gdb_reg_name(i);
        if (gdb_reg_is_padding(i)) {
            /* RISC-V t0-t2 of the compat description: unavailable, and
             * writes are dropped. */
            assert_string_equal(cmdf(&r, "p%x", i), "xxxxxxxxxxxxxxxx");
            assert_string_equal(cmdf(&r, "P%x=0100000000000000", i), "OK");
            assert_string_equal(cmdf(&r, "p%x", i), "xxxxxxxxxxxxxxxx");
            continue;
        }
        uint64_t old = reg(&r, i);
        uint64_t v = UINT64_C(0x0101010101010101) * (i + 1);
        GString *b = g_string_new("");
        g_string_printf(b, "P%x=", i);
        gdb_hex_append_le64(b, v);
        const char *rep = cmd(&r, b->str);
        if (!strcmp(name, "zero")) {
            assert_string_equal(rep, "OK");
            assert_int_equal(reg(&r, i), 0);
        } else if (!strcmp(name, "bkind") || !strcmp(name, "btype") || !strcmp(name, "btarget") ||
                   !strcmp(name, "tgt_set") || !strcmp(name, "cycle") || !strcmp(name, "acr")) {
            assert_string_equal(rep, GDB_ERR_INVAL);
            assert_int_equal(reg(&r, i), old);
            /* Writing the current value is fine (G sends them all). */
            g_string_printf(b, "P%x=", i);
            gdb_hex_append_le64(b, old);
            assert_string_equal(cmd(&r, b->str), "OK");
        } else if (!strcmp(name, "fcsr")) {
            assert_string_equal(rep, "OK");
            assert_int_equal(reg(&r, i), v & 0x71f);
        } else if (!strcmp(name, "cstate")) {
            assert_string_equal(rep, "OK");
            assert_int_equal(reg(&r, i), (v & ~UINT64_C(3)) | 2); /* ring 2 stays */
        } else {
            assert_string_equal(rep, "OK");
            assert_int_equal(reg(&r, i), v);
        }
        g_string_free(b, TRUE);
    }
    /* The table reaches the real fields. */
    assert_int_equal(r.env->gpr[LINX_REG_A0], UINT64_C(0x0303030303030303));
    assert_int_equal(r.env->ssr_tp, UINT64_C(0x0101010101010101) * (regnum("tp") + 1));
    assert_int_equal(r.env->lb[2], UINT64_C(0x0101010101010101) * (regnum("lb2") + 1));
    /* G writes them all back; g reads the same. */
    char *all = g_strdup(cmd(&r, "g"));
    char *gcmd = g_strconcat("G", all, NULL);
    assert_string_equal(cmd(&r, gcmd), "OK");
    assert_string_equal(cmd(&r, "g"), all);
    g_free(gcmd);
    g_free(all);
    /* Malformed: bad register number, short value, junk. */
    assert_string_equal(cmdf(&r, "p%x", n), GDB_ERR_INVAL);
    assert_string_equal(cmd(&r, "P2=1234"), GDB_ERR_INVAL);
    assert_string_equal(cmd(&r, "P2"), GDB_ERR_INVAL);
    assert_string_equal(cmd(&r, "Gzz"), GDB_ERR_INVAL);
    /* k is answered (lldb waits for it): killed by SIGKILL. */
    assert_string_equal(cmd(&r, "k"), "X09");
    assert_int_equal(rig_join(&r), EXCP_EXIT);
    assert_int_equal(r.env->exit_code, GDB_KILLED_EXIT);
    rig_free(&r);
}

/* ClockHands writes and pc writes change what the program computes. */
static void test_queue_and_pc_writes(void **state)
{
    for (unsigned ai = 0; ai < NUM_ACCELS; ai++) {
        LinxAccel a = accels[ai];
        Rig r;
        rig_start(&r, queue_src, a, false);
        handshake(&r);
        assert_string_equal(cmdf(&r, "Z0,%" PRIx64 ",4", sym(&r, "use")), "OK");
        assert_true(!strncmp(cmd(&r, "c"), "T05", 3));
        assert_int_equal(reg(&r, PC_REG), sym(&r, "use"));
        assert_int_equal(reg(&r, regnum("tq1")), 6);
        assert_int_equal(reg(&r, regnum("tq2")), 5);
        assert_int_equal(reg(&r, regnum("tq3")), 0);
        assert_int_equal(reg(&r, regnum("bpc")), sym(&r, "_start"));
        assert_int_equal(reg(&r, regnum("bkind")), LINX_BR_FALL);
        set_reg(&r, regnum("tq1"), 100);
        assert_string_equal(cmdf(&r, "z0,%" PRIx64 ",4", sym(&r, "use")), "OK");
        send_pkt(&r, "c");
        expect_exit(&r, "W69", EXCP_EXIT); /* 100 + 5 */
        rig_free(&r);

        /* pc to another block (a marker: a normal block start). */
        rig_start(&r, queue_src, a, false);
        handshake(&r);
        set_reg(&r, PC_REG, sym(&r, "alt"));
        assert_int_equal(r.env->resume, 0);
        send_pkt(&r, "c");
        expect_exit(&r, "W2a", EXCP_EXIT);
        rig_free(&r);

        /* pc into the middle of a block: skips the add (a0 stays 0). */
        rig_start(&r, queue_src, a, false);
        handshake(&r);
        assert_true(!strncmp(cmd(&r, "s"), "T05", 3));
        set_reg(&r, PC_REG, sym(&r, "exit"));
        assert_int_equal(r.env->resume, 1);
        send_pkt(&r, "c");
        expect_exit(&r, "W00", EXCP_EXIT);
        rig_free(&r);
    }
}

/* Breakpoints: hit counts, at a block start and mid-block, removal,
 * continue from a breakpoint without removing it. */
static void test_breakpoints(void **state)
{
    for (unsigned ai = 0; ai < NUM_ACCELS; ai++) {
        LinxAccel a = accels[ai];
        Rig r;
        rig_start(&r, loop_src, a, false);
        handshake(&r);
        assert_string_equal(cmdf(&r, "Z0,%" PRIx64 ",2", sym(&r, "loop")), "OK");
        assert_string_equal(cmdf(&r, "Z1,%" PRIx64 ",4", sym(&r, "store")), "OK");
        for (unsigned i = 0; i < 10; i++) {
            const char *t = cmd(&r, "c");
            assert_non_null(strstr(t, "swbreak:;"));
            assert_non_null(strstr(t, ";1:")); /* sp expedited */
            assert_int_equal(reg(&r, PC_REG), sym(&r, "loop"));
            assert_int_equal(reg(&r, S0_REG), i);
            t = cmd(&r, "c");
            assert_non_null(strstr(t, "hwbreak:;"));
            /* pc expedited in the stop reply. */
            char exp[64];
            snprintf(exp, sizeof(exp), "18:%02x%02x%02x00", (unsigned)(sym(&r, "store") & 0xff),
                     (unsigned)(sym(&r, "store") >> 8 & 0xff),
                     (unsigned)(sym(&r, "store") >> 16 & 0xff));
            if (!strstr(t, exp)) {
                fail_msg("stop reply '%s' lacks '%s'", t, exp);
            }
            assert_int_equal(reg(&r, PC_REG), sym(&r, "store"));
            assert_int_equal(reg(&r, S0_REG), i + 1);
        }
        assert_string_equal(cmdf(&r, "z0,%" PRIx64 ",2", sym(&r, "loop")), "OK");
        assert_string_equal(cmdf(&r, "z1,%" PRIx64 ",4", sym(&r, "store")), "OK");
        assert_int_equal(g_hash_table_size(r.stub->bps), 0);
        send_pkt(&r, "c");
        expect_exit(&r, "W0a", EXCP_EXIT);
        rig_free(&r);
    }
}

/* Single steps walk the instructions in order; vCont too. */
static void test_steps(void **state)
{
    static const char *const path[] = { "body", "store", "after_store", "loop", "body" };
    for (unsigned ai = 0; ai < NUM_ACCELS; ai++) {
        LinxAccel a = accels[ai];
        Rig r;
        rig_start(&r, loop_src, a, false);
        handshake(&r);
        assert_string_equal(cmdf(&r, "Z0,%" PRIx64 ",2", sym(&r, "loop")), "OK");
        assert_true(!strncmp(cmd(&r, "c"), "T05", 3));
        /* Step from the breakpoint without removing it. */
        for (unsigned i = 0; i < 5; i++) {
            const char *t = cmd(&r, i % 2 ? "vCont;s:1" : "s");
            assert_true(!strncmp(t, "T05", 3));
            assert_null(strstr(t, "swbreak"));
            assert_int_equal(reg(&r, PC_REG), sym(&r, path[i]));
        }
        assert_int_equal(reg(&r, S0_REG), 1); /* the second addi has not run */
        assert_string_equal(cmd(&r, "vCont;x"), GDB_ERR_INVAL);
        assert_string_equal(cmd(&r, "vCont;s:2"), GDB_ERR_INVAL); /* not our thread */
        send_pkt(&r, "D");
        assert_string_equal(recv_pkt(&r), "OK");
        assert_int_equal(rig_join(&r), EXCP_EXIT);
        assert_int_equal(r.env->exit_code, 10);
        rig_free(&r);
    }
}

/* A write watchpoint stops after the storing instruction, once per
 * changed value. */
static void test_watchpoint(void **state)
{
    for (unsigned ai = 0; ai < NUM_ACCELS; ai++) {
        LinxAccel a = accels[ai];
        Rig r;
        uint64_t ctr;
        rig_start(&r, loop_src, a, false);
        handshake(&r);
        ctr = sym(&r, "counter");
        assert_string_equal(cmdf(&r, "Z2,%" PRIx64 ",8", ctr), "OK");
        assert_string_equal(cmdf(&r, "Z2,%" PRIx64 ",8", ctr), "OK"); /* duplicate */
        assert_int_equal(r.stub->nwatch, 1);
        assert_string_equal(cmdf(&r, "Z2,%" PRIx64 ",0", ctr), GDB_ERR_INVAL);
        assert_string_equal(cmdf(&r, "Z2,%" PRIx64 ",100000", ctr), GDB_ERR_INVAL);
        assert_string_equal(cmdf(&r, "Z3,%" PRIx64 ",8", ctr), "");
        /* The stop comes before the store (gdb's riscv gdbarch steps it
         * itself): pc at the sdi, the counter still the old value.  A
         * continue without removing the watchpoint runs that store and
         * stops before the next one. */
        for (unsigned i = 1; i <= 3; i++) {
            char w[64];
            snprintf(w, sizeof(w), "watch:%" PRIx64 ";", ctr);
            assert_non_null(strstr(cmd(&r, "c"), w));
            assert_int_equal(reg(&r, PC_REG), sym(&r, "store"));
            assert_int_equal(reg(&r, S0_REG), i);
            assert_string_equal(cmdf(&r, "m%" PRIx64 ",1", ctr), i == 1 ? "00" : i == 2 ? "01"
                                                                                        : "02");
        }
        /* gdb's way: remove, step the store, insert again. */
        assert_string_equal(cmdf(&r, "z2,%" PRIx64 ",8", ctr), "OK");
        assert_true(!strncmp(cmd(&r, "s"), "T05", 3));
        assert_int_equal(reg(&r, PC_REG), sym(&r, "after_store"));
        assert_string_equal(cmdf(&r, "m%" PRIx64 ",1", ctr), "03");
        assert_string_equal(cmdf(&r, "Z2,%" PRIx64 ",8", ctr), "OK");
        /* gdb's own write does not trigger it: the next stop is the
         * program's store, before it. */
        assert_string_equal(cmdf(&r, "M%" PRIx64 ",1:55", ctr), "OK");
        assert_non_null(strstr(cmd(&r, "c"), "watch:"));
        assert_int_equal(reg(&r, PC_REG), sym(&r, "store"));
        assert_int_equal(reg(&r, S0_REG), 4);
        assert_string_equal(cmdf(&r, "m%" PRIx64 ",1", ctr), "55");
        assert_string_equal(cmdf(&r, "z2,%" PRIx64 ",8", ctr), "OK");
        send_pkt(&r, "c");
        expect_exit(&r, "W0a", EXCP_EXIT);
        rig_free(&r);
    }
}

/* Stores other than plain ones stop before they write too: MSET checks
 * its footprint, FENTRY stores through the TLB (its ra store at sp-8 may
 * have landed: the template restarts, as after a fault, with sp not yet
 * moved).  A write the guest does not make with a store (a system call)
 * is seen after its instruction. */
static const char templates_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD\n"
    "    addtpc buf, ->a0\n"
    "    addi a0, buf, ->a0\n"
    "    hl.lis 0x5a, ->a2\n"
    "    hl.lis 64, ->a3\n"
    "mset:\n"
    "    MSET [a0, a2, a3]\n"
    "    C.BSTART.STD\n"
    "    hl.lis 7, ->s0\n"
    "    BSTART CALL, f, ra=back\n"
    "back:\n"
    "    C.BSTART.STD\n"
    "    addtpc buf, ->a1\n"
    "    addi a1, buf, ->a1\n"
    "    hl.lis 1001, ->a7\n"
    "fill:\n"
    "    acrc 1\n"
    "after_fill:\n"
    "    C.BSTOP\n"
    "    C.BSTART.STD\n"
    "    hl.lis 0, ->a0\n"
    "    hl.lis 93, ->a7\n"
    "    acrc 1\n"
    "    C.BSTOP\n"
    "f:\n"
    "    FENTRY [ra ~ s0], sp!, 16\n"
    "    FRET.STK [ra ~ s0], sp!, 16\n"
    "    .data\n"
    "buf:\n"
    "    .zero 64\n";

static void test_watch_templates(void **state)
{
    for (unsigned ai = 0; ai < NUM_ACCELS; ai++) {
        LinxAccel a = accels[ai];
        Rig r;
        uint64_t buf, sp;
        rig_start(&r, templates_src, a, false);
        handshake(&r);
        buf = sym(&r, "buf");
        sp = reg(&r, 1);
        /* MSET: the watched bytes are in the middle of its footprint. */
        assert_string_equal(cmdf(&r, "Z2,%" PRIx64 ",8", buf + 40), "OK");
        assert_non_null(strstr(cmd(&r, "c"), "watch:"));
        assert_int_equal(reg(&r, PC_REG), sym(&r, "mset"));
        assert_string_equal(cmdf(&r, "m%" PRIx64 ",4", buf), "00000000");
        assert_string_equal(cmdf(&r, "z2,%" PRIx64 ",8", buf + 40), "OK");
        /* FENTRY: s0 goes to [sp - 16] (of the caller's sp). */
        assert_string_equal(cmdf(&r, "Z2,%" PRIx64 ",8", sp - 16), "OK");
        assert_non_null(strstr(cmd(&r, "c"), "watch:"));
        assert_int_equal(reg(&r, PC_REG), sym(&r, "f"));
        assert_int_equal(reg(&r, 1), sp);
        assert_string_equal(cmdf(&r, "m%" PRIx64 ",1", buf + 63), "5a"); /* MSET ran */
        assert_string_equal(cmdf(&r, "z2,%" PRIx64 ",8", sp - 16), "OK");
        /* The system call's write: after the acrc, the bytes written. */
        assert_string_equal(cmdf(&r, "Z2,%" PRIx64 ",8", buf), "OK");
        assert_non_null(strstr(cmd(&r, "c"), "watch:"));
        assert_int_equal(reg(&r, PC_REG), sym(&r, "after_fill"));
        assert_string_equal(cmdf(&r, "m%" PRIx64 ",2", buf), "7777");
        send_pkt(&r, "c");
        expect_exit(&r, "W00", EXCP_EXIT);
        rig_free(&r);
    }
}

/* Ctrl-C stops a guest spinning in chained (JIT) code. */
static void test_interrupt(void **state)
{
    for (unsigned ai = 0; ai < NUM_ACCELS; ai++) {
        LinxAccel a = accels[ai];
        Rig r;
        rig_start(&r, spin_src, a, false);
        handshake(&r);
        for (unsigned i = 0; i < 3; i++) {
            uint64_t before = reg(&r, S0_REG);
            send_pkt(&r, "c");
            usleep(20000);
            send_raw(&r, "\x03", 1);
            assert_true(!strncmp(recv_pkt(&r), "T02", 3));
            assert_true(reg(&r, S0_REG) > before);
        }
        send_pkt(&r, "k");
        assert_int_equal(rig_join(&r), EXCP_EXIT);
        assert_int_equal(r.env->exit_code, GDB_KILLED_EXIT);
        rig_free(&r);
    }
}

/* The connection closing while stopped: the guest runs on to its end,
 * without the breakpoints gdb left. */
static void test_close(void **state)
{
    Rig r;

    rig_start(&r, loop_src, LINX_ACCEL_JIT, false);
    handshake(&r);
    assert_string_equal(cmdf(&r, "Z0,%" PRIx64 ",2", sym(&r, "body")), "OK");
    close(r.fd);
    r.fd = -1;
    assert_int_equal(rig_join(&r), EXCP_EXIT);
    assert_int_equal(r.env->exit_code, 10);
    assert_false(linx_exec_breakpoint_at(r.ec, sym(&r, "body")));
    rig_free(&r);
}

/* A trap stops with its signal; without a signal on resume an ebreak is
 * skipped, with one the trap goes to the front end. */
static void test_traps(void **state)
{
    Rig r;

    rig_start(&r, ebreak_src, LINX_ACCEL_JIT, false);
    handshake(&r);
    assert_true(!strncmp(cmd(&r, "c"), "T05", 3));
    assert_int_equal(reg(&r, PC_REG), sym(&r, "brk"));
    assert_int_equal(reg(&r, regnum("trapno")) & 0xffffff, LINX_TRAP_SW_BREAKPOINT);
    send_pkt(&r, "c");
    expect_exit(&r, "W08", EXCP_EXIT);
    rig_free(&r);

    rig_start(&r, ebreak_src, LINX_ACCEL_INTERP, false);
    handshake(&r);
    assert_true(!strncmp(cmd(&r, "c"), "T05", 3));
    send_pkt(&r, "C05");
    expect_exit(&r, "X04", EXCP_TRAP);
    assert_int_equal(r.env->trap_pc, sym(&r, "brk"));
    rig_free(&r);
}

/* Regression: a machine's own exit request (a device stop) followed by a
 * trap in the same block was reported to gdb as a signal although the
 * machine had already stopped; the stub must hand the loop back first. */
static void test_machine_stop_first(void **state)
{
    Rig r;

    rig_start(&r, stop_then_trap_src, LINX_ACCEL_JIT, false);
    handshake(&r);
    send_pkt(&r, "c");
    assert_int_equal(rig_join(&r), EXCP_TRAP);
    assert_true(r.machine_stopped);
    /* What gdb got is the exit report, not a T04 stop. */
    assert_string_equal(recv_pkt(&r), "X04");
    rig_free(&r);
}

/* Monitor commands: tiles and SSRs. */
static void test_monitor(void **state)
{
    Rig r;
    GString *h = g_string_new("qRcmd,");
    static const char line[] = "ssr 0x1f01 0x8000";

    rig_start(&r, loop_src, LINX_ACCEL_INTERP, true);
    handshake(&r);
    gdb_hex_append(h, (const uint8_t *)line, strlen(line));
    send_pkt(&r, h->str);
    assert_true(recv_pkt(&r)[0] == 'O');
    assert_string_equal(recv_pkt(&r), "OK");
    assert_int_equal(r.env->mgr_ssr[1][1], 0x8000);
    static const char *const bad[] = { "ssr 0x9999", "ssr 0x23 1", "tile z#1", "tile t#9",
                                       "tile t#1 purple", "nope" };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        g_string_assign(h, "qRcmd,");
        gdb_hex_append(h, (const uint8_t *)bad[i], strlen(bad[i]));
        send_pkt(&r, h->str);
        assert_true(recv_pkt(&r)[0] == 'O');
        assert_string_equal(recv_pkt(&r), GDB_ERR_INVAL);
    }
    static const char *const good[] = { "tile t#1", "tile acc hex full", "tile 31", "tiles",
                                        "ssr 0", "ssr 0x50 7", "stats", "regs", "tb-flush" };
    for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        g_string_assign(h, "qRcmd,");
        gdb_hex_append(h, (const uint8_t *)good[i], strlen(good[i]));
        send_pkt(&r, h->str);
        const char *p;
        while ((p = recv_pkt(&r))[0] == 'O' && strcmp(p, "OK") != 0) {
        }
        assert_string_equal(p, "OK");
    }
    assert_int_equal(r.env->lb[0], 7);
    send_pkt(&r, "k");
    rig_free(&r);
    g_string_free(h, TRUE);
}

/* Random packets (not resuming ones) are all answered, and the stub
 * still works afterwards. */
static void test_random_packets(void **state)
{
    static const char letters[] = "?gGpPmMXZzqQHTJvx";
    static const char alphabet[] = "0123456789abcdef,:;=-xqXfer:features:read:target.xml"
                                   "SupportedRcmdAttachedCThreadInfo";
    unsigned seed = 42;
    Rig r;

    rig_start(&r, loop_src, LINX_ACCEL_INTERP, false);
    handshake(&r);
    for (unsigned i = 0; i < 3000; i++) {
        char body[96];
        unsigned n = 1 + (unsigned)rand_r(&seed) % 60;
        body[0] = letters[(unsigned)rand_r(&seed) % (sizeof(letters) - 1)];
        for (unsigned k = 1; k < n; k++) {
            body[k] = alphabet[(unsigned)rand_r(&seed) % (sizeof(alphabet) - 1)];
        }
        body[n] = 0;
        if (!strncmp(body, "vCont;", 6) || !strncmp(body, "vKill", 5)) {
            continue; /* resuming */
        }
        send_pkt(&r, body);
        const char *p;
        while ((p = recv_pkt(&r))[0] == 'O' && strcmp(p, "OK") != 0 && body[0] == 'q') {
        }
    }
    /* Still answering. */
    assert_string_equal(cmd(&r, "qC"), "QC1");
    send_pkt(&r, "k");
    assert_int_equal(rig_join(&r), EXCP_EXIT);
    rig_free(&r);
}

/* Each generated description lists every register of its g packet
 * once, in a single self-contained target.xml; the compat one has the
 * shape gdb's riscv:rv64 gdbarch validates. */
static void test_xml(void **state)
{
    static const GdbTdesc descs[] = { GDB_TDESC_COMPAT, GDB_TDESC_LINX };
    char tag[128];

    for (unsigned d = 0; d < 2; d++) {
        char *x = gdb_xml_target(descs[d]);
        unsigned n = gdb_reg_count(descs[d]);
        bool *seen = calloc(n, sizeof(bool));
        const char *p = x;
        unsigned count = 0;
        while ((p = strstr(p, " regnum=\""))) {
            unsigned k = (unsigned)strtoul(p + 9, NULL, 10);
            assert_true(k < n);
            assert_false(seen[k]);
            seen[k] = true;
            count++;
            p++;
        }
        assert_int_equal(count, n);
        for (unsigned k = 0; k < n; k++) {
            snprintf(tag, sizeof(tag), "<reg name=\"%s\" bitsize=\"64\"", gdb_reg_name(k));
            assert_non_null(strstr(x, tag));
        }
        assert_null(strstr(x, "xi:include"));
        assert_null(gdb_xml_annex(descs[d], "nope.xml"));
        free(seen);
        g_free(x);
    }
    assert_int_equal(gdb_reg_count(GDB_TDESC_COMPAT), gdb_reg_count(GDB_TDESC_LINX) + 3);
    char *t = gdb_xml_annex(GDB_TDESC_COMPAT, "target.xml");
    assert_non_null(strstr(t, "<architecture>riscv:rv64</architecture>"));
    assert_non_null(strstr(t, "<osabi>none</osabi>"));
    /* gdb 13 wants x0-x15 by ABI name in org.gnu.gdb.riscv.cpu, and
     * nothing of x16-x31 there (a6 would make s9-s11 and t3-t6 required). */
    const char *cpu = strstr(t, "<feature name=\"org.gnu.gdb.riscv.cpu\">");
    const char *cpu_end = cpu ? strstr(cpu, "</feature>") : NULL;
    assert_non_null(cpu_end);
    static const char *const x0_15[] = { "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
                                        "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "pc" };
    for (unsigned i = 0; i < sizeof(x0_15) / sizeof(x0_15[0]); i++) {
        snprintf(tag, sizeof(tag), "<reg name=\"%s\" ", x0_15[i]);
        const char *at = strstr(cpu, tag);
        assert_true(at && at < cpu_end);
    }
    const char *a6 = strstr(t, "<reg name=\"a6\" ");
    assert_true(a6 && a6 > cpu_end);
    /* lldb: generic roles and DWARF numbers (compat: RISC-V's by name). */
    assert_non_null(strstr(t, "<reg name=\"pc\" bitsize=\"64\" type=\"code_ptr\" regnum=\"24\" "
                              "group=\"general\" generic=\"pc\"/>"));
    assert_non_null(strstr(t, "<reg name=\"sp\" bitsize=\"64\" type=\"data_ptr\" regnum=\"1\" "
                              "group=\"general\" generic=\"sp\" dwarf_regnum=\"2\""));
    g_free(t);
    t = gdb_xml_annex(GDB_TDESC_LINX, "target.xml");
    assert_null(strstr(t, "<architecture>"));
    assert_null(strstr(t, "riscv"));
    assert_non_null(strstr(t, "<reg name=\"sp\" bitsize=\"64\" type=\"data_ptr\" regnum=\"1\" "
                              "group=\"general\" generic=\"sp\" dwarf_regnum=\"1\""));
    g_free(t);
}

/* Command-line options and the listening socket. */
static void test_options(void **state)
{
    static const struct {
        GdbStubMode mode;
        const char *args[3];
        int ret;
        const char *listen;
        bool wait;
        GdbTdesc tdesc;
    } cases[] = {
        { GDB_MODE_USER, { "-g", "1234" }, 1, "1234", true },
        { GDB_MODE_USER, { "--g", "tcp::0" }, 1, "tcp::0", true },
        { GDB_MODE_USER, { "-g", "tcp:localhost:99" }, 1, "tcp:localhost:99", true },
        { GDB_MODE_USER, { "-g", "[::1]:99" }, 1, "[::1]:99", true },
        { GDB_MODE_USER, { "-g", "none" }, 1, NULL, false },
        { GDB_MODE_USER, { "-g", "1234,tdesc=linx" }, 1, "1234,tdesc=linx", true, GDB_TDESC_LINX },
        { GDB_MODE_USER, { "-g", "1234,tdesc=compat" }, 1, "1234,tdesc=compat", true },
        { GDB_MODE_SYSTEM, { "-gdb", "tcp::1,tdesc=linx" }, 1, "tcp::1,tdesc=linx", false,
          GDB_TDESC_LINX },
        { GDB_MODE_USER, { "-g", "1234,tdesc=mips" }, -1, NULL, false },
        { GDB_MODE_USER, { "-g", "1234,frob" }, -1, NULL, false },
        { GDB_MODE_USER, { "-g", "1234," }, -1, NULL, false },
        { GDB_MODE_USER, { "-g", "65536" }, -1, NULL, false },
        { GDB_MODE_USER, { "-g", "-5" }, -1, NULL, false },
        { GDB_MODE_USER, { "-g", "tcp::" }, -1, NULL, false },
        { GDB_MODE_USER, { "-g", "12ab" }, -1, NULL, false },
        { GDB_MODE_USER, { "-g" }, -1, NULL, false },
        { GDB_MODE_USER, { "-s", "1M" }, 0, NULL, false },   /* linx-user's stack size */
        { GDB_MODE_USER, { "-gdb", "tcp::1" }, 0, NULL, false },
        { GDB_MODE_SYSTEM, { "-gdb", "tcp::1" }, 1, "tcp::1", false },
        { GDB_MODE_SYSTEM, { "-s" }, 1, GDB_DEFAULT_LISTEN, false },
        { GDB_MODE_SYSTEM, { "-S" }, 1, NULL, true },
        { GDB_MODE_SYSTEM, { "-g", "1" }, 0, NULL, false },
        { GDB_MODE_SYSTEM, { "kernel.elf" }, 0, NULL, false },
    };
    char err[256];

    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        GdbStubConfig cfg = { 0 };
        char *argv[4] = { (char *)cases[k].args[0], (char *)cases[k].args[1],
                          (char *)cases[k].args[2], NULL };
        int argc = 0, i = 0;
        while (argv[argc]) {
            argc++;
        }
        err[0] = 0;
        int ret = gdb_stub_parse_option(&cfg, cases[k].mode, argc, argv, &i, err, sizeof(err));
        assert_int_equal(ret, cases[k].ret);
        if (ret < 0) {
            assert_true(err[0] != 0);
            continue;
        }
        assert_int_equal(i, ret == 1 ? argc : 0);
        if (cases[k].listen) {
            assert_string_equal(cfg.listen, cases[k].listen);
        } else {
            assert_null(cfg.listen);
        }
        assert_int_equal(cfg.wait, cases[k].wait);
        assert_int_equal(cfg.tdesc, cases[k].tdesc);
        assert_int_equal(cfg.mode, cases[k].listen || cases[k].wait ? cases[k].mode : 0);
    }
    /* -S without an address is refused. */
    GdbStubConfig cfg = { .wait = true };
    assert_false(gdb_stub_check_config(&cfg, err, sizeof(err)));
    cfg.listen = "tcp::0";
    assert_true(gdb_stub_check_config(&cfg, err, sizeof(err)));

    /* Port 0 picks a free port; that port is then busy. */
    cfg.quiet = true;
    cfg.wait = false;
    GdbStub *a = gdb_stub_new(&cfg, err, sizeof(err));
    assert_non_null(a);
    assert_true(gdb_stub_port(a) > 0);
    char busy[32];
    snprintf(busy, sizeof(busy), "tcp:127.0.0.1:%d", gdb_stub_port(a));
    cfg.listen = busy;
    assert_null(gdb_stub_new(&cfg, err, sizeof(err)));
    assert_non_null(strstr(err, "cannot listen"));
    gdb_stub_free(a);
    assert_int_equal(gdb_stub_port(NULL), -1);
    gdb_stub_free(NULL);
    gdb_stub_report_exit(NULL, 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xml),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_registers),
        cmocka_unit_test(test_queue_and_pc_writes),
        cmocka_unit_test(test_breakpoints),
        cmocka_unit_test(test_steps),
        cmocka_unit_test(test_watchpoint),
        cmocka_unit_test(test_watch_templates),
        cmocka_unit_test(test_interrupt),
        cmocka_unit_test(test_close),
        cmocka_unit_test(test_traps),
        cmocka_unit_test(test_machine_stop_first),
        cmocka_unit_test(test_monitor),
        cmocka_unit_test(test_random_packets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
