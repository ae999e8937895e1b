/*
 * LinxISA CPU state (QEMU's "env").
 *
 * Everything the guest can observe lives here, plus the engine's part of
 * the CPU (tcg/cpu-engine.h: the softmmu TLB and TB jump cache the JIT
 * reaches by offset, the exec context, the address space, the run state),
 * which tcg/ finds at linx_cpu_engine_offset (exec-target.c).  There is
 * no global mutable state: several CPUs can exist in one process, each
 * with its own CPULinxState and its own machine/address space.
 *
 * Register files (docs/linxisa-digest.md section 2):
 *   gpr[0..23]   R0 = zero (kept 0), sp, a0-a7, ra, s0-s8, x0-x3
 *   tq[4], uq[4] ClockHands queues, reset at every block start.  They are
 *                stored as rings: t#k lives in tq[(t_head - (k - 1)) & 3].
 *                The translator tracks the heads (and how many entries
 *                were pushed since the block started) at translation time,
 *                so translated code never stores them; they are written to
 *                env only by linx_cpu_sync_block_state() (traps, dumps,
 *                debugger) - docs/decisions.md D7, docs/frontend.md.
 *   BARG         bpc (always current: written at every block start), carg,
 *                tgt (runtime values); branch kind, block type, header
 *                target, TGT-modified are translation-time facts, stored
 *                by linx_cpu_sync_block_state().
 *   lb[3], lc[3] loop bounds and lane counters
 *   ssr          user SSRs (TP, GP, ...), fcsr, trap registers
 *
 * Mid-block entry: whoever sets env->pc to an address that is not the
 * start of a block (trap return, signal return, debugger, a TB cut short
 * by a page boundary or one-insn mode) sets env->resume = 1.  The exec
 * loop looks the TB up with env->resume as its flags (linx_target_ops'
 * tb_flags_offset, exec-target.c), which then include TB_F_RESUME; a
 * resume TB clears env->resume when it starts.  Translated code at block
 * boundaries never touches it.
 */
#ifndef LINX_TARGET_CPU_H
#define LINX_TARGET_CPU_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kernel-state.h"
#include "tcg/cpu-engine.h"
#include "tcg/tb.h"

#define LINX_NUM_GPRS 24
#define LINX_QUEUE_DEPTH 4

/* GPR codes (reg5). */
enum {
    LINX_REG_ZERO = 0,
    LINX_REG_SP = 1,
    LINX_REG_A0 = 2, /* a0..a7 = 2..9 */
    LINX_REG_A7 = 9,
    LINX_REG_RA = 10,
    LINX_REG_S0 = 11, /* s0..s8 = 11..19 */
    LINX_REG_X0 = 20, /* x0..x3 = 20..23 */
    LINX_REG_T1 = 24, /* source codes 24..27 = t#1..t#4 */
    LINX_REG_U1 = 28, /* source codes 28..31 = u#1..u#4 */
    LINX_DST_U = 30,  /* destination code: push U queue */
    LINX_DST_T = 31,  /* destination code: push T queue */
};

/* Branch kinds (BrType). */
typedef enum LinxBranchKind {
    LINX_BR_NONE = 0, /* BSTOP */
    LINX_BR_FALL = 1,
    LINX_BR_DIRECT = 2,
    LINX_BR_COND = 3,
    LINX_BR_CALL = 4,
    LINX_BR_IND = 5,
    LINX_BR_ICALL = 6,
    LINX_BR_RET = 7,
} LinxBranchKind;

/* Block types. */
typedef enum LinxBlockType {
    LINX_BLK_STD = 0,
    LINX_BLK_SYS = 1,
    LINX_BLK_FP = 2,
    LINX_BLK_MPAR,
    LINX_BLK_MSEQ,
    LINX_BLK_VPAR,
    LINX_BLK_VSEQ,
    LINX_BLK_TMA,
    LINX_BLK_CUBE,
    LINX_BLK_TEPL,
    LINX_BLK_FIXP,
    LINX_BLK_TEMPLATE, /* FENTRY/FEXIT/FRET/MCOPY/MSET/ESAVE/ERCOV */
} LinxBlockType;

/* TRAPNUM values (isa/v0.4/state/system_registers.json). */
enum {
    LINX_TRAP_EXEC_STATE = 0,
    LINX_TRAP_ILLEGAL_INST = 4,
    LINX_TRAP_BLOCK = 5,
    LINX_TRAP_SCALL = 6,
    LINX_TRAP_INST_PC_FAULT = 32,
    LINX_TRAP_INST_PAGE_FAULT = 33,
    LINX_TRAP_DATA_ALIGN_FAULT = 34,
    LINX_TRAP_DATA_PAGE_FAULT = 35,
    LINX_TRAP_INTERRUPT = 44,
    LINX_TRAP_HW_BREAKPOINT = 49,
    LINX_TRAP_SW_BREAKPOINT = 50,
    LINX_TRAP_HW_WATCHPOINT = 51,
    LINX_TRAP_ASSERT_FAIL = 52,
};

/* env->trapno (the TRAPNO SSR layout, isa/v0.4/state/system_registers.json
 * "trapno_encoding"): TRAPNUM in bits 5:0, CAUSE in bits
 * 47:24, ARGV (TRAPARG0 valid) in bit 62.  Written by
 * linx_raise_exception(); read through these. */
#define LINX_TRAPNO_NUM_MASK 0x3fu
#define LINX_TRAPNO_CAUSE_SHIFT 24
#define LINX_TRAPNO_CAUSE_MASK 0xffffffu
#define LINX_TRAPNO_ARGV (UINT64_C(1) << 62)

static inline unsigned linx_trapno_num(uint64_t trapno)
{
    return (unsigned)(trapno & LINX_TRAPNO_NUM_MASK);
}

static inline unsigned linx_trapno_cause(uint64_t trapno)
{
    return (unsigned)((trapno >> LINX_TRAPNO_CAUSE_SHIFT) & LINX_TRAPNO_CAUSE_MASK);
}

/* Sub-causes (TRAPNO CAUSE field).  The cause argument of
 * linx_raise_exception() is LINX_CAUSE(ec, detail): EC in bits 15:8, the
 * detail (E_INST) or the CFI kind (E_BLOCK(EC_CFI)) in bits 7:0. */
#define LINX_CAUSE(ec, detail) (((unsigned)(ec) << 8) | (unsigned)(detail))
enum {
    LINX_EC_ILLEGAL = 0x01, /* E_INST */
    LINX_EC_PARAM = 0x02,
    LINX_EC_PERM = 0x03,
    LINX_EC_CFI = 0x01, /* E_BLOCK */
    LINX_EC_BLOCKFMT = 0x02,
    LINX_EC_BFETCH = 0x03,
};

/* EC_CFI kinds (TRAPNO.CAUSE[3:0]). */
enum {
    LINX_CFI_BAD_TARGET = 1,          /* branch target is not a block start */
    LINX_CFI_MISSING_NEXT_MARKER = 3, /* fall-through into a non-marker */
};

/* B.* descriptor families (TRAPARG0[7:0] of E_BLOCK(EC_BLOCKFMT)). */
enum {
    LINX_DESC_GENERIC = 0,
    LINX_DESC_DIM = 1,
    LINX_DESC_TEXT = 2,
    LINX_DESC_ARG = 3,
    LINX_DESC_IOR = 4,
    LINX_DESC_IOT = 5,
};

/* E_BLOCK(EC_BLOCKFMT) details (TRAPARG0[15:8]). */
enum {
    LINX_BLOCKFMT_MISSING = 0,
    LINX_BLOCKFMT_BAD_VALUE = 1,
    LINX_BLOCKFMT_COMBO = 2,
};

/* DATA_PAGE_FAULT causes (TRAPNO.CAUSE; the v0.4 profile leaves the DFSC
 * encoding open, docs/engine.md "Memory faults"). */
enum {
    LINX_DFSC_TRANSLATION = 0x01, /* nothing mapped */
    LINX_DFSC_PERMISSION = 0x02,  /* mapped, access not permitted */
    LINX_DFSC_EXTERNAL = 0x03,    /* a device rejected the access */
    LINX_DFAULT_WNR = 0x100,      /* the access was a write */
};

/* User-visible SSR ids (isa/v0.4/state/system_registers.json). */
enum {
    LINX_SSR_TP = 0x0000,
    LINX_SSR_GP = 0x0001,
    LINX_SSR_TIME = 0x0010,
    LINX_SSR_CSTATE = 0x0020,
    LINX_SSR_LXLCID = 0x0021,
    LINX_SSR_VENDOR = 0x0022,
    LINX_SSR_VERSION = 0x0023,
    LINX_SSR_LCFR = 0x0024,
    LINX_SSR_LCFR_EN = 0x0025,
    LINX_SSR_LB0 = 0x0050,
    LINX_SSR_LC0 = 0x0053,
    LINX_SSR_LC2 = 0x0055,
    LINX_SSR_CYCLE = 0x0C00,
    /* Manager family: 0xnFxx, n = managing ACR. */
    LINX_SSR_MGR_BASE = 0x0F00,
    LINX_SSR_MGR_MASK = 0x0F00,
    LINX_SSR_ACR_SHIFT = 12,
};

/* Index (low 8 bits of 0xnFxx) of the manager SSRs the CPU model uses. */
enum {
    LINX_MSSR_ECSTATE = 0x00,
    LINX_MSSR_EVBASE = 0x01,
    LINX_MSSR_TRAPNO = 0x02,
    LINX_MSSR_TRAPARG0 = 0x03,
    LINX_MSSR_EBARG0 = 0x40,
    LINX_MSSR_EBARG_BPC_CUR = 0x41,
    LINX_MSSR_EBARG_BPC_TGT = 0x42,
    LINX_MSSR_EBARG_TPC = 0x43,
    LINX_MSSR_EBARG_LRA = 0x44,
    LINX_MSSR_EBARG_TQ0 = 0x45, /* TQ0..TQ3 = t#1..t#4 */
    LINX_MSSR_EBARG_UQ0 = 0x49, /* UQ0..UQ3 = u#1..u#4 */
    LINX_MSSR_EBARG_LB = 0x4d,  /* LB0..LB2, 16 bits each */
    LINX_MSSR_EBARG_LC = 0x4e,  /* LC0..LC2, 16 bits each */
    LINX_MSSR_EBARG_EXTCTX_PTR = 0x4f,
    LINX_MSSR_EBARG_EXTCTX_META = 0x50,
    LINX_MSSR_EBARG_TPLFLAGS = 0x51,
    LINX_MSSR_COUNT = 0x100,
};

/* CSTATE / ECSTATE fields (the peer's layout: avs/qemu/tests/11_system.c):
 * ACR in 3:0, the interrupt enable I in bit 4; ECSTATE adds BI (the trap
 * interrupted a block body, not its header) in bit 62. */
#define LINX_CSTATE_ACR_MASK UINT64_C(0xf)
#define LINX_CSTATE_I (UINT64_C(1) << 4)
#define LINX_ECSTATE_BI (UINT64_C(1) << 62)

#define LINX_NUM_ACRS 3

/* ACRC request types (RST_Type). */
enum {
    LINX_ACRC_MACHINE = 0,
    LINX_ACRC_SYS = 1, /* SCT_SYS: the Linux system call */
    LINX_ACRC_SEC = 2,
};

/* FCSR layout. */
enum {
    LINX_FFLAG_NX = 1 << 0,
    LINX_FFLAG_UF = 1 << 1,
    LINX_FFLAG_OF = 1 << 2,
    LINX_FFLAG_DZ = 1 << 3,
    LINX_FFLAG_NV = 1 << 4,
    LINX_FCSR_RM_SHIFT = 8,
};

struct TranslationBlock;
struct GuestMemory;
struct LinxCommitTrace;

/* System-call hook for `acrc` (linux-user sets it).  Called from the acrc
 * helper with env->pc at the acrc and all guest registers current; it
 * returns true when it handled the request (execution continues after
 * the acrc), false to take the architectural SCALL trap.  A hook that
 * changes env->pc or ends the run calls cpu_loop_exit() itself (setting
 * env->resume when the new pc is mid-block). */
typedef bool (*LinxAcrcHook)(CPUArchState *env, unsigned request_type, void *opaque);

/* Trap hook (the virt machine sets it): called by linx_raise_exception()
 * with env->trapno, traparg0 and trap_pc set.  True: the trap was
 * delivered (env now runs the guest handler; the exec loop goes on at
 * env->pc); false: cpu_exec() returns EXCP_TRAP as without a hook. */
typedef bool (*LinxTrapHook)(CPUArchState *env, void *opaque);

/* Tile/kernel block engine hook: run the header gathered in env->hdr at
 * block commit (set by the machine; NULL raises ILLEGAL_INST). */
typedef void (*LinxBlockEngineHook)(CPUArchState *env, void *opaque);

/* Descriptors of a tile/kernel block header (BSTART.TMA/CUBE/TEPL/MPAR...
 * followed by B.* descriptors), gathered as the header executes and
 * handed to the block engine at commit. */
#define LINX_HDR_MAX_IOR 12
#define LINX_HDR_MAX_IOT 8
typedef struct LinxBlockHeader {
    uint64_t type;       /* LinxBlockType */
    uint64_t func;       /* TMA/CUBE Function, TEPL TileOpcode, MPAR Mode */
    uint64_t dtype;      /* header DataType */
    uint64_t arg;        /* B.ARG format code | 1 << 63 when present */
    uint64_t attr;       /* raw B.ATTR word | 1 << 63 when present */
    uint64_t datr;       /* raw B.DATR word | 1 << 63 when present */
    uint64_t text;       /* BodyTPC | 1 << 63 when present */
    uint64_t dim_mask;   /* which of LB0-2 a B.DIM wrote */
    uint64_t nior;       /* B.IOR register values gathered (ri0..) */
    uint64_t ior[LINX_HDR_MAX_IOR];
    uint64_t ior_regs;   /* 5-bit register codes, 5 bits per entry */
    uint64_t ior_dst;    /* last B.IOR RegDst */
    uint64_t niot;       /* B.IOT/B.IOTI descriptors */
    uint64_t iot[LINX_HDR_MAX_IOT]; /* raw words (+ size from IOT's GPR in 63:40) */
    uint64_t flags;      /* LINX_HDR_F_*: how the front end's profile reads it */
} LinxBlockHeader;
/* LinxBlockHeader.flags: the CUBE header may be in the compiled form
 * (profile.h cube_compiled_forms: no B.ARG; ACCCVT without B.DIM, B.IOR). */
#define LINX_HDR_F_COMPILED_FORMS 1u
struct LinxMachine;
struct LinxTileState;
struct LinxProfile;

typedef struct CPUArchState {
    /* ---- Architectural state read and written by translated code ---- */
    uint64_t gpr[LINX_NUM_GPRS];
    uint64_t tq[LINX_QUEUE_DEPTH];
    uint64_t uq[LINX_QUEUE_DEPTH];
    uint64_t t_head, u_head; /* ring heads (see above) */
    uint64_t pc;             /* TPC: next instruction to execute */
    uint64_t bpc;            /* start of the current block */
    uint64_t carg;           /* BARG.CARG (0/1) */
    uint64_t tgt;            /* BARG.TGT */
    uint64_t tgt_set;        /* SETC.TGT executed in this block (synced) */
    uint64_t br_kind;        /* LinxBranchKind of the current block (synced) */
    uint64_t blk_type;       /* LinxBlockType of the current block (synced) */
    uint64_t hdr_target;     /* target encoded in the block header (synced) */
    uint64_t resume;         /* next TB entry is mid-block (see above) */
    uint64_t lb[3];
    uint64_t lc[3];
    uint64_t fcsr;
    uint64_t ssr_tp;
    uint64_t ssr_gp;
    uint64_t ssr_cstate;
    uint64_t ssr_lcfr_en;
    uint64_t acr;            /* current ring: 0 root, 1 OS, 2 user */
    /* Retired guest instructions (exact at block boundaries). */
    uint64_t insn_count;
    /* Every field above is a 64-bit word the translator may use as an IR
     * global (target/linx/translate-gen.h, LINX_GLOBAL_SLOTS). */

    uint64_t mgr_ssr[LINX_NUM_ACRS][LINX_MSSR_COUNT]; /* 0xnFxx family */
    LinxBlockHeader hdr;     /* tile/kernel header being gathered */

    /* Atomics: LR/SC reservation. */
    uint64_t resv_addr;
    uint64_t resv_valid;
    uint64_t resv_size;
    uint64_t resv_val; /* the value LR read (SC compares and swaps against it) */

    /* Exception state of the last trap. */
    uint64_t trapno;   /* TRAPNUM | CAUSE << 24 | ARGV << 62 */
    uint64_t traparg0;
    uint64_t trap_pc;

    /* ---- The engine's part (tcg/cpu-engine.h): the TLB, the jump cache
     * and the host-fault masks the JIT reaches by offset, the exec
     * context, the address space, the run state ---- */
    CPUEngineState engine;

    /* ---- Not touched by translated code ---- */
    /* ISA profile (profile.h): the conventions the translator, the kernel
     * code and the trap reports follow.  Fixed for a run (translations do
     * not record it); linx_cpu_reset() sets the default when NULL. */
    const struct LinxProfile *profile;
    LinxAcrcHook acrc_hook;
    void *acrc_opaque;
    LinxTrapHook trap_hook;
    void *trap_opaque;
    /* Rings whose trap handler runs (bit n: a trap was delivered to ACRn
     * and ACRn has not left through ACRE yet): target/linx/trap.c. */
    uint64_t trap_active;
    LinxBlockEngineHook block_engine;
    void *block_engine_opaque;
    /* Registers and queue slots at the previous commit-trace record. */
    uint64_t trace_shadow[LINX_NUM_GPRS + 2 * LINX_QUEUE_DEPTH];
    /* The data access of the instruction being traced, stored by TB_F_TRACE
     * translations after a load/store and reported (then cleared) by
     * helper_trace_insn: [0] size in bytes, | 0x100 for a store (0: none),
     * [1] address, [2] value. */
    uint64_t trace_mem[3];
    struct LinxMachine *machine;
    struct LinxTileState *tiles;
    /* TMA blocks (target/linx/tma-translate.h).  tma_empty_header_noop: a
     * TMA header that binds no operand (no B.ARG/B.DATR, B.IOR, B.IOT(I),
     * B.DIM) runs as a no-op - the virt machine's peer-compatibility rule
     * (docs/virt.md), decided at translation time.  tile_fault: the rule
     * behind the last trap a TMA, TEPL or CUBE block raised (TmaRule,
     * LinxTeplRule or LinxCubeRule; 0 none) with that trap's pc and
     * TRAPARG0, so a trap report can name the rule
     * (linx_tile_fault_raise, linx_tile_fault_report). */
    bool tma_empty_header_noop;
    struct {
        uint32_t rule;
        uint64_t pc, traparg0;
    } tile_fault;
    int exit_code;
    /* The operating-system thread this CPU runs (linux-user: LinuxThread). */
    void *os_thread;
    /* Kernel blocks (MPAR/MSEQ/VPAR/VSEQ): header-to-body bindings and lane
     * records (kernel-state.h, docs/kernels.md).  Last: it is large, and
     * only kernels touch it. */
    LinxKernelState kern;
} CPULinxState;

/* exec-target.c */
/* Raise an architectural exception at guest pc @pc: env->trapno =
 * trapnum | cause << 24 | ARGV (bit 62, TRAPARG0 valid), env->traparg0,
 * env->trap_pc = env->pc = @pc; cpu_exec() returns EXCP_TRAP.  Logged
 * under -d int.  When env->trap_hook delivers the trap to the guest (the
 * virt machine's EVBASE handlers) the loop goes on at the new env->pc
 * instead (EXCP_DEBUG while single-stepping). */
_Noreturn void linx_raise_exception(CPULinxState *env, unsigned trapnum, unsigned cause,
                                    uint64_t traparg0, uint64_t pc);

/* cpu.c */
/* Architectural reset: registers zero, ACR0 (@acr selects another ring,
 * e.g. 2 for linux-user), pc = @pc at a block boundary. */
void linx_cpu_reset(CPULinxState *env, uint64_t pc, unsigned acr);
/* Print the register state (-d cpu, fatal traps). */
void linx_cpu_dump_state(CPULinxState *env, FILE *f);
/* Store the translation-time block state (queue heads, branch kind, block
 * type, header target, TGT-modified) of the block env->bpc that holds
 * env->pc into env, by replaying the block's decode.  Used before a trap
 * is reported, by the debugger and by dumps; returns false when env->pc
 * cannot be reached by decoding from env->bpc. */
bool linx_cpu_sync_block_state(CPULinxState *env);
/* Value of ClockHands t#k / u#k (k = 1..4) after linx_cpu_sync_block_state(). */
uint64_t linx_cpu_queue_read(const CPULinxState *env, bool u, unsigned k);

#endif /* LINX_TARGET_CPU_H */
