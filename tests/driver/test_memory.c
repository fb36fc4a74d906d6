/* test_memory.c — allocation kinds, pointer attributes, memsets of 8/16/32 bits,
 * 2D/3D copies with pitches, async forms on streams, and memory pools. Device memory
 * is checked: a copy past an allocation's end is refused, not performed. */
#include <stdlib.h>

#include "drv.h"

Test(memory, sets_and_bounds) {
    drv_setup();
    CUdeviceptr d;
    CK(cuMemAlloc(&d, 64));
    CK(cuMemsetD8(d, 0xab, 64));
    CK(cuMemsetD16(d + 2, 0x1234, 3));
    CK(cuMemsetD32(d + 16, 0xdeadbeef, 2));
    unsigned char h[64];
    CK(cuMemcpyDtoH(h, d, 64));
    cr_expect_eq(h[0], 0xab);
    cr_expect_eq(h[2], 0x34);
    cr_expect_eq(h[3], 0x12);
    cr_expect_eq(h[7], 0x12);
    cr_expect_eq(h[8], 0xab);
    cr_expect_eq(h[16], 0xef);
    cr_expect_eq(h[23], 0xde);
    cr_expect_eq(h[24], 0xab);
    cr_expect_eq(cuMemsetD16(d + 1, 0, 1), CUDA_ERROR_INVALID_VALUE); /* misaligned */
    cr_expect_eq(cuMemsetD32(d, 0, 17), CUDA_ERROR_INVALID_VALUE);    /* past the end */
    cr_expect_eq(cuMemcpyDtoH(h, d + 1, 64), CUDA_ERROR_INVALID_VALUE);
    cr_expect_eq(cuMemcpyHtoD(d + 60, h, 8), CUDA_ERROR_INVALID_VALUE);
    CUstream s;
    CK(cuStreamCreate(&s, 0));
    CK(cuMemsetD8Async(d, 1, 64, s));
    CK(cuMemcpyDtoHAsync(h, d, 64, s));
    CK(cuStreamSynchronize(s));
    cr_expect_eq(h[63], 1);
    size_t free_b, total;
    CK(cuMemGetInfo(&free_b, &total));
    cr_expect_leq(free_b, total);
}

/* A 3 x 5 block of ints at (x 1 int, y 2) of a pitched 8 x 6 device array. */
Test(memory, copies_2d_3d) {
    drv_setup();
    CUdeviceptr d;
    size_t pitch;
    CK(cuMemAllocPitch(&d, &pitch, 8 * 4, 6, 4));
    cr_expect_geq(pitch, 32);
    CK(cuMemsetD2D32(d, pitch, 0, 8, 6));
    int src[5][3];
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 3; x++) src[y][x] = 10 * y + x;
    CUDA_MEMCPY2D c = {0};
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = src, c.srcPitch = sizeof src[0];
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE, c.dstDevice = d, c.dstPitch = pitch, c.dstXInBytes = 4, c.dstY = 1;
    c.WidthInBytes = sizeof src[0], c.Height = 5;
    CK(cuMemcpy2D(&c));
    int back[6][8];
    CUDA_MEMCPY2D r = {0};
    r.srcMemoryType = CU_MEMORYTYPE_UNIFIED, r.srcDevice = d, r.srcPitch = pitch;
    r.dstMemoryType = CU_MEMORYTYPE_HOST, r.dstHost = back, r.dstPitch = sizeof back[0];
    r.WidthInBytes = sizeof back[0], r.Height = 6;
    CK(cuMemcpy2DAsync(&r, NULL));
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 8; x++) {
            int want = y >= 1 && x >= 1 && x <= 3 ? 10 * (y - 1) + (x - 1) : 0;
            cr_expect_eq(back[y][x], want, "(%d, %d)", x, y);
        }
    c.Height = 6; /* one row past the end */
    cr_expect_eq(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE);

    /* 3D: two 2 x 2 slices out of a 4 x 3 x 2 host volume */
    int vol[2][3][4], out[2][2][2];
    for (int i = 0; i < 24; i++) (&vol[0][0][0])[i] = i;
    CUdeviceptr dv;
    CK(cuMemAlloc(&dv, sizeof out));
    CUDA_MEMCPY3D m = {0};
    m.srcMemoryType = CU_MEMORYTYPE_HOST, m.srcHost = vol, m.srcPitch = 16, m.srcHeight = 3;
    m.srcXInBytes = 4, m.srcY = 1;
    m.dstMemoryType = CU_MEMORYTYPE_DEVICE, m.dstDevice = dv, m.dstPitch = 8, m.dstHeight = 2;
    m.WidthInBytes = 8, m.Height = 2, m.Depth = 2;
    CK(cuMemcpy3D(&m));
    CK(cuMemcpyDtoH(out, dv, sizeof out));
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++) cr_expect_eq(out[z][y][x], vol[z][y + 1][x + 1]);
    CUDA_MEMCPY3D a = m;
    a.srcMemoryType = CU_MEMORYTYPE_ARRAY; /* and no array */
    cr_expect_eq(cuMemcpy3D(&a), CUDA_ERROR_INVALID_VALUE);
}

Test(memory, kinds_and_pointer_attributes) {
    CUcontext ctx = drv_setup();
    CUdeviceptr dev, man;
    void *host;
    CK(cuMemAlloc(&dev, 100));
    CK(cuMemAllocManaged(&man, 100, CU_MEM_ATTACH_GLOBAL));
    CK(cuMemAllocHost(&host, 100));
    unsigned type;
    CK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dev));
    cr_expect_eq(type, CU_MEMORYTYPE_DEVICE);
    CK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)host));
    cr_expect_eq(type, CU_MEMORYTYPE_HOST);
    int managed;
    CK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, man));
    cr_expect_eq(managed, 1);
    CK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, dev));
    cr_expect_eq(managed, 0);
    CUdeviceptr start;
    size_t size;
    CK(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, dev + 40));
    CK(cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, dev + 40));
    cr_expect_eq(start, dev);
    cr_expect_eq(size, 100);
    CUcontext c;
    CK(cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, dev));
    cr_expect_eq(c, ctx);
    int stack_var;
    cr_expect_eq(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)&stack_var),
                 CUDA_ERROR_INVALID_VALUE);
    CUpointer_attribute which[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    int ordinal = 7;
    type = 9;
    void *data[] = {&type, &ordinal};
    CK(cuPointerGetAttributes(2, which, data, (CUdeviceptr)&stack_var));
    cr_expect_eq(type, 0);
    cr_expect_eq(ordinal, -2);
    CK(cuPointerGetAttributes(2, which, data, dev));
    cr_expect_eq(type, CU_MEMORYTYPE_DEVICE);
    cr_expect_eq(ordinal, 0);
    /* managed and host memory are the host's own */
    ((char *)(uintptr_t)man)[99] = 5;
    ((char *)host)[99] = 6;
    CUdeviceptr hd;
    CK(cuMemHostGetDevicePointer(&hd, host, 0));
    cr_expect_eq((void *)hd, host);
    cr_expect_eq(cuMemFreeHost((void *)dev), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemFreeHost(host));
    CK(cuMemFree(man));
    /* registered host memory */
    static char buf[256];
    CK(cuMemHostRegister(buf, sizeof buf, 0));
    cr_expect_eq(cuMemHostRegister(buf, sizeof buf, 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    CK(cuMemsetD8((CUdeviceptr)buf, 3, sizeof buf));
    cr_expect_eq(buf[255], 3);
    CK(cuMemHostUnregister(buf));
    cr_expect_eq(cuMemHostUnregister(buf), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
}

Test(memory, pools_and_stream_ordered_allocation) {
    drv_setup();
    CUmemoryPool def, cur;
    CK(cuDeviceGetDefaultMemPool(&def, 0));
    CK(cuDeviceGetMemPool(&cur, 0));
    cr_expect_eq(def, cur);
    CUstream s;
    CK(cuStreamCreate(&s, 0));
    CUdeviceptr d;
    CK(cuMemAllocAsync(&d, 1000, s));
    CK(cuMemsetD8Async(d, 9, 1000, s));
    cuuint64_t used;
    CK(cuMemPoolGetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used));
    cr_expect_eq(used, 1000);
    CK(cuMemFreeAsync(d, s));
    CK(cuMemPoolGetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used));
    cr_expect_eq(used, 0);
    CK(cuMemPoolGetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &used));
    cr_expect_eq(used, 1000);
    CUmemPoolProps props = {0};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    CUmemoryPool p;
    CK(cuMemPoolCreate(&p, &props));
    cuuint64_t thr = 1 << 20, got = 0;
    CK(cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &thr));
    CK(cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &got));
    cr_expect_eq(got, thr);
    int reuse;
    CK(cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &reuse));
    cr_expect_eq(reuse, 1);
    CK(cuMemAllocFromPoolAsync(&d, 64, p, s));
    CK(cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used));
    cr_expect_eq(used, 64);
    CK(cuDeviceSetMemPool(0, p));
    CK(cuMemFreeAsync(d, s));
    CK(cuMemPoolDestroy(p));
    CK(cuDeviceGetMemPool(&cur, 0));
    cr_expect_eq(cur, def);
    cr_expect_eq(cuMemPoolDestroy(def), CUDA_ERROR_INVALID_VALUE);
}

/* A module's .managed variables are managed memory (libNVVM's uvmlite sample checks
 * CU_POINTER_ATTRIBUTE_IS_MANAGED of them on the GPU); its plain globals are not. */
Test(memory, managed_module_variables) {
    drv_setup();
    static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".global .attribute(.managed) .align 4 .u32 xxx = 10;\n"
                              ".global .align 4 .u32 plain = 5;\n"
                              ".visible .entry k() { ret; }\n";
    CUmodule m;
    CK(cuModuleLoadData(&m, ptx));
    CUdeviceptr x, p;
    size_t n;
    CK(cuModuleGetGlobal(&x, &n, m, "xxx"));
    CK(cuModuleGetGlobal(&p, &n, m, "plain"));
    unsigned managed = 7;
    CK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, x));
    cr_expect_eq(managed, 1);
    CK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, p));
    cr_expect_eq(managed, 0);
    cr_expect_eq(*(unsigned *)(uintptr_t)x, 10, "the host reads managed memory directly");
    CK(cuModuleUnload(m));
}
