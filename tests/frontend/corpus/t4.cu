#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;
__global__ void tc(uint32_t *o, uint64_t desc) {
  __shared__ uint32_t taddr;
  __shared__ uint64_t mbar;
  ptx::tcgen05_alloc(ptx::cta_group_1, &taddr, 32);
  ptx::tcgen05_fence_before_thread_sync();
  ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, taddr, desc, desc, 0u, true);
  ptx::tcgen05_commit(ptx::cta_group_1, &mbar);
  uint32_t r[4];
  ptx::tcgen05_ld_32x32b(r, taddr);  
  ptx::tcgen05_wait_ld();
  ptx::tcgen05_dealloc(ptx::cta_group_1, taddr, 32);
  ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
  o[threadIdx.x] = r[0] + r[3];
}
