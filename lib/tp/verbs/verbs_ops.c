/* Data path of the verbs transport: put (RDMA write), get (RDMA read), NIC atomics, fence,
 * quiet, completions. No allocation and no system call on the hot path: work requests are built
 * on the stack, small puts are inline, only some requests are signalled, completions are polled
 * in batches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tp/verbs/verbs.h"

static const char *op_name(uint32_t op)
{
    switch (op) {
    case VERBS_OP_PUT:
        return "put (RDMA write)";
    case VERBS_OP_GET:
        return "get (RDMA read)";
    case VERBS_OP_FADD:
        return "atomic fetch-add";
    case VERBS_OP_CSWAP:
        return "atomic compare-swap";
    case VERBS_OP_FLUSH:
        return "quiet (completion flush)";
    default:
        return "operation";
    }
}

/* ---- Completions ---------------------------------------------------------------------------- */

static void qp_record_error(vsym_tp_verbs_t *t, verbs_qp_t *vq, const struct ibv_wc *wc,
                            uint64_t seq)
{
    const verbs_wr_info_t *info = &vq->info[seq & vq->info_mask];
    vsym_status_t st = vsym_tp_verbs_wc_status(wc->status);

    /* After the first bad completion the queue pair is in the error state and flushes the
     * rest; only the first one says what went wrong. */
    if (vq->failed != VSYM_OK)
        return;
    vq->failed = st;
    if (t->peers[vq->peer].failed == NULL)
        t->peers[vq->peer].failed = vq;
    snprintf(vq->fail_detail, sizeof(vq->fail_detail),
             "verbs: %s to peer %d (%u bytes at remote address 0x%llx, qp %d of %s) failed: %s "
             "(wc status %d, vendor error 0x%x)%s",
             op_name(info->op), vq->peer, info->len, (unsigned long long)info->raddr, vq->q,
             t->dev_name, ibv_wc_status_str(wc->status), (int)wc->status, wc->vendor_err,
             st == VSYM_ERR_PEER_FAILED ? "; the peer process is gone or unreachable" : "");
    vsym_error("%s", vq->fail_detail);
}

/* Everything up to seq of vq is complete: release bounce slots, copy out finished gets. */
static void qp_complete(verbs_qp_t *vq, uint64_t seq)
{
    vq->done = seq;
    while (vq->slot_used > 0) {
        uint32_t tail = (vq->slot_head + VERBS_SLOTS - vq->slot_used) % VERBS_SLOTS;
        verbs_slot_t *s = &vq->slots[tail];
        if (s->seq > seq)
            break;
        if (s->dst != NULL && vq->failed == VSYM_OK)
            memcpy(s->dst, vq->bounce + (size_t)tail * VERBS_SLOT_SIZE, s->len);
        vq->slot_used--;
    }
    while (vq->amo_used > 0) {
        uint32_t tail = (vq->amo_head + VERBS_AMO_RING - vq->amo_used) % VERBS_AMO_RING;
        if (vq->amo_slots[tail].seq > seq)
            break;
        if (vq->amo_slots[tail].dst != NULL && vq->failed == VSYM_OK)
            *(uint64_t *)vq->amo_slots[tail].dst = ((volatile uint64_t *)vq->amo_ring)[tail];
        vq->amo_used--;
    }
}

/* Poll one batch of completions. Returns the number taken, or -1 after reporting a failure of
 * the completion queue itself. */
static int progress(vsym_tp_verbs_t *t)
{
    struct ibv_wc wc[VERBS_POLL_BATCH];
    int n = ibv_poll_cq(t->cq, VERBS_POLL_BATCH, wc);

    if (n < 0) {
        vsym_tp_verbs_check(verbs_err_rc(n), "ibv_poll_cq on %s", t->dev_name);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        uint32_t index = (uint32_t)(wc[i].wr_id >> 32);
        if (index >= t->nqps)
            continue;
        verbs_qp_t *vq = t->qps[index];
        uint32_t low = (uint32_t)wc[i].wr_id;
        uint64_t seq = vq->posted - (uint32_t)((uint32_t)vq->posted - low);
        if (wc[i].status != IBV_WC_SUCCESS)
            qp_record_error(t, vq, &wc[i], seq);
        if (seq > vq->done)
            qp_complete(vq, seq);
    }
    return n;
}

static vsym_status_t qp_fail_status(verbs_qp_t *vq)
{
    return vsym_util_fail_quiet(vq->failed, "%s", vq->fail_detail);
}

/* Wait until pred(vq, arg) holds, polling completions, with the VSYM_TIMEOUT deadline. */
static vsym_status_t qp_wait(vsym_tp_verbs_t *t, verbs_qp_t *vq, uint64_t seq, const char *what)
{
    vsym_backoff_t b;

    if (vq->done >= seq)
        return vq->failed == VSYM_OK ? VSYM_OK : qp_fail_status(vq);
    /* A wait on the NIC, not on a rank: poll without yielding where every rank has a core. */
    vsym_backoff_init_device(&b, 0);
    while (vq->done < seq) {
        int n = progress(t);
        if (n < 0)
            return VSYM_ERR_TRANSPORT;
        if (n == 0 && !vsym_backoff_step(&b))
            return VSYM_FAIL(VSYM_ERR_TIMED_OUT,
                             "verbs: %s: peer %d gave no completion within %.1f s "
                             "(%llu requests outstanding on qp %d)",
                             what, vq->peer, vsym_backoff_elapsed(&b),
                             (unsigned long long)(vq->posted - vq->done), vq->q);
    }
    return vq->failed == VSYM_OK ? VSYM_OK : qp_fail_status(vq);
}

/* ---- Posting -------------------------------------------------------------------------------- */

typedef struct wr_batch {
    struct ibv_send_wr wr[VERBS_BATCH];
    struct ibv_sge sge[VERBS_BATCH];
    int n;
} wr_batch_t;

static vsym_status_t batch_flush(vsym_tp_verbs_t *t, verbs_qp_t *vq, wr_batch_t *b)
{
    struct ibv_send_wr *bad = NULL;
    int err;

    (void)t;
    if (b->n == 0)
        return VSYM_OK;
    b->wr[b->n - 1].next = NULL;
    err = verbs_err_rc(ibv_post_send(vq->qp, b->wr, &bad));
    if (err != 0) {
        b->n = 0;
        return vsym_tp_verbs_check(err, "ibv_post_send to peer %d (qp %d, %llu outstanding)",
                                   vq->peer, vq->q, (unsigned long long)(vq->posted - vq->done));
    }
    vq->posted += (uint64_t)b->n;
    b->n = 0;
    return VSYM_OK;
}

/* Room for one more request in the send queue, counting the unposted batch. The invariant that
 * makes this wait finite: some signalled request is always outstanding when the queue is more
 * than half full (one in every sig_interval = depth / 4 is signalled, and batches are
 * shorter than depth / 4). */
static vsym_status_t batch_room(vsym_tp_verbs_t *t, verbs_qp_t *vq, wr_batch_t *b,
                                const char *what)
{
    vsym_status_t st;

    if (vq->posted + (uint64_t)b->n + 1 - vq->done <= vq->depth && b->n < VERBS_BATCH)
        return VSYM_OK;
    if ((st = batch_flush(t, vq, b)) != VSYM_OK)
        return st;
    if (vq->posted + 1 - vq->done <= vq->depth)
        return VSYM_OK;
    return qp_wait(t, vq, vq->posted + 1 - vq->depth, what);
}

/* Append a request; the caller made room with batch_room. Returns its sequence number. */
static inline uint64_t batch_add(verbs_qp_t *vq, wr_batch_t *b, enum ibv_wr_opcode opcode,
                                 uint64_t raddr, uint32_t rkey, uint64_t laddr, uint32_t len,
                                 uint32_t lkey, unsigned send_flags, uint32_t op, int signal)
{
    struct ibv_send_wr *wr = &b->wr[b->n];
    struct ibv_sge *sge = &b->sge[b->n];
    uint64_t seq = vq->posted + (uint64_t)b->n + 1;

    if (seq - vq->signaled >= vq->sig_interval ||
        vq->slot_unsignaled >= VERBS_SLOTS / 4)
        signal = 1;
    if (signal) {
        send_flags |= IBV_SEND_SIGNALED;
        vq->signaled = seq;
        vq->slot_unsignaled = 0;
    }
    if (vq->fence_next) {
        send_flags |= IBV_SEND_FENCE;
        vq->fence_next = 0;
    }
    sge->addr = laddr;
    sge->length = len;
    sge->lkey = lkey;
    wr->wr_id = ((uint64_t)vq->index << 32) | (uint32_t)seq;
    wr->sg_list = sge;
    wr->num_sge = len > 0 ? 1 : 0;
    wr->opcode = opcode;
    wr->send_flags = send_flags;
    wr->wr.rdma.remote_addr = raddr;
    wr->wr.rdma.rkey = rkey;
    if (b->n > 0)
        b->wr[b->n - 1].next = wr;
    b->n++;
    verbs_wr_info_t *info = &vq->info[seq & vq->info_mask];
    info->raddr = raddr;
    info->len = len;
    info->op = op;
    return seq;
}

/* Free the oldest entry of a ring released in sequence order (bounce slots or non-blocking
 * atomic results): wait for the first signalled request among the ring's entries, oldest first
 * (a completion implies every earlier request of the queue pair is done). One follows within a
 * quarter of the ring; the newest signalled request is the fallback. Waiting for the newest one
 * instead drained three quarters of the ring before the next request could go out. */
static vsym_status_t ring_wait(vsym_tp_verbs_t *t, verbs_qp_t *vq, const verbs_slot_t *ring,
                               uint32_t head, uint32_t used, uint32_t size, const char *what)
{
    const uint64_t oldest = ring[(head + size - used) % size].seq;
    uint64_t need = vq->signaled;
    for (uint32_t i = 0; i < used; i++) {
        const verbs_slot_t *e = &ring[(head + size - used + i) % size];
        if (e->signaled) {
            need = e->seq;
            break;
        }
    }
    /* Never return before the oldest entry is free: a broken signalling invariant then shows as
     * a timeout naming the peer, not as an overwritten entry. */
    return qp_wait(t, vq, need > oldest ? need : oldest, what);
}

/* A free bounce slot (flushing the batch and waiting for completions when none is free). */
static vsym_status_t slot_take(vsym_tp_verbs_t *t, verbs_qp_t *vq, wr_batch_t *b,
                               uint32_t *slot_p, const char *what)
{
    vsym_status_t st;

    if (vq->slot_used == VERBS_SLOTS) {
        if ((st = batch_flush(t, vq, b)) != VSYM_OK)
            return st;
        if ((st = ring_wait(t, vq, vq->slots, vq->slot_head, vq->slot_used, VERBS_SLOTS, what)) !=
            VSYM_OK)
            return st;
    }
    *slot_p = vq->slot_head;
    vq->slot_head = (vq->slot_head + 1) % VERBS_SLOTS;
    vq->slot_used++;
    vq->slot_unsignaled++;
    return VSYM_OK;
}

/* ---- Addressing ----------------------------------------------------------------------------- */

static inline vsym_status_t peer_qp(vsym_tp_verbs_t *t, int peer, const char *what,
                                   verbs_qp_t **vq_p)
{
    if ((unsigned)peer >= (unsigned)t->size || t->peers[peer].nqp == 0)
        return VSYM_FAIL(VSYM_ERR_BAD_RANK, "verbs: %s: no verbs connection to rank %d", what,
                         peer);
    verbs_peer_t *p = &t->peers[peer];
    /* One failed queue pair fails the peer: the others may have lost requests with it. */
    if (p->failed != NULL)
        return qp_fail_status(p->failed);
    verbs_qp_t *vq = p->qps[p->nqp == 1 ? 0 : p->next++ % (unsigned)p->nqp];
    *vq_p = vq;
    return VSYM_OK;
}

static inline vsym_status_t remote_addr(vsym_tp_verbs_t *t, int peer,
                                        const vsym_tp_raddr_t *ra, size_t len, const char *what,
                                        uint64_t *addr_p, uint32_t *rkey_p)
{
    if (ra->flags & VSYM_TP_ADDR_ARENA) {
        const verbs_peer_t *p = &t->peers[peer];
        if (ra->addr > p->arena_size || len > p->arena_size - ra->addr)
            return VSYM_FAIL(VSYM_ERR_OUT_OF_BOUNDS,
                             "verbs: %s: %zu bytes at arena offset %llu are outside rank %d's "
                             "arena of %llu bytes",
                             what, len, (unsigned long long)ra->addr, peer,
                             (unsigned long long)p->arena_size);
        *addr_p = p->arena_addr + ra->addr;
        *rkey_p = p->arena_rkey;
    } else {
        *addr_p = ra->addr;
        *rkey_p = ra->rkey;
    }
    return VSYM_OK;
}

/* The lkey of registered local memory holding [p, p + len), or 0 with *found = 0. */
static inline int local_lkey(vsym_tp_verbs_t *t, const void *p, size_t len, uint32_t *lkey_p)
{
    uintptr_t a = (uintptr_t)p;
    uintptr_t base = (uintptr_t)t->arena.base;
    if (a - base < t->arena.size && len <= t->arena.size - (a - base)) {
        *lkey_p = t->arena_mr->lkey;
        return 1;
    }
    for (int i = 0; i < t->nregs; i++) {
        if (a - t->regs[i].addr < t->regs[i].len && len <= t->regs[i].len - (a - t->regs[i].addr)) {
            *lkey_p = t->regs[i].mr->lkey;
            return 1;
        }
    }
    return 0;
}

/* ---- put / get ------------------------------------------------------------------------------ */

static vsym_status_t verbs_put(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                               const void *src, size_t len, unsigned flags)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;
    verbs_qp_t *vq = NULL;
    uint64_t raddr = 0;
    uint32_t rkey = 0, lkey = 0;
    wr_batch_t b;
    vsym_status_t st;

    if ((st = peer_qp(t, peer, "put", &vq)) != VSYM_OK ||
        (st = remote_addr(t, peer, dst, len, "put", &raddr, &rkey)) != VSYM_OK)
        return st;
    if (len == 0)
        return VSYM_OK;
    b.n = 0;
    if (len <= t->max_inline) {
        /* The data is copied into the request at post time: src is reusable at once. */
        if ((st = batch_room(t, vq, &b, "put")) != VSYM_OK)
            return st;
        batch_add(vq, &b, IBV_WR_RDMA_WRITE, raddr, rkey, (uintptr_t)src, (uint32_t)len, 0,
                  IBV_SEND_INLINE, VERBS_OP_PUT, 0);
        return batch_flush(t, vq, &b);
    }
    int blocking = !(flags & VSYM_TP_NBI);
    if (local_lkey(t, src, len, &lkey) && !(blocking && len <= VERBS_SMALL_BOUNCE)) {
        /* Zero copy from registered memory; a blocking put waits for the last request. */
        uint64_t seq = 0;
        for (size_t off = 0; off < len;) {
            uint32_t chunk = (uint32_t)(len - off < t->max_msg ? len - off : t->max_msg);
            if ((st = batch_room(t, vq, &b, "put")) != VSYM_OK)
                return st;
            seq = batch_add(vq, &b, IBV_WR_RDMA_WRITE, raddr + off, rkey,
                            (uintptr_t)src + off, chunk, lkey, 0, VERBS_OP_PUT,
                            blocking && off + chunk == len);
            off += chunk;
        }
        if ((st = batch_flush(t, vq, &b)) != VSYM_OK)
            return st;
        return blocking ? qp_wait(t, vq, seq, "put") : VSYM_OK;
    }
    /* Through bounce slots: once copied, src is reusable, so even a blocking put returns
     * without waiting for the network. */
    for (size_t off = 0; off < len;) {
        uint32_t chunk = (uint32_t)(len - off < VERBS_SLOT_SIZE ? len - off : VERBS_SLOT_SIZE);
        uint32_t slot;
        if ((st = batch_room(t, vq, &b, "put")) != VSYM_OK ||
            (st = slot_take(t, vq, &b, &slot, "put")) != VSYM_OK)
            return st;
        char *buf = vq->bounce + (size_t)slot * VERBS_SLOT_SIZE;
        memcpy(buf, (const char *)src + off, chunk);
        vq->slots[slot].dst = NULL;
        vq->slots[slot].len = chunk;
        vq->slots[slot].seq = batch_add(vq, &b, IBV_WR_RDMA_WRITE, raddr + off, rkey,
                                        (uintptr_t)buf, chunk, t->bounce_mr->lkey, 0,
                                        VERBS_OP_PUT, 0);
        vq->slots[slot].signaled = vq->signaled == vq->slots[slot].seq;
        off += chunk;
    }
    return batch_flush(t, vq, &b);
}

static vsym_status_t verbs_get(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *src, void *dst,
                               size_t len, unsigned flags)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;
    verbs_qp_t *vq = NULL;
    uint64_t raddr = 0, seq = 0;
    uint32_t rkey = 0, lkey = 0;
    int blocking = !(flags & VSYM_TP_NBI);
    wr_batch_t b;
    vsym_status_t st;

    if ((st = peer_qp(t, peer, "get", &vq)) != VSYM_OK ||
        (st = remote_addr(t, peer, src, len, "get", &raddr, &rkey)) != VSYM_OK)
        return st;
    if (len == 0)
        return VSYM_OK;
    b.n = 0;
    if (local_lkey(t, dst, len, &lkey)) {
        for (size_t off = 0; off < len;) {
            uint32_t chunk = (uint32_t)(len - off < t->max_msg ? len - off : t->max_msg);
            if ((st = batch_room(t, vq, &b, "get")) != VSYM_OK)
                return st;
            seq = batch_add(vq, &b, IBV_WR_RDMA_READ, raddr + off, rkey, (uintptr_t)dst + off,
                            chunk, lkey, 0, VERBS_OP_GET, blocking && off + chunk == len);
            off += chunk;
        }
    } else {
        /* Into bounce slots; each is copied to dst when its completion is seen. */
        for (size_t off = 0; off < len;) {
            uint32_t chunk = (uint32_t)(len - off < VERBS_SLOT_SIZE ? len - off : VERBS_SLOT_SIZE);
            uint32_t slot;
            if ((st = batch_room(t, vq, &b, "get")) != VSYM_OK ||
                (st = slot_take(t, vq, &b, &slot, "get")) != VSYM_OK)
                return st;
            char *buf = vq->bounce + (size_t)slot * VERBS_SLOT_SIZE;
            vq->slots[slot].dst = (char *)dst + off;
            vq->slots[slot].len = chunk;
            seq = batch_add(vq, &b, IBV_WR_RDMA_READ, raddr + off, rkey, (uintptr_t)buf, chunk,
                            t->bounce_mr->lkey, 0, VERBS_OP_GET, blocking && off + chunk == len);
            vq->slots[slot].seq = seq;
            vq->slots[slot].signaled = vq->signaled == seq;
            off += chunk;
        }
    }
    if ((st = batch_flush(t, vq, &b)) != VSYM_OK)
        return st;
    return blocking ? qp_wait(t, vq, seq, "get") : VSYM_OK;
}

/* ---- Atomics -------------------------------------------------------------------------------- */

static inline unsigned amo_slot(int peer, uint64_t raddr)
{
    return (unsigned)(((raddr >> 3) ^ (uint64_t)peer * 0x9e37u) & 63u);
}

/* The value the word at raddr of peer probably holds (0 when unknown). */
static inline uint64_t amo_guess(vsym_tp_verbs_t *t, int peer, uint64_t raddr)
{
    unsigned i = amo_slot(peer, raddr);
    return t->amo_tag[i] == (raddr | 1u) + ((uint64_t)peer << 48) ? t->amo_val[i] : 0;
}

/* One NIC atomic on the 8-byte word at raddr; complete at the target on return. */
/* Append a NIC compare-swap or fetch-add whose old value lands in result (registered bounce
 * memory); the caller made room with batch_room. Returns its sequence number. */
static uint64_t atomic_add(vsym_tp_verbs_t *t, verbs_qp_t *vq, wr_batch_t *b, int cswap,
                           uint64_t raddr, uint32_t rkey, uint64_t compare_add, uint64_t swap,
                           uint64_t *result, int signal)
{
    uint64_t seq = batch_add(vq, b, cswap ? IBV_WR_ATOMIC_CMP_AND_SWP : IBV_WR_ATOMIC_FETCH_AND_ADD,
                             raddr, 0, (uintptr_t)result, 8, t->bounce_mr->lkey, 0,
                             cswap ? VERBS_OP_CSWAP : VERBS_OP_FADD, signal);
    struct ibv_send_wr *wr = &b->wr[b->n - 1];
    wr->wr.atomic.remote_addr = raddr;
    wr->wr.atomic.rkey = rkey;
    wr->wr.atomic.compare_add = compare_add;
    wr->wr.atomic.swap = swap;
    return seq;
}

static vsym_status_t nic_atomic(vsym_tp_verbs_t *t, verbs_qp_t *vq, int cswap, uint64_t raddr,
                                uint32_t rkey, uint64_t compare_add, uint64_t swap,
                                uint64_t *old_p)
{
    const char *what = cswap ? "atomic compare-swap" : "atomic fetch-add";
    wr_batch_t b;
    uint64_t seq;
    vsym_status_t st;

    b.n = 0;
    if ((st = batch_room(t, vq, &b, what)) != VSYM_OK)
        return st;
    seq = atomic_add(t, vq, &b, cswap, raddr, rkey, compare_add, swap, vq->amo_result, 1);
    if ((st = batch_flush(t, vq, &b)) != VSYM_OK || (st = qp_wait(t, vq, seq, what)) != VSYM_OK)
        return st;
    uint64_t old = *(volatile uint64_t *)vq->amo_result;
    unsigned i = amo_slot(vq->peer, raddr);
    t->amo_tag[i] = (raddr | 1u) + ((uint64_t)vq->peer << 48);
    t->amo_val[i] = cswap ? (old == compare_add ? swap : old) : old + compare_add;
    *old_p = old;
    return VSYM_OK;
}

static vsym_status_t atomic_target(vsym_tp_verbs_t *t, int peer, const vsym_tp_raddr_t *dst,
                                   size_t size, const char *what, verbs_qp_t **vq_p,
                                   uint64_t *raddr_p, uint32_t *rkey_p)
{
    verbs_peer_t *p;
    vsym_status_t st;

    if (!t->atomics)
        return VSYM_FAIL(VSYM_ERR_UNSUPPORTED, "verbs: %s: device %s has no atomics", what,
                         t->dev_name);
    if ((st = peer_qp(t, peer, what, vq_p)) != VSYM_OK ||
        (st = remote_addr(t, peer, dst, size, what, raddr_p, rkey_p)) != VSYM_OK)
        return st;
    if (*raddr_p & (size - 1))
        return VSYM_FAIL(VSYM_ERR_UNALIGNED,
                         "verbs: %s on rank %d: address 0x%llx is not %zu-byte aligned", what,
                         peer, (unsigned long long)*raddr_p, size);
    /* All atomics to a peer use its first queue pair, so they stay ordered after the puts
     * that a fence ordered before them. */
    p = &t->peers[peer];
    *vq_p = p->qps[0];
    return VSYM_OK;
}

static vsym_status_t verbs_atomic64(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                                    vsym_amo_op_t op, uint64_t value, uint64_t compare,
                                    uint64_t *old_p)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;
    verbs_qp_t *vq = NULL;
    uint64_t raddr = 0, old = 0, guess;
    uint32_t rkey = 0;
    vsym_status_t st;

    if ((st = atomic_target(t, peer, dst, 8, "atomic64", &vq, &raddr, &rkey)) != VSYM_OK)
        return st;
    switch (op) {
    case VSYM_AMO_FETCH:
        st = nic_atomic(t, vq, 0, raddr, rkey, 0, 0, &old);
        break;
    case VSYM_AMO_ADD:
    case VSYM_AMO_FETCH_ADD:
        st = nic_atomic(t, vq, 0, raddr, rkey, value, 0, &old);
        break;
    case VSYM_AMO_CSWAP:
        st = nic_atomic(t, vq, 1, raddr, rkey, compare, value, &old);
        break;
    case VSYM_AMO_SET:
    case VSYM_AMO_SWAP:
        /* Swap from compare-swap: guess the old value (the last one seen there, else 0), and
         * retry with what the NIC returned until the guess was right. */
        guess = amo_guess(t, peer, raddr);
        for (;;) {
            if ((st = nic_atomic(t, vq, 1, raddr, rkey, guess, value, &old)) != VSYM_OK ||
                old == guess)
                break;
            guess = old;
        }
        break;
    default:
        return VSYM_FAIL(VSYM_ERR_BAD_OP, "verbs: atomic64: unknown operation %d", (int)op);
    }
    if (st == VSYM_OK && old_p != NULL)
        *old_p = old;
    return st;
}

/* Non-blocking 64-bit atomics: the result lands in a word of the queue pair's ring and is
 * copied to old_p when the completion is seen (at the latest by quiet). */
static vsym_status_t verbs_atomic64_nbi(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                                        vsym_amo_op_t op, uint64_t value, uint64_t compare,
                                        uint64_t *old_p)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;
    verbs_qp_t *vq = NULL;
    uint64_t raddr = 0;
    uint32_t rkey = 0;
    wr_batch_t b;
    vsym_status_t st;
    int cswap = op == VSYM_AMO_CSWAP; /* else FETCH, ADD or FETCH_ADD (the core checked) */
    const char *what = cswap ? "atomic compare-swap" : "atomic fetch-add";

    if ((st = atomic_target(t, peer, dst, 8, "atomic64_nbi", &vq, &raddr, &rkey)) != VSYM_OK)
        return st;
    b.n = 0;
    if ((st = batch_room(t, vq, &b, what)) != VSYM_OK)
        return st;
    if (vq->amo_used == VERBS_AMO_RING) {
        /* Ring full: wait for its oldest word (a request every VERBS_AMO_RING / 4 is signalled). */
        if ((st = ring_wait(t, vq, vq->amo_slots, vq->amo_head, vq->amo_used, VERBS_AMO_RING,
                            what)) != VSYM_OK)
            return st;
    }
    uint32_t k = vq->amo_head;
    int sig = ++vq->amo_unsignaled >= VERBS_AMO_RING / 4;
    if (sig)
        vq->amo_unsignaled = 0;
    uint64_t seq = atomic_add(t, vq, &b, cswap, raddr, rkey,
                              cswap ? compare : op == VSYM_AMO_FETCH ? 0 : value,
                              cswap ? value : 0, &vq->amo_ring[k], sig);
    vq->amo_slots[k].seq = seq;
    vq->amo_slots[k].dst = old_p;
    vq->amo_slots[k].signaled = vq->signaled == seq;
    vq->amo_head = (k + 1) % VERBS_AMO_RING;
    vq->amo_used++;
    /* The blocking atomics' guess of SET and SWAP no longer knows this word's value. */
    t->amo_tag[amo_slot(vq->peer, raddr)] = 0;
    return batch_flush(t, vq, &b);
}

/* 32-bit atomics: a compare-swap loop on the aligned 8-byte word that holds them, changing
 * only their half. The high half's add is a plain fetch-add (a carry out of bit 63 is lost,
 * which is exactly 32-bit wrap-around). Hosts are little-endian. */
static vsym_status_t verbs_atomic32(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                                    vsym_amo_op_t op, uint32_t value, uint32_t compare,
                                    uint32_t *old_p)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;
    verbs_qp_t *vq = NULL;
    uint64_t raddr = 0, word_addr, old64 = 0, guess = 0;
    uint32_t rkey = 0, old32 = 0, new32;
    vsym_status_t st;

    if ((st = atomic_target(t, peer, dst, 4, "atomic32", &vq, &raddr, &rkey)) != VSYM_OK)
        return st;
    word_addr = raddr & ~(uint64_t)7;
    unsigned shift = (unsigned)(raddr & 4) * 8;
    uint64_t mask = (uint64_t)0xffffffffu << shift;
    if ((dst->flags & VSYM_TP_ADDR_ARENA) && (dst->addr & ~(uint64_t)7) + 8 >
                                                 t->peers[peer].arena_size)
        return VSYM_FAIL(VSYM_ERR_OUT_OF_BOUNDS, "verbs: atomic32 word beyond rank %d's arena",
                         peer);
    if (op == VSYM_AMO_FETCH ||
        (shift == 32 && (op == VSYM_AMO_ADD || op == VSYM_AMO_FETCH_ADD))) {
        uint64_t add = op == VSYM_AMO_FETCH ? 0 : (uint64_t)value << 32;
        if ((st = nic_atomic(t, vq, 0, word_addr, rkey, add, 0, &old64)) != VSYM_OK)
            return st;
        if (old_p != NULL)
            *old_p = (uint32_t)((old64 & mask) >> shift);
        return VSYM_OK;
    }
    if (op > VSYM_AMO_CSWAP || (int)op < 0)
        return VSYM_FAIL(VSYM_ERR_BAD_OP, "verbs: atomic32: unknown operation %d", (int)op);
    guess = amo_guess(t, peer, word_addr);
    for (;;) {
        old32 = (uint32_t)((guess & mask) >> shift);
        switch (op) {
        case VSYM_AMO_ADD:
        case VSYM_AMO_FETCH_ADD:
            new32 = old32 + value;
            break;
        case VSYM_AMO_CSWAP:
            new32 = old32 == compare ? value : old32;
            break;
        default: /* SET, SWAP */
            new32 = value;
            break;
        }
        uint64_t next = (guess & ~mask) | ((uint64_t)new32 << shift);
        if ((st = nic_atomic(t, vq, 1, word_addr, rkey, guess, next, &old64)) != VSYM_OK)
            return st;
        if (old64 == guess)
            break;
        guess = old64;
    }
    if (old_p != NULL)
        *old_p = old32;
    return VSYM_OK;
}

/* ---- fence / quiet -------------------------------------------------------------------------- */

static vsym_status_t quiet_qp(vsym_tp_verbs_t *t, verbs_qp_t *vq)
{
    vsym_status_t st;

    if (vq->failed != VSYM_OK)
        return qp_fail_status(vq);
    if (vq->done == vq->posted)
        return VSYM_OK;
    if (vq->signaled < vq->posted) {
        /* The tail is unsignalled: a signalled empty write completes after it (completions of
         * one send queue arrive in order). */
        wr_batch_t b;
        b.n = 0;
        verbs_peer_t *p = &t->peers[vq->peer];
        if ((st = batch_room(t, vq, &b, "quiet")) != VSYM_OK)
            return st;
        batch_add(vq, &b, IBV_WR_RDMA_WRITE, p->arena_addr, p->arena_rkey, 0, 0, 0, 0,
                  VERBS_OP_FLUSH, 1);
        if ((st = batch_flush(t, vq, &b)) != VSYM_OK)
            return st;
    }
    return VSYM_OK;
}

static vsym_status_t verbs_quiet(vsym_tp_t *tp, int peer)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;
    vsym_status_t st, first = VSYM_OK;
    uint32_t lo = 0, hi = t->nqps;

    if (peer >= 0) {
        if (peer >= t->size || t->peers[peer].nqp == 0)
            return VSYM_FAIL(VSYM_ERR_BAD_RANK, "verbs: quiet: no verbs connection to rank %d",
                             peer);
        lo = t->peers[peer].qps[0]->index;
        hi = lo + (uint32_t)t->peers[peer].nqp;
    }
    /* Post every flush first, then wait: the round trips overlap. */
    for (uint32_t i = lo; i < hi; i++)
        if ((st = quiet_qp(t, t->qps[i])) != VSYM_OK && first == VSYM_OK)
            first = st;
    if (first != VSYM_OK)
        return first;
    for (uint32_t i = lo; i < hi; i++)
        if ((st = qp_wait(t, t->qps[i], t->qps[i]->posted, "quiet")) != VSYM_OK)
            return st;
    return VSYM_OK;
}

static vsym_status_t verbs_fence(vsym_tp_t *tp, int peer)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;

    if (t->qps_per_peer > 1)
        return verbs_quiet(tp, peer); /* queue pairs are not ordered with each other */
    /* One queue pair per peer: RC executes requests in order at the responder; the fence flag
     * also holds the next request until earlier reads and atomics have completed. */
    for (uint32_t i = 0; i < t->nqps; i++)
        if (peer < 0 || t->qps[i]->peer == peer)
            t->qps[i]->fence_next = 1;
    return VSYM_OK;
}

/* ---- Memory registration ---------------------------------------------------------------------- */

static vsym_status_t verbs_mem_reg(vsym_tp_t *tp, void *addr, size_t len, void **memh_p,
                                   uint32_t *rkey_p)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;
    /* Peers put, get and (when the device can) run atomics on it; remote writes need local
     * write. */
    int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
                 (t->atomics ? IBV_ACCESS_REMOTE_ATOMIC : 0);

    if (addr == NULL || len == 0)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "verbs: mem_reg of %zu bytes at %p", len, addr);
    if (t->nregs == t->cap_regs) {
        int cap = t->cap_regs ? t->cap_regs * 2 : 8;
        verbs_memreg_t *n = realloc(t->regs, (size_t)cap * sizeof(*n));
        if (n == NULL)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: registration table");
        t->regs = n;
        t->cap_regs = cap;
    }
    struct ibv_mr *mr = ibv_reg_mr(t->pd, addr, len, access);
    int err = vsym_tp_verbs_err_null(mr);
    if (err != 0)
        return vsym_tp_verbs_check(err, "ibv_reg_mr of %zu bytes at %p", len, addr);
    t->regs[t->nregs++] = (verbs_memreg_t){(uintptr_t)addr, len, mr};
    *memh_p = mr;
    *rkey_p = mr->rkey;
    return VSYM_OK;
}

static void verbs_mem_dereg(vsym_tp_t *tp, void *memh)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;
    for (int i = 0; i < t->nregs; i++) {
        if (t->regs[i].mr == memh) {
            int err = verbs_err_rc(ibv_dereg_mr(t->regs[i].mr));
            if (err != 0)
                vsym_tp_verbs_check(err, "ibv_dereg_mr");
            t->regs[i] = t->regs[--t->nregs];
            return;
        }
    }
}

static void *verbs_peer_ptr(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *raddr)
{
    (void)tp;
    (void)peer;
    (void)raddr;
    return NULL; /* no load/store across a NIC */
}

const vsym_tp_ops_t vsym_tp_verbs_ops = {
    .name = "verbs",
    .put_staged_max = VERBS_SMALL_BOUNCE,
    .destroy = vsym_tp_verbs_destroy,
    .mem_reg = verbs_mem_reg,
    .mem_dereg = verbs_mem_dereg,
    .peer_ptr = verbs_peer_ptr,
    .put = verbs_put,
    .get = verbs_get,
    .atomic64 = verbs_atomic64,
    .atomic32 = verbs_atomic32,
    .atomic64_nbi = verbs_atomic64_nbi,
    .fence = verbs_fence,
    .quiet = verbs_quiet,
};
