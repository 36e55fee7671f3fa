#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
/* Stop 43: what two barriers of 4 processes on the 2 CPUs cost, against the work between them.
 * 4 processes: loop { work(X) ; barrier ; work(X) ; barrier }, the barrier on phase counters as
 * the library's (16 polls, then sched_yield). argv: X (us of work), pin map ("0011": ranks 0 and 1
 * on CPU 0; "-": none), mode (0: yield after 16 polls; 1: yield only while waiting for a rank last
 * seen on this CPU, else poll up to LIM polls), LIM (4000).
 *   gcc -O2 -o barrier_model barrier_model.c && ./barrier_model 10 0011 0 */
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);}
static void work(double us){double t=now(); while(now()-t<us);}
int main(int argc,char**argv){int N=4000,P=4; double X=atof(argv[1]); const char*map=argc>2?argv[2]:"-"; int mode=argc>3?atoi(argv[3]):0; int lim=argc>4?atoi(argv[4]):4000;
 volatile uint64_t *w=mmap(0,4096*2,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_ANONYMOUS,-1,0);
 int me=0; for(int i=1;i<P;i++){ if(fork()==0){me=i;break;} }
 if(map[0]!='-') pin(map[me]-'0');
 uint64_t ph=0; long yields=0; double busy=0;
 double t0=now();
 for(int i=0;i<N;i++){ for(int k=0;k<2;k++){ double tb=now(); work(X); busy+=now()-tb; ph++; int cpu=sched_getcpu(); w[me*16+1]=cpu; w[me*16]=ph;
   for(int r=0;r<P;r++){ int s=0; while(w[r*16]<ph){ int same = !mode || (int)w[r*16+1]==cpu || s > lim; if(++s>16 && same){sched_yield();yields++; cpu=sched_getcpu(); w[me*16+1]=cpu;} else __builtin_ia32_pause(); } } } }
 double t1=now();
 if(me){ exit(0);} while(wait(0)>0);
 printf("X %.0f map %s: %.2f us per iteration (2 phases; ideal 4X = %.0f), yields/iter %.2f (rank 0)\n",X,map,(t1-t0)/N,4*X,(double)yields/N); return 0;}
