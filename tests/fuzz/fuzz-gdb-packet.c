/*
 * Fuzz target for the gdb remote-protocol handler (gdbstub/packet.c,
 * commands.c, monitor.c, regs.c): one input is the byte stream a debugger
 * sends - packets with their framing, acks, Ctrl-C, garbage.
 *
 * A fresh stub talks over a socketpair to a CPU in a known state (a small
 * assembled program at 0x10000, registers 0x1111 * n, a stack, a tile
 * register file, attached to an exec context so that breakpoints and
 * single-step settings go through the engine).  The input is fed one byte
 * at a time through gdb_process_input() and the replies are drained after
 * each byte, so no reply can fill the socket.  Resume requests (c, s,
 * vCont) are noted, not run: the handlers are what is fuzzed.
 *
 * Invariants:
 *  - no crash, hang or sanitizer report, whatever the bytes;
 *  - unless the input killed the guest or detached, the stub still
 *    answers afterwards: `qC` with "QC1", `?` with a stop reply (T/S),
 *    and `g` with as many hex digits as on a fresh stub.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz-target.h"
#include "gdbstub/gdbstub-internal.h"
#include "hw/core/guest-memory.h"
#include "hw/linx/tile-regs.h"
#include "linx-as.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

const char fuzz_target_name[] = "fuzz-gdb-packet";

#define CODE_BASE UINT64_C(0x10000)
#define CODE_SIZE UINT64_C(0x10000)
#define STACK_BASE UINT64_C(0x100000)
#define STACK_SIZE UINT64_C(0x10000)

static const char program[] =
    "  .text\n  .globl _start\n_start:\n  C.BSTART.STD\n  addi zero, 3, ->a0\nloop:\n"
    "  C.BSTART COND, loop\n  subi a0, 1, ->a0\n  setc.nei a0, 0\n  C.BSTART.STD\n"
    "  addi zero, 93, ->a7\n  acrc 1\n  C.BSTOP\n  .data\nd: .quad 0x1122334455667788\n";

typedef struct GdbFuzz {
    LinxExecContext *ec;
    uint8_t *text, *data;
    size_t text_len, data_len;
    uint64_t data_addr, entry;
    size_t g_len; /* hex digits of a 'g' reply on a fresh stub */
} GdbFuzz;

static GdbFuzz gf;            /* the harness's one-time set-up */
static long n_alive, n_ended; /* generated-mode statistics */

typedef struct Session {
    GuestMemory *gm;
    CPULinxState *env;
    GdbStub *stub;
    int fd; /* the debugger's end */
    GString *out;
} Session;

static void drain(Session *ss)
{
    char buf[65536];
    ssize_t n;

    while ((n = recv(ss->fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
        if (ss->out) {
            g_string_append_len(ss->out, buf, n);
        }
    }
}

static void session_open(Session *ss)
{
    int sv[2];
    GdbStubConfig cfg = { .quiet = true };

    memset(ss, 0, sizeof(*ss));
    ss->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    if (!ss->gm || !guest_mem_map(ss->gm, CODE_BASE, CODE_SIZE, GM_PROT_ALL, false) ||
        !guest_mem_map(ss->gm, STACK_BASE, STACK_SIZE, GM_PROT_READ | GM_PROT_WRITE, false) ||
        guest_mem_debug_rw(ss->gm, CODE_BASE, gf.text, gf.text_len, true) != GM_OK ||
        (gf.data_len &&
         guest_mem_debug_rw(ss->gm, gf.data_addr, gf.data, gf.data_len, true) != GM_OK)) {
        abort();
    }
    ss->env = calloc(1, sizeof(*ss->env));
    linx_cpu_reset(ss->env, gf.entry, 2);
    for (unsigned i = 1; i < LINX_NUM_GPRS; i++) {
        ss->env->gpr[i] = UINT64_C(0x1111) * i;
    }
    ss->env->gpr[LINX_REG_SP] = STACK_BASE + STACK_SIZE;
    ss->env->engine.mem = ss->gm;
    ss->env->tiles = linx_tile_state_new();
    linx_exec_attach_cpu(gf.ec, ss->env);
    linx_tb_flush(ss->env);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        abort();
    }
    ss->stub = gdb_stub_new_connected(sv[0], &cfg);
    ss->stub->env = ss->env;
    ss->stub->stopped = true;
    ss->stub->stop.kind = GDB_STOP_ATTACH;
    ss->fd = sv[1];
}

static void session_close(Session *ss)
{
    gdb_stub_free(ss->stub);
    close(ss->fd);
    linx_exec_detach_cpu(gf.ec, ss->env);
    linx_tile_state_free(ss->env->tiles);
    guest_mem_free(ss->gm);
    free(ss->env);
    if (ss->out) {
        g_string_free(ss->out, TRUE);
    }
}

/* Feed @len bytes one at a time; false once the session ended (kill,
 * detach, connection gone). */
static bool feed(Session *ss, const uint8_t *p, size_t len)
{
    GdbStub *s = ss->stub;

    for (size_t i = 0; i < len; i++) {
        GdbResume r;
        bool interrupted = false;
        s->in[0] = p[i];
        s->in_pos = 0;
        s->in_len = 1;
        r = gdb_process_input(s, ss->env, false, &interrupted);
        drain(ss);
        if (r == GDB_RESUME_KILL || r == GDB_RESUME_DETACH || s->conn_fd < 0 || s->killed) {
            return false;
        }
    }
    return true;
}

/* Send one packet and return the body of the first reply packet ("" if
 * none). */
static const char *ask(Session *ss, const char *body, char *reply, size_t cap)
{
    char pkt[64];
    const char *d, *h;

    snprintf(pkt, sizeof(pkt), "$%s#%02x", body, 0);
    {
        unsigned sum = 0;
        for (const char *c = body; *c; c++) {
            sum += (unsigned char)*c;
        }
        snprintf(pkt, sizeof(pkt), "$%s#%02x", body, sum & 0xff);
    }
    if (!ss->out) {
        ss->out = g_string_new(NULL);
    }
    g_string_truncate(ss->out, 0);
    gdb_rx_init(&ss->stub->rx); /* forget a half-read packet of the input */
    feed(ss, (const uint8_t *)pkt, strlen(pkt));
    reply[0] = 0;
    d = strchr(ss->out->str, '$');
    h = d ? strchr(d, '#') : NULL;
    if (d && h) {
        size_t n = (size_t)(h - d - 1);
        if (n >= cap) {
            n = cap - 1;
        }
        memcpy(reply, d + 1, n);
        reply[n] = 0;
    }
    return reply;
}

int LLVMFuzzerInitialize(int *argc, char **argv[])
{
    LinxExecOptions o;
    LinxAsOptions ao;
    LinxAs *as;
    const uint8_t *d;
    uint64_t addr, size;
    char err[256];

    (void)argc;
    (void)argv;
    linx_as_default_options(&ao);
    as = linx_as_new(&ao);
    linx_as_add_source(as, "p.s", program, strlen(program));
    if (!linx_as_assemble(as) || !linx_as_section(as, ".text", &addr, &size, &d) ||
        addr != CODE_BASE) {
        fprintf(stderr, "%s: the built-in program does not assemble:\n%s", fuzz_target_name,
                linx_as_diagnostics(as));
        abort();
    }
    gf.text = g_memdup2(d, size);
    gf.text_len = size;
    if (linx_as_section(as, ".data", &addr, &size, &d) && d && size &&
        addr + size <= CODE_BASE + CODE_SIZE) {
        gf.data = g_memdup2(d, size);
        gf.data_len = size;
        gf.data_addr = addr;
    }
    gf.entry = linx_as_entry(as);
    linx_as_free(as);
    linx_exec_options_init(&o);
    o.accel = LINX_ACCEL_INTERP;
    o.trace_commit_path = NULL;
    gf.ec = linx_exec_new(&o, err, sizeof(err));
    if (!gf.ec) {
        fprintf(stderr, "%s: %s\n", fuzz_target_name, err);
        abort();
    }
    {
        Session ss;
        char reply[GDB_MAX_PACKET + 1];
        session_open(&ss);
        gf.g_len = strlen(ask(&ss, "g", reply, sizeof(reply)));
        session_close(&ss);
        if (gf.g_len < 16) {
            fprintf(stderr, "%s: a fresh stub answers 'g' with '%s'\n", fuzz_target_name, reply);
            abort();
        }
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char reply[GDB_MAX_PACKET + 1];
    Session ss;

    if (size > 8192) {
        return 0;
    }
    session_open(&ss);
    if (feed(&ss, data, size)) {
        if (strcmp(ask(&ss, "qC", reply, sizeof(reply)), "QC1") != 0) {
            fuzz_fail(data, size, "afterwards qC is answered '%.80s'", reply);
        }
        ask(&ss, "?", reply, sizeof(reply));
        if (reply[0] != 'T' && reply[0] != 'S') {
            fuzz_fail(data, size, "afterwards ? is answered '%.80s'", reply);
        }
        if (strlen(ask(&ss, "g", reply, sizeof(reply))) != gf.g_len) {
            fuzz_fail(data, size, "afterwards g is answered with %zu characters, not %zu",
                      strlen(reply), gf.g_len);
        }
        n_alive++;
    } else {
        n_ended++;
    }
    session_close(&ss);
    return 0;
}

/* ---- generated inputs ------------------------------------------------------- */

static const char *const packets[] = {
    "?",
    "g",
    "G",
    "p18",
    "p0",
    "pfff",
    "P2=0100000000000000",
    "P18=0000010000000000",
    "m10000,10",
    "m0,8",
    "mffffffffffffffff,10",
    "M10000,2:0008",
    "M100000,4:deadbeef",
    "X10000,0:",
    "Z0,10004,2",
    "z0,10004,2",
    "Z1,10000,2",
    "Z2,100000,8",
    "z2,100000,8",
    "Z2,0,99999",
    "qSupported:swbreak+;hwbreak+",
    "qXfer:features:read:target.xml:0,100",
    "qXfer:features:read:nosuch.xml:0,10",
    "qRcmd,74696c6573",
    "qRcmd,74696c6520742331",
    "qRcmd,737372203078316630312030783830",
    "qAttached",
    "qfThreadInfo",
    "qsThreadInfo",
    "qC",
    "Hg0",
    "Hc-1",
    "T1",
    "vCont?",
    "vMustReplyEmpty",
    "QStartNoAckMode",
    "qOffsets",
    "qSymbol::",
    "qTStatus",
    "s",
    "c",
    "C05",
    "vCont;c",
    "x10000,8",
    "D",
    "k",
};

long fuzz_generated(long count)
{
    static uint8_t buf[8192];
    FuzzRng r = { 0xbb67ae8584caa73bull };

    for (long i = 0; i < count; i++) {
        size_t n = 0;
        for (unsigned k = 0, m = 1 + fuzz_rndn(&r, 12); k < m && n < sizeof(buf) - 256; k++) {
            char body[200];
            const char *p = packets[fuzz_rndn(&r, sizeof(packets) / sizeof(packets[0]))];
            unsigned sum = 0;
            size_t bl;
            if ((p[0] == 'D' || p[0] == 'k') && fuzz_rndn(&r, 4)) {
                continue; /* mostly keep the session going */
            }
            snprintf(body, sizeof(body), "%s", p);
            bl = strlen(body);
            for (unsigned e = 0, em = fuzz_rndn(&r, 3) ? 0 : 1 + fuzz_rndn(&r, 3); e < em; e++) {
                body[fuzz_rndn(&r, (unsigned)bl)] = "0123456789abcdef,:;=-#$}*x"[fuzz_rndn(&r, 26)];
            }
            switch (fuzz_rndn(&r, 8)) {
            case 0:
                buf[n++] = 0x03; /* Ctrl-C */
                break;
            case 1:
                buf[n++] = '-';
                break;
            default:
                break;
            }
            for (size_t c = 0; c < bl; c++) {
                sum += (unsigned char)body[c];
            }
            n += (size_t)snprintf((char *)buf + n, sizeof(buf) - n, "$%s#%02x", body,
                                  fuzz_rndn(&r, 10) ? sum & 0xff : (sum + 1) & 0xff);
            if (fuzz_rndn(&r, 3) == 0) {
                buf[n++] = '+';
            }
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("%s: %ld sessions checked afterwards, %ld ended by k/D\n", fuzz_target_name, n_alive,
           n_ended);
    if (!n_alive) {
        fuzz_fail(buf, 0, "no session survived to be checked");
    }
    return count;
}
