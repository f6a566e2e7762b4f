// Go source-attribution target: Go makes its system calls without libc,
// from its own runtime; the site is the first frame past the runtime.
package main

import "os"

//go:noinline
func run(p string) {
	f, _ := os.Open(p) // SITE:open
	b := make([]byte, 16)
	f.Read(b)                      // SITE:read
	os.Stdout.Write([]byte("x\n")) // SITE:write
}

func main() { run(os.Args[1]) }
