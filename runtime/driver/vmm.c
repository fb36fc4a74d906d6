/* vmm.c — virtual memory management (cuMemAddressReserve, cuMemCreate, cuMemMap...).
 * Device memory is host memory in ptxi's arena, so a reserved range is an
 * allocation of the arena from the start; a physical allocation (cuMemCreate) is a
 * handle that lends its contents to the range it is mapped into. Unmapping keeps
 * the contents with the handle (a host copy) and mapping it again restores them,
 * as the GPU's memory stays with its allocation. A handle is mapped at one place at
 * a time: mapping it a second time while mapped (two addresses for one memory) is
 * not supported. Access rights are recorded, not enforced. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

#define GRANULARITY ((size_t)2 << 20) /* an H100's, minimum and recommended */

typedef struct vmm_handle {
    size_t size;
    CUmemAllocationProp prop;
    uint64_t mapped; /* where it is mapped, else 0 */
    void *saved;     /* its contents while unmapped (NULL: zeros, never mapped) */
    int refs;        /* cuMemCreate and cuMemRetainAllocationHandle; at 0 it is
                                 freed, or once unmapped when mapped */
    ptxi_ctx *ctx;
    struct vmm_handle *next;
} vmm_handle;

typedef struct vmm_range {
    uint64_t base;  /* what the caller sees (aligned) */
    uint64_t alloc; /* the arena allocation holding it */
    size_t size;
    int access; /* CUmemAccess_flags of the last cuMemSetAccess */
    ptxi_ctx *ctx;
    struct vmm_range *next;
} vmm_range;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static vmm_handle *handles;
static vmm_range *ranges;

static vmm_handle *handle_find(CUmemGenericAllocationHandle h) {
    for (vmm_handle *p = handles; p; p = p->next)
        if ((CUmemGenericAllocationHandle)(uintptr_t)p == h) return p;
    return NULL;
}

static vmm_range *range_find(uint64_t p, size_t size) {
    for (vmm_range *r = ranges; r; r = r->next)
        if (p >= r->base && p - r->base <= r->size && size <= r->size - (p - r->base)) return r;
    return NULL;
}

/* The handle mapped over [p, p+size) must be exactly one, mapped at p with its size. */
static vmm_handle *mapped_at(uint64_t p, size_t size) {
    for (vmm_handle *h = handles; h; h = h->next)
        if (h->mapped == p && h->size == size) return h;
    return NULL;
}

static bool overlaps_mapping(uint64_t p, size_t size) {
    for (vmm_handle *h = handles; h; h = h->next)
        if (h->mapped && p < h->mapped + h->size && h->mapped < p + size) return true;
    return false;
}

static bool prop_valid(const CUmemAllocationProp *prop) {
    return prop && prop->type == CU_MEM_ALLOCATION_TYPE_PINNED && prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
           prop->location.id == 0;
}

CD_EXPORT CUresult cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                                 CUmemAllocationGranularity_flags option) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    /* an H100 answers its granularity whatever the properties say */
    if (!granularity || !prop ||
        (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
        return CUDA_ERROR_INVALID_VALUE;
    *granularity = GRANULARITY;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                               unsigned long long flags) {
    CD_CTX(ctx);
    if (!handle || !size || size % GRANULARITY || flags || !prop_valid(prop)) return CUDA_ERROR_INVALID_VALUE;
    size_t free_bytes = 0, total = 0;
    ptxi_mem_get_info(ctx, &free_bytes, &total);
    if (size > free_bytes) return CUDA_ERROR_OUT_OF_MEMORY;
    vmm_handle *h = calloc(1, sizeof *h);
    if (!h) return CUDA_ERROR_OUT_OF_MEMORY;
    h->size = size;
    h->refs = 1;
    h->prop = *prop;
    h->ctx = ctx;
    pthread_mutex_lock(&lock);
    h->next = handles;
    handles = h;
    pthread_mutex_unlock(&lock);
    *handle = (CUmemGenericAllocationHandle)(uintptr_t)h;
    return CUDA_SUCCESS;
}

static void handle_unlink(vmm_handle *h) {
    for (vmm_handle **q = &handles; *q; q = &(*q)->next)
        if (*q == h) {
            *q = h->next;
            break;
        }
    free(h->saved);
    free(h);
}

CD_EXPORT CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&lock);
    vmm_handle *h = handle_find(handle);
    if (h && h->refs == 0) h = NULL; /* released already, waiting for its unmap */
    if (h && --h->refs == 0 && !h->mapped) handle_unlink(h);
    pthread_mutex_unlock(&lock);
    return h ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CD_EXPORT CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                       unsigned long long flags) {
    (void)addr; /* a hint */
    CD_CTX(ctx);
    if (!ptr || !size || size % GRANULARITY || (alignment & (alignment - 1)) || flags) return CUDA_ERROR_INVALID_VALUE;
    size_t align = alignment > GRANULARITY ? alignment : GRANULARITY;
    vmm_range *r = calloc(1, sizeof *r);
    if (!r) return CUDA_ERROR_OUT_OF_MEMORY;
    ptxi_dptr p = 0;
    CUresult res = cd_map(ptxi_mem_alloc(ctx, size + align, &p));
    if (res != CUDA_SUCCESS) {
        free(r);
        return res;
    }
    r->alloc = p;
    r->base = (p + align - 1) & ~(uint64_t)(align - 1);
    r->size = size;
    r->ctx = ctx;
    pthread_mutex_lock(&lock);
    r->next = ranges;
    ranges = r;
    pthread_mutex_unlock(&lock);
    *ptr = (CUdeviceptr)r->base;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&lock);
    vmm_range **q = &ranges;
    while (*q && !((*q)->base == ptr && (*q)->size == size)) q = &(*q)->next;
    vmm_range *r = *q;
    bool busy = r && overlaps_mapping(ptr, size);
    if (r && !busy) *q = r->next;
    pthread_mutex_unlock(&lock);
    if (!r || busy) return CUDA_ERROR_INVALID_VALUE;
    ptxi_mem_free(r->ctx, r->alloc);
    free(r);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                            unsigned long long flags) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!size || offset || flags) return CUDA_ERROR_INVALID_VALUE;
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    vmm_handle *h = handle_find(handle);
    if (h && h->refs == 0) h = NULL; /* released, waiting for its unmap */
    if (!h || !range_find(ptr, size) || ptr % GRANULARITY) {
        res = CUDA_ERROR_INVALID_VALUE;
    } else if (h->size != size || h->mapped) {
        res = CUDA_ERROR_NOT_SUPPORTED; /* a part of an allocation, or one memory at two addresses */
    } else if (overlaps_mapping(ptr, size)) {
        res = CUDA_ERROR_INVALID_VALUE;
    } else {
        if (h->saved) memcpy((void *)(uintptr_t)ptr, h->saved, size);
        else memset((void *)(uintptr_t)ptr, 0, size);
        free(h->saved);
        h->saved = NULL;
        h->mapped = ptr;
    }
    pthread_mutex_unlock(&lock);
    return res;
}

CD_EXPORT CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    vmm_handle *h = mapped_at(ptr, size);
    if (!h) {
        /* a reserved range with nothing mapped in it unmaps as a no-op; a part of a mapping does not */
        res = range_find(ptr, size) && !overlaps_mapping(ptr, size) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    } else if (h->refs == 0) {
        handle_unlink(h);
    } else {
        h->saved = malloc(size); /* without it the contents read back as zeros */
        if (h->saved) memcpy(h->saved, (void *)(uintptr_t)ptr, size);
        h->mapped = 0;
    }
    pthread_mutex_unlock(&lock);
    return res;
}

CD_EXPORT CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!desc || !count) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++)
        if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || desc[i].location.id != 0 ||
            (desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
             desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE))
            return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    vmm_range *r = range_find(ptr, size);
    /* every byte of the range must be mapped */
    size_t covered = 0;
    for (vmm_handle *h = handles; r && h; h = h->next)
        if (h->mapped >= ptr && h->mapped + h->size <= ptr + size) covered += h->size;
    bool ok = r && covered == size;
    if (ok) r->access = desc[count - 1].flags;
    pthread_mutex_unlock(&lock);
    return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CD_EXPORT CUresult cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location, CUdeviceptr ptr) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!flags || !location || location->type != CU_MEM_LOCATION_TYPE_DEVICE || location->id != 0)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    vmm_range *r = range_find(ptr, 1);
    if (r) *flags = (unsigned long long)r->access;
    pthread_mutex_unlock(&lock);
    return r ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CD_EXPORT CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop,
                                                          CUmemGenericAllocationHandle handle) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!prop) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    vmm_handle *h = handle_find(handle);
    if (h) *prop = h->prop;
    pthread_mutex_unlock(&lock);
    return h ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The handle mapped at addr, with one more reference for cuMemRelease to drop. */
CD_EXPORT CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!handle) return CUDA_ERROR_INVALID_VALUE;
    uint64_t p = (uint64_t)(uintptr_t)addr;
    vmm_handle *found = NULL;
    pthread_mutex_lock(&lock);
    for (vmm_handle *h = handles; h && !found; h = h->next)
        if (h->mapped && p >= h->mapped && p < h->mapped + h->size) found = h;
    if (found) {
        found->refs++;
        *handle = (CUmemGenericAllocationHandle)(uintptr_t)found;
    }
    pthread_mutex_unlock(&lock);
    return found ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The context's memory is gone: its reservations with it; its handles stay valid
 * but unmapped (their contents lost). */
void cd_vmm_forget(ptxi_ctx *c) {
    pthread_mutex_lock(&lock);
    for (vmm_range **q = &ranges; *q;) {
        vmm_range *r = *q;
        if (r->ctx == c) {
            *q = r->next;
            free(r);
        } else {
            q = &r->next;
        }
    }
    for (vmm_handle **q = &handles; *q;) {
        vmm_handle *h = *q;
        if (h->ctx == c && h->refs == 0) {
            *q = h->next;
            free(h->saved);
            free(h);
            continue;
        }
        if (h->ctx == c) h->mapped = 0;
        q = &h->next;
    }
    pthread_mutex_unlock(&lock);
}
