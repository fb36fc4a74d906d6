// Cooperative groups inside a block: thread_block_tile partitions of 32, 16
// and 4, tile shuffles and votes, cg::reduce and cg::inclusive_scan, and a
// coalesced_group formed in a divergent branch.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void coop_groups(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    unsigned t = block.thread_rank();
    int v = in[t];
    int *o = out + 8 * t;
    auto t32 = cg::tiled_partition<32>(block);
    auto t16 = cg::tiled_partition<16>(block);
    auto t4 = cg::tiled_partition<4>(block);
    o[0] = cg::reduce(t32, v, cg::plus<int>());
    o[1] = cg::reduce(t16, v, cg::greater<int>());
    o[2] = cg::inclusive_scan(t4, v);
    o[3] = t4.shfl_down(v, 1) + (int)t16.meta_group_rank() * 1000;
    o[4] = (int)t16.ballot(v > 0) ^ (int)t4.any(v == 3) << 20;
    o[5] = 0x7777;
    if (v & 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        o[5] = (int)odd.size() * 100 + (int)odd.thread_rank();
        o[6] = cg::reduce(odd, v, cg::plus<int>());
    } else {
        o[6] = -1;
    }
    block.sync();
    o[7] = (int)block.size() + (int)t32.meta_group_size();
}
