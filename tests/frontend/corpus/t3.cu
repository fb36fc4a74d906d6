#include <cuda/ptx>
#include <cooperative_groups.h>
#include <cstdint>
namespace ptx = cuda::ptx;
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2,1,1) clu(int *o, const void *tm) {
  __shared__ alignas(128) int buf[1024];
  __shared__ uint64_t mbar;
  auto cl = cg::this_cluster();
  unsigned rank = cl.block_rank();
  int *remote = cl.map_shared_rank(buf, rank ^ 1);
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&mbar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &mbar, 4096);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, o, 4096, &mbar);
    int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, buf, tm, coords, &mbar);
  }
  while (!ptx::mbarrier_try_wait_parity(&mbar, 0)) {}
  cl.sync();
  o[threadIdx.x] = remote[threadIdx.x] + (int)ptx::get_sreg_clusterid_x() + (int)ptx::get_sreg_cluster_ctarank();
  ptx::fence_proxy_tensormap_generic(ptx::sem_release, ptx::scope_gpu);
  ptx::red_async(ptx::op_add, (uint32_t*)remote, 1u, &mbar);
  ptx::st_async(remote, 5, &mbar);

}
__global__ void wg(float *d, uint64_t da, uint64_t db) {
  float acc[4] = {0,0,0,0};
  asm volatile("wgmma.fence.sync.aligned;");
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %6, 0;\n wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0; }"
    : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]) : "l"(da), "l"(db), "r"(1));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  asm volatile("griddepcontrol.wait;"); asm volatile("griddepcontrol.launch_dependents;");
  d[threadIdx.x] = acc[0] + acc[1] + acc[2] + acc[3];
}
