/* Signal pads: per-channel, per-source slots with PyTorch's compare-swap protocol.
 * Slot [ch][src] of rank r's pad is moved 0 -> 1 only by src (signal_put) and 1 -> 0 only by r
 * (signal_wait), so a signal is never lost or doubled, and the pad is all zeros again after every
 * completed synchronisation. */
#include <stdio.h>
#include "core/core_internal.h"

static vsym_status_t check_signal(const vsym_obj_t *obj, int r, int ch, const char *op)
{
    if (obj == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "%s: NULL object", op);
    if (r < 0 || r >= obj->team->size)
        return VSYM_FAIL(VSYM_ERR_BAD_RANK, "%s: rank %d outside the team of %d ranks", op, r,
                         obj->team->size);
    if (ch < 0 || ch >= obj->team->ctx->channels)
        return VSYM_FAIL(VSYM_ERR_BAD_CHANNEL,
                         "%s: channel %d outside 0..%d (VSYM_SIGNAL_CHANNELS)", op, ch,
                         obj->team->ctx->channels - 1);
    return VSYM_OK;
}

static inline size_t slot(const vsym_obj_t *obj, int ch, int src)
{
    return (size_t)ch * (size_t)obj->team->size + (size_t)src;
}

/* Make the data this rank put to r visible at r before a signal to r. Shared-memory copies are
 * plain stores, already ordered before the compare-swap; other transports fence (which orders
 * earlier puts before later puts and atomics to that peer, without waiting a round trip). */
static inline vsym_status_t order_before_signal(vsym_obj_t *obj, int r)
{
    vsym_tp_t *tp = obj->tp[r];
    if (tp == obj->team->ctx->shm)
        return VSYM_OK;
    return tp->ops->fence(tp, obj->team->members[r]);
}

static vsym_status_t signal_put(vsym_obj_t *obj, int r, int ch, double timeout_s)
{
    vsym_tp_t *amo = obj->amo[r];
    int peer = obj->team->members[r];
    vsym_tp_raddr_t ra = obj->pads[r];
    vsym_backoff_t b;
    vsym_status_t st;
    uint64_t old = 0;
    char who[160];

    ra.addr += slot(obj, ch, obj->team->rank) * sizeof(uint64_t);
    if ((st = order_before_signal(obj, r)) != VSYM_OK)
        return st;
    vsym_backoff_init(&b, timeout_s);
    for (;;) {
        st = amo->ops->atomic64(amo, peer, &ra, VSYM_AMO_CSWAP, 1, 0, &old);
        if (st != VSYM_OK || old == 0)
            return st;
        /* The previous signal is still unconsumed: back-pressure. */
        if (!vsym_backoff_step(&b))
            return VSYM_FAIL(VSYM_ERR_TIMED_OUT,
                             "signal_put(channel %d): timed out after %.2f s: %s has not "
                             "consumed the previous signal",
                             ch, vsym_backoff_elapsed(&b),
                             vsym_core_peer_name(obj->team, r, who, sizeof(who)));
    }
}

static vsym_status_t signal_wait(vsym_obj_t *obj, int r, int ch, double timeout_s,
                                 const char *op)
{
    size_t k = slot(obj, ch, r);
    uint64_t *s = &obj->pad[k];
    int me = obj->team->rank;
    vsym_tp_t *amo = obj->amo[me];
    vsym_backoff_t b;
    char who[160];

    vsym_backoff_init(&b, timeout_s);
    /* Poll with plain loads: only the signaller moves this slot 0 -> 1. */
    while (__atomic_load_n(s, __ATOMIC_ACQUIRE) != 1) {
        if (!vsym_backoff_step(&b))
            return VSYM_FAIL(VSYM_ERR_TIMED_OUT, "%s(channel %d): timed out after %.2f s "
                                                 "waiting for %s",
                             op, ch, vsym_backoff_elapsed(&b),
                             vsym_core_peer_name(obj->team, r, who, sizeof(who)));
    }
    /* Move it back with the atomics the signaller uses. With CPU atomics a release store is a
     * compare-swap's equal. With NIC atomics it is not: the signaller's next compare-swap may
     * already be in flight (back-pressure), and a NIC may write the old value back when the
     * compare fails (Soft-RoCE does), undoing a CPU store made meanwhile: the consumed signal
     * would come back and a later wait would pass without its signal (issue 4). */
    if (amo == obj->team->ctx->shm) {
        __atomic_store_n(s, 0, __ATOMIC_RELEASE);
        return VSYM_OK;
    }
    vsym_tp_raddr_t ra = obj->pads[me];
    uint64_t old = 0;
    ra.addr += k * sizeof(uint64_t);
    vsym_status_t st =
        amo->ops->atomic64(amo, obj->team->members[me], &ra, VSYM_AMO_CSWAP, 0, 1, &old);
    if (st == VSYM_OK && old != 1)
        return VSYM_FAIL(VSYM_ERR_TRANSPORT,
                         "%s(channel %d): the signal slot of %s changed from 1 to %llu while "
                         "being consumed",
                         op, ch, vsym_core_peer_name(obj->team, r, who, sizeof(who)),
                         (unsigned long long)old);
    return st;
}

VSYM_API vsym_status_t vsym_signal_put(vsym_obj_t *obj, int r, int ch, double timeout_s)
{
    vsym_status_t st = check_signal(obj, r, ch, "signal_put");
    if (st != VSYM_OK)
        return st;
    return signal_put(obj, r, ch, timeout_s);
}

VSYM_API vsym_status_t vsym_signal_wait(vsym_obj_t *obj, int r, int ch, double timeout_s)
{
    vsym_status_t st = check_signal(obj, r, ch, "signal_wait");
    if (st != VSYM_OK)
        return st;
    return signal_wait(obj, r, ch, timeout_s, "signal_wait");
}

VSYM_API vsym_status_t vsym_put_with_signal(vsym_obj_t *obj, int r, size_t offset,
                                            const void *src, size_t len, int ch, double timeout_s)
{
    vsym_status_t st = check_signal(obj, r, ch, "put_with_signal");
    if (st != VSYM_OK)
        return st;
    if ((st = vsym_put(obj, r, offset, src, len)) != VSYM_OK)
        return st;
    return signal_put(obj, r, ch, timeout_s);
}

VSYM_API vsym_status_t vsym_signal_barrier(vsym_obj_t *obj, int ch, double timeout_s)
{
    vsym_status_t st = check_signal(obj, 0, ch, "signal_barrier");
    int n, me;
    if (st != VSYM_OK)
        return st;
    n = obj->team->size;
    me = obj->team->rank;
    /* Signal the peers in a rotated order (me+1, me+2, ...) so that ranks do not all hit rank 0
     * first; then collect the peers' signals in the same rotated order. */
    for (int i = 1; i < n; i++)
        if ((st = signal_put(obj, (me + i) % n, ch, timeout_s)) != VSYM_OK)
            return st;
    for (int i = 1; i < n; i++)
        if ((st = signal_wait(obj, (me + n - i) % n, ch, timeout_s, "barrier")) != VSYM_OK)
            return st;
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_signal_peek(const vsym_obj_t *obj, int src, int ch, uint64_t *value_p)
{
    vsym_status_t st = check_signal(obj, src, ch, "signal_peek");
    if (st != VSYM_OK)
        return st;
    if (value_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "signal_peek: NULL value_p");
    *value_p = __atomic_load_n(&obj->pad[slot(obj, ch, src)], __ATOMIC_ACQUIRE);
    return VSYM_OK;
}
