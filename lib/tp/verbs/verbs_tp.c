/* Creation and destruction of the verbs transport. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tp/verbs/verbs.h"

static unsigned create_generation;

/* This rank's pretend node under VSYM_VIRTUAL_NODES (the core's rule: local ranks split in V
 * equal consecutive groups), else its node: it picks the entry of a VSYM_DEVICE list. */
static int virtual_node(const vsym_boot_t *boot)
{
    long v = vsym_config_int(VSYM_CFG_VIRTUAL_NODES);
    if (v > 0 && boot->local_size > 0) {
        int per = (int)((boot->local_size + v - 1) / v);
        return boot->local_rank / (per > 0 ? per : 1);
    }
    return boot->node_id > 0 ? boot->node_id : 0;
}

/* Allgather a status (and payload) so that a failure on one rank fails every rank instead of
 * leaving the others in the next collective step. */
static vsym_status_t sync_status(vsym_tp_verbs_t *t, const char *what, vsym_status_t mine,
                                 const void *payload, size_t len, void *out)
{
    size_t block = sizeof(int32_t) + len;
    char *in = malloc(block), *all = malloc(block * (size_t)t->size);
    char tag[64];
    vsym_status_t st;

    if (in == NULL || all == NULL) {
        free(in);
        free(all);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: %s exchange", what);
    }
    int32_t s = mine;
    memcpy(in, &s, sizeof(s));
    if (len)
        memcpy(in + sizeof(s), payload, len);
    snprintf(tag, sizeof(tag), "verbs.%s.%u", what, create_generation);
    st = vsym_boot_allgather(t->boot, NULL, t->size, tag, in, block, all);
    if (st == VSYM_OK && mine != VSYM_OK)
        st = mine; /* the detail of the local failure is already set */
    for (int r = 0; st == VSYM_OK && r < t->size; r++) {
        memcpy(&s, all + (size_t)r * block, sizeof(s));
        if (s != VSYM_OK)
            st = VSYM_FAIL((vsym_status_t)s == VSYM_ERR_NO_DEVICE ? VSYM_ERR_NO_DEVICE
                                                                   : VSYM_ERR_TRANSPORT,
                           "verbs: rank %d failed to set up its verbs transport (%s: %s)", r,
                           what, vsym_status_name((vsym_status_t)s));
        if (out != NULL && len)
            memcpy((char *)out + (size_t)r * len, all + (size_t)r * block + sizeof(s), len);
    }
    free(in);
    free(all);
    return st;
}

static vsym_status_t open_local(vsym_tp_verbs_t *t, int vnode)
{
    vsym_status_t st;
    int err;

    if ((st = vsym_tp_verbs_open_device(t, vnode)) != VSYM_OK)
        return st;
    t->pd = ibv_alloc_pd(t->ctx);
    if ((err = vsym_tp_verbs_err_null(t->pd)) != 0)
        return vsym_tp_verbs_check(err, "ibv_alloc_pd on %s", t->dev_name);
    /* The whole arena is one region: peers put, get and run atomics on any of it. */
    t->arena_mr = ibv_reg_mr(t->pd, t->arena.base, t->arena.size,
                             IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                                 IBV_ACCESS_REMOTE_READ |
                                 (t->atomics ? IBV_ACCESS_REMOTE_ATOMIC : 0));
    if ((err = vsym_tp_verbs_err_null(t->arena_mr)) != 0)
        return vsym_tp_verbs_check(err, "registering the arena (%zu bytes) on %s",
                                   t->arena.size, t->dev_name);
    return VSYM_OK;
}

static vsym_status_t make_queues(vsym_tp_verbs_t *t, const uint8_t *pair)
{
    struct ibv_device_attr dattr;
    uint32_t npeers = 0;
    int err;

    for (int r = 0; r < t->size; r++)
        npeers += pair[r] != 0;
    t->nqps = npeers * (uint32_t)t->qps_per_peer;
    if ((err = verbs_err_rc(ibv_query_device(t->ctx, &dattr))) != 0)
        return vsym_tp_verbs_check(err, "ibv_query_device(%s)", t->dev_name);
    if (dattr.max_qp_wr > 0 && t->sq_depth > (uint32_t)dattr.max_qp_wr)
        t->sq_depth = (uint32_t)dattr.max_qp_wr;
    /* One completion queue for all: every outstanding request may complete (or be flushed)
     * before it is polled. Shrink the queues rather than overflow it. */
    uint64_t cqe = (uint64_t)t->nqps * t->sq_depth + 64;
    if (dattr.max_cqe > 0 && cqe > (uint64_t)dattr.max_cqe) {
        uint32_t depth = (uint32_t)(((uint64_t)dattr.max_cqe - 64) / (t->nqps ? t->nqps : 1));
        if (depth < 64)
            return VSYM_FAIL(VSYM_ERR_NO_RESOURCE,
                             "verbs: %u queue pairs do not fit one completion queue of %d "
                             "entries on %s (lower VSYM_QPS_PER_PEER)",
                             t->nqps, dattr.max_cqe, t->dev_name);
        t->sq_depth = depth;
        cqe = (uint64_t)t->nqps * depth + 64;
    }
    t->cq = ibv_create_cq(t->ctx, (int)cqe, NULL, NULL, 0);
    if ((err = vsym_tp_verbs_err_null(t->cq)) != 0)
        return vsym_tp_verbs_check(err, "ibv_create_cq of %llu entries on %s",
                                   (unsigned long long)cqe, t->dev_name);
    t->qps = calloc(t->nqps ? t->nqps : 1, sizeof(*t->qps));
    if (t->qps == NULL)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: queue pair table");
    /* Bounce slots and atomic result words of every queue pair, registered once. */
    size_t per_qp = VERBS_QP_BOUNCE;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    t->bounce_len = ((per_qp * (t->nqps ? t->nqps : 1)) + page - 1) / page * page;
    if (posix_memalign(&t->bounce_mem, page, t->bounce_len) != 0) {
        t->bounce_mem = NULL;
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: %zu bytes of bounce buffers",
                         t->bounce_len);
    }
    memset(t->bounce_mem, 0, t->bounce_len);
    t->bounce_mr = ibv_reg_mr(t->pd, t->bounce_mem, t->bounce_len, IBV_ACCESS_LOCAL_WRITE);
    if ((err = vsym_tp_verbs_err_null(t->bounce_mr)) != 0)
        return vsym_tp_verbs_check(err, "registering %zu bytes of bounce buffers",
                                   t->bounce_len);
    t->max_inline = UINT32_MAX;
    return VSYM_OK;
}

vsym_status_t vsym_tp_verbs_create(vsym_boot_t *boot, const vsym_tp_arena_t *arena,
                                   const uint8_t *need, vsym_tp_t **tp_p)
{
    vsym_tp_verbs_t *t;
    uint8_t *needs = NULL, *pair = NULL;
    vsym_status_t st, local;

    create_generation++;
    t = calloc(1, sizeof(*t));
    if (t == NULL)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: transport");
    t->base.ops = &vsym_tp_verbs_ops;
    t->boot = boot;
    t->rank = boot->rank;
    t->size = boot->size;
    t->arena = *arena;
    t->use_cm = strcmp(vsym_config_str(VSYM_CFG_CM), "rdmacm") == 0;
    long q = vsym_config_int(VSYM_CFG_QPS_PER_PEER);
    t->qps_per_peer = q < 1 ? 1 : q > 64 ? 64 : (int)q;
    long depth = vsym_config_int(VSYM_CFG_SQ_DEPTH);
    t->sq_depth = depth < 64 ? 64 : depth > 32768 ? 32768 : (uint32_t)depth;
    t->gid_index = -1;
    t->peers = calloc((size_t)t->size, sizeof(*t->peers));
    needs = malloc((size_t)t->size * (size_t)t->size);
    pair = calloc((size_t)t->size, 1);
    if (t->peers == NULL || needs == NULL || pair == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: peer tables");
        goto fail_uncollective;
    }
    long ack = vsym_config_int(VSYM_CFG_ACK_TIMEOUT);
    if (ack < 1 || ack > 31) {
        st = VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                       "VSYM_ACK_TIMEOUT=%ld: the ack timeout exponent must be 1..31 "
                       "(4.096 us x 2^N; 20 is 4.3 s)",
                       ack);
        goto fail_uncollective;
    }
    t->ack_timeout = (uint8_t)ack;

    /* Every step that can fail locally is followed by an exchange of statuses, so that one
     * rank's failure (no device, no locked memory) fails all ranks instead of hanging them. */
    local = open_local(t, virtual_node(boot));
    if ((st = sync_status(t, "need", local, need, (size_t)t->size, needs)) != VSYM_OK)
        goto fail;
    /* A pair is connected when either end needs it (connections are symmetric). */
    for (int r = 0; r < t->size; r++)
        pair[r] = needs[(size_t)t->rank * (size_t)t->size + (size_t)r] ||
                  needs[(size_t)r * (size_t)t->size + (size_t)t->rank];
    local = make_queues(t, pair);
    if ((st = sync_status(t, "queues", local, NULL, 0, NULL)) != VSYM_OK)
        goto fail;
    local = vsym_tp_verbs_connect(t, pair);
    if ((st = sync_status(t, "connect", local, NULL, 0, NULL)) != VSYM_OK)
        goto fail;
    if (t->max_inline == UINT32_MAX)
        t->max_inline = 0;
    vsym_info("verbs: %s, %u queue pairs of depth %u, inline up to %u bytes, %s", t->desc,
              t->nqps, t->sq_depth, t->max_inline, t->use_cm ? "rdma_cm" : "boot exchange");
    free(needs);
    free(pair);
    *tp_p = &t->base;
    return VSYM_OK;

fail_uncollective:
    /* Still take part in the exchanges the other ranks make (with a failure), so they fail
     * too instead of waiting. */
    (void)sync_status(t, "need", st, need, (size_t)t->size, NULL);
fail:
    free(needs);
    free(pair);
    vsym_tp_verbs_destroy(&t->base);
    return st;
}

void vsym_tp_verbs_destroy(vsym_tp_t *tp)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;

    if (t == NULL)
        return;
    for (int r = 0; t->peers != NULL && r < t->size; r++) {
        verbs_peer_t *p = &t->peers[r];
        for (int q = 0; q < p->nqp; q++) {
            verbs_qp_t *vq = p->qps[q];
            if (vq->cm_id != NULL) {
                if (vq->cm_id->qp != NULL)
                    rdma_destroy_qp(vq->cm_id);
                rdma_destroy_id(vq->cm_id);
            } else if (vq->qp != NULL) {
                ibv_destroy_qp(vq->qp);
            }
            free(vq->info);
            free(vq);
        }
        free(p->qps);
    }
    for (int i = 0; i < t->n_lb_responders; i++)
        ibv_destroy_qp(t->lb_responders[i]);
    free(t->lb_responders);
    for (int i = 0; i < t->n_cm_extra; i++) {
        if (t->cm_extra[i]->qp != NULL)
            rdma_destroy_qp(t->cm_extra[i]);
        rdma_destroy_id(t->cm_extra[i]);
    }
    free(t->cm_extra);
    if (t->cm_listen != NULL)
        rdma_destroy_id(t->cm_listen);
    if (t->cm_channel != NULL)
        rdma_destroy_event_channel(t->cm_channel);
    if (t->cq != NULL)
        ibv_destroy_cq(t->cq);
    for (int i = 0; i < t->nregs; i++)
        ibv_dereg_mr(t->regs[i].mr);
    free(t->regs);
    if (t->bounce_mr != NULL)
        ibv_dereg_mr(t->bounce_mr);
    free(t->bounce_mem);
    if (t->arena_mr != NULL)
        ibv_dereg_mr(t->arena_mr);
    if (t->pd != NULL)
        ibv_dealloc_pd(t->pd);
    if (t->ctx != NULL && t->ctx_owned)
        ibv_close_device(t->ctx);
    free(t->qps);
    free(t->peers);
    free(t);
}

const char *vsym_tp_verbs_describe(vsym_tp_t *tp)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;
    if (tp == NULL || tp->ops != &vsym_tp_verbs_ops)
        return "";
    return t->desc;
}
