/*
 * Kernel-block translator tests (target/linx/kernel.h, docs/kernels.md):
 *   - RegId10 decoding: every code of isa/v0.4-draft/registers/regid10.json
 *     (when the shared folder is there) and the class rules for all 1024;
 *   - lane loops: lanes run for every LB0/LB1/LB2 combination (0 counts as 1
 *     for LB1 and LB2, LB0 = 0 runs nothing), and insn_count adds the body's
 *     instructions per lane;
 *   - one body, two headers: VS8 vs VS16 decided per kernel at its start;
 *   - a body rewritten by the guest is translated again (the body TB covers
 *     the body's pages);
 *   - a fault inside a body reports the faulting lane in lc0..lc2;
 *   - JR inside a body, and a kernel header in a loop (the chained path);
 *   - the exit check of body TBs (gdbstub mode);
 *   - TEPL through the translator with LINX_TEPL_REFERENCE both ways.
 * Programs run under the JIT and the interpreter.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "target/linx/kernel.h"

#include "kernel-rig.h"

static const LinxAccel accels[] = { LINX_ACCEL_JIT, LINX_ACCEL_INTERP };
#define NACCEL 2

/* ---------------------------------------------------------------------
 * RegId10
 * --------------------------------------------------------------------- */

static unsigned code(unsigned cls, unsigned idx)
{
    return cls << 5 | idx;
}

static void test_regid10_rules(void **state)
{
    LinxKReg r;

    (void)state;
    /* sources */
    assert_true(linx_kreg_src(code(0, 0), &r));
    assert_int_equal(r.kind, LINX_KR_VEC);
    assert_int_equal(r.queue, LINX_KQ_VT);
    assert_int_equal(r.k, 1);
    assert_true(linx_kreg_src(code(3, 27), &r));
    assert_int_equal(r.kind, LINX_KR_VEC);
    assert_int_equal(r.queue, LINX_KQ_VN);
    assert_int_equal(r.k, 4);
    assert_true(r.reuse);
    assert_false(linx_kreg_src(code(0, 4), &r)); /* vt#5 does not exist */
    assert_true(linx_kreg_src(code(1, 11), &r));
    assert_int_equal(r.kind, LINX_KR_RI);
    assert_int_equal(r.index, 11);
    assert_false(linx_kreg_src(code(1, 12), &r));
    assert_true(linx_kreg_src(code(1, 29), &r));
    assert_int_equal(r.kind, LINX_KR_HAND);
    assert_int_equal(r.queue, LINX_KQ_U);
    assert_int_equal(r.k, 2);
    assert_true(linx_kreg_src(code(2, 9), &r));
    assert_int_equal(r.kind, LINX_KR_LB);
    assert_int_equal(r.index, 2);
    assert_true(linx_kreg_src(code(2, 25), &r));
    assert_int_equal(r.kind, LINX_KR_TILE);
    assert_int_equal(r.index, LINX_KTILE_TS);
    assert_false(linx_kreg_src(code(2, 20), &r)); /* TE: reserved */
    assert_false(linx_kreg_src(code(2, 26), &r)); /* TO2: reserved */
    /* widths and the s/t bit */
    assert_true(linx_kreg_src(1u << 9 | 1u << 7 | code(0, 1), &r));
    assert_true(r.st);
    assert_int_equal(r.size_log2, 2);
    assert_true(linx_kreg_src(3u << 7 | code(2, 31), &r));
    assert_int_equal(r.kind, LINX_KR_ZERO);
    assert_int_equal(r.size_log2, 0);
    /* destinations */
    assert_true(linx_kreg_dst(code(0, 2), &r));
    assert_int_equal(r.kind, LINX_KR_VEC);
    assert_int_equal(r.queue, LINX_KQ_VM);
    assert_false(linx_kreg_dst(code(0, 8), &r)); /* vu#1 is not a push */
    assert_true(linx_kreg_dst(code(1, 31), &r));
    assert_int_equal(r.queue, LINX_KQ_T);
    assert_true(linx_kreg_dst(code(1, 30), &r));
    assert_int_equal(r.queue, LINX_KQ_U);
    assert_false(linx_kreg_dst(code(1, 0), &r)); /* ri0 is read-only */
    assert_true(linx_kreg_dst(code(2, 28), &r));
    assert_int_equal(r.kind, LINX_KR_P);
    assert_false(linx_kreg_dst(code(2, 24), &r)); /* TO is a base, not a value */
    /* every code decodes without trouble, and only documented ones succeed */
    for (unsigned c = 0; c < 1024; c++) {
        bool s = linx_kreg_src(c, &r);
        assert_int_equal(s, r.kind != LINX_KR_RESERVED);
        s = linx_kreg_dst(c, &r);
        assert_int_equal(s, r.kind != LINX_KR_RESERVED);
    }
}

/* Names of the kinds the JSON's "asm" fields use. */
static bool json_name_matches(const char *asm_name, unsigned cls, const LinxKReg *r)
{
    char n[16];
    size_t i;

    for (i = 0; asm_name[i] && asm_name[i] != '.' && i + 1 < sizeof(n); i++) {
        n[i] = asm_name[i];
    }
    n[i] = 0;
    switch (r->kind) {
    case LINX_KR_VEC: {
        static const char q[4] = { 'T', 'U', 'M', 'N' };
        return n[0] == 'V' && n[1] == q[r->queue] && n[2] == '#' && n[3] == '0' + r->k &&
               !n[4] && (cls == 3) == r->reuse;
    }
    case LINX_KR_RI:
        return strncmp(n, "RI", 2) == 0 && atoi(n + 2) == r->index;
    case LINX_KR_HAND:
        return n[0] == (r->queue == LINX_KQ_T ? 'T' : 'U') && n[1] == '#' && n[2] == '0' + r->k;
    case LINX_KR_LC:
        return strncmp(n, "LC", 2) == 0 && n[2] == '0' + r->index;
    case LINX_KR_LB:
        return strncmp(n, "LB", 2) == 0 && n[2] == '0' + r->index;
    case LINX_KR_TILE: {
        static const char *const names[] = { "TA", "TB", "TC", "TD", "TO", "TO1" };
        return strcmp(n, names[r->index]) == 0;
    }
    case LINX_KR_P:
        return strcmp(n, "P") == 0;
    case LINX_KR_ZERO:
        return strcmp(n, "ZERO") == 0;
    default:
        return false;
    }
}

static void test_regid10_json(void **state)
{
    char path[512], *text = NULL, *p;
    FILE *f;
    long len;
    unsigned checked = 0, cls = 0;

    (void)state;
    snprintf(path, sizeof(path), "%s/isa/v0.4-draft/registers/regid10.json",
             getenv("LINX_SHARED_DIR") ? getenv("LINX_SHARED_DIR") : LINX_SHARED_DIR);
    f = fopen(path, "rb");
    if (!f) {
        skip();
    }
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = calloc(1, (size_t)len + 1);
    assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    /* Walk the "namespaces": a "class" line, then its entries. */
    p = strstr(text, "\"namespaces\"");
    assert_non_null(p);
    while ((p = strpbrk(p, "\"")) != NULL) {
        unsigned idx;
        char name[16];
        if (sscanf(p, "\"class\": \"%u\"", &cls) == 1) {
            cls = (cls / 10) * 2 + cls % 10; /* "01" -> 1, "10" -> 2, "11" -> 3 */
        } else if (sscanf(p, "\"index\": %u, \"asm\": \"%15[^\"]\"", &idx, name) == 2) {
            static const char *const legacy[] = { "TE", "TF", "TG", "TH", "TO2", "TO3" };
            bool reserved = false;
            LinxKReg r;
            for (unsigned i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++) {
                reserved |= strcmp(name, legacy[i]) == 0;
            }
            /* kernel_execution.json: TE..TH, TO2, TO3 are "reserved_legacy" */
            assert_int_equal(linx_kreg_src(code(cls, idx), &r), !reserved);
            if (!reserved && !json_name_matches(name, cls, &r)) {
                fail_msg("class %u index %u: %s decodes as kind %u", cls, idx, name, r.kind);
            }
            checked++;
        }
        p++;
    }
    assert_true(checked >= 70);
    free(text);
}

/* ---------------------------------------------------------------------
 * Lane loops
 * --------------------------------------------------------------------- */

/* Each lane adds 1 to cnt with an atomic; the body has 3 instructions. */
static const char lanes_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD FALL\n"
    "    addtpc cnt, ->s0\n"
    "    addi s0, cnt, ->s0\n"
    "    hl.lis 1, ->s1\n"
    "    BSTART.MPAR VS16\n"
    "    B.TEXT .body\n"
    "    B.IOR [s0, s1],[]\n"
    "    B.DIM a0, 0, ->lb0\n"
    "    B.DIM a1, 0, ->lb1\n"
    "    B.DIM a2, 0, ->lb2\n"
    "    C.BSTART.STD FALL\n"
    "    ebreak 0\n"
    "    C.BSTOP\n"
    ".body:\n"
    "    v.sw.add [ri0], ri1.sw\n"
    "    v.addi lc0.ud, 1, ->vt.d\n"
    "    v.add vt#1.ud, lc1.ud, ->vt.d\n"
    "    C.BSTOP\n"
    "    .data\n"
    "    .p2align 3\n"
    "cnt: .quad 0\n";

static void test_lane_counts(void **state)
{
    static const uint64_t lb0[] = { 0, 1, 5 }, lb1[] = { 0, 1, 3 }, lb2[] = { 0, 2 };

    (void)state;
    for (unsigned a = 0; a < NACCEL; a++) {
        uint64_t base = 0;
        for (unsigned i = 0; i < 3; i++) {
            for (unsigned j = 0; j < 3; j++) {
                for (unsigned k = 0; k < 2; k++) {
                    KRig r;
                    uint64_t want = lb0[i] * (lb1[j] ? lb1[j] : 1) * (lb2[k] ? lb2[k] : 1);
                    krig_start(&r, lanes_src, accels[a], false);
                    r.env->gpr[LINX_REG_A0] = lb0[i];
                    r.env->gpr[LINX_REG_A0 + 1] = lb1[j];
                    r.env->gpr[LINX_REG_A0 + 2] = lb2[k];
                    krig_run_to_break(&r);
                    assert_int_equal(krig_read(&r, krig_sym(&r, "cnt"), 8), want);
                    /* the body adds 3 instructions per lane (LB0 = 0 first) */
                    if (i == 0 && j == 0 && k == 0) {
                        base = r.env->insn_count;
                    }
                    assert_int_equal(r.env->insn_count, base + 3 * want);
                    assert_int_equal(r.env->kern.kernels, 1);
                    assert_int_equal(r.env->kern.lanes_run, want);
                    krig_free(&r);
                }
            }
        }
    }
}

/* A cross-lane instruction retires once per lane of its group, like the
 * lane instructions and like its commit-trace rows (docs/engine.md): the
 * body v.addi; v.rdadd; v.addi over LB0 x LB1 lanes adds 3 per lane (the
 * reduction was not counted).  The sum of lc0 + 1 over the group lands in
 * every lane's t#1; the last group's value is stored. */
static const char xlane_count_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD FALL\n"
    "    addtpc out, ->s0\n"
    "    addi s0, out, ->s0\n"
    "    BSTART.MPAR VS16\n"
    "    B.TEXT .body\n"
    "    B.IOR [s0],[]\n"
    "    B.DIM a0, 0, ->lb0\n"
    "    B.DIM a1, 0, ->lb1\n"
    "    C.BSTART.STD FALL\n"
    "    ebreak 0\n"
    "    C.BSTOP\n"
    ".body:\n"
    "    v.addi lc0.ud, 1, ->vt.d\n"
    "    v.rdadd vt#1.sw, ->t.d\n"
    "    v.sdi.brg t#1.sd, [ri0, lc0<<3, 0]\n"
    "    C.BSTOP\n"
    "    .data\n"
    "    .p2align 3\n"
    "out: .zero 64\n";

static void test_xlane_counts(void **state)
{
    static const uint64_t lb0[] = { 1, 4, 7 }, lb1[] = { 1, 3 };

    (void)state;
    for (unsigned a = 0; a < NACCEL; a++) {
        for (unsigned i = 0; i < 3; i++) {
            for (unsigned j = 0; j < 2; j++) {
                KRig r0, r;
                uint64_t lanes = lb0[i] * lb1[j];

                /* LB0 = 0 runs no lane: the rest of the program's count */
                krig_start(&r0, xlane_count_src, accels[a], false);
                r0.env->gpr[LINX_REG_A0] = 0;
                r0.env->gpr[LINX_REG_A0 + 1] = lb1[j];
                krig_run_to_break(&r0);
                krig_start(&r, xlane_count_src, accels[a], false);
                r.env->gpr[LINX_REG_A0] = lb0[i];
                r.env->gpr[LINX_REG_A0 + 1] = lb1[j];
                krig_run_to_break(&r);
                assert_int_equal(krig_read(&r, krig_sym(&r, "out"), 8),
                                 lb0[i] * (lb0[i] + 1) / 2);
                assert_int_equal(r.env->insn_count, r0.env->insn_count + 3 * lanes);
                krig_free(&r0);
                krig_free(&r);
            }
        }
    }
}

/* ---------------------------------------------------------------------
 * One body, two headers; rewritten bodies; faults; JR; loops
 * --------------------------------------------------------------------- */

static const char shared_body_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD FALL\n"
    "    addtpc out, ->s0\n"
    "    addi s0, out, ->s0\n"
    "    BSTART.MSEQ VS16\n"
    "    B.TEXT .body\n"
    "    B.IOR [s0],[]\n"
    "    C.B.DIMI 2, ->lb0\n"
    "    BSTART.MSEQ VS8\n"
    "    B.TEXT .body\n"
    "    B.IOR [s0],[]\n"
    "    C.B.DIMI 2, ->lb0\n"
    "    C.BSTART.STD FALL\n"
    "    ebreak 0\n"
    "    C.BSTOP\n"
    ".body:\n"
    "    v.addi lc0.ud, 40, ->vm.d\n"
    "    v.sdi.brg vm#1.ud, [ri0, lc0<<3, 0]\n"
    "    C.BSTOP\n"
    "    .data\n"
    "    .p2align 3\n"
    "out: .quad 0, 0\n";

static void test_shared_body(void **state)
{
    (void)state;
    for (unsigned a = 0; a < NACCEL; a++) {
        KRig r;
        krig_start(&r, shared_body_src, accels[a], false);
        krig_run(&r);
        /* The VS16 kernel ran; the VS8 one raised at the vm instruction. */
        assert_int_equal(r.excp, EXCP_TRAP);
        assert_int_equal(krig_trapnum(&r), LINX_TRAP_ILLEGAL_INST);
        assert_int_equal(krig_cause(&r), LINX_CAUSE(LINX_EC_ILLEGAL, 0));
        assert_int_equal(r.env->trap_pc, krig_sym(&r, ".body"));
        assert_int_equal(krig_read(&r, krig_sym(&r, "out") + 8, 8), 41);
        krig_free(&r);
    }
}

/* The program runs its kernel, patches the body's v.addi immediate
 * (40 -> 50: the 64-bit instruction's upper word) and runs it again. */
static const char smc_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD FALL\n"
    "    addtpc out, ->s0\n"
    "    addi s0, out, ->s0\n"
    "    addtpc .body, ->s1\n"
    "    addi s1, .body, ->s1\n"
    "    hl.lis 0, ->s2\n"
    "again:\n"
    "    BSTART.MSEQ VS16\n"
    "    B.TEXT .body\n"
    "    B.IOR [s0],[]\n"
    "    C.B.DIMI 2, ->lb0\n"
    "    C.BSTART.STD FALL\n"
    "    lwi [s1, 4], ->a0\n"        /* the v.addi main word */
    "    slli a0, 44, ->a0\n"
    "    srli a0, 44, ->a0\n"        /* keep bits 19:0 */
    "    hl.lis 0x03200000, ->a1\n"  /* uimm12 = 50 at bits 31:20 */
    "    or a0, a1, ->a0\n"
    "    swi a0, [s1, 4]\n"
    "    fence.i\n"
    "    C.BSTART COND, again\n"
    "    addi s2, 1, ->s2\n"
    "    setc.eqi s2, 1\n"
    "    C.BSTART.STD FALL\n"
    "    ebreak 0\n"
    "    C.BSTOP\n"
    "    .p2align  3\n"
    ".body:\n"
    "    v.addi lc0.ud, 40, ->vt.d\n"
    "    v.sdi.brg vt#1.ud, [ri0, lc0<<3, 0]\n"
    "    C.BSTOP\n"
    "    .data\n"
    "    .p2align 3\n"
    "out: .quad 0, 0\n";

static void test_body_rewritten(void **state)
{
    (void)state;
    for (unsigned a = 0; a < 2 * NACCEL; a++) {
        KRig r;
        char *src = strdup(smc_src);
        if (a >= NACCEL) {
            /* No FENCE.I, and the body alone on its page: only the body
             * TB's page registration can notice the store. */
            char *p = strstr(src, "    fence.i\n");
            memset(p, ' ', strlen("    fence.i"));
            p = strstr(src, "    .p2align  3\n.body");
            memcpy(p, "    .p2align 12", strlen("    .p2align 12"));
        }
        krig_start(&r, src, accels[a % NACCEL], false);
        free(src);
        krig_run_to_break(&r);
        assert_int_equal(krig_read(&r, krig_sym(&r, "out"), 8), 50);
        assert_int_equal(krig_read(&r, krig_sym(&r, "out") + 8, 8), 51);
        krig_free(&r);
    }
}

/* Lane 5 of 8 loads from an unmapped page: the trap names the lane. */
static const char fault_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD FALL\n"
    "    hl.lis 0x10000, ->s0\n"
    "    hl.lis 0x1c0, ->s1\n"
    "    BSTART.MPAR VS16\n"
    "    B.TEXT .body\n"
    "    B.IOR [s0, s1],[]\n"
    "    C.B.DIMI 8, ->lb0\n"
    "    C.B.DIMI 3, ->lb1\n"
    "    C.BSTART.STD FALL\n"
    "    ebreak 0\n"
    "    C.BSTOP\n"
    ".body:\n"
    "    v.cmp.eqi lc1.ud, 1, ->p\n"
    "    v.mul lc0.ud, ri1.ud, ->vt.d\n"
    "    v.lw.brg [ri0, vt#1.ud<<10], ->vt.w\n"
    "    C.BSTOP\n";

static void test_fault_in_body(void **state)
{
    (void)state;
    for (unsigned a = 0; a < NACCEL; a++) {
        KRig r;
        krig_start(&r, fault_src, accels[a], false);
        krig_run(&r);
        /* 0x10000 + l * 0x70000 leaves the mapped area (up to 0x210000) at
         * lane 5 of group 1 (the lanes of group 0 are inactive: they
         * access nothing, so they do not fault). */
        assert_int_equal(r.excp, EXCP_TRAP);
        assert_int_equal(krig_trapnum(&r), LINX_TRAP_DATA_PAGE_FAULT);
        assert_int_equal(r.env->lc[0], 5);
        assert_int_equal(r.env->lc[1], 1);
        assert_int_equal(r.env->traparg0, 0x10000 + 5 * 0x70000);
        krig_free(&r);
    }
}

/* JR: each lane jumps into a table of three entries by (lc0 % 3) * 8. */
static const char jr_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD FALL\n"
    "    addtpc out, ->s0\n"
    "    addi s0, out, ->s0\n"
    "    hl.lis 3, ->s1\n"
    "    BSTART.MSEQ VS16\n"
    "    B.TEXT .body\n"
    "    B.IOR [s0, s1],[]\n"
    "    C.B.DIMI 6, ->lb0\n"
    "    C.BSTART.STD FALL\n"
    "    ebreak 0\n"
    "    C.BSTOP\n"
    ".body:\n"
    "    v.rem lc0.ud, ri1.ud, ->t.d\n"
    "    v.slli t#1.ud, 4, ->t.d\n"       /* entries are 16 bytes */
    "    jr t#1, .table\n"
    ".table:\n"
    "    v.addi zero.ud, 100, ->u.d\n"   /* entries: 8 + 4 + 4 bytes */
    "    j .store\n"
    "    j .store\n"
    "    v.addi zero.ud, 200, ->u.d\n"
    "    j .store\n"
    "    j .store\n"
    "    v.addi zero.ud, 300, ->u.d\n"
    ".store:\n"
    "    v.sdi.brg u#1.ud, [ri0, lc0<<3, 0]\n"
    "    C.BSTOP\n"
    "    .data\n"
    "    .p2align 3\n"
    "out: .zero 48\n";

static void test_jr(void **state)
{
    (void)state;
    for (unsigned a = 0; a < NACCEL; a++) {
        KRig r;
        uint64_t out;
        krig_start(&r, jr_src, accels[a], false);
        krig_run_to_break(&r);
        out = krig_sym(&r, "out");
        assert_int_equal(krig_read(&r, out, 8), 100);
        assert_int_equal(krig_read(&r, out + 8, 8), 200);
        assert_int_equal(krig_read(&r, out + 16, 8), 300);
        assert_int_equal(krig_read(&r, out + 40, 8), 300);
        krig_free(&r);
    }
}

/* A kernel in a counted loop: the header's TB chains into the body's. */
static const char loop_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD FALL\n"
    "    addtpc acc, ->s0\n"
    "    addi s0, acc, ->s0\n"
    "    hl.lis 0, ->s1\n"
    "loop:\n"
    "    BSTART.MSEQ VS16\n"
    "    B.TEXT .body\n"
    "    B.IOR [s0, s1],[]\n"
    "    C.B.DIMI 4, ->lb0\n"
    "    C.BSTART COND, loop\n"
    "    addi s1, 1, ->s1\n"
    "    setc.nei s1, 100\n"
    "    C.BSTART.STD FALL\n"
    "    ebreak 0\n"
    "    C.BSTOP\n"
    ".body:\n"
    "    v.ldi.brg [ri0, lc0<<3, 0], ->vt.d\n"
    "    v.add vt#1.ud, ri1.ud, ->vt.d\n"
    "    v.sdi.brg vt#1.ud, [ri0, lc0<<3, 0]\n"
    "    C.BSTOP\n"
    "    .data\n"
    "    .p2align 3\n"
    "acc: .quad 1, 2, 3, 4\n";

static void test_kernel_in_loop(void **state)
{
    (void)state;
    for (unsigned a = 0; a < NACCEL; a++) {
        for (unsigned chk = 0; chk < 2; chk++) {
            LinxExecOptions eo;
            KRig r;
            linx_exec_options_init(&eo);
            eo.accel = accels[a];
            krig_start_opts(&r, loop_src, &eo, false);
            if (chk) {
                /* gdbstub mode: body TBs start with the exit check */
                linx_exec_set_exit_check(r.ec, true);
            }
            krig_run_to_break(&r);
            /* each lane adds 0 + 1 + ... + 99 = 4950 */
            assert_int_equal(krig_read(&r, krig_sym(&r, "acc"), 8), 4951);
            assert_int_equal(krig_read(&r, krig_sym(&r, "acc") + 24, 8), 4954);
            assert_int_equal(r.env->kern.kernels, 100);
            krig_free(&r);
        }
    }
}

/* ---------------------------------------------------------------------
 * TEPL through the translator, both implementations
 * --------------------------------------------------------------------- */

static const char tepl_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD FALL\n"
    "    addtpc m, ->s0\n"
    "    addi s0, m, ->s0\n"
    "    hl.lis 0x40000000, ->s1\n"     /* 2.0f */
    "    BSTART.TMA TLOAD, FP32\n"
    "    C.B.DIMI 16, ->lb0\n"
    "    C.B.DIMI 8, ->lb1\n"
    "    C.B.DIMI 16, ->lb2\n"
    "    B.ARG NORM.normal\n"
    "    B.IOR [s0],[]\n"
    "    B.IOTI [], last ->u<512B>\n"
    "    BSTART.TEPL TDIVS, FP32\n"
    "    C.B.DIMI 16, ->lb0\n"
    "    C.B.DIMI 8, ->lb1\n"
    "    B.IOR [s1],[]\n"
    "    B.IOTI [u#1], last ->t<512B>\n"
    "    BSTART.TEPL TMAX, FP32\n"
    "    C.B.DIMI 16, ->lb0\n"
    "    C.B.DIMI 8, ->lb1\n"
    "    B.IOTI [t#1, u#1], last ->t<512B>\n"
    "    BSTART.TMA TSTORE, FP32\n"
    "    C.B.DIMI 16, ->lb0\n"
    "    C.B.DIMI 8, ->lb1\n"
    "    C.B.DIMI 16, ->lb2\n"
    "    B.ARG NORM.normal\n"
    "    B.IOR [s0],[]\n"
    "    B.IOTI [t#1], last ->t<512B>\n"
    "    C.BSTART.STD FALL\n"
    "    ebreak 0\n"
    "    C.BSTOP\n"
    "    .data\n"
    "    .p2align 6\n"
    "m:\n"
    "    .word 0x3f800000, 0xbf800000, 0x7fc00000, 0x80000000\n"
    "    .zero 512 - 16\n";

static void test_tepl_translated(void **state)
{
    (void)state;
    for (unsigned a = 0; a < NACCEL; a++) {
        for (int ref = 0; ref < 2; ref++) {
            KRig r;
            uint64_t m;
            setenv("LINX_TEPL_REFERENCE", ref ? "1" : "0", 1);
            krig_start(&r, tepl_src, accels[a], true);
            krig_run_to_break(&r);
            m = krig_sym(&r, "m");
            /* max(x / 2, x): 1.0, -0.5, the default NaN (both NaN), -0 */
            assert_int_equal(krig_read(&r, m, 4), 0x3f800000);
            assert_int_equal(krig_read(&r, m + 4, 4), 0xbf000000);
            assert_int_equal(krig_read(&r, m + 8, 4), 0x7fc00000);
            assert_int_equal(krig_read(&r, m + 12, 4), 0x80000000);
            krig_free(&r);
        }
    }
    unsetenv("LINX_TEPL_REFERENCE");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regid10_rules),
        cmocka_unit_test(test_regid10_json),
        cmocka_unit_test(test_lane_counts),
        cmocka_unit_test(test_xlane_counts),
        cmocka_unit_test(test_shared_body),
        cmocka_unit_test(test_body_rewritten),
        cmocka_unit_test(test_fault_in_body),
        cmocka_unit_test(test_jr),
        cmocka_unit_test(test_kernel_in_loop),
        cmocka_unit_test(test_tepl_translated),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
