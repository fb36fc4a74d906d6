/* ffi_call.c — libffi interfaces for host functions bound to PTX extern
 * functions. PTX parameters carry only a size and an integer/float type, which
 * is exactly what the C calling convention needs for scalars. */
#include "ffi_call.h"

#include <stdint.h>
#include <string.h>

static ffi_type *type_of(size_t size, int is_float) {
    if (is_float) return size == 4 ? &ffi_type_float : size == 8 ? &ffi_type_double : NULL;
    switch (size) {
    case 1: return &ffi_type_uint8;
    case 2: return &ffi_type_uint16;
    case 4: return &ffi_type_uint32;
    case 8: return &ffi_type_uint64;
    }
    return NULL;
}

int rt_ffi_prepare(rt_ffi_sig *sig, unsigned nparams, const size_t *param_sizes, const int *param_is_float, int has_ret,
                   size_t ret_size, int ret_is_float) {
    memset(sig, 0, sizeof *sig);
    if (nparams > RT_FFI_MAX_PARAMS) return -1;
    for (unsigned i = 0; i < nparams; i++)
        if (!(sig->params[i] = type_of(param_sizes[i], param_is_float[i]))) return -1;
    ffi_type *ret = has_ret ? type_of(ret_size, ret_is_float) : &ffi_type_void;
    if (!ret) return -1;
    sig->nparams = nparams;
    sig->ret_size = has_ret ? ret_size : 0;
    return ffi_prep_cif(&sig->cif, FFI_DEFAULT_ABI, nparams, ret, sig->params) == FFI_OK ? 0 : -1;
}

void rt_ffi_call(const rt_ffi_sig *sig, void (*fn)(void), void **args, void *ret) {
    /* libffi widens integer results to a full ffi_arg; on a little-endian host
     * the value's own bytes come first. */
    _Alignas(16) unsigned char r[16] = {0};
    ffi_call((ffi_cif *)&sig->cif, fn, r, args);
    if (ret && sig->ret_size) memcpy(ret, r, sig->ret_size);
}
