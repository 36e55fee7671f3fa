/* The copy service end to end: seeded random task sets (sizes 0 B to a few MiB, or to 64 MiB
 * in the slow build; random peers; self-copies; several receive buffers per rank; gaps between
 * ranges) are registered, scheduled once, run several times with new data each time, cleared, and
 * replaced by a new set. Every byte of every receive range is checked, and every byte between
 * ranges must be untouched. Phases: default staging; small staging (tasks segmented, the two
 * staging slots alternate); an all-to-all with equal receive buffers (every byte zero copy);
 * column blocks registered as rows (symmetric or malloc'd receive matrix, chunks inside rows); an
 * empty set. Schedule statistics must be the same on every rank and consistent. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "harness.h"
#include "util/util.h"

/* Change a setting: the library reads settings once and again at vsym_settings_check(). */
static void set_setting(const char *name, const char *value)
{
    if (value != NULL)
        setenv(name, value, 1);
    else
        unsetenv(name);
    VSYM_CHECK_OK(vsym_settings_check());
}

#ifndef COPY_TEST_SLOW
#define COPY_TEST_SLOW 0
#endif

#define NBUF 3 /* receive buffers per rank */
#define SENTINEL 0xEE

typedef struct gtask {
    uint64_t id;
    int src;
    int dst;
    size_t size;
    size_t send_off;
    size_t recv_off;
    int recv_buf;
} gtask_t;

typedef struct task_set {
    gtask_t *t;
    size_t n;
    unsigned char *send; /* this rank's send buffer */
    size_t send_len;
    unsigned char *recv[NBUF]; /* this rank's receive buffers */
    size_t recv_len[NBUF];
} task_set_t;

static uint64_t rng_state;

static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned char pattern(uint64_t id, size_t k, int run)
{
    return (unsigned char)((id * 131u) ^ (k * 7u) ^ (k >> 9) ^ ((unsigned)run * 29u));
}

/* The same global set on every rank (same seed); each rank then lays out its own buffers. */
static void generate(task_set_t *ts, uint64_t seed, int n, int me, size_t ntasks, size_t max_size)
{
    memset(ts, 0, sizeof(*ts));
    rng_state = seed;
    ts->n = ntasks;
    ts->t = calloc(ntasks ? ntasks : 1, sizeof(gtask_t));
    VSYM_CHECK(ts->t != NULL, "no memory");
    size_t *send_at = calloc((size_t)n, sizeof(size_t));
    size_t *recv_at = calloc((size_t)n * NBUF, sizeof(size_t));
    for (size_t i = 0; i < ntasks; i++) {
        gtask_t *t = &ts->t[i];
        t->id = seed * 1000003u + i * 13u + 5u;
        t->src = (int)(rng() % (uint64_t)n);
        /* Every seventh task a self-copy, the others to another rank. */
        t->dst =
            (i % 7 == 3 || n == 1) ? t->src : (t->src + 1 + (int)(rng() % (uint64_t)(n - 1))) % n;
        uint64_t kind = rng() % 10;
        t->size = kind == 0   ? 0
                  : kind <= 5 ? 1 + rng() % 4096
                  : kind <= 8 ? 1 + rng() % (256u << 10)
                              : 1 + rng() % max_size;
        t->recv_buf = (int)(rng() % NBUF);
        send_at[t->src] += rng() % 64; /* gaps between ranges */
        t->send_off = send_at[t->src];
        send_at[t->src] += t->size;
        size_t *ra = &recv_at[(size_t)t->dst * NBUF + (size_t)t->recv_buf];
        *ra += rng() % 64;
        t->recv_off = *ra;
        *ra += t->size;
    }
    ts->send_len = send_at[me] + 64;
    ts->send = malloc(ts->send_len);
    VSYM_CHECK(ts->send != NULL, "no memory for %zu bytes", ts->send_len);
    for (int b = 0; b < NBUF; b++) {
        ts->recv_len[b] = recv_at[(size_t)me * NBUF + (size_t)b] + 64;
        ts->recv[b] = malloc(ts->recv_len[b]);
        VSYM_CHECK(ts->recv[b] != NULL, "no memory for %zu bytes", ts->recv_len[b]);
    }
    free(send_at);
    free(recv_at);
}

static void release(task_set_t *ts)
{
    free(ts->t);
    free(ts->send);
    for (int b = 0; b < NBUF; b++)
        free(ts->recv[b]);
}

static void register_all(vsym_copy_t *svc, const task_set_t *ts, int me)
{
    for (size_t i = 0; i < ts->n; i++) {
        const gtask_t *t = &ts->t[i];
        if (t->src == me)
            VSYM_CHECK_OK(
                vsym_copy_register_send(svc, t->id, ts->send, t->send_off, t->size, t->dst));
    }
    /* Receives in reverse order: the service must not depend on the order. */
    for (size_t i = ts->n; i-- > 0;) {
        const gtask_t *t = &ts->t[i];
        if (t->dst == me)
            VSYM_CHECK_OK(vsym_copy_register_receive(svc, t->id, ts->recv[t->recv_buf], t->recv_off,
                                                     t->size, t->src));
    }
}

/* Fill the send ranges with this run's pattern and the receive buffers with the sentinel, run,
 * check every byte. */
static void run_and_check(vsym_copy_t *svc, task_set_t *ts, int me, int run, const char *phase)
{
    for (size_t i = 0; i < ts->n; i++) {
        const gtask_t *t = &ts->t[i];
        if (t->src == me)
            for (size_t k = 0; k < t->size; k++)
                ts->send[t->send_off + k] = pattern(t->id, k, run);
    }
    for (int b = 0; b < NBUF; b++)
        memset(ts->recv[b], SENTINEL, ts->recv_len[b]);
    VSYM_CHECK_OK(vsym_copy_run(svc));
    unsigned char *covered[NBUF];
    for (int b = 0; b < NBUF; b++) {
        covered[b] = calloc(ts->recv_len[b], 1);
        VSYM_CHECK(covered[b] != NULL, "no memory");
    }
    for (size_t i = 0; i < ts->n; i++) {
        const gtask_t *t = &ts->t[i];
        if (t->dst != me) continue;
        const unsigned char *got = ts->recv[t->recv_buf] + t->recv_off;
        for (size_t k = 0; k < t->size; k++) {
            if (got[k] != pattern(t->id, k, run))
                VSYM_CHECK(0,
                           "%s run %d: task %llu (%d -> %d, %zu bytes): byte %zu is 0x%02x, "
                           "expected 0x%02x",
                           phase, run, (unsigned long long)t->id, t->src, t->dst, t->size, k,
                           got[k], pattern(t->id, k, run));
        }
        memset(covered[t->recv_buf] + t->recv_off, 1, t->size);
    }
    for (int b = 0; b < NBUF; b++) {
        for (size_t k = 0; k < ts->recv_len[b]; k++)
            VSYM_CHECK(covered[b][k] || ts->recv[b][k] == SENTINEL,
                       "%s run %d: buffer %d byte %zu outside every range was written", phase, run,
                       b, k);
        free(covered[b]);
    }
}

/* The team-wide statistics agree on every rank and add up. */
static void check_stats(vsym_copy_t *svc, vsym_team_t *team, const task_set_t *ts,
                        const char *phase)
{
    vsym_copy_stats_t st;
    VSYM_CHECK_OK(vsym_copy_stats(svc, &st));
    int n = vsym_team_size(team);
    uint64_t mine[10] = {st.tasks,           st.local_tasks, st.segments,    st.batches,
                         st.iterations,      st.delta,       st.total_bytes, st.local_bytes,
                         st.zero_copy_bytes, st.staged_bytes};
    uint64_t *all = malloc(sizeof(mine) * (size_t)n);
    VSYM_CHECK_OK(vsym_team_exchange(team, mine, sizeof(mine), all));
    for (int r = 0; r < n; r++)
        VSYM_CHECK(memcmp(all + 10 * r, mine, sizeof(mine)) == 0,
                   "%s: rank %d has other team statistics", phase, r);
    free(all);
    uint64_t total = 0, local = 0, ntasks = 0;
    for (size_t i = 0; i < ts->n; i++) {
        ntasks++;
        if (ts->t[i].src == ts->t[i].dst)
            local += ts->t[i].size;
        else
            total += ts->t[i].size;
    }
    VSYM_CHECK(st.tasks == ntasks && st.total_bytes == total && st.local_bytes == local,
               "%s: stats %llu tasks %llu bytes, expected %llu %llu", phase,
               (unsigned long long)st.tasks, (unsigned long long)st.total_bytes,
               (unsigned long long)ntasks, (unsigned long long)total);
    VSYM_CHECK(st.iterations == st.delta, "%s: %llu iterations, delta %llu", phase,
               (unsigned long long)st.iterations, (unsigned long long)st.delta);
    VSYM_CHECK(st.zero_copy_bytes + st.staged_bytes == st.total_bytes,
               "%s: zero copy %llu + staged %llu != %llu", phase,
               (unsigned long long)st.zero_copy_bytes, (unsigned long long)st.staged_bytes,
               (unsigned long long)st.total_bytes);
    uint64_t it_bytes = 0;
    for (uint64_t it = 0; it < st.iterations; it++) {
        vsym_copy_iteration_t info;
        VSYM_CHECK_OK(vsym_copy_iteration_info(svc, it, &info));
        VSYM_CHECK(info.batches > 0 && info.max_bytes <= st.chunk_size, "%s: iteration %llu", phase,
                   (unsigned long long)it);
        it_bytes += info.bytes;
    }
    VSYM_CHECK(it_bytes == st.total_bytes, "%s: iterations move %llu of %llu bytes", phase,
               (unsigned long long)it_bytes, (unsigned long long)st.total_bytes);
    if (vsym_team_rank(team) == 0)
        printf("%s: %llu tasks (%llu local), %llu segments, %llu batches, %llu iterations = "
               "delta %llu, %llu bytes (%llu zero copy, %llu staged), chunk %llu, "
               "%llu rendezvous, schedule %.2f ms\n",
               phase, (unsigned long long)st.tasks, (unsigned long long)st.local_tasks,
               (unsigned long long)st.segments, (unsigned long long)st.batches,
               (unsigned long long)st.iterations, (unsigned long long)st.delta,
               (unsigned long long)st.total_bytes, (unsigned long long)st.zero_copy_bytes,
               (unsigned long long)st.staged_bytes, (unsigned long long)st.chunk_size,
               (unsigned long long)st.rendezvous_rounds, st.schedule_seconds * 1e3);
}

static int all_shm(vsym_team_t *team)
{
    for (int r = 0; r < vsym_team_size(team); r++) {
        const char *tp = vsym_team_transport_of(team, r);
        if (r != vsym_team_rank(team) && (tp == NULL || strcmp(tp, "shm") != 0)) return 0;
    }
    return 1;
}

/* staged: 1 when VSYM_COPY_ZERO_COPY=0 is set (every byte must be staged); 0 when zero copy is
 * allowed (over shm every byte must then be written in place). */
static void phase_random(vsym_copy_t *svc, vsym_team_t *team, uint64_t seed, size_t ntasks,
                         size_t max_size, int runs, int staged, const char *phase)
{
    int me = vsym_team_rank(team), n = vsym_team_size(team);
    task_set_t ts;
    generate(&ts, seed, n, me, ntasks, max_size);
    register_all(svc, &ts, me);
    set_setting("VSYM_COPY_ZERO_COPY", staged ? "0" : "1");
    VSYM_CHECK_OK(vsym_copy_schedule(svc));
    set_setting("VSYM_COPY_ZERO_COPY", NULL);
    check_stats(svc, team, &ts, phase);
    vsym_copy_stats_t st;
    VSYM_CHECK_OK(vsym_copy_stats(svc, &st));
    if (staged)
        VSYM_CHECK(st.staged_bytes == st.total_bytes, "%s: %llu of %llu bytes staged", phase,
                   (unsigned long long)st.staged_bytes, (unsigned long long)st.total_bytes);
    else if (all_shm(team))
        VSYM_CHECK(st.zero_copy_bytes == st.total_bytes, "%s: %llu of %llu bytes zero copy", phase,
                   (unsigned long long)st.zero_copy_bytes, (unsigned long long)st.total_bytes);
    for (int run = 0; run < runs; run++)
        run_and_check(svc, &ts, me, run + 1, phase);
    VSYM_CHECK_OK(vsym_copy_clear(svc));
    release(&ts);
}

/* All-to-all into one receive buffer per rank, blocks ordered by sender, self block in another
 * buffer: every rank's receive buffer has the same extent, so every byte goes zero copy. */
static void phase_zero_copy(vsym_copy_t *svc, vsym_team_t *team, size_t block)
{
    int me = vsym_team_rank(team), n = vsym_team_size(team);
    task_set_t ts = {0};
    ts.n = (size_t)n * (size_t)n;
    ts.t = calloc(ts.n, sizeof(gtask_t));
    for (int s = 0; s < n; s++) {
        for (int d = 0; d < n; d++) {
            gtask_t *t = &ts.t[(size_t)s * n + d];
            int slot = s < d ? s : s - 1; /* position among the remote senders of d */
            *t = (gtask_t){.id = 7000000u + (uint64_t)s * 1000u + (uint64_t)d,
                           .src = s,
                           .dst = d,
                           .size = block,
                           .send_off = (size_t)d * block,
                           .recv_buf = (s == d) ? 1 : 0,
                           .recv_off = (s == d) ? 0 : (size_t)slot * block};
        }
    }
    ts.send_len = (size_t)n * block;
    ts.send = malloc(ts.send_len);
    ts.recv_len[0] = (size_t)(n - 1) * block;
    ts.recv_len[1] = block;
    ts.recv_len[2] = 1;
    for (int b = 0; b < NBUF; b++)
        ts.recv[b] = malloc(ts.recv_len[b]);
    /* Every receive names its own block as the buffer: the blocks touch, so the service
     * exposes them as one region, and the regions of all ranks have one extent: one
     * rendezvous in all. */
    for (size_t i = 0; i < ts.n; i++) {
        const gtask_t *t = &ts.t[i];
        if (t->src == me)
            VSYM_CHECK_OK(
                vsym_copy_register_send(svc, t->id, ts.send, t->send_off, t->size, t->dst));
        if (t->dst == me)
            VSYM_CHECK_OK(vsym_copy_register_receive(svc, t->id, ts.recv[t->recv_buf] + t->recv_off,
                                                     0, t->size, t->src));
    }
    VSYM_CHECK_OK(vsym_copy_schedule(svc));
    check_stats(svc, team, &ts, "zero-copy all-to-all");
    vsym_copy_stats_t st;
    VSYM_CHECK_OK(vsym_copy_stats(svc, &st));
    VSYM_CHECK(st.staged_bytes == 0 && st.zero_copy_bytes == st.total_bytes,
               "all-to-all: %llu bytes staged", (unsigned long long)st.staged_bytes);
    VSYM_CHECK(st.rendezvous_rounds == 1, "all-to-all: %llu rendezvous for touching blocks",
               (unsigned long long)st.rendezvous_rounds);
    /* The sends to peers over verbs are registered for the NIC as one extent of the send
     * buffer (from the lowest to the highest byte sent that way), and nothing over shm. */
    size_t lo = SIZE_MAX, hi = 0;
    for (int d = 0; d < n; d++) {
        const char *tp = vsym_team_transport_of(team, d);
        if (d == me || tp == NULL || strcmp(tp, "verbs") != 0) continue;
        if ((size_t)d * block < lo) lo = (size_t)d * block;
        if ((size_t)(d + 1) * block > hi) hi = (size_t)(d + 1) * block;
    }
    VSYM_CHECK(st.send_registered_bytes == (hi > lo ? hi - lo : 0),
               "all-to-all: %llu send bytes registered, expected %zu",
               (unsigned long long)st.send_registered_bytes, hi > lo ? hi - lo : 0);
    const uint64_t per_pair = (block + st.chunk_size - 1) / st.chunk_size;
    VSYM_CHECK(st.iterations == (uint64_t)(n - 1) * per_pair,
               "all-to-all: %llu iterations for %d ranks, %llu batches per pair",
               (unsigned long long)st.iterations, n, (unsigned long long)per_pair);
    for (int run = 0; run < 3; run++)
        run_and_check(svc, &ts, me, run + 1, "zero-copy all-to-all");
    VSYM_CHECK_OK(vsym_copy_clear(svc));
    release(&ts);
}

/* Column blocks in rows: rank s sends rank d the d-th block of its send matrix (R/2 rows of 2W
 * bytes) and rank d receives it as the s-th block of its receive matrix (R rows of W bytes, the
 * rows n*W + 7 bytes apart, so 7 bytes after each row belong to no block). The two sides cut the
 * same bytes into rows of different lengths; the receive matrix is malloc'd memory or symmetric
 * heap memory (heap = 1); chunk, when set, cuts tasks inside rows. Every byte of every block is
 * checked, and the bytes of no block must keep the sentinel. W is the receive row length. */
static void phase_rows(vsym_copy_t *svc, vsym_team_t *team, int heap, int staged, const char *chunk,
                       size_t W, const char *phase)
{
    enum { R = 64 };
    const int me = vsym_team_rank(team), n = vsym_team_size(team);
    const size_t sstride = (size_t)n * 2 * W, rstride = (size_t)n * W + 7;
    const size_t slen = (R / 2) * sstride, rlen = R * rstride, block = (size_t)R * W;
    unsigned char *sm = malloc(slen), *rm = NULL;
    vsym_obj_t *robj = NULL;
    if (heap) {
        VSYM_CHECK_OK(vsym_alloc(team, rlen, &robj));
        rm = vsym_obj_ptr(robj);
    } else {
        rm = malloc(rlen);
    }
    VSYM_CHECK(sm != NULL && rm != NULL, "no memory");
    for (int d = 0; d < n; d++)
        VSYM_CHECK_OK(
            vsym_copy_register_send_rows(svc, 9000000u + (uint64_t)me * 1000u + (uint64_t)d, sm,
                                         (size_t)d * 2 * W, block, 2 * W, sstride, d));
    for (int s = n; s-- > 0;)
        VSYM_CHECK_OK(vsym_copy_register_receive_rows(svc,
                                                      9000000u + (uint64_t)s * 1000u + (uint64_t)me,
                                                      rm, (size_t)s * W, block, W, rstride, s));
    set_setting("VSYM_COPY_ZERO_COPY", staged ? "0" : "1");
    set_setting("VSYM_COPY_CHUNK", chunk);
    VSYM_CHECK_OK(vsym_copy_schedule(svc));
    set_setting("VSYM_COPY_CHUNK", NULL);
    set_setting("VSYM_COPY_ZERO_COPY", NULL);
    vsym_copy_stats_t st;
    VSYM_CHECK_OK(vsym_copy_stats(svc, &st));
    VSYM_CHECK(st.tasks == (uint64_t)n * (uint64_t)n &&
                   st.total_bytes == (uint64_t)n * (n - 1) * block,
               "%s: %llu tasks, %llu bytes", phase, (unsigned long long)st.tasks,
               (unsigned long long)st.total_bytes);
    /* Rows are stored in place only where the sender can store into the receive matrix: the
     * matrix is symmetric and the pair shares a node over shared memory. */
    if (heap && !staged) {
        const char *tp = getenv("VSYM_TRANSPORT");
        const int forced_verbs = tp != NULL && strcmp(tp, "verbs") == 0;
        uint64_t pairs = 0;
        for (int s = 0; s < n; s++)
            for (int d = 0; d < n; d++)
                pairs += s != d && !forced_verbs &&
                         vsym_team_node_of(team, s) == vsym_team_node_of(team, d);
        VSYM_CHECK(st.zero_copy_bytes == pairs * block,
                   "%s: %llu bytes zero copy, expected %llu (%llu same-node pairs)", phase,
                   (unsigned long long)st.zero_copy_bytes, (unsigned long long)(pairs * block),
                   (unsigned long long)pairs);
    }
    if (!heap || staged)
        VSYM_CHECK(st.staged_bytes == st.total_bytes, "%s: %llu of %llu bytes staged", phase,
                   (unsigned long long)st.staged_bytes, (unsigned long long)st.total_bytes);
    for (int run = 1; run <= 2; run++) {
        /* Byte k of the block for d sits in row k / (2W), column k % (2W) of block d. */
        for (int d = 0; d < n; d++)
            for (size_t k = 0; k < block; k++)
                sm[(k / (2 * W)) * sstride + (size_t)d * 2 * W + k % (2 * W)] =
                    pattern((uint64_t)me * 1000u + (uint64_t)d, k, run);
        memset(rm, SENTINEL, rlen);
        VSYM_CHECK_OK(vsym_copy_run(svc));
        for (size_t off = 0; off < rlen; off++) {
            const size_t row = off / rstride, col = off % rstride;
            if (col >= (size_t)n * W) {
                VSYM_CHECK(rm[off] == SENTINEL, "%s run %d: byte %zu between blocks was written",
                           phase, run, off);
                continue;
            }
            const int s = (int)(col / W);
            const size_t k = row * W + col % W;
            const unsigned char want = pattern((uint64_t)s * 1000u + (uint64_t)me, k, run);
            VSYM_CHECK(rm[off] == want,
                       "%s run %d: block from rank %d byte %zu is 0x%02x, expected 0x%02x", phase,
                       run, s, k, rm[off], want);
        }
    }
    VSYM_CHECK_OK(vsym_copy_clear(svc));
    free(sm);
    if (heap)
        VSYM_CHECK_OK(vsym_obj_free(robj));
    else
        free(rm);
}

/* Local tasks inside one buffer: bytes [0, len) to [shift, shift + len), the two ranges
 * overlapping (memmove semantics), and rows of one matrix to a disjoint contiguous range. */
static void phase_local_overlap(vsym_copy_t *svc, vsym_team_t *team)
{
    enum { LEN = 5000, SHIFT = 1500, ROW = 300, STRIDE = 700 };
    const int me = vsym_team_rank(team);
    const uint64_t id = 7000000u + 2u * (uint64_t)me; /* task ids are unique in the team */
    unsigned char *buf = malloc(3 * LEN + SHIFT), *want = malloc(3 * LEN + SHIFT);
    VSYM_CHECK(buf != NULL && want != NULL, "no memory");
    VSYM_CHECK_OK(vsym_copy_register_send(svc, id, buf, 0, LEN, me));
    VSYM_CHECK_OK(vsym_copy_register_receive(svc, id, buf, SHIFT, LEN, me));
    /* 3 rows of 300 bytes at 0, 700, 1400 of the second region -> contiguous after it. */
    const size_t rows_at = LEN + SHIFT, flat_at = rows_at + 3 * STRIDE;
    VSYM_CHECK_OK(vsym_copy_register_send_rows(svc, id + 1, buf, rows_at, 3 * ROW, ROW, STRIDE, me));
    VSYM_CHECK_OK(vsym_copy_register_receive(svc, id + 1, buf, flat_at, 3 * ROW, me));
    VSYM_CHECK_OK(vsym_copy_schedule(svc));
    for (int run = 1; run <= 2; run++) {
        for (size_t k = 0; k < 3 * LEN + SHIFT; k++)
            buf[k] = pattern(id, k, run);
        memcpy(want, buf, 3 * LEN + SHIFT);
        memmove(want + SHIFT, want, LEN);
        for (size_t r = 0; r < 3; r++)
            memcpy(want + flat_at + r * ROW, want + rows_at + r * STRIDE, ROW);
        VSYM_CHECK_OK(vsym_copy_run(svc));
        for (size_t k = 0; k < 3 * LEN + SHIFT; k++)
            VSYM_CHECK(buf[k] == want[k], "local overlap run %d: byte %zu is 0x%02x, expected 0x%02x",
                       run, k, buf[k], want[k]);
    }
    VSYM_CHECK_OK(vsym_copy_clear(svc));
    free(buf);
    free(want);
}

/* Whether a run's copies stream (vsym_copy_stats_t.streaming): by this rank's bytes per run against
 * a single copy's threshold (VSYM_NT_THRESHOLD; auto at most 48 MiB), not the collectives' (half
 * the last-level cache). A 64 MiB local task on every rank, scheduled, never run (its buffers stay
 * untouched): with the setting at 0, 64M and 65M; then under auto with a fake sysfs of a 480 MiB
 * L3 shared by 4 CPUs, where the collectives' threshold is 96 MiB and a single copy's 48. */
static void phase_streaming(vsym_copy_t *svc, vsym_team_t *team)
{
    const size_t len = (size_t)64 << 20;
    const uint64_t id = 8000000u + (uint64_t)vsym_team_rank(team);
    char *from = malloc(len), *to = malloc(len);
    VSYM_CHECK(from != NULL && to != NULL, "no memory");
    static const struct {
        const char *setting;
        int streams; /* on x86-64 (elsewhere never) */
    } cases[] = {{"0", 0}, {"64M", 1}, {"65M", 0}, {NULL, 1}};
    char root[] = "/tmp/vsym-sysfs-XXXXXX";
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        set_setting("VSYM_NT_THRESHOLD", cases[c].setting);
        if (cases[c].setting == NULL) {
            VSYM_CHECK(mkdtemp(root) != NULL, "mkdtemp");
            vsym_test_tmp_keep(root);
            const long ncpu = sysconf(_SC_NPROCESSORS_CONF);
            for (long cpu = 0; cpu < ncpu; cpu++) {
                static const char *const parts[][2] = {{"", NULL},
                                                       {"/cache", NULL},
                                                       {"/cache/index0", NULL},
                                                       {"/cache/index0/level", "3\n"},
                                                       {"/cache/index0/size", "491520K\n"},
                                                       {"/cache/index0/shared_cpu_list", "0-3\n"}};
                for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
                    char path[256];
                    snprintf(path, sizeof(path), "%s/cpu%ld%s", root, cpu, parts[k][0]);
                    if (parts[k][1] == NULL)
                        VSYM_CHECK(mkdir(path, 0700) == 0, "mkdir %s", path);
                    else
                        vsym_test_write_file(path, parts[k][1]);
                }
            }
            vsym_util_sysfs_cpu_force(root);
            VSYM_CHECK(vsym_util_nt_threshold() == (size_t)96 << 20,
                       "a 480 MiB L3 shared by 4 CPUs: the collectives' threshold %zu, expected 96 "
                       "MiB",
                       vsym_util_nt_threshold());
        }
        VSYM_CHECK_OK(vsym_copy_register_send(svc, id, from, 0, len, vsym_team_rank(team)));
        VSYM_CHECK_OK(vsym_copy_register_receive(svc, id, to, 0, len, vsym_team_rank(team)));
        VSYM_CHECK_OK(vsym_copy_schedule(svc));
        vsym_copy_stats_t st;
        VSYM_CHECK_OK(vsym_copy_stats(svc, &st));
#if defined(__x86_64__)
        const uint64_t want = (uint64_t)cases[c].streams;
#else
        const uint64_t want = 0;
#endif
        VSYM_CHECK(st.streaming == want,
                   "a run of 64 MiB under VSYM_NT_THRESHOLD %s: streaming %llu, expected %llu",
                   cases[c].setting ? cases[c].setting : "auto (a 480 MiB L3 shared by 4 CPUs)",
                   (unsigned long long)st.streaming, (unsigned long long)want);
        VSYM_CHECK_OK(vsym_copy_clear(svc));
    }
    vsym_test_tmp_remove(root);
    vsym_util_sysfs_cpu_force(NULL);
    free(from);
    free(to);
}

int main(void)
{
    vsym_ctx_t *ctx;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int n = vsym_team_size(world);
    vsym_copy_t *svc;
    VSYM_CHECK_OK(vsym_copy_create(world, &svc));

    /* Statistics and runs need a schedule. */
    vsym_copy_stats_t st;
    VSYM_CHECK_STATUS(vsym_copy_stats(svc, &st), VSYM_ERR_BAD_STATE, "no schedule");
    VSYM_CHECK_STATUS(vsym_copy_run(svc), VSYM_ERR_BAD_STATE, "no schedule");

    const size_t max_size = COPY_TEST_SLOW ? (64u << 20) : (3u << 20);
    const size_t ntasks = COPY_TEST_SLOW ? (size_t)n * 6 : (size_t)n * 16;
    phase_random(svc, world, 1, ntasks, max_size, 3, 0, "random");
    phase_random(svc, world, 4, ntasks, max_size, 2, 1, "random, staged");

    /* Small staging slots: tasks are cut into many pieces and batches, slots alternate. */
    set_setting("VSYM_COPY_STAGING", "64K");
    const size_t mid_size = COPY_TEST_SLOW ? max_size : (1u << 20);
    phase_random(svc, world, 2, ntasks, mid_size, 2, 0, "random, 64K staging");
    phase_random(svc, world, 5, ntasks, mid_size, 2, 1, "random, 64K staging, staged");
    set_setting("VSYM_COPY_CHUNK", "5000");
    phase_random(svc, world, 3, (size_t)n * 8, 100000, 2, 1, "random, 5000-byte chunks, staged");
    set_setting("VSYM_COPY_CHUNK", NULL);
    set_setting("VSYM_COPY_STAGING", NULL);

    phase_rows(svc, world, 1, 0, NULL, 37, "rows, heap");
    phase_rows(svc, world, 0, 0, NULL, 37, "rows, malloc");
    phase_rows(svc, world, 1, 1, NULL, 37, "rows, heap, staged");
    phase_rows(svc, world, 1, 0, "1000", 37, "rows, heap, 1000-byte chunks");
    phase_rows(svc, world, 0, 0, "1000", 37, "rows, malloc, 1000-byte chunks");
    /* Rows long enough for the non-temporal loop (one fence per piece, not per row), stored in
     * place, unpacked from staging, and copied locally. */
    set_setting("VSYM_NT_THRESHOLD", "1K");
    phase_rows(svc, world, 1, 0, NULL, 200, "rows, heap, non-temporal");
    phase_rows(svc, world, 1, 1, NULL, 200, "rows, heap, staged, non-temporal");
    phase_rows(svc, world, 0, 0, NULL, 200, "rows, malloc, non-temporal");
    phase_local_overlap(svc, world); /* streaming stores must not run into the overlap */
    phase_random(svc, world, 6, (size_t)n * 8, 300000, 2, 0, "random, non-temporal");
    phase_random(svc, world, 7, (size_t)n * 8, 300000, 2, 1, "random, staged, non-temporal");
    set_setting("VSYM_NT_THRESHOLD", NULL);

    phase_local_overlap(svc, world);
    phase_streaming(svc, world);
    if (n > 1) phase_zero_copy(svc, world, COPY_TEST_SLOW ? (16u << 20) : (256u << 10) + 3);

    /* Registering after schedule is refused until clear. */
    static unsigned char byte_buf[16];
    VSYM_CHECK_OK(vsym_copy_schedule(svc)); /* the empty set */
    VSYM_CHECK_STATUS(vsym_copy_register_send(svc, 1, byte_buf, 0, 1, 0), VSYM_ERR_BAD_STATE,
                      "clear");
    VSYM_CHECK_STATUS(vsym_copy_schedule(svc), VSYM_ERR_BAD_STATE, "already scheduled");
    VSYM_CHECK_OK(vsym_copy_run(svc));
    VSYM_CHECK_OK(vsym_copy_stats(svc, &st));
    VSYM_CHECK(st.tasks == 0 && st.iterations == 0, "empty set: %llu tasks",
               (unsigned long long)st.tasks);
    VSYM_CHECK_OK(vsym_copy_destroy(svc));
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
