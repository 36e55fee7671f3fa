/* Executing a reshard plan over the copy service.
 *
 * Every op of this rank becomes one copy task with the plan's task id (the same on both sides
 * without an exchange). A slice is contiguous in its local tensor when it spans whole rows
 * (all dimensions before the partition dimension are 1, or the slice covers the whole
 * partition dimension). A strided slice (e.g. a column block of a row-parallel [out, in] weight)
 * is registered as rows (vsym_copy_register_*_rows): the service moves it row by row straight
 * into the destination tensor, or through its staging slots, without a packing pass here.
 * Local ops are tasks of the service too (from this rank to itself): it copies them after telling
 * its senders to start, so a rank's own copies do not hold its peers back. */
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "reshard/reshard_internal.h"

/* Rows of a slice inside a local tensor: count rows of row_bytes, stride apart, from offset. */
typedef struct rows {
    char *base;
    size_t offset, count, row_bytes, stride;
} rows_t;

struct vsym_reshard_exec {
    vsym_team_t *team;
    vsym_copy_t *svc;
    uint64_t sent, received, local;
};

/* The rows of the slice [off, off+len) along the partition dim of tensor t's local shard, whose
 * partition dim has local size local_pd. */
static rows_t slice_rows(const reshard_param_t *p, int64_t local_pd, char *base, int64_t off,
                         int64_t len)
{
    int pd = p->partition_dim < 0 ? 0 : p->partition_dim;
    size_t outer = 1, inner = p->elem_size;
    for (int d = 0; d < p->ndim; d++) {
        if (d < pd)
            outer *= (size_t)p->shape[d];
        else if (d > pd)
            inner *= (size_t)p->shape[d];
    }
    rows_t r = {.base = base,
                .offset = (size_t)off * inner,
                .count = outer,
                .row_bytes = (size_t)len * inner,
                .stride = (size_t)local_pd * inner};
    /* Whole rows back to back: one contiguous range. */
    if (r.count == 1 || r.row_bytes == r.stride) {
        r.row_bytes *= r.count;
        r.count = 1;
    }
    return r;
}

static int64_t local_pd(const reshard_param_t *p, const reshard_grid_t *g)
{
    if (p->partition_dim < 0) return p->shape[0];
    return p->shape[p->partition_dim] / (p->num_experts > 0 ? g->etp : g->tp);
}

VSYM_API vsym_status_t vsym_reshard_exec_create(vsym_team_t *team, const vsym_reshard_plan_t *plan,
                                                void *const *src, void *const *dst,
                                                const vsym_reshard_exec_options_t *options,
                                                vsym_reshard_exec_t **exec_p)
{
    if (!team || !plan || !exec_p)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "reshard exec: NULL argument");
    int me = vsym_team_rank(team);
    if (plan->opt.keep_rank != me)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                         "reshard exec: the plan holds the ops of rank %d, this is rank %d",
                         plan->opt.keep_rank, me);
    if (plan->num_ranks > vsym_team_size(team))
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                         "reshard exec: the plan needs %d ranks, the team has %d", plan->num_ranks,
                         vsym_team_size(team));
    const vsym_reshard_model_t *m = plan->model;
    vsym_reshard_exec_t *x = calloc(1, sizeof(*x));
    if (!x) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard exec: no memory");
    x->team = team;
    vsym_status_t st = VSYM_OK;
    size_t n = plan->num_ops;
    /* First pass: classify and check buffers. */
    for (size_t i = 0; i < n; i++) {
        const plan_op_t *o = &plan->ops[i];
        const reshard_param_t *pd = &m->params[m->tensor_param[o->tensor]];
        const reshard_param_t *ps = &m->params[m->tensor_param[o->src_tensor]];
        char *sbuf = src ? src[o->src_tensor] : NULL, *dbuf = dst ? dst[o->tensor] : NULL;
        if (o->dir != VSYM_RESHARD_RECV && !sbuf)
            st = VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                           "reshard exec: rank %d sends from tensor %d but src[%d] is NULL", me,
                           o->src_tensor, o->src_tensor);
        else if (o->dir != VSYM_RESHARD_SEND && !dbuf)
            st = VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                           "reshard exec: rank %d receives tensor %d but dst[%d] is NULL", me,
                           o->tensor, o->tensor);
        if (st != VSYM_OK) break;
        if (o->dir == VSYM_RESHARD_LOCAL) {
            rows_t r = slice_rows(ps, local_pd(ps, &plan->gs), sbuf, o->peer_off, o->len);
            x->local += r.row_bytes * r.count;
        } else if (o->dir == VSYM_RESHARD_SEND) {
            rows_t r = slice_rows(ps, local_pd(ps, &plan->gs), sbuf, o->my_off, o->len);
            x->sent += r.row_bytes * r.count;
        } else {
            rows_t r = slice_rows(pd, local_pd(pd, &plan->gd), dbuf, o->my_off, o->len);
            x->received += r.row_bytes * r.count;
            if (options && options->dst_arena) {
                char *a = options->dst_arena;
                size_t span = (r.count - 1) * r.stride + r.row_bytes;
                if (dbuf < a || dbuf + r.offset + span > a + options->dst_arena_size) {
                    st = VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                                   "reshard exec: dst[%d] lies outside dst_arena", o->tensor);
                    break;
                }
            }
        }
    }
    /* The copy service is created and scheduled even after a local error, with nothing
     * registered here: the peers' schedule then fails too (unmatched tasks) instead of waiting
     * for this rank until the timeout. */
    vsym_status_t cst = vsym_copy_create(team, &x->svc);
    if (cst != VSYM_OK) {
        st = st != VSYM_OK ? st : cst;
        goto fail;
    }
    if (st != VSYM_OK) n = 0;
    /* Second pass: register every op under its plan task id (a local op on both sides), in
     * rows where the slice is strided. */
    for (size_t i = 0; i < n && st == VSYM_OK; i++) {
        const plan_op_t *o = &plan->ops[i];
        const reshard_param_t *pd = &m->params[m->tensor_param[o->tensor]];
        const reshard_param_t *ps = &m->params[m->tensor_param[o->src_tensor]];
        if (o->dir != VSYM_RESHARD_RECV) {
            /* A local op's source slice is at peer_off (my_off is its destination). */
            int64_t off = o->dir == VSYM_RESHARD_LOCAL ? o->peer_off : o->my_off;
            rows_t r = slice_rows(ps, local_pd(ps, &plan->gs), src[o->src_tensor], off, o->len);
            st =
                vsym_copy_register_send_rows(x->svc, o->task_id, r.base, r.offset,
                                             r.row_bytes * r.count, r.row_bytes, r.stride, o->peer);
        }
        if (st == VSYM_OK && o->dir != VSYM_RESHARD_SEND) {
            rows_t r = slice_rows(pd, local_pd(pd, &plan->gd), dst[o->tensor], o->my_off, o->len);
            char *buf = r.base;
            size_t pos = r.offset;
            if (options && options->dst_arena) {
                /* One buffer for all receives: one region for the copy service to expose. */
                buf = options->dst_arena;
                pos += (size_t)(r.base - buf);
            }
            st =
                vsym_copy_register_receive_rows(x->svc, o->task_id, buf, pos, r.row_bytes * r.count,
                                                r.row_bytes, r.stride, o->peer);
        }
    }
    /* Every rank schedules, even after a local registration error, so that no peer is left
     * waiting in the collective; the schedule then fails everywhere. */
    vsym_status_t sst = vsym_copy_schedule(x->svc);
    if (st == VSYM_OK) st = sst;
    if (st != VSYM_OK) goto fail;
    *exec_p = x;
    return VSYM_OK;
fail:
    vsym_reshard_exec_destroy(x);
    return st;
}

VSYM_API vsym_status_t vsym_reshard_exec_run(vsym_reshard_exec_t *x)
{
    if (!x) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "reshard exec run: NULL");
    return vsym_copy_run(x->svc);
}

VSYM_API void vsym_reshard_exec_bytes(const vsym_reshard_exec_t *x, uint64_t *sent_p,
                                      uint64_t *received_p, uint64_t *local_p)
{
    if (sent_p) *sent_p = x ? x->sent : 0;
    if (received_p) *received_p = x ? x->received : 0;
    if (local_p) *local_p = x ? x->local : 0;
}

VSYM_API vsym_copy_t *vsym_reshard_exec_copy(const vsym_reshard_exec_t *x)
{
    return x ? x->svc : NULL;
}

VSYM_API vsym_status_t vsym_reshard_exec_destroy(vsym_reshard_exec_t *x)
{
    if (!x) return VSYM_OK;
    vsym_status_t st = vsym_copy_destroy(x->svc);
    free(x);
    return st;
}
