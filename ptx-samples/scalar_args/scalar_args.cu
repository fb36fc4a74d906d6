// Kernel parameters of every scalar type, as `ptxi run --arg` passes them:
// each is written back with its bits (and, for the small types, after
// promotion, which shows sign extension), a null pointer is recognised, and
// the parameter values feed a little arithmetic.
#include <cstdint>

extern "C" __global__ void scalar_args(uint8_t u8, int8_t s8, uint16_t u16, int16_t s16, uint32_t u32, int32_t s32,
                                       uint64_t u64, int64_t s64, float f32, double f64, const int *null_ptr,
                                       unsigned long long *out)
{
    if (threadIdx.x != 0)
        return;
    out[0] = u8;
    out[1] = (unsigned long long)(long long)s8;
    out[2] = u16;
    out[3] = (unsigned long long)(long long)s16;
    out[4] = u32;
    out[5] = (unsigned long long)(long long)s32;
    out[6] = u64;
    out[7] = (unsigned long long)s64;
    out[8] = __float_as_uint(f32);
    out[9] = (unsigned long long)__double_as_longlong(f64);
    out[10] = null_ptr == nullptr;
    out[11] = (unsigned long long)(s8 * s16 + (int)u8 * (int)u16) + u64 * 3 + (unsigned long long)(f32 * 4.0f);
}
