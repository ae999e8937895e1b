/*
 * Prototypes of the front-end helpers and their IRHelperInfo records,
 * generated from the list in helper.h by the preprocessor.
 *
 *   uint64_t helper_div(uint64_t a, uint64_t b);
 *   extern const IRHelperInfo helper_info_div;
 */
#ifndef LINX_TARGET_HELPER_PROTO_H
#define LINX_TARGET_HELPER_PROTO_H

#include <stdint.h>

#include "cpu.h"
#include "tcg/ir.h"

/* Helper argument/result types (see helper.h). */
#define DH_CTYPE(t) DH_CTYPE_##t
#define DH_CTYPE_void void
#define DH_CTYPE_i64 uint64_t
#define DH_CTYPE_env CPULinxState *
#define DH_HAS_RET(t) DH_HAS_RET_##t
#define DH_HAS_RET_void 0
#define DH_HAS_RET_i64 1

#define DEF_HELPER_1(name, flags, ret, t1) \
    DH_CTYPE(ret) helper_##name(DH_CTYPE(t1)); \
    extern const IRHelperInfo helper_info_##name;
#define DEF_HELPER_2(name, flags, ret, t1, t2) \
    DH_CTYPE(ret) helper_##name(DH_CTYPE(t1), DH_CTYPE(t2)); \
    extern const IRHelperInfo helper_info_##name;
#define DEF_HELPER_3(name, flags, ret, t1, t2, t3) \
    DH_CTYPE(ret) helper_##name(DH_CTYPE(t1), DH_CTYPE(t2), DH_CTYPE(t3)); \
    extern const IRHelperInfo helper_info_##name;
#define DEF_HELPER_4(name, flags, ret, t1, t2, t3, t4) \
    DH_CTYPE(ret) helper_##name(DH_CTYPE(t1), DH_CTYPE(t2), DH_CTYPE(t3), DH_CTYPE(t4)); \
    extern const IRHelperInfo helper_info_##name;
#define DEF_HELPER_5(name, flags, ret, t1, t2, t3, t4, t5) \
    DH_CTYPE(ret) helper_##name(DH_CTYPE(t1), DH_CTYPE(t2), DH_CTYPE(t3), DH_CTYPE(t4), \
                                DH_CTYPE(t5)); \
    extern const IRHelperInfo helper_info_##name;
#define DEF_HELPER_6(name, flags, ret, t1, t2, t3, t4, t5, t6) \
    DH_CTYPE(ret) helper_##name(DH_CTYPE(t1), DH_CTYPE(t2), DH_CTYPE(t3), DH_CTYPE(t4), \
                                DH_CTYPE(t5), DH_CTYPE(t6)); \
    extern const IRHelperInfo helper_info_##name;

#include "helper.h"

#undef DEF_HELPER_1
#undef DEF_HELPER_2
#undef DEF_HELPER_3
#undef DEF_HELPER_4
#undef DEF_HELPER_5
#undef DEF_HELPER_6

/* All helper records, for tools that list them (NULL-terminated). */
extern const IRHelperInfo *const linx_helper_infos[];

#endif /* LINX_TARGET_HELPER_PROTO_H */
