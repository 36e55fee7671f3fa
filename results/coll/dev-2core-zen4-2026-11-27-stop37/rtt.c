#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>
static volatile uint64_t w __attribute__((aligned(64)));
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);pthread_setaffinity_np(pthread_self(),sizeof s,&s);}
static void *peer(void *a){(void)a;pin(1);for(uint64_t i=1;i<200000;i+=2){while(w!=i);w=i+1;}return 0;}
int main(){pthread_t t;pin(0);pthread_create(&t,0,peer,0);struct timespec a,b;
for(uint64_t i=1;i<20000;i+=2){w=i;while(w!=i+1);}
clock_gettime(CLOCK_MONOTONIC,&a);for(uint64_t i=20001;i<200000;i+=2){w=i;while(w!=i+1);}clock_gettime(CLOCK_MONOTONIC,&b);
pthread_join(t,0);printf("%.0f\n",((b.tv_sec-a.tv_sec)*1e9+(b.tv_nsec-a.tv_nsec))/90000.0);}
