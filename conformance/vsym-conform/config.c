/* The configuration of vsym-conform: one JSON file of three sections (expect, fabric,
 * allreduce). One table below lists every key with its type and default; the reader, the writer
 * of the effective configuration and README.md follow it. Unknown keys are errors, so that a
 * typo never silently disables a check. */
#include <stdio.h>
#include <string.h>
#include "conform.h"
#include "util/util.h"

typedef enum key_type { K_INT, K_BOOL, K_DOUBLE, K_STR, K_SIZE, K_STATUS, K_SIZES } key_type_t;

typedef struct key_def {
    const char *section;
    const char *key;
    key_type_t type;
    size_t offset;
    size_t len; /* K_STR: buffer size */
} key_def_t;

#define OFF(f) offsetof(conform_config_t, f)
#define STR(f) OFF(f), sizeof(((conform_config_t *)0)->f)
static const key_def_t keys[] = {
    {"expect", "nodes", K_INT, OFF(nodes), 0},
    {"expect", "ranks", K_INT, OFF(ranks), 0},
    {"expect", "rdma_required", K_BOOL, OFF(rdma_required), 0},
    {"expect", "link_width", K_STR, STR(link_width)},
    {"expect", "link_speed_gbps", K_DOUBLE, OFF(link_speed_gbps), 0},
    {"expect", "mtu", K_INT, OFF(mtu), 0},
    {"expect", "roce_v2_gid", K_BOOL, OFF(roce_v2_gid), 0},
    {"expect", "governor", K_STR, STR(governor)},
    {"expect", "governor_unknown", K_STATUS, OFF(governor_unknown), 0},
    {"expect", "min_freq_mhz", K_DOUBLE, OFF(min_freq_mhz), 0},
    {"expect", "hugepages", K_INT, OFF(hugepages), 0},
    {"expect", "numa_mismatch", K_STATUS, OFF(numa_mismatch), 0},
    {"expect", "same_versions", K_BOOL, OFF(same_versions), 0},
    {"fabric", "intra_node_pairs", K_STR, STR(intra_node_pairs)},
    {"fabric", "concurrent", K_BOOL, OFF(concurrent), 0},
    {"fabric", "sizes", K_SIZES, OFF(sizes), 0},
    {"fabric", "latency_iters", K_INT, OFF(latency_iters), 0},
    {"fabric", "atomic_iters", K_INT, OFF(atomic_iters), 0},
    {"fabric", "bw_size", K_SIZE, OFF(bw_size), 0},
    {"fabric", "bw_iters", K_INT, OFF(bw_iters), 0},
    {"fabric", "bw_trials", K_INT, OFF(bw_trials), 0},
    {"fabric", "latency_stat", K_STR, STR(latency_stat)},
    {"fabric", "latency_factor", K_DOUBLE, OFF(latency_factor), 0},
    {"fabric", "bandwidth_fraction", K_DOUBLE, OFF(bandwidth_fraction), 0},
    {"fabric", "max_latency_us", K_DOUBLE, OFF(max_latency_us), 0},
    {"fabric", "min_bandwidth_MBps", K_DOUBLE, OFF(min_bandwidth_mbps), 0},
    {"fabric", "intra_max_latency_us", K_DOUBLE, OFF(intra_max_latency_us), 0},
    {"fabric", "intra_min_bandwidth_MBps", K_DOUBLE, OFF(intra_min_bandwidth_mbps), 0},
    {"fabric", "max_retests", K_INT, OFF(max_retests), 0},
    {"fabric", "timeout_s", K_DOUBLE, OFF(timeout_s), 0},
    {"allreduce", "enabled", K_BOOL, OFF(allreduce), 0},
    {"allreduce", "size", K_SIZE, OFF(allreduce_size), 0},
    {"allreduce", "iters", K_INT, OFF(allreduce_iters), 0},
    {"allreduce", "min_busbw_MBps", K_DOUBLE, OFF(min_busbw_mbps), 0},
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))
static const char *const sections[] = {"expect", "fabric", "allreduce"};

const char *conform_status_name(ck_status_t st)
{
    switch (st) {
    case CK_PASS: return "pass";
    case CK_SKIP: return "skip";
    case CK_WARN: return "warn";
    case CK_FAIL: return "fail";
    }
    return "?";
}

void conform_config_defaults(conform_config_t *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->roce_v2_gid = 1;
    cfg->governor_unknown = CK_WARN;
    cfg->numa_mismatch = CK_WARN;
    cfg->same_versions = 1;
    snprintf(cfg->intra_node_pairs, sizeof(cfg->intra_node_pairs), "ring");
    cfg->concurrent = 1;
    cfg->sizes[0] = 8;
    cfg->sizes[1] = 4096;
    cfg->sizes[2] = 65536;
    cfg->nsizes = 3;
    cfg->latency_iters = 200;
    cfg->atomic_iters = 100;
    cfg->bw_size = 1 << 20;
    cfg->bw_iters = 32;
    cfg->bw_trials = 3;
    snprintf(cfg->latency_stat, sizeof(cfg->latency_stat), "median");
    cfg->latency_factor = 2.1;
    cfg->bandwidth_fraction = 0.93;
    cfg->max_retests = 16;
    cfg->timeout_s = 10;
    cfg->allreduce = 1;
    cfg->allreduce_size = 1 << 20;
    cfg->allreduce_iters = 10;
}

static int parse_size_value(json_t *v, size_t *out)
{
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (size_t)json_integer_value(v);
        return 0;
    }
    if (json_is_string(v) && vsym_util_parse_size(json_string_value(v), out) == VSYM_OK)
        return 0;
    return -1;
}

static int set_key(const key_def_t *k, json_t *v, conform_config_t *cfg, char *err, size_t errlen)
{
    char *base = (char *)cfg + k->offset;
    switch (k->type) {
    case K_INT:
        if (!json_is_integer(v) || json_integer_value(v) < 0)
            goto bad;
        if (strcmp(k->key, "hugepages") == 0)
            *(long *)base = (long)json_integer_value(v);
        else
            *(int *)base = (int)json_integer_value(v);
        return 0;
    case K_BOOL:
        if (!json_is_boolean(v))
            goto bad;
        *(int *)base = json_is_true(v);
        return 0;
    case K_DOUBLE:
        if (!json_is_number(v) || json_number_value(v) < 0)
            goto bad;
        *(double *)base = json_number_value(v);
        return 0;
    case K_STR:
        if (!json_is_string(v) || strlen(json_string_value(v)) >= k->len)
            goto bad;
        snprintf(base, k->len, "%s", json_string_value(v));
        return 0;
    case K_SIZE:
        if (parse_size_value(v, (size_t *)base) != 0)
            goto bad;
        return 0;
    case K_STATUS: {
        const char *s = json_is_string(v) ? json_string_value(v) : "";
        ck_status_t st;
        if (strcmp(s, "pass") == 0)
            st = CK_PASS;
        else if (strcmp(s, "warn") == 0)
            st = CK_WARN;
        else if (strcmp(s, "fail") == 0)
            st = CK_FAIL;
        else
            goto bad;
        *(ck_status_t *)base = st;
        return 0;
    }
    case K_SIZES: {
        size_t i;
        json_t *e;
        if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > CONFORM_MAX_SIZES)
            goto bad;
        json_array_foreach(v, i, e) {
            if (parse_size_value(e, &cfg->sizes[i]) != 0 || cfg->sizes[i] == 0)
                goto bad;
        }
        cfg->nsizes = (int)json_array_size(v);
        return 0;
    }
    }
bad:
    snprintf(err, errlen, "%s.%s: bad value (%s expected)", k->section, k->key,
             k->type == K_INT      ? "a non-negative integer"
             : k->type == K_BOOL   ? "true or false"
             : k->type == K_DOUBLE ? "a non-negative number"
             : k->type == K_STR    ? "a short string"
             : k->type == K_SIZE   ? "a size: 4096 or \"4K\""
             : k->type == K_STATUS ? "\"pass\", \"warn\" or \"fail\""
                                   : "a list of 1 to 8 sizes");
    return -1;
}

int conform_config_load(const char *path, conform_config_t *cfg, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    const char *sec;
    json_t *sv;

    if (root == NULL) {
        if (jerr.line < 1) /* not read: jansson's text names the file and the reason */
            snprintf(err, errlen, "%s", jerr.text);
        else
            snprintf(err, errlen, "%s:%d: %s", path, jerr.line, jerr.text);
        return -1;
    }
    if (!json_is_object(root)) {
        snprintf(err, errlen, "%s: the top level must be an object", path);
        goto fail;
    }
    json_object_foreach(root, sec, sv) {
        int known = 0;
        for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++)
            known |= strcmp(sec, sections[s]) == 0;
        if (!known || !json_is_object(sv)) {
            snprintf(err, errlen, "%s: unknown section \"%s\" (expect, fabric, allreduce)", path,
                     sec);
            goto fail;
        }
        const char *key;
        json_t *v;
        json_object_foreach(sv, key, v) {
            const key_def_t *k = NULL;
            for (size_t i = 0; i < NKEYS; i++)
                if (strcmp(keys[i].section, sec) == 0 && strcmp(keys[i].key, key) == 0)
                    k = &keys[i];
            if (k == NULL) {
                snprintf(err, errlen, "%s: unknown key %s.%s (see README.md)", path, sec, key);
                goto fail;
            }
            char kerr[200];
            if (set_key(k, v, cfg, kerr, sizeof(kerr)) != 0) {
                snprintf(err, errlen, "%s: %s", path, kerr);
                goto fail;
            }
        }
    }
    if (strcmp(cfg->intra_node_pairs, "all") != 0 && strcmp(cfg->intra_node_pairs, "ring") != 0 &&
        strcmp(cfg->intra_node_pairs, "none") != 0) {
        snprintf(err, errlen, "%s: fabric.intra_node_pairs must be \"all\", \"ring\" or \"none\"",
                 path);
        goto fail;
    }
    if (strcmp(cfg->latency_stat, "median") != 0 && strcmp(cfg->latency_stat, "min") != 0) {
        snprintf(err, errlen, "%s: fabric.latency_stat must be \"median\" or \"min\"", path);
        goto fail;
    }
    if (cfg->timeout_s <= 0 || cfg->latency_iters < 1 || cfg->bw_iters < 1 || cfg->bw_trials < 1 ||
        cfg->atomic_iters < 1 || cfg->bw_size < 8 || cfg->allreduce_iters < 1 ||
        cfg->allreduce_size < 4) {
        snprintf(err, errlen,
                 "%s: timeout_s, *_iters must be positive, bw_size at least 8, allreduce.size "
                 "at least 4", path);
        goto fail;
    }
    snprintf(cfg->path, sizeof(cfg->path), "%s", path);
    json_decref(root);
    return 0;
fail:
    json_decref(root);
    return -1;
}

json_t *conform_config_to_json(const conform_config_t *cfg)
{
    json_t *root = json_object();
    for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++)
        json_object_set_new(root, sections[s], json_object());
    for (size_t i = 0; i < NKEYS; i++) {
        const key_def_t *k = &keys[i];
        const char *base = (const char *)cfg + k->offset;
        json_t *v = NULL;
        switch (k->type) {
        case K_INT:
            v = json_integer(strcmp(k->key, "hugepages") == 0 ? *(const long *)base
                                                               : *(const int *)base);
            break;
        case K_BOOL: v = json_boolean(*(const int *)base); break;
        case K_DOUBLE: v = json_real(*(const double *)base); break;
        case K_STR: v = json_string(base); break;
        case K_SIZE: v = json_integer((json_int_t) * (const size_t *)base); break;
        case K_STATUS: v = json_string(conform_status_name(*(const ck_status_t *)base)); break;
        case K_SIZES:
            v = json_array();
            for (int j = 0; j < cfg->nsizes; j++)
                json_array_append_new(v, json_integer((json_int_t)cfg->sizes[j]));
            break;
        }
        json_object_set_new(json_object_get(root, k->section), k->key, v);
    }
    return root;
}
