/* Source attribution of a system call made by a `syscall` instruction
 * inlined into the program's own code: at -O2 raw_getppid is inlined into
 * main, and the instruction after the syscall belongs to main's next line.
 * The call site is the inline function's line, marked SITE:inline_syscall. */
#include <sys/syscall.h>

static inline long raw_getppid(void)
{
	long ret;
	asm volatile("syscall" : "=a"(ret) : "0"((long)SYS_getppid) : "rcx", "r11", "memory"); /* SITE:inline_syscall */
	return ret;
}

static volatile long sink;

int main(void)
{
	long ppid = raw_getppid();
	sink = ppid * 3; /* SITE:after */
	return ppid > 0 ? 0 : 1;
}
