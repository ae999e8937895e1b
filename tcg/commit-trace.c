/*
 * Buffered JSON Lines writer for the commit trace (commit-trace.h).
 *
 * Formatting is hand-rolled (decimal digits, JSON string escaping) into
 * a fixed buffer; a record never needs more than COMMIT_TRACE_MAX_LINE
 * bytes beyond its two strings, so the buffer is drained before each
 * record when less than that is left.  Long strings are written in
 * pieces.  Write errors are remembered and reported by flush/close.
 */
#include "tcg/commit-trace.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define COMMIT_TRACE_BUF_SIZE (64 * 1024)
/* Upper bound of one record without its strings: 31 keys, 31 numbers of
 * at most 20 digits plus sign, punctuation. */
#define COMMIT_TRACE_MAX_LINE 1536

struct LinxCommitTrace {
    int fd;
    bool own_fd;
    bool error;
    uint64_t count;
    uint64_t limit; /* records after which writes are dropped */
    size_t used;
    char buf[COMMIT_TRACE_BUF_SIZE];
};

static LinxCommitTrace *trace_new(int fd, bool own)
{
    LinxCommitTrace *t = g_new0(LinxCommitTrace, 1);

    t->fd = fd;
    t->own_fd = own;
    t->limit = UINT64_MAX;
    return t;
}

LinxCommitTrace *linx_commit_trace_open(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

    if (fd < 0) {
        snprintf(err, errlen, "commit trace: cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    return trace_new(fd, true);
}

LinxCommitTrace *linx_commit_trace_open_fd(int fd)
{
    return trace_new(fd, false);
}

bool linx_commit_trace_flush(LinxCommitTrace *t)
{
    size_t off = 0;

    while (off < t->used) {
        ssize_t n = write(t->fd, t->buf + off, t->used - off);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            t->error = true;
            break;
        }
        off += (size_t)n;
    }
    t->used = 0;
    return !t->error;
}

bool linx_commit_trace_close(LinxCommitTrace *t)
{
    bool ok;

    if (!t) {
        return true;
    }
    ok = linx_commit_trace_flush(t);
    if (t->own_fd && close(t->fd) != 0) {
        ok = false;
    }
    g_free(t);
    return ok;
}

uint64_t linx_commit_trace_count(const LinxCommitTrace *t)
{
    return t->count;
}

void linx_commit_trace_stop_after(LinxCommitTrace *t, uint64_t n)
{
    t->limit = n > UINT64_MAX - t->count ? UINT64_MAX : t->count + n;
}

static void put_raw(LinxCommitTrace *t, const char *s, size_t n)
{
    while (n) {
        size_t room = COMMIT_TRACE_BUF_SIZE - t->used;
        size_t k = n < room ? n : room;
        memcpy(t->buf + t->used, s, k);
        t->used += k;
        s += k;
        n -= k;
        if (t->used == COMMIT_TRACE_BUF_SIZE) {
            linx_commit_trace_flush(t);
        }
    }
}

static void put_key(LinxCommitTrace *t, const char *key)
{
    /* ,"key": */
    size_t n = strlen(key);

    t->buf[t->used++] = ',';
    t->buf[t->used++] = '"';
    memcpy(t->buf + t->used, key, n);
    t->used += n;
    t->buf[t->used++] = '"';
    t->buf[t->used++] = ':';
}

static void put_u64(LinxCommitTrace *t, uint64_t v)
{
    char tmp[20];
    int n = 0;

    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) {
        t->buf[t->used++] = tmp[--n];
    }
}

static void put_i64(LinxCommitTrace *t, int64_t v)
{
    if (v < 0) {
        t->buf[t->used++] = '-';
        put_u64(t, (uint64_t)0 - (uint64_t)v);
    } else {
        put_u64(t, (uint64_t)v);
    }
}

static void field_u64(LinxCommitTrace *t, const char *key, uint64_t v)
{
    put_key(t, key);
    put_u64(t, v);
}

/* A JSON string, escaped.  Keeps the buffer invariant: at most
 * COMMIT_TRACE_MAX_LINE bytes are still needed after it. */
static void put_string(LinxCommitTrace *t, const char *s)
{
    static const char hex[] = "0123456789abcdef";

    put_raw(t, "\"", 1);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[6];
        size_t n = 0;
        if (c == '"' || c == '\\') {
            esc[n++] = '\\';
            esc[n++] = (char)c;
        } else if (c == '\n' || c == '\t' || c == '\r') {
            esc[n++] = '\\';
            esc[n++] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
        } else if (c < 0x20) {
            esc[n++] = '\\';
            esc[n++] = 'u';
            esc[n++] = '0';
            esc[n++] = '0';
            esc[n++] = hex[c >> 4];
            esc[n++] = hex[c & 15];
        } else {
            esc[n++] = (char)c;
        }
        put_raw(t, esc, n);
    }
    put_raw(t, "\"", 1);
    if (COMMIT_TRACE_BUF_SIZE - t->used < COMMIT_TRACE_MAX_LINE) {
        linx_commit_trace_flush(t);
    }
}

void linx_commit_trace_write(LinxCommitTrace *t, const LinxCommitRecord *r)
{
    if (t->count >= t->limit) {
        return;
    }
    if (COMMIT_TRACE_BUF_SIZE - t->used < COMMIT_TRACE_MAX_LINE) {
        linx_commit_trace_flush(t);
    }
    bool first = t->count == 0;
    put_raw(t, "{\"cycle\":", 9);
    put_u64(t, t->count++);
    field_u64(t, "pc", r->pc);
    field_u64(t, "insn", r->insn);
    field_u64(t, "len", r->len);
    field_u64(t, "wb_valid", r->wb_valid);
    field_u64(t, "wb_rd", r->wb_rd);
    field_u64(t, "wb_data", r->wb_data);
    field_u64(t, "src0_valid", r->src0_valid);
    field_u64(t, "src0_reg", r->src0_reg);
    field_u64(t, "src0_data", r->src0_data);
    field_u64(t, "src1_valid", r->src1_valid);
    field_u64(t, "src1_reg", r->src1_reg);
    field_u64(t, "src1_data", r->src1_data);
    field_u64(t, "dst_valid", r->dst_valid);
    field_u64(t, "dst_reg", r->dst_reg);
    field_u64(t, "dst_data", r->dst_data);
    field_u64(t, "mem_valid", r->mem_valid);
    field_u64(t, "mem_is_store", r->mem_is_store);
    field_u64(t, "mem_addr", r->mem_addr);
    field_u64(t, "mem_wdata", r->mem_wdata);
    field_u64(t, "mem_rdata", r->mem_rdata);
    field_u64(t, "mem_size", r->mem_size);
    field_u64(t, "trap_valid", r->trap_valid);
    field_u64(t, "trap_cause", r->trap_cause);
    put_key(t, "block_kind");
    put_string(t, r->block_kind ? r->block_kind : "scalar");
    put_key(t, "lane_id");
    put_i64(t, r->lane_id);
    put_key(t, "tile_meta");
    put_string(t, r->tile_meta ? r->tile_meta : "");
    field_u64(t, "tile_ref_src", r->tile_ref_src);
    field_u64(t, "tile_ref_dst", r->tile_ref_dst);
    field_u64(t, "trapno_full", r->trapno_full);
    field_u64(t, "traparg0", r->traparg0);
    field_u64(t, "next_pc", r->next_pc);
    if (first && r->isa_profile) {
        put_key(t, "isa_profile");
        put_string(t, r->isa_profile);
    }
    t->buf[t->used++] = '}';
    t->buf[t->used++] = '\n';
}
