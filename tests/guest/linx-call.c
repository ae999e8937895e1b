/*
 * linx-call: call one function of a compiled LinxISA Linux program and
 * print what it returns - the harness behind the compiled-code tests,
 * which compare compiled library routines (soft-float arithmetic,
 * snprintf, the mem and str functions) with the host's on the same inputs.
 *
 *   linx-call [engine options] [-cpu NAME] PROGRAM SYMBOL [ARG...]
 *
 * PROGRAM is loaded as linx-user loads it (same process set-up, system
 * calls to the host), then SYMBOL (its address from .symtab, plus the load
 * bias of a PIE) is called with ARGs in a0..a7 and ra pointing at a
 * landing pad, a mapped page holding "C.BSTART.STD; C.EBREAK".  When the
 * program has a `main`, its start-up code runs first, up to main (libc's
 * TLS, stdio and locale are then set up); otherwise nothing runs before
 * the call.  An ARG is
 *
 *   123, -5, 0x7f        an integer
 *   f64:1.5              the bits of a double (soft-float ABI)
 *   str:TEXT             a pointer to a NUL-terminated copy of TEXT
 *   hex:0a0b0c           a pointer to these bytes
 *   buf:N                a pointer to N zero bytes (an output buffer)
 *
 * Options after the engine's: -stack ARG passes ARG as a 64-bit stack
 * word instead (variadic functions take all their arguments on the stack,
 * the first at sp, the next at sp+8, ...: snprintf in the compiled
 * images reads buf, size and format from [sp], [sp+8], [sp+16]), -n N calls the function N times
 * with the same arguments (the buffers are not reset) to exercise translated code. Output, one line
 * each: "a0=0x...", "a1=0x...", then for every str/hex/ buf argument "argK=<hex of its bytes>" or
 * "stackK=..." (its size, after the call). Exit status 0, 1 when the call trapped or the program
 * exited (message on stderr), 2 for a bad command line.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linux-user/linux-user.h"
#include "target/linx/profile.h"
#include "tcg/exec.h"
#include "util/elf-file.h"

#define MAX_ARGS 8
#define MAX_STACK_WORDS 32
#define PAD_ADDR UINT64_C(0x7e0000000)
#define PAD_SIZE 4096

typedef struct CallArg {
    uint64_t value;
    uint8_t *data; /* str/hex/buf: the bytes placed in guest memory */
    size_t len;
    uint64_t addr;
} CallArg;

static int usage_error(const char *msg)
{
    fprintf(stderr,
            "linx-call: %s\n"
            "usage: linx-call [engine options] [-cpu NAME] [-stack ARG]... [-n N] "
            "PROGRAM SYMBOL [ARG...]\n",
            msg);
    return 2;
}

static bool parse_arg(const char *s, CallArg *a)
{
    char *end;

    memset(a, 0, sizeof(*a));
    if (!strncmp(s, "f64:", 4)) {
        double d = strtod(s + 4, &end);
        if (end == s + 4 || *end) {
            return false;
        }
        memcpy(&a->value, &d, 8);
        return true;
    }
    if (!strncmp(s, "str:", 4)) {
        a->len = strlen(s + 4) + 1;
        a->data = (uint8_t *)strdup(s + 4);
        return a->data != NULL;
    }
    if (!strncmp(s, "hex:", 4)) {
        size_t n = strlen(s + 4);
        if (n % 2) {
            return false;
        }
        a->len = n / 2;
        a->data = calloc(a->len + 1, 1);
        for (size_t i = 0; a->data && i < a->len; i++) {
            char byte[3] = { s[4 + 2 * i], s[5 + 2 * i], 0 };
            a->data[i] = (uint8_t)strtoul(byte, &end, 16);
            if (*end) {
                return false;
            }
        }
        return a->data != NULL;
    }
    if (!strncmp(s, "buf:", 4)) {
        unsigned long n = strtoul(s + 4, &end, 0);
        if (end == s + 4 || *end || n == 0 || n > (1u << 20)) {
            return false;
        }
        a->len = n;
        a->data = calloc(n, 1);
        return a->data != NULL;
    }
    errno = 0;
    a->value = (uint64_t)strtoll(s, &end, 0);
    if (errno == ERANGE) {
        a->value = strtoull(s, &end, 0);
    }
    return end != s && !*end;
}

/* Copy the str/hex/buf arguments below sp (16-byte aligned). */
static bool place_args(CPULinxState *env, CallArg *args, unsigned n)
{
    uint64_t sp = env->gpr[LINX_REG_SP];

    for (unsigned i = 0; i < n; i++) {
        if (!args[i].data) {
            continue;
        }
        sp = (sp - args[i].len - 64) & ~UINT64_C(15);
        args[i].addr = sp;
        args[i].value = sp;
        if (guest_mem_debug_rw(env->mem, sp, args[i].data, args[i].len, true) != GM_OK) {
            return false;
        }
    }
    env->gpr[LINX_REG_SP] = (sp - 256) & ~UINT64_C(15);
    return true;
}

static void print_buffers(GuestMemory *mem, const char *what, CallArg *a, unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        if (!a[k].data) {
            continue;
        }
        guest_mem_debug_rw(mem, a[k].addr, a[k].data, a[k].len, false);
        printf("%s%u=", what, k);
        for (size_t b = 0; b < a[k].len; b++) {
            printf("%02x", a[k].data[b]);
        }
        printf("\n");
    }
}

/* Run the program's start-up code until it reaches @pc. */
static bool run_to(CPULinxState *env, LinuxProcess *p, LinxExecContext *ec, uint64_t pc)
{
    linx_exec_breakpoint_insert(ec, pc);
    for (;;) {
        int r = cpu_exec(env);
        if (r == EXCP_DEBUG && env->pc == pc) {
            break;
        }
        if (r == EXCP_INTERRUPT || r == EXCP_DEBUG) {
            continue;
        }
        fprintf(stderr,
                "linx-call: the program %s before reaching main (trap %u at 0x%" PRIx64 ")\n",
                p->exited ? "exited" : "stopped", linx_trapno_num(env->trapno), env->trap_pc);
        return false;
    }
    linx_exec_breakpoint_remove(ec, pc);
    return true;
}

static const ElfSymbol *find_symbol(const ElfFile *ef, const char *name)
{
    for (unsigned i = 0; i < ef->nsymbols; i++) {
        if (ef->symbols[i].name && !strcmp(ef->symbols[i].name, name) &&
            ef->symbols[i].shndx != 0) {
            return &ef->symbols[i];
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    LinxExecOptions eo;
    const LinxProfile *profile = NULL;
    char err[512];
    CallArg args[MAX_ARGS], stack[MAX_STACK_WORDS];
    unsigned nargs = 0, nstack = 0;
    unsigned long repeat = 1;
    int i = 1;

    linx_exec_options_init(&eo);
    while (i < argc && argv[i][0] == '-') {
        int r = linx_exec_parse_option(&eo, argc, argv, &i, err, sizeof(err));
        if (r == 0) {
            r = linx_profile_parse_option(&profile, argc, argv, &i, err, sizeof(err));
        }
        if (r < 0) {
            return usage_error(err);
        }
        if (r == 2) {
            return 0;
        }
        if (r == 1) {
            continue;
        }
        if (!strcmp(argv[i], "-stack") && i + 1 < argc) {
            if (nstack == MAX_STACK_WORDS || !parse_arg(argv[i + 1], &stack[nstack])) {
                return usage_error("bad -stack argument");
            }
            nstack++;
            i += 2;
        } else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            repeat = strtoul(argv[i + 1], NULL, 0);
            if (repeat == 0 || repeat > 1000000) {
                return usage_error("-n takes 1 to 1000000");
            }
            i += 2;
        } else {
            snprintf(err, sizeof(err), "unknown option '%s'", argv[i]);
            return usage_error(err);
        }
    }
    if (argc - i < 2) {
        return usage_error("PROGRAM and SYMBOL are needed");
    }
    const char *path = argv[i], *sym_name = argv[i + 1];
    for (int k = i + 2; k < argc; k++) {
        if (nargs == MAX_ARGS || !parse_arg(argv[k], &args[nargs])) {
            snprintf(err, sizeof(err), "bad argument '%s' (at most %d)", argv[k], MAX_ARGS);
            return usage_error(err);
        }
        nargs++;
    }

    ElfFile ef;
    if (!elf_file_open(&ef, path, err, sizeof(err))) {
        fprintf(stderr, "linx-call: %s\n", err);
        return 1;
    }
    const ElfSymbol *sym = find_symbol(&ef, sym_name);
    if (!sym) {
        fprintf(stderr, "linx-call: %s: no symbol '%s'\n", path, sym_name);
        return 1;
    }
    uint64_t sym_value = sym->value;
    const ElfSymbol *main_sym = find_symbol(&ef, "main");
    uint64_t main_value = main_sym ? main_sym->value : 0;
    elf_file_close(&ef);

    LinuxOptions lo = { .log = stderr };
    LinuxProcess *p = linux_process_new(&lo);
    CPULinxState *env = calloc(1, sizeof(*env));
    LinxExecContext *ec = linx_exec_new(&eo, err, sizeof(err));
    char *gargv[] = { (char *)path, NULL };
    char *genvp[] = { NULL };
    if (!p || !env || !ec) {
        fprintf(stderr, "linx-call: %s\n", ec ? "out of memory" : err);
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    if (!linux_load_program(p, path, 1, gargv, genvp, err, sizeof(err))) {
        fprintf(stderr, "linx-call: %s\n", err);
        return 1;
    }
    env->profile = profile ? profile : linx_profile_decide(&p->profile_vote, NULL, 0);
    linux_process_attach_cpu(p, env);
    linx_exec_attach_cpu(ec, env);
    if (main_sym && !run_to(env, p, ec, p->image.load_bias + main_value)) {
        return 1;
    }

    /* The landing pad: C.BSTART.STD FALL; C.EBREAK 0. */
    static const uint8_t pad[] = { 0x00, 0x08, 0x2c, 0xc0, 0x00, 0x00 };
    uint64_t pad_addr = guest_mem_find_free(p->mem, PAD_ADDR, PAD_SIZE);
    if (!guest_mem_map(p->mem, pad_addr, PAD_SIZE, GM_PROT_READ | GM_PROT_EXEC, false) ||
        guest_mem_debug_rw(p->mem, pad_addr, (void *)pad, sizeof(pad), true) != GM_OK ||
        !place_args(env, args, nargs) || !place_args(env, stack, nstack)) {
        fprintf(stderr, "linx-call: cannot set up guest memory\n");
        return 1;
    }
    uint64_t sp0 = env->gpr[LINX_REG_SP] - (uint64_t)nstack * 8;
    sp0 &= ~UINT64_C(15);
    for (unsigned k = 0; k < nstack; k++) {
        if (guest_mem_debug_rw(p->mem, sp0 + 8 * k, &stack[k].value, 8, true) != GM_OK) {
            fprintf(stderr, "linx-call: cannot write the stack\n");
            return 1;
        }
    }

    int status = 0;
    for (unsigned long rep = 0; rep < repeat && status == 0; rep++) {
        env->pc = env->bpc = p->image.load_bias + sym_value;
        env->resume = 0;
        env->gpr[LINX_REG_SP] = sp0;
        env->gpr[LINX_REG_RA] = pad_addr;
        for (unsigned k = 0; k < MAX_ARGS; k++) {
            env->gpr[LINX_REG_A0 + k] = k < nargs ? args[k].value : 0;
        }
        for (;;) {
            int r = cpu_exec(env);
            if (r == EXCP_TRAP && env->trap_pc == pad_addr + 2 &&
                linx_trapno_num(env->trapno) == LINX_TRAP_SW_BREAKPOINT) {
                break;
            }
            if (r == EXCP_INTERRUPT || r == EXCP_DEBUG) {
                continue;
            }
            if (r == EXCP_EXIT || p->exited) {
                fprintf(stderr, "linx-call: the program exited (status %d) inside %s\n",
                        env->exit_code, sym_name);
            } else {
                linx_cpu_sync_block_state(env);
                fprintf(stderr, "linx-call: trap %u (cause 0x%x) at pc 0x%" PRIx64 " inside %s\n",
                        linx_trapno_num(env->trapno), linx_trapno_cause(env->trapno), env->trap_pc,
                        sym_name);
                linx_cpu_dump_state(env, stderr);
            }
            status = 1;
            break;
        }
    }
    if (status == 0) {
        printf("a0=0x%016" PRIx64 "\na1=0x%016" PRIx64 "\n", env->gpr[LINX_REG_A0],
               env->gpr[LINX_REG_A0 + 1]);
        print_buffers(p->mem, "arg", args, nargs);
        print_buffers(p->mem, "stack", stack, nstack);
    }
    for (unsigned k = 0; k < nargs; k++) {
        free(args[k].data);
    }
    for (unsigned k = 0; k < nstack; k++) {
        free(stack[k].data);
    }
    linx_exec_detach_cpu(ec, env);
    linx_exec_free(ec);
    linux_process_free(p);
    free(env);
    return status;
}
