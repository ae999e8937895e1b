/*
 * linux-user ELF loading and process start.
 *
 * - A good static program loads: segments at their addresses with their
 *   permissions and bytes, bss zeroed, entry, AT_PHDR, brk start.
 * - A PT_INTERP without PT_DYNAMIC is ignored; with PT_DYNAMIC the
 *   program is refused ("dynamic linking not supported"); static PIE
 *   loads at LINUX_PIE_BASE.
 * - Malformed images (each made here from the good one) give a clear
 *   message naming the rule, never a crash (the suite runs under ASan).
 * - The initial stack: argc, argv, envp, auxv values, alignment.
 * - The shared C++ binary loads as the manifest describes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test-linux-user-util.h"

static bool try_load(TestElf e, LinuxImage *img, char *err, size_t errlen, LinuxProcess **pp)
{
    ElfFile ef;
    bool ok = false;
    LinuxProcess *p = linux_process_new(NULL);

    err[0] = 0;
    if (elf_file_parse(&ef, e.buf, e.size, "prog", err, errlen)) {
        ok = linux_load_elf(p->mem, &ef, "prog", img, err, errlen);
        elf_file_close(&ef);
    }
    free(e.buf);
    if (pp) {
        *pp = p;
    } else {
        linux_process_free(p);
    }
    return ok;
}

static void test_good_static(void **state)
{
    LinuxImage img;
    char err[512];
    LinuxProcess *p;
    uint8_t b[16];

    (void)state;
    assert_true(try_load(test_good_elf(), &img, err, sizeof(err), &p));
    assert_int_equal(img.entry, 0x10100);
    assert_int_equal(img.load_bias, 0);
    assert_false(img.is_pie);
    assert_false(img.interp_ignored);
    assert_int_equal(img.phdr, 0x10040);
    assert_int_equal(img.phnum, 3);
    assert_int_equal(img.phent, 56);
    assert_int_equal(img.end_data, 0x15000);
    assert_int_equal(guest_mem_prot(p->mem, 0x10000), GM_PROT_READ | GM_PROT_EXEC);
    assert_int_equal(guest_mem_prot(p->mem, 0x12000), GM_PROT_READ | GM_PROT_WRITE);
    assert_int_equal(guest_mem_prot(p->mem, 0x14fff), GM_PROT_READ | GM_PROT_WRITE);
    assert_int_equal(guest_mem_prot(p->mem, 0x11000), -1);
    assert_int_equal(guest_mem_prot(p->mem, 0x15000), -1);
    assert_int_equal(guest_mem_read(p->mem, 0x10100, b, 4, GM_PROT_EXEC, NULL), GM_OK);
    assert_memory_equal(b, test_code, 4);
    assert_int_equal(guest_mem_read(p->mem, 0x12000, b, 16, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(b, test_data, 8);
    for (int i = 8; i < 16; i++) {
        assert_int_equal(b[i], 0); /* bss */
    }
    /* The ELF header is visible at the start of the first segment. */
    assert_int_equal(guest_mem_read(p->mem, 0x10000, b, 4, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(b, "\177ELF", 4);
    linux_process_free(p);
}

static void test_interp_without_dynamic_ignored(void **state)
{
    static const char interp[] = "/lib/ld-musl-linx64.so.1";
    TestSeg segs[] = {
        { ELF_PT_INTERP, ELF_PF_R, 0x10200, sizeof(interp), interp, sizeof(interp), 1 },
        { ELF_PT_LOAD, ELF_PF_R | ELF_PF_X, 0x10000, 0x1000, test_code, sizeof(test_code), 0 },
    };
    LinuxImage img;
    char err[512];

    (void)state;
    assert_true(try_load(test_build_elf(ELF_ET_EXEC, EM_LINXISA, 0x10000, segs, 2), &img, err,
                         sizeof(err), NULL));
    assert_true(img.interp_ignored);
    assert_int_equal(img.entry, 0x10000);
}

static void test_dynamic_refused(void **state)
{
    static const char interp[] = "/lib/ld-musl-linx64.so.1";
    TestSeg segs[] = {
        { ELF_PT_INTERP, ELF_PF_R, 0x10200, sizeof(interp), interp, sizeof(interp), 1 },
        { ELF_PT_LOAD, ELF_PF_R | ELF_PF_X, 0x10000, 0x1000, test_code, sizeof(test_code), 0 },
        { ELF_PT_DYNAMIC, ELF_PF_R, 0x10800, 16, NULL, 16, 8 },
    };
    LinuxImage img;
    char err[512];

    (void)state;
    assert_false(try_load(test_build_elf(ELF_ET_EXEC, EM_LINXISA, 0x10000, segs, 3), &img, err,
                          sizeof(err), NULL));
    assert_non_null(strstr(err, "dynamic linking not supported"));
}

static void test_static_pie(void **state)
{
    TestSeg segs[] = {
        { ELF_PT_LOAD, ELF_PF_R | ELF_PF_X, 0x0, 0x1000, test_code, sizeof(test_code), 0 },
        { ELF_PT_LOAD, ELF_PF_R | ELF_PF_W, 0x2000, 0x100, test_data, sizeof(test_data), 0 },
        { ELF_PT_DYNAMIC, ELF_PF_R, 0x2040, 16, NULL, 16, 8 },
    };
    LinuxImage img;
    char err[512];
    LinuxProcess *p;
    uint8_t b[8];

    (void)state;
    assert_true(try_load(test_build_elf(ELF_ET_DYN, EM_LINXISA, 0x0, segs, 3), &img, err,
                         sizeof(err), &p));
    assert_true(img.is_pie);
    assert_int_equal(img.load_bias, LINUX_PIE_BASE);
    assert_int_equal(img.entry, LINUX_PIE_BASE);
    assert_int_equal(guest_mem_read(p->mem, LINUX_PIE_BASE + 0x2000, b, 8, GM_PROT_READ, NULL),
                     GM_OK);
    assert_memory_equal(b, test_data, 8);
    linux_process_free(p);
}

/* Two segments sharing a page: it gets the union of their permissions. */
static void test_shared_page(void **state)
{
    TestSeg segs[] = {
        { ELF_PT_LOAD, ELF_PF_R | ELF_PF_X, 0x10000, 0x1800, test_code, sizeof(test_code), 0 },
        { ELF_PT_LOAD, ELF_PF_R | ELF_PF_W, 0x11900, 0x2000, test_data, sizeof(test_data), 0 },
    };
    LinuxImage img;
    char err[512];
    LinuxProcess *p;
    uint8_t b[8];

    (void)state;
    assert_true(try_load(test_build_elf(ELF_ET_EXEC, EM_LINXISA, 0x10000, segs, 2), &img, err,
                         sizeof(err), &p));
    assert_int_equal(guest_mem_prot(p->mem, 0x10000), GM_PROT_READ | GM_PROT_EXEC);
    assert_int_equal(guest_mem_prot(p->mem, 0x11000), GM_PROT_ALL);
    assert_int_equal(guest_mem_prot(p->mem, 0x12000), GM_PROT_READ | GM_PROT_WRITE);
    assert_int_equal(guest_mem_read(p->mem, 0x11900, b, 8, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(b, test_data, 8);
    linux_process_free(p);
}

/* ---- Malformed images ---- */

typedef void (*Mutator)(TestElf *e);

static uint8_t *phdr(TestElf *e, int i)
{
    return e->buf + TEST_EHDR_SIZE + i * TEST_PHDR_SIZE;
}

static void m_truncated(TestElf *e) { e->size = 20; }
static void m_empty(TestElf *e) { e->size = 0; }
static void m_magic(TestElf *e) { e->buf[1] = 'X'; }
static void m_class32(TestElf *e) { e->buf[4] = 1; }
static void m_big_endian(TestElf *e) { e->buf[5] = 2; }
static void m_version(TestElf *e) { e->buf[6] = 9; }
static void m_machine(TestElf *e) { test_put16(e->buf + 18, 62); }
static void m_rel(TestElf *e) { test_put16(e->buf + 16, ELF_ET_REL); }
static void m_core(TestElf *e) { test_put16(e->buf + 16, 4); }
static void m_phentsize(TestElf *e) { test_put16(e->buf + 54, 32); }
static void m_phdrs_past_end(TestElf *e) { test_put16(e->buf + 56, 200); }
static void m_seg_past_end(TestElf *e) { test_put64(phdr(e, 2) + 8, e->size - 4); }
static void m_filesz_gt_memsz(TestElf *e) { test_put64(phdr(e, 2) + 40, 4); }
static void m_overlap(TestElf *e) { test_put64(phdr(e, 2) + 16, 0x10100); }
static void m_huge_memsz(TestElf *e) { test_put64(phdr(e, 2) + 40, UINT64_C(1) << 50); }
static void m_wraps(TestElf *e)
{
    test_put64(phdr(e, 2) + 16, UINT64_MAX - 0x1000);
    test_put64(phdr(e, 2) + 40, 0x3000);
}
static void m_too_high(TestElf *e) { test_put64(phdr(e, 2) + 16, UINT64_C(0x7ffff0000000)); }
static void m_entry_outside(TestElf *e) { test_put64(e->buf + 24, 0x12000); }
static void m_entry_nowhere(TestElf *e) { test_put64(e->buf + 24, 0x900000); }
static void m_no_load(TestElf *e)
{
    test_put32(phdr(e, 1), 0x6474e551); /* PT_GNU_STACK */
    test_put32(phdr(e, 2), 0x6474e551);
}
static void m_page_zero(TestElf *e) { test_put64(phdr(e, 2) + 16, 0x0); }
static void m_bad_align(TestElf *e) { test_put64(phdr(e, 2) + 48, 0x1001); }

typedef struct Malformed {
    const char *name;
    Mutator mutate;
    const char *expect; /* part of the message */
} Malformed;

static const Malformed malformed[] = {
    { "truncated header", m_truncated, "truncated ELF header" },
    { "empty file", m_empty, "truncated ELF header" },
    { "bad magic", m_magic, "not an ELF file" },
    { "wrong class", m_class32, "wrong ELF class 1" },
    { "wrong byte order", m_big_endian, "wrong data encoding" },
    { "wrong version", m_version, "unsupported ELF version" },
    { "wrong machine", m_machine, "wrong machine 62 (x86-64)" },
    { "relocatable object", m_rel, "relocatable object" },
    { "core file", m_core, "ELF type 4 is not an executable" },
    { "program header size", m_phentsize, "bad program header size" },
    { "program headers past end", m_phdrs_past_end, "program headers" },
    { "segment past file end", m_seg_past_end, "extends past end of file" },
    { "filesz > memsz", m_filesz_gt_memsz, "larger than memory size" },
    { "overlapping segments", m_overlap, "overlap" },
    { "huge memsz", m_huge_memsz, "is too large" },
    { "address wraps", m_wraps, "wraps around" },
    { "above user space", m_too_high, "above the user address space" },
    { "entry in data", m_entry_outside, "entry point 0x12000 is not inside an executable" },
    { "entry nowhere", m_entry_nowhere, "entry point" },
    { "no PT_LOAD", m_no_load, "no loadable segment" },
    { "page zero", m_page_zero, "below the lowest user address" },
    { "bad alignment", m_bad_align, "not a power of two" },
};

static void test_malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
        TestElf e = test_good_elf();
        LinuxImage img;
        char err[512];
        malformed[i].mutate(&e);
        bool ok = try_load(e, &img, err, sizeof(err), NULL);
        if (ok || !strstr(err, malformed[i].expect)) {
            fail_msg("%s: expected an error containing '%s', got %s '%s'", malformed[i].name,
                     malformed[i].expect, ok ? "success" : "error", err);
        }
        /* The message starts with the file name. */
        assert_int_equal(strncmp(err, "prog: ", 6), 0);
    }
}

/* Every truncation of a good image fails cleanly or loads. */
static void test_every_truncation(void **state)
{
    (void)state;
    TestElf good = test_good_elf();
    for (size_t len = 0; len < good.size; len++) {
        TestElf e = { malloc(len ? len : 1), len };
        LinuxImage img;
        char err[512];
        memcpy(e.buf, good.buf, len);
        if (!try_load(e, &img, err, sizeof(err), NULL)) {
            assert_true(err[0] != 0);
        }
    }
    free(good.buf);
}

/* ---- The stack ---- */

static char *write_temp_elf(TestElf e)
{
    char *path = strdup("/tmp/linx-user-test-XXXXXX");
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    assert_int_equal(write(fd, e.buf, e.size), (ssize_t)e.size);
    close(fd);
    free(e.buf);
    return path;
}

static uint64_t auxv_get(LinuxProcess *p, uint64_t auxv, uint64_t key, bool *found)
{
    for (int i = 0; i < 64; i++) {
        uint64_t k = test_peek64(p, auxv + 16 * i);
        if (k == key) {
            *found = true;
            return test_peek64(p, auxv + 16 * i + 8);
        }
        if (k == LINUX_AT_NULL) {
            break;
        }
    }
    *found = false;
    return 0;
}

static void read_str(LinuxProcess *p, uint64_t addr, char *buf, size_t len)
{
    size_t i = 0;

    for (; i + 1 < len; i++) {
        assert_int_equal(guest_mem_read(p->mem, addr + i, buf + i, 1, GM_PROT_READ, NULL), GM_OK);
        if (!buf[i]) {
            return;
        }
    }
    buf[i] = 0;
}

static void test_stack_layout(void **state)
{
    char *path = write_temp_elf(test_good_elf());
    char *argv[] = { path, "alpha", "beta gamma", NULL };
    char *envp[] = { "X=1", "LONGER_NAME=value", NULL };
    char err[512], s[256];
    bool found;
    LinuxProcess *p = linux_process_new(NULL);

    (void)state;
    assert_true(linux_load_program(p, path, 3, argv, envp, err, sizeof(err)));
    uint64_t sp = p->initial_sp;
    assert_int_equal(sp % 16, 0);
    assert_true(sp > p->stack_limit && sp < LINUX_STACK_TOP);
    assert_int_equal(test_peek64(p, sp), 3);
    for (int i = 0; i < 3; i++) {
        read_str(p, test_peek64(p, sp + 8 + 8 * i), s, sizeof(s));
        assert_string_equal(s, argv[i]);
    }
    assert_int_equal(test_peek64(p, sp + 8 * 4), 0);
    uint64_t ep = sp + 8 * 5;
    for (int i = 0; i < 2; i++) {
        read_str(p, test_peek64(p, ep + 8 * i), s, sizeof(s));
        assert_string_equal(s, envp[i]);
    }
    assert_int_equal(test_peek64(p, ep + 16), 0);
    uint64_t auxv = ep + 24;
    assert_int_equal(auxv_get(p, auxv, LINUX_AT_PHDR, &found), 0x10040);
    assert_true(found);
    assert_int_equal(auxv_get(p, auxv, LINUX_AT_PHENT, &found), 56);
    assert_int_equal(auxv_get(p, auxv, LINUX_AT_PHNUM, &found), 3);
    assert_int_equal(auxv_get(p, auxv, LINUX_AT_PAGESZ, &found), 4096);
    assert_int_equal(auxv_get(p, auxv, LINUX_AT_ENTRY, &found), 0x10100);
    assert_int_equal(auxv_get(p, auxv, LINUX_AT_UID, &found), getuid());
    assert_int_equal(auxv_get(p, auxv, LINUX_AT_EGID, &found), getegid());
    assert_int_equal(auxv_get(p, auxv, LINUX_AT_HWCAP, &found), LINUX_HWCAP);
    assert_true(found);
    assert_int_equal(auxv_get(p, auxv, LINUX_AT_SECURE, &found), 0);
    uint64_t rnd = auxv_get(p, auxv, LINUX_AT_RANDOM, &found);
    uint8_t r16[16];
    assert_true(found);
    assert_int_equal(guest_mem_read(p->mem, rnd, r16, 16, GM_PROT_READ, NULL), GM_OK);
    read_str(p, auxv_get(p, auxv, LINUX_AT_EXECFN, &found), s, sizeof(s));
    assert_string_equal(s, path);
    read_str(p, auxv_get(p, auxv, LINUX_AT_PLATFORM, &found), s, sizeof(s));
    assert_string_equal(s, "linx64");
    /* brk starts at the page after the image. */
    assert_int_equal(p->brk_start, 0x15000);
    assert_int_equal(p->brk_cur, 0x15000);
    linux_process_free(p);
    unlink(path);
    free(path);
}

static void test_stack_random_given(void **state)
{
    LinuxProcess *p = linux_process_new(NULL);
    char *argv[] = { "prog", NULL };
    uint8_t rnd[16], back[16];
    char err[256];
    bool found;

    (void)state;
    for (int i = 0; i < 16; i++) {
        rnd[i] = (uint8_t)(0xa0 + i);
    }
    uint64_t sp = linux_setup_stack(p, 1, argv, NULL, "prog", rnd, err, sizeof(err));
    assert_int_not_equal(sp, 0);
    uint64_t auxv = sp + 8 * 4; /* argc, argv[0], NULL, NULL (no envp) */
    uint64_t a = auxv_get(p, auxv, LINUX_AT_RANDOM, &found);
    assert_true(found);
    assert_int_equal(guest_mem_read(p->mem, a, back, 16, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(back, rnd, 16);
    linux_process_free(p);
}

static void test_args_too_long(void **state)
{
    LinuxProcess *p = linux_process_new(NULL);
    size_t big = LINUX_MAX_ARG_BYTES + 10;
    char *arg = malloc(big);
    char *argv[] = { "prog", arg, NULL };
    char err[256];

    (void)state;
    memset(arg, 'a', big - 1);
    arg[big - 1] = 0;
    assert_int_equal(linux_setup_stack(p, 2, argv, NULL, "prog", NULL, err, sizeof(err)), 0);
    assert_non_null(strstr(err, "argument list too long"));
    free(arg);
    linux_process_free(p);
}

static void test_missing_file(void **state)
{
    LinuxProcess *p = linux_process_new(NULL);
    char *argv[] = { "x", NULL };
    char err[256];

    (void)state;
    assert_false(linux_load_program(p, "/nonexistent/prog", 1, argv, NULL, err, sizeof(err)));
    assert_non_null(strstr(err, "/nonexistent/prog: No such file"));
    linux_process_free(p);
}

static void test_shared_binary(void **state)
{
    char path[4096], err[512];
    const char *dir = getenv("LINX_SHARED_DIR");
    char *argv[] = { path, NULL };
    LinuxProcess *p;

    (void)state;
    snprintf(path, sizeof(path), "%s/guest/linux-user/02_algorithms.static",
             dir ? dir : LINX_SHARED_DIR);
    if (access(path, R_OK) != 0) {
        printf("SKIP: %s not present\n", path);
        skip();
    }
    p = linux_process_new(NULL);
    assert_true(linux_load_program(p, path, 1, argv, NULL, err, sizeof(err)));
    assert_int_equal(p->image.entry, 0x11240);
    assert_true(p->image.interp_ignored);
    assert_int_equal(p->image.phdr, 0x10040);
    assert_int_equal(p->image.phnum, 8);
    assert_int_equal(guest_mem_prot(p->mem, 0x11240), GM_PROT_READ | GM_PROT_EXEC);
    assert_int_equal(guest_mem_prot(p->mem, 0x14000), GM_PROT_READ | GM_PROT_WRITE);
    assert_int_equal(p->brk_start, 0x15000);
    linux_process_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_static),
        cmocka_unit_test(test_interp_without_dynamic_ignored),
        cmocka_unit_test(test_dynamic_refused),
        cmocka_unit_test(test_static_pie),
        cmocka_unit_test(test_shared_page),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_every_truncation),
        cmocka_unit_test(test_stack_layout),
        cmocka_unit_test(test_stack_random_given),
        cmocka_unit_test(test_args_too_long),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_shared_binary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
