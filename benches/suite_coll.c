/* Collective suites: allreduce, allgather, reduce-scatter, broadcast, alltoall, fused.
 *
 * nccl-tests conventions. The size S of a row is one rank's buffer: the all-reduce and
 * broadcast vector, the all-gather output, the reduce-scatter input, the all-to-all buffer (so
 * the per-rank count is S / dtype size, divided by the rank count for the last three).
 * time = the average time of one call, the slowest rank's; algbw = S / time (GB/s, 1e9);
 * busbw = algbw x factor: all-reduce 2(n-1)/n, all-gather, reduce-scatter, all-to-all (n-1)/n,
 * broadcast 1. Every row shows out-of-place and in-place: time, algbw, busbw, #wrong. #wrong
 * (with --check) counts elements that differ from the expected values after an extra checked
 * call of each size; any wrong value makes the driver exit 1.
 *   --dtype f32|f64|f16|bf16|i32|i64|u64 (default f32), --op sum|min|max|prod (default sum),
 *   the algorithm from VSYM_COLL_ALGO (auto, oneshot, twoshot, ring, rd, hier). What ran is
 *   each record's "path" (vsym_coll_path: AUTO's choice, or what a forced algorithm maps to),
 *   and a "# path:" line under each table lists the sizes from which each path ran.
 * fused: every TP x DP factorisation of the node, every valid fused op (or --op NAME) and mode
 * (and auto), f16 by default; S = the input bytes of one rank; rows per mode, with the speed-up
 * over the unfused baseline. All modes take turns in each of 5 rounds (time_us_rounds in the JSON
 * record has the five): a mode's time is its median round, its speed-up the median over the
 * rounds of the baseline's time over its own in the same round. With VSYM_AUTOTUNE_FILE set and no
 * table in it for a topology and host, the suite runs the autotune first (on the sweep's sizes)
 * and saves the table there (tables of other topologies in the file are kept). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "inputs.h"
#include "coll/coll_internal.h"

typedef struct crun {
    vsym_bench_t *b;
    vsym_coll_t *coll;
    vsym_fused_t *fused;
    vsym_coll_kind_t kind;
    vsym_dtype_t dtype;
    vsym_red_op_t op;
    vsym_fused_op_t fop;
    vsym_fused_mode_t fmode;
    char *src, *dst;
    size_t count; /* per rank (all-reduce, broadcast), per block (the others), n (fused) */
    int inplace;
} crun_t;

/* The buffers a call of r's collective gets, in place or not (broadcast: the root is rank 0). */
static void call_bufs(const crun_t *r, char **src_p, char **dst_p)
{
    size_t mine = (size_t)r->b->rank * r->count * vsym_dtype_size(r->dtype);
    *src_p = r->src;
    *dst_p = r->dst;
    if (!r->inplace) return;
    switch (r->kind) {
    case VSYM_COLL_KIND_ALLGATHER:
        *src_p = r->dst + mine;
        break;
    case VSYM_COLL_KIND_REDUCE_SCATTER:
        *dst_p = r->src + mine;
        break;
    case VSYM_COLL_KIND_BROADCAST:
        *src_p = r->dst;
        break;
    default:
        *dst_p = r->src;
        break;
    }
}

/* --touch: a store into every line of the src a call of r reads (the same bytes back), as an
 * application that produced it anew would leave it: modified in this core's cache, not clean
 * and possibly still in a peer's from the call before. Timed with the call. */
static void touch_src(const crun_t *r, char *src)
{
    size_t len = r->count * vsym_dtype_size(r->dtype);
    if (r->kind == VSYM_COLL_KIND_REDUCE_SCATTER || r->kind == VSYM_COLL_KIND_ALLTOALL)
        len *= (size_t)r->b->nranks;
    vsym_util_store_lines(src, len);
}

/* --consume (after the call, timed with it): a load of every line of the dst a call of r wrote,
 * as a caller that uses the result does: lines a peer stored there (the in-place paths push into
 * the peers' outputs) come from that peer's cache. */
static vsym_status_t call_coll(crun_t *r, const char *src, char *dst)
{
    switch (r->kind) {
    case VSYM_COLL_KIND_ALLREDUCE:
        return vsym_coll_allreduce(r->coll, src, dst, r->count, r->dtype, r->op, VSYM_COLL_AUTO);
    case VSYM_COLL_KIND_ALLGATHER:
        return vsym_coll_allgather(r->coll, src, dst, r->count, r->dtype, VSYM_COLL_AUTO);
    case VSYM_COLL_KIND_REDUCE_SCATTER:
        return vsym_coll_reduce_scatter(r->coll, src, dst, r->count, r->dtype, r->op,
                                        VSYM_COLL_AUTO);
    case VSYM_COLL_KIND_BROADCAST:
        return vsym_coll_broadcast(r->coll, src, dst, r->count, r->dtype, r->b->opts->root,
                                   VSYM_COLL_AUTO);
    default:
        return vsym_coll_alltoall(r->coll, src, dst, r->count, r->dtype, VSYM_COLL_AUTO);
    }
}

static vsym_status_t unit_coll(void *arg, long i)
{
    crun_t *r = arg;
    char *src, *dst;
    (void)i;
    call_bufs(r, &src, &dst);
    if (r->b->opts->touch &&
        (r->kind != VSYM_COLL_KIND_BROADCAST || r->b->rank == r->b->opts->root))
        touch_src(r, src);
    vsym_status_t st = call_coll(r, src, dst);
    if (r->b->opts->consume && st == VSYM_OK) {
        size_t len = r->count * vsym_dtype_size(r->dtype);
        if (r->kind == VSYM_COLL_KIND_ALLGATHER || r->kind == VSYM_COLL_KIND_ALLTOALL)
            len *= (size_t)r->b->nranks;
        vsym_util_load_lines(dst, len);
    }
    return st;
}

static vsym_status_t unit_fused(void *arg, long i)
{
    crun_t *r = arg;
    (void)i;
    const int touch = r->b->opts->touch, consume = r->b->opts->consume;
    size_t nin = 0, nout = 0, es = vsym_dtype_size(r->dtype);
    /* (the shapes only where used: the plain timed call stays the library's call alone) */
    if (touch || consume) vsym_fused_shapes(r->fused, r->fop, r->count, &nin, &nout);
    if (touch) /* as touch_src: this rank's input of the fused op */
        vsym_util_store_lines(r->src, nin * es);
    vsym_status_t st =
        vsym_fused_run(r->fused, r->fop, r->fmode, r->src, r->dst, r->count, r->dtype);
    if (consume && st == VSYM_OK) vsym_util_load_lines(r->dst, nout * es);
    return st;
}

/* ---- Data for --check --------------------------------------------------------------------- */

/* Small integers: exact in every dtype, so any reduction order gives the expected bits. */
static double cval(vsym_red_op_t op, vsym_dtype_t dt, int rank, size_t i)
{
    if (op == VSYM_RED_PROD) return (double)(1 + (rank + (long)i) % 2);
    long v = (long)((rank * 3 + (long)i) % 7);
    return dt == VSYM_DTYPE_U64 ? (double)v : (double)(v - 3);
}

static double cred(vsym_red_op_t op, vsym_dtype_t dt, int n, size_t i)
{
    double acc = cval(op, dt, 0, i);
    for (int r = 1; r < n; r++) {
        double v = cval(op, dt, r, i);
        if (op == VSYM_RED_SUM)
            acc += v;
        else if (op == VSYM_RED_PROD)
            acc *= v;
        else if (op == VSYM_RED_MIN)
            acc = v < acc ? v : acc;
        else
            acc = v > acc ? v : acc;
    }
    return acc;
}

static int same_elem(vsym_dtype_t dt, const char *buf, size_t i, double v)
{
    size_t es = vsym_dtype_size(dt);
    char want[8];
    vsym_coll_store_double(dt, want, 0, v);
    return memcmp(buf + i * es, want, es) == 0;
}

/* One checked call: fill the inputs, run, count wrong elements on this rank. */
static long check_coll(crun_t *r, int corrupt)
{
    int n = r->b->nranks, me = r->b->rank;
    size_t c = r->count;
    size_t nin = (r->kind == VSYM_COLL_KIND_REDUCE_SCATTER || r->kind == VSYM_COLL_KIND_ALLTOALL)
                     ? c * (size_t)n
                     : c;
    const int root = r->b->opts->root, holds = r->kind != VSYM_COLL_KIND_BROADCAST || me == root;
    char *in, *out;
    call_bufs(r, &in, &out);
    if (holds)
        for (size_t i = 0; i < nin; i++)
            vsym_coll_store_double(r->dtype, in, i, cval(r->op, r->dtype, me, i));
    if (corrupt && holds && (me == 0 || r->kind == VSYM_COLL_KIND_BROADCAST) && nin > 0)
        in[0] ^= 0x40;
    if (unit_coll(r, 0) != VSYM_OK) return -1;
    long wrong = 0;
    for (size_t i = 0; i < c; i++) {
        switch (r->kind) {
        case VSYM_COLL_KIND_ALLREDUCE:
            wrong += !same_elem(r->dtype, out, i, cred(r->op, r->dtype, n, i));
            break;
        case VSYM_COLL_KIND_REDUCE_SCATTER:
            wrong += !same_elem(r->dtype, out, i, cred(r->op, r->dtype, n, (size_t)me * c + i));
            break;
        case VSYM_COLL_KIND_BROADCAST:
            wrong += !same_elem(r->dtype, out, i, cval(r->op, r->dtype, root, i));
            break;
        case VSYM_COLL_KIND_ALLGATHER:
            for (int k = 0; k < n; k++)
                wrong += !same_elem(r->dtype, out, (size_t)k * c + i, cval(r->op, r->dtype, k, i));
            break;
        default:
            for (int k = 0; k < n; k++)
                wrong += !same_elem(r->dtype, out, (size_t)k * c + i,
                                    cval(r->op, r->dtype, k, (size_t)me * c + i));
            break;
        }
    }
    return wrong;
}

/* ---- Options ------------------------------------------------------------------------------ */

/* The dtypes and reduction ops a collective suite runs: one of each, or "all" (nccl-tests' -d all
 * and -o all): every dtype; sum, min, max, and prod where the dtype is an integer (the library's
 * prod is for integers only). fop: the fused suite's one op, VSYM_FUSED_OP_COUNT for all. */
typedef struct coll_sel {
    vsym_dtype_t dt[VSYM_DTYPE_COUNT];
    int ndt;
    vsym_red_op_t op[VSYM_RED_COUNT];
    int nop;
    vsym_fused_op_t fop;
} coll_sel_t;

static int dtype_is_int(vsym_dtype_t d)
{
    return d == VSYM_DTYPE_I32 || d == VSYM_DTYPE_I64 || d == VSYM_DTYPE_U64;
}

/* Whether the pair runs: prod only on integer dtypes. */
static int sel_runs(vsym_dtype_t d, vsym_red_op_t op)
{
    return op != VSYM_RED_PROD || dtype_is_int(d);
}

/* The bytes of one element per rank of collective kind: the smallest size it can run (smaller
 * sizes give a count of 0, and the sweep leaves them out, as nccl-tests rounds a size down). */
static size_t coll_unit(const vsym_bench_t *b, vsym_coll_kind_t kind, vsym_dtype_t dtype)
{
    const int whole = kind == VSYM_COLL_KIND_ALLREDUCE || kind == VSYM_COLL_KIND_BROADCAST;
    return vsym_dtype_size(dtype) * (whole ? 1 : (size_t)b->nranks);
}

static int parse_common(const vsym_bench_opts_t *o, int fused, coll_sel_t *s, char *err,
                        size_t errlen)
{
    static const char *const dnames[] = {"f32", "f64", "f16", "bf16", "i32", "i64", "u64"};
    static const char *const aliases[][2] = {
        {"float", "f32"}, {"float32", "f32"}, {"double", "f64"},    {"float64", "f64"},
        {"half", "f16"},  {"float16", "f16"}, {"bfloat16", "bf16"}, {"int32", "i32"},
        {"int64", "i64"}, {"uint64", "u64"}};
    const char *d = o->dtype ? o->dtype : (fused ? "f16" : "f32");
    for (size_t k = 0; k < sizeof(aliases) / sizeof(aliases[0]); k++)
        if (strcmp(d, aliases[k][0]) == 0) d = aliases[k][1];
    s->ndt = 0;
    for (int k = 0; k < VSYM_DTYPE_COUNT; k++)
        if (strcmp(d, "all") == 0 || strcmp(d, dnames[k]) == 0) s->dt[s->ndt++] = (vsym_dtype_t)k;
    if (s->ndt == 0) {
        snprintf(err, errlen, "unknown --dtype '%s' (f32, f64, f16, bf16, i32, i64, u64, all)", d);
        return -1;
    }
    const char *algo = getenv("VSYM_COLL_ALGO");
    if (algo && strcmp(algo, "auto") && strcmp(algo, "oneshot") && strcmp(algo, "twoshot") &&
        strcmp(algo, "ring") && strcmp(algo, "rd") && strcmp(algo, "hier")) {
        snprintf(err, errlen,
                 "unknown VSYM_COLL_ALGO '%s' (auto, oneshot, twoshot, ring, rd, "
                 "hier)",
                 algo);
        return -1;
    }
    s->op[0] = VSYM_RED_SUM;
    s->nop = 1;
    if (fused) {
        s->fop = VSYM_FUSED_OP_COUNT; /* all */
        if (o->op == NULL) return 0;
        static const char *const fnames[] = {"allreduce", "allgather", "reducescatter",
                                             "allreduce_allgather", "reducescatter_allreduce"};
        for (int k = 0; k < VSYM_FUSED_OP_COUNT; k++)
            if (strcmp(o->op, fnames[k]) == 0) {
                s->fop = (vsym_fused_op_t)k;
                return 0;
            }
        snprintf(err, errlen,
                 "unknown fused --op '%s' (allreduce, allgather, reducescatter, "
                 "allreduce_allgather, reducescatter_allreduce)",
                 o->op);
        return -1;
    }
    static const char *const onames[] = {"sum", "min", "max", "prod"};
    const char *on = o->op ? o->op : "sum";
    s->nop = 0;
    for (int k = 0; k < VSYM_RED_COUNT; k++)
        if (strcmp(on, "all") == 0 || strcmp(on, onames[k]) == 0)
            s->op[s->nop++] = (vsym_red_op_t)k;
    if (s->nop == 0) {
        snprintf(err, errlen, "unknown --op '%s' (sum, min, max, prod, all)", on);
        return -1;
    }
    int pairs = 0;
    for (int i = 0; i < s->ndt; i++)
        for (int j = 0; j < s->nop; j++)
            pairs += sel_runs(s->dt[i], s->op[j]);
    if (pairs == 0) {
        snprintf(err, errlen, "--op prod needs an integer --dtype (i32, i64, u64, all)");
        return -1;
    }
    return 0;
}

static int check_coll_opts(const vsym_bench_opts_t *o, char *err, size_t errlen)
{
    coll_sel_t s;
    return parse_common(o, 0, &s, err, errlen);
}

static int check_fused_opts(const vsym_bench_opts_t *o, char *err, size_t errlen)
{
    coll_sel_t s;
    return parse_common(o, 1, &s, err, errlen);
}

/* A sweep in which no size holds one element (per rank, where a size is divided among the ranks)
 * of any dtype named: a usage error, not a run of empty tables. */
static int check_coll_sizes(const vsym_bench_t *b, vsym_coll_kind_t kind, char *err, size_t errlen)
{
    coll_sel_t s;
    if (parse_common(b->opts, 0, &s, err, errlen) != 0) return -1;
    int small = 0; /* the dtype of the smallest unit */
    for (int i = 1; i < s.ndt; i++)
        if (coll_unit(b, kind, s.dt[i]) < coll_unit(b, kind, s.dt[small])) small = i;
    const size_t unit = coll_unit(b, kind, s.dt[small]);
    if (b->max_size >= unit) return 0;
    char per[64] = "";
    if (unit > vsym_dtype_size(s.dt[small]))
        snprintf(per, sizeof(per), " per rank (%zu bytes with %d ranks)", unit, b->nranks);
    else
        snprintf(per, sizeof(per), " (%zu bytes)", unit);
    snprintf(err, errlen, "%s: no size of the sweep holds one %s element%s; the largest is %zu",
             b->suite->name, vsym_dtype_name(s.dt[small]), per, b->max_size);
    return -1;
}

/* ---- Running ------------------------------------------------------------------------------ */

/* Time one configuration on every rank; the slowest rank's average (us) is the result. */
static vsym_status_t time_units(vsym_bench_t *b, vsym_bench_unit_fn fn, void *arg, double bytes,
                                double *us_p, long *iters_p)
{
    vsym_bench_timing_t t = {fn, arg, bytes, 1, 1, 0};
    vsym_bench_stats_t st;
    long n = vsym_bench_default_iterations(b, bytes);
    vsym_status_t rc;
    if (b->opts->duration_s > 0) {
        uint64_t t0 = vsym_util_time_ns();
        for (int i = 0; i < 5; i++)
            if ((rc = fn(arg, i)) != VSYM_OK) return rc;
        double per = (double)(vsym_util_time_ns() - t0) / 5.0;
        n = (long)(b->opts->duration_s * 1e9 / (per > 1 ? per : 1));
        n = n < 10 ? 10 : n;
        if ((rc = vsym_bench_share_long(b, 0, &n)) != VSYM_OK) return rc;
    }
    t.iterations = n;
    vsym_bench_stats_init(&st, (size_t)bytes);
    if ((rc = vsym_bench_measure(b, &t, &st)) != VSYM_OK) return rc;
    double us = st.seconds * 1e6 / (double)st.iterations;
    double *all = malloc((size_t)b->nranks * sizeof(double));
    if (all == NULL) return VSYM_ERR_NO_MEMORY;
    rc = vsym_team_exchange(b->world, &us, sizeof(us), all);
    for (int r = 0; rc == VSYM_OK && r < b->nranks; r++)
        us = all[r] > us ? all[r] : us;
    free(all);
    *us_p = us;
    *iters_p = n;
    return rc;
}

static const vsym_bench_column_t coll_cols[] = {
    {"size", 12, 0},        {"count", 12, 0}, {"oop_time[us]", 13, 2}, {"algbw[GB/s]", 12, 2},
    {"busbw[GB/s]", 12, 2}, {"#wrong", 7, 0}, {"ip_time[us]", 13, 2},  {"algbw[GB/s]", 12, 2},
    {"busbw[GB/s]", 12, 2}, {"#wrong", 7, 0},
};

/* After a table: the sizes from which each path ran (out of place), e.g.
 * "# path: 8 B oneshot-ll, 4 KiB ring"; label names the line ("path"; the fused tables' "auto
 * ran": the mode AUTO resolved to, vsym_fused_select_mode_for). */
static void print_paths(vsym_bench_t *b, const char *const *paths, const char *label)
{
    if (b->rank != 0 || b->opts->quiet || b->opts->csv) return;
    const char *last = NULL;
    char sz[32];
    printf("# %s:", label);
    for (int k = 0; k < b->nsizes; k++) {
        if (paths[k] == NULL || (last != NULL && strcmp(paths[k], last) == 0)) continue;
        printf("%s %s %s", last ? "," : "", vsym_util_format_size(b->sizes[k], sz, sizeof(sz)),
               paths[k]);
        last = paths[k];
    }
    printf("\n");
    fflush(stdout);
}

/* Under a table, nccl-tests' closing lines: the wrong values of the table's rows (with --check) and
 * the mean of its out-of-place and in-place busbw, GB/s ("# Avg bus bandwidth    : 21.6"). */
static void print_summary(vsym_bench_t *b, const double (*rows)[10], int nrows)
{
    if (b->rank != 0 || b->opts->quiet || b->opts->csv) return;
    double bw = 0, wrong = 0;
    int n = 0;
    for (int k = 0; k < nrows; k++) {
        if (rows[k][0] <= 0) continue;
        for (int ip = 0; ip < 2; ip++) {
            bw += rows[k][4 + 4 * ip];
            wrong += rows[k][5 + 4 * ip] > 0 ? rows[k][5 + 4 * ip] : 0;
            n++;
        }
    }
    if (b->opts->check)
        printf("# Out of bounds values : %.0f %s\n", wrong, wrong > 0 ? "FAILED" : "OK");
    else
        printf("# Out of bounds values : not checked (-c)\n");
    printf("# Avg bus bandwidth    : %.3f\n", n > 0 ? bw / n : 0.0);
    fflush(stdout);
}

/* Where sizes of the sweep are under unit bytes, a line on rank 0 under the table's header says
 * that they are left out, and why (what: "one f32 element per rank"). */
static void note_left_out(vsym_bench_t *b, size_t unit, const char *what)
{
    int held = 0;
    for (int k = 0; k < b->nsizes; k++)
        held += b->sizes[k] >= unit;
    if (held < b->nsizes && b->rank == 0 && !b->opts->quiet && !b->opts->csv) {
        printf("# sizes under %zu bytes left out (%d of %d): less than %s\n", unit,
               b->nsizes - held, b->nsizes, what);
        fflush(stdout);
    }
}

/* One dtype and op of a collective suite: its table of ordinary buffers, then of symmetric ones.
 * Returns a status (< 0) or the number of wrong values. */
static int run_coll_one(vsym_bench_t *b, vsym_coll_kind_t kind, const char *name,
                        vsym_dtype_t dtype, vsym_red_op_t op)
{
    crun_t r;
    double(*rows)[10] = NULL;     /* the rows of both tables (the symmetric one's printed after) */
    const char **paths = NULL;    /* the path of each size, out of place, per sweep */
    memset(&r, 0, sizeof(r));
    r.b = b;
    r.kind = kind;
    r.dtype = dtype;
    r.op = op;
    int n = b->nranks;
    size_t es = vsym_dtype_size(r.dtype);
    double factor = kind == VSYM_COLL_KIND_ALLREDUCE   ? 2.0 * (n - 1) / n
                    : kind == VSYM_COLL_KIND_BROADCAST ? 1.0
                                                       : (double)(n - 1) / n;
    int reduces = kind == VSYM_COLL_KIND_ALLREDUCE || kind == VSYM_COLL_KIND_REDUCE_SCATTER;
    vsym_status_t st = vsym_coll_create(b->world, &r.coll);
    if (st != VSYM_OK) return st;
    r.src = malloc(b->max_size + 64);
    r.dst = malloc(b->max_size + 64);
    if (!r.src || !r.dst) {
        st = VSYM_ERR_NO_MEMORY;
        goto out;
    }
    vsym_bench_input_fill(r.src, b->max_size + 64);
    vsym_bench_input_fill(r.dst, b->max_size + 64);
    const char *algo = getenv("VSYM_COLL_ALGO");
    char key[160], title[240];
    long total_wrong = 0;
    char *heap_src = r.src, *heap_dst = r.dst;
    /* Every collective measures every size twice: with ordinary buffers (malloc), then with
     * symmetric buffers of the handle (vsym_coll_buffer_alloc), which they read in place from a
     * few KiB. The two take turns size by size (a machine that changes speed during a run then
     * affects both alike); the symmetric table is printed after the ordinary one. */
    char *bufs[2][2] = {{heap_src, heap_dst}, {NULL, NULL}};
    paths = calloc(2 * (size_t)b->nsizes, sizeof(*paths));
    if (paths == NULL) {
        st = VSYM_ERR_NO_MEMORY;
        goto out;
    }
    void *a = NULL, *d = NULL;
    st = vsym_coll_buffer_alloc(r.coll, b->max_size + 64, &a);
    if (st == VSYM_OK) st = vsym_coll_buffer_alloc(r.coll, b->max_size + 64, &d);
    rows = calloc(2 * (size_t)b->nsizes, sizeof(*rows));
    if (st == VSYM_OK && rows == NULL) st = VSYM_ERR_NO_MEMORY;
    if (st != VSYM_OK) goto out;
    vsym_bench_input_fill(a, b->max_size + 64);
    vsym_bench_input_fill(d, b->max_size + 64);
    bufs[1][0] = a;
    bufs[1][1] = d;
    snprintf(key, sizeof(key), "%s/%s/%s/%s/%d", name, vsym_dtype_name(r.dtype),
             reduces ? vsym_red_op_name(r.op) : "-", algo ? algo : "auto", 0);
    char root[24] = ""; /* a broadcast's root other than rank 0 */
    if (kind == VSYM_COLL_KIND_BROADCAST && b->opts->root != 0)
        snprintf(root, sizeof(root), "  root %d", b->opts->root);
    snprintf(title, sizeof(title), "%s  dtype %s  op %s  algo %s  ranks %d%s  (busbw factor %.3f)",
             name, vsym_dtype_name(r.dtype), reduces ? vsym_red_op_name(r.op) : "none",
             algo ? algo : "auto", n, root, factor);
    vsym_bench_table_header(b, key, title, coll_cols, 10);
    const size_t per = coll_unit(b, kind, r.dtype) / es; /* 1, or n blocks of count elements */
    char what[64];
    snprintf(what, sizeof(what), "one %s element%s", vsym_dtype_name(r.dtype),
             per > 1 ? " per rank" : "");
    note_left_out(b, per * es, what);
    for (int k = 0; k < b->nsizes && st == VSYM_OK; k++) {
        size_t size = b->sizes[k];
        r.count = size / es / per;
        if (r.count == 0) continue;
        size_t bytes = r.count * es * per;
        vsym_bench_core_rtt(b);
        for (int sym = 0; sym < 2 && st == VSYM_OK; sym++) {
            double row[10] = {(double)bytes, (double)(r.count * per)};
            r.src = bufs[sym][0];
            r.dst = bufs[sym][1];
            for (int ip = 0; ip < 2 && st == VSYM_OK; ip++) {
                double us = 0;
                long iters = 0, wrong = -1;
                r.inplace = ip;
                st = time_units(b, unit_coll, &r, (double)bytes, &us, &iters);
                if (st != VSYM_OK) break;
                if (b->opts->check) {
                    long w = check_coll(&r, b->opts->test_corrupt);
                    if (w < 0) {
                        st = VSYM_ERR_TRANSPORT;
                        break;
                    }
                    long *all = malloc((size_t)n * sizeof(long));
                    st = vsym_team_exchange(b->world, &w, sizeof(w), all);
                    wrong = 0;
                    for (int q = 0; q < n; q++)
                        wrong += all[q];
                    free(all);
                    total_wrong += wrong;
                }
                double algbw = (double)bytes / (us * 1e3);
                row[2 + 4 * ip] = us;
                row[3 + 4 * ip] = algbw;
                row[4 + 4 * ip] = algbw * factor;
                row[5 + 4 * ip] = (double)wrong;
                json_t *rec = vsym_bench_record_new(
                    b, name,
                    sym ? (ip ? "in-place-symmetric" : "out-of-place-symmetric")
                        : (ip ? "in-place" : "out-of-place"),
                    size);
                json_object_set_new(rec, "dtype", json_string(vsym_dtype_name(r.dtype)));
                if (reduces) json_object_set_new(rec, "redop", json_string(vsym_red_op_name(r.op)));
                if (kind == VSYM_COLL_KIND_BROADCAST)
                    json_object_set_new(rec, "root", json_integer(b->opts->root));
                json_object_set_new(rec, "algo", json_string(algo ? algo : "auto"));
                if (b->opts->touch) json_object_set_new(rec, "touch", json_true());
                if (b->opts->consume) json_object_set_new(rec, "consume", json_true());
                json_object_set_new(rec, "input_byte", json_integer(VSYM_BENCH_INPUT_BYTE));
                /* The way the library ran it (AUTO's choice, symmetric buffers in place). */
                char *psrc, *pdst;
                call_bufs(&r, &psrc, &pdst);
                const char *path = vsym_coll_path(r.coll, kind, psrc, pdst, r.count, r.dtype,
                                                  b->opts->root, VSYM_COLL_AUTO);
                json_object_set_new(rec, "path", path ? json_string(path) : json_null());
                /* The line round trip the library streams its publishes by (the team's record,
                 * VSYM_PUBLISH_STREAM auto; 0: none timed), next to the bench's own core_rtt_ns. */
                json_object_set_new(rec, "team_rtt_ns",
                                    json_integer((json_int_t)vsym_coll_line_rtt(r.coll)));
                if (!ip) paths[(size_t)sym * (size_t)b->nsizes + (size_t)k] = path;
                json_object_set_new(rec, "count", json_integer((json_int_t)(r.count * per)));
                json_object_set_new(rec, "iterations", json_integer(iters));
                json_object_set_new(rec, "time_us", json_real(us));
                json_object_set_new(rec, "algbw_gbs", json_real(algbw));
                json_object_set_new(rec, "busbw_gbs", json_real(algbw * factor));
                json_object_set_new(rec, "busbw_factor", json_real(factor));
                json_object_set_new(rec, "wrong", wrong < 0 ? json_null() : json_integer(wrong));
                if (st == VSYM_OK)
                    st = vsym_bench_record_emit(b, rec);
                else
                    json_decref(rec);
            }
            if (st != VSYM_OK) break;
            memcpy(rows[(size_t)sym * (size_t)b->nsizes + (size_t)k], row, sizeof(row));
            if (sym == 0) vsym_bench_table_row(b, coll_cols, 10, row);
        }
    }
    if (st == VSYM_OK) {
        print_paths(b, paths, "path");
        print_summary(b, rows, b->nsizes);
        snprintf(key, sizeof(key), "%s/%s/%s/%s/%d", name, vsym_dtype_name(r.dtype),
                 reduces ? vsym_red_op_name(r.op) : "-", algo ? algo : "auto", 1);
        snprintf(title, sizeof(title),
                 "%s  dtype %s  op %s  algo %s  ranks %d%s  (busbw factor %.3f)  symmetric buffers",
                 name, vsym_dtype_name(r.dtype), reduces ? vsym_red_op_name(r.op) : "none",
                 algo ? algo : "auto", n, root, factor);
        vsym_bench_table_header(b, key, title, coll_cols, 10);
        for (int k = 0; k < b->nsizes; k++)
            if (rows[b->nsizes + k][0] > 0)
                vsym_bench_table_row(b, coll_cols, 10, rows[b->nsizes + k]);
        print_paths(b, paths + b->nsizes, "path, symmetric buffers");
        print_summary(b, rows + b->nsizes, b->nsizes);
    }
    r.src = heap_src;
    r.dst = heap_dst;
out:
    free(rows);
    free(paths);
    free(r.src);
    free(r.dst);
    vsym_status_t st2 = vsym_coll_destroy(r.coll);
    if (st == VSYM_OK) st = st2;
    if (st != VSYM_OK) return (int)st;
    return vsym_bench_wrong_rc(total_wrong);
}

/* Every dtype and op the options name (parse_common), one after the other; the reductions' ops only
 * where the collective reduces. Returns the first failure's status, else the wrong values. */
static int run_coll_kind(vsym_bench_t *b, vsym_coll_kind_t kind, const char *name)
{
    coll_sel_t s;
    char err[200];
    if (parse_common(b->opts, 0, &s, err, sizeof(err)) != 0) return VSYM_ERR_INVALID_PARAM;
    const int reduces = kind == VSYM_COLL_KIND_ALLREDUCE || kind == VSYM_COLL_KIND_REDUCE_SCATTER;
    long wrong = 0;
    for (int i = 0; i < s.ndt; i++)
        for (int j = 0; j < (reduces ? s.nop : 1); j++) {
            if (reduces && !sel_runs(s.dt[i], s.op[j])) continue;
            const int rc = run_coll_one(b, kind, name, s.dt[i], s.op[j]);
            if (rc < 0) return rc;
            wrong += rc;
        }
    return vsym_bench_wrong_rc(wrong);
}

/* ---- Fused -------------------------------------------------------------------------------- */

static const vsym_bench_column_t fused_cols[] = {
    {"size", 12, 0},      {"n", 10, 0},        {"baseline", 11, 2}, {"oneshot", 11, 2},
    {"twoshot", 11, 2},   {"fewest_b", 11, 2}, {"auto", 11, 2},     {"best/base", 10, 2},
    {"auto/base", 10, 2}, {"#wrong", 7, 0},
};

/* Exact small integers per (rank, index); the expected output of op for this rank. */
static long check_fused(crun_t *r, size_t nin, size_t nout, const vsym_fused_topo_t *t)
{
    int me = r->b->rank, W = r->b->nranks, tpr, dpr;
    int tp = t->local_tp_size * t->inter_tp_size, dp = t->local_dp_size * t->inter_dp_size;
    size_t n = r->count;
    vsym_fused_topo_ranks(t, me, &tpr, &dpr);
    for (size_t i = 0; i < nin; i++)
        vsym_coll_store_double(r->dtype, r->src, i, cval(VSYM_RED_SUM, r->dtype, me, i));
    if (r->b->opts->test_corrupt && me == 0 && nin > 0) r->src[0] ^= 0x40;
    if (unit_fused(r, 0) != VSYM_OK) return -1;
    long wrong = 0;
    for (size_t o = 0; o < nout; o++) {
        size_t blk = o / n, i = o % n;
        double s = 0;
        switch (r->fop) {
        case VSYM_FUSED_ALLGATHER:
            s = cval(VSYM_RED_SUM, r->dtype, vsym_fused_topo_world_rank(t, 0, (int)blk), i);
            break;
        case VSYM_FUSED_ALLREDUCE_ALLGATHER:
            for (int k = 0; k < tp; k++)
                s += cval(VSYM_RED_SUM, r->dtype, vsym_fused_topo_world_rank(t, k, (int)blk), i);
            break;
        case VSYM_FUSED_ALLREDUCE:
            for (int q = 0; q < W; q++)
                s += cval(VSYM_RED_SUM, r->dtype, q, i);
            break;
        default:
            for (int q = 0; q < W; q++)
                s += cval(VSYM_RED_SUM, r->dtype, q, (size_t)dpr * n + i);
            break;
        }
        wrong += !same_elem(r->dtype, r->dst, o, s);
    }
    (void)dp;
    return wrong;
}

/* Rounds of the fused suite's interleaved timing. */
#define FUSED_ROUNDS 5

/* The median over the rounds of the baseline's time over the mode's (a speed-up from times
 * taken seconds apart, so that a machine whose speed drifts affects both alike). */
static double paired_speedup(const double *mode_t, const double *base_t)
{
    double v[FUSED_ROUNDS];
    for (int q = 0; q < FUSED_ROUNDS; q++)
        v[q] = mode_t[q] > 0 ? base_t[q] / mode_t[q] : 0;
    return vsym_util_median(v, FUSED_ROUNDS);
}

/* The fused suite of one dtype: every factorisation, op and mode. Returns a status (< 0) or the
 * number of wrong values. */
static int run_fused_dtype(vsym_bench_t *b, vsym_dtype_t dtype, vsym_fused_op_t only)
{
    crun_t r;
    memset(&r, 0, sizeof(r));
    r.b = b;
    r.dtype = dtype;
    size_t es = vsym_dtype_size(r.dtype);
    int L = vsym_team_size(vsym_team_node(b->ctx));
    vsym_status_t st = VSYM_OK;
    long total_wrong = 0;
    r.src = malloc(b->max_size * (size_t)b->nranks + 64);
    r.dst = malloc(b->max_size * (size_t)b->nranks + 64);
    if (!r.src || !r.dst) {
        free(r.src);
        free(r.dst);
        return VSYM_ERR_NO_MEMORY;
    }
    vsym_bench_input_fill(r.src, b->max_size * (size_t)b->nranks + 64);
    vsym_bench_input_fill(r.dst, b->max_size * (size_t)b->nranks + 64);
    /* The mode AUTO ran at each size of a table, listed under it ("# auto ran:"). */
    const char **auto_ran = calloc((size_t)b->nsizes, sizeof(*auto_ran));
    if (auto_ran == NULL) {
        free(r.src);
        free(r.dst);
        return VSYM_ERR_NO_MEMORY;
    }
    const char *tune_file = getenv("VSYM_AUTOTUNE_FILE");
    for (int ltp = 1; ltp <= L && st == VSYM_OK; ltp++) {
        if (L % ltp != 0) continue;
        vsym_fused_topo_t given = {ltp, 0, 0, 0}, t;
        if ((st = vsym_fused_create(b->ctx, &given, &r.fused)) != VSYM_OK) break;
        vsym_fused_get_topo(r.fused, &t);
        unsigned ops = vsym_fused_valid_ops(r.fused), modes = vsym_fused_valid_modes(r.fused);
        if (tune_file && tune_file[0] && !vsym_coll_fused_tuned(r.fused, r.dtype)) {
            /* No table yet for this machine: tune on the sweep's sizes and save it. */
            int lo = 0, hi = 0;
            while (((size_t)1 << lo) < b->sizes[0])
                lo++;
            while (((size_t)1 << hi) < b->max_size)
                hi++;
            st = vsym_fused_autotune(r.fused, r.dtype, lo, hi, 20);
            vsym_status_t st2 = vsym_team_barrier(b->world, 0);
            if (st == VSYM_OK) st = st2;
        }
        /* Each op twice: ordinary buffers (malloc), then symmetric buffers of the handler
         * (vsym_fused_buffer_alloc), which the two-shot modes read and write in place. */
        char *heap_src = r.src, *heap_dst = r.dst;
        void *sym_src = NULL, *sym_dst = NULL;
        for (int fo = 0, sym = 0; sym < 2 && st == VSYM_OK;
             fo = (fo + 1) % VSYM_FUSED_OP_COUNT, sym += fo == 0) {
            if (fo == 0 && sym == 1) {
                size_t outb = b->max_size * (size_t)(t.local_dp_size * t.inter_dp_size) + 64;
                if ((st = vsym_fused_buffer_alloc(r.fused, b->max_size + 64, &sym_src)) !=
                        VSYM_OK ||
                    (st = vsym_fused_buffer_alloc(r.fused, outb, &sym_dst)) != VSYM_OK)
                    break;
                vsym_bench_input_fill(sym_src, b->max_size + 64);
                vsym_bench_input_fill(sym_dst, outb);
                r.src = sym_src;
                r.dst = sym_dst;
            }
            if (!(ops & (1u << fo)) || (only != VSYM_FUSED_OP_COUNT && (int)only != fo)) continue;
            r.fop = (vsym_fused_op_t)fo;
            char key[160], title[260];
            const int touch = b->opts->touch, consume = b->opts->consume;
            snprintf(key, sizeof(key), "fused/%s/%d/%d/%d/%d/%s%s%s%s", vsym_fused_op_name(r.fop),
                     t.local_tp_size, t.local_dp_size, t.inter_tp_size, t.inter_dp_size,
                     vsym_dtype_name(r.dtype), sym ? "/symmetric" : "", touch ? "/touch" : "",
                     consume ? "/consume" : "");
            snprintf(title, sizeof(title),
                     "fused %s  local_tp %d local_dp %d inter_tp %d inter_dp %d  dtype %s  %s "
                     "buffers%s%s  (times in us; 0: mode not valid here)",
                     vsym_fused_op_name(r.fop), t.local_tp_size, t.local_dp_size, t.inter_tp_size,
                     t.inter_dp_size, vsym_dtype_name(r.dtype), sym ? "symmetric" : "ordinary",
                     touch ? ", input rewritten before each call (--touch)" : "",
                     consume ? ", output read after each call (--consume)" : "");
            vsym_bench_table_header(b, key, title, fused_cols, 10);
            size_t blocks, nin, nout; /* blocks: of the input, one element each at count 1 */
            vsym_fused_shapes(r.fused, r.fop, 1, &blocks, &nout);
            char what[64];
            snprintf(what, sizeof(what), "one %s element per block of the input (%zu blocks)",
                     vsym_dtype_name(r.dtype), blocks);
            note_left_out(b, es * blocks, what);
            for (int k = 0; k < b->nsizes && st == VSYM_OK; k++) {
                auto_ran[k] = NULL;
                r.count = b->sizes[k] / es / blocks;
                if (r.count == 0) continue;
                vsym_fused_shapes(r.fused, r.fop, r.count, &nin, &nout);
                if (modes & (1u << VSYM_FUSED_AUTO))
                    auto_ran[k] = vsym_fused_mode_name(
                        vsym_fused_select_mode_for(r.fused, r.fop, r.src, r.dst, r.count, r.dtype));
                vsym_bench_core_rtt(b);
                double times[VSYM_FUSED_MODE_COUNT] = {0}, speedup[VSYM_FUSED_MODE_COUNT] = {0};
                double best = 0;
                const int has_base = (modes >> VSYM_FUSED_BASELINE) & 1;
                double rt[VSYM_FUSED_MODE_COUNT][FUSED_ROUNDS] = {{0}};
                long iters_m[VSYM_FUSED_MODE_COUNT] = {0};
                long wrong_row = b->opts->check ? 0 : -1;
                /* Every mode (auto included) is timed in each of FUSED_ROUNDS rounds, the modes
                 * taking turns in an order that rotates per round, and reports its median: a
                 * mode and the baseline are compared under the same conditions, not minutes
                 * apart on a machine whose speed drifts. */
                for (int round = 0; round < FUSED_ROUNDS && st == VSYM_OK; round++) {
                    for (int mi = 0; mi < VSYM_FUSED_MODE_COUNT && st == VSYM_OK; mi++) {
                        int mode = (mi + round) % VSYM_FUSED_MODE_COUNT;
                        if (!(modes & (1u << mode))) continue;
                        r.fmode = (vsym_fused_mode_t)mode;
                        st = time_units(b, unit_fused, &r, (double)(nin * es), &rt[mode][round],
                                        &iters_m[mode]);
                    }
                }
                for (int mode = 0; mode < VSYM_FUSED_MODE_COUNT && st == VSYM_OK; mode++) {
                    if (!(modes & (1u << mode))) continue;
                    double v[FUSED_ROUNDS];
                    memcpy(v, rt[mode], sizeof(v));
                    times[mode] = vsym_util_median(v, FUSED_ROUNDS);
                    if (has_base) speedup[mode] = paired_speedup(rt[mode], rt[VSYM_FUSED_BASELINE]);
                    if (mode != VSYM_FUSED_BASELINE && mode != VSYM_FUSED_AUTO &&
                        speedup[mode] > best)
                        best = speedup[mode];
                }
                /* Baseline first (when valid) so the others can be compared to it. */
                for (int mi = 0; mi < VSYM_FUSED_MODE_COUNT && st == VSYM_OK; mi++) {
                    int mode = mi == 0 ? VSYM_FUSED_BASELINE
                                       : (mi == VSYM_FUSED_BASELINE ? VSYM_FUSED_AUTO : mi);
                    if (!(modes & (1u << mode))) continue;
                    r.fmode = (vsym_fused_mode_t)mode;
                    double us = times[mode];
                    long iters = iters_m[mode], wrong = -1;
                    if (b->opts->check) {
                        long w = check_fused(&r, nin, nout, &t);
                        long *all = malloc((size_t)b->nranks * sizeof(long));
                        if (w < 0 || all == NULL) {
                            free(all);
                            st = VSYM_ERR_TRANSPORT;
                            break;
                        }
                        st = vsym_team_exchange(b->world, &w, sizeof(w), all);
                        wrong = 0;
                        for (int q = 0; q < b->nranks; q++)
                            wrong += all[q];
                        free(all);
                        total_wrong += wrong;
                        wrong_row += wrong;
                    }
                    json_t *rec = vsym_bench_record_new(b, vsym_fused_op_name(r.fop),
                                                        vsym_fused_mode_name(r.fmode), nin * es);
                    json_object_set_new(rec, "dtype", json_string(vsym_dtype_name(r.dtype)));
                    json_object_set_new(rec, "topology",
                                        json_pack("{sisisisi}", "local_tp", t.local_tp_size,
                                                  "local_dp", t.local_dp_size, "inter_tp",
                                                  t.inter_tp_size, "inter_dp", t.inter_dp_size));
                    if (mode == VSYM_FUSED_AUTO)
                        json_object_set_new(rec, "selected", json_string(auto_ran[k]));
                    json_object_set_new(rec, "buffers",
                                        json_string(sym ? "symmetric" : "ordinary"));
                    json_object_set_new(rec, "input_byte", json_integer(VSYM_BENCH_INPUT_BYTE));
                    if (b->opts->touch) json_object_set_new(rec, "touch", json_true());
                    if (b->opts->consume) json_object_set_new(rec, "consume", json_true());
                    json_object_set_new(rec, "n", json_integer((json_int_t)r.count));
                    json_object_set_new(rec, "iterations", json_integer(iters));
                    json_object_set_new(rec, "time_us", json_real(us));
                    json_t *rounds = json_array();
                    for (int q = 0; q < FUSED_ROUNDS; q++)
                        json_array_append_new(rounds, json_real(rt[mode][q]));
                    json_object_set_new(rec, "time_us_rounds", rounds);
                    json_object_set_new(rec, "algbw_gbs",
                                        json_real((double)(nin * es) / (us * 1e3)));
                    json_object_set_new(rec, "speedup_vs_baseline",
                                        has_base ? json_real(speedup[mode]) : json_null());
                    json_object_set_new(rec, "wrong",
                                        wrong < 0 ? json_null() : json_integer(wrong));
                    if (st == VSYM_OK)
                        st = vsym_bench_record_emit(b, rec);
                    else
                        json_decref(rec);
                }
                if (st != VSYM_OK) break;
                double row[10] = {(double)(nin * es),         (double)r.count,
                                  times[VSYM_FUSED_BASELINE], times[VSYM_FUSED_ONESHOT],
                                  times[VSYM_FUSED_TWOSHOT],  times[VSYM_FUSED_FEWEST_BYTES],
                                  times[VSYM_FUSED_AUTO],     best,
                                  speedup[VSYM_FUSED_AUTO],   (double)wrong_row};
                vsym_bench_table_row(b, fused_cols, 10, row);
            }
            if (st == VSYM_OK) print_paths(b, auto_ran, "auto ran");
        }
        r.src = heap_src;
        r.dst = heap_dst;
        vsym_status_t st2 = vsym_fused_destroy(r.fused); /* frees sym_src and sym_dst */
        if (st == VSYM_OK) st = st2;
    }
    free(r.src);
    free(r.dst);
    free(auto_ran);
    if (st != VSYM_OK) return (int)st;
    return vsym_bench_wrong_rc(total_wrong);
}

static int run_fused(vsym_bench_t *b)
{
    coll_sel_t s;
    char err[200];
    if (parse_common(b->opts, 1, &s, err, sizeof(err)) != 0) return VSYM_ERR_INVALID_PARAM;
    long wrong = 0;
    for (int i = 0; i < s.ndt; i++) {
        const int rc = run_fused_dtype(b, s.dt[i], s.fop);
        if (rc < 0) return rc;
        wrong += rc;
    }
    return vsym_bench_wrong_rc(wrong);
}

/* A collective's suite: its run and its check of the sweep against the ranks, for kind. */
#define COLL_SUITE(id, name_, help_, kind)                                                         \
    static int run_##id(vsym_bench_t *b)                                                           \
    {                                                                                              \
        return run_coll_kind(b, kind, name_);                                                      \
    }                                                                                              \
    static int check_run_##id(const vsym_bench_t *b, char *err, size_t errlen)                     \
    {                                                                                              \
        return check_coll_sizes(b, kind, err, errlen);                                             \
    }                                                                                              \
    const vsym_bench_suite_t vsym_bench_suite_##id = {                                             \
        .name = name_,                                                                             \
        .help = help_,                                                                             \
        .min_ranks = 1,                                                                            \
        .max_ranks = 0,                                                                            \
        .default_min_size = 8,                                                                     \
        .default_max_size = 64u << 20,                                                             \
        .sizeless = 0,                                                                             \
        .check_opts = check_coll_opts,                                                             \
        .run = run_##id,                                                                           \
        .check_run = check_run_##id,                                                               \
    };

COLL_SUITE(allreduce, "allreduce",
           "all-reduce (nccl-tests columns: time, algbw, busbw, #wrong; oop and in-place)",
           VSYM_COLL_KIND_ALLREDUCE)
COLL_SUITE(allgather, "allgather", "all-gather (size: the gathered buffer)",
           VSYM_COLL_KIND_ALLGATHER)
COLL_SUITE(reduce_scatter, "reduce-scatter", "reduce-scatter (size: the input buffer)",
           VSYM_COLL_KIND_REDUCE_SCATTER)
COLL_SUITE(broadcast, "broadcast", "broadcast from rank 0 (-r R: from rank R)",
           VSYM_COLL_KIND_BROADCAST)
COLL_SUITE(alltoall, "alltoall", "all-to-all (size: one rank's buffer)", VSYM_COLL_KIND_ALLTOALL)

const vsym_bench_suite_t vsym_bench_suite_fused = {
    .name = "fused",
    .help = "fused TP x DP collectives (every factorisation, op and mode; vs the baseline)",
    .min_ranks = 1,
    .max_ranks = 0,
    .default_min_size = 1024,
    .default_max_size = 8u << 20,
    .sizeless = 0,
    .check_opts = check_fused_opts,
    .run = run_fused,
};
