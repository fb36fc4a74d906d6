/* texture.c — texture and surface objects: a handle is the device address of
 * the descriptor interp/tex.c reads (tex.h), kept in read-only device memory
 * so that a kernel cannot overwrite it through the handle. */
#include <string.h>

#include "rt.h"
#include "tex.h"

void ptxi_tex_layout_array(ptxi_tex_desc *t, ptxi_dptr base, size_t w, size_t h, size_t d, size_t pitch, size_t slice,
                           int layered, int cubemap) {
    t->base = base, t->pitch = pitch, t->slice = slice;
    t->width = (unsigned)w, t->height = (unsigned)h, t->depth = 0, t->layers = 0;
    t->layered = layered != 0, t->cubemap = cubemap != 0;
    if (cubemap) t->dims = 2, t->layers = (unsigned)(d / 6);
    else if (layered) t->dims = h ? 2 : 1, t->layers = (unsigned)d;
    else t->dims = d ? 3 : h ? 2 : 1, t->depth = (unsigned)d;
    if (layered && t->dims == 1) t->slice = pitch; /* 1D layers are rows */
}

ptxi_status ptxi_tex_create(ptxi_ctx *ctx, const ptxi_tex_desc *d, uint64_t *handle) {
    RT_CHECK_STICKY(ctx);
    if (!d || !handle || d->dims < 1 || d->dims > 3 || !d->width) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    if (d->channels != 1 && d->channels != 2 && d->channels != 4) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    if (d->channel_bits != 8 && d->channel_bits != 16 && d->channel_bits != 32)
        return rt_set_error(ctx, PTXI_INVALID_VALUE);
    if (d->format == PTXI_TEX_FLOAT && d->channel_bits == 8) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    vm_texdesc t;
    memset(&t, 0, sizeof t);
    t.magic = VM_TEX_MAGIC;
    t.surface = d->surface != 0;
    t.dims = (uint8_t)d->dims;
    t.layered = d->layered != 0, t.cubemap = d->cubemap != 0, t.linear = d->linear != 0;
    t.nchan = (uint8_t)d->channels, t.cbits = (uint8_t)d->channel_bits;
    t.fmt = d->format == PTXI_TEX_FLOAT ? VM_TEXF_FLOAT : d->format == PTXI_TEX_SIGNED ? VM_TEXF_SINT : VM_TEXF_UINT;
    t.esize = (uint8_t)(d->channels * d->channel_bits / 8);
    t.filter = d->filter_linear != 0, t.readnorm = d->read_normalized != 0, t.normcoords = d->normalized_coords != 0;
    for (int k = 0; k < 3; k++) t.addr[k] = (uint8_t)d->address[k];
    t.w = d->width, t.h = d->height ? d->height : 1, t.d = d->depth ? d->depth : 1, t.layers = d->layers;
    t.pitch = d->pitch ? d->pitch : (uint64_t)t.w * t.esize;
    t.slice = d->slice ? d->slice : t.pitch * t.h;
    t.base = d->base;
    memcpy(t.border, d->border, sizeof t.border);
    uint64_t p = vm_arena_alloc(&ctx->arena, sizeof t, VM_SH_CONST, d->surface ? "surface object" : "texture object");
    if (!p) return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    memcpy((void *)(uintptr_t)p, &t, sizeof t);
    *handle = p;
    return PTXI_SUCCESS;
}

ptxi_status ptxi_tex_destroy(ptxi_ctx *ctx, uint64_t handle) {
    RT_CHECK_STICKY(ctx);
    vm_texdesc t;
    if (!vm_arena_ok(&ctx->arena, handle, sizeof t, false)) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    memcpy(&t, (const void *)(uintptr_t)handle, sizeof t);
    if (t.magic != VM_TEX_MAGIC) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    ((vm_texdesc *)(uintptr_t)handle)->magic = 0; /* a stale handle faults instead of reading freed memory */
    return vm_arena_free(&ctx->arena, handle) ? rt_set_error(ctx, PTXI_INVALID_VALUE) : PTXI_SUCCESS;
}
