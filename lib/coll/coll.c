/* Collective handles: create and destroy, the symmetric buffers, the path each call takes (the
 * algorithm rules and the settings that override them), and the line round-trip probe that
 * decides where publishes stream. The collectives themselves: allreduce.c, gather.c (all-gather,
 * reduce-scatter, all-to-all), broadcast.c; the synchronisation they share (barrier model,
 * low-latency protocol, push exchange, pairwise model): sync.c; the reduction kernels: dtype.c;
 * the fused collectives and their autotune: fused.c, autotune.c. */
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
 * Between 2 ranks, up to 256 B (COLL_BC_LL_MAX_2). Where the two cores lie near, the scratch's one
 * barrier was as fast at 128-256 B and faster from 512 B (2-core Zen 4 host, medians of three
 * launches taking turns, time lines / scratch: 8-32 B 0.57-0.87, 64 B 0.79-1.11, 128 B
 * 1.01-1.08, 256 B 1.07-1.12, 512 B 0.25-0.88 us against 0.10-0.18;
 * results/coll/dev-2core-zen4-2026-11-27-stop34), so the limit was 64 B; but where they lie far,
 * as the 2-core hosts mostly do, that barrier is a round trip of 0.3-0.5 us and the lines win to
 * 512 B (2-core Zen 5 host, far, 8 rounds taking turns, time with 64 B / with 256 B: 1.74-2.22 at
 * 128-256 B, Open MPI's MPI_Bcast 0.21-0.25 us there, vsym 0.33-0.37 before, 0.16-0.20 after),
 * and so they do on the 16-core Intel guest (30 rounds: 1.33-1.56 at 128-256 B; Open MPI
 * 0.24-0.32 us, vsym 0.32-0.37 before, 0.23-0.27 after); results/coll/dev-2core-zen5-2026-11-28-
 * stop49, device-16core-2026-11-29-stop49; on the Zen 5 host near, 6 rounds: 1.13-1.91 at 128-256
 * B too). At 512 B they won far (0.24 us against 0.34) and lost near on the Zen 4 host, where the
 * barrier stays. */
#define COLL_BC_LL_MAX_2 256 /* between 2 ranks */
static size_t bc_ll_default_max(int n)
{
    return n <= 2 ? COLL_BC_LL_MAX_2 : vsym_util_core_per_rank() ? 1024 : 2048;
}

/* VSYM_COLL_ZEROCOPY_MIN auto: symmetric buffers read in place from 4 KiB, but the all-reduce's
 * (which pushes each reduced segment into every rank's dst, where the caller then reads it from
 * the pusher's cache) out of place from 1 MiB, and in place beyond 4 ranks from 256 KiB (beyond 8
 * ranks 1 MiB). Timed with the input rewritten before each call and the result read after it
 * (vsym-bench allreduce --touch --consume), the library's paths against VSYM_COLL_ZEROCOPY_MIN=1G
 * (symmetric buffers through the scratch as ordinary ones), medians of two launches: 16-core
 * Intel guest, out of place 0.40-0.89 of the scratch's speed at 4-256 KiB on 2, 4, 8 and 16
 * ranks, 0.91-1.25 at 1 MiB, 1.43-2.20 at 4 MiB; in place 1.08-1.74 from 4 KiB on 2 and 4 ranks,
 * on 8 ranks 0.84-0.96 to 64 KiB and 1.00-1.61 from 256 KiB, on 16 ranks 0.80-0.97 to 256 KiB,
 * 1.03 at 1 MiB, 2.11-2.42 at 4 MiB; 2-vCPU Intel guest, 2 and 4 ranks, three launches, out of
 * place 0.44-0.75 at 4-64 KiB (1.00 at 64 KiB on 4), 0.94-0.98 at 256 KiB, 1.26-1.66 at 1 MiB
 * (results/coll/device-16core-2026-11-29-stop54, dev-2core-intel-2026-11-29-stop54).
 * On AMD CPUs, up to 4 ranks, in place from 16 KiB; out of place between 2 ranks with a core each
 * from 16 KiB too, and where ranks share cores from 4 MiB: 2-core Zen 5 guest, six launches
 * taking turns, the same ratio: 2 ranks out of place 0.58 at 4 KiB, 1.47-1.92 at 16 KiB-4 MiB; in
 * place 0.97 at 4 KiB, 1.72-3.63 from 16 KiB; 4 ranks (on the 2 cores) out of place 0.61 at 4
 * KiB, 0.89-0.93 at 16-64 KiB, 0.44-0.54 at 256 KiB-1 MiB (launches either 1.1x faster or 3x
 * slower), 1.36 at 4 MiB; in place 0.69 at 4 KiB, 1.04-1.42 from 16 KiB
 * (results/coll/dev-2core-zen5-2026-12-01-stop55, run 1). Between 2 ranks launches there are
 * either fast or slow in place out of place (16 KiB 1.6-2.0 us or 5.5-6.5, 256 KiB 15-20 or
 * 64-71; through the scratch 2.9-3.9 and 31-40 in all): the slow ones those whose vCPUs lay far
 * apart (a line's round trip over 400 ns; table5), 4 of 10, where the stores into the peer's dst
 * cross the host's dies; in place wins in both states. Out of place the path follows the state
 * the team agreed at its last round trip (cores_far: ar_zc_far_rule, rtt_tell), between 2 ranks
 * with a core each and up to 4 ranks sharing cores. More ranks on AMD are not measured: the rule
 * of other CPUs there (ranks sharing cores: from 4 MiB).
 * Without the read (the benchmarks' default, as nccl-tests) the pushes had looked faster from 4
 * KiB: their cost moves to the caller's first read. */
#define COLL_ZC_MIN 4096
#define COLL_BLK_ZC_MIN ((size_t)2 << 20)
#define COLL_A2A_SWAP_MIN ((size_t)32 << 10)
#define COLL_AR_ZC_OUT_MIN ((size_t)1 << 20)
#define COLL_AR_ZC_IN_MIN_8 ((size_t)256 << 10)
#define COLL_AR_ZC_IN_MIN_MANY ((size_t)1 << 20)
#define COLL_AR_ZC_MIN_AMD ((size_t)16 << 10)
#define COLL_AR_ZC_OUT_MIN_AMD_SHARED ((size_t)4 << 20)
#define COLL_AR_ZC_OUT_MIN_AMD_SHARED_NEAR ((size_t)256 << 10)
/* The all-reduce's out of place while the cores lie far (cores_far), where the rule (near_min,
 * also while the state is unknown) is AMD's: between 2 ranks with a core each from 8 MiB (near
 * 16 KiB), up to 4 ranks sharing cores from 4 MiB (near 256 KiB). 2-core Zen 5 guest, launches
 * taking turns, input rewritten before each call and the result read after it, medians of the
 * launches by the state their rows ran in, in place against the scratch
 * (results/coll/dev-2core-zen5-2026-12-02-stop56):
 *  - 2 ranks (runs 1-2), far (3-4 of 20 launches each way): 16 KiB-4 MiB 1.3-2.5x its time (16
 *    KiB 5.6 us against 2.6-3.3, 1 MiB 183-196 against 108-116), 8 MiB 0.86 (1279 against 1480
 *    us), 16 MiB 0.64-0.66; near (6-17 launches) 0.53-0.97 of its time from 16 KiB;
 *  - 4 ranks (run 4, 16 launches each way, 5-7 far): near 1.13x its time at 64 KiB, 0.85 at 256
 *    KiB, 0.66 at 1 MiB (130 us against 196); far 1.5-1.7x at 64 KiB-1 MiB (1 MiB 516 against
 *    342), 0.93 at 4 MiB. */
#define COLL_AR_ZC_OUT_MIN_AMD_FAR ((size_t)8 << 20)
static size_t ar_zc_far_rule(int n, size_t near_min)
{
    if (!vsym_util_cpu_amd()) return near_min;
    if (vsym_util_core_per_rank()) return n == 2 ? COLL_AR_ZC_OUT_MIN_AMD_FAR : near_min;
    return n >= 2 && n <= 4 ? COLL_AR_ZC_OUT_MIN_AMD_SHARED : near_min;
}

static size_t ar_zc_rule(int n, int in_place)
{
    const int amd = vsym_util_cpu_amd(), own = vsym_util_core_per_rank();
    if (!in_place)
        return !amd ? COLL_AR_ZC_OUT_MIN
               : !own
                   ? (n <= 4 ? COLL_AR_ZC_OUT_MIN_AMD_SHARED_NEAR : COLL_AR_ZC_OUT_MIN_AMD_SHARED)
               : n <= 2 ? COLL_AR_ZC_MIN_AMD
                        : COLL_AR_ZC_OUT_MIN;
    return n <= 4   ? (amd ? COLL_AR_ZC_MIN_AMD : COLL_ZC_MIN)
           : n <= 8 ? COLL_AR_ZC_IN_MIN_8
                    : COLL_AR_ZC_IN_MIN_MANY;
}

/* The limit VSYM_COLL_STREAM_MIN gives (setting: SIZE_MAX for auto, 0 never): auto is amd_min on
 * AMD CPUs of family 25 and before, never elsewhere. Broadcast and all-gather of ordinary buffers,
 * time cached / time streamed, medians of the launches of stop 30:
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
 * 256 KiB 70-75 -> 30-33 us), 0.96-1.13 beyond, where both stream: so from 4 KiB there.
 * The Zen 5 guest (family 26; stop 57, the benchmarks' buffers written since stop 52), launches
 * taking turns, auto against never, time never / auto: near (111 launches each) the broadcast
 * 0.40-0.87 at 64 KiB-4 MiB between 2 ranks and 0.69-0.82 at 4, the all-gather at 4 ranks
 * 0.66-0.73 at 16 KiB-4 MiB; far (2-3 launches each) 0.80-1.08. So auto streams them on AMD CPUs
 * of family 25 only (vsym_util_amd_streams_near; results/coll/dev-2core-zen5-2026-12-02-stop57). */
static size_t stream_min(size_t setting, size_t amd_min)
{
    if (setting == 0) return SIZE_MAX; /* never */
    if (setting != SIZE_MAX) return setting;
    return vsym_util_amd_streams_near() ? amd_min : SIZE_MAX;
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
        c->ll_next_max = vsym_coll_ll_next_max();
        c->blk_ll_max = ll >= 0 || c->n > 2 ? c->ll_max : COLL_BLK_LL_MAX_2;
    }
    c->zc_min = vsym_config_size(VSYM_CFG_COLL_ZEROCOPY_MIN);
    c->zc_auto = c->zc_min == SIZE_MAX;
    if (c->zc_auto) c->zc_min = COLL_ZC_MIN;
    c->ar_zc_min[0] = c->zc_auto ? ar_zc_rule(c->n, 0) : c->zc_min;
    c->ar_zc_min[1] = c->zc_auto ? ar_zc_rule(c->n, 1) : c->zc_min;
    c->cores_far = -1;
    c->all_direct = 1;
    for (int r = 0; r < c->n; r++) {
        c->peer[r] = r == c->me ? c->base : vsym_obj_peer_ptr(c->scratch, r);
        if (c->peer[r] == NULL) c->all_direct = 0;
    }
    /* The cores' state is found only where every rank reaches the others by load and store
     * (rtt_probe), as the in-place path needs; elsewhere one limit. */
    c->ar_zc_far_min = !c->zc_auto      ? c->zc_min
                       : !c->all_direct ? c->ar_zc_min[0]
                                        : ar_zc_far_rule(c->n, c->ar_zc_min[0]);
    /* 0 (never) unless every rank is reached by process-to-process copies (none over verbs). */
    const size_t pcopy_set = vsym_config_size(VSYM_CFG_COLL_PCOPY_MIN); /* SIZE_MAX: auto */
    const int amd = vsym_util_cpu_amd();
    c->pcopy_min = pcopy_set != SIZE_MAX ? pcopy_set
                   : c->n > 2            ? COLL_PCOPY_MIN
                   : amd                 ? 0
                                         : COLL_PCOPY_MIN_2;
    c->ag_pcopy_min = pcopy_set != SIZE_MAX ? pcopy_set : amd ? 0 : COLL_AG_PCOPY_MIN_2;
    /* The all-reduce's: see ar_pcopy_allowed */
    c->ar_pcopy_min = pcopy_set != SIZE_MAX        ? pcopy_set
                      : amd                        ? 0
                      : c->n == 2                  ? COLL_AR_PCOPY_MIN_2
                      : !vsym_util_core_per_rank() ? COLL_AR_PCOPY_MIN
                      : c->n <= 4                  ? COLL_AR_PCOPY_MIN_OWN
                                                   : 0;
    for (int r = 0; r < c->n; r++)
        if (!vsym_team_process_copy(team, r)) c->pcopy_min = c->ag_pcopy_min = c->ar_pcopy_min = 0;
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

VSYM_API vsym_status_t vsym_coll_destroy(vsym_coll_t *c)
{
    if (c == NULL) return VSYM_OK;
    /* Consume the "done" signals still owed to us, so the pad is all zeros when freed. */
    vsym_status_t st = vsym_coll_pw_drain(c, 0);
    vsym_status_t st2 = vsym_coll_pw_drain(c, 1);
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
    free(c->pcopy_tmp);
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

static const char *const kind_names[VSYM_COLL_KIND_COUNT] = {
    "broadcast", "allgather", "reduce_scatter", "allreduce", "alltoall"};

VSYM_API const char *vsym_coll_kind_name(vsym_coll_kind_t kind)
{
    return ((unsigned)kind < VSYM_COLL_KIND_COUNT) ? kind_names[kind] : "?";
}

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
 * Local: the sub-teams HIER runs on are made by the call that runs it (vsym_coll_hier_setup). */
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
    if (algo == VSYM_COLL_HIER && (kind != VSYM_COLL_KIND_ALLREDUCE || !vsym_coll_hier_regular(c)))
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
    size_t es = vsym_dtype_size(dtype), total;
    /* A multiplication, not SIZE_MAX / es / n: two divisions were 40% of vsym_fused_run's own
     * samples (perf, 2 ranks, 8 B; its own time 4% of the call's); the 8 B-1 KiB all-reduce and
     * fused calls of 2 and 4 ranks then ran level (medians of old / new 0.98-1.02 over six rounds;
     * results/coll/dev-2core-intel-2026-11-29-stop52). */
    if (__builtin_mul_overflow(count, es * (size_t)c->n, &total))
        return VSYM_FAIL(VSYM_ERR_BAD_SIZE, "%s: count %zu of %s overflows", what, count,
                         vsym_dtype_name(dtype));
    if (count > 0 && (dst == NULL || src == NULL))
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "%s: NULL %s buffer with count %zu", what,
                         dst ? "source" : "destination", count);
    return VSYM_OK;
}

/* ---- Hierarchical ------------------------------------------------------------------------- */

/* Sub-teams for two-level algorithms: the ranks of each node, and the ranks of equal local
 * rank across nodes. Needs a node-major team with the same number of ranks on every node. */
int vsym_coll_hier_regular(const vsym_coll_t *c)
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

vsym_status_t vsym_coll_hier_setup(vsym_coll_t *c)
{
    if (c->hier_state != 0) return VSYM_OK;
    const int regular = vsym_coll_hier_regular(c);
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

/* Whether an all-to-all of ordinary buffers, bytes of src, reads its blocks straight from the
 * peers' src with process-to-process copies (gather_pcopy): every peer on this node, from
 * VSYM_COLL_PCOPY_MIN, the algorithm left to the library or one-shot (what it replaces). One
 * copy of each byte where the scratch makes two (every block in, every block out), for the cost
 * of exposing src (a team exchange) and of the barrier that keeps it until every peer has read
 * it. Auto beyond 2 ranks from 1 MiB: 16-core Intel guest, src rewritten before every call
 * (vsym-bench --touch, as new data leaves it), 0.53-0.88 of the scratch's time at 1-4 MiB with 8
 * and 16 ranks (results/coll/device-16core-2026-11-27-stop36); 2-core host, 4 ranks 4 MiB
 * 1043-1356 us against 1914-2270 (src unchanged). Between 2 ranks, small blocks won only while
 * src stayed as the last call left it (then clean and still in the reader's cache: 0.52-0.85 at
 * 32-512 KiB, stop 35); rewritten before each call, they read lines the owner's core holds
 * modified and took 1.4-1.7x the scratch's time at 64 KiB-1 MiB on the Intel guest and 1.0-3x on
 * the AMD host (results/coll/dev-2core-zen4-2026-11-27-stop36). From blocks of 2 MiB they win
 * both ways on Intel's: src rewritten each call, medians of six rounds, 4-16 MiB of src 0.77-0.82
 * of the scratch's time on the 2-vCPU guest and 0.72-0.78 on the 16-core one (Open MPI's
 * MPI_Alltoall 0.98-1.02 and 1.32-1.39x their time), 32 MiB 0.99-1.02; src unchanged
 * 0.62-0.83; at 1 MiB of src 1.25-1.27x slower rewritten, 2 MiB 0.89-0.91 (results/coll/
 * dev-2core-intel-2026-11-29-stop51, device-16core-2026-11-29-stop51). So between 2 ranks from
 * 4 MiB of src, not on AMD CPUs (not measured there from 2 MiB blocks). Not for the broadcast:
 * one such copy took longer there than the scratch's two (the kernel's copy ran at 8-9 GB/s
 * where memcpy did 27-37 in cache; 1.3-2x slower). */
static int pcopy_allowed(const vsym_coll_t *c, size_t min, size_t bytes, vsym_coll_algo_t algo,
                         int chosen)
{
    return c->all_direct && min > 0 && bytes >= min && (chosen || algo == VSYM_COLL_ONESHOT);
}

/* The same for an all-gather of blk bytes a rank (gather_pcopy with blocks 0: every rank reads the
 * whole src of each peer), between 2 ranks only, from c->ag_pcopy_min (auto: 2 MiB a rank, never
 * on AMD CPUs) until its stores into dst stream (dst_streams). With src unchanged between calls
 * 0.5-0.8 of the scratch's time at 64 KiB-1 MiB on the 2-core AMD host (stop 35); with src
 * rewritten before each call 1.1-1.9x there and 1.4-1.6x on the 16-core Intel guest at 64
 * KiB-1 MiB (stop 36; pcopy_allowed says why), and at 1 MiB a rank 1.28-1.44x on both Intel
 * guests; from 2 MiB a rank rewritten 0.87-0.90 on the 2-vCPU guest (to 8 MiB; beyond, its
 * stores stream) and 0.80-0.94 on the 16-core one (to 16 MiB), unchanged 0.61-0.73 (stop 51). */
static int ag_pcopy_allowed(const vsym_coll_t *c, const void *src, const void *dst, size_t blk,
                            vsym_coll_algo_t algo, int chosen)
{
    const size_t all = (size_t)c->n * blk;
    return c->n == 2 && pcopy_allowed(c, c->ag_pcopy_min, blk, algo, chosen) &&
           apart(src, blk, dst, all) && !dst_streams(0, (blk + all) * (size_t)c->n);
}

/* Whether an all-reduce between 2 ranks in place, which the rule gave the ring (from 128 KiB of
 * f32, f64 and the integers), runs one-shot instead: algorithm left to the library, ordinary
 * buffers on one node. On the 2-vCPU Intel guest of stop 50 one-shot took
 * 0.86-0.98 of the ring's time in place at 256 KiB-16 MiB (four or five rounds a size, median
 * 0.88; 8 MiB 1009 us against 1158, Open MPI's MPI_Allreduce 1148, which the ring had trailed by
 * 1.07-1.09x in the main job) and 1.00-1.03 out of place (1.20 at 32 MiB); on the 16-core Intel
 * guest, six rounds, in place medians 0.83-0.91 at 256 KiB-16 MiB and 0.96 at 64 MiB (each
 * 0.72-1.14), out of place 0.95-0.98 and 1.19 at 64 MiB (results/coll/dev-2core-intel-2026-11-29-
 * stop50, device-16core-2026-11-29-stop50). One-shot moves more bytes (each rank publishes all
 * of src, not half) but synchronises once a chunk, not twice, and stores into lines of dst it has
 * just read. The rule's own trials (stop 17: the ring 1.06-1.16x faster than one-shot from 256
 * KiB) did not time in place apart. On the 2-vCPU Zen 5 guest (stop 57, after its publishes
 * stopped streaming with the cores near), each forced, ten launches taking turns, medians: in
 * place 0.81-0.89 at 256 KiB-16 MiB, 0.83-0.95 with the input rewritten and the output read;
 * out of place 0.94-1.12 (results/coll/dev-2core-zen5-2026-12-02-stop57). So on every CPU. */
static int ar_inplace_oneshot(const vsym_coll_t *c, const void *src, const void *dst,
                              vsym_dtype_t dtype, vsym_coll_algo_t algo, int chosen)
{
    return chosen && c->n == 2 && src == dst && algo == VSYM_COLL_RING && c->all_direct &&
           dtype != VSYM_DTYPE_F16 && dtype != VSYM_DTYPE_BF16;
}

/* Whether an all-reduce of bytes from ordinary buffers beyond 2 ranks, which the rule gave the
 * ring (from 1 MiB, up to 8 ranks), runs two-shot instead: algorithm left to the library, one
 * node, ranks sharing cores, from 2 MiB, not on AMD CPUs. The rule's ring came from the 16-core
 * guest, a core per rank (1.07-1.27x two-shot's speed, stop 17). On the 2-vCPU Intel guest of
 * stop 51, each algorithm forced, launches taking turns (var.sh), two-shot over the ring: 4
 * ranks, six rounds, medians 0.87-0.96 at 2-16 MiB, in and out of place, faster in 43 of 48
 * round pairs, 1.00-1.01 at 32 MiB, 1.07-1.13 at 1 MiB; 3 ranks, five rounds, 0.95-1.00 at
 * 2-32 MiB, 1.09-1.14 at 1 MiB (results/coll/dev-2core-intel-2026-11-29-stop51). Each of the
 * ring's 2(n-1) steps waits for one neighbour, and where that neighbour shares a core with
 * another rank each wait may cost a switch; two-shot waits twice a chunk. AMD CPUs are not
 * measured, and keep the ring. */
static int ar_shared_twoshot(const vsym_coll_t *c, size_t bytes, vsym_coll_algo_t algo, int chosen)
{
    return chosen && c->n > 2 && algo == VSYM_COLL_RING && c->all_direct &&
           bytes >= COLL_SHARED_TWOSHOT_MIN && !vsym_util_core_per_rank() && !vsym_util_cpu_amd();
}

/* Whether an all-reduce of bytes from ordinary buffers on one node runs through process-to-process
 * copies (ar_pcopy: each rank fetches its segment of every peer's src into its cache, reduces it
 * into its dst and writes the result into every peer's dst, where the scratch paths copy each byte
 * in and out of the scratch too): the algorithm left to the library, every peer reached by such
 * copies (vsym_team_process_copy), from c->ar_pcopy_min (auto: 2 MiB between 2 ranks, 1 MiB where
 * more share cores, 4 MiB on 3-4 ranks with a core each; never on more ranks with a core each, nor
 * on AMD CPUs, not measured there), in place at any size, out of place while the ranks' src
 * together stay within COLL_AR_PCOPY_OOP_MAX. 2-vCPU Intel guest (family 6 model 167), f32, three
 * rounds taking turns with the scratch paths, input rewritten before each call and output read
 * after it (vsym-bench --touch --consume), medians of the scratch's time over this path's: 2 ranks
 * in place 1.09 at 1 MiB, 1.14-1.33 at 2-64 MiB, out of place 0.92 at 1 MiB, 1.15-1.26 at 2-16 MiB;
 * 4 ranks in place 0.92 at 512 KiB, 1.16-1.37 at 1-64 MiB, out of place 1.09-1.26 at 1-8 MiB; with
 * the input unchanged 1.2-1.8. Out of place beyond the limit (a run without it) 2 ranks 0.86-0.92
 * at 64 MiB, 4 ranks 0.72-0.98 at 16-64 MiB (results/coll/dev-2core-intel-2026-12-02-stop59,
 * ab_pcopy.sh). 16-core Intel guest, a core per rank, two rounds: 2 ranks 1.05-1.37 at 2-16 MiB; 4
 * ranks 0.62-0.89 at 1-2 MiB and 1.11-2.24 from 4 MiB, 8 ranks 0.46-2.36 (the rounds apart), 16
 * ranks 0.67-1.12; a second run, 4 ranks, three rounds, medians against the ring (AUTO's algorithm
 * there): 0.72-0.73 at 1 MiB, 1.00 and 0.98 at 2 MiB, 1.15-1.19 out of place at 4-8 MiB, 1.24-1.46
 * in place at 4-16 MiB (results/coll/device-16core-2026-12-02-stop59, run_s59.sh, run_s59b.sh). */
static int ar_pcopy_allowed(const vsym_coll_t *c, const void *src, const void *dst, size_t bytes,
                            int chosen)
{
    return chosen && c->all_direct && c->ar_pcopy_min > 0 && bytes >= c->ar_pcopy_min &&
           (src == dst ||
            (apart(src, bytes, dst, bytes) && bytes * (size_t)c->n <= COLL_AR_PCOPY_OOP_MAX));
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
    const size_t zc_min = src == dst          ? c->ar_zc_min[1]
                          : c->cores_far == 1 ? c->ar_zc_far_min
                                              : c->ar_zc_min[0];
    if (zc_allowed(c, bytes, algo, chosen) && bytes >= zc_min &&
        (src == dst || apart(src, bytes, dst, bytes))) {
        vsym_coll_buf_t *sb = vsym_coll_find_buf(c, src, bytes),
                        *db = sb ? vsym_coll_find_buf(c, dst, bytes) : NULL;
        if (db != NULL) {
            *sb_p = sb;
            *db_p = db;
            return P_ZEROCOPY;
        }
    }
    if (algo == VSYM_COLL_ONESHOT && vsym_coll_ll_usable(c, bytes)) return P_LL;
    if (ar_pcopy_allowed(c, src, dst, bytes, chosen)) return P_PCOPY;
    if (ar_inplace_oneshot(c, src, dst, dtype, algo, chosen)) return P_ONESHOT;
    if (ar_shared_twoshot(c, bytes, algo, chosen)) return P_TWOSHOT;
    if (algo == VSYM_COLL_ONESHOT && !c->all_direct)
        return vsym_team_num_nodes(c->team) > 1 && vsym_coll_hier_regular(c) ? P_NODES : P_XCH;
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

/* VSYM_COLL_ZEROCOPY_MIN auto for the collectives that read a symmetric src in place (each rank
 * copies its peers' blocks straight into its own dst): the all-gather from 2 MiB of output, the
 * reduce-scatter from 2 MiB of src, the all-to-all from 2 MiB of src (in place, where blocks are
 * swapped between the ranks' buffers, from 32 KiB), the broadcast never; on AMD CPUs otherwise
 * (below). bytes: coll_plan's. Timed as a caller
 * uses them, the input rewritten before each call and the output read after it (vsym-bench
 * --touch --consume), against VSYM_COLL_ZEROCOPY_MIN=1G (through the scratch), f32, 4 KiB-2 MiB
 * by 8, time through the scratch over time in place: 16-core Intel guest, 2-16 ranks, two rounds,
 * medians: all-gather 0.49-1.02 at 32-256 KiB, 0.73-1.23 at 2 MiB; reduce-scatter 0.72-1.04 to 256
 * KiB, 1.25-1.67 at 2 MiB; all-to-all out of place 0.76-1.24 to 256 KiB, 0.92-1.21 at 2 MiB, in
 * place 0.50-1.15 at 4 KiB, 1.15-2.02 from 32 KiB; broadcast 0.42-0.98, 0.63-1.09 at 2 MiB; the
 * 2-vCPU Intel guest, 2 and 4 ranks, three launches, alike (broadcast 0.33-1.06, reduce-scatter
 * 0.59-1.00 to 256 KiB and 1.32-1.83 at 2 MiB; results/coll/device-16core-2026-11-29-stop54,
 * dev-2core-intel-2026-11-29-stop54). Without the touch and the read (the benchmarks' default)
 * the peers' src stays unchanged and in the reader's cache, and reading it in place had looked
 * faster from 4 KiB.
 * On AMD CPUs the reduce-scatter and the all-to-all read in place from 32 KiB of src between 2
 * ranks with a core each; where ranks share cores the all-to-all in place from 256 KiB and the
 * reduce-scatter never. 2-core Zen 5 guest, six launches taking turns, the same ratio: 2 ranks,
 * the all-to-all 0.65-0.76 at 4 KiB, 1.40-2.39 from 32 KiB, the reduce-scatter 0.37-0.95 at 4
 * KiB, 1.25-2.24 from 32 KiB, the all-gather 0.96-1.75 to 32 KiB, 0.75-0.82 at 256 KiB,
 * 1.07-1.13 at 2 MiB, the broadcast 0.14-0.45 at 4 KiB, 0.43-0.98 at 256 KiB, 1.30-1.35 at 2 MiB;
 * 4 ranks (on the 2 cores) the all-to-all in place 0.58 to 32 KiB, 1.02 at 256 KiB, 1.72 at 2
 * MiB, out of place 0.48-0.80 to 256 KiB, 1.39 at 2 MiB, the reduce-scatter 0.46-0.69 at every
 * size, the all-gather 0.78-0.93 (1.08 at 2 MiB out of place), the broadcast 0.87-1.15
 * (results/coll/dev-2core-zen5-2026-12-01-stop55, run 2). */
#define COLL_BLK_ZC_MIN_AMD ((size_t)32 << 10)
#define COLL_A2A_SWAP_MIN_AMD_SHARED ((size_t)256 << 10)
static int blk_zc_auto(const vsym_coll_t *c, vsym_coll_kind_t kind, size_t bytes, int in_place)
{
    if (!c->zc_auto) return 1;
    const int amd = vsym_util_cpu_amd(), amd_own = amd && c->n <= 2 && vsym_util_core_per_rank(),
              amd_shared = amd && !vsym_util_core_per_rank();
    switch (kind) {
    case VSYM_COLL_KIND_ALLGATHER:
        return bytes * (size_t)c->n >= COLL_BLK_ZC_MIN;
    case VSYM_COLL_KIND_REDUCE_SCATTER:
        return amd_shared ? 0 : bytes >= (amd_own ? COLL_BLK_ZC_MIN_AMD : COLL_BLK_ZC_MIN);
    case VSYM_COLL_KIND_ALLTOALL:
        if (amd_own) return bytes >= COLL_BLK_ZC_MIN_AMD;
        return bytes >= (!in_place    ? COLL_BLK_ZC_MIN
                         : amd_shared ? COLL_A2A_SWAP_MIN_AMD_SHARED
                                      : COLL_A2A_SWAP_MIN);
    default:
        return 0;
    }
}

/* The fused ops' (fused.c's zc_runs): the smallest input (bytes) of all-reduce + all-gather
 * (ar_ag) or reduce-scatter + all-reduce whose two-shot modes run in place on symmetric buffers
 * (run_zerocopy): VSYM_COLL_ZEROCOPY_MIN where set, else all-reduce + all-gather from 1 MiB,
 * reduce-scatter + all-reduce never. Below it symmetric buffers take the ordinary paths. In place
 * each rank pushes its reduced segment into the peers' outputs, where the caller then reads it from
 * the pusher's cache; timed that way (vsym-bench fused --touch --consume: the input rewritten
 * before each call, the output read after it), f16, two launches, the baseline's time over the
 * two-shot's in place and over the ordinary two-shot's (through the scratch, the pushes into this
 * rank's output only): 16-core Intel guest, 4 and 8 ranks, all-reduce + all-gather 0.55-0.93
 * against 1.01-1.59 at 1-256 KiB (1.31-1.38 against 1.19-1.41 at 1 MiB), reduce-scatter +
 * all-reduce 0.65-1.06 (0.84-0.92 at 1 MiB), where the baseline wins; 2-vCPU Intel guest, 4 ranks,
 * two runs of three and four launches, all-reduce + all-gather 0.84-0.89 at 4-16 KiB (the
 * one-shot 1.21-1.36), 1.31-1.32 at 256 KiB against 1.36-1.39, reduce-scatter + all-reduce
 * 0.59-1.03 at 4-256 KiB (results/coll/device-16core-2026-11-29-stop54,
 * dev-2core-intel-2026-11-29-stop54). Without the read the in-place modes had looked 1.2-2.3x the
 * baseline's speed (3.4x with the input unchanged too). On the 2-core Zen 5 guest, 4 ranks (2 x 2,
 * on the 2 cores), six launches taking turns, against VSYM_COLL_ZEROCOPY_MIN=1G: the two-shot in
 * place 1.02-1.17x the baseline at 4-256 KiB where it ran 1.52-1.72x through the scratch
 * (AUTO 1.01-1.05x against 1.53-1.66x at 64-256 KiB), at 1 MiB 2.10x against 1.44x (234 us against
 * 392); reduce-scatter + all-reduce slower in place at every size from 16 KiB (the baseline's own
 * collectives too: 93 us against 47 at 256 KiB; results/coll/dev-2core-zen5-2026-12-01-stop55, run
 * 3). Hence 1 MiB where ranks share cores too (it was 256 KiB: on the 2-vCPU Intel guest 1.31-1.32x
 * there against 1.36-1.39x), and on AMD CPUs as on others (it was any size there, not measured). */
#define COLL_FUSED_ZC_MIN ((size_t)1 << 20)
size_t vsym_coll_fused_zc_min(const vsym_coll_t *c, int ar_ag)
{
    if (!c->zc_auto) return c->zc_min;
    return ar_ag ? COLL_FUSED_ZC_MIN : SIZE_MAX;
}

/* The buffer of a symmetric src that the all-gather, the all-to-all or the reduce-scatter reads
 * in place (gather_zerocopy, a2a_swap, rs_zerocopy), or NULL: zc_allowed, src in one of the
 * handle's buffers and apart from dst, or in place: the all-gather's src this rank's block of
 * dst, the reduce-scatter's dst this rank's block of src, the all-to-all's src its dst. Every
 * rank must pass the same kind of buffers at the same offsets. */
static vsym_coll_buf_t *zc_src_buf(const vsym_coll_t *c, vsym_coll_kind_t kind, const char *src,
                                   const char *dst, size_t src_bytes, size_t dst_bytes,
                                   size_t bytes, vsym_coll_algo_t algo, int chosen)
{
    if (!zc_allowed(c, bytes, algo, chosen)) return NULL;
    int own_block = (src_bytes < dst_bytes && src == dst + (size_t)c->me * src_bytes) ||
                    (dst_bytes < src_bytes && dst == src + (size_t)c->me * dst_bytes) ||
                    (src_bytes == dst_bytes && src == dst);
    if (!blk_zc_auto(c, kind, bytes, own_block)) return NULL;
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
        zc = zc_src_buf(c, kind, src, dst, blk, n * blk, bytes, algo, chosen);
        *path_p = zc                                                             ? P_ZEROCOPY
                  : algo == VSYM_COLL_ONESHOT && vsym_coll_blk_ll_usable(c, blk) ? P_LL
                  : algo == VSYM_COLL_RD && pow2                                 ? P_RD
                  : algo == VSYM_COLL_RING || algo == VSYM_COLL_RD               ? P_RING
                  : ag_pcopy_allowed(c, src, dst, blk, algo, chosen)             ? P_PCOPY
                  : c->all_direct                                                ? P_ONESHOT
                                                                                 : P_XCH;
        break;
    case VSYM_COLL_KIND_REDUCE_SCATTER:
        zc = zc_src_buf(c, kind, src, dst, n * blk, blk, bytes, algo, chosen);
        *path_p = zc                                                                 ? P_ZEROCOPY
                  : algo == VSYM_COLL_ONESHOT && vsym_coll_blk_ll_usable(c, n * blk) ? P_LL
                  : algo == VSYM_COLL_RING                                           ? P_RING
                  : c->all_direct                                                    ? P_ONESHOT
                                                                                     : P_XCH;
        break;
    case VSYM_COLL_KIND_BROADCAST:
        /* dst, which every rank passes, decides: the root's src may be anything. */
        zc = zc_allowed(c, bytes, algo, chosen) && bytes >= bc_zerocopy_min(c) &&
                     blk_zc_auto(c, kind, bytes, src == dst)
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
        zc = zc_src_buf(c, kind, src, dst, n * blk, n * blk, bytes, algo, chosen);
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
 * Between 2 ranks rank 0 then tells rank 1 whether that was near or far (rtt_tell), so that both
 * take the all-reduce's path out of place by it (ar_zc_far_rule); those calls are timed from
 * their first of 8 KiB in place too, their bytes counted whole. Where ranks share cores rank 0
 * tells the others its record likewise (rtt_agree_shared).
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
    const uint64_t t = c->rtt_fake != 0 ? c->rtt_fake : vsym_util_thread_line_rtt();
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

/* Whether a call that adds bytes to the count of those timed is due a round trip: the first,
 * then the first after each COLL_RTT_BYTES (every rank counts the same calls). */
static int rtt_due(vsym_coll_t *c, uint64_t bytes)
{
    const int due = c->rtt_bytes == 0;
    c->rtt_bytes += bytes;
    if (c->rtt_bytes >= COLL_RTT_BYTES) c->rtt_bytes = 0; /* the next such call is due */
    return due;
}

/* Rank 0 tells the others what its round trips found (best, ns; UINT64_MAX none), in its second
 * word of the ping line: near, far, or nothing where no round counted (the state stays). Every
 * rank takes it at the same call. Rank 0 writes it again only after the next call has begun on
 * every rank: between 2 ranks with a core each after rank 1's replies at the next probe, where
 * ranks share cores at a later all-reduce (rtt_agree_shared), after this one, which no rank
 * finishes before every rank has entered it. */
#define COLL_RTT_NONE 0
#define COLL_RTT_NEAR 1
#define COLL_RTT_FAR 2
static vsym_status_t rtt_tell(vsym_coll_t *c, uint64_t best)
{
    const uint64_t seq = ++c->rtt_seq << 16;
    int verdict;
    if (c->me == 0) {
        verdict = best >= VSYM_UTIL_RTT_VALID_NS ? COLL_RTT_NONE
                  : vsym_util_rtt_far(best)      ? COLL_RTT_FAR
                                                 : COLL_RTT_NEAR;
        __atomic_store_n(ping_word(c, c->base) + 1, seq | (uint64_t)verdict, __ATOMIC_RELEASE);
    } else {
        const uint64_t *w = ping_word(c, c->peer[0]) + 1;
        VSYM_TRY(vsym_coll_counter_wait(c, w, seq, 0, "line round trip (its verdict)"));
        verdict = (int)(__atomic_load_n(w, __ATOMIC_ACQUIRE) & 0xffff);
    }
    if (verdict != COLL_RTT_NONE) c->cores_far = verdict == COLL_RTT_FAR;
    return VSYM_OK;
}

/* Where ranks share cores, rank 0 times the round trip alone (vsym_coll_rtt_shared) and tells
 * the others its record at the first all-reduce whose path the cores' state decides, and again
 * once such calls have moved 16 MiB since. */
static vsym_status_t rtt_agree_shared(vsym_coll_t *c, size_t bytes)
{
    if (!rtt_due(c, bytes)) return VSYM_OK;
    const uint64_t t = c->me == 0 ? __atomic_load_n(far_word(c, c->base) + 1, __ATOMIC_RELAXED) : 0;
    return rtt_tell(c, t == 0 ? UINT64_MAX : t);
}

/* by_state: a call whose path the cores' state decides (an all-reduce out of place where
 * ar_zc_far_min differs): probed in place too, its bytes counted whole. */
static vsym_status_t rtt_probe(vsym_coll_t *c, coll_path_t path, size_t bytes, int by_state)
{
    const int zc_part = path == P_ZEROCOPY && !by_state;
    if (c->n < 2 || !c->all_direct || bytes < COLL_RTT_MIN_BYTES || path == P_NONE ||
        path == P_COPY || (zc_part && bytes < COLL_ZC_FAR_STREAM_MIN) || path == P_LL ||
        path == P_PCOPY || !vsym_util_publish_auto())
        return VSYM_OK;
    if (!vsym_util_core_per_rank()) {
        if (path != P_ZEROCOPY || by_state) vsym_coll_rtt_shared(c, bytes);
        return by_state ? rtt_agree_shared(c, bytes) : VSYM_OK;
    }
    if (!rtt_due(c, zc_part ? bytes / COLL_RTT_ZC_SHARE : bytes) || c->me > 1) return VSYM_OK;
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
            VSYM_TRY(vsym_coll_counter_wait(c, other, seq, 1, "line round trip (its reply)"));
            const uint64_t t = vsym_util_time_ns() - t0;
            const int other_cpu = (int)(__atomic_load_n(other, __ATOMIC_ACQUIRE) & 0xffff);
            if (cpu >= 0 && other_cpu != (uint16_t)cpu && sched_getcpu() == cpu && t < best)
                best = t;
        } else {
            VSYM_TRY(vsym_coll_counter_wait(c, other, seq, 0, "line round trip (its ping)"));
            __atomic_store_n(mine, seq | (uint16_t)sched_getcpu(), __ATOMIC_RELEASE);
        }
    }
    if (c->me == 0 && c->rtt_fake != 0) best = c->rtt_fake;
    if (c->me == 0 && best < VSYM_UTIL_RTT_VALID_NS)
        __atomic_store_n(far_word(c, c->base) + 1, best, __ATOMIC_RELAXED);
    return c->n == 2 ? rtt_tell(c, best) : VSYM_OK;
}

uint64_t vsym_coll_line_rtt(const vsym_coll_t *c)
{
    return c->all_direct ? __atomic_load_n(far_word(c, c->peer[0]) + 1, __ATOMIC_RELAXED) : 0;
}

/* The start of every collective: check the arguments (op_p: the reduction op, NULL for the
 * collectives that do not reduce), plan the path, and run the trivial ones (one rank copies).
 * *path_p is P_NONE when nothing is left to do. */
vsym_status_t vsym_coll_begin(vsym_coll_t *c, vsym_coll_kind_t kind, const void *src, void *dst,
                              size_t count, vsym_dtype_t dtype, const vsym_red_op_t *op_p, int root,
                              vsym_coll_algo_t algo, coll_path_t *path_p, vsym_coll_buf_t **sb_p,
                              vsym_coll_buf_t **db_p)
{
    VSYM_TRY(check_args(c, kind, src, dst, count, dtype, root));
    if (op_p != NULL) VSYM_TRY(vsym_coll_check_dtype_op(dtype, *op_p, kind_names[kind]));
    VSYM_TRY(coll_plan(c, kind, src, dst, count, dtype, algo, path_p, sb_p, db_p));
    vsym_coll_publish_share(c);
    VSYM_TRY(rtt_probe(c, *path_p, count * vsym_dtype_size(dtype),
                       kind == VSYM_COLL_KIND_ALLREDUCE && src != dst &&
                           c->ar_zc_far_min != c->ar_zc_min[0]));
    if (*path_p == P_COPY) {
        copy_bytes(dst, src, count * vsym_dtype_size(dtype));
        *path_p = P_NONE;
    }
    return VSYM_OK;
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
