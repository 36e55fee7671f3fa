/* Node checks: what every rank finds about its machine (RDMA device and port through
 * libibverbs, limits, huge pages, CPU frequency, NUMA binding, versions), evaluated against the
 * configuration on the rank itself, then gathered to rank 0 with vsym_team_exchange, where the
 * checks across ranks (topology, versions, counts) are made. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <infiniband/verbs.h>
#include <limits.h>
#include <numa.h>
#include <numaif.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "conform.h"
#include "util/util.h"

static const char *const check_names[] = {
#define NODE_CHECK_NAME_(id, name) name,
    CONFORM_NODE_CHECKS(NODE_CHECK_NAME_)
#undef NODE_CHECK_NAME_
};

const char *conform_node_check_name(int id)
{
    return id >= 0 && id < NC_COUNT ? check_names[id] : "?";
}

static void set_check(node_report_t *rep, int id, ck_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void set_check(node_report_t *rep, int id, ck_status_t st, const char *fmt, ...)
{
    va_list ap;
    rep->checks[id].status = (int32_t)st;
    va_start(ap, fmt);
    vsnprintf(rep->checks[id].msg, sizeof(rep->checks[id].msg), fmt, ap);
    va_end(ap);
}

/* Copy a string, cutting it to fit (file names and paths are shown, never parsed). */
static void copy_str(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src);
    if (n >= len)
        n = len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static int read_sysfs_int(const char *path, int *value_p)
{
    FILE *f = fopen(path, "r");
    int v, ok;
    if (f == NULL)
        return -1;
    ok = fscanf(f, "%d", &v) == 1;
    fclose(f);
    if (!ok)
        return -1;
    *value_p = v;
    return 0;
}

static const char *width_name(int code)
{
    switch (code) {
    case 1: return "1x";
    case 2: return "4x";
    case 4: return "8x";
    case 8: return "12x";
    case 16: return "2x";
    }
    return "?";
}

static double speed_gbps(int code)
{
    switch (code) {
    case 1: return 2.5;
    case 2: return 5.0;
    case 4: return 10.0;
    case 8: return 10.0;
    case 16: return 14.0;
    case 32: return 25.0;
    case 64: return 50.0;
    case 128: return 100.0;
    case 256: return 200.0;
    }
    return 0.0;
}

/* The device this rank's verbs transport would use: VSYM_DEVICE is one name, or a comma list
 * with one entry per (pretend) node, picked as the transport does (the pretend node's index on
 * its host under VSYM_VIRTUAL_NODES, else the node index); empty means the first device with an
 * active port. */
static void wanted_device(int node, char *buf, size_t len)
{
    const char *list = vsym_config_str(VSYM_CFG_DEVICE);
    char tmp[256];
    int count = 0;
    buf[0] = '\0';
    if (list[0] == '\0')
        return;
    snprintf(tmp, sizeof(tmp), "%s", list);
    for (char *p = tmp; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        count++;
    int want = node % count, i = 0;
    char *save = NULL;
    for (char *tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save), i++)
        if (i == want)
            snprintf(buf, len, "%s", tok);
}

static void probe_rdma(node_report_t *rep, int vnode)
{
    struct ibv_device **list;
    int num = 0;
    char want[64];
    Dl_info dl;

    rep->gid_index = -1;
    rep->device_numa = -1;
    snprintf(rep->ibverbs_lib, sizeof(rep->ibverbs_lib), "unknown");
    if (dladdr((void *)ibv_get_device_list, &dl) && dl.dli_fname) {
        char real[PATH_MAX];
        const char *p = realpath(dl.dli_fname, real) ? real : dl.dli_fname;
        const char *slash = strrchr(p, '/');
        copy_str(rep->ibverbs_lib, sizeof(rep->ibverbs_lib), slash ? slash + 1 : p);
    }
    list = ibv_get_device_list(&num);
    if (list == NULL || num == 0) {
        if (list)
            ibv_free_device_list(list);
        return;
    }
    wanted_device(vnode, want, sizeof(want));
    long port_setting = vsym_config_int(VSYM_CFG_PORT);
    for (int d = 0; d < num; d++) {
        const char *name = ibv_get_device_name(list[d]);
        if (want[0] && strcmp(want, name) != 0)
            continue;
        struct ibv_context *dev = ibv_open_device(list[d]);
        if (dev == NULL)
            continue;
        struct ibv_device_attr dattr;
        int nports = 1;
        if (ibv_query_device(dev, &dattr) == 0) {
            nports = dattr.phys_port_cnt;
            snprintf(rep->fw_ver, sizeof(rep->fw_ver), "%s", dattr.fw_ver);
        }
        int chosen = 0;
        struct ibv_port_attr pattr;
        for (int p = 1; p <= nports && !chosen; p++) {
            if (port_setting > 0 && p != port_setting)
                continue;
            if (ibv_query_port(dev, (uint8_t)p, &pattr) != 0)
                continue;
            /* Without a setting, an active port wins; the first port is kept as a fallback so
             * that a down port is reported rather than "no device". */
            if (pattr.state == IBV_PORT_ACTIVE || port_setting > 0 || want[0] || !rep->device[0]) {
                snprintf(rep->device, sizeof(rep->device), "%s", name);
                rep->port = p;
                rep->port_state = pattr.state;
                rep->link_layer = pattr.link_layer == IBV_LINK_LAYER_ETHERNET ? 2 : 1;
                rep->active_mtu = 128 << pattr.active_mtu;
                snprintf(rep->width, sizeof(rep->width), "%s", width_name(pattr.active_width));
                rep->speed_gbps = speed_gbps(pattr.active_speed);
                rep->gid_index = -1;
                for (int g = 0; g < pattr.gid_tbl_len; g++) {
                    struct ibv_gid_entry e;
                    if (ibv_query_gid_ex(dev, (uint32_t)p, (uint32_t)g, &e, 0) != 0)
                        continue;
                    if (e.gid_type != IBV_GID_TYPE_ROCE_V2)
                        continue;
                    rep->gid_index = g;
                    inet_ntop(AF_INET6, e.gid.raw, rep->gid, sizeof(rep->gid));
                    break;
                }
                chosen = pattr.state == IBV_PORT_ACTIVE;
            }
        }
        ibv_close_device(dev);
        if (rep->device[0] && (chosen || want[0]))
            break;
    }
    if (rep->device[0]) {
        char path[256], link[256];
        snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device/numa_node", rep->device);
        int v;
        if (read_sysfs_int(path, &v) == 0)
            rep->device_numa = v;
        snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device/driver", rep->device);
        ssize_t n = readlink(path, link, sizeof(link) - 1);
        if (n > 0) {
            link[n] = '\0';
            const char *slash = strrchr(link, '/');
            copy_str(rep->driver, sizeof(rep->driver), slash ? slash + 1 : link);
        } else if (strncmp(rep->device, "rxe", 3) == 0) {
            snprintf(rep->driver, sizeof(rep->driver), "rdma_rxe");
        } else {
            snprintf(rep->driver, sizeof(rep->driver), "unknown");
        }
    }
    ibv_free_device_list(list);
}

static void probe_hugepages(node_report_t *rep)
{
    char line[256];
    FILE *f = fopen("/proc/meminfo", "r");
    rep->huge_total = rep->huge_free = rep->huge_size_kb = 0;
    if (f == NULL)
        return;
    while (fgets(line, sizeof(line), f)) {
        long long v;
        if (sscanf(line, "HugePages_Total: %lld", &v) == 1)
            rep->huge_total = v;
        else if (sscanf(line, "HugePages_Free: %lld", &v) == 1)
            rep->huge_free = v;
        else if (sscanf(line, "Hugepagesize: %lld", &v) == 1)
            rep->huge_size_kb = v;
    }
    fclose(f);
}

/* The memory policy of this process and whether it lets memory live on node want (-1: any). */
static int probe_mempolicy(node_report_t *rep, int want)
{
    int mode = 0;
    unsigned long mask[16] = {0};
    unsigned long maxnode = sizeof(mask) * 8;
    if (get_mempolicy(&mode, mask, maxnode, NULL, 0) != 0) {
        snprintf(rep->mempolicy, sizeof(rep->mempolicy), "unknown");
        return 1;
    }
    const char *name = mode == MPOL_DEFAULT      ? "default"
                       : mode == MPOL_PREFERRED  ? "preferred"
                       : mode == MPOL_BIND       ? "bind"
                       : mode == MPOL_INTERLEAVE ? "interleave"
                       : mode == MPOL_LOCAL      ? "local"
                                                 : "other";
    if (mode == MPOL_DEFAULT || mode == MPOL_LOCAL) {
        snprintf(rep->mempolicy, sizeof(rep->mempolicy), "%s", name);
        return 1;
    }
    size_t used = (size_t)snprintf(rep->mempolicy, sizeof(rep->mempolicy), "%s:", name);
    int allowed = want < 0;
    for (unsigned long nd = 0; nd < maxnode && used < sizeof(rep->mempolicy); nd++)
        if (mask[nd / (8 * sizeof(unsigned long))] & (1ul << (nd % (8 * sizeof(unsigned long))))) {
            used += (size_t)snprintf(rep->mempolicy + used, sizeof(rep->mempolicy) - used, "%s%lu",
                                     rep->mempolicy[used - 1] == ':' ? "" : ",", nd);
            allowed |= (int)nd == want;
        }
    return allowed;
}

static const char *port_state_name(int st)
{
    switch (st) {
    case IBV_PORT_DOWN: return "DOWN";
    case IBV_PORT_INIT: return "INIT";
    case IBV_PORT_ARMED: return "ARMED";
    case IBV_PORT_ACTIVE: return "ACTIVE";
    default: return "NOP";
    }
}

static void fmt_bytes(uint64_t v, char *buf, size_t len)
{
    if (v == UINT64_MAX)
        snprintf(buf, len, "unlimited");
    else
        vsym_util_format_size((size_t)v, buf, len);
}

void conform_node_probe(vsym_ctx_t *ctx, const conform_config_t *cfg, int vnode,
                        node_report_t *rep)
{
    vsym_team_t *world = vsym_team_world(ctx), *node = vsym_team_node(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    const char *env;

    memset(rep, 0, sizeof(*rep));
    rep->world_rank = me;
    rep->node = vsym_team_node_of(world, me);
    rep->local_rank = vsym_team_rank(node);
    rep->local_size = vsym_team_size(node);
    rep->pid = (int32_t)getpid();
    rep->virtual_nodes = (int32_t)vsym_config_int(VSYM_CFG_VIRTUAL_NODES);
    rep->launcher_local_rank = -1;
    if ((env = getenv("OMPI_COMM_WORLD_LOCAL_RANK")) || (env = getenv("SLURM_LOCALID")) ||
        (env = getenv("MPI_LOCALRANKID")))
        rep->launcher_local_rank = atoi(env);
    for (int r = 0; r < n; r++) {
        const char *tp = vsym_team_transport_of(world, r);
        if (tp && strcmp(tp, "verbs") == 0)
            rep->uses_verbs = 1;
    }
    vsym_sysinfo_get(&rep->sys);
    snprintf(rep->host, sizeof(rep->host), "%s", rep->sys.host);
    snprintf(rep->version, sizeof(rep->version), "%s", vsym_version());
    snprintf(rep->commit, sizeof(rep->commit), "%s", vsym_build_commit());
    probe_rdma(rep, vnode);
    probe_hugepages(rep);
    struct rlimit rl;
    rep->memlock = 0;
    if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0)
        rep->memlock = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_cur;
    rep->memlock_need = vsym_config_size(VSYM_CFG_HEAP_SIZE) +
                        vsym_config_size(VSYM_CFG_INTERNAL_SIZE);
    int policy_ok = probe_mempolicy(rep, rep->device_numa);

    /* ---- evaluation ---- */
    int rdma_needed = cfg->rdma_required || rep->uses_verbs;
    if (!rep->device[0]) {
        const char *why = "no RDMA device on this node";
        if (rdma_needed)
            set_check(rep, NC_RDMA_DEVICE, CK_FAIL, "%s%s%s", why,
                      vsym_config_str(VSYM_CFG_DEVICE)[0] ? " named by VSYM_DEVICE=" : "",
                      vsym_config_str(VSYM_CFG_DEVICE));
        else
            set_check(rep, NC_RDMA_DEVICE, CK_SKIP,
                      "%s (not required: expect.rdma_required is false and every peer is "
                      "reached over %s)", why, n > 1 ? "shared memory" : "self");
        for (int id = NC_PORT_ACTIVE; id <= NC_ROCE_GID; id++)
            set_check(rep, id, CK_SKIP, "no RDMA device on this node");
    } else {
        set_check(rep, NC_RDMA_DEVICE, CK_PASS, "%s port %d (driver %s, firmware %s)",
                  rep->device, rep->port, rep->driver, rep->fw_ver[0] ? rep->fw_ver : "?");
        set_check(rep, NC_PORT_ACTIVE, rep->port_state == IBV_PORT_ACTIVE ? CK_PASS : CK_FAIL,
                  "%s port %d is %s", rep->device, rep->port, port_state_name(rep->port_state));
        if (cfg->link_width[0] == '\0')
            set_check(rep, NC_LINK_WIDTH, CK_SKIP, "width %s; no expectation (expect.link_width)",
                      rep->width);
        else
            set_check(rep, NC_LINK_WIDTH,
                      strcmp(cfg->link_width, rep->width) == 0 ? CK_PASS : CK_FAIL,
                      "width %s, expected %s", rep->width, cfg->link_width);
        if (cfg->link_speed_gbps <= 0)
            set_check(rep, NC_LINK_SPEED, CK_SKIP,
                      "%.1f Gb/s per lane; no expectation (expect.link_speed_gbps)",
                      rep->speed_gbps);
        else
            set_check(rep, NC_LINK_SPEED,
                      rep->speed_gbps + 0.5 >= cfg->link_speed_gbps ? CK_PASS : CK_FAIL,
                      "%.1f Gb/s per lane, expected %.1f", rep->speed_gbps,
                      cfg->link_speed_gbps);
        if (cfg->mtu <= 0)
            set_check(rep, NC_MTU, CK_SKIP, "MTU %d; no expectation (expect.mtu)",
                      rep->active_mtu);
        else
            set_check(rep, NC_MTU, rep->active_mtu == cfg->mtu ? CK_PASS : CK_FAIL,
                      "active MTU %d, expected %d", rep->active_mtu, cfg->mtu);
        if (rep->link_layer != 2)
            set_check(rep, NC_ROCE_GID, CK_SKIP, "InfiniBand link layer: no RoCE GID needed");
        else if (rep->gid_index >= 0)
            set_check(rep, NC_ROCE_GID, CK_PASS, "RoCE v2 GID[%d] %s", rep->gid_index, rep->gid);
        else
            set_check(rep, NC_ROCE_GID, cfg->roce_v2_gid ? CK_FAIL : CK_WARN,
                      "Ethernet link layer without a RoCE v2 GID (no IP address on the netdev?)");
    }
    char have[32], need[32];
    fmt_bytes(rep->memlock, have, sizeof(have));
    fmt_bytes(rep->memlock_need, need, sizeof(need));
    if (rep->memlock >= rep->memlock_need)
        set_check(rep, NC_MEMLOCK, CK_PASS, "RLIMIT_MEMLOCK %s >= heap + internal %s", have, need);
    else if (rdma_needed || rep->device[0])
        set_check(rep, NC_MEMLOCK, rdma_needed ? CK_FAIL : CK_WARN,
                  "RLIMIT_MEMLOCK %s < heap + internal %s: RDMA registration will fail "
                  "(ulimit -l unlimited)", have, need);
    else
        set_check(rep, NC_MEMLOCK, CK_PASS, "RLIMIT_MEMLOCK %s (only RDMA needs %s)", have, need);
    if (cfg->hugepages <= 0)
        set_check(rep, NC_HUGEPAGES, CK_SKIP,
                  "%lld of %lld free; no expectation (expect.hugepages)",
                  (long long)rep->huge_free, (long long)rep->huge_total);
    else
        set_check(rep, NC_HUGEPAGES, rep->huge_free >= cfg->hugepages ? CK_PASS : CK_FAIL,
                  "%lld huge pages of %lld kB free, expected at least %ld",
                  (long long)rep->huge_free, (long long)rep->huge_size_kb, cfg->hugepages);
    if (cfg->governor[0] == '\0')
        set_check(rep, NC_GOVERNOR, CK_SKIP, "governor %s; no expectation (expect.governor)",
                  rep->sys.governor);
    else if (strcmp(rep->sys.governor, "unknown") == 0)
        set_check(rep, NC_GOVERNOR, cfg->governor_unknown,
                  "governor unknown (no cpufreq in sysfs), expected %s", cfg->governor);
    else
        set_check(rep, NC_GOVERNOR, strcmp(rep->sys.governor, cfg->governor) == 0 ? CK_PASS
                                                                                  : CK_FAIL,
                  "governor %s, expected %s", rep->sys.governor, cfg->governor);
    if (cfg->min_freq_mhz <= 0)
        set_check(rep, NC_CPU_FREQ, CK_SKIP, "%.0f MHz (max %.0f); no expectation",
                  rep->sys.freq_cur_khz / 1e3, rep->sys.freq_max_khz / 1e3);
    else if (rep->sys.freq_cur_khz <= 0)
        set_check(rep, NC_CPU_FREQ, CK_WARN, "frequency unknown, expected at least %.0f MHz",
                  cfg->min_freq_mhz);
    else
        set_check(rep, NC_CPU_FREQ,
                  rep->sys.freq_cur_khz / 1e3 >= cfg->min_freq_mhz ? CK_PASS : CK_FAIL,
                  "%.0f MHz, expected at least %.0f", rep->sys.freq_cur_khz / 1e3,
                  cfg->min_freq_mhz);
    if (rep->sys.numa_nodes <= 1)
        set_check(rep, NC_NUMA, CK_PASS, "one NUMA node; CPUs %s", rep->sys.cpus_allowed);
    else if (!rep->device[0] || rep->device_numa < 0)
        set_check(rep, NC_NUMA, CK_SKIP, "%s; CPUs %s on NUMA node %d",
                  rep->device[0] ? "device NUMA node unknown" : "no RDMA device",
                  rep->sys.cpus_allowed, rep->sys.numa_node);
    else if (rep->sys.numa_node < 0)
        set_check(rep, NC_NUMA, CK_WARN,
                  "CPUs %s span NUMA nodes; %s is on node %d (bind the rank)",
                  rep->sys.cpus_allowed, rep->device, rep->device_numa);
    else
        set_check(rep, NC_NUMA,
                  rep->sys.numa_node == rep->device_numa ? CK_PASS : cfg->numa_mismatch,
                  "CPUs %s on NUMA node %d, %s on node %d", rep->sys.cpus_allowed,
                  rep->sys.numa_node, rep->device, rep->device_numa);
    set_check(rep, NC_MEMPOLICY, policy_ok ? CK_PASS : cfg->numa_mismatch,
              "memory policy %s%s", rep->mempolicy,
              policy_ok ? "" : ": excludes the device's NUMA node");
}

const char *conform_rank_name(const node_report_t *reps, int r, char *buf, size_t len)
{
    snprintf(buf, len, "rank %d (node %d, host %s, pid %d)", r, reps[r].node, reps[r].host,
             reps[r].pid);
    return buf;
}

json_t *conform_node_report_json(const node_report_t *r)
{
    json_t *checks = json_object();
    for (int i = 0; i < NC_COUNT; i++)
        json_object_set_new(checks, conform_node_check_name(i),
                            json_pack("{s:s,s:s}", "status",
                                      conform_status_name((ck_status_t)r->checks[i].status),
                                      "message", r->checks[i].msg));
    json_t *sys = json_pack(
        "{s:s,s:s,s:i,s:i,s:i,s:s,s:s,s:f,s:f,s:s,s:s}", "host", r->sys.host, "cpu_model",
        r->sys.cpu_model, "cores_online", r->sys.cores_online, "numa_nodes", r->sys.numa_nodes,
        "numa_node", r->sys.numa_node, "cpus_allowed", r->sys.cpus_allowed, "governor",
        r->sys.governor, "freq_cur_mhz", r->sys.freq_cur_khz / 1e3, "freq_max_mhz",
        r->sys.freq_max_khz / 1e3, "kernel", r->sys.kernel, "clock", r->sys.clock);
    json_t *rdma = json_pack(
        "{s:s,s:s,s:s,s:s,s:i,s:s,s:s,s:i,s:s,s:f,s:i,s:s,s:i}", "device", r->device, "driver",
        r->driver, "firmware", r->fw_ver, "libibverbs", r->ibverbs_lib, "port", r->port,
        "port_state", r->device[0] ? port_state_name(r->port_state) : "",
        "link_layer", r->link_layer == 2 ? "Ethernet" : r->link_layer == 1 ? "InfiniBand" : "",
        "active_mtu", r->active_mtu, "width", r->width, "speed_gbps_per_lane", r->speed_gbps,
        "gid_index", r->gid_index, "gid", r->gid, "numa_node", r->device_numa);
    return json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:s,s:b,s:s,s:s,s:o,s:o,s:I,s:I,s:{s:I,s:I,s:I},"
                     "s:s,s:o}",
                     "rank", r->world_rank, "node", r->node, "local_rank", r->local_rank,
                     "local_size", r->local_size, "launcher_local_rank", r->launcher_local_rank,
                     "pid", r->pid, "host", r->host, "uses_verbs", r->uses_verbs, "version",
                     r->version, "commit", r->commit, "system", sys, "rdma", rdma,
                     "memlock_bytes",
                     r->memlock == UINT64_MAX ? (json_int_t)-1 : (json_int_t)r->memlock,
                     "memlock_needed_bytes", (json_int_t)r->memlock_need, "hugepages", "total",
                     (json_int_t)r->huge_total, "free", (json_int_t)r->huge_free, "size_kb",
                     (json_int_t)r->huge_size_kb, "mempolicy", r->mempolicy, "checks", checks);
}

/* ---- rank 0: per-node results and the checks across ranks ---------------------------------- */

static int node_count(const node_report_t *reps, int n)
{
    int max = -1;
    for (int r = 0; r < n; r++)
        if (reps[r].node > max)
            max = reps[r].node;
    return max + 1;
}

static void check_topology(conform_report_t *rep)
{
    const node_report_t *R = rep->ranks;
    int n = rep->nranks;
    char a[128], b[128], msg[320] = "";
    int bad = 0;
    for (int r = 0; r < n && !bad; r++)
        for (int q = 0; q < r && !bad; q++) {
            int same_host = strcmp(R[r].host, R[q].host) == 0;
            int same_node = R[r].node == R[q].node;
            if (same_node && !same_host) {
                snprintf(msg, sizeof(msg), "%s and %s share a node index but not a host name",
                         conform_rank_name(R, q, a, sizeof(a)),
                         conform_rank_name(R, r, b, sizeof(b)));
                bad = 1;
            } else if (same_host && !same_node && R[r].virtual_nodes <= 1) {
                snprintf(msg, sizeof(msg),
                         "%s and %s run on one host but PMIx puts them on different nodes",
                         conform_rank_name(R, q, a, sizeof(a)),
                         conform_rank_name(R, r, b, sizeof(b)));
                bad = 1;
            } else if (same_node && R[r].local_rank == R[q].local_rank) {
                snprintf(msg, sizeof(msg), "%s and %s have the same local rank %d",
                         conform_rank_name(R, q, a, sizeof(a)),
                         conform_rank_name(R, r, b, sizeof(b)),
                         R[r].local_rank);
                bad = 1;
            } else if (same_host && R[r].launcher_local_rank >= 0 &&
                       R[r].launcher_local_rank == R[q].launcher_local_rank) {
                snprintf(msg, sizeof(msg), "%s and %s have the same launcher local rank %d",
                         conform_rank_name(R, q, a, sizeof(a)),
                         conform_rank_name(R, r, b, sizeof(b)),
                         R[r].launcher_local_rank);
                bad = 1;
            }
        }
    for (int r = 0; r < n && !bad; r++) {
        int count = 0;
        for (int q = 0; q < n; q++)
            count += R[q].node == R[r].node;
        if (R[r].local_size != count || R[r].local_rank >= count) {
            snprintf(msg, sizeof(msg), "%s: node team of %d ranks, but %d ranks report node %d",
                     conform_rank_name(R, r, a, sizeof(a)), R[r].local_size, count, R[r].node);
            bad = 1;
        }
    }
    if (!bad)
        snprintf(msg, sizeof(msg),
                 "%d ranks on %d nodes; node indices, local ranks and host names agree%s", n,
                 rep->nnodes, R[0].virtual_nodes > 1 ? " (virtual nodes)" : "");
    conform_report_add(rep, "world", "topology", "world", bad ? CK_FAIL : CK_PASS, 0, "%s", msg);
}

static void check_versions(conform_report_t *rep)
{
    const node_report_t *R = rep->ranks;
    int n = rep->nranks, lib_bad = -1, prov_bad = -1, first_dev = -1;
    char a[128];
    for (int r = 1; r < n; r++)
        if (lib_bad < 0 && (strcmp(R[r].version, R[0].version) != 0 ||
                            strcmp(R[r].commit, R[0].commit) != 0))
            lib_bad = r;
    for (int r = 0; r < n; r++) {
        if (!R[r].device[0])
            continue;
        if (first_dev < 0)
            first_dev = r;
        else if (prov_bad < 0 && (strcmp(R[r].ibverbs_lib, R[first_dev].ibverbs_lib) != 0 ||
                                  strcmp(R[r].driver, R[first_dev].driver) != 0 ||
                                  strcmp(R[r].fw_ver, R[first_dev].fw_ver) != 0))
            prov_bad = r;
    }
    if (lib_bad >= 0)
        conform_report_add(rep, "world", "library_version", "world",
                           rep->cfg->same_versions ? CK_FAIL : CK_WARN, 0,
                           "%s runs vsym %s (%s), rank 0 runs %s (%s)",
                           conform_rank_name(R, lib_bad, a, sizeof(a)), R[lib_bad].version,
                           R[lib_bad].commit, R[0].version, R[0].commit);
    else
        conform_report_add(rep, "world", "library_version", "world", CK_PASS, 0,
                           "vsym %s (%s) on every rank", R[0].version, R[0].commit);
    if (first_dev < 0)
        conform_report_add(rep, "world", "provider_version", "world", CK_SKIP, 0,
                           "no RDMA device on any node (%s)", R[0].ibverbs_lib);
    else if (prov_bad >= 0)
        conform_report_add(rep, "world", "provider_version", "world",
                           rep->cfg->same_versions ? CK_FAIL : CK_WARN, 0,
                           "%s: %s, driver %s, firmware %s; rank %d: %s, driver %s, firmware %s",
                           conform_rank_name(R, prov_bad, a, sizeof(a)), R[prov_bad].ibverbs_lib,
                           R[prov_bad].driver, R[prov_bad].fw_ver, first_dev,
                           R[first_dev].ibverbs_lib, R[first_dev].driver, R[first_dev].fw_ver);
    else
        conform_report_add(rep, "world", "provider_version", "world", CK_PASS, 0,
                           "%s, driver %s, firmware %s on every node with a device",
                           R[first_dev].ibverbs_lib, R[first_dev].driver, R[first_dev].fw_ver);
}

int conform_node_checks(vsym_ctx_t *ctx, const conform_config_t *cfg, conform_report_t *rep)
{
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    node_report_t mine;
    node_report_t *all = calloc((size_t)n, sizeof(*all));
    uint64_t t0 = vsym_util_time_ns();
    vsym_status_t st;

    if (all == NULL)
        return -1;
    /* Host names first: a pretend node's device is picked by its index among the pretend nodes
     * of its host. */
    char host[64] = "", *hosts = calloc((size_t)n, sizeof(host));
    int vnode = vsym_team_node_of(world, me);
    gethostname(host, sizeof(host) - 1);
    if (hosts && vsym_team_exchange(world, host, sizeof(host), hosts) == VSYM_OK &&
        vsym_config_int(VSYM_CFG_VIRTUAL_NODES) > 1) {
        vnode = 0;
        for (int r = 0; r < n; r++) {
            int first = 1;
            for (int q = 0; q < r; q++)
                first &= vsym_team_node_of(world, q) != vsym_team_node_of(world, r);
            if (first && strcmp(hosts + 64 * (size_t)r, host) == 0 &&
                vsym_team_node_of(world, r) < vsym_team_node_of(world, me))
                vnode++;
        }
    }
    free(hosts);
    conform_node_probe(ctx, cfg, vnode, &mine);
    if ((st = vsym_team_exchange(world, &mine, sizeof(mine), all)) != VSYM_OK) {
        fprintf(stderr, "vsym-conform: rank %d: gathering the node checks failed: %s: %s\n", me,
                vsym_status_name(st), vsym_error_detail());
        free(all);
        return -1;
    }
    double dt = (double)(vsym_util_time_ns() - t0) / 1e9;
    rep->nranks = n;
    rep->ranks = all;
    rep->nnodes = node_count(all, n);
    if (me != 0)
        return 0;

    /* One result per check per node: the worst outcome among the node's ranks. */
    for (int nd = 0; nd < rep->nnodes; nd++) {
        char subject[128];
        conform_node_name(rep, nd, subject, sizeof(subject));
        for (int id = 0; id < NC_COUNT; id++) {
            int worst = -1, differ = 0;
            for (int r = 0; r < n; r++) {
                if (all[r].node != nd)
                    continue;
                if (worst < 0 || all[r].checks[id].status > all[worst].checks[id].status)
                    worst = r;
                if (worst >= 0 && strcmp(all[r].checks[id].msg, all[worst].checks[id].msg) != 0)
                    differ = 1;
            }
            if (worst < 0)
                continue;
            char msg[160];
            if (differ)
                snprintf(msg, sizeof(msg), "rank %d: %s", worst, all[worst].checks[id].msg);
            else
                snprintf(msg, sizeof(msg), "%s", all[worst].checks[id].msg);
            conform_report_add(rep, "node", conform_node_check_name(id), subject,
                               (ck_status_t)all[worst].checks[id].status, dt, "%s", msg);
        }
    }
    check_topology(rep);
    check_versions(rep);
    if (cfg->nodes > 0)
        conform_report_add(rep, "world", "node_count", "world",
                           rep->nnodes == cfg->nodes ? CK_PASS : CK_FAIL, 0,
                           "%d nodes, expected %d", rep->nnodes, cfg->nodes);
    else
        conform_report_add(rep, "world", "node_count", "world", CK_SKIP, 0,
                           "%d nodes; no expectation (expect.nodes)", rep->nnodes);
    if (cfg->ranks > 0)
        conform_report_add(rep, "world", "rank_count", "world",
                           n == cfg->ranks ? CK_PASS : CK_FAIL, 0, "%d ranks, expected %d", n,
                           cfg->ranks);
    return 0;
}
