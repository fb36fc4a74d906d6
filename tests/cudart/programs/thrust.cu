// thrust.cu — a library-heavy program: Thrust (CUB underneath) fills, reduces, scans and
// sorts device vectors, which exercises the runtime calls such libraries make
// (attributes, occupancy, streams, temporary allocations) and their kernels.
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <cstdio>

int main() {
    thrust::device_vector<int> v(5000);
    thrust::sequence(v.begin(), v.end());
    printf("sum = %d\n", thrust::reduce(v.begin(), v.end()));
    thrust::device_vector<int> w(v.rbegin(), v.rend());
    thrust::sort(w.begin(), w.end());
    printf("sorted: %d %d %d\n", (int)w[0], (int)w[1], (int)w[4999]);
    thrust::inclusive_scan(w.begin(), w.end(), v.begin());
    printf("scan: %d %d\n", (int)v[1], (int)v[4999]);
    thrust::device_vector<float> f(3000);
    for (int i = 0; i < 3000; i++) f[i] = (float)((i * 7919) % 3000) * 0.5f;
    thrust::sort(f.begin(), f.end(), thrust::greater<float>());
    printf("descending: %g %g\n", (float)f[0], (float)f[2999]);
    return 0;
}
