/*
 * Assembling one LinxISA instruction from its text, in the syntax the
 * disassembler prints (llvm-objdump style, target/linx/disas.h), plus the
 * forms real LinxISA clang output uses.  The assembler driver
 * (tools/linx-as) owns files, sections, symbols, directives and
 * expressions; it hands each instruction's text here together with an
 * expression evaluator.
 *
 *   LinxAsmEnv env = { .pc = addr, .eval = my_eval, .opaque = as, .final = true };
 *   LinxAsmResult r;
 *   LinxAsmError e;
 *   if (!linx_asm_insn("addi a0, 16, ->t", &env, &r, &e)) report(e.col, e.msg);
 *
 * Symbolic ADDTPC/HL.ADDTPC operands (page delta) and the low 12 bits of
 * "addi rs, sym" are resolved by linx-as before it calls linx_asm_insn
 * (tools/linx-as/pcrel.c), so the encoder only sees field values there.
 */
#ifndef LINX_TARGET_ASM_INSN_H
#define LINX_TARGET_ASM_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct LinxProfile;

typedef struct LinxAsmEnv {
    uint64_t pc; /* address of the instruction */
    /* Parse and evaluate the expression starting at *pp (advance *pp past
     * it).  Set *known = false when it names a symbol not yet defined (the
     * first pass); return false with a message in @err on a syntax error. */
    bool (*eval)(void *opaque, const char **pp, int64_t *value, bool *known, char *err,
                 size_t errlen);
    void *opaque;
    bool final; /* last pass: unknown symbols are errors */
    unsigned flags; /* LINX_ASM_F_* */
    /* ISA profile for the SrcRType codes (profile.h); NULL: the default,
     * linx-toolchain. */
    const struct LinxProfile *profile;
} LinxAsmEnv;

enum {
    /* The spellings of the v0.3-era toolchain that produced the shared
     * llvm-objdump listings, tried before the v0.4 ones: tile data-type
     * codes (FP16 = 4 instead of 2), tile headers named by TileOpcode
     * ("BSTART.TMA TLOAD, FP16", "BSTART.VPAR VCALL"), "BSTART.STD DIRECT"
     * for the simm25 header.  docs/disassembly.md lists every one. */
    LINX_ASM_F_LEGACY_DTYPE = 1 << 0,
    LINX_ASM_F_LEGACY = LINX_ASM_F_LEGACY_DTYPE, /* the same option */
};

typedef struct LinxAsmResult {
    uint8_t bytes[8];
    unsigned len;
    int form; /* LinxFormId */
} LinxAsmResult;

typedef struct LinxAsmError {
    unsigned col;  /* 0-based column in the instruction text */
    char msg[256]; /* "<rule>: <what>" e.g. "immediate out of range: 4096 not in [-2048, 2047]" */
} LinxAsmError;

/* Length in bytes the instruction will have, without evaluating
 * expressions (first pass layout); 0 and @err set if it cannot be parsed. */
unsigned linx_asm_insn_length(const char *text, unsigned flags, LinxAsmError *err);

bool linx_asm_insn(const char *text, const LinxAsmEnv *env, LinxAsmResult *out, LinxAsmError *err);

#endif /* LINX_TARGET_ASM_INSN_H */
