/* Suites atomic and barrier.
 *
 * atomic: every atomic operation, 64-bit and 32-bit, on a word of pair_b's memory, issued by
 * pair_a; per-op latency (atomics are complete at the target on return) and Mops/s. --op picks
 * one (fetch-add, add, cswap, swap, fetch, set; with a "32" suffix for 32-bit). fetch-add-nbi and
 * add-nbi time a window of --window vsym_atomic64_nbi then one quiet (the message rate that
 * perftest's ib_atomic_bw measures; "window" in the record). --check verifies every fetched value
 * and the word's final value at the target.
 *
 * barrier: vsym_team_barrier over the world ("team") and vsym_signal_barrier on an object's
 * pad ("signal"), per-op latency measured by every rank, rank 0's figures reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "util/util.h"

typedef struct amo_desc {
    const char *name;
    vsym_amo_op_t op;
    int bits;
    int nbi; /* a window of vsym_atomic64_nbi + quiet per unit */
} amo_desc_t;

static const amo_desc_t amo_ops[] = {
    {"fetch-add", VSYM_AMO_FETCH_ADD, 64, 0},   {"add", VSYM_AMO_ADD, 64, 0},
    {"cswap", VSYM_AMO_CSWAP, 64, 0},           {"swap", VSYM_AMO_SWAP, 64, 0},
    {"fetch", VSYM_AMO_FETCH, 64, 0},           {"set", VSYM_AMO_SET, 64, 0},
    {"fetch-add32", VSYM_AMO_FETCH_ADD, 32, 0}, {"add32", VSYM_AMO_ADD, 32, 0},
    {"cswap32", VSYM_AMO_CSWAP, 32, 0},         {"swap32", VSYM_AMO_SWAP, 32, 0},
    {"fetch32", VSYM_AMO_FETCH, 32, 0},         {"set32", VSYM_AMO_SET, 32, 0},
    {"fetch-add-nbi", VSYM_AMO_FETCH_ADD, 64, 1}, {"add-nbi", VSYM_AMO_ADD, 64, 1},
};
#define N_AMO_OPS ((int)(sizeof(amo_ops) / sizeof(amo_ops[0])))

typedef struct amo_run {
    const amo_desc_t *d;
    vsym_obj_t *obj;
    int peer;
    long count; /* operations issued (warm-up included) */
    long bad;   /* fetched values that were not the expected ones */
    vsym_ctx_t *ctx;
    long window;     /* nbi: operations per unit */
    uint64_t *olds;  /* nbi: window fetched values */
    uint8_t *hit;    /* nbi: window flags, for the check of the fetched values */
} amo_run_t;

/* A window of non-blocking atomics, then quiet. */
static vsym_status_t unit_amo_nbi(void *arg, long i)
{
    amo_run_t *a = arg;
    vsym_status_t st = VSYM_OK;
    int fetching = a->d->op == VSYM_AMO_FETCH_ADD;
    (void)i;
    for (long w = 0; w < a->window && st == VSYM_OK; w++)
        st = vsym_atomic64_nbi(a->obj, a->peer, 0, a->d->op, 1, 0, fetching ? &a->olds[w] : NULL);
    if (st == VSYM_OK) st = vsym_quiet(a->ctx);
    if (fetching && st == VSYM_OK) {
        /* The window's tickets are count .. count + window - 1, each once (in any order: with
         * several queue pairs per peer they may take effect out of issue order). */
        memset(a->hit, 0, (size_t)a->window);
        for (long w = 0; w < a->window; w++) {
            uint64_t k = a->olds[w] - (uint64_t)a->count;
            if (k >= (uint64_t)a->window || a->hit[k]++) a->bad++;
        }
    }
    a->count += a->window;
    return st;
}

/* Every op leaves the word at the number of units issued so far (for fetch: unchanged at 0),
 * so the value fetched by unit i is known: i (or 0 for fetch). */
static vsym_status_t unit_amo(void *arg, long i)
{
    amo_run_t *a = arg;
    vsym_status_t st;
    uint64_t v = (uint64_t)i + 1, cmp = (uint64_t)i, expect = a->d->op == VSYM_AMO_FETCH ? 0 : cmp;

    if (a->d->op == VSYM_AMO_ADD || a->d->op == VSYM_AMO_FETCH_ADD) v = 1;
    if (a->d->bits == 64) {
        uint64_t old = 0;
        int fetching = a->d->op != VSYM_AMO_ADD && a->d->op != VSYM_AMO_SET;
        st = vsym_atomic64(a->obj, a->peer, 0, a->d->op, v, cmp, fetching ? &old : NULL);
        if (st == VSYM_OK && fetching && old != expect) a->bad++;
    } else {
        uint32_t old = 0;
        int fetching = a->d->op != VSYM_AMO_ADD && a->d->op != VSYM_AMO_SET;
        st = vsym_atomic32(a->obj, a->peer, 0, a->d->op, (uint32_t)v, (uint32_t)cmp,
                           fetching ? &old : NULL);
        if (st == VSYM_OK && fetching && old != (uint32_t)expect) a->bad++;
    }
    a->count++;
    return st;
}

static int atomic_check_opts(const vsym_bench_opts_t *o, char *err, size_t errlen)
{
    if (o->op == NULL) return 0;
    for (int i = 0; i < N_AMO_OPS; i++)
        if (strcmp(o->op, amo_ops[i].name) == 0) return 0;
    snprintf(err, errlen,
             "unknown --op '%s' (fetch-add, add, cswap, swap, fetch, set, the same with 32 for "
             "32-bit, fetch-add-nbi, add-nbi)",
             o->op);
    return -1;
}

static int run_atomic(vsym_bench_t *b)
{
    vsym_obj_t *obj = NULL;
    vsym_status_t st = vsym_alloc(b->world, 64, &obj);

    for (vsym_bench_pair_first(b); st == VSYM_OK && vsym_bench_pair_valid(b);
         vsym_bench_pair_next(b)) {
        for (int k = 0; st == VSYM_OK && k < N_AMO_OPS; k++) {
            const amo_desc_t *d = &amo_ops[k];
            amo_run_t a = {d, obj, b->peer, 0, 0, b->ctx, 0, NULL, NULL};
            vsym_bench_timing_t t = {unit_amo, &a, (double)d->bits / 8, 1, 1, 0};
            vsym_bench_stats_t s;
            vsym_status_t rc = VSYM_OK;
            long final = 0, expected = 0, wrong = 0;

            if (b->opts->op != NULL && strcmp(b->opts->op, d->name) != 0) continue;
            vsym_bench_stats_init(&s, (size_t)d->bits / 8);
            if (d->nbi) {
                a.window = vsym_bench_window(b, 8);
                a.olds = calloc((size_t)a.window, sizeof(*a.olds));
                a.hit = malloc((size_t)a.window);
                if (a.olds == NULL || a.hit == NULL) {
                    free(a.olds);
                    free(a.hit);
                    st = VSYM_ERR_NO_MEMORY;
                    break;
                }
                t.unit = unit_amo_nbi;
                t.bytes_per_unit = 8.0 * (double)a.window;
                t.ops_per_unit = (double)a.window;
                t.lat_divisor = (double)a.window;
                s.window = a.window;
            }
            if (b->in_pair) {
                memset(vsym_obj_ptr(obj), 0, 64);
                rc = vsym_bench_pair_sync(b);
                if (rc == VSYM_OK && b->rank == b->pair_a) rc = vsym_bench_measure(b, &t, &s);
                if (rc == VSYM_OK) rc = vsym_bench_pair_sync(b);
                if (rc == VSYM_OK && b->rank == b->pair_b) {
                    /* the target reads its own word: what the atomics left in memory */
                    final = d->bits == 64 ? (long)*(volatile uint64_t *)vsym_obj_ptr(obj)
                                          : (long)*(volatile uint32_t *)vsym_obj_ptr(obj);
                }
                if (rc == VSYM_OK) rc = vsym_bench_pair_sync(b);
            }
            free(a.olds);
            free(a.hit);
            if (b->opts->check) {
                expected = d->op == VSYM_AMO_FETCH ? 0 : a.count;
                st = vsym_bench_share_long(b, b->pair_b, &final);
                if (st == VSYM_OK) st = vsym_bench_share_long(b, b->pair_a, &expected);
                if (st != VSYM_OK) break;
                wrong = (final != expected) + a.bad;
                if (b->rank == b->pair_a) s.wrong = wrong;
            }
            if (rc != VSYM_OK) s.valid = 0;
            st = vsym_bench_report(b, d->name, "lat", &s, b->pair_a,
                                   json_pack("{si}", "bits", d->bits));
            if (rc != VSYM_OK) st = rc;
        }
    }
    if (st == VSYM_OK) st = vsym_obj_free(obj);
    return st == VSYM_OK ? 0 : (int)st;
}

const vsym_bench_suite_t vsym_bench_suite_atomic = {
    .name = "atomic",
    .help = "every atomic op (64- and 32-bit): per-op latency and Mops/s",
    .min_ranks = 2,
    .max_ranks = VSYM_BENCH_MAX_RANKS,
    .default_min_size = 8,
    .default_max_size = 8,
    .sizeless = 1,
    .check_opts = atomic_check_opts,
    .run = run_atomic,
};

/* ---- Barrier ------------------------------------------------------------------------------ */

typedef struct barrier_run {
    vsym_bench_t *b;
    vsym_obj_t *obj;
    int signal;
} barrier_run_t;

static vsym_status_t unit_barrier(void *arg, long i)
{
    barrier_run_t *r = arg;
    (void)i;
    if (r->signal) return vsym_signal_barrier(r->obj, 1, r->b->opts->timeout_s);
    return vsym_team_barrier(r->b->world, r->b->opts->timeout_s);
}

static int run_barrier(vsym_bench_t *b)
{
    vsym_obj_t *obj = NULL;
    vsym_status_t st = vsym_alloc(b->world, 64, &obj);

    /* Every rank takes part and must run the same number of barriers. */
    for (int sig = 0; st == VSYM_OK && sig < 2; sig++) {
        barrier_run_t r = {b, obj, sig};
        vsym_bench_timing_t t = {unit_barrier, &r, 0, 1, 1, 0};
        vsym_bench_stats_t s;
        vsym_status_t rc = VSYM_OK;
        long n = 0;

        st = vsym_bench_collective_iterations(b, &t, &n);
        if (st != VSYM_OK) break;
        t.iterations = n;
        vsym_bench_stats_init(&s, 0);
        rc = vsym_bench_measure(b, &t, &s);
        if (rc != VSYM_OK) s.valid = 0;
        st = vsym_bench_report(b, sig ? "signal-barrier" : "team-barrier", "lat", &s, 0, NULL);
        if (rc != VSYM_OK) st = rc;
    }
    if (st == VSYM_OK) st = vsym_obj_free(obj);
    return st == VSYM_OK ? 0 : (int)st;
}

const vsym_bench_suite_t vsym_bench_suite_barrier = {
    .name = "barrier",
    .help = "vsym_team_barrier and vsym_signal_barrier over all ranks: per-op latency",
    .min_ranks = 2,
    .max_ranks = VSYM_BENCH_MAX_RANKS,
    .default_min_size = 0,
    .default_max_size = 0,
    .sizeless = 1,
    .check_opts = NULL,
    .run = run_barrier,
};
