/* misc family: select/pselect6 with fd sets and timeouts, openat2, io_uring_setup,
 * prctl options, and terminal ioctls on a pseudo-terminal. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <linux/io_uring.h>
#include <string.h>
int main(void){
 syscall(SYS_getppid); /* start marker */
 int p[2]; pipe(p);
 fd_set r, w; FD_ZERO(&r); FD_ZERO(&w); FD_SET(p[0], &r); FD_SET(p[1], &w);
 struct timeval tv = {0, 1000};
 select(p[1]+1, &r, &w, NULL, &tv);
 FD_ZERO(&r); FD_SET(p[0], &r); tv.tv_usec = 1000;
 select(p[0]+1, &r, NULL, NULL, &tv);
 struct timespec ts = {0, 1000}; FD_ZERO(&r); FD_SET(p[0], &r);
 pselect(p[0]+1, &r, NULL, NULL, &ts, NULL);
 struct open_how how; memset(&how,0,sizeof how); how.flags = O_RDONLY|O_CLOEXEC; how.resolve = RESOLVE_NO_SYMLINKS;
 int fd = syscall(SYS_openat2, AT_FDCWD, "/etc/hostname", &how, sizeof how); close(fd);
 struct io_uring_params pr; memset(&pr,0,sizeof pr);
 fd = syscall(SYS_io_uring_setup, 4, &pr); close(fd);
 prctl(PR_CAPBSET_READ, 32); prctl(PR_CAPBSET_READ, 48); prctl(PR_SET_NAME, "genba-test"); char nm[16]; prctl(PR_GET_NAME, nm); prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); prctl(PR_GET_DUMPABLE); prctl(PR_SET_PDEATHSIG, 9);
 int m = posix_openpt(O_RDWR|O_NOCTTY); grantpt(m); unlockpt(m); int s = open(ptsname(m), O_RDWR|O_NOCTTY);
 struct winsize ws; ioctl(s, TIOCGWINSZ, &ws); struct termios t; ioctl(s, TCGETS, &t); int n; ioctl(m, FIONREAD, &n); ioctl(s, TIOCSWINSZ, &ws);
 syscall(SYS_getppid); /* end marker */
 return 0;}
