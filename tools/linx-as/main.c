/*
 * linx-as: the LinxISA assembler's command line.
 *
 *   linx-as [options] file.s...      ("-" reads standard input)
 *
 * Options (docs/assembler.md):
 *   -o FILE              output file (default a.out)
 *   -f, --format=FMT     exec (ELF ET_EXEC, default), rel (ELF ET_REL for
 *                        the virt machine) or bin (raw bytes)
 *   -r                   same as --format=rel
 *   --base=ADDR          address of .text (default 0x10000); -Ttext=ADDR too
 *   -e, --entry=SYM|ADDR entry point (default _start, else .text)
 *   -a[=FILE]            listing (address, bytes, source) to stdout or FILE
 *   --legacy             v0.3-era spellings of the shared listings (tile
 *                        data-type codes, header names); --legacy-dtype too
 *   --objdump            inputs are llvm-objdump listings: re-assemble their
 *                        instructions at their addresses (base = first address)
 *   -mcpu=NAME           ISA profile of the encodings: linx-toolchain (default;
 *                        what LinxISA clang emits) or linx-v0.4; for --objdump
 *                        listings the default is the one their bytes use
 *   --max-errors=N       stop after N errors (default 50)
 *   -g, --gdwarf         DWARF debug information: line table, functions,
 *                        data objects as variables, CFI of FENTRY frames
 *   --dwarf-regs=compat|llvm  DWARF register numbers of -g: compat (default;
 *                        what stock gdb/lldb use with linxemu's gdb stub)
 *                        or the LinxISA LLVM backend's (Rn = n)
 *
 * Exit status: 0 on success, 1 when the input has errors (nothing is
 * written, and a stale output file is removed), 2 on a usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linx-as.h"
#include "target/linx/asm-insn.h"
#include "target/linx/dwarf-regs.h"
#include "target/linx/profile.h"

#define EXIT_INPUT_ERROR 1
#define EXIT_USAGE 2

static void usage(FILE *f)
{
    fputs("usage: linx-as [options] file.s...\n"
          "  -o FILE              output file (default a.out)\n"
          "  -f, --format=FMT     exec (default), rel (ET_REL for the virt machine) or bin\n"
          "  -r                   same as --format=rel\n"
          "  --base=ADDR          address of .text (default 0x10000); also -Ttext=ADDR\n"
          "  -e, --entry=SYM|ADDR entry point (default: _start, else start of .text)\n"
          "  -a[=FILE]            print a listing (address, bytes, source) to stdout or FILE\n"
          "  --legacy             v0.3-era spellings of the shared listings (data-type\n"
          "                       codes FP16 = 4, BSTART.VPAR VCALL, ...); also --legacy-dtype\n"
          "  --objdump            inputs are llvm-objdump listings: re-assemble their\n"
          "                       instructions at their addresses (default base: the first)\n"
          "  -mcpu=NAME           ISA profile: linx-toolchain (default) or linx-v0.4; an\n"
          "                       --objdump listing defaults to the one its bytes use\n"
          "  --max-errors=N       stop reporting after N errors (default 50)\n"
          "  -g, --gdwarf         DWARF debug information (lines, functions, variables, CFI)\n"
          "  --dwarf-regs=compat|llvm  DWARF register numbers: compat (default: stock\n"
          "                       gdb/lldb with the linxemu gdb stub) or llvm (Rn = n)\n"
          "  -h, --help           this text\n",
          f);
}

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;

    if (!*s) {
        return false;
    }
    errno = 0;
    *v = strtoull(s, &end, 0);
    return *end == '\0' && errno == 0;
}

/* Whole file (or standard input for "-"), NUL-terminated; NULL with a
 * message on failure (an empty input gives an empty buffer). */
static char *read_input(const char *path, size_t *lenp)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0, n;

    if (!f) {
        fprintf(stderr, "linx-as: cannot open '%s': %s\n", path, strerror(errno));
        return NULL;
    }
    do {
        if (len + 4096 > cap) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap);
            if (!buf) {
                fprintf(stderr, "linx-as: out of memory\n");
                exit(EXIT_USAGE);
            }
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    if (ferror(f)) {
        fprintf(stderr, "linx-as: cannot read '%s': %s\n", path, strerror(errno));
        free(buf);
        buf = NULL;
    } else {
        buf[len] = '\0';
    }
    if (f != stdin) {
        fclose(f);
    }
    *lenp = len;
    return buf;
}

typedef struct Source {
    const char *name;
    char *text;
    size_t len;
} Source;

/* Read every input (an --objdump listing becomes source) into @src; the
 * first listing's base goes to *@base and the listings' instruction bytes
 * are counted in @vote (the profile they were made under).  False after a
 * message. */
static bool load_inputs(const char **inputs, int n, bool objdump, Source *src, uint64_t *base,
                        LinxProfileVote *vote)
{
    for (int i = 0; i < n; i++) {
        size_t len = 0;
        char *buf = read_input(inputs[i], &len);

        src[i].name = strcmp(inputs[i], "-") == 0 ? "<stdin>" : inputs[i];
        if (!buf) {
            return false; /* reported by read_input */
        }
        if (objdump) {
            char *text = NULL;
            size_t tlen = 0, elen = 0;
            uint64_t b = 0;
            uint8_t *expect = NULL;
            bool ok = linx_as_objdump_source(buf, len, &text, &tlen, &b, &expect, &elen);
            if (ok) {
                linx_profile_vote_code(vote, expect, elen);
            }
            free(expect);
            free(buf);
            if (!ok) {
                fprintf(stderr, "linx-as: '%s' has no llvm-objdump instruction lines\n",
                        src[i].name);
                free(text);
                return false;
            }
            if (i == 0) {
                *base = b;
            }
            src[i].text = text;
            src[i].len = tlen;
        } else {
            src[i].text = buf;
            src[i].len = len;
        }
    }
    return true;
}

/* The value of "--opt=VALUE" or "--opt VALUE"; NULL (with a message) when missing. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    const char *a = argv[*i];

    if (a[n] == '=') {
        return a + n + 1;
    }
    if (a[n] == '\0' && *i + 1 < argc) {
        return argv[++*i];
    }
    if (a[n] == '\0') {
        fprintf(stderr, "linx-as: option '%s' needs a value\n", name);
    }
    return NULL;
}

static bool is_opt(const char *a, const char *name)
{
    size_t n = strlen(name);
    return strncmp(a, name, n) == 0 && (a[n] == '\0' || a[n] == '=');
}

int main(int argc, char **argv)
{
    LinxAsOptions o;
    const char *output = "a.out", *listing = NULL;
    const char **inputs = calloc((size_t)argc + 1, sizeof(char *));
    int ninputs = 0;
    bool want_listing = false, objdump = false, base_set = false;
    Source *sources;
    uint64_t listing_base = 0;
    LinxProfileVote vote = { { 0 }, 0 };
    LinxAs *as;
    int status = 0;

    linx_as_default_options(&o);
    if (!inputs) {
        return EXIT_USAGE;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v;
        uint64_t n;

        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            free(inputs);
            return 0;
        } else if (strcmp(a, "-o") == 0 || is_opt(a, "--output")) {
            if (!(v = opt_value(argc, argv, &i, a[1] == 'o' ? "-o" : "--output"))) {
                goto bad;
            }
            output = v;
        } else if (strcmp(a, "-f") == 0 || is_opt(a, "--format")) {
            if (!(v = opt_value(argc, argv, &i, a[1] == 'f' ? "-f" : "--format"))) {
                goto bad;
            }
            if (strcmp(v, "exec") == 0) {
                o.format = LINX_AS_FMT_EXEC;
            } else if (strcmp(v, "rel") == 0) {
                o.format = LINX_AS_FMT_REL;
            } else if (strcmp(v, "bin") == 0) {
                o.format = LINX_AS_FMT_BIN;
            } else {
                fprintf(stderr, "linx-as: unknown format '%s' (exec, rel or bin)\n", v);
                goto bad;
            }
        } else if (strcmp(a, "-r") == 0) {
            o.format = LINX_AS_FMT_REL;
        } else if (is_opt(a, "--base") || strncmp(a, "-Ttext=", 7) == 0) {
            v = a[1] == 'T' ? a + 7 : opt_value(argc, argv, &i, "--base");
            if (!v || !parse_u64(v, &n) || (n & 1)) {
                fprintf(stderr, "linx-as: bad base address '%s' (an even number)\n", v ? v : "");
                goto bad;
            }
            o.base = n;
            base_set = true;
        } else if (strcmp(a, "-e") == 0 || is_opt(a, "--entry")) {
            if (!(v = opt_value(argc, argv, &i, a[1] == 'e' ? "-e" : "--entry"))) {
                goto bad;
            }
            o.entry = v;
        } else if (strcmp(a, "-a") == 0 || strncmp(a, "-a=", 3) == 0 || is_opt(a, "--listing")) {
            want_listing = true;
            listing = strchr(a, '=') ? strchr(a, '=') + 1 : NULL;
        } else if (strcmp(a, "--objdump") == 0) {
            objdump = true;
        } else if (strncmp(a, "-mcpu=", 6) == 0 || strcmp(a, "-mcpu") == 0) {
            v = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : "");
            if (strcmp(v, "help") == 0) {
                linx_profile_print_help(stdout, "");
                free(inputs);
                return 0;
            }
            if (!(o.profile = linx_profile_by_name(v))) {
                fprintf(stderr, "linx-as: unknown -mcpu '%s' (linx-toolchain or linx-v0.4)\n", v);
                goto bad;
            }
        } else if (strcmp(a, "-g") == 0 || strcmp(a, "--gdwarf") == 0 ||
                   strcmp(a, "-gdwarf-4") == 0) {
            o.debug_info = true;
        } else if (is_opt(a, "--dwarf-regs")) {
            if (!(v = opt_value(argc, argv, &i, "--dwarf-regs"))) {
                goto bad;
            }
            if (strcmp(v, "compat") == 0) {
                o.dwarf_regs = LINX_DWARF_DEBUGGER;
            } else if (strcmp(v, "llvm") == 0) {
                o.dwarf_regs = LINX_DWARF_LLVM;
            } else {
                fprintf(stderr, "linx-as: bad option: --dwarf-regs=%s (compat or llvm)\n", v);
                goto bad;
            }
        } else if (strcmp(a, "--legacy") == 0 || strcmp(a, "--legacy-dtype") == 0) {
            o.insn_flags |= LINX_ASM_F_LEGACY;
        } else if (is_opt(a, "--max-errors")) {
            if (!(v = opt_value(argc, argv, &i, "--max-errors")) || !parse_u64(v, &n) || n == 0 ||
                n > 100000) {
                fprintf(stderr, "linx-as: bad --max-errors value\n");
                goto bad;
            }
            o.max_errors = (unsigned)n;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "linx-as: unknown option '%s'\n", a);
            goto bad;
        } else {
            inputs[ninputs++] = a;
        }
    }
    if (ninputs == 0) {
        fprintf(stderr, "linx-as: no input files\n");
        goto bad;
    }

    sources = calloc((size_t)ninputs, sizeof(Source));
    if (!sources || !load_inputs(inputs, ninputs, objdump, sources, &listing_base, &vote)) {
        for (int i = 0; sources && i < ninputs; i++) {
            free(sources[i].text);
        }
        free(sources);
        free(inputs);
        return EXIT_INPUT_ERROR;
    }
    if (objdump && !base_set) {
        o.base = listing_base;
    }
    if (objdump && !o.profile) {
        o.profile = linx_profile_decide(&vote, NULL, 0);
    }
    as = linx_as_new(&o);
    for (int i = 0; i < ninputs; i++) {
        linx_as_add_source(as, sources[i].name, sources[i].text ? sources[i].text : "",
                           sources[i].len);
        free(sources[i].text);
    }
    free(sources);
    if (linx_as_assemble(as) && linx_as_write_file(as, output)) {
        if (want_listing) {
            FILE *lf = listing ? fopen(listing, "w") : stdout;
            if (!lf) {
                fprintf(stderr, "linx-as: cannot write listing '%s': %s\n", listing,
                        strerror(errno));
                status = EXIT_INPUT_ERROR;
            } else {
                linx_as_listing(as, lf);
                if (lf != stdout) {
                    fclose(lf);
                }
            }
        }
    } else {
        struct stat sb;
        status = EXIT_INPUT_ERROR;
        fputs(linx_as_diagnostics(as), stderr);
        /* No partial or stale output (as binutils does); only a regular
         * file is removed, never a device, FIFO or symbolic link. */
        if (lstat(output, &sb) == 0 && S_ISREG(sb.st_mode)) {
            unlink(output);
        }
        fprintf(stderr, "linx-as: %u error%s, no output written\n", linx_as_error_count(as),
                linx_as_error_count(as) == 1 ? "" : "s");
    }
    linx_as_free(as);
    free(inputs);
    return status;

bad:
    usage(stderr);
    free(inputs);
    return EXIT_USAGE;
}
