/*
 * Vector lane programs: the loop body of a data-parallel kernel as a
 * straight-line list of vector operations, compiled by the backend into a
 * host function that runs a range of lanes with host SIMD (AVX-512, or
 * AVX2 where the host has no AVX-512: tcg/x86_64/vector-*.c).
 *
 * The front end (target/linx/kernel-simd.c) builds a VecProg for one
 * phase of a kernel body; linx_exec_gen_vec() (tcg/exec.h) turns it into
 * host code in the code buffer (W^X like every TB).  The generated
 * function is
 *
 *     void fn(VecFrame *f);
 *
 * and runs lanes [f->start, f->end) in blocks of VecHost.lanes lanes
 * (16 with AVX-512, 8 with AVX2), the last block partial (masked).  For
 * every block, the operations run in list order over all lanes of the
 * block; values are vectors of one 32-bit or 64-bit element per lane, or
 * lane masks.  Nothing here knows the guest ISA: the front end decides
 * what a lane is, proves that running lanes block by block gives the
 * results of running them one by one, and computes addresses, scalars
 * and accumulators' initial values before the call (the frame).
 *
 * Semantics (the C reference in tests/unit/test-vec.c implements them):
 *   - integer ops wrap modulo 2^32 / 2^64; shifts by a lane count give
 *     0 (sign fill for SAR) when the count is >= the element width;
 *   - FP ops (W32 = binary32, W64 = binary64) round with the MXCSR
 *     rounding control of f->mxcsr and accumulate the host's exception
 *     flags into f->flags (x86 MXCSR bits 0-5; DE is cleared);
 *     NaN results are the default NaN (positive quiet, payload 0); FMAX/
 *     FMIN are IEEE 754-2019 maximumNumber/minimumNumber (-0 < +0; only
 *     an sNaN operand raises IE); an FMA block with a NaN operand lane
 *     calls the insn's fallback for every lane of the block instead;
 *   - "in range" lanes are those of [start, end); a mask operand
 *     VEC_NONE means every in-range lane.  Loads and stores touch only
 *     in-range lanes whose mask bit is set (inactive lanes load 0);
 *     arithmetic runs on every lane, but FP exceptions of out-of-range
 *     lanes are not raised;
 *   - calls run once per in-range lane, in lane order (VO_VCALL: once per
 *     block), with the host's default MXCSR (flags raised there are not
 *     collected);
 *   - accumulators (reductions) are read from f->acc at entry and written
 *     back at exit, so a range may be run in several calls.
 */
#ifndef LINX_TCG_VEC_H
#define LINX_TCG_VEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    VEC_MAX_INSNS = 1024,
    VEC_MAX_VALS = 2048,
    VEC_MAX_STREAMS = 32,
    VEC_MAX_SCALARS = 96,
    VEC_MAX_ACC = 16,
    VEC_MAX_GATHER_CHECKS = 16, /* store ranges a gather is checked against */
    VEC_LANES_MAX = 16,         /* lanes per block, the widest host */
    VEC_CALL_ARGS = 5,
};

#define VEC_NONE 0xffffu

typedef enum VecType {
    VT_W32,  /* one 32-bit element per lane */
    VT_W64,  /* one 64-bit element per lane */
    VT_MASK, /* one bit per lane */
} VecType;

/* Integer and mask compares (VO_CMP imm). */
typedef enum VecCond {
    VC_EQ, VC_NE, VC_LT, VC_GE, VC_LE, VC_GT, VC_LTU, VC_GEU, VC_LEU, VC_GTU,
} VecCond;

/* FP compares (VO_FCMP imm): ordered predicates; VFC_SIGNAL raises IE for
 * any NaN operand, otherwise only for an sNaN. */
enum {
    VFC_EQ = 0, /* ordered and equal */
    VFC_NE = 1, /* ordered and unequal */
    VFC_LT = 2,
    VFC_GE = 3,
    VFC_SIGNAL = 4,
};

/* VO_FMA imm: one rounding of */
enum {
    VFMA_MADD = 0,  /*  a*b + c */
    VFMA_MSUB = 1,  /*  a*b - c */
    VFMA_NMADD = 2, /* -(a*b) - c */
    VFMA_NMSUB = 3, /* -(a*b) + c */
};

/* VO_RED / VO_FRED aux: the combining operation. */
typedef enum VecRedOp {
    VR_ADD, VR_AND, VR_OR, VR_XOR, VR_SMAX, VR_SMIN, VR_UMAX, VR_UMIN,
    VR_FADD, /* sequential, in lane order: acc = acc + v (one rounding each) */
    VR_FMAX, /* maximumNumber over the active lanes (see VecFrame.acc) */
    VR_FMIN,
} VecRedOp;

typedef enum VecOp {
    /* d = broadcast imm (W32: its low 32 bits) */
    VO_CONST,
    /* d = broadcast f->s[imm] (W32: its low 32 bits) */
    VO_SCALAR,
    /* d = the lane number (W32: its low 32 bits) */
    VO_LANE,
    /* integer, d/a/b of type (W32 or W64) */
    VO_ADD, VO_SUB, VO_MUL, VO_AND, VO_OR, VO_XOR,
    VO_SHLV, VO_SHRV, VO_SARV,         /* by b's lanes (unsigned counts) */
    VO_SMAX, VO_SMIN, VO_UMAX, VO_UMIN,
    VO_SHLI, VO_SHRI, VO_SARI,         /* by imm (0..63) */
    VO_SEXT, VO_ZEXT,                  /* extend the low imm bits (8, 16; W64: 32) */
    VO_WIDEN,                          /* W32 a -> W64 d, signed when imm */
    VO_NARROW,                         /* W64 a -> W32 d (low halves) */
    /* masks */
    VO_CMP,     /* d (mask) = a cond(imm) b, a/b of type aux (W32/W64) */
    VO_TESTNZ,  /* d (mask) = (a & b) != 0, a/b of type aux */
    VO_MAND, VO_MOR, VO_MANDN,        /* d = a & b, a | b, a & ~b */
    VO_MNOT,
    VO_MASK2INT, /* d (type) = a ? 1 : 0 */
    VO_BLEND,    /* d (type) = m ? a : b */
    /* floating point, type W32 (binary32) or W64 (binary64) */
    VO_FADD, VO_FSUB, VO_FMUL, VO_FDIV, VO_FMAX, VO_FMIN,
    VO_FSQRT, VO_FABS,
    VO_FMA,     /* d = imm (VFMA_*) of a, b, c; fallback: fn(env, a, b, c) */
    VO_FCMP,    /* d (mask) = a pred(imm) b, a/b of type aux */
    /* memory */
    VO_LOAD,    /* d (type) = the element of stream imm, aux: size lg | sign << 2 */
    VO_STORE,   /* element of stream imm = a (low 8 << lg bits), aux: lg */
    VO_GATHER,  /* d (type) = guest element at address a (W64), aux as VO_LOAD,
                 * imm: flags VG_*; see VecFrame.g* */
    /* d (type, or none) = fn(args) per in-range lane (see VecInsn.args) */
    VO_CALL,
    /* once per block: fn(env, in, out, bits, call_imm), in/out arrays of
     * the block's lanes (W32: uint32_t, W64: uint64_t) holding a and
     * receiving d (same type), bits the in-range lanes; with the host's
     * default MXCSR, like VO_CALL */
    VO_VCALL,
    /* accumulators */
    VO_RED,     /* acc[imm] op= a (type aux op VR_ADD..VR_UMIN) over m's lanes */
    VO_FRED,    /* acc[imm] op= a (VR_FADD, VR_FMAX, VR_FMIN) over m's lanes */
    VO__COUNT
} VecOp;

/* Call arguments: where each of the (up to VEC_CALL_ARGS) integer
 * arguments comes from. */
typedef enum VecArg {
    VA_NONE,  /* 0 */
    VA_ENV,   /* f->env */
    VA_A, VA_B, VA_C, /* the lane's element of a, b, c (W32 zero- or sign-
                       * extended by VecInsn.arg_sign, W64 as is) */
    VA_IMM,   /* VecInsn.call_imm */
} VecArg;

typedef struct VecInsn {
    uint8_t op;        /* VecOp */
    uint8_t type;      /* VecType of d (VO_STORE, VO_RED: of a) */
    uint8_t aux;       /* see the ops */
    uint8_t arg_sign;  /* VO_CALL: bit i set: operand i (a, b, c) is sign-extended */
    uint16_t d, a, b, c, m;
    int64_t imm;
    /* VO_CALL, and VO_FMA's fallback: uint64_t fn(args...) */
    uint64_t fn;
    int64_t call_imm;
    uint8_t args[VEC_CALL_ARGS];
} VecInsn;

/* VO_GATHER flags (imm). */
enum {
    VG_ALIGN = 1, /* addresses must be multiples of the size */
};

typedef struct VecStream {
    int64_t stride; /* bytes from one lane's element to the next (any value) */
} VecStream;

typedef struct VecProg {
    VecInsn insn[VEC_MAX_INSNS];
    unsigned n;
    unsigned nvals;
    VecStream stream[VEC_MAX_STREAMS];
    unsigned nstreams;
    unsigned nacc;
    unsigned ngather_checks; /* store ranges gathers check (VecFrame.gst_*) */
    unsigned nscalars;
} VecProg;

/*
 * The frame: everything the generated code reads and writes besides the
 * memory of its streams.  f->ptr[s] is the host address of lane 0's
 * element of stream s (lane l's is ptr + l * stride; only in-range
 * lanes' are accessed).
 *
 * Accumulators: acc[k] holds one partial value per lane position (W64:
 * 16 positions, W32: 16 positions in the low halves... see below), the
 * generated code combines each block into it and the caller combines the
 * positions at the end:
 *   VR_ADD..VR_UMIN: acc[k][i] (uint64) for lane positions i (the
 *     caller's identity value initially); W32 reductions keep the 32-bit
 *     lanes in acc[k] as uint32_t[32];
 *   VR_FADD: acc[k][0] is the running sum (float or double bits), added
 *     to in lane order;
 *   VR_FMAX/VR_FMIN: acc[k] as for integers (format's default NaN
 *     initially, maximumNumber), acc_nan[k] the last NaN operand seen
 *     per position (raw bits), acc_count[k] the number of active lanes
 *     combined, acc_snan[k] set when an sNaN was among them.
 *
 * Gathers: a gathered address must lie in [glo, ghi) (with its whole
 * element) and outside every store range [gst_lo[i], gst_hi[i]); the host
 * address is guest + gdelta.  When an address is outside [glo, ghi) the
 * code calls gwin(f, lo, hi) with the block's address range; true: the
 * window now covers it.  When a check fails the call ends before the
 * block: stop = the block's first lane, flags as before that block.
 */
typedef struct VecFrame {
    uint64_t start, end;     /* lanes to run */
    uint64_t stop;           /* out: lanes [start, stop) ran */
    uint32_t mxcsr;          /* MXCSR to run with (flags clear) */
    uint32_t flags;          /* out: MXCSR exception flags raised (bits 0-5, DE clear) */
    void *env;               /* VA_ENV */
    uint64_t glo, ghi;
    int64_t gdelta;
    bool (*gwin)(struct VecFrame *f, uint64_t lo, uint64_t hi);
    void *opaque;            /* the caller's */
    uint64_t gst_lo[VEC_MAX_GATHER_CHECKS], gst_hi[VEC_MAX_GATHER_CHECKS];
    uint64_t s[VEC_MAX_SCALARS];
    uint8_t *ptr[VEC_MAX_STREAMS];
    uint64_t acc[VEC_MAX_ACC][VEC_LANES_MAX] __attribute__((aligned(64)));
    uint64_t acc_nan[VEC_MAX_ACC][VEC_LANES_MAX] __attribute__((aligned(64)));
    uint64_t acc_count[VEC_MAX_ACC];
    uint64_t acc_snan[VEC_MAX_ACC];
} VecFrame;

typedef void (*VecFn)(VecFrame *f);

/* What the host offers (tcg/x86_64/vector-gen.c). */
typedef enum VecIsa {
    VEC_ISA_NONE,
    VEC_ISA_AVX2,   /* AVX2 + FMA + F16C: 8 lanes per block */
    VEC_ISA_AVX512, /* AVX-512 F/BW/DQ/VL: 16 lanes per block */
} VecIsa;

/* The best ISA of this host (cpuid and XCR0), lowered to @cap
 * (LINX_VEC_ISA=avx2|avx512|none in the environment lowers it too). */
VecIsa vec_host_isa(void);
const char *vec_isa_name(VecIsa isa);
unsigned vec_isa_lanes(VecIsa isa);

/* ---- building programs ---- */

void vec_prog_init(VecProg *p);
/* Append an instruction; returns its result value (VEC_NONE when it has
 * none) or VEC_NONE and sets *@full when the program is full. */
uint16_t vec_prog_emit(VecProg *p, const VecInsn *in);
uint16_t vec_prog_op(VecProg *p, VecOp op, VecType type, uint16_t a, uint16_t b, uint16_t c,
                uint16_t m, int64_t imm, uint8_t aux);
unsigned vec_prog_stream(VecProg *p, int64_t stride);
/* Is @p complete and consistent (operand types, indices)?  Writes the
 * first problem to @why. */
bool vec_prog_check(const VecProg *p, char *why, size_t len);
/* One line per instruction (logs, test failures). */
void vec_prog_dump(const VecProg *p, void *file);

/* ---- generating host code (tcg/x86_64/vector-gen.c) ---- */

struct X86Emitter;
struct CodeBuffer;
/* Emit @p as a VecFn for @isa at the emitter's position; false when the
 * program needs something this generator does not do (the emitter may
 * hold partial code then: abandon it). */
bool vec_gen_x86(struct X86Emitter *e, const VecProg *p, VecIsa isa);
/* The same into the code buffer (committed, 64-byte aligned): the
 * function, or NULL (nothing committed) when the buffer is full or the
 * program cannot be generated.  @log (may be NULL): the program and its
 * code are listed there (-d out_asm). */
VecFn vec_gen_code(struct CodeBuffer *cb, const VecProg *p, VecIsa isa, void *log);

#endif /* LINX_TCG_VEC_H */
