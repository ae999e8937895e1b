/*
 * Run-time state of a kernel block (MPAR/MSEQ/VPAR/VSEQ): what a kernel
 * header hands to its body, and what the body keeps per lane.
 *
 * It is embedded in CPULinxState (env->kern), so translated code reaches
 * every field with one env-relative load or store and there is nothing to
 * allocate or free: several CPUs in one process each have their own.  The
 * large arrays (the per-lane records of bodies with cross-lane operations
 * and the TS scratch tile) are only touched by kernels that use them, so
 * their pages cost nothing otherwise.
 *
 * Layout of one lane record (LinxKernelLane, docs/kernels.md "Lane
 * state"): the four vector queues vt vu vm vn (4 entries each, entry k-1
 * = #k), the scalar hands t and u, and the predicate p, at fixed word
 * indices (LINX_KLANE_*).  Bodies translate queue pushes as renames at
 * translation time; a record holds the queues in canonical order (#1
 * first) only where the translated code must leave them in memory: at
 * body-internal labels and across cross-lane operations.
 *
 * Invariants:
 *   - header commit (kernel-header.c) writes ri[], nri, vs8, cont, hdr_pc
 *     and the tile bindings before the body TB runs;
 *   - the body TB reads them, never writes them;
 *   - out_hand < LINX_KTILE_NONE means the body's output tile TO is the
 *     spare slot of that hand, pushed when the body ends.
 */
#ifndef LINX_TARGET_KERNEL_STATE_H
#define LINX_TARGET_KERNEL_STATE_H

#include <stdint.h>

/* Word indices of a lane record. */
enum {
    LINX_KLANE_VQ = 0,      /* vt#1..4, vu#1..4, vm#1..4, vn#1..4: 16 words */
    LINX_KLANE_SQ = 16,     /* t#1..4, u#1..4: 8 words */
    LINX_KLANE_P = 24,      /* predicate (a lane is active when p != 0) */
    LINX_KLANE_WORDS = 32,  /* record size in words (a power of two) */
    LINX_KLANE_SHIFT = 8,   /* log2 of the record size in bytes */
};

enum {
    LINX_KQUEUES = 6,          /* vt vu vm vn t u */
    LINX_KQUEUE_DEPTH = 4,
    LINX_KERNEL_MAX_RI = 12,   /* ri0..ri11 */
    LINX_KTILE_BASES = 6,      /* TA TB TC TD TO TS */
    LINX_KTILE_TO = 4,
    LINX_KTILE_TS = 5,
    LINX_KTILE_NONE = 0xff,
    LINX_KERNEL_TS_BYTES = 4096,
    /* Lane records kept in env->kern.lanes for bodies with cross-lane
     * operations (V.RD*, V.SHFL*); larger groups use heap records. */
    LINX_KERNEL_XLANE_MAX = 1024,
};

/* Heap memory of large kernels (kernel-simd-run.c linx_kernel_heap). */
enum {
    LINX_KHEAP_LANES,  /* lane records of groups beyond LINX_KERNEL_XLANE_MAX */
    LINX_KHEAP_XTMP,   /* their per-lane cross-lane values */
    LINX_KHEAP_SPILL,  /* SIMD mode: per-lane values across phases */
    LINX_KHEAP_COUNT,
};

/* helper_kernel_bind's source list: count in bits 2:0, then 5-bit tile
 * ids (TA first). */
enum {
    LINX_KBIND_SRC_SHIFT = 3,
    LINX_KBIND_SRC_BITS = 5,
    LINX_KBIND_COUNT_MASK = 7,
};

typedef struct LinxKernelLane {
    uint64_t w[LINX_KLANE_WORDS];
} LinxKernelLane;

typedef struct LinxKernelState {
    /* Lane record of bodies with internal labels and no cross-lane ops. */
    LinxKernelLane lane;
    /* Header -> body. */
    uint64_t ri[LINX_KERNEL_MAX_RI]; /* scalar imports ri0.. (B.IOR values) */
    uint64_t nri;                    /* how many the header bound */
    uint64_t vs8;                    /* VSize VS8: vm/vn are illegal */
    uint64_t cont;                   /* header continuation (next block) */
    uint64_t hdr_pc;                 /* the header's BPC */
    uint64_t trace_kind;             /* commit trace: the body rows' LinxTraceKind
                                      * (stored by TB_F_TRACE headers only) */
    uint64_t tbase[LINX_KTILE_BASES]; /* host address of TA..TD, TO, TS data */
    uint64_t tsize[LINX_KTILE_BASES]; /* bytes each base may access (0: unbound) */
    uint64_t out_hand;               /* TO's hand, LINX_KTILE_NONE: no output */
    uint64_t out_bytes;              /* TO's size */
    /* Scratch words of the translated body. */
    uint64_t tmp;                    /* a value carried across a predicated access */
    uint64_t fault_arg;              /* offset of a failing tile-local access */
    uint64_t xtmp[LINX_KERNEL_XLANE_MAX]; /* per-lane values of a cross-lane op */
    /* Statistics (docs/kernels.md): kernels run, lanes run, lanes run by
     * the vector mode (kernel-vec.c) or the SIMD mode (kernel-simd*.c). */
    uint64_t kernels, lanes_run, vec_lanes;
    /* The lane records and cross-lane values of the running body with
     * phases: lanes/xtmp below, or heap[] when LB0 is larger
     * (helper_kernel_lanes). */
    LinxKernelLane *lanes_ptr;
    uint64_t *xtmp_ptr;
    void *heap[LINX_KHEAP_COUNT];
    uint64_t heap_size[LINX_KHEAP_COUNT];
    /* TS, the scratch tile (contents undefined at kernel start). */
    uint8_t ts[LINX_KERNEL_TS_BYTES] __attribute__((aligned(64)));
    /* Lane records of bodies with cross-lane operations (lc0-indexed). */
    LinxKernelLane lanes[LINX_KERNEL_XLANE_MAX] __attribute__((aligned(64)));
} LinxKernelState;

#endif /* LINX_TARGET_KERNEL_STATE_H */
