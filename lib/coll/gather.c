/* The all-gather, the reduce-scatter and the all-to-all. */
#include <string.h>
#include "coll/coll_internal.h"

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
        VSYM_TRY(vsym_coll_pw_acquire(c, vsym_coll_pw_parity(c), &buf));
        vsym_util_copy_publish(buf, src + off * es, len);
        dst_copy(dst + ((size_t)me * count + off) * es, src + off * es, len, stream);
        for (int step = 0; step < n - 1; step++) {
            int k = (me - step - 1 + n) % n;
            const char *l;
            VSYM_TRY(vsym_coll_pw_publish(c, &right, 1));
            VSYM_TRY(vsym_coll_pw_read(c, left, 0, len, &l));
            if (step < n - 2) {
                char *next;
                VSYM_TRY(vsym_coll_pw_acquire(c, vsym_coll_pw_parity(c) ^ 1, &next));
                memcpy(next, l, len);
            }
            dst_copy(dst + ((size_t)k * count + off) * es, l, len, stream);
            VSYM_TRY(vsym_coll_pw_done(c, left));
            vsym_coll_pw_next(c);
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
            VSYM_TRY(vsym_coll_pw_acquire(c, vsym_coll_pw_parity(c), &buf));
            for (int b = 0; b < mask; b++)
                vsym_util_copy_publish(buf + (size_t)b * len,
                                       dst + ((size_t)(mybase + b) * count + off) * es, len);
            VSYM_TRY(vsym_coll_pw_publish(c, &partner, 1));
            VSYM_TRY(vsym_coll_pw_read(c, partner, 0, (size_t)mask * len, &t));
            for (int b = 0; b < mask; b++)
                memcpy(dst + ((size_t)(pbase + b) * count + off) * es, t + (size_t)b * len, len);
            VSYM_TRY(vsym_coll_pw_done(c, partner));
            vsym_coll_pw_next(c);
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
    const int stream = dst_streams(inplace, ((blocks ? all : len) + all) * (size_t)c->n);
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
    VSYM_TRY(vsym_coll_begin(c, blocks ? VSYM_COLL_KIND_ALLTOALL : VSYM_COLL_KIND_ALLGATHER, src,
                             dst, count, dtype, NULL, 0, algo, &path, &sb, NULL));
    switch (path) {
    case P_NONE:
        return VSYM_OK;
    case P_ZEROCOPY:
        return blocks && src == dst ? a2a_swap(c, sb, dst, count, es)
                                    : gather_zerocopy(c, sb, src, dst, count, es, blocks);
    case P_PCOPY:
        return gather_pcopy(c, src, dst, count, es, blocks);
    case P_LL:
        return vsym_coll_ll_blocks(c, !blocks, src, dst, count, es, VSYM_DTYPE_COUNT, VSYM_RED_SUM);
    case P_XCH:
        return vsym_coll_xch_blocks(c, src, dst, count, blocks, es, VSYM_DTYPE_COUNT, VSYM_RED_SUM);
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
        VSYM_TRY(vsym_coll_pw_acquire(c, vsym_coll_pw_parity(c), &buf));
        vsym_util_copy_publish(buf, src + ((size_t)((me + n - 1) % n) * count + off) * es, len);
        for (int step = 0; step < n - 1; step++) {
            int k = (me - step - 2 + 2 * n) % n;
            const char *l;
            VSYM_TRY(vsym_coll_pw_publish(c, &right, 1));
            VSYM_TRY(vsym_coll_pw_read(c, left, 0, len, &l));
            const void *in[2] = {l, src + ((size_t)k * count + off) * es};
            if (step < n - 2) {
                char *next;
                VSYM_TRY(vsym_coll_pw_acquire(c, vsym_coll_pw_parity(c) ^ 1, &next));
                vsym_coll_reduce_publish(dtype, op, next, in, 2, m);
            } else {
                dst_reduce(dtype, op, dst + off * es, in, 2, m, stream);
            }
            VSYM_TRY(vsym_coll_pw_done(c, left));
            vsym_coll_pw_next(c);
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
    VSYM_TRY(vsym_coll_begin(c, VSYM_COLL_KIND_REDUCE_SCATTER, src, dst, count, dtype, &op, 0, algo,
                             &path, &sb, NULL));
    switch (path) {
    case P_NONE:
        return VSYM_OK;
    case P_ZEROCOPY:
        return rs_zerocopy(c, sb, src, dst, count, dtype, op);
    case P_RING:
        return rs_ring(c, src, dst, count, dtype, op);
    case P_LL:
        return vsym_coll_ll_blocks(c, 0, src, dst, count, vsym_dtype_size(dtype), dtype, op);
    case P_XCH:
        return vsym_coll_xch_blocks(c, src, dst, count, 1, vsym_dtype_size(dtype), dtype, op);
    default:
        return blocks_oneshot(c, src, dst, count, vsym_dtype_size(dtype), dtype, op);
    }
}

/* ---- All-to-all --------------------------------------------------------------------------- */

/* Every algorithm of the all-to-all is the one-shot exchange. */
VSYM_API vsym_status_t vsym_coll_alltoall(vsym_coll_t *c, const void *src, void *dst, size_t count,
                                          vsym_dtype_t dtype, vsym_coll_algo_t algo)
{
    return gather_run(c, 1, src, dst, count, dtype, algo);
}
