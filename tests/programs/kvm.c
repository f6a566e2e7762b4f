/* A virtual machine with one vcpu running a few instructions: `out` to port
 * 0x3f8 (KVM_EXIT_IO) N times, then `hlt` (KVM_EXIT_HLT). Prints what it
 * saw, so a test can hold a trace against it:
 *   kvm=VMFD vcpu=VCPUFD
 *   cpuid=N eax0=X       (KVM_GET_SUPPORTED_CPUID's count and first eax, given
 *                         back by KVM_SET_CPUID2; cpuid=E2BIG: more than 100)
 *   fd=FD <NAME>         (each descriptor it made, as /proc names it: the
 *                         VM, the vcpu, their statistics, a VFIO device)
 *   exit=REASON          (each KVM_RUN's exit reason, in order)
 * Then closes every descriptor and exits at once: a tracer that asked /proc
 * or the vcpu's kvm_run when it printed would find nothing there.
 * Usage: kvm [N]  (default 3). Exit status 77: no usable /dev/kvm. */
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

/* the descriptors made, closed at the end */
static int made[8], nmade;

static void named(int fd)
{
	char link[64], name[256];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, name, sizeof(name) - 1);
	name[n > 0 ? n : 0] = 0;
	printf("fd=%d <%s>\n", fd, name);
	made[nmade++] = fd;
}

static void need(int ok, const char *what)
{
	if (!ok) {
		perror(what);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	int outs = argc > 1 ? atoi(argv[1]) : 3;
	long page = sysconf(_SC_PAGESIZE);
	int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (kvm < 0 || ioctl(kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION) {
		perror("/dev/kvm");
		return 77;
	}
	int vm = ioctl(kvm, KVM_CREATE_VM, 0);
	need(vm >= 0, "KVM_CREATE_VM");

	/* guest code at 0x1000: outs x (out %al,(%dx)), then hlt */
	unsigned char *mem = mmap(NULL, page, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	need(mem != MAP_FAILED, "mmap");
	unsigned char *p = mem;
	*p++ = 0xba; /* mov $0x3f8, %dx */
	*p++ = 0xf8;
	*p++ = 0x03;
	for (int i = 0; i < outs; i++)
		*p++ = 0xee; /* out %al, (%dx) */
	*p++ = 0xf4; /* hlt */
	struct kvm_userspace_memory_region region = {
		.slot = 0,
		.guest_phys_addr = 0x1000,
		.memory_size = page,
		.userspace_addr = (unsigned long)mem,
	};
	need(ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) == 0,
	     "KVM_SET_USER_MEMORY_REGION");

	int vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	need(vcpu >= 0, "KVM_CREATE_VCPU");
	int size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	need(size > 0, "KVM_GET_VCPU_MMAP_SIZE");
	struct kvm_run *run = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	need(run != MAP_FAILED, "mmap vcpu");
	printf("kvm=%d vcpu=%d\n", vm, vcpu);
	named(vm);
	named(vcpu);

	/* the CPUID entries KVM supports, given to the vcpu as they are */
	enum { MAX_ENTRIES = 100 };
	struct kvm_cpuid2 *cpuid = calloc(1, sizeof(*cpuid) +
					  MAX_ENTRIES * sizeof(cpuid->entries[0]));
	need(cpuid != NULL, "calloc");
	cpuid->nent = MAX_ENTRIES;
	if (ioctl(kvm, KVM_GET_SUPPORTED_CPUID, cpuid) == 0) {
		printf("cpuid=%u eax0=%#x\n", cpuid->nent, cpuid->entries[0].eax);
		need(ioctl(vcpu, KVM_SET_CPUID2, cpuid) == 0, "KVM_SET_CPUID2");
	} else {
		need(errno == E2BIG, "KVM_GET_SUPPORTED_CPUID");
		printf("cpuid=E2BIG\n");
	}

	/* the statistics descriptors of the VM and of the vcpu */
#ifdef KVM_GET_STATS_FD
	for (int i = 0; i < 2; i++) {
		int stats = ioctl(i ? vcpu : vm, KVM_GET_STATS_FD, 0);
		if (stats >= 0)
			named(stats);
	}
#endif
	/* a VFIO device (where the kernel has it) */
	struct kvm_create_device dev = { .type = KVM_DEV_TYPE_VFIO };
	if (ioctl(vm, KVM_CREATE_DEVICE, &dev) == 0)
		named(dev.fd);

	struct kvm_sregs sregs;
	need(ioctl(vcpu, KVM_GET_SREGS, &sregs) == 0, "KVM_GET_SREGS");
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	need(ioctl(vcpu, KVM_SET_SREGS, &sregs) == 0, "KVM_SET_SREGS");
	struct kvm_regs regs = { .rip = 0x1000, .rax = 'x', .rflags = 0x2 };
	need(ioctl(vcpu, KVM_SET_REGS, &regs) == 0, "KVM_SET_REGS");

	for (;;) {
		need(ioctl(vcpu, KVM_RUN, 0) == 0, "KVM_RUN");
		unsigned reason = run->exit_reason;
		printf("exit=%u\n", reason);
		if (reason != KVM_EXIT_IO)
			break;
	}
	fflush(stdout);
	/* gone before any tracer prints: the names must come from the calls */
	munmap(run, size);
	for (int i = nmade - 1; i >= 0; i--)
		close(made[i]);
	close(kvm);
	_exit(0);
}
