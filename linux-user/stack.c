/*
 * Linux user mode: the initial process stack.
 *
 * Layout, from the top of the stack down (as Linux builds it; the SysV
 * ABI's "process initialisation" picture):
 *
 *   LINUX_STACK_TOP   end of the stack mapping
 *                     execfn string, then the envp and argv strings
 *                     platform string "linx64", AT_RANDOM's 16 bytes
 *                     (padding to 16 bytes)
 *                     auxv pairs ... AT_NULL, 0
 *                     envp[0..n-1], NULL
 *                     argv[0..n-1], NULL
 *   sp ->             argc
 *
 * sp is 16-byte aligned and every other register starts at 0
 * (linux_process_attach_cpu).  musl's _start passes sp to __start_c as the
 * pointer to argc (linxisa-digest section 5).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linux-user.h"

#define STACK_ALIGN 16
#define AT_RANDOM_BYTES 16
/* Number of auxv pairs linux_setup_stack writes, including AT_NULL. */
#define AUXV_PAIRS 19

static uint64_t stack_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return 0;
}

/* Stack builder: writes downwards from @sp, checking the mapping. */
typedef struct StackWriter {
    GuestMemory *gm;
    uint64_t sp;
    uint64_t limit;
    bool ok;
} StackWriter;

static uint64_t push_bytes(StackWriter *w, const void *data, size_t len)
{
    if (!w->ok || len > w->sp - w->limit) {
        w->ok = false;
        return 0;
    }
    w->sp -= len;
    if (guest_mem_write(w->gm, w->sp, data, len, NULL) != GM_OK) {
        w->ok = false;
    }
    return w->sp;
}

static uint64_t push_string(StackWriter *w, const char *s)
{
    return push_bytes(w, s, strlen(s) + 1);
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

uint64_t linux_setup_stack(LinuxProcess *p, int argc, char **argv, char **envp,
                           const char *execfn, const uint8_t *random, char *err, size_t errlen)
{
    uint64_t stack_size = p->opts.stack_size ? p->opts.stack_size : LINUX_STACK_SIZE;
    uint64_t top = LINUX_STACK_TOP;
    uint64_t bottom;
    int envc = 0;
    size_t strbytes = 0;
    uint8_t rnd[AT_RANDOM_BYTES];

    stack_size = (stack_size + GUEST_PAGE_SIZE - 1) & GUEST_PAGE_MASK;
    if (stack_size < 4 * GUEST_PAGE_SIZE || stack_size > LINUX_STACK_TOP / 2) {
        return stack_fail(err, errlen, "stack size 0x%llx out of range",
                          (unsigned long long)stack_size);
    }
    if (argc < 0) {
        return stack_fail(err, errlen, "negative argument count");
    }
    for (int i = 0; i < argc; i++) {
        strbytes += strlen(argv[i]) + 1;
    }
    while (envp && envp[envc]) {
        strbytes += strlen(envp[envc]) + 1;
        envc++;
    }
    strbytes += strlen(execfn) + 1;
    if (strbytes + ((size_t)argc + envc) * 8 > LINUX_MAX_ARG_BYTES ||
        strbytes + ((size_t)argc + envc) * 8 > stack_size / 2) {
        return stack_fail(err, errlen,
                          "argument list too long: %zu bytes of arguments and environment "
                          "(limit %llu)",
                          strbytes, (unsigned long long)LINUX_MAX_ARG_BYTES);
    }

    bottom = top - stack_size;
    if (!guest_mem_map(p->mem, bottom, stack_size, GM_PROT_READ | GM_PROT_WRITE, false)) {
        return stack_fail(err, errlen, "cannot map the stack at [0x%llx, 0x%llx)",
                          (unsigned long long)bottom, (unsigned long long)top);
    }
    p->stack_top = top;
    p->stack_limit = bottom;

    if (random) {
        memcpy(rnd, random, sizeof(rnd));
    } else {
        linux_random_bytes(p, rnd, sizeof(rnd)); /* host entropy, or -seed */
    }

    StackWriter w = { .gm = p->mem, .sp = top, .limit = bottom, .ok = true };
    uint64_t execfn_addr = push_string(&w, execfn);
    uint64_t *env_addr = calloc((size_t)envc + 1, sizeof(uint64_t));
    uint64_t *arg_addr = calloc((size_t)argc + 1, sizeof(uint64_t));
    if (!env_addr || !arg_addr) {
        free(env_addr);
        free(arg_addr);
        return stack_fail(err, errlen, "out of memory building the stack");
    }
    for (int i = envc - 1; i >= 0; i--) {
        env_addr[i] = push_string(&w, envp[i]);
    }
    for (int i = argc - 1; i >= 0; i--) {
        arg_addr[i] = push_string(&w, argv[i]);
    }
    uint64_t platform_addr = push_string(&w, LINUX_PLATFORM);
    w.sp &= ~(uint64_t)(STACK_ALIGN - 1);
    uint64_t random_addr = push_bytes(&w, rnd, sizeof(rnd));

    /* The vector block: argc, argv, NULL, envp, NULL, auxv. */
    const uint64_t auxv[AUXV_PAIRS][2] = {
        { LINUX_AT_PHDR, p->image.phdr },
        { LINUX_AT_PHENT, p->image.phent },
        { LINUX_AT_PHNUM, p->image.phnum },
        { LINUX_AT_PAGESZ, GUEST_PAGE_SIZE },
        { LINUX_AT_BASE, 0 },
        { LINUX_AT_FLAGS, 0 },
        { LINUX_AT_ENTRY, p->image.entry },
        { LINUX_AT_UID, (uint64_t)getuid() },
        { LINUX_AT_EUID, (uint64_t)geteuid() },
        { LINUX_AT_GID, (uint64_t)getgid() },
        { LINUX_AT_EGID, (uint64_t)getegid() },
        { LINUX_AT_PLATFORM, platform_addr },
        { LINUX_AT_HWCAP, LINUX_HWCAP },
        { LINUX_AT_CLKTCK, LINUX_CLKTCK },
        { LINUX_AT_SECURE, 0 },
        { LINUX_AT_RANDOM, random_addr },
        { LINUX_AT_HWCAP2, 0 },
        { LINUX_AT_EXECFN, execfn_addr },
        { LINUX_AT_NULL, 0 },
    };
    size_t nwords = 1 + (size_t)argc + 1 + (size_t)envc + 1 + 2 * AUXV_PAIRS;
    uint8_t *block = calloc(nwords, 8);
    if (!block) {
        free(env_addr);
        free(arg_addr);
        return stack_fail(err, errlen, "out of memory building the stack");
    }
    size_t k = 0;
    put_u64(block + 8 * k++, (uint64_t)argc);
    for (int i = 0; i < argc; i++) {
        put_u64(block + 8 * k++, arg_addr[i]);
    }
    put_u64(block + 8 * k++, 0);
    for (int i = 0; i < envc; i++) {
        put_u64(block + 8 * k++, env_addr[i]);
    }
    put_u64(block + 8 * k++, 0);
    for (int i = 0; i < AUXV_PAIRS; i++) {
        put_u64(block + 8 * k++, auxv[i][0]);
        put_u64(block + 8 * k++, auxv[i][1]);
    }
    /* Place the block so that argc ends up 16-byte aligned. */
    uint64_t base = (w.sp - nwords * 8) & ~(uint64_t)(STACK_ALIGN - 1);
    uint64_t pad = w.sp - base - nwords * 8;
    if (pad) {
        uint8_t zero[STACK_ALIGN] = { 0 };
        push_bytes(&w, zero, (size_t)pad);
    }
    push_bytes(&w, block, nwords * 8);
    free(block);
    free(env_addr);
    free(arg_addr);
    if (!w.ok) {
        return stack_fail(err, errlen, "the arguments and environment do not fit on the stack");
    }
    p->initial_sp = w.sp;
    return w.sp;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;

    for (int i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

uint8_t *linux_initial_auxv(const LinuxProcess *p, size_t *len)
{
    uint64_t a = p->initial_sp;
    unsigned nulls = 0;
    uint8_t *buf;
    uint64_t start;
    uint8_t w[8];

    if (!a) {
        return NULL;
    }
    /* argc, argv..., NULL, envp..., NULL, then the pairs. */
    a += 8;
    while (nulls < 2) {
        if (guest_mem_debug_rw(p->mem, a, w, 8, false) != GM_OK) {
            return NULL;
        }
        nulls += get_u64(w) == 0;
        a += 8;
    }
    start = a;
    for (unsigned i = 0; i < AUXV_PAIRS; i++, a += 16) {
        if (guest_mem_debug_rw(p->mem, a, w, 8, false) != GM_OK) {
            return NULL;
        }
        if (get_u64(w) == LINUX_AT_NULL) {
            a += 16;
            break;
        }
    }
    *len = (size_t)(a - start);
    buf = malloc(*len);
    if (buf && guest_mem_debug_rw(p->mem, start, buf, *len, false) != GM_OK) {
        free(buf);
        buf = NULL;
    }
    return buf;
}
