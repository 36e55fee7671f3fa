/* Fabric checks: every pair of ranks on different nodes (and a sample of the pairs inside a
 * node) moves data with put, get and atomics, validated, and is timed (latency by ping-pong,
 * bandwidth each way); then a short all-reduce over the world checks correctness and busbw.
 *
 * Coordination. Rank 0 drives every step: it sends each live rank a command (its partner for
 * this step, or idle) with put-with-signal into the rank's control object, runs its own part,
 * and collects every rank's record (put-with-signal into rank 0's control object). A rank that
 * does not report within the step's deadline is declared dead: it gets no more commands and no
 * collective is attempted, so one killed rank costs a few timeouts, never a hang. Pairs are
 * scheduled as a round-robin tournament (n-1 rounds of disjoint pairs, ClusterKit's scheme);
 * with fabric.concurrent the pairs of a round run at the same time, else one after another.
 * Pairs flagged as outliers are retested one at a time before they are reported. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conform.h"
#include "util/util.h"
#ifdef VSYM_CONFORM_HAVE_COLL
#include <vsym/coll.h>
#endif

enum { CH_PAIR = 0, CH_DATA = 1 };
enum { CMD_PAIR = 1, CMD_ALLREDUCE = 2, CMD_FINISH = 3 };

typedef struct cmd_msg {
    int32_t cmd;
    int32_t partner; /* CMD_PAIR: -1 idle */
    int32_t step;
    int32_t pad;
} cmd_msg_t;

/* What a rank reports after a step. */
typedef struct pair_msg {
    int32_t partner; /* -1: idle */
    int32_t tested;
    int32_t failed;
    int32_t put_errors, get_errors, amo_errors;
    double lat_min, lat_med, lat_avg, lat_p99; /* the lower rank of the pair measures */
    double bw_out;                             /* this rank -> partner, MB/s */
    char detail[200];
} pair_msg_t;

#define CTL_SEQ 0
#define CTL_CMD 64
#define CTL_DONE 128

typedef struct fab {
    vsym_team_t *world;
    int me, n;
    const conform_config_t *cfg;
    const node_report_t *reps;
    vsym_obj_t *data, *ctl;
    size_t max_msg, off_dst, off_src, off_cnt, off_cas, off_ping, off_rec;
    uint8_t *pat, *chk, *getbuf;
    double *lat;
    double T;
    uint64_t seq;
    int kill_rank;
    int finish_dead; /* ranks other than 0: FINISH said some rank did not answer */
} fab_t;

/* ---- patterns ----------------------------------------------------------------------------- */

static void fill_pattern(uint8_t *buf, size_t len, int src, int dst, size_t size)
{
    uint64_t x = ((uint64_t)src * 1000003u + (uint64_t)dst * 7919u + size) | 1u;
    size_t words = len / 8;
    for (size_t i = 0; i < words; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        memcpy(buf + 8 * i, &x, 8);
    }
    for (size_t i = words * 8; i < len; i++)
        buf[i] = (uint8_t)(x >> (8 * (i % 8)));
}

static int count_diff(const uint8_t *a, const uint8_t *b, size_t len)
{
    int bad = 0;
    if (memcmp(a, b, len) == 0)
        return 0;
    for (size_t i = 0; i < len; i++)
        bad += a[i] != b[i];
    return bad;
}

/* ---- one pair ------------------------------------------------------------------------------ */

static vsym_status_t sync_pair(fab_t *f, int p)
{
    vsym_status_t st = vsym_signal_put(f->data, p, CH_PAIR, f->T);
    if (st != VSYM_OK)
        return st;
    return vsym_signal_wait(f->data, p, CH_PAIR, f->T);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define TRY(phase, expr)                                                                           \
    do {                                                                                           \
        vsym_status_t st_ = (expr);                                                                \
        if (st_ != VSYM_OK) {                                                                      \
            snprintf(m->detail, sizeof(m->detail), "%s: %s: %s", phase, vsym_status_name(st_),     \
                     vsym_error_detail());                                                         \
            m->failed = 1;                                                                         \
            return;                                                                                \
        }                                                                                          \
    } while (0)

static void run_pair(fab_t *f, int p, pair_msg_t *m)
{
    const conform_config_t *cfg = f->cfg;
    int low = f->me < p ? f->me : p, lower = f->me == low;
    uint8_t *mem = vsym_obj_ptr(f->data);
    volatile uint64_t *ping = (volatile uint64_t *)(mem + f->off_ping);
    uint64_t K = (uint64_t)cfg->atomic_iters, v = 0, old = 0;

    m->partner = p;
    /* No peer writes these words before the first handshake, and the previous partner is done
     * with them (its last access came before our last handshake). */
    *ping = 0;
    if (lower) {
        TRY("atomic reset", vsym_atomic64(f->data, f->me, f->off_cnt, VSYM_AMO_SET, 0, 0, NULL));
        TRY("atomic reset", vsym_atomic64(f->data, f->me, f->off_cas, VSYM_AMO_SET, 0, 0, NULL));
    }
    TRY("handshake", sync_pair(f, p));

    /* Put with signal and get at each size, both ways at once, validated. */
    for (int i = 0; i < cfg->nsizes; i++) {
        size_t s = cfg->sizes[i] < f->max_msg ? cfg->sizes[i] : f->max_msg;
        fill_pattern(f->pat, s, f->me, p, s);
        memcpy(mem + f->off_src, f->pat, s);
        TRY("put", vsym_put_with_signal(f->data, p, f->off_dst, f->pat, s, CH_DATA, f->T));
        TRY("put (waiting for the peer's data)", vsym_signal_wait(f->data, p, CH_DATA, f->T));
        fill_pattern(f->chk, s, p, f->me, s);
        int bad = count_diff(mem + f->off_dst, f->chk, s);
        if (bad && !m->put_errors)
            snprintf(m->detail, sizeof(m->detail), "put of %zu bytes: %d bytes wrong", s, bad);
        m->put_errors += bad;
        TRY("get", vsym_get(f->data, p, f->off_src, f->getbuf, s));
        bad = count_diff(f->getbuf, f->chk, s);
        if (bad && !m->get_errors)
            snprintf(m->detail, sizeof(m->detail), "get of %zu bytes: %d bytes wrong", s, bad);
        m->get_errors += bad;
        TRY("handshake", sync_pair(f, p));
    }

    /* Atomics: both ranks add into the lower rank's counter; the count must be exact and every
     * fetched value new; of two compare-swaps on one word exactly one wins. */
    int64_t prev = -1;
    for (uint64_t k = 0; k < K; k++) {
        TRY("atomic fetch-add",
            vsym_atomic64(f->data, low, f->off_cnt, VSYM_AMO_FETCH_ADD, 1, 0, &old));
        if ((int64_t)old <= prev || old >= 2 * K)
            m->amo_errors++;
        prev = (int64_t)old;
    }
    TRY("atomic cswap", vsym_atomic64(f->data, low, f->off_cas, VSYM_AMO_CSWAP,
                                      (uint64_t)f->me + 1, 0, &old));
    int won = old == 0;
    TRY("handshake", sync_pair(f, p));
    if (lower) {
        TRY("atomic fetch", vsym_atomic64(f->data, low, f->off_cnt, VSYM_AMO_FETCH, 0, 0, &v));
        if (v != 2 * K) {
            m->amo_errors++;
            snprintf(m->detail, sizeof(m->detail), "atomic counter %llu, expected %llu",
                     (unsigned long long)v, (unsigned long long)(2 * K));
        }
    }
    TRY("atomic fetch", vsym_atomic64(f->data, low, f->off_cas, VSYM_AMO_FETCH, 0, 0, &v));
    int high = lower ? p : f->me;
    if (won != (v == (uint64_t)f->me + 1) || (v != (uint64_t)low + 1 && v != (uint64_t)high + 1)) {
        m->amo_errors++;
        snprintf(m->detail, sizeof(m->detail), "compare-swap: word %llu, this rank %s",
                 (unsigned long long)v, won ? "won" : "lost");
    }
    TRY("handshake", sync_pair(f, p));

    /* Latency: ping-pong of 8-byte puts; half the round trip. */
    int warm = cfg->latency_iters < 10 ? 1 : 10, L = cfg->latency_iters;
    for (uint64_t i = 1; i <= (uint64_t)(warm + L); i++) {
        uint64_t t0 = vsym_util_time_ns();
        if (lower) {
            TRY("latency put", vsym_put(f->data, p, f->off_ping, &i, 8));
            TRY("latency (waiting for the reply)",
                vsym_wait_until64(f->data, f->off_ping, VSYM_CMP_GE, i, f->T));
        } else {
            TRY("latency (waiting for the ping)",
                vsym_wait_until64(f->data, f->off_ping, VSYM_CMP_GE, i, f->T));
            TRY("latency put", vsym_put(f->data, p, f->off_ping, &i, 8));
        }
        if (i > (uint64_t)warm)
            f->lat[i - 1 - (uint64_t)warm] = (double)(vsym_util_time_ns() - t0) / 2e3;
    }
    TRY("quiet", vsym_quiet(vsym_team_ctx(f->world)));
    if (lower) {
        double sum = 0;
        qsort(f->lat, (size_t)L, sizeof(double), cmp_double);
        for (int i = 0; i < L; i++)
            sum += f->lat[i];
        m->lat_min = f->lat[0];
        m->lat_med = f->lat[L / 2];
        m->lat_avg = sum / L;
        m->lat_p99 = f->lat[(int)((L - 1) * 0.99)];
    }
    TRY("handshake", sync_pair(f, p));

    /* Bandwidth, one way at a time (lower rank first): a stream of puts, then quiet (the data
     * is at the target); the receiver validates the last message. */
    size_t S = cfg->bw_size;
    for (int dir = 0; dir < 2; dir++) {
        int sender = (dir == 0) == lower;
        if (sender) {
            fill_pattern(f->pat, S, f->me, p, S);
            TRY("bandwidth warm-up", vsym_put_nbi(f->data, p, f->off_dst, f->pat, S));
            TRY("bandwidth warm-up", vsym_quiet(vsym_team_ctx(f->world)));
        }
        TRY("handshake", sync_pair(f, p));
        /* The best of several streams (perftest's "BW peak"): a stream slowed by someone
         * else's burst is noise, a slow link is slow every time. */
        for (int trial = 0; sender && trial < cfg->bw_trials; trial++) {
            uint64_t t0 = vsym_util_time_ns();
            for (int it = 0; it < cfg->bw_iters; it++)
                TRY("bandwidth put", vsym_put_nbi(f->data, p, f->off_dst, f->pat, S));
            TRY("bandwidth quiet", vsym_quiet(vsym_team_ctx(f->world)));
            double dt = (double)(vsym_util_time_ns() - t0) / 1e9;
            double bw = (double)S * cfg->bw_iters / (dt > 0 ? dt : 1e-9) / 1e6;
            if (bw > m->bw_out)
                m->bw_out = bw;
        }
        TRY("handshake", sync_pair(f, p));
        if (!sender) {
            fill_pattern(f->chk, S, p, f->me, S);
            int bad = count_diff(mem + f->off_dst, f->chk, S);
            if (bad && !m->put_errors)
                snprintf(m->detail, sizeof(m->detail), "bandwidth stream of %zu-byte puts: "
                         "%d bytes wrong", S, bad);
            m->put_errors += bad;
        }
    }
    /* The peer must not start its next pair's writes into our buffers before we are done. */
    TRY("handshake", sync_pair(f, p));
    m->tested = 1;
}

/* ---- schedule (rank 0) ---------------------------------------------------------------------- */

static int next_in_node(const node_report_t *R, int n, int r)
{
    for (int q = r + 1; q < n; q++)
        if (R[q].node == R[r].node)
            return q;
    for (int q = 0; q < r; q++)
        if (R[q].node == R[r].node)
            return q;
    return r;
}

static int pair_wanted(const fab_t *f, int a, int b)
{
    const node_report_t *R = f->reps;
    if (R[a].node != R[b].node)
        return 1;
    if (strcmp(f->cfg->intra_node_pairs, "all") == 0)
        return 1;
    if (strcmp(f->cfg->intra_node_pairs, "ring") == 0)
        return next_in_node(R, f->n, a) == b || next_in_node(R, f->n, b) == a;
    return 0;
}

/* Round r of the circle method over m = n rounded up to even: position 0 stays, the others
 * rotate; pairs are (pos[i], pos[m-1-i]). partner[] gets -1 for idle ranks. */
static void tournament_round(int n, int r, int *partner)
{
    int m = n + (n & 1);
    int *pos = malloc((size_t)m * sizeof(int));
    pos[0] = 0;
    for (int i = 1; i < m; i++)
        pos[i] = 1 + (i - 1 + r) % (m - 1);
    for (int i = 0; i < n; i++)
        partner[i] = -1;
    for (int i = 0; i < m / 2; i++) {
        int a = pos[i], b = pos[m - 1 - i];
        if (a < n && b < n) {
            partner[a] = b;
            partner[b] = a;
        }
    }
    free(pos);
}

/* ---- rank 0: commands and records -------------------------------------------------------- */

static pair_result_t *pair_of(conform_report_t *rep, int a, int b)
{
    return &rep->pairs[(a < b ? a : b) * rep->nranks + (a < b ? b : a)];
}

static void append_detail(pair_result_t *pr, const char *text)
{
    size_t used = strlen(pr->detail);
    /* A long detail is cut at the end of the field (the return value checked: at -O3 GCC
     * warns about a truncation it cannot rule out otherwise). */
    if (text[0] && used + 3 < sizeof(pr->detail) &&
        snprintf(pr->detail + used, sizeof(pr->detail) - used, "%s%s", used ? "; " : "", text) < 0)
        pr->detail[used] = '\0';
}

static void merge_msg(conform_report_t *rep, int me, const pair_msg_t *m)
{
    if (m->partner < 0)
        return;
    pair_result_t *pr = pair_of(rep, me, m->partner);
    pr->put_errors += m->put_errors;
    pr->get_errors += m->get_errors;
    pr->amo_errors += m->amo_errors;
    pr->failed |= m->failed || m->put_errors || m->get_errors || m->amo_errors;
    if (me == pr->a) {
        pr->lat_min_us = m->lat_min;
        pr->lat_med_us = m->lat_med;
        pr->lat_avg_us = m->lat_avg;
        pr->lat_p99_us = m->lat_p99;
        pr->lat_us = strcmp(rep->cfg->latency_stat, "min") == 0 ? m->lat_min : m->lat_med;
        pr->bw_ab_mbps = m->bw_out;
    } else {
        pr->bw_ba_mbps = m->bw_out;
    }
    pr->tested = 1;
    if (m->detail[0]) {
        char text[260];
        snprintf(text, sizeof(text), "rank %d: %s", me, m->detail);
        append_detail(pr, text);
    }
}

/* Send a command to every live rank, run rank 0's part, collect the records. */
static void run_step(fab_t *f, conform_report_t *rep, int cmd, const int *partner, int step)
{
    pair_msg_t mine;
    char name[128], text[300];
    f->seq++;
    for (int r = 1; r < f->n; r++) {
        if (rep->dead[r])
            continue;
        cmd_msg_t c = {cmd, partner ? partner[r] : -1, step, 0};
        if (partner && partner[r] >= 0 && rep->dead[partner[r]])
            c.partner = -1;
        vsym_status_t st = vsym_put_signal(f->ctl, r, CTL_CMD, &c, sizeof(c), f->ctl, CTL_SEQ,
                                           f->seq, VSYM_SIGNAL_SET);
        if (st != VSYM_OK) {
            rep->dead[r] = 1;
            fprintf(stderr, "vsym-conform: %s did not take a command: %s\n",
                    conform_rank_name(f->reps, r, name, sizeof(name)), vsym_error_detail());
        }
    }
    memset(&mine, 0, sizeof(mine));
    mine.partner = -1;
    if (cmd == CMD_PAIR && partner[0] >= 0 && !rep->dead[partner[0]])
        run_pair(f, partner[0], &mine);
    merge_msg(rep, 0, &mine);
    if (cmd != CMD_PAIR)
        return; /* the other commands report through their own exchange */
    /* A live rank reports within the time of its pair; a partner that lost its peer reports
     * after one timeout. */
    uint64_t deadline = vsym_util_time_ns() + (uint64_t)(3 * f->T * 1e9);
    uint8_t *ctl = vsym_obj_ptr(f->ctl);
    for (int r = 1; r < f->n; r++) {
        if (rep->dead[r])
            continue;
        uint64_t now = vsym_util_time_ns();
        double left = now < deadline ? (double)(deadline - now) / 1e9 : 0.001;
        vsym_status_t st = vsym_wait_until64(f->ctl, CTL_DONE + 8 * (size_t)r, VSYM_CMP_GE,
                                             f->seq, left < 0.001 ? 0.001 : left);
        if (st != VSYM_OK) {
            rep->dead[r] = 1;
            snprintf(text, sizeof(text), "%s did not answer (no report for step %d within %.0f s)",
                     conform_rank_name(f->reps, r, name, sizeof(name)), step, 3 * f->T);
            fprintf(stderr, "vsym-conform: %s\n", text);
            if (cmd == CMD_PAIR && partner[r] >= 0) {
                pair_result_t *pr = pair_of(rep, r, partner[r]);
                pr->failed = 1;
                append_detail(pr, text);
            }
            continue;
        }
        pair_msg_t m;
        memcpy(&m, ctl + f->off_rec + (size_t)r * sizeof(pair_msg_t), sizeof(m));
        if (cmd == CMD_PAIR)
            merge_msg(rep, r, &m);
    }
}

/* A rank other than 0: wait for commands and run them until FINISH. Returns the command that
 * ended the loop (CMD_ALLREDUCE or CMD_FINISH), or -1 when rank 0 stopped answering. */
static int serve(fab_t *f)
{
    uint8_t *ctl = vsym_obj_ptr(f->ctl);
    char name[128];
    for (;;) {
        /* Rank 0 may spend up to three timeouts collecting one step, plus its own pair. */
        vsym_status_t st =
            vsym_wait_until64(f->ctl, CTL_SEQ, VSYM_CMP_GE, f->seq + 1, 6 * f->T);
        if (st != VSYM_OK) {
            fprintf(stderr, "vsym-conform: rank %d: %s did not answer (no command for %.0f s)\n",
                    f->me, conform_rank_name(f->reps, 0, name, sizeof(name)), 6 * f->T);
            return -1;
        }
        f->seq++;
        cmd_msg_t c;
        memcpy(&c, ctl + CTL_CMD, sizeof(c));
        if (c.cmd == CMD_FINISH)
            f->finish_dead = c.partner > 0;
        if (c.cmd != CMD_PAIR)
            return c.cmd;
        if (f->kill_rank == f->me) {
            fprintf(stderr, "vsym-conform: rank %d kills itself (--simulate-failure)\n", f->me);
            fflush(stderr);
            raise(SIGKILL);
        }
        pair_msg_t m;
        memset(&m, 0, sizeof(m));
        m.partner = -1;
        if (c.partner >= 0)
            run_pair(f, c.partner, &m);
        st = vsym_put_signal(f->ctl, 0, f->off_rec + (size_t)f->me * sizeof(m), &m, sizeof(m),
                             f->ctl, CTL_DONE + 8 * (size_t)f->me, f->seq, VSYM_SIGNAL_SET);
        if (st != VSYM_OK) {
            fprintf(stderr, "vsym-conform: rank %d: reporting to rank 0 failed: %s\n", f->me,
                    vsym_error_detail());
            return -1;
        }
    }
}

/* ---- outliers ------------------------------------------------------------------------------ */

static void find_best(conform_report_t *rep)
{
    int n = rep->nranks;
    rep->best_lat_inter = rep->best_lat_intra = INFINITY;
    rep->best_bw_inter = rep->best_bw_intra = 0;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            pair_result_t *pr = &rep->pairs[a * n + b];
            if (!pr->tested || pr->failed)
                continue;
            double *bl = pr->inter ? &rep->best_lat_inter : &rep->best_lat_intra;
            double *bb = pr->inter ? &rep->best_bw_inter : &rep->best_bw_intra;
            if (pr->lat_us > 0 && pr->lat_us < *bl)
                *bl = pr->lat_us;
            if (pr->bw_ab_mbps > *bb)
                *bb = pr->bw_ab_mbps;
            if (pr->bw_ba_mbps > *bb)
                *bb = pr->bw_ba_mbps;
            /* A retested pair's first figures count too: the best is the best ever seen. */
            if (pr->retested) {
                if (pr->first_lat_us > 0 && pr->first_lat_us < *bl)
                    *bl = pr->first_lat_us;
                if (pr->first_bw_ab > *bb)
                    *bb = pr->first_bw_ab;
                if (pr->first_bw_ba > *bb)
                    *bb = pr->first_bw_ba;
            }
        }
}

/* Flag a pair by ClusterKit's rule and the absolute limits. Returns a badness score (0: fine). */
static double judge(const conform_report_t *rep, pair_result_t *pr)
{
    const conform_config_t *c = rep->cfg;
    double bl = pr->inter ? rep->best_lat_inter : rep->best_lat_intra;
    double bb = pr->inter ? rep->best_bw_inter : rep->best_bw_intra;
    double maxlat = pr->inter ? c->max_latency_us : c->intra_max_latency_us;
    double minbw = pr->inter ? c->min_bandwidth_mbps : c->intra_min_bandwidth_mbps;
    double score = 0;
    pr->bad_lat = (isfinite(bl) && pr->lat_us > c->latency_factor * bl) ||
                  (maxlat > 0 && pr->lat_us > maxlat);
    pr->bad_bw_ab = (bb > 0 && pr->bw_ab_mbps < c->bandwidth_fraction * bb) ||
                    (minbw > 0 && pr->bw_ab_mbps < minbw);
    pr->bad_bw_ba = (bb > 0 && pr->bw_ba_mbps < c->bandwidth_fraction * bb) ||
                    (minbw > 0 && pr->bw_ba_mbps < minbw);
    if (pr->bad_lat)
        score += pr->lat_us / (isfinite(bl) && bl > 0 ? bl : 1);
    if (pr->bad_bw_ab)
        score += bb / (pr->bw_ab_mbps > 0 ? pr->bw_ab_mbps : 1e-3);
    if (pr->bad_bw_ba)
        score += bb / (pr->bw_ba_mbps > 0 ? pr->bw_ba_mbps : 1e-3);
    return score;
}

/* ---- all-reduce ------------------------------------------------------------------------------ */

typedef struct ar_result {
    int32_t ok;
    int32_t wrong;
    double time_s; /* per call */
    char detail[200];
} ar_result_t;

#ifndef VSYM_CONFORM_HAVE_COLL
/* Without lib/coll: a one-shot all-reduce of our own (every rank reads every peer's buffer and
 * adds in rank order). */
static vsym_status_t own_allreduce(vsym_team_t *world, vsym_obj_t *obj, const float *src,
                                   float *dst, float *tmp, size_t count)
{
    int n = vsym_team_size(world);
    vsym_status_t st;
    memcpy(vsym_obj_ptr(obj), src, count * sizeof(float));
    if ((st = vsym_team_barrier(world, 0)) != VSYM_OK)
        return st;
    memset(dst, 0, count * sizeof(float));
    for (int r = 0; r < n; r++) {
        if ((st = vsym_get(obj, r, 0, tmp, count * sizeof(float))) != VSYM_OK)
            return st;
        for (size_t j = 0; j < count; j++)
            dst[j] += tmp[j];
    }
    return vsym_team_barrier(world, 0);
}
#endif

static void run_allreduce(fab_t *f, ar_result_t *res)
{
    size_t count = f->cfg->allreduce_size / sizeof(float);
    float *src = malloc(count * sizeof(float)), *dst = malloc(count * sizeof(float));
    vsym_status_t st = VSYM_OK;
    int n = f->n;
    memset(res, 0, sizeof(*res));
    if (src == NULL || dst == NULL) {
        snprintf(res->detail, sizeof(res->detail), "out of memory");
        goto out;
    }
    for (size_t j = 0; j < count; j++)
        src[j] = (float)((f->me + 1) * (int)(j % 13 + 1));
#ifdef VSYM_CONFORM_HAVE_COLL
    vsym_coll_t *coll = NULL;
    if ((st = vsym_coll_create(f->world, &coll)) != VSYM_OK)
        goto fail;
#define ALLREDUCE() vsym_coll_allreduce(coll, src, dst, count, VSYM_DTYPE_F32, VSYM_RED_SUM, \
                                        VSYM_COLL_AUTO)
#else
    vsym_obj_t *obj = NULL;
    float *tmp = malloc(count * sizeof(float));
    if (tmp == NULL || (st = vsym_alloc(f->world, count * sizeof(float), &obj)) != VSYM_OK)
        goto fail;
#define ALLREDUCE() own_allreduce(f->world, obj, src, dst, tmp, count)
#endif
    if ((st = ALLREDUCE()) != VSYM_OK)
        goto fail;
    double total = (double)n * (n + 1) / 2;
    for (size_t j = 0; j < count; j++)
        if (dst[j] != (float)(total * (double)(j % 13 + 1)))
            res->wrong++;
    uint64_t t0 = vsym_util_time_ns();
    for (int it = 0; it < f->cfg->allreduce_iters && st == VSYM_OK; it++)
        st = ALLREDUCE();
    res->time_s = (double)(vsym_util_time_ns() - t0) / 1e9 / f->cfg->allreduce_iters;
    if (st != VSYM_OK)
        goto fail;
    res->ok = 1;
#ifdef VSYM_CONFORM_HAVE_COLL
    vsym_coll_destroy(coll);
#else
    vsym_obj_free(obj);
    free(tmp);
#endif
    goto out;
fail:
    snprintf(res->detail, sizeof(res->detail), "%s: %s", vsym_status_name(st),
             vsym_error_detail());
out:
    free(src);
    free(dst);
}

static void report_allreduce(fab_t *f, conform_report_t *rep, const ar_result_t *all)
{
    const conform_config_t *c = f->cfg;
    int n = f->n, wrong = 0, failed = -1;
    double t = 0;
    for (int r = 0; r < n; r++) {
        wrong += all[r].wrong;
        if (!all[r].ok && failed < 0)
            failed = r;
        if (all[r].time_s > t)
            t = all[r].time_s;
    }
    double algbw = t > 0 ? (double)c->allreduce_size / t / 1e6 : 0;
    double busbw = algbw * 2.0 * (n - 1) / n;
#ifdef VSYM_CONFORM_HAVE_COLL
    const char *impl = "lib/coll vsym_coll_allreduce (auto)";
#else
    const char *impl = "vsym-conform's own one-shot reduction (lib/coll not built)";
#endif
    rep->allreduce = json_pack("{s:s,s:I,s:s,s:s,s:i,s:i,s:f,s:f,s:f}", "implementation", impl,
                               "bytes", (json_int_t)c->allreduce_size, "dtype", "f32", "op",
                               "sum", "iters", c->allreduce_iters, "wrong", wrong, "time_us",
                               t * 1e6, "algbw_MBps", algbw, "busbw_MBps", busbw);
    rep->have_allreduce = 1;
    char name[128];
    if (failed >= 0)
        conform_report_add(rep, "collective", "allreduce", "world", CK_FAIL, t, "%s: %s",
                           conform_rank_name(f->reps, failed, name, sizeof(name)),
                           all[failed].detail);
    else if (wrong)
        conform_report_add(rep, "collective", "allreduce", "world", CK_FAIL, t,
                           "%d wrong elements (f32 sum of %zu bytes) with %s", wrong,
                           c->allreduce_size, impl);
    else if (c->min_busbw_mbps > 0 && n > 1 && busbw < c->min_busbw_mbps)
        conform_report_add(rep, "collective", "allreduce", "world", CK_FAIL, t,
                           "busbw %.1f MB/s < %.1f (algbw %.1f MB/s, %zu bytes, %s)", busbw,
                           c->min_busbw_mbps, algbw, c->allreduce_size, impl);
    else
        conform_report_add(rep, "collective", "allreduce", "world", CK_PASS, t,
                           "correct; %.1f us, algbw %.1f MB/s, busbw %.1f MB/s (%zu bytes f32, "
                           "%s)", t * 1e6, algbw, busbw, c->allreduce_size, impl);
}

/* ---- the phase --------------------------------------------------------------------------- */

int conform_fabric_checks(vsym_ctx_t *ctx, const conform_config_t *cfg, conform_report_t *rep,
                          int kill_rank)
{
    fab_t F, *f = &F;
    vsym_status_t st;
    int rc = 0;

    memset(f, 0, sizeof(*f));
    f->world = vsym_team_world(ctx);
    f->me = vsym_team_rank(f->world);
    f->n = vsym_team_size(f->world);
    f->cfg = cfg;
    f->reps = rep->ranks;
    f->T = cfg->timeout_s;
    f->kill_rank = kill_rank;
    f->max_msg = cfg->bw_size;
    for (int i = 0; i < cfg->nsizes; i++)
        if (cfg->sizes[i] > f->max_msg)
            f->max_msg = cfg->sizes[i];
    f->max_msg = (f->max_msg + 63) & ~(size_t)63;
    f->off_dst = 0;
    f->off_src = f->max_msg;
    f->off_cnt = 2 * f->max_msg;
    f->off_cas = f->off_cnt + 64;
    f->off_ping = f->off_cnt + 128;
    f->off_rec = (CTL_DONE + 8 * (size_t)f->n + 63) & ~(size_t)63;
    f->pat = malloc(f->max_msg);
    f->chk = malloc(f->max_msg);
    f->getbuf = malloc(f->max_msg);
    f->lat = malloc((size_t)cfg->latency_iters * sizeof(double));
    if (!f->pat || !f->chk || !f->getbuf || !f->lat) {
        fprintf(stderr, "vsym-conform: out of memory\n");
        rc = 1;
        goto out;
    }
    if ((st = vsym_alloc(f->world, f->off_ping + 64, &f->data)) != VSYM_OK ||
        (st = vsym_alloc(f->world, f->off_rec + (size_t)f->n * sizeof(pair_msg_t), &f->ctl)) !=
            VSYM_OK) {
        fprintf(stderr, "vsym-conform: rank %d: allocating the fabric buffers failed: %s: %s\n",
                f->me, vsym_status_name(st), vsym_error_detail());
        rc = 1;
        goto out;
    }
    memset(vsym_obj_ptr(f->ctl), 0, vsym_obj_size(f->ctl));
    if ((st = vsym_team_barrier(f->world, f->T)) != VSYM_OK) {
        fprintf(stderr, "vsym-conform: rank %d: barrier failed: %s\n", f->me, vsym_error_detail());
        rc = 1;
        goto out;
    }

    if (f->me != 0) {
        int cmd = serve(f);
        if (cmd == CMD_ALLREDUCE) {
            ar_result_t res, *all = calloc((size_t)f->n, sizeof(res));
            run_allreduce(f, &res);
            st = vsym_team_exchange(f->world, &res, sizeof(res), all);
            free(all);
            cmd = st == VSYM_OK ? serve(f) : -1;
        }
        rc = cmd == CMD_FINISH && !f->finish_dead ? 0 : -1;
        goto out;
    }

    /* Rank 0. */
    int n = f->n, *partner = malloc((size_t)n * sizeof(int));
    rep->pairs = calloc((size_t)n * (size_t)n, sizeof(pair_result_t));
    rep->dead = calloc((size_t)n, sizeof(int));
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            rep->pairs[a * n + b].a = a;
            rep->pairs[a * n + b].b = b;
            rep->pairs[a * n + b].inter = f->reps[a].node != f->reps[b].node;
        }
    int rounds = n - 1 + (n & 1), step = 0;
    for (int r = 0; r < rounds; r++) {
        int *round = malloc((size_t)n * sizeof(int));
        tournament_round(n, r, round);
        for (int i = 0; i < n; i++)
            if (round[i] >= 0 && !pair_wanted(f, i, round[i]))
                round[i] = -1;
        if (cfg->concurrent) {
            int any = 0;
            for (int i = 0; i < n; i++)
                any |= round[i] >= 0;
            if (any)
                run_step(f, rep, CMD_PAIR, round, step++);
        } else {
            for (int a = 0; a < n; a++) {
                if (round[a] <= a)
                    continue;
                for (int i = 0; i < n; i++)
                    partner[i] = -1;
                partner[a] = round[a];
                partner[round[a]] = a;
                run_step(f, rep, CMD_PAIR, partner, step++);
            }
        }
        free(round);
    }
    /* Outliers by ClusterKit's rule, retested one pair at a time before they are reported. */
    find_best(rep);
    int nre = 0;
    for (int pass = 0; pass < cfg->max_retests; pass++) {
        double worst = 0;
        pair_result_t *pick = NULL;
        for (int i = 0; i < n * n; i++) {
            pair_result_t *pr = &rep->pairs[i];
            if (!pr->tested || pr->failed || pr->retested || rep->dead[pr->a] || rep->dead[pr->b])
                continue;
            double s = judge(rep, pr);
            if (s > worst) {
                worst = s;
                pick = pr;
            }
        }
        if (pick == NULL)
            break;
        pick->first_lat_us = pick->lat_us;
        pick->first_bw_ab = pick->bw_ab_mbps;
        pick->first_bw_ba = pick->bw_ba_mbps;
        pick->retested = 1;
        for (int i = 0; i < n; i++)
            partner[i] = -1;
        partner[pick->a] = pick->b;
        partner[pick->b] = pick->a;
        run_step(f, rep, CMD_PAIR, partner, step++);
        nre++;
    }
    find_best(rep);
    for (int i = 0; i < n * n; i++)
        if (rep->pairs[i].tested && !rep->pairs[i].failed)
            judge(rep, &rep->pairs[i]);
    free(partner);

    int ndead = 0;
    for (int r = 0; r < n; r++)
        ndead += rep->dead[r];
    if (!cfg->allreduce) {
        conform_report_add(rep, "collective", "allreduce", "world", CK_SKIP, 0,
                           "disabled (allreduce.enabled is false)");
    } else if (ndead) {
        conform_report_add(rep, "collective", "allreduce", "world", CK_SKIP, 0,
                           "skipped: %d rank(s) did not answer", ndead);
    } else {
        ar_result_t res, *all = calloc((size_t)n, sizeof(res));
        run_step(f, rep, CMD_ALLREDUCE, NULL, step++);
        run_allreduce(f, &res);
        st = vsym_team_exchange(f->world, &res, sizeof(res), all);
        if (st == VSYM_OK)
            report_allreduce(f, rep, all);
        else
            conform_report_add(rep, "collective", "allreduce", "world", CK_FAIL, 0,
                               "gathering the results failed: %s", vsym_error_detail());
        free(all);
    }
    f->seq++;
    for (int r = 1; r < n; r++) {
        cmd_msg_t c = {CMD_FINISH, ndead, step, 0};
        if (!rep->dead[r])
            vsym_put_signal(f->ctl, r, CTL_CMD, &c, sizeof(c), f->ctl, CTL_SEQ, f->seq,
                            VSYM_SIGNAL_SET);
    }
    if (nre)
        snprintf(rep->notes + strlen(rep->notes), sizeof(rep->notes) - strlen(rep->notes),
                 "%d pair(s) retested. ", nre);
    rc = ndead ? -1 : 0;
    if (ndead == 0) {
        vsym_quiet(ctx);
    }
out:
    if (rc == 0) {
        vsym_obj_free(f->data);
        vsym_obj_free(f->ctl);
    }
    free(f->pat);
    free(f->chk);
    free(f->getbuf);
    free(f->lat);
    return rc;
}
