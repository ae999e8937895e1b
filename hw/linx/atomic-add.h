/*
 * One element of AtomicAdd (seed 001; tma-atomic.c): GM element +=
 * source element in the DataType - S8, S16, S32 wrap; FP32, FP16, BF16
 * round to nearest even.  Shared by the TSTORE kernels and the Fixpipe
 * engine; no CPU state.
 */
#ifndef LINX_HW_ATOMIC_ADD_H
#define LINX_HW_ATOMIC_ADD_H

#include <stdbool.h>
#include <stdint.h>

/* The types AtomicAdd allows (S8, S16, S32, FP32, FP16, BF16). */
bool tma_atomic_dtype_ok(unsigned dtype);
void tma_atomic_add_elem(uint8_t *gm_elem, const uint8_t *src_elem, unsigned dtype);

#endif /* LINX_HW_ATOMIC_ADD_H */
