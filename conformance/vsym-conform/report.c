/* The report, written by rank 0: a human summary that names bad nodes and links by node index
 * and host (stdout and summary.txt), JUnit XML (one testcase per check per node, per rank pair
 * and per world check), a JSON report with the effective configuration (jansson), and a
 * bandwidth heat map of the pair matrix (a data file and a gnuplot script; the PNG when gnuplot
 * is installed). */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "conform.h"
#include "util/util.h"

void conform_report_add(conform_report_t *rep, const char *suite, const char *name,
                        const char *subject, ck_status_t st, double time_s, const char *fmt, ...)
{
    if (rep->nchecks == rep->cap) {
        int cap = rep->cap ? 2 * rep->cap : 64;
        ck_result_t *c = realloc(rep->checks, (size_t)cap * sizeof(*c));
        if (c == NULL)
            return;
        rep->checks = c;
        rep->cap = cap;
    }
    ck_result_t *c = &rep->checks[rep->nchecks++];
    memset(c, 0, sizeof(*c));
    snprintf(c->suite, sizeof(c->suite), "%s", suite);
    snprintf(c->name, sizeof(c->name), "%s", name);
    snprintf(c->subject, sizeof(c->subject), "%s", subject);
    c->status = st;
    c->time_s = time_s;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
    va_end(ap);
}

const char *conform_node_name(const conform_report_t *rep, int node, char *buf, size_t len)
{
    for (int r = 0; r < rep->nranks; r++)
        if (rep->ranks[r].node == node) {
            snprintf(buf, len, "node %d (host %s)", node, rep->ranks[r].host);
            return buf;
        }
    snprintf(buf, len, "node %d", node);
    return buf;
}

void conform_report_free(conform_report_t *rep)
{
    free(rep->ranks);
    free(rep->checks);
    free(rep->pairs);
    free(rep->dead);
    json_decref(rep->allreduce);
    memset(rep, 0, sizeof(*rep));
}

/* ---- links ------------------------------------------------------------------------------- */

static int pair_bad(const pair_result_t *pr)
{
    return pr->failed || pr->bad_lat || pr->bad_bw_ab || pr->bad_bw_ba;
}

static void add_link_checks(conform_report_t *rep)
{
    int n = rep->nranks;
    char na[96], nb[96], subject[256];
    if (rep->pairs == NULL)
        return;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            pair_result_t *pr = &rep->pairs[a * n + b];
            int x = rep->ranks[a].node, y = rep->ranks[b].node;
            if (!pr->tested && !pr->failed)
                continue;
            if (pr->inter)
                snprintf(subject, sizeof(subject), "%s <-> %s: ranks %d <-> %d",
                         conform_node_name(rep, x, na, sizeof(na)),
                         conform_node_name(rep, y, nb, sizeof(nb)), a, b);
            else
                snprintf(subject, sizeof(subject), "%s: ranks %d <-> %d",
                         conform_node_name(rep, x, na, sizeof(na)), a, b);
            double bl = pr->inter ? rep->best_lat_inter : rep->best_lat_intra;
            double bb = pr->inter ? rep->best_bw_inter : rep->best_bw_intra;
            char figures[240];
            snprintf(figures, sizeof(figures),
                     "latency (%s) %.2f us (best %.2f)%s, bandwidth %d->%d %.1f MB/s%s, %d->%d "
                     "%.1f MB/s%s (best %.1f)%s",
                     rep->cfg->latency_stat, pr->lat_us, isfinite(bl) ? bl : 0.0,
                     pr->bad_lat ? " BAD" : "", a, b,
                     pr->bw_ab_mbps, pr->bad_bw_ab ? " BAD" : "", b, a, pr->bw_ba_mbps,
                     pr->bad_bw_ba ? " BAD" : "", bb, pr->retested ? ", retested" : "");
            if (pr->failed)
                conform_report_add(rep, "link", pr->inter ? "pair_between_nodes" : "pair_in_node",
                                   subject, CK_FAIL, 0,
                                   "put errors %d, get errors %d, atomic errors %d: %s",
                                   pr->put_errors, pr->get_errors, pr->amo_errors, pr->detail);
            else
                conform_report_add(rep, "link", pr->inter ? "pair_between_nodes" : "pair_in_node",
                                   subject, pair_bad(pr) ? CK_FAIL : CK_PASS, 0,
                                   "data valid; %s", figures);
        }
}

/* The summary lines about links and nodes: node pairs with bad rank pairs, the direction that
 * is slow, nodes all of whose links are bad, ranks that did not answer. Returns the count of
 * lines written. */
static int summarize_links(const conform_report_t *rep, FILE *out)
{
    int n = rep->nranks, N = rep->nnodes, lines = 0;
    char na[96], nb[96], rn[128];
    if (rep->pairs == NULL)
        return 0;
    int *node_bad = calloc((size_t)N, sizeof(int)), *node_links = calloc((size_t)N, sizeof(int));
    for (int x = 0; x < N; x++)
        for (int y = x + 1; y < N; y++) {
            int total = 0, bad = 0, lat = 0, xy = 0, yx = 0, failed = 0;
            double worst_lat = 0, worst_xy = INFINITY, worst_yx = INFINITY;
            const char *detail = "";
            for (int a = 0; a < n; a++)
                for (int b = a + 1; b < n; b++) {
                    const pair_result_t *pr = &rep->pairs[a * n + b];
                    int na_ = rep->ranks[a].node, nb_ = rep->ranks[b].node;
                    if (!((na_ == x && nb_ == y) || (na_ == y && nb_ == x)))
                        continue;
                    if (!pr->tested && !pr->failed)
                        continue;
                    /* A pair with a rank that died is reported as a dead rank, not a link. */
                    if (rep->dead && (rep->dead[a] || rep->dead[b]))
                        continue;
                    total++;
                    if (!pair_bad(pr))
                        continue;
                    bad++;
                    if (pr->failed) {
                        failed++;
                        detail = pr->detail;
                        continue;
                    }
                    lat |= pr->bad_lat;
                    if (pr->lat_us > worst_lat)
                        worst_lat = pr->lat_us;
                    /* a -> b is x -> y when a is on x */
                    int ab_is_xy = na_ == x;
                    if (pr->bad_bw_ab) {
                        *(ab_is_xy ? &xy : &yx) = 1;
                        double *w = ab_is_xy ? &worst_xy : &worst_yx;
                        if (pr->bw_ab_mbps < *w)
                            *w = pr->bw_ab_mbps;
                    }
                    if (pr->bad_bw_ba) {
                        *(ab_is_xy ? &yx : &xy) = 1;
                        double *w = ab_is_xy ? &worst_yx : &worst_xy;
                        if (pr->bw_ba_mbps < *w)
                            *w = pr->bw_ba_mbps;
                    }
                }
            if (total == 0)
                continue;
            node_links[x]++;
            node_links[y]++;
            if (!bad)
                continue;
            node_bad[x]++;
            node_bad[y]++;
            conform_node_name(rep, x, na, sizeof(na));
            conform_node_name(rep, y, nb, sizeof(nb));
            fprintf(out, "  BAD LINK  %s <-> %s: %d of %d rank pairs bad", na, nb, bad, total);
            if (lat)
                fprintf(out, "; latency (%s) up to %.1f us (best %.1f us between nodes)",
                        rep->cfg->latency_stat, worst_lat, rep->best_lat_inter);
            if (xy && !yx)
                fprintf(out, "; slow direction node %d -> node %d (%.1f MB/s)", x, y, worst_xy);
            else if (yx && !xy)
                fprintf(out, "; slow direction node %d -> node %d (%.1f MB/s)", y, x, worst_yx);
            else if (xy && yx)
                fprintf(out, "; bandwidth low both ways (%.1f / %.1f MB/s)", worst_xy, worst_yx);
            if (failed)
                fprintf(out, "; %d failed: %s", failed, detail);
            fprintf(out, " (best bandwidth between nodes %.1f MB/s)\n", rep->best_bw_inter);
            lines++;
        }
    /* A node every one of whose links is bad, while other links are fine, is the suspect. */
    for (int x = 0; x < N && N >= 3; x++)
        if (node_links[x] >= 2 && node_bad[x] == node_links[x]) {
            int others_fine = 0;
            for (int y = 0; y < N; y++)
                others_fine |= y != x && node_bad[y] < node_links[y];
            if (others_fine) {
                fprintf(out, "  BAD NODE  %s: all %d of its links to other nodes are bad\n",
                        conform_node_name(rep, x, na, sizeof(na)), node_links[x]);
                lines++;
            }
        }
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            const pair_result_t *pr = &rep->pairs[a * n + b];
            if (pr->inter || !pair_bad(pr) || (rep->dead && (rep->dead[a] || rep->dead[b])))
                continue;
            fprintf(out, "  BAD PAIR  inside %s: ranks %d <-> %d: %s\n",
                    conform_node_name(rep, rep->ranks[a].node, na, sizeof(na)), a, b,
                    pr->failed ? pr->detail : "slow (see junit.xml / report.json)");
            lines++;
        }
    for (int r = 0; rep->dead && r < n; r++)
        if (rep->dead[r]) {
            const char *how = "";
            for (int q = 0; q < n && !how[0]; q++) {
                const pair_result_t *pr = &rep->pairs[(q < r ? q : r) * n + (q < r ? r : q)];
                if (q != r && strstr(pr->detail, "timed out"))
                    how = pr->detail;
            }
            fprintf(out, "  DEAD RANK %s did not answer%s%s\n",
                    conform_rank_name(rep->ranks, r, rn, sizeof(rn)), how[0] ? "; " : "", how);
            lines++;
        }
    free(node_bad);
    free(node_links);
    return lines;
}

/* ---- JUnit XML ------------------------------------------------------------------------------ */

static void xml_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
                fputc(*s, f);
        }
    }
}

static int write_junit(const conform_report_t *rep, const char *path)
{
    static const char *const suites[] = {"node", "world", "link", "collective", "api"};
    FILE *f = fopen(path, "w");
    int tf = 0, ts = 0;
    if (f == NULL)
        return -1;
    for (int i = 0; i < rep->nchecks; i++) {
        tf += rep->checks[i].status == CK_FAIL;
        ts += rep->checks[i].status == CK_SKIP;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"vsym-conform %s\" tests=\"%d\" failures=\"%d\" errors=\"0\" "
               "skipped=\"%d\">\n", rep->mode, rep->nchecks, tf, ts);
    for (size_t s = 0; s < sizeof(suites) / sizeof(suites[0]); s++) {
        int t = 0, fl = 0, sk = 0;
        double time = 0;
        for (int i = 0; i < rep->nchecks; i++)
            if (strcmp(rep->checks[i].suite, suites[s]) == 0) {
                t++;
                fl += rep->checks[i].status == CK_FAIL;
                sk += rep->checks[i].status == CK_SKIP;
                time += rep->checks[i].time_s;
            }
        if (t == 0)
            continue;
        fprintf(f, "  <testsuite name=\"vsym-conform.%s\" tests=\"%d\" failures=\"%d\" "
                   "errors=\"0\" skipped=\"%d\" time=\"%.3f\">\n", suites[s], t, fl, sk, time);
        for (int i = 0; i < rep->nchecks; i++) {
            const ck_result_t *c = &rep->checks[i];
            if (strcmp(c->suite, suites[s]) != 0)
                continue;
            fprintf(f, "    <testcase classname=\"vsym-conform.%s.", c->suite);
            xml_escaped(f, c->subject);
            fprintf(f, "\" name=\"");
            xml_escaped(f, c->name);
            fprintf(f, "\" time=\"%.3f\">", c->time_s);
            if (c->status == CK_FAIL) {
                fprintf(f, "\n      <failure message=\"");
                xml_escaped(f, c->msg);
                fprintf(f, "\" type=\"%s\">", c->name);
                xml_escaped(f, c->msg);
                fprintf(f, "</failure>\n    ");
            } else if (c->status == CK_SKIP) {
                fprintf(f, "\n      <skipped message=\"");
                xml_escaped(f, c->msg);
                fprintf(f, "\"/>\n    ");
            } else {
                fprintf(f, "\n      <system-out>%s: ", c->status == CK_WARN ? "WARN" : "PASS");
                xml_escaped(f, c->msg);
                fprintf(f, "</system-out>\n    ");
            }
            fprintf(f, "</testcase>\n");
        }
        fprintf(f, "  </testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
    return fclose(f) == 0 ? 0 : -1;
}

/* ---- JSON ----------------------------------------------------------------------------------- */

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *report_json(const conform_report_t *rep, int status, int counts[4],
                           const char *heatmap)
{
    char date[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
    json_t *root = json_object();
    json_object_set_new(root, "tool", json_string("vsym-conform"));
    json_object_set_new(root, "schema", json_integer(1));
    json_object_set_new(root, "mode", json_string(rep->mode));
    json_object_set_new(root, "date", json_string(date));
    json_object_set_new(root, "version", json_string(vsym_version()));
    json_object_set_new(root, "commit", json_string(vsym_build_commit()));
    json_object_set_new(root, "exit_status", json_integer(status));
    json_object_set_new(root, "config_file",
                        rep->cfg->path[0] ? json_string(rep->cfg->path) : json_null());
    json_object_set_new(root, "configuration", conform_config_to_json(rep->cfg));
    json_t *settings = json_object();
    for (int i = 0; i < vsym_setting_count(); i++) {
        vsym_setting_t s;
        if (vsym_setting(i, &s) == VSYM_OK)
            json_object_set_new(settings, s.name, json_string(s.value));
    }
    json_object_set_new(root, "settings", settings);
    json_object_set_new(root, "ranks_count", json_integer(rep->nranks));
    json_object_set_new(root, "nodes_count", json_integer(rep->nnodes));
    json_t *ranks = json_array();
    for (int r = 0; r < rep->nranks; r++)
        json_array_append_new(ranks, conform_node_report_json(&rep->ranks[r]));
    json_object_set_new(root, "ranks", ranks);
    json_t *checks = json_array();
    for (int i = 0; i < rep->nchecks; i++) {
        const ck_result_t *c = &rep->checks[i];
        json_array_append_new(checks, json_pack("{s:s,s:s,s:s,s:s,s:s,s:f}", "suite", c->suite,
                                                "name", c->name, "subject", c->subject, "status",
                                                conform_status_name(c->status), "message",
                                                c->msg, "time_s", c->time_s));
    }
    json_object_set_new(root, "checks", checks);
    if (rep->pairs) {
        json_t *pairs = json_array();
        int n = rep->nranks;
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++) {
                const pair_result_t *pr = &rep->pairs[a * n + b];
                if (!pr->tested && !pr->failed)
                    continue;
                json_t *p = json_pack(
                    "{s:i,s:i,s:i,s:i,s:b,s:b,s:b,s:{s:o,s:o,s:o,s:o},s:{s:f,s:f},"
                    "s:{s:i,s:i,s:i},s:{s:b,s:b,s:b},s:s}",
                    "a", a, "b", b, "node_a", rep->ranks[a].node, "node_b", rep->ranks[b].node,
                    "between_nodes", pr->inter, "failed", pr->failed, "retested", pr->retested,
                    "latency_us", "min", num_or_null(pr->lat_min_us), "median",
                    num_or_null(pr->lat_med_us), "avg", num_or_null(pr->lat_avg_us), "p99",
                    num_or_null(pr->lat_p99_us), "bandwidth_MBps", "a_to_b", pr->bw_ab_mbps,
                    "b_to_a", pr->bw_ba_mbps, "errors", "put", pr->put_errors, "get",
                    pr->get_errors, "atomic", pr->amo_errors, "outlier", "latency", pr->bad_lat,
                    "bandwidth_a_to_b", pr->bad_bw_ab, "bandwidth_b_to_a", pr->bad_bw_ba,
                    "detail", pr->detail);
                json_object_set_new(json_object_get(p, "latency_us"), "judged",
                                    num_or_null(pr->lat_us));
                if (pr->retested)
                    json_object_set_new(p, "first_run",
                                        json_pack("{s:f,s:f,s:f}", "latency_us", pr->first_lat_us,
                                                  "a_to_b_MBps", pr->first_bw_ab, "b_to_a_MBps",
                                                  pr->first_bw_ba));
                json_array_append_new(pairs, p);
            }
        json_object_set_new(root, "pairs", pairs);
        json_object_set_new(
            root, "best",
            json_pack("{s:o,s:f,s:o,s:f}", "latency_between_nodes_us",
                      num_or_null(rep->best_lat_inter), "bandwidth_between_nodes_MBps",
                      rep->best_bw_inter, "latency_in_node_us", num_or_null(rep->best_lat_intra),
                      "bandwidth_in_node_MBps", rep->best_bw_intra));
        json_t *dead = json_array();
        for (int r = 0; rep->dead && r < n; r++)
            if (rep->dead[r])
                json_array_append_new(dead, json_pack("{s:i,s:i,s:s,s:i}", "rank", r, "node",
                                                      rep->ranks[r].node, "host",
                                                      rep->ranks[r].host, "pid",
                                                      rep->ranks[r].pid));
        json_object_set_new(root, "dead_ranks", dead);
    }
    if (rep->allreduce)
        json_object_set(root, "allreduce", rep->allreduce);
    json_object_set_new(root, "heatmap", heatmap ? json_string(heatmap) : json_null());
    json_object_set_new(root, "summary", json_pack("{s:i,s:i,s:i,s:i}", "pass", counts[CK_PASS],
                                                   "warn", counts[CK_WARN], "fail",
                                                   counts[CK_FAIL], "skip", counts[CK_SKIP]));
    json_object_set_new(root, "notes", json_string(rep->notes));
    return root;
}

/* ---- heat map ------------------------------------------------------------------------------- */

/* Writes bandwidth.dat and bandwidth.gp; runs gnuplot when it is installed. Returns the PNG's
 * name, or NULL (with a warning) when there is no picture. */
static const char *write_heatmap(conform_report_t *rep)
{
    int n = rep->nranks;
    char path[700], cmd[1600];
    double max = 0;
    if (rep->pairs == NULL || n < 2)
        return NULL;
    snprintf(path, sizeof(path), "%s/bandwidth.dat", rep->out_dir);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return NULL;
    for (int s = 0; s < n; s++) {
        for (int d = 0; d < n; d++) {
            double v = NAN;
            if (s != d) {
                const pair_result_t *pr = &rep->pairs[(s < d ? s : d) * n + (s < d ? d : s)];
                if (pr->tested)
                    v = s < d ? pr->bw_ab_mbps : pr->bw_ba_mbps;
            }
            if (isfinite(v) && v > max)
                max = v;
            fprintf(f, "%s", d ? " " : "");
            if (isfinite(v))
                fprintf(f, "%.3f", v);
            else
                fprintf(f, "NaN");
        }
        fprintf(f, "\n");
    }
    fclose(f);
    snprintf(path, sizeof(path), "%s/bandwidth.gp", rep->out_dir);
    f = fopen(path, "w");
    if (f == NULL)
        return NULL;
    fprintf(f, "# vsym-conform: put bandwidth between ranks (MB/s). Run: gnuplot bandwidth.gp\n");
    fprintf(f, "set terminal png size 900,800\nset output 'bandwidth.png'\n");
    fprintf(f, "set title 'vsym-conform: put bandwidth, MB/s (%d ranks, %d nodes; white: not "
               "tested)'\n", n, rep->nnodes);
    fprintf(f, "set xlabel 'destination rank'\nset ylabel 'source rank'\n");
    /* Source rank 0 on top, as in a printed matrix. */
    fprintf(f, "set xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n", n - 1, n - 1);
    fprintf(f, "set cbrange [0:%g]\nset palette defined (0 'dark-red', 0.5 'yellow', 1 "
               "'dark-green')\n", max > 0 ? max : 1);
    if (n <= 64) {
        fprintf(f, "set xtics 1\nset ytics (");
        for (int r = 0; r < n; r++)
            fprintf(f, "%s'%d n%d' %d", r ? ", " : "", r, rep->ranks[r].node, r);
        fprintf(f, ")\n");
    }
    fprintf(f, "plot 'bandwidth.dat' matrix with image notitle\n");
    fclose(f);
    snprintf(cmd, sizeof(cmd), "command -v gnuplot >/dev/null 2>&1");
    if (system(cmd) != 0) {
        fprintf(stderr, "vsym-conform: warning: gnuplot not found (Debian: apt-get install "
                        "gnuplot-nox); no heat map picture, the data is in %s/bandwidth.dat\n",
                rep->out_dir);
        snprintf(rep->notes + strlen(rep->notes), sizeof(rep->notes) - strlen(rep->notes),
                 "gnuplot missing: no bandwidth.png. ");
        return NULL;
    }
    snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot bandwidth.gp > gnuplot.log 2>&1",
             rep->out_dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "vsym-conform: warning: gnuplot failed (see %s/gnuplot.log)\n",
                rep->out_dir);
        snprintf(rep->notes + strlen(rep->notes), sizeof(rep->notes) - strlen(rep->notes),
                 "gnuplot failed: see gnuplot.log. ");
        return NULL;
    }
    return "bandwidth.png";
}

/* ---- the whole report ---------------------------------------------------------------------- */

static int mkdir_p(const char *dir)
{
    char tmp[512];
    snprintf(tmp, sizeof(tmp), "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(tmp, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static void print_summary(const conform_report_t *rep, FILE *out, int counts[4], int status,
                          const char *heatmap)
{
    static const char *const tag[] = {"PASS", "SKIP", "WARN", "FAIL"};
    fprintf(out, "vsym-conform %s: %d ranks on %d nodes, vsym %s (%s), config %s\n", rep->mode,
            rep->nranks, rep->nnodes, vsym_version(), vsym_build_commit(),
            rep->cfg->path[0] ? rep->cfg->path : "(defaults)");
    fprintf(out, "Output: %s (summary.txt, junit.xml, report.json%s)\n", rep->out_dir,
            heatmap ? ", bandwidth.png" : "");
    const char *suite_title[][2] = {{"node", "Node checks"}, {"world", "Checks across ranks"},
                                    {"api", "API checks"},  {"link", "Fabric (rank pairs)"},
                                    {"collective", "Collective"}};
    for (size_t s = 0; s < sizeof(suite_title) / sizeof(suite_title[0]); s++) {
        int c[4] = {0};
        for (int i = 0; i < rep->nchecks; i++)
            if (strcmp(rep->checks[i].suite, suite_title[s][0]) == 0)
                c[rep->checks[i].status]++;
        if (c[0] + c[1] + c[2] + c[3] == 0)
            continue;
        fprintf(out, "%s: %d pass, %d warn, %d fail, %d skipped\n", suite_title[s][1], c[CK_PASS],
                c[CK_WARN], c[CK_FAIL], c[CK_SKIP]);
        for (int i = 0; i < rep->nchecks; i++) {
            const ck_result_t *k = &rep->checks[i];
            if (strcmp(k->suite, suite_title[s][0]) != 0)
                continue;
            /* Passing link checks are many: only the bad ones are listed. */
            if (k->status == CK_PASS && strcmp(k->suite, "link") == 0)
                continue;
            if (k->status == CK_SKIP && strcmp(k->suite, "node") == 0)
                continue;
            fprintf(out, "  %s  %s: %s: %s\n", tag[k->status], k->subject, k->name, k->msg);
        }
        if (strcmp(suite_title[s][0], "link") == 0) {
            fprintf(out, "  best between nodes: latency %.2f us, bandwidth %.1f MB/s; inside "
                         "nodes: %.2f us, %.1f MB/s\n",
                    isfinite(rep->best_lat_inter) ? rep->best_lat_inter : 0.0,
                    rep->best_bw_inter,
                    isfinite(rep->best_lat_intra) ? rep->best_lat_intra : 0.0,
                    rep->best_bw_intra);
        }
    }
    if (rep->pairs) {
        fprintf(out, "Bad links and nodes:\n");
        if (summarize_links(rep, out) == 0)
            fprintf(out, "  none\n");
    }
    if (rep->notes[0])
        fprintf(out, "Notes: %s\n", rep->notes);
    fprintf(out, "Result: %s (%d failed, %d warnings, %d passed, %d skipped); exit status %d\n",
            status ? "FAIL" : "PASS", counts[CK_FAIL], counts[CK_WARN], counts[CK_PASS],
            counts[CK_SKIP], status);
}

int conform_report_write(conform_report_t *rep)
{
    char path[700];
    int counts[4] = {0};
    add_link_checks(rep);
    if (rep->pairs)
        for (int r = 0; rep->dead && r < rep->nranks; r++)
            if (rep->dead[r]) {
                char name[128], subject[128];
                conform_report_add(rep, "world", "rank_answers",
                                   conform_node_name(rep, rep->ranks[r].node, subject,
                                                     sizeof(subject)),
                                   CK_FAIL, 0, "%s did not answer",
                                   conform_rank_name(rep->ranks, r, name, sizeof(name)));
            }
    for (int i = 0; i < rep->nchecks; i++)
        counts[rep->checks[i].status]++;
    int status = counts[CK_FAIL] ? 1 : 0;
    if (mkdir_p(rep->out_dir) != 0) {
        fprintf(stderr, "vsym-conform: cannot create the output folder %s: %s\n", rep->out_dir,
                strerror(errno));
        print_summary(rep, stdout, counts, status, NULL);
        return 1;
    }
    const char *heatmap = write_heatmap(rep);
    print_summary(rep, stdout, counts, status, heatmap);
    fflush(stdout);
    snprintf(path, sizeof(path), "%s/summary.txt", rep->out_dir);
    FILE *f = fopen(path, "w");
    if (f) {
        print_summary(rep, f, counts, status, heatmap);
        fclose(f);
    }
    snprintf(path, sizeof(path), "%s/junit.xml", rep->out_dir);
    if (write_junit(rep, path) != 0)
        fprintf(stderr, "vsym-conform: cannot write %s\n", path);
    snprintf(path, sizeof(path), "%s/report.json", rep->out_dir);
    json_t *root = report_json(rep, status, counts, heatmap);
    if (json_dump_file(root, path, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10)) != 0)
        fprintf(stderr, "vsym-conform: cannot write %s\n", path);
    json_decref(root);
    return status;
}

/* ---- --init-config ------------------------------------------------------------------------- */

static int status_of(const conform_report_t *rep)
{
    for (int i = 0; i < rep->nchecks; i++)
        if (rep->checks[i].status == CK_FAIL)
            return 1;
    return 0;
}

int conform_config_write_baseline(const conform_report_t *rep, const char *path)
{
    conform_config_t c = *rep->cfg;
    const node_report_t *r0 = &rep->ranks[0];
    int all_dev = 1;
    for (int r = 0; r < rep->nranks; r++)
        all_dev &= rep->ranks[r].device[0] != '\0';
    c.nodes = rep->nnodes;
    c.ranks = rep->nranks;
    c.rdma_required = all_dev;
    if (r0->device[0]) {
        snprintf(c.link_width, sizeof(c.link_width), "%s", r0->width);
        c.link_speed_gbps = r0->speed_gbps;
        c.mtu = r0->active_mtu;
    }
    if (strcmp(r0->sys.governor, "unknown") != 0)
        snprintf(c.governor, sizeof(c.governor), "%s", r0->sys.governor);
    /* Absolute limits from what this (healthy) run measured, with room for noise: three times
     * the worst latency, half the worst bandwidth. */
    double wl[2] = {0, 0}, wb[2] = {INFINITY, INFINITY};
    int n = rep->nranks;
    for (int i = 0; rep->pairs && i < n * n; i++) {
        const pair_result_t *pr = &rep->pairs[i];
        if (!pr->tested || pr->failed)
            continue;
        int k = pr->inter ? 0 : 1;
        if (pr->lat_us > wl[k])
            wl[k] = pr->lat_us;
        if (pr->bw_ab_mbps < wb[k])
            wb[k] = pr->bw_ab_mbps;
        if (pr->bw_ba_mbps < wb[k])
            wb[k] = pr->bw_ba_mbps;
    }
    if (wl[0] > 0)
        c.max_latency_us = ceil(3 * wl[0]);
    if (isfinite(wb[0]))
        c.min_bandwidth_mbps = floor(wb[0] / 2);
    if (wl[1] > 0)
        c.intra_max_latency_us = ceil(3 * wl[1]);
    if (isfinite(wb[1]))
        c.intra_min_bandwidth_mbps = floor(wb[1] / 2);
    json_t *ar = rep->allreduce ? json_object_get(rep->allreduce, "busbw_MBps") : NULL;
    if (ar && rep->nranks > 1)
        c.min_busbw_mbps = floor(json_number_value(ar) / 2);
    json_t *root = conform_config_to_json(&c);
    int rc = json_dump_file(root, path,
                            JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(root);
    if (rc != 0)
        fprintf(stderr, "vsym-conform: cannot write %s\n", path);
    else
        printf("vsym-conform: wrote the baseline configuration %s%s\n", path,
               rep->nchecks && status_of(rep) ? " (this run had failures: review it before use)"
                                              : "");
    return rc == 0 ? 0 : 1;
}
