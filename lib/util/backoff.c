/* Waiting without starving the rank being waited for. */
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include "util/util.h"

static int ranks_per_node = 1;

int vsym_util_spin_pause = 1;

/* 1 on a CPU emulated by qemu's TCG: its hypervisor CPUID leaf says "TCGTCGTCGTCG", or (CPU
 * models that hide the leaf) /proc/cpuinfo's model name has "TCG". There a pause leaves the
 * translated code for qemu's main loop and its lock, which the other vCPUs need to take
 * interrupts (the Soft-RoCE VM's kernel work waits behind it). */
int vsym_util_emulated_cpu(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 31))) {
        char vendor[13];
        __cpuid(0x40000000, a, b, c, d);
        memcpy(vendor, &b, 4);
        memcpy(vendor + 4, &c, 4);
        memcpy(vendor + 8, &d, 4);
        vendor[12] = '\0';
        if (strcmp(vendor, "TCGTCGTCGTCG") == 0)
            return 1;
    }
#endif
    char model[128];
    vsym_util_cpu_model(model, sizeof(model));
    return strstr(model, "TCG") != NULL;
}

void vsym_util_wait_policy_init(int ranks)
{
    const char *pause = vsym_config_str(VSYM_CFG_SPIN_PAUSE);

    ranks_per_node = ranks > 0 ? ranks : 1;
    vsym_util_spin_pause = strcmp(pause, "on") == 0    ? 1
                           : strcmp(pause, "off") == 0 ? 0
                                                       : !vsym_util_emulated_cpu();
}

uint64_t vsym_util_timeout_ns(double timeout_s)
{
    if (timeout_s <= 0)
        timeout_s = vsym_config_double(VSYM_CFG_TIMEOUT);
    if (timeout_s <= 0)
        timeout_s = 60;
    return (uint64_t)(timeout_s * 1e9);
}

static int core_per_rank_forced = -1; /* vsym_util_core_per_rank_force */

void vsym_util_core_per_rank_force(int yes)
{
    __atomic_store_n(&core_per_rank_forced, yes < 0 ? -1 : !!yes, __ATOMIC_RELAXED);
}

int vsym_util_core_per_rank(void)
{
    int forced = __atomic_load_n(&core_per_rank_forced, __ATOMIC_RELAXED);
    if (forced >= 0) return forced;
    /* sysconf(_SC_NPROCESSORS_ONLN) reads sysfs (about 5 us): once per process, not per wait. */
    static long cores_cached;
    long cores = __atomic_load_n(&cores_cached, __ATOMIC_RELAXED);
    if (cores == 0) {
        cores = sysconf(_SC_NPROCESSORS_ONLN);
        __atomic_store_n(&cores_cached, cores, __ATOMIC_RELAXED);
    }
    return cores > 0 && ranks_per_node <= cores;
}

void vsym_backoff_init(vsym_backoff_t *b, double timeout_s)
{
    long spin = vsym_config_int(VSYM_CFG_SPIN_COUNT);
    /* The clock starts at the first check (after up to 1024 polls), not here: a wait that is
     * satisfied at once reads no clock (under an emulated CPU a clock read costs microseconds). */
    b->start_ns = 0;
    b->deadline_ns = vsym_util_timeout_ns(timeout_s);
    b->polls = 0;
    if (spin < 0) {
        /* With a core per rank the peer is running: spinning is cheapest. With more ranks than
         * cores, every poll may steal the core of the rank we wait for, so yield at once. */
        spin = vsym_util_core_per_rank() ? 20000 : 16;
    }
    b->spin_limit = (uint32_t)spin;
    b->yield_limit = b->spin_limit + 2000;
    b->sleep_ns = 1000;
}

void vsym_backoff_init_device(vsym_backoff_t *b, double timeout_s)
{
    vsym_backoff_init(b, timeout_s);
    if (vsym_config_int(VSYM_CFG_SPIN_COUNT) < 0 && vsym_util_core_per_rank()) {
        /* No yield before the deadline: the clock is still read every 1024 polls. */
        b->spin_limit = UINT32_MAX - 4096;
        b->yield_limit = UINT32_MAX - 2048;
    }
}

int vsym_backoff_step(vsym_backoff_t *b)
{
    b->polls++;
    if (b->polls < b->spin_limit) {
        vsym_util_spin_hint();
        if ((b->polls & 1023) != 0)
            return 1;
    } else if (b->polls < b->yield_limit) {
        sched_yield();
    } else {
        struct timespec ts = {0, (long)b->sleep_ns};
        nanosleep(&ts, NULL);
        if (b->sleep_ns < 1000000)
            b->sleep_ns *= 2;
    }
    uint64_t now = vsym_util_time_ns();
    if (b->start_ns == 0) {
        b->start_ns = now;
        b->deadline_ns += now; /* it held the timeout until now */
    }
    return now < b->deadline_ns;
}

double vsym_backoff_elapsed(const vsym_backoff_t *b)
{
    return b->start_ns == 0 ? 0 : (double)(vsym_util_time_ns() - b->start_ns) / 1e9;
}
