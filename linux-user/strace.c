/*
 * Linux user mode: -strace, one line per system call in strace's style:
 *
 *   openat(AT_FDCWD, "/tmp/x", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3
 *   read(3, "hello\n", 64) = 6
 *   openat(AT_FDCWD, "/nope", O_RDONLY) = -1 ENOENT (No such file or directory)
 *
 * The table (syscall-table.c) gives one format letter per argument:
 *   d int        l long       u unsigned    x hex          p pointer
 *   s string     b buffer whose length is the next argument (input)
 *   B buffer whose length is the result (output)
 *   f dirfd (AT_FDCWD)        o octal mode  O open flags
 *   P mmap prot  M mmap flags S signal      c clock id     F futex op
 * and one for the result: d decimal, x hex, o octal, n (does not return:
 * printed before the call, without a result).
 * Strings and buffers are read with the checked guest-memory helpers; an
 * unreadable one prints as its address.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syscall-internal.h"

#define STRACE_MAX_STRING 32

static void print_escaped(FILE *f, const uint8_t *s, size_t n, bool truncated)
{
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        switch (c) {
        case '\n':
            fputs("\\n", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        default:
            if (c >= 0x20 && c < 0x7f) {
                fputc(c, f);
            } else {
                fprintf(f, "\\%o", c);
            }
        }
    }
    fputc('"', f);
    if (truncated) {
        fputs("...", f);
    }
}

static void print_buffer(LinuxProcess *p, FILE *f, uint64_t addr, uint64_t len)
{
    uint8_t b[STRACE_MAX_STRING];
    size_t n = len < STRACE_MAX_STRING ? (size_t)len : STRACE_MAX_STRING;

    if (lu_copy_from(p, b, addr, n) < 0) {
        fprintf(f, "0x%llx", (unsigned long long)addr);
        return;
    }
    print_escaped(f, b, n, len > n);
}

static void print_string(LinuxProcess *p, FILE *f, uint64_t addr)
{
    char *s;

    if (!addr) {
        fputs("NULL", f);
        return;
    }
    if (lu_read_string(p, addr, LU_PATH_MAX, &s) < 0) {
        fprintf(f, "0x%llx", (unsigned long long)addr);
        return;
    }
    size_t len = strlen(s);
    print_escaped(f, (const uint8_t *)s, len < STRACE_MAX_STRING * 4 ? len : STRACE_MAX_STRING * 4,
                  len > STRACE_MAX_STRING * 4);
    free(s);
}

typedef struct FlagName {
    uint64_t bit;
    const char *name;
} FlagName;

static void print_flags(FILE *f, uint64_t v, const FlagName *names, size_t n)
{
    bool first = true;

    for (size_t i = 0; i < n; i++) {
        if (names[i].bit && (v & names[i].bit) == names[i].bit) {
            fprintf(f, "%s%s", first ? "" : "|", names[i].name);
            v &= ~names[i].bit;
            first = false;
        }
    }
    if (v || first) {
        fprintf(f, "%s0x%llx", first ? "" : "|", (unsigned long long)v);
    }
}

static void print_open_flags(FILE *f, uint64_t v)
{
    static const FlagName names[] = {
        { 0100, "O_CREAT" },       { 0200, "O_EXCL" },         { 0400, "O_NOCTTY" },
        { 01000, "O_TRUNC" },      { 02000, "O_APPEND" },      { 04000, "O_NONBLOCK" },
        { 0200000, "O_DIRECTORY" }, { 0400000, "O_NOFOLLOW" }, { 02000000, "O_CLOEXEC" },
        { 0100000, "O_LARGEFILE" }, { 010000000, "O_PATH" },
    };
    static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };

    fputs(acc[v & 3], f);
    v &= ~(uint64_t)3;
    if (v) {
        fputc('|', f);
        print_flags(f, v, names, sizeof(names) / sizeof(names[0]));
    }
}

static void print_arg(LinuxProcess *p, FILE *f, char fmt, const uint64_t *a, int i, int64_t ret)
{
    uint64_t v = a[i];
    static const FlagName prot[] = { { 1, "PROT_READ" }, { 2, "PROT_WRITE" }, { 4, "PROT_EXEC" } };
    static const FlagName mapf[] = {
        { 0x01, "MAP_SHARED" },    { 0x02, "MAP_PRIVATE" },   { 0x10, "MAP_FIXED" },
        { 0x20, "MAP_ANONYMOUS" }, { 0x4000, "MAP_NORESERVE" }, { 0x20000, "MAP_STACK" },
        { 0x100000, "MAP_FIXED_NOREPLACE" },
    };
    static const char *const clocks[] = { "CLOCK_REALTIME", "CLOCK_MONOTONIC",
                                          "CLOCK_PROCESS_CPUTIME_ID", "CLOCK_THREAD_CPUTIME_ID",
                                          "CLOCK_MONOTONIC_RAW", "CLOCK_REALTIME_COARSE",
                                          "CLOCK_MONOTONIC_COARSE", "CLOCK_BOOTTIME" };

    switch (fmt) {
    case 'd':
        fprintf(f, "%d", (int)(int32_t)v);
        break;
    case 'l':
        fprintf(f, "%lld", (long long)v);
        break;
    case 'u':
        fprintf(f, "%llu", (unsigned long long)v);
        break;
    case 'o':
        fprintf(f, "0%llo", (unsigned long long)v);
        break;
    case 'p':
        if (v) {
            fprintf(f, "0x%llx", (unsigned long long)v);
        } else {
            fputs("NULL", f);
        }
        break;
    case 's':
        print_string(p, f, v);
        break;
    case 'b':
        print_buffer(p, f, v, a[i + 1]);
        break;
    case 'B':
        if (ret >= 0) {
            print_buffer(p, f, v, (uint64_t)ret);
        } else {
            fprintf(f, "0x%llx", (unsigned long long)v);
        }
        break;
    case 'f':
        if ((int32_t)v == -100) {
            fputs("AT_FDCWD", f);
        } else {
            fprintf(f, "%d", (int)(int32_t)v);
        }
        break;
    case 'O':
        print_open_flags(f, v);
        break;
    case 'P':
        if (v == 0) {
            fputs("PROT_NONE", f);
        } else {
            print_flags(f, v, prot, sizeof(prot) / sizeof(prot[0]));
        }
        break;
    case 'M':
        print_flags(f, v, mapf, sizeof(mapf) / sizeof(mapf[0]));
        break;
    case 'S':
        if ((int64_t)v > 0 && v <= LINUX_NSIG) {
            fputs(linux_signal_name((int)v), f);
        } else {
            fprintf(f, "%d", (int)(int32_t)v);
        }
        break;
    case 'c':
        if (v < sizeof(clocks) / sizeof(clocks[0])) {
            fputs(clocks[v], f);
        } else {
            fprintf(f, "%d", (int)(int32_t)v);
        }
        break;
    case 'F': {
        static const char *const ops[] = { "FUTEX_WAIT", "FUTEX_WAKE", "FUTEX_FD",
                                           "FUTEX_REQUEUE", "FUTEX_CMP_REQUEUE",
                                           "FUTEX_WAKE_OP" };
        uint64_t op = v & 127;
        if (op < sizeof(ops) / sizeof(ops[0])) {
            fprintf(f, "%s%s", ops[op], (v & 128) ? "_PRIVATE" : "");
        } else {
            fprintf(f, "%llu", (unsigned long long)v);
        }
        break;
    }
    default:
        fprintf(f, "0x%llx", (unsigned long long)v);
        break;
    }
}

static const char *errno_name(int e)
{
    switch (e) {
    case EPERM: return "EPERM";
    case ENOENT: return "ENOENT";
    case ESRCH: return "ESRCH";
    case EINTR: return "EINTR";
    case EIO: return "EIO";
    case EBADF: return "EBADF";
    case EAGAIN: return "EAGAIN";
    case ENOMEM: return "ENOMEM";
    case EACCES: return "EACCES";
    case EFAULT: return "EFAULT";
    case EBUSY: return "EBUSY";
    case EEXIST: return "EEXIST";
    case ENOTDIR: return "ENOTDIR";
    case EISDIR: return "EISDIR";
    case EINVAL: return "EINVAL";
    case EMFILE: return "EMFILE";
    case ENOTTY: return "ENOTTY";
    case ENOSPC: return "ENOSPC";
    case ESPIPE: return "ESPIPE";
    case EPIPE: return "EPIPE";
    case ERANGE: return "ERANGE";
    case ENAMETOOLONG: return "ENAMETOOLONG";
    case ENOSYS: return "ENOSYS";
    case ENOTEMPTY: return "ENOTEMPTY";
    case ETIMEDOUT: return "ETIMEDOUT";
    case ENODEV: return "ENODEV";
    default: return NULL;
    }
}

void lu_strace_print(LinuxProcess *p, uint64_t nr, const uint64_t *a, int64_t ret)
{
    FILE *f = p->opts.log;
    const LinuxSyscallDef *d = nr < LINUX_SYSCALL_MAX ? lu_syscall_def((unsigned)nr) : NULL;
    const char *args = d && d->fn ? d->args : "xxxxxx";
    char retfmt = d ? d->ret : 'd';

    fprintf(f, "%d ", (int)p->pid);
    if (d) {
        fprintf(f, "%s(", d->name);
    } else {
        fprintf(f, "syscall_%llu(", (unsigned long long)nr);
    }
    for (int i = 0; args[i] && i < 6; i++) {
        if (i) {
            fputs(", ", f);
        }
        print_arg(p, f, args[i], a, i, ret);
    }
    fputc(')', f);
    if (retfmt == 'n') {
        fputs(" = ?\n", f);
    } else if (ret < 0 && ret >= -4095) {
        const char *name = errno_name((int)-ret);
        if (name) {
            fprintf(f, " = -1 %s (%s)\n", name, strerror((int)-ret));
        } else {
            fprintf(f, " = -1 errno %d (%s)\n", (int)-ret, strerror((int)-ret));
        }
    } else if (retfmt == 'x') {
        fprintf(f, " = 0x%llx\n", (unsigned long long)ret);
    } else if (retfmt == 'o') {
        fprintf(f, " = 0%llo\n", (unsigned long long)ret);
    } else {
        fprintf(f, " = %lld\n", (long long)ret);
    }
    fflush(f);
}
