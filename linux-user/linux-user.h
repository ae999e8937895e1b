/*
 * Linux user mode: one guest process (the state QEMU keeps in TaskState).
 *
 * A LinuxProcess owns the guest address space of one statically linked
 * LinuxISA program, its brk and mmap bookkeeping, its signal state and its
 * logging switches.  Nothing here is global: several processes (each with
 * its own CPU) can live in one host process, which is what the unit tests
 * do.
 *
 * Layout of the guest address space (docs/linux-user.md):
 *   image       where the ELF says (ET_EXEC) or at LINUX_PIE_BASE (ET_DYN)
 *   brk         grows up from the page after the highest segment
 *   mmap        first fit upwards from LINUX_MMAP_BASE
 *   stack       LINUX_STACK_SIZE below LINUX_STACK_TOP
 * Every guest address is below LINUX_TASK_SIZE (a 47-bit user space), and
 * every access made on the guest's behalf goes through
 * hw/core/guest-memory.h, so a guest can never reach host memory outside
 * its own mappings.
 *
 * Usage (linux-user/main.c does this):
 *   LinuxProcess *p = linux_process_new(&opts);
 *   if (!linux_load_program(p, path, argc, argv, envp, err, sizeof(err))) ...
 *   linux_process_attach_cpu(p, env);   // registers, acrc hook
 *   linx_exec_attach_cpu(ec, env);
 *   status = linux_cpu_loop(p, env);     // linux-user/cpu-loop.c
 *   linux_process_free(p);
 */
#ifndef LINX_LINUX_USER_H
#define LINX_LINUX_USER_H

#include <glib.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hw/core/guest-memory.h"
#include "target/linx/cpu.h"
#include "target/linx/profile.h"

/* ---- Address-space layout ---- */
/* The image, brk, mmap area and stack lie below 2^40 (GUEST_MEM_WINDOW_MAX),
 * inside the address space's direct window, where the JIT reaches guest
 * RAM with one constant offset (docs/engine.md); fixed mappings may use
 * the rest of the 47-bit space. */
#define LINUX_TASK_SIZE (UINT64_C(1) << 47)
#define LINUX_STACK_TOP UINT64_C(0xfffffff000)
#define LINUX_STACK_SIZE (UINT64_C(8) << 20)
#define LINUX_MMAP_BASE UINT64_C(0x7f00000000)
#define LINUX_PIE_BASE UINT64_C(0x5555554000)
/* Lowest address an image or a fixed mapping may use (Linux's
 * vm.mmap_min_addr): page zero stays unmapped so NULL faults. */
#define LINUX_MIN_ADDR UINT64_C(0x1000)
/* Largest image (sum of its segments' sizes) the loader accepts. */
#define LINUX_MAX_IMAGE (UINT64_C(16) << 30)
/* Largest argv + envp the loader copies (Linux allows a quarter of the
 * stack limit). */
#define LINUX_MAX_ARG_BYTES (LINUX_STACK_SIZE / 4)

/* ---- Signals (asm-generic numbering, the same as the host's) ---- */
#define LINUX_NSIG 64
enum {
    LINUX_SIGHUP = 1,
    LINUX_SIGINT = 2,
    LINUX_SIGQUIT = 3,
    LINUX_SIGILL = 4,
    LINUX_SIGTRAP = 5,
    LINUX_SIGABRT = 6,
    LINUX_SIGBUS = 7,
    LINUX_SIGFPE = 8,
    LINUX_SIGKILL = 9,
    LINUX_SIGUSR1 = 10,
    LINUX_SIGSEGV = 11,
    LINUX_SIGUSR2 = 12,
    LINUX_SIGPIPE = 13,
    LINUX_SIGALRM = 14,
    LINUX_SIGTERM = 15,
    LINUX_SIGSTKFLT = 16,
    LINUX_SIGCHLD = 17,
    LINUX_SIGCONT = 18,
    LINUX_SIGSTOP = 19,
    LINUX_SIGTSTP = 20,
    LINUX_SIGTTIN = 21,
    LINUX_SIGTTOU = 22,
    LINUX_SIGURG = 23,
    LINUX_SIGXCPU = 24,
    LINUX_SIGXFSZ = 25,
    LINUX_SIGVTALRM = 26,
    LINUX_SIGPROF = 27,
    LINUX_SIGWINCH = 28,
    LINUX_SIGIO = 29,
    LINUX_SIGPWR = 30,
    LINUX_SIGSYS = 31,
};

#define LINUX_SIG_DFL UINT64_C(0)
#define LINUX_SIG_IGN UINT64_C(1)

/* sa_flags (LinxISA Linux: asm-generic plus SA_RESTORER). */
enum {
    LINUX_SA_SIGINFO = 0x00000004,
    LINUX_SA_RESTORER = 0x04000000,
    LINUX_SA_ONSTACK = 0x08000000,
    LINUX_SA_RESTART = 0x10000000,
    LINUX_SA_NODEFER = 0x40000000,
    LINUX_SA_RESETHAND = 0x80000000u,
};

/* si_code values used for the signals we generate. */
enum {
    LINUX_SI_USER = 0,
    LINUX_SI_TKILL = -6,
    LINUX_ILL_ILLOPC = 1,
    LINUX_TRAP_BRKPT = 1,
    LINUX_BUS_ADRALN = 1,
    LINUX_SEGV_MAPERR = 1,
    LINUX_SEGV_ACCERR = 2,
};

typedef struct LinuxSigAction {
    uint64_t handler; /* LINUX_SIG_DFL, LINUX_SIG_IGN or a guest address */
    uint64_t flags;
    uint64_t restorer;
    uint64_t mask;
} LinuxSigAction;

/* What the process knows about a pending signal (becomes the guest's
 * siginfo when it is delivered). */
typedef struct LinuxSigInfo {
    int32_t signo;
    int32_t code;
    uint64_t addr; /* si_addr for faults */
    int32_t pid;   /* si_pid / si_uid for kill and tkill */
    uint32_t uid;
    /* Fault details for the death report (faults only). */
    bool is_fault;
    uint64_t pc;
    uint64_t trapno;
} LinuxSigInfo;

/* The signal state the threads of a process share: the actions, and the
 * signals sent to the process (kill) rather than to one thread. */
typedef struct LinuxSignalState {
    LinuxSigAction action[LINUX_NSIG + 1]; /* 1..64 */
    uint64_t pending;                      /* bit (sig - 1) */
    LinuxSigInfo info[LINUX_NSIG + 1];
} LinuxSignalState;

/* A thread's own: its mask, the signals sent to it (tkill, tgkill, its
 * faults, SIGPIPE) and its alternate stack. */
typedef struct LinuxThreadSignals {
    uint64_t blocked; /* bit (sig - 1) */
    uint64_t pending;
    LinuxSigInfo info[LINUX_NSIG + 1];
    uint64_t altstack_sp;
    uint64_t altstack_size;
    uint32_t altstack_flags;
} LinuxThreadSignals;

struct LinuxProcess;

/* One guest thread: a CPU state run by one host thread (the process's
 * first thread runs on the caller of linux_cpu_loop; clone makes the
 * others, linux-user/thread.c).  Fields marked (lock) are under the
 * process's lock. */
typedef struct LinuxThread {
    struct LinuxProcess *proc;
    CPULinxState *env;
    int32_t tid;                /* the guest's thread id (a host tid) */
    uint64_t clear_child_tid;   /* set_tid_address / CLONE_CHILD_CLEARTID */
    uint64_t robust_list;
    uint64_t robust_list_len;
    LinuxThreadSignals sig;     /* (lock) */
    /* Tile register file and block engine of its CPU. */
    struct LinxTileState *tiles;
    struct LinxTileEngine *tile_engine;
    pthread_t host;             /* its host thread */
    bool host_started;          /* host is a thread clone started (lock) */
    /* Nonzero while the thread has a signal to take or must exit: blocking
     * host calls return at once (linux-user/safe-syscall.h).  Atomic. */
    int kick;
    bool exited;                /* (lock) */
    bool on_list;               /* (lock) */
    struct LinuxThread *next;   /* (lock) the process's threads */
} LinuxThread;

/* What the ELF loader found (all addresses include the load bias). */
typedef struct LinuxImage {
    uint64_t entry;
    uint64_t load_bias;
    uint64_t phdr; /* guest address of the program headers, 0 if not loaded */
    uint64_t phnum;
    uint64_t phent;
    uint64_t lo, hi; /* lowest and highest (exclusive) byte of the image */
    uint64_t end_data; /* end of the highest segment: brk starts after it */
    bool is_pie;
    bool interp_ignored; /* a PT_INTERP without PT_DYNAMIC was ignored */
} LinuxImage;

typedef struct LinuxOptions {
    FILE *log;           /* strace and -d output (default stderr) */
    bool strace;         /* print every system call */
    bool log_unimp;      /* -d unimp: report unimplemented syscalls */
    uint64_t stack_size; /* 0 = LINUX_STACK_SIZE */
    const char *ld_prefix; /* -L: absolute guest paths are looked up here first */
    bool seeded;         /* -seed: AT_RANDOM and getrandom() from a PRNG ... */
    uint64_t seed;       /* ... seeded with this */
    /* execve of a LinxISA program runs the emulator again: this argv
     * prefix (the emulator and the options to propagate), then "-0 ARGV0
     * PATH ARGS...".  NULL-terminated; NULL: such an execve fails (ENOEXEC). */
    char *const *reexec_argv;
    /* -signal-exit: a guest that dies by signal N kills the emulator with
     * host signal N (so a parent's wait sees it), instead of exit 128 + N. */
    bool signal_exit;
} LinuxOptions;

#define LINUX_SYSCALL_MAX 512
#define LINUX_RLIM_NLIMITS 16
#define LINUX_RLIMIT_DATA 2
#define LINUX_RLIMIT_STACK 3
#define LINUX_RLIMIT_NOFILE 7
#define LINUX_MAX_RESERVED_FDS 8

typedef struct LinuxProcess {
    GuestMemory *mem;
    CPULinxState *env; /* the first thread's CPU (linux_process_attach_cpu) */
    LinuxImage image;
    LinxProfileVote profile_vote; /* the program's code, for -cpu auto */
    char *exe_path;    /* absolute path of the program (AT_EXECFN, /proc/self/exe) */

    /* Memory bookkeeping. */
    uint64_t stack_top;   /* highest stack address (exclusive) */
    uint64_t stack_limit; /* lowest mapped stack address */
    uint64_t initial_sp;
    uint64_t brk_start;   /* first byte of the brk area */
    uint64_t brk_cur;     /* current break; pages up to its page end are mapped */
    uint64_t mmap_hint;   /* where the next non-fixed mmap starts searching */

    /* Threads (linux-user/thread.c).  @lock (recursive) guards the thread
     * list, the signal state and the exit state. */
    pthread_mutex_t lock;
    pthread_cond_t threads_cond; /* a thread left the list */
    LinuxThread main;            /* the first thread (tid = pid) */
    LinuxThread *threads;        /* (lock) live threads, main included */
    unsigned nthreads;           /* (lock) */
    GArray *host_threads;        /* (lock) pthread_t of every thread clone started */
    int32_t pid;                 /* host pid: the guest's pid and first tid */
    bool is_fork_child;          /* made by a guest fork (dies by its guest's signal) */
    LinuxThread *leader;         /* the thread whose host thread ends the process */
    int leader_code;             /* the first thread's exit code, when it exited first */
    unsigned next_cpu_index;     /* (lock) */
    /* Runs a thread's CPU until it or the process ends (cpu-loop.c sets
     * it: the library itself does not call the exec loop). */
    void (*run_thread)(struct LinuxProcess *p, LinuxThread *t);

    LinuxSignalState sig;        /* (lock) */

    /* Resource limits as the guest sees them ([cur, max]); the guest's
     * setrlimit changes only this table, never the emulator's limits. */
    uint64_t rlim[LINUX_RLIM_NLIMITS][2];

    /* Host descriptors the emulator itself uses (log, trace): the guest
     * gets EBADF for them. */
    int reserved_fds[LINUX_MAX_RESERVED_FDS];
    unsigned nreserved_fds;

    /* -seed: the state of the PRNG behind AT_RANDOM and getrandom(). */
    uint64_t rand_state;

    /* Exit status once the guest has exited or died (lock; read with
     * atomic_read by the run loops): every thread stops when @exited. */
    bool exited;
    int exit_status;  /* exit code, or 128 + signal */
    int term_signal;  /* signal that killed it, 0 for a normal exit */
    bool fault_death; /* ... the signal of a trap (env's trap registers tell which) */

    /* Logging. */
    LinuxOptions opts;
    uint8_t unimp_reported[LINUX_SYSCALL_MAX / 8];

    /* The gdb stub that runs the CPU (-g PORT; NULL: none).  The run loop
     * calls gdb_stub_cpu_exec() instead of cpu_exec() (gdbstub/gdbstub.h). */
    struct GdbStub *gdb;
    /* Non-zero (read atomically) when the run must end from outside
     * (-timeout, SIGINT, SIGTERM: tcg/exec-stop.h); NULL: none. */
    const int *external_stop;
    /* The run was stopped from outside (external_stop): every thread
     * leaves without the process exiting (the caller reports why).
     * Atomic; see linux_process_ending(). */
    bool stopped;
    uint64_t syscall_count; /* atomic */
} LinuxProcess;

/* ---- linux-user/process.c ---- */
LinuxProcess *linux_process_new(const LinuxOptions *opts);
void linux_process_free(LinuxProcess *p);
/* Mark a host fd as the emulator's own (the guest cannot use it). */
void linux_process_reserve_fd(LinuxProcess *p, int fd);
bool linux_fd_is_reserved(const LinuxProcess *p, int fd);
/* Load the program and build its stack: linux_load_elf_file() +
 * linux_setup_stack().  On failure writes a one-line message to @err. */
bool linux_load_program(LinuxProcess *p, const char *path, int argc, char **argv, char **envp,
                        char *err, size_t errlen);
/* Record a normal exit / a death by signal of the whole process (the
 * first call counts): every thread is told to stop. */
void linux_process_set_exit(LinuxProcess *p, int code);
void linux_process_set_killed(LinuxProcess *p, int sig);
/* End the host process with the guest's status: flush the logs, then
 * exit(status), or die by the guest's signal under -signal-exit. */
_Noreturn void linux_process_exit_host(LinuxProcess *p);
/* Under -signal-exit, die by the host signal the guest died of (no core
 * dump); returns when there is none. */
void linux_process_die_by_signal(LinuxProcess *p);

/* (Re)initialise p->lock (recursive) and p->threads_cond: at creation,
 * and in a fork child, where the parent's record owners and waiters that
 * do not exist there. */
void linux_process_init_locks(LinuxProcess *p);

/* The run was stopped from outside (-timeout, SIGINT/SIGTERM). */
static inline bool linux_process_stop_requested(const LinuxProcess *p)
{
    return p->external_stop && __atomic_load_n(p->external_stop, __ATOMIC_ACQUIRE);
}

/* The process exited or died, or its run was stopped from outside: every
 * thread leaves its loop (a blocking call is not restarted). */
static inline bool linux_process_ending(const LinuxProcess *p)
{
    return __atomic_load_n(&p->exited, __ATOMIC_ACQUIRE) ||
           __atomic_load_n(&p->stopped, __ATOMIC_ACQUIRE) || linux_process_stop_requested(p);
}

/* ---- linux-user/thread.c ---- */
/* The thread @env runs (the process's first thread for a CPU that has none,
 * as in the unit tests' hand-built CPUs). */
LinuxThread *linux_thread_of(LinuxProcess *p, const CPULinxState *env);
/* Make @t leave blocking host calls and translated code soon (a signal for
 * it, or the process is ending).  Under p->lock. */
void linux_thread_kick(LinuxThread *t);
/* Kick every thread but @self (the process is ending). */
void linux_process_kick_all(LinuxProcess *p, LinuxThread *self);
/* Recompute @t->kick from its deliverable signals (under p->lock). */
void linux_thread_update_kick(LinuxThread *t);
/* The calling thread @t ends (exit, not exit_group): CHILD_CLEARTID (store
 * 0, wake one futex waiter), then off the thread list; the last thread out
 * ends the process with @code.  Under p->lock. */
void linux_thread_exit(LinuxThread *t, int code);
/* Start a thread for the guest's clone(CLONE_VM|CLONE_THREAD|...): a copy
 * of @parent's CPU that resumes after the acrc with a0 = 0, sp = @newsp
 * (when nonzero), TP = @tls (CLONE_SETTLS); PARENT_SETTID/CHILD_SETTID/
 * CHILD_CLEARTID as Linux does.  Returns the new tid or -errno. */
int64_t linux_thread_clone(LinuxProcess *p, CPULinxState *parent, uint64_t flags, uint64_t newsp,
                           uint64_t ptid, uint64_t tls, uint64_t ctid);
/* The first thread returned: wait until every other thread has left
 * (they have been told to when the process ended). */
void linux_process_wait_threads(LinuxProcess *p);
/* The first thread @self saw the run stopped from outside (-timeout,
 * SIGINT/SIGTERM): stop every other thread, wait for them, without ending
 * the process (p->exited stays false). */
void linux_process_stop_threads(LinuxProcess *p, LinuxThread *self);
/* In the child of a fork: the calling thread @self is the only one.  The
 * process lock is re-initialised and held once (the caller held it across
 * the fork). */
void linux_process_after_fork(LinuxProcess *p, LinuxThread *self);

/* ---- linux-user/cpu-loop.c (needs the exec loop) ---- */
/* The ring user programs run in (ACR2). */
#define LINUX_USER_ACR 2
/* Put the process into @env: registers reset, user ring, pc = entry,
 * sp = initial stack, env->mem, the acrc (system call) hook.  Attach
 * @env to an exec context afterwards (linx_exec_attach_cpu). */
void linux_process_attach_cpu(LinuxProcess *p, CPULinxState *env);
/* Run until the process exits or dies; returns its exit status. */
int linux_cpu_loop(LinuxProcess *p, CPULinxState *env);

/* ---- linux-user/elfload.c ---- */
/* Map and copy the loadable segments of an ELF image into @gm.  Accepts
 * static ET_EXEC and static-PIE ET_DYN for EM_LINXISA; ignores a
 * PT_INTERP when there is no PT_DYNAMIC; rejects dynamic programs and
 * malformed images with a message naming the rule. */
struct ElfFile;
struct LinxTileState;
struct LinxTileEngine;
bool linux_load_elf(GuestMemory *gm, const struct ElfFile *ef, const char *what, LinuxImage *img,
                    char *err, size_t errlen);

/* ---- linux-user/stack.c ---- */
/* Auxiliary vector keys (asm-generic). */
enum {
    LINUX_AT_NULL = 0,
    LINUX_AT_PHDR = 3,
    LINUX_AT_PHENT = 4,
    LINUX_AT_PHNUM = 5,
    LINUX_AT_PAGESZ = 6,
    LINUX_AT_BASE = 7,
    LINUX_AT_FLAGS = 8,
    LINUX_AT_ENTRY = 9,
    LINUX_AT_UID = 11,
    LINUX_AT_EUID = 12,
    LINUX_AT_GID = 13,
    LINUX_AT_EGID = 14,
    LINUX_AT_PLATFORM = 15,
    LINUX_AT_HWCAP = 16,
    LINUX_AT_CLKTCK = 17,
    LINUX_AT_SECURE = 23,
    LINUX_AT_RANDOM = 25,
    LINUX_AT_HWCAP2 = 26,
    LINUX_AT_EXECFN = 31,
};
/* AT_HWCAP: v0.4 defines no hardware-capability bits; linxemu reports 0. */
#define LINUX_HWCAP 0
#define LINUX_CLKTCK 100
#define LINUX_PLATFORM "linx64"

/* Map the stack and write argc, argv, envp and the auxiliary vector
 * (sp 16-byte aligned, pointing at argc).  @random fills AT_RANDOM's 16
 * bytes (NULL: from the host's getrandom).  Returns the initial sp, or 0
 * with @err set. */
/* Fill @buf with @len bytes of randomness: the host's, or the -seed PRNG
 * (splitmix64) when the process was started with one. */
void linux_random_bytes(LinuxProcess *p, void *buf, size_t len);

uint64_t linux_setup_stack(LinuxProcess *p, int argc, char **argv, char **envp,
                           const char *execfn, const uint8_t *random, char *err, size_t errlen);
/* The auxiliary vector linux_setup_stack() wrote (key/value pairs up to
 * and including AT_NULL), read back from the initial stack for a debugger
 * (gdb stub qXfer:auxv:read).  A malloc'ed copy, or NULL when the stack
 * was not set up. */
uint8_t *linux_initial_auxv(const LinuxProcess *p, size_t *len);

/* ---- linux-user/syscall.c ---- */
/* What the caller of linux_syscall() must do next. */
typedef enum LinuxSyscallAction {
    LINUX_SYSCALL_CONTINUE,  /* a0 holds the result; go on after the acrc */
    LINUX_SYSCALL_REDIRECT,  /* env->pc (and maybe env->resume) changed: leave the TB */
    LINUX_SYSCALL_EXIT,      /* the process exited or died (p->exited) */
    LINUX_SYSCALL_SIGNAL,    /* a signal is deliverable: sync the block state,
                                then call linux_signal_deliver() */
    LINUX_SYSCALL_RESTART,   /* an interrupted blocking call: deliver the signal
                                with pc at the acrc, which then runs again */
} LinuxSyscallAction;

/* Handle the system call in env (a7 = number, a0..a5 = arguments):
 * writes the result to a0.  env->pc is the acrc. */
LinuxSyscallAction linux_syscall(LinuxProcess *p, CPULinxState *env);
/* Name of system call @nr ("openat"), or NULL if unknown. */
const char *linux_syscall_name(unsigned nr);

/* ---- linux-user/signal.c ---- */
/* Queue a signal for the process (kill): a thread that does not block it
 * is kicked.  Returns false for a bad number. */
bool linux_signal_queue(LinuxProcess *p, const LinuxSigInfo *info);
/* Queue a signal for thread @t (tkill, tgkill, SIGPIPE); @t is kicked
 * when it does not block it. */
bool linux_signal_queue_thread(LinuxThread *t, const LinuxSigInfo *info);
/* Lowest signal pending for @t (its own or the process's) that @t does
 * not block, or 0. */
int linux_signal_next(LinuxProcess *p, LinuxThread *t);
/* Deliver the next deliverable signal to @env: run the guest handler
 * (build the frame, point pc at the handler), ignore it, or kill the
 * process (p->exited set, report written to the log).  The block state in
 * env must be current (linx_cpu_sync_block_state).  Returns true when the
 * guest goes on running. */
bool linux_signal_deliver(LinuxProcess *p, CPULinxState *env);
/* rt_sigreturn: restore the context saved by the frame at sp.  Returns
 * false (and queues SIGSEGV) for an unreadable frame. */
bool linux_signal_return(LinuxProcess *p, CPULinxState *env);
/* An architectural trap stopped the guest (cpu_exec returned EXCP_TRAP
 * with env->trapno, traparg0, trap_pc and the block state current): turn
 * it into its signal (SIGSEGV, SIGBUS, SIGILL, SIGTRAP) and run the
 * guest's handler, or kill the process with a report when there is none
 * (or the signal is blocked or ignored, as Linux's force_sig does).
 * Returns true when the guest goes on running. */
bool linux_signal_handle_trap(LinuxProcess *p, CPULinxState *env);
/* Name of a signal ("SIGSEGV"). */
const char *linux_signal_name(int sig);

#endif /* LINX_LINUX_USER_H */
