/* memory family: anonymous and file mappings, mprotect, madvise, mremap,
 * munmap, brk. Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	char *a, *b, *f;
	void *cur;
	int fd;

	syscall(SYS_getppid); /* start marker */

	a = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		return 2;
	a[0] = 1;
	mprotect(a + 4096, 4096, PROT_READ);
	mprotect(a + 1, 4096, PROT_READ); /* EINVAL: unaligned */
	madvise(a, 4 * 4096, MADV_DONTNEED);
	madvise(a, 4096, MADV_WILLNEED);
	mprotect(a + 4096, 4096, PROT_READ | PROT_WRITE); /* merge the VMAs again */
	b = mremap(a, 4 * 4096, 8 * 4096, MREMAP_MAYMOVE);
	if (b == MAP_FAILED)
		return 3;
	munmap(b, 8 * 4096);
	syscall(SYS_mmap, 0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 1); /* EINVAL */

	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	f = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (f == MAP_FAILED || f[0] != 0x7f)
		return 4;
	munmap(f, 4096);
	close(fd);
	mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0); /* EBADF */

	cur = (void *)syscall(SYS_brk, 0);
	syscall(SYS_brk, (uintptr_t)cur + 8192);
	syscall(SYS_brk, cur);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
