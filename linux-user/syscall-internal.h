/*
 * Linux user mode: what the system-call files share (not a public API).
 *
 * Handlers have one shape: they take the process, the CPU and the six
 * argument registers, and return the value for a0 (a negative errno on
 * failure) or LU_RET_NONE when they set the registers themselves
 * (rt_sigreturn) or the process is gone (exit).
 *
 * Guest memory is reached only through lu_copy_from/lu_copy_to/
 * lu_read_string (hw/core/guest-memory.h underneath): a bad guest pointer
 * gives -EFAULT, never a host fault.  Guest structures are described
 * byte for byte below (asm-generic, LP64, little-endian); each has a
 * static assertion on its size.
 *
 * Host numbering: linxemu runs on x86-64 Linux, whose errno values,
 * signal numbers, open/fcntl flags, mmap flags, clock ids, rlimit
 * resources and ioctl numbers are the asm-generic ones LinxISA uses, so
 * these pass through unchanged (syscall-file.c checks the open flags with
 * static assertions).  The structures that differ (struct stat) are
 * converted.
 */
#ifndef LINX_LINUX_USER_SYSCALL_INTERNAL_H
#define LINX_LINUX_USER_SYSCALL_INTERNAL_H

#include <stdint.h>

#include "linux-user.h"

#define LU_RET_NONE INT64_MIN

/* Bounce-buffer size for guest I/O: large transfers are done in pieces. */
#define LU_IO_CHUNK (256 * 1024)
/* Longest path or string argument. */
#define LU_PATH_MAX 4096
/* Most iovec entries (Linux UIO_MAXIOV). */
#define LU_IOV_MAX 1024
/* Most pollfd entries ppoll accepts. */
#define LU_POLL_MAX 65536

typedef int64_t (*LinuxSyscallFn)(LinuxProcess *p, CPULinxState *env, const uint64_t *a);

/* Guest memory access (syscall.c). */
int lu_copy_from(LinuxProcess *p, void *dst, uint64_t src, size_t len);
int lu_copy_to(LinuxProcess *p, uint64_t dst, const void *src, size_t len);
/* Is [addr, addr + len) writable by the guest?  0 or -EFAULT. */
int lu_check_write(LinuxProcess *p, uint64_t addr, size_t len);
/* NUL-terminated guest string of at most @max bytes (with the NUL) into
 * a malloc'd host copy.  0, -EFAULT or -ENAMETOOLONG. */
int lu_read_string(LinuxProcess *p, uint64_t addr, size_t max, char **out);
/* A guest descriptor argument: the host fd, or -1 when it is negative or
 * one of the emulator's own (the caller answers EBADF). */
int lu_guest_fd(LinuxProcess *p, uint64_t v);
/* A dirfd argument: AT_FDCWD (guest LU_AT_FDCWD) or lu_guest_fd(). */
int lu_guest_dirfd(LinuxProcess *p, uint64_t v);
#define LU_AT_FDCWD (-100)
/* A path argument as the host opens it ("/proc/self/exe" is the guest
 * program; -L's sysroot first for absolute paths); malloc'd (syscall-fs.c). */
int64_t lu_get_path(LinuxProcess *p, uint64_t addr, char **out);
/* The calling thread's kick flag, for linx_safe_syscall() (safe-syscall.h). */
const int *lu_kick(LinuxProcess *p, CPULinxState *env);
/* Queue a process signal; @self (may be NULL), the sender, takes it first
 * when it does not block it (signal.c). */
bool lu_signal_queue_process(LinuxProcess *p, LinuxThread *self, const LinuxSigInfo *info);
/* -errno of the last failed host call. */
int64_t lu_errno(void);
/* Report an unimplemented system call or request once (-strace / -d unimp). */
void lu_report_unimp(LinuxProcess *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- Guest structures ---- */

/* struct stat (asm-generic/stat.h, 64-bit). */
typedef struct LinuxGuestStat {
    uint64_t st_dev;
    uint64_t st_ino;
    uint32_t st_mode;
    uint32_t st_nlink;
    uint32_t st_uid;
    uint32_t st_gid;
    uint64_t st_rdev;
    uint64_t pad1;
    int64_t st_size;
    int32_t st_blksize;
    int32_t pad2;
    int64_t st_blocks;
    int64_t st_atime_sec;
    uint64_t st_atime_nsec;
    int64_t st_mtime_sec;
    uint64_t st_mtime_nsec;
    int64_t st_ctime_sec;
    uint64_t st_ctime_nsec;
    uint32_t unused4;
    uint32_t unused5;
} LinuxGuestStat;
_Static_assert(sizeof(LinuxGuestStat) == 128, "asm-generic struct stat is 128 bytes");

typedef struct LinuxGuestTimespec {
    int64_t tv_sec;
    int64_t tv_nsec;
} LinuxGuestTimespec;

typedef struct LinuxGuestIovec {
    uint64_t base;
    uint64_t len;
} LinuxGuestIovec;

/* struct k_sigaction as the LinxISA kernel reads it (SA_RESTORER arch). */
typedef struct LinuxGuestSigaction {
    uint64_t handler;
    uint64_t flags;
    uint64_t restorer;
    uint64_t mask;
} LinuxGuestSigaction;
_Static_assert(sizeof(LinuxGuestSigaction) == 32, "kernel sigaction is 32 bytes");

typedef struct LinuxGuestStack {
    uint64_t ss_sp;
    int32_t ss_flags;
    int32_t pad;
    uint64_t ss_size;
} LinuxGuestStack;
_Static_assert(sizeof(LinuxGuestStack) == 24, "stack_t is 24 bytes");

/* ---- Handlers, by group ---- */

/* syscall-file.c: I/O on descriptors */
int64_t lu_sys_read(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_write(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_readv(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_writev(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_pread64(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_pwrite64(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_close(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_lseek(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_ioctl(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_fcntl(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_dup(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_dup3(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_pipe2(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_ppoll(LinuxProcess *p, CPULinxState *env, const uint64_t *a);

/* syscall-fs.c: paths and the file system */
int64_t lu_sys_openat(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_fstat(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_newfstatat(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_getdents64(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_unlinkat(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_mkdirat(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_renameat2(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_faccessat(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_readlinkat(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_getcwd(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_chdir(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_fchdir(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_ftruncate(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_fsync(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_umask(LinuxProcess *p, CPULinxState *env, const uint64_t *a);

/* syscall-mem.c: memory */
int64_t lu_sys_brk(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_mmap(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_munmap(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_mremap(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_mprotect(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_madvise(LinuxProcess *p, CPULinxState *env, const uint64_t *a);

/* syscall-time.c: clocks */
int64_t lu_sys_clock_gettime(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_clock_getres(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_clock_nanosleep(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_nanosleep(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_gettimeofday(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_getrandom(LinuxProcess *p, CPULinxState *env, const uint64_t *a);

/* syscall-proc.c: process */
int64_t lu_sys_exit(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_exit_group(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_gettid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_setpgid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_getpgid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_getsid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_setsid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);

/* futex.c */
int64_t lu_sys_futex(LinuxProcess *p, CPULinxState *env, const uint64_t *a);

/* syscall-clone.c: threads and processes */
int64_t lu_sys_clone(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_execve(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_execveat(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_wait4(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_waitid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_uname(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_getpid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_getppid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_getuid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_geteuid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_getgid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_getegid(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_set_tid_address(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_set_robust_list(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_prlimit64(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_getrlimit(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_setrlimit(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_sched_yield(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_flush_icache(LinuxProcess *p, CPULinxState *env, const uint64_t *a);

/* syscall-signal.c: signals */
int64_t lu_sys_rt_sigaction(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_rt_sigprocmask(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_rt_sigpending(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_rt_sigreturn(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_sigaltstack(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_kill(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_tkill(LinuxProcess *p, CPULinxState *env, const uint64_t *a);
int64_t lu_sys_tgkill(LinuxProcess *p, CPULinxState *env, const uint64_t *a);

/* strace.c */
typedef struct LinuxSyscallDef {
    const char *name;
    LinuxSyscallFn fn; /* NULL: not implemented (-ENOSYS) */
    const char *args;  /* one strace format letter per argument (strace.c) */
    char ret;          /* result format: 'd' decimal, 'x' hex */
} LinuxSyscallDef;

/* The table entry for @nr, or NULL when the number is out of range. */
const LinuxSyscallDef *lu_syscall_def(unsigned nr);
/* Print "name(args) = result" for a finished call. */
void lu_strace_print(LinuxProcess *p, uint64_t nr, const uint64_t *a, int64_t ret);

#endif /* LINX_LINUX_USER_SYSCALL_INTERNAL_H */
