/*
 * x86-64 backend tests of guest memory access (qemu_ld/qemu_st):
 *   - the inline TLB fast path for every size and extension, at page
 *     starts and ends, against the flat guest memory of the fixture;
 *   - misses (unmapped page, misalignment with IR_MO_ALIGN, unaligned
 *     accesses crossing a page, TLB flag bits) reach the slow path with
 *     (env, addr, memop, pc) and its result, while values in
 *     call-clobbered registers survive and dirty globals are in env
 *     before the call;
 *   - a slow path that leaves with siglongjmp (as cpu_loop_exit does)
 *     finds the guest state written back.
 * Every test runs with the per-page addend and in direct mode (the
 * direct window's base in r15, BackendState.guest_direct), each with and
 * without BMI2 (rorx for the TLB index).
 * The slow paths are test doubles installed in BackendState, recording
 * their arguments in env's trap fields (no test-global state).
 */
#include "test-x86-backend-fixture.h"

#include "tcg/x86_64/x86-gen.h"

#define SLOW_MARK UINT64_C(0x5105000000000000)

/* Test modes: bit 0 direct window (base in r15), bit 1 without BMI2 (the
 * TLB index by mov/shr instead of rorx). */
#define MODE_DIRECT 1u
#define MODE_NO_BMI2 2u
#define NB_MODES 4u

static void fixture_mode(JitFixture *f, unsigned mode)
{
    fixture_set_direct(f, (mode & MODE_DIRECT) != 0);
    if (mode & MODE_NO_BMI2) {
        f->bs.host_features &= ~(uint32_t)X86_FEAT_BMI2;
    }
}
#define LIVE_VALUES 24

/* Slow-path doubles: record the call in env, load a marker value. */
static uint64_t double_ld_slow(CPULinxState *env, uint64_t addr, uint64_t memop, uint64_t pc)
{
    env->traparg0 = addr;
    env->trapno = memop;
    env->trap_pc = pc;
    env->insn_count++;
    env->resv_addr = env->gpr[3]; /* what a fault handler would see */
    return SLOW_MARK ^ addr;
}

static void double_st_slow(CPULinxState *env, uint64_t addr, uint64_t value, uint64_t memop,
                           uint64_t pc)
{
    env->traparg0 = addr;
    env->trapno = memop;
    env->trap_pc = pc;
    env->resv_size = value;
    env->insn_count++;
    env->resv_addr = env->gpr[3];
}

static uint64_t fault_ld_slow(CPULinxState *env, uint64_t addr, uint64_t memop, uint64_t pc)
{
    env->traparg0 = addr;
    siglongjmp(env->engine.jmp_env, 1);
}

static void fixture_doubles(JitFixture *f)
{
    f->bs.ld_slow = double_ld_slow;
    f->bs.st_slow = double_st_slow;
}

static uint64_t mem_read(const JitFixture *f, uint64_t addr, unsigned memop)
{
    uint64_t raw = 0;

    memcpy(&raw, f->mem + (addr - GUEST_BASE), (size_t)1 << (memop & IR_MO_SIZE));
    return linx_memop_extend(raw, memop);
}

/* Interesting guest offsets for an access of @size bytes. */
static uint64_t pick_offset(unsigned size, bool aligned)
{
    uint64_t page = (rng64() % GUEST_PAGES) * GUEST_PAGE_SIZE;
    uint64_t in_page;

    switch (rng64() % 4) {
    case 0:
        in_page = 0;
        break;
    case 1:
        in_page = GUEST_PAGE_SIZE - size;
        break;
    default:
        in_page = rng64() % (GUEST_PAGE_SIZE - size + 1);
        break;
    }
    if (aligned) {
        in_page &= ~(uint64_t)(size - 1);
    }
    return GUEST_BASE + page + in_page;
}

static void run_fast_path_hits(unsigned mode)
{
    JitFixture f;

    fixture_init(&f);
    fixture_mode(&f, mode);
    fixture_doubles(&f);
    for (unsigned i = 0; i < GUEST_BYTES; i++) {
        f.mem[i] = (uint8_t)rng64();
    }
    for (unsigned memop = 0; memop < 16; memop++) {
        unsigned size = 1u << (memop & IR_MO_SIZE);
        if ((memop & IR_MO_SIGN) && (memop & IR_MO_SIZE) == IR_MO_64) {
            continue;
        }
        /* Address in a global, in a local computed from it, or constant. */
        for (unsigned shape = 0; shape < 3; shape++) {
            uint64_t caddr = pick_offset(size, memop & IR_MO_ALIGN);
            ir_reset(f.ir);
            IRTemp a = f.g[0];
            if (shape == 1) {
                a = ir_temp(f.ir);
                ir_gen_addi(f.ir, a, f.g[0], 0);
            } else if (shape == 2) {
                a = ir_const(f.ir, (int64_t)caddr);
            }
            ir_gen_qemu_ld(f.ir, f.g[1], a, memop, 0x1234);
            /* Store it back 64 bytes further (wrapping inside the memory). */
            IRTemp b = ir_temp(f.ir);
            ir_gen_mov(f.ir, b, f.g[2]);
            ir_gen_qemu_st(f.ir, f.g[1], b, memop & ~IR_MO_SIGN, 0x1238);
            ir_gen_exit_tb(f.ir, 0);
            fixture_gen(&f, NULL);
            for (unsigned n = 0; n < 64; n++) {
                uint64_t addr = shape == 2 ? caddr : pick_offset(size, memop & IR_MO_ALIGN);
                uint64_t dst = pick_offset(size, memop & IR_MO_ALIGN);
                uint64_t want = mem_read(&f, addr, memop);
                f.env->gpr[0] = addr;
                f.env->gpr[2] = dst;
                f.env->insn_count = 0;
                fixture_run(&f);
                assert_int_equal(f.env->insn_count, 0); /* no slow path */
                assert_int_equal(f.env->gpr[1], want);
                assert_int_equal(mem_read(&f, dst, memop & IR_MO_SIZE),
                                 linx_memop_extend(want, memop & IR_MO_SIZE));
            }
        }
    }
    fixture_fini(&f);
}

/* Every kind of miss reaches the slow path with the right arguments. */
static void run_slow_path_calls(unsigned mode)
{
    JitFixture f;
    struct {
        uint64_t addr;
        unsigned memop;
    } cases[] = {
        { GUEST_BASE + 0x11, IR_MO_16 | IR_MO_ALIGN },                  /* misaligned */
        { GUEST_BASE + 0x104, IR_MO_64 | IR_MO_ALIGN },                 /* misaligned */
        { GUEST_BASE + GUEST_PAGE_SIZE - 2, IR_MO_32 },                 /* crosses a page */
        { GUEST_BASE + GUEST_PAGE_SIZE - 1, IR_MO_16 | IR_MO_SIGN },    /* crosses a page */
        { GUEST_BASE + GUEST_BYTES, IR_MO_64 | IR_MO_ALIGN },           /* unmapped */
        { GUEST_BASE - 8, IR_MO_8 },                                    /* unmapped */
        { UINT64_C(0xffffffff00040000), IR_MO_32 | IR_MO_ALIGN },       /* same index, other tag */
    };

    fixture_init(&f);
    fixture_mode(&f, mode);
    fixture_doubles(&f);
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        ir_reset(f.ir);
        ir_gen_qemu_ld(f.ir, f.g[1], f.g[0], cases[k].memop, 0x1000 + k);
        ir_gen_qemu_st(f.ir, f.g[2], f.g[0], cases[k].memop & ~IR_MO_SIGN, 0x2000 + k);
        ir_gen_exit_tb(f.ir, 0);
        fixture_gen(&f, NULL);
        f.env->gpr[0] = cases[k].addr;
        f.env->gpr[2] = 0xabcdef;
        f.env->insn_count = 0;
        fixture_run(&f);
        assert_int_equal(f.env->insn_count, 2);
        assert_int_equal(f.env->gpr[1], SLOW_MARK ^ cases[k].addr);
        /* The store's call is the last one recorded. */
        assert_int_equal(f.env->traparg0, cases[k].addr);
        assert_int_equal(f.env->trapno, cases[k].memop & ~IR_MO_SIGN);
        assert_int_equal(f.env->trap_pc, 0x2000 + k);
        assert_int_equal(f.env->resv_size, 0xabcdef);
    }
    /* A flag bit in the tag (MMIO, code page) forces the slow path. */
    LinxTLBEntry *e = &f.env->engine.tlb[(GUEST_BASE >> GUEST_PAGE_BITS) & (LINX_TLB_SIZE - 1)];
    e->addr_read |= TLB_MMIO;
    e->addr_write |= TLB_CODE;
    f.env->gpr[0] = GUEST_BASE + 8;
    f.env->insn_count = 0;
    fixture_run(&f);
    assert_int_equal(f.env->insn_count, 2);
    assert_int_equal(f.env->gpr[1], SLOW_MARK ^ (GUEST_BASE + 8));
    fixture_fini(&f);
}

/* Values in registers survive a slow path; dirty globals are written back
 * before it; a constant store value reaches it too. */
static void run_slow_path_preserves_state(unsigned mode)
{
    JitFixture f;
    IRTemp t[LIVE_VALUES];

    fixture_init(&f);
    fixture_mode(&f, mode);
    fixture_doubles(&f);
    for (unsigned miss = 0; miss < 2; miss++) {
        ir_reset(f.ir);
        for (unsigned i = 0; i < LIVE_VALUES; i++) {
            t[i] = ir_temp(f.ir);
            ir_gen_addi(f.ir, t[i], f.g[i % 4], (int64_t)(i * 1000 + 1));
        }
        ir_gen_addi(f.ir, f.g[3], f.g[3], 5); /* dirty */
        IRTemp v = ir_temp(f.ir);
        ir_gen_qemu_ld(f.ir, v, f.g[0], IR_MO_32 | IR_MO_ALIGN, 0x40);
        ir_gen_qemu_st(f.ir, ir_const(f.ir, 0x77), f.g[0], IR_MO_8, 0x44);
        IRTemp acc = ir_temp(f.ir);
        ir_gen_mov(f.ir, acc, v);
        for (unsigned i = 0; i < LIVE_VALUES; i++) {
            ir_gen_xor(f.ir, acc, acc, t[i]);
            ir_gen_shli(f.ir, acc, acc, 1);
        }
        ir_gen_mov(f.ir, f.g[5], acc);
        ir_gen_exit_tb(f.ir, 0);
        fixture_gen(&f, NULL);

        uint64_t addr = miss ? GUEST_BASE + GUEST_BYTES + 0x40 : GUEST_BASE + 0x40;
        uint32_t word = 0xdeadbeef;
        memcpy(f.mem + 0x40, &word, 4);
        for (unsigned i = 0; i < 4; i++) {
            f.env->gpr[i] = i == 0 ? addr : rng64();
        }
        uint64_t g[4] = { f.env->gpr[0], f.env->gpr[1], f.env->gpr[2], f.env->gpr[3] };
        uint64_t acc_ref = miss ? SLOW_MARK ^ addr : word;
        for (unsigned i = 0; i < LIVE_VALUES; i++) {
            acc_ref ^= g[i % 4] + i * 1000 + 1;
            acc_ref <<= 1;
        }
        f.env->insn_count = 0;
        f.env->resv_addr = 0;
        fixture_run(&f);
        assert_int_equal(f.env->gpr[5], acc_ref);
        assert_int_equal(f.env->gpr[3], g[3] + 5);
        if (miss) {
            assert_int_equal(f.env->insn_count, 2);
            assert_int_equal(f.env->resv_addr, g[3] + 5); /* written back before the call */
            assert_int_equal(f.env->resv_size, 0x77);
        } else {
            assert_int_equal(f.env->insn_count, 0);
            assert_int_equal(f.mem[0x40], 0x77);
        }
    }
    fixture_fini(&f);
}

/* A slow path that leaves like cpu_loop_exit: guest state is in env. */
static void run_slow_path_longjmp(unsigned mode)
{
    JitFixture f;
    volatile int jumped = 0;

    fixture_init(&f);
    fixture_mode(&f, mode);
    f.bs.ld_slow = fault_ld_slow;
    ir_gen_movi(f.ir, f.g[6], 1234);              /* a constant not yet stored */
    ir_gen_addi(f.ir, f.g[7], f.g[7], 1);         /* dirty in a register */
    ir_gen_qemu_ld(f.ir, f.g[1], f.g[0], IR_MO_64 | IR_MO_ALIGN, 0x50);
    ir_gen_movi(f.ir, f.g[6], 99);
    ir_gen_exit_tb(f.ir, 0);
    fixture_gen(&f, NULL);
    f.env->gpr[0] = 0x3;
    f.env->gpr[7] = 41;
    if (sigsetjmp(f.env->engine.jmp_env, 0) == 0) {
        fixture_run(&f);
    } else {
        jumped = 1;
    }
    assert_int_equal(jumped, 1);
    assert_int_equal(f.env->traparg0, 3);
    assert_int_equal(f.env->gpr[6], 1234);
    assert_int_equal(f.env->gpr[7], 42);
    /* The same code still works after the abandoned frame. */
    f.env->gpr[0] = GUEST_BASE;
    fixture_run(&f);
    assert_int_equal(f.env->gpr[6], 99);
    fixture_fini(&f);
}

/* Accesses at every page boundary of the mapping, back to back. */
static void run_page_boundaries(unsigned mode)
{
    JitFixture f;

    fixture_init(&f);
    fixture_mode(&f, mode);
    fixture_doubles(&f);
    for (unsigned s = 0; s < 4; s++) {
        unsigned size = 1u << s;
        ir_reset(f.ir);
        /* store at the last slot of a page, load at the first of the next */
        ir_gen_qemu_st(f.ir, f.g[1], f.g[0], s | IR_MO_ALIGN, 0x10);
        IRTemp next = ir_temp(f.ir);
        ir_gen_addi(f.ir, next, f.g[0], size);
        ir_gen_qemu_ld(f.ir, f.g[2], next, s | IR_MO_ALIGN, 0x14);
        ir_gen_exit_tb(f.ir, 0);
        fixture_gen(&f, NULL);
        for (unsigned p = 1; p < GUEST_PAGES; p++) {
            uint64_t last = GUEST_BASE + p * GUEST_PAGE_SIZE - size;
            uint64_t pattern = UINT64_C(0x0102030405060708) * p;
            memcpy(f.mem + p * GUEST_PAGE_SIZE, &pattern, size);
            f.env->gpr[0] = last;
            f.env->gpr[1] = ~pattern;
            f.env->insn_count = 0;
            fixture_run(&f);
            assert_int_equal(f.env->insn_count, 0);
            assert_int_equal(f.env->gpr[2], linx_memop_extend(pattern, s));
            assert_int_equal(mem_read(&f, last, s), linx_memop_extend(~pattern, s));
        }
    }
    fixture_fini(&f);
}

static void test_fast_path_hits(void **state)
{
    for (unsigned mode = 0; mode < NB_MODES; mode++) {
        run_fast_path_hits(mode);
    }
}

static void test_slow_path_calls(void **state)
{
    for (unsigned mode = 0; mode < NB_MODES; mode++) {
        run_slow_path_calls(mode);
    }
}

static void test_slow_path_preserves_state(void **state)
{
    for (unsigned mode = 0; mode < NB_MODES; mode++) {
        run_slow_path_preserves_state(mode);
    }
}

static void test_slow_path_longjmp(void **state)
{
    for (unsigned mode = 0; mode < NB_MODES; mode++) {
        run_slow_path_longjmp(mode);
    }
}

static void test_page_boundaries(void **state)
{
    for (unsigned mode = 0; mode < NB_MODES; mode++) {
        run_page_boundaries(mode);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_path_hits),
        cmocka_unit_test(test_slow_path_calls),
        cmocka_unit_test(test_slow_path_preserves_state),
        cmocka_unit_test(test_slow_path_longjmp),
        cmocka_unit_test(test_page_boundaries),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
