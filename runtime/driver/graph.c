/* graph.c — CUDA graphs in the driver API (cuGraph*, cuStreamBeginCapture): the
 * driver's parameter structures turned into libptxi's graphs (runtime/pgraph.c),
 * which the runtime shares, so a CUgraph is a cudaGraph_t. */
#include <string.h>

#include "driver.h"
#include "pgraph.h"

#define G(g) ((ptxi_graph *)(g))
#define N(n) ((ptxi_gnode *)(n))
#define X(x) ((ptxi_gexec *)(x))

/* ---- the driver's parameters ---- */

static CUresult kernel_params(pg_params *p, CUfunction f, CUkernel kern, unsigned gx, unsigned gy, unsigned gz,
                              unsigned bx, unsigned by, unsigned bz, unsigned shared, void **args, void **extra) {
    ptxi_kernel *k = f ? KERNEL(f) : KERNEL(kern);
    bool library = false;
    ptxi_ctx *ctx = NULL; /* the runtime's kernels (cudaGetFuncBySymbol) are the current context's */
    if (!k || (!cd_kernel_of_library(k, &library) && (cd_current(&ctx) != CUDA_SUCCESS || !pg_kernel_in(ctx, k))))
        return CUDA_ERROR_INVALID_HANDLE;
    if (extra) return CUDA_ERROR_INVALID_VALUE;
    p->type = PG_KERNEL;
    p->kernel = (pg_kernel){k, f ? (const void *)f : (const void *)kern, {gx, gy, gz}, {bx, by, bz}, shared, args, 0};
    return CUDA_SUCCESS;
}

static CUresult kernel_v2(pg_params *p, const CUDA_KERNEL_NODE_PARAMS *k) {
    if (!k) return CUDA_ERROR_INVALID_VALUE;
    return kernel_params(p, k->func, k->kern, k->gridDimX, k->gridDimY, k->gridDimZ, k->blockDimX, k->blockDimY,
                         k->blockDimZ, k->sharedMemBytes, k->kernelParams, k->extra);
}

static int kind_of(CUmemorytype src, CUmemorytype dst) {
    bool s = src == CU_MEMORYTYPE_DEVICE, d = dst == CU_MEMORYTYPE_DEVICE;
    if (src == CU_MEMORYTYPE_UNIFIED || dst == CU_MEMORYTYPE_UNIFIED) return PG_DEFAULT;
    return s && d ? PG_D2D : s ? PG_D2H : d ? PG_H2D : PG_H2H;
}

static CUresult copy_params(pg_params *p, const CUDA_MEMCPY3D *c) {
    if (!c) return CUDA_ERROR_INVALID_VALUE;
    if (c->srcMemoryType == CU_MEMORYTYPE_ARRAY || c->dstMemoryType == CU_MEMORYTYPE_ARRAY)
        return CUDA_ERROR_NOT_SUPPORTED;
    const void *src = c->srcMemoryType == CU_MEMORYTYPE_HOST ? c->srcHost : (const void *)(uintptr_t)c->srcDevice;
    void *dst = c->dstMemoryType == CU_MEMORYTYPE_HOST ? c->dstHost : (void *)(uintptr_t)c->dstDevice;
    if (!src || !dst) return CUDA_ERROR_INVALID_VALUE;
    size_t spitch = c->srcPitch ? c->srcPitch : c->WidthInBytes, dpitch = c->dstPitch ? c->dstPitch : c->WidthInBytes;
    size_t sheight = c->srcHeight ? c->srcHeight : c->Height, dheight = c->dstHeight ? c->dstHeight : c->Height;
    p->type = PG_MEMCPY;
    p->copy = (pg_copy){src,
                        dst,
                        spitch,
                        sheight,
                        dpitch,
                        dheight,
                        c->srcXInBytes,
                        c->srcY,
                        c->srcZ,
                        c->dstXInBytes,
                        c->dstY,
                        c->dstZ,
                        c->WidthInBytes,
                        c->Height ? c->Height : 1,
                        c->Depth ? c->Depth : 1,
                        kind_of(c->srcMemoryType, c->dstMemoryType)};
    return CUDA_SUCCESS;
}

static CUresult set_params(pg_params *p, const CUDA_MEMSET_NODE_PARAMS *s) {
    if (!s) return CUDA_ERROR_INVALID_VALUE;
    if (s->height > 1 && s->pitch < s->width * s->elementSize) return CUDA_ERROR_INVALID_VALUE;
    p->type = PG_MEMSET;
    p->set = (pg_set){s->dst, s->pitch, s->value, s->elementSize, s->width, s->height};
    return CUDA_SUCCESS;
}

static CUresult host_params(pg_params *p, const CUDA_HOST_NODE_PARAMS *h) {
    if (!h) return CUDA_ERROR_INVALID_VALUE;
    p->type = PG_HOST;
    p->host = (pg_host){h->fn, h->userData};
    return CUDA_SUCCESS;
}

static CUresult alloc_params(pg_params *p, const CUmemPoolProps *props, size_t bytes) {
    if (props && (props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
                  props->location.type != CU_MEM_LOCATION_TYPE_DEVICE || props->location.id != 0))
        return CUDA_ERROR_INVALID_VALUE;
    CD_CTX(ctx);
    p->type = PG_MEM_ALLOC;
    p->bytes = bytes;
    p->ctx = ctx;
    return CUDA_SUCCESS;
}

static CUresult generic_params(pg_params *p, CUgraphNodeParams *np) {
    if (!np) return CUDA_ERROR_INVALID_VALUE;
    switch (np->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        const CUDA_KERNEL_NODE_PARAMS_v3 *k = &np->kernel;
        return kernel_params(p, k->func, k->kern, k->gridDimX, k->gridDimY, k->gridDimZ, k->blockDimX, k->blockDimY,
                             k->blockDimZ, k->sharedMemBytes, k->kernelParams, k->extra);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: return copy_params(p, &np->memcpy.copyParams);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        CUDA_MEMSET_NODE_PARAMS s = {np->memset.dst,         np->memset.pitch, np->memset.value,
                                     np->memset.elementSize, np->memset.width, np->memset.height};
        return set_params(p, &s);
    }
    case CU_GRAPH_NODE_TYPE_HOST: {
        CUDA_HOST_NODE_PARAMS h = {np->host.fn, np->host.userData};
        return host_params(p, &h);
    }
    case CU_GRAPH_NODE_TYPE_GRAPH: p->type = PG_GRAPH, p->child = G(np->graph.graph); return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EMPTY: p->type = PG_EMPTY; return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        p->type = PG_WAIT_EVENT, p->event = (ptxi_event *)np->eventWait.event;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        p->type = PG_EVENT_RECORD, p->event = (ptxi_event *)np->eventRecord.event;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return alloc_params(p, &np->alloc.poolProps, np->alloc.bytesize);
    case CU_GRAPH_NODE_TYPE_MEM_FREE: p->type = PG_MEM_FREE, p->dptr = np->free.dptr; return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        p->type = PG_CONDITIONAL;
        p->handle = np->conditional.handle;
        p->cond_type = (int)np->conditional.type;
        p->cond_size = np->conditional.size;
        return CUDA_SUCCESS;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
}

static CUresult add(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUresult made, pg_params *p) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (made != CUDA_SUCCESS) return made;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    ptxi_gnode *n = NULL;
    CUresult r = (CUresult)pg_add(G(g), (ptxi_gnode *const *)deps, ndeps, p, &n);
    if (r == CUDA_SUCCESS) *out = (CUgraphNode)n;
    return r;
}

/* ---- building ---- */

CD_EXPORT CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!phGraph || flags) return CUDA_ERROR_INVALID_VALUE;
    return (CUresult)pg_create((ptxi_graph **)phGraph);
}

CD_EXPORT CUresult cuGraphDestroy(CUgraph hGraph) { return (CUresult)pg_destroy(G(hGraph)); }

CD_EXPORT CUresult cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                        size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams) {
    pg_params p = {0};
    return add(phGraphNode, hGraph, dependencies, numDependencies, kernel_v2(&p, nodeParams), &p);
}

CD_EXPORT CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                        size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx) {
    (void)ctx;
    pg_params p = {0};
    return add(phGraphNode, hGraph, dependencies, numDependencies, copy_params(&p, copyParams), &p);
}

CD_EXPORT CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                        size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                                        CUcontext ctx) {
    (void)ctx;
    pg_params p = {0};
    return add(phGraphNode, hGraph, dependencies, numDependencies, set_params(&p, memsetParams), &p);
}

CD_EXPORT CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams) {
    pg_params p = {0};
    return add(phGraphNode, hGraph, dependencies, numDependencies, host_params(&p, nodeParams), &p);
}

CD_EXPORT CUresult cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                            size_t numDependencies, CUgraph childGraph) {
    pg_params p = {.type = PG_GRAPH, .child = G(childGraph)};
    return add(phGraphNode, hGraph, dependencies, numDependencies, CUDA_SUCCESS, &p);
}

CD_EXPORT CUresult cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                       size_t numDependencies) {
    pg_params p = {.type = PG_EMPTY};
    return add(phGraphNode, hGraph, dependencies, numDependencies, CUDA_SUCCESS, &p);
}

CD_EXPORT CUresult cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                             size_t numDependencies, CUevent event) {
    pg_params p = {.type = PG_EVENT_RECORD, .event = (ptxi_event *)event};
    return add(phGraphNode, hGraph, dependencies, numDependencies, CUDA_SUCCESS, &p);
}

CD_EXPORT CUresult cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                           size_t numDependencies, CUevent event) {
    pg_params p = {.type = PG_WAIT_EVENT, .event = (ptxi_event *)event};
    return add(phGraphNode, hGraph, dependencies, numDependencies, CUDA_SUCCESS, &p);
}

CD_EXPORT CUresult cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                          size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams) {
    pg_params p = {0};
    CUresult made = nodeParams ? alloc_params(&p, &nodeParams->poolProps, nodeParams->bytesize)
                               : CUDA_ERROR_INVALID_VALUE;
    CUresult r = add(phGraphNode, hGraph, dependencies, numDependencies, made, &p);
    if (r == CUDA_SUCCESS) nodeParams->dptr = p.dptr;
    return r;
}

CD_EXPORT CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                         size_t numDependencies, CUdeviceptr dptr) {
    pg_params p = {.type = PG_MEM_FREE, .dptr = dptr};
    return add(phGraphNode, hGraph, dependencies, numDependencies, CUDA_SUCCESS, &p);
}

CD_EXPORT CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                  const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                  CUgraphNodeParams *nodeParams) {
    for (size_t i = 0; dependencyData && i < numDependencies; i++)
        if (dependencyData[i].from_port || dependencyData[i].to_port || dependencyData[i].type)
            return CUDA_ERROR_NOT_SUPPORTED;
    pg_params p = {0};
    CUresult r = add(phGraphNode, hGraph, dependencies, numDependencies, generic_params(&p, nodeParams), &p);
    if (r == CUDA_SUCCESS && nodeParams->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) nodeParams->alloc.dptr = p.dptr;
    if (r == CUDA_SUCCESS && nodeParams->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
        nodeParams->conditional.phGraph_out = (CUgraph *)p.bodies;
    return r;
}

CD_EXPORT CUresult cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out, CUgraph hGraph, CUcontext ctx,
                                                  unsigned int defaultLaunchValue, unsigned int flags) {
    (void)ctx;
    uint64_t h = 0;
    CUresult r = (CUresult)pg_cond_create(G(hGraph), defaultLaunchValue, flags, pHandle_out ? &h : NULL);
    if (r == CUDA_SUCCESS) *pHandle_out = h;
    return r;
}

/* ---- structure ---- */

CD_EXPORT CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes) {
    return (CUresult)pg_nodes(G(hGraph), (ptxi_gnode **)nodes, numNodes);
}

CD_EXPORT CUresult cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes) {
    return (CUresult)pg_roots(G(hGraph), (ptxi_gnode **)rootNodes, numRootNodes);
}

CD_EXPORT CUresult cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edgeData,
                                   size_t *numEdges) {
    size_t want = numEdges ? *numEdges : 0;
    CUresult r = (CUresult)pg_edges(G(hGraph), (ptxi_gnode **)from, (ptxi_gnode **)to, numEdges);
    if (r == CUDA_SUCCESS && from && edgeData) memset(edgeData, 0, want * sizeof *edgeData);
    return r;
}

static CUresult deps(CUgraphNode node, CUgraphNode *out, CUgraphEdgeData *edgeData, size_t *n, bool dependents) {
    size_t want = n ? *n : 0;
    CUresult r = (CUresult)pg_deps(N(node), (ptxi_gnode **)out, n, dependents);
    if (r == CUDA_SUCCESS && out && edgeData) memset(edgeData, 0, want * sizeof *edgeData);
    return r;
}

CD_EXPORT CUresult cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies, CUgraphEdgeData *edgeData,
                                              size_t *numDependencies) {
    return deps(hNode, dependencies, edgeData, numDependencies, false);
}

CD_EXPORT CUresult cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes,
                                                CUgraphEdgeData *edgeData, size_t *numDependentNodes) {
    return deps(hNode, dependentNodes, edgeData, numDependentNodes, true);
}

CD_EXPORT CUresult cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                          const CUgraphEdgeData *edgeData, size_t numDependencies) {
    (void)edgeData;
    return (CUresult)pg_link(G(hGraph), (ptxi_gnode *const *)from, (ptxi_gnode *const *)to, numDependencies, true);
}

CD_EXPORT CUresult cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                             const CUgraphEdgeData *edgeData, size_t numDependencies) {
    (void)edgeData;
    return (CUresult)pg_link(G(hGraph), (ptxi_gnode *const *)from, (ptxi_gnode *const *)to, numDependencies, false);
}

CD_EXPORT CUresult cuGraphDestroyNode(CUgraphNode hNode) { return (CUresult)pg_destroy_node(N(hNode)); }

CD_EXPORT CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type) {
    if (!type || !pg_is_node(N(hNode))) return CUDA_ERROR_INVALID_VALUE;
    *type = (CUgraphNodeType)N(hNode)->type;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph) {
    return (CUresult)pg_clone(G(originalGraph), (ptxi_graph **)phGraphClone);
}

CD_EXPORT CUresult cuGraphNodeFindInClone(CUgraphNode *phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph) {
    if (!phNode || !hOriginalNode) return CUDA_ERROR_INVALID_VALUE;
    ptxi_gnode *n = pg_find_in_clone(G(hClonedGraph), N(hOriginalNode));
    if (!n) return CUDA_ERROR_INVALID_VALUE;
    *phNode = (CUgraphNode)n;
    return CUDA_SUCCESS;
}

/* ---- node parameters ---- */

static ptxi_gnode *typed(CUgraphNode node, int type) {
    return pg_is_node(N(node)) && N(node)->type == type ? N(node) : NULL;
}

static CUresult set_node(CUgraphNode node, CUresult made, pg_params *p) {
    return made != CUDA_SUCCESS ? made : (CUresult)pg_set_params(N(node), p);
}

static CUresult set_exec(CUgraphExec x, CUgraphNode node, CUresult made, pg_params *p) {
    return made != CUDA_SUCCESS ? made : (CUresult)pg_exec_set_params(X(x), N(node), p);
}

CD_EXPORT CUresult cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams) {
    ptxi_gnode *n = typed(hNode, PG_KERNEL);
    if (!n || !nodeParams) return CUDA_ERROR_INVALID_VALUE;
    const pg_kernel *k = &n->kernel;
    memset(nodeParams, 0, sizeof *nodeParams);
    nodeParams->func = (CUfunction)k->k;
    nodeParams->gridDimX = k->grid.x, nodeParams->gridDimY = k->grid.y, nodeParams->gridDimZ = k->grid.z;
    nodeParams->blockDimX = k->block.x, nodeParams->blockDimY = k->block.y, nodeParams->blockDimZ = k->block.z;
    nodeParams->sharedMemBytes = k->shared;
    nodeParams->kernelParams = k->args;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams) {
    pg_params p = {0};
    return set_node(hNode, kernel_v2(&p, nodeParams), &p);
}

CD_EXPORT CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams) {
    ptxi_gnode *n = typed(hNode, PG_MEMCPY);
    if (!n || !nodeParams) return CUDA_ERROR_INVALID_VALUE;
    const pg_copy *c = &n->copy;
    memset(nodeParams, 0, sizeof *nodeParams);
    bool sd = c->kind == PG_D2H || c->kind == PG_D2D, dd = c->kind == PG_H2D || c->kind == PG_D2D;
    if (c->kind == PG_DEFAULT) nodeParams->srcMemoryType = nodeParams->dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    else {
        nodeParams->srcMemoryType = sd ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
        nodeParams->dstMemoryType = dd ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
    }
    nodeParams->srcHost = c->src, nodeParams->srcDevice = (CUdeviceptr)(uintptr_t)c->src;
    nodeParams->dstHost = c->dst, nodeParams->dstDevice = (CUdeviceptr)(uintptr_t)c->dst;
    nodeParams->srcPitch = c->spitch, nodeParams->srcHeight = c->sheight;
    nodeParams->dstPitch = c->dpitch, nodeParams->dstHeight = c->dheight;
    nodeParams->srcXInBytes = c->sx, nodeParams->srcY = c->sy, nodeParams->srcZ = c->sz;
    nodeParams->dstXInBytes = c->dx, nodeParams->dstY = c->dy, nodeParams->dstZ = c->dz;
    nodeParams->WidthInBytes = c->width, nodeParams->Height = c->height, nodeParams->Depth = c->depth;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams) {
    pg_params p = {0};
    return set_node(hNode, copy_params(&p, nodeParams), &p);
}

CD_EXPORT CUresult cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams) {
    ptxi_gnode *n = typed(hNode, PG_MEMSET);
    if (!n || !nodeParams) return CUDA_ERROR_INVALID_VALUE;
    *nodeParams = (CUDA_MEMSET_NODE_PARAMS){n->set.dst,  n->set.pitch, n->set.value,
                                            n->set.elem, n->set.width, n->set.height};
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuGraphMemsetNodeSetParams(CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams) {
    pg_params p = {0};
    return set_node(hNode, set_params(&p, nodeParams), &p);
}

CD_EXPORT CUresult cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams) {
    ptxi_gnode *n = typed(hNode, PG_HOST);
    if (!n || !nodeParams) return CUDA_ERROR_INVALID_VALUE;
    *nodeParams = (CUDA_HOST_NODE_PARAMS){n->host.fn, n->host.user};
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams) {
    pg_params p = {0};
    return set_node(hNode, host_params(&p, nodeParams), &p);
}

CD_EXPORT CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph) {
    ptxi_gnode *n = typed(hNode, PG_GRAPH);
    if (!n || !phGraph) return CUDA_ERROR_INVALID_VALUE;
    *phGraph = (CUgraph)n->child;
    return CUDA_SUCCESS;
}

static CUresult get_event(CUgraphNode node, int type, CUevent *out) {
    ptxi_gnode *n = typed(node, type);
    if (!n || !out) return CUDA_ERROR_INVALID_VALUE;
    *out = (CUevent)n->event;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out) {
    return get_event(hNode, PG_EVENT_RECORD, event_out);
}
CD_EXPORT CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event) {
    pg_params p = {.type = PG_EVENT_RECORD, .event = (ptxi_event *)event};
    return set_node(hNode, CUDA_SUCCESS, &p);
}
CD_EXPORT CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out) {
    return get_event(hNode, PG_WAIT_EVENT, event_out);
}
CD_EXPORT CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event) {
    pg_params p = {.type = PG_WAIT_EVENT, .event = (ptxi_event *)event};
    return set_node(hNode, CUDA_SUCCESS, &p);
}
CD_EXPORT CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event) {
    pg_params p = {.type = PG_EVENT_RECORD, .event = (ptxi_event *)event};
    return set_exec(hGraphExec, hNode, CUDA_SUCCESS, &p);
}
CD_EXPORT CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event) {
    pg_params p = {.type = PG_WAIT_EVENT, .event = (ptxi_event *)event};
    return set_exec(hGraphExec, hNode, CUDA_SUCCESS, &p);
}

CD_EXPORT CUresult cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS *params_out) {
    ptxi_gnode *n = typed(hNode, PG_MEM_ALLOC);
    if (!n || !params_out) return CUDA_ERROR_INVALID_VALUE;
    memset(params_out, 0, sizeof *params_out);
    params_out->poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    params_out->poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    params_out->bytesize = n->block->size;
    params_out->dptr = n->block->p;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out) {
    ptxi_gnode *n = typed(hNode, PG_MEM_FREE);
    if (!n || !dptr_out) return CUDA_ERROR_INVALID_VALUE;
    *dptr_out = n->free_ptr;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams) {
    pg_params p = {0};
    return set_node(hNode, generic_params(&p, nodeParams), &p);
}

/* ---- graph memory ---- */

CD_EXPORT CUresult cuDeviceGraphMemTrim(CUdevice device) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (device != 0) return CUDA_ERROR_INVALID_DEVICE;
    return (CUresult)pg_mem_trim();
}

CD_EXPORT CUresult cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (device != 0) return CUDA_ERROR_INVALID_DEVICE;
    if (!value) return CUDA_ERROR_INVALID_VALUE;
    uint64_t v = 0;
    CUresult r = (CUresult)pg_mem_attribute((int)attr, &v, 0);
    if (r == CUDA_SUCCESS) *(cuuint64_t *)value = v;
    return r;
}

CD_EXPORT CUresult cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (device != 0) return CUDA_ERROR_INVALID_DEVICE;
    if (!value) return CUDA_ERROR_INVALID_VALUE;
    return (CUresult)pg_mem_attribute((int)attr, (uint64_t *)value, 1);
}

/* ---- executable graphs ---- */

CD_EXPORT CUresult cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (flags & ~(unsigned long long)(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
                                      CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD | CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |
                                      CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY))
        return CUDA_ERROR_INVALID_VALUE;
    return (CUresult)pg_instantiate(G(hGraph), flags, (ptxi_gexec **)phGraphExec, NULL);
}

CD_EXPORT CUresult cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph,
                                                CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams) {
    if (!instantiateParams) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cuGraphInstantiate(phGraphExec, hGraph, instantiateParams->flags);
    instantiateParams->hErrNode_out = NULL;
    instantiateParams->result_out = r == CUDA_SUCCESS ? CUDA_GRAPH_INSTANTIATE_SUCCESS : CUDA_GRAPH_INSTANTIATE_ERROR;
    return r;
}

CD_EXPORT CUresult cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t *flags) {
    if (!flags || !pg_is_exec(X(hGraphExec))) return CUDA_ERROR_INVALID_VALUE;
    *flags = pg_exec_flags(X(hGraphExec));
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuGraphExecDestroy(CUgraphExec hGraphExec) { return (CUresult)pg_exec_destroy(X(hGraphExec)); }

CD_EXPORT CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream) {
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    return pg_is_exec(X(hGraphExec)) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CD_EXPORT CUresult cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                  const CUDA_KERNEL_NODE_PARAMS *nodeParams) {
    pg_params p = {0};
    return set_exec(hGraphExec, hNode, kernel_v2(&p, nodeParams), &p);
}

CD_EXPORT CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                  const CUDA_MEMCPY3D *copyParams, CUcontext ctx) {
    (void)ctx;
    pg_params p = {0};
    return set_exec(hGraphExec, hNode, copy_params(&p, copyParams), &p);
}

CD_EXPORT CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                  const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx) {
    (void)ctx;
    pg_params p = {0};
    return set_exec(hGraphExec, hNode, set_params(&p, memsetParams), &p);
}

CD_EXPORT CUresult cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_HOST_NODE_PARAMS *nodeParams) {
    pg_params p = {0};
    return set_exec(hGraphExec, hNode, host_params(&p, nodeParams), &p);
}

CD_EXPORT CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraph childGraph) {
    return (CUresult)pg_exec_child(X(hGraphExec), N(hNode), G(childGraph));
}

CD_EXPORT CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams) {
    if (nodeParams && nodeParams->type == CU_GRAPH_NODE_TYPE_GRAPH)
        return (CUresult)pg_exec_child(X(hGraphExec), N(hNode), G(nodeParams->graph.graph));
    pg_params p = {0};
    return set_exec(hGraphExec, hNode, generic_params(&p, nodeParams), &p);
}

CD_EXPORT CUresult cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled) {
    return (CUresult)pg_exec_enable(X(hGraphExec), N(hNode), 1, &isEnabled);
}

CD_EXPORT CUresult cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled) {
    if (!isEnabled) return CUDA_ERROR_INVALID_VALUE;
    return (CUresult)pg_exec_enable(X(hGraphExec), N(hNode), 0, isEnabled);
}

CD_EXPORT CUresult cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo) {
    int result = 0;
    ptxi_gnode *bad = NULL, *from = NULL;
    CUresult r = (CUresult)pg_exec_update(X(hGraphExec), G(hGraph), &result, &bad, &from);
    if (resultInfo) {
        resultInfo->result = (CUgraphExecUpdateResult)result;
        resultInfo->errorNode = (CUgraphNode)bad;
        resultInfo->errorFromNode = (CUgraphNode)from;
    }
    return r;
}

static int launch_kernel(const pg_kernel *k, ptxi_stream *s) {
    ptxi_status st = ptxi_launch_ex(k->k, k->grid, k->block, k->shared, s, k->args, 0);
    if (st != PTXI_SUCCESS && ptxi_error_is_sticky(st)) return CUDA_SUCCESS; /* the next call reports it */
    return (int)cd_map(st);
}

static int launch_status(ptxi_status st) { return (int)cd_map(st); }

CD_EXPORT CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream) {
    CD_CTX(ctx);
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    if (!pg_is_exec(X(hGraphExec))) return CUDA_ERROR_INVALID_VALUE;
    if (s && pg_capturing(s)) { /* refused, and the capture invalidated, as CUDA 13 does */
        pg_capture_invalidate(s);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    ptxi_stream_run_host_fns(ctx, s, UINT64_MAX);
    static const pg_ops ops = {launch_kernel, launch_status};
    return (CUresult)pg_launch(X(hGraphExec), s ? ptxi_stream_ctx(s) : ctx, s, &ops);
}

CD_EXPORT CUresult cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                                 const CUkernelNodeAttrValue *value) {
    return (CUresult)pg_kernel_attr(N(hNode), (int)attr, (void *)value, sizeof *value, 1);
}

CD_EXPORT CUresult cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                                 CUkernelNodeAttrValue *value_out) {
    return (CUresult)pg_kernel_attr(N(hNode), (int)attr, value_out, sizeof *value_out, 0);
}

CD_EXPORT CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src) {
    return (CUresult)pg_kernel_attrs_copy(N(dst), N(src));
}

CD_EXPORT CUresult cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy,
                                      unsigned int initialRefcount, unsigned int flags) {
    return (CUresult)pg_uobj_create((pg_uobj **)object_out, ptr, destroy, initialRefcount, flags);
}

CD_EXPORT CUresult cuUserObjectRetain(CUuserObject object, unsigned int count) {
    return (CUresult)pg_uobj_retain((pg_uobj *)object, count);
}

CD_EXPORT CUresult cuUserObjectRelease(CUuserObject object, unsigned int count) {
    return (CUresult)pg_uobj_release((pg_uobj *)object, count);
}

CD_EXPORT CUresult cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count, unsigned int flags) {
    return (CUresult)pg_graph_retain(G(graph), (pg_uobj *)object, count, flags);
}

CD_EXPORT CUresult cuGraphReleaseUserObject(CUgraph graph, CUuserObject object, unsigned int count) {
    return (CUresult)pg_graph_release(G(graph), (pg_uobj *)object, count);
}

CD_EXPORT CUresult cuGraphDebugDotPrint(CUgraph hGraph, const char *path, unsigned int flags) {
    (void)flags;
    return (CUresult)pg_dot(G(hGraph), path);
}

/* ---- stream capture ---- */

static CUresult begin(CUstream hStream, CUgraph into, const CUgraphNode *deps, size_t ndeps, CUstreamCaptureMode mode) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    if (!s) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    return (CUresult)pg_capture_begin(s, (int)mode, G(into), (ptxi_gnode *const *)deps, ndeps);
}

CD_EXPORT CUresult cuStreamBeginCapture(CUstream hStream, CUstreamCaptureMode mode) {
    return begin(hStream, NULL, NULL, 0, mode);
}

CD_EXPORT CUresult cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
                                               const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                               CUstreamCaptureMode mode) {
    (void)dependencyData;
    if (!hGraph) return CUDA_ERROR_INVALID_VALUE;
    return begin(hStream, hGraph, dependencies, numDependencies, mode);
}

CD_EXPORT CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph) {
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    if (!s) return phGraph ? CUDA_ERROR_ILLEGAL_STATE : CUDA_ERROR_INVALID_VALUE;
    return (CUresult)pg_capture_end(s, (ptxi_graph **)phGraph);
}

CD_EXPORT CUresult cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode *dependencies,
                                                     const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                                     unsigned int flags) {
    (void)dependencyData;
    ptxi_stream *s;
    if (!cd_stream(hStream, &s)) return CUDA_ERROR_INVALID_HANDLE;
    if (flags > CU_STREAM_SET_CAPTURE_DEPENDENCIES) return CUDA_ERROR_INVALID_VALUE;
    return (CUresult)pg_capture_update_deps(s, (ptxi_gnode *const *)dependencies, numDependencies,
                                            flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES);
}

/* Work issued on a capturing stream becomes a node (memory.c, launch.c, stream.c). */
bool cd_capturing(ptxi_stream *s) { return s && pg_capturing(s); }

int cd_capture_record(ptxi_event *e, ptxi_stream *s) { return s ? pg_capture_record(e, s) : -1; }

int cd_capture_wait(ptxi_stream *s, ptxi_event *e) { return s ? pg_capture_wait(s, e) : -1; }

void cd_capture_info(ptxi_stream *s, int *status, cuuint64_t *id, CUgraph *graph, const CUgraphNode **deps,
                     size_t *ndeps) {
    uint64_t cid = 0;
    int st = 0;
    pg_capture_info(s, &st, &cid, (ptxi_graph **)graph, (ptxi_gnode *const **)deps, ndeps);
    if (status) *status = st;
    if (id && st) *id = cid;
}

int cd_graph_mem_free(CUdeviceptr p) { return pg_mem_free(p); }

static CUresult cd_capture(ptxi_stream *s, pg_params *p) { return (CUresult)pg_capture_add(s, p, NULL); }

CUresult cd_capture_kernel(ptxi_stream *s, ptxi_kernel *k, ptxi_dim3 g, ptxi_dim3 b, unsigned shared, void **args) {
    pg_params p = {.type = PG_KERNEL};
    p.kernel = (pg_kernel){k, k, g, b, shared, args, 0};
    return cd_capture(s, &p);
}

CUresult cd_capture_copy(ptxi_stream *s, void *dst, const void *src, size_t n, int kind) {
    pg_params p = {.type = PG_MEMCPY};
    p.copy = (pg_copy){src, dst, n, 1, n, 1, 0, 0, 0, 0, 0, 0, n, 1, 1, kind};
    return cd_capture(s, &p);
}

CUresult cd_capture_set(ptxi_stream *s, CUdeviceptr dst, size_t pitch, unsigned value, unsigned elem, size_t w,
                        size_t h) {
    pg_params p = {.type = PG_MEMSET};
    p.set = (pg_set){dst, pitch ? pitch : w * elem, value, elem, w, h};
    return cd_capture(s, &p);
}

CUresult cd_capture_copy3d(ptxi_stream *s, const CUDA_MEMCPY3D *c) {
    pg_params p = {0};
    CUresult r = copy_params(&p, c);
    return r == CUDA_SUCCESS ? cd_capture(s, &p) : r;
}

CUresult cd_capture_refuse(ptxi_stream *s) {
    pg_capture_invalidate(s);
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

CUresult cd_capture_host(ptxi_stream *s, void (*fn)(void *), void *user) {
    pg_params p = {.type = PG_HOST, .host = {fn, user}};
    return cd_capture(s, &p);
}

CUresult cd_capture_alloc(ptxi_stream *s, CUdeviceptr *dptr, size_t bytes) {
    if (!dptr || !bytes) return CUDA_ERROR_INVALID_VALUE;
    pg_params p = {.type = PG_MEM_ALLOC, .bytes = bytes, .ctx = ptxi_stream_ctx(s)};
    CUresult r = cd_capture(s, &p);
    if (r == CUDA_SUCCESS) *dptr = p.dptr;
    return r;
}

CUresult cd_capture_free(ptxi_stream *s, CUdeviceptr dptr) {
    pg_params p = {.type = PG_MEM_FREE, .dptr = dptr};
    return cd_capture(s, &p);
}

CD_ALIAS(cuGraphLaunch_ptsz, cuGraphLaunch);
CD_ALIAS(cuGraphUpload_ptsz, cuGraphUpload);
CD_ALIAS(cuGraphInstantiateWithParams_ptsz, cuGraphInstantiateWithParams);
CD_ALIAS(cuStreamBeginCapture_v2_ptsz, cuStreamBeginCapture_v2);
CD_ALIAS(cuStreamBeginCaptureToGraph_ptsz, cuStreamBeginCaptureToGraph);
CD_ALIAS(cuStreamEndCapture_ptsz, cuStreamEndCapture);
CD_ALIAS(cuStreamUpdateCaptureDependencies_v2_ptsz, cuStreamUpdateCaptureDependencies_v2);
