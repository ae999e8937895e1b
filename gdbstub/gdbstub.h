/*
 * The gdb remote stub: lets gdb (or any RSP client) debug the guest of
 * linx-user and linx-system over TCP (docs/gdbstub.md).
 *
 * The stub wraps the exec loop: a front end calls gdb_stub_cpu_exec()
 * where it would call cpu_exec().  The wrapper runs the guest, turns
 * breakpoints, single steps, watchpoint hits, Ctrl-C and (while gdb is
 * attached) traps into stops reported to gdb, talks to gdb while the
 * guest is stopped, and returns to the front end what is the front end's
 * business: EXCP_EXIT, EXCP_HALTED, a trap gdb passed on (EXCP_TRAP),
 * someone else's exit request (EXCP_INTERRUPT), and EXCP_DEBUG after every
 * debugger stop (the front end just calls again; this is where it checks
 * its own stop conditions).  A gdb "kill" ends the run with EXCP_EXIT and
 * env->exit_code = GDB_KILLED_EXIT.
 *
 * Threads: the CPU thread does all socket I/O.  While the guest runs, a
 * monitor thread owned by the stub waits for input on the connection (or
 * a connection on the listening socket) and then sets env->exit_request,
 * so the exec loop returns EXCP_INTERRUPT at the next block: the stub
 * has TBs check the flag at entry (linx_exec_set_exit_check), so chained
 * JIT code stops too, at the cost of one load and branch per block.
 * Everything hangs off the GdbStub: several stubs (machines) can live in
 * one process.
 *
 * Usage (a front end):
 *   GdbStubConfig gc = { 0 };
 *   ... gdb_stub_parse_option(&gc, GDB_MODE_USER, argc, argv, &i, err, sizeof(err)) ...
 *   GdbStub *gdb = gc.listen ? gdb_stub_new(&gc, err, sizeof(err)) : NULL;
 *   for (;;) {
 *       int r = gdb ? gdb_stub_cpu_exec(gdb, env) : cpu_exec(env);
 *       ...
 *   }
 *   gdb_stub_report_exit(gdb, status, term_signal);   // "W"/"X" to gdb
 *   gdb_stub_free(gdb);
 */
#ifndef LINX_GDBSTUB_GDBSTUB_H
#define LINX_GDBSTUB_GDBSTUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "target/linx/cpu.h"
#include "util/options.h"

/* Exit status of a guest gdb killed (as if by SIGKILL). */
#define GDB_KILLED_EXIT 137
/* -s: QEMU's default port. */
#define GDB_DEFAULT_LISTEN "tcp::1234"

typedef enum GdbStubMode {
    GDB_MODE_USER,   /* linx-user: -g PORT (always waits for gdb) */
    GDB_MODE_SYSTEM, /* linx-system: -gdb DEV, -s, -S */
} GdbStubMode;

/* The target description the stub serves as target.xml (gdbstub/regs.h). */
typedef enum GdbTdesc {
    GDB_TDESC_COMPAT, /* riscv:rv64-shaped: stock gdb and lldb (default) */
    GDB_TDESC_LINX,   /* the pure Linx description (",tdesc=linx") */
} GdbTdesc;

typedef struct GdbStubConfig {
    const char *listen; /* "PORT", "tcp::PORT", "tcp:HOST:PORT" (NULL: no stub),
                         * optionally followed by ",tdesc=compat|linx" */
    bool wait;          /* stop before the first instruction until gdb attaches */
    bool quiet;         /* no "listening on" line on stderr */
    GdbStubMode mode;   /* user or system: the triple lldb is told (qHostInfo) */
    GdbTdesc tdesc;     /* set from the ",tdesc=" suffix of the address */
} GdbStubConfig;

typedef struct GdbStub GdbStub;

/* Parse one gdb option at argv[*i] for @mode:
 *   user:   -g PORT            listen on PORT and wait for gdb
 *   system: -gdb tcp::PORT     listen
 *           -s                 -gdb tcp::1234
 *           -S                 wait for gdb before the first instruction
 * (also spelled with two dashes; "-g PORT" accepts the same device forms
 * as -gdb; both take ",tdesc=linx" after the address for the pure Linx
 * target description instead of the stock-debugger one).  Returns 1 and advances *i when it was one, 0 when argv[*i]
 * is not a gdb option, -1 with a message in @err on a bad value. */
int gdb_stub_parse_option(GdbStubConfig *cfg, GdbStubMode mode, int argc, char **argv, int *i,
                          char *err, size_t errlen);
/* The same options as a util/options.h table (gdbstub/options.c). */
LinxOptGroup gdb_stub_option_group(GdbStubConfig *cfg, GdbStubMode mode);
/* After all options: false with a message for inconsistent ones (-S
 * without a listening address). */
bool gdb_stub_check_config(const GdbStubConfig *cfg, char *err, size_t errlen);
/* One line per option, for a --help text. */
void gdb_stub_print_options_help(FILE *f, GdbStubMode mode);

/* Open the listening socket (and print "linxemu: gdb stub listening on
 * HOST:PORT" on stderr unless quiet).  NULL with a message in @err. */
GdbStub *gdb_stub_new(const GdbStubConfig *cfg, char *err, size_t errlen);
void gdb_stub_free(GdbStub *s);
/* The port actually listened on (useful with port 0), or -1. */
int gdb_stub_port(const GdbStub *s);

/* Give the stub the symbols of the program the front end loaded (ELF at
 * @path, loaded @bias bytes above its link addresses) for `monitor bt`,
 * `monitor dis` and addresses by name.  False with a message in @err when
 * the file cannot be read; the stub then works without.  No-op for NULL. */
bool gdb_stub_load_symbols(GdbStub *s, const char *path, uint64_t bias, char *err,
                           size_t errlen);

/* linx-user: the process's auxiliary vector (copied), served to debuggers
 * as qXfer:auxv:read (lldb's Linux loader finds the program's load address
 * from AT_ENTRY).  No-op for NULL. */
void gdb_stub_set_auxv(GdbStub *s, const void *auxv, size_t len);

/* Run @env like cpu_exec() under the debugger (see the file comment). */
int gdb_stub_cpu_exec(GdbStub *s, CPULinxState *env);

/* The guest ended: tell gdb ("W code", or "X signal" when Linux signal
 * @term_signal killed it) and close the connection.  No-op for NULL. */
void gdb_stub_report_exit(GdbStub *s, int exit_code, int term_signal);

#endif /* LINX_GDBSTUB_GDBSTUB_H */
