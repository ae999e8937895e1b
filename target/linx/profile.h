/*
 * ISA profiles: the conventions where the v0.4 catalog text and the code
 * real LinxISA toolchains emit disagree (docs/decisions.md, "Profiles").
 *
 *   linx-toolchain  what the LinxISA clang/musl toolchain emits and LinxCore
 *                   and the later peer QEMU execute: SrcRType 0 .sw, 1 .uw,
 *                   2 .neg/.not, 3 none; CSEL picks SrcR when SrcP != 0; a
 *                   system call "acrc; C.BSTOP; C.BSTART.STD" continues the
 *                   enclosing block.  The default.
 *   linx-v0.4       the catalog text (isa/v0.4/semantics_conventions.json):
 *                   SrcRType 0 none, 1 .sw, 2 .uw, 3 .neg/.not (none in
 *                   compares); CSEL picks SrcL when SrcP != 0; C.BSTOP
 *                   always commits.
 *
 * One profile drives everything that depends on it: the translator and
 * the kernel-body code (semantics), the disassembler (suffixes) and the
 * assembler (encodings), so text round-trips under either profile.
 *
 * SrcRType is handled as a modifier: the profile maps the 2-bit code to a
 * LinxSrcRMod and back.  The modifier values are the v0.4 codes, so code
 * written against the v0.4 numbering reads modifiers unchanged.
 *
 * "auto" is not a profile but a choice made per input: a linear sweep of
 * an input's code counts the SrcRType codes of the register ALU forms
 * (ADD..XOR and their W forms, whose usual operand is unmodified): the
 * profile whose "none" code is the most frequent one wins
 * (linx_profile_vote_*, linx_profile_decide).
 */
#ifndef LINX_TARGET_PROFILE_H
#define LINX_TARGET_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/options.h"

typedef enum LinxSrcRMod {
    LINX_SRCR_NONE = 0,
    LINX_SRCR_SW = 1,  /* sign-extend the low 32 bits */
    LINX_SRCR_UW = 2,  /* zero-extend the low 32 bits */
    LINX_SRCR_NEG = 3, /* .neg (arithmetic, index) or .not (logic) */
} LinxSrcRMod;

typedef enum LinxProfileId {
    LINX_PROFILE_TOOLCHAIN = 0,
    LINX_PROFILE_V04 = 1,
    LINX_PROFILE__COUNT,
} LinxProfileId;

typedef struct LinxProfile {
    LinxProfileId id;
    const char *name;     /* "-cpu" / "-mcpu" / "-M" spelling */
    const char *summary;  /* one line for "-cpu help" */
    uint8_t srcr_mod[4];  /* SrcRType code -> LinxSrcRMod */
    uint8_t srcr_code[4]; /* LinxSrcRMod -> SrcRType code */
    /* CMP.* / SETC.* (not AND/OR): .neg applies (else the NEG code reads
     * as none, v0.4's "11_as_00"). */
    bool cmp_neg;
    /* CSEL: SrcP != 0 selects SrcR (else SrcL). */
    bool csel_p_picks_srcr;
    /* CSEL: every modifier applies to SrcR (else only .neg). */
    bool csel_all_mods;
    /* "acrc; C.BSTOP; C.BSTART.STD" continues the block that holds the
     * acrc (the C.BSTOP does not commit, the C.BSTART.STD starts no
     * block). */
    bool acrc_continues_block;
    /* A kernel header with no descriptor at all ("C.BSTART.VPAR; C.BSTOP")
     * runs as a no-op (else it lacks its B.TEXT: E_BLOCK(EC_BLOCKFMT)). */
    bool empty_kernel_header_noop;
    /* TLOAD/TSTORE: LB0 = 0 means the whole tile (its elements in one GM
     * row) - the compiler's "C.B.DIMI 0, ->lb0" (else the lb0-zero trap). */
    bool tma_lb0_whole_tile;
    /* CUBE headers as the compiler writes them: no B.ARG (TMATMUL's
     * operand layouts come from the tiles, ACCCVT's quant mode is none),
     * ACCCVT without B.DIM and B.IOR (else E_BLOCK(EC_BLOCKFMT)). */
    bool cube_compiled_forms;
} LinxProfile;

/* The profile of @id. */
const LinxProfile *linx_profile(LinxProfileId id);
/* The default profile (linx-toolchain). */
const LinxProfile *linx_profile_default(void);
/* The profile named @name ("linx-toolchain", "linx-v0.4", or the short
 * spellings "toolchain", "v0.4"), or NULL. */
const LinxProfile *linx_profile_by_name(const char *name);
/* "-cpu help": one line per profile and the auto choice. */
void linx_profile_print_help(FILE *f, const char *prefix);

/* Front ends' "-cpu NAME" option ("-cpu help" lists) as a table for
 * util/options.h: the handler sets *@out (NULL for "auto"). */
LinxOptGroup linx_profile_option_group(const LinxProfile **out);
/* The same one argument at a time, like linx_exec_parse_option(): 0 when
 * argv[*i] is not -cpu, 1 when it was consumed, 2 when help was printed
 * (to stdout), -1 on an error (message in @err). */
int linx_profile_parse_option(const LinxProfile **out, int argc, char **argv, int *i, char *err,
                              size_t errlen);
/* The same for a name given another way (the LINX_CPU environment
 * variable): true with *@out set (NULL for "auto"), false with @err. */
bool linx_profile_parse_name(const char *name, const LinxProfile **out, char *err, size_t errlen);
/* Help line of -cpu for a front end's usage text. */
void linx_profile_print_option_help(FILE *f);

static inline LinxSrcRMod linx_srcr_mod(const LinxProfile *p, int64_t code)
{
    return (LinxSrcRMod)p->srcr_mod[code & 3];
}

static inline unsigned linx_srcr_code(const LinxProfile *p, LinxSrcRMod mod)
{
    return p->srcr_code[mod & 3];
}

/* ---- auto: deciding an input's profile from its code ---- */

#define LINX_PROFILE_VOTES_ENOUGH 512
/* Fewer register ALU forms than this decide nothing (the default). */
#define LINX_PROFILE_VOTES_MIN 4

typedef struct LinxProfileVote {
    uint64_t code[4]; /* register ALU forms seen with each SrcRType code */
    uint64_t insns;   /* instructions decoded */
} LinxProfileVote;

/* Count the instructions of @len bytes of code at @buf (a linear sweep
 * from the start; undecodable halfwords are skipped). */
void linx_profile_vote_code(LinxProfileVote *v, const uint8_t *buf, size_t len);
/* Count the code of an ELF file: its executable sections, or its
 * executable PT_LOAD segments when it has no section table.  Stops once
 * LINX_PROFILE_VOTES_ENOUGH register ALU forms were seen. */
struct ElfFile;
void linx_profile_vote_elf(LinxProfileVote *v, const struct ElfFile *ef);
/* Count one decoded instruction word of @len bytes. */
void linx_profile_vote_insn(LinxProfileVote *v, uint64_t packed, unsigned len);
/* The profile the votes choose: the one whose "none" code was seen most;
 * the default when that is a tie or fewer than LINX_PROFILE_VOTES_MIN
 * forms were seen.  @why (may be NULL) gets a sentence
 * for -d output and listings, e.g. "auto: 3947 of 3947 register ALU forms
 * use SrcRType 3 (none under linx-toolchain)". */
const LinxProfile *linx_profile_decide(const LinxProfileVote *v, char *why, size_t whylen);

#endif /* LINX_TARGET_PROFILE_H */
