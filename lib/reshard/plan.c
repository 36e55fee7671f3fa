/* The reshard planner: a pure function of (model, source layout, destination layout).
 *
 * One deterministic global walk (parameters in model order, experts in order, destination
 * replicas, destination shards) emits every transfer of the job with a running task id, so every
 * rank that runs it gets the same ids without exchanging anything. For each destination shard
 * the needed index set along the partition dimension (its part of every block) is intersected
 * with each source shard's held set by interval arithmetic (this is the LCM tiling of Megatron,
 * computed directly); pieces from the same source shard whose local offsets continue on both
 * sides are merged into one op. Other dimensions are taken whole on both sides.
 *
 * The sender among the replicas holding a source shard is: the destination rank itself when it
 * holds the data (local copy), else the replica that has sent the fewest bytes so far (ties:
 * first in replica order), or with VSYM_RESHARD_BALANCE_ROUNDROBIN Megatron's rule. The walk
 * touches, per tensor, only the ranks that hold or need it; nothing per element is stored. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "reshard/reshard_internal.h"

/* A contiguous run along the partition dim that one source shard sends to one destination. */
typedef struct piece {
    int ts;    /* source shard */
    int block; /* for a deterministic order */
    int64_t src_off, dst_off, len;
} piece_t;

static int piece_cmp(const void *a, const void *b)
{
    const piece_t *x = a, *y = b;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    return x->dst_off < y->dst_off ? -1 : x->dst_off > y->dst_off;
}

/* Pieces that destination shard td of wd needs from the wsrc source shards, merged. */
static int make_pieces(const reshard_param_t *p, int ws, int wd, int td, piece_t *out)
{
    if (p->partition_dim < 0) {
        out[0] = (piece_t){0, 0, 0, 0, p->shape[0]};
        return 1;
    }
    int n = 0;
    int64_t loc_s = 0, loc_d = 0;
    for (int b = 0; b < p->num_blocks; b++) {
        int64_t zs = p->blocks[b] / ws, zd = p->blocks[b] / wd;
        int64_t lo = td * zd, hi = lo + zd;
        for (int64_t ts = lo / zs; ts * zs < hi; ts++) {
            int64_t a = lo > ts * zs ? lo : ts * zs;
            int64_t z = hi < (ts + 1) * zs ? hi : (ts + 1) * zs;
            out[n++] = (piece_t){(int)ts, b, loc_s + a - ts * zs, loc_d + a - lo, z - a};
        }
        loc_s += zs;
        loc_d += zd;
    }
    if (n > 1) qsort(out, (size_t)n, sizeof(piece_t), piece_cmp);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && out[m - 1].ts == out[i].ts &&
            out[m - 1].src_off + out[m - 1].len == out[i].src_off &&
            out[m - 1].dst_off + out[m - 1].len == out[i].dst_off) {
            out[m - 1].len += out[i].len;
        } else {
            out[m++] = out[i];
        }
    }
    return m;
}

static uint64_t members_hash(const int *ranks, int n)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint64_t)(uint32_t)ranks[i]) * 1099511628211ull;
    return h ^ (uint64_t)n;
}

/* The index of the replica group with exactly these members (in this order), made on first
 * sight. */
static vsym_status_t group_find(vsym_reshard_plan_t *pl, const int *ranks, int n, uint32_t *id_p)
{
    uint64_t h = members_hash(ranks, n);
    if ((pl->num_groups + 1) * 2 > pl->cap_slots) {
        size_t cap = pl->cap_slots ? pl->cap_slots * 2 : 1024;
        uint32_t *slots = calloc(cap, sizeof(uint32_t));
        if (!slots)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard plan: no memory for replica groups");
        for (size_t g = 0; g < pl->num_groups; g++) {
            size_t k = pl->groups[g].hash % cap;
            while (slots[k])
                k = (k + 1) % cap;
            slots[k] = (uint32_t)g + 1;
        }
        free(pl->group_slots);
        pl->group_slots = slots;
        pl->cap_slots = cap;
    }
    size_t k = h % pl->cap_slots;
    for (; pl->group_slots[k]; k = (k + 1) % pl->cap_slots) {
        const struct reshard_group *g = &pl->groups[pl->group_slots[k] - 1];
        if (g->hash == h && g->size == n &&
            memcmp(g->members, ranks, (size_t)n * sizeof(int)) == 0) {
            *id_p = pl->group_slots[k] - 1;
            return VSYM_OK;
        }
    }
    if (pl->num_groups == pl->cap_groups) {
        size_t cap = pl->cap_groups ? pl->cap_groups * 2 : 256;
        struct reshard_group *ng = realloc(pl->groups, cap * sizeof(*ng));
        if (!ng) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard plan: no memory for replica groups");
        pl->groups = ng;
        pl->cap_groups = cap;
    }
    int *members = malloc((size_t)n * sizeof(int));
    if (!members)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard plan: no memory for replica groups");
    memcpy(members, ranks, (size_t)n * sizeof(int));
    pl->groups[pl->num_groups] = (struct reshard_group){members, n, h, 0};
    pl->group_slots[k] = (uint32_t)++pl->num_groups;
    *id_p = (uint32_t)pl->num_groups - 1;
    return VSYM_OK;
}

/* Pass 1: remember a remote request of bytes from the replica group of ranks. */
static vsym_status_t request_add(vsym_reshard_plan_t *pl, const int *ranks, int n, uint64_t bytes)
{
    uint32_t g = 0;
    vsym_status_t st = group_find(pl, ranks, n, &g);
    if (st != VSYM_OK) return st;
    pl->groups[g].bytes += bytes;
    if (pl->pass != 1) return VSYM_OK;
    if (pl->num_requests == pl->cap_requests) {
        size_t cap = pl->cap_requests ? pl->cap_requests * 2 : 4096;
        struct reshard_request *r = realloc(pl->requests, cap * sizeof(*r));
        if (!r)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard plan: no memory for %zu requests", cap);
        pl->requests = r;
        pl->cap_requests = cap;
    }
    pl->requests[pl->num_requests] = (struct reshard_request){bytes, (uint32_t)pl->num_requests, g};
    pl->num_requests++;
    return VSYM_OK;
}

static int request_cmp(const void *a, const void *b)
{
    const struct reshard_request *x = a, *y = b;
    if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Largest request first, to the member of its group that sends the fewest bytes so far (ties:
 * the first in candidate order). Deterministic: every rank gets the same choices. */
static vsym_status_t assign_requests(vsym_reshard_plan_t *pl)
{
    uint64_t *load = calloc((size_t)pl->num_ranks, sizeof(uint64_t));
    pl->choice = malloc((pl->num_requests ? pl->num_requests : 1) * sizeof(int32_t));
    if (!load || !pl->choice) {
        free(load);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard plan: no memory for %zu requests",
                         pl->num_requests);
    }
    if (pl->num_requests > 1)
        qsort(pl->requests, pl->num_requests, sizeof(*pl->requests), request_cmp);
    for (size_t i = 0; i < pl->num_requests; i++) {
        const struct reshard_request *r = &pl->requests[i];
        const struct reshard_group *g = &pl->groups[r->group];
        int best = 0;
        for (int k = 1; k < g->size; k++)
            if (load[g->members[k]] < load[g->members[best]]) best = k;
        load[g->members[best]] += r->bytes;
        pl->choice[r->seq] = best;
    }
    free(load);
    return VSYM_OK;
}

static vsym_status_t keep_op(vsym_reshard_plan_t *pl, const plan_op_t *op)
{
    if (pl->opt.keep_rank != VSYM_RESHARD_KEEP_ALL && pl->opt.keep_rank != op->rank) return VSYM_OK;
    if (pl->num_ops == pl->cap_ops) {
        size_t cap = pl->cap_ops ? pl->cap_ops * 2 : 256;
        plan_op_t *n = realloc(pl->ops, cap * sizeof(*n));
        if (!n) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard plan: no memory for %zu ops", cap);
        pl->ops = n;
        pl->cap_ops = cap;
    }
    pl->ops[pl->num_ops++] = *op;
    return VSYM_OK;
}

/* Scratch of one walk, sized once for the largest tensor. */
typedef struct walk {
    int *cand_rank;   /* [shard][k]: ranks holding source shard, replica order */
    int *cand_tensor; /* the source tensor each candidate holds */
    int *mark;        /* per job rank: generation when it is a candidate */
    int *mark_shard;  /* ... of which shard */
    int *mark_index;  /* ... at which candidate index */
    int generation;
    piece_t *pieces;
    int cap_pieces;
} walk_t;

/* Fill the candidate lists of a source tensor q (for expert e) under the source layout: for
 * each source shard, the ranks that hold it. Returns the replicas per shard appended. */
static int add_candidates(vsym_reshard_plan_t *pl, walk_t *w, const reshard_param_t *q, int qt,
                          int expert, int wshards, int per_shard_cap, int *count)
{
    const vsym_reshard_model_t *m = pl->model;
    const reshard_grid_t *g = &pl->gs;
    int stage = vsym_reshard_stage_of(m, q, g->pp);
    int added = 0;
    for (int s = 0; s < wshards; s++) {
        int *ranks = w->cand_rank + (size_t)s * per_shard_cap;
        int *tens = w->cand_tensor + (size_t)s * per_shard_cap;
        int k = count[s];
        if (expert >= 0) {
            int owner = expert / (q->num_experts / g->ep);
            int base = g->first + owner * g->s_ep + stage * g->s_epp;
            if (q->partition_dim >= 0) {
                for (int r = 0; r < g->edp; r++)
                    ranks[k] = base + s * g->s_etp + r * g->s_edp, tens[k++] = qt;
            } else {
                for (int t = 0; t < g->etp; t++)
                    for (int r = 0; r < g->edp; r++)
                        ranks[k] = base + t * g->s_etp + r * g->s_edp, tens[k++] = qt;
            }
        } else {
            int base = g->first + stage * g->s_pp;
            if (q->partition_dim >= 0) {
                for (int r = 0; r < g->dp; r++)
                    ranks[k] = base + s * g->s_tp + r * g->s_dp, tens[k++] = qt;
            } else {
                for (int t = 0; t < g->tp; t++)
                    for (int r = 0; r < g->dp; r++)
                        ranks[k] = base + t * g->s_tp + r * g->s_dp, tens[k++] = qt;
            }
        }
        added = k - count[s];
        count[s] = k;
    }
    return added;
}

static vsym_status_t plan_tensor(vsym_reshard_plan_t *pl, walk_t *w, int pi, int expert)
{
    const vsym_reshard_model_t *m = pl->model;
    const reshard_param_t *p = &m->params[pi];
    const reshard_grid_t *gs = &pl->gs, *gd = &pl->gd;
    int t = p->first_tensor + (expert >= 0 ? expert : 0);
    if (!vsym_reshard_materialised(m, p, gd->pp))
        return VSYM_OK; /* the destination keeps it in the tensor it is tied to */
    int is_exp = expert >= 0;
    int ws = p->partition_dim < 0 ? 1 : is_exp ? gs->etp : gs->tp;
    int wd = p->partition_dim < 0 ? 1 : is_exp ? gd->etp : gd->tp;

    /* Source candidates: the tensor itself where the source stores it, and for a tied tensor
     * the tensor it is tied to (Megatron's fall-back to the input embedding). */
    int per_shard_cap = 2 * (is_exp ? gs->etp * gs->edp : gs->tp * gs->dp);
    int count[ws];
    memset(count, 0, sizeof(count));
    int group = 0; /* candidates per replica group (round robin) */
    if (vsym_reshard_materialised(m, p, gs->pp))
        group = add_candidates(pl, w, p, t, expert, ws, per_shard_cap, count);
    if (p->tied_to >= 0) {
        const reshard_param_t *q = &m->params[p->tied_to];
        group = add_candidates(pl, w, q, q->first_tensor, -1, ws, per_shard_cap, count);
    }
    w->generation++;
    for (int s = 0; s < ws; s++) {
        for (int k = 0; k < count[s]; k++) {
            int r = w->cand_rank[(size_t)s * per_shard_cap + k];
            w->mark[r] = w->generation;
            w->mark_shard[r] = s;
            w->mark_index[r] = k;
        }
    }
    int rounds = group > 0 && p->partition_dim < 0 ? (is_exp ? gs->edp : gs->dp) : group;

    uint64_t inner = 1;
    for (int d = 0; d < p->ndim; d++)
        if (d != (p->partition_dim < 0 ? 0 : p->partition_dim)) inner *= (uint64_t)p->shape[d];
    uint64_t unit = inner * p->elem_size;

    /* Destination needers: every replica of every shard of the tensor's stage. */
    int stage = vsym_reshard_stage_of(m, p, gd->pp);
    int replicas, base, s_shard, s_rep;
    if (is_exp) {
        int owner = expert / (p->num_experts / gd->ep);
        base = gd->first + owner * gd->s_ep + stage * gd->s_epp;
        replicas = gd->edp * (p->partition_dim < 0 ? gd->etp : 1);
        s_shard = gd->s_etp, s_rep = gd->s_edp;
    } else {
        base = gd->first + stage * gd->s_pp;
        replicas = gd->dp * (p->partition_dim < 0 ? gd->tp : 1);
        s_shard = gd->s_tp, s_rep = gd->s_dp;
    }
    int rep_inner = p->partition_dim < 0 ? (is_exp ? gd->etp : gd->tp) : 1;
    for (int td = 0; td < wd; td++) {
        int np = make_pieces(p, ws, wd, td, w->pieces);
        for (int rep = 0; rep < replicas; rep++) {
            /* For a replicated tensor every rank of the stage is a replica of the one shard;
             * rep enumerates them tp-fastest. */
            int d = p->partition_dim < 0
                        ? base + (rep % rep_inner) * s_shard + (rep / rep_inner) * s_rep
                        : base + td * s_shard + rep * s_rep;
            for (int i = 0; i < np; i++) {
                const piece_t *pc = &w->pieces[i];
                int n = count[pc->ts];
                if (n == 0)
                    return VSYM_FAIL(VSYM_ERR_BAD_LAYOUT,
                                     "reshard plan: no source rank holds shard %d of tensor %d",
                                     pc->ts, t);
                const int *ranks = w->cand_rank + (size_t)pc->ts * per_shard_cap;
                const int *tens = w->cand_tensor + (size_t)pc->ts * per_shard_cap;
                int pick;
                if (w->mark[d] == w->generation && w->mark_shard[d] == pc->ts) {
                    pick = w->mark_index[d];
                } else if (pl->opt.balance == VSYM_RESHARD_BALANCE_ROUNDROBIN) {
                    /* Megatron: group the candidates by replica group, take group d % G and
                     * member (d / G) % |group|, regardless of load. */
                    int gsize = rounds > 0 ? rounds : n;
                    int groups = n / gsize > 0 ? n / gsize : 1;
                    pick = (d % groups) * gsize + (d / groups) % gsize;
                } else if (pl->pass == 1) {
                    pick = -1; /* chosen after the walk, largest requests first */
                } else {
                    pick = pl->choice[pl->next_request++];
                }
                uint64_t bytes = (uint64_t)pc->len * unit;
                if (pl->pass == 1) {
                    if (pick < 0) {
                        vsym_status_t rst = request_add(pl, ranks, n, bytes);
                        if (rst != VSYM_OK) return rst;
                    }
                    continue;
                }
                int sender = ranks[pick];
                plan_op_t op = {.task_id = pl->next_task++,
                                .tensor = t,
                                .src_tensor = tens[pick],
                                .len = pc->len};
                vsym_status_t st;
                if (sender == d) {
                    op.rank = d, op.peer = d, op.dir = VSYM_RESHARD_LOCAL;
                    op.my_off = pc->dst_off, op.peer_off = pc->src_off;
                    pl->local[d] += bytes;
                    pl->rank_ops[d]++;
                    pl->stats.num_local++;
                    pl->stats.bytes_local += bytes;
                    st = keep_op(pl, &op);
                } else {
                    op.rank = sender, op.peer = d, op.dir = VSYM_RESHARD_SEND;
                    op.my_off = pc->src_off, op.peer_off = pc->dst_off;
                    st = keep_op(pl, &op);
                    if (st != VSYM_OK) return st;
                    op.rank = d, op.peer = sender, op.dir = VSYM_RESHARD_RECV;
                    op.my_off = pc->dst_off, op.peer_off = pc->src_off;
                    st = keep_op(pl, &op);
                    pl->sent[sender] += bytes;
                    pl->received[d] += bytes;
                    pl->rank_ops[sender]++;
                    pl->rank_ops[d]++;
                    pl->stats.num_transfers++;
                    pl->stats.bytes_moved += bytes;
                    if (st == VSYM_OK && pl->opt.balance == VSYM_RESHARD_BALANCE_ROUNDROBIN)
                        st = request_add(pl, ranks, n, bytes); /* the bound's group bytes */
                }
                if (st != VSYM_OK) return st;
            }
        }
    }
    return VSYM_OK;
}

static void finish_stats(vsym_reshard_plan_t *pl)
{
    vsym_reshard_stats_t *s = &pl->stats;
    s->num_ranks = pl->num_ranks;
    uint64_t tot_s = 0, tot_r = 0;
    int n_s = 0, n_r = 0;
    s->busiest_sender = s->busiest_receiver = -1;
    for (int r = 0; r < pl->num_ranks; r++) {
        if (pl->sent[r]) {
            tot_s += pl->sent[r], n_s++;
            if (s->busiest_sender < 0 || pl->sent[r] > s->max_sent)
                s->max_sent = pl->sent[r], s->busiest_sender = r;
        }
        if (pl->received[r]) {
            tot_r += pl->received[r], n_r++;
            if (s->busiest_receiver < 0 || pl->received[r] > s->max_received)
                s->max_received = pl->received[r], s->busiest_receiver = r;
        }
        if (pl->rank_ops[r] > s->max_ops_per_rank) s->max_ops_per_rank = pl->rank_ops[r];
    }
    /* The average over every rank that could send (the source layout's ranks) and receive
     * (the destination's): a rule that leaves replicas idle shows as imbalance. */
    (void)n_s, (void)n_r;
    s->mean_sent = (double)tot_s / pl->gs.world;
    s->mean_received = (double)tot_r / pl->gd.world;
    double bound = 0;
    for (size_t i = 0; i < pl->num_groups; i++)
        if ((double)pl->groups[i].bytes / pl->groups[i].size > bound)
            bound = (double)pl->groups[i].bytes / pl->groups[i].size;
    s->send_imbalance_bound = s->mean_sent > 0 ? bound / s->mean_sent : 1.0;
    s->send_imbalance = s->mean_sent > 0 ? (double)s->max_sent / s->mean_sent : 1.0;
    s->recv_imbalance = s->mean_received > 0 ? (double)s->max_received / s->mean_received : 1.0;
}

VSYM_API vsym_status_t vsym_reshard_plan_create(const vsym_reshard_model_t *model,
                                                const vsym_reshard_layout_t *src,
                                                const vsym_reshard_layout_t *dst,
                                                const vsym_reshard_options_t *options,
                                                vsym_reshard_plan_t **plan_p)
{
    if (!model || !src || !dst || !plan_p)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "reshard plan: NULL argument");
    vsym_reshard_layout_t ls = *src, ld = *dst;
    if (ls.dp < 1 || ld.dp < 1)
        return vsym_util_fail_quiet(VSYM_ERR_BAD_LAYOUT,
                                    "reshard plan: dp not set in the %s layout (check it first)",
                                    ls.dp < 1 ? "source" : "destination");
    vsym_status_t st = vsym_reshard_layout_check(&ls, ls.tp * ls.pp * ls.dp, model);
    if (st == VSYM_OK) st = vsym_reshard_layout_check(&ld, ld.tp * ld.pp * ld.dp, model);
    if (st != VSYM_OK) return st;
    vsym_reshard_plan_t *pl = calloc(1, sizeof(*pl));
    if (!pl) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard plan: no memory");
    pl->model = model;
    pl->src = ls, pl->dst = ld;
    vsym_reshard_grid(&ls, &pl->gs);
    vsym_reshard_grid(&ld, &pl->gd);
    pl->opt = options ? *options
                      : (vsym_reshard_options_t){VSYM_RESHARD_BALANCE_BYTES, VSYM_RESHARD_KEEP_ALL};
    int ends = pl->gs.first + pl->gs.world, endd = pl->gd.first + pl->gd.world;
    pl->num_ranks = ends > endd ? ends : endd;
    size_t nr = (size_t)pl->num_ranks;
    pl->sent = calloc(nr, sizeof(uint64_t));
    pl->received = calloc(nr, sizeof(uint64_t));
    pl->local = calloc(nr, sizeof(uint64_t));
    pl->rank_ops = calloc(nr, sizeof(uint64_t));

    walk_t w = {0};
    int max_shards = 1, max_blocks = 1;
    for (int i = 0; i < model->num_params; i++)
        if (model->params[i].num_blocks > max_blocks) max_blocks = model->params[i].num_blocks;
    int wmax_s = pl->gs.tp > pl->gs.etp ? pl->gs.tp : pl->gs.etp;
    int wmin_d = pl->gd.tp < pl->gd.etp ? pl->gd.tp : pl->gd.etp;
    max_shards = wmax_s;
    size_t cand = (size_t)max_shards * 2 * (size_t)(pl->gs.tp * pl->gs.dp);
    w.cand_rank = malloc(cand * sizeof(int));
    w.cand_tensor = malloc(cand * sizeof(int));
    w.mark = calloc(nr, sizeof(int));
    w.mark_shard = malloc(nr * sizeof(int));
    w.mark_index = malloc(nr * sizeof(int));
    /* A destination part overlaps at most ws/wd + 1 source parts in each block. */
    w.cap_pieces = max_blocks * (wmax_s / (wmin_d > 0 ? wmin_d : 1) + 2);
    w.pieces = malloc((size_t)w.cap_pieces * sizeof(piece_t));
    if (!pl->sent || !pl->received || !pl->local || !pl->rank_ops || !w.cand_rank ||
        !w.cand_tensor || !w.mark || !w.mark_shard || !w.mark_index || !w.pieces) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "reshard plan: no memory for %d ranks", pl->num_ranks);
        goto out;
    }
    /* Balancing by bytes walks twice: first to collect the requests, then (after assigning
     * them) to emit the ops. Both walks visit the same requests in the same order. */
    int passes = pl->opt.balance == VSYM_RESHARD_BALANCE_BYTES ? 2 : 1;
    for (pl->pass = 3 - passes; pl->pass <= 2 && st == VSYM_OK; pl->pass++) {
        for (int i = 0; i < model->num_params && st == VSYM_OK; i++) {
            int ne = model->params[i].num_experts;
            if (ne == 0) st = plan_tensor(pl, &w, i, -1);
            for (int e = 0; e < ne && st == VSYM_OK; e++)
                st = plan_tensor(pl, &w, i, e);
        }
        if (st == VSYM_OK && pl->pass == 1) st = assign_requests(pl);
    }
    if (st == VSYM_OK) finish_stats(pl);
out:
    free(w.cand_rank);
    free(w.cand_tensor);
    free(w.mark);
    free(w.mark_shard);
    free(w.mark_index);
    free(w.pieces);
    if (st != VSYM_OK) {
        vsym_reshard_plan_destroy(pl);
        return st;
    }
    *plan_p = pl;
    return VSYM_OK;
}

VSYM_API void vsym_reshard_plan_destroy(vsym_reshard_plan_t *pl)
{
    if (!pl) return;
    free(pl->ops);
    free(pl->sent);
    free(pl->received);
    free(pl->local);
    free(pl->rank_ops);
    for (size_t i = 0; i < pl->num_groups; i++)
        free(pl->groups[i].members);
    free(pl->groups);
    free(pl->group_slots);
    free(pl->requests);
    free(pl->choice);
    free(pl);
}

VSYM_API size_t vsym_reshard_plan_num_ops(const vsym_reshard_plan_t *pl)
{
    return pl ? pl->num_ops : 0;
}

/* The slice [off, off+len) along the partition dim of a local tensor, whole in the other
 * dimensions (the local and global sizes agree there). */
static void make_slice(const reshard_param_t *p, int64_t off, int64_t len, vsym_reshard_slice_t *s)
{
    int pd = p->partition_dim < 0 ? 0 : p->partition_dim;
    s->ndim = p->ndim;
    for (int d = 0; d < VSYM_RESHARD_MAX_DIMS; d++) {
        s->offset[d] = 0;
        s->length[d] = d < p->ndim ? p->shape[d] : 0;
    }
    s->offset[pd] = off;
    s->length[pd] = len;
}

VSYM_API vsym_status_t vsym_reshard_plan_op(const vsym_reshard_plan_t *pl, size_t i, int *rank_p,
                                            vsym_reshard_op_t *op_p)
{
    if (!pl || !op_p || i >= pl->num_ops)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "reshard plan: op %zu outside 0..%zu", i,
                         pl ? pl->num_ops : 0);
    const plan_op_t *o = &pl->ops[i];
    const reshard_param_t *p = &pl->model->params[pl->model->tensor_param[o->tensor]];
    vsym_reshard_op_t op = {.task_id = o->task_id,
                            .tensor = o->tensor,
                            .src_tensor = o->src_tensor,
                            .peer = o->peer,
                            .dir = (vsym_reshard_dir_t)o->dir};
    make_slice(p, o->my_off, o->len, &op.my_slice);
    make_slice(p, o->peer_off, o->len, &op.peer_slice);
    uint64_t elems = 1;
    for (int d = 0; d < p->ndim; d++)
        elems *= (uint64_t)op.my_slice.length[d];
    op.bytes = (size_t)(elems * p->elem_size);
    if (rank_p) *rank_p = o->rank;
    *op_p = op;
    return VSYM_OK;
}

VSYM_API void vsym_reshard_plan_stats(const vsym_reshard_plan_t *pl, vsym_reshard_stats_t *stats_p)
{
    if (pl && stats_p) *stats_p = pl->stats;
}

VSYM_API vsym_status_t vsym_reshard_plan_rank_stats(const vsym_reshard_plan_t *pl, int rank,
                                                    uint64_t *sent_p, uint64_t *received_p,
                                                    uint64_t *local_p, uint64_t *ops_p)
{
    if (!pl || rank < 0)
        return VSYM_FAIL(VSYM_ERR_BAD_RANK, "reshard plan: rank %d is negative", rank);
    if (rank >= pl->num_ranks) { /* a rank of a larger job that takes no part */
        if (sent_p) *sent_p = 0;
        if (received_p) *received_p = 0;
        if (local_p) *local_p = 0;
        if (ops_p) *ops_p = 0;
        return VSYM_OK;
    }
    if (sent_p) *sent_p = pl->sent[rank];
    if (received_p) *received_p = pl->received[rank];
    if (local_p) *local_p = pl->local[rank];
    if (ops_p) *ops_p = pl->rank_ops[rank];
    return VSYM_OK;
}
