/* Stop 42: a bare barrier of N processes (fork, shared page, one flag each; a waiter pauses 16
 * polls, then yields): what a barrier costs on this machine where ranks share cores.
 *   gcc -O2 -o ybar ybar.c && ./ybar 4 20000 0   (N, barriers, 1: pin to CPUs 0 and 1) */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>
static uint64_t now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000ull+t.tv_nsec;}
int main(int argc,char**argv){
  int n=argc>1?atoi(argv[1]):4, iters=argc>2?atoi(argv[2]):20000, pin=argc>3?atoi(argv[3]):0;
  volatile uint64_t *f=mmap(0,4096*8,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_ANONYMOUS,-1,0);
  for(int r=0;r<n;r++) if(fork()==0){
    if(pin){cpu_set_t s;CPU_ZERO(&s);CPU_SET(r%2,&s);sched_setaffinity(0,sizeof s,&s);}
    uint64_t t0=0;
    for(uint64_t it=1;it<=(uint64_t)iters+100;it++){
      if(it==101) t0=now();
      __atomic_store_n(&f[r*64],it,__ATOMIC_RELEASE);
      for(int p=0;p<n;p++){int k=0; while(__atomic_load_n(&f[p*64],__ATOMIC_ACQUIRE)<it){ if(++k>16) sched_yield(); else __builtin_ia32_pause();}}
    }
    if(r==0) printf("n %d pin %d: %.2f us per barrier\n",n,pin,(now()-t0)/1e3/iters); fflush(stdout);
    _exit(0);}
  while(wait(0)>0);
  return 0;}
