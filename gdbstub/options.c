/*
 * The gdb stub's command-line options as util/options.h tables (one per
 * mode), answered by gdb_stub_parse_option(), which owns their meaning.
 */
#include "gdbstub/gdbstub.h"

enum {
    OPT_G,
    OPT_GDB,
    OPT_S_LOWER,
    OPT_S_UPPER,
};

static const LinxOpt user_opts[] = {
    { "g", 0, "PORT",
      "wait for gdb on PORT (or tcp:HOST:PORT; 0 = any free port)\n"
      "before the first instruction (also LINX_GDB=PORT); PORT,tdesc=linx\n"
      "serves the pure Linx target description (default: the one stock\n"
      "gdb-multiarch and lldb accept)",
      OPT_G },
    { NULL },
};

static const LinxOpt system_opts[] = {
    { "gdb", 0, "tcp::PORT",
      "accept gdb on PORT (tcp:HOST:PORT; default host 127.0.0.1);\n"
      "tcp::PORT,tdesc=linx serves the pure Linx target description",
      OPT_GDB },
    { "s", 0, NULL, "-gdb tcp::1234", OPT_S_LOWER },
    { "S", 0, NULL, "wait for gdb before the first instruction", OPT_S_UPPER },
    { NULL },
};

typedef struct GdbOptState {
    GdbStubConfig *cfg;
    GdbStubMode mode;
} GdbOptState;

static int gdb_opt(void *opaque, int id, const char *value, char *err, size_t errlen)
{
    GdbStubConfig *cfg = opaque;
    static const char *const spell[] = { "-g", "-gdb", "-s", "-S" };
    char *argv[3] = { (char *)spell[id], (char *)value, NULL };
    int argc = value ? 2 : 1, i = 0;
    GdbStubMode mode = id == OPT_G ? GDB_MODE_USER : GDB_MODE_SYSTEM;

    return gdb_stub_parse_option(cfg, mode, argc, argv, &i, err, errlen) == 1 ? 0 : -1;
}

LinxOptGroup gdb_stub_option_group(GdbStubConfig *cfg, GdbStubMode mode)
{
    LinxOptGroup g = { "Debugger", mode == GDB_MODE_USER ? user_opts : system_opts, gdb_opt, cfg };
    return g;
}
