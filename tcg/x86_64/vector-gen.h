/*
 * Code generation for vector lane programs (tcg/vec.h), internal to
 * tcg/x86_64/vector-*.c:
 *
 *   vector-emit.c  VEX/EVEX encodings
 *   vector-gen.c   the function around the body: prologue, block loop,
 *                  tail, epilogue, constant pool, register allocation,
 *                  per-lane loops (calls, accesses without a vector form)
 *   vector-ops.c   one VecInsn as host instructions (vector-ops.h: the
 *                  opcodes and what it shares with vector-mem.c)
 *   vector-mem.c   loads, stores, gathers and calls
 *
 * Generated function (SysV): void fn(VecFrame *f)
 *   r12 = f, rbx = first lane of the current block, r13 = f->end,
 *   rbp = the constant pool, r14/r15 = per-lane loop state; rsp is
 *   64-byte aligned and addresses the stack area (layout: VG_* below).
 * Vector registers: AVX-512 zmm0-26 allocated, zmm27-31 scratch, k1-k5
 * allocated (masks), k6 scratch write mask, k7 the in-range lanes of a
 * partial block; AVX2 ymm0-10 allocated (masks too), ymm11-15 scratch.
 * Scratch 4 is reserved for the emulations inside one instruction
 * (AVX2 64-bit arithmetic shifts).
 * A W64 value takes two registers: lanes [0, L/2) and [L/2, L).
 */
#ifndef LINX_TCG_X86_64_VECTOR_GEN_H
#define LINX_TCG_X86_64_VECTOR_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "tcg/vec.h"
#include "vector-emit.h"

enum {
    VG_MAX_SLOTS = 192,      /* spill slots (64 bytes each) */
    VG_POOL_MAX = 8192,      /* constant pool bytes */
    /* stack area offsets (rsp-relative) */
    VG_SAVE = 0,                          /* register save area: 32 x 64 bytes */
    VG_KSAVE = VG_SAVE + 32 * 64,         /* k0-k7, 8 bytes each */
    VG_ARR = VG_KSAVE + 64,               /* lane arrays A, B, C, D: 16 x 8 bytes each */
    VG_ARR_SIZE = VEC_LANES_MAX * 8,
    VG_MISC = VG_ARR + 4 * VG_ARR_SIZE,   /* words below */
    VG_HOST_MXCSR = VG_MISC + 0,
    VG_CUR_MXCSR = VG_MISC + 4,
    VG_BLOCK_MXCSR = VG_MISC + 8,
    VG_TMP32 = VG_MISC + 12,
    VG_SAVED_RSP = VG_MISC + 16,
    VG_RANGE_BITS = VG_MISC + 24,         /* in-range lanes of the partial block */
    VG_RANGE_VEC = VG_MISC + 64,          /* AVX2: the same as a vector mask */
    VG_SLOTS = VG_RANGE_VEC + 64,
    VG_FRAME = VG_SLOTS + VG_MAX_SLOTS * 64,
};

/* Registers with a fixed role. */
#define VG_FRAME_REG X86_R12
#define VG_LANE_REG X86_RBX
#define VG_END_REG X86_R13
#define VG_POOL_REG X86_RBP
#define VG_BITS_REG X86_R14
#define VG_IDX_REG X86_R15

typedef struct VGenVal {
    int8_t reg[2];      /* register holding part p, -1 none */
    int16_t slot[2];    /* spill slot holding part p, -1 none */
    uint16_t last;      /* index of the last insn reading it */
    uint8_t type;       /* VecType */
    uint8_t nparts;
    bool k;             /* lives in a mask register (AVX-512 masks) */
} VGenVal;

typedef struct VGen {
    X86Emitter *e;
    const VecProg *p;
    VecIsa isa;
    bool evex;
    unsigned lanes;     /* per block */
    int vl;             /* VX_512 / VX_256 */
    unsigned vbytes;    /* bytes per register (64 / 32) */
    unsigned nvreg;     /* allocatable vector registers */
    bool tail;          /* generating the partial block's body */
    unsigned cur;       /* insn being generated */
    VGenVal *val;
    uint16_t **uses;    /* per value: insn indices reading it, ascending */
    uint16_t *nuses;
    int32_t vowner[32]; /* value << 1 | part, -1 free */
    int32_t kowner[8];
    uint32_t vlocked, klocked;
    uint8_t slot_busy[VG_MAX_SLOTS];
    /* constant pool (emitted after the code, addressed from rbp) */
    uint8_t pool[VG_POOL_MAX];
    unsigned pool_len;
    /* jumps to the bail-out and epilogue paths */
    size_t *bail_fix;
    unsigned nbail, bail_cap;
    bool failed;
    char why[128];
} VGen;

/* ---- vector-gen.c: registers and services for vector-ops.c ---- */

/* The register holding part @part of @v (loaded if spilled), locked
 * until the insn ends. */
int vg_use(VGen *g, uint16_t v, int part);
/* A fresh register for part @part of result @v. */
int vg_def(VGen *g, uint16_t v, int part);
/* A mask register (AVX-512) for @v: use / def. */
int vg_kuse(VGen *g, uint16_t v);
int vg_kdef(VGen *g, uint16_t v);
/* Scratch vector registers 0..4 (zmm27-31 / ymm11-15). */
int vg_scratch(const VGen *g, int i);
/* Pool offset of @n bytes (aligned to @align), copied from @data. */
int32_t vg_pool(VGen *g, const void *data, unsigned n, unsigned align);
/* Pool offset of a 4- or 8-byte value repeated over a whole register. */
int32_t vg_pool_splat(VGen *g, uint64_t v, unsigned size);
/* The write mask for part @part of an operation on the lanes of mask @m
 * (VEC_NONE: all) restricted to the in-range lanes: 0 when no mask is
 * needed (full block, no m); else k6 or the mask's own register. */
int vg_kmask(VGen *g, uint16_t m, int part);
/* AVX2: a scratch register @si holding the dword (part -1) or qword (part
 * 0/1) lane mask of @m & in-range; returns false when every lane is
 * enabled (nothing loaded). */
bool vg_vmask(VGen *g, uint16_t m, int part, int si);
/* r14d = the bits of the enabled lanes of @m (in range) */
void vg_lane_bits(VGen *g, uint16_t m);
/* Save / restore every allocated register (around calls). */
void vg_save_live(VGen *g);
void vg_restore_live(VGen *g);
/* Call @fn (absolute) with the host MXCSR, rsp aligned. */
void vg_call_host(VGen *g, uint64_t fn);
/* A jump to the bail-out: the block does not run (flags restored). */
void vg_jcc_bail(VGen *g, X86Cond cc);
bool vg_fail(VGen *g, const char *why);

/* Store part @part of @v to lane array @arr (0..3) as 64-bit (W64) or
 * 32-bit (W32) elements; load a value from one. */
void vg_store_arr(VGen *g, uint16_t v, unsigned arr);
void vg_load_arr(VGen *g, uint16_t v, unsigned arr);
static inline int32_t vg_arr(unsigned arr)
{
    return VG_ARR + (int32_t)(arr * VG_ARR_SIZE);
}

/* ---- vector-ops.c ---- */
bool vg_insn(VGen *g, const VecInsn *in);

/* Short encoders used by both files. */
void vg_rr(VGen *g, VxOpc o, int reg, int vvvv, int rm);
void vg_rrk(VGen *g, VxOpc o, int reg, int vvvv, int rm, int k, bool z);
void vg_rm(VGen *g, VxOpc o, int reg, int vvvv, VxMem m, int k, bool z);
void vg_mov(VGen *g, int d, int s);               /* full register copy */
void vg_load_vec(VGen *g, int d, VxMem m);          /* unmasked full load */
void vg_store_vec(VGen *g, int s, VxMem m);         /* unmasked full store */
void vg_bcast(VGen *g, int d, VxMem m, unsigned size); /* d = broadcast m32/m64 */

#endif /* LINX_TCG_X86_64_VECTOR_GEN_H */
