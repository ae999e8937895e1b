/*
 * gdb stub benchmark: what debugging costs, as ratios against the same
 * guest program run without the stub in the same process (never absolute
 * thresholds).  The stub runs the guest in a thread, as linx-user does; the
 * benchmark is gdb on the other end of a socketpair.
 *
 *   plain       the guest loop under cpu_exec() (JIT, chained): baseline
 *   stub        the same under gdb_stub_cpu_exec() after "c" (every TB
 *               checks exit_request so Ctrl-C can stop it; monitor armed)
 *   stub+bp     the same with a breakpoint set on a block it never runs
 *   watch       with a write watchpoint on a variable the loop never
 *               writes (single steps, the bytes compared after each;
 *               fewer iterations, ratio per iteration)
 *   plain-interp / stub-interp   the same two under the interpreter
 *   rsp-g       'g' round trips per second over the socketpair
 *   rsp-m       'm' of 4 KiB round trips per second
 *
 * Times are the running thread's CPU time, so a loaded machine does not
 * skew the ratios.  Usage: bench-gdbstub [iterations]
 */
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "gdbstub/gdbstub-internal.h"
#include "hw/core/guest-memory.h"
#include "linx-as.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

#define DEFAULT_ITERS 2000000u
#define WATCH_DIVISOR 200u   /* the watch run does 1/200 of the iterations */
#define RSP_ROUNDS 20000u
#define MEM_BASE UINT64_C(0x10000)
#define MEM_SIZE UINT64_C(0x20000)
#define SYS_EXIT 93
#define REPLY_TIMEOUT_MS 60000
#define SRC_MAX 2048

static const char src_fmt[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    C.BSTART.STD\n"
    "    hl.lis 0, ->s0\n"
    "    hl.lis %u, ->s1\n"
    "    addtpc counter, ->s2\n"
    "    addi s2, counter, ->s2\n"
    "loop:\n"
    "    C.BSTART COND, loop\n"
    "    addi s0, 1, ->s0\n"
    "    xor s3, s0, ->s3\n"
    "    sdi s3, [s2, 0]\n"
    "    setc.ne s0, s1\n"
    "    C.BSTART.STD\n"
    "    addi s0, 0, ->a0\n"
    "    hl.lis 93, ->a7\n"
    "    acrc 1\n"
    "    C.BSTOP\n"
    "never:\n"
    "    C.BSTART.STD\n"
    "    C.BSTOP\n"
    "    .data\n"
    "counter:\n"
    "    .quad 0\n"
    "untouched:\n"
    "    .quad 0\n";

typedef struct Bench {
    LinxAs *as;
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
    GdbStub *stub;
    int fd;
    double cpu_seconds; /* of the thread that ran the guest */
    char in[GDB_MAX_PACKET * 2 + 16];
    size_t in_len;
} Bench;

static double thread_cpu(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool acrc_hook(CPULinxState *env, unsigned type, void *opaque)
{
    if (env->gpr[LINX_REG_A7] != SYS_EXIT) {
        return false;
    }
    env->exit_code = (int)env->gpr[LINX_REG_A0];
    linx_cpu_exit_with(env, EXCP_EXIT);
}

static void die(const char *what)
{
    fprintf(stderr, "bench-gdbstub: %s\n", what);
    exit(1);
}

static void bench_init(Bench *b, unsigned iters, LinxAccel accel)
{
    char src[SRC_MAX];
    char err[256];
    LinxAsOptions o;
    LinxExecOptions eo;
    uint64_t addr, size;
    const uint8_t *data;

    memset(b, 0, sizeof(*b));
    b->fd = -1;
    snprintf(src, sizeof(src), src_fmt, iters);
    linx_as_default_options(&o);
    b->as = linx_as_new(&o);
    linx_as_add_source(b->as, "bench.s", src, strlen(src));
    if (!linx_as_assemble(b->as)) {
        die(linx_as_diagnostics(b->as));
    }
    b->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    guest_mem_map(b->gm, MEM_BASE, MEM_SIZE, GM_PROT_ALL, false);
    for (unsigned i = 0; i < 2; i++) {
        if (linx_as_section(b->as, i ? ".data" : ".text", &addr, &size, &data) && data) {
            guest_mem_debug_rw(b->gm, addr, (void *)data, size, true);
        }
    }
    linx_exec_options_init(&eo);
    eo.accel = accel;
    b->ec = linx_exec_new(&eo, err, sizeof(err));
    if (!b->ec) {
        die(err);
    }
    b->env = calloc(1, sizeof(*b->env));
    linx_cpu_reset(b->env, linx_as_entry(b->as), 2);
    b->env->engine.mem = b->gm;
    b->env->acrc_hook = acrc_hook;
    linx_exec_attach_cpu(b->ec, b->env);
}

static void bench_free(Bench *b)
{
    if (b->fd >= 0) {
        close(b->fd);
    }
    gdb_stub_free(b->stub);
    linx_exec_detach_cpu(b->ec, b->env);
    linx_exec_free(b->ec);
    guest_mem_free(b->gm);
    free(b->env);
    linx_as_free(b->as);
}

/* ---- gdb's side ---- */

static void send_pkt(Bench *b, const char *body)
{
    GString *f = g_string_new("");

    gdb_frame_text(f, body, strlen(body));
    if (write(b->fd, f->str, f->len) != (ssize_t)f->len) {
        die("write to the stub failed");
    }
    g_string_free(f, TRUE);
}

/* Read one reply; returns its first byte. */
static char recv_pkt(Bench *b)
{
    for (;;) {
        char *start = memchr(b->in, '$', b->in_len);
        char *hash = start ? memchr(start, '#', b->in_len - (size_t)(start - b->in)) : NULL;
        if (hash && (size_t)(hash - b->in) + 3 <= b->in_len) {
            char c = start[1];
            size_t used = (size_t)(hash - b->in) + 3;
            memmove(b->in, b->in + used, b->in_len - used);
            b->in_len -= used;
            return c;
        }
        struct pollfd p = { .fd = b->fd, .events = POLLIN };
        if (poll(&p, 1, REPLY_TIMEOUT_MS) != 1) {
            die("no reply from the stub");
        }
        ssize_t n = read(b->fd, b->in + b->in_len, sizeof(b->in) - b->in_len);
        if (n <= 0) {
            die("the stub closed the connection");
        }
        b->in_len += (size_t)n;
    }
}

static void *stub_thread(void *opaque)
{
    Bench *b = opaque;
    double t0 = thread_cpu();

    for (;;) {
        int r = gdb_stub_cpu_exec(b->stub, b->env);
        if (r == EXCP_EXIT || r == EXCP_TRAP || r == EXCP_HALTED) {
            break;
        }
    }
    b->cpu_seconds = thread_cpu() - t0;
    gdb_stub_report_exit(b->stub, b->env->exit_code, 0);
    return NULL;
}

/* ---- Runs ---- */

static double run_plain(unsigned iters, LinxAccel accel)
{
    Bench b;
    double t0;

    bench_init(&b, iters, accel);
    t0 = thread_cpu();
    while (cpu_exec(b.env) != EXCP_EXIT) {
    }
    b.cpu_seconds = thread_cpu() - t0;
    bench_free(&b);
    return b.cpu_seconds;
}

typedef enum StubRun {
    RUN_CONTINUE,
    RUN_BREAKPOINT_ELSEWHERE,
    RUN_WATCH,
} StubRun;

static double run_stub(unsigned iters, LinxAccel accel, StubRun how)
{
    Bench b;
    int sv[2];
    pthread_t th;
    char body[64];
    uint64_t addr = 0;
    GdbStubConfig cfg = { .quiet = true };

    bench_init(&b, iters, accel);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        die("socketpair failed");
    }
    b.stub = gdb_stub_new_connected(sv[0], &cfg);
    b.fd = sv[1];
    pthread_create(&th, NULL, stub_thread, &b);
    send_pkt(&b, "QStartNoAckMode");
    recv_pkt(&b);
    if (how == RUN_BREAKPOINT_ELSEWHERE) {
        linx_as_symbol_value(b.as, "never", &addr);
        snprintf(body, sizeof(body), "Z0,%" PRIx64 ",2", addr);
        send_pkt(&b, body);
        recv_pkt(&b);
    } else if (how == RUN_WATCH) {
        linx_as_symbol_value(b.as, "untouched", &addr);
        snprintf(body, sizeof(body), "Z2,%" PRIx64 ",8", addr);
        send_pkt(&b, body);
        recv_pkt(&b);
    }
    send_pkt(&b, "c");
    if (recv_pkt(&b) != 'W') {
        die("the guest stopped before its end");
    }
    pthread_join(th, NULL);
    bench_free(&b);
    return b.cpu_seconds;
}

static double rsp_rate(const char *packet)
{
    Bench b;
    int sv[2];
    pthread_t th;
    GdbStubConfig cfg = { .quiet = true };
    struct timespec t0, t1;

    bench_init(&b, 1, LINX_ACCEL_JIT);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        die("socketpair failed");
    }
    b.stub = gdb_stub_new_connected(sv[0], &cfg);
    b.fd = sv[1];
    pthread_create(&th, NULL, stub_thread, &b);
    send_pkt(&b, "QStartNoAckMode");
    recv_pkt(&b);
    /* Round trips involve two threads: wall-clock time here. */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 0; i < RSP_ROUNDS; i++) {
        send_pkt(&b, packet);
        recv_pkt(&b);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    send_pkt(&b, "k");
    pthread_join(th, NULL);
    bench_free(&b);
    return RSP_ROUNDS / ((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
}

int main(int argc, char **argv)
{
    unsigned iters = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : DEFAULT_ITERS;
    unsigned witers = iters / WATCH_DIVISOR ? iters / WATCH_DIVISOR : 1;
    char mpkt[32];

    if (iters == 0) {
        die("usage: bench-gdbstub [iterations]");
    }
    double plain = run_plain(iters, LINX_ACCEL_JIT);
    double stub = run_stub(iters, LINX_ACCEL_JIT, RUN_CONTINUE);
    double stub_bp = run_stub(iters, LINX_ACCEL_JIT, RUN_BREAKPOINT_ELSEWHERE);
    double plain_w = run_plain(witers, LINX_ACCEL_JIT);
    double watch = run_stub(witers, LINX_ACCEL_JIT, RUN_WATCH);
    double plain_i = run_plain(iters / 10, LINX_ACCEL_INTERP);
    double stub_i = run_stub(iters / 10, LINX_ACCEL_INTERP, RUN_CONTINUE);

    printf("gdb stub, %u loop iterations (5 guest instructions each), JIT:\n", iters);
    printf("  plain          %8.2f ns/iter   1.00\n", plain * 1e9 / iters);
    printf("  stub           %8.2f ns/iter   %5.2fx plain (exit checks)\n", stub * 1e9 / iters,
           stub / plain);
    printf("  stub+bp        %8.2f ns/iter   %5.2fx plain\n", stub_bp * 1e9 / iters,
           stub_bp / plain);
    printf("  watch          %8.2f ns/iter   %5.2fx plain (%u iterations, single steps)\n",
           watch * 1e9 / witers, watch / plain_w, witers);
    printf("interpreter, %u iterations:\n", iters / 10);
    printf("  plain-interp   %8.2f ns/iter   1.00\n", plain_i * 1e9 / (iters / 10));
    printf("  stub-interp    %8.2f ns/iter   %5.2fx plain-interp\n", stub_i * 1e9 / (iters / 10),
           stub_i / plain_i);
    snprintf(mpkt, sizeof(mpkt), "m%" PRIx64 ",1000", MEM_BASE);
    printf("RSP over a socketpair: 'g' %.0f/s, 'm' 4 KiB %.0f/s\n", rsp_rate("g"),
           rsp_rate(mpkt));
    return 0;
}
