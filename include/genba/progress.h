/*
 * genba/progress.h: mark progress in a program for `genba causal`.
 *
 *   #include <genba/progress.h>
 *   ...
 *   GENBA_PROGRESS(request_done);   // each time a request is done
 *
 * then `genba causal --progress request_done -- ./program` counts the
 * times the program passes there. The mark costs one nop: it is a
 * statically defined tracing point (a SystemTap SDT note, provider
 * "genba"), which genba finds in the program's file and puts a uprobe on,
 * as perf, bpftrace and gdb find such points too. No library, no link
 * flag, no effect when nothing traces it. x86-64 and aarch64, GCC and
 * Clang. NAME is a C identifier.
 */
#ifndef GENBA_PROGRESS_H
#define GENBA_PROGRESS_H

/* The note: its size fields, "stapsdt" and type 3, then the probe's
 * address, the address of the .stapsdt.base section (for tools that
 * adjust for prelinking), no semaphore, and provider, name and argument
 * strings. The .stapsdt.base section is one byte, shared by every mark of
 * the program (a COMDAT group). */
#define GENBA_PROGRESS__STR(x) #x
#define GENBA_PROGRESS(name)                                                        \
	__asm__ __volatile__("990: nop\n"                                           \
			     ".pushsection .note.stapsdt,\"?\",\"note\"\n"          \
			     ".balign 4\n"                                          \
			     ".4byte 992f-991f, 994f-993f, 3\n"                     \
			     "991: .asciz \"stapsdt\"\n"                            \
			     "992: .balign 4\n"                                     \
			     "993: .8byte 990b\n"                                   \
			     ".8byte _.stapsdt.base\n"                              \
			     ".8byte 0\n"                                           \
			     ".asciz \"genba\"\n"                                   \
			     ".asciz \"" GENBA_PROGRESS__STR(name) "\"\n"           \
			     ".asciz \"\"\n"                                        \
			     "994: .balign 4\n"                                     \
			     ".popsection\n"                                        \
			     ".ifndef _.stapsdt.base\n"                             \
			     ".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
			     ".weak _.stapsdt.base\n"                               \
			     ".hidden _.stapsdt.base\n"                             \
			     "_.stapsdt.base: .space 1\n"                           \
			     ".size _.stapsdt.base, 1\n"                            \
			     ".popsection\n"                                        \
			     ".endif\n")

#endif
