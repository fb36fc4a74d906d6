/* graph.c — CUDA graphs in the runtime API: the runtime's parameter structures turned
 * into libptxi's graphs (runtime/pgraph.c, shared with libcuda) and back; stream
 * capture of the runtime's work. */
#include <stdlib.h>
#include <string.h>

#include "cudart_internal.h"
#include "pgraph.h"

#define G(g) ((ptxi_graph *)(g))
#define N(n) ((ptxi_gnode *)(n))
#define X(x) ((ptxi_gexec *)(x))

static cudaError_t ret(int e) { return e == PG_OK ? cudaSuccess : cr_ret((cudaError_t)e); }

static cudaError_t capture(cudaStream_t s, int made, pg_params *p, ptxi_gnode **out);

/* ---- the runtime's parameters ---- */

static int kernel_params(pg_params *p, const void *func, dim3 g, dim3 b, unsigned shared, void **args, void **extra) {
    if (extra) return cudaErrorInvalidValue;
    p->type = PG_KERNEL;
    cudaError_t e = cr_kernel_of(func, &p->kernel.k);
    if (e != cudaSuccess) return e;
    p->kernel.func = func;
    p->kernel.grid = (ptxi_dim3){g.x, g.y, g.z};
    p->kernel.block = (ptxi_dim3){b.x, b.y, b.z};
    p->kernel.shared = shared;
    p->kernel.args = args;
    return PG_OK;
}

static int kernel_v1(pg_params *pp, const struct cudaKernelNodeParams *p) {
    if (!p) return cudaErrorInvalidValue;
    return kernel_params(pp, p->func, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams, p->extra);
}

static int copy_params(pg_params *p, const struct cudaMemcpy3DParms *c) {
    if (!c) return cudaErrorInvalidValue;
    if (c->srcArray || c->dstArray) return cudaErrorNotSupported; /* arrays: not in graphs */
    if (!c->srcPtr.ptr || !c->dstPtr.ptr || (unsigned)c->kind > cudaMemcpyDefault) return cudaErrorInvalidValue;
    p->type = PG_MEMCPY;
    p->copy = (pg_copy){c->srcPtr.ptr,   c->dstPtr.ptr,    c->srcPtr.pitch, c->srcPtr.ysize,
                        c->dstPtr.pitch, c->dstPtr.ysize,  c->srcPos.x,     c->srcPos.y,
                        c->srcPos.z,     c->dstPos.x,      c->dstPos.y,     c->dstPos.z,
                        c->extent.width, c->extent.height, c->extent.depth, (int)c->kind};
    return PG_OK;
}

static int copy1d_params(pg_params *p, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    struct cudaMemcpy3DParms c = {0};
    c.srcPtr = (struct cudaPitchedPtr){(void *)src, count, count, 1};
    c.dstPtr = (struct cudaPitchedPtr){dst, count, count, 1};
    c.extent = (struct cudaExtent){count, 1, 1};
    c.kind = kind;
    return copy_params(p, &c);
}

static int set_params(pg_params *p, const struct cudaMemsetParams *s) {
    if (!s) return cudaErrorInvalidValue;
    p->type = PG_MEMSET;
    p->set = (pg_set){(ptxi_dptr)(uintptr_t)s->dst, s->pitch, s->value, s->elementSize, s->width, s->height};
    if (s->height > 1 && s->pitch < s->width * s->elementSize) return cudaErrorInvalidValue;
    return PG_OK;
}

static int host_params(pg_params *p, const struct cudaHostNodeParams *h) {
    if (!h) return cudaErrorInvalidValue;
    p->type = PG_HOST;
    p->host = (pg_host){h->fn, h->userData};
    return PG_OK;
}

static int alloc_params(pg_params *p, const struct cudaMemPoolProps *props, size_t bytes) {
    if (props && (props->allocType != cudaMemAllocationTypePinned ||
                  props->location.type != cudaMemLocationTypeDevice || props->location.id != 0))
        return cudaErrorInvalidValue;
    p->type = PG_MEM_ALLOC;
    p->bytes = bytes;
    p->ctx = cr_ctx();
    return PG_OK;
}

/* cudaGraphAddNode's parameters; the conditional node's bodies come back in np. */
static int generic_params(pg_params *p, struct cudaGraphNodeParams *np) {
    if (!np) return cudaErrorInvalidValue;
    switch (np->type) {
    case cudaGraphNodeTypeKernel: {
        const struct cudaKernelNodeParamsV2 *k = &np->kernel;
        return kernel_params(p, k->func, k->gridDim, k->blockDim, k->sharedMemBytes, k->kernelParams, k->extra);
    }
    case cudaGraphNodeTypeMemcpy: return copy_params(p, &np->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        struct cudaMemsetParams s = {np->memset.dst,         np->memset.pitch, np->memset.value,
                                     np->memset.elementSize, np->memset.width, np->memset.height};
        return set_params(p, &s);
    }
    case cudaGraphNodeTypeHost: {
        struct cudaHostNodeParams h = {np->host.fn, np->host.userData};
        return host_params(p, &h);
    }
    case cudaGraphNodeTypeGraph:
        p->type = PG_GRAPH;
        p->child = G(np->graph.graph);
        return PG_OK;
    case cudaGraphNodeTypeEmpty: p->type = PG_EMPTY; return PG_OK;
    case cudaGraphNodeTypeWaitEvent:
        p->type = PG_WAIT_EVENT;
        p->event = (ptxi_event *)np->eventWait.event;
        return PG_OK;
    case cudaGraphNodeTypeEventRecord:
        p->type = PG_EVENT_RECORD;
        p->event = (ptxi_event *)np->eventRecord.event;
        return PG_OK;
    case cudaGraphNodeTypeMemAlloc: return alloc_params(p, &np->alloc.poolProps, np->alloc.bytesize);
    case cudaGraphNodeTypeMemFree:
        p->type = PG_MEM_FREE;
        p->dptr = (ptxi_dptr)(uintptr_t)np->free.dptr;
        return PG_OK;
    case cudaGraphNodeTypeConditional:
        p->type = PG_CONDITIONAL;
        p->handle = np->conditional.handle;
        p->cond_type = (int)np->conditional.type;
        p->cond_size = np->conditional.size;
        return PG_OK;
    default: return cudaErrorNotSupported;
    }
}

static cudaError_t add(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, int made,
                       pg_params *p) {
    if (made != PG_OK) return ret(made);
    if (!out) return cr_ret(cudaErrorInvalidValue);
    ptxi_gnode *n = NULL;
    int e = pg_add(G(g), (ptxi_gnode *const *)deps, ndeps, p, &n);
    if (e == PG_OK) *out = (cudaGraphNode_t)n;
    return ret(e);
}

/* A copy to or from a variable: its device address, offset bytes in. */
static int symbol_params(pg_params *p, void *dst, const void *src, const void *symbol, bool to, size_t count,
                         size_t offset, enum cudaMemcpyKind kind) {
    void *base = NULL;
    size_t size = 0;
    if (cudaGetSymbolAddress(&base, symbol) != cudaSuccess || cudaGetSymbolSize(&size, symbol) != cudaSuccess) {
        cudaGetLastError();
        return cudaErrorInvalidSymbol;
    }
    if (offset > size || count > size - offset) return cudaErrorInvalidValue;
    if (to ? kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyHostToHost
           : kind == cudaMemcpyHostToDevice || kind == cudaMemcpyHostToHost)
        return cudaErrorInvalidMemcpyDirection;
    char *at = (char *)base + offset;
    return to ? copy1d_params(p, at, src, count, kind) : copy1d_params(p, dst, at, count, kind);
}

/* Sets a node's (or an executable graph's node's) parameters made into pp. */
static cudaError_t set_node(cudaGraphNode_t node, int made, pg_params *pp) {
    return ret(made == PG_OK ? pg_set_params(N(node), pp) : made);
}

static cudaError_t set_exec(cudaGraphExec_t x, cudaGraphNode_t node, int made, pg_params *pp) {
    return ret(made == PG_OK ? pg_exec_set_params(X(x), N(node), pp) : made);
}

/* ---- building ---- */

CR_EXPORT cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
    if (!pGraph || flags) return cr_ret(cudaErrorInvalidValue);
    return ret(pg_create((ptxi_graph **)pGraph));
}

CR_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph) { return ret(pg_destroy(G(graph))); }

CR_EXPORT cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaKernelNodeParams *p) {
    CR_ENTER();
    pg_params pp = {0};
    int made = kernel_v1(&pp, p);
    return add(pGraphNode, graph, pDependencies, numDependencies, made, &pp);
}

CR_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                               const void *src, size_t count, enum cudaMemcpyKind kind) {
    pg_params pp = {0};
    return add(pGraphNode, graph, pDependencies, numDependencies, copy1d_params(&pp, dst, src, count, kind), &pp);
}

CR_EXPORT cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemcpy3DParms *pCopyParams) {
    pg_params pp = {0};
    return add(pGraphNode, graph, pDependencies, numDependencies, copy_params(&pp, pCopyParams), &pp);
}

CR_EXPORT cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemsetParams *pMemsetParams) {
    pg_params pp = {0};
    return add(pGraphNode, graph, pDependencies, numDependencies, set_params(&pp, pMemsetParams), &pp);
}

CR_EXPORT cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                           const struct cudaHostNodeParams *pNodeParams) {
    pg_params pp = {0};
    return add(pGraphNode, graph, pDependencies, numDependencies, host_params(&pp, pNodeParams), &pp);
}

CR_EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies, size_t numDependencies) {
    pg_params pp = {.type = PG_EMPTY};
    return add(pGraphNode, graph, pDependencies, numDependencies, PG_OK, &pp);
}

CR_EXPORT cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                 cudaGraph_t childGraph) {
    pg_params pp = {.type = PG_GRAPH, .child = G(childGraph)};
    return add(pGraphNode, graph, pDependencies, numDependencies, PG_OK, &pp);
}

CR_EXPORT cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                  cudaEvent_t event) {
    pg_params pp = {.type = PG_EVENT_RECORD, .event = (ptxi_event *)event};
    return add(pGraphNode, graph, pDependencies, numDependencies, PG_OK, &pp);
}

CR_EXPORT cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                cudaEvent_t event) {
    pg_params pp = {.type = PG_WAIT_EVENT, .event = (ptxi_event *)event};
    return add(pGraphNode, graph, pDependencies, numDependencies, PG_OK, &pp);
}

CR_EXPORT cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                               struct cudaMemAllocNodeParams *nodeParams) {
    CR_ENTER();
    pg_params pp = {0};
    int made = nodeParams ? alloc_params(&pp, &nodeParams->poolProps, nodeParams->bytesize) : cudaErrorInvalidValue;
    cudaError_t e = add(pGraphNode, graph, pDependencies, numDependencies, made, &pp);
    if (e == cudaSuccess) nodeParams->dptr = (void *)(uintptr_t)pp.dptr;
    return e;
}

CR_EXPORT cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                              void *dptr) {
    pg_params pp = {.type = PG_MEM_FREE, .dptr = (ptxi_dptr)(uintptr_t)dptr};
    return add(pGraphNode, graph, pDependencies, numDependencies, PG_OK, &pp);
}

CR_EXPORT cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData,
                                       size_t numDependencies, struct cudaGraphNodeParams *nodeParams) {
    CR_ENTER();
    for (size_t i = 0; dependencyData && i < numDependencies; i++)
        if (dependencyData[i].from_port || dependencyData[i].to_port || dependencyData[i].type)
            return cr_ret(cudaErrorNotSupported);
    pg_params pp = {0};
    cudaError_t e = add(pGraphNode, graph, pDependencies, numDependencies, generic_params(&pp, nodeParams), &pp);
    if (e == cudaSuccess && nodeParams->type == cudaGraphNodeTypeMemAlloc)
        nodeParams->alloc.dptr = (void *)(uintptr_t)pp.dptr;
    if (e == cudaSuccess && nodeParams->type == cudaGraphNodeTypeConditional)
        nodeParams->conditional.phGraph_out = (cudaGraph_t *)pp.bodies;
    return e;
}

CR_EXPORT cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                                       unsigned int defaultLaunchValue, unsigned int flags) {
    uint64_t h = 0;
    cudaError_t e = ret(pg_cond_create(G(graph), defaultLaunchValue, flags, pHandle_out ? &h : NULL));
    if (e == cudaSuccess) *pHandle_out = h;
    return e;
}

/* ---- structure ---- */

CR_EXPORT cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
    return ret(pg_nodes(G(graph), (ptxi_gnode **)nodes, numNodes));
}

CR_EXPORT cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes) {
    return ret(pg_roots(G(graph), (ptxi_gnode **)pRootNodes, pNumRootNodes));
}

static void no_edge_data(cudaGraphEdgeData *d, size_t n) {
    if (d) memset(d, 0, n * sizeof *d);
}

CR_EXPORT cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                        cudaGraphEdgeData *edgeData, size_t *numEdges) {
    size_t want = numEdges ? *numEdges : 0;
    cudaError_t e = ret(pg_edges(G(graph), (ptxi_gnode **)from, (ptxi_gnode **)to, numEdges));
    if (e == cudaSuccess && from) no_edge_data(edgeData, want);
    return e;
}

static cudaError_t deps(cudaGraphNode_t node, cudaGraphNode_t *out, cudaGraphEdgeData *edgeData, size_t *n,
                        bool dependents) {
    size_t want = n ? *n : 0;
    cudaError_t e = ret(pg_deps(N(node), (ptxi_gnode **)out, n, dependents));
    if (e == cudaSuccess && out) no_edge_data(edgeData, want);
    return e;
}

CR_EXPORT cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                   cudaGraphEdgeData *edgeData, size_t *pNumDependencies) {
    return deps(node, pDependencies, edgeData, pNumDependencies, false);
}

CR_EXPORT cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                                     cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes) {
    return deps(node, pDependentNodes, edgeData, pNumDependentNodes, true);
}

CR_EXPORT cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                               const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                               size_t numDependencies) {
    (void)edgeData;
    return ret(pg_link(G(graph), (ptxi_gnode *const *)from, (ptxi_gnode *const *)to, numDependencies, true));
}

CR_EXPORT cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                  const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                                  size_t numDependencies) {
    (void)edgeData;
    return ret(pg_link(G(graph), (ptxi_gnode *const *)from, (ptxi_gnode *const *)to, numDependencies, false));
}

CR_EXPORT cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) { return ret(pg_destroy_node(N(node))); }

CR_EXPORT cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType) {
    if (!pType || !pg_is_node(N(node))) return cr_ret(cudaErrorInvalidValue);
    *pType = (enum cudaGraphNodeType)N(node)->type;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph) {
    return ret(pg_clone(G(originalGraph), (ptxi_graph **)pGraphClone));
}

CR_EXPORT cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                               cudaGraph_t clonedGraph) {
    if (!pNode || !originalNode) return cr_ret(cudaErrorInvalidValue);
    ptxi_gnode *n = pg_find_in_clone(G(clonedGraph), N(originalNode));
    if (!n) return cr_ret(cudaErrorInvalidValue);
    *pNode = (cudaGraphNode_t)n;
    return cudaSuccess;
}

/* ---- node parameters ---- */

/* A node of the given type, else cudaErrorInvalidValue. */
static ptxi_gnode *typed(cudaGraphNode_t node, int type) {
    return pg_is_node(N(node)) && N(node)->type == type ? N(node) : NULL;
}

CR_EXPORT cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p) {
    ptxi_gnode *n = typed(node, PG_KERNEL);
    if (!n || !p) return cr_ret(cudaErrorInvalidValue);
    const pg_kernel *k = &n->kernel;
    *p = (struct cudaKernelNodeParams){(void *)k->func,
                                       (dim3){k->grid.x, k->grid.y, k->grid.z},
                                       (dim3){k->block.x, k->block.y, k->block.z},
                                       k->shared,
                                       k->args,
                                       NULL};
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *p) {
    CR_ENTER();
    pg_params pp = {0};
    return set_node(node, kernel_v1(&pp, p), &pp);
}

CR_EXPORT cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *p) {
    ptxi_gnode *n = typed(node, PG_MEMCPY);
    if (!n || !p) return cr_ret(cudaErrorInvalidValue);
    const pg_copy *c = &n->copy;
    memset(p, 0, sizeof *p);
    p->srcPtr = (struct cudaPitchedPtr){(void *)c->src, c->spitch, c->spitch, c->sheight};
    p->dstPtr = (struct cudaPitchedPtr){c->dst, c->dpitch, c->dpitch, c->dheight};
    p->srcPos = (struct cudaPos){c->sx, c->sy, c->sz};
    p->dstPos = (struct cudaPos){c->dx, c->dy, c->dz};
    p->extent = (struct cudaExtent){c->width, c->height, c->depth};
    p->kind = (enum cudaMemcpyKind)c->kind;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *p) {
    pg_params pp = {0};
    return set_node(node, copy_params(&pp, p), &pp);
}

CR_EXPORT cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count,
                                                     enum cudaMemcpyKind kind) {
    pg_params pp = {0};
    return set_node(node, copy1d_params(&pp, dst, src, count, kind), &pp);
}

CR_EXPORT cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *p) {
    ptxi_gnode *n = typed(node, PG_MEMSET);
    if (!n || !p) return cr_ret(cudaErrorInvalidValue);
    const pg_set *s = &n->set;
    *p = (struct cudaMemsetParams){(void *)(uintptr_t)s->dst, s->pitch, s->value, s->elem, s->width, s->height};
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *p) {
    pg_params pp = {0};
    return set_node(node, set_params(&pp, p), &pp);
}

CR_EXPORT cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *p) {
    ptxi_gnode *n = typed(node, PG_HOST);
    if (!n || !p) return cr_ret(cudaErrorInvalidValue);
    *p = (struct cudaHostNodeParams){n->host.fn, n->host.user};
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *p) {
    pg_params pp = {0};
    return set_node(node, host_params(&pp, p), &pp);
}

CR_EXPORT cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph) {
    ptxi_gnode *n = typed(node, PG_GRAPH);
    if (!n || !pGraph) return cr_ret(cudaErrorInvalidValue);
    *pGraph = (cudaGraph_t)n->child;
    return cudaSuccess;
}

static cudaError_t get_event(cudaGraphNode_t node, int type, cudaEvent_t *out) {
    ptxi_gnode *n = typed(node, type);
    if (!n || !out) return cr_ret(cudaErrorInvalidValue);
    *out = (cudaEvent_t)n->event;
    return cudaSuccess;
}

static cudaError_t set_event(cudaGraphExec_t x, cudaGraphNode_t node, int type, cudaEvent_t event) {
    pg_params pp = {.type = type, .event = (ptxi_event *)event};
    return ret(x ? pg_exec_set_params(X(x), N(node), &pp) : pg_set_params(N(node), &pp));
}

CR_EXPORT cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
    return get_event(node, PG_EVENT_RECORD, event_out);
}
CR_EXPORT cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
    return set_event(NULL, node, PG_EVENT_RECORD, event);
}
CR_EXPORT cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
    return get_event(node, PG_WAIT_EVENT, event_out);
}
CR_EXPORT cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
    return set_event(NULL, node, PG_WAIT_EVENT, event);
}
CR_EXPORT cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t x, cudaGraphNode_t node, cudaEvent_t event) {
    return set_event(x, node, PG_EVENT_RECORD, event);
}
CR_EXPORT cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t x, cudaGraphNode_t node, cudaEvent_t event) {
    return set_event(x, node, PG_WAIT_EVENT, event);
}

CR_EXPORT cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *p) {
    ptxi_gnode *n = typed(node, PG_MEM_ALLOC);
    if (!n || !p) return cr_ret(cudaErrorInvalidValue);
    memset(p, 0, sizeof *p);
    p->poolProps.allocType = cudaMemAllocationTypePinned;
    p->poolProps.location.type = cudaMemLocationTypeDevice;
    p->bytesize = n->block->size;
    p->dptr = (void *)(uintptr_t)n->block->p;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out) {
    ptxi_gnode *n = typed(node, PG_MEM_FREE);
    if (!n || !dptr_out) return cr_ret(cudaErrorInvalidValue);
    *(void **)dptr_out = (void *)(uintptr_t)n->free_ptr;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams) {
    CR_ENTER();
    pg_params pp = {0};
    return set_node(node, generic_params(&pp, nodeParams), &pp);
}

/* ---- executable graphs ---- */

CR_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags) {
    CR_ENTER();
    if (flags & ~(unsigned long long)(cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                                      cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUseNodePriority))
        return cr_ret(cudaErrorInvalidValue);
    return ret(pg_instantiate(G(graph), flags, (ptxi_gexec **)pGraphExec, NULL));
}

CR_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                    unsigned long long flags) {
    return cudaGraphInstantiate(pGraphExec, graph, flags);
}

CR_EXPORT cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                     cudaGraphInstantiateParams *p) {
    if (!p) return cr_ret(cudaErrorInvalidValue);
    cudaError_t e = cudaGraphInstantiate(pGraphExec, graph, p->flags);
    p->errNode_out = NULL;
    p->result_out = e == cudaSuccess ? cudaGraphInstantiateSuccess : cudaGraphInstantiateError;
    return e;
}

CR_EXPORT cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags) {
    if (!flags || !pg_is_exec(X(graphExec))) return cr_ret(cudaErrorInvalidValue);
    *flags = pg_exec_flags(X(graphExec));
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) { return ret(pg_exec_destroy(X(exec))); }

CR_EXPORT cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
    if (!pg_is_exec(X(graphExec))) return cr_ret(cudaErrorInvalidValue);
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                       const struct cudaKernelNodeParams *p) {
    CR_ENTER();
    pg_params pp = {0};
    return set_exec(exec, node, kernel_v1(&pp, p), &pp);
}

CR_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                       const struct cudaMemcpy3DParms *p) {
    pg_params pp = {0};
    return set_exec(exec, node, copy_params(&pp, p), &pp);
}

CR_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node, void *dst,
                                                         const void *src, size_t count, enum cudaMemcpyKind kind) {
    pg_params pp = {0};
    return set_exec(exec, node, copy1d_params(&pp, dst, src, count, kind), &pp);
}

CR_EXPORT cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                       const struct cudaMemsetParams *p) {
    pg_params pp = {0};
    return set_exec(exec, node, set_params(&pp, p), &pp);
}

CR_EXPORT cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                     const struct cudaHostNodeParams *p) {
    pg_params pp = {0};
    return set_exec(exec, node, host_params(&pp, p), &pp);
}

CR_EXPORT cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                           cudaGraph_t childGraph) {
    return ret(pg_exec_child(X(exec), N(node), G(childGraph)));
}

CR_EXPORT cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                 struct cudaGraphNodeParams *nodeParams) {
    CR_ENTER();
    if (nodeParams && nodeParams->type == cudaGraphNodeTypeGraph)
        return ret(pg_exec_child(X(exec), N(node), G(nodeParams->graph.graph)));
    pg_params pp = {0};
    return set_exec(exec, node, generic_params(&pp, nodeParams), &pp);
}

CR_EXPORT cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int isEnabled) {
    return ret(pg_exec_enable(X(exec), N(node), 1, &isEnabled));
}

CR_EXPORT cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int *isEnabled) {
    if (!isEnabled) return cr_ret(cudaErrorInvalidValue);
    return ret(pg_exec_enable(X(exec), N(node), 0, isEnabled));
}

CR_EXPORT cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                          cudaGraphExecUpdateResultInfo *info) {
    CR_ENTER();
    int result = 0;
    ptxi_gnode *bad = NULL, *from = NULL;
    int e = pg_exec_update(X(exec), G(graph), &result, &bad, &from);
    if (info) {
        info->result = (enum cudaGraphExecUpdateResult)result;
        info->errorNode = (cudaGraphNode_t)bad;
        info->errorFromNode = (cudaGraphNode_t)from;
    }
    return ret(e);
}

static _Thread_local cudaStream_t launching;

static int launch_kernel(const pg_kernel *k, ptxi_stream *s) {
    (void)s;
    return cr_launch(k->k, (dim3){k->grid.x, k->grid.y, k->grid.z}, (dim3){k->block.x, k->block.y, k->block.z}, k->args,
                     k->shared, launching);
}

static int launch_status(ptxi_status st) { return cr_st(st); }

CR_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
    CR_ENTER();
    if (!pg_is_exec(X(exec))) return cr_ret(cudaErrorInvalidValue);
    CR_STREAM_WORK(stream); /* in a capture: refused, and the capture invalidated, as CUDA 13 does */
    static const pg_ops ops = {launch_kernel, launch_status};
    cudaStream_t outer = launching;
    launching = stream;
    int e = pg_launch(X(exec), cr_ctx(), cr_stream(stream), &ops);
    launching = outer;
    return ret(e);
}

/* ---- graph memory ---- */

int cr_graph_mem_free(const void *p) { return pg_mem_free((ptxi_dptr)(uintptr_t)p); }

CR_EXPORT cudaError_t cudaDeviceGraphMemTrim(int device) {
    if (device != 0) return cr_ret(cudaErrorInvalidDevice);
    return ret(pg_mem_trim());
}

CR_EXPORT cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value) {
    if (device != 0) return cr_ret(cudaErrorInvalidDevice);
    if (!value) return cr_ret(cudaErrorInvalidValue);
    uint64_t v = 0;
    int e = pg_mem_attribute((int)attr, &v, 0);
    if (e == PG_OK) *(uint64_t *)value = v;
    return ret(e);
}

CR_EXPORT cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value) {
    if (device != 0) return cr_ret(cudaErrorInvalidDevice);
    if (!value) return cr_ret(cudaErrorInvalidValue);
    return ret(pg_mem_attribute((int)attr, (uint64_t *)value, 1));
}

/* ---- stream capture: work issued on a capturing stream becomes nodes ---- */

bool cr_capturing(cudaStream_t s) { return cr_stream_valid(s) && pg_capturing(cr_stream(s)); }

enum cudaStreamCaptureStatus cr_capture_status(cudaStream_t s) {
    int st = 0;
    if (cr_stream_valid(s)) pg_capture_info(cr_stream(s), &st, NULL, NULL, NULL, NULL);
    return (enum cudaStreamCaptureStatus)st;
}

cudaError_t cr_capture_refuse(cudaStream_t s) {
    pg_capture_invalidate(cr_stream(s));
    return cr_ret(cudaErrorStreamCaptureUnsupported);
}

static cudaError_t capture(cudaStream_t s, int made, pg_params *p, ptxi_gnode **out) {
    if (made != PG_OK) return ret(made);
    return ret(pg_capture_add(cr_stream(s), p, out));
}

cudaError_t cr_capture_kernel(ptxi_kernel *k, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s) {
    pg_params p = {.type = PG_KERNEL};
    p.kernel = (pg_kernel){k, NULL, {g.x, g.y, g.z}, {b.x, b.y, b.z}, (unsigned)shared, args, 0};
    return capture(s, PG_OK, &p, NULL);
}

cudaError_t cr_capture_copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t s) {
    pg_params p = {0};
    return capture(s, copy1d_params(&p, dst, src, count, kind), &p, NULL);
}

cudaError_t cr_capture_set(void *dst, int value, size_t count, cudaStream_t s) {
    struct cudaMemsetParams sp = {dst, count, (unsigned)(uint8_t)value, 1, count, 1};
    pg_params p = {0};
    return capture(s, set_params(&p, &sp), &p, NULL);
}

cudaError_t cr_capture_host(cudaHostFn_t fn, void *user, cudaStream_t s) {
    struct cudaHostNodeParams hp = {fn, user};
    pg_params p = {0};
    return capture(s, host_params(&p, &hp), &p, NULL);
}

cudaError_t cr_capture_copy3d(const struct cudaMemcpy3DParms *cp, cudaStream_t s) {
    pg_params p = {0};
    return capture(s, copy_params(&p, cp), &p, NULL);
}

cudaError_t cr_capture_set2d(void *dst, size_t pitch, int value, size_t width, size_t height, cudaStream_t s) {
    struct cudaMemsetParams sp = {dst, pitch, (unsigned)(uint8_t)value, 1, width, height};
    pg_params p = {0};
    return capture(s, set_params(&p, &sp), &p, NULL);
}

cudaError_t cr_capture_alloc(void **ptr, size_t size, cudaStream_t s) {
    if (!ptr || !size) return cr_ret(cudaErrorInvalidValue);
    pg_params p = {0};
    cudaError_t e = capture(s, alloc_params(&p, NULL, size), &p, NULL);
    if (e == cudaSuccess) *ptr = (void *)(uintptr_t)p.dptr;
    return e;
}

cudaError_t cr_capture_free(void *ptr, cudaStream_t s) {
    pg_params p = {.type = PG_MEM_FREE, .dptr = (ptxi_dptr)(uintptr_t)ptr};
    return capture(s, PG_OK, &p, NULL);
}

cudaError_t cr_capture_record(cudaEvent_t e, cudaStream_t s) {
    return ret(pg_capture_record((ptxi_event *)e, cr_stream(s)));
}

int cr_capture_wait(cudaStream_t s, cudaEvent_t e) { return pg_capture_wait(cr_stream(s), (ptxi_event *)e); }

static cudaError_t begin(cudaStream_t stream, cudaGraph_t into, const cudaGraphNode_t *deps, size_t ndeps,
                         enum cudaStreamCaptureMode mode) {
    CR_ENTER();
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    if ((uintptr_t)stream <= 2) return cr_ret(cudaErrorStreamCaptureUnsupported);
    return ret(pg_capture_begin(cr_stream(stream), (int)mode, G(into), (ptxi_gnode *const *)deps, ndeps));
}

CR_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
    return begin(stream, NULL, NULL, 0, mode);
}

CR_EXPORT cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                    const cudaGraphNode_t *dependencies,
                                                    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                    enum cudaStreamCaptureMode mode) {
    (void)dependencyData;
    if (!graph) return cr_ret(cudaErrorInvalidValue);
    return begin(stream, graph, dependencies, numDependencies, mode);
}

CR_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph) {
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    return ret(pg_capture_end(cr_stream(stream), (ptxi_graph **)pGraph));
}

CR_EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                               unsigned long long *id, cudaGraph_t *graph, const cudaGraphNode_t **deps,
                                               const cudaGraphEdgeData **edgeData, size_t *ndeps) {
    if (!status) return cr_ret(cudaErrorInvalidValue);
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    int st = 0;
    uint64_t cid = 0;
    pg_capture_info(cr_stream(stream), &st, &cid, (ptxi_graph **)graph, (ptxi_gnode *const **)deps, ndeps);
    *status = (enum cudaStreamCaptureStatus)st;
    if (id && st) *id = cid;
    if (edgeData && st) *edgeData = NULL;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                          const cudaGraphEdgeData *dependencyData,
                                                          size_t numDependencies, unsigned int flags) {
    (void)dependencyData;
    if (flags > cudaStreamSetCaptureDependencies) return cr_ret(cudaErrorInvalidValue);
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    return ret(pg_capture_update_deps(cr_stream(stream), (ptxi_gnode *const *)dependencies, numDependencies,
                                      flags == cudaStreamSetCaptureDependencies));
}

CR_ALIAS(cudaGraphLaunch_ptsz, cudaGraphLaunch);
CR_ALIAS(cudaGraphUpload_ptsz, cudaGraphUpload);
CR_ALIAS(cudaStreamBeginCapture_ptsz, cudaStreamBeginCapture);
CR_ALIAS(cudaStreamBeginCaptureToGraph_ptsz, cudaStreamBeginCaptureToGraph);
CR_ALIAS(cudaStreamEndCapture_ptsz, cudaStreamEndCapture);
CR_ALIAS(cudaStreamGetCaptureInfo_ptsz, cudaStreamGetCaptureInfo);
CR_ALIAS(cudaStreamUpdateCaptureDependencies_ptsz, cudaStreamUpdateCaptureDependencies);

CR_EXPORT cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                     const void *symbol, const void *src, size_t count, size_t offset,
                                                     enum cudaMemcpyKind kind) {
    CR_ENTER();
    pg_params pp = {0};
    int made = symbol_params(&pp, NULL, src, symbol, true, count, offset, kind);
    return add(pGraphNode, graph, pDependencies, numDependencies, made, &pp);
}

CR_EXPORT cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                       void *dst, const void *symbol, size_t count, size_t offset,
                                                       enum cudaMemcpyKind kind) {
    CR_ENTER();
    pg_params pp = {0};
    int made = symbol_params(&pp, dst, NULL, symbol, false, count, offset, kind);
    return add(pGraphNode, graph, pDependencies, numDependencies, made, &pp);
}

CR_EXPORT cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol, const void *src,
                                                           size_t count, size_t offset, enum cudaMemcpyKind kind) {
    CR_ENTER();
    pg_params pp = {0};
    return set_node(node, symbol_params(&pp, NULL, src, symbol, true, count, offset, kind), &pp);
}

CR_EXPORT cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst, const void *symbol,
                                                             size_t count, size_t offset, enum cudaMemcpyKind kind) {
    CR_ENTER();
    pg_params pp = {0};
    return set_node(node, symbol_params(&pp, dst, NULL, symbol, false, count, offset, kind), &pp);
}

CR_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                               const void *symbol, const void *src, size_t count,
                                                               size_t offset, enum cudaMemcpyKind kind) {
    CR_ENTER();
    pg_params pp = {0};
    return set_exec(exec, node, symbol_params(&pp, NULL, src, symbol, true, count, offset, kind), &pp);
}

CR_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t exec, cudaGraphNode_t node, void *dst,
                                                                 const void *symbol, size_t count, size_t offset,
                                                                 enum cudaMemcpyKind kind) {
    CR_ENTER();
    pg_params pp = {0};
    return set_exec(exec, node, symbol_params(&pp, dst, NULL, symbol, false, count, offset, kind), &pp);
}

CR_EXPORT cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                      const cudaKernelNodeAttrValue *value) {
    return ret(pg_kernel_attr(N(hNode), (int)attr, (void *)value, sizeof *value, 1));
}

CR_EXPORT cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                      cudaKernelNodeAttrValue *value_out) {
    return ret(pg_kernel_attr(N(hNode), (int)attr, value_out, sizeof *value_out, 0));
}

CR_EXPORT cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc) {
    return ret(pg_kernel_attrs_copy(N(hDst), N(hSrc)));
}

CR_EXPORT cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr, cudaHostFn_t destroy,
                                           unsigned int initialRefcount, unsigned int flags) {
    return ret(pg_uobj_create((pg_uobj **)object_out, ptr, destroy, initialRefcount, flags));
}

CR_EXPORT cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count) {
    return ret(pg_uobj_retain((pg_uobj *)object, count));
}

CR_EXPORT cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count) {
    return ret(pg_uobj_release((pg_uobj *)object, count));
}

CR_EXPORT cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count,
                                                unsigned int flags) {
    return ret(pg_graph_retain(G(graph), (pg_uobj *)object, count, flags));
}

CR_EXPORT cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count) {
    return ret(pg_graph_release(G(graph), (pg_uobj *)object, count));
}

CR_EXPORT cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags) {
    (void)flags;
    return ret(pg_dot(G(graph), path));
}

CR_ALIAS(cudaGraphInstantiateWithParams_ptsz, cudaGraphInstantiateWithParams);
