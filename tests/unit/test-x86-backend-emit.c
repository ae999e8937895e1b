/*
 * x86-64 encoder tests against an outside reference: every encoding the
 * backend's emitter produces is decoded by capstone and the decoded
 * mnemonic, registers, memory operand (base, index, scale, displacement)
 * and immediates are compared with what was asked for.  The register
 * and addressing corner cases are swept exhaustively: all 16 registers in
 * every position (REX.R/X/B, SPL..DIL needing REX, rsp/r12 needing a SIB,
 * rbp/r13 needing a displacement), all scales, disp 0/8-bit/32-bit edges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <capstone/capstone.h>
#include <cmocka.h>

#include "tcg/x86_64/emit.h"

#define BUF_SIZE 256
#define FAKE_RX UINT64_C(0x7f0000001000)

static const x86_reg cs_reg64[16] = {
    X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX, X86_REG_RSP, X86_REG_RBP,
    X86_REG_RSI, X86_REG_RDI, X86_REG_R8,  X86_REG_R9,  X86_REG_R10, X86_REG_R11,
    X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15,
};

static const x86_reg cs_reg32[16] = {
    X86_REG_EAX, X86_REG_ECX, X86_REG_EDX,  X86_REG_EBX,  X86_REG_ESP,  X86_REG_EBP,
    X86_REG_ESI, X86_REG_EDI, X86_REG_R8D,  X86_REG_R9D,  X86_REG_R10D, X86_REG_R11D,
    X86_REG_R12D, X86_REG_R13D, X86_REG_R14D, X86_REG_R15D,
};

static const x86_reg cs_reg8[16] = {
    X86_REG_AL,  X86_REG_CL,  X86_REG_DL,   X86_REG_BL,   X86_REG_SPL,  X86_REG_BPL,
    X86_REG_SIL, X86_REG_DIL, X86_REG_R8B,  X86_REG_R9B,  X86_REG_R10B, X86_REG_R11B,
    X86_REG_R12B, X86_REG_R13B, X86_REG_R14B, X86_REG_R15B,
};

typedef struct Dis {
    csh cs;
    uint8_t buf[BUF_SIZE];
    X86Emitter e;
    cs_insn *insn;
    size_t n;
} Dis;

/* Free the instructions of the last decode. */
static void dis_release(Dis *d)
{
    if (d->n) {
        cs_free(d->insn, d->n);
        d->n = 0;
    }
}

static int setup(void **state)
{
    static Dis d;

    if (cs_open(CS_ARCH_X86, CS_MODE_64, &d.cs) != CS_ERR_OK) {
        return -1;
    }
    cs_option(d.cs, CS_OPT_DETAIL, CS_OPT_ON);
    *state = &d;
    return 0;
}

static int teardown(void **state)
{
    Dis *d = *state;

    dis_release(d);
    cs_close(&d->cs);
    return 0;
}

static X86Emitter *start(Dis *d)
{
    dis_release(d);
    d->e = (X86Emitter){ .buf = d->buf, .rx_base = FAKE_RX, .cap = BUF_SIZE };
    return &d->e;
}

/* Decode what was emitted: exactly one instruction covering every byte. */
static const cs_x86 *decode_one(Dis *d, const char *mnemonic)
{
    assert_false(d->e.overflow);
    dis_release(d);
    d->n = cs_disasm(d->cs, d->buf, d->e.pos, FAKE_RX, 0, &d->insn);
    if (d->n != 1 || d->insn[0].size != d->e.pos) {
        fail_msg("expected one %s in %zu bytes, decoded %zu insns", mnemonic, d->e.pos, d->n);
    }
    if (strcmp(d->insn[0].mnemonic, mnemonic) != 0) {
        fail_msg("expected %s, decoded %s %s", mnemonic, d->insn[0].mnemonic,
                 d->insn[0].op_str);
    }
    return &d->insn[0].detail->x86;
}

/* The same for a mnemonic family (cmovcc). */
static const cs_x86 *decode_prefix(Dis *d, const char *prefix)
{
    dis_release(d);
    d->n = cs_disasm(d->cs, d->buf, d->e.pos, FAKE_RX, 0, &d->insn);
    assert_int_equal(d->n, 1);
    assert_int_equal(d->insn[0].size, d->e.pos);
    assert_int_equal(strncmp(d->insn[0].mnemonic, prefix, strlen(prefix)), 0);
    return &d->insn[0].detail->x86;
}

static void expect_reg(const cs_x86 *x, unsigned k, x86_reg r)
{
    assert_true(k < x->op_count);
    assert_int_equal(x->operands[k].type, X86_OP_REG);
    assert_int_equal(x->operands[k].reg, r);
}

static void expect_imm(const cs_x86 *x, unsigned k, int64_t v)
{
    assert_true(k < x->op_count);
    assert_int_equal(x->operands[k].type, X86_OP_IMM);
    assert_int_equal(x->operands[k].imm, v);
}

static void expect_mem(const cs_x86 *x, unsigned k, int base, int index, int scale, int64_t disp)
{
    assert_true(k < x->op_count);
    assert_int_equal(x->operands[k].type, X86_OP_MEM);
    assert_int_equal(x->operands[k].mem.base, cs_reg64[base]);
    assert_int_equal(x->operands[k].mem.index,
                     index == X86_NO_REG ? X86_REG_INVALID : cs_reg64[index]);
    if (index != X86_NO_REG) {
        assert_int_equal(x->operands[k].mem.scale, 1 << scale);
    }
    assert_int_equal(x->operands[k].mem.disp, disp);
}

static void test_reg_reg_forms(void **state)
{
    Dis *d = *state;

    for (int a = 0; a < 16; a++) {
        for (int b = 0; b < 16; b++) {
            const cs_x86 *x;
            if (a != b) {
                x86_mov_rr(start(d), a, b);
                x = decode_one(d, "mov");
                expect_reg(x, 0, cs_reg64[a]);
                expect_reg(x, 1, cs_reg64[b]);
            }
            x86_mov_rr32(start(d), a, b);
            x = decode_one(d, "mov");
            expect_reg(x, 0, cs_reg32[a]);
            expect_reg(x, 1, cs_reg32[b]);
            x86_alu_rr(start(d), X86_ALU_SUB, a, b);
            x = decode_one(d, "sub");
            expect_reg(x, 0, cs_reg64[a]);
            expect_reg(x, 1, cs_reg64[b]);
            x86_test_rr(start(d), a, b);
            x = decode_one(d, "test");
            x86_imul_rr(start(d), a, b);
            x = decode_one(d, "imul");
            expect_reg(x, 0, cs_reg64[a]);
            expect_reg(x, 1, cs_reg64[b]);
            x86_imul_rri(start(d), a, b, -100000);
            x = decode_one(d, "imul");
            expect_reg(x, 0, cs_reg64[a]);
            expect_reg(x, 1, cs_reg64[b]);
            expect_imm(x, 2, -100000);
            x86_cmov(start(d), (X86Cond)((a + b) & 15), a, b);
            x = decode_prefix(d, "cmov");
            expect_reg(x, 0, cs_reg64[a]);
            expect_reg(x, 1, cs_reg64[b]);
            x86_xchg(start(d), a, b);
            x = decode_one(d, "xchg");
            x86_modrm_rr(start(d), OPC_MOVZBL | X86_P_BYTE_RM, a, b);
            x = decode_one(d, "movzx");
            expect_reg(x, 0, cs_reg32[a]);
            expect_reg(x, 1, cs_reg8[b]);
            x86_modrm_rr(start(d), OPC_MOVSBQ | X86_P_W | X86_P_BYTE_RM, a, b);
            x = decode_one(d, "movsx");
            expect_reg(x, 0, cs_reg64[a]);
            expect_reg(x, 1, cs_reg8[b]);
            x86_modrm_rr(start(d), OPC_MOVSXD_GvEd | X86_P_W, a, b);
            x = decode_one(d, "movsxd");
            expect_reg(x, 0, cs_reg64[a]);
            expect_reg(x, 1, cs_reg32[b]);
            x86_modrm_rr(start(d), OPC_LZCNT | X86_P_W, a, b);
            x = decode_one(d, "lzcnt");
            expect_reg(x, 0, cs_reg64[a]);
            x86_modrm_rr(start(d), OPC_TZCNT | X86_P_W, a, b);
            x = decode_one(d, "tzcnt");
            x86_modrm_rr(start(d), OPC_POPCNT | X86_P_W, a, b);
            x = decode_one(d, "popcnt");
            expect_reg(x, 1, cs_reg64[b]);
            x86_modrm_rr(start(d), OPC_BSR | X86_P_W, a, b);
            x = decode_one(d, "bsr");
            for (int c = 0; c < 16; c += 5) {
                x86_vex_rr(start(d), OPC_ANDN, a, b, c);
                x = decode_one(d, "andn");
                expect_reg(x, 0, cs_reg64[a]);
                expect_reg(x, 1, cs_reg64[b]);
                expect_reg(x, 2, cs_reg64[c]);
                x86_vex_rr(start(d), OPC_SHLX, a, b, c);
                x = decode_one(d, "shlx");
                /* SHLX dst, src (r/m), count (vvvv) */
                expect_reg(x, 0, cs_reg64[a]);
                expect_reg(x, 1, cs_reg64[c]);
                expect_reg(x, 2, cs_reg64[b]);
                x86_vex_rr(start(d), OPC_SARX, a, b, c);
                decode_one(d, "sarx");
                x86_vex_rr(start(d), OPC_SHRX, a, b, c);
                decode_one(d, "shrx");
            }
            x86_rorx(start(d), a, b, 7);
            x = decode_one(d, "rorx");
            expect_reg(x, 0, cs_reg64[a]);
            expect_reg(x, 1, cs_reg64[b]);
            expect_imm(x, 2, 7);
        }
    }
}

static void test_one_reg_forms(void **state)
{
    Dis *d = *state;
    static const char *const setcc[16] = { "seto", "setno", "setb",  "setae", "sete",  "setne",
                                           "setbe", "seta", "sets",  "setns", "setp",  "setnp",
                                           "setl", "setge", "setle", "setg" };
    static const char *const shifts[8] = { "rol", "ror", NULL, NULL, "shl", "shr", NULL, "sar" };
    const cs_x86 *x;

    for (int r = 0; r < 16; r++) {
        for (int cc = 0; cc < 16; cc++) {
            x86_setcc(start(d), (X86Cond)cc, r);
            x = decode_one(d, setcc[cc]);
            expect_reg(x, 0, cs_reg8[r]);
        }
        for (int s = 0; s < 8; s++) {
            if (!shifts[s]) {
                continue;
            }
            x86_shift_ri(start(d), (X86ShiftOp)s, r, 1);
            x = decode_one(d, shifts[s]);
            expect_reg(x, 0, cs_reg64[r]);
            x86_shift_ri(start(d), (X86ShiftOp)s, r, 63);
            x = decode_one(d, shifts[s]);
            expect_imm(x, 1, 63);
            x86_shift_cl(start(d), (X86ShiftOp)s, r);
            x = decode_one(d, shifts[s]);
            expect_reg(x, 1, X86_REG_CL);
        }
        x86_bswap(start(d), r);
        x = decode_one(d, "bswap");
        expect_reg(x, 0, cs_reg64[r]);
        x86_grp3(start(d), X86_EXT3_NEG, r);
        decode_one(d, "neg");
        x86_grp3(start(d), X86_EXT3_NOT, r);
        decode_one(d, "not");
        x86_grp3(start(d), X86_EXT3_MUL, r);
        decode_one(d, "mul");
        x86_grp3(start(d), X86_EXT3_IMUL, r);
        decode_one(d, "imul");
        x86_push(start(d), r);
        x = decode_one(d, "push");
        expect_reg(x, 0, cs_reg64[r]);
        x86_pop(start(d), r);
        x = decode_one(d, "pop");
        expect_reg(x, 0, cs_reg64[r]);
        x86_jmp_reg(start(d), r);
        x = decode_one(d, "jmp");
        expect_reg(x, 0, cs_reg64[r]);
        /* Immediates: imm8, imm32 sign-extended, test forms. */
        static const int32_t imms[] = { 0, 1, -1, 127, -128, 128, -129, INT32_MAX, INT32_MIN };
        for (unsigned i = 0; i < sizeof(imms) / sizeof(imms[0]); i++) {
            x86_alu_ri(start(d), X86_ALU_CMP, r, imms[i]);
            x = decode_one(d, "cmp");
            expect_reg(x, 0, cs_reg64[r]);
            expect_imm(x, 1, imms[i]);
            x86_test_ri(start(d), r, imms[i]);
            x = decode_one(d, "test");
            /* The imm8/imm32 forms test the same bits as the 64-bit one. */
            int64_t got = x->operands[1].imm;
            if (x->operands[0].size == 1) {
                assert_int_equal((uint8_t)got, (uint8_t)imms[i]);
                assert_true(imms[i] >= 0 && imms[i] <= 0xff);
            } else if (x->operands[0].size == 4) {
                assert_int_equal((uint32_t)got, (uint32_t)imms[i]);
                assert_true(imms[i] >= 0);
            } else {
                assert_int_equal(got, imms[i]);
            }
        }
    }
}

static void test_immediate_moves(void **state)
{
    Dis *d = *state;
    static const uint64_t vals[] = {
        0, 1, 0x7fffffff, 0x80000000, 0xffffffff, UINT64_C(0x100000000),
        UINT64_C(0xffffffff80000000), UINT64_MAX, UINT64_C(0x123456789abcdef0),
        UINT64_C(0x8000000000000000),
    };

    for (int r = 0; r < 16; r++) {
        for (unsigned i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
            x86_movi(start(d), r, vals[i]);
            const cs_x86 *x = decode_one(d, d->e.pos == 10 ? "movabs" : "mov");
            uint64_t got = (uint64_t)x->operands[1].imm;
            if (x->operands[0].reg == cs_reg32[r]) {
                got = (uint32_t)got; /* 32-bit move zero-extends */
            } else {
                assert_int_equal(x->operands[0].reg, cs_reg64[r]);
            }
            assert_int_equal(got, vals[i]);
        }
    }
}

static void test_memory_operands(void **state)
{
    Dis *d = *state;
    static const int32_t disps[] = { 0, 8, -8, 127, -128, 128, -129, 0x12345678, INT32_MIN };

    for (int base = 0; base < 16; base++) {
        for (int index = -1; index < 16; index++) {
            if (index == X86_RSP) {
                continue; /* not encodable as an index */
            }
            int idx = index < 0 ? X86_NO_REG : index;
            for (int scale = 0; scale < 4; scale++) {
                if (idx == X86_NO_REG && scale) {
                    continue;
                }
                for (unsigned k = 0; k < sizeof(disps) / sizeof(disps[0]); k++) {
                    int r = (base + index + 3) & 15;
                    x86_modrm_mem(start(d), OPC_MOV_GvEv | X86_P_W, r, base, idx, scale, disps[k]);
                    const cs_x86 *x = decode_one(d, "mov");
                    expect_reg(x, 0, cs_reg64[r]);
                    expect_mem(x, 1, base, idx, scale, disps[k]);
                    x86_modrm_mem(start(d), OPC_LEA_GvM | X86_P_W, r, base, idx, scale, disps[k]);
                    x = decode_one(d, "lea");
                    expect_mem(x, 1, base, idx, scale, disps[k]);
                }
            }
        }
    }
    /* Stores of each size, byte registers and immediates. */
    for (int r = 0; r < 16; r++) {
        const cs_x86 *x;
        x86_st(start(d), OPC_MOV_EbGb | X86_P_BYTE_R, r, X86_R12, 5);
        x = decode_one(d, "mov");
        expect_mem(x, 0, X86_R12, X86_NO_REG, 0, 5);
        expect_reg(x, 1, cs_reg8[r]);
        x86_st(start(d), OPC_MOV_EvGv | X86_P_66, r, X86_RBP, -4);
        x = decode_one(d, "mov");
        assert_int_equal(x->operands[1].size, 2);
        x86_st(start(d), OPC_MOV_EvGv, r, X86_RSP, 0);
        x = decode_one(d, "mov");
        expect_reg(x, 1, cs_reg32[r]);
    }
    for (unsigned size = 1; size <= 8; size *= 2) {
        x86_sti(start(d), size, X86_R13, 0, -2);
        const cs_x86 *x = decode_one(d, "mov");
        expect_mem(x, 0, X86_R13, X86_NO_REG, 0, 0);
        assert_int_equal(x->operands[0].size, size);
    }
    x86_sti64(start(d), X86_RBP, 0x100, UINT64_C(0x1122334455667788));
    d->n = cs_disasm(d->cs, d->buf, d->e.pos, FAKE_RX, 0, &d->insn);
    assert_int_equal(d->n, 2);
}

static void test_branches_and_padding(void **state)
{
    Dis *d = *state;
    X86Emitter *e = start(d);

    /* Jcc rel32 patched to a later position. */
    size_t field = x86_jcc_rel32(e, X86_CC_NE);
    x86_patch_rel32(e, field, 100);
    const cs_x86 *x = decode_one(d, "jne");
    expect_imm(x, 0, (int64_t)(FAKE_RX + 100));
    e = start(d);
    field = x86_jmp_rel32(e);
    x86_patch_rel32(e, field, 0);
    x = decode_one(d, "jmp");
    expect_imm(x, 0, (int64_t)FAKE_RX);
    /* Calls and jumps to absolute targets, near and far. */
    e = start(d);
    x86_call_to(e, FAKE_RX + 0x10000, X86_RAX);
    x = decode_one(d, "call");
    expect_imm(x, 0, (int64_t)(FAKE_RX + 0x10000));
    e = start(d);
    x86_call_to(e, UINT64_C(0x5555aaaa0000), X86_R11);
    d->n = cs_disasm(d->cs, d->buf, e->pos, FAKE_RX, 0, &d->insn);
    assert_int_equal(d->n, 2);
    assert_string_equal(d->insn[1].mnemonic, "call");
    e = start(d);
    x86_jmp_to(e, FAKE_RX - 0x1000);
    x = decode_one(d, "jmp");
    expect_imm(x, 0, (int64_t)(FAKE_RX - 0x1000));
    /* NOP padding of every length decodes as NOPs only and lands right. */
    for (unsigned phase = 0; phase < 16; phase++) {
        e = start(d);
        x86_byte(e, OPC_RET);
        x86_align(e, 16, phase);
        assert_int_equal(e->pos % 16, phase ? phase : 0);
        d->n = cs_disasm(d->cs, d->buf, e->pos, FAKE_RX, 0, &d->insn);
        size_t bytes = 0;
        for (size_t i = 0; i < d->n; i++) {
            bytes += d->insn[i].size;
            if (i > 0) {
                assert_int_equal(strcmp(d->insn[i].mnemonic, "nop"), 0);
            }
        }
        assert_int_equal(bytes, e->pos);
    }
    /* Overflow is reported and nothing is written past the end. */
    uint8_t small[4] = { 0xaa, 0xaa, 0xaa, 0xaa };
    X86Emitter o = { .buf = small, .rx_base = FAKE_RX, .cap = 3 };
    x86_movi(&o, X86_RAX, 0x12345678);
    assert_true(o.overflow);
    assert_int_equal(o.pos, 5);
    assert_int_equal(small[3], 0xaa);
}

/* An instruction is written in place when 15 bytes are free, else byte
 * by byte: near the end of the buffer the bytes must be the same as with
 * room to spare (the reference: a large buffer, whose encodings the tests
 * above decode with capstone), the position must count every byte, and
 * nothing may land at or past cap. */
static void emit_sample(X86Emitter *e, int which)
{
    switch (which) {
    case 0: /* 66 REX.RXB 0F B7 + SIB + disp32: 10 bytes */
        x86_modrm_mem(e, OPC_MOVZWL | X86_P_66 | X86_P_W, X86_R9, X86_R13, X86_R10, 3,
                      0x12345678);
        break;
    case 1: /* REX.B, SIB for r12, disp8 */
        x86_st(e, OPC_MOV_EvGv | X86_P_W, X86_RAX, X86_R12, -8);
        break;
    case 2: /* register form with REX.R */
        x86_mov_rr(e, X86_R11, X86_RDX);
        break;
    default: /* opcode only, then an immediate */
        x86_movi(e, X86_R8, 0x1234);
        break;
    }
}

static void test_emit_near_end(void **state)
{
    (void)state;
    for (int which = 0; which < 4; which++) {
        uint8_t ref[BUF_SIZE], buf[BUF_SIZE];
        X86Emitter r = { .buf = ref, .rx_base = FAKE_RX, .cap = BUF_SIZE };
        size_t len;

        emit_sample(&r, which);
        len = r.pos;
        assert_false(r.overflow);
        assert_true(len >= 3 && len <= 15);
        for (size_t off = 0; off < 20; off++) {
            for (size_t cap = off; cap <= off + len + 16; cap++) {
                X86Emitter e = { .buf = buf, .rx_base = FAKE_RX, .cap = cap, .pos = off };

                memset(buf, 0xa5, sizeof(buf));
                emit_sample(&e, which);
                assert_int_equal(e.pos, off + len);
                assert_int_equal(e.overflow, cap < off + len);
                for (size_t i = 0; i < sizeof(buf); i++) {
                    if (i < off || i >= cap || i >= off + len) {
                        assert_int_equal(buf[i], 0xa5);
                    } else if (buf[i] != ref[i - off]) {
                        /* Only a cut instruction may leave bytes unwritten. */
                        assert_true(cap < off + len);
                        assert_int_equal(buf[i], 0xa5);
                    }
                }
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reg_reg_forms),
        cmocka_unit_test(test_one_reg_forms),
        cmocka_unit_test(test_immediate_moves),
        cmocka_unit_test(test_memory_operands),
        cmocka_unit_test(test_branches_and_padding),
        cmocka_unit_test(test_emit_near_end),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
