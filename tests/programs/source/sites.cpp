// C++ source-attribution target: a call made inside an inlined member
// template must be attributed to the template's line, marked inlined.
#include <fcntl.h>
#include <string>
#include <unistd.h>

template <typename T> struct Sink {
	int fd;
	template <typename U> inline void put(const U &s)
	{
		::write(fd, s.data(), s.size()); /* SITE:template_write */
	}
};

__attribute__((noinline)) static void run(const char *p)
{
	int fd = ::open(p, O_RDONLY); /* SITE:open */
	char b[16];
	::read(fd, b, sizeof b); /* SITE:read */
	::close(fd);
	Sink<int> s{1};
	s.put(std::string("x\n"));
}

int main(int argc, char **argv)
{
	run(argc > 1 ? argv[1] : "/etc/hostname");
	return 0;
}
