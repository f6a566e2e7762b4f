/* -e inject=...:poke_enter= and poke_exit=: genba writes this program's
 * memory before a call runs and as it returns. The program prints what it
 * then sees: its write()'s buffer (written before the call) and getcwd()'s
 * (written after the kernel filled it). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	char out[6] = "hello";
	char cwd[256];
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0 || write(fd, out, 5) != 5)
		return 1;
	if (!getcwd(cwd, sizeof(cwd)))
		return 2;
	cwd[4] = 0;
	printf("out=%s cwd=%s\n", out, cwd);
	return 0;
}
