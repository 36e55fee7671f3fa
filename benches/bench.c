/* vsym-bench framework: measurement, statistics, tables, JSON records (see bench.h). */
#define _GNU_SOURCE
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rtt.h"
#include "util/util.h"

/* ---- Pairs -------------------------------------------------------------------------------- */

static void pair_set(vsym_bench_t *b, int a, int c)
{
    b->pair_a = a;
    b->pair_b = c;
    b->in_pair = (b->rank == a || b->rank == c);
    b->peer = b->rank == a ? c : b->rank == c ? a : -1;
}

void vsym_bench_pair_first(vsym_bench_t *b)
{
    pair_set(b, 0, 1);
}

int vsym_bench_pair_valid(const vsym_bench_t *b)
{
    return b->pair_a >= 0 && b->pair_b < b->nranks;
}

void vsym_bench_pair_next(vsym_bench_t *b)
{
    int a = b->pair_a, c = b->pair_b + 1;

    if (!b->opts->pairs) {
        pair_set(b, -1, -1);
        return;
    }
    if (c >= b->nranks) {
        a++;
        c = a + 1;
    }
    if (c >= b->nranks)
        pair_set(b, -1, -1);
    else
        pair_set(b, a, c);
}

/* A signal each way: when both calls have returned, each side has seen the other arrive, and
 * (the pad's ordering rule) every put the other issued before is visible here. */
vsym_status_t vsym_bench_pair_sync(vsym_bench_t *b)
{
    vsym_status_t st;

    if (!b->in_pair) return VSYM_OK;
    st = vsym_signal_put(b->sync_obj, b->peer, 0, b->opts->timeout_s);
    if (st != VSYM_OK) return st;
    return vsym_signal_wait(b->sync_obj, b->peer, 0, b->opts->timeout_s);
}

/* ---- Measurement -------------------------------------------------------------------------- */

void vsym_bench_core_rtt(vsym_bench_t *b)
{
    b->core_rtt_ns = -1;
    if (b->nranks < 2) return;
    if (!vsym_util_core_per_rank()) {
        if (b->rank == 0) b->core_rtt_ns = vsym_rtt_threads();
        return;
    }
    if (b->rank > 1) return;
    volatile uint64_t *w = b->rank == 0 ? vsym_obj_ptr(b->sync_obj) : NULL;
    if (vsym_obj_peer_ptr(b->sync_obj, 1 - b->rank) == NULL) return;
    if (b->rank == 1) w = vsym_obj_peer_ptr(b->sync_obj, 0);
    /* Rank 0 stores the odd values of this call's sequence, rank 1 the even ones. */
    uint64_t base = b->rtt_seq;
    b->rtt_seq += 2 * (VSYM_RTT_WARM + VSYM_RTT_TIMED);
    double ns = vsym_rtt_side(w, base, b->rank);
    if (b->rank == 0 && ns >= 0) b->core_rtt_ns = ns;
}

double vsym_bench_steal_pct(const vsym_bench_t *b)
{
    uint64_t steal, total;
    if (b->steal0 == UINT64_MAX || vsym_util_cpu_steal_ticks(&steal, &total) != 0 ||
        total <= b->total0)
        return -1;
    return 100.0 * (double)(steal - b->steal0) / (double)(total - b->total0);
}

void vsym_bench_stats_init(vsym_bench_stats_t *st, size_t size)
{
    memset(st, 0, sizeof(*st));
    st->size = size;
    st->wrong = -1;
}

long vsym_bench_default_iterations(const vsym_bench_t *b, double bytes_per_unit)
{
    const double cap = 1024.0 * 1024.0 * 1024.0;
    long n;

    if (b->opts->iterations > 0) return b->opts->iterations;
    n = 1000;
    if (bytes_per_unit > 0 && n * bytes_per_unit > cap) n = (long)(cap / bytes_per_unit);
    return n < 10 ? 10 : n;
}

long vsym_bench_default_warmup(const vsym_bench_t *b, long iterations)
{
    if (b->opts->warmup >= 0) return b->opts->warmup;
    /* At least nccl-tests' 5: a launch's first calls run slow (16 ranks on the 16-core guest,
     * all-to-all of 16 KiB: 68 us a call with -n 10 and one warm-up call, 12 with ten, 10 with
     * -n 100). */
    return iterations / 10 > 5 ? iterations / 10 : 5;
}

long vsym_bench_window(const vsym_bench_t *b, size_t size)
{
    const size_t cap = 64u << 20;
    long w = b->opts->window;

    if (size > 0 && (size_t)w * size > cap) w = (long)(cap / size);
    return w < 1 ? 1 : w;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, c = *(const double *)y;
    return (a > c) - (a < c);
}

/* Nearest-rank percentile of sorted samples. */
static double percentile(const double *v, size_t n, double p)
{
    size_t k = (size_t)ceil(p * (double)n);
    return v[k == 0 ? 0 : k - 1];
}

void vsym_bench_lat_from_samples(double *v, size_t n, vsym_bench_lat_t *lat_p)
{
    vsym_bench_lat_t lat;
    double sum = 0;

    memset(&lat, 0, sizeof(lat));
    if (n > 0) {
        qsort(v, n, sizeof(*v), cmp_double);
        for (size_t i = 0; i < n; i++)
            sum += v[i];
        lat.min = v[0] / 1e3;
        lat.max = v[n - 1] / 1e3;
        lat.avg = sum / (double)n / 1e3;
        lat.median = (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) / 1e3;
        lat.p99 = percentile(v, n, 0.99) / 1e3;
        lat.p999 = percentile(v, n, 0.999) / 1e3;
    }
    *lat_p = lat;
}

vsym_status_t vsym_bench_measure(vsym_bench_t *b, const vsym_bench_timing_t *t,
                                 vsym_bench_stats_t *st)
{
    long iters =
        t->iterations > 0 ? t->iterations : vsym_bench_default_iterations(b, t->bytes_per_unit);
    long warm = vsym_bench_default_warmup(b, iters);
    long calib = warm > 0 ? warm : 1; /* one untimed unit even with -w 0: it sizes the batch */
    double duration_ns = t->iterations > 0 ? 0 : b->opts->duration_s * 1e9;
    size_t cap, n = 0;
    double *lat_ns, peak = 0, unit_ns;
    long i = 0, batch, done = 0;
    uint64_t t0, t1, total = 0;
    vsym_status_t rc = VSYM_OK;

    t0 = vsym_util_time_ns();
    for (; i < calib; i++) {
        rc = t->unit(t->arg, i);
        if (rc != VSYM_OK) return rc;
    }
    t1 = vsym_util_time_ns();
    /* Reading the clock costs clock_ns; time batches of units long enough that this cost is
     * under 1% of a batch. Samples are then per-op means over a batch. */
    unit_ns = (double)(t1 - t0) / (double)calib;
    if (unit_ns < 1) unit_ns = 1;
    batch = (long)ceil(100.0 * b->clock_ns / unit_ns);
    if (batch < 1) batch = 1;
    if (duration_ns <= 0 && batch > iters) batch = iters;
    cap = duration_ns > 0 ? 1024 : (size_t)((iters + batch - 1) / batch);
    lat_ns = malloc(cap * sizeof(*lat_ns));
    if (lat_ns == NULL) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "bench: %zu samples", cap);
    for (;;) {
        long k = batch;
        if (duration_ns > 0) {
            if ((double)total >= duration_ns) break;
        } else {
            if (done >= iters) break;
            if (iters - done < k) k = iters - done;
        }
        if (n == cap) {
            double *grown = realloc(lat_ns, 2 * cap * sizeof(*lat_ns));
            if (grown == NULL) {
                rc = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "bench: %zu samples", 2 * cap);
                break;
            }
            lat_ns = grown;
            cap *= 2;
        }
        t0 = vsym_util_time_ns();
        for (long j = 0; j < k; j++, i++) {
            rc = t->unit(t->arg, i);
            if (rc != VSYM_OK) break;
        }
        t1 = vsym_util_time_ns();
        if (rc != VSYM_OK) break;
        total += t1 - t0;
        done += k;
        if (t1 > t0) {
            double bw = t->bytes_per_unit * (double)k / (double)(t1 - t0);
            if (bw > peak) peak = bw;
        }
        lat_ns[n++] = (double)(t1 - t0) / (double)k / t->lat_divisor;
    }
    if (rc == VSYM_OK) {
        st->iterations = done;
        st->warmup = warm;
        st->batch = batch;
        st->seconds = (double)total / 1e9;
        st->bw_peak_gbs = peak;
        st->bw_avg_gbs = total ? t->bytes_per_unit * (double)done / (double)total : 0;
        st->mops = total ? t->ops_per_unit * (double)done / ((double)total / 1e3) : 0;
        vsym_bench_lat_from_samples(lat_ns, n, &st->lat);
        st->valid = 1;
    }
    free(lat_ns);
    return rc;
}

/* ---- Data checks -------------------------------------------------------------------------- */

/* A pattern that differs per byte position, per size and per seed, so that a stale buffer from
 * an earlier size or a shifted copy does not pass. */
static inline uint8_t pattern_byte(size_t i, uint64_t seed)
{
    uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull + seed * 0xC2B2AE3D27D4EB4Full;
    return (uint8_t)(x >> 56) ^ (uint8_t)i;
}

void vsym_bench_pattern_fill(void *buf, size_t len, uint64_t seed)
{
    uint8_t *p = buf;
    for (size_t i = 0; i < len; i++)
        p[i] = pattern_byte(i, seed);
}

long vsym_bench_pattern_check(const void *buf, size_t len, uint64_t seed)
{
    const uint8_t *p = buf;
    long wrong = 0;
    for (size_t i = 0; i < len; i++)
        wrong += p[i] != pattern_byte(i, seed);
    return wrong;
}

int vsym_bench_wrong_rc(long wrong)
{
    return wrong <= 0 ? 0 : wrong > 1000000 ? 1000000 : (int)wrong;
}

vsym_status_t vsym_bench_share_long(vsym_bench_t *b, int from, long *value)
{
    long *all = malloc((size_t)b->nranks * sizeof(long));
    vsym_status_t st;

    if (all == NULL) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "bench: share");
    st = vsym_team_exchange(b->world, value, sizeof(long), all);
    if (st == VSYM_OK) *value = all[from];
    free(all);
    return st;
}

vsym_status_t vsym_bench_share(vsym_bench_t *b, int from, void *buf, size_t len)
{
    char *all = malloc((size_t)b->nranks * len);
    vsym_status_t st;

    if (all == NULL) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "bench: share %zu bytes", len);
    st = vsym_team_exchange(b->world, buf, len, all);
    if (st == VSYM_OK) memcpy(buf, all + (size_t)from * len, len);
    free(all);
    return st;
}

vsym_status_t vsym_bench_collective_iterations(vsym_bench_t *b, const vsym_bench_timing_t *t,
                                               long *iterations_p)
{
    long n;
    vsym_status_t st = VSYM_OK;

    if (b->opts->duration_s <= 0) {
        *iterations_p = vsym_bench_default_iterations(b, t->bytes_per_unit);
        return VSYM_OK;
    }
    {
        const long probe = 10;
        uint64_t t0 = vsym_util_time_ns();
        double per;
        for (long i = 0; i < probe && st == VSYM_OK; i++)
            st = t->unit(t->arg, i);
        per = (double)(vsym_util_time_ns() - t0) / (double)probe;
        n = (long)(b->opts->duration_s * 1e9 / (per > 1 ? per : 1));
    }
    if (n < 10) n = 10;
    if (st == VSYM_OK) st = vsym_bench_share_long(b, 0, &n);
    if (st == VSYM_OK) *iterations_p = n;
    return st;
}

/* ---- Tables ------------------------------------------------------------------------------- */

void vsym_bench_table_header(vsym_bench_t *b, const char *key, const char *title,
                             const vsym_bench_column_t *cols, int ncols)
{
    if (b->rank != 0 || b->opts->quiet) return;
    if (strcmp(b->table_key, key) == 0) return;
    snprintf(b->table_key, sizeof(b->table_key), "%s", key);
    if (b->opts->csv) {
        printf("# %s\n", title);
        for (int c = 0; c < ncols; c++)
            printf("%s%s", c ? "," : "", cols[c].name);
        printf("\n");
    } else {
        printf("\n# %s\n", title);
        for (int c = 0; c < ncols; c++)
            printf("%*s", cols[c].width, cols[c].name);
        printf("\n");
    }
    fflush(stdout);
}

void vsym_bench_table_row(vsym_bench_t *b, const vsym_bench_column_t *cols, int ncols,
                          const double *values)
{
    if (b->rank != 0 || b->opts->quiet) return;
    for (int c = 0; c < ncols; c++) {
        const char *sep = b->opts->csv && c ? "," : "";
        if (isnan(values[c])) /* not applicable */
            printf("%s%*s", sep, b->opts->csv ? 0 : cols[c].width, "-");
        else if (b->opts->csv)
            printf("%s%.*f", sep, cols[c].decimals, values[c]);
        else
            printf("%*.*f", cols[c].width, cols[c].decimals, values[c]);
    }
    printf("\n");
    fflush(stdout);
}

/* ---- JSON records ------------------------------------------------------------------------- */

json_t *vsym_bench_record_new(vsym_bench_t *b, const char *op, const char *mode, size_t size)
{
    char date[32];
    json_t *r = json_object();

    json_object_set_new(r, "schema", json_integer(VSYM_BENCH_SCHEMA));
    json_object_set_new(r, "tool", json_string("vsym-bench"));
    json_object_set_new(r, "suite", json_string(b->suite->name));
    json_object_set_new(r, "op", json_string(op ? op : b->suite->name));
    json_object_set_new(r, "mode", json_string(mode));
    json_object_set_new(r, "size", json_integer((json_int_t)size));
    json_object_set_new(r, "date", json_string(vsym_bench_utc_now(date, sizeof(date))));
    if (b->pair_a >= 0) {
        const char *tp = vsym_team_transport_of(b->world, b->pair_b);
        json_t *matrix = json_object_get(b->config, "transport_matrix");
        json_t *row = matrix ? json_array_get(matrix, (size_t)b->pair_a) : NULL;
        json_t *cell = row ? json_array_get(row, (size_t)b->pair_b) : NULL;
        json_object_set_new(r, "pair", json_pack("[ii]", b->pair_a, b->pair_b));
        if (cell)
            json_object_set(r, "transport", cell);
        else
            json_object_set_new(r, "transport", json_string(tp ? tp : "unknown"));
    }
    json_object_set_new(r, "check", json_boolean(b->opts->check));
    if (b->core_rtt_ns >= 0) json_object_set_new(r, "core_rtt_ns", json_real(b->core_rtt_ns));
    const double steal = vsym_bench_steal_pct(b);
    if (steal >= 0) json_object_set_new(r, "steal_pct", json_real(steal));
    json_object_set(r, "config", b->config);
    return r;
}

void vsym_bench_record_add_stats(json_t *r, const vsym_bench_stats_t *st)
{
    json_object_set_new(r, "iterations", json_integer(st->iterations));
    json_object_set_new(r, "warmup", json_integer(st->warmup));
    json_object_set_new(r, "batch", json_integer(st->batch));
    if (st->window > 0) json_object_set_new(r, "window", json_integer(st->window));
    json_object_set_new(r, "seconds", json_real(st->seconds));
    json_object_set_new(r, "lat_us",
                        json_pack("{sfsfsfsfsfsf}", "min", st->lat.min, "median", st->lat.median,
                                  "avg", st->lat.avg, "p99", st->lat.p99, "p99.9", st->lat.p999,
                                  "max", st->lat.max));
    json_object_set_new(r, "bw_gbs",
                        json_pack("{sfsf}", "avg", st->bw_avg_gbs, "peak", st->bw_peak_gbs));
    json_object_set_new(r, "mops", json_real(st->mops));
    if (st->wrong >= 0) json_object_set_new(r, "wrong", json_integer(st->wrong));
}

vsym_status_t vsym_bench_record_emit(vsym_bench_t *b, json_t *record)
{
    vsym_status_t st = VSYM_OK;
    char err[256];

    if (b->rank == 0 && b->results != NULL &&
        vsym_bench_results_add(b->results, record, err, sizeof(err)) != 0)
        st = VSYM_FAIL(VSYM_ERR_IO, "%s", err);
    json_decref(record);
    return st;
}

/* ---- Pairwise outliers -------------------------------------------------------------------- */

struct vsym_bench_pair_result {
    char op[64];
    char mode[8];
    size_t size;
    int a, b;
    double value; /* median latency (us) or average bandwidth (GB/s) */
};

static void pair_log_add(vsym_bench_t *b, const char *op, const char *mode,
                         const vsym_bench_stats_t *s)
{
    struct vsym_bench_pair_result *r;

    if (b->pair_log_n == b->pair_log_cap) {
        size_t cap = b->pair_log_cap ? 2 * b->pair_log_cap : 64;
        void *grown = realloc(b->pair_log, cap * sizeof(*b->pair_log));
        if (grown == NULL) return; /* the summary misses this one; the record itself is written */
        b->pair_log = grown;
        b->pair_log_cap = cap;
    }
    r = &b->pair_log[b->pair_log_n++];
    snprintf(r->op, sizeof(r->op), "%s", op ? op : b->suite->name);
    snprintf(r->mode, sizeof(r->mode), "%s", mode);
    r->size = s->size;
    r->a = b->pair_a;
    r->b = b->pair_b;
    r->value = strcmp(mode, "lat") == 0 ? s->lat.median : s->bw_avg_gbs;
}

long vsym_bench_pairs_summary(vsym_bench_t *b)
{
    long bad_total = 0;
    char *done;

    if (b->rank != 0 || b->pair_log_n == 0) return 0;
    done = calloc(b->pair_log_n, 1);
    if (done == NULL) return 0;
    if (!b->opts->quiet)
        printf("\n# pairs: outliers by ClusterKit's rule (latency > 2.1x the best pair, "
               "bandwidth < 93%% of the best pair)\n");
    for (size_t i = 0; i < b->pair_log_n; i++) {
        const struct vsym_bench_pair_result *r = &b->pair_log[i];
        int lat = strcmp(r->mode, "lat") == 0;
        double best = r->value;
        int best_a = r->a, best_b = r->b, n = 0, nbad = 0;
        json_t *rec, *bad;

        if (done[i]) continue;
        bad = json_array();
        /* the best pair of this measurement */
        for (size_t j = i; j < b->pair_log_n; j++) {
            const struct vsym_bench_pair_result *q = &b->pair_log[j];
            if (strcmp(q->op, r->op) || strcmp(q->mode, r->mode) || q->size != r->size) continue;
            if (lat ? q->value < best : q->value > best) {
                best = q->value;
                best_a = q->a;
                best_b = q->b;
            }
        }
        for (size_t j = i; j < b->pair_log_n; j++) {
            const struct vsym_bench_pair_result *q = &b->pair_log[j];
            if (strcmp(q->op, r->op) || strcmp(q->mode, r->mode) || q->size != r->size) continue;
            done[j] = 1;
            n++;
            if (lat ? q->value > 2.1 * best : q->value < 0.93 * best) {
                nbad++;
                json_array_append_new(bad, json_pack("[iif]", q->a, q->b, q->value));
                if (!b->opts->quiet)
                    printf("#   %s %s %zu B: pair %d-%d %.3f %s (best %d-%d %.3f)\n", r->op,
                           r->mode, r->size, q->a, q->b, q->value, lat ? "us" : "GB/s", best_a,
                           best_b, best);
            }
        }
        bad_total += nbad;
        rec = vsym_bench_record_new(b, r->op, "pairs", r->size);
        json_object_del(rec, "pair");
        json_object_del(rec, "transport");
        json_object_set_new(rec, "measure", json_string(r->mode));
        json_object_set_new(rec, "metric", json_string(lat ? "lat_us.median" : "bw_gbs.avg"));
        json_object_set_new(rec, "pairs", json_integer(n));
        json_object_set_new(rec, "best",
                            json_pack("{s[ii]sf}", "pair", best_a, best_b, "value", best));
        json_object_set_new(rec, "outliers", bad);
        vsym_bench_record_emit(b, rec);
    }
    if (!b->opts->quiet) {
        if (bad_total == 0) printf("#   none\n");
        fflush(stdout);
    }
    free(done);
    return bad_total;
}

/* ---- The standard point-to-point report --------------------------------------------------- */

static const vsym_bench_column_t lat_cols[] = {
    {"#bytes", 10, 0},       {"#iters", 9, 0},     {"batch", 7, 0},      {"t_min[us]", 11, 3},
    {"t_median[us]", 14, 3}, {"t_avg[us]", 11, 3}, {"t_p99[us]", 11, 3}, {"t_p99.9[us]", 13, 3},
    {"t_max[us]", 11, 3},    {"Mops/s", 10, 3},    {"#wrong", 8, 0},
};
static const vsym_bench_column_t bw_cols[] = {
    {"#bytes", 10, 0},        {"#iters", 9, 0},        {"window", 8, 0},
    {"BW_peak[GB/s]", 15, 3}, {"BW_avg[GB/s]", 15, 3}, {"MsgRate[Mops/s]", 17, 3},
    {"t_avg[us]", 11, 3},     {"#wrong", 8, 0},
};

typedef struct shared_stats {
    vsym_bench_stats_t st;
    int32_t status;
} shared_stats_t;

vsym_status_t vsym_bench_report(vsym_bench_t *b, const char *op, const char *mode,
                                const vsym_bench_stats_t *st, int from, json_t *extra)
{
    shared_stats_t mine, *all;
    vsym_bench_stats_t s;
    vsym_status_t rc;
    char key[160], title[256];
    int lat = strcmp(mode, "lat") == 0;
    int ncols;
    const vsym_bench_column_t *cols;
    double v[11];

    memset(&mine, 0, sizeof(mine));
    mine.st = *st;
    all = calloc((size_t)b->nranks, sizeof(*all));
    if (all == NULL) {
        json_decref(extra);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "bench: report");
    }
    rc = vsym_team_exchange(b->world, &mine, sizeof(mine), all);
    if (rc != VSYM_OK) {
        free(all);
        json_decref(extra);
        return rc;
    }
    s = all[from].st;
    free(all);
    if (s.wrong > 0) b->wrong += s.wrong;
    /* Every rank returns the same outcome, so that all of them stop together. */
    if (!s.valid) {
        json_decref(extra);
        if (b->rank != 0)
            return vsym_util_fail_quiet(VSYM_ERR_BAD_STATE, "bench: rank %d failed", from);
        return VSYM_FAIL(VSYM_ERR_BAD_STATE, "bench: %s %s size %zu: rank %d failed",
                         op ? op : b->suite->name, mode, s.size, from);
    }
    if (b->rank != 0) {
        json_decref(extra);
        return VSYM_OK;
    }
    if (b->opts->pairs && b->pair_a >= 0) pair_log_add(b, op, mode, &s);
    snprintf(key, sizeof(key), "%s/%s/%s/%d-%d", b->suite->name, op ? op : "", mode, b->pair_a,
             b->pair_b);
    {
        json_t *matrix = json_object_get(b->config, "transport_matrix");
        const char *tp = b->pair_a < 0
                             ? NULL
                             : json_string_value(json_array_get(
                                   json_array_get(matrix, (size_t)b->pair_a), (size_t)b->pair_b));
        int show_op = op != NULL && strcmp(op, b->suite->name) != 0;
        char who[96];
        if (b->pair_a < 0)
            snprintf(who, sizeof(who), "all %d ranks on %d node(s)", b->nranks, b->nnodes);
        else
            snprintf(who, sizeof(who), "rank %d -> %d (%s), %d ranks", b->pair_a, b->pair_b,
                     tp ? tp : "unknown", b->nranks);
        snprintf(title, sizeof(title), "vsym-bench %s%s%s %s, %s", b->suite->name,
                 show_op ? " " : "", show_op ? op : "", lat ? "latency" : "bandwidth", who);
    }
    if (lat) {
        cols = lat_cols;
        ncols = (int)(sizeof(lat_cols) / sizeof(lat_cols[0]));
        v[0] = (double)s.size;
        v[1] = (double)s.iterations;
        v[2] = (double)s.batch;
        v[3] = s.lat.min;
        v[4] = s.lat.median;
        v[5] = s.lat.avg;
        v[6] = s.lat.p99;
        v[7] = s.lat.p999;
        v[8] = s.lat.max;
        v[9] = s.mops;
        v[10] = s.wrong >= 0 ? (double)s.wrong : NAN;
    } else {
        cols = bw_cols;
        ncols = (int)(sizeof(bw_cols) / sizeof(bw_cols[0]));
        v[0] = (double)s.size;
        v[1] = (double)s.iterations;
        v[2] = (double)s.window;
        v[3] = s.bw_peak_gbs;
        v[4] = s.bw_avg_gbs;
        v[5] = s.mops;
        v[6] = s.lat.avg;
        v[7] = s.wrong >= 0 ? (double)s.wrong : NAN;
    }
    if (!b->opts->check) ncols--; /* #wrong is the last column, shown only with --check */
    vsym_bench_table_header(b, key, title, cols, ncols);
    vsym_bench_table_row(b, cols, ncols, v);
    {
        json_t *r = vsym_bench_record_new(b, op, mode, s.size);
        vsym_bench_record_add_stats(r, &s);
        if (extra != NULL) {
            json_object_update(r, extra);
            json_decref(extra);
        }
        return vsym_bench_record_emit(b, r);
    }
}
