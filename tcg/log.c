/*
 * Debug logging: -d category parsing and the -D output stream (log.h).
 */
#include "tcg/log.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

typedef struct LogCategory {
    const char *name;
    unsigned mask;
    const char *help;
} LogCategory;

static const LogCategory log_categories[] = {
    { "in_asm", LINX_LOG_IN_ASM, "guest instructions of each translated block" },
    { "op", LINX_LOG_OP, "IR of each block as translated" },
    { "op_opt", LINX_LOG_OP_OPT, "IR after the optimiser" },
    { "out_asm", LINX_LOG_OUT_ASM, "host code of each block (capstone)" },
    { "exec", LINX_LOG_EXEC, "one line per block executed (no chaining)" },
    { "cpu", LINX_LOG_CPU, "CPU state before each block executed (no chaining)" },
    { "int", LINX_LOG_INT, "exceptions and interrupts" },
    { "unimp", LINX_LOG_UNIMP, "unimplemented features used by the guest" },
    { "tile", LINX_LOG_TILE, "tile and kernel block engine" },
    { "nochain", LINX_LOG_NOCHAIN, "do not chain blocks" },
    { "stats", LINX_LOG_STATS, "engine statistics when the run ends (translations, invalidations)" },
};

#define NB_LOG_CATEGORIES (sizeof(log_categories) / sizeof(log_categories[0]))

void linx_log_print_help(FILE *f)
{
    fprintf(f, "Log items (comma separated, for -d):\n");
    for (size_t i = 0; i < NB_LOG_CATEGORIES; i++) {
        fprintf(f, "%-10s %s\n", log_categories[i].name, log_categories[i].help);
    }
    fprintf(f, "%-10s %s\n", "all", "every item above");
}

bool linx_log_parse_mask(const char *str, unsigned *mask, bool *help, char *err,
                         size_t errlen)
{
    const char *p = str;

    if (help) {
        *help = false;
    }
    if (!str) {
        snprintf(err, errlen, "-d needs a list of log items (try -d help)");
        return false;
    }
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        bool found = false;

        if (len == 4 && !strncmp(p, "help", 4)) {
            linx_log_print_help(stdout);
            if (help) {
                *help = true;
            }
            found = true;
        } else if (len == 3 && !strncmp(p, "all", 3)) {
            for (size_t i = 0; i < NB_LOG_CATEGORIES; i++) {
                *mask |= log_categories[i].mask;
            }
            found = true;
        }
        for (size_t i = 0; !found && i < NB_LOG_CATEGORIES; i++) {
            if (strlen(log_categories[i].name) == len &&
                !strncmp(p, log_categories[i].name, len)) {
                *mask |= log_categories[i].mask;
                found = true;
            }
        }
        if (!found && len > 0) {
            snprintf(err, errlen, "-d: unknown log item '%.*s' (try -d help)", (int)len, p);
            return false;
        }
        p += len;
        if (*p == ',') {
            p++;
        }
    }
    return true;
}

bool linx_log_open(LinxLog *log, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");

    if (!f) {
        snprintf(err, errlen, "-D: cannot open log file '%s': %s", path, strerror(errno));
        return false;
    }
    linx_log_close(log);
    log->file = f;
    log->own_file = true;
    return true;
}

void linx_log_close(LinxLog *log)
{
    if (log->file && log->own_file) {
        fclose(log->file);
    } else if (log->file) {
        fflush(log->file);
    }
    log->file = NULL;
    log->own_file = false;
}

void linx_log_printf(const LinxLog *log, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(linx_log_file(log), fmt, ap);
    va_end(ap);
}
