/*
 * linux-user memory system calls: brk, mmap (anonymous, fixed, file),
 * munmap, mremap, mprotect, madvise - checked through the guest address
 * space (permissions, contents, what is mapped where afterwards).
 */
#include <errno.h>
#include <fcntl.h>
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

#define PAGE 4096
#define PROT_RW (GM_PROT_READ | GM_PROT_WRITE)
#define MAP_PRIVATE_ANON 0x22
#define MAP_FIXED_FLAG 0x10
#define MAP_FIXED_NOREPLACE_FLAG 0x100000

typedef struct Fixture {
    LinuxProcess *p;
    CPULinxState *env;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->p = test_process(stderr);
    f->env = test_cpu(f->p);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;

    linux_process_free(f->p);
    free(f->env);
    free(f);
    return 0;
}

static void test_brk(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint64_t v = 0x1122334455667788ull;

    uint64_t start = (uint64_t)SYS1(NR_brk, 0);
    assert_int_equal(start, 0x800000);
    assert_int_equal(guest_mem_prot(p->mem, start), -1);
    /* Grow by 2.5 pages: three pages become readable and writable. */
    assert_int_equal(SYS1(NR_brk, start + 2 * PAGE + 100), start + 2 * PAGE + 100);
    assert_int_equal(guest_mem_prot(p->mem, start), PROT_RW);
    assert_int_equal(guest_mem_prot(p->mem, start + 2 * PAGE), PROT_RW);
    assert_int_equal(guest_mem_prot(p->mem, start + 3 * PAGE), -1);
    assert_int_equal(guest_mem_write(p->mem, start + 2 * PAGE + 8, &v, 8, NULL), GM_OK);
    assert_int_equal(test_peek64(p, start + 2 * PAGE + 8), v);
    /* Below the start: refused (returns the current break). */
    assert_int_equal(SYS1(NR_brk, start - PAGE), start + 2 * PAGE + 100);
    /* Shrink: pages above the new break go away. */
    assert_int_equal(SYS1(NR_brk, start + PAGE), start + PAGE);
    assert_int_equal(guest_mem_prot(p->mem, start), PROT_RW);
    assert_int_equal(guest_mem_prot(p->mem, start + PAGE), -1);
    /* Growing into an existing mapping fails. */
    assert_true(guest_mem_map(p->mem, start + 4 * PAGE, PAGE, PROT_RW, false));
    assert_int_equal(SYS1(NR_brk, start + 8 * PAGE), start + PAGE);
    /* Absurd requests fail without touching anything. */
    assert_int_equal(SYS1(NR_brk, UINT64_MAX - 10), start + PAGE);
}

static void test_mmap_anon(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint8_t b[8];

    int64_t a = SYS6(NR_mmap, 0, 3 * PAGE + 1, PROT_RW, MAP_PRIVATE_ANON, (uint64_t)-1, 0);
    assert_true(a >= (int64_t)LINUX_MMAP_BASE);
    assert_int_equal(a % PAGE, 0);
    assert_int_equal(guest_mem_prot(p->mem, (uint64_t)a + 3 * PAGE), PROT_RW); /* rounded up */
    assert_int_equal(guest_mem_read(p->mem, (uint64_t)a + 100, b, 8, GM_PROT_READ, NULL), GM_OK);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(b[i], 0);
    }
    int64_t a2 = SYS6(NR_mmap, 0, PAGE, GM_PROT_READ, MAP_PRIVATE_ANON, (uint64_t)-1, 0);
    assert_true(a2 >= a + 4 * PAGE); /* no overlap */
    assert_int_equal(guest_mem_prot(p->mem, (uint64_t)a2), GM_PROT_READ);

    /* mprotect to read-only: guest stores fault, loads work. */
    assert_int_equal(SYS3(NR_mprotect, a, PAGE, GM_PROT_READ), 0);
    assert_int_not_equal(guest_mem_write(p->mem, (uint64_t)a, b, 1, NULL), GM_OK);
    assert_int_equal(guest_mem_write(p->mem, (uint64_t)a + PAGE, b, 1, NULL), GM_OK);
    assert_int_equal(SYS3(NR_mprotect, a + 1, PAGE, GM_PROT_READ), -EINVAL);
    assert_int_equal(SYS3(NR_mprotect, 0x40000000, PAGE, GM_PROT_READ), -ENOMEM);

    /* munmap the middle page. */
    assert_int_equal(SYS2(NR_munmap, a + PAGE, PAGE), 0);
    assert_int_equal(guest_mem_prot(p->mem, (uint64_t)a + PAGE), -1);
    assert_int_equal(guest_mem_prot(p->mem, (uint64_t)a + 2 * PAGE), PROT_RW);
    assert_int_equal(SYS2(NR_munmap, a + 1, PAGE), -EINVAL);
    assert_int_equal(SYS2(NR_munmap, a, 0), -EINVAL);

    /* Bad arguments. */
    assert_int_equal(SYS6(NR_mmap, 0, 0, PROT_RW, MAP_PRIVATE_ANON, (uint64_t)-1, 0), -EINVAL);
    assert_int_equal(SYS6(NR_mmap, 0, PAGE, PROT_RW, 0x20 /* no type */, (uint64_t)-1, 0),
                     -EINVAL);
    assert_int_equal(SYS6(NR_mmap, 0, PAGE, PROT_RW, MAP_PRIVATE_ANON, (uint64_t)-1, 5), -EINVAL);
    assert_int_equal(SYS6(NR_mmap, 0, UINT64_C(1) << 60, PROT_RW, MAP_PRIVATE_ANON, (uint64_t)-1,
                          0),
                     -ENOMEM);
    assert_int_equal(SYS6(NR_mmap, 0, PAGE, PROT_RW, 0x02, 999, 0), -EBADF);
}

static void test_mmap_fixed(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint64_t v = 42;

    assert_int_equal(SYS6(NR_mmap, 0x40000000, 2 * PAGE, PROT_RW, MAP_PRIVATE_ANON | MAP_FIXED_FLAG,
                          (uint64_t)-1, 0),
                     0x40000000);
    assert_int_equal(guest_mem_write(p->mem, 0x40000000, &v, 8, NULL), GM_OK);
    /* MAP_FIXED over it replaces (zero again). */
    assert_int_equal(SYS6(NR_mmap, 0x40000000, PAGE, GM_PROT_READ,
                          MAP_PRIVATE_ANON | MAP_FIXED_FLAG, (uint64_t)-1, 0),
                     0x40000000);
    assert_int_equal(test_peek64(p, 0x40000000), 0);
    assert_int_equal(guest_mem_prot(p->mem, 0x40000000), GM_PROT_READ);
    assert_int_equal(guest_mem_prot(p->mem, 0x40001000), PROT_RW);
    /* MAP_FIXED_NOREPLACE on a used range: EEXIST. */
    assert_int_equal(SYS6(NR_mmap, 0x40000000, PAGE, PROT_RW,
                          MAP_PRIVATE_ANON | MAP_FIXED_NOREPLACE_FLAG, (uint64_t)-1, 0),
                     -EEXIST);
    /* Page zero and beyond the user space are refused. */
    assert_int_equal(SYS6(NR_mmap, 0, PAGE, PROT_RW, MAP_PRIVATE_ANON | MAP_FIXED_FLAG,
                          (uint64_t)-1, 0),
                     -EPERM);
    assert_int_equal(SYS6(NR_mmap, LINUX_TASK_SIZE, PAGE, PROT_RW,
                          MAP_PRIVATE_ANON | MAP_FIXED_FLAG, (uint64_t)-1, 0),
                     -ENOMEM);
    assert_int_equal(SYS6(NR_mmap, 0x40000001, PAGE, PROT_RW, MAP_PRIVATE_ANON | MAP_FIXED_FLAG,
                          (uint64_t)-1, 0),
                     -EINVAL);
    /* A free hint is honoured without MAP_FIXED. */
    assert_int_equal(SYS6(NR_mmap, 0x50000000, PAGE, PROT_RW, MAP_PRIVATE_ANON, (uint64_t)-1, 0),
                     0x50000000);
}

static void test_mmap_file(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    char path[] = "/tmp/linx-lu-mmap-XXXXXX";
    uint8_t b[8];
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    uint8_t *content = malloc(2 * PAGE);
    for (int i = 0; i < 2 * PAGE; i++) {
        content[i] = (uint8_t)(i * 7);
    }
    assert_int_equal(write(fd, content, 2 * PAGE), 2 * PAGE);
    /* Private, at offset one page: the second page of the file. */
    int64_t a = SYS6(NR_mmap, 0, 2 * PAGE, GM_PROT_READ, 0x02, fd, PAGE);
    assert_true(a > 0);
    assert_int_equal(guest_mem_read(p->mem, (uint64_t)a + 5, b, 8, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(b, content + PAGE + 5, 8);
    /* Past the end of the file: zeros. */
    assert_int_equal(guest_mem_read(p->mem, (uint64_t)a + PAGE + 5, b, 8, GM_PROT_READ, NULL),
                     GM_OK);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(b[i], 0);
    }
    /* Writable shared file mappings are not supported. */
    assert_int_equal(SYS6(NR_mmap, 0, PAGE, PROT_RW, 0x01, fd, 0), -ENODEV);
    /* Read-only shared works (a copy). */
    assert_true(SYS6(NR_mmap, 0, PAGE, GM_PROT_READ, 0x01, fd, 0) > 0);
    close(fd);
    unlink(path);
    free(content);
}

static void test_mremap(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint64_t v = 0xabcdef;

    int64_t a = SYS6(NR_mmap, 0, 2 * PAGE, PROT_RW, MAP_PRIVATE_ANON, (uint64_t)-1, 0);
    assert_true(a > 0);
    assert_int_equal(guest_mem_write(p->mem, (uint64_t)a + PAGE + 8, &v, 8, NULL), GM_OK);
    /* Grow in place (the next pages are free). */
    assert_int_equal(SYS4(NR_mremap, a, 2 * PAGE, 3 * PAGE, 0), a);
    assert_int_equal(guest_mem_prot(p->mem, (uint64_t)a + 2 * PAGE), PROT_RW);
    /* Block the tail, then grow: needs MAYMOVE. */
    assert_true(guest_mem_map(p->mem, (uint64_t)a + 3 * PAGE, PAGE, GM_PROT_READ, false));
    assert_int_equal(SYS4(NR_mremap, a, 3 * PAGE, 5 * PAGE, 0), -ENOMEM);
    int64_t b = SYS4(NR_mremap, a, 3 * PAGE, 5 * PAGE, 1 /* MREMAP_MAYMOVE */);
    assert_true(b > 0 && b != a);
    assert_int_equal(test_peek64(p, (uint64_t)b + PAGE + 8), v);
    assert_int_equal(guest_mem_prot(p->mem, (uint64_t)a), -1);
    assert_int_equal(guest_mem_prot(p->mem, (uint64_t)b + 4 * PAGE), PROT_RW);
    /* Shrink in place. */
    assert_int_equal(SYS4(NR_mremap, b, 5 * PAGE, PAGE, 0), b);
    assert_int_equal(guest_mem_prot(p->mem, (uint64_t)b + PAGE), -1);
    /* Unmapped source, bad flags. */
    assert_int_equal(SYS4(NR_mremap, 0x60000000, PAGE, 2 * PAGE, 1), -EFAULT);
    assert_int_equal(SYS4(NR_mremap, b, PAGE, 2 * PAGE, 2 /* FIXED without MAYMOVE */), -EINVAL);
    /* MREMAP_FIXED to a chosen address. */
    assert_int_equal(SYS6(NR_mremap, b, PAGE, PAGE, 3, 0x70000000, 0), 0x70000000);
    assert_int_equal(test_peek64(p, 0x70000000 + 8), 0);
}

static void test_madvise(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint64_t v = 77;

    int64_t a = SYS6(NR_mmap, 0, 3 * PAGE, PROT_RW, MAP_PRIVATE_ANON, (uint64_t)-1, 0);
    assert_int_equal(SYS3(NR_mprotect, a + 2 * PAGE, PAGE, GM_PROT_READ), 0);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(guest_mem_write(p->mem, (uint64_t)a + i * PAGE, &v, 8, NULL), GM_OK);
    }
    /* MADV_WILLNEED: nothing changes. */
    assert_int_equal(SYS3(NR_madvise, a, PAGE, 3), 0);
    assert_int_equal(test_peek64(p, (uint64_t)a), 77);
    /* MADV_DONTNEED: zero again, permissions kept. */
    assert_int_equal(SYS3(NR_madvise, a, 3 * PAGE, 4), 0);
    assert_int_equal(test_peek64(p, (uint64_t)a), 0);
    assert_int_equal(test_peek64(p, (uint64_t)a + PAGE), 0);
    assert_int_equal(guest_mem_prot(p->mem, (uint64_t)a + 2 * PAGE), GM_PROT_READ);
    assert_int_equal(guest_mem_prot(p->mem, (uint64_t)a), PROT_RW);
    assert_int_equal(SYS3(NR_madvise, a + 1, PAGE, 4), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_brk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mmap_anon, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mmap_fixed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mmap_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mremap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_madvise, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
