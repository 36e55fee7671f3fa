/* The autotune table of the fused collectives: the fastest mode per op and size bucket, kept in
 * a text file keyed by topology and host:
 *     vsym-autotune 1
 *     key world=4 local=4 local_tp=2 local_dp=2 inter_tp=1 inter_dp=1 host=n1
 *     entry allreduce_allgather 13 oneshot 12.5
 *     end
 * A file may hold several tables; a load takes the one whose key matches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll/coll_internal.h"

void vsym_coll_tune_init(vsym_tune_table_t *t, const char *key)
{
    memset(t, 0, sizeof(*t));
    snprintf(t->key, sizeof(t->key), "%s", key);
    memset(t->mode, -1, sizeof(t->mode));
}

int vsym_coll_tune_bucket(size_t bytes)
{
    if (bytes <= 1) return 0;
    /* round(log2(bytes)) in integers, as AUTO asks it on every call: k = floor(log2(bytes)),
     * one more where bytes >= 2^k x sqrt(2), i.e. bytes^2 >= 2^(2k + 1). With libm's
     * lround(log2()) AUTO running the baseline took 33-37 ns per call more than the baseline
     * itself on the 16-core Intel guest (4-16 ranks, 2-4% below 4 KiB), 13-14 ns on one rank of
     * the 2-core AMD host (5-7 ns now; results/coll/device-16core-2026-11-27-stop39). */
    int k = 63 - __builtin_clzll((unsigned long long)bytes);
    unsigned __int128 sq = (unsigned __int128)bytes * bytes;
    int b = k + (sq >= ((unsigned __int128)1 << (2 * k + 1)));
    return b > VSYM_TUNE_MAX_LOG2 ? VSYM_TUNE_MAX_LOG2 : b;
}

int vsym_coll_tune_lookup(const vsym_tune_table_t *t, vsym_fused_op_t op, size_t bytes)
{
    if ((unsigned)op >= VSYM_FUSED_OP_COUNT) return -1;
    int b = vsym_coll_tune_bucket(bytes);
    /* The nearest tuned bucket: sizes beyond the tuned range take its edge. */
    for (int d = 0; d <= VSYM_TUNE_MAX_LOG2; d++) {
        if (b - d >= 0 && t->mode[op][b - d] >= 0) return t->mode[op][b - d];
        if (b + d <= VSYM_TUNE_MAX_LOG2 && t->mode[op][b + d] >= 0) return t->mode[op][b + d];
    }
    return -1;
}

double vsym_coll_tune_median(double rt[][VSYM_TUNE_ROUNDS], int mode)
{
    double v[VSYM_TUNE_ROUNDS];
    memcpy(v, rt[mode], sizeof(v));
    return vsym_util_median(v, VSYM_TUNE_ROUNDS);
}

/* The median over the rounds of mode's time over ref's in the same round. */
static double median_ratio(double rt[][VSYM_TUNE_ROUNDS], int mode, int ref)
{
    double ratio[VSYM_TUNE_ROUNDS];
    for (int q = 0; q < VSYM_TUNE_ROUNDS; q++)
        ratio[q] = rt[mode][q] / rt[ref][q];
    return vsym_util_median(ratio, VSYM_TUNE_ROUNDS);
}

int vsym_coll_tune_pick(double rt[][VSYM_TUNE_ROUNDS], unsigned valid_modes, double *time_p)
{
    const int base = VSYM_FUSED_BASELINE, has_base = (valid_modes >> base) & 1;
    int best = -1;
    double best_t = 0, best_r = 0;
    for (int mode = 1; mode < VSYM_FUSED_MODE_COUNT; mode++) {
        if (!(valid_modes & (1u << mode)) || mode == base) continue;
        double t = vsym_coll_tune_median(rt, mode);
        double r = has_base ? median_ratio(rt, mode, base) : 0;
        if (best < 0 || (has_base ? r < best_r : t < best_t)) {
            best = mode;
            best_t = t;
            best_r = r;
        }
    }
    /* A fused mode replaces the two library collectives only when it is clearly faster: within
     * the noise of a timing the baseline is the safe choice, so that auto is never slower than
     * the unfused pair by more than that noise. (With 0.95, tables of the 16-core host's 8- and
     * 16-rank launches held fused modes at 64 B-1 KiB that ran 0.6-0.8x the baseline in the
     * next launch; results/coll/device-16core-2026-11-26-stop22.) */
    if (has_base && (best < 0 || best_r > VSYM_TUNE_MARGIN)) {
        best = base;
        best_t = vsym_coll_tune_median(rt, base);
    }
    *time_p = best_t;
    return best;
}

int vsym_coll_tune_confirm(double rt[][VSYM_TUNE_ROUNDS], int mode, int ref)
{
    return median_ratio(rt, mode, ref) < VSYM_TUNE_CONFIRM;
}

/* The file's tables with other keys, as text (NULL when none or no file). */
static char *other_tables(const char *path, const char *key)
{
    FILE *fp = fopen(path, "r");
    if (fp == NULL) return NULL;
    size_t cap = 4096, len = 0;
    char *keep = malloc(cap), line[512];
    int skip = 1; /* outside a table: nothing to keep (the header is written anew) */
    if (keep != NULL) keep[0] = '\0'; /* a file with only this key's table keeps nothing */
    while (keep && fgets(line, sizeof(line), fp) != NULL) {
        if (strncmp(line, "key ", 4) == 0) {
            line[strcspn(line, "\r\n")] = '\0';
            skip = strcmp(line + 4, key) == 0;
            if (!skip) strcat(line, "\n");
        } else if (strncmp(line, "vsym-autotune", 13) == 0) {
            continue;
        }
        if (!skip) {
            size_t l = strlen(line);
            if (len + l + 1 > cap) {
                char *k = realloc(keep, cap * 2 + l);
                if (k == NULL) {
                    free(keep);
                    keep = NULL;
                    break;
                }
                keep = k;
                cap = cap * 2 + l;
            }
            memcpy(keep + len, line, l + 1);
            len += l;
        }
        if (strncmp(line, "end", 3) == 0) skip = 1;
    }
    fclose(fp);
    return keep;
}

vsym_status_t vsym_coll_tune_save(const vsym_tune_table_t *t, const char *path)
{
    /* Tables of other topologies or hosts in the file are kept; this key's is replaced. */
    char *others = other_tables(path, t->key);
    FILE *fp = fopen(path, "w");
    if (fp == NULL) {
        free(others);
        return VSYM_FAIL(VSYM_ERR_IO, "autotune: cannot write %s: %s", path, strerror(errno));
    }
    fprintf(fp, "vsym-autotune 1\n%s", others ? others : "");
    free(others);
    fprintf(fp, "key %s\n", t->key);
    for (int op = 0; op < VSYM_FUSED_OP_COUNT; op++)
        for (int b = 0; b <= VSYM_TUNE_MAX_LOG2; b++)
            if (t->mode[op][b] >= 0)
                fprintf(fp, "entry %s %d %s %.3f\n", vsym_fused_op_name((vsym_fused_op_t)op), b,
                        vsym_fused_mode_name((vsym_fused_mode_t)t->mode[op][b]),
                        (double)t->time_us[op][b]);
    fprintf(fp, "end\n");
    if (fclose(fp) != 0)
        return VSYM_FAIL(VSYM_ERR_IO, "autotune: cannot write %s: %s", path, strerror(errno));
    return VSYM_OK;
}

vsym_status_t vsym_coll_tune_load(vsym_tune_table_t *t, const char *path)
{
    FILE *fp = fopen(path, "r");
    if (fp == NULL)
        return vsym_util_fail_quiet(VSYM_ERR_IO, "autotune: cannot read %s: %s", path,
                                    strerror(errno));
    char line[512];
    int in_match = 0, found = 0, lineno = 0;
    vsym_tune_table_t got;
    vsym_coll_tune_init(&got, t->key);
    vsym_status_t st = VSYM_OK;
    while (fgets(line, sizeof(line), fp) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "key ", 4) == 0) {
            in_match = strcmp(line + 4, t->key) == 0;
            found |= in_match;
        } else if (strcmp(line, "end") == 0) {
            in_match = 0;
        } else if (in_match && strncmp(line, "entry ", 6) == 0) {
            char opname[64], modename[64];
            int b;
            float us;
            vsym_fused_op_t op;
            vsym_fused_mode_t mode;
            if (sscanf(line + 6, "%63s %d %63s %f", opname, &b, modename, &us) != 4 || b < 0 ||
                b > VSYM_TUNE_MAX_LOG2 || vsym_fused_op_from_name(opname, &op) != VSYM_OK ||
                vsym_fused_mode_from_name(modename, &mode) != VSYM_OK) {
                st = VSYM_FAIL(VSYM_ERR_IO, "autotune: %s line %d malformed: '%s'", path, lineno,
                               line);
                break;
            }
            got.mode[op][b] = (signed char)mode;
            got.time_us[op][b] = us;
        }
    }
    fclose(fp);
    if (st != VSYM_OK) return st;
    if (!found)
        return vsym_util_fail_quiet(VSYM_ERR_NOT_FOUND, "autotune: %s has no table for '%s'", path,
                                    t->key);
    *t = got;
    return VSYM_OK;
}
