/*
 * gdb-xml-gen: write or check gdbstub/gdb-xml/ from the stub's register
 * table (gdbstub/regs.c), so the committed XML never drifts from what the
 * stub serves.
 *
 *   gdb-xml-gen --write DIR    write target.xml (compat) and linx-target.xml
 *   gdb-xml-gen --check DIR    exit 1 naming every file that differs
 *
 * Meson: `ninja -C build regen-gdb-xml` writes, the gdbstub-xml test
 * checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "gdbstub/regs.h"

#define EXIT_USAGE 2

static bool handle(const char *dir, const char *file, const char *xml, bool write)
{
    char *path = g_build_filename(dir, file, NULL);
    char *old = NULL;
    gsize len = 0;
    bool ok;

    if (write) {
        GError *e = NULL;
        ok = g_file_set_contents(path, xml, -1, &e);
        if (!ok) {
            fprintf(stderr, "gdb-xml-gen: %s\n", e->message);
            g_error_free(e);
        }
    } else {
        ok = g_file_get_contents(path, &old, &len, NULL) && len == strlen(xml) &&
             memcmp(old, xml, len) == 0;
        if (!ok) {
            fprintf(stderr, "gdb-xml-gen: %s is missing or stale: run `ninja regen-gdb-xml`\n",
                    path);
        }
    }
    g_free(old);
    g_free(path);
    return ok;
}

int main(int argc, char **argv)
{
    static const struct {
        GdbTdesc d;
        const char *file;
    } files[] = {
        { GDB_TDESC_COMPAT, GDB_XML_FILE_COMPAT },
        { GDB_TDESC_LINX, GDB_XML_FILE_LINX },
    };
    bool write, ok = true;

    if (argc != 3 || (strcmp(argv[1], "--write") && strcmp(argv[1], "--check"))) {
        fprintf(stderr, "usage: gdb-xml-gen --write|--check DIR\n");
        return EXIT_USAGE;
    }
    write = !strcmp(argv[1], "--write");
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        char *xml = gdb_xml_target(files[f].d);
        ok &= handle(argv[2], files[f].file, xml, write);
        g_free(xml);
    }
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
