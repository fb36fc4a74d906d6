// Nested divergent loops and branches: every lane takes its own trip counts and
// its own mix of if/else, continue and break, so the warp splits and rejoins
// many times. Each lane folds the path it took into a hash; one wrong branch,
// one missed reconvergence or one extra iteration changes its word.
__device__ __forceinline__ unsigned mix(unsigned h, unsigned v)
{
    h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
    return h;
}

extern "C" __global__ void divergence(const unsigned *in, unsigned *out, unsigned *trips)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = in[t];
    unsigned h = t;
    unsigned count = 0;
    for (unsigned i = 0; i < (x & 7) + 1; i++) {
        if ((x >> i) & 1) {
            for (unsigned j = 0; j < ((x >> 8) & 3) + i; j++) {
                count++;
                if ((j ^ t) & 1)
                    continue;
                h = mix(h, i * 16 + j);
                if (j == 5 && (t & 3) == 1)
                    break;
            }
        } else if (t & 2) {
            unsigned k = x >> 16;
            while (k > 1) {          // a short Collatz walk: data-dependent length
                k = (k & 1) ? 3 * k + 1 : k >> 1;
                count++;
                if (count > 200)
                    break;
            }
            h = mix(h, k + count);
        } else {
            h = mix(h, ~x);
            if (x & 0x100)
                goto skip;
            h = mix(h, 77);
        skip:
            h = mix(h, i);
        }
        if (h % 11 == 3)
            break;
    }
    out[t] = h;
    trips[t] = count;
}
