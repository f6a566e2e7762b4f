/* killself: kills itself with SIGTERM, so a shell sees status 143. */
#include <signal.h>
#include <unistd.h>

int main(void)
{
	kill(getpid(), SIGTERM);
	pause();
	return 1;
}
