/* Stop 50: process_vm_readv (a process-to-process copy) from a parent's buffer into a child's,
 * in 256 KiB pieces and whole, against memcpy in the child, 64 KiB-64 MiB, best of the runs.
 * Build and run: gcc -O2 -o /tmp/cma cma_speed.c && /tmp/cma */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(void){
  size_t max=64<<20; char *src=aligned_alloc(4096,max); memset(src,1,max);
  pid_t pp=getpid(); int pfd[2]; pipe(pfd);
  pid_t c=fork();
  if(c==0){ char *dst=aligned_alloc(4096,max); memset(dst,0,max);
    for(size_t s=64<<10;s<=max;s*=4){ for(size_t ch=s<(256<<10)?s:(256<<10); ; ch = ch==s? 0 : s){
      int it= s<=(1<<20)?200:20; double best=1e9,tot=0;
      for(int i=0;i<it+3;i++){ double t0=now();
        for(size_t o=0;o<s;o+=ch){ struct iovec l={dst+o,ch},r={src+o,ch}; if(process_vm_readv(pp,&l,1,&r,1,0)!=(ssize_t)ch){perror("rv");return 1;} }
        double t=now()-t0; if(i>=3){tot+=t; if(t<best)best=t;} }
      double t2=1e9; for(int i=0;i<it;i++){double t0=now(); memcpy(dst,src,s); double t=now()-t0; if(t<t2)t2=t;}
      printf("size %8zu chunk %8zu cma best %.1f us avg %.1f us (%.1f GB/s)  memcpy best %.1f us\n",s,ch,best*1e6,tot/it*1e6,s/best/1e9,t2*1e6);
      if(ch==s||ch==0) break; } }
    return 0; }
  waitpid(c,0,0); return 0; }
