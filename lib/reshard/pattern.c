/* Test patterns for resharding: a value per element that depends only on the parameter and the
 * element's global index, so a destination shard can be checked without the source. */
#include <string.h>
#include "util/util.h"
#include "reshard/reshard_internal.h"

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

typedef struct shard_walk {
    const reshard_param_t *p;
    int held;
    int64_t local[VSYM_RESHARD_MAX_DIMS];
    vsym_reshard_piece_t pieces[256];
    int num_pieces;
    uint64_t hash;
    uint64_t outer, inner; /* elements before / after the partition dim */
} shard_walk_t;

static vsym_status_t shard_open(const vsym_reshard_model_t *m, const vsym_reshard_layout_t *l,
                                int rank, int t, shard_walk_t *w)
{
    vsym_status_t st =
        vsym_reshard_local_shard(m, l, rank, t, &w->held, w->local, w->pieces, 256, &w->num_pieces);
    if (st != VSYM_OK) return st;
    if (!w->held) return VSYM_OK;
    if (w->num_pieces > 256)
        return VSYM_FAIL(VSYM_ERR_UNSUPPORTED, "reshard pattern: tensor %d has %d blocks (> 256)",
                         t, w->num_pieces);
    w->p = &m->params[m->tensor_param[t]];
    /* A tied tensor carries the data of the tensor it is tied to. */
    char name[512];
    int ident = w->p->tied_to >= 0 ? m->params[w->p->tied_to].first_tensor : t;
    w->hash = name_hash(vsym_reshard_tensor_name(m, ident, name, sizeof(name)));
    int pd = w->p->partition_dim < 0 ? 0 : w->p->partition_dim;
    w->outer = w->inner = 1;
    for (int d = 0; d < w->p->ndim; d++) {
        if (d < pd)
            w->outer *= (uint64_t)w->local[d];
        else if (d > pd)
            w->inner *= (uint64_t)w->local[d];
    }
    return VSYM_OK;
}

/* Call fn for every element: local linear index and its pattern value. */
#define SHARD_FOR_EACH(w, LOCAL, VALUE, BODY)                                                      \
    do {                                                                                           \
        int pd_ = (w)->p->partition_dim < 0 ? 0 : (w)->p->partition_dim;                           \
        uint64_t gpd_ = (uint64_t)(w)->p->shape[pd_], lpd_ = (uint64_t)(w)->local[pd_];            \
        for (uint64_t o_ = 0; o_ < (w)->outer; o_++) {                                             \
            for (int k_ = 0; k_ < (w)->num_pieces; k_++) {                                         \
                const vsym_reshard_piece_t *pc_ = &(w)->pieces[k_];                                \
                for (int64_t j_ = 0; j_ < pc_->length; j_++) {                                     \
                    uint64_t lrow_ = o_ * lpd_ + (uint64_t)(pc_->local_offset + j_);               \
                    uint64_t grow_ = o_ * gpd_ + (uint64_t)(pc_->global_offset + j_);              \
                    for (uint64_t i_ = 0; i_ < (w)->inner; i_++) {                                 \
                        uint64_t LOCAL = lrow_ * (w)->inner + i_;                                  \
                        uint64_t VALUE = mix64((w)->hash ^ mix64(grow_ * (w)->inner + i_));        \
                        BODY;                                                                      \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    } while (0)

VSYM_API size_t vsym_reshard_shard_bytes(const vsym_reshard_model_t *m,
                                         const vsym_reshard_layout_t *l, int rank, int t)
{
    int held, np;
    int64_t shape[VSYM_RESHARD_MAX_DIMS];
    if (vsym_reshard_local_shard(m, l, rank, t, &held, shape, NULL, 0, &np) != VSYM_OK || !held)
        return 0;
    const reshard_param_t *p = &m->params[m->tensor_param[t]];
    size_t n = p->elem_size;
    for (int d = 0; d < p->ndim; d++)
        n *= (size_t)shape[d];
    return n;
}

VSYM_API vsym_status_t vsym_reshard_pattern_fill(const vsym_reshard_model_t *m,
                                                 const vsym_reshard_layout_t *l, int rank, int t,
                                                 void *buf)
{
    shard_walk_t w;
    vsym_status_t st = shard_open(m, l, rank, t, &w);
    if (st != VSYM_OK || !w.held) return st;
    size_t es = w.p->elem_size;
    unsigned char *b = buf;
    SHARD_FOR_EACH(&w, li, v, memcpy(b + li * es, &v, es));
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_reshard_pattern_check(const vsym_reshard_model_t *m,
                                                  const vsym_reshard_layout_t *l, int rank, int t,
                                                  const void *buf, uint64_t *wrong_p,
                                                  int64_t *first_p)
{
    shard_walk_t w;
    vsym_status_t st = shard_open(m, l, rank, t, &w);
    if (st != VSYM_OK) return st;
    uint64_t wrong = 0;
    int64_t first = -1;
    if (w.held) {
        size_t es = w.p->elem_size;
        const unsigned char *b = buf;
        SHARD_FOR_EACH(&w, li, v, {
            if (memcmp(b + li * es, &v, es) != 0) {
                if (first < 0 || (int64_t)li < first) first = (int64_t)li;
                wrong++;
            }
        });
    }
    if (wrong_p) *wrong_p = wrong;
    if (first_p) *first_p = first;
    return VSYM_OK;
}
