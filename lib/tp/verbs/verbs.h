/* RDMA verbs transport: internal types shared by the files of lib/tp/verbs. Only this folder
 * includes it.
 *
 * Shape. One protection domain, one completion queue for every queue pair, one RC queue pair
 * per needed peer (VSYM_QPS_PER_PEER for more; a loopback queue pair to self for NIC atomics on
 * own memory). The whole arena is one memory region; its address and rkey go to every peer at
 * creation. Local buffers outside the arena and outside mem_reg'd memory go through per-QP
 * registered bounce slots (no registration cache: a freed and reused buffer would silently keep
 * stale pinned pages).
 *
 * Completion tracking. Every work request of a queue pair gets a sequence number (posted counts
 * them); completions of one RC send queue arrive in order, so a completion for sequence s means
 * everything up to s is done (done = s). Only every sig_interval-th request, the last of a
 * blocking operation and requests holding bounce slots are signalled; wr_id carries the queue
 * pair index and the low 32 bits of the sequence. */
#ifndef VSYM_TP_VERBS_H
#define VSYM_TP_VERBS_H

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include "tp/tp.h"

/* Bounce slots per queue pair and their size; requests up to SMALL_BOUNCE bytes of a blocking
 * put go through a slot even from registered memory (a copy is cheaper than a round trip). */
#define VERBS_SLOTS 16u
#define VERBS_SLOT_SIZE (32u * 1024u)
#define VERBS_SMALL_BOUNCE (8u * 1024u)
/* Non-blocking atomics in flight per queue pair: each owns an 8-byte result word of a ring
 * (perftest's ib_atomic_bw keeps 128 in flight; rxe allows 128 reads and atomics per QP). */
#define VERBS_AMO_RING 256u
/* Registered bytes per queue pair: the bounce slots, the blocking atomics' result word (64
 * bytes) and the ring of non-blocking results. */
#define VERBS_QP_BOUNCE \
    ((size_t)VERBS_SLOTS * VERBS_SLOT_SIZE + 64 + (size_t)VERBS_AMO_RING * sizeof(uint64_t))
/* Work requests posted with one ibv_post_send call at most. */
#define VERBS_BATCH 16
/* Completions taken per ibv_poll_cq call. */
#define VERBS_POLL_BATCH 16

/* Operation names for error details, kept per work request. */
enum {
    VERBS_OP_PUT = 1,
    VERBS_OP_GET,
    VERBS_OP_FADD,
    VERBS_OP_CSWAP,
    VERBS_OP_FLUSH,
};

typedef struct verbs_wr_info {
    uint64_t raddr;
    uint32_t len;
    uint32_t op;
} verbs_wr_info_t;

typedef struct verbs_slot {
    uint64_t seq; /* the request that uses the slot */
    void *dst;    /* a get's final destination (copied out on completion), NULL for a put;
                   * a non-blocking atomic's uint64_t for the old value, or NULL */
    uint32_t len;
    int signaled; /* the request asks for a completion */
} verbs_slot_t;

typedef struct verbs_qp {
    struct ibv_qp *qp;
    struct rdma_cm_id *cm_id; /* rdma_cm path only */
    uint32_t index;           /* in tp->qps: the high half of wr_id */
    int peer;
    int q;                    /* 0 .. qps_per_peer - 1 */
    uint64_t posted;          /* sequence of the last posted request */
    uint64_t done;            /* sequence of the last completed request */
    uint64_t signaled;        /* sequence of the last signalled request */
    uint32_t depth;
    uint32_t sig_interval;
    uint32_t info_mask;
    int fence_next;           /* put IBV_SEND_FENCE on the next request */
    vsym_status_t failed;     /* first bad completion, sticky */
    char fail_detail[320];
    verbs_wr_info_t *info;    /* info_mask + 1 entries, by sequence */
    /* Bounce slots: a ring allocated and released in sequence order. */
    char *bounce;             /* VERBS_SLOTS * VERBS_SLOT_SIZE bytes, in tp->bounce_mr */
    uint64_t *amo_result;     /* 8 registered bytes for atomic results */
    verbs_slot_t slots[VERBS_SLOTS];
    uint32_t slot_head;       /* next slot to take */
    uint32_t slot_used;
    uint32_t slot_unsignaled; /* slots taken since the last signalled request */
    /* Non-blocking atomics: result words, released in sequence order like the slots. */
    uint64_t *amo_ring;       /* VERBS_AMO_RING words, in tp->bounce_mr */
    verbs_slot_t amo_slots[VERBS_AMO_RING]; /* dst: the caller's uint64_t for the old value */
    uint32_t amo_head, amo_used, amo_unsignaled;
} verbs_qp_t;

typedef struct verbs_peer {
    verbs_qp_t **qps; /* nqp entries; none when the peer is not connected */
    int nqp;
    unsigned next;    /* round robin over qps */
    verbs_qp_t *failed; /* the first queue pair with a bad completion: the peer is failed */
    uint64_t arena_addr;
    uint64_t arena_size;
    uint32_t arena_rkey;
} verbs_peer_t;

typedef struct verbs_memreg {
    uintptr_t addr;
    size_t len;
    struct ibv_mr *mr;
} verbs_memreg_t;

typedef struct vsym_tp_verbs {
    vsym_tp_t base;
    vsym_boot_t *boot;
    int rank;
    int size;
    int use_cm;
    uint8_t ack_timeout; /* VSYM_ACK_TIMEOUT: 4.096 us * 2^ack_timeout */
    /* Device. */
    struct ibv_context *ctx;
    int ctx_owned;            /* opened by us (ibv_open_device), not librdmacm's */
    char dev_name[64];
    uint8_t port;
    int gid_index;
    union ibv_gid gid;
    int gid_type;             /* IBV_GID_TYPE_* */
    int ndev_ifindex;
    uint16_t lid;
    uint8_t link_layer;
    enum ibv_mtu mtu;
    uint32_t max_msg;
    uint32_t max_inline;
    int max_rd_atom;          /* as responder */
    int max_init_rd_atom;     /* as initiator */
    int atomics;              /* the device does 8-byte atomics */
    char desc[192];
    /* The last value seen at recently used atomic targets: the first guess of the compare-swap
     * loops (SET, SWAP, 32-bit ops), so that rewriting a flag costs one round trip, not two.
     * A stale or colliding entry only costs a retry. */
    uint64_t amo_tag[64];
    uint64_t amo_val[64];
    /* Resources. */
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    vsym_tp_arena_t arena;
    struct ibv_mr *arena_mr;
    void *bounce_mem;
    size_t bounce_len;
    struct ibv_mr *bounce_mr;
    verbs_peer_t *peers;      /* size entries */
    verbs_qp_t **qps;         /* nqps entries, by index */
    uint32_t nqps;
    int qps_per_peer;
    uint32_t sq_depth;
    verbs_memreg_t *regs;
    int nregs;
    int cap_regs;
    /* rdma_cm path. */
    struct rdma_event_channel *cm_channel;
    struct rdma_cm_id *cm_listen;
    struct rdma_cm_id **cm_extra; /* passive ends of loopback connections */
    int n_cm_extra;
    /* PMIx path: the responder ends of the loopback queue pairs (one per queue pair to self). */
    struct ibv_qp **lb_responders;
    int n_lb_responders;
} vsym_tp_verbs_t;

/* ---- Errors (verbs_err.c): the one place where the three error conventions of libibverbs
 * and librdmacm become statuses. A caller first turns its call's result into an errno value
 * with the helper for that call's convention, then reports it with vsym_tp_verbs_check(). */

/* Calls that return 0 or an errno value (ibv_modify_qp, ibv_post_send, ibv_query_port). */
static inline int verbs_err_rc(int rc)
{
    return rc < 0 ? -rc : rc;
}
/* Calls that return NULL and set errno (ibv_create_qp, ibv_reg_mr, ibv_open_device). */
int vsym_tp_verbs_err_null(const void *p);
/* Calls that return -1 and set errno (rdma_* of librdmacm, ibv_query_gid). */
int vsym_tp_verbs_err_neg1(int rc);

/* VSYM_OK when err is 0; else a failure whose detail is the formatted text followed by the
 * errno text and a hint (locked memory limit, device gone). */
vsym_status_t vsym_tp_verbs_check(int err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The status a bad work completion maps to. */
vsym_status_t vsym_tp_verbs_wc_status(enum ibv_wc_status status);

/* ---- Device (verbs_device.c) --------------------------------------------------------------- */

/* Choose and open the device, port and GID (VSYM_DEVICE, VSYM_PORT, VSYM_GID_INDEX, else the
 * nearest device's first active port and a RoCE v2 GID). vnode picks the entry of a
 * comma-separated VSYM_DEVICE list. Fills t->ctx, port, gid, lid, mtu, limits and desc. */
vsym_status_t vsym_tp_verbs_open_device(vsym_tp_verbs_t *t, int vnode);

/* ---- Connection set-up (verbs_connect.c) --------------------------------------------------- */

/* Create the queue pairs for every peer r with pair[r] and connect them (through the boot
 * allgather, or rdma_cm when t->use_cm). Collective over the job. */
vsym_status_t vsym_tp_verbs_connect(vsym_tp_verbs_t *t, const uint8_t *pair);

/* Queue pair creation attributes shared by both connection paths. */
void vsym_tp_verbs_qp_init_attr(vsym_tp_verbs_t *t, uint32_t inline_size,
                                struct ibv_qp_init_attr *attr);

/* Take a created queue pair into the transport's tables (index, rings, bounce slots). */
void vsym_tp_verbs_qp_attach(vsym_tp_verbs_t *t, verbs_qp_t *vq, struct ibv_qp *qp);

/* ---- Data path (verbs_ops.c) --------------------------------------------------------------- */

extern const vsym_tp_ops_t vsym_tp_verbs_ops;

/* Release everything (verbs_tp.c); also the unwinding of a failed create. */
void vsym_tp_verbs_destroy(vsym_tp_t *tp);

#endif
