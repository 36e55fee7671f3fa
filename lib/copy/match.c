/* Matching and validation of copy registrations (see match.h). Pure. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "copy/match.h"
#include "util/util.h"

/* Problems in the order of the statuses' priority: the detail lists them in this order too. */
enum { PROBLEM_RANK, PROBLEM_TASK, PROBLEM_SIZE, PROBLEM_KINDS };

typedef struct report {
    char text[3][480]; /* per kind: the listed problems */
    size_t len[3];
    size_t count[3]; /* problems per kind */
    size_t listed;   /* problems listed over all kinds */
} report_t;

#define REPORT_LISTED_MAX 4

static void report_add(report_t *r, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report_add(report_t *r, int kind, const char *fmt, ...)
{
    r->count[kind]++;
    if (r->listed >= REPORT_LISTED_MAX || r->len[kind] + 8 >= sizeof(r->text[kind])) return;
    va_list ap;
    va_start(ap, fmt);
    size_t room = sizeof(r->text[kind]) - r->len[kind];
    int n = vsnprintf(r->text[kind] + r->len[kind], room, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < room) {
        r->len[kind] += (size_t)n;
        r->listed++;
    } else {
        r->text[kind][r->len[kind]] = '\0';
    }
}

static _Thread_local const vsym_copy_reg_t *sort_regs;

/* By kind (send, receive), then id, then rank. */
static int cmp_by_id(const void *a, const void *b)
{
    const vsym_copy_reg_t *x = &sort_regs[*(const size_t *)a];
    const vsym_copy_reg_t *y = &sort_regs[*(const size_t *)b];
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* Receives by rank, then address. */
static int cmp_by_addr(const void *a, const void *b)
{
    const vsym_copy_reg_t *x = &sort_regs[*(const size_t *)a];
    const vsym_copy_reg_t *y = &sort_regs[*(const size_t *)b];
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

typedef unsigned long long ull;

/* Whether two receive ranges share a byte; a starts at or below b. Row by row of a against the
 * rows of b that can meet it (contiguous ranges are one row). */
static int rows_overlap(const vsym_copy_reg_t *a, const vsym_copy_reg_t *b)
{
    const uint64_t arow = a->row ? a->row : a->size, astride = a->row ? a->stride : a->size;
    const uint64_t brow = b->row ? b->row : b->size, bstride = b->row ? b->stride : b->size;
    const uint64_t arows = a->size / arow, brows = b->size / brow;
    const uint64_t bend = b->addr + vsym_copy_rows_span(b->size, b->row, b->stride);
    for (uint64_t i = 0; i < arows; i++) {
        const uint64_t lo = a->addr + i * astride, hi = lo + arow; /* [lo, hi) */
        if (lo >= bend) break;
        if (hi <= b->addr) continue;
        /* rows j of b with b->addr + j * bstride < hi and b->addr + j * bstride + brow > lo */
        uint64_t jmax = (hi - 1 - b->addr) / bstride;
        if (jmax >= brows) jmax = brows - 1;
        if (b->addr + jmax * bstride + brow > lo) return 1;
    }
    return 0;
}

vsym_status_t vsym_copy_match(const vsym_copy_reg_t *regs, size_t nregs, int nranks,
                              vsym_copy_sched_task_t **tasks_p, size_t *ntasks_p)
{
    report_t *rep = calloc(1, sizeof(*rep));
    size_t *idx = malloc((nregs ? nregs : 1) * sizeof(size_t));
    vsym_copy_sched_task_t *tasks = malloc((nregs ? nregs : 1) * sizeof(*tasks));
    if (rep == NULL || idx == NULL || tasks == NULL) {
        free(rep), free(idx), free(tasks);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "copy schedule: no memory to match %zu tasks", nregs);
    }
    size_t nsend = 0, nrecv = 0, ntasks = 0;
    for (size_t i = 0; i < nregs; i++) {
        const vsym_copy_reg_t *g = &regs[i];
        if (g->kind & VSYM_COPY_REG_BAD_PEER) {
            report_add(rep, PROBLEM_RANK,
                       "; task %llu: %s on rank %d names rank %d, outside the "
                       "team of %d",
                       (ull)g->id, (g->kind & 1) ? "receive" : "send", g->rank, g->peer, nranks);
            continue;
        }
        if (g->kind == VSYM_COPY_REG_SEND) idx[nsend++] = i;
    }
    for (size_t i = 0; i < nregs; i++)
        if (regs[i].kind == VSYM_COPY_REG_RECV) idx[nsend + nrecv++] = i;
    sort_regs = regs;
    qsort(idx, nsend, sizeof(size_t), cmp_by_id);
    qsort(idx + nsend, nrecv, sizeof(size_t), cmp_by_id);

    /* Merge join over the two id-sorted lists; a duplicated id is reported once and not
     * matched further (its other problems would only be noise). */
    size_t i = 0, j = 0;
    const size_t *sends = idx, *recvs = idx + nsend;
    while (i < nsend || j < nrecv) {
        size_t si = i, rj = j;
        uint64_t id;
        if (j >= nrecv || (i < nsend && regs[sends[i]].id <= regs[recvs[j]].id))
            id = regs[sends[i]].id;
        else
            id = regs[recvs[j]].id;
        while (i < nsend && regs[sends[i]].id == id)
            i++;
        while (j < nrecv && regs[recvs[j]].id == id)
            j++;
        size_t ns = i - si, nr = j - rj;
        if (ns > 1 || nr > 1) {
            const vsym_copy_reg_t *a = ns > 1 ? &regs[sends[si]] : &regs[recvs[rj]];
            const vsym_copy_reg_t *b = ns > 1 ? &regs[sends[si + 1]] : &regs[recvs[rj + 1]];
            report_add(rep, PROBLEM_TASK, "; task %llu: %s registered %zu times (ranks %d, %d)",
                       (ull)id, ns > 1 ? "send" : "receive", ns > 1 ? ns : nr, a->rank, b->rank);
            continue;
        }
        if (nr == 0) {
            const vsym_copy_reg_t *s = &regs[sends[si]];
            report_add(rep, PROBLEM_TASK, "; task %llu: send on rank %d to rank %d has no receive",
                       (ull)id, s->rank, s->peer);
            continue;
        }
        if (ns == 0) {
            const vsym_copy_reg_t *r = &regs[recvs[rj]];
            report_add(rep, PROBLEM_TASK,
                       "; task %llu: receive on rank %d from rank %d has no send", (ull)id, r->rank,
                       r->peer);
            continue;
        }
        const vsym_copy_reg_t *s = &regs[sends[si]], *r = &regs[recvs[rj]];
        if (s->peer != r->rank || r->peer != s->rank) {
            report_add(rep, PROBLEM_TASK,
                       "; task %llu: send on rank %d names rank %d but the receive is on rank %d "
                       "naming rank %d",
                       (ull)id, s->rank, s->peer, r->rank, r->peer);
            continue;
        }
        if (s->size != r->size) {
            report_add(rep, PROBLEM_SIZE,
                       "; task %llu: %llu bytes sent by rank %d, %llu received by rank %d", (ull)id,
                       (ull)s->size, s->rank, (ull)r->size, r->rank);
            continue;
        }
        tasks[ntasks++] = (vsym_copy_sched_task_t){.id = id,
                                                   .size = s->size,
                                                   .src = s->rank,
                                                   .dst = r->rank,
                                                   .send_reg = (uint32_t)sends[si],
                                                   .recv_reg = (uint32_t)recvs[rj]};
    }

    /* Overlapping receive ranges on one rank: sorted by address, each range is compared with
     * the ranges whose span reaches it (for contiguous ranges: the one reaching furthest, for
     * rows: each, as column blocks of one matrix interleave). Empty ranges overlap nothing. */
    qsort(idx + nsend, nrecv, sizeof(size_t), cmp_by_addr);
    size_t *active = malloc((nrecv ? nrecv : 1) * sizeof(size_t));
    size_t nactive = 0;
    int cur_rank = -1;
    for (size_t k = 0; active != NULL && k < nrecv; k++) {
        const vsym_copy_reg_t *r = &regs[recvs[k]];
        if (r->size == 0) continue;
        if (r->rank != cur_rank) {
            cur_rank = r->rank;
            nactive = 0;
        }
        size_t keep = 0;
        int reported = 0;
        for (size_t a = 0; a < nactive; a++) {
            const vsym_copy_reg_t *q = &regs[active[a]];
            if (q->addr + vsym_copy_rows_span(q->size, q->row, q->stride) <= r->addr)
                continue; /* ends before this one and every later one starts */
            active[keep++] = active[a];
            if (!reported && rows_overlap(q, r)) {
                report_add(rep, PROBLEM_TASK,
                           "; tasks %llu and %llu: overlapping receive ranges on rank %d",
                           (ull)q->id, (ull)r->id, r->rank);
                reported = 1;
            }
        }
        nactive = keep;
        active[nactive++] = recvs[k];
    }
    if (active == NULL)
        report_add(rep, PROBLEM_TASK, "; no memory to check %zu receive ranges", nrecv);
    free(active);
    free(idx);

    size_t problems = rep->count[0] + rep->count[1] + rep->count[2];
    if (problems > 0) {
        vsym_status_t st = rep->count[PROBLEM_RANK]   ? VSYM_ERR_BAD_RANK
                           : rep->count[PROBLEM_TASK] ? VSYM_ERR_BAD_TASK
                                                      : VSYM_ERR_BAD_SIZE;
        /* The count comes first so that a long list cut at the detail's length still says how
         * many problems there are. The lists start with "; ": skip the first separator. */
        char all[1500];
        snprintf(all, sizeof(all), "%s%s%s", rep->text[0], rep->text[1], rep->text[2]);
        st = VSYM_FAIL(st, "copy schedule: %zu invalid task%s (%zu listed): %s", problems,
                       problems == 1 ? "" : "s", rep->listed, all[0] ? all + 2 : "");
        free(rep);
        free(tasks);
        return st;
    }
    free(rep);
    *tasks_p = tasks;
    *ntasks_p = ntasks;
    return VSYM_OK;
}
