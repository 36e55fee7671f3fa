/* PMIx bootstrap. Keys are the ones the launcher (mpirun/prterun/srun) publishes itself. */
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include "boot/boot.h"

typedef struct {
    pmix_proc_t me;
} boot_pmix_t;

static vsym_status_t pmix_fail(const char *what, pmix_status_t rc)
{
    return VSYM_FAIL(VSYM_ERR_BOOTSTRAP, "PMIx %s failed: %s", what, PMIx_Error_string(rc));
}

static vsym_status_t get_u32(const pmix_proc_t *proc, const char *key, uint32_t *out)
{
    pmix_value_t *val = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &val);
    if (rc != PMIX_SUCCESS)
        return pmix_fail(key, rc);
    switch (val->type) {
    case PMIX_UINT32:
        *out = val->data.uint32;
        break;
    case PMIX_UINT16:
        *out = val->data.uint16;
        break;
    case PMIX_INT:
        *out = (uint32_t)val->data.integer;
        break;
    case PMIX_UINT64:
        *out = (uint32_t)val->data.uint64;
        break;
    case PMIX_PROC_RANK:
        *out = val->data.rank;
        break;
    default:
        PMIX_VALUE_RELEASE(val);
        return VSYM_FAIL(VSYM_ERR_BOOTSTRAP, "PMIx key %s has unexpected type %d", key,
                         (int)val->type);
    }
    PMIX_VALUE_RELEASE(val);
    return VSYM_OK;
}

vsym_status_t vsym_boot_init(vsym_boot_t *boot)
{
    boot_pmix_t *bp;
    pmix_proc_t wildcard;
    pmix_status_t rc;
    uint32_t v;
    vsym_status_t st;

    memset(boot, 0, sizeof(*boot));
    bp = calloc(1, sizeof(*bp));
    if (bp == NULL)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "boot: out of memory");
    rc = PMIx_Init(&bp->me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        free(bp);
        boot->size = 1;
        boot->local_size = 1;
        boot->singleton = 1;
        snprintf(boot->nspace, sizeof(boot->nspace), "singleton.%d", (int)getpid());
        vsym_info("no PMIx server (%s): running as a single rank", PMIx_Error_string(rc));
        return VSYM_OK;
    }
    boot->impl = bp;
    boot->rank = (int)bp->me.rank;
    snprintf(boot->nspace, sizeof(boot->nspace), "%s", bp->me.nspace);
    PMIX_PROC_CONSTRUCT(&wildcard);
    PMIX_LOAD_PROCID(&wildcard, bp->me.nspace, PMIX_RANK_WILDCARD);
    if ((st = get_u32(&wildcard, PMIX_JOB_SIZE, &v)) != VSYM_OK)
        goto err;
    boot->size = (int)v;
    if ((st = get_u32(&bp->me, PMIX_LOCAL_RANK, &v)) != VSYM_OK)
        goto err;
    boot->local_rank = (int)v;
    if ((st = get_u32(&wildcard, PMIX_LOCAL_SIZE, &v)) != VSYM_OK)
        goto err;
    boot->local_size = (int)v;
    if ((st = get_u32(&bp->me, PMIX_NODEID, &v)) != VSYM_OK)
        goto err;
    boot->node_id = (int)v;
    return VSYM_OK;
err:
    PMIx_Finalize(NULL, 0);
    free(bp);
    boot->impl = NULL;
    return st;
}

void vsym_boot_finalize(vsym_boot_t *boot)
{
    if (boot->impl) {
        PMIx_Finalize(NULL, 0);
        free(boot->impl);
        boot->impl = NULL;
    }
}

static vsym_status_t fence(vsym_boot_t *boot, const int *ranks, int n, int collect)
{
    boot_pmix_t *bp = boot->impl;
    pmix_info_t info[2];
    pmix_proc_t *procs;
    pmix_status_t rc;
    bool flag = true;
    int timeout = (int)(vsym_util_timeout_ns(0) / 1000000000ull);
    size_t ninfo = 0;

    if (ranks == NULL) {
        procs = malloc(sizeof(*procs));
        if (procs == NULL)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "boot: out of memory");
        PMIX_LOAD_PROCID(&procs[0], bp->me.nspace, PMIX_RANK_WILDCARD);
        n = 1;
    } else {
        procs = calloc((size_t)n, sizeof(*procs));
        if (procs == NULL)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "boot: out of memory");
        for (int i = 0; i < n; i++)
            PMIX_LOAD_PROCID(&procs[i], bp->me.nspace, (pmix_rank_t)ranks[i]);
    }
    if (collect) {
        PMIX_INFO_LOAD(&info[ninfo], PMIX_COLLECT_DATA, &flag, PMIX_BOOL);
        ninfo++;
    }
    PMIX_INFO_LOAD(&info[ninfo], PMIX_TIMEOUT, &timeout, PMIX_INT);
    ninfo++;
    rc = PMIx_Fence(procs, (size_t)n, info, ninfo);
    for (size_t i = 0; i < ninfo; i++)
        PMIX_INFO_DESTRUCT(&info[i]);
    free(procs);
    if (rc != PMIX_SUCCESS)
        return pmix_fail("fence", rc);
    return VSYM_OK;
}

vsym_status_t vsym_boot_allgather(vsym_boot_t *boot, const int *ranks, int n, const char *tag,
                                  const void *in, size_t len, void *out)
{
    boot_pmix_t *bp = boot->impl;
    char key[PMIX_MAX_KEYLEN];
    pmix_value_t value;
    pmix_status_t rc;
    vsym_status_t st;

    if (ranks == NULL)
        n = boot->size;
    if (boot->singleton) {
        memcpy(out, in, len);
        return VSYM_OK;
    }
    snprintf(key, sizeof(key), "vsym.%s", tag);
    PMIX_VALUE_CONSTRUCT(&value);
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = (char *)(uintptr_t)in;
    value.data.bo.size = len;
    rc = PMIx_Put(PMIX_GLOBAL, key, &value);
    if (rc != PMIX_SUCCESS)
        return pmix_fail("put", rc);
    rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS)
        return pmix_fail("commit", rc);
    if ((st = fence(boot, ranks, n, 1)) != VSYM_OK)
        return st;
    for (int i = 0; i < n; i++) {
        pmix_proc_t peer;
        pmix_value_t *got = NULL;
        int r = ranks ? ranks[i] : i;
        PMIX_LOAD_PROCID(&peer, bp->me.nspace, (pmix_rank_t)r);
        rc = PMIx_Get(&peer, key, NULL, 0, &got);
        if (rc != PMIX_SUCCESS)
            return VSYM_FAIL(VSYM_ERR_BOOTSTRAP, "PMIx get of %s from rank %d failed: %s", key,
                             r, PMIx_Error_string(rc));
        if (got->type != PMIX_BYTE_OBJECT || got->data.bo.size != len) {
            size_t got_len = got->type == PMIX_BYTE_OBJECT ? got->data.bo.size : 0;
            PMIX_VALUE_RELEASE(got);
            return VSYM_FAIL(VSYM_ERR_MISMATCH,
                             "allgather %s: rank %d contributed %zu bytes, expected %zu", tag, r,
                             got_len, len);
        }
        memcpy((char *)out + (size_t)i * len, got->data.bo.bytes, len);
        PMIX_VALUE_RELEASE(got);
    }
    return VSYM_OK;
}

vsym_status_t vsym_boot_barrier(vsym_boot_t *boot)
{
    if (boot->singleton)
        return VSYM_OK;
    return fence(boot, NULL, 0, 0);
}
