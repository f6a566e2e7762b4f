/* Source attribution across dlopen and threads: a library loaded at run
 * time, and calls made from two threads. Expected lines come from the
 * SITE: markers here and in plugin.c. */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static const char *path = "/etc/hostname";

static void *worker(void *arg)
{
	int fd = open(path, O_RDONLY); /* SITE:thread_open */
	if (fd >= 0)
		close(fd);
	return arg;
}

int main(int argc, char **argv)
{
	if (argc > 2)
		path = argv[2];
	void *h = dlopen(argv[1], RTLD_NOW);
	if (!h)
		return 2;
	int (*probe)(const char *) = (int (*)(const char *))dlsym(h, "plugin_probe");
	probe(path);
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
