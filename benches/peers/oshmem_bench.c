/* oshmem-bench: the same point-to-point measurements as vsym-bench, with OpenSHMEM (Open MPI's
 * OSHMEM), for benches/peers/compare. Our own program, in the style of the OSU OpenSHMEM
 * benchmarks: buffers from shmem_malloc, PE 0 initiates, PE 1 is the target.
 *
 *   oshrun --allow-run-as-root --oversubscribe -np 2 oshmem-bench -b 8 -e 4M --json FILE
 *
 * Records (suite/op/mode): put/put/lat (putmem + quiet per op), put/put/bw (a window of
 * putmem_nbi + quiet), get/get/lat (getmem per op), get/get/bw (a window of getmem_nbi +
 * quiet), atomic/fetch-add/lat (unsigned long atomic_fetch_add per op), barrier/team-barrier/lat
 * (shmem_barrier_all). Only PE 0 writes records. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "peer_common.h"

typedef struct osh_run {
    char *remote;        /* symmetric: the target's memory */
    char *local;         /* symmetric: source of puts, destination of gets */
    unsigned long *word; /* 64-bit on LP64 */
    size_t size;
    long window;
} osh_run_t;

static void unit_put(void *arg, long i)
{
    osh_run_t *r = arg;
    (void)i;
    shmem_putmem(r->remote, r->local, r->size, 1);
    shmem_quiet();
}

static void unit_get(void *arg, long i)
{
    osh_run_t *r = arg;
    (void)i;
    shmem_getmem(r->local, r->remote, r->size, 1);
}

static void unit_put_window(void *arg, long i)
{
    osh_run_t *r = arg;
    (void)i;
    for (long w = 0; w < r->window; w++)
        shmem_putmem_nbi(r->remote, r->local, r->size, 1);
    shmem_quiet();
}

static void unit_get_window(void *arg, long i)
{
    osh_run_t *r = arg;
    (void)i;
    for (long w = 0; w < r->window; w++)
        shmem_getmem_nbi(r->local, r->remote, r->size, 1);
    shmem_quiet();
}

static void unit_fetch_add(void *arg, long i)
{
    osh_run_t *r = arg;
    (void)i;
    (void)shmem_ulong_atomic_fetch_add(r->word, 1, 1);
}

static void unit_barrier(void *arg, long i)
{
    (void)arg;
    (void)i;
    shmem_barrier_all();
}

static int wanted(const peer_opts_t *o, const char *name)
{
    return o->only == NULL || strcmp(o->only, name) == 0;
}

int main(int argc, char **argv)
{
    peer_opts_t o;
    vsym_bench_results_t *res = NULL;
    osh_run_t r;
    double clock_ns;
    int me;

    peer_parse(argc, argv, "oshmem-bench", &o);
    static const char *const names[] = {"put", "get", "atomic", "barrier"};
    peer_check_only(&o, names, sizeof(names) / sizeof(names[0]));
    shmem_init();
    me = shmem_my_pe();
    o.ranks = shmem_n_pes();
    if (o.ranks < 2) {
        if (me == 0) fprintf(stderr, "oshmem-bench: needs 2 PEs\n");
        shmem_finalize();
        return 2;
    }
    memset(&r, 0, sizeof(r));
    r.remote = shmem_malloc(o.max_size);
    r.local = shmem_malloc(o.max_size);
    r.word = shmem_malloc(64);
    if (r.remote == NULL || r.local == NULL || r.word == NULL) {
        fprintf(stderr, "oshmem-bench: shmem_malloc of %zu bytes failed\n", o.max_size);
        shmem_global_exit(1);
    }
    memset(r.remote, 1, o.max_size);
    memset(r.local, 2, o.max_size);
    *r.word = 0;
    clock_ns = peer_clock_ns();
    if (me == 0) res = peer_open(&o);
    shmem_barrier_all();

    for (size_t s = o.min_size; s <= o.max_size; s *= o.factor) {
        peer_stats_t st;
        r.size = s;
        if (wanted(&o, "put")) {
            if (me == 0) {
                peer_measure(&o, clock_ns, unit_put, &r, (double)s, 1, 1, 0, &st);
                peer_emit(res, &o, clock_ns, "put", "put", "lat", s, &st);
            }
            shmem_barrier_all();
            if (me == 0) {
                r.window = peer_window(&o, s);
                peer_measure(&o, clock_ns, unit_put_window, &r, (double)s * (double)r.window,
                             (double)r.window, (double)r.window, 0, &st);
                st.window = r.window;
                peer_emit(res, &o, clock_ns, "put", "put", "bw", s, &st);
            }
            shmem_barrier_all();
        }
        if (wanted(&o, "get")) {
            if (me == 0) {
                peer_measure(&o, clock_ns, unit_get, &r, (double)s, 1, 1, 0, &st);
                peer_emit(res, &o, clock_ns, "get", "get", "lat", s, &st);
            }
            shmem_barrier_all();
            if (me == 0) {
                r.window = peer_window(&o, s);
                peer_measure(&o, clock_ns, unit_get_window, &r, (double)s * (double)r.window,
                             (double)r.window, (double)r.window, 0, &st);
                st.window = r.window;
                peer_emit(res, &o, clock_ns, "get", "get", "bw", s, &st);
            }
            shmem_barrier_all();
        }
        if (s > o.max_size / o.factor) break;
    }
    if (wanted(&o, "atomic")) {
        peer_stats_t st;
        if (me == 0) {
            peer_measure(&o, clock_ns, unit_fetch_add, &r, 8, 1, 1, 0, &st);
            peer_emit(res, &o, clock_ns, "atomic", "fetch-add", "lat", 8, &st);
        }
        shmem_barrier_all();
    }
    if (wanted(&o, "barrier")) {
        /* every PE must run the same count: a fixed one */
        peer_stats_t st;
        long n = o.iterations > 0 ? o.iterations : 1000;
        peer_measure(&o, clock_ns, unit_barrier, &r, 0, 1, 1, n, &st);
        if (me == 0) peer_emit(res, &o, clock_ns, "barrier", "team-barrier", "lat", 0, &st);
        shmem_barrier_all();
    }
    /* The records are on disk (each write is atomic) before finalize, which crashes in some
     * Open MPI / UCX builds. */
    if (me == 0) {
        vsym_bench_results_close(res);
        fflush(stdout);
    }
    shmem_barrier_all();
    shmem_free(r.word);
    shmem_free(r.local);
    shmem_free(r.remote);
    shmem_finalize();
    return 0;
}
