/* Executing a reshard plan over the copy service.
 *
 * Every op of this rank becomes one copy task with the plan's task id (the same on both sides
 * without an exchange). A slice is contiguous in its local tensor when it spans whole rows
 * (all dimensions before the partition dimension are 1, or the slice covers the whole
 * partition dimension): it is registered in place, so receives land straight in the destination
 * tensor. A strided slice (e.g. a column block of a row-parallel [out, in] weight) is packed
 * into one send staging buffer before every run, or received into one receive staging buffer
 * and unpacked after the run. Local ops never go through the service: a strided row copy. */
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "reshard/reshard_internal.h"

/* Rows of a slice inside a local tensor: count rows of row_bytes, stride apart, from offset. */
typedef struct rows {
    char *base;
    size_t offset, count, row_bytes, stride;
} rows_t;

typedef struct strided {
    rows_t rows;    /* in the tensor */
    size_t staging; /* offset in the staging buffer */
} strided_t;

typedef struct local_copy {
    rows_t from, to;
} local_copy_t;

struct vsym_reshard_exec {
    vsym_team_t *team;
    vsym_copy_t *svc;
    char *pack_buf, *unpack_buf;
    strided_t *packs, *unpacks;
    size_t num_packs, num_unpacks;
    local_copy_t *locals;
    size_t num_locals;
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

static void copy_rows(const rows_t *from, const rows_t *to)
{
    for (size_t i = 0; i < from->count; i++)
        memcpy(to->base + to->offset + i * to->stride, from->base + from->offset + i * from->stride,
               from->row_bytes);
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
    size_t n = plan->num_ops, pack_bytes = 0, unpack_bytes = 0;
    x->packs = calloc(n + 1, sizeof(strided_t));
    x->unpacks = calloc(n + 1, sizeof(strided_t));
    x->locals = calloc(n + 1, sizeof(local_copy_t));
    if (!x->packs || !x->unpacks || !x->locals) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard exec: no memory for %zu ops", n);
        goto fail;
    }
    /* First pass: classify, check buffers and size the staging buffers. */
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
            local_copy_t *c = &x->locals[x->num_locals++];
            c->from = slice_rows(ps, local_pd(ps, &plan->gs), sbuf, o->peer_off, o->len);
            c->to = slice_rows(pd, local_pd(pd, &plan->gd), dbuf, o->my_off, o->len);
            /* Contiguous on one side only (a whole source shard into a column block of the
             * destination): copy row by row on both sides. */
            if (c->from.count != c->to.count) {
                rows_t *whole = c->from.count == 1 ? &c->from : &c->to;
                const rows_t *strided = c->from.count == 1 ? &c->to : &c->from;
                whole->count = strided->count;
                whole->row_bytes = strided->row_bytes;
                whole->stride = strided->row_bytes;
            }
            x->local += c->from.row_bytes * c->from.count;
        } else if (o->dir == VSYM_RESHARD_SEND) {
            rows_t r = slice_rows(ps, local_pd(ps, &plan->gs), sbuf, o->my_off, o->len);
            x->sent += r.row_bytes * r.count;
            if (r.count > 1) {
                x->packs[x->num_packs++] = (strided_t){r, pack_bytes};
                pack_bytes += r.row_bytes * r.count;
            }
        } else {
            rows_t r = slice_rows(pd, local_pd(pd, &plan->gd), dbuf, o->my_off, o->len);
            x->received += r.row_bytes * r.count;
            if (r.count > 1) {
                x->unpacks[x->num_unpacks++] = (strided_t){r, unpack_bytes};
                unpack_bytes += r.row_bytes * r.count;
            }
            if (r.count == 1 && options && options->dst_arena) {
                char *a = options->dst_arena;
                if (dbuf < a || dbuf + r.offset + r.row_bytes > a + options->dst_arena_size) {
                    st = VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                                   "reshard exec: dst[%d] lies outside dst_arena", o->tensor);
                    break;
                }
            }
        }
    }
    x->pack_buf = malloc(pack_bytes ? pack_bytes : 1);
    x->unpack_buf = malloc(unpack_bytes ? unpack_bytes : 1);
    if (st == VSYM_OK && (!x->pack_buf || !x->unpack_buf))
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard exec: no memory for %zu + %zu staging bytes",
                       pack_bytes, unpack_bytes);
    /* The copy service is created and scheduled even after a local error, with nothing
     * registered here: the peers' schedule then fails too (unmatched tasks) instead of waiting
     * for this rank until the timeout. */
    vsym_status_t cst = vsym_copy_create(team, &x->svc);
    if (cst != VSYM_OK) {
        st = st != VSYM_OK ? st : cst;
        goto fail;
    }
    if (st != VSYM_OK) n = 0;
    /* Second pass: register every remote op under its plan task id. */
    size_t ip = 0, iu = 0;
    for (size_t i = 0; i < n && st == VSYM_OK; i++) {
        const plan_op_t *o = &plan->ops[i];
        if (o->dir == VSYM_RESHARD_LOCAL) continue;
        const reshard_param_t *pd = &m->params[m->tensor_param[o->tensor]];
        const reshard_param_t *ps = &m->params[m->tensor_param[o->src_tensor]];
        if (o->dir == VSYM_RESHARD_SEND) {
            rows_t r =
                slice_rows(ps, local_pd(ps, &plan->gs), src[o->src_tensor], o->my_off, o->len);
            if (r.count > 1) {
                const strided_t *s = &x->packs[ip++];
                st = vsym_copy_register_send(x->svc, o->task_id, x->pack_buf, s->staging,
                                             r.row_bytes * r.count, o->peer);
            } else {
                st = vsym_copy_register_send(x->svc, o->task_id, r.base, r.offset, r.row_bytes,
                                             o->peer);
            }
        } else {
            rows_t r = slice_rows(pd, local_pd(pd, &plan->gd), dst[o->tensor], o->my_off, o->len);
            if (r.count > 1) {
                const strided_t *s = &x->unpacks[iu++];
                st = vsym_copy_register_receive(x->svc, o->task_id, x->unpack_buf, s->staging,
                                                r.row_bytes * r.count, o->peer);
            } else if (options && options->dst_arena) {
                /* One buffer for all receives: one region for the copy service to expose. */
                st = vsym_copy_register_receive(
                    x->svc, o->task_id, options->dst_arena,
                    (size_t)(r.base - (char *)options->dst_arena) + r.offset, r.row_bytes, o->peer);
            } else {
                st = vsym_copy_register_receive(x->svc, o->task_id, r.base, r.offset, r.row_bytes,
                                                o->peer);
            }
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
    for (size_t i = 0; i < x->num_packs; i++) {
        rows_t to = {x->pack_buf, x->packs[i].staging, x->packs[i].rows.count,
                     x->packs[i].rows.row_bytes, x->packs[i].rows.row_bytes};
        copy_rows(&x->packs[i].rows, &to);
    }
    for (size_t i = 0; i < x->num_locals; i++)
        copy_rows(&x->locals[i].from, &x->locals[i].to);
    vsym_status_t st = vsym_copy_run(x->svc);
    if (st != VSYM_OK) return st;
    for (size_t i = 0; i < x->num_unpacks; i++) {
        rows_t from = {x->unpack_buf, x->unpacks[i].staging, x->unpacks[i].rows.count,
                       x->unpacks[i].rows.row_bytes, x->unpacks[i].rows.row_bytes};
        copy_rows(&from, &x->unpacks[i].rows);
    }
    return VSYM_OK;
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
    free(x->pack_buf);
    free(x->unpack_buf);
    free(x->packs);
    free(x->unpacks);
    free(x->locals);
    free(x);
    return st;
}
