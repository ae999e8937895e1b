/*
 * ISA profiles (profile.h) and the per-input "auto" choice.
 *
 * Evidence for each convention is in docs/decisions.md ("Profiles"):
 * linx-isa docs/bringup/code_density_and_dynamic_reduction.md section 2,
 * LinxCore src/common/exec_uop.py, the compiled images in ../shared/guest.
 */
#include "profile.h"

#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "util/elf-file.h"

static const LinxProfile profiles[LINX_PROFILE__COUNT] = {
    [LINX_PROFILE_TOOLCHAIN] = {
        .id = LINX_PROFILE_TOOLCHAIN,
        .name = "linx-toolchain",
        .summary = "what LinxISA clang/musl emit (SrcRType 3 = none, 0 .sw, 1 .uw, 2 .neg; "
                   "CSEL p ? SrcR : SrcL; acrc continues its block)",
        .srcr_mod = { LINX_SRCR_SW, LINX_SRCR_UW, LINX_SRCR_NEG, LINX_SRCR_NONE },
        .srcr_code = { 3, 0, 1, 2 },
        .cmp_neg = true,
        .csel_p_picks_srcr = true,
        .csel_all_mods = true,
        .acrc_continues_block = true,
        .empty_kernel_header_noop = true,
        .tma_lb0_whole_tile = true,
        .cube_compiled_forms = true,
    },
    [LINX_PROFILE_V04] = {
        .id = LINX_PROFILE_V04,
        .name = "linx-v0.4",
        .summary = "the v0.4 catalog text (SrcRType 0 = none, 1 .sw, 2 .uw, 3 .neg; "
                   "CSEL p ? SrcL : SrcR; C.BSTOP always commits)",
        .srcr_mod = { LINX_SRCR_NONE, LINX_SRCR_SW, LINX_SRCR_UW, LINX_SRCR_NEG },
        .srcr_code = { 0, 1, 2, 3 },
        .cmp_neg = false,
        .csel_p_picks_srcr = false,
        .csel_all_mods = false,
        .acrc_continues_block = false,
        .empty_kernel_header_noop = false,
        .tma_lb0_whole_tile = false,
        .cube_compiled_forms = false,
    },
};

const LinxProfile *linx_profile(LinxProfileId id)
{
    return &profiles[(unsigned)id < LINX_PROFILE__COUNT ? id : LINX_PROFILE_TOOLCHAIN];
}

const LinxProfile *linx_profile_default(void)
{
    return &profiles[LINX_PROFILE_TOOLCHAIN];
}

const LinxProfile *linx_profile_by_name(const char *name)
{
    for (unsigned i = 0; i < LINX_PROFILE__COUNT; i++) {
        const char *n = profiles[i].name;
        if (strcmp(name, n) == 0 || strcmp(name, n + strlen("linx-")) == 0) {
            return &profiles[i];
        }
    }
    return NULL;
}

void linx_profile_print_help(FILE *f, const char *prefix)
{
    fprintf(f, "%sAvailable CPUs (ISA profiles):\n", prefix);
    fprintf(f, "%s  %-16s %s\n", prefix, "auto",
            "(default) choose per program from the SrcRType codes its code uses");
    for (unsigned i = 0; i < LINX_PROFILE__COUNT; i++) {
        fprintf(f, "%s  %-16s %s\n", prefix, profiles[i].name, profiles[i].summary);
    }
}

bool linx_profile_parse_name(const char *name, const LinxProfile **out, char *err, size_t errlen)
{
    if (strcmp(name, "auto") == 0) {
        *out = NULL;
        return true;
    }
    *out = linx_profile_by_name(name);
    if (!*out) {
        snprintf(err, errlen,
                 "-cpu: unknown CPU '%s' (auto, linx-toolchain or linx-v0.4; "
                 "-cpu help lists them)",
                 name);
        return false;
    }
    return true;
}

static const LinxOpt profile_opts[] = {
    { "cpu", 0, "NAME", "ISA profile: auto (default), linx-toolchain, linx-v0.4\n"
                        "(-cpu help describes them)", 0 },
    { NULL },
};

static int profile_opt(void *opaque, int id, const char *value, char *err, size_t errlen)
{
    const LinxProfile **out = opaque;

    (void)id;
    if (strcmp(value, "help") == 0 || strcmp(value, "?") == 0) {
        linx_profile_print_help(stdout, "");
        return 1;
    }
    return linx_profile_parse_name(value, out, err, errlen) ? 0 : -1;
}

LinxOptGroup linx_profile_option_group(const LinxProfile **out)
{
    LinxOptGroup g = { NULL, profile_opts, profile_opt, (void *)out };
    return g;
}

int linx_profile_parse_option(const LinxProfile **out, int argc, char **argv, int *i, char *err,
                              size_t errlen)
{
    LinxOptGroup g = linx_profile_option_group(out);

    return linx_opts_take(&g, argc, argv, i, err, errlen);
}

void linx_profile_print_option_help(FILE *f)
{
    LinxOptGroup g = linx_profile_option_group(NULL);

    linx_opts_print_help(f, LINX_OPTS_QEMU, &g, 1);
}

/* ---- auto ---- */

static bool is_vote_form(unsigned form)
{
    switch (form) {
    case LINX_F_ADD:
    case LINX_F_SUB:
    case LINX_F_AND:
    case LINX_F_OR:
    case LINX_F_XOR:
    case LINX_F_ADDW:
    case LINX_F_SUBW:
    case LINX_F_ANDW:
    case LINX_F_ORW:
    case LINX_F_XORW:
        return true;
    default:
        return false;
    }
}

static void vote(LinxProfileVote *v, const LinxInsn *insn)
{
    v->insns++;
    if (is_vote_form(insn->form)) {
        v->code[linx_insn_field(insn, LINX_FLD_SrcRType, NULL) & 3]++;
    }
}

void linx_profile_vote_insn(LinxProfileVote *v, uint64_t packed, unsigned len)
{
    LinxInsn insn;

    if (linx_decode_packed(packed, len, &insn) == LINX_DECODE_OK) {
        vote(v, &insn);
    }
}

static uint64_t votes(const LinxProfileVote *v)
{
    return v->code[0] + v->code[1] + v->code[2] + v->code[3];
}

void linx_profile_vote_code(LinxProfileVote *v, const uint8_t *buf, size_t len)
{
    size_t off = 0;

    while (off + 2 <= len && votes(v) < LINX_PROFILE_VOTES_ENOUGH) {
        LinxInsn insn;
        LinxDecodeStatus st = linx_decode(buf + off, len - off, &insn);
        if (st == LINX_DECODE_TRUNCATED) {
            break;
        }
        if (st == LINX_DECODE_OK) {
            vote(v, &insn);
            off += insn.len;
        } else {
            off += 2;
        }
    }
}

void linx_profile_vote_elf(LinxProfileVote *v, const ElfFile *ef)
{
    bool any = false;

    for (unsigned i = 0; i < ef->nsections; i++) {
        const ElfSection *s = &ef->sections[i];
        const uint8_t *data;
        if (s->type != ELF_SHT_PROGBITS || !(s->flags & ELF_SHF_EXECINSTR)) {
            continue;
        }
        any = true;
        data = elf_file_section_data(ef, s);
        if (data) {
            linx_profile_vote_code(v, data, s->size);
        }
    }
    for (unsigned i = 0; !any && i < ef->nsegments; i++) {
        const ElfSegment *g = &ef->segments[i];
        if (g->type == ELF_PT_LOAD && (g->flags & ELF_PF_X) && g->offset <= ef->size &&
            g->filesz <= ef->size - g->offset) {
            linx_profile_vote_code(v, ef->data + g->offset, g->filesz);
        }
    }
}

const LinxProfile *linx_profile_decide(const LinxProfileVote *v, char *why, size_t whylen)
{
    uint64_t total = votes(v);
    const LinxProfile *p;
    unsigned none;

    if (v->code[0] == v->code[3] || total < LINX_PROFILE_VOTES_MIN) {
        p = linx_profile_default();
        if (why) {
            if (total < LINX_PROFILE_VOTES_MIN) {
                snprintf(why, whylen,
                         "auto: %llu register ALU forms, too few to tell; the "
                         "default %s",
                         (unsigned long long)total, p->name);
            } else {
                snprintf(why, whylen,
                         "auto: SrcRType 0 and 3 equally frequent (%llu), the default %s",
                         (unsigned long long)v->code[0], p->name);
            }
        }
        return p;
    }
    p = linx_profile(v->code[3] > v->code[0] ? LINX_PROFILE_TOOLCHAIN : LINX_PROFILE_V04);
    none = linx_srcr_code(p, LINX_SRCR_NONE);
    if (why) {
        snprintf(why, whylen,
                 "auto: %llu of %llu register ALU forms use SrcRType %u (none under %s)",
                 (unsigned long long)v->code[none], (unsigned long long)total, none, p->name);
    }
    return p;
}
