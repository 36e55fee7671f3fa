/* The copy service's scheduler: segmenting, packing and the bipartite edge colouring. Pure: no
 * communication, no global state (see schedule.h). */
#include <stdlib.h>
#include <string.h>
#include "copy/schedule.h"
#include "util/util.h"

/* qsort has no context argument in C11; the task array is passed through this thread-local. */
static _Thread_local const vsym_copy_sched_task_t *sort_tasks;

static int cmp_task_order(const void *a, const void *b)
{
    const vsym_copy_sched_task_t *x = &sort_tasks[*(const uint32_t *)a];
    const vsym_copy_sched_task_t *y = &sort_tasks[*(const uint32_t *)b];
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return 0;
}

static _Thread_local const vsym_copy_batch_t *sort_batches;

/* Largest batch first; equal sizes in (src, dst, seq) order, which is the index order. */
static int cmp_edge_order(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    if (sort_batches[i].bytes != sort_batches[j].bytes)
        return sort_batches[i].bytes > sort_batches[j].bytes ? -1 : 1;
    return i < j ? -1 : (i > j);
}

static _Thread_local const uint64_t *sort_colour_max;

static int cmp_colour_order(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    if (sort_colour_max[i] != sort_colour_max[j])
        return sort_colour_max[i] > sort_colour_max[j] ? -1 : 1;
    return i < j ? -1 : (i > j);
}

void vsym_copy_sched_free(vsym_copy_sched_t *s)
{
    if (s == NULL) return;
    free(s->pieces);
    free(s->batches);
    free(s->send_of);
    free(s->recv_of);
    free(s->iter_bytes);
    free(s->iter_max_bytes);
    free(s->iter_batches);
    memset(s, 0, sizeof(*s));
}

static int grow(void **array, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 1;
    size_t ncap = *cap ? *cap * 2 : 64;
    while (ncap < need)
        ncap *= 2;
    void *p = realloc(*array, ncap * elem);
    if (p == NULL) return 0;
    *array = p;
    *cap = ncap;
    return 1;
}

/* Segment and pack: cut the stream of each (src, dst) pair every chunk bytes. */
static vsym_status_t pack(const vsym_copy_sched_task_t *tasks, const uint32_t *order,
                          size_t nremote, vsym_copy_sched_t *s)
{
    size_t piece_cap = 0, batch_cap = 0;
    /* The open batch by index: the array moves when it grows. */
    size_t cur_i = SIZE_MAX;
    vsym_copy_batch_t *cur;
    for (size_t k = 0; k < nremote; k++) {
        const vsym_copy_sched_task_t *t = &tasks[order[k]];
        if (cur_i != SIZE_MAX &&
            (s->batches[cur_i].src != t->src || s->batches[cur_i].dst != t->dst))
            cur_i = SIZE_MAX; /* a new pair starts a new stream */
        uint64_t off = 0;
        uint32_t seg = 0;
        while (off < t->size) {
            if (cur_i == SIZE_MAX || s->batches[cur_i].bytes == s->chunk) {
                if (!grow((void **)&s->batches, &batch_cap, s->num_batches + 1,
                          sizeof(*s->batches)))
                    return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory for batches");
                uint32_t seq = (cur_i != SIZE_MAX) ? s->batches[cur_i].seq + 1 : 0;
                cur_i = s->num_batches++;
                s->batches[cur_i] = (vsym_copy_batch_t){.src = t->src,
                                                        .dst = t->dst,
                                                        .seq = seq,
                                                        .first_piece = (uint32_t)s->num_pieces};
            }
            cur = &s->batches[cur_i];
            uint64_t take = t->size - off;
            if (take > s->chunk - cur->bytes) take = s->chunk - cur->bytes;
            if (!grow((void **)&s->pieces, &piece_cap, s->num_pieces + 1, sizeof(*s->pieces)))
                return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory for pieces");
            s->pieces[s->num_pieces++] = (vsym_copy_piece_t){.task = order[k],
                                                             .segment = seg,
                                                             .task_offset = off,
                                                             .size = take,
                                                             .batch_offset = cur->bytes};
            cur->num_pieces++;
            cur->bytes += take;
            off += take;
            seg++;
        }
        if (seg > 1) s->num_segmented++;
    }
    return VSYM_OK;
}

/* Edge colouring of the bipartite multigraph: vertex r is sender r, vertex n + r receiver r.
 * used[v] is a bitset of the colours present at v, at[v * delta + c] the edge of colour c at v.
 * For each edge (u, w): a colour free at both ends is taken if there is one; otherwise, with a
 * free at u and b free at w, the path from w alternating a, b, a, ... has its colours swapped.
 * In a bipartite graph that path cannot reach u (it would close an odd cycle), so afterwards a
 * is free at both ends. Every vertex has degree <= delta, so some colour is always free at each
 * end: exactly delta colours. */
static vsym_status_t colour(vsym_copy_sched_t *s, uint32_t *colour_of)
{
    const size_t n = (size_t)s->nranks, nv = 2 * n, d = s->delta, E = s->num_batches;
    const size_t words = (d + 63) / 64;
    vsym_status_t st = VSYM_OK;
    uint64_t *used = calloc(nv * words, sizeof(uint64_t));
    int32_t *at = malloc(nv * d * sizeof(int32_t));
    uint32_t *edge_order = malloc(E * sizeof(uint32_t));
    uint32_t *path = malloc((nv + 1) * sizeof(uint32_t));
    if (used == NULL || at == NULL || edge_order == NULL || path == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory for the colouring");
        goto out;
    }
    for (size_t i = 0; i < nv * d; i++)
        at[i] = -1;
    for (size_t e = 0; e < E; e++)
        edge_order[e] = (uint32_t)e;
    sort_batches = s->batches;
    qsort(edge_order, E, sizeof(uint32_t), cmp_edge_order);

#define END_U(e) ((size_t)s->batches[e].src)
#define END_W(e) (n + (size_t)s->batches[e].dst)
#define SET(v, c, e)                                                                               \
    do {                                                                                           \
        at[(v)*d + (c)] = (int32_t)(e);                                                            \
        used[(v)*words + (c) / 64] |= 1ull << ((c) % 64);                                          \
    } while (0)
#define CLEAR(v, c)                                                                                \
    do {                                                                                           \
        at[(v)*d + (c)] = -1;                                                                      \
        used[(v)*words + (c) / 64] &= ~(1ull << ((c) % 64));                                       \
    } while (0)

    for (size_t k = 0; k < E; k++) {
        uint32_t e = edge_order[k];
        size_t u = END_U(e), w = END_W(e);
        size_t common = SIZE_MAX, a = SIZE_MAX, b = SIZE_MAX;
        for (size_t x = 0; x < words; x++) {
            uint64_t fu = ~used[u * words + x], fw = ~used[w * words + x];
            if (common == SIZE_MAX && (fu & fw) != 0)
                common = x * 64 + (size_t)__builtin_ctzll(fu & fw);
            if (a == SIZE_MAX && fu != 0) a = x * 64 + (size_t)__builtin_ctzll(fu);
            if (b == SIZE_MAX && fw != 0) b = x * 64 + (size_t)__builtin_ctzll(fw);
            if (common != SIZE_MAX) break;
        }
        if (common < d) {
            colour_of[e] = (uint32_t)common;
            SET(u, common, e);
            SET(w, common, e);
            continue;
        }
        if (a >= d || b >= d) {
            st = VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy schedule: degree above delta at edge %u",
                           e);
            goto out;
        }
        /* Walk the a/b path from w: colours a, b, a, ... */
        size_t len = 0, x = w, c = a;
        while (at[x * d + c] >= 0) {
            uint32_t pe = (uint32_t)at[x * d + c];
            path[len++] = pe;
            x = (END_U(pe) == x) ? END_W(pe) : END_U(pe);
            c = (c == a) ? b : a;
            if (len > nv) {
                st = VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy schedule: alternating path cycles");
                goto out;
            }
        }
        for (size_t i = 0; i < len; i++) {
            uint32_t pe = path[i];
            CLEAR(END_U(pe), colour_of[pe]);
            CLEAR(END_W(pe), colour_of[pe]);
        }
        for (size_t i = 0; i < len; i++) {
            uint32_t pe = path[i];
            colour_of[pe] = (colour_of[pe] == a) ? (uint32_t)b : (uint32_t)a;
            SET(END_U(pe), colour_of[pe], pe);
            SET(END_W(pe), colour_of[pe], pe);
        }
        colour_of[e] = (uint32_t)a;
        SET(u, a, e);
        SET(w, a, e);
    }
#undef END_U
#undef END_W
#undef SET
#undef CLEAR
out:
    free(path);
    free(edge_order);
    free(at);
    free(used);
    return st;
}

vsym_status_t vsym_copy_sched_build(const vsym_copy_sched_task_t *tasks, size_t ntasks, int nranks,
                                    uint64_t chunk, vsym_copy_sched_t *sched)
{
    if ((tasks == NULL && ntasks > 0) || nranks <= 0 || chunk == 0 || sched == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                         "copy schedule: bad arguments (%zu tasks, %d ranks, chunk %llu)", ntasks,
                         nranks, (unsigned long long)chunk);
    if (ntasks > UINT32_MAX)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy schedule: %zu tasks (at most 2^32-1)",
                         ntasks);
    vsym_copy_sched_t s = {.nranks = nranks, .chunk = chunk, .num_tasks = ntasks};
    vsym_status_t st = VSYM_OK;
    uint32_t *order = malloc((ntasks ? ntasks : 1) * sizeof(uint32_t));
    uint32_t *sdeg = calloc((size_t)nranks, sizeof(uint32_t));
    uint32_t *rdeg = calloc((size_t)nranks, sizeof(uint32_t));
    uint32_t *colour_of = NULL, *colour_rank = NULL;
    uint64_t *colour_max = NULL;
    if (order == NULL || sdeg == NULL || rdeg == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory");
        goto out;
    }
    size_t nremote = 0;
    for (size_t i = 0; i < ntasks; i++) {
        const vsym_copy_sched_task_t *t = &tasks[i];
        if (t->src < 0 || t->src >= nranks || t->dst < 0 || t->dst >= nranks) {
            st = VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                           "copy schedule: task %llu between ranks %d and %d of %d",
                           (unsigned long long)t->id, t->src, t->dst, nranks);
            goto out;
        }
        if (t->src == t->dst) {
            s.num_local++;
            s.local_bytes += t->size;
        } else if (t->size > 0) {
            order[nremote++] = (uint32_t)i;
            s.remote_bytes += t->size;
        }
    }
    sort_tasks = tasks;
    qsort(order, nremote, sizeof(uint32_t), cmp_task_order);
    for (size_t k = 1; k < nremote; k++) {
        if (tasks[order[k]].id == tasks[order[k - 1]].id) {
            st = VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "copy schedule: task id %llu twice",
                           (unsigned long long)tasks[order[k]].id);
            goto out;
        }
    }
    st = pack(tasks, order, nremote, &s);
    if (st != VSYM_OK) goto out;

    for (size_t e = 0; e < s.num_batches; e++) {
        uint32_t ds = ++sdeg[s.batches[e].src], dr = ++rdeg[s.batches[e].dst];
        if (ds > s.delta) s.delta = ds;
        if (dr > s.delta) s.delta = dr;
    }
    s.iterations = s.delta;
    colour_of = malloc((s.num_batches ? s.num_batches : 1) * sizeof(uint32_t));
    colour_max = calloc(s.delta ? s.delta : 1, sizeof(uint64_t));
    colour_rank = malloc((s.delta ? s.delta : 1) * sizeof(uint32_t));
    s.send_of = malloc(((size_t)s.delta * (size_t)nranks + 1) * sizeof(int32_t));
    s.recv_of = malloc(((size_t)s.delta * (size_t)nranks + 1) * sizeof(int32_t));
    s.iter_bytes = calloc(s.delta + 1, sizeof(uint64_t));
    s.iter_max_bytes = calloc(s.delta + 1, sizeof(uint64_t));
    s.iter_batches = calloc(s.delta + 1, sizeof(uint32_t));
    if (colour_of == NULL || colour_max == NULL || colour_rank == NULL || s.send_of == NULL ||
        s.recv_of == NULL || s.iter_bytes == NULL || s.iter_max_bytes == NULL ||
        s.iter_batches == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory for %u iterations", s.delta);
        goto out;
    }
    if (s.num_batches > 0) {
        st = colour(&s, colour_of);
        if (st != VSYM_OK) goto out;
    }
    /* Order the iterations by their largest batch, largest first: iteration numbers only
     * name the order in which the colours run. */
    for (size_t e = 0; e < s.num_batches; e++)
        if (s.batches[e].bytes > colour_max[colour_of[e]])
            colour_max[colour_of[e]] = s.batches[e].bytes;
    uint32_t *by_rank = malloc((s.delta ? s.delta : 1) * sizeof(uint32_t));
    if (by_rank == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory");
        goto out;
    }
    for (uint32_t c = 0; c < s.delta; c++)
        by_rank[c] = c;
    sort_colour_max = colour_max;
    qsort(by_rank, s.delta, sizeof(uint32_t), cmp_colour_order);
    for (uint32_t i = 0; i < s.delta; i++)
        colour_rank[by_rank[i]] = i;
    free(by_rank);
    for (size_t i = 0; i < (size_t)s.delta * (size_t)nranks; i++)
        s.send_of[i] = s.recv_of[i] = -1;
    for (size_t e = 0; e < s.num_batches; e++) {
        vsym_copy_batch_t *b = &s.batches[e];
        uint32_t it = colour_rank[colour_of[e]];
        b->iteration = it;
        s.send_of[(size_t)it * (size_t)nranks + (size_t)b->src] = (int32_t)e;
        s.recv_of[(size_t)it * (size_t)nranks + (size_t)b->dst] = (int32_t)e;
        s.iter_bytes[it] += b->bytes;
        s.iter_batches[it]++;
        if (b->bytes > s.iter_max_bytes[it]) s.iter_max_bytes[it] = b->bytes;
    }
    *sched = s;
    memset(&s, 0, sizeof(s));
out:
    vsym_copy_sched_free(&s);
    free(colour_rank);
    free(colour_max);
    free(colour_of);
    free(rdeg);
    free(sdeg);
    free(order);
    return st;
}

static _Thread_local const uint32_t *sort_degree;

static int cmp_conflict(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    if (sort_degree[i] != sort_degree[j]) return sort_degree[i] > sort_degree[j] ? -1 : 1;
    return i < j ? -1 : (i > j);
}

uint32_t vsym_copy_sched_greedy_iterations(const vsym_copy_sched_t *s)
{
    const size_t n = (size_t)s->nranks, E = s->num_batches;
    if (E == 0) return 0;
    /* A batch conflicts with every other batch touching its sender or its receiver. */
    uint32_t *touch = calloc(n, sizeof(uint32_t));
    uint32_t *degree = malloc(E * sizeof(uint32_t));
    uint32_t *order = malloc(E * sizeof(uint32_t));
    const size_t max_it = 4 * (size_t)s->delta; /* first fit never needs more */
    uint8_t *busy = calloc(max_it * n, 1);
    uint32_t iterations = 0;
    if (touch == NULL || degree == NULL || order == NULL || busy == NULL) goto out;
    for (size_t e = 0; e < E; e++) {
        touch[s->batches[e].src]++;
        touch[s->batches[e].dst]++;
    }
    for (size_t e = 0; e < E; e++) {
        degree[e] = touch[s->batches[e].src] + touch[s->batches[e].dst];
        order[e] = (uint32_t)e;
    }
    sort_degree = degree;
    qsort(order, E, sizeof(uint32_t), cmp_conflict);
    for (size_t k = 0; k < E; k++) {
        const vsym_copy_batch_t *b = &s->batches[order[k]];
        size_t it = 0;
        while (it < max_it && (busy[it * n + (size_t)b->src] || busy[it * n + (size_t)b->dst]))
            it++;
        if (it == max_it) { /* cannot happen: a batch meets at most 4 * delta - 2 others */
            iterations = 0;
            goto out;
        }
        busy[it * n + (size_t)b->src] = busy[it * n + (size_t)b->dst] = 1;
        if (it + 1 > iterations) iterations = (uint32_t)(it + 1);
    }
out:
    free(busy);
    free(order);
    free(degree);
    free(touch);
    return iterations;
}

#define CHECK_FAIL(...) return vsym_util_fail_quiet(VSYM_ERR_INVALID_PARAM, __VA_ARGS__)

vsym_status_t vsym_copy_sched_check(const vsym_copy_sched_task_t *tasks, size_t ntasks,
                                    const vsym_copy_sched_t *s)
{
    const size_t n = (size_t)s->nranks;
    if (s->num_tasks != ntasks)
        CHECK_FAIL("schedule of %zu tasks, %zu given", s->num_tasks, ntasks);
    if (s->iterations != s->delta)
        CHECK_FAIL("%u iterations but delta %u", s->iterations, s->delta);
    uint64_t *covered = calloc(ntasks ? ntasks : 1, sizeof(uint64_t));
    uint32_t *next_seg = calloc(ntasks ? ntasks : 1, sizeof(uint32_t));
    uint32_t *sdeg = calloc(n, sizeof(uint32_t)), *rdeg = calloc(n, sizeof(uint32_t));
    if (covered == NULL || next_seg == NULL || sdeg == NULL || rdeg == NULL) {
        free(covered), free(next_seg), free(sdeg), free(rdeg);
        CHECK_FAIL("no memory");
    }
    vsym_status_t st = VSYM_OK;
#define FAIL_OUT(...)                                                                              \
    do {                                                                                           \
        st = vsym_util_fail_quiet(VSYM_ERR_INVALID_PARAM, __VA_ARGS__);                            \
        goto out;                                                                                  \
    } while (0)
    size_t expect_piece = 0;
    for (size_t e = 0; e < s->num_batches; e++) {
        const vsym_copy_batch_t *b = &s->batches[e];
        if (b->first_piece != expect_piece || b->num_pieces == 0)
            FAIL_OUT("batch %zu: pieces start at %u (expected %zu), %u pieces", e, b->first_piece,
                     expect_piece, b->num_pieces);
        expect_piece += b->num_pieces;
        const int same_pair =
            e > 0 && s->batches[e - 1].src == b->src && s->batches[e - 1].dst == b->dst;
        if (b->seq != (same_pair ? s->batches[e - 1].seq + 1 : 0))
            FAIL_OUT("batch %zu (%d -> %d): seq %u out of order", e, b->src, b->dst, b->seq);
        if (b->bytes == 0 || b->bytes > s->chunk)
            FAIL_OUT("batch %zu: %llu bytes, chunk %llu", e, (unsigned long long)b->bytes,
                     (unsigned long long)s->chunk);
        if (b->iteration >= s->iterations)
            FAIL_OUT("batch %zu in iteration %u of %u", e, b->iteration, s->iterations);
        if (s->send_of[(size_t)b->iteration * n + (size_t)b->src] != (int32_t)e ||
            s->recv_of[(size_t)b->iteration * n + (size_t)b->dst] != (int32_t)e)
            FAIL_OUT("batch %zu (%d -> %d) not in the lookup of iteration %u (another batch "
                     "shares a rank)",
                     e, b->src, b->dst, b->iteration);
        sdeg[b->src]++;
        rdeg[b->dst]++;
        uint64_t at = 0;
        for (uint32_t k = 0; k < b->num_pieces; k++) {
            const vsym_copy_piece_t *p = &s->pieces[b->first_piece + k];
            if (p->task >= ntasks) FAIL_OUT("piece of batch %zu names task %u", e, p->task);
            const vsym_copy_sched_task_t *t = &tasks[p->task];
            if (t->src != b->src || t->dst != b->dst)
                FAIL_OUT("task %llu (%d -> %d) in batch %d -> %d", (unsigned long long)t->id,
                         t->src, t->dst, b->src, b->dst);
            if (p->batch_offset != at || p->size == 0)
                FAIL_OUT("piece of task %llu at batch offset %llu, expected %llu",
                         (unsigned long long)t->id, (unsigned long long)p->batch_offset,
                         (unsigned long long)at);
            at += p->size;
            if (p->segment != next_seg[p->task] || p->task_offset != covered[p->task])
                FAIL_OUT("task %llu: segment %u at %llu, expected segment %u at %llu",
                         (unsigned long long)t->id, p->segment, (unsigned long long)p->task_offset,
                         next_seg[p->task], (unsigned long long)covered[p->task]);
            next_seg[p->task]++;
            covered[p->task] += p->size;
        }
        if (at != b->bytes)
            FAIL_OUT("batch %zu: pieces of %llu bytes, batch %llu", e, (unsigned long long)at,
                     (unsigned long long)b->bytes);
    }
    if (expect_piece != s->num_pieces)
        FAIL_OUT("%zu pieces in batches, %zu in total", expect_piece, s->num_pieces);
    for (size_t i = 0; i < ntasks; i++) {
        uint64_t want = (tasks[i].src == tasks[i].dst) ? 0 : tasks[i].size;
        if (covered[i] != want)
            FAIL_OUT("task %llu: %llu of %llu bytes in pieces", (unsigned long long)tasks[i].id,
                     (unsigned long long)covered[i], (unsigned long long)want);
    }
    uint32_t delta = 0;
    for (size_t r = 0; r < n; r++) {
        if (sdeg[r] > delta) delta = sdeg[r];
        if (rdeg[r] > delta) delta = rdeg[r];
    }
    if (delta != s->delta) FAIL_OUT("delta %u, recomputed %u", s->delta, delta);
    size_t in_tables = 0;
    for (size_t i = 0; i < (size_t)s->iterations * n; i++)
        in_tables += (s->send_of[i] >= 0);
    if (in_tables != s->num_batches)
        FAIL_OUT("%zu batches in the send lookup, %zu batches", in_tables, s->num_batches);
#undef FAIL_OUT
out:
    free(covered), free(next_seg), free(sdeg), free(rdeg);
    return st;
}
