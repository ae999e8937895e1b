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
#include "util/options.h"

#define EXIT_INPUT_ERROR 1
#define EXIT_USAGE 2

enum {
    OPT_OUTPUT = 1, OPT_FORMAT, OPT_REL, OPT_BASE, OPT_ENTRY, OPT_LISTING, OPT_LEGACY,
    OPT_OBJDUMP, OPT_MCPU, OPT_MAX_ERRORS, OPT_GDWARF, OPT_DWARF_REGS, OPT_VERSION, OPT_HELP,
};

static const LinxOpt as_opts[] = {
    { "output", 'o', "FILE", "output file (default a.out)", OPT_OUTPUT },
    { "format", 'f', "FMT", "exec (default), rel (ET_REL for the virt machine) or bin",
      OPT_FORMAT },
    { "rel", 'r', NULL, "same as --format=rel", OPT_REL },
    { "base", 0, "ADDR", "address of .text (default 0x10000); also -Ttext=ADDR", OPT_BASE },
    { "entry", 'e', "SYM|ADDR", "entry point (default: _start, else start of .text)",
      OPT_ENTRY },
    { "listing", 'a', "[=FILE]",
      "print a listing (address, bytes, source) to stdout or FILE\n(-a, -a=FILE, -aFILE)",
      OPT_LISTING },
    { "legacy", 0, NULL,
      "v0.3-era spellings of the shared listings (data-type\n"
      "codes FP16 = 4, BSTART.VPAR VCALL, ...)",
      OPT_LEGACY },
    { "legacy-dtype", 0, NULL, NULL, OPT_LEGACY },
    { "objdump", 0, NULL,
      "inputs are llvm-objdump listings: re-assemble their\n"
      "instructions at their addresses (default base: the first)",
      OPT_OBJDUMP },
    { "mcpu", 0, "NAME",
      "ISA profile: linx-toolchain (default) or linx-v0.4 (also\n"
      "-mcpu=NAME; help lists them); an --objdump listing defaults\n"
      "to the one its bytes use",
      OPT_MCPU },
    { "max-errors", 0, "N", "stop reporting after N errors (default 50)", OPT_MAX_ERRORS },
    { "gdwarf", 'g', NULL,
      "DWARF debug information (lines, functions, variables, CFI);\nalso -gdwarf-4", OPT_GDWARF },
    { "dwarf-regs", 0, "compat|llvm",
      "DWARF register numbers: compat (default: stock gdb/lldb\n"
      "with the linxemu gdb stub) or llvm (Rn = n)",
      OPT_DWARF_REGS },
    { "version", 0, NULL, "print the version", OPT_VERSION },
    { "help", 'h', NULL, "this text", OPT_HELP },
    { NULL },
};

static void usage(FILE *f)
{
    LinxOptGroup g = { NULL, as_opts, NULL, NULL };

    fputs("usage: linx-as [options] file.s...    (\"-\" reads standard input)\n"
          "Assemble LinxISA assembly (and clang's output, the seeds' template blocks,\n"
          "llvm-objdump listings) into an ELF64 program or object, or raw bytes.\n\n"
          "Options:\n",
          f);
    linx_opts_print_help(f, LINX_OPTS_GNU, &g, 1);
    fputs("\nExit status: 0 written, 1 errors in the input (nothing written), 2 usage.\n", f);
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
    int e;

    if (!f) {
        fprintf(stderr, "linx-as: cannot open '%s': %s\n", path, strerror(errno));
        return NULL;
    }
    e = linx_as_read_stream(f, &buf, lenp);
    if (e == ENOMEM) {
        fprintf(stderr, "linx-as: out of memory\n");
        exit(EXIT_USAGE);
    }
    if (e) {
        fprintf(stderr, "linx-as: cannot read '%s': %s\n", path,
                e == EFBIG ? "larger than 128 MiB (the input size limit)" : strerror(e));
    }
    if (f != stdin) {
        fclose(f);
    }
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

typedef struct AsCommandLine {
    LinxAsOptions o;
    const char *output, *listing;
    bool want_listing, objdump, base_set;
} AsCommandLine;

static int as_opt(void *opaque, int id, const char *v, char *err, size_t errlen)
{
    AsCommandLine *c = opaque;
    uint64_t n;

    switch (id) {
    case OPT_OUTPUT:
        c->output = v;
        return 0;
    case OPT_FORMAT:
        if (strcmp(v, "exec") == 0) {
            c->o.format = LINX_AS_FMT_EXEC;
        } else if (strcmp(v, "rel") == 0) {
            c->o.format = LINX_AS_FMT_REL;
        } else if (strcmp(v, "bin") == 0) {
            c->o.format = LINX_AS_FMT_BIN;
        } else {
            snprintf(err, errlen, "unknown format '%s' (exec, rel or bin)", v);
            return -1;
        }
        return 0;
    case OPT_REL:
        c->o.format = LINX_AS_FMT_REL;
        return 0;
    case OPT_BASE:
        if (!parse_u64(v, &n) || (n & 1)) {
            snprintf(err, errlen, "bad base address '%s' (an even number)", v);
            return -1;
        }
        c->o.base = n;
        c->base_set = true;
        return 0;
    case OPT_ENTRY:
        c->o.entry = v;
        return 0;
    case OPT_LISTING:
        c->want_listing = true;
        c->listing = v && *v == '=' ? v + 1 : v; /* -a=FILE */
        return 0;
    case OPT_LEGACY:
        c->o.insn_flags |= LINX_ASM_F_LEGACY;
        return 0;
    case OPT_OBJDUMP:
        c->objdump = true;
        return 0;
    case OPT_MCPU:
        if (strcmp(v, "help") == 0) {
            linx_profile_print_help(stdout, "");
            return 1;
        }
        if (!(c->o.profile = linx_profile_by_name(v))) {
            snprintf(err, errlen, "unknown -mcpu '%s' (linx-toolchain or linx-v0.4)", v);
            return -1;
        }
        return 0;
    case OPT_MAX_ERRORS:
        if (!parse_u64(v, &n) || n == 0 || n > 100000) {
            snprintf(err, errlen, "bad --max-errors value '%s' (1..100000)", v);
            return -1;
        }
        c->o.max_errors = (unsigned)n;
        return 0;
    case OPT_GDWARF:
        c->o.debug_info = true;
        return 0;
    case OPT_DWARF_REGS:
        if (strcmp(v, "compat") == 0) {
            c->o.dwarf_regs = LINX_DWARF_DEBUGGER;
        } else if (strcmp(v, "llvm") == 0) {
            c->o.dwarf_regs = LINX_DWARF_LLVM;
        } else {
            snprintf(err, errlen, "bad option: --dwarf-regs=%s (compat or llvm)", v);
            return -1;
        }
        return 0;
    case OPT_VERSION:
        printf("linx-as (linxemu) %s, LinxISA v0.4\n", LINX_VERSION);
        return 1;
    default:
        usage(stdout);
        return 1;
    }
}

static char *concat(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 1;
    char *s = malloc(n);

    if (s) {
        snprintf(s, n, "%s%s", a, b);
    }
    return s;
}

/* The assembler spellings of binutils/clang that are not GNU long options
 * (-Ttext=ADDR, -mcpu=NAME, -gdwarf-4, -gdwarf) in their table spelling.
 * The copy of argv is the parser's to permute; the strings made here are
 * also kept in owned[0..argc-1] for free_spellings. */
static char **as_spellings(int argc, char **argv, char ***owned)
{
    char **out = calloc((size_t)argc + 1, sizeof(char *));

    *owned = calloc((size_t)argc + 1, sizeof(char *));
    if (!out || !*owned) {
        free(out);
        free(*owned);
        return NULL;
    }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        char *made = NULL;
        if (i == 0) {
            made = NULL;
        } else if (strncmp(a, "-Ttext=", 7) == 0) {
            made = concat("--base=", a + 7);
        } else if (strncmp(a, "-mcpu=", 6) == 0 || strcmp(a, "-mcpu") == 0) {
            made = concat("--", a + 1);
        } else if (strcmp(a, "-gdwarf-4") == 0 || strcmp(a, "-gdwarf") == 0) {
            made = concat("--gdwarf", "");
        }
        (*owned)[i] = made;
        out[i] = made ? made : argv[i];
    }
    return out;
}

static void free_spellings(int argc, char **copy, char **owned)
{
    for (int i = 0; owned && i < argc; i++) {
        free(owned[i]);
    }
    free(owned);
    free(copy);
}

int main(int argc, char **argv)
{
    AsCommandLine c = { .output = "a.out" };
    LinxOptGroup g = { NULL, as_opts, as_opt, &c };
    const char **inputs;
    int ninputs, first, r;
    Source *sources;
    uint64_t listing_base = 0;
    LinxProfileVote vote = { { 0 }, 0 };
    LinxAs *as;
    int status = 0;
    char err[512];
    char **owned = NULL;
    char **args = as_spellings(argc, argv, &owned);

    linx_as_default_options(&c.o);
    if (!args) {
        return EXIT_USAGE;
    }
    r = linx_opts_parse("linx-as", LINX_OPTS_GNU, &g, 1, argc, args, &first, err, sizeof(err));
    if (r != 0) {
        if (r < 0) {
            fprintf(stderr, "linx-as: %s\n", err);
        }
        free_spellings(argc, args, owned);
        return r < 0 ? EXIT_USAGE : 0;
    }
    ninputs = argc - first;
    inputs = (const char **)args + first;
    if (ninputs == 0) {
        fprintf(stderr, "linx-as: no input files\n");
        usage(stderr);
        free_spellings(argc, args, owned);
        return EXIT_USAGE;
    }
    LinxAsOptions o = c.o;
    const char *output = c.output, *listing = c.listing;
    bool want_listing = c.want_listing, objdump = c.objdump, base_set = c.base_set;

    sources = calloc((size_t)ninputs, sizeof(Source));
    if (!sources || !load_inputs(inputs, ninputs, objdump, sources, &listing_base, &vote)) {
        for (int i = 0; sources && i < ninputs; i++) {
            free(sources[i].text);
        }
        free(sources);
        free_spellings(argc, args, owned);
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
        fputs(linx_as_diagnostics(as), stderr); /* warnings */
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
    free_spellings(argc, args, owned);
    return status;
}
