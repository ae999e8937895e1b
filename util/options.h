/*
 * Command-line options of the linxemu tools: one table per component
 * (engine, ISA profile, gdb stub, the tool's own), one parser over them
 * (getopt_long for GNU-style tools, getopt_long_only for QEMU-style ones),
 * and the --help text generated from the same tables.
 *
 *   static const LinxOpt my_opts[] = {
 *       { "output", 'o', "FILE", "write the output to FILE", OPT_OUTPUT },
 *       { "verbose", 'v', NULL, "say more", OPT_VERBOSE },
 *       { NULL },
 *   };
 *   LinxOptGroup g[] = { { NULL, my_opts, my_handler, &state } };
 *   int first;
 *   int r = linx_opts_parse("linx-foo", LINX_OPTS_GNU, g, 1, argc, argv, &first, err, sizeof(err));
 *   // r < 0: usage error (message in err), r > 0: done (help printed), 0: go on;
 *   // the operands are argv[first..argc-1]
 *
 * Styles:
 *   LINX_OPTS_GNU   --name, --name=VALUE, --name VALUE, -x, -xVALUE, -x VALUE,
 *                   bundled flags (-dr), options and operands in any order,
 *                   "--" ends the options (linx-as, linx-objdump, linx-optest)
 *   LINX_OPTS_QEMU  the same plus -name for every long option (qemu's
 *                   habit: -cpu NAME, -accel jit); the options end at the
 *                   first operand, the program, whose own arguments follow
 *                   (linx-user, linx-system)
 * Long options may be abbreviated to a unique prefix.  An unknown option
 * is an error naming it and the nearest known spelling.
 *
 * getopt keeps its position in libc's globals; the parser resets them, so
 * parses must not overlap (they happen once, at start-up).
 */
#ifndef LINX_UTIL_OPTIONS_H
#define LINX_UTIL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct LinxOpt {
    const char *name; /* long name without dashes; NULL ends a table */
    int short_name;   /* a letter or digit, or 0 */
    const char *arg;  /* the value's name in help ("FILE"), NULL for a flag;
                       * "[=FILE]": an optional value (GNU style: --name=FILE
                       * or -xFILE only; the handler gets NULL without) */
    const char *help; /* help text; '\n' starts a continuation line; NULL: an
                       * alias --help does not list */
    int id;           /* what the handler is told */
} LinxOpt;

/* Called for each option met: 0 go on, > 0 stop successfully (help or
 * version printed), < 0 a usage error with a message in @err. */
typedef int (*LinxOptHandler)(void *opaque, int id, const char *value, char *err, size_t errlen);

typedef struct LinxOptGroup {
    const char *title; /* heading in --help, or NULL */
    const LinxOpt *opts;
    LinxOptHandler handler;
    void *opaque;
} LinxOptGroup;

typedef enum LinxOptStyle {
    LINX_OPTS_GNU,
    LINX_OPTS_QEMU,
} LinxOptStyle;

/* Parse argv[1..] over @groups.  Returns < 0 on a usage error (@err says
 * what, "prog: " not included), > 0 when a handler stopped the run, 0 to
 * go on; *@first is the index of the first operand (GNU: the operands are
 * moved to the end of argv by getopt). */
int linx_opts_parse(const char *prog, LinxOptStyle style, const LinxOptGroup *groups,
                    unsigned ngroups, int argc, char **argv, int *first, char *err, size_t errlen);

/* Take argv[*i] (and its value) if it is one of @group's options, in the
 * QEMU style (-name or --name): 0 not one, 1 taken (*i advanced), > 1 the
 * handler stopped, < 0 an error.  For tools that parse component options
 * one at a time (test harnesses). */
int linx_opts_take(const LinxOptGroup *group, int argc, char **argv, int *i, char *err,
                   size_t errlen);

/* The option lines of --help for @groups, in table order. */
void linx_opts_print_help(FILE *f, LinxOptStyle style, const LinxOptGroup *groups,
                          unsigned ngroups);

/* The known spelling nearest to @given (an option as typed, dashes
 * included), written as it would be typed, or "" when none is close. */
void linx_opts_nearest(LinxOptStyle style, const LinxOptGroup *groups, unsigned ngroups,
                       const char *given, char *out, size_t outlen);

#endif /* LINX_UTIL_OPTIONS_H */
