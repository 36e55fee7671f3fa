/* Connection set-up of the verbs transport: RC queue pairs to every needed peer, connected
 * either by exchanging (qpn, psn, lid, gid, mtu) through the boot allgather and driving the
 * RESET-INIT-RTR-RTS transitions ourselves, or through librdmacm (VSYM_CM=rdmacm) over the
 * IP address behind the chosen GID (on Soft-RoCE: the link-local IPv6 address of the netdev). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tp/verbs/verbs.h"

#define CONN_MAGIC 0x76737962u /* "vsyb" */

/* Retransmission timeout: 4.096 us * 2^VSYM_ACK_TIMEOUT (default 20: 4.3 s, as NCCL and Open MPI
 * use), 6 retries: a dead peer shows as a retry-exceeded completion after about 30 s, inside
 * VSYM_TIMEOUT. Shorter timeouts retransmit spuriously on a starved host, and a retransmitted
 * request is where Soft-RoCE is weakest (a 537 ms timeout left atomics without a completion
 * after a burst of retries: issue 4). Not 7 retries: Soft-RoCE treats retry_cnt 7 as "retry for
 * ever". */
#define VERBS_RETRY_COUNT 6
#define VERBS_RNR_RETRY 7

typedef struct conn_hdr {
    uint32_t magic;
    uint32_t qps_per_peer;
    uint8_t gid[16];
    uint16_t lid;
    uint8_t mtu;
    uint8_t link_layer;
    uint32_t psn_base;
    uint64_t arena_addr;
    uint64_t arena_size;
    uint32_t arena_rkey;
    uint32_t max_rd_atom;
    uint8_t cm_addr[16];
    uint16_t cm_port; /* network order */
    uint16_t cm_family;
    uint32_t pad;
} conn_hdr_t;

static unsigned connect_generation;

static uint32_t psn_of(uint32_t base, int index)
{
    return (base + (uint32_t)index * 7919u) & 0xffffffu;
}

void vsym_tp_verbs_qp_init_attr(vsym_tp_verbs_t *t, uint32_t inline_size,
                                struct ibv_qp_init_attr *attr)
{
    memset(attr, 0, sizeof(*attr));
    attr->send_cq = t->cq;
    attr->recv_cq = t->cq;
    attr->qp_type = IBV_QPT_RC;
    attr->sq_sig_all = 0;
    attr->cap.max_send_wr = t->sq_depth;
    attr->cap.max_recv_wr = 1;
    attr->cap.max_send_sge = 1;
    attr->cap.max_recv_sge = 1;
    attr->cap.max_inline_data = inline_size;
}

void vsym_tp_verbs_qp_attach(vsym_tp_verbs_t *t, verbs_qp_t *vq, struct ibv_qp *qp)
{
    vq->qp = qp;
    vq->bounce = (char *)t->bounce_mem + (size_t)vq->index * VERBS_QP_BOUNCE;
    vq->amo_result = (uint64_t *)(vq->bounce + (size_t)VERBS_SLOTS * VERBS_SLOT_SIZE);
    vq->amo_ring = vq->amo_result + 8;
    t->qps[vq->index] = vq;
}

/* Create a queue pair, asking for as much inline data as the device gives (providers fail
 * creation when asked for more than they support, so step down). */
static vsym_status_t create_qp(vsym_tp_verbs_t *t, struct rdma_cm_id *cm_id, verbs_qp_t *vq)
{
    static const uint32_t inline_try[] = {256, 128, 64, 0};
    struct ibv_qp_init_attr attr;
    struct ibv_qp *qp = NULL;
    int err = 0;

    for (size_t i = 0; i < sizeof(inline_try) / sizeof(inline_try[0]); i++) {
        vsym_tp_verbs_qp_init_attr(t, inline_try[i], &attr);
        if (cm_id != NULL) {
            err = vsym_tp_verbs_err_neg1(rdma_create_qp(cm_id, t->pd, &attr));
            qp = err == 0 ? cm_id->qp : NULL;
        } else {
            qp = ibv_create_qp(t->pd, &attr);
            err = vsym_tp_verbs_err_null(qp);
        }
        if (err == 0)
            break;
    }
    if (err != 0)
        return vsym_tp_verbs_check(err, "creating the RC queue pair %d to peer %d (depth %u)",
                                   vq->q, vq->peer, t->sq_depth);
    /* The smallest inline size over all queue pairs is what every put may use. */
    if (attr.cap.max_inline_data < t->max_inline)
        t->max_inline = attr.cap.max_inline_data;
    vq->cm_id = cm_id;
    vsym_tp_verbs_qp_attach(t, vq, qp);
    return VSYM_OK;
}

static vsym_status_t qp_to_init(vsym_tp_verbs_t *t, verbs_qp_t *vq)
{
    struct ibv_qp_attr a;
    memset(&a, 0, sizeof(a));
    a.qp_state = IBV_QPS_INIT;
    a.pkey_index = 0;
    a.port_num = t->port;
    a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
                        IBV_ACCESS_REMOTE_ATOMIC;
    int err = verbs_err_rc(ibv_modify_qp(vq->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
                                                         IBV_QP_PORT | IBV_QP_ACCESS_FLAGS));
    return vsym_tp_verbs_check(err, "queue pair %d to peer %d: RESET to INIT", vq->q, vq->peer);
}

static vsym_status_t qp_to_rts(vsym_tp_verbs_t *t, verbs_qp_t *vq, const conn_hdr_t *remote,
                               uint32_t remote_qpn, uint32_t remote_psn, uint32_t local_psn)
{
    struct ibv_qp_attr a;
    int err;

    memset(&a, 0, sizeof(a));
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = (enum ibv_mtu)(remote->mtu < t->mtu ? remote->mtu : t->mtu);
    a.dest_qp_num = remote_qpn;
    a.rq_psn = remote_psn;
    a.max_dest_rd_atomic = (uint8_t)t->max_rd_atom;
    a.min_rnr_timer = 12;
    a.ah_attr.port_num = t->port;
    a.ah_attr.dlid = remote->lid;
    if (t->gid_index >= 0) {
        a.ah_attr.is_global = 1;
        memcpy(a.ah_attr.grh.dgid.raw, remote->gid, 16);
        a.ah_attr.grh.sgid_index = (uint8_t)t->gid_index;
        a.ah_attr.grh.hop_limit = 64;
    }
    err = verbs_err_rc(ibv_modify_qp(vq->qp, &a,
                                     IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
                                         IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                                         IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER));
    if (err != 0)
        return vsym_tp_verbs_check(err, "queue pair %d to peer %d: INIT to RTR (remote qpn %u)",
                                   vq->q, vq->peer, remote_qpn);
    memset(&a, 0, sizeof(a));
    a.qp_state = IBV_QPS_RTS;
    a.sq_psn = local_psn;
    a.timeout = t->ack_timeout;
    a.retry_cnt = VERBS_RETRY_COUNT;
    a.rnr_retry = VERBS_RNR_RETRY;
    /* Reads and atomics in flight: what we may initiate and the peer may answer. */
    a.max_rd_atomic = (uint8_t)((uint32_t)t->max_init_rd_atom < remote->max_rd_atom
                                    ? (uint32_t)t->max_init_rd_atom
                                    : remote->max_rd_atom);
    err = verbs_err_rc(ibv_modify_qp(vq->qp, &a,
                                     IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
                                         IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                                         IBV_QP_MAX_QP_RD_ATOMIC));
    return vsym_tp_verbs_check(err, "queue pair %d to peer %d: RTR to RTS", vq->q, vq->peer);
}

/* Allocate the verbs_qp_t records of every connected peer (qp pointers filled later). */
static vsym_status_t alloc_peer_qps(vsym_tp_verbs_t *t, const uint8_t *pair)
{
    uint32_t index = 0;
    for (int r = 0; r < t->size; r++) {
        if (!pair[r])
            continue;
        verbs_peer_t *p = &t->peers[r];
        p->qps = calloc((size_t)t->qps_per_peer, sizeof(*p->qps));
        if (p->qps == NULL)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: queue pair table");
        for (int q = 0; q < t->qps_per_peer; q++) {
            verbs_qp_t *vq = calloc(1, sizeof(*vq));
            if (vq == NULL)
                return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: queue pair record");
            uint32_t ring = 1;
            while (ring < t->sq_depth)
                ring <<= 1;
            vq->info = calloc(ring, sizeof(*vq->info));
            if (vq->info == NULL) {
                free(vq);
                return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: request ring");
            }
            vq->info_mask = ring - 1;
            vq->index = index++;
            vq->peer = r;
            vq->q = q;
            vq->depth = t->sq_depth;
            vq->sig_interval = t->sq_depth / 4;
            p->qps[q] = vq;
            p->nqp++;
        }
    }
    return VSYM_OK;
}

static void fill_hdr(vsym_tp_verbs_t *t, conn_hdr_t *h, uint32_t psn_base)
{
    memset(h, 0, sizeof(*h));
    h->magic = CONN_MAGIC;
    h->qps_per_peer = (uint32_t)t->qps_per_peer;
    memcpy(h->gid, t->gid.raw, 16);
    h->lid = t->lid;
    h->mtu = (uint8_t)t->mtu;
    h->link_layer = t->link_layer;
    h->psn_base = psn_base;
    h->arena_addr = (uint64_t)(uintptr_t)t->arena.base;
    h->arena_size = t->arena.size;
    h->arena_rkey = t->arena_mr->rkey;
    h->max_rd_atom = (uint32_t)t->max_rd_atom;
}

static vsym_status_t check_hdr(vsym_tp_verbs_t *t, int r, const conn_hdr_t *h)
{
    if (h->magic != CONN_MAGIC)
        return VSYM_FAIL(VSYM_ERR_TRANSPORT,
                         "verbs: rank %d failed to create its queue pairs (see its log)", r);
    if (h->qps_per_peer != (uint32_t)t->qps_per_peer)
        return VSYM_FAIL(VSYM_ERR_MISMATCH,
                         "verbs: VSYM_QPS_PER_PEER differs: %d here, %u on rank %d",
                         t->qps_per_peer, h->qps_per_peer, r);
    if (h->link_layer != t->link_layer)
        return VSYM_FAIL(VSYM_ERR_MISMATCH,
                         "verbs: rank %d uses link layer %u, this rank %u (IB and RoCE mixed)",
                         r, h->link_layer, t->link_layer);
    verbs_peer_t *p = &t->peers[r];
    p->arena_addr = h->arena_addr;
    p->arena_size = h->arena_size;
    p->arena_rkey = h->arena_rkey;
    return VSYM_OK;
}

/* The loopback queue pair to self talks to a responder-only queue pair of its own, not to
 * itself: a queue pair connected to itself is also its own responder, and a remote access
 * error that the responder side detects moves it to the error state, which can flush the
 * failing request before its error completion is made (Soft-RoCE of Linux 6.12 does): the
 * error would show as "flushed" instead of naming the access. Returns the responder's qpn. */
static vsym_status_t loopback_responder(vsym_tp_verbs_t *t, verbs_qp_t *vq, uint32_t *qpn_p)
{
    struct ibv_qp_init_attr attr;
    struct ibv_qp **n = realloc(t->lb_responders,
                                (size_t)(t->n_lb_responders + 1) * sizeof(*n));
    if (n == NULL)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: loopback responder table");
    t->lb_responders = n;
    vsym_tp_verbs_qp_init_attr(t, 0, &attr);
    attr.cap.max_send_wr = 1;
    struct ibv_qp *qp = ibv_create_qp(t->pd, &attr);
    int err = vsym_tp_verbs_err_null(qp);
    if (err != 0)
        return vsym_tp_verbs_check(err, "creating the loopback responder of queue pair %d",
                                   vq->q);
    t->lb_responders[t->n_lb_responders++] = qp;
    /* The RESET-INIT-RTR-RTS steps of an ordinary queue pair, on a record of its own. */
    verbs_qp_t resp = {.qp = qp, .q = vq->q, .peer = vq->peer};
    vsym_status_t st = qp_to_init(t, &resp);
    if (st == VSYM_OK) *qpn_p = qp->qp_num;
    return st;
}

/* ---- Exchange through the boot allgather ---------------------------------------------------- */

static vsym_status_t connect_boot(vsym_tp_verbs_t *t, const uint8_t *pair, unsigned gen)
{
    size_t nq = (size_t)t->size * (size_t)t->qps_per_peer;
    size_t block = sizeof(conn_hdr_t) + nq * sizeof(uint32_t);
    char tag[64];
    char *mine = NULL, *all = NULL;
    uint32_t psn_base;
    vsym_status_t st = VSYM_OK;

    mine = calloc(1, block);
    all = malloc(block * (size_t)t->size);
    if (mine == NULL || all == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: connection data (%zu bytes)",
                       block * (size_t)t->size);
        goto out;
    }
    psn_base = (uint32_t)(vsym_util_time_ns() ^ ((uint64_t)t->rank * 2654435761u)) & 0xffffffu;
    fill_hdr(t, (conn_hdr_t *)mine, psn_base);
    uint32_t *qpn = (uint32_t *)(mine + sizeof(conn_hdr_t));
    for (int r = 0; st == VSYM_OK && r < t->size; r++) {
        for (int q = 0; st == VSYM_OK && q < (pair[r] ? t->qps_per_peer : 0); q++) {
            verbs_qp_t *vq = t->peers[r].qps[q];
            if ((st = create_qp(t, NULL, vq)) == VSYM_OK && (st = qp_to_init(t, vq)) == VSYM_OK)
                qpn[(size_t)r * (size_t)t->qps_per_peer + (size_t)q] = vq->qp->qp_num;
        }
    }
    /* A local failure still takes part in the exchange (with no data), so that the other
     * ranks fail too instead of waiting for this one. */
    if (st != VSYM_OK)
        ((conn_hdr_t *)mine)->magic = 0;
    vsym_status_t local = st;
    snprintf(tag, sizeof(tag), "verbs.conn.%u", gen);
    if ((st = vsym_boot_allgather(t->boot, NULL, t->size, tag, mine, block, all)) != VSYM_OK)
        goto out;
    if ((st = local) != VSYM_OK)
        goto out;
    for (int r = 0; r < t->size; r++) {
        if (!pair[r])
            continue;
        const conn_hdr_t *h = (const conn_hdr_t *)(all + (size_t)r * block);
        const uint32_t *rqpn = (const uint32_t *)(all + (size_t)r * block + sizeof(*h));
        if ((st = check_hdr(t, r, h)) != VSYM_OK)
            goto out;
        for (int q = 0; q < t->qps_per_peer; q++) {
            size_t at_peer = (size_t)t->rank * (size_t)t->qps_per_peer + (size_t)q;
            size_t here = (size_t)r * (size_t)t->qps_per_peer + (size_t)q;
            uint32_t remote_qpn = rqpn[at_peer], remote_psn = psn_of(h->psn_base, (int)at_peer);
            uint32_t local_psn = psn_of(psn_base, (int)here);
            if (remote_qpn == 0) {
                st = VSYM_FAIL(VSYM_ERR_MISMATCH,
                               "verbs: rank %d made no queue pair %d for this rank", r, q);
                goto out;
            }
            verbs_qp_t *vq = t->peers[r].qps[q];
            if (r == t->rank) {
                /* Loopback: requester and responder are two queue pairs (see above). */
                uint32_t resp_qpn = 0;
                if ((st = loopback_responder(t, vq, &resp_qpn)) != VSYM_OK)
                    goto out;
                struct ibv_qp *resp = t->lb_responders[t->n_lb_responders - 1];
                verbs_qp_t rq = {.qp = resp, .q = q, .peer = r};
                remote_psn = psn_of(psn_base, (int)here) ^ 0x5a5a5au;
                if ((st = qp_to_rts(t, &rq, h, vq->qp->qp_num, local_psn, remote_psn)) !=
                    VSYM_OK)
                    goto out;
                remote_qpn = resp_qpn;
            }
            st = qp_to_rts(t, vq, h, remote_qpn, remote_psn, local_psn);
            if (st != VSYM_OK)
                goto out;
        }
    }
    /* The caller's status exchange after this is the barrier that keeps everyone from sending
     * before every peer's queue pairs are ready to receive (a request to a queue pair still in
     * INIT is dropped and retried only after the ack timeout). */
out:
    free(mine);
    free(all);
    return st;
}

/* ---- rdma_cm ------------------------------------------------------------------------------- */

typedef struct cm_private {
    uint32_t magic;
    int32_t rank;
    int32_t q;
    uint32_t gen;
} cm_private_t;

static void cm_sockaddr(vsym_tp_verbs_t *t, const uint8_t *addr, uint16_t family,
                        uint16_t port_be, struct sockaddr_storage *ss)
{
    memset(ss, 0, sizeof(*ss));
    if (family == AF_INET) {
        struct sockaddr_in *sin = (struct sockaddr_in *)ss;
        sin->sin_family = AF_INET;
        memcpy(&sin->sin_addr, addr + 12, 4);
        sin->sin_port = port_be;
    } else {
        struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
        sin6->sin6_family = AF_INET6;
        memcpy(&sin6->sin6_addr, addr, 16);
        sin6->sin6_port = port_be;
        /* A link-local address is reached through this rank's own netdev. */
        if (addr[0] == 0xfe && (addr[1] & 0xc0) == 0x80)
            sin6->sin6_scope_id = (uint32_t)t->ndev_ifindex;
    }
}

static void cm_conn_param(vsym_tp_verbs_t *t, const cm_private_t *priv,
                          struct rdma_conn_param *cp)
{
    memset(cp, 0, sizeof(*cp));
    cp->private_data = priv;
    cp->private_data_len = priv ? sizeof(*priv) : 0;
    cp->responder_resources = (uint8_t)t->max_rd_atom;
    cp->initiator_depth = (uint8_t)t->max_init_rd_atom;
    cp->retry_count = VERBS_RETRY_COUNT;
    cp->rnr_retry_count = VERBS_RNR_RETRY;
}

static void cm_set_timeout(const vsym_tp_verbs_t *t, struct rdma_cm_id *id)
{
    uint8_t timeout = t->ack_timeout;
    /* Best effort: older librdmacm lacks the option and keeps its own (longer) timeout. */
    (void)rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &timeout,
                          sizeof(timeout));
}

static vsym_status_t cm_add_extra(vsym_tp_verbs_t *t, struct rdma_cm_id *id)
{
    struct rdma_cm_id **n = realloc(t->cm_extra, (size_t)(t->n_cm_extra + 1) * sizeof(*n));
    if (n == NULL)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: rdma_cm id table");
    t->cm_extra = n;
    t->cm_extra[t->n_cm_extra++] = id;
    return VSYM_OK;
}

/* The passive end of a loopback connection: a responder-only queue pair, kept for cleanup. */
static vsym_status_t cm_accept_loopback(vsym_tp_verbs_t *t, struct rdma_cm_id *id)
{
    struct ibv_qp_init_attr attr;
    struct rdma_conn_param cp;
    vsym_status_t st;
    int err;

    vsym_tp_verbs_qp_init_attr(t, 0, &attr);
    attr.cap.max_send_wr = 1;
    if ((err = vsym_tp_verbs_err_neg1(rdma_create_qp(id, t->pd, &attr))) != 0)
        return vsym_tp_verbs_check(err, "rdma_create_qp (loopback responder)");
    if ((st = cm_add_extra(t, id)) != VSYM_OK)
        return st;
    cm_set_timeout(t, id);
    cm_conn_param(t, NULL, &cp);
    err = vsym_tp_verbs_err_neg1(rdma_accept(id, &cp));
    return vsym_tp_verbs_check(err, "rdma_accept (loopback)");
}

static vsym_status_t cm_event(vsym_tp_verbs_t *t, struct rdma_cm_event *ev, unsigned gen,
                              int *established_p)
{
    struct rdma_cm_id *id = ev->id;
    verbs_qp_t *vq = id->context != t ? id->context : NULL;
    struct rdma_conn_param cp;
    cm_private_t priv;
    vsym_status_t st;
    int err;

    switch (ev->event) {
    case RDMA_CM_EVENT_ADDR_RESOLVED:
        err = vsym_tp_verbs_err_neg1(rdma_resolve_route(id, 5000));
        return vsym_tp_verbs_check(err, "rdma_resolve_route to peer %d", vq->peer);
    case RDMA_CM_EVENT_ROUTE_RESOLVED:
        if ((st = create_qp(t, id, vq)) != VSYM_OK)
            return st;
        cm_set_timeout(t, id);
        priv = (cm_private_t){CONN_MAGIC, t->rank, vq->q, gen};
        cm_conn_param(t, &priv, &cp);
        err = vsym_tp_verbs_err_neg1(rdma_connect(id, &cp));
        return vsym_tp_verbs_check(err, "rdma_connect to peer %d", vq->peer);
    case RDMA_CM_EVENT_CONNECT_REQUEST: {
        const cm_private_t *in = ev->param.conn.private_data;
        if (in == NULL || ev->param.conn.private_data_len < sizeof(*in) ||
            in->magic != CONN_MAGIC || in->gen != gen || in->rank < 0 ||
            in->rank >= t->size || in->q < 0 || in->q >= t->qps_per_peer ||
            t->peers[in->rank].nqp == 0) {
            rdma_reject(id, NULL, 0);
            return VSYM_FAIL(VSYM_ERR_MISMATCH,
                             "verbs: rdma_cm connection request with unexpected data");
        }
        if (in->rank == t->rank)
            return cm_accept_loopback(t, id);
        vq = t->peers[in->rank].qps[in->q];
        if ((st = create_qp(t, id, vq)) != VSYM_OK)
            return st;
        id->context = vq;
        cm_set_timeout(t, id);
        cm_conn_param(t, NULL, &cp);
        err = vsym_tp_verbs_err_neg1(rdma_accept(id, &cp));
        return vsym_tp_verbs_check(err, "rdma_accept from peer %d", in->rank);
    }
    case RDMA_CM_EVENT_ESTABLISHED:
        (*established_p)++;
        return VSYM_OK;
    case RDMA_CM_EVENT_DISCONNECTED:
    case RDMA_CM_EVENT_TIMEWAIT_EXIT:
        return VSYM_OK;
    default:
        return VSYM_FAIL(VSYM_ERR_PEER_FAILED,
                         "verbs: rdma_cm connection %s peer %d failed: %s (status %d)",
                         vq ? "to" : "with", vq ? vq->peer : -1, rdma_event_str(ev->event),
                         ev->status);
    }
}

/* The listening id on the address behind the chosen GID. */
static vsym_status_t cm_listen(vsym_tp_verbs_t *t, uint16_t family)
{
    struct sockaddr_storage ss;
    int err;

    if (t->gid_index < 0 || t->ndev_ifindex <= 0)
        return VSYM_FAIL(VSYM_ERR_UNSUPPORTED,
                         "verbs: VSYM_CM=rdmacm needs a RoCE GID with a netdev (device %s)",
                         t->dev_name);
    t->cm_channel = rdma_create_event_channel();
    if ((err = vsym_tp_verbs_err_null(t->cm_channel)) != 0)
        return vsym_tp_verbs_check(err, "rdma_create_event_channel");
    /* Events are polled with a deadline, never waited for blindly. */
    fcntl(t->cm_channel->fd, F_SETFL, fcntl(t->cm_channel->fd, F_GETFL) | O_NONBLOCK);
    err = vsym_tp_verbs_err_neg1(rdma_create_id(t->cm_channel, &t->cm_listen, t, RDMA_PS_TCP));
    if (err != 0)
        return vsym_tp_verbs_check(err, "rdma_create_id (listener)");
    cm_sockaddr(t, t->gid.raw, family, 0, &ss);
    err = vsym_tp_verbs_err_neg1(rdma_bind_addr(t->cm_listen, (struct sockaddr *)&ss));
    if (err != 0)
        return vsym_tp_verbs_check(err, "rdma_bind_addr to the address of GID %d of %s",
                                   t->gid_index, t->dev_name);
    if (t->cm_listen->verbs != t->ctx)
        return VSYM_FAIL(VSYM_ERR_TRANSPORT,
                         "verbs: rdma_cm bound the address of %s to another device", t->desc);
    err = vsym_tp_verbs_err_neg1(rdma_listen(t->cm_listen, 64));
    return vsym_tp_verbs_check(err, "rdma_listen on %s", t->desc);
}

static vsym_status_t connect_cm(vsym_tp_verbs_t *t, const uint8_t *pair, unsigned gen)
{
    static const uint8_t v4[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    conn_hdr_t mine, *all = NULL;
    char tag[64];
    int expected = 0, established = 0, err;
    uint16_t family = memcmp(t->gid.raw, v4, 12) == 0 ? AF_INET : AF_INET6;
    vsym_status_t st, local;

    local = cm_listen(t, family);
    fill_hdr(t, &mine, 0);
    memcpy(mine.cm_addr, t->gid.raw, 16);
    mine.cm_family = family;
    if (local == VSYM_OK)
        mine.cm_port = rdma_get_src_port(t->cm_listen);
    else
        mine.magic = 0; /* still take part, so that the others fail instead of waiting */
    all = malloc(sizeof(*all) * (size_t)t->size);
    if (all == NULL)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: connection data");
    snprintf(tag, sizeof(tag), "verbs.cm.%u", gen);
    if ((st = vsym_boot_allgather(t->boot, NULL, t->size, tag, &mine, sizeof(mine), all)) !=
            VSYM_OK ||
        (st = local) != VSYM_OK)
        goto out;
    /* The lower rank of a pair connects, the higher one accepts; a loopback connection is
     * both (its passive end is a responder-only queue pair). */
    for (int r = 0; r < t->size; r++) {
        if (!pair[r])
            continue;
        if ((st = check_hdr(t, r, &all[r])) != VSYM_OK)
            goto out;
        expected += t->qps_per_peer * (r == t->rank ? 2 : 1);
        if (r < t->rank)
            continue;
        for (int q = 0; q < t->qps_per_peer; q++) {
            verbs_qp_t *vq = t->peers[r].qps[q];
            struct rdma_cm_id *id;
            err = vsym_tp_verbs_err_neg1(rdma_create_id(t->cm_channel, &id, vq, RDMA_PS_TCP));
            if (err != 0) {
                st = vsym_tp_verbs_check(err, "rdma_create_id to peer %d", r);
                goto out;
            }
            vq->cm_id = id;
            struct sockaddr_storage src, dst;
            cm_sockaddr(t, t->gid.raw, family, 0, &src);
            cm_sockaddr(t, all[r].cm_addr, all[r].cm_family, all[r].cm_port, &dst);
            err = vsym_tp_verbs_err_neg1(
                rdma_resolve_addr(id, (struct sockaddr *)&src, (struct sockaddr *)&dst, 5000));
            if (err != 0) {
                st = vsym_tp_verbs_check(err, "rdma_resolve_addr to peer %d", r);
                goto out;
            }
        }
    }
    vsym_backoff_t b;
    vsym_backoff_init(&b, 0);
    while (established < expected) {
        struct rdma_cm_event *ev;
        struct pollfd pfd = {t->cm_channel->fd, POLLIN, 0};
        if (poll(&pfd, 1, 100) <= 0) {
            if (!vsym_backoff_step(&b)) {
                st = VSYM_FAIL(VSYM_ERR_TIMED_OUT,
                               "verbs: rdma_cm: %d of %d connections established after %.1f s",
                               established, expected, vsym_backoff_elapsed(&b));
                goto out;
            }
            continue;
        }
        if (rdma_get_cm_event(t->cm_channel, &ev) != 0)
            continue;
        st = cm_event(t, ev, gen, &established);
        rdma_ack_cm_event(ev);
        if (st != VSYM_OK)
            goto out;
    }
    st = VSYM_OK;
out:
    free(all);
    return st;
}

vsym_status_t vsym_tp_verbs_connect(vsym_tp_verbs_t *t, const uint8_t *pair)
{
    unsigned gen = connect_generation++;
    vsym_status_t st = alloc_peer_qps(t, pair);
    if (st != VSYM_OK)
        return st;
    return t->use_cm ? connect_cm(t, pair, gen) : connect_boot(t, pair, gen);
}
