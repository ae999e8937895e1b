/*
 * linx-optest internals: the operator test runner (docs/optest.md).
 *
 * A suite manifest (manifest.c) names a program (LinxISA assembly or an
 * ELF file), the machine it runs on (the virt board or Linux user mode)
 * and cases; each case loads input tensors (raw bytes or .npy) into guest
 * memory at symbols or addresses, runs the program once (run.c, in a child
 * process with a time limit) and compares output regions against golden
 * tensors with a dtype-aware tolerance (tensor.c).
 *
 * Everything is per run: no global state outside main()'s options.
 */
#ifndef LINX_TOOLS_OPTEST_H
#define LINX_TOOLS_OPTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
    OPT_MAX_TENSORS = 16,
    OPT_MAX_ARGS = 8,
    OPT_MAX_SHAPE = 8,
};

/* Element types. */
typedef enum OptDType {
    OPT_DT_NONE = 0,
    OPT_DT_F64,
    OPT_DT_F32,
    OPT_DT_F16,
    OPT_DT_BF16,
    OPT_DT_I8,
    OPT_DT_I16,
    OPT_DT_I32,
    OPT_DT_I64,
    OPT_DT_U8,
    OPT_DT_U16,
    OPT_DT_U32,
    OPT_DT_U64,
} OptDType;

/* Name ("f32", "float32", "int8", ...) -> type; OPT_DT_NONE if unknown. */
OptDType opt_dtype_parse(const char *s);
const char *opt_dtype_name(OptDType t);
unsigned opt_dtype_size(OptDType t);
bool opt_dtype_is_float(OptDType t);

/* A tensor in host memory. */
typedef struct OptTensor {
    OptDType dtype;    /* OPT_DT_NONE: raw bytes of unknown type */
    uint8_t *data;
    size_t bytes;
    unsigned ndim;
    uint64_t shape[OPT_MAX_SHAPE];
} OptTensor;

/* Read @path: .npy (dtype and shape from its header; @want overrides a
 * same-size dtype, for bf16 kept as uint16) or raw bytes (dtype @want).
 * False with a message in @err. */
bool opt_tensor_read(const char *path, OptDType want, OptTensor *t, char *err, size_t errlen);
void opt_tensor_free(OptTensor *t);
/* Element @i as a double (integers exactly up to 2^53). */
double opt_tensor_get(const OptTensor *t, size_t i);
size_t opt_tensor_count(const OptTensor *t);

/* Comparison of an output region with its golden. */
typedef struct OptTolerance {
    double rtol, atol;
    uint64_t ulp;      /* > 0: floats may differ by this many units in the last place */
    bool nan_equal;    /* NaN matches NaN (default) */
} OptTolerance;

typedef struct OptCompare {
    size_t count, mismatches;
    size_t first_bad;  /* index of the first mismatch */
    double got, want;  /* at first_bad */
    double max_abs, max_rel;
} OptCompare;

/* Compare @count elements of @got (raw guest bytes of @dtype) with
 * @golden.  True when every element is within @tol. */
bool opt_compare(OptDType dtype, const uint8_t *got, const OptTensor *golden,
                 const OptTolerance *tol, OptCompare *res);

/* Where a tensor lives in guest memory: a symbol (+ offset) or an address. */
typedef struct OptPlace {
    char *symbol;      /* NULL: @addr is absolute */
    uint64_t addr;     /* absolute address, or the offset from the symbol */
} OptPlace;

typedef struct OptInput {
    char *name;
    char *file;
    OptPlace at;
    OptDType dtype;
} OptInput;

typedef struct OptOutput {
    char *name;
    OptPlace at;
    char *golden;
    OptDType dtype;    /* NONE: the golden .npy's */
    OptTolerance tol;
} OptOutput;

typedef struct OptCase {
    char *name;
    unsigned ninputs, noutputs;
    OptInput inputs[OPT_MAX_TENSORS];
    OptOutput outputs[OPT_MAX_TENSORS];
    unsigned nargs;
    char *args[OPT_MAX_ARGS];  /* integers (virt: a0..) or argv strings (user) */
    int status;                /* expected exit status */
} OptCase;

typedef enum OptMachine {
    OPT_MACHINE_VIRT,
    OPT_MACHINE_USER,
} OptMachine;

typedef struct OptSuite {
    char *name;
    char *path;       /* the manifest */
    char *dir;        /* where relative data paths start (--data or mdir) */
    char *mdir;       /* the manifest's directory */
    char *program;    /* absolute or relative to mdir */
    OptMachine machine;
    double timeout;   /* seconds per case */
    uint64_t ram_mib; /* virt RAM */
    unsigned ncases;
    OptCase *cases;
} OptSuite;

/* manifest.c: read @path; @data_dir (may be NULL) overrides where relative
 * data files are found.  False with "file:line: message" in @err. */
bool opt_suite_load(const char *path, const char *data_dir, OptSuite *s, char *err,
                    size_t errlen);
void opt_suite_free(OptSuite *s);
/* @rel under the suite's data directory (a new string). */
char *opt_suite_file(const OptSuite *s, const char *rel);

/* run.c */
typedef struct OptRunOptions {
    const char *accel;   /* "jit" or "interp" */
    bool verbose;        /* guest output and comparison details */
    bool quiet;          /* failures and the summary only */
    bool reference;      /* LINX_TEPL_REFERENCE=1 for the run */
} OptRunOptions;

/* Run every case of @s (or those in @only, NULL-terminated); prints a
 * line per case.  Adds to *@passed / *@failed. */
void opt_run_suite(const OptSuite *s, const OptRunOptions *o, char *const *only,
                   unsigned *passed, unsigned *failed);

#endif /* LINX_TOOLS_OPTEST_H */
