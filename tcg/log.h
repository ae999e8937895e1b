/*
 * Debug logging (-d MASK, -D FILE), modelled on QEMU's qemu_log.
 *
 * A LinxLog is a mask of enabled categories and the stream they go to.
 * It hangs off the exec context (linx_exec_log()), never a global, so
 * several emulated machines in one process log independently.
 *
 * Categories (-d a,b,c; "help" lists them, "all" enables every one):
 *   in_asm   guest instructions of each translated TB (front end)
 *   op       IR of each TB as translated
 *   op_opt   IR after the optimiser
 *   out_asm  host code of each TB, disassembled with capstone (backend)
 *   exec     one line per TB executed (turns chaining off)
 *   cpu      CPU state before each TB executed (turns chaining off)
 *   int      exceptions and interrupts raised
 *   unimp    unimplemented features the guest used
 *   tile     tile/kernel block engine decisions
 *   nochain  do not chain TBs (every TB returns to the exec loop)
 *
 * Usage:
 *   LinxLog log = LINX_LOG_INIT;
 *   char err[128];
 *   if (!linx_log_parse_mask("in_asm,op", &log.mask, err, sizeof(err))) ...
 *   if (!linx_log_open(&log, "trace.log", err, sizeof(err))) ...
 *   if (linx_log_enabled(&log, LINX_LOG_OP)) linx_log_printf(&log, "...");
 *   linx_log_close(&log);
 */
#ifndef LINX_TCG_LOG_H
#define LINX_TCG_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Logging masks (-d). */
enum {
    LINX_LOG_IN_ASM = 1 << 0,
    LINX_LOG_OP = 1 << 1,
    LINX_LOG_OP_OPT = 1 << 2,
    LINX_LOG_OUT_ASM = 1 << 3,
    LINX_LOG_EXEC = 1 << 4,
    LINX_LOG_CPU = 1 << 5,
    LINX_LOG_INT = 1 << 6,
    LINX_LOG_UNIMP = 1 << 7,
    LINX_LOG_TILE = 1 << 8,
    LINX_LOG_NOCHAIN = 1 << 9,
    LINX_LOG_STATS = 1 << 10,
};

typedef struct LinxLog {
    unsigned mask;  /* LINX_LOG_* */
    FILE *file;     /* NULL: stderr */
    bool own_file;  /* opened by linx_log_open: closed by linx_log_close */
} LinxLog;

#define LINX_LOG_INIT { 0, NULL, false }

/* Parse a comma-separated list of category names into *mask (or'ed in).
 * "help" prints the list to stdout and sets *help (may be NULL).
 * On an unknown name returns false with a message in @err. */
bool linx_log_parse_mask(const char *str, unsigned *mask, bool *help, char *err,
                         size_t errlen);
void linx_log_print_help(FILE *f);

/* -D: send the log to @path (truncated). */
bool linx_log_open(LinxLog *log, const char *path, char *err, size_t errlen);
void linx_log_close(LinxLog *log);

static inline bool linx_log_enabled(const LinxLog *log, unsigned mask)
{
    return log && (log->mask & mask);
}

static inline FILE *linx_log_file(const LinxLog *log)
{
    return log && log->file ? log->file : stderr;
}

void linx_log_printf(const LinxLog *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* LINX_TCG_LOG_H */
