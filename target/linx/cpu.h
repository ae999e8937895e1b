/*
 * LinxISA CPU state (QEMU's "env").
 *
 * Everything the guest can observe lives here, plus the per-CPU caches the
 * JIT reaches through fixed offsets (softmmu TLB, TB jump cache).  There is
 * no global mutable state: several CPUs can exist in one process, each
 * with its own CPULinxState and its own machine/address space.
 *
 * Register files (docs/linxisa-digest.md section 2):
 *   gpr[0..23]   R0 = zero (kept 0), sp, a0-a7, ra, s0-s8, x0-x3
 *   tq[4], uq[4] ClockHands queues, reset at every block start.  They are
 *                stored as rings: t#k lives in tq[(t_head - (k - 1)) & 3].
 *                The translator tracks the head at translation time and
 *                stores t_head/u_head only where state must be precise.
 *   BARG         bpc, block kind/type, carg, tgt (+ whether TGT was set)
 *   lb[3], lc[3] loop bounds and lane counters
 *   ssr          user SSRs (TP, GP, ...), fcsr, trap registers
 */
#ifndef LINX_TARGET_CPU_H
#define LINX_TARGET_CPU_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

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

/* Sub-causes (TRAPNO CAUSE field). */
enum {
    LINX_EC_ILLEGAL = 0x01, /* E_INST */
    LINX_EC_PARAM = 0x02,
    LINX_EC_PERM = 0x03,
    LINX_EC_CFI = 0x01, /* E_BLOCK */
    LINX_EC_BLOCKFMT = 0x02,
    LINX_EC_BFETCH = 0x03,
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

#define LINX_TLB_BITS 10
#define LINX_TLB_SIZE (1u << LINX_TLB_BITS)

/* One softmmu TLB entry: tags are page addresses (low bits used as flags
 * that force the slow path); addend turns a guest address into a host one. */
typedef struct LinxTLBEntry {
    uint64_t addr_read;
    uint64_t addr_write;
    uint64_t addr_code;
    uintptr_t addend;
} LinxTLBEntry;

struct TranslationBlock;
struct GuestMemory;
struct LinxMachine;
struct LinxTileState;

#define LINX_TB_JMP_CACHE_BITS 12
#define LINX_TB_JMP_CACHE_SIZE (1u << LINX_TB_JMP_CACHE_BITS)

typedef struct CPULinxState {
    /* ---- Architectural state read and written by translated code ---- */
    uint64_t gpr[LINX_NUM_GPRS];
    uint64_t tq[LINX_QUEUE_DEPTH];
    uint64_t uq[LINX_QUEUE_DEPTH];
    uint64_t t_head, u_head; /* ring heads (see above) */
    uint64_t pc;             /* TPC: next instruction to execute */
    uint64_t bpc;            /* start of the current block */
    uint64_t carg;           /* BARG.CARG (0/1) */
    uint64_t tgt;            /* BARG.TGT */
    uint64_t tgt_set;        /* SETC.TGT executed in this block */
    uint64_t br_kind;        /* LinxBranchKind of the current block */
    uint64_t blk_type;       /* LinxBlockType of the current block */
    uint64_t hdr_target;     /* target encoded in the block header */
    uint64_t lb[3];
    uint64_t lc[3];
    uint64_t fcsr;
    uint64_t ssr_tp;
    uint64_t ssr_gp;
    uint64_t acr;            /* current ring: 0 root, 1 OS, 2 user */

    /* Atomics: LR/SC reservation. */
    uint64_t resv_addr;
    uint64_t resv_valid;
    uint64_t resv_size;

    /* Exception state of the last trap. */
    uint64_t trapno;   /* TRAPNUM | CAUSE << 24 | ARGV << 62 */
    uint64_t traparg0;
    uint64_t trap_pc;

    /* Retired guest instructions (exact, for -icount and the trace). */
    uint64_t insn_count;

    /* ---- Per-CPU caches the JIT reaches by offset ---- */
    LinxTLBEntry tlb[LINX_TLB_SIZE];
    struct TranslationBlock *tb_jmp_cache[LINX_TB_JMP_CACHE_SIZE];

    /* ---- Not touched by translated code ---- */
    struct GuestMemory *mem;
    struct LinxMachine *machine;
    struct LinxTileState *tiles;
    struct LinxExecContext *exec; /* TB cache, code buffer, IR context */
    sigjmp_buf jmp_env;            /* cpu_loop_exit() target */
    int exit_request;
    int exit_code;
    unsigned cpu_index;
} CPULinxState;

#endif /* LINX_TARGET_CPU_H */
