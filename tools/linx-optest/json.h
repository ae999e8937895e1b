/*
 * A small JSON reader (RFC 8259) for linx-optest's own reports
 * (`linx-optest merge`): a tree of values; numbers keep their text so
 * integers read back exactly.  Depth is limited; any input gives a tree
 * or a message with the byte offset.
 */
#ifndef LINX_TOOLS_OPTEST_JSON_H
#define LINX_TOOLS_OPTEST_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum JsonType {
    JSON_NULL,
    JSON_FALSE,
    JSON_TRUE,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT,
} JsonType;

typedef struct JsonValue JsonValue;
struct JsonValue {
    JsonType type;
    char *str;          /* STRING: the text (UTF-8, NUL-terminated); NUMBER: the literal */
    double num;         /* NUMBER */
    size_t n;           /* ARRAY / OBJECT: members */
    JsonValue **items;  /* ARRAY / OBJECT values */
    char **keys;        /* OBJECT keys */
};

/* Parse @len bytes of @text; NULL with "offset N: what" in @err. */
JsonValue *json_parse(const char *text, size_t len, char *err, size_t errlen);
void json_free(JsonValue *v);
/* Member @key of an object (NULL when absent or @v is not an object). */
const JsonValue *json_get(const JsonValue *v, const char *key);
/* Conveniences: NULL / @def when absent or of another type. */
const char *json_string(const JsonValue *v);
double json_number(const JsonValue *v, double def);

#endif /* LINX_TOOLS_OPTEST_JSON_H */
