/* Facts of the machine a rank runs on: CPU, NUMA (libnuma), frequency (libcpufreq). */
#define _GNU_SOURCE
#include <cpufreq.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <numa.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
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

static int cpu_amd_forced = -1; /* vsym_util_cpu_amd_force */

void vsym_util_cpu_amd_force(int yes)
{
    __atomic_store_n(&cpu_amd_forced, yes < 0 ? -1 : !!yes, __ATOMIC_RELAXED);
}

int vsym_util_cpu_amd(void)
{
    const int forced = __atomic_load_n(&cpu_amd_forced, __ATOMIC_RELAXED);
    if (forced >= 0) return forced;
#if defined(__x86_64__)
    return __builtin_cpu_is("amd") != 0;
#else
    return 0;
#endif
}

static int cpu_family_forced = -1; /* vsym_util_cpu_family_force */

void vsym_util_cpu_family_force(int family)
{
    __atomic_store_n(&cpu_family_forced, family < 0 ? -1 : family, __ATOMIC_RELAXED);
}

int vsym_util_cpu_family(void)
{
    const int forced = __atomic_load_n(&cpu_family_forced, __ATOMIC_RELAXED);
    if (forced >= 0) return forced;
#if defined(__x86_64__)
    /* cpuid traps to the hypervisor in a guest (microseconds): asked once a process. */
    static int cached = -1;
    int family = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (family < 0) {
        unsigned a, b, c, d;
        family = 0;
        if (__get_cpuid(1, &a, &b, &c, &d)) {
            const unsigned base = (a >> 8) & 0xf, ext = (a >> 20) & 0xff;
            family = (int)(base == 0xf ? base + ext : base);
        }
        __atomic_store_n(&cached, family, __ATOMIC_RELAXED);
    }
    return family;
#else
    return 0;
#endif
}

int vsym_util_amd_streams_near(void)
{
    return vsym_util_cpu_amd() && vsym_util_cpu_family() <= 25;
}

/* ---- A line's round trip between two CPUs, timed by a helper thread ------------------------- */

#define THREAD_RTT_ROUNDS 8
#define THREAD_RTT_WAIT_NS 1000000ull /* the whole probe's limit, each side's */
static uint64_t thread_rtt_forced = UINT64_MAX; /* vsym_util_thread_line_rtt_force */

/* The two words of the ping-pong, a line apart, and the helper's side of it. */
typedef struct {
    _Alignas(64) uint64_t ping; /* round number, stored by the timing thread */
    _Alignas(64) uint64_t pong; /* round << 16 | the helper's CPU, its answer */
    uint64_t deadline;
} thread_rtt_t;

static void *thread_rtt_echo(void *arg)
{
    thread_rtt_t *p = arg;
    for (uint64_t k = 1; k <= THREAD_RTT_ROUNDS; k++) {
        while (__atomic_load_n(&p->ping, __ATOMIC_ACQUIRE) < k) {
            if (vsym_util_time_ns() > p->deadline) return NULL;
            vsym_util_spin_hint();
        }
        __atomic_store_n(&p->pong, k << 16 | (uint16_t)sched_getcpu(), __ATOMIC_RELEASE);
    }
    return NULL;
}

void vsym_util_thread_line_rtt_force(uint64_t limit_ns)
{
    __atomic_store_n(&thread_rtt_forced, limit_ns, __ATOMIC_RELAXED);
}

uint64_t vsym_util_thread_line_rtt(void)
{
    const uint64_t forced = __atomic_load_n(&thread_rtt_forced, __ATOMIC_RELAXED);
    return vsym_util_thread_line_rtt_within(forced == UINT64_MAX ? THREAD_RTT_WAIT_NS : forced);
}

uint64_t vsym_util_thread_line_rtt_within(uint64_t limit_ns)
{
    cpu_set_t allowed, one;
    const int cpu = sched_getcpu();
    if (cpu < 0 || sched_getaffinity(0, sizeof(allowed), &allowed) != 0) return 0;
    int other = -1;
    for (int i = 1; i < CPU_SETSIZE && other < 0; i++)
        if (CPU_ISSET((cpu + i) % CPU_SETSIZE, &allowed)) other = (cpu + i) % CPU_SETSIZE;
    /* A process bound to its one CPU (ranks that outnumber the cores, one each): the next CPU
     * of the machine, which the helper pins itself to. */
    if (other < 0) {
        const long online = sysconf(_SC_NPROCESSORS_ONLN); /* (reads sysfs: only then) */
        if (online >= 2 && cpu < online) other = (int)((cpu + 1) % online);
    }
    if (other < 0) return 0;
    CPU_ZERO(&one);
    CPU_SET(other, &one);
    thread_rtt_t p = {.ping = 0, .pong = 0, .deadline = vsym_util_time_ns() + limit_ns};
    pthread_attr_t attr;
    pthread_t helper;
    sigset_t all, old;
    if (pthread_attr_init(&attr) != 0) return 0;
    int ok = pthread_attr_setaffinity_np(&attr, sizeof(one), &one) == 0 &&
             pthread_attr_setstacksize(&attr, 65536) == 0;
    /* The helper takes no signal meant for the process (it starts with this mask). */
    sigfillset(&all);
    ok = ok && pthread_sigmask(SIG_SETMASK, &all, &old) == 0;
    if (ok) {
        ok = pthread_create(&helper, &attr, thread_rtt_echo, &p) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    pthread_attr_destroy(&attr);
    if (!ok) return 0;
    uint64_t valid[THREAD_RTT_ROUNDS];
    int nv = 0;
    for (uint64_t k = 1; k <= THREAD_RTT_ROUNDS; k++) {
        const uint64_t t0 = vsym_util_time_ns();
        __atomic_store_n(&p.ping, k, __ATOMIC_RELEASE);
        uint64_t pong;
        while ((pong = __atomic_load_n(&p.pong, __ATOMIC_ACQUIRE)) >> 16 < k) {
            if (vsym_util_time_ns() > p.deadline) break;
            vsym_util_spin_hint();
        }
        const uint64_t t = vsym_util_time_ns() - t0;
        /* the helper not scheduled in time (a round that ends past the limit neither) */
        if (pong >> 16 < k || t0 + t > p.deadline) break;
        /* Counts where this thread stayed on its CPU and the helper ran on another. */
        if (sched_getcpu() == cpu && (int)(pong & 0xffff) != cpu && t < VSYM_UTIL_RTT_VALID_NS) {
            /* (kept in order: the median below) */
            int j = nv++;
            for (; j > 0 && valid[j - 1] > t; j--)
                valid[j] = valid[j - 1];
            valid[j] = t;
        }
    }
    pthread_join(helper, NULL);
    return nv == 0 ? 0 : valid[(nv - 1) / 2];
}

int vsym_util_cpu_steal_ticks(uint64_t *steal, uint64_t *total)
{
    unsigned long long v[8];
    FILE *f = fopen("/proc/stat", "r");
    if (f == NULL) return -1;
    const int got = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
                           &v[3], &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    if (got != 8) return -1;
    *total = 0;
    for (int i = 0; i < 8; i++)
        *total += v[i];
    *steal = v[7];
    return 0;
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
#if defined(__x86_64__)
    si.nt_threshold = vsym_util_nt_threshold();
    si.nt_single_threshold = vsym_util_nt_single_threshold();
#endif

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
