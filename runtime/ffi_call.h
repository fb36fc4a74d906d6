/* ffi_call.h — calls to host C functions bound to `.extern .func`
 * declarations: a PTX signature (sizes and float-ness of parameters and the
 * return value) becomes a libffi call interface, prepared once per function. */
#ifndef RT_FFI_CALL_H
#define RT_FFI_CALL_H

#include <ffi.h>
#include <stddef.h>

#define RT_FFI_MAX_PARAMS 64

typedef struct rt_ffi_sig {
    ffi_cif cif;
    ffi_type *params[RT_FFI_MAX_PARAMS];
    unsigned nparams;
    size_t ret_size; /* 0: void */
} rt_ffi_sig;

/* Builds the call interface. Integer parameters of 1, 2, 4, 8 bytes map to
 * uint8_t..uint64_t (pointers are 8-byte integers), float ones of 4 and 8 bytes
 * to float and double; the same for the return value when has_ret. Returns 0,
 * or -1 for what C cannot receive this way (more than RT_FFI_MAX_PARAMS
 * parameters, other sizes, half floats, aggregates): the caller reports the
 * declaration as unsupported. */
int rt_ffi_prepare(rt_ffi_sig *sig, unsigned nparams, const size_t *param_sizes, const int *param_is_float, int has_ret,
                   size_t ret_size, int ret_is_float);

/* Calls fn with args[i] pointing at the bytes of parameter i; ret receives
 * ret_size bytes (may be NULL for void). Thread-safe: sig is only read. */
void rt_ffi_call(const rt_ffi_sig *sig, void (*fn)(void), void **args, void *ret);

#endif
