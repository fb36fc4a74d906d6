/* graph.c — CUDA graphs: built node by node or captured from a stream (kernels, 1D
 * copies, memsets, host functions, empty nodes), instantiated into an executable copy
 * in dependency order, and launched by running that order on a stream. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_internal.h"

struct CUgraphNode_st {
    enum cudaGraphNodeType type;
    size_t index;                   /* in its graph: an executable copy keeps it */
    const struct CUgraphNode_st *origin;   /* the node it was cloned from (cudaGraphClone) */
    struct CUgraphNode_st **deps;
    size_t ndeps;
    /* kernel */
    const void *func;               /* host stub, when known */
    ptxi_kernel *k;
    dim3 grid, block;
    unsigned shared;
    void **args;                    /* owned copies of the argument values */
    unsigned nargs;
    /* copy, set, host function */
    struct cudaMemcpy3DParms copy;
    struct cudaMemsetParams set;
    struct cudaHostNodeParams host;
};

typedef struct CUgraphNode_st node;

struct CUgraph_st {
    node **nodes;
    size_t n, cap;
};

struct CUgraphExec_st {
    node **by_index;                /* copies, indexed like the graph's nodes */
    size_t *order, n;
};

/* A stream being captured, and the node that work issued next depends on. */
typedef struct capture {
    cudaStream_t stream;
    cudaGraph_t graph;
    node *last;
    struct capture *next;
} capture;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static capture *captures;

static void free_node(node *n) {
    for (unsigned i = 0; i < n->nargs; i++) free(n->args[i]);
    free(n->args);
    free(n->deps);
    free(n);
}

/* The argument values, copied with the sizes the kernel's PTX gives them. */
static cudaError_t copy_args(node *n, void **args) {
    n->nargs = ptxi_kernel_param_count(n->k);
    n->args = calloc(n->nargs ? n->nargs : 1, sizeof *n->args);
    if (!n->args) return cudaErrorMemoryAllocation;
    for (unsigned i = 0; i < n->nargs; i++) {
        size_t size, align, offset;
        if (!args || !args[i] || ptxi_kernel_param_info(n->k, i, &size, &align, &offset) != PTXI_SUCCESS)
            return cudaErrorInvalidValue;
        if (!(n->args[i] = malloc(size ? size : 1))) return cudaErrorMemoryAllocation;
        memcpy(n->args[i], args[i], size);
    }
    return cudaSuccess;
}

static node *clone(const node *src) {
    node *n = malloc(sizeof *n);
    if (!n) return NULL;
    *n = *src;
    n->deps = NULL, n->ndeps = 0, n->args = NULL, n->nargs = 0;
    if (src->type == cudaGraphNodeTypeKernel && copy_args(n, src->args) != cudaSuccess) {
        free_node(n);
        return NULL;
    }
    return n;
}

/* Adds n to g after deps; takes n. */
static cudaError_t add(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, node *n) {
    if (!g || (ndeps && !deps)) {
        free_node(n);
        return cudaErrorInvalidValue;
    }
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 16;
        node **bigger = realloc(g->nodes, cap * sizeof *bigger);
        if (!bigger) {
            free_node(n);
            return cudaErrorMemoryAllocation;
        }
        g->nodes = bigger, g->cap = cap;
    }
    if (ndeps && !(n->deps = malloc(ndeps * sizeof *n->deps))) {
        free_node(n);
        return cudaErrorMemoryAllocation;
    }
    if (ndeps) memcpy(n->deps, deps, ndeps * sizeof *n->deps);
    n->ndeps = ndeps;
    n->index = g->n;
    g->nodes[g->n++] = n;
    if (out) *out = n;
    return cudaSuccess;
}

static node *new_node(enum cudaGraphNodeType type) {
    node *n = calloc(1, sizeof *n);
    if (n) n->type = type;
    return n;
}

static cudaError_t kernel_node(node **out, const struct cudaKernelNodeParams *p) {
    if (!p || p->extra) return cudaErrorInvalidValue;
    node *n = new_node(cudaGraphNodeTypeKernel);
    if (!n) return cudaErrorMemoryAllocation;
    n->func = p->func, n->grid = p->gridDim, n->block = p->blockDim, n->shared = p->sharedMemBytes;
    cudaError_t e = cr_kernel_of(p->func, &n->k);
    if (e == cudaSuccess) e = copy_args(n, p->kernelParams);
    if (e != cudaSuccess) {
        free_node(n);
        return e;
    }
    *out = n;
    return cudaSuccess;
}

static node *copy_node(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    node *n = new_node(cudaGraphNodeTypeMemcpy);
    if (!n) return NULL;
    n->copy.srcPtr = (struct cudaPitchedPtr){(void *)src, count, count, 1};
    n->copy.dstPtr = (struct cudaPitchedPtr){dst, count, count, 1};
    n->copy.extent = (struct cudaExtent){count, 1, 1};
    n->copy.kind = kind;
    return n;
}

static node *set_node(const struct cudaMemsetParams *p) {
    node *n = new_node(cudaGraphNodeTypeMemset);
    if (n) n->set = *p;
    return n;
}

static node *host_node(const struct cudaHostNodeParams *p) {
    node *n = new_node(cudaGraphNodeTypeHost);
    if (n) n->host = *p;
    return n;
}

/* ---- building ---- */

CR_EXPORT cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
    if (!pGraph || flags) return cr_ret(cudaErrorInvalidValue);
    *pGraph = calloc(1, sizeof **pGraph);
    return *pGraph ? cudaSuccess : cr_ret(cudaErrorMemoryAllocation);
}

CR_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    if (!graph) return cr_ret(cudaErrorInvalidValue);
    for (size_t i = 0; i < graph->n; i++) free_node(graph->nodes[i]);
    free(graph->nodes);
    free(graph);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaKernelNodeParams *pNodeParams) {
    CR_ENTER();
    node *n;
    cudaError_t e = kernel_node(&n, pNodeParams);
    return cr_ret(e == cudaSuccess ? add(pGraphNode, graph, pDependencies, numDependencies, n) : e);
}

CR_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                               void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    node *n = copy_node(dst, src, count, kind);
    return cr_ret(n ? add(pGraphNode, graph, pDependencies, numDependencies, n) : cudaErrorMemoryAllocation);
}

CR_EXPORT cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemcpy3DParms *pCopyParams) {
    if (!pCopyParams) return cr_ret(cudaErrorInvalidValue);
    node *n = new_node(cudaGraphNodeTypeMemcpy);
    if (n) n->copy = *pCopyParams;
    return cr_ret(n ? add(pGraphNode, graph, pDependencies, numDependencies, n) : cudaErrorMemoryAllocation);
}

CR_EXPORT cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemsetParams *pMemsetParams) {
    if (!pMemsetParams) return cr_ret(cudaErrorInvalidValue);
    unsigned es = pMemsetParams->elementSize;
    if (es != 1 && es != 2 && es != 4) return cr_ret(cudaErrorInvalidValue);
    node *n = set_node(pMemsetParams);
    return cr_ret(n ? add(pGraphNode, graph, pDependencies, numDependencies, n) : cudaErrorMemoryAllocation);
}

CR_EXPORT cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                           const struct cudaHostNodeParams *pNodeParams) {
    if (!pNodeParams || !pNodeParams->fn) return cr_ret(cudaErrorInvalidValue);
    node *n = host_node(pNodeParams);
    return cr_ret(n ? add(pGraphNode, graph, pDependencies, numDependencies, n) : cudaErrorMemoryAllocation);
}

CR_EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies, size_t numDependencies) {
    node *n = new_node(cudaGraphNodeTypeEmpty);
    return cr_ret(n ? add(pGraphNode, graph, pDependencies, numDependencies, n) : cudaErrorMemoryAllocation);
}

CR_EXPORT cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
    if (!graph || !numNodes) return cr_ret(cudaErrorInvalidValue);
    if (nodes)
        for (size_t i = 0; i < *numNodes && i < graph->n; i++) nodes[i] = graph->nodes[i];
    else
        *numNodes = graph->n;
    if (nodes && *numNodes > graph->n) *numNodes = graph->n;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType) {
    if (!node || !pType) return cr_ret(cudaErrorInvalidValue);
    *pType = node->type;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p) {
    if (!node || !p || node->type != cudaGraphNodeTypeKernel) return cr_ret(cudaErrorInvalidValue);
    *p = (struct cudaKernelNodeParams){(void *)node->func, node->grid, node->block, node->shared, node->args, NULL};
    return cudaSuccess;
}

/* Replaces a kernel node's launch parameters by new copies. */
static cudaError_t set_kernel(node *n, const struct cudaKernelNodeParams *p) {
    if (!n || n->type != cudaGraphNodeTypeKernel) return cudaErrorInvalidValue;
    node *fresh;
    cudaError_t e = kernel_node(&fresh, p);
    if (e != cudaSuccess) return e;
    for (unsigned i = 0; i < n->nargs; i++) free(n->args[i]);
    free(n->args);
    n->func = fresh->func, n->k = fresh->k, n->grid = fresh->grid, n->block = fresh->block;
    n->shared = fresh->shared, n->args = fresh->args, n->nargs = fresh->nargs;
    fresh->args = NULL, fresh->nargs = 0;
    free_node(fresh);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *p) {
    CR_ENTER();
    return cr_ret(set_kernel(node, p));
}

/* ---- executable graphs ---- */

CR_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
    if (!exec) return cr_ret(cudaErrorInvalidValue);
    for (size_t i = 0; i < exec->n; i++) free_node(exec->by_index[i]);
    free(exec->by_index);
    free(exec->order);
    free(exec);
    return cudaSuccess;
}

/* Nodes are added after the nodes they depend on, so a clone's dependencies are
 * clones already made: the same index in the new graph. */
CR_EXPORT cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph) {
    CR_ENTER();
    if (!pGraphClone || !originalGraph) return cr_ret(cudaErrorInvalidValue);
    cudaGraph_t g = calloc(1, sizeof *g);
    cudaError_t e = g ? cudaSuccess : cudaErrorMemoryAllocation;
    for (size_t i = 0; i < originalGraph->n && e == cudaSuccess; i++) {
        const node *o = originalGraph->nodes[i];
        node *n = clone(o), **deps = calloc(o->ndeps + 1, sizeof *deps);
        if (!n || !deps) {
            if (n) free_node(n);
            free(deps);
            e = cudaErrorMemoryAllocation;
            break;
        }
        n->origin = o;
        for (size_t d = 0; d < o->ndeps && e == cudaSuccess; d++)
            if (o->deps[d]->index < g->n && g->nodes[o->deps[d]->index]->origin == o->deps[d])
                deps[d] = g->nodes[o->deps[d]->index];
            else
                e = cudaErrorInvalidValue;   /* a dependency outside the graph */
        if (e == cudaSuccess) e = add(NULL, g, (const cudaGraphNode_t *)deps, o->ndeps, n);
        else free_node(n);
        free(deps);
    }
    if (e != cudaSuccess) {
        if (g) cudaGraphDestroy(g);
        return cr_ret(e);
    }
    *pGraphClone = g;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                               cudaGraph_t clonedGraph) {
    if (!pNode || !originalNode || !clonedGraph) return cr_ret(cudaErrorInvalidValue);
    for (size_t i = 0; i < clonedGraph->n; i++)
        if (clonedGraph->nodes[i]->origin == originalNode) {
            *pNode = clonedGraph->nodes[i];
            return cudaSuccess;
        }
    return cr_ret(cudaErrorInvalidValue);
}

/* Dependency order (Kahn's algorithm): a node runs after every node it depends on. */
CR_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           unsigned long long flags) {
    (void)flags;
    CR_ENTER();
    if (!pGraphExec || !graph) return cr_ret(cudaErrorInvalidValue);
    struct CUgraphExec_st *x = calloc(1, sizeof *x);
    size_t n = graph->n, *pending = calloc(n + 1, sizeof *pending), done = 0;
    if (x) x->by_index = calloc(n + 1, sizeof *x->by_index), x->order = calloc(n + 1, sizeof *x->order);
    cudaError_t e = x && pending && x->by_index && x->order ? cudaSuccess : cudaErrorMemoryAllocation;
    for (size_t i = 0; i < n && e == cudaSuccess; i++) {
        if (!(x->by_index[i] = clone(graph->nodes[i]))) e = cudaErrorMemoryAllocation;
        x->n = i + 1;
        pending[i] = graph->nodes[i]->ndeps;
    }
    while (e == cudaSuccess && done < n) {
        size_t before = done;
        for (size_t i = 0; i < n; i++) {
            if (pending[i] != 0) continue;
            pending[i] = (size_t)-1;   /* scheduled */
            x->order[done++] = i;
            for (size_t j = 0; j < n; j++)
                for (size_t d = 0; d < graph->nodes[j]->ndeps; d++)
                    if (graph->nodes[j]->deps[d] == graph->nodes[i] && pending[j] != (size_t)-1) pending[j]--;
        }
        if (done == before) e = cudaErrorInvalidValue;   /* a cycle */
    }
    free(pending);
    if (e != cudaSuccess) {
        if (x) cudaGraphExecDestroy(x);
        return cr_ret(e);
    }
    *pGraphExec = x;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                    unsigned long long flags) {
    return cudaGraphInstantiate(pGraphExec, graph, flags);
}

CR_EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                       const struct cudaKernelNodeParams *p) {
    CR_ENTER();
    if (!exec || !node || node->index >= exec->n) return cr_ret(cudaErrorInvalidValue);
    return cr_ret(set_kernel(exec->by_index[node->index], p));
}

/* A memset of 1-, 2- or 4-byte elements over `height` rows of `width` elements. */
static cudaError_t run_set(const struct cudaMemsetParams *p, cudaStream_t s) {
    if (p->elementSize == 1) return cudaMemset2DAsync(p->dst, p->pitch, (int)p->value, p->width, p->height, s);
    size_t row = p->width * p->elementSize;
    uint8_t *pattern = malloc(row ? row : 1);
    if (!pattern) return cr_ret(cudaErrorMemoryAllocation);
    for (size_t i = 0; i < p->width; i++) memcpy(pattern + i * p->elementSize, &p->value, p->elementSize);
    cudaError_t e = cudaSuccess;
    for (size_t r = 0; r < p->height && e == cudaSuccess; r++)
        e = cudaMemcpyAsync((char *)p->dst + r * p->pitch, pattern, row, cudaMemcpyHostToDevice, s);
    free(pattern);
    return e;
}

CR_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
    CR_ENTER();
    if (!exec) return cr_ret(cudaErrorInvalidValue);
    CR_STREAM_WORK(stream);
    for (size_t i = 0; i < exec->n; i++) {
        node *n = exec->by_index[exec->order[i]];
        cudaError_t e = cudaSuccess;
        switch (n->type) {
        case cudaGraphNodeTypeKernel:
            e = cr_launch(n->k, n->grid, n->block, n->args, n->shared, stream);
            break;
        case cudaGraphNodeTypeMemcpy: e = cudaMemcpy3DAsync(&n->copy, stream); break;
        case cudaGraphNodeTypeMemset: e = run_set(&n->set, stream); break;
        case cudaGraphNodeTypeHost: n->host.fn(n->host.userData); break;
        default: break;
        }
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

/* ---- stream capture: work issued on the stream becomes a chain of nodes ---- */

static capture **find(cudaStream_t s) {
    capture **c = &captures;
    while (*c && (*c)->stream != s) c = &(*c)->next;
    return c;
}

bool cr_capturing(cudaStream_t s) {
    pthread_mutex_lock(&lock);
    bool on = captures && *find(s);
    pthread_mutex_unlock(&lock);
    return on;
}

/* Appends n to the stream's capture after the node issued before it; takes n. */
static cudaError_t capture_node(cudaStream_t s, node *n) {
    if (!n) return cr_ret(cudaErrorMemoryAllocation);
    pthread_mutex_lock(&lock);
    capture *c = *find(s);
    cudaError_t e = c ? add(NULL, c->graph, c->last ? &c->last : NULL, c->last ? 1 : 0, n) : cudaErrorIllegalState;
    if (e == cudaSuccess) c->last = n;
    pthread_mutex_unlock(&lock);
    return cr_ret(e);
}

cudaError_t cr_capture_kernel(ptxi_kernel *k, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s) {
    node *n = new_node(cudaGraphNodeTypeKernel);
    if (!n) return cr_ret(cudaErrorMemoryAllocation);
    n->k = k, n->grid = g, n->block = b, n->shared = (unsigned)shared;
    cudaError_t e = copy_args(n, args);
    if (e != cudaSuccess) {
        free_node(n);
        return cr_ret(e);
    }
    return capture_node(s, n);
}

cudaError_t cr_capture_copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t s) {
    return capture_node(s, copy_node(dst, src, count, kind));
}

cudaError_t cr_capture_set(void *dst, int value, size_t count, cudaStream_t s) {
    struct cudaMemsetParams p = {dst, count, (unsigned)(uint8_t)value, 1, count, 1};
    return capture_node(s, set_node(&p));
}

cudaError_t cr_capture_host(cudaHostFn_t fn, void *user, cudaStream_t s) {
    struct cudaHostNodeParams p = {fn, user};
    return capture_node(s, host_node(&p));
}

CR_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
    (void)mode;
    CR_ENTER();
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    if ((uintptr_t)stream <= 2) return cr_ret(cudaErrorStreamCaptureUnsupported);
    capture *c = calloc(1, sizeof *c);
    if (!c || cudaGraphCreate(&c->graph, 0) != cudaSuccess) {
        free(c);
        return cr_ret(cudaErrorMemoryAllocation);
    }
    c->stream = stream;
    static uint64_t ids;
    pthread_mutex_lock(&lock);
    bool already = *find(stream) != NULL;
    if (!already) {
        c->next = captures, captures = c;
        ptxi_stream_set_capture(cr_stream(stream), ++ids, c->graph);
    }
    pthread_mutex_unlock(&lock);
    if (already) {
        cudaGraphDestroy(c->graph);
        free(c);
        return cr_ret(cudaErrorIllegalState);
    }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph) {
    if (!pGraph) return cr_ret(cudaErrorInvalidValue);
    pthread_mutex_lock(&lock);
    capture **p = find(stream), *c = *p;
    if (c) {
        *p = c->next;
        ptxi_stream_set_capture(cr_stream(stream), 0, NULL);
    }
    pthread_mutex_unlock(&lock);
    if (!c) return cr_ret(cudaErrorIllegalState);
    *pGraph = c->graph;
    free(c);
    return cudaSuccess;
}

CR_ALIAS(cudaGraphLaunch_ptsz, cudaGraphLaunch);
CR_ALIAS(cudaStreamBeginCapture_ptsz, cudaStreamBeginCapture);
CR_ALIAS(cudaStreamEndCapture_ptsz, cudaStreamEndCapture);
