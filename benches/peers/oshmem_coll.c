/* oshmem-coll: Open MPI OSHMEM's collectives timed the way vsym-bench times ours and mpi-coll
 * times Open MPI's MPI ones, for side-by-side comparison (results/). Our own program, with the
 * OpenSHMEM 1.4 collectives Open MPI 4.1 provides (active sets, pSync and pWrk arrays).
 *
 *   oshrun --allow-run-as-root --oversubscribe -np 2 oshmem-coll -b 8 -e 64M --json FILE
 *
 * Records (suite / op / mode), float or 32-bit data, size S as in nccl-tests (one PE's buffer:
 * the all-reduce and broadcast vector, the all-gather output, the all-to-all buffer), bw_gbs =
 * algbw = S / time:
 *   allreduce/allreduce/{out-of-place,in-place}   shmem_float_sum_to_all
 *   allgather/allgather/out-of-place              shmem_fcollect32
 *   broadcast/broadcast/out-of-place              shmem_broadcast32 from PE 0 (whose dst
 *                                                 OpenSHMEM leaves unwritten)
 *   alltoall/alltoall/out-of-place                shmem_alltoall32
 * OpenSHMEM 1.4 has no reduce-scatter. --only NAME runs one of allreduce, allgather, broadcast,
 * alltoall. Consecutive calls rotate through PSYNC_SETS pSync arrays (and PWRK_SETS pWrk
 * arrays), so that no call reuses one a PE may still be in; every PE checks its results of the
 * first call of each size (#wrong; exit status 1 when any is wrong). Times are the slowest PE's
 * (each PE times the same number of calls). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "peer_common.h"

#define PSYNC_SETS 8
#define PWRK_SETS 2  /* a reduction's end on a PE means every PE has left the one before */
#define PSYNC_LEN 64 /* >= every SHMEM_*_SYNC_SIZE of Open MPI 4.1, checked in main */

enum { K_AR, K_AG, K_BC, K_A2A, K_COUNT };
static const char *const kind_names[K_COUNT] = {"allreduce", "allgather", "broadcast", "alltoall"};

static long psync[PSYNC_SETS][PSYNC_LEN];
static peer_stats_t st_sym; /* each PE's statistics, read by PE 0 */

typedef struct orun {
    int kind, inplace, npes;
    float *src, *dst; /* symmetric */
    float *wrk;       /* symmetric: PWRK_SETS pWrk arrays of wrk_len */
    size_t wrk_len;
    int count; /* elements per PE (all-reduce, broadcast) or per block */
    long calls;
} orun_t;

static void unit(void *arg, long i)
{
    orun_t *r = arg;
    (void)i;
    int set = (int)(r->calls++ % PSYNC_SETS);
    long *ps = psync[set];
    switch (r->kind) {
    case K_AR:
        shmem_float_sum_to_all(r->inplace ? r->src : r->dst, r->src, r->count, 0, 0, r->npes,
                               r->wrk + (size_t)(set % PWRK_SETS) * r->wrk_len, ps);
        break;
    case K_AG:
        shmem_fcollect32(r->dst, r->src, (size_t)r->count, 0, 0, r->npes, ps);
        break;
    case K_BC:
        shmem_broadcast32(r->dst, r->src, (size_t)r->count, 0, 0, 0, r->npes, ps);
        break;
    default:
        shmem_alltoall32(r->dst, r->src, (size_t)r->count, 0, 0, r->npes, ps);
        break;
    }
}

/* The first call's results on this PE: 0 when right (src element k of PE p is p + k % 7). */
static long check(const orun_t *r, int me)
{
    long wrong = 0;
    int n = r->npes, c = r->count;
    const float *out = r->kind == K_AR && r->inplace ? r->src : r->dst;
    for (int k = 0; k < c; k++) {
        switch (r->kind) {
        case K_AR:
            wrong += out[k] != (float)(n * (n - 1) / 2 + n * (k % 7));
            break;
        case K_BC:
            wrong += me != 0 && out[k] != (float)(k % 7);
            break;
        default:
            /* all-gather: block p holds PE p's src; all-to-all: block p holds PE p's block me */
            for (int p = 0; p < n; p++) {
                int from = r->kind == K_AG ? k : me * c + k;
                wrong += out[(size_t)p * c + k] != (float)(p + from % 7);
            }
        }
    }
    return wrong;
}

static void fill(orun_t *r, int me, size_t elems)
{
    for (size_t k = 0; k < elems; k++)
        r->src[k] = (float)(me + (int)(k % 7));
}

/* Time on every PE; PE 0 keeps the slowest PE's statistics (its average decides). */
static void measure(const peer_opts_t *o, double clock_ns, orun_t *r, size_t bytes, int me,
                    peer_stats_t *st)
{
    long iters = peer_iterations(o, (double)bytes);
    shmem_barrier_all();
    peer_measure(o, clock_ns, unit, r, (double)bytes, 1, 1, iters, st);
    st_sym = *st;
    shmem_barrier_all();
    if (me == 0) {
        for (int p = 1; p < r->npes; p++) {
            peer_stats_t other;
            shmem_getmem(&other, &st_sym, sizeof(other), p);
            if (other.lat_avg > st->lat_avg) *st = other;
        }
    }
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    peer_opts_t o;
    peer_parse(argc, argv, "oshmem-coll", &o);
    peer_check_only(&o, kind_names, K_COUNT);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    o.ranks = n;
    if (SHMEM_REDUCE_SYNC_SIZE > PSYNC_LEN || SHMEM_BCAST_SYNC_SIZE > PSYNC_LEN ||
        SHMEM_COLLECT_SYNC_SIZE > PSYNC_LEN || SHMEM_ALLTOALL_SYNC_SIZE > PSYNC_LEN) {
        if (me == 0)
            fprintf(stderr, "oshmem-coll: pSync arrays of %d longs are too short\n", PSYNC_LEN);
        shmem_global_exit(2);
    }
    for (int s = 0; s < PSYNC_SETS; s++)
        for (int i = 0; i < PSYNC_LEN; i++)
            psync[s][i] = SHMEM_SYNC_VALUE;
    double clock_ns = peer_clock_ns();
    vsym_bench_results_t *res = (me == 0 && o.json) ? peer_open(&o) : NULL;
    size_t cap = o.max_size + 64; /* S is a whole buffer (the all-gather's output) */
    orun_t r;
    memset(&r, 0, sizeof(r));
    r.npes = n;
    r.wrk_len = o.max_size / sizeof(float) / 2 + 1;
    if (r.wrk_len < SHMEM_REDUCE_MIN_WRKDATA_SIZE) r.wrk_len = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    r.src = shmem_malloc(cap);
    r.dst = shmem_malloc(cap);
    r.wrk = shmem_malloc(PWRK_SETS * r.wrk_len * sizeof(float));
    if (r.src == NULL || r.dst == NULL || r.wrk == NULL) {
        fprintf(stderr,
                "oshmem-coll: shmem_malloc of %zu bytes failed (a larger symmetric heap: oshrun "
                "-x SHMEM_SYMMETRIC_HEAP_SIZE=1G)\n",
                cap);
        shmem_global_exit(1);
    }
    int bad = 0;
    for (int kind = 0; kind < K_COUNT; kind++) {
        if (o.only && strcmp(o.only, kind_names[kind]) != 0) continue;
        if (me == 0)
            printf("# %s (Open MPI OSHMEM, float, %d PEs)\n%12s %14s %12s %7s\n", kind_names[kind],
                   n, "size", "time_avg[us]", "algbw[GB/s]", "#wrong");
        for (size_t s = o.min_size; s <= o.max_size; s *= o.factor) {
            size_t per = (kind == K_AR || kind == K_BC) ? 1 : (size_t)n;
            size_t bytes = peer_coll_count(s, per, sizeof(float), &r.count);
            r.kind = kind;
            if (bytes == 0) continue;
            for (int ip = 0; ip < (kind == K_AR ? 2 : 1); ip++) {
                peer_stats_t st;
                r.inplace = ip;
                fill(&r, me, (size_t)r.count * per);
                shmem_barrier_all();
                unit(&r, 0);
                long wrong = check(&r, me);
                measure(&o, clock_ns, &r, bytes, me, &st);
                /* PE 0 reports the wrong elements of every PE. */
                static long wrong_sym;
                wrong_sym = wrong;
                shmem_barrier_all();
                if (me == 0)
                    for (int p = 1; p < n; p++)
                        wrong += shmem_long_g(&wrong_sym, p);
                shmem_barrier_all();
                const char *mode = ip ? "in-place" : "out-of-place";
                if (me == 0) {
                    printf("%12zu %14.2f %12.3f %7ld  %s %s\n", bytes, st.lat_avg,
                           (double)bytes / (st.lat_avg * 1e3), wrong, kind_names[kind], mode);
                    if (res)
                        peer_emit(res, &o, clock_ns, kind_names[kind], kind_names[kind], mode,
                                  bytes, &st);
                    bad |= wrong != 0;
                }
            }
            if (o.factor < 2) break;
        }
    }
    /* The records are on disk (each write is atomic) before finalize, which crashes in some
     * Open MPI / UCX builds (as oshmem-bench). */
    if (me == 0) {
        vsym_bench_results_close(res);
        fflush(stdout);
    }
    shmem_barrier_all();
    shmem_free(r.wrk);
    shmem_free(r.dst);
    shmem_free(r.src);
    shmem_finalize();
    return bad;
}
