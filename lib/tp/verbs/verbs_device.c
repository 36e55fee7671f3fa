/* Device, port and GID selection of the verbs transport. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tp/verbs/verbs.h"

/* The NUMA node of a device from sysfs; -1 when unknown (e.g. a software device). */
static int device_numa_node(const char *name)
{
    char path[256];
    int node = -1;
    FILE *f;

    snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device/numa_node", name);
    f = fopen(path, "r");
    if (f == NULL)
        return -1;
    if (fscanf(f, "%d", &node) != 1)
        node = -1;
    fclose(f);
    return node;
}

/* Distance between the CPUs this rank may run on and a device: the smallest NUMA distance
 * from any of the rank's nodes. Unknown device nodes count as local. */
static int device_distance(const char *name)
{
    int dev_node = device_numa_node(name);
    int best = 1000;
    cpu_set_t set;

    if (dev_node < 0 || numa_available() < 0)
        return 10;
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return 10;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set))
            continue;
        int node = numa_node_of_cpu(cpu);
        if (node < 0)
            continue;
        int d = numa_distance(node, dev_node);
        if (d > 0 && d < best)
            best = d;
    }
    return best == 1000 ? 10 : best;
}

/* Entry vnode (modulo the count) of a comma-separated list, into out. */
static void list_entry(const char *list, int vnode, char *out, size_t len)
{
    int count = 1;
    for (const char *p = list; *p; p++)
        count += *p == ',';
    int want = vnode % count;
    const char *start = list;
    for (int i = 0; i < want; i++)
        start = strchr(start, ',') + 1;
    const char *end = strchr(start, ',');
    size_t n = end ? (size_t)(end - start) : strlen(start);
    if (n >= len)
        n = len - 1;
    memcpy(out, start, n);
    out[n] = '\0';
}

static int gid_is_zero(const union ibv_gid *gid)
{
    static const uint8_t zero[16];
    return memcmp(gid->raw, zero, 16) == 0;
}

static int gid_is_v4mapped(const union ibv_gid *gid)
{
    static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    return memcmp(gid->raw, prefix, 12) == 0;
}

static int gid_is_linklocal(const union ibv_gid *gid)
{
    return gid->raw[0] == 0xfe && (gid->raw[1] & 0xc0) == 0x80;
}

/* GID type from sysfs, for libraries without ibv_query_gid_ex results. */
static int sysfs_gid_type(const char *dev, int port, int index)
{
    char path[256], text[64] = "";
    FILE *f;

    snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%d/gid_attrs/types/%d", dev,
             port, index);
    f = fopen(path, "r");
    if (f == NULL)
        return -1;
    if (fgets(text, sizeof(text), f) == NULL)
        text[0] = '\0';
    fclose(f);
    if (strstr(text, "v2") != NULL)
        return IBV_GID_TYPE_ROCE_V2;
    if (strstr(text, "RoCE") != NULL || strstr(text, "IB/RoCE") != NULL)
        return IBV_GID_TYPE_ROCE_V1;
    return -1;
}

static int sysfs_gid_ifindex(const char *dev, int port, int index)
{
    char path[256], name[IF_NAMESIZE + 2] = "";
    FILE *f;

    snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%d/gid_attrs/ndevs/%d", dev,
             port, index);
    f = fopen(path, "r");
    if (f == NULL)
        return 0;
    if (fgets(name, sizeof(name), f) == NULL)
        name[0] = '\0';
    fclose(f);
    name[strcspn(name, "\n")] = '\0';
    return name[0] ? (int)if_nametoindex(name) : 0;
}

/* Read one GID entry; 0 when the index holds a usable GID. */
static int read_gid(vsym_tp_verbs_t *t, int index, union ibv_gid *gid_p, int *type_p,
                    int *ifindex_p)
{
    struct ibv_gid_entry e;

    if (ibv_query_gid_ex(t->ctx, t->port, (uint32_t)index, &e, 0) == 0) {
        if (gid_is_zero(&e.gid))
            return -1;
        *gid_p = e.gid;
        *type_p = (int)e.gid_type;
        *ifindex_p = (int)e.ndev_ifindex;
        return 0;
    }
    /* Older kernels: the plain query plus sysfs attributes. */
    if (ibv_query_gid(t->ctx, t->port, index, gid_p) != 0 || gid_is_zero(gid_p))
        return -1;
    *type_p = sysfs_gid_type(t->dev_name, t->port, index);
    if (*type_p < 0)
        *type_p = t->link_layer == IBV_LINK_LAYER_INFINIBAND ? IBV_GID_TYPE_IB
                                                             : IBV_GID_TYPE_ROCE_V1;
    *ifindex_p = sysfs_gid_ifindex(t->dev_name, t->port, index);
    return 0;
}

static vsym_status_t choose_gid(vsym_tp_verbs_t *t, int gid_tbl_len)
{
    long forced = vsym_config_int(VSYM_CFG_GID_INDEX);
    int best = -1, best_score = -1;
    union ibv_gid gid;
    int type, ifindex;

    if (forced >= 0) {
        if (forced >= gid_tbl_len || read_gid(t, (int)forced, &gid, &type, &ifindex) != 0)
            return VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                             "VSYM_GID_INDEX=%ld: no valid GID at that index of %s port %d "
                             "(table has %d entries)",
                             forced, t->dev_name, t->port, gid_tbl_len);
        best = (int)forced;
    } else if (t->link_layer == IBV_LINK_LAYER_INFINIBAND) {
        /* InfiniBand: LID addressing inside the subnet; GID 0 kept for global routes. */
        t->gid_index = -1;
        memset(&t->gid, 0, sizeof(t->gid));
        if (read_gid(t, 0, &gid, &type, &ifindex) == 0)
            t->gid = gid;
        t->gid_type = IBV_GID_TYPE_IB;
        return VSYM_OK;
    } else {
        /* RoCE: v2 (routable) first; an IPv4-mapped GID is what a routed fabric uses, a
         * link-local one works on one L2 segment (and is all Soft-RoCE on a bare link has). */
        for (int i = 0; i < gid_tbl_len; i++) {
            if (read_gid(t, i, &gid, &type, &ifindex) != 0)
                continue;
            int score;
            if (type == IBV_GID_TYPE_ROCE_V2)
                score = gid_is_v4mapped(&gid) ? 30 : gid_is_linklocal(&gid) ? 20 : 10;
            else
                score = gid_is_linklocal(&gid) ? 2 : 1;
            if (score > best_score) {
                best_score = score;
                best = i;
            }
        }
        if (best < 0)
            return VSYM_FAIL(VSYM_ERR_NO_DEVICE,
                             "verbs: %s port %d has no usable RoCE GID (is the netdev up and "
                             "does it have an IPv6 link-local or IPv4 address?)",
                             t->dev_name, t->port);
    }
    read_gid(t, best, &gid, &type, &ifindex);
    t->gid_index = best;
    t->gid = gid;
    t->gid_type = type;
    t->ndev_ifindex = ifindex;
    return VSYM_OK;
}

/* Try one device: open it and find the port. 0 and t filled on success. */
static vsym_status_t try_device(vsym_tp_verbs_t *t, struct ibv_context *ctx, int owned,
                                const char *name, int quiet)
{
    struct ibv_device_attr dattr;
    struct ibv_port_attr pattr;
    long want_port = vsym_config_int(VSYM_CFG_PORT);
    int err;

    if ((err = verbs_err_rc(ibv_query_device(ctx, &dattr))) != 0) {
        if (quiet)
            return vsym_util_fail_quiet(VSYM_ERR_NO_DEVICE, "query of device %s failed", name);
        return vsym_tp_verbs_check(err, "ibv_query_device(%s)", name);
    }
    for (int p = 1; p <= dattr.phys_port_cnt; p++) {
        if (want_port > 0 && p != want_port)
            continue;
        if (ibv_query_port(ctx, (uint8_t)p, &pattr) != 0 || pattr.state != IBV_PORT_ACTIVE)
            continue;
        t->ctx = ctx;
        t->ctx_owned = owned;
        snprintf(t->dev_name, sizeof(t->dev_name), "%s", name);
        t->port = (uint8_t)p;
        t->lid = pattr.lid;
        t->link_layer = pattr.link_layer;
        t->mtu = pattr.active_mtu;
        t->max_msg = pattr.max_msg_sz ? pattr.max_msg_sz : (1u << 30);
        if (t->max_msg > (1u << 30))
            t->max_msg = 1u << 30;
        /* Reads and atomics in flight per QP: as many as the device takes (perftest's choice;
         * ConnectX parts say 16, Soft-RoCE 128), which small gets and atomic windows need to
         * cover a round trip. The QP attribute is 8 bits wide. */
        t->max_rd_atom = dattr.max_qp_rd_atom > 255 ? 255 : dattr.max_qp_rd_atom;
        t->max_init_rd_atom = dattr.max_qp_init_rd_atom > 255 ? 255 : dattr.max_qp_init_rd_atom;
        t->atomics = dattr.atomic_cap != IBV_ATOMIC_NONE;
        return choose_gid(t, pattr.gid_tbl_len);
    }
    if (quiet)
        return vsym_util_fail_quiet(VSYM_ERR_NO_DEVICE, "device %s has no active port", name);
    if (want_port > 0)
        return VSYM_FAIL(VSYM_ERR_NO_DEVICE, "verbs: VSYM_PORT=%ld of device %s is not active "
                         "(or does not exist; the device has %d ports)",
                         want_port, name, dattr.phys_port_cnt);
    return VSYM_FAIL(VSYM_ERR_NO_DEVICE, "verbs: device %s has no active port", name);
}

typedef struct candidate {
    struct ibv_device *dev;
    struct ibv_context *cm_ctx;
    const char *name;
    int distance;
} candidate_t;

static int candidate_cmp(const void *a, const void *b)
{
    const candidate_t *x = a, *y = b;
    return x->distance - y->distance;
}

vsym_status_t vsym_tp_verbs_open_device(vsym_tp_verbs_t *t, int vnode)
{
    const char *setting = vsym_config_str(VSYM_CFG_DEVICE);
    struct ibv_device **list = NULL;
    struct ibv_context **cm_list = NULL;
    candidate_t *cand = NULL;
    char want[64] = "";
    char names[256] = "";
    int n = 0, ncand = 0;
    vsym_status_t st = VSYM_ERR_NO_DEVICE;

    if (setting[0] != '\0')
        list_entry(setting, vnode < 0 ? 0 : vnode, want, sizeof(want));
    /* librdmacm opens its own device contexts and its cm ids belong to them: on the rdma_cm
     * path every resource must be made on that context. */
    if (t->use_cm)
        cm_list = rdma_get_devices(&n);
    else
        list = ibv_get_device_list(&n);
    if ((t->use_cm ? (void *)cm_list : (void *)list) == NULL || n == 0) {
        st = VSYM_FAIL(VSYM_ERR_NO_DEVICE,
                       "verbs: no RDMA device found (no NIC driver or rdma_rxe loaded; without "
                       "an RDMA NIC run under launch/vsym-softroce)");
        goto out;
    }
    cand = calloc((size_t)n, sizeof(*cand));
    if (cand == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "verbs: device list");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        candidate_t c = {0};
        if (t->use_cm) {
            c.cm_ctx = cm_list[i];
            c.name = ibv_get_device_name(cm_list[i]->device);
        } else {
            c.dev = list[i];
            c.name = ibv_get_device_name(list[i]);
        }
        size_t used = strlen(names);
        snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "", c.name);
        if (want[0] && strcmp(want, c.name) != 0)
            continue;
        c.distance = device_distance(c.name);
        cand[ncand++] = c;
    }
    if (ncand == 0) {
        st = VSYM_FAIL(VSYM_ERR_NO_DEVICE, "verbs: VSYM_DEVICE=%s: no device %s (have: %s)",
                       setting, want, names);
        goto out;
    }
    qsort(cand, (size_t)ncand, sizeof(*cand), candidate_cmp);
    for (int i = 0; i < ncand; i++) {
        struct ibv_context *ctx = cand[i].cm_ctx;
        int err = 0;
        if (ctx == NULL) {
            ctx = ibv_open_device(cand[i].dev);
            err = vsym_tp_verbs_err_null(ctx);
        }
        if (err != 0) {
            st = vsym_tp_verbs_check(err, "ibv_open_device(%s)", cand[i].name);
            continue;
        }
        /* With several candidates, a device without an active port is skipped silently;
         * the last one's reason is reported. */
        st = try_device(t, ctx, cand[i].cm_ctx == NULL, cand[i].name, i + 1 < ncand);
        if (st == VSYM_OK)
            break;
        if (cand[i].cm_ctx == NULL)
            ibv_close_device(ctx);
    }
    if (st == VSYM_OK) {
        char gidtext[INET6_ADDRSTRLEN] = "";
        const char *type = t->gid_type == IBV_GID_TYPE_ROCE_V2   ? "RoCE v2"
                           : t->gid_type == IBV_GID_TYPE_ROCE_V1 ? "RoCE v1"
                                                                 : "IB";
        inet_ntop(AF_INET6, t->gid.raw, gidtext, sizeof(gidtext));
        if (t->link_layer == IBV_LINK_LAYER_INFINIBAND && t->gid_index < 0)
            snprintf(t->desc, sizeof(t->desc), "%s:%u lid %u (IB)", t->dev_name, t->port,
                     t->lid);
        else
            snprintf(t->desc, sizeof(t->desc), "%s:%u gid %d (%s %s)", t->dev_name, t->port,
                     t->gid_index, type, gidtext);
    }
out:
    free(cand);
    if (list != NULL)
        ibv_free_device_list(list);
    if (cm_list != NULL)
        rdma_free_devices(cm_list);
    return st;
}
