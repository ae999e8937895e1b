/*
 * Native baselines of bench-kernels (bench-kernels-native.c, built at
 * -O2): the data area's layout and one function per case.
 */
#ifndef LINX_BENCH_KERNELS_NATIVE_H
#define LINX_BENCH_KERNELS_NATIVE_H

#include <stdint.h>

/* Array offsets in the data area (5 MiB apart: 1M FP32 elements fit). */
#define BK_X 0x000000u
#define BK_Y 0x500000u
#define BK_Z 0xa00000u
#define BK_DATA_SIZE 0xf00000u

void bk_vadd_4k(uint8_t *m);
void bk_saxpy_4k(uint8_t *m);
void bk_saxpy_64k(uint8_t *m);
void bk_saxpy_1m(uint8_t *m);
void bk_saxpy_in_64k(uint8_t *m);
void bk_saxpy_in_1m(uint8_t *m);
void bk_softmax_64x1024(uint8_t *m);
void bk_softmax_1x65536(uint8_t *m);
void bk_rdadd_64k(uint8_t *m);
void bk_gather_64k(uint8_t *m);
void bk_tadd_f32(uint8_t *m);
void bk_tadd_i8(uint8_t *m);
void bk_mm_f32(uint8_t *m);
void bk_mm_i8(uint8_t *m);

#endif /* LINX_BENCH_KERNELS_NATIVE_H */
