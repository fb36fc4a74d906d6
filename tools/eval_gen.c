/* eval_gen.c — the text `ptxi eval` runs: a PTX .entry that loads a thread's
 * inputs into the snippet's registers, runs the snippet in its own { } scope and
 * stores what it wrote; and the CUDA program (--emit-cuda) doing the same with
 * the snippet inside asm volatile, on a real GPU. */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "eval.h"
#include "eval_fmt.h"

static const char fmt_text[] = EV_FMT(EV_FMT_STR);

void ev_layout_make(const ev_snippet *sn, ev_layout *lay) {
    lay->nin = lay->nout = 0;
    for (int i = 0; i < sn->nregs; i++) {
        const ev_reg *r = &sn->regs[i];
        lay->in_slot[i] = r->input && !r->local && !r->is_imm && !r->mem ? lay->nin++ : -1;
        lay->out_slot[i] = -1;
    }
    for (int k = 0; k < sn->nout; k++) /* outputs in the order first written */
        for (int i = 0; i < sn->nregs; i++) {
            const ev_reg *r = &sn->regs[i];
            if (r->output && !r->local && r->order_out == k && lay->out_slot[i] < 0) lay->out_slot[i] = lay->nout++;
        }
    for (int i = 0; i < sn->nregs; i++) /* asm operands share order numbers with inputs */
        if (sn->regs[i].output && !sn->regs[i].local && lay->out_slot[i] < 0) lay->out_slot[i] = lay->nout++;
}

#define CUDA_PREFIX "%%_e" /* %r1 -> %%_er1 inside a CUDA asm template */
#define CUDA_PREFIX_FMT "%%%%_e"

static bool idc(int c) { return isalnum(c) || c == '_' || c == '$'; }

static const ev_mem *mem_named(const ev_snippet *sn, const char *s, size_t n) {
    for (int m = 0; m < sn->nmem; m++)
        if (strlen(sn->mem[m].name) == n && !strncmp(sn->mem[m].name, s, n)) return &sn->mem[m];
    return NULL;
}

/* The snippet's body with --mem names replaced by `mem_ref(m)`; every '%' doubled
 * when `pct2` (inside a CUDA asm template). Keeps each byte's origin. */
static void body(ev_text *t, const ev_snippet *sn, bool pct2, const char *const *mem_ref) {
    const char *s = sn->body.s;
    for (size_t i = 0; i < sn->body.n;) {
        int o = sn->body.origin[i];
        if (idc((unsigned char)s[i]) &&
            (i == 0 || !(idc((unsigned char)s[i - 1]) || s[i - 1] == '%' || s[i - 1] == '.'))) {
            size_t e = i;
            while (e < sn->body.n && idc((unsigned char)s[e])) e++;
            const ev_mem *m = mem_named(sn, s + i, e - i);
            if (m) ev_put(t, mem_ref[m - sn->mem], strlen(mem_ref[m - sn->mem]), -1), t->origin[t->n - 1] = o;
            else
                for (size_t k = i; k < e; k++) ev_put(t, s + k, 1, sn->body.origin[k]);
            i = e;
            continue;
        }
        if (pct2 && s[i] == '%' && i + 1 < sn->body.n && (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '_')) {
            /* inside asm(), %r1 could be one of nvcc's own registers that the
             * operands %0.. stand for: the snippet's get a prefix of their own */
            size_t e = i + 1;
            while (e < sn->body.n && idc((unsigned char)s[e])) e++;
            char id[EV_NAME];
            snprintf(id, sizeof id, "%.*s", (int)(e - i - 1 < EV_NAME - 1 ? e - i - 1 : EV_NAME - 1), s + i + 1);
            ev_put(t, ev_is_special(id) ? "%%" : CUDA_PREFIX, ev_is_special(id) ? 2 : strlen(CUDA_PREFIX), o);
            for (size_t k = i + 1; k < e; k++) ev_put(t, s + k, 1, sn->body.origin[k]);
            i = e;
            continue;
        }
        if (pct2 && s[i] == '%') ev_put(t, "%", 1, o);
        ev_put(t, s + i, 1, o);
        i++;
    }
}

/* Thread 0 copies shared buffer m from (in) or to (!in) its global buffer, byte by byte. */
static void shared_copy(ev_text *t, const ev_snippet *sn, int m, const char *gref, const char *sref, bool in) {
    const char *dir = in ? "in" : "out";
    ev_printf(t,
              "mov.u32 %%_ev_t, %%tid.x;\nsetp.ne.u32 %%_ev_q0, %%_ev_t, 0;\n@%%_ev_q0 bra $_ev_%s%d_end;\n"
              "mov.u32 %%_ev_j, 0;\n$_ev_%s%d:\nsetp.ge.u32 %%_ev_q0, %%_ev_j, %zu;\n@%%_ev_q0 bra $_ev_%s%d_end;\n"
              "cvt.u64.u32 %%_ev_a, %%_ev_j;\nadd.u64 %%_ev_a, %%_ev_a, %s;\nmov.u32 %%_ev_s, %s;\n"
              "add.u32 %%_ev_s, %%_ev_s, %%_ev_j;\n",
              dir, m, dir, m, sn->mem[m].bytes, dir, m, gref, sref);
    if (in) ev_printf(t, "ld.global.u8 %%_ev_t, [%%_ev_a];\nst.shared.u8 [%%_ev_s], %%_ev_t;\n");
    else ev_printf(t, "ld.shared.u8 %%_ev_t, [%%_ev_s];\nst.global.u8 [%%_ev_a], %%_ev_t;\n");
    ev_printf(t, "add.u32 %%_ev_j, %%_ev_j, 1;\nbra $_ev_%s%d;\n$_ev_%s%d_end:\n", dir, m, dir, m);
}

void ev_gen_header(ev_text *t) { ev_printf(t, ".version 8.8\n.target sm_90\n.address_size 64\n\n"); }

void ev_gen_entry(ev_text *t, const ev_snippet *sn, const ev_layout *lay, const char *k) {
    char tb[16];
    ev_printf(t, ".visible .entry %s(.param .u64 ev_in, .param .u64 ev_out, .param .u32 ev_n", k);
    for (int m = 0; m < sn->nmem; m++) ev_printf(t, ", .param .u64 ev_m%d", m);
    ev_printf(t, ")\n{\n.reg .b64 %%_ev_in, %%_ev_out, %%_ev_a;\n.reg .b32 %%_ev_i, %%_ev_n, %%_ev_t;\n"
                 ".reg .pred %%_ev_q;\n");
    char refs[16][EV_NAME + 8], srefs[16][16];
    const char *mem_ref[16];
    bool any_shared = false;
    for (int m = 0; m < sn->nmem; m++) {
        snprintf(refs[m], sizeof refs[m], "%%_ev_m%d", m);
        snprintf(srefs[m], sizeof srefs[m], "_ev_s%d", m);
        mem_ref[m] = sn->mem[m].shared ? srefs[m] : refs[m];
        ev_printf(t, ".reg .b64 %s;\n", refs[m]);
        if (sn->mem[m].shared) {
            ev_printf(t, ".shared .align 16 .b8 %s[%zu];\n", srefs[m], sn->mem[m].bytes ? sn->mem[m].bytes : 1);
            any_shared = true;
        }
    }
    if (any_shared) ev_printf(t, ".reg .b32 %%_ev_j, %%_ev_s;\n.reg .pred %%_ev_q0;\n");
    for (int i = 0; i < sn->nregs; i++) {
        const ev_reg *r = &sn->regs[i];
        if (!r->local && !r->is_imm) ev_printf(t, ".reg %s %s;\n", ev_decl_type(sn, r, tb), r->ptx);
    }
    ev_printf(t, "ld.param.u64 %%_ev_in, [ev_in];\nld.param.u64 %%_ev_out, [ev_out];\n"
                 "ld.param.u32 %%_ev_n, [ev_n];\n");
    for (int m = 0; m < sn->nmem; m++) ev_printf(t, "ld.param.u64 %s, [ev_m%d];\n", refs[m], m);
    for (int i = 0; i < sn->nregs; i++) {
        const ev_reg *r = &sn->regs[i];
        bool b64 = ev_reg_bytes(sn, r->type) == 8;
        if (r->mem && sn->mem[r->mem - 1].shared)
            ev_printf(t, "mov.u%d %s, %s;\n", b64 ? 64 : 32, r->ptx, srefs[r->mem - 1]);
        else if (r->mem) ev_printf(t, "%s %s, %s;\n", b64 ? "mov.b64" : "cvt.u32.u64", r->ptx, refs[r->mem - 1]);
    }
    /* shared buffers: thread 0 of each CTA copies them in */
    for (int m = 0; m < sn->nmem; m++)
        if (sn->mem[m].shared) shared_copy(t, sn, m, refs[m], srefs[m], true);
    if (any_shared) ev_printf(t, "bar.sync 0;\n");
    ev_printf(t,
              "mov.u32 %%_ev_i, %%ctaid.x;\nmov.u32 %%_ev_t, %%ntid.x;\nmul.lo.u32 %%_ev_i, %%_ev_i, %%_ev_t;\n"
              "mov.u32 %%_ev_t, %%tid.x;\nadd.u32 %%_ev_i, %%_ev_i, %%_ev_t;\n"
              "setp.ge.u32 %%_ev_q, %%_ev_i, %%_ev_n;\n@%%_ev_q bra $_ev_done;\n"
              "mul.wide.u32 %%_ev_a, %%_ev_i, %d;\nadd.u64 %%_ev_a, %%_ev_a, %%_ev_in;\n",
              lay->nin * 8);
    for (int i = 0; i < sn->nregs; i++) {
        const ev_reg *r = &sn->regs[i];
        if (lay->in_slot[i] < 0) continue;
        if (!ev_reg_bytes(sn, r->type))
            ev_printf(t, "ld.global.b32 %%_ev_t, [%%_ev_a+%d];\nsetp.ne.b32 %s, %%_ev_t, 0;\n", lay->in_slot[i] * 8,
                      r->ptx);
        else ev_printf(t, "ld.global%s %s, [%%_ev_a+%d];\n", ev_decl_type(sn, r, tb), r->ptx, lay->in_slot[i] * 8);
    }
    ev_printf(t, "{\n");
    body(t, sn, false, mem_ref);
    ev_printf(t, "\n}\nmul.wide.u32 %%_ev_a, %%_ev_i, %d;\nadd.u64 %%_ev_a, %%_ev_a, %%_ev_out;\n", lay->nout * 8);
    for (int i = 0; i < sn->nregs; i++) {
        const ev_reg *r = &sn->regs[i];
        if (lay->out_slot[i] < 0) continue;
        if (!ev_reg_bytes(sn, r->type))
            ev_printf(t, "selp.u32 %%_ev_t, 1, 0, %s;\nst.global.b32 [%%_ev_a+%d], %%_ev_t;\n", r->ptx,
                      lay->out_slot[i] * 8);
        else ev_printf(t, "st.global%s [%%_ev_a+%d], %s;\n", ev_decl_type(sn, r, tb), lay->out_slot[i] * 8, r->ptx);
    }
    ev_printf(t, "$_ev_done:\n");
    if (any_shared)
        ev_printf(t, "bar.sync 0;\nmov.u32 %%_ev_t, %%ctaid.x;\nsetp.ne.u32 %%_ev_q0, %%_ev_t, 0;\n"
                     "@%%_ev_q0 bra $_ev_ret;\n");
    for (int m = 0; m < sn->nmem; m++) /* and thread 0 of CTA 0 copies them out */
        if (sn->mem[m].shared) shared_copy(t, sn, m, refs[m], srefs[m], false);
    ev_printf(t, "$_ev_ret:\nret;\n}\n");
}

/* ------------------------------------------------------------ CUDA */

static const char *ctype(int bytes) {
    return bytes == 2 ? "unsigned short" : bytes == 8 ? "unsigned long long" : "unsigned";
}

static char cons(int bytes) { return bytes == 2 ? 'h' : bytes == 8 ? 'l' : 'r'; }

/* Text as a C string literal's contents, one source line per PTX line. */
static void c_lit(FILE *f, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c == '\n') fprintf(f, "\\n\"\n      \"");
        else if (c == '\t') fprintf(f, "\\t");
        else fputc(c, f);
    }
}

void ev_gen_cuda_prelude(FILE *f) {
    fprintf(f,
            "// Generated by `ptxi eval --emit-cuda`: runs the snippet on the GPU and prints\n"
            "// what ptxi eval prints. nvcc -arch=sm_90 -o eval eval.cu && ./eval\n"
            "#include <cmath>\n#include <cstdio>\n#include <cstring>\n#include <cuda_runtime.h>\n\n%s\n\n",
            fmt_text);
}

void ev_gen_cuda_kernel(FILE *f, const ev_snippet *sn, const ev_layout *lay, const char *kname) {
    char tb[16];
    fprintf(f, "__global__ void %s(const unsigned long long *in, unsigned long long *out, unsigned n", kname);
    for (int m = 0; m < sn->nmem; m++) fprintf(f, ", unsigned long long m%d", m);
    fprintf(f, ") {\n");
    for (int m = 0; m < sn->nmem; m++) /* shared buffers: copied in by thread 0, out by thread 0 of block 0 */
        if (sn->mem[m].shared)
            fprintf(
                f,
                "  __shared__ __align__(16) unsigned char S%d[%zu];\n"
                "  if (threadIdx.x == 0) for (unsigned k = 0; k < %zu; k++) S%d[k] = ((const unsigned char *)m%d)[k];\n"
                "  unsigned sa%d = (unsigned)__cvta_generic_to_shared(S%d);\n",
                m, sn->mem[m].bytes ? sn->mem[m].bytes : 1, sn->mem[m].bytes, m, m, m, m);
    for (int m = 0; m < sn->nmem; m++)
        if (sn->mem[m].shared) {
            fprintf(f, "  __syncthreads();\n");
            break;
        }
    fprintf(f,
            "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= n) return;\n"
            "  const unsigned long long *s = in + (size_t)i * %d;\n  unsigned long long *o = out + (size_t)i * %d;\n",
            lay->nin ? lay->nin : 1, lay->nout ? lay->nout : 1);
    /* asm operands: outputs first, then inputs, then memory bases */
    int nops = 0, op_of_in[EV_MAX_REGS], op_of_out[EV_MAX_REGS];
    for (int i = 0; i < sn->nregs; i++)
        if (lay->out_slot[i] >= 0) {
            int b = ev_reg_bytes(sn, sn->regs[i].type);
            fprintf(f, "  %s o%d;\n", ctype(b), lay->out_slot[i]);
            op_of_out[i] = nops++;
        }
    for (int i = 0; i < sn->nregs; i++)
        if (lay->in_slot[i] >= 0) {
            int b = ev_reg_bytes(sn, sn->regs[i].type);
            fprintf(f, "  %s i%d = (%s)s[%d];\n", ctype(b), lay->in_slot[i], ctype(b), lay->in_slot[i]);
            op_of_in[i] = nops++;
        }
    char refs[16][16];
    const char *mem_ref[16];
    for (int m = 0; m < sn->nmem; m++) {
        snprintf(refs[m], sizeof refs[m], "%%%d", nops++);
        mem_ref[m] = refs[m];
    }
    fprintf(f, "  asm volatile(\"{\\n\"\n      \"");
    for (int i = 0; i < sn->nregs; i++) {
        const ev_reg *r = &sn->regs[i];
        if (r->local || r->is_imm) continue;
        fprintf(f, ".reg %s " CUDA_PREFIX_FMT, ev_decl_type(sn, r, tb));
        c_lit(f, r->ptx + 1, strlen(r->ptx + 1));
        fprintf(f, ";\\n\"\n      \"");
    }
    for (int i = 0; i < sn->nregs; i++) {
        const ev_reg *r = &sn->regs[i];
        if (lay->in_slot[i] < 0) continue;
        if (!ev_reg_bytes(sn, r->type))
            fprintf(f, "setp.ne.b32 " CUDA_PREFIX_FMT "%s, %%%d, 0;\\n\"\n      \"", r->ptx + 1, op_of_in[i]);
        else
            fprintf(f, "mov.b%d " CUDA_PREFIX_FMT "%s, %%%d;\\n\"\n      \"", ev_reg_bytes(sn, r->type) * 8, r->ptx + 1,
                    op_of_in[i]);
    }
    for (int i = 0; i < sn->nregs; i++) {
        const ev_reg *r = &sn->regs[i];
        bool b64 = ev_reg_bytes(sn, r->type) == 8, sh = r->mem && sn->mem[r->mem - 1].shared;
        if (r->mem)
            fprintf(f, "%s " CUDA_PREFIX_FMT "%s, %s;\\n\"\n      \"",
                    sh    ? (b64 ? "cvt.u64.u32" : "mov.b32")
                    : b64 ? "mov.b64"
                          : "cvt.u32.u64",
                    r->ptx + 1, mem_ref[r->mem - 1]);
    }
    ev_text b = {0};
    body(&b, sn, true, mem_ref);
    c_lit(f, b.s ? b.s : "", b.n);
    ev_text_free(&b);
    fprintf(f, "\\n\"\n      \"");
    for (int i = 0; i < sn->nregs; i++) {
        const ev_reg *r = &sn->regs[i];
        if (lay->out_slot[i] < 0) continue;
        if (!ev_reg_bytes(sn, r->type))
            fprintf(f, "selp.u32 %%%d, 1, 0, " CUDA_PREFIX_FMT "%s;\\n\"\n      \"", op_of_out[i], r->ptx + 1);
        else
            fprintf(f, "mov.b%d %%%d, " CUDA_PREFIX_FMT "%s;\\n\"\n      \"", ev_reg_bytes(sn, r->type) * 8,
                    op_of_out[i], r->ptx + 1);
    }
    fprintf(f, "}\"\n      :");
    int k = 0;
    for (int i = 0; i < sn->nregs; i++)
        if (lay->out_slot[i] >= 0)
            fprintf(f, "%s \"=%c\"(o%d)", k++ ? "," : "", cons(ev_reg_bytes(sn, sn->regs[i].type)), lay->out_slot[i]);
    fprintf(f, "\n      :");
    k = 0;
    for (int i = 0; i < sn->nregs; i++)
        if (lay->in_slot[i] >= 0)
            fprintf(f, "%s \"%c\"(i%d)", k++ ? "," : "", cons(ev_reg_bytes(sn, sn->regs[i].type)), lay->in_slot[i]);
    for (int m = 0; m < sn->nmem; m++)
        fprintf(f, sn->mem[m].shared ? "%s \"r\"(sa%d)" : "%s \"l\"(m%d)", k++ ? "," : "", m);
    fprintf(f, "\n      : \"memory\");\n");
    for (int i = 0; i < sn->nregs; i++)
        if (lay->out_slot[i] >= 0) fprintf(f, "  o[%d] = o%d;\n", lay->out_slot[i], lay->out_slot[i]);
    for (int m = 0, synced = 0; m < sn->nmem; m++)
        if (sn->mem[m].shared) {
            if (!synced++) fprintf(f, "  __syncthreads();\n");
            fprintf(f,
                    "  if (blockIdx.x == 0 && threadIdx.x == 0) for (unsigned k = 0; k < %zu; k++) "
                    "((unsigned char *)m%d)[k] = S%d[k];\n",
                    sn->mem[m].bytes, m, m);
        }
    fprintf(f, "}\n\n");
}

int ev_gen_cuda(FILE *f, const ev_snippet *sn, const ev_layout *lay, unsigned lanes, const uint64_t *in, int csv) {
    ev_gen_cuda_prelude(f);
    ev_gen_cuda_kernel(f, sn, lay, "ev_kernel");
    /* data */
    size_t nin = (size_t)lanes * (size_t)lay->nin;
    fprintf(f, "static const unsigned long long IN[] = {");
    for (size_t i = 0; i < nin; i++)
        fprintf(f, "%s0x%llxull", !i ? "\n  " : i % 6 ? ", " : ",\n  ", (unsigned long long)in[i]);
    fprintf(f, "%s};\n", nin ? "\n" : "0");
    fprintf(f, "static const char *const NAMES[] = {");
    for (int s = 0; s < lay->nout; s++)
        for (int i = 0; i < sn->nregs; i++)
            if (lay->out_slot[i] == s) {
                fprintf(f, "\"");
                c_lit(f, sn->regs[i].name, strlen(sn->regs[i].name));
                fprintf(f, "\", ");
            }
    fprintf(f, "\"\"};\nstatic const int BYTES[] = {");
    for (int s = 0; s < lay->nout; s++)
        for (int i = 0; i < sn->nregs; i++)
            if (lay->out_slot[i] == s) fprintf(f, "%d, ", ev_reg_bytes(sn, sn->regs[i].type));
    fprintf(f, "0};\nstatic const char KINDS[] = \"");
    for (int s = 0; s < lay->nout; s++)
        for (int i = 0; i < sn->nregs; i++)
            if (lay->out_slot[i] == s) fputc(sn->regs[i].type.kind, f);
    fprintf(f, "\";\n");
    for (int m = 0; m < sn->nmem; m++) {
        fprintf(f, "static const unsigned char M%d[%zu] = {", m, sn->mem[m].bytes ? sn->mem[m].bytes : 1);
        for (size_t i = 0; i < sn->mem[m].bytes; i++) fprintf(f, "%s%u", i % 16 ? "," : "\n  ", sn->mem[m].init[i]);
        fprintf(f, "};\n");
    }
    unsigned block = lanes <= 1024 ? lanes : 1024;
    fprintf(f,
            "\nint main() {\n  const unsigned lanes = %u, block = %u;\n"
            "  unsigned long long *din, *dout;\n"
            "  static unsigned long long out[%zu];\n"
            "  cudaMalloc(&din, sizeof IN);\n  cudaMalloc(&dout, sizeof out);\n"
            "  cudaMemcpy(din, IN, sizeof IN, cudaMemcpyHostToDevice);\n"
            "  cudaMemset(dout, 0, sizeof out);\n",
            lanes, block, (size_t)lanes * (size_t)(lay->nout ? lay->nout : 1));
    for (int m = 0; m < sn->nmem; m++)
        fprintf(f,
                "  void *dm%d; static unsigned char hm%d[sizeof M%d];\n  cudaMalloc(&dm%d, sizeof M%d);\n"
                "  cudaMemcpy(dm%d, M%d, sizeof M%d, cudaMemcpyHostToDevice);\n",
                m, m, m, m, m, m, m, m);
    fprintf(f, "  ev_kernel<<<(lanes + block - 1) / block, block>>>(din, dout, lanes");
    for (int m = 0; m < sn->nmem; m++) fprintf(f, ", (unsigned long long)dm%d", m);
    fprintf(f,
            ");\n  cudaError_t e = cudaDeviceSynchronize();\n"
            "  if (e == cudaSuccess) e = cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);\n"
            "  if (e != cudaSuccess) { fprintf(stderr, \"eval: %%s\\n\", cudaGetErrorString(e)); return 1; }\n"
            "  ev_print(stdout, %d, NAMES, BYTES, KINDS, lanes, out, %d);\n",
            lay->nout, csv);
    for (int m = 0; m < sn->nmem; m++) {
        fprintf(f, "  cudaMemcpy(hm%d, dm%d, sizeof M%d, cudaMemcpyDeviceToHost);\n", m, m, m);
        fprintf(f, "  ev_print_mem(stdout, \"%s\", M%d, hm%d, %zu);\n", sn->mem[m].name, m, m, sn->mem[m].bytes);
    }
    fprintf(f, "  return 0;\n}\n");
    return ferror(f) ? -1 : 0;
}
