/* Suite copy: the remote copy service on communication patterns, against the naive way and the
 * single-peer put bandwidth, in the same run.
 *
 *   vsym-bench copy [--pattern ring|alltoall|scatter|gather|random|incast] [sizes]
 *   (--pattern is --op; without it every pattern runs in turn)
 *
 * The size is the size of one task. Patterns (n ranks):
 *   ring      rank r sends one task to r+1;
 *   alltoall  every rank sends one task to every other rank;
 *   scatter   rank 0 sends one task to every other rank;
 *   gather    every other rank sends one task to rank 0;
 *   random    every rank sends 4 tasks to seeded random other ranks;
 *   incast    ranks 2.. send one task to rank 0 and one to rank 1 (two hot receivers), and
 *             ranks 0 and 1 send one to each other.
 * Send buffers are ordinary memory (malloc), or with --send symmetric one object on the
 * symmetric heap (registered: over verbs the NIC reads it where it is, no staging copy; the
 * copy service's last put of each batch then returns before its transfer completes); receive
 * buffers are on the symmetric heap (one object, the same for both methods), so both methods
 * write with the same copy path. The put references send from the same memory; ordinary send
 * memory is registered (vsym_buffer_register) for them as the copy service registers it for
 * its peers over verbs, so that over verbs both read it in place.
 *
 * For each (pattern, size): the copy service schedules once, runs warm-up + timed runs (each
 * run timed between a barrier and its end on every rank; the run's time is the slowest rank's),
 * each timed run followed by one of the naive way and one of each put reference below, so that
 * the four take turns (a machine whose speed drifts slows them alike);
 * ("greedy": the iterations Megatron's NVSHMEM service's rule would need for the same batches);
 * the naive way does the same tasks as n-1 steps: step k puts this rank's tasks for rank me+k,
 * then quiet, then a barrier of the world. Reported: the median run time of each, the achieved
 * bandwidth per rank (the bytes of the busiest rank, sent or received, per run time), schedule
 * iterations vs delta, the schedule time (sched[ms]: the slowest rank's vsym_copy_schedule, its
 * exchanges and staging allocation included; the record's schedule_compute_ms is the colouring
 * alone), and the single-peer put bandwidth rank 0 -> 1 (-> the first peer over verbs, in a mixed
 * job) from the same kind of memory, one put of as many bytes as the busiest rank moves in a copy
 * run (so that both figures move the same volume through the caches; copy/put is the headline
 * ratio, target >= 0.8 for large tasks). --check validates every received byte after the copy
 * runs.
 *
 * The single-peer put runs alone, with the machine to itself; the copy runs with every rank
 * moving data at once, sharing the memory bandwidth (shared memory) or the CPUs that drive the
 * NIC (Soft-RoCE). So a second reference, "put_all": every rank puts size bytes to its ring
 * neighbour me+1 at the same time, as many bytes as it sends in a copy run, in one put (put
 * with a signal, then the wait for the signal of the rank before: timed from a barrier until this
 * rank's own data has arrived, the slowest rank's time; per-rank bandwidth = the largest sender's
 * bytes / that time): the machine's put bandwidth under the same load and the same volume, what a
 * ring, all-to-all or random pattern can reach at best (copy/put_all; for scatter and gather,
 * where one rank is busy, copy/put is the fair ratio). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "util/util.h"

static const char *const patterns[] = {"ring", "alltoall", "scatter", "gather", "random", "incast"};
#define N_PATTERNS ((int)(sizeof(patterns) / sizeof(patterns[0])))

typedef struct ctask {
    uint64_t id;
    int src;
    int dst;
    size_t size;
    size_t send_off;
    size_t recv_off;
} ctask_t;

typedef struct task_list {
    ctask_t *v;
    size_t n, cap;
} task_list_t;

static int add_task(task_list_t *l, int src, int dst, size_t size)
{
    if (l->n == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 64;
        ctask_t *v = realloc(l->v, ncap * sizeof(*v));
        if (v == NULL) return -1;
        l->v = v;
        l->cap = ncap;
    }
    l->v[l->n] = (ctask_t){.id = 1 + l->n, .src = src, .dst = dst, .size = size};
    l->n++;
    return 0;
}

static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The pattern's tasks, the same on every rank; offsets laid out per sender and per receiver. */
static int build_tasks(const char *pattern, int n, size_t size, task_list_t *l)
{
    int rc = 0;
    l->n = 0;
    if (strcmp(pattern, "ring") == 0) {
        for (int r = 0; r < n && rc == 0; r++)
            rc = add_task(l, r, (r + 1) % n, size);
    } else if (strcmp(pattern, "alltoall") == 0) {
        for (int r = 0; r < n; r++)
            for (int q = 0; q < n && rc == 0; q++)
                if (q != r) rc = add_task(l, r, q, size);
    } else if (strcmp(pattern, "scatter") == 0) {
        for (int q = 1; q < n && rc == 0; q++)
            rc = add_task(l, 0, q, size);
    } else if (strcmp(pattern, "gather") == 0) {
        for (int r = 1; r < n && rc == 0; r++)
            rc = add_task(l, r, 0, size);
    } else if (strcmp(pattern, "random") == 0) {
        uint64_t state = 12345;
        for (int r = 0; r < n; r++)
            for (int k = 0; k < 4 && rc == 0; k++)
                rc =
                    add_task(l, r, (r + 1 + (int)(rng_next(&state) % (uint64_t)(n - 1))) % n, size);
    } else { /* incast */
        rc = add_task(l, 0, 1, size);
        if (rc == 0) rc = add_task(l, 1, 0, size);
        for (int r = 2; r < n && rc == 0; r++) {
            rc = add_task(l, r, 0, size);
            if (rc == 0) rc = add_task(l, r, 1, size);
        }
    }
    if (rc != 0) return -1;
    size_t *send_at = calloc((size_t)n, sizeof(size_t));
    size_t *recv_at = calloc((size_t)n, sizeof(size_t));
    if (send_at == NULL || recv_at == NULL) {
        free(send_at), free(recv_at);
        return -1;
    }
    for (size_t i = 0; i < l->n; i++) {
        ctask_t *t = &l->v[i];
        t->send_off = send_at[t->src];
        send_at[t->src] += t->size;
        t->recv_off = recv_at[t->dst];
        recv_at[t->dst] += t->size;
    }
    free(send_at);
    free(recv_at);
    return 0;
}

static int copy_check_opts(const vsym_bench_opts_t *o, char *err, size_t errlen)
{
    if (o->op == NULL) return 0;
    for (int i = 0; i < N_PATTERNS; i++)
        if (strcmp(o->op, patterns[i]) == 0) return 0;
    snprintf(err, errlen,
             "unknown --pattern '%s' (ring, alltoall, scatter, gather, random, "
             "incast)",
             o->op);
    return -1;
}

/* The naive way: n - 1 steps, each puts this rank's tasks for one peer, quiet, barrier. */
static vsym_status_t naive_run(vsym_bench_t *b, const task_list_t *l, vsym_obj_t *recv,
                               const unsigned char *send)
{
    const int me = b->rank, n = b->nranks;
    vsym_status_t st = VSYM_OK;
    for (size_t i = 0; i < l->n; i++) {
        const ctask_t *t = &l->v[i];
        if (t->src == me && t->dst == me)
            memcpy((char *)vsym_obj_ptr(recv) + t->recv_off, send + t->send_off, t->size);
    }
    for (int k = 1; k < n; k++) {
        int peer = (me + k) % n;
        for (size_t i = 0; i < l->n && st == VSYM_OK; i++) {
            const ctask_t *t = &l->v[i];
            if (t->src == me && t->dst == peer)
                st = vsym_put(recv, peer, t->recv_off, send + t->send_off, t->size);
        }
        if (st == VSYM_OK) st = vsym_quiet(b->ctx);
        if (st == VSYM_OK) st = vsym_team_barrier(b->world, b->opts->timeout_s);
        if (st != VSYM_OK) return st;
    }
    return VSYM_OK;
}

typedef struct timed {
    double *samples; /* per timed run: this rank's seconds, then the slowest rank's */
    long iters;
} timed_t;

/* The slowest rank's time of each run, on every rank. */
static vsym_status_t slowest(vsym_bench_t *b, timed_t *t)
{
    size_t len = (size_t)t->iters * sizeof(double);
    double *all = malloc(len * (size_t)b->nranks);
    if (all == NULL) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy bench: no memory");
    vsym_status_t st = vsym_team_exchange(b->world, t->samples, len, all);
    if (st == VSYM_OK)
        for (long i = 0; i < t->iters; i++)
            for (int r = 0; r < b->nranks; r++)
                if (all[(size_t)r * (size_t)t->iters + (size_t)i] > t->samples[i])
                    t->samples[i] = all[(size_t)r * (size_t)t->iters + (size_t)i];
    free(all);
    return st;
}

static double median_of(double *v, long n)
{
    vsym_bench_lat_t lat;
    vsym_bench_lat_from_samples(v, (size_t)n, &lat); /* microseconds from nanoseconds */
    return lat.median * 1e-6;
}

/* The peer of the single-peer put: the first rank rank 0 reaches over verbs (the slowest link of
 * a mixed job: with pretend or real nodes rank 1 is usually a shared-memory neighbour), else 1. */
static int put_peer(const vsym_bench_t *b)
{
    for (int r = 1; r < b->nranks; r++) {
        const char *tp = vsym_team_transport_of(b->world, r);
        if (tp != NULL && strcmp(tp, "verbs") == 0) return r;
    }
    return 1;
}

/* One timed run of each method, started from a barrier; *sec is this rank's seconds (0 for a
 * rank that takes no part). */
static vsym_status_t time_copy(vsym_bench_t *b, vsym_copy_t *svc, double *sec)
{
    vsym_status_t st = vsym_team_barrier(b->world, b->opts->timeout_s);
    uint64_t t0 = vsym_util_time_ns();
    if (st == VSYM_OK) st = vsym_copy_run(svc);
    *sec = (double)(vsym_util_time_ns() - t0);
    return st;
}

static vsym_status_t time_naive(vsym_bench_t *b, const task_list_t *l, vsym_obj_t *recv,
                                const unsigned char *send, double *sec)
{
    vsym_status_t st = vsym_team_barrier(b->world, b->opts->timeout_s);
    uint64_t t0 = vsym_util_time_ns();
    if (st == VSYM_OK) st = naive_run(b, l, recv, send);
    *sec = (double)(vsym_util_time_ns() - t0);
    return st;
}

/* The single-peer put alone: rank 0 puts bytes from malloc memory into put_peer()'s heap and
 * waits for its completion (quiet) while every other rank waits in the next barrier. */
static vsym_status_t time_put_alone(vsym_bench_t *b, vsym_obj_t *recv, const unsigned char *send,
                                    size_t bytes, double *sec)
{
    vsym_status_t st = vsym_team_barrier(b->world, b->opts->timeout_s);
    *sec = 0;
    if (st == VSYM_OK && b->rank == 0 && b->nranks > 1 && bytes > 0) {
        uint64_t t0 = vsym_util_time_ns();
        st = vsym_put(recv, put_peer(b), 0, send, bytes);
        if (st == VSYM_OK) st = vsym_quiet(b->ctx);
        *sec = (double)(vsym_util_time_ns() - t0);
    }
    return st;
}

/* The loaded put: every rank puts its mine bytes to its ring neighbour at once (see the head of
 * this file), with a signal on channel 0 of recv's pad, and waits for its own from the rank
 * before it: a rank's time ends when its data has arrived, as a copy run's and the naive way's do.
 * Timed to its own quiet alone, a rank that shared its CPU with another counted only the part
 * that it ran: 4 ranks on 2 CPUs showed twice the bandwidth that the machine delivered (the
 * copy service and the naive way at 0.51-0.54 of it, 2-core Zen 5 guest, 4-16 MiB, stop 58). */
static vsym_status_t time_put_all(vsym_bench_t *b, vsym_obj_t *recv, const unsigned char *send,
                                  size_t mine, double *sec)
{
    const int n = b->nranks, next = (b->rank + 1) % n, prev = (b->rank + n - 1) % n;
    const double to = b->opts->timeout_s;
    vsym_status_t st = vsym_team_barrier(b->world, to); /* the suite runs on 2 ranks or more */
    uint64_t t0 = vsym_util_time_ns();
    if (st == VSYM_OK)
        st = mine > 0 ? vsym_put_with_signal(recv, next, 0, send, mine, 0, to)
                      : vsym_signal_put(recv, next, 0, to);
    if (st == VSYM_OK) st = vsym_signal_wait(recv, prev, 0, to);
    *sec = (double)(vsym_util_time_ns() - t0);
    return st;
}

static const vsym_bench_column_t copy_cols[] = {
    {"#bytes", 10, 0},         {"#tasks", 7, 0},         {"iters", 6, 0},
    {"delta", 6, 0},           {"greedy", 7, 0},         {"sched[ms]", 10, 3},
    {"t_copy[us]", 12, 1},     {"BW_copy[GB/s]", 15, 3}, {"t_naive[us]", 13, 1},
    {"BW_naive[GB/s]", 16, 3}, {"BW_put[GB/s]", 14, 3},  {"copy/put", 10, 3},
    {"BW_put_all[GB/s]", 18, 3}, {"copy/put_all", 14, 3}, {"naive/copy", 12, 3},
    {"#wrong", 8, 0},
};
#define N_COLS ((int)(sizeof(copy_cols) / sizeof(copy_cols[0])))

static int run_pattern_size(vsym_bench_t *b, vsym_copy_t *svc, const char *pattern, size_t size,
                            task_list_t *l)
{
    const int me = b->rank, n = b->nranks;
    vsym_status_t st = VSYM_OK;
    if (build_tasks(pattern, n, size, l) != 0)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy bench: no memory for tasks");
    size_t send_len = 1, recv_max = 1, busiest = 0, sent_max = 0;
    size_t *sent = calloc((size_t)n, sizeof(size_t)), *got = calloc((size_t)n, sizeof(size_t));
    if (sent == NULL || got == NULL) {
        free(sent), free(got);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy bench: no memory");
    }
    for (size_t i = 0; i < l->n; i++) {
        sent[l->v[i].src] += l->v[i].size;
        got[l->v[i].dst] += l->v[i].size;
    }
    for (int r = 0; r < n; r++) {
        recv_max = got[r] > recv_max ? got[r] : recv_max;
        busiest = sent[r] > busiest ? sent[r] : busiest;
        sent_max = sent[r] > sent_max ? sent[r] : sent_max;
        busiest = got[r] > busiest ? got[r] : busiest;
    }
    /* The single-peer put of rank 0 sends the busiest rank's bytes from the send buffer into
     * recv, the loaded one sent[me] bytes from every rank. */
    const size_t sent_me = sent[me];
    send_len = sent[me] > size ? sent[me] : size;
    send_len = send_len > busiest ? send_len : busiest;
    send_len = send_len > 0 ? send_len : 1;
    recv_max = recv_max > size ? recv_max : size;
    recv_max = recv_max > sent_max ? recv_max : sent_max;
    recv_max = recv_max > busiest ? recv_max : busiest;
    free(sent);
    free(got);

    const int symmetric = b->opts->send_symmetric;
    unsigned char *send = NULL;
    vsym_obj_t *recv = NULL, *send_obj = NULL;
    timed_t tc = {0}, tn = {0}, tp = {0}, ta = {0};
    if (symmetric) {
        /* One size on every rank (vsym_alloc is collective): the largest of any rank. */
        size_t all = sent_max > size ? sent_max : size;
        send_len = all > busiest ? all : busiest;
        st = vsym_alloc(b->world, send_len, &send_obj);
        if (st != VSYM_OK) return st;
        send = vsym_obj_ptr(send_obj);
    } else if ((send = malloc(send_len)) == NULL) {
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy bench: no memory for %zu bytes", send_len);
    } else if ((st = vsym_buffer_register(b->ctx, send, send_len)) != VSYM_OK) {
        free(send);
        return st;
    }
    if (send_len > sent_me) memset(send + sent_me, 0, send_len - sent_me); /* the put's tail */
    st = vsym_alloc(b->world, recv_max, &recv);
    if (st != VSYM_OK) goto out;
    for (size_t i = 0; i < l->n; i++) {
        const ctask_t *t = &l->v[i];
        if (t->src == me) {
            vsym_bench_pattern_fill(send + t->send_off, t->size, t->id);
            if (b->opts->test_corrupt && t->size > 0 && i == 0) send[t->send_off] ^= 0xFF;
            st = vsym_copy_register_send(svc, t->id, send, t->send_off, t->size, t->dst);
        }
        if (st == VSYM_OK && t->dst == me)
            st = vsym_copy_register_receive(svc, t->id, vsym_obj_ptr(recv), t->recv_off, t->size,
                                            t->src);
        if (st != VSYM_OK) goto out;
    }
    st = vsym_copy_schedule(svc);
    if (st != VSYM_OK) goto out;
    vsym_copy_stats_t cs;
    st = vsym_copy_stats(svc, &cs);
    if (st != VSYM_OK) goto out;
    /* The slowest rank's schedule time (exchanges and the staging allocation included), and its
     * colouring alone. */
    double sched[2] = {cs.schedule_seconds * 1e3, cs.compute_seconds * 1e3};
    {
        double *all = malloc(sizeof(sched) * (size_t)n);
        if (all == NULL) {
            st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy bench: no memory");
            goto out;
        }
        st = vsym_team_exchange(b->world, sched, sizeof(sched), all);
        for (int r = 0; st == VSYM_OK && r < n; r++)
            for (int k = 0; k < 2; k++)
                sched[k] = all[2 * r + k] > sched[k] ? all[2 * r + k] : sched[k];
        free(all);
        if (st != VSYM_OK) goto out;
    }
    const double sched_ms = sched[0], compute_ms = sched[1];

    /* Every rank computes the same counts from the same inputs. */
    long iters = vsym_bench_default_iterations(b, (double)(busiest ? busiest : 1));
    long warmup = vsym_bench_default_warmup(b, iters);
    tc.iters = tn.iters = tp.iters = ta.iters = iters;
    tc.samples = calloc((size_t)iters, sizeof(double));
    tn.samples = calloc((size_t)iters, sizeof(double));
    tp.samples = calloc((size_t)iters, sizeof(double));
    ta.samples = calloc((size_t)iters, sizeof(double));
    if (tc.samples == NULL || tn.samples == NULL || tp.samples == NULL || ta.samples == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy bench: no memory");
        goto out;
    }
    /* Warm-up of each method, then the timed runs with the four methods taking turns, so that
     * a machine whose speed drifts (a shared guest, an emulated CPU) slows them alike. */
    double skip;
    for (long i = 0; i < warmup && st == VSYM_OK; i++) {
        st = vsym_copy_run(svc);
        if (st == VSYM_OK) st = naive_run(b, l, recv, send);
        if (st == VSYM_OK) st = time_put_alone(b, recv, send, busiest, &skip);
        if (st == VSYM_OK) st = time_put_all(b, recv, send, sent_me, &skip);
    }
    for (long i = 0; i < iters && st == VSYM_OK; i++) {
        st = time_copy(b, svc, &tc.samples[i]);
        if (st == VSYM_OK) st = time_naive(b, l, recv, send, &tn.samples[i]);
        if (st == VSYM_OK) st = time_put_alone(b, recv, send, busiest, &tp.samples[i]);
        if (st == VSYM_OK) st = time_put_all(b, recv, send, sent_me, &ta.samples[i]);
    }
    /* The puts overwrote received bytes: one more copy run, after every put is complete, for
     * the check. */
    if (st == VSYM_OK) st = vsym_team_barrier(b->world, b->opts->timeout_s);
    if (st == VSYM_OK) st = vsym_copy_run(svc);
    if (st == VSYM_OK) st = vsym_team_barrier(b->world, b->opts->timeout_s);
    if (st != VSYM_OK) goto out;
    long wrong = -1;
    if (b->opts->check) {
        wrong = 0;
        for (size_t i = 0; i < l->n; i++) {
            const ctask_t *t = &l->v[i];
            if (t->dst == me)
                wrong += vsym_bench_pattern_check((char *)vsym_obj_ptr(recv) + t->recv_off, t->size,
                                                  t->id);
        }
        long *all = malloc(sizeof(long) * (size_t)n);
        if (all == NULL) {
            st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy bench: no memory");
            goto out;
        }
        st = vsym_team_exchange(b->world, &wrong, sizeof(long), all);
        wrong = 0;
        for (int r = 0; st == VSYM_OK && r < n; r++)
            wrong += all[r];
        free(all);
        if (st != VSYM_OK) goto out;
    }
    if (st == VSYM_OK) st = slowest(b, &tc);
    if (st == VSYM_OK) st = slowest(b, &tn);
    if (st == VSYM_OK) st = slowest(b, &tp);
    if (st == VSYM_OK) st = slowest(b, &ta);
    if (st != VSYM_OK) goto out;
    /* Per-rank put bandwidths: the busiest rank's bytes alone, the largest sender's under load. */
    double put_gbs = n > 1 && busiest > 0 ? (double)busiest / median_of(tp.samples, iters) / 1e9 : 0;
    double put_all_gbs =
        sent_max > 0 ? (double)sent_max / median_of(ta.samples, iters) / 1e9 : 0;

    double t_copy = median_of(tc.samples, iters), t_naive = median_of(tn.samples, iters);
    double bw_copy = (double)busiest / t_copy / 1e9, bw_naive = (double)busiest / t_naive / 1e9;
    double v[N_COLS] = {(double)size,
                        (double)cs.tasks,
                        (double)cs.iterations,
                        (double)cs.delta,
                        (double)cs.greedy_iterations,
                        sched_ms,
                        t_copy * 1e6,
                        bw_copy,
                        t_naive * 1e6,
                        bw_naive,
                        put_gbs > 0 ? put_gbs : NAN,
                        put_gbs > 0 ? bw_copy / put_gbs : NAN,
                        put_all_gbs > 0 ? put_all_gbs : NAN,
                        put_all_gbs > 0 ? bw_copy / put_all_gbs : NAN,
                        t_naive / t_copy,
                        (double)wrong};
    char key[96], title[256];
    snprintf(key, sizeof(key), "copy/%s", pattern);
    snprintf(title, sizeof(title),
             "vsym-bench copy --pattern %s: %d ranks on %d node(s), %llu-byte chunks, %s send "
             "buffers, per rank = busiest rank's bytes per run",
             pattern, n, b->nnodes, (unsigned long long)cs.chunk_size,
             symmetric ? "symmetric" : "ordinary");
    vsym_bench_table_header(b, key, title, copy_cols, b->opts->check ? N_COLS : N_COLS - 1);
    vsym_bench_table_row(b, copy_cols, b->opts->check ? N_COLS : N_COLS - 1, v);
    json_t *r = vsym_bench_record_new(b, pattern, "bw", size);
    json_object_set_new(r, "pattern", json_string(pattern));
    json_object_set_new(r, "send_memory", json_string(symmetric ? "symmetric" : "ordinary"));
    json_object_set_new(r, "iterations", json_integer(iters));
    json_object_set_new(r, "warmup", json_integer(warmup));
    json_object_set_new(r, "tasks", json_integer((json_int_t)cs.tasks));
    json_object_set_new(r, "batches", json_integer((json_int_t)cs.batches));
    json_object_set_new(r, "schedule_iterations", json_integer((json_int_t)cs.iterations));
    json_object_set_new(r, "delta", json_integer((json_int_t)cs.delta));
    json_object_set_new(r, "greedy_iterations", json_integer((json_int_t)cs.greedy_iterations));
    json_object_set_new(r, "chunk", json_integer((json_int_t)cs.chunk_size));
    json_object_set_new(r, "zero_copy_bytes", json_integer((json_int_t)cs.zero_copy_bytes));
    json_object_set_new(r, "staged_bytes", json_integer((json_int_t)cs.staged_bytes));
    /* rank 0's copies: non-temporal stores or not (vsym_copy_stats_t.streaming) */
    json_object_set_new(r, "streaming", json_boolean(cs.streaming != 0));
    json_object_set_new(r, "busiest_rank_bytes", json_integer((json_int_t)busiest));
    json_object_set_new(r, "schedule_ms", json_real(sched_ms));
    json_object_set_new(r, "schedule_compute_ms", json_real(compute_ms));
    json_object_set_new(r, "copy",
                        json_pack("{sfsf}", "median_us", t_copy * 1e6, "bw_per_rank_gbs", bw_copy));
    json_object_set_new(
        r, "naive", json_pack("{sfsf}", "median_us", t_naive * 1e6, "bw_per_rank_gbs", bw_naive));
    json_object_set_new(r, "put_single_peer_gbs", json_real(put_gbs));
    json_object_set_new(r, "put_single_peer_bytes", json_integer((json_int_t)busiest));
    if (n > 1) {
        int peer = put_peer(b);
        const char *via = vsym_team_transport_of(b->world, peer);
        json_object_set_new(r, "put_pair", json_pack("[ii]", 0, peer));
        json_object_set_new(r, "put_transport", json_string(via ? via : "unknown"));
    }
    if (put_gbs > 0) json_object_set_new(r, "copy_over_put", json_real(bw_copy / put_gbs));
    json_object_set_new(r, "put_all_gbs", json_real(put_all_gbs));
    if (put_all_gbs > 0)
        json_object_set_new(r, "copy_over_put_all", json_real(bw_copy / put_all_gbs));
    json_object_set_new(r, "naive_over_copy", json_real(t_naive / t_copy));
    if (wrong >= 0) {
        json_object_set_new(r, "wrong", json_integer(wrong));
        b->wrong += wrong;
    }
    st = vsym_bench_record_emit(b, r);
out:
    free(tc.samples);
    free(tn.samples);
    free(tp.samples);
    free(ta.samples);
    vsym_status_t st2 = vsym_copy_clear(svc);
    if (st == VSYM_OK) st = st2;
    st2 = vsym_obj_free(recv);
    if (st == VSYM_OK) st = st2;
    if (symmetric) {
        st2 = vsym_obj_free(send_obj);
        if (st == VSYM_OK) st = st2;
    } else {
        st2 = vsym_buffer_unregister(b->ctx, send);
        if (st == VSYM_OK) st = st2;
        free(send);
    }
    return st;
}

static int run_copy(vsym_bench_t *b)
{
    vsym_copy_t *svc;
    task_list_t l = {0};
    b->pair_a = b->pair_b = b->peer = -1; /* a pattern over the whole world */
    vsym_status_t st = vsym_copy_create(b->world, &svc);
    if (st != VSYM_OK) return st;
    for (int p = 0; p < N_PATTERNS && st == VSYM_OK; p++) {
        if (b->opts->op != NULL && strcmp(b->opts->op, patterns[p]) != 0) continue;
        for (int k = 0; k < b->nsizes && st == VSYM_OK; k++) {
            vsym_bench_core_rtt(b);
            st = (vsym_status_t)run_pattern_size(b, svc, patterns[p], b->sizes[k], &l);
        }
    }
    free(l.v);
    vsym_status_t st2 = vsym_copy_destroy(svc);
    if (st != VSYM_OK) return st;
    if (st2 != VSYM_OK) return st2;
    return vsym_bench_wrong_rc(b->wrong);
}

const vsym_bench_suite_t vsym_bench_suite_copy = {
    .name = "copy",
    .help = "copy service on a pattern (--pattern ring|alltoall|scatter|gather|random|incast) "
            "vs naive puts + barriers, single-peer put bandwidth alone and with every rank putting",
    .min_ranks = 2,
    .max_ranks = 0,
    .default_min_size = 64u << 10,
    .default_max_size = 16u << 20,
    .sizeless = 0,
    .check_opts = copy_check_opts,
    .run = run_copy,
};
