/* Fused collectives on the two-level TP x DP topology of FlashInfer's MixedCommHandler.
 *
 * Every mode except the baseline runs on the world handle's barrier model: each phase is one
 * write into this rank's scratch region, one signal barrier, and reads of peers' regions. The
 * two regions used in turn are the rotating buffers that make entry and exit barriers
 * unnecessary (see coll_internal.h), so a one-shot op costs exactly one synchronisation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll/coll_internal.h"

static const char *const op_names[VSYM_FUSED_OP_COUNT] = {
    "allreduce", "allgather", "reducescatter", "allreduce_allgather", "reducescatter_allreduce"};
static const char *const mode_names[VSYM_FUSED_MODE_COUNT] = {"auto", "oneshot", "twoshot",
                                                              "fewest_bytes", "baseline"};

struct vsym_fused {
    vsym_ctx_t *ctx;
    vsym_team_t *world;
    vsym_coll_t *coll; /* world handle: scratch of every non-baseline mode */
    vsym_fused_topo_t topo;
    int W, me, L, tp, dp, tp_rank, dp_rank;
    unsigned valid_ops, valid_modes;
    vsym_team_t *tp_team, *dp_team; /* baseline: strided sub-teams */
    vsym_coll_t *tp_coll, *dp_coll;
    char *tmp; /* baseline: the intermediate vector */
    size_t tmp_size;
    void *tmp_sym; /* baseline with symmetric buffers: the intermediate, a buffer of tp_coll */
    size_t tmp_sym_size;
    /* One table per buffer kind (ordinary, symmetric) and dtype (keys end "dtype=f16", and
     * "dtype=f16 buffers=symmetric"). */
    vsym_tune_table_t tune[2][VSYM_DTYPE_COUNT];
    int tuned[2][VSYM_DTYPE_COUNT];
    /* VSYM_FUSED_MODE as of settings generation env_gen (0: not read yet): the mode AUTO runs,
     * VSYM_FUSED_AUTO when unset or "auto", -1 when it names no mode (AUTO calls then fail
     * naming it). Read once per generation, not per call (see env_mode()). */
    int env_mode;
    unsigned long env_gen;
    /* AUTO's last answer in vsym_fused_run, for op, dtype, buffer kind and input bytes under
     * settings generation gen (op -1: none; a table loaded or tuned forgets it): the same call
     * again costs a comparison, not the table's and the rule's lookups. One rank, a loop of calls:
     * AUTO's cost over the baseline's 4-6 ns -> 2-3 ns; 2 ranks, 8-64 B: AUTO's speed over the
     * baseline's (medians of launches) 0.97-0.99 -> 0.98-0.99, 0.96-0.99 with the baseline forced
     * (VSYM_FUSED_MODE; results/coll/dev-2core-intel-2026-11-29-stop52/so_calls*.txt). */
    struct {
        int op, dtype, sym;
        size_t bytes;
        unsigned long gen;
        vsym_fused_mode_t mode;
    } auto_last;
    uint64_t in_place_runs; /* calls whose two-shot modes ran in place (run_zerocopy; tests) */
};

uint64_t vsym_fused_in_place_runs(const vsym_fused_t *f)
{
    return f->in_place_runs;
}

VSYM_API const char *vsym_fused_op_name(vsym_fused_op_t op)
{
    return ((unsigned)op < VSYM_FUSED_OP_COUNT) ? op_names[op] : "?";
}

VSYM_API vsym_status_t vsym_fused_op_from_name(const char *name, vsym_fused_op_t *op_p)
{
    for (int i = 0; name && i < VSYM_FUSED_OP_COUNT; i++) {
        if (strcmp(name, op_names[i]) == 0) {
            *op_p = (vsym_fused_op_t)i;
            return VSYM_OK;
        }
    }
    return VSYM_FAIL(VSYM_ERR_BAD_OP,
                     "unknown fused op '%s' (allreduce, allgather, reducescatter, "
                     "allreduce_allgather, reducescatter_allreduce)",
                     name ? name : "(null)");
}

VSYM_API const char *vsym_fused_mode_name(vsym_fused_mode_t mode)
{
    return ((unsigned)mode < VSYM_FUSED_MODE_COUNT) ? mode_names[mode] : "?";
}

VSYM_API vsym_status_t vsym_fused_mode_from_name(const char *name, vsym_fused_mode_t *mode_p)
{
    for (int i = 0; name && i < VSYM_FUSED_MODE_COUNT; i++) {
        if (strcmp(name, mode_names[i]) == 0) {
            *mode_p = (vsym_fused_mode_t)i;
            return VSYM_OK;
        }
    }
    return VSYM_FAIL(VSYM_ERR_BAD_MODE,
                     "unknown fused mode '%s' (auto, oneshot, twoshot, fewest_bytes, baseline)",
                     name ? name : "(null)");
}

/* ---- Topology (pure) ---------------------------------------------------------------------- */

/* Derive a (tp, dp) split of size from the given parts (<= 0: not given). */
static vsym_status_t split_level(const char *level, int size, int tp, int dp, int tp_default,
                                 int *tp_p, int *dp_p)
{
    if (tp <= 0 && dp <= 0) {
        tp = tp_default;
        dp = size / tp;
    } else if (tp <= 0) {
        if (size % dp != 0)
            return VSYM_FAIL(VSYM_ERR_BAD_LAYOUT,
                             "fused topology: %s dp size %d does not divide "
                             "%d",
                             level, dp, size);
        tp = size / dp;
    } else if (dp <= 0) {
        if (size % tp != 0)
            return VSYM_FAIL(VSYM_ERR_BAD_LAYOUT,
                             "fused topology: %s tp size %d does not divide "
                             "%d",
                             level, tp, size);
        dp = size / tp;
    }
    if (tp * dp != size)
        return VSYM_FAIL(VSYM_ERR_BAD_LAYOUT, "fused topology: %s tp %d x dp %d != %d ranks", level,
                         tp, dp, size);
    *tp_p = tp;
    *dp_p = dp;
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_fused_topo_resolve(int world_size, int local_size,
                                               const vsym_fused_topo_t *given,
                                               vsym_fused_topo_t *topo_p)
{
    if (world_size <= 0 || local_size <= 0 || world_size % local_size != 0)
        return VSYM_FAIL(VSYM_ERR_BAD_LAYOUT,
                         "fused topology: %d ranks do not form nodes of %d ranks", world_size,
                         local_size);
    vsym_fused_topo_t g = {0, 0, 0, 0}, t;
    if (given) g = *given;
    VSYM_TRY(split_level("local", local_size, g.local_tp_size, g.local_dp_size, local_size,
                         &t.local_tp_size, &t.local_dp_size));
    VSYM_TRY(split_level("inter", world_size / local_size, g.inter_tp_size, g.inter_dp_size, 1,
                         &t.inter_tp_size, &t.inter_dp_size));
    *topo_p = t;
    return VSYM_OK;
}

VSYM_API void vsym_fused_topo_ranks(const vsym_fused_topo_t *t, int world_rank, int *tp_rank_p,
                                    int *dp_rank_p)
{
    int L = t->local_tp_size * t->local_dp_size;
    int local_rank = world_rank % L, inter_rank = world_rank / L;
    int local_tp = local_rank % t->local_tp_size, local_dp = local_rank / t->local_tp_size;
    int inter_tp = inter_rank % t->inter_tp_size, inter_dp = inter_rank / t->inter_tp_size;
    *tp_rank_p = local_tp + inter_tp * t->local_tp_size;
    *dp_rank_p = local_dp + inter_dp * t->local_dp_size;
}

VSYM_API int vsym_fused_topo_world_rank(const vsym_fused_topo_t *t, int tp_rank, int dp_rank)
{
    int L = t->local_tp_size * t->local_dp_size;
    int local_tp = tp_rank % t->local_tp_size, inter_tp = tp_rank / t->local_tp_size;
    int local_dp = dp_rank % t->local_dp_size, inter_dp = dp_rank / t->local_dp_size;
    int local_rank = local_dp * t->local_tp_size + local_tp;
    int inter_rank = inter_dp * t->inter_tp_size + inter_tp;
    return inter_rank * L + local_rank;
}

int vsym_coll_fused_world_rank(const vsym_fused_topo_t *t, int tp_rank, int dp_rank)
{
    return vsym_fused_topo_world_rank(t, tp_rank, dp_rank);
}

VSYM_API unsigned vsym_fused_topo_valid_ops(const vsym_fused_topo_t *t)
{
    int tp = t->local_tp_size * t->inter_tp_size, dp = t->local_dp_size * t->inter_dp_size;
    unsigned ops = 0;
    if (dp == 1) ops |= 1u << VSYM_FUSED_ALLREDUCE;
    if (tp == 1) ops |= (1u << VSYM_FUSED_ALLGATHER) | (1u << VSYM_FUSED_REDUCESCATTER);
    if (tp > 1 && dp > 1)
        ops |= (1u << VSYM_FUSED_ALLREDUCE_ALLGATHER) | (1u << VSYM_FUSED_REDUCESCATTER_ALLREDUCE);
    return ops;
}

/* Are the world ranks of every TP group, and of every DP group, an arithmetic progression (so
 * that vsym_team_split_strided can make them)? */
static int groups_strided(const vsym_fused_topo_t *t)
{
    int tp = t->local_tp_size * t->inter_tp_size, dp = t->local_dp_size * t->inter_dp_size;
    for (int d = 0; d < dp; d++) {
        int r0 = vsym_fused_topo_world_rank(t, 0, d);
        int stride = tp > 1 ? vsym_fused_topo_world_rank(t, 1, d) - r0 : 1;
        for (int i = 0; i < tp; i++)
            if (vsym_fused_topo_world_rank(t, i, d) != r0 + i * stride) return 0;
    }
    for (int i = 0; i < tp; i++) {
        int r0 = vsym_fused_topo_world_rank(t, i, 0);
        int stride = dp > 1 ? vsym_fused_topo_world_rank(t, i, 1) - r0 : 1;
        for (int d = 0; d < dp; d++)
            if (vsym_fused_topo_world_rank(t, i, d) != r0 + d * stride) return 0;
    }
    return 1;
}

VSYM_API unsigned vsym_fused_topo_valid_modes(const vsym_fused_topo_t *t)
{
    unsigned modes = (1u << VSYM_FUSED_AUTO) | (1u << VSYM_FUSED_ONESHOT);
    if (t->local_tp_size > 1) modes |= 1u << VSYM_FUSED_TWOSHOT;
    if (t->inter_tp_size > 1) modes |= 1u << VSYM_FUSED_FEWEST_BYTES;
    if (groups_strided(t)) modes |= 1u << VSYM_FUSED_BASELINE;
    return modes;
}

/* ---- Handler ------------------------------------------------------------------------------ */

/* The world rank of (tp_rank, dp_rank). */
static int wr(const vsym_fused_t *f, int t, int d)
{
    return vsym_fused_topo_world_rank(&f->topo, t, d);
}

static void tune_key(const vsym_fused_t *f, const char *host, char *key, size_t len)
{
    snprintf(key, len, "world=%d local=%d local_tp=%d local_dp=%d inter_tp=%d inter_dp=%d host=%s",
             f->W, f->L, f->topo.local_tp_size, f->topo.local_dp_size, f->topo.inter_tp_size,
             f->topo.inter_dp_size, host);
}

VSYM_API vsym_status_t vsym_fused_create(vsym_ctx_t *ctx, const vsym_fused_topo_t *topo,
                                         vsym_fused_t **fused_p)
{
    if (ctx == NULL || fused_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "fused_create: NULL %s", ctx ? "fused_p" : "ctx");
    vsym_team_t *world = vsym_team_world(ctx);
    int W = vsym_team_size(world), L = vsym_team_size(vsym_team_node(ctx));
    vsym_fused_topo_t t;
    VSYM_TRY(vsym_fused_topo_resolve(W, L, topo, &t));
    /* The formulas place node i's ranks at world ranks i*L .. i*L+L-1: check that it is so. */
    for (int r = 0; r < W; r++)
        if (vsym_team_node_of(world, r) != r / L)
            return VSYM_FAIL(VSYM_ERR_BAD_LAYOUT,
                             "fused_create: world rank %d is on node %d, the topology needs "
                             "node-major ranks (%d per node)",
                             r, vsym_team_node_of(world, r), L);
    vsym_fused_t *f = calloc(1, sizeof(*f));
    if (f == NULL) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "fused_create: no memory");
    f->ctx = ctx;
    f->world = world;
    f->topo = t;
    f->W = W;
    f->L = L;
    f->me = vsym_team_rank(world);
    f->tp = t.local_tp_size * t.inter_tp_size;
    f->dp = t.local_dp_size * t.inter_dp_size;
    vsym_fused_topo_ranks(&t, f->me, &f->tp_rank, &f->dp_rank);
    f->valid_ops = vsym_fused_topo_valid_ops(&t);
    f->valid_modes = vsym_fused_topo_valid_modes(&t);
    vsym_status_t st = vsym_coll_create(world, &f->coll);
    if (st != VSYM_OK) goto err;
    if (f->valid_modes & (1u << VSYM_FUSED_BASELINE)) {
        /* One split per group, every rank taking part in each (split is collective). */
        for (int d = 0; d < f->dp; d++) {
            int r0 = vsym_fused_topo_world_rank(&t, 0, d);
            int stride = f->tp > 1 ? vsym_fused_topo_world_rank(&t, 1, d) - r0 : 1;
            vsym_team_t *team;
            st = vsym_team_split_strided(world, r0, stride, f->tp, &team);
            if (st != VSYM_OK) goto err;
            if (team) f->tp_team = team;
        }
        for (int i = 0; i < f->tp; i++) {
            int r0 = vsym_fused_topo_world_rank(&t, i, 0);
            int stride = f->dp > 1 ? vsym_fused_topo_world_rank(&t, i, 1) - r0 : 1;
            vsym_team_t *team;
            st = vsym_team_split_strided(world, r0, stride, f->dp, &team);
            if (st != VSYM_OK) goto err;
            if (team) f->dp_team = team;
        }
        if ((st = vsym_coll_create(f->tp_team, &f->tp_coll)) != VSYM_OK ||
            (st = vsym_coll_create(f->dp_team, &f->dp_coll)) != VSYM_OK)
            goto err;
    }
    /* The autotune key names rank 0's host, so that every rank computes the same key. */
    vsym_sysinfo_t info;
    char host[64] = "unknown";
    char *hosts = malloc((size_t)W * sizeof(host));
    if (hosts == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "fused_create: no memory");
        goto err;
    }
    if (vsym_sysinfo_get(&info) == VSYM_OK) snprintf(host, sizeof(host), "%s", info.host);
    st = vsym_team_exchange(world, host, sizeof(host), hosts);
    if (st == VSYM_OK) {
        char key[256];
        memcpy(host, hosts, sizeof(host));
        host[sizeof(host) - 1] = '\0';
        tune_key(f, host, key, sizeof(key));
        for (int k = 0; k < 2; k++)
            for (int d = 0; d < VSYM_DTYPE_COUNT; d++) {
                char dkey[sizeof(key) + 40];
                snprintf(dkey, sizeof(dkey), "%s dtype=%s%s", key, vsym_dtype_name((vsym_dtype_t)d),
                         k ? " buffers=symmetric" : "");
                vsym_coll_tune_init(&f->tune[k][d], dkey);
            }
    }
    free(hosts);
    if (st != VSYM_OK) goto err;
    const char *file = vsym_config_str(VSYM_CFG_AUTOTUNE_FILE);
    for (int k = 0; k < 2; k++)
        for (int d = 0; file[0] != '\0' && d < VSYM_DTYPE_COUNT; d++)
            if (vsym_coll_tune_load(&f->tune[k][d], file) == VSYM_OK) f->tuned[k][d] = 1;
    f->auto_last.op = -1;
    *fused_p = f;
    return VSYM_OK;
err:
    vsym_fused_destroy(f);
    return st;
}

VSYM_API vsym_status_t vsym_fused_destroy(vsym_fused_t *f)
{
    if (f == NULL) return VSYM_OK;
    vsym_status_t st = VSYM_OK, st2;
    /* The views of the world's buffers go with the handles below (not owned there). */
    st2 = vsym_coll_destroy(f->dp_coll);
    st = st == VSYM_OK ? st2 : st;
    st2 = vsym_coll_destroy(f->tp_coll);
    st = st == VSYM_OK ? st2 : st;
    st2 = vsym_team_destroy(f->dp_team);
    st = st == VSYM_OK ? st2 : st;
    st2 = vsym_team_destroy(f->tp_team);
    st = st == VSYM_OK ? st2 : st;
    st2 = vsym_coll_destroy(f->coll);
    st = st == VSYM_OK ? st2 : st;
    free(f->tmp);
    free(f);
    return st;
}

VSYM_API void vsym_fused_get_topo(const vsym_fused_t *f, vsym_fused_topo_t *topo_p)
{
    *topo_p = f->topo;
}

VSYM_API unsigned vsym_fused_valid_ops(const vsym_fused_t *f)
{
    return f->valid_ops;
}

VSYM_API unsigned vsym_fused_valid_modes(const vsym_fused_t *f)
{
    return f->valid_modes;
}

/* A symmetric buffer of the world handle, seen also by the baseline's TP and DP handles (as
 * their own: so that the unfused sequence gets its in-place paths too). */
VSYM_API vsym_status_t vsym_fused_buffer_alloc(vsym_fused_t *f, size_t size, void **ptr_p)
{
    if (f == NULL || ptr_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "fused_buffer_alloc: NULL argument");
    void *p;
    VSYM_TRY(vsym_coll_buffer_alloc(f->coll, size, &p));
    vsym_status_t st = VSYM_OK;
    if (f->tp_coll != NULL) {
        vsym_coll_buf_t *b = vsym_coll_find_buf(f->coll, p, size);
        int ranks[f->W];
        for (int k = 0; k < f->tp; k++)
            ranks[k] = wr(f, k, f->dp_rank);
        st = vsym_coll_buf_share(f->tp_coll, b, ranks);
        for (int d = 0; d < f->dp; d++)
            ranks[d] = wr(f, f->tp_rank, d);
        if (st == VSYM_OK) st = vsym_coll_buf_share(f->dp_coll, b, ranks);
    }
    if (st != VSYM_OK) {
        vsym_fused_buffer_free(f, p);
        return st;
    }
    *ptr_p = p;
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_fused_buffer_free(vsym_fused_t *f, void *ptr)
{
    if (f == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "fused_buffer_free: NULL handler");
    if (ptr == NULL) return VSYM_OK;
    const vsym_coll_buf_t *b = vsym_coll_find_buf(f->coll, ptr, 0);
    if (b == NULL || b->base != ptr)
        return VSYM_FAIL(VSYM_ERR_NOT_FOUND,
                         "fused_buffer_free: %p is not a buffer of this handler", ptr);
    /* The views first (local), then the buffer (collective). */
    if (f->tp_coll && vsym_coll_find_buf(f->tp_coll, ptr, 0))
        vsym_coll_buffer_free(f->tp_coll, ptr);
    if (f->dp_coll && vsym_coll_find_buf(f->dp_coll, ptr, 0))
        vsym_coll_buffer_free(f->dp_coll, ptr);
    return vsym_coll_buffer_free(f->coll, ptr);
}

static size_t in_blocks(const vsym_fused_t *f, vsym_fused_op_t op)
{
    return (op == VSYM_FUSED_REDUCESCATTER || op == VSYM_FUSED_REDUCESCATTER_ALLREDUCE)
               ? (size_t)f->dp
               : 1;
}

static size_t out_blocks(const vsym_fused_t *f, vsym_fused_op_t op)
{
    return (op == VSYM_FUSED_ALLGATHER || op == VSYM_FUSED_ALLREDUCE_ALLGATHER) ? (size_t)f->dp : 1;
}

VSYM_API void vsym_fused_shapes(const vsym_fused_t *f, vsym_fused_op_t op, size_t n,
                                size_t *in_count_p, size_t *out_count_p)
{
    *in_count_p = n * in_blocks(f, op);
    *out_count_p = n * out_blocks(f, op);
}

/* ---- Execution ---------------------------------------------------------------------------- */

/* Copy blocks b = 0..nb-1 of m elements (at element offset off of blocks of n) into the
 * current barrier region, block b at b*m; but elements [hole_lo, hole_hi) of block hole_b (none
 * where hole_b >= nb). */
static void publish_blocks(vsym_coll_t *c, const char *in, size_t nb, size_t n, size_t off,
                           size_t m, size_t es, size_t hole_b, size_t hole_lo, size_t hole_hi)
{
    char *buf = vsym_coll_bar_buf(c);
    for (size_t b = 0; b < nb; b++) {
        char *dst = buf + b * m * es;
        const char *src = in + (b * n + off) * es;
        if (b != hole_b) {
            vsym_util_copy_publish(dst, src, m * es);
            continue;
        }
        if (hole_lo > 0) vsym_util_copy_publish(dst, src, hole_lo * es);
        if (hole_hi < m)
            vsym_util_copy_publish(dst + hole_hi * es, src + hole_hi * es, (m - hole_hi) * es);
    }
}

/* One-shot: one exchange; each rank reduces, in a fixed order, the sources it needs.
 * Sources of output block ob: ranks (t, ob) for t in TP order (AR, AR_AG), or every rank in
 * (dp, tp) order reading their block dp_rank (RS, RS_AR), or rank (0, ob) (AG). */
static vsym_status_t run_oneshot(vsym_fused_t *f, vsym_fused_op_t op, const char *in, char *out,
                                 size_t n, vsym_dtype_t dtype)
{
    vsym_coll_t *c = f->coll;
    size_t es = vsym_dtype_size(dtype), nb = in_blocks(f, op), ob = out_blocks(f, op);
    size_t maxe = c->chunk / es / nb;
    /* Small inputs: the low-latency exchange (every rank reads every rank), no barrier. The
     * limit stays on the whole input even where only a block of it is read (the reduce-scatter
     * flavours): the 16-core host's 8 ranks took 1.9-2.6 us with it at 1 KiB of input (256 B
     * blocks) against 1.6-1.9 us through the barrier
     * (results/coll/device-16core-2026-11-25-stop18). */
    int ll = vsym_coll_ll_usable(c, nb * n * es), xch = !c->all_direct;
    uint64_t seq = 0;
    const void *srcs[f->W];
    const char *got[f->W], *blk[f->W];
    /* Peers over verbs: push exchanges in chunks, non-blocking from a symmetric buffer. */
    const int reg = xch && vsym_coll_find_buf(c, in, nb * n * es) != NULL;
    if (xch) maxe = c->xch_max / es;
    if (ll) {
        VSYM_TRY(vsym_coll_ll_begin(c, 1, &seq));
        maxe = n;
        vsym_coll_ll_publish(c, seq, in, nb * n * es);
        memcpy(c->ll_tmp + (size_t)f->me * VSYM_COLL_LL_MAX, in, nb * n * es);
        /* The reduce-scatter flavours need only block dp_rank of each peer's input. */
        VSYM_TRY(vsym_coll_ll_fetch(c, -1, seq, nb * n * es,
                                    nb > 1 ? (size_t)f->dp_rank * n * es : 0, n * es));
        vsym_coll_ll_end(c, seq, 1);
    }
    for (size_t off = 0; off < n; off += maxe) {
        size_t m = n - off < maxe ? n - off : maxe, len = m * es;
        if (xch) {
            /* Rank r is sent what it reads of this rank's input: block dp_rank(r) for the
             * reduce-scatter flavours, else the whole input. */
            for (int r = 0; r < f->W; r++) {
                int rt, rd;
                vsym_fused_topo_ranks(&f->topo, r, &rt, &rd);
                blk[r] = in + ((nb > 1 ? (size_t)rd * n : 0) + off) * es;
            }
            VSYM_TRY(vsym_coll_xch(c, blk, len, reg, got));
        } else if (!ll) {
            publish_blocks(c, in, nb, n, off, m, es, nb, 0, 0);
            VSYM_TRY(vsym_coll_bar_sync(c));
        }
        for (size_t d = 0; d < ob; d++) {
            int ns = 0;
            const char *p;
            for (int dd = 0; dd < (nb > 1 ? f->dp : 1); dd++)
                for (int t = 0; t < f->tp; t++) {
                    /* reduce-scatter flavours: my block from everyone; else block d's group */
                    int r =
                        nb > 1 ? wr(f, t, dd) : wr(f, t, (int)(ob > 1 ? d : (size_t)f->dp_rank));
                    size_t boff = nb > 1 ? (size_t)f->dp_rank * len : 0;
                    if (xch)
                        p = got[r];
                    else if (ll)
                        p = c->ll_tmp + (size_t)r * VSYM_COLL_LL_MAX + boff;
                    else
                        VSYM_TRY(vsym_coll_bar_peer(c, r, boff, len, &p));
                    srcs[ns++] = p;
                }
            vsym_coll_reduce(dtype, VSYM_RED_SUM, out + (d * n + off) * es, srcs, ns, m);
        }
        if (!ll && !xch) vsym_coll_bar_next(c);
    }
    return VSYM_OK;
}

/* Two phases: reduce one segment, then gather the segments. nseg segments of the TP vector:
 * the local TP ranks' (twoshot) or the whole TP group's (fewest bytes). The segment of this
 * rank is reduced over every contributing rank (all TP ranks of its group, or all ranks for
 * the reduce-scatter flavour); ranks that share a segment index compute it identically.
 * Where no other rank shares this rank's segment index (fewest bytes, or one node's TP group),
 * the part of its input that only it reads is not published (it reduces it from the input), and
 * its sum is stored into its output as it is published (the gather skips it). For 2 x 2 that
 * copies half the input and three quarters of the output of all-reduce + all-gather, three
 * quarters of the input and half the output of reduce-scatter + all-reduce. 2-core Zen 5 host,
 * 4 ranks, medians of 6-8 launches: all-reduce + all-gather 0.76-0.94 of the time at 32 KiB-1 MiB
 * (f16), 0.87-0.96 at 64 KiB-1 MiB (f32); reduce-scatter + all-reduce within the rounds' noise
 * (results/coll/dev-2core-zen5-2026-11-28-stop42). */
static vsym_status_t run_twophase(vsym_fused_t *f, vsym_fused_op_t op, const char *in, char *out,
                                  size_t n, vsym_dtype_t dtype, int whole_group)
{
    vsym_coll_t *c = f->coll;
    size_t es = vsym_dtype_size(dtype), nb = in_blocks(f, op), ob = out_blocks(f, op);
    int ltp = f->topo.local_tp_size;
    int nseg = whole_group ? f->tp : ltp;
    int myseg = whole_group ? f->tp_rank : f->tp_rank % ltp;
    int seg_base = whole_group ? 0 : (f->tp_rank / ltp) * ltp; /* tp rank of segment 0 */
    const int own = whole_group || f->tp == ltp;
    /* the block of the input whose segment myseg only this rank reads; where its sum goes */
    const size_t own_blk = nb > 1 ? (size_t)f->dp_rank : 0,
                 out_blk = ob > 1 ? (size_t)f->dp_rank : 0;
    size_t maxe = c->chunk / es / nb;
    const void *srcs[f->W];
    for (size_t off = 0; off < n; off += maxe) {
        size_t m = n - off < maxe ? n - off : maxe, len = m * es;
        size_t lo = seg_lo(m, nseg, myseg), hi = seg_lo(m, nseg, myseg + 1);
        publish_blocks(c, in, nb, n, off, m, es, own ? own_blk : nb, lo, hi);
        VSYM_TRY(vsym_coll_bar_sync(c));
        int ns = 0;
        const char *p;
        for (int dd = 0; dd < (nb > 1 ? f->dp : 1); dd++)
            for (int t = 0; t < f->tp; t++) {
                int r = wr(f, t, nb > 1 ? dd : f->dp_rank);
                size_t boff = (nb > 1 ? (size_t)f->dp_rank * len : 0) + lo * es;
                if (own && r == f->me)
                    p = in + (own_blk * n + off + lo) * es;
                else
                    VSYM_TRY(vsym_coll_bar_peer(c, r, boff, (hi - lo) * es, &p));
                srcs[ns++] = p;
            }
        vsym_coll_bar_next(c);
        char *pub = vsym_coll_bar_buf(c) + lo * es;
        if (own) {
            /* into the output (in cache), then published from there */
            char *mine = out + (out_blk * n + off + lo) * es;
            vsym_coll_reduce(dtype, VSYM_RED_SUM, mine, srcs, ns, hi - lo);
            vsym_util_copy_publish(pub, mine, (hi - lo) * es);
        } else {
            vsym_coll_reduce_publish(dtype, VSYM_RED_SUM, pub, srcs, ns, hi - lo);
        }
        VSYM_TRY(vsym_coll_bar_sync(c));
        for (size_t d = 0; d < ob; d++) {
            int dd = ob > 1 ? (int)d : f->dp_rank;
            for (int s = 0; s < nseg; s++) {
                size_t slo = seg_lo(m, nseg, s), shi = seg_lo(m, nseg, s + 1);
                int r = wr(f, seg_base + s, dd);
                if (own && r == f->me) continue;
                VSYM_TRY(vsym_coll_bar_peer(c, r, slo * es, (shi - slo) * es, &p));
                memcpy(out + (d * n + off + slo) * es, p, (shi - slo) * es);
            }
        }
        vsym_coll_bar_next(c);
    }
    return VSYM_OK;
}

/* The two phases on symmetric buffers (vsym_fused_buffer_alloc), without the scratch: the TP
 * group splits its output vector into tp segments; each rank reduces its segment straight from
 * the inputs of the ranks that contribute to it (its TP group's, or every rank's block dp_rank
 * for the reduce-scatter flavours, in the one-shot order) and stores the result into the output
 * of every rank that holds that segment (its TP group, or every rank at block dp_rank for the
 * all-gather flavours), block by block while the sums are in cache. Each output element is
 * computed once, so every rank holds the same bits. Two synchronisations: every rank has entered
 * (inputs ready, outputs free), every segment stored (no rank reads an input or writes an
 * output after it). */
static vsym_status_t run_zerocopy(vsym_fused_t *f, vsym_fused_op_t op, const vsym_coll_buf_t *ib,
                                  const char *in, const vsym_coll_buf_t *obuf, char *out, size_t n,
                                  vsym_dtype_t dtype)
{
    vsym_coll_t *c = f->coll;
    size_t es = vsym_dtype_size(dtype), ioff = (size_t)(in - ib->base);
    size_t ooff = (size_t)(out - obuf->base);
    size_t lo = seg_lo(n, f->tp, f->tp_rank), hi = seg_lo(n, f->tp, f->tp_rank + 1);
    const char *srcs[f->W];
    char *dsts[f->W];
    int ns = 0, nd = 0;
    if (in_blocks(f, op) > 1) {
        for (int d = 0; d < f->dp; d++)
            for (int t = 0; t < f->tp; t++)
                srcs[ns++] = ib->peer[wr(f, t, d)] + ioff + ((size_t)f->dp_rank * n + lo) * es;
    } else {
        for (int t = 0; t < f->tp; t++)
            srcs[ns++] = ib->peer[wr(f, t, f->dp_rank)] + ioff + lo * es;
    }
    /* Stores to this rank's output first, then the peers' in rank order from this rank on. */
    for (int i = 0; i < f->W; i++) {
        int r = (f->me + i) % f->W, rt, rd;
        vsym_fused_topo_ranks(&f->topo, r, &rt, &rd);
        if (out_blocks(f, op) > 1)
            dsts[nd++] = obuf->peer[r] + ooff + ((size_t)f->dp_rank * n + lo) * es;
        else if (rd == f->dp_rank)
            dsts[nd++] = obuf->peer[r] + ooff + lo * es;
    }
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_coll_bar_next(c);
    const size_t blk = COLL_PUSH_BLOCK / es;
    for (size_t o = lo; o < hi; o += blk) {
        size_t m = hi - o < blk ? hi - o : blk;
        const void *s2[f->W];
        void *d2[f->W];
        for (int i = 0; i < ns; i++)
            s2[i] = srcs[i] + (o - lo) * es;
        for (int i = 0; i < nd; i++)
            d2[i] = dsts[i] + (o - lo) * es;
        vsym_coll_reduce_push(dtype, VSYM_RED_SUM, d2, nd, s2, ns, m);
    }
    VSYM_TRY(vsym_coll_bar_sync(c));
    vsym_coll_bar_next(c);
    return VSYM_OK;
}

/* sym: in and out are symmetric buffers of the handler reached by load and store
 * (in_place_buffers). */
static vsym_status_t run_baseline(vsym_fused_t *f, vsym_fused_op_t op, const char *in, char *out,
                                  size_t n, vsym_dtype_t dtype, int sym)
{
    size_t es = vsym_dtype_size(dtype);
    switch (op) {
    case VSYM_FUSED_ALLREDUCE:
        return vsym_coll_allreduce(f->coll, in, out, n, dtype, VSYM_RED_SUM, VSYM_COLL_AUTO);
    case VSYM_FUSED_ALLGATHER:
        return vsym_coll_allgather(f->coll, in, out, n, dtype, VSYM_COLL_AUTO);
    case VSYM_FUSED_REDUCESCATTER:
        return vsym_coll_reduce_scatter(f->coll, in, out, n, dtype, VSYM_RED_SUM, VSYM_COLL_AUTO);
    default:
        break;
    }
    char *tmp = f->tmp;
    if (sym) {
        /* Symmetric in and out: a symmetric intermediate too, a buffer of the TP handle made
         * (collectively over the TP team: every rank of it runs this call with the same n) at
         * the first call that needs one this large. */
        if (f->tmp_sym_size < n * es) {
            vsym_status_t st = f->tmp_sym ? vsym_coll_buffer_free(f->tp_coll, f->tmp_sym) : VSYM_OK;
            f->tmp_sym = NULL;
            f->tmp_sym_size = 0;
            if (st == VSYM_OK) st = vsym_coll_buffer_alloc(f->tp_coll, n * es, &f->tmp_sym);
            VSYM_TRY(st);
            f->tmp_sym_size = n * es;
        }
        tmp = f->tmp_sym;
    } else if (f->tmp_size < n * es) {
        char *t = realloc(f->tmp, n * es);
        if (t == NULL)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "fused baseline: no memory for %zu bytes", n * es);
        f->tmp = tmp = t;
        f->tmp_size = n * es;
    }
    if (op == VSYM_FUSED_ALLREDUCE_ALLGATHER) {
        VSYM_TRY(vsym_coll_allreduce(f->tp_coll, in, tmp, n, dtype, VSYM_RED_SUM, VSYM_COLL_AUTO));
        return vsym_coll_allgather(f->dp_coll, tmp, out, n, dtype, VSYM_COLL_AUTO);
    }
    VSYM_TRY(vsym_coll_reduce_scatter(f->dp_coll, in, tmp, n, dtype, VSYM_RED_SUM, VSYM_COLL_AUTO));
    return vsym_coll_allreduce(f->tp_coll, tmp, out, n, dtype, VSYM_RED_SUM, VSYM_COLL_AUTO);
}

/* Whether in and out (n elements per rank of op) lie in symmetric buffers of the handler that
 * every rank reaches by load and store: then the baseline's collectives see them as their own,
 * and from vsym_coll_fused_zc_min the two-shot modes run in place (run_zerocopy). */
static int in_place_buffers(const vsym_fused_t *f, vsym_fused_op_t op, const void *in,
                            const void *out, size_t n, size_t es, const vsym_coll_buf_t **ib_p,
                            const vsym_coll_buf_t **ob_p)
{
    if (!f->coll->all_direct || f->W == 1 || n == 0) return 0;
    const vsym_coll_buf_t *ib = vsym_coll_find_buf(f->coll, in, n * in_blocks(f, op) * es);
    const vsym_coll_buf_t *ob =
        ib ? vsym_coll_find_buf(f->coll, out, n * out_blocks(f, op) * es) : NULL;
    if (ib_p) *ib_p = ib;
    if (ob_p) *ob_p = ob;
    return ob != NULL;
}

/* AUTO's mode without a table, a size rule (one exchange for small inputs, where waits
 * dominate; fewer bytes for large ones); also where the autotune starts from. bufs_sym: in and
 * out are symmetric buffers; sym: the two-shot modes run in place on them (zc_runs). */
static vsym_fused_mode_t rule_mode(const vsym_fused_t *f, vsym_fused_op_t op, size_t bytes,
                                   int bufs_sym, int sym, size_t es)
{
    /* Without a table, a rule from the fused suite's runs on one node (2-core AMD, 4 ranks;
     * 16-core Xeon, 4, 8 and 16 ranks: results/coll/README.md):
     *  - the single-collective ops: the library collective (baseline: its own size rules);
     *  - across nodes: the baseline's collectives (hierarchical, each with its own size rules)
     *    wait on the network fewest times (Soft-RoCE VM, 2 nodes x 2 ranks: 4.8-23 ms against
     *    6.0-35 ms for one-shot and 9.7-34 ms for two-shot at 1 KiB and 64 KiB);
     *  - all-reduce + all-gather: one exchange where at most 8 ranks read each other, up to 256 B
     *    of input with a core per rank and, where ranks share cores, 64 KiB (32 KiB in place; stop
     *    47, below; before it 16 KiB from these runs of stop 38: 16-core Intel guest, 4 and 8
     *    ranks, 1.04-1.36x the baseline at 128-256 B, 0.80-1.01x at 512 B-2 KiB,
     *    six rounds; 2-core AMD host, 4 ranks, 1.20-1.74x at 128 B-16 KiB, 1.04-1.23x at 32-128
     *    KiB, 20-28 launches, paired; results/coll/device-16core-2026-11-27-stop38); else the
     *    baseline up to 2 KiB (at 16 ranks its two small exchanges are faster), then the two-shot
     *    modes, whose bytes per rank shrink with the TP size (1.1-2.4x from 4 KiB at 4-16 ranks);
     *  - reduce-scatter + all-reduce: one exchange at up to 8 ranks, up to 256 B of input with a
     *    core per rank and 32 KiB where ranks share cores (each rank reads one block of each peer;
     *    stop 38: 1.13-1.44x the baseline at 128-256 B on 4 and 8 ranks of the Intel guest,
     *    0.57-0.97x at 512 B-8 KiB; 1.20-1.53x at 128 B-16 KiB on 4 ranks of the AMD host,
     *    0.76-0.98x from 32 KiB; stop 45, with the library's reduce-scatter in the LL protocol
     *    too: 1.11-1.27x at 64-256 B on 8 ranks, and at 16 ranks 0.86-1.02x, where the one
     *    exchange had won 1.20-1.37x at TP 2 x DP 8 against the reduce-scatter through the
     *    scratch; results/coll/device-16core-2026-11-28-stop45), then the baseline up to 512 KiB
     *    of input (it reads dp + tp blocks where the fused modes read W: 0.6-1.0x for them on the
     *    16-core host), then the two-shot modes (1.1-1.5x at 1 MiB); with more than 8 ranks the
     *    baseline at every size (16 ranks, 16-core host, two launches: the two-shot mode
     *    0.66-0.96x the baseline, once 1.06, at 4 KiB-4 MiB for TP 2 and 4, 0.71-0.89x to 256 KiB
     *    for TP 8; results/coll/device-16core-2026-11-27-stop32). */
    int single =
        op == VSYM_FUSED_ALLREDUCE || op == VSYM_FUSED_ALLGATHER || op == VSYM_FUSED_REDUCESCATTER;
    int nodes = f->topo.inter_tp_size * f->topo.inter_dp_size;
    int has_base = (f->valid_modes & (1u << VSYM_FUSED_BASELINE)) != 0;
    if (single || nodes > 1) return has_base ? VSYM_FUSED_BASELINE : VSYM_FUSED_ONESHOT;
    /* In place buffers: the two-shot modes read W x (input / TP) and store each output element
     * once, with no copies, from 4 KiB of input: 16-core host, f32, 4-16 ranks, every TP x DP
     * split, against the baseline on the same buffers (its all-reduce in place too), 1.6-11x at
     * 4 KiB-1 MiB (results/coll/device-16core-2026-11-26-stop22); 2-core host, 4 ranks, 1.5-7x at
     * 16 KiB-1 MiB, 1.0-1.5x at 4 KiB; but reduce-scatter + all-reduce from 16 KiB on more
     * than 8 ranks of TP 2 (16 ranks, TP 2 x DP 8, 4 KiB: 0.77-0.96x the baseline in six
     * launches of stops 31-32, 1.02-1.37x from 16 KiB). */
    /* One exchange: where ranks share cores every wait may cost a switch, so on AMD CPUs it pays
     * longer, in place buffers too: up to 32 KiB of input, 64 KiB for all-reduce + all-gather of
     * ordinary buffers. 2-core Zen 5 host, 4 ranks (2 x 2), f32, two runs (6 and 5 launches),
     * medians, the baseline's time over the one-shot's and over the two-shot's at 4-32 KiB: in
     * place buffers 1.68-2.18 against 1.06-1.76 (64 KiB: 1.63 and 1.71 against 2.24 and 1.71);
     * ordinary buffers 1.02-1.59 against 0.69-0.91; all-reduce + all-gather of ordinary buffers at
     * 64 KiB 1.21-1.22 against 1.04, at 128 KiB 1.18-1.19 against 1.21-1.22. Stop 38's rule (16
     * KiB, and the two-shot modes from 4 KiB in place) had AUTO at 0.90 of the baseline's speed at
     * 32 KiB (results/coll/dev-2core-zen5-2026-11-28-stop47). But reduce-scatter + all-reduce of
     * 4-byte and wider elements only to 16 KiB: the baseline reduces those faster than 2-byte ones
     * (f32 5.6-6.4 us at 4 KiB, f16 7.2-8.8), the one exchange as fast either way (4.1-5.4): same
     * host, eight launches, medians, baseline / one exchange, f32 1.17-1.39 at 4 KiB, 1.03-1.29 at
     * 8 KiB, 0.94-1.24 at 16 KiB, 0.79-1.04 at 32 KiB, 0.70-0.83 at 64 KiB; f16 1.03-1.30 at 32
     * KiB, 0.85-1.00 at 64 KiB (plain and input rewritten, both kinds of buffers;
     * results/coll/dev-2core-zen5-2026-12-02-stop56, run 6). */
    /* On other CPUs than AMD's (the 2-core Intel guest, AVX-512, family 6 model 167) the bytes
     * cost more than the waits: 4 ranks (2 x 2), f16, medians of the
     * baseline's time over the one-shot's and over the two-shot's: in place buffers at 4-32 KiB
     * 0.72-1.26 against 1.42-2.25, at 2 KiB 1.34 against 1.62 (all-reduce + all-gather) and 1.13
     * against 1.04 (reduce-scatter + all-reduce), at 512 B-1 KiB 1.23-1.35 against 0.81-1.09;
     * ordinary buffers at 16-32 KiB 0.92-1.03 against 0.96-1.11 (8 KiB: 1.13-1.20 against
     * 1.01-1.15; 18 launches in three runs). So there one exchange in place up to 1 KiB (2 KiB
     * for reduce-scatter + all-reduce), the two-shot modes above; from ordinary buffers up to 8 KiB
     * (results/coll/dev-2core-intel-2026-11-29-stop51). */
    const int shared = !vsym_util_core_per_rank(), amd = vsym_util_cpu_amd(),
              rs_ar = op == VSYM_FUSED_REDUCESCATTER_ALLREDUCE;
    /* a core per rank on at most 8 ranks of other CPUs than AMD's (stop 52's sizes below) */
    const int own_few = !shared && !amd && f->W <= 8;
    /* Where ranks share AMD cores all-reduce + all-gather (not in place) takes one exchange to 32
     * KiB of input, on symmetric buffers (bufs_sym) of 2-byte elements to 16 KiB, the two-shot
     * modes beyond (64 KiB before, stop 47). Stop 57, the 2-core Zen 5 guest, 4 ranks (2 x 2),
     * after the baseline's all-gather between the 2 ranks of a DP team stopped streaming its copies
     * (VSYM_COLL_STREAM_MIN auto), medians of six launches, plain and with the input rewritten and
     * the output read, the cores near: the two-shot 0.92-0.97 of the one exchange's time at 64 KiB
     * (ordinary buffers, f16 and f32), 0.79-0.95 on symmetric f16 from 32 KiB, 1.04 at 16 KiB.
     * Symmetric f32 ran fastest through the baseline at 8-32 KiB near (0.84-0.91 of the one
     * exchange's time) but the one exchange 1.12-1.36x the baseline's speed far (six launches),
     * so it keeps it. The rule against the one before, builds taking turns, six launches, near:
     * the baseline's time over AUTO's 1.02-1.28 where the rules differ (32-64 KiB), 0.85-1.24
     * before (results/coll/dev-2core-zen5-2026-12-02-stop57, runs 6-8). */
    /* Where ranks share cores of other CPUs than AMD's, reduce-scatter + all-reduce of 4-byte and
     * wider elements (not in place) only to 4 KiB: the 2-core Intel guest, 4 ranks (2 x 2), the
     * baseline's time over the one exchange's at 8 KiB of f32 0.87-0.90 (ordinary buffers) and
     * 0.80-0.86 (symmetric), six launches of stop 68, where stop 59's sixteen had 0.78-1.11
     * (median 1.01); at 4 KiB 0.91-1.06 against stop 59's 0.87-1.26 (median 1.13); f16 0.95-1.22
     * at 8 KiB (results/coll/dev-2core-intel-2026-12-03-stop68). */
    const int ar_ag = op == VSYM_FUSED_ALLREDUCE_ALLGATHER;
    const size_t one_max = !shared                        ? 256
                           : !amd && sym                  ? (rs_ar ? 2048 : 1024)
                           : !amd && rs_ar && es >= 4     ? 4096
                           : !amd                         ? 8192
                           : ar_ag && bufs_sym && es == 2 ? 16384
                           : rs_ar && es >= 4             ? 16384
                                                          : 32768;
    if (f->W <= 8 && bytes <= one_max &&
        (op == VSYM_FUSED_ALLREDUCE_ALLGATHER || op == VSYM_FUSED_REDUCESCATTER_ALLREDUCE))
        return VSYM_FUSED_ONESHOT;
    const vsym_fused_mode_t two = (f->valid_modes & (1u << VSYM_FUSED_FEWEST_BYTES))
                                      ? VSYM_FUSED_FEWEST_BYTES
                                      : VSYM_FUSED_TWOSHOT;
    /* With a core per rank on at most 8 ranks of other CPUs than AMD's, in place from 512 B
     * (all-reduce + all-gather) and 1 KiB (reduce-scatter + all-reduce), not 4 KiB: 16-core Intel
     * guest, f16, three launches, medians of the baseline's time over the two-shot's at 1-2 KiB
     * 1.65-2.76 (all-reduce + all-gather) and 1.01-1.78, at 512 B 1.15-1.21 and 0.88-1.01, on 4
     * and 8 ranks (results/coll/device-16core-2026-11-29-stop52); at 16 ranks 512 B 0.66-1.04.
     * AUTO against the build before, four rounds each: 1.11-1.17x the baseline at 512 B,
     * 1.17-1.69x at 1 KiB, 1.61-2.50x at 2 KiB, where it had run the baseline (0.94-1.01x). With
     * more than 8 ranks from 2 KiB (reduce-scatter + all-reduce of TP 2 from 16 KiB as before:
     * 0.88x at 4 KiB): 16 ranks, three launches, the two-shot 1.51-1.72x at 2 KiB (all-reduce +
     * all-gather) and 1.28-1.69x (reduce-scatter + all-reduce of TP 4 and 8); at 1 KiB
     * 1.12-1.37x and 0.95-1.18x, but AUTO taking it there for all-reduce + all-gather ran 0.96x
     * the baseline at TP 2 against the build before's 1.02x; at 2 KiB AUTO 1.13-1.59x (0.97-1.01x
     * before). */
    const size_t sym_min =
        op == VSYM_FUSED_REDUCESCATTER_ALLREDUCE && f->W > 8 && f->topo.local_tp_size == 2 ? 16384
        : own_few ? (rs_ar ? 1024 : 512)
        : !amd    ? 2048
                  : 4096;
    /* But reduce-scatter + all-reduce in place with a core per rank (other CPUs than AMD's): the
     * baseline from 16 KiB, as callers use it, their input computed anew before each call. Each
     * rank's stores into its input must then take back the lines its peers read in place the call
     * before, and the two-shot mode's readers hold more of them: 16-core Intel guest, input
     * rewritten (vsym-bench fused --touch), the two-shot 0.65-0.97x the baseline's speed at 16
     * KiB-1 MiB on 4, 8 and 16 ranks (but 1.05 once), its stores into the input 1.3-2.1x the
     * baseline's (the input unchanged: the two-shot 1.15-2.44x; results/coll/device-16core-
     * 2026-11-29-stop53). The autotune times its calls that way too (tune_time). */
    if (sym && rs_ar && !shared && !amd && bytes >= 16384 && has_base) return VSYM_FUSED_BASELINE;
    if (sym && bytes >= sym_min && (f->valid_modes & (1u << two))) return two;
    /* All-reduce + all-gather of ordinary buffers: the baseline up to 2 KiB, but with a core per
     * rank on at most 8 ranks of other CPUs than AMD's up to 512 B (the same runs: the two-shot
     * 1.22-1.29x the baseline at 2 KiB, 1.03-1.17x at 1 KiB, 0.83-1.01x at 512 B; AUTO against the
     * build before, four rounds: 1.20-1.25x at 2 KiB and 0.97-1.08x at 1 KiB, against 0.95-1.00x).
     * Where ranks share cores of other CPUs than AMD's, 4-byte and wider elements up to 32 KiB
     * (past one exchange's 8 KiB): the baseline reduces them faster than 2-byte ones. 2-core
     * Intel guest, 4 ranks (2 x 2), six launches each, the baseline's time over the two-shot's: f32
     * at 16-32 KiB 0.77-0.93 (ordinary buffers) and 0.77-0.94 (symmetric, not in place), at 64 KiB
     * 0.92-1.08, from 128 KiB 1.18-1.35; f16 at 8-64 KiB 1.04-1.23, so 2-byte ones keep the
     * two-shot (results/coll/dev-2core-intel-2026-12-03-stop68; stop 51's runs, which set the
     * rule here, measured f16 alone). Stop 59's sixteen launches had the two-shot of f32 at 16-32
     * KiB at 0.76-1.22 (medians 1.03): no fused mode wins there on every day. */
    const size_t base_max = own_few ? 512 : shared && !amd && es >= 4 ? 32768 : 2048;
    if (op == VSYM_FUSED_ALLREDUCE_ALLGATHER && bytes <= base_max)
        return has_base ? VSYM_FUSED_BASELINE : VSYM_FUSED_ONESHOT;
    /* Reduce-scatter + all-reduce: the baseline up to 512 KiB of input, but where ranks share
     * cores of other CPUs than AMD's up to 128 KiB (4 ranks: 256 KiB): 2-core Intel guest (family 6
     * model 167), 4 ranks (2 x 2), f16 and f32, ordinary and symmetric buffers, plain and with the
     * input rewritten and the output read, eight launches each, medians of the baseline's time over
     * the two-shot's 0.96-1.17 at 256 KiB and 1.18-1.29 at 512 KiB (0.94-1.12 at 128 KiB); 8 ranks
     * (2 x 4, 4 x 2), three launches, 1.15-1.29 at 256 KiB, 1.06-1.16 at 512 KiB
     * (results/coll/dev-2core-intel-2026-12-02-stop59). But on 4 ranks up to 256 KiB: stop 68's
     * four launches of each (f16 and f32, ordinary and symmetric, plain and rewritten) had the
     * two-shot at 0.86-1.09 there (medians 0.93-0.99), 1.03-1.28 at 512 KiB
     * (results/coll/dev-2core-intel-2026-12-03-stop68). */
    const size_t rs_base_max = !shared || amd ? (512u << 10)
                               : f->W <= 4    ? (256u << 10)
                                              : (128u << 10);
    if (op == VSYM_FUSED_REDUCESCATTER_ALLREDUCE && (bytes <= rs_base_max || f->W > 8) && has_base)
        return VSYM_FUSED_BASELINE;
    if (f->valid_modes & (1u << VSYM_FUSED_FEWEST_BYTES)) return VSYM_FUSED_FEWEST_BYTES;
    if (f->valid_modes & (1u << VSYM_FUSED_TWOSHOT)) return VSYM_FUSED_TWOSHOT;
    return VSYM_FUSED_ONESHOT;
}

/* Whether the two-shot modes of op on bytes of input run in place (sym: symmetric buffers). */
static int zc_runs(const vsym_fused_t *f, vsym_fused_op_t op, size_t bytes, int sym)
{
    return sym && bytes >= vsym_coll_fused_zc_min(f->coll, op == VSYM_FUSED_ALLREDUCE_ALLGATHER);
}

/* The mode AUTO resolves to without a setting: the tuned one (the table of the kind of
 * buffers), else the rule. */
static vsym_fused_mode_t auto_mode(const vsym_fused_t *f, vsym_fused_op_t op, size_t bytes,
                                   vsym_dtype_t dtype, int sym)
{
    if (f->tuned[sym][dtype]) {
        int m = vsym_coll_tune_lookup(&f->tune[sym][dtype], op, bytes);
        if (m > 0 && (f->valid_modes & (1u << m))) return (vsym_fused_mode_t)m;
    }
    return rule_mode(f, op, bytes, sym, zc_runs(f, op, bytes, sym), vsym_dtype_size(dtype));
}

/* VSYM_FUSED_MODE now: VSYM_FUSED_AUTO when unset or "auto", the mode it names, -1 when it names
 * none. */
static int mode_setting(void)
{
    const char *env = vsym_config_str(VSYM_CFG_FUSED_MODE);
    if (env[0] == '\0' || strcmp(env, "auto") == 0) return VSYM_FUSED_AUTO;
    for (int i = 1; i < VSYM_FUSED_MODE_COUNT; i++)
        if (strcmp(env, mode_names[i]) == 0) return i;
    return -1;
}

VSYM_API vsym_fused_mode_t vsym_fused_select_mode_for(const vsym_fused_t *f, vsym_fused_op_t op,
                                                      const void *in, const void *out, size_t n,
                                                      vsym_dtype_t dtype)
{
    int forced = mode_setting();
    if (forced > 0) return (vsym_fused_mode_t)forced;
    if ((unsigned)dtype >= VSYM_DTYPE_COUNT || (unsigned)op >= VSYM_FUSED_OP_COUNT)
        return VSYM_FUSED_ONESHOT;
    size_t es = vsym_dtype_size(dtype);
    int sym = in_place_buffers(f, op, in, out, n, es, NULL, NULL);
    return auto_mode(f, op, n * in_blocks(f, op) * es, dtype, sym);
}

VSYM_API vsym_fused_mode_t vsym_fused_select_mode(const vsym_fused_t *f, vsym_fused_op_t op,
                                                  size_t n, vsym_dtype_t dtype)
{
    return vsym_fused_select_mode_for(f, op, NULL, NULL, n, dtype);
}

/* VSYM_FUSED_MODE for AUTO calls (f->env_mode), parsed again only when the settings were
 * reloaded: the string compares cost AUTO calls a few ns each, which small calls notice. */
static int env_mode(vsym_fused_t *f)
{
    unsigned long gen = vsym_config_generation();
    if (gen != f->env_gen) {
        f->env_mode = mode_setting();
        f->env_gen = gen;
    }
    return f->env_mode;
}

VSYM_API vsym_status_t vsym_fused_run(vsym_fused_t *f, vsym_fused_op_t op, vsym_fused_mode_t mode,
                                      const void *in, void *out, size_t n, vsym_dtype_t dtype)
{
    if (f == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "fused_run: NULL handler");
    if ((unsigned)op >= VSYM_FUSED_OP_COUNT)
        return VSYM_FAIL(VSYM_ERR_BAD_OP, "fused_run: unknown op %d", (int)op);
    if (!(f->valid_ops & (1u << op)))
        return VSYM_FAIL(VSYM_ERR_BAD_OP,
                         "fused_run: %s is not valid for tp %d x dp %d (local_tp %d local_dp %d "
                         "inter_tp %d inter_dp %d)",
                         op_names[op], f->tp, f->dp, f->topo.local_tp_size, f->topo.local_dp_size,
                         f->topo.inter_tp_size, f->topo.inter_dp_size);
    if ((unsigned)dtype >= VSYM_DTYPE_COUNT)
        return VSYM_FAIL(VSYM_ERR_BAD_DTYPE, "fused_run: unknown dtype %d", (int)dtype);
    size_t es = vsym_dtype_size(dtype), total;
    if (__builtin_mul_overflow(n, es * (size_t)f->W, &total)) /* as vsym_coll_begin's */
        return VSYM_FAIL(VSYM_ERR_BAD_SIZE, "fused_run: count %zu overflows", n);
    if (n > 0 && (in == NULL || out == NULL))
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "fused_run: NULL %s buffer",
                         in ? "output" : "input");
    if ((unsigned)mode >= VSYM_FUSED_MODE_COUNT)
        return VSYM_FAIL(VSYM_ERR_BAD_MODE, "fused_run: unknown mode %d", (int)mode);
    vsym_coll_publish_share(f->coll);
    const vsym_coll_buf_t *ib = NULL, *ob = NULL;
    const int sym = in_place_buffers(f, op, in, out, n, es, &ib, &ob);
    if (mode == VSYM_FUSED_AUTO) {
        int forced = env_mode(f);
        if (forced < 0)
            VSYM_TRY(vsym_fused_mode_from_name(vsym_config_str(VSYM_CFG_FUSED_MODE), &mode));
        else
            mode = (vsym_fused_mode_t)forced;
        if (mode == VSYM_FUSED_AUTO) {
            const size_t bytes = n * in_blocks(f, op) * es;
            if (f->auto_last.op == (int)op && f->auto_last.bytes == bytes &&
                f->auto_last.dtype == (int)dtype && f->auto_last.sym == sym &&
                f->auto_last.gen == f->env_gen) {
                mode = f->auto_last.mode;
            } else {
                mode = auto_mode(f, op, bytes, dtype, sym);
                f->auto_last.op = (int)op;
                f->auto_last.dtype = (int)dtype;
                f->auto_last.sym = sym;
                f->auto_last.bytes = bytes;
                f->auto_last.gen = f->env_gen;
                f->auto_last.mode = mode;
            }
        }
    }
    if (!(f->valid_modes & (1u << mode)))
        return VSYM_FAIL(VSYM_ERR_BAD_MODE,
                         "fused_run: mode %s is not valid for local_tp %d local_dp %d inter_tp %d "
                         "inter_dp %d",
                         mode_names[mode], f->topo.local_tp_size, f->topo.local_dp_size,
                         f->topo.inter_tp_size, f->topo.inter_dp_size);
    const size_t inb = n * in_blocks(f, op) * es, outb = n * out_blocks(f, op) * es;
    if (n > 0 && (const char *)in < (const char *)out + outb &&
        (const char *)out < (const char *)in + inb)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                         "fused_run: the input (%zu bytes at %p) and the output (%zu bytes at %p) "
                         "overlap",
                         inb, in, outb, out);
    if (n == 0) return VSYM_OK;
    if ((mode == VSYM_FUSED_TWOSHOT || mode == VSYM_FUSED_FEWEST_BYTES) &&
        zc_runs(f, op, inb, sym)) {
        f->in_place_runs++;
        return run_zerocopy(f, op, ib, in, ob, out, n, dtype);
    }
    if (mode != VSYM_FUSED_BASELINE) vsym_coll_rtt_shared(f->coll, inb);
    switch (mode) {
    case VSYM_FUSED_BASELINE:
        return run_baseline(f, op, in, out, n, dtype, sym);
    case VSYM_FUSED_TWOSHOT:
        return run_twophase(f, op, in, out, n, dtype, 0);
    case VSYM_FUSED_FEWEST_BYTES:
        return run_twophase(f, op, in, out, n, dtype, 1);
    default:
        return run_oneshot(f, op, in, out, n, dtype);
    }
}

/* ---- Autotune ----------------------------------------------------------------------------- */

/* The autotune times each call as a caller makes it: a store into every line of the input
 * before (vsym_util_store_lines, the same bytes back), as a caller that computed it anew leaves
 * it: modified in this core's cache, no longer in the peers' that read it the call before. The
 * modes that read the peers' inputs in place pay there for the copies they left in the peers'
 * caches. 16-core Intel guest, 4-16 ranks, one launch each way (vsym-bench fused with and without
 * --touch): reduce-scatter + all-reduce of symmetric buffers in place (the two-shot) 1.15-2.44x
 * the baseline's speed at 4 KiB-1 MiB with the input unchanged, 0.65-0.97x at 16 KiB-1 MiB
 * rewritten (results/coll/device-16core-2026-11-29-stop53); timed with unchanged inputs the
 * table chose it there. And a load of every line of the output after (vsym_util_load_lines), as
 * a caller that uses the result does: the modes that push their sums into the peers' outputs
 * (the two-shot modes in place) leave those lines in the pushers' caches, and the reader pays for
 * them there. 2-vCPU Intel guest, 4 ranks (2 x 2), f16, the input rewritten before each call,
 * medians of four launches (vsym-bench fused --touch, with and without --consume): all-reduce +
 * all-gather of symmetric buffers in place (the two-shot) at 4-16 KiB 6.2-13.1 us without the
 * load, 9.1-22.0 us with it, where the one-shot's (each rank copying its output from the scratch)
 * stays 5.9-15.2 (results/coll/dev-2core-intel-2026-11-29-stop54). */

/* One timing of the autotune: runs calls of mode after one untimed call and a barrier, each after
 * a store into every line of its input and before a load of every line of its output (above),
 * both timed; the slowest rank's time per call, the same on every rank. */
static vsym_status_t tune_time(vsym_fused_t *f, vsym_fused_op_t op, vsym_fused_mode_t mode,
                               char *in, char *out, size_t n, vsym_dtype_t dtype, int runs,
                               double *times, double *t_p)
{
    const size_t es = vsym_dtype_size(dtype), inb = n * in_blocks(f, op) * es,
                 outb = n * out_blocks(f, op) * es;
    vsym_util_store_lines(in, inb);
    VSYM_TRY(vsym_fused_run(f, op, mode, in, out, n, dtype));
    vsym_util_load_lines(out, outb);
    VSYM_TRY(vsym_coll_barrier(f->coll));
    uint64_t t0 = vsym_util_time_ns();
    for (int i = 0; i < runs; i++) {
        vsym_util_store_lines(in, inb);
        VSYM_TRY(vsym_fused_run(f, op, mode, in, out, n, dtype));
        vsym_util_load_lines(out, outb);
    }
    double t = (double)(vsym_util_time_ns() - t0) / 1e3 / runs;
    VSYM_TRY(vsym_team_exchange(f->world, &t, sizeof(t), times));
    for (int r = 0; r < f->W; r++)
        if (times[r] > t) t = times[r];
    *t_p = t;
    return VSYM_OK;
}

/* Rounds of the valid modes of mask, in turns whose order rotates per round, into rt. */
static vsym_status_t tune_rounds(vsym_fused_t *f, vsym_fused_op_t op, unsigned mask, char *in,
                                 char *out, size_t n, vsym_dtype_t dtype, int runs, double *times,
                                 double rt[][VSYM_TUNE_ROUNDS])
{
    for (int round = 0; round < VSYM_TUNE_ROUNDS; round++)
        for (int mi = 0; mi < VSYM_FUSED_MODE_COUNT - 1; mi++) {
            int mode = 1 + (mi + round) % (VSYM_FUSED_MODE_COUNT - 1);
            if (!(mask & (1u << mode))) continue;
            VSYM_TRY(tune_time(f, op, (vsym_fused_mode_t)mode, in, out, n, dtype, runs, times,
                               &rt[mode][round]));
        }
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_fused_autotune(vsym_fused_t *f, vsym_dtype_t dtype, int min_log2,
                                           int max_log2, int iters)
{
    if (f == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "fused_autotune: NULL handler");
    size_t es = vsym_dtype_size(dtype);
    if (es == 0)
        return VSYM_FAIL(VSYM_ERR_BAD_DTYPE, "fused_autotune: unknown dtype %d", (int)dtype);
    if (min_log2 < 0 || max_log2 > 30 || min_log2 > max_log2 || iters < 1)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                         "fused_autotune: sizes 2^%d..2^%d or %d iterations out of range", min_log2,
                         max_log2, iters);
    size_t maxin = (size_t)1 << max_log2, maxout = maxin * (size_t)f->dp;
    char *heap_in = malloc(maxin), *heap_out = malloc(maxout), *in = heap_in, *out = heap_out;
    void *sym_in = NULL, *sym_out = NULL;
    double *times = malloc((size_t)f->W * sizeof(double));
    vsym_status_t st = VSYM_OK;
    if (!in || !out || !times) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "fused_autotune: no memory for %zu bytes", maxout);
        goto out;
    }
    /* The inputs hold values, 0x3c in every byte: normal numbers of every dtype (f16 1.06, f32
     * and bf16 0.0115), whose sums stay normal, written before any timing, so that the timings
     * read memory as a caller's input is read (an input left as calloc's, never written, is read
     * from the kernel's one zero page, which stays in the first-level cache). On the 2-vCPU
     * Intel guest of stop 51 this changed no choice measurably: six launches with fresh tables
     * each way, 4 ranks, 16 KiB-1 MiB, the same modes but for 1-2 of 6 tables at a size either
     * way (results/coll/dev-2core-intel-2026-11-29-stop51). */
    memset(in, 0x3c, maxin);
    /* Ordinary buffers, then (where the two-shot modes can run in place) symmetric ones. */
    const int kinds = f->coll->all_direct && f->W > 1 ? 2 : 1;
    for (int k = 0; k < kinds; k++) {
        if (k == 1) {
            if ((st = vsym_fused_buffer_alloc(f, maxin, &sym_in)) != VSYM_OK ||
                (st = vsym_fused_buffer_alloc(f, maxout, &sym_out)) != VSYM_OK)
                goto out;
            memset(sym_in, 0x3c, maxin);
            in = sym_in;
            out = sym_out;
        }
        for (int op = 0; op < VSYM_FUSED_OP_COUNT; op++) {
            if (!(f->valid_ops & (1u << op))) continue;
            for (int b = min_log2; b <= max_log2; b++) {
                size_t n = ((size_t)1 << b) / es / in_blocks(f, (vsym_fused_op_t)op);
                if (n == 0) continue;
                int best;
                double best_t, rt[VSYM_FUSED_MODE_COUNT][VSYM_TUNE_ROUNDS];
                /* Small sizes get more runs (the same count on every rank). Five rounds with the
                 * modes interleaved in an order that rotates per round damp the noise of a shared
                 * machine: the times of one round are taken moments apart, so a fused mode is
                 * compared with the baseline round by round (vsym_coll_tune_pick). (With three
                 * rounds and each mode's best round, one-shot won the tuning at 8 ranks, 256 B,
                 * then ran 0.84x the baseline in vsym-bench fused;
                 * results/coll/device-16core-2026-11-25-stop18.) */
                int runs = iters * (1 + (int)(((size_t)1 << 16) / (((size_t)1 << b) + 4096)));
                st = tune_rounds(f, (vsym_fused_op_t)op, f->valid_modes, in, out, n, dtype, runs,
                                 times, rt);
                if (st != VSYM_OK) goto out;
                best = vsym_coll_tune_pick(rt, f->valid_modes, &best_t);
                /* The table departs from AUTO's rule only where the measurements say so twice:
                 * a mode other than the rule's that won these rounds is timed against the rule's
                 * once more, in five rounds of the two alone, and kept only if it is faster
                 * there too. One set of rounds on a machine whose ranks share cores is noisy
                 * both ways (2-core host, 4 ranks, a fresh table in each launch of vsym-bench
                 * fused: 9 of 145 rows where AUTO ran a fused mode came out under 0.90 of the
                 * baseline's speed, with a second look at every fused winner 6 of 144 (the
                 * noise floor: 6 of 216 where AUTO ran the baseline itself), but then AUTO ran
                 * the baseline in 2-3 of 6 launches at 512 B where the one-shot, the rule's
                 * choice, made 1.1-1.6x. Starting from the rule, both pairs up to 1 KiB: 1.19-1.51x
                 * the baseline against 1.01-1.43x, medians of six launches per row, and no row
                 * under 0.99 at 8 B-1 MiB; results/coll/dev-2core-zen4-2026-11-27-stop39). */
                int rule = rule_mode(f, (vsym_fused_op_t)op, (size_t)1 << b, k,
                                     zc_runs(f, (vsym_fused_op_t)op, (size_t)1 << b, k),
                                     vsym_dtype_size(dtype));
                if (best != rule && (f->valid_modes & (1u << rule))) {
                    double rt2[VSYM_FUSED_MODE_COUNT][VSYM_TUNE_ROUNDS];
                    st = tune_rounds(f, (vsym_fused_op_t)op, (1u << rule) | (1u << best), in, out,
                                     n, dtype, runs, times, rt2);
                    if (st != VSYM_OK) goto out;
                    if (!vsym_coll_tune_confirm(rt2, best, rule)) {
                        best = rule;
                        best_t = vsym_coll_tune_median(rt2, rule);
                    }
                }
                f->tune[k][dtype].mode[op][b] = (signed char)best;
                f->tune[k][dtype].time_us[op][b] = (float)best_t;
            }
        }
        f->tuned[k][dtype] = 1;
        f->auto_last.op = -1;
        const char *file = vsym_config_str(VSYM_CFG_AUTOTUNE_FILE);
        if (file[0] != '\0' && f->me == 0) st = vsym_coll_tune_save(&f->tune[k][dtype], file);
        if (st != VSYM_OK) goto out;
    }
out:
    if (sym_out) vsym_fused_buffer_free(f, sym_out);
    if (sym_in) vsym_fused_buffer_free(f, sym_in);
    free(times);
    free(heap_out);
    free(heap_in);
    return st;
}

VSYM_API vsym_status_t vsym_fused_autotune_save(const vsym_fused_t *f, const char *path)
{
    if (f == NULL || path == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "autotune_save: NULL argument");
    for (int k = 0; k < 2; k++)
        for (int d = 0; d < VSYM_DTYPE_COUNT; d++)
            if (f->tuned[k][d]) VSYM_TRY(vsym_coll_tune_save(&f->tune[k][d], path));
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_fused_autotune_load(vsym_fused_t *f, const char *path)
{
    if (f == NULL || path == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "autotune_load: NULL argument");
    vsym_status_t st = VSYM_ERR_NOT_FOUND;
    for (int k = 0; k < 2; k++)
        for (int d = 0; d < VSYM_DTYPE_COUNT; d++) {
            vsym_tune_table_t t = f->tune[k][d];
            vsym_status_t s1 = vsym_coll_tune_load(&t, path);
            if (s1 == VSYM_OK) {
                f->tune[k][d] = t;
                f->tuned[k][d] = 1;
                f->auto_last.op = -1;
                st = VSYM_OK;
            } else if (s1 == VSYM_ERR_IO) {
                return s1;
            }
        }
    if (st != VSYM_OK)
        return vsym_util_fail_quiet(st, "autotune: %s has no table for this topology and host",
                                    path);
    return VSYM_OK;
}

int vsym_coll_fused_last_auto(const vsym_fused_t *f)
{
    return f->auto_last.op >= 0 ? (int)f->auto_last.mode : -1;
}

/* Whether dtype has a tuned table (internal: the bench decides whether to tune first). */
int vsym_coll_fused_tuned(const vsym_fused_t *f, vsym_dtype_t dtype)
{
    return (unsigned)dtype < VSYM_DTYPE_COUNT && f->tuned[0][dtype];
}
