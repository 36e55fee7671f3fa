/* vsym info: the settings (every VSYM_* environment variable, declared once) and the facts of
 * the machine a rank runs on. These functions need no context and are thread safe. */
#ifndef VSYM_INFO_H
#define VSYM_INFO_H

#include <stddef.h>
#include <vsym/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vsym_setting {
    const char *name;     /* "VSYM_HEAP_SIZE" */
    const char *type;     /* "size", "int", "double", "string", "enum" */
    const char *def;      /* default value, as text */
    const char *help;     /* one sentence */
    const char *value;    /* the value in force, as text (the environment's, else the default) */
    int from_env;         /* 1 when the environment sets it */
} vsym_setting_t;

/* The number of settings; vsym_setting(i) for i in [0, count) fills *setting_p. */
VSYM_API int vsym_setting_count(void);
VSYM_API vsym_status_t vsym_setting(int i, vsym_setting_t *setting_p);

/* Check every VSYM_* variable of the environment: an unknown name or a malformed value is
 * VSYM_ERR_INVALID_PARAM with a detail naming it. vsym_init() calls this. */
VSYM_API vsym_status_t vsym_settings_check(void);

/* Facts of this machine and this process. Text fields are "unknown" when not available. */
typedef struct vsym_sysinfo {
    char host[64];
    char cpu_model[128];
    int cores_online;
    int numa_nodes;      /* configured NUMA nodes (libnuma), 1 without NUMA */
    int numa_node;       /* NUMA node of the CPUs this process may run on; -1 when they span several */
    char cpus_allowed[64]; /* the CPU list this process may run on, e.g. "0-1" */
    char governor[32];   /* cpufreq governor of the first allowed CPU (libcpufreq), or "unknown" */
    long freq_cur_khz;   /* current frequency, 0 when unknown */
    long freq_max_khz;   /* maximum frequency, 0 when unknown */
    char kernel[64];
    char clock[32];      /* the clock every timing uses: "CLOCK_MONOTONIC_RAW" */
    size_t nt_threshold; /* bytes from which shared-memory copies use non-temporal stores:
                            VSYM_NT_THRESHOLD in force, auto resolved from the last-level cache
                            of this CPU; 0: never (as on CPUs other than x86-64) */
    size_t nt_single_threshold; /* the same for a single copy (a put or a get): under
                                   VSYM_NT_THRESHOLD auto 48 MiB at most */
} vsym_sysinfo_t;

VSYM_API vsym_status_t vsym_sysinfo_get(vsym_sysinfo_t *info_p);

/* The library version ("0.1.0") and the commit it was built from. */
VSYM_API const char *vsym_version(void);
VSYM_API const char *vsym_build_commit(void);

#ifdef __cplusplus
}
#endif
#endif
