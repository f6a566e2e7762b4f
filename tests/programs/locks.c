/* locks family: fcntl's struct flock commands (F_SETLK, F_SETLKW, F_GETLK
 * and the open-file-description F_OFD_*), including a conflict seen by
 * F_OFD_GETLK (l_pid is -1 for OFD locks) and failures; F_SETOWN_EX and
 * F_GETOWN_EX's struct f_owner_ex; leases, the I/O signal, directory
 * notification and seals. Work is bracketed by syscall(SYS_getppid)
 * markers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[4096];
	int a, b, r, dir, m;
	struct flock fl;
	struct f_owner_ex ow = { F_OWNER_TID, 0 };

	if (argc < 2)
		return 2;
	snprintf(path, sizeof(path), "%s/locked", argv[1]);
	a = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	b = open(path, O_RDWR);
	r = open(path, O_RDONLY);
	dir = open(argv[1], O_RDONLY | O_DIRECTORY);
	m = memfd_create("sealed", MFD_ALLOW_SEALING);
	if (a < 0 || b < 0 || r < 0 || dir < 0 || m < 0)
		return 3;
	unlink(path);

	syscall(SYS_getppid); /* start marker */

	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fcntl(a, F_SETLK, &fl);
	fl.l_type = F_RDLCK;
	fl.l_whence = SEEK_CUR;
	fl.l_start = 10;
	fl.l_len = 5;
	fcntl(a, F_SETLKW, &fl);
	fl.l_type = F_WRLCK;
	fcntl(a, F_GETLK, &fl); /* own lock: no conflict, F_UNLCK */
	fl.l_type = F_UNLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = 0;
	fl.l_len = 0;
	fcntl(a, F_SETLK, &fl);
	fl.l_whence = 7;
	fcntl(a, F_SETLK, &fl); /* EINVAL */
	fcntl(a, F_GETLK, (void *)8); /* EFAULT */

	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_len = 100;
	fcntl(a, F_OFD_SETLK, &fl);
	fl.l_type = F_RDLCK;
	fl.l_start = 50;
	fl.l_len = 0;
	fcntl(b, F_OFD_GETLK, &fl); /* conflicts with a's lock: l_pid -1 */
	fcntl(b, F_OFD_SETLK, &fl); /* EINVAL: l_pid is not 0 */
	fl.l_type = F_UNLCK;
	fl.l_start = 0;
	fcntl(a, F_OFD_SETLKW, &fl); /* EINVAL too */

	fcntl(a, F_SETOWN_EX, &ow);
	memset(&ow, 0x55, sizeof(ow));
	fcntl(a, F_GETOWN_EX, &ow);
	ow.type = 9;
	ow.pid = 0;
	fcntl(a, F_SETOWN_EX, &ow); /* EINVAL */
	fcntl(a, F_GETOWN_EX, NULL); /* EFAULT */

	fcntl(a, F_SETSIG, SIGUSR1);
	fcntl(a, F_GETSIG);
	fcntl(a, F_SETSIG, 0);
	fcntl(a, F_GETSIG);
	fcntl(r, F_SETLEASE, F_RDLCK); /* EAGAIN: open for writing */
	close(b);
	close(a);
	fcntl(r, F_SETLEASE, F_RDLCK);
	fcntl(r, F_GETLEASE);
	fcntl(r, F_SETLEASE, F_UNLCK);
	fcntl(r, F_GETLEASE);
	fcntl(dir, F_NOTIFY, DN_MODIFY | DN_CREATE | DN_MULTISHOT);
	fcntl(dir, F_NOTIFY, 0);
	fcntl(m, F_GET_SEALS);
	fcntl(m, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
	fcntl(m, F_GET_SEALS);
	close(m);
	close(dir);
	close(r);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
