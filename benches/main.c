/* vsym-bench: the benchmark driver. Options, set-up, configuration record, suite dispatch.
 *
 *   launch/vsym-run -n 2 -- build/benches/vsym-bench put -a --json put.jsonl
 */
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "util/util.h"

/* Before vsym_init() the rank is unknown; only the launcher's rank 0 (or a process started
 * without a launcher) prints option errors, so that a bad command line gives one line. */
static int launcher_rank0(void)
{
    const char *r = getenv("PMIX_RANK");
    if (r == NULL) r = getenv("OMPI_COMM_WORLD_RANK");
    return r == NULL || strcmp(r, "0") == 0;
}

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void usage_error(const char *fmt, ...)
{
    if (launcher_rank0()) {
        va_list ap;
        fprintf(stderr, "vsym-bench: ");
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, " (vsym-bench --help)\n");
    }
    exit(VSYM_BENCH_EXIT_USAGE);
}

static void print_help(void)
{
    printf("usage: vsym-run -n 2 -- vsym-bench SUITE [options]\n\nsuites:\n");
    for (int i = 0; i < vsym_bench_suite_count; i++)
        printf("  %-12s %s\n", vsym_bench_suites[i]->name, vsym_bench_suites[i]->help);
    printf("\noptions (sizes accept 4K, 1M, 1G):\n"
           "  -b, --min-size SIZE   first size of the sweep\n"
           "  -e, --max-size SIZE   last size of the sweep\n"
           "  -f, --factor N        multiply the size by N each step (default 2)\n"
           "  -i, --step SIZE       add SIZE to the size each step instead (at most 1000 sizes)\n"
           "  -a, --all             sizes 2 B .. 8 MiB\n"
           "  -s, --size SIZE       one size\n"
           "  -n, --iters N         timed units per size (default 1000, at most 1 GiB moved)\n"
           "  -w, --warmup N        untimed units first (default a tenth of -n, at least 5)\n"
           "  -D, --duration S      seconds per size instead of -n\n"
           "      --mode lat|bw|both  latency (ping-pong / per op), bandwidth (window + quiet)\n"
           "      --window N        non-blocking ops per window in bw mode (default 64)\n"
           "  -c, --check           validate the data at the target (#wrong, exit 1 if any)\n"
           "      --algo NAME       collective algorithm: auto, oneshot, twoshot, ring, rd, hier\n"
           "                        (sets VSYM_COLL_ALGO, so the records carry it)\n"
           "      --touch           collectives: a store into every line of src before each\n"
           "                        call (timed), as new data leaves it\n"
           "      --consume         collectives: a load of every line of dst after each call\n"
           "                        (timed), as a caller that uses the result does\n"
           "      --pairs           every rank pair in turn (others wait), not only 0 and 1;\n"
           "                        then the outlier pairs (ClusterKit's 2.1x / 93%% rule)\n"
           "      --op NAME         one operation of the suite (atomic: fetch-add, add, cswap,\n"
           "                        swap, fetch, set, and the 32-bit fetch-add32, ...;\n"
           "                        all-reduce, reduce-scatter: sum, min, max, prod (integer\n"
           "                        dtypes), all: each in turn, prod on integer dtypes)\n"
           "      --pattern NAME    the same as --op (copy: ring, alltoall, scatter, gather,\n"
           "                        random, incast)\n"
           "  -r, --root R          broadcast: the root rank (default 0)\n"
           "      --dtype NAME      data type (collectives: f32, f64, f16, bf16, i32, i64, u64;\n"
           "                        all: each in turn, a table each)\n"
           "      --send KIND       copy: send buffers in ordinary (malloc, default) or\n"
           "                        symmetric memory (the heap: sent without staging over verbs)\n"
           "      --json FILE       JSON lines, one record per (suite, op, size, mode)\n"
           "      --append          add to FILE instead of replacing it\n"
           "      --csv             CSV instead of aligned columns on stdout\n"
           "      --quiet           no table on stdout\n"
           "      --timeout S       seconds any wait for a peer may last (default VSYM_TIMEOUT)\n"
           "reshard: --model NAME | --model-file FILE, --from LAYOUT, --to LAYOUT (tp=2,pp=2,\n"
           "         dp=1,ep=1,etp=2), --scale 1/N (each dimension / N, default 1/64)\n"
           "exit status: 0 ok, 1 run-time error or wrong data, 2 bad options or rank count\n");
}

static size_t parse_size_opt(const char *opt, const char *text)
{
    size_t v;
    if (vsym_util_parse_size(text, &v) != VSYM_OK) usage_error("%s: %s", opt, vsym_error_detail());
    if (v == 0) usage_error("%s: size 0 is not a message size", opt);
    return v;
}

static long parse_long_opt(const char *opt, const char *text, long min, long max)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < min || v > max)
        usage_error("%s: expected an integer in [%ld, %ld], got '%s'", opt, min, max, text);
    return v;
}

static double parse_double_opt(const char *opt, const char *text, double min)
{
    char *end;
    double v = strtod(text, &end);
    if (*text == '\0' || *end != '\0' || !(v >= min))
        usage_error("%s: expected a number >= %g, got '%s'", opt, min, text);
    return v;
}

enum {
    OPT_MODE = 1000,
    OPT_CHECK,
    OPT_ALGO,
    OPT_PAIRS,
    OPT_JSON,
    OPT_APPEND,
    OPT_CSV,
    OPT_QUIET,
    OPT_WINDOW,
    OPT_OP,
    OPT_DTYPE,
    OPT_TIMEOUT,
    OPT_TEST_CORRUPT,
    OPT_TOUCH,
    OPT_CONSUME,
    OPT_MODEL,
    OPT_MODEL_FILE,
    OPT_FROM,
    OPT_TO,
    OPT_SCALE,
    OPT_SEND,
};

static const vsym_bench_suite_t *find_suite(const char *name)
{
    for (int i = 0; i < vsym_bench_suite_count; i++)
        if (strcmp(vsym_bench_suites[i]->name, name) == 0) return vsym_bench_suites[i];
    return NULL;
}

static void parse_options(int argc, char **argv, vsym_bench_opts_t *o,
                          const vsym_bench_suite_t **suite_p)
{
    static const struct option longopts[] = {
        {"min-size", required_argument, NULL, 'b'},
        {"max-size", required_argument, NULL, 'e'},
        {"factor", required_argument, NULL, 'f'},
        {"step", required_argument, NULL, 'i'},
        {"all", no_argument, NULL, 'a'},
        {"size", required_argument, NULL, 's'},
        {"iters", required_argument, NULL, 'n'},
        {"warmup", required_argument, NULL, 'w'},
        {"duration", required_argument, NULL, 'D'},
        {"help", no_argument, NULL, 'h'},
        {"mode", required_argument, NULL, OPT_MODE},
        {"check", no_argument, NULL, OPT_CHECK},
        {"algo", required_argument, NULL, OPT_ALGO},
        {"pairs", no_argument, NULL, OPT_PAIRS},
        {"json", required_argument, NULL, OPT_JSON},
        {"append", no_argument, NULL, OPT_APPEND},
        {"csv", no_argument, NULL, OPT_CSV},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"window", required_argument, NULL, OPT_WINDOW},
        {"op", required_argument, NULL, OPT_OP},
        {"pattern", required_argument, NULL, OPT_OP}, /* copy: --op by the name it documents */
        {"dtype", required_argument, NULL, OPT_DTYPE},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"test-corrupt", no_argument, NULL, OPT_TEST_CORRUPT},
        {"touch", no_argument, NULL, OPT_TOUCH},
        {"consume", no_argument, NULL, OPT_CONSUME},
        {"model", required_argument, NULL, OPT_MODEL},
        {"model-file", required_argument, NULL, OPT_MODEL_FILE},
        {"from", required_argument, NULL, OPT_FROM},
        {"to", required_argument, NULL, OPT_TO},
        {"scale", required_argument, NULL, OPT_SCALE},
        {"send", required_argument, NULL, OPT_SEND},
        {"root", required_argument, NULL, 'r'},
        {NULL, 0, NULL, 0},
    };
    int c, have_b = 0, have_e = 0, have_s = 0, have_a = 0, have_root = 0, have_f = 0;
    const char *b_text = "", *e_text = "";
    const vsym_bench_suite_t *suite;
    char err[256];

    memset(o, 0, sizeof(*o));
    o->factor = 2;
    o->warmup = -1;
    o->modes = VSYM_BENCH_LAT | VSYM_BENCH_BW;
    o->window = 64;
    opterr = 0; /* our own one-line messages */
    while ((c = getopt_long(argc, argv, ":b:e:f:i:as:n:w:D:hcr:", longopts, NULL)) != -1) {
        const char *name = optind > 1 ? argv[optind - 1] : "?";
        switch (c) {
        case 'b':
            o->min_size = parse_size_opt("-b", optarg);
            b_text = optarg;
            have_b = 1;
            break;
        case 'e':
            o->max_size = parse_size_opt("-e", optarg);
            e_text = optarg;
            have_e = 1;
            break;
        case 'f':
            o->factor = (size_t)parse_long_opt("-f", optarg, 2, 1024);
            have_f = 1;
            break;
        case 'i':
            o->step = parse_size_opt("-i", optarg);
            break;
        case 'a':
            have_a = 1;
            break;
        case 's':
            o->min_size = o->max_size = parse_size_opt("-s", optarg);
            have_s = 1;
            break;
        case 'n':
            o->iterations = parse_long_opt("-n", optarg, 1, 1000000000L);
            break;
        case 'w':
            o->warmup = parse_long_opt("-w", optarg, 0, 1000000000L);
            break;
        case 'D':
            o->duration_s = parse_double_opt("-D", optarg, 0.001);
            break;
        case 'h':
            print_help();
            exit(0);
        case OPT_MODE:
            if (strcmp(optarg, "lat") == 0)
                o->modes = VSYM_BENCH_LAT;
            else if (strcmp(optarg, "bw") == 0)
                o->modes = VSYM_BENCH_BW;
            else if (strcmp(optarg, "both") == 0)
                o->modes = VSYM_BENCH_LAT | VSYM_BENCH_BW;
            else
                usage_error("--mode: expected lat, bw or both, got '%s'", optarg);
            break;
        case 'c':
        case OPT_CHECK:
            o->check = 1;
            break;
        case OPT_ALGO:
            /* The algorithm is a library setting: set it before vsym_init reads the settings, so
             * that every record's settings show it. */
            if (strcmp(optarg, "auto") && strcmp(optarg, "oneshot") && strcmp(optarg, "twoshot") &&
                strcmp(optarg, "ring") && strcmp(optarg, "rd") && strcmp(optarg, "hier"))
                usage_error("--algo: expected auto, oneshot, twoshot, ring, rd or hier, got '%s'",
                            optarg);
            setenv("VSYM_COLL_ALGO", optarg, 1);
            break;
        case OPT_PAIRS:
            o->pairs = 1;
            break;
        case OPT_JSON:
            o->json_path = optarg;
            break;
        case OPT_APPEND:
            o->json_append = 1;
            break;
        case OPT_CSV:
            o->csv = 1;
            break;
        case OPT_QUIET:
            o->quiet = 1;
            break;
        case OPT_WINDOW:
            o->window = (int)parse_long_opt("--window", optarg, 1, 65536);
            break;
        case OPT_OP:
            o->op = optarg;
            break;
        case OPT_DTYPE:
            o->dtype = optarg;
            break;
        case OPT_TIMEOUT:
            o->timeout_s = parse_double_opt("--timeout", optarg, 0.001);
            break;
        case OPT_TOUCH:
            o->touch = 1;
            break;
        case 'r':
            o->root = (int)parse_long_opt("--root", optarg, 0, INT_MAX);
            have_root = 1;
            break;
        case OPT_CONSUME:
            o->consume = 1;
            break;
        case OPT_TEST_CORRUPT:
            o->test_corrupt = 1;
            break;
        case OPT_MODEL:
            o->model = optarg;
            break;
        case OPT_MODEL_FILE:
            o->model_file = optarg;
            break;
        case OPT_FROM:
            o->from = optarg;
            break;
        case OPT_TO:
            o->to = optarg;
            break;
        case OPT_SCALE:
            o->scale = optarg;
            break;
        case OPT_SEND:
            if (strcmp(optarg, "ordinary") && strcmp(optarg, "symmetric"))
                usage_error("--send: expected ordinary or symmetric, got '%s'", optarg);
            o->send_symmetric = strcmp(optarg, "symmetric") == 0;
            break;
        case ':':
            usage_error("option %s needs a value", name);
        default:
            usage_error("unknown option '%s'", name);
        }
    }
    if (optind >= argc) usage_error("no suite given");
    o->suite = argv[optind];
    if (optind + 1 < argc)
        usage_error("unexpected argument '%s' after the suite", argv[optind + 1]);
    suite = find_suite(o->suite);
    if (suite == NULL) {
        char names[512] = "";
        for (int i = 0; i < vsym_bench_suite_count; i++) {
            strncat(names, i ? ", " : "", sizeof(names) - strlen(names) - 1);
            strncat(names, vsym_bench_suites[i]->name, sizeof(names) - strlen(names) - 1);
        }
        usage_error("unknown suite '%s' (suites: %s)", o->suite, names);
    }
    if (have_a && (have_b || have_e || have_s))
        usage_error("-a cannot be combined with -b, -e or -s");
    if (have_s && (have_b || have_e)) usage_error("-s cannot be combined with -b or -e");
    if (o->step > 0 && (have_f || have_s || have_a))
        usage_error("-i (add to the size) cannot be combined with -f, -s or -a");
    if (have_a) {
        o->min_size = 2;
        o->max_size = 8u << 20;
    } else if (have_b && !have_e) {
        o->max_size = o->min_size > suite->default_max_size ? o->min_size : suite->default_max_size;
    } else if (have_e && !have_b) {
        o->min_size = o->max_size < suite->default_min_size ? o->max_size : suite->default_min_size;
        if (o->min_size == 0) o->min_size = 1;
    }
    if ((have_b && have_e) && o->min_size > o->max_size)
        usage_error("-b %s (%zu bytes) is larger than -e %s (%zu bytes)", b_text, o->min_size,
                    e_text, o->max_size);
    o->sizes_given = have_a || have_b || have_e || have_s;
    if (o->step > 0) {
        const size_t lo = o->sizes_given ? o->min_size : suite->default_min_size,
                     hi = o->sizes_given ? o->max_size : suite->default_max_size;
        if ((hi - lo) / o->step >= VSYM_BENCH_MAX_SIZES)
            usage_error("-i %zu from %zu to %zu bytes makes more than %d sizes", o->step, lo, hi,
                        VSYM_BENCH_MAX_SIZES);
    }
    if (o->json_append && o->json_path == NULL) usage_error("--append needs --json FILE");
    if (o->json_path != NULL && strcmp(o->json_path, "-") != 0) {
        /* The file is replaced through a temporary file in its folder: that folder must be
         * writable, which is checked now rather than after the first measurement. */
        char *copy = strdup(o->json_path);
        const char *dir = copy ? dirname(copy) : ".";
        if (access(dir, W_OK | X_OK) != 0)
            usage_error("--json %s: folder '%s' is not writable or does not exist", o->json_path,
                        dir);
        free(copy);
    }
    if (suite->check_opts != NULL && suite->check_opts(o, err, sizeof(err)) != 0)
        usage_error("%s: %s", suite->name, err);
    if ((o->touch || o->consume) && strcmp(suite->name, "allreduce") &&
        strcmp(suite->name, "allgather") && strcmp(suite->name, "reduce-scatter") &&
        strcmp(suite->name, "broadcast") && strcmp(suite->name, "alltoall") &&
        strcmp(suite->name, "fused"))
        usage_error("%s: the collectives' option (allreduce, allgather, reduce-scatter, "
                    "broadcast, alltoall, fused), not %s's",
                    o->touch ? "--touch" : "--consume", suite->name);
    if (have_root && strcmp(suite->name, "broadcast"))
        usage_error("--root: the broadcast's option, not %s's", suite->name);
    *suite_p = suite;
}

static int compute_sizes(vsym_bench_t *b)
{
    const vsym_bench_opts_t *o = b->opts;
    size_t lo = o->sizes_given ? o->min_size : b->suite->default_min_size;
    size_t hi = o->sizes_given ? o->max_size : b->suite->default_max_size;
    int n = 0;

    b->sizes = calloc(VSYM_BENCH_MAX_SIZES, sizeof(size_t));
    if (b->sizes == NULL) return -1;
    if (b->suite->sizeless || hi == 0) {
        b->sizes[0] = b->suite->sizeless ? 0 : lo;
        b->nsizes = 1;
        b->max_size = b->sizes[0];
        return 0;
    }
    if (lo == 0) lo = 1;
    /* nccl-tests' rules: lo, lo*f, lo*f^2, ... while not above hi; with -i lo, lo+i, lo+2i, ...
     * (parse_options checked the count) */
    for (size_t s = lo; n<VSYM_BENCH_MAX_SIZES; s = o->step> 0 ? s + o->step : s * o->factor) {
        b->sizes[n++] = s;
        if (o->step > 0 ? hi - s < o->step : s > hi / o->factor) break;
    }
    b->nsizes = n;
    b->max_size = b->sizes[b->nsizes - 1];
    return 0;
}

static double measure_clock_ns(void)
{
    const int n = 20000;
    uint64_t t0 = vsym_util_time_ns(), t = 0;
    for (int i = 0; i < n; i++)
        t += vsym_util_time_ns();
    /* t is used so that the calls are not optimised away */
    return (double)(vsym_util_time_ns() - t0) / n + (t == 1 ? 1e-9 : 0);
}

/* Where a rank runs: its CPUs and pid (build_config's exchange, print_preamble). */
typedef struct {
    char cpus[sizeof(((vsym_sysinfo_t *)0)->cpus_allowed)];
    int64_t pid;
} where_t;

/* nccl-tests' preamble on stdout (rank 0): the run's options, then a line per rank with its pid,
 * host (hosts: n names of host_len bytes) and CPUs. */
static void print_preamble(const vsym_bench_t *b, const char *hosts, size_t host_len,
                           const where_t *where)
{
    const vsym_bench_opts_t *o = b->opts;
    char lo[32], hi[32], step[40], sizes[128] = "", iters[32] = "auto", warm[32] = "auto";
    if (!b->suite->sizeless) {
        if (o->step > 0)
            snprintf(step, sizeof(step), "+%s", vsym_util_format_size(o->step, lo, sizeof(lo)));
        else
            snprintf(step, sizeof(step), "x%zu", o->factor);
        snprintf(sizes, sizeof(sizes), "  sizes %s .. %s (%s)",
                 vsym_util_format_size(b->sizes[0], lo, sizeof(lo)),
                 vsym_util_format_size(b->max_size, hi, sizeof(hi)), step);
    }
    if (o->duration_s > 0)
        snprintf(iters, sizeof(iters), "%gs", o->duration_s);
    else if (o->iterations > 0)
        snprintf(iters, sizeof(iters), "%ld", o->iterations);
    if (o->warmup >= 0) snprintf(warm, sizeof(warm), "%ld", o->warmup);
    printf("# vsym-bench %s  ranks %d  nodes %d%s  iters %s  warmup %s  check %d  commit %s\n",
           b->suite->name, b->nranks, b->nnodes, sizes, iters, warm, o->check, vsym_build_commit());
    for (int r = 0; r < b->nranks; r++)
        printf("#  Rank %3d  Pid %7lld  on %s  cpus %s\n", r, (long long)where[r].pid,
               hosts + (size_t)r * host_len, where[r].cpus);
    fflush(stdout);
}

/* The effective configuration of this run, recorded with every result (results/README.md). */
static vsym_status_t build_config(vsym_bench_t *b, int argc, char **argv)
{
    vsym_sysinfo_t si;
    vsym_status_t st;
    json_t *cfg = json_object(), *hosts = json_array(), *tp = json_array(), *matrix = json_array();
    json_t *settings = json_object(), *from_env = json_array();
    char *all_hosts = NULL, *row = NULL, *all_rows = NULL, cmd[1024] = "";
    size_t n = (size_t)b->nranks;
    where_t mine = {.pid = (int64_t)getpid()}, *all_where = NULL;
    json_t *cpus = json_array();

    st = vsym_sysinfo_get(&si);
    if (st != VSYM_OK) goto out;
    all_hosts = calloc(n, sizeof(si.host));
    row = calloc(n, 8);
    all_rows = calloc(n * n, 8);
    all_where = calloc(n, sizeof(*all_where));
    if (all_hosts == NULL || row == NULL || all_rows == NULL || all_where == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "bench: configuration of %zu ranks", n);
        goto out;
    }
    st = vsym_team_exchange(b->world, si.host, sizeof(si.host), all_hosts);
    if (st != VSYM_OK) goto out;
    snprintf(mine.cpus, sizeof(mine.cpus), "%s", si.cpus_allowed);
    st = vsym_team_exchange(b->world, &mine, sizeof(mine), all_where);
    if (st != VSYM_OK) goto out;
    /* Each rank's view of the transports to every peer: the matrix gives the transport of any
     * pair under --pairs. */
    for (size_t r = 0; r < n; r++) {
        const char *name = (int)r == b->rank ? "self" : vsym_team_transport_of(b->world, (int)r);
        snprintf(row + 8 * r, 8, "%s", name ? name : "unknown");
    }
    st = vsym_team_exchange(b->world, row, 8 * n, all_rows);
    if (st != VSYM_OK) goto out;
    for (size_t r = 0; r < n; r++) {
        json_t *mrow = json_array();
        all_hosts[r * sizeof(si.host) + sizeof(si.host) - 1] = '\0';
        json_array_append_new(hosts, json_string(all_hosts + r * sizeof(si.host)));
        all_where[r].cpus[sizeof(all_where[r].cpus) - 1] = '\0';
        json_array_append_new(cpus, json_string(all_where[r].cpus));
        for (size_t c = 0; c < n; c++) {
            char *cell = all_rows + (r * n + c) * 8;
            cell[7] = '\0';
            json_array_append_new(mrow, json_string(cell));
        }
        json_array_append_new(matrix, mrow);
        json_array_append_new(tp, json_string(row + 8 * r));
    }
    for (int i = 0; i < vsym_setting_count(); i++) {
        vsym_setting_t s;
        if (vsym_setting(i, &s) != VSYM_OK) continue;
        json_object_set_new(settings, s.name, json_string(s.value));
        if (s.from_env) json_array_append_new(from_env, json_string(s.name));
    }
    for (int i = 0; i < argc; i++) {
        strncat(cmd, i ? " " : "", sizeof(cmd) - strlen(cmd) - 1);
        strncat(cmd, argv[i], sizeof(cmd) - strlen(cmd) - 1);
    }
    json_object_set_new(cfg, "host", json_string(si.host));
    json_object_set_new(cfg, "hosts", hosts);
    json_object_set_new(cfg, "cpu_model", json_string(si.cpu_model));
    json_object_set_new(cfg, "cores", json_integer(si.cores_online));
    json_object_set_new(cfg, "cpus_allowed", json_string(si.cpus_allowed));
    json_object_set_new(cfg, "cpus_allowed_by_rank", cpus);
    json_object_set_new(cfg, "governor", json_string(si.governor));
    json_object_set_new(cfg, "freq_cur_khz",
                        si.freq_cur_khz > 0 ? json_integer(si.freq_cur_khz)
                                            : json_string("unknown"));
    json_object_set_new(cfg, "freq_max_khz",
                        si.freq_max_khz > 0 ? json_integer(si.freq_max_khz)
                                            : json_string("unknown"));
    json_object_set_new(cfg, "numa_node", json_integer(si.numa_node));
    json_object_set_new(cfg, "numa_nodes", json_integer(si.numa_nodes));
    json_object_set_new(cfg, "kernel", json_string(si.kernel));
    json_object_set_new(cfg, "clock", json_string(si.clock));
    json_object_set_new(cfg, "nt_threshold", json_integer((json_int_t)si.nt_threshold));
    json_object_set_new(cfg, "clock_cost_ns", json_real(b->clock_ns));
    json_object_set_new(cfg, "spin_pause", json_boolean(vsym_util_spin_pause));
    json_object_set_new(cfg, "ranks", json_integer(b->nranks));
    json_object_set_new(cfg, "nodes", json_integer(b->nnodes));
    json_object_set_new(cfg, "transport", tp);
    json_object_set_new(cfg, "transport_matrix", matrix);
    json_object_set_new(cfg, "commit", json_string(vsym_build_commit()));
    json_object_set_new(cfg, "version", json_string(vsym_version()));
    json_object_set_new(cfg, "settings", settings);
    json_object_set_new(cfg, "settings_from_env", from_env);
    /* VSYM_NT_THRESHOLD=auto resolved on this rank's CPU */
    json_object_set_new(cfg, "nt_threshold_bytes",
                        json_integer((json_int_t)vsym_util_nt_threshold()));
    /* the same for a single copy (a put or a get) */
    json_object_set_new(cfg, "nt_single_bytes",
                        json_integer((json_int_t)vsym_util_nt_single_threshold()));
    json_object_set_new(cfg, "command", json_string(cmd));
    json_object_set_new(cfg, "iterations_option", json_integer(b->opts->iterations));
    json_object_set_new(cfg, "warmup_option", json_integer(b->opts->warmup));
    json_object_set_new(cfg, "duration_s", json_real(b->opts->duration_s));
    json_object_set_new(cfg, "window_option", json_integer(b->opts->window));
    b->config = cfg;
    cfg = NULL;
    hosts = tp = matrix = settings = from_env = cpus = NULL;
    if (b->rank == 0 && !b->opts->quiet && !b->opts->csv)
        print_preamble(b, all_hosts, sizeof(si.host), all_where);
out:
    free(all_where);
    json_decref(cpus);
    free(all_hosts);
    free(row);
    free(all_rows);
    json_decref(cfg);
    json_decref(hosts);
    json_decref(tp);
    json_decref(matrix);
    json_decref(settings);
    json_decref(from_env);
    return st;
}

int main(int argc, char **argv)
{
    vsym_bench_opts_t opts;
    vsym_bench_t b;
    vsym_status_t st;
    int rc, exit_code = 0;
    long ok;

    memset(&b, 0, sizeof(b));
    parse_options(argc, argv, &opts, &b.suite);
    b.opts = &opts;
    b.pair_a = b.pair_b = b.peer = -1;

    st = vsym_init(&b.ctx);
    if (st != VSYM_OK) {
        fprintf(stderr, "vsym-bench: vsym_init: %s: %s\n", vsym_status_str(st),
                vsym_error_detail());
        return 1;
    }
    b.world = vsym_team_world(b.ctx);
    b.rank = vsym_team_rank(b.world);
    b.nranks = vsym_team_size(b.world);
    b.nnodes = vsym_team_num_nodes(b.world);
    if (b.nranks < b.suite->min_ranks ||
        (b.suite->max_ranks > 0 && b.nranks > b.suite->max_ranks)) {
        if (b.rank == 0) {
            if (b.nranks < b.suite->min_ranks)
                fprintf(stderr, "vsym-bench: suite %s needs at least %d ranks, got %d\n",
                        b.suite->name, b.suite->min_ranks, b.nranks);
            else
                fprintf(stderr, "vsym-bench: suite %s supports at most %d ranks, got %d\n",
                        b.suite->name, b.suite->max_ranks, b.nranks);
        }
        vsym_finalize(b.ctx);
        return VSYM_BENCH_EXIT_USAGE;
    }
    if (opts.root >= b.nranks) {
        if (b.rank == 0)
            fprintf(stderr, "vsym-bench: %s: --root %d is not a rank of the %d ranks (0-%d)\n",
                    b.suite->name, opts.root, b.nranks, b.nranks - 1);
        vsym_finalize(b.ctx);
        return VSYM_BENCH_EXIT_USAGE;
    }
    b.clock_ns = measure_clock_ns();
    b.core_rtt_ns = -1;
    if (vsym_util_cpu_steal_ticks(&b.steal0, &b.total0) != 0) b.steal0 = UINT64_MAX;
    if (compute_sizes(&b) != 0) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "bench: sizes");
        goto fail;
    }
    if (b.suite->check_run != NULL) {
        char err[256];
        if (b.suite->check_run(&b, err, sizeof(err)) != 0) {
            if (b.rank == 0) fprintf(stderr, "vsym-bench: %s (vsym-bench --help)\n", err);
            free(b.sizes);
            vsym_finalize(b.ctx);
            return VSYM_BENCH_EXIT_USAGE;
        }
    }
    st = vsym_alloc(b.world, 64, &b.sync_obj);
    if (st != VSYM_OK) goto fail;
    memset(vsym_obj_ptr(b.sync_obj), 0, 64); /* vsym_bench_core_rtt's word */
    st = build_config(&b, argc, argv);
    if (st != VSYM_OK) goto fail;
    /* Rank 0 writes the results; every rank learns whether it could open the file. */
    ok = 1;
    if (b.rank == 0 && opts.json_path != NULL) {
        char err[512];
        if (vsym_bench_results_open(opts.json_path, opts.json_append, &b.results, err,
                                    sizeof(err)) != 0) {
            fprintf(stderr, "vsym-bench: --json: %s\n", err);
            ok = 0;
        }
    }
    st = vsym_bench_share_long(&b, 0, &ok);
    if (st != VSYM_OK) goto fail;
    if (!ok) {
        exit_code = 1;
        goto done;
    }

    rc = b.suite->run(&b);
    if (rc < 0) {
        st = (vsym_status_t)rc;
        goto fail;
    }
    if (opts.pairs) vsym_bench_pairs_summary(&b);
    if (rc > 0 || b.wrong > 0) {
        if (b.rank == 0)
            fprintf(stderr, "vsym-bench: %s: --check found %ld wrong values\n", b.suite->name,
                    b.wrong > rc ? b.wrong : (long)rc);
        exit_code = 1;
    }
    goto done;
fail:
    fprintf(stderr, "vsym-bench: rank %d: %s: %s\n", b.rank, vsym_status_str(st),
            vsym_error_detail());
    exit_code = 1;
done:
    vsym_bench_results_close(b.results);
    free(b.pair_log);
    json_decref(b.config);
    free(b.sizes);
    /* After a failure the peers may be gone: skip the collective clean-up then. */
    if (exit_code == 0 || st == VSYM_OK) {
        vsym_obj_free(b.sync_obj);
        vsym_finalize(b.ctx);
    }
    return exit_code;
}
