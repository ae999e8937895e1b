/*
 * Host faults: guest memory accesses of translated code that the host's
 * MMU checks (docs/engine.md "Guest memory: host faults").
 *
 * With a direct window (hw/core/guest-memory.h) and host faults enabled
 * on the address space, the window's host protection mirrors what the TLB
 * would allow a fast access to do on each page.  The JIT then emits an
 * aligned guest access as
 *
 *     test  addr, [env + host_fault_mask[size]]  ; outside the window or
 *     jne   slow_N                               ; misaligned: slow path
 *     mov   dst, [addr + guest_base]             ; the access (site N)
 *   done_N:
 *
 * and a host SIGSEGV/SIGBUS at site N is turned, by this file's signal
 * handler, into a jump to slow_N: the registers at the access are those
 * at the jne (nothing runs between them), so the slow path runs exactly
 * as if the jne had been taken.  The slow path is the TLB's
 * (linx_ld_slow/linx_st_slow): it performs the access the checked way or
 * raises the architectural fault, so faults, MMIO and stores to code
 * pages keep the one path they always had; only the decision "fast or
 * not" moved from a TLB compare to the host's page tables.
 *
 * The backend reports each site (access, slow path) as it commits a TB;
 * sites grow with the code buffer and are dropped with it, so the list
 * is sorted and the handler finds a site by binary search.  The handler
 * finds the running exec context through a thread-local pointer set by
 * cpu_exec (the one piece of state outside the CPU/machine structs: a
 * signal handler has no argument to carry it).  A fault anywhere else is
 * passed to the handler that was installed before (or the default
 * action: the process dies as it would have).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "tcg/exec-internal.h"

typedef struct FaultSite {
    uintptr_t access, slow;
} FaultSite;

/* Set while a CPU of the context runs (cpu_exec); read by the handler. */
static __thread LinxExecContext *running_ec;

static struct sigaction old_segv, old_bus;

void host_fault_site(void *opaque, const void *access, const void *slow)
{
    LinxExecContext *ec = opaque;
    FaultSite s = { (uintptr_t)access, (uintptr_t)slow };

    g_array_append_val(ec->fault_sites, s);
}

void host_fault_reset(LinxExecContext *ec)
{
    if (ec->fault_sites) {
        g_array_set_size(ec->fault_sites, 0);
    }
}

static uintptr_t find_site(const LinxExecContext *ec, uintptr_t pc)
{
    const FaultSite *v = (const FaultSite *)(const void *)ec->fault_sites->data;
    size_t lo = 0, hi = ec->fault_sites->len;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (v[mid].access == pc) {
            return v[mid].slow;
        }
        if (v[mid].access < pc) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return 0;
}

static void chain(int sig, siginfo_t *info, void *uc)
{
    const struct sigaction *old = sig == SIGBUS ? &old_bus : &old_segv;

    if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
        old->sa_sigaction(sig, info, uc);
        return;
    }
    if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN && old->sa_handler) {
        old->sa_handler(sig);
        return;
    }
    /* Default action: restore it; returning re-runs the faulting
     * instruction, which faults again and ends the process as before. */
    signal(sig, SIG_DFL);
}

static void host_fault_handler(int sig, siginfo_t *info, void *ucv)
{
    ucontext_t *uc = ucv;
    LinxExecContext *ec = running_ec;
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    uintptr_t slow;

    if (ec && ec->fault_sites && pc >= (uintptr_t)ec->cb.rx &&
        pc < (uintptr_t)ec->cb.rx + ec->cb.size && (slow = find_site(ec, pc)) != 0) {
        ec->stats.host_faults++;
        uc->uc_mcontext.gregs[REG_RIP] = (greg_t)slow;
        return;
    }
    chain(sig, info, ucv);
}

/* Install the handler unless it is the current one (test harnesses such
 * as cmocka install their own SIGSEGV handler before each test: ours goes
 * back on top and chains to theirs). */
static bool install_one(int sig, struct sigaction *old)
{
    struct sigaction cur, sa;

    if (sigaction(sig, NULL, &cur) != 0) {
        return false;
    }
    if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == host_fault_handler) {
        return true;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = host_fault_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, NULL) != 0) {
        return false;
    }
    *old = cur;
    /* A runtime that intercepts sigaction (a sanitizer told not to let
     * programs handle SIGSEGV) may ignore it: check. */
    if (sigaction(sig, NULL, &cur) != 0 || !(cur.sa_flags & SA_SIGINFO) ||
        cur.sa_sigaction != host_fault_handler) {
        return false;
    }
    return true;
}

bool host_fault_install(void)
{
    return install_one(SIGSEGV, &old_segv) && install_one(SIGBUS, &old_bus);
}

LinxExecContext *host_fault_enter(LinxExecContext *ec)
{
    LinxExecContext *prev = running_ec;

    if (ec->bs.guest_hostfault && !host_fault_install()) {
        /* Somebody took SIGSEGV away: no host-fault code may run (the
         * TBs go before the first one is entered: flush at the loop top). */
        exec_update_hostfault(ec);
    }
    running_ec = ec;
    return prev;
}

void host_fault_leave(LinxExecContext *prev)
{
    running_ec = prev;
}
