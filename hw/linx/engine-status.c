/*
 * Engine status (see engine-status.h).
 */
#include "hw/linx/engine-status.h"

#include <stdio.h>
#include <string.h>

void linx_engine_status_ok(LinxEngineStatus *s)
{
    memset(s, 0, sizeof(*s));
    s->name = "ok";
}

bool linx_engine_fail(LinxEngineStatus *s, unsigned rule, const char *name, const char *field,
                      int64_t value, const char *fmt, ...)
{
    va_list ap;

    s->rule = (uint16_t)rule;
    s->name = name;
    s->field = field;
    s->value = value;
    s->gm_addr = 0;
    va_start(ap, fmt);
    vsnprintf(s->text, sizeof(s->text), fmt, ap);
    va_end(ap);
    return false;
}
