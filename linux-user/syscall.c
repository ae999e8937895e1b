/*
 * Linux user mode: system-call entry and the checked guest-memory helpers
 * every handler uses.
 *
 * ABI (linxisa-digest section 5): `acrc 1` traps with the number in a7,
 * arguments in a0..a5 and the result (negative errno) in a0; execution
 * resumes after the acrc.  Numbers are asm-generic.  A number with no
 * handler returns -ENOSYS and is reported once under -strace or -d unimp.
 *
 * linux_syscall() only touches the CPU registers and the process; it never
 * leaves the exec loop itself (cpu-loop.c turns its result into
 * cpu_loop_exit), so the unit tests call it with a CPU state built by hand.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syscall-internal.h"

int64_t lu_errno(void)
{
    return -(int64_t)(errno ? errno : EIO);
}

int lu_copy_from(LinuxProcess *p, void *dst, uint64_t src, size_t len)
{
    if (len == 0) {
        return 0;
    }
    return guest_mem_read(p->mem, src, dst, len, GM_PROT_READ, NULL) == GM_OK ? 0 : -EFAULT;
}

int lu_copy_to(LinuxProcess *p, uint64_t dst, const void *src, size_t len)
{
    if (len == 0) {
        return 0;
    }
    return guest_mem_write(p->mem, dst, src, len, NULL) == GM_OK ? 0 : -EFAULT;
}

int lu_check_write(LinuxProcess *p, uint64_t addr, size_t len)
{
    uint8_t probe[GUEST_PAGE_SIZE];

    /* Probe one byte per page (and the last byte) for write permission. */
    while (len) {
        size_t in_page = GUEST_PAGE_SIZE - (addr & ~GUEST_PAGE_MASK);
        size_t n = len < in_page ? len : in_page;
        if (guest_mem_read(p->mem, addr, probe, n, GM_PROT_WRITE, NULL) != GM_OK) {
            return -EFAULT;
        }
        addr += n;
        len -= n;
    }
    return 0;
}

int lu_read_string(LinuxProcess *p, uint64_t addr, size_t max, char **out)
{
    char *buf = malloc(max);
    size_t have = 0;

    *out = NULL;
    if (!buf) {
        return -ENOMEM;
    }
    while (have < max) {
        size_t in_page = GUEST_PAGE_SIZE - ((addr + have) & ~GUEST_PAGE_MASK);
        size_t n = max - have < in_page ? max - have : in_page;
        if (guest_mem_read(p->mem, addr + have, buf + have, n, GM_PROT_READ, NULL) != GM_OK) {
            free(buf);
            return -EFAULT;
        }
        char *nul = memchr(buf + have, 0, n);
        if (nul) {
            *out = buf;
            return 0;
        }
        have += n;
    }
    free(buf);
    return -ENAMETOOLONG;
}

void lu_report_unimp(LinuxProcess *p, const char *fmt, ...)
{
    va_list ap;

    if (!p->opts.strace && !p->opts.log_unimp) {
        return;
    }
    fprintf(p->opts.log, "linx-user: unimplemented: ");
    va_start(ap, fmt);
    vfprintf(p->opts.log, fmt, ap);
    va_end(ap);
    fputc('\n', p->opts.log);
    fflush(p->opts.log);
}

/* A guest fd that is a valid int and not one of the emulator's own. */
int lu_guest_fd(LinuxProcess *p, uint64_t v)
{
    int fd = (int)(int32_t)v;

    if (fd < 0 || linux_fd_is_reserved(p, fd)) {
        return -1;
    }
    return fd;
}

/* A dirfd argument: AT_FDCWD or a usable descriptor. */
int lu_guest_dirfd(LinuxProcess *p, uint64_t v)
{
    int fd = (int)(int32_t)v;

    if (fd == LU_AT_FDCWD) {
        return AT_FDCWD;
    }
    return lu_guest_fd(p, v);
}

const char *linux_syscall_name(unsigned nr)
{
    const LinuxSyscallDef *d = lu_syscall_def(nr);

    return d ? d->name : NULL;
}

LinuxSyscallAction linux_syscall(LinuxProcess *p, CPULinxState *env)
{
    uint64_t nr = env->gpr[LINX_REG_A7];
    uint64_t a[6];
    const LinuxSyscallDef *d = nr < LINUX_SYSCALL_MAX ? lu_syscall_def((unsigned)nr) : NULL;
    int64_t ret;

    for (int i = 0; i < 6; i++) {
        a[i] = env->gpr[LINX_REG_A0 + i];
    }
    p->syscall_count++;

    if (!d || !d->fn) {
        ret = -ENOSYS;
        if (nr >= LINUX_SYSCALL_MAX) {
            lu_report_unimp(p, "system call %llu (out of range)", (unsigned long long)nr);
        } else if (!(p->unimp_reported[nr / 8] & (1u << (nr % 8)))) {
            p->unimp_reported[nr / 8] |= (uint8_t)(1u << (nr % 8));
            lu_report_unimp(p, "system call %llu (%s)", (unsigned long long)nr,
                            d && d->name ? d->name : "unknown");
        }
        if (p->opts.strace) {
            lu_strace_print(p, nr, a, ret);
        }
    } else {
        if (p->opts.strace && d->ret == 'n') {
            /* Calls that do not return are printed first. */
            lu_strace_print(p, nr, a, 0);
        }
        ret = d->fn(p, env, a);
        if (p->opts.strace && d->ret != 'n') {
            lu_strace_print(p, nr, a, ret);
        }
    }

    if (p->exited) {
        return LINUX_SYSCALL_EXIT;
    }
    if (ret == LU_RET_NONE) {
        /* rt_sigreturn set pc and the registers (and delivered any signal
         * its restored mask let through). */
        return LINUX_SYSCALL_REDIRECT;
    }
    env->gpr[LINX_REG_A0] = (uint64_t)ret;
    if (linux_signal_next(p)) {
        return LINUX_SYSCALL_SIGNAL;
    }
    return LINUX_SYSCALL_CONTINUE;
}
