/* Stop 42: ybar.c's barrier with waiters asleep on a futex (one counter; the last to arrive
 * bumps a generation word and wakes the others).
 *   gcc -O2 -o fbar fbar.c && ./fbar 4 20000 16   (N, barriers, polls before sleeping) */
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
/* central counter barrier: arrive = fetch_add; last one bumps gen and futex-wakes */
int main(int argc,char**argv){
  int n=argc>1?atoi(argv[1]):4, iters=argc>2?atoi(argv[2]):20000, spin=argc>3?atoi(argv[3]):16;
  volatile uint32_t *m=mmap(0,4096,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_ANONYMOUS,-1,0);
  volatile uint32_t *cnt=&m[0], *gen=&m[16];
  for(int r=0;r<n;r++) if(fork()==0){
    uint64_t t0=0;
    for(int it=1;it<=iters+100;it++){
      if(it==101) t0=now();
      uint32_t g=__atomic_load_n(gen,__ATOMIC_ACQUIRE);
      if(__atomic_add_fetch(cnt,1,__ATOMIC_ACQ_REL)==(uint32_t)n){
        __atomic_store_n(cnt,0,__ATOMIC_RELAXED);
        __atomic_store_n(gen,g+1,__ATOMIC_RELEASE);
        syscall(SYS_futex,gen,FUTEX_WAKE,n,0,0,0);
      } else {
        int k=0;
        while(__atomic_load_n(gen,__ATOMIC_ACQUIRE)==g){
          if(++k<spin) __builtin_ia32_pause();
          else syscall(SYS_futex,gen,FUTEX_WAIT,g,0,0,0);
        }
      }
    }
    if(r==0){printf("futex n %d spin %d: %.2f us per barrier\n",n,spin,(now()-t0)/1e3/iters);fflush(stdout);}
    _exit(0);}
  while(wait(0)>0);
  return 0;}
