/* init.c — initialisation, versions, the device and its attributes, error names,
 * and the loader contract: cuGetProcAddress over the table generated from the CUDA
 * headers, and cuGetExportTable, which only NVIDIA's own runtime asks for. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#if __has_include(<cudaProfiler.h>)
#include <cudaProfiler.h>
#endif

_Atomic bool cd_initialized;

/* The driver API version reported: the CUDA 13 headers ptxi is built with, and no
 * older than the NVRTC/NVVM 13.x that clients pair with it. */
#define DRIVER_VERSION (CUDA_VERSION < 13000 ? 13000 : CUDA_VERSION)

int cd_not_implemented(const char *name) {
    char what[160];
    snprintf(what, sizeof what, "%s is not implemented", name);
    ptxi_warn_once(what);
    return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cd_map(ptxi_status s) {
    switch (s) {
    case PTXI_SUCCESS: return CUDA_SUCCESS;
    case PTXI_INVALID_VALUE: return CUDA_ERROR_INVALID_VALUE;
    case PTXI_OUT_OF_MEMORY: return CUDA_ERROR_OUT_OF_MEMORY;
    case PTXI_NOT_INITIALIZED: return CUDA_ERROR_NOT_INITIALIZED;
    case PTXI_INVALID_CONTEXT: return CUDA_ERROR_INVALID_CONTEXT;
    case PTXI_NOT_READY: return CUDA_ERROR_NOT_READY;
    case PTXI_INVALID_PTX: return CUDA_ERROR_INVALID_PTX;
    case PTXI_UNSUPPORTED_PTX: return CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
    case PTXI_NOT_FOUND: return CUDA_ERROR_NOT_FOUND;
    case PTXI_INVALID_HANDLE: return CUDA_ERROR_INVALID_HANDLE;
    case PTXI_INVALID_CONFIGURATION: return CUDA_ERROR_INVALID_VALUE;
    case PTXI_LAUNCH_OUT_OF_RESOURCES: return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    case PTXI_INVALID_PARAMETERS: return CUDA_ERROR_INVALID_VALUE;
    case PTXI_UNRESOLVED_EXTERN: return CUDA_ERROR_INVALID_PTX;
    case PTXI_NOT_SUPPORTED: return CUDA_ERROR_NOT_SUPPORTED;
    case PTXI_NOT_PERMITTED: return CUDA_ERROR_NOT_PERMITTED;
    case PTXI_IO: return CUDA_ERROR_FILE_NOT_FOUND;
    case PTXI_ILLEGAL_ADDRESS: return CUDA_ERROR_ILLEGAL_ADDRESS;
    case PTXI_MISALIGNED_ADDRESS: return CUDA_ERROR_MISALIGNED_ADDRESS;
    case PTXI_ASSERT: return CUDA_ERROR_ASSERT;
    case PTXI_LAUNCH_FAILED: return CUDA_ERROR_LAUNCH_FAILED;
    case PTXI_LAUNCH_TIMEOUT: return CUDA_ERROR_LAUNCH_TIMEOUT;
    case PTXI_ILLEGAL_INSTRUCTION: return CUDA_ERROR_ILLEGAL_INSTRUCTION;
    case PTXI_STACK_OVERFLOW: return CUDA_ERROR_LAUNCH_FAILED;
    case PTXI_BARRIER_DEADLOCK: return CUDA_ERROR_LAUNCH_FAILED;
    case PTXI_INVALID_ADDRESS_SPACE: return CUDA_ERROR_INVALID_ADDRESS_SPACE;
    }
    return CUDA_ERROR_UNKNOWN;
}

CD_EXPORT CUresult cuInit(unsigned int Flags) {
    if (Flags) return CUDA_ERROR_INVALID_VALUE;
    cd_install_hooks();
    cd_initialized = true;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDriverGetVersion(int *driverVersion) {
    if (!driverVersion) return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = DRIVER_VERSION;
    return CUDA_SUCCESS;
}

/* Profiler control (cudaProfiler.h): there is no profiler to start or stop, so
 * the calls only check for a context, as a driver with no tool attached does. */
CD_EXPORT CUresult cuProfilerStart(void) {
    ptxi_ctx *c;
    return cd_current(&c);
}

CD_EXPORT CUresult cuProfilerStop(void) {
    ptxi_ctx *c;
    return cd_current(&c);
}

/* ---- the device ---- */

#define CD_INIT()                                           \
    do {                                                    \
        if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED; \
    } while (0)

CD_EXPORT CUresult cuDeviceGetCount(int *count) {
    CD_INIT();
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    *count = 1;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
    CD_INIT();
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
    CD_INIT();
    if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    snprintf(name, (size_t)len, "%s", ptxi_device_name());
    return CUDA_SUCCESS;
}

/* A fixed UUID (version-4 layout) so that tools keying on it see the same device
 * in every run; the last byte tells the sm_80 presentation apart. */
CD_EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) {
    CD_INIT();
    if (!uuid) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    static const unsigned char id[16] = {'p',  't', 'x', 'i', 0x70, 0x74, 0x40, 0x69,
                                         0x80, 'v', 'i', 'r', 't',  'u',  'a',  0};
    memcpy(uuid->bytes, id, 16);
    int major = 9;
    ptxi_device_attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major);
    uuid->bytes[15] = (char)(major * 10);
    return CUDA_SUCCESS;
}
CD_ALIAS(cuDeviceGetUuid, cuDeviceGetUuid_v2);

CD_EXPORT CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
    CD_INIT();
    if (!pi) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    return ptxi_device_attribute((int)attrib, pi) == PTXI_SUCCESS ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CD_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) {
    CD_INIT();
    if (!bytes) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    ptxi_device_props p;
    ptxi_device_get_props(&p);
    *bytes = p.total_global_mem;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev) {
    CD_INIT();
    if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    ptxi_device_attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, major);
    ptxi_device_attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, minor);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev) {
    CD_INIT();
    if (!pciBusId || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    int dom = 0, bus = 0, devno = 0;
    ptxi_device_attribute(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, &dom);
    ptxi_device_attribute(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, &bus);
    ptxi_device_attribute(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, &devno);
    snprintf(pciBusId, (size_t)len, "%04X:%02X:%02X.0", dom, bus, devno);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId) {
    CD_INIT();
    if (!dev || !pciBusId) return CUDA_ERROR_INVALID_VALUE;
    char mine[32];
    cuDeviceGetPCIBusId(mine, sizeof mine, 0);
    if (strcasecmp(mine, pciBusId) && strcasecmp(mine + 5, pciBusId)) return CUDA_ERROR_INVALID_DEVICE;
    *dev = 0;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev) {
    CD_INIT();
    if (!canAccessPeer) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0 || peerDev != 0) return CUDA_ERROR_INVALID_DEVICE;
    *canAccessPeer = 0;
    return CUDA_SUCCESS;
}

/* ---- error names and texts ---- */

/* The texts are the runtime's (cudart/errors.def): the driver's cuGetErrorString and
 * the runtime's cudaGetErrorString give the same text for the same number. */
static const struct {
    int code;
    const char *text;
} texts[] = {
#define X(v, n, t) {v, t},
#include "errors.def"
#undef X
};

CD_EXPORT CUresult cuGetErrorName(CUresult error, const char **pStr) {
    if (!pStr) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < cd_num_error_names; i++)
        if (cd_error_names[i].code == (int)error) {
            *pStr = cd_error_names[i].name;
            return CUDA_SUCCESS;
        }
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CD_EXPORT CUresult cuGetErrorString(CUresult error, const char **pStr) {
    if (!pStr) return CUDA_ERROR_INVALID_VALUE;
    const char *name;
    if (cuGetErrorName(error, &name) != CUDA_SUCCESS) {
        *pStr = NULL;
        return CUDA_ERROR_INVALID_VALUE;
    }
    *pStr = "unknown error";
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (texts[i].code == (int)error) *pStr = texts[i].text;
    return CUDA_SUCCESS;
}

/* ---- the loader contract ---- */

/* The newest implemented ABI version of `symbol` at or below `version`; per-thread
 * default stream forms when asked for (falling back to the legacy form, which is the
 * same function for entry points that have no per-thread form). */
CD_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                       CUdriverProcAddressQueryResult *symbolStatus) {
    if (!symbol || !pfn || flags > (CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
        return CUDA_ERROR_INVALID_VALUE;
    *pfn = NULL;
    int want_pt = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    const cd_entry *best = NULL, *best_pt = NULL;
    bool known = false;
    for (unsigned i = 0; i < cd_num_entries; i++) {
        const cd_entry *e = &cd_entries[i];
        if (strcmp(e->name, symbol)) continue;
        known = true;
        if (e->version > cudaVersion) continue;
        const cd_entry **slot = e->per_thread ? &best_pt : &best;
        if (!*slot || e->version > (*slot)->version) *slot = e;
    }
    const cd_entry *e = want_pt && best_pt && (!best || best_pt->version >= best->version) ? best_pt : best;
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SUCCESS;
    if (!known || (e && e->fn == e->stub)) st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    else if (!e) st = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
    if (symbolStatus) *symbolStatus = st;
    if (st != CU_GET_PROC_ADDRESS_SUCCESS) return CUDA_ERROR_NOT_FOUND;
    *pfn = e->fn;
    return CUDA_SUCCESS;
}

/* The CUDA 11.3 form, without the status (cuda.h renames cuGetProcAddress to _v2). */
CUresult get_proc_address_v1(const char *symbol, void **pfn, int cudaVersion,
                             cuuint64_t flags) __asm__("cuGetProcAddress");
CD_EXPORT CUresult get_proc_address_v1(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags) {
    return cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, NULL);
}

/* NVIDIA's CUDA runtime (libcudart_static.a, linked by nvcc's default -cudart static)
 * asks the driver for private export tables before anything else and refuses a driver
 * that does not answer them. ptxi does not answer them: for the tables that runtime
 * asks for first (their ids as CUDA 13.0's libcudart_static.a passes them) it says
 * what to do instead; other private tables (NVIDIA's other libraries) are refused. */
static const unsigned char static_runtime_tables[][16] = {
    {0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9},
    {0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9},
};

CD_EXPORT CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId) {
    if (ppExportTable) *ppExportTable = NULL;
    if (!ppExportTable || !pExportTableId) return CUDA_ERROR_INVALID_VALUE;
    char what[600];
    snprintf(what, sizeof what, "cuGetExportTable (NVIDIA's private interfaces) is not implemented");
    for (size_t i = 0; i < sizeof static_runtime_tables / sizeof static_runtime_tables[0]; i++)
        if (!memcmp(pExportTableId->bytes, static_runtime_tables[i], 16))
            snprintf(what, sizeof what, "%s links NVIDIA's CUDA runtime statically; rebuild it with -cudart shared",
                     program_invocation_short_name);
    ptxi_warn_once(what);
    return CUDA_ERROR_NOT_SUPPORTED;
}
