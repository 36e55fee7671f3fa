/* vsym-plan: plan a reshard at full scale on one machine, without running any ranks.
 *
 *   vsym-plan --model llama3-405b --from tp=8,pp=16,dp=8 --to tp=16,pp=8,dp=8 --world 1024
 *   vsym-plan --model-file m.json --from tp=2 --to tp=4 --world 8 --rank 3 --json
 *   vsym-plan --model mixtral-8x7b --dump mixtral.json
 *
 * Prints the plan statistics (and with --json the statistics and every op as JSON lines).
 * Bad input: one line on stderr and exit status 2. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <jansson.h>
#include <vsym/vsym.h>
#include "util/util.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: vsym-plan (--model NAME | --model-file FILE) --from LAYOUT --to LAYOUT\n"
               "                 --world N [--to-world N] [--disjoint] [--rank R] [--json]\n"
               "                 [--balance bytes|roundrobin]\n"
               "       vsym-plan (--model NAME | --model-file FILE) --dump [FILE|-]\n"
               "  LAYOUT: tp=8,pp=4,dp=2[,ep=E][,etp=T][,order=tp-ep-dp-pp] (dp defaults to the\n"
               "          rest of the world)\n"
               "  --world N      ranks of the source layout (and of the destination unless\n"
               "                 --to-world); the same ranks on both sides unless --disjoint\n"
               "  --disjoint     destination ranks follow the source ranks (two rank sets)\n"
               "  --rank R       plan only rank R's ops (timed) and print them with --json\n"
               "  --json         JSON lines: one record of statistics, then one per op\n"
               "  --balance      bytes: local copy, else least-loaded replica (default);\n"
               "                 roundrobin: Megatron's replica rule\n"
               "  --dump         write the model as a model file (stdout with '-' or no FILE)\n"
               "  presets: llama3-8b llama3-70b llama3-405b mixtral-8x7b deepseek-v3\n");
}

__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "vsym-plan: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

static int parse_int(const char *opt, const char *v)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (!*v || *end || x < 0 || x > (1 << 24))
        die("%s: \"%s\" is not a non-negative integer", opt, v);
    return (int)x;
}

static json_t *slice_json(const vsym_reshard_slice_t *s)
{
    json_t *a = json_array();
    for (int d = 0; d < s->ndim; d++)
        json_array_append_new(a, json_pack("[I,I]", (json_int_t)s->offset[d],
                                           (json_int_t)(s->offset[d] + s->length[d])));
    return a;
}

static void print_json(json_t *o)
{
    json_dumpf(o, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
    fputc('\n', stdout);
    json_decref(o);
}

/* Bytes for people: "5.41 GiB". */
static const char *human(double bytes, char *buf, size_t len)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (bytes >= 1024 && u < 5)
        bytes /= 1024, u++;
    snprintf(buf, len, u ? "%.2f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

static double max_rss_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

int main(int argc, char **argv)
{
    const char *model_name = NULL, *model_file = NULL, *from = NULL, *to = NULL;
    const char *dump = NULL, *balance = "bytes";
    int world = -1, to_world = -1, rank = -1, json = 0, disjoint = 0, do_dump = 0;
    enum {
        O_MODEL = 1,
        O_FILE,
        O_FROM,
        O_TO,
        O_WORLD,
        O_TOWORLD,
        O_RANK,
        O_JSON,
        O_BAL,
        O_DUMP,
        O_DISJ,
        O_HELP
    };
    static const struct option opts[] = {{"model", required_argument, NULL, O_MODEL},
                                         {"model-file", required_argument, NULL, O_FILE},
                                         {"from", required_argument, NULL, O_FROM},
                                         {"to", required_argument, NULL, O_TO},
                                         {"world", required_argument, NULL, O_WORLD},
                                         {"to-world", required_argument, NULL, O_TOWORLD},
                                         {"rank", required_argument, NULL, O_RANK},
                                         {"json", no_argument, NULL, O_JSON},
                                         {"balance", required_argument, NULL, O_BAL},
                                         {"dump", optional_argument, NULL, O_DUMP},
                                         {"disjoint", no_argument, NULL, O_DISJ},
                                         {"help", no_argument, NULL, O_HELP},
                                         {NULL, 0, NULL, 0}};
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case O_MODEL:
            model_name = optarg;
            break;
        case O_FILE:
            model_file = optarg;
            break;
        case O_FROM:
            from = optarg;
            break;
        case O_TO:
            to = optarg;
            break;
        case O_WORLD:
            world = parse_int("--world", optarg);
            break;
        case O_TOWORLD:
            to_world = parse_int("--to-world", optarg);
            break;
        case O_RANK:
            rank = parse_int("--rank", optarg);
            break;
        case O_JSON:
            json = 1;
            break;
        case O_BAL:
            balance = optarg;
            break;
        case O_DUMP:
            do_dump = 1;
            dump = optarg;
            if (!dump && optind < argc && argv[optind][0] != '-') dump = argv[optind++];
            break;
        case O_DISJ:
            disjoint = 1;
            break;
        case O_HELP:
            usage(stdout);
            return 0;
        default:
            die("unknown or incomplete option \"%s\" (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc) die("unexpected argument \"%s\" (see --help)", argv[optind]);
    if (!model_name == !model_file) die("give exactly one of --model NAME and --model-file FILE");

    vsym_reshard_model_t *model;
    vsym_status_t st = model_name ? vsym_reshard_model_preset(model_name, &model)
                                  : vsym_reshard_model_load(model_file, &model);
    if (st != VSYM_OK) die("%s", vsym_error_detail());
    if (do_dump) {
        st = vsym_reshard_model_save(model, dump ? dump : "-");
        if (st != VSYM_OK) die("%s", vsym_error_detail());
        vsym_reshard_model_destroy(model);
        return 0;
    }
    if (!from || !to || world == -1) die("--from, --to and --world are required (see --help)");
    if (world < 1) die("--world %d: the source layout needs at least one rank", world);
    vsym_reshard_balance_t bal;
    if (strcmp(balance, "bytes") == 0)
        bal = VSYM_RESHARD_BALANCE_BYTES;
    else if (strcmp(balance, "roundrobin") == 0)
        bal = VSYM_RESHARD_BALANCE_ROUNDROBIN;
    else
        die("--balance: \"%s\" is not bytes or roundrobin", balance);
    if (to_world < 0) to_world = world;
    if (to_world < 1)
        die("--to-world %d: the destination layout needs at least one rank", to_world);
    vsym_reshard_layout_t ls, ld;
    if (vsym_reshard_layout_parse(from, &ls) != VSYM_OK ||
        vsym_reshard_layout_check(&ls, world, model) != VSYM_OK)
        die("--from: %s", vsym_error_detail());
    if (vsym_reshard_layout_parse(to, &ld) != VSYM_OK) die("--to: %s", vsym_error_detail());
    if (disjoint) ld.first_rank = ls.first_rank + world;
    if (vsym_reshard_layout_check(&ld, to_world, model) != VSYM_OK)
        die("--to: %s", vsym_error_detail());
    int job = ls.first_rank + world > ld.first_rank + to_world ? ls.first_rank + world
                                                               : ld.first_rank + to_world;
    if (rank >= job) die("--rank %d: outside the job of %d ranks", rank, job);

    /* Statistics of every rank (the whole walk, no ops kept), then the ops asked for. */
    vsym_reshard_options_t opt = {.balance = bal, .keep_rank = -1};
    uint64_t t0 = vsym_util_time_ns();
    vsym_reshard_plan_t *plan;
    st = vsym_reshard_plan_create(model, &ls, &ld, &opt, &plan);
    uint64_t t1 = vsym_util_time_ns();
    if (st != VSYM_OK) die("%s", vsym_error_detail());
    vsym_reshard_plan_t *ops_plan = NULL;
    double rank_ms = 0;
    if (rank >= 0 || json) {
        opt.keep_rank = rank >= 0 ? rank : VSYM_RESHARD_KEEP_ALL;
        uint64_t t2 = vsym_util_time_ns();
        st = vsym_reshard_plan_create(model, &ls, &ld, &opt, &ops_plan);
        rank_ms = (vsym_util_time_ns() - t2) / 1e6;
        if (st != VSYM_OK) die("%s", vsym_error_detail());
    }
    double stats_ms = (t1 - t0) / 1e6;
    vsym_reshard_stats_t s;
    vsym_reshard_plan_stats(plan, &s);
    char lsb[128], ldb[128];
    vsym_reshard_layout_format(&ls, lsb, sizeof(lsb));
    vsym_reshard_layout_format(&ld, ldb, sizeof(ldb));
    uint64_t rsent = 0, rrecv = 0, rlocal = 0, rops = 0;
    if (rank >= 0) vsym_reshard_plan_rank_stats(plan, rank, &rsent, &rrecv, &rlocal, &rops);

    if (json) {
        json_t *o = json_object();
        json_object_set_new(o, "record", json_string("reshard_plan"));
        json_object_set_new(o, "model", json_string(vsym_reshard_model_name(model)));
        json_object_set_new(o, "params", json_integer(vsym_reshard_model_num_params(model)));
        json_object_set_new(o, "tensors", json_integer(vsym_reshard_model_num_tensors(model)));
        json_object_set_new(o, "elements",
                            json_integer((json_int_t)vsym_reshard_model_num_elements(model)));
        json_object_set_new(o, "model_bytes",
                            json_integer((json_int_t)vsym_reshard_model_num_bytes(model)));
        json_object_set_new(o, "from", json_string(lsb));
        json_object_set_new(o, "to", json_string(ldb));
        json_object_set_new(o, "ranks", json_integer(s.num_ranks));
        json_object_set_new(o, "balance", json_string(balance));
        json_object_set_new(o, "transfers", json_integer((json_int_t)s.num_transfers));
        json_object_set_new(o, "local_copies", json_integer((json_int_t)s.num_local));
        json_object_set_new(o, "bytes_moved", json_integer((json_int_t)s.bytes_moved));
        json_object_set_new(o, "bytes_local", json_integer((json_int_t)s.bytes_local));
        json_object_set_new(o, "max_sent", json_integer((json_int_t)s.max_sent));
        json_object_set_new(o, "mean_sent", json_real(s.mean_sent));
        json_object_set_new(o, "send_imbalance", json_real(s.send_imbalance));
        json_object_set_new(o, "send_imbalance_bound", json_real(s.send_imbalance_bound));
        json_object_set_new(o, "busiest_sender", json_integer(s.busiest_sender));
        json_object_set_new(o, "max_received", json_integer((json_int_t)s.max_received));
        json_object_set_new(o, "mean_received", json_real(s.mean_received));
        json_object_set_new(o, "recv_imbalance", json_real(s.recv_imbalance));
        json_object_set_new(o, "max_ops_per_rank", json_integer((json_int_t)s.max_ops_per_rank));
        json_object_set_new(o, "plan_all_ranks_ms", json_real(stats_ms));
        if (rank >= 0) {
            json_object_set_new(o, "rank", json_integer(rank));
            json_object_set_new(o, "plan_rank_ms", json_real(rank_ms));
            json_object_set_new(o, "rank_ops", json_integer((json_int_t)rops));
            json_object_set_new(o, "rank_sent", json_integer((json_int_t)rsent));
            json_object_set_new(o, "rank_received", json_integer((json_int_t)rrecv));
            json_object_set_new(o, "rank_local", json_integer((json_int_t)rlocal));
        }
        json_object_set_new(o, "max_rss_mib", json_real(max_rss_mib()));
        print_json(o);
        static const char *const dirs[] = {"send", "recv", "local"};
        char name[256];
        size_t n = vsym_reshard_plan_num_ops(ops_plan);
        for (size_t i = 0; i < n; i++) {
            vsym_reshard_op_t op;
            int owner;
            vsym_reshard_plan_op(ops_plan, i, &owner, &op);
            json_t *r = json_object();
            json_object_set_new(r, "rank", json_integer(owner));
            json_object_set_new(r, "task", json_integer((json_int_t)op.task_id));
            json_object_set_new(
                r, "param",
                json_string(vsym_reshard_tensor_name(model, op.tensor, name, sizeof(name))));
            if (op.src_tensor != op.tensor)
                json_object_set_new(r, "src_param",
                                    json_string(vsym_reshard_tensor_name(model, op.src_tensor, name,
                                                                         sizeof(name))));
            json_object_set_new(r, "dir", json_string(dirs[op.dir]));
            json_object_set_new(r, "peer", json_integer(op.peer));
            json_object_set_new(r, "my_slice", slice_json(&op.my_slice));
            json_object_set_new(r, "peer_slice", slice_json(&op.peer_slice));
            json_object_set_new(r, "bytes", json_integer((json_int_t)op.bytes));
            print_json(r);
        }
    } else {
        char b1[32], b2[32], b3[32];
        printf("model       %s: %d params, %d tensors, %.4g elements, %s\n",
               vsym_reshard_model_name(model), vsym_reshard_model_num_params(model),
               vsym_reshard_model_num_tensors(model),
               (double)vsym_reshard_model_num_elements(model),
               human((double)vsym_reshard_model_num_bytes(model), b1, sizeof(b1)));
        printf("from        %s (%d ranks)\n", lsb, world);
        printf("to          %s (%d ranks)\n", ldb, to_world);
        printf("balance     %s\n", balance);
        printf("transfers   %" PRIu64 " (%s), local copies %" PRIu64 " (%s)\n", s.num_transfers,
               human((double)s.bytes_moved, b1, sizeof(b1)), s.num_local,
               human((double)s.bytes_local, b2, sizeof(b2)));
        printf("sent        max %s (rank %d), mean %s, imbalance %.3f (best possible with "
               "these layouts %.3f)\n",
               human((double)s.max_sent, b1, sizeof(b1)), s.busiest_sender,
               human(s.mean_sent, b2, sizeof(b2)), s.send_imbalance, s.send_imbalance_bound);
        printf("received    max %s (rank %d), mean %s, imbalance %.3f\n",
               human((double)s.max_received, b1, sizeof(b1)), s.busiest_receiver,
               human(s.mean_received, b2, sizeof(b2)), s.recv_imbalance);
        printf("ops         max %" PRIu64 " per rank\n", s.max_ops_per_rank);
        printf("planning    all %d ranks: %.1f ms", s.num_ranks, stats_ms);
        if (rank >= 0) printf(", rank %d alone: %.1f ms", rank, rank_ms);
        printf(", max RSS %.1f MiB\n", max_rss_mib());
        if (rank >= 0)
            printf("rank %-6d %" PRIu64 " ops, sends %s, receives %s, copies %s locally\n", rank,
                   rops, human((double)rsent, b1, sizeof(b1)), human((double)rrecv, b2, sizeof(b2)),
                   human((double)rlocal, b3, sizeof(b3)));
    }
    vsym_reshard_plan_destroy(ops_plan);
    vsym_reshard_plan_destroy(plan);
    vsym_reshard_model_destroy(model);
    return 0;
}
