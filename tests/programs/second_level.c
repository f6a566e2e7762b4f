/*
 * second_level: calls whose arguments point to structures holding
 * pointers, and strace prints what those point to: VIDIOC_S_EXT_CTRLS's
 * control strings, KEYCTL_DH_COMPUTE's otherinfo, bpf(BPF_LINK_CREATE)'s
 * kprobe_multi symbol names and cookies. Every call fails (a bad
 * descriptor, no such key, no BPF program) after the kernel read nothing
 * or a part. Right after each call the program writes over the memory
 * and unmaps it, so a tracer that read it after the call (from the live
 * process) shows other bytes or none: what is printed must have been
 * copied as the call entered.
 */
#include <linux/blkpg.h>
#include <linux/bpf.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/keyctl.h>
#include <linux/perf_event.h>
#include <linux/videodev2.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static char *page(void)
{
	return mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/* overwritten, then gone */
static void spoil(char *p)
{
	memset(p, 'X', 4096);
	munmap(p, 4096);
}

int main(void)
{
	syscall(SYS_getppid); /* start marker */

	/* V4L2: two controls, the second a string of 5 bytes */
	char *m = page();
	struct v4l2_ext_control *c = (void *)m;
	char *str = m + 2048;
	memcpy(str, "genba", 5);
	c[0].id = V4L2_CID_BRIGHTNESS;
	c[0].size = 0;
	c[0].value64 = 42;
	c[1].id = V4L2_CID_CONTRAST;
	c[1].size = 5;
	c[1].string = str;
	struct v4l2_ext_controls cs = {
		.ctrl_class = V4L2_CTRL_CLASS_USER,
		.count = 2,
		.controls = c,
	};
	ioctl(-1, VIDIOC_S_EXT_CTRLS, &cs);
	spoil(m);

	/* keyctl: the KDF parameters' otherinfo */
	m = page();
	memcpy(m, "hmac(sha256)", 13);
	memcpy(m + 64, "\1\2 other", 8);
	struct keyctl_dh_params dh = { .private = 1, .prime = 2, .base = 3 };
	struct keyctl_kdf_params kdf = {
		.hashname = m,
		.otherinfo = m + 64,
		.otherinfolen = 8,
	};
	char out[16];
	syscall(SYS_keyctl, KEYCTL_DH_COMPUTE, &dh, out, sizeof(out), &kdf);
	spoil(m);

	/* bpf: kprobe_multi's symbols and cookies */
	m = page();
	char **syms = (void *)m;
	uint64_t *cookies = (void *)(m + 64);
	memcpy(m + 128, "vfs_read", 9);
	memcpy(m + 160, "vfs_write", 10);
	syms[0] = m + 128;
	syms[1] = NULL;
	syms[2] = m + 160;
	cookies[0] = 7;
	cookies[1] = 0;
	cookies[2] = 0xdeadbeef;
	union bpf_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = -1;
	attr.link_create.attach_type = 42; /* BPF_TRACE_KPROBE_MULTI */
	attr.link_create.kprobe_multi.cnt = 3;
	attr.link_create.kprobe_multi.syms = (uintptr_t)syms;
	attr.link_create.kprobe_multi.cookies = (uintptr_t)cookies;
	syscall(SYS_bpf, BPF_LINK_CREATE, &attr, 48);
	spoil(m);

	/* BLKPG: the partition its argument points to */
	m = page();
	struct blkpg_partition *part = (void *)m;
	part->start = 4096;
	part->length = 8192;
	part->pno = 3;
	strcpy(part->devname, "sda3");
	strcpy(part->volname, "data");
	struct blkpg_ioctl_arg bp = {
		.op = BLKPG_ADD_PARTITION,
		.datalen = sizeof(*part),
		.data = part,
	};
	ioctl(-1, BLKPG, &bp);
	spoil(m);

	/* SIOCGIFCONF: the interfaces the kernel writes (room for one) */
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	m = page();
	struct ifconf ifc = { .ifc_len = sizeof(struct ifreq), .ifc_buf = m };
	ioctl(s, SIOCGIFCONF, &ifc);
	spoil(m);
	close(s);

	/* perf_event: a filter string, a query, new attributes */
	m = page();
	strcpy(m, "common_pid != 0");
	ioctl(-1, PERF_EVENT_IOC_SET_FILTER, m);
	struct perf_event_query_bpf *q = (void *)(m + 1024);
	q->ids_len = 4;
	ioctl(-1, PERF_EVENT_IOC_QUERY_BPF, q);
	struct perf_event_attr *pa = (void *)(m + 2048);
	pa->type = PERF_TYPE_SOFTWARE;
	pa->size = sizeof(*pa);
	pa->config = PERF_COUNT_SW_CPU_CLOCK;
	pa->sample_period = 1000;
	ioctl(-1, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, pa);
	spoil(m);

	/* bpf: a program that uses two maps, and its info's map_ids */
	int maps[2];
	for (int i = 0; i < 2; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.map_type = BPF_MAP_TYPE_ARRAY;
		attr.key_size = 4;
		attr.value_size = 8;
		attr.max_entries = 1;
		maps[i] = syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	}
	/* r1 = map0; r1 = map1; r0 = 0; exit */
	struct bpf_insn insns[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1, .src_reg = BPF_PSEUDO_MAP_FD, .imm = maps[0] },
		{ 0 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1, .src_reg = BPF_PSEUDO_MAP_FD, .imm = maps[1] },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (uintptr_t) "GPL";
	int prog = syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	m = page();
	struct bpf_prog_info *info = (void *)m;
	info->nr_map_ids = 3;
	info->map_ids = (uintptr_t)(m + 2048);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (uintptr_t)info;
	syscall(SYS_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, 16);
	spoil(m);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
