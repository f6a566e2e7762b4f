/* offsets family: calls that read and advance a loff_t * (sendfile,
 * copy_file_range, splice), with and without an offset, failing and
 * copying nothing. Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[4096];
	int in, out, p[2];
	off_t o = 0;
	loff_t oi = 17, oo = 100, end;

	if (argc < 2)
		return 2;
	snprintf(path, sizeof(path), "%s/in", argv[1]);
	in = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	snprintf(path, sizeof(path), "%s/out", argv[1]);
	out = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (in < 0 || out < 0 || pipe(p) != 0)
		return 3;
	if (write(in, "0123456789abcdefghijklmnopqrstuvwxyz", 36) != 36)
		return 4;
	unlink(path);
	snprintf(path, sizeof(path), "%s/in", argv[1]);
	unlink(path);

	syscall(SYS_getppid); /* start marker */

	sendfile(out, in, &o, 17);    /* [0] => [17] */
	sendfile(out, in, &o, 0);     /* nothing copied: no => */
	end = 36;
	o = end;
	sendfile(out, in, &o, 5);     /* at the end of the file: 0 */
	sendfile(out, in, NULL, 4);   /* no offset */
	sendfile(-1, in, &o, 4);      /* EBADF */
	copy_file_range(in, &oi, out, &oo, 10, 0);
	copy_file_range(in, NULL, out, NULL, 3, 0);
	copy_file_range(in, &oi, out, &oo, 0, 0);
	copy_file_range(in, &oi, -1, &oo, 10, 0); /* EBADF */
	oi = 2;
	splice(in, &oi, p[1], NULL, 5, 0);
	splice(p[0], NULL, out, &oo, 5, SPLICE_F_MOVE);
	splice(in, &oi, p[1], NULL, 0, 0);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
