// Double-precision arithmetic with every rounding mode (__dadd_rX, __dmul_rX,
// __fma_rX, __ddiv_rX, __drcp_rX, __dsqrt_rX), conversions between double,
// float and integers with each mode, and denormal results; raw bits out.
#define MODES(X, op) X(op##_rn) X(op##_rz) X(op##_ru) X(op##_rd)

extern "C" __global__ void double_rounding(const double *in, unsigned long long *out)
{
    unsigned t = threadIdx.x;
    double x = in[3 * t], y = in[3 * t + 1], z = in[3 * t + 2];
    unsigned long long *o = out + 40 * t;
    int k = 0;
#define BIN(f) o[k++] = __double_as_longlong(f(x, y));
#define UN(f) o[k++] = __double_as_longlong(f(x < 0 ? -x : x));
#define TRI(f) o[k++] = __double_as_longlong(f(x, y, z));
    MODES(BIN, __dadd)
    MODES(BIN, __dsub)
    MODES(BIN, __dmul)
    MODES(BIN, __ddiv)
    MODES(TRI, __fma)
    MODES(UN, __drcp)
    MODES(UN, __dsqrt)
#define TOF(f) o[k++] = __float_as_uint(f(x));
    MODES(TOF, __double2float)
    o[k++] = (unsigned long long)__double2ll_rn(y);
    o[k++] = (unsigned long long)__double2ll_rd(y);
    o[k++] = __double2ull_ru(z);
    o[k++] = (unsigned long long)(long long)__double2int_rz(z);
    o[k++] = __double_as_longlong(__ll2double_rz((long long)__double_as_longlong(x)));
    o[k++] = __double_as_longlong(__ull2double_ru((unsigned long long)__double_as_longlong(y)));
    o[k++] = __double_as_longlong(x * y * 1e-300);   // denormal products kept
    o[k++] = __double_as_longlong(fma(x, y, -x * y)); // the rounding error of x*y
}
