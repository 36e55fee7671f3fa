/* Shared pieces of the peer programs (see peer_common.h). */
#include "peer_common.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

static void usage(const char *tool, const char *msg, const char *arg)
{
    fprintf(stderr,
            "%s: %s%s%s (options: -b SIZE -e SIZE -f N -n N -w N --window N --json FILE "
            "--flags TEXT --only NAME%s)\n",
            tool, msg, arg ? " " : "", arg ? arg : "",
            strcmp(tool, "memcpy-bench") == 0 ? " --loaded"
            : strcmp(tool, "mpi-coll") == 0   ? " --touch --consume"
                                              : "");
    exit(2);
}

static size_t size_arg(const char *tool, const char *text)
{
    size_t v;
    if (vsym_util_parse_size(text, &v) != VSYM_OK || v == 0) usage(tool, "bad size", text);
    return v;
}

static long long_arg(const char *tool, const char *text, long min)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < min) usage(tool, "bad number", text);
    return v;
}

void peer_parse(int argc, char **argv, const char *tool, peer_opts_t *o)
{
    static const struct option longopts[] = {
        {"window", required_argument, NULL, 'W'},
        {"json", required_argument, NULL, 'J'},
        {"flags", required_argument, NULL, 'F'},
        {"only", required_argument, NULL, 'O'},
        {"loaded", no_argument, NULL, 'L'},
        {"touch", no_argument, NULL, 'T'},
        {"consume", no_argument, NULL, 'C'},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(o, 0, sizeof(*o));
    o->input_byte = -1;
    o->tool = tool;
    o->min_size = 8;
    o->max_size = 4u << 20;
    o->factor = 2;
    o->warmup = -1;
    o->window = 64;
    o->json = "-";
    o->flags = "";
    o->ranks = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":b:e:f:n:w:", longopts, NULL)) != -1) {
        switch (c) {
        case 'b':
            o->min_size = size_arg(tool, optarg);
            break;
        case 'e':
            o->max_size = size_arg(tool, optarg);
            break;
        case 'f':
            o->factor = (size_t)long_arg(tool, optarg, 2);
            break;
        case 'n':
            o->iterations = long_arg(tool, optarg, 1);
            break;
        case 'w':
            o->warmup = long_arg(tool, optarg, 0);
            break;
        case 'W':
            o->window = (int)long_arg(tool, optarg, 1);
            break;
        case 'J':
            o->json = optarg;
            break;
        case 'F':
            o->flags = optarg;
            break;
        case 'O':
            o->only = optarg;
            break;
        case 'L':
            if (strcmp(tool, "memcpy-bench") != 0) usage(tool, "unknown option", "--loaded");
            o->loaded = -1;
            break;
        case 'T':
            if (strcmp(tool, "mpi-coll") != 0) usage(tool, "unknown option", "--touch");
            o->touch = 1;
            break;
        case 'C':
            if (strcmp(tool, "mpi-coll") != 0) usage(tool, "unknown option", "--consume");
            o->consume = 1;
            break;
        case ':':
            usage(tool, "missing value for", argv[optind - 1]);
            break;
        default:
            usage(tool, "unknown option", argv[optind - 1]);
        }
    }
    if (optind < argc) usage(tool, "unexpected argument", argv[optind]);
    if (o->min_size > o->max_size) usage(tool, "-b is larger than -e", NULL);
}

void peer_check_only(const peer_opts_t *o, const char *const *names, size_t n)
{
    if (o->only == NULL) return;
    char list[256] = "";
    for (size_t k = 0; k < n; k++) {
        if (strcmp(o->only, names[k]) == 0) return;
        size_t len = strlen(list);
        snprintf(list + len, sizeof(list) - len, "%s%s", k ? ", " : "", names[k]);
    }
    fprintf(stderr, "%s: unknown --only '%s' (%s)\n", o->tool, o->only, list);
    exit(2);
}

double peer_clock_ns(void)
{
    const int n = 20000;
    uint64_t t0 = vsym_util_time_ns(), t = 0;
    for (int i = 0; i < n; i++)
        t += vsym_util_time_ns();
    return (double)(vsym_util_time_ns() - t0) / n + (t == 1 ? 1e-9 : 0);
}

long peer_iterations(const peer_opts_t *o, double bytes)
{
    const double cap = 1024.0 * 1024.0 * 1024.0;
    long n = 1000;
    if (o->iterations > 0) return o->iterations;
    if (bytes > 0 && n * bytes > cap) n = (long)(cap / bytes);
    return n < 10 ? 10 : n;
}

long peer_window(const peer_opts_t *o, size_t size)
{
    const size_t cap = 64u << 20;
    long w = o->window;
    if (size > 0 && (size_t)w * size > cap) w = (long)(cap / size);
    return w < 1 ? 1 : w;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, c = *(const double *)y;
    return (a > c) - (a < c);
}

static double pct(const double *v, size_t n, double p)
{
    size_t k = (size_t)ceil(p * (double)n);
    return v[k == 0 ? 0 : k - 1] / 1e3;
}

void peer_measure(const peer_opts_t *o, double clock_ns, peer_unit_fn fn, void *arg,
                  double bytes_per_unit, double ops_per_unit, double lat_divisor, long iterations,
                  peer_stats_t *st)
{
    long iters = iterations > 0 ? iterations : peer_iterations(o, bytes_per_unit);
    long warm = o->warmup >= 0 ? o->warmup : (iters / 10 > 5 ? iters / 10 : 5); /* as vsym-bench */
    long calib = warm > 0 ? warm : 1, i = 0, batch, done = 0;
    uint64_t t0, t1, total = 0;
    double unit_ns, peak = 0, sum = 0, *v;
    size_t n = 0;

    t0 = vsym_util_time_ns();
    for (; i < calib; i++)
        fn(arg, i);
    t1 = vsym_util_time_ns();
    unit_ns = (double)(t1 - t0) / (double)calib;
    if (unit_ns < 1) unit_ns = 1;
    batch = (long)ceil(100.0 * clock_ns / unit_ns);
    if (batch < 1) batch = 1;
    if (batch > iters) batch = iters;
    v = malloc((size_t)((iters + batch - 1) / batch) * sizeof(*v));
    if (v == NULL) {
        fprintf(stderr, "%s: out of memory\n", o->tool);
        exit(1);
    }
    while (done < iters) {
        long k = iters - done < batch ? iters - done : batch;
        t0 = vsym_util_time_ns();
        for (long j = 0; j < k; j++, i++)
            fn(arg, i);
        t1 = vsym_util_time_ns();
        total += t1 - t0;
        done += k;
        if (t1 > t0 && bytes_per_unit * (double)k / (double)(t1 - t0) > peak)
            peak = bytes_per_unit * (double)k / (double)(t1 - t0);
        v[n++] = (double)(t1 - t0) / (double)k / lat_divisor;
    }
    qsort(v, n, sizeof(*v), cmp_double);
    for (size_t j = 0; j < n; j++)
        sum += v[j];
    memset(st, 0, sizeof(*st));
    st->iterations = done;
    st->warmup = warm;
    st->batch = batch;
    st->lat_min = v[0] / 1e3;
    st->lat_max = v[n - 1] / 1e3;
    st->lat_avg = sum / (double)n / 1e3;
    st->lat_median = (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) / 1e3;
    st->lat_p99 = pct(v, n, 0.99);
    st->lat_p999 = pct(v, n, 0.999);
    st->bw_peak = peak;
    st->bw_avg = total ? bytes_per_unit * (double)done / (double)total : 0;
    st->mops = total ? ops_per_unit * (double)done / ((double)total / 1e3) : 0;
    st->seconds = (double)total / 1e9;
    free(v);
}

vsym_bench_results_t *peer_open(const peer_opts_t *o)
{
    vsym_bench_results_t *r;
    char err[512];
    if (vsym_bench_results_open(o->json, 0, &r, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s: %s\n", o->tool, err);
        exit(1);
    }
    return r;
}

void peer_emit(vsym_bench_results_t *r, const peer_opts_t *o, double clock_ns, const char *suite,
               const char *op, const char *mode, size_t size, const peer_stats_t *st)
{
    vsym_sysinfo_t si;
    char date[32], err[512];
    json_t *rec, *cfg;

    memset(&si, 0, sizeof(si));
    vsym_sysinfo_get(&si);
    cfg = json_object();
    json_object_set_new(cfg, "host", json_string(si.host));
    json_object_set_new(cfg, "cpu_model", json_string(si.cpu_model));
    json_object_set_new(cfg, "cores", json_integer(si.cores_online));
    json_object_set_new(cfg, "cpus_allowed", json_string(si.cpus_allowed));
    json_object_set_new(cfg, "governor", json_string(si.governor));
    json_object_set_new(cfg, "numa_node", json_integer(si.numa_node));
    json_object_set_new(cfg, "numa_nodes", json_integer(si.numa_nodes));
    json_object_set_new(cfg, "kernel", json_string(si.kernel));
    json_object_set_new(cfg, "clock", json_string(si.clock));
    json_object_set_new(cfg, "clock_cost_ns", json_real(clock_ns));
    json_object_set_new(cfg, "ranks", json_integer(o->ranks));
    json_object_set_new(cfg, "nodes", json_integer(1));
    json_object_set_new(cfg, "flags", json_string(o->flags));
    if (o->loaded > 0) json_object_set_new(cfg, "loaded_cpus", json_integer(o->loaded));
    json_object_set_new(cfg, "freq_cur_khz",
                        si.freq_cur_khz > 0 ? json_integer(si.freq_cur_khz)
                                            : json_string("unknown"));
    json_object_set_new(cfg, "freq_max_khz",
                        si.freq_max_khz > 0 ? json_integer(si.freq_max_khz)
                                            : json_string("unknown"));
    rec = json_pack("{sisssssssssIsssIsIsIsf}", "schema", VSYM_BENCH_SCHEMA, "tool", o->tool,
                    "suite", suite, "op", op, "mode", mode, "size", (json_int_t)size, "date",
                    vsym_bench_utc_now(date, sizeof(date)), "iterations",
                    (json_int_t)st->iterations, "warmup", (json_int_t)st->warmup, "batch",
                    (json_int_t)st->batch, "seconds", st->seconds);
    if (st->window > 0) json_object_set_new(rec, "window", json_integer(st->window));
    if (o->touch) json_object_set_new(rec, "touch", json_true()); /* as vsym-bench's records */
    if (o->consume) json_object_set_new(rec, "consume", json_true());
    if (o->input_byte >= 0) json_object_set_new(rec, "input_byte", json_integer(o->input_byte));
    if (st->core_rtt_ns > 0) json_object_set_new(rec, "core_rtt_ns", json_real(st->core_rtt_ns));
    json_object_set_new(rec, "lat_us",
                        json_pack("{sfsfsfsfsfsf}", "min", st->lat_min, "median", st->lat_median,
                                  "avg", st->lat_avg, "p99", st->lat_p99, "p99.9", st->lat_p999,
                                  "max", st->lat_max));
    json_object_set_new(rec, "bw_gbs", json_pack("{sfsf}", "avg", st->bw_avg, "peak", st->bw_peak));
    json_object_set_new(rec, "mops", json_real(st->mops));
    json_object_set_new(rec, "config", cfg);
    if (vsym_bench_results_add(r, rec, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s: %s\n", o->tool, err);
        exit(1);
    }
    json_decref(rec);
}

size_t peer_coll_count(size_t s, size_t per, size_t es, int *count_p)
{
    *count_p = (int)(s / es / per);
    return (size_t)*count_p * es * per;
}
