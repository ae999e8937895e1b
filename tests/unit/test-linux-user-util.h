/*
 * Helpers shared by the linux-user unit tests: a tiny ELF64 image builder
 * (so the tests make their own good and malformed programs instead of
 * committing binaries), a process with a scratch guest page, and a way to
 * run one system call through linux_syscall() with a CPU state built by
 * hand (no exec loop involved).
 */
#ifndef LINX_TEST_LINUX_USER_UTIL_H
#define LINX_TEST_LINUX_USER_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linux-user/linux-user.h"
#include "util/elf-file.h"

#define TEST_EHDR_SIZE 64
#define TEST_PHDR_SIZE 56
#define TEST_MAX_SEGS 8
/* Scratch guest memory the system-call tests pass pointers into. */
#define TEST_SCRATCH UINT64_C(0x100000)
#define TEST_SCRATCH_SIZE UINT64_C(0x10000)

typedef struct TestSeg {
    uint32_t type;
    uint32_t flags;
    uint64_t vaddr;
    uint64_t memsz;
    const void *data; /* filesz bytes (NULL: zeros) */
    uint64_t filesz;
    uint64_t align;
} TestSeg;

typedef struct TestElf {
    uint8_t *buf;
    size_t size;
} TestElf;

static inline void test_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void test_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static inline void test_put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static inline uint64_t test_get64(const uint8_t *p)
{
    uint64_t v = 0;

    for (int i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

/* Build an ELF64 LE image: header, program headers at 64, then each
 * segment's file bytes (16-byte aligned). */
static inline TestElf test_build_elf(uint16_t type, uint16_t machine, uint64_t entry,
                                     const TestSeg *segs, int nsegs)
{
    size_t off = TEST_EHDR_SIZE + (size_t)nsegs * TEST_PHDR_SIZE;
    uint64_t offsets[TEST_MAX_SEGS];
    TestElf e;

    for (int i = 0; i < nsegs; i++) {
        off = (off + 15) & ~(size_t)15;
        offsets[i] = off;
        off += segs[i].filesz;
    }
    e.size = off;
    e.buf = calloc(1, off);
    uint8_t *h = e.buf;
    memcpy(h, "\177ELF", 4);
    h[4] = 2; /* ELFCLASS64 */
    h[5] = 1; /* little-endian */
    h[6] = 1; /* EV_CURRENT */
    test_put16(h + 16, type);
    test_put16(h + 18, machine);
    test_put32(h + 20, 1);
    test_put64(h + 24, entry);
    test_put64(h + 32, nsegs ? TEST_EHDR_SIZE : 0);
    test_put16(h + 52, TEST_EHDR_SIZE);
    test_put16(h + 54, TEST_PHDR_SIZE);
    test_put16(h + 56, (uint16_t)nsegs);
    test_put16(h + 58, 64);
    for (int i = 0; i < nsegs; i++) {
        uint8_t *p = h + TEST_EHDR_SIZE + i * TEST_PHDR_SIZE;
        test_put32(p, segs[i].type);
        test_put32(p + 4, segs[i].flags);
        test_put64(p + 8, offsets[i]);
        test_put64(p + 16, segs[i].vaddr);
        test_put64(p + 24, segs[i].vaddr);
        test_put64(p + 32, segs[i].filesz);
        test_put64(p + 40, segs[i].memsz);
        test_put64(p + 48, segs[i].align ? segs[i].align : 0x1000);
        if (segs[i].data && segs[i].filesz) {
            memcpy(h + offsets[i], segs[i].data, segs[i].filesz);
        }
    }
    return e;
}

/* Code of the test programs: C.BSTART.STD; C.BSTOP (never run here). */
static const uint8_t test_code[16] = { 0x00, 0x08, 0x00, 0x00 };
static const uint8_t test_data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

/* A good static program: RX text at 0x10000 holding the program
 * headers (like the toolchain's first segment), RW data at 0x12000 with
 * bss, PT_PHDR. */
static inline TestElf test_good_elf(void)
{
    uint8_t text[0x200];

    memset(text, 0, sizeof(text));
    memcpy(text + 0x100, test_code, sizeof(test_code));
    TestSeg segs[] = {
        { ELF_PT_PHDR, ELF_PF_R, 0x10040, 3 * TEST_PHDR_SIZE, NULL, 3 * TEST_PHDR_SIZE, 8 },
        { ELF_PT_LOAD, ELF_PF_R | ELF_PF_X, 0x10000, sizeof(text), text, sizeof(text), 0x1000 },
        { ELF_PT_LOAD, ELF_PF_R | ELF_PF_W, 0x12000, 0x3000, test_data, sizeof(test_data), 0x1000 },
    };
    TestElf e = test_build_elf(ELF_ET_EXEC, EM_LINXISA, 0x10100, segs, 3);
    /* The first PT_LOAD maps file offset 0 (headers included). */
    uint8_t *ph1 = e.buf + TEST_EHDR_SIZE + TEST_PHDR_SIZE;
    test_put64(ph1 + 8, 0);
    memcpy(e.buf + 0x100, test_code, sizeof(test_code));
    return e;
}

static inline LinuxProcess *test_process(FILE *log)
{
    LinuxOptions o = { .log = log };
    LinuxProcess *p = linux_process_new(&o);

    guest_mem_map(p->mem, TEST_SCRATCH, TEST_SCRATCH_SIZE, GM_PROT_READ | GM_PROT_WRITE, false);
    p->brk_start = p->brk_cur = 0x800000;
    return p;
}

static inline CPULinxState *test_cpu(LinuxProcess *p)
{
    CPULinxState *env = calloc(1, sizeof(*env));

    env->engine.mem = p->mem;
    env->gpr[LINX_REG_SP] = TEST_SCRATCH + TEST_SCRATCH_SIZE;
    env->pc = 0x10100;
    env->bpc = 0x10100;
    env->acr = LINUX_USER_ACR;
    p->env = env;
    return env;
}

/* Run system call @nr with arguments; returns a0 and the action. */
static inline int64_t test_syscall(LinuxProcess *p, CPULinxState *env, uint64_t nr, uint64_t a0,
                                   uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                                   LinuxSyscallAction *action)
{
    uint64_t args[6] = { a0, a1, a2, a3, a4, a5 };
    LinuxSyscallAction act;

    for (int i = 0; i < 6; i++) {
        env->gpr[LINX_REG_A0 + i] = args[i];
    }
    env->gpr[LINX_REG_A7] = nr;
    act = linux_syscall(p, env);
    if (action) {
        *action = act;
    }
    return (int64_t)env->gpr[LINX_REG_A0];
}

#define SYS0(nr) test_syscall(p, env, (nr), 0, 0, 0, 0, 0, 0, NULL)
#define SYS1(nr, a) test_syscall(p, env, (nr), (a), 0, 0, 0, 0, 0, NULL)
#define SYS2(nr, a, b) test_syscall(p, env, (nr), (a), (b), 0, 0, 0, 0, NULL)
#define SYS3(nr, a, b, c) test_syscall(p, env, (nr), (a), (b), (c), 0, 0, 0, NULL)
#define SYS4(nr, a, b, c, d) test_syscall(p, env, (nr), (a), (b), (c), (d), 0, 0, NULL)
#define SYS6(nr, a, b, c, d, e, f) test_syscall(p, env, (nr), (a), (b), (c), (d), (e), (f), NULL)

/* Put a string / bytes into guest memory. */
static inline uint64_t test_poke(LinuxProcess *p, uint64_t addr, const void *data, size_t len)
{
    guest_mem_write(p->mem, addr, data, len, NULL);
    return addr;
}

static inline uint64_t test_peek64(LinuxProcess *p, uint64_t addr)
{
    uint8_t b[8] = { 0 };

    guest_mem_read(p->mem, addr, b, 8, GM_PROT_READ, NULL);
    return test_get64(b);
}

/* asm-generic numbers used by the tests. */
enum {
    NR_getcwd = 17, NR_dup = 23, NR_dup3 = 24, NR_fcntl = 25, NR_ioctl = 29, NR_mkdirat = 34,
    NR_unlinkat = 35, NR_faccessat = 48, NR_chdir = 49, NR_openat = 56, NR_close = 57,
    NR_pipe2 = 59, NR_getdents64 = 61, NR_lseek = 62, NR_read = 63, NR_write = 64,
    NR_readv = 65, NR_writev = 66, NR_pread64 = 67, NR_pwrite64 = 68, NR_ppoll = 73,
    NR_readlinkat = 78, NR_newfstatat = 79, NR_fstat = 80, NR_exit = 93, NR_exit_group = 94,
    NR_set_tid_address = 96, NR_futex = 98, NR_set_robust_list = 99, NR_nanosleep = 101,
    NR_clock_gettime = 113, NR_clock_getres = 114, NR_clock_nanosleep = 115,
    NR_sched_yield = 124, NR_kill = 129, NR_tkill = 130, NR_tgkill = 131, NR_sigaltstack = 132,
    NR_rt_sigaction = 134, NR_rt_sigprocmask = 135, NR_rt_sigpending = 136,
    NR_rt_sigreturn = 139, NR_uname = 160, NR_getrlimit = 163, NR_gettimeofday = 169,
    NR_getpid = 172, NR_getppid = 173, NR_getuid = 174, NR_geteuid = 175, NR_getgid = 176,
    NR_getegid = 177, NR_gettid = 178, NR_bind = 200, NR_brk = 214, NR_munmap = 215,
    NR_mremap = 216, NR_mmap = 222, NR_mprotect = 226, NR_madvise = 233, NR_prlimit64 = 261,
    NR_getrandom = 278,
};

#endif /* LINX_TEST_LINUX_USER_UTIL_H */
