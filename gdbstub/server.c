/*
 * gdb stub transport: command-line options, the listening socket, the
 * connection (sending packets, reading bytes, acknowledgements) and the
 * monitor thread that interrupts a running guest when gdb sends something.
 * Run control is in run.c.
 *
 * Descriptors: the stub opens all of its descriptors when it is created
 * (the listening socket, a placeholder for the connection, the monitor's
 * wake-up pipe), so a front end can reserve them before the guest runs
 * (linux-user keeps the guest away from them).  An accepted connection is
 * moved onto the placeholder's number (dup3), and the placeholder comes
 * back when the connection closes.
 *
 * Monitor thread (GdbMonState): armed by the CPU thread before cpu_exec()
 * with the descriptor to watch, it poll()s that descriptor and the wake-up
 * pipe; when the descriptor becomes readable it sets *mon_flag
 * (env->exit_request) and goes FIRED.  The CPU thread disarms it after
 * cpu_exec() returns (writing the pipe when it is still polling) and waits
 * until it is idle, so the thread never polls a descriptor the CPU thread
 * is about to close or read.  It never reads or writes the connection.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdbstub/gdbstub-internal.h"
#include "tcg/exec.h"

#define DEFAULT_HOST "127.0.0.1"
#define MAX_PORT 65535
#define DECIMAL 10
#define MAX_HOST 256
#define LISTEN_BACKLOG 1
/* A debugger that stops reading for this long is dropped. */
#define SEND_TIMEOUT_SECONDS 60
/* Consecutive '-' answered by resending before we give up on a packet. */
#define MAX_RESENDS 16
#define DEV_NULL "/dev/null"
/* A refused debugger's first packets are read for at most this long. */
#define REFUSAL_DRAIN_MS 100
#define REFUSAL_DRAIN_POLLS 4

/* ---- Options ---- */

/* Split "PORT", ":PORT", "tcp::PORT", "tcp:HOST:PORT", "HOST:PORT" and
 * "[V6HOST]:PORT" (anything after a ',' is options: parse_suffix).  @host
 * gets "" when none is given. */
static bool parse_listen(const char *spec, char *host, size_t hostlen, unsigned *port, char *err,
                         size_t errlen)
{
    char *addr = g_strndup(spec, strcspn(spec, ","));
    const char *p = addr;
    const char *colon;
    char *end;
    unsigned long v;
    size_t hl = 0;
    bool ok = false;

    if (gdb_skip_prefix(p, "tcp:")) {
        p += strlen("tcp:");
    }
    colon = strrchr(p, ':');
    if (colon) {
        const char *h = p;
        hl = (size_t)(colon - p);
        if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') {
            h++;
            hl -= 2;
        }
        if (hl >= hostlen) {
            snprintf(err, errlen, "gdb address '%s': host name too long", spec);
            goto out;
        }
        memcpy(host, h, hl);
        p = colon + 1;
    }
    host[hl] = 0;
    errno = 0;
    v = strtoul(p, &end, DECIMAL);
    if (!*p || *end || errno || v > MAX_PORT || *p == '-' || *p == '+') {
        snprintf(err, errlen,
                 "bad gdb address '%s' (PORT, tcp::PORT or tcp:HOST:PORT; port 0-%d)", spec,
                 MAX_PORT);
        goto out;
    }
    *port = (unsigned)v;
    ok = true;
out:
    g_free(addr);
    return ok;
}

/* The options after the address: ",tdesc=compat|linx" (the target
 * description served as target.xml, regs.h). */
static bool parse_suffix(const char *spec, GdbTdesc *tdesc, char *err, size_t errlen)
{
    const char *p = strchr(spec, ',');

    *tdesc = GDB_TDESC_COMPAT;
    while (p) {
        const char *opt = p + 1;
        size_t n = strcspn(opt, ",");
        if (n == strlen("tdesc=compat") && !strncmp(opt, "tdesc=compat", n)) {
            *tdesc = GDB_TDESC_COMPAT;
        } else if (n == strlen("tdesc=linx") && !strncmp(opt, "tdesc=linx", n)) {
            *tdesc = GDB_TDESC_LINX;
        } else {
            snprintf(err, errlen,
                     "gdb address '%s': unknown option '%.*s' (tdesc=compat or tdesc=linx)", spec,
                     (int)n, opt);
            return false;
        }
        p = strchr(opt, ',');
    }
    return true;
}

static const char *dev_to_listen(const char *dev, GdbTdesc *tdesc, char *err, size_t errlen)
{
    char host[MAX_HOST];
    unsigned port;

    if (!strcmp(dev, "none")) {
        return NULL;
    }
    if (!parse_listen(dev, host, sizeof(host), &port, err, errlen) ||
        !parse_suffix(dev, tdesc, err, errlen)) {
        return (const char *)-1;
    }
    return dev;
}

int gdb_stub_parse_option(GdbStubConfig *cfg, GdbStubMode mode, int argc, char **argv, int *i,
                          char *err, size_t errlen)
{
    const char *a = argv[*i];
    bool needs_value;

    if (a[0] != '-') {
        return 0;
    }
    a += a[1] == '-' ? 2 : 1;
    if (mode == GDB_MODE_SYSTEM && !strcmp(a, "s")) {
        cfg->mode = mode;
        cfg->listen = GDB_DEFAULT_LISTEN;
        (*i)++;
        return 1;
    }
    if (mode == GDB_MODE_SYSTEM && !strcmp(a, "S")) {
        cfg->mode = mode;
        cfg->wait = true;
        (*i)++;
        return 1;
    }
    needs_value = (mode == GDB_MODE_USER && !strcmp(a, "g")) ||
                  (mode == GDB_MODE_SYSTEM && !strcmp(a, "gdb"));
    if (!needs_value) {
        return 0;
    }
    if (*i + 1 >= argc) {
        snprintf(err, errlen, "option %s needs an argument (%s)", argv[*i],
                 mode == GDB_MODE_USER ? "a port" : "tcp::PORT");
        return -1;
    }
    const char *l = dev_to_listen(argv[*i + 1], &cfg->tdesc, err, errlen);
    if (l == (const char *)-1) {
        return -1;
    }
    cfg->mode = mode;
    cfg->listen = l;
    if (mode == GDB_MODE_USER) {
        cfg->wait = l != NULL; /* like qemu-user: the program waits for gdb */
    }
    *i += 2;
    return 1;
}

bool gdb_stub_check_config(const GdbStubConfig *cfg, char *err, size_t errlen)
{
    if (cfg->wait && !cfg->listen) {
        snprintf(err, errlen, "-S waits for gdb but no gdb address is given (-s or -gdb tcp::PORT)");
        return false;
    }
    return true;
}

void gdb_stub_print_options_help(FILE *f, GdbStubMode mode)
{
    if (mode == GDB_MODE_USER) {
        fprintf(f, "  -g PORT               wait for gdb on PORT (or tcp:HOST:PORT; 0 = any free\n"
                   "                        port) before the first instruction; PORT,tdesc=linx\n"
                   "                        serves the pure Linx target description\n");
        return;
    }
    fprintf(f, "  -gdb tcp::PORT        accept gdb on PORT (tcp:HOST:PORT; default host 127.0.0.1;\n"
               "                        tcp::PORT,tdesc=linx: the pure Linx target description)\n"
               "  -s                    -gdb tcp::1234\n"
               "  -S                    wait for gdb before the first instruction\n");
}

/* ---- Creation ---- */

static GdbStub *stub_alloc(const GdbStubConfig *cfg)
{
    GdbStub *s = g_new0(GdbStub, 1);

    s->cfg = *cfg;
    s->listen_fd = s->slot_fd = s->conn_fd = -1;
    s->wake[0] = s->wake[1] = -1;
    s->port = -1;
    gdb_rx_init(&s->rx);
    s->reply = g_string_sized_new(GDB_MAX_PACKET);
    s->last_packet = g_string_new("");
    s->bps = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    s->run_mode = GDB_RESUME_CONTINUE;
    s->stop.kind = GDB_STOP_ATTACH;
    s->mon_state = GDB_MON_IDLE;
    s->mon_fd = -1;
    pthread_mutex_init(&s->mon_lock, NULL);
    pthread_cond_init(&s->mon_cond, NULL);
    if (pipe2(s->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        s->wake[0] = s->wake[1] = -1;
    }
    return s;
}

static int open_listen(const char *host, unsigned port, int *bound_port, char *err, size_t errlen)
{
    struct addrinfo hints, *res = NULL, *ai;
    char portstr[16];
    int fd = -1, rc, saved = 0;
    const int one = 1;

    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    snprintf(portstr, sizeof(portstr), "%u", port);
    rc = getaddrinfo(host[0] ? host : DEFAULT_HOST, portstr, &hints, &res);
    if (rc != 0) {
        snprintf(err, errlen, "gdb stub: cannot resolve '%s': %s", host, gai_strerror(rc));
        return -1;
    }
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            saved = errno;
            continue;
        }
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, LISTEN_BACKLOG) == 0) {
            break;
        }
        saved = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(err, errlen, "gdb stub: cannot listen on %s:%u: %s", host[0] ? host : DEFAULT_HOST,
                 port, strerror(saved));
        return -1;
    }
    struct sockaddr_storage sa;
    socklen_t sl = sizeof(sa);
    *bound_port = (int)port;
    if (getsockname(fd, (struct sockaddr *)&sa, &sl) == 0) {
        if (sa.ss_family == AF_INET) {
            *bound_port = ntohs(((struct sockaddr_in *)&sa)->sin_port);
        } else if (sa.ss_family == AF_INET6) {
            *bound_port = ntohs(((struct sockaddr_in6 *)&sa)->sin6_port);
        }
    }
    return fd;
}

GdbStub *gdb_stub_new(const GdbStubConfig *cfg, char *err, size_t errlen)
{
    char host[MAX_HOST];
    unsigned port;
    GdbTdesc tdesc;
    GdbStub *s;

    if (!cfg->listen) {
        snprintf(err, errlen, "gdb stub: no address to listen on");
        return NULL;
    }
    if (!parse_listen(cfg->listen, host, sizeof(host), &port, err, errlen) ||
        !parse_suffix(cfg->listen, &tdesc, err, errlen)) {
        return NULL;
    }
    s = stub_alloc(cfg);
    s->cfg.tdesc = tdesc;
    s->listen_fd = open_listen(host, port, &s->port, err, errlen);
    s->slot_fd = open(DEV_NULL, O_RDWR | O_CLOEXEC);
    if (s->listen_fd < 0 || s->slot_fd < 0 || s->wake[0] < 0) {
        if (s->listen_fd >= 0) {
            snprintf(err, errlen, "gdb stub: cannot open descriptors: %s", strerror(errno));
        }
        gdb_stub_free(s);
        return NULL;
    }
    s->wait_attach = cfg->wait;
    if (!cfg->quiet) {
        fprintf(stderr, "linxemu: gdb stub listening on %s:%d%s\n", host[0] ? host : DEFAULT_HOST,
                s->port, cfg->wait ? " (waiting for gdb)" : "");
        fflush(stderr);
    }
    return s;
}

GdbStub *gdb_stub_new_connected(int fd, const GdbStubConfig *cfg)
{
    GdbStub *s = stub_alloc(cfg);

    s->conn_fd = fd;
    s->wait_attach = true;
    return s;
}

static void monitor_quit(GdbStub *s)
{
    if (!s->mon_started) {
        return;
    }
    pthread_mutex_lock(&s->mon_lock);
    s->mon_state = GDB_MON_QUIT;
    pthread_cond_broadcast(&s->mon_cond);
    pthread_mutex_unlock(&s->mon_lock);
    if (s->wake[1] >= 0) {
        (void)!write(s->wake[1], "q", 1);
    }
    pthread_join(s->mon_thread, NULL);
    s->mon_started = false;
}

void gdb_stub_free(GdbStub *s)
{
    if (!s) {
        return;
    }
    monitor_quit(s);
    gdb_bp_remove_all(s);
    gdb_watch_remove_all(s);
    if (s->conn_fd >= 0 && s->conn_fd != s->slot_fd) {
        close(s->conn_fd);
    }
    if (s->listen_fd >= 0) {
        close(s->listen_fd);
    }
    if (s->slot_fd >= 0) {
        close(s->slot_fd);
    }
    for (int i = 0; i < 2; i++) {
        if (s->wake[i] >= 0) {
            close(s->wake[i]);
        }
    }
    gdb_symbols_free(s);
    g_free(s->auxv);
    pthread_mutex_destroy(&s->mon_lock);
    pthread_cond_destroy(&s->mon_cond);
    g_string_free(s->reply, TRUE);
    g_string_free(s->last_packet, TRUE);
    g_hash_table_destroy(s->bps);
    g_free(s);
}

void gdb_stub_set_auxv(GdbStub *s, const void *auxv, size_t len)
{
    if (!s) {
        return;
    }
    g_free(s->auxv);
    s->auxv = auxv && len ? g_memdup2(auxv, len) : NULL;
    s->auxv_len = s->auxv ? len : 0;
}

int gdb_stub_port(const GdbStub *s)
{
    return s ? s->port : -1;
}

/* ---- Connection ---- */

bool gdb_accept(GdbStub *s, bool block)
{
    int fd;
    const int one = 1;
    const struct timeval tv = { .tv_sec = SEND_TIMEOUT_SECONDS };

    if (s->listen_fd < 0 || s->conn_fd >= 0) {
        return s->conn_fd >= 0;
    }
    if (!block && !gdb_fd_readable(s->listen_fd)) {
        return false;
    }
    do {
        fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        return false;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    /* Keep the reserved descriptor number (see the file comment). */
    if (s->slot_fd >= 0 && dup3(fd, s->slot_fd, O_CLOEXEC) == s->slot_fd) {
        close(fd);
        fd = s->slot_fd;
    }
    s->conn_fd = fd;
    s->no_ack = false;
    s->client_swbreak = s->client_hwbreak = false;
    s->in_pos = s->in_len = 0;
    gdb_rx_init(&s->rx);
    g_string_truncate(s->last_packet, 0);
    return true;
}

/* The message a second debugger gets (an RSP error packet with text, as
 * gdb prints it, then the connection closes). */
#define GDB_REFUSAL "E.linxemu: another debugger is already attached to this stub; " \
                    "detach it first (one connection at a time)"

void gdb_refuse_extra(GdbStub *s)
{
    struct pollfd p;
    GString *pkt;
    char buf[512];
    bool asked = false;
    int fd;

    if (s->listen_fd < 0 || s->conn_fd < 0 || !gdb_fd_readable(s->listen_fd)) {
        return;
    }
    fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
        return;
    }
    /* gdb opens with "+$qSupported:...": answer that packet (ack, then
     * an error with the reason, which gdb prints); a client that says
     * nothing gets the error right away. */
    p.fd = fd;
    p.events = POLLIN;
    for (int i = 0; i < REFUSAL_DRAIN_POLLS && !asked && poll(&p, 1, REFUSAL_DRAIN_MS) == 1; i++) {
        ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
        if (n <= 0) {
            break;
        }
        asked = memchr(buf, '#', (size_t)n) != NULL;
    }
    pkt = g_string_new(asked ? "+" : "");
    gdb_frame_text(pkt, GDB_REFUSAL, strlen(GDB_REFUSAL));
    (void)!send(fd, pkt->str, pkt->len, MSG_NOSIGNAL | MSG_DONTWAIT);
    g_string_free(pkt, TRUE);
    /* End our side after the packet, then take what else the debugger
     * sends before closing: closing with unread data would reset the
     * connection and lose the message on its side. */
    shutdown(fd, SHUT_WR);
    for (int i = 0; i < REFUSAL_DRAIN_POLLS && poll(&p, 1, REFUSAL_DRAIN_MS) == 1; i++) {
        if (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) <= 0) {
            break;
        }
    }
    close(fd);
    fprintf(stderr, "gdbstub: refused a second debugger connection (one is attached)\n");
}

void gdb_disconnect(GdbStub *s)
{
    if (s->conn_fd >= 0) {
        if (s->conn_fd == s->slot_fd) {
            /* Put the placeholder back on the reserved number. */
            int nul = open(DEV_NULL, O_RDWR | O_CLOEXEC);
            if (nul >= 0) {
                dup3(nul, s->slot_fd, O_CLOEXEC);
                close(nul);
            }
        } else {
            close(s->conn_fd);
        }
        s->conn_fd = -1;
    }
    gdb_bp_remove_all(s);
    gdb_watch_remove_all(s);
    if (s->stepping && s->env && s->env->engine.exec) {
        linx_exec_set_single_step(s->env->engine.exec, false);
    }
    s->stepping = false;
    s->run_mode = GDB_RESUME_CONTINUE;
    s->resume_signal = 0;
    s->in_pos = s->in_len = 0;
}

bool gdb_fd_readable(int fd)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };

    return fd >= 0 && poll(&p, 1, 0) == 1 && p.revents != 0;
}

static void send_raw(GdbStub *s, const char *buf, size_t len)
{
    while (len > 0 && s->conn_fd >= 0) {
        ssize_t n = send(s->conn_fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            gdb_disconnect(s); /* gdb went away or stopped reading */
            return;
        }
        buf += n;
        len -= (size_t)n;
    }
}

static void send_framed(GdbStub *s)
{
    send_raw(s, s->last_packet->str, s->last_packet->len);
}

void gdb_send_reply(GdbStub *s)
{
    g_string_truncate(s->last_packet, 0);
    gdb_frame_text(s->last_packet, s->reply->str, s->reply->len);
    send_framed(s);
}

void gdb_send_binary(GdbStub *s, const uint8_t *body, size_t len)
{
    g_string_truncate(s->last_packet, 0);
    gdb_frame_binary(s->last_packet, body, len);
    send_framed(s);
}

void gdb_reply_str(GdbStub *s, const char *text)
{
    g_string_assign(s->reply, text);
    gdb_send_reply(s);
}

int gdb_read_input(GdbStub *s, bool block)
{
    ssize_t n;

    if (s->in_pos < s->in_len) {
        return (int)(s->in_len - s->in_pos);
    }
    if (s->conn_fd < 0 || (!block && !gdb_fd_readable(s->conn_fd))) {
        return s->conn_fd < 0 ? 0 : -1;
    }
    while (block && s->listen_fd >= 0) {
        /* Wait for gdb, turning away other debuggers meanwhile. */
        struct pollfd p[2] = { { .fd = s->conn_fd, .events = POLLIN },
                               { .fd = s->listen_fd, .events = POLLIN } };
        if (poll(p, 2, -1) < 0 && errno != EINTR) {
            break;
        }
        if (p[1].revents) {
            gdb_refuse_extra(s);
        }
        if (p[0].revents) {
            break;
        }
    }
    do {
        n = read(s->conn_fd, s->in, sizeof(s->in));
    } while (n < 0 && errno == EINTR);
    if (n <= 0) {
        return 0;
    }
    s->in_pos = 0;
    s->in_len = (size_t)n;
    return (int)n;
}

GdbResume gdb_process_input(GdbStub *s, CPULinxState *env, bool running, bool *interrupted)
{
    unsigned resends = 0;

    while (s->in_pos < s->in_len && s->conn_fd >= 0) {
        GdbResume r;

        switch (gdb_rx_byte(&s->rx, s->in[s->in_pos++])) {
        case GDB_RX_PACKET:
            resends = 0;
            if (!s->no_ack) {
                send_raw(s, "+", 1);
            }
            r = gdb_handle_packet(s, env, (const char *)s->rx.buf, s->rx.len, running);
            if (r != GDB_RESUME_NONE) {
                return r;
            }
            break;
        case GDB_RX_BAD_CHECKSUM:
            if (!s->no_ack) {
                send_raw(s, "-", 1); /* gdb sends it again */
            }
            break;
        case GDB_RX_OVERSIZED:
            if (!s->no_ack) {
                send_raw(s, "+", 1);
            }
            gdb_reply_str(s, GDB_ERR_TOOBIG);
            break;
        case GDB_RX_NACK:
            if (s->last_packet->len && ++resends <= MAX_RESENDS) {
                send_framed(s);
            }
            break;
        case GDB_RX_INTERRUPT:
            if (running && interrupted) {
                *interrupted = true;
                return GDB_RESUME_NONE; /* the rest is read once stopped */
            }
            break; /* already stopped */
        case GDB_RX_ACK:
        case GDB_RX_NONE:
            break;
        }
    }
    return s->conn_fd >= 0 ? GDB_RESUME_NONE : GDB_RESUME_DETACH;
}

/* ---- Monitor thread ---- */

static void *monitor_main(void *opaque)
{
    GdbStub *s = opaque;
    char drain[64];

    pthread_mutex_lock(&s->mon_lock);
    for (;;) {
        while (s->mon_state == GDB_MON_IDLE || s->mon_state == GDB_MON_FIRED) {
            pthread_cond_wait(&s->mon_cond, &s->mon_lock);
        }
        if (s->mon_state == GDB_MON_QUIT) {
            break;
        }
        if (s->mon_state == GDB_MON_DISARM) {
            s->mon_state = GDB_MON_IDLE;
            pthread_cond_broadcast(&s->mon_cond);
            continue;
        }
        /* ARMED */
        /* While a debugger is attached (mon_fd is its connection) the
         * listening socket is watched too: other debuggers are turned
         * away at once, without stopping the guest. */
        bool extra = s->mon_fd >= 0 && s->mon_fd != s->listen_fd && s->listen_fd >= 0;
        struct pollfd p[3] = { { .fd = s->wake[0], .events = POLLIN },
                               { .fd = s->mon_fd, .events = POLLIN },
                               { .fd = extra ? s->listen_fd : -1, .events = POLLIN } };
        pthread_mutex_unlock(&s->mon_lock);
        int n = poll(p, s->mon_fd >= 0 ? 3 : 1, -1);
        if (n > 0 && p[0].revents) {
            while (read(s->wake[0], drain, sizeof(drain)) > 0) {
            }
        }
        if (n > 0 && extra && p[2].revents) {
            /* The CPU thread does not touch the sockets while we are
             * armed (it waits in gdb_monitor_disarm). */
            gdb_refuse_extra(s);
            if (!(p[1].revents)) {
                pthread_mutex_lock(&s->mon_lock);
                continue; /* still ARMED (or told otherwise meanwhile) */
            }
        }
        pthread_mutex_lock(&s->mon_lock);
        if (s->mon_state == GDB_MON_ARMED && n > 0 && s->mon_fd >= 0 && p[1].revents) {
            __atomic_store_n(s->mon_flag, 1, __ATOMIC_SEQ_CST);
            s->mon_state = GDB_MON_FIRED;
        }
    }
    pthread_mutex_unlock(&s->mon_lock);
    return NULL;
}

bool gdb_monitor_start(GdbStub *s)
{
    sigset_t all, old;
    int rc;

    if (s->mon_started) {
        return true;
    }
    if (s->wake[0] < 0) {
        return false;
    }
    /* Signals stay with the CPU thread. */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    rc = pthread_create(&s->mon_thread, NULL, monitor_main, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    s->mon_started = rc == 0;
    return s->mon_started;
}

void gdb_monitor_arm(GdbStub *s, int fd, int *flag)
{
    if (!s->mon_started || fd < 0) {
        return;
    }
    pthread_mutex_lock(&s->mon_lock);
    s->mon_fd = fd;
    s->mon_flag = flag;
    s->mon_state = GDB_MON_ARMED;
    pthread_cond_broadcast(&s->mon_cond);
    pthread_mutex_unlock(&s->mon_lock);
}

bool gdb_monitor_disarm(GdbStub *s)
{
    bool fired;

    if (!s->mon_started) {
        return false;
    }
    pthread_mutex_lock(&s->mon_lock);
    fired = s->mon_state == GDB_MON_FIRED;
    if (s->mon_state == GDB_MON_ARMED) {
        s->mon_state = GDB_MON_DISARM;
        pthread_cond_broadcast(&s->mon_cond);
        (void)!write(s->wake[1], "d", 1);
    }
    while (s->mon_state == GDB_MON_DISARM) {
        pthread_cond_wait(&s->mon_cond, &s->mon_lock);
    }
    s->mon_state = GDB_MON_IDLE;
    s->mon_fd = -1;
    pthread_mutex_unlock(&s->mon_lock);
    return fired;
}
