/*
 * hello.c: the smallest picolibc guest: printf to stdout, a line on stderr
 * and a line on the public output (fd 3). Exercises stdio buffering and
 * its flush at exit.
 */
#include <stdio.h>
#include <string.h>

#include "guest.h"

int main(void)
{
    static const char pub[] = "public: hello from the guest\n";
    printf("Hello, zkVM! %d + %d = %d\n", 2, 3, 2 + 3);
    fprintf(stderr, "stderr: hello from the guest\n");
    guest_write_public(pub, strlen(pub));
    return 0;
}
