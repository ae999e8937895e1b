/*
 * The status a buffer engine (LoadData 2D, DataCopy, Mmad, Fixpipe:
 * hw/linx/buffers-*.c) leaves when one of its operations is refused: the
 * rule (number and name), the register field and value that broke it,
 * and one line for trap reports, e.g.
 *   "loaddata: start index -2 < 0 (START_INDEX 2, SRC_STRIDE 2, REPEAT 3)".
 * Plain data, no CPU state: a failing GO store is rejected (the guest
 * store faults) and the machine's trap report prints the line
 * (linx_buffers_fault_report, buffers.h).
 */
#ifndef LINX_HW_ENGINE_STATUS_H
#define LINX_HW_ENGINE_STATUS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#define LINX_ENGINE_TEXT_MAX 200

typedef struct LinxEngineStatus {
    uint16_t rule;          /* engine rule number; 0 = ok */
    const char *name;       /* rule name, "loaddata-neg-index" ("ok") */
    const char *field;      /* register whose value broke it (NULL: none) */
    int64_t value;          /* that value (or the computed one the text names) */
    uint64_t gm_addr;       /* GM faults: first faulting guest address */
    char text[LINX_ENGINE_TEXT_MAX]; /* the report line */
} LinxEngineStatus;

void linx_engine_status_ok(LinxEngineStatus *s);
/* Fill @s; the text is "<fmt ...>" formatted.  Returns false (for
 * "return linx_engine_fail(...)"). */
bool linx_engine_fail(LinxEngineStatus *s, unsigned rule, const char *name, const char *field,
                      int64_t value, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#endif /* LINX_HW_ENGINE_STATUS_H */
