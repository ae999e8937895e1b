/*
 * gdb remote protocol commands: one handler per packet letter, the
 * queries, breakpoints and watchpoints.  Every handler validates its
 * arguments completely before it changes anything, and answers malformed
 * packets with GDB_ERR_INVAL, unreadable or unwritable memory with
 * GDB_ERR_FAULT, and packets it does not know with an empty reply (the
 * protocol's "not supported").  docs/gdbstub.md lists what is supported.
 *
 * Run control (what c/s/k/D do to the guest) is server.c's: handlers only
 * return the GdbResume gdb asked for.
 */
#include <string.h>

#include "gdbstub/gdbstub-internal.h"
#include "gdbstub/regs.h"
#include "hw/core/guest-memory.h"
#include "tcg/exec.h"

/* The one thread: the CPU (thread ids 1 and "any"/"all"). */
#define GDB_THREAD_ID 1
/* Breakpoints a debugger may set (a bad client cannot exhaust memory). */
#define GDB_MAX_BREAKPOINTS 65536
/* Largest m reply: two hex digits per byte. */
#define GDB_MAX_READ (GDB_MAX_PACKET / 2)
/* Largest qXfer chunk: escaping can double the bytes. */
#define GDB_MAX_XFER ((GDB_MAX_PACKET - 1) / 2)
#define HEX_PER_BYTE 2
/* Bound of the register table (regs.c has fewer). */
#define GDB_MAX_REGS 128

/* The triples lldb is told (qHostInfo): no operating system for linx-user
 * either.  With "linux" lldb 14 takes its Linux loader, which leaves the
 * program's module unloaded (without qXfer:auxv) or sets a breakpoint at
 * the entry the guest is stopped at and runs on (with it), and reads stop
 * signals as Linux numbers (the protocol's are gdb's: SIGBUS is 10); an
 * OS-less triple gets the static loader and gdb's signal numbering
 * (decisions.md G10). */
#define GDB_TRIPLE_USER "riscv64-unknown-elf"
#define GDB_TRIPLE_SYSTEM "riscv64-unknown-none-elf"

static const char supported_reply[] = "PacketSize=4000;qXfer:features:read+;swbreak+;hwbreak+;"
                                      "vContSupported+;QStartNoAckMode+";
_Static_assert(GDB_MAX_PACKET == 0x4000, "PacketSize in supported_reply");

/* ---- Signals ---- */

int gdb_signal_of_trap(uint64_t trapno)
{
    switch (linx_trapno_num(trapno)) {
    case LINX_TRAP_DATA_PAGE_FAULT:
    case LINX_TRAP_INST_PAGE_FAULT:
    case LINX_TRAP_INST_PC_FAULT:
        return GDB_SIGNAL_SEGV;
    case LINX_TRAP_DATA_ALIGN_FAULT:
        return GDB_SIGNAL_BUS;
    case LINX_TRAP_SW_BREAKPOINT:
    case LINX_TRAP_HW_BREAKPOINT:
    case LINX_TRAP_HW_WATCHPOINT:
        return GDB_SIGNAL_TRAP;
    default:
        return GDB_SIGNAL_ILL; /* illegal instruction, block errors, acrc, ASSERT */
    }
}

/* Linux (asm-generic) signal number -> gdb signal number. */
static const uint8_t linux_to_gdb[] = {
    [1] = 1,   [2] = 2,   [3] = 3,   [4] = 4,   [5] = 5,   [6] = 6,   [7] = 10,
    [8] = 8,   [9] = 9,   [10] = 30, [11] = 11, [12] = 31, [13] = 13, [14] = 14,
    [15] = 15, [17] = 20, [18] = 19, [19] = 17, [20] = 18, [21] = 21, [22] = 22,
    [23] = 16, [24] = 24, [25] = 25, [26] = 26, [27] = 27, [28] = 28, [29] = 23,
    [30] = 32, [31] = 12,
};

int gdb_signal_of_linux(int sig)
{
    if (sig <= 0 || (size_t)sig >= sizeof(linux_to_gdb) || !linux_to_gdb[sig]) {
        return GDB_SIGNAL_UNKNOWN; /* SIGSTKFLT, real-time signals */
    }
    return linux_to_gdb[sig];
}

/* ---- Parsing ---- */

/* "ADDR,LEN" followed by @end (':' or NUL); *rest points after @end. */
static bool parse_addr_len(const char *p, char end, uint64_t *addr, uint64_t *len,
                           const char **rest)
{
    if (!gdb_parse_hex(&p, addr) || *p++ != ',' || !gdb_parse_hex(&p, len) || *p != end) {
        return false;
    }
    if (rest) {
        *rest = end ? p + 1 : p;
    }
    return true;
}

/* A thread id we accept: 1, 0 ("any"), -1 ("all"), optionally "p1." first. */
static bool thread_ok(const char *p)
{
    uint64_t id;

    if (p[0] == 'p') {
        p++;
        if (!gdb_parse_hex(&p, &id) || id != GDB_THREAD_ID) {
            return false;
        }
        if (*p == 0) {
            return true;
        }
        if (*p++ != '.') {
            return false;
        }
    }
    if (!strcmp(p, "-1")) {
        return true;
    }
    return gdb_parse_hex(&p, &id) && *p == 0 && id <= GDB_THREAD_ID;
}

/* ---- Registers ---- */

/* Register @n in a reply: its value, or 'x' digits ("unavailable") for
 * the compat description's padding registers. */
static void append_reg(GdbStub *s, CPULinxState *env, unsigned n)
{
    if (gdb_reg_is_padding(n)) {
        g_string_append(s->reply, "xxxxxxxxxxxxxxxx");
    } else {
        gdb_hex_append_le64(s->reply, gdb_reg_read(env, n));
    }
}

static void cmd_read_registers(GdbStub *s, CPULinxState *env)
{
    g_string_truncate(s->reply, 0);
    for (unsigned n = 0; n < gdb_reg_count(s->cfg.tdesc); n++) {
        append_reg(s, env, n);
    }
    gdb_send_reply(s);
}

static void cmd_write_registers(GdbStub *s, CPULinxState *env, const char *p, size_t len)
{
    const size_t digits = GDB_REG_BYTES * HEX_PER_BYTE;
    size_t n = len / digits;
    uint64_t v[GDB_MAX_REGS];

    if (len % digits || n > gdb_reg_count(s->cfg.tdesc) || n > GDB_MAX_REGS) {
        gdb_reply_str(s, GDB_ERR_INVAL);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (gdb_reg_is_padding((unsigned)i)) {
            v[i] = 0; /* sent back as 'x' digits or anything: ignored */
        } else if (!gdb_parse_le64(p + i * digits, &v[i])) {
            gdb_reply_str(s, GDB_ERR_INVAL);
            return;
        }
    }
    /* Read-only registers keep their value (gdb sends them all back). */
    for (size_t i = 0; i < n; i++) {
        gdb_reg_write(env, (unsigned)i, v[i]);
    }
    gdb_reply_str(s, "OK");
}

static void cmd_read_register(GdbStub *s, CPULinxState *env, const char *p)
{
    uint64_t n;

    if (!gdb_parse_hex(&p, &n) || *p || n >= gdb_reg_count(s->cfg.tdesc)) {
        gdb_reply_str(s, GDB_ERR_INVAL);
        return;
    }
    g_string_truncate(s->reply, 0);
    append_reg(s, env, (unsigned)n);
    gdb_send_reply(s);
}

static void cmd_write_register(GdbStub *s, CPULinxState *env, const char *p)
{
    uint64_t n, v;

    if (!gdb_parse_hex(&p, &n) || *p++ != '=' || n >= gdb_reg_count(s->cfg.tdesc) ||
        strlen(p) != GDB_REG_BYTES * HEX_PER_BYTE || !gdb_parse_le64(p, &v)) {
        gdb_reply_str(s, GDB_ERR_INVAL);
        return;
    }
    gdb_reply_str(s, gdb_reg_write(env, (unsigned)n, v) ? "OK" : GDB_ERR_INVAL);
}

/* ---- Memory ---- */

static void cmd_read_memory(GdbStub *s, CPULinxState *env, const char *p)
{
    uint64_t addr, len, done = 0;
    uint8_t buf[GUEST_PAGE_SIZE];

    if (!parse_addr_len(p, 0, &addr, &len, NULL)) {
        gdb_reply_str(s, GDB_ERR_INVAL);
        return;
    }
    if (len > GDB_MAX_READ) {
        len = GDB_MAX_READ; /* gdb asks again for the rest */
    }
    g_string_truncate(s->reply, 0);
    /* Page by page, so a range running into unmapped memory returns the
     * readable part (the protocol allows a short read). */
    while (done < len && env->engine.mem) {
        uint64_t a = addr + done;
        uint64_t n = MIN(len - done, GUEST_PAGE_SIZE - (a & ~GUEST_PAGE_MASK));
        if (a < addr || guest_mem_debug_rw(env->engine.mem, a, buf, n, false) != GM_OK) {
            break;
        }
        gdb_hex_append(s->reply, buf, n);
        done += n;
    }
    if (done == 0 && len != 0) {
        gdb_reply_str(s, GDB_ERR_FAULT);
        return;
    }
    gdb_send_reply(s);
}

static void write_memory(GdbStub *s, CPULinxState *env, uint64_t addr, const uint8_t *data,
                         uint64_t len)
{
    if (len == 0) {
        gdb_reply_str(s, "OK");
        return;
    }
    if (!env->engine.mem ||
        guest_mem_debug_rw(env->engine.mem, addr, (void *)data, len, true) != GM_OK) {
        gdb_reply_str(s, GDB_ERR_FAULT);
        return;
    }
    /* The debugger's own writes never trigger a watchpoint. */
    gdb_watch_refresh(s, env);
    gdb_reply_str(s, "OK");
}

/* M addr,len:hex */
static void cmd_write_memory_hex(GdbStub *s, CPULinxState *env, const char *p, size_t plen)
{
    uint64_t addr, len;
    const char *data;

    if (!parse_addr_len(p, ':', &addr, &len, &data) || len > plen ||
        (size_t)(p + plen - data) != len * HEX_PER_BYTE) {
        gdb_reply_str(s, GDB_ERR_INVAL);
        return;
    }
    uint8_t *buf = g_malloc(len ? len : 1);
    if (!gdb_hex_decode(data, buf, len)) {
        gdb_reply_str(s, GDB_ERR_INVAL);
    } else {
        write_memory(s, env, addr, buf, len);
    }
    g_free(buf);
}

/* X addr,len:binary (the packet layer already removed the escapes) */
static void cmd_write_memory_bin(GdbStub *s, CPULinxState *env, const char *p, size_t plen)
{
    uint64_t addr, len;
    const char *data;

    if (!parse_addr_len(p, ':', &addr, &len, &data) || (size_t)(p + plen - data) != len) {
        gdb_reply_str(s, GDB_ERR_INVAL);
        return;
    }
    write_memory(s, env, addr, (const uint8_t *)data, len);
}

/* ---- Breakpoints and watchpoints ---- */

bool gdb_bp_at(const GdbStub *s, uint64_t pc, bool *hw)
{
    gpointer v = g_hash_table_lookup(s->bps, &pc);

    if (!v) {
        return false;
    }
    if (hw) {
        *hw = GPOINTER_TO_INT(v) - 1 == GDB_BP_HW;
    }
    return true;
}

void gdb_bp_remove_all(GdbStub *s)
{
    GHashTableIter it;
    gpointer key;

    g_hash_table_iter_init(&it, s->bps);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        if (s->env && s->env->engine.exec) {
            linx_exec_breakpoint_remove(s->env->engine.exec, *(uint64_t *)key);
        }
    }
    g_hash_table_remove_all(s->bps);
}

static const char *bp_insert(GdbStub *s, CPULinxState *env, unsigned type, uint64_t addr)
{
    uint64_t *key;

    if (!env->engine.exec) {
        return GDB_ERR_INVAL;
    }
    /* Breakpoints are checked at instruction starts: one inside an
     * instruction would never stop.  Refused, so the client says it could
     * not insert it (gdb's riscv:rv64 prologue analyser, run on Linx bytes
     * after `set architecture riscv:rv64`, lands inside instructions). */
    if (!gdb_insn_boundary(s, env, addr)) {
        return GDB_ERR_INVAL;
    }
    if (!gdb_bp_at(s, addr, NULL)) {
        if (g_hash_table_size(s->bps) >= GDB_MAX_BREAKPOINTS) {
            return GDB_ERR_NOSPC;
        }
        linx_exec_breakpoint_insert(env->engine.exec, addr);
    }
    key = g_new(uint64_t, 1);
    *key = addr;
    g_hash_table_replace(s->bps, key, GINT_TO_POINTER((int)type + 1));
    return "OK";
}

static const char *bp_remove(GdbStub *s, CPULinxState *env, uint64_t addr)
{
    if (g_hash_table_remove(s->bps, &addr) && env->engine.exec) {
        linx_exec_breakpoint_remove(env->engine.exec, addr);
    }
    return "OK"; /* removing an unknown breakpoint is not an error */
}

static void watch_read(CPULinxState *env, GdbWatch *w)
{
    w->readable = env->engine.mem &&
                  guest_mem_debug_rw(env->engine.mem, w->addr, w->old, w->len, false) == GM_OK;
}

void gdb_watch_refresh(GdbStub *s, CPULinxState *env)
{
    for (unsigned i = 0; i < s->nwatch; i++) {
        watch_read(env, &s->watch[i]);
    }
}

const GdbWatch *gdb_watch_check(GdbStub *s, CPULinxState *env)
{
    uint8_t now[GDB_MAX_WATCH_LEN];
    const GdbWatch *hit = NULL;

    for (unsigned i = 0; i < s->nwatch; i++) {
        GdbWatch *w = &s->watch[i];
        bool readable = env->engine.mem &&
                        guest_mem_debug_rw(env->engine.mem, w->addr, now, w->len, false) == GM_OK;
        if (readable != w->readable || (readable && memcmp(now, w->old, w->len) != 0)) {
            if (!hit) {
                hit = w;
            }
            w->readable = readable;
            if (readable) {
                memcpy(w->old, now, w->len);
            }
        }
    }
    return hit;
}

void gdb_watch_remove_all(GdbStub *s)
{
    for (unsigned i = 0; i < s->nwatch; i++) {
        g_free(s->watch[i].old);
    }
    s->nwatch = 0;
    s->watch_pending = false;
    if (s->env && s->env->engine.exec) {
        linx_exec_watch_remove_all(s->env->engine.exec);
    }
}

static const char *watch_insert(GdbStub *s, CPULinxState *env, uint64_t addr, uint64_t len)
{
    GdbWatch *w;

    if (len == 0 || len > GDB_MAX_WATCH_LEN || addr + len < addr) {
        return GDB_ERR_INVAL;
    }
    for (unsigned i = 0; i < s->nwatch; i++) {
        if (s->watch[i].addr == addr && s->watch[i].len == len) {
            return "OK";
        }
    }
    if (s->nwatch >= GDB_MAX_WATCHPOINTS) {
        return GDB_ERR_NOSPC;
    }
    /* Stores into it stop before they happen (tcg/exec.h); the byte
     * compare after each step catches writes made another way. */
    if (env->engine.exec && !linx_exec_watch_insert(env->engine.exec, addr, len)) {
        return GDB_ERR_NOSPC;
    }
    w = &s->watch[s->nwatch++];
    w->addr = addr;
    w->len = len;
    w->old = g_malloc(len);
    watch_read(env, w);
    return "OK";
}

static const char *watch_remove(GdbStub *s, CPULinxState *env, uint64_t addr, uint64_t len)
{
    for (unsigned i = 0; i < s->nwatch; i++) {
        if (s->watch[i].addr == addr && s->watch[i].len == len) {
            if (env->engine.exec) {
                linx_exec_watch_remove(env->engine.exec, addr, len);
            }
            g_free(s->watch[i].old);
            s->watch[i] = s->watch[--s->nwatch];
            break;
        }
    }
    return "OK";
}

/* Z/z type,addr,kind[;cond...] */
static void cmd_breakpoint(GdbStub *s, CPULinxState *env, const char *p, bool insert)
{
    uint64_t type, addr, kind;

    if (!gdb_parse_hex(&p, &type) || *p++ != ',' || !gdb_parse_hex(&p, &addr) ||
        *p++ != ',' || !gdb_parse_hex(&p, &kind) || (*p && *p != ';')) {
        gdb_reply_str(s, GDB_ERR_INVAL);
        return;
    }
    switch (type) {
    case GDB_BP_SW:
    case GDB_BP_HW:
        gdb_reply_str(s, insert ? bp_insert(s, env, (unsigned)type, addr) : bp_remove(s, env, addr));
        return;
    case GDB_WP_WRITE:
        gdb_reply_str(s, insert ? watch_insert(s, env, addr, kind) : watch_remove(s, env, addr, kind));
        return;
    default:
        /* Read and access watchpoints need a memory-access hook the engine
         * does not have: not supported (gdb says so). */
        gdb_reply_str(s, "");
        return;
    }
}

/* ---- Resuming ---- */

/* c [addr] / s [addr] */
static GdbResume cmd_resume(GdbStub *s, CPULinxState *env, const char *p, GdbResume how,
                            int sig)
{
    uint64_t addr;

    if (*p) {
        if (!gdb_parse_hex(&p, &addr) || *p) {
            gdb_reply_str(s, GDB_ERR_INVAL);
            return GDB_RESUME_NONE;
        }
        gdb_set_pc(env, addr);
    }
    s->resume_signal = sig;
    return how;
}

/* C sig[;addr] / S sig[;addr] */
static GdbResume cmd_resume_signal(GdbStub *s, CPULinxState *env, const char *p, GdbResume how)
{
    uint64_t sig;

    if (!gdb_parse_hex(&p, &sig) || sig > UINT8_MAX || (*p && *p != ';')) {
        gdb_reply_str(s, GDB_ERR_INVAL);
        return GDB_RESUME_NONE;
    }
    return cmd_resume(s, env, *p ? p + 1 : p, how, (int)sig);
}

/* vCont;ACTION[:TID][;ACTION[:TID]]...: the first action for our thread. */
static GdbResume cmd_vcont(GdbStub *s, const char *p)
{
    while (*p == ';') {
        const char *act = ++p;
        const char *end = strchr(p, ';');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char item[64];
        char *colon;
        uint64_t sig = 0;
        const char *q;

        if (n >= sizeof(item)) {
            break;
        }
        memcpy(item, act, n);
        item[n] = 0;
        p += n;
        colon = strchr(item, ':');
        if (colon) {
            *colon = 0;
            if (!thread_ok(colon + 1)) {
                continue;
            }
        }
        q = item + 1;
        switch (item[0]) {
        case 'c':
        case 's':
            if (*q) {
                break;
            }
            s->resume_signal = 0;
            return item[0] == 'c' ? GDB_RESUME_CONTINUE : GDB_RESUME_STEP;
        case 'C':
        case 'S':
            if (!gdb_parse_hex(&q, &sig) || *q || sig > UINT8_MAX) {
                break;
            }
            s->resume_signal = (int)sig;
            return item[0] == 'C' ? GDB_RESUME_CONTINUE : GDB_RESUME_STEP;
        default:
            break;
        }
        break;
    }
    gdb_reply_str(s, GDB_ERR_INVAL);
    return GDB_RESUME_NONE;
}

/* ---- Queries ---- */

static void cmd_qsupported(GdbStub *s, const char *p)
{
    s->client_swbreak = strstr(p, "swbreak+") != NULL;
    s->client_hwbreak = strstr(p, "hwbreak+") != NULL;
    g_string_assign(s->reply, supported_reply);
    if (s->auxv) {
        g_string_append(s->reply, ";qXfer:auxv:read+");
    }
    gdb_send_reply(s);
}

/* A qXfer read reply: the part of @data at [off, off + len) as "m" (more
 * follows) or "l" (the last part). */
static void xfer_reply(GdbStub *s, const char *data, size_t size, uint64_t off, uint64_t len)
{
    if (len > GDB_MAX_XFER) {
        len = GDB_MAX_XFER;
    }
    if (off >= size) {
        gdb_reply_str(s, "l");
    } else {
        size_t n = (size_t)MIN(len, size - off);
        GString *b = g_string_new(off + n < size ? "m" : "l");
        g_string_append_len(b, data + off, (gssize)n);
        gdb_send_binary(s, (const uint8_t *)b->str, b->len);
        g_string_free(b, TRUE);
    }
}

/* qXfer:features:read:ANNEX:OFFSET,LENGTH */
static void cmd_qxfer_features(GdbStub *s, const char *p)
{
    const char *colon = strchr(p, ':');
    uint64_t off, len;
    char annex[64];
    char *xml;

    if (!colon || (size_t)(colon - p) >= sizeof(annex) ||
        !parse_addr_len(colon + 1, 0, &off, &len, NULL)) {
        gdb_reply_str(s, "E00");
        return;
    }
    memcpy(annex, p, (size_t)(colon - p));
    annex[colon - p] = 0;
    xml = gdb_xml_annex(s->cfg.tdesc, annex);
    if (!xml) {
        gdb_reply_str(s, "E00");
        return;
    }
    xfer_reply(s, xml, strlen(xml), off, len);
    g_free(xml);
}

/* qXfer:auxv:read::OFFSET,LENGTH (linx-user: the process's auxiliary
 * vector, which lldb's and gdb's Linux code read for the entry point). */
static void cmd_qxfer_auxv(GdbStub *s, const char *p)
{
    uint64_t off, len;

    if (!s->auxv || p[0] != ':' || !parse_addr_len(p + 1, 0, &off, &len, NULL)) {
        gdb_reply_str(s, "E00");
        return;
    }
    xfer_reply(s, (const char *)s->auxv, s->auxv_len, off, len);
}

/* qRcmd,HEX */
static void cmd_qrcmd(GdbStub *s, CPULinxState *env, const char *p)
{
    size_t n = strlen(p);
    char *cmd;

    if (n % HEX_PER_BYTE) {
        gdb_reply_str(s, GDB_ERR_INVAL);
        return;
    }
    cmd = g_malloc(n / HEX_PER_BYTE + 1);
    if (!gdb_hex_decode(p, (uint8_t *)cmd, n / HEX_PER_BYTE) ||
        memchr(cmd, 0, n / HEX_PER_BYTE)) {
        gdb_reply_str(s, GDB_ERR_INVAL);
    } else {
        cmd[n / HEX_PER_BYTE] = 0;
        gdb_reply_str(s, gdb_monitor_command(s, env, cmd));
    }
    g_free(cmd);
}

/* lldb's host description.  lldb 14 uses a target description only for
 * an architecture it knows (docs/gdbstub.md): the triple says riscv64 in
 * both descriptions.
 * Watchpoints report before the access (run.c), which lldb must be told,
 * or it re-enables the watchpoint without stepping and hits it forever. */
static void cmd_qhostinfo(GdbStub *s)
{
    const char *triple = s->cfg.mode == GDB_MODE_SYSTEM ? GDB_TRIPLE_SYSTEM : GDB_TRIPLE_USER;

    g_string_assign(s->reply, "triple:");
    gdb_hex_append(s->reply, (const uint8_t *)triple, strlen(triple));
    g_string_append(s->reply, ";endian:little;ptrsize:8;watchpoint_exceptions_received:before;");
    gdb_send_reply(s);
}

static void cmd_query(GdbStub *s, CPULinxState *env, const char *p)
{
    const char *rest;

    if ((rest = gdb_skip_prefix(p, "qSupported"))) {
        cmd_qsupported(s, rest);
    } else if ((rest = gdb_skip_prefix(p, "qXfer:features:read:"))) {
        cmd_qxfer_features(s, rest);
    } else if ((rest = gdb_skip_prefix(p, "qXfer:auxv:read:"))) {
        cmd_qxfer_auxv(s, rest);
    } else if (!strcmp(p, "qAttached") || gdb_skip_prefix(p, "qAttached:")) {
        gdb_reply_str(s, "1");
    } else if (!strcmp(p, "qC")) {
        gdb_reply_str(s, "QC1");
    } else if (!strcmp(p, "qfThreadInfo")) {
        gdb_reply_str(s, "m1");
    } else if (!strcmp(p, "qsThreadInfo")) {
        gdb_reply_str(s, "l");
    } else if (gdb_skip_prefix(p, "qThreadExtraInfo,")) {
        static const char info[] = "LinxISA CPU 0";
        g_string_truncate(s->reply, 0);
        gdb_hex_append(s->reply, (const uint8_t *)info, sizeof(info) - 1);
        gdb_send_reply(s);
    } else if (!strcmp(p, "qSymbol::")) {
        gdb_reply_str(s, "OK");
    } else if ((rest = gdb_skip_prefix(p, "qRcmd,"))) {
        cmd_qrcmd(s, env, rest);
    } else if (!strcmp(p, "qHostInfo")) {
        cmd_qhostinfo(s);
    } else if (!strcmp(p, "qWatchpointSupportInfo") ||
               gdb_skip_prefix(p, "qWatchpointSupportInfo:")) {
        g_string_printf(s->reply, "num:%u;", GDB_MAX_WATCHPOINTS);
        gdb_send_reply(s);
    } else {
        gdb_reply_str(s, "");
    }
}

static GdbResume cmd_v(GdbStub *s, const char *p)
{
    if (!strcmp(p, "vCont?")) {
        gdb_reply_str(s, "vCont;c;C;s;S");
    } else if (gdb_skip_prefix(p, "vCont;")) {
        return cmd_vcont(s, p + strlen("vCont"));
    } else if (gdb_skip_prefix(p, "vKill")) {
        gdb_reply_str(s, "OK");
        return GDB_RESUME_KILL;
    } else {
        gdb_reply_str(s, ""); /* vMustReplyEmpty, vRun, vAttach, vFile, ... */
    }
    return GDB_RESUME_NONE;
}

GdbResume gdb_handle_packet(GdbStub *s, CPULinxState *env, const char *pkt, size_t len,
                            bool running)
{
    GdbResume r = GDB_RESUME_NONE;

    if (len == 0) {
        gdb_reply_str(s, "");
        return r;
    }
    switch (pkt[0]) {
    case '?':
        gdb_format_stop_reply(s);
        gdb_send_reply(s);
        break;
    case 'g':
        cmd_read_registers(s, env);
        break;
    case 'G':
        cmd_write_registers(s, env, pkt + 1, len - 1);
        break;
    case 'p':
        cmd_read_register(s, env, pkt + 1);
        break;
    case 'P':
        cmd_write_register(s, env, pkt + 1);
        break;
    case 'm':
        cmd_read_memory(s, env, pkt + 1);
        break;
    case 'M':
        cmd_write_memory_hex(s, env, pkt + 1, len - 1);
        break;
    case 'X':
        cmd_write_memory_bin(s, env, pkt + 1, len - 1);
        break;
    case 'c':
        r = cmd_resume(s, env, pkt + 1, GDB_RESUME_CONTINUE, 0);
        break;
    case 's':
        r = cmd_resume(s, env, pkt + 1, GDB_RESUME_STEP, 0);
        break;
    case 'C':
        r = cmd_resume_signal(s, env, pkt + 1, GDB_RESUME_CONTINUE);
        break;
    case 'S':
        r = cmd_resume_signal(s, env, pkt + 1, GDB_RESUME_STEP);
        break;
    case 'Z':
    case 'z':
        cmd_breakpoint(s, env, pkt + 1, pkt[0] == 'Z');
        break;
    case 'H':
        gdb_reply_str(s, (pkt[1] == 'g' || pkt[1] == 'c') && thread_ok(pkt + 2) ? "OK"
                                                                               : GDB_ERR_INVAL);
        break;
    case 'T':
        gdb_reply_str(s, thread_ok(pkt + 1) ? "OK" : GDB_ERR_INVAL);
        break;
    case 'k':
        /* lldb waits for an answer ("failed to send the k packet"
         * otherwise): the process was killed by SIGKILL. */
        gdb_reply_str(s, "X09");
        r = GDB_RESUME_KILL;
        break;
    case 'D':
        gdb_reply_str(s, "OK");
        r = GDB_RESUME_DETACH;
        break;
    case 'q':
        cmd_query(s, env, pkt);
        break;
    case 'Q':
        if (!strcmp(pkt, "QStartNoAckMode")) {
            gdb_reply_str(s, "OK");
            s->no_ack = true;
        } else {
            gdb_reply_str(s, "");
        }
        break;
    case 'v':
        r = cmd_v(s, pkt);
        break;
    default:
        gdb_reply_str(s, "");
        break;
    }
    if (running && (r == GDB_RESUME_CONTINUE || r == GDB_RESUME_STEP)) {
        r = GDB_RESUME_NONE; /* already running */
    }
    return r;
}
