// Thread block clusters (sm_90): a kernel with __cluster_dims__ launched
// normally runs as clusters of 2x1x1 blocks. Each block writes its shared
// memory, the cluster synchronizes (barrier.cluster), and each block reads its
// partner's shared memory through distributed shared memory (mapa).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_kernel(unsigned *out)
{
    __shared__ unsigned sm[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank(), t = threadIdx.x;
    sm[t] = blockIdx.x * 1000 + t;
    cluster.sync();
    unsigned *peer = cluster.map_shared_rank(sm, rank ^ 1);
    unsigned v = peer[(t + 1) & 127];
    cluster.sync();                      // the peer's shared memory must outlive our reads
    unsigned *o = out + 4 * (blockIdx.x * 128 + t);
    o[0] = v;
    o[1] = rank | cluster.num_blocks() << 8;
    o[2] = cluster.block_index().x | cluster.dim_blocks().x << 8;
    o[3] = (unsigned)__isShared(peer) | (unsigned)__isClusterShared(peer) << 1;
}
