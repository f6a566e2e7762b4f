/*
 * ioctls: requests strace names by number whatever the descriptor (here
 * /dev/null, so every call fails with ENOTTY): the DRM core's and the
 * common drivers' (what a GPU program asks its driver for), and requests
 * nobody names, which strace prints field by field as _IOC(...). The
 * argument is an address nothing is mapped at: strace has no decoder for
 * DRM structures and prints it as a number, genba decodes the core's
 * (tests/programs/drm.c) and prints an unreadable one as its address.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	syscall(SYS_getppid); /* start marker */
	int fd = open("/dev/null", O_RDWR);
	static const unsigned long req[] = {
		/* DRM core: VERSION, GET_UNIQUE, GEM_CLOSE, GEM_FLINK, GEM_OPEN,
		 * GET_CAP, SET_CLIENT_CAP, PRIME_HANDLE_TO_FD, PRIME_FD_TO_HANDLE,
		 * SET_MASTER, DROP_MASTER, MODE_GETRESOURCES, MODE_GETCRTC,
		 * MODE_CREATE_DUMB, MODE_MAP_DUMB, MODE_DESTROY_DUMB,
		 * SYNCOBJ_CREATE, SYNCOBJ_DESTROY, SYNCOBJ_WAIT */
		0xc0406400, 0xc0106401, 0x40086409, 0xc008640a, 0xc010640b,
		0xc010640c, 0x4010640d, 0xc00c642d, 0xc00c642e,
		0x641e, 0x641f, 0xc04064a0, 0xc06864a1,
		0xc02064b2, 0xc01064b3, 0xc00464b4,
		0xc00864bf, 0xc00864c0, 0xc02064c3,
		/* i915: GETPARAM, GEM_EXECBUFFER2 (a driver's request whose
		 * code no other driver shares: genba's list of drivers is
		 * libdrm's, strace's the kernel's, which has more) */
		0xc0106446, 0x40406469,
		/* nobody's */
		0x1234, 0x80046440, 0xc00c64bf, 0xdeadbeef, 0x7f00,
	};
	for (unsigned i = 0; i < sizeof(req) / sizeof(req[0]); i++)
		ioctl(fd, req[i], 0x10);
	close(fd);
	syscall(SYS_getppid); /* end marker */
	return 0;
}
