/* The remote copy service (see vsym/copy.h): registration, the one allgather of the team's
 * registrations, validation (match.c), scheduling (schedule.c), making receive buffers
 * reachable, and the pipelined run.
 *
 * Synchronisation of run(). Each service owns a control object with two arrays of 64-bit
 * counters per rank: ready[r] counts the "ready" notices receiver r gave this rank (one per batch
 * r will receive from it), done[s] counts the batches sender s has completed into this rank.
 * Counters only grow, over every run and every schedule of the service, so that no reset is
 * needed between runs and a notice of run k can never be taken for one of run k - 1. A sender
 * waits for ready[d] >= the number of batches it has ever sent to d plus one, writes the batch,
 * then adds 1 to done[me] on d, ordered after the data. A receiver posts its notices in the order
 * of its receive batches: at once for batches written straight into the receive buffers (they
 * are free as soon as the receiver has entered run()), and for staged batches only when their
 * staging slot has been unpacked. Nothing is global: a rank waits only for its own peers.
 *
 * Rows. A registration may lay its bytes out in rows (vsym_copy_register_*_rows). Scheduling
 * only counts bytes; moving walks both sides' layouts at once (seg_walk_t), one segment per
 * stretch that stays inside a row on both sides. See piece_round() for where rows go in place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <vsym/copy.h>
#include "copy/match.h"
#include "copy/schedule.h"
#include "util/util.h"

typedef unsigned long long ull;

/* Over verbs a placeholder buffer of a rendezvous is pinned: bound its size there. */
#define COPY_DUMMY_MAX_VERBS (16u << 20)

/* Every rendezvous round is a collective exchange and a signal pad: bound the schedule's cost
 * when the receives are spread over very many buffers (the smallest are staged then). */
#define COPY_MAX_ROUNDS 64

typedef struct local_reg {
    uint64_t id;
    char *buffer;
    size_t position;
    size_t size;
    size_t row;    /* 0: contiguous; else the bytes lie in rows of row bytes ... */
    size_t stride; /* ... stride bytes apart */
    int peer;
    uint32_t region; /* receives: index of the buffer region, UINT32_MAX when none */
} local_reg_t;

typedef struct region {
    char *base;    /* lowest registered byte of the buffer */
    size_t extent; /* up to the highest registered byte */
} region_t;

typedef struct reg_list {
    local_reg_t *v;
    size_t n, cap;
} reg_list_t;

struct vsym_copy {
    vsym_team_t *team;
    vsym_ctx_t *ctx;
    int rank;
    int size;
    vsym_obj_t *ctrl; /* ready[size] then done[size] */

    reg_list_t sends;
    reg_list_t recvs;
    reg_list_t bad; /* registrations naming a peer outside the team (kept to fail schedule);
                     * their region field says 0 for a send, 1 for a receive */

    int scheduled;
    vsym_copy_sched_t sched;
    vsym_copy_sched_task_t *tasks;
    size_t ntasks;
    vsym_copy_reg_t *regs; /* the team's registrations */
    size_t nregs;
    size_t *reg_base;    /* per rank: index of its first registration in regs */
    size_t *region_base; /* per rank: index of its first region in region_round */
    int *region_round;   /* per (rank, region): rendezvous round, or -1 (staged) */
    region_t *regions;   /* this rank's receive buffer regions */
    size_t nregions;
    region_t *send_bufs; /* this rank's send buffers registered for its peers over verbs */
    size_t nsend_bufs;
    vsym_obj_t **round_obj; /* per rendezvous round */
    void **round_dummy;     /* per round: this rank's placeholder mapping, or NULL */
    size_t *round_size;
    size_t nrounds;
    vsym_obj_t *staging; /* two receive slots per rank, or NULL */
    size_t staging_size;
    uint8_t *batch_staged; /* per batch: some piece goes through a staging slot */
    uint32_t *batch_slot;  /* per staged batch: its receiver's staging slot (0 or 1) */
    uint32_t *recv_index;  /* per batch this rank receives: 1 + the number of batches from
                            * the same sender before it in iteration order */
    uint32_t *recv_count;  /* per peer: batches received from it per run */
    uint8_t *node_shm;     /* per rank: it reaches every other rank of its node over shm */
    char *bounce;          /* rows gathered for one put each (send_batch), a batch's worth */
    size_t bounce_size;
    uint64_t bounce_batch; /* sequence number of the batch being sent */
    uint64_t bounce_busy;  /* the batch whose puts may still read the bounce, or -1 */
    uint64_t *sent_total;  /* per peer: batches ever sent to it */
    uint64_t *recv_total;  /* per peer: batches ever received from it */
    uint64_t run_bytes;    /* bytes of this rank's tasks (sent, received, local) per run */
    int streams;           /* this run's copies stream (run_streams), set as it starts */
    vsym_copy_stats_t stats;
};

/* ---- Registration ------------------------------------------------------------------------ */

static vsym_status_t list_push(reg_list_t *l, const local_reg_t *r)
{
    if (l->n == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 64;
        local_reg_t *v = realloc(l->v, ncap * sizeof(*v));
        if (v == NULL)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy register: no memory for %zu tasks", ncap);
        l->v = v;
        l->cap = ncap;
    }
    l->v[l->n++] = *r;
    return VSYM_OK;
}

/* row == 0: contiguous; else rows of row bytes, stride apart. */
static vsym_status_t reg_common(vsym_copy_t *svc, const char *what, uint64_t task_id,
                                const void *buffer, size_t position, size_t size, size_t row,
                                size_t stride, int peer, reg_list_t *list)
{
    if (svc == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy %s: NULL service", what);
    if (svc->scheduled)
        return VSYM_FAIL(VSYM_ERR_BAD_STATE,
                         "copy %s: task %llu: a schedule exists, vsym_copy_clear() first", what,
                         (ull)task_id);
    if (buffer == NULL && size > 0)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy %s: task %llu: NULL buffer of %zu bytes",
                         what, (ull)task_id, size);
    /* Rows back to back, or one row: contiguous. */
    if (row > 0 && size % row == 0 && (row == stride || row == size)) row = stride = 0;
    if (row > 0 && (size % row != 0 || stride < row))
        return VSYM_FAIL(VSYM_ERR_BAD_SIZE,
                         "copy %s: task %llu: %zu bytes in rows of %zu bytes %zu apart: %s", what,
                         (ull)task_id, size, row, stride,
                         size % row != 0 ? "the size is not a whole number of rows"
                                         : "the stride is shorter than a row");
    const size_t span = row > 0 && (size / row - 1) > (SIZE_MAX - row) / stride
                            ? SIZE_MAX
                            : (size_t)vsym_copy_rows_span(size, row, stride);
    if (span == SIZE_MAX || position + span < position ||
        (uintptr_t)buffer + position + span < (uintptr_t)buffer)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                         "copy %s: task %llu: position %zu + %zu bytes overflows", what,
                         (ull)task_id, position, size);
    local_reg_t r = {.id = task_id,
                     .buffer = (char *)(uintptr_t)buffer,
                     .position = position,
                     .size = size,
                     .row = row,
                     .stride = stride,
                     .peer = peer,
                     .region = UINT32_MAX};
    if (peer < 0 || peer >= svc->size) {
        /* Remember it, so that schedule() fails on every rank instead of running a set with a
         * hole in it. */
        r.region = (list == &svc->recvs) ? 1 : 0;
        vsym_status_t st = list_push(&svc->bad, &r);
        if (st != VSYM_OK) return st;
        return VSYM_FAIL(VSYM_ERR_BAD_RANK, "copy %s: task %llu: rank %d outside the team of %d",
                         what, (ull)task_id, peer, svc->size);
    }
    return list_push(list, &r);
}

VSYM_API vsym_status_t vsym_copy_register_send(vsym_copy_t *svc, uint64_t task_id,
                                               const void *buffer, size_t position, size_t size,
                                               int dest_rank)
{
    return reg_common(svc, "register_send", task_id, buffer, position, size, 0, 0, dest_rank,
                      svc ? &svc->sends : NULL);
}

VSYM_API vsym_status_t vsym_copy_register_send_rows(vsym_copy_t *svc, uint64_t task_id,
                                                    const void *buffer, size_t position,
                                                    size_t size, size_t row_bytes, size_t stride,
                                                    int dest_rank)
{
    if (row_bytes == 0 && size > 0)
        return VSYM_FAIL(VSYM_ERR_BAD_SIZE, "copy register_send_rows: task %llu: rows of 0 bytes",
                         (ull)task_id);
    return reg_common(svc, "register_send_rows", task_id, buffer, position, size, row_bytes, stride,
                      dest_rank, svc ? &svc->sends : NULL);
}

VSYM_API vsym_status_t vsym_copy_register_receive(vsym_copy_t *svc, uint64_t task_id, void *buffer,
                                                  size_t position, size_t size, int src_rank)
{
    return reg_common(svc, "register_receive", task_id, buffer, position, size, 0, 0, src_rank,
                      svc ? &svc->recvs : NULL);
}

VSYM_API vsym_status_t vsym_copy_register_receive_rows(vsym_copy_t *svc, uint64_t task_id,
                                                       void *buffer, size_t position, size_t size,
                                                       size_t row_bytes, size_t stride,
                                                       int src_rank)
{
    if (row_bytes == 0 && size > 0)
        return VSYM_FAIL(VSYM_ERR_BAD_SIZE,
                         "copy register_receive_rows: task %llu: rows of 0 bytes", (ull)task_id);
    return reg_common(svc, "register_receive_rows", task_id, buffer, position, size, row_bytes,
                      stride, src_rank, svc ? &svc->recvs : NULL);
}

/* ---- Create / destroy --------------------------------------------------------------------- */

VSYM_API vsym_status_t vsym_copy_create(vsym_team_t *team, vsym_copy_t **svc_p)
{
    if (team == NULL || svc_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy create: NULL team or svc_p");
    vsym_copy_t *svc = calloc(1, sizeof(*svc));
    if (svc == NULL) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy create: no memory");
    svc->team = team;
    svc->ctx = vsym_team_ctx(team);
    svc->bounce_busy = (uint64_t)-1;
    svc->rank = vsym_team_rank(team);
    svc->size = vsym_team_size(team);
    size_t n = (size_t)svc->size;
    svc->sent_total = calloc(n, sizeof(uint64_t));
    svc->recv_total = calloc(n, sizeof(uint64_t));
    if (svc->sent_total == NULL || svc->recv_total == NULL) {
        free(svc->sent_total), free(svc->recv_total), free(svc);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy create: no memory");
    }
    vsym_status_t st = vsym_alloc(team, 2 * n * sizeof(uint64_t), &svc->ctrl);
    if (st != VSYM_OK) {
        free(svc->sent_total), free(svc->recv_total), free(svc);
        return st;
    }
    memset(vsym_obj_ptr(svc->ctrl), 0, 2 * n * sizeof(uint64_t));
    /* No peer may add to this rank's counters before they are zeroed. */
    st = vsym_team_barrier(team, 0);
    if (st != VSYM_OK) {
        vsym_obj_free(svc->ctrl);
        free(svc->sent_total), free(svc->recv_total), free(svc);
        return st;
    }
    *svc_p = svc;
    return VSYM_OK;
}

/* Drop the schedule and what was made for it. Collective when objects were made. */
static vsym_status_t drop_schedule(vsym_copy_t *svc)
{
    vsym_status_t st = VSYM_OK, st2;
    if (svc->staging != NULL) {
        st2 = vsym_obj_free(svc->staging);
        if (st == VSYM_OK) st = st2;
    }
    for (size_t j = 0; j < svc->nrounds; j++) {
        if (svc->round_obj != NULL && svc->round_obj[j] != NULL) {
            st2 = vsym_obj_free(svc->round_obj[j]);
            if (st == VSYM_OK) st = st2;
        }
        if (svc->round_dummy != NULL && svc->round_dummy[j] != NULL)
            munmap(svc->round_dummy[j], svc->round_size[j]);
    }
    free(svc->round_obj);
    free(svc->round_dummy);
    free(svc->round_size);
    vsym_copy_sched_free(&svc->sched);
    free(svc->tasks);
    free(svc->regs);
    free(svc->reg_base);
    free(svc->region_base);
    free(svc->region_round);
    free(svc->regions);
    for (size_t k = 0; k < svc->nsend_bufs; k++) {
        st2 = vsym_buffer_unregister(svc->ctx, svc->send_bufs[k].base);
        if (st == VSYM_OK) st = st2;
    }
    free(svc->send_bufs);
    svc->send_bufs = NULL;
    svc->nsend_bufs = 0;
    free(svc->batch_staged);
    free(svc->batch_slot);
    free(svc->recv_index);
    free(svc->recv_count);
    free(svc->node_shm);
    svc->node_shm = NULL;
    svc->staging = NULL;
    svc->round_obj = NULL;
    svc->round_dummy = NULL;
    svc->round_size = NULL;
    svc->nrounds = 0;
    svc->tasks = NULL;
    svc->ntasks = 0;
    svc->regs = NULL;
    svc->nregs = 0;
    svc->reg_base = NULL;
    svc->region_base = NULL;
    svc->region_round = NULL;
    svc->regions = NULL;
    svc->nregions = 0;
    svc->batch_staged = NULL;
    svc->batch_slot = NULL;
    svc->recv_index = NULL;
    svc->recv_count = NULL;
    svc->scheduled = 0;
    memset(&svc->stats, 0, sizeof(svc->stats));
    return st;
}

VSYM_API vsym_status_t vsym_copy_clear(vsym_copy_t *svc)
{
    if (svc == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy clear: NULL service");
    vsym_status_t st = drop_schedule(svc);
    svc->sends.n = svc->recvs.n = svc->bad.n = 0;
    return st;
}

VSYM_API vsym_status_t vsym_copy_destroy(vsym_copy_t *svc)
{
    if (svc == NULL) return VSYM_OK;
    vsym_status_t st = vsym_copy_clear(svc);
    vsym_status_t st2 = vsym_obj_free(svc->ctrl);
    if (st == VSYM_OK) st = st2;
    free(svc->bounce);
    free(svc->sends.v);
    free(svc->recvs.v);
    free(svc->bad.v);
    free(svc->sent_total);
    free(svc->recv_total);
    free(svc);
    return st;
}

/* ---- Schedule ----------------------------------------------------------------------------- */

/* The blob each rank contributes to the allgather. */
typedef struct blob_header {
    uint64_t nregs;
    uint64_t nregions;
    uint64_t uses_verbs;
    uint64_t node_shm;     /* this rank reaches every other rank of its node over shm */
    uint64_t zero_copy;    /* VSYM_COPY_ZERO_COPY of this rank */
    uint64_t staging_size; /* the settings every rank must agree on */
    uint64_t chunk;
} blob_header_t;

static _Thread_local const local_reg_t *sort_recvs;

static int cmp_recv_by_buffer(const void *a, const void *b)
{
    const local_reg_t *x = &sort_recvs[*(const size_t *)a];
    const local_reg_t *y = &sort_recvs[*(const size_t *)b];
    if (x->buffer != y->buffer) return (uintptr_t)x->buffer < (uintptr_t)y->buffer ? -1 : 1;
    return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

static int cmp_region_by_base(const void *a, const void *b)
{
    const region_t *x = a, *y = b;
    return (uintptr_t)x->base < (uintptr_t)y->base ? -1 : ((uintptr_t)x->base > (uintptr_t)y->base);
}

static _Thread_local const region_t *sort_regions;

/* Largest extent first, then by address. */
static int cmp_region_index(const void *a, const void *b)
{
    const region_t *x = &sort_regions[*(const uint32_t *)a];
    const region_t *y = &sort_regions[*(const uint32_t *)b];
    if (x->extent != y->extent) return x->extent > y->extent ? -1 : 1;
    return cmp_region_by_base(x, y);
}

/* The registrations rv[idx[0..m)] grouped by buffer pointer (from the lowest to the highest
 * registered byte of the buffer), then the groups that touch or overlap in memory merged
 * (tensors carved from one allocation become one extent), into by_base (room for m) in address
 * order; their number. Every byte of an extent lies in a buffer the caller passed. Sorts idx by
 * buffer. */
static size_t merge_extents(local_reg_t *rv, size_t *idx, size_t m, region_t *by_base)
{
    size_t nb = 0, nr = 0;
    sort_recvs = rv;
    qsort(idx, m, sizeof(size_t), cmp_recv_by_buffer);
    for (size_t k = 0; k < m;) {
        char *buffer = rv[idx[k]].buffer;
        size_t lo = SIZE_MAX, hi = 0;
        for (; k < m && rv[idx[k]].buffer == buffer; k++) {
            const local_reg_t *q = &rv[idx[k]];
            const size_t end = q->position + vsym_copy_rows_span(q->size, q->row, q->stride);
            if (q->position < lo) lo = q->position;
            if (end > hi) hi = end;
        }
        by_base[nb++] = (region_t){.base = buffer + lo, .extent = hi - lo};
    }
    qsort(by_base, nb, sizeof(region_t), cmp_region_by_base);
    for (size_t k = 0; k < nb; k++) {
        region_t *cur = nr > 0 ? &by_base[nr - 1] : NULL;
        if (cur != NULL && by_base[k].base <= cur->base + cur->extent) {
            char *end = by_base[k].base + by_base[k].extent;
            if (end > cur->base + cur->extent) cur->extent = (size_t)(end - cur->base);
        } else {
            by_base[nr++] = by_base[k];
        }
    }
    return nr;
}

/* The extents (merge_extents) of this rank's non-empty registrations of l with a remote peer,
 * over verbs only where verbs_only is set: *by_base_p (*nr_p of them), and in *idx_p the *m_p
 * registrations chosen, sorted by buffer. */
static vsym_status_t remote_extents(const vsym_copy_t *svc, reg_list_t *l, int verbs_only,
                                    size_t **idx_p, size_t *m_p, region_t **by_base_p, size_t *nr_p)
{
    const size_t n = l->n;
    size_t *idx = malloc((n ? n : 1) * sizeof(size_t));
    region_t *by_base = malloc((n ? n : 1) * sizeof(region_t));
    if (idx == NULL || by_base == NULL) {
        free(idx), free(by_base);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory");
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const local_reg_t *q = &l->v[i];
        const char *tp = vsym_team_transport_of(svc->team, q->peer);
        if (q->size > 0 && q->peer != svc->rank &&
            (!verbs_only || (tp != NULL && strcmp(tp, "verbs") == 0)))
            idx[m++] = i;
    }
    *nr_p = merge_extents(l->v, idx, m, by_base);
    *idx_p = idx;
    *m_p = m;
    *by_base_p = by_base;
    return VSYM_OK;
}

/* This rank's receive regions: the extents of its remote, non-empty receives (one rendezvous
 * each), sorted largest first, so that equal extents of different ranks meet in the same
 * rendezvous round. */
static vsym_status_t build_regions(vsym_copy_t *svc)
{
    local_reg_t *rv = svc->recvs.v;
    for (size_t i = 0; i < svc->recvs.n; i++)
        rv[i].region = UINT32_MAX;
    size_t *idx, m, nr;
    region_t *by_base;
    vsym_status_t st = remote_extents(svc, &svc->recvs, 0, &idx, &m, &by_base, &nr);
    if (st != VSYM_OK) return st;
    region_t *regions = malloc((nr ? nr : 1) * sizeof(region_t));
    if (regions == NULL) {
        free(idx), free(by_base);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory");
    }
    /* The largest-first order, and for each region of by_base its index in it. */
    uint32_t *perm = malloc((nr ? nr : 1) * sizeof(uint32_t));
    uint32_t *index_of = malloc((nr ? nr : 1) * sizeof(uint32_t));
    if (perm == NULL || index_of == NULL) {
        free(perm), free(index_of), free(idx), free(regions), free(by_base);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory");
    }
    for (size_t q = 0; q < nr; q++)
        perm[q] = (uint32_t)q;
    sort_regions = by_base;
    qsort(perm, nr, sizeof(uint32_t), cmp_region_index);
    for (size_t q = 0; q < nr; q++) {
        regions[q] = by_base[perm[q]];
        index_of[perm[q]] = (uint32_t)q;
    }
    /* Each receive lies in exactly one merged region: the last one starting at or below it. */
    for (size_t k = 0; k < m; k++) {
        local_reg_t *r = &rv[idx[k]];
        char *addr = r->buffer + r->position;
        size_t lo = 0, hi = nr;
        while (hi - lo > 1) {
            size_t mid = (lo + hi) / 2;
            if (by_base[mid].base <= addr)
                lo = mid;
            else
                hi = mid;
        }
        r->region = index_of[lo];
    }
    free(perm);
    free(index_of);
    free(by_base);
    free(idx);
    svc->regions = regions;
    svc->nregions = nr;
    return VSYM_OK;
}

/* Register the extents of this rank's non-empty sends to peers over verbs as buffers
 * (vsym_buffer_register), so that the NIC reads them in place instead of the transport copying
 * every put through its bounce slots (the symmetric heap is registered already: there it
 * does nothing). Undone by drop_schedule. */
static vsym_status_t register_sends(vsym_copy_t *svc)
{
    size_t *idx, m, nr;
    region_t *by_base;
    vsym_status_t st = remote_extents(svc, &svc->sends, 1, &idx, &m, &by_base, &nr);
    if (st != VSYM_OK) return st;
    free(idx);
    svc->send_bufs = by_base;
    svc->nsend_bufs = 0;
    for (size_t k = 0; k < nr; k++) {
        st = vsym_buffer_register(svc->ctx, by_base[k].base, by_base[k].extent);
        if (st != VSYM_OK) return st;
        svc->nsend_bufs++;
        svc->stats.send_registered_bytes += by_base[k].extent;
    }
    return VSYM_OK;
}

static int team_uses_verbs(const vsym_copy_t *svc)
{
    for (int r = 0; r < svc->size; r++) {
        const char *tp = vsym_team_transport_of(svc->team, r);
        if (tp != NULL && strcmp(tp, "verbs") == 0) return 1;
    }
    return 0;
}

static int team_node_shm(const vsym_copy_t *svc)
{
    const int node = vsym_team_node_of(svc->team, svc->rank);
    for (int r = 0; r < svc->size; r++) {
        const char *tp = vsym_team_transport_of(svc->team, r);
        if (r != svc->rank && vsym_team_node_of(svc->team, r) == node &&
            (tp == NULL || strcmp(tp, "shm") != 0))
            return 0;
    }
    return 1;
}

/* Whether this rank reaches the ordinary memory of every peer it has over shared memory (what
 * writing into a receive buffer in place needs there: process-to-process copies). Where the OS
 * forbids them, the rank asks for every region to be staged (zero_copy, which every rank ANDs). */
static int shm_peers_copyable(const vsym_copy_t *svc)
{
    for (int r = 0; r < svc->size; r++) {
        const char *tp = vsym_team_transport_of(svc->team, r);
        if (r != svc->rank && tp != NULL && strcmp(tp, "shm") == 0 &&
            !vsym_team_process_copy(svc->team, r))
            return 0;
    }
    return 1;
}

/* Allgather every rank's regions and registrations: lengths first, then blobs padded to the
 * longest. Fills svc->regs, reg_base, region_base and the extents (*extents_p, per region of
 * every rank); *any_verbs_p says whether some rank reaches a peer over verbs, *zero_copy_p
 * whether every rank allows zero copy. */
static vsym_status_t exchange(vsym_copy_t *svc, uint64_t chunk, uint64_t **extents_p,
                              int *any_verbs_p, int *zero_copy_p)
{
    const size_t n = (size_t)svc->size;
    size_t nmine = svc->sends.n + svc->recvs.n + svc->bad.n;
    uint64_t len =
        sizeof(blob_header_t) + svc->nregions * sizeof(uint64_t) + nmine * sizeof(vsym_copy_reg_t);
    uint64_t *lens = malloc(n * sizeof(uint64_t));
    if (lens == NULL) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory");
    vsym_status_t st = vsym_team_exchange(svc->team, &len, sizeof(len), lens);
    if (st != VSYM_OK) {
        free(lens);
        return st;
    }
    uint64_t maxlen = 0;
    for (size_t r = 0; r < n; r++)
        if (lens[r] > maxlen) maxlen = lens[r];
    char *mine = calloc(1, maxlen);
    char *all = malloc(maxlen * n);
    if (mine == NULL || all == NULL) {
        free(lens), free(mine), free(all);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY,
                         "copy schedule: no memory for %llu bytes of "
                         "summaries",
                         (ull)(maxlen * n));
    }
    blob_header_t *h = (blob_header_t *)(void *)mine;
    h->nregs = nmine;
    h->nregions = svc->nregions;
    h->uses_verbs = (uint64_t)team_uses_verbs(svc);
    h->node_shm = (uint64_t)team_node_shm(svc);
    h->zero_copy = vsym_config_int(VSYM_CFG_COPY_ZERO_COPY) != 0 && shm_peers_copyable(svc);
    h->staging_size = svc->staging_size;
    h->chunk = chunk;
    uint64_t *ext = (uint64_t *)(void *)(mine + sizeof(*h));
    for (size_t q = 0; q < svc->nregions; q++)
        ext[q] = svc->regions[q].extent;
    vsym_copy_reg_t *out = (vsym_copy_reg_t *)(void *)(ext + svc->nregions);
    size_t k = 0;
    /* The symmetric heap starts at the heap offset 0 of every object allocated in it. */
    const char *heap_lo = (const char *)vsym_obj_ptr(svc->ctrl) - vsym_obj_heap_offset(svc->ctrl);
    const size_t heap_size = vsym_config_size(VSYM_CFG_HEAP_SIZE);
    for (size_t i = 0; i < svc->sends.n; i++, k++) {
        const local_reg_t *r = &svc->sends.v[i];
        out[k] = (vsym_copy_reg_t){.id = r->id,
                                   .size = r->size,
                                   .addr = (uint64_t)(uintptr_t)(r->buffer + r->position),
                                   .row = r->row,
                                   .stride = r->stride,
                                   .rank = svc->rank,
                                   .peer = r->peer,
                                   .kind = VSYM_COPY_REG_SEND,
                                   .buf = UINT32_MAX};
    }
    for (size_t i = 0; i < svc->recvs.n; i++, k++) {
        const local_reg_t *r = &svc->recvs.v[i];
        uint64_t off = 0;
        uint32_t direct = 0;
        if (r->region != UINT32_MAX) {
            const region_t *g = &svc->regions[r->region];
            off = (uint64_t)(r->buffer + r->position - g->base);
            direct = g->base >= heap_lo && g->extent <= heap_size &&
                     (size_t)(g->base - heap_lo) <= heap_size - g->extent;
        }
        out[k] = (vsym_copy_reg_t){.id = r->id,
                                   .size = r->size,
                                   .addr = (uint64_t)(uintptr_t)(r->buffer + r->position),
                                   .buf_off = off,
                                   .row = r->row,
                                   .stride = r->stride,
                                   .rank = svc->rank,
                                   .peer = r->peer,
                                   .kind = VSYM_COPY_REG_RECV,
                                   .buf = r->region,
                                   .direct = direct};
    }
    for (size_t i = 0; i < svc->bad.n; i++, k++) {
        const local_reg_t *r = &svc->bad.v[i];
        out[k] = (vsym_copy_reg_t){.id = r->id,
                                   .size = r->size,
                                   .rank = svc->rank,
                                   .peer = r->peer,
                                   .kind = r->region | VSYM_COPY_REG_BAD_PEER,
                                   .buf = UINT32_MAX};
    }
    st = vsym_team_exchange(svc->team, mine, maxlen, all);
    free(mine);
    free(lens);
    if (st != VSYM_OK) {
        free(all);
        return st;
    }
    size_t total_regs = 0, total_regions = 0;
    for (size_t r = 0; r < n; r++) {
        const blob_header_t *hr = (const blob_header_t *)(const void *)(all + r * maxlen);
        total_regs += hr->nregs;
        total_regions += hr->nregions;
    }
    svc->regs = malloc((total_regs ? total_regs : 1) * sizeof(vsym_copy_reg_t));
    svc->reg_base = malloc((n + 1) * sizeof(size_t));
    svc->region_base = malloc((n + 1) * sizeof(size_t));
    svc->node_shm = calloc(n, 1);
    uint64_t *extents = malloc((total_regions ? total_regions : 1) * sizeof(uint64_t));
    if (svc->regs == NULL || svc->reg_base == NULL || svc->region_base == NULL || extents == NULL ||
        svc->node_shm == NULL) {
        free(all), free(extents);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory for %zu registrations",
                         total_regs);
    }
    size_t at_reg = 0, at_region = 0;
    int any_verbs = 0, zero_copy = 1;
    for (size_t r = 0; r < n; r++) {
        const char *b = all + r * maxlen;
        const blob_header_t *hr = (const blob_header_t *)(const void *)b;
        if (hr->staging_size != svc->staging_size || hr->chunk != chunk) {
            const ull their_staging = hr->staging_size, their_chunk = hr->chunk;
            free(all), free(extents);
            return VSYM_FAIL(VSYM_ERR_MISMATCH,
                             "copy schedule: rank %zu has %llu-byte staging slots and %llu-byte "
                             "chunks, this rank %zu and %llu: set VSYM_COPY_STAGING and "
                             "VSYM_COPY_CHUNK alike on every rank",
                             r, their_staging, their_chunk, svc->staging_size, (ull)chunk);
        }
        zero_copy &= (hr->zero_copy != 0);
        svc->reg_base[r] = at_reg;
        svc->region_base[r] = at_region;
        any_verbs |= (hr->uses_verbs != 0);
        svc->node_shm[r] = hr->node_shm != 0;
        memcpy(extents + at_region, b + sizeof(*hr), hr->nregions * sizeof(uint64_t));
        memcpy(svc->regs + at_reg, b + sizeof(*hr) + hr->nregions * sizeof(uint64_t),
               hr->nregs * sizeof(vsym_copy_reg_t));
        at_reg += hr->nregs;
        at_region += hr->nregions;
    }
    svc->reg_base[n] = at_reg;
    svc->region_base[n] = at_region;
    svc->nregs = at_reg;
    free(all);
    *extents_p = extents;
    *any_verbs_p = any_verbs;
    *zero_copy_p = zero_copy;
    return VSYM_OK;
}

/* Make receive regions reachable by their senders. vsym_rendezvous() takes the same size on every
 * rank, so regions are joined by extent: for each distinct extent E (largest first), round k
 * joins the k-th region of extent E of every rank that has one; every other rank passes a
 * placeholder mapping of E bytes that nobody ever writes (reserved with MAP_NORESERVE and never
 * touched over shm). So every region is written in place, at the price of one collective
 * rendezvous per (extent, k). Over verbs a placeholder would be pinned, so a round that needs one
 * is done there only up to COPY_DUMMY_MAX_VERBS bytes; otherwise its regions are staged. After
 * COPY_MAX_ROUNDS rounds (largest extents first) the remaining regions are staged too. Every
 * rank decides the same from the same extents. */
typedef struct extent_ref {
    uint64_t extent;
    uint32_t rank;
    uint32_t index; /* the region's index on its rank */
} extent_ref_t;

static int cmp_extent_ref(const void *a, const void *b)
{
    const extent_ref_t *x = a, *y = b;
    if (x->extent != y->extent) return x->extent > y->extent ? -1 : 1;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static vsym_status_t rendezvous_round(vsym_copy_t *svc, void *own, size_t size)
{
    size_t round = svc->nrounds;
    void *buf = own;
    if (buf == NULL) {
        buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
        if (buf == MAP_FAILED)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY,
                             "copy schedule: cannot reserve a %zu-byte placeholder", size);
        svc->round_dummy[round] = buf;
    }
    svc->round_size[round] = size;
    svc->nrounds++;
    return vsym_rendezvous(svc->team, buf, size, &svc->round_obj[round]);
}

static vsym_status_t expose_regions(vsym_copy_t *svc, const uint64_t *extents, int any_verbs,
                                    int zero_copy)
{
    const size_t n = (size_t)svc->size;
    const size_t total = svc->region_base[n];
    extent_ref_t *refs = malloc((total ? total : 1) * sizeof(extent_ref_t));
    int *mine = malloc(n * sizeof(int)); /* per rank: its region in the current round, or -1 */
    svc->region_round = malloc((total ? total : 1) * sizeof(int));
    svc->round_obj = calloc(total ? total : 1, sizeof(vsym_obj_t *));
    svc->round_dummy = calloc(total ? total : 1, sizeof(void *));
    svc->round_size = calloc(total ? total : 1, sizeof(size_t));
    vsym_status_t st = VSYM_OK;
    if (refs == NULL || mine == NULL || svc->region_round == NULL || svc->round_obj == NULL ||
        svc->round_dummy == NULL || svc->round_size == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory");
        goto out;
    }
    for (size_t r = 0; r < n; r++) {
        for (size_t q = svc->region_base[r]; q < svc->region_base[r + 1]; q++) {
            refs[q] = (extent_ref_t){.extent = extents[q],
                                     .rank = (uint32_t)r,
                                     .index = (uint32_t)(q - svc->region_base[r])};
            svc->region_round[q] = -1;
        }
    }
    if (!zero_copy) goto out; /* VSYM_COPY_ZERO_COPY=0 on some rank: every region staged */
    qsort(refs, total, sizeof(extent_ref_t), cmp_extent_ref);
    /* refs of one extent are grouped, and inside the group sorted by rank then index: round k
     * of the group takes, from every rank, its k-th region of that extent. */
    for (size_t g = 0; g < total;) {
        size_t end = g;
        while (end < total && refs[end].extent == refs[g].extent)
            end++;
        const size_t size = (size_t)refs[g].extent;
        for (size_t k = 0;; k++) {
            size_t present = 0;
            for (size_t r = 0; r < n; r++)
                mine[r] = -1;
            for (size_t i = g; i < end;) {
                size_t j = i;
                while (j < end && refs[j].rank == refs[i].rank)
                    j++;
                if (i + k < j) {
                    mine[refs[i].rank] = (int)refs[i + k].index;
                    present++;
                }
                i = j;
            }
            if (present == 0 || svc->nrounds == COPY_MAX_ROUNDS) break;
            if (present < n && any_verbs && size > COPY_DUMMY_MAX_VERBS)
                continue; /* placeholders would be pinned: these regions are staged */
            int own = mine[svc->rank];
            st = rendezvous_round(svc, own >= 0 ? svc->regions[own].base : NULL, size);
            if (st != VSYM_OK) goto out;
            for (size_t r = 0; r < n; r++)
                if (mine[r] >= 0)
                    svc->region_round[svc->region_base[r] + (size_t)mine[r]] =
                        (int)(svc->nrounds - 1);
        }
        g = end;
    }
out:
    free(mine);
    free(refs);
    return st;
}

/* The rendezvous round of the receive region that piece p lands in, or -1 (staged). A task in
 * rows on either side is written in place only where the sender can store into the region
 * (it lies in the receiver's symmetric heap, the two ranks share a node, and the sender reaches
 * its node over shared memory, as the receiver can tell from the exchanged flags); elsewhere
 * a row would be a system call (process_vm_writev) or a NIC write of its own, and the rows go
 * through the staging slot instead, written there and unpacked by the receiver. Every rank
 * decides the same from the exchanged registrations. */
static int piece_round(const vsym_copy_t *svc, const vsym_copy_piece_t *p)
{
    const vsym_copy_sched_task_t *t = &svc->tasks[p->task];
    const vsym_copy_reg_t *rr = &svc->regs[t->recv_reg], *sr = &svc->regs[t->send_reg];
    if (rr->buf == UINT32_MAX) return -1;
    if ((rr->row != 0 || sr->row != 0) &&
        (!rr->direct || !svc->node_shm[sr->rank] ||
         vsym_team_node_of(svc->team, sr->rank) != vsym_team_node_of(svc->team, rr->rank)))
        return -1;
    return svc->region_round[svc->region_base[rr->rank] + rr->buf];
}

static size_t chunk_size(size_t staging)
{
    size_t chunk = vsym_config_size(VSYM_CFG_COPY_CHUNK);
    if (chunk == 0 || chunk > staging) chunk = staging;
    return chunk;
}

VSYM_API vsym_status_t vsym_copy_schedule(vsym_copy_t *svc)
{
    if (svc == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy schedule: NULL service");
    if (svc->scheduled)
        return VSYM_FAIL(VSYM_ERR_BAD_STATE, "copy schedule: already scheduled, clear first");
    const uint64_t t0 = vsym_util_time_ns();
    const size_t n = (size_t)svc->size;
    uint64_t *extents = NULL;
    int any_verbs = 0, zero_copy = 0;
    uint64_t compute_ns = 0;
    svc->staging_size = vsym_config_size(VSYM_CFG_COPY_STAGING);
    if (svc->staging_size < 4096) svc->staging_size = 4096;
    const size_t chunk = chunk_size(svc->staging_size);
    vsym_status_t st = build_regions(svc);
    if (st != VSYM_OK) goto err;
    st = exchange(svc, chunk, &extents, &any_verbs, &zero_copy);
    if (st != VSYM_OK) goto err;

    uint64_t c0 = vsym_util_time_ns();
    st = vsym_copy_match(svc->regs, svc->nregs, svc->size, &svc->tasks, &svc->ntasks);
    if (st != VSYM_OK) goto err;
    st = vsym_copy_sched_build(svc->tasks, svc->ntasks, svc->size, chunk, &svc->sched);
    if (st != VSYM_OK) goto err;
    svc->run_bytes = 0;
    for (size_t i = 0; i < svc->ntasks; i++)
        if (svc->tasks[i].src == svc->rank || svc->tasks[i].dst == svc->rank)
            svc->run_bytes += svc->tasks[i].size;
    compute_ns += vsym_util_time_ns() - c0;

    st = expose_regions(svc, extents, any_verbs, zero_copy);
    if (st != VSYM_OK) goto err;
    st = register_sends(svc);
    if (st != VSYM_OK) goto err;

    c0 = vsym_util_time_ns();
    const vsym_copy_sched_t *s = &svc->sched;
    svc->batch_staged = calloc(s->num_batches + 1, 1);
    svc->batch_slot = calloc(s->num_batches + 1, sizeof(uint32_t));
    svc->recv_index = calloc(s->num_batches + 1, sizeof(uint32_t));
    svc->recv_count = calloc(n, sizeof(uint32_t));
    uint32_t *staged_seq = calloc(n, sizeof(uint32_t));
    if (svc->batch_staged == NULL || svc->batch_slot == NULL || svc->recv_index == NULL ||
        svc->recv_count == NULL || staged_seq == NULL) {
        free(staged_seq);
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory");
        goto err;
    }
    vsym_copy_stats_t *stats = &svc->stats;
    int any_staged = 0;
    for (size_t e = 0; e < s->num_batches; e++) {
        const vsym_copy_batch_t *b = &s->batches[e];
        for (uint32_t k = 0; k < b->num_pieces; k++) {
            const vsym_copy_piece_t *p = &s->pieces[b->first_piece + k];
            if (piece_round(svc, p) < 0) {
                svc->batch_staged[e] = 1;
                stats->staged_bytes += p->size;
            } else {
                stats->zero_copy_bytes += p->size;
            }
        }
        any_staged |= svc->batch_staged[e];
        if (b->src == svc->rank) {
            stats->rank_send_bytes += b->bytes;
            stats->rank_send_batches++;
        }
        if (b->dst == svc->rank) {
            stats->rank_recv_bytes += b->bytes;
            stats->rank_recv_batches++;
        }
    }
    /* The two staging slots of a receiver take its staged batches in turn, in iteration
     * order; senders and receiver compute the same slot from the same schedule. */
    for (uint32_t it = 0; it < s->iterations; it++) {
        for (size_t r = 0; r < n; r++) {
            int32_t e = s->recv_of[(size_t)it * n + r];
            if (e >= 0 && svc->batch_staged[e]) svc->batch_slot[e] = staged_seq[r]++ % 2;
        }
    }
    free(staged_seq);
    for (uint32_t it = 0; it < s->iterations; it++) {
        int32_t e = s->recv_of[(size_t)it * n + (size_t)svc->rank];
        if (e >= 0) svc->recv_index[e] = ++svc->recv_count[s->batches[e].src];
    }
    stats->tasks = svc->ntasks;
    stats->local_tasks = s->num_local;
    stats->segments = s->num_pieces;
    stats->segmented_tasks = s->num_segmented;
    stats->batches = s->num_batches;
    stats->iterations = s->iterations;
    stats->delta = s->delta;
    stats->total_bytes = s->remote_bytes;
    stats->local_bytes = s->local_bytes;
    stats->chunk_size = s->chunk;
    stats->greedy_iterations = vsym_copy_sched_greedy_iterations(s);
    stats->rendezvous_rounds = svc->nrounds;
    for (uint32_t it = 0; it < s->iterations; it++)
        if (s->iter_max_bytes[it] > stats->max_iteration_bytes)
            stats->max_iteration_bytes = s->iter_max_bytes[it];
    compute_ns += vsym_util_time_ns() - c0;

    if (any_staged) {
        st = vsym_alloc(svc->team, 2 * svc->staging_size, &svc->staging);
        if (st != VSYM_OK) goto err;
    }
    free(extents);
    stats->compute_seconds = (double)compute_ns * 1e-9;
    stats->schedule_seconds = (double)(vsym_util_time_ns() - t0) * 1e-9;
    svc->scheduled = 1;
    return VSYM_OK;
err:
    free(extents);
    drop_schedule(svc);
    return st;
}

/* ---- Run ---------------------------------------------------------------------------------- */

#define READY_OFF(r) ((size_t)(r) * sizeof(uint64_t))
#define DONE_OFF(svc, r) (((size_t)(svc)->size + (size_t)(r)) * sizeof(uint64_t))

static vsym_status_t wait_counter(vsym_copy_t *svc, size_t off, uint64_t value, int peer,
                                  const char *what, uint32_t it)
{
    vsym_status_t st = vsym_wait_until64(svc->ctrl, off, VSYM_CMP_GE, value, 0);
    if (st != VSYM_OK) {
        /* The core's detail (the word's last value) goes into ours: copy it out first, the
         * detail buffer is rewritten by the report. */
        char inner[256];
        snprintf(inner, sizeof(inner), "%s", vsym_error_detail());
        return VSYM_FAIL(st, "copy run: iteration %u: waiting for rank %d (%s, counter %llu): %s",
                         it, peer, what, (ull)value, inner);
    }
    return VSYM_OK;
}

/* A walk over bytes of a task laid out one way at the source and another at the destination
 * (each contiguous, row 0, or in rows): one segment per call, as long as both sides stay inside
 * a row.
 *
 * One side of a walk: where byte k of the task is, kept as (row, column) so that a step needs
 * no division (rows of a few hundred bytes make steps many). */
typedef struct seg_side {
    uint64_t row, stride; /* row 0: contiguous */
    uint64_t at;          /* offset of the current row's first byte */
    uint64_t col;         /* offset inside the row (contiguous: from the first byte) */
} seg_side_t;

typedef struct seg_walk {
    seg_side_t s, d;
    uint64_t left;
} seg_walk_t;

static seg_side_t seg_side(uint64_t k, uint64_t row, uint64_t stride)
{
    if (row == 0) return (seg_side_t){0, 0, 0, k};
    return (seg_side_t){row, stride, (k / row) * stride, k % row};
}

/* Bytes [sk, sk + len) of the source side against [dk, dk + len) of the destination side. */
static seg_walk_t seg_walk(uint64_t sk, uint64_t srow, uint64_t sstride, uint64_t dk, uint64_t drow,
                           uint64_t dstride, uint64_t len)
{
    return (seg_walk_t){seg_side(sk, srow, sstride), seg_side(dk, drow, dstride), len};
}

static void seg_advance(seg_side_t *x, uint64_t n)
{
    x->col += n;
    if (x->row != 0 && x->col == x->row) {
        x->col = 0;
        x->at += x->stride;
    }
}

/* The next segment: its offsets from each side's first byte and its length; 0 when done. */
static int seg_next(seg_walk_t *w, uint64_t *soff, uint64_t *doff, uint64_t *len)
{
    if (w->left == 0) return 0;
    uint64_t n = w->left;
    if (w->s.row != 0 && w->s.row - w->s.col < n) n = w->s.row - w->s.col;
    if (w->d.row != 0 && w->d.row - w->d.col < n) n = w->d.row - w->d.col;
    *soff = w->s.at + w->s.col;
    *doff = w->d.at + w->d.col;
    *len = n;
    seg_advance(&w->s, n);
    seg_advance(&w->d, n);
    w->left -= n;
    return 1;
}

/* Whether a run's copies use non-temporal stores: where this rank's bytes per run (sent, received
 * and local) reach the threshold of a single copy (vsym_util_copy_single_streams:
 * VSYM_NT_THRESHOLD, auto at most 48 MiB). A rank's run is one copy's worth of traffic for its
 * cache, as a put is, not a share of a team's (the collectives' threshold, half the last-level
 * cache: 150 MiB on the 16-core Intel guest, where the put it is compared with streamed from 48
 * MiB; there, where the two differ (runs of 64-128 MiB), 2-16 ranks, ring and all-to-all, two
 * rounds taking turns, this rule gave 1.04-1.85x the bandwidth, median about 1.5, and 0.83-1.41 of
 * the lone put at 2-4 ranks against 0.59-0.93; results/copy/device-16core-2026-12-02-stop62).
 * Decided by the run's bytes, not a piece's: on the 2-core Zen 3 host, 8 MiB pieces of a 64 MiB
 * ring under a 16 MiB threshold went with ordinary stores at 0.74-0.86 of a loaded 64 MiB put that
 * streamed. Rows lie apart, so unlike one long contiguous copy (glibc's rep movsb) ordinary stores
 * first read every destination line; beyond the cache that costs 1.6x (2-core AMD: 32 MiB in rows
 * of 512 B into every other 512 B, 7.9 ms with memcpy per row, 4.2 with streaming stores, 5.0 for
 * one contiguous memcpy). */
static int run_streams(const vsym_copy_t *svc)
{
    return vsym_util_copy_single_streams(svc->run_bytes);
}

/* The segments of a walk from src to dst, streaming or not (run_streams), fenced once at the end:
 * rows of a few hundred bytes each, a fence apiece would cost more than their stores. */
static void copy_walk(char *dst, const char *src, seg_walk_t *w, int stream)
{
    uint64_t so, dof, n;
    if (!stream) {
        while (seg_next(w, &so, &dof, &n))
            memcpy(dst + dof, src + so, n);
        return;
    }
    while (seg_next(w, &so, &dof, &n))
        vsym_util_copy_stream(dst + dof, src + so, n);
    vsym_util_copy_fence();
}

/* The first and one past the last byte a layout of len bytes from k touches. */
static void walk_extent(uint64_t row, uint64_t stride, uint64_t k, uint64_t len, uint64_t *lo_p,
                        uint64_t *hi_p)
{
    if (row == 0 || len == 0) {
        *lo_p = k;
        *hi_p = k + len;
        return;
    }
    uint64_t last = k + len - 1;
    *lo_p = (k / row) * stride + k % row;
    *hi_p = (last / row) * stride + last % row + 1;
}

/* Bytes [k, k + len) of a task from one layout to another in this rank's memory (memmove where
 * the two extents overlap: a local task may copy within one buffer). */
static void move_local(char *dst, uint64_t drow, uint64_t dstride, const char *src, uint64_t srow,
                       uint64_t sstride, uint64_t k, uint64_t len, int stream)
{
    seg_walk_t w = seg_walk(k, srow, sstride, k, drow, dstride, len);
    uint64_t slo, shi, dlo, dhi;
    walk_extent(srow, sstride, k, len, &slo, &shi);
    walk_extent(drow, dstride, k, len, &dlo, &dhi);
    const uintptr_t d0 = (uintptr_t)dst, s0 = (uintptr_t)src;
    if (d0 + dhi <= s0 + slo || s0 + shi <= d0 + dlo) {
        copy_walk(dst, src, &w, stream);
        return;
    }
    uint64_t so, dof, n;
    while (seg_next(&w, &so, &dof, &n))
        memmove(dst + dof, src + so, n);
}

/* One range of a batch: a plain put, or for the batch's last range a put with the done signal,
 * behind a fence when earlier puts went out (*puts counts them). Both non-blocking: the send
 * buffers are not rewritten during a run, which ends with a quiet (a gathered slot is quieted
 * before it is rewritten), so a rank does not wait for a batch's transfer before the next. */
static vsym_status_t put_range(vsym_copy_t *svc, vsym_obj_t *obj, int d, size_t off,
                               const void *src, size_t len, int last, size_t *puts)
{
    if (!last) {
        (*puts)++;
        return vsym_put_nbi(obj, d, off, src, len);
    }
    if (*puts > 0) {
        vsym_status_t st = vsym_fence(svc->ctx);
        if (st != VSYM_OK) return st;
    }
    return vsym_put_signal_nbi(obj, d, off, src, len, svc->ctrl, DONE_OFF(svc, svc->rank), 1,
                               VSYM_SIGNAL_ADD);
}

/* Rows into a contiguous range out of reach of stores (the staging slot over verbs): gathered
 * here, so that they go in one put, not one NIC write per row. The gathered bytes sit at the
 * piece's place in its batch (at) in a buffer of one staging slot, sized once (puts of the
 * batch's earlier pieces may still read it: it must not move); the previous batch's puts from
 * it must be complete before it is rewritten. */
static vsym_status_t gather_rows(vsym_copy_t *svc, seg_walk_t *w, const char *src, size_t at,
                                 char **g_p)
{
    if (svc->bounce_busy != (uint64_t)-1 && svc->bounce_busy != svc->bounce_batch) {
        vsym_status_t st = vsym_quiet(svc->ctx);
        if (st != VSYM_OK) return st;
        svc->bounce_busy = (uint64_t)-1;
    }
    if (svc->bounce_size < svc->staging_size) {
        free(svc->bounce);
        svc->bounce = malloc(svc->staging_size);
        svc->bounce_size = svc->bounce ? svc->staging_size : 0;
        if (svc->bounce == NULL)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy run: no memory to gather %zu bytes of rows",
                             svc->staging_size);
    }
    svc->bounce_busy = svc->bounce_batch;
    char *g = svc->bounce + at;
    uint64_t so, dof, n;
    while (seg_next(w, &so, &dof, &n))
        memcpy(g + dof, src + so, n);
    *g_p = g;
    return VSYM_OK;
}

/* Write batch e to its receiver: pieces straight into the receive region or into the staging
 * slot, then the done counter, which the fence orders after every piece. Over shared memory
 * every piece, rows or contiguous, is stored through the peer's mapping; out of reach of stores
 * (verbs; a receive buffer outside the heap) a contiguous piece is a put, and rows bound for
 * the staging slot are gathered here and put at once. */
static vsym_status_t send_batch(vsym_copy_t *svc, int32_t e)
{
    const vsym_copy_sched_t *s = &svc->sched;
    const vsym_copy_batch_t *b = &s->batches[e];
    const int d = b->dst;
    vsym_status_t st =
        wait_counter(svc, READY_OFF(d), svc->sent_total[d] + 1, d, "ready notice", b->iteration);
    if (st != VSYM_OK) return st;
    const size_t my_base = svc->reg_base[svc->rank];
    const size_t slot = svc->batch_slot[e];
    svc->bounce_batch++;
    size_t puts = 0; /* puts before the last one, which carries the signal */
    for (uint32_t k = 0; k < b->num_pieces; k++) {
        const vsym_copy_piece_t *p = &s->pieces[b->first_piece + k];
        const vsym_copy_sched_task_t *t = &svc->tasks[p->task];
        const local_reg_t *sr = &svc->sends.v[t->send_reg - my_base];
        const vsym_copy_reg_t *rr = &svc->regs[t->recv_reg];
        const char *src = sr->buffer + sr->position;
        const int last = k + 1 == b->num_pieces;
        int round = piece_round(svc, p);
        vsym_obj_t *obj;
        /* The destination: the receive region (its rows) or the staging slot (contiguous). */
        size_t base, dk = 0;
        uint64_t drow = 0, dstride = 0;
        if (round >= 0) {
            obj = svc->round_obj[round];
            base = rr->buf_off;
            dk = p->task_offset;
            drow = rr->row;
            dstride = rr->stride;
        } else {
            obj = svc->staging;
            base = slot * svc->staging_size + p->batch_offset;
        }
        const char *from = src + p->task_offset;
        size_t off = base + dk, len = p->size;
        char *peer = vsym_obj_peer_ptr(obj, d);
        seg_walk_t w = seg_walk(p->task_offset, sr->row, sr->stride, dk, drow, dstride, p->size);
        if (peer != NULL) {
            /* Stored through the peer's mapping, rows or contiguous, streaming by the run's
             * bytes (run_streams): only the signal is left. */
            copy_walk(peer + base, src, &w, svc->streams);
            if (!last) continue;
            from = src;
            off = base;
            len = 0;
        } else if (sr->row != 0 || drow != 0) {
            if (drow == 0) {
                char *g = NULL;
                st = gather_rows(svc, &w, src, p->batch_offset, &g);
                if (st != VSYM_OK) return st;
                from = g;
                off = base;
            } else {
                /* piece_round() stages every row piece out of reach of stores. */
                return VSYM_FAIL(VSYM_ERR_BAD_STATE,
                                 "copy run: task %llu: rows bound for rank %d out of reach of "
                                 "stores",
                                 (ull)t->id, d);
            }
        }
        st = put_range(svc, obj, d, off, from, len, last, &puts);
        if (st != VSYM_OK) return st;
    }
    svc->sent_total[d]++;
    return VSYM_OK;
}

/* Ready notices: the receive batches of this rank in iteration order, up to the first staged
 * one whose slot is still full. Consecutive notices to one sender are merged into one add. */
typedef struct notice_state {
    uint32_t next_it;      /* next iteration whose receive batch gets a notice */
    uint32_t staged_given; /* staged batches noticed this run */
    uint32_t staged_freed; /* staged batches unpacked this run */
} notice_state_t;

static vsym_status_t post_notices(vsym_copy_t *svc, notice_state_t *ns)
{
    const vsym_copy_sched_t *s = &svc->sched;
    int pend_peer = -1;
    uint64_t pend = 0;
    vsym_status_t st = VSYM_OK;
    for (; ns->next_it < s->iterations; ns->next_it++) {
        int32_t e = s->recv_of[(size_t)ns->next_it * (size_t)svc->size + (size_t)svc->rank];
        if (e < 0) continue;
        if (svc->batch_staged[e]) {
            /* Two slots: the k-th staged batch may come once batch k - 2 is unpacked. */
            if (ns->staged_given >= ns->staged_freed + 2) break;
            ns->staged_given++;
        }
        int src = s->batches[e].src;
        if (src != pend_peer && pend > 0) {
            st = vsym_atomic64(svc->ctrl, pend_peer, READY_OFF(svc->rank), VSYM_AMO_ADD, pend, 0,
                               NULL);
            if (st != VSYM_OK) return st;
            pend = 0;
        }
        pend_peer = src;
        pend++;
    }
    if (pend > 0)
        st = vsym_atomic64(svc->ctrl, pend_peer, READY_OFF(svc->rank), VSYM_AMO_ADD, pend, 0, NULL);
    return st;
}

/* A staged batch: wait for it (the sender's done counter counts its batches to this rank in
 * iteration order, written-in-place ones included), unpack it, free its slot. */
static vsym_status_t recv_staged(vsym_copy_t *svc, int32_t e, notice_state_t *ns)
{
    const vsym_copy_sched_t *s = &svc->sched;
    const vsym_copy_batch_t *b = &s->batches[e];
    const int src = b->src;
    vsym_status_t st =
        wait_counter(svc, DONE_OFF(svc, src), svc->recv_total[src] + svc->recv_index[e], src,
                     "staged batch done", b->iteration);
    if (st != VSYM_OK) return st;
    const size_t my_base = svc->reg_base[svc->rank] + svc->sends.n;
    const char *slot =
        (const char *)vsym_obj_ptr(svc->staging) + svc->batch_slot[e] * svc->staging_size;
    for (uint32_t k = 0; k < b->num_pieces; k++) {
        const vsym_copy_piece_t *p = &s->pieces[b->first_piece + k];
        if (piece_round(svc, p) >= 0) continue; /* written in place by the sender */
        const local_reg_t *rr = &svc->recvs.v[svc->tasks[p->task].recv_reg - my_base];
        seg_walk_t w = seg_walk(0, 0, 0, p->task_offset, rr->row, rr->stride, p->size);
        copy_walk(rr->buffer + rr->position, slot + p->batch_offset, &w, svc->streams);
    }
    ns->staged_freed++;
    return post_notices(svc, ns);
}

/* The iterations in order: this rank's send of the iteration, then its receive if it is staged
 * (the slot must be unpacked before the next staged batch can come). Batches written in place
 * need nothing from the receiver but its ready notices, given at the start, so their completion
 * is awaited only at the end: a rank never stops sending to wait for such a batch, and the
 * iteration order still gives every receiver one incoming batch at a time while the senders
 * keep pace. */
VSYM_API vsym_status_t vsym_copy_run(vsym_copy_t *svc)
{
    if (svc == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy run: NULL service");
    if (!svc->scheduled)
        return VSYM_FAIL(VSYM_ERR_BAD_STATE, "copy run: no schedule (vsym_copy_schedule first)");
    const vsym_copy_sched_t *s = &svc->sched;
    const size_t n = (size_t)svc->size;
    notice_state_t ns = {0};
    svc->streams = run_streams(svc);
    /* Tell the senders first, so that they can start while this rank copies locally. */
    vsym_status_t st = post_notices(svc, &ns);
    if (st != VSYM_OK) return st;
    const size_t send_base = svc->reg_base[svc->rank];
    const size_t recv_base = send_base + svc->sends.n;
    for (size_t i = 0; i < svc->ntasks; i++) {
        const vsym_copy_sched_task_t *t = &svc->tasks[i];
        if (t->src != svc->rank || t->dst != svc->rank || t->size == 0) continue;
        const local_reg_t *sr = &svc->sends.v[t->send_reg - send_base];
        const local_reg_t *rr = &svc->recvs.v[t->recv_reg - recv_base];
        move_local(rr->buffer + rr->position, rr->row, rr->stride, sr->buffer + sr->position,
                   sr->row, sr->stride, 0, t->size, svc->streams);
    }
    for (uint32_t it = 0; it < s->iterations; it++) {
        int32_t se = s->send_of[(size_t)it * n + (size_t)svc->rank];
        int32_t re = s->recv_of[(size_t)it * n + (size_t)svc->rank];
        if (se >= 0) {
            st = send_batch(svc, se);
            if (st != VSYM_OK) return st;
        }
        if (re >= 0 && svc->batch_staged[re]) {
            st = recv_staged(svc, re, &ns);
            if (st != VSYM_OK) return st;
        }
    }
    for (size_t src = 0; src < n; src++) {
        if (svc->recv_count[src] == 0) continue;
        st = wait_counter(svc, DONE_OFF(svc, src), svc->recv_total[src] + svc->recv_count[src],
                          (int)src, "last batch done", s->iterations ? s->iterations - 1 : 0);
        if (st != VSYM_OK) return st;
        svc->recv_total[src] += svc->recv_count[src];
    }
    /* The send buffers may be reused once every put is complete. */
    return vsym_quiet(svc->ctx);
}

/* ---- Queries ------------------------------------------------------------------------------ */

VSYM_API vsym_status_t vsym_copy_stats(const vsym_copy_t *svc, vsym_copy_stats_t *stats_p)
{
    if (svc == NULL || stats_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy stats: NULL argument");
    if (!svc->scheduled) return VSYM_FAIL(VSYM_ERR_BAD_STATE, "copy stats: no schedule");
    *stats_p = svc->stats;
    stats_p->streaming = (uint64_t)run_streams(svc);
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_copy_iteration_info(const vsym_copy_t *svc, uint64_t it,
                                                vsym_copy_iteration_t *info_p)
{
    if (svc == NULL || info_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy iteration_info: NULL argument");
    if (!svc->scheduled) return VSYM_FAIL(VSYM_ERR_BAD_STATE, "copy iteration_info: no schedule");
    if (it >= svc->sched.iterations)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy iteration_info: iteration %llu of %u",
                         (ull)it, svc->sched.iterations);
    info_p->batches = svc->sched.iter_batches[it];
    info_p->bytes = svc->sched.iter_bytes[it];
    info_p->max_bytes = svc->sched.iter_max_bytes[it];
    return VSYM_OK;
}
