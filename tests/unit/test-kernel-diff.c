/*
 * Differential test of kernel bodies: random MPAR/MSEQ kernels (random
 * lane bounds; bodies drawing from the integer, compare/select, FP,
 * bridged load/store and atomic forms with random RegId10 operands and
 * types; forward branches on p and the scalar hands, or cross-lane
 * reductions and shuffles) run under the IR interpreter, the JIT, and the
 * JIT with one-instruction TBs around the kernel; the output buffer,
 * GPRs, FCSR, insn_count, lc0..lc2 and the trap state must be equal.
 * A mismatch prints the seed and the program (LINX_KDIFF_SEED=N runs one).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernel-rig.h"

enum {
    PROGRAMS = 300,
    BODY_MAX = 24,
    OUT_ROWS = 48,    /* out[row][lane], 8 bytes, 16 lanes per row */
    OUT_LANES = 16,
    VEC_PROGRAMS = 200,
    VEC_LANES = 700,  /* several 256-lane steps of vector mode */
};

typedef struct Gen {
    uint64_t s;
    char *buf;
    size_t len, cap;
} Gen;

static uint64_t rnd(Gen *g)
{
    g->s ^= g->s >> 12;
    g->s ^= g->s << 25;
    g->s ^= g->s >> 27;
    return g->s * UINT64_C(2685821657736338717);
}

static unsigned pick(Gen *g, unsigned n)
{
    return (unsigned)(rnd(g) % n);
}

static void emit(Gen *g, const char *fmt, ...)
{
    va_list ap;
    int n;

    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < g->cap - g->len) {
            g->len += (size_t)n;
            return;
        }
        g->cap *= 2;
        g->buf = realloc(g->buf, g->cap);
    }
}

static const char *const itypes[] = { ".ud", ".sd", ".uw", ".sw", ".uh", ".sh", ".ub", ".sb" };
static const char *const dtypes_[] = { ".d", ".sd", ".w", ".sw", ".h", ".sh", ".b", ".sb" };

/* A random source: vector entries (vm only as #1/#2), imports, lanes,
 * bounds, hands, zero; @scalar: no vector registers (an l.* source). */
static void src(Gen *g, bool scalar, bool fp)
{
    static const char *const vec[] = { "vt#1", "vt#2", "vt#3", "vt#4", "vu#1", "vu#2", "vu#3",
                                       "vu#4", "vm#1", "vm#2", "vt#1.reuse" };
    static const char *const sca[] = { "ri0", "ri1", "ri2", "ri3", "lc0", "lc1", "lb0", "zero",
                                       "t#1", "t#2", "u#1" };
    const char *n = (!scalar && pick(g, 3)) ? vec[pick(g, 11)] : sca[pick(g, 11)];

    emit(g, "%s%s", n, fp ? (pick(g, 2) ? ".fs" : ".fd") : itypes[pick(g, 8)]);
}

static void vdst(Gen *g)
{
    static const char *const q[] = { "vt", "vu", "vm", "vn" };

    emit(g, "->%s%s", q[pick(g, 4)], dtypes_[pick(g, 8)]);
}

/* One body instruction (never a branch). */
static void body_op(Gen *g, bool xlane)
{
    static const char *const rr[] = { "add", "sub", "and", "or", "xor", "sll", "srl", "sra",
                                      "mul", "div", "rem", "max", "min" };
    static const char *const ri[] = { "addi", "subi", "andi", "ori", "xori" };
    static const char *const cmp[] = { "eq", "ne", "lt", "ge", "ltu", "geu", "and", "or" };
    static const char *const fp2[] = { "fadd", "fsub", "fmul", "fdiv", "fmax", "fmin", "flt",
                                       "feq" };
    static const char *const red[] = { "rdadd", "rdand", "rdor", "rdxor", "rdmax", "rdmin" };
    unsigned k = pick(g, xlane ? 14 : 13);

    emit(g, "    ");
    switch (k) {
    case 0: case 1: case 2:
        emit(g, "v.%s ", rr[pick(g, 13)]);
        src(g, false, false);
        emit(g, ", ");
        src(g, false, false);
        emit(g, ", ");
        vdst(g);
        break;
    case 3:
        emit(g, "v.%s ", ri[pick(g, 5)]);
        src(g, false, false);
        emit(g, ", %d, ", (int)pick(g, 200));
        vdst(g);
        break;
    case 4:
        emit(g, "v.%s ", pick(g, 2) ? "slli" : "srai");
        src(g, false, false);
        emit(g, ", %u, ", pick(g, 64));
        vdst(g);
        break;
    case 5:
        /* compares: to p (l.* when the sources are scalar) or a queue */
        emit(g, "v.cmp.%s ", cmp[pick(g, 8)]);
        src(g, false, false);
        emit(g, ", ");
        src(g, false, false);
        emit(g, pick(g, 2) ? ", ->p" : ", ->vu.d");
        break;
    case 6:
        emit(g, "v.csel ");
        src(g, false, false);
        emit(g, ", ");
        src(g, false, false);
        emit(g, ", ");
        src(g, false, false);
        emit(g, ", ");
        vdst(g);
        break;
    case 7:
        emit(g, "v.madd ");
        src(g, false, false);
        emit(g, ", ");
        src(g, false, false);
        emit(g, ", ");
        src(g, false, false);
        emit(g, ", ");
        vdst(g);
        break;
    case 8:
        emit(g, "v.%s ", fp2[pick(g, 8)]);
        src(g, false, true);
        emit(g, ", ");
        src(g, false, true);
        emit(g, ", ->vm.d");
        break;
    case 9:
        emit(g, "v.ldi.brg [ri0, lc0<<3, %u], ->vt.d", 8 * pick(g, 16));
        break;
    case 10:
        emit(g, "v.sdi.brg ");
        src(g, false, false);
        emit(g, ", [ri1, lc0<<3, %u]", 128 * pick(g, OUT_ROWS));
        break;
    case 11:
        /* l.*: scalar sources, a scalar hand, or p */
        emit(g, "v.add ");
        src(g, true, false);
        emit(g, ", ");
        src(g, true, false);
        emit(g, pick(g, 4) ? (pick(g, 2) ? ", ->t.d" : ", ->u.d") : ", ->p");
        break;
    case 12:
        emit(g, "v.sw.add [ri2], ");
        src(g, false, false);
        break;
    default:
        if (pick(g, 3)) {
            emit(g, "v.%s ", red[pick(g, 6)]);
            src(g, false, false);
            emit(g, pick(g, 2) ? ", ->t.d" : ", ->vn.sw");
        } else {
            emit(g, "v.shfli.%s ", pick(g, 2) ? "up" : "down");
            src(g, false, false);
            emit(g, ", ri3.ud, %u, ->vt.d", pick(g, 9));
        }
        break;
    }
    emit(g, "\n");
}

static void gen_program(Gen *g)
{
    bool xlane = pick(g, 4) == 0;
    unsigned n = 1 + pick(g, BODY_MAX), labels = 0;

    g->len = 0;
    emit(g, "    .text\n    .globl _start\n_start:\n    C.BSTART.STD FALL\n");
    emit(g, "    addtpc in, ->s0\n    addi s0, in, ->s0\n");
    emit(g, "    addtpc out, ->s1\n    addi s1, out, ->s1\n");
    emit(g, "    addtpc cnt, ->s2\n    addi s2, cnt, ->s2\n");
    emit(g, "    hl.lis %d, ->s3\n", (int)pick(g, 5));
    emit(g, "    %s VS16\n    B.TEXT .body\n    B.IOR [s0, s1, s2],[]\n    B.IOR [s3],[]\n",
         pick(g, 2) ? "BSTART.MSEQ" : "BSTART.MPAR");
    emit(g, "    C.B.DIMI %u, ->lb0\n", 1 + pick(g, OUT_LANES));
    if (pick(g, 2)) {
        emit(g, "    C.B.DIMI %u, ->lb1\n", pick(g, 3));
    }
    emit(g, "    C.BSTART.STD FALL\n    ebreak 0\n    C.BSTOP\n.body:\n");
    for (unsigned i = 0; i < n; i++) {
        if (pick(g, 8 * n) == 0) {
            /* a page fault in some lane (lanes >= 4 reach unmapped memory) */
            emit(g, "    v.lw.brg [ri0, lc0.ud<<22], ->vt.w\n");
        }
        if (!xlane && pick(g, 6) == 0) {
            /* a forward branch over the next instruction(s) */
            static const char *const br[] = { "b.z", "b.nz", "b.eq t#1, u#1,", "b.ltu t#1, t#2,",
                                              "j" };
            emit(g, "    %s .L%u\n", br[pick(g, 5)], labels);
            body_op(g, false);
            if (pick(g, 2)) {
                body_op(g, false);
            }
            emit(g, ".L%u:\n", labels++);
        } else {
            body_op(g, xlane);
        }
    }
    emit(g, "    C.BSTOP\n    .data\n    .p2align 3\nin:\n");
    for (unsigned i = 0; i < 16 * OUT_LANES; i++) {
        emit(g, "    .quad %llu\n", (unsigned long long)rnd(g));
    }
    emit(g, "cnt: .quad 0\nout: .zero %u\n", 8 * OUT_LANES * OUT_ROWS);
}

/* ---- Vector mode (kernel-vec.c): bodies it takes, against lane by lane ---- */

/* A body of only the forms vector mode takes: integer ALU, FP32/FP64
 * arithmetic, bridged strided loads and stores (some reading what others
 * store: overlapping ranges; some reaching unmapped memory at a random
 * lane: a fault mid-kernel), with LB0 across the 256-lane chunks. */
static void vec_op(Gen *g)
{
    static const char *const rr[] = { "add", "sub", "and", "or", "xor", "mul" };
    static const char *const ri[] = { "addi", "subi", "andi", "ori", "xori" };
    static const char *const sh[] = { "slli", "srli", "srai" };
    static const char *const fp[] = { "fadd", "fsub", "fmul", "fdiv", "fmax", "fmin" };
    static const char *const rmod[] = { "", "", ".sw", ".uw", ".neg", "<<3" };
    static const char *const fp3[] = { "fmadd", "fmsub", "fnmadd", "fnmsub" };

    emit(g, "    ");
    switch (pick(g, 12)) {
    case 0: case 1: {
        const char *op = rr[pick(g, 6)];
        const char *m = strcmp(op, "mul") ? rmod[pick(g, 6)] : "";
        if (!strcmp(m, ".neg") && (!strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor"))) {
            m = ".not";
        }
        emit(g, "v.%s ", op);
        src(g, false, false);
        emit(g, ", ");
        if (m[0] == '<' || m[0] == 0) {
            src(g, false, false);
            emit(g, "%s, ", m);
        } else {
            emit(g, "vt#%u%s, ", 1 + pick(g, 4), m);
        }
        vdst(g);
        break;
    }
    case 2:
        emit(g, "v.%s ", ri[pick(g, 5)]);
        src(g, false, false);
        emit(g, ", %d, ", (int)pick(g, 200));
        vdst(g);
        break;
    case 3:
        emit(g, "v.%s ", sh[pick(g, 3)]);
        src(g, false, false);
        emit(g, ", %u, ", pick(g, 64));
        vdst(g);
        break;
    case 4:
        emit(g, "v.madd ");
        src(g, false, false);
        emit(g, ", ");
        src(g, false, false);
        emit(g, ", ");
        src(g, false, false);
        emit(g, ", ");
        vdst(g);
        break;
    case 5: case 6: {
        const char *w = pick(g, 3) ? ".fs" : ".fd";
        emit(g, "v.%s vt#%u%s, %s%s, ->vt.%s", fp[pick(g, pick(g, 2) ? 3 : 6)], 1 + pick(g, 4), w,
             pick(g, 2) ? "vt#2" : "ri4", w, w[2] == 's' ? "w" : "d");
        break;
    }
    case 7: {
        const char *w = pick(g, 3) ? ".fs" : ".fd";
        emit(g, "v.%s vt#1%s, vt#2%s, vu#1%s, ->vt.%s", fp3[pick(g, 4)], w, w, w,
             w[2] == 's' ? "w" : "d");
        break;
    }
    case 8:
        switch (pick(g, 5)) {
        case 0: emit(g, "v.lwi.brg [ri0, lc0<<2, %u], ->vt.w", 4 * pick(g, 64)); break;
        case 1: emit(g, "v.lbui.brg [ri0, lc0<<0, %u], ->vu.sw", pick(g, 64)); break;
        case 2: emit(g, "v.ldi.brg [ri1, lc0<<3, %u], ->vt.d", 8 * pick(g, 8)); break;
        case 3: {
            /* every memory type into every destination type */
            static const char *const ld[] = { "lbi", "lbui", "lhi", "lhui", "lwi", "lwui", "ldi" };
            static const unsigned lg[] = { 0, 0, 1, 1, 2, 2, 3 };
            unsigned k = pick(g, 7);
            emit(g, "v.%s.brg [ri0, lc0<<%u, %u], ", ld[k], lg[k], pick(g, 16) << lg[k]);
            vdst(g);
            break;
        }
        default: emit(g, "v.ldi.brg [ri0, lc0<<3, %u], ->vt.d", 8 * pick(g, 16)); break;
        }
        break;
    case 9: case 10:
        if (pick(g, 2)) {
            emit(g, "v.sdi.brg ");
            src(g, false, false);
            emit(g, ", [ri1, lc0<<3, %u]", 8 * pick(g, 8));
        } else if (pick(g, 3) == 0) {
            unsigned lg = pick(g, 2);
            emit(g, "v.s%ci.brg ", lg ? 'h' : 'b');
            src(g, false, false);
            emit(g, ", [ri1, lc0<<%u, %u]", lg, pick(g, 16) << lg);
        } else {
            emit(g, "v.swi.brg ");
            src(g, false, false);
            emit(g, ", [ri1, lc0<<2, %u]", 4 * pick(g, 16));
        }
        break;
    default:
        if (pick(g, 4) == 0) {
            emit(g, "v.ldi.brg [ri2, lc0<<3, 0], ->vm.d"); /* faults at some lane */
        } else {
            emit(g, "v.lhi.brg [ri0, lc0<<1, %u], ->vn.sh", 2 * pick(g, 32));
        }
        break;
    }
    emit(g, "\n");
}

/* The program around a vector body: @body given (with @lanes lanes, no
 * fault through ri2 before lane 1000), or NULL: random. */
static void gen_vec_program_body(Gen *g, const char *body, unsigned lanes)
{
    unsigned n = 1 + pick(g, 12);

    g->len = 0;
    emit(g, "    .text\n    .globl _start\n_start:\n    C.BSTART.STD FALL\n");
    emit(g, "    addtpc in, ->s0\n    addi s0, in, ->s0\n");
    emit(g, "    addtpc out, ->s1\n    addi s1, out, ->s1\n");
    /* ri2: the last 8 * k bytes of mapped memory, k random (0: all fault) */
    emit(g, "    hl.lis %llu, ->s2\n",
         (unsigned long long)(KRIG_MEM_BASE + KRIG_MEM_SIZE -
                              8 * (body ? 1000 : pick(g, VEC_LANES + 40))));
    emit(g, "    hl.lis %u, ->s3\n", pick(g, 100));
    emit(g, "    hl.lis 0x%x, ->s4\n", pick(g, 2) ? 0x3f000000u + pick(g, 0x800000) : 0x40400000u);
    emit(g, "    hl.lis %u, ->a0\n", lanes);
    emit(g, "    BSTART.%s VS16\n    B.TEXT .body\n    B.IOR [s0, s1, s2],[]\n    B.IOR [s3, s4],[]\n",
         body || pick(g, 2) ? "MPAR" : "MSEQ");
    emit(g, "    B.DIM a0, 0, ->lb0\n");
    if (!body && pick(g, 3) == 0) {
        emit(g, "    C.B.DIMI %u, ->lb1\n", pick(g, 3));
    }
    emit(g, "    C.BSTART.STD FALL\n    ebreak 0\n    C.BSTOP\n.body:\n");
    if (body) {
        emit(g, "%s", body);
    }
    for (unsigned i = 0; !body && i < n; i++) {
        vec_op(g);
    }
    emit(g, "    C.BSTOP\n    .data\n    .p2align 3\nin:\n");
    for (unsigned i = 0; i < 2 * VEC_LANES + 32; i++) {
        uint64_t x = rnd(g);
        if (pick(g, 2)) {
            /* two FP32 values of a few bits: exact sums and products */
            x = (uint64_t)(0x3f800000u + (pick(g, 64) << 17)) << 32 |
                (0x40000000u + (pick(g, 64) << 18) + (pick(g, 2) ? 0x80000000u : 0));
        }
        emit(g, "    .quad %llu\n", (unsigned long long)x);
    }
    emit(g, "cnt: .quad 0\nout: .zero %u\n", 8 * OUT_LANES * OUT_ROWS);
}

static void gen_vec_program(Gen *g)
{
    gen_vec_program_body(g, NULL, pick(g, 8) ? 1 + pick(g, VEC_LANES) : pick(g, 2));
}

typedef struct Outcome {
    int excp;
    uint64_t trapno, traparg0, trap_pc, pc, insn_count, fcsr;
    uint64_t gpr[LINX_NUM_GPRS], lc[3];
    uint64_t vec_lanes; /* not compared */
    uint8_t out[8 * OUT_LANES * OUT_ROWS + 8];
} Outcome;

static void run_one(const char *src, LinxAccel accel, bool one_insn, Outcome *o)
{
    LinxExecOptions eo;
    KRig r;

    linx_exec_options_init(&eo);
    eo.accel = accel;
    eo.one_insn_per_tb = one_insn;
    krig_start_opts(&r, src, &eo, false);
    krig_run(&r);
    memset(o, 0, sizeof(*o));
    o->excp = r.excp;
    o->trapno = r.env->trapno;
    o->traparg0 = r.env->traparg0;
    o->trap_pc = r.env->trap_pc;
    o->pc = r.env->pc;
    o->insn_count = r.env->insn_count;
    o->fcsr = r.env->fcsr;
    memcpy(o->gpr, r.env->gpr, sizeof(o->gpr));
    memcpy(o->lc, r.env->lc, sizeof(o->lc));
    o->vec_lanes = r.env->kern.vec_lanes;
    assert_int_equal(guest_mem_debug_rw(r.gm, krig_sym(&r, "cnt"), o->out, sizeof(o->out), false),
                     GM_OK);
    krig_free(&r);
}

static bool same(const Outcome *a, const Outcome *b, bool counts)
{
    return a->excp == b->excp && a->trapno == b->trapno && a->traparg0 == b->traparg0 &&
           a->trap_pc == b->trap_pc && a->fcsr == b->fcsr &&
           memcmp(a->gpr, b->gpr, sizeof(a->gpr)) == 0 &&
           memcmp(a->lc, b->lc, sizeof(a->lc)) == 0 &&
           memcmp(a->out, b->out, sizeof(a->out)) == 0 &&
           (!counts || a->insn_count == b->insn_count);
}

static void test_random_kernels(void **state)
{
    Gen g = { 0, malloc(4096), 0, 4096 };
    const char *one = getenv("LINX_KDIFF_SEED");
    unsigned n = one ? 1 : PROGRAMS, traps = 0;
    Outcome *o = calloc(3, sizeof(Outcome));

    (void)state;
    for (unsigned i = 0; i < n; i++) {
        uint64_t seed = one ? strtoull(one, NULL, 0) : 1000 + i;
        g.s = seed * UINT64_C(0x9e3779b97f4a7c15) + 1;
        gen_program(&g);
        run_one(g.buf, LINX_ACCEL_INTERP, false, &o[0]);
        run_one(g.buf, LINX_ACCEL_JIT, false, &o[1]);
        run_one(g.buf, LINX_ACCEL_JIT, true, &o[2]);
        traps += o[0].excp == EXCP_TRAP && (o[0].trapno & 0x3f) != LINX_TRAP_SW_BREAKPOINT;
        /* one-insn TBs split the scalar blocks, not the kernel: the same
         * results, insn_count included */
        if (!same(&o[0], &o[1], true) || !same(&o[0], &o[2], true)) {
            fprintf(stderr, "kernel diff: seed %llu differs (interp / jit / jit one-insn):\n"
                            "excp %d %d %d trapno %llx %llx %llx insns %llu %llu %llu\n%s\n",
                    (unsigned long long)seed, o[0].excp, o[1].excp, o[2].excp,
                    (unsigned long long)o[0].trapno, (unsigned long long)o[1].trapno,
                    (unsigned long long)o[2].trapno, (unsigned long long)o[0].insn_count,
                    (unsigned long long)o[1].insn_count, (unsigned long long)o[2].insn_count,
                    g.buf);
            fail();
        }
    }
    print_message("kernel diff: %u programs, %u ended in a trap other than EBREAK\n", n, traps);
    free(o);
    free(g.buf);
}

/* Vector mode (LINX_KERNEL_NOSIMD=1 under the JIT, and the interpreter)
 * and the SIMD mode (the JIT's default) against the lane-by-lane code
 * (LINX_KERNEL_LANEWISE=1), under the JIT and the interpreter: the same
 * memory, registers, FCSR, insn_count, lane counters and traps. */
static void test_vector_kernels(void **state)
{
    Gen g = { 0, malloc(4096), 0, 4096 };
    const char *one = getenv("LINX_KDIFF_SEED");
    unsigned n = one ? 1 : VEC_PROGRAMS, traps = 0, vec = 0, simd = 0;
    Outcome *o = calloc(5, sizeof(Outcome));

    (void)state;
    for (unsigned i = 0; i < n; i++) {
        uint64_t seed = one ? strtoull(one, NULL, 0) : 5000 + i;
        g.s = seed * UINT64_C(0x9e3779b97f4a7c15) + 1;
        gen_vec_program(&g);
        assert_int_equal(setenv("LINX_KERNEL_LANEWISE", "1", 1), 0);
        run_one(g.buf, LINX_ACCEL_JIT, false, &o[0]);
        run_one(g.buf, LINX_ACCEL_INTERP, false, &o[1]);
        assert_int_equal(unsetenv("LINX_KERNEL_LANEWISE"), 0);
        assert_int_equal(setenv("LINX_KERNEL_NOSIMD", "1", 1), 0);
        run_one(g.buf, LINX_ACCEL_JIT, false, &o[2]);
        assert_int_equal(unsetenv("LINX_KERNEL_NOSIMD"), 0);
        run_one(g.buf, LINX_ACCEL_INTERP, false, &o[3]);
        run_one(g.buf, LINX_ACCEL_JIT, false, &o[4]);
        traps += o[0].excp == EXCP_TRAP && (o[0].trapno & 0x3f) != LINX_TRAP_SW_BREAKPOINT;
        assert_int_equal(o[0].vec_lanes + o[1].vec_lanes, 0);
        assert_int_equal(o[2].vec_lanes, o[3].vec_lanes);
        vec += o[2].vec_lanes != 0;
        simd += o[4].vec_lanes != 0;
        if (!same(&o[0], &o[1], true) || !same(&o[0], &o[2], true) ||
            !same(&o[0], &o[3], true) || !same(&o[0], &o[4], true)) {
            fprintf(stderr, "vector kernel diff: seed %llu differs (lanewise jit / interp, "
                            "vector jit / interp, simd jit):\nexcp %d %d %d %d %d insns %llu "
                            "%llu %llu %llu %llu fcsr %llx %llx %llx %llx %llx\n%s\n",
                    (unsigned long long)seed, o[0].excp, o[1].excp, o[2].excp, o[3].excp,
                    o[4].excp, (unsigned long long)o[0].insn_count,
                    (unsigned long long)o[1].insn_count, (unsigned long long)o[2].insn_count,
                    (unsigned long long)o[3].insn_count, (unsigned long long)o[4].insn_count,
                    (unsigned long long)o[0].fcsr, (unsigned long long)o[1].fcsr,
                    (unsigned long long)o[2].fcsr, (unsigned long long)o[3].fcsr,
                    (unsigned long long)o[4].fcsr, g.buf);
            fail();
        }
    }
    print_message("vector kernel diff: %u programs, %u ended in a trap other than EBREAK, %u ran"
                  " lanes in vector mode, %u in SIMD mode\n", n, traps, vec, simd);
    /* most bodies are vector mode's; some chunks fall back (faults,
     * overlapping ranges, misaligned bases) */
    assert_true(one || vec > n / 2);
    free(o);
    free(g.buf);
}

/* Vector mode's typed loops (a load's memory type into each destination
 * type in one loop, ALU results extended in the operation's loop, the
 * sources' extensions skipped where only their low bits matter) and the
 * whole-kernel access check (300 lanes: two steps): every lane in
 * vector mode, results as lane by lane. */
static void test_vector_types(void **state)
{
    static const char *const ld[] = { "lbi", "lbui", "lhi", "lhui", "lwi", "lwui", "ldi" };
    static const char *const alu[] = {
        "v.add vt#1%s, ri3.sd, ->vu%s\n", "v.sub vt#1%s, vt#1.sb, ->vu%s\n",
        "v.mul vt#1%s, vt#1.uh, ->vu%s\n", "v.srli vt#1%s, 3, ->vu%s\n",
        "v.srai vt#1%s, 5, ->vu%s\n", "v.xor vt#1%s, vt#1.not, ->vu%s\n",
        "v.slli vt#1%s, 9, ->vu%s\n",
    };
    Gen g = { 0, malloc(4096), 0, 4096 };
    Outcome *o = calloc(3, sizeof(Outcome));
    char body[512];
    unsigned runs = 0;

    (void)state;
    for (unsigned k = 0; k < 7; k++) {
        unsigned lg = k < 6 ? k / 2 : 3;
        for (unsigned t = 0; t < 8; t++) {
            snprintf(body, sizeof(body),
                     "    v.%s.brg [ri0, lc0<<%u, 0], ->vt%s\n"
                     "    v.sdi.brg vt#1.ud, [ri1, lc0<<3, 0]\n", ld[k], lg, dtypes_[t]);
            size_t base = strlen(body);
            for (unsigned a = 0; a < 7 + 1; a++) {
                size_t len = base;
                if (a < 7) {
                    /* then an ALU op on it, stored in full and narrow */
                    snprintf(body + len, sizeof(body) - len, alu[a], itypes[(k + a) % 8],
                             dtypes_[(t + a) % 8]);
                    len = strlen(body);
                    snprintf(body + len, sizeof(body) - len,
                             "    v.sdi.brg vu#1.ud, [ri1, lc0<<3, 2400]\n"
                             "    v.shi.brg vu#1%s, [ri1, lc0<<1, 4800]\n", itypes[(t + k) % 8]);
                }
                g.s = (k * 64 + t * 8 + a) * UINT64_C(0x9e3779b97f4a7c15) + 1;
                gen_vec_program_body(&g, body, 300);
                assert_int_equal(setenv("LINX_KERNEL_LANEWISE", "1", 1), 0);
                run_one(g.buf, LINX_ACCEL_JIT, false, &o[0]);
                assert_int_equal(unsetenv("LINX_KERNEL_LANEWISE"), 0);
                run_one(g.buf, LINX_ACCEL_JIT, false, &o[1]);
                run_one(g.buf, LINX_ACCEL_INTERP, false, &o[2]);
                if (!same(&o[0], &o[1], true) || !same(&o[0], &o[2], true)) {
                    fprintf(stderr, "vector types: differs from lane by lane:\n%s\n", g.buf);
                    fail();
                }
                assert_int_equal(o[0].vec_lanes, 0);
                assert_int_equal(o[1].vec_lanes, 300);
                assert_int_equal(o[2].vec_lanes, 300);
                runs++;
                body[base] = 0;
            }
        }
    }
    print_message("vector types: %u bodies\n", runs);
    free(o);
    free(g.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_kernels),
        cmocka_unit_test(test_vector_kernels),
        cmocka_unit_test(test_vector_types),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
