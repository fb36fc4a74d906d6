// dbg_more.cu — a second translation unit: linked with dbg_app.cu into dbg_app2,
// its own fatbinary and so a second module. twice<<<1,64>>> doubles v[i], i < n.
__global__ void twice(float *v, int n) {
    int i = threadIdx.x;
    if (i < n) v[i] *= 2.0f;
}

void more(float *v, int n) { twice<<<1, 64>>>(v, n); }
