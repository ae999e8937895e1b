/*
 * Private state of the gdb stub, shared by its files:
 *   server.c    options, sockets, sending and receiving, the monitor
 *               thread
 *   run.c       run control (the cpu_exec wrapper), stops and the
 *               stopped-state loop
 *   commands.c  packet dispatch and the protocol commands
 *   monitor.c   "monitor ..." commands (qRcmd)
 *   packet.c    framing; regs.c the register table and XML
 *
 * Invariants:
 *   - only the CPU thread reads or writes the connection; the monitor
 *     thread only poll()s the descriptor it was armed with and sets
 *     env->exit_request (GdbMonState below);
 *   - conn_fd >= 0 exactly while a debugger is connected;
 *   - every breakpoint in @bps is also inserted in the exec layer, and
 *     nothing else inserts breakpoints there;
 *   - env->tq/uq heads and the block facts are synced at every stop
 *     (linx_cpu_sync_block_state), so register reads are exact.
 */
#ifndef LINX_GDBSTUB_INTERNAL_H
#define LINX_GDBSTUB_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "gdbstub/gdbstub.h"
#include "gdbstub/packet.h"
#include "target/linx/decode.h"

/* Error replies: errno values in hex, as gdbserver sends them. */
#define GDB_ERR_INVAL "E16"  /* EINVAL: malformed packet or bad argument */
#define GDB_ERR_FAULT "E0e"  /* EFAULT: memory not accessible */
#define GDB_ERR_NOSPC "E1c"  /* ENOSPC: no room for another breakpoint */
#define GDB_ERR_TOOBIG "E07" /* E2BIG: packet longer than PacketSize */

/* Stop and exit replies carry one byte (two hex digits). */
#define GDB_STATUS_MASK 0xffu

/* @s without @prefix when it starts with it, else NULL. */
static inline const char *gdb_skip_prefix(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);

    return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}

/* What gdb asked for once the guest is stopped. */
typedef enum GdbResume {
    GDB_RESUME_NONE,     /* stay stopped (or: nothing changes while running) */
    GDB_RESUME_CONTINUE, /* c, C, vCont;c */
    GDB_RESUME_STEP,     /* s, S, vCont;s */
    GDB_RESUME_DETACH,   /* D, or the connection closed: run on without gdb */
    GDB_RESUME_KILL,     /* k, vKill */
} GdbResume;

/* Why the guest stopped. */
typedef enum GdbStopKind {
    GDB_STOP_ATTACH,    /* gdb connected (reported when gdb asks '?') */
    GDB_STOP_STEP,      /* single step done */
    GDB_STOP_BREAK,     /* breakpoint (Z0 or Z1) */
    GDB_STOP_WATCH,     /* write watchpoint (Z2) */
    GDB_STOP_INTERRUPT, /* Ctrl-C */
    GDB_STOP_SIGNAL,    /* an architectural trap, as a signal */
} GdbStopKind;

typedef struct GdbStop {
    GdbStopKind kind;
    int signal;     /* gdb signal number */
    uint64_t addr;  /* watchpoint address */
    bool hw;        /* a Z1 breakpoint */
} GdbStop;

/* gdb signal numbers (gdb/signals.def; the remote protocol uses these,
 * not the host's). */
enum {
    GDB_SIGNAL_0 = 0,
    GDB_SIGNAL_INT = 2,
    GDB_SIGNAL_ILL = 4,
    GDB_SIGNAL_TRAP = 5,
    GDB_SIGNAL_KILL = 9,
    GDB_SIGNAL_BUS = 10,
    GDB_SIGNAL_SEGV = 11,
    GDB_SIGNAL_UNKNOWN = 143,
};

/* Breakpoint kinds (Z packet types). */
enum {
    GDB_BP_SW = 0,
    GDB_BP_HW = 1,
    GDB_WP_WRITE = 2,
    GDB_WP_READ = 3,
    GDB_WP_ACCESS = 4,
};

/* A write watchpoint.  Stores into it stop before they happen (the exec
 * layer's watchpoints, tcg/exec.h: TLB_WATCH pages and bulk writes); the
 * stub also single-steps while any is set and compares the watched bytes
 * after every instruction, which catches writes made another way (system
 * calls, tile stores) after the instruction.  A store of the same value
 * is reported before it (gdb then sees no change and goes on) but not
 * after it. */
#define GDB_MAX_WATCHPOINTS 16
#define GDB_MAX_WATCH_LEN 4096
typedef struct GdbWatch {
    uint64_t addr;
    uint64_t len;
    uint8_t *old;     /* the bytes at the last check */
    bool readable;    /* they could be read */
} GdbWatch;

/* Monitor thread states (see server.c). */
typedef enum GdbMonState {
    GDB_MON_IDLE,   /* waiting to be armed */
    GDB_MON_ARMED,  /* poll()ing mon_fd */
    GDB_MON_FIRED,  /* mon_fd was ready: exit_request set; waits for disarm */
    GDB_MON_DISARM, /* asked to stop polling */
    GDB_MON_QUIT,
} GdbMonState;

#define GDB_IN_BUF 4096

/* A symbol of the guest program (frames.c). */
typedef struct GdbSym {
    uint64_t addr;
    uint64_t size;    /* 0: up to the next symbol */
    uint64_t sec_end; /* end of its section */
    char *name;
    bool is_func;
} GdbSym;

/* A function's FENTRY frame template (frames.c). */
typedef struct GdbFrameInfo {
    uint64_t fentry_pc;
    unsigned fentry_len;
    uint64_t size;                /* S: sp -= S */
    uint8_t regs[LINX_NUM_GPRS];  /* saved at CFA - 8, CFA - 16, ... */
    unsigned nregs;
} GdbFrameInfo;

#define GDB_MAX_FRAMES 64

struct GdbStub {
    GdbStubConfig cfg;
    int listen_fd;  /* -1: none (or closed) */
    int slot_fd;    /* reserved descriptor connections are moved to (-1: none) */
    int conn_fd;    /* the debugger's connection, -1 when none */
    int port;

    CPULinxState *env; /* the CPU under the debugger (bound at first use) */
    bool wait_attach;  /* accept and stop before the first instruction */
    bool killed;       /* gdb killed the guest: no exit report */

    /* Protocol state. */
    GdbRx rx;
    uint8_t in[GDB_IN_BUF];
    size_t in_pos, in_len;
    GString *reply;       /* body being built */
    GString *last_packet; /* framed, for a '-' */
    bool no_ack;          /* QStartNoAckMode */
    bool client_swbreak;  /* gdb understands swbreak / hwbreak stop reasons */
    bool client_hwbreak;

    /* Stop state. */
    GdbStop stop;
    bool stopped;
    GdbResume run_mode;   /* CONTINUE or STEP for the next run */
    int resume_signal;    /* signal given with C/S/vCont;C (0: none) */
    bool stepping;        /* the exec layer is in single-step mode */

    GHashTable *bps;      /* guest pc -> GDB_BP_SW / GDB_BP_HW (+1, never 0) */
    GdbWatch watch[GDB_MAX_WATCHPOINTS];
    unsigned nwatch;
    bool watch_pending;   /* stopped before a watched store at watch_pc */
    uint64_t watch_pc;

    /* The guest program's symbols (frames.c), sorted by address. */
    GdbSym *syms;
    unsigned nsyms;
    uint64_t prog_entry;  /* its entry point (0: unknown) */
    uint8_t *auxv;        /* linx-user: the auxiliary vector (qXfer:auxv) */
    size_t auxv_len;

    /* Monitor thread. */
    pthread_t mon_thread;
    bool mon_started;
    pthread_mutex_t mon_lock;
    pthread_cond_t mon_cond;
    GdbMonState mon_state;
    int mon_fd;
    int *mon_flag;        /* &env->exit_request */
    bool mon_fired;       /* it set the flag during the last run */
    int wake[2];          /* self-pipe to interrupt the monitor's poll */
};

/* server.c */
/* A stub talking over an already connected descriptor (unit tests;
 * socketpair): the guest stops before its first instruction. */
GdbStub *gdb_stub_new_connected(int fd, const GdbStubConfig *cfg);
/* Accept a debugger on the listening socket (waiting for one when
 * @block); true when one is connected afterwards. */
/* While a debugger is attached: accept a pending second connection, send
 * it an error packet saying why, close it (server.c). */
void gdb_refuse_extra(GdbStub *s);
bool gdb_accept(GdbStub *s, bool block);
/* poll() says @fd has input (or hung up). */
bool gdb_fd_readable(int fd);
/* Make input available in s->in (reading when it is used up; waiting for
 * it when @block): > 0 bytes available, 0 at end of connection or error,
 * -1 nothing yet (not blocking). */
int gdb_read_input(GdbStub *s, bool block);
/* Feed the available input to the packet layer and the handlers until a
 * handler asks to resume (returned) or the input is used up (NONE).
 * @running: the guest is running (a Ctrl-C then sets *interrupted and
 * stops the feeding).  DETACH when the connection went away. */
GdbResume gdb_process_input(GdbStub *s, CPULinxState *env, bool running, bool *interrupted);
/* The monitor thread (see server.c). */
bool gdb_monitor_start(GdbStub *s);
void gdb_monitor_arm(GdbStub *s, int fd, int *flag);
/* Stop it; true when it had set the flag (gdb sent something). */
bool gdb_monitor_disarm(GdbStub *s);
/* Frame and send s->reply (or @body) as a packet. */
void gdb_send_reply(GdbStub *s);
void gdb_send_binary(GdbStub *s, const uint8_t *body, size_t len);
/* Convenience: set s->reply to @text and send it. */
void gdb_reply_str(GdbStub *s, const char *text);
/* Build the stop reply of s->stop into s->reply. */
void gdb_format_stop_reply(GdbStub *s);
/* Drop the connection and everything the debugger set (breakpoints,
 * watchpoints, single step). */
void gdb_disconnect(GdbStub *s);

/* commands.c */
/* Handle one packet body (NUL-terminated).  Replies are sent from here.
 * @running: the guest was running when it arrived (resume requests are
 * then ignored). */
GdbResume gdb_handle_packet(GdbStub *s, CPULinxState *env, const char *pkt, size_t len,
                            bool running);
/* gdb signal number of an architectural trap (env->trapno), and of a
 * Linux signal. */
int gdb_signal_of_trap(uint64_t trapno);
int gdb_signal_of_linux(int sig);
/* Breakpoints and watchpoints (commands.c), used by run control. */
bool gdb_bp_at(const GdbStub *s, uint64_t pc, bool *hw);
void gdb_bp_remove_all(GdbStub *s);
void gdb_watch_remove_all(GdbStub *s);
/* Compare the watched bytes with their last value (and remember the new
 * ones); returns the first changed watchpoint, or NULL. */
const GdbWatch *gdb_watch_check(GdbStub *s, CPULinxState *env);
/* Read the current bytes of every watchpoint (after gdb changed memory). */
void gdb_watch_refresh(GdbStub *s, CPULinxState *env);

/* frames.c */
void gdb_symbols_free(GdbStub *s);
/* The symbol covering @addr (functions only when @func), or NULL. */
const GdbSym *gdb_symbol_at(const GdbStub *s, uint64_t addr, bool func);
const GdbSym *gdb_symbol_named(const GdbStub *s, const char *name);
/* Is @addr an instruction boundary of the function holding it?  (True
 * when no function symbol covers it: nothing to measure from.) */
bool gdb_insn_boundary(const GdbStub *s, CPULinxState *env, uint64_t addr);
/* Decode the instruction at @pc (debugger access); false when unreadable
 * or illegal. */
bool gdb_decode_at(CPULinxState *env, uint64_t pc, LinxInsn *insn);
/* The FENTRY at function start @func, if it starts with one. */
bool gdb_frame_template(CPULinxState *env, uint64_t func, GdbFrameInfo *fi);
/* `monitor bt`: the Linx frames from the stopped state. */
void gdb_frames_print(GdbStub *s, CPULinxState *env, FILE *out);

/* monitor.c */
/* qRcmd: run monitor command @cmd, sending its output as 'O' packets;
 * returns the final reply ("OK" or an error). */
const char *gdb_monitor_command(GdbStub *s, CPULinxState *env, const char *cmd);

#endif /* LINX_GDBSTUB_INTERNAL_H */
