/* driver_entry.c — cudaGetDriverEntryPoint(ByVersion): the driver functions a
 * runtime program may ask for by name. ptxi has no driver; it answers the ones
 * device code needs from the host — today cuTensorMapEncodeTiled and
 * cuTensorMapEncodeIm2col, which build the tensor maps of cp.async.bulk.tensor (include/ptxi_private.h). */
#include <string.h>

#include "cudart_internal.h"
#include "ptxi_private.h"

/* CUresult cuTensorMapEncodeTiled(CUtensorMap *, CUtensorMapDataType, cuuint32_t rank, void *globalAddress,
 *     const cuuint64_t *globalDim, const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
 *     const cuuint32_t *elementStrides, interleave, swizzle, l2Promotion, oobFill) */
static int encode_tiled(void *map, int dtype, unsigned rank, void *gaddr, const uint64_t *dims, const uint64_t *strides,
                        const uint32_t *box, const uint32_t *estrides, int il, int sw, int l2, int oob) {
    return ptxi_tmap_encode_tiled(map, (unsigned)dtype, rank, (uint64_t)(uintptr_t)gaddr, dims, strides, box, estrides,
                                  (unsigned)il, (unsigned)sw, (unsigned)l2, (unsigned)oob);
}

/* CUresult cuTensorMapEncodeIm2col(CUtensorMap *, CUtensorMapDataType, cuuint32_t rank, void *globalAddress,
 *     const cuuint64_t *globalDim, const cuuint64_t *globalStrides, const int *pixelBoxLowerCorner,
 *     const int *pixelBoxUpperCorner, cuuint32_t channelsPerPixel, cuuint32_t pixelsPerColumn,
 *     const cuuint32_t *elementStrides, interleave, swizzle, l2Promotion, oobFill) */
static int encode_im2col(void *map, int dtype, unsigned rank, void *gaddr, const uint64_t *dims,
                         const uint64_t *strides, const int *lower, const int *upper, uint32_t channels,
                         uint32_t pixels, const uint32_t *estrides, int il, int sw, int l2, int oob) {
    return ptxi_tmap_encode_im2col(map, (unsigned)dtype, rank, (uint64_t)(uintptr_t)gaddr, dims, strides, lower, upper,
                                   channels, pixels, estrides, (unsigned)il, (unsigned)sw, (unsigned)l2, (unsigned)oob);
}

static const struct {
    const char *name;
    void *fn;
} entries[] = {
    {"cuTensorMapEncodeTiled", (void *)encode_tiled},
    {"cuTensorMapEncodeIm2col", (void *)encode_im2col},
};

CR_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                                       unsigned long long flags,
                                                       enum cudaDriverEntryPointQueryResult *driverStatus) {
    (void)cudaVersion;
    (void)flags;
    if (!symbol || !funcPtr) return cr_ret(cudaErrorInvalidValue);
    *funcPtr = NULL;
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if (!strcmp(symbol, entries[i].name)) *funcPtr = entries[i].fn;
    if (!*funcPtr) cr_warn_once("a driver entry point other than the tensor-map encoders was asked for");
    if (driverStatus) *driverStatus = *funcPtr ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
    return cudaSuccess;
}

/* deprecated in CUDA 13, still exported and still called by older code */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
CR_EXPORT cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                              enum cudaDriverEntryPointQueryResult *driverStatus) {
    return cudaGetDriverEntryPointByVersion(symbol, funcPtr, 13000, flags, driverStatus);
}

CR_ALIAS(cudaGetDriverEntryPoint_ptsz, cudaGetDriverEntryPoint);
#pragma GCC diagnostic pop
CR_ALIAS(cudaGetDriverEntryPointByVersion_ptsz, cudaGetDriverEntryPointByVersion);
