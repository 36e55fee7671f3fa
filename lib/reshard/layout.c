/* Parallel layouts: parsing "tp=8,pp=4,dp=2", the rules against a world size and a model, and
 * the rank arithmetic (dense tp x dp x pp and expert etp x ep x edp x pp decompositions). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "reshard/reshard_internal.h"

static vsym_status_t bad_layout(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static vsym_status_t bad_layout(const char *fmt, ...)
{
    char buf[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return vsym_util_fail_quiet(VSYM_ERR_BAD_LAYOUT, "%s", buf);
}

static vsym_status_t parse_order(const char *text, const char *all, char order[5])
{
    char buf[64];
    snprintf(buf, sizeof(buf), "%s", text);
    int n = 0, seen_e = 0;
    char tmp[5] = {0};
    for (char *save = NULL, *tok = strtok_r(buf, "-", &save); tok;
         tok = strtok_r(NULL, "-", &save)) {
        char c = strcmp(tok, "tp") == 0   ? 'T'
                 : strcmp(tok, "dp") == 0 ? 'D'
                 : strcmp(tok, "pp") == 0 ? 'P'
                 : strcmp(tok, "ep") == 0 ? 'E'
                                          : 0;
        if (!c)
            return bad_layout("layout \"%s\": order: unknown dimension \"%s\" (tp, ep, dp, pp)",
                              all, tok);
        if (n == 4 || strchr(tmp, c))
            return bad_layout("layout \"%s\": order: \"%s\" given twice", all, tok);
        tmp[n++] = c;
        seen_e |= c == 'E';
    }
    if (n != 3 + seen_e || !strchr(tmp, 'T') || !strchr(tmp, 'D') || !strchr(tmp, 'P'))
        return bad_layout("layout \"%s\": order must name tp, dp and pp once each (ep optional)",
                          all);
    /* Without ep, the expert-parallel dimension sits just before dp (Megatron: tp-ep-dp-pp). */
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!seen_e && tmp[i] == 'D') order[k++] = 'E';
        order[k++] = tmp[i];
    }
    order[4] = '\0';
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_reshard_layout_parse(const char *text, vsym_reshard_layout_t *layout_p)
{
    if (!text || !layout_p) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "layout_parse: NULL argument");
    vsym_reshard_layout_t l = {.tp = 1, .pp = 1, .dp = 0, .ep = 1, .etp = 0, .first_rank = 0};
    memcpy(l.order, "TEDP", 5);
    char buf[256];
    if (strlen(text) >= sizeof(buf)) return bad_layout("layout \"%.40s...\": too long", text);
    snprintf(buf, sizeof(buf), "%s", text);
    unsigned seen = 0;
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1])
            return bad_layout("layout \"%s\": \"%s\" is not key=value", text, item);
        *eq = '\0';
        const char *key = item, *value = eq + 1;
        static const char *const keys[] = {"tp", "pp", "dp", "ep", "etp", "order", "first", NULL};
        int k = 0;
        while (keys[k] && strcmp(keys[k], key) != 0)
            k++;
        if (!keys[k])
            return bad_layout("layout \"%s\": unknown key \"%s\" (tp, pp, dp, ep, etp, order, "
                              "first)",
                              text, key);
        if (seen & (1u << k)) return bad_layout("layout \"%s\": \"%s\" given twice", text, key);
        seen |= 1u << k;
        if (k == 5) {
            vsym_status_t st = parse_order(value, text, l.order);
            if (st != VSYM_OK) return st;
            continue;
        }
        char *end;
        long v = strtol(value, &end, 10);
        if (*end || v < (k == 6 ? 0 : 1) || v > (1 << 24))
            return bad_layout("layout \"%s\": %s=%s is not a %s integer", text, key, value,
                              k == 6 ? "non-negative" : "positive");
        int *dst[] = {&l.tp, &l.pp, &l.dp, &l.ep, &l.etp, NULL, &l.first_rank};
        *dst[k] = (int)v;
    }
    *layout_p = l;
    return VSYM_OK;
}

VSYM_API const char *vsym_reshard_layout_format(const vsym_reshard_layout_t *l, char *buf,
                                                size_t len)
{
    char order[32] = "";
    for (int i = 0; i < 4; i++) {
        const char *n = l->order[i] == 'T'   ? "tp"
                        : l->order[i] == 'E' ? "ep"
                        : l->order[i] == 'D' ? "dp"
                                             : "pp";
        strcat(order, n);
        if (i < 3) strcat(order, "-");
    }
    int n = snprintf(buf, len, "tp=%d,pp=%d,dp=%d,ep=%d,etp=%d,order=%s", l->tp, l->pp, l->dp,
                     l->ep, l->etp ? l->etp : l->tp, order);
    if (l->first_rank && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ",first=%d", l->first_rank);
    return buf;
}

void vsym_reshard_grid(const vsym_reshard_layout_t *l, reshard_grid_t *g)
{
    memset(g, 0, sizeof(*g));
    g->tp = l->tp, g->pp = l->pp, g->dp = l->dp, g->ep = l->ep;
    g->etp = l->etp ? l->etp : l->tp;
    g->world = l->tp * l->pp * l->dp;
    g->first = l->first_rank;
    g->edp = g->etp * g->ep > 0 ? l->tp * l->dp / (g->etp * g->ep) : 0;
    int dense = 1, expert = 1;
    for (int i = 0; i < 4; i++) {
        switch (l->order[i]) {
        case 'T':
            g->s_tp = dense, dense *= g->tp;
            g->s_etp = expert, expert *= g->etp;
            break;
        case 'E':
            g->s_ep = expert, expert *= g->ep;
            break;
        case 'D':
            g->s_dp = dense, dense *= g->dp;
            g->s_edp = expert, expert *= g->edp;
            break;
        default:
            g->s_pp = dense, dense *= g->pp;
            g->s_epp = expert, expert *= g->pp;
            break;
        }
    }
}

void vsym_reshard_coords(const reshard_grid_t *g, int rank, reshard_coords_t *c)
{
    int r = rank - g->first;
    if (r < 0 || r >= g->world) {
        *c = (reshard_coords_t){-1, -1, -1, -1, -1, -1};
        return;
    }
    c->tp = r / g->s_tp % g->tp;
    c->dp = r / g->s_dp % g->dp;
    c->pp = r / g->s_pp % g->pp;
    c->etp = r / g->s_etp % g->etp;
    c->ep = r / g->s_ep % g->ep;
    c->edp = r / g->s_edp % g->edp;
}

int vsym_reshard_materialised(const vsym_reshard_model_t *m, const reshard_param_t *p, int pp)
{
    if (p->tied_to < 0) return 1;
    return vsym_reshard_stage_of(m, p, pp) != vsym_reshard_stage_of(m, &m->params[p->tied_to], pp);
}

VSYM_API vsym_status_t vsym_reshard_layout_check(vsym_reshard_layout_t *l, int world,
                                                 const vsym_reshard_model_t *m)
{
    if (!l) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "layout_check: NULL layout");
    char desc[128];
    if (world < 1) return bad_layout("world size %d: must be positive", world);
    if (l->dp == 0) {
        if (world % (l->tp * l->pp) != 0)
            return bad_layout("layout tp=%d,pp=%d: tp*pp=%d must divide the world size %d", l->tp,
                              l->pp, l->tp * l->pp, world);
        l->dp = world / (l->tp * l->pp);
    }
    if (l->etp == 0) l->etp = l->tp;
    vsym_reshard_layout_format(l, desc, sizeof(desc));
    if ((int64_t)l->tp * l->pp * l->dp != world)
        return bad_layout("layout %s: tp*pp*dp must equal the world size (%" PRId64 " != %d)", desc,
                          (int64_t)l->tp * l->pp * l->dp, world);
    if ((l->tp * l->dp) % (l->etp * l->ep) != 0)
        return bad_layout("layout %s: etp*ep must divide tp*dp (%d does not divide %d): EP is "
                          "carved out of the data-parallel ranks",
                          desc, l->etp * l->ep, l->tp * l->dp);
    reshard_grid_t g;
    vsym_reshard_grid(l, &g);
    if (l->pp > 1) {
        /* The pipeline stage of a rank must be the same in both decompositions: the ranks of
         * one stage hold that stage's dense and expert parameters alike. */
        if (g.s_pp != g.s_epp)
            return bad_layout("layout %s: pipeline stage must agree between the dense and expert "
                              "rank orders (the dimensions before pp span %d ranks dense, %d "
                              "expert)",
                              desc, g.s_pp, g.s_epp);
    }
    if (!m) return VSYM_OK;
    if (m->num_layers > 0 && l->pp > m->num_layers)
        return bad_layout("layout %s: pp must not exceed the layers (pp=%d, model %s has %d "
                          "layers)",
                          desc, l->pp, m->name, m->num_layers);
    if (m->num_layers == 0 && l->pp > 2)
        return bad_layout("layout %s: pp must not exceed the layers (model %s has none: pp <= 2)",
                          desc, m->name);
    int has_experts = 0;
    for (int i = 0; i < m->num_params; i++) {
        const reshard_param_t *p = &m->params[i];
        if (p->num_experts > 0) {
            has_experts = 1;
            if (p->num_experts % l->ep != 0)
                return bad_layout("layout %s: ep must divide the experts (ep=%d, %s has %d)", desc,
                                  l->ep, p->name, p->num_experts);
        }
        if (p->partition_dim < 0) continue;
        int w = p->num_experts > 0 ? l->etp : l->tp;
        for (int b = 0; b < p->num_blocks; b++) {
            if (p->blocks[b] % w != 0) {
                if (p->num_blocks == 1)
                    return bad_layout("layout %s: %s must divide the partitioned dimension "
                                      "(dim %d of %s is %" PRId64 ")",
                                      desc, p->num_experts > 0 ? "etp" : "tp", p->partition_dim,
                                      p->name, p->blocks[b]);
                return bad_layout("layout %s: %s must divide the partitioned dimension (block "
                                  "%d of dim %d of %s is %" PRId64 ")",
                                  desc, p->num_experts > 0 ? "etp" : "tp", b, p->partition_dim,
                                  p->name, p->blocks[b]);
            }
        }
    }
    if (!has_experts && l->ep > 1)
        return bad_layout("layout %s: ep > 1 needs a model with experts (%s has none)", desc,
                          m->name);
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_reshard_local_shard(const vsym_reshard_model_t *m,
                                                const vsym_reshard_layout_t *l, int rank, int t,
                                                int *held_p, int64_t *local_shape,
                                                vsym_reshard_piece_t *pieces, int max_pieces,
                                                int *num_pieces_p)
{
    if (!m || !l || !held_p || t < 0 || t >= m->num_tensors)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "local_shard: bad argument (tensor %d)", t);
    const reshard_param_t *p = &m->params[m->tensor_param[t]];
    reshard_grid_t g;
    vsym_reshard_grid(l, &g);
    reshard_coords_t c;
    vsym_reshard_coords(&g, rank, &c);
    int held = c.pp >= 0 && c.pp == vsym_reshard_stage_of(m, p, l->pp) &&
               vsym_reshard_materialised(m, p, l->pp);
    int expert = p->num_experts > 0 ? t - p->first_tensor : -1;
    if (held && expert >= 0) held = c.ep == expert / (p->num_experts / g.ep);
    *held_p = held;
    if (num_pieces_p) *num_pieces_p = 0;
    if (!held) return VSYM_OK;
    int w = expert >= 0 ? g.etp : g.tp;
    int s = expert >= 0 ? c.etp : c.tp;
    if (local_shape) {
        for (int d = 0; d < p->ndim; d++)
            local_shape[d] = d == p->partition_dim ? p->shape[d] / w : p->shape[d];
    }
    if (p->partition_dim < 0) {
        if (max_pieces > 0 && pieces)
            pieces[0] = (vsym_reshard_piece_t){0, 0, p->ndim > 0 ? p->shape[0] : 1};
        if (num_pieces_p) *num_pieces_p = 1;
        return VSYM_OK;
    }
    int64_t goff = 0, loff = 0;
    for (int b = 0; b < p->num_blocks; b++) {
        int64_t part = p->blocks[b] / w;
        if (b < max_pieces && pieces)
            pieces[b] = (vsym_reshard_piece_t){goff + s * part, loff, part};
        goff += p->blocks[b];
        loff += part;
    }
    if (num_pieces_p) *num_pieces_p = p->num_blocks;
    return VSYM_OK;
}
