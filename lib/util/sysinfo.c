/* Facts of the machine a rank runs on: CPU, NUMA (libnuma), frequency (libcpufreq). */
#define _GNU_SOURCE
#include <cpufreq.h>
#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "util/util.h"
#include "vsym_build_info.h"

void vsym_util_cpu_model(char *buf, size_t len)
{
    char line[256];
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(buf, len, "unknown");
    if (f == NULL)
        return;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon += 2;
                colon[strcspn(colon, "\n")] = '\0';
                snprintf(buf, len, "%s", colon);
            }
            break;
        }
    }
    fclose(f);
}

int vsym_util_cpu_amd(void)
{
#if defined(__x86_64__)
    return __builtin_cpu_is("amd") != 0;
#else
    return 0;
#endif
}

/* Format a CPU set as "0-3,8" into buf. */
static void format_cpus(const cpu_set_t *set, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE && used < len; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", c);
        if (e > c && used < len)
            used += (size_t)snprintf(buf + used, len - used, "-%d", e);
        c = e;
    }
}

VSYM_API vsym_status_t vsym_sysinfo_get(vsym_sysinfo_t *info_p)
{
    vsym_sysinfo_t si;
    cpu_set_t set;
    struct utsname un;
    int first_cpu = -1;

    memset(&si, 0, sizeof(si));
    if (info_p == NULL)
        return vsym_util_fail_quiet(VSYM_ERR_INVALID_PARAM, "sysinfo: NULL output");
    if (gethostname(si.host, sizeof(si.host) - 1) != 0)
        snprintf(si.host, sizeof(si.host), "unknown");
    vsym_util_cpu_model(si.cpu_model, sizeof(si.cpu_model));
    si.cores_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
    snprintf(si.kernel, sizeof(si.kernel), "unknown");
    if (uname(&un) == 0 && strlen(un.release) < sizeof(si.kernel))
        memcpy(si.kernel, un.release, strlen(un.release) + 1);
    snprintf(si.clock, sizeof(si.clock), "CLOCK_MONOTONIC_RAW");

    CPU_ZERO(&set);
    snprintf(si.cpus_allowed, sizeof(si.cpus_allowed), "unknown");
    si.numa_nodes = 1;
    si.numa_node = 0;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        format_cpus(&set, si.cpus_allowed, sizeof(si.cpus_allowed));
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set)) {
                first_cpu = c;
                break;
            }
    }
    if (numa_available() >= 0) {
        si.numa_nodes = numa_num_configured_nodes();
        si.numa_node = -2;
        for (int c = 0; c < CPU_SETSIZE; c++) {
            if (!CPU_ISSET(c, &set))
                continue;
            int node = numa_node_of_cpu(c);
            if (si.numa_node == -2)
                si.numa_node = node;
            else if (si.numa_node != node)
                si.numa_node = -1;
        }
        if (si.numa_node == -2)
            si.numa_node = -1;
    }

    snprintf(si.governor, sizeof(si.governor), "unknown");
    if (first_cpu >= 0) {
        struct cpufreq_policy *pol = cpufreq_get_policy((unsigned int)first_cpu);
        if (pol != NULL) {
            if (pol->governor)
                snprintf(si.governor, sizeof(si.governor), "%s", pol->governor);
            cpufreq_put_policy(pol);
        }
        si.freq_cur_khz = (long)cpufreq_get_freq_kernel((unsigned int)first_cpu);
        unsigned long min_khz = 0, max_khz = 0;
        if (cpufreq_get_hardware_limits((unsigned int)first_cpu, &min_khz, &max_khz) == 0)
            si.freq_max_khz = (long)max_khz;
    }
    *info_p = si;
    return VSYM_OK;
}

VSYM_API const char *vsym_version(void)
{
    return VSYM_VERSION_STRING;
}

VSYM_API const char *vsym_build_commit(void)
{
    return VSYM_GIT_COMMIT;
}
