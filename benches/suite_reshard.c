/* Suite reshard: move a scaled-down model from one parallel layout to another on the launched
 * ranks, verify every destination element, and report time, bytes and bandwidth, side by side
 * with the copy service moving the same tasks (same ids, peers and sizes) between plain
 * contiguous buffers: the ratio shows what packing, strided slices and many tensors cost.
 *
 *   vsym-run -n 4 -- vsym-bench reshard --model llama3-8b --from tp=2,pp=2 --to tp=4 --scale 1/64
 *
 * Layouts are sized to the launched ranks (a missing dp fills the world); "first=R" in a layout
 * places it at ranks R.. (disjoint source and destination sets). --scale 1/N divides every
 * dimension by N (kept a multiple of the largest TP size). -n timed refits (default 5), -w
 * warm-up refits (default 1), taking turns with the copy baseline's runs. Bandwidth = bytes moved between ranks per refit / refit time
 * (local copies not counted); the time of a refit is rank 0's, between two team barriers. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "util/util.h"

static int parse_scale(const char *text, int *divisor_p)
{
    const char *s = text ? text : "1/64";
    if (strncmp(s, "1/", 2) == 0) s += 2;
    char *end;
    long d = strtol(s, &end, 10);
    if (!*s || *end || d < 1 || d > (1 << 20)) return -1;
    *divisor_p = (int)d;
    return 0;
}

static int reshard_check_opts(const vsym_bench_opts_t *o, char *err, size_t errlen)
{
    int d;
    vsym_reshard_layout_t l;
    if (!o->model == !o->model_file) {
        snprintf(err, errlen, "give exactly one of --model NAME and --model-file FILE");
        return -1;
    }
    if (!o->from || !o->to) {
        snprintf(err, errlen, "--from LAYOUT and --to LAYOUT are required");
        return -1;
    }
    if (vsym_reshard_layout_parse(o->from, &l) != VSYM_OK ||
        vsym_reshard_layout_parse(o->to, &l) != VSYM_OK) {
        snprintf(err, errlen, "%s", vsym_error_detail());
        return -1;
    }
    if (parse_scale(o->scale, &d) != 0) {
        snprintf(err, errlen, "--scale: expected 1/N, got '%s'", o->scale);
        return -1;
    }
    vsym_reshard_model_t *m;
    vsym_status_t st = o->model ? vsym_reshard_model_preset(o->model, &m)
                                : vsym_reshard_model_load(o->model_file, &m);
    if (st != VSYM_OK) {
        snprintf(err, errlen, "%s", vsym_error_detail());
        return -1;
    }
    vsym_reshard_model_destroy(m);
    return 0;
}

static int gcd(int a, int b)
{
    return b ? gcd(b, a % b) : a;
}

static int lcm(int a, int b)
{
    return a / gcd(a, b) * b;
}

/* Sum a count over the world. */
/* *v becomes the sum (or the largest) of every rank's *v. */
static vsym_status_t reduce_u64(vsym_bench_t *b, uint64_t *v, int largest)
{
    uint64_t *all = calloc((size_t)b->nranks, sizeof(uint64_t));
    if (!all) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard bench: no memory");
    vsym_status_t st = vsym_team_exchange(b->world, v, sizeof(*v), all);
    if (st == VSYM_OK) {
        *v = 0;
        for (int i = 0; i < b->nranks; i++)
            *v = largest ? (all[i] > *v ? all[i] : *v) : *v + all[i];
    }
    free(all);
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef vsym_status_t (*refit_fn)(void *arg);

static vsym_status_t run_exec(void *arg)
{
    return vsym_reshard_exec_run(arg);
}

static vsym_status_t run_copy(void *arg)
{
    return vsym_copy_run(arg);
}

/* Median seconds of a refit and of the copy baseline: warm-up, then timed runs each between two
 * team barriers, the two taking turns (refit, copy, refit, ...), so that both are measured under
 * the same conditions on a machine whose speed drifts between minutes or launches. */
static vsym_status_t time_refits(vsym_bench_t *b, refit_fn fn[2], void *arg[2], long warm,
                                 long iters, double median_s[2])
{
    double *t = calloc(2 * (size_t)iters, sizeof(double));
    if (!t) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard bench: no memory");
    vsym_status_t st = VSYM_OK;
    for (long i = 0; i < warm + iters && st == VSYM_OK; i++) {
        for (int k = 0; k < 2 && st == VSYM_OK; k++) {
            st = vsym_team_barrier(b->world, b->opts->timeout_s);
            uint64_t t0 = vsym_util_time_ns();
            if (st == VSYM_OK) st = fn[k](arg[k]);
            if (st == VSYM_OK) st = vsym_team_barrier(b->world, b->opts->timeout_s);
            if (i >= warm) t[k * iters + i - warm] = (vsym_util_time_ns() - t0) / 1e9;
        }
    }
    for (int k = 0; k < 2; k++) {
        qsort(t + k * iters, (size_t)iters, sizeof(double), cmp_double);
        median_s[k] = t[k * iters + iters / 2];
    }
    free(t);
    return st;
}

static const vsym_bench_column_t cols[] = {
    {"#bytes", 14, 0},       {"local", 12, 0},     {"ops", 8, 0},       {"plan[ms]", 10, 2},
    {"setup[ms]", 11, 1},    {"refit[ms]", 11, 3}, {"BW[GB/s]", 10, 3}, {"copy[ms]", 10, 3},
    {"copyBW[GB/s]", 13, 3}, {"ratio", 7, 3},      {"#wrong", 8, 0},
};
#define NCOLS ((int)(sizeof(cols) / sizeof(cols[0])))

static int reshard_run(vsym_bench_t *b)
{
    const vsym_bench_opts_t *o = b->opts;
    int me = b->rank, n = b->nranks, divisor = 1;
    uint64_t wrong = 0;
    if (parse_scale(o->scale, &divisor) != 0) /* checked with the options already */
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "reshard: --scale: expected 1/N, got '%s'",
                         o->scale);
    vsym_reshard_model_t *full = NULL, *m = NULL;
    vsym_reshard_plan_t *plan = NULL;
    vsym_reshard_exec_t *x = NULL;
    vsym_copy_t *svc = NULL;
    char *src_arena = NULL, *dst_arena = NULL, *csend = NULL, *crecv = NULL;
    vsym_obj_t *dst_obj = NULL, *crecv_obj = NULL;
    int in_heap = 0;
    void **src = NULL, **dst = NULL;
    vsym_status_t st = o->model ? vsym_reshard_model_preset(o->model, &full)
                                : vsym_reshard_model_load(o->model_file, &full);
    if (st != VSYM_OK) return st;
    vsym_reshard_layout_t ls, ld;
    vsym_reshard_layout_parse(o->from, &ls);
    vsym_reshard_layout_parse(o->to, &ld);
    int ws = ls.dp ? ls.tp * ls.pp * ls.dp : n - ls.first_rank;
    int wd = ld.dp ? ld.tp * ld.pp * ld.dp : n - ld.first_rank;
    if (ws < 1 || wd < 1 || ls.first_rank + ws > n || ld.first_rank + wd > n) {
        st = VSYM_FAIL(VSYM_ERR_BAD_LAYOUT, "reshard: layouts %s and %s do not fit %d ranks",
                       o->from, o->to, n);
        goto out;
    }
    /* Every TP and expert-TP size must divide the scaled dimensions. */
    int quantum = lcm(lcm(ls.tp, ld.tp), lcm(ls.etp ? ls.etp : ls.tp, ld.etp ? ld.etp : ld.tp));
    st = divisor > 1 ? vsym_reshard_model_scale(full, divisor, quantum, &m)
                     : vsym_reshard_model_scale(full, 1, 1, &m);
    if (st != VSYM_OK) goto out;
    st = vsym_reshard_layout_check(&ls, ws, m);
    if (st == VSYM_OK) st = vsym_reshard_layout_check(&ld, wd, m);
    if (st != VSYM_OK) {
        char why[400];
        snprintf(why, sizeof(why), "%s", vsym_error_detail());
        st = VSYM_FAIL(st, "reshard: %s", why);
        goto out;
    }
    vsym_reshard_options_t popt = {VSYM_RESHARD_BALANCE_BYTES, me};
    uint64_t t0 = vsym_util_time_ns();
    st = vsym_reshard_plan_create(m, &ls, &ld, &popt, &plan);
    double plan_ms = (vsym_util_time_ns() - t0) / 1e6;
    if (st != VSYM_OK) goto out;

    /* Shards: one arena per side, the source filled with the pattern. */
    int nt = vsym_reshard_model_num_tensors(m);
    src = calloc((size_t)nt, sizeof(void *));
    dst = calloc((size_t)nt, sizeof(void *));
    size_t stot = 0, dtot = 0;
    for (int t = 0; t < nt; t++) {
        stot += vsym_reshard_shard_bytes(m, &ls, me, t);
        dtot += vsym_reshard_shard_bytes(m, &ld, me, t);
    }
    /* The bytes this rank sends and receives (the copy baseline's buffers). */
    size_t nops = vsym_reshard_plan_num_ops(plan), sbytes = 0, rbytes = 0;
    for (size_t i = 0; i < nops; i++) {
        vsym_reshard_op_t op;
        vsym_reshard_plan_op(plan, i, NULL, &op);
        if (op.dir != VSYM_RESHARD_RECV) sbytes += op.bytes;
        if (op.dir != VSYM_RESHARD_SEND) rbytes += op.bytes;
    }
    /* Destination shards and the baseline's receive buffer live in the symmetric heap when both
     * fit (with room left for the copy service's staging): as refit buffers of a training job
     * would be symmetric memory, and so that the copy service can store rows straight into them
     * over shared memory. Otherwise ordinary memory (reached with process_vm_writev). */
    uint64_t dmax = dtot + 1, rmax = rbytes + 1;
    st = reduce_u64(b, &dmax, 1);
    if (st == VSYM_OK) st = reduce_u64(b, &rmax, 1);
    if (st != VSYM_OK) goto out;
    in_heap = dmax + rmax + (64u << 20) <= vsym_config_size(VSYM_CFG_HEAP_SIZE);
    if (in_heap) {
        st = vsym_alloc(b->world, dmax, &dst_obj);
        if (st == VSYM_OK) st = vsym_alloc(b->world, rmax, &crecv_obj);
        if (st != VSYM_OK) goto out;
        dst_arena = vsym_obj_ptr(dst_obj);
        crecv = vsym_obj_ptr(crecv_obj);
    } else {
        dst_arena = malloc(dtot + 1);
        crecv = malloc(rbytes + 1);
    }
    src_arena = malloc(stot + 1);
    if (!src || !dst || !src_arena || !dst_arena || !crecv) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard: no memory for %zu + %zu bytes of shards", stot,
                       dtot);
        goto out;
    }
    for (size_t so = 0, dof = 0, t = 0; t < (size_t)nt; t++) {
        size_t sb = vsym_reshard_shard_bytes(m, &ls, me, (int)t);
        size_t db = vsym_reshard_shard_bytes(m, &ld, me, (int)t);
        if (sb) {
            src[t] = src_arena + so, so += sb;
            vsym_reshard_pattern_fill(m, &ls, me, (int)t, src[t]);
        }
        if (db) dst[t] = dst_arena + dof, dof += db;
    }
    memset(dst_arena, 0xA5, dtot);

    vsym_reshard_exec_options_t xo = {dst_arena, dtot};
    t0 = vsym_util_time_ns();
    st = vsym_reshard_exec_create(b->world, plan, src, dst, &xo, &x);
    double setup_ms = (vsym_util_time_ns() - t0) / 1e6;
    if (st != VSYM_OK) goto out;
    long iters = o->iterations > 0 ? o->iterations : 5;
    long warm = o->warmup >= 0 ? o->warmup : 1;
    double refit_s = 0, copy_s = 0;

    /* The copy service alone on the same tasks, between contiguous buffers. */
    csend = malloc(sbytes + 1);
    if (!csend) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard: no memory for the copy baseline");
        goto out;
    }
    memset(csend, 1, sbytes + 1);
    st = vsym_copy_create(b->world, &svc);
    for (size_t i = 0, so = 0, ro = 0; i < nops && st == VSYM_OK; i++) {
        vsym_reshard_op_t op;
        vsym_reshard_plan_op(plan, i, NULL, &op);
        if (op.dir != VSYM_RESHARD_RECV) {
            st = vsym_copy_register_send(svc, op.task_id, csend, so, op.bytes, op.peer);
            so += op.bytes;
        }
        if (st == VSYM_OK && op.dir != VSYM_RESHARD_SEND) {
            st = vsym_copy_register_receive(svc, op.task_id, crecv, ro, op.bytes, op.peer);
            ro += op.bytes;
        }
    }
    if (svc) {
        vsym_status_t sst = vsym_copy_schedule(svc);
        st = st == VSYM_OK ? sst : st;
    }
    if (st == VSYM_OK) {
        refit_fn fns[2] = {run_exec, run_copy};
        void *args[2] = {x, svc};
        double med[2];
        st = time_refits(b, fns, args, warm, iters, med);
        refit_s = med[0];
        copy_s = med[1];
    }
    if (st != VSYM_OK) goto out;

    /* Verify every destination element (--test-corrupt: one flipped byte must be found). */
    if (o->test_corrupt && me == 0 && dtot > 0) dst_arena[dtot / 2] ^= 0x5a;
    for (int t = 0; t < nt; t++) {
        uint64_t w = 0;
        if (dst[t]) vsym_reshard_pattern_check(m, &ld, me, t, dst[t], &w, NULL);
        wrong += w;
    }
    st = reduce_u64(b, &wrong, 0);
    if (st != VSYM_OK) goto out;

    vsym_reshard_stats_t ps;
    vsym_reshard_options_t sopt = {VSYM_RESHARD_BALANCE_BYTES, -1};
    vsym_reshard_plan_t *all;
    st = vsym_reshard_plan_create(m, &ls, &ld, &sopt, &all);
    if (st != VSYM_OK) goto out;
    vsym_reshard_plan_stats(all, &ps);
    vsym_reshard_plan_destroy(all);
    double bw = refit_s > 0 ? ps.bytes_moved / refit_s / 1e9 : 0;
    double cbw = copy_s > 0 ? ps.bytes_moved / copy_s / 1e9 : 0;
    double ratio = cbw > 0 ? bw / cbw : 0;
    char title[512], lsb[128], ldb[128];
    vsym_reshard_layout_format(&ls, lsb, sizeof(lsb));
    vsym_reshard_layout_format(&ld, ldb, sizeof(ldb));
    snprintf(title, sizeof(title),
             "reshard %s (1/%d of each dimension): %s -> %s, %d ranks, destinations in %s",
             vsym_reshard_model_name(full), divisor, lsb, ldb, n,
             in_heap ? "the symmetric heap" : "malloc'd memory");
    vsym_bench_table_header(b, title, title, cols, NCOLS);
    double row[NCOLS] = {(double)ps.bytes_moved,
                         (double)ps.bytes_local,
                         (double)(ps.num_transfers + ps.num_local),
                         plan_ms,
                         setup_ms,
                         refit_s * 1e3,
                         bw,
                         copy_s * 1e3,
                         cbw,
                         ratio,
                         (double)wrong};
    vsym_bench_table_row(b, cols, NCOLS, row);
    json_t *rec = vsym_bench_record_new(b, "reshard", "bw", (size_t)ps.bytes_moved);
    json_object_set_new(rec, "model", json_string(vsym_reshard_model_name(full)));
    json_object_set_new(rec, "scale_divisor", json_integer(divisor));
    json_object_set_new(rec, "model_bytes",
                        json_integer((json_int_t)vsym_reshard_model_num_bytes(m)));
    json_object_set_new(rec, "from", json_string(lsb));
    json_object_set_new(rec, "to", json_string(ldb));
    json_object_set_new(rec, "bytes_moved", json_integer((json_int_t)ps.bytes_moved));
    json_object_set_new(rec, "bytes_local", json_integer((json_int_t)ps.bytes_local));
    json_object_set_new(rec, "transfers", json_integer((json_int_t)ps.num_transfers));
    json_object_set_new(rec, "local_copies", json_integer((json_int_t)ps.num_local));
    json_object_set_new(rec, "send_imbalance", json_real(ps.send_imbalance));
    json_object_set_new(rec, "plan_ms", json_real(plan_ms));
    json_object_set_new(rec, "setup_ms", json_real(setup_ms));
    json_object_set_new(rec, "iterations", json_integer(iters));
    json_object_set_new(rec, "refit_ms_median", json_real(refit_s * 1e3));
    json_object_set_new(rec, "bw_gbs", json_real(bw));
    json_object_set_new(rec, "copy_refit_ms_median", json_real(copy_s * 1e3));
    json_object_set_new(rec, "copy_bw_gbs", json_real(cbw));
    json_object_set_new(rec, "ratio_to_copy", json_real(ratio));
    json_object_set_new(rec, "wrong", json_integer((json_int_t)wrong));
    json_object_set_new(rec, "dst_memory", json_string(in_heap ? "symmetric heap" : "malloc"));
    st = vsym_bench_record_emit(b, rec);
out:;
    vsym_status_t cst = vsym_copy_destroy(svc), xst = vsym_reshard_exec_destroy(x);
    if (cst == VSYM_OK) cst = xst;
    free(csend);
    free(src_arena);
    if (dst_obj || crecv_obj) {
        vsym_status_t ost = vsym_obj_free(crecv_obj), dst_st = vsym_obj_free(dst_obj);
        if (cst == VSYM_OK) cst = ost != VSYM_OK ? ost : dst_st;
    } else {
        free(crecv);
        free(dst_arena);
    }
    free(src);
    free(dst);
    vsym_reshard_plan_destroy(plan);
    vsym_reshard_model_destroy(m);
    vsym_reshard_model_destroy(full);
    if (st != VSYM_OK) return st;
    if (cst != VSYM_OK) return cst;
    return wrong > 0 ? (int)(wrong < 1000000 ? wrong : 1000000) : 0;
}

const vsym_bench_suite_t vsym_bench_suite_reshard = {
    .name = "reshard",
    .help = "move a scaled model between layouts (--model, --from, --to, --scale), verified",
    .min_ranks = 1,
    .max_ranks = 0,
    .default_min_size = 0,
    .default_max_size = 0,
    .sizeless = 1,
    .check_opts = reshard_check_opts,
    .run = reshard_run,
};
