/*
 * linx-call: call functions of a compiled LinxISA Linux program and print
 * what they return - the harness behind the compiled-code tests
 * (tests/compiled), which compare compiled library routines (soft-float
 * arithmetic, snprintf, the mem and str functions) with the host's on the
 * same inputs.
 *
 *   linx-call [engine options] [-cpu NAME] PROGRAM SYMBOL [ARG...]
 *   linx-call [engine options] [-cpu NAME] -batch PROGRAM < calls
 *
 * PROGRAM is loaded as linx-user loads it (same process set-up, system
 * calls to the host).  When it has a `main`, its start-up code runs first,
 * up to main (libc's TLS, stdio and locale are then set up); otherwise
 * nothing runs before the calls.  A call puts its arguments in a0..a7
 * (or on the stack), sp below the initial stack and ra at a landing pad
 * (a mapped page holding "C.BSTART.STD; C.EBREAK"), and runs SYMBOL (its
 * .symtab value plus the load bias of a PIE) until it returns there.
 *
 * An ARG is
 *   123, -5, 0x7f        an integer
 *   f64:1.5              the bits of a double (soft-float ABI)
 *   str:TEXT             a pointer to a NUL-terminated copy of TEXT
 *   hex:0a0b0c           a pointer to these bytes
 *   buf:N                a pointer to N zero bytes (an output buffer)
 * and "@ARG" passes it on the stack instead of in the next register, as a
 * 64-bit slot at the next multiple of 8, or "@w:N" as a 32-bit slot at the
 * next multiple of 4: variadic functions take all their arguments on the
 * stack, packed at their natural size and alignment (the compiled images'
 * va_arg advances by 4 for an int and by 8, aligned, for a pointer, long
 * or double; snprintf reads buf, size and format from [sp], [sp+8],
 * [sp+16]).
 *
 * Output, one line per call: "a0=0x... a1=0x..." then, for every str/hex/
 * buf argument, " argK=<hex of its bytes after the call> addrK=0x<its
 * guest address>" (K counts all arguments, register and stack, from 0).  With -batch, each line of
 * standard input is "SYMBOL ARG..." (arguments separated by single
 * spaces; in str: text "\s" is a space and "\\" a backslash) and gives one
 * output line.  Exit status 0; 1 when a call trapped or the program
 * exited (message on stderr), 2 for a bad command line or call line.
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
#include "target/linx/exec-target.h"
#include "util/elf-file.h"

#define MAX_ARGS 24
#define MAX_LINE 65536
#define PAD_ADDR UINT64_C(0x7e0000000)
#define PAD_SIZE 4096

typedef struct CallArg {
    uint64_t value;
    bool on_stack;
    bool word;     /* @w:N: a 32-bit stack slot */
    uint8_t *data; /* str/hex/buf: the bytes placed in guest memory */
    size_t len;
    uint64_t addr;
} CallArg;

typedef struct Harness {
    LinuxProcess *p;
    CPULinxState *env;
    LinxExecContext *ec;
    ElfFile ef;
    uint64_t bias;
    uint64_t pad;
    uint64_t sp0; /* sp at main (or the initial one) */
} Harness;

static int usage_error(const char *msg)
{
    fprintf(stderr,
            "linx-call: %s\n"
            "usage: linx-call [engine options] [-cpu NAME] PROGRAM SYMBOL [ARG...]\n"
            "       linx-call [engine options] [-cpu NAME] -batch PROGRAM < calls\n",
            msg);
    return 2;
}

/* Undo the batch escapes of str: text ("\s" space, "\\" backslash). */
static void unescape(char *s)
{
    char *o = s;

    for (; *s; s++) {
        if (s[0] == '\\' && s[1] == 's') {
            *o++ = ' ';
            s++;
        } else if (s[0] == '\\' && s[1] == '\\') {
            *o++ = '\\';
            s++;
        } else {
            *o++ = *s;
        }
    }
    *o = '\0';
}

static bool parse_arg(const char *s, CallArg *a, bool escapes)
{
    char *end;

    memset(a, 0, sizeof(*a));
    if (*s == '@') {
        a->on_stack = true;
        s++;
        if (!strncmp(s, "w:", 2)) {
            a->word = true;
            s += 2;
        }
    }
    if (!strncmp(s, "f64:", 4)) {
        double d = strtod(s + 4, &end);
        if (end == s + 4 || *end) {
            return false;
        }
        memcpy(&a->value, &d, 8);
        return true;
    }
    if (!strncmp(s, "str:", 4)) {
        a->data = (uint8_t *)strdup(s + 4);
        if (!a->data) {
            return false;
        }
        if (escapes) {
            unescape((char *)a->data);
        }
        a->len = strlen((char *)a->data) + 1;
        return true;
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
        errno = 0;
        a->value = strtoull(s, &end, 0);
    }
    return end != s && !*end && errno == 0;
}

static void free_args(CallArg *a, unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        free(a[k].data);
    }
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

/* Run the program's start-up code until it reaches @pc. */
static bool run_to(Harness *h, uint64_t pc)
{
    linx_exec_breakpoint_insert(h->ec, pc);
    for (;;) {
        int r = cpu_exec(h->env);
        if (r == EXCP_DEBUG && h->env->pc == pc) {
            break;
        }
        if (r == EXCP_INTERRUPT || r == EXCP_DEBUG) {
            continue;
        }
        fprintf(stderr,
                "linx-call: the program %s before reaching main (trap %u at 0x%" PRIx64 ")\n",
                h->p->exited ? "exited" : "stopped", linx_trapno_num(h->env->trapno),
                h->env->trap_pc);
        return false;
    }
    linx_exec_breakpoint_remove(h->ec, pc);
    return true;
}

static bool harness_open(Harness *h, const char *path, const LinxExecOptions *eo,
                         const LinxProfile *profile)
{
    /* The landing pad: C.BSTART.STD FALL; C.EBREAK 0. */
    static const uint8_t pad[] = { 0x00, 0x08, 0x2c, 0xc0, 0x00, 0x00 };
    static char *genvp[] = { NULL };
    char *gargv[] = { (char *)path, NULL };
    char err[512];
    LinuxOptions lo = { .log = stderr };

    memset(h, 0, sizeof(*h));
    if (!elf_file_open(&h->ef, path, err, sizeof(err))) {
        fprintf(stderr, "linx-call: %s\n", err);
        return false;
    }
    h->p = linux_process_new(&lo);
    h->env = calloc(1, sizeof(*h->env));
    h->ec = linx_exec_new(eo, err, sizeof(err));
    if (!h->p || !h->env || !h->ec) {
        fprintf(stderr, "linx-call: %s\n", h->ec ? "out of memory" : err);
        return false;
    }
    if (!linux_load_program(h->p, path, 1, gargv, genvp, err, sizeof(err))) {
        fprintf(stderr, "linx-call: %s\n", err);
        return false;
    }
    h->env->profile = profile ? profile : linx_profile_decide(&h->p->profile_vote, NULL, 0);
    linux_process_attach_cpu(h->p, h->env);
    linx_exec_attach_cpu(h->ec, h->env);
    h->bias = h->p->image.load_bias;
    const ElfSymbol *m = find_symbol(&h->ef, "main");
    if (m && !run_to(h, h->bias + m->value)) {
        return false;
    }
    h->pad = guest_mem_find_free(h->p->mem, PAD_ADDR, PAD_SIZE);
    if (!guest_mem_map(h->p->mem, h->pad, PAD_SIZE, GM_PROT_READ | GM_PROT_EXEC, false) ||
        guest_mem_debug_rw(h->p->mem, h->pad, (void *)pad, sizeof(pad), true) != GM_OK) {
        fprintf(stderr, "linx-call: cannot map the landing pad\n");
        return false;
    }
    h->sp0 = h->env->gpr[LINX_REG_SP];
    return true;
}

static void harness_close(Harness *h)
{
    if (h->ec && h->env) {
        linx_exec_detach_cpu(h->ec, h->env);
    }
    if (h->ec) {
        linx_exec_free(h->ec);
    }
    if (h->p) {
        linux_process_free(h->p);
    }
    free(h->env);
    elf_file_close(&h->ef);
}

/* Call @sym with @args and print the result line; false after a message. */
static bool call(Harness *h, const char *sym_name, CallArg *args, unsigned nargs)
{
    CPULinxState *env = h->env;
    const ElfSymbol *sym = find_symbol(&h->ef, sym_name);
    uint64_t sp = h->sp0 - 4096; /* below whatever main's caller keeps */
    uint64_t stack_bytes = 0;
    unsigned nreg = 0;

    if (!sym) {
        fprintf(stderr, "linx-call: no symbol '%s'\n", sym_name);
        return false;
    }
    for (unsigned k = 0; k < nargs; k++) {
        if (args[k].data) {
            sp = (sp - args[k].len - 64) & ~UINT64_C(15);
            args[k].addr = args[k].value = sp;
            if (guest_mem_debug_rw(h->p->mem, sp, args[k].data, args[k].len, true) != GM_OK) {
                fprintf(stderr, "linx-call: cannot place argument %u\n", k);
                return false;
            }
        }
        stack_bytes += args[k].on_stack ? 8 : 0;
    }
    sp = (sp - 256 - stack_bytes) & ~UINT64_C(15);
    for (unsigned k = 0, off = 0; k < nargs; k++) {
        if (args[k].on_stack) {
            unsigned size = args[k].word ? 4 : 8;
            off = (off + size - 1) & ~(size - 1);
            if (guest_mem_debug_rw(h->p->mem, sp + off, &args[k].value, size, true) != GM_OK) {
                fprintf(stderr, "linx-call: cannot write the stack\n");
                return false;
            }
            off += size;
        } else if (nreg < 8) {
            env->gpr[LINX_REG_A0 + nreg++] = args[k].value;
        } else {
            fprintf(stderr, "linx-call: more than 8 register arguments\n");
            return false;
        }
    }
    for (unsigned k = nreg; k < 8; k++) {
        env->gpr[LINX_REG_A0 + k] = 0;
    }
    env->pc = env->bpc = h->bias + sym->value;
    env->resume = 0;
    env->gpr[LINX_REG_SP] = sp;
    env->gpr[LINX_REG_RA] = h->pad;
    for (;;) {
        int r = cpu_exec(env);
        if (r == EXCP_TRAP && env->trap_pc == h->pad + 2 &&
            linx_trapno_num(env->trapno) == LINX_TRAP_SW_BREAKPOINT) {
            break;
        }
        if (r == EXCP_INTERRUPT || r == EXCP_DEBUG) {
            continue;
        }
        if (r == EXCP_EXIT || h->p->exited) {
            fprintf(stderr, "linx-call: the program exited (status %d) inside %s\n",
                    env->exit_code, sym_name);
        } else {
            linx_cpu_sync_block_state(env);
            fprintf(stderr, "linx-call: trap %u (cause 0x%x) at pc 0x%" PRIx64 " inside %s\n",
                    linx_trapno_num(env->trapno), linx_trapno_cause(env->trapno), env->trap_pc,
                    sym_name);
            linx_cpu_dump_state(env, stderr);
        }
        return false;
    }
    printf("a0=0x%016" PRIx64 " a1=0x%016" PRIx64, env->gpr[LINX_REG_A0],
           env->gpr[LINX_REG_A0 + 1]);
    for (unsigned k = 0; k < nargs; k++) {
        if (!args[k].data) {
            continue;
        }
        guest_mem_debug_rw(h->p->mem, args[k].addr, args[k].data, args[k].len, false);
        printf(" arg%u=", k);
        for (size_t b = 0; b < args[k].len; b++) {
            printf("%02x", args[k].data[b]);
        }
        printf(" addr%u=0x%" PRIx64, k, args[k].addr);
    }
    printf("\n");
    return true;
}

/* -batch: "SYMBOL ARG..." per line of standard input. */
static int batch(Harness *h)
{
    char *line = malloc(MAX_LINE);
    int status = 0;

    if (!line) {
        return 1;
    }
    while (status == 0 && fgets(line, MAX_LINE, stdin)) {
        CallArg args[MAX_ARGS];
        unsigned n = 0;
        char *save = NULL, *sym;

        line[strcspn(line, "\n")] = '\0';
        sym = strtok_r(line, " ", &save);
        if (!sym) {
            continue;
        }
        for (char *t = strtok_r(NULL, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            if (n == MAX_ARGS || !parse_arg(t, &args[n], true)) {
                fprintf(stderr, "linx-call: bad argument '%s' (at most %d)\n", t, MAX_ARGS);
                free_args(args, n);
                free(line);
                return 2;
            }
            n++;
        }
        if (!call(h, sym, args, n)) {
            status = 1;
        }
        fflush(stdout);
        free_args(args, n);
    }
    free(line);
    return status;
}

int main(int argc, char **argv)
{
    LinxExecOptions eo;
    const LinxProfile *profile = NULL;
    char err[512];
    CallArg args[MAX_ARGS];
    unsigned nargs = 0;
    bool batch_mode = false;
    int i = 1, status;
    Harness h;

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
        if (!strcmp(argv[i], "-batch")) {
            batch_mode = true;
            i++;
        } else {
            snprintf(err, sizeof(err), "unknown option '%s'", argv[i]);
            return usage_error(err);
        }
    }
    if (argc - i < (batch_mode ? 1 : 2)) {
        return usage_error(batch_mode ? "PROGRAM is needed" : "PROGRAM and SYMBOL are needed");
    }
    for (int k = i + 2; !batch_mode && k < argc; k++) {
        if (nargs == MAX_ARGS || !parse_arg(argv[k], &args[nargs], false)) {
            snprintf(err, sizeof(err), "bad argument '%s' (at most %d)", argv[k], MAX_ARGS);
            free_args(args, nargs);
            return usage_error(err);
        }
        nargs++;
    }
    signal(SIGPIPE, SIG_IGN);
    if (!harness_open(&h, argv[i], &eo, profile)) {
        harness_close(&h);
        free_args(args, nargs);
        return 1;
    }
    if (batch_mode) {
        status = batch(&h);
    } else {
        status = call(&h, argv[i + 1], args, nargs) ? 0 : 1;
    }
    harness_close(&h);
    free_args(args, nargs);
    return status;
}
