/* Cache-line round trips between two cores (see rtt.h). */
#define _GNU_SOURCE
#include "rtt.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Wait until *w reaches want (spinning: both sides have a core); 0 after 1 s without it. */
static int rtt_wait(const volatile uint64_t *w, uint64_t want)
{
    uint64_t t0 = now_ns();
    for (unsigned k = 0; __atomic_load_n(w, __ATOMIC_ACQUIRE) < want; k++)
        if ((k & 1023) == 1023 && now_ns() - t0 > 1000000000ull) return 0;
    return 1;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

double vsym_rtt_side(volatile uint64_t *w, uint64_t base, int side)
{
    uint64_t t[VSYM_RTT_TIMED];
    for (uint64_t i = 0; i < VSYM_RTT_WARM + VSYM_RTT_TIMED; i++) {
        uint64_t odd = base + 2 * i + 1;
        if (side == 0) {
            const uint64_t t0 = now_ns();
            __atomic_store_n(w, odd, __ATOMIC_RELEASE);
            if (!rtt_wait(w, odd + 1)) return -1;
            if (i >= VSYM_RTT_WARM) t[i - VSYM_RTT_WARM] = now_ns() - t0;
        } else {
            if (!rtt_wait(w, odd)) return -1;
            __atomic_store_n(w, odd + 1, __ATOMIC_RELEASE);
        }
    }
    if (side != 0) return 0;
    qsort(t, VSYM_RTT_TIMED, sizeof(t[0]), cmp_u64);
    return (double)t[VSYM_RTT_TIMED / 2];
}

typedef struct {
    volatile uint64_t *w;
    int cpu, side;
    double ns;
} rtt_thread_t;

static void *rtt_thread(void *p)
{
    rtt_thread_t *a = p;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(a->cpu, &set);
    a->ns = pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0
                ? vsym_rtt_side(a->w, 0, a->side)
                : -1;
    if (a->ns < 0 && a->side == 0) __atomic_store_n(a->w, UINT64_MAX, __ATOMIC_RELEASE);
    return NULL;
}

double vsym_rtt_threads(void)
{
    cpu_set_t set;
    int cpus[2], k = 0;
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
    for (int c = 0; c < CPU_SETSIZE && k < 2; c++)
        if (CPU_ISSET(c, &set)) cpus[k++] = c;
    /* A rank bound to one core (vsym-run binds ranks that outnumber the cores to one each):
     * the machine's first two CPUs, which the threads pin themselves to. */
    if (k < 2 && sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
        cpus[0] = 0;
        cpus[1] = 1;
        k = 2;
    }
    if (k < 2) return -1;
    _Alignas(64) static volatile uint64_t word;
    word = 0;
    rtt_thread_t a[2] = {{&word, cpus[0], 0, -1}, {&word, cpus[1], 1, -1}};
    pthread_t t[2];
    if (pthread_create(&t[1], NULL, rtt_thread, &a[1]) != 0) return -1;
    if (pthread_create(&t[0], NULL, rtt_thread, &a[0]) != 0) {
        word = UINT64_MAX; /* releases side 1 */
        pthread_join(t[1], NULL);
        return -1;
    }
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    return a[1].ns < 0 ? -1 : a[0].ns;
}
