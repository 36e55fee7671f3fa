/* Stop 43: what a switch between two processes on one CPU costs here. Two processes pinned to
 * CPU 0 pass a flag back and forth, each yielding while it waits; argv[1]: a loop of work per
 * round.   gcc -O2 -o ypp ypp.c && ./ypp 0 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);}
int main(int argc,char**argv){int N=20000; int work=argc>1?atoi(argv[1]):0;
 volatile uint64_t *w=mmap(0,4096,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_ANONYMOUS,-1,0);
 long yields[2]={0,0};
 pid_t p=fork(); int me=p==0; pin(0);
 volatile uint64_t *mine=w+me*8,*other=w+(1-me)*8; long y=0;
 double t0=now();
 for(int i=1;i<=N;i++){ volatile double x=0; for(int k=0;k<work;k++) x+=k; *mine=i; while(*other<(uint64_t)i){sched_yield();y++;} }
 double t1=now();
 if(me){ w[32]=y; exit(0);} wait(0);
 printf("work %d: %.2f us per round, yields per round %.2f / %.2f\n",work,(t1-t0)/N,(double)y/N,(double)w[32]/N); return 0;}
