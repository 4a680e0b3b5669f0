/* trap: writes to stderr, then executes `unreachable`. */
#include <stdio.h>
int main(void) {
  fputs("trap: about to crash\n", stderr);
  fflush(stderr);
  __builtin_trap();
}
