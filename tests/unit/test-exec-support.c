/*
 * Tests of the exec layer's support pieces: the W^X code buffer (double
 * mapping, builder discipline, overflow, reset keeping the prologue), -d
 * parsing and -D, engine option parsing, and the commit-trace writer
 * (exact peer field order, escaping, buffering across many records).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "tcg/code-buffer.h"
#include "tcg/commit-trace.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"
#include "tcg/log.h"

/* Permissions of the mapping holding @p, from /proc/self/maps ("r-xs"). */
static bool mapping_perms(const void *p, char perms[5])
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    bool found = false;

    if (!f) {
        return false;
    }
    while (fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        char pr[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, pr) == 3 && (uintptr_t)p >= lo &&
            (uintptr_t)p < hi) {
            memcpy(perms, pr, 5);
            found = true;
            break;
        }
    }
    fclose(f);
    return found;
}

static void test_code_buffer_wx(void **state)
{
    CodeBuffer cb;
    char rw[5], rx[5];
    const uint8_t *code;

    assert_true(code_buffer_init(&cb, 100000));
    assert_int_equal(cb.size % 4096, 0);
    assert_true(cb.size >= 100000);
    assert_true(mapping_perms(cb.rw, rw));
    assert_true(mapping_perms(cb.rx, rx));
    /* Never writable and executable at once. */
    assert_int_equal(rw[1], 'w');
    assert_int_equal(rw[2], '-');
    assert_int_equal(rx[1], '-');
    assert_int_equal(rx[2], 'x');

    /* Bytes written through the RW view appear at the RX view. */
    code_buffer_begin(&cb);
    assert_true(code_buffer_emit8(&cb, 0xc3));
    assert_true(code_buffer_emit32(&cb, 0x11223344));
    assert_int_equal(code_buffer_offset(&cb), 5);
    code = code_buffer_commit(&cb);
    assert_ptr_equal(code, cb.rx);
    assert_int_equal(code[0], 0xc3);
    assert_int_equal(code[1], 0x44);
    assert_int_equal(cb.used % CODE_BUFFER_ALIGN, 0);
    assert_ptr_equal(code_buffer_rw(&cb, code), cb.rw);
    assert_ptr_equal(code_buffer_rx(&cb, cb.rw + 3), cb.rx + 3);
    code_buffer_destroy(&cb);
}

static void test_code_buffer_builder(void **state)
{
    CodeBuffer cb;
    uint8_t big[8192];
    size_t used;

    memset(big, 0x90, sizeof(big));
    assert_true(code_buffer_init(&cb, 4096));
    /* A prologue kept across resets. */
    code_buffer_begin(&cb);
    code_buffer_emit(&cb, big, 100);
    assert_non_null(code_buffer_commit(&cb));
    code_buffer_set_reserved(&cb);
    used = cb.used;

    /* Abandon: nothing kept. */
    code_buffer_begin(&cb);
    code_buffer_emit(&cb, big, 50);
    code_buffer_abandon(&cb);
    assert_int_equal(cb.used, used);

    /* Overflow: every later append fails, commit gives NULL. */
    code_buffer_begin(&cb);
    assert_false(code_buffer_emit(&cb, big, sizeof(big)));
    assert_true(code_buffer_overflowed(&cb));
    assert_true(code_buffer_emit8(&cb, 1) || true);
    assert_null(code_buffer_commit(&cb));
    assert_int_equal(cb.used, used);
    assert_false(code_buffer_overflowed(&cb));

    /* Fill exactly to the end, then one byte more fails. */
    code_buffer_begin(&cb);
    assert_true(code_buffer_emit(&cb, big, code_buffer_room(&cb)));
    assert_false(code_buffer_emit8(&cb, 0));
    code_buffer_abandon(&cb);

    /* Reset keeps the prologue. */
    code_buffer_begin(&cb);
    code_buffer_emit(&cb, big, 200);
    code_buffer_commit(&cb);
    assert_true(cb.used > used);
    code_buffer_reset(&cb);
    assert_int_equal(cb.used, used);
    code_buffer_destroy(&cb);
}

/* Is the page of @p mapped in this process's page tables (pagemap bit
 * 63)?  -1 when pagemap cannot be read. */
static int page_present(const void *p)
{
    uint64_t e = 0;
    int fd = open("/proc/self/pagemap", O_RDONLY);
    off_t off = (off_t)((uintptr_t)p / 4096 * 8);
    ssize_t n = fd >= 0 ? pread(fd, &e, sizeof(e), off) : -1;

    if (fd >= 0) {
        close(fd);
    }
    return n == (ssize_t)sizeof(e) ? (int)(e >> 63) : -1;
}

/* code_buffer_populate: steps of 32 KiB doubling up to 256 KiB, never
 * past the end; the pages of [0, populated) present in both views
 * before anything touched them (where the host has MADV_POPULATE_*). */
static void test_code_buffer_populate(void **state)
{
    CodeBuffer cb;
    const size_t k = 1024;

    assert_true(code_buffer_init(&cb, 1024 * k));
    assert_int_equal(cb.populated, 0);
    code_buffer_populate(&cb, 1);
    assert_int_equal(cb.populated, 32 * k);
    if (page_present(cb.rw) >= 0 &&
        madvise(cb.rw + 64 * k, 4096, 22 /* MADV_POPULATE_READ */) == 0) {
        for (size_t off = 0; off < 32 * k; off += 4096) {
            assert_int_equal(page_present(cb.rw + off), 1);
            assert_int_equal(page_present(cb.rx + off), 1);
        }
        assert_int_equal(page_present(cb.rx + 32 * k), 0);
        assert_int_equal(page_present(cb.rw + 40 * k), 0);
    }
    code_buffer_populate(&cb, 32 * k); /* already there */
    assert_int_equal(cb.populated, 32 * k);
    code_buffer_populate(&cb, 32 * k + 1);
    assert_int_equal(cb.populated, 64 * k);
    code_buffer_populate(&cb, 64 * k + 1);
    assert_int_equal(cb.populated, 128 * k);
    code_buffer_populate(&cb, 128 * k + 1);
    assert_int_equal(cb.populated, 256 * k);
    code_buffer_populate(&cb, 256 * k + 1);
    assert_int_equal(cb.populated, 512 * k); /* the step stays at 256 KiB */
    code_buffer_populate(&cb, 900 * k);      /* past one step: to the 32 KiB above */
    assert_int_equal(cb.populated, 928 * k);
    code_buffer_populate(&cb, 4096 * k);     /* never past the end */
    assert_int_equal(cb.populated, 1024 * k);
    /* A reset (flush) keeps the pages. */
    code_buffer_reset(&cb);
    assert_int_equal(cb.populated, 1024 * k);
    code_buffer_destroy(&cb);
}

static void test_log_mask(void **state)
{
    unsigned mask = 0;
    bool help = true;
    char err[128];

    assert_true(linx_log_parse_mask("in_asm,op,out_asm", &mask, &help, err, sizeof(err)));
    assert_false(help);
    assert_int_equal(mask, LINX_LOG_IN_ASM | LINX_LOG_OP | LINX_LOG_OUT_ASM);
    mask = 0;
    assert_true(linx_log_parse_mask("exec,cpu,int,op_opt,unimp,tile,nochain", &mask, NULL, err,
                                    sizeof(err)));
    assert_int_equal(mask, LINX_LOG_EXEC | LINX_LOG_CPU | LINX_LOG_INT | LINX_LOG_OP_OPT |
                           LINX_LOG_UNIMP | LINX_LOG_TILE | LINX_LOG_NOCHAIN);
    mask = 0;
    assert_true(linx_log_parse_mask("all", &mask, NULL, err, sizeof(err)));
    assert_true(mask & LINX_LOG_EXEC);
    /* "op" must not match "op_opt" by prefix, and unknown items fail. */
    mask = 0;
    assert_false(linx_log_parse_mask("in_asm,opx", &mask, NULL, err, sizeof(err)));
    assert_non_null(strstr(err, "'opx'"));
    assert_false(linx_log_parse_mask(NULL, &mask, NULL, err, sizeof(err)));
    /* Empty items are ignored. */
    mask = 0;
    assert_true(linx_log_parse_mask("int,,", &mask, NULL, err, sizeof(err)));
    assert_int_equal(mask, LINX_LOG_INT);
}

static void test_log_file(void **state)
{
    LinxLog log = LINX_LOG_INIT;
    char path[] = "/tmp/linxemu-log-XXXXXX";
    char err[128], buf[64] = "";
    int fd = mkstemp(path);
    FILE *f;

    assert_true(fd >= 0);
    close(fd);
    log.mask = LINX_LOG_INT;
    assert_true(linx_log_enabled(&log, LINX_LOG_INT));
    assert_false(linx_log_enabled(&log, LINX_LOG_EXEC));
    assert_false(linx_log_enabled(NULL, LINX_LOG_INT));
    assert_ptr_equal(linx_log_file(&log), stderr);
    assert_true(linx_log_open(&log, path, err, sizeof(err)));
    linx_log_printf(&log, "trap %d\n", 5);
    linx_log_close(&log);
    f = fopen(path, "r");
    assert_non_null(fgets(buf, sizeof(buf), f));
    fclose(f);
    unlink(path);
    assert_string_equal(buf, "trap 5\n");
    assert_false(linx_log_open(&log, "/nonexistent-dir/x", err, sizeof(err)));
    assert_non_null(strstr(err, "/nonexistent-dir/x"));
}

static void test_options(void **state)
{
    LinxExecOptions o;
    char err[128];
    char *argv[] = { "prog", "-accel", "interp", "--one-insn-per-tb", "-d", "in_asm,int",
                     "-D", "log.txt", "-trace-commit", "t.jsonl", "guest", "-accel",
                     "bogus", "-d", NULL };
    int argc = 14, i = 1;

    setenv("LINX_COMMIT_TRACE", "env.jsonl", 1);
    linx_exec_options_init(&o);
    unsetenv("LINX_COMMIT_TRACE");
    assert_string_equal(o.trace_commit_path, "env.jsonl");
    assert_int_equal(linx_exec_parse_option(&o, argc, argv, &i, err, sizeof(err)), 1);
    assert_int_equal(i, 3);
    assert_int_equal(o.accel, LINX_ACCEL_INTERP);
    assert_int_equal(linx_exec_parse_option(&o, argc, argv, &i, err, sizeof(err)), 1);
    assert_true(o.one_insn_per_tb);
    assert_int_equal(linx_exec_parse_option(&o, argc, argv, &i, err, sizeof(err)), 1);
    assert_int_equal(o.log_mask, LINX_LOG_IN_ASM | LINX_LOG_INT);
    assert_int_equal(linx_exec_parse_option(&o, argc, argv, &i, err, sizeof(err)), 1);
    assert_string_equal(o.log_path, "log.txt");
    assert_int_equal(linx_exec_parse_option(&o, argc, argv, &i, err, sizeof(err)), 1);
    assert_string_equal(o.trace_commit_path, "t.jsonl");
    assert_int_equal(i, 10);
    /* Not an engine option: untouched. */
    assert_int_equal(linx_exec_parse_option(&o, argc, argv, &i, err, sizeof(err)), 0);
    assert_int_equal(i, 10);
    i = 11;
    assert_int_equal(linx_exec_parse_option(&o, argc, argv, &i, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "bogus"));
    i = 13;
    assert_int_equal(linx_exec_parse_option(&o, argc, argv, &i, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "needs an argument"));
}

/* ---- commit trace ---- */

static char *slurp(const char *path)
{
    gchar *text = NULL;

    assert_true(g_file_get_contents(path, &text, NULL, NULL));
    return text;
}

static void test_commit_trace_format(void **state)
{
    char path[] = "/tmp/linxemu-trace-XXXXXX";
    char err[128];
    int fd = mkstemp(path);
    LinxCommitTrace *t;
    LinxCommitRecord r;
    char *text;

    assert_true(fd >= 0);
    close(fd);
    t = linx_commit_trace_open(path, err, sizeof(err));
    assert_non_null(t);
    /* The peer's example record (peer-qemu.md 2.1). */
    memset(&r, 0, sizeof(r));
    r.pc = 65538;
    r.insn = 131351;
    r.len = 4;
    r.wb_valid = true;
    r.wb_rd = 2;
    r.wb_data = 131072;
    r.dst_valid = true;
    r.dst_reg = 2;
    r.dst_data = 131072;
    r.block_kind = "scalar";
    r.lane_id = -1;
    r.tile_meta = "";
    r.next_pc = 65542;
    linx_commit_trace_write(t, &r); /* cycle 0 */
    linx_commit_trace_write(t, &r); /* cycle 1 */
    /* Escaping and extremes. */
    memset(&r, 0, sizeof(r));
    r.pc = UINT64_MAX;
    r.lane_id = INT64_MIN;
    r.block_kind = NULL;
    r.tile_meta = "a\"b\\c\n\x01";
    assert_int_equal(linx_commit_trace_count(t), 2);
    linx_commit_trace_write(t, &r);
    assert_true(linx_commit_trace_close(t));
    text = slurp(path);
    unlink(path);
    assert_string_equal(text,
        "{\"cycle\":0,\"pc\":65538,\"insn\":131351,\"len\":4,\"wb_valid\":1,\"wb_rd\":2,"
        "\"wb_data\":131072,\"src0_valid\":0,\"src0_reg\":0,\"src0_data\":0,\"src1_valid\":0,"
        "\"src1_reg\":0,\"src1_data\":0,\"dst_valid\":1,\"dst_reg\":2,\"dst_data\":131072,"
        "\"mem_valid\":0,\"mem_is_store\":0,\"mem_addr\":0,\"mem_wdata\":0,\"mem_rdata\":0,"
        "\"mem_size\":0,\"trap_valid\":0,\"trap_cause\":0,\"block_kind\":\"scalar\","
        "\"lane_id\":-1,\"tile_meta\":\"\",\"tile_ref_src\":0,\"tile_ref_dst\":0,"
        "\"trapno_full\":0,\"traparg0\":0,\"next_pc\":65542}\n"
        "{\"cycle\":1,\"pc\":65538,\"insn\":131351,\"len\":4,\"wb_valid\":1,\"wb_rd\":2,"
        "\"wb_data\":131072,\"src0_valid\":0,\"src0_reg\":0,\"src0_data\":0,\"src1_valid\":0,"
        "\"src1_reg\":0,\"src1_data\":0,\"dst_valid\":1,\"dst_reg\":2,\"dst_data\":131072,"
        "\"mem_valid\":0,\"mem_is_store\":0,\"mem_addr\":0,\"mem_wdata\":0,\"mem_rdata\":0,"
        "\"mem_size\":0,\"trap_valid\":0,\"trap_cause\":0,\"block_kind\":\"scalar\","
        "\"lane_id\":-1,\"tile_meta\":\"\",\"tile_ref_src\":0,\"tile_ref_dst\":0,"
        "\"trapno_full\":0,\"traparg0\":0,\"next_pc\":65542}\n"
        "{\"cycle\":2,\"pc\":18446744073709551615,\"insn\":0,\"len\":0,\"wb_valid\":0,"
        "\"wb_rd\":0,\"wb_data\":0,\"src0_valid\":0,\"src0_reg\":0,\"src0_data\":0,"
        "\"src1_valid\":0,\"src1_reg\":0,\"src1_data\":0,\"dst_valid\":0,\"dst_reg\":0,"
        "\"dst_data\":0,\"mem_valid\":0,\"mem_is_store\":0,\"mem_addr\":0,\"mem_wdata\":0,"
        "\"mem_rdata\":0,\"mem_size\":0,\"trap_valid\":0,\"trap_cause\":0,"
        "\"block_kind\":\"scalar\",\"lane_id\":-9223372036854775808,"
        "\"tile_meta\":\"a\\\"b\\\\c\\n\\u0001\",\"tile_ref_src\":0,\"tile_ref_dst\":0,"
        "\"trapno_full\":0,\"traparg0\":0,\"next_pc\":0}\n");
    g_free(text);
}

/* Many records and a string longer than the buffer: every line intact. */
static void test_commit_trace_buffering(void **state)
{
    char path[] = "/tmp/linxemu-trace-XXXXXX";
    char err[128];
    int fd = mkstemp(path);
    LinxCommitTrace *t;
    LinxCommitRecord r = { 0 };
    char *big = g_malloc(200000), *text;
    const unsigned n = 20000;

    assert_true(fd >= 0);
    close(fd);
    memset(big, 'x', 199999);
    big[199999] = 0;
    t = linx_commit_trace_open(path, err, sizeof(err));
    for (unsigned i = 0; i < n; i++) {
        r.pc = i;
        r.next_pc = i + 4;
        r.tile_meta = i == n / 2 ? big : "";
        linx_commit_trace_write(t, &r);
    }
    assert_true(linx_commit_trace_close(t));
    text = slurp(path);
    unlink(path);
    /* Walk the lines by hand: g_strsplit is quadratic under ASan's
     * string interceptors on a 4 MB text. */
    {
        const char *line = text, *end = text + strlen(text);
        unsigned i = 0;
        size_t longest = 0;
        while (line < end) {
            const char *nl = memchr(line, '\n', (size_t)(end - line));
            size_t len;
            assert_non_null(nl);
            len = (size_t)(nl - line);
            if (i % 997 == 0) {
                char want[64];
                int wl = snprintf(want, sizeof(want), "{\"cycle\":%u,\"pc\":%u,", i, i);
                assert_true(len > (size_t)wl && memcmp(line, want, (size_t)wl) == 0);
                assert_int_equal(line[len - 1], '}');
            }
            longest = MAX(longest, len);
            line = nl + 1;
            i++;
        }
        assert_int_equal(i, n);
        assert_true(longest > 200000);
    }
    g_free(text);
    g_free(big);
    assert_null(linx_commit_trace_open("/nonexistent-dir/t", err, sizeof(err)));
    assert_non_null(strstr(err, "/nonexistent-dir/t"));
    assert_true(linx_commit_trace_close(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_code_buffer_wx),
        cmocka_unit_test(test_code_buffer_builder),
        cmocka_unit_test(test_code_buffer_populate),
        cmocka_unit_test(test_log_mask),
        cmocka_unit_test(test_log_file),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_commit_trace_format),
        cmocka_unit_test(test_commit_trace_buffering),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
