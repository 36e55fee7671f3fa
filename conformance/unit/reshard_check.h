/* Plan checks shared by the reshard unit tests: a plan is checked against the model and the two
 * layouts element by element (small shapes only).
 *  - every rank's separately computed plan equals its share of the whole plan (same ops, task
 *    ids, peers, slices, in the same order);
 *  - every task id is one send + one matching receive (peers name each other, slices and
 *    bytes agree) or one local copy;
 *  - every sender holds the source tensor and every receiver the destination tensor, and the
 *    slices lie inside the local shapes;
 *  - every element of every destination shard is written exactly once (coverage bitmap), by an
 *    element with the same global index;
 *  - bytes are conserved (sent == received; received + local == what the destination holds). */
#ifndef VSYM_RESHARD_CHECK_H
#define VSYM_RESHARD_CHECK_H

#include <inttypes.h>
#include <stdint.h>
#include "harness.h"

typedef struct check_op {
    int rank;
    vsym_reshard_op_t op;
} check_op_t;

/* Global index along the partition dim of local index i of tensor t on rank r. */
static int64_t check_global(const vsym_reshard_model_t *m, const vsym_reshard_layout_t *l, int r,
                            int t, int64_t i)
{
    int held, np;
    int64_t shape[VSYM_RESHARD_MAX_DIMS];
    vsym_reshard_piece_t pieces[64];
    VSYM_CHECK_OK(vsym_reshard_local_shard(m, l, r, t, &held, shape, pieces, 64, &np));
    VSYM_CHECK(held, "rank %d does not hold tensor %d", r, t);
    VSYM_CHECK(np <= 64, "too many pieces");
    for (int k = 0; k < np; k++)
        if (i >= pieces[k].local_offset && i < pieces[k].local_offset + pieces[k].length)
            return pieces[k].global_offset + i - pieces[k].local_offset;
    VSYM_CHECK(0, "local index %" PRId64 " outside the shard of tensor %d on rank %d", i, t, r);
    return -1;
}

static void check_slice_inside(const vsym_reshard_model_t *m, const vsym_reshard_layout_t *l, int r,
                               int t, const vsym_reshard_slice_t *s)
{
    int held, np;
    int64_t shape[VSYM_RESHARD_MAX_DIMS];
    VSYM_CHECK_OK(vsym_reshard_local_shard(m, l, r, t, &held, shape, NULL, 0, &np));
    VSYM_CHECK(held, "rank %d does not hold tensor %d it is planned to use", r, t);
    vsym_reshard_tensor_info_t info;
    VSYM_CHECK_OK(vsym_reshard_model_tensor(m, t, &info));
    VSYM_CHECK(s->ndim == info.ndim, "slice of %d dims for a tensor of %d", s->ndim, info.ndim);
    for (int d = 0; d < s->ndim; d++)
        VSYM_CHECK(s->offset[d] >= 0 && s->length[d] > 0 && s->offset[d] + s->length[d] <= shape[d],
                   "slice dim %d [%" PRId64 ",+%" PRId64 ") outside local %" PRId64 " (tensor %d)",
                   d, s->offset[d], s->length[d], shape[d], t);
}

static int slice_equal(const vsym_reshard_slice_t *a, const vsym_reshard_slice_t *b)
{
    if (a->ndim != b->ndim) return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->offset[d] != b->offset[d] || a->length[d] != b->length[d]) return 0;
    return 1;
}

/* Check the plan of (m, src, dst, balance); returns the statistics for further checks. */
static vsym_reshard_stats_t check_plan(const vsym_reshard_model_t *m, vsym_reshard_layout_t src,
                                       vsym_reshard_layout_t dst, vsym_reshard_balance_t balance)
{
    VSYM_CHECK_OK(vsym_reshard_layout_check(&src, src.tp * src.pp * (src.dp ? src.dp : 1), m));
    VSYM_CHECK_OK(vsym_reshard_layout_check(&dst, dst.tp * dst.pp * (dst.dp ? dst.dp : 1), m));
    vsym_reshard_options_t opt = {balance, VSYM_RESHARD_KEEP_ALL};
    vsym_reshard_plan_t *all;
    VSYM_CHECK_OK(vsym_reshard_plan_create(m, &src, &dst, &opt, &all));
    vsym_reshard_stats_t st;
    vsym_reshard_plan_stats(all, &st);
    size_t n = vsym_reshard_plan_num_ops(all);
    check_op_t *ops = calloc(n + 1, sizeof(*ops));
    VSYM_CHECK(ops != NULL, "no memory");
    uint64_t max_task = 0;
    for (size_t i = 0; i < n; i++) {
        VSYM_CHECK_OK(vsym_reshard_plan_op(all, i, &ops[i].rank, &ops[i].op));
        if (ops[i].op.task_id > max_task) max_task = ops[i].op.task_id;
    }
    int nranks = st.num_ranks;

    /* Every rank's own plan is its share of the whole plan. */
    for (int r = 0; r < nranks; r++) {
        opt.keep_rank = r;
        vsym_reshard_plan_t *mine;
        VSYM_CHECK_OK(vsym_reshard_plan_create(m, &src, &dst, &opt, &mine));
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (ops[i].rank != r) continue;
            vsym_reshard_op_t op;
            int owner;
            VSYM_CHECK(k < vsym_reshard_plan_num_ops(mine), "rank %d's plan has too few ops", r);
            VSYM_CHECK_OK(vsym_reshard_plan_op(mine, k++, &owner, &op));
            VSYM_CHECK(owner == r && op.task_id == ops[i].op.task_id && op.peer == ops[i].op.peer &&
                           op.dir == ops[i].op.dir && op.tensor == ops[i].op.tensor &&
                           op.src_tensor == ops[i].op.src_tensor &&
                           slice_equal(&op.my_slice, &ops[i].op.my_slice) &&
                           slice_equal(&op.peer_slice, &ops[i].op.peer_slice),
                       "rank %d's own plan differs at task %" PRIu64, r, op.task_id);
        }
        VSYM_CHECK(k == vsym_reshard_plan_num_ops(mine), "rank %d's plan has %zu ops, not %zu", r,
                   vsym_reshard_plan_num_ops(mine), k);
        vsym_reshard_plan_destroy(mine);
    }

    /* Task pairing. */
    int64_t *send_of = malloc((max_task + 1) * sizeof(int64_t));
    int64_t *recv_of = malloc((max_task + 1) * sizeof(int64_t));
    for (uint64_t i = 0; i <= max_task; i++)
        send_of[i] = recv_of[i] = -1;
    uint64_t sent = 0, received = 0, local = 0;
    for (size_t i = 0; i < n; i++) {
        const vsym_reshard_op_t *o = &ops[i].op;
        VSYM_CHECK(o->dir == VSYM_RESHARD_RECV ? recv_of[o->task_id] < 0 : send_of[o->task_id] < 0,
                   "task %" PRIu64 " twice on one side", o->task_id);
        if (o->dir == VSYM_RESHARD_RECV) {
            recv_of[o->task_id] = (int64_t)i;
            received += o->bytes;
        } else {
            send_of[o->task_id] = (int64_t)i;
            if (o->dir == VSYM_RESHARD_LOCAL) {
                VSYM_CHECK(o->peer == ops[i].rank, "local copy with another peer");
                recv_of[o->task_id] = (int64_t)i;
                local += o->bytes;
            } else {
                sent += o->bytes;
            }
        }
    }
    for (uint64_t id = 0; id <= max_task; id++) {
        VSYM_CHECK(send_of[id] >= 0 && recv_of[id] >= 0, "task %" PRIu64 " unmatched", id);
        const check_op_t *s = &ops[send_of[id]], *r = &ops[recv_of[id]];
        if (s == r) {
            check_slice_inside(m, &dst, s->rank, s->op.tensor, &s->op.my_slice);
            check_slice_inside(m, &src, s->rank, s->op.src_tensor, &s->op.peer_slice);
            continue;
        }
        VSYM_CHECK(s->op.peer == r->rank && r->op.peer == s->rank,
                   "task %" PRIu64 ": peers do not name each other", id);
        VSYM_CHECK(s->op.tensor == r->op.tensor && s->op.src_tensor == r->op.src_tensor &&
                       s->op.bytes == r->op.bytes &&
                       slice_equal(&s->op.my_slice, &r->op.peer_slice) &&
                       slice_equal(&s->op.peer_slice, &r->op.my_slice),
                   "task %" PRIu64 ": sides disagree", id);
        check_slice_inside(m, &src, s->rank, s->op.src_tensor, &s->op.my_slice);
        check_slice_inside(m, &dst, r->rank, r->op.tensor, &r->op.my_slice);
    }
    VSYM_CHECK(sent == received, "sent %" PRIu64 " != received %" PRIu64, sent, received);
    VSYM_CHECK(sent == st.bytes_moved && local == st.bytes_local, "statistics disagree with ops");

    /* Coverage: every destination element exactly once, from the same global index. */
    uint64_t needed = 0;
    for (int r = 0; r < nranks; r++) {
        for (int t = 0; t < vsym_reshard_model_num_tensors(m); t++) {
            int held, np;
            int64_t shape[VSYM_RESHARD_MAX_DIMS];
            VSYM_CHECK_OK(vsym_reshard_local_shard(m, &dst, r, t, &held, shape, NULL, 0, &np));
            if (!held) continue;
            vsym_reshard_tensor_info_t info;
            VSYM_CHECK_OK(vsym_reshard_model_tensor(m, t, &info));
            int64_t total = 1;
            for (int d = 0; d < info.ndim; d++)
                total *= shape[d];
            needed += (uint64_t)total * info.elem_size;
            unsigned char *hit = calloc((size_t)total, 1);
            for (size_t i = 0; i < n; i++) {
                const vsym_reshard_op_t *o = &ops[i].op;
                if (ops[i].rank != r || o->tensor != t || o->dir == VSYM_RESHARD_SEND) continue;
                int peer = o->dir == VSYM_RESHARD_LOCAL ? r : o->peer;
                int pd = info.partition_dim < 0 ? 0 : info.partition_dim;
                /* Walk the slice's elements (odometer over the dims). */
                int64_t idx[VSYM_RESHARD_MAX_DIMS] = {0};
                for (;;) {
                    int64_t lin = 0;
                    for (int d = 0; d < info.ndim; d++)
                        lin = lin * shape[d] + o->my_slice.offset[d] + idx[d];
                    VSYM_CHECK(hit[lin] == 0,
                               "tensor %d on rank %d: element %" PRId64 " written twice", t, r,
                               lin);
                    hit[lin] = 1;
                    int d = info.ndim - 1;
                    while (d >= 0 && ++idx[d] == o->my_slice.length[d])
                        idx[d--] = 0;
                    if (d < 0) break;
                }
                if (info.partition_dim >= 0) {
                    for (int64_t k = 0; k < o->my_slice.length[pd]; k++) {
                        int64_t gd = check_global(m, &dst, r, t, o->my_slice.offset[pd] + k);
                        int64_t gs = check_global(m, &src, peer, o->src_tensor,
                                                  o->peer_slice.offset[pd] + k);
                        VSYM_CHECK(gd == gs,
                                   "tensor %d rank %d: local %" PRId64 " is global %" PRId64
                                   " but gets global %" PRId64 " from rank %d",
                                   t, r, o->my_slice.offset[pd] + k, gd, gs, peer);
                    }
                }
            }
            for (int64_t e = 0; e < total; e++)
                VSYM_CHECK(hit[e], "tensor %d on rank %d: element %" PRId64 " never written", t, r,
                           e);
            free(hit);
        }
    }
    VSYM_CHECK(needed == received + local,
               "destination holds %" PRIu64 " bytes, plan delivers %" PRIu64, needed,
               received + local);
    free(send_of);
    free(recv_of);
    free(ops);
    vsym_reshard_plan_destroy(all);
    return st;
}

static vsym_reshard_layout_t layout(const char *text)
{
    vsym_reshard_layout_t l;
    VSYM_CHECK_OK(vsym_reshard_layout_parse(text, &l));
    if (l.dp == 0) l.dp = 1;
    return l;
}

#endif
