/* Collective handles and the collectives on one team.
 *
 * Data moves through the handle's scratch object (symmetric, allocated once at create): a rank
 * copies what it contributes into its own scratch and peers read it from there, by load/store
 * where vsym_obj_peer_ptr() gives a pointer (same node) and by vsym_get() otherwise (verbs).
 * Three synchronisation models share the object, each on its own regions:
 *   - barrier model (one-shot on one node, two-shot, hierarchical): write, one signal barrier,
 *     read;
 *   - push exchange (one-shot with peers over verbs): every rank puts each peer's data into the
 *     peer's landing slot with a counter add, and waits for its own counters (no barrier);
 *   - pairwise model (ring, recursive doubling, trees): the owner signals "ready" to the ranks
 *     that read its region, each reader signals "done" back; the owner waits for "done" only
 *     when it is about to overwrite that region, two phases (or calls) later.
 * See coll_internal.h for why two regions need only one synchronisation per phase.
 * What a rank publishes is copied with vsym_util_copy_publish, and what it reduces into its
 * region with vsym_coll_reduce_publish: non-temporal stores (from VSYM_NT_THRESHOLD, and where
 * VSYM_PUBLISH_STREAM finds ordinary stores waiting on lines the readers' far cores hold) leave
 * the lines clean in memory rather than modified in this core's cache, which the readers would
 * otherwise have to snoop; the broadcast (and, where ranks share cores, the all-gather) stream
 * from smaller sizes where that was measured faster (VSYM_COLL_STREAM_MIN, stream_publish). Beyond
 * the same threshold, a rank's stores into its own out-of-place dst stream too (dst_streams). */
#define _GNU_SOURCE /* sched_getcpu */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "coll/coll_internal.h"

static const char *const algo_names[VSYM_COLL_ALGO_COUNT] = {"auto", "oneshot", "twoshot",
                                                             "ring", "rd",      "hier"};

VSYM_API const char *vsym_coll_algo_name(vsym_coll_algo_t algo)
{
    return ((unsigned)algo < VSYM_COLL_ALGO_COUNT) ? algo_names[algo] : "?";
}

VSYM_API vsym_status_t vsym_coll_algo_from_name(const char *name, vsym_coll_algo_t *algo_p)
{
    for (int i = 0; name && i < VSYM_COLL_ALGO_COUNT; i++) {
        if (strcmp(name, algo_names[i]) == 0) {
            *algo_p = (vsym_coll_algo_t)i;
            return VSYM_OK;
        }
    }
    return VSYM_FAIL(VSYM_ERR_BAD_MODE,
                     "unknown collective algorithm '%s' (auto, oneshot, twoshot, ring, rd, hier)",
                     name ? name : "(null)");
}

/* ---- Handle ------------------------------------------------------------------------------- */

/* The push exchange's largest block per peer (larger blocks go in chunks of it), and the
 * landing bytes per set of slots that bound it in large teams. */
#define COLL_XCH_MAX 65536
#define COLL_XCH_AREA ((size_t)1 << 20)

/* A scratch holds four regions of c->chunk bytes, the barrier counter's line, the LL slots
 * (COLL_LL_BYTES) and the LL done counter's line. base: a rank's memory of it. */
#define COLL_LL_BYTES (COLL_LL_SLOTS * 2 * (size_t)VSYM_COLL_LL_MAX)
/* The offset in a rank's scratch of its barrier phase counter (c->flag in its own). */
static size_t bar_counter_off(const vsym_coll_t *c)
{
    return 4 * c->chunk;
}

static size_t ll_slots_off(const vsym_coll_t *c)
{
    return bar_counter_off(c) + 64;
}

static char *ll_slots(const vsym_coll_t *c, char *base)
{
    return base + ll_slots_off(c);
}

/* The offset in a rank's scratch of its count of LL calls read to the end. */
static size_t ll_done_off(const vsym_coll_t *c)
{
    return ll_slots_off(c) + COLL_LL_BYTES;
}

static uint64_t *ll_done(const vsym_coll_t *c, char *base)
{
    return (uint64_t *)(void *)(base + ll_done_off(c));
}

/* The line after: in rank 0's scratch, the team's record of the last far publish probe and of
 * the last line round trip between team ranks 0 and 1 (vsym_util_publish_share). */
static uint64_t *far_word(const vsym_coll_t *c, char *base)
{
    return ll_done(c, base) + 8;
}

/* The line after that: a rank's word of the round trip's ping-pong (rtt_probe). */
static uint64_t *ping_word(const vsym_coll_t *c, char *base)
{
    return far_word(c, base) + 8;
}

void vsym_coll_publish_share(const vsym_coll_t *c)
{
    vsym_util_publish_share(c->all_direct ? far_word(c, c->peer[0]) : NULL);
}

/* The LL protocol's default limit. Every rank reads every peer's lines (56 data bytes in 64, each
 * line's flag checked as it comes: a reader follows the writer line by line), so its cost grows
 * with n x bytes, while a barrier's grows with n alone. Measured (16-core host, f32 all-reduce,
 * VSYM_COLL_LL_MAX 0/256/1024/16384): at 4 ranks it is 1.5x slower than the barrier path from
 * 512 B (1 KiB: 2.6 us against 1.5 us; Open MPI 3.7 us). At 2 ranks it was as fast up to 1 KiB on
 * an earlier host, but not on those of stop 28 (results/coll/dev-2core-zen3-2026-11-26-stop28,
 * device-16core-2026-11-26-stop28): on the 2-core host the 1 KiB all-reduce took 2.9x its 128 B
 * time through it against 1.5x through the scratch (eight launches, medians; Open MPI / vsym
 * 0.91-0.95 at 1 KiB in the three-launch run), and on the 16-core guest 1.02 us against 0.87 (512
 * B: 0.61 against 0.63; 64-256 B 0.38-0.47 against 0.50-0.57 through the scratch; six rounds,
 * medians). The lines of stop 38 (half the lines of the 16-byte units before) did not change
 * that: 2 ranks, 2-core AMD host, 1 KiB 0.61-0.65 us through them against 0.22-0.25 through the
 * scratch near, 1.9-2.1 against 0.6-0.7 far (results/coll/dev-2core-zen4-2026-11-27-stop38). So
 * 256 B at any team size. */
#define COLL_LL_DEFAULT_MAX 256
#define COLL_BLK_LL_MAX_2 56 /* vsym_coll_blk_ll_usable between 2 ranks: one line */

/* The broadcast's: a reader reads the root's units alone (n - 1 readers of one region, not every
 * rank every peer's), so beyond 2 ranks it pays up to 1 KiB, and up to 2 KiB with more ranks than
 * cores, where the barrier it saves costs most. Medians of three rounds against 256 B, the limit
 * before (results/coll/device-16core-2026-11-26-stop28): with a core per rank (16-core host, 4, 8
 * and 16 ranks) 512 B-1 KiB 1.29-1.96x faster, 2 KiB 0.52-1.19, 4 KiB 0.12-0.85; with more
 * ranks than cores (2-core host, 3 and 4 ranks) 512 B-2 KiB 1.74-4.35x faster, 4 KiB 0.97-1.25.
 * Between 2 ranks the scratch's one barrier is cheaper from 512 B (0.10-0.18 us against 0.25-0.88
 * at 512 B), about even at 64-256 B, and costs more below: up to 64 B there (2-core AMD host,
 * medians of three launches taking turns against the scratch: 8-32 B 0.06-0.12 us against
 * 0.11-0.15, 0.57-0.87 of the time, in place and from symmetric buffers too; 64 B 0.79-1.11,
 * 128 B 1.01-1.08, 256 B 1.07-1.12; results/coll/dev-2core-zen4-2026-11-27-stop34). */
static size_t bc_ll_default_max(int n)
{
    return n <= 2 ? 64 : vsym_util_core_per_rank() ? 1024 : 2048;
}

/* The limit VSYM_COLL_STREAM_MIN gives (setting: SIZE_MAX for auto, 0 never): auto is amd_min on
 * AMD CPUs, never elsewhere. Broadcast and all-gather of ordinary buffers, time cached / time
 * streamed, medians of the launches of stop 30:
 *  - 2-core AMD EPYC guest (family 25 model 17; results/coll/dev-2core-zen4-2026-11-27-stop30):
 *    the broadcast 1.5-1.8 at 32-128 KiB and 1.4-1.8 at 2-8 MiB at 2 ranks (0.8 at 512 KiB),
 *    2.5-4.9 from 32 KiB at 4 ranks on 2 cores, and no more launches in which the cached copy
 *    ran 5-10x slower; the all-gather 0.8-1.5 from 32 KiB at 2 ranks (above 1 in 10 of 12
 *    rows), 0.8-1.1 at 4, and 0.76-0.81 at 64-256 KiB at 4 in a trial, hence its larger
 *    limit; below 16 KiB the cached copy was faster (0.4-0.65 at 2 ranks). The all-reduce and
 *    the all-to-all (readers take a part of each publish) were 0.3-1.2 in the trial, mostly
 *    below 1: they keep the cached copy.
 *  - 16-core Intel Xeon guest (results/coll/device-16core-2026-11-27-stop30): from 128 KiB the
 *    broadcast 0.34-0.80 at 2 and 8 ranks and 0.53-1.27 at 16, the all-gather 0.47-0.91 at 2 and
 *    8, 0.78-1.05 at 16: streaming slower.
 * Why AMD differs is not settled: its L3 is shared per core complex, so a reader on another one
 * (a guest's vCPUs may lie on two) gets a modified line across the fabric, which may cost more
 * than reading memory. The setting decides on machines where the rule guesses wrong.
 * Stop 35 told the 2-core guest's two states apart (`core_rtt_ns`: its CPUs near or far), ten
 * rounds of launches taking turns with VSYM_PUBLISH_STREAM auto, this rule against none: the
 * broadcast streamed stays faster near too (0.36-0.47 of the time at 32-128 KiB, 0.74-0.91 from
 * 512 KiB; far 0.25-0.80); the all-gather's streaming from 512 KiB per rank took 2.0-2.1x the
 * time near at 2-8 MiB in place (61 -> 129 us at 2 MiB), 0.73-0.80 far: so with a core per
 * rank the all-gather leaves it to VSYM_PUBLISH_STREAM (results/coll/dev-2core-zen4-2026-11-27-
 * stop35). Stop 36, 4 ranks on the 2 cores, four rounds: the all-gather streamed from 4 KiB per
 * rank took 0.46-0.86 of the time with the 512 KiB limit at 16 KiB-1 MiB (4-256 KiB a rank;
 * 256 KiB 70-75 -> 30-33 us), 0.96-1.13 beyond, where both stream: so from 4 KiB there. */
static size_t stream_min(size_t setting, size_t amd_min)
{
    if (setting == 0) return SIZE_MAX; /* never */
    if (setting != SIZE_MAX) return setting;
    return vsym_util_cpu_amd() ? amd_min : SIZE_MAX;
}

VSYM_API vsym_status_t vsym_coll_create(vsym_team_t *team, vsym_coll_t **coll_p)
{
    if (team == NULL || coll_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "coll_create: NULL %s", team ? "coll_p" : "team");
    vsym_ctx_t *ctx = vsym_team_ctx(team);
    if (vsym_signal_channels(ctx) < COLL_CHANNELS)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                         "coll_create: collectives need %d signal channels, VSYM_SIGNAL_CHANNELS "
                         "is %d",
                         COLL_CHANNELS, vsym_signal_channels(ctx));
    vsym_coll_t *c = calloc(1, sizeof(*c));
    if (c == NULL) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "coll_create: no memory");
    c->team = team;
    c->ctx = ctx;
    c->me = vsym_team_rank(team);
    c->n = vsym_team_size(team);
    c->chunk = vsym_config_size(VSYM_CFG_COLL_SCRATCH);
    if (c->chunk < 4096) c->chunk = 4096;
    c->chunk &= ~(size_t)63; /* keeps every region 64-byte aligned */
    c->timeout = 0;          /* VSYM_TIMEOUT */
    vsym_status_t st;
    const char *env = vsym_config_str(VSYM_CFG_COLL_ALGO);
    c->env_algo = VSYM_COLL_AUTO;
    if (env[0] != '\0' && vsym_coll_algo_from_name(env, &c->env_algo) != VSYM_OK) {
        free(c);
        return VSYM_ERR_BAD_MODE; /* reported by the parser, naming the value */
    }
    c->peer = calloc((size_t)c->n, sizeof(*c->peer));
    c->pend[0] = calloc((size_t)c->n, sizeof(int));
    c->pend[1] = calloc((size_t)c->n, sizeof(int));
    if (!c->peer || !c->pend[0] || !c->pend[1]) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "coll_create: no memory");
        goto err_mem;
    }
    /* Push exchange: its block size per peer now, its slots at first use (xch_setup). */
    c->xch_max = c->n > 1 ? (COLL_XCH_AREA / (size_t)c->n) & ~(size_t)63 : 0;
    if (c->xch_max > COLL_XCH_MAX) c->xch_max = COLL_XCH_MAX;
    c->xll_max = vsym_config_size(VSYM_CFG_COLL_NET_LL_MAX);
    if (c->xll_max > c->xch_max) c->xll_max = c->xch_max;
    c->xll_max &= ~(size_t)7;
    c->push_max = vsym_config_size(VSYM_CFG_COLL_NET_BCAST_MAX);
    if (c->push_max > COLL_XCH_MAX) c->push_max = COLL_XCH_MAX;
    st = vsym_alloc(team, ll_done_off(c) + 192, &c->scratch);
    if (st != VSYM_OK) goto err_mem;
    c->base = vsym_obj_ptr(c->scratch);
    c->flag = (uint64_t *)(void *)(c->base + bar_counter_off(c));
    /* The heap may hold an earlier object's bytes here: zero the counters and the LL regions
     * (a stale line whose last word equals a sequence number of this handle would read as
     * its data), and let no peer look before every rank has (the barrier below). */
    __atomic_store_n(c->flag, 0, __ATOMIC_RELEASE);
    memset(ll_slots(c, c->base), 0, COLL_LL_BYTES + 192);
    {
        static long cores;
        if (cores == 0) cores = sysconf(_SC_NPROCESSORS_ONLN);
        int local = vsym_team_size(vsym_team_node(ctx));
        c->fast_spin = local <= cores ? 4096 : 0;
    }
    {
        long ll = vsym_config_int(VSYM_CFG_COLL_LL_MAX);
        c->ll_max = ll >= 0 ? (size_t)ll : COLL_LL_DEFAULT_MAX;
        if (c->ll_max > VSYM_COLL_LL_MAX) c->ll_max = VSYM_COLL_LL_MAX;
        c->bc_ll_max = ll >= 0 ? c->ll_max : bc_ll_default_max(c->n);
        c->blk_ll_max = ll >= 0 || c->n > 2 ? c->ll_max : COLL_BLK_LL_MAX_2;
    }
    c->zc_min = vsym_config_size(VSYM_CFG_COLL_ZEROCOPY_MIN);
    c->all_direct = 1;
    for (int r = 0; r < c->n; r++) {
        c->peer[r] = r == c->me ? c->base : vsym_obj_peer_ptr(c->scratch, r);
        if (c->peer[r] == NULL) c->all_direct = 0;
    }
    /* 0 (never) unless every rank is reached by process-to-process copies (none over verbs). */
    const size_t pcopy_set = vsym_config_size(VSYM_CFG_COLL_PCOPY_MIN); /* SIZE_MAX: auto */
    c->pcopy_min = pcopy_set != SIZE_MAX ? pcopy_set : c->n == 2 ? 0 : COLL_PCOPY_MIN;
    c->ag_pcopy_min = pcopy_set == SIZE_MAX ? 0 : pcopy_set;
    for (int r = 0; r < c->n; r++)
        if (!vsym_team_process_copy(team, r)) c->pcopy_min = c->ag_pcopy_min = 0;
    c->bc_stream_min = stream_min(vsym_config_size(VSYM_CFG_COLL_STREAM_MIN), COLL_BC_STREAM_MIN);
    /* The all-gather's where ranks share cores; with a core per rank its publishes follow
     * VSYM_PUBLISH_STREAM, which streams them while the cores are far (stream_min). */
    c->ag_stream_min = stream_min(vsym_config_size(VSYM_CFG_COLL_STREAM_MIN),
                                  vsym_util_core_per_rank() ? SIZE_MAX : COLL_AG_STREAM_MIN);
    c->ll_tmp = malloc((size_t)c->n * VSYM_COLL_LL_MAX);
    if (c->ll_tmp == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "coll_create: no memory");
        vsym_obj_free(c->scratch);
        goto err_mem;
    }
    if (!c->all_direct) {
        c->tmp = malloc((size_t)c->n * c->chunk);
        if (c->tmp == NULL) {
            st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "coll_create: no memory for %d x %zu bytes", c->n,
                           c->chunk);
            free(c->ll_tmp);
            vsym_obj_free(c->scratch);
            goto err_mem;
        }
    }
    if (c->n > 1 &&
        (st = vsym_signal_barrier(c->scratch, COLL_CH_BARRIER, c->timeout)) != VSYM_OK) {
        free(c->tmp);
        free(c->ll_tmp);
        vsym_obj_free(c->scratch);
        goto err_mem;
    }
    *coll_p = c;
    return VSYM_OK;
err_mem:
    free(c->pend[1]);
    free(c->pend[0]);
    free(c->peer);
    free(c);
    return st;
}

static vsym_status_t pw_drain(vsym_coll_t *c, int parity);

VSYM_API vsym_status_t vsym_coll_destroy(vsym_coll_t *c)
{
    if (c == NULL) return VSYM_OK;
    /* Consume the "done" signals still owed to us, so the pad is all zeros when freed. */
    vsym_status_t st = pw_drain(c, 0);
    vsym_status_t st2 = pw_drain(c, 1);
    if (st == VSYM_OK) st = st2;
    while (c->bufs != NULL) {
        st2 = vsym_coll_buffer_free(c, c->bufs->base);
        if (st == VSYM_OK) st = st2;
    }
    vsym_util_publish_share(NULL); /* it may point into this handle's scratch */
    if (c->node_coll) vsym_coll_destroy(c->node_coll);
    if (c->inter_coll) vsym_coll_destroy(c->inter_coll);
    if (c->node_team) vsym_team_destroy(c->node_team);
    if (c->inter_team) vsym_team_destroy(c->inter_team);
    if (c->xch != NULL && (st2 = vsym_obj_free(c->xch)) != VSYM_OK && st == VSYM_OK) st = st2;
    st2 = vsym_obj_free(c->scratch);
    if (st == VSYM_OK) st = st2;
    free(c->tmp);
    free(c->ll_tmp);
    free(c->push_tmp);
    free(c->xll_buf);
    free(c->push_known);
    free(c->pend[1]);
    free(c->pend[0]);
    free(c->peer);
    free(c);
    return st;
}

VSYM_API vsym_team_t *vsym_coll_team(const vsym_coll_t *c)
{
    return c ? c->team : NULL;
}

VSYM_API vsym_status_t vsym_coll_buffer_alloc(vsym_coll_t *c, size_t size, void **ptr_p)
{
    if (c == NULL || ptr_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "coll_buffer_alloc: NULL argument");
    vsym_coll_buf_t *b = calloc(1, sizeof(*b));
    if (b == NULL || (b->peer = calloc((size_t)c->n, sizeof(char *))) == NULL) {
        free(b);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "coll_buffer_alloc: no memory");
    }
    vsym_status_t st = vsym_alloc(c->team, size, &b->obj);
    if (st != VSYM_OK) {
        free(b->peer);
        free(b);
        return st;
    }
    b->base = vsym_obj_ptr(b->obj);
    b->size = size;
    b->serial = ++c->buf_made;
    for (int r = 0; r < c->n; r++)
        b->peer[r] = r == c->me ? b->base : vsym_obj_peer_ptr(b->obj, r);
    b->next = c->bufs;
    c->bufs = b;
    *ptr_p = b->base;
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_coll_buffer_free(vsym_coll_t *c, void *ptr)
{
    if (c == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "coll_buffer_free: NULL handle");
    if (ptr == NULL) return VSYM_OK;
    for (vsym_coll_buf_t **pp = &c->bufs; *pp != NULL; pp = &(*pp)->next) {
        vsym_coll_buf_t *b = *pp;
        if (b->base == ptr) {
            *pp = b->next;
            vsym_status_t st = b->obj ? vsym_obj_free(b->obj) : VSYM_OK; /* a view: not owned */
            free(b->peer);
            free(b);
            return st;
        }
    }
    return VSYM_FAIL(VSYM_ERR_NOT_FOUND, "coll_buffer_free: %p is not a buffer of this handle",
                     ptr);
}

vsym_status_t vsym_coll_buf_share(vsym_coll_t *sub, const vsym_coll_buf_t *b, const int *ranks)
{
    vsym_coll_buf_t *v = calloc(1, sizeof(*v));
    if (v == NULL || (v->peer = calloc((size_t)sub->n, sizeof(char *))) == NULL) {
        free(v);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "fused_buffer_alloc: no memory for a view");
    }
    v->base = b->base;
    v->size = b->size;
    v->serial = ++sub->buf_made;
    for (int r = 0; r < sub->n; r++)
        v->peer[r] = b->peer[ranks[r]];
    v->next = sub->bufs;
    sub->bufs = v;
    return VSYM_OK;
}

vsym_coll_buf_t *vsym_coll_find_buf(const vsym_coll_t *c, const void *p, size_t len)
{
    for (vsym_coll_buf_t *b = c->bufs; b != NULL; b = b->next)
        if ((const char *)p >= b->base && len <= b->size &&
            (size_t)((const char *)p - b->base) <= b->size - len)
            return b;
    return NULL;
}

VSYM_API vsym_status_t vsym_coll_barrier(vsym_coll_t *c)
{
    if (c == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "coll_barrier: NULL handle");
    if (c->n == 1) return VSYM_OK;
    return vsym_signal_barrier(c->scratch, COLL_CH_BARRIER, c->timeout);
}

/* ---- Waits -------------------------------------------------------------------------------- */

/* Every wait of lib/coll for a peer: after a poll that found nothing, coll_wait_step spins (up to
 * spins polls with a spin hint: the common case on an idle core costs no clock reads and no
 * settings lookup), then steps the project's backoff with the handle's timeout; 0 once that has
 * passed, when the caller fails naming the peer and what it waited for.
 *     coll_wait_t w = coll_wait_start(c, c->fast_spin);
 *     while (!ready()) if (!coll_wait_step(&w)) return VSYM_FAIL(VSYM_ERR_TIMED_OUT, ...); */
typedef struct coll_wait {
    const vsym_coll_t *c;
    int spins;   /* polls left before the backoff */
    int started; /* b initialised */
    vsym_backoff_t b;
} coll_wait_t;

static coll_wait_t coll_wait_start(const vsym_coll_t *c, int spins)
{
    coll_wait_t w = {.c = c, .spins = spins};
    return w;
}

static int coll_wait_step(coll_wait_t *w)
{
    if (w->spins > 0) {
        w->spins--;
        vsym_util_spin_hint();
        return 1;
    }
    if (!w->started) {
        vsym_backoff_init(&w->b, w->c->timeout);
        w->started = 1;
    }
    return vsym_backoff_step(&w->b);
}

static double coll_wait_elapsed(const coll_wait_t *w)
{
    return w->started ? vsym_backoff_elapsed(&w->b) : 0.0;
}

/* ---- Barrier model ------------------------------------------------------------------------ */

char *vsym_coll_bar_buf(vsym_coll_t *c)
{
    return c->base + (c->bar_phase & 1) * c->chunk;
}

/* Wait until the counters ws[0..nr-1] (of team ranks rs[]) reach want. Every pending counter is
 * read in each pass (not one until it arrives, then the next): the reads of the peers' lines
 * overlap, and a late rank holds up only itself (the all-reduce of symmetric buffers at 4-64 KiB,
 * whose barrier waits twice a call: 16 ranks of the 16-core Intel guest 0.81-0.97 of the time,
 * 8 ranks 0.88-1.05; results/coll/device-16core-2026-11-28-stop45). Reorders ws and rs; the error
 * names the first rank still pending and what was waited for (a barrier phase, an exchange). */
static vsym_status_t counters_wait(vsym_coll_t *c, const uint64_t **ws, int *rs, int nr,
                                   uint64_t want, const char *what)
{
    coll_wait_t cw = coll_wait_start(c, c->fast_spin);
    for (;;) {
        int k = 0;
        for (int i = 0; i < nr; i++)
            if (__atomic_load_n(ws[i], __ATOMIC_ACQUIRE) < want) {
                ws[k] = ws[i];
                rs[k++] = rs[i];
            }
        if ((nr = k) == 0) return VSYM_OK;
        if (!coll_wait_step(&cw))
            return VSYM_FAIL(VSYM_ERR_TIMED_OUT,
                             "collective %s: timed out after %.2f s waiting for team rank %d "
                             "(world rank %d) to reach %llu (it is at %llu)%s",
                             what, coll_wait_elapsed(&cw), rs[0],
                             vsym_team_world_rank(c->team, rs[0]), (unsigned long long)want,
                             (unsigned long long)__atomic_load_n(ws[0], __ATOMIC_ACQUIRE),
                             nr > 1 ? ", and for other ranks" : "");
    }
}

static vsym_status_t counter_wait(vsym_coll_t *c, const uint64_t *w, uint64_t want, int r,
                                  const char *what)
{
    return counters_wait(c, &w, &r, 1, want, what);
}

/* Wait until the counter at byte offset off of every other rank's scratch (load/store reach to
 * every peer) reaches want. */
static vsym_status_t peers_wait(vsym_coll_t *c, size_t off, uint64_t want, const char *what)
{
    int rs[c->n];
    const uint64_t *ws[c->n];
    for (int i = 0; i < c->n - 1; i++) {
        rs[i] = (c->me + 1 + i) % c->n;
        ws[i] = (const uint64_t *)(const void *)(c->peer[rs[i]] + off);
    }
    return counters_wait(c, ws, rs, c->n - 1, want, what);
}

/* One synchronisation of the barrier model. With load/store access to every peer, a
 * monotonic phase counter per rank replaces the signal pad: publishing is one release store,
 * and waiting reads each peer's counter (it never needs resetting, so nothing is consumed).
 * Otherwise the signal barrier on the scratch object's pad. */
vsym_status_t vsym_coll_bar_sync(vsym_coll_t *c)
{
    if (c->n == 1) return VSYM_OK;
    if (!c->all_direct) return vsym_signal_barrier(c->scratch, COLL_CH_BARRIER, c->timeout);
    uint64_t want = c->bar_phase + 1;
    __atomic_store_n(c->flag, want, __ATOMIC_RELEASE);
    return peers_wait(c, bar_counter_off(c), want, "barrier (phase counter)");
}

vsym_status_t vsym_coll_bar_peer(vsym_coll_t *c, int r, size_t off, size_t len, const char **ptr_p)
{
    size_t region = (c->bar_phase & 1) * c->chunk;
    if (c->peer[r] != NULL) {
        *ptr_p = c->peer[r] + region + off;
        return VSYM_OK;
    }
    char *land = c->tmp + (size_t)r * c->chunk;
    vsym_status_t st = vsym_get(c->scratch, r, region + off, land, len);
    if (st != VSYM_OK) return st;
    *ptr_p = land;
    return VSYM_OK;
}

void vsym_coll_bar_next(vsym_coll_t *c)
{
    c->bar_phase++;
}

/* ---- Low-latency protocol ----------------------------------------------------------------- */

/* The LL protocol's lines: 56 data bytes in the first seven words of a 64-byte line, the call's
 * sequence number in the eighth, stored last with release order; a reader that loads a line's
 * number with acquire order and finds seq may read its data (a data store never follows its
 * number: a rank writes a region again only after every reader has finished with it). Before
 * stop 38 every 8 data bytes went with the number in one 16-byte AVX store: 256 B crossed as 8
 * lines instead of 5 (2 ranks on the 2-core host, 256 B: 0.59 us where the cores were far apart,
 * 0.44 in lines; results/coll/dev-2core-zen4-2026-11-27-stop38). Not under emulation: qemu's TCG
 * ran the 16-byte units with stale data (issue 5), and these lines are kept off there as well
 * until a run shows them sound; x86-64 only (no other CPU has run them). */
#define LL_LINE_DATA 56

static int ll_supported(void)
{
#if defined(__x86_64__)
    static int cached = -1;
    if (cached < 0) cached = !vsym_util_emulated_cpu();
    return cached;
#else
    return 0;
#endif
}

int vsym_coll_ll_usable(const vsym_coll_t *c, size_t bytes)
{
    return c->all_direct && c->n > 1 && bytes <= c->ll_max && ll_supported();
}

static char *ll_region(const vsym_coll_t *c, int r, uint64_t seq)
{
    return ll_slots(c, c->peer[r]) + (seq % COLL_LL_SLOTS) * 2 * (size_t)VSYM_COLL_LL_MAX;
}

/* The lines that hold len bytes (at least one: the wait on it proves the peer published). */
static size_t ll_lines(size_t len)
{
    return len == 0 ? 1 : (len + LL_LINE_DATA - 1) / LL_LINE_DATA;
}

static void ll_store(char *dst, const char *src, size_t len, uint64_t seq)
{
    const size_t lines = ll_lines(len), full = len / LL_LINE_DATA;
    for (size_t i = 0; i < lines; i++) {
        char *line = dst + 64 * i;
        if (i < full)
            memcpy(line, src + i * LL_LINE_DATA, LL_LINE_DATA); /* a fixed size: inlined */
        else if (len > i * LL_LINE_DATA)
            memcpy(line, src + i * LL_LINE_DATA, len - i * LL_LINE_DATA);
        __atomic_store_n((uint64_t *)(void *)(line + LL_LINE_DATA), seq, __ATOMIC_RELEASE);
    }
}

/* Unpack lines [from, to) of a publication of len bytes whose sequence number is seq; returns
 * the index of the first line not yet arrived (to when all have). */
static size_t ll_load(const char *src, char *dst, size_t len, uint64_t seq, size_t from, size_t to)
{
    const size_t full = len / LL_LINE_DATA;
    size_t i = from;
    for (; i < to; i++) {
        const char *line = src + 64 * i;
        if (__atomic_load_n((const uint64_t *)(const void *)(line + LL_LINE_DATA),
                            __ATOMIC_ACQUIRE) != seq)
            return i;
        if (i < full)
            memcpy(dst + i * LL_LINE_DATA, line, LL_LINE_DATA);
        else if (i * LL_LINE_DATA < len)
            memcpy(dst + i * LL_LINE_DATA, line, len - i * LL_LINE_DATA);
    }
    return i;
}

vsym_status_t vsym_coll_ll_begin(vsym_coll_t *c, int publishes, uint64_t *seq_p)
{
    uint64_t seq = c->ll_seq + 1;
    /* This rank's region for call seq last held call seq - COLL_LL_SLOTS (or earlier): every
     * rank must have finished that call. ll_min_done is what this rank knows of that without
     * looking; only when it does not suffice are the counters read (and waited for). */
    if (publishes && seq > COLL_LL_SLOTS && c->ll_min_done < seq - COLL_LL_SLOTS) {
        VSYM_TRY(peers_wait(c, ll_done_off(c), seq - COLL_LL_SLOTS,
                            "low-latency protocol (a reader of this rank's region)"));
        uint64_t low = UINT64_MAX;
        for (int r = 0; r < c->n; r++) {
            if (r == c->me) continue;
            uint64_t v = __atomic_load_n(ll_done(c, c->peer[r]), __ATOMIC_ACQUIRE);
            if (v < low) low = v;
        }
        c->ll_min_done = low;
    }
    c->ll_seq = seq;
    *seq_p = seq;
    return VSYM_OK;
}

/* Ask for a line for writing (PREFETCHW: ownership without a store; a no-op where the CPU lacks
 * it); plain x86-64 code generation makes __builtin_prefetch's write hint a read prefetch. */
static void line_prefetchw(const void *p)
{
#if defined(__x86_64__)
    __asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
#else
    __builtin_prefetch(p, 1, 3);
#endif
}

/* Lines of the next region a rank of a 2-rank team takes for writing at the end of an LL call. */
#define LL_PREFETCHW_LINES 8

void vsym_coll_ll_end(vsym_coll_t *c, uint64_t seq, int all_read)
{
    __atomic_store_n(ll_done(c, c->base), seq, __ATOMIC_RELEASE);
    /* Between 2 ranks, take the lines of this rank's region for the next call for writing now
     * (as many as this call published, up to LL_PREFETCHW_LINES): the peer's copies from its read
     * of them COLL_LL_SLOTS - 1 calls ago are invalidated here rather than by the next call's
     * stores, while the peer reads this call. The all-reduce of 16-256 B, f32, ranks bound to
     * cores, medians of 5 launches: 16-core Intel guest 0.83-0.99 of the time (16 B 0.83), 2-core
     * Zen 5 host (far) 0.87-0.93 at one line. With more ranks (4, 8, 16) the same mostly took
     * 1.05-1.23x the time at 128-512 B (the lines are then in up to 15 caches), and taking the
     * region of call seq + 2 instead was slower on the Zen 5 host (1.13-1.22x at one line)
     * (results/coll/device-16core-2026-11-28-stop47). */
    if (c->n == 2) {
        const char *next = ll_region(c, c->me, seq + 1);
        const size_t lines =
            c->ll_lines_last < LL_PREFETCHW_LINES ? c->ll_lines_last : LL_PREFETCHW_LINES;
        for (size_t i = 0; i < lines; i++)
            line_prefetchw(next + 64 * i);
    }
    /* Every peer published call seq after finishing call seq - 1. */
    if (all_read && c->ll_min_done < seq - 1) c->ll_min_done = seq - 1;
}

void vsym_coll_ll_publish(vsym_coll_t *c, uint64_t seq, const void *src, size_t len)
{
    ll_store(ll_region(c, c->me, seq), src, len, seq);
    c->ll_lines_last = ll_lines(len);
}

vsym_status_t vsym_coll_ll_fetch(vsym_coll_t *c, int peer, uint64_t seq, size_t total, size_t off,
                                 size_t len)
{
    /* At least one line, so that the wait also proves the peer has published call seq. */
    size_t lines = ll_lines(total), first = off / LL_LINE_DATA,
           end = (off + len + LL_LINE_DATA - 1) / LL_LINE_DATA;
    if (end <= first) end = first + 1;
    if (end > lines) end = lines;
    if (first >= end) first = end - 1;
    int left = peer < 0 ? c->n - 1 : 1, rs[c->n];
    size_t done[c->n];
    for (int i = 0; i < left; i++) {
        rs[i] = peer < 0 ? (c->me + 1 + i) % c->n : peer;
        done[i] = first;
    }
    /* Each pass asks for the first missing line of every pending peer before it unpacks any, so
     * that their misses overlap, then takes what has arrived; a late peer holds up only itself.
     * One peer after the other, each waited for until all its lines had come, the 16-rank
     * all-reduce of 16-64 B took 1.2-1.4 us on the 16-core Intel guest; this way 0.74-0.86 of
     * that (256 B-4 KiB 0.90-0.97; 8 ranks 0.90-0.96 to 64 B), the broadcast 0.79-1.01 at 16
     * ranks. Asking for every missing line (tried) lost at 5 lines and more (256 B 1.06-1.18x,
     * the broadcast's 1 KiB 1.24-1.39x): the readers then hold copies of lines the writer has yet
     * to store, which each store must take back. A copy of the publication per reader, so that no
     * line has more than one reader (tried), took 1.1-3.2x the time (stop 45), and 1.1-2.7x at
     * 16-256 B on 4-16 ranks (the broadcast up to 5.6x) with the writer also taking the next
     * call's copies for writing ahead (stop 47): the stores of the copies cost more than readers
     * sharing a line. results/coll/device-16core-2026-11-28-stop45, -stop47. */
    coll_wait_t w = coll_wait_start(c, c->fast_spin);
    for (;;) {
        for (int i = 0; i < left; i++)
            __builtin_prefetch(ll_region(c, rs[i], seq) + 64 * done[i]);
        int k = 0;
        for (int i = 0; i < left; i++) {
            const int r = rs[i];
            const size_t d = ll_load(ll_region(c, r, seq), c->ll_tmp + (size_t)r * VSYM_COLL_LL_MAX,
                                     total, seq, done[i], end);
            if (d < end) {
                rs[k] = r;
                done[k++] = d;
            }
        }
        if ((left = k) == 0) return VSYM_OK;
        if (!coll_wait_step(&w))
            return VSYM_FAIL(VSYM_ERR_TIMED_OUT,
                             "collective (low-latency exchange): timed out after %.2f s waiting "
                             "for team rank %d (world rank %d)%s, call %llu",
                             coll_wait_elapsed(&w), rs[0], vsym_team_world_rank(c->team, rs[0]),
                             left > 1 ? " and other ranks" : "", (unsigned long long)seq);
    }
}

/* ---- Push exchange ------------------------------------------------------------------------ */

/* Offsets in c->xch: two sets of n landing slots of xch_max bytes, then n counters, then two
 * sets of n slots of the exchange's flagged words (apart from the others: raw data must never be
 * read as words), then the pushed broadcast's slots and count (push_slot, push_done). */
static size_t xch_slot(const vsym_coll_t *c, uint64_t seq, int src)
{
    return ((size_t)(seq & 1) * (size_t)c->n + (size_t)src) * c->xch_max;
}

static size_t xch_counter(const vsym_coll_t *c, int src)
{
    return 2 * (size_t)c->n * c->xch_max + 8 * (size_t)src;
}

/* Flagged words of the exchange: 4 data bytes in the low half, the exchange's flag in the high
 * half. The flag is never 0 (fresh slots are zeroed) and differs between exchanges that share a
 * set of slots (seq and an earlier one of its parity, less than 2^32 - 1 exchanges before). */
static size_t xll_words(size_t len)
{
    return (len + 3) / 4;
}

/* The bytes of a slot for blocks of up to max bytes as flagged words (0 for max 0). */
static size_t words_slot_bytes(size_t max)
{
    return (8 * xll_words(max) + 63) & ~(size_t)63;
}

static size_t xll_slot_bytes(const vsym_coll_t *c)
{
    return words_slot_bytes(c->xll_max);
}

static size_t xll_slot(const vsym_coll_t *c, uint64_t seq, int src)
{
    return xch_counter(c, c->n) +
           ((size_t)(seq & 1) * (size_t)c->n + (size_t)src) * xll_slot_bytes(c);
}

/* After them, COLL_PUSH_SLOTS slots of flagged words that broadcast roots write (call seq in
 * slot seq % COLL_PUSH_SLOTS), then the count of such broadcasts this rank has finished. */
#define COLL_PUSH_SLOTS 32
static size_t push_slot(const vsym_coll_t *c, uint64_t seq)
{
    return xll_slot(c, 0, 2 * c->n) +
           (size_t)(seq % COLL_PUSH_SLOTS) * words_slot_bytes(c->push_max);
}

static size_t push_done(const vsym_coll_t *c)
{
    return xll_slot(c, 0, 2 * c->n) + COLL_PUSH_SLOTS * words_slot_bytes(c->push_max);
}

static uint32_t xll_flag(uint64_t seq)
{
    return (uint32_t)(seq % 0xffffffffu) + 1;
}

/* Pack len bytes of src into words at dst, each one 8-byte store (dst: a peer's slot through its
 * mapping, or the buffer a put sends). */
static void xll_pack(uint64_t *dst, const char *src, size_t len, uint32_t flag)
{
    const uint64_t hi = (uint64_t)flag << 32;
    size_t full = len / 4, i;
    for (i = 0; i < full; i++) {
        uint32_t d;
        memcpy(&d, src + 4 * i, 4);
        __atomic_store_n(dst + i, hi | d, __ATOMIC_RELAXED);
    }
    if (len % 4) {
        uint32_t d = 0;
        memcpy(&d, src + 4 * i, len % 4);
        __atomic_store_n(dst + i, hi | d, __ATOMIC_RELAXED);
    }
}

/* Unpack words [from, ...) of a block of len bytes into dst; returns the index of the first word
 * not yet arrived (all words: xll_words(len)). */
static size_t xll_unpack(const uint64_t *src, char *dst, size_t len, uint32_t flag, size_t from)
{
    const size_t words = xll_words(len);
    for (size_t i = from; i < words; i++) {
        uint64_t v = __atomic_load_n(src + i, __ATOMIC_RELAXED);
        if ((uint32_t)(v >> 32) != flag) return i;
        uint32_t d = (uint32_t)v;
        memcpy(dst + 4 * i, &d, i + 1 < words || len % 4 == 0 ? 4 : len % 4);
    }
    return words;
}

/* Wait for rank r's flagged block of call seq at offset slot of this rank's xch memory and
 * unpack it into dst. */
static vsym_status_t xll_receive(vsym_coll_t *c, size_t slot, int r, uint64_t seq, size_t len,
                                 char *dst)
{
    const uint64_t *src = (const uint64_t *)(const void *)(c->xch_base + slot);
    const uint32_t flag = xll_flag(seq);
    const size_t words = xll_words(len);
    size_t done = 0;
    coll_wait_t w = coll_wait_start(c, c->fast_spin);
    while ((done = xll_unpack(src, dst, len, flag, done)) < words)
        if (!coll_wait_step(&w))
            return VSYM_FAIL(VSYM_ERR_TIMED_OUT,
                             "collective push (flagged words): timed out after %.2f s "
                             "waiting for team rank %d (world rank %d), call %llu, %zu of "
                             "%zu words arrived",
                             coll_wait_elapsed(&w), r, vsym_team_world_rank(c->team, r),
                             (unsigned long long)seq, done, words);
    return VSYM_OK;
}

/* Send len bytes of src to rank r's slot as words of flag: stored through r's mapping, or packed
 * into the words buffer (once while src stays the same: *packed) and put. */
static vsym_status_t xll_send(vsym_coll_t *c, int r, size_t slot, const char *src, size_t len,
                              uint32_t flag, const char **packed)
{
    char *peer = vsym_obj_peer_ptr(c->xch, r);
    if (peer != NULL) {
        xll_pack((uint64_t *)(void *)(peer + slot), src, len, flag);
        return VSYM_OK;
    }
    uint64_t *words = (uint64_t *)(void *)(c->xll_buf + (size_t)c->n * c->xll_max);
    if (*packed != src) {
        xll_pack(words, src, len, flag);
        *packed = src;
    }
    return vsym_put(c->xch, r, slot, words, 8 * xll_words(len));
}

/* The exchange of blocks of at most c->xll_max bytes as flagged words. */
static vsym_status_t xll_exchange(vsym_coll_t *c, const char *const *blk, size_t len,
                                  const char **got)
{
    const int n = c->n, me = c->me;
    const uint64_t seq = c->xch_seq;
    const uint32_t flag = xll_flag(seq);
    const size_t slot = xll_slot(c, seq, me);
    const char *packed = NULL;
    for (int i = 1; i < n; i++)
        VSYM_TRY(xll_send(c, (me + i) % n, slot, blk[(me + i) % n], len, flag, &packed));
    char *own = c->xll_buf + (size_t)me * c->xll_max;
    memcpy(own, blk[me], len);
    got[me] = own;
    for (int i = 1; i < n; i++) {
        int r = (me + n - i) % n;
        char *dst = c->xll_buf + (size_t)r * c->xll_max;
        VSYM_TRY(xll_receive(c, xll_slot(c, seq, r), r, seq, len, dst));
        got[r] = dst;
    }
    return VSYM_OK;
}

/* The exchange's object, made at the first exchange of the handle (collective: every rank of
 * the team reaches it in the same collective call), so that teams whose ranks all reach each
 * other by load and store, which never exchange, do not hold it. */
static vsym_status_t xch_setup(vsym_coll_t *c)
{
    const size_t cnt = xch_counter(c, 0);
    if ((c->xll_max > 0 || c->push_max > 0) && c->xll_buf == NULL) {
        size_t most = c->xll_max > c->push_max ? c->xll_max : c->push_max;
        c->xll_buf = malloc((size_t)c->n * c->xll_max + 2 * most + 8);
        c->push_known = calloc((size_t)c->n, sizeof(uint64_t));
        if (c->xll_buf == NULL || c->push_known == NULL)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "collective exchange: no memory");
    }
    const size_t words =
        2 * (size_t)c->n * xll_slot_bytes(c) + COLL_PUSH_SLOTS * words_slot_bytes(c->push_max) + 64;
    VSYM_TRY(vsym_alloc(c->team, cnt + 8 * (size_t)c->n + words, &c->xch));
    c->xch_base = vsym_obj_ptr(c->xch);
    /* The heap may hold an earlier object's bytes here: zero the counters and the flagged words
     * (a stale word whose flag matched would read as data), and let no peer write before every
     * rank has. */
    memset(c->xch_base + cnt, 0, 8 * (size_t)c->n + words);
    vsym_status_t st = vsym_signal_barrier(c->xch, 0, c->timeout);
    if (st != VSYM_OK) {
        vsym_obj_free(c->xch);
        c->xch = NULL;
    }
    return st;
}

vsym_status_t vsym_coll_xch(vsym_coll_t *c, const char *const *blk, size_t len, int registered,
                            const char **got)
{
    const int n = c->n, me = c->me;
    const uint64_t seq = ++c->xch_seq;
    uint64_t want;
    /* From registered memory a blocking put above the transport's staging size waits for its
     * transfer, one peer after the other: send those without waiting, quiet once at the end. */
    int nbi = 0;
    if (len > c->xch_max)
        return VSYM_FAIL(VSYM_ERR_BAD_SIZE, "collective exchange: %zu bytes per peer, at most %zu",
                         len, c->xch_max);
    if (c->xch == NULL) VSYM_TRY(xch_setup(c));
    if (c->xll_max > 0 && len <= c->xll_max) return xll_exchange(c, blk, len, got);
    want = ++c->xch_adds; /* every rank makes the same exchanges: the counters agree */
    for (int i = 1; i < n; i++) {
        int r = (me + i) % n, nbi_r = registered && len > vsym_team_put_staged_max(c->team, r);
        nbi |= nbi_r;
        VSYM_TRY((nbi_r ? vsym_put_signal_nbi
                        : vsym_put_signal)(c->xch, r, xch_slot(c, seq, me), blk[r], len, c->xch,
                                           xch_counter(c, me), 1, VSYM_SIGNAL_ADD));
    }
    char *own = c->xch_base + xch_slot(c, seq, me);
    memcpy(own, blk[me], len);
    got[me] = own;
    int rs[n];
    const uint64_t *ws[n];
    for (int i = 0; i < n - 1; i++) {
        rs[i] = (me + 1 + i) % n;
        ws[i] = (const uint64_t *)(const void *)(c->xch_base + xch_counter(c, rs[i]));
        got[rs[i]] = c->xch_base + xch_slot(c, seq, rs[i]);
    }
    VSYM_TRY(counters_wait(c, ws, rs, n - 1, want, "exchange (arrival counter)"));
    /* The blocks may be rewritten once this returns. */
    return nbi ? vsym_quiet(c->ctx) : VSYM_OK;
}

/* ---- Pairwise model ----------------------------------------------------------------------- */

static int parity_now(const vsym_coll_t *c)
{
    return (int)(c->pw_phase & 1);
}

static char *pw_buf(vsym_coll_t *c, int parity)
{
    return c->base + (size_t)(2 + parity) * c->chunk;
}

/* Wait until every reader of the last phase of this parity has consumed it. */
static vsym_status_t pw_drain(vsym_coll_t *c, int parity)
{
    for (int i = 0; i < c->npend[parity]; i++) {
        vsym_status_t st =
            vsym_signal_wait(c->scratch, c->pend[parity][i], COLL_CH_DONE + parity, c->timeout);
        if (st != VSYM_OK) return st;
    }
    c->npend[parity] = 0;
    return VSYM_OK;
}

/* Make the region of a parity writable, and return it. */
static vsym_status_t pw_acquire(vsym_coll_t *c, int parity, char **buf_p)
{
    vsym_status_t st = pw_drain(c, parity);
    if (st != VSYM_OK) return st;
    *buf_p = pw_buf(c, parity);
    return VSYM_OK;
}

/* Tell readers that the region of the current phase holds their data. */
static vsym_status_t pw_publish(vsym_coll_t *c, const int *readers, int nr)
{
    int p = parity_now(c);
    for (int i = 0; i < nr; i++) {
        vsym_status_t st = vsym_signal_put(c->scratch, readers[i], COLL_CH_READY + p, c->timeout);
        if (st != VSYM_OK) return st;
        c->pend[p][c->npend[p]++] = readers[i];
    }
    return VSYM_OK;
}

/* Wait for owner's data of the current phase; a pointer to len bytes at off of it. */
static vsym_status_t pw_read(vsym_coll_t *c, int owner, size_t off, size_t len, const char **ptr_p)
{
    int p = parity_now(c);
    vsym_status_t st = vsym_signal_wait(c->scratch, owner, COLL_CH_READY + p, c->timeout);
    if (st != VSYM_OK) return st;
    size_t region = (size_t)(2 + p) * c->chunk;
    if (c->peer[owner] != NULL) {
        *ptr_p = c->peer[owner] + region + off;
        return VSYM_OK;
    }
    char *land = c->tmp + (size_t)owner * c->chunk;
    st = vsym_get(c->scratch, owner, region + off, land, len);
    if (st != VSYM_OK) return st;
    *ptr_p = land;
    return VSYM_OK;
}

/* Tell owner its data of the current phase is consumed. */
static vsym_status_t pw_done(vsym_coll_t *c, int owner)
{
    return vsym_signal_put(c->scratch, owner, COLL_CH_DONE + parity_now(c), c->timeout);
}

static void pw_next(vsym_coll_t *c)
{
    c->pw_phase++;
}

/* ---- Helpers ------------------------------------------------------------------------------ */

/* Element offset of segment k when m elements are split into n segments. */
static size_t seg_lo(size_t m, int n, int k)
{
    return (size_t)(((unsigned __int128)m * (unsigned)k) / (unsigned)n);
}

static vsym_status_t bar_peer_v(vsym_coll_t *c, int r, size_t off, size_t len, const void **ptr_p)
{
    const char *p;
    VSYM_TRY(vsym_coll_bar_peer(c, r, off, len, &p));
    *ptr_p = p;
    return VSYM_OK;
}

static size_t min_sz(size_t a, size_t b)
{
    return a < b ? a : b;
}

static void copy_bytes(void *dst, const void *src, size_t len)
{
    if (dst != src && len > 0) memmove(dst, src, len);
}

/* Whether [a, a + alen) and [b, b + blen) do not overlap. */
static int apart(const void *a, size_t alen, const void *b, size_t blen)
{
    return (const char *)a + alen <= (const char *)b || (const char *)b + blen <= (const char *)a;
}

/* Whether a call stores into the caller's dst with non-temporal stores: where the ranks' src and
 * dst together (whole bytes, over the team) reach twice the streaming threshold
 * (VSYM_NT_THRESHOLD; with auto, the whole last-level cache), a call passes through
 * more than the cache holds, dst is no longer there when the next call writes it, and an
 * ordinary store into a line not in cache reads it first. Below that the lines of dst are
 * still in the cache: 2-core AMD host, launches taking turns, 2 ranks out of place, streaming
 * from the threshold made the 4 MiB all-reduce (16 MiB over the ranks) and the 8 MiB
 * reduce-scatter (24 MiB) 1.2x slower; from twice it, medians of three launches against the
 * stores before, all-reduce 0.67-0.90 at 8-64 MiB, all-gather 0.65-0.74 and broadcast
 * 0.65-0.78 at 16-64 MiB, reduce-scatter 0.91-1.02; 16-core Intel guest at 16 ranks 0.70-0.87,
 * reduce-scatter 1.02 (results/coll/dev-2core-zen4-2026-11-27-stop33 and device-16core-...).
 * The same rule for the copies out of the peers' symmetric buffers (gather_zerocopy,
 * bc_zerocopy), on AMD CPUs only (vsym_util_cpu_amd): 2-core AMD host, launches taking turns,
 * medians of three rounds, 16-64 MiB 0.53-0.71 of the time at 2 and 4 ranks (all-gather,
 * all-to-all, broadcast); at 8 MiB, where the ranks' buffers fill the L3, 0.60-1.25 in five rounds;
 * on the 16-core Intel guest, two rounds at 8 and 16 ranks, where the rule streamed (64 MiB) the
 * broadcast ran 1.2-2.0x slower, the all-gather and the all-to-all 0.9-1.7x
 * (results/coll/dev-2core-zen4-2026-11-27-stop34, device-16core-2026-11-27-stop34). Not where
 * src and dst overlap (in place, the lines of dst were read as src moments before: streaming
 * them was 1.10-1.16x slower). The call fences once before it returns (dst_fence). */
static int dst_streams(int overlap, size_t whole)
{
    return !overlap && vsym_util_copy_streams(whole / 2);
}

/* The whole of a broadcast of len bytes for dst_streams: every rank's dst and the root's src
 * (counting a src at every rank streamed the 4 MiB broadcast of 4 ranks, 20 MiB in all, and ran
 * 1.12-1.28x slower on the AMD host: results/coll/dev-2core-zen4-2026-11-27-stop33). */
static size_t bc_whole(const vsym_coll_t *c, size_t len)
{
    return ((size_t)c->n + 1) * len;
}

/* A copy into dst, streamed where dst_streams said so. */
static void dst_copy(void *dst, const void *src, size_t len, int stream)
{
    if (stream)
        vsym_util_copy_stream(dst, src, len);
    else
        copy_bytes(dst, src, len);
}

/* The sources reduced into dst, streamed where dst_streams said so (the streaming pass where
 * the CPU has it for the dtype, else the ordinary kernel). */
static void dst_reduce(vsym_dtype_t dtype, vsym_red_op_t op, void *dst, const void *const *srcs,
                       int n, size_t count, int stream)
{
    void *d[1] = {dst};
    if (stream && vsym_coll_reduce_push_stream(dtype, op, d, 1, srcs, n, count)) return;
    vsym_coll_reduce(dtype, op, dst, srcs, n, count);
}

static void dst_fence(int stream)
{
    if (stream) vsym_util_copy_fence();
}

/* A rank's copy of what it publishes into its scratch for readers that copy all of it out
 * (broadcast, all-gather): streamed (non-temporal stores, fenced before the barrier tells the
 * readers) when stream is set, which leaves the lines in memory rather than modified in this
 * core's cache, so readers read memory instead of snooping it. Faster on the AMD host measured,
 * slower on the Intel one (stream_min). */
static void stream_publish(void *dst, const void *src, size_t len, int stream)
{
    if (!stream) {
        vsym_util_copy_publish(dst, src, len);
        return;
    }
    vsym_util_copy_stream(dst, src, len);
    vsym_util_copy_fence();
}

/* One-shot through push exchanges (peers over verbs), in chunks of c->xch_max bytes per peer.
 * blocks 0: every rank sends its whole vector (all-reduce, all-gather); 1: block r of count
 * elements to rank r (reduce-scatter, all-to-all). dtype VSYM_DTYPE_COUNT: the blocks received
 * are placed at dst + r x count (gathers); else reduced with op in rank order into dst. */
static vsym_status_t xch_blocks(vsym_coll_t *c, const char *src, char *dst, size_t count,
                                int blocks, size_t es, vsym_dtype_t dtype, vsym_red_op_t op)
{
    const size_t maxe = c->xch_max / es, stride = blocks ? count * es : 0;
    const int reg = vsym_coll_find_buf(c, src, count * es * (blocks ? (size_t)c->n : 1)) != NULL;
    const char *got[c->n], *blk[c->n];
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off);
        for (int r = 0; r < c->n; r++)
            blk[r] = src + off * es + (size_t)r * stride;
        VSYM_TRY(vsym_coll_xch(c, blk, m * es, reg, got));
        if (dtype != VSYM_DTYPE_COUNT) {
            vsym_coll_reduce(dtype, op, dst + off * es, (const void *const *)got, c->n, m);
            continue;
        }
        for (int r = 0; r < c->n; r++)
            copy_bytes(dst + ((size_t)r * count + off) * es, got[r], m * es);
    }
    return VSYM_OK;
}

/* The all-gather half of a two-shot step: segment r of a chunk of m elements (starting at element
 * off of dst) is read from rank r's current barrier region, where r left it reduced. */
static vsym_status_t gather_segments(vsym_coll_t *c, int n, char *dst, size_t off, size_t m,
                                     size_t es, int stream)
{
    for (int r = 0; r < n; r++) {
        size_t rlo = seg_lo(m, n, r), rhi = seg_lo(m, n, r + 1);
        const char *p;
        VSYM_TRY(vsym_coll_bar_peer(c, r, rlo * es, (rhi - rlo) * es, &p));
        dst_copy(dst + (off + rlo) * es, p, (rhi - rlo) * es, stream);
    }
    return VSYM_OK;
}

static const char *const kind_names[VSYM_COLL_KIND_COUNT] = {
    "broadcast", "allgather", "reduce_scatter", "allreduce", "alltoall"};

VSYM_API const char *vsym_coll_kind_name(vsym_coll_kind_t kind)
{
    return ((unsigned)kind < VSYM_COLL_KIND_COUNT) ? kind_names[kind] : "?";
}

/* The ways a collective runs: what vsym_coll_path names, and what each collective dispatches
 * on (the two cannot drift). */
typedef enum coll_path {
    P_NONE,
    P_COPY,
    P_ZEROCOPY,
    P_LL,
    P_ONESHOT,
    P_XCH,
    P_NODES,
    P_TWOSHOT,
    P_RING,
    P_RD,
    P_HIER,
    P_CHAIN,
    P_TREE,
    P_PUSH,
    P_PCOPY,
} coll_path_t;

static const char *const path_names[] = {
    "none",
    "copy",
    "symmetric-in-place",
    "oneshot-ll",
    "oneshot",
    "oneshot-exchange",
    "oneshot-nodes",
    "twoshot",
    "ring",
    "rd",
    "hier",
    "chain",
    "tree",
    "oneshot-push",
    "process-copy",
};

static vsym_status_t hier_setup(vsym_coll_t *c);
/* Whether the team is a regular node-major layout over several nodes of more than one rank
 * each (what the two-level algorithms need). Local. */
static int hier_regular(const vsym_coll_t *c);

vsym_coll_algo_t vsym_coll_allreduce_rule(int n, size_t bytes, int half, int multi_node,
                                          int all_direct)
{
    /* Across nodes: the hierarchical all-reduce sends each byte over the network once per
     * node, and each rank only its 1/L share of the vector (L ranks per node), through the
     * push exchange. Soft-RoCE VM, 2 nodes x 2 ranks, each algorithm forced, two launches,
     * ordinary and symmetric buffers, out of and in place, one-shot (the exchange, each whole
     * vector once per node) over hierarchical: 0.50-1.83 at 256 B-1 KiB and 0.59-1.41 at
     * 4 KiB (no winner), 0.90-2.35 at 8 KiB (at least 1.03 in 7 of 8), 1.09-2.41 at 16-64 KiB
     * (results/coll/softroce-2core-zen3-2026-11-26-stop24). */
    if (multi_node && n > 2) return bytes <= 4096 ? VSYM_COLL_ONESHOT : VSYM_COLL_HIER;
    /* Peers over verbs: one-shot is the push exchange (every rank puts its vector to every
     * peer, a counter add with it, no barrier). Two ranks send each byte once in it, as in any
     * algorithm, with one network crossing per 64 KiB: Soft-RoCE VM, 2 ranks over verbs on one
     * rxe device, each algorithm forced, 8-64 KiB took 1.7-10.6 ms in one shot against 5.6-13.1
     * ms for the ring and 5.6-11.3 for two-shot (Open MPI over UCX 1.4-8.9 ms); 2 pretend nodes
     * in results/coll/softroce-2core-zen3-2026-11-26-stop23. */
    if (!all_direct) return (n == 2 || bytes <= 8192) ? VSYM_COLL_ONESHOT : VSYM_COLL_RING;
    /* One node, ordinary buffers (symmetric ones are read in place from 4 KiB whatever this
     * says; see vsym_coll_allreduce). Measured with every algorithm forced, 16-core host
     * (results/coll/device-16core-2026-11-25-stop17) and the 2-core hosts:
     *  - two ranks read the same bytes in every algorithm; one-shot saves a synchronisation
     *    up to about 128 KiB, and above that the ring, which reduces and publishes half the
     *    vector instead of copying all of it in and out, is 1.06-1.16x faster than one- or
     *    two-shot (f32, 256 KiB-64 MiB), and from 16 KiB for f16/bf16 (1.10-1.34x), whose
     *    reductions convert every element;
     *  - with more ranks every rank's one-shot reads n x bytes, and the node's caches carry
     *    n x n x bytes at once, against 2 x n x bytes for two-shot: one-shot stays while
     *    n x n x bytes <= 64 KiB (4 KiB at 4 ranks, 1 KiB at 8, 256 B at 16; at 8 ranks 2 KiB
     *    took 4.1 us in one shot, 2.9 in two, at 16 ranks 4 KiB 13-14 against 5); from 1 MiB
     *    the ring's pairwise hand-offs beat two-shot's barriers up to 8 ranks (1.07-1.27x), not
     *    at 16; f16/bf16 stay two-shot (the ring converts each partial sum at every step:
     *    0.55-0.86x at 4 ranks). */
    if (n == 2) {
        if (bytes <= (half ? 1024 : 131072)) return VSYM_COLL_ONESHOT;
        if (half && bytes <= 8192) return VSYM_COLL_TWOSHOT;
        return VSYM_COLL_RING;
    }
    if (half) return bytes <= 1024 ? VSYM_COLL_ONESHOT : VSYM_COLL_TWOSHOT;
    if (bytes <= 65536 / ((size_t)n * (size_t)n)) return VSYM_COLL_ONESHOT;
    if (n <= 8 && bytes >= ((size_t)1 << 20)) return VSYM_COLL_RING;
    return VSYM_COLL_TWOSHOT;
}

/* The algorithm to run: an explicit one, else VSYM_COLL_ALGO, else a rule by size and by how
 * the peers are reached. Every rank resolves the same way (same settings, same arguments).
 * Local: the sub-teams HIER runs on are made by the call that runs it (hier_setup). */
static vsym_status_t pick_algo(const vsym_coll_t *c, vsym_coll_kind_t kind, vsym_coll_algo_t algo,
                               size_t bytes, int half, vsym_coll_algo_t *algo_p)
{
    if ((unsigned)algo >= VSYM_COLL_ALGO_COUNT)
        return VSYM_FAIL(VSYM_ERR_BAD_MODE, "%s: unknown algorithm %d", kind_names[kind],
                         (int)algo);
    if (algo == VSYM_COLL_AUTO) algo = c->env_algo;
    if (algo == VSYM_COLL_AUTO) {
        int multi = vsym_team_num_nodes(c->team) > 1;
        switch (kind) {
        case VSYM_COLL_KIND_ALLREDUCE:
            algo = vsym_coll_allreduce_rule(c->n, bytes, half, multi, c->all_direct);
            break;
        case VSYM_COLL_KIND_BROADCAST:
            algo = (c->all_direct || bytes <= 65536) ? VSYM_COLL_ONESHOT : VSYM_COLL_TWOSHOT;
            break;
        default:
            algo = VSYM_COLL_ONESHOT;
            break;
        }
    }
    /* HIER is an all-reduce on a regular node-major layout; TWOSHOT anywhere else. */
    if (algo == VSYM_COLL_HIER && (kind != VSYM_COLL_KIND_ALLREDUCE || !hier_regular(c)))
        algo = VSYM_COLL_TWOSHOT;
    *algo_p = algo;
    return VSYM_OK;
}

/* The checks every collective makes of its arguments (root: the broadcast's; only the root
 * reads src there). */
static vsym_status_t check_args(vsym_coll_t *c, vsym_coll_kind_t kind, const void *src,
                                const void *dst, size_t count, vsym_dtype_t dtype, int root)
{
    const char *what = (unsigned)kind < VSYM_COLL_KIND_COUNT ? kind_names[kind] : "coll_path";
    if (c == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "%s: NULL handle", what);
    if ((unsigned)kind >= VSYM_COLL_KIND_COUNT)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "coll_path: unknown collective %d", (int)kind);
    if (kind == VSYM_COLL_KIND_BROADCAST) {
        if (root < 0 || root >= c->n)
            return VSYM_FAIL(VSYM_ERR_BAD_RANK, "broadcast: root %d outside team of %d", root,
                             c->n);
        if (c->me != root) src = dst;
    }
    if ((unsigned)dtype >= VSYM_DTYPE_COUNT)
        return VSYM_FAIL(VSYM_ERR_BAD_DTYPE, "%s: unknown dtype %d", what, (int)dtype);
    size_t es = vsym_dtype_size(dtype);
    if (count > SIZE_MAX / es / (size_t)c->n)
        return VSYM_FAIL(VSYM_ERR_BAD_SIZE, "%s: count %zu of %s overflows", what, count,
                         vsym_dtype_name(dtype));
    if (count > 0 && (dst == NULL || src == NULL))
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "%s: NULL %s buffer with count %zu", what,
                         dst ? "source" : "destination", count);
    return VSYM_OK;
}

/* ---- All-reduce --------------------------------------------------------------------------- */

static vsym_status_t ar_oneshot(vsym_coll_t *c, const char *src, char *dst, size_t count,
                                vsym_dtype_t dtype, vsym_red_op_t op)
{
    size_t es = vsym_dtype_size(dtype), maxe = c->chunk / es;
    const void *srcs[c->n];
    /* This rank's own part read from src, in its cache (a streamed publish left the scratch's
     * copy in memory), where the reduction may write dst meanwhile: src apart from dst, or dst
     * itself as source 0 or 1 (vsym_coll_reduce's alias rule). */
    const int own = apart(src, count * es, dst, count * es) || (src == dst && c->me <= 1);
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off);
        vsym_util_copy_publish(vsym_coll_bar_buf(c), src + off * es, m * es);
        VSYM_TRY(vsym_coll_bar_sync(c));
        for (int r = 0; r < c->n; r++)
            if (own && r == c->me)
                srcs[r] = src + off * es;
            else
                VSYM_TRY(bar_peer_v(c, r, 0, m * es, &srcs[r]));
        vsym_coll_reduce(dtype, op, dst + off * es, srcs, c->n, m);
        vsym_coll_bar_next(c);
    }
    return VSYM_OK;
}

/* Through the low-latency protocol, no barrier: every rank publishes its src in lines and reads
 * block me of each peer's as it arrives, or with gather the whole src of each; with dtype
 * VSYM_DTYPE_COUNT it places what it read from rank r at block r of dst (the all-gather, the
 * all-to-all), else it reduces them with op in rank order into dst (gather: the all-reduce;
 * else the reduce-scatter). Every src is read before dst is written (in place or overlapping).
 * Against the scratch and its barrier (16-core Intel guest, 8 and 16 ranks, medians of 13-14
 * rounds, time new / old): the all-gather 0.65-0.75 up to 32 B a rank and 0.83-0.99 at 64-256
 * B, the reduce-scatter 0.52-0.64 and the all-to-all 0.53-0.71 at 64-256 B of src
 * (results/coll/device-16core-2026-11-28-stop45). */
static vsym_status_t blocks_ll(vsym_coll_t *c, int gather, const char *src, char *dst, size_t count,
                               size_t es, vsym_dtype_t dtype, vsym_red_op_t op)
{
    const size_t len = count * es, at = gather ? 0 : (size_t)c->me * len;
    const size_t total = gather ? len : (size_t)c->n * len;
    uint64_t seq;
    VSYM_TRY(vsym_coll_ll_begin(c, 1, &seq));
    vsym_coll_ll_publish(c, seq, src, total);
    memcpy(c->ll_tmp + (size_t)c->me * VSYM_COLL_LL_MAX + at, src + at, len);
    VSYM_TRY(vsym_coll_ll_fetch(c, -1, seq, total, at, len));
    vsym_coll_ll_end(c, seq, 1);
    const void *srcs[c->n];
    for (int r = 0; r < c->n; r++)
        srcs[r] = c->ll_tmp + (size_t)r * VSYM_COLL_LL_MAX + at;
    if (dtype != VSYM_DTYPE_COUNT)
        vsym_coll_reduce(dtype, op, dst, srcs, c->n, count);
    else
        for (int r = 0; r < c->n; r++)
            memcpy(dst + (size_t)r * len, srcs[r], len);
    return VSYM_OK;
}

/* Reduce-scatter then all-gather through the scratch; each segment is reduced by its owner
 * only, so every rank copies the same bits. */
static vsym_status_t ar_twoshot(vsym_coll_t *c, const char *src, char *dst, size_t count,
                                vsym_dtype_t dtype, vsym_red_op_t op)
{
    size_t es = vsym_dtype_size(dtype), maxe = c->chunk / es;
    int n = c->n;
    const void *srcs[n];
    const int stream =
        dst_streams(!apart(src, count * es, dst, count * es), 2 * count * es * (size_t)n);
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off);
        size_t lo = seg_lo(m, n, c->me), hi = seg_lo(m, n, c->me + 1);
        vsym_util_copy_publish(vsym_coll_bar_buf(c), src + off * es, m * es);
        VSYM_TRY(vsym_coll_bar_sync(c));
        for (int r = 0; r < n; r++)
            VSYM_TRY(bar_peer_v(c, r, lo * es, (hi - lo) * es, &srcs[r]));
        vsym_coll_bar_next(c);
        /* Writing the next phase's region now is safe: every rank has entered the barrier
         * above, so none still reads what the region held two phases ago. */
        vsym_coll_reduce_publish(dtype, op, vsym_coll_bar_buf(c) + lo * es, srcs, n, hi - lo);
        VSYM_TRY(vsym_coll_bar_sync(c));
        VSYM_TRY(gather_segments(c, n, dst, off, m, es, stream));
        vsym_coll_bar_next(c);
    }
    dst_fence(stream);
    return VSYM_OK;
}

int vsym_coll_zc_streams(int n, size_t bytes, int in_place)
{
    return !in_place && (vsym_util_copy_streams((size_t)n * bytes) ||
                         (bytes >= COLL_ZC_FAR_STREAM_MIN && vsym_util_core_per_rank() &&
                          vsym_util_publish_far()));
}

/* Two-shot on symmetric buffers, without the scratch: each rank reduces its segment straight
 * from every rank's src, block by block, and pushes each reduced block into every rank's dst
 * while it is still in cache (no second pass reading the other segments back from memory). Two
 * synchronisations: inputs ready (every rank has entered, so every dst may be written), and
 * every segment pushed. No rank reads a dst, so no exit one is needed. In place (src == dst),
 * the owner of a segment is the only rank that reads it, and it reads a block from every rank
 * before any rank's copy of that block is overwritten. */
static vsym_status_t ar_zerocopy(vsym_coll_t *c, vsym_coll_buf_t *sb, const char *src,
                                 vsym_coll_buf_t *db, char *dst, size_t count, vsym_dtype_t dtype,
                                 vsym_red_op_t op)
{
    int n = c->n;
    size_t es = vsym_dtype_size(dtype), soff = (size_t)(src - sb->base);
    size_t doff = (size_t)(dst - db->base);
    size_t lo = seg_lo(count, n, c->me), hi = seg_lo(count, n, c->me + 1);
    const void *srcs[n];
    /* Blocks keep the inputs of one block in cache across the n sources, and the result in
     * cache for the pushes; the block buffer is the handle's, made at first use. */
    size_t blk = COLL_PUSH_BLOCK / es;
    if (c->push_tmp == NULL && (c->push_tmp = malloc(COLL_PUSH_BLOCK + 4096)) == NULL)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "allreduce: no memory for a %d-byte block",
                         COLL_PUSH_BLOCK + 4096);
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_coll_bar_next(c);
    for (int r = 0; r < n; r++)
        srcs[r] = sb->peer[r] + soff + lo * es;
    /* Half a page from the sources modulo 4 KiB: reduced into forwards, no 4K aliasing. */
    char *tmp = vsym_coll_unaliased(c->push_tmp, srcs[0]);
    /* While the ranks' inputs together stay below the streaming threshold (half the last-level
     * cache), each reduced vector is stored straight into the ranks' dst
     * (vsym_coll_reduce_push), not through the block buffer; in place too (the owner of a
     * segment is its only reader, and reduce_push reads a block of every source before it
     * writes that block anywhere). Beyond that the buffers live in memory: every dtype on
     * AVX-512 CPUs is reduced and stored into every dst in one pass of non-temporal stores
     * (vsym_coll_reduce_push_stream: 16 MiB between 2 ranks on the 2-core AMD host 0.74-1.01 ms
     * against 1.72-2.16); otherwise each block is reduced into the block buffer and copied out
     * with non-temporal stores, which did as well as or better than storing straight into dst
     * (16-core Xeon guest, medians of six launches against the block buffer: 0.66-0.89 of its
     * time at 1-16 MiB on 2 ranks, 0.83-0.91 at 1-4 MiB on 4, 0.94-0.97 at 1-4 MiB on 16, but
     * 1.06 at 64 MiB on 2 and 1.08 at 16 MiB on 16;
     * results/coll/device-16core-2026-11-26-stop21). Not in place: every line of dst was read
     * as src just before, so a streaming store saves no read and evicts the line (2-core AMD
     * host, 2 ranks, launches taking turns: 8 MiB 106-118 us against 432-755 streamed, 16 MiB
     * 245-735 against 926-1799; results/coll/dev-2core-zen4-2026-11-27-stop34). Out of place
     * with the team's cores far (its line round trip, rtt_probe), from COLL_ZC_FAR_STREAM_MIN a
     * rank: 2-core Zen 5 host, 2 ranks, three launches each, a threshold of 1-4 MiB against 16
     * MiB, medians: 1 MiB 18.7-19.6 us against 25.5-26.5, 2 MiB 39.6-41.1 against 54.6-59.8, 4
     * MiB 86-90 against 103 (512 KiB 9.7-11.1 against 9.5; results/coll/dev-2core-zen5-2026-11-28-
     * stop40); with a core per rank only, as measured. */
    int direct = !vsym_coll_zc_streams(n, count * es, src == dst);
    for (size_t o = 0; o < hi - lo; o += blk) {
        size_t m = min_sz(blk, hi - lo - o);
        const void *s2[n];
        void *d2[n];
        for (int r = 0; r < n; r++)
            s2[r] = (const char *)srcs[r] + o * es;
        for (int i = 0; i < n; i++)
            d2[i] = db->peer[(c->me + i) % n] + doff + (lo + o) * es;
        if (direct) {
            vsym_coll_reduce_push(dtype, op, d2, n, s2, n, m);
            continue;
        }
        if (vsym_coll_reduce_push_stream(dtype, op, d2, n, s2, n, m)) continue;
        vsym_coll_reduce(dtype, op, tmp, s2, n, m);
        for (int i = 0; i < n; i++)
            vsym_util_copy_part(d2[i], tmp, m * es, count * es);
    }
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_coll_bar_next(c);
    return VSYM_OK;
}

/* Ring: n-1 reduce-scatter steps then n-1 all-gather steps, each a pairwise hand-off to the
 * right neighbour. Partial sums travel; the final value of a segment is computed once. */
static vsym_status_t ar_ring(vsym_coll_t *c, const char *src, char *dst, size_t count,
                             vsym_dtype_t dtype, vsym_red_op_t op)
{
    int n = c->n, me = c->me, left = (me + n - 1) % n, right = (me + 1) % n;
    size_t es = vsym_dtype_size(dtype), maxe = (c->chunk / es) * (size_t)n;
    const int stream =
        dst_streams(!apart(src, count * es, dst, count * es), 2 * count * es * (size_t)n);
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off);
        const char *s = src + off * es;
        char *d = dst + off * es;
        char *buf;
        VSYM_TRY(pw_acquire(c, parity_now(c), &buf));
        vsym_util_copy_publish(buf, s + seg_lo(m, n, me) * es,
                               (seg_lo(m, n, me + 1) - seg_lo(m, n, me)) * es);
        for (int step = 0; step < 2 * (n - 1); step++) {
            int rs = step < n - 1;
            int k = rs ? (me - step - 1 + 2 * n) % n : (me - (step - (n - 1)) + 2 * n) % n;
            size_t klo = seg_lo(m, n, k), klen = seg_lo(m, n, k + 1) - klo;
            const char *l;
            VSYM_TRY(pw_publish(c, &right, 1));
            VSYM_TRY(pw_read(c, left, 0, klen * es, &l));
            if (step < 2 * (n - 1) - 1) {
                char *next;
                VSYM_TRY(pw_acquire(c, parity_now(c) ^ 1, &next));
                if (rs) {
                    const void *in[2] = {l, s + klo * es};
                    vsym_coll_reduce_publish(dtype, op, next, in, 2, klen);
                    if (step == n - 2) /* final: segment me + 1 */
                        dst_copy(d + klo * es, next, klen * es, stream);
                } else {
                    vsym_util_copy_publish(next, l, klen * es);
                    dst_copy(d + klo * es, l, klen * es, stream);
                }
            } else {
                dst_copy(d + klo * es, l, klen * es, stream);
            }
            VSYM_TRY(pw_done(c, left));
            pw_next(c);
        }
    }
    dst_fence(stream);
    return VSYM_OK;
}

/* Recursive doubling; ranks beyond the largest power of two fold into a partner first and get
 * the result back last. Both partners compute op(lower rank's data, higher rank's data), so
 * they hold the same bits. */
static vsym_status_t ar_rd(vsym_coll_t *c, const char *src, char *dst, size_t count,
                           vsym_dtype_t dtype, vsym_red_op_t op)
{
    int n = c->n, me = c->me, p2 = 1;
    while (p2 * 2 <= n)
        p2 *= 2;
    int extra = n - p2;
    size_t es = vsym_dtype_size(dtype), maxe = c->chunk / es;
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off), len = m * es;
        const char *s = src + off * es;
        char *d = dst + off * es, *buf;
        const char *t;
        if (extra > 0) {
            if (me >= p2) {
                int to = me - p2;
                VSYM_TRY(pw_acquire(c, parity_now(c), &buf));
                vsym_util_copy_publish(buf, s, len);
                VSYM_TRY(pw_publish(c, &to, 1));
            } else if (me < extra) {
                VSYM_TRY(pw_read(c, me + p2, 0, len, &t));
                const void *in[2] = {s, t};
                vsym_coll_reduce(dtype, op, d, in, 2, m);
                VSYM_TRY(pw_done(c, me + p2));
            } else {
                copy_bytes(d, s, len);
            }
            pw_next(c);
        } else {
            copy_bytes(d, s, len);
        }
        for (int mask = 1; mask < p2; mask <<= 1) {
            if (me < p2) {
                int partner = me ^ mask;
                VSYM_TRY(pw_acquire(c, parity_now(c), &buf));
                vsym_util_copy_publish(buf, d, len);
                VSYM_TRY(pw_publish(c, &partner, 1));
                VSYM_TRY(pw_read(c, partner, 0, len, &t));
                const void *in[2] = {me < partner ? (const void *)d : t,
                                     me < partner ? (const void *)t : d};
                vsym_coll_reduce(dtype, op, d, in, 2, m);
                VSYM_TRY(pw_done(c, partner));
            }
            pw_next(c);
        }
        if (extra > 0) {
            if (me < extra) {
                int to = me + p2;
                VSYM_TRY(pw_acquire(c, parity_now(c), &buf));
                vsym_util_copy_publish(buf, d, len);
                VSYM_TRY(pw_publish(c, &to, 1));
            } else if (me >= p2) {
                VSYM_TRY(pw_read(c, me - p2, 0, len, &t));
                memcpy(d, t, len);
                VSYM_TRY(pw_done(c, me - p2));
            }
            pw_next(c);
        }
    }
    return VSYM_OK;
}

/* ---- Hierarchical ------------------------------------------------------------------------- */

/* Sub-teams for two-level algorithms: the ranks of each node, and the ranks of equal local
 * rank across nodes. Needs a node-major team with the same number of ranks on every node. */
static int hier_regular(const vsym_coll_t *c)
{
    if (c->hier_state != 0) return c->hier_state > 0;
    int nodes = vsym_team_num_nodes(c->team);
    if (nodes <= 1 || nodes == c->n || c->n % nodes != 0)
        return 0; /* one level only: nothing to gain from two */
    int L = c->n / nodes;
    for (int r = 0; r < c->n; r++)
        if (vsym_team_node_of(c->team, r) != r / L) return 0;
    return 1;
}

static vsym_status_t hier_setup(vsym_coll_t *c)
{
    if (c->hier_state != 0) return VSYM_OK;
    const int regular = hier_regular(c);
    c->hier_state = -1; /* 1 once every step below has succeeded */
    if (!regular) return VSYM_OK;
    int nodes = vsym_team_num_nodes(c->team), L = c->n / nodes;
    vsym_team_t *t;
    for (int i = 0; i < nodes; i++) {
        VSYM_TRY(vsym_team_split_strided(c->team, i * L, 1, L, &t));
        if (t != NULL) c->node_team = t;
    }
    for (int l = 0; l < L; l++) {
        VSYM_TRY(vsym_team_split_strided(c->team, l, L, nodes, &t));
        if (t != NULL) c->inter_team = t;
    }
    VSYM_TRY(vsym_coll_create(c->node_team, &c->node_coll));
    VSYM_TRY(vsym_coll_create(c->inter_team, &c->inter_coll));
    /* Each level picks its own algorithm by the rule: VSYM_COLL_ALGO=hier names the two-level
     * scheme, not the algorithm of its levels (which would map hier to two-shot there). */
    c->node_coll->env_algo = c->inter_coll->env_algo = VSYM_COLL_AUTO;
    c->local_size = L;
    c->hier_state = 1;
    return VSYM_OK;
}

/* Inside the node reduce-scatter (each local rank reduces one segment), across nodes
 * all-reduce that segment between ranks of equal local rank, inside the node all-gather. */
static vsym_status_t ar_hier(vsym_coll_t *c, const char *src, char *dst, size_t count,
                             vsym_dtype_t dtype, vsym_red_op_t op)
{
    vsym_coll_t *nc = c->node_coll;
    int L = nc->n, l = nc->me;
    size_t es = vsym_dtype_size(dtype), maxe = nc->chunk / es;
    const void *srcs[L];
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off);
        size_t lo = seg_lo(m, L, l), hi = seg_lo(m, L, l + 1);
        vsym_util_copy_publish(vsym_coll_bar_buf(nc), src + off * es, m * es);
        VSYM_TRY(vsym_coll_bar_sync(nc));
        for (int r = 0; r < L; r++)
            VSYM_TRY(bar_peer_v(nc, r, lo * es, (hi - lo) * es, &srcs[r]));
        vsym_coll_bar_next(nc);
        char *mine = vsym_coll_bar_buf(nc) + lo * es;
        vsym_coll_reduce(dtype, op, mine, srcs, L, hi - lo);
        /* Across nodes, in place in this rank's region of the next node phase (the inter
         * collective uses its own scratch). */
        VSYM_TRY(
            vsym_coll_allreduce(c->inter_coll, mine, mine, hi - lo, dtype, op, VSYM_COLL_AUTO));
        VSYM_TRY(vsym_coll_bar_sync(nc));
        VSYM_TRY(gather_segments(nc, L, dst, off, m, es, 0));
        vsym_coll_bar_next(nc);
    }
    return VSYM_OK;
}

/* One-shot across nodes (peers over verbs, node-major layout): every rank puts its vector only
 * to the ranks of its local rank on the other nodes (a push exchange of the inter team), then
 * the ranks of a node share what they hold through the node's barrier regions, and every rank
 * reduces all n vectors in rank order. Each vector crosses the network once per node instead
 * of once per rank of it, in 1/L of the network operations. */
static vsym_status_t ar_oneshot_nodes(vsym_coll_t *c, const char *src, char *dst, size_t count,
                                      vsym_dtype_t dtype, vsym_red_op_t op)
{
    vsym_coll_t *nc = c->node_coll, *ic = c->inter_coll;
    const int L = nc->n, N = ic->n;
    const size_t es = vsym_dtype_size(dtype);
    const size_t maxe = min_sz(ic->xch_max, nc->chunk / (size_t)N) / es;
    const char *got[N], *blk[N];
    const void *srcs[c->n];
    const int reg = vsym_coll_find_buf(c, src, count * es) != NULL;
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off), len = m * es;
        for (int j = 0; j < N; j++)
            blk[j] = src + off * es;
        VSYM_TRY(vsym_coll_xch(ic, blk, len, reg, got));
        char *buf = vsym_coll_bar_buf(nc);
        for (int j = 0; j < N; j++)
            vsym_util_copy_publish(buf + (size_t)j * len, got[j], len);
        VSYM_TRY(vsym_coll_bar_sync(nc));
        /* World rank r is local rank r % L of node r / L. */
        for (int r = 0; r < c->n; r++)
            VSYM_TRY(bar_peer_v(nc, r % L, (size_t)(r / L) * len, len, &srcs[r]));
        vsym_coll_reduce(dtype, op, dst + off * es, srcs, c->n, m);
        vsym_coll_bar_next(nc);
    }
    return VSYM_OK;
}

/* Whether symmetric buffers may be read in place (the all-reduce's and the block-wise
 * collectives' symmetric-in-place paths): every peer reached by load and store, the algorithm
 * left to the library or one of the two it replaces (one-shot, two-shot), at least
 * VSYM_COLL_ZEROCOPY_MIN bytes (4 KiB), where the copies through the scratch cost more than the
 * extra synchronisation. 2-core host, symmetric f32 all-reduce, against 256 KiB (two launches
 * each): 2 ranks 4 KiB 0.51-0.98 us against 2.85-3.03, 64 KiB 2.4-3.1 against 26-30; 4 ranks
 * 16 KiB 8.8-13.1 against 14.3-25.3, 64 KiB 13.2-17.5 against 58-63. */
static int zc_allowed(const vsym_coll_t *c, size_t bytes, vsym_coll_algo_t algo, int chosen)
{
    return c->all_direct && bytes >= c->zc_min &&
           (chosen || algo == VSYM_COLL_ONESHOT || algo == VSYM_COLL_TWOSHOT);
}

/* The broadcast's smallest size read from the root's memory (beyond VSYM_COLL_ZEROCOPY_MIN):
 * its second synchronisation costs more than the copy through the scratch it saves below 64 KiB
 * with more ranks than cores (4 ranks on the 2-core host: 4-16 KiB took 8.5-11.4 us in place
 * against 4.5-6.8, 64 KiB about the same; 2 ranks, 4 KiB 0.3-0.8 us against 0.4-1.7, three
 * launches each), and below 32 KiB beyond 8 ranks (16-core host, three rounds: 4 KiB at 16
 * ranks 2.3-2.7 us against 1.7-2.1, 32 KiB 3.8-5.8 against 7.8-12.5; at 8 ranks 4 KiB the
 * same either way; results/coll/device-16core-2026-11-26-stop26). */
static size_t bc_zerocopy_min(const vsym_coll_t *c)
{
    return !vsym_util_core_per_rank() ? 65536 : c->n > 8 ? 32768 : 0;
}

/* The all-gather's (bytes a rank), the reduce-scatter's and the all-to-all's (bytes of src)
 * through the low-latency protocol: up to VSYM_COLL_LL_MAX, where it is not set 256 B as the
 * all-reduce, but one line (56 B) between 2 ranks, where the scratch's one barrier costs a round
 * trip as a line does (2-core AMD host, far, 12 launches each taking turns, time lines /
 * scratch: one line 0.81-0.93, two to five 0.95-1.19 but for the reduce-scatter of 64 B). */
int vsym_coll_blk_ll_usable(const vsym_coll_t *c, size_t bytes)
{
    return vsym_coll_ll_usable(c, bytes) && bytes <= c->blk_ll_max;
}

/* Whether a broadcast of bytes runs through the low-latency protocol: up to bc_ll_default_max,
 * or VSYM_COLL_LL_MAX where that is set. */
int vsym_coll_bc_ll_usable(const vsym_coll_t *c, size_t bytes)
{
    return c->all_direct && bytes <= c->bc_ll_max && ll_supported();
}

/* Whether an all-to-all of ordinary buffers, bytes of src, reads its blocks straight from the
 * peers' src with process-to-process copies (gather_pcopy): every peer on this node, from
 * VSYM_COLL_PCOPY_MIN, the algorithm left to the library or one-shot (what it replaces). One
 * copy of each byte where the scratch makes two (every block in, every block out), for the cost
 * of exposing src (a team exchange) and of the barrier that keeps it until every peer has read
 * it. Auto beyond 2 ranks from 1 MiB: 16-core Intel guest, src rewritten before every call
 * (vsym-bench --touch, as new data leaves it), 0.53-0.88 of the scratch's time at 1-4 MiB with 8
 * and 16 ranks (results/coll/device-16core-2026-11-27-stop36); 2-core host, 4 ranks 4 MiB
 * 1043-1356 us against 1914-2270 (src unchanged). Never by default between 2 ranks: there the
 * copies won only while src stayed as the last call left it (then clean and still in the
 * reader's cache: 0.52-0.85 at 32-512 KiB, stop 35); rewritten before each call, they read lines
 * the owner's core holds modified and took 1.4-1.7x the scratch's time at 64 KiB-1 MiB on the
 * Intel guest and 1.0-3x on the AMD host (results/coll/dev-2core-zen4-2026-11-27-stop36). Not for
 * the broadcast: one such copy took longer there than the scratch's two (the kernel's copy ran
 * at 8-9 GB/s where memcpy did 27-37 in cache; 1.3-2x slower). */
static int pcopy_allowed(const vsym_coll_t *c, size_t min, size_t bytes, vsym_coll_algo_t algo,
                         int chosen)
{
    return c->all_direct && min > 0 && bytes >= min && (chosen || algo == VSYM_COLL_ONESHOT);
}

/* The same for an all-gather of blk bytes a rank (gather_pcopy with blocks 0: every rank reads the
 * whole src of each peer), between 2 ranks only, from c->ag_pcopy_min (never by default: set
 * VSYM_COLL_PCOPY_MIN) until its stores into dst stream (dst_streams). With src unchanged
 * between calls 0.5-0.8 of the scratch's time at 64 KiB-1 MiB on the 2-core AMD host (stop 35);
 * with src rewritten before each call 1.1-1.9x there and 1.4-1.6x on the 16-core Intel guest at
 * 64 KiB-1 MiB (stop 36; pcopy_allowed says why). */
static int ag_pcopy_allowed(const vsym_coll_t *c, const void *src, const void *dst, size_t blk,
                            vsym_coll_algo_t algo, int chosen)
{
    const size_t all = (size_t)c->n * blk;
    return c->n == 2 && pcopy_allowed(c, c->ag_pcopy_min, blk, algo, chosen) &&
           apart(src, blk, dst, all) && !dst_streams(0, (blk + all) * (size_t)c->n);
}

/* The path of an all-reduce (of more than one rank and element) whose algorithm resolved to
 * algo (chosen: left to the library); *sb_p, *db_p the symmetric buffers of src and dst for
 * P_ZEROCOPY. Local. */
static coll_path_t ar_path(const vsym_coll_t *c, const void *src, const void *dst, size_t count,
                           vsym_dtype_t dtype, vsym_coll_algo_t algo, int chosen,
                           vsym_coll_buf_t **sb_p, vsym_coll_buf_t **db_p)
{
    const size_t bytes = count * vsym_dtype_size(dtype);
    /* src and dst (disjoint, or the same) in symmetric buffers: read and written in place. */
    if (zc_allowed(c, bytes, algo, chosen) && (src == dst || apart(src, bytes, dst, bytes))) {
        vsym_coll_buf_t *sb = vsym_coll_find_buf(c, src, bytes),
                        *db = sb ? vsym_coll_find_buf(c, dst, bytes) : NULL;
        if (db != NULL) {
            *sb_p = sb;
            *db_p = db;
            return P_ZEROCOPY;
        }
    }
    if (algo == VSYM_COLL_ONESHOT && vsym_coll_ll_usable(c, bytes)) return P_LL;
    if (algo == VSYM_COLL_ONESHOT && !c->all_direct)
        return vsym_team_num_nodes(c->team) > 1 && hier_regular(c) ? P_NODES : P_XCH;
    switch (algo) {
    case VSYM_COLL_ONESHOT:
        return P_ONESHOT;
    case VSYM_COLL_RING:
        return P_RING;
    case VSYM_COLL_RD:
        return P_RD;
    case VSYM_COLL_HIER:
        return P_HIER;
    default:
        return P_TWOSHOT;
    }
}

/* The buffer of a symmetric src that the all-gather, the all-to-all or the reduce-scatter reads
 * in place (gather_zerocopy, a2a_swap, rs_zerocopy), or NULL: zc_allowed, src in one of the
 * handle's buffers and apart from dst, or in place: the all-gather's src this rank's block of
 * dst, the reduce-scatter's dst this rank's block of src, the all-to-all's src its dst. Every
 * rank must pass the same kind of buffers at the same offsets. */
static vsym_coll_buf_t *zc_src_buf(const vsym_coll_t *c, const char *src, const char *dst,
                                   size_t src_bytes, size_t dst_bytes, size_t bytes,
                                   vsym_coll_algo_t algo, int chosen)
{
    if (!zc_allowed(c, bytes, algo, chosen)) return NULL;
    int own_block = (src_bytes < dst_bytes && src == dst + (size_t)c->me * src_bytes) ||
                    (dst_bytes < src_bytes && dst == src + (size_t)c->me * dst_bytes) ||
                    (src_bytes == dst_bytes && src == dst);
    return apart(src, src_bytes, dst, dst_bytes) || own_block
               ? vsym_coll_find_buf(c, src, src_bytes)
               : NULL;
}

/* The path of collective kind with the requested algorithm (AUTO, or one by name): what
 * vsym_coll_path names and every collective dispatches on. Local: the sub-teams of P_NODES and
 * P_HIER are made by the call that runs it. */
static vsym_status_t coll_plan(const vsym_coll_t *c, vsym_coll_kind_t kind, const void *src,
                               const void *dst, size_t count, vsym_dtype_t dtype,
                               vsym_coll_algo_t algo, coll_path_t *path_p, vsym_coll_buf_t **sb_p,
                               vsym_coll_buf_t **db_p)
{
    const int half =
        kind == VSYM_COLL_KIND_ALLREDUCE && (dtype == VSYM_DTYPE_F16 || dtype == VSYM_DTYPE_BF16);
    const int chosen = algo == VSYM_COLL_AUTO && c->env_algo == VSYM_COLL_AUTO;
    /* The bytes AUTO decides by: what a rank contributes, all blocks for the block-wise ones. */
    const int blocks = kind == VSYM_COLL_KIND_REDUCE_SCATTER || kind == VSYM_COLL_KIND_ALLTOALL;
    const size_t bytes = count * vsym_dtype_size(dtype) * (blocks ? (size_t)c->n : 1);
    VSYM_TRY(pick_algo(c, kind, algo, bytes, half, &algo));
    if (count == 0) {
        *path_p = P_NONE;
        return VSYM_OK;
    }
    if (c->n == 1) {
        *path_p = P_COPY;
        return VSYM_OK;
    }
    const int pow2 = (c->n & (c->n - 1)) == 0;
    const size_t blk = count * vsym_dtype_size(dtype), n = (size_t)c->n;
    vsym_coll_buf_t *zc = NULL;
    switch (kind) {
    case VSYM_COLL_KIND_ALLREDUCE:
        *path_p = ar_path(c, src, dst, count, dtype, algo, chosen, sb_p, db_p);
        break;
    case VSYM_COLL_KIND_ALLGATHER:
        zc = zc_src_buf(c, src, dst, blk, n * blk, bytes, algo, chosen);
        *path_p = zc                                                             ? P_ZEROCOPY
                  : algo == VSYM_COLL_ONESHOT && vsym_coll_blk_ll_usable(c, blk) ? P_LL
                  : algo == VSYM_COLL_RD && pow2                                 ? P_RD
                  : algo == VSYM_COLL_RING || algo == VSYM_COLL_RD               ? P_RING
                  : ag_pcopy_allowed(c, src, dst, blk, algo, chosen)             ? P_PCOPY
                  : c->all_direct                                                ? P_ONESHOT
                                                                                 : P_XCH;
        break;
    case VSYM_COLL_KIND_REDUCE_SCATTER:
        zc = zc_src_buf(c, src, dst, n * blk, blk, bytes, algo, chosen);
        *path_p = zc                                                                 ? P_ZEROCOPY
                  : algo == VSYM_COLL_ONESHOT && vsym_coll_blk_ll_usable(c, n * blk) ? P_LL
                  : algo == VSYM_COLL_RING                                           ? P_RING
                  : c->all_direct                                                    ? P_ONESHOT
                                                                                     : P_XCH;
        break;
    case VSYM_COLL_KIND_BROADCAST:
        /* dst, which every rank passes, decides: the root's src may be anything. */
        zc = zc_allowed(c, bytes, algo, chosen) && bytes >= bc_zerocopy_min(c)
                 ? vsym_coll_find_buf(c, dst, bytes)
                 : NULL;
        *path_p = zc                                                                    ? P_ZEROCOPY
                  : algo == VSYM_COLL_ONESHOT && vsym_coll_bc_ll_usable(c, bytes)       ? P_LL
                  : algo == VSYM_COLL_ONESHOT && !c->all_direct && bytes <= c->push_max ? P_PUSH
                  : algo == VSYM_COLL_TWOSHOT                                           ? P_TWOSHOT
                  : algo == VSYM_COLL_RING                                              ? P_CHAIN
                  : algo == VSYM_COLL_RD                                                ? P_TREE
                                                                                        : P_ONESHOT;
        break;
    default:
        zc = zc_src_buf(c, src, dst, n * blk, n * blk, bytes, algo, chosen);
        *path_p = zc                                                                 ? P_ZEROCOPY
                  : algo == VSYM_COLL_ONESHOT && vsym_coll_blk_ll_usable(c, n * blk) ? P_LL
                  : pcopy_allowed(c, c->pcopy_min, bytes, algo, chosen) &&
                          apart(src, n * blk, dst, n * blk)
                      ? P_PCOPY
                  : c->all_direct ? P_ONESHOT
                                  : P_XCH;
        break;
    }
    if (zc != NULL && sb_p != NULL) *sb_p = zc;
    return VSYM_OK;
}

/* The line round trip between team ranks 0 and 1, for VSYM_PUBLISH_STREAM auto
 * (vsym_util_publish_share): ordinary stores into the scratch cost the reader a fetch from the
 * writer's cache per line, fast where the cores lie near (a round trip of 100-150 ns on the 2-core
 * AMD hosts) and slow where they lie far (400-900 ns; the hypervisor moves the vCPUs between the
 * two states every few seconds to minutes), and then non-temporal stores, which leave the lines in
 * memory, are faster. The writer's own probe (a timed 4 KiB) told the two apart on the Zen 4 host
 * of stops 30-39 but not on the Zen 5 host of stop 40, where it took 0.1-0.4 us either way while
 * 2 ranks' all-reduce of 1 MiB from ordinary buffers took 200 us far without streaming, 90 us with
 * it, and near 59 us without against 100 with (results/coll/dev-2core-zen5-2026-11-28-stop40).
 * So where every rank has a core and auto decides, ranks 0 and 1 time three round trips of a line
 * between them at the first collective that publishes 8 KiB or more through the scratch (or reads
 * symmetric buffers directly from COLL_ZC_FAR_STREAM_MIN a rank: ar_zerocopy streams then), and
 * again once such calls have moved 16 MiB since (every 16th call of 1 MiB, every 1024th of 16
 * KiB: three round trips, 1.4 us far, cost 4-9 % of the all-reduce of 16-64 KiB every 16th call;
 * symmetric buffers count a 16th of their bytes: probed at every call from 16 MiB, the symmetric
 * all-reduce of 8-32 MiB took 1.03-1.11x the time, every 8th call of 32 MiB within the noise);
 * rank 0 stores the shortest in the team's record, and a writer streams while it is over 250 ns.
 * A round counts only where the two ranks ran on two CPUs throughout and took under 5 us.
 * Every rank counts the same calls and bytes (the path and size are the same on every rank), so
 * ranks 0 and 1 probe together; the others only count.
 * Where ranks share cores the two are seldom running at once (4 ranks on the 2 CPUs, far: rounds
 * of 14-240 us, through the scheduler), though streaming every publish ran the all-reduce of 1-4
 * MiB in 0.53-0.60 and the reduce-scatter in 0.62-0.68 of auto's time. There rank 0 alone times
 * the round trip between its CPU and the next one against a thread of its own pinned there
 * (vsym_util_thread_line_rtt: 100-160 ns near, 380-580 far on the 2-core Zen 5 host), at the
 * first such call and then at most once a second, by the clock (10 ms after a probe whose
 * thread did not run in time, then 20, 40, ...): the other ranks need not take part. A probe
 * costs rank 0 0.2-0.6 ms (the thread's start on a CPU that other ranks hold; 3.6 ms once in 13
 * when it did not run within the 2 ms the probe then allowed), and every 50 ms it
 * landed in the bench's timed loops often enough to show; the state lasts minutes. With it, 4
 * ranks far, streaming every publish of 8 KiB or more as with a core per rank, eight rounds
 * against 124aa5a, ordinary buffers: the all-reduce 0.64-0.85 of the time from 256 KiB, the
 * reduce-scatter 0.66-0.71 at 1-16 MiB, the all-to-all in place 0.60-0.75 from 64 KiB; streaming
 * from 32 or 128 KiB did no better (results/coll/dev-2core-zen5-2026-11-28-stop41). */
#define COLL_RTT_BYTES ((uint64_t)16 << 20)
#define COLL_RTT_ZC_SHARE 16
#define COLL_RTT_MIN_BYTES 8192 /* calls that publish less are not timed */
#define COLL_RTT_ROUNDS 3
#define COLL_RTT_SHARED_EVERY_NS 1000000000ull
/* After a probe whose thread did not run in time: again after 10 ms, then 20, 40, ... up to the
 * second (a short run would otherwise stay without a record till its end). */
#define COLL_RTT_SHARED_RETRY_NS 10000000ull
void vsym_coll_rtt_shared(vsym_coll_t *c, size_t bytes)
{
    if (c->me != 0 || c->n < 2 || !c->all_direct || bytes < COLL_RTT_MIN_BYTES ||
        vsym_util_core_per_rank() || !vsym_util_publish_auto())
        return;
    const uint64_t now = vsym_util_time_ns();
    if (c->rtt_last != 0 && now - c->rtt_last < c->rtt_wait) return;
    c->rtt_last = now;
    c->rtt_tries++;
    const uint64_t t = vsym_util_thread_line_rtt();
    if (t != 0) {
        __atomic_store_n(far_word(c, c->base) + 1, t, __ATOMIC_RELAXED);
        c->rtt_wait = COLL_RTT_SHARED_EVERY_NS;
    } else {
        c->rtt_wait = c->rtt_wait == 0 || c->rtt_wait >= COLL_RTT_SHARED_EVERY_NS
                          ? COLL_RTT_SHARED_RETRY_NS
                          : c->rtt_wait * 2;
        if (c->rtt_wait > COLL_RTT_SHARED_EVERY_NS) c->rtt_wait = COLL_RTT_SHARED_EVERY_NS;
    }
}

static vsym_status_t rtt_probe(vsym_coll_t *c, coll_path_t path, size_t bytes)
{
    if (c->n < 2 || !c->all_direct || bytes < COLL_RTT_MIN_BYTES || path == P_NONE ||
        path == P_COPY || (path == P_ZEROCOPY && bytes < COLL_ZC_FAR_STREAM_MIN) || path == P_LL ||
        path == P_PCOPY || !vsym_util_publish_auto())
        return VSYM_OK;
    if (!vsym_util_core_per_rank()) {
        if (path != P_ZEROCOPY) vsym_coll_rtt_shared(c, bytes);
        return VSYM_OK;
    }
    const int due = c->rtt_bytes == 0;
    c->rtt_bytes += path == P_ZEROCOPY ? bytes / COLL_RTT_ZC_SHARE : bytes;
    if (c->rtt_bytes >= COLL_RTT_BYTES) c->rtt_bytes = 0; /* the next such call probes */
    if (!due || c->me > 1) return VSYM_OK;
    /* A word: the round's number above the CPU its writer ran on (16 bits); a round counts only
     * where the two ran on two CPUs throughout. */
    uint64_t *mine = ping_word(c, c->base), best = UINT64_MAX;
    const uint64_t *other = ping_word(c, c->peer[c->me ^ 1]);
    for (int k = 0; k < COLL_RTT_ROUNDS; k++) {
        const uint64_t seq = ++c->rtt_seq << 16;
        if (c->me == 0) {
            const int cpu = sched_getcpu();
            const uint64_t t0 = vsym_util_time_ns();
            __atomic_store_n(mine, seq | (uint16_t)cpu, __ATOMIC_RELEASE);
            VSYM_TRY(counter_wait(c, other, seq, 1, "line round trip (its reply)"));
            const uint64_t t = vsym_util_time_ns() - t0;
            const int other_cpu = (int)(__atomic_load_n(other, __ATOMIC_ACQUIRE) & 0xffff);
            if (cpu >= 0 && other_cpu != (uint16_t)cpu && sched_getcpu() == cpu && t < best)
                best = t;
        } else {
            VSYM_TRY(counter_wait(c, other, seq, 0, "line round trip (its ping)"));
            __atomic_store_n(mine, seq | (uint16_t)sched_getcpu(), __ATOMIC_RELEASE);
        }
    }
    if (c->me == 0 && best < VSYM_UTIL_RTT_VALID_NS)
        __atomic_store_n(far_word(c, c->base) + 1, best, __ATOMIC_RELAXED);
    return VSYM_OK;
}

uint64_t vsym_coll_line_rtt(const vsym_coll_t *c)
{
    return c->all_direct ? __atomic_load_n(far_word(c, c->peer[0]) + 1, __ATOMIC_RELAXED) : 0;
}

/* The start of every collective: check the arguments (op_p: the reduction op, NULL for the
 * collectives that do not reduce), plan the path, and run the trivial ones (one rank copies).
 * *path_p is P_NONE when nothing is left to do. */
static vsym_status_t coll_begin(vsym_coll_t *c, vsym_coll_kind_t kind, const void *src, void *dst,
                                size_t count, vsym_dtype_t dtype, const vsym_red_op_t *op_p,
                                int root, vsym_coll_algo_t algo, coll_path_t *path_p,
                                vsym_coll_buf_t **sb_p, vsym_coll_buf_t **db_p)
{
    VSYM_TRY(check_args(c, kind, src, dst, count, dtype, root));
    if (op_p != NULL) VSYM_TRY(vsym_coll_check_dtype_op(dtype, *op_p, kind_names[kind]));
    VSYM_TRY(coll_plan(c, kind, src, dst, count, dtype, algo, path_p, sb_p, db_p));
    vsym_coll_publish_share(c);
    VSYM_TRY(rtt_probe(c, *path_p, count * vsym_dtype_size(dtype)));
    if (*path_p == P_COPY) {
        copy_bytes(dst, src, count * vsym_dtype_size(dtype));
        *path_p = P_NONE;
    }
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_coll_allreduce(vsym_coll_t *c, const void *src, void *dst, size_t count,
                                           vsym_dtype_t dtype, vsym_red_op_t op,
                                           vsym_coll_algo_t algo)
{
    vsym_coll_buf_t *sb = NULL, *db = NULL;
    coll_path_t path;
    VSYM_TRY(coll_begin(c, VSYM_COLL_KIND_ALLREDUCE, src, dst, count, dtype, &op, 0, algo, &path,
                        &sb, &db));
    switch (path) {
    case P_NONE:
        return VSYM_OK;
    case P_ZEROCOPY:
        return ar_zerocopy(c, sb, src, db, dst, count, dtype, op);
    case P_LL:
        return blocks_ll(c, 1, src, dst, count, vsym_dtype_size(dtype), dtype, op);
    case P_NODES:
        VSYM_TRY(hier_setup(c));
        return ar_oneshot_nodes(c, src, dst, count, dtype, op);
    case P_XCH:
        return xch_blocks(c, src, dst, count, 0, vsym_dtype_size(dtype), dtype, op);
    case P_ONESHOT:
        return ar_oneshot(c, src, dst, count, dtype, op);
    case P_RING:
        return ar_ring(c, src, dst, count, dtype, op);
    case P_RD:
        return ar_rd(c, src, dst, count, dtype, op);
    case P_HIER:
        VSYM_TRY(hier_setup(c));
        return ar_hier(c, src, dst, count, dtype, op);
    default:
        return ar_twoshot(c, src, dst, count, dtype, op);
    }
}

/* ---- All-gather --------------------------------------------------------------------------- */

static vsym_status_t ag_oneshot(vsym_coll_t *c, const char *src, char *dst, size_t count, size_t es)
{
    size_t maxe = c->chunk / es, len = count * es;
    const int stream = len >= c->ag_stream_min;
    /* This rank's block straight from src (in cache; a streamed publish left the scratch's copy
     * in memory; in place nothing to copy), unless src overlaps dst other than in place. */
    const int own = dst + (size_t)c->me * len == src || apart(src, len, dst, (size_t)c->n * len);
    const size_t all = (size_t)c->n * len;
    const int dstream = dst_streams(!apart(src, len, dst, all), (len + all) * (size_t)c->n);
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off);
        stream_publish(vsym_coll_bar_buf(c), src + off * es, m * es, stream);
        VSYM_TRY(vsym_coll_bar_sync(c));
        for (int r = 0; r < c->n; r++) {
            const char *p = src + off * es;
            if (!own || r != c->me) VSYM_TRY(vsym_coll_bar_peer(c, r, 0, m * es, &p));
            dst_copy(dst + ((size_t)r * count + off) * es, p, m * es, dstream);
        }
        vsym_coll_bar_next(c);
    }
    dst_fence(dstream);
    return VSYM_OK;
}

static vsym_status_t ag_ring(vsym_coll_t *c, const char *src, char *dst, size_t count, size_t es)
{
    int n = c->n, me = c->me, left = (me + n - 1) % n, right = (me + 1) % n;
    size_t maxe = c->chunk / es, all = (size_t)n * count * es;
    const int stream = dst_streams(!apart(src, count * es, dst, all), (count * es + all) * n);
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off), len = m * es;
        char *buf;
        VSYM_TRY(pw_acquire(c, parity_now(c), &buf));
        vsym_util_copy_publish(buf, src + off * es, len);
        dst_copy(dst + ((size_t)me * count + off) * es, src + off * es, len, stream);
        for (int step = 0; step < n - 1; step++) {
            int k = (me - step - 1 + n) % n;
            const char *l;
            VSYM_TRY(pw_publish(c, &right, 1));
            VSYM_TRY(pw_read(c, left, 0, len, &l));
            if (step < n - 2) {
                char *next;
                VSYM_TRY(pw_acquire(c, parity_now(c) ^ 1, &next));
                memcpy(next, l, len);
            }
            dst_copy(dst + ((size_t)k * count + off) * es, l, len, stream);
            VSYM_TRY(pw_done(c, left));
            pw_next(c);
        }
    }
    dst_fence(stream);
    return VSYM_OK;
}

/* Recursive doubling on a power-of-two team: the group of blocks held doubles every step. */
static vsym_status_t ag_rd(vsym_coll_t *c, const char *src, char *dst, size_t count, size_t es)
{
    int n = c->n, me = c->me;
    size_t maxe = c->chunk / es / (size_t)(n / 2);
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off), len = m * es;
        copy_bytes(dst + ((size_t)me * count + off) * es, src + off * es, len);
        for (int mask = 1; mask < n; mask <<= 1) {
            int partner = me ^ mask, mybase = me & ~(mask - 1), pbase = partner & ~(mask - 1);
            char *buf;
            const char *t;
            VSYM_TRY(pw_acquire(c, parity_now(c), &buf));
            for (int b = 0; b < mask; b++)
                vsym_util_copy_publish(buf + (size_t)b * len,
                                       dst + ((size_t)(mybase + b) * count + off) * es, len);
            VSYM_TRY(pw_publish(c, &partner, 1));
            VSYM_TRY(pw_read(c, partner, 0, (size_t)mask * len, &t));
            for (int b = 0; b < mask; b++)
                memcpy(dst + ((size_t)(pbase + b) * count + off) * es, t + (size_t)b * len, len);
            VSYM_TRY(pw_done(c, partner));
            pw_next(c);
        }
    }
    return VSYM_OK;
}

/* The all-gather (blocks 0) and the all-to-all (blocks 1) from a symmetric src read in place
 * (zc_src_buf): once every rank has entered (its src ready), each copies what it needs
 * straight from the peers' src into its dst (the whole src of each, or block me of it), from
 * its own on in rank order; a second synchronisation tells that no rank reads a src any more.
 * One copy of each byte instead of two through the scratch. An all-gather in place finds rank
 * r's block at block r of r's dst. */
static vsym_status_t gather_zerocopy(vsym_coll_t *c, const vsym_coll_buf_t *sb, const char *src,
                                     char *dst, size_t count, size_t es, int blocks)
{
    const size_t len = count * es, all = (size_t)c->n * len;
    const int inplace = !blocks && src == dst + (size_t)c->me * len;
    const char *base = inplace ? dst : src + (blocks ? (size_t)c->me * len : 0);
    const size_t off = (size_t)(base - sb->base);
    const int stream =
        vsym_util_cpu_amd() && dst_streams(inplace, ((blocks ? all : len) + all) * (size_t)c->n);
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_coll_bar_next(c);
    for (int i = 0; i < c->n; i++) {
        int r = (c->me + i) % c->n;
        dst_copy(dst + (size_t)r * len, sb->peer[r] + off + (inplace ? (size_t)r * len : 0), len,
                 stream);
    }
    dst_fence(stream);
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_coll_bar_next(c);
    return VSYM_OK;
}

/* The all-to-all in place in a symmetric buffer (zc_src_buf): block r of this rank's buffer and
 * block me of rank r's trade places, straight in both buffers, the two ranks of each pair
 * swapping half of the pair's elements each (the lower rank the first half) through a block on
 * the stack. Once every rank has entered (its buffer ready) no third rank touches those two
 * blocks; a second synchronisation tells that every swap is done. Each rank reads and writes
 * (n-1) x count elements, where the scratch moves every block in and out. */
static vsym_status_t a2a_swap(vsym_coll_t *c, const vsym_coll_buf_t *sb, char *buf, size_t count,
                              size_t es)
{
    enum { BLOCK = 8192 };
    _Alignas(64) char tmp[BLOCK];
    const size_t len = count * es, half = count / 2 * es, off = (size_t)(buf - sb->base);
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_coll_bar_next(c);
    for (int i = 1; i < c->n; i++) {
        int r = (c->me + i) % c->n;
        char *mine = buf + (size_t)r * len, *theirs = sb->peer[r] + off + (size_t)c->me * len;
        const size_t lo = c->me < r ? 0 : half, hi = c->me < r ? half : len;
        for (size_t o = lo; o < hi; o += BLOCK) {
            size_t m = min_sz(BLOCK, hi - o);
            memcpy(tmp, mine + o, m);
            memcpy(mine + o, theirs + o, m);
            memcpy(theirs + o, tmp, m);
        }
    }
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_coll_bar_next(c);
    return VSYM_OK;
}

/* The all-to-all from ordinary buffers: every rank exposes its src to the team for this call
 * (vsym_rendezvous), reads its block of every peer's straight into dst (vsym_get: a
 * process-to-process copy on shared memory), and frees the exposure, whose barrier keeps every
 * src until each peer has read it. A failed read still reaches that barrier, so that no peer
 * waits for this rank. */
/* The all-to-all (blocks 1: block me of each peer's src) or the all-gather (blocks 0: each
 * peer's whole src) read with process-to-process copies from the peers' src, exposed for the
 * call (a team exchange; freeing it is the barrier that keeps it until every peer has read it);
 * this rank's own block copied within its memory. */
static vsym_status_t gather_pcopy(vsym_coll_t *c, const char *src, char *dst, size_t count,
                                  size_t es, int blocks)
{
    const size_t len = count * es, mine = (size_t)c->me * len, at = blocks ? mine : 0;
    vsym_obj_t *o;
    vsym_status_t st = VSYM_OK;
    VSYM_TRY(
        vsym_rendezvous(c->team, (void *)(uintptr_t)src, blocks ? (size_t)c->n * len : len, &o));
    copy_bytes(dst + mine, src + at, len);
    for (int i = 1; i < c->n && st == VSYM_OK; i++) {
        int r = (c->me + i) % c->n;
        st = vsym_get(o, r, at, dst + (size_t)r * len, len);
    }
    vsym_status_t fst = vsym_obj_free(o);
    return st != VSYM_OK ? st : fst;
}

/* One-shot through the scratch for the block-wise collectives: every rank publishes its n
 * blocks, one barrier, every rank reads block me from every peer and, with dtype
 * VSYM_DTYPE_COUNT, places block r at dst + r x count (all-to-all), else reduces them with op in
 * rank order into dst (reduce-scatter). */
static vsym_status_t blocks_oneshot(vsym_coll_t *c, const char *src, char *dst, size_t count,
                                    size_t es, vsym_dtype_t dtype, vsym_red_op_t op)
{
    int n = c->n;
    size_t maxe = c->chunk / es / (size_t)n, all = (size_t)n * count * es;
    const void *srcs[n];
    /* A rank's own block, which no peer reads, is not published: the all-to-all copies it
     * straight from src to dst (nothing in place) unless src overlaps dst in another way; the
     * reduce-scatter reads it from src (same bits, same order) where dst lies apart from src. */
    const int own = dtype == VSYM_DTYPE_COUNT ? src == dst || apart(src, all, dst, all)
                                              : apart(src, all, dst, count * es);
    const size_t dlen = dtype == VSYM_DTYPE_COUNT ? all : count * es;
    const int stream = dst_streams(!apart(src, all, dst, dlen), (all + dlen) * (size_t)n);
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off), len = m * es;
        char *buf = vsym_coll_bar_buf(c);
        for (int j = 0; j < n; j++)
            if (j == c->me && !own) /* read back by this rank only: kept in its cache */
                memcpy(buf + (size_t)j * len, src + ((size_t)j * count + off) * es, len);
            else if (j != c->me)
                vsym_util_copy_publish(buf + (size_t)j * len, src + ((size_t)j * count + off) * es,
                                       len);
        VSYM_TRY(vsym_coll_bar_sync(c));
        for (int r = 0; r < n; r++) {
            srcs[r] = src + ((size_t)r * count + off) * es; /* own: block me */
            if (!own || r != c->me) VSYM_TRY(bar_peer_v(c, r, (size_t)c->me * len, len, &srcs[r]));
        }
        if (dtype != VSYM_DTYPE_COUNT)
            dst_reduce(dtype, op, dst + off * es, srcs, n, m, stream);
        else
            for (int r = 0; r < n; r++)
                dst_copy(dst + ((size_t)r * count + off) * es, srcs[r], len, stream);
        vsym_coll_bar_next(c);
    }
    dst_fence(stream);
    return VSYM_OK;
}

/* The all-gather (blocks 0) and the all-to-all (blocks 1): the same start and paths, but for
 * the ring and recursive doubling (all-gather only) and their one-shot through the scratch. */
static vsym_status_t gather_run(vsym_coll_t *c, int blocks, const void *src, void *dst,
                                size_t count, vsym_dtype_t dtype, vsym_coll_algo_t algo)
{
    size_t es = vsym_dtype_size(dtype);
    vsym_coll_buf_t *sb = NULL;
    coll_path_t path;
    VSYM_TRY(coll_begin(c, blocks ? VSYM_COLL_KIND_ALLTOALL : VSYM_COLL_KIND_ALLGATHER, src, dst,
                        count, dtype, NULL, 0, algo, &path, &sb, NULL));
    switch (path) {
    case P_NONE:
        return VSYM_OK;
    case P_ZEROCOPY:
        return blocks && src == dst ? a2a_swap(c, sb, dst, count, es)
                                    : gather_zerocopy(c, sb, src, dst, count, es, blocks);
    case P_PCOPY:
        return gather_pcopy(c, src, dst, count, es, blocks);
    case P_LL:
        return blocks_ll(c, !blocks, src, dst, count, es, VSYM_DTYPE_COUNT, VSYM_RED_SUM);
    case P_XCH:
        return xch_blocks(c, src, dst, count, blocks, es, VSYM_DTYPE_COUNT, VSYM_RED_SUM);
    case P_RD:
        return ag_rd(c, src, dst, count, es);
    case P_RING:
        return ag_ring(c, src, dst, count, es);
    default:
        return blocks ? blocks_oneshot(c, src, dst, count, es, VSYM_DTYPE_COUNT, VSYM_RED_SUM)
                      : ag_oneshot(c, src, dst, count, es);
    }
}

VSYM_API vsym_status_t vsym_coll_allgather(vsym_coll_t *c, const void *src, void *dst, size_t count,
                                           vsym_dtype_t dtype, vsym_coll_algo_t algo)
{
    return gather_run(c, 0, src, dst, count, dtype, algo);
}

/* ---- Reduce-scatter ----------------------------------------------------------------------- */

/* Ring reduce-scatter: rank r publishes block r-1-step; after n-1 steps it holds block r. */
static vsym_status_t rs_ring(vsym_coll_t *c, const char *src, char *dst, size_t count,
                             vsym_dtype_t dtype, vsym_red_op_t op)
{
    int n = c->n, me = c->me, left = (me + n - 1) % n, right = (me + 1) % n;
    size_t es = vsym_dtype_size(dtype), maxe = c->chunk / es, all = (size_t)n * count * es;
    const int stream = dst_streams(!apart(src, all, dst, count * es), (all + count * es) * n);
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off), len = m * es;
        char *buf;
        VSYM_TRY(pw_acquire(c, parity_now(c), &buf));
        vsym_util_copy_publish(buf, src + ((size_t)((me + n - 1) % n) * count + off) * es, len);
        for (int step = 0; step < n - 1; step++) {
            int k = (me - step - 2 + 2 * n) % n;
            const char *l;
            VSYM_TRY(pw_publish(c, &right, 1));
            VSYM_TRY(pw_read(c, left, 0, len, &l));
            const void *in[2] = {l, src + ((size_t)k * count + off) * es};
            if (step < n - 2) {
                char *next;
                VSYM_TRY(pw_acquire(c, parity_now(c) ^ 1, &next));
                vsym_coll_reduce_publish(dtype, op, next, in, 2, m);
            } else {
                dst_reduce(dtype, op, dst + off * es, in, 2, m, stream);
            }
            VSYM_TRY(pw_done(c, left));
            pw_next(c);
        }
    }
    dst_fence(stream);
    return VSYM_OK;
}

/* The reduce-scatter from a symmetric src read in place (zc_src_buf): once every rank has
 * entered, each reduces block me of every rank's src, in rank order, straight into its dst; a
 * second synchronisation tells that no rank reads a src any more. Each byte is read once, where
 * the one-shot through the scratch copies every block first. In place (dst is block me of src)
 * too: block me of a src is read by this rank alone, and each piece of it from every rank
 * before the result is stored. */
static vsym_status_t rs_zerocopy(vsym_coll_t *c, const vsym_coll_buf_t *sb, const char *src,
                                 char *dst, size_t count, vsym_dtype_t dtype, vsym_red_op_t op)
{
    const size_t blk = count * vsym_dtype_size(dtype), mine = (size_t)c->me * blk;
    const size_t off = (size_t)(src - sb->base) + mine;
    const int inplace = dst == src + mine;
    const void *srcs[c->n];
    for (int r = 0; r < c->n; r++)
        srcs[r] = sb->peer[r] + off;
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_coll_bar_next(c);
    /* Inputs that together fill half the last-level cache live in memory: dst written with
     * non-temporal stores where the kernel has them (as the all-reduce's pushes); not in place,
     * where the lines of dst were just read. vsym_coll_reduce takes dst as its first or second
     * source only; in place beyond rank 1 the pushing kernel, which reads every source of a
     * piece before it stores it. */
    void *d[1] = {dst};
    const int stream = !inplace && vsym_util_copy_streams((size_t)c->n * (size_t)c->n * blk);
    if (!stream || !vsym_coll_reduce_push_stream(dtype, op, d, 1, srcs, c->n, count)) {
        if (inplace && c->me > 1)
            vsym_coll_reduce_push(dtype, op, d, 1, srcs, c->n, count);
        else
            vsym_coll_reduce(dtype, op, dst, srcs, c->n, count);
    }
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_coll_bar_next(c);
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_coll_reduce_scatter(vsym_coll_t *c, const void *src, void *dst,
                                                size_t count, vsym_dtype_t dtype, vsym_red_op_t op,
                                                vsym_coll_algo_t algo)
{
    vsym_coll_buf_t *sb = NULL;
    coll_path_t path;
    VSYM_TRY(coll_begin(c, VSYM_COLL_KIND_REDUCE_SCATTER, src, dst, count, dtype, &op, 0, algo,
                        &path, &sb, NULL));
    switch (path) {
    case P_NONE:
        return VSYM_OK;
    case P_ZEROCOPY:
        return rs_zerocopy(c, sb, src, dst, count, dtype, op);
    case P_RING:
        return rs_ring(c, src, dst, count, dtype, op);
    case P_LL:
        return blocks_ll(c, 0, src, dst, count, vsym_dtype_size(dtype), dtype, op);
    case P_XCH:
        return xch_blocks(c, src, dst, count, 1, vsym_dtype_size(dtype), dtype, op);
    default:
        return blocks_oneshot(c, src, dst, count, vsym_dtype_size(dtype), dtype, op);
    }
}

/* ---- Broadcast ---------------------------------------------------------------------------- */

static vsym_status_t bc_oneshot(vsym_coll_t *c, const char *src, char *dst, size_t count, size_t es,
                                int root)
{
    size_t maxe = c->chunk / es;
    const int stream = count * es >= c->bc_stream_min;
    const int dstream = dst_streams(c->me == root && !apart(src, count * es, dst, count * es),
                                    bc_whole(c, count * es));
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off), len = m * es;
        if (c->me == root) stream_publish(vsym_coll_bar_buf(c), src + off * es, len, stream);
        VSYM_TRY(vsym_coll_bar_sync(c));
        if (c->me == root) {
            dst_copy(dst + off * es, src + off * es, len, dstream);
        } else {
            const char *p;
            VSYM_TRY(vsym_coll_bar_peer(c, root, 0, len, &p));
            dst_copy(dst + off * es, p, len, dstream);
        }
        vsym_coll_bar_next(c);
    }
    dst_fence(dstream);
    return VSYM_OK;
}

/* Through the low-latency protocol: the root publishes, the others read it as it arrives; no
 * barrier (vsym_coll_ll_begin makes a root wait only for ranks still reading its region). */
static vsym_status_t bc_ll(vsym_coll_t *c, const char *src, char *dst, size_t len, int root)
{
    uint64_t seq;
    VSYM_TRY(vsym_coll_ll_begin(c, c->me == root, &seq));
    if (c->me == root) {
        vsym_coll_ll_publish(c, seq, src, len);
        copy_bytes(dst, src, len);
    } else {
        VSYM_TRY(vsym_coll_ll_fetch(c, root, seq, len, 0, len));
        memcpy(dst, c->ll_tmp + (size_t)root * VSYM_COLL_LL_MAX, len);
    }
    vsym_coll_ll_end(c, seq, 0);
    return VSYM_OK;
}

/* Wait until rank r has finished push broadcast want (read through its mapping, or fetched). */
static vsym_status_t push_wait_done(vsym_coll_t *c, int r, uint64_t want)
{
    const char *peer = vsym_obj_peer_ptr(c->xch, r);
    /* Spin only on a mapped count: a fetched one is an RDMA read per poll. */
    coll_wait_t w = coll_wait_start(c, peer != NULL ? c->fast_spin : 0);
    for (;;) {
        uint64_t v;
        if (peer != NULL)
            v = __atomic_load_n((const uint64_t *)(const void *)(peer + push_done(c)),
                                __ATOMIC_ACQUIRE);
        else
            VSYM_TRY(vsym_get(c->xch, r, push_done(c), &v, sizeof(v)));
        if (v >= want) {
            c->push_known[r] = v;
            return VSYM_OK;
        }
        if (!coll_wait_step(&w))
            return VSYM_FAIL(VSYM_ERR_TIMED_OUT,
                             "broadcast (push): timed out after %.2f s waiting for team rank %d "
                             "(world rank %d) to finish call %llu (it is at %llu)",
                             coll_wait_elapsed(&w), r, vsym_team_world_rank(c->team, r),
                             (unsigned long long)want, (unsigned long long)v);
    }
}

/* Peers over verbs, up to VSYM_COLL_NET_BCAST_MAX: the root writes the vector as flagged words
 * into every other rank's slot of the call (one write each), they unpack it as it arrives; no
 * barrier. A rank's slot of call seq last held call seq - COLL_PUSH_SLOTS, so the root first
 * makes sure that rank has finished that call: from what it last learnt of its count, else by
 * reading the count (once in COLL_PUSH_SLOTS - 1 calls when it runs ahead). */
static vsym_status_t bc_push(vsym_coll_t *c, const char *src, char *dst, size_t len, int root)
{
    if (c->xch == NULL) VSYM_TRY(xch_setup(c));
    const int n = c->n, me = c->me;
    const uint64_t seq = ++c->push_seq;
    const uint32_t flag = xll_flag(seq);
    const size_t slot = push_slot(c, seq);
    if (me == root) {
        const char *packed = NULL;
        for (int i = 1; i < n; i++) {
            int r = (me + i) % n;
            if (seq > COLL_PUSH_SLOTS && c->push_known[r] < seq - COLL_PUSH_SLOTS)
                VSYM_TRY(push_wait_done(c, r, seq - COLL_PUSH_SLOTS));
            VSYM_TRY(xll_send(c, r, slot, src, len, flag, &packed));
        }
        if (dst != src) memmove(dst, src, len);
    } else {
        VSYM_TRY(xll_receive(c, slot, root, seq, len, dst));
    }
    __atomic_store_n((uint64_t *)(void *)(c->xch_base + push_done(c)), seq, __ATOMIC_RELEASE);
    return VSYM_OK;
}

/* Scatter from the root, then all-gather: the root's data is read once in total. */
static vsym_status_t bc_twoshot(vsym_coll_t *c, const char *src, char *dst, size_t count, size_t es,
                                int root)
{
    int n = c->n;
    size_t maxe = c->chunk / es;
    const int stream = dst_streams(c->me == root && !apart(src, count * es, dst, count * es),
                                   bc_whole(c, count * es));
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off);
        size_t lo = seg_lo(m, n, c->me), hi = seg_lo(m, n, c->me + 1);
        if (c->me == root) vsym_util_copy_publish(vsym_coll_bar_buf(c), src + off * es, m * es);
        VSYM_TRY(vsym_coll_bar_sync(c));
        const char *p;
        VSYM_TRY(vsym_coll_bar_peer(c, root, lo * es, (hi - lo) * es, &p));
        vsym_coll_bar_next(c);
        vsym_util_copy_publish(vsym_coll_bar_buf(c) + lo * es, p, (hi - lo) * es);
        VSYM_TRY(vsym_coll_bar_sync(c));
        VSYM_TRY(gather_segments(c, n, dst, off, m, es, stream));
        vsym_coll_bar_next(c);
    }
    dst_fence(stream);
    return VSYM_OK;
}

/* Buffer b's position in the handle's list, and the buffer at position i (NULL beyond the
 * list): the buffers are made and freed collectively, so a position names the same buffer on
 * every rank (which the buffer's serial, sent with it, checks). */
static uint64_t buf_index(const vsym_coll_t *c, const vsym_coll_buf_t *b)
{
    uint64_t i = 0;
    for (const vsym_coll_buf_t *x = c->bufs; x != NULL && x != b; x = x->next)
        i++;
    return i;
}

static const vsym_coll_buf_t *buf_at(const vsym_coll_t *c, uint64_t i)
{
    const vsym_coll_buf_t *x = c->bufs;
    for (; x != NULL && i > 0; x = x->next)
        i--;
    return x;
}

/* The broadcast into dst buffers that lie in the handle's symmetric buffers on every rank (at
 * any offsets). The root names, in its scratch region, where the others read the vector: its
 * src when src lies in one of the handle's symmetric buffers (its own copy into dst, out of
 * place, then runs while they read), else its dst, after copying src there. Once every rank has
 * entered, each other rank copies it from there straight into its dst; a second synchronisation
 * tells the root that no rank reads its memory any more. No scratch, no chunks: each rank copies
 * the vector once, the root at most once. (The root does not rewrite a buffer the others have just
 * read, which costs a cache invalidation per line: its src is only read.) */
static vsym_status_t bc_zerocopy(vsym_coll_t *c, const vsym_coll_buf_t *db, const char *src,
                                 char *dst, size_t len, int root)
{
    const vsym_coll_buf_t *from = db;
    const char *where = dst;
    const int stream = vsym_util_cpu_amd() &&
                       dst_streams(c->me == root && !apart(src, len, dst, len), bc_whole(c, len));
    if (c->me == root) {
        const vsym_coll_buf_t *sb = vsym_coll_find_buf(c, src, len);
        if (sb != NULL && apart(src, len, dst, len)) {
            from = sb;
            where = src;
        } else {
            dst_copy(dst, src, len, stream);
            dst_fence(stream);
        }
        uint64_t at[3] = {buf_index(c, from), (uint64_t)(where - from->base), from->serial};
        memcpy(vsym_coll_bar_buf(c), at, sizeof(at));
    }
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_status_t st = VSYM_OK;
    if (c->me == root) {
        if (where != dst) dst_copy(dst, src, len, stream);
    } else {
        const char *p;
        uint64_t at[3];
        VSYM_TRY(vsym_coll_bar_peer(c, root, 0, sizeof(at), &p));
        memcpy(at, p, sizeof(at));
        from = buf_at(c, at[0]);
        if (from == NULL || from->serial != at[2] || at[1] > from->size || len > from->size - at[1])
            /* Reported here; the second synchronisation still runs, so the root returns. */
            st = VSYM_FAIL(VSYM_ERR_MISMATCH,
                           "broadcast: root %d names %zu bytes at %llu of the symmetric buffer "
                           "made %llu-th of its handle, at position %llu of its list; this rank "
                           "holds %s there (buffers made or freed in another order?)",
                           root, len, (unsigned long long)at[1], (unsigned long long)at[2],
                           (unsigned long long)at[0],
                           from == NULL ? "no buffer" : "another buffer, or a smaller one");
        else
            dst_copy(dst, from->peer[root] + at[1], len, stream);
    }
    dst_fence(stream);
    vsym_coll_bar_next(c);
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_coll_bar_next(c);
    return st;
}

/* Chain (ring) or binomial tree (rd) of pairwise hand-offs, in rank order relative to root. */
static vsym_status_t bc_tree(vsym_coll_t *c, const char *src, char *dst, size_t count, size_t es,
                             int root, int binomial)
{
    int n = c->n, rel = (c->me - root + n) % n;
    size_t maxe = c->chunk / es;
    for (size_t off = 0; off < count; off += maxe) {
        size_t m = min_sz(maxe, count - off), len = m * es;
        const char *have = rel == 0 ? src + off * es : dst + off * es;
        if (rel == 0) copy_bytes(dst + off * es, src + off * es, len);
        int steps = 0;
        if (binomial) {
            while ((1 << steps) < n)
                steps++;
        } else {
            steps = n - 1;
        }
        for (int s = 0; s < steps; s++) {
            int from, to; /* relative ranks of this step's hand-offs that involve me */
            if (binomial) {
                int mask = 1 << s;
                from = rel >= mask && rel < 2 * mask ? rel - mask : -1;
                to = rel < mask && rel + mask < n ? rel + mask : -1;
            } else {
                from = rel == s + 1 ? s : -1;
                to = rel == s ? s + 1 : -1;
            }
            if (to >= 0) {
                char *buf;
                int peer = (to + root) % n;
                VSYM_TRY(pw_acquire(c, parity_now(c), &buf));
                vsym_util_copy_publish(buf, have, len);
                VSYM_TRY(pw_publish(c, &peer, 1));
            }
            if (from >= 0) {
                const char *t;
                int peer = (from + root) % n;
                VSYM_TRY(pw_read(c, peer, 0, len, &t));
                memcpy(dst + off * es, t, len);
                VSYM_TRY(pw_done(c, peer));
            }
            pw_next(c);
        }
    }
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_coll_broadcast(vsym_coll_t *c, const void *src, void *dst, size_t count,
                                           vsym_dtype_t dtype, int root, vsym_coll_algo_t algo)
{
    size_t es = vsym_dtype_size(dtype);
    vsym_coll_buf_t *db = NULL;
    coll_path_t path;
    VSYM_TRY(coll_begin(c, VSYM_COLL_KIND_BROADCAST, src, dst, count, dtype, NULL, root, algo,
                        &path, &db, NULL));
    /* A root's src overlapping its dst (not the same): moved into dst first, then sent from
     * there, as in place. The paths copy and send piece by piece, and a piece copied into dst
     * would overwrite src not yet sent (bc_zerocopy moves it whole itself). */
    if (c->me == root && src != dst && path != P_NONE && path != P_ZEROCOPY &&
        !apart(src, count * es, dst, count * es)) {
        memmove(dst, src, count * es);
        src = dst;
    }
    switch (path) {
    case P_NONE:
        return VSYM_OK;
    case P_ZEROCOPY:
        return bc_zerocopy(c, db, src, dst, count * es, root);
    case P_LL:
        return bc_ll(c, src, dst, count * es, root);
    case P_PUSH:
        return bc_push(c, src, dst, count * es, root);
    case P_TWOSHOT:
        return bc_twoshot(c, src, dst, count, es, root);
    case P_CHAIN:
        return bc_tree(c, src, dst, count, es, root, 0);
    case P_TREE:
        return bc_tree(c, src, dst, count, es, root, 1);
    default:
        return bc_oneshot(c, src, dst, count, es, root);
    }
}

/* ---- All-to-all --------------------------------------------------------------------------- */

/* Every algorithm of the all-to-all is the one-shot exchange. */
VSYM_API vsym_status_t vsym_coll_alltoall(vsym_coll_t *c, const void *src, void *dst, size_t count,
                                          vsym_dtype_t dtype, vsym_coll_algo_t algo)
{
    return gather_run(c, 1, src, dst, count, dtype, algo);
}

/* ---- The path of a call ------------------------------------------------------------------- */

VSYM_API const char *vsym_coll_path(vsym_coll_t *c, vsym_coll_kind_t kind, const void *src,
                                    const void *dst, size_t count, vsym_dtype_t dtype, int root,
                                    vsym_coll_algo_t algo)
{
    vsym_coll_buf_t *sb = NULL, *db = NULL;
    coll_path_t path;
    if (check_args(c, kind, src, dst, count, dtype, root) != VSYM_OK ||
        coll_plan(c, kind, src, dst, count, dtype, algo, &path, &sb, &db) != VSYM_OK)
        return NULL;
    return path_names[path];
}
