/* The all-reduce: every algorithm, and the path each call takes (vsym_coll_allreduce). */
#include <stdlib.h>
#include <string.h>
#include "coll/coll_internal.h"

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
        VSYM_TRY(vsym_coll_bar_gather(c, n, dst, off, m, es, stream));
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
        VSYM_TRY(vsym_coll_pw_acquire(c, vsym_coll_pw_parity(c), &buf));
        vsym_util_copy_publish(buf, s + seg_lo(m, n, me) * es,
                               (seg_lo(m, n, me + 1) - seg_lo(m, n, me)) * es);
        for (int step = 0; step < 2 * (n - 1); step++) {
            int rs = step < n - 1;
            int k = rs ? (me - step - 1 + 2 * n) % n : (me - (step - (n - 1)) + 2 * n) % n;
            size_t klo = seg_lo(m, n, k), klen = seg_lo(m, n, k + 1) - klo;
            const char *l;
            VSYM_TRY(vsym_coll_pw_publish(c, &right, 1));
            VSYM_TRY(vsym_coll_pw_read(c, left, 0, klen * es, &l));
            if (step < 2 * (n - 1) - 1) {
                char *next;
                VSYM_TRY(vsym_coll_pw_acquire(c, vsym_coll_pw_parity(c) ^ 1, &next));
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
            VSYM_TRY(vsym_coll_pw_done(c, left));
            vsym_coll_pw_next(c);
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
                VSYM_TRY(vsym_coll_pw_acquire(c, vsym_coll_pw_parity(c), &buf));
                vsym_util_copy_publish(buf, s, len);
                VSYM_TRY(vsym_coll_pw_publish(c, &to, 1));
            } else if (me < extra) {
                VSYM_TRY(vsym_coll_pw_read(c, me + p2, 0, len, &t));
                const void *in[2] = {s, t};
                vsym_coll_reduce(dtype, op, d, in, 2, m);
                VSYM_TRY(vsym_coll_pw_done(c, me + p2));
            } else {
                copy_bytes(d, s, len);
            }
            vsym_coll_pw_next(c);
        } else {
            copy_bytes(d, s, len);
        }
        for (int mask = 1; mask < p2; mask <<= 1) {
            if (me < p2) {
                int partner = me ^ mask;
                VSYM_TRY(vsym_coll_pw_acquire(c, vsym_coll_pw_parity(c), &buf));
                vsym_util_copy_publish(buf, d, len);
                VSYM_TRY(vsym_coll_pw_publish(c, &partner, 1));
                VSYM_TRY(vsym_coll_pw_read(c, partner, 0, len, &t));
                const void *in[2] = {me < partner ? (const void *)d : t,
                                     me < partner ? (const void *)t : d};
                vsym_coll_reduce(dtype, op, d, in, 2, m);
                VSYM_TRY(vsym_coll_pw_done(c, partner));
            }
            vsym_coll_pw_next(c);
        }
        if (extra > 0) {
            if (me < extra) {
                int to = me + p2;
                VSYM_TRY(vsym_coll_pw_acquire(c, vsym_coll_pw_parity(c), &buf));
                vsym_util_copy_publish(buf, d, len);
                VSYM_TRY(vsym_coll_pw_publish(c, &to, 1));
            } else if (me >= p2) {
                VSYM_TRY(vsym_coll_pw_read(c, me - p2, 0, len, &t));
                memcpy(d, t, len);
                VSYM_TRY(vsym_coll_pw_done(c, me - p2));
            }
            vsym_coll_pw_next(c);
        }
    }
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
        VSYM_TRY(vsym_coll_bar_gather(nc, L, dst, off, m, es, 0));
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

/* Ordinary buffers through process-to-process copies (ar_pcopy_allowed in coll.c says when):
 * src (and dst, out of place) exposed to the team for the call (vsym_rendezvous); each rank
 * reduces its segment block by block, the peers' blocks fetched into its cache (vsym_get), the
 * result stored into its dst and written from there into every peer's dst (vsym_put) while still
 * in cache. Per rank: the segment of every src read once, every element of dst written once (as
 * on symmetric buffers), against the scratch paths' copies in and out of the scratch. Each segment
 * is reduced by its owner only, in rank order, so every rank gets the same bits. In place the
 * owner of a segment is its only reader and writes a block only after reading it from every
 * rank. Freeing the exposures is the barrier that keeps each buffer until every peer is done with
 * it; a failed copy still reaches those barriers, so that no peer waits for this rank. */
static vsym_status_t ar_pcopy(vsym_coll_t *c, const char *src, char *dst, size_t count,
                              vsym_dtype_t dtype, vsym_red_op_t op)
{
    const int n = c->n;
    const size_t es = vsym_dtype_size(dtype), bytes = count * es;
    const size_t lo = seg_lo(count, n, c->me), hi = seg_lo(count, n, c->me + 1);
    const size_t block = min_sz(COLL_AR_PCOPY_BLOCK(n), c->chunk), blk = block / es;
    if (c->pcopy_tmp == NULL && (c->pcopy_tmp = malloc((size_t)n * block)) == NULL)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "allreduce: no memory for %d blocks of %zu bytes", n,
                         block);
    vsym_obj_t *so = NULL, *dobj = NULL;
    VSYM_TRY(vsym_rendezvous(c->team, (void *)(uintptr_t)src, bytes, &so));
    vsym_status_t st = src == dst ? VSYM_OK : vsym_rendezvous(c->team, dst, bytes, &dobj);
    vsym_obj_t *dob = src == dst ? so : dobj;
    for (size_t o = lo; o < hi && st == VSYM_OK; o += blk) {
        size_t m = min_sz(blk, hi - o), len = m * es;
        const void *srcs[n];
        for (int r = 0; r < n && st == VSYM_OK; r++) {
            if (r == c->me) {
                srcs[r] = src + o * es;
                continue;
            }
            char *t = c->pcopy_tmp + (size_t)r * block;
            st = vsym_get(so, r, o * es, t, len);
            srcs[r] = t;
        }
        if (st != VSYM_OK) break;
        void *d = dst + o * es;
        vsym_coll_reduce_push(dtype, op, &d, 1, srcs, n, m);
        for (int i = 1; i < n && st == VSYM_OK; i++)
            st = vsym_put(dob, (c->me + i) % n, o * es, d, len);
    }
    vsym_status_t f1 = dobj ? vsym_obj_free(dobj) : VSYM_OK, f2 = vsym_obj_free(so);
    return st != VSYM_OK ? st : f1 != VSYM_OK ? f1 : f2;
}

VSYM_API vsym_status_t vsym_coll_allreduce(vsym_coll_t *c, const void *src, void *dst, size_t count,
                                           vsym_dtype_t dtype, vsym_red_op_t op,
                                           vsym_coll_algo_t algo)
{
    vsym_coll_buf_t *sb = NULL, *db = NULL;
    coll_path_t path;
    VSYM_TRY(vsym_coll_begin(c, VSYM_COLL_KIND_ALLREDUCE, src, dst, count, dtype, &op, 0, algo,
                             &path, &sb, &db));
    switch (path) {
    case P_NONE:
        return VSYM_OK;
    case P_ZEROCOPY:
        return ar_zerocopy(c, sb, src, db, dst, count, dtype, op);
    case P_LL:
        return vsym_coll_ll_blocks(c, 1, src, dst, count, vsym_dtype_size(dtype), dtype, op);
    case P_NODES:
        VSYM_TRY(vsym_coll_hier_setup(c));
        return ar_oneshot_nodes(c, src, dst, count, dtype, op);
    case P_XCH:
        return vsym_coll_xch_blocks(c, src, dst, count, 0, vsym_dtype_size(dtype), dtype, op);
    case P_ONESHOT:
        return ar_oneshot(c, src, dst, count, dtype, op);
    case P_RING:
        return ar_ring(c, src, dst, count, dtype, op);
    case P_RD:
        return ar_rd(c, src, dst, count, dtype, op);
    case P_PCOPY:
        return ar_pcopy(c, src, dst, count, dtype, op);
    case P_HIER:
        VSYM_TRY(vsym_coll_hier_setup(c));
        return ar_hier(c, src, dst, count, dtype, op);
    default:
        return ar_twoshot(c, src, dst, count, dtype, op);
    }
}
