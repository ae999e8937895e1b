/*
 * Forced include (-include) for the native builds of the anchor kernels in
 * the guest benchmark: their now_s() reads CLOCK_MONOTONIC; this makes it
 * read the process CPU clock, so that kernel_s is CPU time, comparable
 * with linx-run's kernel_cpu_s on a loaded machine.  The anchor sources
 * are used unchanged.
 */
#ifndef ANCHOR_CPU_CLOCK_H
#define ANCHOR_CPU_CLOCK_H
#include <time.h>
#undef CLOCK_MONOTONIC
#define CLOCK_MONOTONIC CLOCK_PROCESS_CPUTIME_ID
#endif
