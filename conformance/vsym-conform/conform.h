/* vsym-conform: the pre-deployment cluster check and the library's conformance suite as one
 * program. Shared types of its parts: configuration (config.c), node checks (node.c), fabric
 * checks (fabric.c), the API suite (api.c) and the report writers (report.c). */
#ifndef VSYM_CONFORM_H
#define VSYM_CONFORM_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <vsym/vsym.h>

/* The outcome of one check. Order matters: a worse outcome has a larger value (SKIP aside). */
typedef enum ck_status {
    CK_PASS,
    CK_SKIP,
    CK_WARN,
    CK_FAIL,
} ck_status_t;

const char *conform_status_name(ck_status_t st); /* "pass", "skip", "warn", "fail" */

/* ---- Configuration (config.c): one JSON file, every key documented in README.md ----------- */

#define CONFORM_MAX_SIZES 8

typedef struct conform_config {
    char path[512]; /* "" when the defaults are in force */
    /* expect: what every node must look like */
    int nodes;              /* 0: any number */
    int ranks;              /* 0: any number */
    int rdma_required;      /* 1: a node without an active RDMA port fails */
    char link_width[16];    /* "4x"; "" not checked */
    double link_speed_gbps; /* per-lane Gb/s (25 for EDR); 0 not checked */
    int mtu;                /* active MTU in bytes; 0 not checked */
    int roce_v2_gid;        /* 1: an Ethernet port must have a RoCE v2 GID */
    char governor[32];      /* expected cpufreq governor; "" not checked */
    ck_status_t governor_unknown; /* outcome when the governor cannot be read */
    double min_freq_mhz;    /* 0: not checked */
    long hugepages;         /* free huge pages required per node; 0: not checked */
    ck_status_t numa_mismatch;    /* outcome when device and CPUs are on different NUMA nodes */
    int same_versions;      /* 1: differing library/provider versions fail */
    /* fabric: the pairwise checks */
    char intra_node_pairs[8]; /* "all", "ring", "none" */
    int concurrent;           /* 1: the pairs of a round run at the same time */
    size_t sizes[CONFORM_MAX_SIZES];
    int nsizes;
    int latency_iters;
    int atomic_iters;
    size_t bw_size;
    int bw_iters;
    int bw_trials;              /* bandwidth: the best of this many streams (perftest's peak) */
    char latency_stat[8];       /* "median" or "min": the latency figure that is judged */
    double latency_factor;      /* an outlier's latency is over factor x the best */
    double bandwidth_fraction;  /* an outlier's bandwidth is under fraction x the best */
    double max_latency_us;      /* absolute limits between nodes; 0: none */
    double min_bandwidth_mbps;
    double intra_max_latency_us; /* absolute limits inside a node; 0: none */
    double intra_min_bandwidth_mbps;
    int max_retests;
    double timeout_s;
    /* allreduce: the short collective check over the world */
    int allreduce;
    size_t allreduce_size;
    int allreduce_iters;
    double min_busbw_mbps;
} conform_config_t;

void conform_config_defaults(conform_config_t *cfg);
/* Read and validate a config file: unknown keys and wrong types are errors (message in err). */
int conform_config_load(const char *path, conform_config_t *cfg, char *err, size_t errlen);
/* The effective configuration as JSON (the same keys as the file). New reference. */
json_t *conform_config_to_json(const conform_config_t *cfg);

/* ---- Node checks (node.c) ----------------------------------------------------------------- */

#define CONFORM_NODE_CHECKS(X)                                                                     \
    X(RDMA_DEVICE, "rdma_device")                                                                  \
    X(PORT_ACTIVE, "port_active")                                                                  \
    X(LINK_WIDTH, "link_width")                                                                    \
    X(LINK_SPEED, "link_speed")                                                                    \
    X(MTU, "mtu")                                                                                  \
    X(ROCE_GID, "roce_v2_gid")                                                                     \
    X(MEMLOCK, "memlock")                                                                          \
    X(HUGEPAGES, "hugepages")                                                                      \
    X(GOVERNOR, "cpu_governor")                                                                    \
    X(CPU_FREQ, "cpu_frequency")                                                                   \
    X(NUMA, "numa_locality")                                                                       \
    X(MEMPOLICY, "memory_policy")

typedef enum node_check_id {
#define NODE_CHECK_ENUM_(id, name) NC_##id,
    CONFORM_NODE_CHECKS(NODE_CHECK_ENUM_)
#undef NODE_CHECK_ENUM_
        NC_COUNT
} node_check_id_t;

const char *conform_node_check_name(int id);

typedef struct node_check {
    int32_t status; /* ck_status_t */
    char msg[124];
} node_check_t;

/* What one rank knows about itself; exchanged with vsym_team_exchange (fixed size). */
typedef struct node_report {
    int32_t world_rank;
    int32_t node;        /* vsym_team_node_of (virtual nodes counted) */
    int32_t local_rank;  /* rank in the node team */
    int32_t local_size;
    int32_t launcher_local_rank; /* from the launcher's environment, -1 when unknown */
    int32_t pid;
    int32_t uses_verbs;  /* some peer is reached over verbs */
    int32_t virtual_nodes;
    char host[64];
    vsym_sysinfo_t sys;
    char version[32];
    char commit[48];
    char ibverbs_lib[128]; /* the libibverbs file in use (its name carries the version) */
    char device[32];       /* "" when none */
    char driver[32];
    char fw_ver[64];
    int32_t port;
    int32_t port_state;    /* enum ibv_port_state */
    int32_t link_layer;    /* 0 none, 1 InfiniBand, 2 Ethernet */
    int32_t active_mtu;    /* bytes */
    int32_t gid_index;     /* RoCE v2 GID index, -1 none */
    int32_t device_numa;   /* -1 unknown */
    char width[8];
    double speed_gbps;     /* per lane */
    char gid[48];
    uint64_t memlock;      /* RLIMIT_MEMLOCK soft limit, UINT64_MAX unlimited */
    uint64_t memlock_need;
    int64_t huge_total, huge_free, huge_size_kb;
    char mempolicy[48];
    node_check_t checks[NC_COUNT];
} node_report_t;

/* Probe this rank and evaluate its node checks against the configuration. vnode picks the entry
 * of a VSYM_DEVICE list. */
void conform_node_probe(vsym_ctx_t *ctx, const conform_config_t *cfg, int vnode,
                        node_report_t *rep);
json_t *conform_node_report_json(const node_report_t *rep);

/* "rank 3 (node 1, host n12, pid 4711)" */
const char *conform_rank_name(const node_report_t *reps, int r, char *buf, size_t len);

/* ---- The report being built on rank 0 (report.c) ------------------------------------------ */

typedef struct ck_result {
    char suite[24];    /* "node", "world", "link", "collective", "api" */
    char name[48];     /* the check */
    char subject[256]; /* "node 1 (host n12)", "node 0 (host a) <-> node 1 (host b): ranks 0-2" */
    ck_status_t status;
    char msg[320];
    double time_s;
} ck_result_t;

/* Measurements of one pair of ranks (a < b). */
typedef struct pair_result {
    int32_t a, b;
    int32_t inter;       /* on different nodes */
    int32_t tested;      /* measurements present */
    int32_t retested;
    int32_t put_errors, get_errors, amo_errors;
    double lat_min_us, lat_med_us, lat_avg_us, lat_p99_us;
    double lat_us;       /* the judged figure: median or min (fabric.latency_stat) */
    double bw_ab_mbps, bw_ba_mbps;      /* a -> b and b -> a */
    double first_lat_us, first_bw_ab, first_bw_ba; /* before the retest */
    int32_t bad_lat, bad_bw_ab, bad_bw_ba, failed; /* after the retest */
    char detail[256];    /* errors (timeouts naming the peer, transport errors) */
} pair_result_t;

typedef struct conform_report {
    const conform_config_t *cfg;
    const char *mode;
    char out_dir[512];
    int nranks, nnodes;
    node_report_t *ranks;  /* per world rank */
    ck_result_t *checks;
    int nchecks, cap;
    pair_result_t *pairs;  /* n x n, index a * n + b with a < b */
    int *dead;             /* per rank: did not answer */
    double best_lat_inter, best_bw_inter, best_lat_intra, best_bw_intra;
    int have_allreduce;
    json_t *allreduce;     /* results of the all-reduce check, or NULL */
    char notes[1024];
} conform_report_t;

void conform_report_add(conform_report_t *rep, const char *suite, const char *name,
                        const char *subject, ck_status_t st, double time_s, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* "node 1 (host n12)" */
const char *conform_node_name(const conform_report_t *rep, int node, char *buf, size_t len);
/* Write summary (stdout and summary.txt), junit.xml, report.json, the heat map. Returns the exit
 * status: 0 nothing failed, 1 something failed. */
int conform_report_write(conform_report_t *rep);
void conform_report_free(conform_report_t *rep);

/* ---- Checks run by every rank ------------------------------------------------------------- */

/* Node checks gathered to rank 0 and the checks across ranks. */
int conform_node_checks(vsym_ctx_t *ctx, const conform_config_t *cfg, conform_report_t *rep);
/* The pairwise fabric checks and the all-reduce check. Returns 0, or -1 when ranks died (the
 * caller must not finalize: the dead ranks would never answer). */
int conform_fabric_checks(vsym_ctx_t *ctx, const conform_config_t *cfg, conform_report_t *rep,
                          int kill_rank);
/* The API suite (api mode). */
int conform_api_checks(vsym_ctx_t *ctx, const conform_config_t *cfg, conform_report_t *rep);

/* Write a config file from what this run found (--init-config). Rank 0 only. */
int conform_config_write_baseline(const conform_report_t *rep, const char *path);

#endif
