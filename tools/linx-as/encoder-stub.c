/*
 * Placeholder for the one-instruction encoder (target/linx/asm-insn.h)
 * while target/linx/asm-insn.c does not exist yet: every instruction is
 * reported as "encoder not built".  tools/linx-as/meson.build drops this
 * file as soon as the real encoder is in the tree.
 */
#include <stdio.h>

#include "target/linx/asm-insn.h"

unsigned linx_asm_insn_length(const char *text, unsigned flags, LinxAsmError *err)
{
    (void)text;
    (void)flags;
    err->col = 0;
    snprintf(err->msg, sizeof(err->msg),
             "unknown mnemonic: instruction encoder not built (target/linx/asm-insn.c missing)");
    return 0;
}

bool linx_asm_insn(const char *text, const LinxAsmEnv *env, LinxAsmResult *out,
                   LinxAsmError *err)
{
    (void)env;
    (void)out;
    return linx_asm_insn_length(text, 0, err) != 0;
}
