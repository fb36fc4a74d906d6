// Cache-operator loads and stores (ld.global.nc/.cg/.ca/.cs/.lu/.cv and
// st.global.wb/.cg/.cs/.wt). The hints change caching, never the values, so
// each result must equal a plain load or store of the same data.
extern "C" __global__ void cache_hints(const float *a, const int4 *b, const double *c, float *out, int4 *out4,
                                      double *outd)
{
    unsigned t = threadIdx.x;
    float x = __ldg(&a[t]) + __ldcg(&a[(t + 1) & 127]) * 2.0f + __ldca(&a[(t + 2) & 127]) * 3.0f +
              __ldcs(&a[(t + 3) & 127]) * 4.0f + __ldlu(&a[(t + 4) & 127]) * 5.0f + __ldcv(&a[(t + 5) & 127]) * 6.0f;
    int4 v = __ldg(&b[t]);
    int4 w = __ldcs(&b[127 - t]);
    double d = __ldcg(&c[t]) - __ldlu(&c[127 - t]);
    switch (t & 3) {
    case 0: __stwb(&out[t], x); break;
    case 1: __stcg(&out[t], x); break;
    case 2: __stcs(&out[t], x); break;
    default: __stwt(&out[t], x); break;
    }
    __stcg(&out4[t], make_int4(v.x + w.w, v.y - w.z, v.z ^ w.y, v.w | w.x));
    __stwt(&outd[t], d);
    __stcs(&outd[128 + t], __ldca(&c[t]) * 0.5);
}
