/* pgraph.h — CUDA graphs in libptxi, shared by libcudart and libcuda: a cudaGraph_t is
 * a CUgraph (ptxi_graph), a cudaGraphNode_t a CUgraphNode (ptxi_gnode), a
 * cudaGraphExec_t a CUgraphExec (ptxi_gexec), so a graph built or captured through
 * one API is launched, updated or queried through the other. Each library turns its
 * parameter structures into the neutral ones below and back.
 *
 * Functions answer CUDA error numbers, which cudaError_t and CUresult share for every
 * error a graph call gives (1 invalid value, 2 out of memory, 400 invalid handle, 401
 * illegal state, 801 not supported, 900-910 capture and update errors); a kernel
 * node's launch answers what the library's own launch function answers. */
#ifndef PTXI_PGRAPH_H
#define PTXI_PGRAPH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptxi.h"

/* libcudart and libcuda call these in libptxi.so, which exports ptxi_ names
 * only (include/ptxi.map): the symbols carry the prefix. A function added
 * below needs its line here. */
#define pg_add ptxi_pg_add
#define pg_capture_add ptxi_pg_capture_add
#define pg_capture_begin ptxi_pg_capture_begin
#define pg_capture_end ptxi_pg_capture_end
#define pg_capture_forget_event ptxi_pg_capture_forget_event
#define pg_capture_forget_stream ptxi_pg_capture_forget_stream
#define pg_capture_info ptxi_pg_capture_info
#define pg_capture_invalidate ptxi_pg_capture_invalidate
#define pg_capture_record ptxi_pg_capture_record
#define pg_capture_update_deps ptxi_pg_capture_update_deps
#define pg_capture_wait ptxi_pg_capture_wait
#define pg_capturing ptxi_pg_capturing
#define pg_clone ptxi_pg_clone
#define pg_cond_create ptxi_pg_cond_create
#define pg_create ptxi_pg_create
#define pg_deps ptxi_pg_deps
#define pg_destroy ptxi_pg_destroy
#define pg_destroy_node ptxi_pg_destroy_node
#define pg_dot ptxi_pg_dot
#define pg_edges ptxi_pg_edges
#define pg_exec_child ptxi_pg_exec_child
#define pg_exec_destroy ptxi_pg_exec_destroy
#define pg_exec_enable ptxi_pg_exec_enable
#define pg_exec_flags ptxi_pg_exec_flags
#define pg_exec_node ptxi_pg_exec_node
#define pg_exec_set_params ptxi_pg_exec_set_params
#define pg_exec_update ptxi_pg_exec_update
#define pg_find_in_clone ptxi_pg_find_in_clone
#define pg_graph_release ptxi_pg_graph_release
#define pg_graph_retain ptxi_pg_graph_retain
#define pg_instantiate ptxi_pg_instantiate
#define pg_is_exec ptxi_pg_is_exec
#define pg_is_graph ptxi_pg_is_graph
#define pg_is_node ptxi_pg_is_node
#define pg_kernel_attr ptxi_pg_kernel_attr
#define pg_kernel_attrs_copy ptxi_pg_kernel_attrs_copy
#define pg_kernel_in ptxi_pg_kernel_in
#define pg_launch ptxi_pg_launch
#define pg_link ptxi_pg_link
#define pg_mem_attribute ptxi_pg_mem_attribute
#define pg_mem_free ptxi_pg_mem_free
#define pg_mem_trim ptxi_pg_mem_trim
#define pg_nodes ptxi_pg_nodes
#define pg_roots ptxi_pg_roots
#define pg_set_conditional ptxi_pg_set_conditional
#define pg_set_params ptxi_pg_set_params
#define pg_uobj_create ptxi_pg_uobj_create
#define pg_uobj_release ptxi_pg_uobj_release
#define pg_uobj_retain ptxi_pg_uobj_retain

enum {
    PG_OK = 0,
    PG_INVALID_VALUE = 1,
    PG_NO_MEMORY = 2,
    PG_INVALID_HANDLE = 400,
    PG_ILLEGAL_STATE = 401,
    PG_NOT_SUPPORTED = 801,
    PG_CAPTURE_UNSUPPORTED = 900,
    PG_CAPTURE_INVALIDATED = 901,
    PG_CAPTURE_UNMATCHED = 903,
    PG_CAPTURE_UNJOINED = 904,
    PG_UPDATE_FAILURE = 910,
};

/* Node types, numbered as cudaGraphNodeType and CUgraphNodeType. */
enum {
    PG_KERNEL = 0,
    PG_MEMCPY = 1,
    PG_MEMSET = 2,
    PG_HOST = 3,
    PG_GRAPH = 4,
    PG_EMPTY = 5,
    PG_WAIT_EVENT = 6,
    PG_EVENT_RECORD = 7,
    PG_SEM_SIGNAL = 8,
    PG_SEM_WAIT = 9,
    PG_MEM_ALLOC = 10,
    PG_MEM_FREE = 11,
    PG_MEM_OP = 12,
    PG_CONDITIONAL = 13,
};
/* Conditional node types (cudaGraphConditionalNodeType) and the handle's flag. */
enum { PG_COND_IF = 0, PG_COND_WHILE = 1, PG_COND_SWITCH = 2 };
enum { PG_COND_ASSIGN_DEFAULT = 1 };
/* cudaGraphExecUpdateResult / CUgraphExecUpdateResult */
enum {
    PG_UPD_SUCCESS,
    PG_UPD_ERROR,
    PG_UPD_TOPOLOGY,
    PG_UPD_TYPE,
    PG_UPD_FUNCTION,
    PG_UPD_PARAMETERS,
    PG_UPD_NOT_SUPPORTED,
    PG_UPD_UNSUPPORTED_FUNCTION,
    PG_UPD_ATTRIBUTES
};
/* Copy directions, numbered as cudaMemcpyKind. */
enum { PG_H2H, PG_H2D, PG_D2H, PG_D2D, PG_DEFAULT };

typedef struct ptxi_graph ptxi_graph;
typedef struct ptxi_gnode ptxi_gnode;
typedef struct ptxi_gexec ptxi_gexec;

/* A kernel node's launch attribute (cudaLaunchAttributeValue, 64 bytes), kept as set:
 * ptxi runs work in order, so none changes how the node runs. */
typedef struct pg_attr {
    int id;
    unsigned char value[64];
} pg_attr;
enum { PG_MAX_ATTRS = 8 };

typedef struct pg_kernel {
    ptxi_kernel *k;
    const void *func; /* what the caller named it by (host stub, CUfunction) */
    ptxi_dim3 grid, block;
    unsigned shared;
    void **args; /* owned copies of the argument values (set by the core) */
    unsigned nargs;
} pg_kernel;

typedef struct pg_copy { /* a 3D copy between linear memories */
    const void *src;
    void *dst;
    size_t spitch, sheight, dpitch, dheight; /* bytes per row, rows per slice */
    size_t sx, sy, sz, dx, dy, dz;           /* start: byte in the row, row, slice */
    size_t width, height, depth;             /* bytes, rows, slices */
    int kind;
} pg_copy;

typedef struct pg_set {
    ptxi_dptr dst;
    size_t pitch;
    unsigned value, elem;
    size_t width, height; /* elements per row, rows */
} pg_set;

typedef struct pg_host {
    void (*fn)(void *);
    void *user;
} pg_host;

/* A conditional node's handle: its value is what device code set last. */
typedef struct pg_cond {
    _Atomic unsigned value;
    unsigned dflt, flags;
    _Atomic int refs;
} pg_cond;

/* Memory of a graph allocation node: reserved when the node is made (its address is
 * the node's for good), live from an allocation node's run to a free. */
typedef struct pg_block {
    ptxi_ctx *ctx;
    ptxi_dptr p;
    size_t size;
    bool live, reserved, instantiated; /* reserved: backed since it ran, until a trim */
    int refs;                          /* nodes that name it */
    struct pg_block *next;
} pg_block;

/* The parameters a node is made from (pg_add). */
typedef struct pg_params {
    int type;
    pg_kernel kernel;
    pg_copy copy;
    pg_set set;
    pg_host host;
    ptxi_graph *child; /* PG_GRAPH: copied into the node */
    ptxi_event *event;
    size_t bytes;    /* PG_MEM_ALLOC; the address comes back in dptr */
    ptxi_ctx *ctx;   /* PG_MEM_ALLOC */
    pg_block *reuse; /* PG_MEM_ALLOC: set by the core */
    ptxi_dptr dptr;  /* PG_MEM_FREE; PG_MEM_ALLOC's result */
    uint64_t handle; /* PG_CONDITIONAL */
    int cond_type;
    unsigned cond_size;
    ptxi_graph **bodies; /* PG_CONDITIONAL's result: owned by the node */
} pg_params;

struct ptxi_gnode {
    int type;
    size_t index; /* in its graph; an executable graph's copy keeps it */
    ptxi_graph *graph;
    const ptxi_gnode *origin; /* the node it was copied from */
    ptxi_gnode **deps;
    size_t ndeps;
    bool enabled; /* cudaGraphNodeSetEnabled (executable graphs) */
    pg_kernel kernel;
    pg_copy copy;
    pg_set set;
    pg_host host;
    ptxi_event *event;
    ptxi_graph *child;           /* PG_GRAPH */
    pg_block *block;             /* PG_MEM_ALLOC */
    ptxi_dptr free_ptr;          /* PG_MEM_FREE */
    pg_attr attrs[PG_MAX_ATTRS]; /* PG_KERNEL: launch attributes set on it */
    unsigned nattrs;
    pg_cond *cond; /* PG_CONDITIONAL */
    int cond_type;
    unsigned cond_size;
    ptxi_graph **bodies;
    ptxi_gexec **subs; /* in an executable graph: the child's or the bodies' */
};

/* A user object (cudaUserObject_t = CUuserObject): its destructor runs when the last
 * reference, the caller's or a graph's, goes. */
typedef struct pg_uobj pg_uobj;
typedef struct pg_uref {
    pg_uobj *o;
    unsigned count;
} pg_uref;

struct ptxi_graph {
    ptxi_gnode **nodes;
    size_t n, cap;
    pg_uref *urefs; /* the user objects it holds references to */
    size_t nurefs;
    pg_cond **conds; /* the conditional handles made for it */
    size_t nconds;
    ptxi_gnode *owner; /* a child graph's or body's node, else NULL */
};

/* A library's kernel launch (and how it reports a libptxi status), for launches. */
typedef struct pg_ops {
    int (*kernel)(const pg_kernel *k, ptxi_stream *s);
    int (*status)(ptxi_status st);
} pg_ops;

/* ---- graphs and nodes (each call takes the graphs' lock) ---- */
int pg_create(ptxi_graph **out);
int pg_destroy(ptxi_graph *g);
/* Adds a node after deps; kernel arguments are copied with the sizes the PTX gives. */
int pg_add(ptxi_graph *g, ptxi_gnode *const *deps, size_t ndeps, pg_params *p, ptxi_gnode **out);
int pg_clone(ptxi_graph *src, ptxi_graph **out);
ptxi_gnode *pg_find_in_clone(ptxi_graph *clone, const ptxi_gnode *orig);
int pg_destroy_node(ptxi_gnode *n);
/* Replaces a node's parameters (of its own type) by p's. */
int pg_set_params(ptxi_gnode *n, pg_params *p);
int pg_edges(ptxi_graph *g, ptxi_gnode **from, ptxi_gnode **to, size_t *count);
int pg_deps(ptxi_gnode *n, ptxi_gnode **out, size_t *count, bool dependents);
int pg_roots(ptxi_graph *g, ptxi_gnode **out, size_t *count);
int pg_nodes(ptxi_graph *g, ptxi_gnode **out, size_t *count);
int pg_link(ptxi_graph *g, ptxi_gnode *const *from, ptxi_gnode *const *to, size_t n, bool add);
int pg_cond_create(ptxi_graph *g, unsigned dflt, unsigned flags, uint64_t *handle);
bool pg_is_node(const ptxi_gnode *n); /* n is a node of a live graph */
bool pg_is_graph(const ptxi_graph *g);

/* ---- executable graphs ---- */
int pg_instantiate(ptxi_graph *g, unsigned long long flags, ptxi_gexec **out, ptxi_gnode **err_node);
int pg_exec_destroy(ptxi_gexec *x);
bool pg_is_exec(const ptxi_gexec *x);
/* The executable graph's copy of graph node n (NULL: none). */
ptxi_gnode *pg_exec_node(ptxi_gexec *x, const ptxi_gnode *n);
int pg_exec_set_params(ptxi_gexec *x, const ptxi_gnode *n, pg_params *p);
int pg_exec_child(ptxi_gexec *x, const ptxi_gnode *n, ptxi_graph *child);
int pg_exec_enable(ptxi_gexec *x, const ptxi_gnode *n, int set, unsigned *enabled);
int pg_exec_update(ptxi_gexec *x, ptxi_graph *g, int *result, ptxi_gnode **err_node, ptxi_gnode **err_from);
unsigned long long pg_exec_flags(ptxi_gexec *x);
/* Runs the graph's nodes in dependency order on s (work runs when it is issued). */
int pg_launch(ptxi_gexec *x, ptxi_ctx *ctx, ptxi_stream *s, const pg_ops *ops);

/* ---- graph memory ---- */
/* Frees graph-allocated memory at p (cudaFree, cudaFreeAsync): PG_OK, or -1 when p is
 * not graph memory. */
int pg_mem_free(ptxi_dptr p);
/* attr: 0 used current, 1 used high, 2 reserved current, 3 reserved high (cudaGraphMemAttr
 * order); set: only the highs, to 0. */
int pg_mem_attribute(int attr, uint64_t *value, int set);
int pg_mem_trim(void);

/* ---- stream capture ---- */
/* mode: cudaStreamCaptureMode; into: capture into this graph (after deps) or NULL for a
 * new graph. */
int pg_capture_begin(ptxi_stream *s, int mode, ptxi_graph *into, ptxi_gnode *const *deps, size_t ndeps);
int pg_capture_end(ptxi_stream *s, ptxi_graph **out); /* out may be NULL for a capture into a graph */
bool pg_capturing(ptxi_stream *s);
/* Adds a node after the stream's last work in its capture. */
int pg_capture_add(ptxi_stream *s, pg_params *p, ptxi_gnode **out);
/* An event recorded in a capturing stream: PG_OK; -1 when s is not capturing. */
int pg_capture_record(ptxi_event *e, ptxi_stream *s);
/* A stream waiting on an event recorded in a capture joins it: PG_OK; -1 when neither
 * the stream nor the event is in a capture (an ordinary wait). */
int pg_capture_wait(ptxi_stream *s, ptxi_event *e);
/* status: 0 none, 1 active, 2 invalidated (cudaStreamCaptureStatus). */
int pg_capture_info(ptxi_stream *s, int *status, uint64_t *id, ptxi_graph **g, ptxi_gnode *const **deps, size_t *ndeps);
int pg_capture_update_deps(ptxi_stream *s, ptxi_gnode *const *deps, size_t n, int set);
/* Work a capture cannot record (a synchronizing call) invalidates it. */
void pg_capture_invalidate(ptxi_stream *s);
/* A stream or event going away leaves captures (libptxi's destroy calls); a capture
 * that loses a stream is invalidated. */
void pg_capture_forget_event(ptxi_event *e);
void pg_capture_forget_stream(ptxi_stream *s);

/* Whether k is a kernel of a module loaded in ctx (a handle the runtime gave out,
 * cudaGetFuncBySymbol, used with the driver). */
bool pg_kernel_in(ptxi_ctx *ctx, const ptxi_kernel *k);

/* A kernel node's launch attribute id: set (value of size bytes), or read (zeros when
 * never set). copy: dst takes src's attributes. */
int pg_kernel_attr(ptxi_gnode *n, int id, void *value, size_t size, int set);
int pg_kernel_attrs_copy(ptxi_gnode *dst, ptxi_gnode *src);

/* User objects: flags must be 1 (no destructor synchronization); a graph's retain with
 * move (1) takes the caller's references. Destructors run on the thread that drops the
 * last reference, outside the graphs' lock. */
int pg_uobj_create(pg_uobj **out, void *ptr, void (*destroy)(void *), unsigned refs, unsigned flags);
int pg_uobj_retain(pg_uobj *o, unsigned count);
int pg_uobj_release(pg_uobj *o, unsigned count);
int pg_graph_retain(ptxi_graph *g, pg_uobj *o, unsigned count, unsigned flags);
int pg_graph_release(ptxi_graph *g, pg_uobj *o, unsigned count);

/* cudaGraphDebugDotPrint: the graph in Graphviz's DOT language. */
int pg_dot(ptxi_graph *g, const char *path);

/* Device code's cudaGraphSetConditional (bound into every context). */
void pg_set_conditional(uint64_t handle, unsigned value);

#endif
