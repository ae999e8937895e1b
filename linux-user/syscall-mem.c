/*
 * Linux user mode: memory system calls (brk, mmap, munmap, mremap,
 * mprotect, madvise).
 *
 * All of them edit the process's GuestMemory; guest pages are host
 * anonymous memory reserved lazily (MAP_NORESERVE), so a large mmap costs
 * address space, not RAM.  File mappings are private copies: MAP_PRIVATE
 * (any protection) and read-only MAP_SHARED are supported, a writable
 * shared file mapping is refused with ENODEV (it would need a host mmap of
 * the file inside guest memory) and reported under -d unimp.
 *
 * Non-fixed mappings are placed first fit from LINUX_MMAP_BASE upwards
 * (or at the hint when it is free), wrapping round to the image end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "syscall-internal.h"
#include "tcg/exec.h"

/* mmap flags and protections (asm-generic mman). */
enum {
    LINUX_PROT_READ = 0x1,
    LINUX_PROT_WRITE = 0x2,
    LINUX_PROT_EXEC = 0x4,
    LINUX_MAP_SHARED = 0x01,
    LINUX_MAP_PRIVATE = 0x02,
    LINUX_MAP_SHARED_VALIDATE = 0x03,
    LINUX_MAP_TYPE = 0x0f,
    LINUX_MAP_FIXED = 0x10,
    LINUX_MAP_ANONYMOUS = 0x20,
    LINUX_MAP_FIXED_NOREPLACE = 0x100000,
    LINUX_MREMAP_MAYMOVE = 1,
    LINUX_MREMAP_FIXED = 2,
    LINUX_MADV_DONTNEED = 4,
};
_Static_assert((int)LINUX_PROT_READ == (int)GM_PROT_READ &&
                   (int)LINUX_PROT_WRITE == (int)GM_PROT_WRITE &&
                   (int)LINUX_PROT_EXEC == (int)GM_PROT_EXEC,
               "guest PROT_* bits are GuestMemory permissions");

static bool page_aligned(uint64_t a)
{
    return (a & ~GUEST_PAGE_MASK) == 0;
}

/* Page-rounded length, 0 on overflow or if beyond the task size. */
static uint64_t page_len(uint64_t len)
{
    if (len == 0 || len > LINUX_TASK_SIZE) {
        return 0;
    }
    return (len + GUEST_PAGE_SIZE - 1) & GUEST_PAGE_MASK;
}

static bool range_ok(uint64_t addr, uint64_t len)
{
    return addr >= LINUX_MIN_ADDR && addr < LINUX_TASK_SIZE && len <= LINUX_TASK_SIZE - addr;
}

/* Is [addr, addr + len) completely unmapped? */
static bool range_free(LinuxProcess *p, uint64_t addr, uint64_t len)
{
    return range_ok(addr, len) && guest_mem_find_free(p->mem, addr, len) == addr;
}

/* Where a new mapping of @len bytes goes, or UINT64_MAX. */
static uint64_t choose_addr(LinuxProcess *p, uint64_t hint, uint64_t len)
{
    uint64_t a;

    if (hint && page_aligned(hint) && range_free(p, hint, len)) {
        return hint;
    }
    a = guest_mem_find_free(p->mem, p->mmap_hint, len);
    if (a == UINT64_MAX || !range_ok(a, len)) {
        /* Wrap round: anywhere above the brk area's start. */
        a = guest_mem_find_free(p->mem, p->brk_start ? p->brk_start : LINUX_MIN_ADDR, len);
    }
    if (a == UINT64_MAX || !range_ok(a, len)) {
        return UINT64_MAX;
    }
    return a;
}

static int64_t do_brk(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    uint64_t want = a[0];
    uint64_t old_end = (p->brk_cur + GUEST_PAGE_SIZE - 1) & GUEST_PAGE_MASK;
    uint64_t new_end;

    if (want < p->brk_start || want > LINUX_MMAP_BASE) {
        return (int64_t)p->brk_cur;
    }
    new_end = (want + GUEST_PAGE_SIZE - 1) & GUEST_PAGE_MASK;
    if (new_end > old_end) {
        uint64_t grow = new_end - old_end;
        uint64_t data_limit = p->rlim[LINUX_RLIMIT_DATA][0];
        if (data_limit != UINT64_MAX && new_end - p->brk_start > data_limit) {
            return (int64_t)p->brk_cur;
        }
        if (!range_free(p, old_end, grow) ||
            !guest_mem_map(p->mem, old_end, grow, GM_PROT_READ | GM_PROT_WRITE, false)) {
            return (int64_t)p->brk_cur;
        }
    } else if (new_end < old_end) {
        guest_mem_unmap(p->mem, new_end, old_end - new_end);
    }
    p->brk_cur = want;
    return (int64_t)want;
}

/* Copy @len bytes of file @fd from @off into guest memory at @addr
 * (ignoring protections: the loader's path).  Short files leave zeros. */
static int64_t fill_from_file(LinuxProcess *p, int fd, uint64_t addr, uint64_t len, uint64_t off)
{
    uint8_t *b = malloc(LU_IO_CHUNK);
    uint64_t done = 0;

    if (!b) {
        return -ENOMEM;
    }
    while (done < len) {
        size_t want = len - done < LU_IO_CHUNK ? (size_t)(len - done) : LU_IO_CHUNK;
        ssize_t n = pread(fd, b, want, (off_t)(off + done));
        if (n < 0) {
            free(b);
            return lu_errno();
        }
        if (n == 0) {
            break;
        }
        guest_mem_debug_rw(p->mem, addr + done, b, (size_t)n, true);
        done += (uint64_t)n;
    }
    free(b);
    return 0;
}

static int64_t do_mmap(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    uint64_t hint = a[0], len = page_len(a[1]), off = a[5];
    int prot = (int)(uint32_t)a[2], flags = (int)(uint32_t)a[3];
    int fd = (int)(int32_t)a[4];
    bool anon = flags & LINUX_MAP_ANONYMOUS;
    int type = flags & LINUX_MAP_TYPE;
    uint64_t addr;

    if (a[1] == 0 || len == 0) {
        return a[1] == 0 ? -EINVAL : -ENOMEM;
    }
    if (!page_aligned(off) || (prot & ~(LINUX_PROT_READ | LINUX_PROT_WRITE | LINUX_PROT_EXEC))) {
        return -EINVAL;
    }
    if (type != LINUX_MAP_SHARED && type != LINUX_MAP_PRIVATE &&
        type != LINUX_MAP_SHARED_VALIDATE) {
        return -EINVAL;
    }
    if (!anon) {
        if (fd < 0 || linux_fd_is_reserved(p, fd)) {
            return -EBADF;
        }
        if (type != LINUX_MAP_PRIVATE && (prot & LINUX_PROT_WRITE)) {
            lu_report_unimp(p, "mmap of a writable shared file mapping (fd %d)", fd);
            return -ENODEV;
        }
        off_t end = lseek(fd, 0, SEEK_END);
        if (end < 0) {
            return lu_errno() == -ESPIPE ? -ENODEV : lu_errno();
        }
    }

    if (flags & (LINUX_MAP_FIXED | LINUX_MAP_FIXED_NOREPLACE)) {
        addr = hint;
        if (!page_aligned(addr)) {
            return -EINVAL;
        }
        if (addr < LINUX_MIN_ADDR) {
            return -EPERM;
        }
        if (!range_ok(addr, len)) {
            return -ENOMEM;
        }
        if ((flags & LINUX_MAP_FIXED_NOREPLACE) && !(flags & LINUX_MAP_FIXED) &&
            !range_free(p, addr, len)) {
            return -EEXIST;
        }
    } else {
        addr = choose_addr(p, hint, len);
        if (addr == UINT64_MAX) {
            return -ENOMEM;
        }
    }
    if (!guest_mem_map(p->mem, addr, len, prot, true)) {
        return -ENOMEM;
    }
    if (!anon) {
        int64_t r = fill_from_file(p, fd, addr, a[1], off);
        if (r < 0) {
            guest_mem_unmap(p->mem, addr, len);
            return r;
        }
    }
    if (!(flags & (LINUX_MAP_FIXED | LINUX_MAP_FIXED_NOREPLACE)) && addr >= p->mmap_hint) {
        p->mmap_hint = addr + len;
    }
    return (int64_t)addr;
}

static int64_t do_munmap(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    uint64_t addr = a[0], len = page_len(a[1]);

    if (!page_aligned(addr) || len == 0 || !range_ok(addr, len)) {
        return -EINVAL;
    }
    guest_mem_unmap(p->mem, addr, len);
    if (addr < p->mmap_hint && addr >= LINUX_MMAP_BASE) {
        p->mmap_hint = addr;
    }
    return 0;
}

static int64_t do_mremap(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    uint64_t old = a[0], old_len = page_len(a[1]), new_len = page_len(a[2]);
    unsigned flags = (unsigned)a[3];
    uint64_t target;
    int prot;

    if (!page_aligned(old) || old_len == 0 || new_len == 0 ||
        (flags & ~(unsigned)(LINUX_MREMAP_MAYMOVE | LINUX_MREMAP_FIXED)) ||
        ((flags & LINUX_MREMAP_FIXED) && !(flags & LINUX_MREMAP_MAYMOVE))) {
        return -EINVAL;
    }
    if (!range_ok(old, old_len)) {
        return -EFAULT;
    }
    /* The old range must be mapped RAM. */
    for (uint64_t pg = old; pg < old + old_len; pg += GUEST_PAGE_SIZE) {
        if (guest_mem_prot(p->mem, pg) < 0) {
            return -EFAULT;
        }
    }
    prot = guest_mem_prot(p->mem, old + old_len - GUEST_PAGE_SIZE);
    if (!(flags & LINUX_MREMAP_FIXED)) {
        if (new_len <= old_len) {
            if (new_len < old_len) {
                guest_mem_unmap(p->mem, old + new_len, old_len - new_len);
            }
            return (int64_t)old;
        }
        if (range_free(p, old + old_len, new_len - old_len) &&
            guest_mem_map(p->mem, old + old_len, new_len - old_len, prot, false)) {
            return (int64_t)old;
        }
        if (!(flags & LINUX_MREMAP_MAYMOVE)) {
            return -ENOMEM;
        }
        target = choose_addr(p, 0, new_len);
        if (target == UINT64_MAX) {
            return -ENOMEM;
        }
    } else {
        target = a[4];
        if (!page_aligned(target) || !range_ok(target, new_len)) {
            return -EINVAL;
        }
        if (target < old + old_len && old < target + new_len) {
            return -EINVAL;
        }
        guest_mem_unmap(p->mem, target, new_len);
    }
    uint64_t keep = old_len < new_len ? old_len : new_len;
    if (old_len > keep) {
        guest_mem_unmap(p->mem, old + keep, old_len - keep);
    }
    if (!guest_mem_move(p->mem, old, keep, target)) {
        return -ENOMEM;
    }
    if (new_len > keep && !guest_mem_map(p->mem, target + keep, new_len - keep, prot, false)) {
        return -ENOMEM;
    }
    if (target >= p->mmap_hint) {
        p->mmap_hint = target + new_len;
    }
    return (int64_t)target;
}

static int64_t do_mprotect(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    uint64_t addr = a[0], len;
    int prot = (int)(uint32_t)a[2];

    if (!page_aligned(addr) || (prot & ~(LINUX_PROT_READ | LINUX_PROT_WRITE | LINUX_PROT_EXEC))) {
        return -EINVAL;
    }
    if (a[1] == 0) {
        return 0;
    }
    len = page_len(a[1]);
    if (len == 0 || !range_ok(addr, len)) {
        return -ENOMEM;
    }
    return guest_mem_protect(p->mem, addr, len, prot) ? 0 : -ENOMEM;
}

static int64_t do_madvise(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    uint64_t addr = a[0], len;

    if (!page_aligned(addr)) {
        return -EINVAL;
    }
    if (a[1] == 0) {
        return 0;
    }
    len = page_len(a[1]);
    if (len == 0 || !range_ok(addr, len)) {
        return -EINVAL;
    }
    if ((int)a[2] != LINUX_MADV_DONTNEED) {
        return 0; /* advice only */
    }
    /* MADV_DONTNEED on private memory: the pages read back as zero.
     * Replace each run of pages having one permission with fresh ones. */
    uint64_t pg = addr, end = addr + len;
    while (pg < end) {
        int prot = guest_mem_prot(p->mem, pg);
        uint64_t run = pg + GUEST_PAGE_SIZE;
        if (prot < 0) {
            return -ENOMEM;
        }
        while (run < end && guest_mem_prot(p->mem, run) == prot) {
            run += GUEST_PAGE_SIZE;
        }
        if (!guest_mem_map(p->mem, pg, run - pg, prot, true)) {
            return -ENOMEM;
        }
        pg = run;
    }
    return 0;
}

/* Mapping changes take access away from translated code (every CPU's TLB
 * is flushed): once the process has threads they run in an exclusive
 * section, which also serialises the brk and mmap bookkeeping. */
static bool mem_begin(CPULinxState *env)
{
    if (env && env->engine.exec && linx_exec_parallel(env->engine.exec)) {
        linx_exec_start_exclusive(env->engine.exec, env);
        return true;
    }
    return false;
}

static void mem_end(CPULinxState *env, bool exclusive)
{
    if (exclusive) {
        linx_exec_end_exclusive(env->engine.exec);
    }
}

/* A memory call inside an exclusive section when other CPUs run. */
static int64_t mem_call(LinuxSyscallFn fn, LinuxProcess *p, CPULinxState *env,
                        const uint64_t *a)
{
    bool ex = mem_begin(env);
    int64_t r = fn(p, env, a);

    mem_end(env, ex);
    return r;
}

int64_t lu_sys_brk(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return mem_call(do_brk, p, env, a);
}

int64_t lu_sys_mmap(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return mem_call(do_mmap, p, env, a);
}

int64_t lu_sys_munmap(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return mem_call(do_munmap, p, env, a);
}

int64_t lu_sys_mremap(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return mem_call(do_mremap, p, env, a);
}

int64_t lu_sys_mprotect(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return mem_call(do_mprotect, p, env, a);
}

int64_t lu_sys_madvise(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return mem_call(do_madvise, p, env, a);
}
