/*
 * LinxISA's LinxTargetOps (see exec-target.h).
 */
#include "target/linx/exec-target.h"

#include "target/linx/target-config.h"

#include "cpu.h"
#include "disas.h"
#if LINX_HAVE_TRANSLATOR
#include "kernel-simd.h"
#include "translate.h"
#endif

#if LINX_HAVE_DISAS
static unsigned disas_insn(const uint8_t *code, size_t avail, uint64_t pc, char *text,
                           size_t textlen, char *hex, size_t hexlen)
{
    unsigned len = 0;

    linx_disas_bytes(code, avail, pc, NULL, text, textlen, &len);
    if (len != 0) {
        linx_disas_hex(code, len, hex, hexlen);
    }
    return len;
}
#endif

const LinxTargetOps linx_target_ops = {
    .name = "LinxISA",
#if LINX_HAVE_TRANSLATOR
    .translate_init = linx_translate_init,
    .translate = linx_translate_block,
    .cpu_detach = linx_kernel_release,
#endif
#if LINX_HAVE_DISAS
    .disas_insn = disas_insn,
#endif
#if LINX_HAVE_CPU_DUMP
    .dump_state = linx_cpu_dump_state,
#endif
};

void linx_exec_options_init(LinxExecOptions *opts)
{
    linx_exec_options_defaults(opts);
    opts->target = &linx_target_ops;
}
