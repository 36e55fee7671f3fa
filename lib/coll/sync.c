/* The synchronisation the collectives share: waits, the barrier model, the low-latency (LL)
 * protocol, the push exchange and the pairwise model; declared in coll_internal.h.
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
#include <stdlib.h>
#include <string.h>
#include "coll/coll_internal.h"

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

vsym_status_t vsym_coll_counter_wait(vsym_coll_t *c, const uint64_t *w, uint64_t want, int r,
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

/* The all-gather half of a two-shot step: segment r of a chunk of m elements (starting at element
 * off of dst) is read from rank r's current barrier region, where r left it reduced. */
vsym_status_t vsym_coll_bar_gather(vsym_coll_t *c, int n, char *dst, size_t off, size_t m,
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

/* Calls back to back let the root run ahead of its reader (up to COLL_LL_SLOTS - 1 calls), and then
 * the reader's fetch of the next call's lines, asked for here, overlaps this call's end and the
 * next call's start instead of following them: a miss a call less on the reader's path, which is
 * what it spends where the cores lie far. Where the root has not written those lines yet, the
 * reader holds stale copies that the root's stores take back, as they would have taken the
 * copies of COLL_LL_SLOTS calls before. Time before / after, medians of launches taking turns:
 * one line (8-32 B), 2-core Zen 5 host (far, 8 rounds) 1.15-1.58, Open MPI's MPI_Bcast / vsym at
 * 8 B 0.60-0.79 before, 0.92-1.04 after; 16-core Intel guest (30 rounds) 1.37-1.74, Open MPI /
 * vsym at 8 B 0.70-0.72 -> 0.99-1.26; two lines (64 B) against one only, far 1.40-1.76 on the
 * Zen 5 host (8 rounds; near, 8 rounds, 0.92-1.10) and 1.46-1.57 on the Intel guest (30 rounds),
 * Open MPI / vsym at 64 B 1.67-1.96 and 1.32-1.47 after; results/coll/dev-2core-zen5-2026-11-28-
 * stop49 and device-16core-2026-11-29-stop49. Asking for every line of 128-256 B made those
 * 1.2-1.3x slower on the Zen 5 host (far), so two lines at most on AMD CPUs. On Intel's, every
 * line of 128-256 B (3-5 lines: all that the low-latency broadcast between 2 ranks carries), in
 * launches taking turns with the build before, medians: the 2-vCPU guest of stop 51 1.23-1.57x as
 * fast (three runs of 10 rounds, ahead in 237 of 240 launch pairs; out of place 128 B 0.13 -> 0.10
 * us, Open MPI's MPI_Bcast 0.12), the 16-core guest 1.35-1.62x (two runs of 30 rounds, ahead in
 * 27-30 of 30 a row; 128 B 0.26 -> 0.17-0.18 us, Open MPI 0.26); results/coll/
 * dev-2core-intel-2026-11-29-stop51, device-16core-2026-11-29-stop51. So five lines on other CPUs
 * (the handle's ll_next_max, set once: with the CPU asked at each call the 16-core guest's calls
 * of 8-64 B ran 0.91-0.96 of the old speed, with the limit in the handle 0.96-1.02). */
#define LL_PREFETCH_NEXT_LINES_AMD 2
#define LL_PREFETCH_NEXT_LINES 5
size_t vsym_coll_ll_next_max(void)
{
    return (vsym_util_cpu_amd() ? LL_PREFETCH_NEXT_LINES_AMD : LL_PREFETCH_NEXT_LINES) *
           LL_LINE_DATA;
}

void vsym_coll_ll_prefetch_next(const vsym_coll_t *c, int r, uint64_t seq, size_t len)
{
    if (c->n != 2 || len > c->ll_next_max) return;
    const char *next = ll_region(c, r, seq + 1);
    for (size_t i = 0; i < ll_lines(len); i++)
        __builtin_prefetch(next + 64 * i, 0, 3);
}

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

/* Through the low-latency protocol, no barrier: every rank publishes its src in lines and reads
 * block me of each peer's as it arrives, or with gather the whole src of each; with dtype
 * VSYM_DTYPE_COUNT it places what it read from rank r at block r of dst (the all-gather, the
 * all-to-all), else it reduces them with op in rank order into dst (gather: the all-reduce;
 * else the reduce-scatter). Every src is read before dst is written (in place or overlapping).
 * Against the scratch and its barrier (16-core Intel guest, 8 and 16 ranks, medians of 13-14
 * rounds, time new / old): the all-gather 0.65-0.75 up to 32 B a rank and 0.83-0.99 at 64-256
 * B, the reduce-scatter 0.52-0.64 and the all-to-all 0.53-0.71 at 64-256 B of src
 * (results/coll/device-16core-2026-11-28-stop45). */
vsym_status_t vsym_coll_ll_blocks(vsym_coll_t *c, int gather, const char *src, char *dst,
                                  size_t count, size_t es, vsym_dtype_t dtype, vsym_red_op_t op)
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

/* One-shot through push exchanges (peers over verbs), in chunks of c->xch_max bytes per peer.
 * blocks 0: every rank sends its whole vector (all-reduce, all-gather); 1: block r of count
 * elements to rank r (reduce-scatter, all-to-all). dtype VSYM_DTYPE_COUNT: the blocks received
 * are placed at dst + r x count (gathers); else reduced with op in rank order into dst. */
vsym_status_t vsym_coll_xch_blocks(vsym_coll_t *c, const char *src, char *dst, size_t count,
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
vsym_status_t vsym_coll_push_bcast(vsym_coll_t *c, const char *src, char *dst, size_t len, int root)
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

/* ---- Pairwise model ----------------------------------------------------------------------- */

int vsym_coll_pw_parity(const vsym_coll_t *c)
{
    return (int)(c->pw_phase & 1);
}

static char *pw_buf(vsym_coll_t *c, int parity)
{
    return c->base + (size_t)(2 + parity) * c->chunk;
}

/* Wait until every reader of the last phase of this parity has consumed it. */
vsym_status_t vsym_coll_pw_drain(vsym_coll_t *c, int parity)
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
vsym_status_t vsym_coll_pw_acquire(vsym_coll_t *c, int parity, char **buf_p)
{
    vsym_status_t st = vsym_coll_pw_drain(c, parity);
    if (st != VSYM_OK) return st;
    *buf_p = pw_buf(c, parity);
    return VSYM_OK;
}

/* Tell readers that the region of the current phase holds their data. */
vsym_status_t vsym_coll_pw_publish(vsym_coll_t *c, const int *readers, int nr)
{
    int p = vsym_coll_pw_parity(c);
    for (int i = 0; i < nr; i++) {
        vsym_status_t st = vsym_signal_put(c->scratch, readers[i], COLL_CH_READY + p, c->timeout);
        if (st != VSYM_OK) return st;
        c->pend[p][c->npend[p]++] = readers[i];
    }
    return VSYM_OK;
}

/* Wait for owner's data of the current phase; a pointer to len bytes at off of it. */
vsym_status_t vsym_coll_pw_read(vsym_coll_t *c, int owner, size_t off, size_t len,
                                const char **ptr_p)
{
    int p = vsym_coll_pw_parity(c);
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
vsym_status_t vsym_coll_pw_done(vsym_coll_t *c, int owner)
{
    return vsym_signal_put(c->scratch, owner, COLL_CH_DONE + vsym_coll_pw_parity(c), c->timeout);
}

void vsym_coll_pw_next(vsym_coll_t *c)
{
    c->pw_phase++;
}
