// stream_attrs.cu — the launch attributes a stream carries (cudaStreamSetAttribute,
// cudaStreamGetAttribute, and the driver's cuStreamSetAttribute/cuStreamGetAttribute
// on the same stream): what reads back after a set, on a stream and on the default
// stream, which attributes a stream refuses; and the profiler calls of both APIs
// (cuProfilerStart/Stop before cuInit, without a context, with one).
#include <cuda.h>
#include "check.h"
// The profiler calls, declared here: their headers are not in every CUDA
// installation (NVIDIA's PyPI wheels leave them out).
extern "C" CUresult CUDAAPI cuProfilerStart(void);
extern "C" CUresult CUDAAPI cuProfilerStop(void);
extern "C" cudaError_t CUDARTAPI cudaProfilerStart(void);
extern "C" cudaError_t CUDARTAPI cudaProfilerStop(void);
#include <cstring>

static void show_window(const char *what, const cudaStreamAttrValue &v, const void *base) {
    const cudaAccessPolicyWindow &w = v.accessPolicyWindow;
    printf("%s: base %s num_bytes %zu hitRatio %.3f hitProp %d missProp %d\n", what,
           w.base_ptr == base ? "=buf" : (w.base_ptr ? "other" : "null"), w.num_bytes,
           w.hitRatio, (int)w.hitProp, (int)w.missProp);
}

int main() {
    setvbuf(stdout, NULL, _IONBF, 0);   // what was printed survives a crash
    DRV(cuProfilerStart());
    DRV(cuProfilerStop());
    DRV(cuInit(0));
    DRV(cuProfilerStart());
    CHECK(cudaFree(0));
    DRV(cuProfilerStart());
    DRV(cuProfilerStop());
    SHOW(cudaProfilerStart());
    SHOW(cudaProfilerStop());

    int maxWindow = 0;
    CHECK(cudaDeviceGetAttribute(&maxWindow, cudaDevAttrMaxAccessPolicyWindowSize, 0));
    printf("max access policy window: %d\n", maxWindow);
    void *buf;
    CHECK(cudaMalloc(&buf, 4 << 20));

    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaStreamAttrValue v;
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    show_window("default window", v, buf);

    cudaStreamAttrValue set;
    memset(&set, 0, sizeof set);
    set.accessPolicyWindow.base_ptr = buf;
    set.accessPolicyWindow.num_bytes = 1 << 20;
    set.accessPolicyWindow.hitRatio = 0.6f;
    set.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    set.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    SHOW(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &set));
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    show_window("window after set", v, buf);

    // the driver sees what the runtime set on the same stream
    CUstreamAttrValue dv;
    memset(&dv, 0x5a, sizeof dv);
    DRV(cuStreamGetAttribute((CUstream)s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &dv));
    printf("driver window: num_bytes %zu hitRatio %.3f hitProp %d missProp %d\n",
           dv.accessPolicyWindow.num_bytes, dv.accessPolicyWindow.hitRatio,
           (int)dv.accessPolicyWindow.hitProp, (int)dv.accessPolicyWindow.missProp);

    // a window larger than the device allows; a hit ratio above 1
    cudaStreamAttrValue big = set;
    big.accessPolicyWindow.num_bytes = (size_t)maxWindow + 1;
    SHOW(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &big));
    cudaStreamAttrValue ratio = set;
    ratio.accessPolicyWindow.hitRatio = 1.5f;
    SHOW(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &ratio));
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    show_window("window after refused sets", v, buf);

    // the driver sets, the runtime reads
    CUstreamAttrValue dset;
    memset(&dset, 0, sizeof dset);
    dset.accessPolicyWindow.base_ptr = buf;
    dset.accessPolicyWindow.num_bytes = 4096;
    dset.accessPolicyWindow.hitRatio = 0.25f;
    dset.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_NORMAL;
    dset.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_NORMAL;
    DRV(cuStreamSetAttribute((CUstream)s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &dset));
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    show_window("window set by the driver", v, buf);

    // synchronization policy
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v));
    printf("default sync policy: %d\n", (int)v.syncPolicy);
    memset(&set, 0, sizeof set);
    set.syncPolicy = cudaSyncPolicySpin;
    SHOW(cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &set));
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v));
    printf("sync policy after set: %d\n", (int)v.syncPolicy);

    // priority: set through the attribute, read both ways
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(s, cudaStreamAttributePriority, &v));
    printf("priority attribute: %d\n", v.priority);
    memset(&set, 0, sizeof set);
    set.priority = -3;
    SHOW(cudaStreamSetAttribute(s, cudaStreamAttributePriority, &set));
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(s, cudaStreamAttributePriority, &v));
    int prio = 99;
    CHECK(cudaStreamGetPriority(s, &prio));
    printf("priority after set: attribute %d, cudaStreamGetPriority %d\n", v.priority, prio);

    // memory synchronization domains
    memset(&set, 0, sizeof set);
    set.memSyncDomain = cudaLaunchMemSyncDomainRemote;
    SHOW(cudaStreamSetAttribute(s, cudaStreamAttributeMemSyncDomain, &set));
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeMemSyncDomain, &v));
    printf("mem sync domain: %d\n", (int)v.memSyncDomain);
    memset(&set, 0, sizeof set);
    set.memSyncDomainMap.default_ = 1;
    set.memSyncDomainMap.remote = 0;
    SHOW(cudaStreamSetAttribute(s, cudaStreamAttributeMemSyncDomainMap, &set));
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeMemSyncDomainMap, &v));
    printf("mem sync domain map: default %d remote %d\n", (int)v.memSyncDomainMap.default_,
           (int)v.memSyncDomainMap.remote);

    // attributes that are not a stream's
    memset(&set, 0, sizeof set);
    set.cooperative = 1;
    SHOW(cudaStreamSetAttribute(s, cudaLaunchAttributeCooperative, &set));
    SHOW(cudaStreamGetAttribute(s, cudaLaunchAttributeCooperative, &v));
    SHOW(cudaStreamSetAttribute(s, (cudaStreamAttrID)99, &set));
    SHOW(cudaStreamGetAttribute(s, (cudaStreamAttrID)99, &v));

    // the default stream
    memset(&set, 0, sizeof set);
    set.syncPolicy = cudaSyncPolicyYield;
    SHOW(cudaStreamSetAttribute(0, cudaStreamAttributeSynchronizationPolicy, &set));
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(0, cudaStreamAttributeSynchronizationPolicy, &v));
    printf("default stream sync policy: %d\n", (int)v.syncPolicy);

    // a kernel-less stream still works after all this; a destroyed one is refused
    SHOW(cudaStreamSynchronize(s));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaStreamCreate(&s));
    memset(&v, 0x5a, sizeof v);
    SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    show_window("new stream window", v, buf);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(buf));
    printf("done\n");
    return 0;
}
