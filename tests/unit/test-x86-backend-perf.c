/*
 * x86-64 backend tests for the code-shape optimisations of
 * docs/performance.md, each checked on values (and, where the point is
 * fewer host instructions, on the out_asm listing):
 *   - brcond writes dirty globals back on its taken path only (an
 *     out-of-line stub), the fall-through keeps them in registers;
 *   - direct mode: a TLB hit adds the window base held in r15 (no addend
 *     load), a TLB_NOT_DIRECT page takes the slow path, and C callers
 *     (linx_ld/linx_st) ignore that flag;
 *   - the lookup helper's jump-cache probe in line: a hit jumps to the
 *     TB's code without a call, every kind of miss calls the helper;
 *   - the TLB reaches two 4 MiB buffers 4 MiB apart at once (no entry of
 *     one evicts an entry of the other);
 *   - a pinned global (BackendState.pinned_env_offset, insn_count in the
 *     emulator) lives in r14 across branches and TB exits, and env has its
 *     value wherever C code looks;
 *   - a loop inside the TB (a label whose only reference is a later br)
 *     keeps its loop-carried globals in registers across the back edge:
 *     no env store on the loop's main path, the right values on every
 *     exit, also around a helper call that writes globals and a guest
 *     load's slow path, with and without the pinned global;
 *   - add(y, shl(x, 1..3)) is one lea with a scaled index: every shift,
 *     negative, sign- and zero-extended indices, either operand order, an
 *     index that dies at the shl or lives on; a shifted value read twice
 *     keeps its shl.
 */
#include "test-x86-backend-fixture.h"

#include "tcg/exec-internal.h"
#include "tcg/x86_64/x86-gen.h"

#define LISTING_MAX 65536
#define STUB_MARKER "-- slow paths and branch write-backs"
/* A 64-bit store to an env field in the capstone listing. */
#define ENV_STORE "mov     qword ptr [rbp + "

/* Generate f->ir with the out_asm listing into @text. */
static void gen_listed(JitFixture *f, char *text, size_t cap)
{
    FILE *log = tmpfile();

    assert_non_null(log);
    fixture_gen(f, log);
    rewind(log);
    size_t n = fread(text, 1, cap - 1, log);
    text[n] = 0;
    fclose(log);
}

/* Lines of @text in [from, to) containing @needle. */
static unsigned count_lines(const char *from, const char *to, const char *needle)
{
    unsigned n = 0;
    size_t len = strlen(needle);
    const char *p = from;

    while (p < to) {
        const char *eol = strchr(p, '\n');
        const char *end = eol && eol < to ? eol : to;
        const char *hit = strstr(p, needle);
        if (hit && hit + len <= end) {
            n++;
        }
        if (!eol) {
            break;
        }
        p = eol + 1;
    }
    return n;
}

/*
 *   g1 += 1;  if (g0 == 1) goto l1;
 *   g1 += 10; g2 = 7;  if (g0 == 2) goto l2;
 *   g1 += 100; exit 0
 * l1: g3 = g1; exit 1
 * l2: g3 = g1 + g2; exit 2
 * Each exit must see the globals as they were at its branch; the main
 * path stores nothing before the final exit.
 */
static void test_brcond_writes_back_on_taken_path(void **state)
{
    JitFixture f;
    static char text[LISTING_MAX];

    fixture_init(&f);
    IRLabel l1 = ir_label(f.ir), l2 = ir_label(f.ir);
    ir_gen_addi(f.ir, f.g[1], f.g[1], 1);
    ir_gen_brcond(f.ir, IR_COND_EQ, f.g[0], ir_const(f.ir, 1), l1);
    ir_gen_addi(f.ir, f.g[1], f.g[1], 10);
    ir_gen_movi(f.ir, f.g[2], 7);
    ir_gen_brcond(f.ir, IR_COND_EQ, f.g[0], ir_const(f.ir, 2), l2);
    ir_gen_addi(f.ir, f.g[1], f.g[1], 100);
    ir_gen_exit_tb(f.ir, 0);
    ir_gen_set_label(f.ir, l1);
    ir_gen_mov(f.ir, f.g[3], f.g[1]);
    ir_gen_exit_tb(f.ir, 1);
    ir_gen_set_label(f.ir, l2);
    ir_gen_add(f.ir, f.g[3], f.g[1], f.g[2]);
    ir_gen_exit_tb(f.ir, 2);
    gen_listed(&f, text, sizeof(text));

    for (uint64_t path = 0; path < 3; path++) {
        f.env->gpr[0] = path;
        f.env->gpr[1] = 1000;
        f.env->gpr[2] = 1;
        f.env->gpr[3] = 0;
        assert_int_equal(fixture_run(&f), path);
        switch (path) {
        case 0:
            assert_int_equal(f.env->gpr[1], 1111);
            assert_int_equal(f.env->gpr[2], 7);
            assert_int_equal(f.env->gpr[3], 0);
            break;
        case 1:
            assert_int_equal(f.env->gpr[1], 1001);
            assert_int_equal(f.env->gpr[2], 1);
            assert_int_equal(f.env->gpr[3], 1001);
            break;
        default:
            assert_int_equal(f.env->gpr[1], 1011);
            assert_int_equal(f.env->gpr[2], 7);
            assert_int_equal(f.env->gpr[3], 1018);
            break;
        }
    }

    /* Body: g1, g2 at the last exit, g3 on each label path; stubs: g1,
     * then g1 and g2. */
    const char *stubs = strstr(text, STUB_MARKER);
    assert_non_null(stubs);
    assert_int_equal(count_lines(text, stubs, ENV_STORE), 4);
    assert_int_equal(count_lines(stubs, text + strlen(text), ENV_STORE), 3);
    fixture_fini(&f);
}

/* A counted loop unrolled into one TB (the front end's self-loop copies):
 * the loop exits by a taken brcond from any copy with the counter and sum
 * written back, and a helper call between copies sees the dirty values. */
static uint64_t h_sum_g1_g2(CPULinxState *env)
{
    return env->gpr[1] + env->gpr[2];
}

static const IRHelperInfo h_sum_info = { "sum_g1_g2", (void *)h_sum_g1_g2, 1, 1, 0, NULL };

static void test_unrolled_loop_exits(void **state)
{
    JitFixture f;
    enum { COPIES = 4 };

    fixture_init(&f);
    IRLabel out = ir_label(f.ir);
    IRTemp a[1] = { f.ir->env };
    for (unsigned c = 0; c < COPIES; c++) {
        ir_gen_add(f.ir, f.g[2], f.g[2], f.g[1]);
        ir_gen_addi(f.ir, f.g[1], f.g[1], -1);
        ir_gen_brcond(f.ir, IR_COND_EQ, f.g[1], ir_const(f.ir, 0), out);
        if (c == 1) {
            IRTemp r = ir_temp(f.ir);
            ir_gen_call(f.ir, &h_sum_info, r, 1, a);
            ir_gen_mov(f.ir, f.g[3], r);
        }
    }
    ir_gen_exit_tb(f.ir, 1);
    ir_gen_set_label(f.ir, out);
    ir_gen_exit_tb(f.ir, 2);
    fixture_gen(&f, NULL);

    for (uint64_t n = 1; n <= 2 * COPIES + 1; n++) {
        uint64_t cnt = n, sum = 0, calls = 0, ret;
        f.env->gpr[1] = n;
        f.env->gpr[2] = 0;
        f.env->gpr[3] = UINT64_MAX;
        /* Re-enter the TB as the chained self-loop would. */
        do {
            ret = fixture_run(&f);
        } while (ret == 1);
        assert_int_equal(ret, 2);
        for (unsigned c = 0; cnt; c = (c + 1) % COPIES) {
            sum += cnt--;
            if (c == 1 && cnt) {
                calls = cnt + sum;
            }
        }
        assert_int_equal(f.env->gpr[1], 0);
        assert_int_equal(f.env->gpr[2], sum);
        assert_int_equal(f.env->gpr[3], n > 2 ? calls : UINT64_MAX);
    }
    fixture_fini(&f);
}

/* Slow-path double: returns a marker and counts calls in env. */
#define SLOW_MARK UINT64_C(0x5105000000000000)

static uint64_t count_ld_slow(CPULinxState *env, uint64_t addr, uint64_t memop, uint64_t pc)
{
    env->insn_count++;
    return SLOW_MARK ^ addr;
}

static void test_direct_mode(void **state)
{
    JitFixture f;
    static char text[LISTING_MAX];
    const uint64_t far_page = GUEST_BASE + 2 * GUEST_PAGE_SIZE;
    LinxTLBEntry *far_e;

    fixture_init(&f);
    fixture_set_direct(&f, true);
    f.bs.ld_slow = count_ld_slow;
    for (unsigned i = 0; i < GUEST_BYTES; i++) {
        f.mem[i] = (uint8_t)(i * 7 + 3);
    }
    far_e = linx_tlb_entry(f.env, far_page);
    far_e->addr_read |= TLB_NOT_DIRECT;
    far_e->addr_write |= TLB_NOT_DIRECT;
    ir_gen_qemu_ld(f.ir, f.g[2], f.g[0], IR_MO_64 | IR_MO_ALIGN, 0x1000);
    ir_gen_qemu_st(f.ir, f.g[2], f.g[1], IR_MO_32 | IR_MO_ALIGN, 0x1004);
    ir_gen_exit_tb(f.ir, 0);
    gen_listed(&f, text, sizeof(text));
    /* The host address is [A + r15]: no addend load from the TLB. */
    const char *slow = strstr(text, STUB_MARKER);
    assert_non_null(slow);
    assert_int_equal(count_lines(text, slow, "+ r15]"), 2);
    assert_int_equal(count_lines(text, slow, "qword ptr [rbp + r"), 2); /* the two tag compares */

    for (unsigned n = 0; n < 200; n++) {
        uint64_t ld = GUEST_BASE + (rng64() % (GUEST_BYTES / 8)) * 8;
        uint64_t st = GUEST_BASE + (rng64() % (GUEST_BYTES / 4)) * 4;
        bool ld_far = (ld & GUEST_PAGE_MASK) == far_page;
        uint64_t want, raw;
        f.env->gpr[0] = ld;
        f.env->gpr[1] = st;
        f.env->insn_count = 0;
        memcpy(&raw, f.mem + (ld - GUEST_BASE), 8);
        want = ld_far ? SLOW_MARK ^ ld : raw;
        assert_int_equal(fixture_run(&f), 0);
        assert_int_equal(f.env->gpr[2], want);
        /* A store to the far page lands too (linx_st_slow: the addend). */
        uint32_t got;
        memcpy(&got, f.mem + (st - GUEST_BASE), 4);
        assert_int_equal(got, (uint32_t)want);
        assert_int_equal(f.env->insn_count, ld_far ? 1 : 0);
    }
    /* C callers use the addend whatever the flag says. */
    uint64_t raw;
    memcpy(&raw, f.mem + (far_page + 8 - GUEST_BASE), 8);
    assert_int_equal(linx_ld(f.env, far_page + 8, IR_MO_64 | IR_MO_ALIGN, 0), raw);
    linx_st(f.env, far_page + 16, 0xabcdef, IR_MO_16 | IR_MO_ALIGN, 0);
    assert_int_equal(f.mem[far_page + 16 - GUEST_BASE], 0xef);
    assert_int_equal(f.mem[far_page + 17 - GUEST_BASE], 0xcd);
    fixture_fini(&f);
}

/* The lookup helper double: counts calls, returns the epilogue's address
 * (which the test leaves in env->traparg0). */
static uint64_t double_lookup(CPULinxState *env)
{
    env->insn_count++;
    return env->traparg0;
}

static const IRHelperInfo h_lookup = { "lookup_tb_ptr", (void *)double_lookup, 1, 1,
                                       IR_CALL_NO_WG, NULL };

static void test_inline_lookup(void **state)
{
    enum { CASES = 7 };
    JitFixture f;
    TranslationBlock target;
    const uint64_t pc = 0x12344;
    const unsigned slot = tb_jmp_cache_hash(pc);

    for (unsigned bmi2 = 0; bmi2 < 2; bmi2++) {
        fixture_init(&f);
        if (!bmi2) {
            f.bs.host_features &= ~(uint32_t)X86_FEAT_BMI2;
        }
        f.env->traparg0 = (uint64_t)(uintptr_t)f.bs.exit_addr;
        /* The target TB: g2 = 77, exit 0x40. */
        ir_gen_movi(f.ir, f.g[2], 77);
        ir_gen_exit_tb(f.ir, 0x40);
        fixture_gen(&f, NULL);
        target = f.tb;
        /* The source: g3 += 1 (dirty at the jump), then the lookup. */
        ir_reset(f.ir);
        ir_gen_addi(f.ir, f.g[3], f.g[3], 1);
        IRTemp t = ir_temp(f.ir), a[1] = { f.ir->env };
        ir_gen_call(f.ir, &h_lookup, t, 1, a);
        ir_gen_goto_ptr(f.ir, t);
        f.bs.lookup_info = &h_lookup;
        f.bs.lookup_slow = double_lookup;
        f.bs.pc_offset = (int32_t)offsetof(CPULinxState, pc);
        f.bs.tb_flags_offset = (int32_t)offsetof(CPULinxState, resume);
        fixture_gen(&f, NULL);

        for (unsigned c = 0; c < CASES; c++) {
            bool hit = c == 0;
            target.pc = c == 2 ? pc + 2 : pc;
            target.flags = c == 3 ? TB_F_TRACE : 0;
            target.cflags = c == 4 ? TB_C_CFI_BAD : 0;
            f.env->engine.tb_jmp_cache[slot] = c == 1 ? NULL : &target;
            f.env->resume = c == 5 ? TB_F_RESUME : 0;
            f.env->pc = pc;
            f.env->gpr[2] = 0;
            f.env->gpr[3] = 10;
            f.env->insn_count = 0;
            if (c == 6) {
                /* Wrong slot: another pc's entry. */
                f.env->engine.tb_jmp_cache[slot] = NULL;
                f.env->engine.tb_jmp_cache[(slot + 1) % LINX_TB_JMP_CACHE_SIZE] = &target;
            }
            assert_int_equal(fixture_run(&f), hit ? 0x40 : 0);
            assert_int_equal(f.env->gpr[2], hit ? 77 : 0);
            assert_int_equal(f.env->gpr[3], 11);
            assert_int_equal(f.env->insn_count, hit ? 0 : 1);
            f.env->engine.tb_jmp_cache[(slot + 1) % LINX_TB_JMP_CACHE_SIZE] = NULL;
        }
        /* Without lookup_slow the call stays a call (chaining off). */
        f.bs.lookup_slow = NULL;
        fixture_gen(&f, NULL);
        f.env->engine.tb_jmp_cache[slot] = &target;
        target.pc = pc;
        target.flags = target.cflags = 0;
        f.env->resume = 0;
        f.env->insn_count = 0;
        assert_int_equal(fixture_run(&f), 0);
        assert_int_equal(f.env->insn_count, 1);
        f.env->engine.tb_jmp_cache[slot] = NULL;
        fixture_fini(&f);
    }
}

/*
 * Source and destination 4 MiB apart, 4 MiB each (tests/bench/linx/
 * memcpy.s): after touching every page of both, every page still has its
 * own TLB entry (with 1,024 entries page i of one buffer evicted page i
 * of the other, and copies between them took the slow path per page).
 */
static void test_tlb_reach(void **state)
{
    const uint64_t src = 0x80000000, dst = src + (4 << 20), len = 4 << 20;
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    CPULinxState *env = calloc(1, sizeof(*env));

    (void)state;
    assert_non_null(gm);
    assert_non_null(env);
    assert_true(guest_mem_map(gm, src, 2 * len, GM_PROT_READ | GM_PROT_WRITE, false));
    env->engine.mem = gm;
    linx_tlb_flush(env);
    for (uint64_t off = 0; off < len; off += GUEST_PAGE_SIZE) {
        linx_st(env, dst + off, off, IR_MO_64 | IR_MO_ALIGN, 0);
        assert_int_equal(linx_ld(env, src + off, IR_MO_64 | IR_MO_ALIGN, 0), 0);
    }
    for (uint64_t off = 0; off < len; off += GUEST_PAGE_SIZE) {
        assert_int_equal(linx_tlb_entry(env, src + off)->addr_read & GUEST_PAGE_MASK, src + off);
        assert_int_equal(linx_tlb_entry(env, dst + off)->addr_write & GUEST_PAGE_MASK, dst + off);
        assert_int_equal(linx_ld(env, dst + off, IR_MO_64 | IR_MO_ALIGN, 0), off);
    }
    free(env);
    guest_mem_free(gm);
}

/* Helpers for test_pinned_global: one sees env (and changes the pinned
 * field), one is declared not to touch globals. */
static uint64_t helper_bump_g1(CPULinxState *env)
{
    uint64_t seen = env->gpr[1];

    env->gpr[1] = seen + 1000;
    return seen;
}

static uint64_t helper_add(uint64_t a, uint64_t b)
{
    return a + b;
}

static const IRHelperInfo h_bump_g1 = { "bump_g1", (void *)helper_bump_g1, 1, 1, 0, NULL };
static const IRHelperInfo h_add = { "add", (void *)helper_add, 2, 1, IR_CALL_NO_RWG, NULL };

/* A slow path reports what env says about the pinned global. */
static uint64_t pinned_ld_slow(CPULinxState *env, uint64_t addr, uint64_t memop, uint64_t pc)
{
    (void)addr;
    (void)memop;
    (void)pc;
    return env->gpr[1];
}

/*
 * g1 pinned (env->gpr[1]):
 *     g1 += 4; if (g0 == 1) goto l1
 *     g1 += 4; g2 = add(g1, 1)             NO_RWG: env not needed
 *     g3 = qemu_ld [g4]                     slow path: sees g1 in env
 *     g5 = bump_g1(env); g7 = g1            stored before, reloaded after
 *     env->gpr[1] = 5000 (host store); g1 += 4; exit 0
 * l1: g6 = g1; exit 1                       the epilogue stores g1
 */
static void test_pinned_global(void **state)
{
    const uint64_t start = 100;
    static char text[LISTING_MAX];
    JitFixture f;

    (void)state;
    for (int pin = 1; pin >= 0; pin--) {
        fixture_init(&f);
        f.bs.ld_slow = pinned_ld_slow;
        IRLabel l1 = ir_label(f.ir);
        IRTemp a[2];
        ir_gen_addi(f.ir, f.g[1], f.g[1], 4);
        ir_gen_brcond(f.ir, IR_COND_EQ, f.g[0], ir_const(f.ir, 1), l1);
        ir_gen_addi(f.ir, f.g[1], f.g[1], 4);
        a[0] = f.g[1];
        a[1] = ir_const(f.ir, 1);
        ir_gen_call(f.ir, &h_add, f.g[2], 2, a);
        ir_gen_qemu_ld(f.ir, f.g[3], f.g[4], IR_MO_64 | IR_MO_ALIGN, 0x1000);
        a[0] = f.ir->env;
        ir_gen_call(f.ir, &h_bump_g1, f.g[5], 1, a);
        ir_gen_mov(f.ir, f.g[7], f.g[1]);
        ir_gen_st(f.ir, IR_st64, ir_const(f.ir, 5000), f.ir->env,
                  (int32_t)offsetof(CPULinxState, gpr[1]));
        ir_gen_addi(f.ir, f.g[1], f.g[1], 4);
        ir_gen_exit_tb(f.ir, 0);
        ir_gen_set_label(f.ir, l1);
        ir_gen_mov(f.ir, f.g[6], f.g[1]);
        ir_gen_exit_tb(f.ir, 1);
        f.bs.pinned_env_offset = pin ? (int32_t)offsetof(CPULinxState, gpr[1]) : -1;
        gen_listed(&f, text, sizeof(text));
        if (pin) {
            const char *slow = strstr(text, STUB_MARKER);
            assert_non_null(slow);
            /* In place, and stored only before the call that reads env
             * (and in the load's slow path). */
            assert_int_equal(count_lines(text, slow, "add     r14, 4"), 3);
            assert_int_equal(count_lines(text, slow, "qword ptr [rbp + 8], r14"), 1);
            assert_int_equal(count_lines(slow, slow + strlen(slow), "qword ptr [rbp + 8], r14"), 1);
            assert_int_equal(count_lines(text, slow + strlen(slow), "r14, qword ptr [rbp + 8]"), 2);
        }
        for (uint64_t g0 = 0; g0 < 2; g0++) {
            memset(f.env->gpr, 0, sizeof(f.env->gpr));
            f.env->gpr[0] = g0;
            f.env->gpr[1] = start;
            f.env->gpr[4] = GUEST_BASE + 100 * GUEST_PAGE_SIZE; /* not in the TLB */
            assert_int_equal(fixture_run(&f), g0);
            if (g0 == 1) {
                assert_int_equal(f.env->gpr[1], start + 4);
                assert_int_equal(f.env->gpr[6], start + 4);
                continue;
            }
            assert_int_equal(f.env->gpr[2], start + 9);
            assert_int_equal(f.env->gpr[3], start + 8);
            assert_int_equal(f.env->gpr[5], start + 8);
            assert_int_equal(f.env->gpr[7], start + 1008);
            assert_int_equal(f.env->gpr[1], 5004);
        }
        fixture_fini(&f);
    }
}

/* Loop inside a TB:
 *   head: g2 += g1 * g1; g3 += mem[g4]; g4 += 8; [call: g5 = g1 + g2 + 1000]
 *         g1 -= 1; if (g1 == 0) goto out; goto head
 *   out:  exit 2
 * The C reference below computes the same from the rules above. */
static uint64_t h_bump_g5(CPULinxState *env)
{
    env->gpr[5] = env->gpr[1] + env->gpr[2] + 1000;
    return 0;
}

static const IRHelperInfo h_bump_g5_info = { "bump_g5", (void *)h_bump_g5, 1, 1, 0, NULL };

static void test_loop_in_tb(void **state)
{
    static char text[LISTING_MAX];
    JitFixture f;

    (void)state;
    for (unsigned variant = 0; variant < 4; variant++) {
        bool with_call = variant & 1, pin = variant & 2;
        fixture_init(&f);
        IRLabel head = ir_label(f.ir), out = ir_label(f.ir);
        IRTemp sq = ir_temp(f.ir), v = ir_temp(f.ir), a[1] = { f.ir->env };
        ir_gen_set_label(f.ir, head);
        ir_gen_op3(f.ir, IR_mul, sq, f.g[1], f.g[1]);
        ir_gen_add(f.ir, f.g[2], f.g[2], sq);
        ir_gen_qemu_ld(f.ir, v, f.g[4], IR_MO_64 | IR_MO_ALIGN, 0x1000);
        ir_gen_add(f.ir, f.g[3], f.g[3], v);
        ir_gen_addi(f.ir, f.g[4], f.g[4], 8);
        if (with_call) {
            IRTemp r = ir_temp(f.ir);
            ir_gen_call(f.ir, &h_bump_g5_info, r, 1, a);
        }
        ir_gen_addi(f.ir, f.g[1], f.g[1], -1);
        ir_gen_brcond(f.ir, IR_COND_EQ, f.g[1], ir_const(f.ir, 0), out);
        ir_gen_br(f.ir, head);
        ir_gen_set_label(f.ir, out);
        ir_gen_exit_tb(f.ir, 2);
        f.bs.pinned_env_offset = pin ? (int32_t)offsetof(CPULinxState, gpr[6]) : -1;
        gen_listed(&f, text, sizeof(text));
        if (!with_call) {
            /* Nothing goes to env on the main path: the exit's stub and
             * the slow path store. */
            const char *stubs = strstr(text, STUB_MARKER);
            assert_non_null(stubs);
            assert_int_equal(count_lines(text, stubs, ENV_STORE), 0);
        }
        for (uint64_t n = 1; n <= 9; n++) {
            uint64_t mem[9], s2 = 5, s3 = 7, g5 = 0;
            for (unsigned i = 0; i < 9; i++) {
                mem[i] = rng64();
                memcpy(f.mem + 64 + 8 * i, &mem[i], 8);
            }
            memset(f.env->gpr, 0, sizeof(f.env->gpr));
            f.env->gpr[1] = n;
            f.env->gpr[2] = s2;
            f.env->gpr[3] = s3;
            f.env->gpr[4] = GUEST_BASE + 64;
            f.env->gpr[6] = 77; /* the pinned global in variants 2, 3 */
            for (uint64_t i = n; i >= 1; i--) {
                s2 += i * i;
                s3 += mem[n - i];
                g5 = i + s2 + 1000;
            }
            assert_int_equal(fixture_run(&f), 2);
            assert_int_equal(f.env->gpr[1], 0);
            assert_int_equal(f.env->gpr[2], s2);
            assert_int_equal(f.env->gpr[3], s3);
            assert_int_equal(f.env->gpr[4], GUEST_BASE + 64 + 8 * n);
            assert_int_equal(f.env->gpr[5], with_call ? g5 : 0);
            assert_int_equal(f.env->gpr[6], 77);
        }
        fixture_fini(&f);
    }
}

/* The same loop where every load misses the TLB: the slow path (a double
 * returning a marker) sees the loop's globals written back. */
static uint64_t loop_ld_slow(CPULinxState *env, uint64_t addr, uint64_t memop, uint64_t pc)
{
    (void)memop;
    (void)pc;
    /* The loop's dirty globals are in env when the slow path runs. */
    return addr ^ env->gpr[1] ^ (env->gpr[2] << 20);
}

static void test_loop_in_tb_slow_path(void **state)
{
    JitFixture f;

    (void)state;
    fixture_init(&f);
    f.bs.ld_slow = loop_ld_slow;
    IRLabel head = ir_label(f.ir), out = ir_label(f.ir);
    IRTemp v = ir_temp(f.ir);
    ir_gen_set_label(f.ir, head);
    ir_gen_addi(f.ir, f.g[2], f.g[2], 3);
    ir_gen_qemu_ld(f.ir, v, f.g[4], IR_MO_64 | IR_MO_ALIGN, 0x1000);
    ir_gen_add(f.ir, f.g[3], f.g[3], v);
    ir_gen_addi(f.ir, f.g[4], f.g[4], 8);
    ir_gen_addi(f.ir, f.g[1], f.g[1], -1);
    ir_gen_brcond(f.ir, IR_COND_EQ, f.g[1], ir_const(f.ir, 0), out);
    ir_gen_br(f.ir, head);
    ir_gen_set_label(f.ir, out);
    ir_gen_exit_tb(f.ir, 2);
    fixture_gen(&f, NULL);
    for (uint64_t n = 1; n <= 6; n++) {
        uint64_t g2 = 0, g3 = 0, addr = GUEST_BASE + 100 * GUEST_PAGE_SIZE; /* not in the TLB */
        memset(f.env->gpr, 0, sizeof(f.env->gpr));
        f.env->gpr[1] = n;
        f.env->gpr[4] = addr;
        for (uint64_t i = n; i >= 1; i--) {
            g2 += 3;
            g3 += addr ^ i ^ (g2 << 20);
            addr += 8;
        }
        assert_int_equal(fixture_run(&f), 2);
        assert_int_equal(f.env->gpr[2], g2);
        assert_int_equal(f.env->gpr[3], g3);
        assert_int_equal(f.env->gpr[4], addr);
    }
    fixture_fini(&f);
}

/* add(y, shl(x, s)): g3 = g2 + (idx(g1) << s), idx = the value itself,
 * its sign- or zero-extended low 32 bits (a local that dies at the shl),
 * or g1 read again afterwards (g4 = g1 ^ 1). */
static void test_scaled_index_lea(void **state)
{
    static const uint64_t xs[] = {
        0, 1, 2, (uint64_t)-1, (uint64_t)-5, 0x7fffffff, 0x80000000, 0xffffffff,
        UINT64_C(0x123456789abcdef), (uint64_t)INT64_MIN, UINT64_MAX >> 1,
    };
    static const uint64_t ys[] = { 0, GUEST_BASE, (uint64_t)-8, UINT64_C(0xfedcba9876543210) };
    static char text[LISTING_MAX];
    JitFixture f;

    (void)state;
    for (unsigned s = 1; s <= 3; s++) {
        for (unsigned kind = 0; kind < 4; kind++) {
            for (unsigned order = 0; order < 2; order++) {
                fixture_init(&f);
                IRTemp x = f.g[1], sh = ir_temp(f.ir), d = ir_temp(f.ir);
                if (kind == 1 || kind == 2) {
                    x = ir_temp(f.ir);
                    ir_gen_op2(f.ir, kind == 1 ? IR_ext32s : IR_ext32u, x, f.g[1]);
                }
                ir_gen_shli(f.ir, sh, x, s);
                if (order) {
                    ir_gen_add(f.ir, d, sh, f.g[2]);
                } else {
                    ir_gen_add(f.ir, d, f.g[2], sh);
                }
                ir_gen_mov(f.ir, f.g[3], d);
                if (kind == 3) {
                    ir_gen_op3(f.ir, IR_xor, f.g[4], f.g[1], ir_const(f.ir, 1));
                }
                ir_gen_exit_tb(f.ir, 0);
                gen_listed(&f, text, sizeof(text));
                char scale[8];
                snprintf(scale, sizeof(scale), "*%u]", 1u << s);
                assert_int_equal(count_lines(text, text + strlen(text), "shl"), 0);
                assert_int_equal(count_lines(text, text + strlen(text), scale), 1);
                for (unsigned i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
                    for (unsigned j = 0; j < sizeof(ys) / sizeof(ys[0]); j++) {
                        uint64_t idx = kind == 1   ? (uint64_t)(int64_t)(int32_t)xs[i]
                                       : kind == 2 ? (uint64_t)(uint32_t)xs[i]
                                                   : xs[i];
                        memset(f.env->gpr, 0, sizeof(f.env->gpr));
                        f.env->gpr[1] = xs[i];
                        f.env->gpr[2] = ys[j];
                        fixture_run(&f);
                        assert_int_equal(f.env->gpr[3], ys[j] + (idx << s));
                        assert_int_equal(f.env->gpr[1], xs[i]);
                        assert_int_equal(f.env->gpr[4], kind == 3 ? (xs[i] ^ 1) : 0);
                    }
                }
                fixture_fini(&f);
            }
        }
    }
    /* Read twice: the shl stays (and the values are right). */
    fixture_init(&f);
    IRTemp sh = ir_temp(f.ir), d = ir_temp(f.ir);
    ir_gen_shli(f.ir, sh, f.g[1], 2);
    ir_gen_add(f.ir, d, f.g[2], sh);
    ir_gen_add(f.ir, f.g[3], d, sh);
    ir_gen_exit_tb(f.ir, 0);
    gen_listed(&f, text, sizeof(text));
    assert_int_equal(count_lines(text, text + strlen(text), "shl"), 1);
    f.env->gpr[1] = (uint64_t)-3;
    f.env->gpr[2] = 1000;
    fixture_run(&f);
    assert_int_equal(f.env->gpr[3], 1000 - 24);
    fixture_fini(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brcond_writes_back_on_taken_path),
        cmocka_unit_test(test_unrolled_loop_exits),
        cmocka_unit_test(test_direct_mode),
        cmocka_unit_test(test_inline_lookup),
        cmocka_unit_test(test_tlb_reach),
        cmocka_unit_test(test_pinned_global),
        cmocka_unit_test(test_loop_in_tb),
        cmocka_unit_test(test_loop_in_tb_slow_path),
        cmocka_unit_test(test_scaled_index_lea),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
