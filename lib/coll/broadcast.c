/* The broadcast. */
#include <string.h>
#include "coll/coll_internal.h"

/* ---- Broadcast ---------------------------------------------------------------------------- */

/* The whole of a broadcast of len bytes for dst_streams: every rank's dst and the root's src
 * (counting a src at every rank streamed the 4 MiB broadcast of 4 ranks, 20 MiB in all, and ran
 * 1.12-1.28x slower on the AMD host: results/coll/dev-2core-zen4-2026-11-27-stop33). */
static size_t bc_whole(const vsym_coll_t *c, size_t len)
{
    return ((size_t)c->n + 1) * len;
}

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
        vsym_coll_ll_prefetch_next(c, root, seq, len);
    }
    vsym_coll_ll_end(c, seq, 0);
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
        VSYM_TRY(vsym_coll_bar_gather(c, n, dst, off, m, es, stream));
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
    const int stream = dst_streams(c->me == root && !apart(src, len, dst, len), bc_whole(c, len));
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
                VSYM_TRY(vsym_coll_pw_acquire(c, vsym_coll_pw_parity(c), &buf));
                vsym_util_copy_publish(buf, have, len);
                VSYM_TRY(vsym_coll_pw_publish(c, &peer, 1));
            }
            if (from >= 0) {
                const char *t;
                int peer = (from + root) % n;
                VSYM_TRY(vsym_coll_pw_read(c, peer, 0, len, &t));
                memcpy(dst + off * es, t, len);
                VSYM_TRY(vsym_coll_pw_done(c, peer));
            }
            vsym_coll_pw_next(c);
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
    VSYM_TRY(vsym_coll_begin(c, VSYM_COLL_KIND_BROADCAST, src, dst, count, dtype, NULL, root, algo,
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
        return vsym_coll_push_bcast(c, src, dst, count * es, root);
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
