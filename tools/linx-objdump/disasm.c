/*
 * linx-objdump -d / -D: llvm-objdump-style listings of ELF sections and of
 * instruction words given in hex (--hex, --hex-file).
 *
 *   addr: bytes<pad>\tmnemonic\toperands[ <symbol+off>]
 *
 * with symbol labels before the instructions they name; --no-show-raw-insn
 * and --no-leading-addr drop the first two columns, --start-address and
 * --stop-address limit the listing, --symbolize-operands names branch
 * targets that have no symbol <L0>, <L1>, ... and labels them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objdump.h"

enum {
    BYTES_COLUMN = 13, /* llvm-objdump pads the raw bytes to this width */
    BYTES_GAP = 4,
    HEX_MAX_BYTES = 1 << 20,
    ELF_STT_SECTION = 3,
    ELF_STT_FILE = 4,
    MAX_LOCAL_LABELS = 65536,
};

/* ---- Symbols and --symbolize-operands labels ------------------------------ */

static bool label_symbol(const ElfSymbol *s)
{
    return s->name[0] && s->type != ELF_STT_SECTION && s->type != ELF_STT_FILE;
}

typedef struct SymCtx {
    const ElfFile *ef;
    int shndx;         /* ET_REL: symbols of this section only */
    bool collect;      /* first pass of --symbolize-operands: record targets */
    uint64_t *targets; /* sorted after the first pass */
    unsigned ntargets;
    char name[32];
} SymCtx;

static int target_index(const SymCtx *sc, uint64_t addr)
{
    unsigned lo = 0, hi = sc->ntargets;

    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (sc->targets[mid] < addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < sc->ntargets && sc->targets[lo] == addr ? (int)lo : -1;
}

static const char *lookup_symbol(void *opaque, uint64_t addr, uint64_t *off)
{
    SymCtx *sc = opaque;
    const ElfSymbol *s = sc->ef ? elf_file_symbol_at(sc->ef, addr, sc->shndx) : NULL;
    int t;

    if (sc->collect) {
        if ((!s || s->value != addr) && sc->ntargets < MAX_LOCAL_LABELS) {
            sc->targets[sc->ntargets++] = addr;
        }
    } else if ((!s || s->value != addr) && sc->targets && (t = target_index(sc, addr)) >= 0) {
        snprintf(sc->name, sizeof(sc->name), "L%d", t);
        *off = 0;
        return sc->name;
    }
    if (!s) {
        return NULL;
    }
    *off = addr - s->value;
    return s->name;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* ---- Listing lines ---------------------------------------------------------- */

static void print_insn_line(const ObjdumpOptions *o, uint64_t addr, const uint8_t *bytes,
                            unsigned len, const char *text)
{
    char hex[64];
    size_t n = linx_disas_hex(bytes, len, hex, sizeof(hex));
    int pad = n + BYTES_GAP > BYTES_COLUMN ? (int)(n + BYTES_GAP) : BYTES_COLUMN;

    if (o->leading_addr) {
        printf("%8" PRIx64 ": ", addr);
    }
    if (o->raw_insn) {
        printf("%-*s", pad, hex);
    }
    printf("\t%s\n", text);
}

static bool in_range(const ObjdumpOptions *o, uint64_t pc)
{
    return (!o->have_start || pc >= o->start) && (!o->have_stop || pc < o->stop);
}

/* Disassemble @len bytes at @addr, printing the labels of @ef's symbols of
 * section @shndx (and the --symbolize-operands labels) before their
 * instructions. */
static void sweep(const ObjdumpOptions *o, const uint8_t *bytes, size_t len, uint64_t addr,
                  LinxDisasEnv *env, SymCtx *sc, const ElfFile *ef, int shndx)
{
    /* The header being listed: ACCCVT's B.ARG prints its quant mode. */
    LinxDisasHeader header = { 0, 0 };

    env->header = &header; /* for this call only */
    char text[LINX_DISAS_MAX];
    unsigned next_sym = 0;

    if (o->symbolize) {
        /* First pass: the branch targets the operands name. */
        sc->targets = calloc(MAX_LOCAL_LABELS, sizeof(uint64_t));
        sc->collect = sc->targets != NULL;
        for (size_t off = 0; sc->collect && off < len;) {
            unsigned used;
            linx_disas_bytes(bytes + off, len - off, addr + off, env, text, sizeof(text), &used);
            off += used ? used : 1;
        }
        sc->collect = false;
        qsort(sc->targets, sc->ntargets, sizeof(uint64_t), cmp_u64);
    }
    header.type = 0; /* the first pass walked the section too */
    for (size_t off = 0; off < len;) {
        unsigned used;
        uint64_t pc = addr + off;
        bool show = in_range(o, pc);
        int t;

        /* Labels: every symbol of this section at an address up to pc. */
        while (ef && next_sym < ef->nsymbols) {
            const ElfSymbol *s = &ef->symbols[next_sym];
            if (s->value > pc) {
                break;
            }
            if (show && label_symbol(s) && s->shndx == shndx && s->value == pc) {
                printf("\n%016" PRIx64 " <%s>:\n", s->value, s->name);
            }
            next_sym++;
        }
        if (show && sc->targets && (t = target_index(sc, pc)) >= 0) {
            printf("<L%d>:\n", t);
        }
        linx_disas_bytes(bytes + off, len - off, pc, env, text, sizeof(text), &used);
        if (used == 0) {
            used = 1;
        }
        if (show) {
            print_insn_line(o, pc, bytes + off, used, text);
        }
        off += used;
    }
    free(sc->targets);
    sc->targets = NULL;
    sc->ntargets = 0;
    env->header = NULL;
}

/* The profile for an input: -M's, or the one its code uses.  With
 * @header, a "# ISA profile" line under the file header records which and
 * why (instruction lines start with an address, so listing readers skip
 * it); --hex output stays instruction lines only. */
static const LinxProfile *input_profile(const ObjdumpOptions *o, const LinxProfileVote *v,
                                        bool header)
{
    char why[160];
    const LinxProfile *p = o->profile;

    if (p) {
        snprintf(why, sizeof(why), "-M %s", p->name);
    } else {
        p = linx_profile_decide(v, why, sizeof(why));
    }
    if (header) {
        printf("# ISA profile: %s (%s)\n", p->name, why);
    }
    return p;
}

int objdump_disassemble_elf(const char *path, const ElfFile *ef, const ObjdumpOptions *o)
{
    LinxProfileVote vote;
    bool any = false;

    memset(&vote, 0, sizeof(vote));
    linx_profile_vote_elf(&vote, ef);
    const LinxProfile *prof = input_profile(o, &vote, true);
    for (unsigned i = 0; i < ef->nsections; i++) {
        const ElfSection *s = &ef->sections[i];
        const uint8_t *data;
        SymCtx sc = { ef, (int)s->index, false, NULL, 0, "" };
        LinxDisasEnv env = { o->flags, lookup_symbol, &sc, prof };
        bool code = (s->flags & ELF_SHF_EXECINSTR) ||
                    (o->disassemble_all && (s->flags & ELF_SHF_ALLOC));

        if (!code || s->type == ELF_SHT_NOBITS || s->size == 0 ||
            !objdump_section_selected(o, s->name)) {
            continue;
        }
        data = elf_file_section_data(ef, s);
        if (!data) {
            continue;
        }
        printf("\nDisassembly of section %s:\n", s->name);
        /* In an executable any symbol may name a target; in a relocatable
         * file addresses restart in every section. */
        if (ef->type != ELF_ET_REL) {
            sc.shndx = -1;
        }
        if (in_range(o, s->addr) && (!elf_file_symbol_at(ef, s->addr, (int)s->index) ||
                                     elf_file_symbol_at(ef, s->addr, (int)s->index)->value !=
                                         s->addr)) {
            printf("\n%016" PRIx64 " <%s>:\n", s->addr, s->name);
        }
        sweep(o, data, s->size, s->addr, &env, &sc, ef, (int)s->index);
        any = true;
    }
    if (!any) {
        fprintf(stderr, "linx-objdump: %s: no %s section\n", path,
                o->nsections ? "selected executable" : "executable");
    }
    return 0;
}

/* ---- Hex words ------------------------------------------------------------------ */

/* Append the words of @text ("0800 02001181", '#' comments) to @buf. */
static bool parse_hex_words(const char *what, const char *text, uint8_t *buf, size_t *len)
{
    const char *p = text;
    unsigned line = 1;

    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',') {
            line += *p == '\n';
            p++;
        }
        if (*p == '#') {
            while (*p && *p != '\n') {
                p++;
            }
            continue;
        }
        if (!*p) {
            return true;
        }
        const char *start = p;
        uint64_t v = 0;
        unsigned digits = 0;
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            p += 2;
        }
        while ((*p >= '0' && *p <= '9') || ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')) {
            v = v << 4 | (uint64_t)(*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
            digits++;
            p++;
        }
        bool sep = !*p || *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',' ||
                   *p == '#';
        if ((digits != 4 && digits != 8) || !sep) {
            size_t n = strcspn(start, " \t\r\n,#");
            fprintf(stderr, "linx-objdump: %s:%u: bad word '%.*s' (expected 4 or 8 hex digits, "
                    "a halfword or a 32-bit word)\n", what, line, (int)n, start);
            return false;
        }
        if (*len + digits / 2 > HEX_MAX_BYTES) {
            fprintf(stderr, "linx-objdump: %s: more than %d bytes\n", what, HEX_MAX_BYTES);
            return false;
        }
        for (unsigned i = 0; i < digits / 2; i++) {
            buf[(*len)++] = (uint8_t)(v >> (8 * i));
        }
    }
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (!f) {
        fprintf(stderr, "linx-objdump: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || n > 64 * HEX_MAX_BYTES ||
        fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "linx-objdump: %s: cannot read (or larger than %d bytes)\n", path,
                64 * HEX_MAX_BYTES);
        fclose(f);
        return NULL;
    }
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "linx-objdump: %s: read error\n", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

int objdump_disassemble_hex(const ObjdumpOptions *o)
{
    uint8_t *buf = malloc(HEX_MAX_BYTES);
    size_t len = 0;
    char *text = NULL;
    bool ok;
    SymCtx sc = { NULL, -1, false, NULL, 0, "" };
    LinxDisasEnv env = { o->flags, lookup_symbol, &sc, NULL };
    ObjdumpOptions hex = *o;

    if (!buf) {
        fprintf(stderr, "linx-objdump: out of memory\n");
        return 1;
    }
    if (o->hex_file) {
        text = read_file(o->hex_file);
        ok = text && parse_hex_words(o->hex_file, text, buf, &len);
    } else {
        ok = parse_hex_words("--hex", o->hex, buf, &len);
    }
    if (ok && len == 0) {
        fprintf(stderr, "linx-objdump: no instruction words given\n");
        ok = false;
    }
    if (ok) {
        LinxProfileVote vote;
        memset(&vote, 0, sizeof(vote));
        linx_profile_vote_code(&vote, buf, len);
        env.profile = input_profile(o, &vote, false);
        /* --start-address is where the words are; --stop-address ends them. */
        hex.have_start = false;
        sweep(&hex, buf, len, o->have_start ? o->start : 0, &env, &sc, NULL, -1);
    }
    free(text);
    free(buf);
    return ok ? 0 : 1;
}
