/*
 * The IRHelperInfo records of the front-end helpers, generated from the
 * list in helper.h: name, host function, arity, whether it returns a
 * value, and the IR_CALL_* flags the optimiser and backends rely on.
 * The records are constant; the interpreter keeps its libffi call
 * descriptions elsewhere.
 */
#include "helper-proto.h"

#define DEF_HELPER_N(hname, flags_, ret, n) \
    const IRHelperInfo helper_info_##hname = { \
        .name = #hname, \
        .func = (void *)helper_##hname, \
        .nargs = (n), \
        .has_ret = DH_HAS_RET(ret), \
        .flags = (flags_), \
    };

#define DEF_HELPER_1(name, flags, ret, t1) DEF_HELPER_N(name, flags, ret, 1)
#define DEF_HELPER_2(name, flags, ret, t1, t2) DEF_HELPER_N(name, flags, ret, 2)
#define DEF_HELPER_3(name, flags, ret, t1, t2, t3) DEF_HELPER_N(name, flags, ret, 3)
#define DEF_HELPER_4(name, flags, ret, t1, t2, t3, t4) DEF_HELPER_N(name, flags, ret, 4)
#define DEF_HELPER_5(name, flags, ret, t1, t2, t3, t4, t5) DEF_HELPER_N(name, flags, ret, 5)
#define DEF_HELPER_6(name, flags, ret, t1, t2, t3, t4, t5, t6) \
    DEF_HELPER_N(name, flags, ret, 6)

#include "helper.h"

#undef DEF_HELPER_1
#undef DEF_HELPER_2
#undef DEF_HELPER_3
#undef DEF_HELPER_4
#undef DEF_HELPER_5
#undef DEF_HELPER_6

#define DEF_HELPER_1(name, flags, ret, t1) &helper_info_##name,
#define DEF_HELPER_2(name, flags, ret, t1, t2) &helper_info_##name,
#define DEF_HELPER_3(name, flags, ret, t1, t2, t3) &helper_info_##name,
#define DEF_HELPER_4(name, flags, ret, t1, t2, t3, t4) &helper_info_##name,
#define DEF_HELPER_5(name, flags, ret, t1, t2, t3, t4, t5) &helper_info_##name,
#define DEF_HELPER_6(name, flags, ret, t1, t2, t3, t4, t5, t6) &helper_info_##name,

const IRHelperInfo *const linx_helper_infos[] = {
#include "helper.h"
    NULL,
};
