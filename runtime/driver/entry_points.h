/* entry_points.h — what gen_entry_points.py generates from the CUDA headers (the
 * exported names with their "not implemented" stubs, cuGetProcAddress's table,
 * CUresult's names). Not driver.h: the generated stubs must not see cuda.h's prototypes. */
#ifndef CD_ENTRY_POINTS_H
#define CD_ENTRY_POINTS_H

/* One ABI version of an entry point: cuGetProcAddress("cuMemAlloc", 12000, 0)
 * answers the newest entry of that name at or below 12000 (per_thread: the
 * _ptds/_ptsz form). fn is the symbol; fn == stub when ptxi does not implement it. */
typedef struct cd_entry {
    const char *name;
    int version, per_thread;
    void *fn, *stub;
} cd_entry;

typedef struct cd_error_name {
    int code;
    const char *name;
} cd_error_name;

extern const cd_entry cd_entries[];
extern const unsigned cd_num_entries, cd_num_exported;
extern const cd_error_name cd_error_names[];
extern const unsigned cd_num_error_names;

/* Says "ptxi: NAME is not implemented" once; returns CUDA_ERROR_NOT_SUPPORTED. */
int cd_not_implemented(const char *name);

#endif
