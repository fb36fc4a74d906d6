// intrinsics_fp.cu: cuda_fp16.h / cuda_bf16.h / cuda_fp8.h functions; compiled with nvcc -ptx
// -arch=sm_90 to list the instruction forms they become (tests/simd/intrinsic_forms.txt).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
template <typename H, typename H2> __device__ void all(H *h, H2 *p, unsigned *o, float *f) {
  H a=h[0], b=h[1], c=h[2]; H2 x=p[0], y=p[1], z=p[2]; int n=0, m=0;
#define O1(e) h[10+n++] = (e);
#define O2(e) p[10+m++] = (e);
  O1(__hadd(a,b)) O1(__hsub(a,b)) O1(__hmul(a,b)) O1(__hfma(a,b,c)) O1(__hadd_sat(a,b)) O1(__hsub_sat(a,b)) O1(__hmul_sat(a,b)) O1(__hfma_sat(a,b,c))
  O1(__hfma_relu(a,b,c)) O1(__hmax(a,b)) O1(__hmin(a,b)) O1(__hmax_nan(a,b)) O1(__hmin_nan(a,b)) O1(__hneg(a)) O1(__habs(a)) O1(__hdiv(a,b))
  O1(hexp2(a)) O1(hexp(a)) O1(hlog2(a)) O1(hlog(a)) O1(hsqrt(a)) O1(hrsqrt(a)) O1(hrcp(a)) O1(hsin(a)) O1(hcos(a)) O1(htanh_approx(a)) O1(hfloor(a)) O1(hceil(a)) O1(htrunc(a)) O1(hrint(a))
  O1(__hadd_rn(a,b)) O1(__hsub_rn(a,b)) O1(__hmul_rn(a,b))
  O2(__hadd2(x,y)) O2(__hsub2(x,y)) O2(__hmul2(x,y)) O2(__hfma2(x,y,z)) O2(__hadd2_sat(x,y)) O2(__hsub2_sat(x,y)) O2(__hmul2_sat(x,y)) O2(__hfma2_sat(x,y,z))
  O2(__hfma2_relu(x,y,z)) O2(__hmax2(x,y)) O2(__hmin2(x,y)) O2(__hmax2_nan(x,y)) O2(__hmin2_nan(x,y)) O2(__hneg2(x)) O2(__habs2(x)) O2(__h2div(x,y))
  O2(h2exp2(x)) O2(h2exp(x)) O2(h2log2(x)) O2(h2sqrt(x)) O2(h2rcp(x)) O2(h2floor(x)) O2(h2ceil(x)) O2(h2trunc(x)) O2(h2rint(x)) O2(__hcmadd(x,y,z))
  O2(__heq2(x,y)) O2(__hne2(x,y)) O2(__hlt2(x,y)) O2(__hle2(x,y)) O2(__hgt2(x,y)) O2(__hge2(x,y)) O2(__hequ2(x,y)) O2(__hneu2(x,y)) O2(__hltu2(x,y)) O2(__hleu2(x,y)) O2(__hgtu2(x,y)) O2(__hgeu2(x,y)) O2(__hisnan2(x))
  O2(__hadd2_rn(x,y)) O2(__hmul2_rn(x,y))
  int k=0;
  o[k++]=__heq(a,b); o[k++]=__hne(a,b); o[k++]=__hlt(a,b); o[k++]=__hle(a,b); o[k++]=__hgt(a,b); o[k++]=__hge(a,b); o[k++]=__hequ(a,b); o[k++]=__hneu(a,b);
  o[k++]=__hltu(a,b); o[k++]=__hleu(a,b); o[k++]=__hgtu(a,b); o[k++]=__hgeu(a,b); o[k++]=__hisnan(a); o[k++]=__hisinf(a);
  o[k++]=__hbeq2(x,y); o[k++]=__hbne2(x,y); o[k++]=__hblt2(x,y); o[k++]=__hbgeu2(x,y); o[k++]=__heq2_mask(x,y); o[k++]=__hltu2_mask(x,y);
}
__global__ void kh(__half *h, __half2 *p, unsigned *o, float *f) { all(h,p,o,f); }
__global__ void kb(__nv_bfloat16 *h, __nv_bfloat162 *p, unsigned *o, float *f) { all(h,p,o,f); }
__global__ void kc(__half *h, __nv_bfloat16 *b, float *f, double *d, int *i, long long *l, unsigned *u, unsigned short *s, __nv_fp8_e4m3 *e4, __nv_fp8_e5m2 *e5) {
  int n = 0;
  h[n++]=__float2half_rn(f[0]); h[n++]=__float2half_rz(f[0]); h[n++]=__float2half_rd(f[0]); h[n++]=__float2half_ru(f[0]); h[n++]=__double2half(d[0]);
  h[n++]=__int2half_rn(i[0]); h[n++]=__int2half_rz(i[0]); h[n++]=__int2half_rd(i[0]); h[n++]=__int2half_ru(i[0]); h[n++]=__uint2half_rn(u[0]); h[n++]=__ll2half_rn(l[0]); h[n++]=__ull2half_rz(l[1]);
  h[n++]=__short2half_rn(s[0]); h[n++]=__ushort2half_rn(s[0]); h[n++]=__float2half(__bfloat162float(b[9]));
  b[n++]=__float2bfloat16_rn(f[0]); b[n++]=__float2bfloat16_rz(f[0]); b[n++]=__float2bfloat16_rd(f[0]); b[n++]=__float2bfloat16_ru(f[0]); b[n++]=__double2bfloat16(d[0]);
  b[n++]=__int2bfloat16_rn(i[0]); b[n++]=__int2bfloat16_rz(i[0]); b[n++]=__ll2bfloat16_rn(l[0]); b[n++]=__ushort2bfloat16_rn(s[0]); b[n++]=__short2bfloat16_rz(s[0]);
  int k=0; i[k++]=__half2int_rn(h[0]); i[k++]=__half2int_rz(h[0]); i[k++]=__half2int_rd(h[0]); i[k++]=__half2int_ru(h[0]); i[k++]=__half2uint_rn(h[0]); l[k++]=__half2ll_rn(h[0]); l[k++]=__half2ull_rz(h[0]);
  s[k++]=__half2short_rn(h[0]); s[k++]=__half2ushort_rz(h[0]); i[k++]=__bfloat162int_rn(b[0]); i[k++]=__bfloat162uint_rz(b[0]); l[k++]=__bfloat162ll_rd(b[0]); s[k++]=__bfloat162short_ru(b[0]);
  f[k++]=__half2float(h[1]); f[k++]=__bfloat162float(b[1]); d[k++]=(double)h[2]; d[k++]=(double)b[2]; h[k++]=__hmax(h[3],h[4]); b[k++]=(__nv_bfloat16)h[5];
  __half2 h2=__floats2half2_rn(f[1],f[2]); __nv_bfloat162 b2=__floats2bfloat162_rn(f[1],f[2]); ((__half2*)h)[40]=h2; ((__nv_bfloat162*)b)[40]=b2;
  ((__half2*)h)[41]=__float22half2_rn(make_float2(f[3],f[4])); float2 ff=__half22float2(h2); f[50]=ff.x; f[51]=ff.y; float2 gg=__bfloat1622float2(b2); f[52]=gg.x+gg.y;
  e4[0]=__nv_fp8_e4m3(f[0]); e5[0]=__nv_fp8_e5m2(f[1]); e4[1]=__nv_fp8_e4m3(h[7]); e5[1]=__nv_fp8_e5m2(b[7]); e4[2]=__nv_fp8_e4m3(d[3]);
  f[60]=float(e4[3]); f[61]=float(e5[3]); h[60]=__half(e4[4]); h[61]=__half(e5[4]);
  __nv_fp8x2_e4m3 p2(make_float2(f[5],f[6])); ((__nv_fp8x2_e4m3*)e4)[8]=p2; __nv_fp8x2_e5m2 q2(h2); ((__nv_fp8x2_e5m2*)e5)[8]=q2; __nv_fp8x2_e4m3 r2(b2); ((__nv_fp8x2_e4m3*)e4)[9]=r2;
  ((__half2*)h)[42]=__half2(p2); float2 pf=float2(q2); f[70]=pf.x+pf.y;
  __nv_fp8x4_e4m3 p4(make_float4(f[7],f[8],f[9],f[10])); ((__nv_fp8x4_e4m3*)e4)[8]=p4; float4 f4=float4(p4); f[71]=f4.x+f4.w;
}
