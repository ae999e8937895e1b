/*
 * linx-optest internals: the operator test runner (docs/optest.md).
 *
 * A suite manifest (manifest.c, matrix.c) names a program (LinxISA
 * assembly, preprocessed assembly or an ELF file), the machine it runs on
 * (the virt board or Linux user mode) and cases, written one by one or as
 * a [matrix] of parameters; each case loads input tensors (raw bytes or
 * .npy, made by a generator command when it has one: generate.c) into
 * guest memory at symbols or addresses, runs its program once (run.c, in a
 * child process with a time limit; sched.c runs several at once) and
 * compares output regions against golden tensors with a dtype-aware
 * tolerance (tensor.c).  Results go to the terminal, JSON, JUnit XML and
 * TAP (report.c); `linx-optest merge` combines JSON reports (merge.c).
 *
 * Everything is per run: no global state outside main()'s structures
 * (and the signal flag of sched.c, which a handler must reach).
 */
#ifndef LINX_TOOLS_OPTEST_H
#define LINX_TOOLS_OPTEST_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
    OPT_MAX_TENSORS = 16,
    OPT_MAX_ARGS = 8,
    OPT_MAX_SHAPE = 8,
    OPT_OUTPUT_TAIL = 4096, /* guest output kept with a result */
};

/* Exit statuses of the tool. */
enum {
    OPT_EXIT_PASSED = 0,   /* every selected case passed (or was skipped) */
    OPT_EXIT_FAILED = 1,   /* a case failed */
    OPT_EXIT_USAGE = 2,    /* bad command line, manifest, report; nothing matched */
};

/* ---- tensor.c: element types, files, comparison ---- */

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
bool opt_dtype_is_signed(OptDType t);

/* A tensor in host memory. */
typedef struct OptTensor {
    OptDType dtype;    /* OPT_DT_NONE: raw bytes of unknown type */
    uint8_t *data;
    size_t bytes;
    unsigned ndim;
    uint64_t shape[OPT_MAX_SHAPE];
} OptTensor;

/* Parse an in-memory file: .npy when @is_npy (dtype and shape from its
 * header; @want overrides a same-size dtype, for bf16 kept as uint16),
 * else raw bytes of dtype @want.  @t->data is a copy.  False with a
 * message naming @name in @err. */
bool opt_tensor_parse(const char *name, const uint8_t *buf, size_t len, bool is_npy,
                      OptDType want, OptTensor *t, char *err, size_t errlen);
/* Read @path (.npy by its name, else raw). */
bool opt_tensor_read(const char *path, OptDType want, OptTensor *t, char *err, size_t errlen);
void opt_tensor_free(OptTensor *t);
/* Element @i as a double (integers exactly up to 2^53). */
double opt_tensor_get(const OptTensor *t, size_t i);
size_t opt_tensor_count(const OptTensor *t);

typedef struct OptTolerance {
    double rtol, atol;
    uint64_t ulp;      /* > 0: floats may differ by this many units in the last place */
    bool nan_equal;    /* NaN matches NaN (default) */
} OptTolerance;

/* The first mismatch of an output and the error figures. */
typedef struct OptCompare {
    size_t count, mismatches;
    size_t first_bad;              /* flat index of the first mismatch */
    unsigned ndim;                 /* its tensor coordinate (the golden's shape) */
    uint64_t coord[OPT_MAX_SHAPE];
    double got, want;              /* values at first_bad */
    uint64_t got_bits, want_bits;  /* their bit patterns (element size) */
    uint64_t ulp;                  /* floats: units in the last place apart */
    bool ulp_valid;                /* both finite */
    double max_abs, max_rel;
} OptCompare;

/* Compare the golden's element count of @got (raw guest bytes of @dtype)
 * with @golden.  True when every element is within @tol. */
bool opt_compare(OptDType dtype, const uint8_t *got, const OptTensor *golden,
                 const OptTolerance *tol, OptCompare *res);
/* "[2, 5]" for the first mismatch; "got 45 (0x2d), want 46 (0x2e)" or
 * "got 1.5, want 1.50000012 (1 ulp apart)" (into @buf). */
void opt_format_coord(const OptCompare *c, char *buf, size_t len);
void opt_format_values(OptDType dtype, const OptCompare *c, char *buf, size_t len);

/* ---- manifest.c, matrix.c: suites and cases ---- */

typedef struct OptPlace {
    char *symbol;      /* NULL: @addr is absolute */
    uint64_t addr;     /* absolute address, or the offset from the symbol */
    int buffer;        /* >= 0: a tile buffer window (LinxBufferId: L1, L0A,
                        * L0B, L0C, UB) and @addr the offset in it; -1 */
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
    char *program;             /* NULL: the suite's (else relative to the manifest) */
    char *defines;             /* .S programs: "NAME=VALUE ..." for the preprocessor */
    char *generate;            /* generator command (relative script, arguments) or NULL */
    char *datadir;             /* the case's data directory (generated cases) or NULL */
    char *skip;                /* reason: the case is reported as skipped */
    char *params;              /* matrix cases: "axis=value ..." (reports), else NULL */
    double timeout;            /* seconds; 0: the suite's */
    /* expect-trap / trapnum / traparg0: the program must end in a trap
     * the machine does not handle, with this rule name ("any": whatever
     * the rule), trap number and TRAPARG0.  The exit status is not
     * checked then; outputs are (the state the trap left). */
    char *expect_trap;         /* NULL: no trap expected (unless below) */
    int trapnum;               /* -1: any */
    bool have_traparg0;
    uint64_t traparg0;
} OptCase;

typedef enum OptMachine {
    OPT_MACHINE_VIRT,
    OPT_MACHINE_USER,
} OptMachine;

typedef struct OptSuite {
    char *name;
    char *path;       /* the manifest */
    char *dir;        /* where relative data paths start */
    char *mdir;       /* the manifest's directory */
    char *program;    /* absolute or relative to mdir */
    OptMachine machine;
    double timeout;   /* seconds per case */
    uint64_t ram_mib; /* virt RAM */
    unsigned ncases;
    OptCase *cases;
} OptSuite;

/* Where a suite's data lives (main.c's options). */
typedef struct OptDataOptions {
    const char *data;       /* --data: relative data files of every suite */
    const char *data_root;  /* --data-root: suite S in ROOT/S, generated in ROOT/S/CASE */
} OptDataOptions;

/* Read @path.  False with "file: [group] message" in @err (and nothing
 * to free). */
bool opt_suite_load(const char *path, const OptDataOptions *d, OptSuite *s, char *err,
                    size_t errlen);
void opt_suite_free(OptSuite *s);
/* @rel under the case's data directory (a new string, g_free). */
char *opt_case_file(const OptSuite *s, const OptCase *c, const char *rel);

/* manifest.c helpers shared with matrix.c */
typedef struct OptKeyValue {
    const char *key;
    char *value;
} OptKeyValue;
/* Build case @c named @name from key/value pairs (a [case] group or an
 * expanded matrix row); false with the message in @err. */
bool opt_case_from_keys(const OptSuite *s, const char *name, const OptKeyValue *kv, size_t n,
                        const OptTolerance *def, const OptDataOptions *d, OptCase *c,
                        char *err, size_t errlen);
void opt_case_free(OptCase *c);
/* Append @c (moved into @s; freed on failure: a duplicate name). */
bool opt_suite_add_case(OptSuite *s, OptCase *c, char *err, size_t errlen);
/* The data directory of generated case @case_name (a new string). */
char *opt_generated_dir(const OptSuite *s, const OptDataOptions *d, const char *case_name);

/* matrix.c: expand one [matrix] / [matrix NAME] group of @kf (a GKeyFile)
 * into cases appended to @s. */
bool opt_matrix_expand(void *kf, const char *group, OptSuite *s, const OptTolerance *def,
                       const OptDataOptions *d, char *err, size_t errlen);
/* Expand {name} / {name.N} placeholders of @tmpl from @names/@values (n
 * of them); {{ and }} are braces.  NULL with a message in @err for an
 * unknown placeholder. */
char *opt_expand(const char *tmpl, const char *const *names, const char *const *values,
                 size_t n, char *err, size_t errlen);

/* ---- generate.c: generator commands ---- */

/* A case of the run (suite + case). */
typedef struct OptRef {
    const OptSuite *s;
    const OptCase *c;
} OptRef;

/* Run the generators of the cases in @refs whose data is missing or out
 * of date (all of them with @force), Python scripts in one interpreter
 * per script.  Prints what failed; @failed[i] is set for the cases whose
 * generator failed.  Returns the number of failures. */
unsigned opt_generate(const OptRef *refs, size_t n, bool force, bool verbose, bool *failed);

/* ---- program.c: building and loading programs ---- */

typedef struct OptProgram OptProgram;
typedef struct OptProgramCache OptProgramCache;

OptProgramCache *opt_program_cache_new(void);
void opt_program_cache_free(OptProgramCache *pc);
/* What identifies case @c's program (source and defines; g_free): cases
 * with equal keys run the same program. */
char *opt_program_key(const OptSuite *s, const OptCase *c);
/* The program of case @c (built once per program and defines).  NULL with
 * the reason in @err. */
const OptProgram *opt_program_get(OptProgramCache *pc, const OptSuite *s, const OptCase *c,
                                  char *err, size_t errlen);
/* The ELF file to load by name: an ELF program's own path, an assembled
 * program's temporary file (user-mode suites only; NULL otherwise). */
const char *opt_program_path(const OptProgram *p);
/* The program's ELF image, parsed (every program has one). */
struct ElfFile;
const struct ElfFile *opt_program_elf(const OptProgram *p);
/* The program's source (or ELF) path. */
const char *opt_program_source(const OptProgram *p);
bool opt_program_resolve(const OptProgram *p, const OptPlace *pl, uint64_t *addr);

/* ---- run.c: one case ---- */

typedef struct OptRunOptions {
    const char *accel;   /* "jit" or "interp" */
    bool verbose;        /* comparison details and guest output */
    bool quiet;          /* failures and the summary only */
    bool reference;      /* LINX_TEPL_REFERENCE=1 for the run */
    bool isolate;        /* a process per case instead of workers */
    double timeout;      /* > 0: overrides every case's */
} OptRunOptions;

typedef enum OptStatus {
    OPT_PASS,
    OPT_FAIL,
    OPT_SKIP,
} OptStatus;

/* Why a case failed (JSON "failure.kind"). */
typedef enum OptFailKind {
    OPT_FK_NONE,
    OPT_FK_MISMATCH,     /* an output differs from its golden */
    OPT_FK_EXIT_STATUS,  /* the program's exit status */
    OPT_FK_TIMEOUT,      /* still running at the case's time limit */
    OPT_FK_CRASH,        /* the case's process died of a signal */
    OPT_FK_SETUP,        /* program, input or golden could not be used */
    OPT_FK_INTERRUPTED,  /* SIGINT/SIGTERM stopped the run */
    OPT_FK_TRAP,         /* expect-trap: no trap, or not the one expected */
    OPT_FK__LAST = OPT_FK_TRAP,
} OptFailKind;

const char *opt_status_name(OptStatus s);
const char *opt_fail_kind_name(OptFailKind k);

/* The result of one case. */
typedef struct OptResult {
    char *suite, *name;        /* name: the case's */
    char *manifest;
    char *params;
    OptStatus status;
    OptFailKind kind;
    double time;               /* seconds, fork to result */
    double phase[4];           /* start, load, run, check (seconds, in the child) */
    uint64_t tbs_translated;
    char *message;             /* failure text / skip reason (NULL when passed) */
    char *output;              /* tail of the guest's output and reports (or NULL) */
    bool have_mismatch;
    char *mm_output;           /* the first differing output */
    OptDType mm_dtype;
    OptCompare mm;
    char *verbose;             /* --verbose: per-output error figures */
} OptResult;

void opt_result_free(OptResult *r);

/* The machines a process runs its cases on.  With @reuse (a worker) the
 * virt machine stays from case to case: RAM goes back to a snapshot of
 * the loaded program (only the pages written since), the translations
 * stay while the program is the same, the devices and the CPU are reset.
 * Without, every case gets a new machine (a process per case). */
typedef struct OptMachines OptMachines;
OptMachines *opt_machines_new(const OptRunOptions *o, bool reuse);
/* The time the next case's program took to build (counted in its load
 * phase). */
void opt_machines_note_build(OptMachines *mc, double seconds);
void opt_machines_free(OptMachines *mc);
/* Run case @ref (program @prog) on @mc: the guest's output goes to
 * @capture (stdout and stderr point to the same file); returns the result
 * record (opt_result_decode reads it). */
GString *opt_case_execute(OptMachines *mc, const OptRef *ref, const OptProgram *prog,
                          FILE *capture);
/* The runner's own tests: when LINX_OPTEST_TEST_CRASH names @ref
 * ("suite/case"), the process dies of SIGSEGV after the case ran (as an
 * emulator crash would end a worker; tests/optest/isolation.py). */
void opt_test_crash_hook(const OptRef *ref);
/* The record of a case that could not be set up (its program failed). */
GString *opt_case_setup_failure(const char *message);
/* A worker: the tail of what the case wrote to @fd_capture goes into its
 * record when it failed (or with @verbose), before the next case empties
 * the file. */
void opt_record_add_output(GString *rec, int fd_capture, bool verbose);
/* Records on a pipe: a 32-bit length, then the record.  take: the first
 * whole record of @buf (removed from it; g_free), false while incomplete. */
void opt_record_send(int fd, const GString *rec);
bool opt_record_take(GString *buf, uint8_t **rec, size_t *len);
void opt_write_all(int fd, const void *buf, size_t len);
/* In a case's or a worker's process: default signal dispositions, the
 * reference TEPL kernels if asked, stdout and stderr to @fd_capture. */
void opt_child_setup(const OptRunOptions *o, int fd_capture);
/* SIGALRM (which ends the process) after @timeout seconds; 0: off. */
void opt_arm_timer(double timeout);
/* Close every descriptor from 3 up but the (at most 8) in @keep. */
void opt_close_fds_except(const int *keep, unsigned n);

/* Run case @ref in a child process of its own: returns the pid (or -1);
 * the child writes its record to @fd_result and the guest's output to
 * @fd_capture, then exits. */
int opt_case_spawn(const OptRef *ref, const OptProgram *prog, const OptRunOptions *o,
                   int fd_result, int fd_capture);
/* Decode a record (@buf, @len) into @r (whose names are set); false when
 * it is incomplete. */
bool opt_result_decode(const uint8_t *buf, size_t len, OptResult *r);

/* ---- worker.c: a process running many cases ---- */

/* Start a worker for the cases of @refs (n): it reads case indices (a
 * uint64_t each) from @fd_cmd, builds programs in its own cache, runs each
 * case on one reused machine under the case's time limit (SIGALRM ends
 * the worker: the runner reports the timeout and starts another), writes
 * each record to @fd_result and the guest's output to @fd_capture, which
 * it empties first.  End of file on @fd_cmd ends it.  Returns the pid, or
 * -1. */
int opt_worker_spawn(const OptRef *refs, size_t n, const OptRunOptions *o, int fd_cmd,
                     int fd_result, int fd_capture);

/* ---- sched.c: running the selected cases ---- */

typedef struct OptSchedOptions {
    unsigned jobs;
    bool progress;       /* a progress line on stderr (a terminal) */
} OptSchedOptions;

struct OptReporter;
/* Run @refs (n), at most @so->jobs at a time; @results[i] is filled for
 * each (in the order of @refs) and handed to @rep as it completes.  Cases
 * in @gen_failed are failed without running.  Returns the signal that
 * interrupted the run (SIGINT/SIGTERM; the unfinished cases are failed as
 * interrupted) or 0. */
int opt_run_all(const OptRef *refs, size_t n, const bool *gen_failed, OptProgramCache *pc,
                const OptRunOptions *o, const OptSchedOptions *so, struct OptReporter *rep,
                OptResult *results);

/* ---- report.c: terminal lines, summary, JSON, JUnit, TAP ---- */

typedef struct OptReporter {
    FILE *out;           /* result lines (stdout) */
    bool quiet, verbose, tap;
    unsigned done;       /* results printed so far (TAP numbers) */
    size_t total;
    unsigned passed, failed, skipped;
    bool progress;       /* a progress line is shown on stderr */
    bool progress_shown;
} OptReporter;

void opt_report_begin(OptReporter *rep, size_t total);
void opt_report_case(OptReporter *rep, const OptResult *r);
void opt_report_progress(OptReporter *rep, const char *running);

/* What a report covers. */
typedef struct OptRunInfo {
    const char *accel;
    unsigned jobs;
    int shard_index, shard_count;  /* -1, 0: not sharded */
    bool interrupted;
    double wall_time;
    const char *started;           /* ISO 8601 UTC */
} OptRunInfo;

/* The closing summary (per suite, failures, slowest cases, counts). */
void opt_report_summary(FILE *f, const OptResult *res, size_t n, const OptRunInfo *info,
                        bool quiet);
/* Report files, written with linx_file_write; false with the reason. */
char *opt_report_json(const OptResult *res, size_t n, const OptRunInfo *info);
char *opt_report_junit(const OptResult *res, size_t n, const OptRunInfo *info);
bool opt_report_write(const char *path, const char *text, char *err, size_t errlen);
/* Sort results by suite/case name (the order of every report). */
void opt_results_sort(OptResult *res, size_t n);

/* ---- merge.c ---- */

/* linx-optest merge [options] REPORT.json... */
int opt_merge_main(int argc, char **argv);
/* Read a JSON report back into results (for merge); false with the
 * reason in @err. */
bool opt_report_read(const char *path, OptResult **res, size_t *n, OptRunInfo *info,
                     char *err, size_t errlen);

#endif /* LINX_TOOLS_OPTEST_H */
