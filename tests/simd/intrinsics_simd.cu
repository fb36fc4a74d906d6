// intrinsics_simd.cu: SIMD video intrinsics and a sample of cuda_fp16/bf16/fp8 calls; compiled with
// nvcc -ptx -arch=sm_90 to list the instruction forms they become (tests/simd/intrinsic_forms.txt).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
__global__ void k(unsigned *o, const unsigned *i, __half *h, __nv_bfloat16 *b, float *f, __nv_fp8_e4m3 *e8, __nv_fp8_e5m2 *e5){
  unsigned a=i[0], c=i[1], x=i[2]; int n=0;
#define V(fn) o[n++] = fn(a,c);
  o[n++]=__vabs2(a); V(__vabsdiffs2) V(__vabsdiffs4) V(__vabsdiffu2) V(__vabsdiffu4) V(__vadd2) V(__vadd4) V(__vaddss2) V(__vaddss4) V(__vaddus2) V(__vaddus4)
  V(__vavgs2) V(__vavgs4) V(__vavgu2) V(__vavgu4) V(__vcmpeq2) V(__vcmpeq4) V(__vcmpges2) V(__vcmpges4) V(__vcmpgeu2) V(__vcmpgeu4) V(__vcmpgts2) V(__vcmpgts4)
  V(__vcmpgtu2) V(__vcmpgtu4) V(__vcmples2) V(__vcmples4) V(__vcmpleu2) V(__vcmpleu4) V(__vcmplts2) V(__vcmplts4) V(__vcmpltu2) V(__vcmpltu4) V(__vcmpne2) V(__vcmpne4)
  V(__vhaddu2) V(__vhaddu4) V(__vmaxs2) V(__vmaxs4) V(__vmaxu2) V(__vmaxu4) V(__vmins2) V(__vmins4) V(__vminu2) V(__vminu4) V(__vsads2) V(__vsads4) V(__vsadu2) V(__vsadu4)
  V(__vseteq2) V(__vseteq4) V(__vsetges2) V(__vsetges4) V(__vsetgeu2) V(__vsetgeu4) V(__vsetgts2) V(__vsetgts4) V(__vsetgtu2) V(__vsetgtu4) V(__vsetles2) V(__vsetles4)
  V(__vsetleu2) V(__vsetleu4) V(__vsetlts2) V(__vsetlts4) V(__vsetltu2) V(__vsetltu4) V(__vsetne2) V(__vsetne4) V(__vsub2) V(__vsub4) V(__vsubss2) V(__vsubss4) V(__vsubus2) V(__vsubus4)
  o[n++]=__vabs4(a); o[n++]=__vabsss2(a); o[n++]=__vabsss4(a); o[n++]=__vneg2(a); o[n++]=__vneg4(a); o[n++]=__vnegss2(a); o[n++]=__vnegss4(a);
  o[n++]=__viaddmax_s32(a,c,x); o[n++]=__vimax3_s16x2(a,c,x); o[n++]=__vibmax_s16x2(a,c,(bool*)h,(bool*)b);
  __half h0=h[0],h1=h[1],h2=h[2]; __half2 p0=((__half2*)h)[2], p1=((__half2*)h)[3], p2=((__half2*)h)[4];
  h[10]=__hadd(h0,h1); h[11]=__hsub(h0,h1); h[12]=__hmul(h0,h1); h[13]=__hfma(h0,h1,h2); h[14]=__hneg(h0); h[15]=__habs(h0); h[16]=__hmin(h0,h1); h[17]=__hmax(h0,h1);
  h[18]=__hmin_nan(h0,h1); h[19]=__hmax_nan(h0,h1); h[20]=__hadd_sat(h0,h1); h[21]=__hfma_relu(h0,h1,h2); h[22]=hexp2(h0); h[23]=htanh_approx(h0); h[24]=__hdiv(h0,h1); h[25]=hrcp(h0);
  h[26]=__hadd_rn(h0,h1); h[27]=__hfma_sat(h0,h1,h2); h[28]=__hmul_sat(h0,h1); h[29]=hsqrt(h0); h[30]=hexp(h0); h[31]=hlog(h0); h[32]=hsin(h0); h[33]=htanh(h0);
  o[n++]=__heq(h0,h1); o[n++]=__hltu(h0,h1); o[n++]=__hisnan(h0); o[n++]=__hbeq2(p0,p1); o[n++]=__hbgtu2(p0,p1);
  ((__half2*)h)[20]=__hadd2(p0,p1); ((__half2*)h)[21]=__hfma2(p0,p1,p2); ((__half2*)h)[22]=__hmax2_nan(p0,p1); ((__half2*)h)[23]=h2exp2(p0); ((__half2*)h)[24]=__heq2(p0,p1);
  ((__half2*)h)[25]=__hltu2(p0,p1); ((__half2*)h)[26]=__float22half2_rn(make_float2(f[0],f[1])); ((__half2*)h)[27]=__hcmadd(p0,p1,p2); ((__half2*)h)[28]=__habs2(p0); ((__half2*)h)[29]=__hneg2(p0);
  o[n++]=__heq2_mask(p0,p1); o[n++]=__hgtu2_mask(p0,p1);
  h[60]=__float2half(f[0]); h[61]=__float2half_rz(f[0]); h[62]=__float2half_rd(f[0]); h[63]=__float2half_ru(f[0]); f[2]=__half2float(h0); h[64]=__double2half(((double*)f)[5]);
  h[65]=__int2half_rn(a); h[66]=__int2half_rz(a); o[n++]=__half2int_rn(h0); o[n++]=__half2int_rz(h0); o[n++]=__half2uint_rd(h0); h[67]=__ushort2half_rn(a); h[68]=__short2half_rd(a);
  o[n++]=__half2short_rz(h0); o[n++]=__half2ull_rn(h0); h[69]=__ll2half_rn(((long long*)i)[3]); h[70]=hrint(h0); h[71]=hfloor(h0); h[72]=htrunc(h0); h[73]=hceil(h0);
  __nv_bfloat16 b0=b[0],b1=b[1],b2=b[2]; __nv_bfloat162 q0=((__nv_bfloat162*)b)[2], q1=((__nv_bfloat162*)b)[3], q2=((__nv_bfloat162*)b)[4];
  b[10]=__hadd(b0,b1); b[11]=__hsub(b0,b1); b[12]=__hmul(b0,b1); b[13]=__hfma(b0,b1,b2); b[14]=__hneg(b0); b[15]=__habs(b0); b[16]=__hmin(b0,b1); b[17]=__hmax(b0,b1);
  b[18]=__hmin_nan(b0,b1); b[19]=__hmax_nan(b0,b1); b[20]=__hadd_sat(b0,b1); b[21]=__hfma_relu(b0,b1,b2); b[22]=hexp2(b0); b[23]=htanh_approx(b0); b[24]=__hdiv(b0,b1); b[25]=hrcp(b0);
  b[26]=__hadd_rn(b0,b1); b[27]=__hfma_sat(b0,b1,b2); b[28]=__hmul_sat(b0,b1); b[29]=hsqrt(b0);
  o[n++]=__heq(b0,b1); o[n++]=__hltu(b0,b1); o[n++]=__hisnan(b0); o[n++]=__hbeq2(q0,q1);
  ((__nv_bfloat162*)b)[20]=__hadd2(q0,q1); ((__nv_bfloat162*)b)[21]=__hfma2(q0,q1,q2); ((__nv_bfloat162*)b)[22]=__hmax2_nan(q0,q1); ((__nv_bfloat162*)b)[23]=h2exp2(q0); ((__nv_bfloat162*)b)[24]=__heq2(q0,q1);
  ((__nv_bfloat162*)b)[25]=__float22bfloat162_rn(make_float2(f[0],f[1])); ((__nv_bfloat162*)b)[26]=__hcmadd(q0,q1,q2); ((__nv_bfloat162*)b)[27]=__habs2(q0);
  b[60]=__float2bfloat16(f[0]); b[61]=__float2bfloat16_rz(f[0]); b[62]=__float2bfloat16_rd(f[0]); f[3]=__bfloat162float(b0); b[63]=__double2bfloat16(((double*)f)[5]);
  b[64]=__int2bfloat16_rn(a); o[n++]=__bfloat162int_rn(b0); b[65]=__float2bfloat16_ru(f[0]); h[80]=__float2half(__bfloat162float(b0)); b[66]=(__nv_bfloat16)h0;
  e8[0]=__nv_fp8_e4m3(f[0]); e5[0]=__nv_fp8_e5m2(f[1]); f[4]=float(e8[1]); f[5]=float(e5[1]); e8[2]=__nv_fp8_e4m3(h0); e5[2]=__nv_fp8_e5m2(b0); h[81]=__half(e8[3]); h[82]=__half(e5[3]);
  o[n++]=__nv_cvt_float2_to_fp8x2(make_float2(f[0],f[1]), __NV_SATFINITE, __NV_E4M3); o[n++]=__nv_cvt_halfraw2_to_fp8x2(*(__half2_raw*)&p0, __NV_NOSAT, __NV_E5M2);
  o[n++]=__nv_cvt_bfloat16raw2_to_fp8x2(*(__nv_bfloat162_raw*)&q0, __NV_SATFINITE, __NV_E4M3); __half2_raw r2=__nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)a, __NV_E5M2); o[n++]=*(unsigned*)&r2;
  o[n++]=__nv_cvt_double_to_fp8(((double*)f)[5], __NV_SATFINITE, __NV_E4M3);
}
