/*
 * linux-user signals: rt_sigaction/rt_sigprocmask bookkeeping, delivery
 * after a system call (the LinxISA signal frame, byte by byte), the
 * rt_sigreturn round trip (registers, pc, mask, block state), faults
 * turned into signals (handler or death with 128 + signal), default
 * actions, blocked and ignored signals, and hostile frames.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "test-linux-user-util.h"

#define HANDLER UINT64_C(0x20000)
#define RESTORER UINT64_C(0x20100)
#define G_ACT (TEST_SCRATCH + 0x100)
#define G_OLD (TEST_SCRATCH + 0x200)
#define G_SET (TEST_SCRATCH + 0x300)
#define SIGBIT(s) (UINT64_C(1) << ((s) - 1))

/* Frame layout (linux-user/signal.c, docs/linux-user.md). */
#define FRAME_SIZE 704
#define F_SIGNO 0
#define F_CODE 8
#define F_ADDR 16
#define F_UC 128
#define F_SIGMASK (F_UC + 40)
#define F_REGS (F_UC + 168)
#define F_PC (F_REGS + 24 * 8)
#define F_EXT (F_REGS + 25 * 8)

typedef struct Fixture {
    LinuxProcess *p;
    CPULinxState *env;
    FILE *log;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->log = tmpfile();
    f->p = test_process(f->log);
    f->env = test_cpu(f->p);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;

    linux_process_free(f->p);
    free(f->env);
    fclose(f->log);
    free(f);
    return 0;
}

static void install(LinuxProcess *p, CPULinxState *env, int sig, uint64_t handler, uint64_t flags,
                    uint64_t mask)
{
    uint64_t act[4] = { handler, flags, RESTORER, mask };

    test_poke(p, G_ACT, act, sizeof(act));
    assert_int_equal(SYS4(NR_rt_sigaction, (uint64_t)sig, G_ACT, 0, 8), 0);
}

static void test_sigaction_bookkeeping(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint64_t old[4];

    install(p, env, LINUX_SIGUSR1, HANDLER, LINUX_SA_RESTORER | LINUX_SA_SIGINFO,
            SIGBIT(LINUX_SIGUSR2) | SIGBIT(LINUX_SIGKILL));
    assert_int_equal(SYS4(NR_rt_sigaction, LINUX_SIGUSR1, 0, G_OLD, 8), 0);
    assert_int_equal(guest_mem_read(p->mem, G_OLD, old, 32, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(old[0], HANDLER);
    assert_int_equal(old[1], LINUX_SA_RESTORER | LINUX_SA_SIGINFO);
    assert_int_equal(old[2], RESTORER);
    assert_int_equal(old[3], SIGBIT(LINUX_SIGUSR2)); /* SIGKILL cannot be masked */
    assert_int_equal(SYS4(NR_rt_sigaction, LINUX_SIGKILL, G_ACT, 0, 8), -EINVAL);
    assert_int_equal(SYS4(NR_rt_sigaction, LINUX_SIGSTOP, G_ACT, 0, 8), -EINVAL);
    assert_int_equal(SYS4(NR_rt_sigaction, 0, G_ACT, 0, 8), -EINVAL);
    assert_int_equal(SYS4(NR_rt_sigaction, 65, G_ACT, 0, 8), -EINVAL);
    assert_int_equal(SYS4(NR_rt_sigaction, LINUX_SIGUSR1, G_ACT, 0, 16), -EINVAL);
    assert_int_equal(SYS4(NR_rt_sigaction, LINUX_SIGUSR1, 0x900000000ull, 0, 8), -EFAULT);

    /* rt_sigprocmask: block, unblock, setmask; SIGKILL/SIGSTOP stay out. */
    uint64_t set = SIGBIT(LINUX_SIGUSR1) | SIGBIT(LINUX_SIGKILL);
    test_poke(p, G_SET, &set, 8);
    assert_int_equal(SYS4(NR_rt_sigprocmask, 0, G_SET, G_OLD, 8), 0);
    assert_int_equal(test_peek64(p, G_OLD), 0);
    assert_int_equal(p->main.sig.blocked, SIGBIT(LINUX_SIGUSR1));
    set = SIGBIT(LINUX_SIGUSR1);
    test_poke(p, G_SET, &set, 8);
    assert_int_equal(SYS4(NR_rt_sigprocmask, 1, G_SET, G_OLD, 8), 0);
    assert_int_equal(test_peek64(p, G_OLD), SIGBIT(LINUX_SIGUSR1));
    assert_int_equal(p->main.sig.blocked, 0);
    assert_int_equal(SYS4(NR_rt_sigprocmask, 7, G_SET, 0, 8), -EINVAL);
}

/* kill(self) -> frame -> handler -> rt_sigreturn -> back where it was. */
static void test_deliver_and_return(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint8_t fr[FRAME_SIZE];
    LinuxSyscallAction act;

    install(p, env, LINUX_SIGUSR1, HANDLER, LINUX_SA_RESTORER | LINUX_SA_SIGINFO,
            SIGBIT(LINUX_SIGUSR2));
    for (int i = 1; i < LINX_NUM_GPRS; i++) {
        env->gpr[i] = 0x1000 + i;
    }
    uint64_t sp = TEST_SCRATCH + 0x8008; /* not 16-aligned on purpose */
    env->gpr[LINX_REG_SP] = sp;
    env->pc = 0x10120; /* the acrc */
    env->bpc = 0x10100;
    env->t_head = 2;
    env->tq[2] = 0x7777;
    env->br_kind = LINX_BR_COND;
    env->carg = 1;
    assert_int_equal(test_syscall(p, env, NR_kill, (uint64_t)p->pid, LINUX_SIGUSR1, 0, 0, 0, 0,
                                  &act),
                     0);
    assert_int_equal(act, LINUX_SYSCALL_SIGNAL);
    assert_true(p->sig.pending & SIGBIT(LINUX_SIGUSR1));

    /* What cpu-loop.c does: pc after the acrc, then deliver. */
    env->pc += 4;
    uint64_t saved[LINX_NUM_GPRS];
    memcpy(saved, env->gpr, sizeof(saved));
    assert_true(linux_signal_deliver(p, env));
    assert_false(p->sig.pending & SIGBIT(LINUX_SIGUSR1));
    uint64_t frame = env->gpr[LINX_REG_SP];
    assert_int_equal(frame % 16, 0);
    assert_true(frame + FRAME_SIZE <= sp);
    assert_true(sp - frame < FRAME_SIZE + 16);
    assert_int_equal(env->pc, HANDLER);
    assert_int_equal(env->resume, 0);
    assert_int_equal(env->gpr[LINX_REG_A0], LINUX_SIGUSR1);
    assert_int_equal(env->gpr[LINX_REG_A0 + 1], frame);
    assert_int_equal(env->gpr[LINX_REG_A0 + 2], frame + F_UC);
    assert_int_equal(env->gpr[LINX_REG_RA], RESTORER);
    assert_int_equal(p->main.sig.blocked, SIGBIT(LINUX_SIGUSR1) | SIGBIT(LINUX_SIGUSR2));

    assert_int_equal(guest_mem_read(p->mem, frame, fr, sizeof(fr), GM_PROT_READ, NULL), GM_OK);
    int32_t signo, code, pid;
    memcpy(&signo, fr + F_SIGNO, 4);
    memcpy(&code, fr + F_CODE, 4);
    memcpy(&pid, fr + F_ADDR, 4);
    assert_int_equal(signo, LINUX_SIGUSR1);
    assert_int_equal(code, LINUX_SI_USER);
    assert_int_equal(pid, p->pid);
    assert_int_equal(test_get64(fr + F_SIGMASK), 0);
    assert_int_equal(test_get64(fr + F_REGS), 0);
    for (int i = 1; i < LINX_NUM_GPRS; i++) {
        assert_int_equal(test_get64(fr + F_REGS + 8 * i), saved[i]);
    }
    assert_int_equal(test_get64(fr + F_PC), 0x10124);
    assert_int_equal(test_get64(fr + F_EXT), UINT64_C(0x314b4c42584e494c)); /* "LINXBLK1" */

    /* The handler clobbers registers and returns through the restorer. */
    for (int i = 2; i < LINX_NUM_GPRS; i++) {
        env->gpr[i] = 0xdead;
    }
    env->t_head = 0;
    env->tq[2] = 0;
    env->br_kind = LINX_BR_FALL;
    env->pc = RESTORER + 4;
    assert_int_equal(test_syscall(p, env, NR_rt_sigreturn, 0, 0, 0, 0, 0, 0, &act), 0);
    assert_int_equal(act, LINUX_SYSCALL_REDIRECT);
    for (int i = 1; i < LINX_NUM_GPRS; i++) {
        if (i != LINX_REG_A0 && i != LINX_REG_A7) {
            assert_int_equal(env->gpr[i], saved[i]);
        }
    }
    assert_int_equal(env->gpr[LINX_REG_A0], saved[LINX_REG_A0]);
    assert_int_equal(env->pc, 0x10124);
    assert_int_equal(env->bpc, 0x10100);
    assert_int_equal(env->resume, 1);
    assert_int_equal(env->t_head, 2);
    assert_int_equal(env->tq[2], 0x7777);
    assert_int_equal(env->br_kind, LINX_BR_COND);
    assert_int_equal(env->carg, 1);
    assert_int_equal(p->main.sig.blocked, 0);
}

static void test_fault_to_handler(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint8_t fr[FRAME_SIZE];

    install(p, env, LINUX_SIGSEGV, HANDLER, LINUX_SA_RESTORER | LINUX_SA_SIGINFO, 0);
    env->trapno = LINX_TRAP_DATA_PAGE_FAULT | (UINT64_C(1) << 24);
    env->traparg0 = 0xdead000;
    env->trap_pc = 0x10130;
    env->bpc = 0x10100;
    assert_true(linux_signal_handle_trap(p, env));
    assert_false(p->exited);
    uint64_t frame = env->gpr[LINX_REG_SP];
    assert_int_equal(env->pc, HANDLER);
    assert_int_equal(guest_mem_read(p->mem, frame, fr, sizeof(fr), GM_PROT_READ, NULL), GM_OK);
    int32_t signo, code;
    memcpy(&signo, fr + F_SIGNO, 4);
    memcpy(&code, fr + F_CODE, 4);
    assert_int_equal(signo, LINUX_SIGSEGV);
    assert_int_equal(code, LINUX_SEGV_MAPERR);
    assert_int_equal(test_get64(fr + F_ADDR), 0xdead000);
    assert_int_equal(test_get64(fr + F_PC), 0x10130);
    /* The handler skips the faulting instruction and returns. */
    uint64_t pcv = 0x10134;
    test_poke(p, frame + F_PC, &pcv, 8);
    assert_int_equal(test_syscall(p, env, NR_rt_sigreturn, 0, 0, 0, 0, 0, 0, NULL), 0);
    assert_int_equal(env->pc, 0x10134);
    assert_int_equal(env->resume, 1);

    /* Misaligned access: SIGBUS, BUS_ADRALN. */
    install(p, env, LINUX_SIGBUS, HANDLER, LINUX_SA_RESTORER, 0);
    env->trapno = LINX_TRAP_DATA_ALIGN_FAULT;
    env->traparg0 = 0x12345;
    assert_true(linux_signal_handle_trap(p, env));
    assert_int_equal(env->gpr[LINX_REG_A0], LINUX_SIGBUS);
}

static void test_fault_kills(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;

    env->trapno = LINX_TRAP_ILLEGAL_INST;
    env->trap_pc = 0x10100;
    assert_false(linux_signal_handle_trap(p, env));
    assert_true(p->exited);
    assert_int_equal(p->exit_status, 128 + LINUX_SIGILL);
    assert_int_equal(p->term_signal, LINUX_SIGILL);
}

/* A fault whose signal is blocked kills even with a handler. */
static void test_blocked_fault_kills(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;

    install(p, env, LINUX_SIGSEGV, HANDLER, LINUX_SA_RESTORER, 0);
    p->main.sig.blocked = SIGBIT(LINUX_SIGSEGV);
    env->trapno = LINX_TRAP_DATA_PAGE_FAULT;
    env->trap_pc = 0x10100;
    assert_false(linux_signal_handle_trap(p, env));
    assert_int_equal(p->exit_status, 128 + LINUX_SIGSEGV);
}

static void test_default_actions(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    LinuxSyscallAction act;

    /* SIGCHLD's default is to ignore. */
    test_syscall(p, env, NR_tkill, (uint64_t)p->pid, LINUX_SIGCHLD, 0, 0, 0, 0, &act);
    assert_int_equal(act, LINUX_SYSCALL_SIGNAL);
    assert_true(linux_signal_deliver(p, env));
    assert_false(p->exited);
    /* Ignored: discarded at once. */
    install(p, env, LINUX_SIGUSR2, LINUX_SIG_IGN, 0, 0);
    test_syscall(p, env, NR_kill, 0, LINUX_SIGUSR2, 0, 0, 0, 0, &act);
    assert_int_equal(act, LINUX_SYSCALL_CONTINUE);
    /* Blocked: stays pending until unblocked. */
    uint64_t set = SIGBIT(LINUX_SIGABRT);
    test_poke(p, G_SET, &set, 8);
    assert_int_equal(SYS4(NR_rt_sigprocmask, 0, G_SET, 0, 8), 0);
    test_syscall(p, env, NR_tgkill, (uint64_t)p->pid, (uint64_t)p->pid, LINUX_SIGABRT, 0, 0, 0,
                 &act);
    assert_int_equal(act, LINUX_SYSCALL_CONTINUE);
    assert_true(p->main.sig.pending & SIGBIT(LINUX_SIGABRT));
    assert_int_equal(SYS2(NR_rt_sigpending, G_SET, 8), 0);
    assert_int_equal(test_peek64(p, G_SET), SIGBIT(LINUX_SIGABRT));
    test_poke(p, G_SET, &set, 8);
    test_syscall(p, env, NR_rt_sigprocmask, 1, G_SET, 0, 8, 0, 0, &act);
    assert_int_equal(act, LINUX_SYSCALL_SIGNAL);
    /* SIGABRT's default kills: exit status 134. */
    assert_false(linux_signal_deliver(p, env));
    assert_true(p->exited);
    assert_int_equal(p->exit_status, 134);
    /* Bad numbers and other threads. */
    p->exited = false;
    assert_int_equal(SYS2(NR_kill, (uint64_t)p->pid, 65), -EINVAL);
    assert_int_equal(SYS2(NR_tkill, (uint64_t)p->pid + 1, LINUX_SIGUSR1), -ESRCH);
    assert_int_equal(SYS2(NR_kill, (uint64_t)p->pid, 0), 0);
}

static void *sleeper(void *arg)
{
    int32_t *tid = arg;

    __atomic_store_n(tid, (int32_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
    while (__atomic_load_n(tid, __ATOMIC_ACQUIRE) != 0) {
        usleep(1000);
    }
    return NULL;
}

/* kill() of the host TID of one of this process's own threads means this
 * process (the kernel makes kill process-directed): the guest gets the
 * signal, the host process none.  Before, it went to the host: the
 * system-call fuzzer died of a SIGFPE its guest sent to libFuzzer's
 * thread. */
static void test_kill_own_thread(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    LinuxSyscallAction act;
    int32_t tid = -1;
    pthread_t t;
    sigset_t block, host_pending;

    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &block, NULL); /* inherited by the thread */
    assert_int_equal(pthread_create(&t, NULL, sleeper, &tid), 0);
    while (__atomic_load_n(&tid, __ATOMIC_ACQUIRE) == -1) {
        usleep(1000);
    }
    assert_int_not_equal(tid, p->pid);
    test_syscall(p, env, NR_kill, (uint64_t)tid, LINUX_SIGUSR1, 0, 0, 0, 0, &act);
    assert_int_equal(act, LINUX_SYSCALL_SIGNAL);
    assert_true((p->sig.pending | p->main.sig.pending) & SIGBIT(LINUX_SIGUSR1));
    sigpending(&host_pending);
    assert_false(sigismember(&host_pending, SIGUSR1));
    __atomic_store_n(&tid, 0, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    pthread_sigmask(SIG_UNBLOCK, &block, NULL);
}

static void test_no_restorer(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint64_t act[4] = { HANDLER, 0, 0, 0 };

    test_poke(p, G_ACT, act, sizeof(act));
    assert_int_equal(SYS4(NR_rt_sigaction, LINUX_SIGUSR1, G_ACT, 0, 8), 0);
    SYS2(NR_kill, (uint64_t)p->pid, LINUX_SIGUSR1);
    assert_false(linux_signal_deliver(p, env));
    assert_int_equal(p->exit_status, 128 + LINUX_SIGSEGV);
}

/* No room for the frame (sp in unmapped memory): SIGSEGV. */
static void test_bad_stack(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;

    install(p, env, LINUX_SIGUSR1, HANDLER, LINUX_SA_RESTORER, 0);
    SYS2(NR_kill, (uint64_t)p->pid, LINUX_SIGUSR1);
    env->gpr[LINX_REG_SP] = 0x300;
    assert_false(linux_signal_deliver(p, env));
    assert_int_equal(p->exit_status, 128 + LINUX_SIGSEGV);
}

/* rt_sigreturn with garbage: an unreadable frame kills, a bad block-state
 * record is ignored (resume at the pc as a block start). */
static void test_hostile_frames(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint8_t fr[FRAME_SIZE];
    LinuxSyscallAction act;

    memset(fr, 0xff, sizeof(fr));
    uint64_t pcv = 0x10200;
    memcpy(fr + F_PC, &pcv, 8);
    uint64_t mask = UINT64_MAX;
    memcpy(fr + F_SIGMASK, &mask, 8);
    test_poke(p, TEST_SCRATCH + 0x4000, fr, sizeof(fr));
    env->gpr[LINX_REG_SP] = TEST_SCRATCH + 0x4000;
    test_syscall(p, env, NR_rt_sigreturn, 0, 0, 0, 0, 0, 0, &act);
    assert_int_equal(act, LINUX_SYSCALL_REDIRECT);
    assert_int_equal(env->pc, 0x10200);
    assert_int_equal(env->resume, 0);
    assert_int_equal(env->gpr[LINX_REG_ZERO], 0);
    /* SIGKILL and SIGSTOP cannot be blocked by a frame either. */
    assert_int_equal(p->main.sig.blocked, ~(SIGBIT(LINUX_SIGKILL) | SIGBIT(LINUX_SIGSTOP)));

    /* Valid magic but a wild branch kind: not used. */
    memset(fr + F_EXT, 0, FRAME_SIZE - F_EXT);
    uint64_t magic = UINT64_C(0x314b4c42584e494c), size = FRAME_SIZE - F_EXT, kind = 99;
    memcpy(fr + F_EXT, &magic, 8);
    memcpy(fr + F_EXT + 8, &size, 8);
    memcpy(fr + F_EXT + 6 * 8, &kind, 8);
    test_poke(p, TEST_SCRATCH + 0x4000, fr, sizeof(fr));
    env->gpr[LINX_REG_SP] = TEST_SCRATCH + 0x4000;
    env->br_kind = LINX_BR_FALL;
    test_syscall(p, env, NR_rt_sigreturn, 0, 0, 0, 0, 0, 0, &act);
    assert_int_equal(env->br_kind, LINX_BR_FALL);
    assert_int_equal(env->resume, 0);

    /* Unreadable frame. */
    env->gpr[LINX_REG_SP] = 0x900000000ull;
    test_syscall(p, env, NR_rt_sigreturn, 0, 0, 0, 0, 0, 0, &act);
    assert_int_equal(act, LINUX_SYSCALL_EXIT);
    assert_int_equal(p->exit_status, 128 + LINUX_SIGSEGV);
}

static void test_altstack(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint64_t ss[3] = { TEST_SCRATCH + 0x6000, 0, 0x2000 };

    test_poke(p, G_SET, ss, sizeof(ss));
    assert_int_equal(SYS2(NR_sigaltstack, G_SET, 0), 0);
    install(p, env, LINUX_SIGUSR1, HANDLER, LINUX_SA_RESTORER | LINUX_SA_ONSTACK, 0);
    SYS2(NR_kill, (uint64_t)p->pid, LINUX_SIGUSR1);
    assert_true(linux_signal_deliver(p, env));
    uint64_t frame = env->gpr[LINX_REG_SP];
    assert_true(frame >= TEST_SCRATCH + 0x6000 && frame < TEST_SCRATCH + 0x8000);
    /* On the alternate stack it cannot be changed; reading it says so. */
    assert_int_equal(SYS2(NR_sigaltstack, G_SET, 0), -EPERM);
    assert_int_equal(SYS2(NR_sigaltstack, 0, G_OLD), 0);
    uint8_t old[24];
    assert_int_equal(guest_mem_read(p->mem, G_OLD, old, 24, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(test_get64(old), TEST_SCRATCH + 0x6000);
    assert_int_equal(old[8], 1); /* SS_ONSTACK */
    /* Too small. */
    env->gpr[LINX_REG_SP] = TEST_SCRATCH + 0x1000;
    uint64_t small[3] = { TEST_SCRATCH, 0, 100 };
    test_poke(p, G_SET, small, sizeof(small));
    assert_int_equal(SYS2(NR_sigaltstack, G_SET, 0), -ENOMEM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sigaction_bookkeeping, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deliver_and_return, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fault_to_handler, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fault_kills, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blocked_fault_kills, setup, teardown),
        cmocka_unit_test_setup_teardown(test_default_actions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_restorer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_stack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_altstack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kill_own_thread, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
